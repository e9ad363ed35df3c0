/*
 * gcut/backend.h - the back-end registry, and the plugin ABI (advanced).
 *
 * Listing what is there:
 *
 *     for (int32_t i = 0; i < gcut_backend_count(); i++) {
 *         const char *why;
 *         int ok = gcut_backend_available(i, &why);
 *         printf("%-10s %s %s\n", gcut_backend_name(i), ok ? "yes" : "no", why);
 *     }
 *
 * The registry holds the CPU back ends compiled into libgcut, then the back
 * ends of plugins loaded with dlopen at the first registry call: every
 * `libgcut_*.so` named in $GCUT_PLUGIN_PATH (a colon-separated list of files
 * or folders), then libgcut_cuda.so next to libgcut itself. A plugin that is
 * missing or fails to load is reported, never fatal: its back ends are listed
 * as unavailable with the reason.
 *
 * Writing a back end: fill a gcut_backend table (GCUT_BACKEND_ASSIGN) and,
 * in a plugin, export gcut_plugin_entry. The problem arrives as plain arrays
 * (gcut_problem); the back end writes the flow value, the canonical cut and,
 * when asked, per-edge flows into a gcut_solution. The ABI is pure C.
 *
 * A plugin may also export gcut_plugin_matchers (optional): bipartite
 * matchers that join gcut_match's own table (gcut/match.h), not this registry;
 * gcut_plugin_mrf (optional): alpha-expansion run on its device; and
 * gcut_plugin_seg (optional): the segmentation energies of
 * gcut/vision/segment.h evaluated on its device.
 */
#ifndef GCUT_BACKEND_H
#define GCUT_BACKEND_H

#include <stdarg.h>

#include "gcut/common.h"
#include "gcut/graph.h"
#include "gcut/grid.h"
#include "gcut/match.h"
#include "gcut/solve.h"

GCUT_BEGIN_C_DECLS

/* ------------------------------------------------------------------ registry */

/** \brief Number of registered back ends (CPU ones first, then plugins'). */
GCUT_EXPORT int32_t gcut_backend_count(void);
/** \brief Name of back end \p i ("cpu-bk" ...), or NULL if out of range. */
GCUT_EXPORT const char *gcut_backend_name(int32_t i);
/** \brief One-line description of back end \p i. */
GCUT_EXPORT const char *gcut_backend_description(int32_t i);
/** \brief GCUT_BACKEND_* capability bits of back end \p i. */
GCUT_EXPORT uint32_t gcut_backend_caps(int32_t i);
/** \brief Whether back end \p i can run here; \p reason (optional) receives "ok"
 *  or why not ("no CUDA device", "plugin not found: ..."). The probe runs once. */
GCUT_EXPORT int gcut_backend_available(int32_t i, const char **reason);
/** \brief Index of the back end called \p name. */
GCUT_EXPORT gcut_status gcut_backend_find(const char *name, int32_t *index);
/** \brief The back end gcut_solve would use for \p g with \p name ("auto", NULL or a
 *  name), and why. For a name, fails unless it exists and is available. */
GCUT_EXPORT gcut_status gcut_backend_choose(const gcut_graph *g, const char *name, int32_t *index,
                                            const char **reason);

/* ---------------------------------------------------------- plugin ABI (v2) */

#define GCUT_BACKEND_ABI_VERSION 2 /* 2: gcut_mrf_plugin.swap */

/** Capability bits of a back end. */
enum {
    GCUT_BACKEND_GRAPH = 1u << 0,      /**< solves general graphs (solve_graph) */
    GCUT_BACKEND_GRID = 1u << 1,       /**< solves grids natively (solve_grid) */
    GCUT_BACKEND_FLOWS = 1u << 2,      /**< can return per-edge flows */
    GCUT_BACKEND_THREADS = 1u << 3,    /**< uses the threads option */
    GCUT_BACKEND_GPU = 1u << 4,        /**< runs on a GPU */
    GCUT_BACKEND_NEEDS_BCSR = 1u << 5, /**< wants gcut_problem.bcsr */
    GCUT_BACKEND_NEEDS_RCSR = 1u << 6, /**< wants gcut_problem.rcsr */
    GCUT_BACKEND_REFERENCE = 1u << 7   /**< a reference solver: never chosen by auto */
};

