/*
 * bk_grid.c - cpu-bk on grids: the Boykov-Kolmogorov algorithm on a
 * lattice whose neighbours follow from the node index, with warm re-solve.
 *
 *   Y. Boykov and V. Kolmogorov, "An experimental comparison of
 *   min-cut/max-flow algorithms for energy minimization in vision",
 *   IEEE Trans. PAMI 26(9):1124-1137, 2004 (the search trees; with the
 *   timestamp/distance adoption heuristic of Kolmogorov's version 3);
 *
 *   P. Kohli and P. H. S. Torr, "Dynamic graph cuts for efficient inference
 *   in Markov random fields", IEEE Trans. PAMI 29(12):2079-2088, 2007
 *   (re-using the flow and the trees after capacities change);
 *
 *   A. V. Goldberg, S. Hed, H. Kaplan, R. E. Tarjan, R. F. Werneck,
 *   "Maximum flows by incremental breadth-first search", ESA 2011 (IBFS:
 *   the default start of cold solves, see the IBFS section: trees of
 *   exact BFS depth grown a level at a time, orphans re-hung or
 *   relabelled without walks to the root; BK then finishes from its
 *   trees, so the answer stays BK's exact one; warm solves where much of
 *   the cut moves start with it too, from the kept flow: the `warm`
 *   setting, see warm_init; `cold=plain` starts BK from zero instead).
 *
 * IBFS is the default cold start because on the GrabCut first cuts it
 * beat plain BK and capacity scaling (removed in 0.2) on every image: BK
 * alone spends its time in adoption there (long trees over weak data
 * terms, a subtree orphaned by each augmentation, freed and regrown).
 * Measured in bench/results/cpu-bk-grid-2026-11-21.md.
 *
 * Excess IBFS (the `excess` setting, on by default): A. V. Goldberg, S.
 * Hed, H. Kaplan, P. Kohli, R. E. Tarjan, R. F. Werneck, "Faster and more
 * dynamic maximum flow by incremental breadth-first search", ESA 2015.
 * Where the trees meet, the whole residual of the meeting arc crosses;
 * the excess it leaves in T runs down towards the sink and the deficit in
 * S up towards the source, each stopping where an arc saturates, and the
 * node left holding flow is re-adopted and moves it on (or, if no parent
 * is left, becomes a root of the other tree). Roots may then sit at any
 * label. It is on by default because it won on every GrabCut first cut;
 * on uniform random grids, where paths are short, it loses and `excess=0`
 * is faster (bench/results/cpu-bk-grid-2026-11-21.md). Excesses can go
 * round in circles, which plain IBFS cannot (each
 * augmentation adds to the flow), so the mode has a work budget
 * (BKG_EXCESS_WORK) and the solve starts again without it past that.
 *
 * The algorithm is that of bk.c (see there for the three stages growth,
 * augmentation, adoption); what differs is the data. There is no arc list:
 * node v's neighbour in direction d is v + off[d], off[] being the linear
 * offsets of grid.h's direction table, and the arc back is direction d ^ 1
 * of that neighbour. Each node has a record of 32-bit words
 *
 *     res[0 .. nd-1]   residual of the arc to the neighbour in direction d
 *     tr               > 0: residual from the source; < 0: to the sink
 *     next             active-queue link (NONE: not active; itself: last)
 *
 * and a pair (md_of)
 *
 *     meta             ts (25 bits) | tree (2 bits) | parent direction (5 bits)
 *     dist             arcs to the tree's terminal (the IBFS label)
 *
 * With 4 and 6 directions the pair ends the record: 32 bytes for a
 * 4-connected image, so two records share a cache line and a node's
 * residuals, its tree and the residual back to it from a neighbour come
 * with one miss. With 8 and more the pairs form an array of their own (8
 * bytes a node), and the scans read a neighbour's pair first and its
 * record only when the residual matters: the eight pairs around a pixel
 * lie in three cache lines, where the 48-byte records of the rows above and
 * below spread over six or more. Apart made the IBFS phase faster on the
 * GrabCut first cuts; on 4- and 6-connected grids, where a node's own
 * record and pair are both read at most steps, it was no faster
 * (bench/results/cpu-bk-grid-2026-11-21.md). The
 * parent is a direction (0..25) or one of the codes P_TERMINAL, P_ORPHAN,
 * P_NONE (free), so the parent node is computed, not stored.
 *
 * Border: at a cold start every residual whose direction leads outside the
 * grid is set to 0 (the caller's border entries are never read), and warm
 * changes to such entries are skipped. The linear index v + off[d] of a
 * direction that leaves the grid lands on some node on the opposite side
 * (or outside [0, n)); for that node, the direction back, d ^ 1, leaves
 * the grid on the same axis, so its residual is 0 too. Scans that read the
 * residual of the neighbour's arc back therefore only need the range check
 * 0 <= v + off[d] < n, and scans that read the node's own residual none.
 *
 * Invariants (beyond bk.c's):
 *   - res[d] == 0 for every direction d leaving the grid;
 *   - tr of a node with a non-terminal parent, and of a free node, is 0;
 *     a root of S has tr > 0, a root of T tr < 0; every tree arc carries a
 *     residual > 0;
 *   - tr = cap_source - cap_sink - (net flow out of v through n-links), and
 *     the flow value is the sum over v of cap_source[v] - max(tr[v], 0).
 *     The second follows from the first for the reparametrised problem
 *     that adds K_v to both terminal capacities of v, for any K_v large
 *     enough to make the implied terminal flows non-negative; such a shift
 *     changes every cut by sum K_v and so keeps the minimum cuts. Warm
 *     updates rely on it: they only move tr and the residuals.
 *   - at the end, T is exactly the set of nodes that reach the sink in the
 *     residual graph: a passive node of T has every neighbour with residual
 *     towards it in T (growth puts it there or finds a path), and adoption
 *     re-activates such neighbours when it frees a node. So the canonical
 *     cut is read off the trees, with no search.
 *   - |tr| <= INT32_MAX: augmentation only shrinks it; a warm update that
 *     would leave the range falls back to a cold start.
 *
 * Memory: (nd + 4) * 4 bytes per node (32 for 4-, 48 for 8-, 40 for
 * 6-connectivity, the pair included), a bit per node for the sink-tree bitmap, and the orphan
 * list, which grows on demand. The state lives in the grid between solves
 * (grid.c) for warm starts.
 */
#include <stdlib.h>
#include <string.h>

#include "core/compiler_internal.h"
#include "solvers/solvers_internal.h"

#define NONE ((int32_t)-1)

/* Parent codes besides directions 0..25. */
#define P_NONE 29u
#define P_TERMINAL 30u
#define P_ORPHAN 31u

enum { T_FREE = 0, T_S = 1, T_T = 2 };

/* meta word: ts << 7 | tree << 5 | parent. */
#define META(ts, tree, par) (((uint32_t)(ts) << 7) | ((uint32_t)(tree) << 5) | (uint32_t)(par))
#define M_TS(m) ((m) >> 7)
#define M_TREE(m) (((m) >> 5) & 3u)
#define M_PAR(m) ((m) & 31u)
#define TS_MAX ((1u << 25) - 1)

/* Where a node's (meta, dist) pair lives, and the record's size in words:
 * nd residuals, tr and next, then the pair unless it is kept apart. */
#define MD_APART(nd) ((nd) >= 8)
#define REC_WORDS(nd) ((nd) + (MD_APART(nd) ? 2 : 4))

/* Field indices of a record, after the nd residuals. */
#define F_TR(nd) (nd)
#define F_NEXT(nd) ((nd) + 1)

#define BKG_CLOCK_EVERY 4096
/* Warm solves (the `warm` setting): BK on the kept trees, or fresh
 * forests and the IBFS phase on the kept flow; `auto` takes IBFS when
 * more than n / BKG_WARM_FLIPS of the touched nodes changed side
 * (many_flips). On the GrabCut warm cuts IBFS pays where more than about a
 * tenth of the nodes flip and loses below; thresholds from 1/25 to 1/8
 * did about equally well, 1/10 and 1/12 best
 * (bench/results/cpu-bk-grid-2026-11-21.md). */
#define BKG_WARM_FLIPS 10
/* Work allowed to the excess mode of the IBFS phase, in steps (orphans
 * processed, arcs an excess moves over) per node, plus 2^20. Unlike plain
 * IBFS, where each augmentation adds to the flow, excesses can go round in
 * circles (flow that T cannot take coming back as a root of S, labels
 * climbing); past the budget the solve starts again without them. The
 * GrabCut first cuts stay far below it (at most about 30 steps per node:
 * bench/results/cpu-bk-grid-2026-11-21.md). */
#define BKG_EXCESS_WORK 256
enum { WARM_AUTO = 0, WARM_BK = 1, WARM_IBFS = 2 };
#define BKG_INF INT64_MAX

/* A node's tree word and label, apart from its record (see the top). */
typedef struct bkg_md {
    uint32_t meta; /* ts (25 bits) | tree (2 bits) | parent direction (5 bits) */
    uint32_t dist; /* arcs to the tree's terminal (the IBFS label) */
} bkg_md;

typedef struct bkg_state {
    /* The grid the records describe. */
    int32_t n, nd, w, h, d;
    void *raw;            /* allocation behind rec (rec is 64-byte aligned) */
    uint32_t *rec;        /* n records of REC_WORDS(nd) words */
    bkg_md *md;           /* n (meta, dist) pairs when MD_APART(nd), else NULL */
    uint64_t *sink_bits;  /* bit v: v is in T (the sink side of the cut) */
    uint64_t *tr_bits;    /* warm_terminals' sign of tr: n bits tr != 0, then n bits tr > 0
                           * (2 * words_of(n) words, on first use; NULL: none) */
    int64_t off[GCUT_GRID_MAX_DIRS];
    /* Orphan FIFO of the current adoption phase, grown on demand. */
    int32_t *orphans;
    int64_t ohead, otail, ocap;
    int oom;              /* growing the orphan list failed */
    int32_t qhead, qtail; /* FIFO of active nodes, linked through next */
    uint32_t time;        /* the current adoption phase */
    uint32_t time_limit;  /* renumber timestamps when time reaches it */
    int64_t flow;
    int64_t augmentations, path_arcs;
    int excess;           /* the IBFS phase moves excesses (EIBFS), the `excess` setting */
    int again;            /* the excess phase gave up: start again without (ibfs_run) */
} bkg_state;

