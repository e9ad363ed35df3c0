/*
 * grid_backend.c - the cuda-grid back-end table: probe, state, settings.
 *
 * cuda-grid solves gcut_grid problems natively (GCUT_BACKEND_GRID): the
 * lattice's residuals live on the device as one dense array per
 * direction, and the state kept between solves makes re-solves after a
 * few changed capacities warm (grid_launch.cu explains the engine).
 * General graphs are not its business: solve_graph is NULL, so
 * gcut_solve never picks it and names it unsupported if asked.
 *
 * Settings (opt->params):
 *   sweeps=N    push-relabel sweeps inside a tile per launch (1..4096; default
 *               8 for cold solves and re-solves after many t-link changes,
 *               32 for re-solves after a few changes and for regions)
 *   launches=N  push launches between global relabels (1..100000), or
 *               "auto" (default: adapted to what a global relabel costs)
 *   warm=0|1    1 (default): reuse the kept state when the grid allows
 *   dense=0|1   1 (default): a re-solve after changes to more terminal
 *               capacities than a sixteenth of the nodes (a GrabCut
 *               iteration, re-learnt colour models) is warm too, its
 *               changes uploaded as one net delta per node and terminal;
 *               0: such a re-solve starts cold
 *   pin=0|1     1 (default): register (page-lock) the grid's host arrays
 *               once, for uploads about three times faster
 *   coop=0|1    1 (default): a global relabel is one cooperative launch
 *               with grid barriers (where the device allows), else
 *               launches checked by the host in batches
 *   reuse=0|1   device multi-label moves (cuda/vision/mrf_launch.cu): 1
 *               (default) keeps each label's move graph for the next
 *               cycle's move on it when the memory allows; 0 makes every
 *               move cold
 *   devices=0:1:...  the grid spread over these GPUs of the node, a slab
 *               of tiles each (grid_span.cu, docs/grid.md "Several GPUs");
 *               a device listed twice holds two parts (a test of the
 *               machinery on one GPU); every solve cold
 */
#include <stdlib.h>
#include <string.h>

#include "grid/grid_internal.h"
#include "grid/grid_tuning.h"

static gcut_status grid_probe(const char **reason)
{
    gcut_status st = gcut_cu_probe_device(reason);
    if (st != GCUT_OK)
        return st;
    return gcut_cu_grid_probe_image(reason);
}

static gcut_status grid_create(void **state)
{
    gcut_cu_grid_state *s;
    gcut_status st = gcut_cu_grid_state_new(&s);
    if (st == GCUT_OK)
        *state = s;
    return st;
}

static void grid_destroy(void *state) { gcut_cu_grid_state_free(state); }

void gcut_cu_grid_params_default(gcut_cu_grid_params *prm)
{
    prm->sweeps = GCUT_CU_GRID_SWEEPS;
    prm->sweeps_given = 0;
    prm->launches = 0;
    prm->warm = 1;
    prm->pin = 1;
    prm->coop = 1;
    prm->reuse = 1;
    prm->dense = 1;
    prm->ndevices = 0;
}

/* "0:1:2:3" into prm->devices. */
static gcut_status parse_devices(const char *value, gcut_cu_grid_params *prm)
{
    const char *q = value;
    int n = 0;
    while (*q) {
        char *end = NULL;
        const long d = strtol(q, &end, 10);
        if (end == q || d < 0 || d > 1023 || (*end && *end != ':'))
            return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                                "cuda-grid: devices=%s: a list of CUDA device numbers, e.g. "
                                "devices=0:1:2:3",
                                value);
        if (n == GCUT_CU_GRID_MAX_DEVICES)
            return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: devices=%s: more than %d parts",
                                value, GCUT_CU_GRID_MAX_DEVICES);
        prm->devices[n++] = (int32_t)d;
        q = *end ? end + 1 : end;
    }
    if (n == 0)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                            "cuda-grid: devices=%s: a list of CUDA device numbers, e.g. "
                            "devices=0:1:2:3",
                            value);
    prm->ndevices = n;
    return GCUT_OK;
}

/* The core's settings parser (gcut_host_api), so that every back end
 * accepts the same syntax and rejects mistakes with the same messages. */
gcut_status gcut_cu_grid_params_apply(const char *params, gcut_cu_grid_params *prm)
{
    static const char *const who = "cuda-grid";
    const gcut_host_api *h = gcut_cu_host;
    gcut_param it;
    int r;
    while ((r = h->param_next(&params, who, &it)) > 0) {
        int64_t iv = 0;
        gcut_status st;
        int32_t *field = NULL;
        if (strcmp(it.key, "sweeps") == 0) {
            st = h->param_int(&it, who, 1, 4096, &iv);
            field = &prm->sweeps;
            prm->sweeps_given = 1;
        } else if (strcmp(it.key, "launches") == 0) {
            st = strcmp(it.value, "auto") == 0 ? GCUT_OK : h->param_int(&it, who, 1, 100000, &iv);
            field = &prm->launches; /* auto: 0 */
        } else if (strcmp(it.key, "warm") == 0 || strcmp(it.key, "coop") == 0 ||
                   strcmp(it.key, "pin") == 0 || strcmp(it.key, "reuse") == 0 ||
                   strcmp(it.key, "dense") == 0) {
            st = h->param_int(&it, who, 0, 1, &iv);
            field = it.key[0] == 'w' ? &prm->warm
                    : it.key[0] == 'c' ? &prm->coop
                    : it.key[0] == 'p' ? &prm->pin
                    : it.key[0] == 'd' ? &prm->dense
                                       : &prm->reuse;
        } else if (strcmp(it.key, "devices") == 0) {
            st = parse_devices(it.value, prm);
            if (st != GCUT_OK)
                return st;
            continue;
        } else {
            return h->param_unknown(&it, who, "sweeps, launches, warm, dense, pin, coop, reuse, devices");
        }
        if (st != GCUT_OK)
            return st;
        *field = (int32_t)iv;
    }
    return r < 0 ? GCUT_ERR_INVALID : GCUT_OK;
}

static gcut_status grid_solve_grid(void *state, const gcut_grid_problem *p,
                                   const gcut_solve_options *opt, gcut_solution *sol)
{
    if (!state || !p || !opt || !sol || !sol->cut || !sol->stats)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: missing state, problem or solution");
    gcut_cu_grid_params prm;
    gcut_cu_grid_params_default(&prm);
    gcut_status st = gcut_cu_grid_params_apply(opt->params, &prm);
    if (st != GCUT_OK)
        return st;
    return gcut_cu_grid_solve(state, p, opt, &prm, sol);
}

const gcut_backend gcut_cu_backend_grid = GCUT_BACKEND_ASSIGN(
    "cuda-grid",
    "GPU push-relabel on grids (shared-memory tiles, GPU global relabel, warm re-solve)",
    GCUT_BACKEND_GRID | GCUT_BACKEND_GPU, grid_probe, grid_create, NULL, grid_solve_grid,
    grid_destroy);

const gcut_mrf_plugin gcut_cu_mrf_grid = {GCUT_PLUGIN_ABI_VERSION, "cuda-grid",
                                          gcut_cu_grid_mrf_expand, gcut_cu_grid_mrf_swap};
