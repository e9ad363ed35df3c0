/*
 * gcut-mvs - multi-view stereo with graph cuts (gcut/vision/mvs.h), in two
 * modes:
 *  - multi-baseline: rectified views on a line, the reference being the
 *    view of baseline 0; disparity map, bad-pixel rates against a ground
 *    truth, as gcut-stereo;
 *  - plane sweep: calibrated cameras (a Middlebury *_par.txt), a depth map
 *    of one reference image from its nearest neighbours, as a colour-mapped
 *    PNG, a 16-bit PNG and optionally a PLY point cloud.
 *
 * Output is one `key: value` item per line so that scripts can read it
 * (bench/run-mvs.sh does); the progress bar goes to stderr.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcut/gcut.h"
#include "gcut/vision/image.h"
#include "gcut/vision/mvs.h"
#include "gcut/vision/stereo.h"
#include "stereo_cli.h"

static const char usage[] =
    "usage: gcut-mvs --views V1,V2,... --baselines B1,B2,... --ndisp N [options]\n"
    "       gcut-mvs --cameras PAR.txt --ref NAME [options]\n"
    "Multi-view stereo with graph cuts (alpha-expansion).\n"
    "\n"
    "multi-baseline (rectified views on a line):\n"
    "  --views LIST         comma-separated images, all of one size\n"
    "  --baselines LIST     one signed factor per view: the reference pixel (x, y) at\n"
    "                       disparity d is seen in a view at (x - b * d, y); exactly\n"
    "                       one view has b = 0: the reference\n"
    "  -n, --ndisp N        number of disparities 0 .. N-1 (required)\n"
    "  -c, --cost NAME      per-view cost: bt (default), ad, census\n"
    "      --trunc T        per-view cost truncation (default 20)\n"
    "      --gt FILE        ground truth of the reference: value / gt-scale is the\n"
    "                       disparity, 0 unknown; print bad-pixel rates (1 and 2)\n"
    "      --gt-scale S     scale of the ground truth (default 1)\n"
    "      --scale S        scale of the 8-bit picture (default 255 / (N - 1))\n"
    "plane sweep (calibrated cameras):\n"
    "  --cameras FILE       Middlebury camera file (*_par.txt: name, K, R, t per image)\n"
    "  --ref NAME           the reference image (a name in FILE)\n"
    "  --images DIR         folder of the images (default: the camera file's)\n"
    "  --neighbours N       views matched: the N nearest camera centres (default 4)\n"
    "  --depths N           depth labels, uniform in inverse depth (default 96)\n"
    "  --bbox X0,Y0,Z0,X1,Y1,Z1\n"
    "                       world box of the object: sets the depth range\n"
    "  --depth-range NEAR,FAR\n"
    "                       depth range (default: the box, else 0.75 .. 1.25 x the\n"
    "                       depth where the cameras' optical axes converge)\n"
    "  --radius R           NCC window (2R+1)^2 (default 2)\n"
    "  --ncc-trunc T        1 - NCC truncation in 1/100 (default 60)\n"
    "  --mask-threshold T   mask reference pixels whose channels are all <= T\n"
    "                       (black background; default: no mask)\n"
    "  --ply FILE           write the depth map as a coloured point cloud (PLY)\n"
    "                       (FILE -: stdout, the report then on stderr)\n"
    "both:\n"
    "      --combine NAME   how per-view costs combine (means weighted by |baseline|):\n"
    "                       side (all, left or right views, the least; multi-baseline\n"
    "                       default), best (the best half; sweep default), mean (all)\n"
    "      --keep K         views kept by best (default: half, rounded up)\n"
    "  -s, --smooth NAME    smoothness: tl (truncated linear, default) or potts\n"
    "  -l, --lambda L       smoothness weight (default 5 multi-baseline, 12 sweep)\n"
    "      --tl-trunc T     truncation of the linear term (default 2 / 3)\n"
    "      --contrast-threshold T, --contrast-boost B\n"
    "                       smooth pairs and their weight factor (default 8, 2)\n"
    "      --cycles N       at most N cycles (default 20)\n"
    "  -b, --backend NAME   max-flow back end (default auto)\n"
    "      --time-limit S   give up a move's cut after S seconds\n"
    "  -o, --out FILE       picture PNG (multi-baseline: disparity * scale, gray;\n"
    "                       sweep: colour-mapped depth, red nearest, blue farthest\n"
    "                       label used, black masked) and FILE with -16.png instead of .png: "
    "16-bit\n"
    "                       (disparity; sweep: depth * depth16-scale, 0 masked);\n"
    "                       FILE.pfm: a PFM instead (as --pfm)\n"
    "      --pfm FILE       Middlebury PFM of the disparities (sweep: the depths,\n"
    "                       masked +inf): floats, rows bottom to top; - stdout\n"
    "      --png16 FILE     multi-baseline: 16-bit PNG of disparity * S, S =\n"
    "                       --png16-scale or floor(65535 / (N - 1)); - stdout\n"
    "      --png16-scale S  scale of --png16\n"
    "\n"
    "printed (one item per line): `size: WxH`, `views: K`, `labels: N`, `backend:`,\n"
    "`cycle K: energy E, MS ms`, `cycles:`, `moves:`, `initial-energy:`, `energy: E`,\n"
    "`build:`, `solve:`, `total: MS ms` (the moves), `wall: MS ms` (costs and moves);\n"
    "with --gt `bad1-all: PERCENT %`, `bad2-all: PERCENT %`; sweep: `neighbours:`,\n"
    "`depth-range: NEAR FAR`, `masked: N`, `depth16-scale: S`. --json: the same\n"
    "figures as one object ({\"width\", \"height\", \"views\", \"reference\", \"labels\",\n"
    "\"backend\", \"cycle\": [{\"energy\", \"ms\"}], \"cycles\", \"moves\", \"initial_energy\",\n"
    "\"energy\", \"build_ms\", \"solve_ms\", \"total_ms\", \"wall_ms\", [\"bad1_all_pct\", ...];\n"
    "sweep: \"neighbours\": [NAME ...], \"znear\", \"zfar\", \"masked\", \"depth16_scale\"},\n"
    "\"status\"). Exit status 0 on success, 1 on bad input, 2 on bad usage.\n"
    "\n"
    "examples:\n"
    "  gcut-mvs --views c1.ppm,c2.ppm,c3.ppm,c4.ppm,c5.ppm --baselines -2,-1,0,1,2 \\\n"
    "           --ndisp 16 --gt truedisp.pgm --gt-scale 16 --out disp.png\n"
    "  gcut-mvs --cameras templeSR_par.txt --ref templeSR0001.png --mask-threshold 20 \\\n"
    "           --out depth.png --ply temple.ply\n";

static const char prog[] = "gcut-mvs";

/* Comma-separated doubles: the count, or -1 on a bad number or more than max. */
static int parse_doubles(const char *s, double *out, int max)
{
    int n = 0;
    const char *p = s;
    for (;;) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || !isfinite(v) || n == max)
            return -1;
        out[n++] = v;
        if (*end == '\0')
            return n;
        if (*end != ',')
            return -1;
        p = end + 1;
    }
}

