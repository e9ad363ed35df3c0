/*
 * image.c - the gcut_image object: allocation under size limits, loading
 * (format chosen by magic bytes), saving without half-written files, and
 * the gray / RGB / float conversions. docs/design.md section 5.
 *
 * Invariants:
 *  - every image gcut makes went through gcut_i_image_alloc() (image_buf.c,
 *    with the size limits and gcut_image_free(): the helpers this file and
 *    the format files share, so that neither calls into the other's);
 *  - an image given by the caller is checked by gcut_i_image_check() before
 *    any use, because the struct is public and may have been filled by hand;
 *  - a save goes through gcut_i_out_open (lib/core/outfile.c): a regular
 *    file is replaced whole or not at all, a device or "-" (stdout, with
 *    gcut_image_save_png / _pnm) is written directly.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image/image_internal.h"

/* A file larger than this cannot hold an image within the limits in any
 * supported encoding (plain PNM spends at most 6 characters per 2-byte
 * sample), so it is refused before being read. */
#define IMAGE_MAX_FILE_BYTES (4 * GCUT_I_IMAGE_MAX_BYTES + ((uint64_t)1 << 20))

/* ------------------------------------------------------------- the object */

gcut_status gcut_image_new(gcut_image **out, int32_t width, int32_t height, int32_t channels,
                           int32_t depth)
{
    GCUT_ENTRY();
    if (!out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "out must not be NULL");
    if (channels != 1 && channels != 3 && channels != 4)
        return GCUT_FAIL(GCUT_ERR_INVALID, "channels must be 1, 3 or 4 (not %d)", (int)channels);
    if (depth != 8 && depth != 16)
        return GCUT_FAIL(GCUT_ERR_INVALID, "depth must be 8 or 16 bits (not %d)", (int)depth);
    gcut_image *img = NULL;
    gcut_status st = gcut_i_image_alloc(__func__, "image", width, height, channels, depth,
                                        GCUT_ERR_INVALID, &img);
    if (st != GCUT_OK)
        return st;
    memset(img->data, 0, (size_t)img->height * img->stride);
    *out = img;
    return GCUT_OK;
}

int gcut_image_format_available(const char *format)
{
    if (!format)
        return 0;
    char low[8];
    size_t n = 0;
    for (; format[n] && n + 1 < sizeof low; n++)
        low[n] = (char)(format[n] >= 'A' && format[n] <= 'Z' ? format[n] - 'A' + 'a' : format[n]);
    if (format[n])
        return 0;
    low[n] = '\0';
    if (!strcmp(low, "pnm") || !strcmp(low, "pgm") || !strcmp(low, "ppm"))
        return 1;
#ifdef GCUT_HAVE_PNG
    if (!strcmp(low, "png"))
        return 1;
#endif
#ifdef GCUT_HAVE_JPEG
    if (!strcmp(low, "jpeg") || !strcmp(low, "jpg"))
        return 1;
#endif
    return 0;
}

/* ---------------------------------------------------------------- loading */

static const uint8_t png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
static const uint8_t jpeg_magic[3] = {0xff, 0xd8, 0xff};

/* Formats people hand to image loaders that we recognise but do not read:
 * naming them beats "unknown format". */
static const char *other_format(const uint8_t *b, size_t n)
{
    if (n >= 6 && (!memcmp(b, "GIF87a", 6) || !memcmp(b, "GIF89a", 6)))
        return "GIF";
    if (n >= 4 && (!memcmp(b, "II*\0", 4) || !memcmp(b, "MM\0*", 4)))
        return "TIFF";
    if (n >= 12 && !memcmp(b, "RIFF", 4) && !memcmp(b + 8, "WEBP", 4))
        return "WebP";
    if (n >= 14 && b[0] == 'B' && b[1] == 'M')
        return "BMP";
    if (n >= 12 && !memcmp(b + 4, "ftyp", 4))
        return "HEIF/AVIF (ISO media)";
    if (n >= 2 && b[0] == 'P' && (b[1] == '1' || b[1] == '4'))
        return "PBM (P1/P4 bitmap)";
    if (n >= 2 && b[0] == 'P' && b[1] == '7')
        return "PAM (P7)";
    return NULL;
}

