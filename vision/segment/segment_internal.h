/*
 * segment_internal.h - what the segmentation files of libgcut_vision share:
 * colour models (GMM, histogram), the float energy, its quantisation into a
 * gcut_grid, and the session object behind gcut_segment / gcut_grabcut.
 * Never installed; the tests include it to check the pieces one by one.
 */
#ifndef GCUT_VISION_SEGMENT_INTERNAL_H
#define GCUT_VISION_SEGMENT_INTERNAL_H

#include "core/core_internal.h"
#include "vision_plugin.h"
#include "gcut/grid.h"
#include "gcut/vision/segment.h"
#include "segment/segment_math_internal.h"

/* Most GMM components per class (gcut_seg_options::components). */
#define GCUT_I_GMM_MAX_K 16

/* The budget and scale limits of the quantisation, exp and log by
 * polynomials, and the other per-pixel formulas live in
 * segment_math_internal.h, shared with the CUDA plugin's kernels. */

/* ---------------------------------------------------------------- GMM */

/* One Gaussian mixture over RGB in [0, 255]^3. Components with no sample
 * have weight 0 and are skipped. `logc` folds log(pi), -log det / 2 and the
 * normalisation together, so that log(pi_k N_k(x)) = logc[k] - Q_k(x) / 2
 * with Q_k the Mahalanobis form given by `inv` (upper triangle xx xy xz yy
 * yz zz). */
typedef struct gcut_i_gmm {
    int32_t k;                         /* components (some may be empty) */
    double weight[GCUT_I_GMM_MAX_K];   /* pi_k, sum 1 over non-empty ones */
    double mean[GCUT_I_GMM_MAX_K][3];
    double cov[GCUT_I_GMM_MAX_K][9];   /* row-major, with the variance floor added */
    float fmean[GCUT_I_GMM_MAX_K][3];  /* the same in float for the pixel loops */
    float inv[GCUT_I_GMM_MAX_K][6];
    float logc[GCUT_I_GMM_MAX_K];
} gcut_i_gmm;

/* Fit from the pixels p with select[p] == want (rgb: 3 floats per pixel).
 * Deterministic: Orchard-Bouman binary splitting as in the GrabCut paper,
 * then `rounds` rounds of hard assignment + re-estimation. comp (n bytes,
 * may be NULL) receives the component of each selected pixel.
 * GCUT_ERR_INVALID when no pixel is selected. */
GCUT_HIDDEN gcut_status gcut_i_gmm_fit(gcut_i_gmm *g, int32_t k, const float *rgb, int64_t n,
                                       const uint8_t *select, uint8_t want, int32_t rounds,
                                       uint8_t *comp);

/* The distinct colours of an image with whole-number colours in [0, 255]
 * (8-bit images): col holds the u colours in increasing order of their
 * 24-bit codes (r << 16 | g << 8 | b), id[p] the index of pixel p's colour
 * there. Every evaluation of a colour model gives the same bits for the
 * same colour (gcut_i_gmm_nll_run works lane by lane), so a pass over the
 * u colours and a gather by id gives the values of a pass over the n
 * pixels. u == 0: no index. */
typedef struct gcut_i_colour_index {
    int64_t n, u;
    uint32_t *id; /* n */
    float *col;   /* 3u */
} gcut_i_colour_index;

/* Builds the index of the n colours rgb (3 floats each). Returns 0 with
 * *ci empty when some colour is not a whole number in [0, 255], when the
 * image has more than max_u distinct colours, or without memory. */
GCUT_HIDDEN int gcut_i_colour_index_build(gcut_i_colour_index *ci, const float *rgb, int64_t n,
                                          int64_t max_u);
GCUT_HIDDEN void gcut_i_colour_index_free(gcut_i_colour_index *ci);

/* gcut_i_gmm_fit, with the distinct colours of the class counted from ci
 * (when not NULL, built and of n pixels) instead of sorted afresh: the
 * same model, bit for bit. */
