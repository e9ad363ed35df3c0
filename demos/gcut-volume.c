/*
 * gcut-volume - cut a 3-D volume given as raw unary cost files, whole or
 * as slabs of planes (docs/distributed.md): in one process with
 * --regions N, or under mpirun as gcut-volume-mpi (built from this file
 * with GCUT_VOLUME_MPI when MPI is found), each rank reading only its
 * slab of the files and writing its slab of the mask.
 *
 * The energy: per voxel the cost of each label, per neighbour pair
 * --smooth when the labels differ. It is quantised here, with one scale
 * for the whole volume (the largest power of two with which a voxel's
 * cost difference plus its pairs stays at most 2^28; 1 for int32 files),
 * so that both forms solve the same integer problem and give the same
 * mask bytes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GCUT_VOLUME_MPI
#include <mpi.h>

#include "gcut/dist.h"
#endif
#include "cli.h"
#include "gcut/gcut.h"

#ifdef GCUT_VOLUME_MPI
#define GCUT_VOLUME_IS_MPI 1
#else
#define GCUT_VOLUME_IS_MPI 0
#endif

static const char usage[] =
    "usage: gcut-volume [options] --size WxHxD --fg FILE --bg FILE\n"
    "Cut a volume given as raw unary costs: FILE holds the cost of the foreground (--fg) or\n"
    "of the background (--bg) label of each voxel, W*H*D values, x fastest, then y, then z,\n"
    "float32 or int32 in the machine's byte order; two neighbouring voxels with different\n"
    "labels pay --smooth.\n"
    "\n"
    "options:\n"
    "      --size WxHxD     the volume's size\n"
    "      --fg FILE        the cost of the foreground label per voxel\n"
    "      --bg FILE        the cost of the background label per voxel\n"
    "      --type TYPE      f32 (default) or i32\n"
    "      --smooth W       the weight of a neighbour pair (default 1)\n"
    "      --conn C         6 (default), 18 or 26\n"
    "      --regions N      solve as N slabs of planes of z, each with arrays of its own\n"
    "                       (gcut_grid_solve_slabs); 0 (default): the whole grid with the\n"
    "                       back end, or past 2^31 - 1 voxels slabs of at most 2^30\n"
    "      --devices LIST   spread the volume over these GPUs, e.g. 0,1,2,3 (cuda-grid's\n"
    "                       engine on a slab of each); with --regions, or past 2^31 - 1\n"
    "                       voxels, the slabs on these GPUs (cuda-grid regions, NCCL\n"
    "                       between the GPUs; --regions then defaults to two per GPU)\n"
    "  -o, --output FILE    write the mask: one byte per voxel, 1 foreground, 0 background\n"
    "\n"
    "It prints the memory it will need before it reads the files and stops with exit\n"
    "status 1 when that passes --max-memory. Under mpirun, gcut-volume-mpi does the same\n"
    "with each rank reading and writing its own slab of planes (--regions is ignored).\n"
    "\n"
    "output (one item per line): `memory estimate: BYTES`, `scale: S`, `flow: VALUE`,\n"
    "`energy: E` (in the files' units), `foreground: VOXELS`, `sweeps: N` (slabs),\n"
    "`total: MS ms`. --json: {\"memory_estimate\", \"scale\", \"flow\", \"energy\",\n"
    "\"foreground\", \"sweeps\", \"total_ms\", \"status\"}. Exit status 0 on success, 1 on\n"
    "bad input, 2 on bad usage.\n";

typedef struct args {
    cli_common c;
    int64_t w, h, d;
    const char *fg, *bg, *out;
    int f32;
    double smooth;
    int32_t conn, regions, ndevices;
    char params[160]; /* "devices=0:1:..." */
} args;

enum { OPT_SIZE = CLI_KEY, OPT_FG, OPT_BG, OPT_TYPE, OPT_SMOOTH, OPT_CONN, OPT_REGIONS, OPT_DEVICES };

