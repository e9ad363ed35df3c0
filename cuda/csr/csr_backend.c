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
 *   tail=auto|off|N      finish phases in one block once at most N
 *                        vertices are active (vc only)
 *   batch=N              rounds launched between two checks of the host
 *   ops=N                pushes and lifts per active vertex and round
 *   driver=auto|coop|host  vc only: one cooperative launch per global
 *                        relabel cycle with grid barriers between rounds
 *                        (auto: where the device supports it), or one
 *                        launch per round checked in batches by the host
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "csr/csr_internal.h"

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

/* Parse a decimal integer in [lo, hi]; 0 on success. */
static int parse_int(const char *s, size_t len, int64_t lo, int64_t hi, int64_t *out)
{
    char buf[32];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    long long v = strtoll(buf, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_double(const char *s, size_t len, double *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (errno || *end || !(v > 0.0) || v > 1e9)
        return -1;
    *out = v;
    return 0;
}

static int value_is(const char *v, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(v, word, len) == 0;
}

/* Parse "key=value,key=value" into prm (defaults first). Items are taken
 * in order, a later one overriding an earlier one; empty items are
 * skipped. Every error names the item, so a typo never passes silently. */
static gcut_status parse_params(const char *params, gcut_cu_csr_params *prm)
{
    prm->variant = GCUT_CU_CSR_VC;
    prm->group = 0;
    prm->relabel_rounds = 0;
    prm->relabel_freq = 1.0;
    prm->tail = -1;
    prm->batch = 0;
    prm->ops = 0;
    prm->driver = GCUT_CU_CSR_DRIVER_AUTO;
    if (!params)
        return GCUT_OK;
    const char *p = params;
    while (*p) {
        const char *item_end = strchr(p, ',');
        if (!item_end)
            item_end = p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(item_end - p));
        if (item_end == p) { /* tolerate ",," and a trailing comma */
            p = *item_end ? item_end + 1 : item_end;
            continue;
        }
        if (!eq)
            return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-csr: parameter '%.*s' has no value",
                                (int)(item_end - p), p);
        const size_t klen = (size_t)(eq - p);
        const char *v = eq + 1;
        const size_t vlen = (size_t)(item_end - v);
        int64_t iv = 0;
        int bad = 0;
        if (klen == 7 && memcmp(p, "variant", 7) == 0) {
            if (value_is(v, vlen, "vc"))
                prm->variant = GCUT_CU_CSR_VC;
            else if (value_is(v, vlen, "tc"))
                prm->variant = GCUT_CU_CSR_TC;
            else if (value_is(v, vlen, "bcsr"))
                prm->variant = GCUT_CU_CSR_BCSR;
            else
                bad = 1;
        } else if (klen == 5 && memcmp(p, "group", 5) == 0) {
            if (value_is(v, vlen, "auto"))
                prm->group = 0;
            else if (parse_int(v, vlen, 1, 32, &iv) == 0 &&
                     (iv == 1 || iv == 4 || iv == 8 || iv == 32))
                prm->group = (int32_t)iv;
            else
                bad = 1;
        } else if (klen == 14 && memcmp(p, "relabel_rounds", 14) == 0) {
            if (parse_int(v, vlen, 1, INT32_MAX, &iv) == 0)
                prm->relabel_rounds = iv;
            else
                bad = 1;
        } else if (klen == 12 && memcmp(p, "relabel_freq", 12) == 0) {
            bad = parse_double(v, vlen, &prm->relabel_freq) != 0;
        } else if (klen == 4 && memcmp(p, "tail", 4) == 0) {
            if (value_is(v, vlen, "auto"))
                prm->tail = -1;
            else if (value_is(v, vlen, "off"))
                prm->tail = 0;
            else if (parse_int(v, vlen, 0, 1 << 20, &iv) == 0)
                prm->tail = (int32_t)iv;
            else
                bad = 1;
        } else if (klen == 5 && memcmp(p, "batch", 5) == 0) {
            if (parse_int(v, vlen, 1, 4096, &iv) == 0)
                prm->batch = (int32_t)iv;
            else
                bad = 1;
        } else if (klen == 6 && memcmp(p, "driver", 6) == 0) {
            if (value_is(v, vlen, "auto"))
                prm->driver = GCUT_CU_CSR_DRIVER_AUTO;
            else if (value_is(v, vlen, "coop"))
                prm->driver = GCUT_CU_CSR_DRIVER_COOP;
            else if (value_is(v, vlen, "host"))
                prm->driver = GCUT_CU_CSR_DRIVER_HOST;
            else
                bad = 1;
        } else if (klen == 3 && memcmp(p, "ops", 3) == 0) {
            if (parse_int(v, vlen, 1, 1024, &iv) == 0)
                prm->ops = (int32_t)iv;
            else
                bad = 1;
        } else {
            return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                                "cuda-csr: unknown parameter '%.*s' (known: variant, group, "
                                "relabel_rounds, relabel_freq, tail, batch, ops, driver)",
                                (int)klen, p);
        }
        if (bad)
            return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-csr: bad value '%.*s' for '%.*s'",
                                (int)vlen, v, (int)klen, p);
        p = *item_end ? item_end + 1 : item_end;
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
