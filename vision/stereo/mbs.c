/*
 * mbs.c - multi-baseline stereo: K rectified views on a line, one data
 * cost over all of them, the two-view smoothness and alpha-expansion.
 *
 * M. Okutomi, T. Kanade, "A multiple-baseline stereo", IEEE PAMI 15(4),
 * 1993: with the disparity measured per unit baseline, the match of every
 * view is a function of the one unknown d, so the per-view costs can be
 * added; the sum has one clear minimum where a single pair is ambiguous
 * (repeated texture) or noisy.
 * S. B. Kang, R. Szeliski, J. Chai, "Handling occlusions in dense
 * multi-view stereo", CVPR 2001: a point occluded in some views gives those
 * views a large cost at the right depth; averaging only the best half of
 * the views (or only one side of the reference) drops them.
 *
 * What is guaranteed: with one view of baseline 1 the costs equal
 * gcut_stereo_data_cost() bit for bit (the same BT in doubled units, the
 * same clamping at the left border); with several, each view's cost is that
 * two-view cost at the fractional position x - b d (linear interpolation
 * of the view, BT bounds over the interpolated signal half a pixel either
 * side), truncated at 4 trunc, then combined. Views where x - b d leaves
 * the image are left out of the combination, so borders are matched by
 * the views that still see them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gcut/vision/mvs.h"
#include "stereo/stereo_internal.h"

enum { MBS_MAX_VIEWS = 64 };

void gcut_mbs_options_init(gcut_mbs_options *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof(*p));
    p->struct_size = sizeof(*p);
    gcut_stereo_options_init(&p->stereo);
    /* Multi-view keeps the energy it was measured with (docs/mvs.md): BT
     * costs and lambda 5, the two-view defaults before 0.3. */
    p->stereo.cost = GCUT_STEREO_BT;
    p->stereo.lambda = 5;
    p->stereo.lr_check = 0; /* ignored here; off, so that p->stereo is its two-view energy */
    /* The side rule: the only one of the three that beat two views on
     * tsukuba5, Baby2 and Bowling2 alike (docs/mvs.md). */
    p->combine = GCUT_MVS_SIDE;
    p->keep = 0;
}

static gcut_status check_args(const gcut_image *ref, const gcut_image *const *views,
                              const double *base, int32_t nviews, const gcut_mbs_options *p)
{
    if (!ref || !ref->data || !views || !base || !p)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    if (p->struct_size != sizeof(*p) || p->stereo.struct_size != sizeof(p->stereo))
        return GCUT_FAIL(GCUT_ERR_INVALID, "params not set up by gcut_mbs_options_init");
    if (nviews < 1 || nviews > MBS_MAX_VIEWS)
        return GCUT_FAIL(GCUT_ERR_INVALID, "nviews %d not in 1 .. %d", (int)nviews,
                         MBS_MAX_VIEWS);
    const gcut_status st = gcut_i_stereo_check_energy(&p->stereo);
    if (st != GCUT_OK)
        return st;
    if (p->combine < GCUT_MVS_MEAN || p->combine > GCUT_MVS_SIDE)
        return GCUT_FAIL(GCUT_ERR_INVALID, "unknown combine %d", (int)p->combine);
    if (p->keep < 0 || p->keep > nviews)
        return GCUT_FAIL(GCUT_ERR_INVALID, "keep %d not in 0 .. %d views", (int)p->keep,
                         (int)nviews);
    for (int32_t i = 0; i < nviews; i++) {
        const gcut_image *v = views[i];
        if (!v || !v->data)
            return GCUT_FAIL(GCUT_ERR_INVALID, "view %d is NULL", (int)i);
        if (v->width != ref->width || v->height != ref->height)
            return GCUT_FAIL(GCUT_ERR_INVALID, "view %d is %d x %d, the reference %d x %d",
                             (int)i, (int)v->width, (int)v->height, (int)ref->width,
                             (int)ref->height);
        if (!isfinite(base[i]) || base[i] == 0 || fabs(base[i]) > 64)
            return GCUT_FAIL(GCUT_ERR_INVALID, "baseline %d is %g: must be non-zero, |b| <= 64",
                             (int)i, base[i]);
    }
    return GCUT_OK;
}

/* Doubled samples, channel-planar: plane c, row y at (c * h + y) * w. */
static void doubled(const gcut_image *img, float *out)
{
    const int32_t w = img->width, h = img->height;
    for (int32_t c = 0; c < 3; c++)
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++)
                out[((size_t)c * h + y) * w + x] = (float)(2 * gcut_i_sample8(img, x, y, c));
}

