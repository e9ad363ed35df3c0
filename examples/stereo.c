/*
 * stereo.c - a disparity map by alpha-expansion: a random-dot stereo pair
 * made here (a square at disparity 8 in front of a background at
 * disparity 2), matched with gcut_stereo_match.
 *
 *     example-stereo
 *
 * Prints the disparities found inside and outside the square (exit status
 * 1 if under 90% of the pixels away from the borders are right).
 * Built and run by CTest (docs/stereo.md shows it).
 */
#include <stdio.h>
#include <stdlib.h>

#include <gcut/gcut.h>
#include <gcut/vision/image.h>
#include <gcut/vision/stereo.h>

enum { W = 96, H = 64, NEAR = 8, FAR = 2 };

static int in_square(int32_t x, int32_t y) { return x >= 32 && x < 64 && y >= 16 && y < 48; }

int main(void)
{
    gcut_image *left, *right;
    if (gcut_image_new(&left, W, H, 1, 8) != GCUT_OK ||
        gcut_image_new(&right, W, H, 1, 8) != GCUT_OK)
        goto fail;
    /* The left view: random dots. The right view: each left pixel (x, y)
     * seen at x - d, d its disparity (near: 8, far: 2). */
    uint32_t s = 11;
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++) {
            s = s * 1664525u + 1013904223u;
            left->data[y * left->stride + x] = (uint8_t)(s >> 24);
        }
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++) {
            s = s * 1664525u + 1013904223u;
            right->data[y * right->stride + x] = (uint8_t)(s >> 24); /* occluded: fresh dots */
        }
    for (int pass = 0; pass < 2; pass++) /* the far background first, the square over it */
        for (int32_t y = 0; y < H; y++)
            for (int32_t x = 0; x < W; x++) {
                const int near = in_square(x, y);
                if (near != pass)
                    continue;
                const int32_t xr = x - (near ? NEAR : FAR);
                if (xr >= 0)
                    right->data[y * right->stride + xr] = left->data[y * left->stride + x];
            }
    gcut_stereo_options p;
    gcut_stereo_options_init(&p); /* census costs, truncated linear, left-right check */
    p.ndisp = 12;
    int32_t *disp = malloc(sizeof(int32_t) * W * H);
    gcut_mrf_stats st;
    if (!disp || gcut_stereo_match(left, right, &p, disp, &st) != GCUT_OK)
        goto fail;
    int32_t right_px = 0, counted = 0;
    for (int32_t y = 2; y < H - 2; y++)
        for (int32_t x = NEAR + 2; x < W - 2; x++) {
            counted++;
            right_px += disp[y * W + x] == (in_square(x, y) ? NEAR : FAR);
        }
    printf("square centre: disparity %d, background: %d; %.1f%% right; energy %lld, %s\n",
           (int)disp[32 * W + 48], (int)disp[8 * W + 80], 100.0 * right_px / counted,
           (long long)st.energy, st.backend ? st.backend : "?");
    free(disp);
    gcut_image_free(left);
    gcut_image_free(right);
    return right_px >= counted * 9 / 10 ? 0 : 1;
fail:
    fprintf(stderr, "example-stereo: %s\n", gcut_last_error());
    return 1;
}
