/*
 * bk.c - cpu-bk: the Boykov-Kolmogorov max-flow algorithm.
 *
 *   Y. Boykov and V. Kolmogorov, "An experimental comparison of
 *   min-cut/max-flow algorithms for energy minimization in vision",
 *   IEEE Trans. PAMI 26(9):1124-1137, 2004;
 *
 * with the adoption heuristic of Kolmogorov's later versions (v3): every
 * node carries a timestamp and a distance to its tree's terminal, and an
 * orphan picks, among its possible parents, the one closest to the
 * terminal, walking up each candidate's path only as far as the first node
 * already measured in this adoption phase.
 *
 * Two search trees grow from the terminals: S, whose nodes the source
 * reaches through non-saturated arcs, and T, whose nodes reach the sink.
 * Three stages repeat:
 *   growth       an active node scans its arcs, adopts free neighbours
 *                into its tree, and stops when it touches the other tree;
 *   augmentation the path source -> S ... S -> T ... T -> sink is pushed
 *                its bottleneck; nodes whose parent arc saturates become
 *                orphans;
 *   adoption     each orphan looks for a new parent in its own tree (one
 *                whose path reaches the terminal); failing that it becomes
 *                free, and its children become orphans in turn.
 * The algorithm stops when no active node is left: then no augmenting path
 * exists and the flow is maximum. Unlike push-relabel it never leaves
 * excess behind, so the residual graph is a valid flow at every moment.
 *
 * Invariants:
 *   - node v of S with parent arc p (the arc parent -> v, listed under
 *     the parent): the residual of p is positive; in T, the residual of
 *     its sister v -> parent is positive. A node whose parent is
 *     BK_TERMINAL has tr_cap > 0 (S) or tr_cap < 0 (T).
 *   - going up a tree, (ts, -dist) strictly increases in lexicographic
 *     order: ts never decreases towards the root, and between nodes of
 *     equal ts the distance drops by at least one per step. The growth
 *     heuristic re-parents j under i only when (j.ts, -j.dist) <
 *     (i.ts, -i.dist), so i cannot be j's descendant and trees stay acyclic.
 *   - a node with ts == time (the current adoption phase) has an exact
 *     distance: its path to the terminal was walked in this phase and
 *     contains no orphan.
 *   - arc residuals are mirrored: rr[a].rev == rr[sister(a)].res, so a
 *     scan reads the residual in either direction from one place.
 *     res + rev = cap + rev_cap < 2^32 always.
 *   - |tr_cap| only decreases, so it stays within int32.
 *   - at the end, T is exactly the set of nodes that reach the sink in the
 *     residual graph. Every node of T reaches the sink along its tree
 *     path. Conversely, every node with residual to the sink is a root of
 *     T (it starts as one, and only a root whose tr_cap reaches 0 loses
 *     its terminal), and a passive node w of T has every node v with
 *     residual v -> w in T: w's last scan put each such v into T (or met
 *     S and augmented, and w scans again); a residual v -> w appears
 *     later only when flow runs w -> v, i.e. v is w's parent in T (S
 *     paths carry no flow out of T); and when v leaves T, adoption
 *     re-activates every w of T with residual v -> w. So the canonical
 *     cut is read off the trees, with no search (as in bk_grid.c).
 *
 * Cost: O(m n^2 |C|) in the worst case (|C| the cut capacity); close to
 * linear on vision grids. Memory: 12 bytes per arc (besides the layout's
 * head array, read in place) and 36 per node; 16 per arc kept with the
 * graph's layouts.
 *
 * The records are part of the graph's layouts (gcut_i_bk_layout): filled
 * from the BCSR in the layout stage of the first cpu-bk solve of a graph
 * (gcut_solve times it as the layout build), kept with the BCSR and dropped
 * with it. Every solve starts cold, from the capacities: a solve after the
 * first restores them (bk_restore_arcs) on memory already faulted in,
 * from the capacities and a copy of the sisters' kept with the records,
 * without the fill's gather through the sister array. A solve that finds
 * the records taken by a concurrent solve of the same graph (or is called
 * without the graph, through the back-end table) fills records of its
 * own, as every solve did before.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/solvers_internal.h"

/* Special parent values (real parents are arc indices >= 0). */
#define BK_TERMINAL ((int64_t)-1)
#define BK_ORPHAN ((int64_t)-2)

