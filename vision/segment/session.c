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
 * What is current is kept in one set of named bits, `stale` (STALE_*
 * below: a set bit means "redo it before use").
 *
 * Invariants:
 *  - models[] and e.dfg / e.dbg always belong together: every change of a
 *    model recomputes every data cost and sets STALE_GRID;
 *  - without STALE_GRID, the grid holds e on `box` (energy.c: the box
 *    contains every unknown pixel, the rest is folded into t-links)
 *    quantised at `scale` with the current seeds: a stroke inside the box
 *    only rewrites the t-links of its pixels (gcut_grid_set_tweights,
 *    which the engine records for a warm solve); a stroke that changes a
 *    pixel outside the box sets STALE_TERMS, and the next solve rebuilds
 *    box, data costs and grid (cold);
 *  - data costs of both classes are known for every pixel of the box;
 *    outside it only the cost of the pixel's seed class is computed (the
 *    other is set equal), which is all the energy and the GMM need there;
 *  - the scale depends on the pair weights of the box only (energy.c
 *    clamps the t-links to them), so neither a stroke nor a new model
 *    can push a t-link past the budget; without STALE_LINKS, the grid's
 *    direction arrays hold the box's n-links at `scale`, and a rebuild
 *    for the same box (a GrabCut iteration) only rewrites the t-links,
 *    which the engine re-solves warm;
 *  - label[] is the labelling of the last cut (1 foreground), or before any
 *    cut the initial guess (the unknown pixels belong to the class that
 *    learnt from them);
 *  - every energy step goes through the evaluator `ev` (segment_internal.h,
 *    "evaluators"): the CPU's (seg_cpu.c), or the device's when the back
 *    end offers device energies (seg_device.c), which computes the same
 *    quantities there and copies them into the same host arrays, bit for
 *    bit the CPU's. Each keeps its own t-link bases (STALE_BASE: not
 *    those of the box, the scale and the seeds) and copy of the seeds
 *    (STALE_EVAL_SEEDS). A failing device step switches `ev` to the CPU
 *    for good (on_cpu_after) and the step is redone there;
 *  - the incremental model update (update_models below) keeps, for each
 *    GMM class, the moments of the pixels it counts (member[p], the class;
 *    mcomp[p], the component) so that a release moves only the pixels
 *    whose class changed: with comp_ok[c], mcomp holds the component of
 *    every member of class c; with mom_ok[c] (only for whole-number
 *    colours) mom[c] is exactly the integer moments of those pixels by
 *    component, and the model of class c is gcut_i_gmm_from_acc of them
 *    (or of the last full fit while !comp_ok[c]). A full fit clears both;
 *    the next update then takes each member's component from the last
 *    data pass (its most likely one under the current model);
 *  - the progress callback of params.solve (progress_internal.h) is called
 *    only between steps, where the stale bits describe the state exactly:
 *    a call it interrupts leaves a session that the next call continues
 *    (a GrabCut stopped after its model step keeps the new models, whose
 *    data costs are computed, and the labels of the last cut).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "progress_internal.h"
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
    uint32_t stale;        /* STALE_* bits */
    double smooth;         /* gcut_i_energy_smooth of label, unless STALE_SMOOTH */
    uint8_t *label_old;    /* n, lazily: label before a cut, for the energy's deltas */
    uint8_t *rows;         /* height, lazily: the rows where a cut changed a label */
    int32_t deltas;        /* energy updates by deltas since the last fresh sums */
    double data;           /* gcut_i_energy_data of label and the costs, unless STALE_DATA */
    gcut_i_box seed_box;   /* gcut_i_seed_box of seeds, unless STALE_SEED_BOX */
    double model_ms;       /* model time not yet reported in stats */
    gcut_i_seg_eval ev;    /* the energies: the CPU's or the device's */
    double call_t0;        /* gcut_grabcut's start, for its first grabcut's progress; 0: none */
    double xfer_reported;  /* device transfer ms already reported in stats */
    /* The incremental model update (gcut_seg_session_update_models); mom:
     * [1] foreground. */
    gcut_i_gmm_mom mom[2][GCUT_I_GMM_MAX_K];
    uint8_t *member;       /* n: the class p counts in (GCUT_SEED_FG / _BG, 0 none) */
    uint8_t *mcomp;        /* n: its component there */
    uint8_t *next;         /* n: scratch, the classes after the update under way */
    int comp_ok[2];        /* mcomp holds the components of the class's members */
    int mom_ok[2];         /* mom holds their moments (whole-number colours only) */
    int int_colours;       /* every colour channel is a whole number (8-bit images) */
    int from_labels;       /* the models were last learnt from the labels (GrabCut) */
};

/* What a session has to redo before it uses it. */
enum {
    STALE_SEED_BOX = 1u << 0,   /* seed_box (the seeds changed) */
    STALE_TERMS = 1u << 1,      /* box and data costs: a seed outside the box changed */
    STALE_GRID = 1u << 2,       /* the grid's arrays (energy, box, scale or seeds) */
    STALE_LINKS = 1u << 3,      /* the grid's n-links (those of links_box at scale) */
    STALE_BASE = 1u << 4,       /* the evaluator's t-link bases (box, scale, seeds) */
    STALE_SMOOTH = 1u << 5,     /* smooth (the labels changed) */
    STALE_DATA = 1u << 6,       /* data (the labels or the costs changed) */
    STALE_EVAL_SEEDS = 1u << 7, /* the evaluator's copy of the seeds (the device's) */
    STALE_LABELS = 1u << 8,     /* no cut yet: label is the initial guess */
    STALE_ALL = (1u << 9) - 1
};

