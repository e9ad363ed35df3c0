/*
 * plugin_test.c - the registry and the chooser with plugins other than the
 * CUDA one (tests/plugin/fake_plugin.c), one case per process (the registry
 * is set up once per process), named by $GCUT_TEST_PLUGIN_CASE:
 *   ok     a good plugin: named built-in back ends and automatic choices
 *          that a built-in engine settles never load it; its back end and
 *          extension are found; the expected CUDA back ends it does not
 *          provide are listed as unavailable with the reason, and naming
 *          one fails with GCUT_ERR_UNAVAILABLE;
 *   old    a plugin of the 0.1 ABI: refused with the reason;
 *   future a plugin of a newer ABI: refused with the reason;
 *   env    $GCUT_BACKEND names the back end of "auto", read once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gcut/gcut.h"
#include "gcut/plugin.h"
#include "core/core_internal.h"

static const char *test_case(void)
{
    const char *c = getenv("GCUT_TEST_PLUGIN_CASE");
    return c ? c : "";
}

static int entered(void) { return getenv("GCUT_FAKE_PLUGIN_ENTERED") != NULL; }

/* A small vision-like graph: every node has a terminal link. */
static gcut_graph *small_graph(void)
{
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 4, 4), GCUT_OK);
    for (int32_t v = 0; v < 4; v++)
        assert_int_equal(gcut_graph_add_tweights(g, v, v + 1, 4 - v), GCUT_OK);
    for (int32_t v = 0; v + 1 < 4; v++)
        assert_int_equal(gcut_graph_add_edge(g, v, v + 1, 2, 2), GCUT_OK);
    return g;
}

static int32_t find(const char *name)
{
    int32_t i = -1;
    assert_int_equal(gcut_backend_find(name, &i), GCUT_OK);
    return i;
}

static void test_ok(void **unused)
{
    (void)unused;
    gcut_graph *g = small_graph();
    int32_t idx;
    const char *why;
    /* Named built-in back ends and what they settle: no plugin load. */
    assert_int_equal(gcut_backend_choose(g, "cpu-bk", &idx, &why), GCUT_OK);
    assert_string_equal(gcut_backend_name(idx), "cpu-bk");
    gcut_solve_options o;
    gcut_solve_options_init(&o);
    o.backend = "cpu-hipr";
    gcut_result *r;
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    assert_int_equal(gcut_solve(g, &o, r), GCUT_OK);
    assert_int_equal(gcut_backend_choose(g, "auto", &idx, &why), GCUT_OK);
    assert_string_equal(gcut_backend_name(idx), "cpu-bk");
    assert_false(entered());
    /* The list loads the plugins: its back end, then the stand-ins. */
    const int32_t n = gcut_backend_count();
    assert_true(entered());
    const int32_t fake = find("fake-graph");
    assert_true(gcut_backend_available(fake, NULL));
    assert_true(gcut_backend_caps(fake) & GCUT_BACKEND_GRAPH);
    const int32_t csr = find("cuda-csr"), grid = find("cuda-grid");
    assert_true(csr < n && grid < n);
    const char *reason;
    assert_false(gcut_backend_available(grid, &reason));
    assert_non_null(strstr(reason, "libgcut_cuda.so"));
    assert_true(gcut_backend_caps(grid) & GCUT_BACKEND_GRID);
    assert_true(gcut_backend_caps(grid) & GCUT_BACKEND_GPU);
    assert_true(gcut_backend_caps(csr) & GCUT_BACKEND_GRAPH);
    assert_true(gcut_backend_caps(csr) & GCUT_BACKEND_AUTO_LARGE);
    assert_int_equal(gcut_backend_choose(g, "cuda-grid", &idx, &why), GCUT_ERR_UNAVAILABLE);
    assert_non_null(strstr(gcut_last_error(), "libgcut_cuda.so"));
    o.backend = "cuda-csr";
    assert_int_equal(gcut_solve(g, &o, r), GCUT_ERR_UNAVAILABLE);
    assert_int_equal(gcut_backend_choose(g, "nope", &idx, &why), GCUT_ERR_NOT_FOUND);
    /* Extensions by name, version and back end. */
    const int *t = gcut_i_plugin_extension("test.ext", 1, "fake-graph");
    assert_non_null(t);
    assert_int_equal(*t, 42);
    assert_ptr_equal(gcut_i_plugin_extension("test.ext", 1, NULL), t);
    assert_null(gcut_i_plugin_extension("test.ext", 2, "fake-graph"));
    assert_null(gcut_i_plugin_extension("test.ext", 1, "cpu-bk"));
    assert_null(gcut_i_plugin_extension("other", 1, NULL));
    gcut_result_free(r);
    gcut_graph_free(g);
}

