/*
 * grid_float.c - float energies and capacities on grids (gcut/grid.h, "float
 * energies"): validation, the choice of the scale, rounding to the int32
 * arrays, and the report of what rounding cost.
 *
 * The guarantee (gcut/graph.h, "float capacities"): with bound = the sum of
 * every rounded term's error, the cut of the quantised problem is within
 * bound of the float optimum. Here the terms are the n-link of each
 * neighbour pair (once: both arcs carry the same rounded weight and are cut
 * together), or each arc on its own for gcut_grid_set_caps_f32, and the
 * t-link difference of each node.
 *
 * Unary costs. Only a node's cost difference d = cost_fg - cost_bg counts
 * (the smaller cost is a constant, summed into the offset). Its t-link is
 * round(scale |d|) on the dearer label's side, clamped to hard = 1 + the
 * node's quantised arcs (the larger of the sums out and in): a node whose
 * t-link reaches hard lies on its cheaper side in every minimum cut (moving
 * it there gains hard and costs at most hard - 1), so the clamped problem
 * has the same minimum cuts as the merely rounded one, and the bound, which
 * is about that one, holds. An infinite cost (a forbidden label) is the
 * limit case: clamped, and no error, since neither the returned cut nor the
 * float optimum pays it; nor does a finite one far enough past the pair
 * weights (see store_unary). The clamp also keeps every t-link within the
 * budget whatever the unary costs, so the automatic scale depends on them
 * only up to the pair weights, and gcut_grid_set_unary_f32 cannot overflow.
 *
 * Every entry point validates all its input and checks for overflow before
 * it changes anything, then writes whole arrays through the integer setters
 * (which cannot fail on validated values and record only what differs, for
 * warm re-solves), then records the report, which those setters reset.
 */
#include <math.h>
#include <string.h>

#include "graph/quant_internal.h"
#include "grid/grid_internal.h"

/* Whether direction k of node (x, y, z) leads inside the grid. */
static int f_inside(const gcut_grid *g, int32_t x, int32_t y, int32_t z, int32_t k)
{
    const int64_t nx = (int64_t)x + g->off[3 * k], ny = (int64_t)y + g->off[3 * k + 1],
                  nz = (int64_t)z + g->off[3 * k + 2];
    return nx >= 0 && nx < g->w && ny >= 0 && ny < g->h && nz >= 0 && nz < g->d;
}

/* Index offset of direction k. */
static int64_t f_step(const gcut_grid *g, int32_t k)
{
    return g->off[3 * k] + (int64_t)g->off[3 * k + 1] * g->w +
           (int64_t)g->off[3 * k + 2] * g->w * g->h;
}

/* Loop over every node v = (x, y, z) in index order. */
#define FOR_NODES(g, x, y, z, v)                                                                   \
    for (int32_t z = 0, v = 0; z < (g)->d; z++)                                                    \
        for (int32_t y = 0; y < (g)->h; y++)                                                       \
            for (int32_t x = 0; x < (g)->w; x++, v++)

/* Where the pair weights come from: one array per node, or one per even
 * direction (pair[j][v]: the edge from v in direction 2j), or none. */
typedef struct pair_src {
    const float *node;
    const float *const *dirs;
} pair_src;

/* The weight of the edge between v and its neighbour u in direction k. */
static double pair_weight(const gcut_grid *g, const pair_src *p, int32_t v, int32_t u, int32_t k)
{
    (void)g;
    if (p->node)
        return 0.5 * ((double)p->node[v] + (double)p->node[u]);
    if (!p->dirs || !p->dirs[k >> 1])
        return 0.0;
    return (k & 1) ? p->dirs[k >> 1][u] : p->dirs[k >> 1][v];
}

static gcut_status check_scale(double scale)
{
    if (!(scale >= 0.0) || isinf(scale))
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "scale %g must be 0 (automatic) or a finite positive number", scale);
    return GCUT_OK;
}

