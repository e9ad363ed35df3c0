/*
 * test_gpu_device.c - grids in device memory (gcut/device.h) against the
 * same grids solved from host memory.
 *
 * Every case builds an energy on the host, solves it through a gcut_grid
 * (cpu-bk: the host quantisation and the reference cut), copies the arrays
 * to the device and solves them with a gcut_device_solver: the same flow,
 * the same cut byte for byte (labels and mask forms), for float energies
 * the same scale, offset and terms and a bound equal up to the order of
 * its sum. Each device solve is repeated (a changing result is a race).
 * Then the refusals: host pointers, negative and NaN values, both costs
 * infinite, an overflowing scale, a bad connectivity; none writes the cut.
 *
 * Environment: GCUT_GPU_REPEAT (default 3). Exits 77 (skip) when device
 * grids are unavailable (no plugin or no device).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static int g_repeat = 3;

/* A device copy of n elements of `size` bytes. */
static void *to_device(const void *host, size_t n, size_t size)
{
    void *d = NULL;
    if (gcut_device_alloc(n * size, &d) != GCUT_OK)
        fail_msg("gcut_device_alloc: %s", gcut_last_error());
    assert_int_equal(gcut_device_copy(d, host, n * size), GCUT_OK);
    return d;
}

typedef struct energy {
    int32_t w, h, d, conn, n, npair;
    int is_float;
    void *fg, *bg, *pair[13]; /* host */
} energy;

static void energy_random(energy *e, tu_rng *r, int32_t w, int32_t h, int32_t d, int32_t conn,
                          int is_float, int null_pairs)
{
    memset(e, 0, sizeof *e);
    e->w = w, e->h = h, e->d = d, e->conn = conn, e->n = w * h * d, e->npair = conn / 2;
    e->is_float = is_float;
    const size_t n = (size_t)e->n;
    e->fg = malloc(n * 4);
    e->bg = malloc(n * 4);
    for (int32_t j = 0; j < e->npair; j++)
        e->pair[j] = null_pairs && j == e->npair - 1 ? NULL : malloc(n * 4);
    for (size_t v = 0; v < n; v++) {
        if (is_float) {
            ((float *)e->fg)[v] = (float)tu_range(r, 0, 100000) / 997.0f;
            ((float *)e->bg)[v] = (float)tu_range(r, 0, 100000) / 991.0f - 20.0f;
            if (tu_range(r, 0, 50) == 0) /* forbidden labels */
                ((float *)(tu_range(r, 0, 1) ? e->fg : e->bg))[v] = INFINITY;
        } else {
            ((int32_t *)e->fg)[v] = (int32_t)tu_range(r, 0, 400);
            ((int32_t *)e->bg)[v] = (int32_t)tu_range(r, 0, 400);
        }
        for (int32_t j = 0; j < e->npair; j++) {
            if (!e->pair[j])
                continue;
            if (is_float)
                ((float *)e->pair[j])[v] = (float)tu_range(r, 0, 5000) / 313.0f;
            else
                ((int32_t *)e->pair[j])[v] = (int32_t)tu_range(r, 0, 60);
        }
    }
}

static void energy_free(energy *e)
{
    free(e->fg);
    free(e->bg);
    for (int32_t j = 0; j < 13; j++)
        free(e->pair[j]);
}

#define PAIR_CONST 3.0

