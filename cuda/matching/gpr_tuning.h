/*
 * gpr_tuning.h - the constants of cuda-match-gpr (G-PR), in one place.
 */
#ifndef GCUT_GPR_TUNING_H
#define GCUT_GPR_TUNING_H

/* Threads per block of every G-PR kernel (one thread per column). */
#define GPR_BLOCK 256

/* Adaptive relabelling frequency (Deveci et al. 2013): a global relabel
 * after k x maxLevel push kernels, maxLevel the highest finite row label
 * found by the previous relabel. The paper found k about 0.7 best. */
#define GPR_RELABEL_K 0.7

/* At least this many push kernels between two global relabels: a BFS whose
 * deepest level is 2 would otherwise be followed by a single kernel. */
#define GPR_MIN_PUSH_ROUNDS 4

#endif /* GCUT_GPR_TUNING_H */
