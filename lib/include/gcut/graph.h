/*
 * gcut/graph.h - the graph model, its builder and DIMACS I/O.
 *
 * One model for every engine (docs/design.md section 2): n nodes (int32 ids,
 * 0-based), edges u-v with a capacity in each direction (cap for u->v,
 * rev_cap for v->u), and per-node terminal capacities cap_source[v] and
 * cap_sink[v] that accumulate as in Boykov-Kolmogorov's add_tweights.
 *
 * Basic interface (BK-shaped):
 *
 *     gcut_graph *g;
 *     gcut_graph_new(&g, 3, 2);                 // 3 nodes, room for 2 edges
 *     gcut_graph_add_tweights(g, 0, 10, 0);     // source -> 0, capacity 10
 *     gcut_graph_add_tweights(g, 2, 0, 7);      // 2 -> sink, capacity 7
 *     gcut_graph_add_edge(g, 0, 1, 5, 0);       // 0 -> 1, capacity 5
 *     gcut_graph_add_edge(g, 1, 2, 9, 3);       // 1 -> 2: 9, 2 -> 1: 3
 *     int64_t flow;
 *     gcut_graph_maxflow(g, "auto", &flow);     // flow == 5
 *     int side = gcut_graph_segment(g, 1);      // GCUT_SINK
 *     gcut_graph_free(g);
 *
 * Everything else in this header is advanced.
 *
 * Costs: adding an edge is amortised O(1) (arrays grow by a factor 1.5; give
 * a good arcs_hint to avoid regrowth); 16 bytes per edge and 8 per node are
 * kept for the model. The first solve builds the layout its back end needs
 * (BCSR: about 24 bytes per arc, two arcs per edge; RCSR for GPU engines) in
 * O(n + m) and caches it on the graph until the graph changes.
 */
#ifndef GCUT_GRAPH_H
#define GCUT_GRAPH_H

#include <stdio.h>

#include "gcut/common.h"

GCUT_BEGIN_C_DECLS

/** \brief Opaque graph handle. */
typedef struct gcut_graph gcut_graph;

/** \brief Cut sides, as BK's what_segment. */
enum { GCUT_SOURCE = 0, GCUT_SINK = 1 };

/** \brief Largest node count a graph may have. */
#define GCUT_MAX_NODES INT32_MAX

/** \brief Create a graph with \p num_nodes nodes (ids 0 .. num_nodes-1) and room
 *  for \p edges_hint edges.
 *  \param out receives the new graph; unchanged on failure.
 *  \returns GCUT_OK, GCUT_ERR_INVALID (negative sizes, NULL out), GCUT_ERR_NOMEM.
 *  \threadsafety Distinct graphs may be used from distinct threads. One
 *  graph may be read and solved (gcut_solve()) from several threads at once
 *  as long as no thread changes it; a change (adding nodes or edges,
 *  setting capacities, gcut_graph_maxflow(), freeing it) concurrent with any
 *  other use of the same graph is the caller's to serialise.
 *  \since 0.1 */
GCUT_EXPORT gcut_status gcut_graph_new(gcut_graph **out, int32_t num_nodes, int64_t edges_hint);

/** \brief Free a graph and everything it owns. NULL is a no-op. */
GCUT_EXPORT void gcut_graph_free(gcut_graph *g);

/** \brief Append \p count nodes; their ids start at *first_id (optional). */
GCUT_EXPORT gcut_status gcut_graph_add_nodes(gcut_graph *g, int32_t count, int32_t *first_id);

/** \brief Add an edge u-v: capacity \p cap from u to v and \p rev_cap from v to u.
 *
 *  Parallel edges are kept apart; self-loops (u == v) are accepted and never
 *  carry flow. Edge ids are given in order of addition, from 0.
 *  \returns GCUT_ERR_INVALID for ids out of range or negative capacities. */
GCUT_EXPORT gcut_status gcut_graph_add_edge(gcut_graph *g, int32_t u, int32_t v, int32_t cap,
                                            int32_t rev_cap);

/** \brief Add terminal capacities to node v: \p source from the source to v and
 *  \p sink from v to the sink. They accumulate over calls.
 *  \returns GCUT_ERR_INVALID (bad id, negative), GCUT_ERR_OVERFLOW (sum past INT32_MAX). */