/* The host answer: a gcut_grid with the same energy, solved by cpu-bk. */
static gcut_result *host_solve(const energy *e, gcut_quantization *q)
{
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, e->w, e->h, e->d, e->conn), GCUT_OK);
    const size_t n = (size_t)e->n;
    void *filler = malloc(n * 4);
    for (size_t v = 0; v < n; v++) {
        if (e->is_float)
            ((float *)filler)[v] = (float)PAIR_CONST;
        else
            ((int32_t *)filler)[v] = (int32_t)PAIR_CONST;
    }
    const void *pairs[13];
    for (int32_t j = 0; j < e->npair; j++)
        pairs[j] = e->pair[j] ? e->pair[j] : filler;
    if (e->is_float) {
        if (gcut_grid_set_energy_dirs_f32(g, e->fg, e->bg, (const float *const *)pairs, 0.0, q) !=
            GCUT_OK)
            fail_msg("set_energy_dirs_f32: %s", gcut_last_error());
    } else {
        assert_int_equal(gcut_grid_set_terminal_caps(g, e->bg, e->fg), GCUT_OK);
        /* both arcs of each pair carry its weight */
        int32_t *back = malloc(n * 4);
        for (int32_t j = 0; j < e->npair; j++) {
            int32_t dx, dy, dz;
            assert_int_equal(gcut_grid_direction(e->conn, 2 * j, &dx, &dy, &dz), GCUT_OK);
            const int32_t *wj = pairs[j];
            for (int32_t z = 0, v = 0; z < e->d; z++)
                for (int32_t y = 0; y < e->h; y++)
                    for (int32_t x = 0; x < e->w; x++, v++) {
                        const int32_t ux = x - dx, uy = y - dy, uz = z - dz;
                        const int in = ux >= 0 && ux < e->w && uy >= 0 && uy < e->h && uz >= 0 &&
                                       uz < e->d;
                        back[v] = in ? wj[ux + e->w * (uy + e->h * uz)] : 0;
                    }
            assert_int_equal(gcut_grid_set_caps(g, 2 * j, wj), GCUT_OK);
            assert_int_equal(gcut_grid_set_caps(g, 2 * j + 1, back), GCUT_OK);
        }
        free(back);
    }
    free(filler);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-bk";
    if (gcut_grid_solve(g, &opt, res) != GCUT_OK)
        fail_msg("host solve: %s", gcut_last_error());
    if (q)
        assert_int_equal(gcut_grid_quantization(g, gcut_result_flow(res), q), GCUT_OK);
    gcut_grid_free(g);
    return res;
}

