/*
 * test_gpu_grid.c - the cuda-grid back end (GPU push-relabel on grids)
 * against cpu-ref, through gcut_grid_solve.
 *
 * For every grid: the same flow value as cpu-ref on the converted graph
 * and the same canonical cut, byte for byte. The engine is lock-free and
 * the order in which tiles run differs from run to run, so every case is
 * solved several times: a result that changes between runs is a race.
 * Warm re-solves after random changes (strokes, t-links, n-links raised
 * and lowered below the flow they carry, whole arrays, huge values) must
 * equal cold solves.
 *
 * Environment:
 *   GCUT_GPU_REPEAT  solves of each case (default 3; scripts/gpu-check.sh
 *                    uses 100 on the small cases)
 *   GCUT_GPU_QUICK   1: small shapes only (for compute-sanitizer), 2: fewer
 *                    still (racecheck)
 *   GCUT_TEST_SCALE  scales the number of warm sequences
 *
 * Exits 77 (skip) with a message when cuda-grid is unavailable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static int g_repeat = 3;
static int g_quick;

static gcut_result *solve(gcut_grid *g, const char *backend, const char *params,
                          gcut_status expect)
{
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = backend;
    opt.params = params;
    const gcut_status st = gcut_grid_solve(g, &opt, res);
    if (st != expect)
        fail_msg("%s [%s]: status %d, expected %d: %s", backend, params ? params : "", (int)st,
                 (int)expect, gcut_last_error());
    return res;
}

/* cpu-ref's answer on the converted graph. */
static gcut_result *reference(gcut_grid *g) { return solve(g, "cpu-ref", NULL, GCUT_OK); }

/* One cuda-grid solve against the reference; returns whether it was warm. */
static int agrees(gcut_grid *g, const gcut_result *ref, const char *params, const char *label)
{
    const int32_t n = gcut_grid_num_nodes(g);
    gcut_result *res = solve(g, "cuda-grid", params, GCUT_OK);
    const char *pm = params ? params : "";
    if (gcut_result_flow(res) != gcut_result_flow(ref))
        fail_msg("%s [%s]: flow %lld, cpu-ref %lld", label, pm, (long long)gcut_result_flow(res),
                 (long long)gcut_result_flow(ref));
    if (memcmp(gcut_result_cut(res), gcut_result_cut(ref), (size_t)n) != 0) {
        int32_t v = 0;
        while (gcut_result_cut(res)[v] == gcut_result_cut(ref)[v])
            v++;
        fail_msg("%s [%s]: cut differs from cpu-ref at node %d", label, pm, (int)v);
    }
    const int warm = gcut_result_stats(res)->warm_start;
    gcut_result_free(res);
    return warm;
}

/* Cold solves, repeated; with the default settings and extreme ones. */
static void check_cold(gcut_grid *g, const char *label, int repeat)
{
    gcut_result *ref = reference(g);
    for (int i = 0; i < repeat; i++)
        assert_int_equal(agrees(g, ref, "warm=0", label), 0);
    if (g_quick < 2) {
        agrees(g, ref, "warm=0,sweeps=1,launches=1", label);
        agrees(g, ref, "warm=0,sweeps=500,launches=7,coop=0", label);
    }
    gcut_result_free(ref);
}

static void test_shapes(void **unused)
{
    (void)unused;
    static const struct {
        int32_t w, h, d, c;
    } shapes[] = {
        {1, 1, 1, 4},   {1, 1, 1, 26},  {1, 37, 1, 4},   {29, 1, 1, 8},  {1, 1, 23, 6},
        {13, 11, 1, 4}, {17, 9, 1, 8},  {7, 5, 6, 6},    {5, 6, 7, 18},  {6, 5, 5, 26},
        {2, 3, 1, 8},   {3, 1, 2, 26},  {31, 23, 1, 4},  {9, 7, 5, 18},  {1, 9, 9, 26},
        {33, 17, 1, 4}, {65, 33, 1, 8}, {9, 17, 10, 6},  {17, 9, 9, 26}, {100, 1, 1, 4},
    };
    tu_rng r = {2026};
    char label[128];
    const size_t nshapes = g_quick >= 2 ? 10 : sizeof shapes / sizeof shapes[0];
    for (size_t s = 0; s < nshapes; s++)
        for (int k = 0; k < TU_GRID_COUNT; k += g_quick >= 2 ? 3 : 1) {
            gcut_grid *g;
            assert_int_equal(
                gcut_grid_new(&g, shapes[s].w, shapes[s].h, shapes[s].d, shapes[s].c), GCUT_OK);
            tu_grid_randomise(g, &r, (tu_grid_kind)k);
            snprintf(label, sizeof label, "%dx%dx%d c%d %s", (int)shapes[s].w, (int)shapes[s].h,
                     (int)shapes[s].d, (int)shapes[s].c, tu_grid_kind_name((tu_grid_kind)k));
            check_cold(g, label, g_repeat);
            gcut_grid_free(g);
        }
}

