/*
 * prsn.c - cpu-prsn: synchronous parallel push-relabel.
 *
 * N. Baumstark, G. E. Blelloch, J. Shun, "Efficient implementation of a
 * synchronous parallel push-relabel algorithm", ESA 2015, LNCS 9294,
 * pp. 106-117. Global relabelling and its work threshold follow
 * B. V. Cherkassky, A. V. Goldberg, "On implementing the push-relabel
 * method for the maximum flow problem", Algorithmica 19 (1997) (hi_pr).
 *
 * The algorithm works in rounds. The work set of a round is every node
 * with excess > 0 and a label below `dead` (= n + 1: no node that can reach
 * the sink has a larger distance). All of them are discharged at once,
 * each by one thread, on a private copy of its label and excess; what a
 * node does is only seen by the others at the end of the round:
 *   - labels of other nodes are read as they were at the start of the
 *     round; a node's new label (newlab) is published at the round's end;
 *   - flow pushed into a node w is added to added[w] (atomic add) and
 *     folded into excess[w] at the round's end;
 *   - a node that received flow, or kept some, is put once (a test-and-set
 *     on a per-round stamp) on its finder's list: the lists are the next
 *     work set.
 * Global relabelling (a level-synchronous reverse BFS from the sink, in
 * parallel) runs at the start and whenever the relabel work since the last
 * one passes hi_pr's threshold; nodes it does not reach get `dead`, which
 * is the gap heuristic for free.
 *
 * Terminals are native: min(cap_source, cap_sink) of every node goes
 * straight into the flow; the rest of cap_source is the node's initial
 * excess and the rest of cap_sink, sink_res[v], is an arc to a virtual sink
 * of label 0. There is no source node: excess that cannot reach the sink
 * stays at nodes labelled `dead` (a maximum preflow; phase II returns it).
 *
 * Two adjacent nodes of the work set: the paper's rule. With d the labels
 * at the start of the round, v wins against w if
 *     d(v) = d(w) + 1,  or  d(v) < d(w) - 1,  or  d(v) = d(w) and v < w;
 * exactly one of any two adjacent work-set nodes wins. Only the winner
 * looks at the arcs between them this round (reads, pushes on them). The
 * loser does not even read their residuals, so no two threads ever touch
 * the same arc pair and residuals need no atomics.
 *
 * Invariants (and why the loser must cap its label):
 *   - Labels are valid at every round's end: d(x) <= d(y) + 1 for every
 *     residual arc x->y, d(sink) = 0. Within a round a node only pushes on
 *     x->y when its current label is d(y) + 1 and relabels to at most
 *     d(y) + 1 over its residual arcs; since labels only grow, both stay
 *     valid against y's label at the end. The one arc a node cannot see is
 *     the one to a winner w, which may be (or become, when w pushes into
 *     it) residual. So the loser v caps its label for the round at
 *     d(w) + 1 when d(w) >= d(v) (w ends at d(w) or above), and at
 *     d(v) + 2 when d(w) < d(v) - 1 (w can only push into v after reaching
 *     d(v) + 1). The paper's listing lets the loser read that residual
 *     while the winner writes it and does not cap; the cap makes the
 *     round race-free and keeps the labelling valid. A loser is only ever
 *     held back after it has relabelled at least once, so every node of
 *     the work set pushes or relabels in every round.
 *   - The work set is exactly the nodes with excess > 0 and label < dead,
 *     with no duplicates; its nodes carry PRSN_ACT in lab[] during a round.
 *   - res[a] + res[sister(a)] = cap[a] + cap[sister(a)] < 2^32.
 * At the end no node with excess can reach the sink (valid labels), so the
 * preflow is maximum and the residual graph gives the canonical cut.
 *
 * A round: discharge all work-set nodes (chunks of the list handed out
 * through an atomic cursor), then commit (publish labels, fold added[],
 * keep the nodes still active). A large round (n / 16 nodes or more)
 * commits by one pass over every node's range instead of the lists: the
 * next work set then comes out sorted by node id, which makes the next
 * discharges stream through memory rather than jump.
 *
 * Small work sets: highest-label bursts. Rounds pay off only when enough
 * threads share a large work set: they do more pushes and relabels than
 * the sequential highest-label method (1.4 to 2.5 times on grids and RMF
 * families, about as many on random graphs) and each costs more. So a work
 * set below seq_below nodes (default 48 per thread, at least 192; with
 * fewer than 4 threads, always) is processed by the driving thread as a
 * highest-label burst (buckets by label, immediate updates, hi_pr's gap
 * test on per-label node counts) until its active set grows past four
 * times seq_below, a global relabelling is due, or nothing is left. Labels
 * stay valid throughout, so the two methods hand the active nodes to each
 * other freely. hl=0 turns bursts off (small rounds then run on the driver).
 *
 * Threads: the fork-join pool of lib/core/pool.c, started at the first
 * parallel phase and kept for the solve; the caller's thread is worker 0
 * and drives. Each phase is a fork-join on two counters that waiters spin
 * on briefly and then sleep on (a condition variable), so a round costs
 * two synchronisations. Global
 * relabelling runs its reset, BFS levels (of 512 nodes or more) and
 * rebuild on the pool. The canonical cut is the same reverse BFS once more
 * on the final residual graph (exactly the set gcut_i_cut_from_residual
 * computes, without exporting residual arrays for it), in parallel too.
 *
 * Parameters (opt->params): seq_below=N, hl=0|1, gr_freq=F (hi_pr's
 * global update frequency, 0: only the first relabelling).
 *
 * What is atomic: lab[] (read by everyone, CAS in the BFS), added[]
 * (fetch-add), mark[] (exchange), the job cursor and the pool counters.
 * Everything else has one writer per phase, and phases are ordered by the
 * pool's counters.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool_internal.h"
#include "core/compiler_internal.h"
#include "solvers/solvers_internal.h"

/* hi_pr's global-update accounting: a relabel costs BETA plus the node's
 * degree; a global relabelling runs once freq * work > ALPHA * n + m. */
#define PRSN_ALPHA 6
#define PRSN_BETA 12
#define PRSN_DEFAULT_FREQ 0.5

/* Label word: the label in the low 31 bits, PRSN_ACT while the node is in
 * the work set of the current round. */
#define PRSN_ACT 0x80000000u
#define PRSN_LAB 0x7fffffffu

#define PRSN_MAX_THREADS 256
/* Parallel BFS levels / rounds below these sizes run on the driving thread. */
#define PRSN_SEQ_PER_THREAD 48
#define PRSN_SEQ_MIN 192
/* Fewer threads than this: no parallel rounds by default. */
#define PRSN_ROUND_THREADS 4
/* A burst goes back to parallel rounds once it has this many times
 * seq_below active nodes. */
