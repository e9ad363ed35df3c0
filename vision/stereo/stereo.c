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
 * P. Fua, "A parallel stereo algorithm that produces dense depth maps and
 * preserves image features", Machine Vision and Applications 6(1), 1993:
 * the left-right consistency check (a left pixel is kept only when the
 * right view's disparity at its match points back to it).
 * H. Hirschmuller, "Stereo processing by semiglobal matching and mutual
 * information", IEEE PAMI 30(2), 2008: pixels that fail the check and lie
 * next to a disparity edge are occlusions, seen only by the background, so
 * they are filled from the lower (background) of the neighbouring
 * disparities rather than interpolated across the edge.
 *
 * The right view is solved by the same code on the mirrored pair: mirroring
 * both images and swapping them turns "right pixel x matches left x + d"
 * into "left pixel x' matches right x' - d", and the energy is unchanged
 * (BT is symmetric; census codes of mirrored images are the same bits in
 * another order, so their Hamming distances are equal; the contrast
 * weights become the right image's; the clamp at column 0 becomes the
 * clamp at column W - 1).
 *
 * Units: costs are 4 x intensity units (samples on 8 bits, mean over the
 * channels), so that the BT half-pixel bounds and the channel mean stay
 * integers to a quarter level; lambda is multiplied by 4 too.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stereo/stereo_internal.h"

void gcut_stereo_options_init(gcut_stereo_options *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof(*p));
    p->struct_size = sizeof(*p);
    p->ndisp = 16;
    /* Census costs, lambda 10 and the left-right check: the best setting
     * measured on tsukuba, venus and teddy, on all three at bad 1 (2.70 /
     * 1.12 / 12.43 % against 3.99 / 2.21 / 19.30 % for BT, lambda 5, no
     * check, the defaults before 0.3; docs/stereo.md,
     * bench/results/stereo-dev2core-2026-11-27.md). Census compares the
     * ordering of a 5x5 window, so brightness differences between the
     * views cost nothing; the check repairs the occlusions the energy has
     * no term for. Truncated linear with truncation 2: a real disparity
     * edge costs twice the one-level steps that quantise a slanted surface
     * (venus, teddy), so those go where the data put them. */
    p->cost = GCUT_STEREO_CENSUS;
    p->smooth = GCUT_STEREO_TL;
    p->lambda = 10;
    p->trunc = 20;
    p->tl_trunc = 2;
    p->contrast_threshold = 8;
    p->contrast_boost = 2;
    gcut_mrf_options_init(&p->mrf);
    p->lr_check = 1;
    p->lr_max_diff = 1;
    p->lr_median = 1;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

gcut_status gcut_i_stereo_check_energy(const gcut_stereo_options *p)
{
    if (p->ndisp < 2 || p->ndisp > 1024)
        return GCUT_FAIL(GCUT_ERR_INVALID, "ndisp %d not in 2 .. 1024", (int)p->ndisp);
    if (p->lambda < 0 || p->lambda > 10000 || p->trunc < 1 || p->trunc > 1000 ||
        p->tl_trunc < 1 || p->contrast_boost < 1 || p->contrast_boost > 100)
        return GCUT_FAIL(GCUT_ERR_INVALID, "lambda, trunc, tl_trunc or contrast_boost out of range");
    return GCUT_OK;
}

static gcut_status check_pair(const gcut_image *l, const gcut_image *r,
                              const gcut_stereo_options *p)
{
    if (!l || !r || !p || !l->data || !r->data)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    if (p->struct_size != sizeof(*p))
        return GCUT_FAIL(GCUT_ERR_INVALID, "params not set up by gcut_stereo_options_init");
    if (l->width != r->width || l->height != r->height)
        return GCUT_FAIL(GCUT_ERR_INVALID, "left %d x %d and right %d x %d differ in size",
                         (int)l->width, (int)l->height, (int)r->width, (int)r->height);
    const gcut_status st = gcut_i_stereo_check_energy(p);
    if (st != GCUT_OK)
        return st;
    if (p->lr_check < 0 || p->lr_check > 1 || p->lr_max_diff < 0 || p->lr_max_diff > p->ndisp ||
        p->lr_median < 0 || p->lr_median > 5)
        return GCUT_FAIL(GCUT_ERR_INVALID, "lr_check (0, 1), lr_max_diff (0 .. ndisp) or "
                                           "lr_median (0 .. 5) out of range");
    if (p->coarse_levels < 0 || p->coarse_levels > 8 || p->lr_warm_start < 0 ||
        p->lr_warm_start > 1)
        return GCUT_FAIL(GCUT_ERR_INVALID, "coarse_levels (0 .. 8) or lr_warm_start (0, 1) "
                                           "out of range");
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
                                  const gcut_stereo_options *p, int32_t *cost)
{
    GCUT_ENTRY();
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
                L2[((size_t)c * h + y) * w + x] = 2 * gcut_i_sample8(left, x, y, c);
                R2[((size_t)c * h + y) * w + x] = 2 * gcut_i_sample8(right, x, y, c);
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

gcut_status gcut_stereo_weights(const gcut_image *left, const gcut_stereo_options *p,
                                int32_t *w_right, int32_t *w_down)
{
    GCUT_ENTRY();
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
                const int32_t v = gcut_i_sample8(left, x, y, c);
                if (x + 1 < w) {
                    int32_t a = abs(v - gcut_i_sample8(left, x + 1, y, c));
                    dr = a > dr ? a : dr;
                }
                if (y + 1 < h) {
                    int32_t a = abs(v - gcut_i_sample8(left, x, y + 1, c));
                    dd = a > dd ? a : dd;
                }
            }
            w_right[(size_t)y * w + x] = dr < p->contrast_threshold ? p->contrast_boost : 1;
            w_down[(size_t)y * w + x] = dd < p->contrast_threshold ? p->contrast_boost : 1;
        }
    return GCUT_OK;
}

