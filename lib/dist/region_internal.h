/*
 * region_internal.h - one region (a slab of planes) of a region-partitioned
 * grid max-flow, and the driver that runs the regions of a grid to the
 * exact maximum flow and canonical cut. Communication-free: the driver
 * reaches the other regions only through gcut_i_dist_comm (an in-process
 * copy in partition.c, MPI in lib/mpi/dist_mpi.c). Never installed.
 *
 * The algorithm, its exactness argument and the message layout are in
 * docs/distributed.md.
 */
#ifndef GCUT_REGION_INTERNAL_H
#define GCUT_REGION_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/core_internal.h"
#include "core/pool_internal.h"

/* The directions that cross from one slab to the next: 1 (4- and 6-),
 * 3 (8-), 5 (18-) or 9 (26-connectivity). */
#define GCUT_I_REGION_MAX_CROSS 9

/* The geometry of one region: the whole grid and the slab it owns. */
typedef struct gcut_i_region_shape {
    int32_t width, height, depth; /* the whole grid */
    int32_t connectivity;
    int64_t first; /* first plane owned (z in 3-D, y in 2-D) */
    int32_t count; /* planes owned, >= 1 */
    int32_t d_inf; /* the label of nodes that cannot reach the sink:
                    * min(global nodes, INT32_MAX) */
    int32_t relabel_every; /* device regions: iterations between region-local
                            * relabels (0: the plugin's default) */
    int32_t ard;           /* CPU regions: 1 for augmenting-path region
                            * discharge (ARD labels, region.c), 0 for region
                            * push-relabel; device regions: 0 for cuda-grid's
                            * tiled push-relabel, GCUT_I_DIST_JACOBI for the
                            * simple one */
} gcut_i_region_shape;

/* The capacities of a region's own nodes, in the slab's local order
 * (node (x, y, z) at x + width * (y + height * (z - first)) in 3-D, x +
 * width * (y - first) in 2-D). Only read while the region is built. */
typedef struct gcut_i_region_caps {
    const int32_t *cap[GCUT_GRID_MAX_DIRS];
    const int32_t *src;
    const int32_t *snk;
} gcut_i_region_caps;

typedef struct gcut_i_region gcut_i_region;

/* Build the state of one region: residuals, excesses after saturating
 * the source arcs and cancelling them against the sink arcs, all labels 0
 * (valid; the driver's first global relabel makes them exact). Fails with
 * GCUT_ERR_OVERFLOW when the slab with its ghost planes passes 32-bit
 * local indices, GCUT_ERR_NOMEM. */
GCUT_HIDDEN gcut_status gcut_i_region_new(gcut_i_region **out, const gcut_i_region_shape *shape,
                                          const gcut_i_region_caps *caps);
GCUT_HIDDEN void gcut_i_region_free(gcut_i_region *r);

/* Bytes of one boundary message with flows (with_flows 1) or labels only. */
GCUT_HIDDEN size_t gcut_i_region_msg_bytes(const gcut_i_region *r, int with_flows);

/* Bytes of state per node of a region of `connectivity` (for estimates). */
GCUT_I_SHARED size_t gcut_i_region_bytes_per_node(int32_t connectivity);

/* The outgoing and incoming message buffers toward the region below
 * (side 0) and above (side 1), gcut_i_region_msg_bytes(r, 1) bytes each. */
GCUT_I_SHARED void *gcut_i_region_send_buf(gcut_i_region *r, int side);
GCUT_I_SHARED void *gcut_i_region_recv_buf(gcut_i_region *r, int side);

/* Copy src's send buffer of src_side into dst's receive buffer of
 * dst_side (a memcpy, or a device-to-device copy for device regions). */
GCUT_I_SHARED gcut_status gcut_i_region_copy_msg(gcut_i_region *dst, int dst_side,
                                               gcut_i_region *src, int src_side, size_t bytes);

/* A region on `device` (a CUDA ordinal) of a back end's "gcut.grid.region"
 * extension (gcut/plugin.h), built there from the capacities (host or
 * device memory, as gcut_i_region_new's): no host copy of its state is
 * made, and every operation here runs on the device (the driver is
 * unchanged; the send and receive buffers are device memory). Fails as
 * the plugin's create fails (GCUT_ERR_INVALID for negative capacities). */
GCUT_HIDDEN gcut_status gcut_i_region_new_device(gcut_i_region **out,
                                                 const gcut_i_region_shape *shape,
                                                 const gcut_i_region_caps *caps,
                                                 const gcut_grid_region_ext *x, int32_t device);

/* The plugin's handle of a device region (for its exchange), else NULL. */
GCUT_I_SHARED void *gcut_i_region_device_handle(const gcut_i_region *r);

