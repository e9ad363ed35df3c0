/*
 * csr_kernels.cuh - device code of the cuda-csr engine (kernels only;
 * grid sizing and launches are in csr_launch.cu).
 *
 * Algorithm: lock-free push-relabel with the lowest-neighbour rule,
 *   B. Hong, "A lock-free multi-threaded algorithm for the maximum flow
 *   problem", MTAAP/IPDPS 2008; Z. He and B. Hong, "Dynamically tuned
 *   push-relabel algorithm for the maximum flow problem on CPU-GPU-hybrid
 *   platforms", IPDPS 2010,
 * on the residual layout of ECL-MaxFlow,
 *   A. VanAusdal and M. Burtscher, "ECL-MaxFlow: a fast GPU max-flow
 *   code", 2025 (one flow value per forward arc; the residual of u->v is
 *   cap - f, the residual of the reverse arc v->u is f),
 * with an active-vertex worklist deduplicated by per-vertex round stamps
 * and a level-synchronous global relabel (BFS from the sink) on the GPU.
 *
 * variant=bcsr swaps the layout for the one of WBPR,
 *   Hsieh, Lin and Kuo, "Engineering a workload-balanced push-relabel
 *   algorithm for massive graphs on GPUs" (WBPR), 2024:
 * every vertex lists all its residual arcs, both directions of every edge,
 * sorted by neighbour id, with one residual capacity per arc (bres). A
 * push on u -> v subtracts from bres[u -> v] and adds to bres[v -> u];
 * the reverse arc is found by binary search in v's sorted list (no sister
 * index). Parallel edges are merged into one arc pair on the host, so the
 * neighbour is unique in each list and the search unambiguous. Same
 * schedule, driver, global relabel and cut as vc; A.bcsr selects the
 * layout at run time (a uniform branch, the same for every thread).
 *
 * Terminals are not vertices. The source's capacity to v is v's initial
 * excess; the sink's capacity from v is term[v], the residual of an arc
 * to a virtual sink of height 0. (Phase II, which returns excess to the
 * source, runs the very same kernels with term[] holding the flow each
 * vertex still receives from the source.)
 *
 * Invariants, for every forward arc a = (u -> v) and vertex u:
 *   0 <= flow[a] <= cap[a]. Only u increases flow[a] (a push u -> v) and
 *     only v decreases it (a push v -> u along the reverse residual); each
 *     bounds its amount by the residual it read, and the other side only
 *     ever moves the value away from its own bound, so concurrent atomic
 *     updates never leave [0, cap[a]].
 *   excess[u] >= 0. Only u subtracts from it, never more than it read;
 *     others only add.
 *   term[u] and height[u] are written only by u during rounds, and only by
 *     the BFS kernels between rounds.
 *   1 <= height[u] <= n + 1. A distance to the virtual terminal is at
 *     most n (a path through every vertex); height n + 1 ("dead") means
 *     "cannot reach the terminal" (the gap effect of the global relabel),
 *     and such vertices are inactive.
 *   Every vertex with excess > 0 and height < n is in the worklist of the
 *     next round: it re-appends itself after a partial push or a lift, and
 *     a push to v appends v. A stamp per vertex (the round it was last
 *     appended for) keeps each vertex at most once in a list.
 *
 * Hong's proof shows that any interleaving of these lowest-neighbour pushes
 * and lifts, whatever stale heights a thread reads, ends with a maximum
 * preflow. The launcher does not rely on it for correctness: a phase ends
 * only after a global relabel found no active vertex, i.e. no vertex with
 * excess can reach the terminal, which is the definition of a maximum
 * preflow.
 *
 * Data the rounds modify are read with ld.global.cg (__ldcg): the L1 cache
 * is not coherent with other SMs' atomics, and the single-block tail
 * kernel runs many rounds inside one launch.
 */
#ifndef GCUT_CSR_KERNELS_CUH
#define GCUT_CSR_KERNELS_CUH

#include <cooperative_groups.h>
#include <stdint.h>

#include "csr/csr_tuning.h"

