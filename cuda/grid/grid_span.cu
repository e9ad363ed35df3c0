/*
 * grid_span.cu - one grid spread over several GPUs of one node: cuda-grid's
 * engine (the kernels of grid_kernels.cuh, unchanged but for a tile offset
 * and system-wide atomics) on slabs of tiles, one slab per listed device
 * ("devices=0:1:2:3" in opt->params; docs/grid.md, "Several GPUs").
 *
 * Memory. The arrays of the engine (residuals per direction, sink
 * residuals, excesses, labels, BFS masks, the cut, the tile flags) are laid
 * out as for one GPU (grid_engine.cuh's plan), in one range of virtual
 * addresses reserved with CUDA's virtual memory management, and each
 * granule of the range (2 MiB) is backed by memory of the GPU that owns the
 * nodes (or tiles) at its start; the range is mapped read-write on every
 * device of the list. A kernel therefore indexes the whole grid as on one
 * GPU: its own nodes are in its own memory, the halo of a slab's first and
 * last tile layers is read over NVLink (peer access), and the few nodes of
 * a granule that straddles two slabs live on one of the two. Every GPU
 * holds about 1/G of the arrays, so a grid too large for one GPU fits G of
 * them (up to 2^31 - 1 nodes, the engine's index).
 *
 * Work. Tiles are dealt in layers (planes of tiles along z in 3D, rows of
 * tiles in 2D), contiguous runs to the devices in list order; a launch on
 * device k runs its tiles only (block b takes tile tile0 + b). The push
 * launches of different devices run at the same time without any
 * synchronisation: that is cuda-grid's own model, in which tiles running
 * at the same time exchange flow only through atomic adds to the
 * neighbour's excess and residual and write back differences, so any
 * interleaving keeps a valid preflow; between devices those atomics are
 * system-wide (atomicAdd_system), the only change to the kernels. The
 * global relabel needs each Bellman-Ford step to see the previous one
 * everywhere: a barrier between steps (each device's stream waits for an
 * event of every other device's, no host round trip), then the host reads
 * the changed-tile counts of every device after each batch of steps; the
 * relabel ends after a step in which no tile changed on any device, and
 * the exactness argument is the one-GPU engine's (the driver stops only
 * when an exact relabel finds no node with excess that can reach the sink,
 * and the cut is what that relabel reached).
 *
 * Uploads and the download of the cut run in one host thread per part, so
 * that the GPUs' copy engines (and the host's memory bandwidth) work at
 * once. Spread solves are cold and keep no state between calls.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cudaTypedefs.h>

#include "grid/grid_state.cuh"

/* A named namespace (nvcc's kernel stubs cannot tell two unnamed ones
 * apart once one is brought in with `using`); the functions are static. */
namespace gcut_grid_span {

using namespace gcut_grid_cu;

constexpr int kMaxParts = GCUT_CU_GRID_MAX_DEVICES;
constexpr int kMaxRuns = 2048; /* physical allocations of one range */

/* The driver's virtual memory management, found through the runtime (the
 * plugin links no driver library). */
struct Drv {
    PFN_cuMemAddressReserve_v10020 reserve;
    PFN_cuMemAddressFree_v10020 addr_free;
    PFN_cuMemCreate_v10020 create;
    PFN_cuMemRelease_v10020 release;
    PFN_cuMemMap_v10020 map;
    PFN_cuMemUnmap_v10020 unmap;
    PFN_cuMemSetAccess_v10020 access;
    PFN_cuMemGetAllocationGranularity_v10020 granularity;
};

gcut_status drv_load(Drv *d)
{
    struct {
        const char *name;
        void **fn;
    } t[] = {{"cuMemAddressReserve", (void **)&d->reserve},
             {"cuMemAddressFree", (void **)&d->addr_free},
             {"cuMemCreate", (void **)&d->create},
             {"cuMemRelease", (void **)&d->release},
             {"cuMemMap", (void **)&d->map},
             {"cuMemUnmap", (void **)&d->unmap},
             {"cuMemSetAccess", (void **)&d->access},
             {"cuMemGetAllocationGranularity", (void **)&d->granularity}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
        const cudaError_t err =
            cudaGetDriverEntryPointByVersion(t[i].name, t[i].fn, 12000, cudaEnableDefault, &q);
        if (err != cudaSuccess || q != cudaDriverEntryPointSuccess || !*t[i].fn) {
            (void)cudaGetLastError();
            return GCUT_CU_FAIL(GCUT_ERR_UNAVAILABLE,
                                "cuda-grid: the CUDA driver has no %s (devices= needs its virtual "
                                "memory management, CUDA 10.2 or later)",
                                t[i].name);
        }
    }
    return GCUT_OK;
}

gcut_status cu_fail(CUresult r, const char *what, int dev)
{
    return GCUT_CU_FAIL(r == CUDA_ERROR_OUT_OF_MEMORY ? GCUT_ERR_DEVICE_NOMEM : GCUT_ERR_DEVICE,
                        "cuda-grid: %s on device %d failed (CUDA driver error %d)", what, dev,
                        (int)r);
}

struct Part {
    int dev;
    int coop_blocks;  /* blocks of a cooperative relabel round (0: launches) */
    cudaStream_t stream;
    cudaEvent_t done; /* the barrier's event */
    u64 *acc;         /* ACC_SLOTS, in the part's own memory */
    int t0, t1;       /* its tiles */
    long long v0, v1; /* its nodes */
    Dev g;
};

struct MapRun {
    size_t at, len;
};

/* Everything one spread solve holds; the destructor gives it all back
 * (after waiting for the streams), and the caller's device is current
 * again. */
struct Span {
    Drv drv;
    int np = 0;
    Part part[kMaxParts];
    int ndist = 0;           /* distinct devices */
    int dist[kMaxParts];
    CUdeviceptr base = 0;
    size_t reserved = 0;
    MapRun run[kMaxRuns];
    int nruns = 0;
    u64 *h_acc = nullptr;    /* pinned, np * ACC_SLOTS */
    cudaEvent_t ev[3] = {nullptr, nullptr, nullptr}; /* timing, on part 0's device */
    int prev_dev = -1;