GCUT_HIDDEN gcut_status gcut_i_gmm_fit_index(gcut_i_gmm *g, int32_t k, const float *rgb, int64_t n,
                                             const gcut_i_colour_index *ci, const uint8_t *select,
                                             uint8_t want, int32_t rounds, uint8_t *comp);

/* Sufficient statistics of a set of pixels (one GMM component): count,
 * sums of r g b, sums of the products rr rg rb gg gb bb, in double. The
 * layout is that of GCUT_SEG_MOMENTS in vision_plugin.h. */
typedef struct gcut_i_gmm_acc {
    double count;
    double sum[3];
    double prod[6];
} gcut_i_gmm_acc;

/* The same moments in integers, for colours that are whole numbers (8-bit
 * images: gcut_i_seg_rgb gives 0..255): a pixel is added or removed
 * exactly, in any order. With n pixels the products stay below
 * 65025 n, so the sums are exact in int64 and, converted, in double up
 * to n = 2^53 / 65025 (about 1.4e11 pixels): gcut_i_gmm_mom_to_acc of
 * the moments of a set equals, bit for bit, the gcut_i_gmm_acc that
 * gmm.c sums for that set in double. The incremental model update of a
 * session keeps these (session.c). */
typedef struct gcut_i_gmm_mom {
    int64_t count;
    int64_t sum[3];
    int64_t prod[6];
} gcut_i_gmm_mom;

/* Add (sign 1) or remove (sign -1) the colour x, whose channels are
 * whole numbers; sign w > 1 adds w pixels of that colour at once (the
 * passes over distinct colours, seg_cpu.c and gmm.c). */
static inline void gcut_i_gmm_mom_add(gcut_i_gmm_mom *m, const float *x, int64_t sign)
{
    const int64_t r = (int64_t)x[0], g = (int64_t)x[1], b = (int64_t)x[2];
    m->count += sign;
    m->sum[0] += sign * r;
    m->sum[1] += sign * g;
    m->sum[2] += sign * b;
    m->prod[0] += sign * (r * r);
    m->prod[1] += sign * (r * g);
    m->prod[2] += sign * (r * b);
    m->prod[3] += sign * (g * g);
    m->prod[4] += sign * (g * b);
    m->prod[5] += sign * (b * b);
}

static inline void gcut_i_gmm_mom_to_acc(const gcut_i_gmm_mom *m, gcut_i_gmm_acc *a)
{
    a->count = (double)m->count;
    for (int i = 0; i < 3; i++)
        a->sum[i] = (double)m->sum[i];
    for (int i = 0; i < 6; i++)
        a->prod[i] = (double)m->prod[i];
}

/* Sum the moments of the pixels p with select[p] == want by component
 * comp[p] (>= k counts as 0) into acc[0..k-1] (zeroed first), in index
 * order and in double: gcut_i_gmm_learn's sums. Returns the pixel count. */
GCUT_HIDDEN int64_t gcut_i_gmm_sum(gcut_i_gmm_acc *acc, int32_t k, const float *rgb, int64_t n,
                                   const uint8_t *select, uint8_t want, const uint8_t *comp);

/* The passes over the pixels that gcut_i_gmm_fit makes, so that a device
 * can make them (seg_device.c) while the decisions between them (which
 * cluster to split, the models) stay here. Each works on the selected
 * pixels of one class and its own per-pixel component array comp[]. */
typedef struct gcut_i_gmm_passes {
    void *user;
    /* comp[p] = 0 for every selected p; *acc (zeroed) receives their moments. */
    gcut_status (*start)(void *user, gcut_i_gmm_acc *acc);
    /* For the selected p with comp[p] == widest: comp[p] = used where
     * axis . x_p > thr (in double); the moments of the pixels that stay
     * into *a_widest, of those that move into *a_used (both zeroed). */
    gcut_status (*split)(void *user, int32_t widest, int32_t used, const double axis[3],
                         double thr, gcut_i_gmm_acc *a_widest, gcut_i_gmm_acc *a_used);
    /* comp[p] = the most likely component of g (gcut_i_gmm_nll_run's) for
     * every selected p; acc[c] (k of them, zeroed) the moments of the
     * pixels with comp[p] == c. */
    gcut_status (*assign)(void *user, const gcut_i_gmm *g, int32_t k, gcut_i_gmm_acc *acc);
} gcut_i_gmm_passes;

