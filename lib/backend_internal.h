/* backend_internal.h - registry internals shared with solve.c. */
#ifndef GCUT_BACKEND_INTERNAL_H
#define GCUT_BACKEND_INTERNAL_H

#include "core/core_internal.h"

/* The function table of back end i (NULL for a missing plugin's stand-in). */
GCUT_HIDDEN const gcut_backend *gcut_i_backend_table(int32_t i);

#endif
