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
        !x->group_new || !x->group_free || !x->exchange) {
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

/* The back-end settings of a partitioned solve: "devices=0:1:2:3", the
 * CUDA devices of cuda-grid regions (default: device 0). */
gcut_status gcut_i_dist_devices(const gcut_solve_options *opt, int32_t *devices, int32_t *ndev)
{
    *ndev = 0;
    if (!opt)
        return GCUT_OK;
    const char *cur = opt->params;
    gcut_i_param p;
    int r;
    const char *who = "gcut_grid_solve_partitioned";
    while ((r = gcut_i_param_next(&cur, who, &p)) == 1) {
        if (strcmp(p.key, "devices") != 0)
            return gcut_i_param_unknown(&p, who, "devices");
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
    if (*ndev == 0 && on_device)
        devices[(*ndev)++] = 0;
    return GCUT_OK;
}

typedef struct part_state {
    int32_t nregions;
    int32_t *counts;
    gcut_i_region **regs; /* the non-empty regions */
    uint8_t **cuts;
    int32_t nregs;
    gcut_i_pool pool;
    int pool_ok;
    local_comm lc;
} part_state;

static void part_free(part_state *p)
{
    if (p->pool_ok)
        gcut_i_pool_destroy(&p->pool);
    for (int32_t i = 0; i < p->nregs; i++)
        gcut_i_region_free(p->regs ? p->regs[i] : NULL);
    if (p->lc.group)
        p->lc.x->group_free(p->lc.group);
    gcut_i_free(p->lc.moves);
    gcut_i_free(p->cuts);
    gcut_i_free(p->regs);
    gcut_i_free(p->counts);
}

/* The build of the regions: region j (of the non-empty ones) takes planes
 * first[j] .. first[j] + count[j] - 1 and, on devices, device
 * devices[j * nuse / nonempty]; a thread builds the regions of one device
 * (or every nthreads-th region). A failure is kept per region with its
 * message (the error record is per thread). */
typedef struct build_job {
    gcut_grid *g;
    part_state *p;
    const gcut_grid_region_ext *dev;
    const int32_t *devices;
    int32_t nuse, nonempty, plane;
    uint8_t *cut;
    int64_t *first;
    int32_t *count;
    gcut_status *st;
    char (*msg)[256];
} build_job;

static void build_job_free(build_job *J)
{
    gcut_i_free(J->first);
    gcut_i_free(J->count);
    gcut_i_free(J->st);
    gcut_i_free(J->msg);
}

static gcut_status build_region(const build_job *J, int32_t j)
{
    const gcut_grid *g = J->g;
    const size_t at = (size_t)J->first[j] * (size_t)J->plane;
    /* Reachable nodes are at most n arcs from the sink. */
    const int32_t d_inf = g->n < INT32_MAX ? g->n + 1 : INT32_MAX;
    gcut_i_region_shape shape = {g->w, g->h, g->d, g->conn, J->first[j], J->count[j], d_inf};
    gcut_i_region_caps caps;
    memset(&caps, 0, sizeof caps);
    for (int32_t d = 0; d < g->conn; d++)
        caps.cap[d] = g->cap[d] + at;
    caps.src = g->src + at;
    caps.snk = g->snk + at;
    J->p->cuts[j] = J->cut + at;
    gcut_status st = gcut_i_region_new(&J->p->regs[j], &shape, &caps);
    if (st == GCUT_OK && J->dev)
        st = gcut_i_region_to_device(J->p->regs[j], J->dev,
                                     J->devices[(int64_t)j * J->nuse / J->nonempty]);
    return st;
}

static void build_fn(void *ctx, int32_t id, int32_t nthreads)
{
    build_job *J = ctx;
    for (int32_t j = 0; j < J->nonempty; j++) {
        const int32_t owner =
            J->dev ? (int32_t)((int64_t)j * J->nuse / J->nonempty) % nthreads : j % nthreads;
        if (owner != id)
            continue;
        J->st[j] = build_region(J, j);
        if (J->st[j] != GCUT_OK)
            snprintf(J->msg[j], sizeof J->msg[j], "%s", gcut_last_error());
    }
}

static gcut_status partitioned_in_call(gcut_grid *g, int32_t nregions, const int32_t *counts,
                                       const gcut_solve_options *opt, gcut_result *res, double t0)
{
    gcut_status st;
    part_state p;
    memset(&p, 0, sizeof p);
    const int three_d = g->conn != 4 && g->conn != 8;
    const int64_t planes = three_d ? g->d : g->h;
    const int32_t plane = three_d ? g->w * g->h : g->w;
    if ((st = gcut_i_dist_check_shape(g->w, g->h, g->d, g->conn)) != GCUT_OK)
        return st;
    int32_t devices[GCUT_I_MAX_DEVICES], ndev = 0;
    if ((st = gcut_i_dist_devices(opt, devices, &ndev)) != GCUT_OK)
        return st;
    if ((st = gcut_i_alloc_array((void **)&p.counts, nregions, 4, __func__, "plane counts")) !=
            GCUT_OK ||
        (st = partition_planes(planes, nregions, counts, p.counts)) != GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&p.regs, nregions, sizeof *p.regs, __func__,
                                 "regions")) != GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&p.cuts, nregions, sizeof *p.cuts, __func__,
                                 "regions")) != GCUT_OK)
        goto fail;
    uint8_t *cut = gcut_i_result_cut_buffer(res, g->n);
    if (!cut) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the cut of %d nodes", (int)g->n);
        goto fail;
    }
    /* Where the regions live: the device of cuda-grid, or here. */
    const gcut_grid_region_ext *dev = NULL;
    if (opt->backend && strcmp(opt->backend, "cuda-grid") == 0 &&
        !(dev = gcut_i_dist_region_ext(opt->backend))) {
        st = gcut_last_status();
        gcut_i_free(cut);
        goto fail;
    }
    const double t_init = gcut_i_now_ms();
    /* Non-empty regions, and the devices they use: contiguous runs of
     * regions per device, at most one device per region. */
    int32_t nonempty = 0;
    for (int32_t i = 0; i < nregions; i++)
        nonempty += p.counts[i] > 0;
    const int32_t nuse = dev ? (ndev < nonempty ? ndev : nonempty) : 0;
    if (dev && nuse > 0) {
        p.lc.x = dev;
        if ((st = gcut_i_alloc_array((void **)&p.lc.moves, 2 * (size_t)nonempty, sizeof *p.lc.moves,
                                     __func__, "messages")) != GCUT_OK ||
            (st = dev->group_new(devices, nuse, &p.lc.group)) != GCUT_OK) {
            p.lc.group = NULL;
            gcut_i_free(cut);
            goto fail;
        }
    }
    /* Build the regions (and move them to their devices): on devices, one
     * thread per device builds and uploads that device's regions. */
    build_job J;
    memset(&J, 0, sizeof J);
    J.g = g;
    J.p = &p;
    J.dev = dev;
    J.devices = devices;
    J.nuse = nuse;
    J.nonempty = nonempty;
    J.plane = plane;
    J.cut = cut;
    if ((st = gcut_i_alloc_array((void **)&J.first, nonempty + 1, sizeof *J.first, __func__,
                                 "regions")) != GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&J.count, nonempty + 1, sizeof *J.count, __func__,
                                 "regions")) != GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&J.st, nonempty + 1, sizeof *J.st, __func__,
                                 "regions")) != GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&J.msg, nonempty + 1, sizeof *J.msg, __func__,
                                 "regions")) != GCUT_OK) {
        build_job_free(&J);
        gcut_i_free(cut);
        goto fail;
    }
    {
        int64_t first = 0;
        int32_t j = 0;
        for (int32_t i = 0; i < nregions; i++) {
            if (p.counts[i] == 0)
                continue;
            J.first[j] = first;
            J.count[j++] = p.counts[i];
            first += p.counts[i];
        }
    }
    memset(p.regs, 0, (size_t)nregions * sizeof *p.regs);
    p.nregs = nonempty;
    gcut_i_pool bp;
    const int threaded = dev && nuse > 1 && gcut_i_pool_init(&bp, nuse, 4000) == 0;
    if (threaded) {
        gcut_i_pool_start(&bp);
        gcut_i_pool_run(&bp, build_fn, &J);
        gcut_i_pool_destroy(&bp);
    } else {
        build_fn(&J, 0, 1);
    }
    for (int32_t j = 0; j < nonempty; j++)
        if (J.st[j] != GCUT_OK) {
            /* Built here, the failure is recorded already; on a worker,
             * it is recorded again here with the worker's message. */
            st = threaded ? GCUT_FAIL(J.st[j], "region %d of %d: %s", (int)j, (int)nonempty,
                                      J.msg[j])
                          : J.st[j];
            build_job_free(&J);
            gcut_i_free(cut);
            goto fail;
        }
    build_job_free(&J);
    for (int32_t i = 0; i < p.nregs; i++)
        gcut_i_region_set_neighbours(p.regs[i], i > 0, i + 1 < p.nregs);
    /* Threads: at most the regions of one colour; on devices, one per
     * device (a device's regions of a colour run one after the other). */
    int32_t threads = opt->threads > 0 ? opt->threads : gcut_i_num_cpus();
    if (dev)
        threads = nuse;
    const int32_t per_colour = (p.nregs + 1) / 2;
    if (threads > per_colour)
        threads = per_colour;
    if (threads > 1) {
        if (gcut_i_pool_init(&p.pool, threads, 4000) == 0) {
            p.pool_ok = 1;
            gcut_i_pool_start(&p.pool);
        }
    }
    gcut_i_dist_run run;
    memset(&run, 0, sizeof run);
    run.nodes = g->n;
    const gcut_i_dist_comm comm = {&p.lc, local_exchange, local_allreduce};
    const double init_ms = gcut_i_now_ms() - t_init;
    st = gcut_i_dist_solve(p.regs, p.nregs, 0, &comm, p.pool_ok ? &p.pool : NULL, p.cuts, &run);
    /* A failed device call ended the driver early (region.c): report it. */
    for (int32_t i = 0; i < p.nregs && st == GCUT_OK; i++) {
        const char *msg;
        const gcut_status dst = gcut_i_region_device_error(p.regs[i], &msg);
        if (dst != GCUT_OK)
            st = GCUT_FAIL(dst, "region %d of %d on the device: %s", (int)i, (int)p.nregs, msg);
    }
    if (st != GCUT_OK) {
        gcut_i_free(cut);
        goto fail;
    }
    gcut_stats stats;
    memset(&stats, 0, sizeof stats);
    stats.init_ms = init_ms;
    stats.solve_ms = run.solve_ms;
    stats.cut_ms = run.cut_ms;
    stats.transfer_ms = p.lc.ms; /* boundary exchanges between device regions */
    stats.pushes = run.pushes;
    stats.relabels = run.relabels;
    stats.global_relabels = run.global_relabels;
    stats.rounds = run.sweeps;
    stats.threads = p.pool_ok ? p.pool.size : 1;
    stats.total_ms = gcut_i_now_ms() - t0;
    char why[160];
    if (dev)
        snprintf(why, sizeof why, "%d regions (%d non-empty) on %d device%s, %lld sweeps",
                 (int)nregions, (int)p.nregs, (int)nuse, nuse == 1 ? "" : "s",
                 (long long)run.sweeps);
    else
        snprintf(why, sizeof why, "%d regions (%d non-empty), %lld sweeps", (int)nregions,
                 (int)p.nregs, (long long)run.sweeps);
    gcut_i_log(opt, GCUT_LOG_INFO, "gcut_grid_solve_partitioned: %s, %lld global relabels", why,
               (long long)run.global_relabels);
    if (dev)
        gcut_i_note_device_used();
    gcut_i_result_store(res, run.flow, cut, g->n, NULL, 0, &stats,
                        dev ? "cuda-grid-region-pr" : "cpu-region-pr", why);
fail:
    part_free(&p);
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
    gcut_status st = gcut_i_options_copy(opt_in, &opt);
    if (st != GCUT_OK)
        return st;
    if (opt.want_flows)
        return GCUT_FAIL(GCUT_ERR_UNSUPPORTED, "per-edge flows are not offered for grids");
    gcut_i_call call;
    gcut_i_call_begin(&call, "grid", &opt, t0);
    st = partitioned_in_call(g, regions, planes, &opt, res, t0);
    gcut_i_call_end(&call);
    return st;
}
