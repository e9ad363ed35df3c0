/*
 * core_internal.h - errors, allocation, logging and clocks shared by every
 * file of libgcut. Never installed.
 */
#ifndef GCUT_CORE_INTERNAL_H
#define GCUT_CORE_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "gcut/backend.h"
#include "gcut/plugin.h"
#include "gcut/common.h"
#include "gcut/solve.h"

#include "core/compiler_internal.h"
#include "core/outfile_internal.h"

/* The error, allocation and log services below are also used by
 * libgcut_vision, a separate shared library built from this tree: libgcut.so
 * exports them (GCUT_I_SHARED, compiler_internal.h), but they are declared
 * only in this header, which is never installed, so they are not part of
 * the public API. */

/* Record status + message (prefixed with the calling function) for
 * gcut_last_error() and return the status. Use as `return GCUT_FAIL(...)`. */
GCUT_I_SHARED gcut_status gcut_i_fail(gcut_status status, const char *where, const char *fmt, ...)
    GCUT_PRINTF(3, 4);
GCUT_I_SHARED gcut_status gcut_i_vfail(gcut_status status, const char *where, const char *fmt,
                                       va_list ap);
#define GCUT_FAIL(status, ...) gcut_i_fail((status), __func__, __VA_ARGS__)

/* The public function the caller called. A message names it, not the
 * helper or engine that failed: GCUT_ENTRY() as the first line of a public
 * function makes it the `where` of every failure recorded on this thread
 * until it returns (the outermost such function wins, so gcut_segment's
 * failure inside its gcut_grid_solve names gcut_segment). gcut_i_leave is
 * the cleanup of the variable GCUT_ENTRY declares; user callbacks run with
 * no entry (gcut_i_log). Without the cleanup attribute, messages name the
 * function that failed. Hot per-element calls (gcut_graph_add_edge ...) do
 * without it and pass their name to the helpers they share instead. */
GCUT_I_SHARED const char *gcut_i_enter(const char *name);
GCUT_I_SHARED void gcut_i_leave(const char **prev);
#if defined(__GNUC__) || defined(__clang__)
#define GCUT_ENTRY()                                                                               \
    const char *gcut_i_entry_prev_ __attribute__((cleanup(gcut_i_leave), unused)) =                \
        gcut_i_enter(__func__)
#else
#define GCUT_ENTRY() ((void)0)
#endif

/* Allocation through the user's allocator. gcut_i_malloc_array checks
 * count * size for overflow. All return NULL on failure (record nothing). */
GCUT_I_SHARED void *gcut_i_malloc(size_t size);
GCUT_I_SHARED void *gcut_i_calloc(size_t count, size_t size);
GCUT_I_SHARED void *gcut_i_realloc(void *ptr, size_t size);
GCUT_I_SHARED void *gcut_i_malloc_array(int64_t count, size_t size);
GCUT_I_SHARED void gcut_i_free(void *ptr);

/* The checked path for large allocations (arrays sized by an input): resize
 * *ptr (NULL: allocate) to count elements of size bytes. On success *ptr is
 * the new block; on failure *ptr is unchanged and GCUT_ERR_NOMEM is recorded
 * for the public function `where` as "cannot allocate 16.0 GiB for WHAT",
 * WHAT formatted from fmt. A request larger than the machine's memory and
 * swap together is refused without asking the allocator: with overcommit it
 * would be granted and the process killed when it is used. */
GCUT_I_SHARED gcut_status gcut_i_alloc_array(void **ptr, int64_t count, size_t size,
                                             const char *where, const char *fmt, ...)
    GCUT_PRINTF(5, 6);

/* Log through the call's sink (opt may be NULL: global sink). A message is
 * delivered if level <= verbosity, errors always. */
GCUT_I_SHARED void gcut_i_log(const gcut_solve_options *opt, gcut_log_level level,
                              const char *fmt, ...) GCUT_PRINTF(3, 4);

