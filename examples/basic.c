/*
 * basic.c - the "Getting started" example of README.md and docs/: build a
 * small graph, solve it with the automatic back end, read flow and cut.
 * Built and run by CTest so the documented code keeps working.
 */
#include <stdio.h>

#include <gcut/gcut.h>

int main(void)
{
    /* Three pixels in a row: the first likes the source (foreground), the
     * last likes the sink (background), neighbours are tied by n-links. */
    gcut_graph *g;
    if (gcut_graph_new(&g, 3, 2) != GCUT_OK) {
        fprintf(stderr, "%s\n", gcut_last_error());
        return 1;
    }
    gcut_graph_add_tweights(g, 0, 10, 0); /* source -> 0 : 10 */
    gcut_graph_add_tweights(g, 2, 0, 7);  /* 2 -> sink   : 7  */
    gcut_graph_add_edge(g, 0, 1, 5, 0);   /* 0 -> 1 : 5          */
    gcut_graph_add_edge(g, 1, 2, 9, 3);   /* 1 -> 2 : 9, 2 -> 1 : 3 */

    gcut_solve_options opt;
    gcut_solve_options_init(&opt);        /* backend "auto" */
    gcut_result *res;
    gcut_result_new(&res);
    if (gcut_solve(g, &opt, res) != GCUT_OK) {
        fprintf(stderr, "%s\n", gcut_last_error());
        return 1;
    }
    const uint8_t *cut = gcut_result_cut(res);
    printf("flow %lld by %s\n", (long long)gcut_result_flow(res), gcut_result_backend(res));
    for (int32_t v = 0; v < 3; v++)
        printf("node %d: %s\n", (int)v, cut[v] == GCUT_SOURCE ? "source side" : "sink side");
    int ok = gcut_result_flow(res) == 5 && cut[0] == GCUT_SOURCE && cut[1] == GCUT_SINK;
    gcut_result_free(res);
    gcut_graph_free(g);
    return ok ? 0 : 1;
}
