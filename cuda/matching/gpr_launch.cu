/*
 * gpr_launch.cu - cuda-match-gpr: the host side of G-PR.
 *
 * Deveci, Kaya, Uçar & Çatalyürek, "GPU accelerated maximum cardinality
 * matching algorithms for bipartite graphs", Euro-Par 2013.
 *
 * The device holds the columns' CSR, the mates both ways (rmatch row ->
 * column, the truth; cmatch column -> row, fixed up before it is read),
 * the row labels psi and the active-column list in two arrays (the list
 * a push kernel reads and the one it writes). One round:
 *
 *   1. fix cmatch, then a global relabel: a level-synchronous BFS from the
 *      free rows along alternating paths gives every row its exact
 *      distance (maxlevel when unreachable); maxLevel is the deepest level;
 *   2. the free columns next to a reached row form the active list; when
 *      there are none, no augmenting path exists and the matching is
 *      maximum (this is the König argument of gcut_match_check: the BFS is
 *      exact because it runs on consistent mates), so we stop;
 *   3. up to k x maxLevel push kernels (k = GPR_RELABEL_K, the paper's
 *      adaptive frequency), each over the current list and appending the
 *      columns it displaces to the other list, which then becomes current.
 *      Conflicts roll back by themselves: two columns racing for a row both
 *      swap themselves in with atomicExch, and the one swapped out lands on
 *      the next list, exactly once. The list stays compact because only
 *      displaced columns are appended (atomic append, no prefix sum
 *      needed); columns that can reach nothing drop out until the next
 *      relabel.
 *
 * Termination of the whole is only declared by step 2 on exact labels, so
 * the heuristic labels of step 3 (read while other threads write them) can
 * cost time but never a wrong answer.
 */
#include <stdint.h>

#include "matching/gpr_internal.h"
#include "matching/gpr_kernels.cuh"
#include "matching/gpr_tuning.h"