static gcut_status set_smooth(gcut_mrf *m, const gcut_stereo_options *p)
{
    return p->smooth == GCUT_STEREO_TL ? gcut_mrf_set_trunc_linear(m, 4 * p->lambda, p->tl_trunc)
                                       : gcut_mrf_set_potts(m, 4 * p->lambda);
}

gcut_status gcut_i_stereo_energy(const gcut_image *ref, const gcut_stereo_options *p,
                                 const int32_t *cost, gcut_mrf **out)
{
    const int64_t n = (int64_t)ref->width * ref->height;
    gcut_mrf *m = NULL;
    int32_t *wr = gcut_i_malloc_array(n, sizeof(int32_t));
    int32_t *wd = gcut_i_malloc_array(n, sizeof(int32_t));
    gcut_status st = GCUT_OK;
    if (!wr || !wd) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (%lld weights)", (long long)n);
        goto done;
    }
    st = gcut_mrf_new(&m, ref->width, ref->height, 1, 4, p->ndisp);
    if (st == GCUT_OK)
        st = gcut_mrf_set_unary(m, cost);
    if (st == GCUT_OK)
        st = gcut_stereo_weights(ref, p, wr, wd);
    if (st == GCUT_OK)
        st = gcut_mrf_set_weights(m, 0, wr);
    if (st == GCUT_OK)
        st = gcut_mrf_set_weights(m, 2, wd);
    if (st == GCUT_OK)
        st = set_smooth(m, p);
    if (st == GCUT_OK) {
        *out = m;
        m = NULL;
    }
done:
    gcut_mrf_free(m);
    gcut_i_free(wr);
    gcut_i_free(wd);
    return st;
}

gcut_status gcut_stereo_mrf(const gcut_image *left, const gcut_image *right,
                            const gcut_stereo_options *p, gcut_mrf **out)
{
    GCUT_ENTRY();
    gcut_status st = check_pair(left, right, p);
    if (st != GCUT_OK)
        return st;
    if (!out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "out is NULL");
    const int64_t n = (int64_t)left->width * left->height;
    int32_t *cost = gcut_i_malloc_array(n * p->ndisp, sizeof(int32_t));
    if (!cost)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (%lld x %d costs)", (long long)n,
                         (int)p->ndisp);
    st = gcut_stereo_data_cost(left, right, p, cost);
    if (st == GCUT_OK)
        st = gcut_i_stereo_energy(left, p, cost, out);
    gcut_i_free(cost);
    return st;
}

