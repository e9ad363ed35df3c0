/*
 * segment_math_internal.h - the per-pixel arithmetic of the segmentation
 * energy (energy.c, gmm.c), shared word for word with the device kernels
 * of the CUDA plugin (cuda/vision/seg_kernels.cuh), so that the CPU and the
 * GPU compute the same bits and quantise to the same capacities.
 *
 * What makes the bits the same:
 *  - exp and log are the polynomials below on both sides (no libm, whose
 *    expf/logf differ from CUDA's in the last bits);
 *  - every expression is written in the order it must be evaluated, and
 *    a*b + c is two roundings on both sides: C11 (-std=c11, no GNU
 *    extensions) keeps FMA contraction off on the host, and the plugin
 *    compiles the file that includes this one with -fmad=false;
 *  - float division and double arithmetic are IEEE round-to-nearest on
 *    both (nvcc's default -prec-div=true, no fast-math anywhere).
 *
 * Plain C11 that also compiles as CUDA C++ (functions are host+device
 * there); it includes nothing but stdint.h.
 */
#ifndef GCUT_VISION_SEGMENT_MATH_INTERNAL_H
#define GCUT_VISION_SEGMENT_MATH_INTERNAL_H

#include <stdint.h>

#if defined(__CUDACC__)
#define GCUT_I_SEGM static __host__ __device__ __forceinline__
#else
#define GCUT_I_SEGM static inline
#endif

/* Total capacity any node may reach after quantisation: its terminal
 * capacity plus the capacities of all its arcs, in and out. 2^28 leaves a
 * factor 8 below INT32_MAX for engines that add a few of these together
 * (warm re-solve reparametrisations, terminal cancelling). */
#define GCUT_I_SEG_CAP_BUDGET ((double)(1 << 28))

/* The scale never exceeds this, so that tiny energies (a flat image) do not
 * blow single unit costs up to huge capacities for nothing: 2^20 units per
 * nat is already far finer than any colour model is accurate. */
#define GCUT_I_SEG_MAX_SCALE ((double)(1 << 20))

/* The seed codes of gcut/vision/segment.h (energy.c checks they agree). */
#define GCUT_I_SEG_SEED_FG 1
#define GCUT_I_SEG_SEED_BG 2

/* A float from its bits, and back. */
GCUT_I_SEGM float gcut_i_seg_bits_float(int32_t i)
{
#if defined(__CUDA_ARCH__)
    return __int_as_float(i);
#else
    union {
        int32_t i;
        float f;
    } u;
    u.i = i;
    return u.f;
#endif
}

GCUT_I_SEGM int32_t gcut_i_seg_float_bits(float f)
{
#if defined(__CUDA_ARCH__)
    return __float_as_int(f);
#else
    union {
        int32_t i;
        float f;
    } u;
    u.f = f;
    return u.i;
#endif
}

/* exp(x) for x <= 0 in float, by 2^x = 2^n 2^f with n = round(x log2 e)
 * and a degree-6 Taylor polynomial of 2^f on [-1/2, 1/2] (relative error
 * below 2e-7, the precision of a float); 0 below 2^-126. Branch-free and
 * without calls, so the compiler vectorises the loops that use it (the
 * files whose loops use it are compiled with -fno-trapping-math
 * (vision/CMakeLists.txt), without which GCC keeps them scalar). */
GCUT_I_SEGM float gcut_i_exp_neg(float x)
{
    const float t0 = x * 1.44269504088896341f;
    const float t = t0 > -126.0f ? t0 : -126.0f;
    /* Round to nearest through the float mantissa (|t| < 2^22). */
    const float nf = (t + 12582912.0f) - 12582912.0f;
    const float f = (t - nf) * 0.69314718055994531f;
    const float p =
        1.0f + f * (1.0f + f * (0.5f + f * (1.6666667e-1f + f * (4.1666668e-2f +
                                                             f * (8.3333338e-3f +
                                                                  f * 1.3888889e-3f)))));
    return p * gcut_i_seg_bits_float(((int32_t)nf + 127) << 23);
}

/* log(x) for x >= 1 (a log-sum-exp whose largest term is 1): x = m 2^e
 * with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh((m - 1) / (m + 1)) by its
 * series to z^9 (error below 1e-8 for |z| <= 0.172). */