/** \brief Bidirectional CSR: every edge u-v with a positive capacity in either
 *  direction gives two arcs, u->v (cap) and v->u (rev_cap), each listed under
 *  its tail and each other's sister. Self-loops and edges with both
 *  capacities 0 are left out. Within a node, arcs follow edge order. */
typedef struct gcut_bcsr {
    int32_t n;              /**< nodes */
    int64_t m;              /**< arcs (even) */
    const int64_t *first;   /**< n + 1 offsets: the arcs of v are first[v] .. first[v+1]-1 */
    const int32_t *head;    /**< m: head node of each arc */
    const int64_t *sister;  /**< m: index of the reverse arc */
    const int32_t *cap;     /**< m: capacity of each arc */
    const int64_t *edge;    /**< m: 2 * edge id + (1 if the arc runs v->u, 0 if u->v) */
} gcut_bcsr;

/** \brief Forward CSR plus reversed CSR (ECL-MaxFlow's layout): the directed
 *  arcs with positive capacity (u->v for cap > 0, v->u for rev_cap > 0),
 *  sorted by tail, and for every node the list of arcs entering it as
 *  indices into the forward arrays. Residuals follow from one flow per
 *  forward arc: forward residual cap - f, backward residual f. */
typedef struct gcut_rcsr {
    int32_t n;              /**< nodes */
    int64_t m;              /**< forward arcs */
    const int64_t *row;     /**< n + 1 */
    const int32_t *col;     /**< m: head of each forward arc */
    const int32_t *cap;     /**< m */
    const int64_t *rrow;    /**< n + 1: arcs entering v are rmap[rrow[v] .. rrow[v+1]-1] */
    const int32_t *rcol;    /**< m: tail of each entering arc */
    const int64_t *rmap;    /**< m: forward index of each entering arc */
    const int64_t *edge;    /**< m: 2 * edge id + (1 if the arc runs v->u) */
} gcut_rcsr;

/** \brief What a back end is given to solve (all arrays read-only, owned by the core). */
typedef struct gcut_problem {
    int32_t num_nodes;
    int64_t num_edges;
    const int32_t *edge_u;       /**< num_edges */
    const int32_t *edge_v;
    const int32_t *edge_cap;
    const int32_t *edge_rev_cap;
    const int32_t *cap_source;   /**< num_nodes */
    const int32_t *cap_sink;     /**< num_nodes */
    const gcut_bcsr *bcsr;       /**< set when the back end has GCUT_BACKEND_NEEDS_BCSR */
    const gcut_rcsr *rcsr;       /**< set when the back end has GCUT_BACKEND_NEEDS_RCSR */
} gcut_problem;

/** \brief Where a back end writes its answer (buffers owned by the core). */
typedef struct gcut_solution {
    int64_t flow;            /**< out: the maximum flow value */
    uint8_t *cut;            /**< out: num_nodes bytes, the canonical cut */
    int32_t *edge_flows;     /**< out, when non-NULL: num_edges per-edge flows */
    gcut_stats *stats;       /**< out: counters and init/solve/flow/cut/transfer times */
} gcut_solution;

/** \brief Services of the core offered to back ends (so plugins need not link libgcut). */
typedef struct gcut_host_api {
    int32_t abi_version;
    /** Record a failure (status, printf-style message) for gcut_last_error(); returns status. */
    gcut_status (*fail)(gcut_status status, const char *where, const char *fmt, ...);
    /** Log through the call's sink if \p level <= the call's verbosity (or is an error). */
    void (*log)(const gcut_solve_options *opt, gcut_log_level level, const char *fmt, ...);
    /** Monotonic clock in milliseconds. */
    double (*now_ms)(void);
    /** gcut's allocator. */
    void *(*malloc_fn)(size_t size);
    void (*free_fn)(void *ptr);
} gcut_host_api;

/** \brief One change recorded on a grid since its previous solve (warm start). */
typedef struct gcut_grid_change {
    int32_t node;  /**< the node whose entry changed */
    int32_t what;  /**< direction 0 .. num_dirs-1, GCUT_GRID_SOURCE_LINK or GCUT_GRID_SINK_LINK */
    int32_t delta; /**< new capacity - old capacity (fits: both are in [0, INT32_MAX]) */
} gcut_grid_change;

