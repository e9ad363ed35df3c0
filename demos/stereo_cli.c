/*
 * stereo_cli.c - the command-line pieces gcut-stereo and gcut-mvs share
 * (see stereo_cli.h): one parser of the two-view energy options, so that
 * both tools accept and reject them alike, and one writer of the outputs,
 * so that scripts read both the same way.
 */
#include "stereo_cli.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void stereo_cli_init(stereo_cli *o)
{
    memset(o, 0, sizeof(*o));
    o->lambda = -1;
    o->contrast_threshold = -1;
    o->cost = -1;
    o->smooth = -1;
    o->gt_scale = 1;
}

/* The integer options: key, name, range, field. */
enum {
    K_TRUNC = CLI_KEY + 0x100,
    K_TL_TRUNC,
    K_CONTRAST_THRESHOLD,
    K_CONTRAST_BOOST,
    K_CYCLES,
    K_SCALE,
    K_GT,
    K_GT_SCALE,
    K_PFM,
    K_PNG16,
    K_PNG16_SCALE
};

typedef struct int_opt {
    int key;
    const char *name;
    int32_t lo, hi;
    size_t field;
} int_opt;

static const int_opt int_opts[] = {
    {'n', "--ndisp", 2, 1024, offsetof(stereo_cli, ndisp)},
    {'l', "--lambda", 0, 10000, offsetof(stereo_cli, lambda)},
    {K_TRUNC, "--trunc", 1, 1000, offsetof(stereo_cli, trunc)},
    {K_TL_TRUNC, "--tl-trunc", 1, 1000, offsetof(stereo_cli, tl_trunc)},
    {K_CONTRAST_THRESHOLD, "--contrast-threshold", 0, 256,
     offsetof(stereo_cli, contrast_threshold)},
    {K_CONTRAST_BOOST, "--contrast-boost", 1, 100, offsetof(stereo_cli, contrast_boost)},
    {K_CYCLES, "--cycles", 1, GCUT_MRF_MAX_CYCLES, offsetof(stereo_cli, cycles)},
};

static const struct option stereo_longopts[] = {
    {"ndisp", required_argument, NULL, 'n'},
    {"cost", required_argument, NULL, 'c'},
    {"smooth", required_argument, NULL, 's'},
    {"lambda", required_argument, NULL, 'l'},
    {"trunc", required_argument, NULL, K_TRUNC},
    {"tl-trunc", required_argument, NULL, K_TL_TRUNC},
    {"contrast-threshold", required_argument, NULL, K_CONTRAST_THRESHOLD},
    {"contrast-boost", required_argument, NULL, K_CONTRAST_BOOST},
    {"cycles", required_argument, NULL, K_CYCLES},
    {"out", required_argument, NULL, 'o'},
    {"scale", required_argument, NULL, K_SCALE},
    {"gt", required_argument, NULL, K_GT},
    {"gt-scale", required_argument, NULL, K_GT_SCALE},
    {"pfm", required_argument, NULL, K_PFM},
    {"png16", required_argument, NULL, K_PNG16},
    {"png16-scale", required_argument, NULL, K_PNG16_SCALE},
    {NULL, 0, NULL, 0}};

/* One of the names, or -1. */
static int pick(const char *v, const char *const *names, int n)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(v, names[k]))
            return k;
    return -1;
}

