/*
 * gcut-stereo - disparity map of a rectified stereo pair with graph cuts
 * (alpha-expansion on the energy of gcut/vision/stereo.h), with a progress
 * bar on stderr and, given a ground truth, the Middlebury bad-pixel rates.
 *
 * Output is one `key: value` item per line so that scripts can read it
 * (bench/run-stereo.sh does).
 */
#define GCUT_ALLOW_EXPERIMENTAL /* gcut_stereo_match_lr, for the lr-invalid line */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gcut/gcut.h"
#include "gcut/vision/image.h"
#include "gcut/vision/stereo.h"

static const char usage[] =
    "usage: gcut-stereo [options] LEFT RIGHT --ndisp N\n"
    "Disparity map of a rectified stereo pair (graph cuts, alpha-expansion).\n"
    "\n"
    "energy:\n"
    "  -n, --ndisp N        number of disparities 0 .. N-1 (required)\n"
    "  -c, --cost NAME      data cost: bt (Birchfield-Tomasi, default), ad, census\n"
    "  -s, --smooth NAME    smoothness: tl (truncated linear, default) or potts\n"
    "  -l, --lambda L       smoothness weight in intensity units (default 5)\n"
    "      --trunc T        data cost truncation (default 20)\n"
    "      --tl-trunc T     truncation of the linear term (default 2)\n"
    "      --contrast-threshold T\n"
    "                       neighbours differing by less than T (any channel) are\n"
    "                       a smooth pair (default 8)\n"
    "      --contrast-boost B\n"
    "                       smoothness weight factor of smooth pairs (default 2;\n"
    "                       1: none)\n"
    "      --swap           alpha-beta swap instead of alpha-expansion\n"
    "      --cycles N       at most N cycles (default 20)\n"
    "      --random         random label order (seed 1)\n"
    "  -b, --backend NAME   max-flow back end (default auto)\n"
    "occlusions:\n"
    "      --lr-check       also solve the right view; pixels whose left and right\n"
    "                       disparities disagree, or whose match is outside the\n"
    "                       right image, take the background's disparity (about\n"
    "                       twice the time)\n"
    "      --lr-max-diff D  the two disparities may differ by D (default 1)\n"
    "      --lr-median R    median filter of radius R over the filled pixels\n"
    "                       (0: none; default 1)\n"
    "output:\n"
    "  -o, --out FILE       8-bit PNG of disparity * scale; FILE with -16.png instead of\n"
    "                       .png gets the exact disparities as a 16-bit PNG\n"
    "      --scale S        scale of the 8-bit picture (default 255 / (N - 1))\n"
    "      --gt FILE        ground truth: value / gt-scale is the disparity, 0 unknown;\n"
    "                       print bad-pixel rates at thresholds 1 and 2\n"
    "      --gt-scale S     scale of the ground truth (default 1)\n"
    "      --mask FILE      non-occluded mask (non-zero = counted) for the nonocc rates\n"
    "  -q, --quiet          no progress bar\n"
    "  -h, --help           show this help\n"
    "\n"
    "printed (one item per line): `size: WxH`, `labels: N`, `backend: NAME`,\n"
    "`cycle K: energy E, MS ms`, `cycles: N`, `moves: N`, `energy: E`, `build:`,\n"
    "`solve:`, `total: MS ms`, with --lr-check `lr-invalid: PERCENT %` (the pixels\n"
    "filled; cycles and energies are then the left view's, moves and times both\n"
    "views'), with --gt `bad1-all: PERCENT %`, `bad2-all: PERCENT %` and with\n"
    "--mask `bad1-nonocc:`, `bad2-nonocc:`. Exit status 0 on success, 1 on bad\n"
    "input, 2 on bad usage.\n"
    "\n"
    "example: gcut-stereo imL.png imR.png --ndisp 16 --out disp.png\n";

static int die_usage(const char *msg, const char *arg)
{
    fprintf(stderr, "gcut-stereo: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    fprintf(stderr, "Try 'gcut-stereo --help'.\n");
    return 2;
}

static int fail(void)
{
    fprintf(stderr, "gcut-stereo: %s\n", gcut_last_error());
    return 1;
}

typedef struct progress {
    int enabled;
    int32_t labels, done;
} progress;

/* A one-line bar per cycle on stderr: moves done, the energy, the move time. */
static void on_move(void *user, int32_t cycle, int32_t label, int64_t energy, double ms)
{
    progress *p = user;
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

static int parse_int(const char *s, int32_t lo, int32_t hi, int32_t *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi)
        return 0;
    *out = (int32_t)v;
    return 1;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || !(v > 0))
        return 0;
    *out = v;
    return 1;
}