GCUT_EXPORT gcut_status gcut_graph_add_tweights(gcut_graph *g, int32_t v, int32_t source,
                                                int32_t sink);

/** \brief Add \p count edges from arrays (advanced; the fast path for big graphs).
 *  \p rev_cap may be NULL (all zero). All input is validated before anything is
 *  added: on failure the graph is unchanged. */
GCUT_EXPORT gcut_status gcut_graph_add_edges(gcut_graph *g, int64_t count, const int32_t *from,
                                             const int32_t *to, const int32_t *cap,
                                             const int32_t *rev_cap);

/** \brief Add terminal capacities to nodes first .. first+count-1 from arrays
 *  (either may be NULL). Validated before anything changes. */
GCUT_EXPORT gcut_status gcut_graph_add_tweights_bulk(gcut_graph *g, int32_t first, int32_t count,
                                                     const int32_t *source, const int32_t *sink);

/** \brief Set the terminal capacities of node v to \p source and \p sink
 *  (advanced; gcut_graph_add_tweights adds to them instead). Like every
 *  change of terminal capacities it keeps the cached layouts and the kept
 *  state of a warm re-solve (see gcut_graph_set_warm_start).
 *  \returns GCUT_ERR_INVALID (bad id, negative, NULL graph); the graph is
 *  unchanged on failure.
 *  \since 0.3 */
GCUT_EXPORT gcut_status gcut_graph_set_tweights(gcut_graph *g, int32_t v, int32_t source,
                                                int32_t sink);

/** \brief Warm re-solve on general graphs (advanced): on (the default) or off.
 *
 *  A solve with cpu-eibfs leaves its final state in the graph: the flow,
 *  the two search forests and their labels, and the terminal capacities it
 *  solved (about 16 bytes per arc and 40 per node). When only terminal
 *  capacities change before the next cpu-eibfs solve
 *  (gcut_graph_add_tweights, gcut_graph_set_tweights, the bulk call), that
 *  solve starts from the kept flow and forests: each changed node's excess
 *  moves by its change and the search goes on from there (the dynamic
 *  re-solve of Goldberg et al., ESA 2015; BK's mark_node / reuse_trees).
 *  The answer is exactly the cold one: the same flow value and the same
 *  canonical cut. gcut_stats::warm_start says whether a solve was warm.
 *  Adding nodes or edges drops the state (the next solve is cold). A
 *  failed or interrupted solve makes the next one cold, and this call with
 *  \p enable 0 every later one; the state stays all the same, as part of
 *  the graph's cached layouts: a cold solve starts from the records the
 *  last one left and restores in place what it changed, and the first
 *  solve's fill of them is timed as its layout build
 *  (gcut_stats::build_ms). Solves with other back ends leave it alone.
 *  \threadsafety A graph solved from several threads at once keeps the
 *  state of one of them; the others solve cold.
 *  \since 0.3 */
GCUT_EXPORT gcut_status gcut_graph_set_warm_start(gcut_graph *g, int enable);

/* ------------------------------------------------------------ float capacities
 *
 * Engines take int32 capacities. The float entry points (this one and those
 * of grid.h) quantise: a value e becomes the capacity round(scale * e), with
 * one scale for the whole problem, chosen by the library or given by the
 * caller, and report what that costs in a gcut_quantization.
 *
 * Automatic scale: the largest power of two with which every node's total
 * (its terminal capacities plus the capacities of all its arcs, out and in)
 * stays at most 2^28, a factor 8 below INT32_MAX, so that no capacity, no
 * engine's sum at a node and (n <= 2^31 nodes) no int64 flow total can
 * overflow, whatever the magnitudes (1e30 and FLT_MAX included: the scale
 * is then tiny and small values round to 0, which the bound reports). A
 * power of two makes scale * e and round(scale * e) / scale exact.
 * A caller's scale (> 0, finite) is used as given; a value that would not
 * fit in int32 at that scale fails with GCUT_ERR_OVERFLOW naming it.
 *
 * The guarantee. Let E(x) be the float energy of a labelling (cut) x, the
 * sum of its terms e_i (for capacities: the cut capacity in floats), and
 * E_q(x) that of the quantised problem, whose terms are round(scale e_i).
 * With bound = sum over all terms of |round(scale e_i) / scale - e_i|
 * (at most terms / (2 scale)):
 *  - for every x, |E(x) - (offset + E_q(x) / scale)| <= bound (for grid
 *    energies: every x that gives each node whose t-link was clamped, see
 *    grid.h, its cheaper label, as every minimum of either problem does;
 *    such a node's term is left out of bound);
 *  - the cut returned by any engine is a minimum cut of the quantised
 *    problem (exactly), and its float energy is within bound of the float
 *    optimum: E(cut) - min E <= bound, since
 *    E(cut) - E(x*) = (E_q(cut) - E_q(x*)) / scale - sum_i err_i (a_i(cut) - a_i(x*))
 *    with the first part <= 0 and each a_i in {0, 1}.
 * bound is computed in double with a relative margin for its own rounding.
 */

