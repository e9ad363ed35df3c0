/*
 * test_solvers.c - every back end on small hand-drawn graphs with known
 * answers (flow value and canonical cut), with and without flows.
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

typedef struct edge {
    int32_t u, v, cap, rev;
} edge;

typedef struct tcase {
    const char *name;
    int32_t n;
    const int32_t *src, *snk; /* n each */
    const edge *edges;
    int32_t m;
    int64_t flow;
    const uint8_t *cut;       /* expected canonical cut */
} tcase;

static gcut_graph *build(const tcase *c)
{
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, c->n, c->m), GCUT_OK);
    for (int32_t v = 0; v < c->n; v++)
        assert_int_equal(gcut_graph_add_tweights(g, v, c->src[v], c->snk[v]), GCUT_OK);
    for (int32_t i = 0; i < c->m; i++)
        assert_int_equal(gcut_graph_add_edge(g, c->edges[i].u, c->edges[i].v, c->edges[i].cap,
                                             c->edges[i].rev),
                         GCUT_OK);
    return g;
}

/*
 * CLRS figure 26.6 with s and t as terminal links:
 *
 *          16         12
 *   s ---------> v1 -------> v3 ---20--> t
 *   |            ^ \        ^ |
 *   | 13        4|   \9(v3->v2)  7|(v4->v3)
 *   v            |    v     |
 *   +----------> v2 ------> v4 ---4---> t
 *                     14
 * Max flow 23; the sink side of the canonical cut is {v3}.
 */
static const int32_t clrs_src[] = {16, 13, 0, 0}, clrs_snk[] = {0, 0, 20, 4};
static const edge clrs_edges[] = {{0, 2, 12, 0}, {1, 0, 4, 0}, {1, 3, 14, 0}, {2, 1, 9, 0}, {3, 2, 7, 0}};
static const uint8_t clrs_cut[] = {0, 0, 1, 0};

/*   s -10-> 0 -5-> 1 -9-> 2 -7-> t, and 2 -3-> 1: flow 5, sink side {1, 2}. */
static const int32_t chain_src[] = {10, 0, 0}, chain_snk[] = {0, 0, 7};
static const edge chain_edges[] = {{0, 1, 5, 0}, {1, 2, 9, 3}};
static const uint8_t chain_cut[] = {0, 1, 1};

/*
 *            4       5
 *   s -10-> a ---> b ---> d -20-> t      a -8-> c, c -3-> d, c -2-> b
 * b and c can pass on at most 5 + 3: flow 8, sink side {d}.
 */
static const int32_t dia_src[] = {10, 0, 0, 0}, dia_snk[] = {0, 0, 0, 20};
static const edge dia_edges[] = {{0, 1, 4, 0}, {0, 2, 8, 0}, {1, 3, 5, 0}, {2, 3, 3, 0}, {2, 1, 2, 0}};
static const uint8_t dia_cut[] = {0, 0, 0, 1};

/* Node 0 has both terminal links (s 5, t 3): 3 go straight through, 1 more
 * via 0 -1-> 1 -10-> t. Flow 4, sink side {1}. */
static const int32_t both_src[] = {5, 0}, both_snk[] = {3, 10};
static const edge both_edges[] = {{0, 1, 1, 0}};
static const uint8_t both_cut[] = {0, 1};

/* Only the reverse capacity of an edge can carry: edge (1, 0, cap 0, rev 6). */
static const int32_t rev_src[] = {10, 0}, rev_snk[] = {0, 10};
static const edge rev_edges[] = {{1, 0, 0, 6}};
static const uint8_t rev_cut[] = {0, 1};

/* No edges at all: flow 0; nodes with a sink link are on the sink side. */
static const int32_t iso_src[] = {5, 0, 0}, iso_snk[] = {0, 5, 0};
static const uint8_t iso_cut[] = {0, 1, 0};

/* Capacities at INT32_MAX: totals past 2^32 (3 * (2^31 - 1)). Parallel
 * edges and a self-loop ride along; the sink links are the bottleneck but
 * leave residual, so every node is on the sink side. */
#define BIG INT32_MAX
static const int32_t big_src[] = {BIG, BIG, BIG}, big_snk[] = {BIG, BIG, BIG};
static const edge big_edges[] = {{0, 1, BIG, BIG}, {0, 1, BIG, 0}, {2, 2, BIG, BIG}, {1, 2, BIG, BIG}};
static const uint8_t big_cut[] = {0, 0, 0};