static int take_option(int key, const char *v, void *user)
{
    stereo_cli *o = user;
    for (size_t k = 0; k < sizeof(int_opts) / sizeof(int_opts[0]); k++) {
        const int_opt *io = &int_opts[k];
        if (io->key != key)
            continue;
        if (!cli_parse_int(v, io->lo, io->hi, (int32_t *)(void *)((char *)o + io->field))) {
            char msg[80];
            snprintf(msg, sizeof(msg), "%s must be in %d .. %d", io->name, (int)io->lo,
                     (int)io->hi);
            return cli_usage_error(msg, v);
        }
        return 0;
    }
    if (key == 'c') {
        static const char *const costs[] = {"bt", "ad", "census"};
        static const int cost_of[] = {GCUT_STEREO_BT, GCUT_STEREO_AD, GCUT_STEREO_CENSUS};
        const int k = pick(v, costs, 3);
        if (k < 0)
            return cli_usage_error("--cost must be bt, ad or census", v);
        o->cost = cost_of[k];
    } else if (key == 's') {
        static const char *const smooths[] = {"potts", "tl"};
        static const int smooth_of[] = {GCUT_STEREO_POTTS, GCUT_STEREO_TL};
        const int k = pick(v, smooths, 2);
        if (k < 0)
            return cli_usage_error("--smooth must be potts or tl", v);
        o->smooth = smooth_of[k];
    } else if (key == 'o') {
        o->out = v;
    } else if (key == K_GT) {
        o->gt_path = v;
    } else if (key == K_PFM) {
        o->pfm = v;
    } else if (key == K_PNG16) {
        o->png16 = v;
    } else {
        double x;
        const char *what = key == K_GT_SCALE ? "--gt-scale must be > 0"
                           : key == K_SCALE  ? "--scale must be > 0"
                                             : "--png16-scale must be > 0";
        if (!cli_parse_double(v, 0, DBL_MAX, &x) || !(x > 0))
            return cli_usage_error(what, v);
        *(key == K_GT_SCALE ? &o->gt_scale : key == K_SCALE ? &o->scale : &o->png16_scale) = x;
    }
    return 0;
}

cli_opts stereo_cli_group(stereo_cli *o)
{
    const cli_opts g = {"n:c:s:l:o:", stereo_longopts, take_option, o};
    return g;
}

int stereo_cli_parse(int argc, char **argv, const cli_opts *tool, stereo_cli *o, int *first)
{
    const cli_opts groups[2] = {*tool, stereo_cli_group(o)};
    return cli_parse(argc, argv, groups, 2, CLI_OPT_SOLVER, &o->c, first);
}

void stereo_cli_apply_smooth(const stereo_cli *o, const stereo_cli_smooth *s)
{
    if (o->smooth >= 0)
        *s->smooth = (gcut_stereo_smooth)o->smooth;
    if (o->lambda >= 0)
        *s->lambda = o->lambda;
    if (o->tl_trunc > 0)
        *s->tl_trunc = o->tl_trunc;
    if (o->contrast_threshold >= 0)
        *s->contrast_threshold = o->contrast_threshold;
    if (o->contrast_boost > 0)
        *s->contrast_boost = o->contrast_boost;
    if (o->cycles > 0)
        s->mrf->max_cycles = o->cycles;
    cli_apply_solve(&o->c, &s->mrf->solve);
}

void stereo_cli_apply(const stereo_cli *o, gcut_stereo_options *p)
{
    if (o->ndisp > 0)
        p->ndisp = o->ndisp;
    if (o->cost >= 0)
        p->cost = (gcut_stereo_cost)o->cost;
    if (o->trunc > 0)
        p->trunc = o->trunc;
    const stereo_cli_smooth s = {&p->smooth, &p->lambda, &p->tl_trunc, &p->contrast_threshold,
                                 &p->contrast_boost, &p->mrf};
    stereo_cli_apply_smooth(o, &s);
}

/* The bar: the share of the cycle's moves done, the label and energy. */
void stereo_cli_on_move(void *user, int32_t cycle, int32_t label, int64_t energy, double ms)
{
    (void)ms;
    stereo_cli_progress *p = user;
    if (!p->enabled)
        return;
    p->done = p->done % p->labels + 1;
    char phase[32], detail[64];
    snprintf(phase, sizeof phase, "cycle %d", (int)cycle);
    snprintf(detail, sizeof detail, "move %d/%d, label %d, energy %lld", (int)p->done,
             (int)p->labels, (int)label, (long long)energy);
    cli_progress_draw((double)p->done / p->labels, phase, detail);
}

void stereo_cli_progress_on(gcut_mrf_options *mrf, stereo_cli_progress *bar, int32_t labels)
{
    bar->enabled = cli_progress_on();
    bar->labels = labels > 0 ? labels : 1;
    bar->done = 0;
    mrf->progress = stereo_cli_on_move;
    mrf->progress_user = bar;
    cli_progress_outer(bar->enabled);
}

