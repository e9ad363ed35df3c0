/*
 * grid_internal.h - the C interface between the cuda-grid back-end table
 * (grid_backend.c) and its launcher (grid_launch.cu). Pure C: no CUDA or
 * C++ types (CONTRIBUTING.md rule 27).
 */
#ifndef GCUT_CU_GRID_INTERNAL_H
#define GCUT_CU_GRID_INTERNAL_H

#include "cuda_internal.h"
#include "vision_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The back-end table (grid_backend.c), listed by gcut_plugin_entry. */
GCUT_CU_HIDDEN extern const gcut_backend gcut_cu_backend_grid;

/* Most parts of a grid spread over GPUs ("devices=" of cuda-grid). */
#define GCUT_CU_GRID_MAX_DEVICES 16

/* Settings parsed from opt->params (grid_backend.c). */
typedef struct gcut_cu_grid_params {
    int32_t sweeps;   /* push-relabel sweeps inside a tile per launch (default 32) */
    int32_t sweeps_given; /* sweeps= was set: no default by the kind of start (grid_tuning.h) */
    int32_t launches; /* push launches between two global relabels; 0 = adaptive */
    int32_t warm;     /* 0: ignore the kept state, every solve cold (default 1) */
    int32_t pin;      /* 1: register the grid's host arrays for fast uploads (default 1) */
    int32_t coop;     /* 1: each global relabel is one cooperative launch (default 1) */
    int32_t reuse;    /* device moves: 1 keeps each label's move graph (default 1) */
    int32_t dense;    /* 1: warm after a rewrite of many t-links, as dense deltas (default 1) */
    /* "devices=0:1:...": the grid spread over these GPUs, one part each
     * (grid_span.cu); 0 devices: the current device, the usual engine. */
    int32_t ndevices;
    int32_t devices[GCUT_CU_GRID_MAX_DEVICES];
} gcut_cu_grid_params;

/* Device-side alpha-expansion and alpha-beta swap with this engine
 * (the tables in grid_backend.c, the driver in cuda/vision/mrf_launch.cu; the
 * plugin descriptor lists the table as extension "gcut.vision.mrf"). */
GCUT_CU_HIDDEN extern const gcut_mrf_plugin gcut_cu_mrf_grid;
GCUT_CU_HIDDEN gcut_status gcut_cu_grid_mrf_expand(const gcut_mrf_problem *p, gcut_mrf_report *r);
GCUT_CU_HIDDEN gcut_status gcut_cu_grid_mrf_swap(const gcut_mrf_problem *p, gcut_mrf_report *r);

/* The default settings, then "key=value,..." settings applied over them
 * (NULL: none); GCUT_ERR_INVALID with a message naming the bad item. */
GCUT_CU_HIDDEN void gcut_cu_grid_params_default(gcut_cu_grid_params *prm);
GCUT_CU_HIDDEN gcut_status gcut_cu_grid_params_apply(const char *params, gcut_cu_grid_params *prm);

/* Persistent engine state: the stream, the device arrays of the last
 * solve (residuals, excesses, labels) kept for warm re-solves, a pinned
 * control block. */
typedef struct gcut_cu_grid_state gcut_cu_grid_state;

GCUT_CU_HIDDEN gcut_status gcut_cu_grid_state_new(gcut_cu_grid_state **out);
GCUT_CU_HIDDEN void gcut_cu_grid_state_free(gcut_cu_grid_state *s);

/* Check that the kernels of this build run on the current device. */
GCUT_CU_HIDDEN gcut_status gcut_cu_grid_probe_image(const char **reason);

/* Arrays in device memory (grid_device.cu): instead of the cold upload,
 * fill(s, user) writes the residuals of every direction (s->dev.res, zero
 * or anything for arcs leaving the grid), the source capacities into
 * s->dev.mask and the sink capacities into s->dev.lab, on s->stream; the
 * cut goes to cut_out on the device (GCUT_SINK bytes, or with mask_fg 1 on
 * the source side), sol->cut is not used. Always a cold solve. */
typedef struct gcut_cu_grid_devio {
    gcut_status (*fill)(gcut_cu_grid_state *s, void *user);
    void *user;
    unsigned char *cut_out;
    int mask_fg;
} gcut_cu_grid_devio;

/* The device-grid extension (grid_device.cu), listed by the descriptor. */
GCUT_CU_HIDDEN extern const gcut_grid_device_ext gcut_cu_grid_device;

/* Regions of a partitioned grid kept on the device (grid_region.cu),
 * extension "gcut.grid.region", listed by the descriptor. */
GCUT_CU_HIDDEN extern const gcut_grid_region_ext gcut_cu_grid_region;

/* One grid spread over the GPUs of prm->devices (grid_span.cu): cuda-grid's
 * kernels on slabs of tiles, the arrays in one address range whose pages
 * live on the GPU that owns their nodes. Always cold; host arrays only. */
GCUT_CU_HIDDEN gcut_status gcut_cu_grid_span_solve(const gcut_grid_problem *p,
                                                   const gcut_solve_options *opt,
                                                   const gcut_cu_grid_params *prm,
                                                   gcut_solution *sol);

/* Solve the grid p into sol (warm when p->warm and the state allows). */
GCUT_CU_HIDDEN gcut_status gcut_cu_grid_solve(gcut_cu_grid_state *s, const gcut_grid_problem *p,
                                              const gcut_solve_options *opt,
                                              const gcut_cu_grid_params *prm, gcut_solution *sol);

/* The same with the arrays in device memory when io is not NULL. */
GCUT_CU_HIDDEN gcut_status gcut_cu_grid_solve_io(gcut_cu_grid_state *s, const gcut_grid_problem *p,
                                                 const gcut_solve_options *opt,
                                                 const gcut_cu_grid_params *prm,
                                                 const gcut_cu_grid_devio *io, gcut_solution *sol);

#ifdef __cplusplus
}
#endif

#endif /* GCUT_CU_GRID_INTERNAL_H */
