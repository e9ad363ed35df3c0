/*
 * progress.c - the vision layer's calls of the progress callback of
 * gcut_solve_options (progress_internal.h).
 *
 * Invariants: the callback runs on the caller's thread, between the steps
 * of an operation, never while an object is half updated (each caller
 * reports only where stopping leaves its objects consistent); a report
 * that is not forced calls it at most once per progress_interval_ms.
 */
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "progress_internal.h"

/* gcut_i_now_ms is libgcut's own (hidden): the same clock here. */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* The options carry the 0.3 fields (struct_size tells older callers apart). */
static int has_progress(const gcut_solve_options *opt)
{
    return opt &&
           opt->struct_size >= offsetof(gcut_solve_options, progress_interval_ms) +
                                   sizeof opt->progress_interval_ms &&
           opt->progress != NULL;
}

void gcut_i_vprog_init(gcut_i_vprog *p, const gcut_solve_options *opt, const char *operation)
{
    memset(p, 0, sizeof *p);
    p->opt = has_progress(opt) ? opt : NULL;
    p->operation = operation;
    p->t0 = now_ms();
    p->last = -1.0;
    p->interval = p->opt && p->opt->progress_interval_ms > 0 ? p->opt->progress_interval_ms : 100.0;
}

int gcut_i_vprog_on(const gcut_i_vprog *p) { return p->opt != NULL; }

gcut_status gcut_i_vprog_report(gcut_i_vprog *p, const char *phase, int64_t step, int64_t steps,
                                double fraction, int force)
{
    if (!p->opt)
        return GCUT_OK;
    const double now = now_ms();
    if (!force && p->last >= 0.0 && now - p->last < p->interval)
        return GCUT_OK;
    p->last = now;
    gcut_progress g;
    memset(&g, 0, sizeof g);
    g.struct_size = sizeof g;
    g.operation = p->operation;
    g.phase = phase;
    g.fraction = fraction;
    g.step = step;
    g.steps = steps;
    g.remaining = -1;
    g.remaining_what = NULL;
    g.elapsed_ms = now - p->t0;
    if (p->opt->progress(&g, p->opt->progress_user) == 0)
        return GCUT_OK;
    if (steps > 0)
        return GCUT_FAIL(GCUT_ERR_INTERRUPTED,
                         "interrupted by the progress callback (%s, %s %lld of %lld)", p->operation,
                         phase, (long long)step, (long long)steps);
    return GCUT_FAIL(GCUT_ERR_INTERRUPTED, "interrupted by the progress callback (%s, %s)",
                     p->operation, phase);
}
