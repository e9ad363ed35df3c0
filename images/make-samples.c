/*
 * gcut-make-samples - writes the synthetic sample images of images/ (committed;
 * rerun only to change them): scenes with known masks, their seed
 * pictures in both documented conventions, and the ground truths.
 *
 *   gcut-make-samples OUT_DIR
 *
 * Everything is generated from a fixed pseudo-random seed (xorshift64*),
 * so the output is the same on every machine.
 *
 * shapes.png          160x120: a disc and a rotated square, two colours
 *                     each with noise, on a noisy gradient background
 * shapes-gt.png       its mask (255 the two shapes, 0 elsewhere)
 * shapes-seeds.png    gray seeds: 255 foreground strokes, 0 background
 *                     strokes, 128 unknown
 * blob.png            200x150: a textured star-shaped blob on a textured
 *                     background of similar brightness
 * blob-gt.png         its mask
 * blob-scribbles.png  colour seeds as in the Andrade-Carrera scribbles:
 *                     yellow (255,255,207) foreground, red (219,0,0)
 *                     background, black unknown
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcut/vision/image.h"
#include "cli.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static double uniform(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}

/* Roughly normal: sum of four uniforms, unit variance. */
static double noise(void)
{
    return (uniform() + uniform() + uniform() + uniform() - 2.0) * 1.7320508;
}

static uint8_t clamp8(double v)
{
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5);
}

static int save(const gcut_image *img, const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (gcut_image_save_png(img, path) != GCUT_OK) {
        fprintf(stderr, "%s: %s\n", cli_prog(), gcut_last_error());
        return 1;
    }
    printf("wrote %s\n", path);
    return 0;
}

/* Distance from (x, y) to the segment (ax, ay)-(bx, by). */
static double seg_dist(double x, double y, double ax, double ay, double bx, double by)
{
    const double vx = bx - ax, vy = by - ay;
    double t = ((x - ax) * vx + (y - ay) * vy) / (vx * vx + vy * vy);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const double dx = x - (ax + t * vx), dy = y - (ay + t * vy);
    return sqrt(dx * dx + dy * dy);
}

static int shapes(const char *dir)
{
    const int32_t w = 160, h = 120;
    gcut_image *img, *gt, *seeds;
    if (gcut_image_new(&img, w, h, 3, 8) || gcut_image_new(&gt, w, h, 1, 8) ||
        gcut_image_new(&seeds, w, h, 1, 8))
        return 1;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            const double dx = x - 50.0, dy = y - 60.0;
            const int disc = dx * dx + dy * dy < 30.0 * 30.0;
            /* A square of side 44 turned by 30 degrees around (115, 55). */
            const double c = cos(0.5236), s = sin(0.5236);
            const double u = (x - 115.0) * c + (y - 55.0) * s, v = -(x - 115.0) * s + (y - 55.0) * c;
            const int square = fabs(u) < 22.0 && fabs(v) < 22.0;
            double r, g, b;
            if (disc) {
                const int inner = dx * dx + dy * dy < 14.0 * 14.0;
                r = inner ? 230 : 200; g = inner ? 180 : 60; b = inner ? 40 : 50;
            } else if (square) {
                const int stripe = ((int)(u + 22.0) / 11) % 2;
                r = 40; g = stripe ? 90 : 140; b = stripe ? 200 : 230;
            } else {
                r = 70 + 0.5 * x; g = 120 + 0.3 * y; b = 90 + 0.2 * (x + y);
            }
            uint8_t *q = img->data + (size_t)y * img->stride + 3 * (size_t)x;
            q[0] = clamp8(r + 14 * noise());
            q[1] = clamp8(g + 14 * noise());
            q[2] = clamp8(b + 14 * noise());
            gt->data[(size_t)y * gt->stride + x] = disc || square ? 255 : 0;
            /* Seeds: one stroke through each shape, strokes near the edges. */
            uint8_t sd = 128;
            if (seg_dist(x, y, 35, 60, 65, 60) < 2.0 || seg_dist(x, y, 105, 50, 125, 60) < 2.0)
                sd = 255;
            if (seg_dist(x, y, 8, 10, 150, 10) < 2.0 || seg_dist(x, y, 8, 112, 150, 112) < 2.0 ||
                seg_dist(x, y, 84, 20, 84, 100) < 1.5)
                sd = 0;
            seeds->data[(size_t)y * seeds->stride + x] = sd;
        }
    int rc = save(img, dir, "shapes.png") || save(gt, dir, "shapes-gt.png") ||
             save(seeds, dir, "shapes-seeds.png");
    gcut_image_free(img);
    gcut_image_free(gt);
    gcut_image_free(seeds);
    return rc;
}

