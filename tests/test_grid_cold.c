/*
 * test_grid_cold.c - the cold starts of cpu-bk on grids (bk_grid.c): IBFS
 * (the default, with and without excesses) and plain BK, through the
 * `cold` setting. Each must give cpu-ref's flow and canonical cut, bit for bit,
 * on random grids of every connectivity and kind, and on GrabCut-like
 * grids (weak, noisy data terms under strong contrast-sensitive n-links:
 * the long trees and orphan cascades the IBFS start is there for); warm
 * re-solves after an IBFS start must agree with cpu-ref too.
 *
 * The reference graph is built here arc by arc from the documented
 * direction table, as in test_grid.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static const char *const modes[] = {"cold=ibfs", "cold=ibfs,excess=0", "cold=plain", NULL};

static int inside(const gcut_grid *g, int32_t v, int32_t dir, int32_t *u)
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

typedef struct reference {
    gcut_graph *graph;
    gcut_result *res;
} reference;

static reference solve_reference(const gcut_grid *g)
{
    const int32_t n = gcut_grid_num_nodes(g), c = gcut_grid_connectivity(g);
    reference r = {NULL, NULL};
    assert_int_equal(gcut_graph_new(&r.graph, n, (int64_t)n * c), GCUT_OK);
    for (int32_t v = 0; v < n; v++) {
        int32_t s, t, u;
        assert_int_equal(gcut_grid_get_terminal_cap(g, v, &s, &t), GCUT_OK);
        assert_int_equal(gcut_graph_add_tweights(r.graph, v, s, t), GCUT_OK);
        for (int32_t d = 0; d < c; d++) {
            if (!inside(g, v, d, &u))
                continue;
            int32_t cap;
            assert_int_equal(gcut_grid_get_cap(g, v, d, &cap), GCUT_OK);
            assert_int_equal(gcut_graph_add_edge(r.graph, v, u, cap, 0), GCUT_OK);
        }
    }
    assert_int_equal(gcut_result_new(&r.res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-ref";
    assert_int_equal(gcut_solve(r.graph, &opt, r.res), GCUT_OK);
    return r;
}

static void free_reference(reference *r)
{
    gcut_result_free(r->res);
    gcut_graph_free(r->graph);
}

/* cpu-bk with `params` on g: cpu-ref's flow and cut bytes, a cut whose
 * capacity is the flow. Returns whether the solve was warm. */
static int check(gcut_grid *g, const reference *ref, const char *params, const char *label)
{
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-bk";
    opt.params = params;
    if (gcut_grid_solve(g, &opt, res) != GCUT_OK)
        fail_msg("%s (%s): %s", label, params, gcut_last_error());
    const int32_t n = gcut_grid_num_nodes(g);
    if (gcut_result_flow(res) != gcut_result_flow(ref->res))
        fail_msg("%s (%s): flow %lld, cpu-ref %lld", label, params,
                 (long long)gcut_result_flow(res), (long long)gcut_result_flow(ref->res));
    const uint8_t *a = gcut_result_cut(res), *b = gcut_result_cut(ref->res);
    if (memcmp(a, b, (size_t)n) != 0) {
        int32_t v = 0;
        while (a[v] == b[v])
            v++;
        fail_msg("%s (%s): cut differs at node %d (%d vs cpu-ref %d)", label, params, (int)v,
                 a[v], b[v]);
    }
    assert_int_equal(gcut_check_flow(ref->graph, gcut_result_flow(res), NULL, a), GCUT_OK);
    const int warm = gcut_result_stats(res)->warm_start;
    gcut_result_free(res);
    return warm;
}

/* Each mode on a fresh copy of g's capacities, so that every solve is
 * cold (a solve on the same grid would be warm). */