/* Many tiles: pushes across tile borders, long BFS waves. */
static void test_larger(void **unused)
{
    (void)unused;
    if (g_quick)
        skip();
    static const struct {
        int32_t w, h, d, c;
    } shapes[] = {{300, 211, 1, 4}, {257, 130, 1, 8}, {40, 37, 33, 6}, {23, 30, 19, 18},
                  {25, 21, 20, 26}, {1000, 3, 1, 4}};
    tu_rng r = {515};
    char label[128];
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const tu_grid_kind ks[] = {TU_GRID_MEDIUM, TU_GRID_SEEDS, TU_GRID_HUGE, TU_GRID_MIXED};
        for (int k = 0; k < 4; k++) {
            gcut_grid *g;
            assert_int_equal(
                gcut_grid_new(&g, shapes[s].w, shapes[s].h, shapes[s].d, shapes[s].c), GCUT_OK);
            tu_grid_randomise(g, &r, ks[k]);
            snprintf(label, sizeof label, "large %dx%dx%d c%d %s", (int)shapes[s].w,
                     (int)shapes[s].h, (int)shapes[s].d, (int)shapes[s].c,
                     tu_grid_kind_name(ks[k]));
            check_cold(g, label, g_repeat < 5 ? g_repeat : 5);
            gcut_grid_free(g);
        }
    }
}

/* Warm re-solves after random changes equal cold cpu-ref solves. */
static void test_warm(void **unused)
{
    (void)unused;
    static const int32_t conns[] = {4, 8, 6, 18, 26};
    tu_rng r = {31337};
    int warm = 0, solves = 0;
    const int sequences = g_quick >= 2 ? 2 : tu_scaled(g_quick ? 5 : 15);
    for (int seq = 0; seq < sequences; seq++) {
        const int32_t conn = conns[seq % 5];
        const int two_d = conn == 4 || conn == 8;
        const int32_t w = (int32_t)tu_range(&r, 1, two_d ? (g_quick ? 40 : 150) : 14);
        const int32_t h = (int32_t)tu_range(&r, 1, two_d ? (g_quick ? 30 : 90) : 12);
        const int32_t d = two_d ? 1 : (int32_t)tu_range(&r, 1, 10);
        gcut_grid *g;
        assert_int_equal(gcut_grid_new(&g, w, h, d, conn), GCUT_OK);
        tu_grid_randomise(g, &r, seq % 3 == 0 ? TU_GRID_SEEDS
                                 : seq % 3 == 1 ? TU_GRID_MEDIUM
                                                : TU_GRID_SMALL);
        char label[160];
        snprintf(label, sizeof label, "warm %dx%dx%d c%d seq %d cold", (int)w, (int)h, (int)d,
                 (int)conn, seq);
        gcut_result *ref = reference(g);
        assert_int_equal(agrees(g, ref, NULL, label), 0);
        gcut_result_free(ref);
        for (int step = 0; step < 20; step++) {
            const int nch = (int)tu_range(&r, 1, 3);
            for (int c = 0; c < nch; c++)
                tu_grid_change(g, &r, (tu_change_kind)tu_range(&r, 0, TU_CH_COUNT - 1));
            snprintf(label, sizeof label, "warm %dx%dx%d c%d seq %d step %d", (int)w, (int)h,
                     (int)d, (int)conn, seq, step);
            ref = reference(g);
            warm += agrees(g, ref, NULL, label);
            solves++;
            /* The state survives a solve by another back end. */
            if (step % 6 == 5)
                gcut_result_free(solve(g, "cpu-hipr", NULL, GCUT_OK));
            gcut_result_free(ref);
        }
        gcut_grid_free(g);
    }
    /* Cold only when the change log outgrows its limit on tiny grids. */
    if (warm * 10 < solves * 6)
        fail_msg("only %d of %d re-solves were warm", warm, solves);
}

