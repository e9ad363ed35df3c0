/*
 * eibfs.c - cpu-eibfs: excess incremental breadth-first search on general
 * graphs, with warm re-solve after terminal capacities change.
 *
 *   A. V. Goldberg, S. Hed, H. Kaplan, R. E. Tarjan, R. F. Werneck,
 *   "Maximum flows by incremental breadth-first search", ESA 2011 (IBFS:
 *   two search trees whose labels are breadth-first distances, grown a
 *   level at a time; orphans re-hung at their own level or relabelled,
 *   without walks to the root);
 *
 *   A. V. Goldberg, S. Hed, H. Kaplan, P. Kohli, R. E. Tarjan, R. F.
 *   Werneck, "Faster and more dynamic maximum flow by incremental
 *   breadth-first search", ESA 2015 (EIBFS: pseudoflow, excess at tree
 *   roots, the whole residual of a meeting arc crosses at once, and the
 *   dynamic re-solve after capacities change).
 *
 * This file is written from the papers; cpu-bk's grid engine (bk_grid.c)
 * has an excess-IBFS start of its own, this is the general-graph engine.
 *
 * Pseudoflow. Every node v has an excess ex[v] = cap_source - cap_sink -
 * (net flow out of v through the arcs): the terminal arcs are taken as
 * saturated (after cancelling min(cap_source, cap_sink)), so a positive
 * excess is what v may still send, a negative one (a deficit) what it may
 * still pass to the sink. Two forests grow: S, rooted at nodes of positive
 * excess, whose nodes the roots reach through residual arcs, and T, rooted
 * at deficits, whose nodes reach them. Every node has a label d; a tree arc
 * joins a child of label d + 1 to its parent of label d, so labels fall
 * strictly towards the roots and the forests are acyclic whatever else
 * happens. Roots of the first forests have label 0.
 *
 * Growth. An active node v scans its arcs: a free neighbour joins v's tree
 * as a child of label d(v) + 1 (breadth-first: each tree has a FIFO of its
 * active nodes, so its labels grow a level at a time, and the two trees
 * take turns, one node each); a neighbour of the other tree closes
 * an S -> T residual arc (x, y), and as much as the arc, both roots and
 * the tree arcs between allow crosses at once (the walk up to the roots
 * reads each tree arc's residual on the way; the mirrored arcs hold both
 * directions, so this costs no extra access). x is left with a deficit
 * and y with an excess, which the drains carry to the roots without
 * leaving any at the node below a saturated tree arc. The arc is looked at
 * again, since a root or a tree arc may have run out first. Bounding by
 * the roots keeps a crossing from turning a root's sign: with the whole
 * residual crossing, a warm re-solve after one changed node made 3651
 * crossings on a 40 x 40 grid, bounded 29. Bounding by the tree arcs too
 * (as the EIBFS code of the ESA 2015 paper does where a root is not at
 * label 0) keeps excess from being stranded at orphans, whose re-hanging
 * then moves it again: on the power-law graph n=1M, d=8, 16 sources
 * 193,455 orphans and 136,946 relabels became 45,452 and 17,098, the
 * search 614 -> 97 ms (bench/results/eibfs-2026-11-27h.md).
 *
 * Draining. A deficit in S is pulled from the parent (flow parent -> x),
 * an excess in T pushed to the parent (x -> parent), up to the root, where
 * it meets the root's excess or deficit. Where a tree arc saturates the
 * node below becomes an orphan and keeps what it still holds; a root whose
 * excess changes sign (or reaches 0) becomes an orphan too.
 *
 * Orphans (the three passes of IBFS). Orphans are processed lowest label
 * first, S's before T's (buckets by label, eb_make_orphan). An orphan x of
 * label d looks for a parent of its tree of label d - 1 with a residual arc
 * towards it (same level: nothing below x changes), from its current arc
 * on. Failing that, every child of x is orphaned and x is relabelled under
 * the neighbour of smallest label (not queued again: see
 * eb_process_orphan); orphans are not candidates, and the new label may
 * pass the growth front (the label of the last node that grew in that
 * tree) by at most one: IBFS's bound, without which two orphans can lift
 * each other for ever. Otherwise, or with no neighbour of its tree, x
 * leaves it: with nothing held it becomes free, with a deficit in S it becomes a root
 * of T (and with an excess in T a root of S), at label 0; the neighbours of
 * its old tree that reach it become active again. An orphan that found a
 * parent drains what it holds on.
 *
 * Termination. Each S -> T crossing drains to completion before growth
 * goes on, so between two growth steps every non-root node has excess 0,
 * every positive excess sits at a root of S and every deficit at a root of
 * T. The queue invariant: a node not queued has every residual arc out of
 * it (S) or into it (T) within its tree; growth keeps it, a crossing
 * looks at its arc again until the arc is saturated or a tree has moved
 * away, and a node that leaves a tree re-activates the nodes of that tree
 * that reach it. When no node of S is queued (and no orphan waits), S is
 * closed under residual arcs; when none of T is, T is closed backwards;
 * either is enough, since S holds every excess and T every deficit and the
 * two are disjoint: no excess can reach a deficit, the pseudoflow is
 * maximum. The solve stops at the first tree that closes; the other keeps
 * its queue (eb_run).
 * Excess may go round (a crossing does not add to the flow by itself), and
 * on layered graphs (genrmf) orphans churn, so the solve has a work budget
 * (EB_WORK_PER_ARC arc scans per arc, a crossing's walks to the roots
 * counted as scans): past it the problem is handed to
 * cpu-hpf, which always terminates and is the faster engine there (an
 * info-level log line says so; the kept state is dropped).
 *
 * Answer. The flow value is sum over v of cap_source[v] - max(ex[v], 0)
 * (the flow into the sink of the pseudoflow with the terminal capacities
 * of every node shifted by a constant large enough to make its terminal
 * flows non-negative; the shift moves every cut by the same amount, so the
 * minimum cuts and, after taking the shift off, the value stay those of
 * the problem). The canonical cut (residual.c's: the nodes that reach a
 * deficit) is T when T closed, and T completed by a search into the free
 * nodes when S closed first (eb_cut). Per-edge flows: a root of T
 * may hold a deficit larger than its sink capacity (more flow left than
 * arrived), so two phase-II passes of flow.c run: one on the reversed
 * graph sends such deficits back towards the sink, one returns the
 * excesses of S's roots to the source (see eb_flows).
 *
 * Warm re-solve (the ESA 2015 dynamic case). The engine's state (flow,
 * forests, labels and the terminal capacities it was solved with) is kept
 * by the graph (graph.c, gcut_graph_set_warm_start). The next solve
 * of the same structure compares terminal capacities: a changed node's
 * excess moves by the change; a root whose excess changes sign becomes an
 * orphan, a node of S that gains excess becomes a root (keeping its label,
 * so its subtree stays), one of S that gains a deficit drains it up its
 * tree, a free node that gains either becomes a root; then the usual loop
 * runs from there. The answer is the cold one (the cut is the canonical
 * cut of a maximum pseudoflow, the value is fixed).
 *
 * Records kept with the layouts. The state is part of the graph's cached
 * layouts (solvers_internal.h, gcut_i_kept_engine): the first cpu-eibfs
 * solve of a graph allocates it and fills the arcs in its layout stage
 * (gcut_i_eibfs_layout; gcut_solve times it as the layout build), and a
 * cold solve after that (warm starts off, or after a failed solve) starts
 * from the arcs the last solve left and restores in place only those of
 * the nodes that flow moved through, each the first time the search needs
 * it (eb_push marks both ends, eb_init_cold, eb_restore; a solve on the
 * 1024^2 vision grid moves flow through 186K of its 1M nodes), instead of
 * filling 16 bytes per arc into fresh memory: set-up 52 -> 10 ms there
 * (bench/results/eibfs-2026-11-28.md). The state is freed when the work
 * budget hands the problem to cpu-hpf, whose arrays then reuse its
 * memory. A change of the
 * structure frees it with the layouts. A solve that finds the state taken
 * by a concurrent solve of the same graph (or is called through the
 * back-end table) works on a state of its own, filled at its set-up.
 *
 * Layout: 16 bytes per arc (head, residual, the sister's residual
 * mirrored, the offset to the sister), 32 bytes per node (an orphan's
 * current arc and bucket link in it), plus 8 per node (the kept terminal
 * capacities) and the orphan buckets (at most 512 KiB). The arcs are
 * filled from the layout at once or node by node as the search reaches
 * them (eb_need, eb_fill_on_demand; setting fill=auto|setup|demand).
 */