static void check_modes(const gcut_grid *g, const char *label)
{
    reference ref = solve_reference(g);
    for (int m = 0; modes[m]; m++) {
        gcut_grid *c;
        assert_int_equal(gcut_grid_new(&c, gcut_grid_width(g), gcut_grid_height(g),
                                       gcut_grid_depth(g), gcut_grid_connectivity(g)),
                         GCUT_OK);
        for (int32_t what = 0; what < gcut_grid_connectivity(g); what++)
            assert_int_equal(gcut_grid_set_caps(c, what, gcut_grid_caps(g, what)), GCUT_OK);
        assert_int_equal(gcut_grid_set_terminal_caps(c, gcut_grid_caps(g, GCUT_GRID_SOURCE_LINK),
                                                 gcut_grid_caps(g, GCUT_GRID_SINK_LINK)),
                         GCUT_OK);
        assert_int_equal(check(c, &ref, modes[m], label), 0);
        gcut_grid_free(c);
    }
    free_reference(&ref);
}

/* A GrabCut-like grid: a piecewise-constant "image" (an ellipse on a
 * background, a few stripes) with noise; n-links lambda exp(-beta d^2)
 * at a quantisation scale that makes them large (up to about 2^20) in
 * flat areas and small across edges; t-links the quantised difference
 * of two weak, noisy data costs, so that many pixels lean the wrong way
 * and flow has to travel far. */
static void grabcut_like(gcut_grid *g, tu_rng *r)
{
    const int32_t w = gcut_grid_width(g), h = gcut_grid_height(g), c = gcut_grid_connectivity(g);
    const int32_t n = w * h;
    float *img = malloc((size_t)n * sizeof *img);
    int32_t *cap = malloc((size_t)n * sizeof *cap), *src = malloc((size_t)n * sizeof *src),
            *snk = malloc((size_t)n * sizeof *snk);
    assert_non_null(img);
    assert_non_null(cap);
    assert_non_null(src);
    assert_non_null(snk);
    const double cx = w * (0.3 + 0.4 * (double)tu_range(r, 0, 100) / 100.0);
    const double cy = h * (0.3 + 0.4 * (double)tu_range(r, 0, 100) / 100.0);
    const double rx = w * 0.25, ry = h * 0.3;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            const double ex = (x - cx) / rx, ey = (y - cy) / ry;
            const int fg = ex * ex + ey * ey < 1.0;
            const float base = fg ? 150.0f : ((x / 9 + y / 13) % 3 == 0 ? 90.0f : 60.0f);
            img[y * w + x] = base + (float)tu_range(r, -6, 6);
            /* Data costs: fg pixels prefer the source slightly, with noise
             * that flips about a third of them, and the same for bg. */
            const double lean = (fg ? 1.0 : -1.0) * 0.6 + (double)tu_range(r, -100, 100) / 100.0;
            const int32_t q = (int32_t)lrint(lean * 4000.0);
            src[y * w + x] = q > 0 ? q : 0;
            snk[y * w + x] = q < 0 ? -q : 0;
        }
    const double scale = 4.0e4, lambda = 50.0, beta = 1.0 / (2.0 * 200.0);
    for (int32_t d = 0; d < c; d++) {
        int32_t dx, dy, dz;
        assert_int_equal(gcut_grid_direction(c, d, &dx, &dy, &dz), GCUT_OK);
        const double dist = dx && dy ? sqrt(2.0) : 1.0;
        for (int32_t v = 0; v < n; v++) {
            int32_t u;
            if (!inside(g, v, d, &u)) {
                cap[v] = 0;
                continue;
            }
            const double diff = img[v] - img[u];
            cap[v] = (int32_t)lrint(scale * lambda * exp(-beta * diff * diff) / dist);
        }
        assert_int_equal(gcut_grid_set_caps(g, d, cap), GCUT_OK);
    }
    assert_int_equal(gcut_grid_set_terminal_caps(g, src, snk), GCUT_OK);
    free(img);
    free(cap);
    free(src);
    free(snk);
}

