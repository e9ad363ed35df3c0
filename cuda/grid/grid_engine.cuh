/*
 * grid_engine.cuh - the parts of cuda-grid's host driver shared by the
 * grid solve (grid_launch.cu) and the device multi-label moves
 * (cuda/vision/mrf_launch.cu): the engine state, the array plan, the
 * global relabel and phase I. Host code with templates over the
 * connectivity; everything here is static or a template, so each
 * translation unit that includes it gets its own copy (as it gets its own
 * copy of the kernels of grid_kernels.cuh).
 */
#ifndef GCUT_CU_GRID_ENGINE_CUH
#define GCUT_CU_GRID_ENGINE_CUH

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid_state.cuh"
#include "grid/grid_tuning.h"

/* ------------------------------------------------------------ planning */

static size_t align_up(size_t x) { return (x + 255) & ~(size_t)255; }

/* The state's stream (of the given flags), events and pinned accumulators,
 * made once: s->ready. */
static inline gcut_status state_open(gcut_cu_grid_state *s, unsigned stream_flags)
{
    if (s->ready)
        return GCUT_OK;
    GCUT_CUDA_CHECK(cudaStreamCreateWithFlags(&s->stream, stream_flags));
    for (int i = 0; i < 3; i++) {
        cudaError_t err = cudaEventCreate(&s->ev[i]);
        if (err != cudaSuccess) {
            for (int j = 0; j < i; j++)
                (void)cudaEventDestroy(s->ev[j]);
            (void)cudaStreamDestroy(s->stream);
            return gcut_cu_fail(err, __func__, "cudaEventCreate", __FILE__, __LINE__);
        }
    }
    cudaError_t err = cudaMallocHost((void **)&s->h_acc, gcut_grid_cu::ACC_SLOTS * sizeof(u64));
    if (err != cudaSuccess) {
        for (int i = 0; i < 3; i++)
            (void)cudaEventDestroy(s->ev[i]);
        (void)cudaStreamDestroy(s->stream);
        return gcut_cu_fail(err, __func__, "cudaMallocHost", __FILE__, __LINE__);
    }
    s->ready = 1;
    return GCUT_OK;
}

/* What state_open made, after the stream's work (errors ignored: a free). */
static inline void state_close(gcut_cu_grid_state *s)
{
    if (s->h_acc)
        (void)cudaFreeHost(s->h_acc);
    s->h_acc = NULL;
    if (s->ready) {
        (void)cudaStreamSynchronize(s->stream);
        for (int i = 0; i < 3; i++)
            (void)cudaEventDestroy(s->ev[i]);
        (void)cudaStreamDestroy(s->stream);
    }
    s->ready = 0;
}

/* Allocate (or keep) the arrays for this shape; the state becomes invalid
 * when they change. */
