/*
 * graph_float.c - graphs built from float capacities (gcut/graph.h, "float
 * capacities"): validation, the choice of the scale, rounding, and the
 * report of what rounding cost.
 *
 * Terms: each direction of each edge (cap and rev_cap are cut separately)
 * and each terminal capacity. The guarantee and its proof are in the
 * header; the helpers are shared with the grids (quant_internal.h).
 * Everything is validated and checked for overflow before the graph is
 * allocated, so a failure allocates nothing.
 */
#include <math.h>
#include <string.h>

#include "graph/graph_internal.h"
#include "graph/quant_internal.h"

static gcut_status check_values(const float *a, int64_t count, const char *name)
{
    if (!a)
        return GCUT_OK;
    for (int64_t i = 0; i < count; i++) {
        const char *bad = gcut_i_quant_bad_cap(a[i]);
        if (bad)
            return GCUT_FAIL(GCUT_ERR_INVALID, "%s[%lld] is %s (%g)", name, (long long)i, bad,
                             (double)a[i]);
    }
    return GCUT_OK;
}

static gcut_status check_fit(const float *a, int64_t count, const char *name, double scale)
{
    double err;
    for (int64_t i = 0; a && i < count; i++) {
        const double r = gcut_i_quant_round(scale, a[i], &err);
        if (r > INT32_MAX)
            return GCUT_FAIL(GCUT_ERR_OVERFLOW,
                             "%s[%lld] (%g) is %.17g units at scale %g, past INT32_MAX (give "
                             "scale 0 to choose one that fits)",
                             name, (long long)i, (double)a[i], r, scale);
    }
    return GCUT_OK;
}

/* Round count values of a (NULL: zeros) into out, adding their errors.
 * With from and to (edges), self-loops, which never carry flow, are stored
 * as 0 and are no term. */
static void round_into(const float *a, int64_t count, double scale, const int32_t *from,
                       const int32_t *to, int32_t *out, double *bound, int64_t *terms)
{
    double err;
    for (int64_t i = 0; i < count; i++) {
        out[i] = 0;
        if (!a || a[i] == 0.0f || (from && from[i] == to[i]))
            continue;
        out[i] = (int32_t)gcut_i_quant_round(scale, a[i], &err);
        *bound += err;
        ++*terms;
    }
}

/* The automatic scale: the worst node total, terminals plus both
 * capacities of every edge at the node (self-loops carry nothing). */
static gcut_status graph_auto_scale(int32_t n, int64_t m, const int32_t *from, const int32_t *to,
                                    const float *cap, const float *rev_cap, const float *cap_source,
                                    const float *cap_sink, double *scale)
{
    double *tot = NULL;
    gcut_status st = gcut_i_alloc_array((void **)&tot, n > 0 ? n : 1, sizeof(double), __func__,
                                        "the node totals of %d nodes", (int)n);
    if (st != GCUT_OK)
        return st;
    for (int32_t v = 0; v < n; v++)
        tot[v] =
            (cap_source ? (double)cap_source[v] : 0.0) + (cap_sink ? (double)cap_sink[v] : 0.0);
    for (int64_t e = 0; e < m; e++) {
        if (from[e] == to[e])
            continue;
        const double c = (double)cap[e] + (rev_cap ? (double)rev_cap[e] : 0.0);
        tot[from[e]] += c;
        tot[to[e]] += c;
    }
    double worst = 0.0;
    for (int32_t v = 0; v < n; v++)
        if (tot[v] > worst)
            worst = tot[v];
    gcut_i_free(tot);
    *scale = gcut_i_quant_auto_scale(worst);
    return GCUT_OK;
}