static int blob(const char *dir)
{
    const int32_t w = 200, h = 150;
    gcut_image *img, *gt, *seeds;
    if (gcut_image_new(&img, w, h, 3, 8) || gcut_image_new(&gt, w, h, 1, 8) ||
        gcut_image_new(&seeds, w, h, 3, 8))
        return 1;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            const double dx = x - 100.0, dy = y - 75.0;
            const double ang = atan2(dy, dx), rad = sqrt(dx * dx + dy * dy);
            const double edge = 45.0 + 12.0 * sin(5.0 * ang) + 4.0 * cos(3.0 * ang + 1.0);
            const int in = rad < edge;
            /* Two textures of about the same brightness: warm checks
             * inside, cool diagonal stripes outside. */
            double r, g, b;
            if (in) {
                const int chk = ((x / 6) + (y / 6)) % 2;
                r = chk ? 190 : 150; g = chk ? 120 : 100; b = 60;
            } else {
                const int str = ((x + y) / 8) % 2;
                r = 70; g = str ? 140 : 120; b = str ? 170 : 130;
            }
            uint8_t *q = img->data + (size_t)y * img->stride + 3 * (size_t)x;
            q[0] = clamp8(r + 12 * noise());
            q[1] = clamp8(g + 12 * noise());
            q[2] = clamp8(b + 12 * noise());
            gt->data[(size_t)y * gt->stride + x] = in ? 255 : 0;
            uint8_t *s = seeds->data + (size_t)y * seeds->stride + 3 * (size_t)x;
            s[0] = s[1] = s[2] = 0;
            if (seg_dist(x, y, 80, 70, 120, 80) < 2.5 || seg_dist(x, y, 100, 55, 100, 95) < 2.5) {
                s[0] = 255; s[1] = 255; s[2] = 207;
            } else if (seg_dist(x, y, 10, 10, 190, 14) < 2.5 ||
                       seg_dist(x, y, 12, 20, 20, 140) < 2.5 ||
                       seg_dist(x, y, 170, 130, 185, 40) < 2.5) {
                s[0] = 219; s[1] = 0; s[2] = 0;
            }
        }
    int rc = save(img, dir, "blob.png") || save(gt, dir, "blob-gt.png") ||
             save(seeds, dir, "blob-scribbles.png");
    gcut_image_free(img);
    gcut_image_free(gt);
    gcut_image_free(seeds);
    return rc;
}

static const char usage[] =
    "usage: gcut-make-samples OUT_DIR\n"
    "Write the synthetic sample images of images/ (shapes.png, shapes-gt.png,\n"
    "shapes-seeds.png, blob.png, blob-gt.png, blob-scribbles.png) into the existing\n"
    "folder OUT_DIR, replacing files of those names. The same bytes on every machine.\n"
    "\n"
    "options:\n"
    "  -h, --help           show this help\n"
    "      --version        show the version and the back ends\n"
    "  --                   the end of the options (an OUT_DIR starting with '-')\n";

int main(int argc, char **argv)
{
    cli_init("gcut-make-samples", usage);
    const char *dir = NULL;
    int operands_only = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!operands_only && !strcmp(a, "--")) {
            operands_only = 1;
            continue;
        }
        if (!operands_only && cli_info_option(a))
            return 0;
        if (!operands_only && a[0] == '-' && a[1])
            return cli_usage_error("unknown option", a);
        if (dir)
            return cli_usage_error("more than one folder", a);
        dir = a;
    }
    if (!dir)
        return cli_usage_error("no output folder given", NULL);
    return shapes(dir) || blob(dir) ? 1 : 0;
}