/* Tree membership. */
enum { BK_FREE = 0, BK_S = 1, BK_T = 2 };

/* No node (end of the queue, "not found"). */
#define BK_NONE ((int32_t)-1)

/* How many main-loop steps between two looks at the clock. */
#define BK_CLOCK_EVERY 4096

/* The residuals of an arc (12 bytes): its own and its sister's, mirrored,
 * so that a scan reads the residual in either direction from one place,
 * and the offset to its sister, so that a push finds the sister without a
 * second dependent miss (an offset that does not fit int32 holds BK_FAR
 * and the sister is read from bcsr->sister). The arc's head is read from
 * the layout (bcsr->head): the set-up writes 12 bytes an arc, not 16. */
typedef struct bk_rr {
    uint32_t res;  /* residual of this arc */
    uint32_t rev;  /* residual of its sister (the arc head -> tail) */
    int32_t sdiff; /* sister - this arc, or BK_FAR (read bcsr->sister) */
} bk_rr;

#define BK_FAR INT32_MIN

typedef struct bk_node {
    int64_t parent; /* arc from the parent to this node, BK_TERMINAL or BK_ORPHAN */
    int32_t pnode;  /* the parent node (tail of the parent arc), for walks up */
    int32_t ts;     /* adoption phase in which dist was last known exact */
    int32_t next;   /* active-queue link: BK_NONE if not active, itself if last */
    int32_t dist;   /* arcs to the tree's terminal (terminal arc included) */
    int32_t tr_cap; /* > 0: residual from the source; < 0: residual to the sink */
    uint8_t tree;   /* BK_FREE, BK_S or BK_T */
} bk_node;

typedef struct bk_solver {
    int32_t n;
    const int64_t *first;  /* bcsr->first */
    const int32_t *head;   /* bcsr->head */
    const int64_t *sister; /* bcsr->sister */
    bk_rr *rr;             /* residual pairs, one per arc */
    bk_node *nodes;
    int32_t qhead, qtail;  /* FIFO of active nodes, linked through next */
    int32_t *orphans;      /* FIFO of orphans of this adoption phase */
    int64_t ohead, otail;  /* orphans[ohead .. otail) are pending */
    int32_t time;          /* the current adoption phase */
    int32_t time_limit;    /* last phase number before renumbering (ts_limit) */
    int64_t flow;
    int64_t augmentations;
    int64_t path_arcs;
} bk_solver;

/* ------------------------------------------------------------ small helpers */

static inline void bk_activate(bk_solver *s, int32_t v)
{
    bk_node *nv = &s->nodes[v];
    if (nv->next != BK_NONE)
        return; /* already queued (or the node being processed) */
    nv->next = v;
    if (s->qtail == BK_NONE)
        s->qhead = v;
    else
        s->nodes[s->qtail].next = v;
    s->qtail = v;
}

/* Next active node still in a tree; nodes freed after they were queued are
 * dropped here. Returns BK_NONE when the queue is empty. */
static inline int32_t bk_pop_active(bk_solver *s)
{
    while (s->qhead != BK_NONE) {
        const int32_t v = s->qhead;
        bk_node *nv = &s->nodes[v];
        if (nv->next == v)
            s->qhead = s->qtail = BK_NONE;
        else
            s->qhead = nv->next;
        nv->next = BK_NONE;
        if (nv->tree != BK_FREE)
            return v;
    }
    return BK_NONE;
}

