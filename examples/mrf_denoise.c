/*
 * mrf_denoise.c - multi-label alpha-expansion: restore a piecewise-constant
 * image of 4 gray levels from noisy observations, with a Potts prior.
 *
 *     example-mrf-denoise
 *
 * Unary cost: the distance between the observation and each label's gray
 * level; pairwise: lambda when neighbours differ. Prints the energy before
 * and after, and the share of pixels restored (exit status 1 below 95%).
 * Built and run by CTest (docs/stereo.md, "Multi-label moves").
 */
#include <stdio.h>
#include <stdlib.h>

#include <gcut/gcut.h>
#include <gcut/vision/mrf.h>

enum { W = 80, H = 60, L = 4 };

static int truth(int32_t x, int32_t y) { return (x >= W / 2) + 2 * (y >= H / 2); }

int main(void)
{
    static int32_t unary[W * H * L], labels[W * H];
    static const int32_t level[L] = {30, 100, 160, 230};
    uint32_t s = 3;
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++) {
            s = s * 1664525u + 1013904223u;
            const int32_t obs = level[truth(x, y)] + (int32_t)(s >> 25) - 64; /* +-64 */
            for (int32_t l = 0; l < L; l++)
                unary[(y * W + x) * L + l] = abs(obs - level[l]);
            labels[y * W + x] = 0; /* start from label 0 everywhere */
        }
    gcut_mrf *m;
    if (gcut_mrf_new(&m, W, H, 1, 4, L) != GCUT_OK || gcut_mrf_set_unary(m, unary) != GCUT_OK ||
        gcut_mrf_set_potts(m, 40) != GCUT_OK)
        goto fail;
    gcut_mrf_options opt;
    gcut_mrf_options_init(&opt); /* up to 20 cycles, max-flow back end "auto" */
    gcut_mrf_stats st;
    if (gcut_mrf_expand(m, &opt, labels, &st) != GCUT_OK)
        goto fail;
    int32_t right = 0;
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++)
            right += labels[y * W + x] == truth(x, y);
    printf("energy %lld -> %lld in %d cycles (%d moves, %s), %.1f%% of pixels restored\n",
           (long long)st.initial_energy, (long long)st.energy, (int)st.cycles, (int)st.moves,
           st.backend ? st.backend : "?", 100.0 * right / (W * H));
    gcut_mrf_free(m);
    return right >= W * H * 95 / 100 && st.energy < st.initial_energy ? 0 : 1;
fail:
    fprintf(stderr, "example-mrf-denoise: %s\n", gcut_last_error());
    return 1;
}