/* Split a comma-separated list in place; the count, or -1 on an empty item. */
static int split(char *s, char **out, int max)
{
    int n = 0;
    for (char *p = s;;) {
        char *c = strchr(p, ',');
        if (c)
            *c = '\0';
        if (*p == '\0' || n == max)
            return -1;
        out[n++] = p;
        if (!c)
            return n;
        p = c + 1;
    }
}

/* A colour map for t in [0, 1]: blue, cyan, green, yellow, red. */
static void colour(double t, uint8_t rgb[3])
{
    static const double stop[5][3] = {
        {0.10, 0.15, 0.85}, {0.05, 0.80, 0.90}, {0.20, 0.85, 0.20}, {0.95, 0.90, 0.10},
        {0.90, 0.10, 0.05}};
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    const double s = t * 4;
    int i = (int)s;
    i = i > 3 ? 3 : i;
    const double f = s - i;
    for (int k = 0; k < 3; k++)
        rgb[k] = (uint8_t)(255 * ((1 - f) * stop[i][k] + f * stop[i + 1][k]) + 0.5);
}

static gcut_status save_depth(const int32_t *labels, const double *depth, int32_t w, int32_t h,
                              int32_t L, double scale16, const char *path)
{
    gcut_image *rgb = NULL, *img16 = NULL;
    gcut_status st = gcut_image_new(&rgb, w, h, 3, 8);
    if (st == GCUT_OK)
        st = gcut_image_new(&img16, w, h, 1, 16);
    if (st != GCUT_OK)
        goto done;
    /* The colours span the labels used, so that the object's relief shows
     * even when the box's depth range is much larger. */
    int32_t lo = L, hi = -1;
    for (int64_t i = 0; i < (int64_t)w * h; i++)
        if (labels[i] >= 0) {
            lo = labels[i] < lo ? labels[i] : lo;
            hi = labels[i] > hi ? labels[i] : hi;
        }
    const double span = hi > lo ? hi - lo : 1;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            const size_t i = (size_t)y * w + x;
            uint8_t *o = rgb->data + (size_t)y * rgb->stride + 3 * (size_t)x;
            uint16_t *o16 = (uint16_t *)(void *)(img16->data + (size_t)y * img16->stride) + x;
            if (labels[i] < 0) {
                o[0] = o[1] = o[2] = 0;
                *o16 = 0;
                continue;
            }
            colour((labels[i] - lo) / span, o);
            const double v = depth[i] * scale16 + 0.5;
            *o16 = (uint16_t)(v > 65535 ? 65535 : v);
        }
    st = stereo_cli_save_pair(rgb, img16, path);
