/*
 * gcut/grid.h - grids: the graphs of images and volumes.
 *
 * Vision graphs are lattices: every pixel or voxel has the same neighbours
 * and two terminal links. A gcut_grid stores them as dense arrays, with no
 * adjacency list: width x height x depth nodes (depth 1 for images), one
 * int32 capacity array per direction and two terminal arrays.
 *
 * Float energies (the usual way in): per node the cost of each label, per
 * neighbour pair a weight paid when the two labels differ,
 *
 *     E(x) = sum_v (x_v == FG ? cost_fg[v] : cost_bg[v])
 *          + sum_{pairs u-v} w_uv [x_u != x_v],     FG = GCUT_SOURCE, BG = GCUT_SINK
 *
 *     gcut_grid *g;
 *     gcut_grid_new(&g, w, h, 1, 4);                  // a 4-connected image
 *     const float *pair[2] = {w_right, w_down};       // w*h each: edges to (x+1,y), (x,y+1)
 *     gcut_grid_set_energy_dirs_f32(g, cost_fg, cost_bg, pair, 0, NULL);
 *     gcut_result *r;
 *     gcut_result_new(&r);
 *     gcut_grid_solve(g, NULL, r);                    // "auto": cpu-bk
 *     const uint8_t *mask = gcut_result_cut(r);       // w*h bytes, GCUT_SOURCE = FG
 *     gcut_quantization q;                            // the scale, and how far from
 *     gcut_grid_quantization(g, gcut_result_flow(r), &q);  // the float optimum: q.bound
 *
 * Integer capacities (the engines' own units):
 *
 *     gcut_grid_set_terminal_caps(g, cost_bg, cost_fg); // source cap = cost of BG (int32)
 *     for (int32_t d = 0; d < 4; d++)                 // +x, -x, +y, -y
 *         gcut_grid_set_caps(g, d, smooth[d]);        // w*h each
 *     gcut_grid_solve(g, NULL, r);
 *     // a user stroke: make a few pixels hard FG, solve again (warm)
 *     gcut_grid_set_terminal_cap(g, y * w + x, 1000000, 0);
 *     gcut_grid_solve(g, NULL, r);
 *
 * A node on the source side (GCUT_SOURCE) pays its sink capacity, one on
 * the sink side its source capacity: the source capacity is the cost of
 * the sink label and the other way round.
 *
 * Nodes. Node (x, y, z) has index v = x + width * (y + height * z); arrays
 * hold width * height * depth entries in that order (row-major images).
 *
 * Directions. Direction d of a node leads to the neighbour at offset
 * (dx, dy, dz). Directions come in opposite pairs: d and d ^ 1
 * (GCUT_GRID_OPPOSITE). The number of directions equals the connectivity,
 * and a lower connectivity is a prefix of a higher one of the same
 * dimension:
 *
 *     dir   2D (dx dy)   3D (dx dy dz)
 *       0   +1   0       +1   0   0
 *       1   -1   0       -1   0   0
 *       2    0  +1        0  +1   0
 *       3    0  -1        0  -1   0
 *       4   +1  +1        0   0  +1
 *       5   -1  -1        0   0  -1
 *       6   +1  -1       +1  +1   0
 *       7   -1  +1       -1  -1   0
 *       8                +1  -1   0
 *       9                -1  +1   0
 *      10                +1   0  +1
 *      11                -1   0  -1
 *      12                +1   0  -1
 *      13                -1   0  +1
 *      14                 0  +1  +1
 *      15                 0  -1  -1
 *      16                 0  +1  -1
 *      17                 0  -1  +1
 *      18                +1  +1  +1
 *      19                -1  -1  -1
 *      20                +1  +1  -1
 *      21                -1  -1  +1
 *      22                +1  -1  +1
 *      23                -1  +1  -1
 *      24                -1  +1  +1
 *      25                +1  -1  -1
 *
 * (gcut_grid_direction() returns the same table.)
 *
 * Capacities. caps[d][v] is the capacity of the arc from v to its neighbour
 * in direction d; the arc back is that neighbour's own entry in direction
 * d ^ 1, so each unordered neighbour pair has two independent capacities.
 * Entries of border nodes that would point outside the grid are stored (and
 * read back) but never used by any solve. The source array holds the
 * capacity from the source to each node, the sink array from each node to
 * the sink. All capacities are int32 >= 0; flows are int64. Unlike
 * gcut_graph_add_tweights, grid setters replace values, they do not add
 * (hence gcut_grid_set_terminal_cap, not "tweights": the names of 0.2,
 * gcut_grid_set_terminals, gcut_grid_set_terminals_range,
 * gcut_grid_set_tweights and gcut_grid_get_tweights, remain as deprecated
 * aliases of the same functions).
 *
 * Solving. gcut_grid_solve() takes the same options and fills the same
 * result as gcut_solve(): the flow value, the canonical cut (one byte per
 * node, GCUT_SOURCE or GCUT_SINK, the same bytes from every back end) and
 * statistics. Back ends with native grid support (caps bit
 * GCUT_BACKEND_GRID: cpu-bk) solve the arrays directly; any other back end
 * is given a gcut_graph converted once from the grid (gcut_grid_to_graph)
 * and kept until the grid changes. Per-edge flows are not offered for grids:
 * want_flows gives GCUT_ERR_UNSUPPORTED.
 *
 * Warm re-solve. A grid back end that keeps state (cpu-bk) leaves its final
 * residual graph and search trees in the grid handle. Every setter records
 * what it changed (whole-array setters record only entries whose value
 * differs), and the next solve with the same back end starts from the
 * previous flow, repairs it where capacities changed, and searches only
 * from there (Kohli & Torr's dynamic graph cuts). The result is exactly
 * that of a cold solve: the same flow value and the same canonical cut.
 * gcut_stats::warm_start says whether a solve was warm. A solve is cold
 * after a failed or interrupted solve, a change of back end, or changes to
 * n-links of more than about a quarter of the nodes (t-links may all
 * change: they replay warm). The kept state costs
 * (connectivity + 4) * 4 bytes and a bit per node; gcut_grid_set_warm_start(g, 0)
 * frees it and makes every solve cold.
 *
 * Memory: the grid keeps (connectivity + 2) * 4 bytes per node (24 for a
 * 4-connected image). cpu-bk adds (connectivity + 4) * 4 bytes and a bit
 * per node (32 for 4-connected) and nothing per edge: about 57 bytes per pixel in
 * all with the cut, against 176 for BK v3 on a general graph.
 */
