/*
 * test_gpu_csr.c - the cuda-csr back end (GPU push-relabel on CSR) against
 * cpu-ref, through gcut_solve.
 *
 * For every graph: the same flow value as cpu-ref, the same canonical cut
 * byte for byte, and gcut_check_flow on the result (with per-edge flows
 * when they are asked for). Every case is solved several times with each
 * scheduling variant: the engine is lock-free and its interleavings differ
 * from run to run, so a result that changes between runs is a race.
 *
 * Environment:
 *   GCUT_GPU_REPEAT  solves of each small case with the default variants
 *                    (default 3; scripts/gpu-check.sh uses 100)
 *   GCUT_TEST_SCALE  scales the number of random cases
 *   GCUT_GPU_QUICK   1: small shapes only, 2: no shapes (for compute-sanitizer)
 *   GCUT_DATA_DIR    folder holding the maxflow/ instances (default ../shared/data)
 *
 * variant=bcsr (WBPR's bidirectional CSR) merges parallel edges and gives
 * no per-edge flows: it is checked on flow value and cut only, and asked
 * for flows it must fail with GCUT_ERR_UNSUPPORTED.
 *
 * Exits 77 (skip) with a message when cuda-csr is unavailable: no device,
 * no driver, or the plugin was not found.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "gcut/plugin.h"

/* The core's layout cache (graph_internal.h; the static library exports it
 * to the tests, which declare it here rather than reach into lib/): builds
 * the graph's RCSR, so that the next cuda-csr solve is handed it. */
gcut_status gcut_i_graph_rcsr(gcut_graph *g, int32_t threads, const gcut_rcsr **out);

static int g_repeat = 3;
static int g_quick; /* GCUT_GPU_QUICK: small shapes only (sanitizer runs) */

/* cpu-ref's answer, computed once per graph. */
typedef struct answer {
    int64_t flow;
    uint8_t *cut;
} answer;

static void reference(gcut_graph *g, answer *a) { a->flow = tu_solve(g, "cpu-ref", &a->cut); }

/* One cuda-csr solve checked against the reference; 0 when it agrees. */
static int gpu_agrees(gcut_graph *g, const answer *ref, const char *params, int want_flows,
                      const char *label)
{
    const int32_t n = gcut_graph_num_nodes(g);
    if (params && strstr(params, "bcsr"))
        want_flows = 0; /* not supported by that layout */
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cuda-csr";
    opt.params = params;
    opt.want_flows = want_flows;
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    int bad = 0;
    if (gcut_solve(g, &opt, res) != GCUT_OK) {
        fprintf(stderr, "%s [%s]: cuda-csr failed: %s\n", label, params, gcut_last_error());
        bad = 1;
    } else if (gcut_result_flow(res) != ref->flow) {
        fprintf(stderr, "%s [%s]: flow %lld, cpu-ref %lld\n", label, params,
                (long long)gcut_result_flow(res), (long long)ref->flow);
        bad = 1;
    } else if (memcmp(gcut_result_cut(res), ref->cut, (size_t)n) != 0) {
        int32_t v = 0;
        while (gcut_result_cut(res)[v] == ref->cut[v])
            v++;
        fprintf(stderr, "%s [%s]: cut differs from cpu-ref at node %d\n", label, params, (int)v);
        bad = 1;
    } else if (gcut_check_flow(g, gcut_result_flow(res),
                               want_flows ? gcut_result_edge_flows(res) : NULL,
                               gcut_result_cut(res)) != GCUT_OK) {
        fprintf(stderr, "%s [%s]: %s\n", label, params, gcut_last_error());
        bad = 1;
    }
    if (bad) {
        char path[512];
        snprintf(path, sizeof path, "/tmp/gcut-fail-gpu-%s.max", label);
        if (gcut_graph_write_dimacs(g, path) == GCUT_OK)
            fprintf(stderr, "  graph written to %s\n", path);
    }
    gcut_result_free(res);
    return bad;
}

/* Parameter sets every case is solved with. The first four (the default
 * worklist engine with its cooperative driver, the thread-centric one, the
 * worklist engine driven by the host, and the worklist on the BCSR layout)
 * are repeated g_repeat times; the others, which exercise the group sizes,
 * the host driver (with its single-block tail kernels) and extreme relabel
 * intervals, twice. Large graphs get the first k_large_variants only: a
 * global relabel after every round, or none at all, costs minutes on a
 * graph with thousands of BFS levels. */
