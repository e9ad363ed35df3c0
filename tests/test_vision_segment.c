/*
 * test_vision_segment.c - segmentation: colour models, the energy and its
 * quantisation (brute force on tiny images), synthetic scenes with known
 * masks, GrabCut, sessions (warm == cold), evaluation, seeds, bad input,
 * and a quick run on the GrabCut dataset when ../shared/data has it.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "gcut/gcut.h"
#include "gcut/vision/image.h"
#include "gcut/vision/segment.h"
#include "segment/segment_internal.h"

/* ------------------------------------------------------------- helpers */

static uint64_t rng = 88172645463325252ull;
static double uni(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}
static double gauss(void)
{
    return (uni() + uni() + uni() + uni() - 2.0) * 1.7320508;
}
static uint8_t c8(double v)
{
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5);
}

/* A w x h scene: a disc and a bar in two foreground colours on a
 * two-colour background, Gaussian noise sigma; truth 255 inside. */
static gcut_image *scene(int32_t w, int32_t h, double sigma, uint8_t *truth)
{
    gcut_image *img = NULL;
    assert_int_equal(gcut_image_new(&img, w, h, 3, 8), GCUT_OK);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            const double dx = x - w * 0.35, dy = y - h * 0.5;
            const int disc = dx * dx + dy * dy < (h * 0.3) * (h * 0.3);
            const int bar = x > w * 0.65 && x < w * 0.85 && y > h * 0.2 && y < h * 0.8;
            const int fg = disc || bar;
            double r, g, b;
            if (disc) {
                r = 210; g = 70; b = 60;
            } else if (bar) {
                r = 230; g = 200; b = 50;
            } else if (y < h / 2) {
                r = 60; g = 110; b = 170;
            } else {
                r = 70; g = 150; b = 90;
            }
            uint8_t *q = img->data + (size_t)y * img->stride + 3 * (size_t)x;
            q[0] = c8(r + sigma * gauss());
            q[1] = c8(g + sigma * gauss());
            q[2] = c8(b + sigma * gauss());
            truth[(size_t)y * w + x] = fg ? 255 : 0;
        }
    return img;
}

/* Seeds: a short horizontal stroke inside each shape, strokes along the
 * top and bottom rows and a vertical one between the shapes. */
static void strokes(int32_t w, int32_t h, uint8_t *seeds)
{
    memset(seeds, GCUT_SEED_UNKNOWN, (size_t)w * h);
    for (int32_t x = (int32_t)(w * 0.3); x < (int32_t)(w * 0.4); x++)
        seeds[(size_t)(h / 2) * w + x] = GCUT_SEED_FG;
    for (int32_t y = (int32_t)(h * 0.4); y < (int32_t)(h * 0.6); y++)
        seeds[(size_t)y * w + (int32_t)(w * 0.75)] = GCUT_SEED_FG;
    for (int32_t x = 2; x < w - 2; x++) {
        seeds[(size_t)2 * w + x] = GCUT_SEED_BG;
        seeds[(size_t)(h - 3) * w + x] = GCUT_SEED_BG;
    }
    for (int32_t y = 5; y < h - 5; y++)
        seeds[(size_t)y * w + (int32_t)(w * 0.58)] = GCUT_SEED_BG;
}

static double error_rate(const uint8_t *mask, const uint8_t *truth, int64_t n)
{
    gcut_seg_eval ev;
    assert_int_equal(gcut_seg_evaluate(mask, truth, NULL, n, &ev), GCUT_OK);
    return ev.error_rate;
}

/* ------------------------------------------------------------- models */

/* With whole-number colours the fit runs over the distinct colours of the
 * class, weighted by their counts (gmm.c); asking for the per-pixel
 * components takes the pixel-by-pixel passes. Both must give the same
 * model bit for bit: 8-bit colours in clusters (many repeats), two
 * classes, every k, with and without the hard-EM rounds. */
static void test_gmm_fit_distinct_colours(void **state)
{
    (void)state;
    const int64_t n = 20000;
    float *rgb = malloc(3 * n * sizeof(float));
    uint8_t *sel = malloc(n), *comp = malloc(n);
    srand(7);
    for (int64_t p = 0; p < n; p++) {
        const int c = rand() % 4;
        const double base[4][3] = {{40, 60, 220}, {200, 100, 30}, {128, 128, 128}, {250, 5, 90}};
        for (int i = 0; i < 3; i++) {
            long v = lround(base[c][i] + (c == 2 ? 1.0 : 12.0) * gauss());
            rgb[3 * p + i] = (float)(v < 0 ? 0 : v > 255 ? 255 : v);
        }
        sel[p] = (uint8_t)(1 + (rand() % 3 == 0));
    }
    for (int32_t k = 1; k <= 5; k++)
        for (int32_t rounds = 0; rounds <= 2; rounds += 2)
            for (uint8_t want = 1; want <= 2; want++) {
                gcut_i_gmm g, g2;
                assert_int_equal(gcut_i_gmm_fit(&g, k, rgb, n, sel, want, rounds, comp), GCUT_OK);
                assert_int_equal(gcut_i_gmm_fit(&g2, k, rgb, n, sel, want, rounds, NULL), GCUT_OK);
                assert_memory_equal(&g, &g2, sizeof g);
            }
    /* A colour outside 0..255, or not whole, takes the pixel passes: the
     * same model again. */
    rgb[3 * 5] = 300.0f;
    rgb[3 * 9 + 1] = 17.5f;
    for (uint8_t want = 1; want <= 2; want++) {
        gcut_i_gmm g, g2;
        assert_int_equal(gcut_i_gmm_fit(&g, 5, rgb, n, sel, want, 2, comp), GCUT_OK);
        assert_int_equal(gcut_i_gmm_fit(&g2, 5, rgb, n, sel, want, 2, NULL), GCUT_OK);
        assert_memory_equal(&g, &g2, sizeof g);
    }
    free(rgb);
    free(sel);
    free(comp);
}

/* The CPU evaluator's colour tables (seg_cpu.c): the image's colour index
 * (every pixel's colour at its index, the colours in increasing code
 * order, refused past max_u or for colours that are not whole numbers in
 * 0..255), and the passes that use it against the same passes pixel by
 * pixel: the data costs and both classes' components of a pass through
 * the tables, bit for bit those of an evaluator without them (foreground
 * seeds outside the box included); the learning step counted per colour,
 * the models of gcut_i_gmm_learn_both byte for byte; the fit's colours
 * counted from the index, the model of gcut_i_gmm_fit. */
static void test_colour_tables(void **state)
{
    (void)state;
    const int32_t w = 67, h = 41;
    const int64_t n = (int64_t)w * h;
    float *rgb = malloc(3 * n * sizeof(float));
    uint8_t *seeds = malloc(n), *label = malloc(n), *sel = malloc(n);
    srand(5);
    for (int64_t p = 0; p < n; p++) {
        const int c = rand() % 4;
        const double base[4][3] = {{40, 60, 220}, {200, 100, 30}, {128, 128, 128}, {250, 5, 90}};
        for (int i = 0; i < 3; i++)
            rgb[3 * p + i] = (float)c8(base[c][i] + 1.5 * gauss());
    }
    /* A rectangle, and two foreground seeds outside it. */
    assert_int_equal(gcut_seeds_from_rect(w, h, 9, 5, 40, 30, seeds), GCUT_OK);
    seeds[2 * w + 3] = GCUT_SEED_FG;
    seeds[(h - 2) * w + w - 4] = GCUT_SEED_FG;
    for (int64_t p = 0; p < n; p++) {
        sel[p] = seeds[p] == GCUT_SEED_BG ? 2 : 1;
        label[p] = seeds[p] == GCUT_SEED_UNKNOWN ? (uint8_t)(rand() % 2) : seeds[p] == GCUT_SEED_FG;
    }

    /* The index. */
    gcut_i_colour_index ci;
    assert_int_equal(gcut_i_colour_index_build(&ci, rgb, n, n), 1);
    assert_true(ci.u > 1 && ci.u <= n / 2);
    for (int64_t p = 0; p < n; p++) {
        assert_true(ci.id[p] < ci.u);
        assert_memory_equal(ci.col + 3 * ci.id[p], rgb + 3 * p, 3 * sizeof(float));
    }
    for (int64_t i = 1; i < ci.u; i++) {
        const float *a = ci.col + 3 * (i - 1), *b = ci.col + 3 * i;
        const long ca = ((long)a[0] << 16) | ((long)a[1] << 8) | (long)a[2];
        const long cb = ((long)b[0] << 16) | ((long)b[1] << 8) | (long)b[2];
        assert_true(ca < cb);
    }
    gcut_i_colour_index none;
    assert_int_equal(gcut_i_colour_index_build(&none, rgb, n, ci.u - 1), 0);
    assert_null(none.id);

    /* The fit from the index. */
    gcut_i_gmm g[2], f2;
    for (int c = 0; c < 2; c++) {
        const uint8_t want = c ? 1 : 2;
        assert_int_equal(gcut_i_gmm_fit_index(&g[c], 5, rgb, n, &ci, sel, want, 2, NULL), GCUT_OK);
        assert_int_equal(gcut_i_gmm_fit(&f2, 5, rgb, n, sel, want, 2, NULL), GCUT_OK);
        assert_memory_equal(&g[c], &f2, sizeof f2);
    }

    /* The data pass with the tables (through the evaluator's ops, which
     * build them) and without (an evaluator whose index was refused). */
    gcut_i_seg_eval with, without;
    gcut_i_seg_eval_init(&with, w, h, rgb);
    gcut_i_seg_eval_init(&without, w, h, rgb);
    without.index_tried = 1;
    gcut_i_energy e[2];
    uint8_t *cf[2], *cb[2];
    for (int i = 0; i < 2; i++) {
        memset(&e[i], 0, sizeof e[i]);
        e[i].dfg = calloc((size_t)n, sizeof(float));
        e[i].dbg = calloc((size_t)n, sizeof(float));
        cf[i] = calloc((size_t)n, 1);
        cb[i] = calloc((size_t)n, 1);
    }
    const gcut_i_gmm *gp[2] = {&g[0], &g[1]};
    const gcut_i_seg_models m = {gp, NULL};
    const gcut_i_box box = gcut_i_seed_box(seeds, w, h);
    assert_int_equal(with.ops->data(&with, &m, box, seeds, &e[0], cf[0], cb[0]), GCUT_OK);
    assert_true(with.ci.u > 0 && with.ucomp_box); /* the tables were used */
    gcut_i_seg_cpu_data(&without, &m, box, seeds, &e[1], cf[1], cb[1], 3);
    assert_int_equal(without.ci.u, 0);
    assert_memory_equal(e[0].dfg, e[1].dfg, n * sizeof(float));
    assert_memory_equal(e[0].dbg, e[1].dbg, n * sizeof(float));
    assert_memory_equal(cf[0], cf[1], (size_t)n);
    assert_memory_equal(cb[0], cb[1], (size_t)n);

    /* The learning step by colour against learn_both. */
    gcut_i_gmm by_colour[2] = {g[0], g[1]}, by_pixel[2] = {g[0], g[1]};
    assert_int_equal(with.ops->gmm_learn(&with, by_colour, 5, label, cb[0], cf[0]), GCUT_OK);
    gcut_i_gmm_learn_both(by_pixel, 5, rgb, n, label, cb[1], cf[1]);
    assert_memory_equal(by_colour, by_pixel, sizeof by_pixel);
    assert_true(memcmp(&by_colour[1], &g[1], sizeof g[1]) != 0); /* it did learn */

    /* A pass of one class leaves the tables apart from the arrays: the
     * next learning step goes pixel by pixel. */
    gcut_i_seg_cpu_data(&with, &m, box, seeds, &e[0], cf[0], cb[0], 2);
    assert_false(with.ucomp_box);

    /* Colours that are not whole numbers: no index, the same costs. */
    rgb[3 * 7 + 1] = 17.5f;
    gcut_i_colour_index frac;
    assert_int_equal(gcut_i_colour_index_build(&frac, rgb, n, n), 0);

    for (int i = 0; i < 2; i++) {
        free(e[i].dfg);
        free(e[i].dbg);
        free(cf[i]);
        free(cb[i]);
    }
    gcut_i_seg_eval_free(&with);
    gcut_i_seg_eval_free(&without);
    gcut_i_colour_index_free(&ci);
    free(rgb);
    free(seeds);
    free(label);
    free(sel);
}

