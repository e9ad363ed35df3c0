/*
 * device_grid.c - a grid whose arrays live in GPU memory (gcut/device.h):
 * the energy goes to the device once, cuda-grid builds its graph there,
 * solves, and writes the mask into device memory; only the flow comes back.
 * (Here the arrays are put on the device with gcut_device_copy, so the
 * example needs no CUDA toolkit; a real caller hands over the pointers of
 * its own device buffers: PyTorch, CuPy, a CUDA kernel's output.)
 *
 * The answer is checked against the same energy solved from host memory.
 * Exits 77 (skipped) where no device back end is available.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gcut/gcut.h>

#define W 320
#define H 240

int main(void)
{
    const char *why;
    if (!gcut_device_available(&why)) {
        printf("no device grids here (%s): skipped\n", why);
        return 77;
    }
    /* A bright disc on a dark background, with noise: per-pixel costs of
     * the two labels, and one weight for every neighbour pair. */
    static float fg[W * H], bg[W * H];
    for (int y = 0, v = 0; y < H; y++)
        for (int x = 0; x < W; x++, v++) {
            const float in = hypotf(x - W / 2.0f, y - H / 2.0f) < 70.0f ? 1.0f : 0.0f;
            const float noise = (float)((v * 2654435761u) >> 24) / 64.0f; /* 0 .. 4 */
            fg[v] = (1.0f - in) * 6.0f + noise;
            bg[v] = in * 6.0f + 4.0f - noise;
        }
    const size_t n = (size_t)W * H;
    void *d_fg, *d_bg, *d_mask;
    if (gcut_device_alloc(n * sizeof(float), &d_fg) != GCUT_OK ||
        gcut_device_alloc(n * sizeof(float), &d_bg) != GCUT_OK ||
        gcut_device_alloc(n, &d_mask) != GCUT_OK) {
        fprintf(stderr, "%s\n", gcut_last_error());
        return 1;
    }
    gcut_device_copy(d_fg, fg, n * sizeof(float));
    gcut_device_copy(d_bg, bg, n * sizeof(float));

    /* The solve: device pointers in, the mask written on the device. */
    gcut_device_solver *s;
    gcut_result *r;
    if (gcut_device_solver_new(&s, NULL) != GCUT_OK || gcut_result_new(&r) != GCUT_OK) {
        fprintf(stderr, "%s\n", gcut_last_error());
        return 1;
    }
    gcut_quantization q;
    gcut_device_grid dg = GCUT_DEVICE_GRID_INIT;
    dg.width = W, dg.height = H, dg.depth = 1, dg.connectivity = 4;
    dg.dtype = GCUT_DTYPE_FLOAT32;
    dg.cost_fg = d_fg, dg.cost_bg = d_bg;
    dg.pair_const = 1.5; /* pair[] left NULL: every neighbour pair weighs 1.5 */
    dg.cut = d_mask, dg.cut_format = GCUT_DEVICE_CUT_MASK; /* 1 = foreground */
    dg.quant = &q;
    if (gcut_device_solver_solve(s, &dg, NULL, r) != GCUT_OK) {
        fprintf(stderr, "%s\n", gcut_last_error());
        return 1;
    }
    printf("energy %.3f (bound %.2g), %.2f ms on %s\n", q.energy, q.bound,
           gcut_result_stats(r)->total_ms, gcut_result_backend(r));

    /* The same energy from host memory: the same mask. */
    static uint8_t mask[W * H];
    gcut_device_copy(mask, d_mask, n);
    static float w1[W * H];
    for (size_t v = 0; v < n; v++)
        w1[v] = 1.5f;
    const float *pair[2] = {w1, w1};
    gcut_grid *g;
    gcut_result *hr;
    gcut_grid_new(&g, W, H, 1, 4);
    gcut_grid_set_energy_dirs_f32(g, fg, bg, pair, 0.0, NULL);
    gcut_result_new(&hr);
    gcut_grid_solve(g, NULL, hr);
    int same = gcut_result_flow(hr) == gcut_result_flow(r), fgs = 0;
    for (size_t v = 0; v < n; v++) {
        same &= mask[v] == (gcut_result_cut(hr)[v] == GCUT_SOURCE);
        fgs += mask[v];
    }
    printf("%d foreground pixels; host solve %s\n", fgs, same ? "agrees" : "DIFFERS");
    gcut_grid_free(g);
    gcut_result_free(hr);
    gcut_result_free(r);
    gcut_device_solver_free(s);
    gcut_device_free(d_fg);
    gcut_device_free(d_bg);
    gcut_device_free(d_mask);
    return same && fgs > 10000 && fgs < 20000 ? 0 : 1;
}
