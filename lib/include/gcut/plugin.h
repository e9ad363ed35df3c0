/*
 * gcut/plugin.h - the engine ABI, for authors of back ends and plugins
 * (advanced; not included by gcut/gcut.h).
 *
 * A back end is a table of functions (gcut_backend). The problem arrives as
 * plain arrays (gcut_problem, or gcut_grid_problem for grid-native back
 * ends); the back end writes the flow value, the canonical cut and, when
 * asked, per-edge flows into a gcut_solution. The ABI is pure C.
 *
 * A plugin is a shared object named libgcut_<something>.so that exports one
 * symbol, gcut_plugin_entry (gcut_plugin_entry_fn): given the core's host
 * services, it hands back one gcut_plugin_descriptor listing its back ends,
 * its bipartite matchers (they join gcut_match's table, gcut/match.h) and
 * its named extensions (interfaces of other layers, such as the vision
 * layer's device energies, that the core looks up by name and version
 * without knowing them). A plugin whose descriptor has another
 * GCUT_PLUGIN_ABI_VERSION is refused: none of its back ends is listed, and
 * gcut_backend_available() gives the reason for the back ends a plugin is
 * expected to provide (cuda-csr, cuda-grid), listed as unavailable.
 *
 * Version 3 (gcut 0.2): one entry symbol returning a descriptor; settings
 * parser in the host services; registry and engine ABI in separate headers.
 * Version 4 (gcut 0.3): gcut_host_api.poll (time limit of the whole call,
 * cancelling and progress reports); host allocations count against the
 * call's memory budget.
 * Named extensions are versioned on their own and added without changing
 * this number: "gcut.grid.device" 1 (gcut 0.3), "gcut.grid.region" 2 (the
 * device regions of gcut_grid_solve_partitioned on one or several GPUs,
 * unreleased; 1 had one GPU and no device groups; 3 the initial state built
 * on the device; 4 the discharge chosen at create).
 */
#ifndef GCUT_PLUGIN_H
#define GCUT_PLUGIN_H

#include <stdarg.h>

#include "gcut/backend.h"
#include "gcut/common.h"
#include "gcut/graph.h"
#include "gcut/grid.h"
#include "gcut/match.h"
#include "gcut/solve.h"
#include "gcut/device.h"

GCUT_BEGIN_C_DECLS

/** Version of this ABI: every table below starts with it. */
#define GCUT_PLUGIN_ABI_VERSION 4

/** \brief One item of a settings string (gcut_solve_options.params): "key=value". */
typedef struct gcut_param {
    char key[32];
    char value[64];
} gcut_param;

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
    const gcut_rcsr *rcsr;       /**< set when the back end has GCUT_BACKEND_NEEDS_RCSR (with
                                      GCUT_BACKEND_LAYS_OUT: only when the graph holds one) */
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
    int32_t abi_version;     /**< GCUT_PLUGIN_ABI_VERSION */
    /** Record a failure (status, printf-style message) for gcut_last_error(); returns status. */
    gcut_status (*fail)(gcut_status status, const char *where, const char *fmt, ...);
    /** Log through the call's sink if \p level <= the call's verbosity (or is an error). */
    void (*log)(const gcut_solve_options *opt, gcut_log_level level, const char *fmt, ...);
    /** Monotonic clock in milliseconds. */
    double (*now_ms)(void);
    /** gcut's allocator. */
    void *(*malloc_fn)(size_t size);
    void (*free_fn)(void *ptr);
    /** The settings parser every back end shares (the same syntax and messages
     *  everywhere): items "key=value" separated by commas, no empty items. Takes
     *  the next item of *cursor: 1 with *out filled and *cursor advanced, 0 at the
     *  end (NULL or ""), -1 after recording GCUT_ERR_INVALID for malformed text;
     *  \p who names the back end in messages. */
    int (*param_next)(const char **cursor, const char *who, gcut_param *out);
    /** The item's value as a whole number in [lo, hi], else GCUT_ERR_INVALID recorded. */
    gcut_status (*param_int)(const gcut_param *p, const char *who, int64_t lo, int64_t hi,
                             int64_t *out);
    /** The item's value as a number >= lo, else GCUT_ERR_INVALID recorded. */
    gcut_status (*param_double)(const gcut_param *p, const char *who, double lo, double *out);
    /** Record GCUT_ERR_INVALID for an unknown key; \p known lists the back end's keys. */
    gcut_status (*param_unknown)(const gcut_param *p, const char *who, const char *known);
    /** (Since version 4.) The one check of a long-running engine, to call
     *  between rounds or launch batches (not from device code, and cheap
     *  enough for every few milliseconds): GCUT_OK to go on, else
     *  GCUT_ERR_TIMEOUT (the call's time limit, counted from the start of
     *  the public call, has passed) or GCUT_ERR_INTERRUPTED (the caller's
     *  progress callback asked to stop), already recorded with a message;
     *  the engine then cleans up and returns that status. It runs the
     *  progress callback at phase changes and at most every
     *  progress_interval_ms. \p phase is static ("upload", "solve", "cut",
     *  "flows" ...); \p remaining is a measure of the work left (-1:
     *  unknown) and \p remaining_what says what it counts (static; NULL
     *  when unknown). \p opt is the options the engine was given (it may
     *  be NULL). Host blocks from malloc_fn count against the call's
     *  memory budget (gcut_solve_options.max_memory): malloc_fn returns
     *  NULL past it. */
    gcut_status (*poll)(const gcut_solve_options *opt, const char *phase, int64_t remaining,
                        const char *remaining_what);
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