static void test_gmm_two_clusters(void **state)
{
    (void)state;
    const int64_t n = 4000;
    float *rgb = malloc(3 * n * sizeof(float));
    uint8_t *sel = malloc(n), *comp = malloc(n);
    for (int64_t p = 0; p < n; p++) {
        const int a = p < n / 4; /* a quarter in cluster A */
        rgb[3 * p + 0] = (float)((a ? 40 : 200) + 5 * gauss());
        rgb[3 * p + 1] = (float)((a ? 60 : 100) + 5 * gauss());
        rgb[3 * p + 2] = (float)((a ? 220 : 30) + 5 * gauss());
        sel[p] = 1;
    }
    gcut_i_gmm g, g2;
    assert_int_equal(gcut_i_gmm_fit(&g, 2, rgb, n, sel, 1, 2, comp), GCUT_OK);
    assert_int_equal(gcut_i_gmm_fit(&g2, 2, rgb, n, sel, 1, 2, NULL), GCUT_OK);
    assert_memory_equal(&g, &g2, sizeof g); /* deterministic */
    int ia = g.mean[0][0] < g.mean[1][0] ? 0 : 1, ib = 1 - ia;
    assert_true(fabs(g.mean[ia][0] - 40) < 1.5 && fabs(g.mean[ia][2] - 220) < 1.5);
    assert_true(fabs(g.mean[ib][0] - 200) < 1.5 && fabs(g.mean[ib][1] - 100) < 1.5);
    assert_true(fabs(g.weight[ia] - 0.25) < 0.01);
    /* Variance about 25 + the floor of 1 on the diagonal. */
    assert_true(fabs(g.cov[ib][0] - 26.0) < 4.0);
    /* The NLL of a cluster centre is low, far away high; best component right. */
    const float at_a[3] = {40, 60, 220}, far[3] = {120, 250, 120};
    uint8_t best = 9;
    const float la = gcut_i_gmm_nll(&g, at_a, &best);
    assert_int_equal(best, ia);
    assert_true(la < gcut_i_gmm_nll(&g, far, NULL) - 50.0f);
    /* Against the formula: -log(0.25 N(x|mu_a, Sigma_a) + 0.75 N(x|...)) at the
     * mean of A, where the B term is negligible: log 0.25 - 0.5 log det - 1.5 log 2pi. */
    const double *c = g.cov[ia];
    const double det = c[0] * (c[4] * c[8] - c[5] * c[7]) - c[1] * (c[3] * c[8] - c[5] * c[6]) +
                       c[2] * (c[3] * c[7] - c[4] * c[6]);
    const float mu[3] = {(float)g.mean[ia][0], (float)g.mean[ia][1], (float)g.mean[ia][2]};
    const double expect = -(log(g.weight[ia]) - 0.5 * log(det) - 1.5 * log(2 * 3.14159265358979));
    assert_true(fabs(gcut_i_gmm_nll(&g, mu, NULL) - expect) < 1e-3);
    /* Every component assigned: both clusters used. */
    int64_t na = 0;
    for (int64_t p = 0; p < n; p++)
        na += comp[p] == ia;
    assert_true(na > n / 4 - 20 && na < n / 4 + 20);
    /* Nothing selected: an error, g unchanged. */
    memset(sel, 0, n);
    gcut_i_gmm keep = g;
    assert_int_equal(gcut_i_gmm_fit(&g, 2, rgb, n, sel, 1, 2, NULL), GCUT_ERR_INVALID);
    assert_memory_equal(&g, &keep, sizeof g);
    free(rgb);
    free(sel);
    free(comp);
}

static void test_gmm_flat_and_gray(void **state)
{
    (void)state;
    /* One colour only (a flat region), and gray pixels (R = G = B): the
     * covariance floor keeps everything finite. */
    const int64_t n = 100;
    float rgb[300];
    uint8_t sel[100];
    for (int64_t p = 0; p < n; p++) {
        rgb[3 * p] = rgb[3 * p + 1] = rgb[3 * p + 2] = p < 50 ? 100.0f : (float)(p % 7 * 20);
        sel[p] = p < 50 ? 1 : 2;
    }
    gcut_i_gmm g;
    assert_int_equal(gcut_i_gmm_fit(&g, 5, rgb, n, sel, 1, 2, NULL), GCUT_OK);
    const float x[3] = {100, 100, 100};
    assert_true(isfinite(gcut_i_gmm_nll(&g, x, NULL)));
    assert_int_equal(gcut_i_gmm_fit(&g, 5, rgb, n, sel, 2, 2, NULL), GCUT_OK);
    const float y[3] = {40, 40, 40};
    assert_true(isfinite(gcut_i_gmm_nll(&g, y, NULL)));
}

static void test_histogram(void **state)
{
    (void)state;
    const int64_t n = 1000;
    float *rgb = malloc(3 * n * sizeof(float));
    uint8_t *sel = malloc(n);
    for (int64_t p = 0; p < n; p++) {
        rgb[3 * p] = (float)(p % 2 ? 10 : 250);
        rgb[3 * p + 1] = 128;
        rgb[3 * p + 2] = 30;
        sel[p] = 1;
    }
    gcut_i_hist h = {0, 0, NULL};
    assert_int_equal(gcut_i_hist_fit(&h, 16, rgb, n, sel, 1), GCUT_OK);
    assert_int_equal(h.cells, 4096);
    const float seen[3] = {12, 130, 25}, unseen[3] = {128, 0, 255};
    /* 500 of 1000 samples in the cell: -log((501) / (1000 + 4096)) + 3 log 16. */
    const double expect = -log(501.0 / 5096.0) + 3 * log(16.0);
    assert_true(fabs(gcut_i_hist_nll(&h, seen) - expect) < 1e-4);
    assert_true(gcut_i_hist_nll(&h, unseen) > gcut_i_hist_nll(&h, seen) + 5.0f);
    assert_int_equal(gcut_i_hist_fit(&h, 1, rgb, n, sel, 1), GCUT_ERR_INVALID);
    gcut_i_hist_free(&h);
    free(rgb);
    free(sel);
}

/* ------------------------------------------------------------- energy */

static void test_beta(void **state)
{
    (void)state;
    /* A 2x1 image with colours 0 and (3,4,0): one pair, |d|^2 = 25. */
    const float rgb[6] = {0, 0, 0, 3, 4, 0};
    assert_true(fabs(gcut_i_seg_beta(rgb, 2, 1, 4) - 1.0 / 50.0) < 1e-12);
    /* Flat: 0 (every weight is then lambda / dist). */
    const float flat[6] = {5, 5, 5, 5, 5, 5};
    assert_true(gcut_i_seg_beta(flat, 2, 1, 8) == 0.0);
}

/* Brute force: the cut of the quantised energy is within T / scale of the
 * float optimum, T = number of terms (pixels + pairs). */
static void brute_force_case(int32_t w, int32_t h, int32_t conn, double lambda, double scale_cap,
                             const uint8_t *seeds_in)
{
    const int64_t n = (int64_t)w * h;
    gcut_image *img = NULL;
    assert_int_equal(gcut_image_new(&img, w, h, 3, 8), GCUT_OK);
    for (int64_t p = 0; p < 3 * n; p++)
        img->data[p] = (uint8_t)(uni() * 256);
    float *rgb = NULL;
    assert_int_equal(gcut_i_seg_rgb("test", img, &rgb), GCUT_OK);
    uint8_t seeds[16], sel[16], label[16], best_l[16];
    memcpy(seeds, seeds_in, (size_t)n);
    for (int64_t p = 0; p < n; p++)
        sel[p] = seeds[p] == GCUT_SEED_FG ? 1 : seeds[p] == GCUT_SEED_BG ? 2 : (p % 2 ? 1 : 2);
    gcut_i_gmm fg, bg;
    assert_int_equal(gcut_i_gmm_fit(&fg, 2, rgb, n, sel, 1, 1, NULL), GCUT_OK);
    assert_int_equal(gcut_i_gmm_fit(&bg, 2, rgb, n, sel, 2, 1, NULL), GCUT_OK);
    gcut_i_energy e;
    memset(&e, 0, sizeof e);
    e.width = w;
    e.height = h;
    e.n = n;
    e.connectivity = conn;
    e.lambda = lambda;
    e.beta = gcut_i_seg_beta(rgb, w, h, conn);
    e.dfg = malloc(n * sizeof(float));
    e.dbg = malloc(n * sizeof(float));
    for (int64_t p = 0; p < n; p++) {
        e.dfg[p] = gcut_i_gmm_nll(&fg, rgb + 3 * p, NULL);
        e.dbg[p] = gcut_i_gmm_nll(&bg, rgb + 3 * p, NULL);
    }
    assert_int_equal(gcut_i_energy_smoothness(&e, rgb), GCUT_OK);
    const gcut_i_box box = gcut_i_seed_box(seeds, w, h);
    double scale = gcut_i_energy_scale(&e, box);
    if (scale > scale_cap)
        scale = scale_cap;
    gcut_grid *g = NULL;
    assert_int_equal(gcut_grid_new(&g, box.w, box.h, 1, conn), GCUT_OK);
    int32_t tmp[32];
    assert_int_equal(gcut_i_energy_fill_grid(&e, scale, seeds, box, g, tmp), GCUT_OK);
    gcut_result *r = NULL;
    gcut_result_new(&r);
    assert_int_equal(gcut_grid_solve(g, NULL, r), GCUT_OK);
    const uint8_t *cut = gcut_result_cut(r);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            const int64_t p = (int64_t)y * w + x;
            const int in = x >= box.x0 && x < box.x0 + box.w && y >= box.y0 && y < box.y0 + box.h;
            label[p] = in ? cut[(y - box.y0) * box.w + (x - box.x0)] == GCUT_SOURCE
                          : seeds[p] == GCUT_SEED_FG;
        }
    const double e_cut = gcut_i_energy_eval(&e, label);
    /* Every labelling that keeps the seeds. */
    double e_best = INFINITY;
    for (uint32_t m = 0; m < (1u << n); m++) {
        int ok = 1;
        for (int64_t p = 0; p < n && ok; p++) {
            label[p] = (m >> p) & 1;
            ok = seeds[p] == GCUT_SEED_UNKNOWN || label[p] == (seeds[p] == GCUT_SEED_FG);
        }
        if (!ok)
            continue;
        const double en = gcut_i_energy_eval(&e, label);
        if (en < e_best) {
            e_best = en;
            memcpy(best_l, label, (size_t)n);
        }
    }
    const int64_t terms = n + (int64_t)(conn / 2) * n; /* an upper bound on pixels + pairs */
    assert_true(e_cut >= e_best - 1e-6);
    assert_true(e_cut <= e_best + (double)terms / scale + 1e-6);
    gcut_result_free(r);
    gcut_grid_free(g);
    gcut_i_energy_free(&e);
    free(rgb);
    gcut_image_free(img);
}

static void test_quantisation_brute_force(void **state)
{
    (void)state;
    uint8_t none[16] = {0}, some[16] = {0}, border[16];
    some[0] = GCUT_SEED_FG;
    some[11] = GCUT_SEED_BG;
    /* A 4x4 image whose outer ring is fixed: the box is the 2x2 centre and
     * the ring's pair terms are folded into its t-links. */
    for (int p = 0; p < 16; p++) {
        const int x = p % 4, y = p / 4;
        border[p] = (x == 0 || x == 3 || y == 0 || y == 3) ? (x < 2 ? GCUT_SEED_FG : GCUT_SEED_BG)
                                                           : GCUT_SEED_UNKNOWN;
    }
    for (int rep = 0; rep < 20; rep++) {
        const double lambda = rep % 4 == 0 ? 5.0 : 50.0 * (1 + rep % 3);
        brute_force_case(4, 3, rep % 2 ? 8 : 4, lambda, 1e30, rep % 3 ? some : none);
        brute_force_case(4, 4, rep % 2 ? 8 : 4, lambda, 1e30, border);
        /* A coarse scale (2 units per nat): the bound T / scale still holds. */
        brute_force_case(4, 3, 8, lambda, 2.0, some);
        brute_force_case(4, 4, 4, lambda, 2.0, border);
    }
}

