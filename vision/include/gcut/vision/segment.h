/*
 * gcut/vision/segment.h - binary segmentation of images with graph cuts
 * (libgcut_vision): seeds, colour models, GrabCut, interactive sessions,
 * evaluation.
 *
 * Getting started:
 *
 *     gcut_image *img;
 *     gcut_image_load("photo.png", &img);
 *     int32_t n = img->width * img->height;
 *     uint8_t *seeds = malloc(n), *mask = malloc(n);
 *     // a rectangle: outside is background, inside unknown (GrabCut)
 *     gcut_seeds_from_rect(img->width, img->height, 40, 30, 200, 150, seeds);
 *     // NULL options: GrabCut's defaults, GMM k=5, lambda 35, 8-connected
 *     gcut_grabcut(img, seeds, 5, NULL, mask, NULL); // mask: 0 background, 255 foreground
 *     // or one cut from user scribbles, with options:
 *     gcut_seg_options p;
 *     gcut_seg_options_init(&p);                 // GMM k=5, lambda 50, 8-connected
 *     p.solve.backend = "cpu-bk";                // optional: the max-flow options (solve.h)
 *     gcut_seeds_from_image(scribbles, seeds);       // see below for the colours
 *     gcut_segment(img, seeds, &p, mask, NULL);
 *
 * The energy (docs/segmentation.md has the details). For a labelling L
 * (L_p = 1 foreground, 0 background):
 *
 *     E(L) = sum_p D_p(L_p) + sum_{p~q} w_pq [L_p != L_q]
 *     D_p(l) = -log P(I_p | model of class l)      (a GMM or a histogram)
 *     w_pq  = lambda * exp(-beta |I_p - I_q|^2) / dist(p, q)
 *     beta  = 1 / (2 <|I_p - I_q|^2>)              (mean over all neighbour pairs)
 *
 * with colours in [0, 255] per channel (16-bit images are scaled down, gray
 * images use one channel three times, alpha is ignored). Seed pixels are
 * hard constraints: a foreground seed is never labelled background and
 * vice versa. E is minimised exactly by one s-t minimum cut on a 4- or
 * 8-connected gcut_grid (source side = foreground), after the float costs
 * are quantised to int32 capacities with a scale chosen so that no node's
 * total capacity passes 2^28 (see gcut_seg_stats::scale): the labelling
 * returned is optimal for the float energy up to the rounding, at most
 * (number of terms) / scale above the optimum. Only the bounding box of
 * the unknown pixels becomes the grid (the fixed pixels around it are
 * folded into its t-links, which changes nothing in the result).
 *
 * Masks are one byte per pixel, row-major (index x + width * y): 0 for
 * background, 255 for foreground (so a mask wrapped in a 1-channel
 * gcut_image can be saved as it is). Seeds are one byte per pixel too,
 * GCUT_SEED_UNKNOWN, GCUT_SEED_FG or GCUT_SEED_BG.
 *
 * Errors follow the rest of gcut: a gcut_status, details in
 * gcut_last_error(), outputs unchanged on failure.
 */
#ifndef GCUT_VISION_SEGMENT_H
#define GCUT_VISION_SEGMENT_H

#include <stddef.h>
#include <stdint.h>

#include "gcut/common.h"
#include "gcut/grid.h"
#include "gcut/solve.h"
#include "gcut/vision/export.h"
#include "gcut/vision/image.h"

GCUT_BEGIN_C_DECLS

/** \brief Seed labels (one byte per pixel). */
enum {
    GCUT_SEED_UNKNOWN = 0, /**< to be decided by the cut */
    GCUT_SEED_FG = 1,      /**< hard constraint: foreground */
    GCUT_SEED_BG = 2       /**< hard constraint: background */
};

/** \brief Mask values written by the segmentation calls. */
enum { GCUT_MASK_BG = 0, GCUT_MASK_FG = 255 };

