/*
 * fuzz_png.c - libFuzzer target for the PNG loader (gcut_image_load_memory).
 *
 * PNG: writes back with the PNG encoder.
 * Seed corpus: tests/fuzz-corpus/png/. The checks are in fuzz_common.h.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_one(data, size, GCUT_I_FORMAT_PNG);
}
