/*
 * gcut/common.h - status codes, errors, allocator and log hooks.
 *
 * Every fallible gcut call returns a gcut_status (GCUT_OK = 0). On failure
 * the details (what failed, on which input, at which line of a file) are kept
 * in storage local to the calling thread and read with gcut_last_error().
 * On failure, outputs and the caller's data are left unchanged.
 *
 * The library never prints and never exits: diagnostics go through the log
 * callback installed with gcut_set_log_callback() (or the one in
 * gcut_solve_options for a single call).
 */
#ifndef GCUT_COMMON_H
#define GCUT_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "gcut/export.h"

#ifdef __cplusplus
#define GCUT_BEGIN_C_DECLS extern "C" {
#define GCUT_END_C_DECLS }
#else
#define GCUT_BEGIN_C_DECLS
#define GCUT_END_C_DECLS
#endif

/* New APIs start experimental: using one raises a compiler warning unless
 * GCUT_ALLOW_EXPERIMENTAL is defined. */
#if defined(GCUT_ALLOW_EXPERIMENTAL) || defined(GCUT_BUILDING_LIBRARY)
#define GCUT_EXPERIMENTAL
#elif defined(__GNUC__) || defined(__clang__)
#define GCUT_EXPERIMENTAL \
    __attribute__((deprecated("experimental gcut API: define GCUT_ALLOW_EXPERIMENTAL")))
#else
#define GCUT_EXPERIMENTAL
#endif

GCUT_BEGIN_C_DECLS

/** \brief Status of a fallible call. Codes are never renumbered. */
typedef enum gcut_status {
    GCUT_OK = 0,                /**< success */
    GCUT_ERR_NOMEM = 1,         /**< host memory exhausted */
    GCUT_ERR_INVALID = 2,       /**< invalid argument (NULL, out of range, negative capacity ...) */
    GCUT_ERR_PARSE = 3,         /**< malformed input file (the message names the line) */
    GCUT_ERR_IO = 4,            /**< a file could not be opened, read or written */
    GCUT_ERR_OVERFLOW = 5,      /**< a size or a capacity sum does not fit its type */
    GCUT_ERR_UNAVAILABLE = 6,   /**< the back end exists but cannot run here (no device ...) */
    GCUT_ERR_NOT_FOUND = 7,     /**< no back end of that name */
    GCUT_ERR_STATE = 8,         /**< call not valid in the object's current state */
    GCUT_ERR_TIMEOUT = 9,       /**< the time limit of the solve was reached */
    GCUT_ERR_DEVICE = 10,       /**< a GPU call failed */
    GCUT_ERR_DEVICE_NOMEM = 11, /**< GPU memory exhausted (or too little for this problem) */
    GCUT_ERR_UNSUPPORTED = 12,  /**< the back end cannot solve this kind of problem */
    GCUT_ERR_CHECK = 13,        /**< gcut_check_flow found the flow or cut invalid */
    GCUT_ERR_INTERNAL = 14,     /**< a bug in gcut: please report it */
    GCUT_ERR_INTERRUPTED = 15   /**< the caller's progress callback asked to stop (since 0.3) */
} gcut_status;

/** \brief A short constant name for a status ("invalid argument" ...).
 *  \threadsafety Safe from any thread. */
GCUT_EXPORT const char *gcut_status_string(gcut_status status);

/** \brief Message of the last failure on this thread ("" if none).
 *
 *  The message names the function, the input and, for files, the line, e.g.
 *  `gcut_graph_read_dimacs: grid.max:12: arc 7 -> 99: node id out of range [1, 50]`.
 *  \threadsafety Thread-local: each thread sees its own last error. */
GCUT_EXPORT const char *gcut_last_error(void);

/** \brief Status of the last failure on this thread (GCUT_OK if none). */
GCUT_EXPORT gcut_status gcut_last_status(void);

/** \brief Forget the last error of this thread. */
GCUT_EXPORT void gcut_clear_error(void);

/** \brief Set the process-wide host memory budget in bytes (0: none beyond the
 *  machine's RAM + swap, the default). Since 0.3.
 *
 *  Every large host allocation gcut makes goes through one checked path: an
 *  allocation that alone would pass the budget, or a graph, layout, image
 *  or engine state whose arrays together would pass it, fails with
 *  GCUT_ERR_NOMEM naming what was asked for and how much. Readers of files,
 *  pipes and devices stop an endless input with that error too. A call's
 *  gcut_solve_options.max_memory, when non-zero, replaces it for that call.
 *  \threadsafety Safe from any thread (an atomic store); calls already
 *  running may see the old value. */
GCUT_EXPORT void gcut_set_max_memory(size_t bytes);

/** \brief The process-wide host memory budget (0: none set). */
GCUT_EXPORT size_t gcut_max_memory(void);

/** \brief Log levels passed to a log callback. */
typedef enum gcut_log_level {
    GCUT_LOG_ERROR = 0,
    GCUT_LOG_WARN = 1,
    GCUT_LOG_INFO = 2,
    GCUT_LOG_DEBUG = 3
} gcut_log_level;

/** \brief A log sink: receives one complete line (no trailing newline). */
typedef void (*gcut_log_fn)(void *user, gcut_log_level level, const char *message);

/** \brief Install the process-wide log sink (NULL: discard). Per-call sinks in
 *  gcut_solve_options take precedence.
 *  \threadsafety Call once at start-up, before other threads use gcut. */
GCUT_EXPORT void gcut_set_log_callback(gcut_log_fn fn, void *user);

/** \brief Replace the allocator used for everything gcut allocates on the host.
 *
 *  Must be called before any other gcut call allocates; later calls fail with
 *  GCUT_ERR_STATE. All three functions must be given.
 *  \threadsafety Not thread-safe; call once at start-up. */
GCUT_EXPORT gcut_status gcut_set_allocator(void *(*malloc_fn)(size_t),
                                           void *(*realloc_fn)(void *, size_t),
                                           void (*free_fn)(void *));

GCUT_END_C_DECLS

#endif /* GCUT_COMMON_H */
