/*
 * csr_finish.c - cuda-csr's finish on the host (csr_finish.h): sequential
 * highest-label push-relabel on the engine's RCSR residual state.
 *
 * A. V. Goldberg and R. E. Tarjan, J. ACM 35(4), 1988 (push-relabel);
 * B. V. Cherkassky and A. V. Goldberg, Algorithmica 19(4), 1997 (highest
 * label first, current arcs, global relabelling after O(6n + m) units of
 * relabel work, gap relabelling). Written from the papers, on the layout
 * of csr_kernels.cuh: terminals are not vertices, the sink is a virtual
 * vertex of label 0 reached through term[v].
 *
 * Labels: 1 .. n for vertices that can reach the sink (a distance to the
 * sink is at most n), DEAD = n + 1 for the others, which keep their excess
 * (phase II returns it). Invariants between discharges:
 *  - the labelling is valid: h(u) <= h(v) + 1 for every residual arc
 *    u -> v, and h(u) == 1 whenever term[u] > 0;
 *  - every live vertex other than the one being discharged is in one list
 *    of its label: the active stack when it has excess, else the doubly
 *    linked inactive list;
 *  - no active vertex has a label above amax, no live one above dmax.
 * The finish ends when no live vertex has excess: the preflow is then
 * maximum. The cut is read from one more BFS from the sink.
 */
#include "csr/csr_finish.h"

#include <string.h>

#define FIN_ALPHA 6
#define FIN_BETA 12
#define FIN_FREQ 0.5
#define FIN_POLL_EVERY 4096

typedef struct fin {
    const gcut_cu_finish_graph *g;
    int32_t n, dead;
    int32_t *flow;
    int64_t *excess;
    int32_t *term;
    int32_t *h;
    int32_t *next, *prev; /* bucket links, -1 for none */
    int64_t *cur;         /* current arc: position in forward arcs, then entering arcs */
    int32_t *ahead;       /* active stack of each label, n + 2 */
    int32_t *ihead;       /* inactive list of each label, n + 2 */
    int32_t *queue;       /* BFS queue, n */
    int32_t amax, dmax;
    int64_t work, work_limit;
    gcut_cu_finish_stats st;
} fin;

static inline int64_t idx_at(const gcut_cu_finish_graph *g, const void *a, int64_t i)
{
    return g->idx32 ? (int64_t)((const uint32_t *)a)[i] : ((const int64_t *)a)[i];
}

static inline void active_push(fin *F, int32_t v)
{
    const int32_t d = F->h[v];
    F->next[v] = F->ahead[d];
    F->ahead[d] = v;
    if (d > F->amax)
        F->amax = d;
    if (d > F->dmax)
        F->dmax = d;
}

static inline void inactive_add(fin *F, int32_t v)
{
    const int32_t d = F->h[v];
    const int32_t head = F->ihead[d];
    F->next[v] = head;
    F->prev[v] = -1;
    if (head >= 0)
        F->prev[head] = v;
    F->ihead[d] = v;
    if (d > F->dmax)
        F->dmax = d;
}

static inline void inactive_remove(fin *F, int32_t v)
{
    const int32_t nx = F->next[v], pv = F->prev[v];
    if (pv >= 0)
        F->next[pv] = nx;
    else
        F->ihead[F->h[v]] = nx;
    if (nx >= 0)
        F->prev[nx] = pv;
}

/* Exact labels by a BFS from the sink over the residual arcs taken
 * backwards; the lists rebuilt. When cut is non-NULL, it receives the
 * vertices reached. Returns the number of live vertices with excess. */
