/*
 * grid.c - the gcut_grid object (docs/design.md section 2): a lattice stored as
 * dense arrays, its conversion to a general graph for back ends that only
 * solve graphs, and the bookkeeping of warm re-solves.
 *
 * Storage: one block of (conn + 2) * n int32, the direction arrays first
 * (cap[d][v]: the arc from v to its neighbour in direction d), then the
 * source and the sink array. Nothing per edge: neighbours follow from the
 * index. Entries that point outside the grid are kept but never used.
 *
 * Warm start: a grid-native back end's state lives here between solves
 * (CONTRIBUTING.md rule 23: the grid owns the state, the back end's solve_grid is
 * the driver). While that state is valid, every setter appends what it
 * changed, as (node, what, delta), to a log that the next solve hands to
 * the back end. The log is bounded (every t-link of the grid once, and
 * n-links of a quarter of the nodes): past that a cold solve is as cheap
 * as replaying it, so the state is declared stale instead. Failures of the log's own growth do the same;
 * they never make a setter fail.
 *
 * Every setter validates all its input before it writes anything, so a
 * failed call leaves the grid as it was (docs/design.md section 4).
 */
#include <stdlib.h>
#include <string.h>

#include "solve/solve_internal.h"
#include "graph/graph_internal.h"
#include "grid/grid_internal.h"

/* The direction tables of grid.h. Pairs (2k, 2k+1) are opposites; each
 * connectivity is a prefix of the larger one of its dimension. */
static const int32_t dirs_2d[8 * 3] = {
    1, 0, 0,  -1, 0, 0,  0, 1, 0,  0, -1, 0,
    1, 1, 0,  -1, -1, 0, 1, -1, 0, -1, 1, 0,
};
static const int32_t dirs_3d[26 * 3] = {
    1, 0, 0,   -1, 0, 0,   0, 1, 0,   0, -1, 0,   0, 0, 1,    0, 0, -1,
    1, 1, 0,   -1, -1, 0,  1, -1, 0,  -1, 1, 0,   1, 0, 1,    -1, 0, -1,
    1, 0, -1,  -1, 0, 1,   0, 1, 1,   0, -1, -1,  0, 1, -1,   0, -1, 1,
    1, 1, 1,   -1, -1, -1, 1, 1, -1,  -1, -1, 1,  1, -1, 1,   -1, 1, -1,
    -1, 1, 1,  1, -1, -1,
};

const int32_t *gcut_i_grid_offsets(int32_t connectivity)
{
    switch (connectivity) {
    case 4:
    case 8: return dirs_2d;
    case 6:
    case 18:
    case 26: return dirs_3d;
    default: return NULL;
    }
}

gcut_status gcut_grid_direction(int32_t connectivity, int32_t dir, int32_t *dx, int32_t *dy,
                                int32_t *dz)
{
    const int32_t *t = gcut_i_grid_offsets(connectivity);
    if (!t)
        return GCUT_FAIL(GCUT_ERR_INVALID, "connectivity %d is not 4, 8, 6, 18 or 26",
                         (int)connectivity);
    if (dir < 0 || dir >= connectivity)
        return GCUT_FAIL(GCUT_ERR_INVALID, "direction %d out of range [0, %d)", (int)dir,
                         (int)connectivity);
    if (dx) *dx = t[3 * dir];
    if (dy) *dy = t[3 * dir + 1];
    if (dz) *dz = t[3 * dir + 2];
    return GCUT_OK;
}

/* ------------------------------------------------------------ lifecycle */

