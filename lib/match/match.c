/*
 * match.c - gcut_match: options, result, and the table of matchers.
 *
 * Matchers have a table of their own rather than entries in the max-flow
 * registry (lib/solve/registry.c): they solve a different problem on a
 * different object, and their interface is one function. The GPU matcher
 * joins this table through the plugin: libgcut_cuda.so lists it in its
 * descriptor (gcut/plugin.h), and its matchers are listed after
 * the CPU ones. "auto" takes the first entry, so the order below is the
 * order of preference, except for large graphs once a GPU is set up in the
 * process, which go to the plugin's matcher (MATCH_GPU_MIN_EDGES).
 */
#include <string.h>

#include "gcut/plugin.h"
#include "gcut/solve.h"
#include "solve/solve_internal.h"
#include "match/match_internal.h"

/* A matcher: a function on the bipartite graph. (Matching solved as
 * max-flow by a max-flow back end, for comparison, is the bench tool
 * gcut-match-maxflow: bench/match_flow.c.) */
typedef struct match_backend {
    const char *name;
    const char *description;
    gcut_i_matcher_fn run;
} match_backend;

static const match_backend g_matchers[] = {
    {"cpu-match-pr", "push-relabel matching, FIFO, global relabelling (Kaya et al. 2013)",
     gcut_i_match_pr},
    {"cpu-match-hk", "Hopcroft-Karp matching, the reference (Hopcroft & Karp 1973)",
     gcut_i_match_hk},
};
#define NUM_MATCHERS ((int32_t)(sizeof g_matchers / sizeof g_matchers[0]))

/* Edges from which "auto" takes a plugin's matcher, the device being set up
 * already (bench/results/h100/match-2026-11-21.md: 1.5M edges, cuda-match-gpr
 * 23 ms against cpu-match-pr's 130). */
#define MATCH_GPU_MIN_EDGES 1000000

/* Matcher i of the plugins (i counted after the CPU ones), or NULL. */
static const gcut_plugin_matcher *plugin_matcher(int32_t i)
{
    const gcut_plugin_matcher *const *list;
    int32_t count;
    gcut_i_plugin_matchers(&list, &count);
    i -= NUM_MATCHERS;
    if (i < 0 || i >= count || !list[i] || list[i]->abi_version != GCUT_PLUGIN_ABI_VERSION)
        return NULL;
    return list[i];
}

int32_t gcut_match_backend_count(void)
{
    const gcut_plugin_matcher *const *list;
    int32_t count;
    gcut_i_plugin_matchers(&list, &count);
    return NUM_MATCHERS + count;
}

const char *gcut_match_backend_name(int32_t i)
{
    if (i >= 0 && i < NUM_MATCHERS)
        return g_matchers[i].name;
    const gcut_plugin_matcher *pm = plugin_matcher(i);
    return pm ? pm->name : NULL;
}

const char *gcut_match_backend_description(int32_t i)
{
    if (i >= 0 && i < NUM_MATCHERS)
        return g_matchers[i].description;
    const gcut_plugin_matcher *pm = plugin_matcher(i);
    return pm ? pm->description : NULL;
}

void gcut_match_options_init(gcut_match_options *opt)
{
    if (!opt)
        return;
    memset(opt, 0, sizeof *opt);
    opt->struct_size = sizeof *opt;
    opt->backend = "auto";
    opt->init = GCUT_MATCH_INIT_GREEDY;
    opt->relabel_freq = 0.5;
}

struct gcut_match_result {
    int32_t nr, nc;
    int64_t card;
    int32_t *rmate, *cmate;
    uint8_t *cover_r, *cover_c; /* NULL unless asked for */
    gcut_match_stats stats;
    const char *backend;
};

gcut_status gcut_match_result_new(gcut_match_result **out)
{
    GCUT_ENTRY();
    if (!out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "out is NULL");
    gcut_match_result *r = gcut_i_calloc(1, sizeof *r);
    if (!r)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
    r->backend = "";
    *out = r;
    return GCUT_OK;
}

void gcut_match_result_free(gcut_match_result *r)
{
    if (!r)
        return;
    gcut_i_free(r->rmate);
    gcut_i_free(r->cmate);
    gcut_i_free(r->cover_r);
    gcut_i_free(r->cover_c);
    gcut_i_free(r);
}