static int take_option(int key, const char *v, void *user)
{
    args *a = user;
    switch (key) {
    case OPT_SIZE: {
        long long w, h, d;
        char end;
        if (sscanf(v, "%lldx%lldx%lld%c", &w, &h, &d, &end) != 3 || w < 1 || h < 1 || d < 1 ||
            w > INT32_MAX || h > INT32_MAX || d > INT32_MAX)
            return cli_usage_error("--size needs WxHxD, each from 1 to 2147483647", v);
        a->w = w, a->h = h, a->d = d;
        return 0;
    }
    case OPT_FG:
        a->fg = v;
        return 0;
    case OPT_BG:
        a->bg = v;
        return 0;
    case 'o':
        a->out = v;
        return 0;
    case OPT_TYPE:
        if (strcmp(v, "f32") != 0 && strcmp(v, "i32") != 0)
            return cli_usage_error("--type is f32 or i32", v);
        a->f32 = strcmp(v, "f32") == 0;
        return 0;
    case OPT_SMOOTH:
        if (!cli_parse_double(v, 0, 1e30, &a->smooth))
            return cli_usage_error("--smooth needs a number >= 0", v);
        return 0;
    case OPT_CONN:
        if (!cli_parse_int(v, 6, 26, &a->conn) || (a->conn != 6 && a->conn != 18 && a->conn != 26))
            return cli_usage_error("--conn is 6, 18 or 26", v);
        return 0;
    case OPT_DEVICES: {
        /* "0,1,2,3" into "devices=0:1:2:3" (the library checks the numbers). */
        int at = snprintf(a->params, sizeof a->params, "devices=");
        a->ndevices = 0;
        for (const char *c = v;; c++) {
            if (*c >= '0' && *c <= '9' && at < (int)sizeof a->params - 1) {
                a->params[at++] = *c;
            } else if ((*c == ',' || *c == 0) && c > v && c[-1] >= '0' && c[-1] <= '9' &&
                       at < (int)sizeof a->params - 1) {
                a->ndevices++;
                if (!*c)
                    break;
                a->params[at++] = ':';
            } else {
                return cli_usage_error("--devices needs GPU numbers, e.g. 0,1,2,3", v);
            }
        }
        a->params[at] = 0;
        return 0;
    }
    default: /* OPT_REGIONS */
        if (!cli_parse_int(v, 0, 1 << 20, &a->regions))
            return cli_usage_error("--regions needs a number >= 0", v);
        return 0;
    }
}

/* Read planes first .. first+count-1 (w*h values each) of a raw file as
 * doubles into out. 0, or 1 after a message. */
static int read_planes(const char *path, const args *a, int64_t first, int64_t count, double *out)
{
    const int64_t plane = a->w * a->h, n = plane * count;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open %s\n", cli_prog(), path);
        return 1;
    }
    int rc = 0;
    if (fseeko(f, (off_t)(first * plane * 4), SEEK_SET) != 0)
        rc = 1;
    enum { CHUNK = 1 << 16 };
    unsigned char buf[CHUNK * 4];
    for (int64_t at = 0; at < n && !rc; at += CHUNK) {
        const size_t k = (size_t)(n - at < CHUNK ? n - at : CHUNK);
        if (fread(buf, 4, k, f) != k) {
            rc = 1;
            break;
        }
        for (size_t i = 0; i < k; i++) {
            if (a->f32) {
                float x;
                memcpy(&x, buf + 4 * i, 4);
                out[at + (int64_t)i] = x;
            } else {
                int32_t x;
                memcpy(&x, buf + 4 * i, 4);
                out[at + (int64_t)i] = x;
            }
        }
    }
    if (rc)
        fprintf(stderr,
                "%s: %s: short or unreadable (it must hold %lld x %lld x %lld values "
                "of 4 bytes)\n",
                cli_prog(), path, (long long)a->w, (long long)a->h, (long long)a->d);
    fclose(f);
    return rc;
}

