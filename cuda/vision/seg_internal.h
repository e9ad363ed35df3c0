/*
 * seg_internal.h - the C interface between the segmentation-energy table
 * (seg_backend.c, listed in the plugin's descriptor) and its launcher
 * (seg_launch.cu). Pure C: no CUDA or C++ types (CONTRIBUTING.md rule 27).
 */
#ifndef GCUT_CU_SEG_INTERNAL_H
#define GCUT_CU_SEG_INTERNAL_H

#include "cuda_internal.h"
#include "vision_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The table (seg_backend.c), an extension of the plugin's descriptor. */
GCUT_CU_HIDDEN extern const gcut_seg_plugin gcut_cu_seg_grid;

/* The device state of one segmentation session (seg_launch.cu). */
typedef struct gcut_cu_seg_state gcut_cu_seg_state;

GCUT_CU_HIDDEN gcut_status gcut_cu_seg_create(int32_t width, int32_t height, const float *rgb,
                                              gcut_cu_seg_state **out);
GCUT_CU_HIDDEN void gcut_cu_seg_destroy(gcut_cu_seg_state *s);
GCUT_CU_HIDDEN gcut_status gcut_cu_seg_smoothness(gcut_cu_seg_state *s, int32_t connectivity,
                                                  double lambda, double *beta,
                                                  float *const *pair);
GCUT_CU_HIDDEN gcut_status gcut_cu_seg_set_bytes(gcut_cu_seg_state *s, int32_t which,
                                                 const uint8_t *bytes);
GCUT_CU_HIDDEN gcut_status gcut_cu_seg_gmm_pass(gcut_cu_seg_state *s, const gcut_seg_pass *pass,
                                                double *moments);
GCUT_CU_HIDDEN gcut_status gcut_cu_seg_data(gcut_cu_seg_state *s, gcut_seg_rect box,
                                            const gcut_seg_dev_model *fg, const gcut_seg_dev_model *bg,
                                            float *dfg, float *dbg, uint8_t *comp_fg,
                                            uint8_t *comp_bg);
GCUT_CU_HIDDEN gcut_status gcut_cu_seg_worst(gcut_cu_seg_state *s, gcut_seg_rect box,
                                             double *worst);
GCUT_CU_HIDDEN gcut_status gcut_cu_seg_links(gcut_cu_seg_state *s, gcut_seg_rect box,
                                             double scale, int32_t dir, int32_t *caps);
GCUT_CU_HIDDEN gcut_status gcut_cu_seg_terminals(gcut_cu_seg_state *s, gcut_seg_rect box,
                                                 double scale, int32_t rebase, int32_t *source,
                                                 int32_t *sink);
GCUT_CU_HIDDEN void gcut_cu_seg_stats(gcut_cu_seg_state *s, gcut_seg_plugin_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* GCUT_CU_SEG_INTERNAL_H */
