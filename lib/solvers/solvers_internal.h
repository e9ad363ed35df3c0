/*
 * solvers_internal.h - the CPU back ends compiled into libgcut and the
 * helpers they share.
 */
#ifndef GCUT_SOLVERS_INTERNAL_H
#define GCUT_SOLVERS_INTERNAL_H

#include "core/core_internal.h"
#include "gcut/plugin.h"

/* Back-end tables (one per engine file). */
GCUT_HIDDEN extern const gcut_backend gcut_i_backend_ref;   /* ref.c   "cpu-ref"  */
GCUT_HIDDEN extern const gcut_backend gcut_i_backend_hipr;  /* hipr.c  "cpu-hipr" */
GCUT_HIDDEN extern const gcut_backend gcut_i_backend_bk;    /* bk.c    "cpu-bk"   */
GCUT_HIDDEN extern const gcut_backend gcut_i_backend_prsn;  /* prsn.c  "cpu-prsn" */
GCUT_HIDDEN extern const gcut_backend gcut_i_backend_grid_pr; /* grid_pr.c "cpu-grid-pr" */
GCUT_HIDDEN extern const gcut_backend gcut_i_backend_hpf;   /* hpf.c   "cpu-hpf"  */
GCUT_HIDDEN extern const gcut_backend gcut_i_backend_eibfs; /* eibfs.c "cpu-eibfs" */

/*
 * Engines whose records the graph keeps with its cached layouts (graph.c
 * holds them, solve.c runs them; kept.c lists them): cpu-bk's arc and node
 * records (bk.c) and cpu-eibfs's state (eibfs.c). The first solve of the
 * engine on a graph builds them in its layout stage (`layout`: nothing
 * when *kept already matches p; gcut_solve times it as the layout build,
 * gcut_stats::build_ms); `solve` then works on them and leaves them for
 * the next solve of the same structure, which restores what the last one
 * changed in place instead of filling fresh memory; a change of the
 * structure frees them (`release`, which takes NULL) with the layouts.
 * Terminal capacities are not in the records: changing them keeps them.
 * `warm`: the graph allows a warm re-solve (gcut_graph_set_warm_start);
 * an engine without one ignores it. A solve holds the slot's lock; a
 * concurrent solve of the same graph that finds it taken solves through
 * the back-end table, on records of its own.
 */
typedef struct gcut_i_kept_engine {
    const gcut_backend *backend;
    gcut_status (*layout)(void **kept, const gcut_problem *p, const gcut_solve_options *opt);
    gcut_status (*solve)(void **kept, const gcut_problem *p, const gcut_solve_options *opt,
                         int warm, gcut_solution *sol);
    void (*release)(void *kept);
} gcut_i_kept_engine;

/* The table (kept.c), indexed by the graph's slots (GCUT_I_KEPT_SLOTS,
 * graph_internal.h), and the slot of a back end (-1: none). */
GCUT_HIDDEN extern const gcut_i_kept_engine gcut_i_kept_engines[];
GCUT_HIDDEN int gcut_i_kept_slot(const gcut_backend *be);

/* cpu-bk's records on general graphs (bk.c): 16 bytes per arc (12 for the
 * record, 4 for its sister's capacity) and 36 per node. */
GCUT_HIDDEN gcut_status gcut_i_bk_layout(void **kept, const gcut_problem *p,
                                         const gcut_solve_options *opt);
GCUT_HIDDEN gcut_status gcut_i_bk_solve_kept(void **kept, const gcut_problem *p,
                                             const gcut_solve_options *opt, int warm,
                                             gcut_solution *sol);
GCUT_HIDDEN void gcut_i_bk_free(void *kept);

/* cpu-eibfs's state (eibfs.c): its arc records (16 bytes per arc), node
 * records and the terminal capacities of its last solve (40 bytes per
 * node) and its orphan buckets (at most 512 KiB); with `warm`, the next
 * solve after terminal changes goes on from the last one's flow and
 * forests (the answer is the cold one), else it starts cold on the
 * records, restored in place. On failure the state is left to solve
 * cold. */
GCUT_HIDDEN gcut_status gcut_i_eibfs_layout(void **kept, const gcut_problem *p,
                                            const gcut_solve_options *opt);
GCUT_HIDDEN gcut_status gcut_i_eibfs_solve_kept(void **kept, const gcut_problem *p,
                                                const gcut_solve_options *opt, int warm,
                                                gcut_solution *sol);
GCUT_HIDDEN void gcut_i_eibfs_free(void *kept);

/* cpu-bk on grids (bk_grid.c): its kept state and its solve_grid. The state
 * is also what cpu-bk's graph solves get (and ignore). */