#define PRSN_HL_EXIT 4
/* Rounds with at least n / PRSN_DENSE_DIV nodes commit by a dense pass. */
#define PRSN_DENSE_DIV 16
#define PRSN_PAR_NODES 32768 /* graph size from which reset/rebuild go parallel */
#define PRSN_BFS_PAR 512     /* BFS levels from this size run on the pool */
/* Spin iterations before a waiting thread sleeps (while every thread has
 * a core; see gcut_i_pool_init). */
#define PRSN_SPIN 4000

/* ------------------------------------------------------------ engine state */

/* A growable list of node ids owned by one thread. */
typedef struct prsn_list {
    int32_t *item;
    int64_t len;
    int64_t room;
} prsn_list;

/* Per-thread state: written by its thread during a phase, read by the
 * driver between phases. Padded so that neighbours do not share lines. */
typedef struct prsn_tl {
    prsn_list list[2]; /* the current and the next vertex list (parity) */
    int64_t pushes;
    int64_t relabels;
    int64_t work;      /* relabel work since the last global relabelling */
    int64_t to_sink;   /* flow pushed into the sink */
    int64_t count;     /* scratch counter of the phase (BFS reach, live nodes) */
    int nomem;
    char pad[128];
} prsn_tl;

enum {
    JOB_INIT,
    JOB_DISCHARGE,
    JOB_COMMIT,
    JOB_COMMIT_DENSE,
    JOB_RESET,
    JOB_BFS,
    JOB_REBUILD,
    JOB_CUT
};

/* An arc: what a scan reads (head, residual) and what a push needs next
 * (the sister) side by side, one stream instead of three arrays. */
typedef struct prsn_arc {
    int32_t head;
    uint32_t res;   /* residual capacity */
    int64_t sister;
} prsn_arc;

/* What a discharge or a commit touches of one node, in one line. */
typedef struct prsn_node {
    int64_t excess;         /* at the start of the round; own discharger writes the rest */
    int64_t sink_res;       /* residual capacity to the sink */
    _Atomic int64_t added;  /* flow pushed in during the round */
    uint32_t newlab;        /* label at the end of the round (plain label) */
    _Atomic uint32_t mark;  /* round stamp: put on a list this round */
} prsn_node;

typedef struct prsn {
    const gcut_bcsr *b;
    const int32_t *cap_source;
    const int32_t *cap_sink;
    int32_t n;
    uint32_t dead;          /* n + 1: labels >= dead cannot reach the sink */
    const int64_t *first;   /* the layout's offsets */
    prsn_arc *arc;
    prsn_node *node;
    _Atomic uint32_t *lab;  /* label word (PRSN_LAB | PRSN_ACT), read by all */

    /* The current vertex list is the segments tl[t].list[cur], t < nthreads,
     * numbered consecutively: segment t holds indices off[t] .. off[t+1]-1. */
    int32_t nthreads;
    prsn_tl *tl;
    int64_t *off;
    int cur;
    int64_t total;
    uint32_t round;  /* stamp of the current round, >= 1 */
    uint32_t level;  /* BFS: label given to the next frontier */
    int64_t chunk;   /* dynamic scheduling granule */
    /* Bumped by every thread for every chunk: on a line of its own, away
     * from the fields all threads read in their loops. */
    _Alignas(64) _Atomic int64_t cursor;
    _Alignas(64) int job;
    int job_par;     /* the job runs on the pool (atomics needed) */
    int dense;       /* this round commits by a pass over all nodes (no lists) */
    uint8_t *cut;    /* JOB_CUT writes the solution's cut here */

    /* the pool: pool.size threads take part in parallel phases (1 until
     * the first one starts the workers) */
    gcut_i_pool pool;

    /* highest-label bursts (driver only): bucket lists by label */
    int32_t *bhead;   /* dead + 1 list heads, -1 when empty */
    int32_t *bnext;   /* n links */
    int32_t *count;   /* dead + 1: nodes per label (all nodes), for the gap test */
    uint32_t cmax;    /* count[L] is 0 above cmax */
    int counts_ok;    /* count[] matches the labels (parallel rounds spoil it) */
    int64_t gaps;     /* nodes lifted by bursts' gap test */

    /* settings */
    int64_t seq_below; /* smaller work sets run on the driver alone */
    int64_t hl_exit;   /* a burst hands back to rounds above this many active nodes */
    int hl;            /* small work sets run as highest-label bursts */
    double freq;
} prsn;

static int list_grow(prsn_list *l, int64_t need)
{
    int64_t room = l->room < 1024 ? 1024 : l->room;
    while (room < need)
        room *= 2;
    int32_t *p = gcut_i_realloc(l->item, (size_t)room * sizeof(int32_t));
    if (!p)
        return -1;
    l->item = p;
    l->room = room;
    return 0;
}

GCUT_INLINE void list_push(prsn_tl *tl, prsn_list *l, int32_t v)
{
    if (l->len == l->room && list_grow(l, l->len + 1) != 0) {
        tl->nomem = 1;
        return;
    }
    l->item[l->len++] = v;
}

/* Node at position i of the current list; *s is a segment hint that only
 * moves forward (positions handed to one thread increase). */
GCUT_INLINE int32_t list_at(const prsn *P, int64_t i, int32_t *s)
{
    while (P->off[*s + 1] <= i)
        (*s)++;
    return P->tl[*s].list[P->cur].item[i - P->off[*s]];
}

/* Make parity `cur` the current list: prefix offsets of the segments, so
 * that positions 0 .. total-1 name every node of every thread's list. */
static void set_current(prsn *P, int cur)
{
    P->cur = cur;
    int64_t t = 0;
    for (int32_t s = 0; s < P->nthreads; s++) {
        P->off[s] = t;
        t += P->tl[s].list[cur].len;
    }
    P->off[P->nthreads] = t;
    P->total = t;
}

/* ------------------------------------------------------------ one round */

/* v wins against w (both in the work set), labels at the round's start. */
GCUT_INLINE int wins(uint32_t dv, uint32_t dw, int32_t v, int32_t w)
{
    return dv == dw + 1 || dv + 1 < dw || (dv == dw && v < w);
}

