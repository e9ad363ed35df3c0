/*
 * region.c - one region of a region-partitioned grid max-flow: a slab of
 * planes with one ghost plane on each side, discharged by push-relabel.
 *
 *   A. Delong and Y. Boykov, "A scalable graph-cut algorithm for N-D
 *   grids", CVPR 2008 (region push-relabel: a region is discharged with
 *   the labels of the nodes outside it fixed, flow pushed out of it is
 *   handed to the region that owns the node);
 *   A. V. Goldberg and R. E. Tarjan, "A new approach to the maximum-flow
 *   problem", J. ACM 35(4), 1988 (push-relabel, valid labellings);
 *   B. V. Cherkassky and A. V. Goldberg, "On implementing the push-relabel
 *   method for the maximum flow problem", Algorithmica 19, 1997 (global
 *   relabelling).
 *
 * A region owns planes first .. first+count-1 of the grid (z in 3-D, y
 * in 2-D): `n` nodes in the slab's local order, so a neighbour is v +
 * off[d] as in the whole grid. Every connectivity reaches only the next
 * plane, so the arcs that leave the slab end in one ghost plane below
 * (local indices -plane .. -1) or above (n .. n + plane - 1). The label
 * array covers both ghost planes and a pad of width + 1 entries beyond
 * them (a linear offset may reach that far for an arc that leaves the
 * grid sideways; such arcs have residual 0 and are never followed).
 *
 * State: res[d][v] the residual of own arc v -> v + off[d] (uint32: the
 * two residuals of a pair sum to the two capacities, < 2^32), exc[v]
 * (int64), rsink[v] the residual to the sink, lab[v] the labels (own and
 * ghost). acc[side] holds the flow pushed in this discharge into the
 * ghost plane of that side, one uint32 per (crossing direction, ghost
 * node): the residual of that arc at the start of the discharge bounds it.
 *
 * Two discharges (shape.ard):
 *   - region push-relabel (Delong & Boykov, above): labels are distances
 *     to the sink with every arc of length 1;
 *   - augmenting-path region discharge, ARD (A. Shekhovtsov and V.
 *     Hlavac, "A distributed mincut/maxflow algorithm combining path
 *     augmentation and push-relabel", IJCV 101(1), 2013): labels count
 *     only the arcs that cross a region boundary (the arcs inside a
 *     region have length 0, the sink's label is 0), so they stay small
 *     and the number of sweeps is bounded (2|B|^2 + 1, B the boundary
 *     nodes) instead of growing with path lengths. A discharge sends the
 *     excess to the sink first, then to the ghost nodes in order of
 *     increasing label (stage by stage, each stage a maximum preflow of
 *     the region to the targets so far, computed here by the push-relabel
 *     below on a label array of its own, plab), then relabels the region
 *     in ARD's metric.
 *
 * Invariants (docs/distributed.md has the argument in full):
 *   - labels are valid: lab(u) <= lab(w) + 1 for every residual arc u -> w
 *     between nodes (own or ghost), lab(u) <= 1 when rsink[u] > 0; labels
 *     only grow; lab = d_inf means "cannot reach the sink";
 *   - a discharge changes only own nodes, the own side of the arcs that
 *     cross the slab's boundary and acc[]; the ghost labels are fixed while
 *     it runs, and regions discharged at the same time share no arc;
 *   - after a discharge no own node is active (excess > 0, label < d_inf).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/region_internal.h"
#include "grid/grid_internal.h"

struct gcut_i_region {
    gcut_i_region_shape s;
    int32_t plane; /* nodes per plane */
    int32_t n;     /* own nodes */
    int32_t ndir;
    int32_t pad; /* label entries beyond each ghost plane */
    ptrdiff_t off[GCUT_GRID_MAX_DIRS];
    int32_t ncross;
    int32_t up[GCUT_I_REGION_MAX_CROSS];   /* directions into the plane above */
    int32_t down[GCUT_I_REGION_MAX_CROSS]; /* down[k] = up[k] ^ 1 */
    int8_t cross_k[GCUT_GRID_MAX_DIRS];    /* k of an up or down direction, else -1 */
    int has_lo, has_hi;

    uint32_t *res_mem;
    uint32_t *res[GCUT_GRID_MAX_DIRS];
    int64_t *exc;
    int32_t *rsink;
    int32_t *lab_mem;
    int32_t *lab; /* lab_mem + plane + pad: lab[0] is the first own node */
    /* ARD (shape.ard): the labels of the stages' push-relabel, laid out as
     * lab (they are lab while a stage runs), the stages' costs, and the
     * metric of the relabel (1: ARD's, inner arcs of length 0). */
    int32_t *plab_mem, *plab;
    int32_t *costs;
    int metric_ard;
    int plab_sink; /* plab is valid for the sink alone (the last discharge
                    * ended at stage 0): the next stage 0 needs no relabel */
    int32_t *queue;
    int32_t *tmp;
    int64_t *seeds; /* (label << 32 | node) of a relabel's ghost seeds */
    uint32_t *acc[2];
    uint8_t *msg_mem;
    uint8_t *send[2], *recv[2];

    int64_t flow;      /* into the sink */
    int full_scan;     /* active nodes may be anywhere (else only on the boundary planes) */
    int64_t since_bfs; /* relabels since the last region-local relabel */
    gcut_i_region_stats st;

    /* A region on a device (gcut_i_region_to_device): the state lives in
     * the plugin's handle, the host arrays above are freed, and every
     * operation below goes to the extension. A failed device call is kept
     * (the first one, with its message): later operations do nothing,
     * active and relabel count 0 so that the driver ends, and the caller
     * reports it (gcut_i_region_device_error). */
    const gcut_grid_region_ext *dx;
    void *dh;
    gcut_status dev_err;
    char dev_msg[256];
};