/** \brief What the quantisation of a float problem cost (since 0.3). */
typedef struct gcut_quantization {
    double scale;  /**< capacity units per energy unit: a value e became round(scale * e) */
    double offset; /**< energy constant taken out before quantising (grids' unary costs:
                    *   the sum over nodes of min(cost_fg, cost_bg)); 0 for capacities */
    double bound;  /**< for every labelling x, |E(x) - (offset + E_q(x) / scale)| <= bound,
                    *   and the returned cut's float energy is within bound of the float
                    *   optimum (see above); at most terms / (2 scale) plus the margin */
    int64_t terms; /**< terms counted in bound (non-zero float values, clamped t-links left out) */
    double energy; /**< offset + flow / scale for the flow value given to the query: the
                    *   quantised energy of the returned cut in float units; its float
                    *   energy and the float optimum both lie within bound of it */
} gcut_quantization;

/** \brief Build a graph from float capacities (since 0.3): \p num_nodes nodes,
 *  \p num_edges edges (from[i], to[i], cap[i], rev_cap[i]) in that order,
 *  and terminal capacities \p cap_source / \p cap_sink (num_nodes each).
 *
 *  \p rev_cap, \p cap_source and \p cap_sink may be NULL (all zero).
 *  Every value must be finite and >= 0. \p scale: 0 chooses it (see above),
 *  > 0 is used as given. Self-loops are kept as edges with capacities 0
 *  (they never carry flow). The report goes to \p q (may be NULL) and stays
 *  with the graph (gcut_graph_quantization); edges and terminal capacities
 *  added later with the int32 calls are taken as already scaled.
 *  \returns GCUT_OK; GCUT_ERR_INVALID (NULL arrays, ids out of range, NaN,
 *  negative or infinite values, a bad scale: the message names the edge or
 *  node); GCUT_ERR_OVERFLOW (a value past INT32_MAX at the caller's scale:
 *  named); GCUT_ERR_NOMEM. Nothing is allocated on failure.
 *  \threadsafety Safe from any thread (distinct outputs).
 *  \since 0.3 */
GCUT_EXPORT gcut_status gcut_graph_new_f32(gcut_graph **out, int32_t num_nodes, int64_t num_edges,
                                           const int32_t *from, const int32_t *to, const float *cap,
                                           const float *rev_cap, const float *cap_source,
                                           const float *cap_sink, double scale,
                                           gcut_quantization *q);

/** \brief The quantisation report of a graph built by gcut_graph_new_f32, with
 *  q->energy = offset + \p flow / scale for the flow value of a solve of it
 *  (gcut_result_flow, or gcut_graph_maxflow's). \returns GCUT_ERR_STATE
 *  for a graph not built from floats; GCUT_ERR_INVALID (NULL).
 *  \since 0.3 */
GCUT_EXPORT gcut_status gcut_graph_quantization(const gcut_graph *g, int64_t flow,
                                                gcut_quantization *q);

/** \brief Build the layouts now instead of at the first solve (advanced).
 *  Building again after a change happens automatically. The records
 *  that engines keep with the layouts (cpu-bk's: 16 bytes per arc and 36
 *  per node; cpu-eibfs's state: 16 and 40) are built by the engine's
 *  first solve, not here. */
GCUT_EXPORT gcut_status gcut_graph_freeze(gcut_graph *g);

GCUT_EXPORT int32_t gcut_graph_num_nodes(const gcut_graph *g);
GCUT_EXPORT int64_t gcut_graph_num_edges(const gcut_graph *g);

/** \brief Read edge \p e (advanced). Any output may be NULL. */
GCUT_EXPORT gcut_status gcut_graph_get_edge(const gcut_graph *g, int64_t e, int32_t *u, int32_t *v,
                                            int32_t *cap, int32_t *rev_cap);

