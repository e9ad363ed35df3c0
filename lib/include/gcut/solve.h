/*
 * gcut/solve.h - solving max-flow / min-cut with any back end.
 *
 * Getting started:
 *
 *     gcut_solve_options opt;
 *     gcut_solve_options_init(&opt);
 *     opt.backend = "auto";               // or "cpu-bk", "cpu-hipr", "cuda-csr" ...
 *     gcut_result *res;
 *     gcut_result_new(&res);
 *     if (gcut_solve(g, &opt, res) != GCUT_OK)
 *         fprintf(stderr, "%s\n", gcut_last_error());
 *     int64_t flow = gcut_result_flow(res);
 *     const uint8_t *cut = gcut_result_cut(res);   // GCUT_SOURCE / GCUT_SINK per node
 *     gcut_result_free(res);
 *
 * The cut returned by every back end is the canonical cut: the sink side is
 * the set of nodes that can reach the sink in the final residual graph. It
 * is the same for every maximum flow, so results compare bit for bit.
 */
#ifndef GCUT_SOLVE_H
#define GCUT_SOLVE_H

#include "gcut/common.h"
#include "gcut/graph.h"

GCUT_BEGIN_C_DECLS

/** \brief What a long operation reports to its progress callback (since 0.3).
 *
 *  Filled by the library; valid only during the callback. Fields a given
 *  operation does not know stay at their "unknown" values. */
typedef struct gcut_progress {
    size_t struct_size;         /**< sizeof(gcut_progress) of the library that filled it */
    const char *operation;      /**< static: "maxflow", "grid", "match", "read", "segment",
                                 *   "grabcut", "expansion", "swap", "stereo", "mvs" ... */
    const char *phase;          /**< static: "layout", "upload", "solve", "flows", "cut",
                                 *   "iteration", "cycle", "step" ... */
    double fraction;            /**< estimated share done in [0, 1]; -1 when unknown */
    int64_t step;               /**< current step (GrabCut iteration, move cycle ...), 0 if none */
    int64_t steps;              /**< number of steps when known, else 0 */
    int64_t remaining;          /**< work left where the engine knows a measure of it
                                 *   (active nodes, excess, tree size ...); -1 unknown */
    const char *remaining_what; /**< static: what \p remaining counts; NULL when unknown */
    double elapsed_ms;          /**< since the public call began */
} gcut_progress;

/** \brief Progress callback: return 0 to go on, non-zero to cancel.
 *
 *  Called on the thread that made the call, at phase changes and while an
 *  engine works at most about every \p progress_interval_ms. After a non-zero
 *  return the call stops at its next check and returns GCUT_ERR_INTERRUPTED;
 *  the objects it was given stay consistent (a graph or grid can be solved
 *  again, a result is unchanged). To cancel from another thread, let the
 *  callback read a flag that thread sets (e.g. a C11 atomic_int). */
typedef int (*gcut_progress_fn)(const gcut_progress *p, void *user);

/** \brief Per-call options. Always fill with gcut_solve_options_init() first. */
typedef struct gcut_solve_options {
    size_t struct_size;      /**< set by gcut_solve_options_init */
    const char *backend;     /**< back-end name, or "auto"/NULL (then $GCUT_BACKEND, then automatic) */
    int32_t threads;         /**< threads for parallel back ends; 0 = one per core */
    int32_t want_flows;      /**< non-zero: compute a valid per-edge flow (phase II) */
    double time_limit;       /**< seconds; <= 0 means none (GCUT_ERR_TIMEOUT when reached) */
    int32_t verbosity;       /**< 0 quiet, 1 summary, 2 progress, 3 debug (through the log sink) */
    gcut_log_fn log;         /**< per-call log sink; NULL: the global one */
    void *log_user;          /**< passed to \p log */
    /** Back-end specific settings as "key=value,key=value" (e.g. for cuda-csr
     *  "variant=tc,relabel_freq=0.5"); unknown keys are an error. NULL: defaults. */
    const char *params;
    /* -- since 0.3 (struct_size tells older callers apart) -- */
    gcut_progress_fn progress;   /**< NULL: none; see gcut_progress_fn */
    void *progress_user;         /**< passed to \p progress */
    double progress_interval_ms; /**< least time between calls while working; <= 0: 100 ms */
    /** Host memory budget of this call in bytes (layouts, engine state and
     *  buffers it allocates); 0: the process budget (gcut_set_max_memory).
     *  Past it the call fails with GCUT_ERR_NOMEM naming what was asked for. */
    size_t max_memory;
} gcut_solve_options;

/** \brief Set defaults: backend "auto", threads 0, no flows, no limit, quiet,
 *  no progress callback, the process memory budget. */
GCUT_EXPORT void gcut_solve_options_init(gcut_solve_options *opt);

/** \brief Statistics of one solve. Times in milliseconds; counters that a back end
 *  does not keep stay 0. */
