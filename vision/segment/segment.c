/*
 * segment.c - the one-call segmentation API: parameters, seeds from seed
 * pictures and rectangles, gcut_segment (one cut, Boykov & Jolly, ICCV
 * 2001) and gcut_grabcut (iterated cuts, Rother, Kolmogorov & Blake,
 * SIGGRAPH 2004). Both are thin wrappers over a session (session.c), so
 * the one-shot and interactive paths compute exactly the same thing.
 *
 * Seed-picture conventions (documented in segment.h and
 * docs/segmentation.md): gray 255 foreground, 0 and 64 background (the
 * MSRC trimaps), everything else unknown; in colour pictures yellow, white
 * and green mean foreground, red and blue background, anything else
 * (black ...) unknown. A colour picture whose pixels are all gray is read
 * with the gray rules, because a palette PNG or an RGB save of a gray seed
 * picture loads as RGB.
 */
#include <math.h>
#include <string.h>

#include "image/image_internal.h"
#include "segment/segment_internal.h"

/* 8-bit value of sample c of pixel x in a row. */
static inline int32_t sample8(const gcut_image *img, const uint8_t *row, int32_t x, int32_t c)
{
    const size_t i = (size_t)x * (size_t)img->channels + (size_t)c;
    if (img->depth == 8)
        return row[i];
    return ((const uint16_t *)(const void *)row)[i] >> 8;
}

static uint8_t gray_seed(int32_t v)
{
    if (v == 255)
        return GCUT_SEED_FG;
    if (v == 0 || v == 64)
        return GCUT_SEED_BG;
    return GCUT_SEED_UNKNOWN;
}

static uint8_t colour_seed(int32_t r, int32_t g, int32_t b)
{
    if (r >= 160 && g >= 160 && b < r - 24)
        return GCUT_SEED_FG; /* yellow: (255,255,207) in the Andrade-Carrera scribbles */
    if (r >= 224 && g >= 224 && b >= 224)
        return GCUT_SEED_FG; /* white */
    if (g >= 128 && r < 96 && b < 96)
        return GCUT_SEED_FG; /* green */
    if (r >= 128 && g < 96 && b < 96)
        return GCUT_SEED_BG; /* red: (219,0,0) */
    if (b >= 128 && r < 96 && g < 96)
        return GCUT_SEED_BG; /* blue */
    return GCUT_SEED_UNKNOWN;
}

gcut_status gcut_seeds_from_image(const gcut_image *pic, uint8_t *seeds)
{
    GCUT_ENTRY();
    if (!pic || !seeds)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    gcut_status st = gcut_i_image_check("gcut_seeds_from_image", pic);
    if (st != GCUT_OK)
        return st;
    const int32_t w = pic->width, h = pic->height, ch = pic->channels;
    int all_gray = 1;
    if (ch >= 3)
        for (int32_t y = 0; y < h && all_gray; y++) {
            const uint8_t *row = pic->data + (size_t)y * pic->stride;
            for (int32_t x = 0; x < w; x++) {
                const int32_t r = sample8(pic, row, x, 0);
                if (r != sample8(pic, row, x, 1) || r != sample8(pic, row, x, 2)) {
                    all_gray = 0;
                    break;
                }
            }
        }
    for (int32_t y = 0; y < h; y++) {
        const uint8_t *row = pic->data + (size_t)y * pic->stride;
        uint8_t *o = seeds + (int64_t)y * w;
        for (int32_t x = 0; x < w; x++) {
            if (ch == 4 && sample8(pic, row, x, 3) == 0)
                o[x] = GCUT_SEED_UNKNOWN;
            else if (ch == 1 || all_gray)
                o[x] = gray_seed(sample8(pic, row, x, 0));
            else
                o[x] = colour_seed(sample8(pic, row, x, 0), sample8(pic, row, x, 1),
                                   sample8(pic, row, x, 2));
        }
    }
    return GCUT_OK;
}

gcut_status gcut_seeds_from_rect(int32_t width, int32_t height, int32_t x, int32_t y, int32_t w,
                                 int32_t h, uint8_t *seeds)
{
    GCUT_ENTRY();
    if (!seeds)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL seeds");
    if (width < 1 || height < 1)
        return GCUT_FAIL(GCUT_ERR_INVALID, "image size %d x %d", (int)width, (int)height);
    if (w < 1 || h < 1 || x < 0 || y < 0 || (int64_t)x + w > width || (int64_t)y + h > height)
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "rectangle %d,%d %dx%d is empty or leaves the %d x %d image", (int)x,
                         (int)y, (int)w, (int)h, (int)width, (int)height);
    if (w == width && h == height)
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "rectangle covers the whole %d x %d image: no background left",
                         (int)width, (int)height);
    for (int32_t yy = 0; yy < height; yy++) {
        uint8_t *row = seeds + (int64_t)yy * width;
        const int inside_row = yy >= y && yy < y + h;
        for (int32_t xx = 0; xx < width; xx++)
            row[xx] = inside_row && xx >= x && xx < x + w ? GCUT_SEED_UNKNOWN : GCUT_SEED_BG;
    }
    return GCUT_OK;
}

