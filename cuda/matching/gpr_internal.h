/*
 * gpr_internal.h - the interface between the cuda-match-gpr table
 * (gpr_backend.c, plain C) and its launcher (gpr_launch.cu).
 */
#ifndef GCUT_GPR_INTERNAL_H
#define GCUT_GPR_INTERNAL_H

#include "cuda_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run G-PR on the problem: the mates arrive holding a valid matching and
 * leave holding a maximum one, consistent both ways. */
GCUT_CU_HIDDEN gcut_status gcut_cu_gpr_run(const gcut_match_problem *p);

/* The matcher's table, listed in the plugin's descriptor (plugin.c). */
GCUT_CU_HIDDEN extern const gcut_plugin_matcher gcut_cu_matcher_gpr;

#ifdef __cplusplus
}
#endif

#endif /* GCUT_GPR_INTERNAL_H */