static gcut_status check_unary(const gcut_grid *g, const float *cost_fg, const float *cost_bg)
{
    if (!cost_fg || !cost_bg)
        return GCUT_FAIL(GCUT_ERR_INVALID, "cost_fg and cost_bg must not be NULL");
    for (int32_t v = 0; v < g->n; v++) {
        const float a = cost_fg[v], b = cost_bg[v];
        if (isnan(a) || isnan(b))
            return GCUT_FAIL(GCUT_ERR_INVALID, "%s[%d] is NaN", isnan(a) ? "cost_fg" : "cost_bg",
                             (int)v);
        if ((isinf(a) && a < 0) || (isinf(b) && b < 0))
            return GCUT_FAIL(GCUT_ERR_INVALID,
                             "%s[%d] is -INFINITY (a cost may be +INFINITY: a forbidden label)",
                             isinf(a) && a < 0 ? "cost_fg" : "cost_bg", (int)v);
        if (isinf(a) && isinf(b))
            return GCUT_FAIL(GCUT_ERR_INVALID,
                             "cost_fg[%d] and cost_bg[%d] are both +INFINITY: node %d has no "
                             "allowed label",
                             (int)v, (int)v, (int)v);
    }
    return GCUT_OK;
}

static gcut_status check_array(const float *a, int32_t n, const char *name, int32_t index)
{
    if (!a)
        return GCUT_OK;
    for (int32_t v = 0; v < n; v++) {
        const char *bad = gcut_i_quant_bad_cap(a[v]);
        if (!bad)
            continue;
        if (index >= 0)
            return GCUT_FAIL(GCUT_ERR_INVALID, "%s[%d][%d] is %s (%g)", name, (int)index, (int)v,
                             bad, (double)a[v]);
        return GCUT_FAIL(GCUT_ERR_INVALID, "%s[%d] is %s (%g)", name, (int)v, bad, (double)a[v]);
    }
    return GCUT_OK;
}

/* The quantised weight of every arc of every node, checked against int32
 * at the caller's scale: each arc, and 1 + a node's arcs (its hard t-link). */
static gcut_status check_pairs_fit(const gcut_grid *g, const pair_src *p, double scale)
{
    double err;
    FOR_NODES(g, x, y, z, v)
    {
        double sum = 1.0;
        for (int32_t k = 0; k < g->conn; k++) {
            if (!f_inside(g, x, y, z, k))
                continue;
            const int32_t u = (int32_t)(v + f_step(g, k));
            const double w = pair_weight(g, p, v, u, k);
            const double r = gcut_i_quant_round(scale, w, &err);
            if (r > INT32_MAX)
                return GCUT_FAIL(
                    GCUT_ERR_OVERFLOW,
                    "the edge of node %d in direction %d (weight %g) is %.17g units "
                    "at scale %g, past INT32_MAX (give scale 0 to choose one that fits)",
                    (int)v, (int)k, w, r, scale);
            sum += r;
        }
        if (sum > INT32_MAX)
            return GCUT_FAIL(GCUT_ERR_OVERFLOW,
                             "the edges of node %d sum to %.17g units at scale %g, past INT32_MAX "
                             "(give scale 0 to choose one that fits)",
                             (int)v, sum - 1.0, scale);
    }
    return GCUT_OK;
}

/* The automatic scale of an energy: the worst node total is its t-link
 * (at most the clamp, 1 + its arcs) plus its arcs out and in. */
static double energy_auto_scale(const gcut_grid *g, const float *cost_fg, const float *cost_bg,
                                const pair_src *p)
{
    double worst = 0.0, least_d = INFINITY;
    FOR_NODES(g, x, y, z, v)
    {
        double wsum = 0.0;
        for (int32_t k = 0; k < g->conn; k++)
            if (f_inside(g, x, y, z, k))
                wsum += pair_weight(g, p, v, (int32_t)(v + f_step(g, k)), k);
        const double d = fabs((double)cost_fg[v] - (double)cost_bg[v]);
        const double node = (d < wsum ? d : wsum) + 2.0 * wsum;
        if (node > worst)
            worst = node;
        if (d > 0.0 && d < least_d)
            least_d = d;
    }
    if (worst > 0.0 || !isfinite(least_d))
        return gcut_i_quant_auto_scale(worst);
    /* No pair weights at all: every t-link is clamped to one unit and only
     * the signs count. A scale that puts the least difference past 1 + half
     * a unit per neighbour (16 > 1 + 26 / 2) makes every node forced, with
     * no rounding error (see store_unary), and cannot overflow. */
    int e;
    (void)frexp(16.0 / least_d, &e); /* 16 / least_d = f 2^e, f in [0.5, 1) */
    return ldexp(1.0, e);
}

