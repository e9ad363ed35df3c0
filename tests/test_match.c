/*
 * test_match.c - bipartite matching: the graph object, the Matrix Market
 * reader, every matcher and initial heuristic against Hopcroft-Karp, and
 * the König certificate. Matching solved as max-flow by cpu-hipr (the
 * reduction of bench/match_flow.c, compiled in) is checked the same way,
 * which also checks the max-flow engine on unit-capacity bipartite graphs.
 *
 * Files in data/mtx/ (the tests run from tests/):
 *   good_general.mtx       4 x 5 pattern, comments, a blank line, a CRLF
 *                          line and a duplicate entry (7 entries, 6 edges):
 *
 *                              c1  c2  c3  c4  c5
 *                          r1   x   x
 *                          r2   x                        maximum 3:
 *                          r3       x   x                r2-c1 r1-c2 r3-c3
 *                          r4           x x(dup)         (c4, c5 isolated)
 *
 *   good_symmetric.mtx     3 x 3 real symmetric, lower triangle stored:
 *                          (1,1) (2,1) (3,2) -> 5 edges, maximum 3
 *   good_skew_complex.mtx  3 x 3 complex skew-symmetric: (2,1) (3,1) ->
 *                          4 edges; r1: c2 c3, r2: c1, r3: c1 -> maximum 2
 *   bad_*.mtx              one malformed file per error the reader reports
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match_flow.h"
#include "testutil.h"

#define DATA "data/mtx/"

static const char *const BACKENDS[] = {"cpu-match-pr", "cpu-match-hk"};
static const gcut_match_init INITS[] = {GCUT_MATCH_INIT_NONE, GCUT_MATCH_INIT_GREEDY,
                                        GCUT_MATCH_INIT_KS};

/* Match with one back end and init, check the certificate, return the
 * cardinality. */
static int64_t match_checked(const gcut_bipartite *b, const char *backend, gcut_match_init init,
                             const int32_t *initial)
{
    gcut_match_options opt;
    gcut_match_options_init(&opt);
    opt.backend = backend;
    opt.init = init;
    opt.want_cover = 1;
    opt.initial_row_mates = initial;
    gcut_match_result *res = NULL;
    assert_int_equal(gcut_match_result_new(&res), GCUT_OK);
    gcut_status st = gcut_match(b, &opt, res);
    if (st != GCUT_OK)
        fail_msg("%s init %d: %s", backend, (int)init, gcut_last_error());
    const int64_t card = gcut_match_result_cardinality(res);
    st = gcut_match_check(b, gcut_match_result_row_mates(res), gcut_match_result_col_mates(res),
                          card, NULL, NULL);
    if (st != GCUT_OK)
        fail_msg("%s init %d: check: %s", backend, (int)init, gcut_last_error());
    /* The cover returned with the result is a cover of the same size. */
    const uint8_t *cr = gcut_match_result_cover_rows(res), *cc = gcut_match_result_cover_cols(res);
    assert_non_null(cr);
    assert_non_null(cc);
    const int64_t *off;
    const int32_t *cols;
    gcut_bipartite_rows_csr(b, &off, &cols);
    int64_t size = 0;
    for (int32_t r = 0; r < gcut_bipartite_num_rows(b); r++) {
        size += cr[r];
        for (int64_t k = off[r]; k < off[r + 1]; k++)
            assert_true(cr[r] || cc[cols[k]]);
    }
    for (int32_t c = 0; c < gcut_bipartite_num_cols(b); c++)
        size += cc[c];
    assert_int_equal(size, card);
    assert_string_equal(gcut_match_result_backend(res), backend);
    const gcut_match_stats *s = gcut_match_result_stats(res);
    assert_true(s->init_cardinality <= card);
    gcut_match_result_free(res);
    return card;
}

/* Matching as max-flow, solved by cpu-hipr: the mates pass the
 * certificate; returns the cardinality. */
static int64_t flow_checked(const gcut_bipartite *b)
{
    char err[MFLOW_ERR_LEN];
    const int64_t card = mflow_match_checked(b, "cpu-hipr", err);
    if (card < 0)
        fail_msg("max-flow (cpu-hipr): %s", err);
    return card;
}

/* Every back end with every init, and the max-flow reduction, must find
 * `expect`. */