GCUT_I_SEGM float gcut_i_log_ge1(float x)
{
    int32_t i = gcut_i_seg_float_bits(x);
    int32_t e = ((i >> 23) & 255) - 127;
    float m = gcut_i_seg_bits_float((i & 0x007fffff) | 0x3f800000); /* m in [1, 2) */
    const int32_t big = m > 1.41421356f;
    m = big ? m * 0.5f : m;
    e += big;
    const float z = (m - 1.0f) / (m + 1.0f), z2 = z * z;
    const float at = z * (2.0f + z2 * (0.66666667f + z2 * (0.4f + z2 * (0.28571429f +
                                                                     z2 * 0.22222222f))));
    return at + (float)e * 0.69314718055994531f;
}

/* |a - b|^2 of two RGB triples. */
GCUT_I_SEGM float gcut_i_seg_dist2(const float *a, const float *b)
{
    const float d0 = a[0] - b[0], d1 = a[1] - b[1], d2 = a[2] - b[2];
    return d0 * d0 + d1 * d1 + d2 * d2;
}

/* The Mahalanobis form of a GMM component (upper triangle xx 2xy 2xz yy
 * 2yz zz of the inverse covariance) at the offset (d0, d1, d2) from its mean. */
GCUT_I_SEGM float gcut_i_gmm_quad(float d0, float d1, float d2, float a0, float a1, float a2,
                                  float a3, float a4, float a5)
{
    return d0 * (a0 * d0 + a1 * d1 + a2 * d2) + d1 * (a3 * d1 + a4 * d2) + d2 * a5 * d2;
}

/* round(scale * x) for 0 <= x; scale * x stays below the budget by the
 * choice of scale, the clamp only guards against a model changed since. */
GCUT_I_SEGM int32_t gcut_i_seg_quant(double scale, float x)
{
    const double v = (double)x * scale + 0.5;
    return v < GCUT_I_SEG_CAP_BUDGET ? (int32_t)v : (int32_t)GCUT_I_SEG_CAP_BUDGET;
}

/* Offset of grid.h's 2D direction d (0..7): direction 2j is +x, +y, +x+y,
 * +x-y for j = 0..3, and 2j + 1 its opposite. */
GCUT_I_SEGM void gcut_i_seg_dir(int32_t d, int32_t *dx, int32_t *dy)
{
    const int32_t j = d >> 1, sgn = (d & 1) ? -1 : 1;
    *dx = sgn * (j == 1 ? 0 : 1);
    *dy = sgn * (j == 0 ? 0 : (j == 3 ? -1 : 1));
}

/* Weight of the pair between (x, y) and its neighbour (nx, ny) in
 * direction d (inside the image): pair[j] holds the weight of each pixel
 * with its neighbour in direction 2j, so an odd direction reads it at the
 * neighbour. */
GCUT_I_SEGM float gcut_i_seg_dir_weight(const float *const *pair, int32_t width, int32_t d,
                                        int32_t x, int32_t y, int32_t nx, int32_t ny)
{
    const int32_t j = d >> 1;
    return (d & 1) ? pair[j][(int64_t)ny * width + nx] : pair[j][(int64_t)y * width + x];
}

/* Sum of the pair weights of pixel (x, y) over its neighbours inside the
 * image, in direction order (gcut_i_energy_scale takes the largest). */
GCUT_I_SEGM double gcut_i_seg_wsum(const float *const *pair, int32_t width, int32_t height,
                                   int32_t conn, int32_t x, int32_t y)
{
    double wsum = 0.0;
    for (int32_t d = 0; d < conn; d++) {
        int32_t dx, dy;
        gcut_i_seg_dir(d, &dx, &dy);
        const int32_t nx = x + dx, ny = y + dy;
        if (nx >= 0 && nx < width && ny >= 0 && ny < height)
            wsum += gcut_i_seg_dir_weight(pair, width, d, x, y, nx, ny);
    }
    return wsum;
}

/* The parts of a t-link of pixel (x, y) of the box (bx0, by0, bw, bh) that
 * do not depend on the pixel's own seed or data costs: base[0] = hard (1 +
 * all its quantised pair weights), base[1] = hard_in (1 + those of its arcs
 * in the box), base[2] = the folded terms of its fixed neighbours outside
 * the box (source minus sink). */
