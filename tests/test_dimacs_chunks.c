/*
 * test_dimacs_chunks.c - the chunked, parallel DIMACS reader (dimacs.c,
 * "chunks, in parallel") gives exactly what the serial block reader gives.
 *
 * The serial reader is gcut_graph_read_dimacs_file (a FILE*, never
 * chunked); the chunked one is the tests' hook gcut_i_dimacs_read_chunked,
 * which forces chunks of a given size on any file and any thread count, so
 * that with tiny chunks every line of a small file starts a chunk and
 * every kind of line meets a chunk boundary. For every file:
 *
 *   - the same status and the same message (after the function's name);
 *   - on success the same graph (nodes, every edge in order, every
 *     terminal capacity) and the same gcut_dimacs_info;
 *   - on failure *out and *info untouched.
 *
 * Files: every file of data/dimacs/ (the malformed ones included), and
 * random files with comments, blank lines, CRLF, blanks, terminal and
 * dropped arcs, s -> t arcs, capacities that sum past INT32_MAX, long
 * lines, no final newline, and one random fault in most of them.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

/* The tests' hook (graph_internal.h); the static library exports it to
 * this test, which declares it here rather than reach into lib/. */
gcut_status gcut_i_dimacs_read_chunked(const char *path, int32_t threads, int64_t chunk_bytes,
                                       gcut_graph **out, gcut_dimacs_info *info);

static char g_tmp[64];

typedef struct read_result {
    gcut_status st;
    gcut_graph *g;
    gcut_dimacs_info info;
    char msg[600]; /* the message after "FUNCTION: " */
} read_result;

static void keep_message(read_result *r)
{
    const char *e = gcut_last_error();
    const char *colon = strstr(e, ": ");
    snprintf(r->msg, sizeof r->msg, "%s", colon ? colon + 2 : e);
}

static void read_serial(const char *path, read_result *r)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    memset(&r->info, 0xab, sizeof r->info);
    r->g = NULL;
    gcut_clear_error();
    r->st = gcut_graph_read_dimacs_file(f, path, &r->g, &r->info);
    keep_message(r);
    fclose(f);
}

static void read_chunked(const char *path, int32_t threads, int64_t chunk, read_result *r)
{
    gcut_graph *const sentinel = (gcut_graph *)r;
    memset(&r->info, 0xab, sizeof r->info);
    gcut_dimacs_info before = r->info;
    r->g = sentinel;
    gcut_clear_error();
    r->st = gcut_i_dimacs_read_chunked(path, threads, chunk, &r->g, &r->info);
    keep_message(r);
    if (r->st != GCUT_OK) {
        assert_ptr_equal(r->g, sentinel);
        assert_memory_equal(&r->info, &before, sizeof before);
        r->g = NULL;
    }
}

/* Same graph, edge for edge and node for node. */
static void expect_same_graph(const gcut_graph *a, const gcut_graph *b, const char *what)
{
    if (gcut_graph_num_nodes(a) != gcut_graph_num_nodes(b) ||
        gcut_graph_num_edges(a) != gcut_graph_num_edges(b))
        fail_msg("%s: %d nodes, %lld edges; serial: %d, %lld", what, gcut_graph_num_nodes(b),
                 (long long)gcut_graph_num_edges(b), gcut_graph_num_nodes(a),
                 (long long)gcut_graph_num_edges(a));
    for (int64_t e = 0; e < gcut_graph_num_edges(a); e++) {
        int32_t x[4], y[4];
        assert_int_equal(gcut_graph_get_edge(a, e, &x[0], &x[1], &x[2], &x[3]), GCUT_OK);
        assert_int_equal(gcut_graph_get_edge(b, e, &y[0], &y[1], &y[2], &y[3]), GCUT_OK);
        if (memcmp(x, y, sizeof x) != 0)
            fail_msg("%s: edge %lld is (%d, %d, %d, %d), serial (%d, %d, %d, %d)", what,
                     (long long)e, y[0], y[1], y[2], y[3], x[0], x[1], x[2], x[3]);
    }
    for (int32_t v = 0; v < gcut_graph_num_nodes(a); v++) {
        int32_t s1, t1, s2, t2;
        assert_int_equal(gcut_graph_get_tweights(a, v, &s1, &t1), GCUT_OK);
        assert_int_equal(gcut_graph_get_tweights(b, v, &s2, &t2), GCUT_OK);
        if (s1 != s2 || t1 != t2)
            fail_msg("%s: node %d has (%d, %d), serial (%d, %d)", what, v, s2, t2, s1, t1);
    }
}