gcut_status gcut_grid_new(gcut_grid **out, int32_t width, int32_t height, int32_t depth,
                          int32_t connectivity)
{
    GCUT_ENTRY();
    if (!out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "out is NULL");
    if (width < 1 || height < 1 || depth < 1)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid size %d x %d x %d: every side must be >= 1",
                         (int)width, (int)height, (int)depth);
    const int32_t *table = gcut_i_grid_offsets(connectivity);
    if (!table)
        return GCUT_FAIL(GCUT_ERR_INVALID, "connectivity %d is not 4, 8 (2D) or 6, 18, 26 (3D)",
                         (int)connectivity);
    if ((connectivity == 4 || connectivity == 8) && depth != 1)
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "connectivity %d is two-dimensional but depth is %d (use 6, 18 or 26)",
                         (int)connectivity, (int)depth);
    const int64_t n = (int64_t)width * height * depth;
    if ((int64_t)width * height > INT32_MAX || n > INT32_MAX)
        return GCUT_FAIL(GCUT_ERR_OVERFLOW, "grid %d x %d x %d has more than %d nodes",
                         (int)width, (int)height, (int)depth, (int)INT32_MAX);
    gcut_grid *g = gcut_i_calloc(1, sizeof *g);
    if (!g)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate a grid");
    g->data = gcut_i_calloc((size_t)n * (size_t)(connectivity + 2), sizeof(int32_t));
    if (!g->data) {
        gcut_i_free(g);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the arrays of a %d x %d x %d grid",
                         (int)width, (int)height, (int)depth);
    }
    g->w = width;
    g->h = height;
    g->d = depth;
    g->conn = connectivity;
    g->n = (int32_t)n;
    memcpy(g->off, table, (size_t)connectivity * 3 * sizeof(int32_t));
    for (int32_t k = 0; k < connectivity; k++)
        g->cap[k] = g->data + (size_t)k * (size_t)n;
    g->src = g->data + (size_t)connectivity * (size_t)n;
    g->snk = g->src + n;
    g->warm_enabled = 1;
    g->hint_solves = 1;
    *out = g;
    return GCUT_OK;
}

static void drop_state(gcut_grid *g)
{
    if (g->state_be && g->state_be->destroy)
        g->state_be->destroy(g->state);
    g->state_be = NULL;
    g->state = NULL;
    g->state_valid = 0;
    g->log_n = 0;
    g->log_links = 0;
}

void gcut_grid_free(gcut_grid *g)
{
    if (!g)
        return;
    drop_state(g);
    gcut_graph_free(g->graph);
    gcut_i_free(g->log);
    gcut_i_free(g->data);
    gcut_i_free(g);
}

int32_t gcut_grid_width(const gcut_grid *g) { return g ? g->w : 0; }
int32_t gcut_grid_height(const gcut_grid *g) { return g ? g->h : 0; }
int32_t gcut_grid_depth(const gcut_grid *g) { return g ? g->d : 0; }
int32_t gcut_grid_connectivity(const gcut_grid *g) { return g ? g->conn : 0; }
int32_t gcut_grid_num_nodes(const gcut_grid *g) { return g ? g->n : 0; }

gcut_status gcut_grid_set_warm_start(gcut_grid *g, int enable)
{
    GCUT_ENTRY();
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid is NULL");
    g->warm_enabled = enable != 0;
    if (!g->warm_enabled)
        drop_state(g);
    return GCUT_OK;
}

/* ------------------------------------------------------ change tracking */

/* Longest change log replayed warm: both terminals of every node once,
 * and n-links of up to a quarter of the nodes. Replaying costs O(1) per
 * entry, less than a cold start's pass over the grid. When every t-link
 * moves a little (GrabCut's iterations, a new frame of a video: Kohli &
 * Torr's case) the kept flow still saves most of the search (about 2x on
 * the hard GrabCut images, docs/segmentation.md); rewritten n-links are
 * another matter (flow above a lowered capacity must be pushed back), so
 * past a quarter of the nodes' worth a cold start is as cheap. The log
 * grows on demand; at its longest it costs 27 bytes per node. */
static int64_t link_limit(const gcut_grid *g) { return (int64_t)g->n / 4 + 1024; }
static int64_t log_limit(const gcut_grid *g) { return 2 * (int64_t)g->n + link_limit(g); }

/* Called after every actual change of an entry. */
static void changed(gcut_grid *g, int32_t node, int32_t what, int32_t delta)
{
    g->q_kind = GCUT_I_GRID_Q_NONE; /* the float setters set it again after their changes */
    if (g->graph) {
        gcut_graph_free(g->graph);
        g->graph = NULL;
    }
    if (!g->state_valid)
        return;
    if (what >= 0 && ++g->log_links > link_limit(g)) {
        g->state_valid = 0;
        g->log_n = 0;
        g->log_links = 0;
        return;
    }
    if (g->log_n == g->log_cap) {
        int64_t cap = g->log_cap ? 2 * g->log_cap : 256;
        if (cap > log_limit(g))
            cap = log_limit(g);
        gcut_grid_change *p =
            g->log_n < cap ? gcut_i_realloc(g->log, (size_t)cap * sizeof *p) : NULL;
        if (!p) {
            /* Too many changes (or no memory for them): the next solve is
             * cold, and the log is not needed until after it. */
            g->state_valid = 0;
            g->log_n = 0;
            g->log_links = 0;
            return;
        }
        g->log = p;
        g->log_cap = cap;
    }
    g->log[g->log_n++] = (gcut_grid_change){node, what, delta};
}

