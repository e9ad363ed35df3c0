/*
 * plugin.c - the entry point of libgcut_cuda.so and the services every
 * engine of the plugin shares (error mapping, the device probe).
 *
 * The core dlopen()s this library and calls its entry symbol,
 * gcut_plugin_entry (DESIGN.md section 3, STYLE.md rule 22), then looks
 * up the optional ones (matchers, device-side expansion, segmentation
 * energies). Everything
 * else is hidden: the C and CUDA sources are compiled with
 * -fvisibility=hidden and a linker version script also hides the
 * statically linked CUDA runtime.
 *
 * A missing driver or device is not an error of the plugin: the probe
 * reports it as "unavailable" with a reason, and the core lists the back
 * end as such. No CUDA call is made before the first probe, so loading
 * the plugin on a machine without a GPU costs nothing.
 */
#include <stdio.h>

#include "cuda_internal.h"
#include "csr/csr_internal.h"
#include "grid/grid_internal.h"
#include "matching/gpr_internal.h"
#include "vision/seg_internal.h"

const gcut_host_api *gcut_cu_host;

gcut_status gcut_cu_status(cudaError_t err)
{
    switch (err) {
    case cudaSuccess:
        return GCUT_OK;
    case cudaErrorMemoryAllocation:
        return GCUT_ERR_DEVICE_NOMEM;
    default:
        return GCUT_ERR_DEVICE;
    }
}

gcut_status gcut_cu_fail(cudaError_t err, const char *where, const char *expr, const char *file,
                         int line)
{
    return gcut_cu_host->fail(gcut_cu_status(err), where, "%s failed at %s:%d: %s (%s)", expr,
                              file, line, cudaGetErrorString(err), cudaGetErrorName(err));
}

/* The reason strings must outlive the call (the registry keeps a copy, but
 * the ABI promises static strings). The registry probes under a lock, once
 * per back end, so one buffer is enough. */
static char g_probe_reason[256];

gcut_status gcut_cu_probe_device(const char **reason)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaErrorInsufficientDriver || err == cudaErrorCompatNotSupportedOnDevice) {
        int driver = 0;
        (void)cudaDriverGetVersion(&driver);
        if (driver == 0)
            snprintf(g_probe_reason, sizeof g_probe_reason,
                     "no CUDA driver (libcuda.so.1 not found or not loadable)");
        else
            snprintf(g_probe_reason, sizeof g_probe_reason,
                     "CUDA driver too old: the driver supports CUDA %d.%d, the plugin was built "
                     "with CUDA %d.%d",
                     driver / 1000, (driver % 1000) / 10, CUDART_VERSION / 1000,
                     (CUDART_VERSION % 1000) / 10);
        *reason = g_probe_reason;
        return GCUT_ERR_UNAVAILABLE;
    }
    if (err == cudaErrorNoDevice || (err == cudaSuccess && count == 0)) {
        *reason = "no CUDA device";
        return GCUT_ERR_UNAVAILABLE;
    }
    if (err != cudaSuccess) {
        snprintf(g_probe_reason, sizeof g_probe_reason, "CUDA initialisation failed: %s (%s)",
                 cudaGetErrorString(err), cudaGetErrorName(err));
        *reason = g_probe_reason;
        return GCUT_ERR_UNAVAILABLE;
    }
    *reason = "ok";
    return GCUT_OK;
}

#if defined(__GNUC__) || defined(__clang__)
#define GCUT_CU_ENTRY __attribute__((visibility("default")))
#else
#define GCUT_CU_ENTRY
#endif

/* The one exported symbol (its type is gcut_plugin_entry_fn). */
GCUT_CU_ENTRY gcut_status gcut_plugin_entry(const gcut_host_api *host,
                                            const gcut_backend *const **backends,
                                            int32_t *count);

static const gcut_backend *const g_backends[] = {&gcut_cu_backend_csr, &gcut_cu_backend_grid};

gcut_status gcut_plugin_entry(const gcut_host_api *host, const gcut_backend *const **backends,
                              int32_t *count)
{
    if (!host || !backends || !count || host->abi_version != GCUT_BACKEND_ABI_VERSION ||
        !host->fail || !host->log || !host->now_ms || !host->malloc_fn || !host->free_fn)
        return GCUT_ERR_INVALID;
    gcut_cu_host = host;
    *backends = g_backends;
    *count = (int32_t)(sizeof g_backends / sizeof g_backends[0]);
    return GCUT_OK;
}

/* The optional second symbol (gcut_plugin_matchers_fn): the bipartite
 * matchers, which join gcut_match's table rather than the registry. The
 * core calls it after gcut_plugin_entry, with the same host table. */
GCUT_CU_ENTRY gcut_status gcut_plugin_matchers(const gcut_host_api *host,
                                               const gcut_plugin_matcher *const **matchers,
                                               int32_t *count);

static const gcut_plugin_matcher *const g_matchers[] = {&gcut_cu_matcher_gpr};

gcut_status gcut_plugin_matchers(const gcut_host_api *host,
                                 const gcut_plugin_matcher *const **matchers, int32_t *count)
{
    if (!host || !matchers || !count || host->abi_version != GCUT_BACKEND_ABI_VERSION)
        return GCUT_ERR_INVALID;
    gcut_cu_host = host;
    *matchers = g_matchers;
    *count = (int32_t)(sizeof g_matchers / sizeof g_matchers[0]);
    return GCUT_OK;
}

/* The optional third symbol (gcut_plugin_mrf_fn): alpha-expansion and
 * alpha-beta swap run on the device with cuda-grid's engine
 * (gcut_mrf_expand and gcut_mrf_swap use it when asked for back end
 * cuda-grid). */
GCUT_CU_ENTRY gcut_status gcut_plugin_mrf(const gcut_host_api *host,
                                          const gcut_mrf_plugin *const **list, int32_t *count);

static const gcut_mrf_plugin *const g_mrf[] = {&gcut_cu_mrf_grid};

gcut_status gcut_plugin_mrf(const gcut_host_api *host, const gcut_mrf_plugin *const **list,
                            int32_t *count)
{
    if (!host || !list || !count || host->abi_version != GCUT_BACKEND_ABI_VERSION)
        return GCUT_ERR_INVALID;
    gcut_cu_host = host;
    *list = g_mrf;
    *count = (int32_t)(sizeof g_mrf / sizeof g_mrf[0]);
    return GCUT_OK;
}

/* The optional fourth symbol (gcut_plugin_seg_fn): the segmentation
 * energies evaluated on the device for sessions on cuda-grid. Only the
 * interface version this build implements is offered. */
GCUT_CU_ENTRY gcut_status gcut_plugin_seg(const gcut_host_api *host, int32_t version,
                                          const gcut_seg_plugin *const **list, int32_t *count);

static const gcut_seg_plugin *const g_seg[] = {&gcut_cu_seg_grid};

gcut_status gcut_plugin_seg(const gcut_host_api *host, int32_t version,
                            const gcut_seg_plugin *const **list, int32_t *count)
{
    if (!host || !list || !count || host->abi_version != GCUT_BACKEND_ABI_VERSION)
        return GCUT_ERR_INVALID;
    if (version != GCUT_SEG_PLUGIN_VERSION)
        return GCUT_ERR_UNSUPPORTED;
    gcut_cu_host = host;
    *list = g_seg;
    *count = (int32_t)(sizeof g_seg / sizeof g_seg[0]);
    return GCUT_OK;
}
