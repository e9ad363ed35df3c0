/*
 * gcut/match.h - maximum-cardinality bipartite matching (advanced).
 *
 * Getting started:
 *
 *     gcut_bipartite *b;
 *     if (gcut_bipartite_read_mtx(&b, "matrix.mtx") != GCUT_OK)  // rows x columns
 *         fprintf(stderr, "%s\n", gcut_last_error());
 *     gcut_match_options opt;
 *     gcut_match_options_init(&opt);          // backend "auto", init greedy
 *     gcut_match_result *res;
 *     gcut_match_result_new(&res);
 *     if (gcut_match(b, &opt, res) != GCUT_OK)
 *         fprintf(stderr, "%s\n", gcut_last_error());
 *     int64_t card = gcut_match_result_cardinality(res);
 *     const int32_t *row_mate = gcut_match_result_row_mates(res);  // column or -1
 *     gcut_match_result_free(res);
 *     gcut_bipartite_free(b);
 *
 * A bipartite graph has `rows` vertices on one side and `cols` on the other
 * (the rows and columns of a sparse matrix: entry (i, j) is the edge i - j).
 * A matching pairs rows with columns along edges, each vertex at most once;
 * gcut_match finds one of maximum cardinality. gcut_match_check proves a
 * matching maximum with a König certificate: a vertex cover of the same size.
 *
 * Back ends (a table of their own, separate from the max-flow back ends):
 * "cpu-match-pr" (push-relabel, FIFO, global relabelling; Kaya, Langguth,
 * Manne & Uçar 2013) and "cpu-match-hk" (Hopcroft-Karp 1973, the reference).
 * The GPU plugin adds "cuda-match-gpr" (G-PR, Deveci et al. 2013) through its
 * descriptor (gcut_plugin_descriptor, gcut/plugin.h); it runs only when
 * named, and fails with GCUT_ERR_UNAVAILABLE without a device.
 * "auto" picks cpu-match-pr. See docs/matching.md.
 */
#ifndef GCUT_MATCH_H
#define GCUT_MATCH_H

#include "gcut/common.h"

GCUT_BEGIN_C_DECLS

/** \brief Opaque bipartite graph: rows x columns, duplicate edges merged. */
typedef struct gcut_bipartite gcut_bipartite;

/** \brief Build a bipartite graph from an edge list (0-based).
 *
 *  Edge e joins row \p row[e] and column \p col[e]. Duplicate edges are
 *  merged (they change nothing for matching); the arrays are read, not kept.
 *  \returns GCUT_OK; GCUT_ERR_INVALID for negative sizes, NULL arrays with
 *  \p edges > 0, or an id out of range (the message names the edge);
 *  GCUT_ERR_NOMEM. On failure *out is unchanged.
 *  \threadsafety Safe from any thread.
 *  Complexity: O(rows + cols + edges). */
GCUT_EXPORT gcut_status gcut_bipartite_new(gcut_bipartite **out, int32_t rows, int32_t cols,
                                           const int32_t *row, const int32_t *col, int64_t edges);

/** \brief Read a Matrix Market coordinate file ("-" reads stdin).
 *
 *  Banner `%%MatrixMarket matrix coordinate FIELD SYMMETRY` with FIELD one of
 *  pattern, real, integer, complex and SYMMETRY one of general, symmetric,
 *  skew-symmetric, hermitian; then comment lines (`%`), the size line
 *  `ROWS COLS ENTRIES` and ENTRIES lines `I J [VALUE [IMAG]]`, 1-based.
 *  Every stored entry is an edge, explicit zeros included (matching looks at
 *  the pattern only). In a symmetric, skew-symmetric or hermitian file an
 *  off-diagonal entry (i, j) also gives the edge (j, i). Duplicate entries are
 *  accepted and merged. Blank lines are skipped.
 *  \returns GCUT_OK; GCUT_ERR_IO when the file cannot be opened or read;
 *  GCUT_ERR_PARSE for a malformed file, with the message naming the line
 *  (`file.mtx:7: ...`); GCUT_ERR_NOMEM. On failure *out is unchanged.
 *  \threadsafety Safe from any thread. */
GCUT_EXPORT gcut_status gcut_bipartite_read_mtx(gcut_bipartite **out, const char *path);

/** \brief NULL is a no-op. */
GCUT_EXPORT void gcut_bipartite_free(gcut_bipartite *b);

GCUT_EXPORT int32_t gcut_bipartite_num_rows(const gcut_bipartite *b);
GCUT_EXPORT int32_t gcut_bipartite_num_cols(const gcut_bipartite *b);
/** \brief Distinct edges (after merging duplicates and mirroring symmetric files). */
GCUT_EXPORT int64_t gcut_bipartite_num_edges(const gcut_bipartite *b);
/** \brief Entries given (edge-list length or the entries of the file), duplicates included. */
GCUT_EXPORT int64_t gcut_bipartite_num_entries(const gcut_bipartite *b);

/** \brief Row adjacency in CSR form: the columns of row r are
 *  cols[offsets[r] .. offsets[r+1]-1] (offsets has rows + 1 entries).
 *  Owned by the graph. */
GCUT_EXPORT void gcut_bipartite_rows_csr(const gcut_bipartite *b, const int64_t **offsets,
                                         const int32_t **cols);

/** \brief Cheap initial matchings, run before the back end. */
typedef enum gcut_match_init {
    GCUT_MATCH_INIT_NONE = 0,   /**< start from the empty (or the given) matching */
    GCUT_MATCH_INIT_GREEDY = 1, /**< each free row takes its first free column */
    GCUT_MATCH_INIT_KS = 2      /**< Karp-Sipser: degree-1 vertices first, then greedy */
} gcut_match_init;

