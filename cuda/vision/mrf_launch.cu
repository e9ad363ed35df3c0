/*
 * mrf_launch.cu - alpha-expansion and alpha-beta swap run whole on the
 * device with cuda-grid's engine: the "gcut.vision.mrf" extension of the
 * plugin (vision/vision_plugin.h), used by gcut_mrf_expand and
 * gcut_mrf_swap when their grid solves would run on cuda-grid.
 *
 * The host driver of the grid engine (grid/grid_engine.cuh: the state, the
 * plan, the global relabel, phase I) is shared with the grid solve; the
 * move kernels are in mrf_kernels.cuh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid_engine.cuh"
#include "vision/mrf_kernels.cuh"


/* Alpha-expansion and alpha-beta swap on the device (gcut_mrf_plugin,
 * vision/vision_plugin.h): the tables are uploaded once; each move is move_kernel,
 * phase I and accept_kernel, and the host only reads the sums at the end
 * of each cycle (and the energy after each move when a progress callback
 * asks for it). The moves and their order are the core's (vision/mrf/mrf.c),
 * and each move is decided by the canonical cut, so the labelling is
 * exactly the CPU loop's. Swap keeps the number of nodes of each label on
 * the device, so that the moves of two unused labels are not counted (they
 * run, on a graph with no active node, and change nothing: asking the host
 * to skip them would cost a round trip per move). */
