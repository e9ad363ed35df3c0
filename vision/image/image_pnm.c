/*
 * image_pnm.c - PNM (Netpbm) reader for P2, P3, P5, P6 and writer for P5, P6.
 *
 * Format: Netpbm's pgm(5) and ppm(5) pages. A header of four fields,
 *
 *     magic (P2 plain gray, P3 plain RGB, P5 raw gray, P6 raw RGB)
 *     width height maxval        (decimal, 1 <= maxval <= 65535)
 *
 * separated by whitespace, where '#' starts a comment that runs to the end
 * of the line; then the raster, top row first. Plain (P2/P3) samples are
 * decimal numbers separated by whitespace (comments accepted there too, as
 * Netpbm's own readers do). Raw (P5/P6) samples follow exactly one
 * whitespace byte after maxval, one byte each when maxval < 256 and two
 * bytes, most significant first, otherwise.
 *
 * Samples are mapped to the image's full range: depth 8 when maxval <= 255,
 * 16 otherwise, and v -> round(v * full / maxval) unless maxval already is
 * 255 or 65535. A sample above maxval is an error, not clamped: it means the
 * file is not what it claims to be.
 *
 * Invariants of the reader:
 *  - every read goes through `in->p < in->end`: the buffer is the whole
 *    file and nothing is read past it;
 *  - the size is checked against the limits, and the bytes left against
 *    the least the raster can take (raw: exactly samples * bytes; plain: one
 *    digit per sample and a separator between two), before the image is
 *    allocated, so a short file announcing a huge image costs nothing.
 */
#include <errno.h>
#include <string.h>

#include "image/image_internal.h"

/* Header numbers longer than this are refused outright (they would not fit
 * any field, and refusing keeps the arithmetic below in 64 bits). */
#define PNM_MAX_DIGITS 18

typedef struct pnm_in {
    const uint8_t *p, *end;
    const char *func, *name;
} pnm_in;

