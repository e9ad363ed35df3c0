/*
 * image_buf.c - what every image file of libgcut_vision builds on: the
 * size limits, the one allocation that holds an image (struct and pixels)
 * and its free, the check of a caller's image, row sizes and byte order.
 *
 * image.c (the object, loading, saving, conversions) and the format files
 * image_png.c, image_jpeg.c, image_pnm.c call these and nothing of each
 * other's, except image.c picking a format's decoder or encoder: the
 * formats never call back into image.c (image_internal.h).
 *
 * Invariants: every image gcut makes comes from gcut_i_image_alloc(), so
 * its width, height <= GCUT_IMAGE_MAX_SIDE and its pixel bytes <=
 * GCUT_IMAGE_MAX_BYTES (checked in 64-bit arithmetic before anything is
 * allocated, so no size computed afterwards can wrap), and the struct and
 * its pixels are one allocation, so gcut_image_free() is one call.
 */
#include <string.h>

#include "image/image_internal.h"

/* Offset of the pixels in an image's allocation: past the struct, and a
 * cache line so that rows start aligned for vector code. */
#define IMAGE_HEADER_BYTES 64

int gcut_i_host_little_endian(void)
{
    const uint16_t one = 1;
    uint8_t first;
    memcpy(&first, &one, 1);
    return first == 1;
}

size_t gcut_i_image_row_bytes(const gcut_image *img)
{
    return (size_t)img->width * (size_t)img->channels * (size_t)(img->depth / 8);
}

gcut_status gcut_i_image_check_size(const char *func, const char *name, int64_t width,
                                    int64_t height, int32_t channels, int32_t depth,
                                    gcut_status zero_status, uint64_t *bytes)
{
    if (width <= 0 || height <= 0)
        return gcut_i_fail(zero_status, func, "%s: image has zero size (%lld x %lld)", name,
                           (long long)width, (long long)height);
    /* Each factor is bounded before the product is formed: with both sides
     * <= 2^24, channels <= 4 and 2 bytes per sample the product is < 2^51. */
    uint64_t b = 0;
    if (width <= GCUT_I_IMAGE_MAX_SIDE && height <= GCUT_I_IMAGE_MAX_SIDE)
        b = (uint64_t)width * (uint64_t)height * (uint64_t)channels * (uint64_t)(depth / 8);
    if (width > GCUT_I_IMAGE_MAX_SIDE || height > GCUT_I_IMAGE_MAX_SIDE ||
        b > GCUT_I_IMAGE_MAX_BYTES)
        return gcut_i_fail(GCUT_ERR_OVERFLOW, func,
                           "%s: dimensions %lld x %lld x %d overflow the size limit (sides up "
                           "to %ld, at most %llu bytes of pixels)",
                           name, (long long)width, (long long)height, (int)channels,
                           (long)GCUT_I_IMAGE_MAX_SIDE, (unsigned long long)GCUT_I_IMAGE_MAX_BYTES);
    /* The process memory budget (gcut_set_max_memory), checked from the
     * header alone: a file that announces more pixels than the budget
     * allows is refused before a byte of them is decoded. */
    const size_t budget = gcut_max_memory();
    if (budget != 0 && b > budget)
        return gcut_i_fail(GCUT_ERR_NOMEM, func,
                           "%s: a %lld x %lld image of %d channels needs %llu bytes of pixels, "
                           "over the memory budget of %zu bytes (gcut_set_max_memory)",
                           name, (long long)width, (long long)height, (int)channels,
                           (unsigned long long)b, budget);
    if (bytes)
        *bytes = b;
    return GCUT_OK;
}

gcut_status gcut_i_image_alloc(const char *func, const char *name, int64_t width, int64_t height,
                               int32_t channels, int32_t depth, gcut_status zero_status,
                               gcut_image **out)
{
    uint64_t bytes = 0;
    gcut_status st =
        gcut_i_image_check_size(func, name, width, height, channels, depth, zero_status, &bytes);
    if (st != GCUT_OK)
        return st;
    gcut_image *img = gcut_i_malloc(IMAGE_HEADER_BYTES + (size_t)bytes);
    if (!img)
        return gcut_i_fail(GCUT_ERR_NOMEM, func, "%s: cannot allocate %llu bytes of pixels", name,
                           (unsigned long long)bytes);
    img->width = (int32_t)width;
    img->height = (int32_t)height;
    img->channels = channels;
    img->depth = depth;
    img->stride = (size_t)width * (size_t)channels * (size_t)(depth / 8);
    img->data = (uint8_t *)img + IMAGE_HEADER_BYTES;
    *out = img;
    return GCUT_OK;
}

gcut_status gcut_i_image_check(const char *func, const gcut_image *img)
{
    if (!img)
        return gcut_i_fail(GCUT_ERR_INVALID, func, "the image must not be NULL");
    if (img->channels != 1 && img->channels != 3 && img->channels != 4)
        return gcut_i_fail(GCUT_ERR_INVALID, func, "image channels must be 1, 3 or 4 (not %d)",
                           (int)img->channels);
    if (img->depth != 8 && img->depth != 16)
        return gcut_i_fail(GCUT_ERR_INVALID, func, "image depth must be 8 or 16 bits (not %d)",
                           (int)img->depth);
    if (img->width <= 0 || img->height <= 0 || img->width > GCUT_IMAGE_MAX_SIDE ||
        img->height > GCUT_IMAGE_MAX_SIDE)
        return gcut_i_fail(GCUT_ERR_INVALID, func, "image size %d x %d is out of range [1, %ld]",
                           (int)img->width, (int)img->height, (long)GCUT_IMAGE_MAX_SIDE);
    size_t row = gcut_i_image_row_bytes(img);
    if (img->stride < row)
        return gcut_i_fail(GCUT_ERR_INVALID, func,
                           "image stride %zu is smaller than a row (%zu bytes)", img->stride, row);
    /* The last byte of the buffer must be addressable: (height - 1) *
     * stride + row must fit in size_t. */
    if ((uint64_t)(img->height - 1) > (SIZE_MAX - row) / img->stride)
        return gcut_i_fail(GCUT_ERR_INVALID, func, "image stride %zu times %d rows overflows",
                           img->stride, (int)img->height);
    if (!img->data)
        return gcut_i_fail(GCUT_ERR_INVALID, func, "image data must not be NULL");
    return GCUT_OK;
}

void gcut_image_free(gcut_image *img) { gcut_i_free(img); }