template <int ND, bool D3>
static gcut_status mrf_run(gcut_cu_grid_state *s, const gcut_mrf_problem *p, gcut_mrf_report *r,
                           int swap, void **dbuf)
{
    using namespace gcut_grid_cu;
    typedef Tile<D3> T;
    const double t_start = gcut_cu_now();
    gcut_grid_problem gp;
    memset(&gp, 0, sizeof gp);
    gp.width = p->width;
    gp.height = p->height;
    gp.depth = p->depth;
    gp.connectivity = p->connectivity;
    gp.num_dirs = p->connectivity;
    gp.num_nodes = p->num_nodes;
    gp.dir_offset = p->dir_offset;
    gcut_status st = plan(s, &gp, T::X, T::Y, T::Z);
    if (st != GCUT_OK)
        return st;
    if ((st = setup_kernels<ND, D3>(s)) != GCUT_OK || (st = set_offsets(s, p->dir_offset, ND)) != GCUT_OK)
        return st;
    const Dev g = s->dev; /* the shared arrays; each move's own ones below */
    const size_t n = (size_t)p->num_nodes, L = (size_t)p->num_labels;
    int nw = 0;
    for (int k = 0; k < ND / 2; k++)
        nw += p->weight && p->weight[k] ? 1 : 0;
    const size_t b_unary = align_up(n * L * sizeof(int)), b_v = align_up(L * L * sizeof(int));
    const size_t b_w = align_up(n * sizeof(int)), b_lab = align_up(n * sizeof(int));
    const size_t b_count = align_up(L * sizeof(int));
    const size_t base_bytes = b_unary + b_v + (size_t)nw * b_w + b_lab + b_count +
                              align_up(MRF_SLOTS * sizeof(long long));
    /* Flow reuse (Alahari, Kohli & Torr, "Dynamic hybrid algorithms for MAP
     * inference in discrete MRFs", PAMI 2010): each label keeps its move's
     * residual graph and graph, so that the next cycle's move on it starts
     * from that flow, repaired where the labelling changed (Kohli-Torr), and
     * not from zero. Per label: residuals, sink residuals, excesses, t and
     * pair capacities, and its flow and offset. Without the memory for it,
     * every move is cold (one set of arrays). Swap moves are cold: a set
     * per pair of labels would not fit, and a swap's graph covers only the
     * nodes of its two labels. */
    const size_t b_res = align_up((size_t)ND * n * sizeof(unsigned)), b_n8 = align_up(n * 8);
    const size_t b_c = align_up((size_t)(ND / 2) * n * sizeof(unsigned));
    const size_t per_label = b_res + 3 * b_n8 + b_c + align_up(2 * sizeof(u64));
    size_t free_b = 0, total_b = 0;
    GCUT_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    /* The engine's settings: the moves' defaults (grid_tuning.h), then the
     * caller's (gcut_mrf_options.solve.params), which may also turn the
     * kept move graphs off (reuse=0). */
    gcut_cu_grid_params prm;
    gcut_cu_grid_params_default(&prm);
    st = gcut_cu_grid_params_apply(
        swap ? GCUT_CU_GRID_MRF_SWAP_PARAMS : GCUT_CU_GRID_MRF_EXPAND_PARAMS, &prm);
    if (st == GCUT_OK && p->opt)
        st = gcut_cu_grid_params_apply(p->opt->params, &prm);
    if (st != GCUT_OK)
        return st;
    prm.warm = 0;
    prm.pin = 0;
    const int reuse = !swap && prm.reuse && base_bytes + L * per_label < free_b / 2;
    const size_t nkept = reuse ? L : 1;
    const size_t bytes = base_bytes + nkept * per_label;
    if (bytes > free_b)
        return GCUT_CU_FAIL(GCUT_ERR_DEVICE_NOMEM,
                            "cuda-grid: the unary table and labels need %.1f MiB of device "
                            "memory, %.1f MiB free",
                            bytes / 1048576.0, free_b / 1048576.0);
    GCUT_CUDA_CHECK(cudaMalloc(dbuf, bytes));
    unsigned char *base = (unsigned char *)*dbuf;
    Mrf m;
    memset(&m, 0, sizeof m);
    m.L = p->num_labels;
    m.unary = (const int *)base;
    GCUT_CUDA_CHECK(cudaMemcpyAsync(base, p->unary, n * L * sizeof(int), cudaMemcpyHostToDevice,
                                    s->stream));
    base += b_unary;
    m.V = (const int *)base;
    GCUT_CUDA_CHECK(cudaMemcpyAsync(base, p->V, L * L * sizeof(int), cudaMemcpyHostToDevice,
                                    s->stream));
    base += b_v;
    for (int k = 0; k < ND / 2; k++)
        if (p->weight && p->weight[k]) {
            m.w[k] = (const int *)base;
            GCUT_CUDA_CHECK(cudaMemcpyAsync(base, p->weight[k], n * sizeof(int),
                                            cudaMemcpyHostToDevice, s->stream));
            base += b_w;
        }
    m.labels = (int *)base;
    GCUT_CUDA_CHECK(cudaMemcpyAsync(base, p->labels, n * sizeof(int), cudaMemcpyHostToDevice,
                                    s->stream));
    base += b_lab;
    m.count = swap ? (int *)base : NULL;
    base += b_count;
    m.acc = (long long *)base;
    base += align_up(MRF_SLOTS * sizeof(long long));
    /* The per-label sets (or the one set): res, rs, ex, t, c, flow/offset;
     * the flows start zeroed. */
    unsigned char *kept_base = base;
    GCUT_CUDA_CHECK(cudaMemsetAsync(kept_base, 0, nkept * per_label, s->stream));
    /* Host side: which labels have a kept set, and one cycle's moves. */
    const size_t per_move = swap ? 2 : 1;
    char *built = (char *)calloc(L, 1);
    int32_t *moves = (int32_t *)malloc((size_t)p->moves_per_cycle * per_move * sizeof(int32_t));
    struct Freer {
        void *a, *b;
        ~Freer()
        {
            free(a);
            free(b);
        }
    } freer = {built, moves};
    if (!built || !moves)
        return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-grid: out of memory");
    long long h_acc[MRF_SLOTS] = {0};
    h_acc[MRF_ENERGY] = p->energy;
    GCUT_CUDA_CHECK(cudaMemcpyAsync(m.acc, h_acc, sizeof h_acc, cudaMemcpyHostToDevice, s->stream));
    if (swap) {
        GCUT_CUDA_CHECK(cudaMemsetAsync(m.count, 0, L * sizeof(int), s->stream));
        label_count_kernel<<<(g.n + 255) / 256, 256, 0, s->stream>>>(m, g.n);
        GCUT_CUDA_CHECK_LAUNCH(s->stream);
    }
    GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
    r->build_ms = gcut_cu_now() - t_start;

    Run R;
    memset(&R, 0, sizeof R);
    R.s = s;
    R.opt = p->opt;
    R.deadline = p->opt && p->opt->time_limit > 0 ? t_start + p->opt->time_limit * 1e3 : 1e300;
    R.coop = prm.coop;
    const double t_moves = gcut_cu_now();
    long long accepted = 0;
    for (int32_t cycle = 1; cycle <= p->max_cycles; cycle++) {
        const double t_cycle = gcut_cu_now();
        p->cycle_moves(p->moves_user, cycle, moves);
        for (int64_t i = 0; i < p->moves_per_cycle; i++) {
            Move mv;
            mv.alpha = moves[i * per_move];
            mv.beta = swap ? moves[i * per_move + 1] : -1;
            if (mv.alpha < 0 || mv.alpha >= p->num_labels || mv.beta >= p->num_labels ||
                (swap && (mv.beta < 0 || mv.beta == mv.alpha)))
                return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: bad move (%d, %d)", mv.alpha,
                                    mv.beta);
            const int alpha = mv.alpha;
            const double t0 = gcut_cu_now();
            /* This move's arrays: the label's own set when flows are
             * reused, else the one set. */
            unsigned char *kb = kept_base + (reuse ? (size_t)alpha : 0) * per_label;
            Dev gm = g;
            gm.res = (unsigned *)kb;
            gm.rs = (u64 *)(kb + b_res);
            gm.ex = (long long *)(kb + b_res + b_n8);
            Kept kept;
            kept.t = (long long *)(kb + b_res + 2 * b_n8);
            kept.c = (unsigned *)(kb + b_res + 3 * b_n8);
            u64 *flows = (u64 *)(kb + b_res + 3 * b_n8 + b_c);
            const int warm = reuse && built[alpha];
            GCUT_CUDA_CHECK(cudaMemsetAsync(g.acc, 0, ACC_SLOTS * sizeof(u64), s->stream));
            if (warm)
                GCUT_CUDA_CHECK(cudaMemcpyAsync(g.acc + ACC_FLOW, flows, 2 * sizeof(u64),
                                                cudaMemcpyDeviceToDevice, s->stream));
            GCUT_CUDA_CHECK(cudaMemsetAsync(m.acc + MRF_K, 0, 2 * sizeof(long long), s->stream));
            move_kernel<ND, D3><<<g.ntiles, kThreads, 0, s->stream>>>(gm, m, mv, kept, warm);
            GCUT_CUDA_CHECK_LAUNCH(s->stream);
            if (warm) {
                fix_kernel<<<(g.n + 255) / 256, 256, 0, s->stream>>>(gm);
                GCUT_CUDA_CHECK_LAUNCH(s->stream);
            }
            s->dev = gm;
            st = phase_one<ND, D3>(R, &prm, warm);
            s->dev = g;
            if (st != GCUT_OK)
                return st;
            built[alpha] = 1;
            GCUT_CUDA_CHECK(cudaMemcpyAsync(flows, g.acc + ACC_FLOW, 2 * sizeof(u64),
                                            cudaMemcpyDeviceToDevice, s->stream));
            accept_kernel<<<(g.n + 255) / 256, 256, 0, s->stream>>>(g, m, mv);
            GCUT_CUDA_CHECK_LAUNCH(s->stream);
            accept_energy_kernel<<<1, 1, 0, s->stream>>>(g, m, mv);
            GCUT_CUDA_CHECK_LAUNCH(s->stream);
            if (p->progress) {
                GCUT_CUDA_CHECK(cudaMemcpyAsync(h_acc, m.acc, sizeof h_acc,
                                                cudaMemcpyDeviceToHost, s->stream));
                GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
                if (h_acc[MRF_RAN])
                    p->progress(p->progress_user, cycle,
                                swap ? alpha * p->num_labels + mv.beta : alpha,
                                h_acc[MRF_ENERGY], gcut_cu_now() - t0);
            }
            const double ms = gcut_cu_now() - t0;
            if (ms > r->max_move_ms)
                r->max_move_ms = ms;
        }
        GCUT_CUDA_CHECK(
            cudaMemcpyAsync(h_acc, m.acc, sizeof h_acc, cudaMemcpyDeviceToHost, s->stream));
        GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
        if (h_acc[MRF_ERROR])
            return GCUT_CU_FAIL(GCUT_ERR_OVERFLOW,
                                "cuda-grid: a capacity of a move passes INT32_MAX (use smaller "
                                "costs)");
        r->cycle_energy[cycle - 1] = h_acc[MRF_ENERGY];
        r->cycle_ms[cycle - 1] = gcut_cu_now() - t_cycle;
        r->cycles = cycle;
        r->moves = (int32_t)h_acc[MRF_MOVES];
        const int any = h_acc[MRF_ACCEPTED] > accepted;
        accepted = h_acc[MRF_ACCEPTED];
        if (!any)
            break;
    }
    GCUT_CUDA_CHECK(cudaMemcpyAsync(p->labels, m.labels, n * sizeof(int), cudaMemcpyDeviceToHost,
                                    s->stream));
    GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
    r->solve_ms = gcut_cu_now() - t_moves;
    r->energy = h_acc[MRF_ENERGY];
    const char *what = swap ? "swap" : "expansion";
    gcut_cu_host->log(p->opt, GCUT_LOG_DEBUG,
                      "cuda-grid %s: %d moves, %lld push launches, %lld relabels (%lld BFS "
                      "launches), %.1f ms",
                      what, (int)r->moves, (long long)R.push_launches, (long long)R.relabels,
                      (long long)R.bfs_launches, r->solve_ms);
    r->moves_accepted = (int32_t)accepted;
    return GCUT_OK;
}

