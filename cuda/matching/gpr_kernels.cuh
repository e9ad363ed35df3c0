/*
 * gpr_kernels.cuh - the device kernels of cuda-match-gpr (G-PR).
 *
 * Deveci, Kaya, Uçar & Çatalyürek, "GPU accelerated maximum cardinality
 * matching algorithms for bipartite graphs", Euro-Par 2013.
 *
 * Columns push, rows carry the labels psi. A free row has label 0; a row
 * matched to column c has a label of at least 2 + the smallest label among
 * the other rows of c, since an augmenting path from it must go through c
 * to one of them. Rows at psi >= maxlevel are unreachable from a free row.
 *
 * Invariants between kernels:
 *   - rmatch is the truth: column c is matched to row r exactly when
 *     rmatch[r] == c. Every change of rmatch is one atomicExch, so the
 *     previous owner of a row is handed back to exactly one thread, which
 *     puts it on the next active list: no column is lost or listed twice,
 *     and a column owns at most one row.
 *   - cmatch[c] is the row c took last; it may be stale (c was displaced),
 *     and gpr_fix_cmatch clears the stale entries before any reader.
 *   - psi only grows between two global relabels (atomicMax), and every
 *     value written is a lower bound of the alternating distance to a free
 *     row computed from lower bounds, so stale reads only weaken it.
 * The labels are a heuristic for where to push; the proof that the final
 * matching is maximum comes from the last global relabel (gpr_launch.cu).
 */
#ifndef GCUT_GPR_KERNELS_CUH
#define GCUT_GPR_KERNELS_CUH

#include <stdint.h>

/* One thread per active column u: find the neighbour rows of smallest and
 * second smallest label, take the smallest (double push: u takes row v and
 * v's previous mate, if any, becomes active), then relabel v to
 * min2 + 2 (the paper's rule; min + 2 when the scan stopped early at a free
 * row). A column whose neighbours are all at maxlevel drops out. */
__global__ void gpr_push(const int64_t *__restrict__ cptr, const int32_t *__restrict__ cadj,
                         int32_t *rmatch, int32_t *cmatch, int32_t *psi,
                         const int32_t *__restrict__ act, int32_t nact, int32_t *next,
                         int32_t *nnext, int32_t maxlevel)
{
    const int32_t i = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= nact)
        return;
    const int32_t u = act[i];
    int32_t best = -1, m1 = maxlevel, m2 = maxlevel;
    for (int64_t k = cptr[u], e = cptr[u + 1]; k < e; k++) {
        const int32_t v = cadj[k];
        /* Labels of other threads' rows change under us: read through L2
         * (no stale L1 line); an old value is still a lower bound. */
        const int32_t p = __ldcg(&psi[v]);
        if (p < m1) {
            m2 = m1;
            m1 = p;
            best = v;
            if (p == 0) { /* a free row: nothing can be smaller */
                m2 = 0;
                break;
            }
        } else if (p < m2) {
            m2 = p;
        }
    }
    if (m1 >= maxlevel)
        return;
    const int32_t label = m2 >= maxlevel ? maxlevel : m2 + 2;
    const int32_t w = atomicExch(&rmatch[best], u);
    cmatch[u] = best;
    atomicMax(&psi[best], label);
    if (w >= 0)
        next[atomicAdd(nnext, 1)] = w;
}

/* The fix-up of inconsistent mates: a column whose row was taken by
 * another column since is free. */
__global__ void gpr_fix_cmatch(const int32_t *__restrict__ rmatch, int32_t *cmatch, int32_t nc)
{
    const int32_t u = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (u >= nc)
        return;
    const int32_t r = cmatch[u];
    if (r >= 0 && rmatch[r] != u)
        cmatch[u] = -1;
}

/* Global relabel, start: free rows at 0, the others unreached. */
__global__ void gpr_bfs_init(const int32_t *__restrict__ rmatch, int32_t *psi, int32_t nr,
                             int32_t maxlevel)
{
    const int32_t v = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (v < nr)
        psi[v] = rmatch[v] < 0 ? 0 : maxlevel;
}

/* Global relabel, one level (level-synchronous BFS from the free rows along
 * alternating paths, pulled by the columns): a matched column u whose mate
 * w is unreached and which has a row at `level` gives w level + 2. Each w
 * is written by its mate's thread alone; a row written in this level holds
 * level + 2 or maxlevel, never `level`, so the result does not depend on
 * the order of the threads. */
__global__ void gpr_bfs_level(const int64_t *__restrict__ cptr, const int32_t *__restrict__ cadj,
                              const int32_t *__restrict__ cmatch, int32_t *psi, int32_t nc,
                              int32_t level, int32_t maxlevel, int32_t *changed)
{
    const int32_t u = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (u >= nc)
        return;
    const int32_t w = cmatch[u];
    if (w < 0 || psi[w] != maxlevel)
        return;
    for (int64_t k = cptr[u], e = cptr[u + 1]; k < e; k++)
        if (__ldcg(&psi[cadj[k]]) == level) {
            psi[w] = level + 2;
            *changed = 1;
            return;
        }
}

/* After a global relabel: the free columns next to a reached row start the
 * active list. None means no augmenting path is left (the matching is
 * maximum: König). */
__global__ void gpr_collect_active(const int64_t *__restrict__ cptr,
                                   const int32_t *__restrict__ cadj,
                                   const int32_t *__restrict__ cmatch,
                                   const int32_t *__restrict__ psi, int32_t nc, int32_t maxlevel,
                                   int32_t *act, int32_t *nact)
{
    const int32_t u = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (u >= nc || cmatch[u] >= 0)
        return;
    for (int64_t k = cptr[u], e = cptr[u + 1]; k < e; k++)
        if (psi[cadj[k]] < maxlevel) {
            act[atomicAdd(nact, 1)] = u;
            return;
        }
}

#endif /* GCUT_GPR_KERNELS_CUH */