namespace {

/* Device arrays of one run, freed together. */
struct gpr_dev {
    int64_t *cptr;
    int32_t *cadj, *rmatch, *cmatch, *psi, *list[2], *counter;
    int32_t *host_counter; /* pinned, for the small read-backs */
    cudaStream_t stream;
};

inline unsigned blocks_for(int64_t n) { return (unsigned)((n + GPR_BLOCK - 1) / GPR_BLOCK); }

/* Read the device counter after the stream's work so far. */
gcut_status read_counter(gpr_dev *d, int32_t *value)
{
    GCUT_CUDA_CHECK(cudaMemcpyAsync(d->host_counter, d->counter, sizeof(int32_t),
                                    cudaMemcpyDeviceToHost, d->stream));
    GCUT_CUDA_CHECK(cudaStreamSynchronize(d->stream));
    *value = *d->host_counter;
    return GCUT_OK;
}

/* Step 1: fix-up and global relabel; *top receives the deepest label. */
gcut_status global_relabel(gpr_dev *d, int32_t nr, int32_t nc, int32_t maxlevel, int32_t *top)
{
    gpr_fix_cmatch<<<blocks_for(nc), GPR_BLOCK, 0, d->stream>>>(d->rmatch, d->cmatch, nc);
    GCUT_CUDA_CHECK_LAUNCH(d->stream);
    gpr_bfs_init<<<blocks_for(nr), GPR_BLOCK, 0, d->stream>>>(d->rmatch, d->psi, nr, maxlevel);
    GCUT_CUDA_CHECK_LAUNCH(d->stream);
    *top = 0;
    for (int32_t level = 0; level + 2 < maxlevel; level += 2) {
        GCUT_CUDA_CHECK(cudaMemsetAsync(d->counter, 0, sizeof(int32_t), d->stream));
        gpr_bfs_level<<<blocks_for(nc), GPR_BLOCK, 0, d->stream>>>(
            d->cptr, d->cadj, d->cmatch, d->psi, nc, level, maxlevel, d->counter);
        GCUT_CUDA_CHECK_LAUNCH(d->stream);
        int32_t changed = 0;
        gcut_status st = read_counter(d, &changed);
        if (st != GCUT_OK)
            return st;
        if (!changed)
            break;
        *top = level + 2;
    }
    return GCUT_OK;
}

gcut_status gpr_solve(const gcut_match_problem *p, gpr_dev *d)
{
    const int32_t nr = p->rows, nc = p->cols;
    const int64_t m = p->edges;
    /* A finite alternating distance is at most 2 min(rows, cols). */
    int64_t ml = 2 * (int64_t)(nr < nc ? nr : nc) + 2;
    const int32_t maxlevel = ml > INT32_MAX - 4 ? INT32_MAX - 4 : (int32_t)ml;

    GCUT_CUDA_CHECK(cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking));
    GCUT_CUDA_CHECK(cudaMallocHost((void **)&d->host_counter, sizeof(int32_t)));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&d->cptr, ((size_t)nc + 1) * sizeof(int64_t)));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&d->cadj, ((size_t)m + 1) * sizeof(int32_t)));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&d->rmatch, ((size_t)nr + 1) * sizeof(int32_t)));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&d->cmatch, ((size_t)nc + 1) * sizeof(int32_t)));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&d->psi, ((size_t)nr + 1) * sizeof(int32_t)));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&d->list[0], ((size_t)nc + 1) * sizeof(int32_t)));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&d->list[1], ((size_t)nc + 1) * sizeof(int32_t)));
    GCUT_CUDA_CHECK(cudaMalloc((void **)&d->counter, sizeof(int32_t)));
    GCUT_CUDA_CHECK(cudaMemcpyAsync(d->cptr, p->col_ptr, ((size_t)nc + 1) * sizeof(int64_t),
                                    cudaMemcpyHostToDevice, d->stream));
    if (m > 0)
        GCUT_CUDA_CHECK(cudaMemcpyAsync(d->cadj, p->col_adj, (size_t)m * sizeof(int32_t),
                                        cudaMemcpyHostToDevice, d->stream));
    if (nr > 0)
        GCUT_CUDA_CHECK(cudaMemcpyAsync(d->rmatch, p->row_mates, (size_t)nr * sizeof(int32_t),
                                        cudaMemcpyHostToDevice, d->stream));
    if (nc > 0)
        GCUT_CUDA_CHECK(cudaMemcpyAsync(d->cmatch, p->col_mates, (size_t)nc * sizeof(int32_t),
                                        cudaMemcpyHostToDevice, d->stream));

    /* Rounds that augment nothing cannot go on for ever on exact labels;
     * this bound only turns a bug into an error instead of a hang. */
    const int64_t max_rounds = 2 * (int64_t)nc + 1000;
    int64_t pushes = 0, kernels = 0, relabels = 0;
    int cur = 0;
    for (int64_t round = 0;; round++) {
        if (gcut_cu_now() > p->deadline_ms)
            return GCUT_CU_FAIL(GCUT_ERR_TIMEOUT, "cuda-match-gpr: time limit reached");
        gcut_status pst = gcut_cu_poll(p->log, "solve", -1, NULL);
        if (pst != GCUT_OK)
            return pst;
        if (round > max_rounds)
            return GCUT_CU_FAIL(GCUT_ERR_INTERNAL, "cuda-match-gpr: no progress after %lld rounds",
                                (long long)round);
        int32_t top = 0, nact = 0;
        gcut_status st = global_relabel(d, nr, nc, maxlevel, &top);
        if (st != GCUT_OK)
            return st;
        relabels++;
        GCUT_CUDA_CHECK(cudaMemsetAsync(d->counter, 0, sizeof(int32_t), d->stream));
        gpr_collect_active<<<blocks_for(nc), GPR_BLOCK, 0, d->stream>>>(
            d->cptr, d->cadj, d->cmatch, d->psi, nc, maxlevel, d->list[cur], d->counter);
        GCUT_CUDA_CHECK_LAUNCH(d->stream);
        if ((st = read_counter(d, &nact)) != GCUT_OK)
            return st;
        if (nact == 0)
            break; /* maximum: no free column reaches a free row */
        double budget = GPR_RELABEL_K * (double)top;
        const int64_t calls = budget < GPR_MIN_PUSH_ROUNDS ? GPR_MIN_PUSH_ROUNDS : (int64_t)budget;
        for (int64_t it = 0; it < calls && nact > 0; it++) {
            GCUT_CUDA_CHECK(cudaMemsetAsync(d->counter, 0, sizeof(int32_t), d->stream));
            gpr_push<<<blocks_for(nact), GPR_BLOCK, 0, d->stream>>>(
                d->cptr, d->cadj, d->rmatch, d->cmatch, d->psi, d->list[cur], nact,
                d->list[cur ^ 1], d->counter, maxlevel);
            GCUT_CUDA_CHECK_LAUNCH(d->stream);
            pushes += nact;
            kernels++;
            if ((st = read_counter(d, &nact)) != GCUT_OK)
                return st;
            cur ^= 1;
        }
    }

    /* The final fix-up: rmatch is the truth; cmatch follows from it on the
     * host, so the two directions agree exactly. */
    if (nr > 0)
        GCUT_CUDA_CHECK(cudaMemcpyAsync(p->row_mates, d->rmatch, (size_t)nr * sizeof(int32_t),
                                        cudaMemcpyDeviceToHost, d->stream));
    GCUT_CUDA_CHECK(cudaStreamSynchronize(d->stream));
    for (int32_t c = 0; c < nc; c++)
        p->col_mates[c] = -1;
    for (int32_t r = 0; r < nr; r++) {
        const int32_t c = p->row_mates[r];
        if (c >= nc || (c >= 0 && p->col_mates[c] >= 0))
            return GCUT_CU_FAIL(GCUT_ERR_INTERNAL, "cuda-match-gpr: inconsistent mate of row %d",
                                (int)r);
        if (c >= 0)
            p->col_mates[c] = r;
    }
    if (p->stats) {
        p->stats->pushes = pushes;
        p->stats->phases = kernels;
        p->stats->global_relabels = relabels;
    }
    gcut_cu_host->log(p->log, GCUT_LOG_DEBUG,
                      "cuda-match-gpr: %lld push kernels, %lld column pushes, %lld global relabels",
                      (long long)kernels, (long long)pushes, (long long)relabels);
    return GCUT_OK;
}

} /* namespace */

gcut_status gcut_cu_gpr_run(const gcut_match_problem *p)
{
    if (!p || p->rows < 0 || p->cols < 0 || p->edges < 0)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-match-gpr: bad problem");
    if (p->rows == 0 || p->cols == 0 || p->edges == 0)
        return GCUT_OK; /* the empty matching is all there is (and no empty launches) */
    gpr_dev d = {};
    gcut_status st = gpr_solve(p, &d);
    /* Free everything on every path; the first error is the one reported. */
    if (d.stream)
        (void)cudaStreamSynchronize(d.stream);
    cudaFree(d.cptr);
    cudaFree(d.cadj);
    cudaFree(d.rmatch);
    cudaFree(d.cmatch);
    cudaFree(d.psi);
    cudaFree(d.list[0]);
    cudaFree(d.list[1]);
    cudaFree(d.counter);
    if (d.host_counter)
        cudaFreeHost(d.host_counter);
    if (d.stream)
        cudaStreamDestroy(d.stream);
    return st;
}
