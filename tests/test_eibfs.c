/*
 * test_eibfs.c - what is particular to cpu-eibfs (excess incremental BFS):
 * edge cases (no nodes, no edges, zero capacities, capacities near
 * INT32_MAX, disconnected nodes, self-loops and parallel edges), a
 * hand-made graph, the time limit and cancelling, and the warm re-solve on
 * general graphs: random sequences of terminal-capacity changes on every
 * random family, each re-solve warm and equal to cpu-ref's cold answer
 * (the same flow value and the same canonical cut, and a valid flow when
 * flows are asked for). Default runs on the random families are also
 * test_crosscheck's job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#ifdef GCUT_TEST_HAVE_GEN
#include "gen/gen.h"
#endif

#define EIBFS "cpu-eibfs"

static gcut_status solve_eibfs_params(gcut_graph *g, int want_flows, double time_limit,
                                      const char *params, gcut_result *res)
{
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = EIBFS;
    opt.want_flows = want_flows;
    opt.time_limit = time_limit;
    opt.params = params;
    return gcut_solve(g, &opt, res);
}

static gcut_status solve_eibfs(gcut_graph *g, int want_flows, double time_limit, gcut_result *res)
{
    return solve_eibfs_params(g, want_flows, time_limit, NULL, res);
}

/* Solve with flows; check the value, the flow and (when given) the cut. */
static void expect(gcut_graph *g, int64_t flow, const uint8_t *cut)
{
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    assert_int_equal(solve_eibfs(g, 1, 0, res), GCUT_OK);
    assert_int_equal(gcut_result_flow(res), flow);
    assert_int_equal(gcut_check_flow(g, flow, gcut_result_edge_flows(res), gcut_result_cut(res)),
                     GCUT_OK);
    const int32_t n = gcut_graph_num_nodes(g);
    for (int32_t v = 0; cut && v < n; v++)
        assert_int_equal(gcut_result_cut(res)[v], cut[v]);
    gcut_result_free(res);
    assert_int_equal(tu_crosscheck(g, EIBFS, 1, 0, NULL, "eibfs-edge-case"), 0);
}

static void test_no_nodes(void **state)
{
    (void)state;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 0, 0), GCUT_OK);
    expect(g, 0, NULL);
    gcut_graph_free(g);
}

static void test_no_edges(void **state)
{
    (void)state;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 5, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 7, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 1, 0, 4), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 2, 5, 5), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 3, 9, 2), GCUT_OK);
    const uint8_t cut[5] = {GCUT_SOURCE, GCUT_SINK, GCUT_SOURCE, GCUT_SOURCE, GCUT_SOURCE};
    expect(g, 5 + 2, cut);
    gcut_graph_free(g);
}

/* Zero capacities everywhere, a self-loop and parallel edges: nothing
 * flows but what the parallel edges carry. */
static void test_zero_loops_parallel(void **state)
{
    (void)state;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 4, 6), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, 0, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 2, 2, 50, 50), GCUT_OK); /* self-loop */
    assert_int_equal(gcut_graph_add_edge(g, 2, 3, 3, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 2, 3, 4, 1), GCUT_OK); /* parallel */
    assert_int_equal(gcut_graph_add_tweights(g, 0, 10, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 1, 0, 10), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 2, 100, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 3, 0, 100), GCUT_OK);
    const uint8_t cut[4] = {GCUT_SOURCE, GCUT_SINK, GCUT_SOURCE, GCUT_SINK};
    expect(g, 7, cut);
    gcut_graph_free(g);
}

/* Capacities at INT32_MAX on a path and around it: sums past 2^32 in the
 * excesses, residuals at their largest. */
static void test_huge(void **state)
{
    (void)state;
    gcut_graph *g;
    const int32_t M = INT32_MAX;
    assert_int_equal(gcut_graph_new(&g, 5, 6), GCUT_OK);
    for (int32_t v = 0; v + 1 < 5; v++)
        assert_int_equal(gcut_graph_add_edge(g, v, v + 1, M, M), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 4, M, M), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 1, 3, M, 0), GCUT_OK);
    for (int32_t v = 0; v < 3; v++)
        assert_int_equal(gcut_graph_add_tweights(g, v, M, 0), GCUT_OK);
    for (int32_t v = 3; v < 5; v++)
        assert_int_equal(gcut_graph_add_tweights(g, v, 0, M), GCUT_OK);
    expect(g, 2 * (int64_t)M, NULL);
    gcut_graph_free(g);
}

