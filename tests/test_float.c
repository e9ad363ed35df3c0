/*
 * test_float.c - float energies and capacities (gcut/grid.h "float
 * energies", gcut/graph.h "float capacities") against brute force, and the
 * grid setters' names of 0.3 against their deprecated aliases.
 *
 * For every small problem (grids of 8 to 12 nodes of every connectivity,
 * random graphs of up to 10 nodes) with random float values of magnitudes
 * 1e-6 .. 1e6 (mixed signs for unary costs, forbidden labels, huge
 * values), every labelling is enumerated:
 *  - the cut returned is a minimum cut of the quantised problem: its
 *    integer capacity, recomputed here from the arrays the library stored,
 *    equals the flow and no labelling has a smaller one;
 *  - for every labelling x, |E(x) - (offset + E_q(x) / scale)| <= bound,
 *    with E the float energy, evaluated here in double from the documented
 *    convention (independently of the library's code);
 *  - the returned cut's float energy is within bound of the float optimum,
 *    and q.energy = offset + flow / scale lies within bound of both.
 * Coarse caller scales make quantisation change the cut; the suite checks
 * that it did somewhere, so the bound checks are not vacuous.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ------------------------------------------------------------ helpers */

static double uni(tu_rng *r) { return (double)(tu_next(r) >> 11) * (1.0 / 9007199254740992.0); }

/* 10^U(lo, hi). */
static double mag(tu_rng *r, double lo, double hi) { return pow(10.0, lo + (hi - lo) * uni(r)); }

static int nb(const gcut_grid *g, int32_t v, int32_t dir, int32_t *u)
{
    const int32_t w = gcut_grid_width(g), h = gcut_grid_height(g), dp = gcut_grid_depth(g);
    int32_t dx, dy, dz;
    assert_int_equal(gcut_grid_direction(gcut_grid_connectivity(g), dir, &dx, &dy, &dz), GCUT_OK);
    const int32_t x = v % w + dx, y = (v / w) % h + dy, z = v / (w * h) + dz;
    if (x < 0 || x >= w || y < 0 || y >= h || z < 0 || z >= dp)
        return 0;
    *u = x + w * (y + h * z);
    return 1;
}

/* An energy as the caller gives it. */
typedef struct energy {
    int32_t n, conn;
    float *fg, *bg;
    float *node_w;         /* one weight per node, or NULL */
    const float *pair[13]; /* one array per even direction, or NULL */
    float *pair_mem;
} energy;

static void energy_free(energy *e)
{
    free(e->fg);
    free(e->bg);
    free(e->node_w);
    free(e->pair_mem);
    memset(e, 0, sizeof *e);
}

/* The weight of the pair {v, u}, u the neighbour of v in even direction k,
 * from the header's conventions. */
static double pair_w(const energy *e, int32_t v, int32_t u, int32_t k)
{
    if (e->node_w)
        return 0.5 * ((double)e->node_w[v] + (double)e->node_w[u]);
    return e->pair[k / 2] ? (double)e->pair[k / 2][v] : 0.0;
}

/* E(x), label GCUT_SOURCE = FG; +inf for a forbidden label. */
static double energy_eval(const gcut_grid *g, const energy *e, const uint8_t *x)
{
    double s = 0.0;
    for (int32_t v = 0; v < e->n; v++)
        s += x[v] == GCUT_SOURCE ? (double)e->fg[v] : (double)e->bg[v];
    for (int32_t v = 0; v < e->n; v++)
        for (int32_t k = 0; k < e->conn; k += 2) {
            int32_t u;
            if (nb(g, v, k, &u) && x[u] != x[v])
                s += pair_w(e, v, u, k);
        }
    return s;
}

/* Capacity of the cut x of the grid's integer arrays, from grid.h's
 * semantics: source side pays its sink capacity, sink side its source
 * capacity, and every arc from the source side to the sink side. */
static int64_t grid_cut_int(const gcut_grid *g, const uint8_t *x)
{
    const int32_t n = gcut_grid_num_nodes(g), c = gcut_grid_connectivity(g);
    const int32_t *src = gcut_grid_caps(g, GCUT_GRID_SOURCE_LINK);
    const int32_t *snk = gcut_grid_caps(g, GCUT_GRID_SINK_LINK);
    int64_t s = 0;
    for (int32_t v = 0; v < n; v++) {
        s += x[v] == GCUT_SOURCE ? snk[v] : src[v];
        if (x[v] != GCUT_SOURCE)
            continue;
        for (int32_t k = 0; k < c; k++) {
            int32_t u;
            if (nb(g, v, k, &u) && x[u] == GCUT_SINK)
                s += gcut_grid_caps(g, k)[v];
        }
    }
    return s;
}

static void labels_of(uint32_t m, int32_t n, uint8_t *x)
{
    for (int32_t v = 0; v < n; v++)
        x[v] = (uint8_t)((m >> v) & 1u);
}

static int g_gap_seen; /* a case where the returned cut was not float-optimal */

/* Check the three properties of the top of the file against every
 * labelling: eval gives E(x), cut_int the capacity of x in the problem the
 * library stored; the per-labelling relation is checked where admissible
 * (NULL: everywhere) says so. */
typedef double (*eval_fn)(const void *ctx, const uint8_t *x);

