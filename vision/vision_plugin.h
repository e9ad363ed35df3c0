/*
 * vision_plugin.h - the vision layer's device extensions (private; shared
 * with the CUDA plugin, never installed).
 *
 * A plugin may offer, besides its back ends, device implementations of the
 * segmentation energies (gcut_seg_plugin) and of the multi-label moves
 * (gcut_mrf_plugin) for one of its grid back ends, as named extensions of
 * its descriptor (gcut_plugin_extension, gcut/plugin.h). The core keeps
 * them without knowing what they are; the vision layer asks the core's
 * chooser which back end a solve would use and takes that back end's
 * extension, if any (docs/design.md section 3).
 */
#ifndef GCUT_VISION_PLUGIN_H
#define GCUT_VISION_PLUGIN_H

#include "gcut/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Extension names and versions (gcut_plugin_extension.name / .version). */
#define GCUT_VISION_EXT_MRF "gcut.vision.mrf"
#define GCUT_VISION_EXT_MRF_VERSION 1
#define GCUT_VISION_EXT_SEG "gcut.vision.seg"

/* ------------------------------------------------ device multi-label moves */

/** \brief A multi-label energy for a plugin's device-side alpha-expansion
 *  or alpha-beta swap (gcut/vision/mrf.h explains the energy and the move
 *  graphs). Arrays are read-only and owned by the caller, except \p labels. */
typedef struct gcut_mrf_problem {
    int32_t width, height, depth;
    int32_t connectivity;          /**< 4, 8, 6, 18 or 26 (grid.h's directions) */
    int32_t num_labels;            /**< L */
    int32_t num_nodes;             /**< width * height * depth */
    const int32_t *dir_offset;     /**< 3 * connectivity: dx, dy, dz of direction d */
    const int32_t *unary;          /**< num_nodes * L: unary[v * L + l] >= 0 */
    const int32_t *V;              /**< L * L: a metric for expansion, a semi-metric for
                                        swap (checked by the caller) */
    const int32_t *const *weight;  /**< connectivity / 2 arrays (even directions, entry of
                                        the pair's first node), NULL entries = 1 */
    int32_t max_cycles;
    int64_t moves_per_cycle;       /**< L (expansion) or L (L - 1) / 2 (swap) */
    /** Writes the moves of cycle \p cycle (from 1), in order, to \p moves:
     *  expansion, moves_per_cycle labels; swap, moves_per_cycle pairs
     *  (alpha, beta), alpha < beta, two entries each. A swap pair whose two
     *  labels are both unused when its turn comes is skipped (not counted
     *  as a move). */
    void (*cycle_moves)(void *user, int32_t cycle, int32_t *moves);
    void *moves_user;
    int32_t *labels;               /**< in: the start labelling; out: the result */
    int64_t energy;                /**< in: the start labelling's energy */
    const gcut_solve_options *opt; /**< of the move solves (time limit, log) */
    /** Called after each move when non-NULL (cycle from 1, label, energy, ms). */
    void (*progress)(void *user, int32_t cycle, int32_t label, int64_t energy, double ms);
    void *progress_user;
} gcut_mrf_problem;

/** \brief What a device-side expansion or swap reports (arrays owned by the caller). */
typedef struct gcut_mrf_report {
    int64_t energy;                /**< of the result */
    int32_t cycles, moves, moves_accepted;
    double build_ms, solve_ms, max_move_ms;
    int64_t *cycle_energy;         /**< max_cycles entries: E after each cycle */
    double *cycle_ms;              /**< max_cycles entries */
} gcut_mrf_report;

/** \brief Alpha-expansion and alpha-beta swap run entirely on a plugin's
 *  device: the unary table, the labelling and each move's graph stay there.
 *  Both must give exactly the labelling of the core's loop (moves applied
 *  only when they lower E strictly; the canonical cut decides each move). */
typedef struct gcut_mrf_plugin {
    int32_t abi_version;           /**< GCUT_PLUGIN_ABI_VERSION */
    const char *backend;           /**< the grid back end it belongs to ("cuda-grid") */
    gcut_status (*expand)(const gcut_mrf_problem *p, gcut_mrf_report *r);
    gcut_status (*swap)(const gcut_mrf_problem *p, gcut_mrf_report *r); /**< or NULL */
} gcut_mrf_plugin;


/* ------------------------------------------------ device segmentation energies */

