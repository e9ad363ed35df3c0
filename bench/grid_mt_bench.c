/*
 * gcut-grid-mt-bench - grid back ends and thread counts on one grid from
 * bench/gen (grid2d / grid3d, kind=random or kind=vision), through
 * gcut_grid_solve: cold solves, and warm re-solves after strokes.
 *
 *     gcut-grid-mt-bench grid2d:w=1024,h=1024 --threads 1,2
 *     gcut-grid-mt-bench grid2d:w=1024,h=1024,kind=vision --backends cpu-bk,cpu-grid-pr
 *     gcut-grid-mt-bench grid2d:w=2048,h=2048,kind=vision --backends cuda-grid,cpu-bk \
 *         --strokes 10 --csv out.csv
 *
 * Cold solves: CPU back ends run with the grid's warm start off; a GPU
 * back end keeps its device state (allocations are made once per grid
 * shape, as in an application) and is given "warm=0" so that every solve
 * starts from scratch; its first two solves (device set-up, registering
 * the grid's host arrays) are not timed. Besides the wall time of gcut_grid_solve the tool
 * prints the back end's own times: engine = init + max-flow + cut, and of
 * that the host <-> device copies (transfer).
 *
 * Strokes (--strokes N, for back ends with warm re-solves: cpu-bk,
 * cuda-grid): N times, the terminal capacities of a disc of --radius
 * pixels at a random place become a hard constraint (alternately
 * foreground and background), then the grid is solved again, warm. The
 * same seeded sequence is given to every back end, and every back end
 * must find the same flow after each stroke.
 *
 * The generator builds a general graph (one edge per unordered neighbour
 * pair, v -> v + offset); it is turned into a gcut_grid by looking up the
 * direction of each edge's offset. Every solve must give cpu-bk's flow and
 * cut bytes. Per back end and thread count it prints the median wall time
 * of --repeat solves (the back end's init + max-flow + cut) and the
 * counters of the last one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gcut/gcut.h"
#include "cli.h"
#include "gen/gen.h"

static void die(const char *what)
{
    fprintf(stderr, "gcut-grid-mt-bench: %s: %s\n", what, gcut_last_error());
    exit(1);
}

static double wall_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The grid of a bench/gen grid spec (exits on failure). */
static gcut_grid *grid_of_spec(const char *text)
{
    gcut_grid *g;
    char err[GEN_ERR_LEN];
    if (gen_grid_of_spec(text, &g, err) != GCUT_OK) {
        fprintf(stderr, "gcut-grid-mt-bench: %s\n", err);
        exit(1);
    }
    printf("%s: %d x %d x %d, %d-connected, %d nodes\n", text, (int)gcut_grid_width(g),
           (int)gcut_grid_height(g), (int)gcut_grid_depth(g), (int)gcut_grid_connectivity(g),
           (int)gcut_grid_num_nodes(g));
    return g;
}

/* Set the t-links of a disc to a hard constraint (a user's stroke). */
static void stroke(gcut_grid *g, uint64_t *rng, int32_t radius, int fg)
{
    const int32_t w = gcut_grid_width(g), h = gcut_grid_height(g);
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    const int32_t cx = (int32_t)((*rng >> 33) % (uint64_t)w);
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    const int32_t cy = (int32_t)((*rng >> 33) % (uint64_t)h);
    for (int32_t y = cy - radius; y <= cy + radius; y++)
        for (int32_t x = cx - radius; x <= cx + radius; x++)
            if (x >= 0 && x < w && y >= 0 && y < h &&
                (x - cx) * (x - cx) + (y - cy) * (y - cy) <= radius * radius &&
                gcut_grid_set_terminal_cap(g, x + w * y, fg ? 1000000 : 0, fg ? 0 : 1000000) !=
                    GCUT_OK)
                die("stroke");
}

static int is_gpu(const char *name)
{
    int32_t i;
    return gcut_backend_find(name, &i) == GCUT_OK && (gcut_backend_caps(i) & GCUT_BACKEND_GPU);
}

/* The grid from device memory (gcut/device.h): its arrays uploaded once,
 * then `repeat` solves timed after two untimed ones, each checked against
 * flow0 and cut0. Prints one line (and a CSV row, mode "device"). */
