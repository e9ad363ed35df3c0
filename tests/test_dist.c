/*
 * test_dist.c - the region-partitioned grid max-flow in one process
 * (gcut_grid_solve_partitioned, lib/dist/) against cpu-ref: 2-D and 3-D,
 * every connectivity, 1 to 8 regions (more regions than planes: empty
 * regions; 1-plane regions), uneven partitions given plane by plane,
 * every capacity pattern of the grid suites (huge ones near INT32_MAX
 * included), cuts that cross every region boundary and flow that crosses
 * all of them, 1 and 2 threads: the same flow and the same canonical cut
 * bytes; every case also as slabs of arrays of their own
 * (gcut_grid_solve_slabs). Then the errors, and the time limit, the
 * progress callback and the memory budget.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static gcut_result *solve_ref(gcut_grid *g)
{
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-ref";
    if (gcut_grid_solve(g, &opt, res) != GCUT_OK)
        fail_msg("cpu-ref: %s", gcut_last_error());
    return res;
}

static int64_t g_cases;

/* Solve g partitioned as asked and compare with ref: with both
 * discharges (push-relabel and ARD), then as slabs with the default. */
static void check_one(gcut_grid *g, const gcut_result *ref, int32_t regions, const int32_t *planes,
                      int32_t threads, const char *label)
{
    const int32_t n = gcut_grid_num_nodes(g);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.threads = threads;
    static const char *const discharges[] = {"discharge=pr", "discharge=ard"};
    for (int m = 0; m < 2; m++) {
        gcut_result *res;
        assert_int_equal(gcut_result_new(&res), GCUT_OK);
        opt.params = discharges[m];
        if (gcut_grid_solve_partitioned(g, regions, planes, &opt, res) != GCUT_OK)
            fail_msg("%s: %d regions, %s: %s", label, (int)regions, opt.params,
                     gcut_last_error());
        if (gcut_result_flow(res) != gcut_result_flow(ref))
            fail_msg("%s: %d regions, %d threads, %s: flow %lld, cpu-ref %lld", label,
                     (int)regions, (int)threads, opt.params, (long long)gcut_result_flow(res),
                     (long long)gcut_result_flow(ref));
        if (memcmp(gcut_result_cut(res), gcut_result_cut(ref), (size_t)n) != 0)
            fail_msg("%s: %d regions, %d threads, %s: cut differs from cpu-ref", label,
                     (int)regions, (int)threads, opt.params);
        assert_true(gcut_result_stats(res)->rounds >= 1);
        gcut_result_free(res);
        g_cases++;
    }
    opt.params = NULL;
    /* The same regions as slabs of arrays of their own (gcut_grid_solve_slabs). */
    const int three_d = gcut_grid_connectivity(g) != 4 && gcut_grid_connectivity(g) != 8;
    const int64_t P = three_d ? gcut_grid_depth(g) : gcut_grid_height(g);
    int32_t counts[16], k = 0;
    for (int32_t i = 0; i < regions && i < 16; i++) {
        const int32_t c = planes ? planes[i] : (int32_t)((P * (i + 1)) / regions - (P * i) / regions);
        if (c > 0)
            counts[k++] = c;
    }
    uint8_t *cut = malloc((size_t)n);
    assert_non_null(cut);
    int64_t flow = -1;
    gcut_stats stats;
    if (tu_solve_slabs(g, k, counts, &opt, 0, &flow, cut, &stats) != GCUT_OK)
        fail_msg("%s: %d slabs: %s", label, (int)k, gcut_last_error());
    if (flow != gcut_result_flow(ref) || memcmp(cut, gcut_result_cut(ref), (size_t)n) != 0)
        fail_msg("%s: %d slabs, %d threads: flow %lld (cpu-ref %lld)%s", label, (int)k,
                 (int)threads, (long long)flow, (long long)gcut_result_flow(ref),
                 flow == gcut_result_flow(ref) ? ", the cut differs" : "");
    assert_true(stats.rounds >= 1);
    free(cut);
    g_cases++;
}

static int64_t planes_of(const gcut_grid *g)
{
    const int32_t c = gcut_grid_connectivity(g);
    return c == 4 || c == 8 ? gcut_grid_height(g) : gcut_grid_depth(g);
}

