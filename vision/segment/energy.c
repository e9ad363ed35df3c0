/*
 * energy.c - the segmentation energy, its quantisation, and the grid it
 * becomes.
 *
 * Y. Boykov, M.-P. Jolly, "Interactive graph cuts for optimal boundary &
 * region segmentation of objects in N-D images", ICCV 2001: a binary
 * labelling energy with data terms and a pairwise Potts term is minimised
 * exactly by an s-t minimum cut, and seeds become hard constraints through
 * t-links larger than any cut through the pixel's other edges
 * (K = 1 + max_p sum_q w_pq there; we use the per-pixel sum, which is
 * enough). The contrast-sensitive weight
 *     w_pq = lambda * exp(-beta |I_p - I_q|^2) / dist(p, q),
 *     beta = 1 / (2 <|I_p - I_q|^2>),
 * is the one of C. Rother, V. Kolmogorov, A. Blake, "GrabCut", SIGGRAPH
 * 2004, section 4 (beta from the mean over the image, so that the weights
 * adapt to its contrast).
 *
 * Graph (source side = foreground): node p has cap_sink = D_p(fg) and
 * cap_source = D_p(bg), less their minimum (a constant per pixel, which
 * does not move the minimum); each neighbour pair gets w_pq in both
 * directions.
 *
 * Crop. Only the bounding box of the unknown pixels becomes the grid:
 * outside it every pixel is a seed, so its pair terms with the box are
 * constants or t-link terms of the box's border pixels (folded in), and
 * the minimum over the free pixels is unchanged. A GrabCut rectangle
 * gives a grid of the rectangle's size.
 *
 * Quantisation. Engines take int32 capacities. A cost x becomes
 * round(s * x) with one scale s for the whole grid:
 *     s = min(2^28 / max_p 4 W_p, 2^20)
 * over the pixels of the box, W_p the sum of p's pair weights. The t-links
 * of a node only matter through their difference, which is clamped to the
 * node's hard value 1 + (its arcs in the grid): past that the node's side
 * is fixed in every minimum cut anyway (gcut_i_energy_tlinks). So a
 * t-link is at most 1 + W_p, the out-arcs and the in-arcs sum to W_p
 * each, and the terminal capacity plus every arc capacity in and out of
 * any node stays below 2^28, a factor 8 under INT32_MAX; flow totals are
 * int64. The scale does not depend on the data costs: while only the
 * colour models change (GrabCut iterations), every n-link keeps its value
 * and a re-solve only sees new t-links, which the grid engine replays
 * warm (Kohli & Torr).
 * Each rounded term is off by at most 1/(2s), so for every labelling L
 * |E_q(L) / s - E(L)| <= T / (2s), T the number of terms (pixels + pairs);
 * the cut minimising E_q is therefore within T / s of the float optimum.
 * With typical energies (lambda 50, 8-connected: W_p <= 342) s is near
 * 2^28 / 1100 = 2.4e5 and the bound is a few millionths of a nat per pixel.
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "image/image_internal.h"
#include "segment/segment_internal.h"

/* Offsets of the even directions 0, 2, 4, 6 of grid.h. */
static const int32_t pair_dx[4] = {1, 0, 1, 1};
static const int32_t pair_dy[4] = {0, 1, 1, -1};

double gcut_i_seg_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

