/*
 * grid_gpus.c - one grid spread over the GPUs of a machine by cuda-grid
 * ("devices=0:1:..." in the solve's settings, docs/grid.md "Several GPUs"):
 * each GPU runs cuda-grid's engine on a slab of the volume and holds its
 * share of the arrays; the answer is the one-GPU answer, bit for bit. The
 * GPUs are the program's arguments (default: GPU 0, in two parts).
 *
 *     example-grid-gpus 0 1 2 3
 *
 * Exit status: 0 when the flow and the cut equal cpu-bk's, 1 when they do
 * not or a solve fails, 77 when cuda-grid is not available here (no GPU).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gcut/gcut.h>

enum { W = 96, H = 80, D = 64 };

int main(int argc, char **argv)
{
    /* "devices=0:1:2:3" from the arguments; a GPU listed twice holds two
     * parts, which is how one GPU shows the machinery. */
    char params[256] = "devices=";
    for (int i = 1; i < argc; i++)
        if (strlen(params) + strlen(argv[i]) + 2 < sizeof params) {
            strcat(params, i > 1 ? ":" : "");
            strcat(params, argv[i]);
        }
    if (argc < 2)
        strcat(params, "0:0");

    const int32_t n = W * H * D;
    int32_t *src = malloc((size_t)n * 4), *snk = malloc((size_t)n * 4);
    int32_t *smooth = malloc((size_t)n * 4);
    if (!src || !snk || !smooth)
        return 1;
    /* Two noisy balls are foreground. */
    for (int32_t z = 0; z < D; z++)
        for (int32_t y = 0; y < H; y++)
            for (int32_t x = 0; x < W; x++) {
                const int32_t v = x + W * (y + H * z);
                const int ax = x - W / 3, ay = y - H / 2, az = z - D / 3;
                const int bx = x - 2 * W / 3, by = y - H / 3, bz = z - 2 * D / 3;
                const int inside = ax * ax + ay * ay + az * az < 18 * 18 ||
                                   bx * bx + by * by + bz * bz < 14 * 14;
                const int32_t noise = (int32_t)(((uint32_t)v * 2654435761u) >> 25); /* 0..127 */
                src[v] = inside ? 100 + noise : noise;
                snk[v] = inside ? noise : 100 + noise;
                smooth[v] = 40;
            }
    gcut_grid *g;
    if (gcut_grid_new(&g, W, H, D, 6) != GCUT_OK)
        return 1;
    gcut_grid_set_terminal_caps(g, src, snk);
    for (int32_t d = 0; d < 6; d++)
        gcut_grid_set_caps(g, d, smooth);

    gcut_result *ref, *res;
    gcut_result_new(&ref);
    gcut_result_new(&res);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-bk";
    if (gcut_grid_solve(g, &opt, ref) != GCUT_OK) {
        fprintf(stderr, "%s\n", gcut_last_error());
        return 1;
    }

    opt.backend = "cuda-grid";
    opt.params = params; /* the grid spread over these GPUs */
    int rc = 0;
    const gcut_status st = gcut_grid_solve(g, &opt, res);
    if (st == GCUT_ERR_UNAVAILABLE) {
        printf("no GPU here: %s\n", gcut_last_error());
        rc = 77;
    } else if (st != GCUT_OK) {
        fprintf(stderr, "%s\n", gcut_last_error());
        rc = 1;
    } else {
        const int same = gcut_result_flow(res) == gcut_result_flow(ref) &&
                         memcmp(gcut_result_cut(res), gcut_result_cut(ref), (size_t)n) == 0;
        printf("cuda-grid, %s: flow %lld in %.2f ms, %s\n", params,
               (long long)gcut_result_flow(res), gcut_result_stats(res)->solve_ms,
               same ? "the same cut as cpu-bk" : "A DIFFERENT CUT");
        rc = same ? 0 : 1;
    }
    gcut_result_free(res);
    gcut_result_free(ref);
    gcut_grid_free(g);
    free(smooth);
    free(snk);
    free(src);
    return rc;
}