/* Record of node v. Every function below takes nd as a parameter and is
 * inlined into one copy per connectivity (BKG_INSTANCE), so nd + 4 is a
 * constant and this is a shift or a multiply-add by a constant. */
GCUT_INLINE uint32_t *rec_of(const bkg_state *s, int64_t v, const int nd)
{
    return s->rec + (size_t)v * (size_t)REC_WORDS(nd);
}

/* Node v's tree word and label: in its own array for 8 and more
 * directions, at the end of the record for 4 and 6 (see the top). */
GCUT_INLINE bkg_md *md_of(const bkg_state *s, int64_t v, const int nd)
{
    if (MD_APART(nd))
        return &s->md[v];
    return (bkg_md *)(rec_of(s, v, nd) + nd + 2);
}

/* ------------------------------------------------------------ small helpers */

/* T membership is mirrored in a bitmap (n / 8 bytes), written wherever a
 * node enters or leaves T, so that reading the cut costs n / 8 bytes of
 * reads instead of a pass over every record: on a 4-megapixel image that
 * is most of the time of a warm re-solve. */
GCUT_INLINE void sink_set(bkg_state *s, int64_t v) { s->sink_bits[v >> 6] |= 1ull << (v & 63); }
GCUT_INLINE void sink_clear(bkg_state *s, int64_t v)
{
    s->sink_bits[v >> 6] &= ~(1ull << (v & 63));
}

/* Append v to the active FIFO. The links live in the records: a queue
 * needs a slot per node anyway, and a node is usually activated right
 * after its record was read, so the write costs no extra miss. */
GCUT_INLINE void activate(bkg_state *s, int32_t v, const int nd)
{
    uint32_t *r = rec_of(s, v, nd);
    if ((int32_t)r[F_NEXT(nd)] != NONE)
        return; /* queued already, or the node being processed */
    r[F_NEXT(nd)] = (uint32_t)v;
    if (s->qtail == NONE)
        s->qhead = v;
    else
        rec_of(s, s->qtail, nd)[F_NEXT(nd)] = (uint32_t)v;
    s->qtail = v;
}

/* Next active node that is still in a tree (freed ones are dropped). */
GCUT_INLINE int32_t pop_active(bkg_state *s, const int nd)
{
    while (s->qhead != NONE) {
        const int32_t v = s->qhead;
        uint32_t *r = rec_of(s, v, nd);
        if ((int32_t)r[F_NEXT(nd)] == v)
            s->qhead = s->qtail = NONE;
        else
            s->qhead = (int32_t)r[F_NEXT(nd)];
        r[F_NEXT(nd)] = (uint32_t)NONE;
        if (M_TREE(md_of(s, v, nd)->meta) != T_FREE)
            return v;
    }
    return NONE;
}

/* The orphan list grows on demand instead of holding n slots: a phase
 * rarely orphans more than a few thousand nodes, and n slots would add 4
 * bytes per node (an eighth of a 4-connected record). */
static int grow_orphans(bkg_state *s)
{
    const int64_t cap = s->ocap ? 2 * s->ocap : 4096;
    int32_t *p = gcut_i_realloc(s->orphans, (size_t)cap * sizeof(int32_t));
    if (!p)
        return 0;
    s->orphans = p;
    s->ocap = cap;
    return 1;
}

/* v loses its parent. A node enters the list at most once per adoption
 * phase in the main loop (as in bk.c); the warm start may add one twice,
 * which adoption skips. If the list cannot grow the solve fails (oom). */
GCUT_INLINE void make_orphan(bkg_state *s, int32_t v, const int nd)
{
    md_of(s, v, nd)->meta = (md_of(s, v, nd)->meta & ~31u) | P_ORPHAN;
    if (GCUT_UNLIKELY(s->otail == s->ocap) && !grow_orphans(s)) {
        s->oom = 1;
        return;
    }
    s->orphans[s->otail++] = v;
}

/* ------------------------------------------------------------------ growth */

/* One scan of active node i. Returns the direction of an arc from S to T
 * (its tail in *from), or -1. */
GCUT_INLINE int grow(bkg_state *s, int32_t i, int32_t *from, const int nd)
{
    const uint32_t *ri = rec_of(s, i, nd);
    const uint32_t mi = md_of(s, i, nd)->meta, tsi = M_TS(mi), di = md_of(s, i, nd)->dist;
    const uint64_t n = (uint64_t)s->n;
    if (M_TREE(mi) == T_S) {
        for (int d = 0; d < nd; d++) {
            if (ri[d] == 0)
                continue; /* saturated, or leaving the grid */
            const int64_t j = i + s->off[d];
            const uint32_t mj = md_of(s, j, nd)->meta;
            const uint32_t tj = M_TREE(mj);
            if (tj == T_FREE) {
                md_of(s, j, nd)->meta = META(tsi, T_S, d ^ 1);
                md_of(s, j, nd)->dist = di + 1;
                activate(s, (int32_t)j, nd);
            } else if (tj == T_T) {
                *from = i;
                return d;
            } else if (M_TS(mj) <= tsi && md_of(s, j, nd)->dist > di) {
                /* j is no closer to the source than i: hang it under i
                 * (never a cycle, see bk.c's invariants). */
                md_of(s, j, nd)->meta = META(tsi, T_S, d ^ 1);
                md_of(s, j, nd)->dist = di + 1;
            }
        }
    } else {
        /* T grows backwards: j joins if the arc j -> i has residual. That
         * residual is in j's record, read only when j's tree word says it
         * matters; the range check is all the border handling it needs
         * (see the top of the file). */
        for (int d = 0; d < nd; d++) {
            const int64_t j = i + s->off[d];
            if ((uint64_t)j >= n)
                continue;
            const uint32_t mj = md_of(s, j, nd)->meta;
            const uint32_t tj = M_TREE(mj);
            if (tj == T_T && (M_TS(mj) > tsi || md_of(s, j, nd)->dist <= di))
                continue;
            if (rec_of(s, j, nd)[d ^ 1] == 0)
                continue;
            if (tj == T_FREE) {
                md_of(s, j, nd)->meta = META(tsi, T_T, d ^ 1);
                md_of(s, j, nd)->dist = di + 1;
                sink_set(s, j);
                activate(s, (int32_t)j, nd);
            } else if (tj == T_S) {
                *from = (int32_t)j;
                return d ^ 1;
            } else if (M_TS(mj) <= tsi && md_of(s, j, nd)->dist > di) {
                md_of(s, j, nd)->meta = META(tsi, T_T, d ^ 1);
                md_of(s, j, nd)->dist = di + 1;
            }
        }
    }
    return -1;
}

/* ------------------------------------------------------------ augmentation */

/* Push the bottleneck along source -> ... -> u -(dir a)-> v -> ... -> sink
 * and orphan the nodes whose parent arc (or terminal arc) saturates. In S
 * the flow runs parent -> child, against the parent direction p, so the
 * residual used is the parent's res[p ^ 1]; in T it runs child -> parent,
 * the child's res[p]. */
GCUT_INLINE void augment(bkg_state *s, int32_t u, int a, const int nd)
{
    const int32_t v = (int32_t)(u + s->off[a]);
    uint32_t *const ru = rec_of(s, u, nd), *const rv = rec_of(s, v, nd);
    uint32_t f = ru[a];
    int64_t len = 1;

    /* First pass: the bottleneck. Residuals are uint32 (an arc's residual
     * can reach cap + rev_cap > INT32_MAX); a root's tr has the sign of its
     * tree and |tr| <= INT32_MAX, so it converts to uint32 exactly. */
    int64_t x = u;
    for (;;) {
        const uint32_t *rx = rec_of(s, x, nd);
        const uint32_t p = M_PAR(md_of(s, x, nd)->meta);
        if (p == P_TERMINAL) {
            if ((uint32_t)(int32_t)rx[F_TR(nd)] < f)
                f = rx[F_TR(nd)];
            break;
        }
        x += s->off[p];
        const uint32_t r = rec_of(s, x, nd)[p ^ 1];
        if (r < f)
            f = r;
        len++;
    }
    x = v;
    for (;;) {
        const uint32_t *rx = rec_of(s, x, nd);
        const uint32_t p = M_PAR(md_of(s, x, nd)->meta);
        if (p == P_TERMINAL) {
            const uint32_t t = (uint32_t)(-(int32_t)rx[F_TR(nd)]);
            if (t < f)
                f = t;
            break;
        }
        if (rx[p] < f)
            f = rx[p];
        x += s->off[p];
        len++;
    }

    /* Second pass: push f, orphaning below every arc it saturates. */
    ru[a] -= f;
    rv[a ^ 1] += f;
    x = u;
    for (;;) {
        uint32_t *rx = rec_of(s, x, nd);
        const uint32_t p = M_PAR(md_of(s, x, nd)->meta);
        if (p == P_TERMINAL) {
            rx[F_TR(nd)] -= f;
            if (rx[F_TR(nd)] == 0)
                make_orphan(s, (int32_t)x, nd);
            break;
        }
        const int64_t y = x + s->off[p];
        uint32_t *ry = rec_of(s, y, nd);
        ry[p ^ 1] -= f;
        rx[p] += f;
        if (ry[p ^ 1] == 0)
            make_orphan(s, (int32_t)x, nd);
        x = y;
    }
    x = v;
    for (;;) {
        uint32_t *rx = rec_of(s, x, nd);
        const uint32_t p = M_PAR(md_of(s, x, nd)->meta);
        if (p == P_TERMINAL) {
            rx[F_TR(nd)] += f;
            if (rx[F_TR(nd)] == 0)
                make_orphan(s, (int32_t)x, nd);
            break;
        }
        const int64_t y = x + s->off[p];
        rx[p] -= f;
        rec_of(s, y, nd)[p ^ 1] += f;
        if (rx[p] == 0)
            make_orphan(s, (int32_t)x, nd);
        x = y;
    }
    s->flow += f;
    s->augmentations++;
    s->path_arcs += len + 2; /* with the two terminal arcs */
}