/* The largest cost difference (and whether every value is finite). */
static int max_diff(const double *fg, const double *bg, int64_t n, double *m)
{
    *m = 0;
    for (int64_t v = 0; v < n; v++) {
        if (!isfinite(fg[v]) || !isfinite(bg[v]))
            return 0;
        const double d = fabs(fg[v] - bg[v]);
        if (d > *m)
            *m = d;
    }
    return 1;
}

/* The scale of the volume (see the top of the file). */
static double pick_scale(const args *a, double m)
{
    if (!a->f32)
        return 1;
    const double need = m + a->conn * a->smooth;
    if (need <= 0)
        return 1;
    return ldexp(1.0, (int)floor(log2((double)(1 << 28) / need)));
}

/* Integer capacities of n voxels: the source capacity is what the
 * background costs above the cheaper label, the sink capacity what the
 * foreground does; *offset collects the cheaper labels' costs. 0, or 1
 * after a message. */
static int quantise(const args *a, double scale, const double *fg, const double *bg, int64_t n,
                    int32_t *src, int32_t *snk, double *offset)
{
    for (int64_t v = 0; v < n; v++) {
        const double f = a->f32 ? nearbyint(fg[v] * scale) : fg[v];
        const double b = a->f32 ? nearbyint(bg[v] * scale) : bg[v];
        const double lo = f < b ? f : b;
        if (b - lo > INT32_MAX || f - lo > INT32_MAX) {
            fprintf(stderr, "%s: voxel %lld: the costs differ by more than 2^31 - 1\n", cli_prog(),
                    (long long)v);
            return 1;
        }
        src[v] = (int32_t)(b - lo);
        snk[v] = (int32_t)(f - lo);
        *offset += lo / scale;
    }
    return 0;
}

/* Bytes per voxel while it runs: the two cost files as doubles, the
 * integer arrays (directions and terminals), the engine's state, the
 * mask. */
static double bytes_per_voxel(const args *a)
{
    const double engine =
        GCUT_VOLUME_IS_MPI ? (a->conn + 6) * 4.0 : (a->conn + 4) * 4.0 + 0.125;
    return 16.0 + (a->conn + 2) * 4.0 + engine + 1.0;
}

/* The n-link capacity of every arc, or -1 after a message. */
static int32_t pair_cap(const args *a, double scale)
{
    const double p = nearbyint(a->smooth * scale);
    if (p > INT32_MAX) {
        fprintf(stderr, "%s: --smooth %g is past 2^31 - 1\n", cli_prog(), a->smooth);
        return -1;
    }
    return (int32_t)p;
}

static void report(const args *a, size_t est, double scale, int64_t flow, double offset, int64_t fg,
                   int64_t sweeps, double ms)
{
    (void)a;
    cli_put_int("memory estimate", (long long)est);
    cli_put_num("scale", scale, "%g");
    cli_put_int("flow", (long long)flow);
    cli_put_num("energy", offset + (double)flow / scale, "%.6g");
    cli_put_int("foreground", (long long)fg);
    cli_put_int("sweeps", (long long)sweeps);
    cli_put_ms("total", ms, 1);
}

#ifndef GCUT_VOLUME_MPI
/* The foreground voxels of a cut of n voxels into *nfg, and the mask into
 * --output (one byte per voxel, 1 foreground); 0, or 1 after a message. */
/* The solve options of the command line; with --devices the volume (or
 * its slabs) goes to the GPUs (cuda-grid). */
static void solve_options(const args *a, gcut_solve_options *opt)
{
    gcut_solve_options_init(opt);
    cli_apply_solve(&a->c, opt);
    if (a->ndevices > 0) {
        opt->backend = "cuda-grid";
        opt->params = a->params;
    }
}

static int mask_out(const args *a, const uint8_t *cut, int64_t n, int64_t *nfg)
{
    *nfg = 0;
    for (int64_t v = 0; v < n; v++)
        *nfg += cut[v] == GCUT_SOURCE;
    if (!a->out)
        return 0;
    FILE *f = cli_open_output(a->out);
    if (!f)
        return 1;
    for (int64_t v = 0; v < n; v++)
        putc(cut[v] == GCUT_SOURCE, f);
    return cli_close_output(f, a->out) ? 1 : 0;
}

