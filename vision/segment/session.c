/*
 * session.c - the segmentation session: image, colour models, energy and
 * grid kept together, so that strokes re-solve warm and GrabCut iterates
 * on the same grid.
 *
 * Y. Boykov, M.-P. Jolly, "Interactive graph cuts ...", ICCV 2001 (seeds as
 * hard constraints, one cut per edit); C. Rother, V. Kolmogorov, A. Blake,
 * "GrabCut", SIGGRAPH 2004 (iterated re-estimation, section 3.2);
 * P. Kohli, P. Torr, "Dynamic graph cuts", PAMI 2007 (re-using the flow
 * after small changes, done by the grid engine: grid.h).
 *
 * Invariants:
 *  - models[] and e.dfg / e.dbg always belong together: every change of a
 *    model recomputes every data cost and drops `grid_ready`;
 *  - while `grid_ready`, the grid holds e on `box` (energy.c: the box
 *    contains every unknown pixel, the rest is folded into t-links)
 *    quantised at `scale` with the current seeds: a stroke inside the box
 *    only rewrites the t-links of its pixels (gcut_grid_set_tweights,
 *    which the engine records for a warm solve); a stroke that changes a
 *    pixel outside the box sets `terms_dirty`, and the next solve rebuilds
 *    box, data costs and grid (cold);
 *  - data costs of both classes are known for every pixel of the box;
 *    outside it only the cost of the pixel's seed class is computed (the
 *    other is set equal), which is all the energy and the GMM need there;
 *  - the scale depends on the pair weights of the box only (energy.c
 *    clamps the t-links to them), so neither a stroke nor a new model
 *    can push a t-link past the budget; while `links_ready`, the grid's
 *    direction arrays hold the box's n-links at `scale`, and a rebuild
 *    for the same box (a GrabCut iteration) only rewrites the t-links,
 *    which the engine re-solves warm;
 *  - label[] is the labelling of the last cut (1 foreground), or before any
 *    cut the initial guess (the unknown pixels belong to the class that
 *    learnt from them);
 *  - on the device path (dev.pl set: the back end offers device energies,
 *    seg_device.c) the same quantities are computed there and copied into
 *    the same host arrays, bit for bit the CPU's; `tbase` is then unused
 *    (the device keeps the t-link bases, `base_ready` says whether they
 *    are current). A failing device call drops the path for good
 *    (dev_drop) and the step is redone on the CPU.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "segment/segment_internal.h"

struct gcut_seg_session {
    gcut_seg_options params; /* params.solve's strings point at the copies below */
    char backend[64];      /* a copy of params.solve.backend */
    char *solve_params;    /* a copy of params.solve.params (NULL: none) */
    int32_t width, height;
    int64_t n;
    float *rgb;            /* 3n */
    uint8_t *seeds;        /* n */
    uint8_t *label;        /* n: 1 foreground, 0 background */
    uint8_t *comp_fg;      /* n: most likely foreground component (last data pass) */
    uint8_t *comp_bg;      /* n: the same for the background */
    gcut_i_gmm gmm[2];     /* [1] foreground, [0] background */
    gcut_i_hist hist[2];
    gcut_i_energy e;
    double scale;
    gcut_i_box box;        /* the part of the image in the grid */
    gcut_i_box links_box;  /* the box the n-links were filled for */
    int32_t *tmp;          /* 2n: scratch for the grid arrays */
    gcut_grid *grid;
    gcut_result *res;
    int grid_ready, terms_dirty, solved;
    int links_ready;       /* the grid's n-links are those of `box` at `scale` */
    int32_t *tbase;        /* gcut_i_energy_tlink_base of the box, 3 per pixel */
    int64_t tbase_cap;     /* its size in pixels */
    int base_ready;        /* tbase belongs to the box, the scale and the seeds */
    double smooth;         /* gcut_i_energy_smooth of label, while smooth_ok */
    int smooth_ok;
    double data;           /* gcut_i_energy_data of label and the costs, while data_ok */
    int data_ok;
    gcut_i_box seed_box;   /* gcut_i_seed_box of seeds, while seed_box_ok */
    int seed_box_ok;
    double model_ms;       /* model time not yet reported in stats */
    gcut_i_segdev dev;     /* the device path, or dev.pl NULL */
    double xfer_reported;  /* device transfer ms already reported in stats */
};

