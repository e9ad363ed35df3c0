/*
 * check.c - gcut_check_flow: an independent certificate of optimality.
 *
 * A flow is feasible if every edge flow is within its capacities and every
 * node can balance its net edge out-flow with its terminal capacities. A
 * cut whose capacity equals the flow value proves both optimal (weak
 * duality), so a caller can trust a result without trusting the engine.
 */
#include "graph/graph_internal.h"
#include "gcut/solve.h"

gcut_status gcut_cut_capacity(const gcut_graph *g, const uint8_t *cut, int64_t *capacity)
{
    GCUT_ENTRY();
    if (!g || !cut || !capacity)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph, cut and capacity must not be NULL");
    int64_t c = 0;
    for (int32_t v = 0; v < g->n; v++) {
        if (cut[v] > GCUT_SINK)
            return GCUT_FAIL(GCUT_ERR_INVALID, "cut[%d] = %d is neither GCUT_SOURCE nor GCUT_SINK",
                             (int)v, (int)cut[v]);
        c += cut[v] == GCUT_SINK ? g->cap_source[v] : g->cap_sink[v];
    }
    for (int64_t e = 0; e < g->m; e++) {
        const int32_t u = g->eu[e], v = g->ev[e];
        if (cut[u] == GCUT_SOURCE && cut[v] == GCUT_SINK)
            c += g->ecap[e];
        else if (cut[u] == GCUT_SINK && cut[v] == GCUT_SOURCE)
            c += g->erev[e];
    }
    *capacity = c;
    return GCUT_OK;
}

static gcut_status check_edge_flows(const gcut_graph *g, int64_t flow_value, const int32_t *f)
{
    int64_t *d = gcut_i_calloc((size_t)g->n + 1, sizeof(int64_t));
    if (!d)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate %d balances", (int)g->n);
    gcut_status st = GCUT_OK;
    for (int64_t e = 0; e < g->m; e++) {
        if (f[e] > g->ecap[e] || f[e] < -(int64_t)g->erev[e]) {
            st = GCUT_FAIL(GCUT_ERR_CHECK, "edge %lld (%d -> %d): flow %d outside [-%d, %d]",
                           (long long)e, (int)g->eu[e], (int)g->ev[e], (int)f[e],
                           (int)g->erev[e], (int)g->ecap[e]);
            goto done;
        }
        d[g->eu[e]] += f[e];
        d[g->ev[e]] -= f[e];
    }
    int64_t value = 0;
    for (int32_t v = 0; v < g->n; v++) {
        const int64_t cs = g->cap_source[v], ct = g->cap_sink[v];
        if (d[v] > cs || -d[v] > ct) {
            st = GCUT_FAIL(GCUT_ERR_CHECK,
                           "node %d: net edge out-flow %lld cannot be balanced by terminal "
                           "capacities (source %lld, sink %lld)",
                           (int)v, (long long)d[v], (long long)cs, (long long)ct);
            goto done;
        }
        const int64_t from_s = d[v] > 0 ? d[v] : 0, to_t = d[v] < 0 ? -d[v] : 0;
        const int64_t direct = (cs - from_s) < (ct - to_t) ? (cs - from_s) : (ct - to_t);
        value += from_s + direct;
    }
    if (value != flow_value)
        st = GCUT_FAIL(GCUT_ERR_CHECK, "the edge flows carry %lld, the reported value is %lld",
                       (long long)value, (long long)flow_value);
done:
    gcut_i_free(d);
    return st;
}

gcut_status gcut_check_flow(const gcut_graph *g, int64_t flow_value, const int32_t *edge_flows,
                            const uint8_t *cut)
{
    GCUT_ENTRY();
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph is NULL");
    if (flow_value < 0)
        return GCUT_FAIL(GCUT_ERR_CHECK, "negative flow value %lld", (long long)flow_value);
    if (edge_flows) {
        gcut_status st = check_edge_flows(g, flow_value, edge_flows);
        if (st != GCUT_OK)
            return st;
    }
    if (cut) {
        int64_t c;
        gcut_status st = gcut_cut_capacity(g, cut, &c);
        if (st != GCUT_OK)
            return st;
        if (c != flow_value)
            return GCUT_FAIL(GCUT_ERR_CHECK, "cut capacity %lld differs from the flow value %lld",
                             (long long)c, (long long)flow_value);
    }
    return GCUT_OK;
}
