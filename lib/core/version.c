/* version.c - the version of the library actually loaded. */
#include "gcut/version.h"

const char *gcut_version(void) { return GCUT_VERSION_STRING; }
