/*
 * gcut-dist-bench - the region-partitioned grid max-flow (lib/dist/,
 * docs/distributed.md) on one grid from bench/gen, against cpu-bk.
 *
 *     gcut-dist-bench grid2d:w=2048,h=2048,kind=vision --regions 1,2,4
 *     gcut-dist-bench grid3d:w=128,h=128,d=128,conn=6,kind=vision --regions 1,2,4 --threads 2
 *     mpirun -np 4 gcut-dist-mpi-bench grid3d:w=128,h=128,d=128,conn=6,kind=vision
 *     gcut-dist-bench vol:w=768,h=768,d=768 --backend cuda-grid --runs 1x1,1x2,2x4,4x8
 *     gcut-dist-bench vol:w=1280,h=1280,d=1280 --backend cuda-grid --reference none --runs 4x8
 *
 * With --backend cuda-grid the regions live on GPUs (docs/distributed.md):
 * --runs lists GxR, R regions on the first G devices (devices=0:..:G-1;
 * NCCL between devices), and the reference is the single-region cuda-grid
 * solve (a reference that does not fit the device is reported and
 * skipped). With --reference none every run is compared with the first
 * (flow and cut bytes), and a hash of the cut is printed. "vol:w=,h=,d=
 * [,conn=6][,seed=1]" is a vision-like volume filled here in parallel (a
 * few bright balls with noise; the energy of tests/test_gpu_dist.c), for
 * volumes too large for the generator's general-graph path.
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
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef GCUT_DIST_BENCH_MPI
#include <mpi.h>

#include "gcut/dist.h"
#endif
#include "gcut/gcut.h"
#include "gen/gen.h"

static int g_rank = 0;
#ifdef GCUT_DIST_BENCH_MPI
static int g_size = 1;
#define DIST_BENCH_PROG "gcut-dist-mpi-bench"
#else
#define DIST_BENCH_PROG "gcut-dist-bench"
#endif
static int g_verbose = 0; /* -v: the solves' INFO log (the device regions' profile) */
static const char *g_params = NULL; /* --params: more settings of the partitioned solves */

static void bench_log(void *user, gcut_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    printf("  log: %s\n", msg);
}

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


/* ------------------------------------------------ vol: a large volume, filled in parallel */

typedef struct vol_job {
    gcut_grid *g;
    uint8_t *img;
    int32_t w, h, d, c;
    uint64_t seed;
    double cx[3], cy[3], cz[3], rad[3];
    int32_t table[256];
    int phase, threads, failed;
    pthread_mutex_t lock; /* the grid's setters are not for concurrent callers */
    /* --slabs: the volume straight into the slabs' own arrays (phase 2),
     * and the cut's capacity summed per thread (phase 3). */
    gcut_grid_slab *sl;
    int32_t nsl;
    const uint8_t *cut;
    int64_t cap_sum[128];
} vol_job;

typedef struct vol_arg {
    vol_job *J;
    int id;
} vol_arg;

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The slab holding plane z. */
static const gcut_grid_slab *slab_of(const vol_job *J, int64_t z)
{
    int32_t i = 0;
    while (i + 1 < J->nsl && J->sl[i + 1].first <= z)
        i++;
    return &J->sl[i];
}

/* Phase 2: the capacities of planes z0..z1-1 into their slabs' arrays (the
 * energy of the grid path below). Phase 3: the capacity of the cut over
 * the arcs that leave planes z0..z1-1's nodes, into cap_sum[id]. */
