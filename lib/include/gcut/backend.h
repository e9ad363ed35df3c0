/*
 * gcut/backend.h - the back-end registry: which engines there are, what
 * each can do, whether it can run here, and which one a solve would use.
 *
 *     for (int32_t i = 0; i < gcut_backend_count(); i++) {
 *         const char *why;
 *         int ok = gcut_backend_available(i, &why);
 *         printf("%-10s %s %s\n", gcut_backend_name(i), ok ? "yes" : "no", why);
 *     }
 *
 * The registry holds the CPU back ends compiled into libgcut, then the back
 * ends of plugins loaded with dlopen when first needed: every
 * `libgcut_*.so` named in $GCUT_PLUGIN_PATH (a colon-separated list of files
 * or folders) when it is set, else libgcut_cuda.so next to libgcut itself
 * (or in the install's libdir). A plugin that is
 * missing or fails to load is reported, never fatal: the back ends a plugin
 * is expected to provide (cuda-csr, cuda-grid) are then listed as
 * unavailable with the reason. Asking for a built-in back end by name never
 * loads a plugin.
 *
 * Choosing: a back-end name, or "auto" / NULL. For "auto", $GCUT_BACKEND
 * (read once per process) names one when set; otherwise the choice goes by
 * the graph's kind and size and the back ends' capability bits
 * (docs/backends.md). gcut_result_backend() and gcut_result_reason() say
 * what a solve used and why.
 *
 * Writing a back end or a plugin: gcut/plugin.h (not included by gcut.h).
 */
#ifndef GCUT_BACKEND_H
#define GCUT_BACKEND_H

#include "gcut/common.h"
#include "gcut/graph.h"

GCUT_BEGIN_C_DECLS

/** Capability bits of a back end. */
enum {
    GCUT_BACKEND_GRAPH = 1u << 0,      /**< solves general graphs (solve_graph) */
    GCUT_BACKEND_GRID = 1u << 1,       /**< solves grids natively (solve_grid) */
    GCUT_BACKEND_FLOWS = 1u << 2,      /**< can return per-edge flows */
    GCUT_BACKEND_THREADS = 1u << 3,    /**< uses the threads option */
    GCUT_BACKEND_GPU = 1u << 4,        /**< runs on a GPU */
    GCUT_BACKEND_NEEDS_BCSR = 1u << 5, /**< wants gcut_problem.bcsr */
    GCUT_BACKEND_NEEDS_RCSR = 1u << 6, /**< wants gcut_problem.rcsr */
    GCUT_BACKEND_REFERENCE = 1u << 7,  /**< a reference solver: auto takes it only when
                                            nothing else can run */
    /** `auto` prefers it for vision-like graphs (most nodes carry a terminal
     *  link, at most 8 edges per node) and for grids on the CPU */
    GCUT_BACKEND_AUTO_VISION = 1u << 8,
    /** `auto` prefers it for other graphs on the CPU */
    GCUT_BACKEND_AUTO_GENERAL = 1u << 9,
    /** `auto` prefers it for graphs of at least GCUT_AUTO_GPU_MIN_EDGES edges */
    GCUT_BACKEND_AUTO_LARGE = 1u << 10,
    /** `auto` prefers it on the CPU for dense graphs (at least
     *  GCUT_AUTO_DENSE_EDGES_PER_NODE edges per node) that are not vision-like
     *  (since 0.3) */
    GCUT_BACKEND_AUTO_DENSE = 1u << 11,
    /** `auto` prefers it on the CPU for graphs with hubs (at least 8 nodes
     *  without terminal links of at least GCUT_AUTO_HUB_FACTOR times the
     *  average degree, and at least GCUT_AUTO_HUB_MIN_DEGREE) that are
     *  neither vision-like nor dense (since 0.3) */
    GCUT_BACKEND_AUTO_HUBS = 1u << 12,
    /** With GCUT_BACKEND_NEEDS_RCSR: the back end lays out the edge list of
     *  gcut_problem itself (on its device) when gcut_problem.rcsr is NULL,
     *  the same layout arc for arc. The core then passes the RCSR only when
     *  the graph already holds one, and always for graphs of more than
     *  GCUT_LAYS_OUT_MAX_EDGES edges (since 0.3) */
    GCUT_BACKEND_LAYS_OUT = 1u << 13
};

/** Graphs up to this many edges may reach a GCUT_BACKEND_LAYS_OUT back end
 *  without a layout (since 0.3). */
#define GCUT_LAYS_OUT_MAX_EDGES (((int64_t)1 << 30) - 1)

/** Graphs with at least this many edges go to a GPU back end (GCUT_BACKEND_AUTO_LARGE)
 *  when one is available (bench/results: a GPU pays off from about a million arcs). */
#define GCUT_AUTO_GPU_MIN_EDGES 1000000

/** Dense graphs for `auto` (GCUT_BACKEND_AUTO_DENSE): edges per node (since 0.3). */
#define GCUT_AUTO_DENSE_EDGES_PER_NODE 32
/** Graphs with hubs for `auto` (GCUT_BACKEND_AUTO_HUBS): the largest degree
 *  (in + out) against the average, and its least value (since 0.3). */
#define GCUT_AUTO_HUB_FACTOR 64
#define GCUT_AUTO_HUB_MIN_DEGREE 256

/* ------------------------------------------------------------------ registry */

/** \brief Number of registered back ends (CPU ones first, then plugins'). */
GCUT_EXPORT int32_t gcut_backend_count(void);
/** \brief Name of back end \p i ("cpu-bk" ...), or NULL if out of range. */
GCUT_EXPORT const char *gcut_backend_name(int32_t i);
/** \brief One-line description of back end \p i. */
GCUT_EXPORT const char *gcut_backend_description(int32_t i);
/** \brief GCUT_BACKEND_* capability bits of back end \p i. */
GCUT_EXPORT uint32_t gcut_backend_caps(int32_t i);
/** \brief Whether back end \p i can run here; \p reason (optional) receives "ok"
 *  or why not ("no CUDA device", "plugin not found: ..."). The probe runs once. */
GCUT_EXPORT int gcut_backend_available(int32_t i, const char **reason);
/** \brief Index of the back end called \p name. */
GCUT_EXPORT gcut_status gcut_backend_find(const char *name, int32_t *index);
/** \brief The back end gcut_solve would use for \p g with \p name ("auto", NULL or a
 *  name), and why. A name that is not registered fails with GCUT_ERR_NOT_FOUND, one
 *  that cannot run here with GCUT_ERR_UNAVAILABLE and the reason. \p reason
 *  (optional) points to storage of the calling thread, valid until its next call. */
GCUT_EXPORT gcut_status gcut_backend_choose(const gcut_graph *g, const char *name, int32_t *index,
                                            const char **reason);

GCUT_END_C_DECLS

#endif /* GCUT_BACKEND_H */