done:
    gcut_image_free(rgb);
    gcut_image_free(img16);
    return st;
}

static int save_ply(const char *path, const gcut_camera *cam, const gcut_image *img,
                    const double *depth)
{
    const int32_t w = img->width, h = img->height;
    int64_t n = 0;
    for (int64_t i = 0; i < (int64_t)w * h; i++)
        n += depth[i] > 0;
    FILE *f = cli_open_output(path);
    if (!f)
        return 0;
    fprintf(f, "ply\nformat ascii 1.0\ncomment gcut-mvs depth map of %s\nelement vertex %lld\n"
               "property float x\nproperty float y\nproperty float z\nproperty uchar red\n"
               "property uchar green\nproperty uchar blue\nend_header\n",
            cam->name, (long long)n);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            const double z = depth[(size_t)y * w + x];
            if (!(z > 0))
                continue;
            double X[3];
            gcut_camera_unproject(cam, x, y, z, X);
            const uint8_t *p = img->data + (size_t)y * img->stride;
            int r, g, b;
            if (img->depth == 16) {
                const uint16_t *q = (const uint16_t *)(const void *)p + (size_t)x * img->channels;
                r = q[0] >> 8;
                g = q[img->channels >= 3 ? 1 : 0] >> 8;
                b = q[img->channels >= 3 ? 2 : 0] >> 8;
            } else {
                const uint8_t *q = p + (size_t)x * img->channels;
                r = q[0];
                g = q[img->channels >= 3 ? 1 : 0];
                b = q[img->channels >= 3 ? 2 : 0];
            }
            fprintf(f, "%.6g %.6g %.6g %d %d %d\n", X[0], X[1], X[2], r, g, b);
        }
    return cli_close_output(f, path) == 0;
}

/* The lines of the solve, then the wall time of costs and moves. */
static void print_stats(const gcut_mrf_stats *st, double wall)
{
    stereo_cli_print_stats(st);
    cli_put_ms("wall", wall, 1);
}

/* The first lines of both modes. */
static void print_head(int32_t w, int32_t h, int nv, const char *ref)
{
    cli_progress_clear();
    if (cli_json()) {
        cli_json_int("width", w);
        cli_json_int("height", h);
    } else {
        fprintf(cli_report(), "size: %dx%d\n", (int)w, (int)h);
    }
    cli_put_int("views", nv);
    cli_put_str("reference", ref);
}

static void free_images(gcut_image **img, int n)
{
    for (int i = 0; i < n; i++)
        gcut_image_free(img[i]);
}

/* Options of both modes, as parsed. */
typedef struct cli {
    stereo_cli s; /* the options gcut-stereo has too */
    char *views_arg, *baselines_arg, *cameras, *ref, *images_dir, *bbox_arg, *range_arg;
    const char *ply;
    int32_t neighbours, depths, radius, ncc_trunc, mask_threshold, keep;
    int combine;
} cli;