/* Disconnected parts, one without terminal links, one with only a source. */
static void test_disconnected(void **state)
{
    (void)state;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 9, 6), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, 5, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 1, 2, 3, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 3, 4, 9, 9), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 5, 6, 2, 7), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 8, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 2, 0, 8), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 5, 4, 0), GCUT_OK);
    /* 0 -> 1 -> 2: 3 units; the edge 1 -> 2 is the cut. 3, 4, 6, 7, 8:
     * no sink reachable, source side; 2 is on the sink side. */
    const uint8_t cut[9] = {0, 0, 1, 0, 0, 0, 0, 0, 0};
    expect(g, 3, cut);
    gcut_graph_free(g);
}

/* A graph where the excess must go round: two sources, a bottleneck, and
 * a crossing arc larger than everything the source side holds. */
static void test_hand_made(void **state)
{
    (void)state;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 6, 8), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 4, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 1, 6, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 2, 100, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 1, 2, 2, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 1, 3, 100, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 2, 4, 1000, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 3, 4, 1, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 3, 5, 100, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 4, 5, 1000, 5), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 4, 0, 5), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 5, 0, 3), GCUT_OK);
    expect(g, 8, NULL);
    gcut_graph_free(g);
}

static gcut_graph *grid_graph(int32_t w, uint64_t seed)
{
    tu_rng rng = {seed};
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, w * w, 2 * w * w), GCUT_OK);
    for (int32_t v = 0; v < w * w; v++) {
        assert_int_equal(gcut_graph_add_tweights(g, v, (int32_t)tu_range(&rng, 0, 100),
                                                 (int32_t)tu_range(&rng, 0, 100)),
                         GCUT_OK);
        if (v % w + 1 < w)
            assert_int_equal(gcut_graph_add_edge(g, v, v + 1, (int32_t)tu_range(&rng, 0, 100),
                                                 (int32_t)tu_range(&rng, 0, 100)),
                             GCUT_OK);
        if (v + w < w * w)
            assert_int_equal(gcut_graph_add_edge(g, v, v + w, (int32_t)tu_range(&rng, 0, 100),
                                                 (int32_t)tu_range(&rng, 0, 100)),
                             GCUT_OK);
    }
    return g;
}

/* A time limit far too short: GCUT_ERR_TIMEOUT, no result; the next solve
 * is cold and right. */
static void test_time_limit(void **state)
{
    (void)state;
    gcut_graph *g = grid_graph(300, 11);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    assert_int_equal(solve_eibfs(g, 0, 1e-9, res), GCUT_ERR_TIMEOUT);
    assert_int_equal(gcut_last_status(), GCUT_ERR_TIMEOUT);
    assert_null(gcut_result_cut(res));
    assert_int_equal(solve_eibfs(g, 0, 0, res), GCUT_OK);
    assert_int_equal(gcut_result_stats(res)->warm_start, 0);
    assert_int_equal(tu_crosscheck(g, EIBFS, 0, 0, NULL, "eibfs-after-timeout"), 0);
    gcut_result_free(res);
    gcut_graph_free(g);
}

static int cancel_now(const gcut_progress *p, void *user)
{
    (void)p;
    (*(int *)user)++;
    return 1;
}

/* The progress callback cancels: GCUT_ERR_INTERRUPTED, then a cold solve. */
static void test_cancel(void **state)
{
    (void)state;
    gcut_graph *g = grid_graph(300, 12);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = EIBFS;
    int calls = 0;
    opt.progress = cancel_now;
    opt.progress_user = &calls;
    opt.progress_interval_ms = 1e-6;
    assert_int_equal(gcut_solve(g, &opt, res), GCUT_ERR_INTERRUPTED);
    assert_true(calls > 0);
    assert_int_equal(tu_crosscheck(g, EIBFS, 0, 0, NULL, "eibfs-after-cancel"), 0);
    gcut_result_free(res);
    gcut_graph_free(g);
}

/* Change the terminal capacities of about `percent` % of the nodes (at
 * least one), with set and add, some to 0, some to huge values. */
