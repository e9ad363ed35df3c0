/*
 * gcut-seg - segment an image (headless): seeds or a rectangle in, a mask,
 * a cut-out and an overlay out, with times and, given a ground truth, the
 * error rate and IoU. `--dump` writes the graph of the last cut as DIMACS
 * so that any max-flow code can be measured on exactly these graphs.
 *
 * Output is one `key: value` item per line so that scripts can read it
 * (bench/run-grabcut.sh does).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gcut/gcut.h"
#include "gcut/vision/image.h"
#include "gcut/vision/segment.h"

static const char usage[] =
    "usage: gcut-seg [options] IMAGE (--seeds SEEDS.png | --rect X,Y,W,H)\n"
    "Cut an image into foreground and background (graph cut, GMM or histogram colour models).\n"
    "\n"
    "input:\n"
    "  -s, --seeds FILE     seed picture of the image's size; gray: 255 foreground, 0 or 64\n"
    "                       background, other values unknown; colour: yellow, white or green\n"
    "                       foreground, red or blue background, other colours (black) unknown\n"
    "  -r, --rect X,Y,W,H   rectangle around the object; outside is background (GrabCut)\n"
    "  -g, --grabcut N      GrabCut: up to N iterations of model re-estimation and cut\n"
    "                       (default 5 with --rect, one cut with --seeds)\n"
    "      --no-early-stop  GrabCut: run all N iterations even once the energy stops\n"
    "                       decreasing (a benchmark aid: fixed work per image)\n"
    "model and graph:\n"
    "  -l, --lambda L       smoothness weight (default 35 with GrabCut, 50 for one cut)\n"
    "  -c, --conn 4|8       pixel neighbourhood (default 8)\n"
    "  -m, --model NAME     colour model: gmm (default) or hist\n"
    "  -k, --components K   GMM components per class (default 5)\n"
    "      --bins B         histogram bins per channel (default 16)\n"
    "  -b, --backend NAME   max-flow back end (default auto)\n"
    "      --time-limit S   give up a cut after S seconds\n"
    "      --cpu-energies   evaluate the energies on the CPU even where the back end\n"
    "                       offers them on its device (cuda-grid); same result\n"
    "output:\n"
    "  -o, --out FILE       mask PNG: 0 background, 255 foreground, the image's size\n"
    "      --cutout FILE    RGBA PNG: the image with the mask as alpha\n"
    "      --overlay FILE   PNG: background dimmed, the boundary in green, seeds drawn\n"
    "      --gt FILE        ground truth (0 background, 255 foreground, other values not\n"
    "                       counted): print the error rate and IoU over the whole image\n"
    "      --dump FILE      write the graph of the last cut as a DIMACS max-flow file\n"
    "                       (an output FILE -: stdout, the report then on stderr)\n"
    "\n"
    "printed (one item per line): `size: WxH`, `backend: NAME`, `iterations: N`,\n"
    "`energy: E`, `foreground: PIXELS`, `load:`, `model:`, `build:`, `solve:`, `total: MS ms`,\n"
    "with --gt `error: PERCENT %` and `iou: VALUE`. --json: {\"width\", \"height\",\n"
    "\"backend\", \"iterations\", \"energy\", \"foreground\", \"load_ms\", \"model_ms\",\n"
    "\"build_ms\", \"solve_ms\", \"total_ms\", [\"error_pct\", \"iou\"], \"status\"}. Exit status\n"
    "0 on success, 1 on bad input, 2 on bad usage.\n"
    "\n"
    "example: gcut-seg images/shapes.png --seeds images/shapes-seeds.png --out mask.png\n";

typedef struct args {
    cli_common c; /* back end, threads, params, limits, verbosity, progress, JSON */
    const char *image, *seeds, *out, *cutout, *overlay, *gt, *dump;
    int32_t rect[4];
    int have_rect;
    int32_t grabcut, conn, components, bins;
    int no_early_stop, cpu_energies;
    double lambda;
    gcut_seg_model model;
} args;

