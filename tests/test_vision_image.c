/*
 * test_vision_image.c - gcut_image: allocation, loaders, writers,
 * conversions, and the refusal of bad files.
 *
 * Inputs come from three places:
 *  - made here, byte for byte: PNG files through libpng (every colour type,
 *    bit depths 1..16, palettes with and without tRNS, Adam7), JPEG files
 *    through libjpeg (baseline, progressive, gray, CMYK with and without
 *    the Adobe marker, YCCK), PNM text and binary with chosen maxvals; then
 *    damaged on purpose (cut short, bad CRC, absurd sizes ...);
 *  - data/images/im_*: 16 x 16 files written by ImageMagick 6.9 (quadrants
 *    red, green, blue, white; gray ones 0, 85, 170, 255), so that files
 *    from another encoder are read too;
 *  - the photos in ../shared/data (skimage, GrabCut), when present: sizes
 *    and channels against MANIFEST.txt.
 * Files the tests write go to a scratch folder under /tmp.
 */
#define _XOPEN_SOURCE 700 /* mknod */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "testutil.h"

#include "gcut/vision/image.h"

#ifdef GCUT_HAVE_PNG
#include <png.h>
#endif
#ifdef GCUT_HAVE_JPEG
#include <jpeglib.h>
#endif

#define IMAGES "data/images/"

/* ------------------------------------------------------------- helpers */

static char g_tmp[64];

static int make_tmp(void **state)
{
    (void)state;
    snprintf(g_tmp, sizeof g_tmp, "/tmp/gcut-vision-XXXXXX");
    return mkdtemp(g_tmp) ? 0 : -1;
}

static int remove_tmp(void **state)
{
    (void)state;
    DIR *d = opendir(g_tmp);
    if (d) {
        struct dirent *e;
        char path[512];
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            snprintf(path, sizeof path, "%s/%s", g_tmp, e->d_name);
            if (remove(path) != 0)
                rmdir(path);
        }
        closedir(d);
    }
    rmdir(g_tmp);
    return 0;
}

/* A path in the scratch folder (a few rotating buffers). */
static const char *tmp(const char *name)
{
    static char bufs[4][512];
    static int k;
    char *b = bufs[k++ & 3];
    snprintf(b, sizeof bufs[0], "%s/%s", g_tmp, name);
    return b;
}

/* Entries in the scratch folder: a failed save must leave none behind. */
static int tmp_entries(void)
{
    int n = 0;
    DIR *d = opendir(g_tmp);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t cap = 1 << 16, n = 0, k;
    uint8_t *buf = malloc(cap);
    assert_non_null(buf);
    while ((k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Sample c of pixel (x, y), whatever the depth. */
static uint32_t px(const gcut_image *img, int32_t x, int32_t y, int32_t c)
{
    const uint8_t *row = img->data + (size_t)y * img->stride;
    size_t i = (size_t)x * (size_t)img->channels + (size_t)c;
    if (img->depth == 8)
        return row[i];
    uint16_t v;
    memcpy(&v, row + 2 * i, 2);
    return v;
}

static void set_px(gcut_image *img, int32_t x, int32_t y, int32_t c, uint32_t v)
{
    uint8_t *row = img->data + (size_t)y * img->stride;
    size_t i = (size_t)x * (size_t)img->channels + (size_t)c;
    if (img->depth == 8) {
        row[i] = (uint8_t)v;
    } else {
        uint16_t s = (uint16_t)v;
        memcpy(row + 2 * i, &s, 2);
    }
}

/* A deterministic pattern that covers 0, the maximum and values whose two
 * bytes differ (so byte-order mistakes show). */
static uint32_t pattern_value(int32_t x, int32_t y, int32_t c, int32_t depth)
{
    uint32_t max = depth == 8 ? 255u : 65535u;
    if (x == 0 && y == 0)
        return 0;
    if (x == 1 && y == 0)
        return max;
    uint32_t v = (uint32_t)(x * 7919 + y * 104729 + c * 15485863) * 2654435761u;
    return (v >> 7) % (max + 1);
}

static gcut_image *pattern(int32_t w, int32_t h, int32_t channels, int32_t depth)
{
    gcut_image *img = NULL;
    assert_int_equal(gcut_image_new(&img, w, h, channels, depth), GCUT_OK);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            for (int32_t c = 0; c < channels; c++)
                set_px(img, x, y, c, pattern_value(x, y, c, depth));
    return img;
}

static void assert_same(const gcut_image *a, const gcut_image *b)
{
    assert_int_equal(a->width, b->width);
    assert_int_equal(a->height, b->height);
    assert_int_equal(a->channels, b->channels);
    assert_int_equal(a->depth, b->depth);
    for (int32_t y = 0; y < a->height; y++)
        for (int32_t x = 0; x < a->width; x++)
            for (int32_t c = 0; c < a->channels; c++)
                if (px(a, x, y, c) != px(b, x, y, c))
                    fail_msg("pixel (%d, %d) channel %d: %u != %u", x, y, c, px(a, x, y, c),
                             px(b, x, y, c));
}

static gcut_image *load_ok(const char *path)
{
    gcut_image *img = NULL;
    gcut_status st = gcut_image_load(path, &img);
    if (st != GCUT_OK)
        fail_msg("%s: %s", path, gcut_last_error());
    assert_non_null(img);
    return img;
}

static gcut_image *load_mem_ok(const void *buf, size_t len)
{
    gcut_image *img = NULL;
    gcut_status st = gcut_image_load_memory(buf, len, "buffer", &img);
    if (st != GCUT_OK)
        fail_msg("%s", gcut_last_error());
    return img;
}

/* A load must fail with `status`, leave the output alone, and explain
 * itself: the message names the input and contains `what`. */
static void expect_load_fail(const char *path, gcut_status status, const char *what)
{
    gcut_image sentinel_obj;
    gcut_image *img = &sentinel_obj;
    gcut_status st = gcut_image_load(path, &img);
    const char *msg = gcut_last_error();
    if (st != status || !strstr(msg, what) || !strstr(msg, path))
        fail_msg("%s: got status %d (%s), wanted %d and \"%s\"", path, (int)st, msg, (int)status,
                 what);
    assert_int_equal(gcut_last_status(), status);
    assert_ptr_equal(img, &sentinel_obj);
}

static void expect_mem_fail(const void *buf, size_t len, gcut_status status, const char *what)
{
    gcut_image sentinel_obj;
    gcut_image *img = &sentinel_obj;
    gcut_status st = gcut_image_load_memory(buf, len, "case.bin", &img);
    const char *msg = gcut_last_error();
    if (st != status || !strstr(msg, what) || !strstr(msg, "case.bin"))
        fail_msg("got status %d (%s), wanted %d and \"%s\"", (int)st, msg, (int)status, what);
    assert_ptr_equal(img, &sentinel_obj);
}

/* Same status and message substring when the bytes come from a file. */
static void expect_bytes_fail(const char *name, const void *buf, size_t len, gcut_status status,
                              const char *what)
{
    expect_mem_fail(buf, len, status, what);
    const char *path = tmp(name);
    write_bytes(path, buf, len);
    expect_load_fail(path, status, what);
}

/* ------------------------------------------------------ the object itself */

static void test_new_free(void **state)
{
    (void)state;
    gcut_image *img = NULL;
    assert_int_equal(gcut_image_new(&img, 5, 3, 3, 16), GCUT_OK);
    assert_int_equal(img->width, 5);
    assert_int_equal(img->height, 3);
    assert_int_equal(img->channels, 3);
    assert_int_equal(img->depth, 16);
    assert_int_equal(img->stride, 5 * 3 * 2);
    for (int32_t y = 0; y < 3; y++)
        for (int32_t x = 0; x < 5; x++)
            for (int32_t c = 0; c < 3; c++)
                assert_int_equal(px(img, x, y, c), 0);
    gcut_image_free(img);
    gcut_image_free(NULL);

    gcut_image sentinel;
    gcut_image *keep = &sentinel;
    img = keep;
    assert_int_equal(gcut_image_new(&img, 0, 3, 1, 8), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "zero size"));
    assert_int_equal(gcut_image_new(&img, 3, -1, 1, 8), GCUT_ERR_INVALID);
    assert_int_equal(gcut_image_new(&img, 3, 3, 2, 8), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "channels"));
    assert_int_equal(gcut_image_new(&img, 3, 3, 5, 8), GCUT_ERR_INVALID);
    assert_int_equal(gcut_image_new(&img, 3, 3, 1, 12), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "depth"));
    assert_int_equal(gcut_image_new(&img, 100000, 100000, 3, 8), GCUT_ERR_OVERFLOW);
    assert_non_null(strstr(gcut_last_error(), "100000 x 100000 x 3 overflow the size limit"));
    assert_int_equal(gcut_image_new(&img, GCUT_IMAGE_MAX_SIDE + 1, 1, 1, 8), GCUT_ERR_OVERFLOW);
    /* 2^31 bytes exactly is allowed, one row more is not: checked, not allocated. */
    assert_int_equal(gcut_image_new(&img, 32768, 32769, 1, 16), GCUT_ERR_OVERFLOW);
    assert_int_equal(gcut_image_new(NULL, 3, 3, 1, 8), GCUT_ERR_INVALID);
    assert_ptr_equal(img, keep);
}

