/*
 * hipr.c - cpu-hipr: sequential highest-label push-relabel.
 *
 * A. V. Goldberg and R. E. Tarjan, "A new approach to the maximum-flow
 * problem", J. ACM 35(4):921-940, 1988 (the push-relabel method), and
 * B. V. Cherkassky and A. V. Goldberg, "On implementing the push-relabel
 * method for the maximum flow problem", Algorithmica 19(4):390-410, 1997
 * (highest-label selection, global and gap relabelling: the design of
 * their hi_pr program). This file is written from the papers.
 *
 * Network. The BCSR layout gives the arcs between nodes; the terminals are
 * not nodes. The source is implicit: after cancelling min(cap_source,
 * cap_sink) per node into the flow, the rest of a node's source capacity
 * is its initial excess (the source never takes flow back in phase I). The
 * sink is a virtual node of label 0 reached through node[v].sink, the
 * remaining residual capacity of v's sink arc.
 *
 * Invariants of phase I:
 *  - res[a] + res[sister[a]] == cap[a] + cap[sister[a]] for every arc a;
 *  - the labelling is valid: d(v) <= d(w) + 1 for every residual arc v->w,
 *    and d(v) == 1 whenever node[v].sink > 0 (the sink has label 0, and a
 *    node with a residual sink arc never relabels: that arc is admissible);
 *  - labels of live nodes lie in 1 .. n; DEAD (n + 1) marks a node that
 *    cannot reach the sink. It keeps its excess, which phase II returns;
 *  - every live node is in exactly one bucket list of its label: the
 *    active stack if it has excess, else the inactive list - except the
 *    node being discharged, which is in none;
 *  - no active node has a label above amax, no live node one above dmax.
 * Phase I ends when no live node has excess: the preflow is then maximum
 * (no excess can reach the sink) and its value is the flow into the sink.
 *
 * Heuristics (Cherkassky-Goldberg): highest active label first; current-arc
 * pointers; global relabelling (exact labels by reverse BFS from the sink)
 * at the start and after O(6n + m) units of relabel work; gap relabelling
 * (when the last node leaves label k, every node above k is dead).
 *
 * Arc order. The engine keeps its own copy of the arcs, and within a node
 * it orders them itself (arc_order): positive capacities first, each group
 * in a fixed pseudo-random order. Push-relabel follows list order, and the
 * order of a DIMACS file (arcs by tail) put every node's reverse arcs,
 * pointing back where the flow came from, first: on RLG and genrmf that
 * cost 2-4x the pushes and relabels of this order, and made cpu-hipr 1.5-4.6x
 * slower than hi_pr (bench/results/hipr-2026-11-27.md).
 *
 * O(n^2 sqrt(m)) time with highest-label selection. Memory on top of the
 * layout: 17 bytes per arc (the 16-byte records and a one-byte position map;
 * 20 where a node has over 256 arcs, the map then 4 bytes and reused for the
 * residuals of phase II) and about 56 per node, plus, when flows are asked
 * for, 4 bytes per arc and 25 per node for phase II.
 *
 * Layout of a solve: engine_init (cancel terminal capacities, order and
 * copy arcs), phase1 (the push-relabel loop), the canonical cut from the
 * maximum preflow (engine_cut), and, for per-edge flows only, phase II
 * (flow.c), which returns the excess left at nodes that cannot reach the
 * sink to the source.
 */
#include <stddef.h>
#include <string.h>

#include "solvers/solvers_internal.h"

/* Global relabelling frequency: relabel work (HP_BETA per relabel plus the
 * arcs it scans) is weighed against HP_ALPHA * n + m, as in the paper. */
#define HP_ALPHA 6
#define HP_BETA 12
#define HP_FREQ 0.5

/* Discharges between two looks at the clock. */
#define HP_CLOCK_EVERY 4096

/* The labels live in their own array: most arc scans (in discharges,
 * relabels and the global BFS) only read the label of the head, and a
 * dense int32 array keeps 16 of them per cache line. The rest of a node,
 * touched only when it gets a push or is discharged, is 32 bytes. */
typedef struct hp_node {
    int64_t excess;  /* excess; the source's remaining capacity at start */
    int64_t cur;     /* current arc, in first[v] .. first[v+1] */
    int32_t next;    /* bucket list links, -1 for none */
    int32_t prev;    /* (inactive lists only: active lists are stacks) */
    int32_t sink;    /* residual capacity of v -> sink (<= INT32_MAX) */
    int32_t unused;  /* pads the node to 32 bytes */
} hp_node;

