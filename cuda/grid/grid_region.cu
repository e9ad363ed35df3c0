/*
 * grid_region.cu - one region of the region-partitioned grid max-flow
 * (lib/dist/, docs/distributed.md) kept on the device: the extension
 * "gcut.grid.region" of gcut/plugin.h, offered with cuda-grid.
 *
 * The same six operations as lib/dist/region.c (discharge, region-local
 * relabel, reset of the ghost labels, pack, unpack, cut), on device
 * buffers in cuda-grid's layout over the own nodes and the two ghost
 * planes (index -plane .. nodes + plane - 1): res[d * ns + v] the
 * residual of arc v -> v + step[d] (uint32, ns = nodes + 2 plane),
 * exc[v] (int64), rs[v] the sink residual (uint64), the labels with a
 * pad beyond each ghost plane (lab = lab_mem + plane + pad), and four
 * message buffers. Flow pushed into a ghost node is kept in the ghost's
 * residual of the arc back, which the pack sends and clears. The initial
 * state is built here from the capacities (host or device memory, copied
 * in place; init_kernel gives the arcs that leave the grid residual 0 and
 * makes the preflow as region.c's region_fill does), so no host copy of
 * the state is made. A region lives on one device (every operation makes
 * it current, then restores the caller's); a solve's device group
 * (streams, NCCL communicators) moves the boundary messages between
 * regions, on one device or several.
 *
 * Two discharges (gcut_grid_region_init.discharge):
 * - GCUT_GRID_REGION_PR, the default ("the tiled discharge" below):
 *   cuda-grid's own kernels and driver (grid_kernels.cuh,
 *   grid_engine.cuh) on the region with its ghost planes as the engine's
 *   grid, the ghost nodes frozen (Dev.frz_lo, frz_hi): phase I from the
 *   labels there are, exact region relabels in one cooperative launch.
 * - GCUT_GRID_REGION_JACOBI ("jacobi"), written first to be simple and
 *   obviously correct, not fast: one thread per own node, every kernel
 *   on the legacy default stream, synchronous copies. Blocks of kBlock
 *   nodes carry flags (an active node; flow received in this iteration)
 *   so that the kernels leave idle blocks at once, and the host reads the
 *   active count every kBatch iterations. The host emulation of the
 *   kernels (scripts/region-emu) runs this one.
 *
 * The jacobi discharge is the synchronous push-relabel of Goldberg and
 * Tarjan's parallel form, restricted to the region with the ghost labels
 * fixed, in three kernels per iteration:
 *   A (push): labels are read only. Every active own node v (exc > 0,
 *     lab < d_inf) pushes from its excess at the start of the phase: to
 *     the sink when lab = 1, then on each admissible arc v -> w (residual
 *     > 0, lab(v) = lab(w) + 1). Only v lowers exc[v], rs[v] and its
 *     own arcs' residuals; arriving flow goes to the residual of the arc
 *     back (atomics) and, for an own w, to a separate array inc[]
 *     (atomics). An arc pair v-w is admissible for at most one of
 *     v and w (their labels differ by exactly 1 in one direction), so no
 *     residual is both lowered and raised in one phase, and every push
 *     moves at most what its tail holds: each is a valid push.
 *   B (relabel): exc += inc; an active node with no admissible arc takes
 *     1 + the least label over its residual arcs (1 with sink residual,
 *     capped at d_inf), written to a second label array, the labels read
 *     being the old ones. With valid labels that value is >= the old
 *     label (> when there is no admissible arc), so labels only grow, and
 *     they stay valid when neighbours relabel at the same time: for a
 *     residual arc v -> w, new(v) <= old(w) + 1 <= new(w) + 1.
 *   C: the new labels are published; the active own nodes are counted.
 * Every iteration with an active node pushes or relabels, labels are
 * bounded by d_inf, so the loop ends (Goldberg-Tarjan), with no own node
 * active. Ghost labels never change and only the region's own arcs and
 * the ghosts' arcs back are written: it is the region discharge of region.c in another
 * order, which the driver's exactness argument allows (any valid sequence
 * of pushes and relabels). Every RELABEL_EVERY iterations the region-local
 * exact relabel below runs (labels only grow), so that excess cut off
 * from the sink goes to d_inf at once instead of rising one step per
 * iteration.
 *
 * The jacobi region-local relabel (exact distances to the sink within the
 * region with the ghost labels as fixed distances) is a breadth-first search by
 * levels: start from 1 at nodes with sink residual and ghost label + 1 at
 * boundary nodes with a residual arc into a ghost; then for L = the least
 * label above the last level, each node at level L gives its residual
 * predecessors L + 1 (atomicMin). Nodes at level L are final when L is
 * expanded (all lower levels are done), so this is Dijkstra with unit
 * weights; one expansion kernel and one minimum kernel per level.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mutex>

#include "grid/grid_internal.h"
#ifndef GCUT_REGION_EMU
#include "grid/grid_engine.cuh"
#endif

/* NCCL moves the boundary messages between the GPUs of one node. Its header
 * comes with the CUDA toolkit here; the library is opened at run time (the
 * plugin needs nothing but the driver until several devices are asked for). */
#if defined(__has_include)
#if __has_include(<nccl.h>)
#include <nccl.h>
#define GCUT_CU_HAVE_NCCL 1
#endif
#endif

namespace {

typedef unsigned long long u64;

constexpr int kBlock = 256;
constexpr int kRelabelEvery = 32; /* discharge iterations between region-local relabels */
constexpr int kBatch = 8;         /* discharge iterations between reads of the active count */

/* Counters on the device. */
enum { C_FLOW = 0, C_PUSHES, C_RELABELS, C_COUNT, C_MIN, C_NEG, C_NEXT, C_SLOTS };

/* What every kernel reads: the geometry and the device arrays. */
struct R {
    int n, P, pad, nd, ncross, d_inf, has_lo, has_hi;
    int ns;                /* n + 2 P: the nodes with the two ghost planes */
    int step[26];
    int up[9], down[9];
    unsigned *res;         /* res_mem + P: res[d * ns + v], v in -P .. n + P - 1 */
    long long *exc;        /* ex_mem + P: exc[-P .. n + P - 1] */
    u64 *inc;              /* n: flow arriving during a push phase (jacobi) */
    u64 *rs;               /* rs_mem + P: the sink arcs' residuals */
    int *lab;              /* lab_mem + P + pad: lab[-P-pad .. n+P+pad-1] */
    int *lab2;             /* n: new labels, or the relabel's distances (jacobi) */
    u64 *ctr;              /* C_SLOTS */
    /* Block flags of the discharge (a block: kBlock consecutive own nodes):
     * act, blocks with an active node at the start of this iteration;
     * rcv, blocks that receive flow in it; the _next ones for the next
     * iteration (the host swaps the pairs). A block with neither flag has
     * nothing to do, and the kernels leave it at once. */
    unsigned char *act, *act_next, *rcv, *rcv_next;
    /* Block flags of the region-local relabel: lvl_cur, blocks with a node
     * whose distance the last level set (the next level's nodes are there
     * or in seedblk); lvl_next, those of this level; seedblk, blocks with
     * a ghost seed (distance > 1, fixed before the search). */
    unsigned char *lvl_cur, *lvl_next, *seedblk;
};

struct Tiled;

struct Region {
    R r;
    Tiled *tl;            /* the tiled discharge's state (tiled) */
    int device;           /* the CUDA ordinal that holds it */
    int tiled;            /* 1: cuda-grid's kernels discharge and relabel (tiles) */
    unsigned char *flags; /* jacobi: 7 * blocks(n): act[2], rcv[2], lvl[2], seedblk */
    int parity;           /* which of each pair is this iteration's */
    int relabel_every;    /* discharge iterations between region-local relabels */
    unsigned *res_mem;    /* nd * ns */
    long long *ex_mem;    /* ns */
    u64 *rs_mem;          /* ns */
    unsigned *mask;       /* ns: the tiled relabel's residual directions */
    int *lab_mem;
    unsigned char *msg; /* 4 message buffers */
    size_t msg_bytes;   /* with flows */
    unsigned char *cut; /* n bytes */
    /* Host-side times (ms) of discharges and region-local relabels, the
     * discharge iterations and the relabels' levels (region_profile). */
    double prof[4];
};

int blocks(long long n) { return (int)((n + kBlock - 1) / kBlock); }

/* The region's device current for one operation (the driver may call from
 * any thread, and one process may hold regions on several devices); the
 * caller's device is current again afterwards. */
struct DeviceScope {
    int prev = -1;
    cudaError_t err = cudaSuccess;
    explicit DeviceScope(int dev)
    {
        if (cudaGetDevice(&prev) != cudaSuccess)
            prev = -1;
        if (prev != dev)
            err = cudaSetDevice(dev);
    }
    ~DeviceScope()
    {
        int cur;
        if (prev >= 0 && cudaGetDevice(&cur) == cudaSuccess && cur != prev)
            (void)cudaSetDevice(prev);
    }
    DeviceScope(const DeviceScope &) = delete;
    DeviceScope &operator=(const DeviceScope &) = delete;
};
#define ON_DEVICE(dev)                                                                             \
    DeviceScope device_scope_(dev);                                                                \
    GCUT_CUDA_CHECK(device_scope_.err)

__device__ __forceinline__ int own(const R &r, long long u) { return u >= 0 && u < r.n; }

/* Phase A: pushes with the labels fixed. */
__global__ void push_kernel(R r)
{
    if (!r.act[blockIdx.x])
        return;
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= r.n)
        return;
    const int dv = r.lab[v];
    long long e = r.exc[v];
    if (e <= 0 || dv >= r.d_inf)
        return;
    u64 pushes = 0;
    if (dv == 1 && r.rs[v] > 0) {
        const long long delta = (u64)e < r.rs[v] ? e : (long long)r.rs[v];
        r.rs[v] -= (u64)delta;
        e -= delta;
        atomicAdd(&r.ctr[C_FLOW], (u64)delta);
        pushes++;
    }
    for (int d = 0; d < r.nd && e > 0; d++) {
        const long long u = (long long)v + r.step[d];
        if (r.lab[u] != dv - 1)
            continue;
        const unsigned rv = r.res[(long long)d * r.ns + v];
        if (rv == 0)
            continue;
        const unsigned delta = e < (long long)rv ? (unsigned)e : rv;
        r.res[(long long)d * r.ns + v] = rv - delta;
        e -= delta;
        pushes++;
        /* The arc back; a ghost's keeps the flow pushed into it (pack). */
        atomicAdd(&r.res[(long long)(d ^ 1) * r.ns + u], delta);
        if (own(r, u)) {
            atomicAdd(&r.inc[u], (u64)delta);
            r.rcv[u / kBlock] = 1;
        }
    }
    r.exc[v] = e;
    atomicAdd(&r.ctr[C_PUSHES], pushes);
}

