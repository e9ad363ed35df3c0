/*
 * pool_internal.h - the fork-join thread pool of the parallel CPU engines
 * (cpu-prsn, cpu-grid-pr). Never installed.
 *
 * The caller's thread is worker 0 and drives: gcut_i_pool_run hands one
 * function to every thread of the pool, runs its own share, and returns
 * when all shares are done. A phase thus costs two synchronisations, on
 * two gcut_i_event counters (event_internal.h) that waiters spin on
 * briefly and then sleep on. Between two runs only the driver runs, so it
 * may read and write anything the workers use.
 *
 *     gcut_i_pool pool;
 *     if (gcut_i_pool_init(&pool, nthreads, spin) != 0)
 *         ... out of memory ...
 *     gcut_i_pool_start(&pool);                // now, or at the first parallel phase
 *     gcut_i_pool_run(&pool, job, ctx);        // job(ctx, id, pool.size) on every thread
 *     gcut_i_pool_destroy(&pool);
 *
 * Ordering: everything the driver writes before gcut_i_pool_run is visible
 * to every worker's share, and everything the shares write is visible to
 * the driver when gcut_i_pool_run returns (the counters' seq_cst bumps and
 * acquire loads); nothing else is needed between phases.
 */
#ifndef GCUT_POOL_INTERNAL_H
#define GCUT_POOL_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "core/event_internal.h"

/* One share of a phase: thread `id` of `nthreads` (0 is the driver). */
typedef void (*gcut_i_pool_fn)(void *ctx, int32_t id, int32_t nthreads);

/* Spin iterations of a waiter when the pool has more threads than the
 * machine has cores: a spinner would steal the time of the thread it
 * waits for. */
#define GCUT_I_POOL_SPIN_OVERSUBSCRIBED 20

struct gcut_i_pool_worker;

typedef struct gcut_i_pool {
    int32_t want;       /* threads asked for, the driver included */
    int32_t size;       /* threads taking part in a run: 1 + workers started */
    uint32_t spin;      /* spin iterations before a waiter sleeps */
    int tried;          /* gcut_i_pool_start has run */
    int events_ok;      /* go and done exist (else everything runs on the driver) */
    int quit;           /* written before the last bump of go */
    gcut_i_pool_fn fn;  /* the current phase */
    void *ctx;
    pthread_t *threads;                /* want - 1 */
    struct gcut_i_pool_worker *worker; /* want: each worker's id */
    gcut_i_event go, done;
} gcut_i_pool;

/* A pool of up to nthreads threads (the caller included), none started
 * yet. `spin` is how long a waiter spins while every thread has a core
 * (GCUT_I_POOL_SPIN_OVERSUBSCRIBED otherwise). Returns 0, or -1 when out
 * of memory (nothing to destroy then). If the counters cannot be made the
 * pool never starts a thread and every run is the driver's alone. */
GCUT_HIDDEN int gcut_i_pool_init(gcut_i_pool *pool, int32_t nthreads, uint32_t spin);

/* Start the workers, once (later calls return at once). Threads that fail
 * to start are simply not used. Returns pool->size. */
GCUT_HIDDEN int32_t gcut_i_pool_start(gcut_i_pool *pool);

/* fn(ctx, id, pool->size) on every thread of the pool, id 0 on the
 * caller's; returns when all have returned. Only the driver calls this. */
GCUT_HIDDEN void gcut_i_pool_run(gcut_i_pool *pool, gcut_i_pool_fn fn, void *ctx);

/* Stop and join the workers, free the pool (a zeroed pool is fine too). */
GCUT_HIDDEN void gcut_i_pool_destroy(gcut_i_pool *pool);

#endif /* GCUT_POOL_INTERNAL_H */