#ifndef GCUT_GRID_H
#define GCUT_GRID_H

#include "gcut/common.h"
#include "gcut/graph.h"
#include "gcut/solve.h"

GCUT_BEGIN_C_DECLS

/** \brief Opaque grid handle. */
typedef struct gcut_grid gcut_grid;

/** \brief Most directions a grid can have (26-connectivity). */
#define GCUT_GRID_MAX_DIRS 26

/** \brief The direction opposite to \p dir. */
#define GCUT_GRID_OPPOSITE(dir) ((dir) ^ 1)

/** \brief Codes for the terminal arrays, accepted wherever a direction is
 *  (gcut_grid_set_caps, gcut_grid_caps, the fill callback ...). */
enum { GCUT_GRID_SOURCE_LINK = -1, GCUT_GRID_SINK_LINK = -2 };

/** \brief Create a grid of width x height x depth nodes with all capacities 0.
 *  \param connectivity 4 or 8 (then depth must be 1), or 6, 18 or 26.
 *  \returns GCUT_OK; GCUT_ERR_INVALID (a size < 1, a bad connectivity, NULL
 *  out); GCUT_ERR_OVERFLOW (more than INT32_MAX nodes); GCUT_ERR_NOMEM.
 *  \threadsafety Distinct grids may be used from distinct threads.
 *  \since 0.1 */
GCUT_EXPORT gcut_status gcut_grid_new(gcut_grid **out, int32_t width, int32_t height,
                                      int32_t depth, int32_t connectivity);

/** \brief Free a grid, its cached graph and its kept solver state. NULL is a no-op. */
GCUT_EXPORT void gcut_grid_free(gcut_grid *g);

