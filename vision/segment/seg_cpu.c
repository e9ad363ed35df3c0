/*
 * seg_cpu.c - the segmentation energies evaluated on the CPU: the
 * gcut_i_seg_eval_ops of every session that has no device energies, and
 * of the one whose device failed (segment_internal.h, "evaluators").
 *
 * Each step wraps the code of energy.c, gmm.c and histogram.c; the data
 * costs are the loop below. seg_device.c is the same interface on a back
 * end's device, with the same values.
 */
#include <string.h>

#include "segment/segment_internal.h"

void gcut_i_seg_eval_init(gcut_i_seg_eval *ev, int32_t width, int32_t height, const float *rgb)
{
    memset(ev, 0, sizeof *ev);
    ev->ops = &gcut_i_seg_eval_cpu;
    ev->width = width;
    ev->height = height;
    ev->n = (int64_t)width * height;
    ev->rgb = rgb;
}

void gcut_i_seg_eval_drop_device(gcut_i_seg_eval *ev)
{
    ev->ops->close(ev);
    ev->ops = &gcut_i_seg_eval_cpu;
}

void gcut_i_seg_eval_free(gcut_i_seg_eval *ev)
{
    if (ev->ops)
        ev->ops->close(ev);
    gcut_i_free(ev->tbase);
    ev->tbase = NULL;
    ev->tbase_cap = 0;
}

static gcut_status cpu_smoothness(gcut_i_seg_eval *ev, gcut_i_energy *e)
{
    e->beta = gcut_i_seg_beta(ev->rgb, ev->width, ev->height, e->connectivity);
    /* Fresh arrays (a failed device may have left some). */
    for (int j = 0; j < 4; j++) {
        gcut_i_free(e->pair[j]);
        e->pair[j] = NULL;
    }
    return gcut_i_energy_smoothness(e, ev->rgb);
}

static gcut_status cpu_seeds(gcut_i_seg_eval *ev, const uint8_t *seeds)
{
    (void)ev;
    (void)seeds; /* read in place */
    return GCUT_OK;
}

static gcut_status cpu_select(gcut_i_seg_eval *ev, const uint8_t *select)
{
    (void)ev;
    (void)select; /* gmm_fit reads it in place */
    return GCUT_OK;
}

static gcut_status cpu_gmm_fit(gcut_i_seg_eval *ev, gcut_i_gmm *g, int32_t k,
                               const uint8_t *select, uint8_t want, int32_t fg, int32_t rounds)
{
    (void)fg;
    return gcut_i_gmm_fit(g, k, ev->rgb, ev->n, select, want, rounds, NULL);
}

static gcut_status cpu_gmm_learn(gcut_i_seg_eval *ev, gcut_i_gmm g[2], int32_t k,
                                 const uint8_t *label, const uint8_t *comp_bg,
                                 const uint8_t *comp_fg)
{
    /* Step 1 of GrabCut, each pixel's component the most likely one of its
     * class under the current models, is in the components of the last
     * data pass; step 2, maximum-likelihood components from those
     * assignments, both classes in one pass. */
    gcut_i_gmm_learn_both(g, k, ev->rgb, ev->n, label, comp_bg, comp_fg);
    return GCUT_OK;
}

static gcut_status cpu_data(gcut_i_seg_eval *ev, const gcut_i_seg_models *m, gcut_i_box b,
                            const uint8_t *seeds, gcut_i_energy *e, uint8_t *comp_fg,
                            uint8_t *comp_bg)
{
    gcut_i_seg_cpu_data(ev, m, b, seeds, e, comp_fg, comp_bg, 3);
    return GCUT_OK;
}

