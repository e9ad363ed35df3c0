/*
 * dist.c - the driver of the region-partitioned grid max-flow: red-black
 * sweeps of region discharges with boundary exchanges, a global relabel
 * across regions, the termination test and the canonical cut. It knows
 * nothing of how regions talk: gcut_i_dist_comm moves the boundary
 * messages and sums values (an in-process copy, partition.c; MPI,
 * lib/mpi/dist_mpi.c).
 *
 *   A. Delong and Y. Boykov, "A scalable graph-cut algorithm for N-D
 *   grids", CVPR 2008 (region push-relabel, sweeps over regions);
 *   A. V. Goldberg and R. E. Tarjan, J. ACM 35(4), 1988 (push-relabel).
 *
 * Why the answer is exact (docs/distributed.md in full): the regions of
 * one colour (even or odd rank among the non-empty regions, in plane
 * order) share no arc, since an arc joins two nodes at most one plane
 * apart; while they discharge, the other colour is idle, so its labels,
 * which are the ghost labels of the running regions, do not change. A
 * colour's discharges in parallel are thus one sequence of valid push and
 * relabel operations of a single push-relabel run, and so is the whole
 * solve. It stops when no node anywhere is active: a maximum preflow. The
 * flow into the sink is then the maximum flow, and the final global
 * relabel (exact distances to the sink across regions) gives the
 * canonical cut: the sink side is the nodes with a finite distance. A
 * discharge may also be any sequence of pushes that keeps a valid
 * preflow, with heuristic labels between exact relabels (cuda-grid's
 * tiled device regions); then the stop is only certain once an exact
 * global relabel finds no active node, which the end of
 * gcut_i_dist_solve checks, sweeping again otherwise.
 *
 * Global relabel: each region computes exact in-region distances with its
 * ghost labels as fixed distances (region.c), the regions exchange
 * boundary labels and repeat (a Bellman-Ford over regions, Jacobi order),
 * until a round changes no label anywhere; the first round starts from
 * ghosts at d_inf, so at least two rounds run when there are several
 * regions. Within a global relabel the ghost labels only go down from one
 * round to the next, so rounds after the first only lower the labels the
 * new ghost labels improve (region.c, gcut_i_region_relabel_update). The
 * fixpoint is the exact distance; valid labels are lower bounds of it, so
 * over the whole solve labels only ever grow.
 */
#include <string.h>

#include "dist/region_internal.h"
#include "solve/solve_internal.h"

enum { JOB_DISCHARGE, JOB_RELABEL, JOB_UPDATE };

typedef struct dist_job {
    gcut_i_region *const *regs;
    int32_t nregs;
    int32_t first_index;
    int kind;
    int colour;
    int64_t *changed; /* JOB_RELABEL: per region */
} dist_job;

static void dist_job_fn(void *ctx, int32_t id, int32_t nthreads)
{
    const dist_job *J = ctx;
    int32_t mine = 0; /* the regions of this job, dealt round robin */
    for (int32_t i = 0; i < J->nregs; i++) {
        if (J->kind == JOB_DISCHARGE && (J->first_index + i) % 2 != J->colour)
            continue;
        if (mine++ % nthreads != id)
            continue;
        if (J->kind == JOB_DISCHARGE)
            gcut_i_region_discharge(J->regs[i]);
        else if (J->kind == JOB_RELABEL)
            J->changed[i] = gcut_i_region_relabel(J->regs[i]);
        else
            J->changed[i] = gcut_i_region_relabel_update(J->regs[i]);
    }
}

static void dist_run_job(gcut_i_pool *pool, dist_job *job)
{
    if (pool && pool->size > 1)
        gcut_i_pool_run(pool, dist_job_fn, job);
    else
        dist_job_fn(job, 0, 1);
}

/* Pack, exchange and unpack every held region's boundary. */
static gcut_status dist_exchange(gcut_i_region *const *regs, int32_t nregs,
                                 const gcut_i_dist_comm *comm, int with_flows, gcut_i_dist_run *run)
{
    if (nregs == 0)
        return comm->exchange(comm->ctx, regs, 0, 0);
    const size_t bytes = gcut_i_region_msg_bytes(regs[0], with_flows);
    for (int32_t i = 0; i < nregs; i++) {
        gcut_i_region_pack(regs[i], with_flows);
        run->bytes_sent += (int64_t)bytes * gcut_i_region_neighbours(regs[i]);
    }
    gcut_status st = comm->exchange(comm->ctx, regs, nregs, bytes);
    if (st != GCUT_OK)
        return st;
    for (int32_t i = 0; i < nregs; i++)
        gcut_i_region_unpack(regs[i], with_flows);
    return GCUT_OK;
}

