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
    ev->ucomp_box = 0; /* the components are the device's */
    ev->ops->close(ev);
    ev->ops = &gcut_i_seg_eval_cpu;
}

static void free_colour_tables(gcut_i_seg_eval *ev)
{
    gcut_i_colour_index_free(&ev->ci);
    gcut_i_free(ev->unll);
    gcut_i_free(ev->ucomp);
    gcut_i_free(ev->ubox_id);
    gcut_i_free(ev->ubox_col);
    gcut_i_free(ev->ucount);
    ev->ucount = NULL;
    ev->ucomp_box = 0;
    ev->unll = NULL;
    ev->ucomp = NULL;
    ev->ubox_id = NULL;
    ev->ubox_col = NULL;
    ev->nubox = 0;
    memset(&ev->ubox, 0, sizeof ev->ubox);
}

void gcut_i_seg_eval_free(gcut_i_seg_eval *ev)
{
    if (ev->ops)
        ev->ops->close(ev);
    gcut_i_free(ev->tbase);
    ev->tbase = NULL;
    ev->tbase_cap = 0;
    free_colour_tables(ev);
}

/* The image's colour index and the per-colour tables of the GMM passes,
 * built at the first call. A model pass then evaluates each distinct
 * colour once and gathers the pixels' values by their colour's index,
 * the same bits as a pass over the pixels (gcut_i_colour_index). Only
 * built for whole-number colours in [0, 255] and when at most half the
 * pixels have a colour of their own: past that the gathers cost more than
 * the evaluations they save. Returns whether the tables are there. */
static int colour_tables(gcut_i_seg_eval *ev)
{
    if (ev->index_tried)
        return ev->ci.u != 0;
    ev->index_tried = 1;
    if (!gcut_i_colour_index_build(&ev->ci, ev->rgb, ev->n, ev->n / 2))
        return 0;
    ev->unll = gcut_i_malloc_array(2 * ev->ci.u, sizeof(float));
    ev->ucomp = gcut_i_malloc_array(2 * ev->ci.u, 1);
    if (!ev->unll || !ev->ucomp) {
        free_colour_tables(ev);
        return 0;
    }
    return 1;
}

/* The distinct colours of box b (in ci's order), kept while the box is
 * the same. Returns 0 without memory. */
static int box_colours(gcut_i_seg_eval *ev, gcut_i_box b)
{
    if (ev->ubox_id && memcmp(&ev->ubox, &b, sizeof b) == 0)
        return 1;
    gcut_i_free(ev->ubox_id);
    gcut_i_free(ev->ubox_col);
    ev->ubox_col = NULL;
    ev->nubox = 0;
    const int64_t u = ev->ci.u;
    /* ucomp's fg half as the marks: the next data pass rewrites it. */
    uint8_t *mark = ev->ucomp + u;
    memset(mark, 0, (size_t)u);
    for (int32_t y = b.y0; y < b.y0 + b.h; y++) {
        const uint32_t *id = ev->ci.id + (int64_t)y * ev->width + b.x0;
        for (int32_t x = 0; x < b.w; x++)
            mark[id[x]] = 1;
    }
    int64_t m = 0;
    for (int64_t i = 0; i < u; i++)
        m += mark[i];
    ev->ubox_id = gcut_i_malloc_array(m > 0 ? m : 1, sizeof(uint32_t));
    ev->ubox_col = gcut_i_malloc_array(3 * (m > 0 ? m : 1), sizeof(float));
    if (!ev->ubox_id || !ev->ubox_col) {
        gcut_i_free(ev->ubox_id);
        gcut_i_free(ev->ubox_col);
        ev->ubox_id = NULL;
        ev->ubox_col = NULL;
        return 0;
    }
    int64_t q = 0;
    for (int64_t i = 0; i < u; i++) {
        if (!mark[i])
            continue;
        ev->ubox_id[q] = (uint32_t)i;
        memcpy(ev->ubox_col + 3 * q, ev->ci.col + 3 * i, 3 * sizeof(float));
        q++;
    }
    ev->nubox = m;
    ev->ubox = b;
    return 1;
}