static void device_solves(gcut_grid *g, const char *be, const char *params, int32_t repeat,
                          int64_t flow0, const uint8_t *cut0, double *t, const char *spec,
                          FILE *csv)
{
    const int32_t n = gcut_grid_num_nodes(g), conn = gcut_grid_connectivity(g);
    const size_t bytes = (size_t)n * sizeof(int32_t);
    void *d[GCUT_GRID_MAX_DIRS + 3] = {NULL};
    gcut_device_solver *ds = NULL;
    gcut_result *res = NULL;
    uint8_t *cut = malloc((size_t)n);
    gcut_device_grid dg = GCUT_DEVICE_GRID_INIT;
    dg.width = gcut_grid_width(g);
    dg.height = gcut_grid_height(g);
    dg.depth = gcut_grid_depth(g);
    dg.connectivity = conn;
    dg.dtype = GCUT_DTYPE_INT32;
    if (!cut || gcut_result_new(&res) != GCUT_OK || gcut_device_solver_new(&ds, be) != GCUT_OK)
        die("device solver");
    for (int32_t k = 0; k < conn + 3; k++) {
        const int32_t what = k < conn ? k : k == conn ? GCUT_GRID_SOURCE_LINK : GCUT_GRID_SINK_LINK;
        const size_t b = k == conn + 2 ? (size_t)n : bytes;
        if (gcut_device_alloc(b, &d[k]) != GCUT_OK ||
            (k < conn + 2 && gcut_device_copy(d[k], gcut_grid_caps(g, what), b) != GCUT_OK))
            die("device arrays");
        if (k < conn)
            dg.caps[k] = d[k];
    }
    dg.cap_source = d[conn];
    dg.cap_sink = d[conn + 1];
    dg.cut = d[conn + 2];
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.params = params;
    for (int r = -2; r < repeat; r++) {
        const double t0 = wall_ms();
        if (gcut_device_solver_solve(ds, &dg, &opt, res) != GCUT_OK)
            die(gcut_last_error());
        if (r >= 0)
            t[r] = wall_ms() - t0;
    }
    if (gcut_device_copy(cut, d[conn + 2], (size_t)n) != GCUT_OK)
        die("device cut");
    if (gcut_result_flow(res) != flow0 || memcmp(cut, cut0, (size_t)n) != 0) {
        fprintf(stderr, "gcut-grid-mt-bench: %s from device arrays disagrees\n", be);
        exit(1);
    }
    const gcut_stats *st = gcut_result_stats(res);
    qsort(t, (size_t)repeat, sizeof *t, cmp_double);
    printf("%-12s device arrays: %9.2f ms median of %d (min %.2f)  flow %lld  rounds %lld  "
           "global relabels %lld\n",
           be, t[repeat / 2], (int)repeat, t[0], (long long)flow0, (long long)st->rounds,
           (long long)st->global_relabels);
    if (csv)
        fprintf(csv, "\"%s\",%s,1,device,%d,%.3f,%.3f,%.3f,0.000,%lld\n", spec, be, (int)repeat,
                t[repeat / 2], t[0], t[repeat / 2], (long long)flow0);
    for (int32_t k = 0; k < conn + 3; k++)
        gcut_device_free(d[k]);
    gcut_device_solver_free(ds);
    gcut_result_free(res);
    free(cut);
}

static const char usage[] =
    "usage: gcut-grid-mt-bench [options] [SPEC]\n"
    "Grid back ends and thread counts on one grid of bench/gen (SPEC: a grid2d or\n"
    "grid3d spec of gcut-gen, default grid2d:w=1024,h=1024): the median of cold\n"
    "solves per back end and thread count, then warm re-solves after strokes. Every\n"
    "solve must give cpu-bk's flow and cut.\n"
    "\n"
    "options:\n"
    "  --backends A,B       back ends to time (default cpu-bk,cpu-grid-pr)\n"
    "  --threads 1,2        thread counts to time each back end with (default 1,2)\n"
    "  --repeat R           cold solves per back end and thread count (default 3)\n"
    "  --params P           back-end settings key=value[,...] (not given to cpu-bk)\n"
    "  --strokes N          then N strokes, each re-solved warm (default 0)\n"
    "  --radius R           stroke radius in pixels (default 8)\n"
    "  --device             a GPU back end that takes device arrays (cuda-grid): also\n"
    "                       the same grid from device memory (gcut/device.h), the\n"
    "                       arrays uploaded once, R solves timed (no host transfer)\n"
    "  --csv FILE           also append the results to FILE as CSV rows\n"
    "  -h, --help           show this help\n"
    "      --version        show the version and the back ends\n";

