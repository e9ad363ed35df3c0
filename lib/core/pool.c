/*
 * pool.c - the fork-join thread pool of the parallel CPU engines
 * (pool_internal.h).
 *
 * A worker runs every phase the driver publishes, in order: the driver
 * never publishes the next phase before all workers reported the last one,
 * so counting the bumps of `go` it has seen is enough for a worker to
 * recognise a new phase.
 */
#include <string.h>

#include "core/pool_internal.h"

struct gcut_i_pool_worker {
    gcut_i_pool *pool;
    int32_t id;
};

static void *worker_main(void *arg)
{
    const struct gcut_i_pool_worker *w = arg;
    gcut_i_pool *pool = w->pool;
    uint32_t seen = 0;
    for (;;) {
        gcut_i_event_wait(&pool->go, seen, 1, pool->spin);
        seen++;
        if (pool->quit)
            return NULL;
        pool->fn(pool->ctx, w->id, pool->size);
        gcut_i_event_bump(&pool->done);
    }
}

int gcut_i_pool_init(gcut_i_pool *pool, int32_t nthreads, uint32_t spin)
{
    memset(pool, 0, sizeof *pool);
    pool->want = nthreads > 1 ? nthreads : 1;
    pool->size = 1;
    pool->spin = pool->want <= gcut_i_num_cpus() ? spin : GCUT_I_POOL_SPIN_OVERSUBSCRIBED;
    if (pool->want == 1)
        return 0;
    pool->threads = gcut_i_calloc((size_t)pool->want - 1, sizeof *pool->threads);
    pool->worker = gcut_i_calloc((size_t)pool->want, sizeof *pool->worker);
    if (!pool->threads || !pool->worker) {
        gcut_i_free(pool->threads);
        gcut_i_free(pool->worker);
        memset(pool, 0, sizeof *pool);
        return -1;
    }
    if (gcut_i_event_init(&pool->go) == 0) {
        if (gcut_i_event_init(&pool->done) == 0)
            pool->events_ok = 1;
        else
            gcut_i_event_destroy(&pool->go);
    }
    return 0;
}

int32_t gcut_i_pool_start(gcut_i_pool *pool)
{
    if (pool->tried || pool->want <= 1 || !pool->events_ok)
        return pool->size;
    pool->tried = 1;
    for (int32_t t = 1; t < pool->want; t++) {
        pool->worker[t].pool = pool;
        pool->worker[t].id = t;
        if (pthread_create(&pool->threads[t - 1], NULL, worker_main, &pool->worker[t]) != 0)
            break;
        pool->size++;
    }
    return pool->size;
}

void gcut_i_pool_run(gcut_i_pool *pool, gcut_i_pool_fn fn, void *ctx)
{
    if (pool->size <= 1) {
        fn(ctx, 0, 1);
        return;
    }
    pool->fn = fn;
    pool->ctx = ctx;
    const uint32_t base = atomic_load(&pool->done.val);
    gcut_i_event_bump(&pool->go);
    fn(ctx, 0, pool->size);
    gcut_i_event_wait(&pool->done, base, (uint32_t)(pool->size - 1), pool->spin);
}

/* quit is written before the bump that the workers acquire, so a woken
 * worker sees it. */
void gcut_i_pool_destroy(gcut_i_pool *pool)
{
    if (pool->size > 1) {
        pool->quit = 1;
        gcut_i_event_bump(&pool->go);
        for (int32_t t = 0; t < pool->size - 1; t++)
            pthread_join(pool->threads[t], NULL);
    }
    if (pool->events_ok) {
        gcut_i_event_destroy(&pool->go);
        gcut_i_event_destroy(&pool->done);
    }
    gcut_i_free(pool->threads);
    gcut_i_free(pool->worker);
    memset(pool, 0, sizeof *pool);
}