GCUT_EXPORT int32_t gcut_grid_width(const gcut_grid *g);
GCUT_EXPORT int32_t gcut_grid_height(const gcut_grid *g);
GCUT_EXPORT int32_t gcut_grid_depth(const gcut_grid *g);
/** \brief The connectivity, which is also the number of directions. */
GCUT_EXPORT int32_t gcut_grid_connectivity(const gcut_grid *g);
/** \brief width * height * depth. */
GCUT_EXPORT int32_t gcut_grid_num_nodes(const gcut_grid *g);

/** \brief Offset of direction \p dir under \p connectivity (the table above).
 *  Any output may be NULL. \returns GCUT_ERR_INVALID for a bad pair. */
GCUT_EXPORT gcut_status gcut_grid_direction(int32_t connectivity, int32_t dir, int32_t *dx,
                                            int32_t *dy, int32_t *dz);

/* ------------------------------------------------------------- setting */

/** \brief Set a whole array: direction \p what (0 .. connectivity-1) or a
 *  terminal array (GCUT_GRID_SOURCE_LINK, GCUT_GRID_SINK_LINK) from
 *  \p caps (num_nodes entries, copied).
 *  \returns GCUT_ERR_INVALID (negative capacity: the message names the node;
 *  bad \p what; NULL) with the grid unchanged. O(num_nodes). */
GCUT_EXPORT gcut_status gcut_grid_set_caps(gcut_grid *g, int32_t what, const int32_t *caps);

/** \brief Set both terminal arrays: \p cap_source[v] from the source to v
 *  (what v pays on the sink side), \p cap_sink[v] from v to the sink (what
 *  v pays on the source side); num_nodes entries each, either may be NULL
 *  to leave it as it is. Validated first: on failure nothing changes.
 *  \since 0.3 (the same function as gcut_grid_set_terminals) */
GCUT_EXPORT gcut_status gcut_grid_set_terminal_caps(gcut_grid *g, const int32_t *cap_source,
                                                    const int32_t *cap_sink);

/** \brief Set entries first .. first+count-1 of one array (a stroke, a row).
 *  Validated first: on failure nothing changes. */
GCUT_EXPORT gcut_status gcut_grid_set_caps_range(gcut_grid *g, int32_t what, int32_t first,
                                                 int32_t count, const int32_t *caps);

/** \brief Set the terminal capacities of nodes first .. first+count-1 (either
 *  array may be NULL). Validated first.
 *  \since 0.3 (the same function as gcut_grid_set_terminals_range) */
GCUT_EXPORT gcut_status gcut_grid_set_terminal_caps_range(gcut_grid *g, int32_t first,
                                                          int32_t count, const int32_t *cap_source,
                                                          const int32_t *cap_sink);

/** \brief Set one capacity: node \p node, direction (or terminal code) \p what. */
GCUT_EXPORT gcut_status gcut_grid_set_cap(gcut_grid *g, int32_t node, int32_t what, int32_t cap);

/** \brief Set (replace, not add) the two terminal capacities of one node.
 *  \since 0.3 (the same function as gcut_grid_set_tweights) */
GCUT_EXPORT gcut_status gcut_grid_set_terminal_cap(gcut_grid *g, int32_t node, int32_t cap_source,
                                                   int32_t cap_sink);

/** \brief Deprecated name of gcut_grid_set_terminal_caps (kept working).
 *  Argument order: source capacities, then sink capacities. */
GCUT_EXPORT gcut_status gcut_grid_set_terminals(gcut_grid *g, const int32_t *source,
                                                const int32_t *sink);

/** \brief Deprecated name of gcut_grid_set_terminal_caps_range (kept working). */
GCUT_EXPORT gcut_status gcut_grid_set_terminals_range(gcut_grid *g, int32_t first, int32_t count,
                                                      const int32_t *source, const int32_t *sink);

/** \brief Deprecated name of gcut_grid_set_terminal_cap (kept working): it
 *  replaces, unlike gcut_graph_add_tweights, which adds. */
GCUT_EXPORT gcut_status gcut_grid_set_tweights(gcut_grid *g, int32_t node, int32_t source,
                                               int32_t sink);

/** \brief Capacity callback of gcut_grid_fill: the capacity of node (x, y, z)
 *  in direction \p what, or its source / sink capacity for the terminal codes. */