static void test_scale_budget(void **state)
{
    (void)state;
    /* Extreme costs: the capacities of every node stay within 2^28. */
    const int32_t w = 6, h = 5;
    const int64_t n = w * h;
    float rgb[90];
    for (int i = 0; i < 90; i++)
        rgb[i] = (float)(i * 37 % 256);
    gcut_i_energy e;
    memset(&e, 0, sizeof e);
    e.width = w;
    e.height = h;
    e.n = n;
    e.connectivity = 8;
    e.lambda = 1e5;
    e.beta = 0.0;
    e.dfg = malloc(n * sizeof(float));
    e.dbg = malloc(n * sizeof(float));
    for (int64_t p = 0; p < n; p++) {
        e.dfg[p] = p % 3 ? 1e7f : 0.0f;
        e.dbg[p] = p % 3 ? 0.0f : 3e6f;
    }
    assert_int_equal(gcut_i_energy_smoothness(&e, rgb), GCUT_OK);
    uint8_t seeds[30] = {0};
    seeds[7] = GCUT_SEED_FG;
    seeds[20] = GCUT_SEED_BG;
    const gcut_i_box box = {0, 0, w, h};
    const double scale = gcut_i_energy_scale(&e, box);
    gcut_grid *g = NULL;
    assert_int_equal(gcut_grid_new(&g, w, h, 1, 8), GCUT_OK);
    int32_t tmp[60];
    assert_int_equal(gcut_i_energy_fill_grid(&e, scale, seeds, box, g, tmp), GCUT_OK);
    for (int32_t v = 0; v < n; v++) {
        int64_t total = (int64_t)gcut_grid_caps(g, GCUT_GRID_SOURCE_LINK)[v] +
                        gcut_grid_caps(g, GCUT_GRID_SINK_LINK)[v];
        for (int32_t d = 0; d < 8; d++)
            total += 2 * (int64_t)gcut_grid_caps(g, d)[v]; /* out, and in (symmetric) */
        assert_true(total <= ((int64_t)1 << 28) + 16);
    }
    gcut_grid_free(g);
    gcut_i_energy_free(&e);
}

/* ------------------------------------------------------------- scenes */

static void test_segment_scene(void **state)
{
    (void)state;
    const int32_t w = 120, h = 90;
    const int64_t n = (int64_t)w * h;
    uint8_t *truth = malloc(n), *seeds = malloc(n), *mask = malloc(n);
    gcut_image *img = scene(w, h, 18.0, truth);
    strokes(w, h, seeds);
    gcut_seg_options p;
    gcut_seg_options_init(&p);
    gcut_seg_stats st;
    for (int conn = 4; conn <= 8; conn += 4) {
        p.connectivity = conn;
        p.model = GCUT_SEG_GMM;
        assert_int_equal(gcut_segment(img, seeds, &p, mask, &st), GCUT_OK);
        assert_true(error_rate(mask, truth, n) < 0.01);
        assert_int_equal(st.iterations, 1);
        assert_non_null(st.backend);
        assert_true(st.scale > 1.0 && st.beta > 0.0 && isfinite(st.energy));
        /* Seeds are hard constraints. */
        for (int64_t q = 0; q < n; q++)
            if (seeds[q])
                assert_int_equal(mask[q], seeds[q] == GCUT_SEED_FG ? 255 : 0);
        p.model = GCUT_SEG_HISTOGRAM;
        assert_int_equal(gcut_segment(img, seeds, &p, mask, NULL), GCUT_OK);
        assert_true(error_rate(mask, truth, n) < 0.02);
    }
    /* Each back end that can run gives the same mask (the canonical cut). */
    uint8_t *ref = malloc(n);
    gcut_seg_options_init(&p);
    p.solve.backend = "cpu-ref";
    assert_int_equal(gcut_segment(img, seeds, &p, ref, NULL), GCUT_OK);
    p.solve.backend = "cpu-bk";
    assert_int_equal(gcut_segment(img, seeds, &p, mask, NULL), GCUT_OK);
    assert_memory_equal(ref, mask, n);
    free(ref);
    gcut_image_free(img);
    free(truth);
    free(seeds);
    free(mask);
}

static void test_grabcut_scene(void **state)
{
    (void)state;
    const int32_t w = 120, h = 90;
    const int64_t n = (int64_t)w * h;
    uint8_t *truth = malloc(n), *seeds = malloc(n), *mask = malloc(n);
    gcut_image *img = scene(w, h, 15.0, truth);
    assert_int_equal(gcut_seeds_from_rect(w, h, 8, 8, w - 16, h - 16, seeds), GCUT_OK);
    gcut_seg_stats one, five;
    assert_int_equal(gcut_grabcut(img, seeds, 1, NULL, mask, &one), GCUT_OK);
    const double e1 = error_rate(mask, truth, n);
    assert_int_equal(gcut_grabcut(img, seeds, 5, NULL, mask, &five), GCUT_OK);
    const double e5 = error_rate(mask, truth, n);
    assert_true(e5 < 0.02);
    assert_true(e5 <= e1 + 1e-9);
    assert_true(five.iterations >= 2 && five.iterations <= 5);
    assert_true(five.energy <= one.energy);
    /* NULL options are GrabCut's defaults: gcut_grabcut_options_init, which
     * is gcut_seg_options_init with lambda 35. */
    gcut_seg_options g, p;
    gcut_grabcut_options_init(&g);
    gcut_seg_options_init(&p);
    assert_true(g.lambda == 35.0 && p.lambda == 50.0);
    p.lambda = g.lambda;
    assert_memory_equal(&g, &p, sizeof g);
    uint8_t *mg = malloc(n);
    gcut_seg_stats sg;
    assert_int_equal(gcut_grabcut(img, seeds, 5, &g, mg, &sg), GCUT_OK);
    assert_memory_equal(mg, mask, n);
    assert_true(sg.energy == five.energy && sg.iterations == five.iterations);
    free(mg);
    /* The histogram model iterates too. */
    gcut_seg_options_init(&p);
    p.model = GCUT_SEG_HISTOGRAM;
    assert_int_equal(gcut_grabcut(img, seeds, 5, &p, mask, NULL), GCUT_OK);
    assert_true(error_rate(mask, truth, n) < 0.05);
    /* A gray 16-bit copy of the scene works too (one channel used thrice). */
    gcut_image *gray = NULL, *g16 = NULL;
    assert_int_equal(gcut_image_to_gray(img, &gray), GCUT_OK);
    assert_int_equal(gcut_image_new(&g16, w, h, 1, 16), GCUT_OK);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            ((uint16_t *)(void *)(g16->data + (size_t)y * g16->stride))[x] =
                (uint16_t)(gray->data[(size_t)y * gray->stride + x] * 257);
    uint8_t *m8 = malloc(n);
    assert_int_equal(gcut_grabcut(gray, seeds, 3, NULL, m8, NULL), GCUT_OK);
    assert_int_equal(gcut_grabcut(g16, seeds, 3, NULL, mask, NULL), GCUT_OK);
    assert_memory_equal(m8, mask, n);
    free(m8);
    gcut_image_free(gray);
    gcut_image_free(g16);
    gcut_image_free(img);
    free(truth);
    free(seeds);
    free(mask);
}

/* ------------------------------------------------------------- progress */

/* What the progress callback saw of the vision layer's reports (operation
 * "grabcut" or "segment"; the engine's own reports are not recorded), and
 * when to ask it to stop: at the report of phase `stop_phase` (NULL: never)
 * with step `stop_step`. */
typedef struct prog_seen {
    int count;
    char phase[64][16];
    int64_t step[64], steps[64];
    double elapsed[64];
    const char *stop_phase;
    int64_t stop_step;
    int stops;
} prog_seen;

static int on_progress(const gcut_progress *p, void *user)
{
    prog_seen *s = user;
    assert_true(p->struct_size >= sizeof *p);
    if (strcmp(p->operation, "grabcut") != 0 && strcmp(p->operation, "segment") != 0)
        return 0;
    if (s->count < 64) {
        snprintf(s->phase[s->count], sizeof s->phase[0], "%s", p->phase);
        s->step[s->count] = p->step;
        s->steps[s->count] = p->steps;
        s->elapsed[s->count] = p->elapsed_ms;
        s->count++;
    }
    if (s->stop_phase && !strcmp(p->phase, s->stop_phase) && p->step == s->stop_step) {
        s->stops++;
        return 1;
    }
    return 0;
}

static int iterations_seen(const prog_seen *s, int64_t *last)
{
    int k = 0;
    *last = 0;
    for (int i = 0; i < s->count; i++)
        if (!strcmp(s->phase[i], "iteration")) {
            k++;
            *last = s->step[i];
        }
    return k;
}

/* GrabCut reports its learning phases and iterations in order through the
 * progress callback of the solve options; a non-zero return stops it with
 * GCUT_ERR_INTERRUPTED, the mask untouched, and the next call works and
 * gives the uninterrupted result. */
static void test_grabcut_progress_cancel(void **state)
{
    (void)state;
    const int32_t w = 120, h = 90;
    const int64_t n = (int64_t)w * h;
    uint8_t *truth = malloc(n), *seeds = malloc(n), *ref = malloc(n), *mask = malloc(n);
    gcut_image *img = scene(w, h, 15.0, truth);
    assert_int_equal(gcut_seeds_from_rect(w, h, 8, 8, w - 16, h - 16, seeds), GCUT_OK);
    gcut_seg_stats st_ref;
    assert_int_equal(gcut_grabcut(img, seeds, 5, NULL, ref, &st_ref), GCUT_OK);
    assert_true(st_ref.iterations >= 2);

    prog_seen sn;
    memset(&sn, 0, sizeof sn);
    gcut_seg_options p;
    gcut_seg_options_init(&p);
    p.solve.progress = on_progress;
    p.solve.progress_user = &sn;
    gcut_seg_stats st;
    assert_int_equal(gcut_grabcut(img, seeds, 5, &p, mask, &st), GCUT_OK);
    assert_memory_equal(mask, ref, n);
    /* Model learning first, then the iterations 1, 2, ... in order, each
     * of 5, each preceded by its cut's "build" / "solve" reports. */
    assert_true(sn.count >= 5);
    assert_string_equal(sn.phase[0], "smoothness");
    assert_string_equal(sn.phase[1], "model");
    assert_string_equal(sn.phase[2], "data");
    int64_t want = 1;
    for (int i = 3; i < sn.count; i++) {
        assert_int_equal(sn.steps[i], 5);
        if (!strcmp(sn.phase[i], "iteration"))
            assert_int_equal(sn.step[i], want++);
        else
            assert_int_equal(sn.step[i], want); /* model, build, solve of iteration `want` */
        /* One clock from gcut_grabcut's start. */
        assert_true(sn.elapsed[i] >= sn.elapsed[i - 1]);
    }
    int64_t last;
    assert_int_equal(iterations_seen(&sn, &last), st_ref.iterations);
    assert_int_equal(last, st_ref.iterations);

    /* Stop after iteration 1: interrupted, mask untouched, no iteration 2. */
    memset(&sn, 0, sizeof sn);
    sn.stop_phase = "iteration";
    sn.stop_step = 1;
    memset(mask, 0x77, (size_t)n);
    gcut_seg_stats untouched;
    memset(&untouched, 0x5a, sizeof untouched);
    st = untouched;
    assert_int_equal(gcut_grabcut(img, seeds, 5, &p, mask, &st), GCUT_ERR_INTERRUPTED);
    assert_int_equal(gcut_last_status(), GCUT_ERR_INTERRUPTED);
    assert_non_null(strstr(gcut_last_error(), "gcut_grabcut"));
    assert_non_null(strstr(gcut_last_error(), "interrupted"));
    assert_non_null(strstr(gcut_last_error(), "iteration 1 of 5"));
    assert_int_equal(sn.stops, 1);
    assert_int_equal(iterations_seen(&sn, &last), 1);
    for (int64_t i = 0; i < n; i++)
        assert_int_equal(mask[i], 0x77);
    assert_memory_equal(&st, &untouched, sizeof st);
    /* The next call runs to the end, with the uninterrupted result. */
    sn.stop_phase = NULL;
    assert_int_equal(gcut_grabcut(img, seeds, 5, &p, mask, NULL), GCUT_OK);
    assert_memory_equal(mask, ref, n);

    /* Stopped while the models are learnt: nothing made. */
    memset(&sn, 0, sizeof sn);
    sn.stop_phase = "model";
    sn.stop_step = 0;
    gcut_seg_session *s = (gcut_seg_session *)&sn; /* must stay as it is */
    assert_int_equal(gcut_seg_session_new(&s, img, seeds, &p), GCUT_ERR_INTERRUPTED);
    assert_ptr_equal(s, (gcut_seg_session *)&sn);
    assert_non_null(strstr(gcut_last_error(), "gcut_seg_session_new"));

    /* A session stopped in GrabCut's model step of iteration 2 can go on:
     * it cuts again and runs GrabCut to the end. */
    memset(&sn, 0, sizeof sn);
    assert_int_equal(gcut_seg_session_new(&s, img, seeds, &p), GCUT_OK);
    sn.stop_phase = "model";
    sn.stop_step = 2;
    memset(mask, 0x77, (size_t)n);
    assert_int_equal(gcut_seg_session_grabcut(s, 5, mask, NULL), GCUT_ERR_INTERRUPTED);
    assert_non_null(strstr(gcut_last_error(), "gcut_seg_session_grabcut"));
    assert_int_equal(mask[0], 0x77);
    sn.stop_phase = NULL;
    assert_int_equal(gcut_seg_session_grabcut(s, 5, mask, NULL), GCUT_OK);
    assert_true(error_rate(mask, truth, n) < 0.02);
    assert_int_equal(gcut_seg_session_solve(s, mask, NULL), GCUT_OK);
    gcut_seg_session_free(s);

    /* gcut_segment stops before its max-flow solve. */
    memset(&sn, 0, sizeof sn);
    sn.stop_phase = "solve";
    sn.stop_step = 0;
    memset(mask, 0x77, (size_t)n);
    assert_int_equal(gcut_segment(img, seeds, &p, mask, NULL), GCUT_ERR_INTERRUPTED);
    assert_non_null(strstr(gcut_last_error(), "gcut_segment"));
    assert_non_null(strstr(gcut_last_error(), "(segment, solve)"));
    assert_int_equal(mask[n / 2], 0x77);
    gcut_image_free(img);
    free(truth);
    free(seeds);
    free(ref);
    free(mask);
}

