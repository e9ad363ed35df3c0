/*
 * partition.c - gcut_grid_solve_partitioned: the region-partitioned
 * max-flow of dist.c on the regions of one grid in one process, the
 * regions of a colour discharged by the threads of the pool and the
 * boundaries exchanged by copies. The same driver runs over MPI
 * (lib/mpi/dist_mpi.c); this entry is its reference and its test bed.
 *
 * With opt->backend "cuda-grid" every region lives on a GPU through the
 * plugin's extension "gcut.grid.region" (gcut/plugin.h; the device code
 * is cuda/grid/grid_region.cu): the same driver, the same exchanges, now
 * moved by the plugin's device group (copies within a GPU, NCCL sends and
 * receives between the GPUs of opt->params "devices=0:1:..."; regions are
 * dealt to the devices in contiguous runs, and one thread per device runs
 * the discharges of a colour). Any other back end name (or none) keeps
 * the CPU regions of region.c, the default.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/region_internal.h"
#include "grid/grid_internal.h"
#include "solve/solve_internal.h"

/* How the in-process exchange reaches device regions: the plugin's
 * extension and the solve's device group (NULL for CPU regions). */
typedef struct local_comm {
    const gcut_grid_region_ext *x;
    void *group;
    gcut_grid_region_move *moves; /* 2 (nregs - 1) */
    double ms;                    /* time in exchanges of device regions */
} local_comm;

/* The in-process exchange: regs are consecutive non-empty regions, so
 * region i's upper neighbour is region i + 1. Device regions move their
 * messages through the plugin's group (copies on one device, NCCL across
 * devices), CPU regions by memcpy. */
static gcut_status local_exchange(void *ctx, gcut_i_region *const *regs, int32_t nregs,
                                  size_t bytes)
{
    local_comm *lc = ctx;
    gcut_status st;
    /* A device region whose call failed has stopped (region.c): its send
     * buffers would hand stale flows over again, so the solve stops here. */
    for (int32_t i = 0; i < nregs; i++) {
        const char *msg;
        if ((st = gcut_i_region_device_error(regs[i], &msg)) != GCUT_OK)
            return GCUT_FAIL(st, "region %d of %d on the device: %s", (int)i, (int)nregs, msg);
    }
    if (lc && lc->group) {
        int32_t m = 0;
        for (int32_t i = 0; i + 1 < nregs; i++) {
            void *lo = gcut_i_region_device_handle(regs[i]);
            void *hi = gcut_i_region_device_handle(regs[i + 1]);
            lc->moves[m++] = (gcut_grid_region_move){hi, 2, lo, 1}; /* up: lo's send 1 */
            lc->moves[m++] = (gcut_grid_region_move){lo, 3, hi, 0}; /* down: hi's send 0 */
        }
        const double t0 = gcut_i_now_ms();
        st = lc->x->exchange(lc->group, lc->moves, m, bytes);
        lc->ms += gcut_i_now_ms() - t0;
        return st;
    }
    for (int32_t i = 0; i + 1 < nregs; i++)
        if ((st = gcut_i_region_copy_msg(regs[i + 1], 0, regs[i], 1, bytes)) != GCUT_OK ||
            (st = gcut_i_region_copy_msg(regs[i], 1, regs[i + 1], 0, bytes)) != GCUT_OK)
            return st;
    return GCUT_OK;
}

/* The device-region extension of back end `name`, or NULL with a failure
 * recorded (as lib/grid/grid_device.c finds its extension); shared with
 * libgcut_mpi. */