/* gcut_i_gmm_fit's algorithm over the given passes (class `want` named in
 * messages). */
GCUT_HIDDEN gcut_status gcut_i_gmm_fit_passes(gcut_i_gmm *g, int32_t k,
                                              const gcut_i_gmm_passes *passes, uint8_t want,
                                              int32_t rounds);

/* The model from the moments of its k components (empty ones get weight 0). */
GCUT_HIDDEN void gcut_i_gmm_from_acc(gcut_i_gmm *g, int32_t k, const gcut_i_gmm_acc *acc);

/* Re-estimate from a given assignment: the pixels p with select[p] == want
 * and their components comp[p]. GCUT_ERR_INVALID when none is selected. */
GCUT_HIDDEN gcut_status gcut_i_gmm_learn(gcut_i_gmm *g, int32_t k, const float *rgb, int64_t n,
                                         const uint8_t *select, uint8_t want,
                                         const uint8_t *comp);

/* Both GrabCut models in one pass: g[1] from the pixels with label 1 and
 * components comp1, g[0] from those with label 0 and components comp0
 * (label is 0 or 1). The same sums, in the same order, as two
 * gcut_i_gmm_learn calls; a class without pixels keeps its model. */
GCUT_HIDDEN void gcut_i_gmm_learn_both(gcut_i_gmm g[2], int32_t k, const float *rgb, int64_t n,
                                       const uint8_t *label, const uint8_t *comp0,
                                       const uint8_t *comp1);

/* -log sum_k pi_k N_k(x), and the most likely component in *best (may be NULL). */
GCUT_HIDDEN float gcut_i_gmm_nll(const gcut_i_gmm *g, const float *x, uint8_t *best);

/* gcut_i_gmm_nll of `count` consecutive pixels (rgb: 3 floats each) into
 * nll[], their best components into best[] (may be NULL): the same values
 * to within float rounding (exp and log by polynomials), several times
 * faster, the loop the data costs of GrabCut run through. */
GCUT_HIDDEN void gcut_i_gmm_nll_run(const gcut_i_gmm *g, const float *rgb, int64_t count,
                                    float *nll, uint8_t *best);

/* ---------------------------------------------------------------- histogram */

typedef struct gcut_i_hist {
    int32_t bins;       /* per channel */
    int32_t cells;      /* bins^3 */
    float *nll;         /* cells: -log P(cell) with add-one smoothing, per unit volume */
} gcut_i_hist;

GCUT_HIDDEN gcut_status gcut_i_hist_fit(gcut_i_hist *h, int32_t bins, const float *rgb,
                                        int64_t n, const uint8_t *select, uint8_t want);
GCUT_HIDDEN float gcut_i_hist_nll(const gcut_i_hist *h, const float *x);
GCUT_HIDDEN void gcut_i_hist_free(gcut_i_hist *h);

/* ---------------------------------------------------------------- energy */

/* The float energy of a w x h image (energy.c):
 *   E(L) = sum_p D_p(L_p) + sum_{pairs} w_pq [L_p != L_q]
 * dfg[p] / dbg[p] are the data costs of labelling p foreground / background.
 * pair[j][p] (j < connectivity / 2) is the weight between p and its
 * neighbour in grid direction 2j (+x, +y, +x+y, +x-y); 0 where that
 * neighbour is outside. Seeds are hard: L_p = class of the seed. */
typedef struct gcut_i_energy {
    int32_t width, height, connectivity;
    int64_t n;
    float *dfg, *dbg;
    float *pair[4];
    double beta, lambda;
} gcut_i_energy;