/* Per label: a stack of active nodes and a doubly linked inactive list.
 * The active side needs no back links: nodes only leave it from the top,
 * and the gap heuristic never finds active nodes above the current one. */
typedef struct hp_bucket {
    int32_t active;
    int32_t inactive;
} hp_bucket;

/* The engine's own copy of the arcs: everything a scan or a push reads
 * about an arc is in one 16-byte record (one cache line holds four). */
typedef struct hp_arc {
    uint32_t res;    /* residual capacity */
    int32_t head;
    int64_t sister;  /* the reverse arc */
} hp_arc;

typedef struct hp_engine {
    int32_t n;
    int32_t dead;           /* n + 1: the "cannot reach the sink" label */
    const int64_t *first;
    hp_arc *arc;
    uint32_t *res;          /* for phase II: the residuals in BCSR order */
    hp_node *node;
    int32_t *label;         /* distance label (0 is the sink's, DEAD: no path) */
    hp_bucket *bucket;      /* dead + 1 entries, by label */
    int32_t *queue;         /* BFS queue of global relabelling */
    uint8_t *posl8;         /* engine position of each BCSR arc, as an offset in its */
    uint32_t *posl32;       /* tail's list: one byte when no node has over 256 arcs */
    int32_t amax;           /* no active node above this label */
    int32_t dmax;           /* no live node above this label */
    int64_t work;           /* relabel work since the last global relabel */
    double work_limit;      /* HP_ALPHA * n + m */
    int64_t to_sink;        /* flow pushed into the sink */
    int64_t pushes, relabels, global_relabels, gap_nodes;
} hp_engine;

/* Bucket list operations; O(1) each. A node's next/prev links serve
 * whichever list it is in (a node is in at most one). */
static inline void bucket_add_inactive(hp_engine *e, int32_t v, int32_t d)
{
    hp_node *nd = e->node;
    const int32_t h = e->bucket[d].inactive;
    nd[v].next = h;
    nd[v].prev = -1;
    if (h >= 0)
        nd[h].prev = v;
    e->bucket[d].inactive = v;
}

static inline void bucket_remove_inactive(hp_engine *e, int32_t v, int32_t d)
{
    hp_node *nd = e->node;
    const int32_t nx = nd[v].next, pv = nd[v].prev;
    if (pv >= 0)
        nd[pv].next = nx;
    else
        e->bucket[d].inactive = nx;
    if (nx >= 0)
        nd[nx].prev = pv;
}

static inline void bucket_push_active(hp_engine *e, int32_t v, int32_t d)
{
    e->node[v].next = e->bucket[d].active;
    e->bucket[d].active = v;
}

/*
 * Global relabelling: exact distances to the sink by breadth-first search
 * backwards over residual arcs, starting from every node with a residual
 * sink arc (label 1). Unreached nodes get DEAD and leave phase I for good:
 * pushes only run between live nodes and only create residual arcs between
 * them, so a node that cannot reach the sink never can again. The buckets
 * are rebuilt from scratch and current arcs reset (labels changed).
 */
static void global_relabel(hp_engine *e)
{
    const int32_t n = e->n, dead = e->dead;
    const int64_t *const first = e->first;
    const hp_arc *const arc = e->arc;
    hp_node *const nd = e->node;
    int32_t *const lab = e->label;
    int32_t *const q = e->queue;
    for (int32_t k = 0; k <= e->dmax && k <= dead; k++)
        e->bucket[k].active = e->bucket[k].inactive = -1;
    int64_t qt = 0;
    for (int32_t v = 0; v < n; v++) {
        if (nd[v].sink > 0) {
            lab[v] = 1;
            q[qt++] = v;
        } else {
            lab[v] = dead;
        }
    }
    /* w joins at d(v) + 1 when its arc w->v, the sister of v->w, is residual. */
    for (int64_t qh = 0; qh < qt; qh++) {
        const int32_t v = q[qh];
        const int32_t dw = lab[v] + 1;
        for (int64_t a = first[v]; a < first[v + 1]; a++) {
            const int32_t w = arc[a].head;
            if (lab[w] == dead && arc[arc[a].sister].res > 0) {
                lab[w] = dw;
                q[qt++] = w;
            }
        }
    }
    int32_t amax = 0;
    for (int64_t i = 0; i < qt; i++) {
        const int32_t v = q[i];
        const int32_t d = lab[v];
        nd[v].cur = first[v];
        if (nd[v].excess > 0) {
            bucket_push_active(e, v, d);
            amax = d; /* BFS order: labels never decrease along the queue */
        } else {
            bucket_add_inactive(e, v, d);
        }
    }
    e->amax = amax;
    e->dmax = qt > 0 ? lab[q[qt - 1]] : 0;
    e->work = 0;
    e->global_relabels++;
}