static void change_tweights(gcut_graph *g, tu_rng *r, int percent, int huge)
{
    const int32_t n = gcut_graph_num_nodes(g);
    if (n == 0)
        return;
    int32_t count = (int32_t)((int64_t)n * percent / 100);
    if (count < 1)
        count = 1;
    const int64_t top = huge ? INT32_MAX / 4 : 1000;
    for (int32_t i = 0; i < count; i++) {
        const int32_t v = (int32_t)tu_range(r, 0, n - 1);
        int32_t s, t;
        assert_int_equal(gcut_graph_get_tweights(g, v, &s, &t), GCUT_OK);
        switch (tu_range(r, 0, 4)) {
        case 0:
            s = 0;
            break;
        case 1:
            t = 0;
            break;
        case 2:
            s = (int32_t)tu_range(r, 0, top);
            break;
        case 3:
            t = (int32_t)tu_range(r, 0, top);
            break;
        default:
            s = (int32_t)tu_range(r, 0, top);
            t = (int32_t)tu_range(r, 0, top);
            break;
        }
        if (tu_range(r, 0, 3) == 0) {
            int32_t s0, t0;
            assert_int_equal(gcut_graph_get_tweights(g, v, &s0, &t0), GCUT_OK);
            assert_int_equal(
                gcut_graph_add_tweights(g, v, s > s0 ? s - s0 : 0, t > t0 ? t - t0 : 0), GCUT_OK);
        } else {
            assert_int_equal(gcut_graph_set_tweights(g, v, s, t), GCUT_OK);
        }
    }
}

/* Random graphs of every family; after the first solve, rounds of changes,
 * each solve warm and equal to cpu-ref's (params: the engine's settings). */
static void warm_sequences(const char *params, int cases)
{
    int failures = 0, warm = 0, solves = 0;
    for (int i = 0; i < cases && failures < 3; i++) {
        const tu_family fam = (tu_family)(i % TU_FAMILY_COUNT);
        const tu_caps cap = (tu_caps)((i / TU_FAMILY_COUNT) % TU_CAPS_COUNT);
        const int32_t size = i % 31 == 0 ? 1500 : (i % 5 == 0 ? 200 : 30);
        const uint64_t seed = 7919ull * (uint64_t)i + 3;
        gcut_graph *g = tu_random_graph(seed, fam, cap, size);
        tu_rng rng = {seed ^ 0x9e3779b97f4a7c15ull};
        gcut_result *res;
        assert_int_equal(gcut_result_new(&res), GCUT_OK);
        for (int round = 0; round < 6; round++) {
            if (round > 0)
                change_tweights(g, &rng, round % 3 == 0 ? 20 : 1, cap == TU_CAPS_HUGE);
            const int flows = (round + i) % 4 == 0;
            assert_int_equal(solve_eibfs_params(g, flows, 0, params, res), GCUT_OK);
            solves++;
            warm += gcut_result_stats(res)->warm_start;
            if (round > 0 && !gcut_result_stats(res)->warm_start) {
                fprintf(stderr, "cold re-solve: case %d round %d\n", i, round);
                failures++;
            }
            char label[96];
            snprintf(label, sizeof label, "eibfs-warm-%s-%s-seed%llu-round%d", tu_family_name(fam),
                     tu_caps_name(cap), (unsigned long long)seed, round);
            /* tu_crosscheck solves with cpu-eibfs again (warm, no change
             * since) and with cpu-ref. */
            if (tu_crosscheck(g, EIBFS, flows, 0, params, label)) {
                fprintf(stderr, "FAILED: %s\n", label);
                failures++;
            }
            assert_int_equal(gcut_result_flow(res), tu_solve(g, "cpu-ref", NULL));
        }
        gcut_result_free(res);
        gcut_graph_free(g);
    }
    printf("# %d solves, %d warm\n", solves, warm);
    assert_int_equal(failures, 0);
}

static void test_warm_sequences(void **state)
{
    (void)state;
    warm_sequences(NULL, tu_scaled(600));
}

/* The arcs filled node by node as the search reaches them (fill=demand,
 * what large graphs with far sisters get; small ones fill at the set-up):
 * warm sequences from a partly filled state, and cold solves with flows,
 * equal to cpu-ref's; both fill settings and a bad one. */
