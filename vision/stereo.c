/*
 * stereo.c - data costs, contrast-sensitive weights and the graph-cut
 * disparity map of a rectified pair.
 *
 * S. Birchfield, C. Tomasi, "A pixel dissimilarity measure that is
 * insensitive to image sampling", IEEE PAMI 20(4), 1998: the left sample
 * is compared with the interval spanned by the right signal's linear
 * interpolation half a pixel either side (and the other way round), so
 * that sampling does not create cost where the continuous signals agree.
 * R. Zabih, J. Woodfill, "Non-parametric local transforms for computing
 * visual correspondence", ECCV 1994: the census transform (one bit per
 * window pixel: darker than the centre) compared by Hamming distance.
 * Y. Boykov, O. Veksler, R. Zabih, PAMI 2001, section 8: Potts smoothness
 * with a larger weight where the left image is smooth, so that disparity
 * edges follow intensity edges.
 *
 * Units: costs are 4 x intensity units (samples on 8 bits, mean over the
 * channels), so that the BT half-pixel bounds and the channel mean stay
 * integers to a quarter level; lambda is multiplied by 4 too.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"
#include "gcut/vision/stereo.h"

void gcut_stereo_params_init(gcut_stereo_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof(*p));
    p->struct_size = sizeof(*p);
    p->ndisp = 16;
    p->cost = GCUT_STEREO_BT;
    /* Truncated linear with lambda 5 and truncation 2: a real disparity
     * edge costs 2 x 5 = 10 (what Potts with lambda 10 charged), but the
     * one-level steps that quantise a slanted surface (venus, teddy) cost
     * half that, so they go where the data put them rather than where a
     * Potts penalty prefers fewer, misplaced steps. Measured on tsukuba,
     * venus and teddy (docs/stereo.md). */
    p->smooth = GCUT_STEREO_TL;
    p->lambda = 5;
    p->trunc = 20;
    p->tl_trunc = 2;
    p->contrast_threshold = 8;
    p->contrast_boost = 2;
    gcut_mrf_options_init(&p->mrf);
}

/* Sample c of pixel (x, y) on 8 bits; gray images repeat their one channel. */
static inline int32_t sample(const gcut_image *img, int32_t x, int32_t y, int32_t c)
{
    const int32_t ch = img->channels == 1 ? 0 : c;
    const uint8_t *row = img->data + (size_t)y * img->stride;
    if (img->depth == 16)
        return ((const uint16_t *)(const void *)row)[x * img->channels + ch] >> 8;
    return row[x * img->channels + ch];
}

static gcut_status check_pair(const gcut_image *l, const gcut_image *r,
                              const gcut_stereo_params *p)
{
    if (!l || !r || !p || !l->data || !r->data)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    if (p->struct_size != sizeof(*p))
        return GCUT_FAIL(GCUT_ERR_INVALID, "params not set up by gcut_stereo_params_init");
    if (l->width != r->width || l->height != r->height)
        return GCUT_FAIL(GCUT_ERR_INVALID, "left %d x %d and right %d x %d differ in size",
                         (int)l->width, (int)l->height, (int)r->width, (int)r->height);
    if (p->ndisp < 2 || p->ndisp > 1024)
        return GCUT_FAIL(GCUT_ERR_INVALID, "ndisp %d not in 2 .. 1024", (int)p->ndisp);
    if (p->lambda < 0 || p->lambda > 10000 || p->trunc < 1 || p->trunc > 1000 ||
        p->tl_trunc < 1 || p->contrast_boost < 1 || p->contrast_boost > 100)
        return GCUT_FAIL(GCUT_ERR_INVALID, "lambda, trunc, tl_trunc or contrast_boost out of range");
    return GCUT_OK;
}

/* Half-pixel interpolated bounds of a row signal at x: the min and max of
 * I(x), (I(x) + I(x-1)) / 2 and (I(x) + I(x+1)) / 2, in doubled units. */
static void bt_bounds(const int32_t *row2, int32_t w, int32_t x, int32_t *lo, int32_t *hi)
{
    const int32_t c = row2[x];
    const int32_t m = x > 0 ? (c + row2[x - 1]) / 2 : c;
    const int32_t p = x + 1 < w ? (c + row2[x + 1]) / 2 : c;
    int32_t a = c < m ? c : m, b = c > m ? c : m;
    *lo = a < p ? a : p;
    *hi = b > p ? b : p;
}

static inline int32_t bt_one(int32_t v, int32_t lo, int32_t hi)
{
    return v > hi ? v - hi : (v < lo ? lo - v : 0);
}

/* 5x5 census code of every pixel of a gray image (24 bits). */
static void census(const int32_t *g, int32_t w, int32_t h, uint32_t *code)
{
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            uint32_t bits = 0;
            const int32_t c = g[(size_t)y * w + x];
            for (int32_t dy = -2; dy <= 2; dy++)
                for (int32_t dx = -2; dx <= 2; dx++) {
                    if (!dx && !dy)
                        continue;
                    int32_t yy = y + dy, xx = x + dx;
                    yy = yy < 0 ? 0 : (yy >= h ? h - 1 : yy);
                    xx = xx < 0 ? 0 : (xx >= w ? w - 1 : xx);
                    bits = (bits << 1) | (uint32_t)(g[(size_t)yy * w + xx] < c);
                }
            code[(size_t)y * w + x] = bits;
        }
}