    Span() { memset(part, 0, sizeof part); }
    Span(const Span &) = delete;
    Span &operator=(const Span &) = delete;
    ~Span()
    {
        /* Errors are ignored: nothing can be done about them here. */
        for (int k = 0; k < np; k++) {
            Part &q = part[k];
            if (cudaSetDevice(q.dev) != cudaSuccess)
                continue;
            if (q.stream) {
                (void)cudaStreamSynchronize(q.stream);
                (void)cudaStreamDestroy(q.stream);
            }
            if (q.done)
                (void)cudaEventDestroy(q.done);
            if (q.acc)
                (void)cudaFree(q.acc);
        }
        if (np > 0 && cudaSetDevice(part[0].dev) == cudaSuccess)
            for (int i = 0; i < 3; i++)
                if (ev[i])
                    (void)cudaEventDestroy(ev[i]);
        for (int i = 0; i < nruns; i++)
            (void)drv.unmap(base + run[i].at, run[i].len);
        if (base)
            (void)drv.addr_free(base, reserved);
        if (h_acc)
            (void)cudaFreeHost(h_acc);
        (void)cudaGetLastError();
        if (prev_dev >= 0)
            (void)cudaSetDevice(prev_dev);
    }
};

#define ON(dev) GCUT_CUDA_CHECK(cudaSetDevice(dev))

/* Each stream waits for what every other stream has been given so far. */
gcut_status barrier(Span &S)
{
    if (S.np == 1)
        return GCUT_OK;
    for (int k = 0; k < S.np; k++) {
        ON(S.part[k].dev);
        GCUT_CUDA_CHECK(cudaEventRecord(S.part[k].done, S.part[k].stream));
    }
    for (int j = 0; j < S.np; j++) {
        ON(S.part[j].dev);
        for (int k = 0; k < S.np; k++)
            if (k != j)
                GCUT_CUDA_CHECK(cudaStreamWaitEvent(S.part[j].stream, S.part[k].done, 0));
    }
    return GCUT_OK;
}

gcut_status sync_all(Span &S)
{
    for (int k = 0; k < S.np; k++) {
        ON(S.part[k].dev);
        GCUT_CUDA_CHECK(cudaStreamSynchronize(S.part[k].stream));
    }
    return GCUT_OK;
}

/* The nodes of [v0, v1) with excess that can reach the sink (after a
 * relabel), into g.acc[ACC_ACTIVE]. */
__global__ void span_count_kernel(Dev g, long long v0, long long v1)
{
    __shared__ u64 s_sum;
    const long long v = v0 + (long long)blockIdx.x * blockDim.x + threadIdx.x;
    u64 c = 0;
    if (v < v1)
        c = g.ex[v] > 0 && g.lab[v] < g.dead;
    block_add(&g.acc[ACC_ACTIVE], c, &s_sum);
}

/* The canonical cut of the nodes [v0, v1): the sink side is what the last
 * relabel reached. */
__global__ void span_cut_kernel(Dev g, unsigned char *cut, long long v0, long long v1)
{
    const long long v = v0 + (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (v < v1)
        cut[v] = g.lab[v] < g.dead ? 1 : 0; /* GCUT_SINK : GCUT_SOURCE */
}

unsigned blocks_of(long long count) { return (unsigned)((count + 255) / 256); }

/* One round of the global relabel on the tiles [t0, t1) of one device, in
 * one cooperative launch: every tile looks once, then the tiled
 * relaxation steps (grid barriers between them, as bfs_coop_kernel) until
 * a step changes no tile here; ACC_STEPS gets the steps. The labels of
 * other devices' tiles are read as they are (they only go down while the
 * round runs, and any value read is a distance some path achieves), so a
 * round in which no device changed a label ends at the exact distances:
 * every device then checked all its tiles against labels that did not
 * move. */
template <int ND, bool D3>
__global__ void __launch_bounds__(kThreads) span_bfs_kernel(Dev g, int t0, int t1, int max_steps)
{
    cg::grid_group grid = cg::this_grid();
    for (int tile = t0 + (int)blockIdx.x; tile < t1; tile += (int)gridDim.x)
        if (threadIdx.x == 0)
            g.tflag[tile] = 1;
    grid.sync();
    int parity = 0, step = 0;
    for (; step < max_steps; step++) {
        if (blockIdx.x == 0 && threadIdx.x == 0)
            g.acc[ACC_RING + (step + 2) % 4] = 0;
        int any = 0;
        for (int tile = t0 + (int)blockIdx.x; tile < t1; tile += (int)gridDim.x)
            any |= bfs_tile<ND, D3>(g, tile, parity);
        if (threadIdx.x == 0 && any)
            atomicAdd(&g.acc[ACC_RING + step % 4], 1ull);
        grid.sync();
        parity ^= 1;
        if (((volatile u64 *)g.acc)[ACC_RING + step % 4] == 0)
            break;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0)
        g.acc[ACC_STEPS] = (u64)step + 1;
}

/* ------------------------------------------------------------ memory */

/* The arrays, as plan() lays them out for one GPU. */
enum { A_RES, A_RS, A_EX, A_LAB, A_MASK, A_CUT, A_TFLAG, A_COUNT };

struct Layout {
    size_t off[A_COUNT + 1];
    size_t size[A_COUNT];
};

size_t align256(size_t x) { return (x + 255) & ~(size_t)255; }

void layout_of(Layout *L, size_t n, int nd, size_t ntiles)
{
    const size_t sizes[A_COUNT] = {(size_t)nd * n * sizeof(unsigned), n * sizeof(u64),
                                   n * sizeof(long long), n * sizeof(int), n * sizeof(unsigned),
                                   n, 2 * ntiles};
    size_t at = 0;
    for (int i = 0; i < A_COUNT; i++) {
        L->off[i] = at;
        L->size[i] = sizes[i];
        at += align256(sizes[i]);
    }
    L->off[A_COUNT] = at;
}

/* The part that owns the byte at `at` of the range: the part of the node
 * (or tile) stored there; padding goes with the array's last entry. */
int owner_of(const Span &S, const Layout &L, size_t at, size_t n, size_t ntiles)
{
    int a = 0;
    while (a + 1 < A_COUNT && at >= L.off[a + 1])
        a++;
    size_t o = at - L.off[a];
    if (o >= L.size[a])
        o = L.size[a] - 1;
    if (a == A_TFLAG) {
        const long long tile = (long long)(o % ntiles);
        for (int k = 0; k < S.np; k++)
            if (tile < S.part[k].t1)
                return k;
        return S.np - 1;
    }
    static const size_t es[A_COUNT] = {sizeof(unsigned), sizeof(u64), sizeof(long long),
                                       sizeof(int), sizeof(unsigned), 1, 1};
    const long long v = (long long)((o / es[a]) % n);
    for (int k = 0; k < S.np; k++)
        if (v < S.part[k].v1)
            return k;
    return S.np - 1;
}

/* Reserve the range, back each granule on its owner's device, map it
 * read-write everywhere. */
gcut_status map_range(Span &S, const Layout &L, size_t n, size_t ntiles, unsigned char **out)
{
    size_t gran = 0;
    for (int i = 0; i < S.ndist; i++) {
        CUmemAllocationProp prop;
        memset(&prop, 0, sizeof prop);
        prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        prop.location.id = S.dist[i];
        size_t g = 0;
        const CUresult r = S.drv.granularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
        if (r != CUDA_SUCCESS)
            return cu_fail(r, "cuMemGetAllocationGranularity", S.dist[i]);
        gran = g > gran ? g : gran;
    }
    if (gran == 0)
        gran = (size_t)2 << 20;
    const size_t total = (L.off[A_COUNT] + gran - 1) / gran * gran;
    /* What each device will hold, checked against what it has free. */
    size_t need[kMaxParts] = {0};
    for (size_t at = 0; at < total; at += gran)
        need[owner_of(S, L, at, n, ntiles)] += gran;
    for (int i = 0; i < S.ndist; i++) {
        size_t want = 0;
        for (int k = 0; k < S.np; k++)
            if (S.part[k].dev == S.dist[i])
                want += need[k];
        size_t free_b = 0, total_b = 0;
        ON(S.dist[i]);
        GCUT_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
        if (want + ((size_t)64 << 20) > free_b)
            return GCUT_CU_FAIL(GCUT_ERR_DEVICE_NOMEM,
                                "cuda-grid: device %d needs %.1f MiB for its part of the grid, "
                                "%.1f MiB free",
                                S.dist[i], want / 1048576.0, free_b / 1048576.0);
    }
    ON(S.part[0].dev);
    CUresult r = S.drv.reserve(&S.base, total, gran, 0, 0);
    if (r != CUDA_SUCCESS)
        return cu_fail(r, "cuMemAddressReserve", S.part[0].dev);
    S.reserved = total;
    for (size_t at = 0; at < total;) {
        const int k = owner_of(S, L, at, n, ntiles);
        size_t end = at + gran;
        while (end < total && owner_of(S, L, end, n, ntiles) == k)
            end += gran;
        if (S.nruns == kMaxRuns)
            return GCUT_CU_FAIL(GCUT_ERR_INTERNAL, "cuda-grid: too many mappings of the grid");
        CUmemAllocationProp prop;
        memset(&prop, 0, sizeof prop);
        prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        prop.location.id = S.part[k].dev;
        CUmemGenericAllocationHandle h;
        if ((r = S.drv.create(&h, end - at, &prop, 0)) != CUDA_SUCCESS)
            return cu_fail(r, "cuMemCreate", S.part[k].dev);
        r = S.drv.map(S.base + at, end - at, 0, h, 0);
        /* The mapping keeps the memory; the handle is not needed. */
        (void)S.drv.release(h);
        if (r != CUDA_SUCCESS)
            return cu_fail(r, "cuMemMap", S.part[k].dev);
        S.run[S.nruns++] = MapRun{at, end - at};
        at = end;
    }
    CUmemAccessDesc desc[kMaxParts];
    for (int i = 0; i < S.ndist; i++) {
        memset(&desc[i], 0, sizeof desc[i]);
        desc[i].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        desc[i].location.id = S.dist[i];
        desc[i].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    }
    if ((r = S.drv.access(S.base, total, desc, (size_t)S.ndist)) != CUDA_SUCCESS)
        return cu_fail(r, "cuMemSetAccess", S.part[0].dev);
    *out = (unsigned char *)(uintptr_t)S.base;
    return GCUT_OK;
}

/* ------------------------------------------------------------ transfers */

struct Copy {
    Part *part;
    const gcut_grid_problem *p;
    unsigned char *cut_host;   /* download: the caller's cut */
    const unsigned char *cut_dev;
    int upload;
    cudaError_t err;
    const char *what;
};

/* One part's upload (capacities into the residuals, terminal capacities
 * into scratch) or download (its nodes of the cut), on its own thread. */
void *copy_part(void *arg)
{
    Copy *c = (Copy *)arg;
    Part &q = *c->part;
    const size_t n = (size_t)c->p->num_nodes, v0 = (size_t)q.v0, len = (size_t)(q.v1 - q.v0);
    c->err = cudaSetDevice(q.dev);
    c->what = "cudaSetDevice";
    if (c->err != cudaSuccess || len == 0)
        return NULL;
    if (c->upload) {
        c->what = "cudaMemcpyAsync(capacities)";
        for (int d = 0; d < c->p->num_dirs && c->err == cudaSuccess; d++)
            c->err = cudaMemcpyAsync(q.g.res + d * n + v0, c->p->cap[d] + v0,
                                     len * sizeof(int32_t), cudaMemcpyHostToDevice, q.stream);
        if (c->err == cudaSuccess)
            c->err = cudaMemcpyAsync(q.g.mask + v0, c->p->cap_source + v0, len * sizeof(int32_t),
                                     cudaMemcpyHostToDevice, q.stream);
        if (c->err == cudaSuccess)
            c->err = cudaMemcpyAsync(q.g.lab + v0, c->p->cap_sink + v0, len * sizeof(int32_t),
                                     cudaMemcpyHostToDevice, q.stream);
    } else {
        c->what = "cudaMemcpyAsync(cut)";
        c->err = cudaMemcpyAsync(c->cut_host + v0, c->cut_dev + v0, len, cudaMemcpyDeviceToHost,
                                 q.stream);
    }
    if (c->err == cudaSuccess) {
        c->what = "cudaStreamSynchronize";
        c->err = cudaStreamSynchronize(q.stream);
    }
    return NULL;
}

gcut_status copy_parts(Span &S, const gcut_grid_problem *p, int upload, unsigned char *cut_host,
                       const unsigned char *cut_dev)
{
    Copy c[kMaxParts];
    pthread_t th[kMaxParts];
    int started[kMaxParts] = {0};
    for (int k = 0; k < S.np; k++) {
        c[k] = Copy{&S.part[k], p, cut_host, cut_dev, upload, cudaSuccess, ""};
        /* A thread that cannot start: its copy runs here. */
        started[k] = S.np > 1 && pthread_create(&th[k], NULL, copy_part, &c[k]) == 0;
        if (!started[k])
            copy_part(&c[k]);
    }
    for (int k = 0; k < S.np; k++)
        if (started[k])
            pthread_join(th[k], NULL);
    for (int k = 0; k < S.np; k++)
        if (c[k].err != cudaSuccess)
            return gcut_cu_fail(c[k].err, __func__, c[k].what, __FILE__, __LINE__);
    return GCUT_OK;
}

/* ------------------------------------------------------------ the solve */

struct SpanRun {
    const gcut_solve_options *opt;
    int64_t push_launches, bfs_launches, relabels, rounds;
};

/* The active nodes after a relabel, summed over the parts. */
gcut_status count_active(Span &S, u64 *active)
{
    gcut_status st;
    for (int k = 0; k < S.np; k++) {
        Part &q = S.part[k];
        ON(q.dev);
        GCUT_CUDA_CHECK(cudaMemsetAsync(q.acc + ACC_ACTIVE, 0, sizeof(u64), q.stream));
        if (q.v1 > q.v0) {
            span_count_kernel<<<blocks_of(q.v1 - q.v0), 256, 0, q.stream>>>(q.g, q.v0, q.v1);
            GCUT_CUDA_CHECK_LAUNCH(q.stream);
        }
        GCUT_CUDA_CHECK(cudaMemcpyAsync(S.h_acc + k * ACC_SLOTS + ACC_ACTIVE, q.acc + ACC_ACTIVE,
                                        sizeof(u64), cudaMemcpyDeviceToHost, q.stream));
    }
    if ((st = sync_all(S)) != GCUT_OK)
        return st;
    u64 sum = 0;
    for (int k = 0; k < S.np; k++)
        sum += S.h_acc[k * ACC_SLOTS + ACC_ACTIVE];
    *active = sum;
    return GCUT_OK;
}

/* The global relabel in rounds: each device relaxes its own tiles to a
 * local fixed point in one cooperative launch (span_bfs_kernel), a barrier,
 * and again until a round changes nothing anywhere (a Bellman-Ford over
 * the devices: the wave crosses a slab boundary once per round). */
template <int ND, bool D3> gcut_status span_relabel_rounds(Span &S, SpanRun &R, u64 *active)
{
    gcut_status st;
    for (int k = 0; k < S.np; k++) {
        Part &q = S.part[k];
        ON(q.dev);
        bfs_init_kernel<ND, D3><<<(unsigned)(q.t1 - q.t0), kThreads, 0, q.stream>>>(q.g, 0);
        GCUT_CUDA_CHECK_LAUNCH(q.stream);
    }
    if ((st = barrier(S)) != GCUT_OK)
        return st;
    for (int round = 0;; round++) {
        for (int k = 0; k < S.np; k++) {
            Part &q = S.part[k];
            ON(q.dev);
            int t0 = q.t0, t1 = q.t1, max_steps = (int)(q.v1 - q.v0) + 16;
            const int nt = t1 - t0;
            Dev arg = q.g;
            void *args[] = {&arg, &t0, &t1, &max_steps};
            GCUT_CUDA_CHECK(cudaMemsetAsync(q.acc + ACC_RING, 0, 4 * sizeof(u64), q.stream));
            GCUT_CUDA_CHECK(cudaLaunchCooperativeKernel(
                (const void *)span_bfs_kernel<ND, D3>,
                dim3((unsigned)(nt < q.coop_blocks ? nt : q.coop_blocks)), dim3(kThreads), args, 0,
                q.stream));
            GCUT_CUDA_CHECK_LAUNCH(q.stream);
            GCUT_CUDA_CHECK(cudaMemcpyAsync(S.h_acc + k * ACC_SLOTS + ACC_STEPS, q.acc + ACC_STEPS,
                                            sizeof(u64), cudaMemcpyDeviceToHost, q.stream));
        }
        if ((st = barrier(S)) != GCUT_OK || (st = sync_all(S)) != GCUT_OK)
            return st;
        R.rounds++;
        int changed = 0;
        for (int k = 0; k < S.np; k++) {
            R.bfs_launches += (int64_t)S.h_acc[k * ACC_SLOTS + ACC_STEPS];
            changed |= S.h_acc[k * ACC_SLOTS + ACC_STEPS] > 1;
        }
        /* One part: its first round is the whole relabel. */
        if (!changed || S.np == 1)
            break;
        if ((st = gcut_cu_poll(R.opt, "solve", -1, NULL)) != GCUT_OK)
            return st;
    }
    R.relabels++;
    return count_active(S, active);
}

/* An exact global relabel over every part, then the number of active
 * nodes (excess, can reach the sink) in *active. */
template <int ND, bool D3> gcut_status span_relabel(Span &S, SpanRun &R, u64 *active)
{
    constexpr int B = GCUT_CU_GRID_BFS_BATCH;
    int parity = 0;
    gcut_status st;
    for (int k = 0; k < S.np; k++) {
        Part &q = S.part[k];
        ON(q.dev);
        bfs_init_kernel<ND, D3><<<(unsigned)(q.t1 - q.t0), kThreads, 0, q.stream>>>(q.g, parity);
        GCUT_CUDA_CHECK_LAUNCH(q.stream);
    }
    if ((st = barrier(S)) != GCUT_OK)
        return st;
    for (;;) {
        for (int k = 0; k < S.np; k++) {
            ON(S.part[k].dev);
            GCUT_CUDA_CHECK(cudaMemsetAsync(S.part[k].acc + ACC_CHANGED, 0, B * sizeof(u64),
                                            S.part[k].stream));
        }
        for (int b = 0; b < B; b++) {
            for (int k = 0; k < S.np; k++) {
                Part &q = S.part[k];
                ON(q.dev);
                bfs_kernel<ND, D3><<<(unsigned)(q.t1 - q.t0), kThreads, 0, q.stream>>>(q.g, parity,
                                                                                       b);
                GCUT_CUDA_CHECK_LAUNCH(q.stream);
            }
            /* The next step reads the labels and tile flags of this one
             * on every device. */
            if ((st = barrier(S)) != GCUT_OK)
                return st;
            parity ^= 1;
        }
        R.bfs_launches += B;
        for (int k = 0; k < S.np; k++) {
            ON(S.part[k].dev);
            GCUT_CUDA_CHECK(cudaMemcpyAsync(S.h_acc + k * ACC_SLOTS + ACC_CHANGED,
                                            S.part[k].acc + ACC_CHANGED, B * sizeof(u64),
                                            cudaMemcpyDeviceToHost, S.part[k].stream));
        }
        if ((st = sync_all(S)) != GCUT_OK)
            return st;
        int done = 0;
        for (int b = 0; b < B; b++) {
            u64 changed = 0;
            for (int k = 0; k < S.np; k++)
                changed += S.h_acc[k * ACC_SLOTS + ACC_CHANGED + b];
            done |= changed == 0;
        }
        if (done)
            break;
        if ((st = gcut_cu_poll(R.opt, "solve", -1, NULL)) != GCUT_OK)
            return st;
    }
    R.relabels++;
    return count_active(S, active);
}

template <int ND, bool D3> gcut_status push_launches(Span &S, int launches, int sweeps)
{
    typedef Tile<D3> T;
    const size_t smem = T::X * T::Y * T::Z * (sizeof(long long) + ND * sizeof(unsigned)) +
                        T::HX * T::HY * T::HZ * sizeof(int);
    /* No barrier between push launches: tiles of different devices run
     * at the same time as tiles of one launch do. */
    for (int i = 0; i < launches; i++)
        for (int k = 0; k < S.np; k++) {
            Part &q = S.part[k];
            ON(q.dev);
            push_kernel<ND, D3><<<(unsigned)(q.t1 - q.t0), kThreads, smem, q.stream>>>(q.g, sweeps);
            GCUT_CUDA_CHECK_LAUNCH(q.stream);
        }
    return barrier(S);
}

template <int ND, bool D3>
gcut_status span_run(Span &S, const gcut_grid_problem *p, const gcut_solve_options *opt,
                     const gcut_cu_grid_params *prm, gcut_solution *sol)
{
    typedef Tile<D3> T;
    const double t_start = gcut_cu_now();
    gcut_status st;
    const size_t n = (size_t)p->num_nodes;
    Dev g;
    memset(&g, 0, sizeof g);
    g.W = p->width;
    g.H = p->height;
    g.D = p->depth;
    g.n = p->num_nodes;
    g.dead = p->num_nodes + 1;
    g.tiles_x = (p->width + T::X - 1) / T::X;
    g.tiles_y = (p->height + T::Y - 1) / T::Y;
    g.tiles_z = (p->depth + T::Z - 1) / T::Z;
    const size_t ntiles = (size_t)g.tiles_x * g.tiles_y * g.tiles_z;
    if (ntiles > INT32_MAX)
        return GCUT_CU_FAIL(GCUT_ERR_OVERFLOW, "cuda-grid: too many tiles (%zu)", ntiles);
    g.ntiles = (int)ntiles;

    /* Tile layers to the parts, in contiguous runs. */
    const long long layers = D3 ? g.tiles_z : g.tiles_y;
    const long long per_layer = D3 ? (long long)g.tiles_x * g.tiles_y : g.tiles_x;
    const long long layer_nodes = D3 ? (long long)T::Z * g.W * g.H : (long long)T::Y * g.W;
    int np = prm->ndevices < layers ? prm->ndevices : (int)layers;
    S.np = np;
    for (int k = 0; k < np; k++) {
        Part &q = S.part[k];
        q.dev = prm->devices[k];
        const long long l0 = layers * k / np, l1 = layers * (k + 1) / np;
        q.t0 = (int)(l0 * per_layer);
        q.t1 = (int)(l1 * per_layer);
        q.v0 = l0 * layer_nodes < (long long)n ? l0 * layer_nodes : (long long)n;
        q.v1 = l1 * layer_nodes < (long long)n ? l1 * layer_nodes : (long long)n;
        int seen = 0;
        for (int i = 0; i < S.ndist; i++)
            seen |= S.dist[i] == q.dev;
        if (!seen)
            S.dist[S.ndist++] = q.dev;
    }
    for (int i = 0; i < S.ndist; i++)
        for (int j = 0; j < S.ndist; j++) {
            int ok = 1;
            if (i != j)
                GCUT_CUDA_CHECK(cudaDeviceCanAccessPeer(&ok, S.dist[i], S.dist[j]));
            if (!ok)
                return GCUT_CU_FAIL(GCUT_ERR_UNAVAILABLE,
                                    "cuda-grid: GPU %d cannot access the memory of GPU %d (peer "
                                    "access), which devices= needs",
                                    S.dist[i], S.dist[j]);
        }

    /* Memory: the range and each part's own bits. */
    for (int i = 0; i < S.ndist; i++) {
        ON(S.dist[i]);
        GCUT_CUDA_CHECK(cudaFree(0)); /* the device's context, for the driver calls */
    }
    Layout L;
    layout_of(&L, n, p->num_dirs, ntiles);
    unsigned char *base = NULL;
    if ((st = map_range(S, L, n, ntiles, &base)) != GCUT_OK)
        return st;
    g.res = (unsigned *)(base + L.off[A_RES]);
    g.rs = (u64 *)(base + L.off[A_RS]);
    g.ex = (long long *)(base + L.off[A_EX]);
    g.lab = (int *)(base + L.off[A_LAB]);
    g.mask = (unsigned *)(base + L.off[A_MASK]);
    g.tflag = base + L.off[A_TFLAG];
    unsigned char *d_cut = base + L.off[A_CUT];
    g.sys = S.ndist > 1;
    GCUT_CUDA_CHECK(cudaMallocHost((void **)&S.h_acc, (size_t)np * ACC_SLOTS * sizeof(u64)));
    int dx[26] = {0}, dy[26] = {0}, dz[26] = {0};
    for (int d = 0; d < ND; d++) {
        dx[d] = p->dir_offset[3 * d];
        dy[d] = p->dir_offset[3 * d + 1];
        dz[d] = p->dir_offset[3 * d + 2];
    }
    const size_t smem = T::X * T::Y * T::Z * (sizeof(long long) + ND * sizeof(unsigned)) +
                        T::HX * T::HY * T::HZ * sizeof(int);
    for (int k = 0; k < np; k++) {
        Part &q = S.part[k];
        ON(q.dev);
        GCUT_CUDA_CHECK(cudaStreamCreateWithFlags(&q.stream, cudaStreamNonBlocking));
        GCUT_CUDA_CHECK(cudaEventCreateWithFlags(&q.done, cudaEventDisableTiming));
        GCUT_CUDA_CHECK(cudaMalloc((void **)&q.acc, ACC_SLOTS * sizeof(u64)));
        GCUT_CUDA_CHECK(cudaMemsetAsync(q.acc, 0, ACC_SLOTS * sizeof(u64), q.stream));
        GCUT_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_dx, dx, sizeof dx, 0, cudaMemcpyHostToDevice,
                                                q.stream));
        GCUT_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_dy, dy, sizeof dy, 0, cudaMemcpyHostToDevice,
                                                q.stream));
        GCUT_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_dz, dz, sizeof dz, 0, cudaMemcpyHostToDevice,
                                                q.stream));
        GCUT_CUDA_CHECK(cudaFuncSetAttribute(push_kernel<ND, D3>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)smem));
        q.g = g;
        q.g.acc = q.acc;
        q.g.tile0 = q.t0;
        q.coop_blocks = 0;
        if (prm->coop) {
            int ok = 0, sms = 0, per_sm = 0;
            GCUT_CUDA_CHECK(cudaDeviceGetAttribute(&ok, cudaDevAttrCooperativeLaunch, q.dev));
            GCUT_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, q.dev));
            GCUT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &per_sm, span_bfs_kernel<ND, D3>, kThreads, 0));
            q.coop_blocks = ok ? per_sm * sms : 0;
        }
    }
    /* Relabels in rounds of cooperative launches where every part can,
     * else launch by launch with a barrier between steps. */
    int coop = 1;
    for (int k = 0; k < np; k++)
        coop &= S.part[k].coop_blocks > 0;
    ON(S.part[0].dev);
    for (int i = 0; i < 3; i++)
        GCUT_CUDA_CHECK(cudaEventCreate(&S.ev[i]));

    /* Upload, one thread per part, then the initial preflow. */
    if ((st = gcut_cu_poll(opt, "upload", -1, NULL)) != GCUT_OK)
        return st;
    const double t_up = gcut_cu_now();
    if ((st = copy_parts(S, p, 1, NULL, NULL)) != GCUT_OK)
        return st;
    const double up_ms = gcut_cu_now() - t_up;
    double transfer_ms = up_ms;
    for (int k = 0; k < np; k++) {
        Part &q = S.part[k];
        ON(q.dev);
        init_kernel<ND, D3><<<(unsigned)(q.t1 - q.t0), kThreads, 0, q.stream>>>(
            q.g, (const int *)g.mask, g.lab);
        GCUT_CUDA_CHECK_LAUNCH(q.stream);
    }
    if ((st = barrier(S)) != GCUT_OK || (st = sync_all(S)) != GCUT_OK)
        return st;
    const double t_solve = gcut_cu_now();
    sol->stats->init_ms = t_solve - t_start;

    /* Phase I, as the one-GPU engine's cold start. */
    SpanRun R;
    memset(&R, 0, sizeof R);
    R.opt = opt;
    int launches = prm->launches > 0 ? prm->launches : 2;
    for (;;) {
        u64 active = 0;
        ON(S.part[0].dev);
        GCUT_CUDA_CHECK(cudaEventRecord(S.ev[1], S.part[0].stream));
        st = coop ? span_relabel_rounds<ND, D3>(S, R, &active) : span_relabel<ND, D3>(S, R, &active);
        if (st != GCUT_OK)
            return st;
        ON(S.part[0].dev);
        GCUT_CUDA_CHECK(cudaEventRecord(S.ev[2], S.part[0].stream));
        if (R.push_launches > 0 && prm->launches == 0) {
            GCUT_CUDA_CHECK(cudaEventSynchronize(S.ev[2]));
            float push_ms = 0, bfs_ms = 0;
            GCUT_CUDA_CHECK(cudaEventElapsedTime(&push_ms, S.ev[0], S.ev[1]));
            GCUT_CUDA_CHECK(cudaEventElapsedTime(&bfs_ms, S.ev[1], S.ev[2]));
            if (bfs_ms > push_ms && launches < 1024)
                launches *= 2;
            else if (bfs_ms * 8 < push_ms && launches > 1)
                launches /= 2;
        }
        if (active == 0)
            break;
        if ((st = gcut_cu_poll(opt, "solve", (int64_t)active, "active nodes")) != GCUT_OK)
            return st;
        ON(S.part[0].dev);
        GCUT_CUDA_CHECK(cudaEventRecord(S.ev[0], S.part[0].stream));
        if ((st = push_launches<ND, D3>(S, launches, prm->sweeps)) != GCUT_OK)
            return st;
        R.push_launches += launches;
    }
    const double t_cut = gcut_cu_now();
    sol->stats->solve_ms = t_cut - t_solve;
    if ((st = gcut_cu_poll(opt, "cut", -1, NULL)) != GCUT_OK)
        return st;

    /* The cut, each part's nodes on its thread; the flow. */
    for (int k = 0; k < np; k++) {
        Part &q = S.part[k];
        ON(q.dev);
        if (q.v1 > q.v0) {
            span_cut_kernel<<<blocks_of(q.v1 - q.v0), 256, 0, q.stream>>>(q.g, d_cut, q.v0, q.v1);
            GCUT_CUDA_CHECK_LAUNCH(q.stream);
        }
        GCUT_CUDA_CHECK(cudaMemcpyAsync(S.h_acc + k * ACC_SLOTS, q.acc, 2 * sizeof(u64),
                                        cudaMemcpyDeviceToHost, q.stream));
    }
    const double t_dl = gcut_cu_now();
    if ((st = copy_parts(S, p, 0, sol->cut, d_cut)) != GCUT_OK)
        return st;
    transfer_ms += gcut_cu_now() - t_dl;
    u64 flow = 0;
    for (int k = 0; k < np; k++)
        flow += S.h_acc[k * ACC_SLOTS + ACC_FLOW];
    sol->flow = (int64_t)flow;
    sol->stats->cut_ms = gcut_cu_now() - t_cut;
    sol->stats->transfer_ms = transfer_ms;
    sol->stats->rounds = R.push_launches;
    sol->stats->global_relabels = R.relabels;
    sol->stats->threads = g.ntiles * kThreads;
    sol->stats->warm_start = 0;
    gcut_cu_host->log(opt, GCUT_LOG_INFO,
                      "cuda-grid: %dx%dx%d conn %d on %d GPUs (%d parts): flow %lld, %lld push "
                      "launches, %lld relabels (%lld rounds, %lld BFS steps), init %.2f ms "
                      "(upload %.2f), solve %.2f ms, cut %.2f ms",
                      p->width, p->height, p->depth, p->connectivity, S.ndist, np,
                      (long long)sol->flow, (long long)R.push_launches, (long long)R.relabels,
                      (long long)R.rounds, (long long)R.bfs_launches, sol->stats->init_ms, up_ms,
                      sol->stats->solve_ms, sol->stats->cut_ms);
    return GCUT_OK;
}

} /* namespace gcut_grid_span */