/* Phase B: arrivals, then the relabel of active nodes with no admissible arc. */
__global__ void relabel_kernel(R r)
{
    if (threadIdx.x == 0) { /* the next iteration's flags start clear */
        r.act_next[blockIdx.x] = 0;
        r.rcv_next[blockIdx.x] = 0;
    }
    if (!r.act[blockIdx.x] && !r.rcv[blockIdx.x])
        return;
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= r.n)
        return;
    const long long e = r.exc[v] + (long long)r.inc[v];
    r.inc[v] = 0;
    r.exc[v] = e;
    const int dv = r.lab[v];
    int nl = dv;
    if (e > 0 && dv < r.d_inf) {
        int best = r.rs[v] > 0 ? 1 : r.d_inf;
        for (int d = 0; d < r.nd; d++) {
            if (r.res[(long long)d * r.ns + v] == 0)
                continue;
            const int lu = r.lab[(long long)v + r.step[d]];
            if (lu < best - 1)
                best = lu + 1;
        }
        if (best > dv) {
            nl = best;
            atomicAdd(&r.ctr[C_RELABELS], 1ull);
        }
    }
    r.lab2[v] = nl;
}

/* Phase C: publish the labels, count the active nodes. */
__global__ void publish_kernel(R r)
{
    if (!r.act[blockIdx.x] && !r.rcv[blockIdx.x])
        return;
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= r.n)
        return;
    const int l = r.lab2[v];
    r.lab[v] = l;
    if (r.exc[v] > 0 && l < r.d_inf) {
        atomicAdd(&r.ctr[C_COUNT], 1ull);
        r.act_next[blockIdx.x] = 1;
    }
}

/* The active nodes, counted, and their blocks flagged in act (cleared
 * before, as rcv). */
__global__ void count_active_kernel(R r)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < r.n && r.exc[v] > 0 && r.lab[v] < r.d_inf) {
        atomicAdd(&r.ctr[C_COUNT], 1ull);
        r.act[blockIdx.x] = 1;
    }
}

/* Relabel, start: 1 at the sink's neighbours, else d_inf, lowered to
 * ghost label + 1 along residual arcs into a ghost of a side that has a
 * neighbour. */
__global__ void bfs_init_kernel(R r)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= r.n)
        return;
    int t = r.rs[v] > 0 && r.d_inf > 1 ? 1 : r.d_inf;
    for (int d = 0; d < r.nd; d++) {
        const long long u = (long long)v + r.step[d];
        if (own(r, u) || r.res[(long long)d * r.ns + v] == 0)
            continue;
        if (u < 0 ? !r.has_lo : !r.has_hi)
            continue;
        const int lu = r.lab[u];
        if (lu < r.d_inf - 1 && lu + 1 < t)
            t = lu + 1;
    }
    r.lab2[v] = t;
    if (t > 1 && t < r.d_inf)
        r.seedblk[v / kBlock] = 1;
}

/* Relabel update, start (the ghost labels only went down since the last
 * relabel, whose exact distances lab holds): lab2 = lab, lowered to ghost
 * label + 1 along residual arcs into a ghost; blocks with a lowered node
 * flagged in seedblk. */
__global__ void bfs_update_init_kernel(R r)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= r.n)
        return;
    int t = r.lab[v];
    const int old = t;
    for (int d = 0; d < r.nd; d++) {
        const long long u = (long long)v + r.step[d];
        if (own(r, u) || r.res[(long long)d * r.ns + v] == 0)
            continue;
        if (u < 0 ? !r.has_lo : !r.has_hi)
            continue;
        const int lu = r.lab[u];
        if (lu < r.d_inf - 1 && lu + 1 < t)
            t = lu + 1;
    }
    r.lab2[v] = t;
    if (t < old)
        r.seedblk[v / kBlock] = 1;
}

/* The least lowered seed distance above level L (C_MIN, set to ~0 before). */
__global__ void bfs_seed_min_kernel(R r, int L)
{
    if (!r.seedblk[blockIdx.x])
        return;
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < r.n) {
        const int t = r.lab2[v];
        if (t < r.lab[v] && t > L && t < r.d_inf)
            atomicMin(&r.ctr[C_MIN], (u64)t);
    }
}

/* The least distance above level L (C_MIN, set to ~0 before). */
__global__ void bfs_min_kernel(R r, int L)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < r.n) {
        const int t = r.lab2[v];
        if (t > L && t < r.d_inf)
            atomicMin(&r.ctr[C_MIN], (u64)t);
    }
}

/* Level L: its nodes give their residual predecessors L + 1; a node so
 * lowered flags its block in lvl_next and C_NEXT (then L + 1 is the next
 * level). With use_flags, only the blocks that can hold level L look:
 * those the previous level lowered a node in, and those with seeds. */
__global__ void bfs_expand_kernel(R r, int L, int use_flags)
{
    if (use_flags && !r.lvl_cur[blockIdx.x] && !r.seedblk[blockIdx.x])
        return;
    const int w = blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= r.n || r.lab2[w] != L || L + 1 >= r.d_inf)
        return;
    for (int d = 0; d < r.nd; d++) {
        /* v -> w is arc d of v = w - step[d]. */
        const long long v = (long long)w - r.step[d];
        if (!own(r, v) || r.res[(long long)d * r.ns + v] == 0)
            continue;
        if (atomicMin(&r.lab2[v], L + 1) > L + 1) {
            r.lvl_next[v / kBlock] = 1;
            r.ctr[C_NEXT] = 1;
        }
    }
}