gcut_status gcut_stereo_data_cost(const gcut_image *left, const gcut_image *right,
                                  const gcut_stereo_params *p, int32_t *cost)
{
    gcut_status st = check_pair(left, right, p);
    if (st != GCUT_OK)
        return st;
    if (!cost)
        return GCUT_FAIL(GCUT_ERR_INVALID, "cost is NULL");
    const int32_t w = left->width, h = left->height, nd = p->ndisp;
    const int32_t cap = 4 * p->trunc;
    /* Doubled samples per channel (BT bounds are half-integers), and gray
     * for the census. */
    int32_t *L2 = gcut_i_malloc_array((int64_t)3 * w * h, sizeof(int32_t));
    int32_t *R2 = gcut_i_malloc_array((int64_t)3 * w * h, sizeof(int32_t));
    uint32_t *cl = NULL, *cr = NULL;
    if (!L2 || !R2) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
        goto done;
    }
    /* Channel-planar rows: plane c, row y at (c * h + y) * w. */
    for (int32_t c = 0; c < 3; c++)
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++) {
                L2[((size_t)c * h + y) * w + x] = 2 * sample(left, x, y, c);
                R2[((size_t)c * h + y) * w + x] = 2 * sample(right, x, y, c);
            }
    if (p->cost == GCUT_STEREO_CENSUS) {
        cl = gcut_i_malloc_array((int64_t)w * h, sizeof(uint32_t));
        cr = gcut_i_malloc_array((int64_t)w * h, sizeof(uint32_t));
        int32_t *gl = gcut_i_malloc_array((int64_t)w * h, sizeof(int32_t));
        int32_t *gr = gcut_i_malloc_array((int64_t)w * h, sizeof(int32_t));
        if (!cl || !cr || !gl || !gr) {
            gcut_i_free(gl);
            gcut_i_free(gr);
            st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
            goto done;
        }
        const size_t plane = (size_t)w * h;
        for (size_t i = 0; i < plane; i++) {
            gl[i] = (77 * L2[i] + 150 * L2[plane + i] + 29 * L2[2 * plane + i]) >> 9;
            gr[i] = (77 * R2[i] + 150 * R2[plane + i] + 29 * R2[2 * plane + i]) >> 9;
        }
        census(gl, w, h, cl);
        census(gr, w, h, cr);
        gcut_i_free(gl);
        gcut_i_free(gr);
    }
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            int32_t *out = cost + ((size_t)y * w + x) * nd;
            for (int32_t d = 0; d < nd; d++) {
                const int32_t xr = x - d < 0 ? 0 : x - d;
                int32_t sum = 0;
                if (p->cost == GCUT_STEREO_CENSUS) {
                    sum = 8 * __builtin_popcount(cl[(size_t)y * w + x] ^ cr[(size_t)y * w + xr]);
                    out[d] = sum;
                    continue;
                }
                for (int32_t c = 0; c < 3; c++) {
                    const int32_t *lr = L2 + ((size_t)c * h + y) * w;
                    const int32_t *rr = R2 + ((size_t)c * h + y) * w;
                    if (p->cost == GCUT_STEREO_AD) {
                        sum += abs(lr[x] - rr[xr]);
                    } else {
                        /* Symmetric BT: left sample against the right
                         * interval and right sample against the left one. */
                        int32_t lo, hi, lo2, hi2;
                        bt_bounds(rr, w, xr, &lo, &hi);
                        bt_bounds(lr, w, x, &lo2, &hi2);
                        const int32_t d1 = bt_one(lr[x], lo, hi), d2 = bt_one(rr[xr], lo2, hi2);
                        sum += d1 < d2 ? d1 : d2;
                    }
                }
                /* sum is 2 x the channel sum; 4 x the mean = sum * 2 / 3. */
                const int32_t v = (2 * sum + 1) / 3;
                out[d] = v < cap ? v : cap;
            }
        }
done:
    gcut_i_free(cl);
    gcut_i_free(cr);
    gcut_i_free(L2);
    gcut_i_free(R2);
    return st;
}

gcut_status gcut_stereo_weights(const gcut_image *left, const gcut_stereo_params *p,
                                int32_t *w_right, int32_t *w_down)
{
    gcut_status st = check_pair(left, left, p);
    if (st != GCUT_OK)
        return st;
    if (!w_right || !w_down)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    const int32_t w = left->width, h = left->height;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            int32_t dr = 0, dd = 0;
            for (int32_t c = 0; c < 3; c++) {
                const int32_t v = sample(left, x, y, c);
                if (x + 1 < w) {
                    int32_t a = abs(v - sample(left, x + 1, y, c));
                    dr = a > dr ? a : dr;
                }
                if (y + 1 < h) {
                    int32_t a = abs(v - sample(left, x, y + 1, c));
                    dd = a > dd ? a : dd;
                }
            }
            w_right[(size_t)y * w + x] = dr < p->contrast_threshold ? p->contrast_boost : 1;
            w_down[(size_t)y * w + x] = dd < p->contrast_threshold ? p->contrast_boost : 1;
        }
    return GCUT_OK;
}