/* The table of the extension `name` at interface `version` that a loaded
 * plugin offers (gcut_plugin_extension, gcut/plugin.h), for back end
 * `backend` (NULL: any), or NULL when none is offered or the back end it
 * belongs to cannot run here. A built-in back end has none (and asking
 * loads no plugin). The core does not know what the table is:
 * for the vision layer's device energies and moves (vision/vision_plugin.h). */
GCUT_I_SHARED const void *gcut_i_plugin_extension(const char *name, int32_t version,
                                                  const char *backend);

/* What the automatic grid choice looks at (lib/solve/choose.c, measured
 * crossovers in docs/backends.md "How auto chooses"). */
typedef struct gcut_i_grid_shape {
    int64_t nodes;        /* grid nodes */
    int32_t connectivity; /* 4, 8, 6, 18 or 26 */
    int32_t hard;         /* 1: energies of real images (segmentation, stereo), which
                           * take the CPU engines about 10x longer than synthetic ones */
    int64_t solves;       /* solves of this size the caller expects (multi-label
                           * moves: the labels), >= 1 */
    const char *warm;     /* the back end holding the grid's warm state, or NULL:
                           * the automatic choice keeps it */
} gcut_i_grid_shape;

/* The name of the back end a grid solve would use with back-end setting
 * `name` (a name, "auto" or NULL: then $GCUT_BACKEND or the automatic
 * choice for a grid of `shape`, NULL: a small grid; lib/solve/choose.c),
 * or NULL when there is none to name (no grid-native back end, or the
 * name is unknown or unavailable: the solve reports that). For the vision
 * layer, which asks rather than guesses. */
GCUT_I_SHARED const char *gcut_i_grid_backend_name(const char *name,
                                                   const gcut_i_grid_shape *shape);

/* Tell the automatic choice of a grid's back end what its solves are: the
 * energies of real images (`hard`) and how many solves of it to expect
 * (the labels of multi-label moves). The vision layer's grids. */
GCUT_I_SHARED void gcut_i_grid_set_hint(gcut_grid *g, int hard, int64_t solves);

/* Whether a GPU back end has been set up in this process (a GPU solve
 * succeeded or a warm start ran): the device's one-time set-up (about
 * 220 ms on an H100) is then paid, and auto uses the GPU from smaller
 * problems on. gcut_i_note_device_used records it. */
GCUT_I_SHARED int gcut_i_device_used(void);
GCUT_I_SHARED void gcut_i_note_device_used(void);

/* Start-up of back end `name` (a GPU's context: about 150 ms) on a thread
 * of its own, so that the caller overlaps it with host work (the cost
 * volume of stereo): returns a handle for gcut_i_backend_warm_join, or NULL
 * (nothing started) for NULL, "auto", an unknown name or a failed thread
 * start. The probe it runs is the cached, locked one of
 * gcut_backend_available, so the caller may use the back end at any time. */
GCUT_I_SHARED void *gcut_i_backend_warm_start(const char *name);
GCUT_I_SHARED void gcut_i_backend_warm_join(void *handle);

/* Monotonic clock, milliseconds. */
GCUT_HIDDEN double gcut_i_now_ms(void);

/* The context of one public call that runs an engine (gcut_solve,
 * gcut_grid_solve, gcut_match, ...): its start, its deadline (start +
 * time_limit: the limit covers layout builds, uploads, the engine, flows
 * and cut), the progress callback and the memory budget. The public
 * function starts it after copying its options and ends it before
 * returning (on every path: wrap the body in a helper). It lives on the
 * caller's stack and is found through a thread-local pointer, so that
 * every poll below, however deep, reaches it; a call inside a call (the
 * vision layer's gcut_grid_solve) nests: the inner deadline is never
 * later than the outer one, an unset callback or budget is the outer one's,
 * and a poll asks every callback of the chain. */
