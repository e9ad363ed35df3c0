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

#include "gcut/gcut.h"
#include "gcut/vision/image.h"
#include "gcut/vision/stereo.h"
#include "stereo_cli.h"

static const char usage[] =
    "usage: gcut-stereo [options] LEFT RIGHT --ndisp N\n"
    "Disparity map of a rectified stereo pair (graph cuts, alpha-expansion).\n"
    "\n"
    "energy:\n"
    "  -n, --ndisp N        number of disparities 0 .. N-1 (required)\n"
    "  -c, --cost NAME      data cost: census (5x5, default), bt (Birchfield-Tomasi),\n"
    "                       ad\n"
    "  -s, --smooth NAME    smoothness: tl (truncated linear, default) or potts\n"
    "  -l, --lambda L       smoothness weight in intensity units (default 10)\n"
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
    "      --time-limit S   give up a move's cut after S seconds\n"
    "occlusions:\n"
    "      --lr-check       also solve the right view (the default); pixels whose\n"
    "                       left and right disparities disagree, or whose match is\n"
    "                       outside the right image, take the background's\n"
    "                       disparity (about twice the time of one view)\n"
    "      --no-lr-check    the left view only\n"
    "      --lr-max-diff D  the two disparities may differ by D (default 1)\n"
    "      --lr-median R    median filter of radius R over the filled pixels\n"
    "                       (0: none; default 1)\n"
    "speed:\n"
    "      --coarse N       coarse-to-fine start: solve the energy on blocks of\n"
    "                       2^N .. 2 pixels first (0: none, the start before)\n"
    "      --lr-warm-start  the right view starts from the left view's result\n"
    "      --no-lr-warm-start  each view from its own start\n"
    "output:\n"
    "  -o, --out FILE       8-bit PNG of disparity * scale; FILE with -16.png instead of\n"
    "                       .png gets the exact disparities as a 16-bit PNG; FILE.pfm:\n"
    "                       a PFM instead (as --pfm)\n"
    "      --scale S        scale of the 8-bit picture (default 255 / (N - 1))\n"
    "      --pfm FILE       disparities as floats, Middlebury PFM (\"Pf\", W H, -1.0:\n"
    "                       little-endian, rows bottom to top; unknown: +inf; - stdout)\n"
    "      --png16 FILE     16-bit PNG of disparity * S, S = --png16-scale or by default\n"
    "                       floor(65535 / (N - 1)) (largest disparity near white;\n"
    "                       printed as `png16-scale: S`; - stdout)\n"
    "      --png16-scale S  scale of --png16 (256: the KITTI convention)\n"
    "      --gt FILE        ground truth: value / gt-scale is the disparity, 0 unknown;\n"
    "                       print bad-pixel rates at thresholds 1 and 2\n"
    "      --gt-scale S     scale of the ground truth (default 1)\n"
    "      --mask FILE      non-occluded mask (non-zero = counted) for the nonocc rates\n"
    "\n"
    "printed (one item per line): `size: WxH`, `labels: N`, `backend: NAME`,\n"
    "`cycle K: energy E, MS ms`, `cycles: N`, `moves: N`, `energy: E`, `build:`,\n"
    "`solve:`, `total: MS ms`, with the check `lr-invalid: PERCENT %` (the pixels\n"
    "filled; cycles and energies are then the left view's, moves and times both\n"
    "views'), with --gt `bad1-all: PERCENT %`, `bad2-all: PERCENT %` and with\n"
    "--mask `bad1-nonocc:`, `bad2-nonocc:`. --json: {\"width\", \"height\", \"labels\",\n"
    "\"backend\", \"cycle\": [{\"energy\", \"ms\"}], \"cycles\", \"moves\", \"initial_energy\",\n"
    "\"energy\", \"build_ms\", \"solve_ms\", \"total_ms\", [\"lr_invalid_pct\"],\n"
    "[\"bad1_all_pct\", \"bad2_all_pct\", \"bad1_nonocc_pct\", \"bad2_nonocc_pct\"],\n"
    "[\"png16_scale\"], \"status\"}. Exit status 0 on success, 1 on bad input, 2 on bad\n"
    "usage.\n"
    "\n"
    "example: gcut-stereo imL.png imR.png --ndisp 16 --out disp.png\n";

static const char prog[] = "gcut-stereo";

typedef struct args {
    gcut_stereo_options p;
    const char *mask_path;
} args;

enum {
    OPT_SWAP = CLI_KEY,
    OPT_LR_CHECK,
    OPT_NO_LR_CHECK,
    OPT_LR_MAX_DIFF,
    OPT_LR_MEDIAN,
    OPT_RANDOM,
    OPT_COARSE,
    OPT_LR_WARM,
    OPT_NO_LR_WARM,
    OPT_MASK
};