/* The chunked reader with these settings agrees with the serial one. */
static void expect_agree(const char *path, const read_result *ser, int32_t threads, int64_t chunk)
{
    char what[512];
    snprintf(what, sizeof what, "%s (threads %d, chunks of %lld bytes)", path, (int)threads,
             (long long)chunk);
    read_result par;
    read_chunked(path, threads, chunk, &par);
    if (par.st != ser->st || strcmp(par.msg, ser->msg) != 0)
        fail_msg("%s: status %d \"%s\", serial %d \"%s\"", what, (int)par.st, par.msg, (int)ser->st,
                 ser->msg);
    if (ser->st == GCUT_OK) {
        expect_same_graph(ser->g, par.g, what);
        if (memcmp(&par.info, &ser->info, sizeof par.info) != 0)
            fail_msg("%s: info (s %d, t %d, arcs %lld, dropped %lld, bytes %lld), serial (%d, "
                     "%d, %lld, %lld, %lld)",
                     what, par.info.source, par.info.sink, (long long)par.info.arcs,
                     (long long)par.info.dropped, (long long)par.info.bytes, ser->info.source,
                     ser->info.sink, (long long)ser->info.arcs, (long long)ser->info.dropped,
                     (long long)ser->info.bytes);
    }
    gcut_graph_free(par.g);
}

static const int64_t CHUNKS[] = {1, 2, 3, 5, 8, 13, 64, 1000};
static const int32_t THREADS[] = {1, 2, 3};

static void expect_agree_all(const char *path, int64_t *ok)
{
    read_result ser;
    read_serial(path, &ser);
    *ok += ser.st == GCUT_OK;
    for (size_t c = 0; c < sizeof CHUNKS / sizeof CHUNKS[0]; c++)
        for (size_t t = 0; t < sizeof THREADS / sizeof THREADS[0]; t++)
            expect_agree(path, &ser, THREADS[t], CHUNKS[c]);
    gcut_graph_free(ser.g);
}

/* Every hand-made file, valid or not. */
static void test_data_files(void **state)
{
    (void)state;
    glob_t gl;
    assert_int_equal(glob("data/dimacs/*.max", 0, NULL, &gl), 0);
    assert_true(gl.gl_pathc >= 40);
    int64_t ok = 0;
    for (size_t i = 0; i < gl.gl_pathc; i++) {
        /* huge-nodes.max is valid with 2^31 - 1 nodes (16 GiB each read):
         * tests/cli/hostile_sizes.sh reads it under a limit. */
        if (strstr(gl.gl_pathv[i], "/huge-nodes.max"))
            continue;
        expect_agree_all(gl.gl_pathv[i], &ok);
    }
    assert_true(ok >= 2 && ok < (int64_t)gl.gl_pathc); /* both kinds were seen */
    globfree(&gl);
}

/* ------------------------------------------------------------ random files */

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t k)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng % k);
}

typedef struct text {
    char *p;
    size_t len, cap;
} text;

static void put(text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        t->cap = 2 * (t->len + n + 1);
        t->p = realloc(t->p, t->cap);
        assert_non_null(t->p);
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
}

static void putf(text *t, const char *fmt, long long a, long long b, long long c)
{
    char buf[128];
    int k = snprintf(buf, sizeof buf, fmt, a, b, c);
    put(t, buf, (size_t)k);
}

static void put_blanks(text *t, int many)
{
    static const char *const b[] = {" ", " ", "\t", "  ", " \t "};
    int k = many ? 1 + (int)rnd(3) : 1;
    while (k--) {
        const char *s = b[rnd(5)];
        put(t, s, strlen(s));
    }
}

static void put_eol(text *t, int crlf)
{
    if (crlf)
        put(t, "\r\n", 2);
    else
        put(t, "\n", 1);
}

/* One fault, put in place of an arc line. */
static void put_fault(text *t, int32_t n)
{
    switch (rnd(14)) {
    case 0:
        putf(t, "a %lld %lld -%lld", 1 + rnd((uint32_t)n), 1 + rnd((uint32_t)n), 5);
        break;
    case 1:
        putf(t, "a %lld %lld 99999999999999999999999", 1, 2, 0);
        break;
    case 2:
        putf(t, "a %lld %lld %lld", n + 1, 1, 3);
        break;
    case 3:
        putf(t, "a 0 %lld %lld", 1, 3, 0);
        break;
    case 4:
        putf(t, "a %lld %lldx %lld", 1, 2, 3);
        break;
    case 5:
        putf(t, "a %lld %lld", 1, 2, 0);
        break;
    case 6:
        putf(t, "a %lld %lld %lld 4", 1, 2, 3);
        break;
    case 7:
        putf(t, "n %lld s", 1, 0, 0);
        break;
    case 8:
        putf(t, "p max %lld %lld", n, 10, 0);
        break;
    case 9:
        putf(t, "x %lld", 1, 0, 0);
        break;
    case 10:
        putf(t, "a %lld %lld 2147483648", 2, 3, 0);
        break;
    case 11: /* a line longer than a chunk's limit, blank: fine for both */
        for (int k = 0; k < 5000; k++)
            put(t, " ", 1);
        break;
    case 12: /* an arc line longer than a chunk's limit: fine for both */
        put(t, "a 2", 3);
        for (int k = 0; k < 5000; k++)
            put(t, " ", 1);
        put(t, "3 1", 3);
        break;
    default:
        putf(t, "abc %lld", 1, 0, 0);
        break;
    }
}

