/*
 * csr_layout.cuh - the RCSR layout (gcut/plugin.h) of a graph built on the
 * device from its edge list, for cuda-csr (GCUT_BACKEND_LAYS_OUT): the
 * core's host build (lib/graph/csr.c) takes seconds on graphs of tens of
 * millions of edges, the upload of the edges and two radix sorts take
 * milliseconds. Included by csr_launch.cu only.
 *
 * The layout is the host's arc for arc (tests/test_gpu_csr.c checks it
 * with `layout=check`):
 *   - the edges go up as they are (16 bytes each); a kernel counts the arcs
 *     of each edge (u -> v when cap > 0, v -> u when rev_cap > 0, none for
 *     a self-loop) and a prefix sum gives each its slot, so the arcs are in
 *     edge order with the forward arc first, and each carries its code
 *     2 e + (1 for v -> u), the layout's `edge`;
 *   - a stable radix sort by tail gives the forward arcs in the host's
 *     order (by tail, then by code: its counting sort walks the edges in
 *     order), and the row offsets are the prefix sums of the arcs per
 *     tail;
 *   - a second stable radix sort, of the forward indices by head, gives the
 *     reverse index in the host's order (it walks the forward arcs in
 *     order and files each under its head), rrow likewise.
 * Sizes: graphs up to GCUT_LAYS_OUT_MAX_EDGES edges (the core passes the
 * host layout beyond), so every count fits CUB's int.
 *
 * Memory: the edges and two 32-bit counts per edge (24 bytes an edge), a
 * count per node, and
 * for the sorts two 32-bit keys and two 64-bit codes per arc (24 bytes an
 * arc) plus CUB's scratch, kept until the solve ends (the codes give the
 * flows of the edges).
 */
#ifndef GCUT_CSR_LAYOUT_CUH
#define GCUT_CSR_LAYOUT_CUH

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

namespace gcut_csr {

#define GCUT_LAY_LOOP(i, count)                                                                    \
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (count);              \
         i += (long long)gridDim.x * blockDim.x)

__global__ void lay_count_kernel(long long ne, const int32_t *eu, const int32_t *ev,
                                 const int32_t *ecap, const int32_t *erev, uint32_t *cnt)
{
    GCUT_LAY_LOOP(e, ne)
    {
        cnt[e] = eu[e] != ev[e] ? (uint32_t)(ecap[e] > 0) + (uint32_t)(erev[e] > 0) : 0u;
    }
}

__global__ void lay_scatter_kernel(long long ne, const int32_t *eu, const int32_t *ev,
                                   const int32_t *ecap, const int32_t *erev, const uint32_t *off,
                                   uint32_t *keys, unsigned long long *codes)
{
    GCUT_LAY_LOOP(e, ne)
    {
        const int32_t u = eu[e], v = ev[e];
        if (u == v)
            continue;
        uint32_t j = off[e];
        if (ecap[e] > 0) {
            keys[j] = (uint32_t)u;
            codes[j] = 2ull * (unsigned long long)e;
            j++;
        }
        if (erev[e] > 0) {
            keys[j] = (uint32_t)v;
            codes[j] = 2ull * (unsigned long long)e + 1ull;
        }
    }
}

/* Head and capacity of every forward arc from its code. */
__global__ void lay_fill_kernel(long long m, const unsigned long long *codes, const int32_t *eu,
                                const int32_t *ev, const int32_t *ecap, const int32_t *erev,
                                int32_t *col, int32_t *cap)
{
    GCUT_LAY_LOOP(a, m)
    {
        const unsigned long long code = codes[a];
        const long long e = (long long)(code >> 1);
        if (code & 1ull) {
            col[a] = eu[e];
            cap[a] = erev[e];
        } else {
            col[a] = ev[e];
            cap[a] = ecap[e];
        }
    }
}

/* Arcs per key (the offsets are their exclusive prefix sums: the first
 * position of each key in the sorted order, nodes without arcs included). */
__global__ void lay_key_count_kernel(long long m, const uint32_t *keys, uint32_t *count)
{
    GCUT_LAY_LOOP(a, m)
    {
        atomicAdd(&count[keys[a]], 1u);
    }
}

template <typename Idx>
__global__ void lay_iota_kernel(long long m, Idx *x)
{
    GCUT_LAY_LOOP(a, m)
    {
        x[a] = (Idx)a;
    }
}

/* rcol[r] = the tail of forward arc rmap[r] (the sorted tails). */
template <typename Idx>
__global__ void lay_rcol_kernel(long long m, const Idx *rmap, const uint32_t *tails, int32_t *rcol)
{
    GCUT_LAY_LOOP(r, m)
    {
        rcol[r] = (int32_t)tails[(long long)rmap[r]];
    }
}

/* The largest in + out degree (auto_group's input). */
template <typename Idx>
__global__ void lay_degree_kernel(int32_t n, const Idx *row, const Idx *rrow,
                                  unsigned long long *max_deg)
{
    unsigned long long best = 0;
    GCUT_LAY_LOOP(v, n)
    {
        const unsigned long long d = (unsigned long long)(row[v + 1] - row[v]) +
                                     (unsigned long long)(rrow[v + 1] - rrow[v]);
        best = d > best ? d : best;
    }
    if (best)
        atomicMax(max_deg, best);
}

/* The flow of each edge: its forward arc's flow minus that of its v -> u
 * arc (integer atomics: the sums do not depend on their order). */
__global__ void lay_edge_flow_kernel(long long m, const unsigned long long *codes,
                                     const int32_t *flow, int32_t *ef)
{
    GCUT_LAY_LOOP(a, m)
    {
        const unsigned long long code = codes[a];
        const int32_t f = flow[a];
        if (f)
            atomicAdd(&ef[code >> 1], (code & 1ull) ? -f : f);
    }
}

#undef GCUT_LAY_LOOP

} // namespace gcut_csr

#endif /* GCUT_CSR_LAYOUT_CUH */