/* cpu-bk's settings (bk.c), shared by its graph and grid engines. */
GCUT_HIDDEN gcut_status gcut_i_bk_parse_params(const char *params, int64_t max, int64_t *ts_limit);
GCUT_HIDDEN gcut_status gcut_i_bk_grid_create(void **state);
GCUT_HIDDEN void gcut_i_bk_grid_destroy(void *state);
GCUT_HIDDEN gcut_status gcut_i_bk_grid_solve(void *state, const gcut_grid_problem *p,
                                             const gcut_solve_options *opt, gcut_solution *sol);

/*
 * Residual-state helpers for engines on the BCSR layout (residual.c).
 *
 * res[a] is the residual capacity of arc a (uint32: cap[a] + cap[sister]
 * can reach 2^32 - 2). sink_res[v] > 0 means v still has residual capacity
 * to the sink.
 */

/* Canonical cut: cut[v] = GCUT_SINK iff v reaches the sink in the residual
 * graph (reverse BFS from nodes with sink_res > 0), else GCUT_SOURCE.
 * Needs n * 4 bytes of scratch (allocated here). */
GCUT_HIDDEN gcut_status gcut_i_cut_from_residual(const gcut_bcsr *b, const uint32_t *res,
                                                 const int64_t *sink_res, uint8_t *cut);

/* Per-edge flows from residuals: flow(e) = cap[a] - res[a] for the u->v arc a
 * of edge e; edges not in the layout get 0. */
GCUT_HIDDEN void gcut_i_edge_flows_from_residual(const gcut_bcsr *b, const uint32_t *res,
                                                 int64_t num_edges, int32_t *edge_flows);

/*
 * Phase II (flow.c): turn a maximum preflow into a maximum flow by returning
 * every node's excess towards the source. On entry res[] and excess[] hold a
 * preflow on b in which no node with excess can reach the sink; src_used[v]
 * is the flow the source currently sends into v (<= cap_source[v] after
 * cancellation). On return excess[] is all zero, res[] a valid flow, and
 * src_used[] lowered by what went back. O(n m) worst case.
 */
GCUT_HIDDEN gcut_status gcut_i_preflow_to_flow(const gcut_bcsr *b, uint32_t *res, int64_t *excess,
                                               int64_t *src_used);

/* Phase II as the push-relabel-like engines need it: the source's flow into
 * each node is its cancelled source capacity (cap_source - min(cap_source,
 * cap_sink): nothing went back in phase I), then gcut_i_preflow_to_flow and
 * the per-edge flows of p into edge_flows. `who` names the engine in the
 * out-of-memory message. excess[] is consumed. */
GCUT_HIDDEN gcut_status gcut_i_flows_from_preflow(const gcut_problem *p, uint32_t *res,
                                                  int64_t *excess, int32_t *edge_flows,
                                                  const char *who);

/* The shared helpers take residuals as a plain uint32 array: pack them into
 * the front of an engine's m arc records (each `stride` bytes, the residual
 * at byte `offset` of the record), in increasing order: the 4 bytes written
 * for arc a lie at or before the record of arc a, which has been read by
 * then. memcpy keeps the accesses well-typed; the records are dead
 * afterwards. Returns the array (the records' memory). */
GCUT_HIDDEN uint32_t *gcut_i_pack_residuals(void *arcs, size_t stride, size_t offset, int64_t m);

/* The mirrored arc of cpu-eibfs (16 bytes; cpu-bk's graph engine keeps a
 * 12-byte variant without the head, bk.c): its head, its
 * residual, its sister's residual (so a scan reads both directions from one
 * cache line) and the offset to its sister; an arc whose offset does not
 * fit int32 (more than 2^31 arcs) holds GCUT_I_MARC_FAR and its sister is
 * read from the layout (bcsr->sister). Arcs of 8 or 12 bytes that read
 * every sister from the layout set up faster and search slower on grids,
 * no gain across families (bench/results/eibfs-2026-11-27e.md). */
typedef struct gcut_i_marc {
    int32_t head;
    uint32_t res;  /* residual of this arc */
    uint32_t rev;  /* residual of its sister (the arc head -> tail) */
    int32_t sdiff; /* sister - this arc, or GCUT_I_MARC_FAR */
} gcut_i_marc;

#define GCUT_I_MARC_FAR INT32_MIN

static inline int64_t gcut_i_marc_sister(const gcut_i_marc *arcs, const int64_t *sister, int64_t a)
{
    const int32_t d = arcs[a].sdiff;
    return d != GCUT_I_MARC_FAR ? a + d : sister[a];
}

/* Fill the mirrored arcs from a layout's capacities (the cold residuals). */
GCUT_HIDDEN void gcut_i_marc_fill(gcut_i_marc *arcs, const gcut_bcsr *b);

/* Ask for transparent huge pages on the 2 MiB-aligned interior of a large
 * fresh block (flow.c): filling it then costs a page fault per 2 MiB
 * instead of per 4 KiB. Advice only; where it is not understood nothing
 * happens. */
GCUT_HIDDEN void gcut_i_advise_huge(void *ptr, size_t bytes);

#endif /* GCUT_SOLVERS_INTERNAL_H */
