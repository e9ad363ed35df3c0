/*
 * gcut/vision/mvs.h - multi-view stereo with graph cuts (libgcut_vision):
 * multi-baseline stereo of K rectified views on a line, and a plane sweep
 * over depths for K calibrated cameras. Both minimise the energy of
 * gcut/vision/stereo.h (data cost + contrast-sensitive smoothness) by
 * alpha-expansion (gcut/vision/mrf.h); only the data cost differs.
 *
 * Getting started, multi-baseline (reference col3 of Tsukuba and its four
 * neighbours; disparity d per adjacent baseline):
 *
 *     const gcut_image *views[4] = {col1, col2, col4, col5};
 *     const double base[4] = {-2, -1, 1, 2};  // view i sees (x, y) at x - base[i] * d
 *     gcut_mbs_options p;
 *     gcut_mbs_options_init(&p);               // BT, lambda 5, side selection
 *     p.stereo.ndisp = 16;
 *     int32_t *disp = malloc(sizeof(int32_t) * col3->width * col3->height);
 *     gcut_mbs_match(col3, views, base, 4, &p, disp, NULL);
 *
 * Getting started, plane sweep (Middlebury MVS cameras, reference first):
 *
 *     gcut_camera *cams; int32_t n;
 *     gcut_cameras_load("templeSR_par.txt", &cams, &n);
 *     int32_t nb[4];
 *     gcut_sweep_neighbours(cams, n, 0, 4, nb);   // the 4 nearest centres
 *     // images[0], cam[0]: the reference; then the neighbours, in any order
 *     gcut_sweep_options p;
 *     gcut_sweep_options_init(&p);
 *     gcut_sweep_range_box(&cams[0], lo, hi, &p.znear, &p.zfar);
 *     gcut_sweep_depth(images, sel_cams, 5, &p, labels, depth, NULL);
 *     gcut_cameras_free(cams);
 *
 * The new calls are GCUT_EXPERIMENTAL (define GCUT_ALLOW_EXPERIMENTAL).
 * Errors follow the rest of gcut: a gcut_status, details in
 * gcut_last_error(), outputs unchanged on failure. Distinct calls may run
 * in distinct threads; nothing is global.
 */
#ifndef GCUT_VISION_MVS_H
#define GCUT_VISION_MVS_H

#include <stddef.h>
#include <stdint.h>

#include "gcut/common.h"
#include "gcut/vision/export.h"
#include "gcut/vision/image.h"
#include "gcut/vision/mrf.h"
#include "gcut/vision/stereo.h"

GCUT_BEGIN_C_DECLS

/* ---- multi-baseline stereo (views on a line) ---------------------------- */

/** \brief How the per-view data costs of one pixel and label are combined.
 *  Every mean is weighted by |baseline|: a view's cost grows with its
 *  baseline times the disparity error, so a short baseline says less about
 *  the disparity and counts less (equal |b|: plain means). Views where the
 *  point leaves the image are left out. The plane sweep always uses the
 *  best-k rule (its views have no common line). */
typedef enum gcut_mvs_combine {
    /** Weighted mean over the views (Okutomi & Kanade's sum of SSDs,
     *  divided by the weights so that lambda keeps its meaning). */
    GCUT_MVS_MEAN = 0,
    /** Weighted mean of the \p keep smallest costs (Kang, Szeliski & Chai,
     *  CVPR 2001): a view where the point is occluded has a large cost and
     *  is left out. */
    GCUT_MVS_BEST = 1,
    /** The smallest of the weighted means over all views, over the views
     *  on the left (baseline < 0) and over those on the right (> 0); a
     *  side takes part only when it holds a third of the total |baseline|
     *  or more (a lone short baseline matches every disparity about as
     *  well). An occluding edge hides a point on one side only (Kang et
     *  al.). The default: it beat two views on every scene measured. */
    GCUT_MVS_SIDE = 2
} gcut_mvs_combine;

/** \brief Multi-baseline settings. Fill with gcut_mbs_options_init() first. */
typedef struct gcut_mbs_options {
    size_t struct_size;       /**< set by gcut_mbs_options_init */
    gcut_stereo_options stereo; /**< labels, per-view cost, smoothness, moves and their
                                     max-flow options (stereo.mrf.solve; stereo.h);
                                     its progress callback (since 0.3) sees operation
                                     "mvs", phases "cost", "energy", "moves", then
                                     the moves' own reports */
    gcut_mvs_combine combine; /**< default GCUT_MVS_SIDE */
    int32_t keep;             /**< views kept by GCUT_MVS_BEST (0: half, rounded up; default 0) */
} gcut_mbs_options;

/** \brief Defaults: gcut_stereo_options_init() but BT costs, lambda 5 and
 *  lr_check 0 (the energy docs/mvs.md measured; the two-view defaults
 *  before 0.3), GCUT_MVS_SIDE. \since 0.2 */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL void gcut_mbs_options_init(gcut_mbs_options *p);

