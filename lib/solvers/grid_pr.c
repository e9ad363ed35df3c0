/*
 * grid_pr.c - cpu-grid-pr: synchronous parallel push-relabel on a lattice.
 *
 *   A. V. Goldberg and R. E. Tarjan, "A new approach to the maximum-flow
 *   problem", J. ACM 35(4):921-940, 1988 (push-relabel; the synchronous,
 *   round-based form is their "parallel implementation", section 5);
 *   B. V. Cherkassky and A. V. Goldberg, "On implementing the push-relabel
 *   method for the maximum flow problem", Algorithmica 19 (1997)
 *   (global relabelling and its work threshold).
 *
 * The grid needs no arc list: node v's neighbour in direction d is
 * v + off[d] and the arc back is direction d ^ 1 of that neighbour (grid.h).
 * Residuals are dense, res[d * n + v], one uint32 per (node, direction);
 * at start-up every direction that leaves the grid gets residual 0. As in
 * bk_grid.c, the linear index of a direction leaving the grid lands on a
 * node whose direction back leaves the grid on the same axis, so a range
 * check 0 <= v + off[d] < n is the only border test any scan needs.
 *
 * Terminals are native: min(cap_source, cap_sink) goes straight into the
 * flow, the rest of cap_source is the node's initial excess and the rest of
 * cap_sink an arc to a virtual sink of label 0. There is no source node:
 * excess that cannot reach the sink stays at nodes labelled `dead` (= n + 1;
 * a maximum preflow), which does not change the canonical cut.
 *
 * A round has three phases, each a fork-join over the current list:
 *   A (push)    every active node v (excess > 0, label < dead) pushes on
 *               its admissible arcs (v -> x with lab(x) = lab(v) - 1),
 *               labels being those of the round's start. Flow into x goes
 *               to added[x] (atomic add); x and v, if it kept excess, are
 *               put once on the pusher's list (a test-and-set of a round
 *               stamp in mark[]).
 *   B (relabel) every listed node folds added[] into its excess; if it
 *               is active and has no admissible arc left it computes its
 *               new label, min over residual arcs of lab(x) + 1, into
 *               newlab[] (labels are still those of the round's start).
 *   C (commit)  newlab[] is published; the nodes still active form the
 *               next round's list.
 * Why phase A is race-free without a winner rule: v only touches the pair
 * (v -> x, x -> v) when lab(x) = lab(v) - 1, and x would only touch it if
 * lab(v) = lab(x) - 1; labels are fixed in the phase, so each arc pair has
 * one writer, and v checks the label before it reads the residual (x may
 * be pushing into v on a pair v must not read). Phase B only reads
 * residuals and labels, phase C only writes its own nodes' labels.
 *
 * Invariants:
 *   - labels are valid at the end of every phase: lab(u) <= lab(w) + 1 for
 *     every residual arc u -> w, lab(sink) = 0. A push on v -> x with
 *     lab(v) = lab(x) + 1 creates x -> v, valid; a relabel to
 *     min lab(x) + 1 over residual arcs taken from start-of-round labels
 *     stays valid because labels only grow. Labels >= dead mean "cannot
 *     reach the sink" and are capped at dead;
 *   - every node with excess > 0 and label < dead is on the list at the
 *     start of phase A, exactly once; each of them pushes (A) or relabels
 *     (B) in the round, so the usual push-relabel bounds give termination;
 *   - res[d][v] + res[d^1][v + off[d]] = cap[d][v] + cap[d^1][v + off[d]]
 *     < 2^32; res[d][v] = 0 for directions leaving the grid.
 * At the end no node with excess can reach the sink (valid labels), so the
 * preflow is maximum; the canonical cut is the reverse BFS from the sink
 * over residual arcs, which is one more global relabelling.
 *
 * Global relabelling: a level-synchronous reverse BFS from the sink on the
 * pool (a node is claimed by a compare-and-swap of its label), at the
 * start and whenever the relabel work passes Cherkassky-Goldberg's
 * threshold. Nodes it does not reach get `dead`: the gap heuristic for free.
 *
 * Determinism: what a node does in a phase depends only on the state at the
 * phase's start and on sums (added[]), never on the order in which threads
 * process the lists, so flow, labels and cut are the same for any thread
 * count.
 *
 * Threads: the fork-join pool of lib/core/pool.c, started per solve; the
 * caller is worker 0 and drives.
 * Phases with fewer than par_min items (default GRIDPR_PAR_ITEMS; BFS levels
 * an eighth of that) run on the driver alone.
 *
 * Settings (opt->params): par_min=N, gr_freq=F (see parse_params).
 * Memory per node: 4 * nd (residuals) + 8 (excess) + 8 (added) + 4 * 4
 * (sink residual, label, new label, stamp) bytes, plus the lists.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool_internal.h"
#include "core/compiler_internal.h"
#include "solvers/solvers_internal.h"

#define GRIDPR_MAX_THREADS 64
/* A phase over fewer items than this runs on the driving thread (default
 * of the par_min setting). */
