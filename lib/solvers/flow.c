/*
 * flow.c - phase II of push-relabel: from a maximum preflow to a maximum
 * flow, shared by the BCSR engines (cpu-hipr, cpu-prsn).
 *
 * The method is the second stage of Goldberg and Tarjan, "A new approach
 * to the maximum-flow problem", J. ACM 35(4), 1988, as implemented by
 * Cherkassky and Goldberg, "On implementing the push-relabel method for
 * the maximum flow problem", Algorithmica 19(4), 1997: cancel the flow
 * cycles, so that the arcs carrying flow form an acyclic graph, then walk
 * it in topological order and send each node's excess back along the arcs
 * that bring flow into it, until it reaches the source.
 *
 * Here only the part of the flow graph that matters is explored: a depth-
 * first search starts at every node with excess and follows arcs carrying
 * flow backwards (from a node to the nodes that feed it), since excess can
 * only travel that way. The source is implicit: src_used[v] is the flow it
 * sends into v, and a node first hands its excess back to the source
 * directly, then to its feeders.
 *
 * Notation: for an arc a = v->u of the layout, f(a) = res[a] - cap[a] is
 * the net flow on the pair in the opposite direction, u->v (the pair
 * conserves res[a] + res[sister] = cap[a] + cap[sister]). So under v the
 * arcs with res[a] > cap[a] are exactly the feeders of v, and lowering
 * that flow by x means res[a] -= x, res[sister[a]] += x.
 *
 * Invariants:
 *  - cycle cancelling and excess return only lower flows on arcs that
 *    carry flow, never raise one, so an arc that stopped feeding a node
 *    never feeds it again: the searched graph only shrinks;
 *  - excess[v] <= src_used[v] + (flow into v) for every node (the flow
 *    out of v and into the sink is >= 0), and returning x from v to a
 *    feeder u keeps it true at u (its excess and its out-flow change by x
 *    together). So a node can always be emptied; failing is a bug.
 *
 * O(n m): every cancelled cycle zeroes an arc (at most m cycles, each of
 * length <= n); the searches scan each arc O(1) times between cancels.
 */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE (gcut_i_advise_huge) */
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "solvers/solvers_internal.h"

enum { FL_WHITE = 0, FL_GRAY = 1, FL_BLACK = 2 };

/* Flow that the arc pair of a brings into a's tail (f(a) above). */
static inline int64_t feed(const gcut_bcsr *b, const uint32_t *res, int64_t a)
{
    return (int64_t)res[a] - (int64_t)b->cap[a];
}

/* Lower the feeding flow of arc a by x. */
static inline void unfeed(const gcut_bcsr *b, uint32_t *res, int64_t a, int64_t x)
{
    res[a] -= (uint32_t)x;
    res[b->sister[a]] += (uint32_t)x;
}

typedef struct fl_search {
    uint8_t *mark;   /* FL_WHITE / FL_GRAY (on the stack) / FL_BLACK (done) */
    int64_t *cur;    /* next arc to look at, per node */
    int32_t *stack;  /* the search path; cur[stack[i]] leads to stack[i + 1] */
    int32_t *order;  /* nodes in the order they were finished */
    int64_t done;    /* entries of order */
} fl_search;

/*
 * The search stack closed a cycle: the current arc of the top node leads
 * to stack[j], still on the stack. Cancel the smallest flow around the
 * cycle and cut the stack back to the first node whose arc it zeroed; the
 * nodes above it turn white again (their current arcs stay valid: every
 * arc before one leads nowhere or to a finished node).
 */
static int64_t cancel_cycle(const gcut_bcsr *b, uint32_t *res, fl_search *s, int64_t j,
                            int64_t sp)
{
    int64_t delta = INT64_MAX;
    for (int64_t i = j; i < sp; i++) {
        const int64_t f = feed(b, res, s->cur[s->stack[i]]);
        if (f < delta)
            delta = f;
    }
    int64_t cut = -1;
    for (int64_t i = j; i < sp; i++) {
        const int64_t a = s->cur[s->stack[i]];
        unfeed(b, res, a, delta);
        if (cut < 0 && feed(b, res, a) == 0)
            cut = i;
    }
    for (int64_t i = cut + 1; i < sp; i++)
        s->mark[s->stack[i]] = FL_WHITE;
    return cut + 1;
}

/* Depth-first search along feeding arcs from `root`, cancelling cycles;
 * appends nodes to s->order as they finish. */
static void search(const gcut_bcsr *b, uint32_t *res, fl_search *s, int32_t root)
{
    int64_t sp = 0;
    s->stack[sp++] = root;
    s->mark[root] = FL_GRAY;
    while (sp > 0) {
        const int32_t v = s->stack[sp - 1];
        const int64_t end = b->first[v + 1];
        int64_t a = s->cur[v];
        for (; a < end; a++) {
            if (feed(b, res, a) <= 0)
                continue;
            const int32_t u = b->head[a];
            if (s->mark[u] != FL_BLACK)
                break;
        }
        s->cur[v] = a;
        if (a == end) {
            s->mark[v] = FL_BLACK;
            s->order[s->done++] = v;
            sp--;
            continue;
        }
        const int32_t u = b->head[a];
        if (s->mark[u] == FL_WHITE) {
            s->mark[u] = FL_GRAY;
            s->stack[sp++] = u;
            continue;
        }
        /* u is gray: find it on the stack (the walk costs what the cycle
         * costs anyway) and cancel the cycle u ... v -> u. */
        int64_t j = sp - 1;
        while (s->stack[j] != u)
            j--;
        sp = cancel_cycle(b, res, s, j, sp);
    }
}