static void test_formats_available(void **state)
{
    (void)state;
    assert_int_equal(gcut_image_format_available("pnm"), 1);
    assert_int_equal(gcut_image_format_available("PGM"), 1);
#ifdef GCUT_HAVE_PNG
    assert_int_equal(gcut_image_format_available("png"), 1);
#else
    assert_int_equal(gcut_image_format_available("png"), 0);
#endif
#ifdef GCUT_HAVE_JPEG
    assert_int_equal(gcut_image_format_available("jpeg"), 1);
    assert_int_equal(gcut_image_format_available("JPG"), 1);
#endif
    /* A format left out of the build: refused with a message that says why. */
    gcut_image *img = NULL;
    if (!gcut_image_format_available("png")) {
        expect_load_fail(IMAGES "im_palette.png", GCUT_ERR_UNSUPPORTED,
                         "PNG support is not built in (libpng was not found");
        img = pattern(2, 2, 1, 8);
        assert_int_equal(gcut_image_save(img, tmp("x.png")), GCUT_ERR_UNSUPPORTED);
        gcut_image_free(img);
        assert_int_equal(tmp_entries(), 0);
    }
    if (!gcut_image_format_available("jpeg"))
        expect_load_fail(IMAGES "im_baseline.jpg", GCUT_ERR_UNSUPPORTED,
                         "JPEG support is not built in (libjpeg was not found");
    assert_int_equal(gcut_image_format_available("gif"), 0);
    assert_int_equal(gcut_image_format_available("a-very-long-name"), 0);
    assert_int_equal(gcut_image_format_available(NULL), 0);
}

/* ------------------------------------------------------------ round trips */

static const int32_t sizes[][2] = {{1, 1}, {7, 5}, {300, 2}, {2, 130}};

static void round_trip(const char *ext, int32_t channels, int32_t depth,
                       gcut_status (*save)(const gcut_image *, const char *))
{
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        gcut_image *img = pattern(sizes[s][0], sizes[s][1], channels, depth);
        char name[64];
        snprintf(name, sizeof name, "rt-%d-%d-%zu%s", (int)channels, (int)depth, s, ext);
        const char *path = tmp(name);
        gcut_status st = save(img, path);
        if (st != GCUT_OK)
            fail_msg("%s: %s", path, gcut_last_error());
        gcut_image *back = load_ok(path);
        assert_same(img, back);
        gcut_image_free(back);
        gcut_image_free(img);
        remove(path);
    }
}

static void test_png_round_trip(void **state)
{
    (void)state;
#ifndef GCUT_HAVE_PNG
    skip();
#endif
    static const int32_t ch[] = {1, 3, 4};
    for (int d = 8; d <= 16; d += 8)
        for (size_t i = 0; i < 3; i++) {
            round_trip(".png", ch[i], d, gcut_image_save);
            round_trip(".PnG", ch[i], d, gcut_image_save);
            round_trip(".data", ch[i], d, gcut_image_save_png);
        }
    assert_int_equal(tmp_entries(), 0);
}

static void test_pnm_round_trip(void **state)
{
    (void)state;
    for (int d = 8; d <= 16; d += 8) {
        round_trip(".pnm", 1, d, gcut_image_save);
        round_trip(".pnm", 3, d, gcut_image_save);
        round_trip(".pgm", 1, d, gcut_image_save);
        round_trip(".PPM", 3, d, gcut_image_save);
        round_trip(".raw", 3, d, gcut_image_save_pnm);
    }
    /* The header is the plain one the format describes. */
    gcut_image *img = pattern(4, 2, 3, 16);
    assert_int_equal(gcut_image_save(img, tmp("h.ppm")), GCUT_OK);
    size_t len;
    uint8_t *b = slurp(tmp("h.ppm"), &len);
    assert_int_equal(len, strlen("P6\n4 2\n65535\n") + 4 * 2 * 3 * 2);
    assert_memory_equal(b, "P6\n4 2\n65535\n", 13);
    /* 16-bit samples are big-endian in the file. */
    uint32_t v = px(img, 2, 0, 1);
    assert_int_equal(b[13 + (2 * 3 + 1) * 2], v >> 8);
    assert_int_equal(b[13 + (2 * 3 + 1) * 2 + 1], v & 0xff);
    free(b);
    gcut_image_free(img);
    remove(tmp("h.ppm"));
}

/* A caller's own buffer, described by a hand-filled struct whose stride
 * has padding (odd, so 16-bit rows are not even 2-byte aligned). */
static void test_user_struct_stride(void **state)
{
    (void)state;
    for (int d = 8; d <= 16; d += 8) {
        gcut_image *ref = pattern(9, 4, 3, d);
        size_t row = (size_t)9 * 3 * (size_t)(d / 8);
        size_t stride = row + 13;
        uint8_t *mem = malloc(stride * 4 + 1);
        assert_non_null(mem);
        memset(mem, 0xab, stride * 4 + 1);
        gcut_image mine = {9, 4, 3, d, stride, mem + 1};
        for (int32_t y = 0; y < 4; y++)
            memcpy(mine.data + (size_t)y * stride, ref->data + (size_t)y * ref->stride, row);
        if (gcut_image_format_available("png")) {
            assert_int_equal(gcut_image_save(&mine, tmp("mine.png")), GCUT_OK);
            gcut_image *back = load_ok(tmp("mine.png"));
            assert_same(ref, back);
            gcut_image_free(back);
        }
        assert_int_equal(gcut_image_save(&mine, tmp("mine.ppm")), GCUT_OK);
        gcut_image *back = load_ok(tmp("mine.ppm"));
        assert_same(ref, back);
        gcut_image_free(back);

        gcut_image *g1 = NULL, *g2 = NULL;
        assert_int_equal(gcut_image_to_gray(&mine, &g1), GCUT_OK);
        assert_int_equal(gcut_image_to_gray(ref, &g2), GCUT_OK);
        assert_same(g1, g2);
        gcut_image_free(g1);
        gcut_image_free(g2);
        float *f1 = malloc(9 * 4 * 3 * sizeof(float)), *f2 = malloc(9 * 4 * 3 * sizeof(float));
        assert_int_equal(gcut_image_to_float(&mine, f1, GCUT_IMAGE_FLOAT_UNIT), GCUT_OK);
        assert_int_equal(gcut_image_to_float(ref, f2, GCUT_IMAGE_FLOAT_UNIT), GCUT_OK);
        assert_memory_equal(f1, f2, 9 * 4 * 3 * sizeof(float));
        free(f1);
        free(f2);
        free(mem);
        gcut_image_free(ref);
    }
    remove(tmp("mine.png"));
    remove(tmp("mine.ppm"));
}

/* ------------------------------------------------------------ conversions */

static void test_to_gray(void **state)
{
    (void)state;
    /* Red, green, blue, white, black: BT.601 weights, rounded. */
    static const uint32_t rgb[5][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255},
                                       {0, 0, 0}};
    static const uint32_t want8[5] = {76, 150, 29, 255, 0};
    for (int32_t ch = 3; ch <= 4; ch++) {
        gcut_image *img = NULL, *g = NULL;
        assert_int_equal(gcut_image_new(&img, 5, 1, ch, 8), GCUT_OK);
        for (int32_t x = 0; x < 5; x++) {
            for (int32_t c = 0; c < 3; c++)
                set_px(img, x, 0, c, rgb[x][c]);
            if (ch == 4)
                set_px(img, x, 0, 3, (uint32_t)x * 50); /* alpha: ignored */
        }
        assert_int_equal(gcut_image_to_gray(img, &g), GCUT_OK);
        assert_int_equal(g->channels, 1);
        assert_int_equal(g->depth, 8);
        for (int32_t x = 0; x < 5; x++)
            assert_int_equal(px(g, x, 0, 0), want8[x]);
        gcut_image_free(g);
        gcut_image_free(img);
    }
    /* 16 bits: same weights on the 16-bit scale. */
    gcut_image *img = NULL, *g = NULL;
    assert_int_equal(gcut_image_new(&img, 2, 1, 3, 16), GCUT_OK);
    set_px(img, 0, 0, 0, 65535);
    for (int32_t c = 0; c < 3; c++)
        set_px(img, 1, 0, c, 65535);
    assert_int_equal(gcut_image_to_gray(img, &g), GCUT_OK);
    assert_int_equal(g->depth, 16);
    assert_int_equal(px(g, 0, 0, 0), (299u * 65535u + 500u) / 1000u);
    assert_int_equal(px(g, 1, 0, 0), 65535);
    gcut_image_free(g);
    gcut_image_free(img);
    /* Gray in: a copy. */
    img = pattern(6, 3, 1, 16);
    assert_int_equal(gcut_image_to_gray(img, &g), GCUT_OK);
    assert_same(img, g);
    assert_ptr_not_equal(img->data, g->data);
    gcut_image_free(g);
    gcut_image_free(img);
}

static void test_to_rgb(void **state)
{
    (void)state;
    for (int d = 8; d <= 16; d += 8) {
        gcut_image *gray = pattern(5, 4, 1, d), *rgba = pattern(5, 4, 4, d), *out = NULL;
        assert_int_equal(gcut_image_to_rgb(gray, &out), GCUT_OK);
        assert_int_equal(out->channels, 3);
        assert_int_equal(out->depth, d);
        for (int32_t y = 0; y < 4; y++)
            for (int32_t x = 0; x < 5; x++)
                for (int32_t c = 0; c < 3; c++)
                    assert_int_equal(px(out, x, y, c), px(gray, x, y, 0));
        gcut_image_free(out);
        assert_int_equal(gcut_image_to_rgb(rgba, &out), GCUT_OK);
        for (int32_t y = 0; y < 4; y++)
            for (int32_t x = 0; x < 5; x++)
                for (int32_t c = 0; c < 3; c++)
                    assert_int_equal(px(out, x, y, c), px(rgba, x, y, c));
        gcut_image *again = NULL;
        assert_int_equal(gcut_image_to_rgb(out, &again), GCUT_OK);
        assert_same(out, again);
        gcut_image_free(again);
        gcut_image_free(out);
        gcut_image_free(gray);
        gcut_image_free(rgba);
    }
}