/** \brief What a grid back end is given to solve (gcut/grid.h explains the
 *  node order and the directions). All arrays are read-only and owned by
 *  the core. Entries of cap[d] whose neighbour would be outside the grid
 *  hold arbitrary values and must be ignored.
 *
 *  Warm start: when \p warm is non-zero, the back end's state (from its
 *  create) was last used by a successful solve_grid of this same grid, and
 *  \p changes lists, in order, every change made since; applying their
 *  deltas to the capacities of that solve gives the arrays here. A back end
 *  may always ignore it and solve cold. When \p warm is 0 the state may hold
 *  anything and must not be trusted. Either way the answer must be that of
 *  a cold solve; set stats->warm_start to 1 when the state was reused. */
typedef struct gcut_grid_problem {
    int32_t width, height, depth;
    int32_t connectivity;
    int32_t num_dirs;               /**< == connectivity */
    int32_t num_nodes;              /**< width * height * depth */
    const int32_t *dir_offset;      /**< 3 * num_dirs: dx, dy, dz of direction d at 3d */
    const int32_t *const *cap;      /**< num_dirs arrays of num_nodes: cap[d][v], v -> neighbour */
    const int32_t *cap_source;      /**< num_nodes */
    const int32_t *cap_sink;        /**< num_nodes */
    int32_t warm;                   /**< non-zero: the state holds this grid's previous solve */
    int64_t num_changes;
    const gcut_grid_change *changes;
} gcut_grid_problem;

/** \brief A back end: a table of functions (DESIGN.md section 3). */
typedef struct gcut_backend {
    int32_t abi_version;       /**< GCUT_BACKEND_ABI_VERSION */
    const char *name;
    const char *description;
    uint32_t caps;
    /** Load libraries and look for a device; never fails hard. Returns GCUT_OK or
     *  GCUT_ERR_UNAVAILABLE with *reason set to a static string. */
    gcut_status (*probe)(const char **reason);
    /** Optional persistent state (may be NULL: state is then NULL). */
    gcut_status (*create)(void **state);
    gcut_status (*solve_graph)(void *state, const gcut_problem *p, const gcut_solve_options *opt,
                               gcut_solution *sol);
    gcut_status (*solve_grid)(void *state, const gcut_grid_problem *p,
                              const gcut_solve_options *opt, gcut_solution *sol);
    void (*destroy)(void *state);
} gcut_backend;

/** Fill a gcut_backend table in one line. */
#define GCUT_BACKEND_ASSIGN(name_, desc_, caps_, probe_, create_, solve_graph_, solve_grid_, \
                            destroy_)                                                    \
    {GCUT_BACKEND_ABI_VERSION, (name_), (desc_), (caps_), (probe_), (create_),           \
     (solve_graph_), (solve_grid_), (destroy_)}

/** The one symbol a plugin exports: hand back its back ends. \p host stays valid
 *  for the life of the process. */
typedef gcut_status (*gcut_plugin_entry_fn)(const gcut_host_api *host,
                                            const gcut_backend *const **backends,
                                            int32_t *count);
#define GCUT_PLUGIN_ENTRY_SYMBOL "gcut_plugin_entry"

/* -------------------------------------------------- plugin matchers (optional) */

/** \brief What a plugin matcher is given (gcut/match.h). The graph arrays are
 *  read-only and owned by the core; the mates arrive holding a valid matching
 *  (mates of rows and columns, -1 when free) and must leave holding a maximum
 *  one, consistent both ways. */
typedef struct gcut_match_problem {
    int32_t rows, cols;
    int64_t edges;
    const int64_t *row_ptr;  /**< rows + 1: the columns of row r are row_adj[row_ptr[r] ..] */
    const int32_t *row_adj;  /**< edges */
    const int64_t *col_ptr;  /**< cols + 1: the rows of column c are col_adj[col_ptr[c] ..] */
    const int32_t *col_adj;  /**< edges */
    int32_t *row_mates;      /**< rows, in and out */
    int32_t *col_mates;      /**< cols, in and out */
    double deadline_ms;      /**< host now_ms() limit (GCUT_ERR_TIMEOUT past it); 1e300: none */
    const gcut_solve_options *log; /**< for host->log */
    gcut_match_stats *stats; /**< counters to fill (times are the core's) */
} gcut_match_problem;

/** \brief A matcher provided by a plugin; joins gcut_match's table after the
 *  CPU matchers, under its own name. Strings are static. */
