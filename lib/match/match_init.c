/*
 * match_init.c - cheap initial matchings for the bipartite matchers.
 *
 * Greedy: each free row takes its first free column (a maximal matching,
 * at least half the maximum).
 *
 * Karp-Sipser: R. M. Karp and M. Sipser, "Maximum matchings in sparse
 * random graphs", FOCS 1981; the bipartite form evaluated by Langguth,
 * Manne & Sanders ("Heuristic initialization for bipartite matching
 * problems", ACM JEA 2010) and used before push-relabel by Kaya, Langguth,
 * Manne & Uçar (2013). A free vertex with exactly one free neighbour can be
 * matched to it without losing optimality (some maximum matching contains
 * that edge), so such vertices go first; only when none is left does the
 * heuristic make a free (greedy) choice, which may be suboptimal.
 *
 * Invariants of Karp-Sipser:
 *  - deg[x] is the number of free neighbours of x for every free vertex x
 *    (rows are 0..nr-1, columns nr..nr+nc-1 in deg and in the queue);
 *  - the queue may hold stale entries (vertices matched or whose degree
 *    changed since they were pushed); they are re-tested when popped;
 *  - each vertex's adjacency is scanned O(1) times when it gets matched,
 *    so the whole heuristic is O(n + m).
 */
#include "match/match_internal.h"

int64_t gcut_i_match_greedy(const gcut_bipartite *b, int32_t *rmate, int32_t *cmate)
{
    int64_t card = 0;
    for (int32_t r = 0; r < b->nr; r++) {
        if (rmate[r] >= 0) {
            card++;
            continue;
        }
        for (int64_t k = b->rptr[r]; k < b->rptr[r + 1]; k++) {
            const int32_t c = b->radj[k];
            if (cmate[c] < 0) {
                rmate[r] = c;
                cmate[c] = r;
                card++;
                break;
            }
        }
    }
    return card;
}

/* Match row r with column c and lower the free degree of their neighbours;
 * a neighbour left with one free neighbour joins the queue. */
static void ks_match(const gcut_bipartite *b, int32_t r, int32_t c, int32_t *rmate,
                     int32_t *cmate, int32_t *deg, int32_t *queue, int64_t *qtail)
{
    const int32_t nr = b->nr;
    rmate[r] = c;
    cmate[c] = r;
    for (int64_t k = b->rptr[r]; k < b->rptr[r + 1]; k++) {
        const int32_t x = b->radj[k];
        if (cmate[x] < 0 && --deg[nr + x] == 1)
            queue[(*qtail)++] = nr + x;
    }
    for (int64_t k = b->cptr[c]; k < b->cptr[c + 1]; k++) {
        const int32_t x = b->cadj[k];
        if (rmate[x] < 0 && --deg[x] == 1)
            queue[(*qtail)++] = x;
    }
}

int64_t gcut_i_match_karp_sipser(const gcut_bipartite *b, int32_t *rmate, int32_t *cmate)
{
    const int32_t nr = b->nr, nc = b->nc;
    const int64_t n = (int64_t)nr + nc;
    int32_t *deg = gcut_i_malloc_array(n > 0 ? n : 1, sizeof *deg);
    /* Degrees only fall, so a vertex reaches degree 1 at most once: it is
     * pushed either at the start or by one decrement, and n bounds the queue. */
    int32_t *queue = gcut_i_malloc_array(n + 1, sizeof *queue);
    if (!deg || !queue) {
        gcut_i_free(deg);
        gcut_i_free(queue);
        return -1;
    }
    int64_t qhead = 0, qtail = 0;
    for (int32_t r = 0; r < nr; r++) {
        int32_t d = 0;
        if (rmate[r] < 0)
            for (int64_t k = b->rptr[r]; k < b->rptr[r + 1]; k++)
                d += cmate[b->radj[k]] < 0;
        deg[r] = d;
        if (d == 1)
            queue[qtail++] = r;
    }
    for (int32_t c = 0; c < nc; c++) {
        int32_t d = 0;
        if (cmate[c] < 0)
            for (int64_t k = b->cptr[c]; k < b->cptr[c + 1]; k++)
                d += rmate[b->cadj[k]] < 0;
        deg[nr + c] = d;
        if (d == 1)
            queue[qtail++] = nr + c;
    }

    /* Rows are the fallback order for the free choices. */
    int32_t next_row = 0;
    for (;;) {
        while (qhead < qtail) {
            const int32_t x = queue[qhead++];
            if (deg[x] != 1)
                continue; /* stale: matched meanwhile (degree kept) or now isolated */
            if (x < nr) {
                if (rmate[x] >= 0)
                    continue;
                for (int64_t k = b->rptr[x]; k < b->rptr[x + 1]; k++)
                    if (cmate[b->radj[k]] < 0) {
                        ks_match(b, x, b->radj[k], rmate, cmate, deg, queue, &qtail);
                        break;
                    }
            } else {
                const int32_t c = x - nr;
                if (cmate[c] >= 0)
                    continue;
                for (int64_t k = b->cptr[c]; k < b->cptr[c + 1]; k++)
                    if (rmate[b->cadj[k]] < 0) {
                        ks_match(b, b->cadj[k], c, rmate, cmate, deg, queue, &qtail);
                        break;
                    }
            }
        }
        /* No degree-1 vertex left: one free choice, then back to the rule. */
        while (next_row < nr && (rmate[next_row] >= 0 || deg[next_row] == 0))
            next_row++;
        if (next_row == nr)
            break;
        for (int64_t k = b->rptr[next_row]; k < b->rptr[next_row + 1]; k++)
            if (cmate[b->radj[k]] < 0) {
                ks_match(b, next_row, b->radj[k], rmate, cmate, deg, queue, &qtail);
                break;
            }
    }
    int64_t card = 0;
    for (int32_t r = 0; r < nr; r++)
        card += rmate[r] >= 0;
    gcut_i_free(deg);
    gcut_i_free(queue);
    return card;
}
