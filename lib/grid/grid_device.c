/*
 * grid_device.c - grids in device memory (gcut/device.h): the solver
 * object, the checks the core can make without touching device memory, and
 * the call into the back end's "gcut.grid.device" extension (gcut/plugin.h).
 *
 * The core never reads the arrays: the plugin checks where the pointers
 * lead and the values they hold. A solver is bound to one back end and
 * keeps that back end's engine state (device arrays reused between solves
 * of one shape), as a gcut_grid does for its grid-native back end.
 */
#include <stdio.h>
#include <string.h>

#include "solve/solve_internal.h"

struct gcut_device_solver {
    int32_t index;                   /* the back end */
    const gcut_backend *be;
    const gcut_grid_device_ext *ext;
    void *state;                     /* be->create's */
};

/* The extension of back end `name` that solves device grids, or NULL with
 * a failure recorded (NOT_FOUND or UNAVAILABLE, naming why). */
static const gcut_grid_device_ext *find_ext(const char *name, int32_t *index)
{
    if ((gcut_backend_find(name, index)) != GCUT_OK) {
        gcut_clear_error();
        GCUT_FAIL(GCUT_ERR_NOT_FOUND, "no back end named \"%s\" (device grids: cuda-grid)", name);
        return NULL;
    }
    const char *why = NULL;
    if (!gcut_backend_available(*index, &why)) {
        GCUT_FAIL(GCUT_ERR_UNAVAILABLE, "%s is unavailable: %s", name, why ? why : "unknown");
        return NULL;
    }
    const gcut_grid_device_ext *x =
        gcut_i_plugin_extension(GCUT_EXT_GRID_DEVICE, GCUT_EXT_GRID_DEVICE_VERSION, name);
    if (!x || x->abi_version != GCUT_PLUGIN_ABI_VERSION || !x->solve || !x->alloc || !x->free ||
        !x->copy) {
        GCUT_FAIL(GCUT_ERR_NOT_FOUND,
                  "back end %s cannot take arrays in device memory (device grids: cuda-grid)",
                  name);
        return NULL;
    }
    return x;
}

gcut_status gcut_device_solver_new(gcut_device_solver **out, const char *backend)
{
    GCUT_ENTRY();
    if (!out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "out is NULL");
    *out = NULL;
    const char *name = !backend || strcmp(backend, "auto") == 0 ? "cuda-grid" : backend;
    int32_t index = -1;
    const gcut_grid_device_ext *x = find_ext(name, &index);
    if (!x)
        return gcut_last_status();
    gcut_device_solver *s = gcut_i_calloc(1, sizeof *s);
    if (!s)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate a device solver");
    s->index = index;
    s->be = gcut_i_backend_table(index);
    s->ext = x;
    gcut_status st;
    if (s->be->create && (st = s->be->create(&s->state)) != GCUT_OK) {
        gcut_i_free(s);
        return st;
    }
    *out = s;
    return GCUT_OK;
}

void gcut_device_solver_free(gcut_device_solver *s)
{
    if (!s)
        return;
    if (s->be->destroy)
        s->be->destroy(s->state);
    gcut_i_free(s);
}

/* The checks that need no device access. */
static gcut_status check(const gcut_device_grid *dg, int64_t *n)
{
    if (dg->width <= 0 || dg->height <= 0 || dg->depth <= 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "bad shape %dx%dx%d", (int)dg->width,
                         (int)dg->height, (int)dg->depth);
    const int64_t nodes = (int64_t)dg->width * dg->height * dg->depth;
    if (nodes >= INT32_MAX)
        return GCUT_FAIL(GCUT_ERR_OVERFLOW, "%dx%dx%d is %lld nodes, past INT32_MAX - 1",
                         (int)dg->width, (int)dg->height, (int)dg->depth, (long long)nodes);
    const int c = dg->connectivity;
    if (dg->depth == 1 ? (c != 4 && c != 8) : (c != 6 && c != 18 && c != 26))
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "connectivity %d: 4 or 8 for an image (depth 1), 6, 18 or 26 for a "
                         "volume",
                         c);
    if (dg->dtype != GCUT_DTYPE_INT32 && dg->dtype != GCUT_DTYPE_FLOAT32)
        return GCUT_FAIL(GCUT_ERR_INVALID, "dtype %d: GCUT_DTYPE_INT32 or GCUT_DTYPE_FLOAT32",
                         (int)dg->dtype);
    if (dg->caps[0]) {
        if (dg->dtype != GCUT_DTYPE_INT32)
            return GCUT_FAIL(GCUT_ERR_INVALID,
                             "the directed form (caps) takes int32 capacities only");
        for (int d = 0; d < c; d++)
            if (!dg->caps[d])
                return GCUT_FAIL(GCUT_ERR_INVALID, "caps[%d] is NULL (the directed form needs "
                                 "all %d directions)", d, c);
        if (!dg->cap_source || !dg->cap_sink)
            return GCUT_FAIL(GCUT_ERR_INVALID,
                             "cap_source and cap_sink must not be NULL in the directed form");
    } else {
        if (!dg->cost_fg || !dg->cost_bg)
            return GCUT_FAIL(GCUT_ERR_INVALID, "cost_fg and cost_bg must not be NULL");
        if (!(dg->pair_const >= 0.0) || dg->pair_const > (dg->dtype == GCUT_DTYPE_INT32
                                                              ? (double)INT32_MAX
                                                              : 3.4e38))
            return GCUT_FAIL(GCUT_ERR_INVALID, "pair_const %g must be finite and >= 0%s",
                             dg->pair_const,
                             dg->dtype == GCUT_DTYPE_INT32 ? " (at most INT32_MAX)" : "");
        if (dg->dtype == GCUT_DTYPE_INT32 && dg->pair_const != (double)(int32_t)dg->pair_const)
            return GCUT_FAIL(GCUT_ERR_INVALID, "pair_const %g: int32 energies take whole weights",
                             dg->pair_const);
    }
    if (!(dg->scale >= 0.0) || dg->scale > 1e300)
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "scale %g must be 0 (automatic) or a finite positive number", dg->scale);
    if (!dg->cut)
        return GCUT_FAIL(GCUT_ERR_INVALID, "cut must not be NULL (num_nodes bytes of device memory)");
    if (dg->cut_format != GCUT_DEVICE_CUT_LABELS && dg->cut_format != GCUT_DEVICE_CUT_MASK)
        return GCUT_FAIL(GCUT_ERR_INVALID, "cut_format %d: GCUT_DEVICE_CUT_LABELS or _MASK",
                         (int)dg->cut_format);
    *n = nodes;
    return GCUT_OK;
}

