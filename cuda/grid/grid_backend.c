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
 *   sweeps=N    push-relabel sweeps inside a tile per launch (1..4096, default 32)
 *   launches=N  push launches between global relabels (1..100000), or
 *               "auto" (default: adapted to what a global relabel costs)
 *   warm=0|1    1 (default): reuse the kept state when the grid allows
 *   pin=0|1     1 (default): register (page-lock) the grid's host arrays
 *               once, for uploads about three times faster
 *   coop=0|1    1 (default): a global relabel is one cooperative launch
 *               with grid barriers (where the device allows), else
 *               launches checked by the host in batches
 */
#include <string.h>

#include "grid/grid_internal.h"
#include "params.h"

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

gcut_status gcut_cu_grid_parse_params(const char *params, gcut_cu_grid_params *prm)
{
    prm->sweeps = 32;
    prm->launches = 0;
    prm->warm = 1;
    prm->pin = 1;
    prm->coop = 1;
    const char *cur = params;
    gcut_cu_param it;
    int r;
    while ((r = gcut_cu_param_next(&cur, &it)) != 0) {
        if (r < 0)
            return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: parameter '%.*s' has no value",
                                (int)it.key_len, it.key);
        int64_t iv = 0;
        int bad = 0;
        if (gcut_cu_param_is(&it, "sweeps")) {
            bad = gcut_cu_param_int(&it, 1, 4096, &iv) != 0;
            prm->sweeps = (int32_t)iv;
        } else if (gcut_cu_param_is(&it, "launches")) {
            if (gcut_cu_param_value_is(&it, "auto"))
                prm->launches = 0;
            else {
                bad = gcut_cu_param_int(&it, 1, 100000, &iv) != 0;
                prm->launches = (int32_t)iv;
            }
        } else if (gcut_cu_param_is(&it, "warm")) {
            bad = gcut_cu_param_int(&it, 0, 1, &iv) != 0;
            prm->warm = (int32_t)iv;
        } else if (gcut_cu_param_is(&it, "coop")) {
            bad = gcut_cu_param_int(&it, 0, 1, &iv) != 0;
            prm->coop = (int32_t)iv;
        } else if (gcut_cu_param_is(&it, "pin")) {
            bad = gcut_cu_param_int(&it, 0, 1, &iv) != 0;
            prm->pin = (int32_t)iv;
        } else {
            return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                                "cuda-grid: unknown parameter '%.*s' (known: sweeps, launches, "
                                "warm, pin, coop)",
                                (int)it.key_len, it.key);
        }
        if (bad)
            return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: bad value '%.*s' for '%.*s'",
                                (int)it.value_len, it.value, (int)it.key_len, it.key);
    }
    return GCUT_OK;
}

static gcut_status grid_solve_grid(void *state, const gcut_grid_problem *p,
                                   const gcut_solve_options *opt, gcut_solution *sol)
{
    if (!state || !p || !opt || !sol || !sol->cut || !sol->stats)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: missing state, problem or solution");
    gcut_cu_grid_params prm;
    gcut_status st = gcut_cu_grid_parse_params(opt->params, &prm);
    if (st != GCUT_OK)
        return st;
    return gcut_cu_grid_solve(state, p, opt, &prm, sol);
}

const gcut_backend gcut_cu_backend_grid = GCUT_BACKEND_ASSIGN(
    "cuda-grid",
    "GPU push-relabel on grids (shared-memory tiles, GPU global relabel, warm re-solve)",
    GCUT_BACKEND_GRID | GCUT_BACKEND_GPU, grid_probe, grid_create, NULL, grid_solve_grid,
    grid_destroy);

const gcut_mrf_plugin gcut_cu_mrf_grid = {GCUT_BACKEND_ABI_VERSION, "cuda-grid",
                                          gcut_cu_grid_mrf_expand, gcut_cu_grid_mrf_swap};
