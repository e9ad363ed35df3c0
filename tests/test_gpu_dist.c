/*
 * test_gpu_dist.c - the region-partitioned grid max-flow with every region
 * on the one GPU (gcut_grid_solve_partitioned with opt.backend
 * "cuda-grid": the plugin's extension "gcut.grid.region",
 * cuda/grid/grid_region.cu) against the single-region cuda-grid solve and
 * cpu-ref: the same flow and the same canonical cut bytes.
 *
 * Cases: random grids in 2-D and 3-D with every connectivity and every
 * capacity pattern of the grid suites (huge ones near INT32_MAX among
 * them), vision-like grids, cuts that cross every region boundary and
 * flow that crosses all of them; 1 to 8 regions, even splits and random
 * uneven ones with empty and 1-plane regions; each also as slabs of
 * arrays of their own (gcut_grid_solve_slabs) in host memory, device
 * memory or both. Every partitioned solve is
 * repeated GCUT_GPU_REPEAT times and must give the same answer each time
 * (an answer that changes is a race). The regions discharge by cuda-grid's
 * tiled kernels (the default, discharge=pr); every third case is solved
 * once more with discharge=jacobi (the simple synchronous discharge).
 * Then one timing line per discharge for a 6-connected vision-like volume
 * (regions 1, 2, 4, 8, 16: ms and sweeps) for the record.
 *
 * A failure names the case (shape, connectivity, capacity pattern), the
 * regions and their planes, the repeat, the two flows, and the first node
 * whose side differs (with its coordinates and region), so that the
 * message alone says what went wrong.
 *
 * Environment:
 *   GCUT_GPU_REPEAT    solves of each partitioned case (default 1)
 *   GCUT_GPU_QUICK     1: a few small cases only, no timing; 2: fewer still (for
 *                      compute-sanitizer; scripts/gpu-check.sh sets it); 3: fewest,
 *                      no slabs (racecheck, which is slow on NCCL-free runs too)
 *   GCUT_GPU_DIST_SIZE side of the timing volume (default 256; 0: none); a
 *                      solve of it past 120 s is printed as such, not failed
 *   GCUT_GPU_DEVICES   the devices of every partitioned solve, "0:1:2:3" (the
 *                      solve's "devices=" setting: regions dealt to them in
 *                      runs, exchanges through NCCL across devices); default
 *                      device 0 alone
 *
 * Exits 77 (skip) with a message when cuda-grid is unavailable.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static int g_repeat = 1;
static int g_quick;
static int64_t g_cases;
static char g_params[96]; /* "devices=..." or empty */
static char g_params_jacobi[128]; /* the same with "discharge=jacobi" */
static int g_ndev = 1;
static int64_t g_jacobi; /* cases solved again with discharge=jacobi */

/* opt for a partitioned device solve: cuda-grid on the devices asked for,
 * the tiled discharge or (jacobi) the simple one. */
static void device_options_for(gcut_solve_options *opt, int jacobi)
{
    gcut_solve_options_init(opt);
    opt->backend = "cuda-grid";
    opt->params = jacobi ? g_params_jacobi : g_params[0] ? g_params : NULL;
}

static void device_options(gcut_solve_options *opt) { device_options_for(opt, 0); }

static int is_2d(const gcut_grid *g)
{
    const int32_t c = gcut_grid_connectivity(g);
    return c == 4 || c == 8;
}

static int64_t planes_of(const gcut_grid *g)
{
    return is_2d(g) ? gcut_grid_height(g) : gcut_grid_depth(g);
}

static gcut_result *solve_whole(gcut_grid *g, const char *backend, const char *label)
{
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = backend;
    if (strcmp(backend, "cuda-grid") == 0)
        opt.params = "warm=0";
    if (gcut_grid_solve(g, &opt, res) != GCUT_OK)
        fail_msg("%s: %s (whole grid): %s", label, backend, gcut_last_error());
    return res;
}

