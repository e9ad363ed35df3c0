/*
 * seg_backend.c - the segmentation-energy table of the plugin
 * (the "gcut.vision.seg" extension, vision/vision_plugin.h), for sessions whose back end is
 * cuda-grid: the energies of vision/segment/energy.c evaluated with the kernels of
 * seg_kernels.cuh, their results copied to the session's host arrays.
 *
 * The state pointer handed to the vision layer is the launcher's state;
 * the functions below only check the device is usable before creating it
 * and cast.
 */
#include "grid/grid_internal.h"
#include "vision/seg_internal.h"

static gcut_status seg_create(int32_t width, int32_t height, const float *rgb, void **state)
{
    if (!state)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid energies: NULL state");
    const char *why;
    gcut_status st = gcut_cu_probe_device(&why);
    if (st == GCUT_OK)
        st = gcut_cu_grid_probe_image(&why);
    if (st != GCUT_OK)
        return GCUT_CU_FAIL(GCUT_ERR_UNAVAILABLE, "cuda-grid energies: %s", why);
    gcut_cu_seg_state *s = NULL;
    if ((st = gcut_cu_seg_create(width, height, rgb, &s)) != GCUT_OK)
        return st;
    *state = s;
    return GCUT_OK;
}

static void seg_destroy(void *state) { gcut_cu_seg_destroy(state); }

static gcut_status seg_smoothness(void *state, int32_t connectivity, double lambda, double *beta,
                                  float *const *pair)
{
    return gcut_cu_seg_smoothness(state, connectivity, lambda, beta, pair);
}

static gcut_status seg_set_bytes(void *state, int32_t which, const uint8_t *bytes)
{
    return gcut_cu_seg_set_bytes(state, which, bytes);
}

static gcut_status seg_gmm_pass(void *state, const gcut_seg_pass *pass, double *moments)
{
    return gcut_cu_seg_gmm_pass(state, pass, moments);
}

static gcut_status seg_data(void *state, gcut_seg_rect box, const gcut_seg_dev_model *fg,
                            const gcut_seg_dev_model *bg, float *dfg, float *dbg, uint8_t *comp_fg,
                            uint8_t *comp_bg)
{
    return gcut_cu_seg_data(state, box, fg, bg, dfg, dbg, comp_fg, comp_bg);
}

static gcut_status seg_worst(void *state, gcut_seg_rect box, double *worst)
{
    return gcut_cu_seg_worst(state, box, worst);
}

static gcut_status seg_links(void *state, gcut_seg_rect box, double scale, int32_t dir,
                             int32_t *caps)
{
    return gcut_cu_seg_links(state, box, scale, dir, caps);
}

static gcut_status seg_terminals(void *state, gcut_seg_rect box, double scale, int32_t rebase,
                                 int32_t *source, int32_t *sink)
{
    return gcut_cu_seg_terminals(state, box, scale, rebase, source, sink);
}

static void seg_stats(void *state, gcut_seg_plugin_stats *out) { gcut_cu_seg_stats(state, out); }

const gcut_seg_plugin gcut_cu_seg_grid = {
    GCUT_PLUGIN_ABI_VERSION, GCUT_SEG_PLUGIN_VERSION, "cuda-grid", seg_create, seg_destroy,
    seg_smoothness,           seg_set_bytes,           seg_gmm_pass, seg_data,   seg_worst,
    seg_links,                seg_terminals,           seg_stats};
