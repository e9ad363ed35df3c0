/*
 * test_gpu_match.c - cuda-match-gpr (G-PR) against Hopcroft-Karp: the
 * cardinality and the König certificate of gcut_match_check, on random
 * bipartite graphs of the shapes of test_match.c and on larger ones, with
 * every initial heuristic. Each match is repeated (GCUT_GPU_REPEAT, default
 * 5): G-PR's threads race for rows, and a cardinality that changes between
 * repeats, or a certificate that fails once, is a race.
 *
 * Matching as max-flow solved by cuda-csr (the reduction of
 * bench/match_flow.c, compiled in) is checked the same way, once per graph
 * and repeat, when cuda-csr is available.
 *
 * GCUT_GPU_QUICK=1 runs the small shapes alone (for compute-sanitizer).
 *
 * Exits 77 (skip) with a message when cuda-match-gpr is unavailable: no
 * plugin, no device or no driver.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match_flow.h"
#include "testutil.h"

static int g_repeat = 5;
static int g_flow_csr; /* cuda-csr available */

static const gcut_match_init INITS[] = {GCUT_MATCH_INIT_NONE, GCUT_MATCH_INIT_GREEDY,
                                        GCUT_MATCH_INIT_KS};

/* Match with a back end, check the certificate, return the cardinality. */
static int64_t match_checked(const gcut_bipartite *b, const char *backend, gcut_match_init init)
{
    gcut_match_options opt;
    gcut_match_options_init(&opt);
    opt.backend = backend;
    opt.init = init;
    opt.want_cover = 1;
    gcut_match_result *res = NULL;
    assert_int_equal(gcut_match_result_new(&res), GCUT_OK);
    if (gcut_match(b, &opt, res) != GCUT_OK)
        fail_msg("%s init %d: %s", backend, (int)init, gcut_last_error());
    const int64_t card = gcut_match_result_cardinality(res);
    if (gcut_match_check(b, gcut_match_result_row_mates(res), gcut_match_result_col_mates(res),
                         card, NULL, NULL) != GCUT_OK)
        fail_msg("%s init %d: check: %s", backend, (int)init, gcut_last_error());
    assert_string_equal(gcut_match_result_backend(res), backend);
    gcut_match_result_free(res);
    return card;
}

/* Matching as max-flow, solved by cuda-csr: the mates pass the
 * certificate; returns the cardinality. */
static int64_t flow_checked(const gcut_bipartite *b)
{
    char err[MFLOW_ERR_LEN];
    const int64_t card = mflow_match_checked(b, "cuda-csr", err);
    if (card < 0)
        fail_msg("max-flow (cuda-csr): %s", err);
    return card;
}

/* G-PR with every init, g_repeat times each, must find `expect`. */
static void gpr_all(const gcut_bipartite *b, int64_t expect)
{
    for (size_t i = 0; i < sizeof INITS / sizeof INITS[0]; i++)
        for (int rep = 0; rep < g_repeat; rep++) {
            const int64_t card = match_checked(b, "cuda-match-gpr", INITS[i]);
            if (card != expect)
                fail_msg("cuda-match-gpr init %d repeat %d: cardinality %lld, expected %lld",
                         (int)INITS[i], rep, (long long)card, (long long)expect);
        }
    /* Max-flow has no initial matching: one run per repeat. */
    for (int rep = 0; g_flow_csr && rep < g_repeat; rep++) {
        const int64_t card = flow_checked(b);
        if (card != expect)
            fail_msg("max-flow (cuda-csr) repeat %d: cardinality %lld, expected %lld", rep,
                     (long long)card, (long long)expect);
    }
}

/* Random graphs of shape: 0 sparse, 1 hidden perfect matching plus noise,
 * 2 deficient, 3 wide, 4 tall, 5 dense; sizes scale with `big`. */