static void test_random(void **unused)
{
    (void)unused;
    static const int32_t conns[] = {4, 8, 6, 18, 26};
    static const int32_t shapes2d[][2] = {{1, 1}, {1, 9}, {11, 1}, {7, 5}, {2, 2}, {24, 17}, {61, 47}};
    static const int32_t shapes3d[][3] = {{1, 1, 1}, {5, 1, 3}, {3, 4, 5}, {9, 7, 3}, {13, 11, 9}};
    tu_rng r = {2011};
    int cases = 0;
    const int rounds = tu_scaled(2);
    for (int round = 0; round < rounds; round++)
        for (size_t ci = 0; ci < sizeof conns / sizeof conns[0]; ci++) {
            const int32_t conn = conns[ci];
            const int two_d = conn == 4 || conn == 8;
            const size_t ns = two_d ? sizeof shapes2d / sizeof shapes2d[0]
                                    : sizeof shapes3d / sizeof shapes3d[0];
            for (size_t si = 0; si < ns; si++)
                for (int k = 0; k < TU_GRID_COUNT; k++) {
                    const int32_t w = two_d ? shapes2d[si][0] : shapes3d[si][0];
                    const int32_t h = two_d ? shapes2d[si][1] : shapes3d[si][1];
                    const int32_t d = two_d ? 1 : shapes3d[si][2];
                    gcut_grid *g;
                    assert_int_equal(gcut_grid_new(&g, w, h, d, conn), GCUT_OK);
                    tu_grid_randomise(g, &r, (tu_grid_kind)k);
                    char label[128];
                    snprintf(label, sizeof label, "%dx%dx%d conn %d %s round %d", (int)w, (int)h,
                             (int)d, (int)conn, tu_grid_kind_name((tu_grid_kind)k), round);
                    check_modes(g, label);
                    gcut_grid_free(g);
                    cases++;
                }
        }
    assert_true(cases > 100);
}

static void test_grabcut_like(void **unused)
{
    (void)unused;
    static const int32_t shapes[][2] = {{40, 30}, {97, 61}, {64, 128}, {150, 110}};
    tu_rng r = {2004};
    const int rounds = tu_scaled(2);
    for (int round = 0; round < rounds; round++)
        for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
            for (int32_t conn = 4; conn <= 8; conn += 4) {
                gcut_grid *g;
                assert_int_equal(gcut_grid_new(&g, shapes[si][0], shapes[si][1], 1, conn),
                                 GCUT_OK);
                grabcut_like(g, &r);
                char label[128];
                snprintf(label, sizeof label, "grabcut-like %dx%d conn %d round %d",
                         (int)shapes[si][0], (int)shapes[si][1], (int)conn, round);
                check_modes(g, label);
                gcut_grid_free(g);
            }
}

/* An IBFS cold start, then warm re-solves: all t-links rewritten (a
 * GrabCut iteration), and small random changes of every kind; with each
 * warm mode (BK on the kept trees, IBFS on the kept flow, the choice). */
static const char *const warm_modes[] = {"cold=ibfs",         "warm=bk",
                                         "warm=ibfs",         "warm=auto",
                                         "cold=ibfs,excess=0", "warm=ibfs,excess=0"};