/* A node loses its parent. It enters the orphan FIFO at most once per
 * adoption phase, so n slots suffice: a node that finds a new parent hangs
 * below a path just verified to reach the terminal without orphans, and
 * nothing on such a path can lose its parent again before the phase ends. */
static inline void bk_make_orphan(bk_solver *s, int32_t v)
{
    s->nodes[v].parent = BK_ORPHAN;
    s->orphans[s->otail++] = v;
}

static inline int64_t bk_sister(const bk_solver *s, int64_t a)
{
    const int32_t d = s->rr[a].sdiff;
    return d != BK_FAR ? a + d : s->sister[a];
}

/* Push f units along arc a (and take them off its sister). */
static inline void bk_push(bk_solver *s, int64_t a, uint32_t f)
{
    const int64_t b = bk_sister(s, a);
    s->rr[a].res -= f;
    s->rr[a].rev += f;
    s->rr[b].res += f;
    s->rr[b].rev -= f;
}

/* ------------------------------------------------------------------ growth */

/* Grow the tree of active node i by one scan of its arcs. Returns the arc
 * joining the trees, oriented from S to T (its tail is *from), or -1. A
 * node that joins (or moves) under i gets the arc i -> j as its parent
 * arc. */
static int64_t bk_grow(bk_solver *s, int32_t i, int32_t *from)
{
    bk_node *const nodes = s->nodes;
    const bk_rr *const rr = s->rr;
    const int32_t *const head = s->head;
    bk_node *ni = &nodes[i];
    const int64_t end = s->first[i + 1];
    if (ni->tree == BK_S) {
        for (int64_t a = s->first[i]; a < end; a++) {
            if (!rr[a].res)
                continue;
            const int32_t j = head[a];
            bk_node *nj = &nodes[j];
            if (nj->tree == BK_FREE) {
                nj->tree = BK_S;
                nj->parent = a;
                nj->pnode = i;
                nj->ts = ni->ts;
                nj->dist = ni->dist + 1;
                bk_activate(s, j);
            } else if (nj->tree == BK_T) {
                *from = i;
                return a;
            } else if (nj->ts <= ni->ts && nj->dist > ni->dist) {
                /* j is no closer to the source than i: hang it under i,
                 * shortening its path (this never makes a cycle, see the
                 * invariants at the top). */
                nj->parent = a;
                nj->pnode = i;
                nj->ts = ni->ts;
                nj->dist = ni->dist + 1;
            }
        }
    } else {
        /* T grows backwards: j joins if j -> i has residual capacity. */
        for (int64_t a = s->first[i]; a < end; a++) {
            if (!rr[a].rev)
                continue;
            const int32_t j = head[a];
            bk_node *nj = &nodes[j];
            if (nj->tree == BK_FREE) {
                nj->tree = BK_T;
                nj->parent = a;
                nj->pnode = i;
                nj->ts = ni->ts;
                nj->dist = ni->dist + 1;
                bk_activate(s, j);
            } else if (nj->tree == BK_S) {
                *from = j;
                return bk_sister(s, a);
            } else if (nj->ts <= ni->ts && nj->dist > ni->dist) {
                nj->parent = a;
                nj->pnode = i;
                nj->ts = ni->ts;
                nj->dist = ni->dist + 1;
            }
        }
    }
    return -1;
}

/* ------------------------------------------------------------ augmentation */

/* Push the bottleneck along source -> ... -> u -a-> v -> ... -> sink and
 * orphan the nodes whose parent arc (or terminal arc) saturates. */