/** \brief Colour model of the data term. */
typedef enum gcut_seg_model {
    /** Gaussian mixture per class, full 3x3 covariances (Rother, Kolmogorov &
     *  Blake, GrabCut, SIGGRAPH 2004). */
    GCUT_SEG_GMM = 0,
    /** Histogram per class in a quantised colour space, bins^channels cells
     *  with add-one smoothing (Boykov & Jolly, ICCV 2001). */
    GCUT_SEG_HISTOGRAM = 1
} gcut_seg_model;

/** \brief Segmentation settings. Always fill with gcut_seg_options_init() first. */
typedef struct gcut_seg_options {
    size_t struct_size;     /**< set by gcut_seg_options_init */
    gcut_seg_model model;   /**< GCUT_SEG_GMM (default) or GCUT_SEG_HISTOGRAM */
    int32_t components;     /**< GMM components per class, 1..16 (default 5) */
    int32_t bins;           /**< histogram bins per channel, 2..64 (default 16) */
    double lambda;          /**< smoothness weight, >= 0 (default 50; GrabCut's 35) */
    int32_t connectivity;   /**< 4 or 8 (default 8) */
    /** Where the energies (colour models, data costs, pair weights, the
     *  grid's capacities) are evaluated: 1 (default) on the device of the
     *  back end the cuts use when it offers device energies (cuda-grid;
     *  docs/segmentation.md, "On the GPU"), else on the CPU; 0 always on
     *  the CPU (the cut still runs on the back end). The results are the
     *  same either way. \since 0.2 */
    int32_t device_energies;
    /** The max-flow solves, passed to gcut_grid_solve() as they are: back
     *  end (default "auto"), threads, time limit, log callback and
     *  verbosity, engine settings (`params`). Set up by
     *  gcut_seg_options_init() with gcut_solve_options_init(); a session
     *  copies the back end and params strings. \since 0.2 (replaces the
     *  `backend` and `threads` fields of 0.1)
     *
     *  Its progress callback (since 0.3; a session keeps the one it was
     *  created with) also sees the segmentation's own steps, operation
     *  "segment" (gcut_segment, gcut_seg_session_new and _solve) or
     *  "grabcut" (gcut_grabcut, gcut_seg_session_grabcut): phases
     *  "smoothness", "model" and "data" while the models are learnt, then
     *  per cut "build" and "solve" (step = the GrabCut iteration), "model"
     *  before each re-learning and "iteration" after each iteration
     *  (step i of at most `iterations`, fraction i / iterations). A
     *  non-zero return stops the call with GCUT_ERR_INTERRUPTED: the mask
     *  and stats are not written, a session stays usable and keeps the
     *  iterations done (docs/segmentation.md, "Progress and cancel"). */
    gcut_solve_options solve;
} gcut_seg_options;

/** \brief Defaults: GMM with 5 components, 16 bins, lambda 50, 8-connected,
 *  device energies where offered, solve options as gcut_solve_options_init()
 *  (back end "auto"). These are the defaults of one cut from seeds and of
 *  sessions; gcut_grabcut_options_init() has GrabCut's.
 *  \since 0.1 */
GCUT_VISION_EXPORT void gcut_seg_options_init(gcut_seg_options *p);

/** \brief GrabCut's defaults: as gcut_seg_options_init(), with lambda 35
 *  instead of 50 (GMM with 5 components, 8-connected). gcut_grabcut() uses
 *  them when its \p params are NULL.
 *
 *  Lambda 35 had the lowest mean error on the 40 images of the GrabCut
 *  (MSRC) set among the settings that also lowered the median error and
 *  were better on at least as many images as worse, from a rectangle with
 *  5 and with 10 iterations and from the set's lasso trimaps
 *  (docs/segmentation.md, "Accuracy"). One cut from seeds and strokes keeps
 *  lambda 50 (gcut_seg_options_init()). A session created with these
 *  options runs GrabCut with them too.
 *  \threadsafety Safe from any thread.
 *  \since 0.3 */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL void gcut_grabcut_options_init(gcut_seg_options *p);