static void check_solution(int32_t n, int64_t flow, const uint8_t *cut, const gcut_quantization *q,
                           eval_fn eval, const void *ctx,
                           int64_t (*cut_int)(const void *ctx, const uint8_t *x),
                           int (*admissible)(const void *ctx, const uint8_t *x))
{
    uint8_t x[16];
    assert_true(n <= 16);
    assert_true(q->scale > 0.0 && isfinite(q->scale));
    assert_true(q->bound >= 0.0 && isfinite(q->bound));
    /* At most half a unit per term, plus the documented margins. */
    assert_true(q->bound <= (double)q->terms / (2.0 * q->scale) * (1.0 + 1e-5));
    const int64_t cut_q = cut_int(ctx, cut);
    assert_int_equal(cut_q, flow);
    const double e_cut = eval(ctx, cut);
    assert_true(isfinite(e_cut));
    double e_best = INFINITY, scale_mag = 0.0;
    for (uint32_t m = 0; m < (1u << n); m++) {
        labels_of(m, n, x);
        const int64_t cq = cut_int(ctx, x);
        assert_true(cq >= flow); /* the cut is a minimum of the quantised problem */
        const double e = eval(ctx, x);
        if (!isfinite(e))
            continue; /* a forbidden label */
        if (e < e_best)
            e_best = e;
        if (admissible && !admissible(ctx, x))
            continue; /* a node on the dearer side of a clamped t-link */
        if (fabs(e) > scale_mag)
            scale_mag = fabs(e);
        const double approx = q->offset + (double)cq / q->scale;
        const double tol = 1e-12 * (fabs(e) + fabs(q->offset) + fabs(approx)) + 1e-300;
        if (!(fabs(e - approx) <= q->bound + tol))
            fail_msg("labelling %u: E %.17g, offset + E_q / scale %.17g, bound %.17g", m, e, approx,
                     q->bound);
    }
    const double tol = 1e-12 * (scale_mag + fabs(q->offset)) + 1e-300;
    if (!(e_cut <= e_best + q->bound + tol))
        fail_msg("cut energy %.17g, optimum %.17g, bound %.17g", e_cut, e_best, q->bound);
    assert_true(e_cut >= e_best - tol);
    if (e_cut > e_best + tol)
        g_gap_seen = 1;
    assert_true(fabs(q->energy - (q->offset + (double)flow / q->scale)) <=
                tol + 1e-12 * fabs(q->energy));
    assert_true(fabs(q->energy - e_cut) <= q->bound + tol);
    assert_true(fabs(q->energy - e_best) <= q->bound + tol);
}

/* ------------------------------------------------------------ grids */

typedef struct grid_ctx {
    const gcut_grid *g;
    const energy *e;
} grid_ctx;

static double grid_eval(const void *c, const uint8_t *x)
{
    const grid_ctx *gc = c;
    return energy_eval(gc->g, gc->e, x);
}

static int64_t grid_cut(const void *c, const uint8_t *x)
{
    return grid_cut_int(((const grid_ctx *)c)->g, x);
}

/* Whether x gives every node whose t-link was clamped (it equals 1 + the
 * larger of the node's arc sums, out and in, as stored) its cheaper label:
 * gcut/graph.h's guarantee for every labelling holds for those. */
static int grid_admissible(const void *c, const uint8_t *x)
{
    const gcut_grid *g = ((const grid_ctx *)c)->g;
    const int32_t n = gcut_grid_num_nodes(g), conn = gcut_grid_connectivity(g);
    const int32_t *src = gcut_grid_caps(g, GCUT_GRID_SOURCE_LINK);
    const int32_t *snk = gcut_grid_caps(g, GCUT_GRID_SINK_LINK);
    for (int32_t v = 0; v < n; v++) {
        int64_t out = 0, in = 0;
        for (int32_t k = 0; k < conn; k++) {
            int32_t u;
            if (nb(g, v, k, &u)) {
                out += gcut_grid_caps(g, k)[v];
                in += gcut_grid_caps(g, k ^ 1)[u];
            }
        }
        const int64_t hard = 1 + (out > in ? out : in);
        if ((src[v] == hard && x[v] != GCUT_SOURCE) || (snk[v] == hard && x[v] != GCUT_SINK))
            return 0;
    }
    return 1;
}

/* A random energy on g: unary costs of per-node magnitudes in
 * 10^[ulo, uhi] and either sign, pair weights of magnitudes in
 * 10^[plo, phi] (some zero), a few forbidden labels. */
static void random_energy(tu_rng *r, const gcut_grid *g, energy *e, int node_weights, double ulo,
                          double uhi, double plo, double phi, int forbid)
{
    memset(e, 0, sizeof *e);
    e->n = gcut_grid_num_nodes(g);
    e->conn = gcut_grid_connectivity(g);
    e->fg = calloc((size_t)e->n, sizeof(float));
    e->bg = calloc((size_t)e->n, sizeof(float));
    for (int32_t v = 0; v < e->n; v++) {
        e->fg[v] = (float)((uni(r) < 0.5 ? -1 : 1) * mag(r, ulo, uhi));
        e->bg[v] = (float)((uni(r) < 0.5 ? -1 : 1) * mag(r, ulo, uhi));
        if (forbid && tu_range(r, 0, 5) == 0) {
            if (uni(r) < 0.5)
                e->fg[v] = INFINITY;
            else
                e->bg[v] = INFINITY;
        }
    }
    if (node_weights) {
        e->node_w = calloc((size_t)e->n, sizeof(float));
        for (int32_t v = 0; v < e->n; v++)
            e->node_w[v] = tu_range(r, 0, 6) == 0 ? 0.0f : (float)mag(r, plo, phi);
    } else {
        e->pair_mem = calloc((size_t)e->n * (size_t)(e->conn / 2), sizeof(float));
        for (int32_t j = 0; j < e->conn / 2; j++) {
            float *a = e->pair_mem + (size_t)j * e->n;
            for (int32_t v = 0; v < e->n; v++)
                a[v] = tu_range(r, 0, 6) == 0 ? 0.0f : (float)mag(r, plo, phi);
            e->pair[j] = j == 1 && tu_range(r, 0, 4) == 0 ? NULL : a; /* a NULL direction */
        }
    }
}

static gcut_status set_energy(gcut_grid *g, const energy *e, double scale, gcut_quantization *q)
{
    if (e->node_w)
        return gcut_grid_set_energy_f32(g, e->fg, e->bg, e->node_w, scale, q);
    return gcut_grid_set_energy_dirs_f32(g, e->fg, e->bg, e->pair, scale, q);
}