static void bk_augment(bk_solver *s, int32_t u, int64_t a)
{
    bk_node *const nodes = s->nodes;
    bk_rr *const rr = s->rr;
    const int32_t v = s->head[a];
    int64_t len = 1;

    /* Bottleneck: the joining arc, the S path (flow runs parent -> child,
     * along the parent arc: its res), the T path (flow runs child ->
     * parent, against the parent arc: its rev), and the two terminal
     * arcs. */
    uint32_t f = rr[a].res;
    int32_t x = u;
    for (;;) {
        const int64_t p = nodes[x].parent;
        if (p == BK_TERMINAL) {
            if ((uint32_t)nodes[x].tr_cap < f)
                f = (uint32_t)nodes[x].tr_cap;
            break;
        }
        if (rr[p].res < f)
            f = rr[p].res;
        x = nodes[x].pnode;
        len++;
    }
    x = v;
    for (;;) {
        const int64_t p = nodes[x].parent;
        if (p == BK_TERMINAL) {
            if ((uint32_t)-nodes[x].tr_cap < f)
                f = (uint32_t)-nodes[x].tr_cap;
            break;
        }
        if (rr[p].rev < f)
            f = rr[p].rev;
        x = nodes[x].pnode;
        len++;
    }

    bk_push(s, a, f);
    x = u;
    for (;;) {
        const int64_t p = nodes[x].parent;
        if (p == BK_TERMINAL) {
            nodes[x].tr_cap -= (int32_t)f;
            if (nodes[x].tr_cap == 0)
                bk_make_orphan(s, x);
            break;
        }
        const int32_t up = nodes[x].pnode;
        bk_push(s, p, f);
        if (rr[p].res == 0)
            bk_make_orphan(s, x);
        x = up;
    }
    x = v;
    for (;;) {
        const int64_t p = nodes[x].parent;
        if (p == BK_TERMINAL) {
            nodes[x].tr_cap += (int32_t)f;
            if (nodes[x].tr_cap == 0)
                bk_make_orphan(s, x);
            break;
        }
        /* The flow runs x -> parent, against the parent arc p. */
        const int32_t up = nodes[x].pnode;
        const int64_t b = bk_sister(s, p);
        rr[b].res -= f;
        rr[b].rev += f;
        rr[p].res += f;
        rr[p].rev -= f;
        if (rr[p].rev == 0)
            bk_make_orphan(s, x);
        x = up;
    }
    s->flow += f;
    s->augmentations++;
    s->path_arcs += len + 2; /* with the two terminal arcs */
}

/* ---------------------------------------------------------------- adoption */

/* Distance from j to its tree's terminal, walking up to the first node
 * measured in this phase; INT64_MAX if the path meets an orphan. */
static inline int64_t bk_origin_dist(bk_solver *s, int32_t j)
{
    bk_node *const nodes = s->nodes;
    int64_t d = 0;
    for (;;) {
        bk_node *nj = &nodes[j];
        if (nj->ts == s->time)
            return d + nj->dist;
        const int64_t p = nj->parent;
        d++;
        if (p == BK_TERMINAL) {
            nj->ts = s->time;
            nj->dist = 1;
            return d;
        }
        if (p == BK_ORPHAN)
            return INT64_MAX;
        j = nj->pnode;
    }
}

/* Stamp the path from j (whose distance is d) up to the first stamped node,
 * so that later walks of this phase stop early. */
static inline void bk_stamp(bk_solver *s, int32_t j, int64_t d)
{
    bk_node *const nodes = s->nodes;
    while (nodes[j].ts != s->time) {
        nodes[j].ts = s->time;
        nodes[j].dist = (int32_t)d--;
        j = nodes[j].pnode;
    }
}

/* Find orphan i a new parent in its tree, or free it. `tree` is i's tree;
 * scanning arc a = i -> j, in S a parent j needs residual j -> i (the rev
 * of a), in T it needs residual i -> j (res). The new parent arc is the
 * sister of a. */
