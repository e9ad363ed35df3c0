/*
 * test_gpu_span.c - one grid spread over GPUs by cuda-grid ("devices=" in
 * opt.params, cuda/grid/grid_span.cu) against cpu-ref: the same flow and
 * the same canonical cut bytes, on random grids of every connectivity and
 * capacity pattern, cuts across the slabs, and vision-like grids.
 *
 * Every case is solved with these device lists: "0" (one part), "0:0" and
 * "0:0:0" (two and three parts on one GPU: the whole machinery of a spread
 * solve, the mapping of the range, the barriers and the per-part threads,
 * on a machine with one GPU), "0:0:0" with coop=0 (the relabel launch by
 * launch), and, where the machine has them, "0:1" (also with coop=0) and
 * every device; each solve repeated GCUT_GPU_REPEAT times (an answer that
 * changes is a race). Then the settings' errors, a warm cuda-grid re-solve
 * after a spread one, and a timing line (GCUT_GPU_SPAN_SIZE).
 *
 * Environment:
 *   GCUT_GPU_REPEAT     solves of each case and list (default 1)
 *   GCUT_GPU_QUICK      1: a few small cases, no timing (compute-sanitizer);
 *                       2: fewer still (racecheck)
 *   GCUT_GPU_SPAN_SIZE  side of the 6-connected timing volume (default 256;
 *                       0: none): cuda-grid on one GPU, then spread over
 *                       1, 2, ... every GPU
 *
 * Exits 77 (skip) when cuda-grid is unavailable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testutil.h"

static int g_repeat = 1;
static int g_quick;
static int g_ndev = 1;
static int64_t g_solves;
static char g_lists[8][96];
static int g_nlists;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static gcut_result *solve_with(gcut_grid *g, const char *backend, const char *params,
                               const char *label)
{
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = backend;
    opt.params = params;
    if (gcut_grid_solve(g, &opt, res) != GCUT_OK)
        fail_msg("%s: %s %s: %s", label, backend, params ? params : "", gcut_last_error());
    return res;
}

/* The same flow and cut as cpu-ref, or a message naming the first node
 * whose side differs. */
static void compare(const gcut_grid *g, const gcut_result *res, const gcut_result *want,
                    const char *label, const char *params, int rep)
{
    const int32_t n = gcut_grid_num_nodes(g), w = gcut_grid_width(g), h = gcut_grid_height(g);
    if (gcut_result_flow(res) != gcut_result_flow(want))
        fail_msg("%s: %s (solve %d): flow %lld, cpu-ref %lld", label, params, rep,
                 (long long)gcut_result_flow(res), (long long)gcut_result_flow(want));
    const uint8_t *a = gcut_result_cut(res), *b = gcut_result_cut(want);
    for (int32_t v = 0; v < n; v++)
        if (a[v] != b[v])
            fail_msg("%s: %s (solve %d): node %d (x %d, y %d, z %d) on side %d, cpu-ref %d",
                     label, params, rep, (int)v, (int)(v % w), (int)(v / w % h),
                     (int)(v / w / h), a[v], b[v]);
}

static void check_all(gcut_grid *g, const char *label)
{
    gcut_result *ref = solve_with(g, "cpu-ref", NULL, label);
    for (int l = 0; l < g_nlists; l++)
        for (int rep = 0; rep < g_repeat; rep++) {
            gcut_result *res = solve_with(g, "cuda-grid", g_lists[l], label);
            compare(g, res, ref, label, g_lists[l], rep);
            gcut_result_free(res);
            g_solves++;
        }
    gcut_result_free(ref);
}