static void test_to_float(void **state)
{
    (void)state;
    gcut_image *img = NULL;
    float f[6];
    assert_int_equal(gcut_image_new(&img, 3, 2, 1, 8), GCUT_OK);
    set_px(img, 1, 0, 0, 255);
    set_px(img, 2, 0, 0, 51);
    set_px(img, 0, 1, 0, 1);
    assert_int_equal(gcut_image_to_float(img, f, GCUT_IMAGE_FLOAT_UNIT), GCUT_OK);
    assert_true(f[0] == 0.0f && f[1] == 1.0f && f[2] == 0.2f && f[3] == 1.0f / 255.0f);
    assert_int_equal(gcut_image_to_float(img, f, GCUT_IMAGE_FLOAT_255), GCUT_OK);
    assert_true(f[0] == 0.0f && f[1] == 255.0f && f[2] == 51.0f && f[3] == 1.0f);
    gcut_image_free(img);

    float g[6];
    assert_int_equal(gcut_image_new(&img, 1, 2, 3, 16), GCUT_OK);
    set_px(img, 0, 0, 0, 65535);
    set_px(img, 0, 0, 1, 257);
    set_px(img, 0, 1, 2, 32768);
    assert_int_equal(gcut_image_to_float(img, g, GCUT_IMAGE_FLOAT_UNIT), GCUT_OK);
    assert_true(g[0] == 1.0f && g[1] == 257.0f / 65535.0f && g[2] == 0.0f);
    assert_true(g[5] == 32768.0f / 65535.0f);
    assert_int_equal(gcut_image_to_float(img, g, GCUT_IMAGE_FLOAT_255), GCUT_OK);
    assert_true(g[0] == 255.0f && g[1] == 1.0f);

    assert_int_equal(gcut_image_to_float(img, NULL, GCUT_IMAGE_FLOAT_UNIT), GCUT_ERR_INVALID);
    assert_int_equal(gcut_image_to_float(NULL, g, GCUT_IMAGE_FLOAT_UNIT), GCUT_ERR_INVALID);
    assert_int_equal(gcut_image_to_float(img, g, (gcut_image_float_scale)7), GCUT_ERR_INVALID);
    gcut_image *out = NULL;
    assert_int_equal(gcut_image_to_gray(NULL, &out), GCUT_ERR_INVALID);
    assert_int_equal(gcut_image_to_rgb(img, NULL), GCUT_ERR_INVALID);
    gcut_image bad = *img;
    bad.channels = 2;
    assert_int_equal(gcut_image_to_rgb(&bad, &out), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "channels must be 1, 3 or 4"));
    bad = *img;
    bad.stride = 2;
    assert_int_equal(gcut_image_to_gray(&bad, &out), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "stride"));
    assert_null(out);
    gcut_image_free(img);
}

/* ------------------------------------------------------------------- PNG */

/* CRC-32 of PNG chunks (ISO 3309, as in the PNG spec's sample code). */
static uint32_t crc32_png(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return c ^ 0xffffffffu;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Append a chunk with a correct CRC to buf at *n. */
static void add_chunk(uint8_t *buf, size_t *n, const char *type, const uint8_t *data, uint32_t len)
{
    put32(buf + *n, len);
    memcpy(buf + *n + 4, type, 4);
    if (len)
        memcpy(buf + *n + 8, data, len);
    put32(buf + *n + 8 + len, crc32_png(buf + *n + 4, len + 4));
    *n += 12 + len;
}

/* Offset of the first chunk of the given type in a PNG file. */
static size_t find_chunk(const uint8_t *b, size_t len, const char *type)
{
    size_t pos = 8;
    while (pos + 8 <= len) {
        uint32_t l = (uint32_t)b[pos] << 24 | (uint32_t)b[pos + 1] << 16 |
                     (uint32_t)b[pos + 2] << 8 | b[pos + 3];
        if (!memcmp(b + pos + 4, type, 4))
            return pos;
        pos += 12 + l;
    }
    fail_msg("no %s chunk", type);
    return 0;
}

#ifdef GCUT_HAVE_PNG

/* Write a PNG with libpng from rows already in PNG's own layout (packed
 * bits, big-endian 16-bit samples). */
typedef struct png_spec {
    uint32_t w, h;
    int bit_depth, color_type, interlace;
    const png_color *palette;
    int npalette;
    const png_byte *trans_alpha; /* palette tRNS */
    int ntrans;
    const png_color_16 *trans_color; /* gray / RGB tRNS */
} png_spec;

static void write_png_file(const char *path, const png_spec *s, const uint8_t *rows, size_t rowbytes)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    assert_true(png && info);
    if (setjmp(png_jmpbuf(png)))
        fail_msg("libpng failed writing %s", path);
    png_init_io(png, f);
    png_set_IHDR(png, info, s->w, s->h, s->bit_depth, s->color_type, s->interlace,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (s->palette)
        png_set_PLTE(png, info, s->palette, s->npalette);
    if (s->trans_alpha || s->trans_color)
        png_set_tRNS(png, info, s->trans_alpha, s->ntrans, s->trans_color);
    png_write_info(png, info);
    int passes = png_set_interlace_handling(png);
    for (int p = 0; p < passes; p++)
        for (uint32_t y = 0; y < s->h; y++)
            png_write_row(png, rows + y * rowbytes);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    assert_int_equal(fclose(f), 0);
}

static void test_png_palette(void **state)
{
    (void)state;
    static const png_color pal[4] = {{255, 0, 0}, {0, 200, 0}, {10, 20, 30}, {255, 255, 255}};
    static const png_byte alpha[3] = {0, 128, 255};
    uint8_t rows[3 * 5];
    /* 8-bit indices, no tRNS: RGB. */
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 5; x++)
            rows[y * 5 + x] = (uint8_t)((x + y) % 4);
    png_spec s = {5, 3, 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE, pal, 4, NULL, 0, NULL};
    write_png_file(tmp("pal8.png"), &s, rows, 5);
    gcut_image *img = load_ok(tmp("pal8.png"));
    assert_int_equal(img->channels, 3);
    assert_int_equal(img->depth, 8);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 5; x++) {
            const png_color *c = &pal[(x + y) % 4];
            assert_int_equal(px(img, x, y, 0), c->red);
            assert_int_equal(px(img, x, y, 1), c->green);
            assert_int_equal(px(img, x, y, 2), c->blue);
        }
    gcut_image_free(img);
    /* 2-bit indices with tRNS for the first three entries: RGBA. Row of 5
     * 2-bit pixels = 2 bytes. */
    uint8_t packed[3 * 2];
    memset(packed, 0, sizeof packed);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 5; x++)
            packed[y * 2 + x / 4] |= (uint8_t)(((x + y) % 4) << (6 - 2 * (x % 4)));
    png_spec t = {5, 3, 2, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE, pal, 4, alpha, 3, NULL};
    write_png_file(tmp("pal2t.png"), &t, packed, 2);
    img = load_ok(tmp("pal2t.png"));
    assert_int_equal(img->channels, 4);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 5; x++) {
            int i = (x + y) % 4;
            assert_int_equal(px(img, x, y, 0), pal[i].red);
            assert_int_equal(px(img, x, y, 2), pal[i].blue);
            assert_int_equal(px(img, x, y, 3), i < 3 ? alpha[i] : 255);
        }
    gcut_image_free(img);
}

static void test_png_gray_low_bits(void **state)
{
    (void)state;
    /* 1, 2 and 4 bits: scaled to 8 (v * 255 / (2^bits - 1)). */
    for (int bits = 1; bits <= 4; bits *= 2) {
        const uint32_t w = 11, h = 3, levels = 1u << bits;
        const size_t rowbytes = (w * (uint32_t)bits + 7) / 8;
        uint8_t rows[3 * 6];
        memset(rows, 0, sizeof rows);
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                uint32_t v = (x + 2 * y) % levels, bit = x * (uint32_t)bits;
                rows[y * rowbytes + bit / 8] |= (uint8_t)(v << (8 - bits - bit % 8));
            }
        png_spec s = {w, h, bits, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, NULL, 0, NULL, 0, NULL};
        write_png_file(tmp("lowbits.png"), &s, rows, rowbytes);
        gcut_image *img = load_ok(tmp("lowbits.png"));
        assert_int_equal(img->channels, 1);
        assert_int_equal(img->depth, 8);
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
                assert_int_equal(px(img, (int32_t)x, (int32_t)y, 0),
                                 (x + 2 * y) % levels * 255 / (levels - 1));
        gcut_image_free(img);
    }
}

static void test_png_alpha_and_trns(void **state)
{
    (void)state;
    /* Gray + alpha, 8 and 16 bits: RGBA with r = g = b. */
    for (int d = 8; d <= 16; d += 8) {
        const int bps = d / 8;
        uint8_t rows[4 * 3 * 2 * 2];
        for (int i = 0; i < 4 * 3 * 2 * bps; i++)
            rows[i] = (uint8_t)(i * 37 + 5);
        png_spec s = {3, 4, d, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_INTERLACE_NONE, NULL, 0, NULL,
                      0, NULL};
        write_png_file(tmp("ga.png"), &s, rows, (size_t)3 * 2 * bps);
        gcut_image *img = load_ok(tmp("ga.png"));
        assert_int_equal(img->channels, 4);
        assert_int_equal(img->depth, d);
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 3; x++) {
                const uint8_t *p = rows + (y * 3 + x) * 2 * bps;
                uint32_t g = bps == 1 ? p[0] : (uint32_t)p[0] << 8 | p[1];
                uint32_t a = bps == 1 ? p[1] : (uint32_t)p[2] << 8 | p[3];
                for (int c = 0; c < 3; c++)
                    assert_int_equal(px(img, x, y, c), g);
                assert_int_equal(px(img, x, y, 3), a);
            }
        gcut_image_free(img);
    }
    /* Gray with a transparent value (7): RGBA, alpha 0 exactly there. */
    uint8_t g8[2 * 4] = {7, 8, 0, 255, 7, 7, 100, 6};
    png_color_16 tc;
    memset(&tc, 0, sizeof tc);
    tc.gray = 7;
    png_spec s = {4, 2, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, NULL, 0, NULL, 0, &tc};
    write_png_file(tmp("gt.png"), &s, g8, 4);
    gcut_image *img = load_ok(tmp("gt.png"));
    assert_int_equal(img->channels, 4);
    for (int i = 0; i < 8; i++) {
        assert_int_equal(px(img, i % 4, i / 4, 1), g8[i]);
        assert_int_equal(px(img, i % 4, i / 4, 3), g8[i] == 7 ? 0 : 255);
    }
    gcut_image_free(img);
    /* RGB with a transparent colour. */
    uint8_t rgb[2 * 3] = {1, 2, 3, 4, 5, 6};
    memset(&tc, 0, sizeof tc);
    tc.red = 4;
    tc.green = 5;
    tc.blue = 6;
    png_spec r = {2, 1, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, NULL, 0, NULL, 0, &tc};
    write_png_file(tmp("rt.png"), &r, rgb, 6);
    img = load_ok(tmp("rt.png"));
    assert_int_equal(img->channels, 4);
    assert_int_equal(px(img, 0, 0, 2), 3);
    assert_int_equal(px(img, 0, 0, 3), 255);
    assert_int_equal(px(img, 1, 0, 0), 4);
    assert_int_equal(px(img, 1, 0, 3), 0);
    gcut_image_free(img);
}

