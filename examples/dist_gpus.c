/*
 * dist_gpus.c - a volume cut as slabs of planes kept on several GPUs
 * (gcut_grid_solve_partitioned with cuda-grid regions and the setting
 * "devices=0:1:...", docs/distributed.md): the same flow and the same cut
 * bytes as the whole volume on the CPU. The GPUs are the program's
 * arguments (default: GPU 0); regions on different GPUs exchange their
 * boundaries through NCCL.
 *
 *     example-dist-gpus 0 1 2 3
 *
 * Exit status: 0 when the cuts agree, 1 when they do not or the solve
 * fails, 77 when cuda-grid is not available here (no GPU).
 */
#define GCUT_ALLOW_EXPERIMENTAL
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gcut/gcut.h>

enum { W = 64, H = 60, D = 48 };

int main(int argc, char **argv)
{
    /* "devices=0:1:2:3" from the arguments. */
    char params[256] = "devices=";
    int gpus = 0;
    for (int i = 1; i < argc; i++, gpus++)
        if (strlen(params) + strlen(argv[i]) + 2 < sizeof params) {
            strcat(params, i > 1 ? ":" : "");
            strcat(params, argv[i]);
        }
    if (gpus == 0)
        strcat(params, "0"), gpus = 1;

    const int32_t n = W * H * D;
    int32_t *src = malloc((size_t)n * 4), *snk = malloc((size_t)n * 4);
    int32_t *smooth = malloc((size_t)n * 4);
    if (!src || !snk || !smooth)
        return 1;
    /* A noisy ball in the middle of the volume is foreground. */
    for (int32_t z = 0; z < D; z++)
        for (int32_t y = 0; y < H; y++)
            for (int32_t x = 0; x < W; x++) {
                const int32_t v = x + W * (y + H * z);
                const int dx = x - W / 2, dy = y - H / 2, dz = z - D / 2;
                const int inside = dx * dx + dy * dy + dz * dz < 20 * 20;
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
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-bk";
    if (gcut_grid_solve(g, &opt, whole) != GCUT_OK) {
        fprintf(stderr, "%s\n", gcut_last_error());
        return 1;
    }

    /* Two slabs per GPU: one of each colour of the red-black sweeps, so
     * that every GPU works in both halves of a sweep. */
    opt.backend = "cuda-grid";
    opt.params = params;
    int rc = 0;
    const gcut_status st = gcut_grid_solve_partitioned(g, 2 * gpus, NULL, &opt, parts);
    if (st == GCUT_ERR_UNAVAILABLE) {
        printf("no GPU here: %s\n", gcut_last_error());
        rc = 77;
    } else if (st != GCUT_OK) {
        fprintf(stderr, "%s\n", gcut_last_error());
        rc = 1;
    } else {
        const int same = gcut_result_flow(parts) == gcut_result_flow(whole) &&
                         memcmp(gcut_result_cut(parts), gcut_result_cut(whole), (size_t)n) == 0;
        printf("%d slabs on %d GPU%s (%s): flow %lld in %lld sweeps, %s\n", 2 * gpus, gpus,
               gpus == 1 ? "" : "s", params, (long long)gcut_result_flow(parts),
               (long long)gcut_result_stats(parts)->rounds,
               same ? "the same cut as the whole volume" : "A DIFFERENT CUT");
        rc = same ? 0 : 1;
    }
    gcut_result_free(parts);
    gcut_result_free(whole);
    gcut_grid_free(g);
    free(smooth);
    free(snk);
    free(src);
    return rc;
}