static void test_warm_after_ibfs(void **unused)
{
    (void)unused;
    tu_rng r = {1124};
    int warm = 0, solves = 0;
    const int sequences = tu_scaled(18);
    for (int seq = 0; seq < sequences; seq++) {
        const char *mode = warm_modes[seq % 6];
        const int32_t conn = seq / 4 % 2 ? 8 : 4;
        gcut_grid *g;
        const int32_t w = (int32_t)tu_range(&r, 20, 90), h = (int32_t)tu_range(&r, 20, 70);
        assert_int_equal(gcut_grid_new(&g, w, h, 1, conn), GCUT_OK);
        grabcut_like(g, &r);
        char label[128];
        snprintf(label, sizeof label, "warm %dx%d conn %d seq %d, cold", (int)w, (int)h,
                 (int)conn, seq);
        reference ref = solve_reference(g);
        assert_int_equal(check(g, &ref, mode, label), 0);
        free_reference(&ref);
        for (int step = 0; step < 8; step++) {
            if (step % 2 == 0) {
                /* New data costs everywhere, same n-links. */
                const int32_t n = w * h;
                int32_t *src = malloc((size_t)n * sizeof *src), *snk = malloc((size_t)n * sizeof *snk);
                assert_non_null(src);
                assert_non_null(snk);
                for (int32_t v = 0; v < n; v++) {
                    int32_t s, t;
                    assert_int_equal(gcut_grid_get_terminal_cap(g, v, &s, &t), GCUT_OK);
                    const int32_t q = s - t + (int32_t)tu_range(&r, -1500, 1500);
                    src[v] = q > 0 ? q : 0;
                    snk[v] = q < 0 ? -q : 0;
                }
                assert_int_equal(gcut_grid_set_terminal_caps(g, src, snk), GCUT_OK);
                free(src);
                free(snk);
            } else {
                for (int c = 0; c < 3; c++) {
                    int k = (int)tu_range(&r, 0, TU_CH_COUNT - 1);
                    if (k == TU_CH_HUGE)
                        k = TU_CH_TLINKS;
                    tu_grid_change(g, &r, (tu_change_kind)k);
                }
            }
            snprintf(label, sizeof label, "warm %dx%d conn %d seq %d step %d", (int)w, (int)h,
                     (int)conn, seq, step);
            ref = solve_reference(g);
            warm += check(g, &ref, mode, label);
            solves++;
            free_reference(&ref);
        }
        gcut_grid_free(g);
    }
    assert_true(warm * 10 >= solves * 7);
}

/* Warm solves through IBFS on random grids of every connectivity: a cold
 * solve, then rounds of random changes of every kind (t-links, n-links
 * up and down below the flow, huge values), each re-solve warm with
 * warm=ibfs (always IBFS, with and without excesses) or warm=auto; flow
 * and cut bytes as cpu-ref. */
static void test_warm_ibfs_random(void **unused)
{
    (void)unused;
    static const int32_t conns[] = {4, 8, 6, 18, 26};
    static const int32_t shapes2d[][2] = {{1, 1}, {1, 9}, {7, 5}, {24, 17}, {61, 47}};
    static const int32_t shapes3d[][3] = {{1, 1, 1}, {3, 4, 5}, {9, 7, 3}, {13, 11, 9}};
    tu_rng r = {2015};
    int warm = 0, solves = 0;
    static const char *const ibfs_modes[] = {"warm=ibfs", "warm=auto", "warm=ibfs,excess=0"};
    for (int mi = 0; mi < 3; mi++)
        for (size_t ci = 0; ci < sizeof conns / sizeof conns[0]; ci++) {
            const int32_t conn = conns[ci];
            const int two_d = conn == 4 || conn == 8;
            const size_t ns = two_d ? sizeof shapes2d / sizeof shapes2d[0]
                                    : sizeof shapes3d / sizeof shapes3d[0];
            for (size_t si = 0; si < ns; si++)
                for (int k = 0; k < TU_GRID_COUNT; k++) {
                    const char *mode = ibfs_modes[mi];
                    const int32_t w = two_d ? shapes2d[si][0] : shapes3d[si][0];
                    const int32_t h = two_d ? shapes2d[si][1] : shapes3d[si][1];
                    const int32_t d = two_d ? 1 : shapes3d[si][2];
                    gcut_grid *g;
                    assert_int_equal(gcut_grid_new(&g, w, h, d, conn), GCUT_OK);
                    tu_grid_randomise(g, &r, (tu_grid_kind)k);
                    char label[160];
                    snprintf(label, sizeof label, "%dx%dx%d conn %d %s, cold", (int)w, (int)h,
                             (int)d, (int)conn, tu_grid_kind_name((tu_grid_kind)k));
                    reference ref = solve_reference(g);
                    assert_int_equal(check(g, &ref, mode, label), 0);
                    free_reference(&ref);
                    for (int step = 0; step < 4; step++) {
                        const int changes = (int)tu_range(&r, 1, 4);
                        for (int c = 0; c < changes; c++)
                            tu_grid_change(g, &r, (tu_change_kind)tu_range(&r, 0, TU_CH_COUNT - 1));
                        snprintf(label, sizeof label, "%dx%dx%d conn %d %s, step %d", (int)w,
                                 (int)h, (int)d, (int)conn, tu_grid_kind_name((tu_grid_kind)k),
                                 step);
                        ref = solve_reference(g);
                        warm += check(g, &ref, mode, label);
                        solves++;
                        free_reference(&ref);
                    }
                    gcut_grid_free(g);
                }
        }
    /* Most re-solves stay warm (a change that overflows tr goes cold). */
    assert_true(warm * 10 >= solves * 7);
}

