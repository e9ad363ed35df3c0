/*
 * grid_segment.c - segment an image given as arrays: a 4-connected grid with
 * terminal costs from the intensities and contrast-sensitive smoothness.
 *
 *     example-grid-segment
 *
 * The picture is made here: a bright disc on a dark background with noise.
 * Pixels pay `fg_cost` to be foreground (the source side) and `bg_cost` to
 * be background (the sink side); neighbours pay `smooth` to be cut apart.
 * The example checks that the cut finds the disc (exit status 1 if not).
 * Built and run by CTest (docs/grid.md shows it).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <gcut/gcut.h>

enum { W = 96, H = 64, R = 20 };

int main(void)
{
    static uint8_t image[W * H];
    static int32_t fg_cost[W * H], bg_cost[W * H], smooth[4][W * H];
    uint32_t seed = 1;
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++) {
            const int inside = (x - 48) * (x - 48) + (y - 32) * (y - 32) <= R * R;
            seed = seed * 1664525u + 1013904223u;
            const int noise = (int)(seed >> 26) - 32; /* -32 .. 31 */
            const int v = (inside ? 200 : 60) + noise;
            image[y * W + x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
        }
    /* Terminal costs: distance to a bright (foreground) and a dark
     * (background) intensity model. */
    for (int32_t v = 0; v < W * H; v++) {
        fg_cost[v] = abs(image[v] - 200);
        bg_cost[v] = abs(image[v] - 60);
    }
    /* Smoothness per direction (+x, -x, +y, -y): strong between similar
     * neighbours, weak across an edge of the picture. */
    for (int32_t d = 0; d < 4; d++) {
        int32_t dx, dy, dz;
        gcut_grid_direction(4, d, &dx, &dy, &dz);
        for (int32_t y = 0; y < H; y++)
            for (int32_t x = 0; x < W; x++) {
                const int32_t nx = x + dx, ny = y + dy;
                int32_t c = 0;
                if (nx >= 0 && nx < W && ny >= 0 && ny < H) {
                    const double diff = image[y * W + x] - image[ny * W + nx];
                    c = (int32_t)lround(60.0 * exp(-diff * diff / (2.0 * 40.0 * 40.0)));
                }
                smooth[d][y * W + x] = c;
            }
    }

    gcut_grid *g;
    gcut_result *r;
    if (gcut_grid_new(&g, W, H, 1, 4) != GCUT_OK || gcut_result_new(&r) != GCUT_OK)
        goto fail;
    /* The source side is foreground: its t-link capacity is what a pixel
     * pays for being background, and the other way round. */
    if (gcut_grid_set_terminal_caps(g, bg_cost, fg_cost) != GCUT_OK)
        goto fail;
    for (int32_t d = 0; d < 4; d++)
        if (gcut_grid_set_caps(g, d, smooth[d]) != GCUT_OK)
            goto fail;
    if (gcut_grid_solve(g, NULL, r) != GCUT_OK)
        goto fail;

    const uint8_t *cut = gcut_result_cut(r); /* GCUT_SOURCE (0) = foreground */
    int32_t wrong = 0, fg = 0;
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++) {
            const int inside = (x - 48) * (x - 48) + (y - 32) * (y - 32) <= R * R;
            const int is_fg = cut[y * W + x] == GCUT_SOURCE;
            fg += is_fg;
            wrong += is_fg != inside;
        }
    printf("energy %lld, %d foreground pixels, %d differ from the disc, solved by %s\n",
           (long long)gcut_result_flow(r), fg, wrong, gcut_result_backend(r));
    gcut_result_free(r);
    gcut_grid_free(g);
    return wrong <= W * H / 100 ? 0 : 1; /* the noise may flip a few boundary pixels */
fail:
    fprintf(stderr, "example-grid-segment: %s\n", gcut_last_error());
    return 1;
}
