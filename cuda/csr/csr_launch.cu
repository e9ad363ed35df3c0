/*
 * csr_launch.cu - the host side of the cuda-csr engine: workspace sizing,
 * transfers, grid sizing, the phase driver and the results.
 *
 * A solve (CONTRIBUTING.md rules 16, 23, 26, 29):
 *   1. plan: compute the bytes the problem needs, compare with
 *      cudaMemGetInfo, allocate one workspace up front (or reuse the
 *      state's), never cudaMalloc again during the solve;
 *   2. init: upload the RCSR arrays (64-bit offsets narrowed to 32 bits on
 *      the device when the graph has < 2^31 arcs) and the terminal
 *      capacities; cancel min(cap_source, cap_sink) per vertex;
 *   3. phase I: cycles of a global relabel followed by rounds of pushes and
 *      lifts, until a global relabel finds no active vertex. Two drivers:
 *      - cooperative (default for vc): one launch of cycle_kernel per
 *        cycle, grid barriers between BFS levels and rounds, one 64-byte
 *        control block read by the host per cycle;
 *      - host (driver=host, and variant tc): one launch per round or BFS
 *        level, launched back to back in batches with one control block
 *        read per batch, and single-block kernels for short worklists and
 *        frontiers (the hybrid tail);
 *      a cycle ends after `interval` rounds (at least half the BFS depth)
 *      or when the worklist runs dry;
 *   4. cut: the last BFS reached exactly the vertices that can reach the
 *      sink: that is the canonical cut;
 *   (variant=bcsr: the host first builds WBPR's sorted bidirectional CSR
 *   from the RCSR arrays, see build_bcsr, and uploads it instead of them;)
 *   5. phase II (only when flows are asked for): the same driver with the
 *      roles of the terminals swapped returns the excess to the source;
 *      then the flows are copied back and summed per user edge.
 * Every CUDA call and launch is checked; everything runs on the state's
 * stream.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "csr/csr_finish.h"
#include "csr/csr_internal.h"
#include "csr/csr_kernels.cuh"
#include "csr/csr_layout.cuh"
#include "csr/csr_upload.h"

#include <unistd.h>

using gcut_csr::Args;
using gcut_csr::Ctl;

struct gcut_cu_csr_state {
    int device;
    int ready;             /* stream and pinned block exist */
    int num_sms;
    int coop_ok;           /* the device supports cooperative launches */
    cudaStream_t stream;
    void *ws;              /* the workspace */
    size_t ws_bytes;
    Ctl *h_ctl;            /* pinned copy of the control block */
};

extern "C" gcut_status gcut_cu_csr_state_new(gcut_cu_csr_state **out)
{
    gcut_cu_csr_state *s = (gcut_cu_csr_state *)gcut_cu_host->malloc_fn(sizeof *s);
    if (!s)
        return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-csr: cannot allocate the engine state");
    memset(s, 0, sizeof *s);
    *out = s;
    return GCUT_OK;
}

extern "C" void gcut_cu_csr_state_free(gcut_cu_csr_state *s)
{
    if (!s)
        return;
    /* Errors are ignored here: nothing can be done about them on a free. */
    if (s->ws)
        (void)cudaFree(s->ws);
    if (s->h_ctl)
        (void)cudaFreeHost(s->h_ctl);
    if (s->ready)
        (void)cudaStreamDestroy(s->stream);
    gcut_cu_host->free_fn(s);
}

extern "C" gcut_status gcut_cu_csr_probe_image(const char **reason)
{
    cudaFuncAttributes attr;
    cudaError_t err = cudaFuncGetAttributes(&attr, gcut_csr::probe_kernel);
    if (err == cudaSuccess) {
        *reason = "ok";
        return GCUT_OK;
    }
    (void)cudaGetLastError();
    static char msg[512];
    int dev = 0;
    cudaDeviceProp prop;
    if (cudaGetDevice(&dev) == cudaSuccess && cudaGetDeviceProperties(&prop, dev) == cudaSuccess &&
        err == cudaErrorNoKernelImageForDevice)
        snprintf(msg, sizeof msg,
                 "no kernel image for this GPU (%s, compute capability %d.%d): rebuild with "
                 "CMAKE_CUDA_ARCHITECTURES=%d%d",
                 prop.name, prop.major, prop.minor, prop.major, prop.minor);
    else
        snprintf(msg, sizeof msg, "CUDA device unusable: %s (%s)", cudaGetErrorString(err),
                 cudaGetErrorName(err));
    *reason = msg;
    return GCUT_ERR_UNAVAILABLE;
}

namespace {

/* WBPR's bidirectional CSR, built on the host (variant=bcsr). */
struct HostBcsr {
    int64_t *row;            /* n + 1 */
    int32_t *col;            /* m: neighbour, increasing within a vertex */
    unsigned long long *res; /* m: initial residual capacity */
    int64_t m;               /* arcs after merging */
    double build_ms;
};

void bcsr_free(HostBcsr *b)
{
    void *parts[3] = {b->row, b->col, b->res};
    for (int k = 0; k < 3; k++)
        if (parts[k])
            gcut_cu_host->free_fn(parts[k]);
    memset(b, 0, sizeof *b);
}

/*
 * Build the BCSR from the RCSR in O(n + m), without sorting: the vertices
 * x are visited in increasing order and each appends itself to the list
 * of every neighbour u, so each list comes out sorted by neighbour. A
 * forward arc x -> u gives u the entry (x, 0): u's arc u -> x starts with
 * no residual. An arc u -> x entering x (rrow/rcol of x) gives u the entry
 * (x, cap): u's arc u -> x starts full. Every RCSR arc thus lands once in
 * each endpoint's list, and u's list has out(u) + in(u) entries before
 * merging. Equal neighbours are then adjacent and are merged into one arc
 * with the summed residual (parallel edges, and the two arcs of an edge
 * with both capacities positive). Residuals are 64 bits: a merged pair of
 * several parallel edges can exceed 2^32.
 */
gcut_status build_bcsr(const gcut_rcsr *g, HostBcsr *b)
{
    const double t0 = gcut_cu_now();
    const int32_t n = g->n;
    const int64_t m2 = 2 * g->m;
    memset(b, 0, sizeof *b);
    b->row = (int64_t *)gcut_cu_host->malloc_fn(((size_t)n + 1) * sizeof(int64_t));
    b->col = (int32_t *)gcut_cu_host->malloc_fn((size_t)(m2 > 0 ? m2 : 1) * sizeof(int32_t));
    b->res = (unsigned long long *)gcut_cu_host->malloc_fn((size_t)(m2 > 0 ? m2 : 1) *
                                                           sizeof(unsigned long long));
    int64_t *cur = (int64_t *)gcut_cu_host->malloc_fn(((size_t)n + 1) * sizeof(int64_t));
    if (!b->row || !b->col || !b->res || !cur) {
        if (cur)
            gcut_cu_host->free_fn(cur);
        bcsr_free(b);
        return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-csr: cannot allocate the BCSR (%lld arcs)",
                            (long long)m2);
    }
    b->row[0] = 0;
    for (int32_t u = 0; u < n; u++)
        b->row[u + 1] = b->row[u] + (g->row[u + 1] - g->row[u]) + (g->rrow[u + 1] - g->rrow[u]);
    memcpy(cur, b->row, ((size_t)n + 1) * sizeof(int64_t));
    for (int32_t x = 0; x < n; x++) {
        for (int64_t a = g->row[x]; a < g->row[x + 1]; a++) {
            const int32_t u = g->col[a]; /* x -> u: u's reverse arc u -> x */
            b->col[cur[u]] = x;
            b->res[cur[u]++] = 0;
        }
        for (int64_t i = g->rrow[x]; i < g->rrow[x + 1]; i++) {
            const int32_t u = g->rcol[i]; /* u -> x: u's arc, full capacity */
            b->col[cur[u]] = x;
            b->res[cur[u]++] = (unsigned long long)g->cap[g->rmap[i]];
        }
    }
    gcut_cu_host->free_fn(cur);
    /* Merge equal neighbours in place (the write index never passes the
     * read index); row[u] is rewritten once its old value was read. */
    int64_t w = 0, begin = 0;
    for (int32_t u = 0; u < n; u++) {
        const int64_t end = b->row[u + 1];
        const int64_t first = w;
        b->row[u] = w;
        for (int64_t i = begin; i < end; i++) {
            if (w > first && b->col[w - 1] == b->col[i]) {
                b->res[w - 1] += b->res[i];
            } else {
                b->col[w] = b->col[i];
                b->res[w++] = b->res[i];
            }
        }
        begin = end;
    }
    b->row[n] = w;
    b->m = w;
    b->build_ms = gcut_cu_now() - t0;
    return GCUT_OK;
}

/* Carve aligned pieces out of one allocation; first only counts. */
struct Carver {
    size_t off = 0;
    char *base = nullptr;
    template <typename T>
    T *take(size_t count)
    {
        off = (off + 255) & ~(size_t)255;
        T *p = base ? (T *)(base + off) : nullptr;
        off += count * sizeof(T);
        return p;
    }
};

/* ------------------------------------------- the layout built on the device
 * (csr_layout.cuh explains the construction). */
struct DevLayout {
    int32_t n;
    long long ne, m;
    unsigned end_bit;      /* keys are below 2^end_bit */
    void *buf_e, *buf_s;   /* the edges' and the sorts' allocations */
    int32_t *eu, *ev, *ecap, *erev;
    uint32_t *cnt, *off;   /* arcs of each edge and their first slot; cnt: edge flows later */
    uint32_t *per_node;    /* n + 1: arcs per tail or head, for the offsets */
    unsigned long long *max_deg;
    void *scan_tmp;
    size_t scan_bytes;
    uint32_t *keys0, *keys1;
    unsigned long long *codes0, *codes1; /* codes1: the layout's `edge`, by forward arc */
    void *sort_tmp;
    size_t sort_bytes;
    int grid;
    double upload_ms, build_ms;
    int staged_threads;    /* threads of the staged upload; 0: from pageable memory */
    int64_t deg;           /* the largest in + out degree, after dl_build */
};

void dl_free(DevLayout *L)
{
    /* Errors are ignored here: nothing can be done about them on a free. */
    if (L->buf_e)
        (void)cudaFree(L->buf_e);
    if (L->buf_s)
        (void)cudaFree(L->buf_s);
    L->buf_e = L->buf_s = nullptr;
}