/* Leave the device path after a failed call: say so, forget the error,
 * and let the caller redo the step on the CPU (which rebuilds the t-link
 * bases, kept on the device until now). */
static void dev_drop(gcut_seg_session *s, const char *what)
{
    gcut_i_log(&s->params.solve, GCUT_LOG_WARN,
               "segmentation: the device energies failed (%s: %s); going on on the CPU", what,
               gcut_last_error());
    gcut_clear_error();
    gcut_i_segdev_close(&s->dev);
    s->base_ready = 0;
}

static gcut_status check_seeds(const char *func, const uint8_t *seeds, int64_t n,
                               int64_t *nfg, int64_t *nbg)
{
    int64_t f = 0, b = 0;
    for (int64_t p = 0; p < n; p++) {
        if (seeds[p] == GCUT_SEED_FG)
            f++;
        else if (seeds[p] == GCUT_SEED_BG)
            b++;
        else if (seeds[p] != GCUT_SEED_UNKNOWN)
            return gcut_i_fail(GCUT_ERR_INVALID, func,
                               "seed byte %u at pixel %lld (0 unknown, 1 foreground, 2 "
                               "background)",
                               (unsigned)seeds[p], (long long)p);
    }
    *nfg = f;
    *nbg = b;
    return GCUT_OK;
}

/* Data costs of every pixel from the current models; the GMM path also
 * records each pixel's most likely component in both classes (the next
 * GrabCut assignment step needs exactly these, with the same models). */
static void data_terms(gcut_seg_session *s)
{
    const float *rgb = s->rgb;
    if (!s->seed_box_ok) {
        s->seed_box = gcut_i_seed_box(s->seeds, s->width, s->height);
        s->seed_box_ok = 1;
    }
    const gcut_i_box b = s->seed_box;
    const int gmm = s->params.model == GCUT_SEG_GMM;
    if (s->dev.pl) {
        const gcut_i_gmm *g[2] = {&s->gmm[0], &s->gmm[1]};
        const gcut_i_hist *h[2] = {&s->hist[0], &s->hist[1]};
        const gcut_i_segdev_models m = {gmm ? g : NULL, gmm ? NULL : h};
        if (gcut_i_segdev_data(&s->dev, &m, b, s->seeds, rgb, &s->e, s->comp_fg, s->comp_bg) ==
            GCUT_OK) {
            s->box = b;
            s->grid_ready = 0;
            s->terms_dirty = 0;
            s->data_ok = 0;
            return;
        }
        dev_drop(s, "data costs");
    }
    const int32_t w = s->width;
    for (int32_t y = 0; y < s->height; y++) {
        const int64_t r = (int64_t)y * w;
        const int row_in = b.w > 0 && y >= b.y0 && y < b.y0 + b.h;
        if (gmm) {
            /* Background over the whole row, foreground over the box: both
             * in batches (gcut_i_gmm_nll_run). */
            gcut_i_gmm_nll_run(&s->gmm[0], rgb + 3 * r, w, s->e.dbg + r, s->comp_bg + r);
            if (row_in)
                gcut_i_gmm_nll_run(&s->gmm[1], rgb + 3 * (r + b.x0), b.w, s->e.dfg + r + b.x0,
                                   s->comp_fg + r + b.x0);
        }
        for (int32_t x = 0; x < w; x++) {
            const int64_t p = r + x;
            const uint8_t sd = s->seeds[p];
            const int both = row_in && x >= b.x0 && x < b.x0 + b.w;
            if (!gmm) {
                s->e.dfg[p] = (both || sd == GCUT_SEED_FG) ? gcut_i_hist_nll(&s->hist[1], rgb + 3 * p)
                                                           : 0.0f;
                s->e.dbg[p] = (both || sd == GCUT_SEED_BG) ? gcut_i_hist_nll(&s->hist[0], rgb + 3 * p)
                                                           : 0.0f;
            } else if (!both && sd == GCUT_SEED_FG) {
                s->e.dfg[p] = gcut_i_gmm_nll(&s->gmm[1], rgb + 3 * p, &s->comp_fg[p]);
            }
            if (!both) {
                /* A fixed pixel outside the box: only its own class counts. */
                if (sd == GCUT_SEED_FG)
                    s->e.dbg[p] = s->e.dfg[p];
                else
                    s->e.dfg[p] = s->e.dbg[p];
            }
        }
    }
    s->box = b;
    s->grid_ready = 0;
    s->terms_dirty = 0;
    s->data_ok = 0;
}

