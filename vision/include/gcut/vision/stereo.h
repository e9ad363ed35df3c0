/*
 * gcut/vision/stereo.h - two-view stereo with graph cuts (libgcut_vision).
 *
 * Getting started (a rectified pair, disparities 0 .. 15):
 *
 *     gcut_image *l, *r;
 *     gcut_image_load("imL.png", &l);
 *     gcut_image_load("imR.png", &r);
 *     gcut_stereo_options p;
 *     gcut_stereo_options_init(&p);            // census, truncated linear, lambda 10, LR check
 *     p.ndisp = 16;
 *     int32_t *disp = malloc(sizeof(int32_t) * l->width * l->height);
 *     gcut_mrf_stats st;
 *     gcut_stereo_match(l, r, &p, disp, &st); // alpha-expansion, both views
 *
 * Disparity d at left pixel (x, y) matches right pixel (x - d, y) (x - d
 * clamped to the image). The energy (docs/stereo.md):
 *
 *     E(d) = sum_p D_p(d_p) + sum_{p~q} w_pq V(d_p, d_q),    4-connected
 *     D_p(d) = min(4 * cost(p, d), 4 * trunc)    cost: bt, ad (mean over
 *              channels of the Birchfield-Tomasi dissimilarity or of
 *              |I_L - I_R|) or census (8 * Hamming distance of 5x5 census
 *              codes, no truncation)
 *     V = 4 * lambda * [a != b] (Potts) or 4 * lambda * min(|a - b|, tl_trunc)
 *     w_pq = contrast_boost if max_c |I_p - I_q| < contrast_threshold, else 1
 *
 * Occlusions (p.lr_check = 1, the default; docs/stereo.md): the same energy is solved
 * for the right view too; a left pixel whose disparity the right view does
 * not confirm (within lr_max_diff), or whose match lies left of the right
 * image, is marked invalid and takes the smaller (background) of the
 * nearest valid disparities left and right of it on its row, then a small
 * median filter smooths the filled pixels. Twice the work of one view.
 */
#ifndef GCUT_VISION_STEREO_H
#define GCUT_VISION_STEREO_H

#include <stddef.h>
#include <stdint.h>

#include "gcut/common.h"
#include "gcut/vision/export.h"
#include "gcut/vision/image.h"
#include "gcut/vision/mrf.h"

GCUT_BEGIN_C_DECLS

/** \brief Data cost of a stereo match. */
typedef enum gcut_stereo_cost {
    GCUT_STEREO_BT = 0,     /**< Birchfield-Tomasi sampling-insensitive dissimilarity */
    GCUT_STEREO_AD = 1,     /**< truncated absolute difference */
    GCUT_STEREO_CENSUS = 2  /**< census transform (5x5), Hamming distance */
} gcut_stereo_cost;

/** \brief Smoothness term. */
typedef enum gcut_stereo_smooth {
    GCUT_STEREO_POTTS = 0,  /**< lambda [a != b] */
    GCUT_STEREO_TL = 1      /**< lambda min(|a - b|, tl_trunc) */
} gcut_stereo_smooth;