/* A device allocation of `bytes`, compared with the free memory first (a
 * clear message rather than a failed cudaMalloc). */
gcut_status dl_alloc(void **ptr, size_t bytes, const char *what)
{
    size_t free_b = 0, total_b = 0;
    GCUT_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (bytes + GCUT_CSR_MEM_HEADROOM > free_b)
        return GCUT_CU_FAIL(GCUT_ERR_DEVICE_NOMEM,
                            "cuda-csr: the layout's %s need %.1f MiB of device memory, %.1f MiB "
                            "are free (of %.1f MiB)",
                            what, (double)bytes / 1048576.0, (double)free_b / 1048576.0,
                            (double)total_b / 1048576.0);
    GCUT_CUDA_CHECK(cudaMalloc(ptr, bytes > 0 ? bytes : 1));
    return GCUT_OK;
}

/* One device allocation carved into arrays: `carve` takes them from a
 * Carver twice, first to size the block, then, once it is allocated, to
 * hand out the pointers, so that size and layout cannot disagree. */
template <typename F>
gcut_status dl_carve(void **buf, const char *what, F carve)
{
    Carver size;
    carve(size);
    gcut_status rc = dl_alloc(buf, size.off, what);
    if (rc != GCUT_OK)
        return rc;
    Carver c;
    c.base = (char *)*buf;
    carve(c);
    return GCUT_OK;
}

/* Upload the edges, count the arcs (L->m) and reserve the sorts' memory. */
gcut_status dl_begin(gcut_cu_csr_state *s, const gcut_problem *p, const gcut_solve_options *opt,
                     const gcut_cu_csr_params *prm, DevLayout *L)
{
    cudaStream_t st = s->stream;
    memset(L, 0, sizeof *L);
    L->n = p->num_nodes;
    L->ne = p->num_edges;
    if (L->ne > (long long)GCUT_LAYS_OUT_MAX_EDGES)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-csr: %lld edges, more than the %lld of a "
                            "layout on the device", L->ne, (long long)GCUT_LAYS_OUT_MAX_EDGES);
    L->end_bit = 1;
    while (L->end_bit < 32 && ((long long)1 << L->end_bit) < (long long)L->n)
        L->end_bit++;
    L->grid = s->num_sms * GCUT_CSR_BLOCKS_PER_SM;
    const size_t ne = (size_t)L->ne;
    /* The scans' scratch: over the edges' arc counts, and over the nodes'
     * into offsets of either index type. */
    {
        size_t b[3] = {0, 0, 0};
        if (ne > 0)
            GCUT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, b[0], (uint32_t *)nullptr,
                                                          (uint32_t *)nullptr, (int)ne, st));
        GCUT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, b[1], (uint32_t *)nullptr,
                                                      (uint32_t *)nullptr, L->n + 1, st));
        GCUT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, b[2], (uint32_t *)nullptr,
                                                      (long long *)nullptr, L->n + 1, st));
        L->scan_bytes = b[0] > b[1] ? b[0] : b[1];
        L->scan_bytes = b[2] > L->scan_bytes ? b[2] : L->scan_bytes;
    }
    gcut_status rc = dl_carve(&L->buf_e, "edges", [&](Carver &c) {
        L->eu = c.take<int32_t>(ne);
        L->ev = c.take<int32_t>(ne);
        L->ecap = c.take<int32_t>(ne);
        L->erev = c.take<int32_t>(ne);
        L->cnt = c.take<uint32_t>(ne);
        L->off = c.take<uint32_t>(ne);
        L->per_node = c.take<uint32_t>((size_t)L->n + 1);
        L->max_deg = c.take<unsigned long long>(1);
        L->scan_tmp = c.take<char>(L->scan_bytes);
    });
    if (rc != GCUT_OK)
        return rc;
    const double t0 = gcut_cu_now();
    if (ne > 0) {
        const int32_t *src[4] = {p->edge_u, p->edge_v, p->edge_cap, p->edge_rev_cap};
        int32_t *dst[4] = {L->eu, L->ev, L->ecap, L->erev};
        /* Large lists through the kept pinned buffers, filled by several
         * threads (csr_upload.cu), unless the settings say otherwise. */
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        int threads = opt->threads > 0 ? (int)opt->threads : (int)(cores > 0 ? cores : 1);
        if (threads > GCUT_CSR_UPLOAD_THREADS)
            threads = GCUT_CSR_UPLOAD_THREADS;
        /* auto: staged once the process's pinned buffers exist and the list
         * is not small, or for a list large enough to repay making them
         * (csr_tuning.h); always with upload=staged, never with pageable.
         * The pool is taken only if no other solve holds it. */
        const size_t bytes = 4 * ne * sizeof(int32_t);
        const bool maybe = prm->upload == GCUT_CU_CSR_UPLOAD_STAGED ||
                           (prm->upload == GCUT_CU_CSR_UPLOAD_AUTO && threads >= 2 &&
                            bytes >= GCUT_CSR_UPLOAD_KEPT_BYTES);
        gcut_cu_upload_pool *pool = maybe ? gcut_cu_upload_pool_acquire() : nullptr;
        if (pool && prm->upload == GCUT_CU_CSR_UPLOAD_AUTO && !pool->buf[0] &&
            bytes < GCUT_CSR_UPLOAD_STAGED_BYTES) {
            gcut_cu_upload_pool_release(pool);
            pool = nullptr;
        }
        if (pool) {
            gcut_cu_upload_part parts[4];
            for (int k = 0; k < 4; k++)
                parts[k] = {dst[k], src[k], ne * sizeof(int32_t)};
            const size_t chunk = prm->upload_chunk > 0 ? (size_t)prm->upload_chunk
                                                       : GCUT_CSR_UPLOAD_CHUNK;
            gcut_status rc = gcut_cu_upload(pool, st, parts, 4, chunk, threads);
            gcut_cu_upload_pool_release(pool);
            if (rc != GCUT_OK)
                return rc;
            L->staged_threads = threads;
        } else {
            for (int k = 0; k < 4; k++)
                GCUT_CUDA_CHECK(cudaMemcpyAsync(dst[k], src[k], ne * sizeof(int32_t),
                                                cudaMemcpyHostToDevice, st));
        }
    }
    GCUT_CUDA_CHECK(cudaStreamSynchronize(st));
    L->upload_ms = gcut_cu_now() - t0;
    const double t1 = gcut_cu_now();
    if (ne > 0) {
        const int64_t need = ((int64_t)ne + GCUT_CSR_BLOCK - 1) / GCUT_CSR_BLOCK;
        const int blocks = (int)(need < L->grid ? need : L->grid);
        gcut_csr::lay_count_kernel<<<blocks, GCUT_CSR_BLOCK, 0, st>>>(
            L->ne, L->eu, L->ev, L->ecap, L->erev, L->cnt);
        GCUT_CUDA_CHECK_LAUNCH(st);
        GCUT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(L->scan_tmp, L->scan_bytes, L->cnt, L->off,
                                                      (int)ne, st));
        uint32_t last[2] = {0, 0};
        GCUT_CUDA_CHECK(cudaMemcpyAsync(&last[0], L->off + ne - 1, sizeof(uint32_t),
                                        cudaMemcpyDeviceToHost, st));
        GCUT_CUDA_CHECK(cudaMemcpyAsync(&last[1], L->cnt + ne - 1, sizeof(uint32_t),
                                        cudaMemcpyDeviceToHost, st));
        GCUT_CUDA_CHECK(cudaStreamSynchronize(st));
        L->m = (long long)last[0] + (long long)last[1];
    }
    /* The sorts' scratch: the larger of the two sorts, for either index
     * type (dl_to_host lays out with 64-bit indices). */
    size_t b1 = 0, b2 = 0, b3 = 0;
    if (L->m > 0) {
        const int m = (int)L->m;
        GCUT_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
            nullptr, b1, (const uint32_t *)nullptr, (uint32_t *)nullptr,
            (const unsigned long long *)nullptr, (unsigned long long *)nullptr, m, 0,
            (int)L->end_bit, st));
        GCUT_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
            nullptr, b2, (const uint32_t *)nullptr, (uint32_t *)nullptr,
            (const uint32_t *)nullptr, (uint32_t *)nullptr, m, 0, (int)L->end_bit, st));
        GCUT_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
            nullptr, b3, (const uint32_t *)nullptr, (uint32_t *)nullptr,
            (const long long *)nullptr, (long long *)nullptr, m, 0, (int)L->end_bit, st));
    }
    L->sort_bytes = b1 > b2 ? b1 : b2;
    L->sort_bytes = b3 > L->sort_bytes ? b3 : L->sort_bytes;
    const size_t m = (size_t)L->m;
    rc = dl_carve(&L->buf_s, "sorts", [&](Carver &c) {
        L->keys0 = c.take<uint32_t>(m);
        L->keys1 = c.take<uint32_t>(m);
        L->codes0 = c.take<unsigned long long>(m);
        L->codes1 = c.take<unsigned long long>(m);
        L->sort_tmp = c.take<char>(L->sort_bytes);
    });
    if (rc != GCUT_OK)
        return rc;
    L->build_ms = gcut_cu_now() - t1;
    return GCUT_OK;
}

/* n + 1 offsets from the m sorted keys: the arcs per key, then their
 * exclusive prefix sums (row[n] = m). */
template <typename Idx>
gcut_status dl_offsets(gcut_cu_csr_state *s, DevLayout *L, const uint32_t *keys, Idx *row)
{
    cudaStream_t st = s->stream;
    const size_t n1 = (size_t)L->n + 1;
    GCUT_CUDA_CHECK(cudaMemsetAsync(L->per_node, 0, n1 * sizeof(uint32_t), st));
    if (L->m > 0) {
        const long long need = (L->m + GCUT_CSR_BLOCK - 1) / GCUT_CSR_BLOCK;
        const int blocks = (int)(need < L->grid ? need : L->grid);
        gcut_csr::lay_key_count_kernel<<<blocks, GCUT_CSR_BLOCK, 0, st>>>(L->m, keys, L->per_node);
        GCUT_CUDA_CHECK_LAUNCH(st);
    }
    size_t bytes = L->scan_bytes;
    GCUT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(L->scan_tmp, bytes, L->per_node, row, (int)n1,
                                                  st));
    return GCUT_OK;
}