static int32_t *array_of(const gcut_grid *g, int32_t what)
{
    if (what == GCUT_GRID_SOURCE_LINK)
        return g->src;
    if (what == GCUT_GRID_SINK_LINK)
        return g->snk;
    return what >= 0 && what < g->conn ? g->cap[what] : NULL;
}

static gcut_status check_what(const gcut_grid *g, int32_t what)
{
    if (!array_of(g, what))
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "array %d is neither a direction in [0, %d) nor a terminal code",
                         (int)what, (int)g->conn);
    return GCUT_OK;
}

static gcut_status check_range(const gcut_grid *g, int32_t first, int32_t count)
{
    if (first < 0 || count < 0 || (int64_t)first + count > g->n)
        return GCUT_FAIL(GCUT_ERR_INVALID, "nodes [%d, %lld) out of range [0, %d)", (int)first,
                         (long long)first + count, (int)g->n);
    return GCUT_OK;
}

static gcut_status check_caps(const int32_t *caps, int32_t first, int32_t count, int32_t what)
{
    for (int32_t i = 0; i < count; i++) {
        if (caps[i] >= 0)
            continue;
        if (what >= 0)
            return GCUT_FAIL(GCUT_ERR_INVALID,
                             "capacity of node %d in direction %d is negative (%d)",
                             (int)(first + i), (int)what, (int)caps[i]);
        return GCUT_FAIL(GCUT_ERR_INVALID, "%s capacity of node %d is negative (%d)",
                         what == GCUT_GRID_SOURCE_LINK ? "source" : "sink", (int)(first + i),
                         (int)caps[i]);
    }
    return GCUT_OK;
}

/* Copy caps into array `what` at nodes first.., recording what differs. */
static void store(gcut_grid *g, int32_t what, int32_t first, int32_t count, const int32_t *caps)
{
    int32_t *a = array_of(g, what) + first;
    /* Terminal arrays (no n-link budget), with room in the log for every
     * entry, or with no state to log for: the loop of changed(), with its
     * checks made once (the same log, in the same order). A rewrite of
     * every t-link (a GrabCut iteration) changes nearly all of them. */
    if (what < 0 && (!g->state_valid || g->log_n + count <= log_limit(g))) {
        if (g->state_valid && g->log_cap < g->log_n + count) {
            int64_t cap = g->log_cap ? 2 * g->log_cap : 256;
            if (cap < g->log_n + count)
                cap = g->log_n + count;
            if (cap > log_limit(g))
                cap = log_limit(g);
            gcut_grid_change *p = gcut_i_realloc(g->log, (size_t)cap * sizeof *p);
            if (!p)
                goto slow; /* changed() finds no room either and drops the state */
            g->log = p;
            g->log_cap = cap;
        }
        int64_t k = 0;
        if (g->state_valid) {
            gcut_grid_change *lg = g->log + g->log_n;
            for (int32_t i = 0; i < count; i++)
                if (a[i] != caps[i]) {
                    lg[k++] = (gcut_grid_change){first + i, what, caps[i] - a[i]};
                    a[i] = caps[i];
                }
            g->log_n += k;
        } else {
            for (int32_t i = 0; i < count; i++) {
                k += a[i] != caps[i];
                a[i] = caps[i];
            }
        }
        if (k) {
            g->q_kind = GCUT_I_GRID_Q_NONE;
            if (g->graph) {
                gcut_graph_free(g->graph);
                g->graph = NULL;
            }
        }
        return;
    }
slow:
    for (int32_t i = 0; i < count; i++)
        if (a[i] != caps[i]) {
            changed(g, first + i, what, caps[i] - a[i]);
            a[i] = caps[i];
        }
}

