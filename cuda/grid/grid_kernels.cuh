/*
 * grid_kernels.cuh - the device code of cuda-grid: push-relabel on a
 * lattice in shared-memory tiles, the global relabel as a tiled
 * Bellman-Ford wave from the sink, and the warm-start repairs.
 *
 *   A. V. Goldberg and R. E. Tarjan, "A new approach to the maximum-flow
 *   problem", J. ACM 35(4), 1988 (push-relabel);
 *   B. Hong and Z. He, "An asynchronous multithreaded algorithm for the
 *   maximum network flow problem with nonblocking global relabeling
 *   heuristic", IEEE TPDS 22(6), 2011 (tiles that run at the same time
 *   exchange flow through atomics only, with labels read when they come);
 *   V. Vineet and P. J. Narayanan, "CUDA cuts: fast graph cuts on the
 *   GPU", CVPR workshops 2008 (tiles of the image in a thread block,
 *   several local sweeps per launch);
 *   P. Kohli and P. H. S. Torr, "Dynamic graph cuts for efficient
 *   inference in Markov random fields", PAMI 29(12), 2007 (the repair of
 *   a flow after capacity changes, used for warm re-solves).
 *
 * Layout (structure of arrays, node v = x + W * (y + H * z) as grid.h):
 *   res[d * n + v]  residual of the arc from v in direction d (uint32: the
 *                   two arcs of a pair sum to cap + rev_cap < 2^32);
 *                   0 for directions leaving the grid;
 *   rs[v]           residual of v's arc to the sink (uint64: warm repairs
 *                   may add to it);
 *   ex[v]           excess (int64, >= 0 outside the repair kernels);
 *   lab[v]          distance label, `dead` (= n + 1) for "cannot reach the
 *                   sink". There is no source node: the source arcs stay
 *                   saturated and their flow is the initial excess, so the
 *                   algorithm computes a maximum preflow, and excess that
 *                   cannot reach the sink stays where it is. That does not
 *                   change the canonical cut (the nodes that can reach the
 *                   sink in the residual graph are the same for every
 *                   maximum preflow).
 *
 * The push kernel. A block owns a tile of TX x TY x TZ nodes, one thread
 * per node, and loads the tile's residuals and the labels of the tile and
 * a one-node halo into shared memory. It then runs up to `sweeps`
 * synchronous push-relabel rounds on the shared copy (Goldberg-Tarjan's
 * parallel form, as cpu-grid-pr): (A) every active node pushes on its
 * admissible arcs, labels fixed; (B) arrivals are added, and a node still
 * active without an admissible arc computes its new label; (C) labels are
 * published. In A an arc pair v-x is admissible for at most one of v and
 * x, so residuals need no atomics; arriving excess goes to a separate
 * accumulator (one shared atomic per push). Barriers separate the phases,
 * so shared memory has no races. A push to a halo node (another tile)
 * goes straight to global memory with atomics (its excess and the residual
 * of the arc back). At the end the block adds to global memory the
 * *difference* between its final and its loaded residuals and excesses
 * (atomics): whatever other tiles added to this tile's nodes meanwhile is
 * kept. Only the owner of a node lowers its excess or the residuals of its
 * outgoing arcs, and others only raise them, so every value a block works
 * with is at most the true one and nothing can go negative: the preflow
 * stays valid under any interleaving of blocks.
 * Labels of other tiles are read once per launch, so they may be stale
 * (too low), and a lift may miss an arc that another tile opened: labels
 * inside a push phase are heuristics. Correctness does not rest on them:
 * the driver stops only after an exact global relabel finds no node with
 * excess that can reach the sink (a maximum preflow).
 *
 * The global relabel. The labels of a BFS from the sink over reverse
 * residual arcs are the least fixed point of lab(v) = min(lab(x) + 1) over
 * residual arcs v -> x (lab = 1 for nodes with a residual sink arc), so a
 * Bellman-Ford relaxation reaches them in any order. A block relaxes its
 * tile in shared memory until the tile is stable, then writes back; the
 * launch is repeated until no tile changes. A tile whose 3 x 3 (x 3)
 * neighbourhood did not change in the last launch is skipped. Nodes never
 * reached keep `dead`: the gap heuristic comes free.
 */
