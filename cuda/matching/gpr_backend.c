/*
 * gpr_backend.c - the table of cuda-match-gpr, the GPU bipartite matcher
 * (G-PR; Deveci, Kaya, Uçar & Çatalyürek, Euro-Par 2013). The algorithm
 * lives in gpr_launch.cu; this file only says when it can run.
 */
#include "matching/gpr_internal.h"

/* Like cuda-csr: no device or driver means "unavailable", with the reason. */
static gcut_status gpr_probe(const char **reason) { return gcut_cu_probe_device(reason); }

const gcut_plugin_matcher gcut_cu_matcher_gpr = {
    GCUT_PLUGIN_ABI_VERSION,
    "cuda-match-gpr",
    "GPU push-relabel matching, active-column lists, adaptive global relabelling "
    "(G-PR, Deveci et al. 2013)",
    gpr_probe,
    gcut_cu_gpr_run,
};