enum { MAX_VIEWS = 64 };

static int run_mbs(cli *o)
{
    char *names[MAX_VIEWS];
    double base[MAX_VIEWS];
    const int nv = split(o->views_arg, names, MAX_VIEWS);
    if (nv < 2)
        return cli_usage_error("--views needs 2 .. 64 comma-separated images", NULL);
    const int nb = parse_doubles(o->baselines_arg, base, MAX_VIEWS);
    if (nb < 0)
        return cli_usage_error("--baselines must be comma-separated numbers", o->baselines_arg);
    if (nb != nv) {
        fprintf(stderr, "%s: %d views but %d baselines\n", prog, nv, nb);
        return 2;
    }
    int ref = -1;
    for (int i = 0; i < nv; i++)
        if (base[i] == 0) {
            if (ref >= 0)
                return cli_usage_error("more than one view has baseline 0 (the reference)", NULL);
            ref = i;
        }
    if (ref < 0)
        return cli_usage_error("no view has baseline 0: give the reference baseline 0", NULL);
    if (o->s.ndisp == 0)
        return cli_usage_error("--ndisp is required", NULL);
    if (o->keep > nv - 1)
        return cli_usage_error("--keep is more than the views other than the reference", NULL);
    {
        const char *ins[MAX_VIEWS + 1];
        for (int i = 0; i < nv; i++)
            ins[i] = names[i];
        ins[nv] = o->s.gt_path;
        int bad = stereo_cli_check_outputs(&o->s, o->ply, ins, (size_t)nv + 1);
        if (bad)
            return bad;
    }

    gcut_mbs_options p;
    gcut_mbs_options_init(&p);
    stereo_cli_apply(&o->s, &p.stereo);
    if (o->combine >= 0)
        p.combine = (gcut_mvs_combine)o->combine;
    p.keep = o->keep;

    gcut_image *img[MAX_VIEWS] = {NULL}, *gt = NULL;
    const gcut_image *others[MAX_VIEWS];
    double obase[MAX_VIEWS];
    int32_t *disp = NULL;
    int rc = 1;
    for (int i = 0; i < nv; i++)
        if (gcut_image_load(names[i], &img[i]) != GCUT_OK)
            goto fail;
    if (o->s.gt_path && gcut_image_load(o->s.gt_path, &gt) != GCUT_OK)
        goto fail;
    const int32_t w = img[ref]->width, h = img[ref]->height;
    if (!stereo_cli_check_gt(gt, w, h, "the reference"))
        goto out;
    int k = 0;
    for (int i = 0; i < nv; i++)
        if (i != ref) {
            others[k] = img[i];
            obase[k++] = base[i];
        }
    disp = malloc(sizeof(int32_t) * (size_t)w * (size_t)h);
    if (!disp)
        goto fail;
    stereo_cli_progress bar;
    stereo_cli_progress_on(&p.stereo.mrf, &bar, p.stereo.ndisp);
    cli_progress_draw(-1, "data costs", NULL);
    gcut_mrf_stats st;
    const double t0 = cli_now_ms();
    if (gcut_mbs_match(img[ref], others, obase, nv - 1, &p, disp, &st) != GCUT_OK)
        goto fail;
    const double wall = cli_now_ms() - t0;
    print_head(w, h, nv, names[ref]);
    cli_put_int("labels", p.stereo.ndisp);
    print_stats(&st, wall);
    if (o->s.png16)
        cli_put_num("png16-scale", stereo_cli_png16_scale(&o->s, p.stereo.ndisp), "%g");
    if (stereo_cli_save_outputs(&o->s, disp, w, h, p.stereo.ndisp) != 0)
        goto out;
    if (gt && stereo_cli_print_bad(disp, gt, o->s.gt_scale, NULL) != GCUT_OK)
        goto fail;
    rc = 0;
    goto out;
fail:
    rc = cli_fail();
out:
    free(disp);
    free_images(img, nv);
    gcut_image_free(gt);
    return rc;
}

/* DIR/NAME into a new string. */
static char *join(const char *dir, const char *name)
{
    const size_t a = strlen(dir), b = strlen(name);
    char *s = malloc(a + b + 2);
    if (!s)
        return NULL;
    memcpy(s, dir, a);
    s[a] = '/';
    memcpy(s + a + 1, name, b + 1);
    return s;
}