gcut_status gcut_grid_set_caps_range(gcut_grid *g, int32_t what, int32_t first, int32_t count,
                                     const int32_t *caps)
{
    GCUT_ENTRY();
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid is NULL");
    gcut_status st = check_what(g, what);
    if (st == GCUT_OK)
        st = check_range(g, first, count);
    if (st != GCUT_OK)
        return st;
    if (count > 0 && !caps)
        return GCUT_FAIL(GCUT_ERR_INVALID, "caps is NULL");
    if ((st = check_caps(caps, first, count, what)) != GCUT_OK)
        return st;
    store(g, what, first, count, caps);
    return GCUT_OK;
}

gcut_status gcut_grid_set_caps(gcut_grid *g, int32_t what, const int32_t *caps)
{
    GCUT_ENTRY();
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid is NULL");
    return gcut_grid_set_caps_range(g, what, 0, g->n, caps);
}

gcut_status gcut_grid_set_terminal_caps_range(gcut_grid *g, int32_t first, int32_t count,
                                              const int32_t *cap_source, const int32_t *cap_sink)
{
    GCUT_ENTRY();
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid is NULL");
    gcut_status st = check_range(g, first, count);
    if (st == GCUT_OK && cap_source)
        st = check_caps(cap_source, first, count, GCUT_GRID_SOURCE_LINK);
    if (st == GCUT_OK && cap_sink)
        st = check_caps(cap_sink, first, count, GCUT_GRID_SINK_LINK);
    if (st != GCUT_OK)
        return st;
    if (cap_source)
        store(g, GCUT_GRID_SOURCE_LINK, first, count, cap_source);
    if (cap_sink)
        store(g, GCUT_GRID_SINK_LINK, first, count, cap_sink);
    return GCUT_OK;
}

gcut_status gcut_grid_set_terminal_caps(gcut_grid *g, const int32_t *cap_source,
                                        const int32_t *cap_sink)
{
    GCUT_ENTRY();
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid is NULL");
    return gcut_grid_set_terminal_caps_range(g, 0, g->n, cap_source, cap_sink);
}

gcut_status gcut_grid_set_cap(gcut_grid *g, int32_t node, int32_t what, int32_t cap)
{
    return gcut_grid_set_caps_range(g, what, node, 1, &cap);
}

gcut_status gcut_grid_set_terminal_cap(gcut_grid *g, int32_t node, int32_t cap_source,
                                       int32_t cap_sink)
{
    return gcut_grid_set_terminal_caps_range(g, node, 1, &cap_source, &cap_sink);
}

/* The names of 0.2 (grid.h: deprecated, kept working). GCUT_ENTRY makes
 * their messages name the function the caller called. */
gcut_status gcut_grid_set_terminals(gcut_grid *g, const int32_t *source, const int32_t *sink)
{
    GCUT_ENTRY();
    return gcut_grid_set_terminal_caps(g, source, sink);
}

gcut_status gcut_grid_set_terminals_range(gcut_grid *g, int32_t first, int32_t count,
                                          const int32_t *source, const int32_t *sink)
{
    GCUT_ENTRY();
    return gcut_grid_set_terminal_caps_range(g, first, count, source, sink);
}

gcut_status gcut_grid_set_tweights(gcut_grid *g, int32_t node, int32_t source, int32_t sink)
{
    GCUT_ENTRY();
    return gcut_grid_set_terminal_caps_range(g, node, 1, &source, &sink);
}

/* Whether direction k of node (x, y, z) leads inside the grid. */
static int inside(const gcut_grid *g, int32_t x, int32_t y, int32_t z, int32_t k)
{
    const int64_t nx = (int64_t)x + g->off[3 * k], ny = (int64_t)y + g->off[3 * k + 1],
                  nz = (int64_t)z + g->off[3 * k + 2];
    return nx >= 0 && nx < g->w && ny >= 0 && ny < g->h && nz >= 0 && nz < g->d;
}

