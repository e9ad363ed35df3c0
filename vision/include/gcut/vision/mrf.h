/*
 * gcut/vision/mrf.h - multi-label energies on grids (libgcut_vision):
 * alpha-expansion and alpha-beta swap.
 *
 * Getting started (a W x H image, L labels, 4-connected):
 *
 *     gcut_mrf *m;
 *     gcut_mrf_new(&m, W, H, 1, 4, L);
 *     gcut_mrf_set_unary(m, cost);            // W*H*L int32: cost[v * L + l]
 *     gcut_mrf_set_trunc_linear(m, 20, 2);    // V(a,b) = 20 * min(|a-b|, 2)
 *     int32_t *labels = calloc(W * H, 4);     // the start labelling (all 0)
 *     gcut_mrf_options o;
 *     gcut_mrf_options_init(&o);              // sequential order, until no move helps
 *     gcut_mrf_stats st;
 *     gcut_mrf_expand(m, &o, labels, &st);    // labels now hold the result
 *     printf("E = %lld after %d cycles\n", (long long)st.energy, st.cycles);
 *     gcut_mrf_free(m);
 *
 * The energy of a labelling f (one label in 0 .. L-1 per node):
 *
 *     E(f) = sum_v D_v(f_v) + sum_{v~u} w_vu V(f_v, f_u)
 *
 * D from a dense table or a callback, V from a built-in family (Potts,
 * truncated linear, truncated quadratic) or an L x L table, and w_vu a
 * per-pair weight (default 1; contrast-sensitive smoothness). All terms are
 * integers and E is computed in int64, exactly.
 *
 * Pairs. Each unordered neighbour pair of the grid (gcut/grid.h: same
 * connectivities and direction table) is counted once, from the node v
 * whose direction d to u is EVEN. Its weight is weights[d][v] (see
 * gcut_mrf_set_weights).
 *
 * Moves (Boykov, Veksler & Zabih, PAMI 2001). One move is a binary choice
 * per node solved exactly by one s-t minimum cut on a gcut_grid that the
 * gcut_mrf keeps and refills between moves:
 *  - expansion on alpha: every node keeps its label or takes alpha; needs V
 *    a metric (V(a,b) = 0 iff a = b, symmetric, triangle inequality), and
 *    the result is within 2 max V / min_{a != b} V of the optimum;
 *  - swap of alpha and beta: nodes labelled alpha or beta may exchange them;
 *    needs V a semi-metric (no triangle inequality).
 * A cycle tries every label (every pair for swap) once; moves are kept
 * only when they lower E. Cycles repeat until a whole cycle lowers nothing,
 * or max_cycles.
 *
 * Errors follow the rest of gcut: a gcut_status, details in
 * gcut_last_error(), outputs unchanged on failure.
 */
#ifndef GCUT_VISION_MRF_H
#define GCUT_VISION_MRF_H

#include <stddef.h>
#include <stdint.h>

#include "gcut/common.h"
#include "gcut/grid.h"
#include "gcut/solve.h"
#include "gcut/vision/export.h"

GCUT_BEGIN_C_DECLS

/** \brief Opaque multi-label problem. */
typedef struct gcut_mrf gcut_mrf;

/** \brief Most cycles gcut_mrf_expand / gcut_mrf_swap run (and record). */
#define GCUT_MRF_MAX_CYCLES 64

/** \brief Unary callback: the cost of label \p label at node \p node (>= 0). */
typedef int32_t (*gcut_mrf_unary_fn)(void *user, int32_t node, int32_t label);

/** \brief Progress callback, called after every move: the cycle (from 1), the
 *  label of the move (expansion: alpha; swap: alpha * L + beta), the energy
 *  after it and the move's time in milliseconds. It cannot stop the run:
 *  the progress callback of \p solve (gcut_progress_fn, since 0.3) can. */
typedef void (*gcut_mrf_progress_fn)(void *user, int32_t cycle, int32_t label, int64_t energy,
                                     double move_ms);