/* Every region count 1..8 (even splits), and random uneven partitions
 * with empty and 1-plane regions. */
static void check_all(gcut_grid *g, tu_rng *r, const char *label)
{
    gcut_result *ref = solve_ref(g);
    for (int32_t k = 1; k <= 8; k++)
        check_one(g, ref, k, NULL, k % 2 ? 1 : 2, label);
    const int64_t P = planes_of(g);
    int32_t counts[10];
    for (int rep = 0; rep < 3; rep++) {
        const int32_t k = (int32_t)tu_range(r, 2, 10);
        int64_t left = P;
        for (int32_t i = 0; i < k; i++) {
            /* Often 0 or 1 plane; the last region takes the rest. */
            const int64_t want = tu_range(r, 0, 3) == 0 ? 0 : tu_range(r, 1, P > 2 ? P / 2 : 1);
            counts[i] = (int32_t)(i == k - 1 ? left : (want < left ? want : left));
            left -= counts[i];
        }
        check_one(g, ref, k, counts, 2, label);
    }
    gcut_result_free(ref);
}

static void test_random(void **unused)
{
    (void)unused;
    static const struct {
        int32_t w, h, d, c;
    } shapes[] = {
        {1, 1, 1, 4},   {1, 1, 1, 26}, {1, 37, 1, 4}, {29, 1, 1, 8}, {1, 1, 23, 6}, {13, 11, 1, 4},
        {17, 9, 1, 8},  {7, 5, 6, 6},  {5, 6, 7, 18}, {6, 5, 5, 26}, {2, 3, 1, 8},  {3, 1, 2, 26},
        {31, 23, 1, 4}, {9, 7, 5, 18}, {1, 9, 9, 26}, {4, 4, 3, 6},
    };
    tu_rng r = {2121};
    char label[128];
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        for (int k = 0; k < TU_GRID_COUNT; k++) {
            gcut_grid *g;
            assert_int_equal(gcut_grid_new(&g, shapes[s].w, shapes[s].h, shapes[s].d, shapes[s].c),
                             GCUT_OK);
            tu_grid_randomise(g, &r, (tu_grid_kind)k);
            snprintf(label, sizeof label, "%dx%dx%d c%d %s", (int)shapes[s].w, (int)shapes[s].h,
                     (int)shapes[s].d, (int)shapes[s].c, tu_grid_kind_name((tu_grid_kind)k));
            check_all(g, &r, label);
            gcut_grid_free(g);
        }
    }
}

static void test_crossing(void **unused)
{
    (void)unused;
    static const struct {
        int32_t w, h, d, c;
    } shapes[] = {{12, 16, 1, 4}, {10, 13, 1, 8}, {6, 5, 9, 6}, {5, 4, 8, 18}, {4, 5, 7, 26}};
    tu_rng r = {99};
    char label[128];
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int across = 0; across < 2; across++)
            for (int huge = 0; huge < 2; huge++) {
                gcut_grid *g;
                assert_int_equal(
                    gcut_grid_new(&g, shapes[s].w, shapes[s].h, shapes[s].d, shapes[s].c), GCUT_OK);
                tu_grid_set_crossing(g, &r, across, huge);
                snprintf(label, sizeof label, "crossing %dx%dx%d c%d %s%s", (int)shapes[s].w,
                         (int)shapes[s].h, (int)shapes[s].d, (int)shapes[s].c,
                         across ? "across" : "along", huge ? " huge" : "");
                check_all(g, &r, label);
                gcut_grid_free(g);
            }
}