/* ------------------------------------------------------------- sessions */

static void test_session_warm_equals_cold(void **state)
{
    (void)state;
    const int32_t w = 100, h = 80;
    const int64_t n = (int64_t)w * h;
    uint8_t *truth = malloc(n), *seeds = malloc(n), *warm = malloc(n), *cold = malloc(n);
    gcut_image *img = scene(w, h, 30.0, truth);
    strokes(w, h, seeds);
    gcut_seg_session *s = NULL, *c = NULL;
    assert_int_equal(gcut_seg_session_new(&s, img, seeds, NULL), GCUT_OK);
    assert_null(gcut_seg_session_grid(s));
    gcut_seg_stats st;
    assert_int_equal(gcut_seg_session_solve(s, warm, &st), GCUT_OK);
    assert_int_equal(st.warm_start, 0);
    assert_non_null(gcut_seg_session_grid(s));
    /* Strokes inside the box of unknown pixels: a background stroke across
     * the disc, a foreground dot in the background, then erase one. */
    int32_t px[200];
    int32_t k = 0;
    for (int32_t x = 20; x < 50; x++)
        px[k++] = 30 * w + x;
    assert_int_equal(gcut_seg_session_add_stroke(s, GCUT_SEED_BG, px, k), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(s, warm, &st), GCUT_OK);
    if (st.backend && strcmp(st.backend, "cpu-bk") == 0)
        assert_int_equal(st.warm_start, 1);
    int32_t dot[3] = {60 * w + 55, 60 * w + 56, 61 * w + 55};
    assert_int_equal(gcut_seg_session_add_stroke(s, GCUT_SEED_FG, dot, 3), GCUT_OK);
    assert_int_equal(gcut_seg_session_add_stroke(s, GCUT_SEED_UNKNOWN, px, 5), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(s, warm, &st), GCUT_OK);
    /* Cold: a new session with the same models (learnt from the first
     * seeds), given the final seeds before its first solve. */
    uint8_t *final = malloc(n);
    memcpy(final, seeds, n);
    for (int32_t i = 5; i < k; i++)
        final[px[i]] = GCUT_SEED_BG;
    for (int i = 0; i < 3; i++)
        final[dot[i]] = GCUT_SEED_FG;
    assert_int_equal(gcut_seg_session_new(&c, img, seeds, NULL), GCUT_OK);
    assert_int_equal(gcut_seg_session_set_seeds(c, final), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(c, cold, NULL), GCUT_OK);
    assert_memory_equal(warm, cold, n);
    /* A stroke outside the box (on the fixed border of a rectangle) makes
     * the next solve rebuild; still the same answer as a cold solve. */
    gcut_seg_session_free(c);
    gcut_seg_session_free(s);
    assert_int_equal(gcut_seeds_from_rect(w, h, 10, 10, 80, 60, seeds), GCUT_OK);
    assert_int_equal(gcut_seg_session_new(&s, img, seeds, NULL), GCUT_OK);
    assert_int_equal(gcut_seg_session_grabcut(s, 2, warm, NULL), GCUT_OK);
    int32_t out[4] = {5 * w + 5, 5 * w + 6, 75 * w + 90, 9 * w + 50};
    assert_int_equal(gcut_seg_session_add_stroke(s, GCUT_SEED_UNKNOWN, out, 4), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(s, warm, NULL), GCUT_OK);
    assert_int_equal(gcut_seg_session_new(&c, img, seeds, NULL), GCUT_OK);
    assert_int_equal(gcut_seg_session_grabcut(c, 2, cold, NULL), GCUT_OK);
    for (int i = 0; i < 4; i++)
        seeds[out[i]] = GCUT_SEED_UNKNOWN;
    assert_int_equal(gcut_seg_session_set_seeds(c, seeds), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(c, cold, NULL), GCUT_OK);
    assert_memory_equal(warm, cold, n);
    /* The same stroke outside the box before the first solve (the grid is
     * still to be built): the box grows just the same. */
    gcut_seg_session *early = NULL, *late = NULL;
    uint8_t *early_mask = malloc(n);
    assert_int_equal(gcut_seeds_from_rect(w, h, 10, 10, 80, 60, seeds), GCUT_OK);
    assert_int_equal(gcut_seg_session_new(&early, img, seeds, NULL), GCUT_OK);
    assert_int_equal(gcut_seg_session_new(&late, img, seeds, NULL), GCUT_OK);
    assert_int_equal(gcut_seg_session_add_stroke(early, GCUT_SEED_UNKNOWN, out, 4), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(early, early_mask, NULL), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(late, warm, NULL), GCUT_OK);
    assert_int_equal(gcut_seg_session_add_stroke(late, GCUT_SEED_UNKNOWN, out, 4), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(late, warm, NULL), GCUT_OK);
    assert_int_equal(gcut_grid_width(gcut_seg_session_grid(early)), 86); /* x 5..90 */
    assert_memory_equal(early_mask, warm, n);
    gcut_seg_session_free(early);
    gcut_seg_session_free(late);
    free(early_mask);
    /* Every pixel a seed: nothing to cut, the mask is the seeds. */
    memset(final, GCUT_SEED_BG, n);
    final[0] = GCUT_SEED_FG;
    assert_int_equal(gcut_seg_session_set_seeds(c, final), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(c, cold, NULL), GCUT_OK);
    assert_int_equal(cold[0], 255);
    assert_int_equal(cold[1], 0);
    gcut_seg_session_free(c);
    gcut_seg_session_free(s);
    gcut_seg_session_free(NULL);
    free(final);
    gcut_image_free(img);
    free(truth);
    free(seeds);
    free(warm);
    free(cold);
}

/* The kept state of the incremental model update against the same
 * quantities made from scratch: for each class whose moments are kept,
 * the integer moments of its members by component (exactly), and the
 * model learnt from that assignment by gmm.c's full path (bit for bit). */
static void check_update_state(const gcut_seg_session *s, const float *rgb, int64_t n)
{
    const uint8_t *member = gcut_i_seg_session_members(s);
    const uint8_t *mc = gcut_i_seg_session_member_comp(s);
    for (int fg = 0; fg < 2; fg++) {
        const gcut_i_gmm_mom *kept = gcut_i_seg_session_moments(s, fg);
        if (!kept)
            continue;
        const gcut_i_gmm *g = gcut_i_seg_session_gmm(s, fg);
        const uint8_t code = fg ? GCUT_SEED_FG : GCUT_SEED_BG;
        gcut_i_gmm_mom fresh[GCUT_I_GMM_MAX_K];
        memset(fresh, 0, sizeof fresh);
        for (int64_t p = 0; p < n; p++)
            if (member[p] == code) {
                assert_true(mc[p] < g->k);
                gcut_i_gmm_mom_add(&fresh[mc[p]], rgb + 3 * p, 1);
            }
        assert_memory_equal(fresh, kept, (size_t)g->k * sizeof fresh[0]);
        gcut_i_gmm full = *g;
        assert_int_equal(gcut_i_gmm_learn(&full, g->k, rgb, n, member, code, mc), GCUT_OK);
        assert_memory_equal(&full, g, sizeof full);
    }
}

/* The session's data costs (after an update that recomputed only the
 * class whose model changed) equal a full data pass with its models. */
static void check_data_costs(const gcut_seg_session *s, const float *rgb, const uint8_t *seeds,
                             int32_t w, int32_t h)
{
    const int64_t n = (int64_t)w * h;
    gcut_i_seg_eval ev;
    gcut_i_seg_eval_init(&ev, w, h, rgb);
    gcut_i_energy e;
    memset(&e, 0, sizeof e);
    e.dfg = malloc(n * sizeof(float));
    e.dbg = malloc(n * sizeof(float));
    uint8_t *cf = malloc(n), *cb = malloc(n);
    const gcut_i_gmm *g[2] = {gcut_i_seg_session_gmm(s, 0), gcut_i_seg_session_gmm(s, 1)};
    const gcut_i_seg_models m = {g, NULL};
    gcut_i_seg_cpu_data(&ev, &m, gcut_i_seed_box(seeds, w, h), seeds, &e, cf, cb, 3);
    const gcut_i_energy *se = gcut_i_seg_session_energy(s);
    assert_memory_equal(e.dfg, se->dfg, n * sizeof(float));
    assert_memory_equal(e.dbg, se->dbg, n * sizeof(float));
    free(e.dfg);
    free(e.dbg);
    free(cf);
    free(cb);
    gcut_i_seg_eval_free(&ev);
}

/* The session's grid cut by the reference engine (on a copy) gives the
 * session's flow and, where the grid is the whole image, its mask. */
