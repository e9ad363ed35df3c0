/*
 * graph_warm.c - warm re-solve on a general graph: solve with cpu-eibfs,
 * change the terminal capacities of 1% of the nodes, solve again (the
 * engine starts from its previous flow and search forests, kept in the
 * graph), and check the answer against a cold solve of the final graph.
 *
 *     example-graph-warm                  a generated graph (what CTest runs)
 *     example-graph-warm FILE.max [PCT]   a DIMACS instance, PCT % changed (1)
 *
 * With a file it prints the times of the warm and the cold solve
 * (bench/results/eibfs-2026-11-27.md). Built and run by CTest
 * (docs/backends.md, "cpu-eibfs").
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gcut/gcut.h>

/* A 200 x 200 4-connected grid as a general graph, capacities from a hash. */
static gcut_graph *make_graph(void)
{
    enum { W = 200 };
    gcut_graph *g;
    if (gcut_graph_new(&g, W * W, 2 * W * W) != GCUT_OK)
        return NULL;
    uint32_t s = 11;
    for (int32_t v = 0; v < W * W; v++) {
        s = s * 1664525u + 1013904223u;
        gcut_graph_add_tweights(g, v, (int32_t)(s >> 25), (int32_t)((s >> 9) & 127));
        if (v % W + 1 < W)
            gcut_graph_add_edge(g, v, v + 1, 30, 30);
        if (v + W < W * W)
            gcut_graph_add_edge(g, v, v + W, 30, 30);
    }
    return g;
}

/* Set new terminal capacities on pct % of the nodes (at least one). */
static void change(gcut_graph *g, double pct)
{
    const int32_t n = gcut_graph_num_nodes(g);
    int32_t count = (int32_t)(n * pct / 100.0);
    if (count < 1)
        count = 1;
    uint32_t s = 12345;
    for (int32_t i = 0; i < count && n > 0; i++) {
        s = s * 1664525u + 1013904223u;
        const int32_t v = (int32_t)(s % (uint32_t)n);
        s = s * 1664525u + 1013904223u;
        gcut_graph_set_tweights(g, v, (int32_t)(s >> 20), (int32_t)((s >> 4) & 4095));
    }
}

static int solve(gcut_graph *g, gcut_result *res, double *ms)
{
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-eibfs";
    if (gcut_solve(g, &opt, res) != GCUT_OK) {
        fprintf(stderr, "solve failed: %s\n", gcut_last_error());
        return 1;
    }
    *ms = gcut_result_stats(res)->total_ms;
    return 0;
}

int main(int argc, char **argv)
{
    gcut_graph *g = NULL;
    if (argc > 1) {
        if (gcut_graph_read_dimacs(argv[1], &g, NULL) != GCUT_OK) {
            fprintf(stderr, "%s\n", gcut_last_error());
            return 1;
        }
    } else {
        g = make_graph();
    }
    const double pct = argc > 2 ? atof(argv[2]) : 1.0;
    gcut_result *res, *cold;
    if (!g || gcut_result_new(&res) != GCUT_OK || gcut_result_new(&cold) != GCUT_OK)
        return 1;

    double first, warm, again;
    if (solve(g, res, &first)) /* cold: the state stays in g */
        return 1;
    change(g, pct);           /* terminal capacities only */
    if (solve(g, res, &warm)) /* warm: from the kept flow */
        return 1;
    const int was_warm = gcut_result_stats(res)->warm_start;

    gcut_graph_set_warm_start(g, 0); /* cold again (on the kept records) */
    if (solve(g, cold, &again))
        return 1;
    const int32_t n = gcut_graph_num_nodes(g);
    const int same = gcut_result_flow(res) == gcut_result_flow(cold) &&
                     memcmp(gcut_result_cut(res), gcut_result_cut(cold), (size_t)n) == 0;
    printf("first solve %.1f ms; %.2f%% of the terminal capacities changed; warm re-solve "
           "%.1f ms (warm: %d), cold %.1f ms; flow %lld, same answer: %s\n",
           first, pct, warm, was_warm, again, (long long)gcut_result_flow(res),
           same ? "yes" : "NO");
    gcut_result_free(cold);
    gcut_result_free(res);
    gcut_graph_free(g);
    return same && was_warm ? 0 : 1;
}