#include <stdlib.h>
#include <string.h>

#include "solvers/solvers_internal.h"

/* Parent codes (real parents are arc indices >= 0). An orphan's parent is
 * EB_ORPHAN - c, c >= 0 the offset of its current arc (eb_make_orphan). */
#define EB_ROOT ((int64_t)-1)
#define EB_ORPHAN ((int64_t)-2)

enum { EB_FREE = 0, EB_S = 1, EB_T = 2 };

/* What a node's arcs hold (eb_node.filled). */
enum { EB_EMPTY = 0, EB_FILLED = 1, EB_STALE = 2 };

#define EB_NONE ((int32_t)-1)

/* Growth scans between two looks at the clock. */
#define EB_CLOCK_EVERY 4096

/* Orphan buckets per tree: labels past the last share it (their order
 * there is a heuristic's only). Breadth-first labels of the graphs we meet
 * stay far below; a fixed 512 KiB instead of 8 bytes per node. */
#define EB_BUCKETS (1 << 16)

/* Work budget: arc scans per arc (plus a constant) before the solve is
 * handed to cpu-hpf (see the top). Vision grids and volumes take about 1
 * scan per arc, genrmf a=16 b=16 about 100 (where cpu-hpf is 25 times
 * faster): bench/results/eibfs-2026-11-27.md. */
#define EB_WORK_PER_ARC 32
#define EB_WORK_BASE ((int64_t)1 << 22)

/* The mirrored arc of solvers_internal.h (cpu-bk's graph engine keeps a
 * 12-byte variant of it, bk.c). */
typedef gcut_i_marc eb_arc;

typedef struct eb_node {
    int64_t ex;     /* excess (> 0) or deficit (< 0) */
    int64_t parent; /* tree arc (see pcur), EB_ROOT or <= EB_ORPHAN */
    int32_t pnode;  /* head of the parent arc; an orphan's: the next in its bucket */
    int32_t d;      /* label */
    int32_t next;   /* active-queue link: EB_NONE if not queued, itself if last */
    uint8_t tree;   /* EB_FREE, EB_S or EB_T */
    /* 1: parent is this node's own arc to its parent, found by a search
     * for a parent and a current arc (eb_make_orphan); 0: the parent's arc
     * to this node, the arc it grew along (growth looks up no sister) */
    uint8_t pcur;
    /* EB_FILLED: this node's arcs hold its residuals; EB_EMPTY: they
     * hold nothing yet (eb_fill), EB_STALE: what an earlier solve left
     * (eb_restore); either way the residuals are the layout's capacities */
    uint8_t filled;
    /* 1: flow has moved along an arc of this node since its arcs were
     * filled or restored (eb_push marks both ends): the next cold solve
     * makes it EB_STALE; 0: its arcs hold the capacities */
    uint8_t dirty;
} eb_node;

/* The engine, and the state the graph may keep between solves. */
typedef struct eb_state {
    int32_t n;
    int64_t m;
    const int64_t *first; /* the layout of the current solve */
    const int64_t *sister;
    const int32_t *head, *cap;
    eb_arc *arcs;
    eb_node *nodes;
    int32_t *cs, *ck; /* terminal capacities of the last solve */
    int32_t *bhead;   /* bucket heads by label, S's (nb) then T's (nb) */
    int32_t nb;       /* buckets per tree; higher labels share the last */
    int32_t bmin[3], bmax[3];   /* the non-empty buckets of each tree lie within */
    int64_t rlen;               /* orphans in the buckets */
    int32_t qhead[3], qtail[3]; /* active FIFOs of S and T, linked through next */
    int32_t queued[3];          /* queued nodes per tree (EB_FREE: left their tree while queued) */
    int64_t work, budget;
    int32_t front[3]; /* label of the last node that grew, per tree */
    int over;         /* the work budget is spent */
    int turn;         /* the tree that grows next (eb_pop_active) */
    int valid;        /* a solve completed: the state may start the next */
    /* counters of the current solve */
    int64_t crossings, pushes, relabels, orphans;
} eb_state;

/* ------------------------------------------------------------ small helpers */

static inline int64_t eb_sister(const eb_state *s, int64_t a)
{
    return gcut_i_marc_sister(s->arcs, s->sister, a);
}

/* Fill in v's arcs from the layout: residuals the capacities (nothing
 * has moved along an arc whose tail was never filled; see eb_need). */
static void eb_fill(eb_state *s, int32_t v)
{
    eb_arc *const arcs = s->arcs;
    const int64_t end = s->first[v + 1];
    for (int64_t a = s->first[v]; a < end; a++) {
        const int64_t b = s->sister[a];
        arcs[a].head = s->head[a];
        arcs[a].res = (uint32_t)s->cap[a];
        arcs[a].rev = (uint32_t)s->cap[b];
        const int64_t d = b - a;
        arcs[a].sdiff = d > INT32_MIN && d <= INT32_MAX ? (int32_t)d : GCUT_I_MARC_FAR;
    }
    s->nodes[v].filled = EB_FILLED;
    s->nodes[v].dirty = 0;
}

/* Give v's arcs their capacities back after a solve moved flow along
 * them: each arc's residual becomes its capacity, and its mirror its
 * sister's capacity, which is res + rev - cap (every push keeps res + rev,
 * the two capacities' sum, and the uint32 arithmetic is exact modulo 2^32
 * with the true value in range). No sister is read: the restore streams
 * over v's arcs and capacities. An arc whose sister's node is not dirty
 * carried no flow (a push marks both ends) and holds its capacities
 * already. */
static void eb_restore(eb_state *s, int32_t v)
{
    eb_arc *const arcs = s->arcs;
    const int32_t *const cap = s->cap;
    const int64_t end = s->first[v + 1];
    for (int64_t a = s->first[v]; a < end; a++) {
        const uint32_t c = (uint32_t)cap[a];
        arcs[a].rev += arcs[a].res - c;
        arcs[a].res = c;
    }
    s->nodes[v].filled = EB_FILLED;
}