/* ---------------------------------------------------------------- adoption */

/* Distance from j to its terminal, walking up to the first node measured
 * in this phase; BKG_INF if the path meets an orphan. */
GCUT_INLINE int64_t origin_dist(bkg_state *s, int64_t j, const int nd)
{
    int64_t dd = 0;
    for (;;) {
        const uint32_t m = md_of(s, j, nd)->meta;
        if (M_TS(m) == s->time)
            return dd + md_of(s, j, nd)->dist;
        const uint32_t p = M_PAR(m);
        dd++;
        if (p == P_TERMINAL) {
            md_of(s, j, nd)->meta = META(s->time, M_TREE(m), p);
            md_of(s, j, nd)->dist = 1;
            return dd;
        }
        if (p == P_ORPHAN)
            return BKG_INF;
        j += s->off[p];
    }
}

/* Stamp the path from j (at distance dd) up to the first stamped node. */
GCUT_INLINE void stamp(bkg_state *s, int64_t j, int64_t dd, const int nd)
{
    for (;;) {
        const uint32_t m = md_of(s, j, nd)->meta;
        if (M_TS(m) == s->time)
            return;
        md_of(s, j, nd)->meta = META(s->time, M_TREE(m), M_PAR(m));
        md_of(s, j, nd)->dist = (uint32_t)dd--;
        j += s->off[M_PAR(m)];
    }
}

/* Node i has left `tree` (freed, or moved to the other tree by a warm
 * change): neighbours of that tree that could grow into i again become
 * active, and i's children there become orphans. The activation keeps
 * BK's termination argument, and with it the canonical cut read from the
 * trees: a node outside T with residual into a node y of T always has y
 * active, and a node x of S with residual out of it to a node outside S is
 * always active. */
GCUT_INLINE void leave_tree(bkg_state *s, int32_t i, uint32_t tree, const int nd)
{
    const uint32_t *ri = rec_of(s, i, nd);
    const uint64_t n = (uint64_t)s->n;
    for (int d = 0; d < nd; d++) {
        const int64_t j = i + s->off[d];
        if ((uint64_t)j >= n)
            continue;
        const uint32_t *rj = rec_of(s, j, nd);
        const uint32_t mj = md_of(s, j, nd)->meta;
        if (M_TREE(mj) != tree)
            continue;
        if (tree == T_S ? rj[d ^ 1] : ri[d])
            activate(s, (int32_t)j, nd);
        if (M_PAR(mj) == (uint32_t)(d ^ 1))
            make_orphan(s, (int32_t)j, nd);
    }
}

/* Find orphan i a parent in its tree (in S one with residual to i, in T
 * one i has residual to, whose own path reaches the terminal), the one
 * nearest the terminal; failing that, free i, re-activate the neighbours
 * that could grow into it again and orphan its children. */
GCUT_INLINE void process_orphan(bkg_state *s, int32_t i, const int nd)
{
    uint32_t *ri = rec_of(s, i, nd);
    const uint32_t tree = M_TREE(md_of(s, i, nd)->meta);
    const uint64_t n = (uint64_t)s->n;
    int best = -1;
    int64_t dmin = BKG_INF;

    for (int d = 0; d < nd; d++) {
        const int64_t j = i + s->off[d];
        if ((uint64_t)j >= n)
            continue;
        if (M_TREE(md_of(s, j, nd)->meta) != tree)
            continue;
        if ((tree == T_S ? rec_of(s, j, nd)[d ^ 1] : ri[d]) == 0)
            continue;
        const int64_t dd = origin_dist(s, j, nd);
        if (dd == BKG_INF)
            continue;
        if (dd < dmin) {
            best = d;
            dmin = dd;
        }
        stamp(s, j, dd, nd);
    }
    if (best >= 0) {
        md_of(s, i, nd)->meta = META(s->time, tree, best);
        md_of(s, i, nd)->dist = (uint32_t)(dmin + 1);
        return;
    }

    md_of(s, i, nd)->meta = META(M_TS(md_of(s, i, nd)->meta), T_FREE, P_NONE);
    if (tree == T_T)
        sink_clear(s, i);
    leave_tree(s, i, tree, nd);
}

/* The augmentation listed its orphans from the joining arc outwards; the
 * ones nearest the terminals go first, so that those below them find a
 * verified path to hang from. */
static void reverse_orphans(bkg_state *s)
{
    for (int64_t lo = s->ohead, hi = s->otail - 1; lo < hi; lo++, hi--) {
        const int32_t t = s->orphans[lo];
        s->orphans[lo] = s->orphans[hi];
        s->orphans[hi] = t;
    }
}

GCUT_INLINE void adopt(bkg_state *s, const int nd)
{
    while (s->ohead != s->otail) {
        const int32_t i = s->orphans[s->ohead++];
        if (M_PAR(md_of(s, i, nd)->meta) == P_ORPHAN) {
                    process_orphan(s, i, nd);
        }
    }
    s->ohead = s->otail = 0;
}

/* Before the 25-bit phase counter runs out: every timestamp becomes 0 and
 * every distance the node's exact depth in its tree, which satisfies the
 * ordering invariant with equal timestamps. Two walks per path, no stack:
 * the first counts the steps up to a node of known depth (ts == 1), the
 * second writes the depths. O(n), once per 2^25 phases. */
GCUT_INLINE void renumber(bkg_state *s, const int nd)
{
    for (int64_t v = 0; v < s->n; v++)
        md_of(s, v, nd)->meta &= 127u;
    for (int64_t v = 0; v < s->n; v++) {
        const uint32_t m = md_of(s, v, nd)->meta;
        if (M_TREE(m) == T_FREE || M_TS(m))
            continue;
        int64_t x = v, k = 0;
        for (;;) {
            const uint32_t mx = md_of(s, x, nd)->meta;
            if (M_TS(mx))
                break;
            if (M_PAR(mx) == P_TERMINAL) {
                md_of(s, x, nd)->meta = mx | (1u << 7);
                md_of(s, x, nd)->dist = 1;
                break;
            }
            x += s->off[M_PAR(mx)];
            k++;
        }
        uint32_t depth = md_of(s, x, nd)->dist + (uint32_t)k;
        for (x = v;;) {
            const uint32_t mx = md_of(s, x, nd)->meta;
            if (M_TS(mx))
                break;
            md_of(s, x, nd)->meta = mx | (1u << 7);
            md_of(s, x, nd)->dist = depth--;
            x += s->off[M_PAR(mx)];
        }
    }
    for (int64_t v = 0; v < s->n; v++)
        md_of(s, v, nd)->meta &= 127u;
    s->time = 0;
}

GCUT_INLINE void next_phase(bkg_state *s, const int nd)
{
    if (s->time >= s->time_limit)
        renumber(s, nd);
    s->time++;
}

/* ---------------------------------------------------------------- driver */

/* The main loop, as bk.c's: after an augmentation the same node grows
 * again before the queue moves on (its next field points to itself
 * meanwhile, so adoption does not queue it twice). The phase counter moves
 * once per augmentation. */
GCUT_INLINE gcut_status run(bkg_state *s, const int nd)
{
    int32_t cur = NONE;
    int64_t steps = 0;
    for (;;) {
        int32_t i = NONE;
        if (cur != NONE) {
            uint32_t *rc = rec_of(s, cur, nd);
            rc[F_NEXT(nd)] = (uint32_t)NONE;
            if (M_TREE(md_of(s, cur, nd)->meta) != T_FREE)
                i = cur;
        }
        if (i == NONE && (i = pop_active(s, nd)) == NONE)
            return GCUT_OK;
        int32_t u;
        const int a = grow(s, i, &u, nd);
        if (a >= 0) {
            rec_of(s, i, nd)[F_NEXT(nd)] = (uint32_t)i;
            cur = i;
            next_phase(s, nd);
            augment(s, u, a, nd);
            reverse_orphans(s);
            adopt(s, nd);
            if (GCUT_UNLIKELY(s->oom))
                return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-bk: cannot grow the orphan list");
        } else {
            cur = NONE;
        }
        if (GCUT_UNLIKELY(++steps % BKG_CLOCK_EVERY == 0)) {
            /* BK knows no measure of the work left: none is reported. */
            const gcut_status st = gcut_i_poll("solve", -1, NULL);
            if (st != GCUT_OK) {
                if (cur != NONE)
                    rec_of(s, cur, nd)[F_NEXT(nd)] = (uint32_t)NONE;
                return st;
            }
        }
    }
}

/* Which directions of a node lead inside, by the node's position: bit k of
 * the index says the node is on border k (x = 0, x = w-1, y = 0, y = h-1,
 * z = 0, z = d-1). */
static void border_masks(const gcut_grid_problem *p, uint32_t mask[64])
{
    for (int b = 0; b < 64; b++) {
        uint32_t m = 0;
        for (int k = 0; k < p->num_dirs; k++) {
            const int32_t *o = p->dir_offset + 3 * k;
            const int out = (o[0] < 0 && (b & 1)) || (o[0] > 0 && (b & 2)) ||
                            (o[1] < 0 && (b & 4)) || (o[1] > 0 && (b & 8)) ||
                            (o[2] < 0 && (b & 16)) || (o[2] > 0 && (b & 32));
            if (!out)
                m |= 1u << k;
        }
        mask[b] = m;
    }
}

/* Residuals from the capacities (0 for directions leaving the grid),
 * cancel min(cap_source, cap_sink), plant the forests: every node with a
 * terminal residual is an active root of its tree. */