static const char *const k_variants[] = {
    "variant=vc",
    "variant=tc",
    "variant=vc,driver=host",
    "variant=bcsr",
    "variant=vc,group=1",
    "variant=vc,group=32",
    "variant=vc,group=4",
    "variant=vc,group=8,driver=host",
    "variant=vc,group=32,driver=host",
    "variant=vc,relabel_rounds=1,batch=1,driver=host",
    "variant=vc,relabel_rounds=1",
    "variant=vc,relabel_rounds=1000000",
    "variant=tc,relabel_rounds=3",
    "variant=bcsr,driver=host",
    "variant=bcsr,group=1,relabel_rounds=1",
    "variant=bcsr,group=32,driver=host",
};
#define NUM_VARIANTS (int)(sizeof k_variants / sizeof k_variants[0])
#define NUM_MAIN 4 /* repeated g_repeat times */
static const int k_large_variants = 6;

/* Solve g with the variants, `reps` times for the main two; returns the
 * number of disagreements. */
static int check_variants(gcut_graph *g, int nvariants, int reps, int flows_every,
                          const char *label)
{
    answer ref;
    reference(g, &ref);
    int bad = 0;
    for (int k = 0; k < nvariants && bad < 3; k++) {
        const int times = k < NUM_MAIN ? reps : 2;
        for (int r = 0; r < times && bad < 3; r++) {
            const int flows = flows_every > 0 && (r + k) % flows_every == 0;
            bad += gpu_agrees(g, &ref, k_variants[k], flows, label);
        }
    }
    free(ref.cut);
    return bad;
}

static int check_all_variants(gcut_graph *g, int reps, int flows_every, const char *label)
{
    return check_variants(g, NUM_VARIANTS, reps, flows_every, label);
}

static int check_large(gcut_graph *g, int reps, int flows_every, const char *label)
{
    return check_variants(g, k_large_variants, reps, flows_every, label);
}

/* ------------------------------------------------------------ hand-drawn */

/*
 *        3        2        4
 *   s ------> 0 ------> 1 ------> t     The source gives 3: two units go
 *             |         ^               straight 0 -> 1, one goes round
 *          1/1|         | 5             through 2. Flow 3. Afterwards 1
 *             v         |               and 2 still reach t, 0 does not
 *             2 --------+               (0 -> 1 and 0 -> 2 are saturated).
 */
static void test_hand_small(void **state)
{
    (void)state;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 3, 4), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 3, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 1, 0, 4), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, 2, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 2, 1, 1), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 2, 1, 5, 0), GCUT_OK);
    for (int k = 0; k < NUM_VARIANTS; k++) {
        gcut_solve_options opt;
        gcut_solve_options_init(&opt);
        opt.backend = "cuda-csr";
        opt.params = k_variants[k];
        const int flows = strstr(k_variants[k], "bcsr") == NULL;
        opt.want_flows = flows;
        gcut_result *res;
        assert_int_equal(gcut_result_new(&res), GCUT_OK);
        assert_int_equal(gcut_solve(g, &opt, res), GCUT_OK);
        assert_int_equal(gcut_result_flow(res), 3);
        /* Node 0 has residual capacity left from the source side only: all
         * three nodes are on the source side except 1 (it reaches t). */
        const uint8_t *cut = gcut_result_cut(res);
        assert_int_equal(cut[0], GCUT_SOURCE);
        assert_int_equal(cut[1], GCUT_SINK);
        assert_int_equal(cut[2], GCUT_SINK);
        assert_int_equal(
            gcut_check_flow(g, 3, flows ? gcut_result_edge_flows(res) : NULL, cut), GCUT_OK);
        assert_string_equal(gcut_result_backend(res), "cuda-csr");
        gcut_result_free(res);
    }
    gcut_graph_free(g);
}

/* A node linked to both terminals: min(cap_source, cap_sink) cancels, the
 * rest goes through the edges; no edges at all; a single isolated node. */
