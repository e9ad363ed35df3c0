/*
 * check_match.c - gcut_match_check: a matching is valid, and maximum by a
 * König certificate.
 *
 * König's theorem (D. Kőnig, 1931): in a bipartite graph the largest
 * matching and the smallest vertex cover have the same size. A matching M
 * and a vertex cover C with |C| = |M| therefore prove each other optimal
 * (every edge of M needs its own cover vertex, so |M| <= |C| always).
 *
 * The cover is built from M itself: let Z be the vertices reached from the
 * free rows by alternating paths (row to column by a non-matching edge,
 * column to row by its matching edge). C = (rows not in Z) + (columns in Z).
 * C covers every edge: an edge r - c with r in Z has c in Z. When M is
 * maximum no free column is in Z (that would be an augmenting path), every
 * column in Z is matched to a row in Z and every row outside Z is matched
 * (free rows are in Z), so |C| = |M|. We do not rely on the argument: the
 * checker counts C and tests every edge.
 */
#include <string.h>

#include "match/match_internal.h"

int64_t gcut_i_match_cover(const gcut_bipartite *b, const int32_t *rmate, const int32_t *cmate,
                           uint8_t *cover_r, uint8_t *cover_c, int32_t *free_col_reached,
                           int32_t *from_row)
{
    const int32_t nr = b->nr, nc = b->nc;
    int32_t *queue = gcut_i_malloc_array(nr > 0 ? nr : 1, sizeof *queue);
    int32_t *root = gcut_i_malloc_array(nr > 0 ? nr : 1, sizeof *root);
    if (!queue || !root) {
        gcut_i_free(queue);
        gcut_i_free(root);
        return -1;
    }
    /* cover_r doubles as "row not in Z" and cover_c as "column in Z". */
    memset(cover_r, 1, (size_t)nr);
    memset(cover_c, 0, (size_t)nc);
    int32_t head = 0, tail = 0;
    *free_col_reached = -1;
    *from_row = -1;
    for (int32_t r = 0; r < nr; r++)
        if (rmate[r] < 0) {
            cover_r[r] = 0;
            root[r] = r;
            queue[tail++] = r;
        }
    while (head < tail) {
        const int32_t r = queue[head++];
        for (int64_t k = b->rptr[r]; k < b->rptr[r + 1]; k++) {
            const int32_t c = b->radj[k];
            if (cover_c[c] || c == rmate[r])
                continue;
            cover_c[c] = 1;
            const int32_t w = cmate[c];
            if (w < 0) {
                if (*free_col_reached < 0) {
                    *free_col_reached = c;
                    *from_row = root[r];
                }
            } else if (cover_r[w]) {
                cover_r[w] = 0;
                root[w] = root[r];
                queue[tail++] = w;
            }
        }
    }
    int64_t size = 0;
    for (int32_t r = 0; r < nr; r++)
        size += cover_r[r];
    for (int32_t c = 0; c < nc; c++)
        size += cover_c[c];
    gcut_i_free(queue);
    gcut_i_free(root);
    return size;
}

gcut_status gcut_match_check(const gcut_bipartite *b, const int32_t *row_mates,
                             const int32_t *col_mates, int64_t cardinality, uint8_t *cover_rows,
                             uint8_t *cover_cols)
{
    GCUT_ENTRY();
    if (!b || !row_mates || !col_mates)
        return GCUT_FAIL(GCUT_ERR_INVALID, "graph or mates are NULL");
    const int32_t nr = b->nr, nc = b->nc;

    /* 1. A matching: mates agree, and every pair is an edge. */
    int64_t pairs = 0;
    for (int32_t r = 0; r < nr; r++) {
        const int32_t c = row_mates[r];
        if (c == -1)
            continue;
        if (c < 0 || c >= nc)
            return GCUT_FAIL(GCUT_ERR_CHECK, "row %d: mate %d out of range [-1, %d)", (int)r,
                             (int)c, (int)nc);
        if (col_mates[c] != r)
            return GCUT_FAIL(GCUT_ERR_CHECK, "row %d has mate column %d, whose mate is %d",
                             (int)r, (int)c, (int)col_mates[c]);
        int64_t k = b->rptr[r];
        while (k < b->rptr[r + 1] && b->radj[k] != c)
            k++;
        if (k == b->rptr[r + 1])
            return GCUT_FAIL(GCUT_ERR_CHECK, "row %d is matched to column %d: not an edge",
                             (int)r, (int)c);
        pairs++;
    }
    for (int32_t c = 0; c < nc; c++) {
        const int32_t r = col_mates[c];
        if (r == -1)
            continue;
        if (r < 0 || r >= nr || row_mates[r] != c)
            return GCUT_FAIL(GCUT_ERR_CHECK, "column %d has mate row %d, which is not matched to it",
                             (int)c, (int)r);
    }
    if (pairs != cardinality)
        return GCUT_FAIL(GCUT_ERR_CHECK, "cardinality %lld, but the mates hold %lld pairs",
                         (long long)cardinality, (long long)pairs);

    /* 2. The König cover: it covers every edge and is as large as the matching. */
    uint8_t *cr = gcut_i_malloc((size_t)nr + 1), *cc = gcut_i_malloc((size_t)nc + 1);
    gcut_status st = GCUT_OK;
    int32_t fc, fr;
    const int64_t size = cr && cc ? gcut_i_match_cover(b, row_mates, col_mates, cr, cc, &fc, &fr) : -1;
    if (size < 0) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory for the cover");
        goto done;
    }
    if (fc >= 0) {
        st = GCUT_FAIL(GCUT_ERR_CHECK, "not maximum: an augmenting path joins free row %d to "
                                       "free column %d", (int)fr, (int)fc);
        goto done;
    }
    for (int32_t r = 0; r < nr; r++)
        for (int64_t k = b->rptr[r]; k < b->rptr[r + 1]; k++)
            if (!cr[r] && !cc[b->radj[k]]) {
                st = GCUT_FAIL(GCUT_ERR_CHECK, "cover misses the edge (%d, %d)", (int)r,
                               (int)b->radj[k]);
                goto done;
            }
    if (size != cardinality) {
        st = GCUT_FAIL(GCUT_ERR_CHECK, "cover has %lld vertices, the matching %lld pairs",
                       (long long)size, (long long)cardinality);
        goto done;
    }
    if (cover_rows)
        memcpy(cover_rows, cr, (size_t)nr);
    if (cover_cols)
        memcpy(cover_cols, cc, (size_t)nc);
done:
    gcut_i_free(cr);
    gcut_i_free(cc);
    return st;
}