/* The arcs are filled in node by node, the first time anything reads or
 * writes an arc of the node (its growth, its orphan search, a push along
 * an arc of it, the cut), not all at once at the set-up: the fill's writes
 * then land in the lines that the search reads next instead of in a
 * separate pass over 16 bytes per arc, and the arcs of nodes the search
 * never reaches are not filled at all. Every access to an arc goes
 * through a node known to be filled: a tree arc belongs to a node that
 * scanned its arcs (the parent that grew it, or the orphan that found
 * it), and a push fills both ends first. */
static inline void eb_need(eb_state *s, int32_t v)
{
    const uint8_t f = s->nodes[v].filled;
    if (f == EB_EMPTY)
        eb_fill(s, v);
    else if (f == EB_STALE)
        eb_restore(s, v);
}

/* Move f units along arc a of node x, whose sister b is y's (the caller
 * knows both). x and y are marked for the next cold solve's restore. */
static inline void eb_push(eb_state *s, int64_t a, int64_t b, uint32_t f, int32_t x, int32_t y)
{
    eb_arc *const arcs = s->arcs;
    s->nodes[x].dirty = 1;
    s->nodes[y].dirty = 1;
    arcs[a].res -= f;
    arcs[a].rev += f;
    arcs[b].res += f;
    arcs[b].rev -= f;
}

/* Queue v (of S or T) for growth in its tree's FIFO. A queued node that
 * changes tree stays where it is; eb_pop_active moves it on. */
static inline void eb_activate(eb_state *s, int32_t v)
{
    eb_node *nv = &s->nodes[v];
    if (nv->next != EB_NONE)
        return;
    const uint8_t t = nv->tree;
    s->queued[t]++;
    nv->next = v;
    if (s->qtail[t] == EB_NONE)
        s->qhead[t] = v;
    else
        s->nodes[s->qtail[t]].next = v;
    s->qtail[t] = v;
}

/* The next node to grow: S and T take turns, one node each (IBFS grows
 * both trees alike). Each tree's FIFO keeps its growth breadth-first, and
 * the tree that closes first ends the solve (eb_run). On a power-law graph
 * with 8 sources and 8 sinks S keeps a handful of queued nodes while T's
 * front covers the graph: with one FIFO for both, T grew over everything
 * before S could close. Turns beat growing the tree with fewer queued
 * nodes first, on orphans: power-law n=200K 1.4 -> 1.0 arc scans per arc,
 * random grid 512^2 19.2 -> 12.0 (bench/results/eibfs-2026-11-27b.md). */
static inline int32_t eb_pop_active(eb_state *s)
{
    for (;;) {
        int t = (s->turn ^= 1) ? EB_S : EB_T;
        if (s->qhead[t] == EB_NONE)
            t = t == EB_S ? EB_T : EB_S;
        if (s->qhead[t] == EB_NONE)
            return EB_NONE;
        const int32_t v = s->qhead[t];
        eb_node *nv = &s->nodes[v];
        s->qhead[t] = nv->next == v ? EB_NONE : nv->next;
        if (s->qhead[t] == EB_NONE)
            s->qtail[t] = EB_NONE;
#if defined(__GNUC__)
        else /* the next pop of this tree: its record is a miss otherwise */
            __builtin_prefetch(&s->nodes[s->qhead[t]]);
#endif
        nv->next = EB_NONE;
        s->queued[nv->tree]--;
        if (nv->tree == t)
            return v;
        if (nv->tree != EB_FREE)
            eb_activate(s, v); /* changed tree while queued: to its tree's FIFO */
    }
}

/* Every change of a node's tree goes through here: a queued node moves to
 * its new tree's count (the loop stops when one tree has none queued). */
static inline void eb_set_tree(eb_state *s, int32_t v, uint8_t tree)
{
    eb_node *nv = &s->nodes[v];
    if (nv->next != EB_NONE) {
        s->queued[nv->tree]--;
        s->queued[tree]++;
    }
    nv->tree = tree;
}

/* Orphans wait in buckets by tree and label and are processed lowest
 * label first (eb_adopt), as in IBFS: a parent level is settled before the
 * level below looks for parents in it, so a node is not re-hung under a
 * node that is itself about to go. With one FIFO for all orphans, hubs of
 * a power-law graph were orphaned again and again (1,089 orphanings of
 * nodes of degree > 1000, 4 M arc scans, on 200K nodes).
 *
 * The current arc (IBFS): an orphan's search for a parent one level lower
 * resumes at its old parent arc when that arc was itself found by such a
 * search or by a relabel (pcur): the arcs before it held no parent at
 * that level then, and seldom gain one (flow pulled along a tree arc opens
 * residual only from the higher label to the lower one; nodes mostly join
 * a tree at or above the levels already there). A parent missed all the
 * same costs a relabel, which scans every arc and finds it again: the
 * answer does not depend on it. */
static inline void eb_make_orphan(eb_state *s, int32_t v)
{
    eb_node *nv = &s->nodes[v];
    /* The current arc and the bucket link live in the record (parent and
     * pnode mean nothing while it is an orphan): an orphan costs no access
     * beyond its own record. */
    nv->parent = EB_ORPHAN - (nv->parent >= 0 && nv->pcur ? nv->parent - s->first[v] : 0);
    const int t = nv->tree == EB_S ? 0 : 1;
    const int32_t b = nv->d < s->nb ? nv->d : s->nb - 1;
    int32_t *head = &s->bhead[(int64_t)t * s->nb + b];
    nv->pnode = *head;
    *head = v;
    if (b < s->bmin[nv->tree])
        s->bmin[nv->tree] = b;
    if (b > s->bmax[nv->tree])
        s->bmax[nv->tree] = b;
    s->rlen++;
    s->orphans++;
}

/* ---------------------------------------------------------------- draining */

/* The tree arcs of x (see eb_node.pcur): *down from its parent to x, and
 * the sister of it, *up; one sister read. */
static inline void eb_tree_arcs(const eb_state *s, const eb_node *nx, int64_t *down, int64_t *up)
{
    const int64_t other = eb_sister(s, nx->parent);
    *down = nx->pcur ? other : nx->parent;
    *up = nx->pcur ? nx->parent : other;
}

/* Pull x's deficit up its S tree. */
static void eb_drain_s(eb_state *s, int32_t x)
{
    eb_node *const nodes = s->nodes;
    for (;;) {
        eb_node *nx = &nodes[x];
        if (nx->parent == EB_ROOT) {
            if (nx->ex <= 0)
                eb_make_orphan(s, x);
            return;
        }
        if (nx->parent <= EB_ORPHAN || nx->ex >= 0)
            return;
        /* Flow runs parent -> x. */
        int64_t p, q;
        const int32_t up = nx->pnode;
        eb_need(s, x);
        eb_need(s, up);
        eb_tree_arcs(s, nx, &p, &q);
        const uint32_t r = s->arcs[p].res;
        const uint32_t f = (uint64_t)-nx->ex < r ? (uint32_t)-nx->ex : r;
        eb_push(s, p, q, f, up, x);
        s->pushes++;
        nx->ex += f;
        nodes[up].ex -= f;
        if (s->arcs[p].res == 0)
            eb_make_orphan(s, x);
        x = up;
    }
}