static int64_t global_relabel(fin *F, uint8_t *cut)
{
    const gcut_cu_finish_graph *g = F->g;
    const int32_t n = F->n;
    int32_t *h = F->h, *q = F->queue;
    int64_t qt = 0, qh = 0;
    for (int32_t v = 0; v < n; v++) {
        if (F->term[v] > 0) {
            h[v] = 1;
            q[qt++] = v;
        } else {
            h[v] = F->dead;
        }
    }
    while (qh < qt) {
        const int32_t v = q[qh++];
        const int32_t d = h[v] + 1;
        /* u -> v forward (an arc entering v) with cap - flow > 0 */
        const int64_t r1 = idx_at(g, g->rrow, (int64_t)v + 1);
        for (int64_t b = idx_at(g, g->rrow, v); b < r1; b++) {
            const int32_t u = g->rcol[b];
            if (h[u] != F->dead)
                continue;
            const int64_t a = idx_at(g, g->rmap, b);
            if (g->cap[a] - F->flow[a] > 0) {
                h[u] = d;
                q[qt++] = u;
            }
        }
        /* u -> v backwards along v's own arc v -> u with flow > 0 */
        const int64_t f1 = idx_at(g, g->row, (int64_t)v + 1);
        for (int64_t a = idx_at(g, g->row, v); a < f1; a++) {
            const int32_t u = g->col[a];
            if (h[u] == F->dead && F->flow[a] > 0) {
                h[u] = d;
                q[qt++] = u;
            }
        }
    }
    F->work = 0;
    F->st.global_relabels++;
    if (cut) {
        for (int32_t v = 0; v < n; v++)
            cut[v] = h[v] < F->dead ? 1 : 0;
        return 0;
    }
    for (int32_t d = 0; d <= F->dead; d++)
        F->ahead[d] = F->ihead[d] = -1;
    F->amax = F->dmax = 0;
    int64_t active = 0;
    for (int32_t v = 0; v < n; v++) {
        F->cur[v] = 0;
        if (h[v] == F->dead)
            continue;
        if (F->excess[v] > 0) {
            active_push(F, v);
            active++;
        } else {
            inactive_add(F, v);
        }
    }
    return active;
}

/* Every live vertex above label k is dead (no vertex is left at k). */
static void gap(fin *F, int32_t k)
{
    for (int32_t d = k + 1; d <= F->dmax; d++) {
        for (int32_t v = F->ihead[d]; v >= 0; v = F->next[v])
            F->h[v] = F->dead;
        F->ihead[d] = -1;
        /* No active vertex lies above the one being discharged. */
    }
    F->dmax = k - 1 > 0 ? k - 1 : 0;
    if (F->amax > F->dmax)
        F->amax = F->dmax;
    F->st.gaps++;
}

/* Push from u over its residual arcs of label h(u) - 1 until u has no
 * excess or no admissible arc; then relabel u (1 + the lowest residual
 * neighbour's label, or dead), with the gap rule. Returns 1 when the
 * push budget ran out. */
static int discharge(fin *F, int32_t u, int64_t *pushes_left)
{
    const gcut_cu_finish_graph *g = F->g;
    int32_t *h = F->h;
    int64_t *ex = F->excess;
    const int64_t f0 = idx_at(g, g->row, u), f1 = idx_at(g, g->row, (int64_t)u + 1);
    const int64_t r0 = idx_at(g, g->rrow, u), r1 = idx_at(g, g->rrow, (int64_t)u + 1);
    const int64_t nf = f1 - f0, deg = nf + (r1 - r0);
    for (;;) {
        const int32_t hu = h[u];
        if (F->term[u] > 0) {
            /* h(u) == 1: the arc to the sink is admissible. */
            if (*pushes_left == 0)
                return 1;
            const int64_t d = ex[u] < F->term[u] ? ex[u] : F->term[u];
            F->term[u] -= (int32_t)d;
            ex[u] -= d;
            F->st.pushes++;
            if (*pushes_left > 0)
                --*pushes_left;
            if (ex[u] == 0)
                return 0;
        }
        int64_t p = F->cur[u];
        for (; p < deg; p++) {
            int32_t v;
            int64_t a, res;
            if (p < nf) {
                a = f0 + p;
                v = g->col[a];
                if (h[v] != hu - 1)
                    continue;
                res = (int64_t)g->cap[a] - F->flow[a];
            } else {
                const int64_t b = r0 + (p - nf);
                v = g->rcol[b];
                if (h[v] != hu - 1)
                    continue;
                a = idx_at(g, g->rmap, b);
                res = F->flow[a];
            }
            if (res <= 0)
                continue;
            if (*pushes_left == 0) {
                F->cur[u] = p;
                return 1;
            }
            const int64_t d = ex[u] < res ? ex[u] : res;
            F->flow[a] += p < nf ? (int32_t)d : -(int32_t)d;
            ex[u] -= d;
            if (ex[v] == 0) {
                inactive_remove(F, v);
                active_push(F, v);
            }
            ex[v] += d;
            F->st.pushes++;
            if (*pushes_left > 0)
                --*pushes_left;
            if (ex[u] == 0) {
                F->cur[u] = p;
                return 0;
            }
        }
        /* Relabel. */
        int32_t hmin = F->dead;
        int64_t pmin = 0;
        for (int64_t q = 0; q < deg; q++) {
            int32_t v;
            int64_t res;
            if (q < nf) {
                v = g->col[f0 + q];
                res = (int64_t)g->cap[f0 + q] - F->flow[f0 + q];
            } else {
                const int64_t b = r0 + (q - nf);
                v = g->rcol[b];
                res = F->flow[idx_at(g, g->rmap, b)];
            }
            if (res > 0 && h[v] < hmin) {
                hmin = h[v];
                pmin = q;
            }
        }
        F->work += FIN_BETA + deg;
        F->st.relabels++;
        const int32_t old = hu;
        if (F->ahead[old] < 0 && F->ihead[old] < 0) {
            /* u was the last vertex of its label: the gap kills u too. */
            gap(F, old);
            h[u] = F->dead;
            return 0;
        }
        if (hmin + 1 > F->n) {
            h[u] = F->dead;
            return 0;
        }
        h[u] = hmin + 1;
        F->cur[u] = pmin;
        if (h[u] > F->dmax)
            F->dmax = h[u];
        if (F->work > F->work_limit) {
            /* Put u back; the caller runs a global relabel. */
            active_push(F, u);
            return 2;
        }
    }
}