/* A random file of about `arcs` arc lines over n nodes; `clean`: a valid
 * one (no fault, the declared count, capacities that cannot overflow). */
static void random_file(const char *path, int32_t n, int64_t arcs, int clean)
{
    text t = {0};
    const int crlf = rnd(4) == 0, messy = rnd(2), big_caps = !clean && rnd(4) == 0;
    const int fault = !clean && rnd(3) != 0;
    const int64_t fault_at = fault ? (int64_t)rnd((uint32_t)arcs + 2) : -1;
    /* Declared arcs: exact, or fewer (too many lines) or more (too few). */
    int64_t decl = arcs;
    if (!clean && rnd(8) == 0)
        decl = arcs - 1 - rnd(3);
    else if (!clean && rnd(8) == 0)
        decl = arcs + 1 + rnd(3);
    if (decl < 0)
        decl = 0;
    const int32_t s = 1 + (int32_t)rnd((uint32_t)n), t0 = 1 + (int32_t)rnd((uint32_t)n - 1);
    const int32_t tt = t0 >= s ? t0 + 1 : t0;
    put(&t, "c random\n", 9);
    putf(&t, "p max %lld %lld", n, decl, 0);
    put_eol(&t, crlf);
    if (messy)
        put(&t, "c a comment between the header lines\n", 37);
    putf(&t, "n %lld s", s, 0, 0);
    put_eol(&t, crlf);
    putf(&t, "n %lld t", tt, 0, 0);
    put_eol(&t, crlf);
    for (int64_t i = 0; i < arcs; i++) {
        if (i == fault_at) {
            put_fault(&t, n);
            put_eol(&t, crlf);
            continue;
        }
        if (messy && rnd(6) == 0) {
            if (rnd(2))
                put(&t, "c comment a 1 2 3\n", 18);
            else
                put_blanks(&t, 1), put_eol(&t, crlf);
        }
        int32_t u = 1 + (int32_t)rnd((uint32_t)n), v = 1 + (int32_t)rnd((uint32_t)n);
        switch (rnd(8)) {
        case 0:
            u = s;
            break;
        case 1:
            v = tt;
            break;
        case 2:
            if (rnd(4) == 0)
                v = s;
            break;
        case 3:
            if (rnd(4) == 0)
                u = tt;
            break;
        case 4:
            if (rnd(16) == 0)
                u = s, v = tt;
            break;
        default:
            break;
        }
        const long long c = big_caps ? (long long)(rnd(2) ? 1000000000 + rnd(1000) : rnd(100))
                                     : (long long)rnd(1000);
        if (messy && rnd(3) == 0) {
            put_blanks(&t, 1);
            put(&t, "a", 1);
            put_blanks(&t, 1);
            putf(&t, "%lld", u, 0, 0);
            put_blanks(&t, 1);
            putf(&t, "%lld", v, 0, 0);
            put_blanks(&t, 1);
            putf(&t, "%lld", c, 0, 0);
            if (rnd(2))
                put_blanks(&t, 0);
        } else {
            putf(&t, "a %lld %lld %lld", u, v, c);
        }
        if (i + 1 < arcs || rnd(3) != 0)
            put_eol(&t, crlf);
        else if (!clean && rnd(2) == 0 && t.len > 0)
            t.len--; /* the file ends mid-number */
    }
    if (messy && rnd(2))
        put(&t, "c the end", 9);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(t.p, 1, t.len, f), t.len);
    assert_int_equal(fclose(f), 0);
    free(t.p);
}

static void test_random_files(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/random.max", g_tmp);
    const int rounds = tu_scaled(200);
    int64_t ok = 0;
    for (int r = 0; r < rounds; r++) {
        const int32_t n = 3 + (int32_t)rnd(r % 3 == 0 ? 5 : 200);
        random_file(path, n, 1 + rnd(r % 5 == 0 ? 2000 : 120), r % 3 == 0);
        expect_agree_all(path, &ok);
    }
    /* A third of them at least are valid, and their graphs compared. */
    assert_true(ok >= (rounds + 2) / 3);
    unlink(path);
}

