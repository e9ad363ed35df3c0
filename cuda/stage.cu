/*
 * stage.cu - copies through two pinned buffers (stage.h).
 */
#include <string.h>

#include "stage.h"

extern "C" gcut_status gcut_cu_stage_init(gcut_cu_stage *st, size_t chunk)
{
    memset(st, 0, sizeof *st);
    st->chunk = chunk;
    for (int b = 0; b < 2; b++) {
        GCUT_CUDA_CHECK(cudaEventCreateWithFlags(&st->ev[b], cudaEventDisableTiming));
        GCUT_CUDA_CHECK(cudaHostAlloc((void **)&st->buf[b], chunk, cudaHostAllocDefault));
    }
    return GCUT_OK;
}

extern "C" void gcut_cu_stage_free(gcut_cu_stage *st)
{
    /* Errors are ignored here: nothing can be done about them on a free. */
    for (int b = 0; b < 2; b++) {
        if (st->buf[b])
            (void)cudaFreeHost(st->buf[b]);
        if (st->ev[b])
            (void)cudaEventDestroy(st->ev[b]);
    }
    memset(st, 0, sizeof *st);
}

extern "C" gcut_status gcut_cu_stage_upload(gcut_cu_stage *st, cudaStream_t stream, void *dst,
                                            const void *src, size_t bytes)
{
    size_t off = 0;
    for (int k = 0; off < bytes; k++) {
        const size_t len = bytes - off < st->chunk ? bytes - off : st->chunk;
        const int b = k & 1;
        /* The last DMA that read (or wrote) this buffer is done. */
        GCUT_CUDA_CHECK(cudaEventSynchronize(st->ev[b]));
        memcpy(st->buf[b], (const unsigned char *)src + off, len);
        GCUT_CUDA_CHECK(cudaMemcpyAsync((unsigned char *)dst + off, st->buf[b], len,
                                        cudaMemcpyHostToDevice, stream));
        GCUT_CUDA_CHECK(cudaEventRecord(st->ev[b], stream));
        off += len;
    }
    return GCUT_OK;
}

static gcut_status issue_chunk(gcut_cu_stage *st, cudaStream_t stream, const void *src,
                               size_t bytes, int64_t k)
{
    const size_t off = (size_t)k * st->chunk;
    const size_t len = bytes - off < st->chunk ? bytes - off : st->chunk;
    const int b = (int)(k & 1);
    GCUT_CUDA_CHECK(cudaMemcpyAsync(st->buf[b], (const unsigned char *)src + off, len,
                                    cudaMemcpyDeviceToHost, stream));
    GCUT_CUDA_CHECK(cudaEventRecord(st->ev[b], stream));
    return GCUT_OK;
}

extern "C" gcut_status gcut_cu_stage_download(gcut_cu_stage *st, cudaStream_t stream, void *dst,
                                              const void *src, size_t bytes)
{
    const int64_t chunks = (int64_t)((bytes + st->chunk - 1) / st->chunk);
    gcut_status rc;
    for (int64_t k = 0; k < chunks && k < 2; k++)
        if ((rc = issue_chunk(st, stream, src, bytes, k)) != GCUT_OK)
            return rc;
    for (int64_t k = 0; k < chunks; k++) {
        const size_t off = (size_t)k * st->chunk;
        const size_t len = bytes - off < st->chunk ? bytes - off : st->chunk;
        const int b = (int)(k & 1);
        GCUT_CUDA_CHECK(cudaEventSynchronize(st->ev[b]));
        memcpy((unsigned char *)dst + off, st->buf[b], len);
        if (k + 2 < chunks && (rc = issue_chunk(st, stream, src, bytes, k + 2)) != GCUT_OK)
            return rc;
    }
    return GCUT_OK;
}