static void match_all(const gcut_bipartite *b, int64_t expect)
{
    for (size_t i = 0; i < sizeof BACKENDS / sizeof *BACKENDS; i++)
        for (size_t j = 0; j < sizeof INITS / sizeof *INITS; j++) {
            const int64_t card = match_checked(b, BACKENDS[i], INITS[j], NULL);
            if (card != expect)
                fail_msg("%s init %d: cardinality %lld, expected %lld", BACKENDS[i],
                         (int)INITS[j], (long long)card, (long long)expect);
        }
    const int64_t card = flow_checked(b);
    if (card != expect)
        fail_msg("max-flow (cpu-hipr): cardinality %lld, expected %lld", (long long)card,
                 (long long)expect);
}

static gcut_bipartite *make(int32_t nr, int32_t nc, const int32_t *row, const int32_t *col,
                            int64_t m)
{
    gcut_bipartite *b = NULL;
    if (gcut_bipartite_new(&b, nr, nc, row, col, m) != GCUT_OK)
        fail_msg("%s", gcut_last_error());
    return b;
}

/*
 *   r0 - c0        greedy takes r0-c0 and leaves r1 free;
 *    \             the augmenting path r1 - c0 = r0 - c1 gives 2.
 *   r1 - c0
 *   r0 - c1
 */
static void test_hand_greedy_trap(void **state)
{
    (void)state;
    const int32_t row[] = {0, 0, 1}, col[] = {0, 1, 0};
    gcut_bipartite *b = make(2, 2, row, col, 3);
    match_all(b, 2);
    gcut_bipartite_free(b);
}

/*
 * A path of length 7 that every greedy order gets wrong in the middle:
 *   r0: c0 c1   r1: c1 c2   r2: c2 c3   r3: c3      maximum 4 (ri - ci ... )
 * plus a row r4 with no edge and a column c4 with no edge.
 */
static void test_hand_path(void **state)
{
    (void)state;
    const int32_t row[] = {0, 0, 1, 1, 2, 2, 3}, col[] = {1, 0, 2, 1, 3, 2, 3};
    gcut_bipartite *b = make(5, 5, row, col, 7);
    match_all(b, 4);
    /* An initial matching that blocks: r0-c1, r1-c2, r2-c3; r3 must augment
     * along r3 - c3 = r2 - c2 = r1 - c1 = r0 - c0. */
    const int32_t init[] = {1, 2, 3, -1, -1};
    for (size_t i = 0; i < sizeof BACKENDS / sizeof *BACKENDS; i++)
        assert_int_equal(match_checked(b, BACKENDS[i], GCUT_MATCH_INIT_NONE, init), 4);
    gcut_bipartite_free(b);
}

/* Complete K(3,5) with every edge given twice: maximum 3, 15 edges. */
static void test_hand_complete_dups(void **state)
{
    (void)state;
    int32_t row[30], col[30];
    for (int32_t k = 0; k < 30; k++) {
        row[k] = (k % 15) / 5;
        col[k] = k % 5;
    }
    gcut_bipartite *b = make(3, 5, row, col, 30);
    assert_int_equal(gcut_bipartite_num_edges(b), 15);
    assert_int_equal(gcut_bipartite_num_entries(b), 30);
    match_all(b, 3);
    gcut_bipartite_free(b);
}

static void test_empty(void **state)
{
    (void)state;
    gcut_bipartite *b = make(0, 0, NULL, NULL, 0);
    match_all(b, 0);
    gcut_bipartite_free(b);
    b = make(4, 0, NULL, NULL, 0);
    match_all(b, 0);
    gcut_bipartite_free(b);
    b = make(0, 7, NULL, NULL, 0);
    match_all(b, 0);
    gcut_bipartite_free(b);
    b = make(6, 6, NULL, NULL, 0);
    match_all(b, 0);
    gcut_bipartite_free(b);
}

/* Random shapes against Hopcroft-Karp with no initial heuristic. */
typedef enum shape { SH_EMPTY, SH_PERFECT, SH_DEFICIENT, SH_WIDE, SH_TALL, SH_DUPS, SH_DENSE, SH_N } shape;

