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
#include <stdatomic.h>
#include <string.h>

#include "core/pool_internal.h"
#include "graph/graph_internal.h"

/* The build polls the call (gcut_i_poll) every this many edges of each
 * pass, so that a time limit or a cancel during the build of a large
 * layout returns promptly; a stopped build frees what it made and leaves
 * the graph without the layout (the next solve builds it again). */
#define CSR_POLL_EVERY ((int64_t)1 << 20)
#define CSR_POLL(e, m, st)                                                                         \
    (((e) & (CSR_POLL_EVERY - 1)) == 0 &&                                                          \
     ((st) = gcut_i_poll("layout", (m) - (e), "edges to lay out")) != GCUT_OK)

static inline int keeps_edge(const gcut_graph *g, int64_t e)
{
    return g->eu[e] != g->ev[e] && (g->ecap[e] > 0 || g->erev[e] > 0);
}

/* ------------------------------------------------------ parallel builds
 *
 * A large layout is built by several threads with the same output as the
 * serial build, arc for arc. Each thread owns a range of nodes and scans
 * every edge in order, writing only the entries of its own nodes: the
 * counts, then (after a prefix sum in two levels) the arcs, so the arcs
 * of a node keep the order of the edges exactly as in the serial counting
 * sort. Every thread reads all the edges (16 bytes each) but writes only
 * its share, which is where the serial build spends its time (a random
 * write per arc). What crosses ranges is done afterwards from the arcs
 * themselves: BCSR's sister index through a map from edge direction to
 * arc, RCSR's reverse index by the owners of the heads.
 *
 * Only the driver may poll the call (gcut_i_poll keeps per-thread state):
 * its share polls, and a stop it is told of reaches the others through
 * `stop`, which they read as often. */

/* Edges from which a layout is built in parallel, and the most threads
 * used for it when the caller leaves the choice to us. */
#define CSR_PAR_MIN_EDGES ((int64_t)1 << 22)
#define CSR_PAR_MAX_THREADS 16

typedef enum csr_phase {
    BCSR_COUNT,
    BCSR_PLACE,
    BCSR_SISTER,
    RCSR_COUNT,
    RCSR_PLACE,
    RCSR_REVERSE,
    CSR_PREFIX,
    CSR_OFFSET,
} csr_phase;

typedef struct csr_par {
    const gcut_graph *g;
    csr_phase phase;
    int32_t nthreads;
    int64_t *sum;    /* per thread: a count, then the prefix of a range */
    int64_t *sum2;   /* the same for a second array (RCSR's reverse rows) */
    atomic_int stop; /* the driver's poll said stop */
    gcut_status st;  /* what it said */
    int64_t *first;  /* BCSR: first; RCSR: row */
    int64_t *first2; /* RCSR: rrow (NULL for BCSR) */
    int64_t *pos;    /* next free arc of each node */
    int64_t *where;  /* BCSR: the arc of each edge direction (2e, 2e + 1) */
    gcut_i_bcsr_store *b;
    gcut_i_rcsr_store *r;
} csr_par;

/* Nodes [lo, hi) of thread id. */
static void csr_range(const csr_par *P, int32_t id, int32_t *lo, int32_t *hi)
{
    const int64_t n = P->g->n;
    *lo = (int32_t)(n * id / P->nthreads);
    *hi = (int32_t)(n * (id + 1) / P->nthreads);
}

/* Every CSR_POLL_EVERY steps: the driver polls, the others look at stop.
 * Returns nonzero when the build must stop. */
static int csr_par_poll(csr_par *P, int32_t id, int64_t i, int64_t left)
{
    if ((i & (CSR_POLL_EVERY - 1)) != 0)
        return 0;
    if (id == 0) {
        gcut_status st = gcut_i_poll("layout", left, "edges to lay out");
        if (st != GCUT_OK) {
            P->st = st;
            atomic_store(&P->stop, 1);
        }
    }
    return atomic_load_explicit(&P->stop, memory_order_relaxed);
}

