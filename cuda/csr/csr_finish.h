/*
 * csr_finish.h - cuda-csr's finish on the host: once a GPU phase I runs
 * with a handful of active vertices (the tail, where each relabel cycle
 * costs a whole-graph BFS for a few pushes), the residual state is copied
 * back and a sequential highest-label push-relabel continues from it on
 * the host (issue 23, item 5; He & Hong, IPDPS 2010, hand the end of the
 * work to the CPU). Pure C with no CUDA types (CONTRIBUTING.md rule 27):
 * the plugin calls it from csr_launch.cu, and tests/test_csr_finish.c
 * builds it into a CPU test that runs in CI.
 *
 * The state is the engine's (csr_kernels.cuh): one flow value per forward
 * arc of the RCSR layout (the residual of u -> v is cap - flow, of the
 * reverse arc v -> u is flow), an excess per vertex and term[v], the
 * residual capacity of v's arc to the virtual sink. Any preflow will do:
 * the finish starts with exact labels by a BFS from the sink, so the
 * GPU's heights are not needed (Hong's lock-free lifts need not leave a
 * valid labelling between rounds).
 */
#ifndef GCUT_CSR_FINISH_H
#define GCUT_CSR_FINISH_H

#include <stddef.h>
#include <stdint.h>

#include "gcut/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The RCSR layout as the finish reads it: arcs of u are row[u] ..
 * row[u+1]-1 (heads col, capacities cap); arcs entering v are rmap[rrow[v]
 * .. rrow[v+1]-1], their tails rcol. Offsets and rmap are uint32_t when
 * idx32 is set (the device's narrowed copy), int64_t otherwise (the
 * core's gcut_rcsr). */
typedef struct gcut_cu_finish_graph {
    int32_t n;
    int64_t m;
    int idx32;
    const void *row, *rrow, *rmap;
    const int32_t *col, *cap, *rcol;
} gcut_cu_finish_graph;

/* What the finish needs from its caller. */
typedef struct gcut_cu_finish_env {
    void *(*alloc)(size_t bytes);
    void (*release)(void *ptr);
    /* Called every poll_every discharges (0: a few thousand) with -1 (the
     * count left is not known); a status other than GCUT_OK stops the
     * finish with that status (time limit, cancel). May be NULL. */
    gcut_status (*poll)(void *ctx, int64_t remaining);
    void *ctx;
    int poll_every;
    /* Tests: stop after this many pushes (the state is then a preflow
     * again, to continue from); < 0 for no limit. */
    int64_t max_pushes;
} gcut_cu_finish_env;

typedef struct gcut_cu_finish_stats {
    int64_t pushes, relabels, global_relabels, gaps;
    int64_t active_start; /* live vertices with excess after the first BFS */
} gcut_cu_finish_stats;

/* Continue push-relabel from the preflow (flow, excess, term) to a maximum
 * preflow, in place. When cut is non-NULL it receives the canonical cut
 * of the engine (1 for the vertices that can reach the sink in the final
 * residual graph, as cut_kernel writes it). Excess left at vertices that
 * cannot reach the sink stays there (phase II returns it). The flow value
 * is sum(cap_sink) - sum(term), as on the device. Returns GCUT_OK,
 * GCUT_ERR_NOMEM, or what env->poll returned; GCUT_ERR_INTERRUPTED when
 * max_pushes stopped it (the state is a preflow). */
gcut_status gcut_cu_csr_finish(const gcut_cu_finish_graph *g, int32_t *flow, int64_t *excess,
                               int32_t *term, uint8_t *cut, const gcut_cu_finish_env *env,
                               gcut_cu_finish_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* GCUT_CSR_FINISH_H */
