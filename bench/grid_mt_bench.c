/*
 * gcut-grid-mt-bench - grid back ends and thread counts on one grid from
 * bench/gen (grid2d / grid3d, kind=random or kind=vision), through
 * gcut_grid_solve, cold (warm start off).
 *
 *     gcut-grid-mt-bench grid2d:w=1024,h=1024 --threads 1,2
 *     gcut-grid-mt-bench grid2d:w=1024,h=1024,kind=vision --backends cpu-bk,cpu-grid-pr
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

/* The grid of a bench/gen grid spec. */
static gcut_grid *grid_of_spec(const char *text)
{
    gen_spec spec;
    char err[GEN_ERR_LEN];
    if (gen_spec_parse(text, 1, &spec, err) != 0) {
        fprintf(stderr, "gcut-grid-mt-bench: %s\n", err);
        exit(1);
    }
    const int three = strcmp(spec.family->name, "grid3d") == 0;
    if (!three && strcmp(spec.family->name, "grid2d") != 0) {
        fprintf(stderr, "gcut-grid-mt-bench: %s: a grid2d or grid3d spec is needed\n", text);
        exit(1);
    }
    int64_t w, h, d = 1, conn;
    if (gen_spec_int(&spec, "w", 1, INT32_MAX, &w, err) ||
        gen_spec_int(&spec, "h", 1, INT32_MAX, &h, err) ||
        (three && gen_spec_int(&spec, "d", 1, INT32_MAX, &d, err)) ||
        gen_spec_int(&spec, "conn", 4, 26, &conn, err)) {
        fprintf(stderr, "gcut-grid-mt-bench: %s\n", err);
        exit(1);
    }
    gcut_graph *gr;
    if (gen_build(&spec, &gr, err) != GCUT_OK) {
        fprintf(stderr, "gcut-grid-mt-bench: %s\n", err);
        exit(1);
    }
    gcut_grid *g;
    if (gcut_grid_new(&g, (int32_t)w, (int32_t)h, (int32_t)d, (int32_t)conn) != GCUT_OK)
        die("grid");
    const int32_t n = gcut_grid_num_nodes(g);
    int32_t *s = malloc((size_t)n * sizeof *s), *t = malloc((size_t)n * sizeof *t);
    int32_t *cap[GCUT_GRID_MAX_DIRS];
    int32_t dx[GCUT_GRID_MAX_DIRS], dy[GCUT_GRID_MAX_DIRS], dz[GCUT_GRID_MAX_DIRS];
    if (!s || !t)
        die("memory");
    for (int32_t k = 0; k < conn; k++) {
        cap[k] = calloc((size_t)n, sizeof(int32_t));
        if (!cap[k] || gcut_grid_direction((int32_t)conn, k, &dx[k], &dy[k], &dz[k]) != GCUT_OK)
            die("direction");
    }
    for (int32_t v = 0; v < n; v++)
        if (gcut_graph_get_tweights(gr, v, &s[v], &t[v]) != GCUT_OK)
            die("tweights");
    const int64_t m = gcut_graph_num_edges(gr);
    for (int64_t e = 0; e < m; e++) {
        int32_t u, v, c, rc;
        if (gcut_graph_get_edge(gr, e, &u, &v, &c, &rc) != GCUT_OK)
            die("edge");
        const int32_t ex = v % (int32_t)w - u % (int32_t)w;
        const int32_t ey = (v / (int32_t)w) % (int32_t)h - (u / (int32_t)w) % (int32_t)h;
        const int32_t ez = v / (int32_t)(w * h) - u / (int32_t)(w * h);
        int32_t k = 0;
        while (k < conn && !(dx[k] == ex && dy[k] == ey && dz[k] == ez))
            k++;
        if (k == conn) {
            fprintf(stderr, "gcut-grid-mt-bench: edge %lld is not a grid edge\n", (long long)e);
            exit(1);
        }
        cap[k][u] = c;
        cap[k ^ 1][v] = rc;
    }
    if (gcut_grid_set_terminals(g, s, t) != GCUT_OK)
        die("terminals");
    for (int32_t k = 0; k < conn; k++) {
        if (gcut_grid_set_caps(g, k, cap[k]) != GCUT_OK)
            die("caps");
        free(cap[k]);
    }
    free(s);
    free(t);
    gcut_graph_free(gr);
    printf("%s: %lld x %lld x %lld, %lld-connected, %d nodes\n", spec.text, (long long)w,
           (long long)h, (long long)d, (long long)conn, (int)n);
    return g;
}