/* Put w on this thread's next list unless someone did this round. */
GCUT_INLINE void discover(prsn *P, prsn_tl *tl, prsn_list *out, int32_t w, const int par)
{
    const uint32_t r = P->round;
    _Atomic uint32_t *mark = &P->node[w].mark;
    if (atomic_load_explicit(mark, memory_order_relaxed) == r)
        return;
    /* A dense round's commit finds stamped nodes itself: who stamped first
     * does not matter, and a store is cheaper than an exchange. */
    if (par && !P->dense) {
        if (atomic_exchange_explicit(mark, r, memory_order_relaxed) == r)
            return;
    } else {
        atomic_store_explicit(mark, r, memory_order_relaxed);
    }
    if (!P->dense)
        list_push(tl, out, w);
}

/* Discharge v on private copies of its label and excess (Listing 1.1 of the
 * paper, with the loser's cap described at the top of the file). */
GCUT_INLINE void discharge(prsn *P, prsn_tl *tl, prsn_list *out, int32_t v, const int par)
{
    prsn_arc *const arc = P->arc;
    prsn_node *const node = P->node;
    _Atomic uint32_t *const lab = P->lab;
    prsn_node *const me = &node[v];
    const uint32_t dead = P->dead;
    const int64_t a0 = P->first[v], a1 = P->first[v + 1];
    const uint32_t d0 = atomic_load_explicit(&lab[v], memory_order_relaxed) & PRSN_LAB;
    uint32_t d = d0;
    uint32_t cap = UINT32_MAX; /* highest label v may take this round */
    int64_t e = me->excess;
    int64_t pushes = 0, relabels = 0;

    for (;;) {
        /* The sink has label 0: admissible at label 1. Valid labels never
         * leave residual capacity to the sink above label 1. */
        if (d == 1 && me->sink_res > 0) {
            const int64_t delta = e < me->sink_res ? e : me->sink_res;
            me->sink_res -= delta;
            tl->to_sink += delta;
            e -= delta;
            pushes++;
            if (e == 0)
                break;
        }
        uint32_t best = UINT32_MAX; /* lowest label + 1 over other residual arcs */
        for (int64_t a = a0; a < a1; a++) {
            const int32_t w = arc[a].head;
            const uint32_t lw = atomic_load_explicit(&lab[w], memory_order_relaxed);
            const uint32_t dw = lw & PRSN_LAB;
            if ((lw & PRSN_ACT) && !wins(d0, dw, v, w)) {
                /* The winner owns this arc pair for the round. */
                const uint32_t c = dw >= d0 ? dw + 1 : d0 + 2;
                if (c < cap)
                    cap = c;
                continue;
            }
            const uint32_t r = arc[a].res;
            if (r == 0)
                continue;
            if (dw + 1 == d) {
                const uint32_t delta = e < (int64_t)r ? (uint32_t)e : r;
                arc[a].res = r - delta;
                arc[arc[a].sister].res += delta;
                e -= delta;
                pushes++;
                _Atomic int64_t *add = &node[w].added;
                if (par)
                    atomic_fetch_add_explicit(add, delta, memory_order_relaxed);
                else
                    atomic_store_explicit(
                        add, atomic_load_explicit(add, memory_order_relaxed) + delta,
                        memory_order_relaxed);
                discover(P, tl, out, w, par);
                if (e == 0)
                    goto done;
            } else if (dw + 1 < best) {
                best = dw + 1; /* dw >= d here: labels are valid */
            }
        }
        uint32_t nl = best < cap ? best : cap;
        if (nl > dead)
            nl = dead;
        if (nl <= d)
            break; /* held by a winner's cap: go on next round */
        d = nl;
        relabels++;
        tl->work += PRSN_BETA + (a1 - a0);
        if (d == dead)
            break;
    }
done:
    me->excess = e;
    me->newlab = d;
    tl->pushes += pushes;
    tl->relabels += relabels;
    if (e > 0 && d < dead)
        discover(P, tl, out, v, par);
}

/* Discharge phase: positions of the work set handed out in chunks. */
/* The thread's next list is copied to a local while it fills (the compiler
 * can then keep it in registers: pushes write through other pointers). */
GCUT_INLINE void job_discharge_impl(prsn *P, int32_t id, const int par)
{
    prsn_tl *tl = &P->tl[id];
    prsn_list out = tl->list[P->cur ^ 1];
    out.len = 0;
    int32_t s = 0;
    for (;;) {
        const int64_t lo =
            atomic_fetch_add_explicit(&P->cursor, P->chunk, memory_order_relaxed);
        if (lo >= P->total)
            break;
        const int64_t hi = lo + P->chunk < P->total ? lo + P->chunk : P->total;
        for (int64_t i = lo; i < hi; i++)
            discharge(P, tl, &out, list_at(P, i, &s), par);
    }
    tl->list[P->cur ^ 1] = out;
}

static void job_discharge_par(prsn *P, int32_t id) { job_discharge_impl(P, id, 1); }
static void job_discharge_seq(prsn *P, int32_t id) { job_discharge_impl(P, id, 0); }

/* Commit phase: publish the labels of work-set nodes nobody listed, and
 * fold the added excess of the listed ones, keeping those still active. */
static void job_commit(prsn *P, int32_t id, int32_t nthreads)
{
    /* Two disjoint sets of writes to lab[]: work-set nodes nobody stamped
     * (they end the round inactive, and only their label changes), and
     * stamped nodes, each on exactly one list (the stamp's exchange picked
     * its finder), folded by the owner of that list. */
    const uint32_t r = P->round, dead = P->dead;
    const int64_t lo = P->total * id / nthreads, hi = P->total * (id + 1) / nthreads;
    int32_t s = 0;
    for (int64_t i = lo; i < hi; i++) {
        const int32_t v = list_at(P, i, &s);
        if (atomic_load_explicit(&P->node[v].mark, memory_order_relaxed) != r)
            atomic_store_explicit(&P->lab[v], P->node[v].newlab, memory_order_relaxed);
    }
    /* Run alone, the driver folds every thread's list. */
    const int32_t t0 = nthreads == 1 ? 0 : id, t1 = nthreads == 1 ? P->nthreads : id + 1;
    for (int32_t t = t0; t < t1; t++) {
        prsn_list *l = &P->tl[t].list[P->cur ^ 1];
        int64_t k = 0;
        for (int64_t i = 0; i < l->len; i++) {
            const int32_t u = l->item[i];
            prsn_node *nu = &P->node[u];
            const int64_t add = atomic_load_explicit(&nu->added, memory_order_relaxed);
            atomic_store_explicit(&nu->added, 0, memory_order_relaxed);
            const int64_t ex = nu->excess + add;
            nu->excess = ex;
            const uint32_t L = nu->newlab;
            if (ex > 0 && L < dead) {
                atomic_store_explicit(&P->lab[u], L | PRSN_ACT, memory_order_relaxed);
                l->item[k++] = u;
            } else {
                atomic_store_explicit(&P->lab[u], L, memory_order_relaxed);
            }
        }
        l->len = k;
    }
}