gcut_status gcut_graph_new_f32(gcut_graph **out, int32_t num_nodes, int64_t num_edges,
                               const int32_t *from, const int32_t *to, const float *cap,
                               const float *rev_cap, const float *cap_source, const float *cap_sink,
                               double scale, gcut_quantization *q)
{
    GCUT_ENTRY();
    if (!out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "out is NULL");
    if (num_nodes < 0 || num_edges < 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "negative size (%d nodes, %lld edges)", (int)num_nodes,
                         (long long)num_edges);
    if (num_edges > 0 && (!from || !to || !cap))
        return GCUT_FAIL(GCUT_ERR_INVALID, "from, to and cap must not be NULL");
    if (!(scale >= 0.0) || isinf(scale))
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "scale %g must be 0 (automatic) or a finite positive number", scale);
    for (int64_t e = 0; e < num_edges; e++)
        if ((uint32_t)from[e] >= (uint32_t)num_nodes || (uint32_t)to[e] >= (uint32_t)num_nodes)
            return GCUT_FAIL(GCUT_ERR_INVALID, "edge %lld (%d -> %d): node id out of range [0, %d)",
                             (long long)e, (int)from[e], (int)to[e], (int)num_nodes);
    gcut_status st;
    if ((st = check_values(cap, num_edges, "cap")) != GCUT_OK ||
        (st = check_values(rev_cap, num_edges, "rev_cap")) != GCUT_OK ||
        (st = check_values(cap_source, num_nodes, "cap_source")) != GCUT_OK ||
        (st = check_values(cap_sink, num_nodes, "cap_sink")) != GCUT_OK)
        return st;
    if (scale == 0.0 && (st = graph_auto_scale(num_nodes, num_edges, from, to, cap, rev_cap,
                                               cap_source, cap_sink, &scale)) != GCUT_OK)
        return st;
    if ((st = check_fit(cap, num_edges, "cap", scale)) != GCUT_OK ||
        (st = check_fit(rev_cap, num_edges, "rev_cap", scale)) != GCUT_OK ||
        (st = check_fit(cap_source, num_nodes, "cap_source", scale)) != GCUT_OK ||
        (st = check_fit(cap_sink, num_nodes, "cap_sink", scale)) != GCUT_OK)
        return st;
    gcut_graph *g;
    if ((st = gcut_graph_new(&g, num_nodes, num_edges)) != GCUT_OK)
        return st;
    /* Written straight into the builder's arrays (validated above), as
     * gcut_grid_to_graph does. */
    double bound = 0.0;
    int64_t terms = 0;
    if (num_edges > 0) {
        memcpy(g->eu, from, (size_t)num_edges * sizeof(int32_t));
        memcpy(g->ev, to, (size_t)num_edges * sizeof(int32_t));
        round_into(cap, num_edges, scale, from, to, g->ecap, &bound, &terms);
        round_into(rev_cap, num_edges, scale, from, to, g->erev, &bound, &terms);
        g->m = num_edges;
    }
    round_into(cap_source, num_nodes, scale, NULL, NULL, g->cap_source, &bound, &terms);
    round_into(cap_sink, num_nodes, scale, NULL, NULL, g->cap_sink, &bound, &terms);
    g->q_valid = 1;
    g->q_scale = scale;
    g->q_bound = bound;
    g->q_terms = terms;
    if (q) {
        q->scale = scale;
        q->offset = 0.0;
        q->terms = terms;
        q->bound = gcut_i_quant_bound(bound, terms);
        q->energy = NAN;
    }
    *out = g;
    return GCUT_OK;
}

gcut_status gcut_graph_quantization(const gcut_graph *g, int64_t flow, gcut_quantization *q)
{
    GCUT_ENTRY();
    if (!g || !q)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph and q must not be NULL");
    if (!g->q_valid)
        return GCUT_FAIL(GCUT_ERR_STATE, "the graph was not built by gcut_graph_new_f32");
    q->scale = g->q_scale;
    q->offset = 0.0;
    q->terms = g->q_terms;
    q->bound = gcut_i_quant_bound(g->q_bound, g->q_terms);
    q->energy = (double)flow / g->q_scale;
    return GCUT_OK;
}
