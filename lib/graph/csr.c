/*
 * csr.c - the layouts engines read (docs/design.md section 2), built from the
 * edge arrays in O(n + m) by counting sort, once per graph version.
 *
 * BCSR: both arcs of every edge under their tails with a sister index
 * (push-relabel and BK on the CPU). RCSR: forward arcs plus a reversed
 * index (ECL-MaxFlow's layout; residuals derive from one flow per arc).
 * Within a node, arcs keep the order of the edges, so layouts are
 * deterministic and engines that scan them are reproducible.
 */
#include <string.h>

#include "graph/graph_internal.h"

/* The build polls the call (gcut_i_poll) every this many edges of each
 * pass, so that a time limit or a cancel during the build of a large
 * layout returns promptly; a stopped build frees what it made and leaves
 * the graph without the layout (the next solve builds it again). */
#define CSR_POLL_EVERY ((int64_t)1 << 20)
#define CSR_POLL(e, m, st)                                                                         \
    (((e) & (CSR_POLL_EVERY - 1)) == 0 &&                                                          \
     ((st) = gcut_i_poll("layout", (m) - (e), "edges to lay out")) != GCUT_OK)

static int keeps_edge(const gcut_graph *g, int64_t e)
{
    return g->eu[e] != g->ev[e] && (g->ecap[e] > 0 || g->erev[e] > 0);
}

void gcut_i_bcsr_free(gcut_i_bcsr_store *s)
{
    if (!s)
        return;
    gcut_i_free(s->first);
    gcut_i_free(s->head);
    gcut_i_free(s->sister);
    gcut_i_free(s->cap);
    gcut_i_free(s->edge);
    gcut_i_free(s);
}

gcut_status gcut_i_bcsr_build(const gcut_graph *g, gcut_i_bcsr_store **out)
{
    const int32_t n = g->n;
    int64_t m = 0;
    gcut_status st = GCUT_OK;
    for (int64_t e = 0; e < g->m; e++) {
        if (CSR_POLL(e, 3 * g->m, st))
            return st;
        m += keeps_edge(g, e);
    }
    m *= 2;
    gcut_i_bcsr_store *s = gcut_i_calloc(1, sizeof *s);
    if (!s)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the BCSR layout");
    s->first = gcut_i_calloc((size_t)n + 1, sizeof(int64_t));
    s->head = gcut_i_malloc_array(m, sizeof(int32_t));
    s->sister = gcut_i_malloc_array(m, sizeof(int64_t));
    s->cap = gcut_i_malloc_array(m, sizeof(int32_t));
    s->edge = gcut_i_malloc_array(m, sizeof(int64_t));
    int64_t *pos = gcut_i_malloc_array((int64_t)n + 1, sizeof(int64_t));
    if (!s->first || !s->head || !s->sister || !s->cap || !s->edge || !pos) {
        gcut_i_free(pos);
        gcut_i_bcsr_free(s);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the BCSR layout (%lld arcs)",
                         (long long)m);
    }
    int64_t *first = s->first;
    for (int64_t e = 0; e < g->m; e++) {
        if (CSR_POLL(e, 2 * g->m, st))
            goto stop_bcsr;
        if (!keeps_edge(g, e))
            continue;
        first[g->eu[e] + 1]++;
        first[g->ev[e] + 1]++;
    }
    for (int32_t v = 0; v < n; v++)
        first[v + 1] += first[v];
    memcpy(pos, first, ((size_t)n + 1) * sizeof(int64_t));
    for (int64_t e = 0; e < g->m; e++) {
        if (CSR_POLL(e, g->m, st))
            goto stop_bcsr;
        if (!keeps_edge(g, e))
            continue;
        const int32_t u = g->eu[e], v = g->ev[e];
        const int64_t a = pos[u]++, b = pos[v]++;
        s->head[a] = v;
        s->cap[a] = g->ecap[e];
        s->sister[a] = b;
        s->edge[a] = 2 * e;
        s->head[b] = u;
        s->cap[b] = g->erev[e];
        s->sister[b] = a;
        s->edge[b] = 2 * e + 1;
    }
    gcut_i_free(pos);
    s->view = (gcut_bcsr){n, m, s->first, s->head, s->sister, s->cap, s->edge};
    *out = s;
    return GCUT_OK;
