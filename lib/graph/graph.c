/*
 * graph.c - the graph builder (docs/design.md section 2).
 *
 * Edges are kept as a structure of arrays (u, v, cap, rev_cap) that grows
 * by a factor 1.5; terminal capacities as two dense arrays. Layouts for the
 * engines are built from these on demand (csr.c) and cached until the
 * graph changes. All input is validated before anything is modified, so a
 * failed call leaves the graph as it was.
 */
#include <string.h>

#include "graph/graph_internal.h"
#include "solvers/solvers_internal.h"

/* The memory budget (gcut_set_max_memory; gcut_i_budget) holds for the
 * graph's arrays together: growing the edge arrays (nodes == 0) or the
 * node arrays (nodes == 1) to *cap entries must keep their sum within it.
 * A growth step past the budget is cut down to what fits (never below
 * need); when need itself does not fit, GCUT_ERR_NOMEM says so. */
static gcut_status fit_budget(const gcut_graph *g, int64_t *cap, int64_t need, int nodes,
                              const char *where)
{
    const size_t budget = gcut_i_budget();
    if (!budget)
        return GCUT_OK;
    const double other = nodes ? 16.0 * (double)g->m_alloc : 8.0 * (double)g->n_alloc;
    const double per = nodes ? 8.0 : 16.0; /* two int32 per node, four per edge */
    if (other + per * (double)*cap <= (double)budget)
        return GCUT_OK;
    if (other + per * (double)need <= (double)budget) {
        *cap = (int64_t)(((double)budget - other) / per);
        if (*cap < need)
            *cap = need;
        return GCUT_OK;
    }
    return gcut_i_budget_charge(
        NULL, other + per * (double)need, where, "a graph of %lld nodes and %lld edges",
        (long long)(nodes ? need : g->n_alloc), (long long)(nodes ? g->m_alloc : need));
}

/* where: the public function that grows the graph (gcut_graph_add_edge has no
 * GCUT_ENTRY: it is called per edge). */
static gcut_status reserve_edges(gcut_graph *g, int64_t need, const char *where)
{
    if (need <= g->m_alloc)
        return GCUT_OK;
    int64_t cap = g->m_alloc < 16 ? 16 : g->m_alloc + g->m_alloc / 2;
    if (cap < need)
        cap = need;
    gcut_status st = fit_budget(g, &cap, need, 0, where);
    if (st != GCUT_OK)
        return st;
    int32_t *arr[4] = {g->eu, g->ev, g->ecap, g->erev};
    for (int k = 0; k < 4; k++) {
        if ((uint64_t)cap > SIZE_MAX / sizeof(int32_t))
            return gcut_i_fail(GCUT_ERR_OVERFLOW, where, "%lld edges do not fit in memory",
                               (long long)cap);
        int32_t *p = gcut_i_realloc(arr[k], (size_t)cap * sizeof(int32_t));
        if (!p) {
            /* Arrays already grown stay grown (and stored in g); m_alloc
             * keeps the old size, so the graph is unchanged. */
            return gcut_i_fail(GCUT_ERR_NOMEM, where, "cannot grow the edge arrays to %lld edges",
                               (long long)cap);
        }
        arr[k] = p;
        switch (k) {
        case 0: g->eu = p; break;
        case 1: g->ev = p; break;
        case 2: g->ecap = p; break;
        default: g->erev = p; break;
        }
    }
    g->m_alloc = cap;
    return GCUT_OK;
}

static gcut_status reserve_nodes(gcut_graph *g, int64_t need, const char *where)
{
    if (need <= g->n_alloc)
        return GCUT_OK;
    int64_t cap = g->n_alloc < 16 ? 16 : (int64_t)g->n_alloc + g->n_alloc / 2;
    if (cap < need)
        cap = need;
    if (cap > GCUT_MAX_NODES)
        cap = GCUT_MAX_NODES;
    gcut_status st = fit_budget(g, &cap, need, 1, where);
    if (st != GCUT_OK)
        return st;
    int32_t *s = gcut_i_realloc(g->cap_source, (size_t)cap * sizeof(int32_t));
    if (!s)
        return gcut_i_fail(GCUT_ERR_NOMEM, where, "cannot grow the node arrays to %lld nodes",
                           (long long)cap);
    g->cap_source = s;
    int32_t *t = gcut_i_realloc(g->cap_sink, (size_t)cap * sizeof(int32_t));
    if (!t)
        return gcut_i_fail(GCUT_ERR_NOMEM, where, "cannot grow the node arrays to %lld nodes",
                           (long long)cap);
    g->cap_sink = t;
    g->n_alloc = (int32_t)cap;
    return GCUT_OK;
}