#ifndef GCUT_CU_GRID_KERNELS_CUH
#define GCUT_CU_GRID_KERNELS_CUH

#include <stdint.h>

#include <cooperative_groups.h>

#include "grid/grid_tuning.h"

/* Everything here has internal linkage (an unnamed namespace): the grid
 * solve and the device moves (cuda/vision/mrf_launch.cu) each compile their
 * own copy. */
namespace gcut_grid_cu {
namespace {

namespace cg = cooperative_groups;

typedef unsigned long long u64;

/* Tile shapes: 512 threads, one node each. A 2D tile is 32 x 16 so that
 * a warp reads one row of 32 consecutive nodes (coalesced). */
template <bool D3> struct Tile;
template <> struct Tile<false> {
    static constexpr int X = 32, Y = 16, Z = 1;
    static constexpr int HX = X + 2, HY = Y + 2, HZ = 1;
};
template <> struct Tile<true> {
    static constexpr int X = 8, Y = 8, Z = 8;
    static constexpr int HX = X + 2, HY = Y + 2, HZ = Z + 2;
};
constexpr int kThreads = GCUT_CU_GRID_THREADS;

/* Slots of the accumulator array acc[] (u64, device). */
enum {
    ACC_FLOW = 0,   /* flow into the sink, the cancelled terminal flow included */
    ACC_OFFSET = 1, /* capacity added to both terminal arcs by warm repairs */
    ACC_ACTIVE = 2, /* active nodes counted by the last count_kernel */
    /* slot 3 unused */
    ACC_STEPS = 4,       /* steps of the last cooperative relabel */
    ACC_RING = 5,        /* 5..8: changed tiles per step of the cooperative relabel */
    ACC_CHANGED = 9,     /* 9 + k: tiles changed by BFS launch k of a batch */
    ACC_SLOTS = 9 + 64
};

/* Direction offsets of the problem (grid.h's table), per solve. */
__constant__ int c_dx[26], c_dy[26], c_dz[26];

struct Dev {
    int W, H, D;
    int n;
    int dead;
    int tiles_x, tiles_y, tiles_z, ntiles;
    unsigned *res;          /* nd * n */
    u64 *rs;                /* n */
    long long *ex;          /* n */
    int *lab;               /* n */
    unsigned *mask;         /* n: residual directions, for the BFS */
    unsigned char *tflag;   /* 2 * ntiles: tile changed in the last BFS launch */
    u64 *acc;               /* ACC_SLOTS */
    /* A grid spanning several GPUs (grid_span.cu): this launch's tiles
     * start at tile0 (block b takes tile tile0 + b), and the arrays are
     * spread over the devices, so the atomics that another device may
     * race with are system-wide (sys). 0 and 0 for one device. */
    int tile0;
    int sys;
    /* A region of the partitioned solve (grid_region.cu): the first frz_lo
     * and the last frz_hi nodes are its ghost planes, which keep their
     * labels (the neighbours' boundary labels) and take in excess without
     * ever pushing or being relabelled; relabel_keep: a global relabel
     * starts from the labels there are (they only go down) instead of from
     * the sink's neighbours. 0, 0, 0 for a whole grid. */
    int frz_lo, frz_hi;
    int relabel_keep;
};

/* Whether node v is a frozen ghost node (see frz_lo). */
__device__ __forceinline__ bool frozen(const Dev &g, int v)
{
    return v < g.frz_lo || v >= g.n - g.frz_hi;
}

/* An atomic add that may meet another device's atomics on the same word
 * (g.sys: the grid spans GPUs; a uniform branch). */
template <typename T> __device__ __forceinline__ void gadd(const Dev &g, T *at, T v)
{
    if (g.sys)
        atomicAdd_system(at, v);
    else
        atomicAdd(at, v);
}

/* Position of this thread's node. */
template <bool D3> struct Pos {
    int tx, ty, tz;    /* in the tile */
    int bx, by, bz;    /* tile coordinates */
    int x, y, z;       /* in the grid */
    int valid;
    int v;             /* node index (0 when not valid) */
    int center;        /* index of the node in the halo'd label array */
    __device__ Pos(const Dev &g) : Pos(g, g.tile0 + (int)blockIdx.x) {}
    __device__ Pos(const Dev &g, int tile)
    {
        typedef Tile<D3> T;
        const int t = threadIdx.x;
        tx = t % T::X;
        ty = (t / T::X) % T::Y;
        tz = t / (T::X * T::Y);
        bx = tile % g.tiles_x;
        by = (tile / g.tiles_x) % g.tiles_y;
        bz = tile / (g.tiles_x * g.tiles_y);
        x = bx * T::X + tx;
        y = by * T::Y + ty;
        z = bz * T::Z + tz;
        valid = x < g.W && y < g.H && z < g.D;
        v = valid ? x + g.W * (y + g.H * z) : 0;
        center = ((D3 ? tz + 1 : 0) * T::HY + ty + 1) * T::HX + tx + 1;
    }
};

/* Offset of direction d in the halo'd label array. */
template <bool D3> __device__ __forceinline__ int halo_off(int d)
{
    typedef Tile<D3> T;
    return (D3 ? c_dz[d] * T::HY * T::HX : 0) + c_dy[d] * T::HX + c_dx[d];
}

/* Load the labels of the tile and its halo (outside the grid: dead). */
template <bool D3> __device__ void load_halo(const Dev &g, const Pos<D3> &p, int *s_lab)
{
    typedef Tile<D3> T;
    const int nh = T::HX * T::HY * T::HZ;
    for (int i = threadIdx.x; i < nh; i += kThreads) {
        const int hx = i % T::HX, hy = (i / T::HX) % T::HY, hz = i / (T::HX * T::HY);
        const int x = p.bx * T::X + hx - 1, y = p.by * T::Y + hy - 1;
        const int z = D3 ? p.bz * T::Z + hz - 1 : 0;
        const bool in = x >= 0 && x < g.W && y >= 0 && y < g.H && z >= 0 && z < g.D;
        s_lab[i] = in ? g.lab[x + g.W * (y + g.H * z)] : g.dead;
    }
}

/* Sum a per-thread value over the block into one global atomic. */
__device__ __forceinline__ void block_add(u64 *target, u64 value, u64 *s_sum)
{
    if (threadIdx.x == 0)
        *s_sum = 0;
    __syncthreads();
    for (int o = 16; o > 0; o >>= 1)
        value += __shfl_down_sync(0xffffffffu, value, o);
    if ((threadIdx.x & 31) == 0 && value)
        atomicAdd(s_sum, value);
    __syncthreads();
    if (threadIdx.x == 0 && *s_sum)
        atomicAdd(target, *s_sum);
}

/* Two sums at once (block_add twice in a row would reuse s_sum across its
 * own barrier pair). s_sum: 2 entries. */
__device__ __forceinline__ void block_add2(u64 *t0, u64 v0, u64 *t1, u64 v1, u64 *s_sum)
{
    if (threadIdx.x < 2)
        s_sum[threadIdx.x] = 0;
    __syncthreads();
    for (int o = 16; o > 0; o >>= 1) {
        v0 += __shfl_down_sync(0xffffffffu, v0, o);
        v1 += __shfl_down_sync(0xffffffffu, v1, o);
    }
    if ((threadIdx.x & 31) == 0) {
        if (v0)
            atomicAdd(&s_sum[0], v0);
        if (v1)
            atomicAdd(&s_sum[1], v1);
    }
    __syncthreads();
    if (threadIdx.x == 0 && s_sum[0])
        atomicAdd(t0, s_sum[0]);
    if (threadIdx.x == 1 && s_sum[1])
        atomicAdd(t1, s_sum[1]);
}

/* ------------------------------------------------------------ cold start */

/* res holds the uploaded capacities, src / snk the terminal ones: zero the
 * directions leaving the grid, cancel min(source, sink) per node. */
template <int ND, bool D3>
__global__ void __launch_bounds__(kThreads) init_kernel(Dev g, const int *src, const int *snk)
{
    __shared__ u64 s_sum;
    const Pos<D3> p(g);
    u64 cancelled = 0;
    if (p.valid) {
#pragma unroll
        for (int d = 0; d < ND; d++) {
            const int x = p.x + c_dx[d], y = p.y + c_dy[d], z = p.z + c_dz[d];
            if (x < 0 || x >= g.W || y < 0 || y >= g.H || z < 0 || z >= g.D)
                g.res[(size_t)d * g.n + p.v] = 0;
        }
        const int cs = src[p.v], ct = snk[p.v];
        const int m = cs < ct ? cs : ct;
        g.ex[p.v] = cs - m;
        g.rs[p.v] = (u64)(ct - m);
        cancelled = (u64)m;
    }
    block_add(&g.acc[ACC_FLOW], cancelled, &s_sum);
}

/* ---------------------------------------------------------- push phase */

template <int ND, bool D3> __device__ void push_tile(const Dev &g, int tile, int sweeps)
{
    typedef Tile<D3> T;
    constexpr int NT = T::X * T::Y * T::Z;
    constexpr int NH = T::HX * T::HY * T::HZ;
    extern __shared__ __align__(16) unsigned char smem[];
    long long *s_in = (long long *)smem;   /* excess pushed in during the sweep */
    int *s_lab = (int *)(s_in + NT);
    unsigned *s_res = (unsigned *)(s_lab + NH);
    __shared__ u64 s_sum;

    const Pos<D3> p(g, tile);
    const int t = threadIdx.x;
    long long e0 = 0;
    int l = g.dead;
    /* A node that may push and relabel (a ghost of a region may not). */
    const bool mine = p.valid && !frozen(g, p.v);
    if (p.valid) {
        e0 = g.ex[p.v];
        l = g.lab[p.v];
    }
    /* A tile without active nodes has nothing to do this launch. */
    if (!__syncthreads_or(mine && e0 > 0 && l < g.dead))
        return;

    load_halo<D3>(g, p, s_lab);
    s_in[t] = 0;
    unsigned r0[ND];
#pragma unroll
    for (int d = 0; d < ND; d++) {
        r0[d] = p.valid ? g.res[(size_t)d * g.n + p.v] : 0u;
        s_res[d * NT + t] = r0[d];
    }
    u64 rs = p.valid ? g.rs[p.v] : 0;
    long long e = e0;
    u64 to_sink = 0;
    __syncthreads();

    for (int it = 0; it < sweeps; it++) {
        const bool active = mine && e > 0 && l < g.dead;
        if (!__syncthreads_or(active))
            break;
        /* A: push on every admissible arc (labels fixed for the phase). */
        if (active) {
            if (rs > 0 && l == 1) {
                const u64 delta = (u64)e < rs ? (u64)e : rs;
                rs -= delta;
                to_sink += delta;
                e -= (long long)delta;
            }
#pragma unroll
            for (int d = 0; d < ND; d++) {
                if (e == 0)
                    break;
                if (s_lab[p.center + halo_off<D3>(d)] != l - 1)
                    continue;
                const unsigned r = s_res[d * NT + t];
                if (r == 0)
                    continue;
                const unsigned delta = (u64)e < (u64)r ? (unsigned)e : r;
                s_res[d * NT + t] = r - delta;
                e -= delta;
                const int nx = p.tx + c_dx[d], ny = p.ty + c_dy[d], nz = p.tz + c_dz[d];
                if (nx >= 0 && nx < T::X && ny >= 0 && ny < T::Y && nz >= 0 && nz < T::Z) {
                    const int nt = nx + T::X * (ny + T::Y * nz);
                    s_res[(d ^ 1) * NT + nt] += delta;
                    atomicAdd((u64 *)&s_in[nt], (u64)delta);
                } else {
                    const int nv = p.v + c_dx[d] + g.W * (c_dy[d] + g.H * c_dz[d]);
                    gadd(g, &g.res[(size_t)(d ^ 1) * g.n + nv], delta);
                    gadd(g, (u64 *)&g.ex[nv], (u64)delta);
                }
            }
        }
        __syncthreads();
        /* B: take in what arrived; a node still active with no admissible
         * arc left lifts itself to one above its lowest residual neighbour. */
        e += s_in[t];
        s_in[t] = 0;
        int nl = l;
        if (mine && e > 0 && l < g.dead) {
            int best = rs > 0 ? 0 : g.dead;
#pragma unroll
            for (int d = 0; d < ND; d++)
                if (s_res[d * NT + t] > 0) {
                    const int x = s_lab[p.center + halo_off<D3>(d)];
                    best = x < best ? x : best;
                }
            if (best != l - 1)
                nl = best < g.dead - 1 ? best + 1 : g.dead;
        }
        __syncthreads();
        /* C: publish the new labels. */
        if (nl != l) {
            l = nl;
            s_lab[p.center] = l;
        }
    }
    __syncthreads();

    /* Write back the differences (others may have added meanwhile). */
    if (p.valid) {
#pragma unroll
        for (int d = 0; d < ND; d++) {
            const unsigned dr = s_res[d * NT + t] - r0[d];
            if (dr)
                gadd(g, &g.res[(size_t)d * g.n + p.v], dr);
        }
        if (e != e0)
            gadd(g, (u64 *)&g.ex[p.v], (u64)(e - e0));
        g.rs[p.v] = rs;
        g.lab[p.v] = l;
    }
    block_add(&g.acc[ACC_FLOW], to_sink, &s_sum);
}


template <int ND, bool D3>
__global__ void __launch_bounds__(kThreads) push_kernel(Dev g, int sweeps)
{
    push_tile<ND, D3>(g, g.tile0 + (int)blockIdx.x, sweeps);
}

/* ------------------------------------------------------ global relabel */

/* Start of a global relabel, one tile: label 1 for nodes with a residual
 * sink arc, dead for the rest; the residual directions of every node in
 * mask[]; the tile marked changed. Frozen nodes keep their labels and
 * relax nothing (mask 0); with relabel_keep every label is kept. */
template <int ND, bool D3> __device__ void bfs_init_tile(const Dev &g, int tile, int parity)
{
    const Pos<D3> p(g, tile);
    if (p.valid) {
        unsigned m = 0;
        if (!frozen(g, p.v)) {
#pragma unroll
            for (int d = 0; d < ND; d++)
                if (g.res[(size_t)d * g.n + p.v] > 0)
                    m |= 1u << d;
            if (!g.relabel_keep)
                g.lab[p.v] = g.rs[p.v] > 0 ? 1 : g.dead;
        }
        g.mask[p.v] = m;
    }
    if (threadIdx.x == 0)
        g.tflag[parity * g.ntiles + tile] = 1;
}

template <int ND, bool D3>
__global__ void __launch_bounds__(kThreads) bfs_init_kernel(Dev g, int parity)
{
    bfs_init_tile<ND, D3>(g, g.tile0 + (int)blockIdx.x, parity);
}

/* One step of the tiled relaxation on one tile (labels of the halo as they
 * are in global memory now); returns whether the tile changed (the same
 * value in every thread). */
template <int ND, bool D3> __device__ int bfs_tile(const Dev &g, int tile, int parity)
{
    typedef Tile<D3> T;
    __shared__ int s_lab[T::HX * T::HY * T::HZ];
    const Pos<D3> p(g, tile);
    const int t = threadIdx.x;
    /* Skip the tile unless it or a neighbouring tile changed last time. */
    int look = 0;
    if (t < (D3 ? 27 : 9)) {
        const int ox = t % 3 - 1, oy = (t / 3) % 3 - 1, oz = D3 ? t / 9 - 1 : 0;
        const int bx = p.bx + ox, by = p.by + oy, bz = p.bz + oz;
        if (bx >= 0 && bx < g.tiles_x && by >= 0 && by < g.tiles_y && bz >= 0 && bz < g.tiles_z)
            look = g.tflag[parity * g.ntiles + bx + g.tiles_x * (by + g.tiles_y * bz)];
    }
    if (!__syncthreads_or(look)) {
        if (t == 0)
            g.tflag[(parity ^ 1) * g.ntiles + tile] = 0;
        return 0;
    }
    load_halo<D3>(g, p, s_lab);
    const unsigned m = p.valid ? g.mask[p.v] : 0u;
    __syncthreads();
    int l = p.valid ? s_lab[p.center] : g.dead;
    const int l0 = l;
    /* Jacobi sweeps: read the neighbours' labels, then (after a barrier)
     * publish. Each sweep moves the wave one step; the tile is done when a
     * sweep changes nothing. */
    for (int it = 0; it < T::X * T::Y * T::Z; it++) {
        int best = l;
#pragma unroll
        for (int d = 0; d < ND; d++)
            if (m & (1u << d)) {
                const int nl = s_lab[p.center + halo_off<D3>(d)];
                if (nl < best - 1)
                    best = nl + 1;
            }
        const bool c = best < l;
        __syncthreads();
        if (c) {
            l = best;
            s_lab[p.center] = l;
        }
        if (!__syncthreads_or(c))
            break;
    }
    const bool changed = l < l0;
    if (changed)
        g.lab[p.v] = l;
    const int any = __syncthreads_or(changed);
    if (t == 0)
        g.tflag[(parity ^ 1) * g.ntiles + tile] = (unsigned char)(any != 0);
    /* s_lab is reused by the block's next tile: nobody may still read it. */
    __syncthreads();
    return any;
}

/* One launch of the tiled relaxation; `slot` counts the changed tiles. */
template <int ND, bool D3>
__global__ void __launch_bounds__(kThreads) bfs_kernel(Dev g, int parity, int slot)
{
    if (bfs_tile<ND, D3>(g, g.tile0 + (int)blockIdx.x, parity) && threadIdx.x == 0)
        atomicAdd(&g.acc[ACC_CHANGED + slot], 1ull);
}

/* The whole global relabel in one cooperative launch (small grids, where
 * launches and host round trips would dominate): blocks take tiles in turn,
 * a grid barrier separates the steps, and the step's changed-tile count
 * (a ring of four slots: slot k is cleared two steps after it was read, so
 * no block can still be reading it) ends the loop when zero. Then the
 * active nodes are counted (ACC_ACTIVE, cleared by the host) and the
 * number of steps is left in ACC_STEPS. */
template <int ND, bool D3>
__global__ void __launch_bounds__(kThreads) bfs_coop_kernel(Dev g, int max_steps)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ u64 s_sum;
    for (int tile = blockIdx.x; tile < g.ntiles; tile += gridDim.x)
        bfs_init_tile<ND, D3>(g, tile, 0);
    grid.sync();
    int parity = 0, step = 0;
    for (; step < max_steps; step++) {
        if (blockIdx.x == 0 && threadIdx.x == 0)
            g.acc[ACC_RING + (step + 2) % 4] = 0;
        int any = 0;
        for (int tile = blockIdx.x; tile < g.ntiles; tile += gridDim.x)
            any |= bfs_tile<ND, D3>(g, tile, parity);
        if (threadIdx.x == 0 && any)
            atomicAdd(&g.acc[ACC_RING + step % 4], 1ull);
        grid.sync();
        parity ^= 1;
        if (((volatile u64 *)g.acc)[ACC_RING + step % 4] == 0)
            break;
    }
    u64 c = 0;
    for (int v = blockIdx.x * kThreads + threadIdx.x; v < g.n; v += gridDim.x * kThreads)
        c += g.ex[v] > 0 && g.lab[v] < g.dead && !frozen(g, v);
    block_add(&g.acc[ACC_ACTIVE], c, &s_sum);
    if (blockIdx.x == 0 && threadIdx.x == 0)
        g.acc[ACC_STEPS] = (u64)step + 1;
}

/* Count the nodes with excess that can reach the sink (after a relabel). */
__global__ void count_kernel(Dev g)
{
    __shared__ u64 s_sum;
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    u64 c = 0;
    if (v < g.n)
        c = g.ex[v] > 0 && g.lab[v] < g.dead && !frozen(g, v);
    block_add(&g.acc[ACC_ACTIVE], c, &s_sum);
}

/* The canonical cut: the sink side is what the last relabel reached. */
__global__ void cut_kernel(Dev g, unsigned char *cut)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < g.n)
        cut[v] = g.lab[v] < g.dead ? 1 : 0; /* GCUT_SINK : GCUT_SOURCE */
}