/** \brief Terminal capacities of node v (advanced). Any output may be NULL. */
GCUT_EXPORT gcut_status gcut_graph_get_tweights(const gcut_graph *g, int32_t v, int32_t *source,
                                                int32_t *sink);

/** \brief Solve with back end \p backend ("auto" or NULL for automatic) and keep
 *  the cut in the graph for gcut_graph_segment(). The basic BK-style call;
 *  gcut_solve() (solve.h) gives options, statistics and flows. */
GCUT_EXPORT gcut_status gcut_graph_maxflow(gcut_graph *g, const char *backend, int64_t *flow);

/** \brief Side of node v in the last gcut_graph_maxflow cut: GCUT_SOURCE or
 *  GCUT_SINK (the canonical cut; GCUT_SOURCE if never solved or v invalid). */
GCUT_EXPORT int gcut_graph_segment(const gcut_graph *g, int32_t v);

/* ---------------------------------------------------------------- DIMACS I/O
 *
 * The DIMACS max-flow format: comment lines `c ...`, one problem line
 * `p max NODES ARCS`, two node lines `n ID s` and `n ID t`, then `a U V CAP`
 * lines (ids 1-based). Blank lines and blanks around fields (spaces, tabs,
 * CR of CRLF files) are accepted. Only comments and blank lines may come
 * before the problem line, and both node lines must come before the first
 * arc (as the DIMACS definition asks).
 *
 * On load, arcs out of s become source capacities of their head, arcs into t
 * sink capacities of their tail, arcs into s or out of t are dropped (counted
 * in gcut_dimacs_info::dropped), and every other arc becomes an edge
 * (u, v, cap, 0), in file order, with node ids shifted to 0-based: file node
 * k becomes node k-1. Self-loops and parallel arcs are kept as edges.
 * s and t stay in the graph as isolated nodes so that ids keep their meaning.
 * An arc s -> t of capacity c, which has no place in the model, gives node s
 * (id s-1) source capacity c and sink capacity c: that otherwise isolated
 * node then carries exactly c units, so the maximum flow is unchanged.
 * Terminal capacities accumulate per node and must stay <= INT32_MAX
 * (GCUT_ERR_OVERFLOW otherwise).
 *
 * Files compressed with gzip are read transparently (detected by the magic
 * bytes 1f 8b, also on streams and stdin; concatenated members are read as
 * one). A build without zlib answers GCUT_ERR_UNSUPPORTED for them.
 *
 * Speed: the reader parses text at a few hundred MB/s on one core (1 MiB
 * blocks, integers parsed by hand, arcs stored straight into the graph);
 * a regular, uncompressed file of 8 MiB or more named by its path is
 * mapped and its arc lines are parsed by several threads (one per CPU, up
 * to 16; gcut_graph_read_dimacs_opt() sets the number), with the same
 * graph, info and messages (docs/dimacs.md, "Speed"). Memory is about 16
 * bytes per edge plus 8 per node.
 */

/** \brief Information about a DIMACS file besides the graph (optional output). */
typedef struct gcut_dimacs_info {
    int32_t source;      /**< 0-based id of s */
    int32_t sink;        /**< 0-based id of t */
    int64_t arcs;        /**< `a` lines read */
    int64_t dropped;     /**< arcs into s or out of t, dropped */
    int64_t bytes;       /**< bytes of text parsed (uncompressed) */
} gcut_dimacs_info;

/** \brief Load a DIMACS max-flow file ("-" reads stdin). Gzip is detected by
 *  its magic bytes. \p info may be NULL.
 *  \returns GCUT_ERR_IO (cannot open/read: the message has the path and the
 *  system's reason), GCUT_ERR_PARSE (malformed input: the message names the
 *  file, the line and the problem, e.g. `g.max:12: arc 7 -> 99: node id out of
 *  range [1, 50]`; also a corrupt or truncated gzip stream),
 *  GCUT_ERR_OVERFLOW (a node's terminal capacities sum past INT32_MAX),
 *  GCUT_ERR_UNSUPPORTED (gzip input without zlib), GCUT_ERR_NOMEM,
 *  GCUT_ERR_INVALID (NULL path or out). *out and *info are set only on
 *  success; on failure nothing is allocated.
 *  \threadsafety Safe from any thread (distinct outputs).
 *  \since 0.1 */