gcut_status gcut_graph_new(gcut_graph **out, int32_t num_nodes, int64_t edges_hint)
{
    GCUT_ENTRY();
    if (!out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "out is NULL");
    if (num_nodes < 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "negative node count %d", (int)num_nodes);
    if (edges_hint < 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "negative edge hint %lld", (long long)edges_hint);
    gcut_graph *g = gcut_i_calloc(1, sizeof *g);
    if (!g)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate a graph");
    if (pthread_mutex_init(&g->layout_lock, NULL) != 0) {
        gcut_i_free(g);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot create the lock of a graph");
    }
    for (int i = 0; i < GCUT_I_KEPT_SLOTS; i++) {
        if (pthread_mutex_init(&g->kept_lock[i], NULL) != 0) {
            while (i-- > 0)
                pthread_mutex_destroy(&g->kept_lock[i]);
            pthread_mutex_destroy(&g->layout_lock);
            gcut_i_free(g);
            return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot create the lock of a graph");
        }
    }
    gcut_status st = reserve_nodes(g, num_nodes, __func__);
    if (st == GCUT_OK && edges_hint > 0)
        st = reserve_edges(g, edges_hint, __func__);
    if (st != GCUT_OK) {
        gcut_graph_free(g);
        return st;
    }
    if (num_nodes > 0) {
        memset(g->cap_source, 0, (size_t)num_nodes * sizeof(int32_t));
        memset(g->cap_sink, 0, (size_t)num_nodes * sizeof(int32_t));
    }
    g->n = num_nodes;
    *out = g;
    return GCUT_OK;
}

void gcut_i_graph_invalidate(gcut_graph *g)
{
    gcut_i_bcsr_free(g->bcsr);
    g->bcsr = NULL;
    gcut_i_rcsr_free(g->rcsr);
    g->rcsr = NULL;
    for (int i = 0; i < GCUT_I_KEPT_SLOTS; i++) {
        gcut_i_kept_engines[i].release(g->kept[i]);
        g->kept[i] = NULL;
    }
    gcut_i_free(g->last_cut);
    g->last_cut = NULL;
    g->last_cut_n = 0;
}

/* Terminal capacities changed: the layouts do not hold them, and the kept
 * engine state re-solves warm from them; only the last cut goes. */
static void tweights_changed(gcut_graph *g)
{
    gcut_i_free(g->last_cut);
    g->last_cut = NULL;
    g->last_cut_n = 0;
}

void gcut_graph_free(gcut_graph *g)
{
    if (!g)
        return;
    gcut_i_graph_invalidate(g);
    gcut_i_free(g->eu);
    gcut_i_free(g->ev);
    gcut_i_free(g->ecap);
    gcut_i_free(g->erev);
    gcut_i_free(g->cap_source);
    gcut_i_free(g->cap_sink);
    pthread_mutex_destroy(&g->layout_lock);
    for (int i = 0; i < GCUT_I_KEPT_SLOTS; i++)
        pthread_mutex_destroy(&g->kept_lock[i]);
    gcut_i_free(g);
}

gcut_status gcut_graph_add_nodes(gcut_graph *g, int32_t count, int32_t *first_id)
{
    GCUT_ENTRY();
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph is NULL");
    if (count < 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "negative node count %d", (int)count);
    if ((int64_t)g->n + count > GCUT_MAX_NODES)
        return GCUT_FAIL(GCUT_ERR_OVERFLOW, "more than %d nodes", (int)GCUT_MAX_NODES);
    gcut_status st = reserve_nodes(g, (int64_t)g->n + count, __func__);
    if (st != GCUT_OK)
        return st;
    memset(g->cap_source + g->n, 0, (size_t)count * sizeof(int32_t));
    memset(g->cap_sink + g->n, 0, (size_t)count * sizeof(int32_t));
    if (first_id)
        *first_id = g->n;
    g->n += count;
    gcut_i_graph_invalidate(g);
    return GCUT_OK;
}

/* Does an engine keep records of g (only with a layout, but checked all
 * the same)? */
static int has_kept(const gcut_graph *g)
{
    for (int i = 0; i < GCUT_I_KEPT_SLOTS; i++)
        if (g->kept[i])
            return 1;
    return 0;
}

gcut_status gcut_graph_add_edge(gcut_graph *g, int32_t u, int32_t v, int32_t cap, int32_t rev_cap)
{
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph is NULL");
    if (u < 0 || u >= g->n || v < 0 || v >= g->n)
        return GCUT_FAIL(GCUT_ERR_INVALID, "edge %d -> %d: node id out of range [0, %d)", (int)u,
                         (int)v, (int)g->n);
    if (cap < 0 || rev_cap < 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "edge %d -> %d: negative capacity (%d, %d)", (int)u,
                         (int)v, (int)cap, (int)rev_cap);
    if (g->m == g->m_alloc) {
        gcut_status st = reserve_edges(g, g->m + 1, __func__);
        if (st != GCUT_OK)
            return st;
    }
    g->eu[g->m] = u;
    g->ev[g->m] = v;
    g->ecap[g->m] = cap;
    g->erev[g->m] = rev_cap;
    g->m++;
    if (g->bcsr || g->rcsr || g->last_cut || has_kept(g))
        gcut_i_graph_invalidate(g);
    return GCUT_OK;
}