/** \brief A back end: a table of functions (docs/design.md section 3). */
typedef struct gcut_backend {
    int32_t abi_version;       /**< GCUT_PLUGIN_ABI_VERSION */
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
    {GCUT_PLUGIN_ABI_VERSION, (name_), (desc_), (caps_), (probe_), (create_),           \
     (solve_graph_), (solve_grid_), (destroy_)}

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
    double deadline_ms;      /**< host now_ms() limit of the whole call (GCUT_ERR_TIMEOUT past
                              *   it; host->poll checks it too); 1e300: none */
    const gcut_solve_options *log; /**< for host->log */
    gcut_match_stats *stats; /**< counters to fill (times are the core's) */
} gcut_match_problem;

/** \brief A matcher provided by a plugin; joins gcut_match's table after the
 *  CPU matchers, under its own name. Strings are static. */
typedef struct gcut_plugin_matcher {
    int32_t abi_version;     /**< GCUT_PLUGIN_ABI_VERSION */
    const char *name;        /**< "cuda-match-gpr" */
    const char *description;
    /** GCUT_OK, or GCUT_ERR_UNAVAILABLE with a static reason. */
    gcut_status (*probe)(const char **reason);
    gcut_status (*run)(const gcut_match_problem *p);
} gcut_plugin_matcher;

/* -------------------------------------------- device grids (optional, since 0.3) */

/** Name and version of the extension through which a grid back end solves
 *  grids given in device memory (gcut/device.h). */
#define GCUT_EXT_GRID_DEVICE "gcut.grid.device"
#define GCUT_EXT_GRID_DEVICE_VERSION 1

/** \brief The device-grid interface of a back end. \p state is one made by
 *  the back end's own create(). The core has checked the shape, the
 *  connectivity, the dtype and that the pointers are non-NULL; the plugin
 *  checks where they point and the values. \p dir_offset: dx, dy, dz of each
 *  direction (gcut/grid.h's table). sol->cut is NULL: the cut goes to dg->cut. */
typedef struct gcut_grid_device_ext {
    int32_t abi_version; /**< GCUT_PLUGIN_ABI_VERSION */
    gcut_status (*solve)(void *state, const gcut_device_grid *dg, const int32_t *dir_offset,
                         const gcut_solve_options *opt, gcut_solution *sol);
    gcut_status (*alloc)(size_t bytes, void **ptr);
    void (*free)(void *ptr);
    gcut_status (*copy)(void *dst, const void *src, size_t bytes);
} gcut_grid_device_ext;

/* ------------------------- device regions of a partitioned grid (optional, unreleased) */

/** Name and version of the extension through which a grid back end keeps
 *  one region (a slab of planes) of gcut_grid_solve_partitioned on its
 *  device (lib/dist/region.c has the host form of the same six operations;
 *  docs/distributed.md the algorithm). */
