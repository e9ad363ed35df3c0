/*
 * choose.c - the one back-end chooser (docs/design.md section 3,
 * docs/backends.md "auto").
 *
 * Every solve (graphs, grids, and through them the vision layer) asks here
 * which back end to use. A name given by the caller wins; for "auto" (or
 * NULL), $GCUT_BACKEND, read once per process, names one when set; otherwise
 * the choice goes by what the problem is and how large, and by the back
 * ends' capability bits (the GCUT_BACKEND_AUTO_* preferences come from the
 * registry's table), never by their names:
 *
 *   graphs  a GPU engine (AUTO_LARGE) once the graph has
 *           GCUT_AUTO_GPU_MIN_EDGES edges and one is available; else the
 *           vision engine (AUTO_VISION) for vision-like graphs (at least a
 *           quarter of the nodes carry a terminal link, at most 8 edges per
 *           node); else the general CPU engine (AUTO_GENERAL); else the
 *           first graph engine available.
 *   grids   a grid-native CPU engine (AUTO_VISION first: no conversion, warm
 *           re-solves), then any grid-native engine, GPU last; without one,
 *           the graph choice on the grid converted to a graph (grid.c).
 *
 * The thresholds come from bench/results (docs/backends.md). The built-in
 * engines are tried before anything that needs the plugins, so that a
 * choice they settle does not pay for loading the CUDA plugin (about 2 ms
 * on a machine without a GPU).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph_internal.h"
#include "solve/solve_internal.h"

#define REASON_MAX 384

static pthread_once_t g_env_once = PTHREAD_ONCE_INIT;
static char g_env_backend[64]; /* $GCUT_BACKEND, "" when unset or "auto" */
static int g_env_too_long;

static void env_read(void)
{
    const char *env = getenv("GCUT_BACKEND");
    if (!env || !*env || strcmp(env, "auto") == 0)
        return;
    if (strlen(env) >= sizeof g_env_backend) {
        g_env_too_long = 1;
        return;
    }
    snprintf(g_env_backend, sizeof g_env_backend, "%s", env);
}

/* The back end named for a call: the caller's name, else $GCUT_BACKEND;
 * NULL when the choice is automatic. *why says who named it. */
static const char *named(const char *name, const char **why)
{
    if (name && *name && strcmp(name, "auto") != 0) {
        *why = "named by the caller";
        return name;
    }
    pthread_once(&g_env_once, env_read);
    if (g_env_too_long) {
        *why = "named by $GCUT_BACKEND";
        return "(a $GCUT_BACKEND value of 64 characters or more)";
    }
    if (g_env_backend[0]) {
        *why = "named by $GCUT_BACKEND";
        return g_env_backend;
    }
    return NULL;
}

/* A named back end: it must exist and be able to run here. */
static gcut_status choose_named(const char *name, int32_t *index)
{
    int32_t i;
    gcut_status st = gcut_backend_find(name, &i);
    if (st != GCUT_OK)
        return st;
    const char *why;
    if (!gcut_backend_available(i, &why))
        return gcut_i_fail(GCUT_ERR_UNAVAILABLE, "gcut_backend_choose",
                           "back end '%s' is unavailable: %s", name, why);
    *index = i;
    return GCUT_OK;
}

/* The first available back end in [from, to) whose caps hold all of `want`
 * and none of `avoid` (nor REFERENCE unless `want` has it), and, when
 * `native_grid` is set, that has solve_grid; -1 if none. */
static int32_t first(int32_t from, int32_t to, uint32_t want, uint32_t avoid, int native_grid)
{
    if (!(want & GCUT_BACKEND_REFERENCE))
        avoid |= GCUT_BACKEND_REFERENCE;
    for (int32_t i = from; i < to; i++) {
        const uint32_t caps = gcut_backend_caps(i);
        if ((caps & want) != want || (caps & avoid))
            continue;
        if (native_grid) {
            const gcut_backend *be = gcut_i_backend_table(i);
            if (!be || !be->solve_grid)
                continue;
        }
        if (gcut_backend_available(i, NULL))
            return i;
    }
    return -1;
}

/* first() over the built-in engines, then (only when they have none) over
 * every back end, plugins included. */
static int32_t first_any(uint32_t want, uint32_t avoid, int native_grid)
{
    int32_t i = first(0, gcut_i_backend_builtin_count(), want, avoid, native_grid);
    return i >= 0 ? i : first(0, gcut_backend_count(), want, avoid, native_grid);
}

static _Thread_local char tl_reason[REASON_MAX];

