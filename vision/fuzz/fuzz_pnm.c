/*
 * fuzz_pnm.c - libFuzzer target for the PNM loader (gcut_image_load_memory).
 *
 * PNM: writes back with the PNM encoder (P5/P6).
 * Seed corpus: tests/fuzz-corpus/pnm/. The checks are in fuzz_common.h.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_one(data, size, GCUT_I_FORMAT_PNM);
}
