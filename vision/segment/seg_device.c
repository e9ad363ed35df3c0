/*
 * seg_device.c - the segmentation energy evaluated on a back end's device
 * (gcut_seg_plugin, vision_plugin.h): gcut_i_seg_eval_device, the device
 * implementation of the session's evaluator (segment_internal.h,
 * "evaluators"; seg_cpu.c is the CPU's).
 *
 * A session whose back end offers device energies (cuda-grid) hands the
 * pixel loops of energy.c, gmm.c and seg_cpu.c to the plugin: beta and the
 * pair weights, the GMM passes of the initial fit and of each GrabCut
 * learning step, the data costs, the scale, the n-links and t-links of the
 * grid. The decisions between the passes (which cluster to split, the
 * models from the moments, the box) stay on the host, in the same code as
 * the CPU's (gcut_i_gmm_fit_passes, gcut_i_gmm_from_acc), and every
 * result comes back to the session's host arrays, so that everything else
 * (strokes, the energy of a labelling, the grid) works unchanged.
 *
 * The plugin evaluates the formulas of segment_math_internal.h in the same
 * order as the CPU, so the values are the CPU's bit for bit (the moments of
 * 16-bit images excepted: see gcut_seg_pass). One thing is redone here:
 * the foreground cost of a foreground seed outside the box, which the CPU
 * takes from gcut_i_gmm_nll (libm's expf and logf, not the polynomials);
 * the device's polynomial value there is replaced, so that the energies
 * agree too. Those pixels are never in the grid.
 */
#include <string.h>

#include "segment/segment_internal.h"
#include "vision_plugin.h"

_Static_assert(sizeof(gcut_i_gmm_acc) == GCUT_SEG_MOMENTS * sizeof(double),
               "gcut_i_gmm_acc is the moments of vision_plugin.h");
_Static_assert(GCUT_I_GMM_MAX_K == GCUT_SEG_PLUGIN_MAX_K, "GMM component limits agree");
_Static_assert(GCUT_SEG_DEV_GMM == (int)GCUT_SEG_GMM &&
                   GCUT_SEG_DEV_HISTOGRAM == (int)GCUT_SEG_HISTOGRAM,
               "model kinds agree");

gcut_status gcut_i_seg_eval_open_device(gcut_i_seg_eval *ev, const gcut_solve_options *solve,
                                        int32_t connectivity)
{
    /* The shape the session's grid solves will be chosen for (session.c
     * gives its grid the same hint): energies of a real image, one solve. */
    const gcut_i_grid_shape shape = {(int64_t)ev->width * ev->height, connectivity, 1, 1, NULL};
    const gcut_seg_plugin *pl = gcut_i_vision_seg_plugin(solve, &shape);
    if (!pl)
        return GCUT_ERR_UNSUPPORTED;
    void *state = NULL;
    gcut_status st = pl->create(ev->width, ev->height, ev->rgb, &state);
    if (st != GCUT_OK)
        return st;
    ev->pl = pl;
    ev->dev = state;
    ev->ops = &gcut_i_seg_eval_device;
    /* The device is set up now: "auto" sends the session's grid solves there
     * too (lib/solve/choose.c), rather than pairing device energies with a
     * CPU solve when the box is smaller than the image. */
    gcut_i_note_device_used();
    return GCUT_OK;
}

static void dev_close(gcut_i_seg_eval *ev)
{
    if (ev->pl && ev->dev)
        ev->pl->destroy(ev->dev);
    ev->pl = NULL;
    ev->dev = NULL;
}

static double dev_transfer_ms(const gcut_i_seg_eval *ev)
{
    gcut_seg_plugin_stats ps;
    memset(&ps, 0, sizeof ps);
    ev->pl->stats(ev->dev, &ps);
    return ps.upload_ms + ps.download_ms;
}

static gcut_status dev_smoothness(gcut_i_seg_eval *ev, gcut_i_energy *e)
{
    for (int32_t j = 0; j < e->connectivity / 2; j++)
        if (!e->pair[j] && !(e->pair[j] = gcut_i_malloc_array(e->n, sizeof(float))))
            return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (smoothness weights, %lld pixels)",
                             (long long)e->n);
    double beta = 0.0;
    gcut_status st =
        ev->pl->smoothness(ev->dev, e->connectivity, e->lambda, &beta, (float *const *)e->pair);
    if (st == GCUT_OK)
        e->beta = beta;
    return st;
}

static gcut_status dev_seeds(gcut_i_seg_eval *ev, const uint8_t *seeds)
{
    return ev->pl->set_bytes(ev->dev, GCUT_SEG_BYTES_SEEDS, seeds);
}

static gcut_status dev_select(gcut_i_seg_eval *ev, const uint8_t *select)
{
    return ev->pl->set_bytes(ev->dev, GCUT_SEG_BYTES_SELECT, select);
}

