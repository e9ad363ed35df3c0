/*
 * csr_backend.c - the cuda-csr back end: its function table, the probe and
 * its settings (opt->params, read with the core's parser). Plain C
 * (CONTRIBUTING.md rule 25); the engine
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
 *   relabel_rounds=N     rounds between global relabels (default:
 *                        max(GCUT_CSR_RELABEL_MIN, n^2 / (GCUT_CSR_RELABEL_DIV m))
 *                        and at least GCUT_CSR_RELABEL_DEPTH_FACTOR rounds per
 *                        level of the last BFS; csr_tuning.h)
 *   relabel_freq=X       divide the default interval by X (> 0)
 *   batch=N              rounds launched between two checks of the host
 *   driver=auto|coop|host  vc only: one cooperative launch per global
 *                        relabel cycle with grid barriers between rounds
 *                        (auto: where the device supports it), or one
 *                        launch per round checked in batches by the host
 *   layout=auto|device|check  the RCSR layout: the core's when the graph
 *                        holds one, else built on the device from the
 *                        edges (GCUT_BACKEND_LAYS_OUT; csr_layout.cuh);
 *                        always on the device; or on the device and
 *                        compared with the core's arc for arc, failing
 *                        with GCUT_ERR_INTERNAL where they differ (tests;
 *                        GCUT_ERR_INVALID when the graph holds none)
 *   finish=off|auto|N    phase I's tail on the host (csr_finish.c): once a
 *                        relabel cycle counts at most N active vertices,
 *                        the residual state is copied back and sequential
 *                        highest-label push-relabel finishes it; auto: the
 *                        rule of csr_tuning.h (GCUT_CSR_FINISH_*); not
 *                        with variant=bcsr. Default off: slower than the
 *                        device on most of the bench set (docs/cuda.md)
 *   upload=auto|pageable|staged  the edges of a layout built on the device:
 *                        straight from the caller's arrays, or through two
 *                        kept pinned buffers filled by several threads
 *                        (opt->threads; csr_upload.cu); auto: with 2+
 *                        threads, for lists of 100 MiB and more, or of 8
 *                        MiB and more once the process's buffers exist
 *   upload_chunk=BYTES   the pinned buffers' size (4096 .. 1 GiB; tests)
 *   coop_until=off|auto|N  the cooperative driver hands a phase to the
 *                        host driver (single-block kernels for short
 *                        worklists and frontiers) once a relabel cycle
 *                        counts at most N active vertices; auto: the host
 *                        driver's own threshold for its tail kernel
 */
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

/* The index of `value` in the NULL-terminated `words`, or -1. */
static int word(const char *value, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (strcmp(value, words[i]) == 0)
            return i;
    return -1;
}

/* Parse "key=value,key=value" into prm (defaults first) with the core's
 * parser (gcut_host_api): the syntax and the messages of every back end.
 * Items are taken in order, a later one overriding an earlier one; every
 * error names the item, so a typo never passes silently. */
