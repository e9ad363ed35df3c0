/*
 * csr_backend.c - the cuda-csr back end: its function table, the probe and
 * the parsing of opt->params. Plain C (STYLE.md rule 25); the engine
 * itself is in csr_launch.cu and csr_kernels.cuh.
 *
 * Settings (opt->params, "key=value,key=value"; unknown keys fail with
 * GCUT_ERR_INVALID):
 *   variant=vc|tc|bcsr   worklist of active vertices (default) or a thread
 *                        per vertex scanning all vertices every round, or
 *                        the worklist on WBPR's bidirectional CSR (merged
 *                        parallel edges, reverse arcs by binary search; no
 *                        per-edge flows: want_flows fails UNSUPPORTED)
 *   group=auto|1|4|8|32  lanes that scan one active vertex (vc only)
 *   relabel_rounds=N     rounds between global relabels (default
 *                        max(100, n^2 / (1000 m)))
 *   relabel_freq=X       divide the default interval by X (> 0)
 *   batch=N              rounds launched between two checks of the host
 *   driver=auto|coop|host  vc only: one cooperative launch per global
 *                        relabel cycle with grid barriers between rounds
 *                        (auto: where the device supports it), or one
 *                        launch per round checked in batches by the host
 */
#include <stdlib.h>
#include <string.h>

#include "csr/csr_internal.h"
#include "params.h"

/* Available when a device answers and this build has code for it (the
 * reason strings are static, as the ABI asks). */
static gcut_status csr_probe(const char **reason)
{
    gcut_status st = gcut_cu_probe_device(reason);
    if (st != GCUT_OK)
        return st;
    return gcut_cu_csr_probe_image(reason);
}

static gcut_status csr_create(void **state)
{
    gcut_cu_csr_state *s;
    gcut_status st = gcut_cu_csr_state_new(&s);
    if (st == GCUT_OK)
        *state = s;
    return st;
}

static void csr_destroy(void *state) { gcut_cu_csr_state_free(state); }

/* Parse "key=value,key=value" into prm (defaults first). Items are taken
 * in order, a later one overriding an earlier one; empty items are
 * skipped. Every error names the item, so a typo never passes silently. */
static gcut_status parse_params(const char *params, gcut_cu_csr_params *prm)
{
    prm->variant = GCUT_CU_CSR_VC;
    prm->group = 0;
    prm->relabel_rounds = 0;
    prm->relabel_freq = 1.0;
    prm->batch = 0;
    prm->driver = GCUT_CU_CSR_DRIVER_AUTO;
    const char *cur = params;
    gcut_cu_param it;
    int r;
    while ((r = gcut_cu_param_next(&cur, &it)) != 0) {
        if (r < 0)
            return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-csr: parameter '%.*s' has no value",
                                (int)it.key_len, it.key);
        int64_t iv = 0;
        int bad = 0;
        if (gcut_cu_param_is(&it, "variant")) {
            if (gcut_cu_param_value_is(&it, "vc"))
                prm->variant = GCUT_CU_CSR_VC;
            else if (gcut_cu_param_value_is(&it, "tc"))
                prm->variant = GCUT_CU_CSR_TC;
            else if (gcut_cu_param_value_is(&it, "bcsr"))
                prm->variant = GCUT_CU_CSR_BCSR;
            else
                bad = 1;
        } else if (gcut_cu_param_is(&it, "group")) {
            if (gcut_cu_param_value_is(&it, "auto"))
                prm->group = 0;
            else if (gcut_cu_param_int(&it, 1, 32, &iv) == 0 &&
                     (iv == 1 || iv == 4 || iv == 8 || iv == 32))
                prm->group = (int32_t)iv;
            else
                bad = 1;
        } else if (gcut_cu_param_is(&it, "relabel_rounds")) {
            if (gcut_cu_param_int(&it, 1, INT32_MAX, &iv) == 0)
                prm->relabel_rounds = iv;
            else
                bad = 1;
        } else if (gcut_cu_param_is(&it, "relabel_freq")) {
            bad = gcut_cu_param_double(&it, &prm->relabel_freq) != 0;
        } else if (gcut_cu_param_is(&it, "batch")) {
            if (gcut_cu_param_int(&it, 1, 4096, &iv) == 0)
                prm->batch = (int32_t)iv;
            else
                bad = 1;
        } else if (gcut_cu_param_is(&it, "driver")) {
            if (gcut_cu_param_value_is(&it, "auto"))
                prm->driver = GCUT_CU_CSR_DRIVER_AUTO;
            else if (gcut_cu_param_value_is(&it, "coop"))
                prm->driver = GCUT_CU_CSR_DRIVER_COOP;
            else if (gcut_cu_param_value_is(&it, "host"))
                prm->driver = GCUT_CU_CSR_DRIVER_HOST;
            else
                bad = 1;
        } else {
            return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                                "cuda-csr: unknown parameter '%.*s' (known: variant, group, "
                                "relabel_rounds, relabel_freq, batch, driver)",
                                (int)it.key_len, it.key);
        }
        if (bad)
            return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-csr: bad value '%.*s' for '%.*s'",
                                (int)it.value_len, it.value, (int)it.key_len, it.key);
    }
    return GCUT_OK;
}

static gcut_status csr_solve_graph(void *state, const gcut_problem *p,
                                   const gcut_solve_options *opt, gcut_solution *sol)
{
    if (!state || !p || !opt || !sol || !sol->cut || !sol->stats)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-csr: missing state, problem or solution");
    if (!p->rcsr)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-csr: the problem carries no RCSR layout");
    gcut_cu_csr_params prm;
    gcut_status st = parse_params(opt->params, &prm);
    if (st != GCUT_OK)
        return st;
    /* BCSR merges parallel edges into one arc pair, so the flow of each
     * user edge cannot be told apart any more; phase II is not run. */
    if (prm.variant == GCUT_CU_CSR_BCSR && sol->edge_flows)
        return GCUT_CU_FAIL(GCUT_ERR_UNSUPPORTED,
                            "cuda-csr: variant=bcsr gives no per-edge flows (parallel edges are "
                            "merged in its layout); use variant=vc or tc with want_flows");
    return gcut_cu_csr_solve(state, p, opt, &prm, sol);
}

const gcut_backend gcut_cu_backend_csr = GCUT_BACKEND_ASSIGN(
    "cuda-csr",
    "GPU push-relabel on CSR graphs (lock-free, worklist, GPU global relabel)",
    GCUT_BACKEND_GRAPH | GCUT_BACKEND_FLOWS | GCUT_BACKEND_GPU | GCUT_BACKEND_NEEDS_RCSR,
    csr_probe, csr_create, csr_solve_graph, NULL, csr_destroy);
