/*
 * quant_internal.h - rounding float capacities and energies to int32, shared
 * by the float entry points of graphs (graph_float.c) and grids
 * (grid/grid_float.c). The guarantee and its proof are in gcut/graph.h
 * ("float capacities"); the reasoning follows the vision layer's
 * (vision/segment/energy.c), which quantises its own energies the same way.
 */
#ifndef GCUT_QUANT_INTERNAL_H
#define GCUT_QUANT_INTERNAL_H

#include <float.h>
#include <math.h>
#include <stdint.h>

/* The rounding below is also compiled into the GPU plugin (cuda/grid/
 * grid_device.cu, without FMA contraction) so that device grids quantise
 * float energies to the same integers. */
#if defined(__CUDACC__)
#define GCUT_I_QUANT static __host__ __device__ __forceinline__
#else
#define GCUT_I_QUANT static inline
#endif

/* Most a node's total (terminal capacities plus every arc in and out) may
 * reach at an automatic scale: 2^28 leaves a factor 8 below INT32_MAX for
 * engines that add a few of these together (warm reparametrisations,
 * terminal cancelling), as in the vision layer. */
#define GCUT_I_QUANT_BUDGET 268435456.0

/* The automatic scale for a problem whose worst node total is `worst`
 * energy units: the largest power of two s with s * worst <= the budget,
 * so that scale * e and r / scale are exact in double. 1 when worst is 0. */
static inline double gcut_i_quant_auto_scale(double worst)
{
    if (!(worst > 0.0))
        return 1.0;
    int e;
    (void)frexp(GCUT_I_QUANT_BUDGET / worst, &e); /* = f 2^e, f in [0.5, 1) */
    return ldexp(1.0, e - 1);
}

/* round(scale * e), as a double, and in *err its rounding error in energy
 * units, |round(scale e) / scale - e|, plus a margin for the double
 * arithmetic that computed e (a difference of two floats) and scale * e
 * (inexact for a caller's scale that is not a power of two). */
GCUT_I_QUANT double gcut_i_quant_round(double scale, double e, double *err)
{
    const double x = scale * e;
    const double r = floor(x + 0.5);
    *err = fabs(r - x) / scale + 4.0 * DBL_EPSILON * fabs(e);
    return r;
}

/* The bound reported for a sum of `terms` errors: a relative margin for the
 * rounding of the sum itself. */
static inline double gcut_i_quant_bound(double sum, int64_t terms)
{
    return sum * (1.0 + 4.0 * DBL_EPSILON * (double)(terms + 1));
}

/* What is wrong with a float capacity or weight (NULL: nothing). */
static inline const char *gcut_i_quant_bad_cap(float f)
{
    if (isnan(f))
        return "NaN";
    if (isinf(f))
        return "infinite";
    if (f < 0.0f)
        return "negative";
    return NULL;
}

#endif /* GCUT_QUANT_INTERNAL_H */
