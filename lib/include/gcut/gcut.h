/*
 * gcut/gcut.h - umbrella header: include this one.
 *
 * gcut: fast graph cuts (max-flow / min-cut) for computer vision on CPUs
 * and GPUs. See docs/ for the guide.
 */
#ifndef GCUT_GCUT_H
#define GCUT_GCUT_H

#include "gcut/common.h"
#include "gcut/version.h"
#include "gcut/graph.h"
#include "gcut/grid.h"
#include "gcut/solve.h"
#include "gcut/backend.h"
#include "gcut/match.h"
#include "gcut/device.h"

#endif /* GCUT_GCUT_H */