#define GRIDPR_PAR_ITEMS 4096
/* Cherkassky-Goldberg: a relabel costs BETA plus the degree; a global
 * relabelling runs once FREQ * work > ALPHA * n + m. */
#define GRIDPR_ALPHA 6
#define GRIDPR_BETA 12
#define GRIDPR_FREQ 0.5
/* Spin iterations before a waiting thread sleeps (while every thread has
 * a core; see gcut_i_pool_init). */
#define GRIDPR_SPIN 2000
#define GRIDPR_LIST_MIN 1024

enum { JOB_INIT, JOB_SEED, JOB_BFS, JOB_ACTIVE, JOB_PUSH, JOB_RELABEL, JOB_COMMIT, JOB_CUT };

typedef struct gridpr_list {
    int32_t *item;
    int64_t len, room;
} gridpr_list;

/* Per-thread: written by its thread within a phase, read by the driver
 * between phases; padded apart. */
typedef struct gridpr_tl {
    _Alignas(64) gridpr_list list[2];
    int64_t pushes, relabels, work, to_sink, count;
    int nomem;
} gridpr_tl;

typedef struct gridpr {
    int32_t n, nd, w, h, dp;
    uint32_t dead;           /* n + 1: above every distance to the sink */
    int64_t off[GCUT_GRID_MAX_DIRS];
    const gcut_grid_problem *p;
    uint32_t *res;           /* nd * n */
    uint32_t *sink_res;      /* n */
    int64_t *excess;         /* n */
    _Atomic int64_t *added;  /* n */
    _Atomic uint32_t *lab;   /* n */
    uint32_t *newlab;        /* n */
    _Atomic uint32_t *mark;  /* n: round stamp */
    uint8_t *cut;
    uint32_t stamp;          /* the current round's stamp */
    uint32_t level;          /* the current BFS level's label */
    int cur;                 /* input lists: list[cur]; output: list[cur ^ 1] */
    int64_t prefix[GRIDPR_MAX_THREADS + 1]; /* input list offsets */
    int64_t flow0;           /* cancelled terminal capacity */
    int32_t nthreads;        /* running (the pool's size) */
    int64_t par_min;         /* phases of fewer items run on the driver */
    double freq;             /* global relabelling frequency */
    gridpr_tl *tl;
    int job;                 /* the current phase's job */
    gcut_i_pool pool;
} gridpr;

/* ------------------------------------------------------------ helpers */

static void list_push(gridpr_tl *t, int which, int32_t v)
{
    gridpr_list *l = &t->list[which];
    if (l->len == l->room) {
        int64_t room = l->room ? 2 * l->room : GRIDPR_LIST_MIN;
        int32_t *item = gcut_i_realloc(l->item, (size_t)room * sizeof *item);
        if (!item) {
            t->nomem = 1;
            return;
        }
        l->item = item;
        l->room = room;
    }
    l->item[l->len++] = v;
}