static void test_random(void **unused)
{
    (void)unused;
    static const struct {
        int32_t w, h, d, c;
    } shapes[] = {
        {1, 1, 1, 4},   {1, 1, 1, 26},   {1, 37, 1, 4},   {29, 1, 1, 8},  {1, 1, 23, 6},
        {13, 11, 1, 4}, {17, 40, 1, 8},  {7, 5, 26, 6},   {5, 6, 17, 18}, {6, 5, 25, 26},
        {31, 53, 1, 4}, {9, 7, 33, 18},  {1, 9, 40, 26},  {4, 4, 3, 6},   {40, 70, 1, 8},
        {12, 10, 41, 6},
    };
    static const size_t quick_set[] = {6, 7, 9, 14};
    tu_rng r = {4242};
    char label[128];
    const size_t nshapes = g_quick >= 2 ? 2
                           : g_quick    ? sizeof quick_set / sizeof quick_set[0]
                                        : sizeof shapes / sizeof shapes[0];
    for (size_t s = 0; s < nshapes; s++) {
        const size_t at = g_quick ? quick_set[s] : s;
        for (int k = 0; k < TU_GRID_COUNT; k += g_quick >= 2 ? TU_GRID_COUNT : g_quick ? 3 : 1) {
            gcut_grid *g;
            assert_int_equal(
                gcut_grid_new(&g, shapes[at].w, shapes[at].h, shapes[at].d, shapes[at].c), GCUT_OK);
            tu_grid_randomise(g, &r, (tu_grid_kind)k);
            snprintf(label, sizeof label, "random %dx%dx%d c%d %s", (int)shapes[at].w,
                     (int)shapes[at].h, (int)shapes[at].d, (int)shapes[at].c,
                     tu_grid_kind_name((tu_grid_kind)k));
            check_all(g, label);
            gcut_grid_free(g);
        }
    }
}

/* Cuts along and across the slabs, flow that crosses every slab. */
static void test_crossing(void **unused)
{
    (void)unused;
    static const struct {
        int32_t w, h, d, c;
    } shapes[] = {{12, 64, 1, 4}, {10, 49, 1, 8}, {6, 5, 40, 6}, {5, 4, 33, 18}, {4, 5, 30, 26}};
    tu_rng r = {77};
    char label[128];
    const size_t nshapes = g_quick >= 2 ? 0 : g_quick ? 1 : sizeof shapes / sizeof shapes[0];
    for (size_t s = 0; s < nshapes; s++)
        for (int across = 0; across < 2; across++)
            for (int huge = 0; huge < 2; huge++) {
                gcut_grid *g;
                assert_int_equal(
                    gcut_grid_new(&g, shapes[s].w, shapes[s].h, shapes[s].d, shapes[s].c), GCUT_OK);
                tu_grid_set_crossing(g, &r, across, huge);
                snprintf(label, sizeof label, "crossing %dx%dx%d c%d %s%s", (int)shapes[s].w,
                         (int)shapes[s].h, (int)shapes[s].d, (int)shapes[s].c,
                         across ? "across" : "along", huge ? " huge" : "");
                check_all(g, label);
                gcut_grid_free(g);
            }
}

static void test_vision(void **unused)
{
    (void)unused;
    static const struct {
        int32_t w, h, d, c;
    } shapes[] = {{64, 96, 1, 4},   {96, 80, 1, 8},  {24, 20, 40, 6}, {16, 14, 36, 18},
                  {12, 12, 30, 26}, {300, 200, 1, 4}, {48, 40, 64, 6}};
    char label[128];
    const size_t nshapes = g_quick >= 2 ? 0 : g_quick ? 1 : sizeof shapes / sizeof shapes[0];
    for (size_t s = 0; s < nshapes; s++) {
        gcut_grid *g;
        assert_int_equal(gcut_grid_new(&g, shapes[s].w, shapes[s].h, shapes[s].d, shapes[s].c),
                         GCUT_OK);
        tu_grid_fill_vision(g, 500 + s);
        snprintf(label, sizeof label, "vision %dx%dx%d c%d", (int)shapes[s].w, (int)shapes[s].h,
                 (int)shapes[s].d, (int)shapes[s].c);
        check_all(g, label);
        gcut_grid_free(g);
    }
}