static void bk_process_orphan(bk_solver *s, int32_t i)
{
    bk_node *const nodes = s->nodes;
    const bk_rr *const rr = s->rr;
    const int32_t *const head = s->head;
    const uint8_t tree = nodes[i].tree;
    const int64_t beg = s->first[i], end = s->first[i + 1];
    int64_t best = BK_ORPHAN, d_min = INT64_MAX;

    for (int64_t a = beg; a < end; a++) {
        const uint32_t r = tree == BK_S ? rr[a].rev : rr[a].res;
        if (!r)
            continue;
        const int32_t j = head[a];
        if (nodes[j].tree != tree)
            continue;
        const int64_t d = bk_origin_dist(s, j);
        if (d == INT64_MAX)
            continue;
        if (d < d_min) {
            best = a;
            d_min = d;
        }
        bk_stamp(s, j, d);
    }

    if (best != BK_ORPHAN) {
        nodes[i].parent = bk_sister(s, best);
        nodes[i].pnode = head[best];
        nodes[i].ts = s->time;
        nodes[i].dist = (int32_t)(d_min + 1);
        return;
    }

    /* No parent: i becomes free. Neighbours of its tree that could grow
     * into it again become active; its children become orphans. */
    nodes[i].tree = BK_FREE;
    for (int64_t a = beg; a < end; a++) {
        const int32_t j = head[a];
        bk_node *nj = &nodes[j];
        if (nj->tree != tree)
            continue;
        const uint32_t r = tree == BK_S ? rr[a].rev : rr[a].res;
        if (r)
            bk_activate(s, j);
        if (nj->parent >= 0 && nj->pnode == i)
            bk_make_orphan(s, j);
    }
}

/* The augmentation found its orphans walking from the joining arc towards
 * the terminals. Adopting the ones nearest the terminals first gives those
 * below them parents with a verified path to choose from, so the list is
 * turned round. */
static void bk_reverse_orphans(bk_solver *s)
{
    for (int64_t lo = 0, hi = s->otail - 1; lo < hi; lo++, hi--) {
        const int32_t t = s->orphans[lo];
        s->orphans[lo] = s->orphans[hi];
        s->orphans[hi] = t;
    }
}

static void bk_adopt(bk_solver *s)
{
    while (s->ohead != s->otail) {
        const int32_t i = s->orphans[s->ohead++];
        bk_process_orphan(s, i);
    }
    s->ohead = s->otail = 0;
}

/* The phase counter is 32 bits. Before it wraps, every timestamp is reset
 * to 0 and every distance set to the node's exact depth in its tree; exact
 * depths satisfy the ordering invariant with all timestamps equal, so the
 * trees stay acyclic under later re-parenting. O(n), once per 2^31 phases.
 * The orphan FIFO (empty between phases) is the walk's stack; ts = 1 marks
 * nodes whose depth is already known. */
static void bk_renumber_phases(bk_solver *s)
{
    bk_node *const nodes = s->nodes;
    int32_t *const stack = s->orphans;
    for (int32_t v = 0; v < s->n; v++)
        nodes[v].ts = 0;
    for (int32_t v = 0; v < s->n; v++) {
        if (nodes[v].tree == BK_FREE || nodes[v].ts)
            continue;
        int32_t top = 0, x = v;
        while (!nodes[x].ts && nodes[x].parent != BK_TERMINAL) {
            stack[top++] = x;
            x = nodes[x].pnode;
        }
        if (!nodes[x].ts) {
            nodes[x].ts = 1;
            nodes[x].dist = 1;
        }
        int32_t d = nodes[x].dist;
        while (top > 0) {
            x = stack[--top];
            nodes[x].ts = 1;
            nodes[x].dist = ++d;
        }
    }
    for (int32_t v = 0; v < s->n; v++)
        nodes[v].ts = 0;
    s->time = 0;
}

/* ---------------------------------------------------------------- driver */

/* The arc records as the layout gives them: every residual its capacity,
 * every mirror its sister's capacity (also written to rev0 unless NULL). */
static void bk_fill_arcs(bk_rr *rr, uint32_t *rev0, const gcut_bcsr *b)
{
    for (int64_t a = 0; a < b->m; a++) {
        rr[a].res = (uint32_t)b->cap[a];
        const int64_t sa = b->sister[a], d = sa - a;
        rr[a].rev = (uint32_t)b->cap[sa];
        if (rev0)
            rev0[a] = rr[a].rev;
        rr[a].sdiff = d > INT32_MIN && d <= INT32_MAX ? (int32_t)d : BK_FAR;
    }
}