GCUT_INLINE void cold_init(bkg_state *s, const gcut_grid_problem *p, const int nd)
{
    uint32_t mask[64];
    border_masks(p, mask);
    s->qhead = s->qtail = NONE;
    s->ohead = s->otail = 0;
    s->time = 0;
    s->flow = 0;
    memset(s->sink_bits, 0, (size_t)(s->n + 63) / 64 * sizeof(uint64_t));
    /* One pass in index order (so the active queue, and with it the whole
     * run, is deterministic), streaming the caller's arrays once. */
    int64_t v = 0;
    for (int32_t z = 0; z < p->depth; z++) {
        const int bz = (z == 0 ? 16 : 0) | (z == p->depth - 1 ? 32 : 0);
        for (int32_t y = 0; y < p->height; y++) {
            const int by = bz | (y == 0 ? 4 : 0) | (y == p->height - 1 ? 8 : 0);
            for (int32_t x = 0; x < p->width; x++, v++) {
                const uint32_t mk =
                    mask[by | (x == 0 ? 1 : 0) | (x == p->width - 1 ? 2 : 0)];
                uint32_t *r = rec_of(s, v, nd);
                for (int d = 0; d < nd; d++)
                    r[d] = (mk >> d) & 1u ? (uint32_t)p->cap[d][v] : 0u;
                const int32_t cs = p->cap_source[v], ct = p->cap_sink[v];
                s->flow += cs < ct ? cs : ct;
                const int32_t tr = cs - ct;
                r[F_TR(nd)] = (uint32_t)tr;
                r[F_NEXT(nd)] = (uint32_t)NONE;
                md_of(s, v, nd)->dist = 1;
                if (tr < 0)
                    sink_set(s, v);
                if (tr != 0) {
                    md_of(s, v, nd)->meta = META(0, tr > 0 ? T_S : T_T, P_TERMINAL);
                    activate(s, (int32_t)v, nd);
                } else {
                    md_of(s, v, nd)->meta = META(0, T_FREE, P_NONE);
                }
            }
        }
    }
}

/* The hand-over of the IBFS phase to BK: every node with terminal
 * residual becomes a root of its tree (leaving the other tree if it was
 * there, as repair does), orphans are adopted, and every node of a tree is
 * activated. The state then satisfies every invariant of a plain cold
 * start after its first growth steps. */
GCUT_INLINE void hand_over(bkg_state *s, const int nd)
{
    next_phase(s, nd);
    s->ohead = s->otail = 0;
    for (int64_t v = 0; v < s->n; v++) {
        uint32_t *r = rec_of(s, v, nd);
        const int32_t tr = (int32_t)r[F_TR(nd)];
        if (tr == 0)
            continue;
        const uint32_t m = md_of(s, v, nd)->meta, tree = M_TREE(m);
        const uint32_t want = tr > 0 ? T_S : T_T;
        if (tree == want && M_PAR(m) == P_TERMINAL) {
            md_of(s, v, nd)->dist = 1; /* an EIBFS root may sit at any label */
            continue;
        }
        if (want == T_T)
            sink_set(s, v);
        else
            sink_clear(s, v);
        md_of(s, v, nd)->meta = META(s->time, want, P_TERMINAL);
        md_of(s, v, nd)->dist = 1;
        if (tree != want && tree != T_FREE)
            leave_tree(s, (int32_t)v, tree, nd);
    }
    adopt(s, nd);
    for (int64_t v = 0; v < s->n; v++)
        if (M_TREE(md_of(s, v, nd)->meta) != T_FREE)
            activate(s, (int32_t)v, nd);
}

/* ------------------------------------------------------------------- IBFS */

/* Cold solves start with incremental breadth-first search (Goldberg,
 * Hed, Kaplan, Tarjan, Werneck, ESA 2011): the same two trees, but each
 * node's dist is its exact depth (its label), a parent always sits one
 * label closer to the terminal, and the trees grow one whole level per
 * pass, in turn, so augmenting paths stay short (S and T meet where
 * their levels meet). An orphan takes a new parent among the
 * neighbours one label closer; failing that it is relabelled to one more
 * than the lowest label offering residual (its children become orphans),
 * and freed when none is within the tree's levels. Orphans go in label
 * order (buckets), so the labels one below are final when read. Nothing
 * walks to a root, which is where BK spends its time on the GrabCut
 * grids (long trees, orphans freed and regrown over and over).
 *
 * Exactness does not rest on this phase: it stops when one tree can grow
 * no more and hands its trees (valid BK trees: residual parent arcs, roots
 * with terminal residual, timestamps 0 and exact depths, the state
 * renumber() produces) to BK, which scans every tree node once more and
 * finishes the flow and the canonical cut as in any other solve. */

/* The end of a bucket list (NONE in F_NEXT means: in no bucket). */
#define IBFS_END ((int32_t)-2)

typedef struct ibfs_list {
    int32_t *v;
    int64_t len, cap;
} ibfs_list;

typedef struct ibfs {
    ibfs_list cur[2], next[2]; /* [0] S, [1] T: frontier (label D) and label D + 1 */
    uint32_t D[2];             /* deepest label of each tree */
    int growing;               /* the tree whose pass runs (0 S, 1 T), -1 none */
    int32_t *bucket;           /* orphan lists by label, linked through F_NEXT */
    int64_t nbucket;
    uint32_t omin, omax;       /* labels that may hold orphans */
    int oom;
    gcut_status stop;          /* gcut_i_poll said stop (every BKG_CLOCK_EVERY scans) */
    int64_t steps;
    int64_t orphans[2];        /* orphans processed in S and in T */
    int64_t budget;            /* excess mode: steps left (see BKG_EXCESS_WORK) */
} ibfs;

static int ibfs_push(ibfs *b, ibfs_list *l, int32_t v)
{
    if (GCUT_UNLIKELY(l->len == l->cap)) {
        const int64_t cap = l->cap ? 2 * l->cap : 4096;
        int32_t *p = gcut_i_realloc(l->v, (size_t)cap * sizeof(int32_t));
        if (!p) {
            b->oom = 1;
            return 0;
        }
        l->v = p;
        l->cap = cap;
    }
    l->v[l->len++] = v;
    return 1;
}

/* Orphan v (its label is dist) into its bucket. */
GCUT_INLINE void ibfs_orphan(bkg_state *s, ibfs *b, int32_t v, const int nd)
{
    uint32_t *r = rec_of(s, v, nd);
    const uint32_t lab = md_of(s, v, nd)->dist;
    md_of(s, v, nd)->meta = (md_of(s, v, nd)->meta & ~31u) | P_ORPHAN;
    if ((int32_t)r[F_NEXT(nd)] != NONE)
        return; /* in its bucket already (its label has not moved since) */
    if (GCUT_UNLIKELY((int64_t)lab >= b->nbucket)) {
        int64_t nb = b->nbucket ? 2 * b->nbucket : 1024;
        while (nb <= (int64_t)lab)
            nb *= 2;
        int32_t *p = gcut_i_realloc(b->bucket, (size_t)nb * sizeof(int32_t));
        if (!p) {
            b->oom = 1;
            return;
        }
        for (int64_t k = b->nbucket; k < nb; k++)
            p[k] = IBFS_END;
        b->bucket = p;
        b->nbucket = nb;
    }
    r[F_NEXT(nd)] = (uint32_t)b->bucket[lab];
    b->bucket[lab] = v;
    if (lab < b->omin)
        b->omin = lab;
    if (lab > b->omax)
        b->omax = lab;
}

/* The children of v in `tree` become orphans. */
GCUT_INLINE void ibfs_orphan_children(bkg_state *s, ibfs *b, int32_t v, uint32_t tree,
                                     const int nd)
{
    const uint64_t n = (uint64_t)s->n;
    for (int d = 0; d < nd; d++) {
        const int64_t j = v + s->off[d];
        if ((uint64_t)j >= n)
            continue;
        const uint32_t mj = md_of(s, j, nd)->meta;
        if (M_TREE(mj) == tree && M_PAR(mj) == (uint32_t)(d ^ 1))
            ibfs_orphan(s, b, (int32_t)j, nd);
    }
}

/* The children of v found by a scan (bit d: direction d) become orphans. */
GCUT_INLINE void ibfs_orphan_kids(bkg_state *s, ibfs *b, int32_t v, uint32_t kids, const int nd)
{
    for (; kids; kids &= kids - 1)
        ibfs_orphan(s, b, (int32_t)(v + s->off[GCUT_CTZ32(kids)]), nd);
}

/* tr[x] += delta, keeping flow = sum of cap_source - max(tr, 0). */
GCUT_INLINE void ibfs_tr_add(bkg_state *s, uint32_t *rx, int64_t delta, const int nd)
{
    const int64_t old = (int32_t)rx[F_TR(nd)], now = old + delta;
    s->flow -= (now > 0 ? now : 0) - (old > 0 ? old : 0);
    rx[F_TR(nd)] = (uint32_t)(int32_t)now;
}

/* Excess mode: x holds flow of the other tree's sign (tr > 0 in T, an
 * excess that must reach the sink; tr < 0 in S, a deficit the source must
 * fill) and has a parent. Move it along the parent arcs towards the root
 * as far as their residuals allow. A node whose parent arc saturates
 * becomes an orphan and keeps what did not pass; a root left with nothing,
 * or with the other sign, becomes an orphan too. A move that would take a
 * parent's tr out of [-INT32_MAX, INT32_MAX] is not made (x keeps its
 * flow; the hand-over to BK makes it a root of the other tree). */