/* First models: each class from its seeds, or from the unknown pixels when
 * it has none. Sets the initial labelling to match. */
static gcut_status initial_models(gcut_seg_session *s, int64_t nfg, int64_t nbg)
{
    const char *func = "gcut_seg_session_new";
    uint8_t *sel = s->label; /* reused: it becomes the initial labelling below */
    const uint8_t unknown_to = nfg == 0 ? 1 : (nbg == 0 ? 2 : 0);
    for (int64_t p = 0; p < s->n; p++) {
        const uint8_t sd = s->seeds[p];
        sel[p] = sd == GCUT_SEED_FG ? 1 : sd == GCUT_SEED_BG ? 2 : unknown_to;
    }
    gcut_status st = GCUT_OK;
    if (s->dev.pl && s->params.model == GCUT_SEG_GMM &&
        gcut_i_segdev_select(&s->dev, sel) != GCUT_OK)
        dev_drop(s, "class selection");
    for (int c = 1; c >= 0; c--) {
        const uint8_t want = c ? 1 : 2;
        if (s->params.model == GCUT_SEG_GMM && s->dev.pl) {
            st = gcut_i_segdev_gmm_fit(&s->dev, &s->gmm[c], s->params.components, want, c, 2);
            /* A class without pixels fails the same way on both paths; any
             * other failure is the device's. */
            if (st != GCUT_OK && st != GCUT_ERR_INVALID) {
                dev_drop(s, "GMM fit");
                st = gcut_i_gmm_fit(&s->gmm[c], s->params.components, s->rgb, s->n, sel, want,
                                    2, NULL);
            }
        } else if (s->params.model == GCUT_SEG_GMM)
            st = gcut_i_gmm_fit(&s->gmm[c], s->params.components, s->rgb, s->n, sel, want, 2,
                                NULL);
        else
            st = gcut_i_hist_fit(&s->hist[c], s->params.bins, s->rgb, s->n, sel, want);
        if (st != GCUT_OK) {
            char why[256];
            snprintf(why, sizeof why, "%s", gcut_last_error());
            return gcut_i_fail(st, func, "%s %s model: %s", c ? "foreground" : "background",
                               s->params.model == GCUT_SEG_GMM ? "GMM" : "histogram", why);
        }
    }
    /* Initial labelling: seeds, and the unknown pixels as the class that
     * learnt from them (foreground when both classes have seeds). */
    for (int64_t p = 0; p < s->n; p++)
        s->label[p] = sel[p] == 2 ? 0 : 1;
    return GCUT_OK;
}

