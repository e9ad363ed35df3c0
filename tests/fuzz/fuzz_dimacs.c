/*
 * fuzz_dimacs.c - libFuzzer target for the DIMACS max-flow reader
 * (gcut_graph_read_dimacs_file), and the solvers behind it.
 *
 * Each input is read twice: from a regular in-memory file (the reader then
 * bounds its first arrays by the file's size) and from an fmemopen stream
 * (no size: the pipe and gzip path). Checks:
 *  - both reads give the same status, the same message for a malformed
 *    input, the same graph for an accepted one (GCUT_ERR_NOMEM aside: the
 *    two paths allocate differently under the cap of fuzz_harness.h);
 *  - a refused input: one of the reader's statuses, gcut_last_status()
 *    agrees, the message names gcut_graph_read_dimacs_file and the input,
 *    *out and the info are untouched, an allocation the cap refused is
 *    reported as GCUT_ERR_NOMEM, and only the node arrays (which a valid
 *    file may honestly declare in gigabytes) may run out;
 *  - an accepted graph: s and t distinct and isolated (s keeps the
 *    capacity of s -> t arcs on both sides), edges within range with
 *    capacities in [0, INT32_MAX] and no reverse capacity, the info's
 *    counts consistent and its byte count the input's size;
 *  - a small accepted graph (up to 4096 nodes, 16384 edges): cpu-ref,
 *    cpu-bk and cpu-hipr give the same flow value and the same canonical
 *    cut, gcut_check_flow accepts each one's flows and cut, and the graph
 *    written by gcut_graph_write_dimacs_file and read back has the same
 *    maximum flow.
 * Violations abort (a crash for libFuzzer); ASan and UBSan catch the rest.
 * Seed corpus: tests/fuzz-corpus/dimacs/ (replayed by CTest).
 */
#include <inttypes.h>

#include "fuzz_harness.h"

#define FUZZ_NAME "fuzz-input"

/* Largest graph solved. */
#define FUZZ_SOLVE_NODES 4096
#define FUZZ_SOLVE_EDGES 16384

static gcut_status read_graph(const uint8_t *data, size_t size, FILE *f, gcut_graph **g,
                              gcut_dimacs_info *info, char *msg, size_t msg_size)
{
    static const gcut_dimacs_info poison = {-7, -7, -7, -7, -7};
    gcut_graph *const sentinel = (gcut_graph *)&poison; /* never dereferenced */
    *g = sentinel;
    *info = poison;
    long refused_before = fuzz_refused;
    gcut_status st = gcut_graph_read_dimacs_file(f, FUZZ_NAME, g, info);
    if (st == GCUT_OK) {
        if (*g == sentinel || !*g)
            fuzz_die("GCUT_OK without a graph", NULL);
        return st;
    }
    snprintf(msg, msg_size, "%s", gcut_last_error());
    if (*g != sentinel || memcmp(info, &poison, sizeof poison) != 0)
        fuzz_die("a refused input changed *out or the info", msg);
    if (fuzz_refused > refused_before && st != GCUT_ERR_NOMEM)
        fuzz_die("an allocation failed but the status is not GCUT_ERR_NOMEM", msg);
    fuzz_check_refusal(data, size, st, "gcut_graph_read_dimacs_file", FUZZ_NAME,
                       "the terminal capacities of");
    *g = NULL;
    return st;
}

static void check_graph(const gcut_graph *g, const gcut_dimacs_info *info, size_t size, int gz)
{
    const int32_t n = gcut_graph_num_nodes(g);
    const int64_t m = gcut_graph_num_edges(g);
    const int32_t s = info->source, t = info->sink;
    if (n < 2 || s < 0 || s >= n || t < 0 || t >= n || s == t)
        fuzz_die("bad node count or terminals", NULL);
    if (m < 0 || info->arcs < m + info->dropped || info->dropped < 0)
        fuzz_die("arc counts inconsistent", NULL);
    if (!gz && info->bytes != (int64_t)size)
        fuzz_die("info.bytes is not the input's size", NULL);
    for (int64_t e = 0; e < m; e++) {
        int32_t u, v, cap, rev;
        if (gcut_graph_get_edge(g, e, &u, &v, &cap, &rev) != GCUT_OK)
            fuzz_die("gcut_graph_get_edge failed", gcut_last_error());
        if (u < 0 || u >= n || v < 0 || v >= n || cap < 0 || rev != 0)
            fuzz_die("edge out of range", NULL);
        if (u == s || u == t || v == s || v == t)
            fuzz_die("an edge touches s or t", NULL);
    }
    int32_t a, b;
    if (gcut_graph_get_tweights(g, s, &a, &b) != GCUT_OK || a != b || a < 0)
        fuzz_die("s must carry equal capacities on both sides (its s -> t arcs)", NULL);
    if (gcut_graph_get_tweights(g, t, &a, &b) != GCUT_OK || a != 0 || b != 0)
        fuzz_die("t must be isolated", NULL);
}

/* Same graph, edge by edge and node by node. */
static void check_same(const gcut_graph *g, const gcut_dimacs_info *i, const gcut_graph *h,
                       const gcut_dimacs_info *j)
{
    if (gcut_graph_num_nodes(g) != gcut_graph_num_nodes(h) ||
        gcut_graph_num_edges(g) != gcut_graph_num_edges(h) || memcmp(i, j, sizeof *i) != 0)
        fuzz_die("the file and the stream give different graphs", NULL);
    for (int64_t e = 0; e < gcut_graph_num_edges(g); e++) {
        int32_t x[4], y[4];
        gcut_graph_get_edge(g, e, &x[0], &x[1], &x[2], &x[3]);
        gcut_graph_get_edge(h, e, &y[0], &y[1], &y[2], &y[3]);
        if (memcmp(x, y, sizeof x) != 0)
            fuzz_die("the file and the stream give different edges", NULL);
    }
    for (int32_t v = 0; v < gcut_graph_num_nodes(g); v++) {
        int32_t x[2], y[2];
        gcut_graph_get_tweights(g, v, &x[0], &x[1]);
        gcut_graph_get_tweights(h, v, &y[0], &y[1]);
        if (memcmp(x, y, sizeof x) != 0)
            fuzz_die("the file and the stream give different terminal capacities", NULL);
    }
}

