/*
 * grid_spec.c - a gcut_grid from a grid2d / grid3d spec (the generator
 * builds a general graph, one edge per unordered neighbour pair
 * v -> v + offset; each edge is put in the grid direction of its offset),
 * and a copy of a grid (bench tools that time solves of fresh grids).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"

static gcut_status fail(char err[GEN_ERR_LEN], const char *what)
{
    snprintf(err, GEN_ERR_LEN, "%s: %s", what, gcut_last_error());
    return gcut_last_status() != GCUT_OK ? gcut_last_status() : GCUT_ERR_INTERNAL;
}

gcut_status gen_grid_of_spec(const char *text, gcut_grid **out, char err[GEN_ERR_LEN])
{
    gen_spec spec;
    if (gen_spec_parse(text, 1, &spec, err) != 0)
        return GCUT_ERR_INVALID;
    const int three = strcmp(spec.family->name, "grid3d") == 0;
    if (!three && strcmp(spec.family->name, "grid2d") != 0) {
        snprintf(err, GEN_ERR_LEN, "%s: a grid2d or grid3d spec is needed", text);
        return GCUT_ERR_INVALID;
    }
    int64_t w, h, d = 1, conn;
    if (gen_spec_int(&spec, "w", 1, INT32_MAX, &w, err) ||
        gen_spec_int(&spec, "h", 1, INT32_MAX, &h, err) ||
        (three && gen_spec_int(&spec, "d", 1, INT32_MAX, &d, err)) ||
        gen_spec_int(&spec, "conn", 4, 26, &conn, err))
        return GCUT_ERR_INVALID;
    gcut_graph *gr;
    gcut_status st = gen_build(&spec, &gr, err);
    if (st != GCUT_OK)
        return st;
    gcut_grid *g;
    if (gcut_grid_new(&g, (int32_t)w, (int32_t)h, (int32_t)d, (int32_t)conn) != GCUT_OK) {
        gcut_graph_free(gr);
        return fail(err, "grid");
    }
    const int32_t n = gcut_grid_num_nodes(g);
    int32_t *s = malloc((size_t)n * sizeof *s), *t = malloc((size_t)n * sizeof *t);
    int32_t *cap[GCUT_GRID_MAX_DIRS] = {0};
    int32_t dx[GCUT_GRID_MAX_DIRS], dy[GCUT_GRID_MAX_DIRS], dz[GCUT_GRID_MAX_DIRS];
    st = s && t ? GCUT_OK : GCUT_ERR_NOMEM;
    for (int32_t k = 0; st == GCUT_OK && k < conn; k++) {
        cap[k] = calloc((size_t)n, sizeof(int32_t));
        st = !cap[k] ? GCUT_ERR_NOMEM
                     : gcut_grid_direction((int32_t)conn, k, &dx[k], &dy[k], &dz[k]);
    }
    for (int32_t v = 0; st == GCUT_OK && v < n; v++)
        st = gcut_graph_get_tweights(gr, v, &s[v], &t[v]);
    const int64_t m = gcut_graph_num_edges(gr);
    for (int64_t e = 0; st == GCUT_OK && e < m; e++) {
        int32_t u, v, c, rc;
        if ((st = gcut_graph_get_edge(gr, e, &u, &v, &c, &rc)) != GCUT_OK)
            break;
        const int32_t ex = v % (int32_t)w - u % (int32_t)w;
        const int32_t ey = (v / (int32_t)w) % (int32_t)h - (u / (int32_t)w) % (int32_t)h;
        const int32_t ez = v / (int32_t)(w * h) - u / (int32_t)(w * h);
        int32_t k = 0;
        while (k < conn && !(dx[k] == ex && dy[k] == ey && dz[k] == ez))
            k++;
        if (k == conn) {
            snprintf(err, GEN_ERR_LEN, "%s: edge %lld is not a grid edge", text, (long long)e);
            st = GCUT_ERR_INTERNAL;
            break;
        }
        cap[k][u] = c;
        cap[k ^ 1][v] = rc;
    }
    if (st == GCUT_OK && gcut_grid_set_terminal_caps(g, s, t) != GCUT_OK)
        st = fail(err, "terminals");
    for (int32_t k = 0; st == GCUT_OK && k < conn; k++)
        if (gcut_grid_set_caps(g, k, cap[k]) != GCUT_OK)
            st = fail(err, "caps");
    if (st == GCUT_ERR_NOMEM)
        snprintf(err, GEN_ERR_LEN, "%s: out of memory", text);
    for (int32_t k = 0; k < conn; k++)
        free(cap[k]);
    free(s);
    free(t);
    gcut_graph_free(gr);
    if (st != GCUT_OK) {
        gcut_grid_free(g);
        return st;
    }
    *out = g;
    return GCUT_OK;
}

gcut_status gen_grid_copy(const gcut_grid *g, gcut_grid **out, char err[GEN_ERR_LEN])
{
    gcut_grid *c;
    const int32_t conn = gcut_grid_connectivity(g);
    if (gcut_grid_new(&c, gcut_grid_width(g), gcut_grid_height(g), gcut_grid_depth(g), conn) !=
        GCUT_OK)
        return fail(err, "grid copy");
    gcut_status st = gcut_grid_set_terminal_caps(c, gcut_grid_caps(g, GCUT_GRID_SOURCE_LINK),
                                             gcut_grid_caps(g, GCUT_GRID_SINK_LINK));
    for (int32_t k = 0; st == GCUT_OK && k < conn; k++)
        st = gcut_grid_set_caps(c, k, gcut_grid_caps(g, k));
    if (st != GCUT_OK) {
        gcut_grid_free(c);
        return fail(err, "grid copy");
    }
    *out = c;
    return GCUT_OK;
}
