/*
 * test_dimacs.c - DIMACS max-flow reader and writer.
 *
 * Hand-made files in data/dimacs/ (the tests run from tests/):
 *   terminals.max        every case of the s/t conversion (see below)
 *   terminals_crlf.max   the same with CRLF line ends and no final newline
 *   terminals.max.gz     the same compressed by gzip -9n
 *   golden_small.out     the writer's exact output for golden_graph()
 *   bad_*.max            one malformed file per error the reader reports
 *
 * terminals.max, with s = 1 and t = 6 (ids as in the file):
 *
 *        10+5         7          3, 2        8
 *     s ------> 2 <------> 3    2 ====> 4 ------> t      4 -> 4 self-loop (9)
 *     s ------> 3  ------------------------------> t     (4 and 1)
 *     s ------------------------------------------> t    (11, direct)
 *     5 -> s (6) and t -> 5 (2): dropped
 *
 * Converted: node 0 (s) gets source 11 and sink 11, node 1 source 15,
 * node 2 source 4 and sink 1, node 3 sink 8; edges 1-2 (7), 2-1 (7),
 * 1-3 (3), 1-3 (2), 3-3 (9). Max flow: 11 + min(5, 8) + 1 = 17.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#define DATA "data/dimacs/"

/* A scratch folder under /tmp for the files the tests write. */
static char g_tmp[64];