int main(int argc, char **argv)
{
    cli_init("gcut-grid-mt-bench", usage);
    const char *spec = NULL, *backends = "cpu-bk,cpu-grid-pr", *threads = "1,2";
    const char *params = NULL, *csv_path = NULL;
    int32_t repeat = 3, strokes = 0, radius = 8;
    int device = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_info_option(a))
            return 0;
        if (!strcmp(a, "--device")) {
            device = 1;
            continue;
        }
        if (!strcmp(a, "--backends") || !strcmp(a, "--threads") || !strcmp(a, "--repeat") ||
            !strcmp(a, "--params") || !strcmp(a, "--strokes") || !strcmp(a, "--radius") ||
            !strcmp(a, "--csv")) {
            if (!v)
                return cli_usage_error("option needs a value", a);
            i++;
            if (!strcmp(a, "--backends"))
                backends = v;
            else if (!strcmp(a, "--threads"))
                threads = v;
            else if (!strcmp(a, "--params"))
                params = v;
            else if (!strcmp(a, "--csv"))
                csv_path = v;
            else if (!strcmp(a, "--repeat") && !cli_parse_int(v, 1, 1000, &repeat))
                return cli_usage_error("--repeat needs a number 1..1000", v);
            else if (!strcmp(a, "--strokes") && !cli_parse_int(v, 0, 1000000, &strokes))
                return cli_usage_error("--strokes needs a number 0..1000000", v);
            else if (!strcmp(a, "--radius") && !cli_parse_int(v, 1, 1000000, &radius))
                return cli_usage_error("--radius needs a number 1..1000000", v);
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("unknown option", a);
        } else if (spec) {
            return cli_usage_error("more than one SPEC", a);
        } else {
            spec = a;
        }
    }
    if (!spec)
        spec = "grid2d:w=1024,h=1024";
    gcut_grid *g = grid_of_spec(spec);
    const int32_t n = gcut_grid_num_nodes(g);
    /* The untouched terminal arrays, to undo the strokes between back ends. */
    int32_t *src0 = malloc((size_t)n * sizeof *src0), *snk0 = malloc((size_t)n * sizeof *snk0);
    uint8_t *cut0 = malloc((size_t)n);
    int64_t flow0 = -1;
    int64_t *stroke_flow = calloc((size_t)strokes + 1, sizeof *stroke_flow);
    int have_stroke_flows = 0;
    const int nt = repeat > strokes ? repeat : strokes;
    double *t = malloc(sizeof(double) * (size_t)nt), *te = malloc(sizeof(double) * (size_t)nt),
           *tx = malloc(sizeof(double) * (size_t)nt);
    gcut_result *res;
    if (!src0 || !snk0 || !cut0 || !t || !te || !tx || !stroke_flow ||
        gcut_result_new(&res) != GCUT_OK)
        die("memory");
    memcpy(src0, gcut_grid_caps(g, GCUT_GRID_SOURCE_LINK), (size_t)n * sizeof *src0);
    memcpy(snk0, gcut_grid_caps(g, GCUT_GRID_SINK_LINK), (size_t)n * sizeof *snk0);
    FILE *csv = NULL;
    if (csv_path) {
        csv = fopen(csv_path, "a");
        if (!csv) {
            perror(csv_path);
            return 1;
        }
        if (ftell(csv) == 0)
            fprintf(csv, "spec,backend,threads,mode,solves,median_ms,min_ms,engine_ms,"
                         "transfer_ms,flow\n");
    }
    char names[256];
    snprintf(names, sizeof names, "%s", backends);
    for (char *be = strtok(names, ","); be; be = strtok(NULL, ",")) {
        const int is_bk = strcmp(be, "cpu-bk") == 0, gpu = is_gpu(be);
        const int native_warm = is_bk || strcmp(be, "cuda-grid") == 0;
        const char *tl = is_bk || gpu ? "1" : threads;
        char pbuf[512];
        for (const char *p = tl; *p;) {
            const int32_t nthreads = (int32_t)strtol(p, NULL, 10);
            gcut_solve_options opt;
            gcut_solve_options_init(&opt);
            opt.backend = be;
            opt.threads = nthreads;
            opt.params = is_bk ? NULL : params;
            if (strcmp(be, "cuda-grid") == 0) {
                snprintf(pbuf, sizeof pbuf, "%s%swarm=0", params ? params : "", params ? "," : "");
                opt.params = pbuf;
            }
            gcut_grid_set_warm_start(g, gpu);
            /* A GPU back end's first solves set up the device (context,
             * allocations, registering the grid's arrays): not timed. */
            for (int r = 0; gpu && r < 2; r++)
                if (gcut_grid_solve(g, &opt, res) != GCUT_OK)
                    die(be);
            for (int r = 0; r < repeat; r++) {
                const double t0 = wall_ms();
                if (gcut_grid_solve(g, &opt, res) != GCUT_OK)
                    die(be);
                t[r] = wall_ms() - t0;
                const gcut_stats *st = gcut_result_stats(res);
                te[r] = st->init_ms + st->solve_ms + st->cut_ms;
                tx[r] = st->transfer_ms;
            }
            if (flow0 < 0) {
                flow0 = gcut_result_flow(res);
                memcpy(cut0, gcut_result_cut(res), (size_t)n);
            } else if (gcut_result_flow(res) != flow0 ||
                       memcmp(cut0, gcut_result_cut(res), (size_t)n) != 0) {
                fprintf(stderr, "gcut-grid-mt-bench: %s with %d threads disagrees\n", be,
                        (int)nthreads);
                return 1;
            }
            const gcut_stats *st = gcut_result_stats(res);
            const int64_t rounds = st->rounds, grs = st->global_relabels, pushes = st->pushes,
                          relabels = st->relabels;
            const int32_t used = st->threads;
            qsort(t, (size_t)repeat, sizeof *t, cmp_double);
            qsort(te, (size_t)repeat, sizeof *te, cmp_double);
            qsort(tx, (size_t)repeat, sizeof *tx, cmp_double);
            printf("%-12s threads %2d: %9.1f ms median of %d (min %.1f, engine %.1f, transfer "
                   "%.1f)  flow %lld  rounds %lld  global relabels %lld  pushes %lld  relabels "
                   "%lld\n",
                   be, (int)used, t[repeat / 2], repeat, t[0], te[repeat / 2], tx[repeat / 2],
                   (long long)flow0, (long long)rounds, (long long)grs, (long long)pushes,
                   (long long)relabels);
            if (csv)
                fprintf(csv, "\"%s\",%s,%d,cold,%d,%.3f,%.3f,%.3f,%.3f,%lld\n", spec, be,
                        (int)nthreads, repeat, t[repeat / 2], t[0], te[repeat / 2],
                        tx[repeat / 2], (long long)flow0);
            if (device && gpu && strcmp(be, "cuda-grid") == 0)
                device_solves(g, be, params, repeat, flow0, cut0, t, spec, csv);
            while (*p && *p != ',')
                p++;
            if (*p == ',')
                p++;
        }
        if (!strokes || !native_warm)
            continue;
        /* Warm re-solves after strokes: a first solve (cold) builds the
         * state, then each stroke is solved warm. */
        gcut_solve_options opt;
        gcut_solve_options_init(&opt);
        opt.backend = be;
        opt.params = is_bk ? NULL : params;
        gcut_grid_set_warm_start(g, 1);
        if (gcut_grid_solve(g, &opt, res) != GCUT_OK)
            die(be);
        uint64_t rng = 12345;
        int warm = 0;
        for (int k = 0; k < strokes; k++) {
            stroke(g, &rng, radius, k % 2 == 0);
            const double t0 = wall_ms();
            if (gcut_grid_solve(g, &opt, res) != GCUT_OK)
                die(be);
            t[k] = wall_ms() - t0;
            const gcut_stats *st = gcut_result_stats(res);
            te[k] = st->init_ms + st->solve_ms + st->cut_ms;
            tx[k] = st->transfer_ms;
            warm += st->warm_start;
            if (!have_stroke_flows)
                stroke_flow[k] = gcut_result_flow(res);
            else if (stroke_flow[k] != gcut_result_flow(res)) {
                fprintf(stderr, "gcut-grid-mt-bench: %s disagrees after stroke %d\n", be, k);
                return 1;
            }
        }
        have_stroke_flows = 1;
        qsort(t, (size_t)strokes, sizeof *t, cmp_double);
        qsort(te, (size_t)strokes, sizeof *te, cmp_double);
        qsort(tx, (size_t)strokes, sizeof *tx, cmp_double);
        printf("%-12s strokes r=%d: %9.2f ms median of %d warm re-solves (min %.2f, engine "
               "%.2f, transfer %.2f; %d of %d warm)\n",
               be, (int)radius, t[strokes / 2], strokes, t[0], te[strokes / 2], tx[strokes / 2],
               warm, strokes);
        if (csv)
            fprintf(csv, "\"%s\",%s,1,stroke-r%d,%d,%.3f,%.3f,%.3f,%.3f,%lld\n", spec, be,
                    (int)radius, strokes, t[strokes / 2], t[0], te[strokes / 2],
                    tx[strokes / 2], (long long)stroke_flow[strokes - 1]);
        /* Undo the strokes for the next back end. */
        if (gcut_grid_set_terminal_caps(g, src0, snk0) != GCUT_OK)
            die("terminals");
    }
    if (csv)
        fclose(csv);
    gcut_result_free(res);
    gcut_grid_free(g);
    free(cut0);
    free(src0);
    free(snk0);
    free(stroke_flow);
    free(t);
    free(te);
    free(tx);
    return 0;
}