GCUT_INLINE void ibfs_discharge(bkg_state *s, ibfs *b, int64_t x, const int nd)
{
    for (;;) {
        uint32_t *rx = rec_of(s, x, nd);
        const uint32_t m = md_of(s, x, nd)->meta, tree = M_TREE(m), par = M_PAR(m);
        const int32_t tr = (int32_t)rx[F_TR(nd)];
        if (tree == T_T ? tr <= 0 : tr >= 0)
            return;
        if (par >= P_NONE) {
            if (par == P_TERMINAL)
                ibfs_orphan(s, b, (int32_t)x, nd);
            return; /* an orphan already: adoption moves it on */
        }
        const int64_t y = x + s->off[par];
        uint32_t *ry = rec_of(s, y, nd);
        /* In T the flow runs x -> y over x's res[par]; in S it comes
         * y -> x over y's res[par ^ 1]. */
        uint32_t *arc = tree == T_T ? &rx[par] : &ry[par ^ 1];
        uint32_t *back = tree == T_T ? &ry[par ^ 1] : &rx[par];
        const int32_t ty = (int32_t)ry[F_TR(nd)];
        int64_t a = tree == T_T ? tr : -(int64_t)tr;
        const int64_t room = INT32_MAX - (tree == T_T ? (ty > 0 ? ty : 0) : (ty < 0 ? -ty : 0));
        if (a > *arc)
            a = *arc;
        if (a > room)
            a = room;
        if (GCUT_UNLIKELY(a == 0))
            return;
        *arc -= (uint32_t)a;
        *back += (uint32_t)a;
        ibfs_tr_add(s, rx, tree == T_T ? -a : a, nd);
        ibfs_tr_add(s, ry, tree == T_T ? a : -a, nd);
        s->path_arcs++;
        b->budget--;
        if (*arc == 0)
            ibfs_orphan(s, b, (int32_t)x, nd);
        if (M_PAR(md_of(s, y, nd)->meta) == P_TERMINAL) {
            const int32_t t1 = (int32_t)ry[F_TR(nd)];
            if (tree == T_T ? t1 >= 0 : t1 <= 0)
                ibfs_orphan(s, b, (int32_t)y, nd);
            return;
        }
        x = y;
    }
}

/* Excess augmentation over the arc u -(a)-> v from S to T (the EIBFS of
 * Goldberg, Hed, Kaplan, Kohli, Tarjan, Werneck, ESA 2015): the whole
 * residual of the arc crosses, limited only by the supply of an end that
 * is a root itself; then v's excess runs down T and u's deficit up S
 * (ibfs_discharge), each stopping where an arc saturates. No bottleneck
 * walk, and what could not pass waits near the frontier instead of being
 * pulled from the roots again path by path. Returns the flow moved over
 * the arc (0 only when a tr is at the end of its range). */
GCUT_INLINE int64_t augment_ex(bkg_state *s, ibfs *b, int32_t u, int a, const int nd)
{
    const int64_t v = u + s->off[a];
    uint32_t *const ru = rec_of(s, u, nd), *const rv = rec_of(s, v, nd);
    const int32_t tu = (int32_t)ru[F_TR(nd)], tv = (int32_t)rv[F_TR(nd)];
    const int uroot = M_PAR(md_of(s, u, nd)->meta) == P_TERMINAL;
    const int vroot = M_PAR(md_of(s, v, nd)->meta) == P_TERMINAL;
    int64_t f = ru[a];
    if (uroot && f > tu)
        f = tu;
    if (vroot && f > -(int64_t)tv)
        f = -(int64_t)tv;
    /* Keep both tr within [-INT32_MAX, INT32_MAX]. */
    if (f > INT32_MAX - (tv > 0 ? tv : 0))
        f = INT32_MAX - (tv > 0 ? tv : 0);
    if (f > INT32_MAX + (int64_t)(tu < 0 ? tu : 0))
        f = INT32_MAX + (int64_t)(tu < 0 ? tu : 0);
    if (GCUT_UNLIKELY(f <= 0))
        return 0;
    ru[a] -= (uint32_t)f;
    rv[a ^ 1] += (uint32_t)f;
    ibfs_tr_add(s, ru, -f, nd);
    ibfs_tr_add(s, rv, f, nd);
    s->augmentations++;
    s->path_arcs++;
    if (vroot) {
        if ((int32_t)rv[F_TR(nd)] >= 0)
            ibfs_orphan(s, b, (int32_t)v, nd);
    } else {
        ibfs_discharge(s, b, v, nd);
    }
    if (uroot) {
        if ((int32_t)ru[F_TR(nd)] <= 0)
            ibfs_orphan(s, b, u, nd);
    } else {
        ibfs_discharge(s, b, u, nd);
    }
    return f;
}

/* Adopt or relabel orphan i (see the comment above). */
GCUT_INLINE void ibfs_adopt_one(bkg_state *s, ibfs *b, int32_t i, const int nd)
{
    uint32_t *ri = rec_of(s, i, nd);
    const uint32_t tree = M_TREE(md_of(s, i, nd)->meta), t = tree == T_T;
    const uint32_t lab = md_of(s, i, nd)->dist;
    b->orphans[t]++;
    b->budget -= s->excess;
    const uint64_t n = (uint64_t)s->n;
    uint32_t best = UINT32_MAX;
    int bd = -1;
    if ((int32_t)ri[F_TR(nd)] != 0 && ((int32_t)ri[F_TR(nd)] > 0) == (tree == T_S)) {
        /* Still has terminal residual on its side: a root again (in
         * excess mode at its label, keeping its children). */
        md_of(s, i, nd)->meta = META(0, tree, P_TERMINAL);
        if (lab != 1 && !s->excess) {
            md_of(s, i, nd)->dist = 1;
            ibfs_orphan_children(s, b, i, tree, nd);
        }
        return;
    }
    uint32_t kids = 0; /* bit d: the neighbour in direction d is a child of i */
    for (int d = 0; d < nd; d++) {
        const int64_t j = i + s->off[d];
        if ((uint64_t)j >= n)
            continue;
        const uint32_t mj = md_of(s, j, nd)->meta;
        if (M_TREE(mj) != tree)
            continue;
        if (M_PAR(mj) == (uint32_t)(d ^ 1))
            kids |= 1u << d;
        else if (M_PAR(mj) == P_ORPHAN)
            continue;
        /* The label first: the residual (in S in j's record) only matters
         * for a parent or a new lowest label. */
        const uint32_t lj = md_of(s, j, nd)->dist;
        if (lj + 1 != lab && lj >= best)
            continue;
        if ((tree == T_S ? rec_of(s, j, nd)[d ^ 1] : ri[d]) == 0)
            continue;
        if (lj + 1 == lab) {
            md_of(s, i, nd)->meta = META(0, tree, d);
            if (s->excess && (int32_t)ri[F_TR(nd)] != 0)
                ibfs_discharge(s, b, i, nd); /* the flow it holds moves on */
            return;
        }
        if (lj < best) {
            best = lj;
            bd = d;
        }
    }
    /* No parent one label up: the lowest label offering residual, if it
     * leaves i within the tree's levels. */
    const uint32_t top = b->D[t] + (b->growing == (int)t ? 1u : 0u);
    if (bd >= 0 && best + 1 <= top) {
        md_of(s, i, nd)->meta = META(0, tree, bd);
        md_of(s, i, nd)->dist = best + 1;
        ibfs_orphan_kids(s, b, i, kids, nd);
        if (best + 1 == b->D[t])
            ibfs_push(b, &b->cur[t], i);
        else if (best + 1 > b->D[t])
            ibfs_push(b, &b->next[t], i);
        if (s->excess && (int32_t)ri[F_TR(nd)] != 0)
            ibfs_discharge(s, b, i, nd);
        return;
    }
    ibfs_orphan_kids(s, b, i, kids, nd);
    if (s->excess && (int32_t)ri[F_TR(nd)] != 0) {
        /* Excess mode, flow of the other tree's sign and no parent: a root
         * of that tree, on its frontier (label D there). */
        const uint32_t o = t ^ 1u;
        md_of(s, i, nd)->meta = META(0, o ? T_T : T_S, P_TERMINAL);
        md_of(s, i, nd)->dist = b->D[o];
        if (o)
            sink_set(s, i);
        else
            sink_clear(s, i);
        ibfs_push(b, &b->cur[o], i);
        return;
    }
    md_of(s, i, nd)->meta = META(0, T_FREE, P_NONE);
    if (tree == T_T)
        sink_clear(s, i);
}

/* Take the orphans augment() listed into the buckets, then process the
 * buckets in label order (children join higher buckets as we go). */
GCUT_INLINE void ibfs_adopt(bkg_state *s, ibfs *b, const int nd)
{
    for (int64_t k = 0; k < s->otail; k++) {
        const int32_t v = s->orphans[k];
        if (M_PAR(md_of(s, v, nd)->meta) == P_ORPHAN)
            ibfs_orphan(s, b, v, nd);
    }
    s->ohead = s->otail = 0;
    while (b->omin <= b->omax) {
        const uint32_t lab = b->omin;
        const int32_t v = b->bucket[lab];
        if (v == IBFS_END) {
            b->omin++;
            continue;
        }
        uint32_t *r = rec_of(s, v, nd);
        b->bucket[lab] = (int32_t)r[F_NEXT(nd)];
        r[F_NEXT(nd)] = (uint32_t)NONE;
        if (M_PAR(md_of(s, v, nd)->meta) == P_ORPHAN && md_of(s, v, nd)->dist == lab)
            ibfs_adopt_one(s, b, v, nd);
        if (GCUT_UNLIKELY(b->budget < 0))
            return; /* the phase is abandoned (ibfs_run) */
    }
    b->omin = UINT32_MAX;
    b->omax = 0;
}

/* One pass of tree t: scan every node of its frontier (label D), add the
 * free neighbours at D + 1, augment where the other tree is met. */