/* Pick the decoder from the first bytes. */
static gcut_status decode(const char *func, const char *name, const uint8_t *b, size_t n,
                          gcut_image **out)
{
    if (n == 0)
        return gcut_i_fail(GCUT_ERR_PARSE, func, "%s: empty file (0 bytes)", name);
    if (!memcmp(b, png_magic, n < 8 ? n : 8)) {
        if (n < 8)
            return gcut_i_fail(GCUT_ERR_PARSE, func,
                               "%s: truncated (%zu bytes: not even the PNG signature)", name, n);
        return gcut_i_png_decode(func, name, b, n, out);
    }
    if (!memcmp(b, jpeg_magic, n < 3 ? n : 3)) {
        if (n < 3)
            return gcut_i_fail(GCUT_ERR_PARSE, func,
                               "%s: truncated (%zu bytes: not even the JPEG start marker)", name,
                               n);
        return gcut_i_jpeg_decode(func, name, b, n, out);
    }
    if (b[0] == 'P' && n >= 2 && (b[1] == '2' || b[1] == '3' || b[1] == '5' || b[1] == '6'))
        return gcut_i_pnm_decode(func, name, b, n, out);
    const char *other = other_format(b, n);
    if (other)
        return gcut_i_fail(GCUT_ERR_UNSUPPORTED, func,
                           "%s: %s images are not supported (PNG, JPEG and PNM are)", name, other);
    uint8_t first[4] = {0, 0, 0, 0};
    memcpy(first, b, n < 4 ? n : 4);
    return gcut_i_fail(GCUT_ERR_PARSE, func,
                       "%s: not a PNG, JPEG or PNM file (it starts with bytes %02x %02x %02x %02x)",
                       name, first[0], first[1], first[2], first[3]);
}

gcut_status gcut_image_load_memory(const void *data, size_t size, const char *name,
                                   gcut_image **out)
{
    GCUT_ENTRY();
    if (!out || (!data && size))
        return GCUT_FAIL(GCUT_ERR_INVALID, "data and out must not be NULL");
    return decode(__func__, name ? name : "<memory>", data, size, out);
}

/* Read a whole file. Works for pipes and devices too (size unknown): the
 * buffer then grows by doubling. */
static gcut_status read_file(const char *func, const char *path, uint8_t **buf, size_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return gcut_i_fail(GCUT_ERR_IO, func, "%s: cannot open: %s", path, strerror(errno));
    gcut_status st = GCUT_OK;
    uint8_t *b = NULL;
    size_t n = 0, cap;
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        st = gcut_i_fail(GCUT_ERR_IO, func, "%s: cannot stat: %s", path, strerror(errno));
        goto fail;
    }
    if (S_ISDIR(sb.st_mode)) {
        st = gcut_i_fail(GCUT_ERR_IO, func, "%s: is a directory, not an image file", path);
        goto fail;
    }
    if (S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > IMAGE_MAX_FILE_BYTES) {
        st = gcut_i_fail(GCUT_ERR_OVERFLOW, func,
                         "%s: file of %lld bytes is larger than any image within the size limit",
                         path, (long long)sb.st_size);
        goto fail;
    }
    /* One byte more than the size, so that end of file is seen by the
     * first read that returns 0 and not by a second growth. */
    cap = S_ISREG(sb.st_mode) ? (size_t)sb.st_size + 1 : (size_t)1 << 16;
    b = gcut_i_malloc(cap);
    if (!b) {
        st = gcut_i_fail(GCUT_ERR_NOMEM, func, "%s: cannot allocate %zu bytes to read it", path,
                         cap);
        goto fail;
    }
    for (;;) {
        if (n == cap) {
            if ((uint64_t)cap >= IMAGE_MAX_FILE_BYTES) {
                st = gcut_i_fail(GCUT_ERR_OVERFLOW, func,
                                 "%s: input is larger than any image within the size limit",
                                 path);
                goto fail;
            }
            uint8_t *nb = gcut_i_realloc(b, cap * 2);
            if (!nb) {
                st = gcut_i_fail(GCUT_ERR_NOMEM, func, "%s: cannot allocate %zu bytes to read it",
                                 path, cap * 2);
                goto fail;
            }
            b = nb;
            cap *= 2;
        }
        ssize_t k = read(fd, b + n, cap - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            st = gcut_i_fail(GCUT_ERR_IO, func, "%s: read failed: %s", path, strerror(errno));
            goto fail;
        }
        if (k == 0)
            break;
        n += (size_t)k;
    }
    close(fd);
    *buf = b;
    *size = n;
    return GCUT_OK;
fail:
    gcut_i_free(b);
    close(fd);
    return st;
}