/* Keep the first failure of a device call; whether it succeeded. */
static int dev_ok(const gcut_i_region *rc, gcut_status st)
{
    gcut_i_region *r = (gcut_i_region *)rc;
    if (st != GCUT_OK && r->dev_err == GCUT_OK) {
        r->dev_err = st;
        snprintf(r->dev_msg, sizeof r->dev_msg, "%s", gcut_last_error());
    }
    return st == GCUT_OK;
}

size_t gcut_i_region_bytes_per_node(int32_t connectivity)
{
    /* res, exc, rsink, lab, queue, tmp, and ARD's second label array */
    return (size_t)connectivity * 4 + 8 + 4 + 4 + 4 + 4 + 4;
}

gcut_status gcut_i_dist_check_shape(int64_t width, int64_t height, int64_t depth,
                                    int32_t connectivity)
{
    if (width < 1 || height < 1 || depth < 1)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid size %lld x %lld x %lld: every size must be >= 1",
                         (long long)width, (long long)height, (long long)depth);
    if (width > INT32_MAX || height > INT32_MAX || depth > INT32_MAX)
        return GCUT_FAIL(GCUT_ERR_OVERFLOW, "grid size %lld x %lld x %lld: a size past INT32_MAX",
                         (long long)width, (long long)height, (long long)depth);
    if (!gcut_i_grid_offsets(connectivity))
        return GCUT_FAIL(GCUT_ERR_INVALID, "connectivity %d is not 4, 8, 6, 18 or 26",
                         (int)connectivity);
    if ((connectivity == 4 || connectivity == 8) && depth != 1)
        return GCUT_FAIL(GCUT_ERR_INVALID, "connectivity %d needs depth 1 (got %lld)",
                         (int)connectivity, (long long)depth);
    /* A plane and its ghosts must fit 32-bit local indices. */
    const int64_t plane = connectivity == 4 || connectivity == 8 ? width : width * height;
    if (plane > (INT32_MAX - 2 * (width + 1)) / 4)
        return GCUT_FAIL(GCUT_ERR_OVERFLOW,
                         "a plane of %lld nodes is too large for 32-bit local indices",
                         (long long)plane);
    return GCUT_OK;
}

/* Geometry: plane size, offsets and the crossing directions. */
static void region_geometry(gcut_i_region *r)
{
    const gcut_i_region_shape *s = &r->s;
    const int three_d = s->connectivity != 4 && s->connectivity != 8;
    const int32_t *t = gcut_i_grid_offsets(s->connectivity);
    r->ndir = s->connectivity;
    r->plane = three_d ? s->width * s->height : s->width;
    r->pad = s->width + 1;
    r->ncross = 0;
    for (int32_t d = 0; d < r->ndir; d++) {
        const int32_t dx = t[3 * d], dy = t[3 * d + 1], dz = t[3 * d + 2];
        r->off[d] = dx + (ptrdiff_t)s->width * (dy + (ptrdiff_t)s->height * dz);
        r->cross_k[d] = -1;
    }
    for (int32_t d = 0; d < r->ndir; d++) {
        const int32_t across = three_d ? t[3 * d + 2] : t[3 * d + 1];
        if (across == 1) {
            r->up[r->ncross] = d;
            r->down[r->ncross] = d ^ 1;
            r->cross_k[d] = (int8_t)r->ncross;
            r->cross_k[d ^ 1] = (int8_t)r->ncross;
            r->ncross++;
        }
    }
}

/* Whether the arcs of node (x, y, z) (z the global plane; y 0 in 2-D)
 * stay in the grid; out-of-grid arcs get residual 0. */
static void zero_outside(gcut_i_region *r, int32_t v, int32_t x, int32_t y, int64_t z, int32_t rows,
                         int64_t planes, const int32_t *t, int three_d)
{
    const gcut_i_region_shape *s = &r->s;
    for (int32_t d = 0; d < r->ndir; d++) {
        const int64_t nx = x + t[3 * d];
        const int64_t ny = three_d ? y + t[3 * d + 1] : 0;
        const int64_t nz = z + (three_d ? t[3 * d + 2] : t[3 * d + 1]);
        if (nx < 0 || nx >= s->width || ny < 0 || ny >= rows || nz < 0 || nz >= planes)
            r->res[d][v] = 0;
    }
}