/* Winner-take-all labels of n nodes' costs (L per node). */
static void wta(const int32_t *cost, int64_t n, int32_t L, int32_t *f)
{
    for (int64_t v = 0; v < n; v++) {
        const int32_t *c = cost + v * L;
        int32_t best = 0;
        for (int32_t d = 1; d < L; d++)
            if (c[d] < c[best])
                best = d;
        f[v] = best;
    }
}

gcut_status gcut_i_stereo_solve(gcut_mrf *m, const gcut_stereo_options *p, const int32_t *cost,
                                int64_t n, const int32_t *start, int32_t *disp,
                                gcut_mrf_stats *stats)
{
    int32_t *f = gcut_i_malloc_array(n, sizeof(int32_t));
    if (!f)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
    /* Winner-take-all start: fewer cycles than starting from all zeros. */
    if (start)
        memcpy(f, start, (size_t)n * sizeof(int32_t));
    else
        wta(cost, n, p->ndisp, f);
    gcut_status st =
        p->use_swap ? gcut_mrf_swap(m, &p->mrf, f, stats) : gcut_mrf_expand(m, &p->mrf, f, stats);
    if (st == GCUT_OK)
        memcpy(disp, f, (size_t)n * sizeof(int32_t));
    gcut_i_free(f);
    return st;
}

/* Coarse-to-fine start (coarse_levels). Level k + 1 is the grid of 2 x 2
 * blocks of level k: a block's cost of label d is the sum of its pixels'
 * costs, and the weight of the pair of two neighbouring blocks the sum of
 * the weights of the pixel pairs that cross between them. V is the same.
 * So a labelling constant on blocks costs on level k + 1 exactly what its
 * upsampling costs on level k (pairs inside a block cost nothing), and a
 * level's result, upsampled, is a labelling of the level below that is
 * already smooth and close to a minimum: the expansion of the level below
 * starts there instead of at the noisy winner-take-all, and its first
 * cycle, the dearest (60 cold cuts per view on teddy), becomes a repair.
 * These are the constrained multiscale energies of F. Heitz, P. Perez,
 * P. Bouthemy, "Multiscale minimization of global energy functions in
 * some visual recovery problems", CVGIP: Image Understanding 59(1), 1994
 * (the fine energy restricted to labellings constant on blocks); the
 * moves of every level are the same alpha-expansion (or swap). Measured
 * on the three Middlebury pairs: faster, but not as good or better on
 * all three, so off by default (bench/results/stereo-1core-2026-11-27b.md). */
typedef struct pyr_level {
    int32_t w, h;
    int32_t *cost, *wr, *wd; /* w * h * L costs; right and down weights */
} pyr_level;

static void pyr_free(pyr_level *lv)
{
    gcut_i_free(lv->cost);
    gcut_i_free(lv->wr);
    gcut_i_free(lv->wd);
    memset(lv, 0, sizeof *lv);
}

/* b: the level of 2 x 2 blocks of a (the last row and column of an odd
 * size are blocks of one or two pixels). */
static gcut_status pyr_coarsen(const pyr_level *a, int32_t L, pyr_level *b)
{
    b->w = (a->w + 1) / 2;
    b->h = (a->h + 1) / 2;
    const int64_t n = (int64_t)b->w * b->h;
    b->cost = gcut_i_calloc((size_t)n * (size_t)L, sizeof(int32_t));
    b->wr = gcut_i_calloc((size_t)n, sizeof(int32_t));
    b->wd = gcut_i_calloc((size_t)n, sizeof(int32_t));
    if (!b->cost || !b->wr || !b->wd) {
        pyr_free(b);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (coarse level)");
    }
    for (int32_t y = 0; y < a->h; y++)
        for (int32_t x = 0; x < a->w; x++) {
            const size_t i = (size_t)y * a->w + x, B = (size_t)(y / 2) * b->w + x / 2;
            const int32_t *c = a->cost + i * L;
            int32_t *o = b->cost + B * L;
            for (int32_t d = 0; d < L; d++)
                o[d] += c[d];
            /* The pairs leaving the block to the right and down. */
            if ((x & 1) && x + 1 < a->w)
                b->wr[B] += a->wr[i];
            if ((y & 1) && y + 1 < a->h)
                b->wd[B] += a->wd[i];
        }
    return GCUT_OK;
}

