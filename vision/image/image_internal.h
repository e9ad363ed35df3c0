/*
 * image_internal.h - what the image files of libgcut_vision share: size
 * limits, allocation of checked images (image_buf.c), and the per-format
 * decoders and encoders behind gcut_image_load_memory() and
 * gcut_image_save() (image_png.c, image_jpeg.c, image_pnm.c). Never
 * installed.
 *
 * Who calls whom: the format files call only image_buf.c (and the core);
 * image.c calls image_buf.c and the formats' decoders and encoders. No
 * file calls back into image.c.
 *
 * Every decoder works on a complete buffer (the file is read whole first),
 * so it always knows how many bytes are left and can refuse a truncated
 * file before allocating the pixels it announces. Every encoder writes to a
 * FILE*, which gcut_image_save() points at a temporary file and the fuzz
 * targets at memory (open_memstream).
 */
#ifndef GCUT_VISION_IMAGE_INTERNAL_H
#define GCUT_VISION_IMAGE_INTERNAL_H

#include <stdio.h>

#include "core/core_internal.h"
#include "gcut/vision/image.h"

/* Size limits enforced by every path that creates an image. The fuzzing
 * build (FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, the usual convention)
 * lowers the byte limit so that headers announcing huge images do not make
 * the fuzzer spend its time and memory on allocation. */
#define GCUT_I_IMAGE_MAX_SIDE GCUT_IMAGE_MAX_SIDE
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define GCUT_I_IMAGE_MAX_BYTES ((uint64_t)1 << 24)
#else
#define GCUT_I_IMAGE_MAX_BYTES GCUT_IMAGE_MAX_BYTES
#endif

/* Formats gcut_image_save() can write. */
typedef enum gcut_i_image_format {
    GCUT_I_FORMAT_PNG = 1,
    GCUT_I_FORMAT_PNM = 2
} gcut_i_image_format;

/* ------------------------------------------------------ image_buf.c
 * (with gcut_image_free() of gcut/vision/image.h) */

/* Check width x height x channels x depth against the limits. `func` and
 * `name` go into the message: a zero size fails with `zero_status`
 * (GCUT_ERR_PARSE for a file, GCUT_ERR_INVALID for an argument), a size
 * beyond the limits with GCUT_ERR_OVERFLOW. The width and height are
 * int64_t so that decoders can pass what the file says before any
 * narrowing. On success *bytes (may be NULL) is the size of the pixels. */
GCUT_HIDDEN gcut_status gcut_i_image_check_size(const char *func, const char *name, int64_t width,
                                                int64_t height, int32_t channels, int32_t depth,
                                                gcut_status zero_status, uint64_t *bytes);

/* gcut_i_image_check_size, then allocate the image. Its pixels are NOT
 * initialised: every caller overwrites them all, and leaving them untouched
 * keeps a huge image announced by a short file cheap until the data proves
 * to be missing. */
GCUT_HIDDEN gcut_status gcut_i_image_alloc(const char *func, const char *name, int64_t width,
                                           int64_t height, int32_t channels, int32_t depth,
                                           gcut_status zero_status, gcut_image **out);

/* Validate an image handed in by the caller (it may be one they filled in
 * themselves): sizes, channels, depth, stride, data. */
GCUT_HIDDEN gcut_status gcut_i_image_check(const char *func, const gcut_image *img);

/* Bytes of one packed row: width * channels * depth / 8 (fits: checked). */
GCUT_HIDDEN size_t gcut_i_image_row_bytes(const gcut_image *img);

/* 1 when the host stores the low byte of a uint16_t first. */
GCUT_HIDDEN int gcut_i_host_little_endian(void);

/* ------------------------------------------------------ the formats */

/* Decoders: the buffer holds a whole file (size >= 1) whose first bytes
 * matched the format's magic. On failure *out is unchanged and the error is
 * recorded under `func` with the input named `name`. */
GCUT_HIDDEN gcut_status gcut_i_png_decode(const char *func, const char *name,
                                          const uint8_t *buf, size_t size, gcut_image **out);
GCUT_HIDDEN gcut_status gcut_i_jpeg_decode(const char *func, const char *name,
                                           const uint8_t *buf, size_t size, gcut_image **out);
GCUT_HIDDEN gcut_status gcut_i_pnm_decode(const char *func, const char *name,
                                          const uint8_t *buf, size_t size, gcut_image **out);

/* Encoders: `img` has passed gcut_i_image_check (and, for PNM, has 1 or 3
 * channels). They write everything to `f` and return an error if any write
 * failed; they do not close `f`. */
GCUT_HIDDEN gcut_status gcut_i_png_encode(const char *func, const char *name,
                                          const gcut_image *img, FILE *f);
GCUT_HIDDEN gcut_status gcut_i_pnm_encode(const char *func, const char *name,
                                          const gcut_image *img, FILE *f);

#endif /* GCUT_VISION_IMAGE_INTERNAL_H */