const gcut_grid_region_ext *gcut_i_dist_region_ext(const char *name)
{
    int32_t index = -1;
    if (gcut_backend_find(name, &index) != GCUT_OK) {
        gcut_clear_error();
        GCUT_FAIL(GCUT_ERR_NOT_FOUND, "no back end named \"%s\" (device regions: cuda-grid)", name);
        return NULL;
    }
    const char *why = NULL;
    if (!gcut_backend_available(index, &why)) {
        GCUT_FAIL(GCUT_ERR_UNAVAILABLE, "%s is unavailable: %s", name, why ? why : "unknown");
        return NULL;
    }
    const gcut_grid_region_ext *x =
        gcut_i_plugin_extension(GCUT_EXT_GRID_REGION, GCUT_EXT_GRID_REGION_VERSION, name);
    if (!x || x->abi_version != GCUT_PLUGIN_ABI_VERSION || !x->create || !x->destroy ||
        !x->neighbours || !x->discharge || !x->relabel || !x->reset_ghosts || !x->active ||
        !x->pack || !x->unpack || !x->buffer || !x->copy || !x->cut || !x->flow ||
        !x->group_new || !x->group_free || !x->exchange || !x->profile ||
        !x->relabel_update) {
        GCUT_FAIL(GCUT_ERR_NOT_FOUND,
                  "back end %s cannot keep the regions of a partitioned grid on its device "
                  "(device regions: cuda-grid)",
                  name);
        return NULL;
    }
    return x;
}

static gcut_status local_allreduce(void *ctx, int64_t *vals, int32_t count)
{
    (void)ctx;
    (void)vals;
    (void)count;
    return GCUT_OK;
}

/* Planes per region: the caller's, checked, or an even split. */
static gcut_status partition_planes(int64_t planes, int32_t nregions, const int32_t *counts,
                                    int32_t *out)
{
    if (!counts) {
        for (int32_t i = 0; i < nregions; i++)
            out[i] = (int32_t)((planes * (i + 1)) / nregions - (planes * i) / nregions);
        return GCUT_OK;
    }
    int64_t sum = 0;
    for (int32_t i = 0; i < nregions; i++) {
        if (counts[i] < 0)
            return GCUT_FAIL(GCUT_ERR_INVALID, "region %d has %d planes (< 0)", (int)i,
                             (int)counts[i]);
        sum += counts[i];
        out[i] = counts[i];
    }
    if (sum != planes)
        return GCUT_FAIL(GCUT_ERR_INVALID, "the regions have %lld planes in all, the grid has %lld",
                         (long long)sum, (long long)planes);
    return GCUT_OK;
}

/* The settings of a partitioned solve (region_internal.h): the devices of
 * cuda-grid regions, relabel_every=, discharge=. */
