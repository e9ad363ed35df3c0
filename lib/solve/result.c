/*
 * result.c - gcut_result: the flow value, the canonical cut, the optional
 * per-edge flows and the statistics of a solve (gcut/solve.h). Solves of
 * graphs (solve.c) and of grids (grid.c) store into it through
 * gcut_i_result_store, and only once they have succeeded.
 */
#include <stdio.h>
#include <string.h>

#include "solve/solve_internal.h"

struct gcut_result {
    int64_t flow;
    uint8_t *cut;
    int32_t n;
    int32_t *flows;
    int64_t m;
    gcut_stats stats;
    const char *backend;
    char reason[384];
    /* The cut buffer of the solve before last, kept for the next grid
     * solve of the same size (gcut_i_result_cut_buffer): repeated solves
     * (interactive strokes) then write into memory that is already mapped
     * instead of faulting in fresh pages every time. */
    uint8_t *spare;
    int32_t spare_n;
};

gcut_status gcut_result_new(gcut_result **out)
{
    GCUT_ENTRY();
    if (!out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "out is NULL");
    gcut_result *r = gcut_i_calloc(1, sizeof *r);
    if (!r)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate a result");
    r->backend = "";
    *out = r;
    return GCUT_OK;
}

void gcut_result_free(gcut_result *r)
{
    if (!r)
        return;
    gcut_i_free(r->cut);
    gcut_i_free(r->flows);
    gcut_i_free(r->spare);
    gcut_i_free(r);
}

int64_t gcut_result_flow(const gcut_result *r) { return r ? r->flow : 0; }
const uint8_t *gcut_result_cut(const gcut_result *r) { return r ? r->cut : NULL; }
int32_t gcut_result_num_nodes(const gcut_result *r) { return r ? r->n : 0; }
const int32_t *gcut_result_edge_flows(const gcut_result *r) { return r ? r->flows : NULL; }
const gcut_stats *gcut_result_stats(const gcut_result *r) { return r ? &r->stats : NULL; }
const char *gcut_result_backend(const gcut_result *r) { return r ? r->backend : ""; }
const char *gcut_result_reason(const gcut_result *r) { return r ? r->reason : ""; }

uint8_t *gcut_i_result_cut_buffer(gcut_result *res, int32_t n)
{
    if (res->spare && res->spare_n == n) {
        uint8_t *b = res->spare;
        res->spare = NULL;
        return b;
    }
    return gcut_i_malloc_array(n, 1);
}

void gcut_i_result_store(gcut_result *res, int64_t flow, uint8_t *cut, int32_t n,
                         int32_t *flows, int64_t m, const gcut_stats *stats, const char *backend,
                         const char *reason)
{
    if (res->cut && !res->spare) {
        res->spare = res->cut;
        res->spare_n = res->n;
    } else {
        gcut_i_free(res->cut);
    }
    gcut_i_free(res->flows);
    res->flow = flow;
    res->cut = cut;
    res->n = n;
    res->flows = flows;
    res->m = flows ? m : 0;
    res->stats = *stats;
    res->backend = backend;
    snprintf(res->reason, sizeof res->reason, "%s", reason ? reason : "");
}

uint8_t *gcut_i_result_take_cut(gcut_result *res, int32_t *n)
{
    uint8_t *cut = res->cut;
    *n = res->n;
    res->cut = NULL;
    return cut;
}
