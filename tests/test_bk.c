/*
 * test_bk.c - cpu-bk specific checks beyond the generic cross-check:
 * graphs that make the search trees deep and the adoption stage busy, the
 * renumbering of the 32-bit phase counter (forced early with ts_limit),
 * parameters, the time limit and the statistics, and the arc records kept
 * with the graph's layouts between solves.
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

static int32_t rnd_cap(tu_rng *r, int32_t hi)
{
    return (int32_t)tu_range(r, 0, hi);
}

/*
 * A narrow, tall grid: source links on the top rows, sink links on the
 * bottom rows, so every augmenting path runs the whole height and the trees
 * become long chains. Saturating an arc in the middle orphans long
 * subtrees, which is what exercises adoption and the distance stamps.
 *
 *   s s s s      (top rows: cap_source)
 *   | | | |
 *   o-o-o-o      W columns, H rows, 4-connected,
 *   | | | |      both directions with independent capacities
 *   t t t t      (bottom rows: cap_sink)
 */
static gcut_graph *tall_grid(uint64_t seed, int32_t w, int32_t h, int32_t hi)
{
    tu_rng r = {seed};
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, w * h, 2 * (int64_t)w * h), GCUT_OK);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            const int32_t v = y * w + x;
            if (y < 2)
                assert_int_equal(gcut_graph_add_tweights(g, v, rnd_cap(&r, hi), 0), GCUT_OK);
            if (y >= h - 2)
                assert_int_equal(gcut_graph_add_tweights(g, v, 0, rnd_cap(&r, hi)), GCUT_OK);
            if (x + 1 < w)
                assert_int_equal(gcut_graph_add_edge(g, v, v + 1, rnd_cap(&r, hi),
                                                     rnd_cap(&r, hi)),
                                 GCUT_OK);
            if (y + 1 < h)
                assert_int_equal(gcut_graph_add_edge(g, v, v + w, rnd_cap(&r, hi),
                                                     rnd_cap(&r, hi)),
                                 GCUT_OK);
        }
    return g;
}

/*
 * A small genrmf-like network: b frames of a x a nodes, strong arcs inside
 * a frame, weak arcs from each node to a random node of the next frame
 * (a fresh permutation per frame pair). Paths snake through every frame.
 */
static gcut_graph *frames(uint64_t seed, int32_t a, int32_t b)
{
    tu_rng r = {seed};
    const int32_t f = a * a, n = f * b;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, n, 3 * (int64_t)n), GCUT_OK);
    int32_t perm[64];
    assert_true(f <= 64);
    for (int32_t k = 0; k < b; k++) {
        for (int32_t y = 0; y < a; y++)
            for (int32_t x = 0; x < a; x++) {
                const int32_t v = k * f + y * a + x;
                if (x + 1 < a)
                    assert_int_equal(gcut_graph_add_edge(g, v, v + 1, 100 * f, 100 * f), GCUT_OK);
                if (y + 1 < a)
                    assert_int_equal(gcut_graph_add_edge(g, v, v + a, 100 * f, 100 * f), GCUT_OK);
            }
        if (k + 1 == b)
            break;
        for (int32_t i = 0; i < f; i++)
            perm[i] = i;
        for (int32_t i = f - 1; i > 0; i--) {
            const int32_t j = (int32_t)tu_range(&r, 0, i), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (int32_t i = 0; i < f; i++)
            assert_int_equal(gcut_graph_add_edge(g, k * f + i, (k + 1) * f + perm[i],
                                                 (int32_t)tu_range(&r, 1, 100), 0),
                             GCUT_OK);
    }
    assert_int_equal(gcut_graph_add_tweights(g, 0, 1000000, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, n - 1, 0, 1000000), GCUT_OK);
    return g;
}

static void test_deep_trees(void **state)
{
    (void)state;
    for (int i = 0; i < tu_scaled(150); i++) {
        const uint64_t seed = 7919ull * (uint64_t)i + 3;
        const int32_t w = 1 + i % 5, h = 50 + 37 * (i % 11);
        const int32_t hi = i % 3 == 0 ? 3 : (i % 3 == 1 ? 100 : INT32_MAX / 2);
        gcut_graph *g = tall_grid(seed, w, h, hi);
        char label[64];
        snprintf(label, sizeof label, "bk-tall-%d", i);
        assert_int_equal(tu_crosscheck(g, "cpu-bk", 1, 0, NULL, label), 0);
        gcut_graph_free(g);
    }
    for (int i = 0; i < tu_scaled(100); i++) {
        gcut_graph *g = frames(104729ull * (uint64_t)i + 1, 2 + i % 7, 3 + i % 13);
        char label[64];
        snprintf(label, sizeof label, "bk-frames-%d", i);
        assert_int_equal(tu_crosscheck(g, "cpu-bk", 1, 0, NULL, label), 0);
        gcut_graph_free(g);
    }
}