double gcut_i_seg_beta(const float *rgb, int32_t w, int32_t h, int32_t conn)
{
    double sum = 0.0;
    int64_t pairs = 0;
    for (int32_t j = 0; j < conn / 2; j++) {
        const int32_t dx = pair_dx[j], dy = pair_dy[j];
        const int32_t y0 = dy < 0 ? 1 : 0, y1 = dy > 0 ? h - 1 : h;
        const int32_t x1 = dx > 0 ? w - 1 : w;
        /* One row at a time in float (short sums), accumulated in double
         * in row order. Four rows run side by side: each row's sum is
         * still its own chain of additions in x order (the same bits),
         * but the four chains do not wait on each other. */
        int32_t y = y0;
        for (; y + 4 <= y1; y += 4) {
            float r0 = 0.0f, r1 = 0.0f, r2 = 0.0f, r3 = 0.0f;
            const float *a = rgb + 3 * ((int64_t)y * w);
            const float *b = rgb + 3 * ((int64_t)(y + dy) * w + dx);
            const int64_t st = 3 * (int64_t)w;
            for (int32_t x = 0; x < x1; x++) {
                r0 += gcut_i_seg_dist2(a + 3 * x, b + 3 * x);
                r1 += gcut_i_seg_dist2(a + st + 3 * x, b + st + 3 * x);
                r2 += gcut_i_seg_dist2(a + 2 * st + 3 * x, b + 2 * st + 3 * x);
                r3 += gcut_i_seg_dist2(a + 3 * st + 3 * x, b + 3 * st + 3 * x);
            }
            sum += r0;
            sum += r1;
            sum += r2;
            sum += r3;
            pairs += 4 * (int64_t)x1;
        }
        for (; y < y1; y++) {
            float row = 0.0f;
            const float *a = rgb + 3 * ((int64_t)y * w);
            const float *b = rgb + 3 * ((int64_t)(y + dy) * w + dx);
            for (int32_t x = 0; x < x1; x++)
                row += gcut_i_seg_dist2(a + 3 * x, b + 3 * x);
            sum += row;
            pairs += x1;
        }
    }
    if (pairs == 0 || sum <= 0.0)
        return 0.0;
    return 1.0 / (2.0 * sum / (double)pairs);
}

/* A second copy for AVX2 machines, picked at load time, as for the GMM
 * likelihoods (gmm.c): the exp of every pair is the cost here, and the
 * loop vectorises; -std=c11 keeps FMA contraction off, so both copies
 * compute the same bits. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__)
__attribute__((target_clones("avx2", "default")))
#endif
gcut_status gcut_i_energy_smoothness(gcut_i_energy *e, const float *rgb)
{
    const int32_t w = e->width, h = e->height;
    for (int32_t j = 0; j < e->connectivity / 2; j++) {
        e->pair[j] = gcut_i_malloc_array(e->n, sizeof(float));
        if (!e->pair[j])
            return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (smoothness weights, %lld pixels)",
                             (long long)e->n);
    }
    const float nbeta = (float)-e->beta;
    for (int32_t j = 0; j < e->connectivity / 2; j++) {
        const int32_t dx = pair_dx[j], dy = pair_dy[j];
        /* dist(p, q): 1 for the axes, sqrt(2) for the diagonals. */
        const float lam = (float)(j < 2 ? e->lambda : e->lambda / sqrt(2.0));
        float *out = e->pair[j];
        for (int32_t y = 0; y < h; y++) {
            float *o = out + (int64_t)y * w;
            const int32_t yy = y + dy;
            if (yy < 0 || yy >= h) {
                memset(o, 0, (size_t)w * sizeof *o);
                continue;
            }
            const float *a = rgb + 3 * ((int64_t)y * w);
            const float *b = rgb + 3 * ((int64_t)yy * w + dx);
            const int32_t x1 = dx > 0 ? w - 1 : w;
            for (int32_t x = 0; x < x1; x++)
                o[x] = lam * gcut_i_exp_neg(nbeta * gcut_i_seg_dist2(a + 3 * x, b + 3 * x));
            for (int32_t x = x1; x < w; x++)
                o[x] = 0.0f;
        }
    }
    return GCUT_OK;
}

double gcut_i_energy_data(const gcut_i_energy *e, const uint8_t *label)
{
    /* Four partial sums (pixels 4q + k), so that the additions do not wait
     * on each other; the order is fixed, so the result is too. */
    double a[4] = {0.0, 0.0, 0.0, 0.0};
    int64_t p = 0;
    for (; p + 4 <= e->n; p += 4)
        for (int k = 0; k < 4; k++)
            a[k] += label[p + k] ? e->dfg[p + k] : e->dbg[p + k];
    for (; p < e->n; p++)
        a[0] += label[p] ? e->dfg[p] : e->dbg[p];
    return (a[0] + a[1]) + (a[2] + a[3]);
}