/** \brief What a segmentation call did (times in milliseconds). */
typedef struct gcut_seg_stats {
    double model_ms;      /**< learning the colour models and the data terms */
    double build_ms;      /**< smoothness weights, quantisation, filling the grid */
    double solve_ms;      /**< the max-flow solves (gcut_grid_solve) */
    double total_ms;      /**< the whole call */
    double energy;        /**< float energy E of the returned mask */
    double scale;         /**< quantisation: capacity = round(scale * cost) */
    double beta;          /**< the contrast parameter used */
    int64_t flow;         /**< max-flow value of the last cut (quantised units) */
    int32_t iterations;   /**< cuts made (GrabCut: iterations run) */
    int32_t warm_start;   /**< 1 when the last solve reused the previous one */
    const char *backend;  /**< back end of the last solve (static string) */
    /** 1 when the energies (colour models, data costs, pair weights and
     *  the grid's capacities) were evaluated on the back end's device
     *  (cuda-grid; docs/segmentation.md, "On the GPU"), 0 on the CPU. */
    int32_t energy_device;
    /** With energy_device: the part of model_ms + build_ms spent copying
     *  the image and the energies between host and device. */
    double transfer_ms;
} gcut_seg_stats;

/* ------------------------------------------------------------- seeds */

/**
 * \brief Seeds from a seed picture of the same size as the image.
 *
 * Conventions (docs/segmentation.md):
 *  - gray pictures (1 channel, or RGB whose pixels all have R = G = B):
 *    255 = foreground; 0 and 64 = background (the MSRC trimaps); any
 *    other value (128 ...) = unknown;
 *  - colour pictures (RGB, RGBA, palette PNGs): yellow or white-ish
 *    (R and G >= 160, B < R - 24, e.g. (255,255,207)) and green
 *    (G >= 128, R and B < 96) = foreground; red (R >= 128, G and B < 96,
 *    e.g. (219,0,0)) and blue (B >= 128, R and G < 96) = background;
 *    anything else (black ...) = unknown;
 *  - a pixel with alpha 0 is unknown; 16-bit samples are taken on 8 bits.
 *
 * \param seeds width * height bytes
 * \returns GCUT_OK; GCUT_ERR_INVALID (NULL, malformed image).
 * \threadsafety Safe from any thread.
 * \since 0.1 */
GCUT_VISION_EXPORT gcut_status gcut_seeds_from_image(const gcut_image *picture, uint8_t *seeds);

/** \brief Seeds of a rectangle (GrabCut): pixels outside x..x+w-1, y..y+h-1
 *  are background seeds, pixels inside unknown.
 *  \returns GCUT_ERR_INVALID when the rectangle is empty, leaves the image,
 *  or covers all of it (no background would be left).
 *  \since 0.1 */
GCUT_VISION_EXPORT gcut_status gcut_seeds_from_rect(int32_t width, int32_t height, int32_t x,
                                                    int32_t y, int32_t w, int32_t h,
                                                    uint8_t *seeds);

/* ------------------------------------------------------------- one call */

/**
 * \brief One cut: learn the colour models from the seeds, build the grid,
 * cut, write the mask.
 *
 * Each class's model is learnt from its seeds; a class without seeds is
 * learnt from the unknown pixels (so a rectangle gives a rough first
 * guess; gcut_grabcut refines it).
 *
 * \param image  1, 3 or 4 channels, 8 or 16 bits
 * \param seeds  width * height seed bytes; at least one FG or BG seed
 * \param params NULL for the defaults
 * \param mask   width * height bytes out (0 / 255)
 * \param stats  may be NULL
 * \returns GCUT_OK; GCUT_ERR_INVALID (NULL, bad image or parameters, a seed
 *   byte other than 0/1/2, no seeds at all, a class with no pixel to learn
 *   from); GCUT_ERR_NOMEM; GCUT_ERR_INTERRUPTED (the progress callback of
 *   params->solve asked to stop; mask and stats unchanged); the errors of
 *   gcut_grid_solve.
 * \threadsafety Safe from any thread.
 * Complexity: O(n k) for the models, the cut close to linear on images.
 * \since 0.1 */