static int run_sweep(cli *o)
{
    if (!o->ref)
        return cli_usage_error("--cameras needs --ref NAME", NULL);
    if (o->s.gt_path)
        return cli_usage_error("--gt applies to multi-baseline only (no depth ground truth here)", NULL);
    if (o->combine == GCUT_MVS_SIDE)
        return cli_usage_error("--combine side applies to multi-baseline only", NULL);
    if (o->s.png16)
        return cli_usage_error("--png16 applies to multi-baseline only (sweep: --out gives "
                               "FILE-16.png of the depths)",
                               NULL);
    double box[6], range[2];
    if (o->bbox_arg && parse_doubles(o->bbox_arg, box, 6) != 6)
        return cli_usage_error("--bbox needs 6 comma-separated numbers", o->bbox_arg);
    if (o->range_arg && (parse_doubles(o->range_arg, range, 2) != 2 || !(range[0] > 0) ||
                         !(range[1] > range[0])))
        return cli_usage_error("--depth-range needs NEAR,FAR with 0 < NEAR < FAR", o->range_arg);

    gcut_camera *cams = NULL, sel[MAX_VIEWS];
    int32_t ncam = 0, nb[MAX_VIEWS];
    gcut_image *img[MAX_VIEWS] = {NULL};
    int32_t *labels = NULL;
    double *depth = NULL;
    char *dir = NULL;
    int rc = 1, nv = 0;
    {
        const char *ins[] = {o->cameras};
        int bad = stereo_cli_check_outputs(&o->s, o->ply, ins, 1);
        if (bad)
            return bad;
    }
    if (gcut_cameras_load(o->cameras, &cams, &ncam) != GCUT_OK)
        goto fail;
    int32_t ref = -1;
    for (int32_t i = 0; i < ncam; i++)
        if (!strcmp(cams[i].name, o->ref))
            ref = i;
    if (ref < 0) {
        fprintf(stderr, "%s: %s: no camera named %s\n", prog, o->cameras, o->ref);
        goto out;
    }
    if (o->neighbours > ncam - 1 || o->neighbours > MAX_VIEWS - 1) {
        fprintf(stderr, "%s: %d neighbours asked, %s has %d other cameras\n", prog,
                (int)o->neighbours, o->cameras, (int)ncam - 1);
        goto out;
    }
    if (gcut_sweep_neighbours(cams, ncam, ref, o->neighbours, nb) != GCUT_OK)
        goto fail;
    gcut_sweep_options p;
    gcut_sweep_options_init(&p);
    if (o->range_arg) {
        p.znear = range[0];
        p.zfar = range[1];
    } else if (o->bbox_arg) {
        if (gcut_sweep_range_box(&cams[ref], box, box + 3, &p.znear, &p.zfar) != GCUT_OK)
            goto fail;
    } else if (gcut_sweep_range_auto(cams, ncam, ref, &p.znear, &p.zfar) != GCUT_OK) {
        goto fail;
    }
    if (o->depths > 0)
        p.ndepth = o->depths;
    if (o->radius >= 0)
        p.radius = o->radius;
    if (o->ncc_trunc > 0)
        p.ncc_trunc = o->ncc_trunc;
    p.mask_threshold = o->mask_threshold;
    p.keep = o->keep;
    if (o->combine == GCUT_MVS_MEAN)
        p.keep = o->neighbours;
    stereo_cli_smooth sm = {&p.smooth, &p.lambda, &p.tl_trunc, &p.contrast_threshold,
                            &p.contrast_boost, &p.mrf};
    stereo_cli_apply_smooth(&o->s, &sm);

    if (o->images_dir) {
        dir = strdup(o->images_dir);
    } else {
        dir = strdup(o->cameras);
        if (dir) {
            char *slash = strrchr(dir, '/');
            if (slash)
                *slash = '\0';
            else
                strcpy(dir, ".");
        }
    }
    if (!dir)
        goto fail;
    nv = 1 + o->neighbours;
    for (int i = 0; i < nv; i++) {
        sel[i] = cams[i == 0 ? ref : nb[i - 1]];
        char *path = join(dir, sel[i].name);
        if (!path)
            goto fail;
        const char *ins[] = {path};
        if ((rc = stereo_cli_check_outputs(&o->s, o->ply, ins, 1)) != 0) {
            free(path);
            goto out;
        }
        rc = 1;
        const gcut_status s = gcut_image_load(path, &img[i]);
        free(path);
        if (s != GCUT_OK)
            goto fail;
    }
    const int32_t w = img[0]->width, h = img[0]->height;
    labels = malloc(sizeof(int32_t) * (size_t)w * h);
    depth = malloc(sizeof(double) * (size_t)w * h);
    if (!labels || !depth)
        goto fail;
    stereo_cli_progress bar;
    stereo_cli_progress_on(&p.mrf, &bar, p.ndepth);
    cli_progress_draw(-1, "plane sweep", NULL);
    gcut_mrf_stats st;
    const double t0 = cli_now_ms();
    if (gcut_sweep_depth((const gcut_image *const *)img, sel, nv, &p, labels, depth, &st) !=
        GCUT_OK)
        goto fail;
    const double wall = cli_now_ms() - t0;
    int64_t masked = 0;
    for (int64_t i = 0; i < (int64_t)w * h; i++)
        masked += labels[i] < 0;
    print_head(w, h, nv, sel[0].name);
    fprintf(cli_report(), "neighbours:");
    cli_json_begin_array("neighbours");
    for (int i = 1; i < nv; i++) {
        fprintf(cli_report(), " %s", sel[i].name);
        cli_json_str(NULL, sel[i].name);
    }
    cli_json_end();
    fprintf(cli_report(), "\n");
    fprintf(cli_report(), "depth-range: %.6g %.6g\n", p.znear, p.zfar);
    cli_json_num("znear", p.znear);
    cli_json_num("zfar", p.zfar);
    cli_put_int("labels", p.ndepth);
    cli_put_int("masked", (long long)masked);
    print_stats(&st, wall);
    const double scale16 = 65535.0 / p.zfar;
    cli_put_num("depth16-scale", scale16, "%.6g");
    const int out_pfm = o->s.out && stereo_cli_is_pfm(o->s.out);
    if (o->s.out && !out_pfm &&
        save_depth(labels, depth, w, h, p.ndepth, scale16, o->s.out) != GCUT_OK)
        goto fail;
    if (out_pfm || o->s.pfm) {
        float *v = malloc(sizeof(float) * (size_t)w * h + 1);
        uint8_t *unknown = malloc((size_t)w * h + 1);
        int bad = !v || !unknown;
        if (bad)
            fprintf(stderr, "%s: out of memory\n", prog);
        for (int64_t i = 0; !bad && i < (int64_t)w * h; i++) {
            v[i] = (float)depth[i];
            unknown[i] = labels[i] < 0;
        }
        if (!bad && out_pfm)
            bad = stereo_cli_write_pfm(o->s.out, v, unknown, w, h);
        if (!bad && o->s.pfm)
            bad = stereo_cli_write_pfm(o->s.pfm, v, unknown, w, h);
        free(v);
        free(unknown);
        if (bad)
            goto out;
    }
    if (o->ply && !save_ply(o->ply, &sel[0], img[0], depth))
        goto out;
    rc = 0;
    goto out;
fail:
    rc = cli_fail();
out:
    free(labels);
    free(depth);
    free(dir);
    free_images(img, nv);
    gcut_cameras_free(cams);
    return rc;
}

