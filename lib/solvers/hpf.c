/*
 * hpf.c - cpu-hpf: Hochbaum's pseudoflow algorithm, highest-label variant.
 *
 * D. S. Hochbaum, "The pseudoflow algorithm: a new algorithm for the
 * maximum-flow problem", Operations Research 56(4):992-1009, 2008, and
 * B. G. Chandran and D. S. Hochbaum, "A computational study of the
 * pseudoflow and push-relabel algorithms for the maximum flow problem",
 * Operations Research 57(2):358-376, 2009 (the highest-label variant with
 * LIFO buckets and the simple initialisation, their best in practice).
 * This file is written from the papers.
 *
 * Pseudoflow. The simple initialisation saturates every terminal arc: after
 * cancelling min(cap_source, cap_sink) per node straight through, a node's
 * excess is its remaining source capacity minus its remaining sink
 * capacity. Nodes are kept in a forest of normalized trees: only roots
 * carry excess; a tree is strong when its root's excess is positive, weak
 * otherwise. Every node starts as its own tree. A weak root with negative
 * excess (a deficit) is the only kind of node that has room towards the
 * sink: handing the deficit back to its sink arc turns the pseudoflow into
 * a preflow.
 *
 * Labels (the labelling pseudoflow algorithm); n marks a node that can no
 * longer reach a deficit. The invariants, for every residual arc u->v
 * between nodes and every tree:
 *  (V) l(u) <= l(v) + 1;
 *  (M) labels do not decrease from a root downwards;
 *  (D) a deficit root has label 0 (weak nodes are never relabelled).
 * So l(v) is a lower bound on v's residual distance to a deficit, and a node
 * of label n cannot reach one. Arcs from the source and to the sink are
 * saturated, so they give no residual path. The papers start with labels
 * 1 (strong) and 0 (weak). Here the first labels are the exact residual
 * distances to a deficit, and they are raised again to the highest that
 * (V), (M) and (D) allow (global_labels, the counterpart of cpu-hipr's
 * global relabelling) when the relabel work since the last time passes a
 * limit that doubles each time, unless the gap rule has lifted more than
 * n / 20 nodes to top since it was last due. On a single-source layered graph
 * (genrmf, RLG) every zero-excess node at label 0 looks as close to a
 * deficit as the deficit itself, excess wanders into long trees, and every
 * later merger pays for their depth: with these labels genrmf a=32 b=32
 * takes 0.44 M arc pushes instead of 15.9 M, and RLG 256 x 512 0.8 M
 * instead of 17 M. On random grids the periodic part costs more relabels
 * than it saves; there the gaps are large, and the skip after large gaps
 * keeps it to a few labellings (bench/results/cpu-hpf-2026-11-25.md).
 *
 * Phase I. Take a strong root r of the highest label L (a LIFO stack per
 * label). Walk its strong branch depth first through the nodes of label L
 * only - by (M) those form a subtree around r: for each, look (from its
 * current arc on) for a residual arc to a node of label L - 1. Found at u:
 * a merger. The tree is re-rooted at u (the path r..u all has label L: the
 * lowest-label rule), hung under the arc's head v, and r's excess is pushed
 * up the path to the new root. Where an arc's residual capacity is smaller
 * than what arrives, the arc is saturated and the tree splits there: the
 * node below keeps the rest as the root of a new strong tree (the
 * normalized tree). A tree arc of residual 1 that a push of 1 saturates
 * is split off too, its lower end a root of excess 0. On unit-capacity
 * graphs (bipartite matching) every push saturates every arc of its path;
 * kept in the trees, those arcs let later mergers walk the strong branch
 * down through them, and the trees grow into alternating paths thousands
 * of arcs deep that every merger pushes along: 38 M arc pushes for 0.5 M
 * mergers on bipartite l = r = 200000, d = 4, 1.9 M for 1.9 M with the
 * split. Splitting at every arc that runs out does that too, but costs
 * genrmf and RLG up to 10% more pushes and 50% more relabels; the unit
 * rule leaves their counters as they were
 * (bench/results/hpf-2026-11-27f.md). The head may be strong too (a
 * merger of two strong trees: the excess then reaches that tree's root) -
 * what keeps (V) exact when labels grow. Not found: the node is
 * relabelled to L + 1 once none of its children of label L is left, its
 * current arc reset (post order; the root last). When the root leaves
 * label L and no node is left there, no node above L can reach a deficit
 * (by (V)): every node above L is lifted to n (the gap rule; it keeps (V)
 * and (M)). Phase I ends when no strong root has a label below n: no
 * excess can reach a deficit, so after the deficits go back to the sink
 * arcs the preflow is maximum.
 *
 * The pushes along a merger create residual arcs only from parents to
 * children and from v back to u, which (M) and l(v) = L - 1 keep valid. An
 * arc a current-arc scan skipped stays inadmissible until its tail is
 * relabelled: by (V) its head has label >= L - 1 and only rises, and flow
 * never moves along an arc from label L - 1 up to L.
 *
 * Afterwards: the canonical cut from the residual graph (residual.c), the
 * value, and for per-edge flows phase II (flow.c) returns the excess of the
 * strong roots to the source.
 *
 * Memory on top of the layout: 16 bytes per arc (engine arc records) and
 * about 96 bytes per node (the 64-byte node record, its label, the search
 * queue, the per-label stacks, lists and counts, and the cut's scratch),
 * plus 8 per node for phase II when flows are asked for.
 */