/* The same cut as a foreground mask: 1 on the source side, 0 on the sink
 * side (device grids with GCUT_DEVICE_CUT_MASK, read as a bool array). */
__global__ void cut_fg_kernel(Dev g, unsigned char *mask)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < g.n)
        mask[v] = g.lab[v] < g.dead ? 0 : 1;
}

/* ------------------------------------------------------------ warm start */

/* Changes, merged on the host: one record per node with terminal deltas,
 * one per arc pair (v, even direction d) with the deltas of both arcs. */
struct TermChange {
    int v;
    long long dsrc, dsnk;
};
struct PairChange {
    int v, d;
    long long dfwd, drev;
};

/* Apply the deltas (Kohli-Torr): a lowered capacity below the flow it
 * carries sends the surplus back as excess to the arc's tail (which may
 * leave a negative excess at the head, fixed by fix_kernel). Every record
 * is the only writer of its residuals; excesses take atomics. */
__global__ void change_kernel(Dev g, const TermChange *tc, int ntc, const PairChange *pc, int npc)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < ntc) {
        const TermChange c = tc[i];
        if (c.dsrc)
            atomicAdd((u64 *)&g.ex[c.v], (u64)c.dsrc);
        if (c.dsnk) {
            const long long r = (long long)g.rs[c.v] + c.dsnk;
            if (r < 0) {
                /* The sink arc carried more than its new capacity: the
                 * surplus returns to v as excess and leaves the flow. */
                atomicAdd((u64 *)&g.ex[c.v], (u64)(-r));
                atomicAdd(&g.acc[ACC_FLOW], (u64)r);
                g.rs[c.v] = 0;
            } else {
                g.rs[c.v] = (u64)r;
            }
        }
    } else if (i < ntc + npc) {
        const PairChange c = pc[i - ntc];
        const int x = c.v + c_dx[c.d] + g.W * (c_dy[c.d] + g.H * c_dz[c.d]);
        unsigned *pf = &g.res[(size_t)c.d * g.n + c.v];
        unsigned *pr = &g.res[(size_t)(c.d ^ 1) * g.n + x];
        long long f = (long long)*pf + c.dfwd, r = (long long)*pr + c.drev;
        if (f < 0) { /* flow v -> x above the new capacity */
            atomicAdd((u64 *)&g.ex[c.v], (u64)(-f));
            atomicAdd((u64 *)&g.ex[x], (u64)f);
            r += f;
            f = 0;
        } else if (r < 0) { /* flow x -> v above the new capacity */
            atomicAdd((u64 *)&g.ex[x], (u64)(-r));
            atomicAdd((u64 *)&g.ex[c.v], (u64)r);
            f += r;
            r = 0;
        }
        *pf = (unsigned)f;
        *pr = (unsigned)r;
    }
}