gcut_status gcut_i_dist_settings(const gcut_solve_options *opt, int32_t *devices, int32_t *ndev,
                                int32_t *relabel_every, int32_t *ard)
{
    *ndev = 0;
    *relabel_every = 0;
    *ard = -1; /* not given */
    if (!opt) {
        *ard = GCUT_I_DIST_ARD_DEFAULT;
        return GCUT_OK;
    }
    const char *cur = opt->params;
    gcut_i_param p;
    int r;
    const char *who = "gcut_grid_solve_partitioned";
    while ((r = gcut_i_param_next(&cur, who, &p)) == 1) {
        if (strcmp(p.key, "relabel_every") == 0) {
            int64_t v;
            gcut_status st = gcut_i_param_int(&p, who, 1, 1000000, &v);
            if (st != GCUT_OK)
                return st;
            *relabel_every = (int32_t)v;
            continue;
        }
        if (strcmp(p.key, "discharge") == 0) {
            if (strcmp(p.value, "ard") != 0 && strcmp(p.value, "pr") != 0 &&
                strcmp(p.value, "jacobi") != 0)
                return GCUT_FAIL(GCUT_ERR_INVALID,
                                 "discharge=%s: \"ard\" (augmenting paths, CPU regions), \"pr\" "
                                 "(push-relabel) or \"jacobi\" (synchronous push-relabel, "
                                 "device regions)",
                                 p.value);
            *ard = strcmp(p.value, "ard") == 0      ? 1
                   : strcmp(p.value, "jacobi") == 0 ? GCUT_I_DIST_JACOBI
                                                    : 0;
            continue;
        }
        if (strcmp(p.key, "devices") != 0)
            return gcut_i_param_unknown(&p, who, "devices, discharge, relabel_every");
        *ndev = 0;
        const char *v = p.value;
        for (;;) {
            char *end;
            const long d = strtol(v, &end, 10);
            if (end == v || d < 0 || d > 1 << 20 || (*end != ':' && *end != 0))
                return GCUT_FAIL(GCUT_ERR_INVALID,
                                 "devices=%s: a list of CUDA device numbers, e.g. devices=0:1:2:3",
                                 p.value);
            if (*ndev == GCUT_I_MAX_DEVICES)
                return GCUT_FAIL(GCUT_ERR_INVALID, "devices=%s: more than %d devices", p.value,
                                 GCUT_I_MAX_DEVICES);
            for (int32_t j = 0; j < *ndev; j++)
                if (devices[j] == (int32_t)d)
                    return GCUT_FAIL(GCUT_ERR_INVALID, "devices=%s: device %ld is listed twice",
                                     p.value, d);
            devices[(*ndev)++] = (int32_t)d;
            if (*end == 0)
                break;
            v = end + 1;
        }
    }
    if (r < 0)
        return gcut_last_status();
    const int on_device = opt->backend && strcmp(opt->backend, "cuda-grid") == 0;
    if (*ndev > 0 && !on_device)
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "devices= needs backend \"cuda-grid\" (the regions here are CPU regions)");
    if (*relabel_every > 0 && !on_device)
        return GCUT_FAIL(GCUT_ERR_INVALID, "relabel_every= needs backend \"cuda-grid\" (it sets "
                                           "the device regions' discharge)");
    if (*ard == 1 && on_device)
        return GCUT_FAIL(GCUT_ERR_INVALID, "discharge=ard needs CPU regions (the device regions "
                                           "of cuda-grid discharge by push-relabel)");
    if (*ard == GCUT_I_DIST_JACOBI && !on_device)
        return GCUT_FAIL(GCUT_ERR_INVALID, "discharge=jacobi needs backend \"cuda-grid\" (the "
                                           "synchronous push-relabel of device regions)");
    if (*relabel_every > 0 && *ard != GCUT_I_DIST_JACOBI)
        return GCUT_FAIL(GCUT_ERR_INVALID, "relabel_every= sets the discharge=jacobi of device "
                                           "regions (add discharge=jacobi)");
    if (*ard < 0)
        *ard = on_device ? 0 : GCUT_I_DIST_ARD_DEFAULT;
    if (*ndev == 0 && on_device)
        devices[(*ndev)++] = 0;
    return GCUT_OK;
}

/* One non-empty region to build: planes first .. first + count - 1, its
 * capacities (host memory, or memory of its device), its cut (host) and
 * its device (-1: a CPU region). */
typedef struct part_slab {
    int64_t first;
    int32_t count;
    int32_t device;
    gcut_i_region_caps caps;
    uint8_t *cut;
} part_slab;

/* A solve over slabs: the grid's shape, the slabs in plane order, the
 * distinct devices of device regions (in order of first use). */
typedef struct part_core {
    int32_t w, h, conn;
    int64_t depth;
    const part_slab *sl;
    int32_t nsl;
    const gcut_grid_region_ext *dev; /* NULL: CPU regions */
    int32_t devices[GCUT_I_MAX_DEVICES];
    int32_t ndev;
    int check_caps;        /* host capacities of CPU regions not checked yet */
    int32_t relabel_every; /* "relabel_every=" (0: the plugin's default) */
    int32_t ard;           /* "discharge=": CPU regions by ARD */
    /* out */
    gcut_i_dist_run run;
    double init_ms, exchange_ms;
    int32_t threads;
} part_core;

/* The build of the regions: on devices one thread per device builds and
 * uploads that device's regions, CPU regions are dealt to the threads. A
 * failure is kept per region with its message (the error record is per
 * thread). */
typedef struct build_job {
    const part_core *c;
    gcut_i_region **regs;
    gcut_status *st;
    char (*msg)[256];
} build_job;

