/* solve_internal.h - what the files of lib/solve/ share with each other and
 * with grid.c: the registry's internals, the chooser, running a back end,
 * the result object. */
#ifndef GCUT_SOLVE_INTERNAL_H
#define GCUT_SOLVE_INTERNAL_H

#include "core/core_internal.h"

/* ---- registry.c */

/* The function table of back end i (NULL for a missing plugin's stand-in). */
GCUT_HIDDEN const gcut_backend *gcut_i_backend_table(int32_t i);

/* The number of back ends compiled into libgcut; they come first, and are
 * there without loading the plugins (a dlopen of the CUDA plugin costs
 * milliseconds, and a choice that a built-in engine settles never needs it). */
GCUT_HIDDEN int32_t gcut_i_backend_builtin_count(void);

/* For plugin.c, while the registry is being set up: add a plugin's back end,
 * its matchers and extensions, or record why a plugin was not taken (the
 * reason given by the stand-ins). */
GCUT_HIDDEN void gcut_i_registry_add(const gcut_backend *be);
GCUT_HIDDEN void gcut_i_registry_add_matchers(const gcut_plugin_matcher *const *list,
                                              int32_t count);
GCUT_HIDDEN void gcut_i_registry_add_extensions(const gcut_plugin_extension *list, int32_t count);
GCUT_HIDDEN void gcut_i_registry_note(const char *note);

/* The matchers of the loaded plugins, collected once with the registry;
 * *count is 0 when none. */
GCUT_HIDDEN void gcut_i_plugin_matchers(const gcut_plugin_matcher *const **list, int32_t *count);

/* ---- plugin.c */

/* Load the plugins (once, from the registry's set-up). */
GCUT_HIDDEN void gcut_i_plugins_load(void);
/* May path be handed to dlopen (a readable regular file, an ELF shared
 * object of this machine whose size covers its headers)? 1 if so; else 0
 * and why (e.g. "is truncated or corrupt: ..."), to follow "plugin PATH ". */
GCUT_HIDDEN int gcut_i_plugin_check(const char *path, char *why, size_t why_len);

/* ---- choose.c */

/* The graph choice of gcut_backend_choose, with capability bits the back
 * end must have (`need`, e.g. GCUT_BACKEND_FLOWS) and must not have
 * (`avoid`, e.g. GCUT_BACKEND_GPU after a GPU failed); they apply to the
 * automatic choice only. */
GCUT_HIDDEN gcut_status gcut_i_choose_graph(const gcut_graph *g, const char *name, uint32_t need,
                                            uint32_t avoid, int32_t *index, const char **reason);

/* The grid choice: a named back end (the caller's or $GCUT_BACKEND's), or
 * the automatic choice of a grid-native one for a grid of `shape` (NULL: a
 * small one); *index is -1 (and GCUT_OK returned) when there is no
 * grid-native back end to choose, and the caller then chooses for the
 * grid converted to a graph. `avoid`: capability bits the automatic choice
 * must not have (GCUT_BACKEND_GPU after a GPU failed). */
GCUT_HIDDEN gcut_status gcut_i_choose_grid(const char *name, const gcut_i_grid_shape *shape,
                                           uint32_t avoid, int32_t *index, const char **reason);

/* Whether a solve that back end `idx` failed with `st` goes again on the
 * CPU: the back end was the automatic choice (not named by the caller or
 * $GCUT_BACKEND), it is a GPU one, and it failed for lack of device memory
 * or a driver error. Logs the warning through `opt` when so. The one rule
 * of gcut_solve and gcut_grid_solve. */
GCUT_HIDDEN int gcut_i_gpu_fallback(const gcut_solve_options *opt, int32_t idx, gcut_status st,
                                    const char *who);

/* ---- solve.c */

/* Run back end `idx` on g and fill res on success; `reason` is kept in the
 * result, t0 is the start of the call (for total_ms). */
GCUT_HIDDEN gcut_status gcut_i_run_backend(gcut_graph *g, int32_t idx,
                                           const gcut_solve_options *opt, gcut_result *res,
                                           const char *reason, double t0);

/* Copy caller options over the defaults, checking struct_size and threads. */
GCUT_HIDDEN gcut_status gcut_i_options_copy(const gcut_solve_options *in,
                                            gcut_solve_options *out);

/* ---- result.c */

/* A buffer of n bytes for the next cut stored into res: the result's spare
 * (the cut of the solve before last) when it has that size, else a new
 * one; NULL when out of memory. Freed with gcut_i_free or given back
 * through gcut_i_result_store. */
GCUT_HIDDEN uint8_t *gcut_i_result_cut_buffer(gcut_result *res, int32_t n);

/* Move a finished solve into res: takes ownership of cut (n bytes) and of
 * flows (m entries, or NULL). */
GCUT_HIDDEN void gcut_i_result_store(gcut_result *res, int64_t flow, uint8_t *cut, int32_t n,
                                     int32_t *flows, int64_t m, const gcut_stats *stats,
                                     const char *backend, const char *reason);

/* Take the cut out of res (the caller frees it); *n receives its length. */
GCUT_HIDDEN uint8_t *gcut_i_result_take_cut(gcut_result *res, int32_t *n);

#endif