static gcut_status solve_in_call(gcut_device_solver *s, const gcut_device_grid *dg,
                                 const gcut_solve_options *opt, gcut_result *res, double t0)
{
    gcut_stats stats;
    memset(&stats, 0, sizeof stats);
    gcut_solution sol = {0, NULL, NULL, &stats};
    int32_t off[3 * 26];
    for (int32_t k = 0; k < dg->connectivity; k++)
        (void)gcut_grid_direction(dg->connectivity, k, &off[3 * k], &off[3 * k + 1],
                                  &off[3 * k + 2]); /* checked connectivity: cannot fail */
    gcut_status st = gcut_i_poll("solve", -1, NULL);
    if (st == GCUT_OK)
        st = s->ext->solve(s->state, dg, off, opt, &sol);
    if (st != GCUT_OK)
        return st;
    gcut_i_note_device_used();
    stats.total_ms = gcut_i_now_ms() - t0;
    gcut_i_result_store(res, sol.flow, NULL, 0, NULL, 0, &stats, s->be->name,
                        "arrays in device memory");
    return GCUT_OK;
}

gcut_status gcut_device_solver_solve(gcut_device_solver *s, const gcut_device_grid *dg,
                                     const gcut_solve_options *opt_in, gcut_result *res)
{
    GCUT_ENTRY();
    const double t0 = gcut_i_now_ms();
    if (!s || !dg || !res)
        return GCUT_FAIL(GCUT_ERR_INVALID, "solver, grid and result must not be NULL");
    gcut_status st;
    int64_t n;
    if ((st = check(dg, &n)) != GCUT_OK)
        return st;
    gcut_solve_options opt;
    if ((st = gcut_i_options_copy(opt_in, &opt)) != GCUT_OK)
        return st;
    if (opt.want_flows)
        return GCUT_FAIL(GCUT_ERR_UNSUPPORTED, "per-edge flows are not offered for grids");
    gcut_i_call call;
    gcut_i_call_begin(&call, "grid", &opt, t0);
    st = solve_in_call(s, dg, &opt, res, t0);
    gcut_i_call_end(&call);
    return st;
}

int gcut_device_available(const char **reason)
{
    GCUT_ENTRY();
    int32_t index;
    const gcut_grid_device_ext *x = find_ext("cuda-grid", &index);
    if (reason)
        *reason = x ? "ok" : "no device grid back end (cuda-grid unavailable or not built)";
    if (!x)
        gcut_clear_error();
    return x != NULL;
}

/* The extension of the first back end that has one (cuda-grid), for the
 * memory helpers. */
static const gcut_grid_device_ext *any_ext(void)
{
    int32_t index;
    return find_ext("cuda-grid", &index);
}

gcut_status gcut_device_alloc(size_t bytes, void **ptr)
{
    GCUT_ENTRY();
    if (!ptr)
        return GCUT_FAIL(GCUT_ERR_INVALID, "ptr is NULL");
    *ptr = NULL;
    const gcut_grid_device_ext *x = any_ext();
    return x ? x->alloc(bytes, ptr) : gcut_last_status();
}

void gcut_device_free(void *ptr)
{
    if (!ptr)
        return;
    const gcut_grid_device_ext *x = any_ext();
    if (x)
        x->free(ptr);
    else
        gcut_clear_error();
}

gcut_status gcut_device_copy(void *dst, const void *src, size_t bytes)
{
    GCUT_ENTRY();
    if ((!dst || !src) && bytes)
        return GCUT_FAIL(GCUT_ERR_INVALID, "dst and src must not be NULL");
    const gcut_grid_device_ext *x = any_ext();
    return x ? x->copy(dst, src, bytes) : gcut_last_status();
}