gcut_status gcut_image_load(const char *path, gcut_image **out)
{
    GCUT_ENTRY();
    if (!path || !out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "path and out must not be NULL");
    uint8_t *buf = NULL;
    size_t size = 0;
    gcut_status st = read_file(__func__, path, &buf, &size);
    if (st != GCUT_OK)
        return st;
    st = decode(__func__, path, buf, size, out);
    gcut_i_free(buf);
    return st;
}

/* ----------------------------------------------------------------- saving */

/* Distinguishes the temporary files of concurrent saves in one process. */
/* Case-insensitive test of the path's extension. */
static int has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    if (n < e)
        return 0;
    for (size_t i = 0; i < e; i++) {
        char c = path[n - e + i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != ext[i])
            return 0;
    }
    return 1;
}

static gcut_status save_as(const char *func, const gcut_image *img, const char *path,
                           gcut_i_image_format format)
{
    gcut_status st = gcut_i_image_check(func, img);
    if (st != GCUT_OK)
        return st;
    if (format == GCUT_I_FORMAT_PNM && img->channels == 4)
        return gcut_i_fail(GCUT_ERR_INVALID, func,
                           "%s: PNM cannot hold an alpha channel: convert the RGBA image with "
                           "gcut_image_to_rgb() first or save it as PNG",
                           path);
#ifndef GCUT_HAVE_PNG
    if (format == GCUT_I_FORMAT_PNG)
        return gcut_i_fail(GCUT_ERR_UNSUPPORTED, func,
                           "%s: PNG support is not built in (libpng was not found when gcut was "
                           "configured)",
                           path);
#endif
    gcut_i_out o;
    st = gcut_i_out_open(func, path, &o);
    if (st != GCUT_OK)
        return st;
    if (format == GCUT_I_FORMAT_PNG)
        st = gcut_i_png_encode(func, path, img, o.f);
    else
        st = gcut_i_pnm_encode(func, path, img, o.f);
    if (st != GCUT_OK) {
        gcut_i_out_abort(&o);
        return st;
    }
    return gcut_i_out_commit(&o);
}

gcut_status gcut_image_save(const gcut_image *img, const char *path)
{
    GCUT_ENTRY();
    if (!path)
        return GCUT_FAIL(GCUT_ERR_INVALID, "path must not be NULL");
    if (has_ext(path, ".png"))
        return save_as(__func__, img, path, GCUT_I_FORMAT_PNG);
    if (has_ext(path, ".pnm"))
        return save_as(__func__, img, path, GCUT_I_FORMAT_PNM);
    if (has_ext(path, ".pgm") || has_ext(path, ".ppm")) {
        int want = has_ext(path, ".pgm") ? 1 : 3;
        if (img && img->channels != want)
            return GCUT_FAIL(GCUT_ERR_INVALID,
                             "%s: a %s file holds %d channel%s but the image has %d (convert it "
                             "with gcut_image_to_%s() or use .pnm)",
                             path, want == 1 ? "PGM" : "PPM", want, want == 1 ? "" : "s",
                             (int)img->channels, want == 1 ? "gray" : "rgb");
        return save_as(__func__, img, path, GCUT_I_FORMAT_PNM);
    }
    if (has_ext(path, ".jpg") || has_ext(path, ".jpeg"))
        return GCUT_FAIL(GCUT_ERR_UNSUPPORTED, "%s: writing JPEG is not supported (use .png)",
                         path);
    return GCUT_FAIL(GCUT_ERR_INVALID,
                     "%s: unknown image file extension (use .png, .pnm, .pgm or .ppm)", path);
}

gcut_status gcut_image_save_png(const gcut_image *img, const char *path)
{
    GCUT_ENTRY();
    if (!path)
        return GCUT_FAIL(GCUT_ERR_INVALID, "path must not be NULL");
    return save_as(__func__, img, path, GCUT_I_FORMAT_PNG);
}

gcut_status gcut_image_save_pnm(const gcut_image *img, const char *path)
{
    GCUT_ENTRY();
    if (!path)
        return GCUT_FAIL(GCUT_ERR_INVALID, "path must not be NULL");
    return save_as(__func__, img, path, GCUT_I_FORMAT_PNM);
}

/* ------------------------------------------------------------ conversions */

/* BT.601 luma in integers: weights in thousandths, rounded. The largest sum,
 * 1000 * 65535, fits a uint32_t. */
static inline uint32_t luma(uint32_t r, uint32_t g, uint32_t b)
{
    return (299u * r + 587u * g + 114u * b + 500u) / 1000u;
}