static int parse_rect(const char *s, int32_t r[4])
{
    long v[4];
    char *end;
    const char *p = s;
    for (int i = 0; i < 4; i++) {
        errno = 0;
        v[i] = strtol(p, &end, 10);
        if (errno || end == p || v[i] < 0 || v[i] > (1L << 24))
            return 0;
        if (i < 3 && *end != ',')
            return 0;
        p = end + (i < 3);
    }
    if (*end)
        return 0;
    for (int i = 0; i < 4; i++)
        r[i] = (int32_t)v[i];
    return 1;
}

/* An 8-bit gray mask picture of a loaded image (0/255 etc.) as bytes. */
static int load_gray8(const char *path, int32_t w, int32_t h, uint8_t **out)
{
    gcut_image *img = NULL, *gray = NULL;
    if (gcut_image_load(path, &img) != GCUT_OK)
        return cli_fail();
    if (img->width != w || img->height != h) {
        fprintf(stderr, "gcut-seg: %s is %d x %d, the image %d x %d\n", path, (int)img->width,
                (int)img->height, (int)w, (int)h);
        gcut_image_free(img);
        return 1;
    }
    if (gcut_image_to_gray(img, &gray) != GCUT_OK) {
        gcut_image_free(img);
        return cli_fail();
    }
    uint8_t *b = malloc((size_t)w * (size_t)h);
    if (!b) {
        fprintf(stderr, "gcut-seg: out of memory\n");
        gcut_image_free(gray);
        gcut_image_free(img);
        return 1;
    }
    for (int32_t y = 0; y < h; y++) {
        const uint8_t *row = gray->data + (size_t)y * gray->stride;
        for (int32_t x = 0; x < w; x++)
            b[(size_t)y * w + x] =
                gray->depth == 8 ? row[x] : (uint8_t)(((const uint16_t *)(const void *)row)[x] >> 8);
    }
    gcut_image_free(gray);
    gcut_image_free(img);
    *out = b;
    return 0;
}

/* The 8-bit RGB samples of pixel (x, y) of any image. */
static void pixel_rgb(const gcut_image *img, int32_t x, int32_t y, uint8_t rgb[3])
{
    const uint8_t *row = img->data + (size_t)y * img->stride;
    for (int c = 0; c < 3; c++) {
        const size_t i = (size_t)x * img->channels + (img->channels == 1 ? 0 : c);
        rgb[c] = img->depth == 8 ? row[i] : (uint8_t)(((const uint16_t *)(const void *)row)[i] >> 8);
    }
}

static int save_mask(const char *path, const uint8_t *mask, int32_t w, int32_t h)
{
    gcut_image m = {w, h, 1, 8, (size_t)w, (uint8_t *)mask};
    return gcut_image_save_png(&m, path) != GCUT_OK ? cli_fail() : 0;
}

static int save_cutout(const char *path, const gcut_image *img, const uint8_t *mask)
{
    gcut_image *o = NULL;
    if (gcut_image_new(&o, img->width, img->height, 4, 8) != GCUT_OK)
        return cli_fail();
    for (int32_t y = 0; y < img->height; y++)
        for (int32_t x = 0; x < img->width; x++) {
            uint8_t *q = o->data + (size_t)y * o->stride + 4 * (size_t)x;
            pixel_rgb(img, x, y, q);
            q[3] = mask[(size_t)y * img->width + x];
        }
    int rc = gcut_image_save_png(o, path) != GCUT_OK ? cli_fail() : 0;
    gcut_image_free(o);
    return rc;
}

/* Background at 35% brightness with a blue tint, the mask boundary in
 * green, seeds in yellow (foreground) and red (background), or the
 * rectangle in red. */
