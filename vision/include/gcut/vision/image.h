/*
 * gcut/vision/image.h - images: load, save, convert (libgcut_vision).
 *
 * Getting started:
 *
 *     gcut_image *img = NULL, *gray = NULL;
 *     if (gcut_image_load("photo.jpg", &img) != GCUT_OK) {
 *         fprintf(stderr, "%s\n", gcut_last_error());   // names the file and the problem
 *         return 1;
 *     }
 *     gcut_image_to_gray(img, &gray);                    // 1 channel, same depth
 *     gcut_image_save(gray, "photo-gray.png");            // format from the extension
 *     for (int32_t y = 0; y < gray->height; y++) {
 *         const uint8_t *row = gray->data + (size_t)y * gray->stride;
 *         ...                                             // row[x], x < gray->width
 *     }
 *     gcut_image_free(gray);
 *     gcut_image_free(img);
 *
 * Formats (docs/vision-images.md has the full table):
 *  - loading picks the decoder from the first bytes of the data, never from
 *    the file name: PNG (libpng), JPEG (libjpeg-turbo), PNM P2/P3/P5/P6;
 *  - saving writes PNG or binary PNM (P5/P6).
 * PNG and JPEG support depend on libpng and libjpeg being found when gcut
 * was configured: gcut_image_format_available() tells; without them such
 * files are refused with GCUT_ERR_UNSUPPORTED.
 *
 * Samples are returned as stored: no gamma or colour-profile correction.
 *
 * Errors: every call returns a gcut_status; gcut_last_error() then names the
 * function, the file (or the name given for a buffer) and the problem, e.g.
 * `gcut_image_load: photo.png: truncated (libpng: Read Error)`. On failure
 * the output pointer is left unchanged and nothing is leaked. Writers never
 * leave a half-written file: they write a temporary file in the target's
 * folder and rename it over the target only when everything succeeded.
 */
#ifndef GCUT_VISION_IMAGE_H
#define GCUT_VISION_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "gcut/common.h"
#include "gcut/vision/export.h"

GCUT_BEGIN_C_DECLS

/** \brief Largest width or height of an image (2^24 pixels). */
#define GCUT_IMAGE_MAX_SIDE ((int32_t)1 << 24)

/** \brief Largest pixel buffer of an image: width * height * channels *
 *  bytes per sample must not exceed 2^31 bytes. Checked before anything is
 *  allocated; larger images are refused with GCUT_ERR_OVERFLOW. */
#define GCUT_IMAGE_MAX_BYTES ((uint64_t)1 << 31)

/**
 * \brief An image: a plain struct that users read.
 *
 * Pixels are stored row by row, top row first, channels interleaved
 * (gray; R, G, B; or R, G, B, A). Row y starts at `data + y * stride`.
 * With depth 8 a sample is a uint8_t; with depth 16 it is a uint16_t in the
 * host's byte order (so `((const uint16_t *)row)[x * channels + c]`).
 *
 * Images made by gcut (gcut_image_new, the loaders, the conversions) own
 * their pixels, which live in the same allocation as the struct: release
 * them with gcut_image_free() only, and never replace `data`.
 *
 * A gcut_image you fill in yourself, e.g. to describe a buffer you own
 * (any stride >= width * channels * depth / 8), may be passed to the save
 * and conversion functions, which only read it; do not pass it to
 * gcut_image_free().
 */
typedef struct gcut_image {
    int32_t width;    /**< pixels per row, >= 1 */
    int32_t height;   /**< rows, >= 1 */
    int32_t channels; /**< 1 (gray), 3 (RGB) or 4 (RGBA) */
    int32_t depth;    /**< bits per sample: 8 or 16 */
    size_t stride;    /**< bytes from the start of one row to the next */
    uint8_t *data;    /**< the top row */
} gcut_image;

/**
 * \brief Allocate an image with all samples 0.
 *
 * The stride of a new image is width * channels * depth / 8 (rows are
 * packed), but code should always step rows by `stride`.
 *
 * \param out      receives the image (unchanged on failure)
 * \param width    1 .. GCUT_IMAGE_MAX_SIDE
 * \param height   1 .. GCUT_IMAGE_MAX_SIDE
 * \param channels 1, 3 or 4
 * \param depth    8 or 16
 * \returns GCUT_OK; GCUT_ERR_INVALID (bad argument, zero size),
 *          GCUT_ERR_OVERFLOW (more than GCUT_IMAGE_MAX_BYTES), GCUT_ERR_NOMEM
 *          (also: over the memory budget, gcut_set_max_memory).
 * \threadsafety Safe from any thread.
 * \since 0.1
 * \sa gcut_image_free
 */
