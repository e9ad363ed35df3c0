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

#include "grid/grid_engine.cuh"

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
    if (s->h_cut)
        (void)cudaFreeHost(s->h_cut);
    if (s->h_dense)
        (void)cudaFreeHost(s->h_dense);
    state_close(s);
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

/* ------------------------------------------------------------ warm start */

typedef struct { int64_t key; int64_t delta; int which; } merge_rec;

static int cmp_rec(const void *a, const void *b)
{
    const merge_rec *x = (const merge_rec *)a, *y = (const merge_rec *)b;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* The record of an n-link change c (keys >= 2n: the pair, named by its
 * even direction's tail); 0 when the direction leaves the grid. */
static int pair_record(const gcut_grid_problem *p, gcut_grid_change c, merge_rec *out)
{
    const int64_t n = p->num_nodes;
    const int W = p->width, H = p->height, D = p->depth;
    const int d = c.what;
    const int x = c.node % W, y = (c.node / W) % H, z = c.node / (W * H);
    const int nx = x + p->dir_offset[3 * d], ny = y + p->dir_offset[3 * d + 1],
              nz = z + p->dir_offset[3 * d + 2];
    if (nx < 0 || nx >= W || ny < 0 || ny >= H || nz < 0 || nz >= D)
        return 0;
    const int64_t nb = nx + (int64_t)W * (ny + (int64_t)H * nz);
    const int64_t tail = (d & 1) ? nb : c.node;
    *out = (merge_rec){2 * n + tail * 26 + (d & ~1), c.delta, (d & 1)};
    return 1;
}

/* The n-link records of a dense warm start (dense_ok), taken over by
 * apply_changes. */
typedef struct {
    merge_rec *rec;
    int64_t count;
} dense_links;

/* Merge the change log into per-node terminal records and per-pair arc
 * records (directions leaving the grid dropped), upload them and repair
 * the kept preflow. dense (non-NULL): dense_ok has already summed the
 * terminal changes into two dense arrays of net deltas (s->h_dense),
 * uploaded whole (for a rewrite of most t-links that is less work and
 * fewer bytes than records sorted and merged), and kept the records of
 * the n-link changes; apply_changes frees them. */
static gcut_status apply_changes(gcut_cu_grid_state *s, const gcut_grid_problem *p,
                                 dense_links *dense, double *transfer_ms)
{
    const int64_t nc = p->num_changes;
    if (nc == 0 && !dense)
        return GCUT_OK;
    const int64_t n = p->num_nodes;
    merge_rec *rec;
    int64_t nt = 0, np = 0;
    if (dense) {
        rec = dense->rec;
        np = dense->count;
        dense->rec = NULL;
    } else {
        rec = (merge_rec *)gcut_cu_host->malloc_fn((size_t)nc * sizeof *rec);
        if (!rec)
            return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-grid: cannot merge %lld changes",
                                (long long)nc);
        /* Terminal records first (keys 0 .. 2n), then pairs (keys >= 2n). */
        for (int64_t i = 0; i < nc; i++) {
            const gcut_grid_change c = p->changes[i];
            if (c.what == GCUT_GRID_SOURCE_LINK || c.what == GCUT_GRID_SINK_LINK) {
                rec[nt + np] = (merge_rec){2 * (int64_t)c.node, c.delta,
                                           c.what == GCUT_GRID_SOURCE_LINK ? 0 : 1};
                nt++;
            } else {
                np += pair_record(p, c, &rec[nt + np]);
            }
        }
    }
    const int64_t m = nt + np;
    qsort(rec, (size_t)m, sizeof *rec, cmp_rec);
    /* Merge runs of equal keys, in place, into the two record types. */
    size_t need = (size_t)m * (sizeof(TermChange) > sizeof(PairChange) ? sizeof(TermChange)
                                                                        : sizeof(PairChange));
    unsigned char *host = (unsigned char *)gcut_cu_host->malloc_fn(need ? need : 1);
    if (!host) {
        if (rec)
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
    if (rec)
        gcut_cu_host->free_fn(rec);
    /* On the device: the dense deltas (2 n ints), then the records. */
    const size_t dbytes = dense ? 2 * (size_t)n * sizeof(int) : 0;
    const size_t rbytes = (size_t)ntc * sizeof(TermChange) + (size_t)npc * sizeof(PairChange);
    const size_t bytes = dbytes + rbytes;
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
    if (st == GCUT_OK && (dense || ntc + npc > 0)) {
        const double t0 = gcut_cu_now();
        cudaError_t err = cudaSuccess;
        if (dense)
            err = cudaMemcpyAsync(s->d_changes, s->h_dense, dbytes, cudaMemcpyHostToDevice,
                                  s->stream);
        if (err == cudaSuccess && rbytes)
            err = cudaMemcpyAsync((unsigned char *)s->d_changes + dbytes, host, rbytes,
                                  cudaMemcpyHostToDevice, s->stream);
        if (err == cudaSuccess)
            err = cudaStreamSynchronize(s->stream);
        *transfer_ms += gcut_cu_now() - t0;
        if (err != cudaSuccess)
            st = gcut_cu_fail(err, __func__, "cudaMemcpyAsync(changes)", __FILE__, __LINE__);
    }
    gcut_cu_host->free_fn(host);
    if (st != GCUT_OK || (!dense && ntc + npc == 0))
        return st;
    if (dense) {
        const int *d_ds = (const int *)s->d_changes;
        gcut_grid_cu::dense_change_kernel<<<(s->dev.n + 255) / 256, 256, 0, s->stream>>>(
            s->dev, d_ds, d_ds + n);
        GCUT_CUDA_CHECK_LAUNCH(s->stream);
    }
    const unsigned char *recs = (const unsigned char *)s->d_changes + dbytes;
    const TermChange *d_tc = (const TermChange *)recs;
    const PairChange *d_pc = (const PairChange *)(recs + (size_t)ntc * sizeof(TermChange));
    const int total = ntc + npc;
    if (total > 0) {
        gcut_grid_cu::change_kernel<<<(total + 255) / 256, 256, 0, s->stream>>>(s->dev, d_tc, ntc,
                                                                               d_pc, npc);
        GCUT_CUDA_CHECK_LAUNCH(s->stream);
    }
    gcut_grid_cu::fix_kernel<<<(s->dev.n + 255) / 256, 256, 0, s->stream>>>(s->dev);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    return GCUT_OK;
}

/* Whether a warm start may take the changes as dense deltas: many of
 * them (past the sparse limit), the n-links among them within it, and the
 * pinned host array for the deltas there (allocated here; without it the
 * solve is cold). In the same pass over the log it sums the terminal
 * changes into that array and keeps the n-link records in *out. */
static int dense_ok(gcut_cu_grid_state *s, const gcut_grid_problem *p, int64_t sparse_limit,
                    dense_links *out)
{
    const int64_t n = p->num_nodes;
    const size_t need = 2 * (size_t)n * sizeof(int);
    if (s->h_dense_bytes < need) {
        if (s->h_dense)
            (void)cudaFreeHost(s->h_dense);
        s->h_dense = NULL;
        s->h_dense_bytes = 0;
        if (cudaMallocHost((void **)&s->h_dense, need) != cudaSuccess) {
            (void)cudaGetLastError();
            return 0;
        }
        s->h_dense_bytes = need;
    }
    merge_rec *rec = (merge_rec *)gcut_cu_host->malloc_fn((size_t)sparse_limit * sizeof *rec);
    if (!rec)
        return 0;
    /* Dense deltas: sums modulo 2^32, exact since each net delta is the
     * difference of two int32 capacities (the log's deltas only add up). */
    unsigned *dsrc = (unsigned *)s->h_dense, *dsnk = dsrc + n;
    memset(dsrc, 0, 2 * (size_t)n * sizeof *dsrc);
    int64_t links = 0, np = 0;
    for (int64_t i = 0; i < p->num_changes; i++) {
        const gcut_grid_change c = p->changes[i];
        if (c.what == GCUT_GRID_SOURCE_LINK || c.what == GCUT_GRID_SINK_LINK) {
            unsigned *a = c.what == GCUT_GRID_SOURCE_LINK ? dsrc : dsnk;
            a[c.node] += (unsigned)c.delta;
        } else if (++links > sparse_limit) {
            gcut_cu_host->free_fn(rec);
            return 0;
        } else {
            np += pair_record(p, c, &rec[np]);
        }
    }
    out->rec = rec;
    out->count = np;
    return 1;
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

static gcut_status finish(gcut_cu_grid_state *s, const gcut_grid_problem *p,
                          const gcut_solve_options *opt, const Run *R, gcut_solution *sol,
                          int warm, double t_cut);

template <int ND, bool D3>
static gcut_status run(gcut_cu_grid_state *s, const gcut_grid_problem *p,
                       const gcut_solve_options *opt, const gcut_cu_grid_params *prm,
                       const gcut_cu_grid_devio *io, gcut_solution *sol)
{
    using namespace gcut_grid_cu;
    typedef Tile<D3> T;
    const double t_start = gcut_cu_now();
    Run R;
    memset(&R, 0, sizeof R);
    R.s = s;
    R.opt = opt;
    R.deadline = 1e300; /* the call's time limit: check_time polls the host */
    R.coop = prm->coop;

    /* Past a sixteenth of the nodes' entries changed, merging records
     * costs about as much as the upload of a cold start: the terminal
     * changes then go up as dense deltas (dense=1; a GrabCut iteration
     * rewrites every t-link, and the kept flow saves most of the search),
     * or the solve starts cold (dense=0, or n-links changed past the
     * limit: flow above lowered capacities would have to go back). */
    const int64_t sparse_limit = p->num_nodes / 16 + 64;
    const int can_warm = !io && p->warm && s->valid && prm->warm && s->W == p->width &&
                         s->H == p->height && s->D == p->depth && s->nd == p->num_dirs;
    dense_links links = {NULL, 0};
    struct LinksGuard { /* dense_ok's records, until apply_changes takes them */
        dense_links *l;
        ~LinksGuard()
        {
            if (l->rec)
                gcut_cu_host->free_fn(l->rec);
        }
    } links_guard = {&links};
    const int dense = can_warm && p->num_changes > sparse_limit && prm->dense &&
                      dense_ok(s, p, sparse_limit, &links);
    const int warm = can_warm && (p->num_changes <= sparse_limit || dense);
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
    if ((st = gcut_cu_poll(opt, "upload", -1, NULL)) != GCUT_OK)
        return st;
    if (io) {
        /* Arrays in device memory: io->fill writes the residuals and the
         * terminal capacities in place of the upload. */
        GCUT_CUDA_CHECK(cudaMemsetAsync(g.acc, 0, ACC_SLOTS * sizeof(u64), s->stream));
        if ((st = io->fill(s, io->user)) != GCUT_OK)
            return st;
        init_kernel<ND, D3><<<g.ntiles, kThreads, 0, s->stream>>>(g, (const int *)g.mask, g.lab);
        GCUT_CUDA_CHECK_LAUNCH(s->stream);
    } else if (warm) {
        st = apply_changes(s, p, dense ? &links : NULL, &R.transfer_ms);
        if (st != GCUT_OK)
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

    /* Sweeps per push launch by the kind of start, unless given. */
    gcut_cu_grid_params eff = *prm;
    if (!prm->sweeps_given)
        eff.sweeps = warm && !dense ? GCUT_CU_GRID_SWEEPS : GCUT_CU_GRID_SWEEPS_COLD;
    if ((st = phase_one<ND, D3>(R, &eff, warm)) != GCUT_OK)
        return st;
    const double t_cut = gcut_cu_now();
    sol->stats->solve_ms = t_cut - t_solve;
    if ((st = gcut_cu_poll(opt, "cut", -1, NULL)) != GCUT_OK)
        return st;

    if (io) {
        /* The cut stays on the device, in the caller's buffer. */
        if (io->mask_fg)
            cut_fg_kernel<<<(g.n + 255) / 256, 256, 0, s->stream>>>(g, io->cut_out);
        else
            cut_kernel<<<(g.n + 255) / 256, 256, 0, s->stream>>>(g, io->cut_out);
        GCUT_CUDA_CHECK_LAUNCH(s->stream);
        GCUT_CUDA_CHECK(cudaMemcpyAsync(s->h_acc, g.acc, 2 * sizeof(u64), cudaMemcpyDeviceToHost,
                                        s->stream));
        GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
        return finish(s, p, opt, &R, sol, warm, t_cut);
    }
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
    R.transfer_ms += gcut_cu_now() - t_dl;
    return finish(s, p, opt, &R, sol, warm, t_cut);
}

/* The flow, the statistics and the log line of a solve that succeeded
 * (the accumulators are on the host). */
static gcut_status finish(gcut_cu_grid_state *s, const gcut_grid_problem *p,
                          const gcut_solve_options *opt, const Run *Rp, gcut_solution *sol,
                          int warm, double t_cut)
{
    using namespace gcut_grid_cu;
    const Run &R = *Rp;
    const Dev &g = s->dev;
    const double t_end = gcut_cu_now();
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
    return gcut_cu_grid_solve_io(s, p, opt, prm, NULL, sol);
}

extern "C" gcut_status gcut_cu_grid_solve_io(gcut_cu_grid_state *s, const gcut_grid_problem *p,
                                             const gcut_solve_options *opt,
                                             const gcut_cu_grid_params *prm,
                                             const gcut_cu_grid_devio *io, gcut_solution *sol)
{
    if (p->num_nodes <= 0 || p->num_nodes >= INT32_MAX)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: bad node count %d", p->num_nodes);
    if (prm->ndevices > 0) {
        /* Spread over GPUs: the kept arrays no longer follow the grid's
         * changes, so the next solve here is cold. */
        s->valid = 0;
        if (io)
            return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                                "cuda-grid: devices= spreads a grid of host arrays over GPUs; "
                                "a grid in device memory stays on its device");
        /* The same page-locking policy as one GPU's cold uploads (from
         * the second solve of the same arrays on; the state keeps the
         * registration for the grid's lifetime). */
        if (prm->pin)
            pin_arrays(s, p);
        return gcut_cu_grid_span_solve(p, opt, prm, sol);
    }
    gcut_status st;
    switch (p->connectivity) {
    case 4:
        st = run<4, false>(s, p, opt, prm, io, sol);
        break;
    case 8:
        st = run<8, false>(s, p, opt, prm, io, sol);
        break;
    case 6:
        st = run<6, true>(s, p, opt, prm, io, sol);
        break;
    case 18:
        st = run<18, true>(s, p, opt, prm, io, sol);
        break;
    case 26:
        st = run<26, true>(s, p, opt, prm, io, sol);
        break;
    default:
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: connectivity %d", p->connectivity);
    }
    if (st != GCUT_OK)
        s->valid = 0;
    return st;
}