/* Commit of a large round by one pass over a range of nodes: sequential
 * memory access instead of a scattered list, perfectly balanced, and the
 * next work set comes out sorted by node id (each thread's range in
 * order), which gives the next round's discharges far better locality. */
static void job_commit_dense(prsn *P, int32_t id, int32_t nthreads)
{
    const uint32_t r = P->round, dead = P->dead;
    const int64_t lo = (int64_t)P->n * id / nthreads, hi = (int64_t)P->n * (id + 1) / nthreads;
    prsn_tl *tl = &P->tl[id];
    prsn_list *out = &tl->list[P->cur ^ 1];
    out->len = 0;
    for (int64_t v = lo; v < hi; v++) {
        prsn_node *x = &P->node[v];
        if (atomic_load_explicit(&x->mark, memory_order_relaxed) == r) {
            const int64_t ex = x->excess + atomic_load_explicit(&x->added, memory_order_relaxed);
            atomic_store_explicit(&x->added, 0, memory_order_relaxed);
            x->excess = ex;
            const uint32_t L = x->newlab;
            if (ex > 0 && L < dead) {
                atomic_store_explicit(&P->lab[v], L | PRSN_ACT, memory_order_relaxed);
                list_push(tl, out, (int32_t)v);
            } else {
                atomic_store_explicit(&P->lab[v], L, memory_order_relaxed);
            }
        } else if (atomic_load_explicit(&P->lab[v], memory_order_relaxed) & PRSN_ACT) {
            atomic_store_explicit(&P->lab[v], x->newlab, memory_order_relaxed);
        }
    }
}

/* ------------------------------------------------------------ global relabelling */

/* Reset: every label to dead, nodes with residual capacity to the sink to 1
 * (the first frontier, in list 0). Counts the nodes that were alive. */
static void job_reset(prsn *P, int32_t id, int32_t nthreads)
{
    prsn_tl *tl = &P->tl[id];
    const int64_t lo = (int64_t)P->n * id / nthreads, hi = (int64_t)P->n * (id + 1) / nthreads;
    int64_t live = 0;
    tl->list[0].len = 0;
    /* Each thread owns a range of nodes here, so plain stores suffice; the
     * BFS levels that follow, where threads meet on the same nodes, CAS. */
    for (int64_t v = lo; v < hi; v++) {
        live += (atomic_load_explicit(&P->lab[v], memory_order_relaxed) & PRSN_LAB) < P->dead;
        const uint32_t L = P->node[v].sink_res > 0 ? 1u : P->dead;
        atomic_store_explicit(&P->lab[v], L, memory_order_relaxed);
        if (L == 1)
            list_push(tl, &tl->list[0], (int32_t)v);
    }
    tl->count = live;
}

/* One BFS level: w joins when its arc into the frontier has residual
 * capacity (the sister of the arc listed under the frontier node). */
GCUT_INLINE void job_bfs_impl(prsn *P, int32_t id, const int par)
{
    const prsn_arc *const arc = P->arc;
    _Atomic uint32_t *const lab = P->lab;
    const uint32_t dead = P->dead, L = P->level;
    prsn_tl *tl = &P->tl[id];
    prsn_list out = tl->list[P->cur ^ 1];
    out.len = 0;
    int32_t s = 0;
    for (;;) {
        const int64_t lo =
            atomic_fetch_add_explicit(&P->cursor, P->chunk, memory_order_relaxed);
        if (lo >= P->total)
            break;
        const int64_t hi = lo + P->chunk < P->total ? lo + P->chunk : P->total;
        for (int64_t i = lo; i < hi; i++) {
            const int32_t u = list_at(P, i, &s);
            for (int64_t a = P->first[u]; a < P->first[u + 1]; a++) {
                const int32_t w = arc[a].head;
                if (atomic_load_explicit(&lab[w], memory_order_relaxed) != dead ||
                    arc[arc[a].sister].res == 0)
                    continue;
                /* Two frontier nodes may find w at once: the CAS elects the
                 * one that lists it. Relaxed is enough: the label is the
                 * only data, and the lists are read after the phase. */
                if (par) {
                    uint32_t expect = dead;
                    if (!atomic_compare_exchange_strong_explicit(
                            &lab[w], &expect, L, memory_order_relaxed, memory_order_relaxed))
                        continue;
                } else {
                    atomic_store_explicit(&lab[w], L, memory_order_relaxed);
                }
                list_push(tl, &out, w);
            }
        }
    }
    tl->list[P->cur ^ 1] = out;
}

static void job_bfs_par(prsn *P, int32_t id) { job_bfs_impl(P, id, 1); }
static void job_bfs_seq(prsn *P, int32_t id) { job_bfs_impl(P, id, 0); }

/* Rebuild the work set from the new labels (into list 0). */
static void job_rebuild(prsn *P, int32_t id, int32_t nthreads)
{
    prsn_tl *tl = &P->tl[id];
    const int64_t lo = (int64_t)P->n * id / nthreads, hi = (int64_t)P->n * (id + 1) / nthreads;
    tl->list[0].len = 0;
    /* newlab mirrors every label between rounds (a commit reads it for
     * nodes no discharge touched); the work set comes out sorted. */
    for (int64_t v = lo; v < hi; v++) {
        const uint32_t L = atomic_load_explicit(&P->lab[v], memory_order_relaxed);
        P->node[v].newlab = L;
        if (P->node[v].excess > 0 && L < P->dead) {
            atomic_store_explicit(&P->lab[v], L | PRSN_ACT, memory_order_relaxed);
            list_push(tl, &tl->list[0], (int32_t)v);
        }
    }
}

/* Initial state of a range of nodes and their arcs. Terminals: the common
 * part of cap_source and cap_sink goes straight into the flow (counted
 * with the flow into the sink); the rest is excess / a sink arc. */
static void job_init(prsn *P, int32_t id, int32_t nthreads)
{
    const gcut_bcsr *b = P->b;
    const int32_t *cs = P->cap_source, *ct = P->cap_sink;
    const int64_t lo = (int64_t)P->n * id / nthreads, hi = (int64_t)P->n * (id + 1) / nthreads;
    int64_t direct = 0;
    for (int64_t v = lo; v < hi; v++) {
        const int32_t c = cs[v] < ct[v] ? cs[v] : ct[v];
        prsn_node *x = &P->node[v];
        direct += c;
        x->excess = cs[v] - c;
        x->sink_res = ct[v] - c;
        atomic_init(&x->added, 0);
        x->newlab = 0;
        atomic_init(&x->mark, 0);
        atomic_init(&P->lab[v], 0);
        P->count[v] = 0;
    }
    if (id == nthreads - 1)
        P->count[P->n] = P->count[P->n + 1] = 0;
    for (int64_t a = b->first[lo]; a < b->first[hi]; a++) {
        P->arc[a].head = b->head[a];
        P->arc[a].res = (uint32_t)b->cap[a]; /* caps are >= 0 */
        P->arc[a].sister = b->sister[a];
    }
    P->tl[id].to_sink += direct;
}