/* Relabel, end: labels := distances, count the changes. */
__global__ void bfs_store_kernel(R r)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= r.n)
        return;
    const int t = r.lab2[v];
    if (t != r.lab[v]) {
        r.lab[v] = t;
        atomicAdd(&r.ctr[C_COUNT], 1ull);
    }
}

/* Fill `count` ints at p with value. */
__global__ void fill_kernel(int *p, long long count, int value)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        p[i] = value;
}

/* The geometry of the initial state: where own node v lies in the grid. */
struct InitGeo {
    int width, rows;
    long long first, planes;
    signed char dx[26], drow[26], dplane[26];
};

constexpr int kInitNodes = 32; /* consecutive nodes per thread of init_kernel */

/* The initial state from the capacities, copied in place before: res[d]
 * holds cap[d] (arcs that leave the grid get 0), src cap_source and snk
 * cap_sink (staged in arrays filled later). The preflow saturates the
 * source arcs and cancels them against the sink arcs: exc = src - m,
 * rs = snk - m, flow += m, with m = min(src, snk). Negative entries are
 * counted (C_NEG). A thread takes kInitNodes consecutive nodes and adds
 * its flow once. */
__global__ void init_kernel(R r, InitGeo geo, const int *src, const int *snk)
{
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long lo = t * kInitNodes;
    const long long hi = lo + kInitNodes < (long long)r.n ? lo + kInitNodes : (long long)r.n;
    u64 flow = 0, neg = 0;
    for (long long v = lo; v < hi; v++) {
        const long long x = v % geo.width;
        const long long row = (v / geo.width) % geo.rows;
        const long long z = geo.first + v / ((long long)geo.width * geo.rows);
        const int x_edge = x == 0 || x == geo.width - 1;
        const int row_edge = row == 0 || row == geo.rows - 1;
        const int z_edge = z == 0 || z == geo.planes - 1;
        for (int d = 0; d < r.nd; d++) {
            unsigned *p = &r.res[(long long)d * r.ns + v];
            neg += (int)*p < 0;
            if (x_edge || row_edge || z_edge) {
                const long long nx = x + geo.dx[d], nr = row + geo.drow[d],
                                nz = z + geo.dplane[d];
                if (nx < 0 || nx >= geo.width || nr < 0 || nr >= geo.rows || nz < 0 ||
                    nz >= geo.planes)
                    *p = 0;
            }
        }
        const int cs = src[v], ck = snk[v];
        neg += (cs < 0) + (ck < 0);
        const int m = cs < ck ? cs : ck;
        if (m > 0)
            flow += (u64)m;
        r.exc[v] = (long long)cs - m;
        r.rs[v] = (u64)(long long)(ck - m);
    }
    if (flow)
        atomicAdd(&r.ctr[C_FLOW], flow);
    if (neg)
        atomicAdd(&r.ctr[C_NEG], neg);
}

/* Unpack the flows of one side: thread j takes every crossing direction
 * of ghost-facing node base + j (so no two threads touch one node). */
__global__ void unpack_flows_kernel(R r, const unsigned *f, int base, int side)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= r.P)
        return;
    long long sum = 0;
    for (int k = 0; k < r.ncross; k++) {
        const unsigned x = f[(size_t)k * r.P + j];
        if (x == 0)
            continue;
        /* From below the neighbour pushed up: the arc back is down[k]. */
        const int back = side == 0 ? r.down[k] : r.up[k];
        r.res[(long long)back * r.ns + base + j] += x;
        sum += x;
    }
    r.exc[base + j] += sum;
}

/* Pack the flows pushed into the ghost planes since the last pack: thread
 * j takes ghost node j of each side. Own v pushed into the ghost below
 * along down[k], whose arc back is up[k] (= down[k] ^ 1): that residual of
 * the ghost holds the flow; above, along up[k], kept in down[k]. The
 * ghosts' residuals and excesses start again from 0. */
__global__ void pack_flows_kernel(R r, unsigned *lo, unsigned *hi)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= r.P)
        return;
    for (int k = 0; k < r.ncross; k++) {
        unsigned *a = &r.res[(long long)r.up[k] * r.ns + j - r.P];
        unsigned *b = &r.res[(long long)r.down[k] * r.ns + r.n + j];
        lo[(size_t)k * r.P + j] = *a;
        hi[(size_t)k * r.P + j] = *b;
        *a = 0;
        *b = 0;
    }
    r.exc[j - r.P] = 0;
    r.exc[r.n + j] = 0;
}

__global__ void cut_kernel(R r, unsigned char *cut, unsigned char sink, unsigned char source)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < r.n)
        cut[v] = r.lab[v] < r.d_inf ? sink : source;
}

/* ------------------------------------------------------------ host side */

#define LAUNCH(kernel, nb, ...)                                                                    \
    do {                                                                                           \
        kernel<<<(nb), kBlock>>>(__VA_ARGS__);                                                     \
        GCUT_CUDA_CHECK_LAUNCH(0);                                                                 \
    } while (0)

/* The region's arrays with this iteration's block flags. */
R flagged(const Region *g)
{
    R r = g->r;
    const size_t nb = (size_t)blocks(r.n);
    r.act = g->flags + (size_t)g->parity * nb;
    r.act_next = g->flags + (size_t)(g->parity ^ 1) * nb;
    r.rcv = g->flags + (2 + (size_t)g->parity) * nb;
    r.rcv_next = g->flags + (2 + (size_t)(g->parity ^ 1)) * nb;
    return r;
}

gcut_status read_ctr(const R &r, int slot, u64 *out)
{
    GCUT_CUDA_CHECK(cudaMemcpy(out, &r.ctr[slot], sizeof *out, cudaMemcpyDeviceToHost));
    return GCUT_OK;
}

gcut_status zero_ctr(const R &r, int slot)
{
    GCUT_CUDA_CHECK(cudaMemset(&r.ctr[slot], 0, sizeof(u64)));
    return GCUT_OK;
}

#ifndef GCUT_REGION_EMU
/* ------------------------------------------------ the tiled discharge */

/* cuda-grid's own engine on the region's arrays (grid_kernels.cuh,
 * grid_engine.cuh): the engine sees a grid of the own planes with a ghost
 * plane on each side, whose nodes are frozen (Dev.frz_lo, frz_hi: they
 * keep their labels, take in excess and never push). A discharge is the
 * engine's phase I (tiles of pushes in shared memory, the labels of
 * other tiles read as they come, then an exact relabel of the region,
 * the ghosts' labels as fixed distances, and again until no own node
 * with excess reaches the sink or a ghost); the global relabel's rounds
 * are the engine's relabel (one cooperative launch) from the sink's
 * neighbours or, in later rounds, from the labels there are. */
struct Tiled {
    gcut_cu_grid_state es; /* stream, events, pinned accumulators, Dev */
    unsigned char *tflag;  /* 2 * tiles */
    u64 *acc;              /* ACC_SLOTS */
    int *snap;             /* 2 P: the boundary planes' labels before a relabel */
    int launches;          /* the adaptive push launches of the last discharge */
};

/* How many of the two boundary planes' labels differ from the snapshot. */
__global__ void diff_kernel(const int *snap, const int *lo, const int *hi, int P, u64 *count)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < P) {
        const u64 c = (u64)(snap[j] != lo[j]) + (u64)(snap[P + j] != hi[j]);
        if (c)
            atomicAdd(count, c);
    }
}

void tiled_free(Region *g)
{
    Tiled *t = g->tl;
    if (!t)
        return;
    state_close(&t->es);
    (void)cudaFree(t->tflag);
    (void)cudaFree(t->acc);
    (void)cudaFree(t->snap);
    gcut_cu_host->free_fn(t);
    g->tl = NULL;
}

