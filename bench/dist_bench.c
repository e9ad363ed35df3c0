/*
 * gcut-dist-bench - the region-partitioned grid max-flow (lib/dist/,
 * docs/distributed.md) on one grid from bench/gen, against cpu-bk.
 *
 *     gcut-dist-bench grid2d:w=2048,h=2048,kind=vision --regions 1,2,4
 *     gcut-dist-bench grid3d:w=128,h=128,d=128,conn=6,kind=vision --regions 1,2,4 --threads 2
 *     mpirun -np 4 gcut-dist-mpi-bench grid3d:w=128,h=128,d=128,conn=6,kind=vision
 *
 * In one process (gcut-dist-bench) it solves the grid with cpu-bk, then
 * with gcut_grid_solve_partitioned for each region count; under MPI
 * (gcut-dist-mpi-bench, built with -DGCUT_DIST_BENCH_MPI) every rank
 * builds the same grid, keeps its even slab in a gcut_dist_grid and the
 * ranks solve collectively; rank 0 also solves with cpu-bk and gathers the
 * cut. Every solve must give cpu-bk's flow and cut bytes. It prints the
 * median wall time of --repeat solves and the counters of the last one:
 * sweeps, global relabels (and their exchange rounds), pushes, relabels,
 * and the bytes of boundary messages (per sweep: two exchanges, each rank
 * to each neighbour).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef GCUT_DIST_BENCH_MPI
#include <mpi.h>

#include "gcut/dist.h"
#endif
#include "gcut/gcut.h"
#include "gen/gen.h"

static int g_rank = 0;
#ifdef GCUT_DIST_BENCH_MPI
static int g_size = 1;
#endif

static void die(const char *what)
{
    fprintf(stderr, "gcut-dist-bench: %s: %s\n", what, gcut_last_error());
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

static gcut_grid *grid_of_spec(const char *text)
{
    gcut_grid *g;
    char err[GEN_ERR_LEN];
    if (gen_grid_of_spec(text, &g, err) != GCUT_OK) {
        fprintf(stderr, "gcut-dist-bench: %s\n", err);
        exit(1);
    }
    if (g_rank == 0)
        printf("%s: %d x %d x %d, %d-connected, %d nodes\n", text, (int)gcut_grid_width(g),
               (int)gcut_grid_height(g), (int)gcut_grid_depth(g), (int)gcut_grid_connectivity(g),
               (int)gcut_grid_num_nodes(g));
    return g;
}

/* cpu-bk's flow and cut (the reference), with its time. */
static gcut_result *reference(gcut_grid *g, int repeat)
{
    gcut_result *ref;
    gcut_result_new(&ref);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-bk";
    gcut_grid_set_warm_start(g, 0);
    double t[64];
    for (int i = 0; i < repeat; i++) {
        const double t0 = wall_ms();
        if (gcut_grid_solve(g, &opt, ref) != GCUT_OK)
            die("cpu-bk");
        t[i] = wall_ms() - t0;
    }
    qsort(t, (size_t)repeat, sizeof *t, cmp_double);
    printf("cpu-bk              : %9.1f ms median of %d  flow %lld\n", t[repeat / 2], repeat,
           (long long)gcut_result_flow(ref));
    return ref;
}