static void test_fill_on_demand(void **state)
{
    (void)state;
    warm_sequences("fill=demand", tu_scaled(300));
    int failures = 0;
    for (int i = 0; i < tu_scaled(600) && failures < 3; i++) {
        const tu_family fam = (tu_family)(i % TU_FAMILY_COUNT);
        const tu_caps cap = (tu_caps)((i / TU_FAMILY_COUNT) % TU_CAPS_COUNT);
        const uint64_t seed = 15485863ull * (uint64_t)i + 5;
        gcut_graph *g = tu_random_graph(seed, fam, cap, i % 11 == 0 ? 400 : 40);
        assert_int_equal(gcut_graph_set_warm_start(g, 0), GCUT_OK); /* every solve cold */
        char label[96];
        snprintf(label, sizeof label, "eibfs-fill-%s-%s-seed%llu", tu_family_name(fam),
                 tu_caps_name(cap), (unsigned long long)seed);
        failures += tu_crosscheck(g, EIBFS, i % 2, 0, "fill=demand", label) != 0;
        failures += tu_crosscheck(g, EIBFS, i % 2, 0, "fill=setup", label) != 0;
        gcut_graph_free(g);
    }
    assert_int_equal(failures, 0);
    gcut_graph *g = grid_graph(10, 3);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    assert_int_equal(solve_eibfs_params(g, 0, 0, "fill=sometimes", res), GCUT_ERR_INVALID);
    assert_int_equal(solve_eibfs_params(g, 0, 0, "fills=demand", res), GCUT_ERR_INVALID);
    assert_int_equal(solve_eibfs_params(g, 0, 0, "fill=auto", res), GCUT_OK);
    gcut_result_free(res);
    gcut_graph_free(g);
}

/* The state cpu-eibfs keeps with the graph's layouts: every cold solve
 * after the first starts from the arc records the one before left and
 * restores, in place, the arcs of the nodes it pushed through. Random
 * graphs of every family, each solved in rounds with warm starts off
 * (every solve cold on the kept records) and on (warm, then cold again),
 * terminal changes, the three fill settings, flows on and off, and
 * structure changes (an added edge, added nodes: the records are dropped
 * and built again); every answer equals cpu-ref's (tu_crosscheck solves
 * with cpu-eibfs once more, on the records the solve before left). */
static void test_kept_records(void **state)
{
    (void)state;
    static const char *const fills[] = {NULL, "fill=setup", "fill=demand", NULL};
    int failures = 0, cold = 0;
    for (int i = 0; i < tu_scaled(400) && failures < 3; i++) {
        const tu_family fam = (tu_family)(i % TU_FAMILY_COUNT);
        const tu_caps cap = (tu_caps)((i / TU_FAMILY_COUNT) % TU_CAPS_COUNT);
        const uint64_t seed = 2654435761ull * (uint64_t)i + 11;
        gcut_graph *g = tu_random_graph(seed, fam, cap, i % 9 == 0 ? 400 : 40);
        tu_rng r = {seed ^ 0x2545f4914f6cdd1dull};
        const char *fill = fills[i % 4];
        gcut_result *res;
        assert_int_equal(gcut_result_new(&res), GCUT_OK);
        for (int round = 0; round < 8; round++) {
            const int32_t n = gcut_graph_num_nodes(g);
            if (round == 4 && n > 1) {
                tu_add_random_edge(g, &r);
            } else if (round == 6) {
                tu_add_terminal_pair(g);
            } else if (round > 0 && round % 3 != 2) {
                change_tweights(g, &r, round % 2 ? 5 : 30, cap == TU_CAPS_HUGE);
            }
            /* Warm starts on in rounds 2 and 5 only: the cold solves after
             * them start from records a warm solve left. */
            const int warm = round == 2 || round == 5;
            assert_int_equal(gcut_graph_set_warm_start(g, warm), GCUT_OK);
            if (round == 7)
                fill = fills[(i + 1) % 4]; /* another setting on the same records */
            const int flows = (round + i) % 3 == 0;
            assert_int_equal(solve_eibfs_params(g, flows, 0, fill, res), GCUT_OK);
            cold += !gcut_result_stats(res)->warm_start;
            if (!warm && gcut_result_stats(res)->warm_start)
                failures++;
            if (gcut_result_flow(res) != tu_solve(g, "cpu-ref", NULL))
                failures++;
            char label[96];
            snprintf(label, sizeof label, "eibfs-kept-%s-%s-seed%llu-round%d", tu_family_name(fam),
                     tu_caps_name(cap), (unsigned long long)seed, round);
            if (tu_crosscheck(g, EIBFS, !flows, 0, fill, label)) {
                fprintf(stderr, "FAILED: %s\n", label);
                failures++;
            }
        }
        gcut_result_free(res);
        gcut_graph_free(g);
    }
    printf("# %d cold solves on kept records\n", cold);
    assert_int_equal(failures, 0);
}

static int cancel_in_search(const gcut_progress *p, void *user)
{
    int *calls = user;
    /* The first call is the phase change, before the engine starts; the
     * second comes from its main loop. */
    return strcmp(p->phase, "solve") == 0 && ++*calls >= 2;
}

