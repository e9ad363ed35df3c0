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
 *           GCUT_AUTO_GPU_MIN_EDGES edges (GPU_MIN_EDGES_WARM once a GPU
 *           engine has been set up in this process) and one is available;
 *           else the vision engine (AUTO_VISION) for vision-like graphs (at
 *           least a quarter of the nodes carry a terminal link, at most 8
 *           edges per node); else the dense-graph engine (AUTO_DENSE) for
 *           graphs of GCUT_AUTO_DENSE_EDGES_PER_NODE edges per node or more;
 *           else the engine for graphs with hubs (AUTO_HUBS) when at least
 *           8 nodes without terminal links have GCUT_AUTO_HUB_FACTOR times
 *           the average degree (and at least GCUT_AUTO_HUB_MIN_DEGREE); else
 *           the general CPU engine
 *           (AUTO_GENERAL); else the first graph engine available. The
 *           dense and hub rules come from bench/results/auto-cpu-2026-11-27.md
 *           (2-core machine: on dense acyclic graphs cpu-hipr took 4-6x
 *           cpu-hpf's time, on power-law graphs 3-9x cpu-eibfs's).
 *   grids   a grid that holds the warm state of a back end stays with it;
 *           a grid-native GPU engine when the grid is large enough to repay
 *           the device (below); else a grid-native CPU engine (AUTO_VISION
 *           first: no conversion, warm re-solves), then any grid-native
 *           engine, GPU last; without one, the graph choice on the grid
 *           converted to a graph (grid.c).
 *
 * The GPU for grids (bench/run-auto.sh on an H100, docs/backends.md):
 * the first GPU solve of a process pays about 220 ms of device set-up;
 * after it, a fresh grid of 32768 nodes or more solves faster on the GPU
 * than with cpu-bk on every family measured (2D 4/8-connected, 3D 6/26,
 * synthetic and photo energies). Before it, the GPU repays the set-up when
 * the edges, times the solves the caller expects (the labels of a
 * multi-label move), times 8 for energies of real images (photos take
 * cpu-bk about 10x longer than the synthetic vision grids), reach
 * GRID_GPU_COLD_WORK.
 *
 * The thresholds come from bench/results (docs/backends.md). The built-in
 * engines are tried before anything that needs the plugins, so that a
 * choice they settle does not pay for loading the CUDA plugin (about 2 ms
 * on a machine without a GPU).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph_internal.h"
#include "solve/solve_internal.h"

#define REASON_MAX 384

/* Graphs: edges from which a GPU engine is chosen once the device is set
 * up in this process (rlg 196K edges: cuda-csr 53 ms, cpu-hipr 124 ms;
 * genrmf 95K: 70 against 65). */
#define GPU_MIN_EDGES_WARM 262144
/* Grids: nodes from which the GPU wins once the device is set up. */
#define GRID_GPU_MIN_NODES 32768
/* Grids: edges x solves x (8 if hard) from which the GPU repays its set-up. */
#define GRID_GPU_COLD_WORK 4000000
/* The work factor of energies of real images. */
#define GRID_HARD_FACTOR 8

static _Atomic int g_device_used;

int gcut_i_device_used(void)
{
    return atomic_load_explicit(&g_device_used, memory_order_relaxed);
}

void gcut_i_note_device_used(void)
{
    atomic_store_explicit(&g_device_used, 1, memory_order_relaxed);
}

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

/* Whether g has hubs (GCUT_BACKEND_AUTO_HUBS): at least AUTO_HUB_COUNT
 * nodes without terminal links whose degree (in + out edges) is at least
 * GCUT_AUTO_HUB_FACTOR times the average and GCUT_AUTO_HUB_MIN_DEGREE, so
 * that a super source or sink given as a node with many edges is not
 * taken for a hub. One pass over the edges and one over the nodes; 0 when
 * the counts cannot be had (no memory: the choice then goes on as for a
 * graph without hubs). *top: the largest such degree. */