static void test_hand_terminals(void **state)
{
    (void)state;
    gcut_graph *g;
    /*  s -7-> 0 -2-> t,  0 -9-> 1 -4-> t,  s -1-> 1 : flow 2 + 4 = 6 */
    assert_int_equal(gcut_graph_new(&g, 2, 1), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 0, 7, 2), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 1, 1, 4), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, 9, 0), GCUT_OK);
    answer ref;
    reference(g, &ref);
    assert_int_equal(ref.flow, 6);
    assert_int_equal(gpu_agrees(g, &ref, NULL, 1, "hand-terminals"), 0);
    free(ref.cut);
    gcut_graph_free(g);

    assert_int_equal(gcut_graph_new(&g, 5, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, 3, 5, 5), GCUT_OK);
    reference(g, &ref);
    assert_int_equal(ref.flow, 5);
    assert_int_equal(gpu_agrees(g, &ref, NULL, 1, "hand-no-edges"), 0);
    free(ref.cut);
    gcut_graph_free(g);

    assert_int_equal(gcut_graph_new(&g, 1, 0), GCUT_OK);
    reference(g, &ref);
    assert_int_equal(ref.flow, 0);
    assert_int_equal(gpu_agrees(g, &ref, "variant=tc", 1, "hand-one-node"), 0);
    free(ref.cut);
    gcut_graph_free(g);
}

/*
 * Parallel edges with capacities near INT32_MAX: BCSR merges the three
 * edges 0 -> 1 into one arc pair whose residuals reach 6 (2^31 - 1), past
 * 2^32. Three sources feed 0 through 2, 3, 4 and three sinks drain 1
 * through 5, 6, 7: flow 3 (2^31 - 1). The bcsr variants must agree with
 * cpu-ref (the others too).
 */
static void test_hand_parallel(void **state)
{
    (void)state;
    const int32_t big = INT32_MAX;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 8, 12), GCUT_OK);
    for (int32_t k = 0; k < 3; k++) {
        assert_int_equal(gcut_graph_add_tweights(g, 2 + k, big, 0), GCUT_OK);
        assert_int_equal(gcut_graph_add_tweights(g, 5 + k, 0, big), GCUT_OK);
        assert_int_equal(gcut_graph_add_edge(g, 2 + k, 0, big, 0), GCUT_OK);
        assert_int_equal(gcut_graph_add_edge(g, 1, 5 + k, big, 0), GCUT_OK);
        assert_int_equal(gcut_graph_add_edge(g, 0, 1, big, big), GCUT_OK);
    }
    assert_int_equal(gcut_graph_add_edge(g, 1, 0, 5, 7), GCUT_OK);
    answer ref;
    reference(g, &ref);
    assert_int_equal(ref.flow, 3 * (int64_t)big);
    for (int k = 0; k < NUM_VARIANTS; k++)
        assert_int_equal(gpu_agrees(g, &ref, k_variants[k], 1, "hand-parallel"), 0);
    free(ref.cut);
    gcut_graph_free(g);
}

/* ---------------------------------------------------------------- random */

static void test_random_families(void **state)
{
    (void)state;
    const int cases = g_quick >= 2 ? 2 : tu_scaled(96);
    int failures = 0;
    for (int i = 0; i < cases && failures < 5; i++) {
        const tu_family fam = (tu_family)(i % TU_FAMILY_COUNT);
        const tu_caps caps = (tu_caps)((i / TU_FAMILY_COUNT) % TU_CAPS_COUNT);
        const int32_t size = i % 11 == 0 ? 1500 : (i % 3 == 0 ? 200 : 30);
        const uint64_t seed = 7919ull * (uint64_t)i + 3;
        gcut_graph *g = tu_random_graph(seed, fam, caps, size);
        char label[128];
        snprintf(label, sizeof label, "%s-%s-seed%llu-size%d", tu_family_name(fam),
                 tu_caps_name(caps), (unsigned long long)seed, (int)size);
        const int reps = size <= 200 ? g_repeat : (g_repeat > 10 ? 10 : g_repeat);
        const int f = g_quick >= 2 ? check_variants(g, NUM_MAIN, 1, 2, label)
                                   : check_all_variants(g, reps, 2, label);
        if (f)
            fprintf(stderr, "FAILED: %s (%d disagreements)\n", label, f);
        failures += f != 0;
        gcut_graph_free(g);
    }
    printf("# %d random graphs, %d variants, %d repeats: %d failing\n", cases, NUM_VARIANTS,
           g_repeat, failures);
    assert_int_equal(failures, 0);
}

/* ------------------------------------------------ the device's layout */