/* The energy of level lv as a gcut_mrf (*out set on success). */
static gcut_status pyr_mrf(const pyr_level *lv, const gcut_stereo_options *p, gcut_mrf **out)
{
    gcut_mrf *m = NULL;
    gcut_status st = gcut_mrf_new(&m, lv->w, lv->h, 1, 4, p->ndisp);
    if (st == GCUT_OK)
        st = gcut_mrf_set_unary(m, lv->cost);
    if (st == GCUT_OK)
        st = gcut_mrf_set_weights(m, 0, lv->wr);
    if (st == GCUT_OK)
        st = gcut_mrf_set_weights(m, 2, lv->wd);
    if (st == GCUT_OK)
        st = set_smooth(m, p);
    if (st != GCUT_OK) {
        gcut_mrf_free(m);
        return st;
    }
    *out = m;
    return GCUT_OK;
}

/* Minimise the energy of level lv from *f (replaced by the result);
 * moves, accepted moves and times are added to *acc. */
static gcut_status pyr_solve(const pyr_level *lv, const gcut_stereo_options *p, int32_t *f,
                             gcut_mrf_stats *acc)
{
    gcut_mrf *m = NULL;
    gcut_status st = pyr_mrf(lv, p, &m);
    gcut_mrf_options o = p->mrf;
    o.progress = NULL; /* the caller's per-move reports are the finest level's */
    gcut_mrf_stats s;
    if (st == GCUT_OK)
        st = p->use_swap ? gcut_mrf_swap(m, &o, f, &s) : gcut_mrf_expand(m, &o, f, &s);
    if (st == GCUT_OK) {
        acc->moves += s.moves;
        acc->moves_accepted += s.moves_accepted;
        acc->build_ms += s.build_ms;
        acc->solve_ms += s.solve_ms;
        acc->max_move_ms = s.max_move_ms > acc->max_move_ms ? s.max_move_ms : acc->max_move_ms;
    }
    gcut_mrf_free(m);
    return st;
}

/* The start of the finest level of ref's energy on `cost`: levels
 * 1 .. p->coarse_levels (fewer when a side would drop below 2) solved from
 * the coarsest's winner-take-all up, level 1's labels upsampled into
 * start (n values). */
enum { PYR_MAX_LEVELS = 8 };

/* Levels 0 .. *top of ref's energy on cost (*top <= levels: fewer when a
 * side would drop below 2); lv[0].cost is `cost` itself. pyr_free every
 * level after, lv[0].cost set to NULL first. */
static gcut_status pyr_build(const gcut_image *ref, const gcut_stereo_options *p,
                             const int32_t *cost, int32_t levels, pyr_level *lv, int32_t *top)
{
    const int32_t w = ref->width, h = ref->height;
    memset(lv, 0, (PYR_MAX_LEVELS + 1) * sizeof *lv);
    *top = 0;
    lv[0].w = w;
    lv[0].h = h;
    lv[0].wr = gcut_i_malloc_array((int64_t)w * h, sizeof(int32_t));
    lv[0].wd = gcut_i_malloc_array((int64_t)w * h, sizeof(int32_t));
    if (!lv[0].wr || !lv[0].wd)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
    gcut_status st = gcut_stereo_weights(ref, p, lv[0].wr, lv[0].wd);
    lv[0].cost = (int32_t *)cost; /* read only; not freed */
    while (st == GCUT_OK && *top < levels && *top < PYR_MAX_LEVELS && lv[*top].w >= 2 &&
           lv[*top].h >= 2) {
        st = pyr_coarsen(&lv[*top], p->ndisp, &lv[*top + 1]);
        *top += st == GCUT_OK;
    }
    return st;
}

