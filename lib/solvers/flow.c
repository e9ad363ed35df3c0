/* flow.c - placeholder: phase II is being written. */
#include "solvers/solvers_internal.h"

gcut_status gcut_i_preflow_to_flow(const gcut_bcsr *b, uint32_t *res, int64_t *excess,
                                   int64_t *src_used)
{
    return GCUT_FAIL(GCUT_ERR_UNSUPPORTED, "phase II not implemented yet");
}