#include <stddef.h>
#include <string.h>

#include "solvers/solvers_internal.h"

/* Mergers and relabels between two looks at the clock. */
#define HPF_CLOCK_EVERY 4096

/* Global labelling is due when the relabel work since the last one (HPF_BETA
 * per relabel plus the node's arcs), times HPF_FREQ, passes a limit that
 * starts at HPF_ALPHA * n + m / 2 (cpu-hipr's measure) and grows by
 * HPF_GROW after each: measured on genrmf, RLG and grids, more frequent
 * labelling helps the first two and hurts the last. */
#define HPF_ALPHA 6
#define HPF_BETA 12
#define HPF_FREQ 2.0
#define HPF_GROW 2.0

/* A due global labelling is skipped (its work reset, its limit grown) when
 * the gap rule lifted more than HPF_GAP_SKIP * n nodes to top since it was
 * last due. On grids the gaps are large and the labellings cost more
 * relabels than they save (512 x 512 random grid: 7 labellings and 4.3 M
 * relabels, 4 and 3.5 M with the skip, phase I about 20% faster; the
 * 1024 x 1024 vision grid about 30%); on genrmf and RLG the gaps are small
 * and nothing changes (bench/results/cpu-hpf-2026-11-25.md). */
#define HPF_GAP_SKIP 0.05

/* The engine's own copy of the arcs: everything a scan or a push reads
 * about an arc in one 16-byte record (as cpu-hipr). */
typedef struct hpf_arc {
    uint32_t res;    /* residual capacity */
    int32_t head;
    int64_t sister;  /* the reverse arc */
} hpf_arc;

/* Tree and list links of a node; the labels are an array of their own,
 * since arc scans read only the heads' labels. The residual capacity of a
 * tree arc lives in its lower end's record while the arc is in the tree
 * (rup): a push up a path then touches one record per step, not three.
 * The arc records of tree arcs are brought up to date when the arc leaves
 * the tree (tree_detach), before a global labelling and at the end of
 * phase I; in between they are stale, which no merger-arc scan can notice:
 * a tree arc joins two nodes of one tree, and a merger arc never does. parent, rup and excess, all a push reads,
 * share the first 16 bytes. */
typedef struct hpf_node {
    int64_t excess;     /* roots only; 0 at every other node */
    int32_t parent;     /* -1 for a root */
    uint32_t rup;       /* residual capacity of v -> parent (tree arc up) */
    int64_t up;         /* arc v -> parent, the direction excess moves */
    int64_t cur;        /* current arc, in first[v] .. first[v+1] */
    int32_t child;      /* first child, -1 for none */
    int32_t next, prev; /* siblings under the parent */
    int32_t scan;       /* depth-first walk: next child to look at */
    int32_t lnext;      /* all nodes of one label (gap rule), doubly linked */
    int32_t lprev;
    int32_t bnext;      /* stack of strong roots of one label */
    int32_t old;        /* scratch of global_labels (and pads to 64 bytes) */
} hpf_node;