typedef int32_t (*gcut_grid_cap_fn)(void *user, int32_t x, int32_t y, int32_t z, int32_t what);

/** \brief Set every array from a function, called for every node, every
 *  direction whose neighbour is inside the grid, and both terminal codes
 *  (entries pointing outside become 0). Needs a second copy of the arrays
 *  while it runs. \returns GCUT_ERR_INVALID if the function returns a
 *  negative value (the grid is then unchanged), GCUT_ERR_NOMEM. */
GCUT_EXPORT gcut_status gcut_grid_fill(gcut_grid *g, gcut_grid_cap_fn fn, void *user);

/* ------------------------------------------------------------- reading */

/** \brief Read one capacity (direction or terminal code). */
GCUT_EXPORT gcut_status gcut_grid_get_cap(const gcut_grid *g, int32_t node, int32_t what,
                                          int32_t *cap);

/** \brief Read the terminal capacities of one node; either output may be NULL.
 *  \since 0.3 (the same function as gcut_grid_get_tweights) */
GCUT_EXPORT gcut_status gcut_grid_get_terminal_cap(const gcut_grid *g, int32_t node,
                                                   int32_t *cap_source, int32_t *cap_sink);

/** \brief Deprecated name of gcut_grid_get_terminal_cap (kept working). */
GCUT_EXPORT gcut_status gcut_grid_get_tweights(const gcut_grid *g, int32_t node, int32_t *source,
                                               int32_t *sink);

/** \brief The array of direction (or terminal code) \p what, num_nodes entries,
 *  read-only and owned by the grid; valid until the next change. NULL for a
 *  bad \p what. */
GCUT_EXPORT const int32_t *gcut_grid_caps(const gcut_grid *g, int32_t what);

/* ------------------------------------------------------ float energies
 *
 * Since 0.3. The library quantises: one scale for the whole grid, chosen
 * (scale 0: the largest power of two with which every node's terminal
 * capacity plus all its arcs, out and in, stays at most 2^28) or the
 * caller's (> 0), and a report of what rounding cost (gcut_quantization,
 * graph.h, which states the guarantee: the returned cut is a minimum cut
 * of the quantised problem and its float energy is within q.bound of the
 * float optimum). Every float entry point validates all its input first
 * (NaN, infinities and negative values where they have no meaning fail
 * with GCUT_ERR_INVALID naming the node and the direction; a value past
 * INT32_MAX at the caller's scale with GCUT_ERR_OVERFLOW) and on failure
 * changes nothing. They replace every array of the grid, through the
 * integer setters, so only the entries whose value changes are recorded
 * for a warm re-solve. Entries of border nodes that point outside the grid
 * are validated, then stored as 0. They need a scratch of 8 bytes per node
 * while they run.
 *
 * The energy of a labelling x (x_v = GCUT_SOURCE is FG, GCUT_SINK is BG):
 *
 *     E(x) = sum_v (x_v == FG ? cost_fg[v] : cost_bg[v])
 *          + sum over neighbour pairs {u, v} of w_uv [x_u != x_v]
 *
 * becomes, per node, the source capacity cost_bg - m and the sink
 * capacity cost_fg - m with m = min(cost_fg, cost_bg) (the report's offset
 * is the sum of the m), and per pair, w_uv on both arcs. Unary costs take
 * any sign; +INFINITY forbids a label (a hard constraint: the node's
 * t-link becomes 1 + its arcs, more than any cut through them, so the node
 * takes the other label in every minimum cut). Only the difference of a
 * node's two costs matters, and past the sum of its pair weights it only
 * fixes the node's side, so a t-link is clamped there (as in the vision
 * layer, vision/segment/energy.c): huge unary costs do not shrink the
 * scale, and changing them never overflows. */