static int save_overlay(const char *path, const gcut_image *img, const uint8_t *mask,
                        const uint8_t *seeds, const args *a)
{
    const int32_t w = img->width, h = img->height;
    gcut_image *o = NULL;
    if (gcut_image_new(&o, w, h, 3, 8) != GCUT_OK)
        return cli_fail();
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            const size_t p = (size_t)y * w + x;
            uint8_t *q = o->data + (size_t)y * o->stride + 3 * (size_t)x;
            pixel_rgb(img, x, y, q);
            const int fg = mask[p] != 0;
            int edge = 0;
            if (fg) {
                edge = (x > 0 && !mask[p - 1]) || (x + 1 < w && !mask[p + 1]) ||
                       (y > 0 && !mask[p - w]) || (y + 1 < h && !mask[p + w]);
            } else {
                q[0] = (uint8_t)(q[0] * 35 / 100);
                q[1] = (uint8_t)(q[1] * 35 / 100);
                q[2] = (uint8_t)(q[2] * 35 / 100 + 40);
            }
            if (edge) {
                q[0] = 0;
                q[1] = 255;
                q[2] = 0;
            }
            if (!a->have_rect && seeds[p] == GCUT_SEED_FG) {
                q[0] = 255;
                q[1] = 255;
                q[2] = 0;
            } else if (!a->have_rect && seeds[p] == GCUT_SEED_BG) {
                q[0] = 220;
                q[1] = 0;
                q[2] = 0;
            }
            if (a->have_rect) {
                const int32_t x0 = a->rect[0], y0 = a->rect[1];
                const int32_t x1 = x0 + a->rect[2] - 1, y1 = y0 + a->rect[3] - 1;
                if (((x == x0 || x == x1) && y >= y0 && y <= y1) ||
                    ((y == y0 || y == y1) && x >= x0 && x <= x1)) {
                    q[0] = 220;
                    q[1] = 0;
                    q[2] = 0;
                }
            }
        }
    int rc = gcut_image_save_png(o, path) != GCUT_OK ? cli_fail() : 0;
    gcut_image_free(o);
    return rc;
}

static int dump_graph(const char *path, const gcut_seg_session *s)
{
    gcut_graph *g = NULL;
    if (gcut_grid_to_graph(gcut_seg_session_grid(s), &g) != GCUT_OK)
        return cli_fail();
    int rc = gcut_graph_write_dimacs(g, path) != GCUT_OK ? cli_fail() : 0;
    gcut_graph_free(g);
    return rc;
}

enum {
    OPT_NO_EARLY_STOP = CLI_KEY,
    OPT_BINS,
    OPT_CPU_ENERGIES,
    OPT_CUTOUT,
    OPT_OVERLAY,
    OPT_GT,
    OPT_DUMP
};

static int take_option(int key, const char *v, void *user)
{
    args *a = user;
    switch (key) {
    case 's':
        a->seeds = v;
        break;
    case 'r':
        if (!parse_rect(v, a->rect))
            return cli_usage_error("--rect needs X,Y,W,H (non-negative integers)", v);
        a->have_rect = 1;
        break;
    case 'g':
        if (!cli_parse_int(v, 1, 1000, &a->grabcut))
            return cli_usage_error("--grabcut needs a number of iterations 1..1000", v);
        break;
    case OPT_NO_EARLY_STOP:
        a->no_early_stop = 1;
        break;
    case 'l':
        if (!cli_parse_double(v, 0, 1e6, &a->lambda))
            return cli_usage_error("--lambda needs a number 0..1e6", v);
        break;
    case 'c':
        if (!cli_parse_int(v, 4, 8, &a->conn) || (a->conn != 4 && a->conn != 8))
            return cli_usage_error("--conn needs 4 or 8", v);
        break;
    case 'm':
        if (!strcmp(v, "gmm"))
            a->model = GCUT_SEG_GMM;
        else if (!strcmp(v, "hist") || !strcmp(v, "histogram"))
            a->model = GCUT_SEG_HISTOGRAM;
        else
            return cli_usage_error("--model needs gmm or hist", v);
        break;
    case 'k':
        if (!cli_parse_int(v, 1, 16, &a->components))
            return cli_usage_error("--components needs a number 1..16", v);
        break;
    case OPT_BINS:
        if (!cli_parse_int(v, 2, 64, &a->bins))
            return cli_usage_error("--bins needs a number 2..64", v);
        break;
    case OPT_CPU_ENERGIES:
        a->cpu_energies = 1;
        break;
    case 'o':
        a->out = v;
        break;
    case OPT_CUTOUT:
        a->cutout = v;
        break;
    case OPT_OVERLAY:
        a->overlay = v;
        break;
    case OPT_GT:
        a->gt = v;
        break;
    default: /* OPT_DUMP */
        a->dump = v;
        break;
    }
    return 0;
}