/* Push x's excess down its T tree (towards the sink). */
static void eb_drain_t(eb_state *s, int32_t x)
{
    eb_node *const nodes = s->nodes;
    for (;;) {
        eb_node *nx = &nodes[x];
        if (nx->parent == EB_ROOT) {
            if (nx->ex >= 0)
                eb_make_orphan(s, x);
            return;
        }
        if (nx->parent <= EB_ORPHAN || nx->ex <= 0)
            return;
        int64_t q, p;
        const int32_t up = nx->pnode;
        eb_need(s, x);
        eb_need(s, up);
        eb_tree_arcs(s, nx, &q, &p);
        const uint32_t r = s->arcs[p].res;
        const uint32_t f = (uint64_t)nx->ex < r ? (uint32_t)nx->ex : r;
        eb_push(s, p, q, f, up, x);
        s->pushes++;
        nx->ex -= f;
        nodes[up].ex += f;
        if (s->arcs[p].res == 0)
            eb_make_orphan(s, x);
        x = up;
    }
}

static inline void eb_drain(eb_state *s, int32_t x)
{
    if (s->nodes[x].tree == EB_S)
        eb_drain_s(s, x);
    else
        eb_drain_t(s, x);
}

/* ---------------------------------------------------------------- orphans */

/* Residual towards x from its neighbour through x's arc a (S), or from x
 * to it (T): what a parent arc of x in that tree needs. */
static inline uint32_t eb_up_res(const eb_arc *a, uint8_t tree)
{
    return tree == EB_S ? a->rev : a->res;
}

static void eb_process_orphan(eb_state *s, int32_t x)
{
    eb_node *const nodes = s->nodes;
    const eb_arc *const arcs = s->arcs;
    eb_node *nx = &nodes[x];
    const uint8_t tree = nx->tree;
    const int64_t beg = s->first[x], end = s->first[x + 1];
    s->work += end - beg;
    eb_need(s, x);

    /* Holding what its tree's roots hold (a warm change can do that), it
     * becomes a root where it is: its label, and so its subtree, stay. */
    if (tree == EB_S ? nx->ex > 0 : nx->ex < 0) {
        nx->parent = EB_ROOT;
        eb_activate(s, x);
        return;
    }

    /* Pass 1: a parent at the same level, from the current arc (none
     * below label 0: a root that ran out goes straight to pass 2). */
    for (int64_t a = nx->d > 0 ? beg + (EB_ORPHAN - nx->parent) : end; a < end; a++) {
        if (!eb_up_res(&arcs[a], tree))
            continue;
        const int32_t w = arcs[a].head;
        if (nodes[w].tree == tree && nodes[w].d == nx->d - 1) {
            nx->parent = a;
            nx->pnode = w;
            nx->pcur = 1;
            if (nx->ex != 0)
                eb_drain(s, x);
            return;
        }
    }

    /* Pass 2: the children go, then the lowest neighbour of the tree. */
    int64_t best = -1;
    int32_t dmin = INT32_MAX;
    for (int64_t a = beg; a < end; a++) {
        const int32_t w = arcs[a].head;
        eb_node *nw = &nodes[w];
        if (nw->tree != tree)
            continue;
        if (nw->parent >= 0 && nw->pnode == x)
            eb_make_orphan(s, w);
        else if (nw->parent >= EB_ROOT && eb_up_res(&arcs[a], tree) && nw->d < dmin)
            dmin = nw->d, best = a;
    }
    /* The label may not pass the growth front by more than one (IBFS's
     * bound, which keeps orphans from lifting each other for ever): an
     * orphan that would goes, and growth takes it back later. */
    const int32_t front = s->front[tree] > nx->d ? s->front[tree] : nx->d;
    if (best >= 0 && dmin <= front) {
        nx->parent = best; /* the first arc of the lowest label: a current arc */
        nx->pnode = arcs[best].head;
        nx->pcur = 1;
        nx->d = dmin + 1;
        s->relabels++;
        /* Not queued again: a relabel changes no residual and no
         * neighbour's tree, so x keeps the queue invariant it had (every
         * residual arc of it within its tree, or x still queued). Growing
         * it again scanned every arc of every relabelled node for nothing
         * (3.3 M relabels on a 0.3 MP GrabCut graph). */
        if (nx->ex != 0)
            eb_drain(s, x);
        return;
    }

    /* Pass 3: x leaves its tree; those of the tree that reach it grow
     * again. */
    for (int64_t a = beg; a < end; a++) {
        const int32_t w = arcs[a].head;
        if (nodes[w].tree == tree && (tree == EB_S ? arcs[a].rev : arcs[a].res))
            eb_activate(s, w);
    }
    if (nx->ex == 0) {
        eb_set_tree(s, x, EB_FREE);
        nx->parent = EB_ROOT;
        return;
    }
    /* A deficit left in S (an excess in T) roots the other tree. */
    eb_set_tree(s, x, tree == EB_S ? EB_T : EB_S);
    nx->parent = EB_ROOT;
    nx->d = 0;
    eb_activate(s, x);
}

static void eb_adopt(eb_state *s)
{
    while (s->rlen > 0) {
        if (s->work > s->budget) {
            s->over = 1;
            return;
        }
        /* The lowest non-empty bucket, S's first (the trees' orphans do not
         * touch each other). */
        int t = EB_S;
        for (;; t = EB_T) {
            int32_t *heads = s->bhead + (int64_t)(t - 1) * s->nb;
            while (s->bmin[t] <= s->bmax[t] && heads[s->bmin[t]] == EB_NONE)
                s->bmin[t]++;
            if (s->bmin[t] <= s->bmax[t])
                break;
            s->bmin[t] = s->nb;
            s->bmax[t] = -1;
        }
        int32_t *head = &s->bhead[(int64_t)(t - 1) * s->nb + s->bmin[t]];
        const int32_t x = *head;
        *head = s->nodes[x].pnode;
#if defined(__GNUC__)
        if (*head != EB_NONE) { /* the next orphan's record and arcs: misses otherwise */
            __builtin_prefetch(&s->nodes[*head]);
            __builtin_prefetch(&s->first[*head]);
        }
#endif
        s->rlen--;
        eb_process_orphan(s, x);
    }
}

/* ------------------------------------------------------------ growth */

/* The residual of S -> T arc a (tail x in S, head y in T; sister sa)
 * crosses, up to the bottleneck of the path root(x) .. x -> y .. root(y). */
static void eb_cross(eb_state *s, int32_t x, int32_t y, int64_t a, int64_t sa)
{
    const eb_node *const nodes = s->nodes;
    eb_need(s, x); /* a is x's, sa y's */
    eb_need(s, y);
    /* As much as the arc, both roots and the tree arcs between allow (a
     * tree arc's residual is positive: one that runs out orphans its
     * child at once), so f > 0 and the drains strand nothing. */
    const eb_arc *const arcs = s->arcs;
    int64_t f = arcs[a].res, steps = 0;
    int32_t r = x;
    while (nodes[r].parent != EB_ROOT) {
        /* flow runs parent -> r: the parent's arc to r */
        steps++;
        const eb_arc *t = &arcs[nodes[r].parent];
        const uint32_t c = nodes[r].pcur ? t->rev : t->res;
        if (c < f)
            f = c;
        r = nodes[r].pnode;
    }
    if (nodes[r].ex < f)
        f = nodes[r].ex;
    for (r = y; nodes[r].parent != EB_ROOT;) {
        /* flow runs r -> parent: r's arc to its parent */
        steps++;
        const eb_arc *t = &arcs[nodes[r].parent];
        const uint32_t c = nodes[r].pcur ? t->res : t->rev;
        if (c < f)
            f = c;
        r = nodes[r].pnode;
    }
    if (-nodes[r].ex < f)
        f = -nodes[r].ex;
    /* The walks are work too (the drains retrace them): on layered graphs
     * (RLG) paths are long and crossings many, and the budget counted
     * only arc scans. */
    s->work += 2 * steps;
    eb_push(s, a, sa, (uint32_t)f, x, y);
    s->nodes[x].ex -= f;
    s->nodes[y].ex += f;
    s->crossings++;
    eb_drain_s(s, x);
    eb_drain_t(s, y);
    eb_adopt(s);
}

