/*
 * float_energies.c - the float path of docs/getting-started.md: segment a
 * probability map with unary costs -log p, contrast-sensitive pair
 * weights, and the library's quantisation. Built and run by CTest so the
 * documented code keeps working; it fails if the segmentation or the
 * quantisation report is wrong.
 *
 * The map: a 64 x 64 image whose foreground is a disc, p(x) = 0.8 inside
 * and 0.2 outside, with deterministic noise strong enough that a pixel-wise
 * threshold makes mistakes the pair terms clean up.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gcut/gcut.h>

enum { W = 64, H = 64, N = W * H };

static int in_disc(int x, int y) { return (x - 30) * (x - 30) + (y - 34) * (y - 34) < 20 * 20; }

int main(void)
{
    static float p[N], cost_fg[N], cost_bg[N], right[N], down[N];
    uint32_t seed = 12345;
    for (int v = 0; v < N; v++) {
        seed = seed * 1664525u + 1013904223u;
        const float noise = ((float)(seed >> 8) / 16777216.0f - 0.5f) * 0.9f;
        const float q = (in_disc(v % W, v / W) ? 0.8f : 0.2f) + noise;
        p[v] = q < 0.01f ? 0.01f : q > 0.99f ? 0.99f : q;
    }

    /* E(x) = sum_v (x_v == FG ? -log p : -log(1 - p)) + sum w_uv [x_u != x_v] */
    for (int v = 0; v < N; v++) {
        const int x = v % W, y = v / W;
        cost_fg[v] = -logf(p[v]);
        cost_bg[v] = -logf(1.0f - p[v]);
        const float dr = x + 1 < W ? p[v] - p[v + 1] : 0.0f;
        const float dd = y + 1 < H ? p[v] - p[v + W] : 0.0f;
        right[v] = 1.5f * expf(-dr * dr / 0.5f); /* edge to (x+1, y) */
        down[v] = 1.5f * expf(-dd * dd / 0.5f);  /* edge to (x, y+1) */
    }

    gcut_grid *g;
    gcut_result *r;
    gcut_quantization q;
    const float *pair[2] = {right, down};
    if (gcut_grid_new(&g, W, H, 1, 4) != GCUT_OK || gcut_result_new(&r) != GCUT_OK ||
        gcut_grid_set_energy_dirs_f32(g, cost_fg, cost_bg, pair, 0 /* automatic scale */, NULL) ||
        gcut_grid_solve(g, NULL, r) != GCUT_OK ||
        gcut_grid_quantization(g, gcut_result_flow(r), &q) != GCUT_OK) {
        fprintf(stderr, "%s\n", gcut_last_error());
        return 1;
    }
    const uint8_t *mask = gcut_result_cut(r); /* GCUT_SOURCE = foreground */

    int wrong = 0, wrong_threshold = 0;
    for (int v = 0; v < N; v++) {
        const int fg = in_disc(v % W, v / W);
        wrong += (mask[v] == GCUT_SOURCE) != fg;
        wrong_threshold += (p[v] > 0.5f) != fg;
    }
    printf("energy %.6f (within %.3g of the float optimum), scale %.6g, offset %.6f\n", q.energy,
           q.bound, q.scale, q.offset);
    printf("wrong pixels: %d with the pair terms, %d by thresholding p\n", wrong, wrong_threshold);

    /* The guarantee is worth something: the bound is far below one unit of
     * energy, and the pair terms beat thresholding. */
    const int ok = q.bound < 1e-3 && wrong * 4 < wrong_threshold && wrong < N / 100;
    gcut_result_free(r);
    gcut_grid_free(g);
    return ok ? 0 : 1;
}