/* Larger grids: many sweeps, global relabels between them. */
static void test_larger(void **unused)
{
    (void)unused;
    static const struct {
        int32_t w, h, d, c;
    } shapes[] = {{120, 90, 1, 4}, {70, 64, 1, 8}, {24, 20, 18, 6}, {14, 12, 12, 26}};
    tu_rng r = {4242};
    char label[128];
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const tu_grid_kind ks[] = {TU_GRID_MEDIUM, TU_GRID_SEEDS, TU_GRID_HUGE};
        for (int k = 0; k < 3; k++) {
            gcut_grid *g;
            assert_int_equal(gcut_grid_new(&g, shapes[s].w, shapes[s].h, shapes[s].d, shapes[s].c),
                             GCUT_OK);
            tu_grid_randomise(g, &r, ks[k]);
            snprintf(label, sizeof label, "large %dx%dx%d c%d %s", (int)shapes[s].w,
                     (int)shapes[s].h, (int)shapes[s].d, (int)shapes[s].c,
                     tu_grid_kind_name(ks[k]));
            gcut_result *ref = solve_ref(g);
            const int32_t regions[] = {1, 2, 3, 5, 8};
            for (size_t i = 0; i < sizeof regions / sizeof regions[0]; i++)
                check_one(g, ref, regions[i], NULL, 2, label);
            gcut_result_free(ref);
            gcut_grid_free(g);
        }
    }
}

static void test_errors(void **unused)
{
    (void)unused;
    gcut_grid *g;
    gcut_result *res;
    assert_int_equal(gcut_grid_new(&g, 4, 5, 1, 4), GCUT_OK);
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    assert_int_equal(gcut_grid_solve_partitioned(NULL, 2, NULL, NULL, res), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_solve_partitioned(g, 2, NULL, NULL, NULL), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_solve_partitioned(g, 0, NULL, NULL, res), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "gcut_grid_solve_partitioned"));
    const int32_t bad_sum[2] = {2, 2};
    assert_int_equal(gcut_grid_solve_partitioned(g, 2, bad_sum, NULL, res), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "planes"));
    const int32_t negative[2] = {6, -1};
    assert_int_equal(gcut_grid_solve_partitioned(g, 2, negative, NULL, res), GCUT_ERR_INVALID);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.want_flows = 1;
    assert_int_equal(gcut_grid_solve_partitioned(g, 2, NULL, &opt, res), GCUT_ERR_UNSUPPORTED);
    /* The result is unchanged by failures: still empty. */
    assert_int_equal(gcut_result_num_nodes(res), 0);
    const int32_t ok[3] = {0, 5, 0};
    assert_int_equal(gcut_grid_solve_partitioned(g, 3, ok, NULL, res), GCUT_OK);
    assert_int_equal(gcut_result_num_nodes(res), 20);
    gcut_result_free(res);
    gcut_grid_free(g);
}