#define AUTO_HUB_COUNT 8
static int has_hubs(const gcut_graph *g, int64_t *top)
{
    *top = 0;
    if (!g || g->n <= 0 || g->m <= 0)
        return 0;
    const double avg = 2.0 * (double)g->m / g->n;
    const double at_least = avg * GCUT_AUTO_HUB_FACTOR > GCUT_AUTO_HUB_MIN_DEGREE
                                ? avg * GCUT_AUTO_HUB_FACTOR
                                : GCUT_AUTO_HUB_MIN_DEGREE;
    if ((double)g->m < at_least * AUTO_HUB_COUNT / 2)
        return 0; /* too few edges for that many hubs */
    int32_t *deg = calloc((size_t)g->n, sizeof *deg);
    if (!deg)
        return 0;
    for (int64_t e = 0; e < g->m; e++) {
        deg[g->eu[e]]++;
        deg[g->ev[e]]++;
    }
    int64_t hubs = 0;
    for (int32_t v = 0; v < g->n; v++) {
        if ((double)deg[v] < at_least || (g->cap_source[v] | g->cap_sink[v]) != 0)
            continue;
        hubs++;
        if (deg[v] > *top)
            *top = deg[v];
    }
    free(deg);
    return hubs >= AUTO_HUB_COUNT;
}

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
    int64_t hub = 0;
    const int device = gcut_i_device_used();
    if (m >= (device ? GPU_MIN_EDGES_WARM : GCUT_AUTO_GPU_MIN_EDGES) &&
        (pick = first(0, gcut_backend_count(), graph | GCUT_BACKEND_AUTO_LARGE, avoid, 0)) >= 0) {
        snprintf(tl_reason, sizeof tl_reason,
                 "auto: %s (a GPU is present and the graph is large: %lld edges, at least %d%s)",
                 gcut_backend_name(pick), (long long)m,
                 device ? GPU_MIN_EDGES_WARM : GCUT_AUTO_GPU_MIN_EDGES,
                 device ? " with the device already set up" : "");
    } else if (n > 0 && terminals * 4 >= n && m <= 8 * (int64_t)n &&
               (pick = first_any(graph | GCUT_BACKEND_AUTO_VISION, avoid, 0)) >= 0) {
        snprintf(tl_reason, sizeof tl_reason,
                 "auto: %s (vision-like graph: %lld of %d nodes have terminal links, "
                 "%.1f edges per node)",
                 gcut_backend_name(pick), (long long)terminals, (int)n,
                 n ? (double)m / n : 0.0);
    } else if (n > 0 && m >= (int64_t)GCUT_AUTO_DENSE_EDGES_PER_NODE * n &&
               (pick = first_any(graph | GCUT_BACKEND_AUTO_DENSE, avoid, 0)) >= 0) {
        snprintf(tl_reason, sizeof tl_reason,
                 "auto: %s (dense graph: %d nodes, %.1f edges per node)", gcut_backend_name(pick),
                 (int)n, (double)m / n);
    } else if (has_hubs(g, &hub) &&
               (pick = first_any(graph | GCUT_BACKEND_AUTO_HUBS, avoid, 0)) >= 0) {
        snprintf(tl_reason, sizeof tl_reason,
                 "auto: %s (graph with hubs: %d nodes, %lld edges, a node of degree %lld, "
                 "%.1f on average)",
                 gcut_backend_name(pick), (int)n, (long long)m, (long long)hub,
                 2.0 * (double)m / n);
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

/* Whether a grid of `shape` repays a GPU (see the top of the file); *why
 * says why in words. */
static int grid_wants_gpu(const gcut_i_grid_shape *shape, char *why, size_t len)
{
    if (!shape || shape->nodes < GRID_GPU_MIN_NODES)
        return 0;
    const int64_t edges = shape->nodes * (shape->connectivity > 0 ? shape->connectivity : 4) / 2;
    const int64_t solves = shape->solves > 1 ? shape->solves : 1;
    const double work = (double)edges * (double)solves * (shape->hard ? GRID_HARD_FACTOR : 1);
    if (gcut_i_device_used()) {
        snprintf(why, len, "%lld nodes, the device already set up", (long long)shape->nodes);
        return 1;
    }
    if (work >= GRID_GPU_COLD_WORK) {
        snprintf(why, len, "%lld nodes, %lld edges%s%s: repays the device set-up",
                 (long long)shape->nodes, (long long)edges,
                 solves > 1 ? " x solves" : "", shape->hard ? ", image energies" : "");
        return 1;
    }
    return 0;
}

gcut_status gcut_i_choose_grid(const char *name, const gcut_i_grid_shape *shape, uint32_t avoid,
                               int32_t *index, const char **reason)
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
    char gpu_why[200];
    int32_t pick = -1;
    if (shape && shape->warm) {
        if (gcut_backend_find(shape->warm, &pick) == GCUT_OK &&
            !(gcut_backend_caps(pick) & avoid)) {
            *index = pick;
            snprintf(tl_reason, sizeof tl_reason, "auto: %s (it holds the grid's warm state)",
                     shape->warm);
            if (reason)
                *reason = tl_reason;
            return GCUT_OK;
        }
        gcut_clear_error();
        pick = -1;
    }
    if (!(avoid & GCUT_BACKEND_GPU) && grid_wants_gpu(shape, gpu_why, sizeof gpu_why) &&
        (pick = first(0, gcut_backend_count(), grid | GCUT_BACKEND_GPU, avoid, 1)) >= 0) {
        *index = pick;
        snprintf(tl_reason, sizeof tl_reason, "auto: %s (grid-native GPU back end: %s)",
                 gcut_backend_name(pick), gpu_why);
        if (reason)
            *reason = tl_reason;
        return GCUT_OK;
    }
    const uint32_t cpu_avoid = avoid | GCUT_BACKEND_GPU;
    pick = first(0, gcut_i_backend_builtin_count(), grid | GCUT_BACKEND_AUTO_VISION, cpu_avoid, 1);
    if (pick < 0)
        pick = first(0, gcut_i_backend_builtin_count(), grid, cpu_avoid, 1);
    if (pick < 0)
        pick = first(0, gcut_backend_count(), grid, cpu_avoid, 1);
    if (pick < 0)
        pick = first(0, gcut_backend_count(), grid, avoid, 1);
    *index = pick;
    if (pick >= 0) {
        const int gpu = (gcut_backend_caps(pick) & GCUT_BACKEND_GPU) != 0;
        if (gpu || !shape || shape->nodes < GRID_GPU_MIN_NODES)
            snprintf(tl_reason, sizeof tl_reason, "auto: %s (grid-native%s back end%s)",
                     gcut_backend_name(pick), gpu ? " GPU" : " CPU",
                     !gpu && shape ? ": a small grid" : "");
        else
            snprintf(tl_reason, sizeof tl_reason,
                     "auto: %s (grid-native CPU back end: %lld nodes do not repay a GPU's "
                     "set-up%s)",
                     gcut_backend_name(pick), (long long)shape->nodes,
                     (avoid & GCUT_BACKEND_GPU) ? "; the GPU failed" : "");
        if (reason)
            *reason = tl_reason;
    }
    return GCUT_OK;
}

int gcut_i_gpu_fallback(const gcut_solve_options *opt, int32_t idx, gcut_status st,
                        const char *who)
{
    const char *why;
    if (st == GCUT_OK || (st != GCUT_ERR_DEVICE_NOMEM && st != GCUT_ERR_DEVICE) ||
        !(gcut_backend_caps(idx) & GCUT_BACKEND_GPU) || named(opt->backend, &why))
        return 0;
    gcut_i_log(opt, GCUT_LOG_WARN, "%s: %s failed (%s); falling back to the CPU", who,
               gcut_backend_name(idx), gcut_last_error());
    return 1;
}

const char *gcut_i_grid_backend_name(const char *name, const gcut_i_grid_shape *shape)
{
    int32_t index = -1;
    if (gcut_i_choose_grid(name, shape, 0, &index, NULL) != GCUT_OK) {
        gcut_clear_error(); /* the solve reports it */
        return NULL;
    }
    return index >= 0 ? gcut_backend_name(index) : NULL;
}
