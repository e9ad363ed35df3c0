/*
 * csr_internal.h - the C interface between the cuda-csr back-end table
 * (csr_backend.c) and its launcher (csr_launch.cu). Pure C: no CUDA or
 * C++ types (CONTRIBUTING.md rule 27).
 */
#ifndef GCUT_CSR_INTERNAL_H
#define GCUT_CSR_INTERNAL_H

#include "cuda_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The back-end table (csr_backend.c), listed by gcut_plugin_entry. */
GCUT_CU_HIDDEN extern const gcut_backend gcut_cu_backend_csr;

/* Scheduling variants (opt->params "variant="). */
typedef enum gcut_cu_csr_variant {
    /* Active-vertex worklist; a group of lanes (a warp by default on dense
     * graphs) scans each active vertex. */
    GCUT_CU_CSR_VC = 0,
    /* No worklist: one thread per vertex, every vertex looked at in every
     * round (He & Hong's scheme). */
    GCUT_CU_CSR_TC = 1,
    /* The worklist schedule of vc on WBPR's layout: one bidirectional CSR
     * of residual arcs sorted by neighbour, reverse arcs found by binary
     * search (no flows per edge: want_flows is refused). */
    GCUT_CU_CSR_BCSR = 2
} gcut_cu_csr_variant;

/* Who drives the rounds (opt->params "driver="). */
typedef enum gcut_cu_csr_driver {
    GCUT_CU_CSR_DRIVER_AUTO = 0, /* cooperative where the device can, else host */
    GCUT_CU_CSR_DRIVER_COOP = 1, /* one cooperative launch per relabel cycle */
    GCUT_CU_CSR_DRIVER_HOST = 2  /* one launch per round, batches checked by the host */
} gcut_cu_csr_driver;

/* Where the layout comes from (opt->params "layout="). */
typedef enum gcut_cu_csr_layout {
    GCUT_CU_CSR_LAYOUT_AUTO = 0,   /* the core's when it passes one, else on the device */
    GCUT_CU_CSR_LAYOUT_DEVICE = 1, /* on the device from the edges, always */
    GCUT_CU_CSR_LAYOUT_CHECK = 2   /* on the device, and compared with the core's (tests) */
} gcut_cu_csr_layout;

/* How the edges of a layout built on the device go up (opt->params "upload="). */
typedef enum gcut_cu_csr_upload {
    GCUT_CU_CSR_UPLOAD_AUTO = 0,     /* staged for large lists with 2+ threads, else pageable */
    GCUT_CU_CSR_UPLOAD_PAGEABLE = 1, /* straight from the caller's arrays */
    GCUT_CU_CSR_UPLOAD_STAGED = 2    /* through the kept pinned buffers (csr_upload.h) */
} gcut_cu_csr_upload;

/* Settings parsed from opt->params (csr_backend.c). */
typedef struct gcut_cu_csr_params {
    gcut_cu_csr_variant variant;
    int32_t group;          /* lanes per active vertex (vc): 0 = by degree, or 1, 4, 8, 32 */
    int64_t relabel_rounds; /* rounds between global relabels; 0 = the default formula */
    double relabel_freq;    /* the default interval is divided by this (1 = as is) */
    int32_t batch;          /* rounds launched between two host checks; 0 = default */
    gcut_cu_csr_driver driver;
    gcut_cu_csr_layout layout;
    /* Phase I's finish on the host (csr_finish.c): hand over once a relabel
     * cycle counts at most this many active vertices; 0 = never (the
     * default), -1 = the rule of csr_tuning.h. */
    int64_t finish;
    /* The cooperative driver hands a phase to the host driver once a relabel
     * cycle counts at most this many active vertices; 0 = never, -1 = the
     * host driver's tail threshold. */
    int64_t coop_until;
    gcut_cu_csr_upload upload;
    int64_t upload_chunk;   /* bytes per pinned buffer; 0 = GCUT_CSR_UPLOAD_CHUNK */
} gcut_cu_csr_params;

/* Persistent engine state (CONTRIBUTING.md rule 23): the stream, the workspace
 * and a pinned control block, kept between solves. */
typedef struct gcut_cu_csr_state gcut_cu_csr_state;

GCUT_CU_HIDDEN gcut_status gcut_cu_csr_state_new(gcut_cu_csr_state **out);
GCUT_CU_HIDDEN void gcut_cu_csr_state_free(gcut_cu_csr_state *s);

/* Check that the kernels of this build run on the current device (an
 * sm_80/sm_90 build on an older GPU does not). */
GCUT_CU_HIDDEN gcut_status gcut_cu_csr_probe_image(const char **reason);

/* Solve p into sol: on p->rcsr, or on a layout built on the device from
 * p's edges when p->rcsr is NULL (or prm->layout says so). */
GCUT_CU_HIDDEN gcut_status gcut_cu_csr_solve(gcut_cu_csr_state *s, const gcut_problem *p,
                                             const gcut_solve_options *opt,
                                             const gcut_cu_csr_params *prm, gcut_solution *sol);

#ifdef __cplusplus
}
#endif

#endif /* GCUT_CSR_INTERNAL_H */
