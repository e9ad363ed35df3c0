/*
 * test_grid_pr.c - cpu-grid-pr (synchronous parallel push-relabel on
 * grids) against cpu-ref through gcut_grid_solve: every connectivity, odd
 * shapes, huge and zero capacities, all-source / all-sink terminals, 1 to
 * 4 threads with the pool forced on (par_min) and at its default: the
 * same answer for every thread count; want_flows, the time limit, bad
 * settings, and auto still choosing cpu-bk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static gcut_result *solve(gcut_grid *g, const char *backend, int32_t threads, const char *params)
{
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = backend;
    opt.threads = threads;
    opt.params = params;
    if (gcut_grid_solve(g, &opt, res) != GCUT_OK)
        fail_msg("%s (%d threads): %s", backend, (int)threads, gcut_last_error());
    return res;
}

/* cpu-grid-pr with 1..4 threads: flow and cut bytes equal to cpu-ref's.
 * Two threads run every phase on the pool (par_min=0), also without
 * global relabelling after the first; three and four (more than this
 * 2-core CI machine has: every phase would sleep) from 64 items on. */
static void check(gcut_grid *g, const char *label)
{
    const int32_t n = gcut_grid_num_nodes(g);
    gcut_result *ref = solve(g, "cpu-ref", 1, NULL);
    static const struct {
        int32_t threads;
        const char *params;
    } runs[] = {{1, NULL},           {2, "par_min=0"},  {2, "par_min=0,gr_freq=0"},
                {2, NULL},           {3, "par_min=64"}, {4, "par_min=64"}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        /* Without global relabelling, labels climb one by one: small only. */
        if (n > 2000 && runs[i].params && strstr(runs[i].params, "gr_freq=0"))
            continue;
        gcut_result *res = solve(g, "cpu-grid-pr", runs[i].threads, runs[i].params);
        const char *pm = runs[i].params ? runs[i].params : "";
        if (gcut_result_flow(res) != gcut_result_flow(ref))
            fail_msg("%s: %d threads %s: flow %lld, cpu-ref %lld", label, (int)runs[i].threads,
                     pm, (long long)gcut_result_flow(res), (long long)gcut_result_flow(ref));
        if (memcmp(gcut_result_cut(res), gcut_result_cut(ref), (size_t)n) != 0)
            fail_msg("%s: %d threads %s: cut differs from cpu-ref", label, (int)runs[i].threads,
                     pm);
        assert_true(gcut_result_stats(res)->threads >= 1);
        gcut_result_free(res);
    }
    gcut_result_free(ref);
}

static void test_random(void **unused)
{
    (void)unused;
    static const struct {
        int32_t w, h, d, c;
    } shapes[] = {
        {1, 1, 1, 4},   {1, 1, 1, 26}, {1, 37, 1, 4}, {29, 1, 1, 8},  {1, 1, 23, 6},
        {13, 11, 1, 4}, {17, 9, 1, 8}, {7, 5, 6, 6},  {5, 6, 7, 18}, {6, 5, 5, 26},
        {2, 3, 1, 8},   {3, 1, 2, 26}, {31, 23, 1, 4}, {9, 7, 5, 18}, {1, 9, 9, 26},
    };
    tu_rng r = {77};
    char label[128];
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        for (int k = 0; k < TU_GRID_COUNT; k++) {
            gcut_grid *g;
            assert_int_equal(
                gcut_grid_new(&g, shapes[s].w, shapes[s].h, shapes[s].d, shapes[s].c), GCUT_OK);
            tu_grid_randomise(g, &r, (tu_grid_kind)k);
            snprintf(label, sizeof label, "%dx%dx%d c%d kind %d", (int)shapes[s].w,
                     (int)shapes[s].h, (int)shapes[s].d, (int)shapes[s].c, k);
            check(g, label);
            gcut_grid_free(g);
        }
    }
}

/* Larger grids: the default par_min puts rounds and BFS levels on the pool. */
static void test_larger(void **unused)
{
    (void)unused;
    static const struct {
        int32_t w, h, d, c;
    } shapes[] = {{150, 101, 1, 4}, {97, 60, 1, 8}, {30, 25, 21, 6}, {22, 19, 17, 26}};
    tu_rng r = {4242};
    char label[128];
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const tu_grid_kind ks[] = {TU_GRID_MEDIUM, TU_GRID_SEEDS};
        for (int k = 0; k < 2; k++) {
            gcut_grid *g;
            assert_int_equal(
                gcut_grid_new(&g, shapes[s].w, shapes[s].h, shapes[s].d, shapes[s].c), GCUT_OK);
            tu_grid_randomise(g, &r, ks[k]);
            snprintf(label, sizeof label, "large %dx%dx%d c%d", (int)shapes[s].w,
                     (int)shapes[s].h, (int)shapes[s].d, (int)shapes[s].c);
            check(g, label);
            gcut_grid_free(g);
        }
    }
}

static void test_flows_and_limits(void **unused)
{
    (void)unused;
    tu_rng r = {9};
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 300, 200, 1, 4), GCUT_OK);
    tu_grid_randomise(g, &r, TU_GRID_MEDIUM);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-grid-pr";
    opt.want_flows = 1;
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_UNSUPPORTED);
    opt.want_flows = 0;
    opt.time_limit = 1e-9;
    opt.threads = 2;
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_TIMEOUT);
    opt.time_limit = 0;
    opt.params = "no_such_key=1";
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_INVALID);
    gcut_result_free(res);
    /* auto keeps choosing cpu-bk for grids. */
    res = solve(g, "auto", 0, NULL);
    assert_string_equal(gcut_result_backend(res), "cpu-bk");
    gcut_result_free(res);
    gcut_grid_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_larger),
        cmocka_unit_test(test_flows_and_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
