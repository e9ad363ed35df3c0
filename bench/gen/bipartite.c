/*
 * bipartite.c - random bipartite graphs for matching benchmarks.
 *
 * Left nodes 0 .. l-1, right nodes l .. l+r-1. Each left node has d arcs of
 * capacity 1 to distinct right nodes chosen uniformly at random; every left
 * node has source capacity 1 and every right node sink capacity 1, so the
 * maximum flow is the size of a maximum matching (Hopcroft & Karp, "An
 * n^(5/2) algorithm for maximum matchings in bipartite graphs", SIAM J.
 * Comput. 2 (1973); the flow formulation is the textbook one).
 */
#include <stdlib.h>

#include "gen.h"

gcut_status gen_build_bipartite(const gen_spec *spec, gcut_graph **out, char err[GEN_ERR_LEN])
{
    int64_t l, r, d;
    if (gen_spec_int(spec, "l", 1, INT32_MAX, &l, err) ||
        gen_spec_int(spec, "r", 1, INT32_MAX, &r, err) ||
        gen_spec_int(spec, "d", 0, INT32_MAX, &d, err))
        return GCUT_ERR_INVALID;
    if (l + r > INT32_MAX)
        return gen_fail(GCUT_ERR_OVERFLOW, err, "bipartite: l+r = %lld nodes is too many",
                        (long long)(l + r));
    if (d > r)
        d = r;
    const int32_t li = (int32_t)l, ri = (int32_t)r, di = (int32_t)d;

    gen_rng rng;
    gen_rng_seed(&rng, spec->seed, 0);
    gcut_graph *g = NULL;
    gcut_status st = gcut_graph_new(&g, li + ri, l * d);
    if (st != GCUT_OK)
        return gen_fail_gcut(st, "bipartite", err);
    /* Distinct neighbours: rejection against the ones already drawn when d
     * is small (the O(d) scan per draw is then cheapest); otherwise a
     * partial Fisher-Yates over all right nodes. pool holds a permutation of
     * 0..r-1 that each partial shuffle leaves valid. */
    const int use_pool = di > 16;
    int32_t *pick = malloc((size_t)(di > 0 ? di : 1) * sizeof *pick);
    int32_t *pool = use_pool ? malloc((size_t)ri * sizeof *pool) : NULL;
    int32_t *ones = malloc((size_t)(li > ri ? li : ri) * sizeof *ones);
    gen_edges *eb = gen_edges_new(g);
    if (!pick || (use_pool && !pool) || !ones || !eb) {
        free(pick);
        free(pool);
        free(ones);
        gen_edges_finish(eb);
        gcut_graph_free(g);
        return gen_fail(GCUT_ERR_NOMEM, err, "bipartite: out of memory");
    }
    if (use_pool)
        for (int32_t j = 0; j < ri; j++)
            pool[j] = j;
    for (int32_t u = 0; u < li; u++) {
        for (int32_t k = 0; k < di; k++) {
            int32_t h;
            if (use_pool) {
                int32_t j = k + (int32_t)gen_rng_below(&rng, (uint32_t)(ri - k));
                h = pool[j];
                pool[j] = pool[k];
                pool[k] = h;
            } else {
                int dup;
                do {
                    h = (int32_t)gen_rng_below(&rng, (uint32_t)ri);
                    dup = 0;
                    for (int32_t q = 0; q < k; q++)
                        dup |= pick[q] == h;
                } while (dup);
                pick[k] = h;
            }
            gen_edges_push(eb, u, li + h, 1, 0);
        }
    }
    st = gen_edges_finish(eb);
    for (int32_t i = 0; i < (li > ri ? li : ri); i++)
        ones[i] = 1;
    if (st == GCUT_OK)
        st = gcut_graph_add_tweights_bulk(g, 0, li, ones, NULL);
    if (st == GCUT_OK)
        st = gcut_graph_add_tweights_bulk(g, li, ri, NULL, ones);
    free(pick);
    free(pool);
    free(ones);
    if (st != GCUT_OK) {
        gcut_graph_free(g);
        return gen_fail_gcut(st, "bipartite", err);
    }
    *out = g;
    return GCUT_OK;
}
