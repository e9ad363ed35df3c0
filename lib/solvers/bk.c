/* bk.c - placeholder while the engine is being written (fails with UNSUPPORTED). */
#include "solvers/solvers_internal.h"

static gcut_status ph_probe(const char **reason)
{
    *reason = "not implemented yet";
    return GCUT_ERR_UNAVAILABLE;
}

const gcut_backend gcut_i_backend_bk = GCUT_BACKEND_ASSIGN("cpu-bk", "placeholder", GCUT_BACKEND_GRAPH | GCUT_BACKEND_NEEDS_BCSR, ph_probe, NULL, NULL, NULL, NULL);
