/*
 * gcut-grid-bench - time and memory of grid solves (gcut_grid_solve) on
 * random grids, against the same back end on the equivalent general graph,
 * and warm re-solves after interactive strokes.
 *
 *     gcut-grid-bench -w 2048 -h 2048                # cpu-bk, 4-connected
 *     gcut-grid-bench -w 512 -h 512 --graph          # also cpu-bk on the graph
 *     gcut-grid-bench -w 512 -h 512 --strokes 10     # warm vs cold re-solves
 *
 * The grid is the "random grid" of the max-flow literature (and of
 * gcut-gen's grid2d kind=random): every terminal capacity and every
 * neighbour capacity, each direction on its own, uniform in [0, maxcap].
 *
 * Memory is counted exactly through gcut_set_allocator: the peak of live
 * bytes gcut allocated during a phase (the grid's arrays, the engine's
 * state, the result), so it is comparable with the bytes per node and per
 * edge of other implementations. solve_ms is the median of the back end's
 * own time (init + max-flow + cut) over --repeat cold solves.
 *
 * A stroke sets the terminal capacities of a disc of pixels (radius
 * --radius) to a hard constraint, alternately foreground and background at
 * random places, then solves again: warm (the default) and, on a copy of
 * the grid, cold; both must agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gcut/gcut.h"
#include "cli.h"

/* ------------------------------------------------------- counting allocator */

static size_t g_live, g_peak;

typedef union hdr {
    size_t size;
    max_align_t align;
} hdr;

static void *count_malloc(size_t size)
{
    hdr *h = malloc(sizeof(hdr) + size);
    if (!h)
        return NULL;
    h->size = size;
    g_live += size;
    if (g_live > g_peak)
        g_peak = g_live;
    return h + 1;
}

static void count_free(void *p)
{
    if (!p)
        return;
    hdr *h = (hdr *)p - 1;
    g_live -= h->size;
    free(h);
}

static void *count_realloc(void *p, size_t size)
{
    if (!p)
        return count_malloc(size);
    hdr *h = (hdr *)p - 1;
    const size_t old = h->size;
    hdr *q = realloc(h, sizeof(hdr) + size);
    if (!q)
        return NULL;
    q->size = size;
    g_live = g_live - old + size;
    if (g_live > g_peak)
        g_peak = g_live;
    return q + 1;
}

/* ---------------------------------------------------------------- helpers */

static uint64_t g_rng = 1;