typedef struct gcut_plugin_matcher {
    int32_t abi_version;     /**< GCUT_BACKEND_ABI_VERSION */
    const char *name;        /**< "cuda-match-gpr" */
    const char *description;
    /** GCUT_OK, or GCUT_ERR_UNAVAILABLE with a static reason. */
    gcut_status (*probe)(const char **reason);
    gcut_status (*run)(const gcut_match_problem *p);
} gcut_plugin_matcher;

/** The optional second symbol of a plugin, looked up in the same dlopen handle
 *  after gcut_plugin_entry succeeded: hand back its matchers. */
typedef gcut_status (*gcut_plugin_matchers_fn)(const gcut_host_api *host,
                                               const gcut_plugin_matcher *const **matchers,
                                               int32_t *count);
#define GCUT_PLUGIN_MATCHERS_SYMBOL "gcut_plugin_matchers"

/* ------------------------------------------- plugin multi-label moves (optional) */

/** \brief A multi-label energy for a plugin's device-side alpha-expansion
 *  or alpha-beta swap (gcut/vision/mrf.h explains the energy and the move
 *  graphs). Arrays are read-only and owned by the caller, except \p labels. */
typedef struct gcut_mrf_problem {
    int32_t width, height, depth;
    int32_t connectivity;          /**< 4, 8, 6, 18 or 26 (grid.h's directions) */
    int32_t num_labels;            /**< L */
    int32_t num_nodes;             /**< width * height * depth */
    const int32_t *dir_offset;     /**< 3 * connectivity: dx, dy, dz of direction d */
    const int32_t *unary;          /**< num_nodes * L: unary[v * L + l] >= 0 */
    const int32_t *V;              /**< L * L: a metric for expansion, a semi-metric for
                                        swap (checked by the caller) */
    const int32_t *const *weight;  /**< connectivity / 2 arrays (even directions, entry of
                                        the pair's first node), NULL entries = 1 */
    int32_t max_cycles;
    int64_t moves_per_cycle;       /**< L (expansion) or L (L - 1) / 2 (swap) */
    /** Writes the moves of cycle \p cycle (from 1), in order, to \p moves:
     *  expansion, moves_per_cycle labels; swap, moves_per_cycle pairs
     *  (alpha, beta), alpha < beta, two entries each. A swap pair whose two
     *  labels are both unused when its turn comes is skipped (not counted
     *  as a move). */
    void (*cycle_moves)(void *user, int32_t cycle, int32_t *moves);
    void *moves_user;
    int32_t *labels;               /**< in: the start labelling; out: the result */
    int64_t energy;                /**< in: the start labelling's energy */
    const gcut_solve_options *opt; /**< of the move solves (time limit, log) */
    /** Called after each move when non-NULL (cycle from 1, label, energy, ms). */
    void (*progress)(void *user, int32_t cycle, int32_t label, int64_t energy, double ms);
    void *progress_user;
} gcut_mrf_problem;

/** \brief What a device-side expansion or swap reports (arrays owned by the caller). */
typedef struct gcut_mrf_report {
    int64_t energy;                /**< of the result */
    int32_t cycles, moves, moves_accepted;
    double build_ms, solve_ms, max_move_ms;
    int64_t *cycle_energy;         /**< max_cycles entries: E after each cycle */
    double *cycle_ms;              /**< max_cycles entries */
} gcut_mrf_report;

/** \brief Alpha-expansion and alpha-beta swap run entirely on a plugin's
 *  device: the unary table, the labelling and each move's graph stay there.
 *  Both must give exactly the labelling of the core's loop (moves applied
 *  only when they lower E strictly; the canonical cut decides each move). */
typedef struct gcut_mrf_plugin {
    int32_t abi_version;           /**< GCUT_BACKEND_ABI_VERSION */
    const char *backend;           /**< the grid back end it belongs to ("cuda-grid") */
    gcut_status (*expand)(const gcut_mrf_problem *p, gcut_mrf_report *r);
    gcut_status (*swap)(const gcut_mrf_problem *p, gcut_mrf_report *r); /**< or NULL */
} gcut_mrf_plugin;

/** The optional third symbol of a plugin: its device-side multi-label moves. */
typedef gcut_status (*gcut_plugin_mrf_fn)(const gcut_host_api *host,
                                          const gcut_mrf_plugin *const **list, int32_t *count);
#define GCUT_PLUGIN_MRF_SYMBOL "gcut_plugin_mrf"

