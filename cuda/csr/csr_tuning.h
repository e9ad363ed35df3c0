/*
 * csr_tuning.h - block sizes and thresholds of the cuda-csr engine
 * (CONTRIBUTING.md rule 25). Plain C constants, shared by the launcher and the
 * kernels. The values were chosen on an H100 (sm_90) with the graphs of
 * docs/cuda.md; sm_80 uses the same ones.
 */
#ifndef GCUT_CSR_TUNING_H
#define GCUT_CSR_TUNING_H

/* Threads per block of the round, BFS and per-vertex kernels. */
#define GCUT_CSR_BLOCK 256

/* Resident blocks per SM assumed when sizing the persistent round grid
 * (2048 threads per SM on sm_80 and sm_90). */
#define GCUT_CSR_BLOCKS_PER_SM 8

/* Threads per block of the cooperative cycle kernel (the default driver:
 * one launch per global relabel cycle, grid barriers between rounds). */
#define GCUT_CSR_COOP_BLOCK 512

/* The cycle kernel keeps every block in every round and BFS level: block
 * 0 running short worklists alone while the others waited at the next
 * barrier (the `tail` setting before 0.2) was 1.6x to 2.1x slower on the
 * genrmf and RLG targets and even on the grid (bench/results/h100/:
 * 2026-11-21-small-targets.txt with it, 2026-11-21-targets-params.txt
 * without). */

/* Threads of the single-block kernels that finish the tail of a phase (and
 * of a BFS) in the host driver, when only a few vertices stay active for
 * many rounds (deep, narrow graphs: thousands of levels of a few vertices). */
#define GCUT_CSR_TAIL_THREADS 1024

/* The tail kernels take over when at most
 * GCUT_CSR_TAIL_ENTER_GROUPS * (vertices in flight per block) vertices are
 * active, and hand back once the worklist grows past
 * GCUT_CSR_TAIL_EXIT_FACTOR times that. */
#define GCUT_CSR_TAIL_ENTER_GROUPS 2
#define GCUT_CSR_TAIL_EXIT_FACTOR 8

/* One push or lift per active vertex and round (Hong's rule): a bounded
 * discharge of up to 8 (the `ops` setting before 0.2) was 1.06x to 2.2x
 * slower on genrmf, the grid and the power-law graph and within 3% on RLG
 * (bench/results/h100/2026-11-21-cpu-variants-tc.txt). */

/* Rounds launched back to back between two reads of the worklist size. */
#define GCUT_CSR_BATCH 8

/* Global relabelling: every max(MIN, n^2 / (DIV * m)) rounds by default.
 * Hong's max(100, n^2 / (1000 m)) relabelled too rarely on H100: halving
 * it (relabel_freq=2 of the first version) gained 1.2x to 2.2x on the
 * genrmf, RLG and grid targets (bench/results/h100/2026-11-21-*). */
#define GCUT_CSR_RELABEL_MIN 50
#define GCUT_CSR_RELABEL_DIV 2000.0
/* ... and at least this many rounds per level of the last BFS (a BFS costs
 * about one launch or block barrier per level). */
#define GCUT_CSR_RELABEL_DEPTH_FACTOR 0.5

/* BFS levels launched between two reads of the frontier size when the
 * frontier is too large for the single-block BFS kernel (which uses the
 * tail thresholds above): the batch starts at FIRST and doubles up to MAX. */
#define GCUT_CSR_BFS_BATCH_FIRST 4
#define GCUT_CSR_BFS_BATCH_MAX 128

/* Average arcs per vertex (out + in) up to which the automatic group
 * size is 4 lanes, and 8 lanes; above, a whole warp per vertex. */
#define GCUT_CSR_GROUP4_DEGREE 8.0
#define GCUT_CSR_GROUP8_DEGREE 24.0

/* A vertex with this many arcs (out + in) makes the automatic group a
 * whole warp: on a power-law graph (500k nodes, average degree 8) group=32
 * ran 2.9x faster than group=8 on the H100
 * (bench/results/h100/2026-11-21-cpu-variants-tc.txt). */
#define GCUT_CSR_HUB_DEGREE 512

/* 64-bit index arrays are converted to 32 bits on the device through a
 * staging buffer of this many entries (64 MiB). */
#define GCUT_CSR_STAGE_ENTRIES (8u << 20)

/* Device memory left free for the CUDA context and other users. */
#define GCUT_CSR_MEM_HEADROOM ((size_t)64 << 20)

/* The finish on the host (csr_finish.c, param finish=): phase I hands the
 * residual state to the host once a relabel cycle (after at least
 * GCUT_CSR_FINISH_CYCLES of them) counts at most max(GCUT_CSR_FINISH_MIN,
 * n / GCUT_CSR_FINISH_DIV) active vertices, on graphs of at least
 * GCUT_CSR_FINISH_MIN_ARCS arcs (bench/results/h100/2026-11-28-csr-finish.md). */
#define GCUT_CSR_FINISH_MIN 64
#define GCUT_CSR_FINISH_DIV 512
#define GCUT_CSR_FINISH_CYCLES 2
#define GCUT_CSR_FINISH_MIN_ARCS 100000

/* The edge upload of a layout built on the device (param upload=): through
 * two pinned buffers of GCUT_CSR_UPLOAD_CHUNK bytes, kept by the process,
 * filled by up to GCUT_CSR_UPLOAD_THREADS host threads (opt->threads, 0 =
 * every core; csr_upload.cu). By default (with 2+ threads) for edge lists
 * of GCUT_CSR_UPLOAD_STAGED_BYTES and more, which repay making the buffers
 * (about 16 ms), and of GCUT_CSR_UPLOAD_KEPT_BYTES and more once they exist
 * (bench/results/h200/2026-11-28-csr-upload.md: faster than pageable
 * copies from 12 MB up once made; slower at 64 MB when made for it). */
#define GCUT_CSR_UPLOAD_CHUNK ((size_t)16 << 20)
#define GCUT_CSR_UPLOAD_THREADS 8
#define GCUT_CSR_UPLOAD_STAGED_BYTES ((size_t)100 << 20)
#define GCUT_CSR_UPLOAD_KEPT_BYTES ((size_t)8 << 20)

#endif /* GCUT_CSR_TUNING_H */