void gcut_seg_session_free(gcut_seg_session *s)
{
    if (!s)
        return;
    gcut_i_segdev_close(&s->dev);
    gcut_grid_free(s->grid);
    gcut_result_free(s->res);
    gcut_i_energy_free(&s->e);
    gcut_i_hist_free(&s->hist[0]);
    gcut_i_hist_free(&s->hist[1]);
    gcut_i_free(s->rgb);
    gcut_i_free(s->seeds);
    gcut_i_free(s->label);
    gcut_i_free(s->comp_fg);
    gcut_i_free(s->comp_bg);
    gcut_i_free(s->tmp);
    gcut_i_free(s->tbase);
    gcut_i_free(s->solve_params);
    gcut_i_free(s);
}

gcut_status gcut_seg_session_new(gcut_seg_session **out, const gcut_image *image,
                                 const uint8_t *seeds, const gcut_seg_options *params)
{
    const char *func = "gcut_seg_session_new";
    if (!out || !image || !seeds)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    gcut_seg_options p;
    gcut_status st = gcut_i_seg_options(func, params, &p);
    if (st != GCUT_OK)
        return st;
    if (p.solve.backend && strlen(p.solve.backend) >= 64)
        return GCUT_FAIL(GCUT_ERR_INVALID, "back-end name too long");
    const double t0 = gcut_i_seg_now_ms();
    float *rgb = NULL;
    if ((st = gcut_i_seg_rgb(func, image, &rgb)) != GCUT_OK)
        return st;
    const int64_t n = (int64_t)image->width * image->height;
    int64_t nfg = 0, nbg = 0;
    if ((st = check_seeds(func, seeds, n, &nfg, &nbg)) != GCUT_OK) {
        gcut_i_free(rgb);
        return st;
    }
    if (nfg == 0 && nbg == 0) {
        gcut_i_free(rgb);
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "no seeds: mark some foreground or background pixels (or a rectangle)");
    }
    if (nfg + nbg == n) {
        gcut_i_free(rgb);
        return GCUT_FAIL(GCUT_ERR_INVALID, "every pixel is a seed: nothing left to segment");
    }
    gcut_seg_session *s = gcut_i_calloc(1, sizeof *s);
    if (!s) {
        gcut_i_free(rgb);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
    }
    s->params = p;
    if (p.solve.backend) {
        strcpy(s->backend, p.solve.backend);
        s->params.solve.backend = s->backend;
    }
    s->width = image->width;
    s->height = image->height;
    s->n = n;
    s->rgb = rgb;
    if (p.solve.params) {
        const size_t len = strlen(p.solve.params);
        if (!(s->solve_params = gcut_i_malloc(len + 1))) {
            st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
            goto fail;
        }
        memcpy(s->solve_params, p.solve.params, len + 1);
        s->params.solve.params = s->solve_params;
    }
    s->seeds = gcut_i_malloc_array(n, 1);
    s->label = gcut_i_malloc_array(n, 1);
    s->comp_fg = gcut_i_calloc((size_t)n, 1);
    s->comp_bg = gcut_i_calloc((size_t)n, 1);
    s->tmp = gcut_i_malloc_array(2 * n, sizeof(int32_t));
    s->e.dfg = gcut_i_malloc_array(n, sizeof(float));
    s->e.dbg = gcut_i_malloc_array(n, sizeof(float));
    if (!s->seeds || !s->label || !s->comp_fg || !s->comp_bg || !s->tmp ||
        !s->e.dfg || !s->e.dbg) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (%lld pixels)", (long long)n);
        goto fail;
    }
    memcpy(s->seeds, seeds, (size_t)n);
    s->e.width = s->width;
    s->e.height = s->height;
    s->e.n = n;
    s->e.connectivity = p.connectivity;
    s->e.lambda = p.lambda;
    /* The device path when the back end offers it (a failure to open it
     * is not the caller's: say so and stay on the CPU). */
    if (p.device_energies &&
        (st = gcut_i_segdev_open(&s->dev, &s->params.solve, s->width, s->height, rgb)) !=
            GCUT_OK &&
        st != GCUT_ERR_UNSUPPORTED)
        dev_drop(s, "opening");
    if (s->dev.pl && gcut_i_segdev_smoothness(&s->dev, &s->e) != GCUT_OK)
        dev_drop(s, "smoothness");
    if (!s->dev.pl) {
        s->e.beta = gcut_i_seg_beta(rgb, s->width, s->height, p.connectivity);
        for (int j = 0; j < 4; j++) {
            gcut_i_free(s->e.pair[j]);
            s->e.pair[j] = NULL;
        }
        if ((st = gcut_i_energy_smoothness(&s->e, rgb)) != GCUT_OK)
            goto fail;
    }
    if ((st = initial_models(s, nfg, nbg)) != GCUT_OK)
        goto fail;
    data_terms(s);
    s->model_ms = gcut_i_seg_now_ms() - t0;
    *out = s;
    return GCUT_OK;