static void *slab_worker(vol_job *J, int id, int32_t z0, int32_t z1)
{
    const int64_t plane = (int64_t)J->w * J->h;
    const int64_t n = plane * J->d;
    int64_t sum = 0;
    for (int32_t z = z0; z < z1; z++) {
        const gcut_grid_slab *s = slab_of(J, z);
        const int64_t base = plane * z, at = plane * (z - s->first);
        for (int32_t dir = 0; dir < J->c; dir++) {
            int32_t dx, dy, dz;
            gcut_grid_direction(J->c, dir, &dx, &dy, &dz);
            const int64_t step = dx + (int64_t)J->w * (dy + (int64_t)J->h * dz);
            int32_t *cap = (int32_t *)s->cap[dir] + at;
            for (int64_t j = 0; j < plane; j++) {
                const int64_t v = base + j, u = v + step;
                const int64_t x = j % J->w, y = j / J->w;
                const int inside = x + dx >= 0 && x + dx < J->w && y + dy >= 0 && y + dy < J->h &&
                                   z + dz >= 0 && z + dz < J->d;
                if (J->phase == 2) {
                    const int diff = u >= 0 && u < n ? abs((int)J->img[v] - (int)J->img[u]) : 0;
                    cap[j] = J->table[diff];
                } else if (inside && J->cut[v] == GCUT_SOURCE && J->cut[u] == GCUT_SINK) {
                    sum += cap[j];
                }
            }
        }
        int32_t *src = (int32_t *)s->cap_source + at, *snk = (int32_t *)s->cap_sink + at;
        for (int64_t j = 0; j < plane; j++) {
            if (J->phase == 2) {
                src[j] = 2 * abs((int)J->img[base + j] - 80);
                snk[j] = 2 * abs((int)J->img[base + j] - 170);
            } else {
                sum += J->cut[base + j] == GCUT_SOURCE ? snk[j] : src[j];
            }
        }
    }
    J->cap_sum[id] = sum;
    return NULL;
}

static void *vol_worker(void *p)
{
    const vol_arg *a = p;
    vol_job *J = a->J;
    const int64_t plane = (int64_t)J->w * J->h;
    const int32_t z0 = (int32_t)((int64_t)J->d * a->id / J->threads);
    const int32_t z1 = (int32_t)((int64_t)J->d * (a->id + 1) / J->threads);
    if (J->phase == 0) { /* the image */
        for (int32_t z = z0; z < z1; z++)
            for (int32_t y = 0; y < J->h; y++)
                for (int32_t x = 0; x < J->w; x++) {
                    int in = 0;
                    for (int i = 0; i < 3; i++) {
                        const double ex = x - J->cx[i], ey = y - J->cy[i], ez = z - J->cz[i];
                        in |= ex * ex + ey * ey + ez * ez < J->rad[i] * J->rad[i];
                    }
                    const int64_t v = x + J->w * (y + (int64_t)J->h * z);
                    const int noise = (int)(mix64(J->seed ^ (uint64_t)v) % 91) - 45;
                    const int val = (in ? 170 : 80) + noise;
                    J->img[v] = (uint8_t)(val < 0 ? 0 : val > 255 ? 255 : val);
                }
        return NULL;
    }
    if (J->phase >= 2)
        return slab_worker(J, a->id, z0, z1);
    /* The capacities of planes z0..z1-1, a plane at a time. */
    const int64_t n = plane * J->d;
    int32_t *a0 = malloc((size_t)plane * 4 + 4), *b0 = malloc((size_t)plane * 4 + 4);
    if (!a0 || !b0) {
        J->failed = 1;
        free(a0);
        free(b0);
        return NULL;
    }
    for (int32_t z = z0; z < z1; z++) {
        const int64_t base = plane * z;
        for (int32_t dir = 0; dir < J->c; dir++) {
            int32_t dx, dy, dz;
            gcut_grid_direction(J->c, dir, &dx, &dy, &dz);
            const int64_t step = dx + (int64_t)J->w * (dy + (int64_t)J->h * dz);
            for (int64_t j = 0; j < plane; j++) {
                const int64_t v = base + j, u = v + step;
                const int diff = u >= 0 && u < n ? abs((int)J->img[v] - (int)J->img[u]) : 0;
                a0[j] = J->table[diff];
            }
            pthread_mutex_lock(&J->lock);
            if (gcut_grid_set_caps_range(J->g, dir, (int32_t)base, (int32_t)plane, a0) != GCUT_OK)
                J->failed = 1;
            pthread_mutex_unlock(&J->lock);
        }
        for (int64_t j = 0; j < plane; j++) {
            a0[j] = 2 * abs((int)J->img[base + j] - 80);
            b0[j] = 2 * abs((int)J->img[base + j] - 170);
        }
        pthread_mutex_lock(&J->lock);
        if (gcut_grid_set_terminal_caps_range(J->g, (int32_t)base, (int32_t)plane, a0, b0) !=
            GCUT_OK)
            J->failed = 1;
        pthread_mutex_unlock(&J->lock);
    }
    free(a0);
    free(b0);
    return NULL;
}

