/*
 * dist_grid.c - a volume cut as slabs of planes in one process
 * (gcut_grid_solve_partitioned, docs/distributed.md): the same flow and
 * the same cut bytes as a whole-grid solve, for any number of regions.
 * The exit status says whether they are.
 */
#define GCUT_ALLOW_EXPERIMENTAL
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gcut/gcut.h>

enum { W = 40, H = 36, D = 30 };

int main(void)
{
    const int32_t n = W * H * D;
    int32_t *src = malloc((size_t)n * 4), *snk = malloc((size_t)n * 4);
    int32_t *smooth = malloc((size_t)n * 4);
    if (!src || !snk || !smooth)
        return 1;
    /* A noisy box in the middle of the volume is foreground. */
    for (int32_t z = 0; z < D; z++)
        for (int32_t y = 0; y < H; y++)
            for (int32_t x = 0; x < W; x++) {
                const int32_t v = x + W * (y + H * z);
                const int inside = x > 10 && x < 30 && y > 8 && y < 28 && z > 6 && z < 24;
                const int32_t noise = (int32_t)(((uint32_t)v * 2654435761u) >> 25); /* 0..127 */
                src[v] = inside ? 100 + noise : noise;
                snk[v] = inside ? noise : 100 + noise;
                smooth[v] = 40;
            }

    gcut_grid *g;
    gcut_grid_new(&g, W, H, D, 6);
    gcut_grid_set_terminal_caps(g, src, snk);
    for (int32_t d = 0; d < 6; d++)
        gcut_grid_set_caps(g, d, smooth);

    gcut_result *whole, *parts;
    gcut_result_new(&whole);
    gcut_result_new(&parts);
    gcut_grid_solve(g, NULL, whole); /* cpu-bk on the whole volume */

    int ok = 1;
    for (int32_t regions = 1; regions <= 6; regions++) {
        gcut_solve_options opt;
        gcut_solve_options_init(&opt);
        opt.threads = 2; /* the regions of one colour run side by side */
        if (gcut_grid_solve_partitioned(g, regions, NULL, &opt, parts) != GCUT_OK) {
            fprintf(stderr, "%s\n", gcut_last_error());
            return 1;
        }
        const int same = gcut_result_flow(parts) == gcut_result_flow(whole) &&
                         memcmp(gcut_result_cut(parts), gcut_result_cut(whole), (size_t)n) == 0;
        printf("%d regions: flow %lld in %lld sweeps, %s\n", (int)regions,
               (long long)gcut_result_flow(parts), (long long)gcut_result_stats(parts)->rounds,
               same ? "the same cut as one region" : "A DIFFERENT CUT");
        ok = ok && same;
    }
    gcut_result_free(parts);
    gcut_result_free(whole);
    gcut_grid_free(g);
    free(smooth);
    free(snk);
    free(src);
    return ok ? 0 : 1;
}
