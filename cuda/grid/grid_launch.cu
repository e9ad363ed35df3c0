/*
 * grid_launch.cu - the host side of cuda-grid: device arrays kept between
 * solves, transfers, the warm-start repair, the phase driver and the cut.
 *
 * A solve:
 *   1. plan: the arrays of the grid (residuals per direction, sink
 *      residuals, excesses, labels, BFS masks, the cut, tile flags) are
 *      allocated once for a grid shape and kept in the state;
 *   2. start:
 *      - cold: upload the capacity arrays straight into the residuals and
 *        the terminal arrays into scratch, then init_kernel cancels
 *        min(source, sink) per node;
 *      - warm (the state holds this grid's previous solve and the core
 *        hands the list of changes since): the changes are merged on the
 *        host per node and per arc pair, uploaded (a few kilobytes for a
 *        stroke), and change_kernel / fix_kernel repair the kept preflow;
 *   3. cycles (a warm start begins with push launches on the kept labels):
 *      an exact global relabel (tiled Bellman-Ford: one cooperative
 *      launch with grid barriers between its steps where the device
 *      allows, else launches in batches until one changes no tile), then a
 *      count of the nodes with excess that can reach the sink. None: the preflow is maximum
 *      (early exit: the excess that is left can only go back to the
 *      source, which changes neither the flow value nor the cut).
 *      Otherwise `launches` push launches, and again. With launches=auto
 *      the number of push launches per cycle follows what the last relabel
 *      cost: doubled when the relabel took longer than the pushes, halved
 *      when it took less than an eighth;
 *   4. cut: the last relabel reached exactly the nodes that can reach the
 *      sink: that is the canonical cut, one byte per node, copied back.
 * Every CUDA call and launch is checked; everything runs on the state's
 * stream. On any failure the kept state is marked invalid (the next solve
 * is cold).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid_internal.h"
#include "grid/grid_kernels.cuh"

using gcut_grid_cu::Dev;
using gcut_grid_cu::PairChange;
using gcut_grid_cu::TermChange;
using gcut_grid_cu::u64;

/* BFS launches between two reads of the changed-tile counters. */
#define GRID_BFS_BATCH 8

struct gcut_cu_grid_state {
    int ready;              /* stream, events and pinned block exist */
    cudaStream_t stream;
    cudaEvent_t ev[3];
    u64 *h_acc;             /* pinned copy of the accumulators */
    /* The device arrays, for the shape below. */
    int W, H, D, nd;
    void *ws;
    size_t ws_bytes;
    Dev dev;
    unsigned char *d_cut;
    unsigned char *h_cut;   /* pinned landing place of the cut (n bytes) */
    size_t h_cut_bytes;
    void *d_changes;        /* change records of a warm start */
    size_t changes_bytes;
    int valid;              /* the arrays hold the last successful solve of this shape */
    /* Host arrays of the grid registered (pinned) for fast uploads: the
     * grid owns them and keeps them for its lifetime, and this state is
     * destroyed with the grid. */
    const void *pinned[GCUT_GRID_MAX_DIRS + 2];
    int npinned;
    const void *seen;       /* the arrays of the last cold upload (first one) */
    int smem_set;           /* dynamic shared memory limits raised */
    int coop_blocks[27];    /* per connectivity: blocks of a cooperative relabel (-1: unknown) */
};

extern "C" gcut_status gcut_cu_grid_state_new(gcut_cu_grid_state **out)
{
    gcut_cu_grid_state *s = (gcut_cu_grid_state *)gcut_cu_host->malloc_fn(sizeof *s);
    if (!s)
        return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-grid: cannot allocate the engine state");
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 27; i++)
        s->coop_blocks[i] = -1;
    *out = s;
    return GCUT_OK;
}

extern "C" void gcut_cu_grid_state_free(gcut_cu_grid_state *s)
{
    if (!s)
        return;
    /* Errors are ignored here: nothing can be done about them on a free. */
    for (int i = 0; i < s->npinned; i++)
        (void)cudaHostUnregister((void *)s->pinned[i]);
    if (s->ws)
        (void)cudaFree(s->ws);
    if (s->d_changes)
        (void)cudaFree(s->d_changes);
    if (s->h_acc)
        (void)cudaFreeHost(s->h_acc);
    if (s->h_cut)
        (void)cudaFreeHost(s->h_cut);
    if (s->ready) {
        for (int i = 0; i < 3; i++)
            (void)cudaEventDestroy(s->ev[i]);
        (void)cudaStreamDestroy(s->stream);
    }
    gcut_cu_host->free_fn(s);
}

extern "C" gcut_status gcut_cu_grid_probe_image(const char **reason)
{
    cudaFuncAttributes attr;
    cudaError_t err = cudaFuncGetAttributes(&attr, gcut_grid_cu::probe_kernel);
    if (err == cudaSuccess) {
        *reason = "ok";
        return GCUT_OK;
    }
    (void)cudaGetLastError();
    *reason = err == cudaErrorNoKernelImageForDevice
                  ? "no kernel image for this GPU: rebuild with its architecture in "
                    "CMAKE_CUDA_ARCHITECTURES"
                  : "the plugin's kernels cannot be loaded on this GPU";
    return GCUT_ERR_UNAVAILABLE;
}

