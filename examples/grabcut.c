/*
 * grabcut.c - GrabCut from a rectangle: colour models learnt inside and
 * outside the box, re-estimated over 5 iterations of cuts.
 *
 *     example-grabcut [IMAGE [TRUTH [MASK-OUT]]]
 *
 * Defaults to the bundled images/shapes.png and its ground truth
 * images/shapes-gt.png (run from the repository root, as CTest does), and
 * prints the error rate against the truth (exit status 1 above 5%).
 * Built and run by CTest (docs/segmentation.md shows it).
 */
#include <stdio.h>
#include <stdlib.h>

#include <gcut/gcut.h>
#include <gcut/vision/image.h>
#include <gcut/vision/segment.h>

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "images/shapes.png";
    const char *truth_path = argc > 2 ? argv[2] : "images/shapes-gt.png";
    gcut_image *img = NULL, *truth = NULL, *gray = NULL;
    uint8_t *seeds = NULL, *mask = NULL, *tmask = NULL;
    int status = 1;
    if (gcut_image_load(path, &img) != GCUT_OK)
        goto done;
    const int32_t w = img->width, h = img->height;
    seeds = malloc((size_t)w * h);
    mask = malloc((size_t)w * h);
    if (!seeds || !mask)
        goto done;
    /* Everything outside the box is background; inside is unknown. */
    if (gcut_seeds_from_rect(w, h, 8, 8, w - 16, h - 16, seeds) != GCUT_OK)
        goto done;
    /* NULL options: GrabCut's defaults (GMM k=5, lambda 35, 8-connected,
     * backend "auto"); gcut_grabcut_options_init() fills them to change one. */
    gcut_seg_stats stats;
    if (gcut_grabcut(img, seeds, 5, NULL, mask, &stats) != GCUT_OK) /* 0 / 255 per pixel */
        goto done;
    int64_t fg = 0;
    for (int64_t i = 0; i < (int64_t)w * h; i++)
        fg += mask[i] != 0;
    printf("%s: %d x %d, %lld foreground pixels, %.1f ms\n", path, (int)w, (int)h,
           (long long)fg, stats.total_ms);
    if (argc > 3) { /* save the mask as an 8-bit gray image */
        gcut_image *out;
        if (gcut_image_new(&out, w, h, 1, 8) != GCUT_OK)
            goto done;
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++)
                out->data[y * out->stride + x] = mask[y * w + x];
        const gcut_status st = gcut_image_save(out, argv[3]);
        gcut_image_free(out);
        if (st != GCUT_OK)
            goto done;
    }
    /* Against the ground truth (0 background, 255 foreground). */
    if (gcut_image_load(truth_path, &truth) != GCUT_OK ||
        gcut_image_to_gray(truth, &gray) != GCUT_OK || gray->width != w || gray->height != h)
        goto done;
    tmask = malloc((size_t)w * h);
    if (!tmask)
        goto done;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            tmask[y * w + x] = gray->data[y * gray->stride + x];
    gcut_seg_eval ev;
    if (gcut_seg_evaluate(mask, tmask, NULL, (int64_t)w * h, &ev) != GCUT_OK)
        goto done;
    printf("error rate %.2f%%, IoU %.3f\n", 100.0 * ev.error_rate, ev.iou);
    status = ev.error_rate <= 0.05 ? 0 : 1;
done:
    if (status && gcut_last_status() != GCUT_OK)
        fprintf(stderr, "example-grabcut: %s\n", gcut_last_error());
    free(seeds);
    free(mask);
    free(tmask);
    gcut_image_free(img);
    gcut_image_free(truth);
    gcut_image_free(gray);
    return status;
}