/* Device solves of e against the host answer, repeated, both cut forms. */
static void check_energy(gcut_device_solver *s, const energy *e, const char *label)
{
    gcut_quantization hq;
    memset(&hq, 0, sizeof hq);
    gcut_result *ref = host_solve(e, e->is_float ? &hq : NULL);
    const size_t n = (size_t)e->n;
    gcut_device_grid dg = GCUT_DEVICE_GRID_INIT;
    dg.width = e->w, dg.height = e->h, dg.depth = e->d, dg.connectivity = e->conn;
    dg.dtype = e->is_float ? GCUT_DTYPE_FLOAT32 : GCUT_DTYPE_INT32;
    dg.cost_fg = to_device(e->fg, n, 4);
    dg.cost_bg = to_device(e->bg, n, 4);
    for (int32_t j = 0; j < e->npair; j++)
        dg.pair[j] = e->pair[j] ? to_device(e->pair[j], n, 4) : NULL;
    dg.pair_const = PAIR_CONST;
    void *d_cut = NULL;
    assert_int_equal(gcut_device_alloc(n, &d_cut), GCUT_OK);
    dg.cut = d_cut;
    gcut_quantization dq;
    dg.quant = &dq;
    uint8_t *cut = malloc(n);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    for (int i = 0; i < 2 * g_repeat; i++) {
        dg.cut_format = i & 1 ? GCUT_DEVICE_CUT_MASK : GCUT_DEVICE_CUT_LABELS;
        memset(&dq, 0, sizeof dq);
        if (gcut_device_solver_solve(s, &dg, NULL, res) != GCUT_OK)
            fail_msg("%s: device solve: %s", label, gcut_last_error());
        if (gcut_result_flow(res) != gcut_result_flow(ref))
            fail_msg("%s: flow %lld on the device, %lld on the host", label,
                     (long long)gcut_result_flow(res), (long long)gcut_result_flow(ref));
        assert_null(gcut_result_cut(res));
        assert_string_equal(gcut_result_backend(res), "cuda-grid");
        assert_int_equal(gcut_device_copy(cut, d_cut, n), GCUT_OK);
        const uint8_t *want = gcut_result_cut(ref);
        for (size_t v = 0; v < n; v++) {
            const uint8_t exp = dg.cut_format == GCUT_DEVICE_CUT_MASK ? want[v] == GCUT_SOURCE
                                                                      : want[v];
            if (cut[v] != exp)
                fail_msg("%s: cut differs from the host's at node %zu (format %d)", label, v,
                         (int)dg.cut_format);
        }
        if (e->is_float) {
            if (dq.scale != hq.scale || dq.terms != hq.terms)
                fail_msg("%s: scale %g terms %lld on the device, %g %lld on the host", label,
                         dq.scale, (long long)dq.terms, hq.scale, (long long)hq.terms);
            if (fabs(dq.bound - hq.bound) > 1e-12 * hq.bound + 1e-300 ||
                fabs(dq.offset - hq.offset) > 1e-12 * fabs(hq.offset) + 1e-9 ||
                fabs(dq.energy - hq.energy) > 1e-9 * fabs(hq.energy) + 1e-9)
                fail_msg("%s: bound %.17g offset %.17g energy %.17g on the device, %.17g %.17g "
                         "%.17g on the host",
                         label, dq.bound, dq.offset, dq.energy, hq.bound, hq.offset, hq.energy);
        }
    }
    gcut_result_free(res);
    gcut_result_free(ref);
    free(cut);
    gcut_device_free(d_cut);
    gcut_device_free((void *)dg.cost_fg);
    gcut_device_free((void *)dg.cost_bg);
    for (int32_t j = 0; j < e->npair; j++)
        gcut_device_free((void *)dg.pair[j]);
}

static void test_energies(void **unused)
{
    (void)unused;
    static const int32_t shapes[][4] = {{1, 1, 1, 4},   {17, 9, 1, 4},  {64, 48, 1, 4},
                                        {33, 70, 1, 8}, {300, 200, 1, 4}, {9, 8, 7, 6},
                                        {20, 18, 16, 6}, {12, 11, 10, 18}, {13, 12, 11, 26}};
    gcut_device_solver *s;
    if (gcut_device_solver_new(&s, NULL) != GCUT_OK)
        fail_msg("gcut_device_solver_new: %s", gcut_last_error());
    tu_rng r = {1919};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (int is_float = 0; is_float < 2; is_float++)
            for (int nulls = 0; nulls < 2; nulls++) {
                energy e;
                energy_random(&e, &r, shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3],
                              is_float, nulls);
                char label[96];
                snprintf(label, sizeof label, "%dx%dx%d conn %d %s%s", shapes[i][0],
                         shapes[i][1], shapes[i][2], shapes[i][3], is_float ? "float" : "int32",
                         nulls ? " pair_const" : "");
                check_energy(s, &e, label);
                energy_free(&e);
            }
    gcut_device_solver_free(s);
}