/* This thread's share [lo, hi) of [0, total). */
GCUT_INLINE void share(int64_t total, int32_t id, int32_t nt, int64_t *lo, int64_t *hi)
{
    *lo = total * id / nt;
    *hi = total * (id + 1) / nt;
}

/* The k-th item of the concatenated input lists, walking forward from
 * list *t (k only grows within one share). */
GCUT_INLINE int32_t input_item(const gridpr *P, int64_t k, int32_t *t)
{
    while (k >= P->prefix[*t + 1])
        (*t)++;
    return P->tl[*t].list[P->cur].item[k - P->prefix[*t]];
}

/* Put v on this thread's output list once per round. */
GCUT_INLINE void mark_once(gridpr *P, gridpr_tl *t, int32_t v)
{
    if (atomic_exchange_explicit(&P->mark[v], P->stamp, memory_order_relaxed) != P->stamp)
        list_push(t, P->cur ^ 1, v);
}

/* ------------------------------------------------------------ jobs */

/* Residuals, terminal arcs, excesses; border directions get 0. */
static void job_init(gridpr *P, gridpr_tl *t, int32_t id, int32_t nt)
{
    const gcut_grid_problem *p = P->p;
    int64_t lo, hi, flow0 = 0;
    share(P->n, id, nt, &lo, &hi);
    for (int64_t v = lo; v < hi; v++) {
        const int32_t x = (int32_t)(v % P->w), y = (int32_t)((v / P->w) % P->h);
        const int32_t z = (int32_t)(v / ((int64_t)P->w * P->h));
        for (int32_t d = 0; d < P->nd; d++) {
            const int32_t *o = p->dir_offset + 3 * d;
            const int in = x + o[0] >= 0 && x + o[0] < P->w && y + o[1] >= 0 &&
                           y + o[1] < P->h && z + o[2] >= 0 && z + o[2] < P->dp;
            P->res[(int64_t)d * P->n + v] = in ? (uint32_t)p->cap[d][v] : 0;
        }
        const int32_t cs = p->cap_source[v], ct = p->cap_sink[v];
        const int32_t m = cs < ct ? cs : ct;
        flow0 += m;
        P->excess[v] = cs - m;
        P->sink_res[v] = (uint32_t)(ct - m);
        atomic_store_explicit(&P->added[v], 0, memory_order_relaxed);
        atomic_store_explicit(&P->mark[v], 0, memory_order_relaxed);
    }
    t->count = flow0;
}

/* Global relabelling, level 1: every label to dead, the nodes with a
 * residual arc to the sink to 1 and onto the output list. */
static void job_seed(gridpr *P, gridpr_tl *t, int32_t id, int32_t nt)
{
    int64_t lo, hi;
    share(P->n, id, nt, &lo, &hi);
    t->count = 0;
    for (int64_t v = lo; v < hi; v++) {
        const uint32_t L = P->sink_res[v] > 0 ? 1u : P->dead;
        atomic_store_explicit(&P->lab[v], L, memory_order_relaxed);
        if (L == 1) {
            list_push(t, P->cur ^ 1, (int32_t)v);
            t->count++;
        }
    }
}

/* One BFS level: claim every dead node with a residual arc into the
 * frontier (a CAS of its label, so each is claimed once). */
static void job_bfs(gridpr *P, gridpr_tl *t, int32_t id, int32_t nt)
{
    int64_t lo, hi;
    int32_t li = 0;
    share(P->prefix[P->nthreads], id, nt, &lo, &hi);
    const uint32_t next = P->level + 1, dead = P->dead;
    for (int64_t k = lo; k < hi; k++) {
        const int32_t v = input_item(P, k, &li);
        for (int32_t d = 0; d < P->nd; d++) {
            const int64_t x = v + P->off[d];
            if (x < 0 || x >= P->n || P->res[(int64_t)(d ^ 1) * P->n + x] == 0)
                continue;
            uint32_t want = dead;
            if (atomic_load_explicit(&P->lab[x], memory_order_relaxed) == dead &&
                atomic_compare_exchange_strong_explicit(&P->lab[x], &want, next,
                                                        memory_order_relaxed,
                                                        memory_order_relaxed)) {
                list_push(t, P->cur ^ 1, (int32_t)x);
                t->count++;
            }
        }
    }
}