/** \brief Stereo settings. Always fill with gcut_stereo_options_init() first. */
typedef struct gcut_stereo_options {
    size_t struct_size;          /**< set by gcut_stereo_options_init */
    int32_t ndisp;               /**< number of disparities (labels 0 .. ndisp-1), 2 .. 1024 */
    gcut_stereo_cost cost;       /**< default GCUT_STEREO_CENSUS (GCUT_STEREO_BT before 0.3) */
    gcut_stereo_smooth smooth;   /**< default GCUT_STEREO_TL */
    int32_t lambda;              /**< smoothness weight in intensity units (default 10;
                                      5 before 0.3) */
    int32_t trunc;               /**< data cost truncation, intensity units (default 20) */
    int32_t tl_trunc;            /**< truncation of the linear term (default 2) */
    int32_t contrast_threshold;  /**< below it a pair is "smooth" (default 8) */
    int32_t contrast_boost;      /**< weight of smooth pairs (default 2; 1: none) */
    int32_t use_swap;            /**< 0: alpha-expansion (default), 1: alpha-beta swap */
    gcut_mrf_options mrf;        /**< cycles, order, progress, and the max-flow
                                      options of the moves (mrf.solve: back end,
                                      threads, time limit, log, engine settings).
                                      The progress callback of mrf.solve (since
                                      0.3) sees operation "stereo", phases "cost",
                                      "energy" and "moves" (step: the view, 1 or
                                      2 with lr_check) and "lr-check", then the
                                      moves' own reports (mrf.h); a non-zero
                                      return stops the call with
                                      GCUT_ERR_INTERRUPTED, outputs unchanged */
    /* Occlusions (since 0.2; fields are only ever added here, at the end). */
    int32_t lr_check;            /**< 1: gcut_stereo_match also solves the right view,
                                      marks the pixels whose two disparities disagree and
                                      fills them from the background side (as
                                      gcut_stereo_match_lr); default 1 (0 before 0.3):
                                      on; 0: one view, half the time */
    int32_t lr_max_diff;         /**< left and right disparities may differ by this much
                                      (default 1; 0 .. ndisp) */
    int32_t lr_median;           /**< radius of the median filter of the filled pixels
                                      (0: none; default 1: 3 x 3; at most 5) */
    /* Speed (since 0.3). */
    int32_t coarse_levels;       /**< coarse-to-fine start: the same energy on grids of
                                      2 x 2, 4 x 4, ... blocks (costs and pair weights
                                      summed), solved from the coarsest up, each level
                                      starting from the one above; the finest level
                                      starts from level 1's labels instead of the
                                      winner-take-all (0: none, the behaviour before;
                                      at most 8) */
    int32_t lr_warm_start;       /**< 1: with the check, the right view starts from the
                                      left view's result mapped to the right image
                                      (the nearer surface where two pixels map to one;
                                      holes take the background side of their row)
                                      instead of its own start; 0: each view alone */
} gcut_stereo_options;

/** \brief Defaults as documented on the fields; ndisp 16. \since 0.1 */
GCUT_VISION_EXPORT void gcut_stereo_options_init(gcut_stereo_options *p);

/** \brief The data costs D_p(d), width * height * ndisp values,
 *  cost[p * ndisp + d]. The images must be of the same size (any channels,
 *  8 or 16 bits; 16-bit samples are taken on 8 bits).
 *  \returns GCUT_OK; GCUT_ERR_INVALID; GCUT_ERR_NOMEM. */
GCUT_VISION_EXPORT gcut_status gcut_stereo_data_cost(const gcut_image *left,
                                                     const gcut_image *right,
                                                     const gcut_stereo_options *p, int32_t *cost);

/** \brief Contrast-sensitive pair weights of the left image: \p w_right
 *  (pairs (x, y)-(x+1, y)) and \p w_down (pairs (x, y)-(x, y+1)),
 *  width * height values each. */
GCUT_VISION_EXPORT gcut_status gcut_stereo_weights(const gcut_image *left,
                                                   const gcut_stereo_options *p, int32_t *w_right,
                                                   int32_t *w_down);

/** \brief Build the energy (costs, V, weights) into a new 4-connected
 *  gcut_mrf of the left image's size with ndisp labels (caller frees). */
GCUT_VISION_EXPORT gcut_status gcut_stereo_mrf(const gcut_image *left, const gcut_image *right,
                                               const gcut_stereo_options *p, gcut_mrf **out);

/** \brief Disparity map of a rectified pair: \p disp gets width * height
 *  disparities (in 0 .. ndisp-1). Starts from the winner-take-all labelling
 *  of the data costs, then runs alpha-expansion (or swap). With
 *  p->lr_check, it is gcut_stereo_match_lr() with no extra outputs.
 *  \p stats may be NULL. */
GCUT_VISION_EXPORT gcut_status gcut_stereo_match(const gcut_image *left, const gcut_image *right,
                                                 const gcut_stereo_options *p, int32_t *disp,
                                                 gcut_mrf_stats *stats);