static inline gcut_status plan(gcut_cu_grid_state *s, const gcut_grid_problem *p, int tx, int ty,
                        int tz)
{
    gcut_status st = state_open(s, cudaStreamNonBlocking);
    if (st != GCUT_OK)
        return st;
    if (s->ws && s->W == p->width && s->H == p->height && s->D == p->depth &&
        s->nd == p->num_dirs)
        return GCUT_OK;
    s->valid = 0;
    if (s->ws) {
        GCUT_CUDA_CHECK(cudaFree(s->ws));
        s->ws = NULL;
    }
    const size_t n = (size_t)p->num_nodes;
    Dev g;
    memset(&g, 0, sizeof g);
    g.W = p->width;
    g.H = p->height;
    g.D = p->depth;
    g.n = p->num_nodes;
    g.dead = p->num_nodes + 1;
    g.tiles_x = (p->width + tx - 1) / tx;
    g.tiles_y = (p->height + ty - 1) / ty;
    g.tiles_z = (p->depth + tz - 1) / tz;
    const size_t ntiles = (size_t)g.tiles_x * g.tiles_y * g.tiles_z;
    if (ntiles > INT32_MAX)
        return GCUT_CU_FAIL(GCUT_ERR_OVERFLOW, "cuda-grid: too many tiles (%zu)", ntiles);
    g.ntiles = (int)ntiles;
    size_t off[8], bytes = 0;
    const size_t sizes[8] = {(size_t)p->num_dirs * n * sizeof(unsigned), n * sizeof(u64),
                             n * sizeof(long long), n * sizeof(int), n * sizeof(unsigned),
                             n, 2 * ntiles, gcut_grid_cu::ACC_SLOTS * sizeof(u64)};
    for (int i = 0; i < 8; i++) {
        off[i] = bytes;
        bytes += align_up(sizes[i]);
    }
    size_t free_b = 0, total_b = 0;
    GCUT_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (bytes > free_b)
        return GCUT_CU_FAIL(GCUT_ERR_DEVICE_NOMEM,
                            "cuda-grid: the grid needs %.1f MiB of device memory, %.1f MiB free",
                            bytes / 1048576.0, free_b / 1048576.0);
    GCUT_CUDA_CHECK(cudaMalloc(&s->ws, bytes));
    unsigned char *base = (unsigned char *)s->ws;
    g.res = (unsigned *)(base + off[0]);
    g.rs = (u64 *)(base + off[1]);
    g.ex = (long long *)(base + off[2]);
    g.lab = (int *)(base + off[3]);
    g.mask = (unsigned *)(base + off[4]);
    s->d_cut = base + off[5];
    g.tflag = base + off[6];
    g.acc = (u64 *)(base + off[7]);
    s->dev = g;
    s->ws_bytes = bytes;
    s->W = p->width;
    s->H = p->height;
    s->D = p->depth;
    s->nd = p->num_dirs;
    return GCUT_OK;
}

/* ------------------------------------------------------------ the driver */

struct Run {
    gcut_cu_grid_state *s;
    const gcut_solve_options *opt;
    double deadline;
    int64_t push_launches, bfs_launches, relabels;
    int coop;               /* global relabels as one cooperative launch */
    double transfer_ms;
    int launches;           /* phase I's adaptive push launches to start with (0: 2) */
    int launches_last;      /* and those it ended with */
    int64_t active_sum;     /* active nodes counted by phase I's relabels */
};

/* Between launch batches: the driver's own deadline (the multi-label
 * moves of the vision layer; 1e300 for a solve, whose limit is the call's),
 * then the call's poll (time limit of the whole call, cancel, progress;
 * host->poll). `active`: nodes with excess when known, else -1. */
static gcut_status check_time(const Run &R, int64_t active = -1)
{
    if (gcut_cu_now() > R.deadline)
        return GCUT_CU_FAIL(GCUT_ERR_TIMEOUT, "cuda-grid: time limit of %g s reached",
                            R.opt->time_limit);
    return gcut_cu_poll(R.opt, "solve", active, active >= 0 ? "active nodes" : NULL);
}