fail:
    gcut_seg_session_free(s);
    return st;
}

/* Quantise and fill the grid of the current box when the energy changed. */
static gcut_status build_grid(gcut_seg_session *s)
{
    gcut_status st;
    const gcut_i_box b = s->box;
    if (b.w == 0) {
        s->grid_ready = 1; /* nothing to cut: every pixel is a seed */
        return GCUT_OK;
    }
    if (!s->res && (st = gcut_result_new(&s->res)) != GCUT_OK)
        return st;
    if (s->links_ready && memcmp(&s->links_box, &b, sizeof b) != 0)
        s->links_ready = 0;
    if (s->grid && (gcut_grid_width(s->grid) != b.w || gcut_grid_height(s->grid) != b.h)) {
        gcut_grid_free(s->grid);
        s->grid = NULL;
        s->links_ready = 0;
    }
    if (!s->grid &&
        (st = gcut_grid_new(&s->grid, b.w, b.h, 1, s->params.connectivity)) != GCUT_OK)
        return st;
    if (!s->links_ready && s->dev.pl) {
        if ((st = gcut_i_segdev_scale(&s->dev, b, &s->scale)) != GCUT_OK ||
            (st = gcut_i_segdev_fill_links(&s->dev, s->params.connectivity, s->scale, b, s->grid,
                                           s->tmp)) != GCUT_OK) {
            if (st == GCUT_ERR_NOMEM || st == GCUT_ERR_INVALID)
                return st; /* the grid's, not the device's */
            dev_drop(s, "n-links");
        } else {
            s->links_box = b;
            s->links_ready = 1;
            s->base_ready = 0;
        }
    }
    if (!s->links_ready) {
        s->scale = gcut_i_energy_scale(&s->e, b);
        if ((st = gcut_i_energy_fill_links(&s->e, s->scale, b, s->grid, s->tmp)) != GCUT_OK)
            return st;
        s->links_box = b;
        s->links_ready = 1;
        s->base_ready = 0;
    }
    if (s->dev.pl) {
        st = gcut_i_segdev_fill_terminals(&s->dev, s->seeds, s->scale, b, !s->base_ready,
                                          s->grid, s->tmp);
        if (st == GCUT_OK) {
            s->base_ready = 1;
            s->grid_ready = 1;
            return GCUT_OK;
        }
        if (st == GCUT_ERR_NOMEM || st == GCUT_ERR_INVALID)
            return st;
        dev_drop(s, "t-links");
    }
    if (!s->base_ready) {
        const int64_t nb = (int64_t)b.w * b.h;
        if (nb > s->tbase_cap) {
            int32_t *t = gcut_i_malloc_array(3 * nb, sizeof(int32_t));
            if (!t)
                return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (%lld pixels)", (long long)nb);
            gcut_i_free(s->tbase);
            s->tbase = t;
            s->tbase_cap = nb;
        }
        if ((st = gcut_i_energy_tlink_base(&s->e, s->scale, s->seeds, b, s->tbase)) != GCUT_OK)
            return st;
        s->base_ready = 1;
    }
    if ((st = gcut_i_energy_fill_terminals(&s->e, s->scale, s->seeds, b, s->tbase, s->grid,
                                           s->tmp)) != GCUT_OK)
        return st;
    s->grid_ready = 1;
    return GCUT_OK;
}