/* beta = 1 / (2 <|I_p - I_q|^2>) over every neighbour pair of the
 * connectivity (0 for a flat image, where every weight becomes lambda/dist). */
GCUT_HIDDEN double gcut_i_seg_beta(const float *rgb, int32_t w, int32_t h, int32_t conn);

/* Allocate e->pair and fill it from the image (e->beta, e->lambda set). */
GCUT_HIDDEN gcut_status gcut_i_energy_smoothness(gcut_i_energy *e, const float *rgb);

/* E(L) of a labelling (label[p] != 0: foreground), seeds ignored. */
GCUT_HIDDEN double gcut_i_energy_eval(const gcut_i_energy *e, const uint8_t *label);

/* Its two parts: the data costs, and the pair terms (the latter depends on
 * the labelling only, so a session keeps it while the labels stay). */
GCUT_HIDDEN double gcut_i_energy_data(const gcut_i_energy *e, const uint8_t *label);
GCUT_HIDDEN double gcut_i_energy_smooth(const gcut_i_energy *e, const uint8_t *label);

/* How those two change from old_label to label, visiting only the rows
 * with rows[y] != 0 (those where a label changed; the pair terms of the
 * rows next to them too). A session adds them instead of summing afresh
 * after a stroke's small change (equal to the fresh sums up to rounding). */
GCUT_HIDDEN double gcut_i_energy_data_delta(const gcut_i_energy *e, const uint8_t *old_label,
                                            const uint8_t *label, const uint8_t *rows);
GCUT_HIDDEN double gcut_i_energy_smooth_delta(const gcut_i_energy *e, const uint8_t *old_label,
                                              const uint8_t *label, const uint8_t *rows);

/* The part of the image that goes into the grid: the bounding box of the
 * unknown pixels. Everything outside is a seed, fixed already; its pair
 * terms with the box are folded into the t-links of the box's border
 * (a fixed foreground neighbour makes "background" cost w_pq more, and
 * vice versa), which gives exactly the same minimum over the free pixels.
 * A rectangle in GrabCut thus becomes a grid of the rectangle's size. */
typedef struct gcut_i_box {
    int32_t x0, y0, w, h; /* w == 0: no unknown pixel */
} gcut_i_box;

GCUT_HIDDEN gcut_i_box gcut_i_seed_box(const uint8_t *seeds, int32_t width, int32_t height);

/* The scale for e on the box (see GCUT_I_SEG_CAP_BUDGET): from the pair
 * weights alone (t-links are clamped to them), so it stays valid while the
 * data costs or the seeds change. */
GCUT_HIDDEN double gcut_i_energy_scale(const gcut_i_energy *e, gcut_i_box box);

/* The scale from max over the box of 4 * (the pixel's pair-weight sum). */
GCUT_HIDDEN double gcut_i_energy_scale_from_worst(double worst);

/* Quantise e at `scale` into the grid g (box.w x box.h, the connectivity of
 * e): every direction array, then both terminal arrays (see
 * gcut_i_energy_tlinks). tmp: 2 * box.w * box.h int32 of scratch. */
GCUT_HIDDEN gcut_status gcut_i_energy_fill_grid(const gcut_i_energy *e, double scale,
                                                const uint8_t *seeds, gcut_i_box box,
                                                gcut_grid *g, int32_t *tmp);

/* The two halves of gcut_i_energy_fill_grid: the direction arrays (they
 * depend on the image, the box and the scale only), and the terminal
 * arrays (data costs and seeds). tmp as above. */
GCUT_HIDDEN gcut_status gcut_i_energy_fill_links(const gcut_i_energy *e, double scale,
                                                 gcut_i_box box, gcut_grid *g, int32_t *tmp);
GCUT_HIDDEN gcut_status gcut_i_energy_fill_terminals(const gcut_i_energy *e, double scale,
                                                     const uint8_t *seeds, gcut_i_box box,
                                                     const int32_t *base, gcut_grid *g,
                                                     int32_t *tmp);

