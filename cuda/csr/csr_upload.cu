/*
 * csr_upload.cu - copies through two pinned buffers filled by several host
 * threads (csr_upload.h).
 *
 * For every chunk c (the parts cut into pieces of at most `chunk` bytes):
 * the main thread waits until the DMA out of buffer c % 2 is done (its
 * event), the workers and the main thread each copy their slice of the
 * piece into that buffer (two barriers around it), and the main thread
 * queues the DMA and records the buffer's event. So the threads fill one
 * buffer while the copy engine empties the other.
 */
#include <pthread.h>
#include <string.h>

#include "csr/csr_upload.h"

namespace {

/* One piece at a time, handed to the workers by generation: a worker that
 * sees a new generation copies its slice and counts itself done. */
struct Job {
    pthread_mutex_t mu;
    pthread_cond_t go, finished;
    unsigned long gen;
    int pending;       /* workers still copying the current piece */
    bool quit;
    int slices;        /* workers + the main thread */
    char *to;          /* the pinned buffer */
    const char *from;  /* the piece of the caller's array */
    size_t bytes;
};

struct Worker {
    Job *job;
    int index;
};

/* Slice k of the piece. */
void copy_slice(const Job *j, int k)
{
    const size_t lo = j->bytes * (size_t)k / (size_t)j->slices;
    const size_t hi = j->bytes * (size_t)(k + 1) / (size_t)j->slices;
    if (hi > lo)
        memcpy(j->to + lo, j->from + lo, hi - lo);
}

void *worker_main(void *arg)
{
    Worker *w = (Worker *)arg;
    Job *j = w->job;
    unsigned long seen = 0;
    for (;;) {
        pthread_mutex_lock(&j->mu);
        while (j->gen == seen && !j->quit)
            pthread_cond_wait(&j->go, &j->mu);
        if (j->quit) {
            pthread_mutex_unlock(&j->mu);
            return nullptr;
        }
        seen = j->gen;
        pthread_mutex_unlock(&j->mu);
        copy_slice(j, w->index);
        pthread_mutex_lock(&j->mu);
        if (--j->pending == 0)
            pthread_cond_signal(&j->finished);
        pthread_mutex_unlock(&j->mu);
    }
}

/* Copy one piece with every thread (the main thread takes slice 0). */
void copy_piece(Job *j, int workers)
{
    if (workers > 0) {
        pthread_mutex_lock(&j->mu);
        j->gen++;
        j->pending = workers;
        pthread_cond_broadcast(&j->go);
        pthread_mutex_unlock(&j->mu);
    }
    copy_slice(j, 0);
    if (workers > 0) {
        pthread_mutex_lock(&j->mu);
        while (j->pending > 0)
            pthread_cond_wait(&j->finished, &j->mu);
        pthread_mutex_unlock(&j->mu);
    }
}

gcut_status pool_ready(gcut_cu_upload_pool *pool, size_t chunk)
{
    int device = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err != cudaSuccess)
        return gcut_cu_fail(err, __func__, "cudaGetDevice", __FILE__, __LINE__);
    /* The events belong to one device: a solve on another makes new ones. */
    if (pool->chunk >= chunk && pool->buf[0] && pool->device == device)
        return GCUT_OK;
    gcut_cu_upload_pool_free(pool);
    for (int b = 0; b < 2; b++) {
        err = cudaHostAlloc(&pool->buf[b], chunk, cudaHostAllocPortable);
        if (err == cudaSuccess)
            err = cudaEventCreateWithFlags((cudaEvent_t *)&pool->done[b], cudaEventDisableTiming);
        if (err != cudaSuccess) {
            gcut_cu_upload_pool_free(pool);
            return gcut_cu_fail(err, __func__, "allocating the pinned upload buffers", __FILE__,
                                __LINE__);
        }
    }
    pool->chunk = chunk;
    pool->device = device;
    return GCUT_OK;
}

} // namespace