static gcut_status mrf_entry(const gcut_mrf_problem *p, gcut_mrf_report *r, int swap)
{
    if (!p || !r || !p->unary || !p->V || !p->labels || !p->cycle_moves || !p->dir_offset ||
        !r->cycle_energy || !r->cycle_ms || p->num_labels < 2 || p->max_cycles < 1 ||
        p->num_nodes <= 0 || p->num_nodes >= INT32_MAX ||
        p->moves_per_cycle != (swap ? (int64_t)p->num_labels * (p->num_labels - 1) / 2
                                    : (int64_t)p->num_labels))
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: bad multi-label problem");
    const char *why;
    gcut_status st = gcut_cu_probe_device(&why);
    if (st == GCUT_OK)
        st = gcut_cu_grid_probe_image(&why);
    if (st != GCUT_OK)
        return GCUT_CU_FAIL(GCUT_ERR_UNAVAILABLE, "cuda-grid: %s", why);
    gcut_cu_grid_state *s;
    if ((st = gcut_cu_grid_state_new(&s)) != GCUT_OK)
        return st;
    void *dbuf = NULL;
    r->cycles = r->moves = r->moves_accepted = 0;
    r->build_ms = r->solve_ms = r->max_move_ms = 0;
    /* The labels are written back only on success: work on a copy. */
    int32_t *labels = (int32_t *)gcut_cu_host->malloc_fn((size_t)p->num_nodes * sizeof(int32_t));
    if (!labels) {
        gcut_cu_grid_state_free(s);
        return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-grid: out of memory");
    }
    memcpy(labels, p->labels, (size_t)p->num_nodes * sizeof(int32_t));
    gcut_mrf_problem q = *p;
    q.labels = labels;
    switch (p->connectivity) {
    case 4:
        st = mrf_run<4, false>(s, &q, r, swap, &dbuf);
        break;
    case 8:
        st = mrf_run<8, false>(s, &q, r, swap, &dbuf);
        break;
    case 6:
        st = mrf_run<6, true>(s, &q, r, swap, &dbuf);
        break;
    case 18:
        st = mrf_run<18, true>(s, &q, r, swap, &dbuf);
        break;
    case 26:
        st = mrf_run<26, true>(s, &q, r, swap, &dbuf);
        break;
    default:
        st = GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: connectivity %d", p->connectivity);
    }
    if (st == GCUT_OK)
        memcpy(p->labels, labels, (size_t)p->num_nodes * sizeof(int32_t));
    gcut_cu_host->free_fn(labels);
    if (dbuf)
        (void)cudaFree(dbuf);
    gcut_cu_grid_state_free(s);
    return st;
}

extern "C" gcut_status gcut_cu_grid_mrf_expand(const gcut_mrf_problem *p, gcut_mrf_report *r)
{
    return mrf_entry(p, r, 0);
}

extern "C" gcut_status gcut_cu_grid_mrf_swap(const gcut_mrf_problem *p, gcut_mrf_report *r)
{
    return mrf_entry(p, r, 1);
}