static void solve_and_check(gcut_grid *g, const energy *e, gcut_result *res)
{
    assert_int_equal(gcut_grid_solve(g, NULL, res), GCUT_OK);
    gcut_quantization q;
    assert_int_equal(gcut_grid_quantization(g, gcut_result_flow(res), &q), GCUT_OK);
    grid_ctx c = {g, e};
    check_solution(gcut_grid_num_nodes(g), gcut_result_flow(res), gcut_result_cut(res), &q,
                   grid_eval, &c, grid_cut, grid_admissible);
}

static const int32_t shapes[][4] = {
    {3, 3, 1, 4},  {3, 3, 1, 8},  {4, 3, 1, 4}, {4, 3, 1, 8}, {2, 2, 2, 6},
    {2, 2, 2, 18}, {2, 2, 2, 26}, {3, 2, 2, 6}, {1, 1, 1, 4}, {5, 1, 1, 8},
};
#define NSHAPES (int)(sizeof shapes / sizeof shapes[0])

static void test_grid_brute_force(void **state)
{
    (void)state;
    tu_rng r = {18};
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    const int reps = tu_scaled(6);
    /* (unary lo, hi, pair lo, hi) exponent ranges. */
    static const double ranges[][4] = {
        {-6, -6, -6, -6}, {6, 6, 6, 6},   {-6, 6, -6, 6},
        {0, 2, -1, 1},    {3, 6, -6, -3}, {-6, -3, 3, 6},
    };
    for (int rep = 0; rep < reps; rep++)
        for (int s = 0; s < NSHAPES; s++)
            for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; k++)
                for (int nw = 0; nw < 2; nw++) {
                    gcut_grid *g;
                    assert_int_equal(
                        gcut_grid_new(&g, shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3]),
                        GCUT_OK);
                    energy e;
                    random_energy(&r, g, &e, nw, ranges[k][0], ranges[k][1], ranges[k][2],
                                  ranges[k][3], (int)((rep + k) % 3 == 0));
                    /* Automatic, then coarse caller scales: a few units for a
                     * typical pair or unary, a power of two and not. */
                    const double typical = pow(10.0, 0.5 * (ranges[k][2] + ranges[k][3]));
                    const double scales[3] = {0.0, 4.0 / typical, 2.7 / typical};
                    for (int si = 0; si < 3; si++) {
                        gcut_quantization q;
                        gcut_status st = set_energy(g, &e, scales[si], &q);
                        if (st == GCUT_ERR_OVERFLOW && si > 0)
                            continue; /* the caller's scale did not fit (checked below) */
                        assert_int_equal(st, GCUT_OK);
                        if (si > 0)
                            assert_true(q.scale == scales[si]);
                        assert_true(isnan(q.energy));
                        solve_and_check(g, &e, res);
                    }
                    energy_free(&e);
                    gcut_grid_free(g);
                }
    assert_true(g_gap_seen); /* quantisation did move some cut: the checks bite */
    gcut_result_free(res);
}

/* Replacing the unary costs keeps the scale and the n-links, re-solves
 * warm, and keeps the guarantee; +INFINITY works as a stroke. */
static void test_grid_unary_update(void **state)
{
    (void)state;
    tu_rng r = {7};
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    for (int rep = 0; rep < tu_scaled(20); rep++) {
        gcut_grid *g;
        const int s = rep % NSHAPES;
        assert_int_equal(gcut_grid_new(&g, shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3]),
                         GCUT_OK);
        energy e;
        random_energy(&r, g, &e, rep % 2, -2, 2, -1, 1, 0);
        gcut_quantization q0, q1;
        assert_int_equal(set_energy(g, &e, 0, &q0), GCUT_OK);
        solve_and_check(g, &e, res);
        const int32_t n = e.n, c = e.conn;
        int32_t *links = malloc((size_t)n * (size_t)c * sizeof(int32_t));
        for (int32_t k = 0; k < c; k++)
            memcpy(links + (size_t)k * n, gcut_grid_caps(g, k), (size_t)n * sizeof(int32_t));
        for (int32_t v = 0; v < n; v++) {
            e.fg[v] = (float)(e.fg[v] * (0.5 + uni(&r)) + uni(&r) - 0.5);
            if (tu_range(&r, 0, 4) == 0)
                e.bg[v] = INFINITY; /* a stroke: v must be FG */
        }
        assert_int_equal(gcut_grid_set_unary_f32(g, e.fg, e.bg, &q1), GCUT_OK);
        assert_true(q1.scale == q0.scale);
        for (int32_t k = 0; k < c; k++)
            assert_memory_equal(links + (size_t)k * n, gcut_grid_caps(g, k),
                                (size_t)n * sizeof(int32_t));
        solve_and_check(g, &e, res);
        assert_int_equal(gcut_result_stats(res)->warm_start, 1);
        for (int32_t v = 0; v < n; v++)
            if (isinf(e.bg[v]))
                assert_int_equal(gcut_result_cut(res)[v], GCUT_SOURCE);
        free(links);
        energy_free(&e);
        gcut_grid_free(g);
    }
    gcut_result_free(res);
}