gcut_status gcut_i_stereo_level_mrf(const gcut_image *ref, const gcut_stereo_options *p,
                                    const int32_t *cost, int32_t level, gcut_mrf **out)
{
    pyr_level lv[PYR_MAX_LEVELS + 1];
    int32_t top = 0;
    gcut_status st = pyr_build(ref, p, cost, level, lv, &top);
    if (st == GCUT_OK && top != level)
        st = GCUT_FAIL(GCUT_ERR_INVALID, "level %d: the grid has only %d", (int)level, (int)top);
    if (st == GCUT_OK)
        st = pyr_mrf(&lv[top], p, out);
    lv[0].cost = NULL;
    for (int32_t k = 0; k <= PYR_MAX_LEVELS; k++)
        pyr_free(&lv[k]);
    return st;
}

static gcut_status coarse_start(const gcut_image *ref, const gcut_stereo_options *p,
                                const int32_t *cost, int32_t *start, gcut_mrf_stats *acc)
{
    const int32_t L = p->ndisp, w = ref->width, h = ref->height;
    pyr_level lv[PYR_MAX_LEVELS + 1];
    int32_t *f = NULL, *g = NULL, top = 0;
    gcut_status st = pyr_build(ref, p, cost, p->coarse_levels, lv, &top);
    if (st != GCUT_OK)
        goto done;
    f = gcut_i_malloc_array((int64_t)w * h, sizeof(int32_t));
    g = gcut_i_malloc_array((int64_t)w * h, sizeof(int32_t));
    if (!f || !g) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
        goto done;
    }
    wta(lv[top].cost, (int64_t)lv[top].w * lv[top].h, L, f);
    for (int32_t k = top; k >= 1; k--) {
        if ((st = pyr_solve(&lv[k], p, f, acc)) != GCUT_OK)
            goto done;
        const pyr_level *a = &lv[k - 1];
        for (int32_t y = 0; y < a->h; y++)
            for (int32_t x = 0; x < a->w; x++)
                g[(size_t)y * a->w + x] = f[(size_t)(y / 2) * lv[k].w + x / 2];
        int32_t *t = f;
        f = g;
        g = t;
    }
    memcpy(start, f, (size_t)w * h * sizeof(int32_t));
done:
    lv[0].cost = NULL;
    for (int32_t k = 0; k <= PYR_MAX_LEVELS; k++)
        pyr_free(&lv[k]);
    gcut_i_free(f);
    gcut_i_free(g);
    return st;
}

/* The right view's start from the left view's map dl (lr_warm_start), in
 * the mirrored coordinates the right view is solved in: right pixel x - d
 * takes d from left pixel x (the larger d, the nearer surface, where two
 * pixels land on one); pixels no left pixel lands on (occluded in the
 * left view) take the smaller of the nearest landed disparities on their
 * row, the background's, as gcut_stereo_fill does. */
static void warp_start(const int32_t *dl, int32_t w, int32_t h, int32_t *out)
{
    for (int32_t y = 0; y < h; y++) {
        const int32_t *l = dl + (size_t)y * w;
        int32_t *o = out + (size_t)y * w; /* mirrored: right x at w - 1 - x */
        for (int32_t x = 0; x < w; x++)
            o[x] = -1;
        for (int32_t x = 0; x < w; x++) {
            const int32_t xr = x - l[x];
            if (xr >= 0 && xr < w && l[x] > o[w - 1 - xr])
                o[w - 1 - xr] = l[x];
        }
        int32_t last = -1;
        for (int32_t x = 0; x < w; x++) { /* nearest on the left: -2 - d, none: -1 */
            if (o[x] >= 0)
                last = o[x];
            else
                o[x] = last < 0 ? -1 : -2 - last;
        }
        last = -1;
        for (int32_t x = w - 1; x >= 0; x--) {
            if (o[x] >= 0) {
                last = o[x];
                continue;
            }
            const int32_t from_left = o[x] <= -2 ? -2 - o[x] : -1;
            int32_t d = from_left;
            if (last >= 0 && (d < 0 || last < d))
                d = last;
            o[x] = d < 0 ? 0 : d;
        }
    }
}

