/*
 * match_pr.c - cpu-match-pr: push-relabel maximum bipartite matching (FIFO
 * order, double push, periodic global relabelling).
 *
 * K. Kaya, J. Langguth, F. Manne and B. Uçar, "Push-relabel based algorithms
 * for the maximum transversal problem", Computers & Operations Research
 * 40(5), 2013 (the sequential algorithm that G-PR, Deveci, Kaya, Uçar &
 * Çatalyürek, ICPP 2013, parallelises); B. V. Cherkassky, A. V. Goldberg,
 * P. Martin, J. C. Setubal and J. Stolfi, "Augment or push: a computational
 * study of bipartite matching and unit-capacity flow algorithms", ACM JEA 3,
 * 1998 (the double push); A. V. Goldberg and R. E. Tarjan, J. ACM 35, 1988.
 *
 * The flow network is s -> rows -> columns -> t, all capacities 1. Only the
 * columns keep a label psi: a row's label is implicitly one more than the
 * smallest label among its columns. An active vertex is a free row. The
 * double push processes an active row u in one step:
 *
 *   v  = the column of u with the smallest psi, psi2 = the second smallest
 *        (over the other columns of u; "infinite" when there is none);
 *   u takes v; if v had a mate w, w becomes free (active);
 *   psi(v) = psi2 + 2 (relabel: v's only residual arc now leads back to u,
 *        whose own label is at most psi2 + 1).
 *
 * Invariants (they make psi a lower bound on the alternating distance to a
 * free column, which is what the termination test needs):
 *  - psi(c) = 0 for every free column; a matched column never becomes free
 *    again (push-relabel never unmatches a column, it only changes its mate);
 *  - for a matched column v with mate u: psi(v) <= psi(c) + 2 for every other
 *    column c of u;
 *  - psi never decreases, and psi >= INF (= rows + cols + 1, more than any
 *    alternating distance) means "cannot reach a free column".
 * A free row whose smallest column label is >= INF therefore has no
 * augmenting path and is dropped for good (a row, once unreachable, stays
 * so: labels only grow). When the queue is empty, every free row has been
 * dropped, so there is no augmenting path: the matching is maximum.
 *
 * Global relabel: a BFS from the free columns backwards along alternating
 * paths (column <- row by any edge, row <- column by the matching edge)
 * sets psi to the exact distance (INF where unreachable). It runs at the
 * start and whenever the arcs scanned since the last one exceed
 * k * (m + n); Kaya et al. count relabels, we count scanning work, which
 * bounds the BFS cost to a 1/k share of the work on every input.
 */
#include "match/match_internal.h"

/* How often the call is polled (gcut_i_poll; rows processed). */
#define PR_CHECK_EVERY 4096

typedef struct pr_state {
    int32_t *psi;   /* nc: column labels */
    int32_t *queue; /* nr + 1: FIFO of free rows, circular */
    int32_t *bfs;   /* nc: BFS queue of columns */
    uint8_t *inq;   /* nr: row is in the queue */
    int32_t inf;
} pr_state;

/* Exact labels by BFS from the free columns; returns the arcs scanned. */
static int64_t pr_global_relabel(const gcut_bipartite *b, const int32_t *rmate,
                                 const int32_t *cmate, pr_state *s)
{
    int32_t head = 0, tail = 0;
    for (int32_t c = 0; c < b->nc; c++) {
        if (cmate[c] < 0) {
            s->psi[c] = 0;
            s->bfs[tail++] = c;
        } else {
            s->psi[c] = s->inf;
        }
    }
    int64_t scanned = 0;
    while (head < tail) {
        const int32_t c = s->bfs[head++];
        const int32_t d = s->psi[c] + 2;
        scanned += b->cptr[c + 1] - b->cptr[c];
        for (int64_t k = b->cptr[c]; k < b->cptr[c + 1]; k++) {
            /* Row r could reach c through the edge r - c; r's mate column
             * reaches r through the matching edge (free rows end here). */
            const int32_t mc = rmate[b->cadj[k]];
            if (mc >= 0 && s->psi[mc] == s->inf && d < s->inf) {
                s->psi[mc] = d;
                s->bfs[tail++] = mc;
            }
        }
    }
    return scanned;
}