GCUT_I_SEGM void gcut_i_seg_tlink_base(const float *const *pair, int32_t width, int32_t height,
                                       int32_t conn, const uint8_t *seeds, int32_t bx0,
                                       int32_t by0, int32_t bw, int32_t bh, double scale,
                                       int32_t x, int32_t y, int64_t base[3])
{
    int64_t hard = 1, hard_in = 1, net = 0;
    for (int32_t d = 0; d < conn; d++) {
        int32_t dx, dy;
        gcut_i_seg_dir(d, &dx, &dy);
        const int32_t nx = x + dx, ny = y + dy;
        if (nx < 0 || nx >= width || ny < 0 || ny >= height)
            continue;
        const int32_t q = gcut_i_seg_quant(scale, gcut_i_seg_dir_weight(pair, width, d, x, y, nx, ny));
        hard += q;
        if (nx >= bx0 && nx < bx0 + bw && ny >= by0 && ny < by0 + bh)
            hard_in += q;
        else if (seeds[(int64_t)ny * width + nx] == GCUT_I_SEG_SEED_FG)
            net += q; /* a fixed neighbour: disagreeing with it costs w_pq */
        else
            net -= q;
    }
    base[0] = hard;
    base[1] = hard_in;
    base[2] = net;
}

/* The t-links of a pixel from its base, its seed and its data costs. */
GCUT_I_SEGM void gcut_i_seg_tlink(const int64_t base[3], uint8_t seed, float dfg, float dbg,
                                  double scale, int32_t *src, int32_t *snk)
{
    int64_t net = base[2];
    const int64_t hard_in = base[1];
    if (seed == GCUT_I_SEG_SEED_FG) {
        net += base[0];
    } else if (seed == GCUT_I_SEG_SEED_BG) {
        net -= base[0];
    } else {
        /* Only the difference of the data costs matters: the smaller one
         * is a constant of every labelling. */
        const float d = dfg - dbg;
        net += d < 0.0f ? gcut_i_seg_quant(scale, -d) : -(int64_t)gcut_i_seg_quant(scale, d);
    }
    /* Only the difference net = source - sink matters, and once |net|
     * reaches hard_in (1 + the node's arcs in the grid, out or in: they
     * are symmetric) the node lies on net's side in every minimum cut:
     * moving it there gains |net| and costs at most hard_in - 1. So the
     * clamp keeps the minimum cuts, and bounds every t-link by the pair
     * weights alone (see gcut_i_energy_scale). */
    if (net > hard_in)
        net = hard_in;
    else if (net < -hard_in)
        net = -hard_in;
    *src = net > 0 ? (int32_t)net : 0;
    *snk = net < 0 ? (int32_t)-net : 0;
}

/* One pixel of gcut_i_gmm_nll_run: -log sum_k pi_k N_k(x) over the live
 * components live[0 .. nl-1] (nl >= 1) and the most likely one in *best,
 * with exactly the operations of that loop (the first live component
 * starts the maximum, a later one replaces it only when strictly larger;
 * the exponentials are summed in component order). Each log-likelihood is
 * computed twice rather than kept in an array (same bits each time). */
GCUT_I_SEGM float gcut_i_gmm_pixel(const float *x, int32_t nl, const int32_t *live,
                                   const float (*fmean)[3], const float (*inv)[6],
                                   const float *logc, uint8_t *best)
{
    float top = 0.0f;
    int32_t arg = 0;
    for (int32_t j = 0; j < nl; j++) {
        const int32_t c = live[j];
        const float *iv = inv[c];
        const float l = logc[c] - 0.5f * gcut_i_gmm_quad(x[0] - fmean[c][0], x[1] - fmean[c][1],
                                                          x[2] - fmean[c][2], iv[0], iv[1],
                                                          iv[2], iv[3], iv[4], iv[5]);
        if (j == 0 || l > top) {
            top = l;
            arg = c;
        }
    }
    float sum = 0.0f;
    for (int32_t j = 0; j < nl; j++) {
        const int32_t c = live[j];
        const float *iv = inv[c];
        const float l = logc[c] - 0.5f * gcut_i_gmm_quad(x[0] - fmean[c][0], x[1] - fmean[c][1],
                                                          x[2] - fmean[c][2], iv[0], iv[1],
                                                          iv[2], iv[3], iv[4], iv[5]);
        sum += gcut_i_exp_neg(l - top);
    }
    *best = (uint8_t)arg;
    return -(top + gcut_i_log_ge1(sum));
}

/* The histogram cell of a colour in [0, 255]^3 (histogram.c). */
GCUT_I_SEGM int32_t gcut_i_hist_cell(int32_t bins, const float *x)
{
    int32_t c = 0;
    for (int i = 0; i < 3; i++) {
        int32_t b = (int32_t)(x[i] * (float)bins / 256.0f);
        b = b < 0 ? 0 : (b >= bins ? bins - 1 : b);
        c = c * bins + b;
    }
    return c;
}

#endif /* GCUT_VISION_SEGMENT_MATH_INTERNAL_H */
