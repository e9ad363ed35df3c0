/*
 * test_graph_threads.c - one unchanged graph solved from several threads at
 * once (gcut/solve.h): the lazy layout is built once, under the graph's
 * lock, the records cpu-bk and cpu-eibfs keep with it go to one thread
 * (the others solve on records of their own), and every thread gets the
 * same flow and cut as a solve alone.
 * Run it under ThreadSanitizer to see the lock at work (docs/testing.md).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define THREADS 4
#define SIDE 60

static int32_t rnd(uint32_t *x)
{
    *x = *x * 1664525u + 1013904223u;
    return (int32_t)((*x >> 16) % 50);
}

/* A grid graph with pseudo-random capacities (the same for every seed). */
static gcut_graph *grid_graph(uint32_t seed)
{
    gcut_graph *g;
    const int32_t n = SIDE * SIDE;
    assert_int_equal(gcut_graph_new(&g, n, 2 * (int64_t)n), GCUT_OK);
    uint32_t x = seed;
    for (int32_t v = 0; v < n; v++) {
        const int32_t s = rnd(&x), t = rnd(&x);
        assert_int_equal(gcut_graph_add_tweights(g, v, s, t), GCUT_OK);
        if (v % SIDE + 1 < SIDE) {
            const int32_t c = rnd(&x) + 1, r = rnd(&x) + 1;
            assert_int_equal(gcut_graph_add_edge(g, v, v + 1, c, r), GCUT_OK);
        }
        if (v + SIDE < n) {
            const int32_t c = rnd(&x) + 1, r = rnd(&x) + 1;
            assert_int_equal(gcut_graph_add_edge(g, v, v + SIDE, c, r), GCUT_OK);
        }
    }
    return g;
}

typedef struct job {
    gcut_graph *g;
    const char *backend;
    gcut_status st;
    int64_t flow;
    uint8_t *cut;
} job;

static void *solve_main(void *arg)
{
    job *j = arg;
    gcut_solve_options o;
    gcut_solve_options_init(&o);
    o.backend = j->backend;
    o.threads = 1;
    gcut_result *r = NULL;
    j->st = gcut_result_new(&r);
    if (j->st == GCUT_OK)
        j->st = gcut_solve(j->g, &o, r);
    if (j->st == GCUT_OK) {
        j->flow = gcut_result_flow(r);
        const int32_t n = gcut_result_num_nodes(r);
        j->cut = malloc((size_t)n);
        if (j->cut)
            memcpy(j->cut, gcut_result_cut(r), (size_t)n);
    }
    gcut_result_free(r);
    return NULL;
}

/* Every round a fresh graph, so that the threads race for its first layout
 * (and for the records cpu-bk and cpu-eibfs keep with it); with `first`,
 * solved once with it before, so that they race for records a solve has
 * left (every other round with warm starts off). */
static void run_rounds(const char *const backends[THREADS], const char *first)
{
    for (uint32_t round = 0; round < 8; round++) {
        gcut_graph *ref = grid_graph(round + 1);
        int64_t want = 0;
        assert_int_equal(gcut_graph_maxflow(ref, "cpu-bk", &want), GCUT_OK);
        const int32_t n = gcut_graph_num_nodes(ref);

        gcut_graph *g = grid_graph(round + 1);
        if (first) {
            assert_int_equal(gcut_graph_set_warm_start(g, round % 2 == 0), GCUT_OK);
            int64_t f = 0;
            assert_int_equal(gcut_graph_maxflow(g, first, &f), GCUT_OK);
            assert_true(f == want);
        }
        job jobs[THREADS];
        pthread_t tid[THREADS];
        for (int t = 0; t < THREADS; t++) {
            jobs[t] = (job){g, backends[t], GCUT_ERR_INVALID, -1, NULL};
            assert_int_equal(pthread_create(&tid[t], NULL, solve_main, &jobs[t]), 0);
        }
        for (int t = 0; t < THREADS; t++)
            assert_int_equal(pthread_join(tid[t], NULL), 0);
        for (int t = 0; t < THREADS; t++) {
            assert_int_equal(jobs[t].st, GCUT_OK);
            assert_true(jobs[t].flow == want);
            assert_non_null(jobs[t].cut);
            /* The canonical cut: the same for every back end. */
            for (int32_t v = 0; v < n; v++)
                assert_int_equal(jobs[t].cut[v], gcut_graph_segment(ref, v));
            free(jobs[t].cut);
        }
        gcut_graph_free(g);
        gcut_graph_free(ref);
    }
}

static void test_same_backend(void **state)
{
    (void)state;
    const char *const bk[THREADS] = {"cpu-bk", "cpu-bk", "cpu-bk", "cpu-bk"};
    run_rounds(bk, NULL);
    run_rounds(bk, "cpu-bk");
    const char *const hipr[THREADS] = {"cpu-hipr", "cpu-hipr", "cpu-hipr", "cpu-hipr"};
    run_rounds(hipr, NULL);
    const char *const eibfs[THREADS] = {"cpu-eibfs", "cpu-eibfs", "cpu-eibfs", "cpu-eibfs"};
    run_rounds(eibfs, NULL);
    run_rounds(eibfs, "cpu-eibfs");
}

static void test_mixed_backends(void **state)
{
    (void)state;
    const char *const mixed[THREADS] = {"cpu-bk", "cpu-hipr", "cpu-prsn", "auto"};
    run_rounds(mixed, NULL);
    const char *const kept[THREADS] = {"cpu-eibfs", "cpu-bk", "cpu-eibfs", "cpu-bk"};
    run_rounds(kept, NULL);
    run_rounds(kept, "cpu-eibfs");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_backend),
        cmocka_unit_test(test_mixed_backends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