/* Run phase J->phase of the workers on every thread. */
static void vol_phase(vol_job *J)
{
    pthread_t tid[128];
    vol_arg args[128];
    for (int i = 0; i < J->threads; i++) {
        args[i] = (vol_arg){J, i};
        pthread_create(&tid[i], NULL, vol_worker, &args[i]);
    }
    for (int i = 0; i < J->threads; i++)
        pthread_join(tid[i], NULL);
}

/* Parse "vol:..." into J and draw its image (phase 0). */
static void vol_setup(const char *text, vol_job *J)
{
    long long w = 0, h = 0, d = 0, c = 6, seed = 1;
    const char *p = text + 4;
    while (*p) {
        char key[16];
        long long val;
        int used = 0;
        if (sscanf(p, "%15[a-z]=%lld%n", key, &val, &used) != 2) {
            fprintf(stderr, "gcut-dist-bench: %s: expected vol:w=W,h=H,d=D[,conn=C][,seed=S]\n",
                    text);
            exit(2);
        }
        if (!strcmp(key, "w"))
            w = val;
        else if (!strcmp(key, "h"))
            h = val;
        else if (!strcmp(key, "d"))
            d = val;
        else if (!strcmp(key, "conn"))
            c = val;
        else if (!strcmp(key, "seed"))
            seed = val;
        else {
            fprintf(stderr, "gcut-dist-bench: %s: unknown key %s\n", text, key);
            exit(2);
        }
        p += used;
        if (*p == ',')
            p++;
    }
    int32_t dx, dy, dz;
    if (w < 1 || h < 1 || d < 1 || w > INT32_MAX || h > INT32_MAX || d > INT32_MAX ||
        (c != 6 && c != 18 && c != 26) || gcut_grid_direction((int32_t)c, 0, &dx, &dy, &dz)) {
        fprintf(stderr, "gcut-dist-bench: %s: w, h and d must be 1 .. 2^31 - 1, conn 6, 18 or 26\n",
                text);
        exit(2);
    }
    memset(J, 0, sizeof *J);
    pthread_mutex_init(&J->lock, NULL);
    J->w = (int32_t)w;
    J->h = (int32_t)h;
    J->d = (int32_t)d;
    J->c = (int32_t)c;
    J->seed = (uint64_t)seed;
    uint64_t r = mix64((uint64_t)seed * 7919u);
    for (int i = 0; i < 3; i++) {
        const int32_t m = J->w < J->h ? J->w : J->h;
        J->cx[i] = (double)((r = mix64(r)) % (uint64_t)J->w);
        J->cy[i] = (double)((r = mix64(r)) % (uint64_t)J->h);
        J->cz[i] = (double)((r = mix64(r)) % (uint64_t)J->d);
        J->rad[i] = 0.15 * m + (double)((r = mix64(r)) % (uint64_t)(m / 4 + 2));
    }
    for (int i = 0; i < 256; i++)
        J->table[i] = 2 + (int32_t)(60.0 * exp(-(double)(i * i) / (2.0 * 25.0 * 25.0)));
    J->img = malloc((size_t)(w * h * d));
    if (!J->img) {
        fprintf(stderr, "gcut-dist-bench: %s: cannot allocate the image (%lld bytes)\n", text,
                w * h * d);
        exit(1);
    }
    long nt = sysconf(_SC_NPROCESSORS_ONLN);
    J->threads = (int)(nt < 1 ? 1 : nt > 128 ? 128 : nt);
    if (J->threads > d)
        J->threads = (int)d;
    J->phase = 0;
    vol_phase(J);
}