/* Residuals from the capacities (0 for arcs that leave the grid: only
 * nodes on a face of the grid have such arcs, so the arrays are copied
 * whole and those nodes visited after), the initial preflow: source arcs
 * saturated, cancelled against sink arcs. */
static void region_fill(gcut_i_region *r, const gcut_i_region_caps *caps)
{
    const gcut_i_region_shape *s = &r->s;
    const int three_d = s->connectivity != 4 && s->connectivity != 8;
    const int32_t *t = gcut_i_grid_offsets(s->connectivity);
    const int64_t planes = three_d ? s->depth : s->height;
    const int32_t rows = three_d ? s->height : 1; /* rows per plane */
    for (int32_t d = 0; d < r->ndir; d++) {
        if (caps->cap[d])
            memcpy(r->res[d], caps->cap[d], (size_t)r->n * 4);
        else
            memset(r->res[d], 0, (size_t)r->n * 4);
    }
    int32_t v = 0;
    for (int32_t zl = 0; zl < s->count; zl++) {
        const int64_t z = s->first + zl; /* the plane's global index */
        const int end_plane = z == 0 || z == planes - 1;
        for (int32_t y = 0; y < rows; y++, v += s->width) {
            if (end_plane || (three_d && (y == 0 || y == rows - 1))) {
                for (int32_t x = 0; x < s->width; x++)
                    zero_outside(r, v + x, x, y, z, rows, planes, t, three_d);
            } else {
                zero_outside(r, v, 0, y, z, rows, planes, t, three_d);
                if (s->width > 1)
                    zero_outside(r, v + s->width - 1, s->width - 1, y, z, rows, planes, t, three_d);
            }
        }
    }
    for (v = 0; v < r->n; v++) {
        const int32_t cs = caps->src ? caps->src[v] : 0;
        const int32_t ck = caps->snk ? caps->snk[v] : 0;
        const int32_t m = cs < ck ? cs : ck;
        r->flow += m;
        r->exc[v] = cs - m;
        r->rsink[v] = ck - m;
    }
}

/* A region's record with its geometry, or GCUT_ERR_OVERFLOW when its nodes,
 * ghost planes and pads pass 32-bit local indices. */
static gcut_status region_shell(const gcut_i_region_shape *shape, gcut_i_region **out)
{
    gcut_i_region *r = gcut_i_calloc(1, sizeof *r);
    if (!r)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate a region");
    r->s = *shape;
    region_geometry(r);
    const int64_t n = (int64_t)r->plane * shape->count;
    if (n + 2 * ((int64_t)r->plane + r->pad) > INT32_MAX) {
        gcut_i_free(r);
        return GCUT_FAIL(GCUT_ERR_OVERFLOW,
                         "a region of %d planes of %d nodes passes 32-bit local indices "
                         "(use more regions)",
                         (int)shape->count, (int)r->plane);
    }
    r->n = (int32_t)n;
    *out = r;
    return GCUT_OK;
}

gcut_status gcut_i_region_new(gcut_i_region **out, const gcut_i_region_shape *shape,
                              const gcut_i_region_caps *caps)
{
    gcut_i_region *r;
    gcut_status st = region_shell(shape, &r);
    if (st != GCUT_OK)
        return st;
    const int64_t n = r->n;
    const int64_t span = n + 2 * ((int64_t)r->plane + r->pad);
    const int64_t acc_n = (int64_t)r->ncross * r->plane;
    const size_t msg = gcut_i_region_msg_bytes(r, 1);
    if ((st = gcut_i_alloc_array((void **)&r->res_mem, n * r->ndir, 4, __func__,
                                 "the residuals of a region")) != GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&r->exc, n, 8, __func__, "excesses")) != GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&r->rsink, n, 4, __func__, "sink residuals")) !=
            GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&r->lab_mem, span, 4, __func__, "labels")) != GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&r->queue, n, 4, __func__, "a queue")) != GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&r->tmp, n, 4, __func__, "labels")) != GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&r->seeds, 2 * acc_n + 1, 8, __func__, "seeds")) !=
            GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&r->acc[0], 2 * acc_n + 1, 4, __func__,
                                 "boundary flows")) != GCUT_OK ||
        (st = gcut_i_alloc_array((void **)&r->msg_mem, 4 * (int64_t)msg, 1, __func__,
                                 "boundary messages")) != GCUT_OK ||
        (shape->ard &&
         ((st = gcut_i_alloc_array((void **)&r->plab_mem, span, 4, __func__, "labels")) !=
              GCUT_OK ||
          (st = gcut_i_alloc_array((void **)&r->costs, 2 * acc_n + 1, 4, __func__,
                                   "boundary costs")) != GCUT_OK))) {
        gcut_i_region_free(r);
        return st;
    }
    for (int32_t d = 0; d < r->ndir; d++)
        r->res[d] = r->res_mem + (size_t)d * (size_t)n;
    r->acc[1] = r->acc[0] + acc_n;
    memset(r->acc[0], 0, (size_t)(2 * acc_n) * 4);
    for (int i = 0; i < 2; i++) {
        r->send[i] = r->msg_mem + (size_t)i * msg;
        r->recv[i] = r->msg_mem + (size_t)(2 + i) * msg;
    }
    r->lab = r->lab_mem + r->plane + r->pad;
    for (int64_t i = 0; i < span; i++)
        r->lab_mem[i] = shape->d_inf;
    memset(r->lab, 0, (size_t)n * 4);
    if (shape->ard) {
        r->plab = r->plab_mem + r->plane + r->pad;
        r->metric_ard = 1;
    }
    region_fill(r, caps);
    r->full_scan = 1;
    *out = r;
    return GCUT_OK;
}