GCUT_INLINE void ibfs_pass(bkg_state *s, ibfs *b, int t, const int nd)
{
    const uint64_t n = (uint64_t)s->n;
    const uint32_t tree = t ? T_T : T_S, other = t ? T_S : T_T;
    const uint32_t D = b->D[t];
    b->growing = t;
    for (int64_t k = 0; k < b->cur[t].len; k++) {
        if (GCUT_UNLIKELY(++b->steps % BKG_CLOCK_EVERY == 0) &&
            (b->stop = gcut_i_poll("solve", b->cur[t].len - k, "nodes in the IBFS layer")) !=
                GCUT_OK)
            return;
        const int32_t i = b->cur[t].v[k];
        uint32_t *ri = rec_of(s, i, nd);
        for (int d = 0; d < nd; d++) {
            const uint32_t mi = md_of(s, i, nd)->meta;
            if (M_TREE(mi) != tree || M_PAR(mi) == P_ORPHAN || md_of(s, i, nd)->dist != D)
                break; /* i left the frontier through an augmentation */
            const int64_t j = i + s->off[d];
            if ((uint64_t)j >= n)
                continue;
            /* The tree first: in T the residual is in j's record. */
            const uint32_t tj = M_TREE(md_of(s, j, nd)->meta);
            if (tj == tree || (t ? rec_of(s, j, nd)[d ^ 1] : ri[d]) == 0)
                continue;
            if (tj == T_FREE) {
                md_of(s, j, nd)->meta = META(0, tree, d ^ 1);
                md_of(s, j, nd)->dist = D + 1;
                if (t)
                    sink_set(s, j);
                if (!ibfs_push(b, &b->next[t], (int32_t)j))
                    return;
            } else if (tj == other) {
                const int32_t from = t ? (int32_t)j : i;
                const int dir = t ? d ^ 1 : d;
                if (!s->excess)
                    augment(s, from, dir, nd);
                else if (GCUT_UNLIKELY(augment_ex(s, b, from, dir, nd) == 0))
                    continue; /* stuck at the end of the range: BK finishes it */
                ibfs_adopt(s, b, nd);
                if (GCUT_UNLIKELY(b->oom || s->oom || b->budget < 0))
                    return;
                d--; /* the same arc again: it may still have residual */
            }
        }
    }
    /* The next level becomes the frontier. */
    b->cur[t].len = 0;
    ibfs_list tmp = b->cur[t];
    b->cur[t] = b->next[t];
    b->next[t] = tmp;
    b->D[t] = D + 1;
    b->growing = -1;
}

/* Entries of the frontier list still at label D in tree t. */
GCUT_INLINE int64_t ibfs_live(bkg_state *s, ibfs *b, int t, const int nd)
{
    const uint32_t tree = t ? T_T : T_S;
    int64_t w = 0;
    for (int64_t k = 0; k < b->cur[t].len; k++) {
        const int32_t v = b->cur[t].v[k];
        if (M_TREE(md_of(s, v, nd)->meta) == tree && md_of(s, v, nd)->dist == b->D[t])
            b->cur[t].v[w++] = v;
    }
    b->cur[t].len = w;
    return w;
}

/* The IBFS phase of a cold solve, on the state cold_init left (every
 * node with terminal residual a root, labels 1, the active queue
 * holding them in index order, which fixes the order of the whole run).
 * Returns GCUT_OK, GCUT_ERR_NOMEM or GCUT_ERR_TIMEOUT (then the state is
 * left for a cold start, as after a timeout of run()). */
GCUT_INLINE gcut_status ibfs_run(bkg_state *s, const int nd)
{
    ibfs b;
    memset(&b, 0, sizeof b);
    b.growing = -1;
    b.omin = UINT32_MAX;
    /* The roots, in index order, from the active queue. */
    for (int32_t v = s->qhead; v != NONE;) {
        uint32_t *r = rec_of(s, v, nd);
        const int32_t nx = (int32_t)r[F_NEXT(nd)];
        r[F_NEXT(nd)] = (uint32_t)NONE;
        ibfs_push(&b, &b.cur[M_TREE(md_of(s, v, nd)->meta) == T_T], v);
        v = nx == v ? NONE : nx;
    }
    s->qhead = s->qtail = NONE;
    b.D[0] = b.D[1] = 1;
    /* The trees grow a level at a time; next grows the tree that has
     * processed fewer orphans so far, in turn when equal (the rule of the
     * ESA 2015 paper's code): faster on the GrabCut first cuts than strict
     * turns, and growing the tree with the smaller frontier was slower
     * than both (bench/results/cpu-bk-grid-2026-11-21.md): the frontier of
     * T, all the pixels that prefer the background, stays larger, so S
     * alone grew into deep trees whose orphans cascaded. A tree whose
     * frontier is empty can grow no more, and the phase ends. */
    b.budget = BKG_EXCESS_WORK * (int64_t)s->n + (1 << 20);
    for (int t = 0; !b.oom && !s->oom && !b.stop && b.budget >= 0;) {
        if (ibfs_live(s, &b, t, nd) == 0)
            break;
        ibfs_pass(s, &b, t, nd);
        t = b.orphans[0] == b.orphans[1] ? t ^ 1 : b.orphans[1] < b.orphans[0];
    }
    for (int k = 0; k < 2; k++) {
        gcut_i_free(b.cur[k].v);
        gcut_i_free(b.next[k].v);
    }
    gcut_i_free(b.bucket);
    if (b.oom || s->oom)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-bk: cannot grow the IBFS lists");
    if (b.stop)
        return b.stop; /* recorded by gcut_i_poll */
    if (b.budget < 0) {
        /* Excesses went round in circles: the caller starts again without. */
        s->excess = 0;
        s->again = 1;
        return GCUT_OK;
    }
    /* Hand over to BK: every tree node active. */
    s->time = 0;
    hand_over(s, nd);
    return GCUT_OK;
}

/* tr[v] += delta, keeping flow = sum of cap_source - max(tr, 0). Returns 0
 * if tr would leave [-INT32_MAX, INT32_MAX] (then the caller goes cold). */
GCUT_INLINE int add_tr(bkg_state *s, int64_t v, int64_t delta, const int nd)
{
    uint32_t *r = rec_of(s, v, nd);
    const int64_t old = (int32_t)r[F_TR(nd)], now = old + delta;
    if (now > INT32_MAX || now < -INT32_MAX)
        return 0;
    s->flow -= (now > 0 ? now : 0) - (old > 0 ? old : 0);
    r[F_TR(nd)] = (uint32_t)(int32_t)now;
    return 1;
}

static int inside(const gcut_grid_problem *p, int32_t v, int d)
{
    const int64_t plane = (int64_t)p->width * p->height;
    const int64_t x = v % p->width + p->dir_offset[3 * d];
    const int64_t y = (v / p->width) % p->height + p->dir_offset[3 * d + 1];
    const int64_t z = v / plane + p->dir_offset[3 * d + 2];
    return x >= 0 && x < p->width && y >= 0 && y < p->height && z >= 0 && z < p->depth;
}

/* After the changes, make a touched node consistent again: a terminal
 * residual makes it a root of the matching tree (leaving the other tree
 * as a freed node would: repair_root, given the sign of the residual and
 * the node's tree); otherwise it keeps its parent only if the parent arc
 * still has residual in the tree's direction. */
GCUT_INLINE void repair_root(bkg_state *s, int32_t v, int positive, uint32_t tree, const int nd)
{
    const uint32_t want = positive ? T_S : T_T;
    if (want == T_T)
        sink_set(s, v);
    else
        sink_clear(s, v);
    md_of(s, v, nd)->meta = META(s->time, want, P_TERMINAL);
    if (tree != want && tree != T_FREE)
        leave_tree(s, v, tree, nd);
    md_of(s, v, nd)->dist = 1;
}

GCUT_INLINE void repair(bkg_state *s, int32_t v, const int nd)
{
    uint32_t *rv = rec_of(s, v, nd);
    const uint32_t m = md_of(s, v, nd)->meta, tree = M_TREE(m), par = M_PAR(m);
    const int32_t tr = (int32_t)rv[F_TR(nd)];
    if (tr != 0) {
        repair_root(s, v, tr > 0, tree, nd);
        return;
    }
    if (tree == T_FREE || par == P_ORPHAN)
        return;
    const int ok = par < P_NONE &&
                   (tree == T_S ? rec_of(s, v + s->off[par], nd)[par ^ 1] : rv[par]) != 0;
    if (!ok)
        make_orphan(s, v, nd);
}

/* Warm start (Kohli & Torr): replay the changes on the residual graph of
 * the previous solve, then repair the trees around the touched nodes.
 *   - a terminal capacity moves tr by its delta (and the flow value by the
 *     delta of cap_source - max(tr, 0));
 *   - an arc capacity moves the arc's residual by its delta; if that goes
 *     below 0 (the new capacity is below the flow already on the arc) the
 *     flow on the arc is cut back to the new capacity, and the excess
 *     shifted to the terminals of both ends (tr of the tail up, of the head
 *     down): the reparametrisation of the header comment.
 * Touched nodes are collected in the (empty) active queue. Returns 0 when
 * a tr would overflow: the caller then starts cold. */
GCUT_INLINE int warm_replay(bkg_state *s, const gcut_grid_problem *p, const int nd)
{
    /* A fresh phase: every kept timestamp is then below it, so a node
     * re-rooted with (ts = time, dist = 1) sits strictly above its old
     * descendants in the (ts, -dist) order that keeps the trees acyclic. */
    next_phase(s, nd);
    s->qhead = s->qtail = NONE;
    s->ohead = s->otail = 0;
    for (int64_t c = 0; c < p->num_changes; c++) {
        const gcut_grid_change *ch = &p->changes[c];
        const int32_t v = ch->node;
        if (ch->what == GCUT_GRID_SOURCE_LINK) {
            s->flow += ch->delta;
            if (!add_tr(s, v, ch->delta, nd))
                return 0;
            activate(s, v, nd);
        } else if (ch->what == GCUT_GRID_SINK_LINK) {
            if (!add_tr(s, v, -(int64_t)ch->delta, nd))
                return 0;
            activate(s, v, nd);
        } else {
            const int d = ch->what;
            if (!inside(p, v, d))
                continue; /* border entries are never used */
            const int64_t u = v + s->off[d];
            uint32_t *rv = rec_of(s, v, nd);
            const int64_t r = (int64_t)rv[d] + ch->delta;
            if (r >= 0) {
                rv[d] = (uint32_t)r;
            } else {
                rv[d] = 0;
                rec_of(s, u, nd)[d ^ 1] -= (uint32_t)-r;
                if (!add_tr(s, v, -r, nd) || !add_tr(s, u, r, nd))
                    return 0;
            }
            activate(s, v, nd);
            activate(s, (int32_t)u, nd);
        }
    }
    return 1;
}

