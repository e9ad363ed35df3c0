/*
 * gcut-view-inspect - a test helper (not installed): size and colour
 * statistics of a PNG, so that tests/cli/view.sh can check gcut-view's
 * screenshots without image tools on the test machine.
 *
 *     gcut-view-inspect shot.png
 *
 * prints `size: WxH`, `mean:` and `stddev:` of the samples, `colours:`
 * (distinct RGB values), `boundary:` (pure green pixels, the overlay's
 * boundary), `tinted:` (blue-tinted pixels, the dimmed background) and
 * `black:`, one item per line. The image is read as gcut-view reads its
 * own (load_rgb, demos/view/strokes.c: 8-bit RGB).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "view_internal.h"

static const char usage[] =
    "usage: gcut-view-inspect FILE\n"
    "Print the size and colour statistics of an image (a test helper of gcut-view).\n";

/* Statistics of a PNG for the tests (no image tools needed on the test
 * machine): size, mean and spread of the samples, distinct colours, and
 * pixels that are pure boundary green or dimmed blue-tinted overlay. */
static int inspect(const char *path)
{
    gcut_image *img = NULL;
    if (load_rgb(path, &img))
        return 1;
    double sum = 0, sum2 = 0;
    int64_t green = 0, tinted = 0, black = 0;
    const int64_t n = (int64_t)img->width * img->height;
    uint8_t *seen = calloc(1u << 21, 1); /* 2^24 colours, one bit each */
    int64_t distinct = 0;
    for (int32_t y = 0; y < img->height; y++)
        for (int32_t x = 0; x < img->width; x++) {
            const uint8_t *q = img->data + (size_t)y * img->stride + 3 * (size_t)x;
            const double l = (q[0] + q[1] + q[2]) / 3.0;
            sum += l;
            sum2 += l * l;
            green += q[0] == 0 && q[1] == 255 && q[2] == 0;
            tinted += q[2] > q[0] + 20 && q[2] > q[1] + 10;
            black += q[0] == 0 && q[1] == 0 && q[2] == 0;
            const uint32_t c = ((uint32_t)q[0] << 16) | ((uint32_t)q[1] << 8) | q[2];
            if (seen && !(seen[c >> 3] & (1u << (c & 7)))) {
                seen[c >> 3] |= (uint8_t)(1u << (c & 7));
                distinct++;
            }
        }
    const double mean = sum / n;
    printf("size: %dx%d\nmean: %.1f\nstddev: %.1f\ncolours: %lld\nboundary: %lld\n"
           "tinted: %lld\nblack: %lld\n",
           img->width, img->height, mean, sqrt(sum2 / n - mean * mean), (long long)distinct,
           (long long)green, (long long)tinted, (long long)black);
    free(seen);
    gcut_image_free(img);
    return 0;
}

int main(int argc, char **argv)
{
    cli_init("gcut-view-inspect", usage);
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_info_option(argv[i]))
            return 0;
        if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("unknown option", argv[i]);
        if (path)
            return cli_usage_error("more than one file", argv[i]);
        path = argv[i];
    }
    if (!path)
        return cli_usage_error("no file given", NULL);
    return inspect(path);
}