double gcut_i_energy_smooth(const gcut_i_energy *e, const uint8_t *label)
{
    const int32_t w = e->width, h = e->height;
    double smooth = 0.0;
    for (int32_t j = 0; j < e->connectivity / 2; j++) {
        const int32_t dx = pair_dx[j], dy = pair_dy[j];
        for (int32_t y = 0; y < h; y++) {
            const int32_t yy = y + dy;
            if (yy < 0 || yy >= h)
                continue;
            const uint8_t *la = label + (int64_t)y * w;
            const uint8_t *lb = label + (int64_t)yy * w + dx;
            const float *wt = e->pair[j] + (int64_t)y * w;
            const int32_t x1 = dx > 0 ? w - 1 : w;
            /* Eight pairs at a time: equal label bytes cost nothing, and
             * most of them are equal (only the boundary differs), so whole
             * words are skipped; the sum takes the same terms in the same
             * order as a pixel loop. */
            int32_t x = 0;
            for (; x + 8 <= x1; x += 8) {
                uint64_t wa, wb;
                memcpy(&wa, la + x, 8);
                memcpy(&wb, lb + x, 8);
                if (wa == wb)
                    continue;
                for (int32_t k = x; k < x + 8; k++)
                    if ((la[k] != 0) != (lb[k] != 0))
                        smooth += wt[k];
            }
            for (; x < x1; x++)
                if ((la[x] != 0) != (lb[x] != 0))
                    smooth += wt[x];
        }
    }
    return smooth;
}

double gcut_i_energy_data_delta(const gcut_i_energy *e, const uint8_t *old_label,
                                const uint8_t *label, const uint8_t *rows)
{
    const int32_t w = e->width;
    double d = 0.0;
    for (int32_t y = 0; y < e->height; y++) {
        if (!rows[y])
            continue;
        const int64_t at = (int64_t)y * w;
        for (int32_t x = 0; x < w; x++) {
            const int a = old_label[at + x] != 0, b = label[at + x] != 0;
            if (a != b)
                d += b ? (double)e->dfg[at + x] - (double)e->dbg[at + x]
                       : (double)e->dbg[at + x] - (double)e->dfg[at + x];
        }
    }
    return d;
}

double gcut_i_energy_smooth_delta(const gcut_i_energy *e, const uint8_t *old_label,
                                  const uint8_t *label, const uint8_t *rows)
{
    const int32_t w = e->width, h = e->height;
    double d = 0.0;
    for (int32_t j = 0; j < e->connectivity / 2; j++) {
        const int32_t dx = pair_dx[j], dy = pair_dy[j];
        for (int32_t y = 0; y < h; y++) {
            const int32_t yy = y + dy;
            /* A pair stored at row y joins row yy: it changes only where
             * one of the two rows does. */
            if (yy < 0 || yy >= h || (!rows[y] && !rows[yy]))
                continue;
            const uint8_t *la = label + (int64_t)y * w, *lb = label + (int64_t)yy * w + dx;
            const uint8_t *oa = old_label + (int64_t)y * w, *ob = old_label + (int64_t)yy * w + dx;
            const float *wt = e->pair[j] + (int64_t)y * w;
            const int32_t x1 = dx > 0 ? w - 1 : w;
            for (int32_t x = 0; x < x1; x++) {
                const int now = (la[x] != 0) != (lb[x] != 0);
                const int was = (oa[x] != 0) != (ob[x] != 0);
                if (now != was)
                    d += now ? (double)wt[x] : -(double)wt[x];
            }
        }
    }
    return d;
}

