/* backend_internal.h - registry internals shared with solve.c. */
#ifndef GCUT_BACKEND_INTERNAL_H
#define GCUT_BACKEND_INTERNAL_H

#include "core/core_internal.h"

/* The function table of back end i (NULL for a missing plugin's stand-in). */
GCUT_HIDDEN const gcut_backend *gcut_i_backend_table(int32_t i);

/* The back ends compiled into libgcut, without loading the plugins (a
 * dlopen of the CUDA plugin costs milliseconds, and an automatic choice
 * that a built-in engine settles never needs it): their number, then
 * back end i's table if i is below it and the back end is available, else
 * NULL. Their indices are those of the full registry. */
GCUT_HIDDEN int32_t gcut_i_backend_builtin_count(void);
GCUT_HIDDEN const gcut_backend *gcut_i_backend_builtin(int32_t i);

/* Run back end `idx` on g and fill res on success (solve.c); `reason` is kept
 * in the result, t0 is the start of the call (for total_ms). */
GCUT_HIDDEN gcut_status gcut_i_run_backend(gcut_graph *g, int32_t idx,
                                           const gcut_solve_options *opt, gcut_result *res,
                                           const char *reason, double t0);

/* The matchers of the loaded plugins (their optional gcut_plugin_matchers
 * symbol), collected once with the registry; *count is 0 when none. */
GCUT_HIDDEN void gcut_i_plugin_matchers(const gcut_plugin_matcher *const **list, int32_t *count);

/* Copy caller options over the defaults, checking struct_size and threads. */
GCUT_HIDDEN gcut_status gcut_i_options_copy(const gcut_solve_options *in,
                                            gcut_solve_options *out);

/* A buffer of n bytes for the next cut stored into res: the result's spare
 * (the cut of the solve before last) when it has that size, else a new
 * one; NULL when out of memory. Freed with gcut_i_free or given back
 * through gcut_i_result_store. */
GCUT_HIDDEN uint8_t *gcut_i_result_cut_buffer(gcut_result *res, int32_t n);

/* Move a finished solve into res: takes ownership of cut (n bytes); no flows. */
GCUT_HIDDEN void gcut_i_result_store(gcut_result *res, int64_t flow, uint8_t *cut, int32_t n,
                                     const gcut_stats *stats, const char *backend,
                                     const char *reason);

#endif
