/*
 * ref.c - cpu-ref: the reference solver every other engine is checked
 * against. Dinic's algorithm (E. A. Dinic, "Algorithm for solution of a
 * problem of maximum flow in networks with power estimation", Soviet Math.
 * Doklady 11, 1970): BFS levels from the source, then blocking flows by
 * depth-first search with current-arc pointers, until the sink is
 * unreachable. O(n^2 m).
 *
 * It is written to be obviously correct rather than fast, and on purpose
 * shares nothing with the other engines: it builds its own adjacency from
 * the raw edge arrays (with explicit source and sink nodes and int64
 * residuals), so that a bug in the shared layouts or helpers cannot hide
 * in a cross-check.
 *
 * Invariants: res[a] + res[a ^ 1] is the pair's total capacity; flow only
 * moves along arcs with level[head] == level[tail] + 1.
 */
#include <string.h>

#include "solvers/solvers_internal.h"

typedef struct ref_net {
    int32_t nn;        /* nodes, including s = nn - 2 and t = nn - 1 */
    int64_t na;        /* arcs; arc a and a ^ 1 are each other's reverse */
    int64_t *first;    /* nn + 1 */
    int64_t *adj;      /* arc ids grouped by tail */
    int32_t *to;       /* head of each arc */
    int64_t *res;      /* residual capacity */
    int64_t *edge_arc; /* per user edge: its u->v arc, or -1 */
} ref_net;

static void net_free(ref_net *r)
{
    gcut_i_free(r->first);
    gcut_i_free(r->adj);
    gcut_i_free(r->to);
    gcut_i_free(r->res);
    gcut_i_free(r->edge_arc);
}

static gcut_status net_build(const gcut_problem *p, ref_net *r)
{
    const int32_t n = p->num_nodes;
    memset(r, 0, sizeof *r);
    if (n > INT32_MAX - 2)
        return GCUT_FAIL(GCUT_ERR_OVERFLOW, "too many nodes for cpu-ref");
    r->nn = n + 2;
    int64_t pairs = 0;
    for (int32_t v = 0; v < n; v++)
        pairs += (p->cap_source[v] > 0) + (p->cap_sink[v] > 0);
    for (int64_t e = 0; e < p->num_edges; e++)
        pairs += p->edge_u[e] != p->edge_v[e];
    r->na = 2 * pairs;
    r->first = gcut_i_calloc((size_t)r->nn + 1, sizeof(int64_t));
    r->adj = gcut_i_malloc_array(r->na, sizeof(int64_t));
    r->to = gcut_i_malloc_array(r->na, sizeof(int32_t));
    r->res = gcut_i_malloc_array(r->na, sizeof(int64_t));
    r->edge_arc = gcut_i_malloc_array(p->num_edges, sizeof(int64_t));
    int32_t *tail = gcut_i_malloc_array(r->na, sizeof(int32_t));
    if (!r->first || !r->adj || !r->to || !r->res || !r->edge_arc || !tail) {
        gcut_i_free(tail);
        net_free(r);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-ref: cannot allocate %lld arcs", (long long)r->na);
    }
    const int32_t s = n, t = n + 1;
    int64_t a = 0;
#define REF_PAIR(x, y, c, rc)                                                      \
    do {                                                                           \
        tail[a] = (x), r->to[a] = (y), r->res[a] = (c), a++;                       \
        tail[a] = (y), r->to[a] = (x), r->res[a] = (rc), a++;                      \
    } while (0)
    for (int32_t v = 0; v < n; v++) {
        if (p->cap_source[v] > 0)
            REF_PAIR(s, v, p->cap_source[v], 0);
        if (p->cap_sink[v] > 0)
            REF_PAIR(v, t, p->cap_sink[v], 0);
    }
    for (int64_t e = 0; e < p->num_edges; e++) {
        r->edge_arc[e] = -1;
        if (p->edge_u[e] == p->edge_v[e])
            continue;
        r->edge_arc[e] = a;
        REF_PAIR(p->edge_u[e], p->edge_v[e], p->edge_cap[e], p->edge_rev_cap[e]);
    }
#undef REF_PAIR
    for (int64_t i = 0; i < r->na; i++)
        r->first[tail[i] + 1]++;
    for (int32_t v = 0; v < r->nn; v++)
        r->first[v + 1] += r->first[v];
    int64_t *pos = gcut_i_malloc_array(r->nn, sizeof(int64_t));
    if (!pos) {
        gcut_i_free(tail);
        net_free(r);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-ref: cannot allocate %d nodes", (int)r->nn);
    }
    memcpy(pos, r->first, (size_t)r->nn * sizeof(int64_t));
    for (int64_t i = 0; i < r->na; i++)
        r->adj[pos[tail[i]]++] = i;
    gcut_i_free(pos);
    gcut_i_free(tail);
    return GCUT_OK;
}

/* BFS levels from s over residual arcs; returns whether t was reached. */
static int bfs_levels(const ref_net *r, int32_t s, int32_t t, int32_t *level, int32_t *queue)
{
    for (int32_t v = 0; v < r->nn; v++)
        level[v] = -1;
    int64_t head = 0, tailq = 0;
    level[s] = 0;
    queue[tailq++] = s;
    while (head < tailq) {
        const int32_t v = queue[head++];
        for (int64_t i = r->first[v]; i < r->first[v + 1]; i++) {
            const int64_t a = r->adj[i];
            if (r->res[a] > 0 && level[r->to[a]] < 0) {
                level[r->to[a]] = level[v] + 1;
                queue[tailq++] = r->to[a];
            }
        }
    }
    return level[t] >= 0;
}