typedef struct hpf_engine {
    int32_t n;
    int32_t top;          /* label n: cannot reach a deficit */
    const int64_t *first;
    hpf_arc *arc;
    uint32_t *res;        /* after phase I: residuals as an array, in arc's memory */
    hpf_node *node;
    int32_t *label;
    int32_t *roots;       /* per label: stack of strong roots (LIFO), -1 empty */
    int32_t *lhead;       /* per label: list of all its nodes, -1 empty */
    int64_t *count;       /* per label: how many nodes have it */
    int32_t amax;         /* no strong root above this label */
    int32_t lmax;         /* no node below top above this label */
    int32_t *queue;       /* n: breadth-first search of global_labels */
    int64_t work;         /* relabel work since the last global labelling */
    double work_limit;    /* when it is due: HPF_ALPHA * n + m / 2 */
    int64_t gap_seen;     /* gap_nodes when the labelling was last due */
    int64_t mergers, pushes, relabels, gap_nodes, globals;
} hpf_engine;

/* --------------------------------------------------------- label lists */

static inline void label_add(hpf_engine *e, int32_t v, int32_t d)
{
    hpf_node *nd = e->node;
    const int32_t h = e->lhead[d];
    nd[v].lnext = h;
    nd[v].lprev = -1;
    if (h >= 0)
        nd[h].lprev = v;
    e->lhead[d] = v;
    e->count[d]++;
    if (d > e->lmax)
        e->lmax = d;
}

static inline void label_remove(hpf_engine *e, int32_t v, int32_t d)
{
    hpf_node *nd = e->node;
    const int32_t nx = nd[v].lnext, pv = nd[v].lprev;
    if (pv >= 0)
        nd[pv].lnext = nx;
    else
        e->lhead[d] = nx;
    if (nx >= 0)
        nd[nx].lprev = pv;
    e->count[d]--;
}

static inline void root_push(hpf_engine *e, int32_t v)
{
    const int32_t d = e->label[v];
    e->node[v].bnext = e->roots[d];
    e->roots[d] = v;
    if (d > e->amax)
        e->amax = d;
}

/* ---------------------------------------------------------------- trees */

/* Hang v under p by arc up = v -> p (in sync: not a tree arc before). */
static inline void tree_attach(hpf_engine *e, int32_t v, int32_t p, int64_t up)
{
    hpf_node *const nd = e->node;
    const int32_t h = nd[p].child;
    nd[v].parent = p;
    nd[v].up = up;
    nd[v].rup = e->arc[up].res;
    nd[v].prev = -1;
    nd[v].next = h;
    if (h >= 0)
        nd[h].prev = v;
    nd[p].child = v;
}

/* Write a tree arc's residuals back to the arc records: its record still
 * holds the value of when it joined the tree, its sister that plus what
 * has been pushed since. */
static inline void tree_sync(hpf_engine *e, int32_t v)
{
    hpf_arc *const arc = e->arc;
    const int64_t a = e->node[v].up;
    const uint32_t now = e->node[v].rup;
    arc[arc[a].sister].res += arc[a].res - now;
    arc[a].res = now;
}

static inline void tree_detach(hpf_engine *e, int32_t v)
{
    hpf_node *const nd = e->node;
    const int32_t p = nd[v].parent, nx = nd[v].next, pv = nd[v].prev;
    tree_sync(e, v);
    if (pv >= 0)
        nd[pv].next = nx;
    else
        nd[p].child = nx;
    if (nx >= 0)
        nd[nx].prev = pv;
    nd[v].parent = -1;
}

/*
 * Merger along arc a = u -> v: re-root u's tree at u, hang it under v, and
 * push the old root r's excess up to the root of v's tree, splitting where
 * an arc cannot take all that arrives (and at unit arcs that a unit push
 * saturates).
 */