static gcut_status save_disp(const int32_t *disp, int32_t w, int32_t h, double scale,
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
    st = gcut_image_save(img8, path);
    if (st == GCUT_OK) {
        size_t len = strlen(path);
        char *p16 = malloc(len + 8);
        if (!p16) {
            st = GCUT_ERR_NOMEM;
            goto done;
        }
        memcpy(p16, path, len + 1);
        if (len > 4 && strcmp(p16 + len - 4, ".png") == 0)
            p16[len - 4] = '\0';
        strcat(p16, "-16.png");
        st = gcut_image_save(img16, p16);
        free(p16);
    }
done:
    gcut_image_free(img8);
    gcut_image_free(img16);
    return st;
}

int main(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL}, *out = NULL, *gt_path = NULL, *mask_path = NULL;
    double scale = 0, gt_scale = 1;
    int quiet = 0, nfiles = 0;
    gcut_stereo_params p;
    gcut_stereo_params_init(&p);
    p.ndisp = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_ARG()                                             \
    do {                                                       \
        if (!v)                                                \
            return die_usage("option needs a value", a);       \
        i++;                                                   \
    } while (0)
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(a, "-n") || !strcmp(a, "--ndisp")) {
            NEED_ARG();
            if (!parse_int(v, 2, 1024, &p.ndisp))
                return die_usage("--ndisp must be in 2 .. 1024", v);
        } else if (!strcmp(a, "-c") || !strcmp(a, "--cost")) {
            NEED_ARG();
            if (!strcmp(v, "bt"))
                p.cost = GCUT_STEREO_BT;
            else if (!strcmp(v, "ad"))
                p.cost = GCUT_STEREO_AD;
            else if (!strcmp(v, "census"))
                p.cost = GCUT_STEREO_CENSUS;
            else
                return die_usage("--cost must be bt, ad or census", v);
        } else if (!strcmp(a, "-s") || !strcmp(a, "--smooth")) {
            NEED_ARG();
            if (!strcmp(v, "potts"))
                p.smooth = GCUT_STEREO_POTTS;
            else if (!strcmp(v, "tl"))
                p.smooth = GCUT_STEREO_TL;
            else
                return die_usage("--smooth must be potts or tl", v);
        } else if (!strcmp(a, "-l") || !strcmp(a, "--lambda")) {
            NEED_ARG();
            if (!parse_int(v, 0, 10000, &p.lambda))
                return die_usage("--lambda must be in 0 .. 10000", v);
        } else if (!strcmp(a, "--trunc")) {
            NEED_ARG();
            if (!parse_int(v, 1, 1000, &p.trunc))
                return die_usage("--trunc must be in 1 .. 1000", v);
        } else if (!strcmp(a, "--tl-trunc")) {
            NEED_ARG();
            if (!parse_int(v, 1, 1000, &p.tl_trunc))
                return die_usage("--tl-trunc must be in 1 .. 1000", v);
        } else if (!strcmp(a, "--contrast-threshold")) {
            NEED_ARG();
            if (!parse_int(v, 0, 256, &p.contrast_threshold))
                return die_usage("--contrast-threshold must be in 0 .. 256", v);
        } else if (!strcmp(a, "--contrast-boost")) {
            NEED_ARG();
            if (!parse_int(v, 1, 100, &p.contrast_boost))
                return die_usage("--contrast-boost must be in 1 .. 100", v);
        } else if (!strcmp(a, "--cycles")) {
            NEED_ARG();
            if (!parse_int(v, 1, GCUT_MRF_MAX_CYCLES, &p.mrf.max_cycles))
                return die_usage("--cycles must be in 1 .. 64", v);
        } else if (!strcmp(a, "--swap")) {
            p.use_swap = 1;
        } else if (!strcmp(a, "--lr-check")) {
            p.lr_check = 1;
        } else if (!strcmp(a, "--lr-max-diff")) {
            NEED_ARG();
            if (!parse_int(v, 0, 1024, &p.lr_max_diff))
                return die_usage("--lr-max-diff must be in 0 .. 1024", v);
        } else if (!strcmp(a, "--lr-median")) {
            NEED_ARG();
            if (!parse_int(v, 0, 5, &p.lr_median))
                return die_usage("--lr-median must be in 0 .. 5", v);
        } else if (!strcmp(a, "--random")) {
            p.mrf.random_order = 1;
        } else if (!strcmp(a, "-b") || !strcmp(a, "--backend")) {
            NEED_ARG();
            p.mrf.backend = v;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
            NEED_ARG();
            out = v;
        } else if (!strcmp(a, "--scale")) {
            NEED_ARG();
            if (!parse_double(v, &scale))
                return die_usage("--scale must be > 0", v);
        } else if (!strcmp(a, "--gt")) {
            NEED_ARG();
            gt_path = v;
        } else if (!strcmp(a, "--gt-scale")) {
            NEED_ARG();
            if (!parse_double(v, &gt_scale))
                return die_usage("--gt-scale must be > 0", v);
        } else if (!strcmp(a, "--mask")) {
            NEED_ARG();
            mask_path = v;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            return die_usage("unknown option", a);
        } else {
            if (nfiles == 2)
                return die_usage("more than two images", a);
            files[nfiles++] = a;
        }