/* An exact global relabel, then the number of active nodes in *active. */
template <int ND, bool D3> static gcut_status relabel(Run &R, u64 *active)
{
    using namespace gcut_grid_cu;
    gcut_cu_grid_state *s = R.s;
    const Dev &g = s->dev;
    if (R.coop) {
        /* Everything in one cooperative launch, one round trip. */
        if (s->coop_blocks[ND] < 0) {
            int dev = 0, ok = 0, sms = 0, per_sm = 0;
            GCUT_CUDA_CHECK(cudaGetDevice(&dev));
            GCUT_CUDA_CHECK(cudaDeviceGetAttribute(&ok, cudaDevAttrCooperativeLaunch, dev));
            GCUT_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
            GCUT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &per_sm, bfs_coop_kernel<ND, D3>, kThreads, 0));
            s->coop_blocks[ND] = ok ? per_sm * sms : 0;
        }
        if (s->coop_blocks[ND] > 0) {
            const int blocks = g.ntiles < s->coop_blocks[ND] ? g.ntiles : s->coop_blocks[ND];
            /* After k steps every node within distance k has its final
             * label (each step is at least one Jacobi sweep everywhere), so
             * n steps always suffice; the loop ends long before. */
            int max_steps = g.n + 16;
            Dev arg = g;
            void *args[] = {&arg, &max_steps};
            GCUT_CUDA_CHECK(cudaMemsetAsync(g.acc + ACC_ACTIVE, 0,
                                            (ACC_RING + 4 - ACC_ACTIVE) * sizeof(u64), s->stream));
            GCUT_CUDA_CHECK(cudaLaunchCooperativeKernel((const void *)bfs_coop_kernel<ND, D3>,
                                                        dim3((unsigned)blocks), dim3(kThreads),
                                                        args, 0, s->stream));
            GCUT_CUDA_CHECK_LAUNCH(s->stream);
            GCUT_CUDA_CHECK(cudaMemcpyAsync(s->h_acc + ACC_ACTIVE, g.acc + ACC_ACTIVE,
                                            (ACC_STEPS + 1 - ACC_ACTIVE) * sizeof(u64),
                                            cudaMemcpyDeviceToHost, s->stream));
            GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
            R.bfs_launches += (int64_t)s->h_acc[ACC_STEPS];
            R.relabels++;
            *active = s->h_acc[ACC_ACTIVE];
            return check_time(R, (int64_t)*active);
        }
    }
    int parity = 0;
    bfs_init_kernel<ND, D3><<<g.ntiles, kThreads, 0, s->stream>>>(g, parity);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    for (;;) {
        GCUT_CUDA_CHECK(
            cudaMemsetAsync(g.acc + ACC_CHANGED, 0, GCUT_CU_GRID_BFS_BATCH * sizeof(u64), s->stream));
        for (int k = 0; k < GCUT_CU_GRID_BFS_BATCH; k++) {
            bfs_kernel<ND, D3><<<g.ntiles, kThreads, 0, s->stream>>>(g, parity, k);
            GCUT_CUDA_CHECK_LAUNCH(s->stream);
            parity ^= 1;
        }
        R.bfs_launches += GCUT_CU_GRID_BFS_BATCH;
        GCUT_CUDA_CHECK(cudaMemcpyAsync(s->h_acc + ACC_CHANGED, g.acc + ACC_CHANGED,
                                        GCUT_CU_GRID_BFS_BATCH * sizeof(u64), cudaMemcpyDeviceToHost,
                                        s->stream));
        GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
        int done = 0;
        for (int k = 0; k < GCUT_CU_GRID_BFS_BATCH; k++)
            done |= s->h_acc[ACC_CHANGED + k] == 0;
        if (done)
            break;
        gcut_status st = check_time(R);
        if (st != GCUT_OK)
            return st;
    }
    R.relabels++;
    GCUT_CUDA_CHECK(cudaMemsetAsync(g.acc + ACC_ACTIVE, 0, sizeof(u64), s->stream));
    count_kernel<<<(g.n + 255) / 256, 256, 0, s->stream>>>(g);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    GCUT_CUDA_CHECK(cudaMemcpyAsync(s->h_acc + ACC_ACTIVE, g.acc + ACC_ACTIVE, sizeof(u64),
                                    cudaMemcpyDeviceToHost, s->stream));
    GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
    *active = s->h_acc[ACC_ACTIVE];
    return GCUT_OK;
}

/* The direction offsets into constant memory (on the state's stream). */
static gcut_status set_offsets(gcut_cu_grid_state *s, const int32_t *dir_offset, int nd)
{
    int dx[26] = {0}, dy[26] = {0}, dz[26] = {0};
    for (int d = 0; d < nd; d++) {
        dx[d] = dir_offset[3 * d];
        dy[d] = dir_offset[3 * d + 1];
        dz[d] = dir_offset[3 * d + 2];
    }
    GCUT_CUDA_CHECK(cudaMemcpyToSymbolAsync(gcut_grid_cu::c_dx, dx, sizeof dx, 0,
                                            cudaMemcpyHostToDevice, s->stream));
    GCUT_CUDA_CHECK(cudaMemcpyToSymbolAsync(gcut_grid_cu::c_dy, dy, sizeof dy, 0,
                                            cudaMemcpyHostToDevice, s->stream));
    GCUT_CUDA_CHECK(cudaMemcpyToSymbolAsync(gcut_grid_cu::c_dz, dz, sizeof dz, 0,
                                            cudaMemcpyHostToDevice, s->stream));
    return GCUT_OK;
}

