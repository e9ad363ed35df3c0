/* A program outside the gcut tree, built against an installed gcut. */
#include <stdio.h>

#include <gcut/gcut.h>

int main(void)
{
    gcut_graph *g;
    if (gcut_graph_new(&g, 2, 1) != GCUT_OK)
        return 1;
    gcut_graph_add_tweights(g, 0, 3, 0);
    gcut_graph_add_tweights(g, 1, 0, 3);
    gcut_graph_add_edge(g, 0, 1, 2, 0);
    int64_t flow = 0;
    if (gcut_graph_maxflow(g, "auto", &flow) != GCUT_OK || flow != 2) {
        fprintf(stderr, "consumer: %s (flow %lld)\n", gcut_last_error(), (long long)flow);
        return 1;
    }
    printf("gcut %s: flow %lld\n", gcut_version(), (long long)flow);
    gcut_graph_free(g);
    return 0;
}