/* The terminal changes of a rewrite of many t-links (a GrabCut iteration,
 * re-learnt colour models) as two dense arrays, one net delta per node and
 * terminal (the sum of the node's changes; the capacities are int32, so
 * the net delta fits one too): the rule of change_kernel's terminal
 * records, one thread per node. The flow that leaves with lowered sink
 * capacities is summed per block. */
__global__ void dense_change_kernel(Dev g, const int *dsrc, const int *dsnk)
{
    __shared__ u64 s_sum;
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    u64 back = 0; /* flow returned to v, taken off the flow value */
    if (v < g.n) {
        const long long ds = dsrc[v], dt = dsnk[v];
        long long e = g.ex[v] + ds;
        if (dt) {
            const long long r = (long long)g.rs[v] + dt;
            if (r < 0) {
                e += -r;
                back = (u64)(-r);
                g.rs[v] = 0;
            } else {
                g.rs[v] = (u64)r;
            }
        }
        g.ex[v] = e;
    }
    block_add(&g.acc[ACC_FLOW], (u64)0 - back, &s_sum);
}

/* A negative excess is a deficit: add it to both terminal arcs of the node
 * (every cut grows by the same amount, so the minimum cuts are unchanged)
 * and remember the amount, to be taken off the flow value. */
__global__ void fix_kernel(Dev g)
{
    __shared__ u64 s_sum;
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    u64 added = 0;
    if (v < g.n) {
        const long long e = g.ex[v];
        if (e < 0) {
            g.ex[v] = 0;
            g.rs[v] += (u64)(-e);
            added = (u64)(-e);
        }
    }
    block_add(&g.acc[ACC_OFFSET], added, &s_sum);
}


__global__ void probe_kernel() {}

} /* unnamed namespace */
} /* namespace gcut_grid_cu */

#endif /* GCUT_CU_GRID_KERNELS_CUH */