#define GCUT_EXT_GRID_REGION "gcut.grid.region"
#define GCUT_EXT_GRID_REGION_VERSION 4

/** The discharges of device regions (gcut_grid_region_init.discharge,
 *  version 4): cuda-grid's tiled push-relabel (the default), or the simple
 *  synchronous (Jacobi) push-relabel with one thread per node. */
#define GCUT_GRID_REGION_PR 0
#define GCUT_GRID_REGION_JACOBI 1

/** \brief A region to create: its shape and its capacities (version 3; the
 *  plugin builds the initial state on the device from them). Own nodes are
 *  0 .. nodes-1 in the slab's order; the neighbour of v in direction d is
 *  v + dir_step[d]; indices -plane .. -1 are the ghost plane below,
 *  nodes .. nodes+plane-1 the one above, and `pad` more label entries lie
 *  beyond each (their labels are d_inf, their arcs have residual 0).
 *  Own node v lies at x = v % width, row (v / width) % rows and plane
 *  first + v / plane of a grid of `planes` planes; an arc that leaves the
 *  grid gets residual 0 whatever its capacity. The capacity arrays are
 *  host memory or memory of any CUDA device (nodes entries each, NULL for
 *  all 0); a negative entry fails create with GCUT_ERR_INVALID. */
typedef struct gcut_grid_region_init {
    int32_t nodes;               /**< own nodes: plane * planes of the slab */
    int32_t plane;               /**< nodes per plane: width * rows */
    int32_t pad;                 /**< label entries beyond each ghost plane */
    int32_t num_dirs;            /**< the connectivity */
    int32_t d_inf;               /**< the label of "cannot reach the sink" */
    int32_t ncross;              /**< directions that cross to the next plane (<= 9) */
    int32_t dir_step[26];        /**< linear offset of each direction */
    int32_t up[9], down[9];      /**< crossing directions up (k) and back down (up[k] ^ 1) */
    int8_t dir_x[26], dir_row[26], dir_plane[26]; /**< each direction's step in x, row, plane */
    int32_t width;               /**< nodes per row */
    int32_t rows;                /**< rows per plane (1 for a 2-D grid, whose planes are rows) */
    int64_t first;               /**< the slab's first plane in the grid */
    int64_t planes;              /**< planes of the whole grid */
    const int32_t *cap[26];      /**< capacity of v -> v + dir_step[d], or NULL */
    const int32_t *cap_source;   /**< capacity of source -> v, or NULL */
    const int32_t *cap_sink;     /**< capacity of v -> sink, or NULL */
    int32_t relabel_every;       /**< jacobi: iterations between region-local relabels (0: default) */
    int32_t device;              /**< the device that keeps the region (a CUDA ordinal) */
    int32_t discharge;           /**< (version 4) GCUT_GRID_REGION_PR or GCUT_GRID_REGION_JACOBI */
} gcut_grid_region_init;

/** \brief One boundary message to deliver: the \p src_buf buffer of region
 *  \p src (0 or 1, a send buffer) into the \p dst_buf buffer of region \p dst
 *  (2 or 3, a receive buffer). */
typedef struct gcut_grid_region_move {
    void *dst;
    int32_t dst_buf;
    void *src;
    int32_t src_buf;
} gcut_grid_region_move;

/** \brief The device-region interface of a back end. A region is an opaque
 *  handle made by create. Every call returns GCUT_OK or a failure recorded
 *  through the host services. The message buffers (buffer: 0, 1 send
 *  toward the region below / above, 2, 3 receive from them) are device
 *  memory of msg_bytes(with_flows 1) each: the labels of the boundary
 *  plane (plane int32), then with flows ncross * plane uint32 of flow
 *  pushed into the neighbour's plane; copy moves bytes between them, or
 *  between one of them and host memory. */