/* Bad lists are refused with a message naming them, the result keeps its
 * last answer; a device-memory grid is refused too. */
static void test_bad_settings(void **unused)
{
    (void)unused;
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 20, 18, 12, 6), GCUT_OK);
    tu_grid_fill_vision(g, 9);
    gcut_result *ref = solve_with(g, "cpu-ref", NULL, "bad settings");
    gcut_result *res = solve_with(g, "cuda-grid", "devices=0", "bad settings");
    compare(g, res, ref, "bad settings", "devices=0", 0);
    char many[96];
    snprintf(many, sizeof many, "devices=%d", g_ndev);
    static const struct {
        const char *params, *says;
    } bad[] = {
        {"devices=", "devices="},           {"devices=0:x", "device numbers"},
        {"devices=-1", "device numbers"},   {"devices=0::1", "device numbers"},
        {"devices=0:1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16", "more than"},
        {NULL, "does not exist"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *params = bad[i].params ? bad[i].params : many;
        gcut_solve_options opt;
        gcut_solve_options_init(&opt);
        opt.backend = "cuda-grid";
        opt.params = params;
        assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_INVALID);
        if (!strstr(gcut_last_error(), bad[i].says))
            fail_msg("%s: message \"%s\" does not say \"%s\"", params, gcut_last_error(),
                     bad[i].says);
        compare(g, res, ref, "bad settings (result kept)", params, 0);
    }
    gcut_result_free(res);
    gcut_result_free(ref);
    gcut_grid_free(g);
}

/* A spread solve between two warm one-GPU solves: the kept arrays no
 * longer match the grid's change log, so the next solve must not reuse
 * them blindly (it starts cold), and every answer is cpu-ref's. */
static void test_warm_after_span(void **unused)
{
    (void)unused;
    gcut_grid *g, *twin; /* twin: the same grid, solved by cpu-ref */
    assert_int_equal(gcut_grid_new(&g, 40, 32, 1, 4), GCUT_OK);
    assert_int_equal(gcut_grid_new(&twin, 40, 32, 1, 4), GCUT_OK);
    tu_grid_fill_vision(g, 31);
    tu_grid_fill_vision(twin, 31);
    assert_int_equal(gcut_grid_set_warm_start(g, 1), GCUT_OK);
    tu_rng r = {5};
    const char *seq[] = {NULL, "devices=0:0", NULL, NULL, "devices=0", NULL};
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        /* A few changed t-links before each solve. */
        for (int k = 0; k < 20; k++) {
            const int32_t v = (int32_t)tu_range(&r, 0, 40 * 32 - 1);
            const int32_t cs = (int32_t)tu_range(&r, 0, 300), ct = (int32_t)tu_range(&r, 0, 300);
            assert_int_equal(gcut_grid_set_terminal_cap(g, v, cs, ct), GCUT_OK);
            assert_int_equal(gcut_grid_set_terminal_cap(twin, v, cs, ct), GCUT_OK);
        }
        gcut_result *res = solve_with(g, "cuda-grid", seq[i], "warm after span");
        gcut_result *ref = solve_with(twin, "cpu-ref", NULL, "warm after span");
        compare(g, res, ref, "warm after span", seq[i] ? seq[i] : "(one GPU, warm)", (int)i);
        gcut_result_free(res);
        gcut_result_free(ref);
    }
    gcut_grid_free(g);
    gcut_grid_free(twin);
}

/* cuda-grid on one GPU, then spread over 1, 2, ... every GPU, on a
 * 6-connected vision-like volume: each checked against the first. */
