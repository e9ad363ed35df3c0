/*
 * event_internal.h - a monotone counter that threads of a pool wait on:
 * spin a while, then sleep on a condition variable (the machine may have
 * fewer cores than threads). Shared by the parallel CPU engines.
 */
#ifndef GCUT_EVENT_INTERNAL_H
#define GCUT_EVENT_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "core/core_internal.h"

typedef struct gcut_i_event {
    _Alignas(64) _Atomic uint32_t val;
    /* Apart from val: every bump reads it, almost nobody writes it. */
    _Alignas(64) _Atomic uint32_t sleepers;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} gcut_i_event;

/* 0 on success, -1 if the mutex or condition variable cannot be made. */
GCUT_HIDDEN int gcut_i_event_init(gcut_i_event *e);
GCUT_HIDDEN void gcut_i_event_destroy(gcut_i_event *e);
/* Advance the counter by one and wake sleepers. */
GCUT_HIDDEN void gcut_i_event_bump(gcut_i_event *e);
/* Wait until the counter has moved `need` past `base`, spinning `spin`
 * times before sleeping. */
GCUT_HIDDEN void gcut_i_event_wait(gcut_i_event *e, uint32_t base, uint32_t need, uint32_t spin);

#endif