/* Exact labels everywhere (see the top of the file). */
static gcut_status dist_global_relabel(gcut_i_region *const *regs, int32_t nregs,
                                       int32_t first_index, int multi, const gcut_i_dist_comm *comm,
                                       gcut_i_pool *pool, int64_t *changed, gcut_i_dist_run *run)
{
    gcut_status st;
    for (int32_t i = 0; i < nregs; i++)
        gcut_i_region_reset_ghosts(regs[i]);
    dist_job job = {regs, nregs, first_index, JOB_RELABEL, 0, changed};
    run->global_relabels++;
    for (int64_t round = 1;; round++) {
        /* Round 1 from scratch with no ghost reaching the sink; later
         * rounds only lower the labels the new ghost labels improve. */
        job.kind = round == 1 ? JOB_RELABEL : JOB_UPDATE;
        dist_run_job(pool, &job);
        run->gr_rounds++;
        if (!multi)
            return GCUT_OK;
        if ((st = dist_exchange(regs, nregs, comm, 0, run)) != GCUT_OK)
            return st;
        int64_t sum = 0;
        for (int32_t i = 0; i < nregs; i++)
            sum += changed[i];
        if ((st = comm->allreduce(comm->ctx, &sum, 1)) != GCUT_OK)
            return st;
        if (round >= 2 && sum == 0)
            return GCUT_OK;
    }
}

/* Work between two global relabels, as a share of the global nodes: the
 * discharges keep their labels exact inside each region (region.c), so
 * the global one is mostly for excess cut off from the sink across
 * regions (docs/distributed.md, "Global relabel"). */
#define DIST_GR_ALPHA 1.0

static gcut_status dist_sweeps(gcut_i_region *const *regs, int32_t nregs, int32_t first_index,
                               int multi, const gcut_i_dist_comm *comm, gcut_i_pool *pool,
                               int64_t *changed, int relabel_first, gcut_i_dist_run *run)
{
    gcut_status st;
    const double alpha = run->gr_alpha > 0 ? run->gr_alpha : DIST_GR_ALPHA;
    int64_t work_at_gr = 0, boundary = 0;
    if (relabel_first &&
        (st = dist_global_relabel(regs, nregs, first_index, multi, comm, pool, changed, run)) !=
            GCUT_OK)
        return st;
    for (;;) {
        for (int colour = 0; colour < 2; colour++) {
            dist_job job = {regs, nregs, first_index, JOB_DISCHARGE, colour, NULL};
            dist_run_job(pool, &job);
            if (multi && (st = dist_exchange(regs, nregs, comm, 1, run)) != GCUT_OK)
                return st;
        }
        run->sweeps++;
        /* active nodes, work so far, timeouts, interrupts. The work of a
         * region is its pushes and relabels, and the boundary planes it
         * scans, packs and unpacks in a sweep (about 4 planes): a sweep
         * that moves little still costs that, so excess that bounces
         * between two regions (its labels rising a step per sweep, where
         * it cannot reach the sink) soon pays for a global relabel, which
         * puts it at d_inf. */
        int64_t v[4] = {0, 0, 0, 0};
        for (int32_t i = 0; i < nregs; i++) {
            const gcut_i_region_stats *rs = gcut_i_region_stats_get(regs[i]);
            v[0] += gcut_i_region_active(regs[i]);
            boundary += 4 * (int64_t)gcut_i_region_plane(regs[i]);
            v[1] += rs->relabels + rs->pushes;
        }
        v[1] += boundary;
        st = gcut_i_poll("sweep", v[0], "active nodes");
        v[2] = st == GCUT_ERR_TIMEOUT;
        v[3] = st == GCUT_ERR_INTERRUPTED;
        if ((st = comm->allreduce(comm->ctx, v, 4)) != GCUT_OK)
            return st;
        if (v[2] || v[3]) {
            /* Every rank stops at the same sweep; the one whose poll
             * failed has recorded the message already. */
            const gcut_status why = v[2] ? GCUT_ERR_TIMEOUT : GCUT_ERR_INTERRUPTED;
            return gcut_last_status() == why
                       ? why
                       : GCUT_FAIL(why, "stopped on another rank after %lld sweeps",
                                   (long long)run->sweeps);
        }
        if (v[0] == 0)
            return GCUT_OK;
        if ((double)(v[1] - work_at_gr) > alpha * (double)run->nodes) {
            work_at_gr = v[1];
            st = dist_global_relabel(regs, nregs, first_index, multi, comm, pool, changed, run);
            if (st != GCUT_OK)
                return st;
        }
    }
}

