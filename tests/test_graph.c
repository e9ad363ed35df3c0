/*
 * test_graph.c - the graph builder, its validation, the layouts, errors,
 * gcut_check_flow and the registry.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static void test_new_and_free(void **state)
{
    (void)state;
    gcut_graph *g = NULL;
    assert_int_equal(gcut_graph_new(&g, 5, 10), GCUT_OK);
    assert_int_equal(gcut_graph_num_nodes(g), 5);
    assert_int_equal(gcut_graph_num_edges(g), 0);
    int32_t first;
    assert_int_equal(gcut_graph_add_nodes(g, 3, &first), GCUT_OK);
    assert_int_equal(first, 5);
    assert_int_equal(gcut_graph_num_nodes(g), 8);
    gcut_graph_free(g);
    gcut_graph_free(NULL); /* a no-op */
}

static void test_bad_arguments(void **state)
{
    (void)state;
    gcut_graph *g = (gcut_graph *)0x1;
    assert_int_equal(gcut_graph_new(&g, -1, 0), GCUT_ERR_INVALID);
    assert_ptr_equal(g, (gcut_graph *)0x1); /* output unchanged on failure */
    assert_non_null(strstr(gcut_last_error(), "negative node count"));
    assert_int_equal(gcut_last_status(), GCUT_ERR_INVALID);
    assert_int_equal(gcut_graph_new(NULL, 3, 0), GCUT_ERR_INVALID);

    assert_int_equal(gcut_graph_new(&g, 3, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 3, 1, 1), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "out of range"));
    assert_int_equal(gcut_graph_add_edge(g, -1, 0, 1, 1), GCUT_ERR_INVALID);
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, -1, 1), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "negative capacity"));
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, 1, -5), GCUT_ERR_INVALID);
    assert_int_equal(gcut_graph_add_tweights(g, 7, 1, 1), GCUT_ERR_INVALID);
    assert_int_equal(gcut_graph_add_tweights(g, 0, -1, 1), GCUT_ERR_INVALID);
    assert_int_equal(gcut_graph_num_edges(g), 0);

    /* Terminal sums must fit int32; a failed call changes nothing. */
    assert_int_equal(gcut_graph_add_tweights(g, 1, INT32_MAX, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 1, 1, 0), GCUT_ERR_OVERFLOW);
    int32_t s, t;
    assert_int_equal(gcut_graph_get_tweights(g, 1, &s, &t), GCUT_OK);
    assert_int_equal(s, INT32_MAX);
    assert_int_equal(t, 0);
    gcut_graph_free(g);
}

static void test_bulk_validates_first(void **state)
{
    (void)state;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 4, 0), GCUT_OK);
    int32_t from[] = {0, 1, 2}, to[] = {1, 2, 9}, cap[] = {1, 2, 3};
    assert_int_equal(gcut_graph_add_edges(g, 3, from, to, cap, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "edge 2"));
    assert_int_equal(gcut_graph_num_edges(g), 0); /* nothing was added */
    to[2] = 3;
    int32_t rev[] = {4, 5, 6};
    assert_int_equal(gcut_graph_add_edges(g, 3, from, to, cap, rev), GCUT_OK);
    assert_int_equal(gcut_graph_num_edges(g), 3);
    int32_t u, v, c, rc;
    assert_int_equal(gcut_graph_get_edge(g, 2, &u, &v, &c, &rc), GCUT_OK);
    assert_int_equal(u, 2);
    assert_int_equal(v, 3);
    assert_int_equal(c, 3);
    assert_int_equal(rc, 6);
    assert_int_equal(gcut_graph_get_edge(g, 3, &u, &v, &c, &rc), GCUT_ERR_INVALID);

    int32_t src[] = {1, 2}, snk[] = {-1, 0};
    assert_int_equal(gcut_graph_add_tweights_bulk(g, 2, 2, src, snk), GCUT_ERR_INVALID);
    assert_int_equal(gcut_graph_get_tweights(g, 2, &u, &v), GCUT_OK);
    assert_int_equal(u, 0); /* unchanged */
    snk[0] = 7;
    assert_int_equal(gcut_graph_add_tweights_bulk(g, 2, 2, src, snk), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights_bulk(g, 2, 2, src, NULL), GCUT_OK);
    assert_int_equal(gcut_graph_get_tweights(g, 2, &u, &v), GCUT_OK);
    assert_int_equal(u, 2);
    assert_int_equal(v, 7);
    assert_int_equal(gcut_graph_add_tweights_bulk(g, 3, 2, src, snk), GCUT_ERR_INVALID);
    gcut_graph_free(g);
}