static int pnm_space(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Skip whitespace and comments. */
static void pnm_skip(pnm_in *in)
{
    while (in->p < in->end) {
        if (pnm_space(*in->p)) {
            in->p++;
        } else if (*in->p == '#') {
            while (in->p < in->end && *in->p != '\n' && *in->p != '\r')
                in->p++;
        } else {
            return;
        }
    }
}

typedef enum pnm_num { PNM_OK = 0, PNM_END, PNM_NOT_DIGIT, PNM_TOO_LONG } pnm_num;

static pnm_num pnm_uint(pnm_in *in, uint64_t *v)
{
    pnm_skip(in);
    if (in->p == in->end)
        return PNM_END;
    if (*in->p < '0' || *in->p > '9')
        return PNM_NOT_DIGIT;
    uint64_t x = 0;
    int digits = 0;
    while (in->p < in->end && *in->p >= '0' && *in->p <= '9') {
        if (++digits > PNM_MAX_DIGITS)
            return PNM_TOO_LONG;
        x = x * 10 + (uint64_t)(*in->p++ - '0');
    }
    *v = x;
    return PNM_OK;
}

/* "'x'" for a printable byte, "byte 0xNN" otherwise: messages stay one
 * readable line whatever the file holds. */
static const char *pnm_show(uint8_t c, char *buf, size_t size)
{
    if (c >= 0x21 && c < 0x7f)
        snprintf(buf, size, "'%c'", (char)c);
    else
        snprintf(buf, size, "byte 0x%02x", c);
    return buf;
}

static gcut_status pnm_field(pnm_in *in, const char *what, uint64_t *v)
{
    char shown[16];
    switch (pnm_uint(in, v)) {
    case PNM_OK:
        return GCUT_OK;
    case PNM_END:
        return gcut_i_fail(GCUT_ERR_PARSE, in->func, "%s: truncated PNM header: the %s is missing",
                           in->name, what);
    case PNM_NOT_DIGIT:
        return gcut_i_fail(GCUT_ERR_PARSE, in->func,
                           "%s: bad PNM header: expected the %s (a number), found %s", in->name,
                           what, pnm_show(*in->p, shown, sizeof shown));
    case PNM_TOO_LONG:
        break;
    }
    return gcut_i_fail(GCUT_ERR_OVERFLOW, in->func, "%s: PNM %s has more than %d digits",
                       in->name, what, PNM_MAX_DIGITS);
}

/* Map sample v (<= maxval) to the full range of the depth, rounding. Both
 * factors are < 2^16, so the product fits in 32 bits. */
static inline uint32_t pnm_scale(uint32_t v, uint32_t maxval, uint32_t full)
{
    return (v * full + maxval / 2) / maxval;
}

static gcut_status pnm_too_big(pnm_in *in, uint64_t v, uint32_t maxval, uint64_t i, int32_t w,
                               int32_t c)
{
    uint64_t pixel = i / (uint64_t)c;
    return gcut_i_fail(GCUT_ERR_PARSE, in->func,
                       "%s: sample value %llu at row %llu, column %llu exceeds maxval %u",
                       in->name, (unsigned long long)v, (unsigned long long)(pixel / (uint64_t)w),
                       (unsigned long long)(pixel % (uint64_t)w), maxval);
}

/* Raw raster: `in->p` has at least samples * bytes-per-sample bytes. */
static gcut_status pnm_raw(pnm_in *in, uint32_t maxval, gcut_image *img)
{
    const uint32_t full = img->depth == 8 ? 255u : 65535u;
    const size_t row = gcut_i_image_row_bytes(img);
    const size_t n = (size_t)img->width * (size_t)img->channels;
    for (int32_t y = 0; y < img->height; y++) {
        uint8_t *dst = img->data + (size_t)y * img->stride;
        const uint8_t *src = in->p + (size_t)y * row;
        if (img->depth == 8 && maxval == 255) {
            memcpy(dst, src, row);
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t v = img->depth == 8 ? src[i] : ((uint32_t)src[2 * i] << 8) | src[2 * i + 1];
            if (v > maxval)
                return pnm_too_big(in, v, maxval, (uint64_t)y * n + i, img->width, img->channels);
            if (maxval != full)
                v = pnm_scale(v, maxval, full);
            if (img->depth == 8) {
                dst[i] = (uint8_t)v;
            } else {
                uint16_t s = (uint16_t)v;
                memcpy(dst + 2 * i, &s, 2);
            }
        }
    }
    return GCUT_OK;
}

/* Plain raster: decimal samples. */
static gcut_status pnm_plain(pnm_in *in, uint32_t maxval, gcut_image *img)
{
    const uint32_t full = img->depth == 8 ? 255u : 65535u;
    const size_t n = (size_t)img->width * (size_t)img->channels;
    const uint64_t total = (uint64_t)n * (uint64_t)img->height;
    char shown[16];
    for (int32_t y = 0; y < img->height; y++) {
        uint8_t *dst = img->data + (size_t)y * img->stride;
        for (size_t i = 0; i < n; i++) {
            uint64_t v = 0, at = (uint64_t)y * n + i;
            switch (pnm_uint(in, &v)) {
            case PNM_OK:
                break;
            case PNM_END:
                return gcut_i_fail(GCUT_ERR_PARSE, in->func,
                                   "%s: truncated: %llu of %llu samples present", in->name,
                                   (unsigned long long)at, (unsigned long long)total);
            case PNM_NOT_DIGIT:
                return gcut_i_fail(GCUT_ERR_PARSE, in->func,
                                   "%s: bad sample %llu (row %d): expected a number, found %s",
                                   in->name, (unsigned long long)at, (int)y,
                                   pnm_show(*in->p, shown, sizeof shown));
            case PNM_TOO_LONG:
                return gcut_i_fail(GCUT_ERR_PARSE, in->func,
                                   "%s: sample %llu (row %d) has more than %d digits", in->name,
                                   (unsigned long long)at, (int)y, PNM_MAX_DIGITS);
            }
            if (v > maxval)
                return pnm_too_big(in, v, maxval, at, img->width, img->channels);
            uint32_t s = maxval == full ? (uint32_t)v : pnm_scale((uint32_t)v, maxval, full);
            if (img->depth == 8) {
                dst[i] = (uint8_t)s;
            } else {
                uint16_t s16 = (uint16_t)s;
                memcpy(dst + 2 * i, &s16, 2);
            }
        }
    }
    return GCUT_OK;
}

gcut_status gcut_i_pnm_decode(const char *func, const char *name, const uint8_t *buf, size_t size,
                              gcut_image **out)
{
    pnm_in in = {buf + 2, buf + size, func, name};
    const char kind = (char)buf[1];
    const int plain = kind == '2' || kind == '3';
    const int32_t channels = kind == '2' || kind == '5' ? 1 : 3;
    char shown[16];
    if (in.p < in.end && !pnm_space(*in.p) && *in.p != '#')
        return gcut_i_fail(GCUT_ERR_PARSE, func,
                           "%s: bad PNM header: expected whitespace after P%c, found %s", name,
                           kind, pnm_show(*in.p, shown, sizeof shown));
    uint64_t w, h, maxval;
    gcut_status st;
    if ((st = pnm_field(&in, "width", &w)) != GCUT_OK ||
        (st = pnm_field(&in, "height", &h)) != GCUT_OK ||
        (st = pnm_field(&in, "maxval", &maxval)) != GCUT_OK)
        return st;
    if (maxval < 1 || maxval > 65535)
        return gcut_i_fail(GCUT_ERR_PARSE, func, "%s: PNM maxval %llu is out of range [1, 65535]",
                           name, (unsigned long long)maxval);
    const int32_t depth = maxval <= 255 ? 8 : 16;
    uint64_t bytes = 0;
    /* The header numbers have at most 18 digits, so they fit int64_t. */
    st = gcut_i_image_check_size(func, name, (int64_t)w, (int64_t)h, channels, depth,
                                 GCUT_ERR_PARSE, &bytes);
    if (st != GCUT_OK)
        return st;
    const uint64_t samples = bytes / (uint64_t)(depth / 8);
    if (plain) {
        /* Enough characters for one digit per sample and a separator
         * between two; the parse below still checks every sample. */
        if ((uint64_t)(in.end - in.p) < 2 * samples - 1)
            return gcut_i_fail(GCUT_ERR_PARSE, func,
                               "%s: truncated: %llu samples need at least %llu bytes, %zu remain",
                               name, (unsigned long long)samples,
                               (unsigned long long)(2 * samples - 1), (size_t)(in.end - in.p));
    } else {
        if (in.p == in.end)
            return gcut_i_fail(GCUT_ERR_PARSE, func,
                               "%s: truncated: no pixel data after the header", name);
        if (!pnm_space(*in.p))
            return gcut_i_fail(GCUT_ERR_PARSE, func,
                               "%s: bad PNM header: expected one whitespace byte after the "
                               "maxval, found %s",
                               name, pnm_show(*in.p, shown, sizeof shown));
        in.p++;
        if ((uint64_t)(in.end - in.p) < bytes)
            return gcut_i_fail(GCUT_ERR_PARSE, func,
                               "%s: truncated: the pixel data needs %llu bytes, %zu remain", name,
                               (unsigned long long)bytes, (size_t)(in.end - in.p));
    }
    gcut_image *img = NULL;
    st = gcut_i_image_alloc(func, name, (int64_t)w, (int64_t)h, channels, depth, GCUT_ERR_PARSE,
                            &img);
    if (st != GCUT_OK)
        return st;
    st = plain ? pnm_plain(&in, (uint32_t)maxval, img) : pnm_raw(&in, (uint32_t)maxval, img);
    if (st != GCUT_OK) {
        gcut_image_free(img);
        return st;
    }
    *out = img;
    return GCUT_OK;
}

gcut_status gcut_i_pnm_encode(const char *func, const char *name, const gcut_image *img, FILE *f)
{
    const size_t row = gcut_i_image_row_bytes(img);
    uint8_t *be = NULL; /* one row in big-endian order, for 16-bit images */
    if (img->depth == 16) {
        be = gcut_i_malloc(row);
        if (!be)
            return gcut_i_fail(GCUT_ERR_NOMEM, func, "%s: cannot allocate a row buffer", name);
    }
    int ok = fprintf(f, "P%c\n%d %d\n%d\n", img->channels == 1 ? '5' : '6', (int)img->width,
                     (int)img->height, img->depth == 8 ? 255 : 65535) > 0;
    for (int32_t y = 0; ok && y < img->height; y++) {
        const uint8_t *src = img->data + (size_t)y * img->stride;
        if (be) {
            for (size_t i = 0; i < row / 2; i++) {
                uint16_t v;
                memcpy(&v, src + 2 * i, 2);
                be[2 * i] = (uint8_t)(v >> 8);
                be[2 * i + 1] = (uint8_t)(v & 0xff);
            }
            src = be;
        }
        ok = fwrite(src, 1, row, f) == row;
    }
    gcut_i_free(be);
    if (!ok || fflush(f) != 0 || ferror(f))
        return gcut_i_fail(GCUT_ERR_IO, func, "%s: write failed: %s", name, strerror(errno));
    return GCUT_OK;
}