void gcut_i_region_free(gcut_i_region *r)
{
    if (!r)
        return;
    if (r->dx)
        r->dx->destroy(r->dh);
    gcut_i_free(r->costs);
    gcut_i_free(r->plab_mem);
    gcut_i_free(r->msg_mem);
    gcut_i_free(r->acc[0]);
    gcut_i_free(r->seeds);
    gcut_i_free(r->tmp);
    gcut_i_free(r->queue);
    gcut_i_free(r->lab_mem);
    gcut_i_free(r->rsink);
    gcut_i_free(r->exc);
    gcut_i_free(r->res_mem);
    gcut_i_free(r);
}

size_t gcut_i_region_msg_bytes(const gcut_i_region *r, int with_flows)
{
    return (size_t)r->plane * 4 * (1 + (with_flows ? (size_t)r->ncross : 0));
}

void *gcut_i_region_send_buf(gcut_i_region *r, int side)
{
    return r->dx ? r->dx->buffer(r->dh, side) : r->send[side];
}
void *gcut_i_region_recv_buf(gcut_i_region *r, int side)
{
    return r->dx ? r->dx->buffer(r->dh, 2 + side) : r->recv[side];
}

void *gcut_i_region_device_handle(const gcut_i_region *r) { return r->dx ? r->dh : NULL; }

static void *region_buf(gcut_i_region *r, int which)
{
    return which < 2 ? gcut_i_region_send_buf(r, which) : gcut_i_region_recv_buf(r, which - 2);
}

gcut_status gcut_i_region_copy_out(gcut_i_region *r, int which, void *host, size_t bytes)
{
    if (!r->dx) {
        memcpy(host, region_buf(r, which), bytes);
        return GCUT_OK;
    }
    if (r->dev_err)
        return r->dev_err;
    const gcut_status st = r->dx->copy(host, region_buf(r, which), bytes);
    dev_ok(r, st);
    return st;
}

gcut_status gcut_i_region_copy_in(gcut_i_region *r, int which, const void *host, size_t bytes)
{
    if (!r->dx) {
        memcpy(region_buf(r, which), host, bytes);
        return GCUT_OK;
    }
    if (r->dev_err)
        return r->dev_err;
    const gcut_status st = r->dx->copy(region_buf(r, which), host, bytes);
    dev_ok(r, st);
    return st;
}

gcut_status gcut_i_region_copy_msg(gcut_i_region *dst, int dst_side, gcut_i_region *src,
                                   int src_side, size_t bytes)
{
    void *to = gcut_i_region_recv_buf(dst, dst_side);
    const void *from = gcut_i_region_send_buf(src, src_side);
    if (!src->dx) {
        memcpy(to, from, bytes);
        return GCUT_OK;
    }
    /* A failed copy stays with the region, as its other device calls do. */
    const gcut_status st = src->dx->copy(to, from, bytes);
    dev_ok(src, st);
    return st;
}

void gcut_i_region_set_neighbours(gcut_i_region *r, int lo, int hi)
{
    r->has_lo = lo;
    r->has_hi = hi;
    if (r->dx)
        r->dx->neighbours(r->dh, lo, hi);
}

gcut_status gcut_i_region_new_device(gcut_i_region **out, const gcut_i_region_shape *shape,
                                     const gcut_i_region_caps *caps,
                                     const gcut_grid_region_ext *x, int32_t device)
{
    gcut_i_region *r;
    gcut_status st = region_shell(shape, &r);
    if (st != GCUT_OK)
        return st;
    const int three_d = shape->connectivity != 4 && shape->connectivity != 8;
    const int32_t *t = gcut_i_grid_offsets(shape->connectivity);
    gcut_grid_region_init in;
    memset(&in, 0, sizeof in);
    in.nodes = r->n;
    in.plane = r->plane;
    in.pad = r->pad;
    in.num_dirs = r->ndir;
    in.d_inf = shape->d_inf;
    in.ncross = r->ncross;
    for (int32_t d = 0; d < r->ndir; d++) {
        in.dir_step[d] = (int32_t)r->off[d];
        in.dir_x[d] = (int8_t)t[3 * d];
        in.dir_row[d] = (int8_t)(three_d ? t[3 * d + 1] : 0);
        in.dir_plane[d] = (int8_t)(three_d ? t[3 * d + 2] : t[3 * d + 1]);
        in.cap[d] = caps->cap[d];
    }
    for (int32_t k = 0; k < r->ncross; k++) {
        in.up[k] = r->up[k];
        in.down[k] = r->down[k];
    }
    in.width = shape->width;
    in.rows = three_d ? shape->height : 1;
    in.first = shape->first;
    in.planes = three_d ? shape->depth : shape->height;
    in.cap_source = caps->src;
    in.cap_sink = caps->snk;
    in.relabel_every = shape->relabel_every;
    in.device = device;
    in.discharge = shape->ard == GCUT_I_DIST_JACOBI ? GCUT_GRID_REGION_JACOBI : GCUT_GRID_REGION_PR;
    st = x->create(&in, &r->dh);
    if (st != GCUT_OK) {
        gcut_i_free(r);
        return st;
    }
    r->dx = x;
    r->full_scan = 1;
    *out = r;
    return GCUT_OK;
}