/* Many edges through the bulk path: the graph grows and solves. */
static void test_bulk_large(void **state)
{
    (void)state;
    const int32_t n = 20000;
    const int64_t m = 100000;
    int32_t *from = malloc(m * sizeof *from), *to = malloc(m * sizeof *to);
    int32_t *cap = malloc(m * sizeof *cap);
    tu_rng r = {42};
    for (int64_t i = 0; i < m; i++) {
        from[i] = (int32_t)tu_range(&r, 0, n - 1);
        to[i] = (int32_t)tu_range(&r, 0, n - 1);
        cap[i] = (int32_t)tu_range(&r, 0, 100);
    }
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, n, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edges(g, m / 2, from, to, cap, cap), GCUT_OK);
    assert_int_equal(gcut_graph_add_edges(g, m - m / 2, from + m / 2, to + m / 2, cap + m / 2, NULL),
                     GCUT_OK);
    assert_int_equal(gcut_graph_num_edges(g), m);
    for (int32_t v = 0; v < 100; v++)
        assert_int_equal(gcut_graph_add_tweights(g, v, 1000, 0), GCUT_OK);
    for (int32_t v = n - 100; v < n; v++)
        assert_int_equal(gcut_graph_add_tweights(g, v, 0, 1000), GCUT_OK);
    assert_int_equal(gcut_graph_freeze(g), GCUT_OK);
    int64_t flow = -1;
    assert_int_equal(gcut_graph_maxflow(g, "cpu-ref", &flow), GCUT_OK);
    assert_true(flow > 0);
    uint8_t *cut;
    assert_int_equal(tu_solve(g, "cpu-ref", &cut), flow);
    assert_int_equal(gcut_check_flow(g, flow, NULL, cut), GCUT_OK);
    free(cut);
    gcut_graph_free(g);
    free(from);
    free(to);
    free(cap);
}

/*
 * The BK-style basic interface on the example of graph.h:
 *
 *   s --10--> 0 --5--> 1 --9--> 2 --7--> t        (and 2 --3--> 1)
 *
 * The bottleneck is 0 -> 1 (5): flow 5, and nodes 1 and 2 still reach t.
 */
static void test_basic_interface(void **state)
{
    (void)state;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 3, 2), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 10, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 2, 0, 7), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, 5, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 1, 2, 9, 3), GCUT_OK);
    assert_int_equal(gcut_graph_segment(g, 1), GCUT_SOURCE); /* not solved yet */
    int64_t flow;
    assert_int_equal(gcut_graph_maxflow(g, NULL, &flow), GCUT_OK);
    assert_int_equal(flow, 5);
    assert_int_equal(gcut_graph_segment(g, 0), GCUT_SOURCE);
    assert_int_equal(gcut_graph_segment(g, 1), GCUT_SINK);
    assert_int_equal(gcut_graph_segment(g, 2), GCUT_SINK);
    assert_int_equal(gcut_graph_segment(g, 99), GCUT_SOURCE);
    /* A change drops the cut and the next solve sees it. */
    assert_int_equal(gcut_graph_add_edge(g, 0, 2, 4, 0), GCUT_OK);
    assert_int_equal(gcut_graph_maxflow(g, "cpu-ref", &flow), GCUT_OK);
    assert_int_equal(flow, 7);
    gcut_graph_free(g);
}

static void test_check_flow_rejects(void **state)
{
    (void)state;
    gcut_graph *g;
    /* s -3-> 0 -2-> 1 -3-> t : max flow 2, cut {0 | 1}. */
    assert_int_equal(gcut_graph_new(&g, 2, 1), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 3, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 1, 0, 3), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, 2, 0), GCUT_OK);
    int32_t f_ok[] = {2}, f_over[] = {3}, f_neg[] = {-1};
    uint8_t cut_ok[] = {GCUT_SOURCE, GCUT_SINK}, cut_bad[] = {GCUT_SINK, GCUT_SINK};
    assert_int_equal(gcut_check_flow(g, 2, f_ok, cut_ok), GCUT_OK);
    assert_int_equal(gcut_check_flow(g, 2, f_over, NULL), GCUT_ERR_CHECK);
    assert_non_null(strstr(gcut_last_error(), "outside"));
    assert_int_equal(gcut_check_flow(g, 2, f_neg, NULL), GCUT_ERR_CHECK);
    assert_int_equal(gcut_check_flow(g, 1, f_ok, NULL), GCUT_ERR_CHECK);
    assert_non_null(strstr(gcut_last_error(), "carry 2"));
    assert_int_equal(gcut_check_flow(g, 2, NULL, cut_bad), GCUT_ERR_CHECK);
    assert_non_null(strstr(gcut_last_error(), "cut capacity 3"));
    int64_t c;
    assert_int_equal(gcut_cut_capacity(g, cut_bad, &c), GCUT_OK);
    assert_int_equal(c, 3);
    /* Conservation: a node cannot get rid of flow it has no terminal room for. */
    gcut_graph *h;
    assert_int_equal(gcut_graph_new(&h, 2, 1), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(h, 0, 1, 5, 0), GCUT_OK);
    int32_t f5[] = {5};
    assert_int_equal(gcut_check_flow(h, 0, f5, NULL), GCUT_ERR_CHECK);
    assert_non_null(strstr(gcut_last_error(), "balanced"));
    gcut_graph_free(h);
    gcut_graph_free(g);
}

