/* scripts/region-emu: host shims of the CUDA runtime calls of cuda/grid/grid_region.cu (run.sh). */
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
extern "C" {
cudaError_t cudaMalloc(void **p, size_t n) { *p = calloc(1, n); return *p ? cudaSuccess : cudaErrorMemoryAllocation; }
cudaError_t cudaFree(void *p) { free(p); return cudaSuccess; }
cudaError_t cudaMemcpy(void *d, const void *s, size_t n, enum cudaMemcpyKind) { memmove(d, s, n); return cudaSuccess; }
cudaError_t cudaMemset(void *d, int v, size_t n) { memset(d, v, n); return cudaSuccess; }
cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
/* Several devices: $EMU_DEVICES of them (default 4), a current one per
 * thread; streams are tokens, asynchronous copies are done at once. */
static thread_local int emu_dev;
cudaError_t cudaGetDeviceCount(int *n) { const char *e = getenv("EMU_DEVICES"); *n = e ? atoi(e) : 4; return cudaSuccess; }
cudaError_t cudaGetDevice(int *d) { *d = emu_dev; return cudaSuccess; }
cudaError_t cudaSetDevice(int d) { int n; cudaGetDeviceCount(&n); if (d < 0 || d >= n) return cudaErrorInvalidDevice; emu_dev = d; return cudaSuccess; }
cudaError_t cudaStreamCreate(cudaStream_t *s) { *s = (cudaStream_t)malloc(1); return cudaSuccess; }
cudaError_t cudaStreamDestroy(cudaStream_t s) { free((void *)s); return cudaSuccess; }
cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, enum cudaMemcpyKind, cudaStream_t) { memmove(d, s, n); return cudaSuccess; }
cudaError_t cudaPeekAtLastError(void) { return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
const char *cudaGetErrorString(cudaError_t) { return "emu"; }
const char *cudaGetErrorName(cudaError_t) { return "emu"; }
}
#include "cuda_internal.h"
extern "C" const gcut_host_api *gcut_i_host_api(void);
const gcut_host_api *gcut_cu_host;
extern "C" gcut_status gcut_cu_status(cudaError_t err) { return err == cudaSuccess ? GCUT_OK : GCUT_ERR_DEVICE; }
extern "C" gcut_status gcut_cu_fail(cudaError_t err, const char *where, const char *expr, const char *file, int line)
{ return gcut_cu_host->fail(gcut_cu_status(err), where, "%s failed at %s:%d", expr, file, line); }
extern "C" gcut_status gcut_cu_probe_device(const char **reason) { *reason = "ok"; return GCUT_OK; }
extern "C" const gcut_grid_region_ext gcut_cu_grid_region;
extern "C" const gcut_grid_region_ext *emu_ext(void) { gcut_cu_host = gcut_i_host_api(); return &gcut_cu_grid_region; }