/** \brief Set a whole energy with one pairwise weight array per pair direction.
 *
 *  \p cost_fg, \p cost_bg: num_nodes floats each, any sign, +INFINITY for
 *  a forbidden label (not both), no NaN or -INFINITY. \p pair: NULL (no
 *  pairwise terms) or connectivity / 2 pointers, one per even direction
 *  2j of the table above; pair[j][v] (finite, >= 0) is the weight of the
 *  edge between v and its neighbour in direction 2j, paid once when their
 *  labels differ (both arcs get it). pair[j] may be NULL (all zero). For
 *  4-connected images pair[0] is the edge to (x+1, y), pair[1] to (x, y+1).
 *  \p scale: 0 automatic, > 0 the caller's. \p q (may be NULL): the report,
 *  with q->energy NAN (use gcut_grid_quantization after the solve).
 *  \returns GCUT_OK; GCUT_ERR_INVALID (a bad value: named; NULL costs; bad
 *  scale); GCUT_ERR_OVERFLOW (caller's scale too large: named);
 *  GCUT_ERR_NOMEM. On failure nothing changes. O(num_nodes * connectivity).
 *  \since 0.3 */
GCUT_EXPORT gcut_status gcut_grid_set_energy_dirs_f32(gcut_grid *g, const float *cost_fg,
                                                      const float *cost_bg,
                                                      const float *const *pair, double scale,
                                                      gcut_quantization *q);

/** \brief Set a whole energy with one weight per node: the edge between
 *  neighbours u and v weighs (weight[u] + weight[v]) / 2, for every
 *  neighbour pair of the connectivity, diagonals included, with no
 *  distance factor (give gcut_grid_set_energy_dirs_f32 per-direction
 *  weights for that). \p weight may be NULL (no pairwise terms); its
 *  entries are finite and >= 0. Otherwise as gcut_grid_set_energy_dirs_f32.
 *  \since 0.3 */
GCUT_EXPORT gcut_status gcut_grid_set_energy_f32(gcut_grid *g, const float *cost_fg,
                                                 const float *cost_bg, const float *weight,
                                                 double scale, gcut_quantization *q);

/** \brief Replace the unary costs of an energy set by gcut_grid_set_energy_f32
 *  or gcut_grid_set_energy_dirs_f32, at the same scale, leaving every
 *  n-link as it is: after a change of colour models (a GrabCut iteration)
 *  the next solve replays only the t-links, warm. Never overflows (see the
 *  clamp above). The report's offset and bound are updated.
 *  \returns GCUT_ERR_STATE when the grid's energy was not set by one of
 *  those two calls; otherwise as gcut_grid_set_energy_dirs_f32.
 *  \since 0.3 */
GCUT_EXPORT gcut_status gcut_grid_set_unary_f32(gcut_grid *g, const float *cost_fg,
                                                const float *cost_bg, gcut_quantization *q);

/** \brief Set every capacity from floats (the general form).
 *
 *  \p caps: NULL or connectivity pointers; caps[d][v] (finite, >= 0) is the
 *  capacity of the arc from v to its neighbour in direction d; caps[d] may
 *  be NULL (all zero). \p cap_source, \p cap_sink: num_nodes floats each
 *  (finite, >= 0), or NULL (all zero). The energy of a cut is its capacity
 *  (offset 0). \p scale, \p q and the errors as
 *  gcut_grid_set_energy_dirs_f32.
 *  \since 0.3 */
GCUT_EXPORT gcut_status gcut_grid_set_caps_f32(gcut_grid *g, const float *const *caps,
                                               const float *cap_source, const float *cap_sink,
                                               double scale, gcut_quantization *q);

/** \brief The report of the last float setter, with q->energy = offset +
 *  \p flow / scale for the flow value of a solve of the grid since
 *  (gcut_result_flow): the quantised energy of that cut in float units,
 *  within q->bound of its float energy and of the float optimum.
 *  \returns GCUT_ERR_STATE if no float setter was used, or an integer
 *  setter (or gcut_grid_fill) changed a capacity since: the grid no longer
 *  holds the quantised float problem, and the guarantee does not apply
 *  (for a stroke, give +INFINITY costs to gcut_grid_set_unary_f32 instead);
 *  GCUT_ERR_INVALID.
 *  \since 0.3 */
GCUT_EXPORT gcut_status gcut_grid_quantization(const gcut_grid *g, int64_t flow,
                                               gcut_quantization *q);

/* ------------------------------------------------------------- solving */