static const char *tmp_path(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", g_tmp, name);
    return buf;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    size_t k;
    while ((k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

static void spill(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* The call failed with `want` and a message containing `sub`. */
static void check_failure(gcut_status got, gcut_status want, const char *sub, const char *what)
{
    if (got != want || !strstr(gcut_last_error(), sub))
        fail_msg("%s: expected status %d with \"%s\", got %d: \"%s\"", what, (int)want, sub,
                 (int)got, gcut_last_error());
}

/* ------------------------------------------------------------ expectations */

typedef struct edge4 {
    int32_t u, v, cap, rev;
} edge4;

typedef struct tw3 {
    int32_t v, source, sink;
} tw3;

/* g has n nodes, exactly these edges in this order, and these terminal
 * capacities (every other node has none). */
static void expect_graph(const gcut_graph *g, int32_t n, const edge4 *edges, int64_t m,
                         const tw3 *tws, int ntw)
{
    assert_int_equal(gcut_graph_num_nodes(g), n);
    assert_int_equal(gcut_graph_num_edges(g), m);
    for (int64_t e = 0; e < m; e++) {
        edge4 x;
        assert_int_equal(gcut_graph_get_edge(g, e, &x.u, &x.v, &x.cap, &x.rev), GCUT_OK);
        if (x.u != edges[e].u || x.v != edges[e].v || x.cap != edges[e].cap ||
            x.rev != edges[e].rev)
            fail_msg("edge %lld: got (%d, %d, %d, %d), expected (%d, %d, %d, %d)", (long long)e,
                     x.u, x.v, x.cap, x.rev, edges[e].u, edges[e].v, edges[e].cap, edges[e].rev);
    }
    for (int32_t v = 0; v < n; v++) {
        int32_t s, t, es = 0, et = 0;
        assert_int_equal(gcut_graph_get_tweights(g, v, &s, &t), GCUT_OK);
        for (int k = 0; k < ntw; k++)
            if (tws[k].v == v) {
                es = tws[k].source;
                et = tws[k].sink;
            }
        if (s != es || t != et)
            fail_msg("node %d: terminal capacities (%d, %d), expected (%d, %d)", v, s, t, es, et);
    }
}

static const edge4 TERMINALS_EDGES[] = {
    {1, 2, 7, 0}, {2, 1, 7, 0}, {1, 3, 3, 0}, {1, 3, 2, 0}, {3, 3, 9, 0},
};
static const tw3 TERMINALS_TW[] = {{0, 11, 11}, {1, 15, 0}, {2, 4, 1}, {3, 0, 8}};

static void expect_terminals(const gcut_graph *g, const gcut_dimacs_info *info)
{
    expect_graph(g, 6, TERMINALS_EDGES, 5, TERMINALS_TW, 4);
    assert_int_equal(info->source, 0);
    assert_int_equal(info->sink, 5);
    assert_int_equal(info->arcs, 13);
    assert_int_equal(info->dropped, 2);
}

static int64_t maxflow_ref(gcut_graph *g)
{
    int64_t flow = -1;
    gcut_status st = gcut_graph_maxflow(g, "cpu-ref", &flow);
    if (st != GCUT_OK)
        fail_msg("cpu-ref: %s", gcut_last_error());
    return flow;
}

/* ------------------------------------------------------------ valid input */

static void test_read_terminals(void **state)
{
    (void)state;
    gcut_graph *g = NULL;
    gcut_dimacs_info info;
    assert_int_equal(gcut_graph_read_dimacs(DATA "terminals.max", &g, &info), GCUT_OK);
    expect_terminals(g, &info);
    struct stat sb;
    assert_int_equal(stat(DATA "terminals.max", &sb), 0);
    assert_int_equal(info.bytes, (int64_t)sb.st_size);
    /* The s -> t arc carries its 11 units through node s. */
    assert_int_equal(maxflow_ref(g), 17);
    gcut_graph_free(g);
}

static void test_read_crlf_no_final_newline(void **state)
{
    (void)state;
    gcut_graph *g = NULL;
    gcut_dimacs_info info;
    assert_int_equal(gcut_graph_read_dimacs(DATA "terminals_crlf.max", &g, &info), GCUT_OK);
    expect_terminals(g, &info);
    gcut_graph_free(g);
}

static void test_read_info_optional(void **state)
{
    (void)state;
    gcut_graph *g = NULL;
    assert_int_equal(gcut_graph_read_dimacs(DATA "terminals.max", &g, NULL), GCUT_OK);
    assert_int_equal(gcut_graph_num_edges(g), 5);
    gcut_graph_free(g);
}

static void test_read_stream_tmpfile(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp(DATA "terminals.max", &len);
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    rewind(f);
    gcut_graph *g = NULL;
    gcut_dimacs_info info;
    assert_int_equal(gcut_graph_read_dimacs_file(f, "tmp-stream", &g, &info), GCUT_OK);
    expect_terminals(g, &info);
    gcut_graph_free(g);
    fclose(f);

    /* Messages name the stream by the name given. */
    f = tmpfile();
    assert_non_null(f);
    fputs("c bad\np max 4 1\nn 1 s\nn 9 t\n", f);
    rewind(f);
    g = NULL;
    check_failure(gcut_graph_read_dimacs_file(f, "my-stream", &g, NULL), GCUT_ERR_PARSE,
                  "my-stream:4: node id 9 out of range [1, 4]", "tmpfile");
    assert_null(g);
    fclose(f);
    free(text);
}

static void test_read_stdin(void **state)
{
    (void)state;
    /* Put the file on stdin, read "-", then give stdin back. */
    int saved = dup(STDIN_FILENO);
    assert_true(saved >= 0);
    assert_non_null(freopen(DATA "terminals.max", "rb", stdin));
    gcut_graph *g = NULL;
    gcut_dimacs_info info;
    gcut_status st = gcut_graph_read_dimacs("-", &g, &info);
    assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
    close(saved);
    clearerr(stdin);
    assert_int_equal(st, GCUT_OK);
    expect_terminals(g, &info);
    gcut_graph_free(g);
}

/* A file of `arcs` arcs over `n` nodes that crosses many 1 MiB blocks:
 * s = 1, t = n, and arc i is a pseudo-random inner arc, every 7th one from
 * s and every 11th one into t. Returns the malloc'd text. */
static char *make_big_text(int32_t n, int64_t arcs, size_t *len)
{
    size_t cap = (size_t)arcs * 40 + 256, k = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    k += (size_t)snprintf(text + k, cap - k, "c generated\np max %d %lld\nn 1 s\nn %d t\n", n,
                          (long long)arcs, n);
    tu_rng rng = {7};
    for (int64_t i = 0; i < arcs; i++) {
        int32_t u = (int32_t)tu_range(&rng, 2, n - 1), v = (int32_t)tu_range(&rng, 2, n - 1);
        int32_t c = (int32_t)tu_range(&rng, 0, INT32_MAX / 1000);
        if (i % 7 == 0)
            u = 1;
        else if (i % 11 == 0)
            v = n;
        k += (size_t)snprintf(text + k, cap - k, "a %d %d %d\n", u, v, c);
    }
    *len = k;
    return text;
}

/* The graph read from make_big_text(n, arcs): same sequence replayed. */
static void expect_big(const gcut_graph *g, int32_t n, int64_t arcs)
{
    assert_int_equal(gcut_graph_num_nodes(g), n);
    int64_t *src = calloc((size_t)n, sizeof *src), *snk = calloc((size_t)n, sizeof *snk);
    assert_non_null(src);
    assert_non_null(snk);
    tu_rng rng = {7};
    int64_t e = 0;
    for (int64_t i = 0; i < arcs; i++) {
        int32_t u = (int32_t)tu_range(&rng, 2, n - 1), v = (int32_t)tu_range(&rng, 2, n - 1);
        int32_t c = (int32_t)tu_range(&rng, 0, INT32_MAX / 1000);
        if (i % 7 == 0) {
            src[v - 1] += c;
        } else if (i % 11 == 0) {
            snk[u - 1] += c;
        } else {
            int32_t gu, gv, gc, gr;
            assert_int_equal(gcut_graph_get_edge(g, e, &gu, &gv, &gc, &gr), GCUT_OK);
            if (gu != u - 1 || gv != v - 1 || gc != c || gr != 0)
                fail_msg("big file, arc %lld: got edge (%d, %d, %d, %d)", (long long)i, gu, gv,
                         gc, gr);
            e++;
        }
    }
    assert_int_equal(gcut_graph_num_edges(g), e);
    for (int32_t v = 0; v < n; v++) {
        int32_t s, t;
        gcut_graph_get_tweights(g, v, &s, &t);
        assert_int_equal(s, src[v]);
        assert_int_equal(t, snk[v]);
    }
    free(src);
    free(snk);
}

static void test_read_across_blocks(void **state)
{
    (void)state;
    const int32_t n = 5000;
    const int64_t arcs = 150000; /* about 3 MB: lines straddle block ends */
    size_t len;
    char *text = make_big_text(n, arcs, &len);
    assert_true(len > 2 * ((size_t)1 << 20));
    char path[128];
    spill(tmp_path("big.max", path, sizeof path), text, len);
    gcut_graph *g = NULL;
    gcut_dimacs_info info;
    assert_int_equal(gcut_graph_read_dimacs(path, &g, &info), GCUT_OK);
    assert_int_equal(info.arcs, arcs);
    assert_int_equal(info.bytes, (int64_t)len);
    expect_big(g, n, arcs);
    gcut_graph_free(g);

    /* The same through a pipe-like stream of unknown size. */
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    rewind(f);
    assert_int_equal(gcut_graph_read_dimacs_file(f, "big", &g, &info), GCUT_OK);
    expect_big(g, n, arcs);
    gcut_graph_free(g);
    fclose(f);
    free(text);
}

/* A comment longer than the read block is skipped, and the lines after it
 * keep their numbers. */
static void test_long_comment(void **state)
{
    (void)state;
    const size_t big = 3u << 20;
    const char *head = "c short\nc ";
    const char *tail = "\np max 4 1\nn 1 s\nn 4 t\na 1 4 x\n"; /* line 6 is bad */
    size_t len = strlen(head) + big + strlen(tail);
    char *text = malloc(len + 1);
    assert_non_null(text);
    strcpy(text, head);
    memset(text + strlen(head), 'z', big);
    strcpy(text + strlen(head) + big, tail);
    char path[128];
    spill(tmp_path("long_comment.max", path, sizeof path), text, len);
    gcut_graph *g = NULL;
    check_failure(gcut_graph_read_dimacs(path, &g, NULL), GCUT_ERR_PARSE,
                  "long_comment.max:6: the capacity 'x' is not a number", "long comment");
    assert_null(g);

    /* Fixed, the file reads. */
    text[len - 2] = '7';
    spill(path, text, len);
    assert_int_equal(gcut_graph_read_dimacs(path, &g, NULL), GCUT_OK);
    int32_t s;
    gcut_graph_get_tweights(g, 0, &s, NULL);
    assert_int_equal(s, 7);
    gcut_graph_free(g);
    g = NULL;

    /* A long line that is not a comment is refused. */
    memcpy(text + strlen(head) - 2, "a ", 2);
    spill(path, text, len);
    check_failure(gcut_graph_read_dimacs(path, &g, NULL), GCUT_ERR_PARSE,
                  "long_comment.max:2: line longer than", "long line");
    assert_null(g);

    /* So is a line of nothing but blanks that long. */
    memset(text + strlen(head) - 2, ' ', big + 2);
    spill(path, text, len);
    check_failure(gcut_graph_read_dimacs(path, &g, NULL), GCUT_ERR_PARSE,
                  "long_comment.max:2: line longer than", "long blank line");
    assert_null(g);
    free(text);
}

/* ----------------------------------------------------------- bad input */

typedef struct bad_case {
    const char *file;
    gcut_status status;
    const char *message; /* a substring of the message, with the line */
} bad_case;

static const bad_case BAD_CASES[] = {
    {"bad_empty.max", GCUT_ERR_PARSE, "bad_empty.max: empty input: missing the problem line"},
    {"bad_no_problem.max", GCUT_ERR_PARSE, "bad_no_problem.max:2: missing the problem line"},
    {"bad_before_problem.max", GCUT_ERR_PARSE, ":2: 'n' line before the problem line"},
    {"bad_dup_problem.max", GCUT_ERR_PARSE, ":3: second problem line (the first is at line 2)"},
    {"bad_not_max.max", GCUT_ERR_PARSE, ":2: problem type 'min' is not 'max'"},
    {"bad_problem_truncated.max", GCUT_ERR_PARSE, ":2: truncated line: missing the arc count"},
    {"bad_neg_nodes.max", GCUT_ERR_PARSE, ":2: negative node count -4"},
    {"bad_huge_nodes.max", GCUT_ERR_PARSE, ":2: the node count 3000000000 exceeds 2147483647"},
    {"bad_one_node.max", GCUT_ERR_PARSE, ":2: node count 1: a max-flow problem needs at least 2"},
    {"bad_nonnum_nodes.max", GCUT_ERR_PARSE, ":2: the node count 'four' is not a number"},
    {"bad_neg_arcs.max", GCUT_ERR_PARSE, ":2: negative arc count -1"},
    {"bad_huge_arcs.max", GCUT_ERR_PARSE, ":2: the arc count 1234567890123456789"},
    {"bad_missing_s.max", GCUT_ERR_PARSE, ":4: arc line before the source node line"},
    {"bad_missing_t.max", GCUT_ERR_PARSE, ":4: arc line before the sink node line"},
    {"bad_missing_st_eof.max", GCUT_ERR_PARSE, ":3: missing the sink node line"},
    {"bad_dup_s.max", GCUT_ERR_PARSE, ":4: second source node line (node 1 is the source, line 3)"},
    {"bad_dup_t.max", GCUT_ERR_PARSE, ":6: second sink node line (node 4 is the sink, line 4)"},
    {"bad_s_eq_t.max", GCUT_ERR_PARSE, ":4: node 2 cannot be both the source and the sink"},
    {"bad_node_flag.max", GCUT_ERR_PARSE, ":3: node flag 'x' is neither 's' nor 't'"},
    {"bad_node_id_zero.max", GCUT_ERR_PARSE, ":3: node id 0 out of range [1, 4]"},
    {"bad_node_id_big.max", GCUT_ERR_PARSE, ":4: node id 5 out of range [1, 4]"},
    {"bad_node_truncated.max", GCUT_ERR_PARSE, ":3: truncated line: missing the node flag"},
    {"bad_arc_id_zero.max", GCUT_ERR_PARSE, ":6: arc 0 -> 4: node id out of range [1, 4]"},
    {"bad_arc_id_big.max", GCUT_ERR_PARSE, ":6: arc 2 -> 7: node id out of range [1, 4]"},
    {"bad_neg_cap.max", GCUT_ERR_PARSE, ":5: negative capacity -5"},
    {"bad_nonnum_cap.max", GCUT_ERR_PARSE, ":5: the capacity 'ten' is not a number"},
    {"bad_big_cap.max", GCUT_ERR_PARSE, ":5: the capacity 2147483648 exceeds 2147483647"},
    {"bad_number_junk.max", GCUT_ERR_PARSE, ":5: the head node id '4x' is not a number"},
    {"bad_truncated_arc.max", GCUT_ERR_PARSE, ":6: truncated line: missing the capacity"},
    {"bad_extra_junk.max", GCUT_ERR_PARSE, ":5: unexpected '6' after the last field"},
    {"bad_too_many_arcs.max", GCUT_ERR_PARSE, ":7: more arc lines than the 2 declared"},
    {"bad_too_few_arcs.max", GCUT_ERR_PARSE, ":6: file ends after 2 of 3 arcs"},
    {"bad_unknown_line.max", GCUT_ERR_PARSE, ":5: unknown line type 'x'"},
    {"bad_unknown_word.max", GCUT_ERR_PARSE, ":5: unknown line type 'arc'"},
    {"bad_terminal_overflow.max", GCUT_ERR_OVERFLOW,
     ":7: arc 1 -> 2: the source capacity of node 2 sums past 2147483647"},
    {"bad_overflow_late.max", GCUT_ERR_OVERFLOW,
     ":26: arc 1 -> 2: the source capacity of node 2 sums past 2147483647"},
    {"bad_overflow_then_junk.max", GCUT_ERR_OVERFLOW,
     ":6: arc 2 -> 4: the sink capacity of node 2 sums past 2147483647"},
};

#define N_BAD ((int)(sizeof BAD_CASES / sizeof BAD_CASES[0]))

/* One malformed file: the status, the message, and outputs left alone. */
static void test_bad_file(void **state)
{
    const bad_case *c = *state;
    char path[256];
    snprintf(path, sizeof path, DATA "%s", c->file);
    gcut_graph *const sentinel = (gcut_graph *)&path;
    gcut_graph *g = sentinel;
    gcut_dimacs_info info, before;
    memset(&info, 0xab, sizeof info);
    before = info;
    gcut_clear_error();
    check_failure(gcut_graph_read_dimacs(path, &g, &info), c->status, c->message, c->file);
    /* The message names the file and the reading function. */
    check_failure(gcut_last_status(), c->status, c->file, c->file);
    check_failure(gcut_last_status(), c->status, "gcut_graph_read_dimacs: ", c->file);
    assert_ptr_equal(g, sentinel);
    assert_memory_equal(&info, &before, sizeof info);
}

static void test_io_errors(void **state)
{
    (void)state;
    gcut_graph *g = NULL;
    check_failure(gcut_graph_read_dimacs(DATA "no_such_file.max", &g, NULL), GCUT_ERR_IO,
                  "cannot open 'data/dimacs/no_such_file.max': No such file or directory",
                  "missing file");
    check_failure(gcut_graph_read_dimacs(DATA, &g, NULL), GCUT_ERR_IO, "Is a directory",
                  "directory");
    assert_null(g);

    gcut_graph *w;
    assert_int_equal(gcut_graph_new(&w, 3, 0), GCUT_OK);
    gcut_graph_add_edge(w, 0, 1, 4, 0);
    check_failure(gcut_graph_write_dimacs(w, "/nonexistent-gcut-dir/x.max"), GCUT_ERR_IO,
                  "cannot write /nonexistent-gcut-dir/x.max: No such file",
                  "write to missing folder");
    if (access("/dev/full", W_OK) == 0) {
        check_failure(gcut_graph_write_dimacs(w, "/dev/full"), GCUT_ERR_IO,
                      "/dev/full: write failed: No space left on device", "/dev/full");
        FILE *f = fopen("/dev/full", "wb");
        assert_non_null(f);
        check_failure(gcut_graph_write_dimacs_file(w, f, "full"), GCUT_ERR_IO,
                      "full: write failed", "/dev/full stream");
        fclose(f);
    }
    gcut_graph_free(w);
}

static void test_null_arguments(void **state)
{
    (void)state;
    gcut_graph *g = NULL;
    assert_int_equal(gcut_graph_read_dimacs(NULL, &g, NULL), GCUT_ERR_INVALID);
    assert_int_equal(gcut_graph_read_dimacs(DATA "terminals.max", NULL, NULL), GCUT_ERR_INVALID);
    assert_int_equal(gcut_graph_read_dimacs_file(NULL, "x", &g, NULL), GCUT_ERR_INVALID);
    assert_int_equal(gcut_graph_write_dimacs(NULL, "x"), GCUT_ERR_INVALID);
    assert_int_equal(gcut_graph_write_dimacs_file(NULL, stdout, "x"), GCUT_ERR_INVALID);
    assert_null(g);
}

/* ---------------------------------------------------------------- gzip */

static int library_reads_gzip(void);

/* The gzip tests need a library built with zlib. */
#define REQUIRE_GZIP()                                                                             \
    do {                                                                                           \
        if (!library_reads_gzip()) {                                                               \
            printf("[  SKIPPED ] gcut was built without zlib\n");                                  \
            skip();                                                                                \
        }                                                                                          \
    } while (0)

/* Write text as gzip, split into `members` concatenated gzip members, by
 * hand: each member is a gzip header, deflate "stored" blocks (RFC 1951
 * section 3.2.4: no compression) and the CRC-32 / size trailer (RFC 1952).
 * Doing it here keeps the test free of zlib, so that it builds and links in
 * every configuration; real compressed data is covered by terminals.max.gz
 * (made with gzip -9n). */
static uint32_t crc32_of(uint32_t crc, const unsigned char *p, size_t n)
{
    crc = ~crc;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void put_le(FILE *f, uint32_t v, int bytes)
{
    for (int k = 0; k < bytes; k++)
        fputc((int)((v >> (8 * k)) & 0xff), f);
}

static void spill_gz(const char *path, const char *text, size_t len, int members)
{
    static const unsigned char header[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff};
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    size_t done = 0;
    for (int k = 0; k < members; k++) {
        size_t part = k == members - 1 ? len - done : len / (size_t)members;
        const unsigned char *p = (const unsigned char *)text + done;
        fwrite(header, 1, sizeof header, f);
        size_t off = 0;
        do {
            size_t chunk = part - off > 65535 ? 65535 : part - off;
            fputc(off + chunk == part ? 1 : 0, f); /* BFINAL, BTYPE = 00 (stored) */
            put_le(f, (uint32_t)chunk, 2);
            put_le(f, (uint32_t)chunk ^ 0xffffu, 2);
            fwrite(p + off, 1, chunk, f);
            off += chunk;
        } while (off < part);
        put_le(f, crc32_of(0, p, part), 4);
        put_le(f, (uint32_t)part, 4);
        done += part;
    }
    assert_int_equal(ferror(f), 0);
    assert_int_equal(fclose(f), 0);
}

static void test_gzip(void **state)
{
    (void)state;
    REQUIRE_GZIP();
    size_t len;
    char *text = slurp(DATA "terminals.max", &len);
    char path[128];
    tmp_path("terminals.max.gz", path, sizeof path);
    for (int members = 1; members <= 3; members++) {
        spill_gz(path, text, len, members);
        gcut_graph *g = NULL;
        gcut_dimacs_info info;
        assert_int_equal(gcut_graph_read_dimacs(path, &g, &info), GCUT_OK);
        expect_terminals(g, &info);
        assert_int_equal(info.bytes, (int64_t)len); /* uncompressed bytes */
        gcut_graph_free(g);

        /* A gzip stream is recognised on an open FILE* too. */
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        assert_int_equal(gcut_graph_read_dimacs_file(f, "gz-stream", &g, &info), GCUT_OK);
        expect_terminals(g, &info);
        gcut_graph_free(g);
        fclose(f);
    }
    /* Real deflate data, as gzip -9n makes it. */
    gcut_graph *g = NULL;
    gcut_dimacs_info info;
    assert_int_equal(gcut_graph_read_dimacs(DATA "terminals.max.gz", &g, &info), GCUT_OK);
    expect_terminals(g, &info);
    assert_int_equal(info.bytes, (int64_t)len);
    gcut_graph_free(g);
    free(text);
}

/* Inflated text crosses block ends just like plain text. */
static void test_gzip_big(void **state)
{
    (void)state;
    REQUIRE_GZIP();
    const int32_t n = 3000;
    const int64_t arcs = 120000;
    size_t len;
    char *text = make_big_text(n, arcs, &len);
    char path[128];
    spill_gz(tmp_path("big.max.gz", path, sizeof path), text, len, 2);
    gcut_graph *g = NULL;
    gcut_dimacs_info info;
    assert_int_equal(gcut_graph_read_dimacs(path, &g, &info), GCUT_OK);
    assert_int_equal(info.bytes, (int64_t)len);
    expect_big(g, n, arcs);
    gcut_graph_free(g);
    free(text);
}

static void test_gzip_damaged(void **state)
{
    (void)state;
    REQUIRE_GZIP();
    size_t len, zlen;
    char *text = slurp(DATA "terminals.max", &len);
    char path[128];
    tmp_path("damaged.max.gz", path, sizeof path);
    spill_gz(path, text, len, 1);
    char *z = slurp(path, &zlen);

    /* Cut short: the stream ends before its trailer. */
    spill(path, z, zlen / 2);
    gcut_graph *g = NULL;
    check_failure(gcut_graph_read_dimacs(path, &g, NULL), GCUT_ERR_PARSE, "truncated gzip data",
                  "truncated gzip");
    /* A wrong CRC in the trailer: zlib reports the data as corrupt. */
    z[zlen - 8] ^= 0x55;
    spill(path, z, zlen);
    check_failure(gcut_graph_read_dimacs(path, &g, NULL), GCUT_ERR_PARSE, "corrupt gzip data",
                  "bad crc");
    assert_null(g);
    free(z);
    free(text);
}

/* Read a file that has only the gzip magic and some junk: a build of gcut
 * without zlib must say that gzip is not supported, a build with it that the
 * data is not valid gzip. Returns whether the library reads gzip. */
static int library_reads_gzip(void)
{
    char path[128];
    spill(tmp_path("magic.max", path, sizeof path), "\x1f\x8bjunk", 6);
    gcut_graph *g = NULL;
    gcut_status st = gcut_graph_read_dimacs(path, &g, NULL);
    assert_null(g);
    if (st == GCUT_ERR_UNSUPPORTED) {
        check_failure(st, GCUT_ERR_UNSUPPORTED, "built without zlib", "gzip magic");
        return 0;
    }
    check_failure(st, GCUT_ERR_PARSE, "gzip data", "gzip magic");
    return 1;
}

static void test_gzip_magic(void **state)
{
    (void)state;
    if (!library_reads_gzip())
        printf("[  NOTE    ] gcut was built without zlib: gzip input is refused as it should\n");
}

/* --------------------------------------------------------------- writer */

/* The graph behind golden_small.out: both terminals on one node, a
 * self-loop, a zero edge (not written), an edge with only rev_cap, and the
 * largest capacity. */
static gcut_graph *golden_graph(void)
{
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 4, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 10, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 1, 3, 2), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 2, 0, 7), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 3, 0, INT32_MAX), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, 5, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 1, 2, 9, 3), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 2, 2, 4, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 2, 0, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 3, 0, 0, 6), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 1, 3, INT32_MAX, 1), GCUT_OK);
    return g;
}