static void check_min_cut(const gcut_seg_session *s, const gcut_seg_stats *st, const uint8_t *mask,
                          int32_t w, int32_t h)
{
    const gcut_grid *g = gcut_seg_session_grid(s);
    assert_non_null(g);
    const int32_t gw = gcut_grid_width(g), gh = gcut_grid_height(g);
    gcut_grid *copy = NULL;
    assert_int_equal(gcut_grid_new(&copy, gw, gh, 1, gcut_grid_connectivity(g)), GCUT_OK);
    for (int32_t d = 0; d < gcut_grid_connectivity(g); d++)
        assert_int_equal(gcut_grid_set_caps(copy, d, gcut_grid_caps(g, d)), GCUT_OK);
    assert_int_equal(gcut_grid_set_terminal_caps(copy, gcut_grid_caps(g, GCUT_GRID_SOURCE_LINK),
                                                 gcut_grid_caps(g, GCUT_GRID_SINK_LINK)),
                     GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-ref";
    gcut_result *ref = NULL;
    assert_int_equal(gcut_result_new(&ref), GCUT_OK);
    assert_int_equal(gcut_grid_solve(copy, &opt, ref), GCUT_OK);
    assert_true(gcut_result_flow(ref) == st->flow);
    if (gw == w && gh == h) {
        const uint8_t *cut = gcut_result_cut(ref);
        for (int64_t p = 0; p < (int64_t)w * h; p++)
            assert_int_equal(mask[p], cut[p] == GCUT_SOURCE ? 255 : 0);
    }
    gcut_result_free(ref);
    gcut_grid_free(copy);
}

/* E of the mask under the session's current models, as reported. */
static void check_energy(const gcut_seg_session *s, const gcut_seg_stats *st, const uint8_t *mask,
                         int64_t n)
{
    uint8_t *lab = malloc(n);
    for (int64_t p = 0; p < n; p++)
        lab[p] = mask[p] != 0;
    const double e = gcut_i_energy_eval(gcut_i_seg_session_energy(s), lab);
    assert_true(isfinite(e));
    assert_true(fabs(e - st->energy) <= 1e-9 * fabs(e) + 1e-6);
    free(lab);
}

/* gcut_seg_session_update_models: strokes then an update, several times;
 * the kept moments equal those summed afresh, the models those learnt
 * from scratch from the same assignment, the mask is the minimum cut of
 * the updated energy, the seeds hold, and the scene is still found. An
 * update with nothing changed keeps models and mask. */
static void test_session_update_models(void **state)
{
    (void)state;
    const int32_t w = 120, h = 90;
    const int64_t n = (int64_t)w * h;
    uint8_t *truth = malloc(n), *seeds = malloc(n), *mask = malloc(n), *again = malloc(n);
    gcut_image *img = scene(w, h, 18.0, truth);
    float *rgb = NULL;
    assert_int_equal(gcut_i_seg_rgb("test", img, &rgb), GCUT_OK);
    strokes(w, h, seeds);
    gcut_seg_options p;
    gcut_seg_options_init(&p);
    p.solve.backend = "cpu-bk";
    gcut_seg_session *s = NULL;
    assert_int_equal(gcut_seg_session_new(&s, img, seeds, &p), GCUT_OK);
    gcut_seg_stats st;
    assert_int_equal(gcut_seg_session_solve(s, mask, &st), GCUT_OK);
    /* Strokes as a user paints them: background across the disc's edge,
     * foreground on the bar, background in a corner, erase some. */
    int32_t px[400];
    for (int round = 0; round < 4; round++) {
        int32_t k = 0;
        uint8_t label = GCUT_SEED_BG;
        if (round == 0)
            for (int32_t x = 5; x < 25; x++)
                px[k++] = 10 * w + x;
        else if (round == 1) {
            label = GCUT_SEED_FG;
            for (int32_t x = 85; x < 95; x++)
                px[k++] = 40 * w + x;
        } else if (round == 2) {
            for (int32_t y = 80; y < 86; y++)
                for (int32_t x = 104; x < 112; x++)
                    px[k++] = y * w + x;
        } else {
            label = GCUT_SEED_UNKNOWN;
            for (int32_t x = 5; x < 15; x++)
                px[k++] = 10 * w + x;
        }
        assert_int_equal(gcut_seg_session_add_stroke(s, label, px, k), GCUT_OK);
        for (int32_t i = 0; i < k; i++)
            seeds[px[i]] = label;
        memset(&st, 0, sizeof st);
        assert_int_equal(gcut_seg_session_update_models(s, mask, &st), GCUT_OK);
        assert_int_equal(st.iterations, 1);
        /* From the seeds (both classes have some): members are the seeds. */
        assert_memory_equal(gcut_i_seg_session_members(s), seeds, n);
        /* Kept (the classes changed, but by less than half). */
        assert_non_null(gcut_i_seg_session_moments(s, 0));
        if (round > 0)
            assert_non_null(gcut_i_seg_session_moments(s, 1));
        else
            assert_null(gcut_i_seg_session_moments(s, 1)); /* unchanged: the fit's model */
        check_update_state(s, rgb, n);
        check_data_costs(s, rgb, seeds, w, h);
        check_min_cut(s, &st, mask, w, h);
        check_energy(s, &st, mask, n);
        for (int64_t q = 0; q < n; q++)
            if (seeds[q])
                assert_int_equal(mask[q], seeds[q] == GCUT_SEED_FG ? 255 : 0);
        if (round > 0)
            assert_int_equal(st.warm_start, 1); /* same box: only t-links changed */
        assert_true(error_rate(mask, truth, n) < 0.02);
    }
    /* Nothing changed: the same models and mask. */
    const gcut_i_gmm before_fg = *gcut_i_seg_session_gmm(s, 1);
    const gcut_i_gmm before_bg = *gcut_i_seg_session_gmm(s, 0);
    assert_int_equal(gcut_seg_session_update_models(s, again, &st), GCUT_OK);
    assert_memory_equal(mask, again, n);
    assert_memory_equal(&before_fg, gcut_i_seg_session_gmm(s, 1), sizeof before_fg);
    assert_memory_equal(&before_bg, gcut_i_seg_session_gmm(s, 0), sizeof before_bg);
    gcut_seg_session_free(s);

    /* A class whose pixels change by more than half is fitted afresh: with
     * foreground seeds only the background learns from every unknown
     * pixel; once background seeds come it learns from them, exactly as
     * a new session on the final seeds (same models, same mask). */
    strokes(w, h, seeds);
    uint8_t *fgonly = malloc(n);
    for (int64_t q = 0; q < n; q++)
        fgonly[q] = seeds[q] == GCUT_SEED_FG ? GCUT_SEED_FG : GCUT_SEED_UNKNOWN;
    assert_int_equal(gcut_seg_session_new(&s, img, fgonly, &p), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(s, mask, NULL), GCUT_OK);
    assert_int_equal(gcut_seg_session_set_seeds(s, seeds), GCUT_OK);
    assert_int_equal(gcut_seg_session_update_models(s, mask, &st), GCUT_OK);
    assert_null(gcut_i_seg_session_moments(s, 0)); /* re-fitted: summed at the next update */
    gcut_seg_session *c = NULL;
    assert_int_equal(gcut_seg_session_new(&c, img, seeds, &p), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(c, again, NULL), GCUT_OK);
    assert_memory_equal(gcut_i_seg_session_gmm(s, 0), gcut_i_seg_session_gmm(c, 0),
                        sizeof(gcut_i_gmm));
    assert_memory_equal(gcut_i_seg_session_gmm(s, 1), gcut_i_seg_session_gmm(c, 1),
                        sizeof(gcut_i_gmm));
    assert_memory_equal(mask, again, n);
    gcut_seg_session_free(c);
    gcut_seg_session_free(s);
    free(fgonly);

    /* After GrabCut the models learn from the labels: a stroke, a warm
     * solve, then the update moves the pixels whose label changed. */
    assert_int_equal(gcut_seeds_from_rect(w, h, 8, 8, w - 16, h - 16, seeds), GCUT_OK);
    assert_int_equal(gcut_seg_session_new(&s, img, seeds, &p), GCUT_OK);
    assert_int_equal(gcut_seg_session_grabcut(s, 3, mask, NULL), GCUT_OK);
    for (int round = 0; round < 2; round++) {
        int32_t k = 0;
        for (int32_t y = 40; y < 44; y++)
            for (int32_t x = 20 + 30 * round; x < 30 + 30 * round; x++)
                px[k++] = y * w + x;
        const uint8_t label = round ? GCUT_SEED_FG : GCUT_SEED_BG;
        assert_int_equal(gcut_seg_session_add_stroke(s, label, px, k), GCUT_OK);
        for (int32_t i = 0; i < k; i++)
            seeds[px[i]] = label;
        if (round == 0)
            assert_int_equal(gcut_seg_session_solve(s, mask, NULL), GCUT_OK);
        const uint8_t *lab_mask = mask;
        uint8_t *want = malloc(n);
        for (int64_t q = 0; q < n; q++)
            want[q] = seeds[q] ? seeds[q] : lab_mask[q] ? GCUT_SEED_FG : GCUT_SEED_BG;
        assert_int_equal(gcut_seg_session_update_models(s, mask, &st), GCUT_OK);
        assert_memory_equal(gcut_i_seg_session_members(s), want, n);
        free(want);
        check_update_state(s, rgb, n);
        check_data_costs(s, rgb, seeds, w, h);
        check_energy(s, &st, mask, n);
        check_min_cut(s, &st, mask, w, h);
        assert_true(error_rate(mask, truth, n) < 0.03);
    }
    gcut_seg_session_free(s);

    /* Histogram models are re-counted; the mask is a valid cut. */
    strokes(w, h, seeds);
    p.model = GCUT_SEG_HISTOGRAM;
    assert_int_equal(gcut_seg_session_new(&s, img, seeds, &p), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(s, mask, NULL), GCUT_OK);
    assert_int_equal(gcut_seg_session_add_stroke(s, GCUT_SEED_BG, px, 10), GCUT_OK);
    assert_int_equal(gcut_seg_session_update_models(s, mask, &st), GCUT_OK);
    check_energy(s, &st, mask, n);
    check_min_cut(s, &st, mask, w, h);
    assert_true(error_rate(mask, truth, n) < 0.03);
    gcut_seg_session_free(s);
    assert_int_equal(gcut_seg_session_update_models(NULL, mask, NULL), GCUT_ERR_INVALID);
    free(rgb);
    gcut_image_free(img);
    free(truth);
    free(seeds);
    free(mask);
    free(again);
}

/* gcut_i_seed_box against the pixel-by-pixel definition (the bounding
 * box of the unknown pixels, empty when there is none): random seeds of
 * every density, rows without an unknown pixel, and one unknown pixel at
 * each end of a row. */
static void test_seed_box(void **state)
{
    (void)state;
    srand(11);
    for (int trial = 0; trial < 300; trial++) {
        const int32_t w = 1 + rand() % 40, h = 1 + rand() % 30;
        uint8_t *sd = malloc((size_t)w * h);
        const int dens = trial % 6; /* 0: no unknown pixel .. 5: mostly unknown */
        for (int32_t i = 0; i < w * h; i++)
            sd[i] = rand() % 6 < dens ? GCUT_SEED_UNKNOWN : (uint8_t)(1 + rand() % 2);
        if (trial % 7 == 0)
            sd[(rand() % h) * w + (trial % 2 ? 0 : w - 1)] = GCUT_SEED_UNKNOWN;
        int32_t x0 = w, x1 = -1, y0 = h, y1 = -1;
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++)
                if (sd[y * w + x] == GCUT_SEED_UNKNOWN) {
                    x0 = x < x0 ? x : x0;
                    x1 = x > x1 ? x : x1;
                    y0 = y < y0 ? y : y0;
                    y1 = y;
                }
        const gcut_i_box b = gcut_i_seed_box(sd, w, h);
        if (x1 < 0) {
            assert_true(b.x0 == 0 && b.y0 == 0 && b.w == 0 && b.h == 0);
        } else {
            assert_int_equal(b.x0, x0);
            assert_int_equal(b.y0, y0);
            assert_int_equal(b.w, x1 - x0 + 1);
            assert_int_equal(b.h, y1 - y0 + 1);
        }
        free(sd);
    }
}

/* The update's pass moves only the pixels whose class changed (whole
 * 8-byte words of equal classes are skipped): on an image whose pixel
 * count is not a multiple of 8, strokes on the last pixels, across word
 * boundaries and single pixels, each released. After every update: the
 * members are the seeds, each pixel that moved into a kept class got the
 * most likely component of that class's model before the update (the
 * assignment step), the kept moments equal those summed afresh and the
 * models a full learning from them (bit for bit), the data costs a full
 * pass, and the mask the reference engine's minimum cut. Finally a stroke
 * that changes the background by more than half re-fits it exactly as a
 * new session on the same seeds. */