/* 16-bit RGB and Adam7, written from PNG-layout rows of the pattern. */
static void check_png_of_pattern(int32_t w, int32_t h, int32_t channels, int depth, int interlace)
{
    gcut_image *ref = pattern(w, h, channels, depth);
    const size_t rowbytes = (size_t)w * (size_t)channels * (size_t)(depth / 8);
    uint8_t *rows = malloc(rowbytes * (size_t)h);
    assert_non_null(rows);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            for (int32_t c = 0; c < channels; c++) {
                uint32_t v = px(ref, x, y, c);
                size_t i = (size_t)y * rowbytes + ((size_t)x * (size_t)channels + (size_t)c) *
                                                      (size_t)(depth / 8);
                if (depth == 8) {
                    rows[i] = (uint8_t)v;
                } else {
                    rows[i] = (uint8_t)(v >> 8);
                    rows[i + 1] = (uint8_t)v;
                }
            }
    int type = channels == 1 ? PNG_COLOR_TYPE_GRAY
               : channels == 3 ? PNG_COLOR_TYPE_RGB
                               : PNG_COLOR_TYPE_RGB_ALPHA;
    png_spec s = {(uint32_t)w, (uint32_t)h, depth, type, interlace, NULL, 0, NULL, 0, NULL};
    write_png_file(tmp("pat.png"), &s, rows, rowbytes);
    size_t len;
    uint8_t *file = slurp(tmp("pat.png"), &len);
    assert_int_equal(file[28], interlace == PNG_INTERLACE_ADAM7 ? 1 : 0);
    gcut_image *img = load_mem_ok(file, len);
    assert_same(ref, img);
    gcut_image_free(img);
    free(file);
    free(rows);
    gcut_image_free(ref);
}

static void test_png_16bit_and_interlaced(void **state)
{
    (void)state;
    check_png_of_pattern(6, 5, 3, 16, PNG_INTERLACE_NONE);
    check_png_of_pattern(6, 5, 1, 16, PNG_INTERLACE_NONE);
    check_png_of_pattern(13, 11, 3, 8, PNG_INTERLACE_ADAM7);
    check_png_of_pattern(13, 11, 1, 16, PNG_INTERLACE_ADAM7);
    check_png_of_pattern(1, 1, 4, 8, PNG_INTERLACE_ADAM7);
    check_png_of_pattern(3, 9, 4, 16, PNG_INTERLACE_ADAM7);
}

#endif /* GCUT_HAVE_PNG */

/* Quadrants of the ImageMagick files: red, green, blue, white. */
static const uint32_t quad_rgb[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}};
static const uint32_t quad_gray[4] = {0, 85, 170, 255};

static void check_quad(const gcut_image *img, int32_t channels, int tolerance, int gray)
{
    assert_int_equal(img->width, 16);
    assert_int_equal(img->height, 16);
    assert_int_equal(img->channels, channels);
    const uint32_t scale = img->depth == 16 ? 257 : 1;
    for (int32_t y = 0; y < 16; y++)
        for (int32_t x = 0; x < 16; x++) {
            int q = (y >= 8) * 2 + (x >= 8);
            for (int32_t c = 0; c < (channels == 4 ? 3 : channels); c++) {
                long want = (long)(gray ? quad_gray[q] : quad_rgb[q][c]) * scale;
                long got = (long)px(img, x, y, c);
                if (labs(got - want) > tolerance * (long)scale)
                    fail_msg("(%d, %d) channel %d: %ld, expected %ld", x, y, c, got, want);
            }
        }
}

static void test_imagemagick_files(void **state)
{
    (void)state;
    gcut_image *img;
    img = load_ok(IMAGES "im_p2.pgm");
    check_quad(img, 1, 0, 1);
    gcut_image_free(img);
    img = load_ok(IMAGES "im_p3.ppm");
    assert_int_equal(img->depth, 16);
    check_quad(img, 3, 0, 0);
    gcut_image_free(img);
    img = load_ok(IMAGES "im_p5_16.pgm");
    assert_int_equal(img->depth, 16);
    check_quad(img, 1, 0, 1);
    gcut_image_free(img);
    if (gcut_image_format_available("png")) {
        img = load_ok(IMAGES "im_palette.png");
        check_quad(img, 3, 0, 0);
        gcut_image_free(img);
        img = load_ok(IMAGES "im_rgb16.png");
        assert_int_equal(img->depth, 16);
        check_quad(img, 3, 0, 0);
        gcut_image_free(img);
        img = load_ok(IMAGES "im_interlaced.png");
        check_quad(img, 3, 0, 0);
        gcut_image_free(img);
        img = load_ok(IMAGES "im_gray4.png"); /* 2-bit gray */
        check_quad(img, 1, 0, 1);
        gcut_image_free(img);
        img = load_ok(IMAGES "im_gray_alpha.png");
        check_quad(img, 4, 0, 1);
        for (int32_t i = 0; i < 16; i++)
            assert_int_equal(px(img, i, i, 3), 128);
        gcut_image_free(img);
    }
    if (gcut_image_format_available("jpeg")) {
        img = load_ok(IMAGES "im_baseline.jpg");
        check_quad(img, 3, 3, 0);
        gcut_image_free(img);
        img = load_ok(IMAGES "im_progressive.jpg");
        check_quad(img, 3, 3, 0);
        gcut_image_free(img);
        img = load_ok(IMAGES "im_gray.jpg");
        check_quad(img, 1, 3, 1);
        gcut_image_free(img);
        img = load_ok(IMAGES "im_cmyk.jpg"); /* YCCK with an Adobe marker */
        check_quad(img, 3, 3, 0);
        gcut_image_free(img);
    }
}

static void test_png_bad(void **state)
{
    (void)state;
#ifndef GCUT_HAVE_PNG
    skip();
#endif
    gcut_image *img = pattern(40, 30, 3, 8);
    assert_int_equal(gcut_image_save(img, tmp("good.png")), GCUT_OK);
    gcut_image_free(img);
    size_t len;
    uint8_t *good = slurp(tmp("good.png"), &len);
    uint8_t *b = malloc(len + 4096);
    assert_non_null(b);

    /* Cut in the middle of IDAT, and just before IEND. */
    expect_bytes_fail("cut.png", good, len / 2, GCUT_ERR_PARSE, "truncated (libpng: Read Error)");
    expect_bytes_fail("noiend.png", good, len - 12, GCUT_ERR_PARSE, "truncated");
    expect_bytes_fail("sig.png", good, 5, GCUT_ERR_PARSE, "truncated");
    expect_bytes_fail("sigonly.png", good, 8, GCUT_ERR_PARSE, "truncated");

    /* A wrong CRC on the image data. (A flipped bit in the data itself
     * is caught by inflate first: libpng checks the CRC at the chunk's end.) */
    size_t idat = find_chunk(good, len, "IDAT");
    uint32_t ilen = (uint32_t)good[idat] << 24 | (uint32_t)good[idat + 1] << 16 |
                    (uint32_t)good[idat + 2] << 8 | good[idat + 3];
    memcpy(b, good, len);
    b[idat + 8 + ilen + 2] ^= 0x10;
    expect_bytes_fail("crc.png", b, len, GCUT_ERR_PARSE, "IDAT: CRC error");
    /* Garbage in the deflate stream, under a correct CRC. */
    memcpy(b, good, len);
    memset(b + idat + 8 + 2, 0xff, ilen > 8 ? 6 : 1);
    put32(b + idat + 8 + ilen, crc32_png(b + idat + 4, ilen + 4));
    expect_bytes_fail("zlib.png", b, len, GCUT_ERR_PARSE, "corrupt PNG (libpng: ");
    /* A text chunk that claims 1.2 GB: refused before libpng allocates. */
    size_t n = idat;
    memcpy(b, good, idat);
    static const uint8_t text[] = "Comment\0hi";
    add_chunk(b, &n, "tEXt", text, sizeof text - 1);
    put32(b + idat, 0x494d4525u);
    memcpy(b + n, good + idat, len - idat);
    n += len - idat;
    char want[128];
    snprintf(want, sizeof want, "truncated: chunk tEXt at byte %zu declares 1229800741 bytes",
             idat);
    expect_bytes_fail("bigtext.png", b, n, GCUT_ERR_PARSE, want);
    /* A bad IHDR CRC. */
    memcpy(b, good, len);
    b[8 + 8 + 12] ^= 1;
    expect_bytes_fail("ihdrcrc.png", b, len, GCUT_ERR_PARSE, "IHDR: CRC error");

    /* Hand-made headers: signature, IHDR, a small IDAT, IEND. */
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static const uint8_t tiny_idat[] = {0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01};
    struct {
        const char *name;
        uint32_t w, h;
        uint8_t depth, type;
        gcut_status st;
        const char *what;
    } hdr[] = {
        {"zero.png", 0, 10, 8, 2, GCUT_ERR_PARSE, "image has zero size (0 x 10)"},
        {"zeroh.png", 7, 0, 8, 0, GCUT_ERR_PARSE, "image has zero size (7 x 0)"},
        {"absurd.png", 100000, 100000, 8, 2, GCUT_ERR_OVERFLOW,
         "dimensions 100000 x 100000 x 3 overflow the size limit"},
        {"absurd16.png", 40000, 40000, 16, 0, GCUT_ERR_OVERFLOW, "40000 x 40000 x 1"},
        {"bomb.png", 20000, 20000, 8, 0, GCUT_ERR_PARSE, "cannot hold a 20000 x 20000 image"},
        {"badtype.png", 4, 4, 8, 5, GCUT_ERR_PARSE, "corrupt PNG (libpng: "},
        {"baddepth.png", 4, 4, 3, 2, GCUT_ERR_PARSE, "corrupt PNG (libpng: "},
    };
    for (size_t i = 0; i < sizeof hdr / sizeof hdr[0]; i++) {
        uint8_t ihdr[13] = {0};
        put32(ihdr, hdr[i].w);
        put32(ihdr + 4, hdr[i].h);
        ihdr[8] = hdr[i].depth;
        ihdr[9] = hdr[i].type;
        n = 8;
        memcpy(b, sig, 8);
        add_chunk(b, &n, "IHDR", ihdr, 13);
        add_chunk(b, &n, "IDAT", tiny_idat, sizeof tiny_idat);
        add_chunk(b, &n, "IEND", NULL, 0);
        expect_bytes_fail(hdr[i].name, b, n, hdr[i].st, hdr[i].what);
    }
    free(b);
    free(good);
}