using namespace gcut_grid_span;

extern "C" gcut_status gcut_cu_grid_span_solve(const gcut_grid_problem *p,
                                               const gcut_solve_options *opt,
                                               const gcut_cu_grid_params *prm, gcut_solution *sol)
{
    int count = 0;
    GCUT_CUDA_CHECK(cudaGetDeviceCount(&count));
    for (int i = 0; i < prm->ndevices; i++)
        if (prm->devices[i] >= count)
            return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                                "cuda-grid: devices=: device %d does not exist (%d CUDA device%s)",
                                (int)prm->devices[i], count, count == 1 ? "" : "s");
    Span S;
    if (cudaGetDevice(&S.prev_dev) != cudaSuccess) {
        (void)cudaGetLastError();
        S.prev_dev = -1;
    }
    gcut_status st = drv_load(&S.drv);
    if (st != GCUT_OK)
        return st;
    switch (p->connectivity) {
    case 4:
        return span_run<4, false>(S, p, opt, prm, sol);
    case 8:
        return span_run<8, false>(S, p, opt, prm, sol);
    case 6:
        return span_run<6, true>(S, p, opt, prm, sol);
    case 18:
        return span_run<18, true>(S, p, opt, prm, sol);
    case 26:
        return span_run<26, true>(S, p, opt, prm, sol);
    default:
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: connectivity %d", p->connectivity);
    }
}