enum {
    OPT_VIEWS = CLI_KEY,
    OPT_BASELINES,
    OPT_CAMERAS,
    OPT_REF,
    OPT_IMAGES,
    OPT_BBOX,
    OPT_DEPTH_RANGE,
    OPT_NEIGHBOURS,
    OPT_DEPTHS,
    OPT_RADIUS,
    OPT_NCC_TRUNC,
    OPT_MASK_THRESHOLD,
    OPT_KEEP,
    OPT_COMBINE,
    OPT_PLY
};

static int take_option(int key, const char *v, void *user)
{
    cli *o = user;
    static const struct {
        int key;
        const char *name;
        int32_t lo, hi;
        size_t field;
    } ints[] = {{OPT_NEIGHBOURS, "--neighbours", 1, 63, offsetof(cli, neighbours)},
                {OPT_DEPTHS, "--depths", 2, 1024, offsetof(cli, depths)},
                {OPT_RADIUS, "--radius", 0, 15, offsetof(cli, radius)},
                {OPT_NCC_TRUNC, "--ncc-trunc", 1, 200, offsetof(cli, ncc_trunc)},
                {OPT_MASK_THRESHOLD, "--mask-threshold", 0, 255, offsetof(cli, mask_threshold)},
                {OPT_KEEP, "--keep", 1, 63, offsetof(cli, keep)}};
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++)
        if (ints[k].key == key) {
            if (!cli_parse_int(v, ints[k].lo, ints[k].hi,
                               (int32_t *)(void *)((char *)o + ints[k].field))) {
                char msg[64];
                snprintf(msg, sizeof msg, "%s must be in %d .. %d", ints[k].name, (int)ints[k].lo,
                         (int)ints[k].hi);
                return cli_usage_error(msg, v);
            }
            return 0;
        }
    /* The lists are split in place: a copy of the argument, kept to the end. */
    switch (key) {
    case OPT_VIEWS:
        o->views_arg = (char *)v;
        break;
    case OPT_BASELINES:
        o->baselines_arg = (char *)v;
        break;
    case OPT_CAMERAS:
        o->cameras = (char *)v;
        break;
    case OPT_REF:
        o->ref = (char *)v;
        break;
    case OPT_IMAGES:
        o->images_dir = (char *)v;
        break;
    case OPT_BBOX:
        o->bbox_arg = (char *)v;
        break;
    case OPT_DEPTH_RANGE:
        o->range_arg = (char *)v;
        break;
    case OPT_COMBINE:
        if (!strcmp(v, "mean"))
            o->combine = GCUT_MVS_MEAN;
        else if (!strcmp(v, "best"))
            o->combine = GCUT_MVS_BEST;
        else if (!strcmp(v, "side"))
            o->combine = GCUT_MVS_SIDE;
        else
            return cli_usage_error("--combine must be best, mean or side", v);
        break;
    default: /* OPT_PLY */
        o->ply = v;
        break;
    }
    return 0;
}