/*
 * Gap relabelling: label k has just lost its last node (v, which is being
 * relabelled away from it). A node above k would need a residual path to
 * the sink through label k, so every node above k is dead. No node above k
 * is active (v came from the highest active label), so only the inactive
 * lists need walking.
 */
static void gap(hp_engine *e, int32_t v, int32_t k)
{
    const hp_node *const nd = e->node;
    int32_t *const lab = e->label;
    int64_t lifted = 1;
    lab[v] = e->dead;
    for (int32_t d = k + 1; d <= e->dmax; d++) {
        for (int32_t w = e->bucket[d].inactive; w >= 0; w = nd[w].next) {
            lab[w] = e->dead;
            lifted++;
        }
        e->bucket[d].inactive = -1;
    }
    e->dmax = k - 1;
    e->gap_nodes += lifted;
}

/*
 * Relabel v (not in any list, no admissible arc left) to one more than the
 * lowest label among its residual neighbours, pointing its current arc at
 * that neighbour. Returns 0 when v is dead afterwards (no residual arc to a
 * live node, or its old label emptied and the gap heuristic fired).
 */
static int relabel(hp_engine *e, int32_t v)
{
    const hp_arc *const arc = e->arc;
    int32_t *const lab = e->label;
    const int32_t old = lab[v];
    const int64_t a0 = e->first[v], a1 = e->first[v + 1];
    int32_t best = e->dead;
    int64_t best_arc = a0;
    e->relabels++;
    /* No arc of v is admissible, so every residual neighbour has a label
     * >= old: old + 1 is the lowest possible and ends the scan at once. */
    int64_t a = a0;
    for (; a < a1; a++) {
        if (arc[a].res > 0) {
            const int32_t dw = lab[arc[a].head] + 1;
            if (dw < best) {
                best = dw;
                best_arc = a;
                if (dw == old + 1)
                    break;
            }
        }
    }
    /* Work is charged for the whole arc list, as in the paper's measure,
     * whether or not the scan stopped early. */
    e->work += HP_BETA + (a1 - a0);
    if (e->bucket[old].active < 0 && e->bucket[old].inactive < 0) {
        gap(e, v, old);
        return 0;
    }
    if (best >= e->dead) {
        lab[v] = e->dead;
        return 0;
    }
    lab[v] = best;
    e->node[v].cur = best_arc;
    if (best > e->dmax)
        e->dmax = best;
    if (best > e->amax)
        e->amax = best;
    return 1;
}

/*
 * Discharge v (popped from the highest active bucket): push to the sink
 * first if that arc is residual, then along admissible arcs (residual,
 * head one label lower) from the current arc on; relabel when none is
 * left, and go on at the new label until the excess is gone or v is dead.
 */
static void discharge(hp_engine *e, int32_t v)
{
    hp_node *const nd = e->node;
    const int32_t *const lab = e->label;
    hp_arc *const arc = e->arc;
    hp_node *const nv = &nd[v];
    int64_t ex = nv->excess;

    if (nv->sink > 0) {
        const int64_t delta = ex < nv->sink ? ex : nv->sink;
        nv->sink -= (int32_t)delta;
        ex -= delta;
        e->to_sink += delta;
        e->pushes++;
        if (ex == 0) {
            nv->excess = 0;
            bucket_add_inactive(e, v, lab[v]);
            return;
        }
    }
    const int64_t end = e->first[v + 1];
    int64_t pushes = 0; /* a local, so the loop keeps it in a register */
    for (;;) {
        const int32_t dlow = lab[v] - 1;
        int64_t a = nv->cur;
        for (; a < end; a++) {
            const uint32_t r = arc[a].res;
            if (r == 0)
                continue;
            const int32_t w = arc[a].head;
            if (lab[w] != dlow)
                continue;
            const int64_t delta = ex < (int64_t)r ? ex : (int64_t)r;
            arc[a].res = r - (uint32_t)delta;
            arc[arc[a].sister].res += (uint32_t)delta;
            hp_node *const nw = &nd[w];
            if (nw->excess == 0) {
                /* w turns active: move it from the inactive list of its
                 * label to the active stack (it is below v, so amax holds). */
                bucket_remove_inactive(e, w, dlow);
                bucket_push_active(e, w, dlow);
            }
            nw->excess += delta;
            ex -= delta;
            pushes++;
            if (ex == 0)
                break;
        }
        e->pushes += pushes;
        pushes = 0;
        if (a < end) {
            /* Excess gone; arc a may still be admissible, so keep it. */
            nv->cur = a;
            nv->excess = 0;
            bucket_add_inactive(e, v, lab[v]);
            return;
        }
        nv->excess = ex;
        if (!relabel(e, v))
            return;
    }
}