gcut_status gcut_i_dist_solve(gcut_i_region *const *regs, int32_t nregs, int32_t first_index,
                              const gcut_i_dist_comm *comm, gcut_i_pool *pool, uint8_t *const *cuts,
                              gcut_i_dist_run *run)
{
    gcut_status st;
    double t0 = gcut_i_now_ms();
    int64_t *changed = NULL;
    st = nregs > 0 ? gcut_i_alloc_array((void **)&changed, nregs, sizeof *changed, __func__,
                                        "relabel counts")
                   : GCUT_OK;
    /* Non-empty regions everywhere, and whether every rank got its
     * counts (no rank may leave the collectives alone). */
    int64_t agree[2] = {nregs, st != GCUT_OK};
    const gcut_status cst = comm->allreduce(comm->ctx, agree, 2);
    if (st != GCUT_OK || cst != GCUT_OK || agree[1]) {
        gcut_i_free(changed);
        return st != GCUT_OK    ? st
               : cst != GCUT_OK ? cst
                                : GCUT_FAIL(GCUT_ERR_NOMEM, "another rank ran out of memory");
    }
    const int multi = agree[0] > 1;
    /* Sweeps until no node is active, then the exact global relabel of the
     * cut. Regions whose discharge keeps valid labels (the CPU ones, the
     * jacobi device ones) leave no active node below d_inf then; a
     * discharge with heuristic labels between its exact region relabels
     * (cuda-grid's tiled one: labels of other tiles read as they come) may
     * leave excess that the exact labels show can reach the sink, so the
     * sweeps go on from there until an exact relabel finds none. */
    double t_cut = t0;
    for (int relabel_first = 1;; relabel_first = 0) {
        if ((st = dist_sweeps(regs, nregs, first_index, multi, comm, pool, changed, relabel_first,
                              run)) != GCUT_OK)
            goto fail;
        t_cut = gcut_i_now_ms();
        if ((st = dist_global_relabel(regs, nregs, first_index, multi, comm, pool, changed,
                                      run)) != GCUT_OK)
            goto fail;
        int64_t left = 0;
        for (int32_t i = 0; i < nregs; i++)
            left += gcut_i_region_active(regs[i]);
        if ((st = comm->allreduce(comm->ctx, &left, 1)) != GCUT_OK)
            goto fail;
        if (left == 0)
            break;
        run->resumes++;
    }
    run->solve_ms = t_cut - t0;
    t0 = t_cut;
    int64_t sums[4] = {0, 0, 0, 0};
    for (int32_t i = 0; i < nregs; i++) {
        gcut_i_region_cut(regs[i], cuts[i]);
        const gcut_i_region_stats *rs = gcut_i_region_stats_get(regs[i]);
        sums[0] += gcut_i_region_flow(regs[i]);
        sums[1] += rs->pushes;
        sums[2] += rs->relabels;
        sums[3] += rs->local_relabels;
        double prof[4];
        gcut_i_region_profile(regs[i], prof);
        for (int k = 0; k < 4; k++)
            run->prof[k] += prof[k];
    }
    if ((st = comm->allreduce(comm->ctx, sums, 4)) != GCUT_OK)
        goto fail;
    run->flow = sums[0];
    run->pushes = sums[1];
    run->relabels = sums[2];
    run->local_relabels = sums[3];
    run->cut_ms = gcut_i_now_ms() - t0;
fail:
    gcut_i_free(changed);
    return st;
}

/* The slab as `nsub` regions of consecutive planes (one of each colour
 * when nsub is 2). */
