/*
 * test_csr_finish.c - cuda-csr's finish on the host (cuda/csr/csr_finish.c),
 * built into this CPU suite so that it runs in CI without a device. The
 * finish continues push-relabel from whatever preflow the GPU leaves; here
 * it starts from the engine's initial state (terminal capacities
 * cancelled, no flow) and from preflows it left itself when stopped after
 * a random number of pushes, on every random family against cpu-ref: the
 * same flow value and the same canonical cut, byte for byte, on both index
 * widths of the layout. test_gpu_csr checks the hand-off from the device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "gcut/plugin.h"
#include "csr/csr_finish.h"

/* The tests' hook (graph_internal.h); the static library exports it to
 * this test, which declares it here rather than reach into lib/. */
gcut_status gcut_i_csr_layouts(const gcut_graph *g, int32_t threads, gcut_bcsr *b, gcut_rcsr *r,
                               void **stores);
void gcut_i_csr_layouts_free(void **stores);

static int g_fail_alloc_after = -1; /* allocations left before one fails; -1: never */

static void *t_alloc(size_t bytes)
{
    if (g_fail_alloc_after == 0)
        return NULL;
    if (g_fail_alloc_after > 0)
        g_fail_alloc_after--;
    return malloc(bytes);
}

static int g_polls, g_stop_at_poll;

static gcut_status t_poll(void *ctx, int64_t active)
{
    (void)ctx;
    (void)active;
    return ++g_polls == g_stop_at_poll ? GCUT_ERR_TIMEOUT : GCUT_OK;
}

/* The engine's state of one graph: its RCSR (int64 offsets, and a uint32
 * copy), the preflow, and the terminal capacities. */
typedef struct state {
    gcut_rcsr r;
    void *stores[2];
    uint32_t *row32, *rrow32, *rmap32;
    int32_t n;
    int32_t *flow, *term, *cap_sink;
    int64_t *excess;
} state;

static void state_init(state *s, gcut_graph *g)
{
    memset(s, 0, sizeof *s);
    gcut_bcsr b;
    assert_int_equal(gcut_i_csr_layouts(g, 1, &b, &s->r, s->stores), GCUT_OK);
    const int32_t n = s->n = gcut_graph_num_nodes(g);
    const int64_t m = s->r.m;
    const size_t nn = (size_t)n + 1, mm = (size_t)m + 1;
    s->flow = calloc(mm, sizeof(int32_t));
    s->term = calloc(nn, sizeof(int32_t));
    s->cap_sink = calloc(nn, sizeof(int32_t));
    s->excess = calloc(nn, sizeof(int64_t));
    s->row32 = calloc(nn, sizeof(uint32_t));
    s->rrow32 = calloc(nn, sizeof(uint32_t));
    s->rmap32 = calloc(mm, sizeof(uint32_t));
    assert_true(s->flow && s->term && s->cap_sink && s->excess && s->row32 && s->rrow32 &&
                s->rmap32);
    for (int32_t v = 0; v <= n; v++) {
        s->row32[v] = (uint32_t)s->r.row[v];
        s->rrow32[v] = (uint32_t)s->r.rrow[v];
    }
    for (int64_t a = 0; a < m; a++)
        s->rmap32[a] = (uint32_t)s->r.rmap[a];
    for (int32_t v = 0; v < n; v++) {
        int32_t cs = 0, ct = 0;
        assert_int_equal(gcut_graph_get_tweights(g, v, &cs, &ct), GCUT_OK);
        const int32_t c = cs < ct ? cs : ct;
        s->excess[v] = cs - c; /* init_kernel's cancellation */
        s->term[v] = ct - c;
        s->cap_sink[v] = ct;
    }
}

static void state_free(state *s)
{
    gcut_i_csr_layouts_free(s->stores);
    free(s->flow);
    free(s->term);
    free(s->cap_sink);
    free(s->excess);
    free(s->row32);
    free(s->rrow32);
    free(s->rmap32);
}

