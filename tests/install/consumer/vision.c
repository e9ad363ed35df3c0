/* A program outside the gcut tree using the vision layer: writes a PNG
 * (a PNM where gcut has no libpng) into the folder given, reads it back
 * and compares. Linked statically, it needs what libgcut_vision was built
 * with (libpng, libjpeg, zlib) on its link line. */
#include <stdio.h>
#include <string.h>

#include <gcut/gcut.h>
#include <gcut/vision/image.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: consumer_vision FOLDER\n");
        return 2;
    }
    gcut_image *img = NULL, *back = NULL;
    if (gcut_image_new(&img, 3, 2, 3, 8) != GCUT_OK)
        return 1;
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 9; x++)
            img->data[(size_t)y * img->stride + (size_t)x] = (uint8_t)(40 * y + 7 * x);
    char path[4096];
    int png = gcut_image_format_available("png");
    snprintf(path, sizeof path, "%s/consumer.%s", argv[1], png ? "png" : "pnm");
    gcut_status st = png ? gcut_image_save_png(img, path) : gcut_image_save_pnm(img, path);
    if (st != GCUT_OK || gcut_image_load(path, &back) != GCUT_OK) {
        fprintf(stderr, "consumer_vision: %s\n", gcut_last_error());
        return 1;
    }
    int same = back->width == 3 && back->height == 2 && back->channels == 3 && back->depth == 8;
    for (int y = 0; same && y < 2; y++)
        same = memcmp(img->data + (size_t)y * img->stride, back->data + (size_t)y * back->stride, 9) == 0;
    gcut_image_free(img);
    gcut_image_free(back);
    if (!same) {
        fprintf(stderr, "consumer_vision: the PNG read back differs\n");
        return 1;
    }
    printf("gcut %s: vision ok (%s)\n", gcut_version(), png ? "png" : "pnm");
    return 0;
}