/* Lay the arcs out into the given arrays (n + 1 offsets, m arcs each),
 * with offsets of type Idx. Repeatable: it reads only the edges. */
template <typename Idx>
gcut_status dl_build(gcut_cu_csr_state *s, DevLayout *L, Idx *row, int32_t *col, int32_t *cap,
                     Idx *rrow, int32_t *rcol, Idx *rmap)
{
    cudaStream_t st = s->stream;
    const double t0 = gcut_cu_now();
    gcut_status rc;
    const long long m = L->m;
    auto blocks = [&](long long count) {
        const long long need = (count + GCUT_CSR_BLOCK - 1) / GCUT_CSR_BLOCK;
        return (int)(need < L->grid ? (need > 0 ? need : 1) : L->grid);
    };
    if (m > 0) {
        gcut_csr::lay_scatter_kernel<<<blocks(L->ne), GCUT_CSR_BLOCK, 0, st>>>(
            L->ne, L->eu, L->ev, L->ecap, L->erev, L->off, L->keys0, L->codes0);
        GCUT_CUDA_CHECK_LAUNCH(st);
        size_t bytes = L->sort_bytes;
        GCUT_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(L->sort_tmp, bytes,
                                                        (const uint32_t *)L->keys0, L->keys1,
                                                        (const unsigned long long *)L->codes0,
                                                        L->codes1, (int)m, 0, (int)L->end_bit, st));
        gcut_csr::lay_fill_kernel<<<blocks(m), GCUT_CSR_BLOCK, 0, st>>>(
            m, L->codes1, L->eu, L->ev, L->ecap, L->erev, col, cap);
        GCUT_CUDA_CHECK_LAUNCH(st);
    }
    if ((rc = dl_offsets<Idx>(s, L, L->keys1, row)) != GCUT_OK)
        return rc;
    if (m > 0) {
        /* The forward indices, sorted by head (codes0 is free again). */
        Idx *fwd = (Idx *)L->codes0;
        gcut_csr::lay_iota_kernel<Idx><<<blocks(m), GCUT_CSR_BLOCK, 0, st>>>(m, fwd);
        GCUT_CUDA_CHECK_LAUNCH(st);
        size_t bytes = L->sort_bytes;
        GCUT_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(L->sort_tmp, bytes,
                                                        (const uint32_t *)col, L->keys0,
                                                        (const Idx *)fwd, rmap, (int)m, 0,
                                                        (int)L->end_bit, st));
        gcut_csr::lay_rcol_kernel<Idx><<<blocks(m), GCUT_CSR_BLOCK, 0, st>>>(m, rmap, L->keys1,
                                                                            rcol);
        GCUT_CUDA_CHECK_LAUNCH(st);
    }
    if ((rc = dl_offsets<Idx>(s, L, L->keys0, rrow)) != GCUT_OK)
        return rc;
    GCUT_CUDA_CHECK(cudaMemsetAsync(L->max_deg, 0, sizeof(unsigned long long), st));
    gcut_csr::lay_degree_kernel<Idx><<<blocks(L->n), GCUT_CSR_BLOCK, 0, st>>>(L->n, row, rrow,
                                                                             L->max_deg);
    GCUT_CUDA_CHECK_LAUNCH(st);
    unsigned long long deg = 0;
    GCUT_CUDA_CHECK(cudaMemcpyAsync(&deg, L->max_deg, sizeof deg, cudaMemcpyDeviceToHost, st));
    GCUT_CUDA_CHECK(cudaStreamSynchronize(st));
    L->deg = (int64_t)deg;
    L->build_ms += gcut_cu_now() - t0;
    return GCUT_OK;
}

/* The per-edge flows of a solve on a device layout, into the host's
 * edges (num_edges entries). */
gcut_status dl_edge_flows(gcut_cu_csr_state *s, DevLayout *L, const int32_t *flow, int32_t *out)
{
    cudaStream_t st = s->stream;
    if (L->ne == 0)
        return GCUT_OK;
    int32_t *ef = (int32_t *)L->cnt;
    GCUT_CUDA_CHECK(cudaMemsetAsync(ef, 0, (size_t)L->ne * sizeof(int32_t), st));
    if (L->m > 0) {
        const long long need = (L->m + GCUT_CSR_BLOCK - 1) / GCUT_CSR_BLOCK;
        const int blocks = (int)(need < L->grid ? need : L->grid);
        gcut_csr::lay_edge_flow_kernel<<<blocks, GCUT_CSR_BLOCK, 0, st>>>(L->m, L->codes1, flow, ef);
        GCUT_CUDA_CHECK_LAUNCH(st);
    }
    GCUT_CUDA_CHECK(cudaMemcpyAsync(out, ef, (size_t)L->ne * sizeof(int32_t),
                                    cudaMemcpyDeviceToHost, st));
    GCUT_CUDA_CHECK(cudaStreamSynchronize(st));
    return GCUT_OK;
}

/* A device layout copied to the host in the core's form (variant=bcsr
 * builds on it; layout=check compares it with the core's). */
struct HostRcsr {
    gcut_rcsr view;
    int64_t *row, *rrow, *rmap, *edge;
    int32_t *col, *cap, *rcol;
};

void host_rcsr_free(HostRcsr *h)
{
    void *parts[7] = {h->row, h->rrow, h->rmap, h->edge, h->col, h->cap, h->rcol};
    for (int k = 0; k < 7; k++)
        if (parts[k])
            gcut_cu_host->free_fn(parts[k]);
    memset(h, 0, sizeof *h);
}

/* The arrays of a layout with 64-bit offsets on the device. */
struct DevRcsr64 {
    long long *row, *rrow, *rmap;
    int32_t *col, *cap, *rcol;
};

gcut_status dl_to_host_inner(gcut_cu_csr_state *s, DevLayout *L, const DevRcsr64 &d, HostRcsr *h)
{
    cudaStream_t st = s->stream;
    const size_t n1 = (size_t)L->n + 1, m = (size_t)L->m;
    gcut_status rc = dl_build<long long>(s, L, d.row, d.col, d.cap, d.rrow, d.rcol, d.rmap);
    if (rc != GCUT_OK)
        return rc;
    void *(*alloc)(size_t) = gcut_cu_host->malloc_fn;
    const size_t mm = m > 0 ? m : 1;
    h->row = (int64_t *)alloc(n1 * sizeof(int64_t));
    h->rrow = (int64_t *)alloc(n1 * sizeof(int64_t));
    h->rmap = (int64_t *)alloc(mm * sizeof(int64_t));
    h->edge = (int64_t *)alloc(mm * sizeof(int64_t));
    h->col = (int32_t *)alloc(mm * sizeof(int32_t));
    h->cap = (int32_t *)alloc(mm * sizeof(int32_t));
    h->rcol = (int32_t *)alloc(mm * sizeof(int32_t));
    if (!h->row || !h->rrow || !h->rmap || !h->edge || !h->col || !h->cap || !h->rcol)
        return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-csr: cannot allocate the layout of %lld arcs "
                            "on the host", (long long)m);
    GCUT_CUDA_CHECK(cudaMemcpyAsync(h->row, d.row, n1 * 8, cudaMemcpyDeviceToHost, st));
    GCUT_CUDA_CHECK(cudaMemcpyAsync(h->rrow, d.rrow, n1 * 8, cudaMemcpyDeviceToHost, st));
    if (m > 0) {
        GCUT_CUDA_CHECK(cudaMemcpyAsync(h->rmap, d.rmap, m * 8, cudaMemcpyDeviceToHost, st));
        GCUT_CUDA_CHECK(cudaMemcpyAsync(h->edge, L->codes1, m * 8, cudaMemcpyDeviceToHost, st));
        GCUT_CUDA_CHECK(cudaMemcpyAsync(h->col, d.col, m * 4, cudaMemcpyDeviceToHost, st));
        GCUT_CUDA_CHECK(cudaMemcpyAsync(h->cap, d.cap, m * 4, cudaMemcpyDeviceToHost, st));
        GCUT_CUDA_CHECK(cudaMemcpyAsync(h->rcol, d.rcol, m * 4, cudaMemcpyDeviceToHost, st));
    }
    GCUT_CUDA_CHECK(cudaStreamSynchronize(st));
    h->view = (gcut_rcsr){L->n, L->m, h->row, h->col, h->cap, h->rrow, h->rcol, h->rmap, h->edge};
    return GCUT_OK;
}

gcut_status dl_to_host(gcut_cu_csr_state *s, DevLayout *L, HostRcsr *h)
{
    memset(h, 0, sizeof *h);
    const size_t n1 = (size_t)L->n + 1, m = (size_t)L->m;
    DevRcsr64 d;
    void *dbuf = nullptr;
    gcut_status rc = dl_carve(&dbuf, "copy for the host", [&](Carver &c) {
        d.row = c.take<long long>(n1);
        d.rrow = c.take<long long>(n1);
        d.rmap = c.take<long long>(m);
        d.col = c.take<int32_t>(m);
        d.cap = c.take<int32_t>(m);
        d.rcol = c.take<int32_t>(m);
    });
    if (rc == GCUT_OK)
        rc = dl_to_host_inner(s, L, d, h);
    if (dbuf)
        (void)cudaFree(dbuf);
    if (rc != GCUT_OK)
        host_rcsr_free(h);
    return rc;
}

/* layout=check: the device's layout must be the core's, arc for arc. */
gcut_status dl_compare(const gcut_rcsr *dev, const gcut_rcsr *core)
{
    if (dev->n != core->n || dev->m != core->m)
        return GCUT_CU_FAIL(GCUT_ERR_INTERNAL, "cuda-csr: layout=check: the device laid out %d "
                            "nodes and %lld arcs, the core %d and %lld", (int)dev->n,
                            (long long)dev->m, (int)core->n, (long long)core->m);
    const size_t n1 = (size_t)dev->n + 1, m = (size_t)dev->m;
    struct {
        const char *name;
        const void *a, *b;
        size_t bytes;
    } parts[7] = {{"row", dev->row, core->row, n1 * 8},   {"col", dev->col, core->col, m * 4},
                  {"cap", dev->cap, core->cap, m * 4},    {"rrow", dev->rrow, core->rrow, n1 * 8},
                  {"rcol", dev->rcol, core->rcol, m * 4}, {"rmap", dev->rmap, core->rmap, m * 8},
                  {"edge", dev->edge, core->edge, m * 8}};
    for (int k = 0; k < 7; k++)
        if (parts[k].bytes > 0 && memcmp(parts[k].a, parts[k].b, parts[k].bytes) != 0)
            return GCUT_CU_FAIL(GCUT_ERR_INTERNAL,
                                "cuda-csr: layout=check: the device's %s differs from the core's",
                                parts[k].name);
    return GCUT_OK;
}