/* GCUT_OK, or the first failure of a device call of the region (then
 * *msg is its message): the operations after it did nothing. */
GCUT_I_SHARED gcut_status gcut_i_region_device_error(const gcut_i_region *r, const char **msg);

/* Which neighbours exist (the driver's business: a neighbour is the next
 * non-empty region). Without one, the side's ghost labels stay d_inf. */
GCUT_HIDDEN void gcut_i_region_set_neighbours(gcut_i_region *r, int lo, int hi);

/* How many neighbours it has (0, 1 or 2). */
GCUT_HIDDEN int gcut_i_region_neighbours(const gcut_i_region *r);

/* A device region's profile since it was built (zeros for CPU regions):
 * ms in discharges, ms in region-local relabels, discharge iterations,
 * relabel levels. */
GCUT_HIDDEN void gcut_i_region_profile(const gcut_i_region *r, double *out);

/* The statistics of a region since it was built. */
typedef struct gcut_i_region_stats {
    int64_t pushes, relabels, local_relabels;
} gcut_i_region_stats;
GCUT_HIDDEN const gcut_i_region_stats *gcut_i_region_stats_get(const gcut_i_region *r);

GCUT_HIDDEN int32_t gcut_i_region_num_nodes(const gcut_i_region *r);
/* Nodes per plane. */
GCUT_HIDDEN int32_t gcut_i_region_plane(const gcut_i_region *r);
/* Flow into the sink from the region's own nodes so far. */
GCUT_HIDDEN int64_t gcut_i_region_flow(const gcut_i_region *r);

/* Push-relabel on the own nodes with the ghost labels fixed, until no own
 * node is active; flow into ghost nodes is kept for the next pack. */
GCUT_HIDDEN void gcut_i_region_discharge(gcut_i_region *r);
/* Own labels := exact distances to the sink within the region, the ghost
 * labels taken as distances; returns how many changed. */
GCUT_HIDDEN int64_t gcut_i_region_relabel(gcut_i_region *r);
/* The same after the ghost labels went down only (later rounds of a
 * global relabel): visits only the nodes whose label drops; returns how
 * many. */
GCUT_HIDDEN int64_t gcut_i_region_relabel_update(gcut_i_region *r);
/* Ghost labels := d_inf (the start of a global relabel). */
GCUT_HIDDEN void gcut_i_region_reset_ghosts(gcut_i_region *r);
/* Active own nodes (excess > 0, label < d_inf). */
GCUT_HIDDEN int64_t gcut_i_region_active(const gcut_i_region *r);
/* Write the send buffers (boundary labels, and the flows pushed into each
 * neighbour, which are then cleared) / read the receive buffers. */
GCUT_HIDDEN void gcut_i_region_pack(gcut_i_region *r, int with_flows);
GCUT_HIDDEN void gcut_i_region_unpack(gcut_i_region *r, int with_flows);
/* The canonical cut of the own nodes after a final global relabel. */
GCUT_HIDDEN void gcut_i_region_cut(const gcut_i_region *r, uint8_t *cut);

/* --- the driver ------------------------------------------------------- */

/* How the driver reaches the regions it does not hold. */
typedef struct gcut_i_dist_comm {
    void *ctx;
    /* Deliver every held region's send buffers (gcut_i_region_send_buf,
     * `bytes` each) to the matching receive buffers of its neighbours,
     * and fill the held regions' receive buffers from theirs. Collective. */
    gcut_status (*exchange)(void *ctx, gcut_i_region *const *regs, int32_t nregs, size_t bytes);
    /* Sum `count` values over every rank, in place. Collective. */
    gcut_status (*allreduce)(void *ctx, int64_t *vals, int32_t count);
} gcut_i_dist_comm;

/* Driver settings and statistics. */
typedef struct gcut_i_dist_run {
    int32_t threads; /* in-process: threads for the regions of a colour */
    double gr_alpha; /* a global relabel when the work since the last one
                      * (dist.c) passes gr_alpha * global nodes (<= 0: 1) */
    int64_t nodes;   /* global nodes */
    /* out */
    int64_t flow;
    int64_t sweeps, global_relabels, gr_rounds, pushes, relabels, local_relabels;
    int64_t resumes; /* sweeps resumed after the final relabel found active nodes (dist.c) */
    int64_t bytes_sent;
    double solve_ms, cut_ms;
    double prof[4]; /* the held device regions' profiles, summed (gcut_i_region_profile) */
} gcut_i_dist_run;