/**
 * \brief Data costs of multi-baseline stereo, cost[p * ndisp + d].
 *
 * The reference pixel (x, y) with disparity d (a label, 0 .. ndisp-1) is
 * seen in views[i] at (x - baselines[i] * d, y). baselines[i] is any
 * non-zero real (fractional: the view is sampled by linear interpolation;
 * negative: the view lies on the other side). The cost of one view is the
 * two-view cost of stereo.h (BT and AD at the interpolated position,
 * census at the nearest pixel), truncated; views where the point falls
 * outside the image are left out, and when every view is out the clamped
 * positions are used (so one view with baseline 1 gives exactly
 * gcut_stereo_data_cost()).
 *
 * \param ref       the reference image
 * \param views     \p nviews images of ref's size (any channels, 8 or 16 bits)
 * \param baselines \p nviews signed baseline factors, non-zero, |b| <= 64
 * \param nviews    1 .. 64
 * \param cost      width * height * ndisp values (caller's)
 * \returns GCUT_OK; GCUT_ERR_INVALID (NULL, sizes differ, a bad baseline or
 *          parameter: the message says which); GCUT_ERR_NOMEM.
 * \threadsafety Safe from any thread.
 * \since 0.2
 */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL gcut_status
gcut_mbs_data_cost(const gcut_image *ref, const gcut_image *const *views, const double *baselines,
                   int32_t nviews, const gcut_mbs_options *p, int32_t *cost);

/**
 * \brief Disparity map of the reference view: the data cost of
 * gcut_mbs_data_cost(), the smoothness and weights of gcut_stereo_mrf()
 * (of the reference image), the winner-take-all start, then
 * alpha-expansion (or swap). \p disp gets width * height labels.
 * \p stats may be NULL.
 * \returns as gcut_mbs_data_cost() and gcut_mrf_expand().
 * Complexity: O(W H ndisp nviews) for the costs, then cycles * ndisp cuts.
 * \since 0.2
 */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL gcut_status
gcut_mbs_match(const gcut_image *ref, const gcut_image *const *views, const double *baselines,
               int32_t nviews, const gcut_mbs_options *p, int32_t *disp, gcut_mrf_stats *stats);

/* ---- calibrated cameras ------------------------------------------------- */

/** \brief Longest image name kept by the camera parser (bytes, with the NUL). */
#define GCUT_CAMERA_NAME_MAX 128

/** \brief A pinhole camera: a world point X maps to the pixel of
 *  P = K [R | t], i.e. (u, v, 1) ~ K (R X + t); its depth is the third
 *  coordinate of R X + t. Matrices are row-major; the image origin is the
 *  top-left pixel centre, x to the right, y down. */
typedef struct gcut_camera {
    char name[GCUT_CAMERA_NAME_MAX]; /**< image file name ("" if none) */
    double K[9];                     /**< intrinsics, K[8] = 1 */
    double R[9];                     /**< rotation world -> camera */
    double t[3];                     /**< translation */
} gcut_camera;

/**
 * \brief Parse Middlebury multi-view camera text (the *_par.txt format):
 * the number of images n, then n lines `NAME k11 .. k33 r11 .. r33 t1 t2 t3`
 * (21 numbers). Checked: the count, 22 fields per line, finite numbers,
 * K invertible with K[6] = K[7] = 0, R a rotation (R R^T = I and det R = 1
 * within 1e-3); each error names the line.
 * \param text  the file's bytes (need not end with NUL)
 * \param size  bytes of \p text
 * \param what  name used in messages (a file name), may be NULL
 * \param out   receives a new array of \p count cameras (gcut_cameras_free)
 * \returns GCUT_OK; GCUT_ERR_PARSE (malformed: says which line and why);
 *          GCUT_ERR_INVALID (NULL); GCUT_ERR_NOMEM.
 * \since 0.2
 */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL gcut_status gcut_cameras_parse(const char *text, size_t size,
                                                                    const char *what,
                                                                    gcut_camera **out,
                                                                    int32_t *count);

/** \brief gcut_cameras_parse() of a file. \returns also GCUT_ERR_IO. \since 0.2 */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL gcut_status gcut_cameras_load(const char *path,
                                                                   gcut_camera **out,
                                                                   int32_t *count);

/** \brief Free an array from gcut_cameras_parse/load (NULL is a no-op). */
GCUT_VISION_EXPORT void gcut_cameras_free(gcut_camera *cams);

/** \brief The camera centre C = -R^T t (world). */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL void gcut_camera_center(const gcut_camera *c, double C[3]);

/** \brief Project world point \p X: pixel (\p u, \p v) and \p depth (the
 *  third coordinate of R X + t; <= 0: behind the camera, u and v then
 *  meaningless). Any output may be NULL. */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL void gcut_camera_project(const gcut_camera *c,
                                                              const double X[3], double *u,
                                                              double *v, double *depth);

/** \brief The world point at pixel (\p u, \p v) of depth \p depth. */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL void gcut_camera_unproject(const gcut_camera *c, double u,
                                                                double v, double depth,
                                                                double X[3]);

