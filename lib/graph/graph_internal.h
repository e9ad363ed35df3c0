/*
 * graph_internal.h - the gcut_graph object and its cached layouts.
 */
#ifndef GCUT_GRAPH_INTERNAL_H
#define GCUT_GRAPH_INTERNAL_H

#include <pthread.h>

#include "core/core_internal.h"
#include "gcut/plugin.h"
#include "gcut/graph.h"

/* Slots for engine records kept with the layouts (kept.c). */
#define GCUT_I_KEPT_SLOTS 2

/* A built layout and the memory behind its const view. */
typedef struct gcut_i_bcsr_store {
    gcut_bcsr view;
    int64_t *first;
    int32_t *head;
    int64_t *sister;
    int32_t *cap;
    int64_t *edge;
} gcut_i_bcsr_store;

typedef struct gcut_i_rcsr_store {
    gcut_rcsr view;
    int64_t *row;
    int32_t *col;
    int32_t *cap;
    int64_t *rrow;
    int32_t *rcol;
    int64_t *rmap;
    int64_t *edge;
} gcut_i_rcsr_store;

struct gcut_graph {
    int32_t n;            /* nodes */
    int32_t n_alloc;      /* room in cap_source / cap_sink */
    int64_t m;            /* edges */
    int64_t m_alloc;      /* room in the edge arrays */
    /* edges, structure of arrays */
    int32_t *eu;
    int32_t *ev;
    int32_t *ecap;
    int32_t *erev;
    /* terminal capacities */
    int32_t *cap_source;
    int32_t *cap_sink;
    /* cached layouts; NULL until built, dropped on any change. Built under
     * layout_lock, so that concurrent solves of one unchanged graph build
     * each layout once (gcut/solve.h); a change (which frees them) while
     * another thread solves stays the caller's problem. */
    gcut_i_bcsr_store *bcsr;
    gcut_i_rcsr_store *rcsr;
    pthread_mutex_t layout_lock;
    /* The records of the engines that keep them with the layouts
     * (solvers_internal.h, gcut_i_kept_engine; kept.c's table gives each
     * engine its slot): cpu-bk's arc and node records and cpu-eibfs's
     * state (which also re-solves warm unless warm_off). Built in the
     * layout stage of the engine's first solve, dropped with the layouts
     * by every change of the structure (nodes, edges), kept when only
     * terminal capacities change. A solve holds the slot's lock, taken
     * with trylock: a concurrent solve of the same graph that finds it
     * taken uses records of its own. */
    void *kept[GCUT_I_KEPT_SLOTS];
    pthread_mutex_t kept_lock[GCUT_I_KEPT_SLOTS];
    int warm_off;
    /* cut of the last gcut_graph_maxflow (basic interface) */
    uint8_t *last_cut;
    int32_t last_cut_n;
    /* the quantisation report of gcut_graph_new_f32 (graph_float.c) */
    int q_valid;
    double q_scale, q_bound;
    int64_t q_terms;
};

/* Drop cached layouts (the engines' kept records included) and the last
 * cut (called on every change of the structure). */
GCUT_HIDDEN void gcut_i_graph_invalidate(gcut_graph *g);

/* Build (or return the cached) layout; `threads` as for the builders. */
GCUT_HIDDEN gcut_status gcut_i_graph_bcsr(gcut_graph *g, int32_t threads, const gcut_bcsr **out);
GCUT_HIDDEN gcut_status gcut_i_graph_rcsr(gcut_graph *g, int32_t threads, const gcut_rcsr **out);
/* The RCSR the graph holds, or NULL when none was built (no build). */
GCUT_HIDDEN const gcut_rcsr *gcut_i_graph_rcsr_kept(gcut_graph *g);

/* Layout builders (csr.c) and their frees. `threads`: as
 * gcut_solve_options.threads (0: one per CPU); a large graph is laid out
 * by that many threads, with the same output as one. */
GCUT_HIDDEN gcut_status gcut_i_bcsr_build(const gcut_graph *g, int32_t threads,
                                          gcut_i_bcsr_store **out);
GCUT_HIDDEN void gcut_i_bcsr_free(gcut_i_bcsr_store *s);
GCUT_HIDDEN gcut_status gcut_i_rcsr_build(const gcut_graph *g, int32_t threads,
                                          gcut_i_rcsr_store **out);
GCUT_HIDDEN void gcut_i_rcsr_free(gcut_i_rcsr_store *s);

/* The tests' hook: both layouts of g built serially (threads 1) or by
 * `threads` threads whatever g's size; stores[2] keeps them for
 * gcut_i_csr_layouts_free. */
GCUT_HIDDEN gcut_status gcut_i_csr_layouts(const gcut_graph *g, int32_t threads, gcut_bcsr *b,
                                           gcut_rcsr *r, void **stores);
GCUT_HIDDEN void gcut_i_csr_layouts_free(void **stores);

/* gcut_graph_read_dimacs (messages name it) with the chunked reader forced:
 * chunks of about chunk_bytes bytes (> 0) parsed by `threads` threads,
 * whatever the file's size. The tests' hook for chunk boundaries
 * (dimacs.c, "chunks, in parallel"). */
GCUT_HIDDEN gcut_status gcut_i_dimacs_read_chunked(const char *path, int32_t threads,
                                                   int64_t chunk_bytes, gcut_graph **out,
                                                   gcut_dimacs_info *info);

/* Fill a gcut_problem view of g (layouts not included). */
GCUT_HIDDEN void gcut_i_graph_problem(const gcut_graph *g, gcut_problem *p);

#endif /* GCUT_GRAPH_INTERNAL_H */