static int parse_args(int argc, char **argv, args *a)
{
    static const struct option longopts[] = {
        {"seeds", required_argument, NULL, 's'},
        {"rect", required_argument, NULL, 'r'},
        {"grabcut", required_argument, NULL, 'g'},
        {"no-early-stop", no_argument, NULL, OPT_NO_EARLY_STOP},
        {"lambda", required_argument, NULL, 'l'},
        {"conn", required_argument, NULL, 'c'},
        {"model", required_argument, NULL, 'm'},
        {"components", required_argument, NULL, 'k'},
        {"bins", required_argument, NULL, OPT_BINS},
        {"cpu-energies", no_argument, NULL, OPT_CPU_ENERGIES},
        {"out", required_argument, NULL, 'o'},
        {"cutout", required_argument, NULL, OPT_CUTOUT},
        {"overlay", required_argument, NULL, OPT_OVERLAY},
        {"gt", required_argument, NULL, OPT_GT},
        {"dump", required_argument, NULL, OPT_DUMP},
        {NULL, 0, NULL, 0}};
    const cli_opts group = {"s:r:g:l:c:m:k:o:", longopts, take_option, a};
    int first, rc = cli_parse(argc, argv, &group, 1, CLI_OPT_SOLVER, &a->c, &first);
    if (rc)
        return rc;
    if (first < argc)
        a->image = argv[first++];
    if (first < argc)
        return cli_usage_error("more than one image", argv[first]);
    if (!a->image)
        return cli_usage_error("no image given", NULL);
    if (!a->seeds == !a->have_rect)
        return cli_usage_error("give exactly one of --seeds and --rect", NULL);
    const char *outs[] = {a->out, a->cutout, a->overlay, a->dump};
    const char *ins[] = {a->image, a->seeds, a->gt};
    return cli_check_outputs(outs, 4, ins, 3);
}

/* --no-early-stop: GrabCut one iteration per call, so the session's stop
 * test (the energy no longer decreasing) never ends the run; the times of
 * the calls add up. Only a model that can no longer be learnt (a class
 * without pixels) ends it early. */
static gcut_status grabcut_fixed(gcut_seg_session *s, int32_t iterations, uint8_t *mask,
                                 gcut_seg_stats *st)
{
    gcut_seg_stats one;
    gcut_status status = gcut_seg_session_grabcut(s, 1, mask, st);
    for (int32_t k = 1; status == GCUT_OK && k < iterations; k++) {
        if ((status = gcut_seg_session_grabcut(s, 1, mask, &one)) != GCUT_OK || !one.iterations)
            break;
        const double model = st->model_ms + one.model_ms, build = st->build_ms + one.build_ms,
                     solve = st->solve_ms + one.solve_ms, total = st->total_ms + one.total_ms;
        const int32_t done = st->iterations + one.iterations;
        *st = one;
        st->model_ms = model;
        st->build_ms = build;
        st->solve_ms = solve;
        st->total_ms = total;
        st->iterations = done;
    }
    return status;
}