/* The directed form against gcut_grid_set_caps. */
static void test_directed(void **unused)
{
    (void)unused;
    tu_rng r = {4242};
    const int32_t w = 57, h = 41, conn = 8, n = w * h;
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, w, h, 1, conn), GCUT_OK);
    tu_grid_randomise(g, &r, TU_GRID_SEEDS);
    gcut_result *ref;
    assert_int_equal(gcut_result_new(&ref), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-bk";
    assert_int_equal(gcut_grid_solve(g, &opt, ref), GCUT_OK);
    gcut_device_grid dg = GCUT_DEVICE_GRID_INIT;
    dg.width = w, dg.height = h, dg.depth = 1, dg.connectivity = conn;
    int32_t *tmp = malloc((size_t)n * 4);
    for (int32_t k = 0; k < conn; k++) {
        for (int32_t v = 0; v < n; v++)
            assert_int_equal(gcut_grid_get_cap(g, v, k, &tmp[v]), GCUT_OK);
        dg.caps[k] = to_device(tmp, (size_t)n, 4);
    }
    int32_t *tmp2 = malloc((size_t)n * 4);
    for (int32_t v = 0; v < n; v++)
        assert_int_equal(gcut_grid_get_terminal_cap(g, v, &tmp[v], &tmp2[v]), GCUT_OK);
    dg.cap_source = to_device(tmp, (size_t)n, 4);
    dg.cap_sink = to_device(tmp2, (size_t)n, 4);
    free(tmp2);
    void *d_cut;
    assert_int_equal(gcut_device_alloc((size_t)n, &d_cut), GCUT_OK);
    dg.cut = d_cut;
    gcut_device_solver *s;
    assert_int_equal(gcut_device_solver_new(&s, "cuda-grid"), GCUT_OK);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    uint8_t *cut = malloc((size_t)n);
    for (int i = 0; i < g_repeat; i++) {
        if (gcut_device_solver_solve(s, &dg, NULL, res) != GCUT_OK)
            fail_msg("directed: %s", gcut_last_error());
        assert_int_equal(gcut_result_flow(res), gcut_result_flow(ref));
        assert_int_equal(gcut_device_copy(cut, d_cut, (size_t)n), GCUT_OK);
        assert_memory_equal(cut, gcut_result_cut(ref), (size_t)n);
    }
    free(cut);
    free(tmp);
    gcut_result_free(res);
    gcut_result_free(ref);
    gcut_device_solver_free(s);
    for (int32_t k = 0; k < conn; k++)
        gcut_device_free((void *)dg.caps[k]);
    gcut_device_free((void *)dg.cap_source);
    gcut_device_free((void *)dg.cap_sink);
    gcut_device_free(d_cut);
    gcut_grid_free(g);
}

/* A refused solve returns `want` with a message containing `text`, and
 * leaves the cut as it was. */
static void refused(gcut_device_solver *s, const gcut_device_grid *dg, gcut_status want,
                    const char *text, size_t n)
{
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    const gcut_status st = gcut_device_solver_solve(s, dg, NULL, res);
    if (st != want || !strstr(gcut_last_error(), text))
        fail_msg("expected status %d with \"%s\", got %d: %s", (int)want, text, (int)st,
                 gcut_last_error());
    uint8_t *cut = malloc(n);
    assert_int_equal(gcut_device_copy(cut, dg->cut, n), GCUT_OK);
    for (size_t v = 0; v < n; v++)
        if (cut[v] != 0xAB)
            fail_msg("a refused solve (\"%s\") wrote the cut", text);
    free(cut);
    gcut_result_free(res);
}