static void test_session_update_models_ragged(void **state)
{
    (void)state;
    const int32_t w = 123, h = 77; /* n = 9471 = 8 * 1183 + 7 */
    const int64_t n = (int64_t)w * h;
    uint8_t *truth = malloc(n), *seeds = malloc(n), *mask = malloc(n), *again = malloc(n);
    uint8_t *before = malloc(n);
    gcut_image *img = scene(w, h, 18.0, truth);
    float *rgb = NULL;
    assert_int_equal(gcut_i_seg_rgb("test", img, &rgb), GCUT_OK);
    strokes(w, h, seeds);
    gcut_seg_options p;
    gcut_seg_options_init(&p);
    p.solve.backend = "cpu-bk";
    gcut_seg_session *s = NULL;
    assert_int_equal(gcut_seg_session_new(&s, img, seeds, &p), GCUT_OK);
    gcut_seg_stats st;
    assert_int_equal(gcut_seg_session_solve(s, mask, &st), GCUT_OK);
    int32_t px[64];
    for (int round = 0; round < 8; round++) {
        int32_t k = 0;
        uint8_t label = round % 2 ? GCUT_SEED_FG : GCUT_SEED_BG;
        if (round == 0 || round == 4) {
            for (int64_t q = n - 7; q < n; q++) /* the tail after the last word */
                px[k++] = (int32_t)q;
        } else if (round == 1) {
            for (int32_t x = 40; x < 45; x++) /* inside the disc, across a word */
                px[k++] = (h / 2 + 1) * w + x;
        } else if (round == 2) {
            for (int32_t i = 0; i < 9; i++) /* bytes 8i + 7 and 8i + 8 */
                px[k++] = 20 * w + 8 * i + 7 + (i % 2);
        } else if (round == 3) {
            px[k++] = (int32_t)(n / 2); /* one pixel */
        } else if (round == 5) {
            label = GCUT_SEED_UNKNOWN; /* erase part of round 1 */
            for (int32_t x = 40; x < 43; x++)
                px[k++] = (h / 2 + 1) * w + x;
        } else if (round == 6) {
            for (int32_t x = 0; x < 16; x++) /* the first two words */
                px[k++] = x;
        } else {
            label = GCUT_SEED_FG;
            for (int32_t y = h / 2 - 2; y < h / 2 + 2; y++)
                for (int32_t x = (int32_t)(w * 0.75) - 3; x < (int32_t)(w * 0.75) + 3; x++)
                    px[k++] = y * w + x;
        }
        assert_true(k <= 64);
        memcpy(before, gcut_i_seg_session_members(s), (size_t)n);
        const gcut_i_gmm old[2] = {*gcut_i_seg_session_gmm(s, 0), *gcut_i_seg_session_gmm(s, 1)};
        const int kept[2] = {gcut_i_seg_session_moments(s, 0) != NULL,
                             gcut_i_seg_session_moments(s, 1) != NULL};
        assert_int_equal(gcut_seg_session_add_stroke(s, label, px, k), GCUT_OK);
        for (int32_t i = 0; i < k; i++)
            seeds[px[i]] = label;
        assert_int_equal(gcut_seg_session_update_models(s, mask, &st), GCUT_OK);
        assert_memory_equal(gcut_i_seg_session_members(s), seeds, n);
        const uint8_t *mc = gcut_i_seg_session_member_comp(s);
        for (int64_t q = 0; q < n; q++) {
            const uint8_t m = seeds[q];
            /* Kept before and after (not re-fitted: a class that changed
             * by more than half takes the fit's components). */
            if (m == GCUT_SEED_UNKNOWN || m == before[q] || !kept[m == GCUT_SEED_FG] ||
                !gcut_i_seg_session_moments(s, m == GCUT_SEED_FG))
                continue;
            uint8_t best = 255;
            float nll;
            gcut_i_gmm_nll_run(&old[m == GCUT_SEED_FG], rgb + 3 * q, 1, &nll, &best);
            assert_int_equal(mc[q], best);
        }
        check_update_state(s, rgb, n);
        check_data_costs(s, rgb, seeds, w, h);
        check_min_cut(s, &st, mask, w, h);
        check_energy(s, &st, mask, n);
        assert_true(error_rate(mask, truth, n) < 0.03);
    }
    /* The background's seeds replaced by a few strokes on its other side:
     * more than half of its pixels move, and it is fitted afresh. */
    for (int64_t q = 0; q < n; q++)
        if (seeds[q] == GCUT_SEED_BG)
            seeds[q] = GCUT_SEED_UNKNOWN;
    for (int32_t x = 3; x < 30; x++)
        seeds[(int64_t)(h - 4) * w + x] = GCUT_SEED_BG;
    assert_int_equal(gcut_seg_session_set_seeds(s, seeds), GCUT_OK);
    assert_int_equal(gcut_seg_session_update_models(s, mask, &st), GCUT_OK);
    assert_null(gcut_i_seg_session_moments(s, 0));
    gcut_seg_session *c = NULL;
    assert_int_equal(gcut_seg_session_new(&c, img, seeds, &p), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(c, again, NULL), GCUT_OK);
    assert_memory_equal(gcut_i_seg_session_gmm(s, 0), gcut_i_seg_session_gmm(c, 0),
                        sizeof(gcut_i_gmm));
    gcut_seg_session_free(c);
    gcut_seg_session_free(s);
    free(rgb);
    gcut_image_free(img);
    free(truth);
    free(seeds);
    free(mask);
    free(again);
    free(before);
}

/* Colours that are not whole numbers (16-bit images): the moments are
 * summed afresh at each update, and the models are those of a full
 * learning from the kept assignment. */
static void test_session_update_models_16bit(void **state)
{
    (void)state;
    const int32_t w = 120, h = 90;
    const int64_t n = (int64_t)w * h;
    uint8_t *truth = malloc(n), *seeds = malloc(n), *mask = malloc(n);
    gcut_image *img8 = scene(w, h, 18.0, truth), *img = NULL;
    assert_int_equal(gcut_image_new(&img, w, h, 3, 16), GCUT_OK);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < 3 * w; x++) {
            const uint8_t v = img8->data[(size_t)y * img8->stride + x];
            ((uint16_t *)(void *)(img->data + (size_t)y * img->stride))[x] =
                (uint16_t)(v * 257 + (x % 7) * 13);
        }
    float *rgb = NULL;
    assert_int_equal(gcut_i_seg_rgb("test", img, &rgb), GCUT_OK);
    strokes(w, h, seeds);
    gcut_seg_session *s = NULL;
    assert_int_equal(gcut_seg_session_new(&s, img, seeds, NULL), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(s, mask, NULL), GCUT_OK);
    int32_t px[40];
    for (int32_t i = 0; i < 40; i++)
        px[i] = 6 * w + 5 + i;
    assert_int_equal(gcut_seg_session_add_stroke(s, GCUT_SEED_BG, px, 40), GCUT_OK);
    gcut_seg_stats st;
    assert_int_equal(gcut_seg_session_update_models(s, mask, &st), GCUT_OK);
    assert_null(gcut_i_seg_session_moments(s, 0));
    const uint8_t *member = gcut_i_seg_session_members(s);
    const uint8_t *mc = gcut_i_seg_session_member_comp(s);
    for (int fg = 0; fg < 1; fg++) { /* the background changed */
        const gcut_i_gmm *g = gcut_i_seg_session_gmm(s, fg);
        gcut_i_gmm full = *g;
        assert_int_equal(
            gcut_i_gmm_learn(&full, g->k, rgb, n, member, fg ? GCUT_SEED_FG : GCUT_SEED_BG, mc),
            GCUT_OK);
        assert_memory_equal(&full, g, sizeof full);
    }
    check_energy(s, &st, mask, n);
    assert_true(error_rate(mask, truth, n) < 0.02);
    gcut_seg_session_free(s);
    free(rgb);
    gcut_image_free(img);
    gcut_image_free(img8);
    free(truth);
    free(seeds);
    free(mask);
}

/* The update reports "model", then its cut's "build" and "solve"; a stop
 * at either leaves mask and stats untouched and a session whose next
 * update gives the uninterrupted result. */
static void test_session_update_cancel(void **state)
{
    (void)state;
    const int32_t w = 100, h = 80;
    const int64_t n = (int64_t)w * h;
    uint8_t *truth = malloc(n), *seeds = malloc(n), *ref = malloc(n), *mask = malloc(n);
    gcut_image *img = scene(w, h, 30.0, truth);
    strokes(w, h, seeds);
    int32_t px[30];
    for (int32_t i = 0; i < 30; i++)
        px[i] = 20 * w + 5 + i;
    gcut_seg_session *s = NULL;
    assert_int_equal(gcut_seg_session_new(&s, img, seeds, NULL), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(s, ref, NULL), GCUT_OK);
    assert_int_equal(gcut_seg_session_add_stroke(s, GCUT_SEED_BG, px, 30), GCUT_OK);
    assert_int_equal(gcut_seg_session_update_models(s, ref, NULL), GCUT_OK);
    gcut_seg_session_free(s);

    static const char *const stops[2] = {"model", "solve"};
    for (int i = 0; i < 2; i++) {
        prog_seen sn;
        memset(&sn, 0, sizeof sn);
        gcut_seg_options p;
        gcut_seg_options_init(&p);
        p.solve.progress = on_progress;
        p.solve.progress_user = &sn;
        assert_int_equal(gcut_seg_session_new(&s, img, seeds, &p), GCUT_OK);
        assert_int_equal(gcut_seg_session_solve(s, mask, NULL), GCUT_OK);
        assert_int_equal(gcut_seg_session_add_stroke(s, GCUT_SEED_BG, px, 30), GCUT_OK);
        memset(&sn, 0, sizeof sn);
        sn.stop_phase = stops[i];
        sn.stop_step = 0;
        memset(mask, 0x77, (size_t)n);
        gcut_seg_stats st, untouched;
        memset(&untouched, 0x5a, sizeof untouched);
        st = untouched;
        assert_int_equal(gcut_seg_session_update_models(s, mask, &st), GCUT_ERR_INTERRUPTED);
        assert_non_null(strstr(gcut_last_error(), "gcut_seg_session_update_models"));
        assert_int_equal(sn.stops, 1);
        assert_string_equal(sn.phase[0], "model");
        for (int64_t q = 0; q < n; q++)
            assert_int_equal(mask[q], 0x77);
        assert_memory_equal(&st, &untouched, sizeof st);
        sn.stop_phase = NULL;
        memset(&sn, 0, sizeof sn);
        assert_int_equal(gcut_seg_session_update_models(s, mask, NULL), GCUT_OK);
        assert_memory_equal(mask, ref, n);
        assert_string_equal(sn.phase[0], "model");
        assert_string_equal(sn.phase[sn.count - 1], "solve");
        gcut_seg_session_free(s);
    }
    gcut_image_free(img);
    free(truth);
    free(seeds);
    free(ref);
    free(mask);
}

/* GrabCut iterations re-solve warm on the same grid (only t-links move:
 * the scale does not depend on the models), and each warm cut is the
 * minimum cut: cpu-ref on the session's grid gives the same labels. */