double gcut_i_energy_eval(const gcut_i_energy *e, const uint8_t *label)
{
    return gcut_i_energy_data(e, label) + gcut_i_energy_smooth(e, label);
}

/* The seed codes the shared per-pixel code (segment_math_internal.h) uses. */
_Static_assert(GCUT_I_SEG_SEED_FG == GCUT_SEED_FG && GCUT_I_SEG_SEED_BG == GCUT_SEED_BG,
               "seed codes of segment_math_internal.h");

gcut_i_box gcut_i_seed_box(const uint8_t *seeds, int32_t width, int32_t height)
{
    int32_t x0 = width, x1 = -1, y0 = height, y1 = -1;
    /* Per row, the first unknown pixel from the left (memchr) and the last
     * from the right: a row of mostly unknown pixels costs two reads. */
    for (int32_t y = 0; y < height; y++) {
        const uint8_t *row = seeds + (int64_t)y * width;
        const uint8_t *first = memchr(row, GCUT_SEED_UNKNOWN, (size_t)width);
        if (!first)
            continue;
        int32_t last = width - 1;
        while (row[last] != GCUT_SEED_UNKNOWN)
            last--;
        const int32_t xf = (int32_t)(first - row);
        if (xf < x0)
            x0 = xf;
        if (last > x1)
            x1 = last;
        if (y < y0)
            y0 = y;
        y1 = y;
    }
    gcut_i_box b = {0, 0, 0, 0};
    if (x1 >= 0) {
        b.x0 = x0;
        b.y0 = y0;
        b.w = x1 - x0 + 1;
        b.h = y1 - y0 + 1;
    }
    return b;
}

/* The pair weights of a pixel p = (x, y) whose neighbours all lie inside
 * the image, in direction order (gcut_i_seg_dir_weight's: an odd
 * direction reads pair[j] at the neighbour), for conn 4 or 8. */
static inline void inner_weights(const float *const *pair, int64_t p, int32_t w, int32_t conn,
                                 float out[8])
{
    out[0] = pair[0][p];
    out[1] = pair[0][p - 1];
    out[2] = pair[1][p];
    out[3] = pair[1][p - w];
    if (conn == 8) {
        out[4] = pair[2][p];
        out[5] = pair[2][p - w - 1];
        out[6] = pair[3][p];
        out[7] = pair[3][p + w - 1];
    }
}

double gcut_i_energy_scale(const gcut_i_energy *e, gcut_i_box box)
{
    /* Worst node: terminal (at most the hard value 1 + W_p after the
     * clamp of gcut_i_energy_tlinks) plus out- and in-arcs (W_p each);
     * 4 W_p leaves room for the unit. The data costs play no part, so the
     * scale, and with it every n-link, stays the same while the colour
     * models change (GrabCut iterations then only rewrite t-links). */
    double worst = 0.0;
    const float *const *pair = (const float *const *)e->pair;
    const int32_t W = e->width, H = e->height, conn = e->connectivity;
    const int fast = conn == 4 || conn == 8;
    for (int32_t y = box.y0; y < box.y0 + box.h; y++)
        for (int32_t x = box.x0; x < box.x0 + box.w; x++) {
            double wsum;
            if (fast && x >= 1 && x <= W - 2 && y >= 1 && y <= H - 2) {
                /* Every neighbour inside: gcut_i_seg_wsum's sum, in its
                 * order, without its per-direction checks. */
                float wt[8];
                inner_weights(pair, (int64_t)y * W + x, W, conn, wt);
                wsum = 0.0;
                for (int32_t d = 0; d < conn; d++)
                    wsum += wt[d];
            } else {
                wsum = gcut_i_seg_wsum(pair, W, H, conn, x, y);
            }
            if (4.0 * wsum > worst)
                worst = 4.0 * wsum;
        }
    return gcut_i_energy_scale_from_worst(worst);
}