/* After a global relabelling: the active nodes, in node order. */
static void job_active(gridpr *P, gridpr_tl *t, int32_t id, int32_t nt)
{
    int64_t lo, hi;
    share(P->n, id, nt, &lo, &hi);
    const uint32_t dead = P->dead;
    for (int64_t v = lo; v < hi; v++)
        if (P->excess[v] > 0 && atomic_load_explicit(&P->lab[v], memory_order_relaxed) < dead)
            list_push(t, P->cur ^ 1, (int32_t)v);
}

/* Phase A: push on admissible arcs; the label is checked before the
 * residual is read (see the top). */
static void job_push(gridpr *P, gridpr_tl *t, int32_t id, int32_t nt)
{
    int64_t lo, hi;
    int32_t li = 0;
    share(P->prefix[P->nthreads], id, nt, &lo, &hi);
    const int64_t n = P->n;
    for (int64_t k = lo; k < hi; k++) {
        const int32_t v = input_item(P, k, &li);
        const uint32_t L = atomic_load_explicit(&P->lab[v], memory_order_relaxed);
        int64_t e = P->excess[v];
        if (L == 1 && P->sink_res[v] > 0) {
            const int64_t f = e < P->sink_res[v] ? e : P->sink_res[v];
            P->sink_res[v] -= (uint32_t)f;
            t->to_sink += f;
            t->pushes++;
            e -= f;
        }
        for (int32_t d = 0; d < P->nd && e > 0; d++) {
            const int64_t x = v + P->off[d];
            if (x < 0 || x >= n || atomic_load_explicit(&P->lab[x], memory_order_relaxed) + 1 != L)
                continue;
            uint32_t *r = &P->res[(int64_t)d * n + v];
            if (*r == 0)
                continue;
            const int64_t f = e < *r ? e : *r;
            *r -= (uint32_t)f;
            P->res[(int64_t)(d ^ 1) * n + x] += (uint32_t)f;
            atomic_fetch_add_explicit(&P->added[x], f, memory_order_relaxed);
            mark_once(P, t, (int32_t)x);
            t->pushes++;
            e -= f;
        }
        P->excess[v] = e;
        if (e > 0)
            mark_once(P, t, v);
    }
}

/* Phase B: fold the received flow; relabel active nodes with no admissible
 * arc (into newlab: the labels everyone reads stay those of the round). */
static void job_relabel(gridpr *P, gridpr_tl *t, int32_t id, int32_t nt)
{
    int64_t lo, hi;
    int32_t li = 0;
    share(P->prefix[P->nthreads], id, nt, &lo, &hi);
    const int64_t n = P->n;
    const uint32_t dead = P->dead;
    for (int64_t k = lo; k < hi; k++) {
        const int32_t v = input_item(P, k, &li);
        P->excess[v] += atomic_exchange_explicit(&P->added[v], 0, memory_order_relaxed);
        const uint32_t L = atomic_load_explicit(&P->lab[v], memory_order_relaxed);
        P->newlab[v] = L;
        if (P->excess[v] == 0 || L >= dead || (L == 1 && P->sink_res[v] > 0))
            continue;
        uint32_t best = dead;
        for (int32_t d = 0; d < P->nd; d++) {
            const int64_t x = v + P->off[d];
            if (x < 0 || x >= n || P->res[(int64_t)d * n + v] == 0)
                continue;
            const uint32_t lx = atomic_load_explicit(&P->lab[x], memory_order_relaxed);
            if (lx + 1 < best)
                best = lx + 1;
        }
        if (best > L) {
            P->newlab[v] = best;
            t->relabels++;
            t->work += GRIDPR_BETA + P->nd;
        }
    }
}