/* Every t-link rewritten (a GrabCut iteration, re-learnt colour models):
 * warm from the kept flow with the changes as dense deltas (dense=1, the
 * default), equal to cold cpu-ref solves; with dense=0 such a re-solve is
 * cold. Rewrites that lower and raise capacities, zero some, push some
 * near INT32_MAX, and some steps also change a few n-links. */
static void test_rewrite(void **unused)
{
    (void)unused;
    static const int32_t conns[] = {4, 8, 6, 26, 18};
    tu_rng r = {4242};
    const int sequences = g_quick >= 2 ? 3 : tu_scaled(g_quick ? 5 : 10);
    int warm = 0, solves = 0;
    for (int seq = 0; seq < sequences; seq++) {
        const int32_t conn = conns[seq % 5];
        const int two_d = conn == 4 || conn == 8;
        const int32_t w = (int32_t)tu_range(&r, 1, two_d ? (g_quick ? 60 : 200) : 16);
        const int32_t h = (int32_t)tu_range(&r, 1, two_d ? (g_quick ? 50 : 150) : 14);
        const int32_t d = two_d ? 1 : (int32_t)tu_range(&r, 1, 12);
        const int32_t n = w * h * d;
        gcut_grid *g;
        assert_int_equal(gcut_grid_new(&g, w, h, d, conn), GCUT_OK);
        tu_grid_randomise(g, &r, seq % 2 ? TU_GRID_SEEDS : TU_GRID_MEDIUM);
        int32_t *src = malloc((size_t)n * sizeof *src), *snk = malloc((size_t)n * sizeof *snk);
        assert_non_null(src);
        assert_non_null(snk);
        char label[160];
        snprintf(label, sizeof label, "rewrite %dx%dx%d c%d seq %d cold", (int)w, (int)h, (int)d,
                 (int)conn, seq);
        gcut_result *ref = reference(g);
        assert_int_equal(agrees(g, ref, NULL, label), 0);
        gcut_result_free(ref);
        for (int step = 0; step < 6; step++) {
            const int style = (int)tu_range(&r, 0, 3);
            for (int32_t v = 0; v < n; v++) {
                const int64_t a = tu_range(&r, 0, 1000), b = tu_range(&r, 0, 1000);
                src[v] = (int32_t)(style == 0 ? a : style == 1 ? a * 7 : a / 3);
                snk[v] = (int32_t)(style == 2 ? b * 5 : b);
                if (tu_range(&r, 0, 9) == 0)
                    src[v] = 0;
                if (tu_range(&r, 0, 9) == 0)
                    snk[v] = 0;
                if (style == 3 && tu_range(&r, 0, 50) == 0)
                    src[v] = INT32_MAX - (int32_t)tu_range(&r, 0, 5);
            }
            assert_int_equal(gcut_grid_set_terminal_caps(g, src, snk), GCUT_OK);
            if (step % 3 == 2)
                tu_grid_change(g, &r, TU_CH_NLINKS);
            snprintf(label, sizeof label, "rewrite %dx%dx%d c%d seq %d step %d", (int)w, (int)h,
                     (int)d, (int)conn, seq, step);
            ref = reference(g);
            warm += agrees(g, ref, NULL, label);
            solves++;
            /* The same problem again, cold, and by the dense=0 rule. */
            assert_int_equal(agrees(g, ref, "warm=0", label), 0);
            gcut_result_free(ref);
        }
        /* dense=0: a whole rewrite of a grid past the sparse limit is cold. */
        for (int32_t v = 0; v < n; v++) {
            src[v] = (int32_t)tu_range(&r, 1, 900);
            snk[v] = (int32_t)tu_range(&r, 1, 900);
        }
        assert_int_equal(gcut_grid_set_terminal_caps(g, src, snk), GCUT_OK);
        ref = reference(g);
        snprintf(label, sizeof label, "rewrite %dx%dx%d c%d seq %d dense=0", (int)w, (int)h,
                 (int)d, (int)conn, seq);
        const int was_warm = agrees(g, ref, "dense=0", label);
        if (n > 2 * 1024 && was_warm)
            fail_msg("%s: warm although dense=0", label);
        gcut_result_free(ref);
        free(src);
        free(snk);
        gcut_grid_free(g);
    }
    /* A rewrite stays warm unless the log's n-links outgrow their limit
     * (TU_CH_NLINKS on a tiny grid) or the grid is tiny. */
    if (warm * 10 < solves * 6)
        fail_msg("only %d of %d rewrites were warm", warm, solves);
}