/* The general form: float capacities per arc and terminal. */
static void test_grid_caps_brute_force(void **state)
{
    (void)state;
    tu_rng r = {99};
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    for (int rep = 0; rep < tu_scaled(8); rep++)
        for (int s = 0; s < NSHAPES; s++) {
            gcut_grid *g;
            assert_int_equal(
                gcut_grid_new(&g, shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3]), GCUT_OK);
            const int32_t n = gcut_grid_num_nodes(g), c = gcut_grid_connectivity(g);
            const double lo = -6 + 3 * (rep % 5), hi = lo + 3 * (rep % 3);
            float *mem = calloc((size_t)n * (size_t)(c + 2), sizeof(float));
            const float *caps[26];
            for (int32_t k = 0; k < c + 2; k++) {
                float *a = mem + (size_t)k * n;
                for (int32_t v = 0; v < n; v++)
                    a[v] = tu_range(&r, 0, 4) == 0 ? 0.0f : (float)mag(&r, lo, hi);
                if (k < c)
                    caps[k] = a;
            }
            const float *src = mem + (size_t)c * n, *snk = mem + (size_t)(c + 1) * n;
            /* The float problem as an energy: terminal and arc capacities
             * are its terms; evaluated by the same brute force through a
             * float grid-shaped cut. */
            for (int si = 0; si < 2; si++) {
                const double scale = si ? 3.0 / pow(10.0, 0.5 * (lo + hi)) : 0.0;
                gcut_quantization q;
                const gcut_status st = gcut_grid_set_caps_f32(g, caps, src, snk, scale, &q);
                if (st == GCUT_ERR_OVERFLOW && si)
                    continue;
                assert_int_equal(st, GCUT_OK);
                assert_true(q.offset == 0.0);
                /* Outside entries are stored as 0; inside ones are round(s c). */
                for (int32_t k = 0; k < c; k++)
                    for (int32_t v = 0; v < n; v++) {
                        int32_t u;
                        const int32_t want =
                            nb(g, v, k, &u) ? (int32_t)floor(q.scale * caps[k][v] + 0.5) : 0;
                        assert_int_equal(gcut_grid_caps(g, k)[v], want);
                    }
                assert_int_equal(gcut_grid_solve(g, NULL, res), GCUT_OK);
                assert_int_equal(gcut_grid_quantization(g, gcut_result_flow(res), &q), GCUT_OK);
                /* Float cut capacity by brute force. */
                uint8_t x[16];
                double best = INFINITY, e_cut = 0;
                for (uint32_t m = 0; m <= (1u << n); m++) {
                    if (m < (1u << n))
                        labels_of(m, n, x);
                    else
                        memcpy(x, gcut_result_cut(res), (size_t)n);
                    double e = 0;
                    int64_t eq = 0;
                    for (int32_t v = 0; v < n; v++) {
                        e += x[v] == GCUT_SOURCE ? snk[v] : src[v];
                        for (int32_t k = 0; k < c; k++) {
                            int32_t u;
                            if (x[v] == GCUT_SOURCE && nb(g, v, k, &u) && x[u] == GCUT_SINK)
                                e += caps[k][v];
                        }
                    }
                    eq = grid_cut_int(g, x);
                    assert_true(eq >= gcut_result_flow(res));
                    assert_true(fabs(e - (double)eq / q.scale) <= q.bound + 1e-12 * e + 1e-300);
                    if (m < (1u << n) && e < best)
                        best = e;
                    if (m == (1u << n))
                        e_cut = e;
                }
                assert_true(e_cut <= best + q.bound + 1e-12 * best + 1e-300);
                assert_int_equal(grid_cut_int(g, gcut_result_cut(res)), gcut_result_flow(res));
            }
            free(mem);
            gcut_grid_free(g);
        }
    gcut_result_free(res);
}

/* Huge values: the automatic scale always fits; a caller's scale that does
 * not fit fails naming the value, and changes nothing. */
static void test_grid_huge(void **state)
{
    (void)state;
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 4, 3, 1, 8), GCUT_OK);
    const int32_t n = 12;
    energy e;
    tu_rng r = {5};
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    for (int variant = 0; variant < 3; variant++) {
        random_energy(&r, g, &e, 0, -6, 6, -6, 6, 0);
        const float big = variant == 2 ? FLT_MAX : 1e30f;
        for (int32_t v = 0; v < n; v += 3) {
            e.fg[v] = big;
            e.pair_mem[v] = big; /* direction 0 of node v */
        }
        if (variant == 1)
            for (int32_t v = 0; v < n * 4; v++)
                e.pair_mem[v] = big; /* every pair huge */
        for (int32_t j = 0; j < 4; j++)
            e.pair[j] = e.pair_mem + (size_t)j * n;
        gcut_quantization q;
        assert_int_equal(set_energy(g, &e, 0, &q), GCUT_OK);
        for (int32_t k = -2; k < 8; k++)
            for (int32_t v = 0; v < n; v++)
                assert_true(gcut_grid_caps(g, k)[v] <= (1 << 28) + 64);
        solve_and_check(g, &e, res);
        /* At scale 1, 1e30 does not fit. */
        int32_t before[12];
        memcpy(before, gcut_grid_caps(g, 0), sizeof before);
        assert_int_equal(set_energy(g, &e, 1.0, NULL), GCUT_ERR_OVERFLOW);
        assert_non_null(strstr(gcut_last_error(), "node 0 in direction 0"));
        assert_non_null(strstr(gcut_last_error(), "gcut_grid_set_energy_dirs_f32"));
        assert_memory_equal(before, gcut_grid_caps(g, 0), sizeof before);
        assert_int_equal(gcut_grid_quantization(g, 0, &q), GCUT_OK); /* still the old report */
        energy_free(&e);
    }
    /* The general form the same way. */
    float caps0[12], src[12];
    for (int32_t v = 0; v < n; v++) {
        caps0[v] = 1e30f;
        src[v] = 1.0f;
    }
    const float *caps[8] = {caps0};
    gcut_quantization q;
    assert_int_equal(gcut_grid_set_caps_f32(g, caps, src, NULL, 0, &q), GCUT_OK);
    assert_true(q.scale * 1e30 * 2 <= 268435456.0 * 1.0000001);
    assert_int_equal(gcut_grid_set_caps_f32(g, caps, src, NULL, 1.0, &q), GCUT_ERR_OVERFLOW);
    assert_non_null(strstr(gcut_last_error(), "caps[0][0]"));
    assert_int_equal(gcut_grid_set_caps_f32(g, caps, src, NULL, 1e-29, &q), GCUT_OK);
    assert_true(q.scale == 1e-29);
    assert_int_equal(gcut_grid_caps(g, 0)[0], 10);
    assert_int_equal(gcut_grid_caps(g, 0)[3], 0); /* outside: stored as 0 */
    gcut_result_free(res);
    gcut_grid_free(g);
}