/* The canonical cut from exact labels: the sink side is what the BFS
 * from the sink reached. */
static void job_cut(prsn *P, int32_t id, int32_t nthreads)
{
    const int64_t lo = (int64_t)P->n * id / nthreads, hi = (int64_t)P->n * (id + 1) / nthreads;
    for (int64_t v = lo; v < hi; v++)
        P->cut[v] = atomic_load_explicit(&P->lab[v], memory_order_relaxed) < P->dead ? GCUT_SINK
                                                                                      : GCUT_SOURCE;
}

/* ------------------------------------------------------------ running phases */

static void run_job(prsn *P, int32_t id, int32_t nthreads)
{
    switch (P->job) {
    case JOB_INIT:
        job_init(P, id, nthreads);
        break;
    case JOB_DISCHARGE:
        if (P->job_par)
            job_discharge_par(P, id);
        else
            job_discharge_seq(P, id);
        break;
    case JOB_COMMIT:
        job_commit(P, id, nthreads);
        break;
    case JOB_COMMIT_DENSE:
        job_commit_dense(P, id, nthreads);
        break;
    case JOB_RESET:
        job_reset(P, id, nthreads);
        break;
    case JOB_BFS:
        if (P->job_par)
            job_bfs_par(P, id);
        else
            job_bfs_seq(P, id);
        break;
    case JOB_REBUILD:
        job_rebuild(P, id, nthreads);
        break;
    case JOB_CUT:
        job_cut(P, id, nthreads);
        break;
    default:
        break;
    }
}

/* A share of the current phase, on a thread of the pool. */
static void pool_job(void *ctx, int32_t id, int32_t nthreads) { run_job(ctx, id, nthreads); }

/* Run one phase: on the pool when `par` (and threads are there), else on
 * the driving thread alone. Lists of threads that sat out are emptied.
 * Everything a job reads from P is written here before gcut_i_pool_run,
 * and everything the workers wrote is visible after it (pool_internal.h):
 * the pool orders the phases, nothing else is needed. */
static void phase(prsn *P, int job, int par)
{
    if (par)
        gcut_i_pool_start(&P->pool);
    par = par && P->pool.size > 1;
    P->job = job;
    P->job_par = par;
    atomic_store_explicit(&P->cursor, 0, memory_order_relaxed);
    const int32_t nt = par ? P->pool.size : 1;
    /* About eight chunks per thread balance uneven discharges; at least 8
     * nodes per cursor bump keeps the cursor's line from bouncing. */
    int64_t chunk = P->total / ((int64_t)nt * 8);
    P->chunk = chunk < 8 ? 8 : (chunk > 512 ? 512 : chunk);
    if (par)
        gcut_i_pool_run(&P->pool, pool_job, P);
    else
        run_job(P, 0, 1);
    /* Lists written by a phase: the next one (discharge, BFS) or list 0. */
    int wrote = (job == JOB_RESET || job == JOB_REBUILD) ? 0 : P->cur ^ 1;
    if (job == JOB_COMMIT_DENSE)
        wrote = P->cur ^ 1;
    if (job != JOB_COMMIT && job != JOB_INIT && job != JOB_CUT)
        for (int32_t t = nt; t < P->nthreads; t++)
            P->tl[t].list[wrote].len = 0;
}

static int any_nomem(const prsn *P)
{
    for (int32_t t = 0; t < P->nthreads; t++)
        if (P->tl[t].nomem)
            return 1;
    return 0;
}

static int64_t sum_work(const prsn *P)
{
    int64_t w = 0;
    for (int32_t t = 0; t < P->nthreads; t++)
        w += P->tl[t].work;
    return w;
}

static int use_pool(const prsn *P, int64_t items) { return P->nthreads > 1 && items >= P->seq_below; }

/* Exact distance labels by reverse BFS from the sink; unreached: dead.
 * Leaves the new work set as the current list. */
/* Exact distances to the sink by reverse BFS (labels; dead where the sink
 * is out of reach) and the node counts per label. *reached: nodes
 * labelled, *live: nodes alive before. */
static gcut_status bfs_from_sink(prsn *P, int64_t *reached, int64_t *live)
{
    const int big = P->nthreads > 1 && P->n >= PRSN_PAR_NODES;
    phase(P, JOB_RESET, big);
    *live = 0;
    for (int32_t t = 0; t < P->nthreads; t++) {
        *live += P->tl[t].count;
        P->tl[t].count = 0;
    }
    set_current(P, 0);
    *reached = P->total;
    /* Node counts per label come with the BFS: one level at a time. */
    memset(P->count, 0, ((size_t)P->cmax + 1) * sizeof(int32_t));
    P->count[1] = (int32_t)P->total;
    P->cmax = 1;
    P->level = 2;
    while (P->total > 0) {
        if (any_nomem(P))
            return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-prsn: cannot grow a vertex list");
        phase(P, JOB_BFS, P->nthreads > 1 && P->total >= PRSN_BFS_PAR);
        set_current(P, P->cur ^ 1);
        *reached += P->total;
        P->count[P->level] = (int32_t)P->total;
        P->cmax = P->level;
        P->level++;
    }
    P->counts_ok = 1;
    return any_nomem(P) ? GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-prsn: cannot grow a vertex list")
                        : GCUT_OK;
}

/* Global relabelling: exact labels, then the work set rebuilt from them. */
static gcut_status global_relabel(prsn *P, gcut_stats *st)
{
    int64_t reached, live;
    gcut_status s = bfs_from_sink(P, &reached, &live);
    if (s != GCUT_OK)
        return s;
    for (int32_t t = 0; t < P->nthreads; t++)
        P->tl[t].work = 0;
    phase(P, JOB_REBUILD, P->nthreads > 1 && P->n >= PRSN_PAR_NODES);
    set_current(P, 0);
    if (any_nomem(P))
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-prsn: cannot grow a vertex list");
    /* Live nodes the BFS no longer reaches were cut off by a gap (the
     * first relabelling only labels, it lifts nothing). */
    if (st->global_relabels++ > 0)
        st->gap_nodes += live > reached ? live - reached : 0;
    return GCUT_OK;
}