int main(int argc, char **argv)
{
    const char *spec = NULL, *backends = "cpu-bk,cpu-grid-pr", *threads = "1,2";
    const char *params = NULL;
    int repeat = 3;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v && !strcmp(a, "--backends"))
            backends = v, i++;
        else if (v && !strcmp(a, "--threads"))
            threads = v, i++;
        else if (v && !strcmp(a, "--repeat"))
            repeat = atoi(v), i++;
        else if (v && !strcmp(a, "--params"))
            params = v, i++;
        else if (a[0] != '-' && !spec)
            spec = a;
        else {
            fprintf(stderr,
                    "usage: gcut-grid-mt-bench SPEC [--backends A,B] [--threads 1,2] "
                    "[--repeat R] [--params P (for non-cpu-bk back ends)]\n");
            return 2;
        }
    }
    if (!spec || repeat < 1)
        spec = "grid2d:w=1024,h=1024";
    gcut_grid *g = grid_of_spec(spec);
    gcut_grid_set_warm_start(g, 0);
    const int32_t n = gcut_grid_num_nodes(g);
    uint8_t *cut0 = malloc((size_t)n);
    int64_t flow0 = -1;
    double *t = malloc(sizeof(double) * (size_t)repeat);
    gcut_result *res;
    if (!cut0 || !t || gcut_result_new(&res) != GCUT_OK)
        die("memory");
    char names[256];
    snprintf(names, sizeof names, "%s", backends);
    for (char *be = strtok(names, ","); be; be = strtok(NULL, ",")) {
        const int is_bk = strcmp(be, "cpu-bk") == 0;
        const char *tl = is_bk ? "1" : threads;
        for (const char *p = tl; *p;) {
            const int32_t nt = (int32_t)strtol(p, NULL, 10);
            gcut_solve_options opt;
            gcut_solve_options_init(&opt);
            opt.backend = be;
            opt.threads = nt;
            opt.params = is_bk ? NULL : params;
            for (int r = 0; r < repeat; r++) {
                const double t0 = wall_ms();
                if (gcut_grid_solve(g, &opt, res) != GCUT_OK)
                    die(be);
                t[r] = wall_ms() - t0;
            }
            if (flow0 < 0) {
                flow0 = gcut_result_flow(res);
                memcpy(cut0, gcut_result_cut(res), (size_t)n);
            } else if (gcut_result_flow(res) != flow0 ||
                       memcmp(cut0, gcut_result_cut(res), (size_t)n) != 0) {
                fprintf(stderr, "gcut-grid-mt-bench: %s with %d threads disagrees\n", be,
                        (int)nt);
                return 1;
            }
            qsort(t, (size_t)repeat, sizeof *t, cmp_double);
            const gcut_stats *st = gcut_result_stats(res);
            printf("%-12s threads %2d: %9.1f ms median of %d (min %.1f)  flow %lld  rounds %lld"
                   "  global relabels %lld  pushes %lld  relabels %lld\n",
                   be, (int)st->threads, t[repeat / 2], repeat, t[0], (long long)flow0,
                   (long long)st->rounds, (long long)st->global_relabels,
                   (long long)st->pushes, (long long)st->relabels);
            while (*p && *p != ',')
                p++;
            if (*p == ',')
                p++;
        }
    }
    gcut_result_free(res);
    gcut_grid_free(g);
    free(cut0);
    free(t);
    return 0;
}