static void test_refusals(void **unused)
{
    (void)unused;
    const int32_t w = 40, h = 30, n = w * h;
    float *fg = calloc((size_t)n, 4), *bg = calloc((size_t)n, 4), *pw = calloc((size_t)n, 4);
    for (int32_t v = 0; v < n; v++)
        fg[v] = 1.5f, bg[v] = 2.5f, pw[v] = 1.0f;
    gcut_device_solver *s;
    assert_int_equal(gcut_device_solver_new(&s, "auto"), GCUT_OK);
    gcut_device_grid dg = GCUT_DEVICE_GRID_INIT;
    dg.width = w, dg.height = h, dg.depth = 1, dg.connectivity = 4;
    dg.dtype = GCUT_DTYPE_FLOAT32;
    float *d_fg = to_device(fg, (size_t)n, 4), *d_bg = to_device(bg, (size_t)n, 4);
    float *d_pw = to_device(pw, (size_t)n, 4);
    uint8_t *fill = malloc((size_t)n);
    memset(fill, 0xAB, (size_t)n);
    void *d_cut = to_device(fill, (size_t)n, 1);
    dg.cost_fg = d_fg, dg.cost_bg = d_bg, dg.pair[0] = d_pw, dg.pair[1] = d_pw;
    dg.cut = d_cut;

    gcut_device_grid bad = dg;
    bad.cost_fg = fg; /* host memory */
    refused(s, &bad, GCUT_ERR_INVALID, "cost_fg", (size_t)n);
    refused(s, &bad, GCUT_ERR_INVALID, "not device memory", (size_t)n);
    bad = dg;
    bad.connectivity = 6;
    refused(s, &bad, GCUT_ERR_INVALID, "connectivity 6", (size_t)n);
    bad = dg;
    bad.cost_bg = NULL;
    refused(s, &bad, GCUT_ERR_INVALID, "must not be NULL", (size_t)n);
    bad = dg;
    bad.cost_fg = (const char *)d_fg + 2;
    refused(s, &bad, GCUT_ERR_INVALID, "aligned", (size_t)n);

    float *d_v;
    fg[777] = NAN;
    d_v = to_device(fg, (size_t)n, 4);
    bad = dg;
    bad.cost_fg = d_v;
    refused(s, &bad, GCUT_ERR_INVALID, "cost_fg[777] is NaN", (size_t)n);
    gcut_device_free(d_v);
    fg[777] = INFINITY, bg[777] = INFINITY;
    bad = dg;
    bad.cost_fg = d_v = to_device(fg, (size_t)n, 4);
    bad.cost_bg = to_device(bg, (size_t)n, 4);
    refused(s, &bad, GCUT_ERR_INVALID, "both +INFINITY", (size_t)n);
    gcut_device_free(d_v);
    gcut_device_free((void *)bad.cost_bg);
    pw[5] = -1.0f;
    bad = dg;
    bad.pair[1] = d_v = to_device(pw, (size_t)n, 4);
    refused(s, &bad, GCUT_ERR_INVALID, "pair[1][5] is negative", (size_t)n);
    gcut_device_free(d_v);
    bad = dg;
    bad.scale = 1e9;
    refused(s, &bad, GCUT_ERR_OVERFLOW, "INT32_MAX", (size_t)n);
    /* int32: a negative cost */
    int32_t *ib = calloc((size_t)n, 4);
    ib[99] = -3;
    bad = dg;
    bad.dtype = GCUT_DTYPE_INT32;
    bad.cost_fg = bad.cost_bg = d_v = to_device(ib, (size_t)n, 4);
    bad.pair[0] = bad.pair[1] = NULL;
    refused(s, &bad, GCUT_ERR_INVALID, "cost_fg[99] is negative (-3)", (size_t)n);
    gcut_device_free(d_v);
    /* and the untouched problem still solves */
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    assert_int_equal(gcut_device_solver_solve(s, &dg, NULL, res), GCUT_OK);
    gcut_result_free(res);

    free(ib);
    free(fill);
    free(fg);
    free(bg);
    free(pw);
    gcut_device_free(d_fg);
    gcut_device_free(d_bg);
    gcut_device_free(d_pw);
    gcut_device_free(d_cut);
    gcut_device_solver_free(s);
    /* a back end without the extension */
    gcut_device_solver *none = NULL;
    assert_int_equal(gcut_device_solver_new(&none, "cpu-bk"), GCUT_ERR_NOT_FOUND);
    assert_null(none);
}

int main(void)
{
    const char *why = NULL;
    if (!gcut_device_available(&why)) {
        printf("device grids unavailable (%s): skipped\n", why);
        return 77;
    }
    const char *rep = getenv("GCUT_GPU_REPEAT");
    if (rep && atoi(rep) > 0)
        g_repeat = atoi(rep) > 10 ? 10 : atoi(rep);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_energies),
        cmocka_unit_test(test_directed),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
