/*
 * match_internal.h - the interface between gcut_match (lib/match.c), the
 * CPU matchers (lib/solvers/match_*.c) and the checker. Never installed.
 *
 * A matcher receives a valid matching in rmate/cmate (mates of rows and
 * columns, -1 when free) and must leave a maximum one there. It reads the
 * graph only, so one graph may be matched from several threads.
 */
#ifndef GCUT_MATCH_INTERNAL_H
#define GCUT_MATCH_INTERNAL_H

#include "match/bipartite_internal.h"

typedef struct gcut_i_match_ctx {
    const gcut_bipartite *b;
    int32_t *rmate;                 /* nr: column of each row or -1 */
    int32_t *cmate;                 /* nc: row of each column or -1 */
    double deadline;                /* gcut_i_now_ms() limit */
    double relabel_freq;            /* push-relabel: k of the global relabel */
    const gcut_solve_options *log;  /* log sink and verbosity */
    gcut_match_stats *stats;
} gcut_i_match_ctx;

typedef gcut_status (*gcut_i_matcher_fn)(const gcut_i_match_ctx *ctx);

GCUT_HIDDEN gcut_status gcut_i_match_pr(const gcut_i_match_ctx *ctx);
GCUT_HIDDEN gcut_status gcut_i_match_hk(const gcut_i_match_ctx *ctx);

/* Initial heuristics: extend the matching in rmate/cmate; return its new
 * cardinality, or -1 when out of memory (nothing recorded). */
GCUT_HIDDEN int64_t gcut_i_match_greedy(const gcut_bipartite *b, int32_t *rmate, int32_t *cmate);
GCUT_HIDDEN int64_t gcut_i_match_karp_sipser(const gcut_bipartite *b, int32_t *rmate,
                                            int32_t *cmate);

/* König cover of a matching: the alternating BFS from the free rows marks
 * Z; the cover is (rows not in Z) + (columns in Z). Fills cover_r/cover_c
 * (nr / nc bytes, 1 = in the cover) and returns the cover size, or -1 when
 * out of memory. *free_col_reached receives a free column in Z (an
 * augmenting path exists) or -1, and *from_row the free row it came from. */
GCUT_HIDDEN int64_t gcut_i_match_cover(const gcut_bipartite *b, const int32_t *rmate,
                                       const int32_t *cmate, uint8_t *cover_r, uint8_t *cover_c,
                                       int32_t *free_col_reached, int32_t *from_row);

#endif /* GCUT_MATCH_INTERNAL_H */