static uint64_t rng_next(void)
{
    uint64_t z = (g_rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int32_t rng_range(int32_t hi) { return (int32_t)(rng_next() % ((uint64_t)hi + 1)); }

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int k)
{
    qsort(v, (size_t)k, sizeof *v, cmp_double);
    return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

static void die(const char *what)
{
    fprintf(stderr, "gcut-grid-bench: %s: %s\n", what, gcut_last_error());
    exit(1);
}

static double own_ms(const gcut_stats *s) { return s->init_ms + s->solve_ms + s->cut_ms; }

/* CPU time of this process: on a shared machine it moves less than the
 * wall clock when other jobs take the cores (every engine here runs on
 * one thread). */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double minimum(const double *v, int k)
{
    double m = v[0];
    for (int i = 1; i < k; i++)
        m = v[i] < m ? v[i] : m;
    return m;
}

/* -h is the height here (as in the examples above and docs/grid.md), so
 * help is --help only. */
static const char usage[] =
    "usage: gcut-grid-bench [options]\n"
    "Time and exact memory of grid solves on a random grid (every capacity uniform\n"
    "in [0, maxcap]); optionally the same back end on the equivalent graph, and\n"
    "warm against cold re-solves after strokes.\n"
    "\n"
    "options:\n"
    "  -w W, -h H, -d D     grid size (default 512 x 512 x 1)\n"
    "  -c CONN              connectivity 4, 8, 6, 18, 26 (default 4)\n"
    "  --maxcap M           capacities uniform in [0, M] (default 100)\n"
    "  --seed S             random seed (default 1)\n"
    "  --backend NAME       back end (default cpu-bk)\n"
    "  --repeat R           cold solves to time, 1..100 (default 3)\n"
    "  --graph              also solve the converted graph with the same back end\n"
    "  --strokes K          then K strokes, each re-solved warm and cold\n"
    "  --radius R           stroke radius in pixels (default 30: ~2800 t-links)\n"
    "  --help               show this help (-h is the height)\n"
    "  --version            show the version and the back ends\n";

int main(int argc, char **argv)
{
    int32_t w = 512, h = 512, d = 1, conn = 4, maxcap = 100, repeat = 3, strokes = 0, radius = 30;
    int graph = 0;
    const char *backend = "cpu-bk";
    cli_init("gcut-grid-bench", usage);
    /* The options with a whole number >= 0, and where each one goes. */
    static const char *const num_name[] = {"-w",       "-h",       "-d",        "-c",
                                           "--maxcap", "--repeat", "--strokes", "--radius"};
    int32_t *const num_dst[] = {&w, &h, &d, &conn, &maxcap, &repeat, &strokes, &radius};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int k = 0;
        while (k < 8 && strcmp(a, num_name[k]))
            k++;
        if (!strcmp(a, "--help") || !strcmp(a, "--version")) {
            cli_info_option(a);
            return 0;
        } else if (!strcmp(a, "--graph")) {
            graph = 1;
        } else if (k < 8 || !strcmp(a, "--seed") || !strcmp(a, "--backend")) {
            if (!v)
                return cli_usage_error("option needs a value", a);
            i++;
            if (!strcmp(a, "--backend"))
                backend = v;
            else if (!strcmp(a, "--seed"))
                g_rng = strtoull(v, NULL, 10);
            else if (!cli_parse_int(v, 0, INT32_MAX, num_dst[k]))
                return cli_usage_error("option needs a whole number >= 0", a);
        } else {
            return cli_usage_error(a[0] == '-' ? "unknown option" : "unexpected operand", a);
        }
    }
    if (repeat < 1 || repeat > 100)
        return cli_usage_error("--repeat needs a number 1..100", NULL);
    if (gcut_set_allocator(count_malloc, count_realloc, count_free) != GCUT_OK)
        die("set_allocator");

    gcut_grid *g;
    if (gcut_grid_new(&g, w, h, d, conn) != GCUT_OK)
        die("grid");
    const int32_t n = gcut_grid_num_nodes(g);
    int32_t *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    if (!a || !b)
        return 1;
    for (int32_t v = 0; v < n; v++) {
        a[v] = rng_range(maxcap);
        b[v] = rng_range(maxcap);
    }
    if (gcut_grid_set_terminal_caps(g, a, b) != GCUT_OK)
        die("terminals");
    for (int32_t k = 0; k < conn; k++) {
        for (int32_t v = 0; v < n; v++)
            a[v] = rng_range(maxcap);
        if (gcut_grid_set_caps(g, k, a) != GCUT_OK)
            die("caps");
    }
    const size_t grid_bytes = g_live;
    printf("grid %d x %d x %d, %d-connected, capacities U[0, %d]: %d nodes\n", w, h, d, conn,
           maxcap, n);
    printf("grid arrays: %.1f MB (%.1f bytes/node)\n", grid_bytes / 1e6, (double)grid_bytes / n);

    gcut_result *res;
    if (gcut_result_new(&res) != GCUT_OK)
        die("result");
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = backend;
    /* Cold solves: warm start off, so each one starts from scratch and
     * frees its state after (the peak still counts it). */
    gcut_grid_set_warm_start(g, 0);
    double *t = malloc(sizeof(double) * (size_t)(repeat + strokes + 1));
    double *tcpu = malloc(sizeof(double) * (size_t)(repeat + 1));
    int64_t flow = 0;
    gcut_stats last = {0}; /* repeat >= 1: set by the first solve */
    g_peak = g_live;
    size_t grid_peak = 0;
    for (int r = 0; r < repeat; r++) {
        const double c0 = cpu_ms();
        if (gcut_grid_solve(g, &opt, res) != GCUT_OK)
            die("grid solve");
        tcpu[r] = cpu_ms() - c0;
        if (r == 0)
            grid_peak = g_peak; /* later solves also hold the previous cut */
        last = *gcut_result_stats(res);
        t[r] = own_ms(&last);
        flow = gcut_result_flow(res);
    }
    printf("%s grid: flow %lld, solve_ms %.1f (median of %d, min %.1f; last: init %.1f, "
           "max-flow %.1f, cut %.1f), cpu_ms %.1f (min %.1f), %lld augmentations\n",
           gcut_result_backend(res), (long long)flow, median(t, repeat), repeat, minimum(t, repeat),
           last.init_ms, last.solve_ms, last.cut_ms, median(tcpu, repeat), minimum(tcpu, repeat),
           (long long)last.augmentations);
    printf("%s grid: peak memory %.1f MB (%.1f bytes/node, grid arrays and cut included)\n",
           gcut_result_backend(res), grid_peak / 1e6, (double)grid_peak / n);

    if (graph) {
        gcut_graph *gr;
        gcut_result_free(res);
        res = NULL;
        const size_t base = g_live;
        if (gcut_grid_to_graph(g, &gr) != GCUT_OK || gcut_result_new(&res) != GCUT_OK)
            die("graph");
        const int64_t m = gcut_graph_num_edges(gr);
        g_peak = g_live;
        size_t peak = 0;
        for (int r = 0; r < repeat; r++) {
            /* Every solve cold (no engine state kept between repeats); the
             * first builds the layout, its build time is taken off. */
            gcut_graph_set_warm_start(gr, 0);
            const double c0 = cpu_ms();
            if (gcut_solve(gr, &opt, res) != GCUT_OK)
                die("graph solve");
            tcpu[r] = cpu_ms() - c0 - gcut_result_stats(res)->build_ms;
            if (r == 0)
                peak = g_peak - base;
            last = *gcut_result_stats(res);
            t[r] = own_ms(&last);
            if (gcut_result_flow(res) != flow) {
                fprintf(stderr, "gcut-grid-bench: graph flow %lld != grid flow %lld\n",
                        (long long)gcut_result_flow(res), (long long)flow);
                return 3;
            }
        }
        printf("%s graph: solve_ms %.1f (median of %d, min %.1f), cpu_ms %.1f (min %.1f, "
               "layout build excluded), layout build %.1f ms, %lld edges\n",
               gcut_result_backend(res), median(t, repeat), repeat, minimum(t, repeat),
               median(tcpu, repeat), minimum(tcpu, repeat), last.build_ms, (long long)m);
        printf("%s graph: peak memory %.1f MB (%.1f bytes/node: model, layout, engine, cut)\n",
               gcut_result_backend(res), peak / 1e6, (double)peak / n);
        gcut_graph_free(gr);
    }

    if (strokes > 0) {
        /* A second grid with the same arrays, solved cold after each stroke. */
        gcut_grid *c;
        if (gcut_grid_new(&c, w, h, d, conn) != GCUT_OK)
            die("grid copy");
        for (int32_t k = -2; k < conn; k++)
            if (gcut_grid_set_caps(c, k, gcut_grid_caps(g, k)) != GCUT_OK)
                die("copy");
        gcut_grid_set_warm_start(c, 0);
        gcut_grid_set_warm_start(g, 1);
        gcut_result *cres;
        if (gcut_result_new(&cres) != GCUT_OK || gcut_grid_solve(g, &opt, res) != GCUT_OK)
            die("first warm-able solve");
        double *tc = malloc(sizeof(double) * (size_t)strokes);
        int64_t changed = 0;
        int warm = 0;
        for (int k = 0; k < strokes; k++) {
            const int32_t cx = rng_range(w - 1), cy = rng_range(h - 1), z = rng_range(d - 1);
            const int fg = k % 2 == 0;
            for (int32_t y = cy - radius; y <= cy + radius; y++)
                for (int32_t x = cx - radius; x <= cx + radius; x++) {
                    if (x < 0 || x >= w || y < 0 || y >= h ||
                        (x - cx) * (x - cx) + (y - cy) * (y - cy) > radius * radius)
                        continue;
                    const int32_t v = x + w * (y + h * z);
                    const int32_t s = fg ? 1000000 : 0, snk = fg ? 0 : 1000000;
                    if (gcut_grid_set_terminal_cap(g, v, s, snk) != GCUT_OK ||
                        gcut_grid_set_terminal_cap(c, v, s, snk) != GCUT_OK)
                        die("stroke");
                    changed++;
                }
            if (gcut_grid_solve(g, &opt, res) != GCUT_OK || gcut_grid_solve(c, &opt, cres) != GCUT_OK)
                die("stroke solve");
            if (gcut_result_flow(res) != gcut_result_flow(cres) ||
                memcmp(gcut_result_cut(res), gcut_result_cut(cres), (size_t)n)) {
                fprintf(stderr, "gcut-grid-bench: warm and cold solves differ after stroke %d\n",
                        k);
                return 3;
            }
            warm += gcut_result_stats(res)->warm_start;
            t[k] = own_ms(gcut_result_stats(res));
            tc[k] = own_ms(gcut_result_stats(cres));
        }
        printf("strokes: %d of radius %d (%.0f t-links each), %d solved warm\n", strokes, radius,
               (double)changed / strokes, warm);
        printf("re-solve after a stroke: warm %.1f ms, cold %.1f ms (medians; same flow and cut)\n",
               median(t, strokes), median(tc, strokes));
        free(tc);
        gcut_result_free(cres);
        gcut_grid_free(c);
    }
    free(t);
    free(tcpu);
    free(a);
    free(b);
    gcut_result_free(res);
    gcut_grid_free(g);
    return 0;
}