/* ts_limit=k renumbers the timestamps every k phases; the renumbering must
 * leave trees valid (acyclic, exact distances), so answers do not change. */
static void test_phase_renumbering(void **state)
{
    (void)state;
    static const char *const limits[] = {"ts_limit=1", "ts_limit=2", "ts_limit=7",
                                          "ts_limit=100"};
    for (int i = 0; i < tu_scaled(600); i++) {
        const tu_family fam = (tu_family)(i % TU_FAMILY_COUNT);
        const tu_caps caps = (tu_caps)((i / TU_FAMILY_COUNT) % TU_CAPS_COUNT);
        gcut_graph *g = tu_random_graph(31337ull * (uint64_t)i + 5, fam, caps, i % 5 ? 40 : 300);
        char label[96];
        snprintf(label, sizeof label, "bk-ts-%s-%s-%d", tu_family_name(fam), tu_caps_name(caps),
                 i);
        assert_int_equal(tu_crosscheck(g, "cpu-bk", i % 2, 0, limits[i % 4], label), 0);
        gcut_graph_free(g);
    }
    for (int i = 0; i < tu_scaled(12); i++) {
        gcut_graph *g = tall_grid(99ull + (uint64_t)i, 3, 120, 100);
        assert_int_equal(tu_crosscheck(g, "cpu-bk", 1, 0, limits[i % 4], "bk-ts-tall"), 0);
        gcut_graph_free(g);
    }
}

static gcut_status solve_params(gcut_graph *g, const char *params, gcut_result *res)
{
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-bk";
    opt.params = params;
    return gcut_solve(g, &opt, res);
}

static void test_params(void **state)
{
    (void)state;
    gcut_graph *g = tall_grid(1, 2, 10, 10);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    assert_int_equal(solve_params(g, "", res), GCUT_OK);
    assert_int_equal(solve_params(g, "ts_limit=5", res), GCUT_OK);
    assert_int_equal(solve_params(g, "ts_limit=5,ts_limit=9", res), GCUT_OK);
    assert_int_equal(solve_params(g, "reuse_trees=1", res), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "unknown parameter"));
    assert_int_equal(solve_params(g, "ts_limit", res), GCUT_ERR_INVALID);
    assert_int_equal(solve_params(g, "ts_limit=", res), GCUT_ERR_INVALID);
    assert_int_equal(solve_params(g, "ts_limit=0", res), GCUT_ERR_INVALID);
    assert_int_equal(solve_params(g, "ts_limit=12x", res), GCUT_ERR_INVALID);
    assert_int_equal(solve_params(g, "ts_limit=4294967296", res), GCUT_ERR_INVALID);
    gcut_result_free(res);
    gcut_graph_free(g);
}

/* A solve that runs out of time fails with GCUT_ERR_TIMEOUT and leaves the
 * result as it was. */
static void test_time_limit(void **state)
{
    (void)state;
    gcut_graph *small = tall_grid(5, 3, 20, 50);
    gcut_graph *big = tall_grid(6, 300, 300, 100);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-bk";
    assert_int_equal(gcut_solve(small, &opt, res), GCUT_OK);
    const int64_t flow = gcut_result_flow(res);
    opt.time_limit = 1e-9;
    assert_int_equal(gcut_solve(big, &opt, res), GCUT_ERR_TIMEOUT);
    assert_int_equal(gcut_result_flow(res), flow);
    assert_int_equal(gcut_result_num_nodes(res), 60);
    gcut_result_free(res);
    gcut_graph_free(small);
    gcut_graph_free(big);
}

/* Counters: one augmentation per path, pushes count the arcs of the paths
 * (terminal arcs included), so pushes >= 2 * augmentations. */