/* A GMM as the plugin reads it. */
static void dev_gmm(const gcut_i_gmm *g, gcut_seg_dev_model *m)
{
    memset(m, 0, sizeof *m);
    m->kind = GCUT_SEG_DEV_GMM;
    m->k = g->k;
    for (int32_t c = 0; c < g->k; c++) {
        m->live[c] = g->weight[c] > 0.0;
        memcpy(m->mean[c], g->fmean[c], sizeof m->mean[c]);
        memcpy(m->inv[c], g->inv[c], sizeof m->inv[c]);
        m->logc[c] = g->logc[c];
    }
}

static void dev_hist(const gcut_i_hist *h, gcut_seg_dev_model *m)
{
    memset(m, 0, sizeof *m);
    m->kind = GCUT_SEG_DEV_HISTOGRAM;
    m->bins = h->bins;
    m->hist_nll = h->nll;
}

/* ------------------------------------------------------------ GMM passes */

typedef struct dev_passes {
    gcut_i_seg_eval *ev;
    uint8_t want;
    int32_t fg;
    int32_t k;
    double moments[GCUT_SEG_PLUGIN_MAX_K * GCUT_SEG_MOMENTS];
} dev_passes;

static void passes_init(dev_passes *p, gcut_i_seg_eval *ev, uint8_t want, int32_t fg, int32_t k)
{
    memset(p, 0, sizeof *p);
    p->ev = ev;
    p->want = want;
    p->fg = fg;
    p->k = k;
}

static gcut_status run_pass(dev_passes *p, gcut_seg_pass *ps)
{
    ps->fg = p->fg;
    ps->want = p->want;
    ps->k = p->k;
    return p->ev->pl->gmm_pass(p->ev->dev, ps, p->moments);
}

static void moments_to(const dev_passes *p, int32_t c, gcut_i_gmm_acc *acc)
{
    memcpy(acc, p->moments + (size_t)c * GCUT_SEG_MOMENTS, sizeof *acc);
}

static gcut_status dev_start(void *user, gcut_i_gmm_acc *acc)
{
    dev_passes *p = user;
    gcut_seg_pass ps;
    memset(&ps, 0, sizeof ps);
    ps.mode = GCUT_SEG_PASS_START;
    gcut_status st = run_pass(p, &ps);
    if (st == GCUT_OK)
        moments_to(p, 0, acc);
    return st;
}

static gcut_status dev_split(void *user, int32_t widest, int32_t used, const double axis[3],
                             double thr, gcut_i_gmm_acc *a_widest, gcut_i_gmm_acc *a_used)
{
    dev_passes *p = user;
    gcut_seg_pass ps;
    memset(&ps, 0, sizeof ps);
    ps.mode = GCUT_SEG_PASS_SPLIT;
    ps.widest = widest;
    ps.used = used;
    memcpy(ps.axis, axis, sizeof ps.axis);
    ps.thr = thr;
    gcut_status st = run_pass(p, &ps);
    if (st == GCUT_OK) {
        moments_to(p, widest, a_widest);
        moments_to(p, used, a_used);
    }
    return st;
}

static gcut_status dev_assign(void *user, const gcut_i_gmm *g, int32_t k, gcut_i_gmm_acc *acc)
{
    dev_passes *p = user;
    gcut_seg_dev_model m;
    dev_gmm(g, &m);
    gcut_seg_pass ps;
    memset(&ps, 0, sizeof ps);
    ps.mode = GCUT_SEG_PASS_ASSIGN;
    ps.model = &m;
    gcut_status st = run_pass(p, &ps);
    if (st == GCUT_OK)
        for (int32_t c = 0; c < k; c++)
            moments_to(p, c, &acc[c]);
    return st;
}

/* gcut_i_gmm_fit over the selected pixels (the last select upload) with
 * the device's passes; fg: which class's component array. */
static gcut_status dev_gmm_fit(gcut_i_seg_eval *ev, gcut_i_gmm *g, int32_t k,
                               const uint8_t *select, uint8_t want, int32_t fg, int32_t rounds)
{
    (void)select; /* uploaded by dev_select */
    if (k < 1 || k > GCUT_I_GMM_MAX_K)
        return GCUT_FAIL(GCUT_ERR_INVALID, "GMM components %d outside 1..%d", (int)k,
                         GCUT_I_GMM_MAX_K);
    dev_passes p;
    passes_init(&p, ev, want, fg, k);
    const gcut_i_gmm_passes ps = {&p, dev_start, dev_split, dev_assign};
    return gcut_i_gmm_fit_passes(g, k, &ps, want, rounds);
}

/* gcut_i_gmm_learn of the selected pixels with the components of the last
 * data pass of class fg. */
static gcut_status learn_class(gcut_i_seg_eval *ev, gcut_i_gmm *g, int32_t k, uint8_t want,
                               int32_t fg)
{
    dev_passes p;
    passes_init(&p, ev, want, fg, k);
    gcut_seg_pass ps;
    memset(&ps, 0, sizeof ps);
    ps.mode = GCUT_SEG_PASS_FROM_DATA;
    gcut_status st = run_pass(&p, &ps);
    if (st != GCUT_OK)
        return st;
    gcut_i_gmm_acc acc[GCUT_I_GMM_MAX_K];
    double used = 0.0;
    for (int32_t c = 0; c < k; c++) {
        moments_to(&p, c, &acc[c]);
        used += acc[c].count;
    }
    /* As gcut_i_gmm_learn: a class without pixels keeps its model. */
    if (used > 0.0)
        gcut_i_gmm_from_acc(g, k, acc);
    return GCUT_OK;
}