gcut_status gcut_i_match_pr(const gcut_i_match_ctx *ctx)
{
    const gcut_bipartite *b = ctx->b;
    const int32_t nr = b->nr, nc = b->nc;
    int32_t *rmate = ctx->rmate, *cmate = ctx->cmate;
    gcut_match_stats *stats = ctx->stats;
    pr_state s = {0};
    gcut_status st = GCUT_OK;
    s.psi = gcut_i_malloc_array(nc > 0 ? nc : 1, sizeof *s.psi);
    s.bfs = gcut_i_malloc_array(nc > 0 ? nc : 1, sizeof *s.bfs);
    s.queue = gcut_i_malloc_array((int64_t)nr + 1, sizeof *s.queue);
    s.inq = gcut_i_calloc((size_t)nr + 1, 1);
    if (!s.psi || !s.bfs || !s.queue || !s.inq) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory for push-relabel (%d x %d)", (int)nr,
                       (int)nc);
        goto done;
    }
    s.inf = (int32_t)((int64_t)nr + nc + 1 < INT32_MAX - 4 ? nr + nc + 1 : INT32_MAX - 4);

    const double k = ctx->relabel_freq > 0 ? ctx->relabel_freq : 0.5;
    const double relabel_work = k * ((double)b->m + nr + nc) + 1;

    /* The queue holds each free row at most once (inq), so nr + 1 slots
     * never overflow; head == tail means empty. */
    const int64_t qsize = (int64_t)nr + 1;
    int64_t head = 0, tail = 0;
    for (int32_t r = 0; r < nr; r++)
        if (rmate[r] < 0 && b->rptr[r + 1] > b->rptr[r]) {
            s.queue[tail++] = r;
            s.inq[r] = 1;
        }
    if (head == tail)
        goto done; /* already maximal with respect to every free row */

    pr_global_relabel(b, rmate, cmate, &s);
    stats->global_relabels++;
    double work = 0;
    int64_t steps = 0;

    while (head != tail) {
        const int32_t u = s.queue[head];
        head = head + 1 == qsize ? 0 : head + 1;
        s.inq[u] = 0;
        if (++steps % PR_CHECK_EVERY == 0 &&
            (st = gcut_i_poll("solve", tail >= head ? tail - head : tail + qsize - head,
                              "free rows")) != GCUT_OK)
            goto done;
        if (work >= relabel_work) {
            pr_global_relabel(b, rmate, cmate, &s);
            work = 0;
            stats->global_relabels++;
        }

        /* The two smallest labels among u's columns; a free column (label
         * 0, and the end of an augmenting path) cannot be beaten, so the
         * scan stops there. */
        int32_t v = -1, best = s.inf, second = s.inf;
        const int64_t lo = b->rptr[u], hi = b->rptr[u + 1];
        int64_t kk;
        for (kk = lo; kk < hi; kk++) {
            const int32_t c = b->radj[kk];
            const int32_t p = s.psi[c];
            if (cmate[c] < 0) {
                v = c;
                best = 0;
                break;
            }
            if (p < best) {
                second = best;
                best = p;
                v = c;
            } else if (p < second) {
                second = p;
            }
        }
        work += (double)(kk - lo + 1);
        if (best >= s.inf)
            continue; /* no augmenting path from u, now or later: drop it */

        const int32_t w = cmate[v];
        rmate[u] = v;
        cmate[v] = u;
        stats->pushes++;
        if (w >= 0) {
            /* The double push moved v from w to u: w is free and active. */
            rmate[w] = -1;
            s.queue[tail] = w;
            tail = tail + 1 == qsize ? 0 : tail + 1;
            s.inq[w] = 1;
        }
        /* Relabel v. When the scan stopped early at a free column, `second`
         * covers only the columns before it and could overestimate, so v
         * keeps its label (0, still a lower bound); the next row that takes
         * v from u scans all its columns and lifts it. */
        if (kk < hi)
            continue;
        const int32_t np = second >= s.inf - 2 ? s.inf : second + 2;
        if (np > s.psi[v]) {
            s.psi[v] = np;
            stats->relabels++;
        }
    }
    gcut_i_log(ctx->log, GCUT_LOG_DEBUG,
               "cpu-match-pr: %lld pushes, %lld relabels, %lld global relabels",
               (long long)stats->pushes, (long long)stats->relabels,
               (long long)stats->global_relabels);
done:
    gcut_i_free(s.psi);
    gcut_i_free(s.bfs);
    gcut_i_free(s.queue);
    gcut_i_free(s.inq);
    return st;
}