/* No pairwise terms: every node takes its cheaper label, whatever the
 * magnitudes, and rounding costs nothing. */
static void test_grid_no_pairs(void **state)
{
    (void)state;
    tu_rng r = {77};
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    for (int rep = 0; rep < tu_scaled(20); rep++) {
        gcut_grid *g;
        const int s = rep % NSHAPES;
        assert_int_equal(gcut_grid_new(&g, shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3]),
                         GCUT_OK);
        energy e;
        random_energy(&r, g, &e, 1, -6, 6, 0, 0, rep % 2);
        memset(e.node_w, 0, (size_t)e.n * sizeof(float));
        if (rep % 3 == 0) {
            free(e.node_w);
            e.node_w = NULL; /* NULL weights: the same */
        }
        gcut_quantization q;
        assert_int_equal(gcut_grid_set_energy_f32(g, e.fg, e.bg, e.node_w, 0, &q), GCUT_OK);
        assert_true(q.bound == 0.0);
        assert_int_equal(gcut_grid_solve(g, NULL, res), GCUT_OK);
        for (int32_t v = 0; v < e.n; v++)
            if (e.fg[v] != e.bg[v])
                assert_int_equal(gcut_result_cut(res)[v],
                                 e.fg[v] < e.bg[v] ? GCUT_SOURCE : GCUT_SINK);
        solve_and_check(g, &e, res);
        energy_free(&e);
        gcut_grid_free(g);
    }
    gcut_result_free(res);
}

/* Bad values fail with GCUT_ERR_INVALID naming the index, and change nothing. */
static void test_grid_invalid(void **state)
{
    (void)state;
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 3, 3, 1, 4), GCUT_OK);
    float fg[9], bg[9], w[9], p0[9], p1[9];
    for (int v = 0; v < 9; v++) {
        fg[v] = (float)v - 4.0f;
        bg[v] = 1.5f;
        w[v] = p0[v] = p1[v] = 0.25f;
    }
    const float *pair[2] = {p0, p1};
    gcut_quantization q;
    assert_int_equal(gcut_grid_quantization(g, 0, &q), GCUT_ERR_STATE);
    assert_int_equal(gcut_grid_set_unary_f32(g, fg, bg, NULL), GCUT_ERR_STATE);
    assert_int_equal(gcut_grid_set_energy_dirs_f32(g, fg, bg, pair, 0, &q), GCUT_OK);
    int32_t before[6][9];
    for (int k = 0; k < 6; k++)
        memcpy(before[k], gcut_grid_caps(g, k < 4 ? k : 3 - k), sizeof before[k]);
#define EXPECT_FAIL(call, code, text)                                                              \
    do {                                                                                           \
        assert_int_equal((call), (code));                                                          \
        if (!strstr(gcut_last_error(), (text)))                                                    \
            fail_msg("message \"%s\" lacks \"%s\"", gcut_last_error(), (text));                    \
        for (int k_ = 0; k_ < 6; k_++)                                                             \
            assert_memory_equal(before[k_], gcut_grid_caps(g, k_ < 4 ? k_ : 3 - k_),               \
                                sizeof before[k_]);                                                \
    } while (0)
    fg[5] = NAN;
    EXPECT_FAIL(gcut_grid_set_energy_dirs_f32(g, fg, bg, pair, 0, &q), GCUT_ERR_INVALID,
                "cost_fg[5] is NaN");
    EXPECT_FAIL(gcut_grid_set_unary_f32(g, fg, bg, &q), GCUT_ERR_INVALID, "cost_fg[5] is NaN");
    fg[5] = -INFINITY;
    EXPECT_FAIL(gcut_grid_set_energy_f32(g, fg, bg, w, 0, &q), GCUT_ERR_INVALID,
                "cost_fg[5] is -INFINITY");
    fg[5] = INFINITY;
    bg[5] = INFINITY;
    EXPECT_FAIL(gcut_grid_set_energy_f32(g, fg, bg, w, 0, &q), GCUT_ERR_INVALID,
                "cost_fg[5] and cost_bg[5] are both +INFINITY");
    fg[5] = 0.0f;
    bg[5] = 1.0f;
    p1[7] = -1.0f;
    EXPECT_FAIL(gcut_grid_set_energy_dirs_f32(g, fg, bg, pair, 0, &q), GCUT_ERR_INVALID,
                "pair[1][7] is negative");
    p1[7] = INFINITY;
    EXPECT_FAIL(gcut_grid_set_energy_dirs_f32(g, fg, bg, pair, 0, &q), GCUT_ERR_INVALID,
                "pair[1][7] is infinite");
    p1[7] = 0.5f;
    w[3] = NAN;
    EXPECT_FAIL(gcut_grid_set_energy_f32(g, fg, bg, w, 0, &q), GCUT_ERR_INVALID,
                "weight[3] is NaN");
    w[3] = 0.5f;
    const float *caps[4] = {p0, p1, w, NULL};
    bg[8] = -2.0f;
    EXPECT_FAIL(gcut_grid_set_caps_f32(g, caps, w, bg, 0, &q), GCUT_ERR_INVALID,
                "cap_sink[8] is negative");
    bg[8] = 1.0f;
    p0[2] = NAN;
    EXPECT_FAIL(gcut_grid_set_caps_f32(g, caps, NULL, bg, 0, &q), GCUT_ERR_INVALID,
                "caps[0][2] is NaN");
    p0[2] = 0.25f;
    EXPECT_FAIL(gcut_grid_set_energy_f32(g, fg, bg, w, -1.0, &q), GCUT_ERR_INVALID, "scale");
    EXPECT_FAIL(gcut_grid_set_energy_f32(g, fg, bg, w, NAN, &q), GCUT_ERR_INVALID, "scale");
    EXPECT_FAIL(gcut_grid_set_energy_f32(g, fg, bg, w, INFINITY, &q), GCUT_ERR_INVALID, "scale");
    EXPECT_FAIL(gcut_grid_set_energy_f32(g, NULL, bg, w, 0, &q), GCUT_ERR_INVALID, "NULL");