/* GrabCut's steps 1 and 2 on the device: the labels select each class,
 * the components are those of the last data pass there. */
static gcut_status dev_gmm_learn(gcut_i_seg_eval *ev, gcut_i_gmm g[2], int32_t k,
                                 const uint8_t *label, const uint8_t *comp_bg,
                                 const uint8_t *comp_fg)
{
    (void)comp_bg;
    (void)comp_fg; /* the device's own */
    gcut_status st;
    if ((st = dev_select(ev, label)) != GCUT_OK || (st = learn_class(ev, &g[1], k, 1, 1)) != GCUT_OK)
        return st;
    return learn_class(ev, &g[0], k, 0, 0);
}

/* ------------------------------------------------------------ data costs */

static gcut_status dev_data(gcut_i_seg_eval *ev, const gcut_i_seg_models *m, gcut_i_box box,
                            const uint8_t *seeds, gcut_i_energy *e, uint8_t *comp_fg,
                            uint8_t *comp_bg)
{
    gcut_status st;
    const float *rgb = ev->rgb;
    gcut_seg_dev_model fg, bg;
    if (m->gmm) {
        dev_gmm(m->gmm[1], &fg);
        dev_gmm(m->gmm[0], &bg);
    } else {
        dev_hist(m->hist[1], &fg);
        dev_hist(m->hist[0], &bg);
    }
    const gcut_seg_rect r = {box.x0, box.y0, box.w, box.h};
    if ((st = ev->pl->data(ev->dev, r, &fg, &bg, e->dfg, e->dbg, m->gmm ? comp_fg : NULL,
                           m->gmm ? comp_bg : NULL)) != GCUT_OK)
        return st;
    if (!m->gmm)
        return GCUT_OK;
    /* Foreground seeds outside the box: the CPU's scalar evaluation. */
    const int32_t w = e->width;
    for (int32_t y = 0; y < e->height; y++) {
        const int row_in = box.w > 0 && y >= box.y0 && y < box.y0 + box.h;
        const uint8_t *sr = seeds + (int64_t)y * w;
        for (int32_t x = 0; x < w; x++) {
            if (row_in && x == box.x0) {
                x = box.x0 + box.w - 1; /* skip the box's part of the row */
                continue;
            }
            if (sr[x] != GCUT_SEED_FG)
                continue;
            const int64_t p = (int64_t)y * w + x;
            e->dfg[p] = gcut_i_gmm_nll(m->gmm[1], rgb + 3 * p, &comp_fg[p]);
            e->dbg[p] = e->dfg[p];
        }
    }
    return GCUT_OK;
}

/* ------------------------------------------------------------ the grid */

static gcut_status dev_scale(gcut_i_seg_eval *ev, const gcut_i_energy *e, gcut_i_box box,
                             double *scale)
{
    (void)e; /* the device's pair weights */
    const gcut_seg_rect r = {box.x0, box.y0, box.w, box.h};
    double worst = 0.0;
    gcut_status st = ev->pl->worst(ev->dev, r, &worst);
    if (st == GCUT_OK)
        *scale = gcut_i_energy_scale_from_worst(worst);
    return st;
}

static gcut_status dev_links(gcut_i_seg_eval *ev, const gcut_i_energy *e, double scale,
                             gcut_i_box box, gcut_grid *g, int32_t *tmp)
{
    const gcut_seg_rect r = {box.x0, box.y0, box.w, box.h};
    gcut_status st;
    for (int32_t dir = 0; dir < e->connectivity; dir++)
        if ((st = ev->pl->links(ev->dev, r, scale, dir, tmp)) != GCUT_OK ||
            (st = gcut_grid_set_caps(g, dir, tmp)) != GCUT_OK)
            return st;
    return GCUT_OK;
}

static gcut_status dev_terminals(gcut_i_seg_eval *ev, const gcut_i_energy *e, double scale,
                                 const uint8_t *seeds, gcut_i_box box, int rebase, gcut_grid *g,
                                 int32_t *tmp)
{
    (void)e;
    (void)seeds; /* the device's copies */
    const gcut_seg_rect r = {box.x0, box.y0, box.w, box.h};
    const int64_t nb = (int64_t)box.w * box.h;
    gcut_status st;
    if ((st = ev->pl->terminals(ev->dev, r, scale, rebase, tmp, tmp + nb)) != GCUT_OK)
        return st;
    return gcut_grid_set_terminal_caps(g, tmp, tmp + nb);
}

const gcut_i_seg_eval_ops gcut_i_seg_eval_device = {
    .device = 1,
    .smoothness = dev_smoothness,
    .seeds = dev_seeds,
    .select = dev_select,
    .gmm_fit = dev_gmm_fit,
    .gmm_learn = dev_gmm_learn,
    .data = dev_data,
    .scale = dev_scale,
    .links = dev_links,
    .terminals = dev_terminals,
    .transfer_ms = dev_transfer_ms,
    .close = dev_close,
};
