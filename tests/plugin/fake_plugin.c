/*
 * fake_plugin.c - plugins for tests/plugin/plugin_test.c, built three
 * ways (FAKE_KIND):
 *   1  a good plugin of this ABI: two back ends, "fake-graph" (it polls the
 *      call once through host->poll, phase "solve", 7 "fake units" left,
 *      and returns what the poll said, else solves nothing:
 *      GCUT_ERR_UNSUPPORTED) and "fake-gpu-grid" (a GPU grid engine always
 *      out of device memory), and one extension "test.ext";
 *   2  a plugin of the 0.1 ABI (version 2): gcut_plugin_entry(host,
 *      backends, count), which refuses a host of another version without
 *      touching its outputs, as the 0.1 plugins do;
 *   3  a plugin of a future ABI (GCUT_PLUGIN_ABI_VERSION + 1) with the new entry.
 * Each records that its entry ran in $GCUT_FAKE_PLUGIN_ENTERED, so that a
 * test can see whether the core loaded it.
 */
#include <stdlib.h>

#include "gcut/plugin.h"

#define EXPORT __attribute__((visibility("default")))

#if FAKE_KIND == 2
EXPORT gcut_status gcut_plugin_entry(const gcut_host_api *host, const void ***backends,
                                     int32_t *count);
gcut_status gcut_plugin_entry(const gcut_host_api *host, const void ***backends, int32_t *count)
{
    setenv("GCUT_FAKE_PLUGIN_ENTERED", "2", 1);
    if (!host || !backends || !count || host->abi_version != 2)
        return GCUT_ERR_INVALID;
    return GCUT_ERR_INVALID; /* never reached with a core of this ABI */
}
#else
static const gcut_host_api *g_host;

static gcut_status fake_probe(const char **reason)
{
    *reason = "ok";
    return GCUT_OK;
}

static gcut_status fake_solve(void *state, const gcut_problem *p, const gcut_solve_options *opt,
                              gcut_solution *sol)
{
    (void)state;
    (void)p;
    (void)sol;
    const gcut_status st = g_host->poll(opt, "solve", 7, "fake units");
    return st != GCUT_OK ? st : GCUT_ERR_UNSUPPORTED;
}

static const gcut_backend fake_backend = GCUT_BACKEND_ASSIGN(
    "fake-graph", "a back end of the test plugin", GCUT_BACKEND_GRAPH, fake_probe, NULL,
    fake_solve, NULL, NULL);
/* A GPU grid engine whose device is always too small: "auto" picks it for
 * large grids (lib/solve/choose.c) and must fall back to the CPU. */
static gcut_status fake_solve_grid(void *state, const gcut_grid_problem *p,
                                   const gcut_solve_options *opt, gcut_solution *sol)
{
    (void)state, (void)p, (void)opt, (void)sol;
    return GCUT_ERR_DEVICE_NOMEM;
}

static const gcut_backend fake_gpu_grid = GCUT_BACKEND_ASSIGN(
    "fake-gpu-grid", "a GPU grid back end of the test plugin, out of device memory",
    GCUT_BACKEND_GRID | GCUT_BACKEND_GPU, fake_probe, NULL, NULL, fake_solve_grid, NULL);
/* A back end that lays graphs out itself (GCUT_BACKEND_LAYS_OUT): its
 * "flow" says whether the core passed a layout (1) or the edges alone (0). */
static gcut_status fake_lays_out_solve(void *state, const gcut_problem *p,
                                       const gcut_solve_options *opt, gcut_solution *sol)
{
    (void)state, (void)opt;
    if (p->num_edges > 0 && (!p->edge_u || !p->edge_v || !p->edge_cap || !p->edge_rev_cap))
        return GCUT_ERR_INTERNAL;
    if (p->rcsr && (p->rcsr->n != p->num_nodes || !p->rcsr->row))
        return GCUT_ERR_INTERNAL;
    for (int32_t v = 0; v < p->num_nodes; v++)
        sol->cut[v] = 0;
    sol->flow = p->rcsr ? 1 : 0;
    return GCUT_OK;
}

static const gcut_backend fake_lays_out = GCUT_BACKEND_ASSIGN(
    "fake-lays-out", "a back end of the test plugin that lays graphs out itself",
    GCUT_BACKEND_GRAPH | GCUT_BACKEND_NEEDS_RCSR | GCUT_BACKEND_LAYS_OUT, fake_probe, NULL,
    fake_lays_out_solve, NULL, NULL);
static const gcut_backend *const backends[] = {&fake_backend, &fake_gpu_grid, &fake_lays_out};
static const int fake_table = 42;
static const gcut_plugin_extension extensions[] = {{"test.ext", 1, "fake-graph", &fake_table}};

static const gcut_plugin_descriptor descriptor = {
#if FAKE_KIND == 3
    GCUT_PLUGIN_ABI_VERSION + 1,
#else
    GCUT_PLUGIN_ABI_VERSION,
#endif
    "fake", backends, 3, NULL, 0, extensions, 1,
};

EXPORT gcut_status gcut_plugin_entry(const gcut_host_api *host, const gcut_plugin_descriptor **out);
gcut_status gcut_plugin_entry(const gcut_host_api *host, const gcut_plugin_descriptor **out)
{
    setenv("GCUT_FAKE_PLUGIN_ENTERED", "1", 1);
    g_host = host;
    *out = &descriptor;
    return host->abi_version == descriptor.abi_version ? GCUT_OK : GCUT_ERR_UNSUPPORTED;
}
#endif
