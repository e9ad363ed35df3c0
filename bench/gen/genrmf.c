/*
 * genrmf.c - the GENRMF family of the first DIMACS implementation challenge.
 *
 * D. Goldfarb and M. D. Grigoriadis, "A computational comparison of the
 * Dinic and network simplex methods for maximum flow", Annals of Operations
 * Research 13 (1988) 83-123; used as `genrmf` in the DIMACS challenge
 * (Johnson & McGeoch eds., "Network Flows and Matching", 1993).
 *
 * The network is b frames, each an a x a grid. Inside a frame every node is
 * joined to its 4 neighbours by arcs of capacity c2*a*a in both directions
 * (so frames never limit the flow); between frame i and frame i+1 each node
 * of frame i has one arc to a node of frame i+1, chosen by a fresh random
 * permutation per frame pair, with capacity uniform in [c1, c2]. The source
 * is the first node of frame 0 and the sink the last node of frame b-1.
 * Long instances have a:b = 1:8, wide ones 1:1; the classic constants are
 * c1 = 100, c2 = 10000. Push-relabel finds these hard because the flow has
 * to snake through b permutation layers.
 *
 * In gcut's model s and t stay ordinary grid nodes (node 0 and node
 * a*a*b - 1), so the node count and the directed arc count equal those of
 * the DIMACS file; the terminal capacity of s is the sum of its
 * out-capacities and that of t the sum of its in-capacities, which can
 * never be the bottleneck, so the maximum flow is that of the original
 * s-t network. A pair of in-frame arcs is one gcut edge (cap, rev_cap).
 *
 * Node (frame f, row y, column x) is f*a*a + y*a + x, as in the original.
 */
#include <stdlib.h>

#include "gen.h"

gcut_status gen_build_genrmf(const gen_spec *spec, gcut_graph **out, char err[GEN_ERR_LEN])
{
    int64_t a, b, c1, c2;
    if (gen_spec_int(spec, "a", 1, 46340, &a, err) ||
        gen_spec_int(spec, "b", 1, INT32_MAX, &b, err) ||
        gen_spec_int(spec, "c1", 0, INT32_MAX, &c1, err) ||
        gen_spec_int(spec, "c2", 0, INT32_MAX, &c2, err))
        return GCUT_ERR_INVALID;
    if (c1 > c2)
        return gen_fail(GCUT_ERR_INVALID, err, "genrmf: c1=%lld > c2=%lld", (long long)c1,
                        (long long)c2);
    const int64_t frame = a * a;
    if (frame * b > INT32_MAX)
        return gen_fail(GCUT_ERR_OVERFLOW, err, "genrmf: a*a*b = %lld nodes is too many",
                        (long long)(frame * b));
    const int32_t n = (int32_t)(frame * b);
    /* In-frame capacity c2*a*a, clipped to the int32 range of the model
     * (only reached for a > 463 with c2 = 10000). */
    const int64_t cin64 = c2 * frame;
    const int32_t cin = cin64 > INT32_MAX ? INT32_MAX : (int32_t)cin64;
    const int64_t in_frame = 2 * a * (a - 1);  /* undirected adjacencies per frame */
    const int64_t edges = b * in_frame + (b - 1) * frame;

    gen_rng rng;
    gen_rng_seed(&rng, spec->seed, 0);
    gcut_graph *g = NULL;
    gcut_status st = gcut_graph_new(&g, n, edges);
    if (st != GCUT_OK)
        return gen_fail_gcut(st, "genrmf", err);
    int32_t *perm = malloc((size_t)frame * sizeof *perm);
    gen_edges *eb = gen_edges_new(g);
    if (!perm || !eb) {
        free(perm);
        gen_edges_finish(eb);
        gcut_graph_free(g);
        return gen_fail(GCUT_ERR_NOMEM, err, "genrmf: out of memory");
    }
    const int32_t ai = (int32_t)a, fi = (int32_t)frame;
    int64_t s_out = 0, t_in = 0; /* capacities leaving s and entering t */
    for (int32_t f = 0; f < (int32_t)b; f++) {
        const int32_t base = f * fi;
        for (int32_t y = 0; y < ai; y++)
            for (int32_t x = 0; x < ai; x++) {
                const int32_t v = base + y * ai + x;
                if (x + 1 < ai)
                    gen_edges_push(eb, v, v + 1, cin, cin);
                if (y + 1 < ai)
                    gen_edges_push(eb, v, v + ai, cin, cin);
            }
        if (f + 1 == (int32_t)b)
            continue;
        /* Frame f -> frame f+1 through a random permutation. */
        gen_rng_permutation(&rng, perm, fi);
        for (int32_t j = 0; j < fi; j++) {
            const int32_t cap = gen_rng_range(&rng, (int32_t)c1, (int32_t)c2);
            const int32_t head = base + fi + perm[j];
            gen_edges_push(eb, base + j, head, cap, 0);
            if (base + j == 0)
                s_out += cap;
            if (head == n - 1)
                t_in += cap;
        }
    }
    free(perm);
    st = gen_edges_finish(eb);
    if (st != GCUT_OK) {
        gcut_graph_free(g);
        return gen_fail_gcut(st, "genrmf", err);
    }
    /* The in-frame arcs at the two corners: 2 neighbours each when a > 1. */
    if (a > 1) {
        s_out += 2 * (int64_t)cin;
        t_in += 2 * (int64_t)cin;
    }
    const int32_t cs = s_out > INT32_MAX ? INT32_MAX : (int32_t)s_out;
    const int32_t ct = t_in > INT32_MAX ? INT32_MAX : (int32_t)t_in;
    if (n == 1) {
        st = gcut_graph_add_tweights(g, 0, cs, ct);
    } else {
        st = gcut_graph_add_tweights(g, 0, cs, 0);
        if (st == GCUT_OK)
            st = gcut_graph_add_tweights(g, n - 1, 0, ct);
    }
    if (st != GCUT_OK) {
        gcut_graph_free(g);
        return gen_fail_gcut(st, "genrmf", err);
    }
    *out = g;
    return GCUT_OK;
}