/* Phase C: publish labels; the still-active nodes are the next list. */
static void job_commit(gridpr *P, gridpr_tl *t, int32_t id, int32_t nt)
{
    int64_t lo, hi;
    int32_t li = 0;
    share(P->prefix[P->nthreads], id, nt, &lo, &hi);
    const uint32_t dead = P->dead;
    for (int64_t k = lo; k < hi; k++) {
        const int32_t v = input_item(P, k, &li);
        atomic_store_explicit(&P->lab[v], P->newlab[v], memory_order_relaxed);
        if (P->excess[v] > 0 && P->newlab[v] < dead)
            list_push(t, P->cur ^ 1, v);
    }
}

static void job_cut(gridpr *P, gridpr_tl *t, int32_t id, int32_t nt)
{
    (void)t;
    int64_t lo, hi;
    share(P->n, id, nt, &lo, &hi);
    const uint32_t dead = P->dead;
    for (int64_t v = lo; v < hi; v++)
        P->cut[v] = atomic_load_explicit(&P->lab[v], memory_order_relaxed) < dead ? GCUT_SINK
                                                                                 : GCUT_SOURCE;
}

static void run_job(gridpr *P, int job, int32_t id, int32_t nt)
{
    gridpr_tl *t = &P->tl[id];
    switch (job) {
    case JOB_INIT: job_init(P, t, id, nt); break;
    case JOB_SEED: job_seed(P, t, id, nt); break;
    case JOB_BFS: job_bfs(P, t, id, nt); break;
    case JOB_ACTIVE: job_active(P, t, id, nt); break;
    case JOB_PUSH: job_push(P, t, id, nt); break;
    case JOB_RELABEL: job_relabel(P, t, id, nt); break;
    case JOB_COMMIT: job_commit(P, t, id, nt); break;
    case JOB_CUT: job_cut(P, t, id, nt); break;
    default: break;
    }
}

/* A share of the current phase, on a thread of the pool. */
static void pool_job(void *ctx, int32_t id, int32_t nt)
{
    gridpr *P = ctx;
    run_job(P, P->job, id, nt);
}

/* Run one phase: on the pool when `par`, else on the driver alone. The
 * output lists (list[cur ^ 1]) are emptied first. */
static void phase(gridpr *P, int job, int par)
{
    for (int32_t i = 0; i < P->nthreads; i++)
        P->tl[i].list[P->cur ^ 1].len = 0;
    if (!par || P->nthreads == 1) {
        run_job(P, job, 0, 1);
        return;
    }
    P->job = job;
    gcut_i_pool_run(&P->pool, pool_job, P);
}

/* Make the outputs of the last phase the inputs of the next. */
static int64_t flip(gridpr *P)
{
    P->cur ^= 1;
    P->prefix[0] = 0;
    for (int32_t i = 0; i < P->nthreads; i++)
        P->prefix[i + 1] = P->prefix[i] + P->tl[i].list[P->cur].len;
    return P->prefix[P->nthreads];
}

static int nomem(const gridpr *P)
{
    for (int32_t i = 0; i < P->nthreads; i++)
        if (P->tl[i].nomem)
            return 1;
    return 0;
}

static int par_items(const gridpr *P, int64_t items)
{
    return P->nthreads > 1 && items >= P->par_min;
}
static int par_nodes(const gridpr *P) { return par_items(P, P->n); }

/* Exact distances to the sink in the residual graph (dead: none); leaves
 * the active nodes as the input list. */
static gcut_status global_relabel(gridpr *P, const char *poll_phase)
{
    phase(P, JOB_SEED, par_nodes(P));
    int64_t frontier = flip(P);
    P->level = 1;
    while (frontier > 0) {
        /* A level is at least a few thousand nodes' work on a large grid:
         * the poll (a clock read) costs nothing beside it. A stopped BFS
         * leaves nothing behind (the engine keeps no state). */
        gcut_status st = gcut_i_poll(poll_phase, -1, NULL);
        if (st != GCUT_OK)
            return st;
        phase(P, JOB_BFS, par_items(P, frontier * 8));
        frontier = flip(P);
        P->level++;
    }
    phase(P, JOB_ACTIVE, par_nodes(P));
    flip(P);
    for (int32_t i = 0; i < P->nthreads; i++)
        P->tl[i].work = 0;
    if (nomem(P))
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-grid-pr: cannot grow a node list");
    return GCUT_OK;
}