static gcut_grid *vol_of_spec(const char *text)
{
    const double t0 = wall_ms();
    vol_job J;
    vol_setup(text, &J);
    const long long w = J.w, h = J.h, d = J.d, c = J.c;
    gcut_grid *g;
    if (w * h * d > INT32_MAX ||
        gcut_grid_new(&g, (int32_t)w, (int32_t)h, (int32_t)d, (int32_t)c) != GCUT_OK) {
        fprintf(stderr, "gcut-dist-bench: %s: %s\n", text,
                w * h * d > INT32_MAX ? "more than 2^31 - 1 voxels (use --slabs)"
                                      : gcut_last_error());
        exit(2);
    }
    J.g = g;
    J.phase = 1;
    vol_phase(&J);
    if (J.failed) {
        fprintf(stderr, "gcut-dist-bench: %s: cannot fill the volume: %s\n", text,
                gcut_last_error());
        exit(1);
    }
    free(J.img);
    pthread_mutex_destroy(&J.lock);
    printf("%s: %lld x %lld x %lld, %lld-connected, %lld nodes (filled in %.0f ms, %d threads)\n",
           text, w, h, d, c, w * h * d, wall_ms() - t0, J.threads);
    fflush(stdout);
    return g;
}

static uint64_t cut_hash(const uint8_t *cut, size_t n);

#ifndef GCUT_DIST_BENCH_MPI
/* --slabs: the volume in R slabs of arrays of their own, solved by
 * gcut_grid_solve_slabs on G devices (cuda-grid) or CPU regions, for each
 * GxR of --runs. No gcut_grid and no reference solve (the volume may pass
 * 2^31 nodes): each answer is checked by the capacity of its cut (equal
 * to the flow: the cut is minimum and the flow maximum) and against the
 * first run (flow and cut bytes). */
