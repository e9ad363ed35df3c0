/*
 * fuzz_mtx.c - libFuzzer target for the Matrix Market reader
 * (gcut_bipartite_read_mtx), and the matchers behind it.
 *
 * The reader takes a path, so the input goes to an in-memory file opened
 * through /proc/self/fd (fuzz_harness.h). Checks:
 *  - a refused input: one of the reader's statuses, gcut_last_status()
 *    agrees, the message names gcut_bipartite_read_mtx and the file, *out
 *    is untouched, an allocation the cap refused is reported as
 *    GCUT_ERR_NOMEM, and only the arrays sized by the dimensions of an
 *    accepted file (which may honestly declare 2^31 - 1 rows) may run out;
 *  - an accepted matrix: no NUL byte outside comment lines; the row CSR
 *    is well formed (offsets from 0 to the edge count, non-decreasing,
 *    columns in range, no column twice in a row), as many edges as entries
 *    at most (twice as many when symmetric), and gcut_bipartite_new on the
 *    same edges gives the same graph;
 *  - a small accepted matrix (rows + columns up to 8192, 32768 edges):
 *    cpu-match-hk and cpu-match-pr (each initialisation) find matchings of
 *    the same cardinality, and gcut_match_check proves each one maximum.
 * Violations abort (a crash for libFuzzer); ASan and UBSan catch the rest.
 * Seed corpus: tests/fuzz-corpus/mtx/ (replayed by CTest).
 */
#include "fuzz_harness.h"

/* Largest matrix matched. */
#define FUZZ_MATCH_SIDES 8192
#define FUZZ_MATCH_EDGES 32768

/* An accepted file has no NUL byte outside comment lines (the banner, line
 * 1, included): the reader parses C strings, where a NUL would hide the
 * rest of its line. */
static void check_no_nul(const uint8_t *data, size_t size)
{
    for (size_t i = 0, line = 1; i < size; line++) {
        const uint8_t *nl = memchr(data + i, '\n', size - i);
        const size_t end = nl ? (size_t)(nl - data) : size;
        if ((line == 1 || data[i] != '%') && memchr(data + i, 0, end - i))
            fuzz_die("accepted a line with a NUL byte", NULL);
        i = end + 1;
    }
}

static void check_csr(const gcut_bipartite *b)
{
    const int32_t nr = gcut_bipartite_num_rows(b), nc = gcut_bipartite_num_cols(b);
    const int64_t m = gcut_bipartite_num_edges(b), entries = gcut_bipartite_num_entries(b);
    const int64_t *off;
    const int32_t *col;
    gcut_bipartite_rows_csr(b, &off, &col);
    if (nr < 0 || nc < 0 || m < 0 || entries < 0 || m > 2 * entries || !off || !col)
        fuzz_die("bad sizes", NULL);
    if (off[0] != 0 || off[nr] != m)
        fuzz_die("row offsets do not span the edges", NULL);
    uint8_t *seen = calloc((size_t)nc + 1, 1);
    if (!seen)
        return;
    for (int32_t r = 0; r < nr; r++) {
        if (off[r + 1] < off[r])
            fuzz_die("row offsets decrease", NULL);
        for (int64_t k = off[r]; k < off[r + 1]; k++) {
            if (col[k] < 0 || col[k] >= nc)
                fuzz_die("column out of range", NULL);
            if (seen[col[k]])
                fuzz_die("a column twice in one row (duplicates are merged)", NULL);
            seen[col[k]] = 1;
        }
        for (int64_t k = off[r]; k < off[r + 1]; k++)
            seen[col[k]] = 0;
    }
    free(seen);
}