static void expect_same_bytes(const char *path, const char *golden_path)
{
    size_t a_len, b_len;
    char *a = slurp(path, &a_len), *b = slurp(golden_path, &b_len);
    if (a_len != b_len || memcmp(a, b, a_len) != 0)
        fail_msg("%s differs from %s:\n----- written\n%.*s----- golden\n%.*s", path, golden_path,
                 (int)a_len, a, (int)b_len, b);
    free(a);
    free(b);
}

static void test_write_golden(void **state)
{
    (void)state;
    gcut_graph *g = golden_graph();
    char path[128];
    assert_int_equal(gcut_graph_write_dimacs(g, tmp_path("golden.max", path, sizeof path)),
                     GCUT_OK);
    expect_same_bytes(path, DATA "golden_small.out");

    /* The stream writer gives the same bytes. */
    FILE *f = fopen(tmp_path("golden_stream.max", path, sizeof path), "wb");
    assert_non_null(f);
    assert_int_equal(gcut_graph_write_dimacs_file(g, f, "golden"), GCUT_OK);
    fclose(f);
    expect_same_bytes(path, DATA "golden_small.out");

    /* And it reads back to the same problem. */
    gcut_graph *h = NULL;
    assert_int_equal(gcut_graph_read_dimacs(DATA "golden_small.out", &h, NULL), GCUT_OK);
    assert_int_equal(maxflow_ref(h), maxflow_ref(g));
    gcut_graph_free(h);
    gcut_graph_free(g);
}

