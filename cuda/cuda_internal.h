/*
 * cuda_internal.h - what every file of the GPU plugin shares: the host
 * services handed over by the core (errors, logging, clock, allocator),
 * the error-checking macro for CUDA calls, and device helpers.
 *
 * The plugin never links libgcut (docs/design.md section 3): it reaches the
 * core only through the gcut_host_api table it receives in
 * gcut_plugin_entry. This header is plain C so that the back-end tables
 * (*_backend.c) and the launchers (*_launch.cu) can both include it.
 */
#ifndef GCUT_CUDA_INTERNAL_H
#define GCUT_CUDA_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "gcut/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define GCUT_CU_HIDDEN __attribute__((visibility("hidden")))
#else
#define GCUT_CU_HIDDEN
#endif

/* The core's services, set once by gcut_plugin_entry before any back end
 * of the plugin can be reached. */
GCUT_CU_HIDDEN extern const gcut_host_api *gcut_cu_host;

/* Record a failure for gcut_last_error() through the core and return the
 * status: `return GCUT_CU_FAIL(GCUT_ERR_INVALID, "...", ...)`. */
#define GCUT_CU_FAIL(status, ...) gcut_cu_host->fail((status), __func__, __VA_ARGS__)

/* Map a CUDA error to a gcut status: allocation failures are
 * GCUT_ERR_DEVICE_NOMEM (gcut_solve's auto mode then retries on the CPU),
 * everything else GCUT_ERR_DEVICE. */
GCUT_CU_HIDDEN gcut_status gcut_cu_status(cudaError_t err);

/* Record a failed CUDA call (`expr` as text, file:line, CUDA's message). */
GCUT_CU_HIDDEN gcut_status gcut_cu_fail(cudaError_t err, const char *where, const char *expr,
                                        const char *file, int line);

/*
 * GCUT_CUDA_CHECK(expr): evaluate a CUDA runtime call; on failure record it
 * and return its gcut status from the enclosing function (which must
 * return gcut_status). After a kernel launch use
 * GCUT_CUDA_CHECK_LAUNCH(stream): it checks the launch and, when the plugin
 * is built with GCUT_CUDA_DEBUG_SYNC, waits for the kernel so that a fault
 * is reported at the launch that caused it.
 */
#define GCUT_CUDA_CHECK(expr)                                                            \
    do {                                                                                 \
        cudaError_t gcut_cu_err_ = (expr);                                               \
        if (gcut_cu_err_ != cudaSuccess)                                                 \
            return gcut_cu_fail(gcut_cu_err_, __func__, #expr, __FILE__, __LINE__);     \
    } while (0)

#ifdef GCUT_CUDA_DEBUG_SYNC
#define GCUT_CUDA_CHECK_LAUNCH(stream)                                                   \
    do {                                                                                 \
        GCUT_CUDA_CHECK(cudaPeekAtLastError());                                          \
        GCUT_CUDA_CHECK(cudaStreamSynchronize(stream));                                  \
    } while (0)
#else
#define GCUT_CUDA_CHECK_LAUNCH(stream) GCUT_CUDA_CHECK(cudaPeekAtLastError())
#endif

/* Look for a usable device: GCUT_OK, or GCUT_ERR_UNAVAILABLE with *reason
 * set to a static string ("no CUDA device", "CUDA driver too old: ..."). */
GCUT_CU_HIDDEN gcut_status gcut_cu_probe_device(const char **reason);

/* Milliseconds since some fixed point (the core's monotonic clock). */
static inline double gcut_cu_now(void) { return gcut_cu_host->now_ms(); }

/* The call's check between rounds and launch batches (host->poll, plugin
 * ABI 4): GCUT_OK, or GCUT_ERR_TIMEOUT / GCUT_ERR_INTERRUPTED already
 * recorded. The time limit counts from the start of the public call. */
static inline gcut_status gcut_cu_poll(const gcut_solve_options *opt, const char *phase,
                                       int64_t remaining, const char *what)
{
    return gcut_cu_host->poll(opt, phase, remaining, what);
}

#ifdef __cplusplus
}
#endif

#endif /* GCUT_CUDA_INTERNAL_H */
