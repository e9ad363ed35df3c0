/*
 * test_hipr.c - what is particular to cpu-hipr and to the shared phase II
 * (lib/solvers/flow.c): phase II on hand-made preflows with flow cycles and
 * on random preflows, its internal-error path, the statistics, the time
 * limit, and the heuristics (gap, global relabelling) on instances where
 * they must fire. Flow values and cuts of every engine against cpu-ref are
 * test_crosscheck's job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "gcut/plugin.h"

/* Phase II is internal (solvers_internal.h); the static library exports it
 * to this test, which declares it here rather than reach into lib/. */
gcut_status gcut_i_preflow_to_flow(const gcut_bcsr *b, uint32_t *res, int64_t *excess,
                                   int64_t *src_used);

/* A BCSR layout built the way csr.c builds it: both arcs of every edge
 * (u, v, cap, rev) under their tails, in edge order. */
typedef struct layout {
    gcut_bcsr b;
    int64_t *first, *sister, *edge;
    int32_t *head, *cap;
} layout;

static void layout_build(layout *l, int32_t n, int64_t m, const int32_t *eu, const int32_t *ev,
                         const int32_t *ecap, const int32_t *erev)
{
    l->first = calloc((size_t)n + 1, sizeof(int64_t));
    l->head = malloc((size_t)(2 * m + 1) * sizeof(int32_t));
    l->cap = malloc((size_t)(2 * m + 1) * sizeof(int32_t));
    l->sister = malloc((size_t)(2 * m + 1) * sizeof(int64_t));
    l->edge = malloc((size_t)(2 * m + 1) * sizeof(int64_t));
    int64_t *pos = malloc(((size_t)n + 1) * sizeof(int64_t));
    assert_true(l->first && l->head && l->cap && l->sister && l->edge && pos);
    for (int64_t e = 0; e < m; e++) {
        l->first[eu[e] + 1]++;
        l->first[ev[e] + 1]++;
    }
    for (int32_t v = 0; v < n; v++)
        l->first[v + 1] += l->first[v];
    memcpy(pos, l->first, ((size_t)n + 1) * sizeof(int64_t));
    for (int64_t e = 0; e < m; e++) {
        const int64_t a = pos[eu[e]]++, r = pos[ev[e]]++;
        l->head[a] = ev[e], l->cap[a] = ecap[e], l->sister[a] = r, l->edge[a] = 2 * e;
        l->head[r] = eu[e], l->cap[r] = erev[e], l->sister[r] = a, l->edge[r] = 2 * e + 1;
    }
    free(pos);
    l->b = (gcut_bcsr){n, 2 * m, l->first, l->head, l->sister, l->cap, l->edge};
}

static void layout_free(layout *l)
{
    free(l->first);
    free(l->head);
    free(l->cap);
    free(l->sister);
    free(l->edge);
}

/* Put flow f on arc a (and -f on its sister). */
static void send(const layout *l, uint32_t *res, int64_t a, int64_t f)
{
    res[a] -= (uint32_t)f;
    res[l->sister[a]] += (uint32_t)f;
}

/* After phase II: no excess, residuals within the pair's capacity, and
 * every node balanced: source flow in plus edge flow in equals edge flow
 * out plus what it sent to the sink (sink_flow, may be NULL for none). */
static void assert_flow(const layout *l, const uint32_t *res, const int64_t *excess,
                        const int64_t *src_used, const int64_t *sink_flow)
{
    const int32_t n = l->b.n;
    int64_t *bal = calloc((size_t)n + 1, sizeof(int64_t));
    assert_non_null(bal);
    for (int32_t v = 0; v < n; v++) {
        assert_int_equal(excess[v], 0);
        assert_true(src_used[v] >= 0);
        bal[v] += src_used[v] - (sink_flow ? sink_flow[v] : 0);
        for (int64_t a = l->first[v]; a < l->first[v + 1]; a++) {
            const int64_t total = (int64_t)l->cap[a] + l->cap[l->sister[a]];
            assert_true((int64_t)res[a] <= total);
            bal[v] -= (int64_t)l->cap[a] - (int64_t)res[a]; /* net flow out on the pair */
        }
    }
    for (int32_t v = 0; v < n; v++)
        if (bal[v] != 0)
            fail_msg("node %d unbalanced by %lld", (int)v, (long long)bal[v]);
    free(bal);
}

/*
 * A flow cycle with excess on it:
 *
 *        s --4--> 0 ==5==> 1
 *                 ^        |
 *                 3        3
 *                 |        v
 *                 +-- 2 <--+
 *
 * 0 -> 1 carries 5, 1 -> 2 and 2 -> 0 carry 3 (a cycle of 3 through 0):
 * node 0 has 4 + 3 - 5 = 2 excess, node 1 has 5 - 3 = 2. Both must go back
 * to the source, which then sends nothing.
 */