/* What gcut_i_energy_tlinks computes from the pair weights and the seeds
 * around each pixel of the box, 3 int32 per pixel, so that the terminals
 * of the next fills (new data costs, strokes inside the box) cost a few
 * operations per pixel: base for gcut_i_energy_fill_terminals (NULL there:
 * computed pixel by pixel). Valid while the box, the scale and the seeds
 * outside the box stay. */
GCUT_HIDDEN gcut_status gcut_i_energy_tlink_base(const gcut_i_energy *e, double scale,
                                                 const uint8_t *seeds, gcut_i_box box,
                                                 int32_t *base);

/* Quantised terminal capacities of pixel (x, y) inside the box (source =
 * foreground side): the difference net of the data costs, or for a seed
 * the hard value 1 + the sum of the pixel's quantised pair weights (no cut
 * through its other links can reach it), plus the folded pair terms of its
 * neighbours outside the box; net clamped to +-(1 + the quantised weights
 * of the pixel's arcs in the grid), which keeps every minimum cut, and put
 * on the source (net > 0) or the sink (net < 0). */
GCUT_HIDDEN void gcut_i_energy_tlinks(const gcut_i_energy *e, double scale, const uint8_t *seeds,
                                      gcut_i_box box, int32_t x, int32_t y, int32_t *src,
                                      int32_t *snk);

GCUT_HIDDEN void gcut_i_energy_free(gcut_i_energy *e);

/* ---------------------------------------------------------------- evaluators */

/* The energy steps of a session (session.c), behind one interface with
 * two implementations: the CPU's (seg_cpu.c, over energy.c, gmm.c and
 * histogram.c) and a back end's device (seg_device.c, over the plugin's
 * gcut_seg_plugin, vision_plugin.h). Both write the same values into the
 * same host arrays (the device evaluates the formulas of
 * segment_math_internal.h in the CPU's order), so everything else in the
 * session (strokes, the energy of a labelling, the grid) is the same
 * whichever runs. A device step that fails is redone on the CPU: the
 * session switches its evaluator's ops to gcut_i_seg_eval_cpu for good
 * (gcut_i_seg_eval_drop_device). */
typedef struct gcut_i_seg_eval gcut_i_seg_eval;

/* The two classes' models, [1] foreground: GMMs, or (gmm NULL) histograms. */
typedef struct gcut_i_seg_models {
    const gcut_i_gmm *const *gmm;
    const gcut_i_hist *const *hist;
} gcut_i_seg_models;