/* Direct terminal flow (s -> v -> t) counts, and self-loops carry nothing. */
static void test_check_flow_direct(void **state)
{
    (void)state;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 1, 1), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 5, 7), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 0, 9, 9), GCUT_OK);
    int32_t f[] = {0};
    assert_int_equal(gcut_check_flow(g, 5, f, NULL), GCUT_OK);
    uint8_t cut[] = {GCUT_SINK};
    assert_int_equal(gcut_check_flow(g, 5, f, cut), GCUT_OK);
    assert_int_equal(tu_solve(g, "cpu-ref", NULL), 5);
    gcut_graph_free(g);
}

static void test_registry(void **state)
{
    (void)state;
    assert_true(gcut_backend_count() >= 5);
    int32_t i;
    assert_int_equal(gcut_backend_find("cpu-ref", &i), GCUT_OK);
    assert_string_equal(gcut_backend_name(i), "cpu-ref");
    assert_true(gcut_backend_available(i, NULL));
    assert_true(gcut_backend_caps(i) & GCUT_BACKEND_REFERENCE);
    assert_int_equal(gcut_backend_find("no-such", &i), GCUT_ERR_NOT_FOUND);
    assert_non_null(strstr(gcut_last_error(), "known: "));
    assert_null(gcut_backend_name(-1));
    assert_null(gcut_backend_name(gcut_backend_count()));
    /* The GPU back end is always listed, available or with a reason. */
    assert_int_equal(gcut_backend_find("cuda-csr", &i), GCUT_OK);
    const char *why = NULL;
    (void)gcut_backend_available(i, &why);
    assert_non_null(why);
    assert_true(strlen(why) > 0);

    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 2, 0), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    opt.backend = "no-such";
    assert_int_equal(gcut_solve(g, &opt, res), GCUT_ERR_NOT_FOUND);
    opt.backend = "auto";
    assert_int_equal(gcut_solve(g, &opt, res), GCUT_OK);
    assert_non_null(strstr(gcut_result_reason(res), "auto: "));
    assert_true(strlen(gcut_result_backend(res)) > 0);
    opt.backend = "cpu-ref";
    opt.threads = -2;
    assert_int_equal(gcut_solve(g, &opt, res), GCUT_ERR_INVALID);
    opt.threads = 0;
    opt.struct_size = 0;
    assert_int_equal(gcut_solve(g, &opt, res), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "gcut_solve_options_init"));
    gcut_result_free(res);
    gcut_graph_free(g);
}

/* The engine auto takes for g (gcut_backend_choose), and whether it has
 * capability bit want and the reason says `says`. */
static void expect_auto(const gcut_graph *g, uint32_t want, const char *says)
{
    int32_t idx = -1;
    const char *why = NULL;
    assert_int_equal(gcut_backend_choose(g, NULL, &idx, &why), GCUT_OK);
    if (!(gcut_backend_caps(idx) & want) || !strstr(why, says))
        fail_msg("auto took %s (%s); want the bit %#x and \"%s\"", gcut_backend_name(idx), why,
                 (unsigned)want, says);
}

/* auto's classes of general graphs on the CPU: vision-like, dense, with
 * hubs, general; a super source given as a node with many edges is not a
 * hub. */
static void test_auto_classes(void **state)
{
    (void)state;
    /* Dense: a complete DAG on 100 nodes (49.5 edges per node). */
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 100, 0), GCUT_OK);
    for (int32_t u = 0; u < 100; u++)
        for (int32_t v = u + 1; v < 100; v++)
            assert_int_equal(gcut_graph_add_edge(g, u, v, 1 + (u * 7 + v) % 13, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 1000, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 99, 0, 1000), GCUT_OK);
    expect_auto(g, GCUT_BACKEND_AUTO_DENSE, "dense graph");
    gcut_graph_free(g);
    /* Hubs: a sparse ring of 20000 nodes and 10 hubs of degree 1000. */
    const int32_t n = 20000;
    assert_int_equal(gcut_graph_new(&g, n, 0), GCUT_OK);
    for (int32_t v = 0; v < n; v++)
        assert_int_equal(gcut_graph_add_edge(g, v, (v + 1) % n, 3, 3), GCUT_OK);
    for (int32_t h = 0; h < 10; h++)
        for (int32_t k = 0; k < 1000; k++)
            assert_int_equal(gcut_graph_add_edge(g, 100 + h, 1000 + (h * 1000 + k * 7) % 19000, 2, 1),
                             GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 50, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, n / 2, 0, 50), GCUT_OK);
    expect_auto(g, GCUT_BACKEND_AUTO_HUBS, "graph with hubs");
    gcut_graph_free(g);
    /* General: the same ring with one super source of degree 5000 as a
     * node (one hub, and it carries the source link). */
    assert_int_equal(gcut_graph_new(&g, n, 0), GCUT_OK);
    for (int32_t v = 0; v < n; v++)
        assert_int_equal(gcut_graph_add_edge(g, v, (v + 1) % n, 3, 3), GCUT_OK);
    for (int32_t k = 0; k < 5000; k++)
        assert_int_equal(gcut_graph_add_edge(g, 0, 1 + k * 3, 2, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 100000, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, n - 1, 0, 100000), GCUT_OK);
    expect_auto(g, GCUT_BACKEND_AUTO_GENERAL, "general graph");
    gcut_graph_free(g);
}

