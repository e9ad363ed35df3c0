/*
 * gcut/dist.h - grids spread over MPI ranks: each rank owns a slab of
 * planes, and one collective solve gives the exact maximum flow and every
 * rank its part of the canonical cut (experimental; libgcut_mpi, built
 * when CMake finds MPI; docs/distributed.md).
 *
 *     // every rank of comm, its slab: planes first .. first + count - 1
 *     // (z of a volume, y of an image), in rank order
 *     gcut_dist_grid *dg;
 *     gcut_dist_grid_new(&dg, MPI_COMM_WORLD, w, h, d, 6, first, count);
 *     gcut_dist_grid_set_terminal_caps(dg, my_src, my_snk);   // w*h*count each
 *     for (int32_t dir = 0; dir < 6; dir++)
 *         gcut_dist_grid_set_caps(dg, dir, my_caps[dir]);
 *     int64_t flow;
 *     gcut_dist_grid_solve(dg, NULL, &flow);                  // collective
 *     const uint8_t *cut = gcut_dist_grid_cut(dg);            // w*h*count bytes
 *     gcut_dist_grid_free(dg);
 *
 * The grid model is that of gcut/grid.h (directions, capacities, the
 * canonical cut); each rank's arrays are its slab in the slab's own order:
 * node (x, y, z) of the grid is entry x + w * (y + h * (z - first)) of a
 * volume's rank, x + w * (y - first) of an image's. Entries of arcs that
 * leave the grid are ignored; an arc into the next rank's slab is given by
 * the rank of its tail. Global sizes are int64 (grids past 2^31 nodes);
 * every slab keeps 32-bit local indices (w * h * (count + 2) < 2^31).
 *
 * The answer is the same flow value and the same canonical cut bytes as a
 * single-process solve of the whole grid (gcut_grid_solve with any back
 * end, gcut_grid_solve_partitioned), whatever the partition.
 *
 * Collective calls (every rank of the communicator, in the same order):
 * gcut_dist_grid_new, gcut_dist_grid_solve, gcut_dist_grid_free. They agree
 * on failure: a bad argument or a failed allocation on one rank makes the
 * call fail on every rank (the message says which rank). Setters and
 * readers are local.
 */
#ifndef GCUT_DIST_H
#define GCUT_DIST_H

#include <mpi.h>

#include "gcut/common.h"
#include "gcut/grid.h"
#include "gcut/solve.h"

GCUT_BEGIN_C_DECLS

/** \brief Opaque handle of one rank's part of a distributed grid. */
typedef struct gcut_dist_grid gcut_dist_grid;

/** \brief Statistics of the last solve (the same on every rank except
 *  bytes_sent and the times, which are this rank's). */
typedef struct gcut_dist_stats {
    int64_t sweeps;          /**< red-black sweeps over the regions */
    int64_t global_relabels; /**< global relabels (the final one included) */
    int64_t gr_rounds;       /**< exchange rounds of the global relabels */
    int64_t pushes;          /**< all ranks */
    int64_t relabels;        /**< all ranks */
    int64_t bytes_sent;      /**< boundary messages of this rank's regions (its slab is
                              *   two regions from 2 planes on; the copies between them
                              *   count) */
    double solve_ms;         /**< the sweeps */
    double cut_ms;           /**< the final global relabel and the cut */
    double total_ms;         /**< the whole gcut_dist_grid_solve call */
} gcut_dist_stats;

/** \brief Create this rank's part of a grid of \p width x \p height x
 *  \p depth nodes (connectivity 4 or 8 with depth 1, or 6, 18, 26) whose
 *  planes (z of a volume, y of an image) are dealt to the ranks of \p comm
 *  in rank order: this rank owns planes \p first .. \p first + \p count - 1
 *  (\p count may be 0: an empty rank). All capacities start at 0.
 *  Collective. The communicator is duplicated (the solve's messages never
 *  meet the caller's).
 *  \returns GCUT_OK; GCUT_ERR_INVALID on every rank when any rank's
 *  arguments are bad, the ranks disagree on the grid, or the slabs do not
 *  tile the planes in rank order (the message names the rank);
 *  GCUT_ERR_OVERFLOW (a slab past 32-bit local indices); GCUT_ERR_NOMEM;
 *  GCUT_ERR_IO (an MPI call failed).
 *  \threadsafety Distinct handles from distinct threads need an MPI
 *  library initialised with MPI_THREAD_MULTIPLE.
 *  \since 0.3 */