typedef struct gcut_i_seg_eval_ops {
    int device; /* 1: the device's (gcut_seg_stats::energy_device) */
    /* e->beta and e->pair from the image (gcut_i_seg_beta,
     * gcut_i_energy_smoothness); e->pair allocated here when NULL. */
    gcut_status (*smoothness)(gcut_i_seg_eval *ev, gcut_i_energy *e);
    /* The seeds changed since the last call (the device uploads them; the
     * CPU reads them in place). The session calls it before `data` and
     * `terminals` when they did. */
    gcut_status (*seeds)(gcut_i_seg_eval *ev, const uint8_t *seeds);
    /* The class selector of the GMM passes that follow (the device
     * uploads it; the CPU reads the array handed to gmm_fit). */
    gcut_status (*select)(gcut_i_seg_eval *ev, const uint8_t *select);
    /* gcut_i_gmm_fit of the pixels with select[p] == want; fg: which
     * class's component array (the device's). GCUT_ERR_INVALID when no
     * pixel is selected, on both. */
    gcut_status (*gmm_fit)(gcut_i_seg_eval *ev, gcut_i_gmm *g, int32_t k, const uint8_t *select,
                           uint8_t want, int32_t fg, int32_t rounds);
    /* GrabCut's learning step: both models re-estimated from the labels
     * (1 foreground) and each pixel's component in the last data pass
     * (comp_bg / comp_fg); a class without pixels keeps its model
     * (gcut_i_gmm_learn_both). */
    gcut_status (*gmm_learn)(gcut_i_seg_eval *ev, gcut_i_gmm g[2], int32_t k,
                             const uint8_t *label, const uint8_t *comp_bg,
                             const uint8_t *comp_fg);
    /* The data costs into e->dfg / e->dbg: both classes for every pixel of
     * the box, outside it only the cost of the pixel's seed class (the
     * other set equal); with GMMs each computed pixel's most likely
     * component into comp_fg / comp_bg. */
    gcut_status (*data)(gcut_i_seg_eval *ev, const gcut_i_seg_models *m, gcut_i_box box,
                        const uint8_t *seeds, gcut_i_energy *e, uint8_t *comp_fg,
                        uint8_t *comp_bg);
    /* gcut_i_energy_scale of the box. */
    gcut_status (*scale)(gcut_i_seg_eval *ev, const gcut_i_energy *e, gcut_i_box box,
                         double *scale);
    /* gcut_i_energy_fill_links: the grid's direction arrays. tmp: 2 * box
     * pixels of scratch. */
    gcut_status (*links)(gcut_i_seg_eval *ev, const gcut_i_energy *e, double scale,
                         gcut_i_box box, gcut_grid *g, int32_t *tmp);
    /* gcut_i_energy_fill_terminals: the grid's terminal arrays, from the
     * evaluator's t-link bases, recomputed first when `rebase` (the box,
     * the scale or the seeds outside the box changed since they were, or
     * none were computed by this evaluator yet). */
    gcut_status (*terminals)(gcut_i_seg_eval *ev, const gcut_i_energy *e, double scale,
                             const uint8_t *seeds, gcut_i_box box, int rebase, gcut_grid *g,
                             int32_t *tmp);
    /* Milliseconds spent copying between host and device so far (CPU: 0). */
    double (*transfer_ms)(const gcut_i_seg_eval *ev);
    /* Release what the implementation holds (the device state). */
    void (*close)(gcut_i_seg_eval *ev);
} gcut_i_seg_eval_ops;

/* An evaluator: its ops and what the two implementations keep. */
struct gcut_i_seg_eval {
    const gcut_i_seg_eval_ops *ops;
    int32_t width, height;
    int64_t n;
    const float *rgb;          /* the session's image, 3n */
    int32_t *tbase;            /* CPU: the box's gcut_i_energy_tlink_base, 3 per pixel */
    int64_t tbase_cap;         /* its size in pixels */
    const gcut_seg_plugin *pl; /* device: the back end's energies */
    void *dev;                 /* device: the plugin's state */
    /* CPU: the image's distinct colours (seg_cpu.c, colour_tables), built
     * at the first GMM pass unless they are not worth it (index_tried). */
    gcut_i_colour_index ci;
    int index_tried;
    float *unll;       /* 2u: per distinct colour, the last data pass's costs (bg, fg) */
    uint8_t *ucomp;    /* 2u: and most likely components */
    gcut_i_box ubox;   /* the box whose colours ubox_col lists */
    int64_t nubox;     /* how many: the distinct colours of the box */
    uint32_t *ubox_id; /* nubox: their indices in ci */
    float *ubox_col;   /* 3 nubox: the colours */
    int ucomp_box;     /* comp_bg of every pixel and comp_fg of those in ubox are
                          ucomp's, gathered by the last data pass */
    uint32_t *ucount;  /* 2u: scratch of the learning step (pixels per colour) */
};

GCUT_HIDDEN extern const gcut_i_seg_eval_ops gcut_i_seg_eval_cpu;

/* The CPU's data costs (its `data` op, classes 3) of the classes in the
 * bit set `classes` (2 foreground, 1 background; GMMs), the other class's
 * costs and components left as they are: with the box and the seeds
 * outside it of the last full pass, the arrays then hold what a full pass
 * would write, bit for bit (each class's values come from its own model,
 * row by row, in the same calls). The incremental model update uses it
 * for the class whose model changed. */