/*
 * The canonical cut (the sink side: the nodes that can reach the sink in
 * the residual graph of the maximum preflow), by reverse breadth-first
 * search over the engine's own arcs, from the nodes with a residual sink
 * arc. DEAD nodes are skipped without a look at the arc: no residual path
 * leads from one to the sink (those that global relabelling left unreached
 * could not reach it then, and only take part in no push afterwards; a gap
 * or a relabel to DEAD kills nodes whose residual arcs all lead to nodes
 * killed with them or before), so the set is the same as a search of the
 * whole graph would give, and the same bytes as every other engine's.
 */
static void engine_cut(const hp_engine *e, uint8_t *cut)
{
    const int32_t n = e->n, dead = e->dead;
    const int64_t *const first = e->first;
    const hp_arc *const arc = e->arc;
    const int32_t *const lab = e->label;
    int32_t *const q = e->queue;
    int64_t qt = 0;
    for (int32_t v = 0; v < n; v++) {
        if (e->node[v].sink > 0) {
            cut[v] = GCUT_SINK;
            q[qt++] = v;
        } else {
            cut[v] = GCUT_SOURCE;
        }
    }
    /* w joins when its arc w->v, the sister of v->w, is residual. */
    for (int64_t qh = 0; qh < qt; qh++) {
        const int32_t v = q[qh];
        for (int64_t a = first[v]; a < first[v + 1]; a++) {
            const int32_t w = arc[a].head;
            if (cut[w] == GCUT_SOURCE && lab[w] != dead && arc[arc[a].sister].res > 0) {
                cut[w] = GCUT_SINK;
                q[qt++] = w;
            }
        }
    }
}

static void engine_free(hp_engine *e)
{
    gcut_i_free(e->arc);
    gcut_i_free(e->node);
    gcut_i_free(e->label);
    gcut_i_free(e->bucket);
    gcut_i_free(e->queue);
    gcut_i_free(e->posl8);
    gcut_i_free(e->posl32);
    gcut_i_free(e->res);
}

/*
 * The order of a node's arcs in the engine's copy. Push-relabel scans arcs
 * in list order (discharge takes the first admissible arc, relabel the first
 * lowest neighbour), so the order decides which paths the excess takes, and
 * the order an input happens to list its arcs in can be pathological: a
 * DIMACS file read into the BCSR puts the reverse arcs of a node's incoming
 * arcs (zero capacity, pointing back to where the flow came from) before its
 * own outgoing arcs when the file lists arcs by tail, and on RLG and genrmf
 * that doubled to quadrupled the pushes and relabels. The engine's order is
 * fixed instead: the arcs of positive capacity first, then the others, each
 * group in a pseudo-random order from a generator seeded by the node (so
 * the order, and every count, is reproducible). perm[i] is the offset, in
 * the BCSR list of v, of the arc at engine position first[v] + i.
 */