/* One blocking flow by iterative DFS: advance along admissible arcs,
 * augment on reaching t, retreat (and skip the arc) at dead ends. */
static int64_t blocking_flow(ref_net *r, int32_t s, int32_t t, const int32_t *level, int64_t *cur,
                             int64_t *path, int64_t *augmentations)
{
    int64_t total = 0, depth = 0;
    for (int32_t v = 0; v < r->nn; v++)
        cur[v] = r->first[v];
    int32_t v = s;
    for (;;) {
        if (v == t) {
            int64_t delta = INT64_MAX;
            for (int64_t k = 0; k < depth; k++)
                if (r->res[path[k]] < delta)
                    delta = r->res[path[k]];
            for (int64_t k = 0; k < depth; k++) {
                r->res[path[k]] -= delta;
                r->res[path[k] ^ 1] += delta;
            }
            total += delta;
            (*augmentations)++;
            depth = 0; /* restart from s; saturated arcs are skipped below */
            v = s;
            continue;
        }
        int advanced = 0;
        for (; cur[v] < r->first[v + 1]; cur[v]++) {
            const int64_t a = r->adj[cur[v]];
            if (r->res[a] > 0 && level[r->to[a]] == level[v] + 1) {
                path[depth++] = a;
                v = r->to[a];
                advanced = 1;
                break;
            }
        }
        if (advanced)
            continue;
        if (v == s)
            return total;
        /* Dead end: retreat and never try the arc into v again this phase. */
        --depth;
        v = depth > 0 ? r->to[path[depth - 1]] : s;
        cur[v]++;
    }
}

static gcut_status ref_solve(void *state, const gcut_problem *p, const gcut_solve_options *opt,
                             gcut_solution *sol)
{
    if (gcut_i_params_none(opt->params, "cpu-ref") != GCUT_OK)
        return GCUT_ERR_INVALID;
    double t0 = gcut_i_now_ms();
    ref_net r;
    gcut_status st = net_build(p, &r);
    if (st != GCUT_OK)
        return st;
    const int32_t n = p->num_nodes, s = n, t = n + 1;
    int32_t *level = gcut_i_malloc_array(r.nn, sizeof(int32_t));
    int32_t *queue = gcut_i_malloc_array(r.nn, sizeof(int32_t));
    int64_t *cur = gcut_i_malloc_array(r.nn, sizeof(int64_t));
    int64_t *path = gcut_i_malloc_array(r.nn, sizeof(int64_t));
    if (!level || !queue || !cur || !path) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-ref: cannot allocate work arrays");
        goto fail;
    }
    sol->stats->init_ms = gcut_i_now_ms() - t0;
    t0 = gcut_i_now_ms();
    int64_t flow = 0;
    while (bfs_levels(&r, s, t, level, queue)) {
        flow += blocking_flow(&r, s, t, level, cur, path, &sol->stats->augmentations);
        sol->stats->rounds++;
        if ((st = gcut_i_poll("solve", -1, NULL)) != GCUT_OK)
            goto fail;
    }
    sol->stats->solve_ms = gcut_i_now_ms() - t0;
    if ((st = gcut_i_poll("cut", -1, NULL)) != GCUT_OK)
        goto fail;
    t0 = gcut_i_now_ms();
    /* Canonical cut: reverse BFS from t; w joins if its arc w->v has
     * residual capacity, i.e. the reverse of an arc v->w listed under v. */
    for (int32_t v = 0; v < r.nn; v++)
        level[v] = 0;
    int64_t qh = 0, qt = 0;
    level[t] = 1;
    queue[qt++] = t;
    while (qh < qt) {
        const int32_t v = queue[qh++];
        for (int64_t i = r.first[v]; i < r.first[v + 1]; i++) {
            const int64_t a = r.adj[i];
            const int32_t w = r.to[a];
            if (!level[w] && r.res[a ^ 1] > 0) {
                level[w] = 1;
                queue[qt++] = w;
            }
        }
    }
    for (int32_t v = 0; v < n; v++)
        sol->cut[v] = level[v] ? GCUT_SINK : GCUT_SOURCE;
    sol->stats->cut_ms = gcut_i_now_ms() - t0;
    if (sol->edge_flows) {
        for (int64_t e = 0; e < p->num_edges; e++) {
            const int64_t a = r.edge_arc[e];
            sol->edge_flows[e] = a < 0 ? 0 : (int32_t)(p->edge_cap[e] - r.res[a]);
        }
    }
    sol->flow = flow;
fail:
    gcut_i_free(level);
    gcut_i_free(queue);
    gcut_i_free(cur);
    gcut_i_free(path);
    net_free(&r);
    return st;
}

const gcut_backend gcut_i_backend_ref = GCUT_BACKEND_ASSIGN(
    "cpu-ref", "reference solver (Dinic), for cross-checks",
    GCUT_BACKEND_GRAPH | GCUT_BACKEND_FLOWS | GCUT_BACKEND_REFERENCE, NULL, NULL, ref_solve, NULL,
    NULL);