#ifndef GCUT_DIST_BENCH_MPI
static void run_regions(gcut_grid *g, const gcut_result *ref, int32_t regions, int32_t threads,
                        int repeat)
{
    gcut_result *res;
    gcut_result_new(&res);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.threads = threads;
    double t[64];
    for (int i = 0; i < repeat; i++) {
        const double t0 = wall_ms();
        if (gcut_grid_solve_partitioned(g, regions, NULL, &opt, res) != GCUT_OK)
            die("gcut_grid_solve_partitioned");
        t[i] = wall_ms() - t0;
    }
    qsort(t, (size_t)repeat, sizeof *t, cmp_double);
    const gcut_stats *s = gcut_result_stats(res);
    const int same =
        gcut_result_flow(res) == gcut_result_flow(ref) &&
        memcmp(gcut_result_cut(res), gcut_result_cut(ref), (size_t)gcut_grid_num_nodes(g)) == 0;
    printf(
        "regions %2d threads %d: %9.1f ms median of %d  flow %lld  same cut %s  sweeps %lld  "
        "global relabels %lld  pushes %lld  relabels %lld  (init %.0f, sweeps %.0f, cut %.0f ms)\n",
        (int)regions, (int)s->threads, t[repeat / 2], repeat, (long long)gcut_result_flow(res),
        same ? "yes" : "NO", (long long)s->rounds, (long long)s->global_relabels,
        (long long)s->pushes, (long long)s->relabels, s->init_ms, s->solve_ms, s->cut_ms);
    gcut_result_free(res);
    if (!same)
        exit(1);
}
#else
static void run_mpi(gcut_grid *g, const gcut_result *ref, int repeat)
{
    const int32_t c = gcut_grid_connectivity(g), w = gcut_grid_width(g), h = gcut_grid_height(g);
    const int two_d = c == 4 || c == 8;
    const int32_t P = two_d ? h : gcut_grid_depth(g), plane = two_d ? w : w * h;
    const int64_t first = (int64_t)P * g_rank / g_size;
    const int32_t count = (int32_t)((int64_t)P * (g_rank + 1) / g_size - first);
    const size_t at = (size_t)first * (size_t)plane;
    gcut_dist_grid *dg;
    if (gcut_dist_grid_new(&dg, MPI_COMM_WORLD, w, h, gcut_grid_depth(g), c, first, count) !=
        GCUT_OK)
        die("gcut_dist_grid_new");
    for (int32_t d = 0; d < c; d++)
        if (gcut_dist_grid_set_caps(dg, d, gcut_grid_caps(g, d) + at) != GCUT_OK)
            die("gcut_dist_grid_set_caps");
    if (gcut_dist_grid_set_terminal_caps(dg, gcut_grid_caps(g, GCUT_GRID_SOURCE_LINK) + at,
                                         gcut_grid_caps(g, GCUT_GRID_SINK_LINK) + at) != GCUT_OK)
        die("gcut_dist_grid_set_terminal_caps");
    double t[64];
    int64_t flow = 0;
    for (int i = 0; i < repeat; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = wall_ms();
        if (gcut_dist_grid_solve(dg, NULL, &flow) != GCUT_OK)
            die("gcut_dist_grid_solve");
        MPI_Barrier(MPI_COMM_WORLD);
        t[i] = wall_ms() - t0;
    }
    qsort(t, (size_t)repeat, sizeof *t, cmp_double);
    gcut_dist_stats s;
    gcut_dist_grid_stats(dg, &s);
    int64_t bytes = s.bytes_sent;
    MPI_Allreduce(MPI_IN_PLACE, &bytes, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    /* The cut, gathered on rank 0. */
    int *sizes = malloc((size_t)g_size * sizeof *sizes),
        *offs = malloc((size_t)g_size * sizeof *offs);
    for (int q = 0; q < g_size; q++) {
        const int64_t f = (int64_t)P * q / g_size, e = (int64_t)P * (q + 1) / g_size;
        sizes[q] = (int)((e - f) * plane);
        offs[q] = (int)(f * plane);
    }
    uint8_t *cut = g_rank == 0 ? malloc((size_t)gcut_grid_num_nodes(g)) : NULL;
    const uint8_t *mine = gcut_dist_grid_cut(dg);
    static const uint8_t none[1] = {0};
    MPI_Gatherv(mine ? mine : none, sizes[g_rank], MPI_UINT8_T, cut, sizes, offs, MPI_UINT8_T, 0,
                MPI_COMM_WORLD);
    if (g_rank == 0) {
        const int same = flow == gcut_result_flow(ref) &&
                         memcmp(cut, gcut_result_cut(ref), (size_t)gcut_grid_num_nodes(g)) == 0;
        printf("MPI ranks %d        : %9.1f ms median of %d  flow %lld  same cut %s  sweeps %lld  "
               "global relabels %lld (%lld rounds)  pushes %lld  relabels %lld  "
               "boundary bytes %lld (%.0f per sweep)\n",
               g_size, t[repeat / 2], repeat, (long long)flow, same ? "yes" : "NO",
               (long long)s.sweeps, (long long)s.global_relabels, (long long)s.gr_rounds,
               (long long)s.pushes, (long long)s.relabels, (long long)bytes,
               s.sweeps ? (double)bytes / (double)s.sweeps : 0.0);
        if (!same)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    free(cut);
    free(offs);
    free(sizes);
    gcut_dist_grid_free(dg);
}
#endif

/* "1,2,4" into up to 16 ints. */
static int parse_list(const char *s, int32_t *out)
{
    int k = 0;
    while (*s && k < 16) {
        out[k++] = (int32_t)strtol(s, (char **)&s, 10);
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return k;
}

int main(int argc, char **argv)
{
#ifdef GCUT_DIST_BENCH_MPI
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
#endif
    const char *spec = NULL;
    int32_t regions[16] = {1, 2, 4}, threads = 0;
    int nregions = 3, repeat = 3;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--regions") && i + 1 < argc)
            nregions = parse_list(argv[++i], regions);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = (int32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (argv[i][0] != '-' && !spec)
            spec = argv[i];
        else
            spec = NULL, argc = 0;
    }
    if (!spec || nregions < 1 || repeat < 1 || repeat > 64) {
        fprintf(stderr, "usage: gcut-dist-bench SPEC [--regions 1,2,4] [--threads N] "
                        "[--repeat N]\n");
        return 2;
    }
    gcut_grid *g = grid_of_spec(spec);
    gcut_result *ref = g_rank == 0 ? reference(g, repeat) : NULL;
#ifdef GCUT_DIST_BENCH_MPI
    (void)regions;
    (void)threads;
    run_mpi(g, ref, repeat);
#else
    for (int i = 0; i < nregions; i++)
        run_regions(g, ref, regions[i], threads, repeat);
#endif
    gcut_result_free(ref);
    gcut_grid_free(g);
#ifdef GCUT_DIST_BENCH_MPI
    MPI_Finalize();
#endif
    return 0;
}
