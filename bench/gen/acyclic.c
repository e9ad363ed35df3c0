/*
 * acyclic.c - the acyclic-dense family ("AC" in the DIMACS challenge
 * suites; B. V. Cherkassky & A. V. Goldberg, "On implementing the
 * push-relabel method for the maximum flow problem", Algorithmica 19
 * (1997) 390-410).
 *
 * A complete DAG: n nodes and an arc i -> j for every i < j, capacity
 * uniform in [1, maxcap]. The source is node 0 and the sink node n-1.
 * With n(n-1)/2 arcs it is the densest family: work per node is high and
 * many short augmenting paths exist.
 *
 * In gcut's model s and t stay nodes 0 and n-1; s gets a source capacity
 * equal to the sum of its out-capacities and t a sink capacity equal to the
 * sum of its in-capacities (clipped to INT32_MAX), which can never bind, so
 * the maximum flow is that of the s-t network. The arc 0 -> n-1 and all arcs
 * into 0 / out of n-1 are kept as ordinary edges.
 */
#include "gen.h"

gcut_status gen_build_acyclic(const gen_spec *spec, gcut_graph **out, char err[GEN_ERR_LEN])
{
    int64_t n64, maxcap;
    /* n(n-1)/2 edges of 16 bytes each: 100000 nodes would already be 80 GB. */
    if (gen_spec_int(spec, "n", 1, 100000, &n64, err) ||
        gen_spec_int(spec, "maxcap", 1, INT32_MAX, &maxcap, err))
        return GCUT_ERR_INVALID;
    const int32_t n = (int32_t)n64;
    const int64_t edges = n64 * (n64 - 1) / 2;

    gen_rng rng;
    gen_rng_seed(&rng, spec->seed, 0);
    gcut_graph *g = NULL;
    gcut_status st = gcut_graph_new(&g, n, edges);
    if (st != GCUT_OK)
        return gen_fail_gcut(st, "acyclic", err);
    gen_edges *eb = gen_edges_new(g);
    if (!eb) {
        gcut_graph_free(g);
        return gen_fail(GCUT_ERR_NOMEM, err, "acyclic: out of memory");
    }
    int64_t s_out = 0, t_in = 0;
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i + 1; j < n; j++) {
            const int32_t cap = gen_rng_range(&rng, 1, (int32_t)maxcap);
            gen_edges_push(eb, i, j, cap, 0);
            if (i == 0)
                s_out += cap;
            if (j == n - 1)
                t_in += cap;
        }
    st = gen_edges_finish(eb);
    if (st == GCUT_OK && n > 1)
        st = gcut_graph_add_tweights(g, 0, s_out > INT32_MAX ? INT32_MAX : (int32_t)s_out, 0);
    if (st == GCUT_OK && n > 1)
        st = gcut_graph_add_tweights(g, n - 1, 0, t_in > INT32_MAX ? INT32_MAX : (int32_t)t_in);
    if (st != GCUT_OK) {
        gcut_graph_free(g);
        return gen_fail_gcut(st, "acyclic", err);
    }
    *out = g;
    return GCUT_OK;
}