/* A refused plugin: nothing of it is listed; the stand-ins say why. */
static void check_refused(const char *words)
{
    assert_int_equal(gcut_backend_find("fake-graph", &(int32_t){0}), GCUT_ERR_NOT_FOUND);
    assert_true(entered());
    const char *reason;
    assert_false(gcut_backend_available(find("cuda-grid"), &reason));
    assert_non_null(strstr(reason, words));
    assert_false(gcut_backend_available(find("cuda-csr"), &reason));
    assert_non_null(strstr(reason, words));
    gcut_graph *g = small_graph();
    int32_t idx;
    assert_int_equal(gcut_backend_choose(g, "cuda-csr", &idx, NULL), GCUT_ERR_UNAVAILABLE);
    assert_non_null(strstr(gcut_last_error(), words));
    gcut_graph_free(g); /* everything else still works */
    int64_t flow = 0;
    g = small_graph();
    assert_int_equal(gcut_graph_maxflow(g, NULL, &flow), GCUT_OK);
    assert_true(flow > 0);
    gcut_graph_free(g);
}

static void test_old(void **unused)
{
    (void)unused;
    check_refused("refused this libgcut, which speaks plugin ABI version 3");
}

static void test_future(void **unused)
{
    (void)unused;
    check_refused("speaks plugin ABI version 4, this libgcut needs version 3");
}

static void test_env(void **unused)
{
    (void)unused;
    gcut_graph *g = small_graph();
    int32_t idx;
    const char *why;
    assert_int_equal(gcut_backend_choose(g, NULL, &idx, &why), GCUT_OK);
    assert_string_equal(gcut_backend_name(idx), "cpu-ref");
    assert_string_equal(why, "named by $GCUT_BACKEND");
    /* Read once: changing it later changes nothing. */
    setenv("GCUT_BACKEND", "cpu-hipr", 1);
    assert_int_equal(gcut_backend_choose(g, "auto", &idx, &why), GCUT_OK);
    assert_string_equal(gcut_backend_name(idx), "cpu-ref");
    /* A name given by the caller wins. */
    assert_int_equal(gcut_backend_choose(g, "cpu-bk", &idx, &why), GCUT_OK);
    assert_string_equal(gcut_backend_name(idx), "cpu-bk");
    assert_string_equal(why, "named by the caller");
    gcut_grid *gr;
    assert_int_equal(gcut_grid_new(&gr, 4, 3, 1, 4), GCUT_OK);
    assert_int_equal(gcut_grid_backend_choose(gr, "auto", &idx, &why), GCUT_OK);
    assert_string_equal(gcut_backend_name(idx), "cpu-ref");
    assert_string_equal(gcut_i_grid_backend_name(NULL), "cpu-ref");
    gcut_grid_free(gr);
    gcut_graph_free(g);
}

int main(void)
{
    const char *c = test_case();
    if (strcmp(c, "ok") == 0) {
        const struct CMUnitTest t[] = {cmocka_unit_test(test_ok)};
        return cmocka_run_group_tests_name("plugin_ok", t, NULL, NULL);
    }
    if (strcmp(c, "old") == 0) {
        const struct CMUnitTest t[] = {cmocka_unit_test(test_old)};
        return cmocka_run_group_tests_name("plugin_old_abi", t, NULL, NULL);
    }
    if (strcmp(c, "future") == 0) {
        const struct CMUnitTest t[] = {cmocka_unit_test(test_future)};
        return cmocka_run_group_tests_name("plugin_future_abi", t, NULL, NULL);
    }
    if (strcmp(c, "env") == 0) {
        const struct CMUnitTest t[] = {cmocka_unit_test(test_env)};
        return cmocka_run_group_tests_name("chooser_env", t, NULL, NULL);
    }
    return 2;
}