/* ------------------------------------------------------------ planning */

static size_t align_up(size_t x) { return (x + 255) & ~(size_t)255; }

/* Allocate (or keep) the arrays for this shape; the state becomes invalid
 * when they change. */
static gcut_status plan(gcut_cu_grid_state *s, const gcut_grid_problem *p, int tx, int ty,
                        int tz)
{
    if (!s->ready) {
        GCUT_CUDA_CHECK(cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking));
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
    }
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

/* ------------------------------------------------------------ warm start */

typedef struct { int64_t key; int64_t delta; int which; } merge_rec;

static int cmp_rec(const void *a, const void *b)
{
    const merge_rec *x = (const merge_rec *)a, *y = (const merge_rec *)b;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* Merge the change log into per-node terminal records and per-pair arc
 * records (directions leaving the grid dropped), upload them and repair
 * the kept preflow. */
static gcut_status apply_changes(gcut_cu_grid_state *s, const gcut_grid_problem *p,
                                 double *transfer_ms)
{
    const int64_t nc = p->num_changes;
    if (nc == 0)
        return GCUT_OK;
    merge_rec *rec = (merge_rec *)gcut_cu_host->malloc_fn((size_t)nc * sizeof *rec);
    if (!rec)
        return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-grid: cannot merge %lld changes", (long long)nc);
    const int64_t n = p->num_nodes;
    const int W = p->width, H = p->height, D = p->depth;
    int64_t nt = 0, np = 0;
    /* Terminal records first (keys 0 .. 2n), then pairs (keys >= 2n). */
    for (int64_t i = 0; i < nc; i++) {
        const gcut_grid_change c = p->changes[i];
        if (c.what == GCUT_GRID_SOURCE_LINK || c.what == GCUT_GRID_SINK_LINK) {
            rec[nt + np] = (merge_rec){2 * (int64_t)c.node, c.delta,
                                       c.what == GCUT_GRID_SOURCE_LINK ? 0 : 1};
            nt++;
            continue;
        }
        const int d = c.what;
        const int x = c.node % W, y = (c.node / W) % H, z = c.node / (W * H);
        const int nx = x + p->dir_offset[3 * d], ny = y + p->dir_offset[3 * d + 1],
                  nz = z + p->dir_offset[3 * d + 2];
        if (nx < 0 || nx >= W || ny < 0 || ny >= H || nz < 0 || nz >= D)
            continue;
        const int64_t nb = nx + (int64_t)W * (ny + (int64_t)H * nz);
        /* The pair is named by its even direction's tail. */
        const int64_t tail = (d & 1) ? nb : c.node;
        const int de = d & ~1;
        rec[nt + np] = (merge_rec){2 * n + tail * 26 + de, c.delta, (d & 1)};
        np++;
    }
    const int64_t m = nt + np;
    qsort(rec, (size_t)m, sizeof *rec, cmp_rec);
    /* Merge runs of equal keys, in place, into the two record types. */
    size_t need = (size_t)m * (sizeof(TermChange) > sizeof(PairChange) ? sizeof(TermChange)
                                                                        : sizeof(PairChange));
    unsigned char *host = (unsigned char *)gcut_cu_host->malloc_fn(need ? need : 1);
    if (!host) {
        gcut_cu_host->free_fn(rec);
        return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-grid: cannot merge %lld changes", (long long)nc);
    }
    TermChange *tc = (TermChange *)host;
    int ntc = 0;
    int64_t i = 0;
    while (i < m && rec[i].key < 2 * n) {
        TermChange c = {(int)(rec[i].key / 2), 0, 0};
        const int64_t key = rec[i].key;
        for (; i < m && rec[i].key == key; i++) {
            if (rec[i].which == 0)
                c.dsrc += rec[i].delta;
            else
                c.dsnk += rec[i].delta;
        }
        if (c.dsrc || c.dsnk)
            tc[ntc++] = c;
    }
    PairChange *pc = (PairChange *)(host + (size_t)ntc * sizeof(TermChange));
    int npc = 0;
    while (i < m) {
        const int64_t key = rec[i].key;
        PairChange c = {(int)((key - 2 * n) / 26), (int)((key - 2 * n) % 26), 0, 0};
        for (; i < m && rec[i].key == key; i++) {
            if (rec[i].which == 0)
                c.dfwd += rec[i].delta;
            else
                c.drev += rec[i].delta;
        }
        if (c.dfwd || c.drev)
            pc[npc++] = c;
    }
    gcut_cu_host->free_fn(rec);
    const size_t bytes = (size_t)ntc * sizeof(TermChange) + (size_t)npc * sizeof(PairChange);
    gcut_status st = GCUT_OK;
    if (bytes > s->changes_bytes) {
        if (s->d_changes)
            (void)cudaFree(s->d_changes);
        s->d_changes = NULL;
        s->changes_bytes = 0;
        cudaError_t err = cudaMalloc(&s->d_changes, bytes);
        if (err != cudaSuccess)
            st = gcut_cu_fail(err, __func__, "cudaMalloc(changes)", __FILE__, __LINE__);
        else
            s->changes_bytes = bytes;
    }
    if (st == GCUT_OK && ntc + npc > 0) {
        const double t0 = gcut_cu_now();
        cudaError_t err = cudaMemcpyAsync(s->d_changes, host, bytes, cudaMemcpyHostToDevice,
                                          s->stream);
        if (err == cudaSuccess)
            err = cudaStreamSynchronize(s->stream);
        *transfer_ms += gcut_cu_now() - t0;
        if (err != cudaSuccess)
            st = gcut_cu_fail(err, __func__, "cudaMemcpyAsync(changes)", __FILE__, __LINE__);
    }
    gcut_cu_host->free_fn(host);
    if (st != GCUT_OK || ntc + npc == 0)
        return st;
    const TermChange *d_tc = (const TermChange *)s->d_changes;
    const PairChange *d_pc =
        (const PairChange *)((unsigned char *)s->d_changes + (size_t)ntc * sizeof(TermChange));
    const int total = ntc + npc;
    gcut_grid_cu::change_kernel<<<(total + 255) / 256, 256, 0, s->stream>>>(s->dev, d_tc, ntc,
                                                                           d_pc, npc);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    gcut_grid_cu::fix_kernel<<<(s->dev.n + 255) / 256, 256, 0, s->stream>>>(s->dev);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    return GCUT_OK;
}

/* ------------------------------------------------------------ pinning */

/* Register the grid's host arrays with the driver so that cold uploads run
 * at the speed of pinned memory (about three times that of pageable
 * copies). Done once per grid (the arrays live as long as the grid, and
 * this state is destroyed before them); a failure only means slower
 * copies. Small grids are not worth the registration. */
static void pin_arrays(gcut_cu_grid_state *s, const gcut_grid_problem *p)
{
    const size_t n = (size_t)p->num_nodes, bytes = n * sizeof(int32_t);
    /* The core keeps the arrays in one block (directions, source, sink):
     * one registration then covers them all, and arrays sharing a page do
     * not collide. Otherwise each array on its own. */
    const int32_t *base = p->cap[0];
    int contiguous = p->cap_source == base + (size_t)p->num_dirs * n && p->cap_sink == p->cap_source + n;
    for (int d = 1; contiguous && d < p->num_dirs; d++)
        contiguous = p->cap[d] == base + (size_t)d * n;
    const void *want[GCUT_GRID_MAX_DIRS + 2];
    size_t len[GCUT_GRID_MAX_DIRS + 2];
    int nw = 0;
    if (contiguous) {
        want[nw] = base;
        len[nw++] = (size_t)(p->num_dirs + 2) * bytes;
    } else {
        for (int d = 0; d < p->num_dirs; d++) {
            want[nw] = p->cap[d];
            len[nw++] = bytes;
        }
        want[nw] = p->cap_source;
        len[nw++] = bytes;
        want[nw] = p->cap_sink;
        len[nw++] = bytes;
    }
    int same = s->npinned == nw;
    for (int i = 0; same && i < nw; i++)
        same = s->pinned[i] == want[i];
    if (same || bytes < ((size_t)1 << 20))
        return;
    /* Registration costs about as much as a few pageable uploads: worth it
     * from the second cold solve of the same arrays on (a grid whose warm
     * start is off drops this state after every solve and never pays). */
    if (s->seen != want[0]) {
        s->seen = want[0];
        return;
    }
    for (int i = 0; i < s->npinned; i++)
        (void)cudaHostUnregister((void *)s->pinned[i]);
    s->npinned = 0;
    for (int i = 0; i < nw; i++) {
        if (cudaHostRegister((void *)want[i], len[i], cudaHostRegisterReadOnly) != cudaSuccess &&
            cudaHostRegister((void *)want[i], len[i], cudaHostRegisterDefault) != cudaSuccess) {
            (void)cudaGetLastError();
            break;
        }
        s->pinned[s->npinned++] = want[i];
    }
}

/* ------------------------------------------------------------ the driver */

struct Run {
    gcut_cu_grid_state *s;
    const gcut_solve_options *opt;
    double deadline;
    int64_t push_launches, bfs_launches, relabels;
    int coop;               /* global relabels as one cooperative launch */
    double transfer_ms;
};

static gcut_status check_time(const Run &R)
{
    if (gcut_cu_now() > R.deadline)
        return GCUT_CU_FAIL(GCUT_ERR_TIMEOUT, "cuda-grid: time limit of %g s reached",
                            R.opt->time_limit);
    return GCUT_OK;
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
            return check_time(R);
        }
    }
    int parity = 0;
    bfs_init_kernel<ND, D3><<<g.ntiles, kThreads, 0, s->stream>>>(g, parity);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    for (;;) {
        GCUT_CUDA_CHECK(
            cudaMemsetAsync(g.acc + ACC_CHANGED, 0, GRID_BFS_BATCH * sizeof(u64), s->stream));
        for (int k = 0; k < GRID_BFS_BATCH; k++) {
            bfs_kernel<ND, D3><<<g.ntiles, kThreads, 0, s->stream>>>(g, parity, k);
            GCUT_CUDA_CHECK_LAUNCH(s->stream);
            parity ^= 1;
        }
        R.bfs_launches += GRID_BFS_BATCH;
        GCUT_CUDA_CHECK(cudaMemcpyAsync(s->h_acc + ACC_CHANGED, g.acc + ACC_CHANGED,
                                        GRID_BFS_BATCH * sizeof(u64), cudaMemcpyDeviceToHost,
                                        s->stream));
        GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
        int done = 0;
        for (int k = 0; k < GRID_BFS_BATCH; k++)
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
    int launches = prm->launches > 0 ? prm->launches : 2;
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
        if (active == 0)
            break;
        if ((st = check_time(R)) != GCUT_OK)
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

template <int ND, bool D3>
static gcut_status run(gcut_cu_grid_state *s, const gcut_grid_problem *p,
                       const gcut_solve_options *opt, const gcut_cu_grid_params *prm,
                       gcut_solution *sol)
{
    using namespace gcut_grid_cu;
    typedef Tile<D3> T;
    const double t_start = gcut_cu_now();
    Run R;
    memset(&R, 0, sizeof R);
    R.s = s;
    R.opt = opt;
    R.deadline = opt->time_limit > 0 ? t_start + opt->time_limit * 1e3 : 1e300;
    R.coop = prm->coop;

    /* Past a sixteenth of the nodes' entries changed, merging and
     * repairing costs about as much as the upload of a cold start (a
     * multi-label move rewrites most t-links): start cold then. */
    const int warm = p->warm && s->valid && prm->warm && s->W == p->width &&
                     s->H == p->height && s->D == p->depth && s->nd == p->num_dirs &&
                     p->num_changes <= p->num_nodes / 16 + 64;
    gcut_status st = plan(s, p, T::X, T::Y, T::Z);
    if (st != GCUT_OK)
        return st;
    s->valid = 0; /* until this solve succeeds */
    const Dev &g = s->dev;
    if ((st = setup_kernels<ND, D3>(s)) != GCUT_OK)
        return st;
    if ((st = set_offsets(s, p->dir_offset, ND)) != GCUT_OK)
        return st;

    const size_t n = (size_t)p->num_nodes;
    if (warm) {
        if ((st = apply_changes(s, p, &R.transfer_ms)) != GCUT_OK)
            return st;
    } else {
        const double t_up = gcut_cu_now();
        if (prm->pin)
            pin_arrays(s, p);
        GCUT_CUDA_CHECK(cudaMemsetAsync(g.acc, 0, ACC_SLOTS * sizeof(u64), s->stream));
        for (int d = 0; d < ND; d++)
            GCUT_CUDA_CHECK(cudaMemcpyAsync(g.res + d * n, p->cap[d], n * sizeof(int32_t),
                                            cudaMemcpyHostToDevice, s->stream));
        /* The terminal capacities go to scratch space (mask, lab) that
         * the first relabel overwrites. */
        GCUT_CUDA_CHECK(cudaMemcpyAsync(g.mask, p->cap_source, n * sizeof(int32_t),
                                        cudaMemcpyHostToDevice, s->stream));
        GCUT_CUDA_CHECK(cudaMemcpyAsync(g.lab, p->cap_sink, n * sizeof(int32_t),
                                        cudaMemcpyHostToDevice, s->stream));
        GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
        R.transfer_ms += gcut_cu_now() - t_up;
        init_kernel<ND, D3><<<g.ntiles, kThreads, 0, s->stream>>>(g, (const int *)g.mask, g.lab);
        GCUT_CUDA_CHECK_LAUNCH(s->stream);
    }
    GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
    const double t_solve = gcut_cu_now();
    sol->stats->init_ms = t_solve - t_start;

    if ((st = phase_one<ND, D3>(R, prm, warm)) != GCUT_OK)
        return st;
    const double t_cut = gcut_cu_now();
    sol->stats->solve_ms = t_cut - t_solve;

    cut_kernel<<<(g.n + 255) / 256, 256, 0, s->stream>>>(g, s->d_cut);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    const double t_dl = gcut_cu_now();
    /* The cut lands in pinned memory (a DMA at full speed), then one host
     * copy into the caller's buffer: faster than a pageable download. */
    if (s->h_cut_bytes < n) {
        if (s->h_cut)
            GCUT_CUDA_CHECK(cudaFreeHost(s->h_cut));
        s->h_cut = NULL;
        s->h_cut_bytes = 0;
        GCUT_CUDA_CHECK(cudaMallocHost((void **)&s->h_cut, n));
        s->h_cut_bytes = n;
    }
    GCUT_CUDA_CHECK(cudaMemcpyAsync(s->h_cut, s->d_cut, n, cudaMemcpyDeviceToHost, s->stream));
    GCUT_CUDA_CHECK(cudaMemcpyAsync(s->h_acc, g.acc, 2 * sizeof(u64), cudaMemcpyDeviceToHost,
                                    s->stream));
    GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
    memcpy(sol->cut, s->h_cut, n);
    const double t_end = gcut_cu_now();
    R.transfer_ms += t_end - t_dl;
    sol->stats->cut_ms = t_end - t_cut;
    sol->flow = (int64_t)(s->h_acc[ACC_FLOW] - s->h_acc[ACC_OFFSET]);
    sol->stats->transfer_ms = R.transfer_ms;
    sol->stats->rounds = R.push_launches;
    sol->stats->global_relabels = R.relabels;
    sol->stats->threads = g.ntiles * kThreads;
    sol->stats->warm_start = warm;
    s->valid = 1;
    gcut_cu_host->log(opt, GCUT_LOG_INFO,
                      "cuda-grid: %dx%dx%d conn %d %s: flow %lld, %lld push launches, %lld "
                      "relabels (%lld BFS launches), init %.2f ms, solve %.2f ms, cut %.2f ms",
                      p->width, p->height, p->depth, p->connectivity, warm ? "warm" : "cold",
                      (long long)sol->flow, (long long)R.push_launches, (long long)R.relabels,
                      (long long)R.bfs_launches, sol->stats->init_ms, sol->stats->solve_ms,
                      sol->stats->cut_ms);
    return GCUT_OK;
}

extern "C" gcut_status gcut_cu_grid_solve(gcut_cu_grid_state *s, const gcut_grid_problem *p,
                                          const gcut_solve_options *opt,
                                          const gcut_cu_grid_params *prm, gcut_solution *sol)
{
    if (p->num_nodes <= 0 || p->num_nodes >= INT32_MAX)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: bad node count %d", p->num_nodes);
    gcut_status st;
    switch (p->connectivity) {
    case 4:
        st = run<4, false>(s, p, opt, prm, sol);
        break;
    case 8:
        st = run<8, false>(s, p, opt, prm, sol);
        break;
    case 6:
        st = run<6, true>(s, p, opt, prm, sol);
        break;
    case 18:
        st = run<18, true>(s, p, opt, prm, sol);
        break;
    case 26:
        st = run<26, true>(s, p, opt, prm, sol);
        break;
    default:
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: connectivity %d", p->connectivity);
    }
    if (st != GCUT_OK)
        s->valid = 0;
    return st;
}

/* ------------------------------------------------- multi-label moves */

/* Alpha-expansion and alpha-beta swap on the device (gcut_plugin_mrf,
 * backend.h): the tables are uploaded once; each move is move_kernel,
 * phase I and accept_kernel, and the host only reads the sums at the end
 * of each cycle (and the energy after each move when a progress callback
 * asks for it). The moves and their order are the core's (vision/mrf.c),
 * and each move is decided by the canonical cut, so the labelling is
 * exactly the CPU loop's. Swap keeps the number of nodes of each label on
 * the device, so that the moves of two unused labels are not counted (they
 * run, on a graph with no active node, and change nothing: asking the host
 * to skip them would cost a round trip per move). */
template <int ND, bool D3>
static gcut_status mrf_run(gcut_cu_grid_state *s, const gcut_mrf_problem *p, gcut_mrf_report *r,
                           int swap, void **dbuf)
{
    using namespace gcut_grid_cu;
    typedef Tile<D3> T;
    const double t_start = gcut_cu_now();
    gcut_grid_problem gp;
    memset(&gp, 0, sizeof gp);
    gp.width = p->width;
    gp.height = p->height;
    gp.depth = p->depth;
    gp.connectivity = p->connectivity;
    gp.num_dirs = p->connectivity;
    gp.num_nodes = p->num_nodes;
    gp.dir_offset = p->dir_offset;
    gcut_status st = plan(s, &gp, T::X, T::Y, T::Z);
    if (st != GCUT_OK)
        return st;
    if ((st = setup_kernels<ND, D3>(s)) != GCUT_OK || (st = set_offsets(s, p->dir_offset, ND)) != GCUT_OK)
        return st;
    const Dev g = s->dev; /* the shared arrays; each move's own ones below */
    const size_t n = (size_t)p->num_nodes, L = (size_t)p->num_labels;
    int nw = 0;
    for (int k = 0; k < ND / 2; k++)
        nw += p->weight && p->weight[k] ? 1 : 0;
    const size_t b_unary = align_up(n * L * sizeof(int)), b_v = align_up(L * L * sizeof(int));
    const size_t b_w = align_up(n * sizeof(int)), b_lab = align_up(n * sizeof(int));
    const size_t b_count = align_up(L * sizeof(int));
    const size_t base_bytes = b_unary + b_v + (size_t)nw * b_w + b_lab + b_count +
                              align_up(MRF_SLOTS * sizeof(long long));
    /* Flow reuse (Alahari, Kohli & Torr, "Dynamic hybrid algorithms for MAP
     * inference in discrete MRFs", PAMI 2010): each label keeps its move's
     * residual graph and graph, so that the next cycle's move on it starts
     * from that flow, repaired where the labelling changed (Kohli-Torr), and
     * not from zero. Per label: residuals, sink residuals, excesses, t and
     * pair capacities, and its flow and offset. Without the memory for it,
     * every move is cold (one set of arrays). Swap moves are cold: a set
     * per pair of labels would not fit, and a swap's graph covers only the
     * nodes of its two labels. */
    const size_t b_res = align_up((size_t)ND * n * sizeof(unsigned)), b_n8 = align_up(n * 8);
    const size_t b_c = align_up((size_t)(ND / 2) * n * sizeof(unsigned));
    const size_t per_label = b_res + 3 * b_n8 + b_c + align_up(2 * sizeof(u64));
    size_t free_b = 0, total_b = 0;
    GCUT_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const char *reuse_env = getenv("GCUT_CUDA_GRID_REUSE");
    const int reuse = !swap && !(reuse_env && strcmp(reuse_env, "0") == 0) &&
                      base_bytes + L * per_label < free_b / 2;
    const size_t nkept = reuse ? L : 1;
    const size_t bytes = base_bytes + nkept * per_label;
    if (bytes > free_b)
        return GCUT_CU_FAIL(GCUT_ERR_DEVICE_NOMEM,
                            "cuda-grid: the unary table and labels need %.1f MiB of device "
                            "memory, %.1f MiB free",
                            bytes / 1048576.0, free_b / 1048576.0);
    GCUT_CUDA_CHECK(cudaMalloc(dbuf, bytes));
    unsigned char *base = (unsigned char *)*dbuf;
    Mrf m;
    memset(&m, 0, sizeof m);
    m.L = p->num_labels;
    m.unary = (const int *)base;
    GCUT_CUDA_CHECK(cudaMemcpyAsync(base, p->unary, n * L * sizeof(int), cudaMemcpyHostToDevice,
                                    s->stream));
    base += b_unary;
    m.V = (const int *)base;
    GCUT_CUDA_CHECK(cudaMemcpyAsync(base, p->V, L * L * sizeof(int), cudaMemcpyHostToDevice,
                                    s->stream));
    base += b_v;
    for (int k = 0; k < ND / 2; k++)
        if (p->weight && p->weight[k]) {
            m.w[k] = (const int *)base;
            GCUT_CUDA_CHECK(cudaMemcpyAsync(base, p->weight[k], n * sizeof(int),
                                            cudaMemcpyHostToDevice, s->stream));
            base += b_w;
        }
    m.labels = (int *)base;
    GCUT_CUDA_CHECK(cudaMemcpyAsync(base, p->labels, n * sizeof(int), cudaMemcpyHostToDevice,
                                    s->stream));
    base += b_lab;
    m.count = swap ? (int *)base : NULL;
    base += b_count;
    m.acc = (long long *)base;
    base += align_up(MRF_SLOTS * sizeof(long long));
    /* The per-label sets (or the one set): res, rs, ex, t, c, flow/offset;
     * the flows start zeroed. */
    unsigned char *kept_base = base;
    GCUT_CUDA_CHECK(cudaMemsetAsync(kept_base, 0, nkept * per_label, s->stream));
    /* Host side: which labels have a kept set, and one cycle's moves. */
    const size_t per_move = swap ? 2 : 1;
    char *built = (char *)calloc(L, 1);
    int32_t *moves = (int32_t *)malloc((size_t)p->moves_per_cycle * per_move * sizeof(int32_t));
    struct Freer {
        void *a, *b;
        ~Freer()
        {
            free(a);
            free(b);
        }
    } freer = {built, moves};
    if (!built || !moves)
        return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-grid: out of memory");
    long long h_acc[MRF_SLOTS] = {0};
    h_acc[MRF_ENERGY] = p->energy;
    GCUT_CUDA_CHECK(cudaMemcpyAsync(m.acc, h_acc, sizeof h_acc, cudaMemcpyHostToDevice, s->stream));
    if (swap) {
        GCUT_CUDA_CHECK(cudaMemsetAsync(m.count, 0, L * sizeof(int), s->stream));
        label_count_kernel<<<(g.n + 255) / 256, 256, 0, s->stream>>>(m, g.n);
        GCUT_CUDA_CHECK_LAUNCH(s->stream);
    }
    GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
    r->build_ms = gcut_cu_now() - t_start;

    /* The move solves take the engine's settings from
     * $GCUT_CUDA_GRID_PARAMS (gcut_mrf_options has no settings string). */
    /* Move graphs are cut in many short rounds: 8 sweeps per launch and 16
     * launches per relabel measured best for expansion on teddy (0.64 s
     * against 0.76 s with the grid defaults, H100); swap graphs, on the
     * nodes of two labels, settle sooner: 4 launches (1.63 s against 2.06 s
     * for 3 cycles of teddy, H200). */
    gcut_cu_grid_params prm;
    const char *env = getenv("GCUT_CUDA_GRID_PARAMS");
    const char *dflt = swap ? "sweeps=8,launches=4" : "sweeps=8,launches=16";
    if ((st = gcut_cu_grid_parse_params(env && *env ? env : dflt, &prm)) !=
        GCUT_OK)
        return st;
    prm.warm = 0;
    prm.pin = 0;
    Run R;
    memset(&R, 0, sizeof R);
    R.s = s;
    R.opt = p->opt;
    R.deadline = p->opt && p->opt->time_limit > 0 ? t_start + p->opt->time_limit * 1e3 : 1e300;
    R.coop = prm.coop;
    const double t_moves = gcut_cu_now();
    long long accepted = 0;
    for (int32_t cycle = 1; cycle <= p->max_cycles; cycle++) {
        const double t_cycle = gcut_cu_now();
        p->cycle_moves(p->moves_user, cycle, moves);
        for (int64_t i = 0; i < p->moves_per_cycle; i++) {
            Move mv;
            mv.alpha = moves[i * per_move];
            mv.beta = swap ? moves[i * per_move + 1] : -1;
            if (mv.alpha < 0 || mv.alpha >= p->num_labels || mv.beta >= p->num_labels ||
                (swap && (mv.beta < 0 || mv.beta == mv.alpha)))
                return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: bad move (%d, %d)", mv.alpha,
                                    mv.beta);
            const int alpha = mv.alpha;
            const double t0 = gcut_cu_now();
            /* This move's arrays: the label's own set when flows are
             * reused, else the one set. */
            unsigned char *kb = kept_base + (reuse ? (size_t)alpha : 0) * per_label;
            Dev gm = g;
            gm.res = (unsigned *)kb;
            gm.rs = (u64 *)(kb + b_res);
            gm.ex = (long long *)(kb + b_res + b_n8);
            Kept kept;
            kept.t = (long long *)(kb + b_res + 2 * b_n8);
            kept.c = (unsigned *)(kb + b_res + 3 * b_n8);
            u64 *flows = (u64 *)(kb + b_res + 3 * b_n8 + b_c);
            const int warm = reuse && built[alpha];
            GCUT_CUDA_CHECK(cudaMemsetAsync(g.acc, 0, ACC_SLOTS * sizeof(u64), s->stream));
            if (warm)
                GCUT_CUDA_CHECK(cudaMemcpyAsync(g.acc + ACC_FLOW, flows, 2 * sizeof(u64),
                                                cudaMemcpyDeviceToDevice, s->stream));
            GCUT_CUDA_CHECK(cudaMemsetAsync(m.acc + MRF_K, 0, 2 * sizeof(long long), s->stream));
            move_kernel<ND, D3><<<g.ntiles, kThreads, 0, s->stream>>>(gm, m, mv, kept, warm);
            GCUT_CUDA_CHECK_LAUNCH(s->stream);
            if (warm) {
                fix_kernel<<<(g.n + 255) / 256, 256, 0, s->stream>>>(gm);
                GCUT_CUDA_CHECK_LAUNCH(s->stream);
            }
            s->dev = gm;
            st = phase_one<ND, D3>(R, &prm, warm);
            s->dev = g;
            if (st != GCUT_OK)
                return st;
            built[alpha] = 1;
            GCUT_CUDA_CHECK(cudaMemcpyAsync(flows, g.acc + ACC_FLOW, 2 * sizeof(u64),
                                            cudaMemcpyDeviceToDevice, s->stream));
            accept_kernel<<<(g.n + 255) / 256, 256, 0, s->stream>>>(g, m, mv);
            GCUT_CUDA_CHECK_LAUNCH(s->stream);
            accept_energy_kernel<<<1, 1, 0, s->stream>>>(g, m, mv);
            GCUT_CUDA_CHECK_LAUNCH(s->stream);
            if (p->progress) {
                GCUT_CUDA_CHECK(cudaMemcpyAsync(h_acc, m.acc, sizeof h_acc,
                                                cudaMemcpyDeviceToHost, s->stream));
                GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
                if (h_acc[MRF_RAN])
                    p->progress(p->progress_user, cycle,
                                swap ? alpha * p->num_labels + mv.beta : alpha,
                                h_acc[MRF_ENERGY], gcut_cu_now() - t0);
            }
            const double ms = gcut_cu_now() - t0;
            if (ms > r->max_move_ms)
                r->max_move_ms = ms;
        }
        GCUT_CUDA_CHECK(
            cudaMemcpyAsync(h_acc, m.acc, sizeof h_acc, cudaMemcpyDeviceToHost, s->stream));
        GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
        if (h_acc[MRF_ERROR])
            return GCUT_CU_FAIL(GCUT_ERR_OVERFLOW,
                                "cuda-grid: a capacity of a move passes INT32_MAX (use smaller "
                                "costs)");
        r->cycle_energy[cycle - 1] = h_acc[MRF_ENERGY];
        r->cycle_ms[cycle - 1] = gcut_cu_now() - t_cycle;
        r->cycles = cycle;
        r->moves = (int32_t)h_acc[MRF_MOVES];
        const int any = h_acc[MRF_ACCEPTED] > accepted;
        accepted = h_acc[MRF_ACCEPTED];
        if (!any)
            break;
    }
    GCUT_CUDA_CHECK(cudaMemcpyAsync(p->labels, m.labels, n * sizeof(int), cudaMemcpyDeviceToHost,
                                    s->stream));
    GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
    r->solve_ms = gcut_cu_now() - t_moves;
    r->energy = h_acc[MRF_ENERGY];
    const char *what = swap ? "swap" : "expansion";
    gcut_cu_host->log(p->opt, GCUT_LOG_INFO,
                      "cuda-grid %s: %d moves, %lld push launches, %lld relabels (%lld BFS "
                      "launches), %.1f ms",
                      what, (int)r->moves, (long long)R.push_launches, (long long)R.relabels,
                      (long long)R.bfs_launches, r->solve_ms);
    /* A tuning aid: the same line on stderr when $GCUT_CUDA_GRID_TRACE is set. */
    if (getenv("GCUT_CUDA_GRID_TRACE"))
        fprintf(stderr,
                "cuda-grid %s: %d moves, %lld push launches, %lld relabels (%lld BFS launches), "
                "%.1f ms\n",
                what, (int)r->moves, (long long)R.push_launches, (long long)R.relabels,
                (long long)R.bfs_launches, r->solve_ms);
    r->moves_accepted = (int32_t)accepted;
    return GCUT_OK;
}

