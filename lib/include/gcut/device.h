/*
 * gcut/device.h - grids whose arrays live in GPU memory (since 0.3).
 *
 * A caller that holds its energy on the device already (a PyTorch, CuPy or
 * JAX tensor, a CUDA buffer of its own) hands the device pointers to a
 * gcut_device_solver: cuda-grid builds its residual graph from them on the
 * device, solves, and writes the cut into a device buffer of the caller's.
 * Nothing goes through host memory but the flow value and the statistics.
 *
 *     gcut_device_solver *s;
 *     gcut_device_solver_new(&s, NULL);               // cuda-grid
 *     gcut_device_grid dg = GCUT_DEVICE_GRID_INIT;
 *     dg.width = w; dg.height = h; dg.depth = 1; dg.connectivity = 4;
 *     dg.dtype = GCUT_DTYPE_FLOAT32;
 *     dg.cost_fg = d_fg; dg.cost_bg = d_bg;           // device pointers, w*h floats
 *     dg.pair[0] = d_wx; dg.pair[1] = d_wy;           // edges to (x+1,y) and (x,y+1)
 *     dg.cut = d_mask;                                // w*h bytes, written on the device
 *     dg.cut_format = GCUT_DEVICE_CUT_MASK;           // 1 = foreground (source side)
 *     gcut_result *r;
 *     gcut_result_new(&r);
 *     gcut_device_solver_solve(s, &dg, NULL, r);      // flow, stats; the cut stays on the device
 *
 * The energy is that of gcut/grid.h's float energies, in device memory:
 * per node the cost of each label, per neighbour pair a weight paid when
 * the labels differ. pair[j] holds, for every node v, the weight of the
 * edge between v and its neighbour in direction 2j (gcut/grid.h's table;
 * j < connectivity / 2); a NULL pair[j] weighs pair_const everywhere.
 *
 * - GCUT_DTYPE_INT32: costs and weights are int32 >= 0, solved exactly: the
 *   source link is cost_bg, the sink link cost_fg (gcut_grid_set_terminal_caps(g,
 *   cost_bg, cost_fg) and gcut_grid_set_caps of the weights, both directions).
 * - GCUT_DTYPE_FLOAT32: quantised on the device by the rule of
 *   gcut_grid_set_energy_dirs_f32 (the same scale, the same int32 arrays,
 *   hence the same flow and the same cut, bit for bit); the report goes to
 *   \p quant. Its bound is summed in another order than on the host: it may
 *   differ from the host's in the last bits, within its own margin.
 *
 * Alternatively (GCUT_DTYPE_INT32 only) caps[d] gives the directed capacity
 * of every arc, as gcut_grid_set_caps, with cap_source / cap_sink the
 * terminal capacities; set caps[0] to choose this form (cost_* and pair
 * are then ignored).
 *
 * Invalid values (negative, NaN, -inf, both costs +inf) are found on the
 * device and reported as GCUT_ERR_INVALID naming the array and the first
 * bad node; nothing is written to \p cut then.
 *
 * Streams. The solver runs on a stream of its own. When \p stream is not
 * 0 the solver first waits for the work already queued on that stream (the
 * producer of the arrays), so the caller needs no synchronisation; 0 means
 * the legacy default stream, which the solver's work also follows. The
 * call returns when the cut is written: any stream may read it then.
 *
 * Memory. All pointers must be device (or managed) memory of the device
 * the plugin uses (device 0 unless CUDA_VISIBLE_DEVICES says otherwise);
 * host pointers are refused (GCUT_ERR_INVALID), never copied silently.
 * The solver keeps its device arrays between solves of the same shape
 * (about (connectivity + 6) * 4 bytes per node).
 *
 * Threads: one solver per thread (distinct solvers may solve at once).
 */
#ifndef GCUT_DEVICE_H
#define GCUT_DEVICE_H

#include "gcut/common.h"
#include "gcut/graph.h"
#include "gcut/solve.h"

GCUT_BEGIN_C_DECLS

/** \brief Element types of device arrays. */
typedef enum gcut_dtype { GCUT_DTYPE_INT32 = 0, GCUT_DTYPE_FLOAT32 = 1 } gcut_dtype;