/* Scan the arcs of active node v. */
static void eb_grow(eb_state *s, int32_t v)
{
    eb_node *const nodes = s->nodes;
    const int64_t end = s->first[v + 1];
    s->front[nodes[v].tree] = nodes[v].d;
    eb_need(s, v);
    for (int64_t a = s->first[v]; a < end && !s->over; a++) {
        eb_node *nv = &nodes[v];
        if (nv->tree == EB_S) {
            if (!s->arcs[a].res)
                continue;
            const int32_t w = s->arcs[a].head;
            eb_node *nw = &nodes[w];
            if (nw->tree == EB_FREE) {
                eb_set_tree(s, w, EB_S);
                nw->parent = a;
                nw->pcur = 0;
                nw->pnode = v;
                nw->d = nv->d + 1;
                eb_activate(s, w);
            } else if (nw->tree == EB_T) {
                eb_cross(s, v, w, a, eb_sister(s, a));
                a--; /* the arc again: a root may have run out first */
            }
        } else if (nv->tree == EB_T) {
            if (!s->arcs[a].rev)
                continue;
            const int32_t w = s->arcs[a].head;
            eb_node *nw = &nodes[w];
            if (nw->tree == EB_FREE) {
                eb_set_tree(s, w, EB_T);
                nw->parent = a;
                nw->pcur = 0;
                nw->pnode = v;
                nw->d = nv->d + 1;
                eb_activate(s, w);
            } else if (nw->tree == EB_S) {
                eb_cross(s, w, v, eb_sister(s, a), a);
                a--;
            }
        } else {
            return; /* v left the trees during a crossing */
        }
    }
    s->work += end - s->first[v];
}

/* eb_run's answer when the work budget is spent (not a public status). */
#define EB_OVER_BUDGET ((gcut_status)-1)

static gcut_status eb_run(eb_state *s)
{
    gcut_status st;
    int64_t steps = 0;
    int32_t v;
    if (s->over)
        return EB_OVER_BUDGET;
    /* Done as soon as one tree has nothing left to grow (orphans are all
     * processed between two growth steps): a closed S holds every excess
     * and reaches no deficit, a closed T holds every deficit and nothing
     * outside it reaches one; either way the pseudoflow is maximum. Growing
     * the other tree on would scan the rest of the graph for nothing: on a
     * power-law graph with 8 sources S closes after a few dozen steps while
     * T would cover the whole graph. What is still queued stays queued
     * (a warm re-solve goes on from it); the canonical cut completes T
     * where S closed first (eb_cut). */
    while (s->queued[EB_S] > 0 && s->queued[EB_T] > 0 && (v = eb_pop_active(s)) != EB_NONE) {
        eb_grow(s, v);
        if (s->over)
            return EB_OVER_BUDGET;
        if (++steps % EB_CLOCK_EVERY == 0) {
            if ((st = gcut_i_poll("solve", -1, NULL)) != GCUT_OK)
                return st;
            if (s->work > s->budget)
                return EB_OVER_BUDGET;
        }
    }
    return GCUT_OK;
}

/* ------------------------------------------------------------ set-up */

static void eb_state_release(eb_state *s)
{
    gcut_i_free(s->arcs);
    gcut_i_free(s->nodes);
    gcut_i_free(s->cs);
    gcut_i_free(s->ck);
    gcut_i_free(s->bhead);
    memset(s, 0, sizeof *s);
}

static gcut_status eb_alloc(eb_state *s, int32_t n, int64_t m)
{
    eb_state_release(s);
    s->n = n;
    s->m = m;
    s->arcs = gcut_i_malloc_array(m > 0 ? m : 1, sizeof(eb_arc));
    s->nodes = gcut_i_malloc_array(n > 0 ? n : 1, sizeof(eb_node));
    s->cs = gcut_i_malloc_array(n > 0 ? n : 1, sizeof(int32_t));
    s->ck = gcut_i_malloc_array(n > 0 ? n : 1, sizeof(int32_t));
    s->nb = n + 2 < EB_BUCKETS ? n + 2 : EB_BUCKETS;
    s->bhead = gcut_i_malloc_array(2 * (int64_t)s->nb, sizeof(int32_t));
    /* The two big arrays are filled next: huge pages spare most of the
     * page faults (as cpu-bk's set-up). */
    gcut_i_advise_huge(s->arcs, (size_t)(m > 0 ? m : 1) * sizeof(eb_arc));
    gcut_i_advise_huge(s->nodes, (size_t)(n > 0 ? n : 1) * sizeof(eb_node));
    if (!s->arcs || !s->nodes || !s->cs || !s->ck || !s->bhead) {
        eb_state_release(s);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-eibfs: cannot allocate %d nodes and %lld arcs",
                         (int)n, (long long)m);
    }
    return GCUT_OK;
}

/* The active queue is not reset: after a solve it may still hold nodes of
 * the tree that did not close, which a warm re-solve goes on from. */
static void eb_reset_counters(eb_state *s)
{
    s->rlen = 0; /* the buckets are empty after every solve that completed */
    s->work = 0;
    s->budget = EB_WORK_PER_ARC * (s->m + s->n) + EB_WORK_BASE;
    s->crossings = s->pushes = s->relabels = s->orphans = 0;
    s->front[0] = s->front[1] = s->front[2] = 0;
    s->over = 0;
}

/* Fill the arcs at the set-up, or node by node on demand (eb_need)?
 * The set-up's fill streams through the layout, but each arc also reads
 * its sister's capacity: where sisters lie near (grids, volumes: the arcs
 * of a neighbour a row or plane away) that read hits the caches and one
 * sequential pass is the cheapest fill; node by node it costs the search
 * a few misses per node (v4 grid 133 -> 174 ms, 96^3 volume 194 -> 230).
 * Where sisters lie anywhere in a large array (power-law graphs), every
 * arc's read is a miss either way, and on demand only the nodes the
 * search reaches pay it (power-law n=1M: 312 -> 212 ms;
 * bench/results/eibfs-2026-11-27h.md), besides a few misses per node for
 * the node's rows of the layout: with few arcs per node those weigh more
 * than what is saved (bipartite graph of 2M nodes and 8M arcs, every node
 * reached: 3.75-3.81 s with the set-up's fill, 4.09-4.63 on demand), so
 * it takes at least EB_LAZY_DEGREE arcs per node. Decided from the sizes
 * and a sample of arcs. */
#define EB_LAZY_MIN_ARCS ((int64_t)1 << 21) /* fewer: the sisters' capacities fit the caches */
#define EB_LAZY_FAR ((int64_t)1 << 20)      /* a sister this many arcs away is far */
#define EB_LAZY_SAMPLE 256
#define EB_LAZY_DEGREE 8 /* arcs per node, at least */

enum { EB_FILL_AUTO = 0, EB_FILL_SETUP = 1, EB_FILL_DEMAND = 2 };

