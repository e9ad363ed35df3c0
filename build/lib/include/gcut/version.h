/*
 * gcut/version.h - generated from version.h.in by CMake.
 */
#ifndef GCUT_VERSION_H
#define GCUT_VERSION_H

#include "gcut/common.h"

#define GCUT_VERSION_MAJOR 0
#define GCUT_VERSION_MINOR 1
#define GCUT_VERSION_PATCH 0
#define GCUT_VERSION_STRING "0.1.0"

/** True if the headers are at least version x.y.z. */
#define GCUT_VERSION_ATLEAST(x, y, z)                                                       \
    ((GCUT_VERSION_MAJOR > (x)) || (GCUT_VERSION_MAJOR == (x) && GCUT_VERSION_MINOR > (y)) || \
     (GCUT_VERSION_MAJOR == (x) && GCUT_VERSION_MINOR == (y) && GCUT_VERSION_PATCH >= (z)))

GCUT_BEGIN_C_DECLS

/** \brief Version of the library actually loaded ("0.1.0").
 *  \threadsafety Safe from any thread. */
GCUT_EXPORT const char *gcut_version(void);

GCUT_END_C_DECLS

#endif /* GCUT_VERSION_H */