static gcut_status mrf_entry(const gcut_mrf_problem *p, gcut_mrf_report *r, int swap)
{
    if (!p || !r || !p->unary || !p->V || !p->labels || !p->cycle_moves || !p->dir_offset ||
        !r->cycle_energy || !r->cycle_ms || p->num_labels < 2 || p->max_cycles < 1 ||
        p->num_nodes <= 0 || p->num_nodes >= INT32_MAX ||
        p->moves_per_cycle != (swap ? (int64_t)p->num_labels * (p->num_labels - 1) / 2
                                    : (int64_t)p->num_labels))
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: bad multi-label problem");
    const char *why;
    gcut_status st = gcut_cu_probe_device(&why);
    if (st == GCUT_OK)
        st = gcut_cu_grid_probe_image(&why);
    if (st != GCUT_OK)
        return GCUT_CU_FAIL(GCUT_ERR_UNAVAILABLE, "cuda-grid: %s", why);
    gcut_cu_grid_state *s;
    if ((st = gcut_cu_grid_state_new(&s)) != GCUT_OK)
        return st;
    void *dbuf = NULL;
    r->cycles = r->moves = r->moves_accepted = 0;
    r->build_ms = r->solve_ms = r->max_move_ms = 0;
    /* The labels are written back only on success: work on a copy. */
    int32_t *labels = (int32_t *)gcut_cu_host->malloc_fn((size_t)p->num_nodes * sizeof(int32_t));
    if (!labels) {
        gcut_cu_grid_state_free(s);
        return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-grid: out of memory");
    }
    memcpy(labels, p->labels, (size_t)p->num_nodes * sizeof(int32_t));
    gcut_mrf_problem q = *p;
    q.labels = labels;
    switch (p->connectivity) {
    case 4:
        st = mrf_run<4, false>(s, &q, r, swap, &dbuf);
        break;
    case 8:
        st = mrf_run<8, false>(s, &q, r, swap, &dbuf);
        break;
    case 6:
        st = mrf_run<6, true>(s, &q, r, swap, &dbuf);
        break;
    case 18:
        st = mrf_run<18, true>(s, &q, r, swap, &dbuf);
        break;
    case 26:
        st = mrf_run<26, true>(s, &q, r, swap, &dbuf);
        break;
    default:
        st = GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: connectivity %d", p->connectivity);
    }
    if (st == GCUT_OK)
        memcpy(p->labels, labels, (size_t)p->num_nodes * sizeof(int32_t));
    gcut_cu_host->free_fn(labels);
    if (dbuf)
        (void)cudaFree(dbuf);
    gcut_cu_grid_state_free(s);
    return st;
}

extern "C" gcut_status gcut_cu_grid_mrf_expand(const gcut_mrf_problem *p, gcut_mrf_report *r)
{
    return mrf_entry(p, r, 0);
}

extern "C" gcut_status gcut_cu_grid_mrf_swap(const gcut_mrf_problem *p, gcut_mrf_report *r)
{
    return mrf_entry(p, r, 1);
}