static void merge(hpf_engine *e, int32_t r, int32_t u, int64_t a)
{
    hpf_node *const nd = e->node;
    const hpf_arc *const arc = e->arc;
    /* Reverse the path u .. r: each node goes under the one it was above. */
    int32_t x = u, np = arc[a].head;
    int64_t na = a;
    while (x >= 0) {
        const int32_t op = nd[x].parent;
        const int64_t oa = nd[x].up;
        if (op >= 0)
            tree_detach(e, x);
        tree_attach(e, x, np, na);
        np = x;
        na = op >= 0 ? arc[oa].sister : -1;
        x = op;
    }
    e->mergers++;
    /* Push from r (now deepest on the path) to the root. */
    int64_t ex = nd[r].excess;
    nd[r].excess = 0;
    x = r;
    int64_t pushes = 0;
    for (;;) {
        const int32_t p = nd[x].parent;
        if (p < 0) {
            const int64_t old = nd[x].excess;
            nd[x].excess = old + ex;
            if (old <= 0 && old + ex > 0)
                root_push(e, x);
            break;
        }
        const int64_t r_up = nd[x].rup;
        pushes++;
        if (ex > r_up || (ex == 1 && r_up == 1)) {
            /* Split: x keeps what the arc cannot take, as a strong root;
             * a unit arc that a unit push saturates goes too, x a root of
             * excess 0 (the header comment says why). */
            nd[x].rup = 0;
            tree_detach(e, x);
            nd[x].excess = ex - r_up;
            if (ex > r_up)
                root_push(e, x);
            ex = r_up;
            if (ex == 0)
                break;
        } else {
            nd[x].rup = (uint32_t)(r_up - ex);
        }
        x = p;
    }
    e->pushes += pushes;
}

/*
 * Global labelling: the highest labels that (V), (M) and (D) allow, by a
 * breadth-first search backwards from the deficits in which a residual arc
 * v -> w costs 1 (l(v) <= l(w) + 1) and a tree arc costs 0 for the parent
 * (l(p) <= l(c)): when a node gets its label, so do its ancestors that
 * have none yet, at the same level, so the queue stays in label order.
 * Without trees these are the exact residual distances to a deficit. No
 * label goes down (the old labels satisfy the same constraints), so a
 * current arc stays valid where the label did not change; unreached nodes
 * get top, for good. The tree arcs' residuals go back to the arc records
 * first (the search reads those). Lists, counts and root stacks are rebuilt.
 */
static void global_labels(hpf_engine *e)
{
    const int32_t n = e->n, top = e->top;
    const int64_t *const first = e->first;
    const hpf_arc *const arc = e->arc;
    hpf_node *const nd = e->node;
    int32_t *const lab = e->label;
    int32_t *const q = e->queue;
    for (int32_t v = 0; v < n; v++) {
        if (nd[v].parent >= 0)
            tree_sync(e, v);
        nd[v].old = lab[v];
    }
    for (int32_t k = 0; k <= top; k++) {
        e->roots[k] = e->lhead[k] = -1;
        e->count[k] = 0;
    }
    e->amax = e->lmax = 0;
    int64_t qt = 0;
    for (int32_t v = 0; v < n; v++) {
        if (nd[v].excess < 0) {
            lab[v] = 0; /* a root: no ancestors */
            q[qt++] = v;
        } else {
            lab[v] = top;
        }
    }
    for (int64_t qh = 0; qh < qt; qh++) {
        const int32_t v = q[qh];
        const int32_t dw = lab[v] + 1;
        if (dw >= top)
            break;
        for (int64_t a = first[v]; a < first[v + 1]; a++) {
            /* w -> v (the sister of v -> w) residual: w gets dw, and so do
             * its ancestors that have no label yet. */
            for (int32_t x = arc[a].head; x >= 0 && lab[x] == top && arc[arc[a].sister].res > 0;
                 x = nd[x].parent) {
                lab[x] = dw;
                q[qt++] = x;
            }
        }
    }
    /* Backwards, so that each stack pops nodes in index order (memory
     * order: far better locality than the search's order). */
    for (int32_t v = n - 1; v >= 0; v--) {
        if (lab[v] >= top)
            continue;
        if (lab[v] != nd[v].old)
            nd[v].cur = first[v];
        label_add(e, v, lab[v]);
        if (nd[v].excess > 0)
            root_push(e, v);
    }
    e->work = 0;
    e->globals++;
}