gcut_status gcut_grid_fill(gcut_grid *g, gcut_grid_cap_fn fn, void *user)
{
    GCUT_ENTRY();
    if (!g || !fn)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid and function must not be NULL");
    const size_t n = (size_t)g->n, arrays = (size_t)g->conn + 2;
    /* Compute into a fresh block, so that a bad value leaves the grid as it was. */
    int32_t *fresh = gcut_i_malloc_array((int64_t)(n * arrays), sizeof(int32_t));
    if (!fresh)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate %zu capacities", n * arrays);
    /* Slot k of the block: direction k for k < conn, then source, sink. */
    size_t v = 0;
    for (int32_t z = 0; z < g->d; z++)
        for (int32_t y = 0; y < g->h; y++)
            for (int32_t x = 0; x < g->w; x++, v++)
                for (int32_t k = 0; k < g->conn + 2; k++) {
                    const int32_t what = k < g->conn    ? k
                                         : k == g->conn ? GCUT_GRID_SOURCE_LINK
                                                        : GCUT_GRID_SINK_LINK;
                    int32_t c = 0;
                    if (what < 0 || inside(g, x, y, z, what))
                        c = fn(user, x, y, z, what);
                    if (c < 0) {
                        gcut_i_free(fresh);
                        if (what >= 0)
                            return GCUT_FAIL(GCUT_ERR_INVALID,
                                             "fill: capacity %d of node (%d, %d, %d) in "
                                             "direction %d is negative",
                                             (int)c, (int)x, (int)y, (int)z, (int)what);
                        return GCUT_FAIL(GCUT_ERR_INVALID,
                                         "fill: %s capacity %d of node (%d, %d, %d) is negative",
                                         what == GCUT_GRID_SOURCE_LINK ? "source" : "sink",
                                         (int)c, (int)x, (int)y, (int)z);
                    }
                    fresh[(size_t)k * n + v] = c;
                }
    /* The same layout as g->data (directions, source, sink): record the
     * differences, then adopt the new block. */
    for (int32_t k = 0; k < g->conn; k++)
        store(g, k, 0, g->n, fresh + (size_t)k * n);
    store(g, GCUT_GRID_SOURCE_LINK, 0, g->n, fresh + (size_t)g->conn * n);
    store(g, GCUT_GRID_SINK_LINK, 0, g->n, fresh + (size_t)(g->conn + 1) * n);
    gcut_i_free(fresh);
    return GCUT_OK;
}

/* -------------------------------------------------------------- reading */

gcut_status gcut_grid_get_cap(const gcut_grid *g, int32_t node, int32_t what, int32_t *cap)
{
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid is NULL");
    gcut_status st = check_what(g, what);
    if (st == GCUT_OK)
        st = check_range(g, node, 1);
    if (st != GCUT_OK)
        return st;
    if (cap)
        *cap = array_of(g, what)[node];
    return GCUT_OK;
}

gcut_status gcut_grid_get_tweights(const gcut_grid *g, int32_t node, int32_t *source,
                                   int32_t *sink)
{
    GCUT_ENTRY();
    return gcut_grid_get_terminal_cap(g, node, source, sink);
}

gcut_status gcut_grid_get_terminal_cap(const gcut_grid *g, int32_t node, int32_t *source,
                                       int32_t *sink)
{
    if (!g)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid is NULL");
    gcut_status st = check_range(g, node, 1);
    if (st != GCUT_OK)
        return st;
    if (source)
        *source = g->src[node];
    if (sink)
        *sink = g->snk[node];
    return GCUT_OK;
}

const int32_t *gcut_grid_caps(const gcut_grid *g, int32_t what)
{
    return g ? array_of(g, what) : NULL;
}

/* ----------------------------------------------------- graph conversion */

/* Edges of the conversion: one per unordered neighbour pair, i.e. per even
 * direction (dx, dy, dz), (w - |dx|)(h - |dy|)(d - |dz|) of them. */
static int64_t pair_count(const gcut_grid *g)
{
    int64_t m = 0;
    for (int32_t k = 0; k < g->conn; k += 2)
        m += (int64_t)(g->w - abs(g->off[3 * k])) * (g->h - abs(g->off[3 * k + 1])) *
             (g->d - abs(g->off[3 * k + 2]));
    return m;
}