typedef struct gcut_stats {
    double build_ms;         /**< building the layout the back end needs (0 if cached) */
    double init_ms;          /**< back-end set-up (allocation, initial preflow, transfers) */
    double solve_ms;         /**< the max-flow itself (phase I) */
    double flow_ms;          /**< phase II / flow recovery, when flows were asked for */
    double cut_ms;           /**< computing the canonical cut */
    double transfer_ms;      /**< host <-> device copies (GPU back ends) */
    double total_ms;         /**< wall time of the whole gcut_solve call */
    int64_t pushes;
    int64_t relabels;
    int64_t global_relabels;
    int64_t gap_nodes;       /**< nodes lifted by the gap heuristic */
    int64_t augmentations;   /**< augmenting paths (BK, Dinic) */
    int64_t rounds;          /**< synchronous rounds / kernel launches (parallel back ends) */
    int32_t threads;         /**< threads actually used */
    int32_t warm_start;      /**< 1: a grid solve reused the previous solve's state (grid.h) */
} gcut_stats;

/** \brief Opaque result: flow value, canonical cut, optional flows, statistics.
 *  One result can be reused for many solves. */
typedef struct gcut_result gcut_result;

GCUT_EXPORT gcut_status gcut_result_new(gcut_result **out);
/** \brief NULL is a no-op. */
GCUT_EXPORT void gcut_result_free(gcut_result *r);

/** \brief The maximum flow value. */
GCUT_EXPORT int64_t gcut_result_flow(const gcut_result *r);
/** \brief The canonical cut: one byte per node, GCUT_SOURCE (0) or GCUT_SINK (1).
 *  Owned by the result, valid until the next solve into it or its free. */
GCUT_EXPORT const uint8_t *gcut_result_cut(const gcut_result *r);
/** \brief Number of entries of the cut (the node count of the solved graph). */
GCUT_EXPORT int32_t gcut_result_num_nodes(const gcut_result *r);
/** \brief Per-edge flows (NULL unless want_flows): for edge e = (u, v, cap, rev_cap)
 *  the flow is in [-rev_cap, cap], positive from u to v. Terminal flows follow
 *  by conservation (see gcut_check_flow). */
GCUT_EXPORT const int32_t *gcut_result_edge_flows(const gcut_result *r);
/** \brief Statistics of the last solve. */
GCUT_EXPORT const gcut_stats *gcut_result_stats(const gcut_result *r);
/** \brief Name of the back end that solved it (a static string). */
GCUT_EXPORT const char *gcut_result_backend(const gcut_result *r);
/** \brief Why that back end was chosen ("named by the caller", "auto: ..."). */
GCUT_EXPORT const char *gcut_result_reason(const gcut_result *r);

/** \brief Compute a maximum flow and the canonical minimum cut of \p g.
 *
 *  Builds (once, then cached) the layout the back end needs, runs it and
 *  fills \p res. With backend "auto" the choice and its reason are kept in
 *  the result and logged at GCUT_LOG_INFO; if a GPU back end chosen by
 *  "auto" fails for lack of device memory, a CPU back end solves instead.
 *  \returns GCUT_OK; GCUT_ERR_NOT_FOUND / GCUT_ERR_UNAVAILABLE for a named back end
 *  that does not exist / cannot run; GCUT_ERR_TIMEOUT; GCUT_ERR_NOMEM ...
 *  On failure \p res is unchanged.
 *  \threadsafety Distinct graphs (and results) may be solved concurrently.
 *  One unchanged graph may also be solved from several threads at once, each
 *  with its own result (since 0.2: the first solve builds the cached layout
 *  under the graph's lock, the others share it). Modifying or freeing a
 *  graph while another thread solves it is not allowed (the caller must
 *  serialise that), nor is gcut_graph_maxflow() concurrently on one graph
 *  (it keeps the cut in the graph).
 *  Complexity: back-end dependent; cpu-hipr O(n^2 sqrt(m)), cpu-bk O(m n^2 |C|). */
GCUT_EXPORT gcut_status gcut_solve(gcut_graph *g, const gcut_solve_options *opt, gcut_result *res);

/** \brief Validate a flow and a cut of \p g.
 *
 *  With \p edge_flows (may be NULL): every edge flow lies in [-rev_cap, cap],
 *  and every node v can balance its net out-flow d_v (edge flow leaving minus
 *  entering) with its terminal capacities (-cap_sink[v] <= d_v <= cap_source[v]);
 *  the value of the flow, sum over v of max(d_v, 0) plus the direct terminal
 *  flow min(cap_source[v] - max(d_v, 0), cap_sink[v] - max(-d_v, 0)), must
 *  equal \p flow_value. With \p cut (may be NULL): the capacity of the cut
 *  (edges from GCUT_SOURCE side to GCUT_SINK side, cap_sink of source-side
 *  nodes, cap_source of sink-side nodes) must equal \p flow_value, which
 *  proves both optimal.
 *  \returns GCUT_OK or GCUT_ERR_CHECK with the first violation in gcut_last_error(). */
GCUT_EXPORT gcut_status gcut_check_flow(const gcut_graph *g, int64_t flow_value,
                                        const int32_t *edge_flows, const uint8_t *cut);

/** \brief Capacity of a cut (advanced): see gcut_check_flow. */
GCUT_EXPORT gcut_status gcut_cut_capacity(const gcut_graph *g, const uint8_t *cut,
                                          int64_t *capacity);

GCUT_END_C_DECLS

#endif /* GCUT_SOLVE_H */
