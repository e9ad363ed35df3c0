/*
 * vision_plugin.c - which device extension a vision computation uses: that
 * of the back end the core's chooser picks for its grid solves.
 */
#include <string.h>
#include <stdlib.h>

#include "core/core_internal.h"
#include "vision_plugin.h"

/* The back end named by the options or, for "auto", by $GCUT_BACKEND; NULL
 * when the choice is automatic. (Replaced by the core's chooser.) */
static const char *named(const gcut_solve_options *solve)
{
    const char *b = solve ? solve->backend : NULL;
    if (b && *b && strcmp(b, "auto") != 0)
        return b;
    const char *env = getenv("GCUT_BACKEND");
    return env && *env && strcmp(env, "auto") != 0 ? env : NULL;
}

const gcut_seg_plugin *gcut_i_vision_seg_plugin(const gcut_solve_options *solve)
{
    const char *name = named(solve);
    return name ? gcut_i_plugin_seg(name) : NULL;
}

const gcut_mrf_plugin *gcut_i_vision_mrf_plugin(const gcut_solve_options *solve)
{
    const char *b = solve ? solve->backend : NULL;
    return b ? gcut_i_plugin_mrf(b) : NULL;
}