gcut_status gcut_grid_to_graph(const gcut_grid *g, gcut_graph **out)
{
    GCUT_ENTRY();
    if (!g || !out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid and out must not be NULL");
    const int64_t m = pair_count(g);
    gcut_graph *gr;
    gcut_status st = gcut_graph_new(&gr, g->n, m);
    if (st != GCUT_OK)
        return st;
    /* Written straight into the builder's arrays: the grid's values are
     * already validated, and this keeps the conversion one pass. */
    int64_t e = 0;
    const int64_t plane = (int64_t)g->w * g->h;
    int32_t v = 0;
    for (int32_t z = 0; z < g->d; z++)
        for (int32_t y = 0; y < g->h; y++)
            for (int32_t x = 0; x < g->w; x++, v++)
                for (int32_t k = 0; k < g->conn; k += 2) {
                    if (!inside(g, x, y, z, k))
                        continue;
                    const int32_t u = (int32_t)(v + g->off[3 * k] + (int64_t)g->off[3 * k + 1] * g->w +
                                                g->off[3 * k + 2] * plane);
                    gr->eu[e] = v;
                    gr->ev[e] = u;
                    gr->ecap[e] = g->cap[k][v];
                    gr->erev[e] = g->cap[k + 1][u];
                    e++;
                }
    gr->m = e;
    memcpy(gr->cap_source, g->src, (size_t)g->n * sizeof(int32_t));
    memcpy(gr->cap_sink, g->snk, (size_t)g->n * sizeof(int32_t));
    *out = gr;
    return GCUT_OK;
}

/* --------------------------------------------------------------- solving */

static _Thread_local char tl_reason[384];

static gcut_status ensure_graph(gcut_grid *g)
{
    if (g->graph)
        return GCUT_OK;
    return gcut_grid_to_graph(g, &g->graph);
}

static gcut_status choose(gcut_grid *g, const char *name, uint32_t avoid, int32_t *index,
                          const char **reason);

void gcut_i_grid_set_hint(gcut_grid *g, int hard, int64_t solves)
{
    if (!g)
        return;
    g->hint_hard = hard != 0;
    g->hint_solves = solves > 1 ? solves : 1;
}

gcut_status gcut_grid_backend_choose(gcut_grid *g, const char *name, int32_t *index,
                                     const char **reason)
{
    GCUT_ENTRY();
    if (!g || !index)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid and index must not be NULL");
    return choose(g, name, 0, index, reason);
}

/* gcut_grid_backend_choose, with capability bits the automatic choice
 * must avoid (GCUT_BACKEND_GPU after a GPU failed). */
static gcut_status choose(gcut_grid *g, const char *name, uint32_t avoid, int32_t *index,
                          const char **reason)
{
    int32_t pick = -1;
    gcut_status st;
    const gcut_i_grid_shape shape = {g->n, g->conn, g->hint_hard, g->hint_solves,
                                     g->state_valid && g->state && g->state_be
                                         ? g->state_be->name
                                         : NULL};
    st = gcut_i_choose_grid(name, &shape, avoid, &pick, reason);
    if (st != GCUT_OK || pick >= 0) {
        if (st == GCUT_OK)
            *index = pick;
        return st;
    }
    /* No grid-native back end: the graph choice on the conversion. */
    const char *graph_why = "";
    if ((st = ensure_graph(g)) == GCUT_OK)
        st = gcut_i_choose_graph(g->graph, "auto", 0, avoid, &pick, &graph_why);
    if (st != GCUT_OK)
        return st;
    snprintf(tl_reason, sizeof tl_reason, "%s, on the grid converted to a graph", graph_why);
    *index = pick;
    if (reason)
        *reason = tl_reason;
    return GCUT_OK;
}

/* Solve with a back end that has solve_grid, warm when the kept state
 * allows it. */
static gcut_status solve_native(gcut_grid *g, const gcut_backend *be,
                                const gcut_solve_options *opt, gcut_result *res,
                                const char *reason, double t0)
{
    gcut_status st;
    /* One kept state per grid, that of the last grid-native back end. */
    if (g->state_be != be) {
        drop_state(g);
        if (be->create && (st = be->create(&g->state)) != GCUT_OK)
            return st;
        g->state_be = be;
    }
    gcut_stats stats;
    memset(&stats, 0, sizeof stats);
    uint8_t *cut = gcut_i_result_cut_buffer(res, g->n);
    if (!cut)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate the cut of %d nodes", (int)g->n);
    gcut_grid_problem p;
    memset(&p, 0, sizeof p);
    p.width = g->w;
    p.height = g->h;
    p.depth = g->d;
    p.connectivity = g->conn;
    p.num_dirs = g->conn;
    p.num_nodes = g->n;
    p.dir_offset = g->off;
    p.cap = (const int32_t *const *)g->cap;
    p.cap_source = g->src;
    p.cap_sink = g->snk;
    p.warm = g->state_valid && g->state;
    p.num_changes = p.warm ? g->log_n : 0;
    p.changes = g->log;
    gcut_solution sol = {0, cut, NULL, &stats};
    st = gcut_i_poll("solve", -1, NULL);
    if (st == GCUT_OK)
        st = be->solve_grid(g->state, &p, opt, &sol);
    /* Whatever happened, the log has been consumed: after a success the
     * state reflects every change, after a failure the state is stale and
     * the next solve is cold, so the log would be of no use. */
    g->log_n = 0;
    g->log_links = 0;
    if (st != GCUT_OK) {
        gcut_i_free(cut);
        g->state_valid = 0;
        return st;
    }
    if (g->warm_enabled) {
        g->state_valid = g->state != NULL;
    } else {
        drop_state(g);
    }
    if (be->caps & GCUT_BACKEND_GPU)
        gcut_i_note_device_used();
    stats.total_ms = gcut_i_now_ms() - t0;
    gcut_i_result_store(res, sol.flow, cut, g->n, NULL, 0, &stats, be->name, reason);
    return GCUT_OK;
}

/* Solve with back end idx: grid-native, or on the grid converted to a
 * graph (once, then cached). */
static gcut_status solve_with(gcut_grid *g, int32_t idx, const gcut_solve_options *opt,
                              gcut_result *res, const char *why, double t0)
{
    const gcut_backend *be = gcut_i_backend_table(idx);
    gcut_status st;
    if (be && be->solve_grid)
        return solve_native(g, be, opt, res, why, t0);
    if ((st = gcut_i_poll("layout", -1, NULL)) != GCUT_OK || (st = ensure_graph(g)) != GCUT_OK)
        return st;
    return gcut_i_run_backend(g->graph, idx, opt, res, why, t0);
}

/* gcut_grid_solve within its call context (started by gcut_grid_solve). */
static gcut_status grid_solve_in_call(gcut_grid *g, const gcut_solve_options *opt_p,
                                      gcut_result *res, double t0)
{
    const gcut_solve_options opt = *opt_p;
    gcut_status st;
    if (opt.want_flows)
        return GCUT_FAIL(GCUT_ERR_UNSUPPORTED,
                         "per-edge flows are not offered for grids (solve gcut_grid_to_graph's "
                         "graph for them)");
    int32_t idx;
    const char *reason;
    if ((st = gcut_grid_backend_choose(g, opt.backend, &idx, &reason)) != GCUT_OK)
        return st;
    char why[384];
    snprintf(why, sizeof why, "%s", reason);
    gcut_i_log(&opt, GCUT_LOG_INFO, "gcut_grid_solve: %s", why);
    st = solve_with(g, idx, &opt, res, why, t0);
    if (gcut_i_gpu_fallback(&opt, idx, st, "gcut_grid_solve")) {
        const gcut_status failed = st;
        int32_t cpu;
        if (choose(g, "auto", GCUT_BACKEND_GPU, &cpu, &reason) == GCUT_OK) {
            snprintf(why, sizeof why, "%s; the GPU back end %s failed: %s", reason,
                     gcut_backend_name(idx), gcut_status_string(failed));
            st = solve_with(g, cpu, &opt, res, why, t0);
        }
    }
    return st;
}

gcut_status gcut_grid_solve(gcut_grid *g, const gcut_solve_options *opt_in, gcut_result *res)
{
    GCUT_ENTRY();
    const double t0 = gcut_i_now_ms();
    if (!g || !res)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid and result must not be NULL");
    gcut_solve_options opt;
    gcut_status st = gcut_i_options_copy(opt_in, &opt);
    if (st != GCUT_OK)
        return st;
    gcut_i_call call;
    gcut_i_call_begin(&call, "grid", &opt, t0);
    st = grid_solve_in_call(g, &opt, res, t0);
    gcut_i_call_end(&call);
    return st;
}