/* out[x] = val[id[x]], comp[x] = best[id[x]] for x < count. */
static void gather(const uint32_t *restrict id, int32_t count, const float *restrict val,
                   const uint8_t *restrict best, float *restrict out, uint8_t *restrict comp)
{
    for (int32_t x = 0; x < count; x++) {
        const uint32_t i = id[x];
        out[x] = val[i];
        comp[x] = best[i];
    }
}

/* gcut_i_gmm_nll_run over count colours, into nll / best scattered by
 * ids (NULL: in order). */
static void nll_colours(const gcut_i_gmm *g, const float *col, int64_t count, const uint32_t *ids,
                        float *nll, uint8_t *best)
{
    if (!ids) {
        gcut_i_gmm_nll_run(g, col, count, nll, best);
        return;
    }
    enum { B = 256 };
    float sn[B];
    uint8_t sb[B];
    for (int64_t i0 = 0; i0 < count; i0 += B) {
        const int64_t m = count - i0 < B ? count - i0 : B;
        gcut_i_gmm_nll_run(g, col + 3 * i0, m, sn, sb);
        for (int64_t i = 0; i < m; i++) {
            nll[ids[i0 + i]] = sn[i];
            best[ids[i0 + i]] = sb[i];
        }
    }
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
    return gcut_i_gmm_fit_index(g, k, ev->rgb, ev->n, colour_tables(ev) ? &ev->ci : NULL, select,
                                want, rounds, NULL);
}

/* gcut_i_gmm_learn_both when the last data pass gathered the components
 * from the colour tables (ucomp_box): a pixel's component is then that of
 * its colour in its class, so a pass counts the pixels of each colour per
 * class, and the moments are summed per colour, weighted by the counts.
 * The colours are whole numbers: the moments are whole numbers too, exact
 * in int64 and below 2^53, so converted to double they equal, bit for bit,
 * the sums learn_both makes pixel by pixel (the argument of
 * gcut_i_gmm_mom). A foreground pixel outside the box (a seed there) has
 * its component from comp_fg. Returns 0 without memory. */
static int learn_by_colour(gcut_i_seg_eval *ev, gcut_i_gmm g[2], int32_t k, const uint8_t *label,
                           const uint8_t *comp_fg)
{
    const int64_t u = ev->ci.u;
    if (!ev->ucount && !(ev->ucount = gcut_i_malloc_array(2 * u, sizeof(uint32_t))))
        return 0;
    uint32_t *cnt = ev->ucount;
    memset(cnt, 0, (size_t)(2 * u) * sizeof(uint32_t));
    gcut_i_gmm_mom mom[2][GCUT_I_GMM_MAX_K];
    memset(mom, 0, sizeof mom);
    const gcut_i_box b = ev->ubox;
    const int32_t w = ev->width;
    for (int32_t y = 0; y < ev->height; y++) {
        const int64_t r = (int64_t)y * w;
        const uint32_t *id = ev->ci.id + r;
        const uint8_t *lab = label + r;
        const int row_in = y >= b.y0 && y < b.y0 + b.h;
        const int32_t xa = row_in ? b.x0 : w, xb = row_in ? b.x0 + b.w : w;
        for (int32_t x = xa; x < xb; x++)
            cnt[(lab[x] != 0 ? u : 0) + id[x]]++;
        for (int part = 0; part < 2; part++) {
            const int32_t lo = part ? xb : 0, hi = part ? w : xa;
            for (int32_t x = lo; x < hi; x++) {
                if (!lab[x]) {
                    cnt[id[x]]++;
                } else {
                    const uint8_t c = comp_fg[r + x];
                    gcut_i_gmm_mom_add(&mom[1][c < k ? c : 0], ev->rgb + 3 * (r + x), 1);
                }
            }
        }
    }
    for (int l = 0; l < 2; l++) {
        const uint32_t *cl = cnt + l * u;
        const uint8_t *uc = ev->ucomp + l * u;
        for (int64_t i = 0; i < u; i++)
            if (cl[i])
                gcut_i_gmm_mom_add(&mom[l][uc[i] < k ? uc[i] : 0], ev->ci.col + 3 * i, cl[i]);
    }
    for (int l = 1; l >= 0; l--) {
        int64_t used = 0;
        for (int32_t c = 0; c < k; c++)
            used += mom[l][c].count;
        if (!used)
            continue;
        gcut_i_gmm_acc acc[GCUT_I_GMM_MAX_K];
        for (int32_t c = 0; c < k; c++)
            gcut_i_gmm_mom_to_acc(&mom[l][c], &acc[c]);
        gcut_i_gmm_from_acc(&g[l], k, acc);
    }
    return 1;
}