static gcut_bipartite *random_bipartite(tu_rng *rng, shape sh)
{
    int32_t nr = (int32_t)tu_range(rng, 0, 40), nc = (int32_t)tu_range(rng, 0, 40);
    int64_t m = 0;
    if (sh == SH_WIDE) {
        nr = (int32_t)tu_range(rng, 1, 5);
        nc = (int32_t)tu_range(rng, 50, 200);
    } else if (sh == SH_TALL) {
        nr = (int32_t)tu_range(rng, 50, 200);
        nc = (int32_t)tu_range(rng, 1, 5);
    } else if (sh == SH_PERFECT) {
        nc = nr;
    } else if (sh == SH_DENSE) {
        nr = (int32_t)tu_range(rng, 1, 12);
        nc = (int32_t)tu_range(rng, 1, 12);
    }
    int64_t cap = 4 * ((int64_t)nr + nc) + (int64_t)nr * (sh == SH_DENSE ? nc : 0) + 1;
    int32_t *row = malloc((size_t)cap * sizeof *row), *col = malloc((size_t)cap * sizeof *col);
    assert_non_null(row);
    assert_non_null(col);
    if (sh == SH_PERFECT && nr > 0) {
        /* A hidden perfect matching (a random permutation) plus noise. */
        int32_t *perm = malloc((size_t)nr * sizeof *perm);
        for (int32_t i = 0; i < nr; i++)
            perm[i] = i;
        for (int32_t i = nr - 1; i > 0; i--) {
            int32_t j = (int32_t)tu_range(rng, 0, i), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (int32_t i = 0; i < nr; i++, m++) {
            row[m] = i;
            col[m] = perm[i];
        }
        free(perm);
    }
    if (sh != SH_EMPTY && nr > 0 && nc > 0) {
        int64_t extra = sh == SH_DENSE ? (int64_t)nr * nc * tu_range(rng, 1, 9) / 10
                        : sh == SH_DEFICIENT ? tu_range(rng, 0, nr)
                                             : tu_range(rng, 0, 2 * ((int64_t)nr + nc));
        for (int64_t k = 0; k < extra && m < cap; k++, m++) {
            row[m] = (int32_t)tu_range(rng, 0, nr - 1);
            col[m] = (int32_t)tu_range(rng, 0, nc - 1);
        }
        if (sh == SH_DUPS)
            for (int64_t k = 0; k < extra && m < cap; k++, m++) {
                int64_t e = tu_range(rng, 0, m - 1);
                row[m] = row[e];
                col[m] = col[e];
            }
    }
    gcut_bipartite *b = make(nr, nc, row, col, m);
    free(row);
    free(col);
    return b;
}

static void test_random_shapes(void **state)
{
    (void)state;
    tu_rng rng = {2026};
    const int count = tu_scaled(3500);
    for (int it = 0; it < count; it++) {
        const shape sh = (shape)(it % SH_N);
        gcut_bipartite *b = random_bipartite(&rng, sh);
        const int64_t ref = match_checked(b, "cpu-match-hk", GCUT_MATCH_INIT_NONE, NULL);
        if (sh == SH_PERFECT)
            assert_int_equal(ref, gcut_bipartite_num_rows(b));
        match_all(b, ref);

        /* A random valid initial matching: a prefix of a greedy pass. */
        const int32_t nr = gcut_bipartite_num_rows(b);
        int32_t *init = malloc(((size_t)nr + 1) * sizeof *init);
        uint8_t *taken = calloc((size_t)gcut_bipartite_num_cols(b) + 1, 1);
        const int64_t *off;
        const int32_t *cols;
        gcut_bipartite_rows_csr(b, &off, &cols);
        for (int32_t r = 0; r < nr; r++) {
            init[r] = -1;
            if (off[r + 1] > off[r] && tu_range(&rng, 0, 1)) {
                int32_t c = cols[tu_range(&rng, off[r], off[r + 1] - 1)];
                if (!taken[c]) {
                    taken[c] = 1;
                    init[r] = c;
                }
            }
        }
        assert_int_equal(match_checked(b, "cpu-match-pr", GCUT_MATCH_INIT_KS, init), ref);
        assert_int_equal(match_checked(b, "cpu-match-hk", GCUT_MATCH_INIT_NONE, init), ref);
        free(init);
        free(taken);
        gcut_bipartite_free(b);
    }
}

/* The checker refuses what is not a maximum matching, and says why. */
static void test_check_rejects(void **state)
{
    (void)state;
    const int32_t row[] = {0, 0, 1}, col[] = {0, 1, 0};
    gcut_bipartite *b = make(2, 2, row, col, 3);
    int32_t rm[2] = {0, -1}, cm[2] = {0, -1};
    assert_int_equal(gcut_match_check(b, rm, cm, 1, NULL, NULL), GCUT_ERR_CHECK);
    assert_non_null(strstr(gcut_last_error(), "augmenting path joins free row 1 to free column 1"));
    int32_t rm2[2] = {1, 0}, cm2[2] = {1, 0};
    assert_int_equal(gcut_match_check(b, rm2, cm2, 3, NULL, NULL), GCUT_ERR_CHECK);
    assert_non_null(strstr(gcut_last_error(), "cardinality 3"));
    int32_t rm3[2] = {1, 1}, cm3[2] = {-1, 1};
    assert_int_equal(gcut_match_check(b, rm3, cm3, 2, NULL, NULL), GCUT_ERR_CHECK);
    int32_t rm4[2] = {-1, 1}, cm4[2] = {-1, 1};
    assert_int_equal(gcut_match_check(b, rm4, cm4, 1, NULL, NULL), GCUT_ERR_CHECK);
    assert_non_null(strstr(gcut_last_error(), "not an edge"));
    uint8_t cr[2], cc[2];
    assert_int_equal(gcut_match_check(b, rm2, cm2, 2, cr, cc), GCUT_OK);
    assert_int_equal(cr[0] + cr[1] + cc[0] + cc[1], 2);
    gcut_bipartite_free(b);
}

static void test_errors(void **state)
{
    (void)state;
    gcut_bipartite *b = NULL;
    const int32_t row[] = {0, 2}, col[] = {0, 0};
    assert_int_equal(gcut_bipartite_new(&b, 2, 2, row, col, 2), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "edge 1 (2, 0): id out of range"));
    assert_null(b);
    assert_int_equal(gcut_bipartite_new(&b, -1, 2, NULL, NULL, 0), GCUT_ERR_INVALID);

    b = make(2, 2, row, col, 1);
    gcut_match_result *res = NULL;
    assert_int_equal(gcut_match_result_new(&res), GCUT_OK);
    gcut_match_options opt;
    gcut_match_options_init(&opt);
    assert_int_equal(gcut_match(b, &opt, res), GCUT_OK);
    assert_int_equal(gcut_match_result_cardinality(res), 1);
    assert_string_equal(gcut_match_result_backend(res), "cpu-match-pr");
    assert_null(gcut_match_result_cover_rows(res));
    const int32_t *mates = gcut_match_result_row_mates(res);

    opt.backend = "cpu-match-nope";
    assert_int_equal(gcut_match(b, &opt, res), GCUT_ERR_NOT_FOUND);
    opt.backend = "cpu-match-hk";
    const int32_t bad_init[] = {1, -1};
    opt.initial_row_mates = bad_init;
    assert_int_equal(gcut_match(b, &opt, res), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "(0, 1) is not an edge"));
    /* The failures left the result as it was. */
    assert_ptr_equal(gcut_match_result_row_mates(res), mates);
    assert_string_equal(gcut_match_result_backend(res), "cpu-match-pr");

    /* The CPU matchers first; a loaded GPU plugin may add its own after them. */
    assert_true(gcut_match_backend_count() >= 2);
    assert_string_equal(gcut_match_backend_name(0), "cpu-match-pr");
    assert_null(gcut_match_backend_name(gcut_match_backend_count()));
    gcut_match_result_free(res);
    gcut_bipartite_free(b);
    gcut_bipartite_free(NULL);
    gcut_match_result_free(NULL);
}