GCUT_HIDDEN void gcut_i_seg_cpu_data(gcut_i_seg_eval *ev, const gcut_i_seg_models *m, gcut_i_box b,
                                     const uint8_t *seeds, gcut_i_energy *e, uint8_t *comp_fg,
                                     uint8_t *comp_bg, int classes);
GCUT_HIDDEN extern const gcut_i_seg_eval_ops gcut_i_seg_eval_device;

/* A CPU evaluator of the width x height image rgb (kept, not copied). */
GCUT_HIDDEN void gcut_i_seg_eval_init(gcut_i_seg_eval *ev, int32_t width, int32_t height,
                                      const float *rgb);

/* Switch to the device's energies of the back end that grid solves with
 * `solve` use (gcut_i_vision_seg_plugin; with "auto", the choice for the
 * image's grid of that connectivity) and upload the image. GCUT_OK:
 * ev->ops is gcut_i_seg_eval_device; GCUT_ERR_UNSUPPORTED, no error
 * recorded, when that back end offers none; the plugin's status when it
 * fails. Either failure leaves the CPU evaluator. */
GCUT_HIDDEN gcut_status gcut_i_seg_eval_open_device(gcut_i_seg_eval *ev,
                                                    const gcut_solve_options *solve,
                                                    int32_t connectivity);

/* Go on with the CPU's ops (closing the device's state); its t-link bases
 * are then to be computed (rebase). */
GCUT_HIDDEN void gcut_i_seg_eval_drop_device(gcut_i_seg_eval *ev);

GCUT_HIDDEN void gcut_i_seg_eval_free(gcut_i_seg_eval *ev);

/* gcut_seg_session_new reporting progress as `operation` (static:
 * "segment", or "grabcut" for gcut_grabcut); no GCUT_ENTRY of its own. */
GCUT_HIDDEN gcut_status gcut_i_seg_session_create(gcut_seg_session **out, const gcut_image *image,
                                                  const uint8_t *seeds,
                                                  const gcut_seg_options *params,
                                                  const char *operation);

/* For the tests: the session's energy, models and device path. */
GCUT_HIDDEN const gcut_i_energy *gcut_i_seg_session_energy(const gcut_seg_session *s);
GCUT_HIDDEN const gcut_i_gmm *gcut_i_seg_session_gmm(const gcut_seg_session *s, int fg);
GCUT_HIDDEN const uint8_t *gcut_i_seg_session_comp(const gcut_seg_session *s, int fg);

/* For the tests: the kept moments of the incremental model update (NULL
 * while they are to be summed afresh at the next update, or when the
 * colours are not whole numbers), and the class (GCUT_SEED_FG / _BG, 0
 * none) and component each pixel is counted in. */
GCUT_HIDDEN const gcut_i_gmm_mom *gcut_i_seg_session_moments(const gcut_seg_session *s, int fg);
GCUT_HIDDEN const uint8_t *gcut_i_seg_session_members(const gcut_seg_session *s);
GCUT_HIDDEN const uint8_t *gcut_i_seg_session_member_comp(const gcut_seg_session *s);
GCUT_HIDDEN int gcut_i_seg_session_on_device(const gcut_seg_session *s);

/* ---------------------------------------------------------------- pixels */

/* The image as packed RGB floats in [0, 255] (gray replicated, alpha
 * dropped, 16-bit scaled): 3 * width * height floats, caller frees. */
GCUT_HIDDEN gcut_status gcut_i_seg_rgb(const char *func, const gcut_image *img, float **out);

/* Validate params (NULL: defaults) into *p, copying the struct. */
GCUT_HIDDEN gcut_status gcut_i_seg_options(const char *func, const gcut_seg_options *in,
                                          gcut_seg_options *p);

GCUT_HIDDEN double gcut_i_seg_now_ms(void);

#endif /* GCUT_VISION_SEGMENT_INTERNAL_H */