/** \brief Maximum flow and canonical minimum cut of the grid.
 *
 *  As gcut_solve(): same options, same result (the cut has num_nodes bytes,
 *  in node order). With backend "auto" a grid-native CPU back end is chosen
 *  (see gcut_grid_backend_choose). Warm when it can be (see the top of this
 *  header); the answer never depends on it.
 *  \returns GCUT_OK; GCUT_ERR_UNSUPPORTED (want_flows); the errors of
 *  gcut_solve. On failure \p res is unchanged and the next solve is cold.
 *  \threadsafety A grid must not be used from two threads at once.
 *  Complexity: cpu-bk O(m n^2 |C|) worst case, close to linear on images;
 *  warm: about proportional to what the changes disturb. */
GCUT_EXPORT gcut_status gcut_grid_solve(gcut_grid *g, const gcut_solve_options *opt,
                                        gcut_result *res);

/** \brief Maximum flow and canonical minimum cut of the grid, solved as
 *  \p regions slabs of planes (z in 3-D, y in 2-D) discharged in turn
 *  (advanced; experimental).
 *
 *  The region-partitioned push-relabel of docs/distributed.md: the regions
 *  of one colour (even or odd among the non-empty ones) are discharged at
 *  the same time by the threads of opt->threads, then the regions exchange
 *  the flow pushed across their boundaries and their boundary labels; a
 *  global relabel across regions runs at the start and periodically. The
 *  answer is exact: the same flow value and the same canonical cut bytes
 *  as gcut_grid_solve with any back end. It is the single-process form of
 *  the MPI solve of gcut/dist.h and the reference for it.
 *
 *  \param regions >= 1; may pass the number of planes (regions left empty).
 *  \param planes NULL (an even split: region i has planes
 *  floor(i P / regions) .. floor((i+1) P / regions) - 1 of the P planes)
 *  or \p regions plane counts (>= 0, summing to P).
 *  \param opt NULL or options: threads (0: one per core, at most the
 *  regions of a colour), time_limit, progress, log; backend "cuda-grid"
 *  puts the regions on GPUs (docs/distributed.md), any other keeps CPU
 *  regions; params: "devices=0:1:..." and "relabel_every=N" (device
 *  regions), "discharge=pr" (push-relabel, the default) or "discharge=ard"
 *  (Shekhovtsov-Hlavac's augmenting-path region discharge: fewer sweeps
 *  where flow crosses regions; CPU regions only); another key is
 *  GCUT_ERR_INVALID. The stats report sweeps as rounds.
 *  \returns GCUT_OK; GCUT_ERR_INVALID (NULL, regions < 1, bad plane
 *  counts); GCUT_ERR_UNSUPPORTED (want_flows); GCUT_ERR_OVERFLOW (a region
 *  past 32-bit local indices); GCUT_ERR_NOMEM; GCUT_ERR_TIMEOUT,
 *  GCUT_ERR_INTERRUPTED. On failure \p res is unchanged. The grid's warm
 *  state is neither used nor changed.
 *  \threadsafety A grid must not be used from two threads at once.
 *  Memory: (connectivity + 6) * 4 bytes per node besides the grid.
 *  Complexity: O(n^2 m) push-relabel worst case, plus one global relabel
 *  (O(m) per round, a round per region crossing of the longest shortest
 *  path) every n / 2 relabels.
 *  \since 0.3 */
GCUT_EXPORT GCUT_EXPERIMENTAL gcut_status gcut_grid_solve_partitioned(gcut_grid *g, int32_t regions,
                                                                      const int32_t *planes,
                                                                      const gcut_solve_options *opt,
                                                                      gcut_result *res);

/** \brief One slab of a grid given by its own arrays (gcut_grid_solve_slabs).
 *  A slab's nodes are those of planes first .. first + planes - 1 (z of a
 *  volume, y of an image), in the grid's order (x fastest): plane * planes
 *  entries per array, plane = width * height for a volume, width for an
 *  image. \since 0.4 (experimental) */