/*
 * Graphs reach cuda-csr without a layout unless they already hold the
 * core's (GCUT_BACKEND_LAYS_OUT): every other test here solves on the
 * layout built on the device. This one compares that layout with the
 * core's arc for arc (layout=check: row, col, cap, rrow, rcol, rmap and
 * the edge codes) on every random family, with self-loops, zero and huge
 * capacities, parallel edges, graphs of one node and graphs without arcs,
 * and solves each graph on both layouts and with variant=bcsr on the
 * device's (copied back), all against cpu-ref, with flows.
 */
static int check_layouts(gcut_graph *g, const char *label)
{
    answer ref;
    reference(g, &ref);
    int bad = gpu_agrees(g, &ref, "variant=vc", 1, label);          /* the device's layout */
    bad += gpu_agrees(g, &ref, "variant=bcsr", 0, label);            /* copied to the host */
    const gcut_rcsr *r = NULL;
    assert_int_equal(gcut_i_graph_rcsr(g, 1, &r), GCUT_OK);           /* the core's, kept */
    bad += gpu_agrees(g, &ref, "layout=check", 1, label);
    bad += gpu_agrees(g, &ref, "layout=check,variant=tc", 1, label);
    bad += gpu_agrees(g, &ref, "variant=vc", 1, label);              /* the core's layout */
    bad += gpu_agrees(g, &ref, "layout=device,driver=host", 1, label);
    /* The edges through the pinned buffers: 4 KiB pieces (many per array,
     * cut mid-array), several threads, buffers kept between solves. */
    bad += gpu_agrees(g, &ref, "layout=device,upload=staged,upload_chunk=4096", 1, label);
    bad += gpu_agrees(g, &ref, "layout=check,upload=staged,upload_chunk=4100", 0, label);
    bad += gpu_agrees(g, &ref, "layout=device,upload=pageable", 0, label);
    free(ref.cut);
    return bad;
}

static void test_device_layout(void **state)
{
    (void)state;
    int failures = 0, cases = 0;
    const int count = g_quick >= 2 ? TU_FAMILY_COUNT : tu_scaled(4 * TU_FAMILY_COUNT);
    for (int i = 0; i < count && failures < 5; i++, cases++) {
        const tu_family fam = (tu_family)(i % TU_FAMILY_COUNT);
        const tu_caps caps = (tu_caps)((i / TU_FAMILY_COUNT) % TU_CAPS_COUNT);
        const int32_t size = i % 5 == 0 ? 700 : 40;
        const uint64_t seed = 104729ull * (uint64_t)i + 11;
        gcut_graph *g = tu_random_graph(seed, fam, caps, size);
        char label[128];
        snprintf(label, sizeof label, "layout-%s-%s-seed%llu", tu_family_name(fam),
                 tu_caps_name(caps), (unsigned long long)seed);
        failures += check_layouts(g, label) != 0;
        gcut_graph_free(g);
    }
    /* Edge cases: one node; nodes without edges; only self-loops and zero
     * capacities (edges but no arcs); one edge with both capacities. */
    static const struct {
        int32_t n;
        int32_t m;
        int32_t e[4][4]; /* u, v, cap, rev_cap */
        int32_t ts[2], tt[2];
    } k_tiny[] = {
        {1, 0, {{0}}, {5, 0}, {3, 0}},
        {2, 0, {{0}}, {5, 0}, {0, 4}},
        {2, 3, {{0, 0, 7, 7}, {1, 1, 3, 0}, {0, 1, 0, 0}}, {5, 0}, {0, 4}},
        {2, 1, {{0, 1, 6, 2}}, {5, 0}, {0, 4}},
        {3, 4, {{2, 0, 1, 1}, {0, 1, 3, 0}, {0, 1, 2, 5}, {1, 2, 0, 9}}, {5, 1}, {0, 4}},
    };
    for (size_t t = 0; t < sizeof k_tiny / sizeof k_tiny[0]; t++, cases++) {
        gcut_graph *g;
        assert_int_equal(gcut_graph_new(&g, k_tiny[t].n, k_tiny[t].m), GCUT_OK);
        for (int32_t k = 0; k < k_tiny[t].m; k++)
            assert_int_equal(gcut_graph_add_edge(g, k_tiny[t].e[k][0], k_tiny[t].e[k][1],
                                                 k_tiny[t].e[k][2], k_tiny[t].e[k][3]),
                             GCUT_OK);
        assert_int_equal(gcut_graph_add_tweights(g, 0, k_tiny[t].ts[0], k_tiny[t].tt[0]), GCUT_OK);
        if (k_tiny[t].n > 1)
            assert_int_equal(gcut_graph_add_tweights(g, k_tiny[t].n - 1, k_tiny[t].ts[1],
                                                     k_tiny[t].tt[1]),
                             GCUT_OK);
        char label[64];
        snprintf(label, sizeof label, "layout-tiny%d", (int)t);
        failures += check_layouts(g, label) != 0;
        gcut_graph_free(g);
    }
    printf("# device layouts: %d graphs, %d failing\n", cases, failures);
    assert_int_equal(failures, 0);
}