/* --regions N (or a volume past 2^31 - 1 voxels): N slabs of planes, each
 * with arrays of its own (gcut_grid_solve_slabs), read and quantised slab
 * by slab; the float costs are read twice (the scale needs the largest
 * difference of the whole volume) so that only one slab's doubles are
 * held at a time. */
static int run_slabs(args *a, double t0)
{
    const int64_t plane = a->w * a->h, n64 = plane * a->d;
    int32_t ns = a->regions;
    if (ns < 1) /* slabs of at most 2^30 voxels */
        ns = (int32_t)((n64 + (1ll << 30) - 1) >> 30);
    if (ns > a->d)
        ns = (int32_t)a->d;
    const int64_t most = plane * ((a->d + ns - 1) / ns);
    /* Per voxel: the arrays (terminals, one shared pair array), the region
     * state, the mask; per slab the costs as doubles while it is read. */
    const size_t est = (size_t)((double)n64 * (12.0 + (a->conn + 6) * 4.0 + 1.0) +
                                (double)most * 16.0);
    fprintf(stderr, "%s: memory estimate %.1f MiB (%d slabs)\n", cli_prog(),
            (double)est / 1048576.0, (int)ns);
    if (a->c.max_memory && est > a->c.max_memory) {
        fprintf(stderr, "%s: needs about %.1f MiB, more than --max-memory (%.1f MiB)\n", cli_prog(),
                (double)est / 1048576.0, (double)a->c.max_memory / 1048576.0);
        return 1;
    }
    gcut_grid_slab *sl = calloc((size_t)ns, sizeof *sl);
    double *fg = malloc((size_t)most * 8 + 8), *bg = malloc((size_t)most * 8 + 8);
    uint8_t *cut = malloc((size_t)most + 1);
    int rc = 1;
    double m = 0, offset = 0, scale = 1;
    if (!sl || !fg || !bg || !cut) {
        fprintf(stderr, "%s: out of memory\n", cli_prog());
        goto done;
    }
    for (int32_t i = 0; i < ns; i++) {
        sl[i].first = a->d * i / ns;
        sl[i].planes = (int32_t)(a->d * (i + 1) / ns - sl[i].first);
        sl[i].device = -1;
    }
    if (a->f32) { /* pass 1: the scale */
        for (int32_t i = 0; i < ns; i++) {
            const int64_t n = plane * sl[i].planes;
            double mi;
            if (read_planes(a->fg, a, sl[i].first, sl[i].planes, fg) ||
                read_planes(a->bg, a, sl[i].first, sl[i].planes, bg))
                goto done;
            if (!max_diff(fg, bg, n, &mi)) {
                fprintf(stderr, "%s: a cost is not finite\n", cli_prog());
                goto done;
            }
            if (mi > m)
                m = mi;
        }
        scale = pick_scale(a, m);
    }
    const int32_t pair = pair_cap(a, scale);
    if (pair < 0)
        goto done;
    for (int32_t i = 0; i < ns; i++) { /* pass 2: the slabs' arrays */
        const int64_t n = plane * sl[i].planes;
        int32_t *src = malloc((size_t)n * 4), *snk = malloc((size_t)n * 4),
                *caps = malloc((size_t)n * 4);
        sl[i].cap_source = src;
        sl[i].cap_sink = snk;
        sl[i].cap[0] = caps;
        if (!src || !snk || !caps) {
            fprintf(stderr, "%s: out of memory\n", cli_prog());
            goto done;
        }
        if (read_planes(a->fg, a, sl[i].first, sl[i].planes, fg) ||
            read_planes(a->bg, a, sl[i].first, sl[i].planes, bg))
            goto done;
        if (!a->f32 && !max_diff(fg, bg, n, &m)) {
            fprintf(stderr, "%s: a cost is not finite\n", cli_prog());
            goto done;
        }
        if (quantise(a, scale, fg, bg, n, src, snk, &offset))
            goto done;
        for (int64_t v = 0; v < n; v++)
            caps[v] = pair;
        for (int32_t d = 1; d < a->conn; d++)
            sl[i].cap[d] = caps;
    }
    free(fg), fg = NULL;
    free(bg), bg = NULL;
    free(cut);
    cut = malloc((size_t)n64);
    if (!cut) {
        fprintf(stderr, "%s: out of memory (the mask)\n", cli_prog());
        goto done;
    }
    for (int32_t i = 0; i < ns; i++)
        sl[i].cut = cut + plane * sl[i].first;
    gcut_solve_options opt;
    solve_options(a, &opt);
    int64_t flow = 0;
    gcut_stats stats;
    if (gcut_grid_solve_slabs((int32_t)a->w, (int32_t)a->h, a->d, a->conn, sl, ns, &opt, &flow,
                              &stats) != GCUT_OK) {
        rc = cli_fail();
        goto done;
    }
    int64_t nfg;
    if (mask_out(a, cut, n64, &nfg))
        goto done;
    report(a, est, scale, flow, offset, nfg, stats.rounds, cli_now_ms() - t0);
    rc = 0;
done:
    for (int32_t i = 0; sl && i < ns; i++) {
        free((void *)sl[i].cap_source);
        free((void *)sl[i].cap_sink);
        free((void *)sl[i].cap[0]);
    }
    free(sl);
    free(cut);
    free(bg);
    free(fg);
    return rc;
}

