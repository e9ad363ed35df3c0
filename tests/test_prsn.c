/*
 * test_prsn.c - what is particular to cpu-prsn: its code paths forced one
 * by one through its parameters (synchronous rounds on the pool, rounds on
 * the driving thread, highest-label bursts, frequent hand-overs between
 * them, no periodic global relabelling), on every random family and on
 * several thread counts; the winner rule on a hand-made graph where two
 * adjacent active nodes want the same arc pair; statistics, parameter
 * errors and the time limit. Default-parameter runs against cpu-ref are
 * test_crosscheck's job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define PRSN "cpu-prsn"

static gcut_status solve_prsn(gcut_graph *g, int32_t threads, const char *params,
                              double time_limit, gcut_result *res)
{
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = PRSN;
    opt.threads = threads;
    opt.params = params;
    opt.time_limit = time_limit;
    return gcut_solve(g, &opt, res);
}

/*
 *              10          4
 *   source ---------> a ---------> c ---9---> sink
 *                     ^|                       ^
 *                    5||5                      |
 *                     |v           4           |9
 *   source ---------> b ---------> d ----------+
 *              10
 *
 * Flow 8 (the cut {a, b} | {c, d}: a->c + b->d). After a->c and b->d are
 * full, a and b are adjacent, both active, with equal labels, and both want
 * the arc pair between them: only the winner of the pair may use it in a
 * round, and the loser must cap its label.
 */
static void test_adjacent_active(void **state)
{
    (void)state;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 4, 3), GCUT_OK);
    const int32_t a = 0, b = 1, c = 2, d = 3;
    assert_int_equal(gcut_graph_add_tweights(g, a, 10, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, b, 10, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, c, 0, 9), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, d, 0, 9), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, a, b, 5, 5), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, a, c, 4, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, b, d, 4, 0), GCUT_OK);
    static const char *params[] = {NULL, "seq_below=0", "hl=0", "seq_below=0,gr_freq=0"};
    gcut_result *r;
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    for (int32_t t = 1; t <= 4; t++)
        for (size_t k = 0; k < sizeof params / sizeof *params; k++) {
            assert_int_equal(solve_prsn(g, t, params[k], 0, r), GCUT_OK);
            assert_int_equal(gcut_result_flow(r), 8);
            const uint8_t *cut = gcut_result_cut(r);
            assert_int_equal(cut[a], GCUT_SOURCE);
            assert_int_equal(cut[b], GCUT_SOURCE);
            assert_int_equal(cut[c], GCUT_SINK);
            assert_int_equal(cut[d], GCUT_SINK);
            char label[64];
            snprintf(label, sizeof label, "adjacent-t%d-p%d", (int)t, (int)k);
            assert_int_equal(tu_crosscheck(g, PRSN, 1, t, params[k], label), 0);
        }
    gcut_result_free(r);
    gcut_graph_free(g);
}

/* Every random family and capacity kind, each path forced in turn. */
static void test_paths_crosscheck(void **state)
{
    (void)state;
    static const char *params[] = {
        "seq_below=0",              /* synchronous rounds on the pool, always */
        "seq_below=0,gr_freq=0",    /* ... with only the first global relabelling */
        "hl=0",                     /* rounds, small ones on the driver */
        "seq_below=4",              /* bursts handing back to rounds often */
        "seq_below=2,gr_freq=0.05", /* ... with frequent global relabellings */
        NULL,                       /* defaults */
    };
    const int cases = tu_scaled(24);
    int bad = 0;
    for (int i = 0; i < cases; i++) {
        const tu_family fam = (tu_family)(i % TU_FAMILY_COUNT);
        const tu_caps caps = (tu_caps)((i / TU_FAMILY_COUNT) % TU_CAPS_COUNT);
        const uint64_t seed = 9000 + (uint64_t)i;
        gcut_graph *g = tu_random_graph(seed, fam, caps, 40 + (i % 5) * 60);
        assert_non_null(g);
        for (size_t k = 0; k < sizeof params / sizeof *params; k++) {
            const int32_t threads = 1 + (int32_t)((i + k) % 4);
            const int flows = (int)((i + k) % 3 == 0);
            char label[160];
            snprintf(label, sizeof label, "prsn-%s-%s-seed%llu-t%d-%s", tu_family_name(fam),
                     tu_caps_name(caps), (unsigned long long)seed, (int)threads,
                     params[k] ? params[k] : "default");
            bad |= tu_crosscheck(g, PRSN, flows, threads, params[k], label);
        }
        gcut_graph_free(g);
    }
    assert_int_equal(bad, 0);
}

/* Larger grids, so that rounds have many nodes and the dense commit, the
 * parallel global relabelling and the parallel cut run. */