/** \brief What the device cut holds per node. */
enum {
    GCUT_DEVICE_CUT_LABELS = 0, /**< GCUT_SOURCE / GCUT_SINK bytes, as gcut_result_cut */
    GCUT_DEVICE_CUT_MASK = 1    /**< 1 on the source (foreground) side, 0 else: a bool mask */
};

/** \brief A grid problem in device memory (see the top of this file). */
typedef struct gcut_device_grid {
    int32_t width, height, depth; /**< depth 1 for images */
    int32_t connectivity;         /**< 4 or 8 (2D), 6, 18 or 26 (3D) */
    int32_t dtype;                /**< gcut_dtype of every array below */
    const void *cost_fg;          /**< num_nodes: cost of the foreground (source) label */
    const void *cost_bg;          /**< num_nodes: cost of the background (sink) label */
    const void *pair[13];         /**< per even direction 2j: num_nodes weights, or NULL */
    double pair_const;            /**< the weight where pair[j] is NULL */
    const void *caps[26];         /**< directed form (int32): per direction, or caps[0] NULL */
    const void *cap_source, *cap_sink; /**< directed form: terminal capacities */
    double scale;                 /**< float energies: 0 chooses it */
    void *cut;                    /**< num_nodes bytes, written on the device */
    int32_t cut_format;           /**< GCUT_DEVICE_CUT_LABELS or GCUT_DEVICE_CUT_MASK */
    uintptr_t stream;             /**< the caller's cudaStream_t (0: legacy default) */
    gcut_quantization *quant;     /**< float energies: the report (may be NULL) */
} gcut_device_grid;

/** Every field zero, cut_format LABELS. */
#define GCUT_DEVICE_GRID_INIT {0}

/** \brief A solver of device grids: the engine's device state, kept between solves. */
typedef struct gcut_device_solver gcut_device_solver;

/** \brief Create a solver for back end \p backend (NULL or "auto": cuda-grid).
 *  \returns GCUT_OK; GCUT_ERR_NOT_FOUND (no such back end, or one that
 *  cannot take device arrays: the message lists those that can);
 *  GCUT_ERR_UNAVAILABLE (no plugin, no device: the message says why);
 *  GCUT_ERR_NOMEM. */
GCUT_EXPORT gcut_status gcut_device_solver_new(gcut_device_solver **out, const char *backend);

/** \brief Solve \p dg; fills \p res with the flow and the statistics (no
 *  host cut: gcut_result_cut returns NULL) and \p dg->cut on the device.
 *  \p opt may be NULL; its backend field is ignored (the solver's), its
 *  time limit, progress callback and params (cuda-grid's) are honoured.
 *  \returns GCUT_OK; GCUT_ERR_INVALID (a bad field, a host pointer, a bad
 *  value found on the device); GCUT_ERR_OVERFLOW (a float energy past int32
 *  at the caller's scale); GCUT_ERR_DEVICE / GCUT_ERR_DEVICE_NOMEM;
 *  GCUT_ERR_TIMEOUT; GCUT_ERR_INTERRUPTED. */
GCUT_EXPORT gcut_status gcut_device_solver_solve(gcut_device_solver *s, const gcut_device_grid *dg,
                                                 const gcut_solve_options *opt, gcut_result *res);

/** \brief Free a solver and its device arrays (NULL is a no-op). */
GCUT_EXPORT void gcut_device_solver_free(gcut_device_solver *s);

/** \brief Whether device grids can be solved here; when not, *reason (may be
 *  NULL) says why (static string). */
GCUT_EXPORT int gcut_device_available(const char **reason);

/** \brief Device memory through the plugin, for callers with no CUDA runtime
 *  of their own (the Python package's gcut.DeviceArray, tests):
 *  allocate, free, and copy (cudaMemcpyDefault: any direction). */
GCUT_EXPORT gcut_status gcut_device_alloc(size_t bytes, void **ptr);
GCUT_EXPORT void gcut_device_free(void *ptr);
GCUT_EXPORT gcut_status gcut_device_copy(void *dst, const void *src, size_t bytes);

GCUT_END_C_DECLS

#endif /* GCUT_DEVICE_H */