/* Leave the device after a failed call: say so, forget the error, and
 * go on with the CPU evaluator (whose t-link bases are yet to be made). */
static void drop_device(gcut_seg_session *s, const char *what)
{
    gcut_i_log(&s->params.solve, GCUT_LOG_WARN,
               "segmentation: the device energies failed (%s: %s); going on on the CPU", what,
               gcut_last_error());
    gcut_clear_error();
    gcut_i_seg_eval_drop_device(&s->ev);
    s->stale |= STALE_BASE;
}

/* A step failed. On the device, unless its status is the caller's
 * (`callers`: the CPU would fail the same way), switch to the CPU and
 * return 1: redo the step there. Else 0: the status stands. */
static int on_cpu_after(gcut_seg_session *s, int callers, const char *what)
{
    if (!s->ev.ops->device || callers)
        return 0;
    drop_device(s, what);
    return 1;
}

/* The evaluator's copy of the seeds, current. */
static gcut_status sync_seeds(gcut_seg_session *s)
{
    if (!(s->stale & STALE_EVAL_SEEDS))
        return GCUT_OK;
    gcut_status st = s->ev.ops->seeds(&s->ev, s->seeds);
    if (st == GCUT_OK)
        s->stale &= ~(uint32_t)STALE_EVAL_SEEDS;
    return st;
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
    if (s->stale & STALE_SEED_BOX) {
        s->seed_box = gcut_i_seed_box(s->seeds, s->width, s->height);
        s->stale &= ~(uint32_t)STALE_SEED_BOX;
    }
    const gcut_i_box b = s->seed_box;
    const int gmm = s->params.model == GCUT_SEG_GMM;
    const gcut_i_gmm *g[2] = {&s->gmm[0], &s->gmm[1]};
    const gcut_i_hist *h[2] = {&s->hist[0], &s->hist[1]};
    const gcut_i_seg_models m = {gmm ? g : NULL, gmm ? NULL : h};
    gcut_status st;
    /* The CPU's cannot fail. */
    while ((st = sync_seeds(s)) != GCUT_OK ||
           (st = s->ev.ops->data(&s->ev, &m, b, s->seeds, &s->e, s->comp_fg, s->comp_bg)) !=
               GCUT_OK)
        if (!on_cpu_after(s, 0, "data costs"))
            break;
    s->box = b;
    s->stale = (s->stale | STALE_GRID | STALE_DATA) & ~(uint32_t)STALE_TERMS;
}

/* data_terms for the classes in `classes` (2 foreground, 1 background)
 * only, when the other's model did not change: on the CPU, and while the
 * box and the seeds outside it are those of the last data pass (no
 * STALE_TERMS: set_tlink marks every seed change outside the box), the
 * other class's costs are already what data_terms would write. Else all
 * of them (the device always computes both, with the same values). */
static void data_terms_classes(gcut_seg_session *s, int classes)
{
    if (s->stale & STALE_SEED_BOX) {
        s->seed_box = gcut_i_seed_box(s->seeds, s->width, s->height);
        s->stale &= ~(uint32_t)STALE_SEED_BOX;
    }
    if (classes == 3 || s->ev.ops->device || s->params.model != GCUT_SEG_GMM ||
        (s->stale & STALE_TERMS) || memcmp(&s->seed_box, &s->box, sizeof s->box) != 0) {
        data_terms(s);
        return;
    }
    const gcut_i_gmm *g[2] = {&s->gmm[0], &s->gmm[1]};
    const gcut_i_seg_models m = {g, NULL};
    gcut_i_seg_cpu_data(&s->ev, &m, s->box, s->seeds, &s->e, s->comp_fg, s->comp_bg, classes);
    s->stale |= STALE_GRID | STALE_DATA;
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
    const int gmm = s->params.model == GCUT_SEG_GMM;
    gcut_status st = GCUT_OK;
    while (gmm && (st = s->ev.ops->select(&s->ev, sel)) != GCUT_OK)
        if (!on_cpu_after(s, 0, "class selection"))
            return st;
    for (int c = 1; c >= 0; c--) {
        const uint8_t want = c ? 1 : 2;
        if (gmm) {
            /* A class without pixels fails the same way on both; any other
             * failure is the device's. */
            while ((st = s->ev.ops->gmm_fit(&s->ev, &s->gmm[c], s->params.components, sel, want,
                                            c, 2)) != GCUT_OK &&
                   on_cpu_after(s, st == GCUT_ERR_INVALID, "GMM fit"))
                ;
        } else {
            st = gcut_i_hist_fit(&s->hist[c], s->params.bins, s->rgb, s->n, sel, want);
        }
        if (st != GCUT_OK) {
            char why[256];
            snprintf(why, sizeof why, "%s", gcut_last_error());
            return gcut_i_fail(st, func, "%s %s model: %s", c ? "foreground" : "background",
                               s->params.model == GCUT_SEG_GMM ? "GMM" : "histogram", why);
        }
    }
    /* The incremental update starts from the pixels these models learnt from. */
    memcpy(s->member, sel, (size_t)s->n);
    s->from_labels = 0;
    s->comp_ok[0] = s->comp_ok[1] = s->mom_ok[0] = s->mom_ok[1] = 0;
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
    gcut_i_seg_eval_free(&s->ev);
    gcut_grid_free(s->grid);
    gcut_result_free(s->res);
    gcut_i_energy_free(&s->e);
    gcut_i_hist_free(&s->hist[0]);
    gcut_i_hist_free(&s->hist[1]);
    gcut_i_free(s->rgb);
    gcut_i_free(s->seeds);
    gcut_i_free(s->label);
    gcut_i_free(s->label_old);
    gcut_i_free(s->rows);
    gcut_i_free(s->comp_fg);
    gcut_i_free(s->comp_bg);
    gcut_i_free(s->tmp);
    gcut_i_free(s->member);
    gcut_i_free(s->mcomp);
    gcut_i_free(s->next);
    gcut_i_free(s->solve_params);
    gcut_i_free(s);
}