static gcut_status parse_params(const char *params, gcut_cu_csr_params *prm)
{
    static const char *const who = "cuda-csr";
    static const char *const variants[] = {"vc", "tc", "bcsr", NULL};
    static const int variant_of[] = {GCUT_CU_CSR_VC, GCUT_CU_CSR_TC, GCUT_CU_CSR_BCSR};
    static const char *const drivers[] = {"auto", "coop", "host", NULL};
    static const char *const layouts[] = {"auto", "device", "check", NULL};
    static const int layout_of[] = {GCUT_CU_CSR_LAYOUT_AUTO, GCUT_CU_CSR_LAYOUT_DEVICE,
                                    GCUT_CU_CSR_LAYOUT_CHECK};
    static const int driver_of[] = {GCUT_CU_CSR_DRIVER_AUTO, GCUT_CU_CSR_DRIVER_COOP,
                                    GCUT_CU_CSR_DRIVER_HOST};
    const gcut_host_api *h = gcut_cu_host;
    prm->variant = GCUT_CU_CSR_VC;
    prm->group = 0;
    prm->relabel_rounds = 0;
    prm->relabel_freq = 1.0;
    prm->batch = 0;
    prm->driver = GCUT_CU_CSR_DRIVER_AUTO;
    prm->layout = GCUT_CU_CSR_LAYOUT_AUTO;
    prm->finish = 0;
    prm->coop_until = 0;
    prm->upload = GCUT_CU_CSR_UPLOAD_AUTO;
    prm->upload_chunk = 0;
    gcut_param it;
    int r;
    while ((r = h->param_next(&params, who, &it)) > 0) {
        int64_t iv = 0;
        gcut_status st = GCUT_OK;
        int k;
        if (strcmp(it.key, "variant") == 0) {
            if ((k = word(it.value, variants)) < 0)
                return h->fail(GCUT_ERR_INVALID, who, "variant=%s: want vc, tc or bcsr", it.value);
            prm->variant = variant_of[k];
        } else if (strcmp(it.key, "group") == 0) {
            if (strcmp(it.value, "auto") == 0) {
                prm->group = 0;
            } else {
                st = h->param_int(&it, who, 1, 32, &iv);
                if (st == GCUT_OK && iv != 1 && iv != 4 && iv != 8 && iv != 32)
                    return h->fail(GCUT_ERR_INVALID, who, "group=%s: want auto, 1, 4, 8 or 32",
                                   it.value);
                prm->group = (int32_t)iv;
            }
        } else if (strcmp(it.key, "relabel_rounds") == 0) {
            st = h->param_int(&it, who, 1, INT32_MAX, &iv);
            prm->relabel_rounds = iv;
        } else if (strcmp(it.key, "relabel_freq") == 0) {
            double x = 0.0;
            st = h->param_double(&it, who, 0.0, &x);
            if (st == GCUT_OK && !(x > 0.0 && x <= 1e9))
                return h->fail(GCUT_ERR_INVALID, who, "relabel_freq=%s is not in (0, 1e9]",
                               it.value);
            prm->relabel_freq = x;
        } else if (strcmp(it.key, "batch") == 0) {
            st = h->param_int(&it, who, 1, 4096, &iv);
            prm->batch = (int32_t)iv;
        } else if (strcmp(it.key, "driver") == 0) {
            if ((k = word(it.value, drivers)) < 0)
                return h->fail(GCUT_ERR_INVALID, who, "driver=%s: want auto, coop or host",
                               it.value);
            prm->driver = driver_of[k];
        } else if (strcmp(it.key, "layout") == 0) {
            if ((k = word(it.value, layouts)) < 0)
                return h->fail(GCUT_ERR_INVALID, who, "layout=%s: want auto, device or check",
                               it.value);
            prm->layout = layout_of[k];
        } else if (strcmp(it.key, "upload") == 0) {
            static const char *const uploads[] = {"auto", "pageable", "staged", NULL};
            if ((k = word(it.value, uploads)) < 0)
                return h->fail(GCUT_ERR_INVALID, who, "upload=%s: want auto, pageable or staged",
                               it.value);
            prm->upload = (gcut_cu_csr_upload)k;
        } else if (strcmp(it.key, "upload_chunk") == 0) {
            st = h->param_int(&it, who, 4096, (int64_t)1 << 30, &iv);
            prm->upload_chunk = iv;
        } else if (strcmp(it.key, "finish") == 0 || strcmp(it.key, "coop_until") == 0) {
            int64_t *to = it.key[0] == 'f' ? &prm->finish : &prm->coop_until;
            if (strcmp(it.value, "auto") == 0) {
                *to = -1;
            } else if (strcmp(it.value, "off") == 0) {
                *to = 0;
            } else {
                st = h->param_int(&it, who, 1, INT32_MAX, &iv);
                *to = iv;
            }
        } else {
            return h->param_unknown(&it, who,
                                    "variant, group, relabel_rounds, relabel_freq, batch, driver, "
                                    "layout, finish, coop_until, upload, upload_chunk");
        }
        if (st != GCUT_OK)
            return st;
    }
    return r < 0 ? GCUT_ERR_INVALID : GCUT_OK;
}

static gcut_status csr_solve_graph(void *state, const gcut_problem *p,
                                   const gcut_solve_options *opt, gcut_solution *sol)
{
    if (!state || !p || !opt || !sol || !sol->cut || !sol->stats)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-csr: missing state, problem or solution");
    if (!p->rcsr && p->num_edges > 0 && (!p->edge_u || !p->edge_v || !p->edge_cap ||
                                         !p->edge_rev_cap || p->num_edges > GCUT_LAYS_OUT_MAX_EDGES))
        return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                            "cuda-csr: the problem carries neither a layout nor edges to lay out");
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
    GCUT_BACKEND_GRAPH | GCUT_BACKEND_FLOWS | GCUT_BACKEND_GPU | GCUT_BACKEND_NEEDS_RCSR |
        GCUT_BACKEND_LAYS_OUT,
    csr_probe, csr_create, csr_solve_graph, NULL, csr_destroy);