gcut_status gcut_image_to_gray(const gcut_image *img, gcut_image **out)
{
    GCUT_ENTRY();
    if (!out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "out must not be NULL");
    gcut_status st = gcut_i_image_check(__func__, img);
    if (st != GCUT_OK)
        return st;
    gcut_image *g = NULL;
    st = gcut_i_image_alloc(__func__, "image", img->width, img->height, 1, img->depth,
                            GCUT_ERR_INVALID, &g);
    if (st != GCUT_OK)
        return st;
    const size_t w = (size_t)img->width, c = (size_t)img->channels;
    for (int32_t y = 0; y < img->height; y++) {
        const uint8_t *src = img->data + (size_t)y * img->stride;
        uint8_t *dst = g->data + (size_t)y * g->stride;
        if (c == 1) {
            memcpy(dst, src, gcut_i_image_row_bytes(g));
        } else if (img->depth == 8) {
            for (size_t x = 0; x < w; x++)
                dst[x] = (uint8_t)luma(src[x * c], src[x * c + 1], src[x * c + 2]);
        } else {
            /* Rows of a caller's image need not be 2-byte aligned: copy
             * samples through memcpy rather than casting the pointer. */
            for (size_t x = 0; x < w; x++) {
                uint16_t s[3], v;
                memcpy(s, src + x * c * 2, sizeof s);
                v = (uint16_t)luma(s[0], s[1], s[2]);
                memcpy(dst + x * 2, &v, 2);
            }
        }
    }
    *out = g;
    return GCUT_OK;
}

gcut_status gcut_image_to_rgb(const gcut_image *img, gcut_image **out)
{
    GCUT_ENTRY();
    if (!out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "out must not be NULL");
    gcut_status st = gcut_i_image_check(__func__, img);
    if (st != GCUT_OK)
        return st;
    gcut_image *rgb = NULL;
    st = gcut_i_image_alloc(__func__, "image", img->width, img->height, 3, img->depth,
                            GCUT_ERR_INVALID, &rgb);
    if (st != GCUT_OK)
        return st;
    const size_t w = (size_t)img->width, c = (size_t)img->channels;
    const size_t bps = (size_t)img->depth / 8; /* bytes per sample */
    for (int32_t y = 0; y < img->height; y++) {
        const uint8_t *src = img->data + (size_t)y * img->stride;
        uint8_t *dst = rgb->data + (size_t)y * rgb->stride;
        if (c == 3) {
            memcpy(dst, src, gcut_i_image_row_bytes(rgb));
            continue;
        }
        /* Gray: the one sample three times; RGBA: the first three. Whole
         * samples are moved as bytes, so one loop serves both depths. */
        for (size_t x = 0; x < w; x++)
            for (size_t k = 0; k < 3; k++)
                memcpy(dst + (x * 3 + k) * bps, src + (x * c + (c == 1 ? 0 : k)) * bps, bps);
    }
    *out = rgb;
    return GCUT_OK;
}

gcut_status gcut_image_to_float(const gcut_image *img, float *out, gcut_image_float_scale scale)
{
    GCUT_ENTRY();
    if (!out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "out must not be NULL");
    gcut_status st = gcut_i_image_check(__func__, img);
    if (st != GCUT_OK)
        return st;
    if (scale != GCUT_IMAGE_FLOAT_UNIT && scale != GCUT_IMAGE_FLOAT_255)
        return GCUT_FAIL(GCUT_ERR_INVALID, "unknown float scale %d", (int)scale);
    const size_t n = (size_t)img->width * (size_t)img->channels;
    /* Divide rather than multiply by a reciprocal: the division is
     * correctly rounded, so the largest sample maps to exactly 1 (or 255). */
    float d;
    if (img->depth == 8)
        d = scale == GCUT_IMAGE_FLOAT_UNIT ? 255.0f : 1.0f;
    else
        d = scale == GCUT_IMAGE_FLOAT_UNIT ? 65535.0f : 257.0f;
    for (int32_t y = 0; y < img->height; y++) {
        const uint8_t *src = img->data + (size_t)y * img->stride;
        float *dst = out + (size_t)y * n;
        if (img->depth == 8) {
            for (size_t i = 0; i < n; i++)
                dst[i] = (float)src[i] / d;
        } else {
            for (size_t i = 0; i < n; i++) {
                uint16_t v;
                memcpy(&v, src + 2 * i, 2);
                dst[i] = (float)v / d;
            }
        }
    }
    return GCUT_OK;
}