/* ---------------------------------------------- larger, specific shapes */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int32_t rng_cap(uint64_t *s, int32_t hi) { return (int32_t)(rng_next(s) % (uint64_t)(hi + 1)); }

/* w x h 4-connected grid with random capacities and terminal links. */
static gcut_graph *make_grid(int32_t w, int32_t h, int32_t maxcap, uint64_t seed)
{
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, w * h, 2 * (int64_t)w * h), GCUT_OK);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            const int32_t v = y * w + x;
            if (x + 1 < w)
                gcut_graph_add_edge(g, v, v + 1, rng_cap(&seed, maxcap), rng_cap(&seed, maxcap));
            if (y + 1 < h)
                gcut_graph_add_edge(g, v, v + w, rng_cap(&seed, maxcap), rng_cap(&seed, maxcap));
            const uint64_t t = rng_next(&seed) % 8;
            if (t == 0)
                gcut_graph_add_tweights(g, v, rng_cap(&seed, 4 * maxcap), 0);
            else if (t == 1)
                gcut_graph_add_tweights(g, v, 0, rng_cap(&seed, 4 * maxcap));
        }
    return g;
}

/* A path of n nodes from a source-linked end to a sink-linked end, with
 * random side branches: thousands of BFS levels and push rounds (the host
 * driver's tail kernels and the batched BFS get a long workout). */
static gcut_graph *make_path(int32_t n, uint64_t seed)
{
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, n, 2 * (int64_t)n), GCUT_OK);
    for (int32_t v = 0; v + 1 < n; v++) {
        gcut_graph_add_edge(g, v, v + 1, 1 + rng_cap(&seed, 100), rng_cap(&seed, 3));
        if (v > 10 && rng_next(&seed) % 4 == 0) {
            const int32_t u = (int32_t)(rng_next(&seed) % (uint64_t)v);
            gcut_graph_add_edge(g, v, u, rng_cap(&seed, 50), 0);
        }
    }
    gcut_graph_add_tweights(g, 0, 1000000, 0);
    gcut_graph_add_tweights(g, n - 1, 0, 1000000);
    gcut_graph_add_tweights(g, n / 2, 30, 0);
    return g;
}

/* Bipartite unit-capacity matching instance, with parallel edges. */
static gcut_graph *make_bipartite(int32_t l, int32_t r, int32_t d, uint64_t seed)
{
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, l + r, (int64_t)l * d), GCUT_OK);
    for (int32_t u = 0; u < l; u++) {
        gcut_graph_add_tweights(g, u, 1, 0);
        for (int32_t k = 0; k < d; k++)
            gcut_graph_add_edge(g, u, l + (int32_t)(rng_next(&seed) % (uint64_t)r), 1, 0);
    }
    for (int32_t v = 0; v < r; v++)
        gcut_graph_add_tweights(g, l + v, 0, 1);
    return g;
}

/* Random sparse graph with huge capacities (totals far past 2^32), a few
 * hubs of high degree (a warp's worth of arcs and more), self-loops and
 * zero-capacity edges. */
static gcut_graph *make_hubs(int32_t n, uint64_t seed)
{
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, n, 6 * (int64_t)n), GCUT_OK);
    for (int32_t v = 0; v < n; v++) {
        for (int k = 0; k < 3; k++) {
            int32_t u = (int32_t)(rng_next(&seed) % (uint64_t)n);
            if (rng_next(&seed) % 16 == 0)
                u = (int32_t)(rng_next(&seed) % 8); /* a hub */
            const uint64_t kind = rng_next(&seed) % 10;
            const int32_t c = kind == 0 ? 0 : kind < 4 ? INT32_MAX - (int32_t)(rng_next(&seed) % 100)
                                                       : rng_cap(&seed, 1000000);
            gcut_graph_add_edge(g, v, kind == 1 ? v : u, c, rng_cap(&seed, 1000));
        }
        const uint64_t t = rng_next(&seed) % 10;
        if (t == 0)
            gcut_graph_add_tweights(g, v, INT32_MAX, 0);
        else if (t == 1)
            gcut_graph_add_tweights(g, v, 0, INT32_MAX - 5);
        else if (t == 2)
            gcut_graph_add_tweights(g, v, 1000, 999);
    }
    return g;
}