/** Version of the segmentation-energy interface below; the core asks for this
 *  one and a plugin that does not speak it offers nothing. */
#define GCUT_SEG_PLUGIN_VERSION 1

/** Most GMM components per class the interface carries. */
#define GCUT_SEG_PLUGIN_MAX_K 16

/** Doubles per set of moments: count; sums of r, g, b; sums of rr, rg, rb,
 *  gg, gb, bb (in that order). */
#define GCUT_SEG_MOMENTS 10

/** Kinds of colour model (gcut_seg_dev_model.kind). */
enum { GCUT_SEG_DEV_GMM = 0, GCUT_SEG_DEV_HISTOGRAM = 1 };

/** \brief One class's colour model, as the device evaluates it (the vision
 *  layer's models, docs/segmentation.md). A GMM component c contributes
 *  log(pi_c N_c(x)) = logc[c] - Q_c(x - mean[c]) / 2, Q_c the quadratic form
 *  with coefficients inv[c] = xx, 2xy, 2xz, yy, 2yz, zz of the inverse
 *  covariance; only components with live[c] != 0 count. A histogram gives
 *  hist_nll[cell] for the colour's cell. */
typedef struct gcut_seg_dev_model {
    int32_t kind;                               /**< GCUT_SEG_DEV_* */
    int32_t k;                                  /**< GMM: components (1..16) */
    int32_t live[GCUT_SEG_PLUGIN_MAX_K];        /**< GMM: non-zero for weight > 0 */
    float mean[GCUT_SEG_PLUGIN_MAX_K][3];
    float inv[GCUT_SEG_PLUGIN_MAX_K][6];
    float logc[GCUT_SEG_PLUGIN_MAX_K];
    int32_t bins;                               /**< histogram: bins per channel (2..64) */
    const float *hist_nll;                      /**< histogram: bins^3 costs (host) */
} gcut_seg_dev_model;

/** \brief A rectangle of the image: the part that becomes the grid. */
typedef struct gcut_seg_rect {
    int32_t x0, y0, w, h;
} gcut_seg_rect;

/** Byte arrays of the image a device keeps (gcut_seg_plugin.set_bytes). */
enum { GCUT_SEG_BYTES_SEEDS = 0, GCUT_SEG_BYTES_SELECT = 1 };

/** Kinds of pass over the selected pixels (gcut_seg_pass.mode). */
enum {
    GCUT_SEG_PASS_START = 0,    /**< comp = 0 */
    GCUT_SEG_PASS_SPLIT = 1,    /**< comp == widest and axis . x > thr: comp = used */
    GCUT_SEG_PASS_ASSIGN = 2,   /**< comp = the model's most likely component */
    GCUT_SEG_PASS_FROM_DATA = 3 /**< comp = that of the last data pass, of class `fg` */
};

/** \brief One pass over the pixels p with select[p] == want (the SELECT
 *  bytes): set their component comp[p] (a device array, one per class:
 *  index `fg`) as `mode` says, then sum the moments of the pixels by
 *  component (component c >= k counts as 0) into moments[c *
 *  GCUT_SEG_MOMENTS ..] for c < k; a SPLIT pass counts only the pixels
 *  whose component was `widest`. Sums are in double, deterministic, and
 *  exact whenever the colours are whole numbers (8-bit images). */
typedef struct gcut_seg_pass {
    int32_t mode;                  /**< GCUT_SEG_PASS_* */
    int32_t fg;                    /**< 1: the foreground's arrays, 0: the background's */
    uint8_t want;
    int32_t k;                     /**< components (1..16) */
    int32_t widest, used;          /**< SPLIT */
    double axis[3], thr;           /**< SPLIT: proj = axis[0] r + axis[1] g + axis[2] b in double */
    const gcut_seg_dev_model *model;   /**< ASSIGN: a GMM */
} gcut_seg_pass;

/** \brief What a device's energy evaluation reports (cumulative). */
typedef struct gcut_seg_plugin_stats {
    double upload_ms, download_ms;   /**< host time spent in the copies */
    int64_t upload_bytes, download_bytes;
    double kernel_ms;                /**< device time of the kernels (events) */
} gcut_seg_plugin_stats;