static gcut_cu_finish_graph view_of(const state *s, int idx32)
{
    gcut_cu_finish_graph v = {s->n, s->r.m, idx32,
                              idx32 ? (const void *)s->row32 : (const void *)s->r.row,
                              idx32 ? (const void *)s->rrow32 : (const void *)s->r.rrow,
                              idx32 ? (const void *)s->rmap32 : (const void *)s->r.rmap,
                              s->r.col, s->r.cap, s->r.rcol};
    return v;
}

static gcut_cu_finish_env env_of(int64_t max_pushes)
{
    gcut_cu_finish_env e = {t_alloc, free, NULL, NULL, 0, max_pushes};
    return e;
}

/* The state must be a preflow: flows within their capacities, and every
 * vertex's excess what its source capacity and arcs bring minus what it
 * sent to the sink. */
static void expect_preflow(const state *s, const gcut_graph *g, const char *label)
{
    const int32_t n = s->n;
    int64_t *bal = calloc((size_t)n + 1, sizeof(int64_t));
    assert_non_null(bal);
    for (int32_t v = 0; v < n; v++) {
        int32_t cs = 0, ct = 0;
        assert_int_equal(gcut_graph_get_tweights(g, v, &cs, &ct), GCUT_OK);
        bal[v] = (int64_t)cs - ((int64_t)ct - s->term[v]);
        if (s->term[v] < 0 || s->term[v] > ct)
            fail_msg("%s: term[%d] = %d outside [0, %d]", label, (int)v, (int)s->term[v], (int)ct);
    }
    for (int32_t u = 0; u < n; u++)
        for (int64_t a = s->r.row[u]; a < s->r.row[u + 1]; a++) {
            if (s->flow[a] < 0 || s->flow[a] > s->r.cap[a])
                fail_msg("%s: flow[%lld] = %d outside [0, %d]", label, (long long)a,
                         (int)s->flow[a], (int)s->r.cap[a]);
            bal[u] -= s->flow[a];
            bal[s->r.col[a]] += s->flow[a];
        }
    for (int32_t v = 0; v < n; v++)
        if (bal[v] != s->excess[v] || s->excess[v] < 0)
            fail_msg("%s: vertex %d holds excess %lld, its arcs say %lld", label, (int)v,
                     (long long)s->excess[v], (long long)bal[v]);
    free(bal);
}

/* Finish g (after `stops` interruptions at random push counts) and compare
 * with cpu-ref. */
static void check_graph(gcut_graph *g, int idx32, int stops, uint64_t seed, const char *label)
{
    state s;
    state_init(&s, g);
    const gcut_cu_finish_graph view = view_of(&s, idx32);
    tu_rng rng = {seed};
    for (int k = 0; k < stops; k++) {
        const gcut_cu_finish_env e = env_of(tu_range(&rng, 1, 40));
        const gcut_status st = gcut_cu_csr_finish(&view, s.flow, s.excess, s.term, NULL, &e, NULL);
        if (st != GCUT_OK && st != GCUT_ERR_INTERRUPTED)
            fail_msg("%s: stop %d: status %d", label, k, (int)st);
        expect_preflow(&s, g, label);
    }
    uint8_t *cut = malloc((size_t)s.n + 1);
    assert_non_null(cut);
    const gcut_cu_finish_env e = env_of(-1);
    gcut_cu_finish_stats stats;
    assert_int_equal(gcut_cu_csr_finish(&view, s.flow, s.excess, s.term, cut, &e, &stats),
                     GCUT_OK);
    expect_preflow(&s, g, label);
    int64_t flow = 0;
    for (int32_t v = 0; v < s.n; v++)
        flow += (int64_t)s.cap_sink[v] - s.term[v];
    uint8_t *ref_cut = NULL;
    const int64_t ref = tu_solve(g, "cpu-ref", &ref_cut);
    if (flow != ref)
        fail_msg("%s: flow %lld, cpu-ref %lld", label, (long long)flow, (long long)ref);
    for (int32_t v = 0; v < s.n; v++)
        if (cut[v] != ref_cut[v])
            fail_msg("%s: node %d on side %d, cpu-ref %d", label, (int)v, cut[v], ref_cut[v]);
    free(ref_cut);
    free(cut);
    state_free(&s);
}