/* Negative entries of a host array of a CPU region: GCUT_ERR_INVALID
 * naming the first. */
static gcut_status check_nonneg(const int32_t *a, int64_t n, int64_t first_node, const char *what)
{
    if (!a)
        return GCUT_OK;
    for (int64_t i = 0; i < n; i++)
        if (a[i] < 0)
            return GCUT_FAIL(GCUT_ERR_INVALID, "%s of node %lld is %d (capacities must be >= 0)",
                             what, (long long)(first_node + i), (int)a[i]);
    return GCUT_OK;
}

static gcut_status build_region(const build_job *J, int32_t j)
{
    const part_core *c = J->c;
    const part_slab *s = &c->sl[j];
    const int three_d = c->conn != 4 && c->conn != 8;
    const int64_t total = (int64_t)c->w * c->h * c->depth;
    /* Reachable nodes are at most n arcs from the sink. */
    const int32_t d_inf = total < INT32_MAX ? (int32_t)total + 1 : INT32_MAX;
    gcut_i_region_shape shape = {c->w,     c->h,     (int32_t)c->depth, c->conn,
                                 s->first, s->count, d_inf,             c->relabel_every,
                                 c->ard};
    if (c->dev)
        return gcut_i_region_new_device(&J->regs[j], &shape, &s->caps, c->dev, s->device);
    if (c->check_caps) {
        const int64_t plane = three_d ? (int64_t)c->w * c->h : c->w;
        const int64_t n = plane * s->count, at = plane * s->first;
        gcut_status st;
        char what[64];
        for (int32_t d = 0; d < c->conn; d++) {
            snprintf(what, sizeof what, "the capacity in direction %d", (int)d);
            if ((st = check_nonneg(s->caps.cap[d], n, at, what)) != GCUT_OK)
                return st;
        }
        if ((st = check_nonneg(s->caps.src, n, at, "the source capacity")) != GCUT_OK ||
            (st = check_nonneg(s->caps.snk, n, at, "the sink capacity")) != GCUT_OK)
            return st;
    }
    return gcut_i_region_new(&J->regs[j], &shape, &s->caps);
}

static int32_t device_slot(const part_core *c, int32_t device)
{
    for (int32_t i = 0; i < c->ndev; i++)
        if (c->devices[i] == device)
            return i;
    return 0;
}

static void build_fn(void *ctx, int32_t id, int32_t nthreads)
{
    build_job *J = ctx;
    const part_core *c = J->c;
    for (int32_t j = 0; j < c->nsl; j++) {
        const int32_t owner = (c->dev ? device_slot(c, c->sl[j].device) : j) % nthreads;
        if (owner != id)
            continue;
        J->st[j] = build_region(J, j);
        if (J->st[j] != GCUT_OK)
            snprintf(J->msg[j], sizeof J->msg[j], "%s", gcut_last_error());
    }
}