/* Gap at label k (no node left there): every node above k is lifted to
 * top, and no strong root is above k (k was the highest). */
static void gap(hpf_engine *e, int32_t k)
{
    int32_t *const lab = e->label;
    const hpf_node *const nd = e->node;
    int64_t lifted = 0;
    for (int32_t d = k + 1; d <= e->lmax; d++) {
        for (int32_t w = e->lhead[d]; w >= 0; w = nd[w].lnext) {
            lab[w] = e->top;
            lifted++;
        }
        e->lhead[d] = -1;
        e->count[d] = 0;
    }
    e->lmax = k;
    e->gap_nodes += lifted;
}

/* Relabel v from d to d + 1 (top: out of the lists for good). */
static inline void relabel(hpf_engine *e, int32_t v, int32_t d)
{
    label_remove(e, v, d);
    e->label[v] = d + 1;
    if (d + 1 < e->top)
        label_add(e, v, d + 1);
    e->node[v].cur = e->first[v];
    e->relabels++;
    e->work += HPF_BETA + (e->first[v + 1] - e->first[v]);
}

/*
 * Process strong root r of label L: a depth-first walk of its nodes of
 * label L, each looking for a merger arc (residual, head of label L - 1);
 * a node without one, and without unvisited children of label L, is
 * relabelled. Returns when a merger happened or r itself was relabelled.
 */
static void process_root(hpf_engine *e, int32_t r)
{
    hpf_node *const nd = e->node;
    const hpf_arc *const arc = e->arc;
    const int32_t *const lab = e->label;
    const int32_t L = lab[r], want = L - 1;
    int32_t u = r;
    nd[r].scan = nd[r].child;
    for (;;) {
        /* A merger arc of u? One branch per arc, not two: whether an arc
         * has residual capacity is close to a coin toss on genrmf and RLG
         * (under cachegrind, genrmf a=32 b=32: the branch dropped was
         * mispredicted about 4 times in 10, 4.0 M -> 2.1 M mispredictions
         * in hpf_solve), which costs more than reading every head's label
         * (bench/results/hpf-2026-11-28.md). */
        const int64_t end = e->first[u + 1];
        for (int64_t a = nd[u].cur; a < end; a++) {
            if ((arc[a].res > 0) & (lab[arc[a].head] == want)) {
                nd[u].cur = a;
                merge(e, r, u, a);
                return;
            }
        }
        nd[u].cur = end;
        /* Down into the next child of label L. */
        int32_t c = nd[u].scan;
        while (c >= 0 && lab[c] != L)
            c = nd[c].next;
        if (c >= 0) {
            nd[u].scan = nd[c].next;
            u = c;
            nd[u].scan = nd[u].child;
            continue;
        }
        /* None: u rises to L + 1, then back up. */
        relabel(e, u, L);
        if (u == r)
            break;
        u = nd[u].parent;
    }
    if (e->count[L] == 0) {
        gap(e, L); /* r is above L now: lifted with the rest */
        return;
    }
    if (L + 1 < e->top)
        root_push(e, r);
}

/* ------------------------------------------------------------ set-up */

static void engine_free(hpf_engine *e)
{
    gcut_i_free(e->arc);
    gcut_i_free(e->node);
    gcut_i_free(e->label);
    gcut_i_free(e->roots);
    gcut_i_free(e->lhead);
    gcut_i_free(e->count);
    gcut_i_free(e->queue);
}

/*
 * Allocate; cancel terminal capacities (min(cap_source, cap_sink) goes
 * straight through) and saturate the rest: the excess of v is what is left
 * of its source capacity minus what is left of its sink capacity. Strong
 * nodes get label 1 and a place on the stack of label 1, weak ones label 0.
 */