/* A stroke on a larger segmentation-like grid, many times over. */
static void test_strokes(void **unused)
{
    (void)unused;
    if (g_quick)
        skip();
    tu_rng r = {8080};
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 400, 300, 1, 8), GCUT_OK);
    tu_grid_randomise(g, &r, TU_GRID_SEEDS);
    gcut_result *ref = reference(g);
    agrees(g, ref, NULL, "strokes: cold");
    gcut_result_free(ref);
    int warm = 0;
    for (int i = 0; i < 12; i++) {
        tu_grid_change(g, &r, TU_CH_STROKE);
        tu_grid_change(g, &r, i % 2 ? TU_CH_NLINKS : TU_CH_RANGE);
        ref = reference(g);
        char label[64];
        snprintf(label, sizeof label, "strokes: step %d", i);
        for (int k = 0; k < (g_repeat < 3 ? g_repeat : 3); k++)
            warm += agrees(g, ref, k == 0 ? NULL : "warm=0", label);
        gcut_result_free(ref);
    }
    assert_true(warm == 12);
    gcut_grid_free(g);
}

static void test_settings(void **unused)
{
    (void)unused;
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 5, 4, 1, 4), GCUT_OK);
    tu_rng r = {5};
    tu_grid_randomise(g, &r, TU_GRID_MEDIUM);
    static const char *bad[] = {"sweeps=0", "sweeps=x", "launches=0", "warm=2", "bogus=1",
                                "sweeps",   "coop=3",    "reuse=2",    "launches=auto,,sweeps=4"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gcut_result_free(solve(g, "cuda-grid", bad[i], GCUT_ERR_INVALID));
        assert_non_null(strstr(gcut_last_error(), "cuda-grid"));
    }
    /* The core's parser (the host services): the same rules as the CPU back
     * ends': an empty item is malformed, a trailing comma ends the list. */
    gcut_result_free(solve(g, "cuda-grid", "launches=auto,,sweeps=4", GCUT_ERR_INVALID));
    assert_non_null(strstr(gcut_last_error(), "malformed parameter"));
    gcut_result_free(solve(g, "cuda-grid", "launches=auto,sweeps=4,reuse=0,", GCUT_OK));
    /* Per-edge flows are not offered for grids. */
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cuda-grid";
    opt.want_flows = 1;
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_UNSUPPORTED);
    gcut_result_free(res);
    /* A general graph is not cuda-grid's business. */
    gcut_graph *gr;
    assert_int_equal(gcut_grid_to_graph(g, &gr), GCUT_OK);
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    assert_int_not_equal(gcut_solve(gr, &opt, res), GCUT_OK);
    gcut_result_free(res);
    gcut_graph_free(gr);
    gcut_grid_free(g);
}

int main(void)
{
    if (!tu_backend_available("cuda-grid")) {
        int32_t i;
        const char *why = "not registered";
        if (gcut_backend_find("cuda-grid", &i) == GCUT_OK)
            gcut_backend_available(i, &why);
        printf("cuda-grid unavailable (%s): skipped\n", why);
        return 77;
    }
    const char *rep = getenv("GCUT_GPU_REPEAT");
    if (rep && atoi(rep) > 0)
        g_repeat = atoi(rep);
    const char *quick = getenv("GCUT_GPU_QUICK");
    g_quick = quick && atoi(quick) > 0 ? atoi(quick) : 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_settings), cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_warm),     cmocka_unit_test(test_rewrite),
        cmocka_unit_test(test_strokes),
        cmocka_unit_test(test_larger),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