int64_t gcut_match_result_cardinality(const gcut_match_result *r) { return r ? r->card : 0; }
const int32_t *gcut_match_result_row_mates(const gcut_match_result *r) { return r ? r->rmate : NULL; }
const int32_t *gcut_match_result_col_mates(const gcut_match_result *r) { return r ? r->cmate : NULL; }
const uint8_t *gcut_match_result_cover_rows(const gcut_match_result *r) { return r ? r->cover_r : NULL; }
const uint8_t *gcut_match_result_cover_cols(const gcut_match_result *r) { return r ? r->cover_c : NULL; }
const gcut_match_stats *gcut_match_result_stats(const gcut_match_result *r) { return r ? &r->stats : NULL; }
const char *gcut_match_result_backend(const gcut_match_result *r) { return r ? r->backend : ""; }

/* The initial matching given by the caller: checked, then copied. */
static gcut_status load_initial(const gcut_bipartite *b, const int32_t *init, int32_t *rmate,
                                int32_t *cmate)
{
    for (int32_t r = 0; r < b->nr; r++) {
        const int32_t c = init[r];
        if (c == -1)
            continue;
        if (c < 0 || c >= b->nc)
            return GCUT_FAIL(GCUT_ERR_INVALID, "initial matching: row %d has column %d, out of "
                                               "range [-1, %d)", (int)r, (int)c, (int)b->nc);
        if (cmate[c] >= 0)
            return GCUT_FAIL(GCUT_ERR_INVALID, "initial matching: column %d is taken by rows %d "
                                               "and %d", (int)c, (int)cmate[c], (int)r);
        int64_t k = b->rptr[r];
        while (k < b->rptr[r + 1] && b->radj[k] != c)
            k++;
        if (k == b->rptr[r + 1])
            return GCUT_FAIL(GCUT_ERR_INVALID, "initial matching: (%d, %d) is not an edge",
                             (int)r, (int)c);
        rmate[r] = c;
        cmate[c] = r;
    }
    return GCUT_OK;
}