/* "4 regions [3 0 1 4]" */
static void describe_regions(char *buf, size_t size, const gcut_grid *g, int32_t regions,
                             const int32_t *planes)
{
    int at = snprintf(buf, size, "%d regions [", (int)regions);
    const int64_t P = planes_of(g);
    for (int32_t i = 0; i < regions && at > 0 && (size_t)at < size; i++) {
        const int64_t c = planes ? planes[i] : (P * (i + 1)) / regions - (P * i) / regions;
        at += snprintf(buf + at, size - (size_t)at, "%s%lld", i ? " " : "", (long long)c);
    }
    if (at > 0 && (size_t)at < size)
        snprintf(buf + at, size - (size_t)at, "]");
}

/* The region that owns plane p. */
static int32_t region_of(const gcut_grid *g, int32_t regions, const int32_t *planes, int64_t p)
{
    const int64_t P = planes_of(g);
    int64_t first = 0;
    for (int32_t i = 0; i < regions; i++) {
        const int64_t c = planes ? planes[i] : (P * (i + 1)) / regions - (P * i) / regions;
        if (p < first + c)
            return i;
        first += c;
    }
    return -1;
}

/* Fail with everything that tells what differs between res and want. */
static void compare(const gcut_grid *g, const gcut_result *res, const gcut_result *want,
                    const char *want_name, int32_t regions, const int32_t *planes, int rep,
                    const char *label)
{
    char rg[160];
    describe_regions(rg, sizeof rg, g, regions, planes);
    const int32_t n = gcut_grid_num_nodes(g);
    if (gcut_result_flow(res) != gcut_result_flow(want))
        fail_msg("%s, %s, repeat %d: device regions give flow %lld, %s %lld (%lld sweeps)", label,
                 rg, rep, (long long)gcut_result_flow(res), want_name,
                 (long long)gcut_result_flow(want), (long long)gcut_result_stats(res)->rounds);
    const uint8_t *a = gcut_result_cut(res), *b = gcut_result_cut(want);
    if (memcmp(a, b, (size_t)n) != 0) {
        int32_t v = 0, diff = 0;
        while (a[v] == b[v])
            v++;
        for (int32_t u = 0; u < n; u++)
            diff += a[u] != b[u];
        const int32_t w = gcut_grid_width(g), h = gcut_grid_height(g);
        const int32_t x = v % w, y = (v / w) % h, z = v / (w * h);
        fail_msg("%s, %s, repeat %d: same flow %lld but the cut differs from %s at %d nodes; the "
                 "first is node %d (x %d, y %d, z %d, region %d): %s on the device, %s in %s",
                 label, rg, rep, (long long)gcut_result_flow(res), want_name, (int)diff, (int)v,
                 (int)x, (int)y, (int)z, (int)region_of(g, regions, planes, is_2d(g) ? y : z),
                 a[v] == GCUT_SINK ? "sink" : "source", b[v] == GCUT_SINK ? "sink" : "source",
                 want_name);
    }
}

static gcut_result *solve_parts(gcut_grid *g, int32_t regions, const int32_t *planes, int rep,
                                int jacobi, const char *label)
{
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    device_options_for(&opt, jacobi);
    opt.time_limit = 300; /* a discharge that never ends becomes a failure */
    if (gcut_grid_solve_partitioned(g, regions, planes, &opt, res) != GCUT_OK) {
        char rg[160];
        describe_regions(rg, sizeof rg, g, regions, planes);
        fail_msg("%s, %s, repeat %d%s: the device solve failed: %s", label, rg, rep,
                 jacobi ? " (jacobi)" : "", gcut_last_error());
    }
    const char *want = jacobi ? "cuda-grid-region-jacobi" : "cuda-grid-region-pr";
    if (strcmp(gcut_result_backend(res), want) != 0)
        fail_msg("%s: solved by %s, not on the device (%s)", label, gcut_result_backend(res), want);
    return res;
}