/* The whole volume in this process. */
static int run(args *a)
{
    const double t0 = cli_now_ms();
    const int64_t n64 = a->w * a->h * a->d;
    if (a->regions > 0 || n64 > INT32_MAX)
        return run_slabs(a, t0);
    const int32_t n = (int32_t)n64;
    const size_t est = (size_t)((double)n * bytes_per_voxel(a));
    fprintf(stderr, "%s: memory estimate %.1f MiB\n", cli_prog(), (double)est / 1048576.0);
    if (a->c.max_memory && est > a->c.max_memory) {
        fprintf(stderr, "%s: needs about %.1f MiB, more than --max-memory (%.1f MiB)\n", cli_prog(),
                (double)est / 1048576.0, (double)a->c.max_memory / 1048576.0);
        return 1;
    }
    double *fg = malloc((size_t)n * 8), *bg = malloc((size_t)n * 8);
    int32_t *src = malloc((size_t)n * 4), *snk = malloc((size_t)n * 4);
    gcut_grid *g = NULL;
    gcut_result *res = NULL;
    int rc = 1;
    double m, offset = 0;
    if (!fg || !bg || !src || !snk) {
        fprintf(stderr, "%s: out of memory\n", cli_prog());
        goto done;
    }
    if (read_planes(a->fg, a, 0, a->d, fg) || read_planes(a->bg, a, 0, a->d, bg))
        goto done;
    if (!max_diff(fg, bg, n, &m)) {
        fprintf(stderr, "%s: a cost is not finite\n", cli_prog());
        goto done;
    }
    const double scale = pick_scale(a, m);
    const int32_t pair = pair_cap(a, scale);
    if (pair < 0 || quantise(a, scale, fg, bg, n, src, snk, &offset))
        goto done;
    free(fg), fg = NULL;
    free(bg), bg = NULL;
    if (gcut_grid_new(&g, (int32_t)a->w, (int32_t)a->h, (int32_t)a->d, a->conn) != GCUT_OK ||
        gcut_grid_set_terminal_caps(g, src, snk) != GCUT_OK) {
        rc = cli_fail();
        goto done;
    }
    for (int32_t v = 0; v < n; v++)
        src[v] = pair;
    for (int32_t d = 0; d < a->conn; d++)
        if (gcut_grid_set_caps(g, d, src) != GCUT_OK) {
            rc = cli_fail();
            goto done;
        }
    gcut_solve_options opt;
    solve_options(a, &opt);
    gcut_status st = gcut_result_new(&res);
    if (st == GCUT_OK)
        st = gcut_grid_solve(g, &opt, res);
    if (st != GCUT_OK) {
        rc = cli_fail();
        goto done;
    }
    int64_t nfg;
    if (mask_out(a, gcut_result_cut(res), n, &nfg))
        goto done;
    report(a, est, scale, gcut_result_flow(res), offset, nfg, 0, cli_now_ms() - t0);
    rc = 0;
done:
    gcut_result_free(res);
    gcut_grid_free(g);
    free(snk);
    free(src);
    free(bg);
    free(fg);
    return rc;
}
#else
/* 1 on every rank when ok is 1 on every rank. */
static int all_ok(int ok)
{
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* This rank's slab of planes of z. */
static int run(args *a)
{
    const double t0 = cli_now_ms();
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int64_t first = a->d * rank / size, count = a->d * (rank + 1) / size - first;
    const int64_t plane = a->w * a->h, n = plane * count;
    const int64_t most = plane * ((a->d + size - 1) / size); /* the largest slab */
    const size_t est = (size_t)((double)most * bytes_per_voxel(a));
    if (rank == 0)
        fprintf(stderr, "%s: memory estimate %.1f MiB per rank (%d ranks)\n", cli_prog(),
                (double)est / 1048576.0, size);
    if (a->c.max_memory && est > a->c.max_memory) {
        if (rank == 0)
            fprintf(stderr,
                    "%s: needs about %.1f MiB per rank, more than --max-memory "
                    "(%.1f MiB)\n",
                    cli_prog(), (double)est / 1048576.0, (double)a->c.max_memory / 1048576.0);
        return 1;
    }
    double *fg = malloc((size_t)n * 8 + 8), *bg = malloc((size_t)n * 8 + 8);
    int32_t *src = malloc((size_t)n * 4 + 4), *snk = malloc((size_t)n * 4 + 4);
    gcut_dist_grid *dg = NULL;
    int ok = fg && bg && src && snk;
    if (!ok)
        fprintf(stderr, "%s: rank %d: out of memory\n", cli_prog(), rank);
    ok = ok && !read_planes(a->fg, a, first, count, fg) && !read_planes(a->bg, a, first, count, bg);
    double m = 0, offset = 0, scale = 1;
    if (ok && !max_diff(fg, bg, n, &m)) {
        fprintf(stderr, "%s: a cost is not finite\n", cli_prog());
        ok = 0;
    }
    int32_t pair = -1;
    if (all_ok(ok)) {
        MPI_Allreduce(MPI_IN_PLACE, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        scale = pick_scale(a, m);
        pair = pair_cap(a, scale);
        ok = pair >= 0 && !quantise(a, scale, fg, bg, n, src, snk, &offset);
    } else {
        ok = 0;
    }
    int rc = 1;
    if (!all_ok(ok))
        goto done;
    if (gcut_dist_grid_new(&dg, MPI_COMM_WORLD, a->w, a->h, a->d, a->conn, first, (int32_t)count) !=
        GCUT_OK) {
        rc = cli_fail(); /* every rank fails together */
        goto done;
    }
    ok = gcut_dist_grid_set_terminal_caps(dg, src, snk) == GCUT_OK;
    for (int64_t v = 0; v < n; v++)
        src[v] = pair;
    for (int32_t d = 0; d < a->conn && ok; d++)
        ok = gcut_dist_grid_set_caps(dg, d, src) == GCUT_OK;
    if (!all_ok(ok)) {
        rc = cli_fail();
        goto done;
    }
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    cli_apply_solve(&a->c, &opt);
    int64_t flow = 0;
    if (gcut_dist_grid_solve(dg, &opt, &flow) != GCUT_OK) {
        rc = cli_fail();
        goto done;
    }
    const uint8_t *cut = gcut_dist_grid_cut(dg);
    uint8_t *mask = (uint8_t *)snk; /* reused: n bytes fit */
    int64_t nfg = 0;
    for (int64_t v = 0; v < n; v++) {
        mask[v] = cut[v] == GCUT_SOURCE;
        nfg += mask[v];
    }
    MPI_Allreduce(MPI_IN_PLACE, &nfg, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &offset, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (a->out) {
        /* Each rank writes its slab at its place (collective MPI-IO). */
        MPI_File fh;
        int err = MPI_File_open(MPI_COMM_WORLD, a->out, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                                MPI_INFO_NULL, &fh);
        if (err == MPI_SUCCESS) {
            MPI_File_set_size(fh, 0);
            err = MPI_File_write_at_all(fh, (MPI_Offset)(first * plane), mask, (int)n, MPI_BYTE,
                                        MPI_STATUS_IGNORE);
            MPI_File_close(&fh);
        }
        if (!all_ok(err == MPI_SUCCESS)) {
            if (rank == 0)
                fprintf(stderr, "%s: cannot write %s\n", cli_prog(), a->out);
            goto done;
        }
    }
    gcut_dist_stats stats;
    gcut_dist_grid_stats(dg, &stats);
    report(a, est, scale, flow, offset, nfg, stats.sweeps, cli_now_ms() - t0);
    rc = 0;
done:
    gcut_dist_grid_free(dg);
    free(snk);
    free(src);
    free(bg);
    free(fg);
    return rc;
}
#endif

int main(int argc, char **argv)
{
#ifdef GCUT_VOLUME_MPI
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0 && !freopen("/dev/null", "w", stdout)) /* rank 0 reports */
        return 1;
    cli_init("gcut-volume-mpi", usage);
#else
    cli_init("gcut-volume", usage);
#endif
    args a = {.f32 = 1, .smooth = 1, .conn = 6};
    static const struct option longopts[] = {{"size", required_argument, NULL, OPT_SIZE},
                                             {"fg", required_argument, NULL, OPT_FG},
                                             {"bg", required_argument, NULL, OPT_BG},
                                             {"type", required_argument, NULL, OPT_TYPE},
                                             {"smooth", required_argument, NULL, OPT_SMOOTH},
                                             {"conn", required_argument, NULL, OPT_CONN},
                                             {"regions", required_argument, NULL, OPT_REGIONS},
                                             {"devices", required_argument, NULL, OPT_DEVICES},
                                             {"output", required_argument, NULL, 'o'},
                                             {NULL, 0, NULL, 0}};
    const cli_opts group = {"o:", longopts, take_option, &a};
    int first, rc = cli_parse(argc, argv, &group, 1, CLI_OPT_SOLVER, &a.c, &first);
    if (!rc && first < argc)
        rc = cli_usage_error("no operands expected", argv[first]);
    if (!rc && (!a.w || !a.fg || !a.bg))
        rc = cli_usage_error("--size, --fg and --bg are needed", NULL);
    if (!rc && a.ndevices > 0 && a.c.backend && strcmp(a.c.backend, "cuda-grid") != 0)
        rc = cli_usage_error("--devices keeps the slabs on GPUs: --backend must be cuda-grid",
                             a.c.backend);
    if (!rc && a.ndevices > 0 && GCUT_VOLUME_IS_MPI)
        rc = cli_usage_error("--devices is for one process (gcut-volume)", NULL);
    if (!rc && a.ndevices > 0 && a.c.params)
        rc = cli_usage_error("--devices and --params both set the back end's settings", a.c.params);
    /* Below 2^31 voxels the whole grid spreads over the GPUs (cuda-grid,
     * devices=); past it, slabs: two per GPU, one of each colour. */
    if (!rc && a.ndevices > 0 && a.regions == 0 && a.w * a.h * a.d > INT32_MAX)
        a.regions = 2 * a.ndevices;
    if (!rc && a.out) {
        const char *outs[] = {a.out}, *ins[] = {a.fg, a.bg};
        rc = cli_check_outputs(outs, 1, ins, 2);
    }
    if (!rc)
        rc = cli_finish(run(&a));
#ifdef GCUT_VOLUME_MPI
    MPI_Finalize();
#endif
    return rc < 0 ? 0 : rc;
}
