/*
 * seg_tuning.h - block sizes and staging sizes of the segmentation-energy
 * kernels (seg_launch.cu). None of them changes a result: the reductions
 * are deterministic for a given SEG_MOMENT_TILE, which is therefore fixed
 * here and not chosen per device.
 */
#ifndef GCUT_CU_SEG_TUNING_H
#define GCUT_CU_SEG_TUNING_H

/* Threads per block of the per-pixel kernels. */
#define SEG_THREADS 256

/* Threads per block of the reductions (a power of two: the shared-memory
 * trees halve it). */
#define SEG_RED_THREADS 256

/* Pixels each thread of a moment reduction sums before the block's tree
 * (the tile of a block is SEG_RED_THREADS * SEG_MOMENT_PER_THREAD pixels;
 * the order of the sums, hence the last bits of non-integer moments,
 * depends on it). */
#define SEG_MOMENT_PER_THREAD 8

/* Pinned staging buffers for the host copies: two of this many bytes,
 * used in turn, so that the DMA of one chunk overlaps the host's copy of
 * the other. */
#define SEG_STAGE_BYTES ((size_t)8 << 20)

#endif /* GCUT_CU_SEG_TUNING_H */
