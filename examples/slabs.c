/*
 * slabs.c - a volume given as slabs of planes, each with arrays of its own
 * (gcut_grid_solve_slabs, docs/distributed.md): no gcut_grid holds the
 * whole volume, so the depth and the node count may pass 2^31. Here the
 * volume is small enough to check the answer against gcut_grid_solve.
 *
 *     example-slabs            # CPU regions
 *     example-slabs --gpu 0 1  # regions on GPUs 0 and 1 (cuda-grid), the
 *                              # first slab's arrays in GPU 0's memory
 *
 * Exit status: 0 when the flow and the cut agree with the whole volume, 1
 * when they do not or a call fails, 77 with --gpu when cuda-grid is not
 * available here (no GPU).
 */
#define GCUT_ALLOW_EXPERIMENTAL
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gcut/gcut.h>

enum { W = 48, H = 40, D = 36, SLABS = 4 };

/* The capacities of voxel (x, y, z): a noisy ball is foreground. */
static void voxel(int32_t x, int32_t y, int32_t z, int32_t *src, int32_t *snk)
{
    const int dx = x - W / 2, dy = y - H / 2, dz = z - D / 2;
    const int inside = dx * dx + dy * dy + dz * dz < 14 * 14;
    const int32_t noise = (int32_t)(((uint32_t)(x + W * (y + H * z)) * 2654435761u) >> 25);
    *src = inside ? 100 + noise : noise;
    *snk = inside ? noise : 100 + noise;
}

int main(int argc, char **argv)
{
    const int gpu = argc > 1 && strcmp(argv[1], "--gpu") == 0;
    char params[256] = "devices=";
    for (int i = 2; gpu && i < argc; i++)
        if (strlen(params) + strlen(argv[i]) + 2 < sizeof params) {
            strcat(params, i > 2 ? ":" : "");
            strcat(params, argv[i]);
        }
    if (gpu && argc == 2)
        strcat(params, "0");
    if (gpu && !gcut_device_available(NULL)) {
        printf("example-slabs --gpu: cuda-grid is not available here\n");
        return 77;
    }

    /* Each slab: its own terminal and direction arrays (plane * planes). */
    const int32_t plane = W * H;
    gcut_grid_slab sl[SLABS];
    memset(sl, 0, sizeof sl);
    uint8_t *cut = malloc((size_t)plane * D);
    int32_t *all_src = malloc((size_t)plane * D * 4), *all_snk = malloc((size_t)plane * D * 4);
    int32_t *smooth = malloc((size_t)plane * D * 4);
    if (!cut || !all_src || !all_snk || !smooth)
        return 1;
    for (int32_t i = 0; i < plane * D; i++)
        smooth[i] = 40;
    void *on_gpu[3] = {NULL, NULL, NULL};
    for (int s = 0; s < SLABS; s++) {
        sl[s].first = (int64_t)D * s / SLABS;
        sl[s].planes = (int32_t)((int64_t)D * (s + 1) / SLABS - sl[s].first);
        sl[s].device = -1;
        const size_t n = (size_t)plane * (size_t)sl[s].planes;
        int32_t *src = malloc(n * 4), *snk = malloc(n * 4), *cap = malloc(n * 4);
        if (!src || !snk || !cap)
            return 1;
        for (int32_t z = 0; z < sl[s].planes; z++)
            for (int32_t y = 0; y < H; y++)
                for (int32_t x = 0; x < W; x++) {
                    const size_t v = (size_t)x + (size_t)W * (y + (size_t)H * z);
                    voxel(x, y, (int32_t)sl[s].first + z, &src[v], &snk[v]);
                    cap[v] = 40;
                    all_src[(size_t)plane * sl[s].first + v] = src[v];
                    all_snk[(size_t)plane * sl[s].first + v] = snk[v];
                }
        sl[s].cap_source = src;
        sl[s].cap_sink = snk;
        for (int d = 0; d < 6; d++)
            sl[s].cap[d] = cap; /* one array may serve every direction */
        sl[s].cut = cut + (size_t)plane * (size_t)sl[s].first;
        if (gpu && s == 0) { /* the first slab's arrays in GPU memory */
            const int32_t *host[3] = {src, snk, cap};
            for (int k = 0; k < 3; k++)
                if (gcut_device_alloc(n * 4, &on_gpu[k]) != GCUT_OK ||
                    gcut_device_copy(on_gpu[k], host[k], n * 4) != GCUT_OK) {
                    fprintf(stderr, "example-slabs: %s\n", gcut_last_error());
                    return 1;
                }
            sl[s].device = 0;
            sl[s].cap_source = on_gpu[0];
            sl[s].cap_sink = on_gpu[1];
            for (int d = 0; d < 6; d++)
                sl[s].cap[d] = on_gpu[2];
            free(src), free(snk), free(cap);
        }
    }

    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    if (gpu) {
        opt.backend = "cuda-grid";
        opt.params = params;
    }
    int64_t flow = -1;
    gcut_stats stats;
    if (gcut_grid_solve_slabs(W, H, D, 6, sl, SLABS, &opt, &flow, &stats) != GCUT_OK) {
        fprintf(stderr, "example-slabs: %s\n", gcut_last_error());
        return 1;
    }

    /* The same volume as one grid, for the check. */
    gcut_grid *g;
    gcut_result *whole;
    gcut_grid_new(&g, W, H, D, 6);
    gcut_grid_set_terminal_caps(g, all_src, all_snk);
    for (int d = 0; d < 6; d++)
        gcut_grid_set_caps(g, d, smooth);
    gcut_result_new(&whole);
    gcut_solve_options ref;
    gcut_solve_options_init(&ref);
    ref.backend = "cpu-bk";
    if (gcut_grid_solve(g, &ref, whole) != GCUT_OK) {
        fprintf(stderr, "example-slabs: %s\n", gcut_last_error());
        return 1;
    }
    const int same = flow == gcut_result_flow(whole) &&
                     memcmp(cut, gcut_result_cut(whole), (size_t)plane * D) == 0;
    printf("%d slabs%s%s: flow %lld in %lld sweeps, %s the whole volume (flow %lld)\n", SLABS,
           gpu ? " on GPUs, " : " on the CPU", gpu ? params : "", (long long)flow,
           (long long)stats.rounds, same ? "the same cut as" : "NOT the same cut as",
           (long long)gcut_result_flow(whole));

    for (int s = 0; s < SLABS; s++)
        if (sl[s].device < 0) {
            free((void *)sl[s].cap_source);
            free((void *)sl[s].cap_sink);
            free((void *)sl[s].cap[0]);
        }
    for (int k = 0; k < 3; k++)
        gcut_device_free(on_gpu[k]);
    gcut_result_free(whole);
    gcut_grid_free(g);
    free(smooth), free(all_snk), free(all_src), free(cut);
    return same ? 0 : 1;
}