/* ---- plane sweep -------------------------------------------------------- */

/** \brief The \p n cameras whose centres are nearest to that of cams[\p ref]
 *  (ref excluded), nearest first, into \p out (n values).
 *  \returns GCUT_ERR_INVALID when n is not in 1 .. count-1. \since 0.2 */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL gcut_status gcut_sweep_neighbours(const gcut_camera *cams,
                                                                       int32_t count, int32_t ref,
                                                                       int32_t n, int32_t *out);

/** \brief Depth range of an axis-aligned world box (corners \p lo, \p hi) in
 *  camera \p c: the smallest and largest depth of its 8 corners.
 *  \returns GCUT_ERR_INVALID when a corner is not in front of the camera. */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL gcut_status gcut_sweep_range_box(const gcut_camera *c,
                                                                      const double lo[3],
                                                                      const double hi[3],
                                                                      double *znear, double *zfar);

/** \brief Depth range without a box: the point nearest (least squares) to
 *  the optical axes of the \p count cameras (where a ring or an arc of
 *  cameras converges), at depth z in cams[\p ref]; the range is
 *  [0.75 z, 1.25 z]. \returns GCUT_ERR_INVALID when the axes are (nearly)
 *  parallel or the point is behind cams[ref]. */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL gcut_status gcut_sweep_range_auto(const gcut_camera *cams,
                                                                       int32_t count, int32_t ref,
                                                                       double *znear, double *zfar);

/** \brief Plane-sweep settings. Fill with gcut_sweep_options_init() first. */
typedef struct gcut_sweep_options {
    size_t struct_size;          /**< set by gcut_sweep_options_init */
    int32_t ndepth;              /**< depth labels, 2 .. 1024 (default 96) */
    double znear, zfar;          /**< depth range, 0 < znear < zfar (no default: set them) */
    int32_t radius;              /**< NCC window (2 radius + 1)^2 (default 2) */
    int32_t ncc_trunc;           /**< 1 - NCC truncated here, in 1/100 (default 60) */
    int32_t keep;                /**< best-k views (0: half, rounded up; default 0) */
    int32_t mask_threshold;      /**< reference pixels whose channels are all <= it are
                                      masked (-1: none; default -1) */
    gcut_stereo_smooth smooth;   /**< default GCUT_STEREO_TL */
    int32_t lambda;              /**< smoothness weight, cost units (default 12) */
    int32_t tl_trunc;            /**< truncation of the linear term in labels (default 3) */
    int32_t contrast_threshold;  /**< as gcut_stereo_options (default 8) */
    int32_t contrast_boost;      /**< as gcut_stereo_options (default 2) */
    gcut_mrf_options mrf;        /**< cycles, progress, the max-flow options of the
                                      moves (mrf.solve: back end, threads, ...).
                                      The progress callback of mrf.solve (since
                                      0.3) sees operation "mvs", phase "cost" per
                                      depth plane (at most every
                                      progress_interval_ms) and "moves", then the
                                      expansion's reports (mrf.h); a non-zero
                                      return stops with GCUT_ERR_INTERRUPTED */
} gcut_sweep_options;

/** \brief Defaults as documented on the fields. \since 0.2 */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL void gcut_sweep_options_init(gcut_sweep_options *p);

/** \brief Depth of label \p l: labels are uniform in inverse depth, label 0
 *  at zfar and ndepth-1 at znear (larger label: nearer, like a disparity). */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL double gcut_sweep_label_depth(const gcut_sweep_options *p,
                                                                   int32_t l);

/**
 * \brief Depth map of images[0] by a plane sweep (Collins, CVPR 1996) over
 * fronto-parallel planes of the reference camera, photo-consistency
 * min(1 - NCC, ncc_trunc) of a (2 radius + 1)^2 grey window per view
 * (bilinear warp by the plane's homography), the mean of the best \p keep
 * views that see the point, then contrast-sensitive smoothness and
 * alpha-expansion on the bounding box of the unmasked pixels.
 *
 * \param images  \p nviews images, images[0] the reference (sizes may differ)
 * \param cams    their cameras, cams[0] the reference
 * \param nviews  2 .. 64
 * \param labels  optional, width * height of images[0]: the depth label,
 *                -1 where masked
 * \param depth   optional, width * height: the depth, 0 where masked
 * \param stats   optional
 * \returns GCUT_OK; GCUT_ERR_INVALID (NULL, bad parameter, everything
 *          masked); GCUT_ERR_NOMEM; the errors of gcut_mrf_expand().
 * Complexity: O(W H ndepth nviews) for the costs (box filters: independent
 * of the window), then cycles * ndepth cuts.
 * \since 0.2
 */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL gcut_status
gcut_sweep_depth(const gcut_image *const *images, const gcut_camera *cams, int32_t nviews,
                 const gcut_sweep_options *p, int32_t *labels, double *depth,
                 gcut_mrf_stats *stats);

GCUT_END_C_DECLS

#endif /* GCUT_VISION_MVS_H */