/* Run f<ND, D3>() for the region's connectivity. */
#define TILED_DISPATCH(nd, ...)                                                                   \
    switch (nd) {                                                                                  \
    case 4: { constexpr int ND = 4; constexpr bool D3 = false; __VA_ARGS__; } break;                      \
    case 8: { constexpr int ND = 8; constexpr bool D3 = false; __VA_ARGS__; } break;                      \
    case 6: { constexpr int ND = 6; constexpr bool D3 = true; __VA_ARGS__; } break;                       \
    case 18: { constexpr int ND = 18; constexpr bool D3 = true; __VA_ARGS__; } break;                     \
    case 26: { constexpr int ND = 26; constexpr bool D3 = true; __VA_ARGS__; } break;                     \
    default:                                                                                       \
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid regions: connectivity %d", (int)(nd));   \
    }

gcut_status tiled_new(Region *g, const gcut_grid_region_init *in)
{
    ON_DEVICE(g->device);
    const R &r = g->r;
    Tiled *t = (Tiled *)gcut_cu_host->malloc_fn(sizeof *t);
    if (!t)
        return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-grid regions: cannot allocate a region");
    memset(t, 0, sizeof *t);
    g->tl = t;
    const bool d3 = r.nd == 6 || r.nd == 18 || r.nd == 26;
    const int planes = r.n / r.P + 2;
    Dev d;
    memset(&d, 0, sizeof d);
    d.W = in->width;
    d.H = d3 ? in->rows : planes;
    d.D = d3 ? planes : 1;
    d.n = r.ns;
    d.dead = r.d_inf;
    const int tx = d3 ? 8 : 32, ty = d3 ? 8 : 16, tz = d3 ? 8 : 1;
    d.tiles_x = (d.W + tx - 1) / tx;
    d.tiles_y = (d.H + ty - 1) / ty;
    d.tiles_z = (d.D + tz - 1) / tz;
    const long long ntiles = (long long)d.tiles_x * d.tiles_y * d.tiles_z;
    if (ntiles > INT32_MAX)
        return GCUT_CU_FAIL(GCUT_ERR_OVERFLOW, "cuda-grid regions: too many tiles (%lld)", ntiles);
    d.ntiles = (int)ntiles;
    GCUT_CUDA_CHECK(cudaMalloc((void **)&t->tflag, 2 * (size_t)ntiles + 4));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&t->acc, gcut_grid_cu::ACC_SLOTS * sizeof(u64)));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&t->snap, 2 * (size_t)r.P * sizeof(int)));
    GCUT_CUDA_CHECK(cudaMemset(t->tflag, 0, 2 * (size_t)ntiles + 4));
    GCUT_CUDA_CHECK(cudaMemset(t->acc, 0, gcut_grid_cu::ACC_SLOTS * sizeof(u64)));
    d.res = g->res_mem;
    d.rs = g->rs_mem;
    d.ex = g->ex_mem;
    d.lab = g->lab_mem + r.pad;
    d.mask = g->mask;
    d.tflag = t->tflag;
    d.acc = t->acc;
    d.frz_lo = r.P;
    d.frz_hi = r.P;
    gcut_cu_grid_state &es = t->es;
    /* A blocking stream: it follows the work on the legacy default stream
     * (unpack, reset, the exchanges' copies) and precedes what comes after. */
    gcut_status st = state_open(&es, cudaStreamDefault);
    if (st != GCUT_OK)
        return st;
    es.dev = d;
    for (int i = 0; i < 27; i++)
        es.coop_blocks[i] = -1;
    /* The engine's direction table: x, row, plane in 3-D; x, plane (the
     * rows of a 2-D grid), 0 in 2-D. */
    int32_t off[3 * 26];
    for (int k = 0; k < r.nd; k++) {
        off[3 * k] = in->dir_x[k];
        off[3 * k + 1] = d3 ? in->dir_row[k] : in->dir_plane[k];
        off[3 * k + 2] = d3 ? in->dir_plane[k] : 0;
    }
    if ((st = set_offsets(&es, off, r.nd)) != GCUT_OK)
        return st;
    TILED_DISPATCH(r.nd, st = setup_kernels<ND, D3>(&es));
    if (st != GCUT_OK)
        return st;
    GCUT_CUDA_CHECK(cudaStreamSynchronize(es.stream));
    return GCUT_OK;
}

Run tiled_run(Tiled *t)
{
    Run R;
    memset(&R, 0, sizeof R);
    R.s = &t->es;
    R.opt = NULL;
    R.deadline = 1e300;
    R.coop = 1;
    R.launches = t->launches;
    return R;
}

gcut_status tiled_active(Region *g, int64_t *count)
{
    gcut_cu_grid_state &es = g->tl->es;
    const Dev &d = es.dev;
    GCUT_CUDA_CHECK(cudaMemsetAsync(d.acc + gcut_grid_cu::ACC_ACTIVE, 0, sizeof(u64), es.stream));
    gcut_grid_cu::count_kernel<<<(d.n + 255) / 256, 256, 0, es.stream>>>(d);
    GCUT_CUDA_CHECK_LAUNCH(es.stream);
    GCUT_CUDA_CHECK(cudaMemcpyAsync(es.h_acc + gcut_grid_cu::ACC_ACTIVE,
                                    d.acc + gcut_grid_cu::ACC_ACTIVE, sizeof(u64),
                                    cudaMemcpyDeviceToHost, es.stream));
    GCUT_CUDA_CHECK(cudaStreamSynchronize(es.stream));
    *count = (int64_t)es.h_acc[gcut_grid_cu::ACC_ACTIVE];
    return GCUT_OK;
}

gcut_status tiled_discharge(Region *g, int64_t *pushes, int64_t *relabels, int64_t *local)
{
    Tiled *t = g->tl;
    int64_t active;
    gcut_status st = tiled_active(g, &active);
    if (st != GCUT_OK || active == 0)
        return st;
    gcut_cu_grid_params prm;
    gcut_cu_grid_params_default(&prm);
    Run R = tiled_run(t);
    t->es.dev.relabel_keep = 0;
    /* Pushes first, with the labels there are (the last relabel's, the
     * ghosts' from the exchange), as a warm start of cuda-grid. */
    TILED_DISPATCH(g->r.nd, st = (phase_one<ND, D3>(R, &prm, 1)));
    if (st != GCUT_OK)
        return st;
    t->launches = R.launches_last;
    /* The work the driver weighs against a global relabel (dist.c): the
     * active nodes seen at the start and at each exact relabel as pushes,
     * and each exact relabel as one relabel of every own node (it visits
     * them all). */
    *pushes += active + R.active_sum;
    *relabels += R.relabels * (int64_t)g->r.n;
    *local += R.relabels;
    g->prof[2] += (double)R.push_launches;
    g->prof[3] += (double)R.bfs_launches;
    return GCUT_OK;
}

/* The global relabel's round on the region: exact distances from the
 * sink's neighbours (keep 0) or from the labels there are when the ghost
 * labels only went down (keep 1). *changed: boundary labels changed, all
 * the rounds' end test reads. */
gcut_status tiled_relabel(Region *g, int64_t *changed, int keep)
{
    Tiled *t = g->tl;
    const R &r = g->r;
    gcut_cu_grid_state &es = t->es;
    const double t0 = gcut_cu_host->now_ms();
    const size_t P = (size_t)r.P;
    GCUT_CUDA_CHECK(cudaMemcpyAsync(t->snap, r.lab, P * 4, cudaMemcpyDeviceToDevice, es.stream));
    GCUT_CUDA_CHECK(cudaMemcpyAsync(t->snap + P, r.lab + r.n - r.P, P * 4,
                                    cudaMemcpyDeviceToDevice, es.stream));
    Run R = tiled_run(t);
    es.dev.relabel_keep = keep;
    u64 active = 0;
    gcut_status st;
    TILED_DISPATCH(r.nd, st = (relabel<ND, D3>(R, &active)));
    es.dev.relabel_keep = 0;
    if (st != GCUT_OK)
        return st;
    GCUT_CUDA_CHECK(cudaMemsetAsync(&r.ctr[C_COUNT], 0, sizeof(u64), es.stream));
    diff_kernel<<<blocks(r.P), kBlock, 0, es.stream>>>(t->snap, r.lab, r.lab + r.n - r.P, r.P,
                                                        &r.ctr[C_COUNT]);
    GCUT_CUDA_CHECK_LAUNCH(es.stream);
    GCUT_CUDA_CHECK(cudaStreamSynchronize(es.stream));
    u64 c;
    if ((st = read_ctr(r, C_COUNT, &c)) != GCUT_OK)
        return st;
    *changed = (int64_t)c;
    g->prof[3] += (double)R.bfs_launches;
    g->prof[1] += gcut_cu_host->now_ms() - t0;
    return GCUT_OK;
}
#endif