void gcut_i_seg_cpu_data(const gcut_i_seg_eval *ev, const gcut_i_seg_models *m, gcut_i_box b,
                         const uint8_t *seeds, gcut_i_energy *e, uint8_t *comp_fg,
                         uint8_t *comp_bg, int classes)
{
    const float *rgb = ev->rgb;
    const int gmm = m->gmm != NULL;
    const int do_fg = (classes & 2) != 0, do_bg = (classes & 1) != 0;
    const int32_t w = ev->width;
    for (int32_t y = 0; y < ev->height; y++) {
        const int64_t r = (int64_t)y * w;
        const int row_in = b.w > 0 && y >= b.y0 && y < b.y0 + b.h;
        if (gmm) {
            /* Background over the whole row, foreground over the box: both
             * in batches (gcut_i_gmm_nll_run). */
            if (do_bg)
                gcut_i_gmm_nll_run(m->gmm[0], rgb + 3 * r, w, e->dbg + r, comp_bg + r);
            if (row_in && do_fg)
                gcut_i_gmm_nll_run(m->gmm[1], rgb + 3 * (r + b.x0), b.w, e->dfg + r + b.x0,
                                   comp_fg + r + b.x0);
        }
        if (gmm) {
            /* Outside the box only the pixel's own class counts: in runs
             * left and right of the box (the whole row outside it). */
            const int32_t xa = row_in ? b.x0 : w, xb = row_in ? b.x0 + b.w : w;
            for (int part = 0; part < 2; part++) {
                const int32_t lo = part ? xb : 0, hi = part ? w : xa;
                for (int32_t x = lo; x < hi; x++) {
                    const int64_t p = r + x;
                    if (seeds[p] != GCUT_SEED_FG) {
                        e->dfg[p] = e->dbg[p];
                        continue;
                    }
                    if (do_fg)
                        e->dfg[p] = gcut_i_gmm_nll(m->gmm[1], rgb + 3 * p, &comp_fg[p]);
                    e->dbg[p] = e->dfg[p];
                }
            }
            continue;
        }
        for (int32_t x = 0; x < w; x++) {
            const int64_t p = r + x;
            const uint8_t sd = seeds[p];
            const int both = row_in && x >= b.x0 && x < b.x0 + b.w;
            if (!gmm) {
                e->dfg[p] = (both || sd == GCUT_SEED_FG) ? gcut_i_hist_nll(m->hist[1], rgb + 3 * p)
                                                         : 0.0f;
                e->dbg[p] = (both || sd == GCUT_SEED_BG) ? gcut_i_hist_nll(m->hist[0], rgb + 3 * p)
                                                         : 0.0f;
            } else if (!both && sd == GCUT_SEED_FG && do_fg) {
                e->dfg[p] = gcut_i_gmm_nll(m->gmm[1], rgb + 3 * p, &comp_fg[p]);
            }
            if (!both) {
                /* A fixed pixel outside the box: only its own class counts. */
                if (sd == GCUT_SEED_FG)
                    e->dbg[p] = e->dfg[p];
                else
                    e->dfg[p] = e->dbg[p];
            }
        }
    }
}

static gcut_status cpu_scale(gcut_i_seg_eval *ev, const gcut_i_energy *e, gcut_i_box box,
                             double *scale)
{
    (void)ev;
    *scale = gcut_i_energy_scale(e, box);
    return GCUT_OK;
}

static gcut_status cpu_links(gcut_i_seg_eval *ev, const gcut_i_energy *e, double scale,
                             gcut_i_box box, gcut_grid *g, int32_t *tmp)
{
    (void)ev;
    return gcut_i_energy_fill_links(e, scale, box, g, tmp);
}

static gcut_status cpu_terminals(gcut_i_seg_eval *ev, const gcut_i_energy *e, double scale,
                                 const uint8_t *seeds, gcut_i_box box, int rebase, gcut_grid *g,
                                 int32_t *tmp)
{
    gcut_status st;
    if (rebase) {
        const int64_t nb = (int64_t)box.w * box.h;
        if (nb > ev->tbase_cap) {
            int32_t *t = gcut_i_malloc_array(3 * nb, sizeof(int32_t));
            if (!t)
                return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (%lld pixels)", (long long)nb);
            gcut_i_free(ev->tbase);
            ev->tbase = t;
            ev->tbase_cap = nb;
        }
        if ((st = gcut_i_energy_tlink_base(e, scale, seeds, box, ev->tbase)) != GCUT_OK)
            return st;
    }
    return gcut_i_energy_fill_terminals(e, scale, seeds, box, ev->tbase, g, tmp);
}

static double cpu_transfer_ms(const gcut_i_seg_eval *ev)
{
    (void)ev;
    return 0.0;
}

static void cpu_close(gcut_i_seg_eval *ev) { (void)ev; }

const gcut_i_seg_eval_ops gcut_i_seg_eval_cpu = {
    .device = 0,
    .smoothness = cpu_smoothness,
    .seeds = cpu_seeds,
    .select = cpu_select,
    .gmm_fit = cpu_gmm_fit,
    .gmm_learn = cpu_gmm_learn,
    .data = cpu_data,
    .scale = cpu_scale,
    .links = cpu_links,
    .terminals = cpu_terminals,
    .transfer_ms = cpu_transfer_ms,
    .close = cpu_close,
};