static void test_shapes(void **state)
{
    (void)state;
    const int reps = g_repeat > 10 ? g_repeat / 20 + 2 : 2;
    int failures = 0;
    gcut_graph *g;
    if (g_quick >= 2)
        return;
    const int32_t k = g_quick ? 8 : 1;
    g = make_grid(256 / k, 256 / k, 100, 11);
    failures += check_large(g, reps, 3, "grid256");
    gcut_graph_free(g);
    g = make_grid(1000 / k, 3, 10, 12);
    failures += check_large(g, reps, 3, "grid1000x3");
    gcut_graph_free(g);
    g = make_path(5000 / k, 13);
    failures += check_large(g, reps, 3, "path5000");
    gcut_graph_free(g);
    g = make_bipartite(20000 / k, 15000 / k, 3, 14);
    failures += check_large(g, reps, 3, "bipartite");
    gcut_graph_free(g);
    g = make_hubs(30000 / k, 15);
    failures += check_large(g, reps, 3, "hubs");
    gcut_graph_free(g);
    assert_int_equal(failures, 0);
}

/* The checked-in DIMACS instances with known flows, when the data folder
 * is there. */
static void test_instances(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int64_t flow;
    } inst[] = {
        {"tiny_genrmf_3x3.max", 31855},  {"tiny_grid_8x6.max", 2190},
        {"tiny_rlg_5x6.max", 62906},     {"genrmf_a16_b16.max", 1277941},
        {"grid_128x128.max", 812491},    {"rlg_64x128.max", 962314},
    };
    const char *dir = getenv("GCUT_DATA_DIR");
    int found = 0, failures = 0;
    for (size_t i = 0; i < sizeof inst / sizeof inst[0]; i++) {
        char buf[1024], rel[256];
        const char *path = NULL;
        if (g_quick >= 2 && strncmp(inst[i].file, "tiny", 4) != 0)
            continue;
        snprintf(rel, sizeof rel, "maxflow/%s", inst[i].file);
        if (dir && *dir) {
            snprintf(buf, sizeof buf, "%s/%s", dir, rel);
            FILE *f = fopen(buf, "rb");
            if (f) {
                fclose(f);
                path = buf;
            }
        }
        if (!path)
            path = tu_shared_data(rel, buf, sizeof buf);
        if (!path)
            continue;
        found++;
        gcut_graph *g;
        assert_int_equal(gcut_graph_read_dimacs(path, &g, NULL), GCUT_OK);
        answer ref;
        reference(g, &ref);
        assert_int_equal(ref.flow, inst[i].flow);
        const int reps = g_repeat > 10 ? 10 : g_repeat;
        for (int r = 0; r < reps; r++) {
            failures += gpu_agrees(g, &ref, "variant=vc", r % 2, inst[i].file);
            failures += gpu_agrees(g, &ref, "variant=tc", (r + 1) % 2, inst[i].file);
            failures += gpu_agrees(g, &ref, "variant=bcsr", 0, inst[i].file);
        }
        free(ref.cut);
        gcut_graph_free(g);
    }
    if (!found)
        printf("# skip: no maxflow instances (set GCUT_DATA_DIR or provide ../shared/data)\n");
    assert_int_equal(failures, 0);
}

/* ------------------------------------------------ the finish on the host */

/*
 * finish=N hands phase I over to the host (cuda/csr/csr_finish.c) once a
 * relabel cycle counts at most N active vertices: with N = INT32_MAX right
 * after the first cycle, so that the host takes a preflow in the middle of
 * the work. Every random family, both drivers, variant tc, the core's
 * layout and the device's, flows on and off (phase II then runs on the
 * device from the host's state), against cpu-ref; and a log sink checks
 * that the hand-over happened.
 */
static int g_handoffs;

static void count_handoffs(void *user, gcut_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    if (strstr(msg, "finished on the host"))
        g_handoffs++;
}