void stereo_cli_print_stats(const gcut_mrf_stats *st)
{
    cli_progress_clear();
    cli_put_str("backend", st->backend ? st->backend : "none");
    cli_json_begin_array("cycle");
    for (int32_t c = 0; c < st->cycles; c++) {
        fprintf(cli_report(), "cycle %d: energy %lld, %.1f ms\n", (int)c + 1,
                (long long)st->cycle_energy[c], st->cycle_ms[c]);
        cli_json_begin_object(NULL);
        cli_json_int("energy", (long long)st->cycle_energy[c]);
        cli_json_num("ms", st->cycle_ms[c]);
        cli_json_end();
    }
    cli_json_end();
    cli_put_int("cycles", st->cycles);
    cli_put_int("moves", st->moves);
    cli_put_int("initial-energy", (long long)st->initial_energy);
    cli_put_int("energy", (long long)st->energy);
    cli_put_ms("build", st->build_ms, 1);
    cli_put_ms("solve", st->solve_ms, 1);
    cli_put_ms("total", st->total_ms, 1);
}

int stereo_cli_check_gt(const gcut_image *gt, int32_t w, int32_t h, const char *what)
{
    if (!gt || (gt->width == w && gt->height == h))
        return 1;
    fprintf(stderr, "%s: ground truth is %d x %d, %s %d x %d\n", cli_prog(), (int)gt->width,
            (int)gt->height, what, (int)w, (int)h);
    return 0;
}

gcut_status stereo_cli_print_bad(const int32_t *disp, const gcut_image *gt, double gt_scale,
                                 const gcut_image *mask)
{
    for (int pass = 0; pass < (mask ? 2 : 1); pass++)
        for (int t = 1; t <= 2; t++) {
            double pct;
            gcut_status st =
                gcut_stereo_bad_pixels(disp, gt, gt_scale, pass ? mask : NULL, t, &pct, NULL);
            if (st != GCUT_OK)
                return st;
            char key[32];
            snprintf(key, sizeof key, "bad%d-%s", t, pass ? "nonocc" : "all");
            cli_put_pct(key, pct, 2);
        }
    return GCUT_OK;
}

char *stereo_cli_path16(const char *path)
{
    size_t len = strlen(path);
    char *p16 = malloc(len + 8);
    if (!p16)
        return NULL;
    memcpy(p16, path, len + 1);
    if (len > 4 && strcmp(p16 + len - 4, ".png") == 0)
        p16[len - 4] = '\0';
    strcat(p16, "-16.png");
    return p16;
}

int stereo_cli_is_pfm(const char *path)
{
    const size_t n = path ? strlen(path) : 0;
    return n > 4 && path[n - 4] == '.' && (path[n - 3] | 0x20) == 'p' &&
           (path[n - 2] | 0x20) == 'f' && (path[n - 1] | 0x20) == 'm';
}

int stereo_cli_check_outputs(const stereo_cli *o, const char *extra, const char *const *ins,
                             size_t nin)
{
    const int pair = o->out && !stereo_cli_is_pfm(o->out); /* PATH and PATH-16.png */
    if (pair && (!strcmp(o->out, "-") || !strcmp(o->out, "/dev/stdout")))
        return cli_usage_error("--out writes two pictures (PATH and PATH-16.png): give a file "
                               "name, not - (--pfm - or --png16 - write one file to stdout)",
                               NULL);
    char *p16 = pair ? stereo_cli_path16(o->out) : NULL;
    if (pair && !p16) {
        fprintf(stderr, "%s: out of memory\n", cli_prog());
        return 1;
    }
    const char *outs[] = {o->out, p16, o->pfm, o->png16, extra};
    int rc = cli_check_outputs(outs, 5, ins, nin);
    free(p16);
    return rc;
}