/* ------------------------------------------------------------ solve */

static void gridpr_free(gridpr *P)
{
    gcut_i_pool_destroy(&P->pool);
    if (P->tl) {
        for (int32_t i = 0; i < P->nthreads; i++) {
            gcut_i_free(P->tl[i].list[0].item);
            gcut_i_free(P->tl[i].list[1].item);
        }
        gcut_i_free(P->tl);
    }
    gcut_i_free(P->res);
    gcut_i_free(P->sink_res);
    gcut_i_free(P->excess);
    gcut_i_free((void *)P->added);
    gcut_i_free((void *)P->lab);
    gcut_i_free(P->newlab);
    gcut_i_free((void *)P->mark);
}

/* Allocate and start the pool; threads that cannot be created are simply
 * not used. */
static gcut_status gridpr_new(gridpr *P, const gcut_grid_problem *p, int32_t nthreads)
{
    memset(P, 0, sizeof *P);
    P->p = p;
    P->n = p->num_nodes;
    P->nd = p->num_dirs;
    P->w = p->width;
    P->h = p->height;
    P->dp = p->depth;
    P->dead = (uint32_t)P->n + 1;
    for (int32_t d = 0; d < P->nd; d++) {
        const int32_t *o = p->dir_offset + 3 * d;
        P->off[d] = o[0] + (int64_t)P->w * (o[1] + (int64_t)P->h * o[2]);
    }
    P->nthreads = 1;
    P->tl = gcut_i_calloc((size_t)nthreads, sizeof *P->tl);
    P->res = gcut_i_malloc_array((int64_t)P->nd * P->n, sizeof *P->res);
    P->sink_res = gcut_i_malloc_array(P->n, sizeof *P->sink_res);
    P->excess = gcut_i_malloc_array(P->n, sizeof *P->excess);
    P->added = gcut_i_malloc_array(P->n, sizeof *P->added);
    P->lab = gcut_i_malloc_array(P->n, sizeof *P->lab);
    P->newlab = gcut_i_malloc_array(P->n, sizeof *P->newlab);
    P->mark = gcut_i_malloc_array(P->n, sizeof *P->mark);
    if (!P->tl || !P->res || !P->sink_res || !P->excess || !P->added || !P->lab || !P->newlab ||
        !P->mark)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-grid-pr: cannot allocate %d nodes", (int)P->n);
    if (gcut_i_pool_init(&P->pool, nthreads, GRIDPR_SPIN) != 0)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-grid-pr: cannot allocate the pool");
    P->nthreads = gcut_i_pool_start(&P->pool);
    return GCUT_OK;
}

/* Settings: par_min=N (the smallest phase run on the pool; 0: every
 * phase), gr_freq=F (global relabelling frequency; 0: only the first). */
static gcut_status parse_params(const char *s, gridpr *P)
{
    const char *who = "cpu-grid-pr";
    gcut_i_param p;
    int r;
    while ((r = gcut_i_param_next(&s, who, &p)) > 0) {
        gcut_status st;
        if (strcmp(p.key, "par_min") == 0)
            st = gcut_i_param_int(&p, who, 0, INT64_MAX, &P->par_min);
        else if (strcmp(p.key, "gr_freq") == 0)
            st = gcut_i_param_double(&p, who, 0.0, &P->freq);
        else
            st = gcut_i_param_unknown(&p, who, "par_min, gr_freq");
        if (st != GCUT_OK)
            return st;
    }
    return r < 0 ? GCUT_ERR_INVALID : GCUT_OK;
}