/* Bytes of dynamic shared memory of push_kernel<ND, D3>. */
template <int ND, bool D3> static size_t push_smem()
{
    typedef gcut_grid_cu::Tile<D3> T;
    return T::X * T::Y * T::Z * (sizeof(long long) + ND * sizeof(unsigned)) +
           T::HX * T::HY * T::HZ * sizeof(int);
}

/* Raise push_kernel<ND, D3>'s shared memory limit, once per state. */
template <int ND, bool D3> static gcut_status setup_kernels(gcut_cu_grid_state *s)
{
    if (!(s->smem_set & (1 << ND))) {
        GCUT_CUDA_CHECK(cudaFuncSetAttribute(gcut_grid_cu::push_kernel<ND, D3>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)push_smem<ND, D3>()));
        s->smem_set |= 1 << ND;
    }
    return GCUT_OK;
}

/* Phase I from the state on the device (a cold start, a repaired warm one
 * or a multi-label move's graph) until an exact relabel finds no node with
 * excess that can reach the sink. */
template <int ND, bool D3>
static gcut_status phase_one(Run &R, const gcut_cu_grid_params *prm, int warm)
{
    using namespace gcut_grid_cu;
    gcut_cu_grid_state *s = R.s;
    const Dev &g = s->dev;
    gcut_status st;
    int launches = prm->launches > 0 ? prm->launches : R.launches > 0 ? R.launches : 2;
    /* A warm start pushes first, with the labels of the last solve (a
     * heuristic guess, like any label between relabels): most changes are
     * local and settle in the first launches, and the relabel after them
     * is then usually the only one. */
    int push_first = warm;
    for (;;) {
        u64 active = 1;
        if (push_first) {
            push_first = 0;
            GCUT_CUDA_CHECK(cudaEventRecord(s->ev[0], s->stream));
            for (int k = 0; k < launches; k++) {
                push_kernel<ND, D3><<<g.ntiles, kThreads, push_smem<ND, D3>(), s->stream>>>(g, prm->sweeps);
                GCUT_CUDA_CHECK_LAUNCH(s->stream);
            }
            R.push_launches += launches;
        }
        GCUT_CUDA_CHECK(cudaEventRecord(s->ev[1], s->stream));
        if ((st = relabel<ND, D3>(R, &active)) != GCUT_OK)
            return st;
        GCUT_CUDA_CHECK(cudaEventRecord(s->ev[2], s->stream));
        if (R.push_launches > 0 && prm->launches == 0) {
            /* Adapt the cycle to what a relabel costs (ev0..ev1: pushes). */
            GCUT_CUDA_CHECK(cudaEventSynchronize(s->ev[2]));
            float push_ms = 0, bfs_ms = 0;
            GCUT_CUDA_CHECK(cudaEventElapsedTime(&push_ms, s->ev[0], s->ev[1]));
            GCUT_CUDA_CHECK(cudaEventElapsedTime(&bfs_ms, s->ev[1], s->ev[2]));
            if (bfs_ms > push_ms && launches < 1024)
                launches *= 2;
            else if (bfs_ms * 8 < push_ms && launches > 1)
                launches /= 2;
        }
        R.active_sum += (int64_t)active;
        R.launches_last = launches;
        if (active == 0)
            break;
        if ((st = check_time(R, (int64_t)active)) != GCUT_OK)
            return st;
        GCUT_CUDA_CHECK(cudaEventRecord(s->ev[0], s->stream));
        for (int k = 0; k < launches; k++) {
            push_kernel<ND, D3><<<g.ntiles, kThreads, push_smem<ND, D3>(), s->stream>>>(g, prm->sweeps);
            GCUT_CUDA_CHECK_LAUNCH(s->stream);
        }
        R.push_launches += launches;
    }
    return GCUT_OK;
}

#endif /* GCUT_CU_GRID_ENGINE_CUH */