/* The partitioned device solve, repeated, against cpu-ref and cuda-grid. */
static void check_one(gcut_grid *g, const gcut_result *ref, const gcut_result *whole,
                      int32_t regions, const int32_t *planes, const char *label)
{
    gcut_result *first = NULL;
    for (int rep = 0; rep < g_repeat; rep++) {
        gcut_result *res = solve_parts(g, regions, planes, rep, 0, label);
        if (first) {
            compare(g, res, first, "the first repeat (a race?)", regions, planes, rep, label);
            gcut_result_free(res);
            continue;
        }
        compare(g, res, ref, "cpu-ref", regions, planes, rep, label);
        compare(g, res, whole, "cuda-grid (one region)", regions, planes, rep, label);
        first = res;
    }
    gcut_result_free(first);
    if (g_cases % 3 == 0) {
        gcut_result *res = solve_parts(g, regions, planes, 0, 1, label);
        compare(g, res, ref, "cpu-ref (discharge=jacobi)", regions, planes, 0, label);
        gcut_result_free(res);
        g_jacobi++;
    }
    g_cases++;
    if (g_quick >= 3)
        return;
    /* The same regions as slabs of arrays of their own
     * (gcut_grid_solve_slabs): in host memory, in device memory, or
     * alternating (device memory where the plugin can allocate it). */
    const int64_t P = planes_of(g);
    int32_t counts[16], k = 0;
    for (int32_t i = 0; i < regions && i < 16; i++) {
        const int32_t c = planes ? planes[i] : (int32_t)((P * (i + 1)) / regions - (P * i) / regions);
        if (c > 0)
            counts[k++] = c;
    }
    static const uint32_t masks[3] = {0u, 0xffffffffu, 0xaaaaaaaau};
    const uint32_t mask = gcut_device_available(NULL) ? masks[g_cases % 3] : 0u;
    const int32_t n = gcut_grid_num_nodes(g);
    uint8_t *cut = malloc((size_t)n);
    assert_non_null(cut);
    int64_t flow = -1;
    gcut_solve_options opt;
    device_options(&opt);
    opt.time_limit = 300;
    if (tu_solve_slabs(g, k, counts, &opt, mask, &flow, cut, NULL) != GCUT_OK)
        fail_msg("%s: %d slabs (device mask %#x): %s", label, (int)k, mask, gcut_last_error());
    if (flow != gcut_result_flow(ref) || memcmp(cut, gcut_result_cut(ref), (size_t)n) != 0)
        fail_msg("%s: %d slabs (device mask %#x): flow %lld, cpu-ref %lld%s", label, (int)k, mask,
                 (long long)flow, (long long)gcut_result_flow(ref),
                 flow == gcut_result_flow(ref) ? " (the cut differs)" : "");
    free(cut);
    g_cases++;
}

/* cpu-ref and cuda-grid first (they must agree, or the test cannot say
 * which is wrong), then 1..8 even regions and random uneven ones. */