/* ------------------------------------ plugin segmentation energies (optional) */

/** Version of the segmentation-energy interface below; the core asks for this
 *  one and a plugin that does not speak it offers nothing. */
#define GCUT_SEG_PLUGIN_VERSION 1

/** Most GMM components per class the interface carries. */
#define GCUT_SEG_PLUGIN_MAX_K 16

/** Doubles per set of moments: count; sums of r, g, b; sums of rr, rg, rb,
 *  gg, gb, bb (in that order). */
#define GCUT_SEG_MOMENTS 10

/** Kinds of colour model (gcut_seg_dev_model.kind). */
enum { GCUT_SEG_DEV_GMM = 0, GCUT_SEG_DEV_HISTOGRAM = 1 };

/** \brief One class's colour model, as the device evaluates it (the vision
 *  layer's models, docs/segmentation.md). A GMM component c contributes
 *  log(pi_c N_c(x)) = logc[c] - Q_c(x - mean[c]) / 2, Q_c the quadratic form
 *  with coefficients inv[c] = xx, 2xy, 2xz, yy, 2yz, zz of the inverse
 *  covariance; only components with live[c] != 0 count. A histogram gives
 *  hist_nll[cell] for the colour's cell. */
typedef struct gcut_seg_dev_model {
    int32_t kind;                               /**< GCUT_SEG_DEV_* */
    int32_t k;                                  /**< GMM: components (1..16) */
    int32_t live[GCUT_SEG_PLUGIN_MAX_K];        /**< GMM: non-zero for weight > 0 */
    float mean[GCUT_SEG_PLUGIN_MAX_K][3];
    float inv[GCUT_SEG_PLUGIN_MAX_K][6];
    float logc[GCUT_SEG_PLUGIN_MAX_K];
    int32_t bins;                               /**< histogram: bins per channel (2..64) */
    const float *hist_nll;                      /**< histogram: bins^3 costs (host) */
} gcut_seg_dev_model;

/** \brief A rectangle of the image: the part that becomes the grid. */
typedef struct gcut_seg_rect {
    int32_t x0, y0, w, h;
} gcut_seg_rect;

/** Byte arrays of the image a device keeps (gcut_seg_plugin.set_bytes). */
enum { GCUT_SEG_BYTES_SEEDS = 0, GCUT_SEG_BYTES_SELECT = 1 };

/** Kinds of pass over the selected pixels (gcut_seg_pass.mode). */
enum {
    GCUT_SEG_PASS_START = 0,    /**< comp = 0 */
    GCUT_SEG_PASS_SPLIT = 1,    /**< comp == widest and axis . x > thr: comp = used */
    GCUT_SEG_PASS_ASSIGN = 2,   /**< comp = the model's most likely component */
    GCUT_SEG_PASS_FROM_DATA = 3 /**< comp = that of the last data pass, of class `fg` */
};

/** \brief One pass over the pixels p with select[p] == want (the SELECT
 *  bytes): set their component comp[p] (a device array, one per class:
 *  index `fg`) as `mode` says, then sum the moments of the pixels by
 *  component (component c >= k counts as 0) into moments[c *
 *  GCUT_SEG_MOMENTS ..] for c < k; a SPLIT pass counts only the pixels
 *  whose component was `widest`. Sums are in double, deterministic, and
 *  exact whenever the colours are whole numbers (8-bit images). */
typedef struct gcut_seg_pass {
    int32_t mode;                  /**< GCUT_SEG_PASS_* */
    int32_t fg;                    /**< 1: the foreground's arrays, 0: the background's */
    uint8_t want;
    int32_t k;                     /**< components (1..16) */
    int32_t widest, used;          /**< SPLIT */
    double axis[3], thr;           /**< SPLIT: proj = axis[0] r + axis[1] g + axis[2] b in double */
    const gcut_seg_dev_model *model;   /**< ASSIGN: a GMM */
} gcut_seg_pass;

/** \brief What a device's energy evaluation reports (cumulative). */
typedef struct gcut_seg_plugin_stats {
    double upload_ms, download_ms;   /**< host time spent in the copies */
    int64_t upload_bytes, download_bytes;
    double kernel_ms;                /**< device time of the kernels (events) */
} gcut_seg_plugin_stats;

