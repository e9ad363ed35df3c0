/*
 * stereo_internal.h - what the two-view (stereo.c) and multi-baseline
 * (mbs.c) disparity solvers share once their data costs are computed: the
 * same energy (the reference's contrast weights, the smoothness in 4 x
 * intensity units) and the same solve (winner-take-all start, then
 * expansion or swap). Sharing them is what makes multi-baseline with one
 * view of baseline 1 equal two-view stereo bit for bit.
 * Also the pixel access and parameter ranges the three (with sweep.c)
 * share. Never installed.
 */
#ifndef GCUT_VISION_STEREO_INTERNAL_H
#define GCUT_VISION_STEREO_INTERNAL_H

#include "core/core_internal.h"
#include "gcut/vision/stereo.h"
#include "progress_internal.h"

/* Sample c (0 .. 2) of pixel (x, y) on 8 bits (16-bit images: the high
 * byte); gray images repeat their one channel. */
static inline int32_t gcut_i_sample8(const gcut_image *img, int32_t x, int32_t y, int32_t c)
{
    const int32_t ch = img->channels == 1 ? 0 : c;
    const uint8_t *row = img->data + (size_t)y * img->stride;
    if (img->depth == 16)
        return ((const uint16_t *)(const void *)row)[x * img->channels + ch] >> 8;
    return row[x * img->channels + ch];
}

/* The ranges of ndisp, lambda, trunc, tl_trunc and contrast_boost that
 * every disparity solver accepts (GCUT_ERR_INVALID otherwise). */
gcut_status gcut_i_stereo_check_energy(const gcut_stereo_options *p);

/* The MRF of the disparity energy: unary `cost` (W*H*ndisp, copied),
 * contrast weights of `ref`, Potts or truncated linear smoothness of
 * p->lambda. ref and p are checked by the caller; *out is set on success. */
gcut_status gcut_i_stereo_energy(const gcut_image *ref, const gcut_stereo_options *p,
                                 const int32_t *cost, gcut_mrf **out);

/* Minimise m from `start` (n labels; NULL: the winner-take-all labelling
 * of `cost`) with expansion (or swap with p->use_swap); disp (W*H) is
 * written only on success and may be start. */
gcut_status gcut_i_stereo_solve(gcut_mrf *m, const gcut_stereo_options *p, const int32_t *cost,
                                int64_t n, const int32_t *start, int32_t *disp,
                                gcut_mrf_stats *stats);

/* The energy of level `level` (1 .. 8) of the coarse-to-fine start
 * (coarse_levels): ref's energy on `cost` on blocks of 2^level x 2^level
 * pixels, costs and crossing pair weights summed (stereo.c). A labelling
 * constant on blocks has there the energy of its upsampling to the
 * pixels. GCUT_ERR_INVALID when the grid is too small for that level. */
gcut_status gcut_i_stereo_level_mrf(const gcut_image *ref, const gcut_stereo_options *p,
                                    const int32_t *cost, int32_t level, gcut_mrf **out);

#endif