/* Everything one solve uses on the device. */
template <typename Idx>
struct Engine {
    gcut_cu_csr_state *s;
    const gcut_solve_options *opt;
    Args<Idx> A;
    int32_t *src;          /* remaining source capacity (phase II's terminal) */
    int32_t *sinkres;      /* remaining sink capacity (phase I's terminal) */
    uint8_t *cut;
    long long *stage;      /* staging for 64-bit -> 32-bit offsets, or NULL */
    size_t stage_entries;
    int group;             /* lanes per vertex */
    bool wl;               /* worklist (vc) or not (tc) */
    uint32_t round;        /* next round to run; stamps are rounds */
    uint64_t interval;     /* rounds between global relabels */
    bool interval_fixed;   /* set by relabel_rounds: not adapted to the BFS depth */
    uint32_t tail_enter;   /* host driver: worklists and frontiers up to this size run */
    uint32_t tail_exit;    /* in the single-block kernels, until they grow past tail_exit */
    int32_t bfs_depth;     /* levels of the last BFS */
    int batch;
    bool coop;             /* the cooperative driver: one launch per relabel cycle */
    int coop_grid;         /* its blocks (all resident at once) */
    int grid_round, grid_n;
    double transfer_ms;
    const char *poll_phase; /* what check_time reports: NULL ("solve") or "flows" */
    int64_t rounds, global_relabels;
    int64_t tail_rounds;   /* rounds run by the single-block tail kernel */
    double relabel_ms;     /* host time spent in global relabels */
    int64_t finish_at;     /* phase I: hand over to the host at this many active (0: never) */
    int64_t finish_cycles; /* ... and not before this relabel cycle */
    bool handoff;          /* phase I stopped for the finish on the host */
    int64_t finish_pushes, finish_relabels; /* the host's share of the counters */
    int64_t coop_until;    /* cooperative driver: hand the phase to the host driver here */
    int64_t switches;      /* phases the cooperative driver handed to the host driver */
};

/* After a relabel cycle of phase `phase` (the cycle-th of the phase) that
 * counted `active` vertices: is it time for the finish on the host? */
template <typename Idx>
bool hand_over(Engine<Idx> &E, int phase, int64_t cycle, uint32_t active)
{
    if (phase != 1 || E.finish_at <= 0 || cycle < E.finish_cycles ||
        (int64_t)active > E.finish_at)
        return false;
    E.handoff = true;
    return true;
}

/* The only device-to-host traffic while a phase runs: the 64-byte control
 * block, into pinned memory. It also synchronises the stream: the host
 * decides its next step from what it reads. */
template <typename Idx>
gcut_status read_ctl(Engine<Idx> &E)
{
    GCUT_CUDA_CHECK(cudaMemcpyAsync(E.s->h_ctl, E.A.ctl, sizeof(Ctl), cudaMemcpyDeviceToHost,
                                    E.s->stream));
    GCUT_CUDA_CHECK(cudaStreamSynchronize(E.s->stream));
    return GCUT_OK;
}

/* The call is polled (the time limit of the whole call, a cancel, a
 * progress report; host->poll) at every synchronisation of the host: a
 * kernel cannot be interrupted, so the limit holds to within one batch of
 * rounds (host driver) or one relabel cycle (cooperative driver). The
 * active count is that of the last control block read. */
template <typename Idx>
gcut_status check_time(const Engine<Idx> &E)
{
    return gcut_cu_poll(E.opt, E.poll_phase ? E.poll_phase : "solve",
                        (int64_t)E.s->h_ctl->active, "active nodes");
}

/* Upload a 64-bit offset array into Idx form (narrowed on the device
 * through the staging buffer when Idx is 32 bits). */
template <typename Idx>
gcut_status upload_index(Engine<Idx> &E, Idx *dst, const int64_t *src, int64_t count)
{
    cudaStream_t st = E.s->stream;
    if (count == 0)
        return GCUT_OK;
    if constexpr (sizeof(Idx) == sizeof(int64_t)) {
        GCUT_CUDA_CHECK(cudaMemcpyAsync(dst, src, (size_t)count * sizeof(int64_t),
                                        cudaMemcpyHostToDevice, st));
    } else {
        /* The staging buffer is reused chunk after chunk: the next copy into
         * it is ordered on the stream after the kernel that read it. A copy
         * from pageable memory returns once the driver has taken the source,
         * so the caller's arrays are never read after the solve. */
        for (int64_t off = 0; off < count; off += (int64_t)E.stage_entries) {
            const int64_t left = count - off;
            const int64_t len = left < (int64_t)E.stage_entries ? left : (int64_t)E.stage_entries;
            GCUT_CUDA_CHECK(cudaMemcpyAsync(E.stage, src + off, (size_t)len * sizeof(int64_t),
                                            cudaMemcpyHostToDevice, st));
            const int64_t need = (len + GCUT_CSR_BLOCK - 1) / GCUT_CSR_BLOCK;
            const int blocks = (int)(need < E.grid_round ? need : E.grid_round);
            gcut_csr::narrow_kernel<Idx><<<blocks, GCUT_CSR_BLOCK, 0, st>>>(dst + off, E.stage, len);
            GCUT_CUDA_CHECK_LAUNCH(st);
        }
    }
    return GCUT_OK;
}

template <typename Idx>
gcut_status launch_round(Engine<Idx> &E)
{
    cudaStream_t st = E.s->stream;
    const uint32_t r = E.round;
    if (!E.wl) {
        gcut_csr::round_kernel<1, Idx, false><<<E.grid_round, GCUT_CSR_BLOCK, 0, st>>>(E.A, r);
    } else {
        switch (E.group) {
        case 1:
            gcut_csr::round_kernel<1, Idx, true><<<E.grid_round, GCUT_CSR_BLOCK, 0, st>>>(E.A, r);
            break;
        case 4:
            gcut_csr::round_kernel<4, Idx, true><<<E.grid_round, GCUT_CSR_BLOCK, 0, st>>>(E.A, r);
            break;
        case 8:
            gcut_csr::round_kernel<8, Idx, true><<<E.grid_round, GCUT_CSR_BLOCK, 0, st>>>(E.A, r);
            break;
        default:
            gcut_csr::round_kernel<32, Idx, true><<<E.grid_round, GCUT_CSR_BLOCK, 0, st>>>(E.A, r);
            break;
        }
    }
    GCUT_CUDA_CHECK_LAUNCH(st);
    E.round++;
    E.rounds++;
    return GCUT_OK;
}

template <typename Idx>
gcut_status launch_tail(Engine<Idx> &E, uint32_t max_rounds)
{
    cudaStream_t st = E.s->stream;
    const int T = GCUT_CSR_TAIL_THREADS;
    switch (E.group) {
    case 1:
        gcut_csr::tail_kernel<1, Idx><<<1, T, 0, st>>>(E.A, E.round, max_rounds, E.tail_exit);
        break;
    case 4:
        gcut_csr::tail_kernel<4, Idx><<<1, T, 0, st>>>(E.A, E.round, max_rounds, E.tail_exit);
        break;
    case 8:
        gcut_csr::tail_kernel<8, Idx><<<1, T, 0, st>>>(E.A, E.round, max_rounds, E.tail_exit);
        break;
    default:
        gcut_csr::tail_kernel<32, Idx><<<1, T, 0, st>>>(E.A, E.round, max_rounds, E.tail_exit);
        break;
    }
    GCUT_CUDA_CHECK_LAUNCH(st);
    return GCUT_OK;
}

template <typename Idx>
gcut_status launch_bfs_level(Engine<Idx> &E, int32_t level)
{
    cudaStream_t st = E.s->stream;
    switch (E.group) {
    case 1:
        gcut_csr::bfs_level_kernel<1, Idx><<<E.grid_round, GCUT_CSR_BLOCK, 0, st>>>(E.A, level);
        break;
    case 4:
        gcut_csr::bfs_level_kernel<4, Idx><<<E.grid_round, GCUT_CSR_BLOCK, 0, st>>>(E.A, level);
        break;
    case 8:
        gcut_csr::bfs_level_kernel<8, Idx><<<E.grid_round, GCUT_CSR_BLOCK, 0, st>>>(E.A, level);
        break;
    default:
        gcut_csr::bfs_level_kernel<32, Idx><<<E.grid_round, GCUT_CSR_BLOCK, 0, st>>>(E.A, level);
        break;
    }
    GCUT_CUDA_CHECK_LAUNCH(st);
    return GCUT_OK;
}

template <typename Idx>
gcut_status launch_bfs_tail(Engine<Idx> &E, int32_t level)
{
    cudaStream_t st = E.s->stream;
    const int T = GCUT_CSR_TAIL_THREADS;
    switch (E.group) {
    case 1:
        gcut_csr::bfs_tail_kernel<1, Idx><<<1, T, 0, st>>>(E.A, level, E.tail_exit);
        break;
    case 4:
        gcut_csr::bfs_tail_kernel<4, Idx><<<1, T, 0, st>>>(E.A, level, E.tail_exit);
        break;
    case 8:
        gcut_csr::bfs_tail_kernel<8, Idx><<<1, T, 0, st>>>(E.A, level, E.tail_exit);
        break;
    default:
        gcut_csr::bfs_tail_kernel<32, Idx><<<1, T, 0, st>>>(E.A, level, E.tail_exit);
        break;
    }
    GCUT_CUDA_CHECK_LAUNCH(st);
    return GCUT_OK;
}

/*
 * Global relabel: exact distances to the terminal of this phase by a
 * level-synchronous BFS over residual arcs (vertices not reached get the
 * dead height n + 1 and drop out), then the worklist of the next round.
 * Small frontiers run in the single-block BFS kernel, large ones level by
 * level on the whole GPU, in batches between two reads of the frontier
 * size. Leaves the control block on the host: active (vertices with
 * excess that can reach the terminal) and excess_nodes.
 */