gcut_status gcut_cu_csr_finish(const gcut_cu_finish_graph *g, int32_t *flow, int64_t *excess,
                               int32_t *term, uint8_t *cut, const gcut_cu_finish_env *env,
                               gcut_cu_finish_stats *stats)
{
    fin F;
    memset(&F, 0, sizeof F);
    const int32_t n = g->n;
    F.g = g;
    F.n = n;
    F.dead = n + 1;
    F.flow = flow;
    F.excess = excess;
    F.term = term;
    F.work_limit = (int64_t)(FIN_FREQ * ((double)FIN_ALPHA * n + (double)g->m));
    const size_t nn = (size_t)n > 0 ? (size_t)n : 1, nl = (size_t)n + 2;
    F.h = env->alloc(nn * sizeof(int32_t));
    F.next = env->alloc(nn * sizeof(int32_t));
    F.prev = env->alloc(nn * sizeof(int32_t));
    F.cur = env->alloc(nn * sizeof(int64_t));
    F.queue = env->alloc(nn * sizeof(int32_t));
    F.ahead = env->alloc(nl * sizeof(int32_t));
    F.ihead = env->alloc(nl * sizeof(int32_t));
    gcut_status rc = GCUT_OK;
    if (!F.h || !F.next || !F.prev || !F.cur || !F.queue || !F.ahead || !F.ihead) {
        rc = GCUT_ERR_NOMEM;
        goto done;
    }
    int64_t pushes_left = env->max_pushes >= 0 ? env->max_pushes : -1;
    const int poll_every = env->poll_every > 0 ? env->poll_every : FIN_POLL_EVERY;
    F.st.active_start = global_relabel(&F, NULL);
    int64_t since_poll = 0;
    while (F.amax > 0) {
        const int32_t u = F.ahead[F.amax];
        if (u < 0) {
            F.amax--;
            continue;
        }
        F.ahead[F.amax] = F.next[u];
        const int r = discharge(&F, u, &pushes_left);
        if (r == 1) {
            rc = GCUT_ERR_INTERRUPTED;
            goto done;
        }
        if (r == 2) {
            (void)global_relabel(&F, NULL);
        } else if (F.h[u] != F.dead) {
            if (excess[u] > 0)
                active_push(&F, u);
            else
                inactive_add(&F, u);
        }
        if (env->poll && ++since_poll == poll_every) {
            since_poll = 0;
            if ((rc = env->poll(env->ctx, -1)) != GCUT_OK)
                goto done;
        }
    }
    if (cut)
        (void)global_relabel(&F, cut);
done:
    if (stats)
        *stats = F.st;
    void *parts[] = {F.h, F.next, F.prev, F.cur, F.queue, F.ahead, F.ihead};
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++)
        if (parts[k])
            env->release(parts[k]);
    return rc;
}