static gcut_status dist_slab_in_call(const gcut_i_region_shape *shape,
                                     const gcut_i_region_caps *caps, int32_t nsub, int lo, int hi,
                                     int32_t first_index, const gcut_grid_region_ext *dev,
                                     int32_t device, const gcut_i_dist_comm *comm, uint8_t *cut,
                                     gcut_i_dist_run *run)
{
    gcut_status st = GCUT_OK;
    gcut_i_region *regs[GCUT_I_DIST_MAX_SUB] = {NULL};
    uint8_t *cuts[GCUT_I_DIST_MAX_SUB] = {NULL};
    if (shape->count == 0)
        nsub = 0;
    /* A failed build must not leave the other ranks waiting in a
     * collective: every rank learns whether all built their regions. */
    int32_t built = 0;
    for (int32_t i = 0; i < nsub && st == GCUT_OK; i++) {
        const int32_t from = (int32_t)((int64_t)shape->count * i / nsub);
        const int32_t to = (int32_t)((int64_t)shape->count * (i + 1) / nsub);
        gcut_i_region_shape sub = *shape;
        sub.first = shape->first + from;
        sub.count = to - from;
        const int three_d = shape->connectivity != 4 && shape->connectivity != 8;
        const size_t at =
            (size_t)from * (size_t)(three_d ? shape->width * shape->height : shape->width);
        gcut_i_region_caps c;
        memset(&c, 0, sizeof c);
        for (int32_t d = 0; d < shape->connectivity; d++)
            c.cap[d] = caps->cap[d] ? caps->cap[d] + at : NULL;
        c.src = caps->src ? caps->src + at : NULL;
        c.snk = caps->snk ? caps->snk + at : NULL;
        st = dev ? gcut_i_region_new_device(&regs[i], &sub, &c, dev, device)
                 : gcut_i_region_new(&regs[i], &sub, &c);
        if (st == GCUT_OK) {
            gcut_i_region_set_neighbours(regs[i], i > 0 || lo, i + 1 < nsub || hi);
            cuts[i] = cut + at;
            built++;
        }
    }
    int64_t failed = st != GCUT_OK;
    const gcut_status agreed = comm->allreduce(comm->ctx, &failed, 1);
    if (agreed == GCUT_OK && st == GCUT_OK && !failed)
        st = gcut_i_dist_solve(regs, built, first_index, comm, NULL, cuts, run);
    else if (st == GCUT_OK)
        st = agreed != GCUT_OK
                 ? agreed
                 : GCUT_FAIL(dev ? GCUT_ERR_DEVICE : GCUT_ERR_NOMEM,
                             "another rank could not build its region (%s)",
                             dev ? "out of memory, past 32-bit local indices or not on its "
                                   "device"
                                 : "out of memory or past 32-bit local indices");
    /* A failed device call ends a region's work quietly (region.c): every
     * rank learns whether one happened anywhere. */
    if (dev && agreed == GCUT_OK && !failed) {
        const char *msg = NULL;
        gcut_status dst = GCUT_OK;
        for (int32_t i = 0; i < built && dst == GCUT_OK; i++)
            dst = gcut_i_region_device_error(regs[i], &msg);
        int64_t bad = dst != GCUT_OK;
        const gcut_status ag = comm->allreduce(comm->ctx, &bad, 1);
        if (dst != GCUT_OK)
            st = GCUT_FAIL(dst, "a region on device %d: %s", (int)device, msg);
        else if (st == GCUT_OK && (ag != GCUT_OK || bad))
            st = ag != GCUT_OK ? ag
                               : GCUT_FAIL(GCUT_ERR_DEVICE,
                                           "a device call failed on another rank (its own "
                                           "call says why)");
    }
    for (int32_t i = 0; i < nsub; i++)
        gcut_i_region_free(regs[i]);
    return st;
}

gcut_status gcut_i_dist_solve_slab(const gcut_i_region_shape *shape, const gcut_i_region_caps *caps,
                                   int32_t nsub, int lo, int hi, int32_t first_index,
                                   const gcut_grid_region_ext *dev, int32_t device,
                                   const gcut_i_dist_comm *comm, const gcut_solve_options *opt_in,
                                   uint8_t *cut, gcut_i_dist_run *run)
{
    gcut_solve_options opt;
    gcut_status st = gcut_i_options_copy(opt_in, &opt);
    if (st != GCUT_OK) {
        int64_t failed = 1; /* the other ranks wait for this rank's region */
        comm->allreduce(comm->ctx, &failed, 1);
        return st;
    }
    const double t0 = gcut_i_now_ms();
    gcut_i_call call;
    gcut_i_call_begin(&call, "grid", &opt, t0);
    st = dist_slab_in_call(shape, caps, nsub, lo, hi, first_index, dev, device, comm, cut, run);
    gcut_i_call_end(&call);
    return st;
}