/* A solve cancelled half-way leaves its records, with flow moved along
 * them, for the next solve: that one is cold and restores them, warm
 * starts on or off; so is a solve after a change of terminals. */
static void test_kept_after_interrupt(void **state)
{
    (void)state;
    gcut_graph *g = grid_graph(300, 13);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    const int64_t want = tu_solve(g, "cpu-ref", NULL);
    for (int k = 0; k < 4; k++) {
        assert_int_equal(gcut_graph_set_warm_start(g, 0), GCUT_OK); /* a cold solve, cancelled */
        gcut_solve_options opt;
        gcut_solve_options_init(&opt);
        opt.backend = EIBFS;
        int calls = 0;
        opt.progress = cancel_in_search;
        opt.progress_user = &calls;
        opt.progress_interval_ms = 1e-6;
        assert_int_equal(gcut_solve(g, &opt, res), GCUT_ERR_INTERRUPTED);
        assert_true(calls >= 2);
        assert_int_equal(solve_eibfs_params(g, 0, 0, "fill=never", res), GCUT_ERR_INVALID);
        assert_int_equal(gcut_graph_set_warm_start(g, k % 2), GCUT_OK);
        assert_int_equal(solve_eibfs(g, k == 2, 0, res), GCUT_OK);
        assert_int_equal(gcut_result_stats(res)->warm_start, 0);
        assert_int_equal(gcut_result_flow(res), want);
    }
    assert_int_equal(tu_crosscheck(g, EIBFS, 1, 0, NULL, "eibfs-kept-after-cancel"), 0);
    assert_int_equal(gcut_graph_set_warm_start(g, 0), GCUT_OK);
    assert_int_equal(gcut_graph_set_tweights(g, 0, 0, 0), GCUT_OK);
    assert_int_equal(gcut_graph_set_tweights(g, 299 * 300 + 5, 7000, 0), GCUT_OK);
    assert_int_equal(tu_crosscheck(g, EIBFS, 0, 0, NULL, "eibfs-kept-after-change"), 0);
    int64_t flow;
    const int64_t want2 = tu_solve(g, "cpu-ref", NULL);
    for (int k = 0; k < 2; k++) { /* the basic interface goes the same way */
        assert_int_equal(gcut_graph_maxflow(g, EIBFS, &flow), GCUT_OK);
        assert_int_equal(flow, want2);
    }
    gcut_result_free(res);
    gcut_graph_free(g);
}

/* Warm state and structure: adding an edge drops it (the next solve is
 * cold and right); turning warm starts off keeps every solve cold. */
static void test_warm_invalidation(void **state)
{
    (void)state;
    gcut_graph *g = grid_graph(40, 5);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    assert_int_equal(solve_eibfs(g, 0, 0, res), GCUT_OK);
    assert_int_equal(gcut_result_stats(res)->warm_start, 0);
    assert_int_equal(gcut_graph_set_tweights(g, 7, 500, 0), GCUT_OK);
    assert_int_equal(solve_eibfs(g, 0, 0, res), GCUT_OK);
    assert_int_equal(gcut_result_stats(res)->warm_start, 1);
    assert_int_equal(gcut_result_flow(res), tu_solve(g, "cpu-ref", NULL));
    assert_int_equal(gcut_graph_add_edge(g, 0, 1599, 300, 300), GCUT_OK);
    assert_int_equal(solve_eibfs(g, 0, 0, res), GCUT_OK);
    assert_int_equal(gcut_result_stats(res)->warm_start, 0);
    assert_int_equal(gcut_result_flow(res), tu_solve(g, "cpu-ref", NULL));
    /* Another engine in between leaves the state alone. */
    assert_int_equal(tu_solve(g, "cpu-hpf", NULL), tu_solve(g, "cpu-ref", NULL));
    assert_int_equal(gcut_graph_set_tweights(g, 8, 0, 700), GCUT_OK);
    assert_int_equal(solve_eibfs(g, 0, 0, res), GCUT_OK);
    assert_int_equal(gcut_result_stats(res)->warm_start, 1);
    assert_int_equal(gcut_graph_set_warm_start(g, 0), GCUT_OK);
    assert_int_equal(gcut_graph_set_tweights(g, 9, 0, 70), GCUT_OK);
    assert_int_equal(solve_eibfs(g, 0, 0, res), GCUT_OK);
    assert_int_equal(gcut_result_stats(res)->warm_start, 0);
    assert_int_equal(gcut_result_flow(res), tu_solve(g, "cpu-ref", NULL));
    assert_int_equal(gcut_graph_set_warm_start(g, 1), GCUT_OK);
    assert_int_equal(gcut_graph_set_warm_start(NULL, 1), GCUT_ERR_INVALID);
    assert_int_equal(gcut_graph_set_tweights(g, 1600, 0, 0), GCUT_ERR_INVALID);
    assert_int_equal(gcut_graph_set_tweights(g, 0, -1, 0), GCUT_ERR_INVALID);
    gcut_result_free(res);
    gcut_graph_free(g);
}