gcut_status gcut_stereo_mrf(const gcut_image *left, const gcut_image *right,
                            const gcut_stereo_params *p, gcut_mrf **out)
{
    gcut_status st = check_pair(left, right, p);
    if (st != GCUT_OK)
        return st;
    if (!out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "out is NULL");
    const int64_t n = (int64_t)left->width * left->height;
    gcut_mrf *m = NULL;
    int32_t *cost = gcut_i_malloc_array(n * p->ndisp, sizeof(int32_t));
    int32_t *wr = gcut_i_malloc_array(n, sizeof(int32_t));
    int32_t *wd = gcut_i_malloc_array(n, sizeof(int32_t));
    if (!cost || !wr || !wd) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (%lld x %d costs)", (long long)n,
                       (int)p->ndisp);
        goto done;
    }
    st = gcut_mrf_new(&m, left->width, left->height, 1, 4, p->ndisp);
    if (st == GCUT_OK)
        st = gcut_stereo_data_cost(left, right, p, cost);
    if (st == GCUT_OK)
        st = gcut_mrf_set_unary(m, cost);
    if (st == GCUT_OK)
        st = gcut_stereo_weights(left, p, wr, wd);
    if (st == GCUT_OK)
        st = gcut_mrf_set_weights(m, 0, wr);
    if (st == GCUT_OK)
        st = gcut_mrf_set_weights(m, 2, wd);
    if (st == GCUT_OK)
        st = p->smooth == GCUT_STEREO_TL ? gcut_mrf_set_trunc_linear(m, 4 * p->lambda, p->tl_trunc)
                                         : gcut_mrf_set_potts(m, 4 * p->lambda);
    if (st == GCUT_OK) {
        *out = m;
        m = NULL;
    }
done:
    gcut_mrf_free(m);
    gcut_i_free(cost);
    gcut_i_free(wr);
    gcut_i_free(wd);
    return st;
}

gcut_status gcut_stereo_match(const gcut_image *left, const gcut_image *right,
                              const gcut_stereo_params *p, int32_t *disp, gcut_mrf_stats *stats)
{
    if (!disp)
        return GCUT_FAIL(GCUT_ERR_INVALID, "disp is NULL");
    gcut_mrf *m = NULL;
    gcut_status st = gcut_stereo_mrf(left, right, p, &m);
    if (st != GCUT_OK)
        return st;
    const int64_t n = (int64_t)left->width * left->height;
    int32_t *f = gcut_i_malloc_array(n, sizeof(int32_t));
    int32_t *cost = gcut_i_malloc_array(n * p->ndisp, sizeof(int32_t));
    if (!f || !cost) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
        goto done;
    }
    /* Winner-take-all start: fewer cycles than starting from all zeros. */
    st = gcut_stereo_data_cost(left, right, p, cost);
    if (st != GCUT_OK)
        goto done;
    for (int64_t v = 0; v < n; v++) {
        const int32_t *c = cost + v * p->ndisp;
        int32_t best = 0;
        for (int32_t d = 1; d < p->ndisp; d++)
            if (c[d] < c[best])
                best = d;
        f[v] = best;
    }
    st = p->use_swap ? gcut_mrf_swap(m, &p->mrf, f, stats) : gcut_mrf_expand(m, &p->mrf, f, stats);
    if (st == GCUT_OK)
        memcpy(disp, f, (size_t)n * sizeof(int32_t));
done:
    gcut_i_free(f);
    gcut_i_free(cost);
    gcut_mrf_free(m);
    return st;
}

gcut_status gcut_stereo_bad_pixels(const int32_t *disp, const gcut_image *gt, double gt_scale,
                                   const gcut_image *mask, double threshold, double *percent,
                                   int64_t *counted)
{
    if (!disp || !gt || !percent || gt_scale <= 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "bad argument");
    if (mask && (mask->width != gt->width || mask->height != gt->height))
        return GCUT_FAIL(GCUT_ERR_INVALID, "mask %d x %d and ground truth %d x %d differ",
                         (int)mask->width, (int)mask->height, (int)gt->width, (int)gt->height);
    int64_t bad = 0, all = 0;
    for (int32_t y = 0; y < gt->height; y++)
        for (int32_t x = 0; x < gt->width; x++) {
            const int32_t g = gt->depth == 16
                                  ? ((const uint16_t *)(const void *)(gt->data + (size_t)y * gt->stride))[x * gt->channels]
                                  : gt->data[(size_t)y * gt->stride + (size_t)x * gt->channels];
            if (g == 0 || (mask && sample(mask, x, y, 0) == 0))
                continue;
            const double e = (double)disp[(size_t)y * gt->width + x] - g / gt_scale;
            all++;
            bad += e > threshold || e < -threshold;
        }
    *percent = all ? 100.0 * (double)bad / (double)all : 0.0;
    if (counted)
        *counted = all;
    return GCUT_OK;
}