/* Build the regions of c->sl, solve, fill c's outputs and the slabs' cuts. */
static gcut_status part_run(part_core *c, const gcut_solve_options *opt)
{
    gcut_status st;
    gcut_i_region **regs = NULL;
    uint8_t **cuts = NULL;
    gcut_status *bst = NULL;
    char(*msg)[256] = NULL;
    local_comm lc;
    memset(&lc, 0, sizeof lc);
    gcut_i_pool pool;
    int pool_ok = 0;
    const double t_init = gcut_i_now_ms();
    if ((st = gcut_i_alloc_array((void **)&regs, c->nsl, sizeof *regs, __func__, "regions")) !=
            GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&cuts, c->nsl, sizeof *cuts, __func__, "regions")) !=
            GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&bst, c->nsl, sizeof *bst, __func__, "regions")) !=
            GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&msg, c->nsl, sizeof *msg, __func__, "regions")) !=
            GCUT_OK)
        goto done;
    memset(regs, 0, (size_t)c->nsl * sizeof *regs);
    for (int32_t j = 0; j < c->nsl; j++)
        cuts[j] = c->sl[j].cut;
    if (c->dev) {
        lc.x = c->dev;
        if ((st = gcut_i_alloc_array((void **)&lc.moves, 2 * (size_t)c->nsl, sizeof *lc.moves,
                                     __func__, "messages")) != GCUT_OK)
            goto done;
        if ((st = c->dev->group_new(c->devices, c->ndev, &lc.group)) != GCUT_OK) {
            lc.group = NULL;
            goto done;
        }
    }
    {
        build_job J = {c, regs, bst, msg};
        int32_t nb = c->dev ? c->ndev : gcut_i_num_cpus();
        if (nb > c->nsl)
            nb = c->nsl;
        gcut_i_pool bp;
        const int threaded = nb > 1 && gcut_i_pool_init(&bp, nb, 4000) == 0;
        if (threaded) {
            gcut_i_pool_start(&bp);
            gcut_i_pool_run(&bp, build_fn, &J);
            gcut_i_pool_destroy(&bp);
        } else {
            build_fn(&J, 0, 1);
        }
        for (int32_t j = 0; j < c->nsl; j++)
            if (bst[j] != GCUT_OK) {
                /* Built here, the failure is recorded already; on a
                 * worker, it is recorded again here with its message. */
                st = threaded ? GCUT_FAIL(bst[j], "region %d of %d: %s", (int)j, (int)c->nsl,
                                          msg[j])
                              : bst[j];
                goto done;
            }
    }
    for (int32_t i = 0; i < c->nsl; i++)
        gcut_i_region_set_neighbours(regs[i], i > 0, i + 1 < c->nsl);
    /* Threads: at most the regions of one colour; on devices, one per
     * device (a device's regions of a colour run one after the other). */
    int32_t threads = opt->threads > 0 ? opt->threads : gcut_i_num_cpus();
    if (c->dev)
        threads = c->ndev;
    const int32_t per_colour = (c->nsl + 1) / 2;
    if (threads > per_colour)
        threads = per_colour;
    if (threads > 1 && gcut_i_pool_init(&pool, threads, 4000) == 0) {
        pool_ok = 1;
        gcut_i_pool_start(&pool);
    }
    memset(&c->run, 0, sizeof c->run);
    c->run.nodes = (int64_t)c->w * c->h * c->depth;
    const gcut_i_dist_comm comm = {&lc, local_exchange, local_allreduce};
    c->init_ms = gcut_i_now_ms() - t_init;
    st = gcut_i_dist_solve(regs, c->nsl, 0, &comm, pool_ok ? &pool : NULL, cuts, &c->run);
    /* A failed device call ended the driver early (region.c): report it. */
    for (int32_t i = 0; i < c->nsl && st == GCUT_OK; i++) {
        const char *m;
        const gcut_status dst = gcut_i_region_device_error(regs[i], &m);
        if (dst != GCUT_OK)
            st = GCUT_FAIL(dst, "region %d of %d on the device: %s", (int)i, (int)c->nsl, m);
    }
    c->exchange_ms = lc.ms;
    c->threads = pool_ok ? pool.size : 1;
done:
    if (pool_ok)
        gcut_i_pool_destroy(&pool);
    for (int32_t i = 0; regs && i < c->nsl; i++)
        gcut_i_region_free(regs[i]);
    if (lc.group)
        lc.x->group_free(lc.group);
    gcut_i_free(lc.moves);
    gcut_i_free(msg);
    gcut_i_free(bst);
    gcut_i_free(cuts);
    gcut_i_free(regs);
    return st;
}

/* The device of every slab without one: devices[j * ndev / nsl] of the
 * "devices=" list, in contiguous runs; c->devices, the distinct ones. */