#undef EXPECT_FAIL
    /* An integer setter that changes a capacity drops the report. */
    assert_int_equal(gcut_grid_quantization(g, 0, &q), GCUT_OK);
    assert_int_equal(gcut_grid_set_cap(g, 0, 0, before[0][0]), GCUT_OK); /* same value */
    assert_int_equal(gcut_grid_quantization(g, 0, &q), GCUT_OK);
    assert_int_equal(gcut_grid_set_cap(g, 0, 0, before[0][0] + 1), GCUT_OK);
    assert_int_equal(gcut_grid_quantization(g, 0, &q), GCUT_ERR_STATE);
    assert_int_equal(gcut_grid_set_unary_f32(g, fg, bg, NULL), GCUT_ERR_STATE);
    assert_int_equal(gcut_grid_quantization(NULL, 0, &q), GCUT_ERR_INVALID);
    gcut_grid_free(g);
}

/* The energy convention against the integer path: integer-valued costs at
 * scale 1 give exactly the arrays the header's integer example sets, with
 * the source capacity the cost of BG; and FG is GCUT_SOURCE. */
static void test_grid_convention(void **state)
{
    (void)state;
    tu_rng r = {3};
    gcut_result *a, *b;
    assert_int_equal(gcut_result_new(&a), GCUT_OK);
    assert_int_equal(gcut_result_new(&b), GCUT_OK);
    for (int rep = 0; rep < tu_scaled(10); rep++) {
        gcut_grid *gf, *gi;
        assert_int_equal(gcut_grid_new(&gf, 6, 5, 1, 4), GCUT_OK);
        assert_int_equal(gcut_grid_new(&gi, 6, 5, 1, 4), GCUT_OK);
        const int32_t n = 30;
        float fg[30], bg[30], right[30], down[30];
        int32_t src[30], snk[30], caps[4][30];
        double offset = 0;
        for (int32_t v = 0; v < n; v++) {
            fg[v] = (float)tu_range(&r, -20, 20);
            bg[v] = (float)tu_range(&r, -20, 20);
            right[v] = (float)tu_range(&r, 0, 3);
            down[v] = (float)tu_range(&r, 0, 3);
            const float m = fg[v] < bg[v] ? fg[v] : bg[v];
            offset += m;
            src[v] = (int32_t)(bg[v] - m);
            snk[v] = (int32_t)(fg[v] - m);
        }
        for (int32_t v = 0; v < n; v++) {
            const int32_t x = v % 6, y = v / 6;
            caps[0][v] = x < 5 ? (int32_t)right[v] : 0;
            caps[1][v] = x > 0 ? (int32_t)right[v - 1] : 0;
            caps[2][v] = y < 4 ? (int32_t)down[v] : 0;
            caps[3][v] = y > 0 ? (int32_t)down[v - 6] : 0;
        }
        /* Clamp as the header says: 1 + the node's arcs. */
        for (int32_t v = 0; v < n; v++) {
            const int32_t hard = 1 + caps[0][v] + caps[1][v] + caps[2][v] + caps[3][v];
            if (src[v] > hard)
                src[v] = hard;
            if (snk[v] > hard)
                snk[v] = hard;
        }
        const float *pair[2] = {right, down};
        gcut_quantization q;
        assert_int_equal(gcut_grid_set_energy_dirs_f32(gf, fg, bg, pair, 1.0, &q), GCUT_OK);
        assert_true(q.bound < 1e-9); /* integers at scale 1: only the margin */
        assert_true(q.offset == offset);
        assert_int_equal(gcut_grid_set_terminal_caps(gi, src, snk), GCUT_OK);
        for (int k = 0; k < 4; k++)
            assert_int_equal(gcut_grid_set_caps(gi, k, caps[k]), GCUT_OK);
        for (int k = -2; k < 4; k++)
            assert_memory_equal(gcut_grid_caps(gf, k), gcut_grid_caps(gi, k), sizeof src);
        assert_int_equal(gcut_grid_solve(gf, NULL, a), GCUT_OK);
        assert_int_equal(gcut_grid_solve(gi, NULL, b), GCUT_OK);
        assert_memory_equal(gcut_result_cut(a), gcut_result_cut(b), (size_t)n);
        assert_int_equal(gcut_grid_quantization(gf, gcut_result_flow(a), &q), GCUT_OK);
        /* The exact energy of the cut (all integers: no rounding). */
        energy e = {.n = n, .conn = 4, .fg = fg, .bg = bg, .pair = {right, down}};
        assert_true(q.energy == energy_eval(gf, &e, gcut_result_cut(a)));
        /* A node whose BG cost is much higher is FG = GCUT_SOURCE. */
        for (int32_t v = 0; v < n; v++)
            if (bg[v] - fg[v] > 2.0f * 4 * 3)
                assert_int_equal(gcut_result_cut(a)[v], GCUT_SOURCE);
        gcut_grid_free(gf);
        gcut_grid_free(gi);
    }
    gcut_result_free(a);
    gcut_result_free(b);
}

