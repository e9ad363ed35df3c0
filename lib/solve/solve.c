/*
 * solve.c - gcut_solve: ask the chooser for a back end, build the layout it
 * needs, run it, store the result (result.c) once it has succeeded.
 */
#include <stdio.h>
#include <string.h>

#include "solve/solve_internal.h"
#include "graph/graph_internal.h"
#include "solvers/solvers_internal.h"

void gcut_solve_options_init(gcut_solve_options *opt)
{
    if (!opt)
        return;
    memset(opt, 0, sizeof *opt);
    opt->struct_size = sizeof *opt;
    opt->backend = "auto";
}

/* Run back end `idx` on g. Buffers are fresh; on success they move into res. */
gcut_status gcut_i_run_backend(gcut_graph *g, int32_t idx, const gcut_solve_options *opt,
                               gcut_result *res, const char *reason, double t0)
{
    const gcut_backend *be = gcut_i_backend_table(idx);
    if (!be || !be->solve_graph)
        return GCUT_FAIL(GCUT_ERR_UNSUPPORTED, "back end '%s' cannot solve graphs",
                         be ? be->name : "?");
    if (opt->want_flows && !(be->caps & GCUT_BACKEND_FLOWS))
        return GCUT_FAIL(GCUT_ERR_UNSUPPORTED, "back end '%s' does not return per-edge flows",
                         be->name);
    gcut_stats stats;
    memset(&stats, 0, sizeof stats);
    gcut_problem p;
    gcut_i_graph_problem(g, &p);
    double tb = gcut_i_now_ms();
    gcut_status st = gcut_i_poll("layout", -1, NULL);
    if (st == GCUT_OK && (be->caps & GCUT_BACKEND_NEEDS_BCSR))
        st = gcut_i_graph_bcsr(g, opt->threads, &p.bcsr);
    if (st == GCUT_OK && (be->caps & GCUT_BACKEND_NEEDS_RCSR)) {
        /* A back end that lays out the edge list on its device gets the
         * RCSR only when the graph already holds one (backend.h). */
        if ((be->caps & GCUT_BACKEND_LAYS_OUT) && g->m <= GCUT_LAYS_OUT_MAX_EDGES)
            p.rcsr = gcut_i_graph_rcsr_kept(g);
        else
            st = gcut_i_graph_rcsr(g, opt->threads, &p.rcsr);
    }
    /* The records of an engine that keeps them with the graph's layouts
     * (cpu-bk, cpu-eibfs: solvers_internal.h) are built here by its first
     * solve, and timed as the layout. A concurrent solve of the same
     * graph that finds them taken solves on records of its own. */
    const int slot = gcut_i_kept_slot(be);
    const gcut_i_kept_engine *ke = NULL;
    if (st == GCUT_OK && slot >= 0 && pthread_mutex_trylock(&g->kept_lock[slot]) == 0) {
        ke = &gcut_i_kept_engines[slot];
        st = ke->layout(&g->kept[slot], &p, opt);
    }
    if (st != GCUT_OK) {
        if (ke)
            pthread_mutex_unlock(&g->kept_lock[slot]);
        return st;
    }
    stats.build_ms = gcut_i_now_ms() - tb;

    uint8_t *cut = gcut_i_malloc_array(g->n, 1);
    int32_t *flows = opt->want_flows ? gcut_i_malloc_array(g->m, sizeof(int32_t)) : NULL;
    if (!cut || (opt->want_flows && !flows)) {
        if (ke)
            pthread_mutex_unlock(&g->kept_lock[slot]);
        gcut_i_free(cut);
        gcut_i_free(flows);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the cut and flows of %d nodes",
                         (int)g->n);
    }
    gcut_solution sol = {0, cut, flows, &stats};
    void *state = NULL;
    if (ke) {
        st = gcut_i_poll("solve", -1, NULL);
        if (st == GCUT_OK)
            st = ke->solve(&g->kept[slot], &p, opt, !g->warm_off, &sol);
        pthread_mutex_unlock(&g->kept_lock[slot]);
    } else {
        if (be->create)
            st = be->create(&state);
        if (st == GCUT_OK)
            st = gcut_i_poll("solve", -1, NULL);
        if (st == GCUT_OK)
            st = be->solve_graph(state, &p, opt, &sol);
        if (be->destroy)
            be->destroy(state);
    }
    if (st != GCUT_OK) {
        gcut_i_free(cut);
        gcut_i_free(flows);
        return st;
    }
    if (be->caps & GCUT_BACKEND_GPU)
        gcut_i_note_device_used();
    stats.total_ms = gcut_i_now_ms() - t0;
    gcut_i_result_store(res, sol.flow, cut, g->n, flows, g->m, &stats, be->name, reason);
    return GCUT_OK;
}