static void test_write_stdout(void **state)
{
    (void)state;
    gcut_graph *g = golden_graph();
    char path[128];
    tmp_path("stdout.max", path, sizeof path);
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    assert_true(saved >= 0);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
    close(fd);
    gcut_status st = gcut_graph_write_dimacs(g, "-");
    fflush(stdout);
    assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
    close(saved);
    assert_int_equal(st, GCUT_OK);
    expect_same_bytes(path, DATA "golden_small.out");
    gcut_graph_free(g);
}

/* Write then read: terminal capacities come back as they were, each positive
 * direction of an edge as its own edge, s and t as two extra nodes. */
static void roundtrip_one(gcut_graph *g, const char *label)
{
    char path[128];
    assert_int_equal(gcut_graph_write_dimacs(g, tmp_path("roundtrip.max", path, sizeof path)),
                     GCUT_OK);
    gcut_graph *h = NULL;
    gcut_dimacs_info info;
    if (gcut_graph_read_dimacs(path, &h, &info) != GCUT_OK)
        fail_msg("%s: %s", label, gcut_last_error());
    const int32_t n = gcut_graph_num_nodes(g);
    const int64_t m = gcut_graph_num_edges(g);
    assert_int_equal(gcut_graph_num_nodes(h), n + 2);
    assert_int_equal(info.source, n);
    assert_int_equal(info.sink, n + 1);
    assert_int_equal(info.dropped, 0);
    int64_t k = 0, terminal_arcs = 0;
    for (int64_t e = 0; e < m; e++) {
        int32_t u, v, cap, rev;
        gcut_graph_get_edge(g, e, &u, &v, &cap, &rev);
        int32_t want[2][3] = {{u, v, cap}, {v, u, rev}};
        for (int d = 0; d < 2; d++) {
            if (want[d][2] == 0)
                continue;
            int32_t hu, hv, hc, hr;
            assert_int_equal(gcut_graph_get_edge(h, k, &hu, &hv, &hc, &hr), GCUT_OK);
            if (hu != want[d][0] || hv != want[d][1] || hc != want[d][2] || hr != 0)
                fail_msg("%s: edge %lld read back as (%d, %d, %d, %d), expected (%d, %d, %d, 0)",
                         label, (long long)k, hu, hv, hc, hr, want[d][0], want[d][1],
                         want[d][2]);
            k++;
        }
    }
    assert_int_equal(gcut_graph_num_edges(h), k);
    for (int32_t v = 0; v < n + 2; v++) {
        int32_t s = 0, t = 0, hs, ht;
        if (v < n)
            gcut_graph_get_tweights(g, v, &s, &t);
        gcut_graph_get_tweights(h, v, &hs, &ht);
        if (s != hs || t != ht)
            fail_msg("%s: node %d terminals (%d, %d) read back as (%d, %d)", label, v, s, t, hs,
                     ht);
        terminal_arcs += (s > 0) + (t > 0);
    }
    assert_int_equal(info.arcs, k + terminal_arcs);
    if (n <= 2000 && maxflow_ref(g) != maxflow_ref(h))
        fail_msg("%s: the flow changed in the round trip", label);
    gcut_graph_free(h);
}