/* The t-links of the unary costs at g->q_scale, against the grid's current
 * n-links (see the top of the file), written through the integer setter;
 * tmp has 2 n entries. Sets the unary half of the report. */
static void store_unary(gcut_grid *g, const float *cost_fg, const float *cost_bg, int32_t *tmp)
{
    const double scale = g->q_scale;
    double bound = 0.0, offset = 0.0, err;
    int64_t terms = 0;
    int32_t *src = tmp, *snk = tmp + g->n;
    FOR_NODES(g, x, y, z, v)
    {
        int64_t out = 0, in = 0;
        int32_t deg = 0;
        for (int32_t k = 0; k < g->conn; k++)
            if (f_inside(g, x, y, z, k)) {
                out += g->cap[k][v];
                in += g->cap[k ^ 1][v + f_step(g, k)];
                deg++;
            }
        const int64_t arcs = out > in ? out : in;
        int64_t hard = 1 + arcs;
        if (hard > INT32_MAX)
            hard = INT32_MAX;
        const double a = cost_fg[v], b = cost_bg[v];
        offset += a < b ? a : b;
        const double d = a - b; /* > 0: FG dearer, the node leans to the sink side */
        double r = hard;
        if (isfinite(d)) {
            r = gcut_i_quant_round(scale, fabs(d), &err);
            /* A node so far from indifferent that scale |d| passes its arcs
             * by more than their rounding (half a unit each, and one for the
             * double arithmetic) has |d| above its float pair weights too:
             * it takes its cheaper label in every minimum of both problems
             * (its t-link is clamped), so its term is paid by neither and
             * counts no error, which for a huge |d| would be all margin. */
            const int forced = scale * fabs(d) > (double)arcs + 0.5 * deg + 1.0;
            if (d != 0.0 && !forced) {
                bound += err;
                terms++;
            }
        }
        const int32_t t = r < (double)hard ? (int32_t)r : (int32_t)hard;
        src[v] = d < 0.0 ? t : 0; /* the sink side (BG) pays it */
        snk[v] = d > 0.0 ? t : 0;
    }
    gcut_status st = gcut_grid_set_terminal_caps(g, src, snk);
    (void)st; /* values >= 0: cannot fail */
    g->q_bound_unary = bound;
    g->q_terms_unary = terms;
    g->q_offset = offset;
}

static void report(const gcut_grid *g, gcut_quantization *q, int64_t flow, int with_flow)
{
    if (!q)
        return;
    const int64_t terms = g->q_terms_pair + g->q_terms_unary;
    q->scale = g->q_scale;
    q->offset = g->q_offset;
    q->terms = terms;
    q->bound = gcut_i_quant_bound(g->q_bound_pair + g->q_bound_unary, terms);
    q->energy = with_flow ? g->q_offset + (double)flow / g->q_scale : NAN;
}