static void test_random_families(void **st)
{
    (void)st;
    const int per = tu_scaled(6);
    int cases = 0;
    for (int f = 0; f < TU_FAMILY_COUNT; f++)
        for (int c = 0; c < TU_CAPS_COUNT; c++)
            for (int i = 0; i < per; i++) {
                const uint64_t seed = 1000u * (uint64_t)f + 100u * (uint64_t)c + (uint64_t)i;
                const int32_t size = (int32_t)(i % 3 == 0 ? 12 : i % 3 == 1 ? 150 : 900);
                gcut_graph *g = tu_random_graph(seed, (tu_family)f, (tu_caps)c, size);
                char label[96];
                snprintf(label, sizeof label, "finish-%s-%s-%d", tu_family_name((tu_family)f),
                         tu_caps_name((tu_caps)c), i);
                check_graph(g, i & 1, 0, seed, label); /* from the start */
                check_graph(g, !(i & 1), 1 + i % 4, seed, label); /* after stops */
                gcut_graph_free(g);
                cases++;
            }
    printf("finish: %d graphs, each from the start and after 1-4 stops, against cpu-ref\n", cases);
}

/* Dead ends, a distance of exactly n and excess that cannot leave. */
static void test_corner_cases(void **st)
{
    (void)st;
    /* A path 0 -> 1 -> 2 -> sink with the source at its far end: vertex 0
     * is at distance 3 = n, still live. */
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 3, 2), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 7, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 2, 0, 5), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, 9, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 1, 2, 6, 0), GCUT_OK);
    check_graph(g, 0, 0, 1, "path-n");
    check_graph(g, 1, 2, 2, "path-n-stops");
    gcut_graph_free(g);
    /* Excess with nowhere to go, a node with no arcs, a self-loop. */
    assert_int_equal(gcut_graph_new(&g, 4, 3), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 10, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 1, 4, 3), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 3, 0, 8), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, 2, 1), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 2, 2, 5, 5), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 1, 3, 0, 4), GCUT_OK);
    check_graph(g, 0, 0, 3, "stuck");
    check_graph(g, 1, 3, 4, "stuck-stops");
    gcut_graph_free(g);
}

/* A poll that says stop, and allocations that fail: the status comes
 * back, nothing leaks (ASan), and the state is still a preflow. */
static void test_stops_and_failures(void **st)
{
    (void)st;
    gcut_graph *g = tu_random_graph(77, TU_LAYERED, TU_CAPS_MEDIUM, 3000);
    state s;
    state_init(&s, g);
    const gcut_cu_finish_graph view = view_of(&s, 0);
    gcut_cu_finish_env e = env_of(-1);
    e.poll = t_poll;
    e.poll_every = 1;
    g_polls = 0;
    g_stop_at_poll = 5;
    assert_int_equal(gcut_cu_csr_finish(&view, s.flow, s.excess, s.term, NULL, &e, NULL),
                     GCUT_ERR_TIMEOUT);
    assert_int_equal(g_polls, 5);
    expect_preflow(&s, g, "poll");
    for (int k = 0; k < 7; k++) {
        g_fail_alloc_after = k;
        e = env_of(-1);
        assert_int_equal(gcut_cu_csr_finish(&view, s.flow, s.excess, s.term, NULL, &e, NULL),
                         GCUT_ERR_NOMEM);
    }
    g_fail_alloc_after = -1;
    state_free(&s);
    check_graph(g, 0, 0, 5, "after-failures");
    gcut_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_families),
        cmocka_unit_test(test_corner_cases),
        cmocka_unit_test(test_stops_and_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