GCUT_VISION_EXPORT gcut_status gcut_image_new(gcut_image **out, int32_t width, int32_t height,
                                              int32_t channels, int32_t depth);

/** \brief Free an image made by gcut (NULL is a no-op).
 *  \threadsafety Safe from any thread, for distinct images.
 *  \since 0.1 */
GCUT_VISION_EXPORT void gcut_image_free(gcut_image *img);

/**
 * \brief Load an image file: PNG, JPEG or PNM, told apart by its first bytes.
 *
 * What comes back:
 *  - PNG: gray -> 1 channel; RGB -> 3; RGBA, gray+alpha and any image with
 *    a transparent colour (tRNS) -> 4 (RGBA); palette -> 3 or 4; gray of
 *    1, 2 or 4 bits is scaled to 8 bits; 16-bit files stay 16-bit;
 *    interlaced (Adam7) files are de-interlaced.
 *  - JPEG (baseline, progressive, arithmetic): gray -> 1 channel; YCbCr and
 *    RGB -> 3; CMYK and YCCK -> 3 (converted to RGB; data with an Adobe
 *    APP14 marker is taken as inverted, the Photoshop convention). Always 8-bit.
 *  - PNM: P2/P5 -> 1 channel, P3/P6 -> 3; maxval <= 255 gives 8 bits and a
 *    larger one 16 bits; samples are scaled to the full range when maxval
 *    is not 255 or 65535 (maxval 1000: 500 -> 32768). Data after the first
 *    image is ignored.
 *
 * Truncated or corrupt data, a zero size, dimensions beyond
 * GCUT_IMAGE_MAX_SIDE / GCUT_IMAGE_MAX_BYTES and unknown formats are
 * refused with a message naming the file and the problem. An image whose
 * pixels (width * height * channels * bytes per sample) would pass the
 * process memory budget (gcut_set_max_memory, since 0.3) is refused from
 * its header, before any pixel is decoded, with GCUT_ERR_NOMEM and a
 * message giving both sizes; gcut_image_new is held to the budget too.
 *
 * \param path the file (read whole into memory first)
 * \param out  receives the image (unchanged on failure)
 * \returns GCUT_OK; GCUT_ERR_IO (cannot open or read, a directory),
 *          GCUT_ERR_PARSE (empty, truncated, corrupt, unknown format, zero size),
 *          GCUT_ERR_OVERFLOW (too large), GCUT_ERR_UNSUPPORTED (GIF, BMP ...,
 *          or a format whose library was not built in), GCUT_ERR_NOMEM,
 *          GCUT_ERR_INVALID (NULL argument).
 * \threadsafety Safe from any thread.
 * \since 0.1
 * \sa gcut_image_load_memory, gcut_image_save
 */
GCUT_VISION_EXPORT gcut_status gcut_image_load(const char *path, gcut_image **out);

/**
 * \brief Load an image from a buffer (the same decoders as gcut_image_load).
 *
 * \param data bytes of a PNG, JPEG or PNM file (only read)
 * \param size number of bytes
 * \param name name used in error messages (NULL: "<memory>")
 * \param out  receives the image (unchanged on failure)
 * \returns as gcut_image_load, without GCUT_ERR_IO.
 * \threadsafety Safe from any thread.
 * \since 0.1
 */
GCUT_VISION_EXPORT gcut_status gcut_image_load_memory(const void *data, size_t size,
                                                      const char *name, gcut_image **out);