/** \brief Settings of a run. Always fill with gcut_mrf_options_init() first. */
typedef struct gcut_mrf_options {
    size_t struct_size;            /**< set by gcut_mrf_options_init */
    int32_t max_cycles;            /**< 1 .. GCUT_MRF_MAX_CYCLES (default 20) */
    int32_t random_order;          /**< 0: labels in order; 1: a new random order each cycle */
    uint64_t seed;                 /**< seed of the random order (default 1) */
    gcut_mrf_progress_fn progress; /**< NULL: none */
    void *progress_user;           /**< passed to \p progress */
    /** The max-flow solves of the moves, passed to gcut_grid_solve() as
     *  they are: back end (default "auto"), threads, time limit (of each
     *  move's solve), log callback and verbosity, engine settings
     *  (`params`). Set up by gcut_mrf_options_init() with
     *  gcut_solve_options_init(). A back end that offers device moves
     *  ("cuda-grid") runs a whole expansion or swap on the GPU when the
     *  unary costs are a table (same labelling), with these settings.
     *  \since 0.2 (replaces the `backend` and `threads` fields of 0.1)
     *
     *  Its progress callback (since 0.3) also sees the moves: operation
     *  "expansion" or "swap", phase "move" after a move (step: the move
     *  within the cycle, at most every progress_interval_ms) and "cycle"
     *  after each cycle (step: the cycle, of max_cycles). A non-zero
     *  return stops the run with GCUT_ERR_INTERRUPTED and the labels and
     *  stats unchanged. On a device ("cuda-grid" moves) the request is
     *  honoured when the device loop returns. */
    gcut_solve_options solve;
} gcut_mrf_options;

/** \brief What a run did. Times in milliseconds. */
typedef struct gcut_mrf_stats {
    int64_t initial_energy;                        /**< E of the start labelling */
    int64_t energy;                                /**< E of the result */
    int32_t cycles;                                /**< cycles run */
    int32_t moves;                                 /**< binary cuts solved */
    int32_t moves_accepted;                        /**< moves that lowered E */
    int64_t cycle_energy[GCUT_MRF_MAX_CYCLES];     /**< E after each cycle */
    double cycle_ms[GCUT_MRF_MAX_CYCLES];          /**< time of each cycle */
    double build_ms;                               /**< filling the grids, all moves */
    double solve_ms;                               /**< the max-flow solves, all moves */
    double total_ms;                               /**< the whole call */
    double max_move_ms;                            /**< slowest move */
    const char *backend;                           /**< back end of the moves (static string) */
} gcut_mrf_stats;

/** \brief Defaults: 20 cycles, sequential order, seed 1, no progress, solve
 *  options as gcut_solve_options_init() (back end "auto").
 *  \since 0.1 */
GCUT_VISION_EXPORT void gcut_mrf_options_init(gcut_mrf_options *o);

/** \brief Create a problem on a width x height x depth grid of the given
 *  connectivity (as gcut_grid_new) with \p num_labels labels (2 .. 4096).
 *  Costs start at 0, V as Potts with weight 1, all pair weights 1.
 *  \returns GCUT_OK; GCUT_ERR_INVALID; GCUT_ERR_OVERFLOW; GCUT_ERR_NOMEM.
 *  \threadsafety Distinct problems may be used from distinct threads.
 *  \since 0.1 */
GCUT_VISION_EXPORT gcut_status gcut_mrf_new(gcut_mrf **out, int32_t width, int32_t height,
                                            int32_t depth, int32_t connectivity,
                                            int32_t num_labels);

/** \brief Free a problem (NULL is a no-op). */
GCUT_VISION_EXPORT void gcut_mrf_free(gcut_mrf *m);

GCUT_VISION_EXPORT int32_t gcut_mrf_num_nodes(const gcut_mrf *m);
GCUT_VISION_EXPORT int32_t gcut_mrf_num_labels(const gcut_mrf *m);

/** \brief Unary costs as a dense table of num_nodes * num_labels values,
 *  cost of label l at node v in \p cost[v * L + l], each in [0, 2^28]
 *  (copied). Replaces a callback. \returns GCUT_ERR_INVALID (NULL, a value
 *  out of range: the message names node and label). */
GCUT_VISION_EXPORT gcut_status gcut_mrf_set_unary(gcut_mrf *m, const int32_t *cost);

/** \brief Unary costs from a callback (values in [0, 2^28]), called during
 *  the moves; frees a table set before. The callback must stay valid and
 *  return the same value for the same arguments. */
GCUT_VISION_EXPORT gcut_status gcut_mrf_set_unary_fn(gcut_mrf *m, gcut_mrf_unary_fn fn,
                                                     void *user);

/** \brief V(a, b) = lambda * [a != b]. lambda in [0, 2^20]. */
GCUT_VISION_EXPORT gcut_status gcut_mrf_set_potts(gcut_mrf *m, int32_t lambda);