int stereo_cli_write_pfm(const char *path, const float *v, const uint8_t *unknown, int32_t w,
                         int32_t h)
{
    FILE *f = cli_open_output(path);
    if (!f)
        return 1;
    fprintf(f, "Pf\n%d %d\n-1.0\n", (int)w, (int)h);
    unsigned char *row = malloc((size_t)w * 4 + 1);
    if (!row) {
        cli_abort_output(f);
        fprintf(stderr, "%s: out of memory\n", cli_prog());
        return 1;
    }
    for (int32_t y = h - 1; y >= 0; y--) { /* PFM rows go from the bottom up */
        for (int32_t x = 0; x < w; x++) {
            const size_t i = (size_t)y * (size_t)w + (size_t)x;
            union {
                float f;
                uint32_t u;
            } c;
            c.f = unknown && unknown[i] ? INFINITY : v[i];
            for (int b = 0; b < 4; b++) /* little-endian, as the scale -1.0 says */
                row[(size_t)x * 4 + (size_t)b] = (unsigned char)(c.u >> (8 * b));
        }
        if (fwrite(row, 4, (size_t)w, f) != (size_t)w)
            break;
    }
    free(row);
    return cli_close_output(f, path);
}

double stereo_cli_png16_scale(const stereo_cli *o, int32_t ndisp)
{
    if (o->png16_scale > 0)
        return o->png16_scale;
    return ndisp > 1 ? floor(65535.0 / (ndisp - 1)) : 65535.0;
}

int stereo_cli_save_outputs(const stereo_cli *o, const int32_t *disp, int32_t w, int32_t h,
                            int32_t ndisp)
{
    const size_t n = (size_t)w * (size_t)h;
    if (o->out && !stereo_cli_is_pfm(o->out)) {
        const double scale = o->scale > 0 ? o->scale : 255.0 / (ndisp - 1);
        if (stereo_cli_save_disp(disp, w, h, scale, o->out) != GCUT_OK)
            return cli_fail();
    }
    const char *pfms[2] = {o->out && stereo_cli_is_pfm(o->out) ? o->out : NULL, o->pfm};
    if (pfms[0] || pfms[1]) {
        float *v = malloc(n * sizeof *v + 1);
        if (!v) {
            fprintf(stderr, "%s: out of memory\n", cli_prog());
            return 1;
        }
        for (size_t i = 0; i < n; i++)
            v[i] = (float)disp[i];
        int rc = 0;
        for (int k = 0; k < 2 && rc == 0; k++)
            if (pfms[k])
                rc = stereo_cli_write_pfm(pfms[k], v, NULL, w, h);
        free(v);
        if (rc)
            return rc;
    }
    if (o->png16) {
        const double s = stereo_cli_png16_scale(o, ndisp);
        gcut_image *img = NULL;
        if (gcut_image_new(&img, w, h, 1, 16) != GCUT_OK)
            return cli_fail();
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++) {
                const double q = disp[(size_t)y * w + x] * s + 0.5;
                ((uint16_t *)(void *)(img->data + (size_t)y * img->stride))[x] =
                    (uint16_t)(q > 65535 ? 65535
                               : q < 0   ? 0
                                         : q);
            }
        const gcut_status st = gcut_image_save_png(img, o->png16);
        gcut_image_free(img);
        if (st != GCUT_OK)
            return cli_fail();
    }
    return 0;
}

gcut_status stereo_cli_save_pair(const gcut_image *pic, const gcut_image *img16, const char *path)
{
    gcut_status st = gcut_image_save(pic, path);
    if (st != GCUT_OK)
        return st;
    char *p16 = stereo_cli_path16(path);
    if (!p16)
        return GCUT_ERR_NOMEM;
    st = gcut_image_save(img16, p16);
    free(p16);
    return st;
}

gcut_status stereo_cli_save_disp(const int32_t *disp, int32_t w, int32_t h, double scale,
                                 const char *path)
{
    gcut_image *img8 = NULL, *img16 = NULL;
    gcut_status st = gcut_image_new(&img8, w, h, 1, 8);
    if (st == GCUT_OK)
        st = gcut_image_new(&img16, w, h, 1, 16);
    if (st != GCUT_OK)
        goto done;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            double v = disp[(size_t)y * w + x] * scale + 0.5;
            img8->data[(size_t)y * img8->stride + x] = (uint8_t)(v > 255 ? 255 : v);
            ((uint16_t *)(void *)(img16->data + (size_t)y * img16->stride))[x] =
                (uint16_t)disp[(size_t)y * w + x];
        }
    st = stereo_cli_save_pair(img8, img16, path);
done:
    gcut_image_free(img8);
    gcut_image_free(img16);
    return st;
}