static int run_slabs(const char *text, const char *backend, const int32_t *gpus,
                     const int32_t *regs, int nruns, double time_limit)
{
    const double t0 = wall_ms();
    vol_job J;
    vol_setup(text, &J);
    const int64_t plane = (int64_t)J.w * J.h, n = plane * J.d;
    const double t_img = wall_ms() - t0;
    uint8_t *cut = malloc((size_t)n), *first_cut = NULL;
    if (!cut) {
        fprintf(stderr, "gcut-dist-bench: cannot allocate the cut (%lld bytes)\n", (long long)n);
        return 1;
    }
    printf("%s: %d x %d x %d, %d-connected, %lld nodes, slabs of arrays of their own "
           "(image %.0f ms, %d threads; about %.1f GB of capacities)\n",
           text, J.w, J.h, J.d, J.c, (long long)n, t_img, J.threads,
           (double)n * (J.c + 2) * 4 / 1e9);
    printf("%-10s %10s %10s %10s %8s %20s %20s %18s\n", "run", "fill ms", "total ms", "solve ms",
           "sweeps", "flow", "cut capacity", "cut hash");
    fflush(stdout);
    int64_t first_flow = -1;
    int bad = 0;
    for (int r = 0; r < nruns; r++) {
        const int32_t R = regs[r];
        if (R > J.d) {
            printf("%dx%d: more slabs than planes, skipped\n", (int)gpus[r], (int)R);
            continue;
        }
        double tf = wall_ms();
        J.nsl = R;
        J.sl = calloc((size_t)R, sizeof *J.sl);
        if (!J.sl)
            return 1;
        for (int32_t i = 0; i < R; i++) {
            gcut_grid_slab *s = &J.sl[i];
            s->first = (int64_t)J.d * i / R;
            s->planes = (int32_t)((int64_t)J.d * (i + 1) / R - s->first);
            s->device = -1;
            const size_t m = (size_t)(plane * s->planes) * 4;
            int32_t *arr[28];
            for (int a = 0; a < J.c + 2; a++)
                if (!(arr[a] = malloc(m))) {
                    fprintf(stderr, "gcut-dist-bench: out of host memory for slab %d\n", (int)i);
                    return 1;
                }
            for (int a = 0; a < J.c; a++)
                s->cap[a] = arr[a];
            s->cap_source = arr[J.c];
            s->cap_sink = arr[J.c + 1];
            s->cut = cut + plane * s->first;
        }
        J.phase = 2;
        vol_phase(&J);
        tf = wall_ms() - tf;
        char params[160] = "";
        gcut_solve_options opt;
        gcut_solve_options_init(&opt);
        opt.backend = backend;
        opt.time_limit = time_limit;
        opt.verbosity = g_verbose ? GCUT_LOG_INFO : 0;
        opt.log = g_verbose ? bench_log : NULL;
        opt.params = g_params; /* CPU regions: the settings as given */
        if (backend && !strcmp(backend, "cuda-grid")) {
            int len = snprintf(params, sizeof params, "devices=");
            for (int i = 0; i < gpus[r] && len < (int)sizeof params - 8; i++)
                len += snprintf(params + len, sizeof params - (size_t)len, "%s%d", i ? ":" : "", i);
            if (g_params && len < (int)sizeof params)
                snprintf(params + len, sizeof params - (size_t)len, ",%s", g_params);
            opt.params = params;
        }
        int64_t flow = -1;
        gcut_stats st;
        memset(&st, 0, sizeof st);
        const double ts = wall_ms();
        const gcut_status rc =
            gcut_grid_solve_slabs(J.w, J.h, J.d, J.c, J.sl, R, &opt, &flow, &st);
        const double total = wall_ms() - ts;
        char name[32];
        snprintf(name, sizeof name, "%dx%d", (int)gpus[r], (int)R);
        if (rc != GCUT_OK) {
            printf("%-10s failed: %s\n", name, gcut_last_error());
            bad = 1;
        } else {
            J.cut = cut;
            J.phase = 3;
            vol_phase(&J);
            int64_t capsum = 0;
            for (int i = 0; i < J.threads; i++)
                capsum += J.cap_sum[i];
            const uint64_t hash = cut_hash(cut, (size_t)n);
            printf("%-10s %10.0f %10.0f %10.0f %8lld %20lld %20lld %18llx  (build %.0f ms)\n", name,
                   tf, total, st.solve_ms, (long long)st.rounds, (long long)flow,
                   (long long)capsum, (unsigned long long)hash, st.init_ms);
            if (capsum != flow) {
                printf("  FAILED: the cut's capacity is not the flow\n");
                bad = 1;
            }
            if (!first_cut) {
                first_cut = malloc((size_t)n);
                if (first_cut)
                    memcpy(first_cut, cut, (size_t)n);
                first_flow = flow;
            } else if (flow != first_flow || memcmp(cut, first_cut, (size_t)n) != 0) {
                printf("  FAILED: differs from the first run (flow %lld)\n", (long long)first_flow);
                bad = 1;
            }
        }
        fflush(stdout);
        for (int32_t i = 0; i < R; i++) {
            for (int a = 0; a < J.c; a++)
                free((void *)J.sl[i].cap[a]);
            free((void *)J.sl[i].cap_source);
            free((void *)J.sl[i].cap_sink);
        }
        free(J.sl);
        J.sl = NULL;
    }
    free(first_cut);
    free(cut);
    free(J.img);
    pthread_mutex_destroy(&J.lock);
    return bad;
}
#endif

static gcut_grid *grid_of_spec(const char *text)
{
    if (!strncmp(text, "vol:", 4))
        return vol_of_spec(text);
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

/* FNV-1a of the cut bytes: runs without a reference can be compared by eye. */
static uint64_t cut_hash(const uint8_t *cut, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ cut[i]) * 0x100000001b3ull;
    return h;
}

