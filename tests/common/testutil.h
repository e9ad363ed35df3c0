/*
 * testutil.h - shared helpers of the test suites: a deterministic PRNG,
 * random graph families for cross-checks, and a cross-check of one back end
 * against cpu-ref.
 */
#ifndef GCUT_TESTUTIL_H
#define GCUT_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gcut/gcut.h"

/* splitmix64: tiny, seedable, identical everywhere. */
typedef struct tu_rng {
    uint64_t s;
} tu_rng;

uint64_t tu_next(tu_rng *r);
/* Uniform in [lo, hi] (inclusive). */
int64_t tu_range(tu_rng *r, int64_t lo, int64_t hi);

/* Random graph families used by the cross-checks. */
typedef enum tu_family {
    TU_SPARSE = 0,     /* random arcs, average degree 1..6 */
    TU_DENSE,          /* near-complete on few nodes */
    TU_GRID2D,         /* 4- or 8-connected grid with terminal links */
    TU_GRID3D,         /* 6-connected volume with terminal links */
    TU_BIPARTITE,      /* source -> left, left -> right, right -> sink */
    TU_LAYERED,        /* layers with random arcs to the next layer */
    TU_DISCONNECTED,   /* several components, some with no terminal links */
    TU_PATHOLOGICAL,   /* parallel arcs, self-loops, zero caps, tiny graphs */
    TU_FAMILY_COUNT
} tu_family;

typedef enum tu_caps {
    TU_CAPS_SMALL = 0, /* 0..10 */
    TU_CAPS_MEDIUM,    /* 0..10000 */
    TU_CAPS_HUGE,      /* near INT32_MAX: totals past 2^32 */
    TU_CAPS_MIXED,     /* zeros, ones and huge */
    TU_CAPS_COUNT
} tu_caps;

const char *tu_family_name(tu_family f);
const char *tu_caps_name(tu_caps c);

/* Build a random graph of the family with about `size` nodes. Deterministic in seed. */
gcut_graph *tu_random_graph(uint64_t seed, tu_family fam, tu_caps caps, int32_t size);

/* Structure changes of the kept-records tests (test_bk, test_eibfs): one
 * edge between random nodes (random capacities up to 1000; nothing when g
 * has fewer than 2 nodes), and two new nodes, one tied to the source and
 * one to the sink, joined to each other and to node 0. Assert success. */
void tu_add_random_edge(gcut_graph *g, tu_rng *r);
void tu_add_terminal_pair(gcut_graph *g);

/* Solve g with back end `backend` and with cpu-ref; assert the same flow value, identical
 * canonical cuts and (with flows) gcut_check_flow. On a mismatch it prints `label`, writes
 * the graph to /tmp/gcut-fail-<label>.max and returns non-zero. threads/params may be 0/NULL. */
int tu_crosscheck(gcut_graph *g, const char *backend, int want_flows, int32_t threads,
                  const char *params, const char *label);

/* Flow value and cut of g with a back end (asserts success). Caller frees *cut. */
int64_t tu_solve(gcut_graph *g, const char *backend, uint8_t **cut);

/* Whether back end `name` exists and is available here. */
int tu_backend_available(const char *name);

/* Number of random cases, scaled by $GCUT_TEST_SCALE (a float, default 1). */
int tu_scaled(int base);

/* Path of a file in ../shared/data, or NULL when the folder is absent. */
const char *tu_shared_data(const char *relative, char *buf, size_t size);

/* Capacity patterns of the grid suites. */
typedef enum tu_grid_kind {
    TU_GRID_SMALL,      /* 0..10 */
    TU_GRID_MEDIUM,     /* 0..100, the usual random grid */
    TU_GRID_HUGE,       /* near INT32_MAX everywhere: totals far past 2^32 */
    TU_GRID_ZERO,       /* n-links all 0 */
    TU_GRID_MIXED,      /* zeros, ones, small and huge */
    TU_GRID_ALL_SOURCE, /* terminal links to the source only */
    TU_GRID_ALL_SINK,   /* terminal links to the sink only */
    TU_GRID_SEEDS,      /* a few hard seeds, smooth n-links (segmentation-like) */
    TU_GRID_COUNT
} tu_grid_kind;
const char *tu_grid_kind_name(tu_grid_kind k);
/* Fill every capacity and terminal array of g (border entries too: they
 * must be ignored) with pattern k. */
void tu_grid_randomise(gcut_grid *g, tu_rng *r, tu_grid_kind k);
/* Terminal links whose cut crosses every slab of planes (`across`: source
 * links on one half of x, sink links on the other) or whose flow crosses
 * every slab boundary (source links on the first plane, sink links on the
 * last), with random n-links, `huge` ones near INT32_MAX: the partitioned
 * solves' hardest cases (test_dist, test_gpu_dist, test_dist_mpi). */
void tu_grid_set_crossing(gcut_grid *g, tu_rng *r, int across, int huge);

/* A vision-like grid: a few bright balls on a dark background with noise,
 * t-links from each intensity's distance to the two means, contrast-
 * sensitive n-links (the energy of test_gpu_dist and test_gpu_span). */
void tu_grid_fill_vision(gcut_grid *g, uint64_t seed);

/* Solve g through gcut_grid_solve_slabs as nslabs slabs of counts[i] >= 1
 * planes (NULL: an even split, nslabs <= planes), each slab's arrays
 * copied into buffers of their own: host memory, or memory of device 0
 * (gcut_device_alloc) for the slabs whose bit is set in device_mask (their
 * slab.device 0). The cut (num_nodes bytes) is written slab by slab;
 * returns the call's status. */
gcut_status tu_solve_slabs(gcut_grid *g, int32_t nslabs, const int32_t *counts,
                           const gcut_solve_options *opt, uint32_t device_mask, int64_t *flow,
                           uint8_t *cut, gcut_stats *stats);

/* Random capacity changes of one kind, for warm re-solve tests. */
typedef enum tu_change_kind {
    TU_CH_STROKE, /* a disc of hard t-links (an interactive stroke) */
    TU_CH_TLINKS, /* scattered t-links, per node */
    TU_CH_NLINKS, /* scattered n-links (border entries too), up and down */
    TU_CH_ARRAYS, /* whole arrays handed again with a few entries changed */
    TU_CH_HUGE,   /* capacities near INT32_MAX */
    TU_CH_RANGE,  /* a row of terminals through the range setter */
    TU_CH_COUNT
} tu_change_kind;
void tu_grid_change(gcut_grid *g, tu_rng *r, tu_change_kind kind);

#endif