gcut_status gcut_seg_session_new(gcut_seg_session **out, const gcut_image *image,
                                 const uint8_t *seeds, const gcut_seg_options *params)
{
    GCUT_ENTRY();
    return gcut_i_seg_session_create(out, image, seeds, params, "segment");
}

gcut_status gcut_i_seg_session_create(gcut_seg_session **out, const gcut_image *image,
                                      const uint8_t *seeds, const gcut_seg_options *params,
                                      const char *operation)
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
    gcut_i_vprog pr;
    gcut_i_vprog_init(&pr, &p.solve, operation);
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
    /* 8-bit samples are whole numbers as they are (gcut_i_seg_rgb); only
     * scaled 16-bit ones need looking at. */
    s->int_colours = 1;
    for (int64_t i = 0; image->depth != 8 && i < 3 * n && s->int_colours; i++)
        s->int_colours = rgb[i] == (float)(int32_t)rgb[i];
    s->stale = STALE_ALL & ~(uint32_t)STALE_TERMS;
    gcut_i_seg_eval_init(&s->ev, s->width, s->height, rgb);
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
    s->member = gcut_i_calloc((size_t)n, 1);
    s->mcomp = gcut_i_calloc((size_t)n, 1);
    s->next = gcut_i_malloc_array(n, 1);
    s->e.dfg = gcut_i_malloc_array(n, sizeof(float));
    s->e.dbg = gcut_i_malloc_array(n, sizeof(float));
    if (!s->seeds || !s->label || !s->comp_fg || !s->comp_bg || !s->tmp || !s->member ||
        !s->mcomp || !s->next || !s->e.dfg || !s->e.dbg) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (%lld pixels)", (long long)n);
        goto fail;
    }
    memcpy(s->seeds, seeds, (size_t)n);
    s->e.width = s->width;
    s->e.height = s->height;
    s->e.n = n;
    s->e.connectivity = p.connectivity;
    s->e.lambda = p.lambda;
    /* The device's energies when the back end offers them (a failure to
     * open them is not the caller's: say so and stay on the CPU). */
    if (p.device_energies &&
        (st = gcut_i_seg_eval_open_device(&s->ev, &s->params.solve, p.connectivity)) != GCUT_OK &&
        st != GCUT_ERR_UNSUPPORTED)
        drop_device(s, "opening");
    /* Phases of the model learning, each announced before it runs. */
    if ((st = gcut_i_vprog_report(&pr, "smoothness", 0, 0, -1.0, 1)) != GCUT_OK)
        goto fail;
    while ((st = s->ev.ops->smoothness(&s->ev, &s->e)) != GCUT_OK)
        if (!on_cpu_after(s, 0, "smoothness"))
            goto fail;
    if ((st = gcut_i_vprog_report(&pr, "model", 0, 0, -1.0, 1)) != GCUT_OK)
        goto fail;
    if ((st = initial_models(s, nfg, nbg)) != GCUT_OK)
        goto fail;
    if ((st = gcut_i_vprog_report(&pr, "data", 0, 0, -1.0, 1)) != GCUT_OK)
        goto fail;
    data_terms(s);
    s->model_ms = gcut_i_seg_now_ms() - t0;
    /* gcut_grabcut's progress counts its time from its start. */
    if (!strcmp(operation, "grabcut"))
        s->call_t0 = pr.t0;
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
    const gcut_i_seg_eval_ops *ops;
    if (b.w == 0) {
        s->stale &= ~(uint32_t)STALE_GRID; /* nothing to cut: every pixel is a seed */
        return GCUT_OK;
    }
    if (!s->res && (st = gcut_result_new(&s->res)) != GCUT_OK)
        return st;
    if (!(s->stale & STALE_LINKS) && memcmp(&s->links_box, &b, sizeof b) != 0)
        s->stale |= STALE_LINKS;
    if (s->grid && (gcut_grid_width(s->grid) != b.w || gcut_grid_height(s->grid) != b.h)) {
        gcut_grid_free(s->grid);
        s->grid = NULL;
        s->stale |= STALE_LINKS;
    }
    if (!s->grid) {
        if ((st = gcut_grid_new(&s->grid, b.w, b.h, 1, s->params.connectivity)) != GCUT_OK)
            return st;
        gcut_i_grid_set_hint(s->grid, 1, 1); /* as gcut_i_seg_eval_open_device asked */
    }
    /* GCUT_ERR_NOMEM and GCUT_ERR_INVALID are the grid's, not the device's. */
    if (s->stale & STALE_LINKS) {
        while ((st = (ops = s->ev.ops)->scale(&s->ev, &s->e, b, &s->scale)) != GCUT_OK ||
               (st = ops->links(&s->ev, &s->e, s->scale, b, s->grid, s->tmp)) != GCUT_OK)
            if (!on_cpu_after(s, st == GCUT_ERR_NOMEM || st == GCUT_ERR_INVALID, "n-links"))
                return st;
        s->links_box = b;
        s->stale = (s->stale | STALE_BASE) & ~(uint32_t)STALE_LINKS;
    }
    while ((st = sync_seeds(s)) != GCUT_OK ||
           (st = s->ev.ops->terminals(&s->ev, &s->e, s->scale, s->seeds, b,
                                      (s->stale & STALE_BASE) != 0, s->grid, s->tmp)) != GCUT_OK)
        if (!on_cpu_after(s, st == GCUT_ERR_NOMEM || st == GCUT_ERR_INVALID, "t-links"))
            return st;
    s->stale &= ~(uint32_t)(STALE_BASE | STALE_GRID);
    return GCUT_OK;
}