typedef struct gcut_grid_region_ext {
    int32_t abi_version; /**< GCUT_PLUGIN_ABI_VERSION */
    gcut_status (*create)(const gcut_grid_region_init *init, void **region);
    void (*destroy)(void *region);
    /** Which neighbours exist (without one, the side's ghost labels stay d_inf). */
    void (*neighbours)(void *region, int lo, int hi);
    /** Push-relabel on the own nodes, ghost labels fixed, until no own node is
     *  active; adds its pushes, relabels and region-local relabels to the counts. */
    gcut_status (*discharge)(void *region, int64_t *pushes, int64_t *relabels,
                             int64_t *local_relabels);
    /** Own labels := exact distances to the sink within the region, ghost
     *  labels as distances; *changed: how many own labels changed (version
     *  4: or how many of the two boundary planes' labels, which is all the
     *  rounds of a global relabel read). */
    gcut_status (*relabel)(void *region, int64_t *changed);
    gcut_status (*reset_ghosts)(void *region);
    gcut_status (*active)(void *region, int64_t *count);
    gcut_status (*pack)(void *region, int with_flows);
    gcut_status (*unpack)(void *region, int with_flows);
    void *(*buffer)(void *region, int which);
    gcut_status (*copy)(void *dst, const void *src, size_t bytes);
    /** The own nodes' canonical cut (after a final global relabel) into host
     *  memory: \p sink for a finite label, \p source otherwise. */
    gcut_status (*cut)(void *region, uint8_t *cut, uint8_t sink, uint8_t source);
    gcut_status (*flow)(void *region, int64_t *flow);
    /** (Version 2.) The devices of one solve (distinct CUDA ordinals): the
     *  streams and, with several devices, the communicators through which
     *  their regions exchange (NCCL for a back end on GPUs of one node). */
    gcut_status (*group_new)(const int32_t *devices, int32_t count, void **group);
    void (*group_free)(void *group);
    /** Deliver \p count messages of \p bytes each between regions of the
     *  group's devices (copies within a device, sends and receives across
     *  devices); every move is complete when it returns. */
    gcut_status (*exchange)(void *group, const gcut_grid_region_move *moves, int32_t count,
                            size_t bytes);
    /** (Version 3.) out[0..3]: ms in discharges (their region-local
     *  relabels included), ms in region-local relabels, discharge
     *  iterations, relabel levels, since the region was made. */
    void (*profile)(void *region, double *out);
    /** (Version 3.) relabel when the ghost labels only went down since the
     *  last relabel (later rounds of a global relabel): the same labels,
     *  found from the lowered ones. */
    gcut_status (*relabel_update)(void *region, int64_t *changed);
} gcut_grid_region_ext;

/* ------------------------------------------------------------ the plugin entry */

/** \brief A named interface a plugin offers to another layer (e.g. the vision
 *  layer's device energies, "gcut.vision.seg"). The core keeps it and hands
 *  it to whoever asks for that name and version; it never reads \p table. */
typedef struct gcut_plugin_extension {
    const char *name;        /**< "layer.what", static */
    int32_t version;         /**< the interface's own version */
    const char *backend;     /**< the back end it belongs to, or NULL */
    const void *table;       /**< the interface (a struct the two layers agree on) */
} gcut_plugin_extension;

/** \brief Everything a plugin provides. All pointers are static (valid while the
 *  plugin is loaded, which is for the life of the process once accepted). */
typedef struct gcut_plugin_descriptor {
    int32_t abi_version;                        /**< GCUT_PLUGIN_ABI_VERSION: read first */
    const char *name;                           /**< "cuda" */
    const gcut_backend *const *backends;
    int32_t num_backends;
    const gcut_plugin_matcher *const *matchers; /**< may be NULL */
    int32_t num_matchers;
    const gcut_plugin_extension *extensions;    /**< may be NULL */
    int32_t num_extensions;
} gcut_plugin_descriptor;

/** \brief The one symbol a plugin exports. It stores its descriptor in *out and
 *  returns GCUT_OK, or returns GCUT_ERR_UNSUPPORTED when \p host->abi_version is
 *  not its own (then *out, when set, tells the version it speaks). \p host stays
 *  valid for the life of the process. */
typedef gcut_status (*gcut_plugin_entry_fn)(const gcut_host_api *host,
                                            const gcut_plugin_descriptor **out);
#define GCUT_PLUGIN_ENTRY_SYMBOL "gcut_plugin_entry"

GCUT_END_C_DECLS

#endif /* GCUT_PLUGIN_H */