void gcut_i_region_profile(const gcut_i_region *r, double *out)
{
    for (int i = 0; i < 4; i++)
        out[i] = 0;
    if (r->dx && r->dx->profile)
        r->dx->profile(r->dh, out);
}

gcut_status gcut_i_region_device_error(const gcut_i_region *r, const char **msg)
{
    *msg = r->dev_msg;
    return r->dev_err;
}

int gcut_i_region_neighbours(const gcut_i_region *r) { return r->has_lo + r->has_hi; }

int32_t gcut_i_region_num_nodes(const gcut_i_region *r) { return r->n; }
int32_t gcut_i_region_plane(const gcut_i_region *r) { return r->plane; }
int64_t gcut_i_region_flow(const gcut_i_region *r)
{
    if (r->dx) {
        int64_t f = 0;
        return !r->dev_err && dev_ok(r, r->dx->flow(r->dh, &f)) ? f : 0;
    }
    return r->flow;
}
const gcut_i_region_stats *gcut_i_region_stats_get(const gcut_i_region *r) { return &r->st; }

/* ------------------------------------------------------------ relabel */

static int seed_cmp(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Give node w's residual predecessors inside the region label dw + step
 * (1, or 0 in ARD's metric) where that is lower than the label they have
 * in lab[]. */
static inline int64_t bfs_expand(gcut_i_region *r, int32_t *lab, int32_t w, int32_t dw,
                                 int32_t *tail)
{
    int64_t lowered = 0;
    const int32_t dv = dw + (r->metric_ard ? 0 : 1);
    if (dv >= r->s.d_inf)
        return 0;
    for (int32_t d = 0; d < r->ndir; d++) {
        /* v -> w is arc d of v = w - off[d]. */
        const ptrdiff_t v = (ptrdiff_t)w - r->off[d];
        if (v < 0 || v >= r->n || lab[v] <= dv || r->res[d][v] == 0)
            continue;
        lab[v] = dv;
        r->queue[(*tail)++] = (int32_t)v;
        lowered++;
    }
    return lowered;
}

/* The search of gcut_i_region_relabel and gcut_i_region_relabel_update on
 * lab[] (which holds the start: d_inf or 1 at the sink's neighbours, the
 * first `tail` of them queued; or the previous distances): ghost seeds
 * (own nodes of the boundary planes with a residual arc into a ghost
 * whose label + 1 is lower than theirs), sorted, merged in label order
 * with the breadth-first queue, so that nodes are taken in nondecreasing
 * label order and each label is final when first lowered. Returns how
 * many labels it lowered. */
/* The ghost seeds into r->seeds, (ghost label + 1) << 32 | own node, for
 * every residual arc from an own node into a ghost of finite label (whose
 * label + 1 is below lab[v] of the own node, when lab is given); returns
 * how many. */
static int64_t ghost_seeds(gcut_i_region *r, const int32_t *lab)
{
    const int32_t n = r->n, P = r->plane, d_inf = r->s.d_inf;
    int64_t ns = 0;
    for (int side = 0; side < 2; side++) {
        if (side == 0 ? !r->has_lo : !r->has_hi)
            continue;
        const int32_t base = side == 0 ? 0 : n - P;
        const int32_t *dirs = side == 0 ? r->down : r->up;
        for (int32_t k = 0; k < r->ncross; k++) {
            const int32_t d = dirs[k];
            for (int32_t j = 0; j < P; j++) {
                const int32_t v = base + j;
                if (r->res[d][v] == 0)
                    continue;
                const int32_t lu = r->lab[v + r->off[d]];
                if (lu < d_inf - 1 && (!lab || lu + 1 < lab[v]))
                    r->seeds[ns++] = ((int64_t)(lu + 1) << 32) | (uint32_t)v;
            }
        }
    }
    return ns;
}

static int64_t relabel_search(gcut_i_region *r, int32_t *lab, int32_t tail)
{
    int32_t head = 0;
    int64_t lowered = 0;
    const int64_t ns = ghost_seeds(r, lab);
    if (ns > 1)
        qsort(r->seeds, (size_t)ns, sizeof *r->seeds, seed_cmp);
    int64_t si = 0;
    while (head < tail || si < ns) {
        if (si < ns && (head == tail || (r->seeds[si] >> 32) <= lab[r->queue[head]])) {
            const int32_t v = (int32_t)(r->seeds[si] & 0xffffffff);
            const int32_t dv = (int32_t)(r->seeds[si] >> 32);
            si++;
            if (lab[v] <= dv)
                continue;
            lab[v] = dv;
            lowered++;
            lowered += bfs_expand(r, lab, v, dv, &tail);
        } else {
            const int32_t w = r->queue[head++];
            lowered += bfs_expand(r, lab, w, lab[w], &tail);
        }
    }
    return lowered;
}

/* The exact distances to the sink of the own nodes in the residual graph
 * of the region, with the ghost labels as fixed distances: a breadth-first
 * search from the nodes with sink residual (label 1; 0 in ARD's metric,
 * where the arcs inside the region have length 0), merged in label
 * order with the own nodes that reach a ghost (label of the ghost + 1).
 * Labels are written to lab[]; returns how many own labels changed. With
 * valid labels this never lowers a label (valid labels are lower bounds of
 * these distances), so it is a relabelling push-relabel allows.
 * O(n * ndir + plane log plane). */
int64_t gcut_i_region_relabel(gcut_i_region *r)
{
    if (r->dx) {
        int64_t c = 0;
        return !r->dev_err && dev_ok(r, r->dx->relabel(r->dh, &c)) ? c : 0;
    }
    const int32_t n = r->n, d_inf = r->s.d_inf;
    const int32_t at_sink = r->metric_ard ? 0 : 1; /* the label of a node with sink residual */
    int32_t tail = 0;
    for (int32_t v = 0; v < n; v++) {
        if (r->rsink[v] > 0 && d_inf > at_sink) {
            r->tmp[v] = at_sink;
            r->queue[tail++] = v;
        } else {
            r->tmp[v] = d_inf;
        }
    }
    relabel_search(r, r->tmp, tail);
    int64_t changed = 0;
    for (int32_t v = 0; v < n; v++) {
        changed += r->tmp[v] != r->lab[v];
        r->lab[v] = r->tmp[v];
    }
    return changed;
}

/* The same distances after ghost labels have only gone down since the
 * last gcut_i_region_relabel or update (the rounds of a global relabel):
 * only the nodes whose distance drops are visited. Returns how many. */
int64_t gcut_i_region_relabel_update(gcut_i_region *r)
{
    /* On a device: the plugin's update (from the lowered seeds). */
    if (r->dx) {
        int64_t c = 0;
        return !r->dev_err && dev_ok(r, r->dx->relabel_update(r->dh, &c)) ? c : 0;
    }
    return relabel_search(r, r->lab, 0);
}

/* Before a global relabel: forget the ghost labels (the iteration starts
 * from "no ghost reaches the sink"). */
void gcut_i_region_reset_ghosts(gcut_i_region *r)
{
    if (r->dx) {
        if (!r->dev_err)
            dev_ok(r, r->dx->reset_ghosts(r->dh));
        return;
    }
    for (int32_t j = -r->plane - r->pad; j < 0; j++)
        r->lab[j] = r->s.d_inf;
    for (int32_t j = r->n; j < r->n + r->plane + r->pad; j++)
        r->lab[j] = r->s.d_inf;
}

/* ----------------------------------------------------------- discharge */

static inline int active(const gcut_i_region *r, int32_t v)
{
    return r->exc[v] > 0 && r->lab[v] < r->s.d_inf;
}

/* Queue every active own node (all of them, or those of the boundary
 * planes, the only ones an exchange can have made active). */
static int32_t build_queue(gcut_i_region *r)
{
    int32_t tail = 0;
    if (r->full_scan) {
        for (int32_t v = 0; v < r->n; v++)
            if (active(r, v))
                r->queue[tail++] = v;
        r->full_scan = 0;
        return tail;
    }
    for (int32_t v = 0; v < r->plane; v++)
        if (active(r, v))
            r->queue[tail++] = v;
    for (int32_t v = r->plane > r->n - r->plane ? r->plane : r->n - r->plane; v < r->n; v++)
        if (active(r, v))
            r->queue[tail++] = v;
    return tail;
}

/* Push delta on arc d of own node v. */
static inline void push(gcut_i_region *r, int32_t v, int32_t d, uint32_t delta, int32_t *tail,
                        int32_t qcap)
{
    const ptrdiff_t u = (ptrdiff_t)v + r->off[d];
    r->res[d][v] -= delta;
    r->exc[v] -= delta;
    r->st.pushes++;
    if (u < 0) {
        r->acc[0][(size_t)r->cross_k[d] * (size_t)r->plane + (size_t)(u + r->plane)] += delta;
    } else if (u >= r->n) {
        r->acc[1][(size_t)r->cross_k[d] * (size_t)r->plane + (size_t)(u - r->n)] += delta;
    } else {
        r->res[d ^ 1][u] += delta;
        if (r->exc[u] == 0) {
            /* lab[u] = lab[v] - 1 < d_inf: u becomes active. */
            r->queue[*tail] = (int32_t)u;
            *tail = *tail + 1 == qcap ? 0 : *tail + 1;
        }
        r->exc[u] += delta;
    }
}

/* Relabels between two region-local relabellings: a quarter of the
 * region's nodes. A region-local relabel costs a pass over the region;
 * n / 2 .. n / 8 measured alike within the noise of the 2-core machine
 * on the vision grids of bench/results/dist-2026-11-27.md, n and n / 32
 * slower. */
#define REGION_BFS_EVERY(n) ((int64_t)(n) / 4 + 64)

/* Push-relabel (FIFO) on the own nodes with the ghost labels fixed, until
 * no own node is active. Flow pushed into a ghost node goes to acc[]. */
static void pr_discharge(gcut_i_region *r)
{
    const int32_t d_inf = r->s.d_inf, qcap = r->n;
    int32_t tail = build_queue(r), head = 0;
    int64_t queued = tail; /* nodes in the circular queue (each at most once) */
    if (tail == qcap)
        tail = 0;
    while (queued > 0) {
        const int32_t v = r->queue[head];
        head = head + 1 == qcap ? 0 : head + 1;
        queued--;
        int32_t dv = r->lab[v];
        while (r->exc[v] > 0 && dv < d_inf) {
            if (dv == 1 && r->rsink[v] > 0) {
                const int64_t delta = r->exc[v] < r->rsink[v] ? r->exc[v] : r->rsink[v];
                r->rsink[v] -= (int32_t)delta;
                r->exc[v] -= delta;
                r->flow += delta;
                r->st.pushes++;
            }
            for (int32_t d = 0; d < r->ndir && r->exc[v] > 0; d++) {
                const uint32_t rv = r->res[d][v];
                if (rv == 0 || r->lab[v + r->off[d]] != dv - 1)
                    continue;
                const uint32_t delta = r->exc[v] < (int64_t)rv ? (uint32_t)r->exc[v] : rv;
                const int32_t before = tail;
                push(r, v, d, delta, &tail, qcap);
                queued += tail != before;
            }
            if (r->exc[v] == 0)
                break;
            /* Relabel: no admissible arc left. */
            int32_t best = r->rsink[v] > 0 ? 1 : d_inf;
            for (int32_t d = 0; d < r->ndir; d++) {
                if (r->res[d][v] == 0)
                    continue;
                const int32_t lu = r->lab[v + r->off[d]];
                if (lu < best - 1)
                    best = lu + 1;
            }
            r->lab[v] = dv = best;
            r->st.relabels++;
            if (++r->since_bfs >= REGION_BFS_EVERY(r->n)) {
                /* Labels have drifted: make them exact within the region
                 * (they only grow) and start the queue again. */
                r->since_bfs = 0;
                r->st.local_relabels++;
                gcut_i_region_relabel(r);
                r->full_scan = 1;
                tail = build_queue(r);
                head = 0;
                queued = tail;
                if (tail == qcap)
                    tail = 0;
                break;
            }
        }
    }
}

static int cmp_i32(const void *a, const void *b)
{
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* ARD's discharge (see the top): the excess of the region to the sink,
 * then to the ghosts in order of increasing label, each stage a maximum
 * preflow to the targets so far; then the region's ARD labels. A stage
 * is the push-relabel discharge above on plab, whose ghost entries are 0
 * for the targets of the stage and d_inf for the others (so a node pushes
 * into a target ghost at plab 1, as into the sink), after an exact
 * relabel of plab. After the last stage no excess reaches the sink or a
 * ghost of finite label, so no own node is active in ARD's labels. */
static void ard_discharge(gcut_i_region *r)
{
    const int32_t n = r->n, P = r->plane, d_inf = r->s.d_inf, span_lo = -P - r->pad;
    const int32_t span_hi = n + P + r->pad;
    int any = 0;
    for (int32_t v = 0; v < n && !any; v++)
        any = r->exc[v] > 0 && r->lab[v] < d_inf;
    if (!any)
        return;
    /* The stages: 0 (the sink), then each distinct finite ghost label + 1
     * over the residual arcs into the ghosts. */
    int32_t nc = (int32_t)ghost_seeds(r, NULL);
    for (int32_t i = 0; i < nc; i++)
        r->costs[i] = (int32_t)(r->seeds[i] >> 32);
    if (nc > 1)
        qsort(r->costs, (size_t)nc, sizeof *r->costs, cmp_i32);
    int32_t u = 0;
    for (int32_t i = 0; i < nc; i++)
        if (u == 0 || r->costs[i] != r->costs[u - 1])
            r->costs[u++] = r->costs[i];
    nc = u;
    int32_t *const A = r->lab; /* ARD labels, own and ghost */
    r->lab = r->plab;
    r->metric_ard = 0;
    for (int32_t stage = 0; stage <= nc; stage++) {
        const int32_t cost = stage == 0 ? 0 : r->costs[stage - 1];
        for (int32_t j = span_lo; j < span_hi; j++) {
            if (j == 0)
                j = n; /* the ghost planes and pads only */
            r->plab[j] = A[j] < d_inf - 1 && A[j] + 1 <= cost ? 0 : d_inf;
        }
        /* Stage 0 relabels plab afresh when the last discharge went past
         * it (its labels were for more targets than the sink: not valid
         * for the sink alone); otherwise they are still valid (the
         * exchanges since only added residual into ghosts, which are not
         * targets at stage 0). A later stage only adds targets, so labels
         * only go down where the new ones are nearer: the search from the
         * lowered ghosts (the labels stay valid, and the stage's discharge
         * starts from them). */
        if (stage > 0) {
            r->st.local_relabels++;
            relabel_search(r, r->lab, 0);
        } else if (!r->plab_sink) {
            r->st.local_relabels++;
            gcut_i_region_relabel(r);
        }
        r->plab_sink = stage == 0;
        r->full_scan = 1;
        pr_discharge(r);
        int left = 0;
        for (int32_t v = 0; v < n && !left; v++)
            left = r->exc[v] > 0;
        if (!left)
            break;
    }
    r->lab = A;
    r->metric_ard = 1;
    gcut_i_region_relabel(r);
    r->full_scan = 1;
}

/* Discharge the region (push-relabel or ARD, see the top), until no own
 * node is active. Flow pushed into a ghost node goes to acc[]. */
void gcut_i_region_discharge(gcut_i_region *r)
{
    if (r->dx) {
        if (!r->dev_err)
            dev_ok(r,
                   r->dx->discharge(r->dh, &r->st.pushes, &r->st.relabels, &r->st.local_relabels));
        return;
    }
    if (r->s.ard)
        ard_discharge(r);
    else
        pr_discharge(r);
}

/* Nodes active now (those of the boundary planes unless a full scan is
 * due). */
int64_t gcut_i_region_active(const gcut_i_region *r)
{
    if (r->dx) {
        int64_t a = 0;
        return !r->dev_err && dev_ok(r, r->dx->active(r->dh, &a)) ? a : 0;
    }
    int64_t a = 0;
    int32_t lo = 0, hi = r->n;
    if (!r->full_scan) {
        for (int32_t v = 0; v < r->plane; v++)
            a += active(r, v);
        lo = r->plane > r->n - r->plane ? r->plane : r->n - r->plane;
    }
    for (int32_t v = lo; v < hi; v++)
        a += active(r, v);
    return a;
}

/* ------------------------------------------------------------ messages */

/* Fill the send buffers: the labels of the boundary plane, then (with
 * flows) the flows pushed into the neighbour's plane, which are cleared. */
void gcut_i_region_pack(gcut_i_region *r, int with_flows)
{
    if (r->dx) {
        if (!r->dev_err)
            dev_ok(r, r->dx->pack(r->dh, with_flows));
        return;
    }
    const size_t P = (size_t)r->plane;
    for (int side = 0; side < 2; side++) {
        const int32_t base = side == 0 ? 0 : r->n - r->plane;
        memcpy(r->send[side], r->lab + base, P * 4);
        if (with_flows) {
            memcpy(r->send[side] + P * 4, r->acc[side], P * 4 * (size_t)r->ncross);
            memset(r->acc[side], 0, P * 4 * (size_t)r->ncross);
        }
    }
}

/* Read the receive buffers of the sides that have a neighbour: its
 * boundary labels into the ghost plane, then (with flows) the flow it
 * pushed into our boundary plane, which becomes excess here and residual
 * of the arc back. */
void gcut_i_region_unpack(gcut_i_region *r, int with_flows)
{
    if (r->dx) {
        if (!r->dev_err)
            dev_ok(r, r->dx->unpack(r->dh, with_flows));
        return;
    }
    const int32_t P = r->plane;
    for (int side = 0; side < 2; side++) {
        if (side == 0 ? !r->has_lo : !r->has_hi)
            continue;
        memcpy(r->lab + (side == 0 ? -P : r->n), r->recv[side], (size_t)P * 4);
        if (!with_flows)
            continue;
        const uint32_t *f = (const uint32_t *)(r->recv[side] + (size_t)P * 4);
        const int32_t base = side == 0 ? 0 : r->n - P;
        /* From below: the neighbour pushed up, the arc back is down[k]. */
        const int32_t *back = side == 0 ? r->down : r->up;
        for (int32_t k = 0; k < r->ncross; k++) {
            uint32_t *res = r->res[back[k]] + base;
            const uint32_t *fk = f + (size_t)k * (size_t)P;
            for (int32_t j = 0; j < P; j++) {
                if (fk[j] == 0)
                    continue;
                res[j] += fk[j];
                r->exc[base + j] += fk[j];
            }
        }
    }
}

/* The canonical cut of the own nodes, from exact labels: the sink side is
 * the nodes that reach the sink. */
void gcut_i_region_cut(const gcut_i_region *r, uint8_t *cut)
{
    if (r->dx) {
        if (!r->dev_err)
            dev_ok(r, r->dx->cut(r->dh, cut, GCUT_SINK, GCUT_SOURCE));
        return;
    }
    for (int32_t v = 0; v < r->n; v++)
        cut[v] = r->lab[v] < r->s.d_inf ? GCUT_SINK : GCUT_SOURCE;
}