static void csr_par_job(void *ctx, int32_t id, int32_t nthreads)
{
    csr_par *P = ctx;
    const gcut_graph *g = P->g;
    const int32_t *eu = g->eu, *ev = g->ev, *ecap = g->ecap, *erev = g->erev;
    int32_t lo, hi;
    csr_range(P, id, &lo, &hi);
    /* In range: (uint32_t)(x - lo) < span, one test for both bounds. */
    const uint32_t span = (uint32_t)(hi - lo);
#define MINE(x) ((uint32_t)((x)-lo) < span)
    switch (P->phase) {
    case BCSR_COUNT: {
        int64_t *first = P->first, kept = 0;
        for (int64_t e = 0; e < g->m; e++) {
            if (csr_par_poll(P, id, e, g->m - e))
                return;
            if (!keeps_edge(g, e))
                continue;
            const int32_t u = eu[e], v = ev[e];
            if (MINE(u)) {
                first[u + 1]++;
                kept++;
            }
            if (MINE(v))
                first[v + 1]++;
        }
        P->sum[id] = kept;
        return;
    }
    case BCSR_PLACE: {
        int64_t *pos = P->pos, *where = P->where;
        gcut_i_bcsr_store *s = P->b;
        for (int64_t e = 0; e < g->m; e++) {
            if (csr_par_poll(P, id, e, g->m - e))
                return;
            if (!keeps_edge(g, e))
                continue;
            const int32_t u = eu[e], v = ev[e];
            if (MINE(u)) {
                const int64_t a = pos[u]++;
                s->head[a] = v;
                s->cap[a] = ecap[e];
                s->edge[a] = 2 * e;
                where[2 * e] = a;
            }
            if (MINE(v)) {
                const int64_t b = pos[v]++;
                s->head[b] = u;
                s->cap[b] = erev[e];
                s->edge[b] = 2 * e + 1;
                where[2 * e + 1] = b;
            }
        }
        return;
    }
    case BCSR_SISTER: {
        /* Arcs [m * id / T, m * (id + 1) / T): each one's sister is the
         * arc of the other direction of its edge. */
        gcut_i_bcsr_store *s = P->b;
        const int64_t m = s->view.m;
        const int64_t a0 = m / nthreads * id + (m % nthreads) * id / nthreads;
        const int64_t a1 = m / nthreads * (id + 1) + (m % nthreads) * (id + 1) / nthreads;
        for (int64_t a = a0; a < a1; a++) {
            if (csr_par_poll(P, id, a - a0, a1 - a))
                return;
            s->sister[a] = P->where[s->edge[a] ^ 1];
        }
        return;
    }
    case RCSR_COUNT: {
        int64_t *row = P->first, *rrow = P->first2, fwd = 0;
        for (int64_t e = 0; e < g->m; e++) {
            if (csr_par_poll(P, id, e, g->m - e))
                return;
            const int32_t u = eu[e], v = ev[e];
            if (u == v)
                continue;
            if (ecap[e] > 0) {
                if (MINE(u)) {
                    row[u + 1]++;
                    fwd++;
                }
                if (MINE(v))
                    rrow[v + 1]++;
            }
            if (erev[e] > 0) {
                if (MINE(v)) {
                    row[v + 1]++;
                    fwd++;
                }
                if (MINE(u))
                    rrow[u + 1]++;
            }
        }
        P->sum[id] = fwd;
        return;
    }
    case RCSR_PLACE: {
        int64_t *pos = P->pos;
        gcut_i_rcsr_store *s = P->r;
        for (int64_t e = 0; e < g->m; e++) {
            if (csr_par_poll(P, id, e, g->m - e))
                return;
            const int32_t u = eu[e], v = ev[e];
            if (u == v)
                continue;
            if (ecap[e] > 0 && MINE(u)) {
                const int64_t a = pos[u]++;
                s->col[a] = v;
                s->cap[a] = ecap[e];
                s->edge[a] = 2 * e;
            }
            if (erev[e] > 0 && MINE(v)) {
                const int64_t a = pos[v]++;
                s->col[a] = u;
                s->cap[a] = erev[e];
                s->edge[a] = 2 * e + 1;
            }
        }
        return;
    }
    case RCSR_REVERSE: {
        /* Forward arcs in order, each filed under its head by the head's
         * owner: the serial walk, restricted to this range's heads. */
        int64_t *pos = P->pos;
        gcut_i_rcsr_store *s = P->r;
        memcpy(pos + lo, s->rrow + lo, (size_t)(hi - lo) * sizeof(int64_t));
        for (int32_t u = 0; u < g->n; u++) {
            if (csr_par_poll(P, id, u, (int64_t)g->n - u))
                return;
            for (int64_t a = s->row[u]; a < s->row[u + 1]; a++) {
                const int32_t x = s->col[a];
                if (MINE(x)) {
                    const int64_t r = pos[x]++;
                    s->rcol[r] = u;
                    s->rmap[r] = a;
                }
            }
        }
        return;
    }
    case CSR_PREFIX: {
        /* Entries [lo + 1, hi] of first (and first2) summed within the
         * range; CSR_OFFSET adds what the ranges before hold. */
        int64_t acc = 0, acc2 = 0;
        for (int32_t v = lo; v < hi; v++) {
            acc += P->first[v + 1];
            P->first[v + 1] = acc;
        }
        P->sum[id] = acc;
        if (P->first2) {
            for (int32_t v = lo; v < hi; v++) {
                acc2 += P->first2[v + 1];
                P->first2[v + 1] = acc2;
            }
            P->sum2[id] = acc2;
        }
        return;
    }
    case CSR_OFFSET: {
        /* sum and sum2 now hold each range's offset, which is also where
         * its first node starts (first[lo] is the range before's to
         * write); pos starts at first. */
        for (int32_t v = lo; v < hi; v++)
            P->first[v + 1] += P->sum[id];
        if (P->first2)
            for (int32_t v = lo; v < hi; v++)
                P->first2[v + 1] += P->sum2[id];
        if (hi > lo) {
            P->pos[lo] = P->sum[id];
            memcpy(P->pos + lo + 1, P->first + lo + 1, (size_t)(hi - lo - 1) * sizeof(int64_t));
        }
        return;
    }
    }
#undef MINE
}

