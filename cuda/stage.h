/*
 * stage.h - host <-> device copies of the caller's (pageable) arrays
 * through two pinned buffers used in turn: the DMA of one chunk overlaps
 * the host's memcpy of the other, about twice the speed of a copy from
 * pageable memory, and the caller's arrays need not be page-locked
 * (locking hundreds of MB costs more than it saves for one copy). Used by
 * the segmentation energies (vision/seg_launch.cu) and cuda-csr's edge
 * upload (csr/csr_launch.cu).
 */
#ifndef GCUT_CU_STAGE_H
#define GCUT_CU_STAGE_H

#include <cuda_runtime.h>

#include "cuda_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gcut_cu_stage {
    unsigned char *buf[2]; /* pinned, `chunk` bytes each */
    cudaEvent_t ev[2];     /* the last copy that used each buffer */
    size_t chunk;
} gcut_cu_stage;

/* Two pinned buffers of `chunk` bytes and their events (free with
 * gcut_cu_stage_free, also after a failure). */
GCUT_CU_HIDDEN gcut_status gcut_cu_stage_init(gcut_cu_stage *st, size_t chunk);
/* Waits for nothing: the caller synchronises its stream first. */
GCUT_CU_HIDDEN void gcut_cu_stage_free(gcut_cu_stage *st);
/* Host -> device on `stream`; returns when the host may reuse src (the last
 * chunks may still be in flight; later work on the stream is ordered after
 * them). */
GCUT_CU_HIDDEN gcut_status gcut_cu_stage_upload(gcut_cu_stage *st, cudaStream_t stream, void *dst,
                                                const void *src, size_t bytes);
/* Device -> host on `stream`, two chunks in flight; returns with the data
 * on the host (the stream idle after the last chunk). */
GCUT_CU_HIDDEN gcut_status gcut_cu_stage_download(gcut_cu_stage *st, cudaStream_t stream,
                                                  void *dst, const void *src, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* GCUT_CU_STAGE_H */