/** \brief The segmentation energy of gcut/vision/segment.h (docs/segmentation.md,
 *  vision/energy.c) evaluated on a plugin's device, for a session whose back
 *  end is `backend`. The state holds the image (3 floats per pixel in
 *  [0, 255]) and what the calls computed from it; every result is also
 *  written to the caller's host arrays. The results must be those of the
 *  vision layer's CPU code bit for bit (the same formulas, evaluated in the
 *  same order: vision/segment_math_internal.h), except where a call says
 *  otherwise. All calls return GCUT_OK or fail with gcut_last_error() set
 *  (GCUT_ERR_DEVICE_NOMEM when the device is full: the caller then goes on
 *  on the CPU). A state is used by one thread at a time. */
typedef struct gcut_seg_plugin {
    int32_t abi_version;           /**< GCUT_BACKEND_ABI_VERSION */
    int32_t version;               /**< GCUT_SEG_PLUGIN_VERSION */
    const char *backend;           /**< the grid back end it belongs to ("cuda-grid") */
    /** Upload the image (width * height pixels, rgb: 3 floats each). */
    gcut_status (*create)(int32_t width, int32_t height, const float *rgb, void **state);
    void (*destroy)(void *state);
    /** beta = 1 / (2 <|I_p - I_q|^2>) over the pairs of the connectivity (4 or 8)
     *  into *beta, and the pair weights lambda exp(-beta |I_p - I_q|^2) / dist
     *  into pair[j] (connectivity / 2 host arrays of width * height floats). */
    gcut_status (*smoothness)(void *state, int32_t connectivity, double lambda, double *beta,
                              float *const *pair);
    /** Keep a byte per pixel (GCUT_SEG_BYTES_SEEDS: the seeds, 0 unknown,
     *  1 foreground, 2 background; GCUT_SEG_BYTES_SELECT: the class
     *  selector of gmm_pass). */
    gcut_status (*set_bytes)(void *state, int32_t which, const uint8_t *bytes);
    /** One pass of GMM learning; moments: k * GCUT_SEG_MOMENTS doubles (host). */
    gcut_status (*gmm_pass)(void *state, const gcut_seg_pass *pass, double *moments);
    /** Data costs: the background model's cost (and GMM component) of every
     *  pixel, the foreground's inside `box`; outside it a pixel gets the
     *  cost of its seed class in both arrays (the foreground's is the GMM
     *  polynomial evaluation: the caller redoes those few pixels when it
     *  wants libm's). Host outputs of width * height each; comp_* may be NULL. */
    gcut_status (*data)(void *state, gcut_seg_rect box, const gcut_seg_dev_model *fg,
                        const gcut_seg_dev_model *bg, float *dfg, float *dbg, uint8_t *comp_fg,
                        uint8_t *comp_bg);
    /** max over the box of 4 * (sum of the pixel's pair weights), for the scale. */
    gcut_status (*worst)(void *state, gcut_seg_rect box, double *worst);
    /** The box's n-links in direction `dir` (grid.h's 2D order, below the
     *  connectivity) quantised at `scale`, 0 towards pixels outside the box:
     *  box.w * box.h int32 into caps (host), the array gcut_grid_set_caps takes. */
    gcut_status (*links)(void *state, gcut_seg_rect box, double scale, int32_t dir,
                         int32_t *caps);
    /** The box's t-links at `scale` from the seeds, the data costs of the last
     *  data call and the folded terms of the fixed pixels around the box;
     *  `rebase` non-zero recomputes the folded part (after the seeds, the box
     *  or the scale changed). Host outputs of box.w * box.h. */
    gcut_status (*terminals)(void *state, gcut_seg_rect box, double scale, int32_t rebase,
                             int32_t *source, int32_t *sink);
    /** Counters since create. */
    void (*stats)(void *state, gcut_seg_plugin_stats *out);
} gcut_seg_plugin;

/** The optional fourth symbol of a plugin: its device-side segmentation
 *  energies. The core passes the interface version it speaks; a plugin
 *  that does not speak it returns GCUT_ERR_UNSUPPORTED. */
typedef gcut_status (*gcut_plugin_seg_fn)(const gcut_host_api *host, int32_t version,
                                          const gcut_seg_plugin *const **list, int32_t *count);
#define GCUT_PLUGIN_SEG_SYMBOL "gcut_plugin_seg"

GCUT_END_C_DECLS

#endif /* GCUT_BACKEND_H */