/* E of the current labelling under the current models; the pair part is
 * kept while the labels stay (it does not depend on the models), the data
 * part while the labels and the costs stay. */
static double energy(gcut_seg_session *s)
{
    if (s->stale & STALE_SMOOTH) {
        s->smooth = gcut_i_energy_smooth(&s->e, s->label);
        s->stale &= ~(uint32_t)STALE_SMOOTH;
        s->deltas = 0;
    }
    if (s->stale & STALE_DATA) {
        s->data = gcut_i_energy_data(&s->e, s->label);
        s->stale &= ~(uint32_t)STALE_DATA;
        s->deltas = 0;
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
    if (s->ev.ops->device) {
        const double xfer = s->ev.ops->transfer_ms(&s->ev);
        stats->energy_device = 1;
        stats->transfer_ms = xfer - s->xfer_reported;
        s->xfer_reported = xfer;
    }
    if (s->res && !(s->stale & STALE_LABELS) && s->box.w > 0) {
        stats->flow = gcut_result_flow(s->res);
        stats->warm_start = gcut_result_stats(s->res)->warm_start;
        stats->backend = gcut_result_backend(s->res);
    }
}

/* lab[0 .. n-1] := 1 where src[i] == want, else 0; returns how many
 * changed. From a cut (want GCUT_SOURCE: the foreground side) or from the
 * seeds (want GCUT_SEED_FG: outside the box, foreground seeds alone). */
static int64_t labels_where(uint8_t *restrict lab, const uint8_t *restrict src, int32_t n,
                            uint8_t want)
{
    int64_t ch = 0;
    for (int32_t i = 0; i < n; i++) {
        const uint8_t l = src[i] == want;
        ch += l != lab[i];
        lab[i] = l;
    }
    return ch;
}

/* Energy updates by deltas between two fresh sums: bounds the rounding
 * drift (each delta is exact to a few ulps of the energy). */
enum { kMaxDeltas = 64 };

/* The buffers of the energy's deltas, allocated on first use; 0 when
 * there is no memory for them (fresh sums then, as before). */
static int delta_buffers(gcut_seg_session *s)
{
    if (!s->label_old)
        s->label_old = gcut_i_malloc_array(s->n, 1);
    if (!s->rows)
        s->rows = gcut_i_malloc_array(s->height, 1);
    if (s->label_old && s->rows)
        return 1;
    gcut_clear_error();
    return 0;
}

/* Build if needed, solve, read the labelling; *changed counts label flips. */
static gcut_status cut(gcut_seg_session *s, gcut_i_vprog *pr, int64_t step, int64_t steps,
                       double *build_ms, double *solve_ms, int64_t *changed)
{
    gcut_status st;
    double t0 = gcut_i_seg_now_ms();
    if ((s->stale & (STALE_TERMS | STALE_GRID)) &&
        (st = gcut_i_vprog_report(pr, "build", step, steps, -1.0, 1)) != GCUT_OK)
        return st;
    if (s->stale & STALE_TERMS)
        data_terms(s);
    if ((s->stale & STALE_GRID) && (st = build_grid(s)) != GCUT_OK)
        return st;
    double t1 = gcut_i_seg_now_ms();
    const gcut_i_box b = s->box;
    const uint8_t *c = NULL;
    if (b.w > 0 && (st = gcut_i_vprog_report(pr, "solve", step, steps, -1.0, 1)) != GCUT_OK)
        return st;
    if (b.w > 0) {
        if ((st = gcut_grid_solve(s->grid, &s->params.solve, s->res)) != GCUT_OK)
            return st;
        c = gcut_result_cut(s->res);
    }
    /* The labels: the cut inside the box, the seeds outside it; row by
     * row in runs the compiler vectorises (a stroke's re-solve reads them
     * all, and a scalar loop with the box test per pixel cost more than
     * the warm max-flow itself). */
    /* With both parts of the energy current, a small change of labels
     * updates them by deltas over the rows it touched (the old labels kept
     * for it); a large one, every kMaxDeltas-th, or no memory for the copy:
     * fresh sums at the next energy(). */
    const int by_deltas = !(s->stale & (STALE_SMOOTH | STALE_DATA | STALE_LABELS)) &&
                          s->deltas < kMaxDeltas && delta_buffers(s);
    if (by_deltas)
        memcpy(s->label_old, s->label, (size_t)s->n);
    int64_t ch = 0;
    for (int32_t y = 0; y < s->height; y++) {
        uint8_t *lab = s->label + (int64_t)y * s->width;
        const uint8_t *sd = s->seeds + (int64_t)y * s->width;
        const int in_box = c && y >= b.y0 && y < b.y0 + b.h;
        const int32_t x0 = in_box ? b.x0 : s->width, x1 = in_box ? b.x0 + b.w : s->width;
        int64_t row = labels_where(lab, sd, x0, GCUT_SEED_FG);
        if (in_box)
            row += labels_where(lab + x0, c + (int64_t)(y - b.y0) * b.w, b.w, GCUT_SOURCE);
        row += labels_where(lab + x1, sd + x1, s->width - x1, GCUT_SEED_FG);
        if (by_deltas)
            s->rows[y] = row != 0;
        ch += row;
    }
    if (ch && by_deltas && ch <= s->n / 8) {
        s->data += gcut_i_energy_data_delta(&s->e, s->label_old, s->label, s->rows);
        s->smooth += gcut_i_energy_smooth_delta(&s->e, s->label_old, s->label, s->rows);
        s->deltas++;
    } else if (ch) {
        s->stale |= STALE_SMOOTH | STALE_DATA;
    }
    s->stale &= ~(uint32_t)STALE_LABELS;
    double t2 = gcut_i_seg_now_ms();
    *build_ms += t1 - t0;
    *solve_ms += t2 - t1;
    if (changed)
        *changed = ch;
    return GCUT_OK;
}

static void write_mask(const gcut_seg_session *s, uint8_t *restrict mask)
{
    if (!mask)
        return;
    const uint8_t *restrict label = s->label;
    for (int64_t p = 0; p < s->n; p++)
        mask[p] = label[p] ? GCUT_MASK_FG : GCUT_MASK_BG;
}

gcut_status gcut_seg_session_solve(gcut_seg_session *s, uint8_t *mask, gcut_seg_stats *stats)
{
    GCUT_ENTRY();
    if (!s)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL session");
    double build_ms = 0.0, solve_ms = 0.0;
    gcut_i_vprog pr;
    gcut_i_vprog_init(&pr, &s->params.solve, "segment");
    gcut_status st = cut(s, &pr, 0, 0, &build_ms, &solve_ms, NULL);
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
    if (s->params.model == GCUT_SEG_GMM) {
        /* GrabCut's steps 1 and 2. The host has the components of the last
         * data pass too: a failed device redoes both on the CPU (a model
         * learnt there already equals the CPU's). */
        gcut_status st;
        while ((st = s->ev.ops->gmm_learn(&s->ev, s->gmm, s->params.components, s->label,
                                          s->comp_bg, s->comp_fg)) != GCUT_OK)
            if (!on_cpu_after(s, 0, "GMM learning"))
                return 0;
    } else {
        if (gcut_i_hist_fit(&s->hist[1], s->params.bins, s->rgb, s->n, s->label, 1) != GCUT_OK ||
            gcut_i_hist_fit(&s->hist[0], s->params.bins, s->rgb, s->n, s->label, 0) != GCUT_OK)
            return 0;
    }
    for (int64_t p = 0; p < s->n; p++)
        s->member[p] = s->label[p] ? GCUT_SEED_FG : GCUT_SEED_BG;
    s->from_labels = 1;
    s->comp_ok[0] = s->comp_ok[1] = s->mom_ok[0] = s->mom_ok[1] = 0;
    data_terms(s);
    return 1;
}

gcut_status gcut_seg_session_grabcut(gcut_seg_session *s, int32_t iterations, uint8_t *mask,
                                     gcut_seg_stats *stats)
{
    GCUT_ENTRY();
    if (!s)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL session");
    if (iterations < 1 || iterations > 1000)
        return GCUT_FAIL(GCUT_ERR_INVALID, "iterations %d outside 1..1000", (int)iterations);
    double model_ms = s->model_ms, build_ms = 0.0, solve_ms = 0.0;
    s->model_ms = 0.0;
    gcut_status st;
    int32_t done = 0;
    double prev = INFINITY;
    /* Progress: "model" before each re-learning, "build" and "solve" in
     * each cut, and "iteration" once an iteration is done (step = the
     * iterations done, of at most `iterations`). */
    gcut_i_vprog pr;
    gcut_i_vprog_init(&pr, &s->params.solve, "grabcut");
    if (s->call_t0 > 0)
        pr.t0 = s->call_t0;
    s->call_t0 = 0;
    if (s->stale & STALE_LABELS) {
        /* Iteration 1 cuts with the models learnt from the seeds. */
        if ((st = cut(s, &pr, 1, iterations, &build_ms, &solve_ms, NULL)) != GCUT_OK)
            return st;
        done = 1;
        prev = energy(s);
        if ((st = gcut_i_vprog_report(&pr, "iteration", done, iterations, (double)done / iterations,
                                      1)) != GCUT_OK)
            return st;
    }
    while (done < iterations) {
        if ((st = gcut_i_vprog_report(&pr, "model", done + 1, iterations, (double)done / iterations,
                                      1)) != GCUT_OK)
            return st;
        const double t0 = gcut_i_seg_now_ms();
        const int ok = relearn(s);
        model_ms += gcut_i_seg_now_ms() - t0;
        if (!ok)
            break;
        if (!isfinite(prev))
            prev = energy(s);
        int64_t changed = 0;
        if ((st = cut(s, &pr, done + 1, iterations, &build_ms, &solve_ms, &changed)) != GCUT_OK)
            return st;
        done++;
        if ((st = gcut_i_vprog_report(&pr, "iteration", done, iterations, (double)done / iterations,
                                      1)) != GCUT_OK)
            return st;
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

/* ------------------------------------------------------------ incremental update */

/* A class whose members change by more than this fraction (moved in plus
 * moved out, of the members it had) is fitted afresh instead, as a new
 * session would: its old components describe another set of colours
 * (e.g. the background learnt from every unknown pixel until the first
 * background seed). */
#define UPDATE_REFIT_FRACTION 0.5

/* The classes the models learn from now, into next[] (GCUT_SEED_FG /
 * _BG, 0 none), by the rule of the last full fit: from the labels after
 * GrabCut (a seed's class wins over its label: the cut to come gives it
 * that label), else from the seeds, the unknown pixels counting in the
 * class that has no seed, as in gcut_seg_session_new. GCUT_ERR_INVALID
 * when the seeds rule finds no seed. */
static gcut_status next_classes(gcut_seg_session *s)
{
    const uint8_t *sd = s->seeds;
    uint8_t *nx = s->next;
    const int64_t n = s->n;
    if (s->from_labels) {
        for (int64_t p = 0; p < n; p++)
            nx[p] =
                sd[p] != GCUT_SEED_UNKNOWN ? sd[p] : (s->label[p] ? GCUT_SEED_FG : GCUT_SEED_BG);
        return GCUT_OK;
    }
    int64_t nfg = 0, nbg = 0;
    for (int64_t p = 0; p < n; p++) {
        nfg += sd[p] == GCUT_SEED_FG;
        nbg += sd[p] == GCUT_SEED_BG;
    }
    if (nfg == 0 && nbg == 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "no seeds left to learn the colour models from");
    const uint8_t unknown_to = nfg == 0 ? GCUT_SEED_FG : nbg == 0 ? GCUT_SEED_BG : 0;
    for (int64_t p = 0; p < n; p++)
        nx[p] = sd[p] != GCUT_SEED_UNKNOWN ? sd[p] : unknown_to;
    return GCUT_OK;
}

/* Class index (1 foreground, 0 background) of a seed-coded class. */
static inline int cls(uint8_t code) { return code == GCUT_SEED_FG; }

/* Whether the 8 bytes at a and b are equal. */
static inline int same8(const uint8_t *a, const uint8_t *b)
{
    uint64_t u, v;
    memcpy(&u, a, 8);
    memcpy(&v, b, 8);
    return u == v;
}

/* Whether the 8 bytes at a are 0. */
static inline int zero8(const uint8_t *a)
{
    uint64_t u;
    memcpy(&u, a, 8);
    return u == 0;
}

/* n[1], n[0]: how many of the classes in m[0 .. count-1] are foreground,
 * background (GCUT_SEED_FG / _BG; 0 none). */
static void count_classes(const uint8_t *restrict m, int64_t count, int64_t n[2])
{
    int64_t f = 0, b = 0;
    for (int64_t p = 0; p < count; p++) {
        f += m[p] == GCUT_SEED_FG;
        b += m[p] == GCUT_SEED_BG;
    }
    n[1] = f;
    n[0] = b;
}

/* The most likely component of class c's current model for the `count`
 * pixels listed, into mcomp (and their colours into the kept moments). */
static void assign_listed(gcut_seg_session *s, int c, const int32_t *list, int64_t count)
{
    enum { B = 256 };
    float x[3 * B], nll[B];
    uint8_t best[B];
    for (int64_t i0 = 0; i0 < count; i0 += B) {
        const int64_t m = count - i0 < B ? count - i0 : B;
        for (int64_t i = 0; i < m; i++)
            memcpy(x + 3 * i, s->rgb + 3 * (int64_t)list[i0 + i], 3 * sizeof(float));
        gcut_i_gmm_nll_run(&s->gmm[c], x, m, nll, best);
        for (int64_t i = 0; i < m; i++) {
            const int64_t p = list[i0 + i];
            s->mcomp[p] = best[i];
            if (s->mom_ok[c])
                gcut_i_gmm_mom_add(&s->mom[c][best[i]], x + 3 * i, 1);
        }
    }
}

/* The GMM update: move the pixels whose class changed between the kept
 * moments, re-fit a class that changed too much, and rebuild the models
 * that changed. *changed: the classes whose model changed (2 foreground,
 * 1 background). */
static gcut_status update_gmms(gcut_seg_session *s, int *changed, int64_t moved[2])
{
    const int64_t n = s->n;
    const int32_t k = s->params.components;
    const uint8_t *nx = s->next;
    int64_t before[2], in[2] = {0, 0}, out[2] = {0, 0}, after[2];
    /* The class sizes in a loop the compiler vectorises, the moves from
     * the pixels whose class changed only (a release changes a stroke's
     * worth of them: most 8-byte words of member and next are equal). */
    count_classes(s->member, n, before);
    for (int64_t p0 = 0; p0 < n; p0 += 8) {
        const int64_t p1 = n - p0 < 8 ? n : p0 + 8;
        if (p1 - p0 == 8 && same8(s->member + p0, nx + p0))
            continue;
        for (int64_t p = p0; p < p1; p++) {
            const uint8_t o = s->member[p], w = nx[p];
            if (o == w)
                continue;
            if (o)
                out[cls(o)]++;
            if (w)
                in[cls(w)]++;
        }
    }
    for (int c = 0; c < 2; c++)
        after[c] = before[c] - out[c] + in[c];
    int refit[2], init[2];
    for (int c = 0; c < 2; c++) {
        moved[c] = in[c] + out[c];
        refit[c] = after[c] > 0 &&
                   (before[c] == 0 || (double)moved[c] > UPDATE_REFIT_FRACTION * before[c]);
        /* A class that did not change keeps its model, even when its
         * moments are yet to be summed (they are, at its first change). */
        init[c] = !refit[c] && !s->comp_ok[c] && moved[c] > 0;
        if (init[c] && (s->stale & STALE_TERMS))
            data_terms(s); /* the components of the new box's pixels */
    }
    /* Whole-number colours: the moments are kept and moved exactly. */
    for (int c = 0; c < 2; c++) {
        if (s->int_colours && init[c]) {
            memset(s->mom[c], 0, sizeof s->mom[c]);
            s->mom_ok[c] = 1;
        }
        if (!s->int_colours || refit[c])
            s->mom_ok[c] = 0;
    }
    /* One pass: out of the old class, into the new one; pixels new to a
     * kept class are listed (tmp: foreground from the start, background
     * from n) for their most likely component. */
    int32_t *list[2] = {s->tmp + n, s->tmp};
    int64_t nlist[2] = {0, 0};
    const uint8_t *comp[2] = {s->comp_bg, s->comp_fg};
    /* A pixel in no class before and after does nothing below, and
     * without a class to initialise neither does any pixel whose class
     * stays (it is neither moved nor listed, and member[p] is already w):
     * such words are skipped. With the seeds rule most pixels are in no
     * class, so even a class's initialisation visits few words. */
    const int skip = !init[0] && !init[1];
    for (int64_t p0 = 0; p0 < n; p0 += 8) {
        const int64_t p1 = n - p0 < 8 ? n : p0 + 8;
        if (p1 - p0 == 8 && same8(s->member + p0, nx + p0) && (skip || zero8(nx + p0)))
            continue;
        for (int64_t p = p0; p < p1; p++) {
            const uint8_t o = s->member[p], w = nx[p];
            const float *x = s->rgb + 3 * p;
            if (o && o != w && s->mom_ok[cls(o)] && !init[cls(o)])
                gcut_i_gmm_mom_add(&s->mom[cls(o)][s->mcomp[p]], x, -1);
            if (w) {
                const int c = cls(w);
                if (init[c]) {
                    const uint8_t q = comp[c][p] < k ? comp[c][p] : 0;
                    s->mcomp[p] = q;
                    if (s->mom_ok[c])
                        gcut_i_gmm_mom_add(&s->mom[c][q], x, 1);
                } else if (!refit[c] && o != w) {
                    list[c][nlist[c]++] = (int32_t)p;
                }
            }
            s->member[p] = w;
        }
    }
    for (int c = 0; c < 2; c++)
        assign_listed(s, c, list[c], nlist[c]);
    *changed = 0;
    for (int c = 1; c >= 0; c--) {
        if (after[c] == 0) {
            s->comp_ok[c] = s->mom_ok[c] = 0; /* nothing to learn from: the model stays */
            continue;
        }
        if (refit[c]) {
            gcut_status st;
            while ((st = s->ev.ops->select(&s->ev, nx)) != GCUT_OK ||
                   (st = s->ev.ops->gmm_fit(&s->ev, &s->gmm[c], k, nx,
                                            c ? GCUT_SEED_FG : GCUT_SEED_BG, c, 2)) != GCUT_OK)
                if (!on_cpu_after(s, 0, "GMM fit"))
                    return st;
            s->comp_ok[c] = 0;
            *changed |= c ? 2 : 1;
            continue;
        }
        if (!init[c] && moved[c] == 0)
            continue;
        s->comp_ok[c] = 1;
        gcut_i_gmm_acc acc[GCUT_I_GMM_MAX_K];
        if (s->mom_ok[c])
            for (int32_t j = 0; j < k; j++)
                gcut_i_gmm_mom_to_acc(&s->mom[c][j], &acc[j]);
        else /* fractional colours: summed afresh, in index order */
            gcut_i_gmm_sum(acc, k, s->rgb, n, nx, c ? GCUT_SEED_FG : GCUT_SEED_BG, s->mcomp);
        gcut_i_gmm_from_acc(&s->gmm[c], k, acc);
        *changed |= c ? 2 : 1;
    }
    return GCUT_OK;
}

gcut_status gcut_seg_session_update_models(gcut_seg_session *s, uint8_t *mask,
                                           gcut_seg_stats *stats)
{
    GCUT_ENTRY();
    if (!s)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL session");
    gcut_i_vprog pr;
    gcut_i_vprog_init(&pr, &s->params.solve, "segment");
    gcut_status st = gcut_i_vprog_report(&pr, "model", 0, 0, -1.0, 1);
    if (st != GCUT_OK)
        return st;
    const double t0 = gcut_i_seg_now_ms();
    if ((st = next_classes(s)) != GCUT_OK)
        return st;
    int changed = 0;
    int64_t moved[2] = {0, 0};
    if (s->params.model == GCUT_SEG_GMM) {
        if ((st = update_gmms(s, &changed, moved)) != GCUT_OK)
            return st;
    } else {
        /* Histograms are counts over the class: re-counted, O(n). */
        for (int c = 1; c >= 0; c--) {
            const uint8_t want = c ? GCUT_SEED_FG : GCUT_SEED_BG;
            int64_t cnt = 0;
            for (int64_t p = 0; p < s->n; p++)
                cnt += s->next[p] == want;
            if (cnt && (st = gcut_i_hist_fit(&s->hist[c], s->params.bins, s->rgb, s->n, s->next,
                                             want)) != GCUT_OK)
                return st;
            changed |= cnt > 0 ? 3 : 0;
        }
        memcpy(s->member, s->next, (size_t)s->n);
    }
    const double t1 = gcut_i_seg_now_ms();
    if (changed)
        data_terms_classes(s, changed);
    const double t2 = gcut_i_seg_now_ms();
    gcut_i_log(&s->params.solve, GCUT_LOG_DEBUG,
               "segmentation: model update: %lld foreground and %lld background pixels moved, "
               "models %.2f ms, data costs %.2f ms",
               (long long)moved[1], (long long)moved[0], t1 - t0, t2 - t1);
    double build_ms = 0.0, solve_ms = 0.0;
    const double model_ms = s->model_ms + (t2 - t0);
    s->model_ms = model_ms;
    if ((st = cut(s, &pr, 0, 0, &build_ms, &solve_ms, NULL)) != GCUT_OK)
        return st;
    s->model_ms = 0.0;
    write_mask(s, mask);
    fill_stats(s, stats, model_ms, build_ms, solve_ms, 1);
    return GCUT_OK;
}

/* After seeds[p] changed: rewrite its t-links when the grid holds p, or
 * have the next solve rebuild when p lies outside the box (its fixed
 * label is folded into its neighbours' t-links there). */
static void set_tlink(gcut_seg_session *s, int64_t p)
{
    if (s->stale & STALE_TERMS)
        return;
    const int32_t x = (int32_t)(p % s->width), y = (int32_t)(p / s->width);
    const gcut_i_box b = s->box;
    if (x < b.x0 || x >= b.x0 + b.w || y < b.y0 || y >= b.y0 + b.h) {
        /* The folded terms of p's neighbours change, and the box may: also
         * while the grid is to be rebuilt anyway (STALE_GRID), which
         * would otherwise keep the old box and t-link bases. */
        s->stale |= STALE_TERMS | STALE_GRID | STALE_BASE;
        return;
    }
    if (s->stale & STALE_GRID)
        return;
    int32_t src, snk;
    gcut_i_energy_tlinks(&s->e, s->scale, s->seeds, b, x, y, &src, &snk);
    const int32_t v = (y - b.y0) * b.w + (x - b.x0);
    if (gcut_grid_set_terminal_cap(s->grid, v, src, snk) != GCUT_OK)
        s->stale |= STALE_GRID; /* rebuilt from the seeds at the next solve */
}

gcut_status gcut_seg_session_add_stroke(gcut_seg_session *s, uint8_t label,
                                        const int32_t *pixels, int32_t count)
{
    GCUT_ENTRY();
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
        s->stale |= STALE_SEED_BOX | STALE_EVAL_SEEDS;
        set_tlink(s, p);
    }
    return GCUT_OK;
}

gcut_status gcut_seg_session_set_seeds(gcut_seg_session *s, const uint8_t *seeds)
{
    GCUT_ENTRY();
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
        s->stale |= STALE_SEED_BOX | STALE_EVAL_SEEDS;
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

int gcut_i_seg_session_on_device(const gcut_seg_session *s) { return s->ev.ops->device; }

const gcut_i_gmm_mom *gcut_i_seg_session_moments(const gcut_seg_session *s, int fg)
{
    const int c = fg ? 1 : 0;
    return s->mom_ok[c] ? s->mom[c] : NULL;
}

const uint8_t *gcut_i_seg_session_members(const gcut_seg_session *s) { return s->member; }

const uint8_t *gcut_i_seg_session_member_comp(const gcut_seg_session *s) { return s->mcomp; }