static void test_params(void **unused)
{
    (void)unused;
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 4, 3, 1, 8), GCUT_OK);
    tu_rng r = {5};
    tu_grid_randomise(g, &r, TU_GRID_MEDIUM);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-bk";
    opt.params = "cold=fast";
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "cold=fast (want ibfs or plain)"));
    opt.params = "cold=scale"; /* capacity scaling, removed in 0.2 */
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_INVALID);
    opt.params = "colder=ibfs";
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "known: ts_limit, cold"));
    opt.params = "warm=later";
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "warm=later (want auto, bk or ibfs)"));
    opt.params = "cold=plain,ts_limit=4";
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_OK);
    gcut_result_free(res);
    gcut_grid_free(g);
}

/* A time limit stops the IBFS phase too; the next solve is cold and right. */
static void test_time_limit(void **unused)
{
    (void)unused;
    tu_rng r = {77};
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 300, 220, 1, 8), GCUT_OK);
    grabcut_like(g, &r);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-bk";
    opt.time_limit = 1e-9;
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_TIMEOUT);
    assert_non_null(strstr(gcut_last_error(), "time limit"));
    gcut_result_free(res);
    reference ref = solve_reference(g);
    assert_int_equal(check(g, &ref, NULL, "after timeout"), 0);
    free_reference(&ref);
    gcut_grid_free(g);
}

/* A time limit stops a warm IBFS solve; the next solve is right. */
static void test_warm_ibfs_time_limit(void **unused)
{
    (void)unused;
    tu_rng r = {78};
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 300, 220, 1, 8), GCUT_OK);
    grabcut_like(g, &r);
    reference ref = solve_reference(g);
    assert_int_equal(check(g, &ref, NULL, "first"), 0);
    free_reference(&ref);
    /* New data costs everywhere (the cut moves far). */
    const int32_t n = 300 * 220;
    int32_t *src = malloc((size_t)n * sizeof *src), *snk = malloc((size_t)n * sizeof *snk);
    assert_non_null(src);
    assert_non_null(snk);
    for (int32_t v = 0; v < n; v++) {
        const int32_t q = (int32_t)tu_range(&r, -3000, 3000);
        src[v] = q > 0 ? q : 0;
        snk[v] = q < 0 ? -q : 0;
    }
    assert_int_equal(gcut_grid_set_terminal_caps(g, src, snk), GCUT_OK);
    free(src);
    free(snk);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-bk";
    opt.params = "warm=ibfs";
    opt.time_limit = 1e-9;
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_TIMEOUT);
    gcut_result_free(res);
    ref = solve_reference(g);
    check(g, &ref, "warm=ibfs", "after timeout");
    free_reference(&ref);
    gcut_grid_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_grabcut_like),
        cmocka_unit_test(test_warm_after_ibfs),
        cmocka_unit_test(test_warm_ibfs_random),
        cmocka_unit_test(test_warm_ibfs_time_limit),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_time_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
