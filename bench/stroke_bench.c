/*
 * gcut-stroke-bench - interactive re-segmentation latency without a
 * window: the time from a user's stroke to the new mask, through the
 * session API (gcut_seg_session_add_stroke + gcut_seg_session_solve, warm),
 * on a photo scaled to a given size, for any back end (cpu-bk, cuda-grid).
 *
 *     gcut-stroke-bench photo.png --mp 2 --backend cuda-grid --strokes 20
 *
 * The image is scaled bilinearly to about --mp megapixels. Seeds: a
 * foreground disc in the middle (radius a tenth of the short side) and a
 * background frame (the outer 3% of each side), as a user's first strokes;
 * the first cut is cold. Then --strokes strokes like gcut-view-bench's:
 * alternately foreground near the middle and background near the left
 * border, each a disc of radius 3 and then a horizontal segment of a tenth
 * of the width, each part followed by a warm solve (what the viewer does
 * while the mouse moves). Reported: the first cut, and per stroke part the
 * median and 90th percentile of add_stroke + solve (the mask written to host
 * memory), with the back end's share (engine, transfer). gcut-view adds the
 * drawing of the frame (CPU) to these.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gcut/gcut.h"
#include "gcut/vision/image.h"
#include "gcut/vision/segment.h"
#include "cli.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void die(const char *what)
{
    fprintf(stderr, "gcut-stroke-bench: %s: %s\n", what, gcut_last_error());
    exit(1);
}

/* Bilinear resize of an 8-bit image to w x h (RGB out). */
static gcut_image *resize(const gcut_image *in, int32_t w, int32_t h)
{
    gcut_image *rgb, *out;
    if (gcut_image_to_rgb(in, &rgb) != GCUT_OK || gcut_image_new(&out, w, h, 3, 8) != GCUT_OK)
        die("resize");
    for (int32_t y = 0; y < h; y++) {
        const double fy = (y + 0.5) * rgb->height / h - 0.5;
        const int32_t y0 = fy < 0 ? 0 : (int32_t)fy;
        const int32_t y1 = y0 + 1 < rgb->height ? y0 + 1 : y0;
        const double ay = fy < 0 ? 0 : fy - y0;
        for (int32_t x = 0; x < w; x++) {
            const double fx = (x + 0.5) * rgb->width / w - 0.5;
            const int32_t x0 = fx < 0 ? 0 : (int32_t)fx;
            const int32_t x1 = x0 + 1 < rgb->width ? x0 + 1 : x0;
            const double ax = fx < 0 ? 0 : fx - x0;
            for (int c = 0; c < 3; c++) {
                const uint8_t *r0 = rgb->data + (size_t)y0 * rgb->stride;
                const uint8_t *r1 = rgb->data + (size_t)y1 * rgb->stride;
                const double v = (1 - ay) * ((1 - ax) * r0[3 * x0 + c] + ax * r0[3 * x1 + c]) +
                                 ay * ((1 - ax) * r1[3 * x0 + c] + ax * r1[3 * x1 + c]);
                out->data[(size_t)y * out->stride + 3 * (size_t)x + c] = (uint8_t)(v + 0.5);
            }
        }
    }
    gcut_image_free(rgb);
    return out;
}