/* s -> 0 (BIG), then 0 -> 1 and 0 -> 2 (BIG each), each with a sink link
 * of BIG: flow BIG, and however it splits node 0 keeps a residual path to
 * the sink, so all three nodes are on the sink side. */
static const int32_t split_src[] = {BIG, 0, 0}, split_snk[] = {0, BIG, BIG};
static const edge split_edges[] = {{0, 1, BIG, 0}, {0, 2, BIG, 0}};
static const uint8_t split_cut[] = {1, 1, 1};

static const tcase cases[] = {
    {"clrs", 4, clrs_src, clrs_snk, clrs_edges, 5, 23, clrs_cut},
    {"chain", 3, chain_src, chain_snk, chain_edges, 2, 5, chain_cut},
    {"diamond", 4, dia_src, dia_snk, dia_edges, 5, 8, dia_cut},
    {"both-terminals", 2, both_src, both_snk, both_edges, 1, 4, both_cut},
    {"reverse-only", 2, rev_src, rev_snk, rev_edges, 1, 6, rev_cut},
    {"isolated", 3, iso_src, iso_snk, NULL, 0, 0, iso_cut},
    {"huge", 3, big_src, big_snk, big_edges, 4, 3LL * BIG, big_cut},
    {"split", 3, split_src, split_snk, split_edges, 2, (int64_t)BIG, split_cut},
    {"empty", 0, NULL, NULL, NULL, 0, 0, NULL},
};

static void run_case(const char *backend, uint32_t caps, const tcase *c)
{
    gcut_graph *g = build(c);
    for (int flows = 0; flows <= ((caps & GCUT_BACKEND_FLOWS) != 0); flows++) {
        gcut_solve_options opt;
        gcut_solve_options_init(&opt);
        opt.backend = backend;
        opt.want_flows = flows;
        gcut_result *res;
        assert_int_equal(gcut_result_new(&res), GCUT_OK);
        if (gcut_solve(g, &opt, res) != GCUT_OK)
            fail_msg("%s on %s: %s", backend, c->name, gcut_last_error());
        if (gcut_result_flow(res) != c->flow)
            fail_msg("%s on %s: flow %lld, expected %lld", backend, c->name,
                     (long long)gcut_result_flow(res), (long long)c->flow);
        if (c->n && memcmp(gcut_result_cut(res), c->cut, (size_t)c->n) != 0)
            fail_msg("%s on %s: wrong canonical cut", backend, c->name);
        if (gcut_check_flow(g, c->flow, gcut_result_edge_flows(res), gcut_result_cut(res)) != GCUT_OK)
            fail_msg("%s on %s: %s", backend, c->name, gcut_last_error());
        assert_string_equal(gcut_result_backend(res), backend);
        assert_int_equal(gcut_result_num_nodes(res), c->n);
        assert_true(flows ? gcut_result_edge_flows(res) != NULL || c->m == 0
                          : gcut_result_edge_flows(res) == NULL);
        gcut_result_free(res);
    }
    gcut_graph_free(g);
}

static void test_hand_drawn(void **state)
{
    (void)state;
    int tested = 0;
    for (int32_t i = 0; i < gcut_backend_count(); i++) {
        const char *why;
        if (!(gcut_backend_caps(i) & GCUT_BACKEND_GRAPH))
            continue;
        if (!gcut_backend_available(i, &why)) {
            printf("# skip %s: %s\n", gcut_backend_name(i), why);
            continue;
        }
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
            run_case(gcut_backend_name(i), gcut_backend_caps(i), &cases[k]);
        tested++;
    }
    assert_true(tested >= 1);
}

/* A solve that fails leaves the previous result in place. */
static void test_result_unchanged_on_failure(void **state)
{
    (void)state;
    gcut_graph *g = build(&cases[0]);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    assert_int_equal(tu_solve(g, "cpu-ref", NULL), 23);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-ref";
    assert_int_equal(gcut_solve(g, &opt, res), GCUT_OK);
    opt.backend = "nonexistent";
    assert_int_equal(gcut_solve(g, &opt, res), GCUT_ERR_NOT_FOUND);
    assert_int_equal(gcut_result_flow(res), 23);
    assert_memory_equal(gcut_result_cut(res), clrs_cut, 4);
    gcut_result_free(res);
    gcut_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_drawn),
        cmocka_unit_test(test_result_unchanged_on_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