template <typename Idx>
gcut_status global_relabel_run(Engine<Idx> &E)
{
    cudaStream_t st = E.s->stream;
    /* Clear cnt[], bcnt[], active and excess_nodes (the first 8 words). */
    GCUT_CUDA_CHECK(cudaMemsetAsync(E.A.ctl, 0, 8 * sizeof(unsigned int), st));
    gcut_csr::bfs_init_kernel<Idx><<<E.grid_n, GCUT_CSR_BLOCK, 0, st>>>(E.A);
    GCUT_CUDA_CHECK_LAUNCH(st);
    int32_t level = 1;
    int batch = GCUT_CSR_BFS_BATCH_FIRST;
    bool small = true; /* the seed frontier's size is not known yet: try the tail */
    for (;;) {
        gcut_status rc;
        if (small) {
            if ((rc = launch_bfs_tail(E, level)) != GCUT_OK || (rc = read_ctl(E)) != GCUT_OK)
                return rc;
            level = E.s->h_ctl->bfs_level;
        } else {
            for (int k = 0; k < batch; k++, level++)
                if ((rc = launch_bfs_level(E, level)) != GCUT_OK)
                    return rc;
            if ((rc = read_ctl(E)) != GCUT_OK)
                return rc;
            if (batch < GCUT_CSR_BFS_BATCH_MAX)
                batch *= 2;
        }
        /* Frontier of the next level to run. */
        const uint32_t frontier = E.s->h_ctl->bcnt[(uint32_t)(level - 1) % 3u];
        if (frontier == 0)
            break;
        small = frontier <= E.tail_enter;
        if ((rc = check_time(E)) != GCUT_OK)
            return rc;
    }
    E.bfs_depth = level;
    if (E.wl)
        gcut_csr::rebuild_kernel<Idx, true><<<E.grid_n, GCUT_CSR_BLOCK, 0, st>>>(E.A, E.round);
    else
        gcut_csr::rebuild_kernel<Idx, false><<<E.grid_n, GCUT_CSR_BLOCK, 0, st>>>(E.A, E.round);
    GCUT_CUDA_CHECK_LAUNCH(st);
    E.global_relabels++;
    return read_ctl(E);
}

template <typename Idx>
gcut_status global_relabel(Engine<Idx> &E)
{
    const double t0 = gcut_cu_now();
    gcut_status rc = global_relabel_run(E);
    E.relabel_ms += gcut_cu_now() - t0;
    return rc;
}

/*
 * One phase: push-relabel towards `term` until a global relabel finds no
 * active vertex. Between relabels, rounds run in batches on the whole GPU,
 * or in the single-block tail kernel while the worklist is short.
 */
template <typename Idx>
gcut_status run_phase(Engine<Idx> &E, int32_t *term, int phase)
{
    E.A.term = term;
    gcut_status st = global_relabel(E);
    if (st != GCUT_OK)
        return st;
    for (int64_t cycle = 1; E.s->h_ctl->active > 0; cycle++) {
        /* A BFS costs about one launch (or one block barrier) per level:
         * on deep graphs relabel no more often than once per BFS depth of
         * rounds, so that relabelling stays a fraction of the work. */
        uint64_t interval = E.interval;
        if (!E.interval_fixed) {
            const double depth = GCUT_CSR_RELABEL_DEPTH_FACTOR * (double)E.bfs_depth;
            if ((double)interval < depth)
                interval = (uint64_t)depth;
        }
        uint64_t since = 0;
        uint32_t count = E.s->h_ctl->active;
        while (count > 0 && since < interval) {
            const uint64_t left = interval - since;
            if (E.wl && count <= E.tail_enter) {
                const uint32_t budget = left < 0x40000000u ? (uint32_t)left : 0x40000000u;
                st = launch_tail(E, budget);
                if (st == GCUT_OK)
                    st = read_ctl(E);
                if (st != GCUT_OK)
                    return st;
                const uint32_t done = E.s->h_ctl->tail_round - E.round;
                E.round = E.s->h_ctl->tail_round;
                E.rounds += done;
                E.tail_rounds += done;
                since += done;
                count = E.s->h_ctl->cnt[E.round % 3u];
                /* The tail stops when the list is empty, grows past
                 * tail_exit (the big grid takes over) or the budget is
                 * spent; anything else would loop here for ever. */
                if (done == 0 && count > 0 && count <= E.tail_exit)
                    return GCUT_CU_FAIL(GCUT_ERR_INTERNAL,
                                        "cuda-csr: the tail kernel made no progress");
            } else {
                const uint64_t b = left < (uint64_t)E.batch ? left : (uint64_t)E.batch;
                for (uint64_t k = 0; k < b; k++) {
                    st = launch_round(E);
                    if (st != GCUT_OK)
                        return st;
                }
                since += b;
                st = read_ctl(E);
                if (st != GCUT_OK)
                    return st;
                count = E.wl ? E.s->h_ctl->cnt[E.round % 3u]
                             : E.s->h_ctl->cnt[(E.round - 1u) % 3u];
            }
            st = check_time(E);
            if (st != GCUT_OK)
                return st;
        }
        st = global_relabel(E);
        if (st != GCUT_OK)
            return st;
        gcut_cu_host->log(E.opt, GCUT_LOG_DEBUG,
                          "cuda-csr: phase %d, round %u: global relabel %lld, %u active, %u "
                          "with excess",
                          phase, E.round, (long long)E.global_relabels, E.s->h_ctl->active,
                          E.s->h_ctl->excess_nodes);
        if (E.s->h_ctl->active > 0 && hand_over(E, phase, cycle + 1, E.s->h_ctl->active))
            return GCUT_OK;
        st = check_time(E);
        if (st != GCUT_OK)
            return st;
    }
    return GCUT_OK;
}

template <typename Idx>
const void *cycle_kernel_of(int group)
{
    switch (group) {
    case 1:
        return (const void *)gcut_csr::cycle_kernel<1, Idx>;
    case 4:
        return (const void *)gcut_csr::cycle_kernel<4, Idx>;
    case 8:
        return (const void *)gcut_csr::cycle_kernel<8, Idx>;
    default:
        return (const void *)gcut_csr::cycle_kernel<32, Idx>;
    }
}

/*
 * One phase with the cooperative driver: each launch of cycle_kernel is a
 * global relabel followed by rounds, with grid barriers instead of
 * launches and one 64-byte read by the host per cycle. The phase ends with
 * the cycle whose relabel finds no active vertex.
 */
template <typename Idx>
gcut_status run_phase_coop(Engine<Idx> &E, int32_t *term, int phase)
{
    cudaStream_t st = E.s->stream;
    E.A.term = term;
    const void *kernel = cycle_kernel_of<Idx>(E.group);
    const double t_phase = gcut_cu_now();
    for (int64_t cycle = 1;; cycle++) {
        const double t0 = gcut_cu_now();
        gcut_csr::CycleParams P;
        P.round = E.round;
        P.interval = E.interval < 0x40000000u ? (uint32_t)E.interval : 0x40000000u;
        P.depth_factor = E.interval_fixed ? 0.0f : (float)GCUT_CSR_RELABEL_DEPTH_FACTOR;
        /* Clear cnt[], bcnt[], active and excess_nodes (the first 8 words). */
        GCUT_CUDA_CHECK(cudaMemsetAsync(E.A.ctl, 0, 8 * sizeof(unsigned int), st));
        void *args[] = {(void *)&E.A, (void *)&P};
        GCUT_CUDA_CHECK(cudaLaunchCooperativeKernel(kernel, dim3((unsigned)E.coop_grid),
                                                    dim3(GCUT_CSR_COOP_BLOCK), args, 0, st));
        GCUT_CUDA_CHECK_LAUNCH(st);
        gcut_status rc = read_ctl(E);
        if (rc != GCUT_OK)
            return rc;
        const Ctl *c = E.s->h_ctl;
        E.rounds += c->tail_round - E.round;
        E.round = c->tail_round;
        E.bfs_depth = c->bfs_level;
        E.global_relabels++;
        E.relabel_ms += gcut_cu_now() - t0; /* whole cycles in this mode */
        gcut_cu_host->log(E.opt, GCUT_LOG_DEBUG,
                          "cuda-csr: phase %d, cycle %lld: BFS %d levels, %u active, %u with "
                          "excess, now round %u, %.2f ms into the phase",
                          phase, (long long)E.global_relabels, c->bfs_level, c->active,
                          c->excess_nodes, E.round, gcut_cu_now() - t_phase);
        if (c->active == 0 || hand_over(E, phase, cycle, c->active))
            return GCUT_OK;
        if (E.coop_until > 0 && cycle >= 2 && (int64_t)c->active <= E.coop_until) {
            /* Few active vertices: grid-wide barriers cost more than the
             * rounds; the host driver's single-block kernels take over. */
            E.switches++;
            gcut_cu_host->log(E.opt, GCUT_LOG_DEBUG, "cuda-csr: phase %d, cycle %lld: %u active, "
                              "the host driver takes over", phase, (long long)cycle, c->active);
            return run_phase(E, term, phase);
        }
        if ((rc = check_time(E)) != GCUT_OK)
            return rc;
    }
}

template <typename Idx>
gcut_status run_phase_any(Engine<Idx> &E, int32_t *term, int phase)
{
    return E.coop ? run_phase_coop(E, term, phase) : run_phase(E, term, phase);
}

/* The automatic group size: enough lanes for a vertex's arcs, and a whole
 * warp as soon as some vertex is a hub (power-law graphs: a round lasts as
 * long as its slowest vertex, and a hub's scan by 4 or 8 lanes is long). */
int64_t host_max_degree(const gcut_rcsr *g)
{
    int64_t max_deg = 0;
    for (int32_t v = 0; v < g->n; v++) {
        const int64_t d = (g->row[v + 1] - g->row[v]) + (g->rrow[v + 1] - g->rrow[v]);
        max_deg = d > max_deg ? d : max_deg;
    }
    return max_deg;
}