static void test_phase2_cycle(void **state)
{
    (void)state;
    const int32_t eu[] = {0, 1, 2}, ev[] = {1, 2, 0}, cap[] = {5, 5, 5}, rev[] = {0, 0, 0};
    layout l;
    layout_build(&l, 3, 3, eu, ev, cap, rev);
    uint32_t res[6];
    for (int a = 0; a < 6; a++)
        res[a] = (uint32_t)l.cap[a];
    /* the u->v arc of edge e is the one with edge == 2e */
    for (int64_t a = 0; a < 6; a++) {
        if (l.edge[a] == 0)
            send(&l, res, a, 5);
        else if (l.edge[a] == 2 || l.edge[a] == 4)
            send(&l, res, a, 3);
    }
    int64_t excess[] = {2, 2, 0}, src_used[] = {4, 0, 0};
    assert_int_equal(gcut_i_preflow_to_flow(&l.b, res, excess, src_used), GCUT_OK);
    assert_flow(&l, res, excess, src_used, NULL);
    assert_int_equal(src_used[0], 0);
    layout_free(&l);
}

/* Excess that no flow brought in is a bug in the caller: reported, not hidden. */
static void test_phase2_internal_error(void **state)
{
    (void)state;
    const int32_t eu[] = {0}, ev[] = {1}, cap[] = {3}, rev[] = {0};
    layout l;
    layout_build(&l, 2, 1, eu, ev, cap, rev);
    uint32_t res[2] = {(uint32_t)l.cap[0], (uint32_t)l.cap[1]};
    int64_t excess[] = {0, 7}, src_used[] = {0, 0};
    assert_int_equal(gcut_i_preflow_to_flow(&l.b, res, excess, src_used), GCUT_ERR_INTERNAL);
    assert_int_equal(gcut_last_status(), GCUT_ERR_INTERNAL);
    layout_free(&l);
}

/*
 * Random preflows: from random nodes the source sends random amounts along
 * random residual walks (which revisit nodes, so the flow gets cycles and
 * loops), each walk either ending at the sink or stopping anywhere and
 * leaving its amount there as excess. Phase II must empty every node and
 * leave the sink flows as they were.
 */
static void test_phase2_random(void **state)
{
    (void)state;
    tu_rng rng = {20240601};
    const int rounds = tu_scaled(300);
    for (int it = 0; it < rounds; it++) {
        const int32_t n = (int32_t)tu_range(&rng, 1, 30);
        const int64_t m = tu_range(&rng, 0, 4 * n);
        int32_t *eu = malloc((size_t)(m + 1) * sizeof(int32_t));
        int32_t *ev = malloc((size_t)(m + 1) * sizeof(int32_t));
        int32_t *ec = malloc((size_t)(m + 1) * sizeof(int32_t));
        int32_t *er = malloc((size_t)(m + 1) * sizeof(int32_t));
        const int huge = tu_range(&rng, 0, 4) == 0;
        const int32_t maxc = huge ? INT32_MAX : 20;
        int64_t k = 0;
        for (int64_t e = 0; e < m; e++) {
            eu[k] = (int32_t)tu_range(&rng, 0, n - 1);
            ev[k] = (int32_t)tu_range(&rng, 0, n - 1);
            if (eu[k] == ev[k])
                continue; /* layouts leave self-loops out */
            ec[k] = (int32_t)tu_range(&rng, 0, maxc);
            er[k] = tu_range(&rng, 0, 1) ? 0 : (int32_t)tu_range(&rng, 0, maxc);
            k++;
        }
        layout l;
        layout_build(&l, n, k, eu, ev, ec, er);
        uint32_t *res = malloc((size_t)(2 * k + 1) * sizeof(uint32_t));
        int64_t *excess = calloc((size_t)n, sizeof(int64_t));
        int64_t *src_used = calloc((size_t)n, sizeof(int64_t));
        int64_t *sink_flow = calloc((size_t)n, sizeof(int64_t));
        int64_t *path = malloc(64 * sizeof(int64_t));
        assert_true(res && excess && src_used && sink_flow && path);
        for (int64_t a = 0; a < 2 * k; a++)
            res[a] = (uint32_t)l.cap[a];
        for (int walk = 0; walk < 3 * n; walk++) {
            int32_t v = (int32_t)tu_range(&rng, 0, n - 1);
            const int32_t start = v;
            int depth = 0;
            int64_t amount = huge ? INT32_MAX : 20;
            while (depth < 64 && tu_range(&rng, 0, 5) != 0) {
                const int64_t deg = l.first[v + 1] - l.first[v];
                if (deg == 0)
                    break;
                const int64_t a = l.first[v] + tu_range(&rng, 0, deg - 1);
                int again = 0; /* an arc used twice would need twice the amount */
                for (int i = 0; i < depth; i++)
                    again |= path[i] == a;
                if (res[a] == 0 || again)
                    break;
                if ((int64_t)res[a] < amount)
                    amount = res[a];
                path[depth++] = a;
                v = l.head[a];
            }
            amount = tu_range(&rng, 1, amount > 0 ? amount : 1);
            if (depth == 0 || amount <= 0)
                continue;
            for (int i = 0; i < depth; i++)
                send(&l, res, path[i], amount);
            src_used[start] += amount;
            if (tu_range(&rng, 0, 1))
                excess[v] += amount; /* stopped here */
            else
                sink_flow[v] += amount; /* went on to the sink */
        }
        int64_t *sink_before = malloc((size_t)n * sizeof(int64_t));
        memcpy(sink_before, sink_flow, (size_t)n * sizeof(int64_t));
        if (gcut_i_preflow_to_flow(&l.b, res, excess, src_used) != GCUT_OK)
            fail_msg("round %d: %s", it, gcut_last_error());
        assert_flow(&l, res, excess, src_used, sink_flow);
        assert_memory_equal(sink_before, sink_flow, (size_t)n * sizeof(int64_t));
        free(sink_before);
        free(path);
        free(sink_flow);
        free(src_used);
        free(excess);
        free(res);
        layout_free(&l);
        free(eu);
        free(ev);
        free(ec);
        free(er);
    }
}