typedef struct gcut_grid_slab {
    int64_t first;              /**< its first plane */
    int32_t planes;             /**< its planes, >= 1 */
    int32_t device;             /**< -1: host arrays (CPU regions, or cuda-grid's "devices="); d >= 0:
                                     CUDA device d keeps the slab's region (backend "cuda-grid") and
                                     its arrays are memory of that device (or host memory) */
    const int32_t *cap_source;  /**< source capacities (>= 0), or NULL for all 0 */
    const int32_t *cap_sink;    /**< sink capacities (>= 0), or NULL */
    const int32_t *cap[26];     /**< cap[d][v]: capacity of v -> its neighbour in direction d
                                     (gcut_grid_direction), or NULL; arcs leaving the grid are ignored */
    uint8_t *cut;               /**< out, host memory: one byte per node, GCUT_SOURCE or GCUT_SINK */
} gcut_grid_slab;

/** \brief Maximum flow and canonical minimum cut of a grid given as slabs
 *  of planes, each slab a region of the partitioned solve
 *  (gcut_grid_solve_partitioned) (advanced; experimental).
 *
 *  For grids that one gcut_grid cannot hold (past 2^31 - 1 nodes: the
 *  depth and the node count are 64-bit, each slab below 2^31 nodes) and
 *  for capacities already on GPUs: with opt->backend "cuda-grid" every
 *  slab's region is built on a GPU straight from its arrays (device memory
 *  of slab.device, or host memory; host slabs go to the devices of
 *  opt->params "devices=0:1:..." in contiguous runs, default device 0),
 *  and the boundaries go between GPUs over NCCL. Any other back end keeps
 *  CPU regions (host arrays only). The answer is exact: the flow and the
 *  canonical cut of gcut_grid_solve on the same grid.
 *
 *  \param slabs \p nslabs slabs, consecutive and in plane order, covering
 *  the grid; their arrays are read during the call only.
 *  \param flow out: the maximum flow value.
 *  \param stats NULL or out: times (init_ms holds building the regions),
 *  sweeps as rounds.
 *  \returns GCUT_OK; GCUT_ERR_INVALID (NULL, bad shape, slabs not
 *  consecutive or not covering the grid, a missing cut buffer, device
 *  slabs without cuda-grid, a negative capacity: the message names the
 *  node, or for device arrays the count and planes); GCUT_ERR_OVERFLOW (a
 *  slab past 32-bit local indices); GCUT_ERR_NOMEM,
 *  GCUT_ERR_DEVICE_NOMEM, GCUT_ERR_DEVICE, GCUT_ERR_UNAVAILABLE (no GPU or
 *  NCCL for several GPUs); GCUT_ERR_TIMEOUT, GCUT_ERR_INTERRUPTED. On
 *  failure the cut buffers hold nothing meaningful and *flow is unchanged.
 *  \threadsafety Reentrant.
 *  Memory: per slab, (connectivity + 6) * 4 bytes per node on the host
 *  (CPU regions) or about (connectivity + 7) * 4 + 8 on its GPU.
 *  \since 0.4 */
GCUT_EXPORT GCUT_EXPERIMENTAL gcut_status gcut_grid_solve_slabs(
    int32_t width, int32_t height, int64_t depth, int32_t connectivity,
    const gcut_grid_slab *slabs, int32_t nslabs, const gcut_solve_options *opt, int64_t *flow,
    gcut_stats *stats);

/** \brief The back end gcut_grid_solve would use for \p g with \p name ("auto",
 *  NULL or a name), and why. "auto" ($GCUT_BACKEND first) takes the first
 *  available grid-native CPU back end, then any grid-native one, then the
 *  choice of gcut_backend_choose for the converted graph (advanced). */
GCUT_EXPORT gcut_status gcut_grid_backend_choose(gcut_grid *g, const char *name, int32_t *index,
                                                 const char **reason);

/** \brief Turn warm re-solves on (the default) or off. Off frees the kept
 *  solver state now and after every solve (advanced). */
GCUT_EXPORT gcut_status gcut_grid_set_warm_start(gcut_grid *g, int enable);

/** \brief The equivalent general graph (advanced): node v of the grid is node v
 *  of the graph; for every node v in index order and every even direction d
 *  whose neighbour u is inside, one edge (v, u, caps[d][v], caps[d^1][u]);
 *  terminal capacities copied. The caller frees *out. */
GCUT_EXPORT gcut_status gcut_grid_to_graph(const gcut_grid *g, gcut_graph **out);

GCUT_END_C_DECLS

#endif /* GCUT_GRID_H */