static int eb_fill_on_demand(const gcut_bcsr *b, int mode)
{
    if (mode != EB_FILL_AUTO)
        return mode == EB_FILL_DEMAND;
    if (b->m < EB_LAZY_MIN_ARCS || b->m < (int64_t)EB_LAZY_DEGREE * b->n)
        return 0;
    int far = 0;
    for (int64_t i = 0; i < EB_LAZY_SAMPLE; i++) {
        const int64_t a = (int64_t)((double)b->m * ((double)i + 0.5) / EB_LAZY_SAMPLE);
        const int64_t d = b->sister[a] - a;
        far += d > EB_LAZY_FAR || d < -EB_LAZY_FAR;
    }
    return 2 * far > EB_LAZY_SAMPLE;
}

/* The arcs as a fresh state gets them (gcut_i_eibfs_layout): all filled
 * from the layout at once, or none, to be filled on demand
 * (eb_fill_on_demand). Every node record is written, clean. */
static void eb_fill_fresh(eb_state *s, const gcut_bcsr *b, int fill)
{
    const uint8_t filled = !eb_fill_on_demand(b, fill);
    if (filled)
        gcut_i_marc_fill(s->arcs, b);
    memset(s->nodes, 0, (size_t)s->n * sizeof(eb_node));
    for (int32_t v = 0; v < s->n; v++)
        s->nodes[v].filled = filled ? EB_FILLED : EB_EMPTY;
}

/* Cold start: residuals the capacities, terminal arcs saturated, every
 * node of non-zero excess a root of label 0. The arcs are those the last
 * solve left (or fresh from eb_fill_fresh): a node that flow moved
 * through becomes EB_STALE and is restored the first time the search
 * needs it (eb_need, eb_restore), when its arcs are about to be read
 * anyway; a node the search does not reach is not touched, and the cut
 * reads its residuals from the layout. fill=demand empties every node
 * instead (the arcs fill from the layout again), fill=setup fills or
 * restores every node here. */
static void eb_init_cold(eb_state *s, const gcut_problem *p, int fill)
{
    s->qhead[EB_S] = s->qtail[EB_S] = s->qhead[EB_T] = s->qtail[EB_T] = EB_NONE;
    for (int64_t i = 0; i < 2 * (int64_t)s->nb; i++)
        s->bhead[i] = EB_NONE;
    s->bmin[EB_S] = s->bmin[EB_T] = s->nb;
    s->bmax[EB_S] = s->bmax[EB_T] = -1;
    s->queued[0] = s->queued[1] = s->queued[2] = 0;
    for (int32_t v = 0; v < s->n; v++) {
        eb_node *nv = &s->nodes[v];
        if (fill == EB_FILL_DEMAND)
            nv->filled = EB_EMPTY;
        else if (nv->filled == EB_FILLED && nv->dirty)
            nv->filled = EB_STALE;
        if (fill == EB_FILL_SETUP && nv->filled != EB_FILLED)
            eb_need(s, v);
        nv->dirty = 0;
        s->cs[v] = p->cap_source[v];
        s->ck[v] = p->cap_sink[v];
        nv->ex = (int64_t)p->cap_source[v] - p->cap_sink[v];
        nv->parent = EB_ROOT;
        nv->pnode = EB_NONE;
        nv->d = 0;
        nv->next = EB_NONE;
        nv->pcur = 0;
        nv->tree = nv->ex > 0 ? EB_S : (nv->ex < 0 ? EB_T : EB_FREE);
        if (nv->tree != EB_FREE)
            eb_activate(s, v);
    }
}

/* Warm start: the kept flow and forests, with the excess of every node
 * whose terminal capacities changed moved by the change (see the top). */
static void eb_init_warm(eb_state *s, const gcut_problem *p)
{
    eb_node *const nodes = s->nodes;
    for (int32_t v = 0; v < s->n; v++) {
        const int32_t cs = p->cap_source[v], ck = p->cap_sink[v];
        if (cs == s->cs[v] && ck == s->ck[v])
            continue;
        eb_node *nv = &nodes[v];
        nv->ex += ((int64_t)cs - s->cs[v]) - ((int64_t)ck - s->ck[v]);
        s->cs[v] = cs;
        s->ck[v] = ck;
        const uint8_t own = nv->tree == EB_S ? 1 : (nv->tree == EB_T ? 2 : 0);
        if (own == 0) {
            if (nv->ex != 0) {
                eb_set_tree(s, v, nv->ex > 0 ? EB_S : EB_T);
                nv->parent = EB_ROOT;
                nv->d = 0;
                eb_activate(s, v);
            }
            continue;
        }
        /* Its tree's sign: + in S, - in T. */
        const int64_t signed_ex = own == 1 ? nv->ex : -nv->ex;
        if (nv->parent == EB_ROOT) {
            if (signed_ex <= 0)
                eb_make_orphan(s, v);
        } else if (nv->parent >= 0) {
            if (signed_ex > 0) {
                nv->parent = EB_ROOT; /* keeps its label: its subtree stays valid */
                eb_activate(s, v);
            } else if (signed_ex < 0) {
                eb_drain(s, v);
            }
        }
        /* An orphan already in a bucket is processed with its new excess. */
    }
    eb_adopt(s);
}

/* Flow value from the excesses (see the top). */
static int64_t eb_value(const eb_state *s)
{
    int64_t f = 0;
    for (int32_t v = 0; v < s->n; v++)
        f += s->cs[v] - (s->nodes[v].ex > 0 ? s->nodes[v].ex : 0);
    return f;
}

/* ------------------------------------------------------------ flows */

/* Per-edge flows from residuals res (consumed). A root of T may have sent
 * out more than came in and its sink capacity allows (a deficit below
 * -cap_sink'); phase II on the reversed graph (every arc replaced by its
 * sister: the same index, the sister's capacity and residual, which
 * reverses every flow, and the terminals swapped) returns such deficits
 * towards the sink first. Then phase II proper returns the excesses of S's
 * roots towards the source. */
static gcut_status eb_flows(const eb_state *s, const gcut_problem *p, uint32_t *res,
                            int32_t *edge_flows)
{
    const gcut_bcsr *b = p->bcsr;
    const int32_t n = s->n;
    const int64_t nn = n > 0 ? n : 1;
    gcut_status st = GCUT_OK;
    int64_t *exc = gcut_i_malloc_array(nn, sizeof(int64_t));
    int64_t *used = gcut_i_malloc_array(nn, sizeof(int64_t));
    int32_t *rcap = NULL;
    uint32_t *rres = NULL;
    if (!exc || !used) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-eibfs: cannot allocate phase II (%d nodes)", (int)n);
        goto done;
    }
    int over = 0;
    for (int32_t v = 0; v < n; v++) {
        const int32_t cs = p->cap_source[v], ck = p->cap_sink[v];
        const int64_t ckc = ck - (cs < ck ? cs : ck); /* cancelled sink capacity */
        const int64_t ex = s->nodes[v].ex;
        /* Sink flow of v: all of it unless a deficit is left unused. */
        const int64_t sink = ex < 0 ? ckc + ex : ckc;
        exc[v] = sink < 0 ? -sink : 0;
        used[v] = sink < 0 ? 0 : sink;
        over |= sink < 0;
    }
    if (over) {
        rcap = gcut_i_malloc_array(b->m > 0 ? b->m : 1, sizeof(int32_t));
        rres = gcut_i_malloc_array(b->m > 0 ? b->m : 1, sizeof(uint32_t));
        if (!rcap || !rres) {
            st = GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-eibfs: cannot allocate the reversed residuals");
            goto done;
        }
        for (int64_t a = 0; a < b->m; a++) {
            rcap[a] = b->cap[b->sister[a]];
            rres[a] = res[b->sister[a]];
        }
        gcut_bcsr rb = *b;
        rb.cap = rcap;
        if ((st = gcut_i_preflow_to_flow(&rb, rres, exc, used)) != GCUT_OK)
            goto done;
        for (int64_t a = 0; a < b->m; a++)
            res[a] = rres[b->sister[a]];
    }
    for (int32_t v = 0; v < n; v++) {
        const int32_t cs = p->cap_source[v], ck = p->cap_sink[v];
        exc[v] = s->nodes[v].ex > 0 ? s->nodes[v].ex : 0;
        used[v] = cs - (cs < ck ? cs : ck);
    }
    if ((st = gcut_i_preflow_to_flow(b, res, exc, used)) != GCUT_OK)
        goto done;
    gcut_i_edge_flows_from_residual(b, res, p->num_edges, edge_flows);