double gcut_i_energy_scale_from_worst(double worst)
{
    if (worst <= 0.0)
        return GCUT_I_SEG_MAX_SCALE;
    const double s = GCUT_I_SEG_CAP_BUDGET / worst;
    return s < GCUT_I_SEG_MAX_SCALE ? s : GCUT_I_SEG_MAX_SCALE;
}

/* The base of pixel (x, y) of the box (segment_math_internal.h). */
static inline void tlink_base(const gcut_i_energy *e, double scale, const uint8_t *seeds,
                              gcut_i_box box, int32_t x, int32_t y, int64_t base[3])
{
    gcut_i_seg_tlink_base((const float *const *)e->pair, e->width, e->height, e->connectivity,
                          seeds, box.x0, box.y0, box.w, box.h, scale, x, y, base);
}

/* The t-links from the base, the pixel's seed and data costs. */
static inline void tlink_from_base(const gcut_i_energy *e, double scale, uint8_t seed, int64_t p,
                                   const int64_t base[3], int32_t *src, int32_t *snk)
{
    gcut_i_seg_tlink(base, seed, e->dfg[p], e->dbg[p], scale, src, snk);
}

void gcut_i_energy_tlinks(const gcut_i_energy *e, double scale, const uint8_t *seeds,
                          gcut_i_box box, int32_t x, int32_t y, int32_t *src, int32_t *snk)
{
    int64_t base[3];
    tlink_base(e, scale, seeds, box, x, y, base);
    const int64_t p = (int64_t)y * e->width + x;
    tlink_from_base(e, scale, seeds[p], p, base, src, snk);
}

gcut_status gcut_i_energy_tlink_base(const gcut_i_energy *e, double scale, const uint8_t *seeds,
                                     gcut_i_box box, int32_t *base)
{
    const int32_t conn = e->connectivity;
    const int fast = conn == 4 || conn == 8;
    for (int32_t by = 0; by < box.h; by++)
        for (int32_t bx = 0; bx < box.w; bx++) {
            int64_t b[3];
            if (fast && bx >= 1 && bx <= box.w - 2 && by >= 1 && by <= box.h - 2) {
                /* Every neighbour inside the box: no folded term, and
                 * every arc counts in both hard values. */
                float wt[8];
                inner_weights((const float *const *)e->pair,
                              (int64_t)(box.y0 + by) * e->width + box.x0 + bx, e->width, conn, wt);
                int64_t hard = 1;
                for (int32_t d = 0; d < conn; d++)
                    hard += gcut_i_seg_quant(scale, wt[d]);
                b[0] = hard;
                b[1] = hard;
                b[2] = 0;
            } else {
                tlink_base(e, scale, seeds, box, box.x0 + bx, box.y0 + by, b);
            }
            /* Each part is at most the hard value, below the budget. */
            int32_t *o = base + 3 * ((int64_t)by * box.w + bx);
            o[0] = (int32_t)b[0];
            o[1] = (int32_t)b[1];
            o[2] = (int32_t)b[2];
        }
    return GCUT_OK;
}

gcut_status gcut_i_energy_fill_links(const gcut_i_energy *e, double scale, gcut_i_box box,
                                     gcut_grid *g, int32_t *tmp)
{
    gcut_status st;
    for (int32_t d = 0; d < e->connectivity; d++) {
        int32_t dx, dy;
        gcut_i_seg_dir(d, &dx, &dy);
        const int32_t j = d >> 1;
        const float *wt = e->pair[j];
        /* The pair weight of node (x, y) in direction d: pair[j] at the
         * node itself for even d, at the neighbour for odd d. Neighbours
         * outside the box get 0 (their term is folded into the t-link). */
        for (int32_t by = 0; by < box.h; by++) {
            const int32_t y = box.y0 + by, ny = y + dy;
            int32_t *o = tmp + (int64_t)by * box.w;
            if (ny < box.y0 || ny >= box.y0 + box.h) {
                memset(o, 0, (size_t)box.w * sizeof *o);
                continue;
            }
            const float *row = wt + (int64_t)((d & 1) ? ny : y) * e->width;
            const int32_t shift = (d & 1) ? dx : 0;
            for (int32_t bx = 0; bx < box.w; bx++) {
                const int32_t x = box.x0 + bx, nx = x + dx;
                o[bx] = (nx >= box.x0 && nx < box.x0 + box.w)
                            ? gcut_i_seg_quant(scale, row[x + shift])
                            : 0;
            }
        }
        if ((st = gcut_grid_set_caps(g, d, tmp)) != GCUT_OK)
            return st;
    }
    return GCUT_OK;
}

