/*
 * mrf_kernels.cuh - device code of the multi-label moves run with
 * cuda-grid's engine (mrf_launch.cu): kernels only (CONTRIBUTING.md rule 25).
 * The move graphs are written straight into the grid engine's arrays
 * (grid/grid_kernels.cuh's Dev), cut by its phase I, and applied here.
 */
#ifndef GCUT_CU_MRF_KERNELS_CUH
#define GCUT_CU_MRF_KERNELS_CUH

#include "grid/grid_kernels.cuh"

namespace gcut_grid_cu {
namespace {

/* Device side of gcut_mrf_expand and gcut_mrf_swap (vision/mrf/mrf.c has the
 * construction): the unary table, V, the pair weights and the labelling
 * live on the device; each move's graph is written by move_kernel straight
 * into the engine's arrays, cut by phase I, and applied by accept_kernel. */
enum {
    MRF_K = 0, MRF_NEG = 1, MRF_ENERGY = 2, MRF_ACCEPTED = 3, MRF_ERROR = 4, MRF_MOVES = 5,
    MRF_RAN = 6, MRF_SLOTS = 8
};

/* A move graph kept for the next cycle's move on the same label: each
 * node's terminal capacity t (source max(t, 0), sink max(-t, 0)) and the
 * capacities of the pairs it starts (even directions). */
struct Kept {
    long long *t;          /* n */
    unsigned *c;           /* ND / 2 * n */
};

struct Mrf {
    const int *unary;      /* n * L */
    const int *V;          /* L * L */
    const int *w[13];      /* per even direction, NULL: all 1 */
    int *labels;           /* n */
    int *count;            /* L: nodes per label (swap only, else NULL) */
    int L;
    long long *acc;        /* MRF_SLOTS */
};

/* The move: expansion on alpha (beta < 0; every node active, x_v = 1
 * takes alpha, 0 keeps f_v) or the swap of alpha and beta (nodes labelled
 * alpha or beta active, x_v = 1 takes beta, 0 alpha; the others fixed). */
struct Move {
    int alpha, beta;
    __device__ bool active(int f) const { return beta < 0 || f == alpha || f == beta; }
    __device__ int l0(int f) const { return beta < 0 ? f : alpha; }
    __device__ int l1() const { return beta < 0 ? alpha : beta; }
};

/* The graph of a move from the current labelling (x_v = 1 on the sink
 * side). Node v computes its own terminal capacity t_v (its unary
 * difference, plus C - A of the pairs it starts and D - C of the pairs it
 * ends, or the one-sided terms of pairs with a fixed node), the capacities
 * B + C - A - D of the pairs it starts (in its even directions; the odd
 * ones 0), and the constant K of its unary and of the pairs it starts;
 * nothing is shared between threads but the two sums. A fixed node gets
 * t = 0 and no arcs: it stays alone on the source side. */
template <int ND, bool D3>
__global__ void __launch_bounds__(kThreads) move_kernel(Dev g, Mrf m, Move mv, Kept kept,
                                                        int warm)
{
    __shared__ u64 s_sum[2];
    const Pos<D3> p(g);
    long long K = 0, neg = 0;
    int err = 0;
    if (p.valid) {
        const int L = m.L, f = m.labels[p.v], l1 = mv.l1();
        const bool av = mv.active(f);
        const int v0 = mv.l0(f);
        long long t = 0;
        if (av) {
            const long long u0 = m.unary[(size_t)p.v * L + v0];
            K = u0;
            t = (long long)m.unary[(size_t)p.v * L + l1] - u0;
        } else {
            K = m.unary[(size_t)p.v * L + f];
        }
#pragma unroll
        for (int k = 0; k < ND / 2; k++) {
            const int dx = c_dx[2 * k], dy = c_dy[2 * k], dz = c_dz[2 * k];
            /* The pair this node starts: (v, v + off). */
            int x = p.x + dx, y = p.y + dy, z = p.z + dz;
            long long c = 0;
            if (x >= 0 && x < g.W && y >= 0 && y < g.H && z >= 0 && z < g.D) {
                const int u = x + g.W * (y + g.H * z), fu = m.labels[u];
                const bool au = mv.active(fu);
                const int u0 = mv.l0(fu);
                const long long w = m.w[k] ? m.w[k][p.v] : 1;
                if (av && au) {
                    const long long A = w * m.V[v0 * L + u0], B = w * m.V[v0 * L + l1];
                    const long long C = w * m.V[l1 * L + u0], D = w * m.V[l1 * L + l1];
                    K += A;
                    t += C - A;
                    c = B + C - A - D;
                    if (c < 0 || c > 0x7fffffffLL) {
                        err = 1;
                        c = 0;
                    }
                } else if (av) {
                    const long long a0 = w * m.V[v0 * L + fu];
                    K += a0;
                    t += w * m.V[l1 * L + fu] - a0;
                } else if (au) {
                    K += w * m.V[f * L + u0];
                } else {
                    K += w * m.V[f * L + fu];
                }
            }
            if (!warm) {
                g.res[(size_t)(2 * k) * g.n + p.v] = (unsigned)c;
                g.res[(size_t)(2 * k + 1) * g.n + p.v] = 0;
            } else if (x >= 0 && x < g.W && y >= 0 && y < g.H && z >= 0 && z < g.D) {
                /* Repair the kept flow on this pair (the arc back has
                 * capacity 0 in every move graph): a capacity now below the
                 * flow it carries sends the surplus back to this node. */
                const int u = x + g.W * (y + g.H * z);
                const long long dc = c - (long long)kept.c[(size_t)k * g.n + p.v];
                if (dc) {
                    unsigned *pf = &g.res[(size_t)(2 * k) * g.n + p.v];
                    unsigned *pr = &g.res[(size_t)(2 * k + 1) * g.n + u];
                    long long fl = (long long)*pf + dc, r = *pr;
                    if (fl < 0) {
                        atomicAdd((u64 *)&g.ex[p.v], (u64)(-fl));
                        atomicAdd((u64 *)&g.ex[u], (u64)fl);
                        r += fl;
                        fl = 0;
                    }
                    *pf = (unsigned)fl;
                    *pr = (unsigned)r;
                }
            }
            kept.c[(size_t)k * g.n + p.v] = (unsigned)c;
            /* The pair this node ends: (v - off, v). */
            x = p.x - dx;
            y = p.y - dy;
            z = p.z - dz;
            if (av && x >= 0 && x < g.W && y >= 0 && y < g.H && z >= 0 && z < g.D) {
                const int q = x + g.W * (y + g.H * z), fq = m.labels[q];
                const long long w = m.w[k] ? m.w[k][q] : 1;
                if (mv.active(fq))
                    t += w * m.V[l1 * L + l1] - w * m.V[l1 * L + v0];
                else
                    t += w * m.V[fq * L + l1] - w * m.V[fq * L + v0];
            }
        }
        if (t > 0x7fffffffLL || -t > 0x7fffffffLL) {
            err = 1;
            t = 0;
        }
        if (!warm) {
            g.ex[p.v] = t > 0 ? t : 0;
            g.rs[p.v] = (u64)(t < 0 ? -t : 0);
        } else {
            /* Terminal capacities change by the differences of t's parts;
             * a sink arc now below its flow gives the surplus back as
             * excess (and takes it off the flow). */
            const long long t0 = kept.t[p.v];
            const long long dsrc = (t > 0 ? t : 0) - (t0 > 0 ? t0 : 0);
            const long long dsnk = (t < 0 ? -t : 0) - (t0 < 0 ? -t0 : 0);
            if (dsrc)
                atomicAdd((u64 *)&g.ex[p.v], (u64)dsrc);
            if (dsnk) {
                const long long r = (long long)g.rs[p.v] + dsnk;
                if (r < 0) {
                    atomicAdd((u64 *)&g.ex[p.v], (u64)(-r));
                    atomicAdd(&g.acc[ACC_FLOW], (u64)r);
                    g.rs[p.v] = 0;
                } else {
                    g.rs[p.v] = (u64)r;
                }
            }
        }
        kept.t[p.v] = t;
        neg = t < 0 ? -t : 0;
    }
    if (err)
        atomicOr((unsigned long long *)&m.acc[MRF_ERROR], 1ull);
    block_add2((u64 *)&m.acc[MRF_K], (u64)K, (u64 *)&m.acc[MRF_NEG], (u64)neg, s_sum);
}

/* Apply the move if it lowers the energy strictly: E(x*) = K - neg + flow
 * (every thread reads the same sums and decides the same way). An active
 * node on the sink side of the canonical cut takes l1, one on the source
 * side l0. A swap moves nodes between alpha and beta only, so each block
 * adds its net count of alpha -> beta to the two counts. */
__global__ void accept_kernel(Dev g, Mrf m, Move mv)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    const long long e =
        m.acc[MRF_K] - m.acc[MRF_NEG] + (long long)(g.acc[ACC_FLOW] - g.acc[ACC_OFFSET]);
    if (e >= m.acc[MRF_ENERGY])
        return; /* the same for every thread */
    int ab = 0, ba = 0;
    if (v < g.n) {
        const int f = m.labels[v];
        if (mv.active(f)) {
            const int nl = g.lab[v] < g.dead ? mv.l1() : mv.l0(f);
            if (nl != f) {
                m.labels[v] = nl;
                ab = nl == mv.beta;
                ba = f == mv.beta;
            }
        }
    }
    if (mv.beta >= 0) {
        const int d = __syncthreads_count(ab) - __syncthreads_count(ba);
        if (threadIdx.x == 0 && d) {
            atomicSub(&m.count[mv.alpha], d);
            atomicAdd(&m.count[mv.beta], d);
        }
    }
}

/* After accept_kernel: record the new energy, and whether the move counts
 * (a swap of two unused labels does not; its pair total is the same before
 * and after accept_kernel). */
__global__ void accept_energy_kernel(Dev g, Mrf m, Move mv)
{
    const long long e =
        m.acc[MRF_K] - m.acc[MRF_NEG] + (long long)(g.acc[ACC_FLOW] - g.acc[ACC_OFFSET]);
    if (e < m.acc[MRF_ENERGY]) {
        m.acc[MRF_ENERGY] = e;
        m.acc[MRF_ACCEPTED] += 1;
    }
    const int ran = mv.beta < 0 || m.count[mv.alpha] + m.count[mv.beta] > 0;
    m.acc[MRF_MOVES] += ran;
    m.acc[MRF_RAN] = ran;
}

/* The number of nodes of each label (swap), from zeroed counts. */
__global__ void label_count_kernel(Mrf m, int n)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n)
        atomicAdd(&m.count[m.labels[v]], 1);
}

} /* unnamed namespace */
} /* namespace gcut_grid_cu */

#endif /* GCUT_CU_MRF_KERNELS_CUH */