/* An ancillary chunk with a bad CRC: libpng skips it with a warning, the
 * image loads, and the warning reaches the log sink. */
static int g_warnings;
static char g_warning[512];
static void count_log(void *user, gcut_log_level level, const char *message)
{
    (void)user;
    if (level == GCUT_LOG_WARN) {
        g_warnings++;
        snprintf(g_warning, sizeof g_warning, "%s", message);
    }
}

static void test_png_warning_logged(void **state)
{
    (void)state;
#ifndef GCUT_HAVE_PNG
    skip();
#endif
    gcut_image *img = pattern(8, 8, 1, 8);
    assert_int_equal(gcut_image_save(img, tmp("w.png")), GCUT_OK);
    size_t len;
    uint8_t *good = slurp(tmp("w.png"), &len);
    uint8_t *b = malloc(len + 64);
    size_t idat = find_chunk(good, len, "IDAT"), n = idat;
    memcpy(b, good, idat);
    static const uint8_t text[] = "Comment\0hello";
    add_chunk(b, &n, "tEXt", text, sizeof text - 1);
    b[n - 1] ^= 0xff; /* break its CRC */
    memcpy(b + n, good + idat, len - idat);
    n += len - idat;
    g_warnings = 0;
    gcut_set_log_callback(count_log, NULL);
    gcut_image *back = load_mem_ok(b, n);
    gcut_set_log_callback(NULL, NULL);
    assert_same(img, back);
    assert_int_equal(g_warnings, 1);
    assert_non_null(strstr(g_warning, "buffer: libpng warning: tEXt: CRC error"));
    gcut_image_free(back);
    gcut_image_free(img);
    free(b);
    free(good);
}

/* ------------------------------------------------------------------ JPEG */

#ifdef GCUT_HAVE_JPEG

typedef struct jpeg_spec {
    int components;
    J_COLOR_SPACE in, jpeg; /* jpeg: JCS_UNKNOWN for libjpeg's default */
    int progressive;
    int adobe; /* -1: libjpeg's default */
    int quality;
    int full_chroma; /* 1: no subsampling (all components 1 x 1) */
    int arith;       /* 1: arithmetic coding */
} jpeg_spec;

static uint8_t *make_jpeg(const uint8_t *pixels, int w, int h, const jpeg_spec *s, size_t *len)
{
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr err;
    unsigned char *out = NULL;
    unsigned long size = 0;
    c.err = jpeg_std_error(&err);
    jpeg_create_compress(&c);
    jpeg_mem_dest(&c, &out, &size);
    c.image_width = (JDIMENSION)w;
    c.image_height = (JDIMENSION)h;
    c.input_components = s->components;
    c.in_color_space = s->in;
    jpeg_set_defaults(&c);
    if (s->jpeg != JCS_UNKNOWN)
        jpeg_set_colorspace(&c, s->jpeg);
    if (s->adobe >= 0)
        c.write_Adobe_marker = (boolean)s->adobe;
    jpeg_set_quality(&c, s->quality, TRUE);
    if (s->progressive)
        jpeg_simple_progression(&c);
    c.arith_code = (boolean)s->arith;
    for (int i = 0; s->full_chroma && i < c.num_components; i++)
        c.comp_info[i].h_samp_factor = c.comp_info[i].v_samp_factor = 1;
    jpeg_start_compress(&c, TRUE);
    while (c.next_scanline < c.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)c.next_scanline * (size_t)w * (size_t)s->components);
        jpeg_write_scanlines(&c, &row, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    uint8_t *copy = malloc(size);
    assert_non_null(copy);
    memcpy(copy, out, size);
    free(out);
    *len = size;
    return copy;
}

/* Smooth content (JPEG's best case) so that a small error bound holds. */
static uint8_t smooth(int x, int y, int c) { return (uint8_t)(40 + 4 * x + 3 * y + 30 * c); }

static int has_marker(const uint8_t *b, size_t len, uint8_t m)
{
    for (size_t i = 0; i + 1 < len; i++)
        if (b[i] == 0xff && b[i + 1] == m)
            return 1;
    return 0;
}

static void test_jpeg_baseline_progressive_gray(void **state)
{
    (void)state;
    enum { W = 24, H = 16 };
    uint8_t rgb[W * H * 3], gray[W * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            for (int c = 0; c < 3; c++)
                rgb[(y * W + x) * 3 + c] = smooth(x, y, c);
            gray[y * W + x] = smooth(x, y, 1);
        }
    /* prog: 0 baseline, 1 progressive, 2 arithmetic, 3 progressive arithmetic */
    for (int prog = 0; prog <= 3; prog++) {
        jpeg_spec s = {3, JCS_RGB, JCS_UNKNOWN, prog % 2, -1, 95, 0, prog / 2};
        size_t len;
        uint8_t *jpg = make_jpeg(rgb, W, H, &s, &len);
        static const uint8_t sof[4] = {0xc0, 0xc2, 0xc9, 0xca}; /* SOF0, 2, 9, 10 */
        assert_true(has_marker(jpg, len, sof[prog]));
        gcut_image *img = load_mem_ok(jpg, len);
        assert_int_equal(img->width, W);
        assert_int_equal(img->height, H);
        assert_int_equal(img->channels, 3);
        assert_int_equal(img->depth, 8);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int c = 0; c < 3; c++)
                    assert_true(abs((int)px(img, x, y, c) - smooth(x, y, c)) <= 6);
        gcut_image_free(img);
        /* The same bytes from a file named .png: the magic decides. */
        write_bytes(tmp("really-a-jpeg.png"), jpg, len);
        img = load_ok(tmp("really-a-jpeg.png"));
        assert_int_equal(img->channels, 3);
        gcut_image_free(img);
        /* Only the final EOI missing: a sequential Huffman-coded file has
         * every pixel and is accepted; in a progressive one a missing scan
         * would look the same, and arithmetic decoding gives no sign of
         * missing data, so those are refused. */
        if (prog == 0) {
            gcut_image *full = load_mem_ok(jpg, len);
            img = load_mem_ok(jpg, len - 2);
            assert_same(full, img);
            gcut_image_free(img);
            gcut_image_free(full);
        } else {
            expect_mem_fail(jpg, len - 2, GCUT_ERR_PARSE, "truncated");
        }
        /* Cut: refused. */
        static const char *cut[4] = {"cut.jpg", "cut-prog.jpg", "cut-arith.jpg", "cut-pa.jpg"};
        expect_bytes_fail(cut[prog], jpg, len * 2 / 3, GCUT_ERR_PARSE, "truncated (libjpeg: ");
        free(jpg);
    }
    jpeg_spec g = {1, JCS_GRAYSCALE, JCS_UNKNOWN, 0, -1, 95, 0, 0};
    size_t len;
    uint8_t *jpg = make_jpeg(gray, W, H, &g, &len);
    gcut_image *img = load_mem_ok(jpg, len);
    assert_int_equal(img->channels, 1);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_true(abs((int)px(img, x, y, 0) - smooth(x, y, 1)) <= 3);
    gcut_image_free(img);
    free(jpg);
}

/* CMYK: four flat 8 x 8 blocks (one DCT block each, so JPEG keeps them
 * almost exactly). Inverted data means value = 255 - ink. */
