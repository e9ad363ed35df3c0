/*
 * residual.c - what every BCSR engine derives from its final residual
 * graph: the canonical cut and the per-edge flows.
 *
 * The canonical cut (docs/design.md section 2): the sink side is the set of
 * nodes from which the sink is reachable in the residual graph. For any
 * maximum preflow this set is the same (it is the sink side of the
 * minimal-sink-side minimum cut), so every engine returns the same bytes.
 */
#include <string.h>

#include "solvers/solvers_internal.h"

gcut_status gcut_i_cut_from_residual(const gcut_bcsr *b, const uint32_t *res,
                                     const int64_t *sink_res, uint8_t *cut)
{
    const int32_t n = b->n;
    int32_t *queue = gcut_i_malloc_array(n, sizeof(int32_t));
    if (!queue)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the cut queue (%d nodes)", (int)n);
    int64_t tail = 0;
    for (int32_t v = 0; v < n; v++) {
        cut[v] = sink_res[v] > 0 ? GCUT_SINK : GCUT_SOURCE;
        if (cut[v] == GCUT_SINK)
            queue[tail++] = v;
    }
    /* Reverse BFS: w joins the sink side if its arc w->v has residual
     * capacity for some v already there. The arc w->v is the sister of the
     * arc v->w listed under v. */
    for (int64_t head = 0; head < tail; head++) {
        const int32_t v = queue[head];
        for (int64_t a = b->first[v]; a < b->first[v + 1]; a++) {
            const int32_t w = b->head[a];
            if (cut[w] == GCUT_SOURCE && res[b->sister[a]] > 0) {
                cut[w] = GCUT_SINK;
                queue[tail++] = w;
            }
        }
    }
    gcut_i_free(queue);
    return GCUT_OK;
}

void gcut_i_edge_flows_from_residual(const gcut_bcsr *b, const uint32_t *res, int64_t num_edges,
                                     int32_t *edge_flows)
{
    memset(edge_flows, 0, (size_t)num_edges * sizeof(int32_t));
    for (int64_t a = 0; a < b->m; a++) {
        if ((b->edge[a] & 1) == 0)
            edge_flows[b->edge[a] >> 1] = (int32_t)((int64_t)b->cap[a] - (int64_t)res[a]);
    }
}
