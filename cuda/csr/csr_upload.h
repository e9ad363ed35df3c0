/*
 * csr_upload.h - host-to-device copies of large arrays through two pinned
 * buffers filled by several host threads (cuda-csr's edge upload, param
 * upload=). A copy from pageable memory runs at the speed of the driver's
 * own single-threaded staging (about 6 GB/s measured on the H100 and H200
 * hosts); here the host threads copy one chunk into a pinned buffer while
 * the DMA engine sends the previous one. The core makes and drops an
 * engine state for every solve, so the buffers and their events live in
 * one pool per process, made on the first staged upload and kept until
 * the process ends (2 x the chunk of pinned memory: 32 MiB by default); a
 * solve that finds the pool in use by another thread copies from pageable
 * memory instead. Plain C interface (CONTRIBUTING.md rule 27).
 */
#ifndef GCUT_CSR_UPLOAD_H
#define GCUT_CSR_UPLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "cuda_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Two pinned buffers of `chunk` bytes each and the events that say when
 * the DMA from each is done; all zero until the first use. */
typedef struct gcut_cu_upload_pool {
    void *buf[2];
    void *done[2];   /* cudaEvent_t, of the device below */
    size_t chunk;
    int device;
} gcut_cu_upload_pool;

/* One array to copy: count bytes from host src to device dst. */
typedef struct gcut_cu_upload_part {
    void *dst;
    const void *src;
    size_t bytes;
} gcut_cu_upload_part;

/* Copy the parts, in order, on `stream` (a cudaStream_t), with `threads`
 * host threads (1 or more) filling chunks of `chunk` bytes (the pool's
 * buffers grow to it). Returns when every byte has reached the device;
 * on an error nothing still reads the caller's arrays or the buffers. */
GCUT_CU_HIDDEN gcut_status gcut_cu_upload(gcut_cu_upload_pool *pool, void *stream,
                                          const gcut_cu_upload_part *parts, int count,
                                          size_t chunk, int threads);

GCUT_CU_HIDDEN void gcut_cu_upload_pool_free(gcut_cu_upload_pool *pool);

/* The process's pool, for one caller at a time: NULL when another thread
 * holds it. Give it back with gcut_cu_upload_pool_release. */
GCUT_CU_HIDDEN gcut_cu_upload_pool *gcut_cu_upload_pool_acquire(void);
GCUT_CU_HIDDEN void gcut_cu_upload_pool_release(gcut_cu_upload_pool *pool);

#ifdef __cplusplus
}
#endif

#endif /* GCUT_CSR_UPLOAD_H */