/* ------------------------------------------------------------ highest-label bursts */

/*
 * A work set too small to share among threads is processed by the driver
 * alone, and then nothing forces rounds on it: it runs the sequential
 * highest-label method of Cherkassky and Goldberg (buckets of active nodes
 * by label, pushes and relabels seen at once), which moves flow down long
 * paths with far fewer discharges than synchronous rounds (the rounds do
 * one hop per round). It is the same push-relabel: labels stay valid, so
 * it can stop at any point and hand its active nodes back to the rounds -
 * when they become many (hl_exit), when a global relabelling is due, or
 * when none are left.
 */

static void bucket_put(prsn *P, int32_t v, uint32_t L)
{
    P->bnext[v] = P->bhead[L];
    P->bhead[L] = v;
}

/* Discharge v completely: push at label d to label d - 1, relabel to the
 * lowest residual neighbour + 1, until no excess is left or v is dead. */
/* Gap at label g (no node left there): no node above it can reach the
 * sink. The active ones (all in buckets above g) become dead; inactive
 * ones keep their labels: nothing can push into them from below the gap,
 * and the next global relabelling lifts them. */
static void gap_lift(prsn *P, uint32_t g, uint32_t *hi, int64_t *active)
{
    for (uint32_t L = g + 1; L <= *hi; L++) {
        for (int32_t u = P->bhead[L]; u >= 0; u = P->bnext[u]) {
            atomic_store_explicit(&P->lab[u], P->dead, memory_order_relaxed);
            P->node[u].newlab = P->dead;
            P->count[L]--;
            (*active)--;
            P->gaps++;
        }
        P->bhead[L] = -1;
    }
    *hi = g;
}

static void burst_discharge(prsn *P, prsn_tl *tl, int32_t v, uint32_t *lo, uint32_t *hi,
                            int64_t *active)
{
    prsn_arc *const arc = P->arc;
    prsn_node *const node = P->node;
    _Atomic uint32_t *const lab = P->lab;
    prsn_node *const me = &node[v];
    const uint32_t dead = P->dead;
    const int64_t a0 = P->first[v], a1 = P->first[v + 1];
    uint32_t d = atomic_load_explicit(&lab[v], memory_order_relaxed);
    int64_t e = me->excess;
    for (;;) {
        if (d == 1 && me->sink_res > 0) {
            const int64_t delta = e < me->sink_res ? e : me->sink_res;
            me->sink_res -= delta;
            tl->to_sink += delta;
            e -= delta;
            tl->pushes++;
            if (e == 0)
                break;
        }
        uint32_t best = UINT32_MAX;
        for (int64_t a = a0; a < a1; a++) {
            const uint32_t r = arc[a].res;
            if (r == 0)
                continue;
            const int32_t w = arc[a].head;
            const uint32_t dw = atomic_load_explicit(&lab[w], memory_order_relaxed);
            if (dw + 1 == d) {
                const uint32_t delta = e < (int64_t)r ? (uint32_t)e : r;
                arc[a].res = r - delta;
                arc[arc[a].sister].res += delta;
                e -= delta;
                tl->pushes++;
                const int64_t ew = node[w].excess;
                node[w].excess = ew + delta;
                if (ew == 0) { /* w becomes active (its label d - 1 < dead) */
                    bucket_put(P, w, dw);
                    /* v may have been relabelled above the highest bucket */
                    if (dw < *lo)
                        *lo = dw;
                    if (dw > *hi)
                        *hi = dw;
                    (*active)++;
                }
                if (e == 0)
                    goto done;
            } else if (dw + 1 < best) {
                best = dw + 1;
            }
        }
        const uint32_t old = d;
        d = best < dead ? best : dead;
        tl->relabels++;
        tl->work += PRSN_BETA + (a1 - a0);
        if (--P->count[old] == 0 && d < dead) {
            /* v was the last node at its label: v and all above are cut off. */
            gap_lift(P, old, hi, active);
            d = dead;
            P->gaps++;
        }
        if (d < dead) {
            P->count[d]++;
            if (d > P->cmax)
                P->cmax = d;
        }
        atomic_store_explicit(&lab[v], d, memory_order_relaxed);
        me->newlab = d;
        if (d == dead)
            break;
    }
done:
    me->excess = e;
}

/* Next stamp; stamps are forgotten before they wrap (after 2^32 rounds an
 * old stamp would read as current). Bursts take a stamp too: they may end
 * with a hand-over, after which stale stamps must not match. */
static void next_round(prsn *P)
{
    if (++P->round == UINT32_MAX) {
        for (int32_t v = 0; v < P->n; v++)
            atomic_store_explicit(&P->node[v].mark, 0, memory_order_relaxed);
        P->round = 1;
    }
}

/* One burst from the current work set; leaves the active nodes as the
 * next work set (flagged, as the rounds expect). */