/**
 * \brief Save an image; the format comes from the extension (any case):
 *  `.png` (PNG), `.pnm` (P5 for 1 channel, P6 for 3), `.pgm` (1 channel
 *  only), `.ppm` (3 channels only). PNM cannot hold alpha: convert a
 *  4-channel image with gcut_image_to_rgb() first.
 *
 * A regular file appears complete or not at all: data goes to a temporary
 * file in the same folder, flushed to disk and renamed over \p path on
 * success, removed on failure (an existing file at \p path is then left as
 * it was). A new file gets the usual permissions (0666 minus the umask), a
 * replaced one keeps its own. A symbolic link stays a link: its target is
 * replaced. A device or FIFO (`/dev/null`, `/dev/stdout`) is written
 * directly, never replaced; with gcut_image_save_png() and
 * gcut_image_save_pnm(), \p path "-" is stdout.
 *
 * \returns GCUT_OK; GCUT_ERR_INVALID (NULL, malformed image, unknown
 *          extension, channels the format cannot hold), GCUT_ERR_UNSUPPORTED
 *          (JPEG output, or PNG without libpng), GCUT_ERR_IO, GCUT_ERR_NOMEM.
 * \threadsafety Safe from any thread (distinct paths).
 * \since 0.1
 * \sa gcut_image_save_png, gcut_image_save_pnm
 */
GCUT_VISION_EXPORT gcut_status gcut_image_save(const gcut_image *img, const char *path);

/** \brief Save as PNG whatever the extension (8 or 16 bits; gray, RGB or RGBA).
 *  \returns as gcut_image_save.
 *  \since 0.1 */
GCUT_VISION_EXPORT gcut_status gcut_image_save_png(const gcut_image *img, const char *path);

/** \brief Save as binary PNM whatever the extension: P5 (1 channel) or P6
 *  (3 channels), maxval 255 or 65535 (16-bit samples big-endian, as the
 *  format says). 4-channel images are refused (GCUT_ERR_INVALID).
 *  \returns as gcut_image_save.
 *  \since 0.1 */
GCUT_VISION_EXPORT gcut_status gcut_image_save_pnm(const gcut_image *img, const char *path);

/**
 * \brief A new 1-channel image of the same size and depth.
 *
 * RGB(A) becomes luma Y = 0.299 R + 0.587 G + 0.114 B (ITU-R BT.601,
 * rounded; alpha is dropped); a gray image is copied.
 * \returns GCUT_OK; GCUT_ERR_INVALID (NULL, malformed image), GCUT_ERR_NOMEM.
 * \threadsafety Safe from any thread.
 * \since 0.1
 */
GCUT_VISION_EXPORT gcut_status gcut_image_to_gray(const gcut_image *img, gcut_image **out);

/** \brief A new 3-channel image of the same size and depth: gray is
 *  replicated, alpha is dropped, RGB is copied.
 *  \returns as gcut_image_to_gray, and GCUT_ERR_OVERFLOW when a gray image
 *  is so large that three times its size passes GCUT_IMAGE_MAX_BYTES.
 *  \since 0.1 */
GCUT_VISION_EXPORT gcut_status gcut_image_to_rgb(const gcut_image *img, gcut_image **out);

/** \brief Range of the values written by gcut_image_to_float(). */
typedef enum gcut_image_float_scale {
    GCUT_IMAGE_FLOAT_UNIT = 0, /**< [0, 1]: sample / 255 (8-bit) or / 65535 (16-bit) */
    GCUT_IMAGE_FLOAT_255 = 1   /**< [0, 255] whatever the depth: 16-bit samples / 257 */
} gcut_image_float_scale;

/**
 * \brief Write the samples as floats into a buffer you allocate.
 *
 * \p out must hold width * height * channels floats; they are written
 * packed, channels interleaved: sample c of pixel (x, y) goes to
 * `out[((size_t)y * width + x) * channels + c]`. The channels are kept as
 * they are (convert first for gray or RGB).
 * \returns GCUT_OK; GCUT_ERR_INVALID (NULL, malformed image, bad scale).
 * \threadsafety Safe from any thread.
 * \since 0.1
 */
GCUT_VISION_EXPORT gcut_status gcut_image_to_float(const gcut_image *img, float *out,
                                                   gcut_image_float_scale scale);

/** \brief Whether a format can be read here: "png", "jpeg" (or "jpg") and
 *  "pnm" (always); 1 or 0. PNG output needs "png" too.
 *  \threadsafety Safe from any thread.
 *  \since 0.1 */
GCUT_VISION_EXPORT int gcut_image_format_available(const char *format);

GCUT_END_C_DECLS

#endif /* GCUT_VISION_IMAGE_H */