static gcut_status set_energy(gcut_grid *g, const float *cost_fg, const float *cost_bg,
                              const pair_src *p, double scale, gcut_quantization *q)
{
    gcut_status st;
    if ((st = check_scale(scale)) != GCUT_OK || (st = check_unary(g, cost_fg, cost_bg)) != GCUT_OK)
        return st;
    if (p->node && (st = check_array(p->node, g->n, "weight", -1)) != GCUT_OK)
        return st;
    for (int32_t j = 0; p->dirs && j < g->conn / 2; j++)
        if ((st = check_array(p->dirs[j], g->n, "pair", j)) != GCUT_OK)
            return st;
    if (scale == 0.0)
        scale = energy_auto_scale(g, cost_fg, cost_bg, p);
    if ((st = check_pairs_fit(g, p, scale)) != GCUT_OK)
        return st;
    int32_t *tmp = NULL;
    if ((st = gcut_i_alloc_array((void **)&tmp, 2 * (int64_t)g->n, sizeof(int32_t), __func__,
                                 "the quantised arrays of %d nodes", (int)g->n)) != GCUT_OK)
        return st;
    /* Nothing can fail from here on. */
    double bound = 0.0, err;
    int64_t terms = 0;
    for (int32_t k = 0; k < g->conn; k++) {
        const int64_t step = f_step(g, k);
        FOR_NODES(g, x, y, z, v)
        {
            tmp[v] = 0;
            if (!f_inside(g, x, y, z, k))
                continue;
            const double w = pair_weight(g, p, v, (int32_t)(v + step), k);
            tmp[v] = (int32_t)gcut_i_quant_round(scale, w, &err);
            if (!(k & 1) && w != 0.0) { /* one term per pair */
                bound += err;
                terms++;
            }
        }
        st = gcut_grid_set_caps(g, k, tmp);
    }
    g->q_scale = scale;
    store_unary(g, cost_fg, cost_bg, tmp);
    gcut_i_free(tmp);
    g->q_bound_pair = bound;
    g->q_terms_pair = terms;
    g->q_kind = GCUT_I_GRID_Q_ENERGY;
    report(g, q, 0, 0);
    return GCUT_OK;
}

gcut_status gcut_grid_set_energy_dirs_f32(gcut_grid *g, const float *cost_fg, const float *cost_bg,
                                          const float *const *pair, double scale,
                                          gcut_quantization *q)
{
    GCUT_ENTRY();
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid is NULL");
    const pair_src p = {NULL, pair};
    return set_energy(g, cost_fg, cost_bg, &p, scale, q);
}

gcut_status gcut_grid_set_energy_f32(gcut_grid *g, const float *cost_fg, const float *cost_bg,
                                     const float *weight, double scale, gcut_quantization *q)
{
    GCUT_ENTRY();
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid is NULL");
    const pair_src p = {weight, NULL};
    return set_energy(g, cost_fg, cost_bg, &p, scale, q);
}

gcut_status gcut_grid_set_unary_f32(gcut_grid *g, const float *cost_fg, const float *cost_bg,
                                    gcut_quantization *q)
{
    GCUT_ENTRY();
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid is NULL");
    if (g->q_kind != GCUT_I_GRID_Q_ENERGY)
        return GCUT_FAIL(GCUT_ERR_STATE,
                         "the grid's energy was not set by gcut_grid_set_energy_f32 or "
                         "gcut_grid_set_energy_dirs_f32 (or integer setters changed it since)");
    gcut_status st;
    if ((st = check_unary(g, cost_fg, cost_bg)) != GCUT_OK)
        return st;
    int32_t *tmp = NULL;
    if ((st = gcut_i_alloc_array((void **)&tmp, 2 * (int64_t)g->n, sizeof(int32_t), __func__,
                                 "the quantised arrays of %d nodes", (int)g->n)) != GCUT_OK)
        return st;
    store_unary(g, cost_fg, cost_bg, tmp);
    gcut_i_free(tmp);
    g->q_kind = GCUT_I_GRID_Q_ENERGY;
    report(g, q, 0, 0);
    return GCUT_OK;
}

/* The value of array k of gcut_grid_set_caps_f32 (a direction, then source,
 * sink) at node v; NULL arrays are zeros. */
static double cval(const gcut_grid *g, const float *const *caps, const float *cap_source,
                   const float *cap_sink, int32_t k, int64_t v)
{
    if (k < g->conn)
        return caps && caps[k] ? (double)caps[k][v] : 0.0;
    if (k == g->conn)
        return cap_source ? (double)cap_source[v] : 0.0;
    return cap_sink ? (double)cap_sink[v] : 0.0;
}