static gcut_status part_devices(part_core *c, part_slab *sl, const int32_t *devices,
                                int32_t ndev)
{
    c->ndev = 0;
    for (int32_t j = 0; j < c->nsl; j++) {
        if (sl[j].device < 0)
            sl[j].device = devices[(int64_t)j * ndev / c->nsl];
        int32_t k = 0;
        while (k < c->ndev && c->devices[k] != sl[j].device)
            k++;
        if (k == c->ndev) {
            if (c->ndev == GCUT_I_MAX_DEVICES)
                return GCUT_FAIL(GCUT_ERR_INVALID, "the slabs are on more than %d devices",
                                 GCUT_I_MAX_DEVICES);
            c->devices[c->ndev++] = sl[j].device;
        }
    }
    return GCUT_OK;
}

static void part_stats(const part_core *c, gcut_stats *stats, double t0)
{
    memset(stats, 0, sizeof *stats);
    stats->init_ms = c->init_ms;
    stats->solve_ms = c->run.solve_ms;
    stats->cut_ms = c->run.cut_ms;
    stats->transfer_ms = c->exchange_ms; /* boundary exchanges between device regions */
    stats->pushes = c->run.pushes;
    stats->relabels = c->run.relabels;
    stats->global_relabels = c->run.global_relabels;
    stats->rounds = c->run.sweeps;
    stats->threads = c->threads;
    stats->total_ms = gcut_i_now_ms() - t0;
}

/* What the result says of the engine's run. */
static void part_why(const part_core *c, char *why, size_t size)
{
    if (c->dev)
        snprintf(why, size, "%d regions on %d device%s, %lld sweeps", (int)c->nsl, (int)c->ndev,
                 c->ndev == 1 ? "" : "s", (long long)c->run.sweeps);
    else
        snprintf(why, size, "%d regions, %lld sweeps", (int)c->nsl, (long long)c->run.sweeps);
}

static void part_log(const part_core *c, const gcut_solve_options *opt, const char *who)
{
    char why[160];
    part_why(c, why, sizeof why);
    gcut_i_log(opt, GCUT_LOG_INFO, "%s: %s, %lld global relabels (%lld rounds), %lld resumed",
               who, why, (long long)c->run.global_relabels, (long long)c->run.gr_rounds,
               (long long)c->run.resumes);
    if (c->dev) /* the regions' own clocks, summed over regions (they overlap across devices) */
        gcut_i_log(opt, GCUT_LOG_INFO,
                   "%s: device regions: %.0f ms in discharges (%.0f %s), %.0f ms in "
                   "region-local relabels (%.0f %s), summed over regions",
                   who, c->run.prof[0], c->run.prof[2],
                   c->ard == GCUT_I_DIST_JACOBI ? "iterations" : "push launches", c->run.prof[1],
                   c->run.prof[3], c->ard == GCUT_I_DIST_JACOBI ? "levels" : "relabel steps");
}

/* The solve of gcut_grid_solve_slabs and gcut_grid_solve_partitioned:
 * the slabs checked (consecutive, in plane order, covering the grid), the
 * regions built (CPU regions, or cuda-grid's on the slabs' devices or
 * those of "devices="), solved, logged as `who`. check_caps: the host
 * arrays of CPU regions are the caller's, not yet checked for negative
 * capacities (a gcut_grid's are). On success c holds the run. */