static void test_roundtrip(void **state)
{
    (void)state;
    char label[96];
    for (int fam = 0; fam < TU_FAMILY_COUNT; fam++)
        for (int caps = 0; caps < TU_CAPS_COUNT; caps++)
            for (uint64_t seed = 1; seed <= 2; seed++) {
                gcut_graph *g = tu_random_graph(seed * 1000 + (uint64_t)(fam * 10 + caps),
                                                (tu_family)fam, (tu_caps)caps, 60);
                assert_non_null(g);
                snprintf(label, sizeof label, "%s/%s/%llu", tu_family_name((tu_family)fam),
                         tu_caps_name((tu_caps)caps), (unsigned long long)seed);
                roundtrip_one(g, label);
                gcut_graph_free(g);
            }
    /* The empty graph: only s and t. */
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 0, 0), GCUT_OK);
    roundtrip_one(g, "empty");
    gcut_graph_free(g);
}

/* ------------------------------------------------------- shared instances */

/* Every generated instance of ../shared/data/maxflow: the node and arc
 * counts of its problem line, and the flow value of flows.csv by cpu-ref. */
static void test_shared_instances(void **state)
{
    (void)state;
    glob_t gl;
    if (glob(GCUT_SHARED_DATA "/maxflow/*.max", 0, NULL, &gl) != 0) {
        printf("[  SKIPPED ] no instances in " GCUT_SHARED_DATA "/maxflow (shared data absent)\n");
        skip();
    }
    char csv[4096] = "";
    FILE *fc = fopen(GCUT_SHARED_DATA "/maxflow/flows.csv", "r");
    if (fc) {
        size_t k = fread(csv, 1, sizeof csv - 1, fc);
        csv[k] = '\0';
        fclose(fc);
    }
    for (size_t i = 0; i < gl.gl_pathc; i++) {
        const char *path = gl.gl_pathv[i];
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        char line[256];
        long long n = -1, m = -1;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "p max %lld %lld", &n, &m) == 2)
                break;
        fclose(f);
        gcut_graph *g = NULL;
        gcut_dimacs_info info;
        if (gcut_graph_read_dimacs(path, &g, &info) != GCUT_OK)
            fail_msg("%s", gcut_last_error());
        assert_int_equal(gcut_graph_num_nodes(g), n);
        assert_int_equal(info.arcs, m);
        assert_true(gcut_graph_num_edges(g) + info.dropped <= m);
        /* flows.csv: "name,flow" lines; name is the file name without .max */
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        char key[128];
        snprintf(key, sizeof key, "\n%.*s,", (int)(strlen(base) - 4), base);
        const char *hit = strstr(csv, key);
        if (hit) {
            long long want = atoll(hit + strlen(key));
            if (maxflow_ref(g) != want)
                fail_msg("%s: cpu-ref flow differs from flows.csv (%lld)", path, want);
        }
        gcut_graph_free(g);
    }
    globfree(&gl);
}