namespace gcut_csr {

namespace cg = cooperative_groups;

/* Heights are int32; "no residual neighbour" in a reduction. */
constexpr int32_t kNoHeight = INT32_MAX;

/* Control block: the only device memory the host reads during a solve
 * (CONTRIBUTING.md rule 29), 64 bytes copied back per check. Counters rotate by
 * round (cnt) and by BFS level (bcnt) modulo 3: the kernel of round r
 * reads cnt[r % 3], appends to cnt[(r + 1) % 3] and clears
 * cnt[(r + 2) % 3], which nobody reads or writes during round r. */
struct Ctl {
    unsigned int cnt[3];
    unsigned int bcnt[3];
    unsigned int active;        /* rebuild: vertices with excess and height < n */
    unsigned int excess_nodes;  /* rebuild: vertices with excess at any height */
    unsigned int tail_round;    /* round the tail kernel stopped before */
    int bfs_level;              /* level the BFS tail kernel stopped before */
    unsigned long long pushes;
    unsigned long long relabels;
    unsigned long long term_left; /* sum of term[] (flow value, phase I) */
};

/* Everything a kernel sees, passed by value (CONTRIBUTING.md rule 28). Idx is the
 * type of arc offsets and of rmap: uint32_t when the graph has fewer than
 * 2^31 arcs (halves the index traffic), long long otherwise. */
template <typename Idx>
struct Args {
    int32_t n;
    int32_t dead;        /* n + 1: the height of vertices that cannot reach the terminal */
    int32_t bcsr;        /* 1: the BCSR arrays below hold the graph, the RCSR ones are unset */
    const Idx *row;      /* n + 1 */
    const int32_t *col;  /* m */
    const int32_t *cap;  /* m */
    const Idx *rrow;     /* n + 1 */
    const int32_t *rcol; /* m */
    const Idx *rmap;     /* m */
    int32_t *flow;       /* m */
    const Idx *brow;     /* n + 1 (bcsr): arcs of u are brow[u] .. brow[u+1]-1 */
    const int32_t *bcol; /* mb: neighbour of each arc, increasing within a vertex */
    unsigned long long *bres; /* mb: residual capacity of each arc */
    unsigned long long *excess; /* n, two's complement updates */
    int32_t *height;     /* n */
    int32_t *term;       /* n: residual to the terminal of this phase */
    uint32_t *stamp;     /* n */
    int32_t *list0;      /* n: worklists / BFS frontiers */
    int32_t *list1;      /* n */
    Ctl *ctl;
};

template <typename Idx>
__device__ __forceinline__ int32_t *list_of(const Args<Idx> &A, uint32_t k)
{
    return (k & 1u) ? A.list1 : A.list0;
}

/* Append v to a list: the threads that get here together take one atomic
 * for all of them (warp-aggregated). */
__device__ __forceinline__ void append(int32_t *list, unsigned int *count, int32_t v)
{
    cg::coalesced_group g = cg::coalesced_threads();
    unsigned int base = 0;
    if (g.thread_rank() == 0)
        base = atomicAdd(count, g.size());
    base = g.shfl(base, 0);
    list[base + g.thread_rank()] = v;
}

/* Put v in the list of round `next` unless it is there already. */
template <typename Idx>
__device__ __forceinline__ void activate(const Args<Idx> &A, int32_t v, uint32_t next)
{
    if (atomicExch(&A.stamp[v], next) != next)
        append(list_of(A, next), &A.ctl->cnt[next % 3u], v);
}

/*
 * BCSR: the arc v -> u, found by binary search in v's list, which holds u
 * exactly once (the lists are symmetric: u lists v iff v lists u, and
 * parallel edges were merged). Invariant of the loop: bcol[lo] <= u <
 * bcol[hi] (hi = the end of the list counts as +infinity), which holds at
 * the start because the list is sorted and contains u.
 */
template <typename Idx>
__device__ __forceinline__ Idx bcsr_find(const Args<Idx> &A, int32_t v, int32_t u)
{
    Idx lo = __ldg(&A.brow[v]), hi = __ldg(&A.brow[v + 1]);
    while (hi - lo > (Idx)1) {
        const Idx mid = lo + (hi - lo) / (Idx)2;
        if (__ldg(&A.bcol[mid]) <= u)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Counters kept per thread, added to the control block once per block. */
struct Tally {
    unsigned int pushes;
    unsigned int relabels;
    unsigned int work;
};

/*
 * One push or lift of vertex u (u < 0: a placeholder lane set) by a group
 * of G lanes (G a power of two <= 32, aligned within the warp): scan u's
 * residual arcs for the lowest neighbour, then push there or lift u above
 * it (Hong's one operation per vertex and round; a bounded discharge of
 * several lost, see csr_tuning.h). All 32 lanes of the warp must call this
 * together (the reductions shuffle over the whole warp). `next` is the
 * round whose worklist receives vertices that are (still) active; WL =
 * false (variant tc) keeps no worklist.
 */
template <int G, typename Idx, bool WL>
__device__ __forceinline__ void process(const Args<Idx> &A, int32_t u, uint32_t next, Tally &t)
{
    const unsigned full = 0xffffffffu;
    const int lane = threadIdx.x & 31;
    const int glane = lane & (G - 1);
    const int leader = lane & ~(G - 1);

    /* The leader reads the vertex and keeps the group's copy of its state;
     * every lane of the group sees the same values, so the group takes the
     * same branches. e is a lower bound of u's excess: only u takes from
     * it, and whoever adds to it also puts u in the next worklist. */
    long long e = 0;
    int32_t h = 0, tr = 0;
    if (glane == 0 && u >= 0) {
        e = (long long)__ldcg(&A.excess[u]);
        h = __ldcg(&A.height[u]);
        tr = __ldcg(&A.term[u]);
    }
    if (G > 1) {
        e = __shfl_sync(full, e, leader);
        h = __shfl_sync(full, h, leader);
        tr = __shfl_sync(full, tr, leader);
    }
    bool active = u >= 0 && e > 0 && h < A.dead;
    if (glane == 0 && active)
        t.work++;

    if (!__any_sync(full, active))
        return; /* no group of the warp has work */
    /* With residual capacity to the terminal (height 0) the lowest
     * neighbour is the terminal itself: no scan needed. Otherwise each
     * lane scans a strided share of the residual out-arcs: forward arcs
     * with flow < cap, and entering arcs with flow > 0. */
    int32_t best_h = kNoHeight;
    unsigned long long best_pos = 0; /* 2 * position + (1 for an entering arc) */
    if (active && tr == 0 && A.bcsr) {
        /* BCSR: one list holds every residual arc of u. */
        const Idx bb = A.brow[u], be = A.brow[u + 1];
        for (Idx i = bb + (Idx)glane; i < be; i += (Idx)G) {
            if (__ldcg(&A.bres[i]) > 0) {
                const int32_t hv = __ldcg(&A.height[__ldg(&A.bcol[i])]);
                if (hv < best_h) {
                    best_h = hv;
                    best_pos = 2ull * (unsigned long long)i;
                }
            }
        }
    } else if (active && tr == 0) {
        const Idx fb = A.row[u], fe = A.row[u + 1];
        for (Idx i = fb + (Idx)glane; i < fe; i += (Idx)G) {
            if (__ldcg(&A.flow[i]) < __ldg(&A.cap[i])) {
                const int32_t hv = __ldcg(&A.height[__ldg(&A.col[i])]);
                if (hv < best_h) {
                    best_h = hv;
                    best_pos = 2ull * (unsigned long long)i;
                }
            }
        }
        const Idx rb = A.rrow[u], re = A.rrow[u + 1];
        for (Idx i = rb + (Idx)glane; i < re; i += (Idx)G) {
            if (__ldcg(&A.flow[__ldg(&A.rmap[i])]) > 0) {
                const int32_t hv = __ldcg(&A.height[__ldg(&A.rcol[i])]);
                if (hv < best_h) {
                    best_h = hv;
                    best_pos = 2ull * (unsigned long long)i + 1ull;
                }
            }
        }
    }
    /* Minimum over the group: key = height, then lane (ties go to the
     * lowest lane, any choice would do). */
    unsigned long long key = ((unsigned long long)(uint32_t)best_h << 32) | (unsigned)lane;
    if (G > 1) {
#pragma unroll
        for (int off = G / 2; off > 0; off >>= 1) {
            const unsigned long long other = __shfl_xor_sync(full, key, off);
            key = other < key ? other : key;
        }
        best_pos = __shfl_sync(full, best_pos, (int)(key & 31u));
    }
    const int32_t hmin = (int32_t)(key >> 32);

    if (glane == 0 && active) {
        if (tr > 0) {
            /* Push to the terminal. */
            const long long d = e < (long long)tr ? e : (long long)tr;
            tr -= (int32_t)d;
            A.term[u] = tr;
            atomicAdd(&A.excess[u], (unsigned long long)(-d));
            e -= d;
            t.pushes++;
        } else if (hmin < h && A.bcsr) {
            /* BCSR push. Only u subtracts from bres[u -> v] (others only
             * add, v pushing back), so the re-read residual is at least
             * what the scan saw and the subtraction never goes below 0.
             * Subtracting before adding keeps bres[u->v] + bres[v->u] at
             * most the pair's capacity at every instant. */
            const Idx a = (Idx)(best_pos >> 1);
            const int32_t v = __ldg(&A.bcol[a]);
            const long long res = (long long)__ldcg(&A.bres[a]);
            const long long d = e < res ? e : res;
            atomicAdd(&A.bres[a], (unsigned long long)(-d));
            atomicAdd(&A.bres[bcsr_find(A, v, u)], (unsigned long long)d);
            atomicAdd(&A.excess[v], (unsigned long long)d);
            atomicAdd(&A.excess[u], (unsigned long long)(-d));
            e -= d;
            t.pushes++;
            if (WL)
                activate(A, v, next);
        } else if (hmin < h) {
            /* Push to the lowest neighbour. The residual is re-read:
             * since the scan it can only have grown (only u moves
             * flow[a] towards u's bound), so it is still > 0. */
            const unsigned long long i = best_pos >> 1;
            long long a;
            int32_t v;
            long long res;
            if ((best_pos & 1ull) == 0) {
                a = (long long)i;
                v = __ldg(&A.col[a]);
                res = (long long)__ldg(&A.cap[a]) - (long long)__ldcg(&A.flow[a]);
            } else {
                a = (long long)__ldg(&A.rmap[i]);
                v = __ldg(&A.rcol[i]);
                res = (long long)__ldcg(&A.flow[a]);
            }
            const long long d = e < res ? e : res;
            atomicAdd(&A.flow[a], (best_pos & 1ull) ? -(int32_t)d : (int32_t)d);
            atomicAdd(&A.excess[v], (unsigned long long)d);
            atomicAdd(&A.excess[u], (unsigned long long)(-d));
            e -= d;
            t.pushes++;
            if (WL)
                activate(A, v, next);
        } else {
            /* Lift: one above the lowest residual neighbour, or `dead`
             * (inactive) when there is none or it is too high. Heights
             * never decrease here: hmin >= h. */
            h = (hmin == kNoHeight || hmin >= A.dead - 1) ? A.dead : hmin + 1;
            A.height[u] = h;
            t.relabels++;
        }
        active = e > 0 && h < A.dead;
    }

    /* Still active: again in the next round. */
    if (WL && glane == 0 && active)
        activate(A, u, next);
}

/* Add the per-thread tallies of a block to the control block. */
__device__ __forceinline__ void flush_tally(const Tally &t, Ctl *ctl, unsigned int *work_cnt)
{
    __shared__ unsigned int s_p, s_r, s_w;
    if (threadIdx.x == 0)
        s_p = s_r = s_w = 0;
    __syncthreads();
    if (t.pushes)
        atomicAdd(&s_p, t.pushes);
    if (t.relabels)
        atomicAdd(&s_r, t.relabels);
    if (t.work && work_cnt)
        atomicAdd(&s_w, t.work);
    __syncthreads();
    if (threadIdx.x == 0) {
        if (s_p)
            atomicAdd(&ctl->pushes, (unsigned long long)s_p);
        if (s_r)
            atomicAdd(&ctl->relabels, (unsigned long long)s_r);
        if (s_w && work_cnt)
            atomicAdd(work_cnt, s_w);
    }
}

/* The vertices of one round, shared out among the warps numbered
 * `warp` (of `nwarps`) in groups of G lanes. All lanes of a warp iterate
 * together (process() shuffles over the warp). */
template <int G, typename Idx, bool WL>
__device__ __forceinline__ void round_body(const Args<Idx> &A, uint32_t round, uint32_t count,
                                           uint32_t warp, uint32_t nwarps, Tally &t)
{
    constexpr uint32_t kGroupsPerWarp = 32 / G;
    const int32_t *cur = list_of(A, round);
    const uint32_t sub = (threadIdx.x & 31u) / G;
    for (uint32_t i0 = warp * kGroupsPerWarp; i0 < count; i0 += nwarps * kGroupsPerWarp) {
        const uint32_t idx = i0 + sub;
        int32_t u = -1;
        if (idx < count)
            u = WL ? __ldcg(&cur[idx]) : (int32_t)idx;
        process<G, Idx, WL>(A, u, round + 1u, t);
    }
}

/*
 * One round. WL: process the worklist of round `round` (count in
 * cnt[round % 3]) into the worklist of round + 1. !WL (variant tc): look
 * at every vertex, one thread each, and count the active ones seen in
 * cnt[round % 3] (0 means no vertex was active: nothing moved).
 * The grid is persistent: warps stride over the list, so the launch does
 * not depend on a count the host has not read.
 */
template <int G, typename Idx, bool WL>
__global__ void __launch_bounds__(GCUT_CSR_BLOCK) round_kernel(Args<Idx> A, uint32_t round)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        A.ctl->cnt[(round + 2u) % 3u] = 0;
    const uint32_t count = WL ? __ldcg(&A.ctl->cnt[round % 3u]) : (uint32_t)A.n;
    Tally t = {0, 0, 0};
    round_body<G, Idx, WL>(A, round, count, (blockIdx.x * blockDim.x + threadIdx.x) >> 5,
                           (gridDim.x * blockDim.x) >> 5, t);
    flush_tally(t, A.ctl, WL ? nullptr : &A.ctl->cnt[round % 3u]);
}

/*
 * Rounds run by the threads of one block alone, separated by
 * __syncthreads() instead of kernel launches or grid barriers, while the
 * worklist is short. Runs rounds from `round` on, at most `max_rounds`,
 * while the list has 1 .. exit_above vertices; returns the round it
 * stopped before (all threads get the same value).
 */
template <int G, typename Idx>
__device__ __forceinline__ uint32_t block_rounds(const Args<Idx> &A, uint32_t round,
                                                 uint32_t max_rounds, uint32_t exit_above,
                                                 Tally &t)
{
    const uint32_t stop = round + max_rounds;
    for (; round != stop; round++) {
        /* Every thread reads the same count: appends to it ended before the
         * barrier that closed the previous round. */
        const uint32_t count = __ldcg(&A.ctl->cnt[round % 3u]);
        if (count == 0 || count > exit_above)
            break;
        if (threadIdx.x == 0)
            A.ctl->cnt[(round + 2u) % 3u] = 0;
        round_body<G, Idx, true>(A, round, count, threadIdx.x >> 5, blockDim.x >> 5, t);
        __syncthreads();
    }
    return round;
}

/* The hybrid tail as a kernel of one block (host driver); leaves the
 * round it stopped before in ctl->tail_round. */
template <int G, typename Idx>
__global__ void __launch_bounds__(GCUT_CSR_TAIL_THREADS)
    tail_kernel(Args<Idx> A, uint32_t round, uint32_t max_rounds, uint32_t exit_above)
{
    Tally t = {0, 0, 0};
    round = block_rounds<G, Idx>(A, round, max_rounds, exit_above, t);
    if (threadIdx.x == 0)
        A.ctl->tail_round = round;
    flush_tally(t, A.ctl, nullptr);
}

/* Phase start: cancel min(cap_source, cap_sink) per vertex. On entry
 * src holds cap_source and term cap_sink; on exit src and excess hold the
 * remaining source capacity (all of it pushed into the vertex) and term
 * the remaining sink capacity. */
__global__ void init_kernel(int32_t n, int32_t *src, int32_t *term, unsigned long long *excess,
                            uint32_t *stamp)
{
    for (int32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
        const int32_t cs = src[v], ck = term[v];
        const int32_t c = cs < ck ? cs : ck;
        src[v] = cs - c;
        term[v] = ck - c;
        excess[v] = (unsigned long long)(cs - c);
        stamp[v] = 0;
    }
}

/* Global relabel, step 1: vertices with residual capacity to the terminal
 * are at height 1 and form the first frontier; all others are unvisited
 * (the dead height n + 1). */
template <typename Idx>
__device__ __forceinline__ void bfs_init_body(const Args<Idx> &A, uint32_t tid, uint32_t nthreads)
{
    for (int32_t v = (int32_t)tid; v < A.n; v += (int32_t)nthreads) {
        const bool seed = __ldcg(&A.term[v]) > 0;
        A.height[v] = seed ? 1 : A.dead;
        if (seed)
            append(A.list0, &A.ctl->bcnt[0], v);
    }
}

template <typename Idx>
__global__ void bfs_init_kernel(Args<Idx> A)
{
    bfs_init_body(A, blockIdx.x * blockDim.x + threadIdx.x, gridDim.x * blockDim.x);
}

/* Try to reach x at height h: the first visitor wins the CAS. */
template <typename Idx>
__device__ __forceinline__ void bfs_visit(const Args<Idx> &A, int32_t x, int32_t h, int32_t *next,
                                          unsigned int *next_cnt)
{
    if (__ldcg(&A.height[x]) == A.dead && atomicCAS(&A.height[x], A.dead, h) == A.dead)
        append(next, next_cnt, x);
}

/*
 * One BFS level of a global relabel: the frontier holds the vertices at
 * height `level` (list (level - 1) & 1, `count` of them); every unvisited
 * x with a residual arc x -> y into the frontier gets height level + 1.
 * Residual arcs into y: forward arcs x -> y with flow < cap (y's entering
 * arcs) and forward arcs y -> x with flow > 0. G lanes share the arcs of
 * one frontier vertex; `tid` / `nthreads` number the threads taking part.
 */
template <int G, typename Idx>
__device__ __forceinline__ void bfs_level_body(const Args<Idx> &A, int32_t level, uint32_t count,
                                               uint32_t tid, uint32_t nthreads)
{
    const int32_t *cur = list_of(A, (uint32_t)(level - 1));
    int32_t *next = list_of(A, (uint32_t)level);
    unsigned int *next_cnt = &A.ctl->bcnt[(uint32_t)level % 3u];
    const uint32_t glane = tid & (G - 1);
    const uint32_t ngroups = nthreads / G;
    const int32_t h = level + 1;
    for (uint32_t k = tid / G; k < count; k += ngroups) {
        const int32_t y = __ldcg(&cur[k]);
        if (A.bcsr) {
            /* BCSR: x -> y is residual when bres of the arc x -> y (in x's
             * list, found by binary search) is positive; the search is
             * skipped for x already visited. */
            const Idx bb = A.brow[y], be = A.brow[y + 1];
            for (Idx i = bb + (Idx)glane; i < be; i += (Idx)G) {
                const int32_t x = __ldg(&A.bcol[i]);
                if (__ldcg(&A.height[x]) == A.dead && __ldcg(&A.bres[bcsr_find(A, x, y)]) > 0)
                    bfs_visit(A, x, h, next, next_cnt);
            }
            continue;
        }
        const Idx rb = A.rrow[y], re = A.rrow[y + 1];
        for (Idx i = rb + (Idx)glane; i < re; i += (Idx)G) {
            const Idx a = __ldg(&A.rmap[i]);
            if (__ldcg(&A.flow[a]) < __ldg(&A.cap[a]))
                bfs_visit(A, __ldg(&A.rcol[i]), h, next, next_cnt);
        }
        const Idx fb = A.row[y], fe = A.row[y + 1];
        for (Idx i = fb + (Idx)glane; i < fe; i += (Idx)G) {
            if (__ldcg(&A.flow[i]) > 0)
                bfs_visit(A, __ldg(&A.col[i]), h, next, next_cnt);
        }
    }
}

/* One BFS level on the whole GPU (frontier count in bcnt[(level-1) % 3];
 * appends to bcnt[level % 3]; clears bcnt[(level+1) % 3], the counter of
 * the level after, which nobody uses during this one). */
template <int G, typename Idx>
__global__ void __launch_bounds__(GCUT_CSR_BLOCK) bfs_level_kernel(Args<Idx> A, int32_t level)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        A.ctl->bcnt[(uint32_t)(level + 1) % 3u] = 0;
    const uint32_t count = __ldcg(&A.ctl->bcnt[(uint32_t)(level - 1) % 3u]);
    bfs_level_body<G>(A, level, count, blockIdx.x * blockDim.x + threadIdx.x,
                      gridDim.x * blockDim.x);
}

/* BFS levels run by the threads of one block alone, separated by
 * __syncthreads(), while the frontier is small (deep, narrow graphs have
 * thousands of levels of a few vertices: one launch or grid barrier each
 * would cost more than the work). Runs from `level` while the frontier has
 * 1 .. exit_above vertices; returns the next level to run. */
template <int G, typename Idx>
__device__ __forceinline__ int32_t block_levels(const Args<Idx> &A, int32_t level,
                                                uint32_t exit_above)
{
    for (;; level++) {
        const uint32_t count = __ldcg(&A.ctl->bcnt[(uint32_t)(level - 1) % 3u]);
        if (count == 0 || count > exit_above)
            break;
        if (threadIdx.x == 0)
            A.ctl->bcnt[(uint32_t)(level + 1) % 3u] = 0;
        bfs_level_body<G>(A, level, count, threadIdx.x, blockDim.x);
        __syncthreads();
    }
    return level;
}

/* block_levels as a kernel (host driver): the next level to run goes to
 * ctl->bfs_level. */
template <int G, typename Idx>
__global__ void __launch_bounds__(GCUT_CSR_TAIL_THREADS)
    bfs_tail_kernel(Args<Idx> A, int32_t level, uint32_t exit_above)
{
    level = block_levels<G, Idx>(A, level, exit_above);
    if (threadIdx.x == 0)
        A.ctl->bfs_level = level;
}

/* After a global relabel: the worklist of round `round` (vc), the number
 * of active vertices, and of vertices holding excess at any height. */
template <typename Idx, bool WL>
__device__ __forceinline__ void rebuild_body(const Args<Idx> &A, uint32_t round, uint32_t tid,
                                             uint32_t nthreads)
{
    for (int32_t v = (int32_t)tid; v < A.n; v += (int32_t)nthreads) {
        if (__ldcg(&A.excess[v]) == 0)
            continue;
        {
            cg::coalesced_group g = cg::coalesced_threads();
            if (g.thread_rank() == 0)
                atomicAdd(&A.ctl->excess_nodes, g.size());
        }
        if (__ldcg(&A.height[v]) < A.dead) {
            if (WL) {
                A.stamp[v] = round;
                append(list_of(A, round), &A.ctl->cnt[round % 3u], v);
            }
            cg::coalesced_group g = cg::coalesced_threads();
            if (g.thread_rank() == 0)
                atomicAdd(&A.ctl->active, g.size());
        }
    }
}

template <typename Idx, bool WL>
__global__ void rebuild_kernel(Args<Idx> A, uint32_t round)
{
    rebuild_body<Idx, WL>(A, round, blockIdx.x * blockDim.x + threadIdx.x,
                          gridDim.x * blockDim.x);
}

/* Settings of one cycle of the cooperative driver (passed by value). */
struct CycleParams {
    uint32_t round;     /* the first round of the cycle */
    uint32_t interval;  /* rounds before the next global relabel, at least */
    float depth_factor; /* ... and at least this times the BFS depth; 0: fixed */
};

/*
 * One cycle of a phase in one cooperative launch: a global relabel (BFS
 * from the terminal, rebuild of the worklist), then rounds until the
 * worklist empties or the relabel interval is over. Grid-wide barriers
 * replace kernel launches, and every block takes part in every level and
 * round (block 0 running short lists alone while the others wait lost on
 * every graph measured: csr_tuning.h).
 *
 * Every decision that steers the barriers is taken by all threads from a
 * counter read after a barrier and not written before the next one: the
 * step at level/round k clears only the counter that was read before the
 * previous barrier.
 *
 * The host clears cnt, bcnt, active and excess_nodes before the launch.
 * Leaves in ctl: active and excess_nodes of the rebuild, bfs_level (the
 * depth of the BFS) and tail_round (the round the cycle stopped before).
 */
template <int G, typename Idx>
__global__ void __launch_bounds__(GCUT_CSR_COOP_BLOCK) cycle_kernel(Args<Idx> A, CycleParams P)
{
    cg::grid_group grid = cg::this_grid();
    const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t nthreads = gridDim.x * blockDim.x;
    Ctl *ctl = A.ctl;
    Tally t = {0, 0, 0};

    /* ---- global relabel */
    bfs_init_body(A, tid, nthreads);
    grid.sync();
    int32_t level = 1;
    for (;;) {
        const uint32_t count = __ldcg(&ctl->bcnt[(uint32_t)(level - 1) % 3u]);
        if (count == 0)
            break;
        if (tid == 0)
            ctl->bcnt[(uint32_t)(level + 1) % 3u] = 0;
        bfs_level_body<G>(A, level, count, tid, nthreads);
        grid.sync();
        level++;
    }
    rebuild_body<Idx, true>(A, P.round, tid, nthreads);
    grid.sync();

    /* ---- rounds */
    uint32_t round = P.round;
    if (__ldcg(&ctl->active) > 0) {
        uint64_t interval = P.interval;
        if (P.depth_factor > 0.0f) {
            const float d = P.depth_factor * (float)level;
            if ((float)interval < d)
                interval = (uint64_t)d;
        }
        uint64_t k = 0;
        while (k < interval) {
            const uint32_t count = __ldcg(&ctl->cnt[round % 3u]);
            if (count == 0)
                break;
            if (tid == 0)
                ctl->cnt[(round + 2u) % 3u] = 0;
            round_body<G, Idx, true>(A, round, count, tid >> 5, nthreads >> 5, t);
            grid.sync();
            round++;
            k++;
        }
    }
    if (tid == 0) {
        ctl->tail_round = round;
        ctl->bfs_level = level;
    }
    flush_tally(t, ctl, nullptr);
}

/* The canonical cut from the last BFS: reached (height < dead) = sink side. */
__global__ void cut_kernel(int32_t n, int32_t dead, const int32_t *height, uint8_t *cut)
{
    for (int32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
        cut[v] = height[v] < dead ? 1 : 0;
}

/* Sum of term[] (what the sink did not take) into ctl->term_left. */
__global__ void term_sum_kernel(int32_t n, const int32_t *term, Ctl *ctl)
{
    unsigned long long s = 0;
    for (int32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
        s += (unsigned long long)term[v];
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, off);
    if ((threadIdx.x & 31) == 0 && s)
        atomicAdd(&ctl->term_left, s);
}

/* Narrow 64-bit offsets to Idx (only used when every value fits). */
template <typename Idx>
__global__ void narrow_kernel(Idx *dst, const long long *src, long long count)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
         i += (long long)gridDim.x * blockDim.x)
        dst[i] = (Idx)src[i];
}

/* A trivial kernel the probe loads to check that this build has code for
 * the device. */
__global__ void probe_kernel(int *out)
{
    if (out)
        *out = 1;
}

} // namespace gcut_csr

#endif /* GCUT_CSR_KERNELS_CUH */