/* Kept records that a solve has run on hold its residuals: every arc gets
 * its capacity back, and its mirror the sister's, kept in rev0 when the
 * records were filled (reading it through the sister would be a gather:
 * on a power-law graph of 16 M arcs 0.25 s, against 0.03 s for the two
 * streams). It writes every record, on memory already faulted in. Marking
 * the nodes (or blocks of 64 nodes) a solve pushed through and restoring
 * only their arcs was slower (bench/results/bk-2026-11-27h.md): on a
 * vision grid those nodes are fewer than a fifth but everywhere, and the
 * marks cost augmentations. */
static void bk_restore_arcs(bk_rr *rr, const uint32_t *rev0, const gcut_bcsr *b)
{
    for (int64_t a = 0; a < b->m; a++) {
        rr[a].res = (uint32_t)b->cap[a];
        rr[a].rev = rev0[a];
    }
}

/* Cancel min(cap_source, cap_sink) and plant the two forests: every node
 * with residual from the source is an active root of S, every node with
 * residual to the sink one of T. */
static void bk_init_nodes(bk_solver *s, const gcut_problem *p)
{
    s->qhead = s->qtail = BK_NONE;
    for (int32_t v = 0; v < s->n; v++) {
        bk_node *nv = &s->nodes[v];
        const int32_t cs = p->cap_source[v], ck = p->cap_sink[v];
        s->flow += cs < ck ? cs : ck;
        nv->tr_cap = cs - ck;
        nv->next = BK_NONE;
        nv->ts = 0;
        nv->dist = 1;
        nv->parent = BK_TERMINAL;
        nv->pnode = BK_NONE;
        if (nv->tr_cap != 0) {
            nv->tree = nv->tr_cap > 0 ? BK_S : BK_T;
            bk_activate(s, v);
        } else {
            nv->tree = BK_FREE;
        }
    }
}

/* The main loop. After an augmentation the same node grows again (it may
 * touch the other tree through further arcs) before the queue moves on;
 * while it is being processed its next field points to itself, so that
 * adoption does not queue it a second time. */
static gcut_status bk_run(bk_solver *s)
{
    gcut_status st;
    int32_t cur = BK_NONE;
    int64_t steps = 0;
    for (;;) {
        int32_t i = BK_NONE;
        if (cur != BK_NONE) {
            s->nodes[cur].next = BK_NONE;
            if (s->nodes[cur].tree != BK_FREE)
                i = cur;
        }
        if (i == BK_NONE && (i = bk_pop_active(s)) == BK_NONE)
            return GCUT_OK;

        int32_t u;
        const int64_t a = bk_grow(s, i, &u);
        if (s->time == s->time_limit)
            bk_renumber_phases(s);
        s->time++;
        if (a >= 0) {
            s->nodes[i].next = i;
            cur = i;
            bk_augment(s, u, a);
            bk_reverse_orphans(s);
            bk_adopt(s);
        } else {
            cur = BK_NONE;
        }
        /* BK knows no measure of the work left: none is reported. */
        if (++steps % BK_CLOCK_EVERY == 0 && (st = gcut_i_poll("solve", -1, NULL)) != GCUT_OK)
            return st;
    }
}

/* Parse opt->params for both cpu-bk engines (graph and grid). The one key,
 * ts_limit, lowers the phase number at which timestamps are renumbered
 * (default `max`) so that tests can exercise the renumbering on small
 * inputs. */
gcut_status gcut_i_bk_parse_params(const char *str, int64_t max, int64_t *ts_limit)
{
    *ts_limit = max;
    gcut_i_param p;
    int r;
    while ((r = gcut_i_param_next(&str, "cpu-bk", &p)) > 0) {
        if (strcmp(p.key, "ts_limit") != 0)
            return gcut_i_param_unknown(&p, "cpu-bk", "ts_limit");
        gcut_status st = gcut_i_param_int(&p, "cpu-bk", 1, max, ts_limit);
        if (st != GCUT_OK)
            return st;
    }
    return r < 0 ? GCUT_ERR_INVALID : GCUT_OK;
}