static gcut_status slabs_run(int32_t width, int32_t height, int64_t depth, int32_t connectivity,
                             const gcut_grid_slab *slabs, int32_t nslabs,
                             const gcut_solve_options *opt, int check_caps, const char *who,
                             part_core *c)
{
    gcut_status st;
    if ((st = gcut_i_dist_check_shape(width, height, depth, connectivity)) != GCUT_OK)
        return st;
    const int three_d = connectivity != 4 && connectivity != 8;
    const int64_t planes = three_d ? depth : height;
    int32_t devices[GCUT_I_MAX_DEVICES], ndev = 0;
    memset(c, 0, sizeof *c);
    if ((st = gcut_i_dist_settings(opt, devices, &ndev, &c->relabel_every, &c->ard)) != GCUT_OK)
        return st;
    const int on_device = opt->backend && strcmp(opt->backend, "cuda-grid") == 0;
    int64_t next = 0;
    for (int32_t i = 0; i < nslabs; i++) {
        const gcut_grid_slab *s = &slabs[i];
        if (s->first != next)
            return GCUT_FAIL(GCUT_ERR_INVALID,
                             "slab %d starts at plane %lld, the slabs before it end at %lld "
                             "(slabs are consecutive, in plane order)",
                             (int)i, (long long)s->first, (long long)next);
        if (s->planes < 1)
            return GCUT_FAIL(GCUT_ERR_INVALID, "slab %d has %d planes (need >= 1)", (int)i,
                             (int)s->planes);
        if (!s->cut)
            return GCUT_FAIL(GCUT_ERR_INVALID, "slab %d has no cut buffer", (int)i);
        if (s->device < -1)
            return GCUT_FAIL(GCUT_ERR_INVALID, "slab %d: device %d (-1: host memory)", (int)i,
                             (int)s->device);
        if (s->device >= 0 && !on_device)
            return GCUT_FAIL(GCUT_ERR_INVALID,
                             "slab %d is on device %d: device slabs need backend \"cuda-grid\"",
                             (int)i, (int)s->device);
        next += s->planes;
    }
    if (next != planes)
        return GCUT_FAIL(GCUT_ERR_INVALID, "the slabs have %lld planes in all, the grid has %lld",
                         (long long)next, (long long)planes);
    part_slab *sl = NULL;
    if ((st = gcut_i_alloc_array((void **)&sl, nslabs, sizeof *sl, __func__, "slabs")) != GCUT_OK)
        return st;
    c->w = width;
    c->h = height;
    c->depth = depth;
    c->conn = connectivity;
    c->nsl = nslabs;
    c->sl = sl;
    c->check_caps = check_caps;
    for (int32_t i = 0; i < nslabs; i++) {
        memset(&sl[i], 0, sizeof sl[i]);
        sl[i].first = slabs[i].first;
        sl[i].count = slabs[i].planes;
        sl[i].device = slabs[i].device;
        for (int32_t d = 0; d < connectivity; d++)
            sl[i].caps.cap[d] = slabs[i].cap[d];
        sl[i].caps.src = slabs[i].cap_source;
        sl[i].caps.snk = slabs[i].cap_sink;
        sl[i].cut = slabs[i].cut;
    }
    if (on_device && !(c->dev = gcut_i_dist_region_ext(opt->backend)))
        st = gcut_last_status();
    else if (c->dev)
        st = part_devices(c, sl, devices, ndev < nslabs ? ndev : nslabs);
    if (st == GCUT_OK)
        st = part_run(c, opt);
    if (st == GCUT_OK) {
        part_log(c, opt, who);
        if (c->dev)
            gcut_i_note_device_used();
    }
    gcut_i_free(sl);
    c->sl = NULL;
    return st;
}

/* The options of a grid solve, copied; per-edge flows refused. */
static gcut_status grid_options(const gcut_solve_options *in, gcut_solve_options *out)
{
    gcut_status st = gcut_i_options_copy(in, out);
    if (st == GCUT_OK && out->want_flows)
        st = GCUT_FAIL(GCUT_ERR_UNSUPPORTED, "per-edge flows are not offered for grids");
    return st;
}