/* ------------------------------------------------------------- public API */

/* A file past the size at which gcut_graph_read_dimacs goes parallel, read
 * through the public entry points with 1, 2 and 4 threads. */
static void test_public_threads(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/big.max", g_tmp);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    const int32_t n = 100000;
    const int64_t arcs = 900000; /* about 13 MB */
    fprintf(f, "c big\np max %d %lld\nn 1 s\nn %d t\n", n, (long long)arcs, n);
    for (int64_t i = 0; i < arcs; i++) {
        int32_t u = 1 + (int32_t)rnd((uint32_t)n), v = 1 + (int32_t)rnd((uint32_t)n);
        if (i % 10 == 0)
            u = 1;
        fprintf(f, "a %d %d %u\n", u, v, rnd(100000));
    }
    assert_int_equal(fclose(f), 0);
    read_result ser;
    read_serial(path, &ser);
    assert_int_equal(ser.st, GCUT_OK);
    const int32_t threads[] = {0, 1, 2, 4};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        gcut_dimacs_options opt;
        gcut_dimacs_options_init(&opt);
        opt.threads = threads[i];
        gcut_graph *g = NULL;
        gcut_dimacs_info info;
        assert_int_equal(gcut_graph_read_dimacs_opt(path, &opt, &g, &info), GCUT_OK);
        expect_same_graph(ser.g, g, "gcut_graph_read_dimacs_opt");
        assert_memory_equal(&info, &ser.info, sizeof info);
        gcut_graph_free(g);
    }
    gcut_graph *g = NULL;
    assert_int_equal(gcut_graph_read_dimacs_opt(path, NULL, &g, NULL), GCUT_OK);
    expect_same_graph(ser.g, g, "gcut_graph_read_dimacs_opt, NULL options");
    gcut_graph_free(g);
    g = NULL;
    assert_int_equal(gcut_graph_read_dimacs(path, &g, NULL), GCUT_OK);
    expect_same_graph(ser.g, g, "gcut_graph_read_dimacs");
    gcut_graph_free(g);
    gcut_graph_free(ser.g);

    /* A fault late in the big file: the same line in the message. */
    f = fopen(path, "ab");
    assert_non_null(f);
    fprintf(f, "a 1 %d 3\n", n + 1);
    assert_int_equal(fclose(f), 0);
    g = NULL;
    gcut_dimacs_options opt;
    gcut_dimacs_options_init(&opt);
    opt.threads = 2;
    assert_int_equal(gcut_graph_read_dimacs_opt(path, &opt, &g, NULL), GCUT_ERR_PARSE);
    char want[256];
    snprintf(want, sizeof want,
             "gcut_graph_read_dimacs_opt: %s:%lld: arc 1 -> %d: node id out of range", path,
             (long long)arcs + 5, (int)n + 1);
    if (!strstr(gcut_last_error(), want))
        fail_msg("got \"%s\", expected \"%s\"", gcut_last_error(), want);
    assert_null(g);
    unlink(path);
}

static void test_bad_options(void **state)
{
    (void)state;
    gcut_graph *g = NULL;
    gcut_dimacs_options opt;
    gcut_dimacs_options_init(&opt);
    assert_int_equal(opt.struct_size, sizeof opt);
    assert_int_equal(opt.threads, 0);
    opt.threads = -1;
    assert_int_equal(gcut_graph_read_dimacs_opt("data/dimacs/terminals.max", &opt, &g, NULL),
                     GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "opt->threads is -1"));
    memset(&opt, 0, sizeof opt);
    assert_int_equal(gcut_graph_read_dimacs_opt("data/dimacs/terminals.max", &opt, &g, NULL),
                     GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "gcut_dimacs_options_init"));
    assert_int_equal(gcut_graph_read_dimacs_opt(NULL, NULL, &g, NULL), GCUT_ERR_INVALID);
    assert_null(g);
    gcut_dimacs_options_init(NULL); /* a no-op */
}

static int make_tmp(void **state)
{
    (void)state;
    strcpy(g_tmp, "/tmp/gcut-test-chunks-XXXXXX");
    return mkdtemp(g_tmp) ? 0 : -1;
}

static int remove_tmp(void **state)
{
    (void)state;
    return rmdir(g_tmp) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_data_files),
        cmocka_unit_test(test_random_files),
        cmocka_unit_test(test_public_threads),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, make_tmp, remove_tmp);
}