done:
    gcut_i_free(rres);
    gcut_i_free(rcap);
    gcut_i_free(used);
    gcut_i_free(exc);
    return st;
}

/* ------------------------------------------------------------ the cut */

/* Candidates whose first arcs are fetched ahead in a bottom-up sweep. */
#define EB_CUT_AHEAD 16

/* The canonical cut (residual.c: the sink side is every node from which a
 * deficit, the sink's residual, is reachable) from the final forests. Every
 * node of T reaches its root, a deficit, through tree arcs; when T is
 * closed (nothing of it queued) nothing outside it reaches one, so the sink
 * side is T and no arc is looked at. When S closed first, T is completed
 * here as a search backwards over the residual arcs from T's queued nodes
 * (the only ones of T not yet scanned), into the free nodes only (a closed
 * S reaches nothing outside it). The search is direction-optimizing
 * (Beamer, Asanovic, Patterson, SC 2012): from the frontier while its arcs
 * are few against those of the free nodes left, else each free node looks
 * through its own arcs for a residual one into the sink side and stops at
 * the first; on a power-law graph where S closed after a few dozen growth
 * steps, most free nodes find one in the first few arcs. The forests are
 * not changed. */
static gcut_status eb_cut(const eb_state *s, uint8_t *cut)
{
    const eb_node *const nodes = s->nodes;
    const eb_arc *const arcs = s->arcs;
    const int64_t *const first = s->first;
    const int32_t n = s->n;
    for (int32_t v = 0; v < n; v++)
        cut[v] = nodes[v].tree == EB_T ? GCUT_SINK : GCUT_SOURCE;
    if (s->queued[EB_T] == 0)
        return GCUT_OK;

    const int64_t nn = n > 0 ? n : 1;
    int32_t *front = gcut_i_malloc_array(nn, sizeof(int32_t));
    int32_t *next = gcut_i_malloc_array(nn, sizeof(int32_t));
    int32_t *cand = gcut_i_malloc_array(nn, sizeof(int32_t));
    if (!front || !next || !cand) {
        gcut_i_free(front);
        gcut_i_free(next);
        gcut_i_free(cand);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-eibfs: cannot allocate the cut search (%d nodes)",
                         (int)n);
    }
    /* The frontier is T's queued nodes, found by one pass over the nodes
     * in order rather than by following the queues' links (a miss per
     * node: 113K queued nodes on the power-law graph). */
    int32_t nf = 0, nc = 0;
    int64_t mf = 0, mc = 0; /* arcs of the frontier and of the candidates */
    for (int32_t v = 0; v < n; v++) {
        if (nodes[v].tree == EB_FREE)
            cand[nc++] = v, mc += first[v + 1] - first[v];
        else if (nodes[v].tree == EB_T && nodes[v].next != EB_NONE)
            front[nf++] = v, mf += first[v + 1] - first[v];
    }
    while (nf > 0 && nc > 0) {
        int32_t nn2 = 0;
        if (mf > mc / 14) {
            /* Bottom-up: each candidate looks for a residual arc into the
             * sink side (any level: nodes found earlier in the same sweep
             * count too). The frontier becomes the nodes found. */
            int32_t keep = 0;
            for (int32_t i = 0; i < nc; i++) {
                const int32_t v = cand[i];
#if defined(__GNUC__)
                if (i + EB_CUT_AHEAD < nc) { /* the candidates' arcs are misses */
                    const int32_t u = cand[i + EB_CUT_AHEAD];
                    const int64_t f = first[u];
                    if (nodes[u].filled == EB_FILLED) {
                        __builtin_prefetch(&arcs[f]);
                    } else {
                        __builtin_prefetch(&s->cap[f]);
                        __builtin_prefetch(&s->head[f]);
                    }
                }
#endif
                if (cut[v] == GCUT_SINK)
                    continue;
                int64_t a = first[v];
                const int64_t end = first[v + 1];
                if (nodes[v].filled == EB_FILLED) {
                    while (a < end && !(arcs[a].res && cut[arcs[a].head] == GCUT_SINK))
                        a++;
                } else { /* empty or stale: the layout's capacities are its residuals */
                    while (a < end && !(s->cap[a] && cut[s->head[a]] == GCUT_SINK))
                        a++;
                }
                if (a < end) {
                    cut[v] = GCUT_SINK;
                    next[nn2++] = v;
                    mc -= end - first[v];
                } else {
                    cand[keep++] = v;
                }
            }
            nc = keep;
        } else {
            /* Top-down: the frontier's in-neighbours through residual arcs
             * (the arc w -> v is the sister of v's arc a: its residual is
             * a's rev). */
            for (int32_t i = 0; i < nf; i++) {
                const int32_t v = front[i];
                const int filled = nodes[v].filled == EB_FILLED;
                for (int64_t a = first[v]; a < first[v + 1]; a++) {
                    const int32_t w = filled ? arcs[a].head : s->head[a];
                    const uint32_t rev = filled ? arcs[a].rev : (uint32_t)s->cap[s->sister[a]];
                    if (rev && cut[w] == GCUT_SOURCE && nodes[w].tree == EB_FREE) {
                        cut[w] = GCUT_SINK;
                        next[nn2++] = w;
                        mc -= first[w + 1] - first[w];
                    }
                }
            }
        }
        int32_t *t = front;
        front = next;
        next = t;
        nf = nn2;
        mf = 0;
        for (int32_t i = 0; i < nf; i++)
            mf += first[front[i] + 1] - first[front[i]];
    }
    gcut_i_free(front);
    gcut_i_free(next);
    gcut_i_free(cand);
    return GCUT_OK;
}

/* ------------------------------------------------------------ driver */

