/*
 * test_layout_threads.c - the layouts built by several threads (csr.c,
 * "parallel builds") are those of the serial build, array for array.
 *
 * Through the tests' hook gcut_i_csr_layouts, which builds BCSR and RCSR
 * serially (threads 1) or by T threads whatever the graph's size, on
 * random graphs of every shape: sparse and dense, self-loops, edges with a
 * zero capacity in one or both directions, parallel edges, isolated
 * nodes, hubs (a node range that holds most arcs), and fewer nodes than
 * threads (empty ranges). Every array of both views must be equal.
 */
#include <stdlib.h>
#include <string.h>

#include "gcut/plugin.h"
#include "testutil.h"

/* The tests' hook (graph_internal.h); the static library exports it to
 * this test, which declares it here rather than reach into lib/. */
gcut_status gcut_i_csr_layouts(const gcut_graph *g, int32_t threads, gcut_bcsr *b, gcut_rcsr *r,
                               void **stores);
void gcut_i_csr_layouts_free(void **stores);

static uint64_t g_rng = 0x2545f4914f6cdd1dull;

static uint32_t rnd(uint32_t k)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng % k);
}

#define SAME(what, a, b, count)                                                                    \
    do {                                                                                           \
        for (int64_t i_ = 0; i_ < (int64_t)(count); i_++)                                          \
            if ((a)[i_] != (b)[i_])                                                                \
                fail_msg("%s, %d threads: %s[%lld] is %lld, serial %lld", label, (int)threads,     \
                         what, (long long)i_, (long long)(b)[i_], (long long)(a)[i_]);             \
    } while (0)

static void expect_same_layouts(const gcut_graph *g, int32_t threads, const char *label)
{
    gcut_bcsr b1, b2;
    gcut_rcsr r1, r2;
    void *s1[2], *s2[2];
    assert_int_equal(gcut_i_csr_layouts(g, 1, &b1, &r1, s1), GCUT_OK);
    assert_int_equal(gcut_i_csr_layouts(g, threads, &b2, &r2, s2), GCUT_OK);
    assert_int_equal(b1.n, b2.n);
    assert_int_equal(b1.m, b2.m);
    SAME("bcsr.first", b1.first, b2.first, b1.n + 1);
    SAME("bcsr.head", b1.head, b2.head, b1.m);
    SAME("bcsr.sister", b1.sister, b2.sister, b1.m);
    SAME("bcsr.cap", b1.cap, b2.cap, b1.m);
    SAME("bcsr.edge", b1.edge, b2.edge, b1.m);
    assert_int_equal(r1.n, r2.n);
    assert_int_equal(r1.m, r2.m);
    SAME("rcsr.row", r1.row, r2.row, r1.n + 1);
    SAME("rcsr.col", r1.col, r2.col, r1.m);
    SAME("rcsr.cap", r1.cap, r2.cap, r1.m);
    SAME("rcsr.rrow", r1.rrow, r2.rrow, r1.n + 1);
    SAME("rcsr.rcol", r1.rcol, r2.rcol, r1.m);
    SAME("rcsr.rmap", r1.rmap, r2.rmap, r1.m);
    SAME("rcsr.edge", r1.edge, r2.edge, r1.m);
    gcut_i_csr_layouts_free(s1);
    gcut_i_csr_layouts_free(s2);
}

static gcut_graph *random_graph(int32_t n, int64_t m, int hubs)
{
    gcut_graph *g = NULL;
    assert_int_equal(gcut_graph_new(&g, n, m), GCUT_OK);
    for (int64_t e = 0; e < m; e++) {
        int32_t u = (int32_t)rnd((uint32_t)n), v = (int32_t)rnd((uint32_t)n);
        if (hubs && rnd(2))
            u = (int32_t)rnd(hubs < n ? (uint32_t)hubs : (uint32_t)n);
        if (rnd(20) == 0)
            v = u; /* self-loop: left out of both layouts */
        int32_t cap = rnd(3) ? (int32_t)rnd(100) : 0, rev = rnd(3) ? (int32_t)rnd(100) : 0;
        assert_int_equal(gcut_graph_add_edge(g, u, v, cap, rev), GCUT_OK);
    }
    return g;
}

static void test_random_graphs(void **state)
{
    (void)state;
    const int rounds = tu_scaled(60);
    for (int r = 0; r < rounds; r++) {
        const int32_t n = 1 + (int32_t)rnd(r % 4 == 0 ? 6 : 3000);
        const int64_t m = (int64_t)rnd(r % 3 == 0 ? 50 : 30000);
        gcut_graph *g = random_graph(n, m, r % 2 ? 3 : 0);
        static const int32_t threads[] = {2, 3, 4, 7, 16};
        char label[96];
        snprintf(label, sizeof label, "round %d (n %d, m %lld)", r, (int)n, (long long)m);
        for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++)
            expect_same_layouts(g, threads[t], label);
        gcut_graph_free(g);
    }
}

/* A graph past the size from which solves lay it out in parallel: the
 * solve's answer with 1 thread and with 4 (the layout is cached on the
 * graph, so each gets a graph of its own). */
static void test_solve_large(void **state)
{
    (void)state;
    const int32_t n = 200000;
    const int64_t m = (int64_t)1 << 22;
    int64_t flow[2];
    for (int k = 0; k < 2; k++) {
        g_rng = 0x9e3779b97f4a7c15ull;
        gcut_graph *g = random_graph(n, m, 0);
        for (int32_t v = 0; v < n; v += 7)
            assert_int_equal(gcut_graph_add_tweights(g, v, (int32_t)rnd(50), (int32_t)rnd(50)),
                             GCUT_OK);
        gcut_solve_options opt;
        gcut_solve_options_init(&opt);
        opt.backend = "cpu-hipr";
        opt.threads = k ? 4 : 1;
        gcut_result *res = NULL;
        assert_int_equal(gcut_result_new(&res), GCUT_OK);
        assert_int_equal(gcut_solve(g, &opt, res), GCUT_OK);
        flow[k] = gcut_result_flow(res);
        gcut_result_free(res);
        gcut_graph_free(g);
    }
    assert_true(flow[0] == flow[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_graphs),
        cmocka_unit_test(test_solve_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