void region_destroy(void *h)
{
    Region *g = (Region *)h;
    if (!g)
        return;
    int prev = -1;
    if (cudaGetDevice(&prev) == cudaSuccess && prev != g->device)
        (void)cudaSetDevice(g->device);
#ifndef GCUT_REGION_EMU
    tiled_free(g);
#endif
    (void)cudaFree(g->flags);
    (void)cudaFree(g->cut);
    (void)cudaFree(g->msg);
    (void)cudaFree(g->r.ctr);
    (void)cudaFree(g->r.lab2);
    (void)cudaFree(g->lab_mem);
    (void)cudaFree(g->mask);
    (void)cudaFree(g->rs_mem);
    (void)cudaFree(g->r.inc);
    (void)cudaFree(g->ex_mem);
    (void)cudaFree(g->res_mem);
    if (prev >= 0 && prev != g->device)
        (void)cudaSetDevice(prev);
    gcut_cu_host->free_fn(g);
}

/* The arrays, for both discharges: residuals, excesses and sink residuals
 * of the own nodes and the two ghost planes (index -P .. n + P - 1), the
 * labels with their pads; the jacobi discharge's extra arrays. */
gcut_status region_alloc(Region *g, const gcut_grid_region_init *in)
{
    ON_DEVICE(g->device);
    gcut_status st;
    R &r = g->r;
    const size_t n = (size_t)in->nodes, P = (size_t)in->plane, ns = n + 2 * P;
    const size_t span = n + 2 * (P + (size_t)in->pad);
    g->msg_bytes = P * 4 * (1 + (size_t)in->ncross);
    GCUT_CUDA_CHECK(cudaMalloc((void **)&g->res_mem, (size_t)in->num_dirs * ns * 4 + 4));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&g->ex_mem, ns * 8 + 8));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&g->rs_mem, ns * 8 + 8));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&g->mask, ns * 4 + 4));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&g->lab_mem, span * 4));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&r.ctr, C_SLOTS * sizeof(u64)));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&g->msg, 4 * g->msg_bytes + 4));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&g->cut, n + 1));
    if (!g->tiled) {
        GCUT_CUDA_CHECK(cudaMalloc((void **)&r.inc, n * 8 + 8));
        GCUT_CUDA_CHECK(cudaMalloc((void **)&r.lab2, n * 4 + 4));
        GCUT_CUDA_CHECK(cudaMalloc((void **)&g->flags, 7 * (size_t)blocks((long long)n) + 4));
        GCUT_CUDA_CHECK(cudaMemset(g->flags, 0, 7 * (size_t)blocks((long long)n) + 4));
        GCUT_CUDA_CHECK(cudaMemset(r.inc, 0, n * 8 + 8));
    }
    r.ns = (int)ns;
    r.res = g->res_mem + P;
    r.exc = g->ex_mem + P;
    r.rs = g->rs_mem + P;
    r.lab = g->lab_mem + P + (size_t)in->pad;
    GCUT_CUDA_CHECK(cudaMemset(g->res_mem, 0, (size_t)in->num_dirs * ns * 4 + 4));
    GCUT_CUDA_CHECK(cudaMemset(g->ex_mem, 0, ns * 8 + 8));
    GCUT_CUDA_CHECK(cudaMemset(g->rs_mem, 0, ns * 8 + 8));
    /* The capacities in place (from the host or any device), then the
     * initial state from them on the device; the terminal capacities are
     * staged in the own labels and the mask, both filled afterwards. */
    for (int d = 0; d < in->num_dirs; d++)
        if (in->cap[d])
            GCUT_CUDA_CHECK(
                cudaMemcpy(r.res + (size_t)d * ns, in->cap[d], n * 4, cudaMemcpyDefault));
    int *src = r.lab, *snk = (int *)g->mask + P;
    if (in->cap_source)
        GCUT_CUDA_CHECK(cudaMemcpy(src, in->cap_source, n * 4, cudaMemcpyDefault));
    else
        GCUT_CUDA_CHECK(cudaMemset(src, 0, n * 4));
    if (in->cap_sink)
        GCUT_CUDA_CHECK(cudaMemcpy(snk, in->cap_sink, n * 4, cudaMemcpyDefault));
    else
        GCUT_CUDA_CHECK(cudaMemset(snk, 0, n * 4));
    GCUT_CUDA_CHECK(cudaMemset(r.ctr, 0, C_SLOTS * sizeof(u64)));
    GCUT_CUDA_CHECK(cudaMemset(g->msg, 0, 4 * g->msg_bytes + 4));
    InitGeo geo;
    memset(&geo, 0, sizeof geo);
    geo.width = in->width;
    geo.rows = in->rows;
    geo.first = in->first;
    geo.planes = in->planes;
    for (int d = 0; d < in->num_dirs; d++) {
        geo.dx[d] = in->dir_x[d];
        geo.drow[d] = in->dir_row[d];
        geo.dplane[d] = in->dir_plane[d];
    }
    const long long nthreads = ((long long)n + kInitNodes - 1) / kInitNodes;
    LAUNCH(init_kernel, blocks(nthreads), r, geo, (const int *)src, (const int *)snk);
    u64 neg = 0;
    if ((st = read_ctr(r, C_NEG, &neg)) != GCUT_OK)
        return st;
    if (neg)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                            "cuda-grid regions: %llu negative capacities in planes %lld .. %lld "
                            "(capacities must be >= 0)",
                            (unsigned long long)neg, (long long)in->first,
                            (long long)(in->first + n / P - 1));
    /* Every label d_inf (ghosts and pads), then the own ones 0, as region.c. */
    LAUNCH(fill_kernel, blocks((long long)span), g->lab_mem, (long long)span, in->d_inf);
    GCUT_CUDA_CHECK(cudaMemset(r.lab, 0, n * 4));
    GCUT_CUDA_CHECK(cudaDeviceSynchronize());
    return GCUT_OK;
}

gcut_status region_create(const gcut_grid_region_init *in, void **out)
{
    *out = NULL;
    const char *why;
    gcut_status st = gcut_cu_probe_device(&why);
    if (st != GCUT_OK)
        return GCUT_CU_FAIL(st, "cuda-grid regions: %s", why);
    if (!in || in->nodes < 1 || in->plane < 1 || in->nodes % in->plane || in->num_dirs < 4 ||
        in->num_dirs > 26 || in->ncross < 1 || in->ncross > 9 || in->pad < 0 || in->d_inf < 1 ||
        in->width < 1 || in->rows < 1 || (long long)in->width * in->rows != in->plane ||
        in->first < 0 || in->planes < in->first + in->nodes / in->plane ||
        (long long)in->nodes + 2LL * in->plane > INT32_MAX - 1)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid regions: a bad region description");
    int ndev = 0;
    GCUT_CUDA_CHECK(cudaGetDeviceCount(&ndev));
    if (in->device < 0 || in->device >= ndev)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid regions: device %d does not exist (%d device%s)",
                            (int)in->device, ndev, ndev == 1 ? "" : "s");
    Region *g = (Region *)gcut_cu_host->malloc_fn(sizeof *g);
    if (!g)
        return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-grid regions: cannot allocate a region");
    memset(g, 0, sizeof *g);
    g->device = in->device;
#ifdef GCUT_REGION_EMU
    g->tiled = 0; /* the host emulation runs the jacobi kernels only */
#else
    g->tiled = in->discharge != GCUT_GRID_REGION_JACOBI;
#endif
    g->relabel_every = in->relabel_every > 0 ? in->relabel_every : kRelabelEvery;
    R &r = g->r;
    r.n = in->nodes;
    r.P = in->plane;
    r.pad = in->pad;
    r.nd = in->num_dirs;
    r.ncross = in->ncross;
    r.d_inf = in->d_inf;
    for (int d = 0; d < 26; d++)
        r.step[d] = d < r.nd ? in->dir_step[d] : 0;
    for (int k = 0; k < r.ncross; k++) {
        r.up[k] = in->up[k];
        r.down[k] = in->down[k];
    }
    if ((st = region_alloc(g, in)) != GCUT_OK
#ifndef GCUT_REGION_EMU
        || (g->tiled && (st = tiled_new(g, in)) != GCUT_OK)
#endif
    ) {
        region_destroy(g);
        return st;
    }
    *out = g;
    return GCUT_OK;
}