/** \brief Per-call options. Always fill with gcut_match_options_init() first. */
typedef struct gcut_match_options {
    size_t struct_size;        /**< set by gcut_match_options_init */
    const char *backend;       /**< "auto"/NULL, "cpu-match-pr", "cpu-match-hk",
                                    "cuda-match-gpr" */
    gcut_match_init init;      /**< initial heuristic (default GCUT_MATCH_INIT_GREEDY) */
    /** Optional initial matching: for each row its column or -1 (rows entries).
     *  It must be a valid matching; the heuristic then extends it. */
    const int32_t *initial_row_mates;
    double relabel_freq;       /**< cpu-match-pr: global relabel after k*(m+n) arcs scanned; 0: 0.5 */
    int32_t want_cover;        /**< non-zero: also compute the König vertex cover */
    double time_limit;         /**< seconds; <= 0 means none (GCUT_ERR_TIMEOUT when reached) */
    int32_t verbosity;         /**< 0 quiet ... 3 debug (through the log sink) */
    gcut_log_fn log;           /**< per-call log sink; NULL: the global one */
    void *log_user;            /**< passed to \p log */
} gcut_match_options;

/** \brief Defaults: backend "auto", greedy init, no initial matching, k = 0.5,
 *  no cover, no limit, quiet. */
GCUT_EXPORT void gcut_match_options_init(gcut_match_options *opt);

/** \brief Statistics of one matching. Times in milliseconds. */
typedef struct gcut_match_stats {
    double init_ms;             /**< initial matching (heuristic) */
    double solve_ms;            /**< the back end */
    double cover_ms;            /**< the König cover, when asked for */
    double total_ms;            /**< the whole gcut_match call */
    int64_t init_cardinality;   /**< size of the matching the back end started from */
    int64_t pushes;             /**< cpu-match-pr: (double) pushes */
    int64_t relabels;           /**< cpu-match-pr: column relabels */
    int64_t global_relabels;    /**< cpu-match-pr: BFS relabels, the first included */
    int64_t phases;             /**< cpu-match-hk: BFS/DFS phases */
    int64_t augmentations;      /**< cpu-match-hk: augmenting paths */
} gcut_match_stats;

/** \brief Opaque result of gcut_match; reusable for many calls. */
typedef struct gcut_match_result gcut_match_result;

GCUT_EXPORT gcut_status gcut_match_result_new(gcut_match_result **out);
/** \brief NULL is a no-op. */
GCUT_EXPORT void gcut_match_result_free(gcut_match_result *r);
GCUT_EXPORT int64_t gcut_match_result_cardinality(const gcut_match_result *r);
/** \brief Mate of every row: a column, or -1 (rows entries). Owned by the result. */
GCUT_EXPORT const int32_t *gcut_match_result_row_mates(const gcut_match_result *r);
/** \brief Mate of every column: a row, or -1 (cols entries). Owned by the result. */
GCUT_EXPORT const int32_t *gcut_match_result_col_mates(const gcut_match_result *r);
/** \brief König cover (NULL unless want_cover): 1 for the rows / columns in the cover. */
GCUT_EXPORT const uint8_t *gcut_match_result_cover_rows(const gcut_match_result *r);
GCUT_EXPORT const uint8_t *gcut_match_result_cover_cols(const gcut_match_result *r);
GCUT_EXPORT const gcut_match_stats *gcut_match_result_stats(const gcut_match_result *r);
/** \brief Name of the matcher that ran (a static string). */
GCUT_EXPORT const char *gcut_match_result_backend(const gcut_match_result *r);

/** \brief Find a maximum-cardinality matching of \p b.
 *  \returns GCUT_OK; GCUT_ERR_NOT_FOUND for an unknown back end; GCUT_ERR_UNAVAILABLE
 *  for a plugin matcher that cannot run here (no device);
 *  GCUT_ERR_INVALID for a bad initial matching; GCUT_ERR_TIMEOUT; GCUT_ERR_NOMEM.
 *  On failure \p res is unchanged.
 *  \threadsafety Distinct results may be filled concurrently (the graph is only read).
 *  Complexity: cpu-match-hk O(m sqrt(n)); cpu-match-pr O(n m) worst case, near
 *  linear in practice. */
GCUT_EXPORT gcut_status gcut_match(const gcut_bipartite *b, const gcut_match_options *opt,
                                   gcut_match_result *res);

/** \brief Check a matching and prove it maximum.
 *
 *  The mates must agree (row_mates[r] = c exactly when col_mates[c] = r), every
 *  pair must be an edge, and \p cardinality must be the number of pairs. Then
 *  the König cover built from the alternating BFS of the free rows (rows not
 *  reached, columns reached) must cover every edge and have \p cardinality
 *  vertices, which proves the matching maximum. \p cover_rows / \p cover_cols
 *  (may be NULL; rows / cols bytes) receive the cover.
 *  \returns GCUT_OK or GCUT_ERR_CHECK with the first violation in gcut_last_error()
 *  (e.g. an augmenting path from a free row to a free column). */
GCUT_EXPORT gcut_status gcut_match_check(const gcut_bipartite *b, const int32_t *row_mates,
                                         const int32_t *col_mates, int64_t cardinality,
                                         uint8_t *cover_rows, uint8_t *cover_cols);

/** \brief Number of matchers, and the name / description of matcher i (NULL out of range). */
GCUT_EXPORT int32_t gcut_match_backend_count(void);
GCUT_EXPORT const char *gcut_match_backend_name(int32_t i);
GCUT_EXPORT const char *gcut_match_backend_description(int32_t i);

GCUT_END_C_DECLS

#endif /* GCUT_MATCH_H */
