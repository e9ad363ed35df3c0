/*
 * fuzz_jpeg.c - libFuzzer target for the JPEG loader (gcut_image_load_memory).
 *
 * JPEG: decoded pixels are written back losslessly with the PNG encoder.
 * Seed corpus: tests/fuzz-corpus/jpeg/. The checks are in fuzz_common.h.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_one(data, size, GCUT_I_FORMAT_PNG);
}
