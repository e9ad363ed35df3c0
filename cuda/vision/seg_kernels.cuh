/*
 * seg_kernels.cuh - device code of the segmentation energies (kernels
 * only; seg_launch.cu sizes and launches them).
 *
 * The energy is that of vision/segment/energy.c (Boykov & Jolly, ICCV 2001; the
 * contrast term and the GMMs of Rother, Kolmogorov & Blake, "GrabCut",
 * SIGGRAPH 2004). Every per-pixel formula comes from
 * vision/segment/segment_math_internal.h, the header the CPU code uses, and this
 * file is compiled with -fmad=false, so each pixel's values are the CPU's
 * bit for bit. Where the CPU sums over many pixels the kernels keep its
 * order when it matters:
 *  - beta: each image row is summed in float by one thread, left to
 *    right as the CPU does, and one thread adds the rows in double in the
 *    CPU's order (beta_rows_kernel, beta_final_kernel): the same bits;
 *  - GMM moments: per-block trees then a sequential sum over the blocks
 *    (moments_kernel, moments_final_kernel): deterministic, and exact
 *    (hence equal to the CPU's sequential sums) when the colours are whole
 *    numbers, as for 8-bit images, because every partial sum is then an
 *    integer below 2^53; with 16-bit images the last bits may differ;
 *  - the largest pair-weight sum (worst_kernel): a maximum, exact in any order.
 *
 * Invariants: every kernel checks its index against the sizes it is given
 * and touches nothing else; the reductions' shared arrays are written and
 * read only between __syncthreads() of the whole block (no thread returns
 * early from them).
 */
#ifndef GCUT_CU_SEG_KERNELS_CUH
#define GCUT_CU_SEG_KERNELS_CUH

#include <stdint.h>

#include "vision/seg_tuning.h"
#include "segment/segment_math_internal.h"

namespace gcut_seg_cu {

/* A class's model as the kernels read it (device memory, built from a
 * gcut_seg_dev_model by the launcher): the live components listed in order. */
struct Model {
    int32_t kind; /* GCUT_SEG_DEV_* */
    int32_t nl;   /* live components */
    int32_t bins; /* histogram */
    int32_t pad;
    int32_t live[GCUT_SEG_PLUGIN_MAX_K];
    float mean[GCUT_SEG_PLUGIN_MAX_K][3];
    float inv[GCUT_SEG_PLUGIN_MAX_K][6];
    float logc[GCUT_SEG_PLUGIN_MAX_K];
};

/* The pair-weight arrays (direction 2j in p[j]); unused ones NULL. */
struct Pairs {
    const float *p[4];
};

/* A box of the image. */
struct Box {
    int32_t x0, y0, w, h;
};

/* One pixel's GMM cost and best component (INFINITY and 0 without a live
 * component, as gcut_i_gmm_nll_run). */
static __device__ __forceinline__ float gmm_cost(const Model *__restrict__ m, const float *x,
                                                 uint8_t *best)
{
    if (m->nl <= 0) {
        *best = 0;
        return __int_as_float(0x7f800000);
    }
    return gcut_i_gmm_pixel(x, m->nl, m->live, m->mean, m->inv, m->logc, best);
}

/* ------------------------------------------------------------ beta */

/* rowsum[j * h + y]: the float sum over the row y of |I_p - I_q|^2 with q
 * the neighbour in direction 2j, left to right (gcut_i_seg_beta's inner
 * loop); 0 for a row without pairs. */
static __global__ void beta_rows_kernel(const float *__restrict__ rgb, int32_t w, int32_t h,
                                        int32_t ndirs, float *const __restrict__ rowsum)
{
    const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (int64_t)ndirs * h)
        return;
    const int32_t j = (int32_t)(t / h), y = (int32_t)(t % h);
    int32_t dx, dy;
    gcut_i_seg_dir(2 * j, &dx, &dy);
    const int32_t y0 = dy < 0 ? 1 : 0, y1 = dy > 0 ? h - 1 : h;
    const int32_t x1 = dx > 0 ? w - 1 : w;
    float row = 0.0f;
    if (y >= y0 && y < y1) {
        const float *a = rgb + 3 * ((int64_t)y * w);
        const float *b = rgb + 3 * ((int64_t)(y + dy) * w + dx);
        for (int32_t x = 0; x < x1; x++)
            row += gcut_i_seg_dist2(a + 3 * x, b + 3 * x);
    }
    rowsum[t] = row;
}