void region_neighbours(void *h, int lo, int hi)
{
    Region *g = (Region *)h;
    g->r.has_lo = lo;
    g->r.has_hi = hi;
}

/* Exact distances to the sink within the region, the ghost labels taken
 * as distances: from scratch, or (update) from the last ones when the
 * ghost labels only went down, visiting only what the lowered seeds
 * reach. */
gcut_status relabel_levels(void *h, int64_t *changed, int update)
{
    Region *g = (Region *)h;
    ON_DEVICE(g->device);
    const double t0 = gcut_cu_host->now_ms();
    R r = g->r;
    const int nb = blocks(r.n);
    unsigned char *lvl[2] = {g->flags + 4 * (size_t)nb, g->flags + 5 * (size_t)nb};
    r.seedblk = g->flags + 6 * (size_t)nb;
    GCUT_CUDA_CHECK(cudaMemset(lvl[0], 0, 3 * (size_t)nb)); /* lvl[0], lvl[1], seedblk */
    if (update)
        LAUNCH(bfs_update_init_kernel, nb, r);
    else
        LAUNCH(bfs_init_kernel, nb, r);
    /* Levels in order: L + 1 right after a level that lowered a node to it
     * (only the flagged blocks and the seeds' look), else the least seed
     * distance above L (from scratch: the least distance, by a scan). */
    int L = 0, have_next = 0, cur = 0;
    gcut_status st;
    for (;;) {
        int use_flags = 1;
        if (have_next) {
            L++;
        } else {
            GCUT_CUDA_CHECK(cudaMemset(&r.ctr[C_MIN], 0xff, sizeof(u64)));
            if (update)
                LAUNCH(bfs_seed_min_kernel, nb, r, L);
            else
                LAUNCH(bfs_min_kernel, nb, r, L);
            u64 next;
            if ((st = read_ctr(r, C_MIN, &next)) != GCUT_OK)
                return st;
            if (next == ~0ull)
                break;
            L = (int)next;
            use_flags = update;
        }
        if ((st = zero_ctr(r, C_NEXT)) != GCUT_OK)
            return st;
        r.lvl_cur = lvl[cur];
        r.lvl_next = lvl[cur ^ 1];
        LAUNCH(bfs_expand_kernel, nb, r, L, use_flags);
        GCUT_CUDA_CHECK(cudaMemset(lvl[cur], 0, (size_t)nb));
        cur ^= 1;
        g->prof[3] += 1;
        u64 more;
        if ((st = read_ctr(r, C_NEXT, &more)) != GCUT_OK)
            return st;
        have_next = more != 0;
    }
    if ((st = zero_ctr(r, C_COUNT)) != GCUT_OK)
        return st;
    LAUNCH(bfs_store_kernel, nb, r);
    u64 c;
    if ((st = read_ctr(r, C_COUNT, &c)) != GCUT_OK)
        return st;
    *changed = (int64_t)c;
    g->prof[1] += gcut_cu_host->now_ms() - t0;
    return GCUT_OK;
}

gcut_status region_relabel_any(void *h, int64_t *changed, int update)
{
#ifndef GCUT_REGION_EMU
    Region *g = (Region *)h;
    if (g->tiled) {
        ON_DEVICE(g->device);
        return tiled_relabel(g, changed, update);
    }
#endif
    return relabel_levels(h, changed, update);
}

gcut_status region_relabel(void *h, int64_t *changed) { return region_relabel_any(h, changed, 0); }

gcut_status region_relabel_update(void *h, int64_t *changed)
{
    return region_relabel_any(h, changed, 1);
}

/* Times and counts since the region was made: ms in discharges (their
 * relabels included), ms in region-local relabels, discharge iterations,
 * relabel levels. */
void region_profile(void *h, double *out)
{
    const Region *g = (const Region *)h;
    for (int i = 0; i < 4; i++)
        out[i] = g->prof[i];
}

gcut_status region_active(void *h, int64_t *count)
{
    Region *g = (Region *)h;
    ON_DEVICE(g->device);
#ifndef GCUT_REGION_EMU
    if (g->tiled)
        return tiled_active(g, count);
#endif
    const R r = flagged(g);
    gcut_status st = zero_ctr(r, C_COUNT);
    if (st != GCUT_OK)
        return st;
    GCUT_CUDA_CHECK(cudaMemset(r.act, 0, (size_t)blocks(r.n)));
    GCUT_CUDA_CHECK(cudaMemset(r.rcv, 0, (size_t)blocks(r.n)));
    LAUNCH(count_active_kernel, blocks(r.n), r);
    u64 c;
    if ((st = read_ctr(r, C_COUNT, &c)) != GCUT_OK)
        return st;
    *count = (int64_t)c;
    return GCUT_OK;
}

gcut_status region_discharge(void *h, int64_t *pushes, int64_t *relabels, int64_t *local)
{
    Region *g = (Region *)h;
    ON_DEVICE(g->device);
    const double t0 = gcut_cu_host->now_ms();
    gcut_status st;
#ifndef GCUT_REGION_EMU
    if (g->tiled) {
        st = tiled_discharge(g, pushes, relabels, local);
        g->prof[0] += gcut_cu_host->now_ms() - t0;
        return st;
    }
#endif
    const R &r = g->r;
    const int nb = blocks(r.n);
    int64_t active;
    if ((st = region_active(h, &active)) != GCUT_OK)
        return st;
    GCUT_CUDA_CHECK(cudaMemset(&r.ctr[C_PUSHES], 0, 2 * sizeof(u64)));
    /* After the first iterations, kBatch iterations run between two reads
     * of the active count (an iteration with no active node changes
     * nothing: the kernels skip inactive nodes), so that the loop is not
     * bound by one host round trip per iteration. */
    int64_t it = 0, since_relabel = 0, since_poll = 0;
    while (active > 0) {
        const int batch = it < 16 ? 1 : kBatch;
        for (int b = 0; b < batch; b++) {
            if (b == batch - 1 && (st = zero_ctr(r, C_COUNT)) != GCUT_OK)
                return st;
            const R rk = flagged(g);
            LAUNCH(push_kernel, nb, rk);
            LAUNCH(relabel_kernel, nb, rk);
            LAUNCH(publish_kernel, nb, rk);
            g->parity ^= 1;
        }
        it += batch;
        since_relabel += batch;
        since_poll += batch;
        u64 a;
        if ((st = read_ctr(r, C_COUNT, &a)) != GCUT_OK)
            return st;
        active = (int64_t)a;
        if (active > 0 && since_relabel >= g->relabel_every) {
            since_relabel = 0;
            int64_t changed;
            if ((st = region_relabel(h, &changed)) != GCUT_OK ||
                (st = region_active(h, &active)) != GCUT_OK)
                return st;
            ++*local;
        }
        if (since_poll >= 256) {
            since_poll = 0;
            if ((st = gcut_cu_poll(NULL, "discharge", active, "active nodes")) != GCUT_OK)
                return st;
        }
    }
    u64 c[2];
    GCUT_CUDA_CHECK(cudaMemcpy(c, &r.ctr[C_PUSHES], sizeof c, cudaMemcpyDeviceToHost));
    *pushes += (int64_t)c[0];
    *relabels += (int64_t)c[1];
    g->prof[0] += gcut_cu_host->now_ms() - t0;
    g->prof[2] += (double)it;
    return GCUT_OK;
}

gcut_status region_reset_ghosts(void *h)
{
    Region *g = (Region *)h;
    ON_DEVICE(g->device);
    const R &r = g->r;
    const long long side = (long long)r.P + r.pad;
    LAUNCH(fill_kernel, blocks(side), g->lab_mem, side, r.d_inf);
    LAUNCH(fill_kernel, blocks(side), r.lab + r.n, side, r.d_inf);
    return GCUT_OK;
}

void *region_buffer(void *h, int which)
{
    Region *g = (Region *)h;
    return g->msg + (size_t)which * g->msg_bytes;
}

