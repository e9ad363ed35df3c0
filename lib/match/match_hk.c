/*
 * match_hk.c - cpu-match-hk: Hopcroft-Karp maximum bipartite matching, the
 * reference matcher.
 *
 * J. E. Hopcroft and R. M. Karp, "An n^(5/2) algorithm for maximum matchings
 * in bipartite graphs", SIAM J. Comput. 2(4), 1973.
 *
 * Each phase runs a BFS from all free rows along alternating paths (row to
 * column by any edge, column to row by its matching edge) and stops at the
 * layer where a free column is first seen: that is the length of the
 * shortest augmenting paths. A DFS from each free row then finds a maximal
 * set of vertex-disjoint shortest augmenting paths in the layered graph and
 * flips them. O(sqrt(n)) phases of O(m) each.
 *
 * Invariants:
 *  - dist[r] is the BFS layer of row r in this phase, or HK_INF when r is
 *    not in the layered graph or has been used up (on an augmenting path or
 *    a dead end) in this phase; that is what keeps paths vertex-disjoint
 *    and makes every row's DFS scan O(deg) per phase;
 *  - it[r] is the next arc of row r to try; arcs before it are exhausted;
 *  - the DFS is iterative (the paths can be n long): stack[0..top] are the
 *    rows of the current path, and the column taken out of stack[i] is
 *    radj[it[stack[i]]].
 */
#include "match/match_internal.h"

#define HK_INF INT32_MAX

typedef struct hk_state {
    int32_t *dist, *queue, *stack;
    int64_t *it;
} hk_state;

/* BFS layers from the free rows; returns the layer of the rows from which
 * a free column is adjacent (the last layer of shortest paths), or HK_INF
 * when there is no augmenting path. */
static int32_t hk_bfs(const gcut_bipartite *b, const int32_t *rmate, const int32_t *cmate,
                      hk_state *s)
{
    int32_t head = 0, tail = 0, limit = HK_INF;
    for (int32_t r = 0; r < b->nr; r++) {
        if (rmate[r] < 0) {
            s->dist[r] = 0;
            s->queue[tail++] = r;
        } else {
            s->dist[r] = HK_INF;
        }
    }
    while (head < tail) {
        const int32_t r = s->queue[head++];
        if (s->dist[r] >= limit)
            break; /* rows are dequeued in layer order: the rest are deeper */
        for (int64_t k = b->rptr[r]; k < b->rptr[r + 1]; k++) {
            const int32_t w = cmate[b->radj[k]];
            if (w < 0) {
                limit = s->dist[r];
            } else if (s->dist[w] == HK_INF) {
                s->dist[w] = s->dist[r] + 1;
                s->queue[tail++] = w;
            }
        }
    }
    return limit;
}

/* Look for one shortest augmenting path from the free row `root` and flip
 * it; returns 1 if one was found. */
static int hk_dfs(const gcut_bipartite *b, int32_t *rmate, int32_t *cmate, hk_state *s,
                  int32_t root, int32_t limit)
{
    int32_t top = 0;
    s->stack[0] = root;
    while (top >= 0) {
        const int32_t r = s->stack[top];
        int descended = 0;
        for (; s->it[r] < b->rptr[r + 1]; s->it[r]++) {
            const int32_t c = b->radj[s->it[r]];
            const int32_t w = cmate[c];
            if (w < 0) {
                if (s->dist[r] != limit)
                    continue; /* a free column off the shortest layer */
                /* Flip the path: each row on the stack takes the column it
                 * was exploring; the displaced mates are the next rows. */
                for (int32_t i = top; i >= 0; i--) {
                    const int32_t x = s->stack[i];
                    const int32_t cx = b->radj[s->it[x]];
                    rmate[x] = cx;
                    cmate[cx] = x;
                    s->dist[x] = HK_INF;
                }
                return 1;
            }
            if (s->dist[w] == s->dist[r] + 1 && s->dist[w] <= limit) {
                s->stack[++top] = w;
                descended = 1;
                break;
            }
        }
        if (!descended) {
            /* Dead end: r can never again lead to a shortest path this phase. */
            s->dist[r] = HK_INF;
            top--;
            if (top >= 0)
                s->it[s->stack[top]]++;
        }
    }
    return 0;
}

gcut_status gcut_i_match_hk(const gcut_i_match_ctx *ctx)
{
    const gcut_bipartite *b = ctx->b;
    const int32_t nr = b->nr;
    hk_state s;
    s.dist = gcut_i_malloc_array(nr > 0 ? nr : 1, sizeof *s.dist);
    s.queue = gcut_i_malloc_array(nr > 0 ? nr : 1, sizeof *s.queue);
    s.stack = gcut_i_malloc_array(nr > 0 ? nr : 1, sizeof *s.stack);
    s.it = gcut_i_malloc_array(nr > 0 ? nr : 1, sizeof *s.it);
    gcut_status st = GCUT_OK;
    if (!s.dist || !s.queue || !s.stack || !s.it) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory for Hopcroft-Karp (%d rows)", (int)nr);
        goto done;
    }
    for (;;) {
        if ((st = gcut_i_poll("solve", -1, NULL)) != GCUT_OK)
            goto done;
        const int32_t limit = hk_bfs(b, ctx->rmate, ctx->cmate, &s);
        if (limit == HK_INF)
            break;
        ctx->stats->phases++;
        for (int32_t r = 0; r < nr; r++)
            s.it[r] = b->rptr[r];
        /* Only rows that were free at the BFS are roots (dist 0); a root
         * used as an inner row is impossible, inner rows are matched. */
        for (int32_t r = 0; r < nr; r++)
            if (ctx->rmate[r] < 0 && s.dist[r] == 0)
                ctx->stats->augmentations += hk_dfs(b, ctx->rmate, ctx->cmate, &s, r, limit);
        gcut_i_log(ctx->log, GCUT_LOG_DEBUG, "cpu-match-hk: phase %lld, path length %d, %lld paths",
                   (long long)ctx->stats->phases, 2 * (int)limit + 1,
                   (long long)ctx->stats->augmentations);
    }
done:
    gcut_i_free(s.dist);
    gcut_i_free(s.queue);
    gcut_i_free(s.stack);
    gcut_i_free(s.it);
    return st;
}