static gcut_bipartite *random_bipartite(tu_rng *rng, int shape, int32_t big)
{
    int32_t nr = (int32_t)tu_range(rng, 0, big), nc = (int32_t)tu_range(rng, 0, big);
    if (shape == 1)
        nc = nr;
    else if (shape == 3) {
        nr = (int32_t)tu_range(rng, 1, 5);
        nc = (int32_t)tu_range(rng, big, 5 * big);
    } else if (shape == 4) {
        nr = (int32_t)tu_range(rng, big, 5 * big);
        nc = (int32_t)tu_range(rng, 1, 5);
    } else if (shape == 5) {
        nr = (int32_t)tu_range(rng, 1, 12);
        nc = (int32_t)tu_range(rng, 1, 12);
    }
    const int64_t cap = 4 * ((int64_t)nr + nc) + (int64_t)nr * nc * (shape == 5) + 1;
    int32_t *row = malloc((size_t)cap * sizeof *row), *col = malloc((size_t)cap * sizeof *col);
    assert_non_null(row);
    assert_non_null(col);
    int64_t m = 0;
    if (shape == 1)
        for (int32_t i = 0; i < nr; i++, m++) { /* identity, hidden by relabelling the columns */
            row[m] = i;
            col[m] = (int32_t)(((int64_t)i * 7919 + 13) % nr);
        }
    if (nr > 0 && nc > 0) {
        const int64_t extra = shape == 5   ? (int64_t)nr * nc * tu_range(rng, 1, 9) / 10
                              : shape == 2 ? tu_range(rng, 0, nr)
                                           : tu_range(rng, 0, 2 * ((int64_t)nr + nc));
        for (int64_t k = 0; k < extra && m < cap; k++, m++) {
            row[m] = (int32_t)tu_range(rng, 0, nr - 1);
            col[m] = (int32_t)tu_range(rng, 0, nc - 1);
        }
    }
    gcut_bipartite *b = NULL;
    assert_int_equal(gcut_bipartite_new(&b, nr, nc, row, col, m), GCUT_OK);
    free(row);
    free(col);
    return b;
}

static void run_shapes(uint64_t seed, int count, int32_t big)
{
    tu_rng rng = {seed};
    for (int it = 0; it < count; it++) {
        gcut_bipartite *b = random_bipartite(&rng, it % 6, big);
        const int64_t ref = match_checked(b, "cpu-match-hk", GCUT_MATCH_INIT_NONE);
        if (it % 6 == 1 && gcut_bipartite_num_rows(b) % 7919 != 0) /* then a permutation */
            assert_int_equal(ref, gcut_bipartite_num_rows(b));
        gpr_all(b, ref);
        gcut_bipartite_free(b);
    }
}

static void test_small_shapes(void **state)
{
    (void)state;
    run_shapes(2026, tu_scaled(120), 40);
}

static void test_larger_shapes(void **state)
{
    (void)state;
    run_shapes(77, tu_scaled(8), 20000);
}

/* A long alternating path: the greedy init leaves one free row at the far
 * end, so G-PR needs deep labels and many rounds. */
static void test_long_path(void **state)
{
    (void)state;
    const int32_t n = 3000;
    int32_t *row = malloc(2 * (size_t)n * sizeof *row), *col = malloc(2 * (size_t)n * sizeof *col);
    assert_non_null(row);
    assert_non_null(col);
    int64_t m = 0;
    for (int32_t i = 0; i < n; i++) { /* row i: columns i and i + 1 (when there) */
        row[m] = i;
        col[m++] = i;
        if (i + 1 < n) {
            row[m] = i + 1;
            col[m++] = i;
        }
    }
    gcut_bipartite *b = NULL;
    assert_int_equal(gcut_bipartite_new(&b, n, n, row, col, m), GCUT_OK);
    free(row);
    free(col);
    assert_int_equal(match_checked(b, "cpu-match-hk", GCUT_MATCH_INIT_NONE), n);
    gpr_all(b, n);
    gcut_bipartite_free(b);
}

int main(void)
{
    gcut_bipartite *probe = NULL;
    gcut_match_options opt;
    gcut_match_options_init(&opt);
    opt.backend = "cuda-match-gpr";
    gcut_match_result *res = NULL;
    if (gcut_bipartite_new(&probe, 0, 0, NULL, NULL, 0) != GCUT_OK ||
        gcut_match_result_new(&res) != GCUT_OK)
        return 1;
    const gcut_status st = gcut_match(probe, &opt, res);
    gcut_match_result_free(res);
    gcut_bipartite_free(probe);
    if (st != GCUT_OK) {
        printf("skip: cuda-match-gpr is unavailable: %s\n", gcut_last_error());
        return 77;
    }
    {
        int32_t i;
        const char *why = NULL;
        g_flow_csr =
            gcut_backend_find("cuda-csr", &i) == GCUT_OK && gcut_backend_available(i, &why);
        if (!g_flow_csr)
            printf("max-flow (cuda-csr) not tested: %s\n", why ? why : gcut_last_error());
    }
    const char *rep = getenv("GCUT_GPU_REPEAT");
    if (rep && atoi(rep) > 0)
        g_repeat = atoi(rep);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_shapes),
        cmocka_unit_test(test_long_path),
        cmocka_unit_test(test_larger_shapes),
    };
    const struct CMUnitTest quick_tests[] = {cmocka_unit_test(test_small_shapes)};
    /* GCUT_GPU_QUICK=1 (under compute-sanitizer): the small shapes only. */
    const char *quick = getenv("GCUT_GPU_QUICK");
    if (quick && atoi(quick) > 0)
        return cmocka_run_group_tests(quick_tests, NULL, NULL);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