static gcut_status grid_pr_solve(void *state, const gcut_grid_problem *p,
                                 const gcut_solve_options *opt, gcut_solution *sol)
{
    (void)state;
    gcut_stats *st = sol->stats;
    double t0 = gcut_i_now_ms();
    int32_t nthreads = opt->threads > 0 ? opt->threads : gcut_i_num_cpus();
    if (nthreads > GRIDPR_MAX_THREADS)
        nthreads = GRIDPR_MAX_THREADS;
    if (nthreads < 1)
        nthreads = 1;
    gridpr P;
    gcut_status s = gridpr_new(&P, p, nthreads);
    if (s != GCUT_OK)
        goto done;
    P.par_min = GRIDPR_PAR_ITEMS;
    P.freq = GRIDPR_FREQ;
    s = parse_params(opt->params, &P);
    if (s != GCUT_OK)
        goto done;
    phase(&P, JOB_INIT, par_nodes(&P));
    P.flow0 = 0;
    for (int32_t i = 0; i < P.nthreads; i++)
        P.flow0 += P.tl[i].count;
    st->init_ms = gcut_i_now_ms() - t0;

    t0 = gcut_i_now_ms();
    s = gcut_i_poll("solve", -1, NULL);
    if (s == GCUT_OK)
        s = global_relabel(&P, "solve");
    st->global_relabels++;
    const double threshold =
        P.freq > 0 ? (GRIDPR_ALPHA * (double)P.n + (double)P.nd * P.n) / P.freq : 1e300;
    int64_t active = P.prefix[P.nthreads];
    while (s == GCUT_OK && active > 0) {
        if ((s = gcut_i_poll("solve", active, "active nodes")) != GCUT_OK)
            break;
        const int par = par_items(&P, active);
        P.stamp++;
        st->rounds++;
        phase(&P, JOB_PUSH, par);
        int64_t touched = flip(&P);
        const int par2 = par_items(&P, touched);
        phase(&P, JOB_RELABEL, par2);
        phase(&P, JOB_COMMIT, par2);
        active = flip(&P);
        if (nomem(&P)) {
            s = GCUT_FAIL(GCUT_ERR_NOMEM, "cpu-grid-pr: cannot grow a node list");
            break;
        }
        double work = 0;
        for (int32_t i = 0; i < P.nthreads; i++)
            work += (double)P.tl[i].work;
        if (work > threshold && active > 0) {
            s = global_relabel(&P, "solve");
            st->global_relabels++;
            active = P.prefix[P.nthreads];
        }
    }
    int64_t flow = P.flow0;
    for (int32_t i = 0; i < P.nthreads; i++) {
        flow += P.tl[i].to_sink;
        st->pushes += P.tl[i].pushes;
        st->relabels += P.tl[i].relabels;
    }
    st->solve_ms = gcut_i_now_ms() - t0;
    if (s != GCUT_OK)
        goto done;

    /* The canonical cut: one more reverse BFS on the final residual graph. */
    if ((s = gcut_i_poll("cut", -1, NULL)) != GCUT_OK)
        goto done;
    t0 = gcut_i_now_ms();
    s = global_relabel(&P, "cut");
    if (s != GCUT_OK)
        goto done;
    P.cut = sol->cut;
    phase(&P, JOB_CUT, par_nodes(&P));
    st->cut_ms = gcut_i_now_ms() - t0;
    st->threads = P.nthreads;
    sol->flow = flow;
    gcut_i_log(opt, GCUT_LOG_INFO,
               "cpu-grid-pr: flow %lld, %d threads, %lld rounds, %lld global relabels, "
               "%lld pushes, %lld relabels, %.1f ms",
               (long long)flow, (int)P.nthreads, (long long)st->rounds,
               (long long)st->global_relabels, (long long)st->pushes, (long long)st->relabels,
               st->solve_ms);
done:
    gridpr_free(&P);
    return s;
}

const gcut_backend gcut_i_backend_grid_pr = GCUT_BACKEND_ASSIGN(
    "cpu-grid-pr", "synchronous parallel push-relabel on grids (Goldberg-Tarjan rounds)",
    GCUT_BACKEND_GRID | GCUT_BACKEND_THREADS, NULL, NULL, NULL, grid_pr_solve, NULL);