/* The records a solve works on: the graph's kept ones (gcut_i_bk_layout)
 * or fresh ones of one solve. */
typedef struct bk_store {
    int32_t n;
    int64_t m;
    bk_rr *rr;
    bk_node *nodes;
    int32_t *orphans;
    uint32_t *rev0; /* kept records: every arc's sister's capacity */
    int state;      /* BK_FILLED, BK_USED or BK_PACKED */
} bk_store;

/* The arc records as bk_fill_arcs left them; as a solve left them (to be
 * restored); or spoilt by gcut_i_pack_residuals (per-edge flows), to be
 * filled again. */
enum { BK_FILLED = 0, BK_USED = 1, BK_PACKED = 2 };

void gcut_i_bk_free(void *kept)
{
    bk_store *st = kept;
    if (!st)
        return;
    gcut_i_free(st->rr);
    gcut_i_free(st->nodes);
    gcut_i_free(st->orphans);
    gcut_i_free(st->rev0);
    gcut_i_free(st);
}

/* Allocate the records of a graph of n nodes and b->m arcs (with rev0 if
 * `kept`) and fill the arcs (bk_fill_arcs); the nodes are written by every
 * solve. */
static gcut_status bk_store_alloc(bk_store *st, int32_t n, const gcut_bcsr *b, int kept)
{
    st->n = n;
    st->m = b->m;
    st->rr = gcut_i_malloc_array(b->m, sizeof(bk_rr));
    st->nodes = gcut_i_malloc_array(n, sizeof(bk_node));
    st->orphans = gcut_i_malloc_array(n, sizeof(int32_t));
    st->rev0 = kept ? gcut_i_malloc_array(b->m, sizeof(uint32_t)) : NULL;
    if ((b->m && (!st->rr || (kept && !st->rev0))) || (n && (!st->nodes || !st->orphans)))
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-bk: cannot allocate %d nodes and %lld arcs", (int)n,
                         (long long)b->m);
    gcut_i_advise_huge(st->rr, (size_t)b->m * sizeof(bk_rr));
    gcut_i_advise_huge(st->nodes, (size_t)n * sizeof(bk_node));
    bk_fill_arcs(st->rr, st->rev0, b);
    return GCUT_OK;
}

gcut_status gcut_i_bk_layout(void **kept, const gcut_problem *p, const gcut_solve_options *opt)
{
    (void)opt;
    const gcut_bcsr *b = p->bcsr;
    const bk_store *old = *kept;
    if (old && old->n == p->num_nodes && old->m == b->m)
        return GCUT_OK;
    gcut_i_bk_free(*kept);
    *kept = NULL;
    bk_store *st = gcut_i_calloc(1, sizeof *st);
    if (!st)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-bk: cannot allocate its records");
    gcut_status r = bk_store_alloc(st, p->num_nodes, b, 1);
    if (r != GCUT_OK) {
        gcut_i_bk_free(st);
        return r;
    }
    *kept = st;
    return GCUT_OK;
}

/* One solve on the records of st: the graph's kept ones or fresh ones of
 * this solve (state BK_FILLED). t0: when the solve began. */