/* 5x5 census code of every pixel (24 bits) of the gray of doubled planes,
 * the same gray and bit order as stereo.c. */
static void census(const float *planes, int32_t w, int32_t h, uint32_t *code)
{
    const size_t plane = (size_t)w * h;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            uint32_t bits = 0;
            const size_t i = (size_t)y * w + x;
            const int32_t c = (77 * (int32_t)planes[i] + 150 * (int32_t)planes[plane + i] +
                               29 * (int32_t)planes[2 * plane + i]) >> 9;
            for (int32_t dy = -2; dy <= 2; dy++)
                for (int32_t dx = -2; dx <= 2; dx++) {
                    if (!dx && !dy)
                        continue;
                    int32_t yy = y + dy, xx = x + dx;
                    yy = yy < 0 ? 0 : (yy >= h ? h - 1 : yy);
                    xx = xx < 0 ? 0 : (xx >= w ? w - 1 : xx);
                    const size_t j = (size_t)yy * w + xx;
                    const int32_t g = (77 * (int32_t)planes[j] + 150 * (int32_t)planes[plane + j] +
                                       29 * (int32_t)planes[2 * plane + j]) >> 9;
                    bits = (bits << 1) | (uint32_t)(g < c);
                }
            code[i] = bits;
        }
}

/* The row signal linearly interpolated at s in [0, w-1]. */
static inline float interp(const float *row, int32_t w, float s)
{
    if (s <= 0)
        return row[0];
    if (s >= (float)(w - 1))
        return row[w - 1];
    const int32_t i = (int32_t)s;
    const float f = s - (float)i;
    return f == 0 ? row[i] : row[i] + f * (row[i + 1] - row[i]);
}

/* Min and max of the interpolated row over [s - 1/2, s + 1/2] (clamped to
 * the row): a piecewise-linear signal takes them at the ends or at the one
 * sample inside, the nearest to s. At an integer s this is stereo.c's
 * bt_bounds exactly (the half-pixel points are the averages). */
static inline void bounds(const float *row, int32_t w, float s, float *lo, float *hi)
{
    const float a = interp(row, w, s), b = interp(row, w, s - 0.5f), c = interp(row, w, s + 0.5f);
    int32_t k = (int32_t)floorf(s + 0.5f);
    k = k < 0 ? 0 : (k > w - 1 ? w - 1 : k);
    const float d = row[k];
    float mn = a < b ? a : b, mx = a > b ? a : b;
    mn = mn < c ? mn : c;
    mx = mx > c ? mx : c;
    *lo = mn < d ? mn : d;
    *hi = mx > d ? mx : d;
}

static inline float outside(float v, float lo, float hi)
{
    return v > hi ? v - hi : (v < lo ? lo - v : 0);
}

typedef struct mbs_ctx {
    int32_t w, h, nd, nv, cap;
    gcut_stereo_cost kind;
    const float *ref2;      /* doubled planes of the reference */
    float **view2;          /* doubled planes of each view */
    const uint32_t *cref;   /* census codes, or NULL */
    uint32_t **cview;
    const double *base;
} mbs_ctx;

/* Two-view cost of view i at reference pixel (x, y) and position s. */
static int32_t view_cost(const mbs_ctx *c, int32_t i, int32_t x, int32_t y, float s)
{
    const int32_t w = c->w, h = c->h;
    if (c->kind == GCUT_STEREO_CENSUS) {
        int32_t k = (int32_t)floorf(s + 0.5f);
        k = k < 0 ? 0 : (k > w - 1 ? w - 1 : k);
        return 8 * __builtin_popcount(c->cref[(size_t)y * w + x] ^ c->cview[i][(size_t)y * w + k]);
    }
    float sum = 0;
    for (int32_t ch = 0; ch < 3; ch++) {
        const float *lr = c->ref2 + ((size_t)ch * h + y) * w;
        const float *vr = c->view2[i] + ((size_t)ch * h + y) * w;
        const float vs = interp(vr, w, s);
        if (c->kind == GCUT_STEREO_AD) {
            sum += fabsf(lr[x] - vs);
        } else {
            float lo, hi, lo2, hi2;
            bounds(vr, w, s, &lo, &hi);
            bounds(lr, w, (float)x, &lo2, &hi2);
            const float d1 = outside(lr[x], lo, hi), d2 = outside(vs, lo2, hi2);
            sum += d1 < d2 ? d1 : d2;
        }
    }
    /* sum is 2 x the channel sum; 4 x the mean = sum * 2 / 3, as stereo.c
     * (an integer sum gives its integer division exactly). */
    const int32_t v = (int32_t)floorf((2 * sum + 1) / 3);
    return v < c->cap ? v : c->cap;
}