static void check_all(gcut_grid *g, tu_rng *r, const char *label)
{
    gcut_result *ref = solve_whole(g, "cpu-ref", label);
    gcut_result *whole = solve_whole(g, "cuda-grid", label);
    const int32_t n = gcut_grid_num_nodes(g);
    if (gcut_result_flow(ref) != gcut_result_flow(whole) ||
        memcmp(gcut_result_cut(ref), gcut_result_cut(whole), (size_t)n) != 0)
        fail_msg("%s: cuda-grid (one region, not partitioned) disagrees with cpu-ref: flow %lld "
                 "vs %lld (see test_gpu_grid)",
                 label, (long long)gcut_result_flow(whole), (long long)gcut_result_flow(ref));
    const int32_t kmax = g_quick >= 3 ? 3 : g_quick ? 4 : 8;
    for (int32_t k = 1; k <= kmax; k++)
        check_one(g, ref, whole, k, NULL, label);
    const int64_t P = planes_of(g);
    int32_t counts[10];
    for (int rep = 0; rep < (g_quick ? 1 : 3); rep++) {
        const int32_t k = (int32_t)tu_range(r, 2, 10);
        int64_t left = P;
        for (int32_t i = 0; i < k; i++) {
            /* Often 0 or 1 plane; the last region takes the rest. */
            const int64_t want = tu_range(r, 0, 3) == 0 ? 0 : tu_range(r, 1, P > 2 ? P / 2 : 1);
            counts[i] = (int32_t)(i == k - 1 ? left : (want < left ? want : left));
            left -= counts[i];
        }
        check_one(g, ref, whole, k, counts, label);
    }
    gcut_result_free(whole);
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
    /* quick: 13x11 c4, 7x5x6 c6, 5x6x7 c18, 6x5x5 c26, 2x3 c8 */
    static const size_t quick_set[] = {5, 7, 8, 9, 10};
    const size_t nshapes =
        g_quick ? sizeof quick_set / sizeof quick_set[0] : sizeof shapes / sizeof shapes[0];
    for (size_t s = 0; s < nshapes; s++) {
        const size_t at = g_quick ? quick_set[s] : s;
        for (int k = 0; k < TU_GRID_COUNT; k += g_quick ? 2 * g_quick : 1) {
            gcut_grid *g;
            assert_int_equal(
                gcut_grid_new(&g, shapes[at].w, shapes[at].h, shapes[at].d, shapes[at].c), GCUT_OK);
            tu_grid_randomise(g, &r, (tu_grid_kind)k);
            snprintf(label, sizeof label, "random %dx%dx%d c%d %s", (int)shapes[at].w,
                     (int)shapes[at].h, (int)shapes[at].d, (int)shapes[at].c,
                     tu_grid_kind_name((tu_grid_kind)k));
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
    const size_t nshapes = g_quick >= 2 ? 0 : g_quick ? 2 : sizeof shapes / sizeof shapes[0];
    for (size_t s = 0; s < nshapes; s++)
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

static void test_vision(void **unused)
{
    (void)unused;
    static const struct {
        int32_t w, h, d, c;
    } shapes[] = {{64, 48, 1, 4},   {96, 80, 1, 8},   {24, 20, 16, 6}, {16, 14, 12, 18},
                  {12, 12, 10, 26}, {200, 150, 1, 4}, {40, 36, 32, 6}};
    tu_rng r = {7};
    char label[128];
    const size_t nshapes = g_quick >= 2 ? 0 : g_quick ? 1 : sizeof shapes / sizeof shapes[0];
    for (size_t s = 0; s < nshapes; s++) {
        gcut_grid *g;
        assert_int_equal(gcut_grid_new(&g, shapes[s].w, shapes[s].h, shapes[s].d, shapes[s].c),
                         GCUT_OK);
        tu_grid_fill_vision(g, 1000 + s);
        snprintf(label, sizeof label, "vision %dx%dx%d c%d", (int)shapes[s].w, (int)shapes[s].h,
                 (int)shapes[s].d, (int)shapes[s].c);
        check_all(g, &r, label);
        gcut_grid_free(g);
    }
}

/* One 6-connected vision-like volume: cuda-grid whole, then 1, 2, 4, 8
 * device regions (checked against cuda-grid; cpu-ref would take long). */
static void test_timing(void **unused)
{
    (void)unused;
    const char *sz = getenv("GCUT_GPU_DIST_SIZE");
    const int32_t S = sz ? atoi(sz) : 256;
    if (g_quick || S <= 0)
        skip();
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, S, S, S, 6), GCUT_OK);
    tu_grid_fill_vision(g, 4242);
    char label[64];
    snprintf(label, sizeof label, "timing %d^3 c6 vision", (int)S);
    gcut_result *whole = solve_whole(g, "cuda-grid", label);
    char line[512];
    int at = snprintf(line, sizeof line,
                      "gpu-dist %d^3 c6 vision: cuda-grid %.1f ms, flow %lld; on %d device%s:",
                      (int)S, gcut_result_stats(whole)->total_ms,
                      (long long)gcut_result_flow(whole), g_ndev, g_ndev == 1 ? "" : "s");
    const int32_t regions[] = {1, 2, 4, 8, 16};
    const size_t nr = sizeof regions / sizeof regions[0];
    for (size_t i = 0; i < 2 * nr; i++) {
        const int jacobi = i >= nr;
        if (i == nr) {
            printf("%s\n", line);
            at = snprintf(line, sizeof line, "gpu-dist %d^3 c6 vision, discharge=jacobi:", (int)S);
        }
        const char *sep = i % nr + 1 < nr ? "," : "";
        gcut_result *res;
        assert_int_equal(gcut_result_new(&res), GCUT_OK);
        gcut_solve_options opt;
        device_options_for(&opt, jacobi);
        opt.time_limit = 120; /* a slow solve is a number to record, not a failure */
        const gcut_status st = gcut_grid_solve_partitioned(g, regions[i % nr], NULL, &opt, res);
        if (st == GCUT_ERR_TIMEOUT) {
            at += snprintf(line + at, sizeof line - (size_t)at, " %d regions over 120 s%s",
                           (int)regions[i % nr], sep);
        } else {
            if (st != GCUT_OK)
                fail_msg("%s, %d regions: the device solve failed: %s", label, (int)regions[i % nr],
                         gcut_last_error());
            compare(g, res, whole, "cuda-grid (one region)", regions[i % nr], NULL, 0, label);
            const gcut_stats *ss = gcut_result_stats(res);
            at += snprintf(line + at, sizeof line - (size_t)at, " %d regions %.1f ms %lld sweeps%s",
                           (int)regions[i % nr], ss->total_ms, (long long)ss->rounds, sep);
        }
        printf("  %d regions%s done\n", (int)regions[i % nr], jacobi ? " (jacobi)" : "");
        fflush(stdout);
        gcut_result_free(res);
    }
    printf("%s\n", line);
    fflush(stdout);
    gcut_result_free(whole);
    gcut_grid_free(g);
}

/* A device list that cannot be used fails the call with its reason and
 * leaves the result as it was. */
static void test_bad_devices(void **unused)
{
    (void)unused;
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 6, 5, 4, 6), GCUT_OK);
    tu_rng r = {7};
    tu_grid_randomise(g, &r, (tu_grid_kind)0);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    static const struct {
        const char *params, *backend, *says;
    } bad[] = {
        {"devices=0:0", "cuda-grid", "listed twice"},
        {"discharge=ard", "cuda-grid", "needs CPU regions"},
        {"relabel_every=4", "cuda-grid", "add discharge=jacobi"},
        {"devices=4096", "cuda-grid", "does not exist"},
        {"devices=0:1:4096", "cuda-grid", "does not exist"},
        {"devices=x", "cuda-grid", "CUDA device numbers"},
        {"devices=0:", "cuda-grid", "CUDA device numbers"},
        {"devices=-1", "cuda-grid", "CUDA device numbers"},
        {"devices=0", "cpu-bk", "needs backend"},
        {"regions=3", "cuda-grid", "devices"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gcut_solve_options opt;
        gcut_solve_options_init(&opt);
        opt.backend = bad[i].backend;
        opt.params = bad[i].params;
        const gcut_status st = gcut_grid_solve_partitioned(g, 3, NULL, &opt, res);
        if (st == GCUT_OK || !strstr(gcut_last_error(), bad[i].says))
            fail_msg("%s on %s: status %s, message \"%s\" (want one with \"%s\")",
                     bad[i].params, bad[i].backend, gcut_status_string(st), gcut_last_error(),
                     bad[i].says);
        assert_int_equal(gcut_result_num_nodes(res), 0);
    }
    gcut_result_free(res);
    gcut_grid_free(g);
    /* Slabs whose capacities hold a negative entry, in host or device
     * memory: the region's build on the device finds it. */
    enum { W = 5, H = 4, D = 6 };
    static int32_t caps[8][W * H * D];
    for (int a = 0; a < 8; a++)
        for (int i = 0; i < W * H * D; i++)
            caps[a][i] = (a * 5 + i * 11) % 7;
    caps[3][W * H * 4 + 2] = -3; /* plane 4, in the second slab */
    uint8_t cut[W * H * D];
    void *dev_mem = NULL;
    for (int on_dev = 0; on_dev < 2; on_dev++) {
        if (on_dev && (!gcut_device_available(NULL) ||
                       gcut_device_alloc(sizeof caps[3], &dev_mem) != GCUT_OK ||
                       gcut_device_copy(dev_mem, caps[3], sizeof caps[3]) != GCUT_OK))
            break;
        gcut_grid_slab sl[2];
        memset(sl, 0, sizeof sl);
        for (int i = 0; i < 2; i++) {
            sl[i].first = i ? 3 : 0;
            sl[i].planes = 3;
            sl[i].device = on_dev ? 0 : -1;
            const size_t at = (size_t)sl[i].first * W * H;
            sl[i].cap_source = caps[6] + at;
            sl[i].cap_sink = caps[7] + at;
            for (int d = 0; d < 6; d++)
                sl[i].cap[d] = caps[d] + at;
            if (on_dev)
                sl[i].cap[3] = (const int32_t *)dev_mem + at;
            sl[i].cut = cut + at;
        }
        if (on_dev) /* host arrays on device 0: the slab's device must hold them */
            for (int i = 0; i < 2; i++)
                for (int a = 0; a < 6; a++)
                    if (a != 3)
                        sl[i].cap[a] = caps[a] + (size_t)sl[i].first * W * H;
        gcut_solve_options opt;
        device_options(&opt);
        int64_t flow = -5;
        const gcut_status st = gcut_grid_solve_slabs(W, H, D, 6, sl, 2, &opt, &flow, NULL);
        if (st != GCUT_ERR_INVALID || !strstr(gcut_last_error(), "negative capacities in planes 3 .. 5"))
            fail_msg("a negative capacity in %s memory: status %s, message \"%s\"",
                     on_dev ? "device" : "host", gcut_status_string(st), gcut_last_error());
        assert_int_equal(flow, -5);
    }
    if (dev_mem)
        gcut_device_free(dev_mem);
}