#ifdef GCUT_TEST_HAVE_GEN
static void capture_log(void *user, gcut_log_level level, const char *message)
{
    (void)level;
    if (strstr(message, "cpu-hpf takes over"))
        *(int *)user = 1;
}
#endif

/* genrmf a=32 b=32 spends the work budget: cpu-hpf finishes, the answer is
 * right, the log says so, and the state is dropped (the next solve cold). */
static void test_budget_fallback(void **state)
{
    (void)state;
#ifdef GCUT_TEST_HAVE_GEN
    gen_spec spec;
    char err[GEN_ERR_LEN];
    gcut_graph *g;
    assert_int_equal(gen_spec_parse("genrmf:a=32,b=32,seed=1", 1, &spec, err), 0);
    assert_int_equal(gen_build(&spec, &g, err), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = EIBFS;
    opt.want_flows = 1;
    int took_over = 0;
    opt.verbosity = 2; /* the info level */
    opt.log = capture_log;
    opt.log_user = &took_over;
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    assert_int_equal(gcut_solve(g, &opt, res), GCUT_OK);
    assert_true(took_over);
    assert_int_equal(gcut_result_flow(res), tu_solve(g, "cpu-hpf", NULL));
    assert_int_equal(gcut_check_flow(g, gcut_result_flow(res), gcut_result_edge_flows(res),
                                     gcut_result_cut(res)),
                     GCUT_OK);
    assert_int_equal(gcut_graph_set_tweights(g, 5, 1000, 0), GCUT_OK);
    took_over = 0;
    assert_int_equal(gcut_solve(g, &opt, res), GCUT_OK);
    assert_int_equal(gcut_result_stats(res)->warm_start, 0);
    assert_int_equal(gcut_result_flow(res), tu_solve(g, "cpu-hpf", NULL));
    /* cpu-eibfs's settings do not reach cpu-hpf (which takes none). */
    opt.params = "fill=demand";
    took_over = 0;
    assert_int_equal(gcut_solve(g, &opt, res), GCUT_OK);
    assert_true(took_over);
    assert_int_equal(gcut_result_flow(res), tu_solve(g, "cpu-hpf", NULL));
    gcut_result_free(res);
    gcut_graph_free(g);
#else
    skip();
#endif
}

/* The heavier dose of the cross-check, with flows on every family. */
static void test_crosscheck_flows(void **state)
{
    (void)state;
    int failures = 0;
    for (int i = 0; i < tu_scaled(2000) && failures < 3; i++) {
        const tu_family fam = (tu_family)(i % TU_FAMILY_COUNT);
        const tu_caps cap = (tu_caps)((i / TU_FAMILY_COUNT) % TU_CAPS_COUNT);
        const uint64_t seed = 104729ull * (uint64_t)i + 1;
        gcut_graph *g = tu_random_graph(seed, fam, cap, i % 13 == 0 ? 400 : 50);
        char label[96];
        snprintf(label, sizeof label, "eibfs-%s-%s-seed%llu", tu_family_name(fam),
                 tu_caps_name(cap), (unsigned long long)seed);
        failures += tu_crosscheck(g, EIBFS, 1, 0, NULL, label) != 0;
        gcut_graph_free(g);
    }
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_nodes),
        cmocka_unit_test(test_no_edges),
        cmocka_unit_test(test_zero_loops_parallel),
        cmocka_unit_test(test_huge),
        cmocka_unit_test(test_disconnected),
        cmocka_unit_test(test_hand_made),
        cmocka_unit_test(test_time_limit),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_warm_sequences),
        cmocka_unit_test(test_warm_invalidation),
        cmocka_unit_test(test_fill_on_demand),
        cmocka_unit_test(test_kept_records),
        cmocka_unit_test(test_kept_after_interrupt),
        cmocka_unit_test(test_budget_fallback),
        cmocka_unit_test(test_crosscheck_flows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