static gcut_status solve_hipr(gcut_graph *g, int want_flows, double time_limit, gcut_result *res)
{
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-hipr";
    opt.want_flows = want_flows;
    opt.time_limit = time_limit;
    return gcut_solve(g, &opt, res);
}

/* The counters and phase times of a solve that needs every heuristic. */
static void test_stats(void **state)
{
    (void)state;
    gcut_graph *g = tu_random_graph(7, TU_GRID2D, TU_CAPS_MEDIUM, 4000);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    assert_int_equal(solve_hipr(g, 1, 0, res), GCUT_OK);
    const gcut_stats *st = gcut_result_stats(res);
    assert_true(st->pushes > 0);
    assert_true(st->relabels > 0);
    assert_true(st->global_relabels >= 1);
    assert_int_equal(st->threads, 1);
    assert_true(st->init_ms >= 0 && st->solve_ms >= 0 && st->cut_ms >= 0 && st->flow_ms >= 0);
    assert_int_equal(gcut_check_flow(g, gcut_result_flow(res), gcut_result_edge_flows(res),
                                     gcut_result_cut(res)),
                     GCUT_OK);
    gcut_result_free(res);
    gcut_graph_free(g);
}

/*
 * Gap relabelling must fire: a ring of 40 nodes fed by the source (with
 * chords) drains into a path to the sink through one arc of capacity 1.
 *
 *   s ==> ring 0 .. 39 (ring arcs 100 both ways, chords 50) --1--> 40 -> ... -> 49 ==> t
 *
 * The ring's excess can never leave; its labels climb past the path's
 * until a label empties, and everything above it is dead.
 */
static void test_gap_fires(void **state)
{
    (void)state;
    const int32_t n = 50;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, n, 2 * n), GCUT_OK);
    /* 0 .. 39: a cycle-rich blob fed by the source; 39 -> 40 the bottleneck;
     * 40 .. 49 a path to the sink. */
    for (int32_t v = 0; v < 40; v++) {
        assert_int_equal(gcut_graph_add_tweights(g, v, 100, 0), GCUT_OK);
        assert_int_equal(gcut_graph_add_edge(g, v, (v + 1) % 40, 100, 100), GCUT_OK);
        assert_int_equal(gcut_graph_add_edge(g, v, (v * 7 + 3) % 40, 50, 0), GCUT_OK);
    }
    assert_int_equal(gcut_graph_add_edge(g, 39, 40, 1, 0), GCUT_OK);
    for (int32_t v = 40; v < n - 1; v++)
        assert_int_equal(gcut_graph_add_edge(g, v, v + 1, 100, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, n - 1, 0, 1000), GCUT_OK);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    assert_int_equal(solve_hipr(g, 1, 0, res), GCUT_OK);
    assert_int_equal(gcut_result_flow(res), 1);
    assert_true(gcut_result_stats(res)->gap_nodes > 0);
    assert_int_equal(gcut_check_flow(g, 1, gcut_result_edge_flows(res), gcut_result_cut(res)),
                     GCUT_OK);
    for (int32_t v = 0; v < n; v++)
        assert_int_equal(gcut_result_cut(res)[v], v < 40 ? GCUT_SOURCE : GCUT_SINK);
    gcut_result_free(res);
    gcut_graph_free(g);
}