/* The names of 0.3 and the deprecated ones of 0.2 do the same. */
static void test_names(void **state)
{
    (void)state;
    tu_rng r = {11};
    gcut_result *a, *b;
    assert_int_equal(gcut_result_new(&a), GCUT_OK);
    assert_int_equal(gcut_result_new(&b), GCUT_OK);
    for (int rep = 0; rep < tu_scaled(10); rep++) {
        gcut_grid *g1, *g2;
        assert_int_equal(gcut_grid_new(&g1, 7, 5, 1, 8), GCUT_OK);
        assert_int_equal(gcut_grid_new(&g2, 7, 5, 1, 8), GCUT_OK);
        tu_grid_randomise(g1, &r, (tu_grid_kind)(rep % 3));
        for (int k = 0; k < 8; k++)
            assert_int_equal(gcut_grid_set_caps(g2, k, gcut_grid_caps(g1, k)), GCUT_OK);
        int32_t s[35], t[35];
        for (int v = 0; v < 35; v++) {
            s[v] = (int32_t)tu_range(&r, 0, 100);
            t[v] = (int32_t)tu_range(&r, 0, 100);
        }
        assert_int_equal(gcut_grid_set_terminals(g1, s, t), GCUT_OK);
        assert_int_equal(gcut_grid_set_terminal_caps(g2, s, t), GCUT_OK);
        assert_int_equal(gcut_grid_set_terminals_range(g1, 3, 4, t, NULL), GCUT_OK);
        assert_int_equal(gcut_grid_set_terminal_caps_range(g2, 3, 4, t, NULL), GCUT_OK);
        assert_int_equal(gcut_grid_set_tweights(g1, 9, 1000, 0), GCUT_OK);
        assert_int_equal(gcut_grid_set_terminal_cap(g2, 9, 1000, 0), GCUT_OK);
        for (int k = -2; k < 8; k++)
            assert_memory_equal(gcut_grid_caps(g1, k), gcut_grid_caps(g2, k), sizeof s);
        for (int v = 0; v < 35; v++) {
            int32_t s1, t1, s2, t2;
            assert_int_equal(gcut_grid_get_tweights(g1, v, &s1, &t1), GCUT_OK);
            assert_int_equal(gcut_grid_get_terminal_cap(g2, v, &s2, &t2), GCUT_OK);
            assert_int_equal(s1, s2);
            assert_int_equal(t1, t2);
        }
        assert_int_equal(gcut_grid_solve(g1, NULL, a), GCUT_OK);
        assert_int_equal(gcut_grid_solve(g2, NULL, b), GCUT_OK);
        assert_int_equal(gcut_result_flow(a), gcut_result_flow(b));
        assert_memory_equal(gcut_result_cut(a), gcut_result_cut(b), 35);
        /* Replace, not add: the same call twice leaves the same values. */
        assert_int_equal(gcut_grid_set_terminal_cap(g2, 9, 1000, 0), GCUT_OK);
        int32_t s2;
        assert_int_equal(gcut_grid_get_terminal_cap(g2, 9, &s2, NULL), GCUT_OK);
        assert_int_equal(s2, 1000);
        /* Errors name the function called, old or new. */
        assert_int_equal(gcut_grid_set_tweights(g1, 99, 1, 1), GCUT_ERR_INVALID);
        assert_non_null(strstr(gcut_last_error(), "gcut_grid_set_tweights"));
        assert_int_equal(gcut_grid_set_terminal_caps_range(g2, 30, 10, s, t), GCUT_ERR_INVALID);
        assert_non_null(strstr(gcut_last_error(), "gcut_grid_set_terminal_caps_range"));
        assert_int_equal(gcut_grid_get_tweights(g1, -1, NULL, NULL), GCUT_ERR_INVALID);
        gcut_grid_free(g1);
        gcut_grid_free(g2);
    }
    gcut_result_free(a);
    gcut_result_free(b);
}

/* ------------------------------------------------------------ graphs */

typedef struct graph_ctx {
    int32_t n;
    int64_t m;
    const int32_t *from, *to;
    const float *cap, *rev, *src, *snk;
    const gcut_graph *g;
} graph_ctx;

static double graph_eval(const void *c, const uint8_t *x)
{
    const graph_ctx *k = c;
    double s = 0;
    for (int32_t v = 0; v < k->n; v++)
        s += x[v] == GCUT_SOURCE ? (k->snk ? k->snk[v] : 0.0) : (k->src ? k->src[v] : 0.0);
    for (int64_t e = 0; e < k->m; e++) {
        if (x[k->from[e]] == GCUT_SOURCE && x[k->to[e]] == GCUT_SINK)
            s += k->cap[e];
        if (k->rev && x[k->to[e]] == GCUT_SOURCE && x[k->from[e]] == GCUT_SINK)
            s += k->rev[e];
    }
    return s;
}

static int64_t graph_cut(const void *c, const uint8_t *x)
{
    int64_t cap = 0;
    assert_int_equal(gcut_cut_capacity(((const graph_ctx *)c)->g, x, &cap), GCUT_OK);
    return cap;
}

static void test_graph_brute_force(void **state)
{
    (void)state;
    tu_rng r = {2024};
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    g_gap_seen = 0;
    for (int rep = 0; rep < tu_scaled(300); rep++) {
        const int32_t n = (int32_t)tu_range(&r, 1, 10);
        const int64_t m = tu_range(&r, 0, 20);
        int32_t from[20], to[20];
        float cap[20], rev[20], src[10], snk[10];
        const double lo = -6 + (rep % 13), hi = lo + (rep % 3) * 2;
        for (int64_t e = 0; e < m; e++) {
            from[e] = (int32_t)tu_range(&r, 0, n - 1);
            to[e] = (int32_t)tu_range(&r, 0, n - 1); /* self-loops too */
            cap[e] = tu_range(&r, 0, 4) == 0 ? 0.0f : (float)mag(&r, lo, hi);
            rev[e] = tu_range(&r, 0, 2) == 0 ? 0.0f : (float)mag(&r, lo, hi);
        }
        for (int32_t v = 0; v < n; v++) {
            src[v] = tu_range(&r, 0, 2) == 0 ? 0.0f : (float)mag(&r, lo, hi);
            snk[v] = tu_range(&r, 0, 2) == 0 ? 0.0f : (float)mag(&r, lo, hi);
        }
        const int with_rev = rep % 4 != 0;
        const double scale = rep % 3 == 0 ? 0.0 : (rep % 3 == 1 ? 0.6 : 1.3) / pow(10.0, lo);
        gcut_graph *g;
        gcut_quantization q;
        const gcut_status st =
            gcut_graph_new_f32(&g, n, m, from, to, cap, with_rev ? rev : NULL, src, snk, scale, &q);
        if (st == GCUT_ERR_OVERFLOW && scale > 0)
            continue;
        assert_int_equal(st, GCUT_OK);
        if (scale > 0)
            assert_true(q.scale == scale);
        assert_int_equal(gcut_graph_num_edges(g), m);
        for (int64_t e = 0; e < m; e++) {
            int32_t u, v, c, rc;
            assert_int_equal(gcut_graph_get_edge(g, e, &u, &v, &c, &rc), GCUT_OK);
            assert_int_equal(u, from[e]);
            assert_int_equal(v, to[e]);
            if (u != v) {
                assert_int_equal(c, (int32_t)floor(q.scale * cap[e] + 0.5));
                assert_int_equal(rc, with_rev ? (int32_t)floor(q.scale * rev[e] + 0.5) : 0);
            }
        }
        assert_int_equal(gcut_solve(g, NULL, res), GCUT_OK);
        assert_int_equal(gcut_graph_quantization(g, gcut_result_flow(res), &q), GCUT_OK);
        graph_ctx c = {n, m, from, to, cap, with_rev ? rev : NULL, src, snk, g};
        check_solution(n, gcut_result_flow(res), gcut_result_cut(res), &q, graph_eval, &c,
                       graph_cut, NULL);
        /* The basic interface gives the same. */
        int64_t flow;
        assert_int_equal(gcut_graph_maxflow(g, "cpu-ref", &flow), GCUT_OK);
        assert_int_equal(flow, gcut_result_flow(res));
        gcut_graph_free(g);
    }
    assert_true(g_gap_seen);
    gcut_result_free(res);
}