#undef NEED_ARG
    }
    if (nfiles != 2)
        return die_usage("need LEFT and RIGHT images", NULL);
    if (p.ndisp == 0)
        return die_usage("--ndisp is required", NULL);
    if (scale == 0)
        scale = 255.0 / (p.ndisp - 1);

    gcut_image *left = NULL, *right = NULL, *gt = NULL, *mask = NULL;
    int32_t *disp = NULL;
    uint8_t *invalid = NULL;
    int rc = 1;
    if (gcut_image_load(files[0], &left) != GCUT_OK || gcut_image_load(files[1], &right) != GCUT_OK)
        goto done;
    if (gt_path && gcut_image_load(gt_path, &gt) != GCUT_OK)
        goto done;
    if (mask_path && gcut_image_load(mask_path, &mask) != GCUT_OK)
        goto done;
    if (gt && (gt->width != left->width || gt->height != left->height)) {
        fprintf(stderr, "gcut-stereo: ground truth is %d x %d, the images %d x %d\n",
                (int)gt->width, (int)gt->height, (int)left->width, (int)left->height);
        rc = 1;
        goto out;
    }
    disp = malloc(sizeof(int32_t) * (size_t)left->width * (size_t)left->height);
    if (!disp)
        goto done;
    progress prog = {!quiet && isatty(2), p.ndisp, 0};
    if (p.use_swap)
        prog.labels = p.ndisp * (p.ndisp - 1) / 2;
    p.mrf.progress = on_move;
    p.mrf.progress_user = &prog;
    gcut_mrf_stats st;
    if (p.lr_check) {
        invalid = malloc((size_t)left->width * (size_t)left->height);
        if (!invalid)
            goto done;
        if (gcut_stereo_match_lr(left, right, &p, disp, NULL, invalid, &st) != GCUT_OK)
            goto done;
    } else if (gcut_stereo_match(left, right, &p, disp, &st) != GCUT_OK) {
        goto done;
    }
    printf("size: %dx%d\n", (int)left->width, (int)left->height);
    printf("labels: %d\n", (int)p.ndisp);
    printf("backend: %s\n", st.backend ? st.backend : "none");
    for (int32_t c = 0; c < st.cycles; c++)
        printf("cycle %d: energy %lld, %.1f ms\n", (int)c + 1, (long long)st.cycle_energy[c],
               st.cycle_ms[c]);
    printf("cycles: %d\n", (int)st.cycles);
    printf("moves: %d\n", (int)st.moves);
    printf("initial-energy: %lld\n", (long long)st.initial_energy);
    printf("energy: %lld\n", (long long)st.energy);
    printf("build: %.1f ms\n", st.build_ms);
    printf("solve: %.1f ms\n", st.solve_ms);
    printf("total: %.1f ms\n", st.total_ms);
    if (invalid) {
        int64_t k = 0, np = (int64_t)left->width * left->height;
        for (int64_t i = 0; i < np; i++)
            k += invalid[i];
        printf("lr-invalid: %.2f %%\n", 100.0 * (double)k / (double)np);
    }
    if (out && save_disp(disp, left->width, left->height, scale, out) != GCUT_OK)
        goto done;
    if (gt) {
        for (int t = 1; t <= 2; t++) {
            double pct;
            if (gcut_stereo_bad_pixels(disp, gt, gt_scale, NULL, t, &pct, NULL) != GCUT_OK)
                goto done;
            printf("bad%d-all: %.2f %%\n", t, pct);
        }
        for (int t = 1; mask && t <= 2; t++) {
            double pct;
            if (gcut_stereo_bad_pixels(disp, gt, gt_scale, mask, t, &pct, NULL) != GCUT_OK)
                goto done;
            printf("bad%d-nonocc: %.2f %%\n", t, pct);
        }
    }
    rc = 0;
    goto out;
done:
    rc = fail();
out:
    free(disp);
    free(invalid);
    gcut_image_free(left);
    gcut_image_free(right);
    gcut_image_free(gt);
    gcut_image_free(mask);
    return rc;
}
