/*
 * backends.c - list the back ends of this build and machine, and see which
 * one "auto" picks for a small graph and for a grid, and why.
 *
 *     example-backends
 *
 * Built and run by CTest (docs/backends.md shows it).
 */
#include <stdio.h>

#include <gcut/gcut.h>

int main(void)
{
    /* Every back end: built-in engines and the plugin's, available or not. */
    printf("%-12s %-9s %s\n", "name", "available", "description / why not");
    for (int32_t i = 0; i < gcut_backend_count(); i++) {
        const char *why = NULL;
        const int ok = gcut_backend_available(i, &why);
        printf("%-12s %-9s %s\n", gcut_backend_name(i), ok ? "yes" : "no",
               ok ? gcut_backend_description(i) : why);
    }

    /* What "auto" picks for a graph of 4 nodes ... */
    gcut_graph *g;
    if (gcut_graph_new(&g, 4, 3) != GCUT_OK)
        goto fail;
    gcut_graph_add_tweights(g, 0, 5, 0);
    gcut_graph_add_tweights(g, 3, 0, 5);
    for (int32_t v = 0; v < 3; v++)
        gcut_graph_add_edge(g, v, v + 1, 2, 2);
    int32_t pick;
    const char *reason;
    if (gcut_backend_choose(g, "auto", &pick, &reason) != GCUT_OK)
        goto fail;
    printf("graph of 4 nodes: %s\n", reason);

    /* ... and for a 256 x 256 image grid. */
    gcut_grid *grid;
    if (gcut_grid_new(&grid, 256, 256, 1, 4) != GCUT_OK ||
        gcut_grid_backend_choose(grid, "auto", &pick, &reason) != GCUT_OK)
        goto fail;
    printf("grid of 256 x 256: %s\n", reason);

    /* A name that does not exist is an error with a message. */
    if (gcut_backend_choose(g, "no-such-engine", &pick, &reason) != GCUT_ERR_NOT_FOUND)
        return 1;
    printf("named \"no-such-engine\": %s\n", gcut_last_error());
    gcut_grid_free(grid);
    gcut_graph_free(g);
    return 0;
fail:
    fprintf(stderr, "example-backends: %s\n", gcut_last_error());
    return 1;
}