/**
 * \brief Disparity map with the left-right check and the occlusion fill,
 * whatever p->lr_check says (p->lr_max_diff and p->lr_median apply).
 *
 * Solves the left view as gcut_stereo_match() does, then the right view
 * with the same energy and the roles of the views swapped (disparity d at
 * right pixel (x, y) matches left pixel (x + d, y); the contrast weights
 * are the right image's), then runs gcut_stereo_lr_check() and
 * gcut_stereo_fill().
 *
 * \param disp       width * height filled left disparities (caller's)
 * \param disp_right NULL, or width * height: the right view's map as solved
 * \param invalid    NULL, or width * height bytes: 1 where the check failed
 *                   (the pixels that were filled), else 0
 * \param stats      NULL, or: the left view's solve (energies, cycles),
 *                   with moves, moves_accepted, build_ms and solve_ms
 *                   summed over both views and total_ms the whole call.
 *                   A progress callback sees the left view's moves, then
 *                   the right view's (cycles counted from 1 again).
 * \returns as gcut_stereo_match(); outputs unchanged on failure.
 * \threadsafety Safe from any thread (distinct outputs).
 * \since 0.2 (experimental: define GCUT_ALLOW_EXPERIMENTAL)
 */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL gcut_status
gcut_stereo_match_lr(const gcut_image *left, const gcut_image *right, const gcut_stereo_options *p,
                     int32_t *disp, int32_t *disp_right, uint8_t *invalid, gcut_mrf_stats *stats);

/**
 * \brief Left-right consistency check of two disparity maps of a
 * width x height pair: left pixel (x, y) with disparity d is invalid when
 * x - d < 0 (its match is outside the right image) or
 * |d - disp_right(x - d, y)| > max_diff.
 *
 * \param invalid width * height bytes: 1 invalid, 0 valid (caller's)
 * \param count   NULL, or the number of invalid pixels
 * \returns GCUT_OK; GCUT_ERR_INVALID (NULL, size < 1, max_diff < 0).
 * \threadsafety Safe from any thread.
 * \since 0.2
 */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL gcut_status
gcut_stereo_lr_check(const int32_t *disp_left, const int32_t *disp_right, int32_t width,
                     int32_t height, int32_t max_diff, uint8_t *invalid, int64_t *count);

/**
 * \brief Occlusion fill, in place: each invalid pixel takes the smaller of
 * the nearest valid disparities left and right of it on its row (an
 * occluded pixel belongs to the farther surface, which has the smaller
 * disparity); the only one where a side has none; it keeps its value when
 * its row has no valid pixel. Then, with \p median > 0, each invalid pixel
 * takes the median of the filled map over the (2 median + 1)^2 window
 * around it (cut at the image border); valid pixels never change.
 *
 * \param disp    width * height disparities, changed in place
 * \param invalid width * height bytes, non-zero: to fill
 * \param median  window radius, 0 .. 5
 * \returns GCUT_OK; GCUT_ERR_INVALID; GCUT_ERR_NOMEM (disp unchanged).
 * \threadsafety Safe from any thread.
 * \since 0.2
 */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL gcut_status
gcut_stereo_fill(int32_t *disp, const uint8_t *invalid, int32_t width, int32_t height,
                 int32_t median);

/** \brief Bad-pixel rate (percent) of \p disp against a ground-truth image
 *  whose value / \p gt_scale is the disparity and 0 is unknown: pixels with
 *  |disp - gt| > threshold among those with a known ground truth (and, with
 *  \p mask non-NULL, a non-zero mask value). \p counted may be NULL. */
GCUT_VISION_EXPORT gcut_status gcut_stereo_bad_pixels(const int32_t *disp, const gcut_image *gt,
                                                      double gt_scale, const gcut_image *mask,
                                                      double threshold, double *percent,
                                                      int64_t *counted);

GCUT_END_C_DECLS

#endif /* GCUT_VISION_STEREO_H */