/* gcut_match within its call context (started by gcut_match). */
static gcut_status match_in_call(const gcut_bipartite *b, const gcut_match_options *opt,
                                 gcut_match_result *res, const gcut_solve_options *lopt_in,
                                 double t0)
{

    const match_backend *mb = NULL;
    const gcut_plugin_matcher *pm = NULL;
    const char *name = opt->backend;
    if (!name || !*name || strcmp(name, "auto") == 0) {
        /* A plugin's (GPU) matcher once the device is set up in this
         * process and the graph is large; else the first CPU matcher
         * (docs/matching.md: a cold device costs more than the GPU saves
         * at every size measured, up to 2M edges). */
        mb = &g_matchers[0];
        if (gcut_i_device_used() && b->m >= MATCH_GPU_MIN_EDGES) {
            for (int32_t i = NUM_MATCHERS; !pm && i < gcut_match_backend_count(); i++) {
                const gcut_plugin_matcher *cand = plugin_matcher(i);
                const char *why = NULL;
                if (cand && cand->probe && cand->run && cand->probe(&why) == GCUT_OK)
                    pm = cand;
            }
            if (pm)
                mb = NULL;
        }
    } else {
        for (int32_t i = 0; i < NUM_MATCHERS; i++)
            if (strcmp(g_matchers[i].name, name) == 0)
                mb = &g_matchers[i];
        for (int32_t i = NUM_MATCHERS; !mb && !pm && i < gcut_match_backend_count(); i++) {
            const gcut_plugin_matcher *cand = plugin_matcher(i);
            if (cand && cand->name && strcmp(cand->name, name) == 0)
                pm = cand;
        }
        if (!mb && !pm)
            return GCUT_FAIL(GCUT_ERR_NOT_FOUND, "no matcher named '%s' (cpu-match-pr, "
                                                 "cpu-match-hk, auto, or a plugin's)", name);
        const char *why = "unavailable";
        if (pm && (!pm->probe || !pm->run || pm->probe(&why) != GCUT_OK))
            return GCUT_FAIL(GCUT_ERR_UNAVAILABLE, "matcher %s is unavailable: %s", pm->name,
                             why ? why : "no reason given");
    }

    const gcut_solve_options lopt = *lopt_in;

    const int32_t nr = b->nr, nc = b->nc;
    int32_t *rmate = gcut_i_malloc_array((int64_t)nr + 1, sizeof *rmate);
    int32_t *cmate = gcut_i_malloc_array((int64_t)nc + 1, sizeof *cmate);
    uint8_t *cr = NULL, *cc = NULL;
    gcut_status st = GCUT_OK;
    if (!rmate || !cmate)
        goto nomem;
    for (int32_t r = 0; r < nr; r++)
        rmate[r] = -1;
    for (int32_t c = 0; c < nc; c++)
        cmate[c] = -1;
    if (opt->initial_row_mates &&
        (st = load_initial(b, opt->initial_row_mates, rmate, cmate)) != GCUT_OK)
        goto fail;

    gcut_match_stats stats;
    memset(&stats, 0, sizeof stats);
    double t = gcut_i_now_ms();
    int64_t card = 0;
    if (opt->init == GCUT_MATCH_INIT_GREEDY)
        card = gcut_i_match_greedy(b, rmate, cmate);
    else if (opt->init == GCUT_MATCH_INIT_KS)
        card = gcut_i_match_karp_sipser(b, rmate, cmate);
    else
        for (int32_t r = 0; r < nr; r++)
            card += rmate[r] >= 0;
    if (card < 0)
        goto nomem;
    stats.init_cardinality = card;
    stats.init_ms = gcut_i_now_ms() - t;

    gcut_i_match_ctx ctx = {.b = b, .rmate = rmate, .cmate = cmate,
                            .deadline = gcut_i_call_current()->deadline,
                            .relabel_freq = opt->relabel_freq, .log = &lopt, .stats = &stats};
    t = gcut_i_now_ms();
    if (pm) {
        gcut_match_problem mp = {.rows = nr, .cols = nc, .edges = b->m, .row_ptr = b->rptr,
                                 .row_adj = b->radj, .col_ptr = b->cptr, .col_adj = b->cadj,
                                 .row_mates = rmate, .col_mates = cmate,
                                 .deadline_ms = ctx.deadline, .log = &lopt, .stats = &stats};
        st = pm->run(&mp);
    } else {
        st = mb->run(&ctx);
    }
    if (st != GCUT_OK)
        goto fail;
    if (pm)
        gcut_i_note_device_used();
    stats.solve_ms = gcut_i_now_ms() - t;
    card = 0;
    for (int32_t r = 0; r < nr; r++)
        card += rmate[r] >= 0;

    if (opt->want_cover) {
        t = gcut_i_now_ms();
        cr = gcut_i_malloc((size_t)nr + 1);
        cc = gcut_i_malloc((size_t)nc + 1);
        int32_t fc, fr;
        if (!cr || !cc || gcut_i_match_cover(b, rmate, cmate, cr, cc, &fc, &fr) < 0)
            goto nomem;
        if (fc >= 0) {
            st = GCUT_FAIL(GCUT_ERR_INTERNAL, "%s left an augmenting path (row %d to column %d)",
                           (pm ? pm->name : mb->name), (int)fr, (int)fc);
            goto fail;
        }
        stats.cover_ms = gcut_i_now_ms() - t;
    }
    stats.total_ms = gcut_i_now_ms() - t0;
    gcut_i_log(&lopt, GCUT_LOG_INFO, "%s: %d x %d, %lld edges: cardinality %lld (init %lld) in %.3f ms",
               (pm ? pm->name : mb->name), (int)nr, (int)nc, (long long)b->m, (long long)card,
               (long long)stats.init_cardinality, stats.total_ms);

    /* Success: only now does the result change. */
    gcut_i_free(res->rmate);
    gcut_i_free(res->cmate);
    gcut_i_free(res->cover_r);
    gcut_i_free(res->cover_c);
    res->nr = nr;
    res->nc = nc;
    res->card = card;
    res->rmate = rmate;
    res->cmate = cmate;
    res->cover_r = cr;
    res->cover_c = cc;
    res->stats = stats;
    res->backend = (pm ? pm->name : mb->name);
    return GCUT_OK;
nomem:
    st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory matching %d x %d", (int)nr, (int)nc);
fail:
    gcut_i_free(rmate);
    gcut_i_free(cmate);
    gcut_i_free(cr);
    gcut_i_free(cc);
    return st;
}

gcut_status gcut_match(const gcut_bipartite *b, const gcut_match_options *opt,
                       gcut_match_result *res)
{
    GCUT_ENTRY();
    const double t0 = gcut_i_now_ms();
    if (!b || !res)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph or result is NULL");
    gcut_match_options defaults;
    if (!opt) {
        gcut_match_options_init(&defaults);
        opt = &defaults;
    }
    if (opt->init < GCUT_MATCH_INIT_NONE || opt->init > GCUT_MATCH_INIT_KS)
        return GCUT_FAIL(GCUT_ERR_INVALID, "unknown init %d", (int)opt->init);
    /* The log services and the call context take solve options: copy what
     * they read. */
    gcut_solve_options lopt;
    gcut_solve_options_init(&lopt);
    lopt.verbosity = opt->verbosity;
    lopt.log = opt->log;
    lopt.log_user = opt->log_user;
    lopt.time_limit = opt->time_limit;
    gcut_i_call call;
    gcut_i_call_begin(&call, "match", &lopt, t0);
    gcut_status st = match_in_call(b, opt, res, &lopt, t0);
    gcut_i_call_end(&call);
    return st;
}