typedef struct gcut_i_call {
    struct gcut_i_call *prev; /* the enclosing call on this thread, or NULL */
    const char *operation;    /* gcut_progress.operation ("maxflow", "grid", "match") */
    const char *phase;        /* the last phase reported */
    double t0;                /* gcut_i_now_ms() at the public call's start */
    double deadline;          /* t0 + time_limit, or 1e300 */
    double limit_s;           /* the time limit behind deadline (for messages) */
    gcut_progress_fn fn;      /* may be NULL */
    void *user;
    double interval;     /* ms between reports while working */
    double next;         /* the next report is due at this time */
    size_t budget;       /* bytes; 0: none */
    size_t used;         /* bytes of the fresh blocks of this call (never lowered by a free) */
    double over_bytes;   /* the request that passed the budget, for gcut_i_fail */
    gcut_status stopped; /* sticky: TIMEOUT or INTERRUPTED once seen */
} gcut_i_call;

/* Start context c for `operation` with options opt (a copied, initialised
 * struct; NULL: none) at time t0 (gcut_i_now_ms() when the public call
 * began; 0: now), and make it the thread's current one. */
GCUT_I_SHARED void gcut_i_call_begin(gcut_i_call *c, const char *operation,
                                     const gcut_solve_options *opt, double t0);
/* End it (restores the enclosing one). */
GCUT_I_SHARED void gcut_i_call_end(gcut_i_call *c);

/* The one poll of every long loop: GCUT_OK to go on, else GCUT_ERR_TIMEOUT
 * (the deadline passed) or GCUT_ERR_INTERRUPTED (a progress callback
 * returned non-zero), recorded with a message naming the public function
 * and the phase. Calls the progress callback when the phase changes and
 * otherwise at most every progress_interval_ms. `remaining` is a measure
 * of the work left (-1: unknown) and `what` says what it counts (static,
 * NULL when unknown). Cheap (a clock read and a few compares): call it
 * every few thousand steps of a hot loop. Without a current call (an
 * engine reached outside a public entry) it returns GCUT_OK. */
GCUT_I_SHARED gcut_status gcut_i_poll(const char *phase, int64_t remaining, const char *what);

/* The current call of this thread, or NULL. */
GCUT_I_SHARED gcut_i_call *gcut_i_call_current(void);

/* The memory budget in force on this thread: the current call's (its
 * max_memory, else that of the enclosing call, else the process budget),
 * or the process budget (gcut_set_max_memory) outside a call; 0: none. */
GCUT_I_SHARED size_t gcut_i_budget(void);

/* Account `bytes` more for an object whose arrays total *used bytes
 * against the budget in force: GCUT_OK (and *used grown), or
 * GCUT_ERR_NOMEM recorded for `where` as "cannot allocate X MiB for WHAT:
 * over the memory budget of Y MiB (...)", *used unchanged. used may be
 * NULL (a single allocation). */
GCUT_I_SHARED gcut_status gcut_i_budget_charge(size_t *used, double bytes, const char *where,
                                               const char *fmt, ...) GCUT_PRINTF(4, 5);

/* Number of online processors (>= 1). */
GCUT_HIDDEN int32_t gcut_i_num_cpus(void);

/* Back-end settings, "key=value,key=value" (params.c). `who` names the
 * back end in messages. gcut_i_param_next returns 1 with *out filled, 0 at
 * the end, -1 after recording GCUT_ERR_INVALID for malformed text. */
typedef gcut_param gcut_i_param;
GCUT_HIDDEN int gcut_i_param_next(const char **cursor, const char *who, gcut_i_param *out);
GCUT_HIDDEN gcut_status gcut_i_param_int(const gcut_i_param *p, const char *who, int64_t lo,
                                         int64_t hi, int64_t *out);
GCUT_HIDDEN gcut_status gcut_i_param_double(const gcut_i_param *p, const char *who, double lo,
                                            double *out);
/* Fail for a key the back end does not know; `known` lists those it does. */
GCUT_HIDDEN gcut_status gcut_i_param_unknown(const gcut_i_param *p, const char *who,
                                             const char *known);
/* For back ends without settings: any key is an error. */
GCUT_HIDDEN gcut_status gcut_i_params_none(const char *params, const char *who);

/* The host services table handed to plugins. */
GCUT_HIDDEN const gcut_host_api *gcut_i_host_api(void);

#endif /* GCUT_CORE_INTERNAL_H */