static void test_jpeg_cmyk(void **state)
{
    (void)state;
    /* ink C, M, Y, K -> expected RGB */
    static const uint8_t ink[4][4] = {{0, 0, 0, 0}, {255, 0, 0, 0}, {0, 0, 0, 128}, {0, 255, 255, 64}};
    uint32_t want[4][3];
    for (int q = 0; q < 4; q++)
        for (int c = 0; c < 3; c++)
            want[q][c] = ((255u - ink[q][c]) * (255u - ink[q][3]) + 127) / 255;
    /* {adobe marker, YCCK}: plain CMYK without the marker, inverted with it. */
    static const int modes[3][2] = {{0, 0}, {1, 0}, {1, 1}};
    for (int m = 0; m < 3; m++) {
        const int inverted = modes[m][0];
        uint8_t px4[16 * 16 * 4];
        for (int y = 0; y < 16; y++)
            for (int x = 0; x < 16; x++)
                for (int c = 0; c < 4; c++) {
                    uint8_t v = ink[(y >= 8) * 2 + (x >= 8)][c];
                    px4[(y * 16 + x) * 4 + c] = inverted ? (uint8_t)(255 - v) : v;
                }
        jpeg_spec s = {4, JCS_CMYK, modes[m][1] ? JCS_YCCK : JCS_CMYK, 0, inverted, 100, 1, 0};
        size_t len;
        uint8_t *jpg = make_jpeg(px4, 16, 16, &s, &len);
        gcut_image *img = load_mem_ok(jpg, len);
        assert_int_equal(img->channels, 3);
        for (int y = 0; y < 16; y++)
            for (int x = 0; x < 16; x++)
                for (int c = 0; c < 3; c++) {
                    int q = (y >= 8) * 2 + (x >= 8);
                    if (abs((int)px(img, x, y, c) - (int)want[q][c]) > 3)
                        fail_msg("mode %d (%d, %d) c %d: %u, expected %u", m, x, y, c,
                                 px(img, x, y, c), want[q][c]);
                }
        gcut_image_free(img);
        free(jpg);
    }
}

/* Offset of the SOF0 segment's height field. */
static size_t sof_dims(const uint8_t *b, size_t len)
{
    for (size_t i = 2; i + 9 < len; i++)
        if (b[i] == 0xff && (b[i + 1] == 0xc0 || b[i + 1] == 0xc2))
            return i + 5;
    fail_msg("no SOF marker");
    return 0;
}

static void test_jpeg_bad(void **state)
{
    (void)state;
    uint8_t rgb[16 * 16 * 3];
    for (int i = 0; i < 16 * 16 * 3; i++)
        rgb[i] = (uint8_t)(i * 7);
    jpeg_spec s = {3, JCS_RGB, JCS_UNKNOWN, 0, -1, 90, 0, 0};
    size_t len;
    uint8_t *jpg = make_jpeg(rgb, 16, 16, &s, &len);
    uint8_t *b = malloc(len);
    size_t sof = sof_dims(jpg, len);
    /* Absurd dimensions: 60000 x 60000 x 3 is far past the limit. */
    memcpy(b, jpg, len);
    b[sof] = 0xea, b[sof + 1] = 0x60, b[sof + 2] = 0xea, b[sof + 3] = 0x60;
    expect_bytes_fail("huge.jpg", b, len, GCUT_ERR_OVERFLOW,
                      "dimensions 60000 x 60000 x 3 overflow the size limit");
    /* Zero width. */
    memcpy(b, jpg, len);
    b[sof + 2] = 0, b[sof + 3] = 0;
    expect_bytes_fail("zero.jpg", b, len, GCUT_ERR_PARSE, "corrupt JPEG (libjpeg: ");
    /* Zero components. */
    memcpy(b, jpg, len);
    b[sof + 4] = 0;
    expect_bytes_fail("nocomp.jpg", b, len, GCUT_ERR_PARSE, "corrupt JPEG (libjpeg: ");
    /* Header only. */
    expect_bytes_fail("header.jpg", jpg, sof + 4, GCUT_ERR_PARSE, "truncated (libjpeg: ");
    expect_bytes_fail("soi.jpg", jpg, 2, GCUT_ERR_PARSE, "truncated");
    expect_bytes_fail("soi3.jpg", jpg, 3, GCUT_ERR_PARSE, "truncated (libjpeg: ");
    /* Garbage in the entropy-coded data: a marker in the middle of it. */
    memcpy(b, jpg, len);
    size_t sos = 0;
    for (size_t i = 2; i + 1 < len; i++)
        if (b[i] == 0xff && b[i + 1] == 0xda)
            sos = i;
    assert_true(sos > 0 && sos + 30 < len);
    b[sos + 20] = 0xff;
    b[sos + 21] = 0xd9; /* an early EOI */
    expect_bytes_fail("early-eoi.jpg", b, len, GCUT_ERR_PARSE, "corrupt JPEG (libjpeg: ");
    free(b);
    free(jpg);
}

#endif /* GCUT_HAVE_JPEG */

/* ------------------------------------------------------------------- PNM */

static void load_text(const char *text, gcut_image **img)
{
    *img = load_mem_ok(text, strlen(text));
}

static void test_pnm_plain_and_maxval(void **state)
{
    (void)state;
    gcut_image *img;
    /* P2, comments everywhere, maxval 255. */
    load_text("P2 # a comment\n# another\n3 2\n255\n0 1 2 # in the raster too\n253 254 255\n",
              &img);
    assert_int_equal(img->channels, 1);
    assert_int_equal(img->depth, 8);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(px(img, i, 0, 0), i);
        assert_int_equal(px(img, i, 1, 0), 253 + i);
    }
    gcut_image_free(img);
    /* P2 maxval 65535: 16-bit, values as they are. */
    load_text("P2\n2 1\n65535\n65535 258\n", &img);
    assert_int_equal(img->depth, 16);
    assert_int_equal(px(img, 0, 0, 0), 65535);
    assert_int_equal(px(img, 1, 0, 0), 258);
    gcut_image_free(img);
    /* Odd maxvals are scaled to the full range, rounded. */
    load_text("P2\n4 1\n1000\n0 1000 500 1\n", &img);
    assert_int_equal(img->depth, 16);
    assert_int_equal(px(img, 0, 0, 0), 0);
    assert_int_equal(px(img, 1, 0, 0), 65535);
    assert_int_equal(px(img, 2, 0, 0), 32768);
    assert_int_equal(px(img, 3, 0, 0), 66);
    gcut_image_free(img);
    load_text("P2\n3 1\n15\n15 7 0", &img); /* no final newline */
    assert_int_equal(img->depth, 8);
    assert_int_equal(px(img, 0, 0, 0), 255);
    assert_int_equal(px(img, 1, 0, 0), 119);
    gcut_image_free(img);
    load_text("P2\n2 1\n1\n1 0\n", &img);
    assert_int_equal(px(img, 0, 0, 0), 255);
    gcut_image_free(img);
    /* P3. */
    load_text("P3\n2 1\n255\n255 0 0   0 128 255\n", &img);
    assert_int_equal(img->channels, 3);
    assert_int_equal(px(img, 0, 0, 0), 255);
    assert_int_equal(px(img, 1, 0, 1), 128);
    assert_int_equal(px(img, 1, 0, 2), 255);
    gcut_image_free(img);
    /* CRLF line ends. */
    load_text("P3\r\n1 1\r\n255\r\n1 2 3\r\n", &img);
    assert_int_equal(px(img, 0, 0, 2), 3);
    gcut_image_free(img);
}

static void test_pnm_binary(void **state)
{
    (void)state;
    /* P5 maxval 1000: two bytes per sample, big-endian, scaled. */
    static const uint8_t p5[] = "P5\n3 1\n1000\n\x00\x00\x03\xe8\x01\xf4";
    gcut_image *img = load_mem_ok(p5, sizeof p5 - 1);
    assert_int_equal(img->depth, 16);
    assert_int_equal(px(img, 0, 0, 0), 0);
    assert_int_equal(px(img, 1, 0, 0), 65535);
    assert_int_equal(px(img, 2, 0, 0), 32768);
    gcut_image_free(img);
    /* P6 maxval 65535. */
    static const uint8_t p6[] = "P6 1 1 65535 \x12\x34\xff\xfe\x00\x01";
    img = load_mem_ok(p6, sizeof p6 - 1);
    assert_int_equal(img->channels, 3);
    assert_int_equal(px(img, 0, 0, 0), 0x1234);
    assert_int_equal(px(img, 0, 0, 1), 0xfffe);
    assert_int_equal(px(img, 0, 0, 2), 1);
    gcut_image_free(img);
    /* P5 maxval 100, one byte: 100 -> 255, 50 -> 128 (127.5 rounded up). */
    static const uint8_t p5b[] = "P5 2 1 100\n\x64\x32";
    img = load_mem_ok(p5b, sizeof p5b - 1);
    assert_int_equal(img->depth, 8);
    assert_int_equal(px(img, 0, 0, 0), 255);
    assert_int_equal(px(img, 1, 0, 0), 128);
    gcut_image_free(img);
    /* The raster may start with a byte that looks like whitespace or '#'. */
    static const uint8_t p5c[] = "P5 2 1 255\n\x0a#";
    img = load_mem_ok(p5c, sizeof p5c - 1);
    assert_int_equal(px(img, 0, 0, 0), 10);
    assert_int_equal(px(img, 1, 0, 0), '#');
    gcut_image_free(img);
    /* Data after the image (a second image) is ignored. */
    static const uint8_t two[] = "P5 1 1 255\n\x07P5 1 1 255\n\x08";
    img = load_mem_ok(two, sizeof two - 1);
    assert_int_equal(px(img, 0, 0, 0), 7);
    gcut_image_free(img);
}