/* One view's cost and weight, sortable by cost. */
typedef struct wcost {
    int32_t c;
    double w;
} wcost;

static int cmp_wcost(const void *a, const void *b)
{
    const int32_t x = ((const wcost *)a)->c, y = ((const wcost *)b)->c;
    return (x > y) - (x < y);
}

/* Combine the costs of the views that see the point (in[i] for i with
 * ok[i]); when none does, all views with their clamped costs. Every mean
 * is weighted by |b|: a view's cost grows with its baseline times the
 * disparity error, so a short baseline says less about the disparity and
 * counts less (with equal |b| these are plain means). */
static int32_t combine(const gcut_mbs_options *p, const double *base, int32_t nv,
                       const int32_t *in, const uint8_t *ok, wcost *v)
{
    int32_t n = 0;
    for (int32_t i = 0; i < nv; i++)
        n += ok[i];
    const int all = n == 0;
    n = 0;
    double sw = 0, sc = 0, side_w[2] = {0, 0}, side_c[2] = {0, 0};
    for (int32_t i = 0; i < nv; i++)
        if (all || ok[i]) {
            const double w = fabs(base[i]);
            v[n].c = in[i];
            v[n++].w = w;
            sw += w;
            sc += w * in[i];
            side_w[base[i] > 0] += w;
            side_c[base[i] > 0] += w * in[i];
        }
    double best = sc / sw;
    if (p->combine == GCUT_MVS_SIDE) {
        /* Either side alone, when it holds a third of the total baseline
         * or more: a lone short baseline matches every disparity about
         * equally well and would win the minimum everywhere. */
        for (int s = 0; s < 2; s++)
            if (side_w[s] > 0 && 3 * side_w[s] >= sw && side_c[s] / side_w[s] < best)
                best = side_c[s] / side_w[s];
    } else if (p->combine == GCUT_MVS_BEST) {
        int32_t keep = p->keep > 0 ? p->keep : (n + 1) / 2;
        keep = keep < n ? keep : n;
        qsort(v, (size_t)n, sizeof(wcost), cmp_wcost);
        double kw = 0, kc = 0;
        for (int32_t i = 0; i < keep; i++) {
            kw += v[i].w;
            kc += v[i].w * v[i].c;
        }
        best = kc / kw;
    }
    return (int32_t)(best + 0.5);
}

gcut_status gcut_mbs_data_cost(const gcut_image *ref, const gcut_image *const *views,
                               const double *baselines, int32_t nviews, const gcut_mbs_options *p,
                               int32_t *cost)
{
    GCUT_ENTRY();
    gcut_status st = check_args(ref, views, baselines, nviews, p);
    if (st != GCUT_OK)
        return st;
    if (!cost)
        return GCUT_FAIL(GCUT_ERR_INVALID, "cost is NULL");
    const int32_t w = ref->width, h = ref->height, nd = p->stereo.ndisp;
    const int64_t npix = (int64_t)w * h;
    mbs_ctx c = {w, h, nd, nviews, 4 * p->stereo.trunc, p->stereo.cost, NULL, NULL, NULL, NULL,
                 baselines};
    float *ref2 = gcut_i_malloc_array(3 * npix, sizeof(float));
    uint32_t *cref = NULL;
    float **view2 = gcut_i_calloc((size_t)nviews, sizeof(float *));
    uint32_t **cview = gcut_i_calloc((size_t)nviews, sizeof(uint32_t *));
    int32_t *buf = gcut_i_malloc_array((int64_t)nviews * nd, sizeof(int32_t));
    wcost *scratch = gcut_i_malloc_array(nviews, sizeof(wcost));
    uint8_t *ok = gcut_i_malloc_array((int64_t)nviews * nd, 1);
    if (!ref2 || !view2 || !cview || !buf || !scratch || !ok)
        goto nomem;
    const int census_cost = p->stereo.cost == GCUT_STEREO_CENSUS;
    doubled(ref, ref2);
    if (census_cost) {
        if (!(cref = gcut_i_malloc_array(npix, sizeof(uint32_t))))
            goto nomem;
        census(ref2, w, h, cref);
    }
    for (int32_t i = 0; i < nviews; i++) {
        if (!(view2[i] = gcut_i_malloc_array(3 * npix, sizeof(float))))
            goto nomem;
        doubled(views[i], view2[i]);
        if (census_cost) {
            if (!(cview[i] = gcut_i_malloc_array(npix, sizeof(uint32_t))))
                goto nomem;
            census(view2[i], w, h, cview[i]);
        }
    }
    c.ref2 = ref2;
    c.view2 = view2;
    c.cref = cref;
    c.cview = cview;
    /* buf: the nviews * nd per-view costs of the current pixel. */
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            for (int32_t i = 0; i < nviews; i++)
                for (int32_t d = 0; d < nd; d++) {
                    /* Computed in double so that an integer position stays
                     * exact; the border test allows rounding. */
                    const double s = (double)x - baselines[i] * d;
                    ok[(size_t)i * nd + d] = s >= -1e-6 && s <= (double)(w - 1) + 1e-6;
                    float sf = (float)s;
                    sf = sf < 0 ? 0 : (sf > (float)(w - 1) ? (float)(w - 1) : sf);
                    buf[(size_t)i * nd + d] = view_cost(&c, i, x, y, sf);
                }
            int32_t *out = cost + ((size_t)y * w + x) * nd;
            for (int32_t d = 0; d < nd; d++) {
                int32_t vals[MBS_MAX_VIEWS];
                uint8_t oks[MBS_MAX_VIEWS];
                for (int32_t i = 0; i < nviews; i++) {
                    vals[i] = buf[(size_t)i * nd + d];
                    oks[i] = ok[(size_t)i * nd + d];
                }
                out[d] = combine(p, baselines, nviews, vals, oks, scratch);
            }
        }
    goto done;