/* Solve with `backend`; 0 when the memory cap stopped it. */
static int solve(gcut_graph *g, const char *backend, gcut_result *res)
{
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = backend;
    opt.threads = 1;
    opt.want_flows = 1;
    long refused_before = fuzz_refused;
    gcut_status st = gcut_solve(g, &opt, res);
    if (st == GCUT_ERR_NOMEM && fuzz_refused > refused_before)
        return 0;
    if (st != GCUT_OK)
        fuzz_die(backend, gcut_last_error());
    if (gcut_check_flow(g, gcut_result_flow(res), gcut_result_edge_flows(res),
                        gcut_result_cut(res)) != GCUT_OK)
        fuzz_die(backend, gcut_last_error());
    return 1;
}

static void check_solvers(gcut_graph *g)
{
    static const char *const backends[] = {"cpu-ref", "cpu-bk", "cpu-hipr"};
    const int32_t n = gcut_graph_num_nodes(g);
    gcut_result *ref = NULL, *res = NULL;
    if (gcut_result_new(&ref) != GCUT_OK || gcut_result_new(&res) != GCUT_OK)
        goto out; /* the cap: nothing to learn */
    if (!solve(g, backends[0], ref))
        goto out;
    for (size_t k = 1; k < sizeof backends / sizeof *backends; k++) {
        if (!solve(g, backends[k], res))
            continue;
        if (gcut_result_flow(res) != gcut_result_flow(ref))
            fuzz_die("flow value differs from cpu-ref's", backends[k]);
        if (memcmp(gcut_result_cut(res), gcut_result_cut(ref), (size_t)n) != 0)
            fuzz_die("canonical cut differs from cpu-ref's", backends[k]);
    }

    /* Written and read back: n + 2 nodes, the same maximum flow. */
    char *buf = NULL;
    size_t len = 0;
    FILE *w = open_memstream(&buf, &len);
    if (!w)
        goto out;
    gcut_status st = gcut_graph_write_dimacs_file(g, w, "memory");
    fclose(w);
    if (st == GCUT_OK) {
        FILE *r = fmemopen(buf, len, "rb");
        gcut_graph *back = NULL;
        gcut_dimacs_info info;
        if (!r)
            fuzz_die("fmemopen failed", NULL);
        st = gcut_graph_read_dimacs_file(r, "written", &back, &info);
        fclose(r);
        if (st == GCUT_OK) {
            if (gcut_graph_num_nodes(back) != n + 2)
                fuzz_die("the written graph reads back with another node count", NULL);
            if (solve(back, "cpu-bk", res) && gcut_result_flow(res) != gcut_result_flow(ref))
                fuzz_die("the written graph reads back with another maximum flow", NULL);
            gcut_graph_free(back);
        } else if (st != GCUT_ERR_NOMEM) {
            fuzz_die("the written graph does not read back", gcut_last_error());
        }
    } else if (st != GCUT_ERR_NOMEM) {
        fuzz_die("gcut_graph_write_dimacs_file failed", gcut_last_error());
    }
    free(buf);
out:
    gcut_result_free(res);
    gcut_result_free(ref);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_mem_reset();
    const int gz = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;

    /* 1. From a regular file: the size bounds the first arrays. */
    char path[64], msg1[1024] = "", msg2[1024] = "";
    int fd = fuzz_file(data, size, path);
    FILE *f = fdopen(fd, "rb");
    if (!f)
        fuzz_die("fdopen failed", NULL);
    gcut_graph *g = NULL;
    gcut_dimacs_info info;
    gcut_status st = read_graph(data, size, f, &g, &info, msg1, sizeof msg1);
    fclose(f);

    /* 2. From a stream of unknown size (fmemopen refuses 0 bytes). */
    gcut_graph *h = NULL;
    gcut_dimacs_info info2;
    gcut_status st2 = st;
    if (size > 0) {
        FILE *s = fmemopen((void *)data, size, "rb");
        if (!s)
            fuzz_die("fmemopen failed", NULL);
        st2 = read_graph(data, size, s, &h, &info2, msg2, sizeof msg2);
        fclose(s);
    }
    if (st != GCUT_ERR_NOMEM && st2 != GCUT_ERR_NOMEM && size > 0) {
        if (st != st2 || strcmp(msg1, msg2) != 0) {
            fprintf(stderr, "file: %s\nstream: %s\n", msg1, msg2);
            fuzz_die("the file and the stream are read differently", NULL);
        }
        if (st == GCUT_OK)
            check_same(g, &info, h, &info2);
    }
    gcut_graph_free(h);

    if (st == GCUT_OK) {
        check_graph(g, &info, size, gz);
        if (gcut_graph_num_nodes(g) <= FUZZ_SOLVE_NODES &&
            gcut_graph_num_edges(g) <= FUZZ_SOLVE_EDGES)
            check_solvers(g);
        gcut_graph_free(g);
    }
    gcut_clear_error();
    fuzz_mem_check_empty();
    return 0;
}