static gcut_status engine_init(hpf_engine *e, const gcut_problem *p, int64_t *cancelled)
{
    const gcut_bcsr *b = p->bcsr;
    const int32_t n = b->n;
    memset(e, 0, sizeof *e);
    if (n > INT32_MAX - 2)
        return GCUT_FAIL(GCUT_ERR_OVERFLOW, "cpu-hpf: too many nodes (%d)", (int)n);
    e->n = n;
    e->top = n > 1 ? n : 2; /* labels 0 and 1 must stay below top */
    const int64_t labels = (int64_t)e->top + 1;
    e->first = b->first;
    e->arc = gcut_i_malloc_array(b->m > 0 ? b->m : 1, sizeof(hpf_arc));
    e->node = gcut_i_malloc_array(n > 0 ? n : 1, sizeof(hpf_node));
    e->label = gcut_i_malloc_array(n > 0 ? n : 1, sizeof(int32_t));
    e->roots = gcut_i_malloc_array(labels, sizeof(int32_t));
    e->lhead = gcut_i_malloc_array(labels, sizeof(int32_t));
    e->count = gcut_i_malloc_array(labels, sizeof(int64_t));
    e->queue = gcut_i_malloc_array(n > 0 ? n : 1, sizeof(int32_t));
    if (!e->arc || !e->node || !e->label || !e->roots || !e->lhead || !e->count || !e->queue) {
        engine_free(e);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-hpf: cannot allocate %d nodes and %lld arcs",
                         (int)n, (long long)b->m);
    }
    /* The two big arrays are filled next: huge pages spare most of their
     * page faults, and later the misses of the TLB (as cpu-bk and
     * cpu-eibfs). */
    gcut_i_advise_huge(e->arc, (size_t)(b->m > 0 ? b->m : 1) * sizeof(hpf_arc));
    gcut_i_advise_huge(e->node, (size_t)(n > 0 ? n : 1) * sizeof(hpf_node));
    for (int64_t a = 0; a < b->m; a++) {
        e->arc[a].res = (uint32_t)b->cap[a];
        e->arc[a].head = b->head[a];
        e->arc[a].sister = b->sister[a];
    }
    int64_t c = 0;
    for (int32_t v = 0; v < n; v++) {
        const int32_t cs = p->cap_source[v], ct = p->cap_sink[v];
        const int32_t both = cs < ct ? cs : ct;
        c += both;
        hpf_node *nv = &e->node[v];
        nv->excess = (int64_t)(cs - both) - (int64_t)(ct - both);
        nv->cur = b->first[v];
        nv->up = -1;
        nv->rup = 0;
        nv->old = 0;
        e->label[v] = e->top;
        nv->parent = nv->child = nv->next = nv->prev = nv->scan = -1;
        nv->bnext = -1;
    }
    e->work_limit = (double)HPF_ALPHA * n + (double)(b->m / 2);
    global_labels(e);
    *cancelled = c;
    return GCUT_OK;
}

/* The one place phase I polls the call (time limit, progress, cancel;
 * every HPF_CLOCK_EVERY roots processed): GCUT_OK or the reason to stop. */
static inline gcut_status out_of_time(int32_t *clock, const hpf_engine *e)
{
    if (++*clock < HPF_CLOCK_EVERY)
        return GCUT_OK;
    *clock = 0;
    return gcut_i_poll("solve", e->amax, "highest label with a strong root");
}

/* Phase I: highest-label strong roots until none is left below top. amax
 * over-estimates the highest label with a root (lowered lazily); it rises
 * only with a relabel, so popping is O(1) amortised. */
static gcut_status phase1(hpf_engine *e)
{
    int32_t clock = 0;
    gcut_status st;
    while (e->amax > 0 || e->roots[0] >= 0) {
        const int32_t r = e->roots[e->amax];
        if (r < 0) {
            e->amax--;
            continue;
        }
        e->roots[e->amax] = e->node[r].bnext;
        process_root(e, r);
        if ((double)e->work * HPF_FREQ > e->work_limit) {
            /* Gaps that lifted many nodes to top since the last time have
             * done the labelling's most useful part: skip it this time. */
            if ((double)(e->gap_nodes - e->gap_seen) > HPF_GAP_SKIP * e->n)
                e->work = 0;
            else
                global_labels(e);
            e->gap_seen = e->gap_nodes;
            e->work_limit *= HPF_GROW;
        }
        if ((st = out_of_time(&clock, e)) != GCUT_OK)
            return st;
    }
    return GCUT_OK;
}