int main(int argc, char **argv)
{
    cli_init("gcut-seg", usage);
    args a;
    memset(&a, 0, sizeof a);
    a.lambda = -1.0;
    a.model = GCUT_SEG_GMM;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;

    const double t_load0 = cli_now_ms();
    gcut_image *img = NULL;
    cli_progress_draw(-1, "load", a.image);
    if (gcut_image_load(a.image, &img) != GCUT_OK)
        return cli_finish(cli_fail());
    const int32_t w = img->width, h = img->height;
    const size_t n = (size_t)w * (size_t)h;
    uint8_t *seeds = malloc(n), *mask = malloc(n), *gt = NULL;
    gcut_seg_session *s = NULL;
    if (!seeds || !mask) {
        fprintf(stderr, "gcut-seg: out of memory\n");
        rc = 1;
        goto done;
    }
    if (a.have_rect) {
        if (gcut_seeds_from_rect(w, h, a.rect[0], a.rect[1], a.rect[2], a.rect[3], seeds) !=
            GCUT_OK) {
            rc = cli_fail();
            goto done;
        }
    } else {
        gcut_image *pic = NULL;
        if (gcut_image_load(a.seeds, &pic) != GCUT_OK) {
            rc = cli_fail();
            goto done;
        }
        if (pic->width != w || pic->height != h) {
            fprintf(stderr, "gcut-seg: seeds %s are %d x %d, the image %d x %d\n", a.seeds,
                    (int)pic->width, (int)pic->height, (int)w, (int)h);
            gcut_image_free(pic);
            rc = 1;
            goto done;
        }
        gcut_status st = gcut_seeds_from_image(pic, seeds);
        gcut_image_free(pic);
        if (st != GCUT_OK) {
            rc = cli_fail();
            goto done;
        }
    }
    const double load_ms = cli_now_ms() - t_load0;

    const int32_t iterations = a.grabcut ? a.grabcut : (a.have_rect ? 5 : 1);
    const int grabcut = iterations > 1 || a.grabcut;
    gcut_seg_options p;
    if (grabcut)
        gcut_grabcut_options_init(&p); /* lambda 35 (one cut from seeds: 50) */
    else
        gcut_seg_options_init(&p);
    if (a.lambda >= 0)
        p.lambda = a.lambda;
    if (a.conn)
        p.connectivity = a.conn;
    if (a.components)
        p.components = a.components;
    if (a.bins)
        p.bins = a.bins;
    p.model = a.model;
    if (a.cpu_energies)
        p.device_energies = 0;
    cli_apply_solve(&a.c, &p.solve);

    gcut_seg_stats st1;
    cli_progress_draw(-1, grabcut ? "grabcut" : "segment", NULL);
    if (gcut_seg_session_new(&s, img, seeds, &p) != GCUT_OK) {
        rc = cli_fail();
        goto done;
    }
    gcut_status status = a.no_early_stop && grabcut ? grabcut_fixed(s, iterations, mask, &st1)
                         : grabcut ? gcut_seg_session_grabcut(s, iterations, mask, &st1)
                                   : gcut_seg_session_solve(s, mask, &st1);
    if (status != GCUT_OK) {
        rc = cli_fail();
        goto done;
    }
    size_t fg = 0;
    for (size_t i = 0; i < n; i++)
        fg += mask[i] != 0;
    cli_progress_clear();
    if (cli_json()) {
        cli_json_int("width", w);
        cli_json_int("height", h);
    } else {
        fprintf(cli_report(), "size: %dx%d\n", (int)w, (int)h);
    }
    cli_put_str("backend", st1.backend ? st1.backend : "?");
    cli_put_int("iterations", st1.iterations);
    cli_put_num("energy", st1.energy, "%.6g");
    cli_put_int("foreground", (long long)fg);
    cli_put_ms("load", load_ms, 2);
    cli_put_ms("model", st1.model_ms, 2);
    cli_put_ms("build", st1.build_ms, 2);
    cli_put_ms("solve", st1.solve_ms, 2);
    cli_put_ms("total", load_ms + st1.total_ms, 2);
    if (a.gt) {
        if ((rc = load_gray8(a.gt, w, h, &gt)) != 0)
            goto done;
        gcut_seg_eval ev;
        if (gcut_seg_evaluate(mask, gt, NULL, (int64_t)n, &ev) != GCUT_OK) {
            rc = cli_fail();
            goto done;
        }
        cli_put_pct("error", 100.0 * ev.error_rate, 3);
        cli_put_num("iou", ev.iou, "%.4f");
    }
    if (a.out && (rc = save_mask(a.out, mask, w, h)) != 0)
        goto done;
    if (a.cutout && (rc = save_cutout(a.cutout, img, mask)) != 0)
        goto done;
    if (a.overlay && (rc = save_overlay(a.overlay, img, mask, seeds, &a)) != 0)
        goto done;
    if (a.dump && (rc = dump_graph(a.dump, s)) != 0)
        goto done;
    fflush(cli_report());
    if (!cli_json() && ferror(cli_report())) {
        fprintf(stderr, "gcut-seg: error writing the output\n");
        rc = 1;
    }
done:
    gcut_seg_session_free(s);
    free(gt);
    free(mask);
    free(seeds);
    gcut_image_free(img);
    return cli_finish(rc);
}
