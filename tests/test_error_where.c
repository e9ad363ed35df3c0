/*
 * test_error_where.c - a failure's message names the public function the
 * caller called (GCUT_ENTRY, lib/core/core_internal.h), never the helper
 * or engine inside it that failed, and keeps a back end's name after it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static void expect_where(gcut_status got, gcut_status want, const char *prefix)
{
    assert_int_equal(got, want);
    const char *msg = gcut_last_error();
    if (strncmp(msg, prefix, strlen(prefix)) != 0)
        fail_msg("'%s' does not start with '%s'", msg, prefix);
}

static gcut_graph *small_graph(void)
{
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 3, 2), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 5, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 2, 0, 5), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, 3, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 1, 2, 4, 0), GCUT_OK);
    return g;
}

static void test_graph_solves(void **state)
{
    (void)state;
    gcut_graph *g = small_graph();
    gcut_result *r;
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    gcut_solve_options o;
    gcut_solve_options_init(&o);
    o.backend = "nope";
    expect_where(gcut_solve(g, &o, r), GCUT_ERR_NOT_FOUND, "gcut_solve: ");
    o.backend = "cuda-csr"; /* a stand-in: no plugin here */
    expect_where(gcut_solve(g, &o, r), GCUT_ERR_UNAVAILABLE, "gcut_solve: ");
    o.backend = "cpu-grid-pr"; /* solves grids only */
    const gcut_status st = gcut_solve(g, &o, r);
    assert_int_not_equal(st, GCUT_OK);
    expect_where(st, st, "gcut_solve: ");
    /* An engine's settings error: the entry, then the back end. */
    o.backend = "cpu-hipr";
    o.params = "nonsense=1";
    expect_where(gcut_solve(g, &o, r), GCUT_ERR_INVALID, "gcut_solve: cpu-hipr: ");
    o.params = NULL;
    /* A public function calling another: the outer one is named. */
    expect_where(gcut_graph_maxflow(g, "nope", NULL), GCUT_ERR_NOT_FOUND, "gcut_graph_maxflow: ");
    int32_t idx;
    expect_where(gcut_backend_choose(g, "nope", &idx, NULL), GCUT_ERR_NOT_FOUND,
                 "gcut_backend_choose: ");
    /* And a success in between leaves nothing named. */
    o.backend = "cpu-bk";
    assert_int_equal(gcut_solve(g, &o, r), GCUT_OK);
    expect_where(gcut_backend_find("nope", &idx), GCUT_ERR_NOT_FOUND, "gcut_backend_find: ");
    gcut_result_free(r);
    gcut_graph_free(g);
}

static void test_grid_solves(void **state)
{
    (void)state;
    gcut_grid *gr;
    assert_int_equal(gcut_grid_new(&gr, 4, 3, 1, 4), GCUT_OK);
    gcut_result *r;
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    gcut_solve_options o;
    gcut_solve_options_init(&o);
    o.backend = "cuda-grid"; /* a stand-in: no plugin here */
    expect_where(gcut_grid_solve(gr, &o, r), GCUT_ERR_UNAVAILABLE, "gcut_grid_solve: ");
    o.backend = "nope";
    expect_where(gcut_grid_solve(gr, &o, r), GCUT_ERR_NOT_FOUND, "gcut_grid_solve: ");
    int32_t idx;
    expect_where(gcut_grid_backend_choose(gr, "cuda-grid", &idx, NULL), GCUT_ERR_UNAVAILABLE,
                 "gcut_grid_backend_choose: ");
    gcut_result_free(r);
    gcut_grid_free(gr);
}

/* Readers: a failure of the Matrix Market build (here a size over the
 * memory budget) names gcut_bipartite_read_mtx once, never the internal
 * gcut_i_bipartite_build; a stopped call names the public function. */
static void test_readers_and_limits(void **state)
{
    (void)state;
    char path[64];
    snprintf(path, sizeof path, "/tmp/gcut-where-%d.mtx", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("%%MatrixMarket matrix coordinate pattern general\n2000000000 3 1\n1 1\n", f);
    fclose(f);
    gcut_set_max_memory((size_t)16 << 20);
    gcut_bipartite *b = NULL;
    expect_where(gcut_bipartite_read_mtx(&b, path), GCUT_ERR_NOMEM, "gcut_bipartite_read_mtx: ");
    const char *msg = gcut_last_error();
    assert_null(strstr(msg, "gcut_i_"));
    assert_null(strstr(msg + 1, "gcut_bipartite_read_mtx"));
    assert_non_null(strstr(msg, "memory budget"));
    gcut_set_max_memory(0);
    unlink(path);

    gcut_graph *g = small_graph();
    gcut_result *r;
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    gcut_solve_options o;
    gcut_solve_options_init(&o);
    o.max_memory = 16; /* bytes: nothing fits */
    expect_where(gcut_solve(g, &o, r), GCUT_ERR_NOMEM, "gcut_solve: ");
    expect_where(gcut_graph_maxflow(g, "cpu-bk", NULL), GCUT_OK, "");
    gcut_result_free(r);
    gcut_graph_free(g);
}

int main(void)
{
    /* No plugin: cuda-csr and cuda-grid are stand-ins on every machine. */
    setenv("GCUT_PLUGIN_PATH", "/nonexistent-gcut-plugins", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_graph_solves),
        cmocka_unit_test(test_grid_solves),
        cmocka_unit_test(test_readers_and_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