/* E of the current labelling under the current models; the pair part is
 * kept while the labels stay (it does not depend on the models), the data
 * part while the labels and the costs stay. */
static double energy(gcut_seg_session *s)
{
    if (!s->smooth_ok) {
        s->smooth = gcut_i_energy_smooth(&s->e, s->label);
        s->smooth_ok = 1;
    }
    if (!s->data_ok) {
        s->data = gcut_i_energy_data(&s->e, s->label);
        s->data_ok = 1;
    }
    return s->data + s->smooth;
}

static void fill_stats(gcut_seg_session *s, gcut_seg_stats *stats, double model_ms,
                       double build_ms, double solve_ms, int32_t iterations)
{
    if (!stats)
        return;
    memset(stats, 0, sizeof *stats);
    stats->model_ms = model_ms;
    stats->build_ms = build_ms;
    stats->solve_ms = solve_ms;
    stats->total_ms = model_ms + build_ms + solve_ms;
    stats->energy = energy(s);
    stats->scale = s->scale;
    stats->beta = s->e.beta;
    stats->iterations = iterations;
    if (s->dev.pl) {
        gcut_seg_plugin_stats ps;
        gcut_i_segdev_stats(&s->dev, &ps);
        const double xfer = ps.upload_ms + ps.download_ms;
        stats->energy_device = 1;
        stats->transfer_ms = xfer - s->xfer_reported;
        s->xfer_reported = xfer;
    }
    if (s->res && s->solved && s->box.w > 0) {
        stats->flow = gcut_result_flow(s->res);
        stats->warm_start = gcut_result_stats(s->res)->warm_start;
        stats->backend = gcut_result_backend(s->res);
    }
}

/* Build if needed, solve, read the labelling; *changed counts label flips. */
static gcut_status cut(gcut_seg_session *s, double *build_ms, double *solve_ms, int64_t *changed)
{
    gcut_status st;
    double t0 = gcut_i_seg_now_ms();
    if (s->terms_dirty)
        data_terms(s);
    if (!s->grid_ready && (st = build_grid(s)) != GCUT_OK)
        return st;
    double t1 = gcut_i_seg_now_ms();
    const gcut_i_box b = s->box;
    const uint8_t *c = NULL;
    if (b.w > 0) {
        if ((st = gcut_grid_solve(s->grid, &s->params.solve, s->res)) != GCUT_OK)
            return st;
        c = gcut_result_cut(s->res);
    }
    int64_t ch = 0;
    for (int32_t y = 0; y < s->height; y++)
        for (int32_t x = 0; x < s->width; x++) {
            const int64_t p = (int64_t)y * s->width + x;
            uint8_t l;
            if (x >= b.x0 && x < b.x0 + b.w && y >= b.y0 && y < b.y0 + b.h)
                l = c[(int64_t)(y - b.y0) * b.w + (x - b.x0)] == GCUT_SOURCE ? 1 : 0;
            else
                l = s->seeds[p] == GCUT_SEED_FG ? 1 : 0;
            ch += l != s->label[p];
            s->label[p] = l;
        }
    if (ch)
        s->smooth_ok = s->data_ok = 0;
    s->solved = 1;
    double t2 = gcut_i_seg_now_ms();
    *build_ms += t1 - t0;
    *solve_ms += t2 - t1;
    if (changed)
        *changed = ch;
    return GCUT_OK;
}

static void write_mask(const gcut_seg_session *s, uint8_t *mask)
{
    if (!mask)
        return;
    for (int64_t p = 0; p < s->n; p++)
        mask[p] = s->label[p] ? GCUT_MASK_FG : GCUT_MASK_BG;
}