/* The reference solve (cpu-bk, or cuda-grid in one region) with its time;
 * NULL when cuda-grid cannot take the grid (too large for the device: the
 * reason is printed), or when asked for none. */
static gcut_result *reference(gcut_grid *g, const char *backend, int repeat)
{
    if (!strcmp(backend, "none"))
        return NULL;
    gcut_result *ref;
    gcut_result_new(&ref);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = backend;
    gcut_grid_set_warm_start(g, 0);
    double t[64];
    for (int i = 0; i < repeat; i++) {
        const double t0 = wall_ms();
        if (gcut_grid_solve(g, &opt, ref) != GCUT_OK) {
            if (strcmp(backend, "cpu-bk") == 0)
                die(backend);
            printf("%-20s: no reference: %s\n", backend, gcut_last_error());
            gcut_result_free(ref);
            return NULL;
        }
        t[i] = wall_ms() - t0;
    }
    qsort(t, (size_t)repeat, sizeof *t, cmp_double);
    printf("%-20s: %9.1f ms median of %d (fastest %.1f)  flow %lld  cut hash %016llx  (solve %.1f "
           "ms)\n",
           backend, t[repeat / 2], repeat, t[0], (long long)gcut_result_flow(ref),
           (unsigned long long)cut_hash(gcut_result_cut(ref), (size_t)gcut_grid_num_nodes(g)),
           gcut_result_stats(ref)->solve_ms);
    fflush(stdout);
    return ref;
}

#ifndef GCUT_DIST_BENCH_MPI
/* One partitioned configuration: `regions` regions, on the first `gpus`
 * devices when backend is cuda-grid. The first result is kept (in *first)
 * to compare the later ones with when there is no reference. */
