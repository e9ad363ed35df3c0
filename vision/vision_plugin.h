/*
 * vision_plugin.h - the vision layer's device extensions (private; shared
 * with the CUDA plugin, never installed).
 *
 * A plugin may offer, besides its back ends, device implementations of the
 * segmentation energies (gcut_seg_plugin) and of the multi-label moves
 * (gcut_mrf_plugin) for one of its grid back ends. The vision layer asks
 * the core's chooser which back end a solve would use and then takes that
 * back end's extension, if any: see docs/design.md section 3.
 */
#ifndef GCUT_VISION_PLUGIN_H
#define GCUT_VISION_PLUGIN_H

#include "gcut/backend.h"
#include "gcut/solve.h"

/* The device segmentation energies of the back end that a grid solve with
 * `solve` would use (its back-end name, or the automatic choice), or NULL
 * when that back end offers none or is unavailable. */
const gcut_seg_plugin *gcut_i_vision_seg_plugin(const gcut_solve_options *solve);

/* The device multi-label moves of that back end, or NULL. */
const gcut_mrf_plugin *gcut_i_vision_mrf_plugin(const gcut_solve_options *solve);

#endif