static int take_option(int key, const char *v, void *user)
{
    args *a = user;
    switch (key) {
    case OPT_SWAP:
        a->p.use_swap = 1;
        break;
    case OPT_LR_CHECK:
        a->p.lr_check = 1;
        break;
    case OPT_NO_LR_CHECK:
        a->p.lr_check = 0;
        break;
    case OPT_LR_MAX_DIFF:
        if (!cli_parse_int(v, 0, 1024, &a->p.lr_max_diff))
            return cli_usage_error("--lr-max-diff must be in 0 .. 1024", v);
        break;
    case OPT_LR_MEDIAN:
        if (!cli_parse_int(v, 0, 5, &a->p.lr_median))
            return cli_usage_error("--lr-median must be in 0 .. 5", v);
        break;
    case OPT_RANDOM:
        a->p.mrf.random_order = 1;
        break;
    case OPT_COARSE:
        if (!cli_parse_int(v, 0, 8, &a->p.coarse_levels))
            return cli_usage_error("--coarse must be in 0 .. 8", v);
        break;
    case OPT_LR_WARM:
        a->p.lr_warm_start = 1;
        break;
    case OPT_NO_LR_WARM:
        a->p.lr_warm_start = 0;
        break;
    default: /* OPT_MASK */
        a->mask_path = v;
        break;
    }
    return 0;
}

int main(int argc, char **argv)
{
    cli_init(prog, usage);
    const char *files[2] = {NULL, NULL};
    int nfiles = 0;
    stereo_cli o;
    stereo_cli_init(&o);
    args a = {.mask_path = NULL};
    gcut_stereo_options_init(&a.p);
    static const struct option longopts[] = {
        {"swap", no_argument, NULL, OPT_SWAP},
        {"lr-check", no_argument, NULL, OPT_LR_CHECK},
        {"no-lr-check", no_argument, NULL, OPT_NO_LR_CHECK},
        {"lr-max-diff", required_argument, NULL, OPT_LR_MAX_DIFF},
        {"lr-median", required_argument, NULL, OPT_LR_MEDIAN},
        {"random", no_argument, NULL, OPT_RANDOM},
        {"coarse", required_argument, NULL, OPT_COARSE},
        {"lr-warm-start", no_argument, NULL, OPT_LR_WARM},
        {"no-lr-warm-start", no_argument, NULL, OPT_NO_LR_WARM},
        {"mask", required_argument, NULL, OPT_MASK},
        {NULL, 0, NULL, 0}};
    const cli_opts group = {"", longopts, take_option, &a};
    int first, prc = stereo_cli_parse(argc, argv, &group, &o, &first);
    if (prc)
        return prc < 0 ? 0 : prc;
    gcut_stereo_options p = a.p;
    const char *mask_path = a.mask_path;
    for (; first < argc; first++) {
        if (nfiles == 2)
            return cli_usage_error("more than two images", argv[first]);
        files[nfiles++] = argv[first];
    }
    if (nfiles != 2)
        return cli_usage_error("need LEFT and RIGHT images", NULL);
    if (o.ndisp == 0)
        return cli_usage_error("--ndisp is required", NULL);
    {
        const char *ins[] = {files[0], files[1], o.gt_path, mask_path};
        int bad = stereo_cli_check_outputs(&o, NULL, ins, 4);
        if (bad)
            return bad;
    }
    stereo_cli_apply(&o, &p);

    gcut_image *left = NULL, *right = NULL, *gt = NULL, *mask = NULL;
    int32_t *disp = NULL;
    uint8_t *invalid = NULL;
    int rc = 1;
    cli_progress_draw(-1, "load", NULL);
    if (gcut_image_load(files[0], &left) != GCUT_OK || gcut_image_load(files[1], &right) != GCUT_OK)
        goto done;
    if (o.gt_path && gcut_image_load(o.gt_path, &gt) != GCUT_OK)
        goto done;
    if (mask_path && gcut_image_load(mask_path, &mask) != GCUT_OK)
        goto done;
    if (!stereo_cli_check_gt(gt, left->width, left->height, "the images"))
        goto out;
    disp = malloc(sizeof(int32_t) * (size_t)left->width * (size_t)left->height);
    if (!disp)
        goto done;
    stereo_cli_progress bar;
    stereo_cli_progress_on(&p.mrf, &bar, p.use_swap ? p.ndisp * (p.ndisp - 1) / 2 : p.ndisp);
    cli_progress_draw(-1, "data costs", NULL);
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
    cli_progress_clear();
    if (cli_json()) {
        cli_json_int("width", left->width);
        cli_json_int("height", left->height);
    } else {
        fprintf(cli_report(), "size: %dx%d\n", (int)left->width, (int)left->height);
    }
    cli_put_int("labels", p.ndisp);
    stereo_cli_print_stats(&st);
    if (invalid) {
        int64_t k = 0, np = (int64_t)left->width * left->height;
        for (int64_t i = 0; i < np; i++)
            k += invalid[i];
        cli_put_pct("lr-invalid", 100.0 * (double)k / (double)np, 2);
    }
    if (o.png16)
        cli_put_num("png16-scale", stereo_cli_png16_scale(&o, p.ndisp), "%g");
    if (stereo_cli_save_outputs(&o, disp, left->width, left->height, p.ndisp) != 0)
        goto out;
    if (gt && stereo_cli_print_bad(disp, gt, o.gt_scale, mask) != GCUT_OK)
        goto done;
    rc = 0;
    goto out;
done:
    rc = cli_fail();
out:
    free(disp);
    free(invalid);
    gcut_image_free(left);
    gcut_image_free(right);
    gcut_image_free(gt);
    gcut_image_free(mask);
    return cli_finish(rc);
}