/* One view: the data costs, the energy of gcut_stereo_mrf() on them and the
 * shared solve. The pair and disp are checked by the caller. Progress
 * (operation "stereo", step `view` of `views`): "cost" and "energy" before
 * those are computed, "moves" before the expansion or swap, which reports
 * its own moves. */
static gcut_status solve_view(const gcut_image *left, const gcut_image *right,
                              const gcut_stereo_options *p, const int32_t *start, int32_t *disp,
                              gcut_mrf_stats *stats, gcut_i_vprog *pr, int32_t view, int32_t views)
{
    const int64_t n = (int64_t)left->width * left->height;
    gcut_mrf *m = NULL;
    gcut_status st = gcut_i_vprog_report(pr, "cost", view, views, -1.0, 1);
    if (st != GCUT_OK)
        return st;
    int32_t *cost = gcut_i_malloc_array(n * p->ndisp, sizeof(int32_t));
    if (!cost)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (%lld x %d costs)", (long long)n,
                         (int)p->ndisp);
    /* The device starts up while the costs are computed. */
    void *warm = gcut_i_backend_warm_start(p->mrf.solve.backend);
    st = gcut_stereo_data_cost(left, right, p, cost);
    if (st == GCUT_OK)
        st = gcut_i_vprog_report(pr, "energy", view, views, -1.0, 1);
    if (st == GCUT_OK)
        st = gcut_i_stereo_energy(left, p, cost, &m);
    gcut_i_backend_warm_join(warm);
    if (st == GCUT_OK)
        st = gcut_i_vprog_report(pr, "moves", view, views, -1.0, 1);
    gcut_mrf_stats acc;
    memset(&acc, 0, sizeof acc);
    int32_t *f = NULL;
    if (st == GCUT_OK && !start && p->coarse_levels > 0) {
        if (!(f = gcut_i_malloc_array(n, sizeof(int32_t))))
            st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
        else if ((st = coarse_start(left, p, cost, f, &acc)) == GCUT_OK)
            start = f;
    }
    if (st == GCUT_OK)
        st = gcut_i_stereo_solve(m, p, cost, n, start, disp, stats);
    if (st == GCUT_OK && stats) { /* the coarse levels' moves count too */
        stats->moves += acc.moves;
        stats->moves_accepted += acc.moves_accepted;
        stats->build_ms += acc.build_ms;
        stats->solve_ms += acc.solve_ms;
        if (acc.max_move_ms > stats->max_move_ms)
            stats->max_move_ms = acc.max_move_ms;
    }
    gcut_i_free(f);
    gcut_mrf_free(m);
    gcut_i_free(cost);
    return st;
}

gcut_status gcut_stereo_match(const gcut_image *left, const gcut_image *right,
                              const gcut_stereo_options *p, int32_t *disp, gcut_mrf_stats *stats)
{
    GCUT_ENTRY();
    if (!disp)
        return GCUT_FAIL(GCUT_ERR_INVALID, "disp is NULL");
    gcut_status st = check_pair(left, right, p);
    if (st != GCUT_OK)
        return st;
    if (p->lr_check)
        return gcut_stereo_match_lr(left, right, p, disp, NULL, NULL, stats);
    gcut_i_vprog pr;
    gcut_i_vprog_init(&pr, &p->mrf.solve, "stereo");
    return solve_view(left, right, p, NULL, disp, stats, &pr, 1, 1);
}

/* The image mirrored left to right (a new image, same format). */
static gcut_status mirror(const gcut_image *src, gcut_image **out)
{
    gcut_image *m = NULL;
    gcut_status st = gcut_image_new(&m, src->width, src->height, src->channels, src->depth);
    if (st != GCUT_OK)
        return st;
    const size_t px = (size_t)src->channels * (size_t)(src->depth / 8);
    const int32_t w = src->width;
    for (int32_t y = 0; y < src->height; y++) {
        const uint8_t *in = src->data + (size_t)y * src->stride;
        uint8_t *to = m->data + (size_t)y * m->stride;
        for (int32_t x = 0; x < w; x++)
            memcpy(to + (size_t)(w - 1 - x) * px, in + (size_t)x * px, px);
    }
    *out = m;
    return GCUT_OK;
}