static void test_large_grids(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++) {
        gcut_graph *g = tu_random_graph(77 + (uint64_t)i, TU_GRID2D,
                                        i ? TU_CAPS_HUGE : TU_CAPS_MEDIUM, 40000);
        assert_non_null(g);
        char label[64];
        snprintf(label, sizeof label, "prsn-large-grid-%d-rounds", i);
        assert_int_equal(tu_crosscheck(g, PRSN, i, 3, "seq_below=0", label), 0);
        snprintf(label, sizeof label, "prsn-large-grid-%d-default", i);
        assert_int_equal(tu_crosscheck(g, PRSN, 0, 2, NULL, label), 0);
        gcut_graph_free(g);
    }
}

/* The same flow and cut bytes for every thread count and path. */
static void test_thread_counts_agree(void **state)
{
    (void)state;
    gcut_graph *g = tu_random_graph(4242, TU_SPARSE, TU_CAPS_MIXED, 3000);
    assert_non_null(g);
    const int32_t n = gcut_graph_num_nodes(g);
    gcut_result *first, *r;
    assert_int_equal(gcut_result_new(&first), GCUT_OK);
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    assert_int_equal(solve_prsn(g, 1, NULL, 0, first), GCUT_OK);
    static const int32_t threads[] = {1, 2, 3, 4, 8};
    for (size_t i = 0; i < sizeof threads / sizeof *threads; i++) {
        assert_int_equal(solve_prsn(g, threads[i], "seq_below=0", 0, r), GCUT_OK);
        assert_int_equal(gcut_result_flow(r), gcut_result_flow(first));
        assert_memory_equal(gcut_result_cut(r), gcut_result_cut(first), (size_t)n);
        assert_int_equal(gcut_result_stats(r)->threads, threads[i]);
    }
    gcut_result_free(first);
    gcut_result_free(r);
    gcut_graph_free(g);
}

static void test_stats(void **state)
{
    (void)state;
    gcut_graph *g = tu_random_graph(5, TU_GRID2D, TU_CAPS_MEDIUM, 2500);
    assert_non_null(g);
    gcut_result *r;
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    assert_int_equal(solve_prsn(g, 2, "seq_below=0", 0, r), GCUT_OK);
    const gcut_stats *st = gcut_result_stats(r);
    assert_string_equal(gcut_result_backend(r), PRSN);
    assert_int_equal(st->threads, 2);
    assert_true(st->rounds > 0);
    assert_true(st->global_relabels >= 1);
    assert_true(st->pushes > 0);
    assert_int_equal(solve_prsn(g, 1, NULL, 0, r), GCUT_OK);
    assert_int_equal(gcut_result_stats(r)->threads, 1);
    gcut_result_free(r);
    gcut_graph_free(g);
}

static void test_params(void **state)
{
    (void)state;
    gcut_graph *g = tu_random_graph(6, TU_SPARSE, TU_CAPS_SMALL, 50);
    assert_non_null(g);
    gcut_result *r;
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    static const char *bad[] = {"colour=red", "seq_below", "seq_below=-1", "seq_below=x",
                                "gr_freq=-2", "hl=2", ",hl=1", "=3"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(solve_prsn(g, 1, bad[i], 0, r), GCUT_ERR_INVALID);
        assert_non_null(strstr(gcut_last_error(), "cpu-prsn"));
    }
    assert_int_equal(solve_prsn(g, 1, "seq_below=10,hl=1,gr_freq=2.5", 0, r), GCUT_OK);
    assert_int_equal(solve_prsn(g, 1, "", 0, r), GCUT_OK);
    gcut_result_free(r);
    gcut_graph_free(g);
}

static void test_time_limit(void **state)
{
    (void)state;
    gcut_graph *g = tu_random_graph(8, TU_GRID2D, TU_CAPS_MEDIUM, 20000);
    assert_non_null(g);
    gcut_result *r;
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    assert_int_equal(solve_prsn(g, 2, "seq_below=0", 1e-9, r), GCUT_ERR_TIMEOUT);
    assert_int_equal(solve_prsn(g, 1, NULL, 1e-9, r), GCUT_ERR_TIMEOUT);
    assert_int_equal(solve_prsn(g, 2, NULL, 60, r), GCUT_OK);
    gcut_result_free(r);
    gcut_graph_free(g);
}

int main(void)
{
    if (!tu_backend_available(PRSN)) {
        fprintf(stderr, "cpu-prsn is not available: skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adjacent_active),   cmocka_unit_test(test_paths_crosscheck),
        cmocka_unit_test(test_large_grids),       cmocka_unit_test(test_thread_counts_agree),
        cmocka_unit_test(test_stats),             cmocka_unit_test(test_params),
        cmocka_unit_test(test_time_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