/* Run one phase on every thread; the poll's status if it said stop. */
static gcut_status csr_par_run(csr_par *P, gcut_i_pool *pool, csr_phase phase)
{
    P->phase = phase;
    gcut_i_pool_run(pool, csr_par_job, P);
    return atomic_load(&P->stop) ? P->st : GCUT_OK;
}

/* The prefix sums of first (and first2) over all ranges. */
static void csr_par_prefix(csr_par *P, gcut_i_pool *pool)
{
    csr_par_run(P, pool, CSR_PREFIX);
    int64_t off = 0, off2 = 0;
    for (int32_t t = 0; t < P->nthreads; t++) {
        const int64_t k = P->sum[t];
        P->sum[t] = off;
        off += k;
        if (P->first2) {
            const int64_t k2 = P->sum2[t];
            P->sum2[t] = off2;
            off2 += k2;
        }
    }
    csr_par_run(P, pool, CSR_OFFSET);
}

/* Threads for a layout of g: 1 (serial) unless it is large. */
static int32_t csr_threads(const gcut_graph *g, int32_t threads)
{
    if (threads <= 0) {
        threads = gcut_i_num_cpus();
        if (threads > CSR_PAR_MAX_THREADS)
            threads = CSR_PAR_MAX_THREADS;
    }
    if (g->m < CSR_PAR_MIN_EDGES || gcut_i_budget() != 0)
        return 1; /* under a budget: no room for the parallel build's map */
    return threads;
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

static gcut_status bcsr_build_serial(const gcut_graph *g, gcut_i_bcsr_store **out)
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

static gcut_status rcsr_build_serial(const gcut_graph *g, gcut_i_rcsr_store **out)
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

/* ------------------------------------------------- the parallel builders */

/* The pool and the per-thread sums of a parallel build; 0 or -1 (memory). */
static int csr_par_init(csr_par *P, gcut_i_pool *pool, const gcut_graph *g, int32_t threads)
{
    memset(P, 0, sizeof *P);
    P->g = g;
    atomic_init(&P->stop, 0);
    if (gcut_i_pool_init(pool, threads, 1000) != 0)
        return -1;
    P->nthreads = gcut_i_pool_start(pool);
    P->sum = gcut_i_calloc((size_t)P->nthreads, sizeof(int64_t));
    P->sum2 = gcut_i_calloc((size_t)P->nthreads, sizeof(int64_t));
    if (!P->sum || !P->sum2) {
        gcut_i_free(P->sum);
        gcut_i_free(P->sum2);
        gcut_i_pool_destroy(pool);
        return -1;
    }
    return 0;
}

static void csr_par_fini(csr_par *P, gcut_i_pool *pool)
{
    gcut_i_pool_destroy(pool);
    gcut_i_free(P->sum);
    gcut_i_free(P->sum2);
    gcut_i_free(P->pos);
    gcut_i_free(P->where);
}

static gcut_status bcsr_build_parallel(const gcut_graph *g, int32_t threads,
                                       gcut_i_bcsr_store **out)
{
    const int32_t n = g->n;
    csr_par P;
    gcut_i_pool pool;
    if (csr_par_init(&P, &pool, g, threads) != 0)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the BCSR layout's threads");
    gcut_i_bcsr_store *s = gcut_i_calloc(1, sizeof *s);
    gcut_status st = GCUT_OK;
    if (!s || !(s->first = gcut_i_calloc((size_t)n + 1, sizeof(int64_t)))) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the BCSR layout");
        goto fail;
    }
    P.first = s->first;
    P.b = s;
    if ((st = csr_par_run(&P, &pool, BCSR_COUNT)) != GCUT_OK)
        goto fail;
    int64_t m = 0;
    for (int32_t t = 0; t < P.nthreads; t++)
        m += P.sum[t];
    m *= 2;
    s->head = gcut_i_malloc_array(m, sizeof(int32_t));
    s->sister = gcut_i_malloc_array(m, sizeof(int64_t));
    s->cap = gcut_i_malloc_array(m, sizeof(int32_t));
    s->edge = gcut_i_malloc_array(m, sizeof(int64_t));
    P.pos = gcut_i_malloc_array((int64_t)n + 1, sizeof(int64_t));
    P.where = gcut_i_malloc_array(2 * g->m, sizeof(int64_t));
    if (!s->head || !s->sister || !s->cap || !s->edge || !P.pos || !P.where) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the BCSR layout (%lld arcs)", (long long)m);
        goto fail;
    }
    csr_par_prefix(&P, &pool);
    s->view = (gcut_bcsr){n, m, s->first, s->head, s->sister, s->cap, s->edge};
    if ((st = csr_par_run(&P, &pool, BCSR_PLACE)) != GCUT_OK ||
        (st = csr_par_run(&P, &pool, BCSR_SISTER)) != GCUT_OK)
        goto fail;
    csr_par_fini(&P, &pool);
    *out = s;
    return GCUT_OK;