/* beta from the row sums, added in double in gcut_i_seg_beta's order (one
 * thread: a few thousand additions). */
static __global__ void beta_final_kernel(const float *__restrict__ rowsum, int32_t w, int32_t h,
                                         int32_t ndirs, double *const __restrict__ out)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)
        return;
    double sum = 0.0;
    int64_t pairs = 0;
    for (int32_t j = 0; j < ndirs; j++) {
        int32_t dx, dy;
        gcut_i_seg_dir(2 * j, &dx, &dy);
        const int32_t y0 = dy < 0 ? 1 : 0, y1 = dy > 0 ? h - 1 : h;
        const int32_t x1 = dx > 0 ? w - 1 : w;
        for (int32_t y = y0; y < y1; y++) {
            sum += rowsum[(int64_t)j * h + y];
            pairs += x1;
        }
    }
    out[0] = (pairs == 0 || sum <= 0.0) ? 0.0 : 1.0 / (2.0 * sum / (double)pairs);
}

/* ------------------------------------------------------------ pair weights */

/* pair[j][p] = lam_j exp(-beta |I_p - I_q|^2), q the neighbour of p in
 * direction 2j (blockIdx.y = j), 0 where q is outside the image
 * (gcut_i_energy_smoothness). */
static __global__ void pair_kernel(const float *__restrict__ rgb, int32_t w, int32_t h,
                                   float nbeta, float lam_axis, float lam_diag, float *const p0,
                                   float *const p1, float *const p2, float *const p3)
{
    const int64_t n = (int64_t)w * h;
    const int64_t p = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int32_t j = (int32_t)blockIdx.y;
    if (p >= n || j > 3)
        return;
    float *const out = j == 0 ? p0 : j == 1 ? p1 : j == 2 ? p2 : p3;
    const int32_t y = (int32_t)(p / w), x = (int32_t)(p % w);
    int32_t dx, dy;
    gcut_i_seg_dir(2 * j, &dx, &dy);
    const int32_t yy = y + dy, x1 = dx > 0 ? w - 1 : w;
    float v = 0.0f;
    if (yy >= 0 && yy < h && x < x1) {
        const float lam = j < 2 ? lam_axis : lam_diag;
        v = lam * gcut_i_exp_neg(nbeta * gcut_i_seg_dist2(rgb + 3 * p,
                                                          rgb + 3 * ((int64_t)yy * w + x + dx)));
    }
    out[p] = v;
}

/* ------------------------------------------------------------ data costs */

struct DataArgs {
    const float *rgb;
    int32_t w;
    int64_t n;
    Box box;
    const Model *fg, *bg;
    const float *hfg, *hbg; /* histogram tables (when kind is histogram) */
    const uint8_t *seeds;
    float *dfg, *dbg;
    uint8_t *cfg, *cbg;
};

/* The data costs of session.c's data_terms: the background's everywhere,
 * the foreground's inside the box and at foreground seeds; outside the box
 * a pixel costs its seed class's cost in both arrays. */