static gcut_status burst(prsn *P, double threshold)
{
    const uint32_t dead = P->dead;
    /* Buckets are allocated at the first burst and left empty by each. */
    if (!P->bhead) {
        P->bhead = gcut_i_malloc_array((int64_t)dead + 1, sizeof(int32_t));
        P->bnext = gcut_i_malloc_array(P->n, sizeof(int32_t));
        if (!P->bhead || !P->bnext)
            return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-prsn: cannot allocate label buckets");
        for (uint32_t L = 0; L <= dead; L++)
            P->bhead[L] = -1;
    }
    /* The gap test needs the number of nodes at every label. A global
     * relabelling gives them for free; parallel rounds relabel without
     * keeping them (the counters would be the most contended words of the
     * round), so after rounds they are counted again, once per burst:
     * hand-overs are rare (a few per solve). */
    if (!P->counts_ok) {
        memset(P->count, 0, ((size_t)P->cmax + 1) * sizeof(int32_t));
        P->cmax = 0;
        for (int32_t v = 0; v < P->n; v++) {
            const uint32_t L = atomic_load_explicit(&P->lab[v], memory_order_relaxed) & PRSN_LAB;
            if (L < dead) {
                P->count[L]++;
                P->cmax = L > P->cmax ? L : P->cmax;
            }
        }
        P->counts_ok = 1;
    }
    prsn_tl *tl = &P->tl[0];
    const int64_t other_work = sum_work(P) - tl->work;
    int32_t *const bhead = P->bhead;
    uint32_t hi = 0, lo = dead;
    int64_t active = 0;
    int32_t s = 0;
    /* The work set enters the buckets; the burst knows no work-set flag
     * (no winners, no losers: one thread), so it is cleared. */
    for (int64_t i = 0; i < P->total; i++) {
        const int32_t v = list_at(P, i, &s);
        const uint32_t L = atomic_load_explicit(&P->lab[v], memory_order_relaxed) & PRSN_LAB;
        atomic_store_explicit(&P->lab[v], L, memory_order_relaxed);
        bucket_put(P, v, L);
        hi = L > hi ? L : hi;
        lo = L < lo ? L : lo;
        active++;
    }
    gcut_status st = GCUT_OK;
    /* One discharge per step, always of a highest active node; the call
     * is polled every 1024 steps only (a step can be a few nanoseconds). */
    for (int64_t steps = 1; active > 0; steps++) {
        if (active > P->hl_exit)
            break;
        if (P->freq > 0 && P->freq * (double)(other_work + tl->work) > threshold)
            break;
        if ((steps & 1023) == 0 && (st = gcut_i_poll("solve", active, "active nodes")) != GCUT_OK)
            break;
        while (bhead[hi] < 0)
            hi--;
        const int32_t v = bhead[hi];
        bhead[hi] = P->bnext[v];
        active--;
        burst_discharge(P, tl, v, &lo, &hi, &active);
    }
    /* Hand the active nodes back as the next work set. */
    prsn_list *out = &tl->list[P->cur ^ 1];
    out->len = 0;
    for (uint32_t L = lo; active > 0 && L <= hi; L++) {
        for (int32_t v = bhead[L]; v >= 0; v = P->bnext[v]) {
            atomic_store_explicit(&P->lab[v], L | PRSN_ACT, memory_order_relaxed);
            P->node[v].newlab = L;
            list_push(tl, out, v);
            active--;
        }
        bhead[L] = -1;
    }
    for (int32_t t = 1; t < P->nthreads; t++)
        P->tl[t].list[P->cur ^ 1].len = 0;
    set_current(P, P->cur ^ 1);
    next_round(P);
    if (st == GCUT_OK && tl->nomem)
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-prsn: cannot grow a vertex list");
    return st;
}

/* ------------------------------------------------------------ set-up and driver */

static void prsn_free(prsn *P)
{
    gcut_i_pool_destroy(&P->pool);
    if (P->tl)
        for (int32_t t = 0; t < P->nthreads; t++) {
            gcut_i_free(P->tl[t].list[0].item);
            gcut_i_free(P->tl[t].list[1].item);
        }
    gcut_i_free(P->tl);
    gcut_i_free(P->bhead);
    gcut_i_free(P->bnext);
    gcut_i_free(P->count);
    gcut_i_free(P->off);
    gcut_i_free(P->arc);
    gcut_i_free(P->node);
    gcut_i_free((void *)P->lab);
}

/* Allocate; the initial state is written by JOB_INIT. */
static gcut_status prsn_new(prsn *P, const gcut_problem *p, int32_t nthreads)
{
    const gcut_bcsr *b = p->bcsr;
    const int32_t n = b->n;
    memset(P, 0, sizeof *P);
    if (n > (int32_t)PRSN_LAB - 1)
        return GCUT_FAIL(GCUT_ERR_OVERFLOW, "cpu-prsn: %d nodes leave no room for labels", (int)n);
    P->b = b;
    P->cap_source = p->cap_source;
    P->cap_sink = p->cap_sink;
    P->n = n;
    P->dead = (uint32_t)n + 1;
    P->first = b->first;
    P->nthreads = nthreads;
    /* 16 bytes per arc and 40 per node (48 with bursts), beside the
     * layout. Large arrays are first written by JOB_INIT, on the pool for
     * large graphs, so their pages are faulted in by all threads at once. */
    P->arc = gcut_i_malloc_array(b->m, sizeof(prsn_arc));
    P->node = gcut_i_malloc_array(n, sizeof(prsn_node));
    P->lab = gcut_i_malloc_array(n, sizeof(*P->lab));
    P->count = gcut_i_malloc_array((int64_t)n + 2, sizeof(int32_t)); /* zeroed by JOB_INIT */
    P->tl = gcut_i_calloc((size_t)nthreads, sizeof(prsn_tl));
    P->off = gcut_i_calloc((size_t)nthreads + 1, sizeof(int64_t));
    if (!P->arc || !P->node || !P->lab || !P->count || !P->tl || !P->off ||
        gcut_i_pool_init(&P->pool, nthreads, PRSN_SPIN) != 0) {
        prsn_free(P);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-prsn: cannot allocate %d nodes, %lld arcs", (int)n,
                         (long long)b->m);
    }
    return GCUT_OK;
}

/* Parse "key=value,..." of opt->params: seq_below (work sets smaller than
 * this run on the driving thread), hl (0: no highest-label bursts) and
 * gr_freq (hi_pr's global update frequency; 0 = only the first global
 * relabelling). */
static gcut_status parse_params(const char *s, prsn *P)
{
    static const char who[] = "cpu-prsn";
    gcut_i_param p;
    int r;
    while ((r = gcut_i_param_next(&s, who, &p)) > 0) {
        gcut_status st;
        int64_t x;
        if (strcmp(p.key, "seq_below") == 0) {
            st = gcut_i_param_int(&p, who, 0, INT64_MAX, &x);
            P->seq_below = x;
        } else if (strcmp(p.key, "hl") == 0) {
            st = gcut_i_param_int(&p, who, 0, 1, &x);
            P->hl = x == 1;
        } else if (strcmp(p.key, "gr_freq") == 0) {
            st = gcut_i_param_double(&p, who, 0.0, &P->freq);
        } else {
            st = gcut_i_param_unknown(&p, who, "seq_below, hl, gr_freq");
        }
        if (st != GCUT_OK)
            return st;
    }
    return r < 0 ? GCUT_ERR_INVALID : GCUT_OK;
}

/* Phase I: rounds until the work set is empty. */
/* The driver: between two phases only this thread runs, so every decision
 * below (time, global relabelling, round or burst, dense commit) is taken
 * once, on data no thread is writing. */
