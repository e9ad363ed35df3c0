/*
 * solve.c - gcut_solve: pick a back end, build its layout, run it, fill
 * the result. The result is only touched once the solve has succeeded.
 */
#include <string.h>

#include "solve/solve_internal.h"
#include "graph/graph_internal.h"

struct gcut_result {
    int64_t flow;
    uint8_t *cut;
    int32_t n;
    int32_t *flows;
    int64_t m;
    gcut_stats stats;
    const char *backend;
    char reason[384];
    /* The cut buffer of the solve before last, kept for the next grid
     * solve of the same size (gcut_i_result_cut_buffer): repeated solves
     * (interactive strokes) then write into memory that is already mapped
     * instead of faulting in fresh pages every time. */
    uint8_t *spare;
    int32_t spare_n;
};

void gcut_solve_options_init(gcut_solve_options *opt)
{
    if (!opt)
        return;
    memset(opt, 0, sizeof *opt);
    opt->struct_size = sizeof *opt;
    opt->backend = "auto";
}

gcut_status gcut_result_new(gcut_result **out)
{
    if (!out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "out is NULL");
    gcut_result *r = gcut_i_calloc(1, sizeof *r);
    if (!r)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate a result");
    r->backend = "";
    *out = r;
    return GCUT_OK;
}

void gcut_result_free(gcut_result *r)
{
    if (!r)
        return;
    gcut_i_free(r->cut);
    gcut_i_free(r->flows);
    gcut_i_free(r->spare);
    gcut_i_free(r);
}

int64_t gcut_result_flow(const gcut_result *r) { return r ? r->flow : 0; }
const uint8_t *gcut_result_cut(const gcut_result *r) { return r ? r->cut : NULL; }
int32_t gcut_result_num_nodes(const gcut_result *r) { return r ? r->n : 0; }
const int32_t *gcut_result_edge_flows(const gcut_result *r) { return r ? r->flows : NULL; }
const gcut_stats *gcut_result_stats(const gcut_result *r) { return r ? &r->stats : NULL; }
const char *gcut_result_backend(const gcut_result *r) { return r ? r->backend : ""; }
const char *gcut_result_reason(const gcut_result *r) { return r ? r->reason : ""; }

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
    gcut_status st = GCUT_OK;
    if (be->caps & GCUT_BACKEND_NEEDS_BCSR)
        st = gcut_i_graph_bcsr(g, &p.bcsr);
    if (st == GCUT_OK && (be->caps & GCUT_BACKEND_NEEDS_RCSR))
        st = gcut_i_graph_rcsr(g, &p.rcsr);
    if (st != GCUT_OK)
        return st;
    stats.build_ms = gcut_i_now_ms() - tb;

    uint8_t *cut = gcut_i_malloc_array(g->n, 1);
    int32_t *flows = opt->want_flows ? gcut_i_malloc_array(g->m, sizeof(int32_t)) : NULL;
    if (!cut || (opt->want_flows && !flows)) {
        gcut_i_free(cut);
        gcut_i_free(flows);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the cut and flows of %d nodes",
                         (int)g->n);
    }
    gcut_solution sol = {0, cut, flows, &stats};
    void *state = NULL;
    if (be->create)
        st = be->create(&state);
    if (st == GCUT_OK)
        st = be->solve_graph(state, &p, opt, &sol);
    if (be->destroy)
        be->destroy(state);
    if (st != GCUT_OK) {
        gcut_i_free(cut);
        gcut_i_free(flows);
        return st;
    }
    gcut_i_free(res->cut);
    gcut_i_free(res->flows);
    res->flow = sol.flow;
    res->cut = cut;
    res->n = g->n;
    res->flows = flows;
    res->m = opt->want_flows ? g->m : 0;
    stats.total_ms = gcut_i_now_ms() - t0;
    res->stats = stats;
    res->backend = be->name;
    snprintf(res->reason, sizeof res->reason, "%s", reason ? reason : "");
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

uint8_t *gcut_i_result_cut_buffer(gcut_result *res, int32_t n)
{
    if (res->spare && res->spare_n == n) {
        uint8_t *b = res->spare;
        res->spare = NULL;
        return b;
    }
    return gcut_i_malloc_array(n, 1);
}

void gcut_i_result_store(gcut_result *res, int64_t flow, uint8_t *cut, int32_t n,
                         const gcut_stats *stats, const char *backend, const char *reason)
{
    if (res->cut && !res->spare) {
        res->spare = res->cut;
        res->spare_n = res->n;
    } else {
        gcut_i_free(res->cut);
    }
    gcut_i_free(res->flows);
    res->flow = flow;
    res->cut = cut;
    res->n = n;
    res->flows = NULL;
    res->m = 0;
    res->stats = *stats;
    res->backend = backend;
    snprintf(res->reason, sizeof res->reason, "%s", reason ? reason : "");
}

gcut_status gcut_solve(gcut_graph *g, const gcut_solve_options *opt_in, gcut_result *res)
{
    const double t0 = gcut_i_now_ms();
    if (!g || !res)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph and result must not be NULL");
    gcut_solve_options opt;
    gcut_status st = gcut_i_options_copy(opt_in, &opt);
    if (st != GCUT_OK)
        return st;
    const int is_auto = !opt.backend || !*opt.backend || strcmp(opt.backend, "auto") == 0;
    int32_t idx;
    const char *reason;
    st = gcut_backend_choose(g, opt.backend, &idx, &reason);
    if (st != GCUT_OK)
        return st;
    if (is_auto && opt.want_flows && !(gcut_backend_caps(idx) & GCUT_BACKEND_FLOWS)) {
        /* auto must honour want_flows: take the first CPU engine that can. */
        st = gcut_backend_choose(g, "cpu-hipr", &idx, NULL);
        if (st != GCUT_OK)
            return st;
        reason = "auto: cpu-hipr (flows were asked for)";
    }
    char why[384];
    snprintf(why, sizeof why, "%s", reason);
    gcut_i_log(&opt, GCUT_LOG_INFO, "gcut_solve: %s", why);
    st = gcut_i_run_backend(g, idx, &opt, res, why, t0);
    if (st != GCUT_OK && is_auto && (gcut_backend_caps(idx) & GCUT_BACKEND_GPU) &&
        (st == GCUT_ERR_DEVICE_NOMEM || st == GCUT_ERR_DEVICE)) {
        /* A GPU picked by auto failed (too little device memory, a driver
         * error): say so and solve on the CPU instead. */
        gcut_i_log(&opt, GCUT_LOG_WARN, "gcut_solve: %s failed (%s); falling back to the CPU",
                   gcut_backend_name(idx), gcut_last_error());
        int32_t cpu;
        if (gcut_backend_choose(g, "cpu-hipr", &cpu, NULL) == GCUT_OK) {
            snprintf(why, sizeof why, "auto: cpu-hipr (the GPU back end failed: %s)",
                     gcut_status_string(st));
            st = gcut_i_run_backend(g, cpu, &opt, res, why, t0);
        }
    }
    return st;
}

gcut_status gcut_graph_maxflow(gcut_graph *g, const char *backend, int64_t *flow)
{
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
        gcut_i_free(g->last_cut);
        g->last_cut = r->cut; /* keep the cut for gcut_graph_segment */
        g->last_cut_n = r->n;
        r->cut = NULL;
        if (flow)
            *flow = r->flow;
    }
    gcut_result_free(r);
    return st;
}