fail:
    csr_par_fini(&P, &pool);
    gcut_i_bcsr_free(s);
    return st;
}

static gcut_status rcsr_build_parallel(const gcut_graph *g, int32_t threads,
                                       gcut_i_rcsr_store **out)
{
    const int32_t n = g->n;
    csr_par P;
    gcut_i_pool pool;
    if (csr_par_init(&P, &pool, g, threads) != 0)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the RCSR layout's threads");
    gcut_i_rcsr_store *s = gcut_i_calloc(1, sizeof *s);
    gcut_status st = GCUT_OK;
    if (!s || !(s->row = gcut_i_calloc((size_t)n + 1, sizeof(int64_t))) ||
        !(s->rrow = gcut_i_calloc((size_t)n + 1, sizeof(int64_t)))) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the RCSR layout");
        goto fail;
    }
    P.first = s->row;
    P.first2 = s->rrow;
    P.r = s;
    if ((st = csr_par_run(&P, &pool, RCSR_COUNT)) != GCUT_OK)
        goto fail;
    int64_t m = 0;
    for (int32_t t = 0; t < P.nthreads; t++)
        m += P.sum[t];
    s->col = gcut_i_malloc_array(m, sizeof(int32_t));
    s->cap = gcut_i_malloc_array(m, sizeof(int32_t));
    s->rcol = gcut_i_malloc_array(m, sizeof(int32_t));
    s->rmap = gcut_i_malloc_array(m, sizeof(int64_t));
    s->edge = gcut_i_malloc_array(m, sizeof(int64_t));
    P.pos = gcut_i_malloc_array((int64_t)n + 1, sizeof(int64_t));
    if (!s->col || !s->cap || !s->rcol || !s->rmap || !s->edge || !P.pos) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the RCSR layout (%lld arcs)", (long long)m);
        goto fail;
    }
    csr_par_prefix(&P, &pool);
    if ((st = csr_par_run(&P, &pool, RCSR_PLACE)) != GCUT_OK ||
        (st = csr_par_run(&P, &pool, RCSR_REVERSE)) != GCUT_OK)
        goto fail;
    s->view = (gcut_rcsr){n, m, s->row, s->col, s->cap, s->rrow, s->rcol, s->rmap, s->edge};
    csr_par_fini(&P, &pool);
    *out = s;
    return GCUT_OK;
fail:
    csr_par_fini(&P, &pool);
    gcut_i_rcsr_free(s);
    return st;
}

gcut_status gcut_i_bcsr_build(const gcut_graph *g, int32_t threads, gcut_i_bcsr_store **out)
{
    threads = csr_threads(g, threads);
    return threads > 1 ? bcsr_build_parallel(g, threads, out) : bcsr_build_serial(g, out);
}

gcut_status gcut_i_rcsr_build(const gcut_graph *g, int32_t threads, gcut_i_rcsr_store **out)
{
    threads = csr_threads(g, threads);
    return threads > 1 ? rcsr_build_parallel(g, threads, out) : rcsr_build_serial(g, out);
}

gcut_status gcut_i_csr_layouts(const gcut_graph *g, int32_t threads, gcut_bcsr *b, gcut_rcsr *r,
                               void **stores)
{
    gcut_i_bcsr_store *bs = NULL;
    gcut_i_rcsr_store *rs = NULL;
    gcut_status st = threads > 1 ? bcsr_build_parallel(g, threads, &bs) : bcsr_build_serial(g, &bs);
    if (st == GCUT_OK)
        st = threads > 1 ? rcsr_build_parallel(g, threads, &rs) : rcsr_build_serial(g, &rs);
    if (st != GCUT_OK) {
        gcut_i_bcsr_free(bs);
        return st;
    }
    *b = bs->view;
    *r = rs->view;
    stores[0] = bs;
    stores[1] = rs;
    return GCUT_OK;
}

void gcut_i_csr_layouts_free(void **stores)
{
    gcut_i_bcsr_free(stores[0]);
    gcut_i_rcsr_free(stores[1]);
}