static void test_pnm_bad(void **state)
{
    (void)state;
    struct {
        const char *name, *text;
        size_t len; /* 0: strlen */
        gcut_status st;
        const char *what;
    } cases[] = {
        {"absurd.pnm", "P6\n100000 100000\n255\n", 0, GCUT_ERR_OVERFLOW,
         "dimensions 100000 x 100000 x 3 overflow the size limit"},
        {"wide.pgm", "P5 16777217 1 255\n", 0, GCUT_ERR_OVERFLOW, "16777217 x 1 x 1"},
        {"digits.pgm", "P5 1234567890123456789 1 255\n", 0, GCUT_ERR_OVERFLOW,
         "width has more than 18 digits"},
        {"zero.pgm", "P5 0 10 255\n", 0, GCUT_ERR_PARSE, "image has zero size (0 x 10)"},
        {"noheight.pgm", "P5 10", 0, GCUT_ERR_PARSE, "truncated PNM header: the height is missing"},
        {"magiconly.pgm", "P5", 0, GCUT_ERR_PARSE, "the width is missing"},
        {"badw.pgm", "P5 x 1 255\n", 0, GCUT_ERR_PARSE, "expected the width (a number), found 'x'"},
        {"glued.pgm", "P510 10 255\n", 0, GCUT_ERR_PARSE, "expected whitespace after P5"},
        {"maxval0.pgm", "P5 1 1 0\n\x00", 10, GCUT_ERR_PARSE, "maxval 0 is out of range"},
        {"maxvalbig.pgm", "P5 1 1 70000\n\x00\x00", 0, GCUT_ERR_PARSE,
         "maxval 70000 is out of range"},
        {"nodata.ppm", "P6 2 2 255", 0, GCUT_ERR_PARSE, "no pixel data"},
        {"nospace.ppm", "P6 1 1 255x\x01\x02\x03", 0, GCUT_ERR_PARSE,
         "expected one whitespace byte after the maxval"},
        {"short.ppm", "P6 2 2 255\n\x01\x02\x03", 0, GCUT_ERR_PARSE,
         "the pixel data needs 12 bytes, 3 remain"},
        {"short16.pgm", "P5 2 1 65535\n\x01\x02\x03", 0, GCUT_ERR_PARSE,
         "needs 4 bytes, 3 remain"},
        {"over.pgm", "P5 2 1 100\n\x01\x65", 0, GCUT_ERR_PARSE,
         "sample value 101 at row 0, column 1 exceeds maxval 100"},
        {"over16.pgm", "P5 1 1 1000\n\x03\xe9", 0, GCUT_ERR_PARSE, "sample value 1001"},
        {"plainover.pgm", "P2 2 2 10\n1 2\n3 11\n", 0, GCUT_ERR_PARSE,
         "sample value 11 at row 1, column 1 exceeds maxval 10"},
        {"plainshort.pgm", "P2 3 3 255\n10 20 30 40 50 60 70 80", 0, GCUT_ERR_PARSE,
         "truncated: 8 of 9 samples present"},
        {"plaintiny.pgm", "P2 100 100 255\n1 2 3\n", 0, GCUT_ERR_PARSE,
         "truncated: 10000 samples need at least 19999 bytes"},
        {"plainbad.ppm", "P3 1 1 255\n1 2 z\n", 0, GCUT_ERR_PARSE,
         "bad sample 2 (row 0): expected a number, found 'z'"},
        {"plainbyte.ppm", "P3 1 1 255\n1 2 \x01\n", 0, GCUT_ERR_PARSE, "found byte 0x01"},
        {"p4.pbm", "P4 8 1\n\xff", 0, GCUT_ERR_UNSUPPORTED, "PBM (P1/P4 bitmap) images"},
        {"p7.pam", "P7\nWIDTH 1\n", 0, GCUT_ERR_UNSUPPORTED, "PAM (P7)"},
        {"p9.pnm", "P9 1 1 255\n", 0, GCUT_ERR_PARSE, "not a PNG, JPEG or PNM file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_bytes_fail(cases[i].name, cases[i].text,
                          cases[i].len ? cases[i].len : strlen(cases[i].text), cases[i].st,
                          cases[i].what);
}

/* -------------------------------------------------- files that are not images */

static void test_not_images(void **state)
{
    (void)state;
    expect_load_fail(tmp("does-not-exist.png"), GCUT_ERR_IO, "No such file or directory");
    expect_load_fail(g_tmp, GCUT_ERR_IO, "is a directory");
    expect_bytes_fail("empty.png", "", 0, GCUT_ERR_PARSE, "empty file");
    expect_bytes_fail("text.png", "hello, world\n", 13, GCUT_ERR_PARSE,
                      "not a PNG, JPEG or PNM file (it starts with bytes 68 65 6c 6c)");
    expect_bytes_fail("one.png", "\x01", 1, GCUT_ERR_PARSE, "starts with bytes 01 00 00 00");
    expect_bytes_fail("anim.gif", "GIF89a\x01\x00\x01\x00", 10, GCUT_ERR_UNSUPPORTED,
                      "GIF images are not supported");
    expect_bytes_fail("pic.bmp", "BM\x3a\0\0\0\0\0\0\0\x36\0\0\0\x28\0", 16, GCUT_ERR_UNSUPPORTED,
                      "BMP images");
    expect_bytes_fail("pic.tif", "II*\0\x08\0\0\0", 8, GCUT_ERR_UNSUPPORTED, "TIFF");
    expect_bytes_fail("pic.webp", "RIFF\x10\0\0\0WEBPVP8 ", 16, GCUT_ERR_UNSUPPORTED, "WebP");
    /* A pipe: read to its end like a file. */
    FILE *p = popen("printf 'P2 1 1 9 9'", "r");
    assert_non_null(p);
    char dev[64];
    snprintf(dev, sizeof dev, "/dev/fd/%d", fileno(p));
    gcut_image *img = load_ok(dev);
    assert_int_equal(px(img, 0, 0, 0), 255);
    gcut_image_free(img);
    pclose(p);
    /* Argument checks. */
    gcut_image *out = NULL;
    assert_int_equal(gcut_image_load(NULL, &out), GCUT_ERR_INVALID);
    assert_int_equal(gcut_image_load("x.png", NULL), GCUT_ERR_INVALID);
    assert_int_equal(gcut_image_load_memory(NULL, 4, "x", &out), GCUT_ERR_INVALID);
    assert_int_equal(gcut_image_load_memory("P5", 2, NULL, &out), GCUT_ERR_PARSE);
    assert_non_null(strstr(gcut_last_error(), "gcut_image_load_memory: <memory>: "));
    assert_null(out);
}

/* ---------------------------------------------------------------- saving */

static void test_save_errors(void **state)
{
    (void)state;
    gcut_image *img = pattern(4, 4, 4, 8);
    const int before = tmp_entries();
    assert_int_equal(gcut_image_save(img, tmp("x.bmp")), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "unknown image file extension"));
    assert_int_equal(gcut_image_save(img, tmp("x.jpg")), GCUT_ERR_UNSUPPORTED);
    assert_int_equal(gcut_image_save(img, tmp("x.pnm")), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "PNM cannot hold an alpha channel"));
    assert_int_equal(gcut_image_save_pnm(img, tmp("x.png")), GCUT_ERR_INVALID);
    gcut_image *rgb = pattern(4, 4, 3, 8), *gray = pattern(4, 4, 1, 8);
    assert_int_equal(gcut_image_save(rgb, tmp("x.pgm")), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "a PGM file holds 1 channel but the image has 3"));
    assert_int_equal(gcut_image_save(gray, tmp("x.ppm")), GCUT_ERR_INVALID);
    assert_int_equal(gcut_image_save(NULL, tmp("x.ppm")), GCUT_ERR_INVALID);
    assert_int_equal(gcut_image_save(gray, NULL), GCUT_ERR_INVALID);
    gcut_image bad = *gray;
    bad.data = NULL;
    assert_int_equal(gcut_image_save(&bad, tmp("x.pgm")), GCUT_ERR_INVALID);
    bad = *gray;
    bad.depth = 4;
    assert_int_equal(gcut_image_save(&bad, tmp("x.pgm")), GCUT_ERR_INVALID);
    bad = *gray;
    bad.height = 0;
    assert_int_equal(gcut_image_save(&bad, tmp("x.pgm")), GCUT_ERR_INVALID);
    assert_int_equal(tmp_entries(), before);

    /* A folder that does not exist: the message names the target. */
    assert_int_equal(gcut_image_save(gray, tmp("no/such/dir/x.pgm")), GCUT_ERR_IO);
    assert_non_null(strstr(gcut_last_error(), "no/such/dir/x.pgm: No such file or directory"));
    /* The target is a folder: refused, no temporary file. */
    mkdir(tmp("adir.pgm"), 0755);
    assert_int_equal(gcut_image_save(gray, tmp("adir.pgm")), GCUT_ERR_IO);
    assert_non_null(strstr(gcut_last_error(), "adir.pgm: Is a directory"));
    rmdir(tmp("adir.pgm"));
    assert_int_equal(tmp_entries(), before);
    /* A failed save leaves an existing file as it was. */
    write_bytes(tmp("keep.pgm"), "old", 3);
    assert_int_equal(gcut_image_save(rgb, tmp("keep.pgm")), GCUT_ERR_INVALID);
    size_t len;
    uint8_t *b = slurp(tmp("keep.pgm"), &len);
    assert_int_equal(len, 3);
    free(b);
    /* A successful one replaces it. */
    assert_int_equal(gcut_image_save(gray, tmp("keep.pgm")), GCUT_OK);
    gcut_image *back = load_ok(tmp("keep.pgm"));
    assert_same(gray, back);
    gcut_image_free(back);
    remove(tmp("keep.pgm"));
    assert_int_equal(tmp_entries(), before);
    gcut_image_free(img);
    gcut_image_free(rgb);
    gcut_image_free(gray);
}

/* A device node is written in place, never replaced by a regular file
 * (issue 17); a symbolic link stays a link and its target is replaced. */