static int g_log_lines;
static void count_log(void *user, gcut_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    assert_non_null(msg);
    g_log_lines++;
}

static void test_log_callback(void **state)
{
    (void)state;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 1, 0), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.verbosity = 2;
    opt.log = count_log;
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    g_log_lines = 0;
    assert_int_equal(gcut_solve(g, &opt, res), GCUT_OK);
    assert_true(g_log_lines >= 1); /* at least the auto choice */
    opt.verbosity = 0;
    g_log_lines = 0;
    assert_int_equal(gcut_solve(g, &opt, res), GCUT_OK);
    assert_int_equal(g_log_lines, 0);
    gcut_result_free(res);
    gcut_graph_free(g);
}

static void test_status_strings(void **state)
{
    (void)state;
    for (int s = GCUT_OK; s <= GCUT_ERR_INTERNAL; s++) {
        assert_non_null(gcut_status_string((gcut_status)s));
        assert_string_not_equal(gcut_status_string((gcut_status)s), "unknown status");
    }
    assert_string_equal(gcut_status_string((gcut_status)999), "unknown status");
    gcut_clear_error();
    assert_string_equal(gcut_last_error(), "");
    assert_int_equal(gcut_last_status(), GCUT_OK);
    assert_string_equal(gcut_version(), GCUT_VERSION_STRING);
    assert_true(GCUT_VERSION_ATLEAST(0, 1, 0));
    assert_false(GCUT_VERSION_ATLEAST(99, 0, 0));
}

/* Back-end settings: one syntax, clear errors, unknown keys refused. */
static void test_params(void **state)
{
    (void)state;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 2, 1), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 3, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 1, 0, 3), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, 2, 0), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    static const struct {
        const char *backend, *params, *message;
    } bad[] = {
        {"cpu-ref", "x=1", "cpu-ref: unknown parameter 'x' (it takes none)"},
        {"cpu-hipr", "variant=tc", "cpu-hipr: unknown parameter 'variant'"},
        {"cpu-bk", "ts_limit", "cpu-bk: malformed parameter 'ts_limit' (want key=value)"},
        {"cpu-bk", "ts_limit=0", "ts_limit=0 is not an integer in [1, "},
        {"cpu-bk", "foo=2", "unknown parameter 'foo' (known: ts_limit)"},
        {"cpu-prsn", "hl=2", "cpu-prsn: hl=2 is not an integer in [0, 1]"},
        {"cpu-prsn", "gr_freq=-1", "gr_freq=-1 is not a number >= 0"},
        {"cpu-prsn", "seq_below=5,=3", "malformed parameter '=3'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (!tu_backend_available(bad[i].backend))
            continue;
        opt.backend = bad[i].backend;
        opt.params = bad[i].params;
        assert_int_equal(gcut_solve(g, &opt, res), GCUT_ERR_INVALID);
        if (!strstr(gcut_last_error(), bad[i].message))
            fail_msg("%s %s: got '%s'", bad[i].backend, bad[i].params, gcut_last_error());
    }
    opt.backend = "cpu-prsn";
    opt.params = "seq_below=0,hl=1,gr_freq=0.5";
    if (tu_backend_available("cpu-prsn")) {
        assert_int_equal(gcut_solve(g, &opt, res), GCUT_OK);
        assert_int_equal(gcut_result_flow(res), 2);
    }
    gcut_result_free(res);
    gcut_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_and_free),      cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_bulk_validates_first), cmocka_unit_test(test_bulk_large),
        cmocka_unit_test(test_basic_interface),   cmocka_unit_test(test_check_flow_rejects),
        cmocka_unit_test(test_check_flow_direct), cmocka_unit_test(test_registry),
        cmocka_unit_test(test_log_callback),      cmocka_unit_test(test_status_strings),
        cmocka_unit_test(test_params),            cmocka_unit_test(test_auto_classes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
