/*
 * vision_plugin.c - which device extension a vision computation uses: that
 * of the back end the core's chooser picks for its grid solves
 * (vision_plugin.h). The vision layer does not guess: a session or an MRF
 * whose solves would run on cuda-grid uses cuda-grid's device energies and
 * moves, whatever named it (the options, $GCUT_BACKEND).
 */
#include "core/core_internal.h"
#include "vision_plugin.h"

/* The extension `ext` at `version` of the back end a grid solve with
 * `solve` would use. */
static const void *extension(const gcut_solve_options *solve, const gcut_i_grid_shape *shape,
                             const char *ext, int32_t version)
{
    const char *be = gcut_i_grid_backend_name(solve ? solve->backend : NULL, shape);
    return be ? gcut_i_plugin_extension(ext, version, be) : NULL;
}

const gcut_seg_plugin *gcut_i_vision_seg_plugin(const gcut_solve_options *solve,
                                                const gcut_i_grid_shape *shape)
{
    const gcut_seg_plugin *sp = extension(solve, shape, GCUT_VISION_EXT_SEG, GCUT_SEG_PLUGIN_VERSION);
    if (!sp || sp->abi_version != GCUT_PLUGIN_ABI_VERSION || sp->version != GCUT_SEG_PLUGIN_VERSION ||
        !sp->create || !sp->destroy || !sp->smoothness || !sp->set_bytes || !sp->gmm_pass ||
        !sp->data || !sp->worst || !sp->links || !sp->terminals || !sp->stats)
        return NULL;
    return sp;
}

const gcut_mrf_plugin *gcut_i_vision_mrf_plugin(const gcut_solve_options *solve,
                                                const gcut_i_grid_shape *shape)
{
    const gcut_mrf_plugin *pm = extension(solve, shape, GCUT_VISION_EXT_MRF, GCUT_VISION_EXT_MRF_VERSION);
    if (!pm || pm->abi_version != GCUT_PLUGIN_ABI_VERSION || !pm->expand)
        return NULL;
    return pm;
}
