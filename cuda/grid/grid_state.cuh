/*
 * grid_state.cuh - cuda-grid's engine state (the stream, the device arrays
 * of one grid shape, the pinned blocks), shared by every file that drives
 * the engine: grid_launch.cu and cuda/vision/mrf_launch.cu through
 * grid_engine.cuh, and grid_device.cu, which fills the arrays from device
 * memory.
 */
#ifndef GCUT_CU_GRID_STATE_CUH
#define GCUT_CU_GRID_STATE_CUH

#include "grid/grid_internal.h"
#include "grid/grid_kernels.cuh"
#include "grid/grid_tuning.h"


using gcut_grid_cu::Dev;
using gcut_grid_cu::PairChange;
using gcut_grid_cu::TermChange;
using gcut_grid_cu::u64;

struct gcut_cu_grid_state {
    int ready;              /* stream, events and pinned block exist */
    cudaStream_t stream;
    cudaEvent_t ev[3];
    u64 *h_acc;             /* pinned copy of the accumulators */
    /* The device arrays, for the shape below. */
    int W, H, D, nd;
    void *ws;
    size_t ws_bytes;
    Dev dev;
    unsigned char *d_cut;
    unsigned char *h_cut;   /* pinned landing place of the cut (n bytes) */
    size_t h_cut_bytes;
    void *d_changes;        /* change records of a warm start */
    size_t changes_bytes;
    int *h_dense;           /* pinned dense terminal deltas of a warm start (2 n) */
    size_t h_dense_bytes;
    int valid;              /* the arrays hold the last successful solve of this shape */
    /* Host arrays of the grid registered (pinned) for fast uploads: the
     * grid owns them and keeps them for its lifetime, and this state is
     * destroyed with the grid. */
    const void *pinned[GCUT_GRID_MAX_DIRS + 2];
    int npinned;
    const void *seen;       /* the arrays of the last cold upload (first one) */
    int smem_set;           /* dynamic shared memory limits raised */
    int coop_blocks[27];    /* per connectivity: blocks of a cooperative relabel (-1: unknown) */
};

#endif /* GCUT_CU_GRID_STATE_CUH */