static void test_mtx_good(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int32_t nr, nc;
        int64_t edges, entries, card;
    } cases[] = {
        {DATA "good_general.mtx", 4, 5, 6, 7, 3},
        {DATA "good_symmetric.mtx", 3, 3, 5, 3, 3},
        {DATA "good_skew_complex.mtx", 3, 3, 4, 2, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gcut_bipartite *b = NULL;
        if (gcut_bipartite_read_mtx(&b, cases[i].file) != GCUT_OK)
            fail_msg("%s", gcut_last_error());
        assert_int_equal(gcut_bipartite_num_rows(b), cases[i].nr);
        assert_int_equal(gcut_bipartite_num_cols(b), cases[i].nc);
        assert_int_equal(gcut_bipartite_num_edges(b), cases[i].edges);
        assert_int_equal(gcut_bipartite_num_entries(b), cases[i].entries);
        match_all(b, cases[i].card);
        gcut_bipartite_free(b);
    }
}

typedef struct bad_case {
    const char *file;
    gcut_status status;
    const char *message; /* a substring of gcut_last_error() */
} bad_case;

static const bad_case BAD_CASES[] = {
    {"bad_empty.mtx", GCUT_ERR_PARSE, "bad_empty.mtx:1: empty file"},
    {"bad_banner.mtx", GCUT_ERR_PARSE, "bad_banner.mtx:1: not a Matrix Market file"},
    {"bad_banner_short.mtx", GCUT_ERR_PARSE, ":1: banner needs 4 words"},
    {"bad_object.mtx", GCUT_ERR_PARSE, ":1: object 'vector' is not supported"},
    {"bad_array.mtx", GCUT_ERR_PARSE, ":1: format 'array' (dense) is not supported"},
    {"bad_field.mtx", GCUT_ERR_PARSE, ":1: unknown field 'float'"},
    {"bad_symmetry.mtx", GCUT_ERR_PARSE, ":1: unknown symmetry 'upper'"},
    {"bad_no_size.mtx", GCUT_ERR_PARSE, ":3: file ends before the size line"},
    {"bad_size.mtx", GCUT_ERR_PARSE, "bad_size.mtx:3: size line must be `ROWS COLS ENTRIES`"},
    {"bad_size_huge.mtx", GCUT_ERR_OVERFLOW, ":2: 3000000000 x 2: more than 2^31-1"},
    {"bad_sym_nonsquare.mtx", GCUT_ERR_PARSE, ":2: a symmetric matrix must be square"},
    {"bad_empty_entries.mtx", GCUT_ERR_PARSE, ":2: 2 entries in an empty 0 x 3 matrix"},
    {"bad_row_range.mtx", GCUT_ERR_PARSE, ":4: row index 4 out of range [1, 3]"},
    {"bad_col_range.mtx", GCUT_ERR_PARSE, ":4: column index 0 out of range [1, 3]"},
    {"bad_entry.mtx", GCUT_ERR_PARSE, ":4: entry must start with two positive integers"},
    {"bad_value_missing.mtx", GCUT_ERR_PARSE, ":4: entry needs 1 value after I J (real field)"},
    {"bad_complex_missing.mtx", GCUT_ERR_PARSE, ":3: entry needs 2 values after I J (complex"},
    {"bad_int_value.mtx", GCUT_ERR_PARSE, ":3: entry needs 1 value after I J (integer field)"},
    {"bad_trailing.mtx", GCUT_ERR_PARSE, ":3: unexpected text after the entry: '3"},
    {"bad_truncated.mtx", GCUT_ERR_PARSE, ":4: file ends after 2 of the 3 entries"},
    {"bad_extra.mtx", GCUT_ERR_PARSE, ":5: more entries than the 2 of the size line"},
    {"bad_skew_diag.mtx", GCUT_ERR_PARSE, ":4: diagonal entry (2, 2) in a skew-symmetric matrix"},
    {"bad_nul.mtx", GCUT_ERR_PARSE, ":3: NUL byte in the line"},
    {"bad_nul_banner.mtx", GCUT_ERR_PARSE, ":1: NUL byte in the line"},
};
#define N_BAD (sizeof BAD_CASES / sizeof *BAD_CASES)

static void test_mtx_bad(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_BAD; i++) {
        char path[256];
        snprintf(path, sizeof path, DATA "%s", BAD_CASES[i].file);
        gcut_bipartite *b = NULL;
        const gcut_status st = gcut_bipartite_read_mtx(&b, path);
        if (st != BAD_CASES[i].status || !strstr(gcut_last_error(), BAD_CASES[i].message))
            fail_msg("%s: status %d, message '%s'; expected %d and '%s'", BAD_CASES[i].file,
                     (int)st, gcut_last_error(), (int)BAD_CASES[i].status, BAD_CASES[i].message);
        assert_null(b);
    }
    gcut_bipartite *b = NULL;
    assert_int_equal(gcut_bipartite_read_mtx(&b, DATA "missing.mtx"), GCUT_ERR_IO);
    assert_non_null(strstr(gcut_last_error(), "missing.mtx: cannot open"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_greedy_trap),
        cmocka_unit_test(test_hand_path),
        cmocka_unit_test(test_hand_complete_dups),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_random_shapes),
        cmocka_unit_test(test_check_rejects),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_mtx_good),
        cmocka_unit_test(test_mtx_bad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