static void test_finish_on_host(void **state)
{
    (void)state;
    static const char *const params[] = {
        "finish=2147483647",
        "finish=2147483647,driver=host",
        "finish=2147483647,variant=tc",
        "finish=2147483647,relabel_rounds=1",
        "finish=16",
        "finish=off",
        "finish=auto,coop_until=2147483647",
        "coop_until=2147483647",
    };
    const int np = (int)(sizeof params / sizeof params[0]);
    int failures = 0, cases = 0;
    const int count = g_quick >= 2 ? TU_FAMILY_COUNT : tu_scaled(6 * TU_FAMILY_COUNT);
    for (int i = 0; i < count && failures < 5; i++, cases++) {
        const tu_family fam = (tu_family)(i % TU_FAMILY_COUNT);
        const tu_caps caps = (tu_caps)((i / TU_FAMILY_COUNT) % TU_CAPS_COUNT);
        const int32_t size = i % 4 == 0 ? 2000 : i % 4 == 1 ? 300 : 40;
        const uint64_t seed = 130363ull * (uint64_t)i + 5;
        gcut_graph *g = tu_random_graph(seed, fam, caps, size);
        char label[128];
        snprintf(label, sizeof label, "finish-%s-%s-seed%llu", tu_family_name(fam),
                 tu_caps_name(caps), (unsigned long long)seed);
        answer ref;
        reference(g, &ref);
        int bad = 0;
        for (int k = 0; k < np; k++)
            bad += gpu_agrees(g, &ref, params[k], (i + k) % 2, label);
        const gcut_rcsr *r = NULL;
        assert_int_equal(gcut_i_graph_rcsr(g, 1, &r), GCUT_OK); /* the core's layout now */
        bad += gpu_agrees(g, &ref, "finish=2147483647", 1, label);
        bad += gpu_agrees(g, &ref, "finish=2147483647,driver=host", 0, label);
        free(ref.cut);
        failures += bad != 0;
        gcut_graph_free(g);
    }
    /* A long path: many cycles, the hand-over logged once per solve. */
    gcut_graph *g = make_path(g_quick ? 500 : 20000, 21);
    answer ref;
    reference(g, &ref);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cuda-csr";
    opt.params = "finish=2147483647";
    opt.verbosity = 2; /* the hand-over's line is GCUT_LOG_INFO */
    opt.log = count_handoffs;
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    g_handoffs = 0;
    assert_int_equal(gcut_solve(g, &opt, res), GCUT_OK);
    assert_int_equal(gcut_result_flow(res), ref.flow);
    assert_memory_equal(gcut_result_cut(res), ref.cut, (size_t)gcut_graph_num_nodes(g));
    assert_int_equal(g_handoffs, 1);
    opt.params = "finish=off";
    g_handoffs = 0;
    assert_int_equal(gcut_solve(g, &opt, res), GCUT_OK);
    assert_int_equal(g_handoffs, 0);
    gcut_result_free(res);
    free(ref.cut);
    gcut_graph_free(g);
    printf("# finish on the host: %d random graphs, %d settings each: %d failing\n", cases,
           np + 2, failures);
    assert_int_equal(failures, 0);
}

/* ------------------------------------------------------ options, errors */

static gcut_status solve_with(gcut_graph *g, const char *params, double limit, gcut_stats *stats)
{
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cuda-csr";
    opt.params = params;
    opt.time_limit = limit;
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_status st = gcut_solve(g, &opt, res);
    if (st == GCUT_OK && stats)
        *stats = *gcut_result_stats(res);
    gcut_result_free(res);
    return st;
}