/** \brief The segmentation energy of gcut/vision/segment.h (docs/segmentation.md,
 *  vision/segment/energy.c) evaluated on a plugin's device, for a session whose back
 *  end is `backend`. The state holds the image (3 floats per pixel in
 *  [0, 255]) and what the calls computed from it; every result is also
 *  written to the caller's host arrays. The results must be those of the
 *  vision layer's CPU code bit for bit (the same formulas, evaluated in the
 *  same order: vision/segment/segment_math_internal.h), except where a call says
 *  otherwise. All calls return GCUT_OK or fail with gcut_last_error() set
 *  (GCUT_ERR_DEVICE_NOMEM when the device is full: the caller then goes on
 *  on the CPU). A state is used by one thread at a time. */
typedef struct gcut_seg_plugin {
    int32_t abi_version;           /**< GCUT_PLUGIN_ABI_VERSION */
    int32_t version;               /**< GCUT_SEG_PLUGIN_VERSION */
    const char *backend;           /**< the grid back end it belongs to ("cuda-grid") */
    /** Upload the image (width * height pixels, rgb: 3 floats each). */
    gcut_status (*create)(int32_t width, int32_t height, const float *rgb, void **state);
    void (*destroy)(void *state);
    /** beta = 1 / (2 <|I_p - I_q|^2>) over the pairs of the connectivity (4 or 8)
     *  into *beta, and the pair weights lambda exp(-beta |I_p - I_q|^2) / dist
     *  into pair[j] (connectivity / 2 host arrays of width * height floats). */
    gcut_status (*smoothness)(void *state, int32_t connectivity, double lambda, double *beta,
                              float *const *pair);
    /** Keep a byte per pixel (GCUT_SEG_BYTES_SEEDS: the seeds, 0 unknown,
     *  1 foreground, 2 background; GCUT_SEG_BYTES_SELECT: the class
     *  selector of gmm_pass). */
    gcut_status (*set_bytes)(void *state, int32_t which, const uint8_t *bytes);
    /** One pass of GMM learning; moments: k * GCUT_SEG_MOMENTS doubles (host). */
    gcut_status (*gmm_pass)(void *state, const gcut_seg_pass *pass, double *moments);
    /** Data costs: the background model's cost (and GMM component) of every
     *  pixel, the foreground's inside `box`; outside it a pixel gets the
     *  cost of its seed class in both arrays (the foreground's is the GMM
     *  polynomial evaluation: the caller redoes those few pixels when it
     *  wants libm's). Host outputs of width * height each; comp_* may be NULL. */
    gcut_status (*data)(void *state, gcut_seg_rect box, const gcut_seg_dev_model *fg,
                        const gcut_seg_dev_model *bg, float *dfg, float *dbg, uint8_t *comp_fg,
                        uint8_t *comp_bg);
    /** max over the box of 4 * (sum of the pixel's pair weights), for the scale. */
    gcut_status (*worst)(void *state, gcut_seg_rect box, double *worst);
    /** The box's n-links in direction `dir` (grid.h's 2D order, below the
     *  connectivity) quantised at `scale`, 0 towards pixels outside the box:
     *  box.w * box.h int32 into caps (host), the array gcut_grid_set_caps takes. */
    gcut_status (*links)(void *state, gcut_seg_rect box, double scale, int32_t dir,
                         int32_t *caps);
    /** The box's t-links at `scale` from the seeds, the data costs of the last
     *  data call and the folded terms of the fixed pixels around the box;
     *  `rebase` non-zero recomputes the folded part (after the seeds, the box
     *  or the scale changed). Host outputs of box.w * box.h. */
    gcut_status (*terminals)(void *state, gcut_seg_rect box, double scale, int32_t rebase,
                             int32_t *source, int32_t *sink);
    /** Counters since create. */
    void (*stats)(void *state, gcut_seg_plugin_stats *out);
} gcut_seg_plugin;



struct gcut_i_grid_shape; /* core/core_internal.h */

/* The device segmentation energies of the back end that a grid solve with
 * `solve` would use (its back-end name, $GCUT_BACKEND, or the automatic
 * choice for a grid of `shape`), or NULL when that back end offers none or
 * is unavailable. */
const gcut_seg_plugin *gcut_i_vision_seg_plugin(const gcut_solve_options *solve,
                                                const struct gcut_i_grid_shape *shape);

/* The device multi-label moves of that back end, or NULL. */
const gcut_mrf_plugin *gcut_i_vision_mrf_plugin(const gcut_solve_options *solve,
                                                const struct gcut_i_grid_shape *shape);

#ifdef __cplusplus
}
#endif

#endif /* GCUT_VISION_PLUGIN_H */