/* Run the held regions regs[0 .. nregs-1] (consecutive, regs[i] of colour
 * (first_index + i) % 2 among the non-empty regions) to the maximum
 * preflow, then write each region's canonical cut into cuts[i] (its own
 * nodes, GCUT_SOURCE / GCUT_SINK). pool may be NULL (one thread).
 * Collective over the comm. The flow is the sum over every rank. */
GCUT_HIDDEN gcut_status gcut_i_dist_solve(gcut_i_region *const *regs, int32_t nregs,
                                          int32_t first_index, const gcut_i_dist_comm *comm,
                                          gcut_i_pool *pool, uint8_t *const *cuts,
                                          gcut_i_dist_run *run);

/* Device regions (partition.c, shared with libgcut_mpi). The settings of
 * opt->params, checked: "devices=0:1:..." with opt->backend "cuda-grid"
 * the devices (default: device 0), else none (then "devices=" is an
 * error); "relabel_every=N" (device regions: discharge iterations between
 * region-local relabels, 1 .. 1000000; *relabel_every 0 when not given);
 * "discharge=ard|pr|jacobi" (CPU regions: ard or pr, *ard 1 or 0; default
 * GCUT_I_DIST_ARD_DEFAULT; device regions: pr, cuda-grid's tiled
 * push-relabel, *ard 0, or jacobi, the simple synchronous one, *ard
 * GCUT_I_DIST_JACOBI; "relabel_every=" needs jacobi); any other key is an
 * error. devices holds GCUT_I_MAX_DEVICES. */
#define GCUT_I_DIST_ARD_DEFAULT 0
#define GCUT_I_DIST_JACOBI 2
#define GCUT_I_MAX_DEVICES 64
GCUT_I_SHARED gcut_status gcut_i_dist_settings(const gcut_solve_options *opt, int32_t *devices,
                                              int32_t *ndev, int32_t *relabel_every,
                                              int32_t *ard);
/* The "gcut.grid.region" extension of back end `backend`, or NULL with
 * the failure recorded (GCUT_ERR_UNAVAILABLE, GCUT_ERR_NOT_FOUND). */
GCUT_I_SHARED const gcut_grid_region_ext *gcut_i_dist_region_ext(const char *backend);

/* Copy a region's message buffer `which` (0, 1 send; 2, 3 receive) to or
 * from host memory (a memcpy for CPU regions, the extension's copy for
 * device regions; for MPI ranks whose regions are on a GPU). */
GCUT_I_SHARED gcut_status gcut_i_region_copy_out(gcut_i_region *r, int which, void *host,
                                                 size_t bytes);
GCUT_I_SHARED gcut_status gcut_i_region_copy_in(gcut_i_region *r, int which, const void *host,
                                                size_t bytes);

/* Most regions one SPMD rank splits its slab into. */
#define GCUT_I_DIST_MAX_SUB 2

/* The SPMD entry of one rank (lib/mpi/dist_mpi.c, in libgcut_mpi: hence
 * exported from libgcut.so, GCUT_I_SHARED): split the rank's slab into
 * `nsub` (1 .. GCUT_I_DIST_MAX_SUB) regions of consecutive planes (two: one
 * of each colour, so that the rank works in both halves of a sweep),
 * build them (shape->count may be 0: an empty rank, which still takes
 * part in every collective), run gcut_i_dist_solve with no pool inside a
 * call context of `opt` (copied and checked here), write the slab's cut
 * (shape->count planes) into `cut`, free the regions. lo / hi: whether a
 * non-empty region lies below / above the slab; first_index: the place of
 * its first region among the non-empty regions of every rank. The comm's
 * exchange moves messages between the rank's own regions too. With `dev`
 * (non-NULL) the regions go to `device` of that extension; a failure to
 * get there, and any failed device call, fails the solve on every rank. */
GCUT_I_SHARED gcut_status gcut_i_dist_solve_slab(const gcut_i_region_shape *shape,
                                                 const gcut_i_region_caps *caps, int32_t nsub,
                                                 int lo, int hi, int32_t first_index,
                                                 const gcut_grid_region_ext *dev, int32_t device,
                                                 const gcut_i_dist_comm *comm,
                                                 const gcut_solve_options *opt, uint8_t *cut,
                                                 gcut_i_dist_run *run);

/* The shape checks shared by the public entries: sizes >= 1, a valid
 * connectivity (4, 8 with depth 1; 6, 18, 26), a plane that fits 32-bit
 * local indices. `who` names the public function. */
GCUT_I_SHARED gcut_status gcut_i_dist_check_shape(int64_t width, int64_t height, int64_t depth,
                                                  int32_t connectivity);

#endif /* GCUT_REGION_INTERNAL_H */