GCUT_VISION_EXPORT gcut_status gcut_segment(const gcut_image *image, const uint8_t *seeds,
                                            const gcut_seg_options *params, uint8_t *mask,
                                            gcut_seg_stats *stats);

/**
 * \brief GrabCut: iterated model re-estimation and cuts.
 *
 * Starts with every unknown pixel foreground (the rectangle convention).
 * Each iteration assigns every pixel to the most likely component of its
 * current class's model, re-learns the models from the pixels of each
 * class, and cuts. Stops after \p iterations cuts or as soon as the energy
 * stops decreasing (relative decrease below 1e-4) or the mask stops
 * changing. With GCUT_SEG_HISTOGRAM the histograms are re-learnt instead.
 *
 * \param iterations 1..1000
 * \param params NULL for GrabCut's defaults (gcut_grabcut_options_init():
 *   lambda 35; before 0.3, NULL meant gcut_seg_options_init()'s lambda 50)
 * \returns as gcut_segment; GCUT_ERR_INTERRUPTED when the progress callback
 *   of params->solve asked to stop (mask and stats unchanged).
 * \since 0.1 */
GCUT_VISION_EXPORT gcut_status gcut_grabcut(const gcut_image *image, const uint8_t *seeds,
                                            int32_t iterations, const gcut_seg_options *params,
                                            uint8_t *mask, gcut_seg_stats *stats);

/* ------------------------------------------------------------- sessions */

/**
 * \brief Interactive segmentation state: the image, its smoothness terms,
 * the colour models, the seeds and the grid (with the max-flow engine's
 * state), so that a stroke changes only the t-links of its pixels and the
 * next solve is warm (grid.h: the result is exactly that of a cold solve).
 *
 *     gcut_seg_session *s;
 *     gcut_seg_session_new(&s, img, seeds, NULL);   // learns the models
 *     gcut_seg_session_solve(s, mask, NULL);         // first cut (cold)
 *     gcut_seg_session_add_stroke(s, GCUT_SEED_BG, pixels, count);
 *     gcut_seg_session_solve(s, mask, NULL);         // warm
 *     gcut_seg_session_grabcut(s, 3, mask, NULL);    // or: re-learn and re-cut
 *     gcut_seg_session_free(s);
 */
typedef struct gcut_seg_session gcut_seg_session;

/** \brief A session on a copy of \p image and \p seeds (same rules as
 *  gcut_segment). Learns the models; nothing is solved yet.
 *  \since 0.1 */
GCUT_VISION_EXPORT gcut_status gcut_seg_session_new(gcut_seg_session **out,
                                                    const gcut_image *image,
                                                    const uint8_t *seeds,
                                                    const gcut_seg_options *params);

/** \brief NULL is a no-op. */
GCUT_VISION_EXPORT void gcut_seg_session_free(gcut_seg_session *s);

/** \brief Make the listed pixels seeds of class \p label (GCUT_SEED_FG,
 *  GCUT_SEED_BG, or GCUT_SEED_UNKNOWN to erase); the models are kept.
 *  \returns GCUT_ERR_INVALID (bad label, index outside 0..n-1: nothing
 *  changes). */
GCUT_VISION_EXPORT gcut_status gcut_seg_session_add_stroke(gcut_seg_session *s, uint8_t label,
                                                           const int32_t *pixels, int32_t count);

/** \brief Replace all the seeds (width * height bytes); the models are kept. */
GCUT_VISION_EXPORT gcut_status gcut_seg_session_set_seeds(gcut_seg_session *s,
                                                          const uint8_t *seeds);

/** \brief Cut with the current models and seeds (warm after strokes) and
 *  write the mask (may be NULL) and stats (may be NULL). */
GCUT_VISION_EXPORT gcut_status gcut_seg_session_solve(gcut_seg_session *s, uint8_t *mask,
                                                      gcut_seg_stats *stats);

/** \brief Up to \p iterations GrabCut iterations from the current labelling
 *  (the last cut, or the rectangle guess before any): re-learn the models
 *  from the current labelling, then cut; stops early as gcut_grabcut. */