gcut_status gcut_stereo_match_lr(const gcut_image *left, const gcut_image *right,
                                 const gcut_stereo_options *p, int32_t *disp, int32_t *disp_right,
                                 uint8_t *invalid, gcut_mrf_stats *stats)
{
    GCUT_ENTRY();
    const double t_start = now_ms();
    if (!disp)
        return GCUT_FAIL(GCUT_ERR_INVALID, "disp is NULL");
    gcut_status st = check_pair(left, right, p);
    if (st != GCUT_OK)
        return st;
    const int32_t w = left->width, h = left->height;
    const int64_t n = (int64_t)w * h;
    gcut_image *ml = NULL, *mr = NULL;
    int32_t *dl = gcut_i_malloc_array(n, sizeof(int32_t));
    int32_t *dr = gcut_i_malloc_array(n, sizeof(int32_t));
    int32_t *dm = gcut_i_malloc_array(n, sizeof(int32_t));
    uint8_t *inv = gcut_i_malloc_array(n, 1);
    gcut_mrf_stats sl, sr;
    if (!dl || !dr || !dm || !inv) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
        goto done;
    }
    gcut_i_vprog pr;
    gcut_i_vprog_init(&pr, &p->mrf.solve, "stereo");
    st = solve_view(left, right, p, NULL, dl, &sl, &pr, 1, 2);
    /* The right view as the left view of the mirrored, swapped pair. */
    if (st == GCUT_OK)
        st = mirror(right, &ml);
    if (st == GCUT_OK)
        st = mirror(left, &mr);
    if (st == GCUT_OK && p->lr_warm_start)
        warp_start(dl, w, h, dm); /* dm: the start, then the right view's map */
    if (st == GCUT_OK)
        st = solve_view(ml, mr, p, p->lr_warm_start ? dm : NULL, dm, &sr, &pr, 2, 2);
    if (st == GCUT_OK)
        st = gcut_i_vprog_report(&pr, "lr-check", 2, 2, -1.0, 1);
    if (st != GCUT_OK)
        goto done;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            dr[(size_t)y * w + x] = dm[(size_t)y * w + (w - 1 - x)];
    st = gcut_stereo_lr_check(dl, dr, w, h, p->lr_max_diff, inv, NULL);
    if (st == GCUT_OK)
        st = gcut_stereo_fill(dl, inv, w, h, p->lr_median);
    if (st != GCUT_OK)
        goto done;
    memcpy(disp, dl, (size_t)n * sizeof(int32_t));
    if (disp_right)
        memcpy(disp_right, dr, (size_t)n * sizeof(int32_t));
    if (invalid)
        memcpy(invalid, inv, (size_t)n);
    if (stats) {
        sl.moves += sr.moves;
        sl.moves_accepted += sr.moves_accepted;
        sl.build_ms += sr.build_ms;
        sl.solve_ms += sr.solve_ms;
        sl.max_move_ms = sr.max_move_ms > sl.max_move_ms ? sr.max_move_ms : sl.max_move_ms;
        sl.total_ms = now_ms() - t_start;
        *stats = sl;
    }
done:
    gcut_image_free(ml);
    gcut_image_free(mr);
    gcut_i_free(dl);
    gcut_i_free(dr);
    gcut_i_free(dm);
    gcut_i_free(inv);
    return st;
}

gcut_status gcut_stereo_lr_check(const int32_t *disp_left, const int32_t *disp_right,
                                 int32_t width, int32_t height, int32_t max_diff,
                                 uint8_t *invalid, int64_t *count)
{
    GCUT_ENTRY();
    if (!disp_left || !disp_right || !invalid || width < 1 || height < 1 || max_diff < 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "bad argument");
    int64_t bad = 0;
    for (int32_t y = 0; y < height; y++) {
        const int32_t *l = disp_left + (size_t)y * width, *r = disp_right + (size_t)y * width;
        uint8_t *o = invalid + (size_t)y * width;
        for (int32_t x = 0; x < width; x++) {
            /* 64-bit: a caller's disparity may be anything. */
            const int64_t xr = (int64_t)x - l[x];
            int b = xr < 0 || xr >= width;
            if (!b) {
                const int64_t diff = (int64_t)l[x] - r[xr];
                b = diff > max_diff || diff < -max_diff;
            }
            o[x] = (uint8_t)b;
            bad += b;
        }
    }
    if (count)
        *count = bad;
    return GCUT_OK;
}