gcut_status region_pack(void *h, int with_flows)
{
    Region *g = (Region *)h;
    ON_DEVICE(g->device);
    const R &r = g->r;
    const size_t P = (size_t)r.P;
    for (int side = 0; side < 2; side++) {
        unsigned char *send = (unsigned char *)region_buffer(h, side);
        const int base = side == 0 ? 0 : r.n - r.P;
        GCUT_CUDA_CHECK(cudaMemcpy(send, r.lab + base, P * 4, cudaMemcpyDeviceToDevice));
    }
    if (with_flows)
        LAUNCH(pack_flows_kernel, blocks(r.P), r,
               (unsigned *)((unsigned char *)region_buffer(h, 0) + P * 4),
               (unsigned *)((unsigned char *)region_buffer(h, 1) + P * 4));
    return GCUT_OK;
}

gcut_status region_unpack(void *h, int with_flows)
{
    Region *g = (Region *)h;
    ON_DEVICE(g->device);
    const R &r = g->r;
    const size_t P = (size_t)r.P;
    for (int side = 0; side < 2; side++) {
        if (side == 0 ? !r.has_lo : !r.has_hi)
            continue;
        const unsigned char *recv = (const unsigned char *)region_buffer(h, 2 + side);
        GCUT_CUDA_CHECK(
            cudaMemcpy(r.lab + (side == 0 ? -r.P : r.n), recv, P * 4, cudaMemcpyDeviceToDevice));
        if (with_flows)
            LAUNCH(unpack_flows_kernel, blocks(r.P), r, (const unsigned *)(recv + P * 4),
                   side == 0 ? 0 : r.n - r.P, side);
    }
    GCUT_CUDA_CHECK(cudaDeviceSynchronize());
    return GCUT_OK;
}

gcut_status region_copy(void *dst, const void *src, size_t bytes)
{
    /* Between message buffers, or a buffer and host memory (an MPI rank
     * stages its messages): unified addressing tells which is which. */
    GCUT_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault));
    return GCUT_OK;
}

gcut_status region_cut(void *h, uint8_t *cut, uint8_t sink, uint8_t source)
{
    Region *g = (Region *)h;
    ON_DEVICE(g->device);
    const R &r = g->r;
    LAUNCH(cut_kernel, blocks(r.n), r, g->cut, sink, source);
    GCUT_CUDA_CHECK(cudaMemcpy(cut, g->cut, (size_t)r.n, cudaMemcpyDeviceToHost));
    return GCUT_OK;
}

gcut_status region_flow(void *h, int64_t *flow)
{
    Region *g = (Region *)h;
    ON_DEVICE(g->device);
    u64 f;
    gcut_status st = read_ctr(g->r, C_FLOW, &f);
    if (st != GCUT_OK)
        return st;
#ifndef GCUT_REGION_EMU
    if (g->tiled) {
        u64 f2;
        GCUT_CUDA_CHECK(cudaMemcpy(&f2, g->tl->acc + gcut_grid_cu::ACC_FLOW, sizeof f2,
                                   cudaMemcpyDeviceToHost));
        f += f2;
    }
#endif
    *flow = (int64_t)f;
    return GCUT_OK;
}

/* ------------------------------------------------- device groups and NCCL */

#ifdef GCUT_CU_HAVE_NCCL
/* The NCCL entry points, from libnccl.so.2 opened once per process. */
struct Nccl {
    decltype(&ncclCommInitAll) comm_init_all;
    decltype(&ncclCommDestroy) comm_destroy;
    decltype(&ncclGroupStart) group_start;
    decltype(&ncclGroupEnd) group_end;
    decltype(&ncclSend) send;
    decltype(&ncclRecv) recv;
    decltype(&ncclGetErrorString) error_string;
    decltype(&ncclGetVersion) get_version;
};

std::once_flag g_nccl_once;
Nccl g_nccl;
bool g_nccl_ok;
char g_nccl_why[512];

void nccl_open()
{
    /* The loader's search path (LD_LIBRARY_PATH, the system's), then the
     * toolkit's folder. */
    const char *names[] = {"libnccl.so.2", "libnccl.so", "/usr/local/cuda/lib64/libnccl.so.2"};
    void *lib = NULL;
    const char *last = "not found";
    for (const char *name : names) {
        if (!name || !*name)
            continue;
        if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)))
            break;
        const char *e = dlerror();
        last = e ? e : "not found";
    }
    if (!lib) {
        snprintf(g_nccl_why, sizeof g_nccl_why,
                 "NCCL (libnccl.so.2) cannot be opened: %s; install NCCL or add its folder to "
                 "LD_LIBRARY_PATH",
                 last);
        return;
    }
#define NCCL_SYM(field, name)                                                                      \
    if (!(*(void **)&g_nccl.field = dlsym(lib, name))) {                                           \
        snprintf(g_nccl_why, sizeof g_nccl_why, "NCCL library without %s", name);                 \
        return;                                                                                    \
    }
    NCCL_SYM(comm_init_all, "ncclCommInitAll");
    NCCL_SYM(comm_destroy, "ncclCommDestroy");
    NCCL_SYM(group_start, "ncclGroupStart");
    NCCL_SYM(group_end, "ncclGroupEnd");
    NCCL_SYM(send, "ncclSend");
    NCCL_SYM(recv, "ncclRecv");
    NCCL_SYM(error_string, "ncclGetErrorString");
    NCCL_SYM(get_version, "ncclGetVersion");
#undef NCCL_SYM
    g_nccl_ok = true; /* the library stays open for the life of the process */
}

const Nccl *nccl_get(const char **why)
{
    std::call_once(g_nccl_once, nccl_open);
    *why = g_nccl_why;
    return g_nccl_ok ? &g_nccl : NULL;
}

#define NCCL_CHECK(nc, expr)                                                                       \
    do {                                                                                           \
        ncclResult_t gcut_nccl_r_ = (expr);                                                        \
        if (gcut_nccl_r_ != ncclSuccess)                                                           \
            return GCUT_CU_FAIL(GCUT_ERR_DEVICE, "%s failed at %s:%d: %s", #expr, __FILE__,         \
                                __LINE__, (nc)->error_string(gcut_nccl_r_));                       \
    } while (0)
#endif

constexpr int kMaxGroup = 64;

/* The devices of one solve: a stream on each and, with several, one NCCL
 * communicator per device (rank i is devices[i]). */
struct Group {
    int n;
    int dev[kMaxGroup];
    cudaStream_t stream[kMaxGroup];
#ifdef GCUT_CU_HAVE_NCCL
    ncclComm_t comm[kMaxGroup];
    const Nccl *nccl;
    int cached; /* the slot of g_comms it borrowed, or -1 (its own) */
#endif
};

#ifdef GCUT_CU_HAVE_NCCL
/* Creating NCCL communicators is slow (made per solve, the quick test set
 * on 2 GPUs did not finish in 600 s; made once, 18 s), so those of
 * a device list are kept for the life of the process and lent to one solve
 * at a time (a solve that finds them in use makes its own). */
constexpr int kCommSlots = 8;
struct CommSlot {
    int n;
    int dev[kMaxGroup];
    ncclComm_t comm[kMaxGroup];
    bool busy;
};
std::mutex g_comms_mu;
CommSlot g_comms[kCommSlots];
int g_ncomms;

/* Borrow the communicators of G's devices: GCUT_OK with G->comm filled. */
gcut_status comms_borrow(Group *G)
{
    {
        std::lock_guard<std::mutex> lock(g_comms_mu);
        for (int k = 0; k < g_ncomms; k++) {
            CommSlot &c = g_comms[k];
            if (c.busy || c.n != G->n || memcmp(c.dev, G->dev, (size_t)G->n * sizeof *G->dev))
                continue;
            c.busy = true;
            memcpy(G->comm, c.comm, (size_t)G->n * sizeof *G->comm);
            G->cached = k;
            return GCUT_OK;
        }
    }
    /* NVLink multicast (NVLS) stays off unless the caller chose otherwise:
     * the exchanges are point-to-point and NVLS buffers cost memory. */
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    int prev = -1;
    (void)cudaGetDevice(&prev);
    const ncclResult_t rc = G->nccl->comm_init_all(G->comm, G->n, G->dev);
    if (prev >= 0)
        (void)cudaSetDevice(prev);
    if (rc != ncclSuccess) {
        memset(G->comm, 0, sizeof G->comm);
        return GCUT_CU_FAIL(GCUT_ERR_DEVICE, "ncclCommInitAll on %d devices failed: %s", G->n,
                            G->nccl->error_string(rc));
    }
    std::lock_guard<std::mutex> lock(g_comms_mu);
    if (g_ncomms < kCommSlots) {
        CommSlot &c = g_comms[g_ncomms];
        c.n = G->n;
        memcpy(c.dev, G->dev, (size_t)G->n * sizeof *G->dev);
        memcpy(c.comm, G->comm, (size_t)G->n * sizeof *G->comm);
        c.busy = true;
        G->cached = g_ncomms++;
    }
    return GCUT_OK;
}
#endif

