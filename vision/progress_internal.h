/*
 * progress_internal.h - the progress callback of gcut_solve_options
 * (solve.h, since 0.3) as the vision layer calls it: at the boundaries of
 * its long operations (GrabCut iterations, segmentation phases, the moves
 * of alpha-expansion and swap, the stages of stereo and multi-view
 * stereo), with the operation, phase and step filled in.
 *
 * The max-flow engines call the same callback while they solve (operation
 * "grid"); the vision layer calls it between those solves. A non-zero
 * return from either stops the public call with GCUT_ERR_INTERRUPTED.
 * Private to libgcut_vision; never installed.
 */
#ifndef GCUT_VISION_PROGRESS_INTERNAL_H
#define GCUT_VISION_PROGRESS_INTERNAL_H

#include <stdint.h>

#include "core/core_internal.h"
#include "gcut/solve.h"

/* One public call's reporter. `opt` may be NULL or carry no callback: every
 * report is then a no-op that returns GCUT_OK. */
typedef struct gcut_i_vprog {
    const gcut_solve_options *opt; /* the caller's options (kept, not copied) */
    const char *operation;         /* static: "grabcut", "segment", "expansion" ... */
    double t0;                     /* when the public call began (CLOCK_MONOTONIC, ms) */
    double last;                   /* when the callback was last called; < 0: never */
    double interval;               /* progress_interval_ms, or 100 when <= 0 */
} gcut_i_vprog;

/* Start reporting for `operation` (a static string) under `opt`. */
GCUT_HIDDEN void gcut_i_vprog_init(gcut_i_vprog *p, const gcut_solve_options *opt,
                                   const char *operation);

/* 1 when the options carry a callback. */
GCUT_HIDDEN int gcut_i_vprog_on(const gcut_i_vprog *p);

/* Report `phase` (static) at step `step` of `steps` (0: none / unknown),
 * `fraction` done (-1: unknown). `force`: always call (a phase boundary);
 * else only when progress_interval_ms has passed since the last call (a
 * frequent report such as a move). Returns GCUT_OK, or GCUT_ERR_INTERRUPTED
 * recorded with a message naming the public call (GCUT_ENTRY), the
 * operation, the phase and the step, when the callback returned non-zero. */
GCUT_HIDDEN gcut_status gcut_i_vprog_report(gcut_i_vprog *p, const char *phase, int64_t step,
                                            int64_t steps, double fraction, int force);

#endif /* GCUT_VISION_PROGRESS_INTERNAL_H */