GCUT_VISION_EXPORT gcut_status gcut_seg_session_grabcut(gcut_seg_session *s,
                                                        int32_t iterations, uint8_t *mask,
                                                        gcut_seg_stats *stats);

/**
 * \brief Update the colour models incrementally from what changed since
 * they were last learnt, then cut (warm) and write the mask (may be NULL)
 * and stats (may be NULL): what an interactive viewer does when a stroke
 * is released.
 *
 * The session keeps, per class and GMM component, the moments of the
 * pixels its models learnt from (count, sums, sums of products; exact
 * integers for 8-bit images) and each pixel's component. The pixels each
 * model learns from follow the rule of the last full fit: after
 * gcut_seg_session_new the seeds (the unknown pixels count in a class
 * without seeds), after gcut_seg_session_grabcut the labels of the last
 * cut (seeds count as their class). This call moves only the pixels whose
 * class under that rule changed: out of their old component, into the most
 * likely component of their new class's current model; the models are
 * rebuilt from the moments (the code of a full fit), the data costs
 * recomputed, the t-links replaced and the grid re-solved warm.
 *
 * It approximates a full re-learning: pixels that stay in their class keep
 * their component, where gcut_seg_session_new would split the colours
 * afresh and gcut_seg_session_grabcut would re-assign every pixel
 * (docs/segmentation.md, "Incremental model update", has the measured
 * difference). The first update after a full fit takes every pixel's
 * component from the last data pass (the most likely one: one hard-EM
 * step). A class whose pixels changed by more than half is fitted afresh
 * as gcut_seg_session_new does. Histogram models are re-counted. With
 * nothing changed the models and the mask stay.
 *
 * Progress: operation "segment", phases "model" (the update), then
 * "build" and "solve"; a stop leaves a usable session (the updated models
 * with their data costs when it came after "model").
 *
 * \returns GCUT_OK; GCUT_ERR_INVALID (NULL session; no seed left while
 *   the models learn from the seeds); GCUT_ERR_INTERRUPTED; the errors of
 *   gcut_grid_solve.
 * \threadsafety One thread at a time per session.
 * Complexity: O(n) byte passes, O(k) per moved pixel, the data costs of
 * the image, and a warm cut.
 * \since 0.3 */
GCUT_VISION_EXPORT GCUT_EXPERIMENTAL gcut_status
gcut_seg_session_update_models(gcut_seg_session *s, uint8_t *mask, gcut_seg_stats *stats);

/** \brief The session's grid (advanced: read it, e.g. gcut_grid_to_graph
 *  and gcut_graph_write_dimacs; do not modify it). Valid until the session
 *  is freed; built by the first solve (NULL before). */
GCUT_VISION_EXPORT const gcut_grid *gcut_seg_session_grid(const gcut_seg_session *s);

/* ------------------------------------------------------------- evaluation */

/** \brief Agreement of a mask with a ground truth. */
typedef struct gcut_seg_eval {
    int64_t counted;     /**< pixels counted (labelled in the ground truth, in the region) */
    int64_t errors;      /**< of those, pixels where mask and ground truth differ */
    int64_t intersection;/**< counted pixels foreground in both */
    int64_t union_;      /**< counted pixels foreground in either */
    double error_rate;   /**< errors / counted (0 when nothing is counted) */
    double iou;          /**< intersection / union_ (1 when both are empty) */
} gcut_seg_eval;

/**
 * \brief Compare a mask (0 background, anything else foreground) with a
 * ground truth (0 background, 255 foreground, any other value unlabelled
 * and not counted: the 128 band of the MSRC masks).
 * \param seeds NULL to count the whole image; else only pixels whose seed
 *   is GCUT_SEED_UNKNOWN are counted (the error rate of the unknown region).
 * \since 0.1 */
GCUT_VISION_EXPORT gcut_status gcut_seg_evaluate(const uint8_t *mask, const uint8_t *truth,
                                                 const uint8_t *seeds, int64_t count,
                                                 gcut_seg_eval *out);

GCUT_END_C_DECLS

#endif /* GCUT_VISION_SEGMENT_H */