/* Whether more than n / BKG_WARM_FLIPS touched nodes now have terminal
 * residual on the side opposite to their tree (repair would move them to
 * the other tree): the cut has to move far, and the kept trees are more
 * hindrance than help. */
GCUT_INLINE int many_flips(const bkg_state *s, const int nd)
{
    const int64_t limit = s->n / BKG_WARM_FLIPS;
    int64_t flips = 0;
    for (int32_t v = s->qhead; v != NONE;) {
        const uint32_t *r = rec_of(s, v, nd);
        const int32_t tr = (int32_t)r[F_TR(nd)];
        const uint32_t tree = M_TREE(md_of(s, v, nd)->meta);
        flips += (tr > 0 && tree == T_T) || (tr < 0 && tree == T_S);
        if (flips > limit)
            return 1;
        const int32_t nx = (int32_t)r[F_NEXT(nd)];
        v = nx == v ? NONE : nx;
    }
    return 0;
}

/* Fresh forests on the kept flow, as cold_init builds them on zero flow:
 * every node with terminal residual a root of its side (label 1, active,
 * in index order), every other node free; the IBFS phase starts from here. */
GCUT_INLINE void reforest(bkg_state *s, const int nd)
{
    s->qhead = s->qtail = NONE;
    s->ohead = s->otail = 0;
    s->time = 0;
    memset(s->sink_bits, 0, (size_t)(s->n + 63) / 64 * sizeof(uint64_t));
    for (int64_t v = 0; v < s->n; v++) {
        uint32_t *r = rec_of(s, v, nd);
        const int32_t tr = (int32_t)r[F_TR(nd)];
        r[F_NEXT(nd)] = (uint32_t)NONE;
        md_of(s, v, nd)->dist = 1;
        if (tr != 0) {
            if (tr < 0)
                sink_set(s, v);
            md_of(s, v, nd)->meta = META(0, tr > 0 ? T_S : T_T, P_TERMINAL);
            activate(s, (int32_t)v, nd);
        } else {
            md_of(s, v, nd)->meta = META(0, T_FREE, P_NONE);
        }
    }
}

/* Whether every change since the last solve is a terminal capacity. */
GCUT_INLINE int terminals_only(const gcut_grid_problem *p)
{
    for (int64_t c = 0; c < p->num_changes; c++)
        if (p->changes[c].what != GCUT_GRID_SOURCE_LINK &&
            p->changes[c].what != GCUT_GRID_SINK_LINK)
            return 0;
    return 1;
}

/* warm_init when only terminal capacities changed (a new colour model
 * moves every t-link of a segmentation a little): the same replay, flip
 * count and repair, in two passes over the changes (instead of four over
 * the queue), with only the nodes whose tree changed (a flip to the other
 * side, or a free node that became a root) left active. At the end of the last
 * solve no node was active: every residual arc out of an S node (into a
 * T node) led to a node of the same tree. The arcs are as they were, so
 * a node that stays in its tree can reach nothing new; what can is found
 * from the nodes that changed side (an S node with residual into a
 * flipped T node is found by that node's growth), from the new roots,
 * and from the neighbours that adoption re-activates around a freed
 * orphan. The max flow, and so the canonical cut, are the same; the scan
 * of every touched node's neighbours is saved (a new GMM in a 2-megapixel
 * segmentation: bench/results/release-2026-11-27.md). Returns as
 * warm_init. */
GCUT_INLINE int warm_terminals(bkg_state *s, const gcut_grid_problem *p, int mode, const int nd)
{
    next_phase(s, nd);
    s->qhead = s->qtail = NONE;
    s->ohead = s->otail = 0;
    /* The replay, with many_flips counted on the way (per change: a node
     * changed twice, source and sink, may count twice; the choice is a
     * speed heuristic, the result is the same). */
    const int64_t limit = s->n / BKG_WARM_FLIPS;
    int64_t flips = 0;
    /* The sign of each touched node's tr is kept in two bitmaps (a
     * quarter of a byte per node, in the cache), so that the repair below
     * reads a node's record only when its tr is 0 (rare: the changes of a
     * new colour model leave every touched node some terminal residual),
     * not once more for every change. Only for logs longer than n / 64
     * (a stroke's few changes read the records as before), and without
     * memory for the bitmaps the repair reads every tr from the records. */
    const int64_t words = ((int64_t)s->n + 63) / 64;
    if (!s->tr_bits && p->num_changes > words)
        s->tr_bits = gcut_i_malloc_array(2 * words, sizeof(uint64_t));
    uint64_t *const nzb = p->num_changes > words ? s->tr_bits : NULL;
    uint64_t *const posb = nzb ? nzb + words : NULL;
    for (int64_t c = 0; c < p->num_changes; c++) {
        const gcut_grid_change *ch = &p->changes[c];
        const int32_t v = ch->node;
        if (ch->what == GCUT_GRID_SOURCE_LINK) {
            s->flow += ch->delta;
            if (!add_tr(s, v, ch->delta, nd))
                return 0;
        } else if (!add_tr(s, v, -(int64_t)ch->delta, nd)) {
            return 0;
        }
        const int32_t tr = (int32_t)rec_of(s, v, nd)[F_TR(nd)];
        const uint32_t tree = M_TREE(md_of(s, v, nd)->meta);
        flips += (tr > 0 && tree == T_T) || (tr < 0 && tree == T_S);
        if (nzb) {
            const uint64_t bit = 1ull << (v & 63);
            nzb[v >> 6] = tr != 0 ? nzb[v >> 6] | bit : nzb[v >> 6] & ~bit;
            posb[v >> 6] = tr > 0 ? posb[v >> 6] | bit : posb[v >> 6] & ~bit;
        }
    }
    if (mode == WARM_AUTO)
        mode = flips > limit ? WARM_IBFS : WARM_BK;
    if (mode == WARM_IBFS) {
        reforest(s, nd);
        return WARM_IBFS;
    }
    /* The repair, once every tr is final (as warm_init's); a node's bits
     * were last written by its last change, so they are its final tr's. */
    for (int64_t c = 0; c < p->num_changes; c++) {
        const int32_t v = p->changes[c].node;
        const uint32_t before = M_TREE(md_of(s, v, nd)->meta);
        if (nzb && ((nzb[v >> 6] >> (v & 63)) & 1u))
            repair_root(s, v, (int)((posb[v >> 6] >> (v & 63)) & 1u), before, nd);
        else
            repair(s, v, nd);
        const uint32_t after = M_TREE(md_of(s, v, nd)->meta);
        if (after != T_FREE && after != before)
            activate(s, v, nd);
    }
    adopt(s, nd);
    return WARM_BK;
}

/* Warm start: the replay, then by the mode (the `warm` setting) either
 * BK on the kept trees (repair the touched nodes, adopt the orphans; they
 * stay active so the main loop grows from them), or fresh forests for
 * the IBFS phase on the kept flow; WARM_AUTO picks IBFS when many_flips.
 * Returns 0 (start cold), WARM_BK or WARM_IBFS. */
GCUT_INLINE int warm_init(bkg_state *s, const gcut_grid_problem *p, int mode, const int nd)
{
    if (terminals_only(p))
        return warm_terminals(s, p, mode, nd);
    if (!warm_replay(s, p, nd))
        return 0;
    if (mode == WARM_AUTO)
        mode = many_flips(s, nd) ? WARM_IBFS : WARM_BK;
    if (mode == WARM_IBFS) {
        reforest(s, nd);
        return WARM_IBFS;
    }
    for (int32_t v = s->qhead; v != NONE;) {
        repair(s, v, nd);
        const int32_t nx = (int32_t)rec_of(s, v, nd)[F_NEXT(nd)];
        v = nx == v ? NONE : nx;
    }
    adopt(s, nd);
    return WARM_BK;
}

/* The canonical cut is T (see the invariants at the top), read from the
 * bitmap; a bit is the cut byte itself (GCUT_SOURCE 0, GCUT_SINK 1). */
_Static_assert(GCUT_SOURCE == 0 && GCUT_SINK == 1, "the cut bytes are the bits");

static void read_cut(const bkg_state *s, uint8_t *cut)
{
    /* Eight cut bytes per bitmap byte, through a table of the 256 patterns
     * (built here: 2 KB, cheaper than any page of the cut). */
    uint64_t spread[256];
    for (unsigned b = 0; b < 256; b++) {
        uint8_t bytes[8];
        for (int i = 0; i < 8; i++)
            bytes[i] = (uint8_t)((b >> i) & 1u);
        memcpy(&spread[b], bytes, 8);
    }
    const int64_t n = s->n, full = n / 64;
    for (int64_t w = 0; w < full; w++) {
        uint64_t x = s->sink_bits[w]; /* node 64w + j is bit j, on any endianness */
        for (int k = 0; k < 8; k++, x >>= 8)
            memcpy(cut + 64 * w + 8 * k, &spread[x & 255u], 8);
    }
    for (int64_t v = 64 * full; v < n; v++)
        cut[v] = (uint8_t)((s->sink_bits[v >> 6] >> (v & 63)) & 1u);
}

/* One copy of the engine per connectivity, so that the record size and
 * the direction loops are compile-time constants. */
#define BKG_INSTANCE(N)                                                                       \
    static int warm_##N(bkg_state *s, const gcut_grid_problem *p, int m)                       \
    {                                                                                         \
        return warm_init(s, p, m, N);                                                         \
    }                                                                                         \
    static void cold_##N(bkg_state *s, const gcut_grid_problem *p) { cold_init(s, p, N); }      \
    static gcut_status run_##N(bkg_state *s) { return run(s, N); }                             \
    static gcut_status ibfs_##N(bkg_state *s) { return ibfs_run(s, N); }