/* gcut_grid_solve_slabs refuses bad slabs with the reason, *flow untouched. */
static void test_slab_errors(void **unused)
{
    (void)unused;
    enum { W = 3, H = 4, D = 5 };
    int32_t caps[8][W * H * D];
    for (int a = 0; a < 8; a++)
        for (int i = 0; i < W * H * D; i++)
            caps[a][i] = (a * 7 + i * 13) % 9;
    uint8_t cut[W * H * D];
    gcut_grid_slab sl[2];
    memset(sl, 0, sizeof sl);
    for (int i = 0; i < 2; i++) {
        sl[i].first = i ? 2 : 0;
        sl[i].planes = i ? 3 : 2;
        sl[i].device = -1;
        const size_t at = (size_t)sl[i].first * W * H;
        sl[i].cap_source = caps[6] + at;
        sl[i].cap_sink = caps[7] + at;
        for (int d = 0; d < 6; d++)
            sl[i].cap[d] = caps[d] + at;
        sl[i].cut = cut + at;
    }
    int64_t flow = -7;
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, NULL, 2, NULL, &flow, NULL), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, NULL, NULL, NULL), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 0, NULL, &flow, NULL), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 5, sl, 2, NULL, &flow, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "connectivity"));
    assert_int_equal(gcut_grid_solve_slabs(W, H, 2, 4, sl, 2, NULL, &flow, NULL), GCUT_ERR_INVALID);
    /* The planes do not add up, a gap, a missing cut. */
    assert_int_equal(gcut_grid_solve_slabs(W, H, D + 1, 6, sl, 2, NULL, &flow, NULL),
                     GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "planes in all"));
    sl[1].first = 3;
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, NULL, &flow, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "slab 1 starts at plane 3"));
    sl[1].first = 2;
    sl[0].planes = 0;
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, NULL, &flow, NULL), GCUT_ERR_INVALID);
    sl[0].planes = 2;
    sl[1].cut = NULL;
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, NULL, &flow, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "no cut buffer"));
    sl[1].cut = cut + 2 * W * H;
    /* Device slabs need cuda-grid; a bad device number. */
    sl[1].device = 0;
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, NULL, &flow, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "cuda-grid"));
    sl[1].device = -2;
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, NULL, &flow, NULL), GCUT_ERR_INVALID);
    sl[1].device = -1;
    /* A negative capacity: the message names the node. */
    caps[2][37] = -4;
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, NULL, &flow, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "node 37 is -4"));
    caps[2][37] = 1;
    caps[7][5] = -1;
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, NULL, &flow, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "sink capacity of node 5"));
    caps[7][5] = 0;
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.want_flows = 1;
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, &opt, &flow, NULL),
                     GCUT_ERR_UNSUPPORTED);
    opt.want_flows = 0;
    opt.params = "devices=0";
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, &opt, &flow, NULL), GCUT_ERR_INVALID);
    opt.params = "relabel_every=8";
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, &opt, &flow, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "relabel_every= needs"));
    opt.backend = "cuda-grid";
    opt.params = "relabel_every=0";
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, &opt, &flow, NULL), GCUT_ERR_INVALID);
    opt.params = "relabel_evry=4";
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, &opt, &flow, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "relabel_every"));
    opt.params = "relabel_every=8"; /* the jacobi discharge's setting */
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, &opt, &flow, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "add discharge=jacobi"));
    opt.params = "discharge=jakobi";
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, &opt, &flow, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "\"jacobi\""));
    opt.backend = NULL;
    opt.params = "discharge=jacobi";
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, &opt, &flow, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "discharge=jacobi needs"));
    opt.params = NULL;
    assert_int_equal(flow, -7);
    /* Then it solves, as a grid of the same arrays does. */
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, W, H, D, 6), GCUT_OK);
    for (int d = 0; d < 6; d++)
        assert_int_equal(gcut_grid_set_caps(g, d, caps[d]), GCUT_OK);
    assert_int_equal(gcut_grid_set_terminal_caps(g, caps[6], caps[7]), GCUT_OK);
    gcut_result *ref = solve_ref(g);
    assert_int_equal(gcut_grid_solve_slabs(W, H, D, 6, sl, 2, NULL, &flow, NULL), GCUT_OK);
    assert_int_equal(flow, gcut_result_flow(ref));
    assert_memory_equal(cut, gcut_result_cut(ref), W * H * D);
    gcut_result_free(ref);
    gcut_grid_free(g);
}

static int stop_now(const gcut_progress *p, void *user)
{
    (void)p;
    ++*(int *)user;
    return 1;
}

/* The time limit, the progress callback and the memory budget stop a
 * solve with the result unchanged. */
/* opt.backend "cuda-grid" puts the regions on the GPU (test_gpu_dist);
 * where cuda-grid cannot run, the solve fails and says why rather than
 * running on the CPU. Other back end names keep the CPU regions. */
