/*
 * match_flow.h - bipartite matching solved as max-flow, through gcut's
 * public API (bench/ only, not part of libgcut).
 *
 * The textbook reduction (Ford & Fulkerson 1962): one node per row (ids
 * 0 .. rows-1) and per column (rows .. rows+cols-1), capacity 1 from the
 * source to every row and from every column to the sink, and an edge
 * row -> column of capacity 1 for every (merged) edge of the bipartite
 * graph. An integral maximum flow saturates one edge out of each matched
 * row and one into each matched column, so the edges that carry flow 1 are
 * a maximum matching.
 *
 * It is there to compare the max-flow engines with the dedicated matchers
 * (gcut-match-maxflow, bench/run-match.sh) and to cross-check them in the
 * tests (tests/test_match.c, tests/test_gpu_match.c, which compile this
 * file in; built with GCUT_ALLOW_EXPERIMENTAL, for gcut_match_check). gcut_solve cannot start from a flow, so there is no initial
 * matching.
 *
 *     int32_t *rm = malloc(rows * 4), *cm = malloc(cols * 4);
 *     mflow_times t;
 *     int64_t card;
 *     char err[MFLOW_ERR_LEN];
 *     gcut_solve_options opt;
 *     gcut_solve_options_init(&opt);
 *     opt.backend = "cpu-hipr";
 *     if (mflow_match(b, &opt, rm, cm, &card, &t, err) != GCUT_OK)
 *         fprintf(stderr, "%s\n", err);
 */
#ifndef GCUT_BENCH_MATCH_FLOW_H
#define GCUT_BENCH_MATCH_FLOW_H

#include <stdint.h>

#include "gcut/gcut.h"

#define MFLOW_ERR_LEN 512

/* Where the time of one match went, milliseconds. */
typedef struct mflow_times {
    double build_ms; /* the flow graph, through gcut_graph_* */
    double solve_ms; /* gcut_solve with per-edge flows */
    double read_ms;  /* the mates from the edges with flow 1 */
} mflow_times;

/* Match b by a max-flow solve with opt's back end, threads, time limit and
 * log (opt is copied; want_flows is set, the back end must return flows).
 * row_mates (rows entries) and col_mates (cols entries) receive each
 * vertex's mate or -1, *cardinality the size of the matching (= the flow
 * value). times may be NULL. Returns GCUT_OK, or the failing status with
 * its message in err (gcut_solve's own errors: GCUT_ERR_UNAVAILABLE for a
 * back end that cannot run here, GCUT_ERR_TIMEOUT, ...). */
gcut_status mflow_match(const gcut_bipartite *b, const gcut_solve_options *opt,
                        int32_t *row_mates, int32_t *col_mates, int64_t *cardinality,
                        mflow_times *times, char err[MFLOW_ERR_LEN]);

/* mflow_match with `backend`'s defaults, then the König certificate of
 * gcut_match_check on the mates (the tests' cross-check). Returns the
 * cardinality, or -1 with the message in err. */
int64_t mflow_match_checked(const gcut_bipartite *b, const char *backend,
                            char err[MFLOW_ERR_LEN]);

#endif /* GCUT_BENCH_MATCH_FLOW_H */