static gcut_status cpu_gmm_learn(gcut_i_seg_eval *ev, gcut_i_gmm g[2], int32_t k,
                                 const uint8_t *label, const uint8_t *comp_bg,
                                 const uint8_t *comp_fg)
{
    if (ev->ucomp_box && learn_by_colour(ev, g, k, label, comp_fg))
        return GCUT_OK;
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
    if (m->gmm)
        colour_tables(ev);
    gcut_i_seg_cpu_data(ev, m, b, seeds, e, comp_fg, comp_bg, 3);
    return GCUT_OK;
}

void gcut_i_seg_cpu_data(gcut_i_seg_eval *ev, const gcut_i_seg_models *m, gcut_i_box b,
                         const uint8_t *seeds, gcut_i_energy *e, uint8_t *comp_fg, uint8_t *comp_bg,
                         int classes)
{
    const float *rgb = ev->rgb;
    const int gmm = m->gmm != NULL;
    const int do_fg = (classes & 2) != 0, do_bg = (classes & 1) != 0;
    const int32_t w = ev->width;
    /* With the colour index (built by cpu_data or the fit), each class's
     * model over the distinct colours it needs, gathered below: the
     * background's over all of them when they are fewer than the pixels,
     * the foreground's over the box's when fewer than the box's pixels. */
    const gcut_i_colour_index *ci = gmm && ev->ci.u ? &ev->ci : NULL;
    int lut_bg = 0, lut_fg = 0;
    if (ci && do_bg && ci->u < ev->n) {
        nll_colours(m->gmm[0], ci->col, ci->u, NULL, ev->unll, ev->ucomp);
        lut_bg = 1;
    }
    if (ci && do_fg && b.w > 0 && box_colours(ev, b) && ev->nubox < (int64_t)b.w * b.h) {
        nll_colours(m->gmm[1], ev->ubox_col, ev->nubox, ev->ubox_id, ev->unll + ci->u,
                    ev->ucomp + ci->u);
        lut_fg = 1;
    }
    /* The learning step may count by colour only after a pass that
     * gathered both classes' components (the other passes leave the tables
     * and the arrays apart). */
    ev->ucomp_box = lut_bg && lut_fg;
    for (int32_t y = 0; y < ev->height; y++) {
        const int64_t r = (int64_t)y * w;
        const int row_in = b.w > 0 && y >= b.y0 && y < b.y0 + b.h;
        if (gmm) {
            /* Background over the whole row, foreground over the box: both
             * in batches (gcut_i_gmm_nll_run), or gathered from the
             * colours' values. */
            if (lut_bg) {
                gather(ci->id + r, w, ev->unll, ev->ucomp, e->dbg + r, comp_bg + r);
            } else if (do_bg) {
                gcut_i_gmm_nll_run(m->gmm[0], rgb + 3 * r, w, e->dbg + r, comp_bg + r);
            }
            if (row_in && lut_fg) {
                gather(ci->id + r + b.x0, b.w, ev->unll + ci->u, ev->ucomp + ci->u,
                       e->dfg + r + b.x0, comp_fg + r + b.x0);
            } else if (row_in && do_fg) {
                gcut_i_gmm_nll_run(m->gmm[1], rgb + 3 * (r + b.x0), b.w, e->dfg + r + b.x0,
                                   comp_fg + r + b.x0);
            }
        }
        if (gmm) {
            /* Outside the box only the pixel's own class counts: in runs
             * left and right of the box (the whole row outside it). */
            const int32_t xa = row_in ? b.x0 : w, xb = row_in ? b.x0 + b.w : w;
            for (int part = 0; part < 2; part++) {
                const int32_t lo = part ? xb : 0, hi = part ? w : xa;
                if (hi > lo && !memchr(seeds + r + lo, GCUT_SEED_FG, (size_t)(hi - lo))) {
                    /* No foreground seed in the run (GrabCut's rectangle). */
                    memcpy(e->dfg + r + lo, e->dbg + r + lo, (size_t)(hi - lo) * sizeof(float));
                    continue;
                }
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