static void test_grabcut_warm_iterations(void **state)
{
    (void)state;
    const int32_t w = 110, h = 84;
    const int64_t n = (int64_t)w * h;
    uint8_t *truth = malloc(n), *seeds = malloc(n), *mask = malloc(n);
    gcut_image *img = scene(w, h, 40.0, truth);
    assert_int_equal(gcut_seeds_from_rect(w, h, 6, 5, w - 12, h - 10, seeds), GCUT_OK);
    gcut_seg_options p;
    gcut_seg_options_init(&p);
    p.solve.backend = "cpu-bk";
    gcut_seg_session *s = NULL;
    assert_int_equal(gcut_seg_session_new(&s, img, seeds, &p), GCUT_OK);
    gcut_result *ref = NULL;
    assert_int_equal(gcut_result_new(&ref), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-ref";
    double scale = 0.0;
    int warm = 0;
    for (int it = 0; it < 4; it++) {
        gcut_seg_stats st;
        assert_int_equal(gcut_seg_session_grabcut(s, 1, mask, &st), GCUT_OK);
        if (it == 0)
            scale = st.scale;
        assert_true(st.scale == scale);
        warm += st.warm_start;
        const gcut_grid *g = gcut_seg_session_grid(s);
        assert_non_null(g);
        /* The grid is the rectangle; every box pixel's t-links are one-sided
         * and at most 1 + the node's arcs (the clamp of energy.c). */
        assert_int_equal(gcut_grid_width(g), w - 12);
        const int32_t nb = gcut_grid_num_nodes(g);
        for (int32_t v = 0; v < nb; v++) {
            const int32_t src = gcut_grid_caps(g, GCUT_GRID_SOURCE_LINK)[v];
            const int32_t snk = gcut_grid_caps(g, GCUT_GRID_SINK_LINK)[v];
            int64_t arcs = 1;
            for (int32_t d = 0; d < 8; d++)
                arcs += gcut_grid_caps(g, d)[v];
            assert_true(src == 0 || snk == 0);
            assert_true(src <= arcs && snk <= arcs);
        }
        /* A copy of the grid (so that the session's kept state stays) cut
         * by the reference engine. */
        gcut_grid *copy = NULL;
        assert_int_equal(gcut_grid_new(&copy, gcut_grid_width(g), gcut_grid_height(g), 1, 8),
                         GCUT_OK);
        for (int32_t d = 0; d < 8; d++)
            assert_int_equal(gcut_grid_set_caps(copy, d, gcut_grid_caps(g, d)), GCUT_OK);
        assert_int_equal(gcut_grid_set_terminal_caps(copy, gcut_grid_caps(g, GCUT_GRID_SOURCE_LINK),
                                                 gcut_grid_caps(g, GCUT_GRID_SINK_LINK)),
                         GCUT_OK);
        assert_int_equal(gcut_grid_solve(copy, &opt, ref), GCUT_OK);
        assert_true(gcut_result_flow(ref) == st.flow);
        const uint8_t *cut = gcut_result_cut(ref);
        for (int32_t y = 5; y < h - 5; y++)
            for (int32_t x = 6; x < w - 6; x++) {
                const uint8_t want = cut[(y - 5) * (w - 12) + (x - 6)] == GCUT_SOURCE ? 255 : 0;
                assert_int_equal(mask[(int64_t)y * w + x], want);
            }
        gcut_grid_free(copy);
    }
    assert_true(warm >= 2); /* iterations 2.. re-solve warm */
    assert_true(error_rate(mask, truth, n) < 0.05);
    gcut_result_free(ref);
    gcut_seg_session_free(s);
    gcut_image_free(img);
    free(truth);
    free(seeds);
    free(mask);
}

/* The batched GMM evaluation (polynomial exp and log) agrees with the
 * per-pixel one (libm's expf and logf), over typical colours and extreme
 * ones, to float precision. */
static void test_gmm_nll_run(void **state)
{
    (void)state;
    const int64_t n = 3000;
    float *rgb = malloc(3 * n * sizeof(float)), *nll = malloc(n * sizeof(float));
    uint8_t *sel = malloc(n), *best = malloc(n);
    for (int64_t p = 0; p < n; p++) {
        const int cl = (int)(p % 3);
        for (int c = 0; c < 3; c++)
            rgb[3 * p + c] = (float)c8(60.0 * cl + 40.0 * c + 25.0 * gauss());
        if (p % 97 == 0)
            for (int c = 0; c < 3; c++)
                rgb[3 * p + c] = (p / 97) % 2 ? 255.0f : 0.0f; /* far from every mean */
        sel[p] = 1;
    }
    for (int32_t k = 1; k <= 6; k += 5) {
        gcut_i_gmm g;
        assert_int_equal(gcut_i_gmm_fit(&g, k, rgb, n, sel, 1, 2, NULL), GCUT_OK);
        gcut_i_gmm_nll_run(&g, rgb, n, nll, best);
        for (int64_t p = 0; p < n; p++) {
            uint8_t b1;
            const float want = gcut_i_gmm_nll(&g, rgb + 3 * p, &b1);
            assert_true(fabsf(nll[p] - want) <= 1e-5f * (1.0f + fabsf(want)));
            /* The component terms are the same float expressions, so the
             * most likely component is the same one. */
            assert_int_equal(best[p], b1);
        }
    }
    free(rgb);
    free(nll);
    free(sel);
    free(best);
}

/* gcut_i_gmm_learn_both: the same models, bit for bit, as two
 * gcut_i_gmm_learn calls; a class without pixels keeps its model. */
static void test_gmm_learn_both(void **state)
{
    (void)state;
    const int64_t n = 5000;
    const int32_t k = 5;
    float *rgb = malloc(3 * n * sizeof(float));
    uint8_t *label = malloc(n), *c0 = malloc(n), *c1 = malloc(n), *comp = malloc(n);
    srand(7);
    for (int64_t p = 0; p < n; p++) {
        for (int c = 0; c < 3; c++)
            rgb[3 * p + c] = (float)c8(128.0 + 60.0 * gauss());
        label[p] = (uint8_t)(rand() % 3 == 0);
        c0[p] = (uint8_t)(rand() % k);
        c1[p] = (uint8_t)(rand() % (k + 1)); /* k: out of range, counted as 0 */
        comp[p] = label[p] ? c1[p] : c0[p];
    }
    gcut_i_gmm seed;
    assert_int_equal(gcut_i_gmm_fit(&seed, k, rgb, n, label, 1, 1, NULL), GCUT_OK);
    gcut_i_gmm both[2] = {seed, seed}, one[2] = {seed, seed};
    gcut_i_gmm_learn_both(both, k, rgb, n, label, c0, c1);
    assert_int_equal(gcut_i_gmm_learn(&one[1], k, rgb, n, label, 1, comp), GCUT_OK);
    assert_int_equal(gcut_i_gmm_learn(&one[0], k, rgb, n, label, 0, comp), GCUT_OK);
    assert_memory_equal(&both[0], &one[0], sizeof one[0]);
    assert_memory_equal(&both[1], &one[1], sizeof one[1]);
    /* No foreground pixel: the foreground model stays as it was. */
    memset(label, 0, (size_t)n);
    gcut_i_gmm_learn_both(both, k, rgb, n, label, c0, c1);
    assert_memory_equal(&both[1], &one[1], sizeof one[1]);
    assert_int_equal(gcut_i_gmm_learn(&one[0], k, rgb, n, label, 0, c0), GCUT_OK);
    assert_memory_equal(&both[0], &one[0], sizeof one[0]);
    free(rgb);
    free(label);
    free(c0);
    free(c1);
    free(comp);
}

/* gcut_i_energy_smooth (which skips words of equal labels) against the
 * pair terms summed pixel by pixel in the same order: the same double,
 * for labels of any byte values, widths around the word size, both
 * connectivities. */
static void test_energy_smooth(void **state)
{
    (void)state;
    static const int32_t dx[4] = {1, 0, 1, 1}, dy[4] = {0, 1, 1, -1};
    srand(11);
    for (int32_t w = 1; w <= 19; w += 3)
        for (int32_t conn = 4; conn <= 8; conn += 4) {
            const int32_t h = 7;
            const int64_t n = (int64_t)w * h;
            float *rgb = malloc(3 * n * sizeof(float));
            uint8_t *label = malloc(n);
            for (int64_t p = 0; p < 3 * n; p++)
                rgb[p] = (float)(rand() % 256);
            gcut_i_energy e;
            memset(&e, 0, sizeof e);
            e.width = w;
            e.height = h;
            e.connectivity = conn;
            e.n = n;
            e.lambda = 50.0;
            e.beta = gcut_i_seg_beta(rgb, w, h, conn);
            assert_int_equal(gcut_i_energy_smoothness(&e, rgb), GCUT_OK);
            for (int round = 0; round < 4; round++) {
                for (int64_t p = 0; p < n; p++) /* runs of equal labels, some 0/255 */
                    label[p] = round == 0 ? 1 : rand() % 9 == 0 ? (uint8_t)(rand() % 3 * 127)
                                          : p > 0 ? label[p - 1] : 0;
                double want = 0.0;
                for (int32_t j = 0; j < conn / 2; j++)
                    for (int32_t y = 0; y < h; y++)
                        for (int32_t x = 0; x < w; x++) {
                            const int32_t xx = x + dx[j], yy = y + dy[j];
                            if (xx < 0 || xx >= w || yy < 0 || yy >= h)
                                continue;
                            const int64_t p = (int64_t)y * w + x, q = (int64_t)yy * w + xx;
                            if ((label[p] != 0) != (label[q] != 0))
                                want += e.pair[j][p];
                        }
                const double got = gcut_i_energy_smooth(&e, label);
                assert_memory_equal(&got, &want, sizeof got);
                if (round == 0)
                    assert_true(got == 0.0);
            }
            for (int32_t j = 0; j < conn / 2; j++)
                free(e.pair[j]);
            free(rgb);
            free(label);
        }
}

/* ------------------------------------------------------------- eval, seeds */

static void test_evaluate(void **state)
{
    (void)state;
    const uint8_t mask[6] = {255, 255, 0, 0, 255, 0};
    const uint8_t truth[6] = {255, 0, 0, 128, 255, 255};
    const uint8_t seeds[6] = {1, 0, 0, 0, 0, 0};
    gcut_seg_eval ev;
    assert_int_equal(gcut_seg_evaluate(mask, truth, NULL, 6, &ev), GCUT_OK);
    assert_int_equal(ev.counted, 5);
    assert_int_equal(ev.errors, 2);
    assert_int_equal(ev.intersection, 2);
    assert_int_equal(ev.union_, 4);
    assert_true(fabs(ev.error_rate - 0.4) < 1e-12 && fabs(ev.iou - 0.5) < 1e-12);
    assert_int_equal(gcut_seg_evaluate(mask, truth, seeds, 6, &ev), GCUT_OK);
    assert_int_equal(ev.counted, 4);
    assert_int_equal(ev.errors, 2);
    assert_int_equal(gcut_seg_evaluate(mask, truth, NULL, 0, &ev), GCUT_OK);
    assert_true(ev.error_rate == 0.0 && ev.iou == 1.0);
    assert_int_equal(gcut_seg_evaluate(NULL, truth, NULL, 6, &ev), GCUT_ERR_INVALID);
}

static void test_seeds(void **state)
{
    (void)state;
    uint8_t s[8];
    /* Gray: 255 fg, 0 and 64 bg, others unknown. */
    gcut_image *g = NULL;
    assert_int_equal(gcut_image_new(&g, 4, 1, 1, 8), GCUT_OK);
    const uint8_t gv[4] = {255, 0, 64, 128};
    memcpy(g->data, gv, 4);
    assert_int_equal(gcut_seeds_from_image(g, s), GCUT_OK);
    assert_int_equal(s[0], GCUT_SEED_FG);
    assert_int_equal(s[1], GCUT_SEED_BG);
    assert_int_equal(s[2], GCUT_SEED_BG);
    assert_int_equal(s[3], GCUT_SEED_UNKNOWN);
    gcut_image_free(g);
    /* Colour scribbles: yellow, red, black, green, blue, white, gray-ish. */
    assert_int_equal(gcut_image_new(&g, 7, 1, 3, 8), GCUT_OK);
    const uint8_t cv[21] = {255, 255, 207, 219, 0, 0, 0, 0, 0, 0, 200, 0,
                            0, 0, 230, 255, 255, 255, 90, 90, 91};
    memcpy(g->data, cv, 21);
    assert_int_equal(gcut_seeds_from_image(g, s), GCUT_OK);
    const uint8_t expect[7] = {1, 2, 0, 1, 2, 1, 0};
    assert_memory_equal(s, expect, 7);
    gcut_image_free(g);
    /* RGB whose pixels are all gray: gray rules (0 is background there). */
    assert_int_equal(gcut_image_new(&g, 3, 1, 3, 8), GCUT_OK);
    const uint8_t gg[9] = {0, 0, 0, 255, 255, 255, 128, 128, 128};
    memcpy(g->data, gg, 9);
    assert_int_equal(gcut_seeds_from_image(g, s), GCUT_OK);
    assert_int_equal(s[0], GCUT_SEED_BG);
    assert_int_equal(s[1], GCUT_SEED_FG);
    assert_int_equal(s[2], GCUT_SEED_UNKNOWN);
    gcut_image_free(g);
    /* RGBA: alpha 0 is unknown whatever the colour. */
    assert_int_equal(gcut_image_new(&g, 2, 1, 4, 8), GCUT_OK);
    const uint8_t ga[8] = {219, 0, 0, 0, 219, 0, 0, 255};
    memcpy(g->data, ga, 8);
    assert_int_equal(gcut_seeds_from_image(g, s), GCUT_OK);
    assert_int_equal(s[0], GCUT_SEED_UNKNOWN);
    assert_int_equal(s[1], GCUT_SEED_BG);
    gcut_image_free(g);
    /* Rectangles. */
    uint8_t r[12];
    assert_int_equal(gcut_seeds_from_rect(4, 3, 1, 1, 2, 1, r), GCUT_OK);
    for (int p = 0; p < 12; p++)
        assert_int_equal(r[p], (p == 5 || p == 6) ? GCUT_SEED_UNKNOWN : GCUT_SEED_BG);
    assert_int_equal(gcut_seeds_from_rect(4, 3, 0, 0, 4, 3, r), GCUT_ERR_INVALID);
    assert_int_equal(gcut_seeds_from_rect(4, 3, 3, 0, 2, 1, r), GCUT_ERR_INVALID);
    assert_int_equal(gcut_seeds_from_rect(4, 3, 0, 0, 0, 1, r), GCUT_ERR_INVALID);
    assert_int_equal(gcut_seeds_from_rect(4, 3, -1, 0, 1, 1, r), GCUT_ERR_INVALID);
}

static void test_bad_input(void **state)
{
    (void)state;
    const int32_t w = 20, h = 10;
    uint8_t truth[200], seeds[200], mask[200];
    gcut_image *img = scene(w, h, 5.0, truth);
    strokes(w, h, seeds);
    memset(mask, 77, sizeof mask);
    gcut_seg_options p;
    gcut_seg_options_init(&p);
    assert_int_equal(gcut_segment(NULL, seeds, &p, mask, NULL), GCUT_ERR_INVALID);
    assert_int_equal(gcut_segment(img, NULL, &p, mask, NULL), GCUT_ERR_INVALID);
    assert_int_equal(gcut_segment(img, seeds, &p, NULL, NULL), GCUT_ERR_INVALID);
    p.connectivity = 6;
    assert_int_equal(gcut_segment(img, seeds, &p, mask, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "connectivity"));
    gcut_seg_options_init(&p);
    p.lambda = -1;
    assert_int_equal(gcut_segment(img, seeds, &p, mask, NULL), GCUT_ERR_INVALID);
    gcut_seg_options_init(&p);
    p.components = 0;
    assert_int_equal(gcut_segment(img, seeds, &p, mask, NULL), GCUT_ERR_INVALID);
    gcut_seg_options_init(&p);
    p.struct_size = 0;
    assert_int_equal(gcut_segment(img, seeds, &p, mask, NULL), GCUT_ERR_INVALID);
    gcut_seg_options_init(&p);
    p.solve.backend = "no-such-backend";
    assert_int_equal(gcut_segment(img, seeds, &p, mask, NULL), GCUT_ERR_NOT_FOUND);
    gcut_seg_options_init(&p);
    p.device_energies = 2;
    assert_int_equal(gcut_segment(img, seeds, &p, mask, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "device_energies"));
    gcut_seg_options_init(&p);
    p.solve.threads = -1;
    assert_int_equal(gcut_segment(img, seeds, &p, mask, NULL), GCUT_ERR_INVALID);
    gcut_seg_options_init(&p);
    p.solve.struct_size = 0;
    assert_int_equal(gcut_segment(img, seeds, &p, mask, NULL), GCUT_ERR_INVALID);
    uint8_t bad[200];
    memcpy(bad, seeds, 200);
    bad[17] = 3;
    assert_int_equal(gcut_segment(img, bad, NULL, mask, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "pixel 17"));
    memset(bad, GCUT_SEED_UNKNOWN, 200);
    assert_int_equal(gcut_segment(img, bad, NULL, mask, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "no seeds"));
    memset(bad, GCUT_SEED_BG, 200);
    assert_int_equal(gcut_segment(img, bad, NULL, mask, NULL), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grabcut(img, seeds, 0, NULL, mask, NULL), GCUT_ERR_INVALID);
    /* Nothing written on failure. */
    for (int i = 0; i < 200; i++)
        assert_int_equal(mask[i], 77);
    gcut_image broken = *img;
    broken.channels = 2;
    assert_int_equal(gcut_segment(&broken, seeds, NULL, mask, NULL), GCUT_ERR_INVALID);
    gcut_seg_session *s = NULL;
    assert_int_equal(gcut_seg_session_new(&s, img, seeds, NULL), GCUT_OK);
    int32_t px[2] = {0, 200};
    assert_int_equal(gcut_seg_session_add_stroke(s, GCUT_SEED_FG, px, 2), GCUT_ERR_INVALID);
    assert_int_equal(gcut_seg_session_add_stroke(s, 7, px, 1), GCUT_ERR_INVALID);
    assert_int_equal(gcut_seg_session_grabcut(s, 0, mask, NULL), GCUT_ERR_INVALID);
    gcut_seg_session_free(s);
    gcut_image_free(img);
}

/* The embedded solve options reach the engine as they are: its settings
 * (an unknown key is the engine's error), the log callback and verbosity;
 * a session keeps its own copies of the back-end and settings strings;
 * device_energies = 0 changes nothing on the CPU. */
typedef struct log_seen {
    int info;
    int solves;
} log_seen;

static void on_log(void *user, gcut_log_level level, const char *msg)
{
    log_seen *l = user;
    if (level == GCUT_LOG_INFO)
        l->info++;
    if (strstr(msg, "gcut_grid_solve"))
        l->solves++;
}

static void test_solve_options(void **state)
{
    (void)state;
    const int32_t w = 40, h = 30;
    const int64_t n = (int64_t)w * h;
    uint8_t *truth = malloc(n), *seeds = malloc(n), *mask = malloc(n), *ref = malloc(n);
    gcut_image *img = scene(w, h, 10.0, truth);
    strokes(w, h, seeds);
    gcut_seg_options p;
    gcut_seg_options_init(&p);
    assert_int_equal(p.device_energies, 1);
    assert_int_equal(p.solve.struct_size, sizeof(gcut_solve_options));
    assert_string_equal(p.solve.backend, "auto");
    p.solve.backend = "cpu-bk";
    assert_int_equal(gcut_segment(img, seeds, &p, ref, NULL), GCUT_OK);
    /* Engine settings: an unknown key is refused by the engine, by name;
     * none (empty) is the defaults. */
    p.solve.params = "no_such_key=1";
    assert_int_equal(gcut_segment(img, seeds, &p, mask, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "no_such_key"));
    p.solve.params = "";
    assert_int_equal(gcut_segment(img, seeds, &p, mask, NULL), GCUT_OK);
    assert_memory_equal(ref, mask, n);
    /* The log callback and verbosity: the grid solves report there. */
    log_seen seen = {0, 0};
    p.solve.params = NULL;
    p.solve.log = on_log;
    p.solve.log_user = &seen;
    p.solve.verbosity = 2;
    assert_int_equal(gcut_segment(img, seeds, &p, mask, NULL), GCUT_OK);
    assert_true(seen.solves >= 1);
    assert_memory_equal(ref, mask, n);
    seen.info = seen.solves = 0;
    p.solve.verbosity = 0;
    assert_int_equal(gcut_segment(img, seeds, &p, mask, NULL), GCUT_OK);
    assert_int_equal(seen.info, 0);
    /* The session copies the strings: the caller's may change. */
    char be[16] = "cpu-bk", prm[32] = "";
    p.solve.backend = be;
    p.solve.params = prm;
    p.solve.log = NULL;
    p.device_energies = 0;
    gcut_seg_session *s = NULL;
    assert_int_equal(gcut_seg_session_new(&s, img, seeds, &p), GCUT_OK);
    strcpy(be, "nope");
    strcpy(prm, "no_such_key=1");
    gcut_seg_stats st;
    assert_int_equal(gcut_seg_session_solve(s, mask, &st), GCUT_OK);
    assert_string_equal(st.backend, "cpu-bk");
    assert_int_equal(st.energy_device, 0);
    assert_memory_equal(ref, mask, n);
    gcut_seg_session_free(s);
    gcut_image_free(img);
    free(truth);
    free(seeds);
    free(mask);
    free(ref);
}

/* ------------------------------------------------------------- dataset */

static int file_exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

static uint8_t *load_gray(const char *path, int32_t w, int32_t h)
{
    gcut_image *img = NULL, *gray = NULL;
    assert_int_equal(gcut_image_load(path, &img), GCUT_OK);
    assert_int_equal(gcut_image_to_gray(img, &gray), GCUT_OK);
    assert_int_equal(gray->width, w);
    assert_int_equal(gray->height, h);
    uint8_t *b = malloc((size_t)w * h);
    for (int32_t y = 0; y < h; y++)
        memcpy(b + (size_t)y * w, gray->data + (size_t)y * gray->stride, (size_t)w);
    gcut_image_free(gray);
    gcut_image_free(img);
    return b;
}

/* Three PNG images of the GrabCut set with their index.csv boxes and 5
 * iterations: each error below 10% (the full benchmark is bench/). Then
 * one cut from the set-1 scribbles of one image. */
static void test_grabcut_dataset(void **state)
{
    (void)state;
    const char *dir = GCUT_SHARED_DATA "/grabcut";
    char path[1024];
    snprintf(path, sizeof path, "%s/index.csv", dir);
    if (!file_exists(path) || !gcut_image_format_available("png")) {
        print_message("skipped: no GrabCut dataset at %s (or no PNG support)\n", dir);
        skip();
    }
    static const struct {
        const char *name;
        int32_t x0, y0, x1, y1;
    } cases[] = {{"banana2", 20, 53, 600, 448}, {"book", 58, 23, 617, 458},
                 {"person8", 212, 62, 465, 464}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gcut_image *img = NULL;
        snprintf(path, sizeof path, "%s/images/%s.png", dir, cases[i].name);
        assert_int_equal(gcut_image_load(path, &img), GCUT_OK);
        const int32_t w = img->width, h = img->height;
        const int64_t n = (int64_t)w * h;
        snprintf(path, sizeof path, "%s/gt/%s.png", dir, cases[i].name);
        uint8_t *truth = load_gray(path, w, h), *seeds = malloc(n), *mask = malloc(n);
        assert_int_equal(gcut_seeds_from_rect(w, h, cases[i].x0, cases[i].y0,
                                              cases[i].x1 - cases[i].x0 + 1,
                                              cases[i].y1 - cases[i].y0 + 1, seeds),
                         GCUT_OK);
        assert_int_equal(gcut_grabcut(img, seeds, 5, NULL, mask, NULL), GCUT_OK);
        const double err = error_rate(mask, truth, n);
        print_message("%s: GrabCut error %.2f%%\n", cases[i].name, 100.0 * err);
        assert_true(err < 0.10);
        if (i == 0) {
            gcut_image *pic = NULL;
            snprintf(path, sizeof path, "%s/scribbles_andrade_set1/%s.png", dir, cases[i].name);
            assert_int_equal(gcut_image_load(path, &pic), GCUT_OK);
            assert_int_equal(gcut_seeds_from_image(pic, seeds), GCUT_OK);
            gcut_image_free(pic);
            assert_int_equal(gcut_segment(img, seeds, NULL, mask, NULL), GCUT_OK);
            const double es = error_rate(mask, truth, n);
            print_message("%s: scribbles error %.2f%%\n", cases[i].name, 100.0 * es);
            assert_true(es < 0.10);
        }
        free(truth);
        free(seeds);
        free(mask);
        gcut_image_free(img);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gmm_two_clusters),
        cmocka_unit_test(test_gmm_fit_distinct_colours),
        cmocka_unit_test(test_colour_tables),
        cmocka_unit_test(test_gmm_flat_and_gray),
        cmocka_unit_test(test_histogram),
        cmocka_unit_test(test_beta),
        cmocka_unit_test(test_quantisation_brute_force),
        cmocka_unit_test(test_scale_budget),
        cmocka_unit_test(test_segment_scene),
        cmocka_unit_test(test_grabcut_scene),
        cmocka_unit_test(test_grabcut_progress_cancel),
        cmocka_unit_test(test_session_warm_equals_cold),
        cmocka_unit_test(test_grabcut_warm_iterations),
        cmocka_unit_test(test_session_update_models),
        cmocka_unit_test(test_session_update_models_16bit),
        cmocka_unit_test(test_session_update_models_ragged),
        cmocka_unit_test(test_seed_box),
        cmocka_unit_test(test_session_update_cancel),
        cmocka_unit_test(test_gmm_nll_run),
        cmocka_unit_test(test_gmm_learn_both),
        cmocka_unit_test(test_energy_smooth),
        cmocka_unit_test(test_evaluate),
        cmocka_unit_test(test_seeds),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_solve_options),
        cmocka_unit_test(test_grabcut_dataset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