static gcut_status bk_solve_on(bk_store *st, const gcut_problem *p, const gcut_solve_options *opt,
                               gcut_solution *sol, double t0)
{
    const gcut_bcsr *b = p->bcsr;
    const int32_t n = p->num_nodes;
    bk_solver s;
    memset(&s, 0, sizeof s);
    int64_t ts_limit;
    gcut_status r = gcut_i_bk_parse_params(opt->params, INT32_MAX, &ts_limit);
    if (r != GCUT_OK)
        return r;
    s.time_limit = (int32_t)ts_limit;
    s.n = n;
    s.first = b->first;
    s.head = b->head;
    s.sister = b->sister;
    s.rr = st->rr;
    s.nodes = st->nodes;
    s.orphans = st->orphans;
    if (st->state == BK_PACKED)
        bk_fill_arcs(st->rr, NULL, b);
    else if (st->state == BK_USED)
        bk_restore_arcs(st->rr, st->rev0, b);
    st->state = BK_USED;
    bk_init_nodes(&s, p);
    sol->stats->init_ms = gcut_i_now_ms() - t0;

    t0 = gcut_i_now_ms();
    if ((r = bk_run(&s)) != GCUT_OK)
        return r;
    sol->stats->solve_ms = gcut_i_now_ms() - t0;
    sol->stats->augmentations = s.augmentations;
    sol->stats->pushes = s.path_arcs;
    gcut_i_log(opt, GCUT_LOG_DEBUG, "cpu-bk: flow %lld, %lld augmentations, %lld path arcs",
               (long long)s.flow, (long long)s.augmentations, (long long)s.path_arcs);

    /* The canonical cut is T: at the end T is exactly the set of nodes
     * that reach the sink in the residual graph (see the invariants at the
     * top), so it is read off the trees with no search. */
    if ((r = gcut_i_poll("cut", -1, NULL)) != GCUT_OK)
        return r;
    t0 = gcut_i_now_ms();
    for (int32_t v = 0; v < n; v++)
        sol->cut[v] = s.nodes[v].tree == BK_T ? GCUT_SINK : GCUT_SOURCE;
    sol->stats->cut_ms = gcut_i_now_ms() - t0;
    if (sol->edge_flows) {
        if ((r = gcut_i_poll("flows", -1, NULL)) != GCUT_OK)
            return r;
        t0 = gcut_i_now_ms();
        /* The residuals, packed into the front of the arc records: kept
         * ones are filled again by the next solve. */
        st->state = BK_PACKED;
        const uint32_t *res =
            gcut_i_pack_residuals(s.rr, sizeof(bk_rr), offsetof(bk_rr, res), b->m);
        gcut_i_edge_flows_from_residual(b, res, p->num_edges, sol->edge_flows);
        sol->stats->flow_ms = gcut_i_now_ms() - t0;
    }
    sol->flow = s.flow;
    return GCUT_OK;
}

gcut_status gcut_i_bk_solve_kept(void **kept, const gcut_problem *p, const gcut_solve_options *opt,
                                 int warm, gcut_solution *sol)
{
    (void)warm; /* every solve is cold */
    return bk_solve_on(*kept, p, opt, sol, gcut_i_now_ms());
}

static gcut_status bk_solve(void *state, const gcut_problem *p, const gcut_solve_options *opt,
                            gcut_solution *sol)
{
    (void)state;
    const double t0 = gcut_i_now_ms();
    int64_t ts_limit;
    gcut_status r = gcut_i_bk_parse_params(opt->params, INT32_MAX, &ts_limit);
    if (r != GCUT_OK)
        return r;
    bk_store st;
    memset(&st, 0, sizeof st);
    r = bk_store_alloc(&st, p->num_nodes, p->bcsr, 0);
    if (r == GCUT_OK)
        r = bk_solve_on(&st, p, opt, sol, t0);
    gcut_i_free(st.rr);
    gcut_i_free(st.nodes);
    gcut_i_free(st.orphans);
    return r;
}

const gcut_backend gcut_i_backend_bk = GCUT_BACKEND_ASSIGN(
    "cpu-bk", "Boykov-Kolmogorov augmenting paths with search trees (vision grids)",
    GCUT_BACKEND_GRAPH | GCUT_BACKEND_GRID | GCUT_BACKEND_FLOWS | GCUT_BACKEND_NEEDS_BCSR, NULL,
    gcut_i_bk_grid_create, bk_solve, gcut_i_bk_grid_solve, gcut_i_bk_grid_destroy);