static void run_regions(gcut_grid *g, const gcut_result *ref, gcut_result **first,
                        const char *backend, int32_t gpus, int32_t regions, int32_t threads,
                        double time_limit, int repeat)
{
    gcut_result *res;
    gcut_result_new(&res);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.threads = threads;
    opt.backend = backend;
    opt.time_limit = time_limit;
    opt.verbosity = g_verbose ? GCUT_LOG_INFO : 0;
    opt.log = g_verbose ? bench_log : NULL;
    char params[300] = "", label[64];
    if (backend && !strcmp(backend, "cuda-grid")) {
        int at = snprintf(params, sizeof params, "devices=");
        for (int32_t i = 0; i < gpus && at < (int)sizeof params - 8; i++)
            at += snprintf(params + at, sizeof params - (size_t)at, "%s%d", i ? ":" : "", (int)i);
        if (g_params && at < (int)sizeof params)
            snprintf(params + at, sizeof params - (size_t)at, ",%s", g_params);
        opt.params = params;
        snprintf(label, sizeof label, "gpus %d regions %2d", (int)gpus, (int)regions);
    } else {
        opt.params = g_params; /* CPU regions: the settings as given (discharge=ard|pr) */
        snprintf(label, sizeof label, "regions %2d threads %d", (int)regions, (int)threads);
    }
    if (regions == 0) {
        snprintf(label, sizeof label, "gpus %d spread   ", (int)gpus);
        gcut_grid_set_warm_start(g, 0);
    }
    double t[64];
    for (int i = 0; i < repeat; i++) {
        const double t0 = wall_ms();
        if ((regions == 0 ? gcut_grid_solve(g, &opt, res)
                          : gcut_grid_solve_partitioned(g, regions, NULL, &opt, res)) != GCUT_OK)
            die(label);
        t[i] = wall_ms() - t0;
    }
    qsort(t, (size_t)repeat, sizeof *t, cmp_double);
    const gcut_stats *s = gcut_result_stats(res);
    const size_t n = (size_t)gcut_grid_num_nodes(g);
    const gcut_result *want = ref ? ref : *first;
    const int same = !want || (gcut_result_flow(res) == gcut_result_flow(want) &&
                               memcmp(gcut_result_cut(res), gcut_result_cut(want), n) == 0);
    if (regions == 0) {
        /* One grid on G GPUs: push launches and global relabels, no sweeps. */
        printf("%s: %9.1f ms median of %d (fastest %.1f)  flow %lld  same cut %s%s  cut hash "
               "%016llx  push launches %lld  global relabels %lld  (init %.0f, solve %.0f, "
               "transfers %.0f, cut %.0f ms)\n",
               label, t[repeat / 2], repeat, t[0], (long long)gcut_result_flow(res),
               same ? "yes" : "NO",
               want ? (ref ? "" : " (as the first run)") : " (first run)",
               (unsigned long long)cut_hash(gcut_result_cut(res), n), (long long)s->rounds,
               (long long)s->global_relabels, s->init_ms, s->solve_ms, s->transfer_ms, s->cut_ms);
    } else {
        /* Boundary bytes per sweep: two exchanges, two messages per boundary;
         * a message is a plane of labels and the flows of the crossing arcs. */
        const int32_t c = gcut_grid_connectivity(g);
        const int two_d = c == 4 || c == 8;
        const int64_t plane = two_d ? gcut_grid_width(g) : (int64_t)gcut_grid_width(g) * gcut_grid_height(g);
        const int ncross = c == 4 || c == 6 ? 1 : c == 8 ? 3 : c == 18 ? 5 : 9;
        const double msg = (double)plane * 4.0 * (1 + ncross);
        const int32_t across = gpus > 1 ? (gpus < regions ? gpus : regions) - 1 : 0;
        printf("%s: %9.1f ms median of %d  flow %lld  same cut %s%s  cut hash %016llx  sweeps %lld  "
               "global relabels %lld  pushes %lld  relabels %lld  (init %.0f, sweeps %.0f, of which "
               "exchanges %.0f, cut %.0f ms)  boundary MB per sweep %.1f (%.1f between devices)\n",
               label, t[repeat / 2], repeat, (long long)gcut_result_flow(res), same ? "yes" : "NO",
               want ? (ref ? "" : " (as the first run)") : " (first run)",
               (unsigned long long)cut_hash(gcut_result_cut(res), n), (long long)s->rounds,
               (long long)s->global_relabels, (long long)s->pushes, (long long)s->relabels,
               s->init_ms, s->solve_ms, s->transfer_ms, s->cut_ms,
               4.0 * (regions - 1) * msg / 1e6, 4.0 * across * msg / 1e6);
    }
    fflush(stdout);
    if (!same)
        exit(1);
    if (!*first)
        *first = res;
    else
        gcut_result_free(res);
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
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.params = g_params; /* --params: e.g. discharge=ard */
    for (int i = 0; i < repeat; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = wall_ms();
        if (gcut_dist_grid_solve(dg, &opt, &flow) != GCUT_OK)
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
    const char *spec = NULL, *backend = NULL, *refname = NULL;
    int32_t regions[16] = {1, 2, 4}, threads = 0, rgpus[16], rregs[16];
    int nregions = 3, repeat = 3, nruns = 0, ref_only = 0, slabs = 0;
    double time_limit = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: gcut-dist-bench SPEC [--regions 1,2,4] [--threads N] [--repeat N]\n"
                   "       [--backend cuda-grid --runs GxR|Gs,...] [--reference cpu-bk|cuda-grid|none]\n"
                   "       [--time-limit S] [--reference-only] [-v] [--params K=V,...]\n"
                   "       gcut-dist-bench vol:... --slabs [--backend cuda-grid] --runs GxR,...\n"
                   "SPEC: a grid2d/grid3d spec of gcut-gen, or vol:w=W,h=H,d=D[,conn=C][,seed=S]\n"
                   "--slabs: the volume in R slabs of arrays of their own (gcut_grid_solve_slabs,\n"
                   "  past 2^31 voxels too), on G GPUs with cuda-grid; each answer checked by its\n"
                   "  cut's capacity and against the first run\n"
                   "--runs Gs: no regions; the grid spread over G GPUs by cuda-grid (devices=)\n");
            return 0;
        }
        if (!strcmp(argv[i], "--version")) {
            printf("%s %s\n", DIST_BENCH_PROG, gcut_version());
            return 0;
        }
        if (!strcmp(argv[i], "--regions") && i + 1 < argc)
            nregions = parse_list(argv[++i], regions);
        else if (!strcmp(argv[i], "--backend") && i + 1 < argc)
            backend = argv[++i];
        else if (!strcmp(argv[i], "--reference") && i + 1 < argc)
            refname = argv[++i];
        else if (!strcmp(argv[i], "--reference-only"))
            ref_only = 1;
        else if (!strcmp(argv[i], "--slabs"))
            slabs = 1;
        else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose"))
            g_verbose = 1;
        else if (!strcmp(argv[i], "--params") && i + 1 < argc)
            g_params = argv[++i];
        else if (!strcmp(argv[i], "--time-limit") && i + 1 < argc)
            time_limit = atof(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            const char *q = argv[++i];
            while (*q && nruns < 16) {
                int used = 0;
                char sp = 0;
                /* "Gs": the grid spread over G GPUs by cuda-grid itself
                 * (devices=, no regions): regions 0 below. */
                if (sscanf(q, "%d%c%n", &rgpus[nruns], &sp, &used) == 2 && sp == 's' &&
                    rgpus[nruns] >= 1)
                    rregs[nruns] = 0;
                else if (sscanf(q, "%dx%d%n", &rgpus[nruns], &rregs[nruns], &used) != 2 ||
                         rgpus[nruns] < 1 || rregs[nruns] < 1) {
                    nruns = -1;
                    break;
                }
                nruns++;
                q += used;
                if (*q == ',')
                    q++;
            }
        }
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = (int32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (argv[i][0] != '-' && !spec)
            spec = argv[i];
        else
            spec = NULL, argc = 0;
    }
    if (!spec || nregions < 1 || repeat < 1 || repeat > 64 || nruns < 0) {
        fprintf(stderr, "usage: gcut-dist-bench SPEC [--regions 1,2,4] [--threads N] "
                        "[--repeat N] [--backend cuda-grid --runs GxR,...] "
                        "[--reference cpu-bk|cuda-grid|none] [--time-limit S] (--help)\n");
        return 2;
    }
    const int on_gpu = backend && !strcmp(backend, "cuda-grid");
