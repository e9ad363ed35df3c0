/*
 * fuzz_common.h - the checks every image fuzz target runs on one input.
 *
 * Included by fuzz_png.c, fuzz_jpeg.c and fuzz_pnm.c, which differ only in
 * the writer used for the round trip. For an input the loader accepts:
 *  - the image is well formed (sizes within the limits, packed stride);
 *  - the conversions succeed and stay in range;
 *  - writing it (to memory, with the same encoder gcut_image_save uses)
 *    and loading the result gives back exactly the same pixels (for
 *    images up to 1 MiB).
 * For an input it refuses: the status is an error, gcut_last_status()
 * agrees, and the message names the input. Any violation aborts, which
 * libFuzzer reports as a crash; leaks and memory errors are caught by ASan.
 */
#ifndef GCUT_FUZZ_COMMON_H
#define GCUT_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/image_internal.h"

#define FUZZ_NAME "fuzz-input"

/* Largest image (pixel bytes) that is written back and reloaded. */
#define FUZZ_ROUND_TRIP_MAX ((size_t)1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_die(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz: %s: %s\n", what, detail ? detail : "");
    abort();
}

static int fuzz_same(const gcut_image *a, const gcut_image *b)
{
    if (a->width != b->width || a->height != b->height || a->channels != b->channels ||
        a->depth != b->depth)
        return 0;
    size_t row = gcut_i_image_row_bytes(a);
    for (int32_t y = 0; y < a->height; y++)
        if (memcmp(a->data + (size_t)y * a->stride, b->data + (size_t)y * b->stride, row))
            return 0;
    return 1;
}

/* Encode with the PNG or PNM writer into memory, decode, compare. */
static void fuzz_round_trip(const gcut_image *img, gcut_i_image_format format)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return; /* out of memory in the harness: nothing to learn */
    gcut_status st = format == GCUT_I_FORMAT_PNG ? gcut_i_png_encode("fuzz", "mem", img, f)
                                                 : gcut_i_pnm_encode("fuzz", "mem", img, f);
    fclose(f);
    if (st != GCUT_OK)
        fuzz_die("writer failed", gcut_last_error());
    gcut_image *back = NULL;
    if (gcut_image_load_memory(buf, len, "round-trip", &back) != GCUT_OK)
        fuzz_die("reloading the written image failed", gcut_last_error());
    if (!fuzz_same(img, back))
        fuzz_die("round trip changed the image", format == GCUT_I_FORMAT_PNG ? "PNG" : "PNM");
    gcut_image_free(back);
    free(buf);
}

static void fuzz_check_image(const gcut_image *img)
{
    if (img->width < 1 || img->height < 1 || img->width > GCUT_IMAGE_MAX_SIDE ||
        img->height > GCUT_IMAGE_MAX_SIDE ||
        (img->channels != 1 && img->channels != 3 && img->channels != 4) ||
        (img->depth != 8 && img->depth != 16) || img->stride != gcut_i_image_row_bytes(img) ||
        (uint64_t)img->stride * (uint64_t)img->height > GCUT_I_IMAGE_MAX_BYTES)
        fuzz_die("malformed image", NULL);
    gcut_image *gray = NULL, *rgb = NULL;
    if (gcut_image_to_gray(img, &gray) != GCUT_OK)
        fuzz_die("conversion to gray failed", gcut_last_error());
    /* Gray to RGB triples the size, which may pass the limit: that must be
     * reported as an overflow, and is the only acceptable failure. */
    gcut_status st = gcut_image_to_rgb(img, &rgb);
    if (st != GCUT_OK && !(st == GCUT_ERR_OVERFLOW && img->channels == 1))
        fuzz_die("conversion to RGB failed", gcut_last_error());
    if (gray->channels != 1 || gray->depth != img->depth || (rgb && rgb->channels != 3))
        fuzz_die("conversion has the wrong layout", NULL);
    size_t n = (size_t)img->width * (size_t)img->height * (size_t)img->channels;
    float *fl = malloc(n * sizeof *fl);
    if (fl) {
        if (gcut_image_to_float(img, fl, GCUT_IMAGE_FLOAT_UNIT) != GCUT_OK)
            fuzz_die("to_float failed", gcut_last_error());
        for (size_t i = 0; i < n; i++)
            if (!(fl[i] >= 0.0f && fl[i] <= 1.0f))
                fuzz_die("to_float out of [0, 1]", NULL);
        free(fl);
    }
    gcut_image_free(gray);
    gcut_image_free(rgb);
}

/* The body of every target: `format` is the writer of the round trip. */
static int fuzz_one(const uint8_t *data, size_t size, gcut_i_image_format format)
{
    gcut_image *img = NULL;
    gcut_status st = gcut_image_load_memory(data, size, FUZZ_NAME, &img);
    if (st != GCUT_OK) {
        static const char prefix[] = "gcut_image_load_memory: " FUZZ_NAME ": ";
        const char *msg = gcut_last_error();
        if (img || gcut_last_status() != st || strncmp(msg, prefix, sizeof prefix - 1) != 0)
            fuzz_die("bad failure report", msg);
        return 0;
    }
    fuzz_check_image(img);
    /* Round trips of large images (which a few bytes of progressive or
     * arithmetic-coded JPEG can announce) would slow the fuzzer down without
     * exercising anything new: the writers do not depend on the size. */
    if (gcut_i_image_row_bytes(img) * (size_t)img->height > FUZZ_ROUND_TRIP_MAX) {
        gcut_image_free(img);
        return 0;
    }
    if (format == GCUT_I_FORMAT_PNG && !gcut_image_format_available("png"))
        format = GCUT_I_FORMAT_PNM;
    if (format == GCUT_I_FORMAT_PNM && img->channels == 4) {
        gcut_image *rgb = NULL;
        if (gcut_image_to_rgb(img, &rgb) != GCUT_OK)
            fuzz_die("conversion failed", gcut_last_error());
        fuzz_round_trip(rgb, format);
        gcut_image_free(rgb);
    } else {
        fuzz_round_trip(img, format);
    }
    gcut_image_free(img);
    return 0;
}

#endif /* GCUT_FUZZ_COMMON_H */