nomem:
    st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (%d views of %d x %d)", (int)nviews, (int)w,
                   (int)h);
done:
    for (int32_t i = 0; view2 && i < nviews; i++)
        gcut_i_free(view2[i]);
    for (int32_t i = 0; cview && i < nviews; i++)
        gcut_i_free(cview[i]);
    gcut_i_free(view2);
    gcut_i_free(cview);
    gcut_i_free(ref2);
    gcut_i_free(cref);
    gcut_i_free(buf);
    gcut_i_free(scratch);
    gcut_i_free(ok);
    return st;
}

gcut_status gcut_mbs_match(const gcut_image *ref, const gcut_image *const *views,
                           const double *baselines, int32_t nviews, const gcut_mbs_options *p,
                           int32_t *disp, gcut_mrf_stats *stats)
{
    GCUT_ENTRY();
    gcut_status st = check_args(ref, views, baselines, nviews, p);
    if (st != GCUT_OK)
        return st;
    if (!disp)
        return GCUT_FAIL(GCUT_ERR_INVALID, "disp is NULL");
    const gcut_stereo_options *s = &p->stereo;
    const int64_t n = (int64_t)ref->width * ref->height;
    gcut_mrf *m = NULL;
    /* Progress (operation "mvs"): "cost", "energy", then "moves" before
     * the expansion or swap, which reports its own moves. */
    gcut_i_vprog pr;
    gcut_i_vprog_init(&pr, &s->mrf.solve, "mvs");
    if ((st = gcut_i_vprog_report(&pr, "cost", 0, 0, -1.0, 1)) != GCUT_OK)
        return st;
    int32_t *cost = gcut_i_malloc_array(n * s->ndisp, sizeof(int32_t));
    if (!cost)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (%lld x %d costs)", (long long)n,
                         (int)s->ndisp);
    /* The energy and solve of gcut_stereo_match() with the multi-view data
     * term: the same weights (of the reference) and smoothness units. */
    void *warm = gcut_i_backend_warm_start(s->mrf.solve.backend); /* overlapped with the costs */
    st = gcut_mbs_data_cost(ref, views, baselines, nviews, p, cost);
    if (st == GCUT_OK)
        st = gcut_i_vprog_report(&pr, "energy", 0, 0, -1.0, 1);
    if (st == GCUT_OK)
        st = gcut_i_stereo_energy(ref, s, cost, &m);
    gcut_i_backend_warm_join(warm);
    if (st == GCUT_OK)
        st = gcut_i_vprog_report(&pr, "moves", 0, 0, -1.0, 1);
    if (st == GCUT_OK)
        st = gcut_i_stereo_solve(m, s, cost, n, NULL, disp, stats);
    gcut_mrf_free(m);
    gcut_i_free(cost);
    return st;
}