int auto_group(int32_t n, int64_t m, int64_t max_deg)
{
    if (max_deg >= GCUT_CSR_HUB_DEGREE)
        return 32;
    const double deg = n > 0 ? 2.0 * (double)m / (double)n : 0.0;
    if (deg <= GCUT_CSR_GROUP4_DEGREE)
        return 4;
    if (deg <= GCUT_CSR_GROUP8_DEGREE)
        return 8;
    return 32;
}

/* Solve p on the layout g (the core's, or the host copy variant=bcsr
 * builds on), or, when g is NULL, on the device layout L (dl_begin done). */
/* Host memory of the finish on the host, freed together. */
struct FinishHost {
    void *part[9];
    int count;
};

void *fh_take(FinishHost &H, size_t bytes)
{
    void *q = gcut_cu_host->malloc_fn(bytes > 0 ? bytes : 1);
    if (q)
        H.part[H.count++] = q;
    return q;
}

void fh_free(FinishHost &H)
{
    for (int k = 0; k < H.count; k++)
        gcut_cu_host->free_fn(H.part[k]);
    H.count = 0;
}

struct FinishPoll {
    const gcut_solve_options *opt;
};

gcut_status finish_poll(void *ctx, int64_t remaining)
{
    return gcut_cu_poll(((const FinishPoll *)ctx)->opt, "solve", remaining, "active nodes");
}

/*
 * Phase I's finish on the host (csr_finish.c): copy the residual state back
 * (the flows, excesses and sink residuals; the layout too when it was built
 * on the device), run sequential push-relabel to a maximum preflow, write
 * the canonical cut into sol->cut and the flow value into *flow. When the
 * flows are asked for, the state goes back up for phase II on the device.
 */
template <typename Idx>
gcut_status finish_on_host(Engine<Idx> &E, const gcut_problem *p, const gcut_rcsr *g,
                           int64_t m, int64_t sink_total, bool flows_next, gcut_solution *sol,
                           int64_t *flow)
{
    cudaStream_t st = E.s->stream;
    const int32_t n = p->num_nodes;
    const size_t n1 = (size_t)n + 1, mm = (size_t)m;
    gcut_status rc = gcut_cu_poll(E.opt, "solve", -1, "active nodes");
    if (rc != GCUT_OK)
        return rc;
    FinishHost H;
    memset(&H, 0, sizeof H);
    const double t0 = gcut_cu_now();
    int32_t *fl = (int32_t *)fh_take(H, mm * sizeof(int32_t));
    int64_t *ex = (int64_t *)fh_take(H, (size_t)n * sizeof(int64_t));
    int32_t *term = (int32_t *)fh_take(H, (size_t)n * sizeof(int32_t));
    gcut_cu_finish_graph fg;
    memset(&fg, 0, sizeof fg);
    fg.n = n;
    fg.m = m;
    if (g) {
        fg.idx32 = 0;
        fg.row = g->row;
        fg.rrow = g->rrow;
        fg.rmap = g->rmap;
        fg.col = g->col;
        fg.cap = g->cap;
        fg.rcol = g->rcol;
    } else {
        fg.idx32 = sizeof(Idx) == sizeof(uint32_t);
        fg.row = fh_take(H, n1 * sizeof(Idx));
        fg.rrow = fh_take(H, n1 * sizeof(Idx));
        fg.rmap = fh_take(H, mm * sizeof(Idx));
        fg.col = (const int32_t *)fh_take(H, mm * sizeof(int32_t));
        fg.cap = (const int32_t *)fh_take(H, mm * sizeof(int32_t));
        fg.rcol = (const int32_t *)fh_take(H, mm * sizeof(int32_t));
    }
    if (H.count != (g ? 3 : 9)) {
        fh_free(H);
        return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-csr: cannot allocate the host's copy of the "
                            "residual state (%d nodes, %lld arcs)", (int)n, (long long)m);
    }
    /* Copies in order on the stream; the first error stops the rest and
     * is reported after the synchronisation (nothing is leaked). */
    cudaError_t err = cudaSuccess;
    auto copy = [&](void *dst, const void *src, size_t bytes, cudaMemcpyKind kind) {
        if (err == cudaSuccess && bytes > 0)
            err = cudaMemcpyAsync(dst, src, bytes, kind, st);
    };
    const cudaMemcpyKind down = cudaMemcpyDeviceToHost, up = cudaMemcpyHostToDevice;
    /* Excesses are 64-bit two's complement on the device; a preflow's are
     * never negative. */
    copy(ex, E.A.excess, (size_t)n * 8, down);
    copy(term, E.sinkres, (size_t)n * 4, down);
    copy(fl, E.A.flow, mm * 4, down);
    if (!g) {
        copy((void *)fg.row, E.A.row, n1 * sizeof(Idx), down);
        copy((void *)fg.rrow, E.A.rrow, n1 * sizeof(Idx), down);
        copy((void *)fg.rmap, E.A.rmap, mm * sizeof(Idx), down);
        copy((void *)fg.col, E.A.col, mm * 4, down);
        copy((void *)fg.cap, E.A.cap, mm * 4, down);
        copy((void *)fg.rcol, E.A.rcol, mm * 4, down);
    }
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(st);
    if (err != cudaSuccess) {
        fh_free(H);
        return gcut_cu_fail(err, __func__, "copying the residual state back", __FILE__, __LINE__);
    }
    const double t1 = gcut_cu_now();
    E.transfer_ms += t1 - t0;
    FinishPoll fp = {E.opt};
    gcut_cu_finish_env env;
    memset(&env, 0, sizeof env);
    env.alloc = gcut_cu_host->malloc_fn;
    env.release = gcut_cu_host->free_fn;
    env.poll = finish_poll;
    env.ctx = &fp;
    env.max_pushes = -1;
    gcut_cu_finish_stats fs;
    rc = gcut_cu_csr_finish(&fg, fl, ex, term, sol->cut, &env, &fs);
    const double t2 = gcut_cu_now();
    if (rc == GCUT_ERR_NOMEM)
        rc = GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-csr: cannot allocate the finish on the host "
                          "(%d nodes)", (int)n);
    if (rc != GCUT_OK) {
        fh_free(H);
        return rc;
    }
    int64_t left = 0;
    for (int32_t v = 0; v < n; v++)
        left += term[v];
    *flow = sink_total - left;
    if (flows_next) {
        /* Phase II runs on the device from this state. */
        copy(E.A.excess, ex, (size_t)n * 8, up);
        copy(E.sinkres, term, (size_t)n * 4, up);
        copy(E.A.flow, fl, mm * 4, up);
        if (err == cudaSuccess)
            err = cudaStreamSynchronize(st);
        if (err != cudaSuccess) {
            fh_free(H);
            return gcut_cu_fail(err, __func__, "uploading the residual state", __FILE__,
                                __LINE__);
        }
        E.transfer_ms += gcut_cu_now() - t2;
    }
    E.finish_pushes = fs.pushes;
    E.finish_relabels = fs.relabels;
    gcut_cu_host->log(E.opt, GCUT_LOG_INFO,
                      "cuda-csr: finished on the host from %lld active vertices: copy %.2f ms, "
                      "push-relabel %.2f ms (%lld pushes, %lld relabels, %lld global relabels, "
                      "%lld gaps)",
                      (long long)fs.active_start, t1 - t0, t2 - t1, (long long)fs.pushes,
                      (long long)fs.relabels, (long long)fs.global_relabels, (long long)fs.gaps);
    fh_free(H);
    return GCUT_OK;
}