static inline uint64_t hp_mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Fisher-Yates, two 32-bit draws from each 64-bit number. */
static inline void hp_shuffle(uint32_t *p, uint32_t len, uint64_t *s)
{
    uint64_t r = 0;
    for (uint32_t i = len, k = 0; i > 1; i--, k ^= 1) {
        if (k == 0)
            r = hp_mix(s);
        const uint32_t j = (uint32_t)(((r & 0xffffffffu) * (uint64_t)i) >> 32);
        r >>= 32;
        const uint32_t t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
}

/* Small groups (the common case) take one of HP_TAB fixed random
 * permutations of their size instead of a shuffle of their own. */
#define HP_TAB_MAX 8
#define HP_TAB 256
typedef struct hp_ptab {
    uint8_t p[HP_TAB_MAX + 1][HP_TAB][HP_TAB_MAX];
} hp_ptab;

static void ptab_fill(hp_ptab *t)
{
    uint64_t seed = 0x6a09e667f3bcc909ULL;
    for (uint32_t len = 0; len <= HP_TAB_MAX; len++) {
        for (uint32_t k = 0; k < HP_TAB; k++) {
            uint32_t q[HP_TAB_MAX];
            for (uint32_t i = 0; i < len; i++)
                q[i] = i;
            hp_shuffle(q, len, &seed);
            for (uint32_t i = 0; i < len; i++)
                t->p[len][k][i] = (uint8_t)q[i];
        }
    }
}

/* posl[a] for the arcs a of v: the positive-capacity arcs take positions
 * 0 .. pos-1 in a random order, the others pos .. deg-1. perm: scratch of
 * the node's degree. */
static inline uint32_t posl_get(const hp_engine *e, int64_t a)
{
    return e->posl8 ? e->posl8[a] : e->posl32[a];
}

static inline void posl_set(hp_engine *e, int64_t a, uint32_t k)
{
    if (e->posl8)
        e->posl8[a] = (uint8_t)k;
    else
        e->posl32[a] = k;
}

static void arc_order(hp_engine *e, const gcut_bcsr *b, int32_t v, const hp_ptab *t,
                      uint32_t *perm)
{
    const int64_t a0 = b->first[v];
    const uint32_t deg = (uint32_t)(b->first[v + 1] - a0);
    const int32_t *const cap = b->cap + a0;
    uint32_t pos = 0;
    for (uint32_t i = 0; i < deg; i++)
        pos += cap[i] > 0;
    uint64_t seed = (uint64_t)(uint32_t)v * 0x2545f4914f6cdd1dULL;
    if (pos <= HP_TAB_MAX && deg - pos <= HP_TAB_MAX) {
        const uint64_t r = hp_mix(&seed);
        const uint8_t *const pp = t->p[pos][r % HP_TAB];
        const uint8_t *const pz = t->p[deg - pos][(r >> 32) % HP_TAB];
        uint32_t ip = 0, iz = 0;
        for (uint32_t i = 0; i < deg; i++)
            posl_set(e, a0 + i, cap[i] > 0 ? pp[ip++] : pos + pz[iz++]);
        return;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < deg; i++)
        if (cap[i] > 0)
            perm[k++] = i;
    for (uint32_t i = 0; i < deg; i++)
        if (cap[i] <= 0)
            perm[k++] = i;
    hp_shuffle(perm, pos, &seed);
    hp_shuffle(perm + pos, deg - pos, &seed);
    for (uint32_t i = 0; i < deg; i++)
        posl_set(e, a0 + perm[i], i);
}

/*
 * After phase I, for phase II: the residuals as an array in BCSR order, in
 * a new array, or written over a 4-byte position map (each entry is read,
 * then replaced by the residual of the arc it points at). NULL: no memory.
 */
static uint32_t *pack_residuals(hp_engine *e, const gcut_bcsr *b)
{
    uint32_t *res = e->posl32;
    if (!res && !(res = gcut_i_malloc_array(b->m > 0 ? b->m : 1, sizeof(uint32_t))))
        return NULL;
    const hp_arc *const arc = e->arc;
    for (int32_t v = 0; v < e->n; v++) {
        const int64_t a0 = b->first[v], a1 = b->first[v + 1];
        for (int64_t a = a0; a < a1; a++)
            res[a] = arc[a0 + posl_get(e, a)].res;
    }
    e->posl32 = NULL;
    gcut_i_free(e->posl8);
    e->posl8 = NULL;
    return res;
}

/*
 * Allocate, cancel terminal capacities, set residuals and excesses. A node
 * with both terminal links sends min(cap_source, cap_sink) straight
 * through: that part of the flow needs no search. What is left is either
 * source capacity (the node starts with that much excess, as if the
 * source's arc were saturated) or sink capacity (node[v].sink), never both.
 * Labels start DEAD: the first global relabelling sets them.
 */
static gcut_status engine_init(hp_engine *e, const gcut_problem *p, int64_t *cancelled)
{
    const gcut_bcsr *b = p->bcsr;
    const int32_t n = b->n;
    memset(e, 0, sizeof *e);
    if (n > INT32_MAX - 2)
        return GCUT_FAIL(GCUT_ERR_OVERFLOW, "cpu-hipr: too many nodes (%d)", (int)n);
    e->n = n;
    e->dead = n + 1;
    e->first = b->first;
    e->arc = gcut_i_malloc_array(b->m > 0 ? b->m : 1, sizeof(hp_arc));
    e->node = gcut_i_malloc_array(n > 0 ? n : 1, sizeof(hp_node));
    e->label = gcut_i_malloc_array(n > 0 ? n : 1, sizeof(int32_t));
    e->bucket = gcut_i_malloc_array((int64_t)n + 2, sizeof(hp_bucket));
    e->queue = gcut_i_malloc_array(n > 0 ? n : 1, sizeof(int32_t));
    int64_t maxdeg = 1;
    for (int32_t v = 0; v < n; v++)
        if (b->first[v + 1] - b->first[v] > maxdeg)
            maxdeg = b->first[v + 1] - b->first[v];
    if (maxdeg > UINT32_MAX) {
        engine_free(e);
        return GCUT_FAIL(GCUT_ERR_OVERFLOW, "cpu-hipr: a node has too many arcs (%lld)",
                         (long long)maxdeg);
    }
    uint32_t *const perm = gcut_i_malloc_array(maxdeg, sizeof(uint32_t));
    hp_ptab *const tab = gcut_i_malloc_array(1, sizeof(hp_ptab));
    void *posl;
    if (maxdeg <= 256)
        posl = e->posl8 = gcut_i_malloc_array(b->m > 0 ? b->m : 1, sizeof(uint8_t));
    else
        posl = e->posl32 = gcut_i_malloc_array(b->m > 0 ? b->m : 1, sizeof(uint32_t));
    if (!e->arc || !e->node || !e->label || !e->bucket || !e->queue || !perm || !tab || !posl) {
        gcut_i_free(perm);
        gcut_i_free(tab);
        engine_free(e);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-hipr: cannot allocate %d nodes and %lld arcs",
                         (int)n, (long long)b->m);
    }
    /* One pass: order v's arcs, copy them, and link each arc to its sister
     * when the second of the two endpoints comes (the sister of an arc
     * v -> w lies in the list of w, placed already when w < v). */
    ptab_fill(tab);
    hp_arc *const arc = e->arc;
    for (int32_t v = 0; v < n; v++) {
        const int64_t a0 = b->first[v], a1 = b->first[v + 1];
        arc_order(e, b, v, tab, perm);
        for (int64_t a = a0; a < a1; a++) {
            const int32_t w = b->head[a];
            const int64_t k = a0 + posl_get(e, a);
            arc[k].res = (uint32_t)b->cap[a];
            arc[k].head = w;
            if (w < v) {
                const int64_t ks = b->first[w] + posl_get(e, b->sister[a]);
                arc[k].sister = ks;
                arc[ks].sister = k;
            }
        }
    }
    gcut_i_free(perm);
    gcut_i_free(tab);
    int64_t c = 0;
    for (int32_t v = 0; v < n; v++) {
        const int32_t cs = p->cap_source[v], ct = p->cap_sink[v];
        const int32_t both = cs < ct ? cs : ct;
        c += both;
        e->node[v].excess = cs - both;
        e->node[v].sink = ct - both;
        e->node[v].cur = b->first[v];
        e->node[v].next = e->node[v].prev = -1;
        e->node[v].unused = 0;
        e->label[v] = e->dead;
    }
    for (int64_t k = 0; k < (int64_t)n + 2; k++)
        e->bucket[k].active = e->bucket[k].inactive = -1;
    e->dmax = e->dead;
    e->work_limit = (double)HP_ALPHA * n + (double)(b->m / 2);
    *cancelled = c;
    return GCUT_OK;
}

