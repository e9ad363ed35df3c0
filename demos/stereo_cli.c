/*
 * stereo_cli.c - the command-line pieces gcut-stereo and gcut-mvs share
 * (see stereo_cli.h): one parser of the two-view energy options, so that
 * both tools accept and reject them alike, and one writer of the outputs,
 * so that scripts read both the same way.
 */
#include "stereo_cli.h"

#include <float.h>
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

/* The integer options: name, short name, range, field. */
typedef struct int_opt {
    const char *name, *abbrev;
    int32_t lo, hi;
    size_t field;
} int_opt;

static const int_opt int_opts[] = {
    {"--ndisp", "-n", 2, 1024, offsetof(stereo_cli, ndisp)},
    {"--lambda", "-l", 0, 10000, offsetof(stereo_cli, lambda)},
    {"--trunc", NULL, 1, 1000, offsetof(stereo_cli, trunc)},
    {"--tl-trunc", NULL, 1, 1000, offsetof(stereo_cli, tl_trunc)},
    {"--contrast-threshold", NULL, 0, 256, offsetof(stereo_cli, contrast_threshold)},
    {"--contrast-boost", NULL, 1, 100, offsetof(stereo_cli, contrast_boost)},
    {"--cycles", NULL, 1, GCUT_MRF_MAX_CYCLES, offsetof(stereo_cli, cycles)},
    {"--threads", "-t", 0, 4096, offsetof(stereo_cli, threads)},
};

/* One of the names, or -1. */
static int pick(const char *v, const char *const *names, int n)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(v, names[k]))
            return k;
    return -1;
}

int stereo_cli_option(int argc, char **argv, int *i, stereo_cli *o)
{
    const char *a = argv[*i];
    const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
        o->quiet = 1;
        return 1;
    }
    const int_opt *io = NULL;
    for (size_t k = 0; k < sizeof(int_opts) / sizeof(int_opts[0]); k++)
        if (!strcmp(a, int_opts[k].name) || (int_opts[k].abbrev && !strcmp(a, int_opts[k].abbrev)))
            io = &int_opts[k];
    static const char *const valued[] = {"-c",    "--cost",   "-s",         "--smooth",
                                         "-b",    "--backend", "--params",  "--time-limit",
                                         "-o",    "--out",    "--scale",    "--gt",
                                         "--gt-scale"};
    if (!io && pick(a, valued, (int)(sizeof(valued) / sizeof(valued[0]))) < 0)
        return 0;
    if (!v) {
        cli_usage_error("option needs a value", a);
        return -1;
    }
    ++*i;
    if (io) {
        if (!cli_parse_int(v, io->lo, io->hi, (int32_t *)(void *)((char *)o + io->field))) {
            char msg[80];
            snprintf(msg, sizeof(msg), "%s must be in %d .. %d", io->name, (int)io->lo,
                     (int)io->hi);
            cli_usage_error(msg, v);
            return -1;
        }
    } else if (!strcmp(a, "-c") || !strcmp(a, "--cost")) {
        static const char *const costs[] = {"bt", "ad", "census"};
        static const int cost_of[] = {GCUT_STEREO_BT, GCUT_STEREO_AD, GCUT_STEREO_CENSUS};
        const int k = pick(v, costs, 3);
        if (k < 0) {
            cli_usage_error("--cost must be bt, ad or census", v);
            return -1;
        }
        o->cost = cost_of[k];
    } else if (!strcmp(a, "-s") || !strcmp(a, "--smooth")) {
        static const char *const smooths[] = {"potts", "tl"};
        static const int smooth_of[] = {GCUT_STEREO_POTTS, GCUT_STEREO_TL};
        const int k = pick(v, smooths, 2);
        if (k < 0) {
            cli_usage_error("--smooth must be potts or tl", v);
            return -1;
        }
        o->smooth = smooth_of[k];
    } else if (!strcmp(a, "-b") || !strcmp(a, "--backend")) {
        o->backend = v;
    } else if (!strcmp(a, "--params")) {
        o->params = v;
    } else if (!strcmp(a, "--time-limit")) {
        if (!cli_parse_double(v, 0, 1e9, &o->time_limit) || !(o->time_limit > 0)) {
            cli_usage_error("--time-limit must be > 0 seconds", v);
            return -1;
        }
    } else if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
        o->out = v;
    } else if (!strcmp(a, "--gt")) {
        o->gt_path = v;
    } else {
        const int gts = !strcmp(a, "--gt-scale");
        double x;
        if (!cli_parse_double(v, 0, DBL_MAX, &x) || !(x > 0)) {
            cli_usage_error(gts ? "--gt-scale must be > 0" : "--scale must be > 0", v);
            return -1;
        }
        *(gts ? &o->gt_scale : &o->scale) = x;
    }
    return 1;
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
    if (o->backend)
        s->mrf->solve.backend = o->backend;
    s->mrf->solve.threads = o->threads;
    s->mrf->solve.params = o->params;
    if (o->time_limit > 0)
        s->mrf->solve.time_limit = o->time_limit;
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

/* A one-line bar per cycle on stderr: moves done, the energy, the move time. */
void stereo_cli_on_move(void *user, int32_t cycle, int32_t label, int64_t energy, double ms)
{
    stereo_cli_progress *p = user;
    if (!p->enabled)
        return;
    p->done = p->done % p->labels + 1;
    int32_t width = 30, fill = (int32_t)((int64_t)width * p->done / p->labels);
    fprintf(stderr, "\rcycle %d [%.*s%*s] %d/%d label %d energy %lld (%.1f ms)   ", (int)cycle,
            (int)fill, "##############################", (int)(width - fill), "", (int)p->done,
            (int)p->labels, (int)label, (long long)energy, ms);
    if (p->done == p->labels)
        fputc('\n', stderr);
}

void stereo_cli_print_stats(const gcut_mrf_stats *st)
{
    fprintf(cli_report(), "backend: %s\n", st->backend ? st->backend : "none");
    for (int32_t c = 0; c < st->cycles; c++)
        fprintf(cli_report(), "cycle %d: energy %lld, %.1f ms\n", (int)c + 1,
                (long long)st->cycle_energy[c], st->cycle_ms[c]);
    fprintf(cli_report(), "cycles: %d\n", (int)st->cycles);
    fprintf(cli_report(), "moves: %d\n", (int)st->moves);
    fprintf(cli_report(), "initial-energy: %lld\n", (long long)st->initial_energy);
    fprintf(cli_report(), "energy: %lld\n", (long long)st->energy);
    fprintf(cli_report(), "build: %.1f ms\n", st->build_ms);
    fprintf(cli_report(), "solve: %.1f ms\n", st->solve_ms);
    fprintf(cli_report(), "total: %.1f ms\n", st->total_ms);
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
            fprintf(cli_report(), "bad%d-%s: %.2f %%\n", t, pass ? "nonocc" : "all", pct);
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

int stereo_cli_check_outputs(const stereo_cli *o, const char *extra, const char *const *ins,
                             size_t nin)
{
    if (o->out && (!strcmp(o->out, "-") || !strcmp(o->out, "/dev/stdout")))
        return cli_usage_error("--out writes two pictures (PATH and PATH-16.png): give a file "
                               "name, not -",
                               NULL);
    char *p16 = o->out ? stereo_cli_path16(o->out) : NULL;
    if (o->out && !p16) {
        fprintf(stderr, "%s: out of memory\n", cli_prog());
        return 1;
    }
    const char *outs[] = {o->out, p16, extra};
    int rc = cli_check_outputs(outs, 3, ins, nin);
    free(p16);
    return rc;
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