stop_bcsr:
    gcut_i_free(pos);
    gcut_i_bcsr_free(s);
    return st;
}

void gcut_i_rcsr_free(gcut_i_rcsr_store *s)
{
    if (!s)
        return;
    gcut_i_free(s->row);
    gcut_i_free(s->col);
    gcut_i_free(s->cap);
    gcut_i_free(s->rrow);
    gcut_i_free(s->rcol);
    gcut_i_free(s->rmap);
    gcut_i_free(s->edge);
    gcut_i_free(s);
}

gcut_status gcut_i_rcsr_build(const gcut_graph *g, gcut_i_rcsr_store **out)
{
    const int32_t n = g->n;
    int64_t m = 0;
    gcut_status st = GCUT_OK;
    for (int64_t e = 0; e < g->m; e++) {
        if (CSR_POLL(e, 4 * g->m, st))
            return st;
        if (g->eu[e] != g->ev[e])
            m += (g->ecap[e] > 0) + (g->erev[e] > 0);
    }
    gcut_i_rcsr_store *s = gcut_i_calloc(1, sizeof *s);
    if (!s)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the RCSR layout");
    s->row = gcut_i_calloc((size_t)n + 1, sizeof(int64_t));
    s->rrow = gcut_i_calloc((size_t)n + 1, sizeof(int64_t));
    s->col = gcut_i_malloc_array(m, sizeof(int32_t));
    s->cap = gcut_i_malloc_array(m, sizeof(int32_t));
    s->rcol = gcut_i_malloc_array(m, sizeof(int32_t));
    s->rmap = gcut_i_malloc_array(m, sizeof(int64_t));
    s->edge = gcut_i_malloc_array(m, sizeof(int64_t));
    int64_t *pos = gcut_i_malloc_array((int64_t)n + 1, sizeof(int64_t));
    if (!s->row || !s->rrow || !s->col || !s->cap || !s->rcol || !s->rmap || !s->edge || !pos) {
        gcut_i_free(pos);
        gcut_i_rcsr_free(s);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the RCSR layout (%lld arcs)",
                         (long long)m);
    }
    for (int64_t e = 0; e < g->m; e++) {
        if (CSR_POLL(e, 3 * g->m, st))
            goto stop_rcsr;
        const int32_t u = g->eu[e], v = g->ev[e];
        if (u == v)
            continue;
        if (g->ecap[e] > 0) {
            s->row[u + 1]++;
            s->rrow[v + 1]++;
        }
        if (g->erev[e] > 0) {
            s->row[v + 1]++;
            s->rrow[u + 1]++;
        }
    }
    for (int32_t v = 0; v < n; v++) {
        s->row[v + 1] += s->row[v];
        s->rrow[v + 1] += s->rrow[v];
    }
    memcpy(pos, s->row, ((size_t)n + 1) * sizeof(int64_t));
    for (int64_t e = 0; e < g->m; e++) {
        if (CSR_POLL(e, 2 * g->m, st))
            goto stop_rcsr;
        const int32_t u = g->eu[e], v = g->ev[e];
        if (u == v)
            continue;
        if (g->ecap[e] > 0) {
            const int64_t a = pos[u]++;
            s->col[a] = v;
            s->cap[a] = g->ecap[e];
            s->edge[a] = 2 * e;
        }
        if (g->erev[e] > 0) {
            const int64_t a = pos[v]++;
            s->col[a] = u;
            s->cap[a] = g->erev[e];
            s->edge[a] = 2 * e + 1;
        }
    }
    /* Reverse index: walk forward arcs in order, file each under its head. */
    memcpy(pos, s->rrow, ((size_t)n + 1) * sizeof(int64_t));
    for (int32_t u = 0; u < n; u++) {
        if (CSR_POLL(u, (int64_t)n, st))
            goto stop_rcsr;
        for (int64_t a = s->row[u]; a < s->row[u + 1]; a++) {
            const int64_t r = pos[s->col[a]]++;
            s->rcol[r] = u;
            s->rmap[r] = a;
        }
    }
    gcut_i_free(pos);
    s->view = (gcut_rcsr){n, m, s->row, s->col, s->cap, s->rrow, s->rcol, s->rmap, s->edge};
    *out = s;
    return GCUT_OK;
stop_rcsr:
    gcut_i_free(pos);
    gcut_i_rcsr_free(s);
    return st;
}
