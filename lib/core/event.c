/*
 * event.c - the wait counter of the CPU thread pools (event_internal.h).
 *
 * The sleeper count and the counter are both seq_cst, so a bump either is
 * seen by the waiter's re-check under the mutex or sees the sleeper and
 * broadcasts: no wake-up is lost.
 */
#include "core/event_internal.h"

static inline void cpu_relax(void)
{
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    __builtin_ia32_pause();
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

int gcut_i_event_init(gcut_i_event *e)
{
    atomic_init(&e->val, 0);
    atomic_init(&e->sleepers, 0);
    if (pthread_mutex_init(&e->mu, NULL) != 0)
        return -1;
    if (pthread_cond_init(&e->cv, NULL) != 0) {
        pthread_mutex_destroy(&e->mu);
        return -1;
    }
    return 0;
}

void gcut_i_event_destroy(gcut_i_event *e)
{
    pthread_cond_destroy(&e->cv);
    pthread_mutex_destroy(&e->mu);
}

void gcut_i_event_bump(gcut_i_event *e)
{
    atomic_fetch_add(&e->val, 1);
    if (atomic_load(&e->sleepers) != 0) {
        pthread_mutex_lock(&e->mu);
        pthread_cond_broadcast(&e->cv);
        pthread_mutex_unlock(&e->mu);
    }
}

void gcut_i_event_wait(gcut_i_event *e, uint32_t base, uint32_t need, uint32_t spin)
{
    for (uint32_t i = 0; i < spin; i++) {
        if (atomic_load_explicit(&e->val, memory_order_acquire) - base >= need)
            return;
        cpu_relax();
    }
    pthread_mutex_lock(&e->mu);
    atomic_fetch_add(&e->sleepers, 1);
    while (atomic_load(&e->val) - base < need)
        pthread_cond_wait(&e->cv, &e->mu);
    atomic_fetch_sub(&e->sleepers, 1);
    pthread_mutex_unlock(&e->mu);
}