gcut_status gcut_i_energy_fill_terminals(const gcut_i_energy *e, double scale,
                                         const uint8_t *seeds, gcut_i_box box,
                                         const int32_t *base, gcut_grid *g, int32_t *tmp)
{
    const int64_t nb = (int64_t)box.w * box.h;
    for (int32_t by = 0; by < box.h; by++)
        for (int32_t bx = 0; bx < box.w; bx++) {
            const int64_t v = (int64_t)by * box.w + bx;
            const int32_t x = box.x0 + bx, y = box.y0 + by;
            if (!base) {
                gcut_i_energy_tlinks(e, scale, seeds, box, x, y, &tmp[v], &tmp[nb + v]);
                continue;
            }
            const int64_t b[3] = {base[3 * v], base[3 * v + 1], base[3 * v + 2]};
            const int64_t p = (int64_t)y * e->width + x;
            tlink_from_base(e, scale, seeds[p], p, b, &tmp[v], &tmp[nb + v]);
        }
    return gcut_grid_set_terminal_caps(g, tmp, tmp + nb);
}

gcut_status gcut_i_energy_fill_grid(const gcut_i_energy *e, double scale, const uint8_t *seeds,
                                    gcut_i_box box, gcut_grid *g, int32_t *tmp)
{
    gcut_status st = gcut_i_energy_fill_links(e, scale, box, g, tmp);
    if (st != GCUT_OK)
        return st;
    return gcut_i_energy_fill_terminals(e, scale, seeds, box, NULL, g, tmp);
}

void gcut_i_energy_free(gcut_i_energy *e)
{
    if (!e)
        return;
    gcut_i_free(e->dfg);
    gcut_i_free(e->dbg);
    for (int j = 0; j < 4; j++)
        gcut_i_free(e->pair[j]);
    memset(e, 0, sizeof *e);
}

/* ---------------------------------------------------------------- pixels */

gcut_status gcut_i_seg_rgb(const char *func, const gcut_image *img, float **out)
{
    gcut_status st = gcut_i_image_check(func, img);
    if (st != GCUT_OK)
        return st;
    const int64_t n = (int64_t)img->width * img->height;
    float *rgb = gcut_i_malloc_array(3 * n, sizeof(float));
    if (!rgb)
        return gcut_i_fail(GCUT_ERR_NOMEM, func, "out of memory (%lld pixels)", (long long)n);
    const int32_t ch = img->channels;
    for (int32_t y = 0; y < img->height; y++) {
        const uint8_t *row = img->data + (size_t)y * img->stride;
        float *o = rgb + 3 * (int64_t)y * img->width;
        if (img->depth == 8 && ch == 3) {
            /* The common case: the row's bytes as they are. */
            for (int64_t i = 0; i < 3 * (int64_t)img->width; i++)
                o[i] = row[i];
            continue;
        }
        for (int32_t x = 0; x < img->width; x++) {
            for (int c = 0; c < 3; c++) {
                const int32_t src = ch == 1 ? 0 : c;
                float v;
                if (img->depth == 8)
                    v = row[(size_t)x * ch + src];
                else
                    v = (float)((const uint16_t *)(const void *)row)[(size_t)x * ch + src] /
                        257.0f;
                o[3 * x + c] = v;
            }
        }
    }
    *out = rgb;
    return GCUT_OK;
}