static void test_params(void **state)
{
    (void)state;
    gcut_graph *g = make_grid(16, 16, 10, 5);
    assert_int_equal(solve_with(g, "bogus=1", 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(solve_with(g, "variant=xx", 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(solve_with(g, "group=3", 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(solve_with(g, "relabel_freq=0", 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(solve_with(g, "batch", 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(solve_with(g, "batch=0", 0, NULL), GCUT_ERR_INVALID);
    /* tail and ops were removed in 0.2: unknown keys now. */
    assert_int_equal(solve_with(g, "tail=off", 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(solve_with(g, "ops=1", 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(solve_with(g, "driver=gpu", 0, NULL), GCUT_ERR_INVALID);
    /* The core's parser: an empty item is malformed, as for every back end. */
    assert_int_equal(solve_with(g, "variant=vc,,batch=2", 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(solve_with(g, "driver=host", 0, NULL), GCUT_OK);
    assert_int_equal(solve_with(g, "variant=tc,driver=coop", 0, NULL), GCUT_OK);
    assert_int_equal(solve_with(g, "variant=tc,relabel_freq=0.5,batch=4,", 0, NULL), GCUT_OK);
    assert_int_equal(solve_with(g, "", 0, NULL), GCUT_OK);
    assert_int_equal(solve_with(g, "variant=bcs", 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(solve_with(g, "variant=bcsr,group=3", 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(solve_with(g, "variant=bcsr,driver=host", 0, NULL), GCUT_OK);
    assert_int_equal(solve_with(g, "layout=host", 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(solve_with(g, "finish=0", 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(solve_with(g, "finish=some", 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(solve_with(g, "finish=off", 0, NULL), GCUT_OK);
    assert_int_equal(solve_with(g, "finish=auto", 0, NULL), GCUT_OK);
    assert_int_equal(solve_with(g, "coop_until=0", 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(solve_with(g, "upload=pinned", 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(solve_with(g, "upload_chunk=100", 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(solve_with(g, "upload=staged,upload_chunk=8192", 0, NULL), GCUT_OK);
    assert_int_equal(solve_with(g, "coop_until=auto", 0, NULL), GCUT_OK);
    assert_int_equal(solve_with(g, "coop_until=off,driver=host", 0, NULL), GCUT_OK);
    assert_int_equal(solve_with(g, "finish=1,variant=bcsr", 0, NULL), GCUT_OK); /* not on bcsr */
    assert_int_equal(solve_with(g, "layout=device", 0, NULL), GCUT_OK);
    /* Nothing to compare with: the graph holds no layout of the core's. */
    assert_int_equal(solve_with(g, "layout=check", 0, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "layout=check"));
    /* No per-edge flows on the merged layout: a clear refusal. */
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cuda-csr";
    opt.params = "variant=bcsr";
    opt.want_flows = 1;
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    assert_int_equal(gcut_solve(g, &opt, res), GCUT_ERR_UNSUPPORTED);
    assert_non_null(strstr(gcut_last_error(), "bcsr"));
    gcut_result_free(res);
    gcut_graph_free(g);
}

static void test_stats_and_timeout(void **state)
{
    (void)state;
    gcut_graph *g = make_path(g_quick ? 500 : 20000, 21);
    gcut_stats st;
    memset(&st, 0, sizeof st);
    assert_int_equal(solve_with(g, NULL, 0, &st), GCUT_OK);
    assert_true(st.rounds > 0);
    assert_true(st.global_relabels >= 2);
    assert_true(st.pushes > 0);
    assert_true(st.solve_ms > 0);
    printf("# path: %lld rounds, %lld global relabels, %lld pushes, %lld relabels, "
           "init %.2f ms, solve %.2f ms, cut %.2f ms, transfers %.2f ms\n",
           (long long)st.rounds, (long long)st.global_relabels, (long long)st.pushes,
           (long long)st.relabels, st.init_ms, st.solve_ms, st.cut_ms, st.transfer_ms);
    assert_int_equal(solve_with(g, NULL, 1e-7, NULL), GCUT_ERR_TIMEOUT);
    assert_int_equal(solve_with(g, "driver=host", 1e-7, NULL), GCUT_ERR_TIMEOUT);
    assert_int_equal(solve_with(g, "finish=2147483647", 1e-7, NULL), GCUT_ERR_TIMEOUT);
    gcut_graph_free(g);
}

int main(void)
{
    int32_t idx;
    const char *why = "not registered";
    if (gcut_backend_find("cuda-csr", &idx) != GCUT_OK || !gcut_backend_available(idx, &why)) {
        printf("skip: cuda-csr is unavailable: %s\n", why);
        return 77;
    }
    const char *rep = getenv("GCUT_GPU_REPEAT");
    if (rep && atoi(rep) > 0)
        g_repeat = atoi(rep);
    const char *quick = getenv("GCUT_GPU_QUICK");
    g_quick = quick ? atoi(quick) : 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_small),
        cmocka_unit_test(test_hand_terminals),
        cmocka_unit_test(test_hand_parallel),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_stats_and_timeout),
        cmocka_unit_test(test_instances),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_random_families),
        cmocka_unit_test(test_device_layout),
        cmocka_unit_test(test_finish_on_host),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