gcut_status gcut_segment(const gcut_image *image, const uint8_t *seeds,
                         const gcut_seg_options *params, uint8_t *mask, gcut_seg_stats *stats)
{
    GCUT_ENTRY();
    if (!image || !seeds || !mask)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    gcut_seg_session *s = NULL;
    gcut_status st = gcut_seg_session_new(&s, image, seeds, params);
    if (st != GCUT_OK)
        return st;
    st = gcut_seg_session_solve(s, mask, stats);
    gcut_seg_session_free(s);
    return st;
}

gcut_status gcut_grabcut(const gcut_image *image, const uint8_t *seeds, int32_t iterations,
                         const gcut_seg_options *params, uint8_t *mask, gcut_seg_stats *stats)
{
    GCUT_ENTRY();
    if (!image || !seeds || !mask)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    if (iterations < 1 || iterations > 1000)
        return GCUT_FAIL(GCUT_ERR_INVALID, "iterations %d outside 1..1000", (int)iterations);
    gcut_seg_options dflt;
    if (!params) {
        gcut_grabcut_options_init(&dflt);
        params = &dflt;
    }
    gcut_seg_session *s = NULL;
    gcut_status st = gcut_i_seg_session_create(&s, image, seeds, params, "grabcut");
    if (st != GCUT_OK)
        return st;
    st = gcut_seg_session_grabcut(s, iterations, mask, stats);
    gcut_seg_session_free(s);
    return st;
}

void gcut_seg_options_init(gcut_seg_options *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->struct_size = sizeof *p;
    p->model = GCUT_SEG_GMM;
    p->components = 5;
    p->bins = 16;
    p->lambda = 50.0;
    p->connectivity = 8;
    p->device_energies = 1;
    gcut_solve_options_init(&p->solve);
}

void gcut_grabcut_options_init(gcut_seg_options *p)
{
    if (!p)
        return;
    gcut_seg_options_init(p);
    /* Lower than the 50 of one cut from seeds: the best mean error on the
     * GrabCut set from rectangles (5 and 10 iterations) and lasso trimaps
     * (bench/results/grabcut-default-2026-11-27f.md). */
    p->lambda = 35.0;
}

gcut_status gcut_i_seg_options(const char *func, const gcut_seg_options *in, gcut_seg_options *p)
{
    if (!in) {
        gcut_seg_options_init(p);
        return GCUT_OK;
    }
    if (in->struct_size != sizeof *in)
        return gcut_i_fail(GCUT_ERR_INVALID, func,
                           "params not set up by gcut_seg_options_init (struct_size %zu)",
                           in->struct_size);
    if (in->model != GCUT_SEG_GMM && in->model != GCUT_SEG_HISTOGRAM)
        return gcut_i_fail(GCUT_ERR_INVALID, func, "unknown colour model %d", (int)in->model);
    if (in->components < 1 || in->components > GCUT_I_GMM_MAX_K)
        return gcut_i_fail(GCUT_ERR_INVALID, func, "components %d outside 1..%d",
                           (int)in->components, GCUT_I_GMM_MAX_K);
    if (in->bins < 2 || in->bins > 64)
        return gcut_i_fail(GCUT_ERR_INVALID, func, "bins %d outside 2..64", (int)in->bins);
    if (!(in->lambda >= 0.0) || !isfinite(in->lambda))
        return gcut_i_fail(GCUT_ERR_INVALID, func, "lambda %g must be finite and >= 0",
                           in->lambda);
    if (in->connectivity != 4 && in->connectivity != 8)
        return gcut_i_fail(GCUT_ERR_INVALID, func, "connectivity %d (4 or 8)",
                           (int)in->connectivity);
    if (in->device_energies != 0 && in->device_energies != 1)
        return gcut_i_fail(GCUT_ERR_INVALID, func, "device_energies %d (0 or 1)",
                           (int)in->device_energies);
    if (in->solve.struct_size != sizeof in->solve)
        return gcut_i_fail(GCUT_ERR_INVALID, func,
                           "solve options not set up by gcut_seg_options_init (struct_size %zu)",
                           in->solve.struct_size);
    if (in->solve.threads < 0)
        return gcut_i_fail(GCUT_ERR_INVALID, func, "threads %d < 0", (int)in->solve.threads);
    *p = *in;
    return GCUT_OK;
}