/* Lower median of v[0 .. k-1] (k <= 121), by insertion sort. */
static int32_t lower_median(int32_t *v, int32_t k)
{
    for (int32_t i = 1; i < k; i++) {
        const int32_t t = v[i];
        int32_t j = i;
        for (; j > 0 && v[j - 1] > t; j--)
            v[j] = v[j - 1];
        v[j] = t;
    }
    return v[(k - 1) / 2];
}

gcut_status gcut_stereo_fill(int32_t *disp, const uint8_t *invalid, int32_t width, int32_t height,
                             int32_t median)
{
    GCUT_ENTRY();
    if (!disp || !invalid || width < 1 || height < 1 || median < 0 || median > 5)
        return GCUT_FAIL(GCUT_ERR_INVALID, "bad argument");
    const int64_t n = (int64_t)width * height;
    int32_t *f = gcut_i_malloc_array(n, sizeof(int32_t));
    uint8_t *has_left = gcut_i_malloc_array(width, 1);
    if (!f || !has_left) {
        gcut_i_free(f);
        gcut_i_free(has_left);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
    }
    memcpy(f, disp, (size_t)n * sizeof(int32_t));
    for (int32_t y = 0; y < height; y++) {
        const uint8_t *inv = invalid + (size_t)y * width;
        const int32_t *d = disp + (size_t)y * width;
        int32_t *row = f + (size_t)y * width;
        /* Left to right: each invalid pixel takes its nearest valid pixel
         * on the left, if any; right to left then compares it with the
         * nearest valid on the right. Only valid pixels are ever read as
         * neighbours, so a run of invalid pixels takes one value. */
        int have = 0;
        int32_t last = 0;
        for (int32_t x = 0; x < width; x++) {
            if (!inv[x]) {
                have = 1;
                last = d[x];
            } else if (have) {
                row[x] = last;
            }
            has_left[x] = (uint8_t)have;
        }
        have = 0;
        for (int32_t x = width - 1; x >= 0; x--) {
            if (!inv[x]) {
                have = 1;
                last = d[x];
            } else if (have) {
                row[x] = has_left[x] && row[x] < last ? row[x] : last;
            }
        }
    }
    /* The row fill leaves horizontal streaks where the nearest valid pixels
     * of neighbouring rows differ; the median over a small window, applied
     * to the filled pixels only, evens them out without touching the
     * pixels the check confirmed. */
    if (median > 0) {
        int32_t win[121];
        for (int32_t y = 0; y < height; y++)
            for (int32_t x = 0; x < width; x++) {
                const size_t i = (size_t)y * width + x;
                if (!invalid[i])
                    continue;
                int32_t k = 0;
                for (int32_t yy = y - median; yy <= y + median; yy++)
                    for (int32_t xx = x - median; xx <= x + median; xx++)
                        if (yy >= 0 && yy < height && xx >= 0 && xx < width)
                            win[k++] = f[(size_t)yy * width + xx];
                disp[i] = lower_median(win, k);
            }
    } else {
        for (int64_t i = 0; i < n; i++)
            if (invalid[i])
                disp[i] = f[i];
    }
    gcut_i_free(f);
    gcut_i_free(has_left);
    return GCUT_OK;
}

gcut_status gcut_stereo_bad_pixels(const int32_t *disp, const gcut_image *gt, double gt_scale,
                                   const gcut_image *mask, double threshold, double *percent,
                                   int64_t *counted)
{
    GCUT_ENTRY();
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
            if (g == 0 || (mask && gcut_i_sample8(mask, x, y, 0) == 0))
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