static void test_stats(void **state)
{
    (void)state;
    gcut_graph *g = tall_grid(11, 4, 60, 100);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    assert_int_equal(solve_params(g, NULL, res), GCUT_OK);
    const gcut_stats *st = gcut_result_stats(res);
    assert_true(gcut_result_flow(res) > 0);
    assert_true(st->augmentations > 0);
    assert_true(st->pushes >= 2 * st->augmentations);
    assert_true(st->solve_ms >= 0.0 && st->init_ms >= 0.0 && st->cut_ms >= 0.0);
    assert_string_equal(gcut_result_backend(res), "cpu-bk");
    gcut_result_free(res);
    gcut_graph_free(g);

    /* Nothing to augment: every node's terminal links cancel. */
    assert_int_equal(gcut_graph_new(&g, 2, 1), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 5, 5), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 1, 3, 3), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, 9, 9), GCUT_OK);
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    assert_int_equal(solve_params(g, NULL, res), GCUT_OK);
    assert_int_equal(gcut_result_flow(res), 8);
    assert_int_equal(gcut_result_stats(res)->augmentations, 0);
    assert_int_equal(gcut_result_cut(res)[0], GCUT_SOURCE);
    assert_int_equal(gcut_result_cut(res)[1], GCUT_SOURCE);
    gcut_result_free(res);
    gcut_graph_free(g);
}

/* Change the terminal capacities of a few nodes (set and add, some to 0). */
static void change_tweights(gcut_graph *g, tu_rng *r, int32_t count, int32_t top)
{
    const int32_t n = gcut_graph_num_nodes(g);
    for (int32_t i = 0; n > 0 && i < count; i++) {
        const int32_t v = (int32_t)tu_range(r, 0, n - 1);
        const int32_t s = tu_range(r, 0, 3) == 0 ? 0 : (int32_t)tu_range(r, 0, top);
        const int32_t t = tu_range(r, 0, 3) == 0 ? 0 : (int32_t)tu_range(r, 0, top);
        int32_t s0, t0;
        assert_int_equal(gcut_graph_get_tweights(g, v, &s0, &t0), GCUT_OK);
        if (tu_range(r, 0, 1) || (int64_t)s0 + s / 2 > INT32_MAX || (int64_t)t0 + t / 2 > INT32_MAX)
            assert_int_equal(gcut_graph_set_tweights(g, v, s, t), GCUT_OK);
        else
            assert_int_equal(gcut_graph_add_tweights(g, v, s / 2, t / 2), GCUT_OK);
    }
}

static gcut_status solve_bk(gcut_graph *g, int flows, gcut_result *res)
{
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-bk";
    opt.want_flows = flows;
    return gcut_solve(g, &opt, res);
}

/* The arc records cpu-bk keeps with the graph's layouts: every solve after
 * the first works on the records the one before left, restoring what it
 * pushed. Rounds of terminal changes (the records stay), solves with and
 * without flows, other engines in between, and structure changes (the
 * records are dropped and built again): every answer equals cpu-ref's
 * (tu_crosscheck solves with cpu-bk once more, on the same records). */
static void test_kept_records(void **state)
{
    (void)state;
    int failures = 0;
    for (int i = 0; i < tu_scaled(300) && failures < 3; i++) {
        const tu_family fam = (tu_family)(i % TU_FAMILY_COUNT);
        const tu_caps caps = (tu_caps)((i / TU_FAMILY_COUNT) % TU_CAPS_COUNT);
        const uint64_t seed = 6151ull * (uint64_t)i + 17;
        gcut_graph *g = tu_random_graph(seed, fam, caps, i % 7 == 0 ? 400 : 40);
        tu_rng r = {seed ^ 0x5bd1e995ull};
        gcut_result *res;
        assert_int_equal(gcut_result_new(&res), GCUT_OK);
        for (int round = 0; round < 6; round++) {
            const int32_t n = gcut_graph_num_nodes(g);
            if (round == 3 && n > 1) {
                /* A structure change drops the records. */
                tu_add_random_edge(g, &r);
            } else if (round == 5) {
                tu_add_terminal_pair(g);
            } else if (round > 0) {
                change_tweights(g, &r, 1 + n / 10, caps == TU_CAPS_HUGE ? INT32_MAX / 4 : 1000);
            }
            const int flows = (round + i) % 3 == 0;
            assert_int_equal(solve_bk(g, flows, res), GCUT_OK);
            const int64_t flow = gcut_result_flow(res);
            if (flow != tu_solve(g, "cpu-ref", NULL))
                failures++;
            if (round == 2)
                assert_int_equal(tu_solve(g, "cpu-hipr", NULL), flow);
            char label[96];
            snprintf(label, sizeof label, "bk-kept-%s-%s-seed%llu-round%d", tu_family_name(fam),
                     tu_caps_name(caps), (unsigned long long)seed, round);
            if (tu_crosscheck(g, "cpu-bk", flows, 0, NULL, label)) {
                fprintf(stderr, "FAILED: %s\n", label);
                failures++;
            }
        }
        gcut_result_free(res);
        gcut_graph_free(g);
    }
    assert_int_equal(failures, 0);
}