gcut_status gcut_i_preflow_to_flow(const gcut_bcsr *b, uint32_t *res, int64_t *excess,
                                   int64_t *src_used)
{
    const int32_t n = b->n;
    const int64_t nn = n > 0 ? n : 1;
    fl_search s;
    gcut_status st = GCUT_OK;
    s.mark = gcut_i_calloc((size_t)nn, 1);
    s.cur = gcut_i_malloc_array(nn, sizeof(int64_t));
    s.stack = gcut_i_malloc_array(nn, sizeof(int32_t));
    s.order = gcut_i_malloc_array(nn, sizeof(int32_t));
    s.done = 0;
    if (!s.mark || !s.cur || !s.stack || !s.order) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "phase II: cannot allocate work arrays for %d nodes",
                       (int)n);
        goto done;
    }
    memcpy(s.cur, b->first, (size_t)n * sizeof(int64_t));
    for (int32_t v = 0; v < n; v++) {
        /* The call's poll (time limit, cancel) every 64K nodes; a stop
         * leaves the engine's residuals half converted, which the engine
         * then drops. */
        if ((v & 0xffff) == 0 && (st = gcut_i_poll("flows", (int64_t)n - v, "nodes")) != GCUT_OK)
            goto done;
        if (excess[v] > 0 && s.mark[v] == FL_WHITE)
            search(b, res, &s, v);
    }

    /* Finishing order puts every node after its feeders (the search runs
     * against the flow), so walking it backwards empties a node before any
     * of its feeders: excess only ever moves to nodes still ahead. */
    for (int64_t i = s.done - 1; i >= 0; i--) {
        const int32_t v = s.order[i];
        int64_t ex = excess[v];
        if (ex <= 0)
            continue;
        const int64_t back = ex < src_used[v] ? ex : src_used[v];
        src_used[v] -= back;
        ex -= back;
        for (int64_t a = b->first[v]; ex > 0 && a < b->first[v + 1]; a++) {
            const int64_t f = feed(b, res, a);
            if (f <= 0)
                continue;
            const int64_t x = ex < f ? ex : f;
            unfeed(b, res, a, x);
            excess[b->head[a]] += x;
            ex -= x;
        }
        if (ex > 0) {
            st = GCUT_FAIL(GCUT_ERR_INTERNAL,
                           "phase II: node %d keeps an excess of %lld that no flow brought in",
                           (int)v, (long long)ex);
            goto done;
        }
        excess[v] = 0;
    }
done:
    gcut_i_free(s.mark);
    gcut_i_free(s.cur);
    gcut_i_free(s.stack);
    gcut_i_free(s.order);
    return st;
}

gcut_status gcut_i_flows_from_preflow(const gcut_problem *p, uint32_t *res, int64_t *excess,
                                      int32_t *edge_flows, const char *who)
{
    const int32_t n = p->bcsr->n;
    int64_t *src_used = gcut_i_malloc_array(n > 0 ? n : 1, sizeof(int64_t));
    if (!src_used)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "%s: cannot allocate phase II (%d nodes)", who, (int)n);
    for (int32_t v = 0; v < n; v++) {
        const int32_t cs = p->cap_source[v], ct = p->cap_sink[v];
        src_used[v] = cs - (cs < ct ? cs : ct);
    }
    gcut_status st = gcut_i_preflow_to_flow(p->bcsr, res, excess, src_used);
    if (st == GCUT_OK)
        gcut_i_edge_flows_from_residual(p->bcsr, res, p->num_edges, edge_flows);
    gcut_i_free(src_used);
    return st;
}

uint32_t *gcut_i_pack_residuals(void *arcs, size_t stride, size_t offset, int64_t m)
{
    unsigned char *base = arcs;
    for (int64_t a = 0; a < m; a++) {
        uint32_t r;
        memcpy(&r, base + (size_t)a * stride + offset, sizeof r);
        memcpy(base + (size_t)a * sizeof(uint32_t), &r, sizeof r);
    }
    return (uint32_t *)arcs;
}

/* The sister's capacity is a gather from anywhere in cap[] (on a
 * power-law graph almost every read misses the caches); fetching it a few
 * dozen arcs ahead overlaps the misses. */
#define MARC_FILL_AHEAD 32

void gcut_i_marc_fill(gcut_i_marc *arcs, const gcut_bcsr *b)
{
    for (int64_t a = 0; a < b->m; a++) {
#if defined(__GNUC__)
        if (a + MARC_FILL_AHEAD < b->m)
            __builtin_prefetch(&b->cap[b->sister[a + MARC_FILL_AHEAD]]);
#endif
        arcs[a].head = b->head[a];
        arcs[a].res = (uint32_t)b->cap[a];
        arcs[a].rev = (uint32_t)b->cap[b->sister[a]];
        const int64_t d = b->sister[a] - a;
        arcs[a].sdiff = d > INT32_MIN && d <= INT32_MAX ? (int32_t)d : GCUT_I_MARC_FAR;
    }
}

void gcut_i_advise_huge(void *ptr, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)1 << 21;
    if (!ptr || bytes < 2 * huge)
        return;
    const uintptr_t lo = ((uintptr_t)ptr + huge - 1) & ~(huge - 1);
    const uintptr_t hi = ((uintptr_t)ptr + bytes) & ~(huge - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)ptr;
    (void)bytes;
#endif
}