/* The answer from the engine's final state: value, canonical cut, flows. */
static gcut_status eb_answer(eb_state *s, const gcut_problem *p, gcut_solution *sol)
{
    const gcut_bcsr *b = p->bcsr;
    gcut_status st;
    if ((st = gcut_i_poll("cut", -1, NULL)) != GCUT_OK)
        return st;
    double t0 = gcut_i_now_ms();
    uint32_t *res = NULL;
    if ((st = eb_cut(s, sol->cut)) != GCUT_OK)
        return st;
    sol->stats->cut_ms = gcut_i_now_ms() - t0;
    if (sol->edge_flows) {
        if ((st = gcut_i_poll("flows", -1, NULL)) != GCUT_OK)
            return st;
        t0 = gcut_i_now_ms();
        res = gcut_i_malloc_array(b->m > 0 ? b->m : 1, sizeof(uint32_t));
        if (!res)
            return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-eibfs: cannot allocate the final residuals");
        for (int32_t v = 0; v < s->n; v++)
            for (int64_t a = b->first[v]; a < b->first[v + 1]; a++)
                res[a] = s->nodes[v].filled == EB_FILLED ? s->arcs[a].res : (uint32_t)b->cap[a];
        st = eb_flows(s, p, res, sol->edge_flows);
        gcut_i_free(res);
        if (st != GCUT_OK)
            return st;
        sol->stats->flow_ms = gcut_i_now_ms() - t0;
    }
    sol->flow = eb_value(s);
    return GCUT_OK;
}

/* Settings: fill=auto|setup|demand, when a cold solve fills the arcs
 * (eb_fill_on_demand; the answer is the same). */
static gcut_status eb_parse_params(const char *str, int *fill)
{
    const char *who = "cpu-eibfs";
    gcut_i_param p;
    int r;
    *fill = EB_FILL_AUTO;
    while ((r = gcut_i_param_next(&str, who, &p)) > 0) {
        if (strcmp(p.key, "fill") != 0)
            return gcut_i_param_unknown(&p, who, "fill");
        if (strcmp(p.value, "auto") == 0)
            *fill = EB_FILL_AUTO;
        else if (strcmp(p.value, "setup") == 0)
            *fill = EB_FILL_SETUP;
        else if (strcmp(p.value, "demand") == 0)
            *fill = EB_FILL_DEMAND;
        else
            return GCUT_FAIL(GCUT_ERR_INVALID, "cpu-eibfs: fill=%s (want auto, setup or demand)",
                             p.value);
    }
    return r < 0 ? GCUT_ERR_INVALID : GCUT_OK;
}

/* The state of a graph's layout: allocated and filled here, in the
 * layout stage of the first solve (gcut_solve times it as the layout
 * build), unless *kept already matches the structure. */
static gcut_status eb_layout(void **kept, const gcut_problem *p, int fill)
{
    const gcut_bcsr *b = p->bcsr;
    eb_state *s = *kept;
    if (s && s->arcs && s->n == p->num_nodes && s->m == b->m)
        return GCUT_OK;
    if (!s) {
        s = gcut_i_calloc(1, sizeof *s);
        if (!s)
            return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-eibfs: cannot allocate its state");
        *kept = s;
    }
    gcut_status st = eb_alloc(s, p->num_nodes, b->m);
    if (st != GCUT_OK)
        return st;
    s->first = b->first;
    s->sister = b->sister;
    s->head = b->head;
    s->cap = b->cap;
    eb_fill_fresh(s, b, fill);
    return GCUT_OK;
}

/* The layout hook (kept.c): the checks and settings, then eb_layout. */
gcut_status gcut_i_eibfs_layout(void **kept, const gcut_problem *p, const gcut_solve_options *opt)
{
    if (!p->bcsr)
        return GCUT_FAIL(GCUT_ERR_INTERNAL, "cpu-eibfs: no BCSR layout was given");
    int fill;
    if (eb_parse_params(opt->params, &fill) != GCUT_OK)
        return GCUT_ERR_INVALID;
    return eb_layout(kept, p, fill);
}

gcut_status gcut_i_eibfs_solve_kept(void **kept, const gcut_problem *p,
                                    const gcut_solve_options *opt, int warm_ok, gcut_solution *sol)
{
    const gcut_bcsr *b = p->bcsr;
    if (!b)
        return GCUT_FAIL(GCUT_ERR_INTERNAL, "cpu-eibfs: no BCSR layout was given");
    int fill;
    if (eb_parse_params(opt->params, &fill) != GCUT_OK)
        return GCUT_ERR_INVALID;
    double t0 = gcut_i_now_ms();
    gcut_status st = eb_layout(kept, p, fill);
    if (st != GCUT_OK)
        return st;
    eb_state *s = *kept;
    const int warm = warm_ok && s->valid;
    s->valid = 0;
    s->first = b->first;
    s->sister = b->sister;
    s->head = b->head;
    s->cap = b->cap;
    eb_reset_counters(s);
    if (warm)
        eb_init_warm(s, p);
    else
        eb_init_cold(s, p, fill);
    sol->stats->init_ms = gcut_i_now_ms() - t0;
    sol->stats->warm_start = warm;

    t0 = gcut_i_now_ms();
    st = eb_run(s);
    sol->stats->solve_ms = gcut_i_now_ms() - t0;
    if (st == EB_OVER_BUDGET) {
        /* Past the work budget: cpu-hpf solves the problem cold. The
         * state is freed first (cpu-hpf's arrays then reuse its memory:
         * kept, RLG 128 x 256 took 1.1-1.4x longer); the next solve fills
         * a new one at its set-up. */
        gcut_i_log(opt, GCUT_LOG_INFO,
                   "cpu-eibfs: work budget spent after %lld crossings; cpu-hpf takes over",
                   (long long)s->crossings);
        eb_state_release(s);
        gcut_solve_options hopt = *opt;
        hopt.params = NULL; /* cpu-eibfs's settings are not cpu-hpf's */
        return gcut_i_backend_hpf.solve_graph(NULL, p, &hopt, sol);
    }
    if (st != GCUT_OK)
        return st;
    sol->stats->augmentations = s->crossings;
    sol->stats->pushes = s->pushes;
    sol->stats->relabels = s->relabels;
    sol->stats->threads = 1;
    if ((st = eb_answer(s, p, sol)) != GCUT_OK)
        return st;
    s->valid = 1;
    gcut_i_log(opt, GCUT_LOG_DEBUG,
               "cpu-eibfs: flow %lld (%s), %lld crossings, %lld pushes, %lld orphans, "
               "%lld relabels, %.1f arc scans per arc",
               (long long)sol->flow, warm ? "warm" : "cold", (long long)s->crossings,
               (long long)s->pushes, (long long)s->orphans, (long long)s->relabels,
               (double)s->work / (double)(s->m + s->n + 1));
    return GCUT_OK;
}

void gcut_i_eibfs_free(void *kept)
{
    eb_state *s = kept;
    if (!s)
        return;
    eb_state_release(s);
    gcut_i_free(s);
}

static gcut_status eb_solve(void *state, const gcut_problem *p, const gcut_solve_options *opt,
                            gcut_solution *sol)
{
    (void)state;
    void *kept = NULL; /* records of this solve only */
    gcut_status st = gcut_i_eibfs_solve_kept(&kept, p, opt, 0, sol);
    gcut_i_eibfs_free(kept);
    return st;
}

const gcut_backend gcut_i_backend_eibfs = GCUT_BACKEND_ASSIGN(
    "cpu-eibfs",
    "excess incremental BFS (Goldberg et al. ESA 2015), warm re-solve on general graphs",
    GCUT_BACKEND_GRAPH | GCUT_BACKEND_FLOWS | GCUT_BACKEND_NEEDS_BCSR, NULL, NULL, eb_solve, NULL,
    NULL);