gcut_status gcut_seg_session_solve(gcut_seg_session *s, uint8_t *mask, gcut_seg_stats *stats)
{
    if (!s)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL session");
    double build_ms = 0.0, solve_ms = 0.0;
    gcut_status st = cut(s, &build_ms, &solve_ms, NULL);
    if (st != GCUT_OK)
        return st;
    write_mask(s, mask);
    fill_stats(s, stats, s->model_ms, build_ms, solve_ms, 1);
    s->model_ms = 0.0;
    return GCUT_OK;
}

/* Re-learn both models from the current labelling (GrabCut steps 1 and 2)
 * and recompute the data costs. A class left without pixels keeps its
 * model; returns 0 then so that the caller can stop. */
static int relearn(gcut_seg_session *s)
{
    int64_t nfg = 0;
    for (int64_t p = 0; p < s->n; p++)
        nfg += s->label[p];
    if (nfg == 0 || nfg == s->n)
        return 0;
    if (s->params.model == GCUT_SEG_GMM && s->dev.pl) {
        /* Steps 1 and 2 on the device: the labels select each class, the
         * components are those of the last data pass there. */
        const int32_t k = s->params.components;
        if (gcut_i_segdev_select(&s->dev, s->label) != GCUT_OK ||
            gcut_i_segdev_gmm_learn(&s->dev, &s->gmm[1], k, 1, 1) != GCUT_OK ||
            gcut_i_segdev_gmm_learn(&s->dev, &s->gmm[0], k, 0, 0) != GCUT_OK) {
            /* The host has the components too: redo both on the CPU (a
             * model learnt here already equals the CPU's). */
            dev_drop(s, "GMM learning");
        } else {
            data_terms(s);
            return 1;
        }
    }
    if (s->params.model == GCUT_SEG_GMM) {
        /* Step 1: each pixel's component is the most likely one of its
         * class under the current models (recorded by the last data pass);
         * step 2: maximum-likelihood components from those assignments,
         * both classes in one pass. */
        gcut_i_gmm_learn_both(s->gmm, s->params.components, s->rgb, s->n, s->label, s->comp_bg,
                              s->comp_fg);
    } else {
        if (gcut_i_hist_fit(&s->hist[1], s->params.bins, s->rgb, s->n, s->label, 1) != GCUT_OK ||
            gcut_i_hist_fit(&s->hist[0], s->params.bins, s->rgb, s->n, s->label, 0) != GCUT_OK)
            return 0;
    }
    data_terms(s);
    return 1;
}

gcut_status gcut_seg_session_grabcut(gcut_seg_session *s, int32_t iterations, uint8_t *mask,
                                     gcut_seg_stats *stats)
{
    if (!s)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL session");
    if (iterations < 1 || iterations > 1000)
        return GCUT_FAIL(GCUT_ERR_INVALID, "iterations %d outside 1..1000", (int)iterations);
    double model_ms = s->model_ms, build_ms = 0.0, solve_ms = 0.0;
    s->model_ms = 0.0;
    gcut_status st;
    int32_t done = 0;
    double prev = INFINITY;
    if (!s->solved) {
        /* Iteration 1 cuts with the models learnt from the seeds. */
        if ((st = cut(s, &build_ms, &solve_ms, NULL)) != GCUT_OK)
            return st;
        done = 1;
        prev = energy(s);
    }
    while (done < iterations) {
        const double t0 = gcut_i_seg_now_ms();
        const int ok = relearn(s);
        model_ms += gcut_i_seg_now_ms() - t0;
        if (!ok)
            break;
        if (!isfinite(prev))
            prev = energy(s);
        int64_t changed = 0;
        if ((st = cut(s, &build_ms, &solve_ms, &changed)) != GCUT_OK)
            return st;
        done++;
        const double now = energy(s);
        /* Each step lowers E; stop once a whole iteration no longer does. */
        if (changed == 0 || now > prev - 1e-4 * fabs(prev))
            break;
        prev = now;
    }
    write_mask(s, mask);
    fill_stats(s, stats, model_ms, build_ms, solve_ms, done);
    return GCUT_OK;
}