BKG_INSTANCE(4)
BKG_INSTANCE(6)
BKG_INSTANCE(8)
BKG_INSTANCE(18)
BKG_INSTANCE(26)

typedef struct bkg_ops {
    int (*warm)(bkg_state *, const gcut_grid_problem *, int);
    void (*cold)(bkg_state *, const gcut_grid_problem *);
    gcut_status (*run)(bkg_state *);
    gcut_status (*ibfs)(bkg_state *);
} bkg_ops;

static const bkg_ops *ops_for(int32_t nd)
{
#define BKG_OPS(N) {warm_##N, cold_##N, run_##N, ibfs_##N}
    static const bkg_ops ops4 = BKG_OPS(4), ops6 = BKG_OPS(6), ops8 = BKG_OPS(8),
                         ops18 = BKG_OPS(18), ops26 = BKG_OPS(26);
#undef BKG_OPS
    switch (nd) {
    case 4: return &ops4;
    case 6: return &ops6;
    case 8: return &ops8;
    case 18: return &ops18;
    case 26: return &ops26;
    default: return NULL;
    }
}

/* ------------------------------------------------------------ the back end */


gcut_status gcut_i_bk_grid_create(void **state)
{
    bkg_state *s = gcut_i_calloc(1, sizeof *s);
    if (!s)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-bk: cannot allocate its state");
    *state = s;
    return GCUT_OK;
}

static void release(bkg_state *s)
{
    gcut_i_free(s->raw);
    gcut_i_free(s->md);
    s->md = NULL;
    gcut_i_free(s->sink_bits);
    s->sink_bits = NULL;
    gcut_i_free(s->tr_bits);
    s->tr_bits = NULL;
    gcut_i_free(s->orphans);
    s->raw = NULL;
    s->rec = NULL;
    s->orphans = NULL;
    s->ocap = 0;
    s->n = 0;
}

void gcut_i_bk_grid_destroy(void *state)
{
    if (!state)
        return;
    release(state);
    gcut_i_free(state);
}

/* Size the records for p's grid (kept when the shape matches). */
static gcut_status fit(bkg_state *s, const gcut_grid_problem *p)
{
    const int same = s->rec && s->n == p->num_nodes && s->nd == p->num_dirs &&
                     s->w == p->width && s->h == p->height && s->d == p->depth;
    if (!same) {
        release(s);
        const size_t bytes = (size_t)p->num_nodes * (size_t)REC_WORDS(p->num_dirs) * sizeof(uint32_t);
        /* Aligned to a cache line, so that a 32-byte record (4-connected)
         * never straddles two lines. */
        s->raw = gcut_i_malloc(bytes + 64);
        if (!s->raw)
            return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-bk: cannot allocate %zu bytes for %d nodes",
                             bytes, (int)p->num_nodes);
        s->rec = (uint32_t *)(((uintptr_t)s->raw + 63) & ~(uintptr_t)63);
        if (MD_APART(p->num_dirs))
            s->md = gcut_i_malloc_array(p->num_nodes > 0 ? p->num_nodes : 1, sizeof(bkg_md));
        s->sink_bits = gcut_i_malloc_array(((int64_t)p->num_nodes + 63) / 64, sizeof(uint64_t));
        if ((MD_APART(p->num_dirs) && !s->md) || !s->sink_bits) {
            release(s);
            return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-bk: cannot allocate the cut bitmap");
        }
        s->n = p->num_nodes;
        s->nd = p->num_dirs;
        s->w = p->width;
        s->h = p->height;
        s->d = p->depth;
    }
    const int64_t plane = (int64_t)p->width * p->height;
    for (int k = 0; k < p->num_dirs; k++)
        s->off[k] = p->dir_offset[3 * k] + (int64_t)p->dir_offset[3 * k + 1] * p->width +
                    p->dir_offset[3 * k + 2] * plane;
    if (!s->orphans && !grow_orphans(s))
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-bk: cannot allocate the orphan list");
    return GCUT_OK;
}

/* How a cold solve starts (the `cold` setting). */
enum { COLD_IBFS = 0, COLD_PLAIN = 1 };

/* Set s up for a cold solve of p: the forests of cold_init, then, by the
 * mode, the IBFS phase (which leaves BK a nearly maximum flow) or nothing
 * (plain BK). */
static gcut_status cold_start(bkg_state *s, const gcut_grid_problem *p, const bkg_ops *ops,
                              int mode)
{
    ops->cold(s, p);
    gcut_status st = gcut_i_poll("solve", -1, NULL); /* the set-up of a large grid takes a while */
    if (st != GCUT_OK || mode != COLD_IBFS)
        return st;
    st = ops->ibfs(s);
    if (st == GCUT_OK && s->again) {
        s->again = 0; /* excesses went round in circles: again without */
        ops->cold(s, p);
        st = ops->ibfs(s);
    }
    return st;
}

/* cpu-bk's settings on grids: those of bk.c (ts_limit), `cold` and `warm`. */
static gcut_status parse_params(const char *str, int64_t *ts_limit, int *cold, int *warm,
                                int *excess)
{
    int64_t ex = 1;
    *ts_limit = TS_MAX;
    *cold = COLD_IBFS;
    *warm = WARM_AUTO;
    gcut_i_param p;
    int r;
    while ((r = gcut_i_param_next(&str, "cpu-bk", &p)) > 0) {
        gcut_status st = GCUT_OK;
        if (strcmp(p.key, "ts_limit") == 0) {
            st = gcut_i_param_int(&p, "cpu-bk", 1, TS_MAX, ts_limit);
        } else if (strcmp(p.key, "cold") == 0) {
            if (strcmp(p.value, "ibfs") == 0)
                *cold = COLD_IBFS;
            else if (strcmp(p.value, "plain") == 0)
                *cold = COLD_PLAIN;
            else
                st = GCUT_FAIL(GCUT_ERR_INVALID, "cpu-bk: cold=%s (want ibfs or plain)", p.value);
        } else if (strcmp(p.key, "excess") == 0) {
            st = gcut_i_param_int(&p, "cpu-bk", 0, 1, &ex);
        } else if (strcmp(p.key, "warm") == 0) {
            if (strcmp(p.value, "auto") == 0)
                *warm = WARM_AUTO;
            else if (strcmp(p.value, "bk") == 0)
                *warm = WARM_BK;
            else if (strcmp(p.value, "ibfs") == 0)
                *warm = WARM_IBFS;
            else
                st = GCUT_FAIL(GCUT_ERR_INVALID, "cpu-bk: warm=%s (want auto, bk or ibfs)",
                               p.value);
        } else {
            st = gcut_i_param_unknown(&p, "cpu-bk", "ts_limit, cold, warm, excess");
        }
        if (st != GCUT_OK)
            return st;
    }
    *excess = (int)ex;
    return r < 0 ? GCUT_ERR_INVALID : GCUT_OK;
}

gcut_status gcut_i_bk_grid_solve(void *state, const gcut_grid_problem *p,
                                 const gcut_solve_options *opt, gcut_solution *sol)
{
    const bkg_ops *ops = ops_for(p->num_dirs);
    if (!ops)
        return GCUT_FAIL(GCUT_ERR_UNSUPPORTED, "cpu-bk: no grid engine for %d directions",
                         (int)p->num_dirs);
    bkg_state local;
    bkg_state *s = state;
    if (!s) {
        memset(&local, 0, sizeof local);
        s = &local; /* no kept state: a one-off cold solve */
    }
    int64_t ts_limit;
    int cold, wmode, excess;
    gcut_status st = parse_params(opt->params, &ts_limit, &cold, &wmode, &excess);
    if (st != GCUT_OK)
        return st;
    double t0 = gcut_i_now_ms();
    /* Warm only on the records of this very grid (the core promises it
     * with p->warm; the shape check guards against a misuse). A replay that
     * gives up half-way (a tr out of range) is harmless: the cold start
     * rewrites every word of every record. */
    const int can_warm = p->warm && s->rec && s->n == p->num_nodes && s->nd == p->num_dirs &&
                         s->w == p->width && s->h == p->height && s->d == p->depth;
    if ((st = fit(s, p)) != GCUT_OK)
        goto done;
    s->time_limit = (uint32_t)ts_limit;
    s->excess = excess;
    s->again = 0;
    s->oom = 0;
    s->augmentations = s->path_arcs = 0;
    int warm = can_warm ? ops->warm(s, p, wmode) : 0;
    if (s->oom) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-bk: cannot grow the orphan list");
        goto done;
    }
    if (warm == WARM_IBFS && (st = ops->ibfs(s)) != GCUT_OK)
        goto done;
    if (s->again) {
        s->again = 0; /* see cold_start */
        warm = 0;
    }
    if (!warm && (st = cold_start(s, p, ops, cold)) != GCUT_OK)
        goto done;
    sol->stats->init_ms = gcut_i_now_ms() - t0;
    sol->stats->warm_start = warm != 0;

    t0 = gcut_i_now_ms();
    if ((st = ops->run(s)) != GCUT_OK)
        goto done;
    sol->stats->solve_ms = gcut_i_now_ms() - t0;
    sol->stats->augmentations = s->augmentations;
    sol->stats->pushes = s->path_arcs;
    sol->stats->threads = 1;

    if ((st = gcut_i_poll("cut", -1, NULL)) != GCUT_OK)
        goto done;
    t0 = gcut_i_now_ms();
    read_cut(s, sol->cut);
    sol->stats->cut_ms = gcut_i_now_ms() - t0;
    sol->flow = s->flow;
    gcut_i_log(opt, GCUT_LOG_DEBUG,
               "cpu-bk (grid%s): flow %lld, %lld augmentations, %lld path arcs; start %.2f ms, "
               "search %.2f ms, cut %.2f ms",
               warm ? ", warm" : "", (long long)s->flow, (long long)s->augmentations,
               (long long)s->path_arcs, sol->stats->init_ms, sol->stats->solve_ms,
               sol->stats->cut_ms);
done:
    if (s == &local)
        release(s);
    return st;
}