template <typename Idx>
gcut_status solve(gcut_cu_csr_state *s, const gcut_problem *p, const gcut_rcsr *g, DevLayout *L,
                  const gcut_solve_options *opt, const gcut_cu_csr_params *prm,
                  const HostBcsr *hb, gcut_solution *sol)
{
    const double t_start = gcut_cu_now();
    const int32_t n = p->num_nodes;
    const int64_t m = g ? g->m : L->m;
    cudaStream_t st = s->stream;

    Engine<Idx> E;
    memset(&E, 0, sizeof E);
    E.s = s;
    E.opt = opt;
    E.wl = prm->variant != GCUT_CU_CSR_TC;
    const bool bcsr = hb != nullptr;
    const int64_t mb = bcsr ? hb->m : 0;
    E.batch = prm->batch > 0 ? prm->batch : GCUT_CSR_BATCH;
    E.grid_round = s->num_sms * GCUT_CSR_BLOCKS_PER_SM;
    {
        const int64_t need = ((int64_t)n + GCUT_CSR_BLOCK - 1) / GCUT_CSR_BLOCK;
        E.grid_n = (int)(need < E.grid_round ? (need > 0 ? need : 1) : E.grid_round);
    }
    if (prm->relabel_rounds > 0) {
        E.interval = (uint64_t)prm->relabel_rounds;
        E.interval_fixed = true;
    } else {
        const double base = (double)n * (double)n / (GCUT_CSR_RELABEL_DIV * (double)(m > 0 ? m : 1));
        double iv = (base > GCUT_CSR_RELABEL_MIN ? base : GCUT_CSR_RELABEL_MIN) / prm->relabel_freq;
        if (iv < 1.0)
            iv = 1.0;
        if (iv > 1e9)
            iv = 1e9;
        E.interval = (uint64_t)iv;
    }
    E.round = 1;
    E.stage_entries = 0;
    /* The finish on the host: not on the BCSR (another layout), and by
     * default only on graphs large enough for the tail to matter. */
    if (bcsr || prm->finish == 0)
        E.finish_at = 0;
    else if (prm->finish > 0)
        E.finish_at = prm->finish; /* from the first cycle on */
    else if (m >= GCUT_CSR_FINISH_MIN_ARCS)
        E.finish_at = n / GCUT_CSR_FINISH_DIV > GCUT_CSR_FINISH_MIN ? n / GCUT_CSR_FINISH_DIV
                                                                   : GCUT_CSR_FINISH_MIN;
    E.finish_cycles = prm->finish > 0 ? 1 : GCUT_CSR_FINISH_CYCLES;

    /* ---- plan the workspace and compare with the free memory */
    /* 64-bit offsets from the core are narrowed on the device, through a
     * staging buffer of at most GCUT_CSR_STAGE_ENTRIES entries. */
    const bool narrow = sizeof(Idx) < sizeof(int64_t) && g;
    if (narrow) {
        /* The BCSR has only its row offsets to narrow. */
        const int64_t arcs = bcsr ? 0 : m;
        const int64_t biggest = arcs > (int64_t)n + 1 ? arcs : (int64_t)n + 1;
        E.stage_entries = biggest < (int64_t)GCUT_CSR_STAGE_ENTRIES ? (size_t)biggest
                                                                      : GCUT_CSR_STAGE_ENTRIES;
    }
    /* Two passes over the same carving: the first sizes the workspace, the
     * second hands out pointers into it, so size and layout cannot disagree.
     * The free memory is compared before allocating (a clear message instead
     * of a failed allocation); cudaMemGetInfo is only a snapshot, so a failed
     * cudaMalloc still maps to GCUT_ERR_DEVICE_NOMEM, and gcut_solve's auto
     * mode then solves on the CPU. */
    Carver plan;
    for (int pass = 0; pass < 2; pass++) {
        Carver c;
        c.base = pass ? (char *)s->ws : nullptr;
        /* One layout or the other: the arrays of the unused one get no
         * room (and are never read: A.bcsr steers every kernel). */
        const size_t rn = bcsr ? 0 : (size_t)n + 1, rm = bcsr ? 0 : (size_t)m;
        E.A.row = c.take<Idx>(rn);
        E.A.rrow = c.take<Idx>(rn);
        E.A.rmap = c.take<Idx>(rm);
        E.A.col = c.take<int32_t>(rm);
        E.A.cap = c.take<int32_t>(rm);
        E.A.rcol = c.take<int32_t>(rm);
        E.A.flow = c.take<int32_t>(rm);
        E.A.brow = c.take<Idx>(bcsr ? (size_t)n + 1 : 0);
        E.A.bcol = c.take<int32_t>((size_t)mb);
        E.A.bres = c.take<unsigned long long>((size_t)mb);
        E.A.excess = c.take<unsigned long long>((size_t)n);
        E.A.height = c.take<int32_t>((size_t)n);
        E.A.stamp = c.take<uint32_t>((size_t)n);
        E.A.list0 = c.take<int32_t>((size_t)n);
        E.A.list1 = c.take<int32_t>((size_t)n);
        E.src = c.take<int32_t>((size_t)n);
        E.sinkres = c.take<int32_t>((size_t)n);
        E.cut = c.take<uint8_t>((size_t)n);
        E.A.ctl = c.take<Ctl>(1);
        E.stage = c.take<long long>(E.stage_entries);
        if (pass == 0) {
            plan = c;
            if (s->ws_bytes < plan.off) {
                size_t free_b = 0, total_b = 0;
                GCUT_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
                const size_t have = free_b + (s->ws ? s->ws_bytes : 0);
                if (plan.off + GCUT_CSR_MEM_HEADROOM > have)
                    return GCUT_CU_FAIL(GCUT_ERR_DEVICE_NOMEM,
                                        "cuda-csr: the graph needs %.1f MiB of device memory, "
                                        "%.1f MiB are free (of %.1f MiB)",
                                        (double)plan.off / 1048576.0, (double)free_b / 1048576.0,
                                        (double)total_b / 1048576.0);
                if (s->ws) {
                    GCUT_CUDA_CHECK(cudaFree(s->ws));
                    s->ws = nullptr;
                    s->ws_bytes = 0;
                }
                GCUT_CUDA_CHECK(cudaMalloc(&s->ws, plan.off));
                s->ws_bytes = plan.off;
            }
        }
    }
    E.A.n = n;
    E.A.dead = n + 1;
    E.A.bcsr = bcsr ? 1 : 0;
    E.A.term = E.sinkres;

    /* ---- upload and initial preflow */
    gcut_status rc;
    if ((rc = gcut_cu_poll(opt, "upload", -1, NULL)) != GCUT_OK)
        return rc;
    const double t_up = gcut_cu_now();
    double lay_ms = 0.0; /* dl_build: the layout's build, not its transfer */
    if (bcsr) {
        if ((rc = upload_index(E, (Idx *)E.A.brow, hb->row, (int64_t)n + 1)) != GCUT_OK)
            return rc;
        if (mb > 0) {
            GCUT_CUDA_CHECK(cudaMemcpyAsync((void *)E.A.bcol, hb->col,
                                            (size_t)mb * sizeof(int32_t),
                                            cudaMemcpyHostToDevice, st));
            GCUT_CUDA_CHECK(cudaMemcpyAsync(E.A.bres, hb->res,
                                            (size_t)mb * sizeof(unsigned long long),
                                            cudaMemcpyHostToDevice, st));
        }
    } else if (!g) {
        /* The layout is built on the device, straight into the engine's
         * arrays (the edges went up in dl_begin). */
        lay_ms = -gcut_cu_now();
        if ((rc = dl_build<Idx>(s, L, (Idx *)E.A.row, (int32_t *)E.A.col, (int32_t *)E.A.cap,
                                (Idx *)E.A.rrow, (int32_t *)E.A.rcol, (Idx *)E.A.rmap)) != GCUT_OK)
            return rc;
        lay_ms += gcut_cu_now();
    } else if ((rc = upload_index(E, (Idx *)E.A.row, g->row, (int64_t)n + 1)) != GCUT_OK ||
               (rc = upload_index(E, (Idx *)E.A.rrow, g->rrow, (int64_t)n + 1)) != GCUT_OK ||
               (rc = upload_index(E, (Idx *)E.A.rmap, g->rmap, m)) != GCUT_OK) {
        return rc;
    }
    if (m > 0 && !bcsr && g) {
        GCUT_CUDA_CHECK(cudaMemcpyAsync((void *)E.A.col, g->col, (size_t)m * sizeof(int32_t),
                                        cudaMemcpyHostToDevice, st));
        GCUT_CUDA_CHECK(cudaMemcpyAsync((void *)E.A.cap, g->cap, (size_t)m * sizeof(int32_t),
                                        cudaMemcpyHostToDevice, st));
        GCUT_CUDA_CHECK(cudaMemcpyAsync((void *)E.A.rcol, g->rcol, (size_t)m * sizeof(int32_t),
                                        cudaMemcpyHostToDevice, st));
    }
    if (m > 0 && !bcsr)
        GCUT_CUDA_CHECK(cudaMemsetAsync(E.A.flow, 0, (size_t)m * sizeof(int32_t), st));
    GCUT_CUDA_CHECK(cudaMemcpyAsync(E.src, p->cap_source, (size_t)n * sizeof(int32_t),
                                    cudaMemcpyHostToDevice, st));
    GCUT_CUDA_CHECK(cudaMemcpyAsync(E.sinkres, p->cap_sink, (size_t)n * sizeof(int32_t),
                                    cudaMemcpyHostToDevice, st));
    GCUT_CUDA_CHECK(cudaMemsetAsync(E.A.ctl, 0, sizeof(Ctl), st));
    GCUT_CUDA_CHECK(cudaStreamSynchronize(st));
    E.transfer_ms += gcut_cu_now() - t_up - lay_ms;
    if (!g) /* the edges' upload (dl_begin, before this function) */
        E.transfer_ms += L->upload_ms;

    /* ---- the schedule, from the degrees of the layout */
    E.group = !E.wl                 ? 1
              : prm->group          ? prm->group
              : g                   ? auto_group(n, m, host_max_degree(g))
                                    : auto_group(n, m, L->deg);
    E.tail_enter = GCUT_CSR_TAIL_ENTER_GROUPS * (GCUT_CSR_TAIL_THREADS / (uint32_t)E.group);
    E.tail_exit = E.tail_enter * GCUT_CSR_TAIL_EXIT_FACTOR;
    /* The cooperative driver (vc only): every block resident at once. */
    E.coop = false;
    if (E.wl && prm->driver != GCUT_CU_CSR_DRIVER_HOST && s->coop_ok) {
        int per_sm = 0;
        GCUT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, cycle_kernel_of<Idx>(E.group), GCUT_CSR_COOP_BLOCK, 0));
        if (per_sm > 0) {
            E.coop = true;
            E.coop_grid = per_sm * s->num_sms;
        }
    }
    E.coop_until = prm->coop_until >= 0 ? prm->coop_until : (int64_t)E.tail_enter;
    if (prm->driver == GCUT_CU_CSR_DRIVER_COOP && E.wl && !E.coop)
        return GCUT_CU_FAIL(GCUT_ERR_UNSUPPORTED,
                            "cuda-csr: driver=coop: cooperative launch is not available here");
    gcut_csr::init_kernel<<<E.grid_n, GCUT_CSR_BLOCK, 0, st>>>(n, E.src, E.sinkres, E.A.excess,
                                                               E.A.stamp);
    GCUT_CUDA_CHECK_LAUNCH(st);
    GCUT_CUDA_CHECK(cudaStreamSynchronize(st));
    /* The flow value is what the sink took: sum(cap_sink) - sum(term) after
     * phase I (cancelled amounts included, since term starts at
     * cap_sink - min(cap_source, cap_sink)). The first sum is cheap here. */
    int64_t sink_total = 0;
    for (int32_t v = 0; v < n; v++)
        sink_total += p->cap_sink[v];
    const double t_solve = gcut_cu_now();
    /* The BCSR build on the host (before this function) counts as init. */
    sol->stats->init_ms = t_solve - t_start + (bcsr ? hb->build_ms : 0.0);
    if (!g) {
        /* A layout built on the device is a layout build (stats->build_ms,
         * which the core set to 0: it built none); the upload of the edges
         * and the rest of the set-up are init, as the RCSR's upload is. */
        sol->stats->init_ms += L->upload_ms - lay_ms;
        sol->stats->build_ms += L->build_ms;
    }

    /* ---- phase I: maximum preflow (its tail on the host when handed over;
     * the host then also gives the canonical cut and the flow value) */
    if ((rc = run_phase_any(E, E.sinkres, 1)) != GCUT_OK)
        return rc;
    int64_t flow = 0;
    if (E.handoff &&
        (rc = finish_on_host(E, p, g, m, sink_total, sol->edge_flows != nullptr, sol, &flow)) !=
            GCUT_OK)
        return rc;
    const double t_cut = gcut_cu_now();
    sol->stats->solve_ms = t_cut - t_solve;

    /* ---- the canonical cut and the flow value */
    if (!E.handoff) {
        if ((rc = gcut_cu_poll(opt, "cut", -1, NULL)) != GCUT_OK)
            return rc;
        gcut_csr::cut_kernel<<<E.grid_n, GCUT_CSR_BLOCK, 0, st>>>(n, E.A.dead, E.A.height, E.cut);
        GCUT_CUDA_CHECK_LAUNCH(st);
        gcut_csr::term_sum_kernel<<<E.grid_n, GCUT_CSR_BLOCK, 0, st>>>(n, E.sinkres, E.A.ctl);
        GCUT_CUDA_CHECK_LAUNCH(st);
        const double t_dl = gcut_cu_now();
        GCUT_CUDA_CHECK(cudaMemcpyAsync(sol->cut, E.cut, (size_t)n, cudaMemcpyDeviceToHost, st));
        if ((rc = read_ctl(E)) != GCUT_OK)
            return rc;
        E.transfer_ms += gcut_cu_now() - t_dl;
        flow = sink_total - (int64_t)s->h_ctl->term_left;
    }
    const double t_flow = gcut_cu_now();
    sol->stats->cut_ms = t_flow - t_cut;

    /* ---- phase II: a flow, when asked for */
    if (sol->edge_flows && !bcsr) { /* bcsr: refused by csr_backend.c */
        E.poll_phase = "flows";
        if ((rc = run_phase_any(E, E.src, 2)) != GCUT_OK)
            return rc;
        if (s->h_ctl->excess_nodes != 0)
            return GCUT_CU_FAIL(GCUT_ERR_INTERNAL,
                                "cuda-csr: %u vertices kept excess after phase II",
                                s->h_ctl->excess_nodes);
        int32_t *f = nullptr;
        if (!g) {
            /* Summed per edge on the device (the codes are there). */
            const double t_f = gcut_cu_now();
            if ((rc = dl_edge_flows(s, L, (const int32_t *)E.A.flow, sol->edge_flows)) != GCUT_OK)
                return rc;
            E.transfer_ms += gcut_cu_now() - t_f;
        } else if (m > 0) {
            f = (int32_t *)gcut_cu_host->malloc_fn((size_t)m * sizeof(int32_t));
            if (!f)
                return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-csr: cannot allocate %lld arc flows",
                                    (long long)m);
            const double t_f = gcut_cu_now();
            cudaError_t err = cudaMemcpyAsync(f, E.A.flow, (size_t)m * sizeof(int32_t),
                                              cudaMemcpyDeviceToHost, st);
            if (err == cudaSuccess)
                err = cudaStreamSynchronize(st);
            if (err != cudaSuccess) {
                gcut_cu_host->free_fn(f);
                return gcut_cu_fail(err, __func__, "copying the flows back", __FILE__, __LINE__);
            }
            E.transfer_ms += gcut_cu_now() - t_f;
        }
        /* An edge with both capacities positive has two forward arcs (u->v
         * and v->u) with flows of their own; its flow is the difference, in
         * [-rev_cap, cap]. Edges without arcs (self-loops, zero capacities)
         * carry 0. */
        if (g) {
            memset(sol->edge_flows, 0, (size_t)p->num_edges * sizeof(int32_t));
            for (int64_t a = 0; a < m; a++) {
                const int64_t e = g->edge[a] >> 1;
                sol->edge_flows[e] += (g->edge[a] & 1) ? -f[a] : f[a];
            }
        }
        if (f)
            gcut_cu_host->free_fn(f);
        sol->stats->flow_ms = gcut_cu_now() - t_flow;
    }

    sol->flow = flow;
    sol->stats->transfer_ms = E.transfer_ms;
    sol->stats->rounds = E.rounds;
    sol->stats->global_relabels = E.global_relabels;
    sol->stats->pushes = (int64_t)s->h_ctl->pushes + E.finish_pushes;
    sol->stats->relabels = (int64_t)s->h_ctl->relabels + E.finish_relabels;
    sol->stats->threads = E.grid_round * GCUT_CSR_BLOCK;
    gcut_cu_host->log(opt, GCUT_LOG_INFO,
                      "cuda-csr: flow %lld, %d nodes, %lld arcs, variant %s, group %d: "
                      "%s driver%s, %lld rounds (%lld in the tail kernel), %lld global relabels (%.2f ms, "
                      "last BFS %d levels); init %.2f ms, phase I %.2f ms, phase II %.2f ms",
                      (long long)flow, (int)n, (long long)(bcsr ? mb : m),
                      bcsr ? "bcsr" : E.wl ? "vc" : "tc", E.group,
                      E.coop ? "cooperative" : "host", E.switches ? " then host" : "",
                      (long long)E.rounds, (long long)E.tail_rounds,
                      (long long)E.global_relabels, E.relabel_ms, (int)E.bfs_depth,
                      sol->stats->init_ms, sol->stats->solve_ms, sol->stats->flow_ms);
    return GCUT_OK;
}

