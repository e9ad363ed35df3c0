/* A program outside the gcut tree, built against an installed gcut: solves
 * a small graph, then (given a folder) writes it as DIMACS, reads it back
 * and solves it again. The reader uses zlib, so a static link of this
 * program needs what libgcut was built with on its link line. */
#include <stdio.h>

#include <gcut/gcut.h>

int main(int argc, char **argv)
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
    if (argc > 1) {
        char path[4096];
        snprintf(path, sizeof path, "%s/consumer.max", argv[1]);
        gcut_graph *back = NULL;
        int64_t flow2 = 0;
        if (gcut_graph_write_dimacs(g, path) != GCUT_OK
            || gcut_graph_read_dimacs(path, &back, NULL) != GCUT_OK
            || gcut_graph_maxflow(back, "auto", &flow2) != GCUT_OK || flow2 != flow) {
            fprintf(stderr, "consumer: DIMACS round trip: %s (flow %lld)\n", gcut_last_error(),
                    (long long)flow2);
            return 1;
        }
        gcut_graph_free(back);
    }
    printf("gcut %s: flow %lld\n", gcut_version(), (long long)flow);
    gcut_graph_free(g);
    return 0;
}
