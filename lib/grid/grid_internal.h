/*
 * grid_internal.h - the gcut_grid object: dense capacity arrays, the cached
 * graph for generic back ends, and the solver state kept for warm re-solves.
 */
#ifndef GCUT_GRID_INTERNAL_H
#define GCUT_GRID_INTERNAL_H

#include "core/core_internal.h"
#include "gcut/plugin.h"
#include "gcut/grid.h"

struct gcut_grid {
    int32_t w, h, d;
    int32_t conn;                        /* also the number of directions */
    int32_t n;                           /* w * h * d */
    int32_t off[3 * GCUT_GRID_MAX_DIRS]; /* dx, dy, dz of each direction */
    /* One block of (conn + 2) * n int32: the direction arrays, then the
     * source and the sink array. */
    int32_t *data;
    int32_t *cap[GCUT_GRID_MAX_DIRS];
    int32_t *src;
    int32_t *snk;

    /* The equivalent gcut_graph for back ends without solve_grid; built on
     * demand, dropped on any change. */
    gcut_graph *graph;

    /* Warm start: the state of the last grid-native back end, whether it
     * holds this grid's last successful solve, and the changes since. */
    int warm_enabled;
    const gcut_backend *state_be;
    void *state;
    int state_valid;
    gcut_grid_change *log;
    int64_t log_n, log_cap;
    int64_t log_links; /* entries of the log that are n-links */

    /* What "auto" is told about the solves to come (gcut_i_grid_set_hint). */
    int32_t hint_hard;
    int64_t hint_solves;

    /* The report of the last float setter (grid_float.c): q_kind is
     * GCUT_I_GRID_Q_NONE, _CAPS or _ENERGY. Any change through the integer
     * setters afterwards resets it to NONE (changed() in grid.c): the grid
     * then no longer holds the quantised float problem. */
    int q_kind;
    double q_scale, q_offset;
    double q_bound_pair, q_bound_unary; /* error sums of n-links and t-links */
    int64_t q_terms_pair, q_terms_unary;
};

enum { GCUT_I_GRID_Q_NONE = 0, GCUT_I_GRID_Q_CAPS = 1, GCUT_I_GRID_Q_ENERGY = 2 };

/* The direction table of grid.h: 3 ints per direction. */
GCUT_HIDDEN const int32_t *gcut_i_grid_offsets(int32_t connectivity);

#endif /* GCUT_GRID_INTERNAL_H */