/* Create the stream and the pinned control block on first use. */
gcut_status state_ready(gcut_cu_csr_state *s)
{
    if (s->ready)
        return GCUT_OK;
    GCUT_CUDA_CHECK(cudaGetDevice(&s->device));
    GCUT_CUDA_CHECK(cudaDeviceGetAttribute(&s->num_sms, cudaDevAttrMultiProcessorCount, s->device));
    GCUT_CUDA_CHECK(cudaDeviceGetAttribute(&s->coop_ok, cudaDevAttrCooperativeLaunch, s->device));
    GCUT_CUDA_CHECK(cudaMallocHost((void **)&s->h_ctl, sizeof(Ctl)));
    cudaError_t err = cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking);
    if (err != cudaSuccess) {
        (void)cudaFreeHost(s->h_ctl);
        s->h_ctl = nullptr;
        return gcut_cu_fail(err, __func__, "cudaStreamCreateWithFlags", __FILE__, __LINE__);
    }
    s->ready = 1;
    return GCUT_OK;
}

} // namespace

extern "C" gcut_status gcut_cu_csr_solve(gcut_cu_csr_state *s, const gcut_problem *p,
                                         const gcut_solve_options *opt,
                                         const gcut_cu_csr_params *prm, gcut_solution *sol)
{
    const int32_t n = p->num_nodes;
    if (p->rcsr && p->rcsr->n != n)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-csr: layout has %d nodes, problem %d",
                            (int)p->rcsr->n, (int)n);
    if (prm->layout == GCUT_CU_CSR_LAYOUT_CHECK && !p->rcsr)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-csr: layout=check compares with the core's "
                            "layout, and the graph holds none");
    if (n > INT32_MAX - 2)
        return GCUT_CU_FAIL(GCUT_ERR_OVERFLOW, "cuda-csr: too many nodes (%d)", (int)n);
    if (n == 0) {
        sol->flow = 0;
        if (sol->edge_flows)
            memset(sol->edge_flows, 0, (size_t)p->num_edges * sizeof(int32_t));
        return GCUT_OK;
    }
    gcut_status st = state_ready(s);
    if (st != GCUT_OK)
        return st;
    /* The layout on the device unless the core passed one (layout=auto),
     * always with layout=device or check. */
    const bool on_device = !p->rcsr || prm->layout != GCUT_CU_CSR_LAYOUT_AUTO;
    DevLayout L;
    memset(&L, 0, sizeof L);
    HostRcsr h;
    memset(&h, 0, sizeof h);
    HostBcsr hb;
    memset(&hb, 0, sizeof hb);
    const double t0 = gcut_cu_now();
    const gcut_rcsr *g = on_device ? nullptr : p->rcsr;
    if (on_device && (st = dl_begin(s, p, opt, prm, &L)) != GCUT_OK)
        goto done;
    if (prm->layout == GCUT_CU_CSR_LAYOUT_CHECK) {
        if ((st = dl_to_host(s, &L, &h)) != GCUT_OK || (st = dl_compare(&h.view, p->rcsr)) != GCUT_OK)
            goto done;
        host_rcsr_free(&h);
        gcut_cu_host->log(opt, GCUT_LOG_DEBUG, "cuda-csr: layout=check: the device's layout of "
                          "%lld arcs is the core's", L.m);
    }
    gcut_cu_host->log(opt, GCUT_LOG_DEBUG, "cuda-csr: %d nodes, %lld arcs on device %d, layout %s",
                      (int)n, (long long)(g ? g->m : L.m), s->device,
                      g ? "from the core" : "on the device");
    if (prm->variant != GCUT_CU_CSR_BCSR) {
        /* 32-bit arc offsets while they fit (strided loops add up to 32 to
         * an offset, hence INT32_MAX rather than UINT32_MAX): half the
         * index traffic of rmap and the offsets. */
        const int64_t m = g ? g->m : L.m;
        st = m <= (int64_t)INT32_MAX ? solve<uint32_t>(s, p, g, &L, opt, prm, nullptr, sol)
                                     : solve<long long>(s, p, g, &L, opt, prm, nullptr, sol);
        if (st == GCUT_OK && !g)
            gcut_cu_host->log(opt, GCUT_LOG_DEBUG, "cuda-csr: layout on the device: %lld edges "
                              "uploaded in %.2f ms (%s), %lld arcs laid out in %.2f ms",
                              (long long)L.ne, L.upload_ms,
                              L.staged_threads ? "pinned buffers" : "pageable",
                              (long long)L.m, L.build_ms);
        goto done;
    }
    /* variant=bcsr: its layout is built on the host from the RCSR (the
     * core's, or the device's copied back), its arc count (up to 2 m)
     * picks the offset type, and it is freed after the solve (the uploads
     * are synchronised inside). */
    if (!g) {
        if ((st = dl_to_host(s, &L, &h)) != GCUT_OK)
            goto done;
        g = &h.view;
        dl_free(&L);
    }
    if ((st = build_bcsr(g, &hb)) != GCUT_OK)
        goto done;
    if (g == &h.view) /* the device's layout and its copy count as the BCSR's build */
        hb.build_ms = gcut_cu_now() - t0;
    gcut_cu_host->log(opt, GCUT_LOG_DEBUG, "cuda-csr: BCSR of %lld arcs built in %.2f ms",
                      (long long)hb.m, hb.build_ms);
    if (hb.m <= (int64_t)INT32_MAX)
        st = solve<uint32_t>(s, p, g, nullptr, opt, prm, &hb, sol);
    else
        st = solve<long long>(s, p, g, nullptr, opt, prm, &hb, sol);
done:
    bcsr_free(&hb);
    host_rcsr_free(&h);
    dl_free(&L);
    return st;
}