/** \brief V(a, b) = lambda * min(|a - b|, trunc); a metric. */
GCUT_VISION_EXPORT gcut_status gcut_mrf_set_trunc_linear(gcut_mrf *m, int32_t lambda,
                                                         int32_t trunc);

/** \brief V(a, b) = lambda * min((a - b)^2, trunc); a semi-metric (not a
 *  metric once trunc > 2: use swap, or expansion is refused). */
GCUT_VISION_EXPORT gcut_status gcut_mrf_set_trunc_quadratic(gcut_mrf *m, int32_t lambda,
                                                            int32_t trunc);

/** \brief Any table: V(a, b) = table[a * L + b], L x L values in [0, 2^20]
 *  (copied). Checked by the moves: see gcut_mrf_check_metric. */
GCUT_VISION_EXPORT gcut_status gcut_mrf_set_table(gcut_mrf *m, const int32_t *table);

/** \brief Per-pair weights of EVEN direction \p dir: w[v] multiplies V for
 *  the pair (v, neighbour of v in \p dir); values in [0, 2^16] (copied;
 *  border entries are ignored). \returns GCUT_ERR_INVALID for an odd or bad
 *  direction or a value out of range. */
GCUT_VISION_EXPORT gcut_status gcut_mrf_set_weights(gcut_mrf *m, int32_t dir, const int32_t *w);

/** \brief Is V a metric (\p level 2) or a semi-metric (\p level 1)? GCUT_OK
 *  when it is; GCUT_ERR_INVALID otherwise, the message naming the labels
 *  that break it (e.g. "V(0,2) = 4 > V(0,1) + V(1,2) = 2: not a metric"). */
GCUT_VISION_EXPORT gcut_status gcut_mrf_check_metric(const gcut_mrf *m, int32_t level);

/** \brief E(labels), exact. \returns GCUT_ERR_INVALID for a label out of range. */
GCUT_VISION_EXPORT gcut_status gcut_mrf_energy(const gcut_mrf *m, const int32_t *labels,
                                               int64_t *energy);

/** \brief Alpha-expansion from the labelling in \p labels (num_nodes values,
 *  replaced by the result). \p opt and \p stats may be NULL.
 *  \returns GCUT_OK; GCUT_ERR_INVALID (V not a metric: says which labels,
 *  a label out of range); GCUT_ERR_OVERFLOW (a capacity of a move would
 *  pass INT32_MAX); GCUT_ERR_INTERRUPTED (the progress callback of
 *  opt->solve asked to stop); the errors of gcut_grid_solve. On failure
 *  \p labels is unchanged.
 *  Complexity: cycles * L max-flow solves on the grid. */
GCUT_VISION_EXPORT gcut_status gcut_mrf_expand(gcut_mrf *m, const gcut_mrf_options *opt,
                                               int32_t *labels, gcut_mrf_stats *stats);

/** \brief Alpha-beta swap, as gcut_mrf_expand; V must be a semi-metric.
 *  Complexity: cycles * L (L - 1) / 2 max-flow solves. */
GCUT_VISION_EXPORT gcut_status gcut_mrf_swap(gcut_mrf *m, const gcut_mrf_options *opt,
                                             int32_t *labels, gcut_mrf_stats *stats);

/** \brief The graph of one expansion move (advanced): a new grid whose
 *  minimum cut is the best move of \p labels toward \p alpha, built as
 *  gcut_mrf_expand builds its moves, for export (gcut_grid_to_graph,
 *  gcut_graph_write_dimacs: the benchmarks' stereo move instances) or
 *  study. A node on the sink side of a cut takes alpha, one on the source
 *  side keeps its label, and the energy of that labelling is *constant
 *  plus the cut's capacity. The caller frees *out (gcut_grid_free).
 *  \returns GCUT_ERR_INVALID (NULL, a label or alpha out of range, V not
 *  representable), GCUT_ERR_OVERFLOW, GCUT_ERR_NOMEM; *out untouched on
 *  failure. \since 0.4 */
GCUT_VISION_EXPORT gcut_status gcut_mrf_expansion_grid(gcut_mrf *m, const int32_t *labels,
                                                       int32_t alpha, gcut_grid **out,
                                                       int64_t *constant);

GCUT_END_C_DECLS

#endif /* GCUT_VISION_MRF_H */