/* Rebuilding from the edge list gives the same graph. */
static void check_rebuild(const gcut_bipartite *b)
{
    const int32_t nr = gcut_bipartite_num_rows(b), nc = gcut_bipartite_num_cols(b);
    const int64_t m = gcut_bipartite_num_edges(b);
    const int64_t *off;
    const int32_t *col;
    gcut_bipartite_rows_csr(b, &off, &col);
    int32_t *row = malloc(((size_t)m + 1) * sizeof *row);
    if (!row)
        return;
    for (int32_t r = 0; r < nr; r++)
        for (int64_t k = off[r]; k < off[r + 1]; k++)
            row[k] = r;
    gcut_bipartite *c = NULL;
    gcut_status st = gcut_bipartite_new(&c, nr, nc, row, col, m);
    if (st == GCUT_OK) {
        const int64_t *off2;
        const int32_t *col2;
        gcut_bipartite_rows_csr(c, &off2, &col2);
        if (gcut_bipartite_num_edges(c) != m ||
            memcmp(off, off2, ((size_t)nr + 1) * sizeof *off) != 0 ||
            memcmp(col, col2, (size_t)m * sizeof *col) != 0)
            fuzz_die("gcut_bipartite_new on the same edges gives another graph", NULL);
        gcut_bipartite_free(c);
    } else if (st != GCUT_ERR_NOMEM) {
        fuzz_die("gcut_bipartite_new refused the reader's edges", gcut_last_error());
    }
    free(row);
}

static void check_matchers(const gcut_bipartite *b)
{
    static const char *const backends[] = {"cpu-match-hk", "cpu-match-pr"};
    static const gcut_match_init inits[] = {GCUT_MATCH_INIT_NONE, GCUT_MATCH_INIT_GREEDY,
                                            GCUT_MATCH_INIT_KS};
    gcut_match_result *res = NULL;
    if (gcut_match_result_new(&res) != GCUT_OK)
        return;
    int64_t card = -1;
    for (size_t i = 0; i < sizeof backends / sizeof *backends; i++)
        for (size_t k = 0; k < sizeof inits / sizeof *inits; k++) {
            gcut_match_options opt;
            gcut_match_options_init(&opt);
            opt.backend = backends[i];
            opt.init = inits[k];
            long refused_before = fuzz_refused;
            gcut_status st = gcut_match(b, &opt, res);
            if (st == GCUT_ERR_NOMEM && fuzz_refused > refused_before)
                continue;
            if (st != GCUT_OK)
                fuzz_die(backends[i], gcut_last_error());
            const int64_t c = gcut_match_result_cardinality(res);
            if (card >= 0 && c != card)
                fuzz_die("the matchers disagree on the cardinality", backends[i]);
            card = c;
            st = gcut_match_check(b, gcut_match_result_row_mates(res),
                                  gcut_match_result_col_mates(res), c, NULL, NULL);
            if (st != GCUT_OK && !(st == GCUT_ERR_NOMEM && fuzz_refused > refused_before))
                fuzz_die(backends[i], gcut_last_error());
        }
    gcut_match_result_free(res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_mem_reset();
    char path[64];
    int fd = fuzz_file(data, size, path);

    gcut_bipartite *const sentinel = (gcut_bipartite *)&fd; /* never dereferenced */
    gcut_bipartite *b = sentinel;
    gcut_status st = gcut_bipartite_read_mtx(&b, path);
    close(fd);
    if (st != GCUT_OK) {
        if (b != sentinel)
            fuzz_die("a refused input changed *out", gcut_last_error());
        if (fuzz_refused > 0 && st != GCUT_ERR_NOMEM)
            fuzz_die("an allocation failed but the status is not GCUT_ERR_NOMEM",
                     gcut_last_error());
        if (st == GCUT_ERR_IO)
            fuzz_die("an I/O error reading memory", gcut_last_error());
        fuzz_check_refusal(data, size, st, "gcut_bipartite_read_mtx", path, " matrix");
    } else {
        if (b == sentinel || !b)
            fuzz_die("GCUT_OK without a graph", NULL);
        check_no_nul(data, size);
        check_csr(b);
        check_rebuild(b);
        if ((int64_t)gcut_bipartite_num_rows(b) + gcut_bipartite_num_cols(b) <= FUZZ_MATCH_SIDES &&
            gcut_bipartite_num_edges(b) <= FUZZ_MATCH_EDGES)
            check_matchers(b);
        gcut_bipartite_free(b);
    }
    gcut_clear_error();
    fuzz_mem_check_empty();
    return 0;
}