#ifndef GCUT_DIST_BENCH_MPI
    if (slabs) {
        if (strncmp(spec, "vol:", 4) != 0 || nruns < 1) {
            fprintf(stderr, "gcut-dist-bench: --slabs needs a vol: spec and --runs GxR,...\n");
            return 2;
        }
        return run_slabs(spec, backend, rgpus, rregs, nruns, time_limit);
    }
#endif
    if (!refname)
        refname = on_gpu ? "cuda-grid" : "cpu-bk";
    gcut_grid *g = grid_of_spec(spec);
    gcut_result *ref = g_rank == 0 ? reference(g, refname, repeat) : NULL;
#ifdef GCUT_DIST_BENCH_MPI
    (void)regions;
    (void)threads;
    (void)time_limit;
    (void)ref_only;
    (void)slabs;
    (void)bench_log;
    run_mpi(g, ref, repeat);
#else
    gcut_result *first = NULL;
    if (ref_only)
        nruns = nregions = 0;
    else if (on_gpu && nruns == 0)
        for (int i = 0; i < nregions; i++)
            rgpus[nruns] = 1, rregs[nruns++] = regions[i];
    if (on_gpu)
        for (int i = 0; i < nruns; i++)
            run_regions(g, ref, &first, backend, rgpus[i], rregs[i], threads, time_limit, repeat);
    else
        for (int i = 0; i < nregions; i++)
            run_regions(g, ref, &first, backend, 1, regions[i], threads, time_limit, repeat);
    gcut_result_free(first);
#endif
    gcut_result_free(ref);
    gcut_grid_free(g);
#ifdef GCUT_DIST_BENCH_MPI
    MPI_Finalize();
#endif
    return 0;
}