/* After seeds[p] changed: rewrite its t-links when the grid holds p, or
 * have the next solve rebuild when p lies outside the box (its fixed
 * label is folded into its neighbours' t-links there). */
static void set_tlink(gcut_seg_session *s, int64_t p)
{
    if (!s->grid_ready || s->terms_dirty)
        return;
    const int32_t x = (int32_t)(p % s->width), y = (int32_t)(p / s->width);
    const gcut_i_box b = s->box;
    if (x < b.x0 || x >= b.x0 + b.w || y < b.y0 || y >= b.y0 + b.h) {
        s->terms_dirty = 1;
        s->grid_ready = 0;
        s->base_ready = 0; /* the folded terms of p's neighbours change */
        return;
    }
    int32_t src, snk;
    gcut_i_energy_tlinks(&s->e, s->scale, s->seeds, b, x, y, &src, &snk);
    const int32_t v = (y - b.y0) * b.w + (x - b.x0);
    if (gcut_grid_set_tweights(s->grid, v, src, snk) != GCUT_OK)
        s->grid_ready = 0; /* rebuilt from the seeds at the next solve */
}

gcut_status gcut_seg_session_add_stroke(gcut_seg_session *s, uint8_t label,
                                        const int32_t *pixels, int32_t count)
{
    if (!s || (!pixels && count > 0))
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    if (label != GCUT_SEED_UNKNOWN && label != GCUT_SEED_FG && label != GCUT_SEED_BG)
        return GCUT_FAIL(GCUT_ERR_INVALID, "label %u (0 unknown, 1 foreground, 2 background)",
                         (unsigned)label);
    if (count < 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "count %d < 0", (int)count);
    for (int32_t i = 0; i < count; i++)
        if (pixels[i] < 0 || pixels[i] >= s->n)
            return GCUT_FAIL(GCUT_ERR_INVALID, "stroke pixel %d: index %d outside 0..%lld",
                             (int)i, (int)pixels[i], (long long)(s->n - 1));
    for (int32_t i = 0; i < count; i++) {
        const int32_t p = pixels[i];
        if (s->seeds[p] == label)
            continue;
        s->seeds[p] = label;
        s->seed_box_ok = 0;
        s->dev.seeds_dirty = 1;
        set_tlink(s, p);
    }
    return GCUT_OK;
}

gcut_status gcut_seg_session_set_seeds(gcut_seg_session *s, const uint8_t *seeds)
{
    if (!s || !seeds)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    int64_t nfg, nbg;
    gcut_status st = check_seeds("gcut_seg_session_set_seeds", seeds, s->n, &nfg, &nbg);
    if (st != GCUT_OK)
        return st;
    /* Pixel by pixel: each setter call is recorded for the warm solve, and
     * a change outside the box turns the next solve into a rebuild. */
    for (int64_t p = 0; p < s->n; p++) {
        if (s->seeds[p] == seeds[p])
            continue;
        s->seeds[p] = seeds[p];
        s->seed_box_ok = 0;
        s->dev.seeds_dirty = 1;
        set_tlink(s, p);
    }
    return GCUT_OK;
}

const gcut_grid *gcut_seg_session_grid(const gcut_seg_session *s)
{
    return s ? s->grid : NULL;
}

const gcut_i_energy *gcut_i_seg_session_energy(const gcut_seg_session *s) { return &s->e; }

const gcut_i_gmm *gcut_i_seg_session_gmm(const gcut_seg_session *s, int fg)
{
    return &s->gmm[fg ? 1 : 0];
}

const uint8_t *gcut_i_seg_session_comp(const gcut_seg_session *s, int fg)
{
    return fg ? s->comp_fg : s->comp_bg;
}

int gcut_i_seg_session_on_device(const gcut_seg_session *s) { return s->dev.pl != NULL; }