GCUT_EXPORT GCUT_EXPERIMENTAL gcut_status gcut_dist_grid_new(gcut_dist_grid **out, MPI_Comm comm,
                                                             int64_t width, int64_t height,
                                                             int64_t depth, int32_t connectivity,
                                                             int64_t first, int32_t count);

/** \brief Free this rank's part. NULL is a no-op. Collective (it frees
 *  the duplicated communicator). */
GCUT_EXPORT GCUT_EXPERIMENTAL void gcut_dist_grid_free(gcut_dist_grid *dg);

/** \brief Nodes of this rank's slab (width * height * count of a volume). */
GCUT_EXPORT GCUT_EXPERIMENTAL int32_t gcut_dist_grid_local_nodes(const gcut_dist_grid *dg);

/** \brief Nodes of the whole grid. */
GCUT_EXPORT GCUT_EXPERIMENTAL int64_t gcut_dist_grid_num_nodes(const gcut_dist_grid *dg);

/** \brief Set one array of the slab, gcut_dist_grid_local_nodes entries
 *  (copied): direction \p what (0 .. connectivity - 1; gcut/grid.h) or
 *  GCUT_GRID_SOURCE_LINK, GCUT_GRID_SINK_LINK. Local.
 *  \returns GCUT_ERR_INVALID (negative capacity: the message names the
 *  node; bad \p what; NULL) with the slab unchanged. */
GCUT_EXPORT GCUT_EXPERIMENTAL gcut_status gcut_dist_grid_set_caps(gcut_dist_grid *dg, int32_t what,
                                                                  const int32_t *caps);

/** \brief Set both terminal arrays of the slab (either may be NULL: left
 *  as it is). Validated first. Local. */
GCUT_EXPORT GCUT_EXPERIMENTAL gcut_status gcut_dist_grid_set_terminal_caps(
    gcut_dist_grid *dg, const int32_t *cap_source, const int32_t *cap_sink);

/** \brief Maximum flow and canonical cut of the whole grid. Collective.
 *
 *  The region push-relabel of docs/distributed.md; a rank's slab is two
 *  regions (one of each colour) from 2 planes on. \p opt: NULL or options
 *  (time_limit, progress and log are this rank's; a rank that times out
 *  or is interrupted stops every rank at the same sweep). \p flow (may
 *  be NULL): the flow value, the same on every rank.
 *  \returns GCUT_OK; GCUT_ERR_TIMEOUT, GCUT_ERR_INTERRUPTED (on every
 *  rank); GCUT_ERR_NOMEM (on every rank, when any rank runs out);
 *  GCUT_ERR_IO (an MPI call failed). On failure the cut is not valid.
 *  Memory: (connectivity + 6) * 4 bytes per node of the slab while it runs,
 *  besides the slab's (connectivity + 2) * 4.
 *  Complexity: O(n^2 m) push-relabel worst case; per sweep two boundary
 *  exchanges of plane * (1 + crossing directions) * 4 bytes with each
 *  neighbour (docs/distributed.md). */
GCUT_EXPORT GCUT_EXPERIMENTAL gcut_status gcut_dist_grid_solve(gcut_dist_grid *dg,
                                                               const gcut_solve_options *opt,
                                                               int64_t *flow);

/** \brief This rank's part of the canonical cut after a successful solve:
 *  gcut_dist_grid_local_nodes bytes, GCUT_SOURCE or GCUT_SINK, in the
 *  slab's order; owned by the handle, valid until the next solve or
 *  change. NULL before a solve, after a failed one, or for an empty rank. */
GCUT_EXPORT GCUT_EXPERIMENTAL const uint8_t *gcut_dist_grid_cut(const gcut_dist_grid *dg);

/** \brief The statistics of the last successful solve. */
GCUT_EXPORT GCUT_EXPERIMENTAL gcut_status gcut_dist_grid_stats(const gcut_dist_grid *dg,
                                                               gcut_dist_stats *out);

GCUT_END_C_DECLS

#endif /* GCUT_DIST_H */