/* Pixels of a disc (radius r) around (cx, cy), clipped; returns the count. */
static int32_t disc(int32_t w, int32_t h, int32_t cx, int32_t cy, int32_t r, int32_t *px)
{
    int32_t k = 0;
    for (int32_t y = cy - r; y <= cy + r; y++)
        for (int32_t x = cx - r; x <= cx + r; x++)
            if (x >= 0 && x < w && y >= 0 && y < h && (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
                px[k++] = x + w * y;
    return k;
}

static const char usage[] =
    "usage: gcut-stroke-bench [options] IMAGE\n"
    "Interactive re-segmentation latency without a window: IMAGE scaled to about\n"
    "--mp megapixels, a first cold cut from a central disc and a background frame,\n"
    "then strokes, each part followed by a warm solve of the session; prints the\n"
    "first cut and the median and 90th percentile per stroke part.\n"
    "\n"
    "options:\n"
    "  --mp MP              megapixels, 0.001..200 (default 2)\n"
    "  --backend NAME       back end (default auto; --version lists them)\n"
    "  --strokes N          strokes, 1..10000 (default 20)\n"
    "  --params STR         back-end settings, key=value[,key=value]\n"
    "  -v                   print the time of every stroke part\n"
    "  -h, --help           show this help\n"
    "      --version        show the version and the back ends\n";

int main(int argc, char **argv)
{
    cli_init("gcut-stroke-bench", usage);
    const char *path = NULL, *backend = "auto", *params = NULL;
    double mp = 2.0;
    int32_t strokes = 20;
    int verbose = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_info_option(a))
            return 0;
        if (!strcmp(a, "-v")) {
            verbose = 1;
        } else if (!strcmp(a, "--mp") || !strcmp(a, "--backend") || !strcmp(a, "--strokes") ||
                   !strcmp(a, "--params")) {
            if (!v)
                return cli_usage_error("option needs a value", a);
            i++;
            if (!strcmp(a, "--backend"))
                backend = v;
            else if (!strcmp(a, "--params"))
                params = v;
            else if (!strcmp(a, "--mp") && !cli_parse_double(v, 0.001, 200, &mp))
                return cli_usage_error("--mp needs a number 0.001..200", v);
            else if (!strcmp(a, "--strokes") && !cli_parse_int(v, 1, 10000, &strokes))
                return cli_usage_error("--strokes needs a number 1..10000", v);
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("unknown option", a);
        } else if (path) {
            return cli_usage_error("more than one image", a);
        } else {
            path = a;
        }
    }
    if (!path)
        return cli_usage_error("no image given", NULL);
    gcut_image *img0;
    if (gcut_image_load(path, &img0) != GCUT_OK)
        die(path);
    const double k = sqrt(mp * 1e6 / ((double)img0->width * img0->height));
    const int32_t w = (int32_t)(img0->width * k + 0.5), h = (int32_t)(img0->height * k + 0.5);
    gcut_image *img = resize(img0, w, h);
    gcut_image_free(img0);
    const int32_t n = w * h, side = w < h ? w : h;
    uint8_t *seeds = calloc((size_t)n, 1), *mask = malloc((size_t)n);
    int32_t *px = malloc(sizeof(int32_t) * (size_t)(w + 16) * 16);
    if (!seeds || !mask || !px)
        die("memory");
    const int32_t bx = w * 3 / 100 + 1, by = h * 3 / 100 + 1, r0 = side / 10;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            if (x < bx || x >= w - bx || y < by || y >= h - by)
                seeds[x + w * y] = GCUT_SEED_BG;
            else if ((x - w / 2) * (x - w / 2) + (y - h / 2) * (y - h / 2) <= r0 * r0)
                seeds[x + w * y] = GCUT_SEED_FG;
        }
    gcut_seg_options prm;
    gcut_seg_options_init(&prm);
    if (backend)
        prm.solve.backend = backend;
    prm.solve.params = params;
    gcut_seg_session *s;
    double t0 = now_ms();
    if (gcut_seg_session_new(&s, img, seeds, &prm) != GCUT_OK)
        die("session");
    const double t_model = now_ms() - t0;
    gcut_seg_stats st;
    t0 = now_ms();
    if (gcut_seg_session_solve(s, mask, &st) != GCUT_OK)
        die("first cut");
    const double t_first = now_ms() - t0;
    double *lat = malloc(sizeof(double) * 2 * (size_t)strokes);
    double *eng = malloc(sizeof(double) * 2 * (size_t)strokes);
    if (!lat || !eng)
        die("memory");
    int warm = 0;
    for (int i = 0; i < strokes; i++) {
        const uint8_t label = i % 2 ? GCUT_SEED_BG : GCUT_SEED_FG;
        const int32_t y = h / 4 + (int32_t)((int64_t)h / 2 * i / strokes);
        const int32_t x = label == GCUT_SEED_FG ? w / 2 - w / 20 : w / 40;
        for (int part = 0; part < 2; part++) {
            int32_t cnt = 0;
            if (part == 0)
                cnt = disc(w, h, x, y, 3, px);
            else
                for (int32_t xx = x; xx < x + w / 10 && xx < w; xx++)
                    for (int32_t yy = y - 3; yy <= y + 3; yy++)
                        if (yy >= 0 && yy < h)
                            px[cnt++] = xx + w * yy;
            t0 = now_ms();
            if (gcut_seg_session_add_stroke(s, label, px, cnt) != GCUT_OK ||
                gcut_seg_session_solve(s, mask, &st) != GCUT_OK)
                die("stroke");
            lat[2 * i + part] = now_ms() - t0;
            eng[2 * i + part] = st.solve_ms;
            warm += st.warm_start;
            if (verbose) /* each part as it comes: the tail's strokes by name */
                printf("stroke %2d part %d (%s, %d pixels): %.2f ms, of which the max-flow "
                       "solve %.2f ms%s\n",
                       i, part, label == GCUT_SEED_FG ? "fg" : "bg", (int)cnt,
                       lat[2 * i + part], eng[2 * i + part], st.warm_start ? "" : " (cold)");
        }
    }
    const int m = 2 * strokes;
    qsort(lat, (size_t)m, sizeof *lat, cmp_double);
    qsort(eng, (size_t)m, sizeof *eng, cmp_double);
    printf("%s: %dx%d (%.2f MP), back end %s\n", path, w, h, n / 1e6, st.backend ? st.backend : backend);
    printf("models %.1f ms, first cut (cold, device set-up included) %.1f ms\n", t_model, t_first);
    printf("stroke -> mask, warm (%d stroke parts, %d warm): median %.2f ms, p90 %.2f ms, max "
           "%.2f ms; of which the max-flow solve median %.2f ms\n",
           m, warm, lat[m / 2], lat[m * 9 / 10], lat[m - 1], eng[m / 2]);
    gcut_seg_session_free(s);
    gcut_image_free(img);
    free(seeds);
    free(mask);
    free(px);
    free(lat);
    free(eng);
    return 0;
}
