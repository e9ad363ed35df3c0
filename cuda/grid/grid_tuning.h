/*
 * grid_tuning.h - block sizes and defaults of the cuda-grid engine
 * (CONTRIBUTING.md rule 25), like csr/csr_tuning.h for cuda-csr. Plain C
 * constants, shared by the launchers and the kernels. The values were
 * chosen on an H100 (sm_90) with the grids of docs/grid.md and the stereo
 * scenes of docs/stereo.md (bench/results/h100/, bench/results/h200/);
 * sm_80 uses the same ones.
 */
#ifndef GCUT_CU_GRID_TUNING_H
#define GCUT_CU_GRID_TUNING_H

/* Threads per block: one node of a tile each (2D tiles 32 x 16, 3D 8 x 8 x 8). */
#define GCUT_CU_GRID_THREADS 512

/* BFS launches between two reads of the changed-tile counters (the
 * relabel's launch-by-launch form, where cooperative launches are not
 * available). */
#define GCUT_CU_GRID_BFS_BATCH 8

/* Default push-relabel sweeps inside a tile per push launch (sweeps=):
 * 32 for warm re-solves after a few changes (strokes: the local excess
 * settles in fewer launches), 8 for cold solves and warm re-solves after
 * a rewrite of many t-links (dense deltas): on an H200 the cold cuts of
 * 4 MP vision grids and volumes took 0.74-0.91x the time (4 MP 4-conn. from
 * device memory 2.52 -> 1.95 ms, 256^3 17.4 -> 14.7 ms), random grids the
 * same, GrabCut's cuts on the 40 photos 0.83x, while re-solves after
 * strokes were no faster and on the random grid 1.4x slower (bench/results/h200/2026-11-27g-sweeps.md). The
 * regions of the partitioned solve and the spread grid keep 32. */
#define GCUT_CU_GRID_SWEEPS 32
#define GCUT_CU_GRID_SWEEPS_COLD 8

/* The move graphs of alpha-expansion are cut in many short rounds: 8
 * sweeps per launch and 16 launches per relabel measured best on teddy;
 * swap graphs, on the nodes of two labels, settle sooner: 4 launches
 * (bench/results/h100/, bench/results/h200/, docs/stereo.md). The caller's
 * settings (gcut_mrf_options.solve.params) apply on top of these. */
#define GCUT_CU_GRID_MRF_EXPAND_PARAMS "sweeps=8,launches=16"
#define GCUT_CU_GRID_MRF_SWAP_PARAMS "sweeps=8,launches=4"

#endif /* GCUT_CU_GRID_TUNING_H */