static __global__ void data_kernel(const DataArgs a)
{
    const int64_t p = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= a.n)
        return;
    const int32_t y = (int32_t)(p / a.w), x = (int32_t)(p % a.w);
    const uint8_t seed = a.seeds[p];
    const int both = x >= a.box.x0 && x < a.box.x0 + a.box.w && y >= a.box.y0 &&
                     y < a.box.y0 + a.box.h;
    const int want_fg = both || seed == GCUT_I_SEG_SEED_FG;
    const float *px = a.rgb + 3 * p;
    float vf = 0.0f, vb = 0.0f;
    if (a.bg->kind == GCUT_SEG_DEV_GMM) {
        uint8_t cb = 0, cf = 0;
        vb = gmm_cost(a.bg, px, &cb);
        a.cbg[p] = cb;
        if (want_fg) {
            vf = gmm_cost(a.fg, px, &cf);
            a.cfg[p] = cf;
        }
    } else {
        if (want_fg)
            vf = a.hfg[gcut_i_hist_cell(a.fg->bins, px)];
        if (both || seed == GCUT_I_SEG_SEED_BG)
            vb = a.hbg[gcut_i_hist_cell(a.bg->bins, px)];
    }
    if (!both) {
        /* A fixed pixel outside the box: only its own class counts. */
        if (seed == GCUT_I_SEG_SEED_FG)
            vb = vf;
        else
            vf = vb;
    }
    a.dfg[p] = vf;
    a.dbg[p] = vb;
}

/* ------------------------------------------------------------ the scale */

/* Per block, the largest 4 * (pair-weight sum) of its pixels of the box
 * (gcut_i_energy_scale); 0 for a block without pixels. */
