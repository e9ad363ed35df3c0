/* Host emulation of the CUDA pieces grid_region.cu uses: every launch runs
 * its threads one after another in a shuffled order. */
/* The tiled discharge (cuda-grid's kernels: barriers, shared memory,
 * cooperative launches) is left out: the emulated regions run jacobi. */
#define GCUT_REGION_EMU 1
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
#undef __global__
#define __global__ static
#undef __forceinline__
#define __forceinline__ inline
#undef __device__
#define __device__
struct Dim { unsigned x; };
static thread_local Dim blockIdx, threadIdx;
static Dim blockDim = {256};
static inline unsigned atomicAdd(unsigned *p, unsigned v) { unsigned o = *p; *p += v; return o; }
static inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) { unsigned long long o = *p; *p += v; return o; }
static inline unsigned long long atomicMin(unsigned long long *p, unsigned long long v) { unsigned long long o = *p; if (v < o) *p = v; return o; }
static inline int atomicMin(int *p, int v) { int o = *p; if (v < o) *p = v; return o; }
/* Per thread: the driver runs the regions of several devices on threads. */
static thread_local unsigned emu_seed = 12345;
static thread_local int *emu_perm; static thread_local long emu_cap;
#define EMU_LAUNCH(kernel, nb, ...) do { long tot_ = (long)(nb) * 256; \
  if (tot_ > emu_cap) { emu_perm = (int*)realloc(emu_perm, tot_ * sizeof(int)); emu_cap = tot_; } \
  for (long i_ = 0; i_ < tot_; i_++) emu_perm[i_] = (int)i_; \
  for (long i_ = tot_ - 1; i_ > 0; i_--) { emu_seed = emu_seed * 1103515245u + 12345u; long j_ = (emu_seed >> 8) % (i_ + 1); int t_ = emu_perm[i_]; emu_perm[i_] = emu_perm[j_]; emu_perm[j_] = t_; } \
  for (long i_ = 0; i_ < tot_; i_++) { blockIdx.x = emu_perm[i_] / 256; threadIdx.x = emu_perm[i_] % 256; kernel(__VA_ARGS__); } } while (0)