static gcut_status run_rounds(prsn *P, const gcut_solve_options *opt,
                              gcut_stats *st)
{
    (void)opt;
    const double threshold = (double)PRSN_ALPHA * P->n + (double)P->b->m;
    gcut_status s = global_relabel(P, st);
    if (s != GCUT_OK)
        return s;
    P->round = 1;
    while (P->total > 0) {
        if ((s = gcut_i_poll("solve", P->total, "active nodes")) != GCUT_OK)
            return s;
        if (P->freq > 0 && P->freq * (double)sum_work(P) > threshold) {
            s = global_relabel(P, st);
            if (s != GCUT_OK)
                return s;
            continue;
        }
        const int par = use_pool(P, P->total);
        st->rounds++;
        if (!par && P->hl) {
            s = burst(P, threshold);
            if (s != GCUT_OK)
                return s;
            continue;
        }
        /* Known before the round, so discharges of a dense round skip the
         * lists (the commit pass finds the stamped nodes by itself). */
        P->dense = P->total * PRSN_DENSE_DIV >= P->n;
        phase(P, JOB_DISCHARGE, par);
        phase(P, P->dense ? JOB_COMMIT_DENSE : JOB_COMMIT, par);
        P->counts_ok = 0; /* relabels of the round did not update count[] */
        if (any_nomem(P))
            return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-prsn: cannot grow a vertex list");
        set_current(P, P->cur ^ 1);
        next_round(P);
    }
    return GCUT_OK;
}

/* The engine's state in the arrays the shared helpers take. */
static gcut_status export_state(const prsn *P, uint32_t **res, int64_t **excess, int64_t **sink_res)
{
    *res = gcut_i_malloc_array(P->b->m, sizeof(uint32_t));
    *excess = gcut_i_malloc_array(P->n, sizeof(int64_t));
    *sink_res = gcut_i_malloc_array(P->n, sizeof(int64_t));
    if (!*res || !*excess || !*sink_res)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-prsn: cannot allocate the residual graph");
    for (int64_t a = 0; a < P->b->m; a++)
        (*res)[a] = P->arc[a].res;
    for (int32_t v = 0; v < P->n; v++) {
        (*excess)[v] = P->node[v].excess;
        (*sink_res)[v] = P->node[v].sink_res;
    }
    return GCUT_OK;
}

static gcut_status prsn_solve(void *state, const gcut_problem *p, const gcut_solve_options *opt,
                              gcut_solution *sol)
{
    (void)state;
    double t0 = gcut_i_now_ms();
    gcut_stats *st = sol->stats;
    if (!p->bcsr)
        return GCUT_FAIL(GCUT_ERR_INTERNAL, "cpu-prsn: no BCSR layout given");
    int32_t nthreads = opt->threads > 0 ? opt->threads : gcut_i_num_cpus();
    if (nthreads > PRSN_MAX_THREADS)
        nthreads = PRSN_MAX_THREADS;
    prsn P;
    gcut_status s = prsn_new(&P, p, nthreads);
    if (s != GCUT_OK)
        return s;
    uint32_t *res = NULL;
    int64_t *excess = NULL, *sink_res = NULL;
    /* Rounds do more operations than the highest-label method (1.4 to 2.5
     * times on grids and RMF, about as many on random graphs), each at
     * about 1.5 times the cost: they only pay once enough threads share
     * them. */
    P.seq_below = PRSN_SEQ_PER_THREAD * (int64_t)nthreads;
    if (P.seq_below < PRSN_SEQ_MIN)
        P.seq_below = PRSN_SEQ_MIN;
    if (nthreads < PRSN_ROUND_THREADS)
        P.seq_below = INT64_MAX;
    P.freq = PRSN_DEFAULT_FREQ;
    P.hl = 1;
    s = parse_params(opt->params, &P);
    if (s != GCUT_OK)
        goto fail;
    P.hl_exit = INT64_MAX;
    if (P.nthreads > 1 && P.seq_below < INT64_MAX / PRSN_HL_EXIT)
        P.hl_exit = PRSN_HL_EXIT * (P.seq_below > 0 ? P.seq_below : 1);
    phase(&P, JOB_INIT, P.nthreads > 1 && P.n >= PRSN_PAR_NODES);
    st->init_ms = gcut_i_now_ms() - t0;

    t0 = gcut_i_now_ms();
    s = run_rounds(&P, opt, st);
    int64_t flow = 0;
    for (int32_t t = 0; t < P.nthreads; t++) {
        flow += P.tl[t].to_sink;
        st->pushes += P.tl[t].pushes;
        st->relabels += P.tl[t].relabels;
    }
    st->gap_nodes += P.gaps;
    st->solve_ms = gcut_i_now_ms() - t0;
    if (s != GCUT_OK)
        goto fail;

    /* The canonical cut: the sink side is the set of nodes that reach the
     * sink in the final residual graph - exactly what the reverse BFS of a
     * global relabelling labels (the set gcut_i_cut_from_residual computes,
     * without exporting the residuals for it), on the pool when large. */
    if ((s = gcut_i_poll("cut", -1, NULL)) != GCUT_OK)
        goto fail;
    t0 = gcut_i_now_ms();
    int64_t reached, live;
    s = bfs_from_sink(&P, &reached, &live);
    if (s != GCUT_OK)
        goto fail;
    P.cut = sol->cut;
    phase(&P, JOB_CUT, P.nthreads > 1 && P.n >= PRSN_PAR_NODES);
    st->threads = P.pool.size;
    gcut_i_pool_destroy(&P.pool);
    st->cut_ms = gcut_i_now_ms() - t0;
    if (sol->edge_flows) {
        /* No flow ever goes back to the source in phase I: it still sends
         * all of its (cancelled) capacity. */
        if ((s = gcut_i_poll("flows", -1, NULL)) != GCUT_OK)
            goto fail;
        t0 = gcut_i_now_ms();
        s = export_state(&P, &res, &excess, &sink_res);
        if (s != GCUT_OK)
            goto fail;
        s = gcut_i_flows_from_preflow(p, res, excess, sol->edge_flows, "cpu-prsn");
        if (s != GCUT_OK)
            goto fail;
        st->flow_ms = gcut_i_now_ms() - t0;
    }
    sol->flow = flow;
    gcut_i_log(opt, GCUT_LOG_INFO,
               "cpu-prsn: flow %lld, %d threads, %lld rounds, %lld global relabels, "
               "%lld pushes, %lld relabels, %.1f ms",
               (long long)flow, (int)st->threads, (long long)st->rounds,
               (long long)st->global_relabels, (long long)st->pushes, (long long)st->relabels,
               st->solve_ms);
fail:
    gcut_i_free(res);
    gcut_i_free(excess);
    gcut_i_free(sink_res);
    prsn_free(&P);
    return s;
}

const gcut_backend gcut_i_backend_prsn = GCUT_BACKEND_ASSIGN(
    "cpu-prsn", "synchronous parallel push-relabel (Baumstark, Blelloch, Shun 2015)",
    GCUT_BACKEND_GRAPH | GCUT_BACKEND_FLOWS | GCUT_BACKEND_THREADS | GCUT_BACKEND_NEEDS_BCSR, NULL,
    NULL, prsn_solve, NULL, NULL);