static int cancel_in_search(const gcut_progress *p, void *user)
{
    int *calls = user;
    /* The first call is the phase change, before the engine starts; the
     * second comes from its main loop. */
    return strcmp(p->phase, "solve") == 0 && ++*calls >= 2;
}

/* Solves that stop half-way (a cancel in the search, a time limit, bad
 * parameters) leave the kept records for the next solve, which restores
 * them: it is right, and so is a solve after a change of terminals. */
static void test_kept_after_interrupt(void **state)
{
    (void)state;
    gcut_graph *g = tall_grid(21, 100, 100, 100);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    const int64_t want = tu_solve(g, "cpu-ref", NULL);
    for (int k = 0; k < 3; k++) {
        gcut_solve_options opt;
        gcut_solve_options_init(&opt);
        opt.backend = "cpu-bk";
        int calls = 0;
        opt.progress = cancel_in_search;
        opt.progress_user = &calls;
        opt.progress_interval_ms = 1e-6;
        assert_int_equal(gcut_solve(g, &opt, res), GCUT_ERR_INTERRUPTED);
        assert_true(calls >= 2);
        assert_int_equal(solve_params(g, "ts_limit=0", res), GCUT_ERR_INVALID);
        assert_int_equal(solve_bk(g, k == 1, res), GCUT_OK);
        assert_int_equal(gcut_result_flow(res), want);
    }
    assert_int_equal(tu_crosscheck(g, "cpu-bk", 1, 0, NULL, "bk-kept-after-cancel"), 0);
    assert_int_equal(gcut_graph_set_tweights(g, 0, 0, 0), GCUT_OK);
    assert_int_equal(gcut_graph_set_tweights(g, 99 * 100 + 5, 7000, 0), GCUT_OK);
    assert_int_equal(tu_crosscheck(g, "cpu-bk", 0, 0, NULL, "bk-kept-after-change"), 0);
    /* The basic interface goes the same way. */
    int64_t flow;
    const int64_t want2 = tu_solve(g, "cpu-ref", NULL);
    assert_int_equal(gcut_graph_maxflow(g, "cpu-bk", &flow), GCUT_OK);
    assert_int_equal(flow, want2);
    assert_int_equal(gcut_graph_maxflow(g, "cpu-bk", &flow), GCUT_OK);
    assert_int_equal(flow, want2);
    /* Freezing again (nothing to build) and turning warm starts off leave
     * cold cpu-bk solves as they were. */
    assert_int_equal(gcut_graph_freeze(g), GCUT_OK);
    assert_int_equal(gcut_graph_set_warm_start(g, 0), GCUT_OK);
    assert_int_equal(tu_crosscheck(g, "cpu-bk", 0, 0, NULL, "bk-kept-frozen"), 0);
    gcut_result_free(res);
    gcut_graph_free(g);
}

/* Graphs with no nodes, no edges, or only self-loops and parallel edges,
 * solved twice. */
static void test_kept_degenerate(void **state)
{
    (void)state;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 0, 0), GCUT_OK);
    for (int k = 0; k < 2; k++)
        assert_int_equal(tu_solve(g, "cpu-bk", NULL), 0);
    gcut_graph_free(g);
    assert_int_equal(gcut_graph_new(&g, 3, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 5, 2), GCUT_OK);
    for (int k = 0; k < 2; k++)
        assert_int_equal(tu_solve(g, "cpu-bk", NULL), 2);
    assert_int_equal(gcut_graph_add_edge(g, 0, 0, 9, 9), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, 1, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, 2, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 1, 0, 10), GCUT_OK);
    for (int k = 0; k < 2; k++)
        assert_int_equal(tu_crosscheck(g, "cpu-bk", 1, 0, NULL, "bk-kept-parallel"), 0);
    assert_int_equal(tu_solve(g, "cpu-bk", NULL), 5);
    gcut_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deep_trees),
        cmocka_unit_test(test_phase_renumbering),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_time_limit),
        cmocka_unit_test(test_stats),
        cmocka_unit_test(test_kept_records),
        cmocka_unit_test(test_kept_after_interrupt),
        cmocka_unit_test(test_kept_degenerate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