gcut_status gcut_graph_add_edges(gcut_graph *g, int64_t count, const int32_t *from,
                                 const int32_t *to, const int32_t *cap, const int32_t *rev_cap)
{
    GCUT_ENTRY();
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph is NULL");
    if (count < 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "negative edge count %lld", (long long)count);
    if (count == 0)
        return GCUT_OK;
    if (!from || !to || !cap)
        return GCUT_FAIL(GCUT_ERR_INVALID, "from, to and cap must not be NULL");
    /* Validate everything first: on failure nothing is added. The checks are
     * branch-light so that this pass costs about one read of the input. */
    const uint32_t n = (uint32_t)g->n;
    for (int64_t i = 0; i < count; i++) {
        int bad = ((uint32_t)from[i] >= n) | ((uint32_t)to[i] >= n) | (cap[i] < 0) |
                  (rev_cap && rev_cap[i] < 0);
        if (bad) {
            if ((uint32_t)from[i] >= n || (uint32_t)to[i] >= n)
                return GCUT_FAIL(GCUT_ERR_INVALID,
                                 "edge %lld (%d -> %d): node id out of range [0, %d)",
                                 (long long)i, (int)from[i], (int)to[i], (int)g->n);
            return GCUT_FAIL(GCUT_ERR_INVALID, "edge %lld (%d -> %d): negative capacity",
                             (long long)i, (int)from[i], (int)to[i]);
        }
    }
    if (count > INT64_MAX - g->m)
        return GCUT_FAIL(GCUT_ERR_OVERFLOW, "too many edges");
    gcut_status st = reserve_edges(g, g->m + count, __func__);
    if (st != GCUT_OK)
        return st;
    size_t bytes = (size_t)count * sizeof(int32_t);
    memcpy(g->eu + g->m, from, bytes);
    memcpy(g->ev + g->m, to, bytes);
    memcpy(g->ecap + g->m, cap, bytes);
    if (rev_cap)
        memcpy(g->erev + g->m, rev_cap, bytes);
    else
        memset(g->erev + g->m, 0, bytes);
    g->m += count;
    gcut_i_graph_invalidate(g);
    return GCUT_OK;
}

gcut_status gcut_graph_add_tweights(gcut_graph *g, int32_t v, int32_t source, int32_t sink)
{
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph is NULL");
    if (v < 0 || v >= g->n)
        return GCUT_FAIL(GCUT_ERR_INVALID, "node %d out of range [0, %d)", (int)v, (int)g->n);
    if (source < 0 || sink < 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "node %d: negative terminal capacity (%d, %d)", (int)v,
                         (int)source, (int)sink);
    int64_t s = (int64_t)g->cap_source[v] + source, t = (int64_t)g->cap_sink[v] + sink;
    if (s > INT32_MAX || t > INT32_MAX)
        return GCUT_FAIL(GCUT_ERR_OVERFLOW, "node %d: terminal capacity sum exceeds %d", (int)v,
                         (int)INT32_MAX);
    g->cap_source[v] = (int32_t)s;
    g->cap_sink[v] = (int32_t)t;
    if (g->last_cut)
        tweights_changed(g);
    return GCUT_OK;
}

gcut_status gcut_graph_set_tweights(gcut_graph *g, int32_t v, int32_t source, int32_t sink)
{
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph is NULL");
    if (v < 0 || v >= g->n)
        return GCUT_FAIL(GCUT_ERR_INVALID, "node %d out of range [0, %d)", (int)v, (int)g->n);
    if (source < 0 || sink < 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "node %d: negative terminal capacity (%d, %d)", (int)v,
                         (int)source, (int)sink);
    g->cap_source[v] = source;
    g->cap_sink[v] = sink;
    if (g->last_cut)
        tweights_changed(g);
    return GCUT_OK;
}

gcut_status gcut_graph_set_warm_start(gcut_graph *g, int enable)
{
    GCUT_ENTRY();
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph is NULL");
    /* Off: cpu-eibfs's state stays as its records (kept with the
     * layouts), from which every solve starts cold. */
    g->warm_off = !enable;
    return GCUT_OK;
}