gcut_status gcut_grid_set_caps_f32(gcut_grid *g, const float *const *caps, const float *cap_source,
                                   const float *cap_sink, double scale, gcut_quantization *q)
{
    GCUT_ENTRY();
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid is NULL");
    gcut_status st;
    if ((st = check_scale(scale)) != GCUT_OK)
        return st;
    for (int32_t k = 0; caps && k < g->conn; k++)
        if ((st = check_array(caps[k], g->n, "caps", k)) != GCUT_OK)
            return st;
    if ((st = check_array(cap_source, g->n, "cap_source", -1)) != GCUT_OK ||
        (st = check_array(cap_sink, g->n, "cap_sink", -1)) != GCUT_OK)
        return st;
    if (scale == 0.0) {
        double worst = 0.0;
        FOR_NODES(g, x, y, z, v)
        {
            double node = cval(g, caps, cap_source, cap_sink, g->conn, v) +
                          cval(g, caps, cap_source, cap_sink, g->conn + 1, v);
            for (int32_t k = 0; k < g->conn; k++)
                if (f_inside(g, x, y, z, k))
                    node += cval(g, caps, cap_source, cap_sink, k, v) +
                            cval(g, caps, cap_source, cap_sink, k ^ 1, v + f_step(g, k));
            if (node > worst)
                worst = node;
        }
        scale = gcut_i_quant_auto_scale(worst);
    }
    double err;
    FOR_NODES(g, x, y, z, v)
    {
        for (int32_t k = 0; k < g->conn + 2; k++) {
            if (k < g->conn && !f_inside(g, x, y, z, k))
                continue;
            const double r =
                gcut_i_quant_round(scale, cval(g, caps, cap_source, cap_sink, k, v), &err);
            if (r <= INT32_MAX)
                continue;
            if (k < g->conn)
                return GCUT_FAIL(
                    GCUT_ERR_OVERFLOW,
                    "caps[%d][%d] (%g) is %.17g units at scale %g, past INT32_MAX (give "
                    "scale 0 to choose one that fits)",
                    (int)k, (int)v, cval(g, caps, cap_source, cap_sink, k, v), r, scale);
            return GCUT_FAIL(GCUT_ERR_OVERFLOW,
                             "%s[%d] (%g) is %.17g units at scale %g, past INT32_MAX (give scale 0 "
                             "to choose one that fits)",
                             k == g->conn ? "cap_source" : "cap_sink", (int)v,
                             cval(g, caps, cap_source, cap_sink, k, v), r, scale);
        }
    }
    int32_t *tmp = NULL;
    if ((st = gcut_i_alloc_array((void **)&tmp, 2 * (int64_t)g->n, sizeof(int32_t), __func__,
                                 "the quantised arrays of %d nodes", (int)g->n)) != GCUT_OK)
        return st;
    double bound = 0.0;
    int64_t terms = 0;
    for (int32_t k = 0; k < g->conn + 2; k++) {
        /* Directions one at a time, then source and sink together. */
        int32_t *a = k == g->conn + 1 ? tmp + g->n : tmp;
        FOR_NODES(g, x, y, z, v)
        {
            a[v] = 0;
            if (k < g->conn && !f_inside(g, x, y, z, k))
                continue;
            const double c = cval(g, caps, cap_source, cap_sink, k, v);
            a[v] = (int32_t)gcut_i_quant_round(scale, c, &err);
            if (c != 0.0) {
                bound += err;
                terms++;
            }
        }
        if (k < g->conn)
            st = gcut_grid_set_caps(g, k, tmp);
        else if (k == g->conn + 1)
            st = gcut_grid_set_terminal_caps(g, tmp, tmp + g->n);
    }
    gcut_i_free(tmp);
    g->q_scale = scale;
    g->q_offset = 0.0;
    g->q_bound_pair = bound;
    g->q_terms_pair = terms;
    g->q_bound_unary = 0.0;
    g->q_terms_unary = 0;
    g->q_kind = GCUT_I_GRID_Q_CAPS;
    report(g, q, 0, 0);
    return GCUT_OK;
}

gcut_status gcut_grid_quantization(const gcut_grid *g, int64_t flow, gcut_quantization *q)
{
    GCUT_ENTRY();
    if (!g || !q)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid and q must not be NULL");
    if (g->q_kind == GCUT_I_GRID_Q_NONE)
        return GCUT_FAIL(GCUT_ERR_STATE,
                         "the grid's capacities were not set by a float setter, or integer "
                         "setters changed them since");
    report(g, q, flow, 1);
    return GCUT_OK;
}