GCUT_EXPORT gcut_status gcut_graph_read_dimacs(const char *path, gcut_graph **out,
                                               gcut_dimacs_info *info);

/** \brief Options of gcut_graph_read_dimacs_opt(), filled by
 *  gcut_dimacs_options_init(). \since 0.4 */
typedef struct gcut_dimacs_options {
    size_t struct_size; /**< sizeof(gcut_dimacs_options), set by gcut_dimacs_options_init() */
    /** Threads that parse a large plain file: 0 (the default) one per online
     *  CPU, at most 16; 1 the serial block reader of gcut_graph_read_dimacs_file().
     *  Files under 8 MiB, gzip files and stdin are always read serially. */
    int32_t threads;
} gcut_dimacs_options;

/** \brief Fill \p opt with the defaults (threads 0: automatic). NULL is a no-op.
 *  \threadsafety Safe from any thread. \since 0.4 */
GCUT_EXPORT GCUT_EXPERIMENTAL void gcut_dimacs_options_init(gcut_dimacs_options *opt);

/** \brief gcut_graph_read_dimacs() with options (\p opt NULL: the defaults).
 *
 *  A regular, uncompressed file of 8 MiB or more is mapped (mmap) and its
 *  arc lines are parsed in chunks by opt->threads threads; the graph, the
 *  info and every error message are exactly those of the serial reader
 *  (docs/dimacs.md, "Speed"). As with any mapped reader, a file truncated
 *  by another process while it is read ends the process with SIGBUS;
 *  threads = 1 reads with read(2) only.
 *  \returns as gcut_graph_read_dimacs(), and GCUT_ERR_INVALID for options
 *  not filled by gcut_dimacs_options_init() or a negative thread count.
 *  \threadsafety Safe from any thread (distinct outputs).
 *  \since 0.4 */
GCUT_EXPORT GCUT_EXPERIMENTAL gcut_status gcut_graph_read_dimacs_opt(const char *path,
                                                                     const gcut_dimacs_options *opt,
                                                                     gcut_graph **out,
                                                                     gcut_dimacs_info *info);

/** \brief Load from an open stream, read to its end (not closed); \p name is
 *  used in messages (NULL: "<stream>"). Same rules as gcut_graph_read_dimacs(). */
GCUT_EXPORT gcut_status gcut_graph_read_dimacs_file(FILE *f, const char *name, gcut_graph **out,
                                                    gcut_dimacs_info *info);

/** \brief Write the graph as DIMACS ("-" writes stdout): nodes 1..n, then
 *  s = n+1 and t = n+2. The output is fully determined by the graph: two
 *  comment lines (the first names gcut), `p max n+2 ARCS` with the exact arc
 *  count, `n n+1 s`, `n n+2 t`, then `a s v cap_source` for each positive
 *  source capacity (v ascending), `a v t cap_sink` for each positive sink
 *  capacity (v ascending), and for each edge in order `a u v cap` and
 *  `a v u rev_cap`, each only when that capacity is positive (self-loops are
 *  written too; zero-capacity edges are not). Reading the file back gives the
 *  same terminal capacities and one edge per positive direction, plus the
 *  isolated nodes s and t.
 *  \p path "-" is stdout; a device or FIFO is written directly; anything
 *  else through a temporary file in the same folder, synced and renamed
 *  over \p path (a symbolic link stays a link, its target is replaced).
 *  \returns GCUT_ERR_IO (cannot create or write: an existing file is left
 *  as it was, the message names the file and the reason),
 *  GCUT_ERR_OVERFLOW (n > INT32_MAX - 2: the file could not be read back),
 *  GCUT_ERR_NOMEM, GCUT_ERR_INVALID (NULL arguments).
 *  \threadsafety Safe from any thread (distinct outputs).
 *  \since 0.1 */
GCUT_EXPORT gcut_status gcut_graph_write_dimacs(const gcut_graph *g, const char *path);

/** \brief Write to an open stream (flushed, not closed); \p name is used in
 *  messages (NULL: "<stream>"). Same output as gcut_graph_write_dimacs(). */
GCUT_EXPORT gcut_status gcut_graph_write_dimacs_file(const gcut_graph *g, FILE *f,
                                                     const char *name);

GCUT_END_C_DECLS

#endif /* GCUT_GRAPH_H */