namespace {
pthread_mutex_t g_pool_lock = PTHREAD_MUTEX_INITIALIZER;
gcut_cu_upload_pool g_pool;
} // namespace

extern "C" gcut_cu_upload_pool *gcut_cu_upload_pool_acquire(void)
{
    return pthread_mutex_trylock(&g_pool_lock) == 0 ? &g_pool : nullptr;
}

extern "C" void gcut_cu_upload_pool_release(gcut_cu_upload_pool *pool)
{
    if (pool == &g_pool)
        pthread_mutex_unlock(&g_pool_lock);
}

extern "C" void gcut_cu_upload_pool_free(gcut_cu_upload_pool *pool)
{
    for (int b = 0; b < 2; b++) {
        if (pool->done[b])
            (void)cudaEventDestroy((cudaEvent_t)pool->done[b]);
        if (pool->buf[b])
            (void)cudaFreeHost(pool->buf[b]);
    }
    memset(pool, 0, sizeof *pool);
}

extern "C" gcut_status gcut_cu_upload(gcut_cu_upload_pool *pool, void *stream,
                                      const gcut_cu_upload_part *parts, int count, size_t chunk,
                                      int threads)
{
    cudaStream_t st = (cudaStream_t)stream;
    gcut_status rc = pool_ready(pool, chunk);
    if (rc != GCUT_OK)
        return rc;
    if (threads < 1)
        threads = 1;
    if (threads > 64)
        threads = 64;
    Job job;
    memset(&job, 0, sizeof job);
    pthread_mutex_init(&job.mu, nullptr);
    pthread_cond_init(&job.go, nullptr);
    pthread_cond_init(&job.finished, nullptr);
    pthread_t tid[64];
    Worker wk[64];
    /* Workers that fail to start are simply not there: the slices are cut
     * for those that run (at worst the main thread copies alone). */
    int workers = 0;
    for (int t = 1; t < threads; t++) {
        wk[workers].job = &job;
        wk[workers].index = workers + 1;
        if (pthread_create(&tid[workers], nullptr, worker_main, &wk[workers]) != 0)
            break;
        workers++;
    }
    job.slices = workers + 1;
    cudaError_t err = cudaSuccess;
    int b = 0;
    bool used[2] = {false, false};
    for (int k = 0; k < count && err == cudaSuccess; k++) {
        for (size_t off = 0; off < parts[k].bytes && err == cudaSuccess; off += chunk) {
            const size_t len = parts[k].bytes - off < chunk ? parts[k].bytes - off : chunk;
            if (used[b] && (err = cudaEventSynchronize((cudaEvent_t)pool->done[b])) != cudaSuccess)
                break;
            job.to = (char *)pool->buf[b];
            job.from = (const char *)parts[k].src + off;
            job.bytes = len;
            copy_piece(&job, workers);
            err = cudaMemcpyAsync((char *)parts[k].dst + off, pool->buf[b], len,
                                  cudaMemcpyHostToDevice, st);
            if (err == cudaSuccess)
                err = cudaEventRecord((cudaEvent_t)pool->done[b], st);
            used[b] = true;
            b ^= 1;
        }
    }
    pthread_mutex_lock(&job.mu);
    job.quit = true;
    pthread_cond_broadcast(&job.go);
    pthread_mutex_unlock(&job.mu);
    for (int t = 0; t < workers; t++)
        pthread_join(tid[t], nullptr);
    pthread_cond_destroy(&job.go);
    pthread_cond_destroy(&job.finished);
    pthread_mutex_destroy(&job.mu);
    /* Nothing may still read the buffers or the caller's arrays. */
    const cudaError_t sync = cudaStreamSynchronize(st);
    if (err == cudaSuccess)
        err = sync;
    if (err != cudaSuccess)
        return gcut_cu_fail(err, __func__, "uploading through the pinned buffers", __FILE__,
                            __LINE__);
    return GCUT_OK;
}
