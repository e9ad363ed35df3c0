/*
 * warm_stroke.c - an interactive segmentation step: solve a grid, let a
 * "user stroke" change the t-links of a few pixels, and solve again warm
 * (the engine reuses its previous flow and search trees). The warm answer
 * is checked against a cold solve of the same final grid.
 *
 *     example-warm-stroke
 *
 * Built and run by CTest (docs/grid.md, "Warm re-solves").
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <gcut/gcut.h>

enum { W = 128, H = 128 };

/* A random-ish grid: terminal costs and smoothness from a hash. */
static gcut_grid *make_grid(void)
{
    static int32_t src[W * H], snk[W * H], cap[W * H];
    gcut_grid *g;
    if (gcut_grid_new(&g, W, H, 1, 4) != GCUT_OK)
        return NULL;
    uint32_t s = 7;
    for (int32_t v = 0; v < W * H; v++) {
        s = s * 1664525u + 1013904223u;
        src[v] = (int32_t)(s >> 25);   /* 0 .. 127 */
        s = s * 1664525u + 1013904223u;
        snk[v] = (int32_t)(s >> 25);
    }
    gcut_grid_set_terminal_caps(g, src, snk);
    for (int32_t d = 0; d < 4; d++) {
        for (int32_t v = 0; v < W * H; v++)
            cap[v] = 40;
        gcut_grid_set_caps(g, d, cap);
    }
    return g;
}

/* The stroke: a disc of radius 10 at (40, 60) marked foreground (a hard
 * constraint: a huge source link, no sink link). */
static void stroke(gcut_grid *g)
{
    for (int32_t y = 50; y <= 70; y++)
        for (int32_t x = 30; x <= 50; x++)
            if ((x - 40) * (x - 40) + (y - 60) * (y - 60) <= 100)
                gcut_grid_set_terminal_cap(g, y * W + x, 1000000, 0); /* replaces both links */
}

int main(void)
{
    gcut_grid *g = make_grid(), *cold = make_grid();
    gcut_result *r, *rc;
    if (!g || !cold || gcut_result_new(&r) != GCUT_OK || gcut_result_new(&rc) != GCUT_OK)
        goto fail;
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-bk"; /* a back end with warm re-solves (also cuda-grid) */

    if (gcut_grid_solve(g, &opt, r) != GCUT_OK) /* first solve: cold */
        goto fail;
    printf("first solve: flow %lld\n", (long long)gcut_result_flow(r));

    stroke(g);                                  /* the grid records what changed */
    if (gcut_grid_solve(g, &opt, r) != GCUT_OK) /* second solve: warm */
        goto fail;
    const gcut_stats *st = gcut_result_stats(r); /* owned by r */
    const int warm = st->warm_start;
    printf("after the stroke: flow %lld, warm %d, %.3f ms\n", (long long)gcut_result_flow(r),
           warm, st->total_ms);

    /* The same final grid solved from scratch must agree, cut and all. */
    stroke(cold);
    gcut_grid_set_warm_start(cold, 0);
    if (gcut_grid_solve(cold, &opt, rc) != GCUT_OK)
        goto fail;
    const int same = gcut_result_flow(r) == gcut_result_flow(rc) &&
                     memcmp(gcut_result_cut(r), gcut_result_cut(rc), W * H) == 0;
    printf("cold solve of the same grid: flow %lld, %s\n", (long long)gcut_result_flow(rc),
           same ? "same cut" : "DIFFERENT");
    gcut_result_free(r);
    gcut_result_free(rc);
    gcut_grid_free(g);
    gcut_grid_free(cold);
    return same && warm ? 0 : 1;
fail:
    fprintf(stderr, "example-warm-stroke: %s\n", gcut_last_error());
    return 1;
}