gcut_status gcut_graph_add_tweights_bulk(gcut_graph *g, int32_t first, int32_t count,
                                         const int32_t *source, const int32_t *sink)
{
    GCUT_ENTRY();
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph is NULL");
    if (first < 0 || count < 0 || (int64_t)first + count > g->n)
        return GCUT_FAIL(GCUT_ERR_INVALID, "nodes [%d, %lld) out of range [0, %d)", (int)first,
                         (long long)first + count, (int)g->n);
    for (int32_t i = 0; i < count; i++) {
        int64_t s = (int64_t)g->cap_source[first + i] + (source ? source[i] : 0);
        int64_t t = (int64_t)g->cap_sink[first + i] + (sink ? sink[i] : 0);
        if ((source && source[i] < 0) || (sink && sink[i] < 0))
            return GCUT_FAIL(GCUT_ERR_INVALID, "node %d: negative terminal capacity",
                             (int)(first + i));
        if (s > INT32_MAX || t > INT32_MAX)
            return GCUT_FAIL(GCUT_ERR_OVERFLOW, "node %d: terminal capacity sum exceeds %d",
                             (int)(first + i), (int)INT32_MAX);
    }
    for (int32_t i = 0; i < count; i++) {
        if (source)
            g->cap_source[first + i] += source[i];
        if (sink)
            g->cap_sink[first + i] += sink[i];
    }
    tweights_changed(g);
    return GCUT_OK;
}

int32_t gcut_graph_num_nodes(const gcut_graph *g) { return g ? g->n : 0; }

int64_t gcut_graph_num_edges(const gcut_graph *g) { return g ? g->m : 0; }

gcut_status gcut_graph_get_edge(const gcut_graph *g, int64_t e, int32_t *u, int32_t *v,
                                int32_t *cap, int32_t *rev_cap)
{
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph is NULL");
    if (e < 0 || e >= g->m)
        return GCUT_FAIL(GCUT_ERR_INVALID, "edge %lld out of range [0, %lld)", (long long)e,
                         (long long)g->m);
    if (u) *u = g->eu[e];
    if (v) *v = g->ev[e];
    if (cap) *cap = g->ecap[e];
    if (rev_cap) *rev_cap = g->erev[e];
    return GCUT_OK;
}

gcut_status gcut_graph_get_tweights(const gcut_graph *g, int32_t v, int32_t *source, int32_t *sink)
{
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph is NULL");
    if (v < 0 || v >= g->n)
        return GCUT_FAIL(GCUT_ERR_INVALID, "node %d out of range [0, %d)", (int)v, (int)g->n);
    if (source) *source = g->cap_source[v];
    if (sink) *sink = g->cap_sink[v];
    return GCUT_OK;
}

gcut_status gcut_graph_freeze(gcut_graph *g)
{
    GCUT_ENTRY();
    const gcut_bcsr *b;
    return gcut_i_graph_bcsr(g, 0, &b);
}

gcut_status gcut_i_graph_bcsr(gcut_graph *g, int32_t threads, const gcut_bcsr **out)
{
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph is NULL");
    /* Several threads may solve one unchanged graph at once: the first
     * builds the layout, the others wait for it and share it. */
    pthread_mutex_lock(&g->layout_lock);
    gcut_status st = GCUT_OK;
    if (!g->bcsr)
        st = gcut_i_bcsr_build(g, threads, &g->bcsr);
    if (st == GCUT_OK)
        *out = &g->bcsr->view;
    pthread_mutex_unlock(&g->layout_lock);
    return st;
}

gcut_status gcut_i_graph_rcsr(gcut_graph *g, int32_t threads, const gcut_rcsr **out)
{
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph is NULL");
    /* As gcut_i_graph_bcsr: built once under the graph's lock. */
    pthread_mutex_lock(&g->layout_lock);
    gcut_status st = GCUT_OK;
    if (!g->rcsr)
        st = gcut_i_rcsr_build(g, threads, &g->rcsr);
    if (st == GCUT_OK)
        *out = &g->rcsr->view;
    pthread_mutex_unlock(&g->layout_lock);
    return st;
}

const gcut_rcsr *gcut_i_graph_rcsr_kept(gcut_graph *g)
{
    pthread_mutex_lock(&g->layout_lock);
    const gcut_rcsr *r = g->rcsr ? &g->rcsr->view : NULL;
    pthread_mutex_unlock(&g->layout_lock);
    return r;
}

void gcut_i_graph_problem(const gcut_graph *g, gcut_problem *p)
{
    memset(p, 0, sizeof *p);
    p->num_nodes = g->n;
    p->num_edges = g->m;
    p->edge_u = g->eu;
    p->edge_v = g->ev;
    p->edge_cap = g->ecap;
    p->edge_rev_cap = g->erev;
    p->cap_source = g->cap_source;
    p->cap_sink = g->cap_sink;
}

int gcut_graph_segment(const gcut_graph *g, int32_t v)
{
    if (!g || !g->last_cut || v < 0 || v >= g->last_cut_n)
        return GCUT_SOURCE;
    return g->last_cut[v];
}