/* ------------------------------------------------------------------ main */

static int make_tmp(void **state)
{
    (void)state;
    strcpy(g_tmp, "/tmp/gcut-test-dimacs-XXXXXX");
    return mkdtemp(g_tmp) ? 0 : -1;
}

static int remove_tmp(void **state)
{
    (void)state;
    static const char *const names[] = {
        "big.max",      "long_comment.max",  "terminals.max.gz", "big.max.gz",
        "damaged.max.gz", "magic.max",       "golden.max",       "golden_stream.max",
        "stdout.max",   "roundtrip.max",
    };
    char path[128];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unlink(tmp_path(names[i], path, sizeof path));
    return rmdir(g_tmp) == 0 ? 0 : -1;
}

int main(void)
{
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_read_terminals),
        cmocka_unit_test(test_read_crlf_no_final_newline),
        cmocka_unit_test(test_read_info_optional),
        cmocka_unit_test(test_read_stream_tmpfile),
        cmocka_unit_test(test_read_stdin),
        cmocka_unit_test(test_read_across_blocks),
        cmocka_unit_test(test_long_comment),
        cmocka_unit_test(test_io_errors),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_gzip),
        cmocka_unit_test(test_gzip_big),
        cmocka_unit_test(test_gzip_damaged),
        cmocka_unit_test(test_gzip_magic),
        cmocka_unit_test(test_write_golden),
        cmocka_unit_test(test_write_stdout),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_shared_instances),
    };
    enum { N_FIXED = sizeof fixed / sizeof fixed[0] };
    /* One named test per malformed file, so a failure says which. */
    static struct CMUnitTest tests[N_FIXED + N_BAD];
    static char names[N_BAD][96];
    memcpy(tests, fixed, sizeof fixed);
    for (int i = 0; i < N_BAD; i++) {
        snprintf(names[i], sizeof names[i], "test_bad_file(%s)", BAD_CASES[i].file);
        struct CMUnitTest t = {names[i], test_bad_file, NULL, NULL, (void *)&BAD_CASES[i]};
        tests[N_FIXED + i] = t;
    }
    return _cmocka_run_group_tests("test_dimacs", tests, N_FIXED + N_BAD, make_tmp, remove_tmp);
}