static void test_device_choice(void **unused)
{
    (void)unused;
    gcut_grid *g;
    gcut_result *res;
    tu_rng r = {5};
    assert_int_equal(gcut_grid_new(&g, 6, 5, 4, 6), GCUT_OK);
    tu_grid_randomise(g, &r, TU_GRID_MEDIUM);
    gcut_result *ref = solve_ref(g);
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-bk";
    assert_int_equal(gcut_grid_solve_partitioned(g, 3, NULL, &opt, res), GCUT_OK);
    assert_string_equal(gcut_result_backend(res), "cpu-region-pr");
    assert_true(gcut_result_flow(res) == gcut_result_flow(ref));
    opt.params = "discharge=ard";
    assert_int_equal(gcut_grid_solve_partitioned(g, 3, NULL, &opt, res), GCUT_OK);
    assert_string_equal(gcut_result_backend(res), "cpu-region-ard");
    assert_true(gcut_result_flow(res) == gcut_result_flow(ref));
    opt.params = "discharge=pr";
    assert_int_equal(gcut_grid_solve_partitioned(g, 3, NULL, &opt, res), GCUT_OK);
    assert_string_equal(gcut_result_backend(res), "cpu-region-pr");
    opt.params = NULL;
    if (!tu_backend_available("cuda-grid")) {
        opt.backend = "cuda-grid";
        const gcut_status st = gcut_grid_solve_partitioned(g, 3, NULL, &opt, res);
        if (st != GCUT_ERR_UNAVAILABLE && st != GCUT_ERR_NOT_FOUND)
            fail_msg("cuda-grid regions without cuda-grid: status %d (%s)", (int)st,
                     gcut_last_error());
        assert_non_null(strstr(gcut_last_error(), "cuda-grid"));
    }
    /* The settings: "devices=" is for device regions only, an unknown key
     * or a malformed list is refused before anything is built, and the
     * result keeps the last good answer. */
    static const struct {
        const char *backend, *params, *says;
    } bad[] = {
        {"cpu-bk", "devices=0", "needs backend"},
        {NULL, "devices=0:1", "needs backend"},
        {"cpu-bk", "regions=2", "unknown parameter 'regions'"},
        {"cuda-grid", "devices=0:0", "listed twice"},
        {"cuda-grid", "devices=1.5", "CUDA device numbers"},
        {"cuda-grid", "devices=a:b", "CUDA device numbers"},
        {"cuda-grid", "devices=0::1", "CUDA device numbers"},
        {"cpu-bk", "discharge=bk", "\"ard\" (augmenting paths, CPU regions), \"pr\""},
        {"cuda-grid", "discharge=ard", "needs CPU regions"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        opt.backend = bad[i].backend;
        opt.params = bad[i].params;
        const gcut_status st = gcut_grid_solve_partitioned(g, 3, NULL, &opt, res);
        if (st != GCUT_ERR_INVALID || !strstr(gcut_last_error(), bad[i].says))
            fail_msg("%s with %s: status %d, \"%s\" (want GCUT_ERR_INVALID saying \"%s\")",
                     bad[i].params, bad[i].backend ? bad[i].backend : "(auto)", (int)st,
                     gcut_last_error(), bad[i].says);
        assert_string_equal(gcut_result_backend(res), "cpu-region-pr");
        assert_true(gcut_result_flow(res) == gcut_result_flow(ref));
    }
    gcut_result_free(res);
    gcut_result_free(ref);
    gcut_grid_free(g);
}

static void test_limits(void **unused)
{
    (void)unused;
    gcut_grid *g;
    tu_rng r = {11};
    assert_int_equal(gcut_grid_new(&g, 30, 20, 12, 6), GCUT_OK);
    tu_grid_randomise(g, &r, TU_GRID_MEDIUM);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.time_limit = 1e-9; /* passed before the first sweep ends */
    assert_int_equal(gcut_grid_solve_partitioned(g, 3, NULL, &opt, res), GCUT_ERR_TIMEOUT);
    assert_non_null(strstr(gcut_last_error(), "gcut_grid_solve_partitioned"));
    gcut_solve_options_init(&opt);
    int calls = 0;
    opt.progress = stop_now;
    opt.progress_user = &calls;
    assert_int_equal(gcut_grid_solve_partitioned(g, 3, NULL, &opt, res), GCUT_ERR_INTERRUPTED);
    assert_true(calls >= 1);
    gcut_solve_options_init(&opt);
    opt.max_memory = 4096; /* far less than the regions' state */
    assert_int_equal(gcut_grid_solve_partitioned(g, 3, NULL, &opt, res), GCUT_ERR_NOMEM);
    assert_int_equal(gcut_result_num_nodes(res), 0);
    /* And then a solve that works, with the same handles. */
    gcut_result *ref = solve_ref(g);
    check_one(g, ref, 3, NULL, 2, "after the limits");
    gcut_result_free(ref);
    gcut_result_free(res);
    gcut_grid_free(g);
}

static void test_count(void **unused)
{
    (void)unused;
    print_message("[ dist ] %lld partitioned solves checked against cpu-ref\n", (long long)g_cases);
    assert_true(g_cases > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),        cmocka_unit_test(test_crossing),
        cmocka_unit_test(test_larger),        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_limits),        cmocka_unit_test(test_count),
        cmocka_unit_test(test_device_choice), cmocka_unit_test(test_slab_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
