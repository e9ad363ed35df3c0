/*
 * rlg.c - the Washington "random level graph" (RLG) family.
 *
 * From the "washington" max-flow generator (University of Washington) of
 * the first DIMACS challenge (Johnson & McGeoch eds., "Network Flows and
 * Matching", 1993), as used in B. V. Cherkassky & A. V. Goldberg, "On implementing the
 * push-relabel method for the maximum flow problem", Algorithmica 19 (1997)
 * 390-410, where it is one of the standard hard families.
 *
 * The nodes form r rows (levels) of c nodes. Every node of row i < r-1 has
 * deg = 3 arcs to distinct random nodes of row i+1 with capacities uniform
 * in [1, maxcap] (maxcap = 10000); the source has an arc of capacity tcap
 * (30000) to every node of row 0 and every node of row r-1 has one to the
 * sink. Long instances have r:c = 1:2, wide ones 1:1.
 *
 * In gcut's model the source and sink arcs are terminal capacities, so the
 * graph has r*c nodes and (r-1)*c*deg edges; a DIMACS file of the same
 * instance has two more nodes (s and t) and 2c more arcs. Node (row y,
 * column x) is y*c + x.
 */
#include <stdlib.h>

#include "gen.h"

gcut_status gen_build_rlg(const gen_spec *spec, gcut_graph **out, char err[GEN_ERR_LEN])
{
    int64_t r, c, deg, maxcap, tcap;
    if (gen_spec_int(spec, "r", 1, INT32_MAX, &r, err) ||
        gen_spec_int(spec, "c", 1, INT32_MAX, &c, err) ||
        gen_spec_int(spec, "deg", 0, 64, &deg, err) ||
        gen_spec_int(spec, "maxcap", 1, INT32_MAX, &maxcap, err) ||
        gen_spec_int(spec, "tcap", 0, INT32_MAX, &tcap, err))
        return GCUT_ERR_INVALID;
    if (r * c > INT32_MAX)
        return gen_fail(GCUT_ERR_OVERFLOW, err, "rlg: r*c = %lld nodes is too many",
                        (long long)(r * c));
    if (deg > c)
        deg = c; /* distinct heads: a row has only c of them */
    const int32_t n = (int32_t)(r * c), ci = (int32_t)c, d = (int32_t)deg;
    const int64_t edges = (r - 1) * c * deg;

    gen_rng rng;
    gen_rng_seed(&rng, spec->seed, 0);
    gcut_graph *g = NULL;
    gcut_status st = gcut_graph_new(&g, n, edges);
    if (st != GCUT_OK)
        return gen_fail_gcut(st, "rlg", err);
    int32_t *term = malloc((size_t)c * sizeof *term);
    gen_edges *eb = gen_edges_new(g);
    if (!term || !eb) {
        free(term);
        gen_edges_finish(eb);
        gcut_graph_free(g);
        return gen_fail(GCUT_ERR_NOMEM, err, "rlg: out of memory");
    }
    int32_t heads[64];
    for (int32_t y = 0; y + 1 < (int32_t)r; y++) {
        const int32_t next = (y + 1) * ci;
        for (int32_t x = 0; x < ci; x++) {
            /* deg distinct heads by rejection: deg <= 64 and usually 3, so
             * the duplicate scan is cheaper than any set structure. When
             * deg is close to c, rejection could spin, but deg <= c and
             * each draw succeeds with probability >= 1/c. */
            for (int32_t k = 0; k < d; k++) {
                int32_t h, dup;
                do {
                    h = (int32_t)gen_rng_below(&rng, (uint32_t)ci);
                    dup = 0;
                    for (int32_t q = 0; q < k; q++)
                        dup |= heads[q] == h;
                } while (dup);
                heads[k] = h;
                gen_edges_push(eb, y * ci + x, next + h, gen_rng_range(&rng, 1, (int32_t)maxcap),
                               0);
            }
        }
    }
    st = gen_edges_finish(eb);
    for (int32_t x = 0; x < ci; x++)
        term[x] = (int32_t)tcap;
    if (st == GCUT_OK)
        st = gcut_graph_add_tweights_bulk(g, 0, ci, term, NULL);
    if (st == GCUT_OK)
        st = gcut_graph_add_tweights_bulk(g, n - ci, ci, NULL, term);
    free(term);
    if (st != GCUT_OK) {
        gcut_graph_free(g);
        return gen_fail_gcut(st, "rlg", err);
    }
    *out = g;
    return GCUT_OK;
}