/*
 * Phase I: highest-label discharges until no live node is active. amax only
 * over-estimates the highest active label (it is lowered lazily here), so
 * popping from it is O(1) amortised: it rises only with a relabel. Global
 * relabelling runs when the relabel work since the last one outweighs
 * HP_ALPHA * n + m (scaled by HP_FREQ). The clock is read every
 * HP_CLOCK_EVERY discharges and after each global relabelling.
 */
static gcut_status phase1(hp_engine *e)
{
    int32_t clock = 0;
    gcut_status st;
    global_relabel(e);
    while (e->amax > 0) {
        const int32_t v = e->bucket[e->amax].active;
        if (v < 0) {
            e->amax--;
            continue;
        }
        e->bucket[e->amax].active = e->node[v].next;
        discharge(e, v);
        if ((double)e->work * HP_FREQ > e->work_limit) {
            global_relabel(e);
            if ((st = gcut_i_poll("solve", e->amax, "highest active label")) != GCUT_OK)
                return st;
        }
        if (++clock == HP_CLOCK_EVERY) {
            clock = 0;
            if ((st = gcut_i_poll("solve", e->amax, "highest active label")) != GCUT_OK)
                return st;
        }
    }
    return GCUT_OK;
}

static gcut_status hipr_solve(void *state, const gcut_problem *p, const gcut_solve_options *opt,
                              gcut_solution *sol)
{
    gcut_stats *stats = sol->stats;
    if (!p->bcsr)
        return GCUT_FAIL(GCUT_ERR_INTERNAL, "cpu-hipr: no BCSR layout was given");
    if (gcut_i_params_none(opt->params, "cpu-hipr") != GCUT_OK)
        return GCUT_ERR_INVALID;
    double t0 = gcut_i_now_ms();
    hp_engine e;
    int64_t cancelled = 0;
    gcut_status st = engine_init(&e, p, &cancelled);
    if (st != GCUT_OK)
        return st;
    const int32_t n = e.n;
    int64_t *tmp = NULL;
    if (sol->edge_flows && !(tmp = gcut_i_malloc_array(n > 0 ? n : 1, sizeof(int64_t)))) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-hipr: cannot allocate %d nodes", (int)n);
        goto done;
    }
    stats->init_ms = gcut_i_now_ms() - t0;

    t0 = gcut_i_now_ms();
    st = phase1(&e);
    if (st != GCUT_OK)
        goto done;
    stats->solve_ms = gcut_i_now_ms() - t0;

    /* The canonical cut from the maximum preflow (same set as from any
     * maximum flow, so it can be taken before phase II). */
    if ((st = gcut_i_poll("cut", -1, NULL)) != GCUT_OK)
        goto done;
    t0 = gcut_i_now_ms();
    engine_cut(&e, sol->cut);
    stats->cut_ms = gcut_i_now_ms() - t0;

    if (sol->edge_flows) {
        if ((st = gcut_i_poll("flows", -1, NULL)) != GCUT_OK)
            goto done;
        t0 = gcut_i_now_ms();
        if (!(e.res = pack_residuals(&e, p->bcsr))) {
            st = GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-hipr: cannot allocate %lld residuals",
                           (long long)p->bcsr->m);
            goto done;
        }
        gcut_i_free(e.arc); /* phase II reads only e.res */
        e.arc = NULL;
        for (int32_t v = 0; v < n; v++)
            tmp[v] = e.node[v].excess;
        st = gcut_i_flows_from_preflow(p, e.res, tmp, sol->edge_flows, "cpu-hipr");
        stats->flow_ms = gcut_i_now_ms() - t0;
        if (st != GCUT_OK)
            goto done;
    }
    /* The value: what cancelling sent straight through plus what reached
     * the sink. Excess stranded at dead nodes is not flow (phase II gives
     * it back to the source). */
    sol->flow = cancelled + e.to_sink;
    stats->pushes = e.pushes;
    stats->relabels = e.relabels;
    stats->global_relabels = e.global_relabels;
    stats->gap_nodes = e.gap_nodes;
    stats->threads = 1;
    gcut_i_log(opt, GCUT_LOG_INFO,
               "cpu-hipr: flow %lld, %lld pushes, %lld relabels, %lld global relabels, "
               "%lld gap nodes, phase I %.1f ms",
               (long long)sol->flow, (long long)e.pushes, (long long)e.relabels,
               (long long)e.global_relabels, (long long)e.gap_nodes, stats->solve_ms);
done:
    gcut_i_free(tmp);
    engine_free(&e);
    return st;
}

const gcut_backend gcut_i_backend_hipr = GCUT_BACKEND_ASSIGN(
    "cpu-hipr", "highest-label push-relabel (Cherkassky-Goldberg hi_pr design)",
    GCUT_BACKEND_GRAPH | GCUT_BACKEND_FLOWS | GCUT_BACKEND_NEEDS_BCSR, NULL, NULL, hipr_solve,
    NULL, NULL);