static void test_timing(void **unused)
{
    (void)unused;
    const char *sz = getenv("GCUT_GPU_SPAN_SIZE");
    const int side = sz ? atoi(sz) : 256;
    if (g_quick || side <= 0)
        return;
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, side, side, side, 6), GCUT_OK);
    tu_grid_fill_vision(g, 2026);
    double t0 = now_ms();
    gcut_result *one = solve_with(g, "cuda-grid", "warm=0", "timing");
    printf("span timing %d^3 c6: cuda-grid one GPU %.1f ms (solve %.1f)\n", side, now_ms() - t0,
           gcut_result_stats(one)->solve_ms);
    for (int k = 1; k <= g_ndev; k++) {
        char params[96];
        int at = snprintf(params, sizeof params, "devices=");
        for (int i = 0; i < k; i++)
            at += snprintf(params + at, sizeof params - (size_t)at, "%s%d", i ? ":" : "", i);
        t0 = now_ms();
        gcut_result *res = solve_with(g, "cuda-grid", params, "timing");
        const double ms = now_ms() - t0;
        compare(g, res, one, "timing", params, 0);
        printf("span timing %d^3 c6: %d GPU%s %.1f ms (solve %.1f, %lld push launches, %lld "
               "relabels)\n",
               side, k, k == 1 ? "" : "s", ms, gcut_result_stats(res)->solve_ms,
               (long long)gcut_result_stats(res)->rounds,
               (long long)gcut_result_stats(res)->global_relabels);
        gcut_result_free(res);
    }
    gcut_result_free(one);
    gcut_grid_free(g);
}

static void test_summary(void **unused)
{
    (void)unused;
    printf("gpu-span: %lld spread solves, %d each; lists:", (long long)g_solves, g_repeat);
    for (int l = 0; l < g_nlists; l++)
        printf(" %s", g_lists[l]);
    printf("; all equal to cpu-ref\n");
}

/* The GPUs of the machine, found through the settings' own check: the
 * first k for which "devices=k" names a device that does not exist. */
static int count_devices(void)
{
    gcut_grid *g;
    gcut_result *res;
    assert_int_equal(gcut_grid_new(&g, 4, 4, 1, 4), GCUT_OK);
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    int k = 1;
    for (; k < 16; k++) {
        char params[32];
        snprintf(params, sizeof params, "devices=%d", k);
        gcut_solve_options opt;
        gcut_solve_options_init(&opt);
        opt.backend = "cuda-grid";
        opt.params = params;
        if (gcut_grid_solve(g, &opt, res) != GCUT_OK) {
            if (!strstr(gcut_last_error(), "does not exist"))
                fail_msg("devices=%d: %s", k, gcut_last_error());
            break;
        }
    }
    gcut_result_free(res);
    gcut_grid_free(g);
    return k;
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
    g_ndev = count_devices();
    snprintf(g_lists[g_nlists++], sizeof g_lists[0], "devices=0");
    snprintf(g_lists[g_nlists++], sizeof g_lists[0], "devices=0:0");
    snprintf(g_lists[g_nlists++], sizeof g_lists[0], "devices=0:0:0");
    /* coop=0: the relabel launch by launch with a barrier between steps
     * instead of rounds of cooperative launches. */
    snprintf(g_lists[g_nlists++], sizeof g_lists[0], "devices=0:0:0,coop=0");
    if (g_ndev >= 2) {
        snprintf(g_lists[g_nlists++], sizeof g_lists[0], "devices=0:1");
        snprintf(g_lists[g_nlists++], sizeof g_lists[0], "devices=0:1,coop=0");
    }
    if (g_ndev >= 3) {
        int at = snprintf(g_lists[g_nlists], sizeof g_lists[0], "devices=");
        for (int i = 0; i < g_ndev && i < 16; i++)
            at += snprintf(g_lists[g_nlists] + at, sizeof g_lists[0] - (size_t)at, "%s%d",
                           i ? ":" : "", i);
        g_nlists++;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),       cmocka_unit_test(test_crossing),
        cmocka_unit_test(test_vision),       cmocka_unit_test(test_bad_settings),
        cmocka_unit_test(test_warm_after_span), cmocka_unit_test(test_timing),
        cmocka_unit_test(test_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