template <int CONN>
static __global__ void __launch_bounds__(SEG_RED_THREADS)
    worst_kernel(const Pairs pr, int32_t w, int32_t h, const Box box,
                 double *const __restrict__ partial)
{
    __shared__ double sh[SEG_RED_THREADS];
    const int32_t tid = (int32_t)threadIdx.x;
    const int64_t nb = (int64_t)box.w * box.h;
    const float *const pp[4] = {pr.p[0], pr.p[1], pr.p[2], pr.p[3]};
    double best = 0.0;
    for (int64_t v = (int64_t)blockIdx.x * SEG_RED_THREADS + tid; v < nb;
         v += (int64_t)gridDim.x * SEG_RED_THREADS) {
        const int32_t x = box.x0 + (int32_t)(v % box.w), y = box.y0 + (int32_t)(v / box.w);
        const double ws = 4.0 * gcut_i_seg_wsum(pp, w, h, CONN, x, y);
        if (ws > best)
            best = ws;
    }
    sh[tid] = best;
    __syncthreads();
    for (int32_t s = SEG_RED_THREADS / 2; s > 0; s >>= 1) {
        if (tid < s && sh[tid + s] > sh[tid])
            sh[tid] = sh[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = sh[0];
}

/* The largest of `count` partial maxima (one block). */
static __global__ void __launch_bounds__(SEG_RED_THREADS)
    max_final_kernel(const double *__restrict__ partial, int64_t count,
                     double *const __restrict__ out)
{
    __shared__ double sh[SEG_RED_THREADS];
    const int32_t tid = (int32_t)threadIdx.x;
    double best = 0.0;
    for (int64_t i = tid; i < count; i += SEG_RED_THREADS)
        if (partial[i] > best)
            best = partial[i];
    sh[tid] = best;
    __syncthreads();
    for (int32_t s = SEG_RED_THREADS / 2; s > 0; s >>= 1) {
        if (tid < s && sh[tid + s] > sh[tid])
            sh[tid] = sh[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[0] = sh[0];
}

/* ------------------------------------------------------------ n-links */

/* out[v] = the quantised weight of box pixel v with its neighbour in
 * direction d when that neighbour is in the box, else 0
 * (gcut_i_energy_fill_links). pj = the pair array of direction d. */
static __global__ void links_kernel(const float *__restrict__ pj, int32_t w, const Box box,
                                    int32_t d, double scale, int32_t *const __restrict__ out)
{
    const int64_t nb = (int64_t)box.w * box.h;
    const int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= nb)
        return;
    const int32_t x = box.x0 + (int32_t)(v % box.w), y = box.y0 + (int32_t)(v / box.w);
    int32_t dx, dy;
    gcut_i_seg_dir(d, &dx, &dy);
    const int32_t nx = x + dx, ny = y + dy;
    int32_t q = 0;
    if (nx >= box.x0 && nx < box.x0 + box.w && ny >= box.y0 && ny < box.y0 + box.h) {
        /* gcut_i_seg_dir_weight with the array of d's pair chosen by the host. */
        const float wt = (d & 1) ? pj[(int64_t)ny * w + nx] : pj[(int64_t)y * w + x];
        q = gcut_i_seg_quant(scale, wt);
    }
    out[v] = q;
}

/* ------------------------------------------------------------ t-links */

/* base[3 v ..] of box pixel v (gcut_i_energy_tlink_base). */
template <int CONN>
static __global__ void base_kernel(const Pairs pr, int32_t w, int32_t h,
                                   const uint8_t *__restrict__ seeds, const Box box, double scale,
                                   int32_t *const __restrict__ base)
{
    const int64_t nb = (int64_t)box.w * box.h;
    const int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= nb)
        return;
    const int32_t x = box.x0 + (int32_t)(v % box.w), y = box.y0 + (int32_t)(v / box.w);
    const float *const pp[4] = {pr.p[0], pr.p[1], pr.p[2], pr.p[3]};
    int64_t b[3];
    gcut_i_seg_tlink_base(pp, w, h, CONN, seeds, box.x0, box.y0, box.w, box.h, scale, x, y, b);
    /* Each part is at most the hard value, below the budget. */
    base[3 * v] = (int32_t)b[0];
    base[3 * v + 1] = (int32_t)b[1];
    base[3 * v + 2] = (int32_t)b[2];
}

/* The t-links of box pixel v from its base, seed and data costs
 * (gcut_i_energy_fill_terminals). */
static __global__ void tlink_kernel(const int32_t *__restrict__ base,
                                    const uint8_t *__restrict__ seeds,
                                    const float *__restrict__ dfg, const float *__restrict__ dbg,
                                    int32_t w, const Box box, double scale,
                                    int32_t *const __restrict__ src,
                                    int32_t *const __restrict__ snk)
{
    const int64_t nb = (int64_t)box.w * box.h;
    const int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= nb)
        return;
    const int64_t p = (int64_t)(box.y0 + (int32_t)(v / box.w)) * w + box.x0 + (int32_t)(v % box.w);
    const int64_t b[3] = {base[3 * v], base[3 * v + 1], base[3 * v + 2]};
    int32_t s = 0, t = 0;
    gcut_i_seg_tlink(b, seeds[p], dfg[p], dbg[p], scale, &s, &t);
    src[v] = s;
    snk[v] = t;
}

/* ------------------------------------------------------------ GMM learning */

struct PassArgs {
    const float *rgb;
    int64_t n;
    const uint8_t *select;
    uint8_t want;
    int32_t mode; /* GCUT_SEG_PASS_* */
    int32_t k;
    int32_t widest, used;
    double ax0, ax1, ax2, thr;
    const Model *model;  /* ASSIGN */
    const uint8_t *from; /* FROM_DATA: the data pass's components of the class */
    uint8_t *comp;       /* the class's components */
    double *partial;     /* gridDim.x * k * GCUT_SEG_MOMENTS */
};

/* One pass of GMM learning over a tile of SEG_RED_THREADS *
 * SEG_MOMENT_PER_THREAD pixels per block: update the component of each
 * selected pixel as the mode says, then, component by component, each
 * thread sums the moments of its pixels (in order) and the block adds the
 * threads' sums by a tree; partial[(block * k + c) * M + m]. */
static __global__ void __launch_bounds__(SEG_RED_THREADS) moments_kernel(const PassArgs a)
{
    __shared__ double sh[GCUT_SEG_MOMENTS][SEG_RED_THREADS];
    const int32_t tid = (int32_t)threadIdx.x;
    const int64_t first = (int64_t)blockIdx.x * SEG_RED_THREADS * SEG_MOMENT_PER_THREAD;
    int32_t cs[SEG_MOMENT_PER_THREAD];
    float px[SEG_MOMENT_PER_THREAD][3];
#pragma unroll
    for (int i = 0; i < SEG_MOMENT_PER_THREAD; i++) {
        const int64_t p = first + (int64_t)i * SEG_RED_THREADS + tid;
        cs[i] = -1;
        px[i][0] = px[i][1] = px[i][2] = 0.0f;
        if (p >= a.n || a.select[p] != a.want)
            continue;
        const float *x = a.rgb + 3 * p;
        px[i][0] = x[0];
        px[i][1] = x[1];
        px[i][2] = x[2];
        int32_t c = -1;
        if (a.mode == GCUT_SEG_PASS_START) {
            a.comp[p] = 0;
            c = 0;
        } else if (a.mode == GCUT_SEG_PASS_SPLIT) {
            if (a.comp[p] == a.widest) {
                const double proj = a.ax0 * x[0] + a.ax1 * x[1] + a.ax2 * x[2];
                c = proj > a.thr ? a.used : a.widest;
                a.comp[p] = (uint8_t)c;
            }
        } else if (a.mode == GCUT_SEG_PASS_ASSIGN) {
            uint8_t b = 0;
            (void)gmm_cost(a.model, px[i], &b);
            a.comp[p] = b;
            c = b < a.k ? b : 0;
        } else {
            const uint8_t b = a.from[p];
            a.comp[p] = b;
            c = b < a.k ? b : 0;
        }
        cs[i] = c;
    }
    for (int32_t c = 0; c < a.k; c++) {
        int has = 0;
#pragma unroll
        for (int i = 0; i < SEG_MOMENT_PER_THREAD; i++)
            has |= cs[i] == c;
        double *const out = a.partial + ((int64_t)blockIdx.x * a.k + c) * GCUT_SEG_MOMENTS;
        /* A barrier too: the previous component's reads of sh are done. */
        if (!__syncthreads_or(has)) {
            if (tid < GCUT_SEG_MOMENTS)
                out[tid] = 0.0;
            continue;
        }
        double m[GCUT_SEG_MOMENTS];
#pragma unroll
        for (int q = 0; q < GCUT_SEG_MOMENTS; q++)
            m[q] = 0.0;
#pragma unroll
        for (int i = 0; i < SEG_MOMENT_PER_THREAD; i++) {
            if (cs[i] != c)
                continue;
            /* acc_add of gmm.c, in its order. */
            const double r = px[i][0], g = px[i][1], b = px[i][2];
            m[0] += 1.0;
            m[1] += r;
            m[2] += g;
            m[3] += b;
            m[4] += r * r;
            m[5] += r * g;
            m[6] += r * b;
            m[7] += g * g;
            m[8] += g * b;
            m[9] += b * b;
        }
#pragma unroll
        for (int q = 0; q < GCUT_SEG_MOMENTS; q++)
            sh[q][tid] = m[q];
        __syncthreads();
        for (int32_t s = SEG_RED_THREADS / 2; s > 0; s >>= 1) {
            if (tid < s)
#pragma unroll
                for (int q = 0; q < GCUT_SEG_MOMENTS; q++)
                    sh[q][tid] += sh[q][tid + s];
            __syncthreads();
        }
        if (tid < GCUT_SEG_MOMENTS)
            out[tid] = sh[tid][0];
    }
}

/* out[c * M + m] = the sum over the blocks, in block order. */
static __global__ void moments_final_kernel(const double *__restrict__ partial, int64_t blocks,
                                            int32_t k, double *const __restrict__ out)
{
    const int32_t t = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (t >= k * GCUT_SEG_MOMENTS)
        return;
    const int32_t c = t / GCUT_SEG_MOMENTS, q = t % GCUT_SEG_MOMENTS;
    double s = 0.0;
    /* Unrolled so that the loads run ahead; the additions keep their order. */
#pragma unroll 8
    for (int64_t b = 0; b < blocks; b++)
        s += partial[(b * k + c) * GCUT_SEG_MOMENTS + q];
    out[t] = s;
}

} /* namespace gcut_seg_cu */

#endif /* GCUT_CU_SEG_KERNELS_CUH */