static void test_graph_invalid(void **state)
{
    (void)state;
    int32_t from[3] = {0, 1, 2}, to[3] = {1, 2, 0};
    float cap[3] = {1, 2, 3}, rev[3] = {0, 0, 0}, src[3] = {1, 0, 0}, snk[3] = {0, 0, 1};
    gcut_graph *g = (gcut_graph *)&g; /* must stay untouched on failure */
    gcut_graph *const sentinel = g;
#define EXPECT_FAIL(call, code, text)                                                              \
    do {                                                                                           \
        assert_int_equal((call), (code));                                                          \
        if (!strstr(gcut_last_error(), (text)))                                                    \
            fail_msg("message \"%s\" lacks \"%s\"", gcut_last_error(), (text));                    \
        assert_ptr_equal(g, sentinel);                                                             \
    } while (0)
    cap[1] = NAN;
    EXPECT_FAIL(gcut_graph_new_f32(&g, 3, 3, from, to, cap, rev, src, snk, 0, NULL),
                GCUT_ERR_INVALID, "cap[1] is NaN");
    cap[1] = 2;
    rev[2] = -1;
    EXPECT_FAIL(gcut_graph_new_f32(&g, 3, 3, from, to, cap, rev, src, snk, 0, NULL),
                GCUT_ERR_INVALID, "rev_cap[2] is negative");
    rev[2] = 0;
    snk[0] = INFINITY;
    EXPECT_FAIL(gcut_graph_new_f32(&g, 3, 3, from, to, cap, rev, src, snk, 0, NULL),
                GCUT_ERR_INVALID, "cap_sink[0] is infinite");
    snk[0] = 0;
    to[1] = 3;
    EXPECT_FAIL(gcut_graph_new_f32(&g, 3, 3, from, to, cap, rev, src, snk, 0, NULL),
                GCUT_ERR_INVALID, "edge 1 (1 -> 3): node id out of range");
    to[1] = 2;
    EXPECT_FAIL(gcut_graph_new_f32(&g, 3, 3, from, to, NULL, rev, src, snk, 0, NULL),
                GCUT_ERR_INVALID, "must not be NULL");
    EXPECT_FAIL(gcut_graph_new_f32(&g, 3, 3, from, to, cap, rev, src, snk, -2, NULL),
                GCUT_ERR_INVALID, "scale");
    cap[2] = 3e9f;
    EXPECT_FAIL(gcut_graph_new_f32(&g, 3, 3, from, to, cap, rev, src, snk, 1.0, NULL),
                GCUT_ERR_OVERFLOW, "cap[2]");
#undef EXPECT_FAIL
    /* 1e30 and FLT_MAX: the automatic scale fits. */
    cap[2] = FLT_MAX;
    src[0] = 1e30f;
    gcut_quantization q;
    assert_int_equal(gcut_graph_new_f32(&g, 3, 3, from, to, cap, rev, src, snk, 0, &q), GCUT_OK);
    int32_t c;
    assert_int_equal(gcut_graph_get_edge(g, 2, NULL, NULL, &c, NULL), GCUT_OK);
    assert_true(c > 0 && c <= (1 << 28));
    int64_t flow;
    assert_int_equal(gcut_graph_maxflow(g, "auto", &flow), GCUT_OK);
    assert_int_equal(gcut_graph_quantization(g, flow, &q), GCUT_OK);
    /* The flow is min(1e30, 2, 1) = 1: it rounds to 0 at this scale, and
     * the bound says so. */
    assert_true(fabs(q.energy - 1.0) <= q.bound);
    gcut_graph_free(g);
    /* An integer graph has no report. */
    assert_int_equal(gcut_graph_new(&g, 2, 0), GCUT_OK);
    assert_int_equal(gcut_graph_quantization(g, 0, &q), GCUT_ERR_STATE);
    gcut_graph_free(g);
    /* Empty graphs are fine. */
    assert_int_equal(gcut_graph_new_f32(&g, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, 0, &q),
                     GCUT_OK);
    assert_true(q.bound == 0.0 && q.terms == 0);
    gcut_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_brute_force),      cmocka_unit_test(test_grid_unary_update),
        cmocka_unit_test(test_grid_caps_brute_force), cmocka_unit_test(test_grid_huge),
        cmocka_unit_test(test_grid_no_pairs),         cmocka_unit_test(test_grid_invalid),
        cmocka_unit_test(test_grid_convention),       cmocka_unit_test(test_names),
        cmocka_unit_test(test_graph_brute_force),     cmocka_unit_test(test_graph_invalid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