/* A time limit far too short: GCUT_ERR_TIMEOUT, and the result is untouched. */
static void test_time_limit(void **state)
{
    (void)state;
    /* 300 x 300 random grid: hundreds of thousands of discharges, so the
     * clock is read many times before the solve could end. */
    const int32_t w = 300;
    tu_rng rng = {11};
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, w * w, 2 * w * w), GCUT_OK);
    for (int32_t v = 0; v < w * w; v++) {
        assert_int_equal(gcut_graph_add_tweights(g, v, (int32_t)tu_range(&rng, 0, 100),
                                                 (int32_t)tu_range(&rng, 0, 100)),
                         GCUT_OK);
        if (v % w + 1 < w)
            assert_int_equal(gcut_graph_add_edge(g, v, v + 1, (int32_t)tu_range(&rng, 0, 100),
                                                 (int32_t)tu_range(&rng, 0, 100)),
                             GCUT_OK);
        if (v + w < w * w)
            assert_int_equal(gcut_graph_add_edge(g, v, v + w, (int32_t)tu_range(&rng, 0, 100),
                                                 (int32_t)tu_range(&rng, 0, 100)),
                             GCUT_OK);
    }
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    assert_int_equal(solve_hipr(g, 0, 1e-9, res), GCUT_ERR_TIMEOUT);
    assert_int_equal(gcut_last_status(), GCUT_ERR_TIMEOUT);
    assert_null(gcut_result_cut(res));
    gcut_result_free(res);
    gcut_graph_free(g);
}

/* Every family and capacity range, with flows, against cpu-ref: a heavier
 * dose of the cross-check for this engine and phase II. */
static void test_families_with_flows(void **state)
{
    (void)state;
    int bad = 0;
    const int per = tu_scaled(12);
    for (int f = 0; f < TU_FAMILY_COUNT; f++)
        for (int c = 0; c < TU_CAPS_COUNT; c++)
            for (int i = 0; i < per; i++) {
                const uint64_t seed = 1000003u * (uint64_t)f + 10007u * (uint64_t)c + (uint64_t)i;
                gcut_graph *g = tu_random_graph(seed, (tu_family)f, (tu_caps)c, 10 + 37 * i);
                char label[96];
                snprintf(label, sizeof label, "hipr-%s-%s-%d", tu_family_name((tu_family)f),
                         tu_caps_name((tu_caps)c), i);
                bad += tu_crosscheck(g, "cpu-hipr", 1, 0, NULL, label) != 0;
                gcut_graph_free(g);
            }
    assert_int_equal(bad, 0);
}

/*
 * Nodes with more than 256 arcs: the engine then keeps its arc position map
 * in four bytes instead of one (engine_init, pack_residuals). Three hubs
 * joined to every other node both ways, random edges among the rest, and
 * random terminal capacities; with flows, against cpu-ref.
 */
static void test_wide_nodes(void **state)
{
    (void)state;
    int bad = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        uint64_t x = seed * 0x9e3779b97f4a7c15ull;
        const int32_t n = 400 + 50 * (int32_t)seed;
        gcut_graph *g;
        assert_int_equal(gcut_graph_new(&g, n, 8 * (int64_t)n), GCUT_OK);
        for (int32_t v = 0; v < n; v++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            const int32_t cs = (x >> 40) % 4 == 0 ? (int32_t)((x >> 20) % 200) : 0;
            const int32_t ct = (x >> 44) % 4 == 0 ? (int32_t)((x >> 8) % 200) : 0;
            assert_int_equal(gcut_graph_add_tweights(g, v, cs, ct), GCUT_OK);
        }
        for (int32_t h = 0; h < 3; h++)
            for (int32_t v = 3; v < n; v++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                assert_int_equal(gcut_graph_add_edge(g, h, v, (int32_t)((x >> 33) % 50),
                                                     (int32_t)((x >> 13) % 50)),
                                 GCUT_OK);
            }
        for (int32_t k = 0; k < 3 * n; k++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            const int32_t u = 3 + (int32_t)((x >> 33) % (uint64_t)(n - 3));
            const int32_t v = 3 + (int32_t)((x >> 13) % (uint64_t)(n - 3));
            if (u != v)
                assert_int_equal(gcut_graph_add_edge(g, u, v, (int32_t)((x >> 50) % 30), 0),
                                 GCUT_OK);
        }
        char label[64];
        snprintf(label, sizeof label, "hipr-wide-%d", (int)seed);
        bad += tu_crosscheck(g, "cpu-hipr", 1, 0, NULL, label) != 0;
        gcut_graph_free(g);
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phase2_cycle),
        cmocka_unit_test(test_phase2_internal_error),
        cmocka_unit_test(test_phase2_random),
        cmocka_unit_test(test_stats),
        cmocka_unit_test(test_gap_fires),
        cmocka_unit_test(test_time_limit),
        cmocka_unit_test(test_families_with_flows),
        cmocka_unit_test(test_wide_nodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
