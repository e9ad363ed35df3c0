/*
 * plugin.c - the entry point of libgcut_cuda.so and the services every
 * engine of the plugin shares (error mapping, the device probe).
 *
 * The core dlopen()s this library and calls its one exported symbol,
 * gcut_plugin_entry (docs/design.md section 3, CONTRIBUTING.md rule 22),
 * which hands back one descriptor: the back ends (cuda-csr, cuda-grid),
 * the bipartite matcher (cuda-match-gpr) and the vision layer's device
 * extensions (the segmentation energies and the multi-label moves on
 * cuda-grid) and cuda-grid's solver of grids in device memory and its device regions of
 * a partitioned grid (gcut.grid.region). Everything else is hidden: the C and CUDA sources are compiled with
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

/* The one exported symbol (its type is gcut_plugin_entry_fn): the
 * descriptor of everything the plugin provides. */
GCUT_CU_ENTRY gcut_status gcut_plugin_entry(const gcut_host_api *host,
                                            const gcut_plugin_descriptor **out);

static const gcut_backend *const g_backends[] = {&gcut_cu_backend_csr, &gcut_cu_backend_grid};

static const gcut_plugin_matcher *const g_matchers[] = {&gcut_cu_matcher_gpr};

/* The vision layer's device interfaces (vision/vision_plugin.h): the
 * multi-label moves and the segmentation energies, both for cuda-grid. */
static const gcut_plugin_extension g_extensions[] = {
    {GCUT_VISION_EXT_MRF, GCUT_VISION_EXT_MRF_VERSION, "cuda-grid", &gcut_cu_mrf_grid},
    {GCUT_VISION_EXT_SEG, GCUT_SEG_PLUGIN_VERSION, "cuda-grid", &gcut_cu_seg_grid},
    {GCUT_EXT_GRID_DEVICE, GCUT_EXT_GRID_DEVICE_VERSION, "cuda-grid", &gcut_cu_grid_device},
    {GCUT_EXT_GRID_REGION, GCUT_EXT_GRID_REGION_VERSION, "cuda-grid", &gcut_cu_grid_region},
};

#define COUNT(a) ((int32_t)(sizeof(a) / sizeof((a)[0])))

static const gcut_plugin_descriptor g_descriptor = {
    GCUT_PLUGIN_ABI_VERSION, "cuda",     g_backends,   COUNT(g_backends),
    g_matchers,              COUNT(g_matchers), g_extensions, COUNT(g_extensions),
};

gcut_status gcut_plugin_entry(const gcut_host_api *host, const gcut_plugin_descriptor **out)
{
    if (!host || !out)
        return GCUT_ERR_INVALID;
    *out = &g_descriptor; /* its first field tells a core of another ABI what we speak */
    if (host->abi_version != GCUT_PLUGIN_ABI_VERSION)
        return GCUT_ERR_UNSUPPORTED;
    if (!host->fail || !host->log || !host->now_ms || !host->malloc_fn || !host->free_fn ||
        !host->param_next || !host->param_int || !host->param_double || !host->param_unknown ||
        !host->poll)
        return GCUT_ERR_INVALID;
    gcut_cu_host = host;
    return GCUT_OK;
}