int group_rank(const Group *G, int device)
{
    for (int i = 0; i < G->n; i++)
        if (G->dev[i] == device)
            return i;
    return -1;
}

void group_free(void *h)
{
    Group *G = (Group *)h;
    if (!G)
        return;
    int prev = -1;
    (void)cudaGetDevice(&prev);
#ifdef GCUT_CU_HAVE_NCCL
    if (G->cached >= 0) {
        std::lock_guard<std::mutex> lock(g_comms_mu);
        g_comms[G->cached].busy = false; /* kept for the next solve */
    }
#endif
    for (int i = 0; i < G->n; i++) {
#ifdef GCUT_CU_HAVE_NCCL
        if (G->comm[i] && G->cached < 0)
            (void)G->nccl->comm_destroy(G->comm[i]);
#endif
        if (G->stream[i] && cudaSetDevice(G->dev[i]) == cudaSuccess)
            (void)cudaStreamDestroy(G->stream[i]);
    }
    if (prev >= 0)
        (void)cudaSetDevice(prev);
    gcut_cu_host->free_fn(G);
}

gcut_status group_fill(Group *G, const int32_t *devices, int32_t count)
{
    int ndev = 0;
    GCUT_CUDA_CHECK(cudaGetDeviceCount(&ndev));
    for (int32_t i = 0; i < count; i++) {
        if (devices[i] < 0 || devices[i] >= ndev)
            return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                                "cuda-grid regions: device %d does not exist (%d device%s)",
                                (int)devices[i], ndev, ndev == 1 ? "" : "s");
        for (int32_t j = 0; j < i; j++)
            if (devices[j] == devices[i])
                return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                                    "cuda-grid regions: device %d is listed twice",
                                    (int)devices[i]);
        G->dev[i] = devices[i];
    }
    G->n = count;
    for (int i = 0; i < count; i++) {
        ON_DEVICE(G->dev[i]);
        GCUT_CUDA_CHECK(cudaStreamCreate(&G->stream[i]));
    }
    if (count == 1)
        return GCUT_OK;
#ifdef GCUT_CU_HAVE_NCCL
    const char *why;
    if (!(G->nccl = nccl_get(&why)))
        return GCUT_CU_FAIL(GCUT_ERR_UNAVAILABLE, "cuda-grid regions on %d devices: %s",
                            (int)count, why);
    return comms_borrow(G);
#else
    return GCUT_CU_FAIL(GCUT_ERR_UNAVAILABLE,
                        "cuda-grid regions on %d devices: the plugin was built without NCCL "
                        "(nccl.h not found)",
                        (int)count);
#endif
}

gcut_status group_new(const int32_t *devices, int32_t count, void **out)
{
    *out = NULL;
    if (!devices || count < 1 || count > kMaxGroup)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid regions: %d devices (1 to %d)",
                            (int)count, kMaxGroup);
    Group *G = (Group *)gcut_cu_host->malloc_fn(sizeof *G);
    if (!G)
        return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-grid regions: cannot allocate a device group");
    memset(G, 0, sizeof *G);
#ifdef GCUT_CU_HAVE_NCCL
    G->cached = -1;
#endif
    const gcut_status st = group_fill(G, devices, count);
    if (st != GCUT_OK) {
        group_free(G);
        return st;
    }
    *out = G;
    return GCUT_OK;
}

/* Copies within a device on its stream; across devices one NCCL group of
 * sends and receives (each ordered pair's messages matched in order); then
 * every stream of the group is waited for. The streams are blocking ones,
 * so they follow the regions' work on the legacy default stream (pack) and
 * precede what comes after on it (unpack). */
gcut_status group_exchange(void *h, const gcut_grid_region_move *mv, int32_t count, size_t bytes)
{
    Group *G = (Group *)h;
    if (!G || count < 0 || (count > 0 && !mv))
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid regions: a bad exchange");
    if (count == 0 || bytes == 0)
        return GCUT_OK;
    int cross = 0;
    for (int32_t i = 0; i < count; i++) {
        const Region *d = (const Region *)mv[i].dst, *s = (const Region *)mv[i].src;
        if (!d || !s || mv[i].src_buf < 0 || mv[i].src_buf > 1 || mv[i].dst_buf < 2 ||
            mv[i].dst_buf > 3 || bytes > s->msg_bytes || bytes > d->msg_bytes)
            return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid regions: a bad message %d", (int)i);
        const int rs = group_rank(G, s->device), rd = group_rank(G, d->device);
        if (rs < 0 || rd < 0)
            return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                                "cuda-grid regions: a region on device %d is outside the group",
                                rs < 0 ? s->device : d->device);
        if (rs == rd) {
            ON_DEVICE(G->dev[rs]);
            GCUT_CUDA_CHECK(cudaMemcpyAsync(region_buffer(mv[i].dst, mv[i].dst_buf),
                                            region_buffer(mv[i].src, mv[i].src_buf), bytes,
                                            cudaMemcpyDeviceToDevice, G->stream[rs]));
        } else {
            cross++;
        }
    }
    if (cross) {
#ifdef GCUT_CU_HAVE_NCCL
        const Nccl *nc = G->nccl;
        if (!nc)
            return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid regions: a one-device group");
        NCCL_CHECK(nc, nc->group_start());
        ncclResult_t rc = ncclSuccess;
        for (int32_t i = 0; i < count && rc == ncclSuccess; i++) {
            const Region *d = (const Region *)mv[i].dst, *s = (const Region *)mv[i].src;
            const int rs = group_rank(G, s->device), rd = group_rank(G, d->device);
            if (rs == rd)
                continue;
            rc = nc->send(region_buffer(mv[i].src, mv[i].src_buf), bytes, ncclUint8, rd,
                          G->comm[rs], G->stream[rs]);
            if (rc == ncclSuccess)
                rc = nc->recv(region_buffer(mv[i].dst, mv[i].dst_buf), bytes, ncclUint8, rs,
                              G->comm[rd], G->stream[rd]);
        }
        const ncclResult_t end = nc->group_end();
        if (rc != ncclSuccess)
            return GCUT_CU_FAIL(GCUT_ERR_DEVICE, "ncclSend/ncclRecv failed: %s",
                                nc->error_string(rc));
        if (end != ncclSuccess)
            return GCUT_CU_FAIL(GCUT_ERR_DEVICE, "ncclGroupEnd failed: %s",
                                nc->error_string(end));
#else
        return GCUT_CU_FAIL(GCUT_ERR_UNAVAILABLE, "cuda-grid regions: built without NCCL");
#endif
    }
    for (int i = 0; i < G->n; i++) {
        ON_DEVICE(G->dev[i]);
        GCUT_CUDA_CHECK(cudaStreamSynchronize(G->stream[i]));
    }
    return GCUT_OK;
}

} // namespace

const gcut_grid_region_ext gcut_cu_grid_region = {GCUT_PLUGIN_ABI_VERSION,
                                                  region_create,
                                                  region_destroy,
                                                  region_neighbours,
                                                  region_discharge,
                                                  region_relabel,
                                                  region_reset_ghosts,
                                                  region_active,
                                                  region_pack,
                                                  region_unpack,
                                                  region_buffer,
                                                  region_copy,
                                                  region_cut,
                                                  region_flow,
                                                  group_new,
                                                  group_free,
                                                  group_exchange,
                                                  region_profile,
                                                  region_relabel_update};