static gcut_status hpf_solve(void *state, const gcut_problem *p, const gcut_solve_options *opt,
                             gcut_solution *sol)
{
    (void)state;
    gcut_stats *stats = sol->stats;
    if (!p->bcsr)
        return GCUT_FAIL(GCUT_ERR_INTERNAL, "cpu-hpf: no BCSR layout was given");
    if (gcut_i_params_none(opt->params, "cpu-hpf") != GCUT_OK)
        return GCUT_ERR_INVALID;
    double t0 = gcut_i_now_ms();
    hpf_engine e;
    int64_t cancelled = 0;
    gcut_status st = engine_init(&e, p, &cancelled);
    if (st != GCUT_OK)
        return st;
    const int32_t n = e.n;
    int64_t *tmp = gcut_i_malloc_array(n > 0 ? n : 1, sizeof(int64_t));
    if (!tmp) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-hpf: cannot allocate %d nodes", (int)n);
        goto done;
    }
    stats->init_ms = gcut_i_now_ms() - t0;

    t0 = gcut_i_now_ms();
    st = phase1(&e);
    if (st != GCUT_OK)
        goto done;
    for (int32_t v = 0; v < n; v++)
        if (e.node[v].parent >= 0)
            tree_sync(&e, v);
    e.res = gcut_i_pack_residuals(e.arc, sizeof *e.arc, offsetof(hpf_arc, res), p->bcsr->m);
    stats->solve_ms = gcut_i_now_ms() - t0;

    /* Deficits go back to the sink arcs: what is left is a maximum preflow.
     * Its value is what the sink arcs carry (plus the cancelled part). */
    t0 = gcut_i_now_ms();
    int64_t to_sink = 0;
    for (int32_t v = 0; v < n; v++) {
        const int32_t cs = p->cap_source[v], ct = p->cap_sink[v];
        const int64_t ex = e.node[v].excess;
        to_sink += ct - (cs < ct ? cs : ct);
        tmp[v] = ex < 0 ? -ex : 0;
        to_sink -= tmp[v];
    }
    st = gcut_i_cut_from_residual(p->bcsr, e.res, tmp, sol->cut);
    stats->cut_ms = gcut_i_now_ms() - t0;
    if (st != GCUT_OK)
        goto done;

    if (sol->edge_flows) {
        t0 = gcut_i_now_ms();
        for (int32_t v = 0; v < n; v++)
            tmp[v] = e.node[v].excess > 0 ? e.node[v].excess : 0;
        /* Phase II: the strong roots' excess goes back to the source. */
        st = gcut_i_flows_from_preflow(p, e.res, tmp, sol->edge_flows, "cpu-hpf");
        stats->flow_ms = gcut_i_now_ms() - t0;
        if (st != GCUT_OK)
            goto done;
    }
    sol->flow = cancelled + to_sink;
    stats->pushes = e.pushes;
    stats->relabels = e.relabels;
    stats->gap_nodes = e.gap_nodes;
    stats->global_relabels = e.globals;
    stats->augmentations = e.mergers;
    stats->threads = 1;
    gcut_i_log(opt, GCUT_LOG_INFO,
               "cpu-hpf: flow %lld, %lld mergers, %lld arc pushes, %lld relabels, "
               "%lld gap nodes, %lld global labellings, phase I %.1f ms",
               (long long)sol->flow, (long long)e.mergers, (long long)e.pushes,
               (long long)e.relabels, (long long)e.gap_nodes, (long long)e.globals,
               stats->solve_ms);
done:
    gcut_i_free(tmp);
    engine_free(&e);
    return st;
}

const gcut_backend gcut_i_backend_hpf = GCUT_BACKEND_ASSIGN(
    "cpu-hpf", "highest-label pseudoflow (Hochbaum 2008; Chandran-Hochbaum HPF design)",
    GCUT_BACKEND_GRAPH | GCUT_BACKEND_FLOWS | GCUT_BACKEND_NEEDS_BCSR, NULL, NULL, hpf_solve,
    NULL, NULL);