gcut_status gcut_i_choose_graph(const gcut_graph *g, const char *name, uint32_t need,
                                uint32_t avoid, int32_t *index, const char **reason)
{
    if (!index)
        return GCUT_FAIL(GCUT_ERR_INVALID, "index is NULL");
    const char *why;
    const char *nm = named(name, &why);
    if (nm) {
        gcut_status st = choose_named(nm, index);
        if (st == GCUT_OK && reason)
            *reason = why;
        return st;
    }
    const int32_t n = g ? g->n : 0;
    const int64_t m = g ? g->m : 0;
    int64_t terminals = 0;
    for (int32_t v = 0; v < n; v++)
        terminals += (g->cap_source[v] | g->cap_sink[v]) != 0;
    const uint32_t graph = GCUT_BACKEND_GRAPH | need;
    int32_t pick = -1;
    if (m >= GCUT_AUTO_GPU_MIN_EDGES &&
        (pick = first(0, gcut_backend_count(), graph | GCUT_BACKEND_AUTO_LARGE, avoid, 0)) >= 0) {
        snprintf(tl_reason, sizeof tl_reason,
                 "auto: %s (a GPU is present and the graph is large: %lld edges)",
                 gcut_backend_name(pick), (long long)m);
    } else if (n > 0 && terminals * 4 >= n && m <= 8 * (int64_t)n &&
               (pick = first_any(graph | GCUT_BACKEND_AUTO_VISION, avoid, 0)) >= 0) {
        snprintf(tl_reason, sizeof tl_reason,
                 "auto: %s (vision-like graph: %lld of %d nodes have terminal links, "
                 "%.1f edges per node)",
                 gcut_backend_name(pick), (long long)terminals, (int)n,
                 n ? (double)m / n : 0.0);
    } else if ((pick = first_any(graph | GCUT_BACKEND_AUTO_GENERAL, avoid, 0)) >= 0) {
        snprintf(tl_reason, sizeof tl_reason,
                 "auto: %s (general graph: %d nodes, %lld edges, %lld with terminal links)",
                 gcut_backend_name(pick), (int)n, (long long)m, (long long)terminals);
    } else {
        pick = first_any(graph, avoid, 0);
        if (pick < 0)
            pick = first_any(graph | GCUT_BACKEND_REFERENCE, avoid, 0);
        if (pick < 0)
            return GCUT_FAIL(GCUT_ERR_UNAVAILABLE, "no back end is available%s",
                             need & GCUT_BACKEND_FLOWS ? " that returns flows" : "");
        snprintf(tl_reason, sizeof tl_reason, "auto: %s (the first available)",
                 gcut_backend_name(pick));
    }
    *index = pick;
    if (reason)
        *reason = tl_reason;
    return GCUT_OK;
}

gcut_status gcut_backend_choose(const gcut_graph *g, const char *name, int32_t *index,
                                const char **reason)
{
    GCUT_ENTRY();
    return gcut_i_choose_graph(g, name, 0, 0, index, reason);
}

gcut_status gcut_i_choose_grid(const char *name, int32_t *index, const char **reason)
{
    if (!index)
        return GCUT_FAIL(GCUT_ERR_INVALID, "index is NULL");
    const char *why;
    const char *nm = named(name, &why);
    if (nm) {
        gcut_status st = choose_named(nm, index);
        if (st != GCUT_OK)
            return st;
        const gcut_backend *be = gcut_i_backend_table(*index);
        if (!be || (!be->solve_grid && !be->solve_graph))
            return GCUT_FAIL(GCUT_ERR_UNSUPPORTED, "back end '%s' solves neither grids nor graphs",
                             nm);
        if (reason)
            *reason = why;
        return GCUT_OK;
    }
    const uint32_t grid = GCUT_BACKEND_GRID;
    int32_t pick = first(0, gcut_i_backend_builtin_count(), grid | GCUT_BACKEND_AUTO_VISION,
                         GCUT_BACKEND_GPU, 1);
    if (pick < 0)
        pick = first(0, gcut_i_backend_builtin_count(), grid, GCUT_BACKEND_GPU, 1);
    if (pick < 0)
        pick = first(0, gcut_backend_count(), grid, GCUT_BACKEND_GPU, 1);
    if (pick < 0)
        pick = first(0, gcut_backend_count(), grid, 0, 1);
    *index = pick;
    if (pick >= 0) {
        snprintf(tl_reason, sizeof tl_reason, "auto: %s (grid-native%s back end)",
                 gcut_backend_name(pick),
                 (gcut_backend_caps(pick) & GCUT_BACKEND_GPU) ? " GPU" : " CPU");
        if (reason)
            *reason = tl_reason;
    }
    return GCUT_OK;
}

const char *gcut_i_grid_backend_name(const char *name)
{
    int32_t index = -1;
    if (gcut_i_choose_grid(name, &index, NULL) != GCUT_OK) {
        gcut_clear_error(); /* the solve reports it */
        return NULL;
    }
    return index >= 0 ? gcut_backend_name(index) : NULL;
}