/* The grid's non-empty regions as slabs of its own arrays. */
static gcut_status partitioned_in_call(gcut_grid *g, int32_t nregions, const int32_t *counts,
                                       const gcut_solve_options *opt, gcut_result *res, double t0)
{
    gcut_status st;
    int32_t *pc = NULL;
    gcut_grid_slab *sl = NULL;
    const int three_d = g->conn != 4 && g->conn != 8;
    const int64_t planes = three_d ? g->d : g->h;
    const int32_t plane = three_d ? g->w * g->h : g->w;
    if ((st = gcut_i_alloc_array((void **)&pc, nregions, 4, __func__, "plane counts")) !=
            GCUT_OK ||
        (st = partition_planes(planes, nregions, counts, pc)) != GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&sl, nregions, sizeof *sl, __func__, "regions")) !=
            GCUT_OK) {
        gcut_i_free(pc);
        return st;
    }
    uint8_t *cut = gcut_i_result_cut_buffer(res, g->n);
    if (!cut) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the cut of %d nodes", (int)g->n);
        goto done;
    }
    int32_t ns = 0;
    int64_t first = 0;
    for (int32_t i = 0; i < nregions; i++) {
        if (pc[i] == 0)
            continue;
        gcut_grid_slab *s = &sl[ns++];
        const size_t at = (size_t)first * (size_t)plane;
        memset(s, 0, sizeof *s);
        s->first = first;
        s->planes = pc[i];
        s->device = -1;
        for (int32_t d = 0; d < g->conn; d++)
            s->cap[d] = g->cap[d] + at;
        s->cap_source = g->src + at;
        s->cap_sink = g->snk + at;
        s->cut = cut + at;
        first += pc[i];
    }
    part_core c;
    st = slabs_run(g->w, g->h, g->d, g->conn, sl, ns, opt, 0, "gcut_grid_solve_partitioned", &c);
    if (st != GCUT_OK) {
        gcut_i_free(cut);
        goto done;
    }
    gcut_stats stats;
    part_stats(&c, &stats, t0);
    char why[160];
    part_why(&c, why, sizeof why);
    gcut_i_result_store(res, c.run.flow, cut, g->n, NULL, 0, &stats,
                        c.dev ? (c.ard == GCUT_I_DIST_JACOBI ? "cuda-grid-region-jacobi" : "cuda-grid-region-pr")
                        : c.ard ? "cpu-region-ard" : "cpu-region-pr",
                        why);
done:
    gcut_i_free(sl);
    gcut_i_free(pc);
    return st;
}

gcut_status gcut_grid_solve_partitioned(gcut_grid *g, int32_t regions, const int32_t *planes,
                                        const gcut_solve_options *opt_in, gcut_result *res)
{
    GCUT_ENTRY();
    const double t0 = gcut_i_now_ms();
    if (!g || !res)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid and result must not be NULL");
    if (regions < 1)
        return GCUT_FAIL(GCUT_ERR_INVALID, "%d regions (need >= 1)", (int)regions);
    gcut_solve_options opt;
    gcut_status st = grid_options(opt_in, &opt);
    if (st != GCUT_OK)
        return st;
    gcut_i_call call;
    gcut_i_call_begin(&call, "grid", &opt, t0);
    st = partitioned_in_call(g, regions, planes, &opt, res, t0);
    gcut_i_call_end(&call);
    return st;
}

gcut_status gcut_grid_solve_slabs(int32_t width, int32_t height, int64_t depth,
                                  int32_t connectivity, const gcut_grid_slab *slabs,
                                  int32_t nslabs, const gcut_solve_options *opt_in, int64_t *flow,
                                  gcut_stats *stats)
{
    GCUT_ENTRY();
    const double t0 = gcut_i_now_ms();
    if (!slabs || !flow)
        return GCUT_FAIL(GCUT_ERR_INVALID, "slabs and flow must not be NULL");
    if (nslabs < 1)
        return GCUT_FAIL(GCUT_ERR_INVALID, "%d slabs (need >= 1)", (int)nslabs);
    gcut_solve_options opt;
    gcut_status st = grid_options(opt_in, &opt);
    if (st != GCUT_OK)
        return st;
    gcut_i_call call;
    gcut_i_call_begin(&call, "grid", &opt, t0);
    part_core c;
    st = slabs_run(width, height, depth, connectivity, slabs, nslabs, &opt, 1,
                   "gcut_grid_solve_slabs", &c);
    if (st == GCUT_OK) {
        *flow = c.run.flow;
        if (stats)
            part_stats(&c, stats, t0);
    }
    gcut_i_call_end(&call);
    return st;
}