static void test_summary(void **unused)
{
    (void)unused;
    printf("gpu-dist: %lld partitioned cases on %d device%s%s%s, %d solves each, all equal to "
           "cpu-ref and cuda-grid; %lld solved again with discharge=jacobi, equal\n",
           (long long)g_cases, g_ndev, g_ndev == 1 ? "" : "s", g_params[0] ? " " : "", g_params,
           g_repeat, (long long)g_jacobi);
}

int main(void)
{
    if (!tu_backend_available("cuda-grid")) {
        int32_t i;
        const char *why = "not registered";
        if (gcut_backend_find("cuda-grid", &i) == GCUT_OK)
            gcut_backend_available(i, &why);
        printf("cuda-grid unavailable (%s): skipped\n", why);
        return 77;
    }
    const char *rep = getenv("GCUT_GPU_REPEAT");
    if (rep && atoi(rep) > 0)
        g_repeat = atoi(rep);
    const char *quick = getenv("GCUT_GPU_QUICK");
    g_quick = quick && atoi(quick) > 0 ? atoi(quick) : 0;
    const char *devs = getenv("GCUT_GPU_DEVICES");
    if (devs && *devs) {
        snprintf(g_params, sizeof g_params, "devices=%s", devs);
        for (const char *c = devs; *c; c++)
            g_ndev += *c == ':';
    }
    snprintf(g_params_jacobi, sizeof g_params_jacobi, "%s%sdischarge=jacobi", g_params,
             g_params[0] ? "," : "");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),  cmocka_unit_test(test_crossing),
        cmocka_unit_test(test_vision),  cmocka_unit_test(test_bad_devices),
        cmocka_unit_test(test_timing),  cmocka_unit_test(test_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