int main(int argc, char **argv)
{
    cli_init(prog, usage);
    cli o;
    memset(&o, 0, sizeof(o));
    stereo_cli_init(&o.s);
    o.neighbours = 4;
    o.radius = -1;
    o.mask_threshold = -1;
    o.combine = -1;
    static const struct option longopts[] = {
        {"views", required_argument, NULL, OPT_VIEWS},
        {"baselines", required_argument, NULL, OPT_BASELINES},
        {"cameras", required_argument, NULL, OPT_CAMERAS},
        {"ref", required_argument, NULL, OPT_REF},
        {"images", required_argument, NULL, OPT_IMAGES},
        {"bbox", required_argument, NULL, OPT_BBOX},
        {"depth-range", required_argument, NULL, OPT_DEPTH_RANGE},
        {"neighbours", required_argument, NULL, OPT_NEIGHBOURS},
        {"depths", required_argument, NULL, OPT_DEPTHS},
        {"radius", required_argument, NULL, OPT_RADIUS},
        {"ncc-trunc", required_argument, NULL, OPT_NCC_TRUNC},
        {"mask-threshold", required_argument, NULL, OPT_MASK_THRESHOLD},
        {"keep", required_argument, NULL, OPT_KEEP},
        {"combine", required_argument, NULL, OPT_COMBINE},
        {"ply", required_argument, NULL, OPT_PLY},
        {NULL, 0, NULL, 0}};
    const cli_opts group = {"", longopts, take_option, &o};
    int first, rc = stereo_cli_parse(argc, argv, &group, &o.s, &first);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (first < argc)
        return cli_usage_error("unexpected argument (images go in --views)", argv[first]);
    if (o.views_arg && o.cameras)
        return cli_usage_error("--views and --cameras are two modes: give one", NULL);
    if (o.views_arg) {
        if (!o.baselines_arg)
            return cli_usage_error("--views needs --baselines", NULL);
        return cli_finish(run_mbs(&o));
    }
    if (o.cameras)
        return cli_finish(run_sweep(&o));
    return cli_usage_error("give --views (multi-baseline) or --cameras (plane sweep)", NULL);
}