static void test_save_special(void **state)
{
    (void)state;
    gcut_image *gray = pattern(4, 4, 1, 8);
    const int before = tmp_entries();
    struct stat st;
    if (mknod(tmp("null.png"), S_IFCHR | 0666, makedev(1, 3)) == 0) {
        assert_int_equal(gcut_image_save(gray, tmp("null.png")), GCUT_OK);
        assert_int_equal(gcut_image_save_pnm(gray, tmp("null.png")), GCUT_OK);
        assert_int_equal(lstat(tmp("null.png"), &st), 0);
        assert_true(S_ISCHR(st.st_mode));
        remove(tmp("null.png"));
    } else {
        print_message("mknod not allowed here: the device node case is skipped\n");
    }
    if (access("/dev/full", W_OK) == 0) {
        assert_int_equal(gcut_image_save_pnm(gray, "/dev/full"), GCUT_ERR_IO);
        assert_non_null(strstr(gcut_last_error(), "/dev/full: write failed: No space left"));
        assert_int_equal(stat("/dev/full", &st), 0);
        assert_true(S_ISCHR(st.st_mode));
    }
    write_bytes(tmp("target.pgm"), "old", 3);
    assert_int_equal(symlink("target.pgm", tmp("link.pgm")), 0);
    assert_int_equal(gcut_image_save(gray, tmp("link.pgm")), GCUT_OK);
    assert_int_equal(lstat(tmp("link.pgm"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    gcut_image *back = load_ok(tmp("target.pgm"));
    assert_same(gray, back);
    gcut_image_free(back);
    remove(tmp("link.pgm"));
    remove(tmp("target.pgm"));
    assert_int_equal(tmp_entries(), before);
    gcut_image_free(gray);
}

/* A write that fails half-way (file size limit, EFBIG): no output appears,
 * an older file survives, and no temporary file is left. */
static void test_save_fails_midway(void **state)
{
    (void)state;
    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    if (old.rlim_max != RLIM_INFINITY && old.rlim_max < 1 << 20)
        skip();
    gcut_image *img = pattern(300, 200, 3, 16); /* 360 KB of pixels */
    write_bytes(tmp("big.ppm"), "previous", 8);
    const int before = tmp_entries();
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = old;
    lim.rlim_cur = 64 * 1024;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    gcut_status st_pnm = gcut_image_save(img, tmp("big.ppm"));
    char msg_pnm[512];
    snprintf(msg_pnm, sizeof msg_pnm, "%s", gcut_last_error());
    gcut_status st_png = GCUT_ERR_IO;
    char msg_png[512] = "write failed";
    gcut_image *noisy = NULL;
    if (gcut_image_format_available("png")) {
        /* Random-looking samples do not compress below the limit. */
        assert_int_equal(gcut_image_new(&noisy, 300, 200, 3, 16), GCUT_OK);
        tu_rng r = {42};
        for (int32_t y = 0; y < 200; y++)
            for (size_t i = 0; i < 300 * 3 * 2; i++)
                noisy->data[(size_t)y * noisy->stride + i] = (uint8_t)tu_next(&r);
        st_png = gcut_image_save(noisy, tmp("big.png"));
        snprintf(msg_png, sizeof msg_png, "%s", gcut_last_error());
    }
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, prev);
    if (st_pnm != GCUT_ERR_IO || !strstr(msg_pnm, "big.ppm: write failed"))
        fail_msg("PNM: %d %s", (int)st_pnm, msg_pnm);
    if (st_png != GCUT_ERR_IO || !strstr(msg_png, "write failed"))
        fail_msg("PNG: %d %s", (int)st_png, msg_png);
    size_t len;
    uint8_t *b = slurp(tmp("big.ppm"), &len);
    assert_int_equal(len, 8);
    assert_memory_equal(b, "previous", 8);
    free(b);
    assert_int_equal(tmp_entries(), before);
    struct stat sb;
    assert_int_not_equal(stat(tmp("big.png"), &sb), 0);
    remove(tmp("big.ppm"));
    gcut_image_free(noisy);
    gcut_image_free(img);
}

/* ------------------------------------------------------------ real photos */

/* Photos in ../shared/data, checked against MANIFEST.txt lines
 * "sha256 bytes WxH MODE path" (MODE as PIL names it: L, RGB, RGBA ...). */
static void test_real_photos(void **state)
{
    (void)state;
    char buf[1024];
    const char *manifest = tu_shared_data("MANIFEST.txt", buf, sizeof buf);
    if (!manifest) {
        print_message("shared data not found (%s): skipping the real photos\n", GCUT_SHARED_DATA);
        skip();
    }
    FILE *f = fopen(manifest, "r");
    assert_non_null(f);
    char line[1024];
    int loaded = 0, missing = 0;
    g_warnings = 0;
    gcut_set_log_callback(count_log, NULL);
    while (fgets(line, sizeof line, f)) {
        char sha[80], mode[16], rel[512];
        long long bytes;
        int w, h;
        if (sscanf(line, "%79s %lld %dx%d %15s %511s", sha, &bytes, &w, &h, mode, rel) != 6)
            continue;
        if (strncmp(rel, "skimage/", 8) && strncmp(rel, "grabcut/images/", 15))
            continue;
        char pbuf[1024];
        const char *path = tu_shared_data(rel, pbuf, sizeof pbuf);
        if (!path) {
            missing++;
            continue;
        }
        if (!gcut_image_format_available(strstr(rel, ".png") ? "png" : "jpeg"))
            continue;
        gcut_image *img = load_ok(path);
        if (img->width != w || img->height != h)
            fail_msg("%s: %d x %d, manifest says %d x %d", rel, img->width, img->height, w, h);
        int want = !strcmp(mode, "L") ? 1 : !strcmp(mode, "RGB") ? 3 : !strcmp(mode, "RGBA") ? 4 : 0;
        if (want && img->channels != want)
            fail_msg("%s: %d channels, manifest says %s", rel, img->channels, mode);
        gcut_image_free(img);
        loaded++;
    }
    fclose(f);
    gcut_set_log_callback(NULL, NULL);
    print_message("loaded %d photos from the shared data (%d listed but absent), %d warnings%s%s\n",
                  loaded, missing, g_warnings, g_warnings ? ", the last: " : "",
                  g_warnings ? g_warning : "");
    if (loaded == 0)
        skip();
}

/* ------------------------------------------------------- memory budget */

/* An image whose pixels would pass the process memory budget
 * (gcut_set_max_memory) is refused from its header, with GCUT_ERR_NOMEM
 * and a message that says so; images under the budget still load. */
static void test_memory_budget(void **state)
{
    (void)state;
    /* A PNG header announcing 20000 x 20000 RGB (1.2 GB of pixels), then
     * one empty IDAT: only the header is read before the refusal. */
    uint8_t png[128];
    size_t n = 0;
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    memcpy(png, sig, 8);
    n = 8;
    uint8_t ihdr[13] = {0};
    put32(ihdr, 20000);
    put32(ihdr + 4, 20000);
    ihdr[8] = 8; /* bit depth */
    ihdr[9] = 2; /* RGB */
    add_chunk(png, &n, "IHDR", ihdr, 13);
    add_chunk(png, &n, "IDAT", NULL, 0);
    add_chunk(png, &n, "IEND", NULL, 0);
    /* A binary PPM header of 3000 x 3000 (27 MB) with no pixel data:
     * truncated without a budget, refused with one. */
    static const char ppm[] = "P6\n3000 3000\n255\n";
    expect_bytes_fail("budget0.ppm", ppm, sizeof ppm - 1, GCUT_ERR_PARSE, "truncated");
    gcut_set_max_memory((size_t)16 << 20);
    assert_int_equal(gcut_max_memory(), (size_t)16 << 20);
    if (gcut_image_format_available("png"))
        expect_bytes_fail("budget.png", png, n, GCUT_ERR_NOMEM, "over the memory budget");
    expect_bytes_fail("budget.ppm", ppm, sizeof ppm - 1, GCUT_ERR_NOMEM,
                      "needs 27000000 bytes of pixels, over the memory budget of 16777216 bytes");
    /* gcut_image_new is held to it too. */
    gcut_image *big = NULL;
    assert_int_equal(gcut_image_new(&big, 4096, 4096, 3, 8), GCUT_ERR_NOMEM);
    assert_null(big);
    /* Under the budget, as before. */
    gcut_image *img = pattern(7, 5, 3, 8);
    assert_int_equal(gcut_image_save_pnm(img, tmp("small.ppm")), GCUT_OK);
    gcut_image *back = load_ok(tmp("small.ppm"));
    assert_same(img, back);
    gcut_image_free(back);
    gcut_image_free(img);
    remove(tmp("small.ppm"));
    remove(tmp("budget.png"));
    remove(tmp("budget.ppm"));
    remove(tmp("budget0.ppm"));
    gcut_set_max_memory(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_free),
        cmocka_unit_test(test_formats_available),
        cmocka_unit_test(test_png_round_trip),
        cmocka_unit_test(test_pnm_round_trip),
        cmocka_unit_test(test_user_struct_stride),
        cmocka_unit_test(test_to_gray),
        cmocka_unit_test(test_to_rgb),
        cmocka_unit_test(test_to_float),
#ifdef GCUT_HAVE_PNG
        cmocka_unit_test(test_png_palette),
        cmocka_unit_test(test_png_gray_low_bits),
        cmocka_unit_test(test_png_alpha_and_trns),
        cmocka_unit_test(test_png_16bit_and_interlaced),
#endif
        cmocka_unit_test(test_imagemagick_files),
        cmocka_unit_test(test_png_bad),
        cmocka_unit_test(test_png_warning_logged),
#ifdef GCUT_HAVE_JPEG
        cmocka_unit_test(test_jpeg_baseline_progressive_gray),
        cmocka_unit_test(test_jpeg_cmyk),
        cmocka_unit_test(test_jpeg_bad),
#endif
        cmocka_unit_test(test_pnm_plain_and_maxval),
        cmocka_unit_test(test_pnm_binary),
        cmocka_unit_test(test_pnm_bad),
        cmocka_unit_test(test_not_images),
        cmocka_unit_test(test_save_errors),
        cmocka_unit_test(test_save_fails_midway),
        cmocka_unit_test(test_save_special),
        cmocka_unit_test(test_real_photos),
        cmocka_unit_test(test_memory_budget),
    };
    return cmocka_run_group_tests(tests, make_tmp, remove_tmp);
}