gcut_status gcut_i_options_copy(const gcut_solve_options *in, gcut_solve_options *out)
{
    gcut_solve_options_init(out);
    if (in) {
        if (in->struct_size < sizeof(size_t) || in->struct_size > sizeof *out)
            return GCUT_FAIL(GCUT_ERR_INVALID,
                             "options not initialised (call gcut_solve_options_init)");
        memcpy(out, in, in->struct_size);
    }
    if (out->threads < 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "negative thread count %d", (int)out->threads);
    return GCUT_OK;
}

/* gcut_solve within its call context (started by gcut_solve). */
static gcut_status solve_in_call(gcut_graph *g, const gcut_solve_options *opt_p, gcut_result *res,
                                 double t0)
{
    const gcut_solve_options opt = *opt_p;
    gcut_status st;
    /* The automatic choice honours want_flows (a named back end that
     * cannot return flows fails in gcut_i_run_backend). */
    int32_t idx;
    const char *reason;
    st = gcut_i_choose_graph(g, opt.backend, opt.want_flows ? GCUT_BACKEND_FLOWS : 0, 0, &idx,
                             &reason);
    if (st != GCUT_OK)
        return st;
    char why[384];
    snprintf(why, sizeof why, "%s", reason);
    gcut_i_log(&opt, GCUT_LOG_INFO, "gcut_solve: %s", why);
    st = gcut_i_run_backend(g, idx, &opt, res, why, t0);
    if (gcut_i_gpu_fallback(&opt, idx, st, "gcut_solve")) {
        int32_t cpu;
        const gcut_status failed = st;
        if (gcut_i_choose_graph(g, "auto", opt.want_flows ? GCUT_BACKEND_FLOWS : 0,
                                GCUT_BACKEND_GPU, &cpu, NULL) == GCUT_OK) {
            snprintf(why, sizeof why, "auto: %s (the GPU back end failed: %s)",
                     gcut_backend_name(cpu), gcut_status_string(failed));
            st = gcut_i_run_backend(g, cpu, &opt, res, why, t0);
        }
    }
    return st;
}

gcut_status gcut_solve(gcut_graph *g, const gcut_solve_options *opt_in, gcut_result *res)
{
    GCUT_ENTRY();
    const double t0 = gcut_i_now_ms();
    if (!g || !res)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph and result must not be NULL");
    gcut_solve_options opt;
    gcut_status st = gcut_i_options_copy(opt_in, &opt);
    if (st != GCUT_OK)
        return st;
    gcut_i_call call;
    gcut_i_call_begin(&call, "maxflow", &opt, t0);
    st = solve_in_call(g, &opt, res, t0);
    gcut_i_call_end(&call);
    return st;
}

gcut_status gcut_graph_maxflow(gcut_graph *g, const char *backend, int64_t *flow)
{
    GCUT_ENTRY();
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph is NULL");
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = backend;
    gcut_result *r = NULL;
    gcut_status st = gcut_result_new(&r);
    if (st != GCUT_OK)
        return st;
    st = gcut_solve(g, &opt, r);
    if (st == GCUT_OK) {
        if (flow)
            *flow = gcut_result_flow(r);
        gcut_i_free(g->last_cut);
        g->last_cut = gcut_i_result_take_cut(r, &g->last_cut_n); /* for gcut_graph_segment */
    }
    gcut_result_free(r);
    return st;
}
