/*
 * dist_mpi.c - gcut/dist.h: the region-partitioned grid max-flow of
 * lib/dist/ over MPI, two regions per rank of 2 planes or more (libgcut_mpi).
 *
 * This file is only the MPI side: the handle with the rank's slab arrays,
 * the collective checks of the partition, and the two operations the
 * driver needs (gcut_i_dist_comm): the exchange of boundary messages with
 * the nearest non-empty ranks below and above (MPI_Irecv / MPI_Isend,
 * then MPI_Waitall), and sums over every rank (MPI_Allreduce). The
 * algorithm and its exactness are in lib/dist/dist.c and
 * docs/distributed.md.
 *
 * Every collective of this file runs on every rank whatever happened
 * locally, so that a failure on one rank becomes a failure on all of
 * them, never a hang.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "gcut/dist.h"

#include "dist/region_internal.h"

struct gcut_dist_grid {
    MPI_Comm comm; /* our duplicate */
    int rank, size;
    int64_t w, h, d;
    int32_t conn;
    int64_t first;
    int32_t count;
    int32_t plane, n;     /* nodes per plane, own nodes */
    int64_t nodes;        /* global */
    int lo_rank, hi_rank; /* nearest non-empty ranks below and above, or -1 */
    int32_t index;        /* the place of this rank's first region among all regions */
    int32_t *data;        /* (conn + 2) * n: directions, source, sink */
    unsigned char *stage; /* 4 messages in host memory, for regions on a GPU */
    size_t stage_bytes;   /* of one message */
    uint8_t *cut;
    int cut_valid;
    gcut_dist_stats stats;
};

/* The message of a failed MPI call. */
static gcut_status mpi_fail(int err, const char *what)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(err, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", err);
    return GCUT_FAIL(GCUT_ERR_IO, "%s failed: %s", what, text);
}

/* ------------------------------------------------ gcut_i_dist_comm */

enum { DIST_TAG_UP = 2101, DIST_TAG_DOWN = 2102 };

static gcut_status mpi_exchange(void *ctx, gcut_i_region *const *regs, int32_t nregs, size_t bytes)
{
    gcut_dist_grid *dg = ctx;
    if (nregs == 0)
        return GCUT_OK;
    /* Between this rank's own regions: copies (device to device for
     * regions on a GPU; a failed copy stays with its region, and the solve
     * fails on every rank at its end). */
    for (int32_t i = 0; i + 1 < nregs; i++) {
        gcut_i_region_copy_msg(regs[i + 1], 0, regs[i], 1, bytes);
        gcut_i_region_copy_msg(regs[i], 1, regs[i + 1], 0, bytes);
    }
    /* The lowest region talks to the rank below, the highest to the one
     * above. Regions on a GPU stage their messages through host memory
     * (MPI is not assumed to read device memory). */
    gcut_i_region *r = regs[0], *top = regs[nregs - 1];
    const int staged = gcut_i_region_device_handle(r) != NULL;
    if (staged && (!dg->stage || bytes > dg->stage_bytes))
        return GCUT_FAIL(GCUT_ERR_INTERNAL, "no staging buffers for %zu bytes", bytes);
    void *send_lo = staged ? dg->stage : gcut_i_region_send_buf(r, 0);
    void *send_hi = staged ? dg->stage + bytes : gcut_i_region_send_buf(top, 1);
    void *recv_lo = staged ? dg->stage + 2 * bytes : gcut_i_region_recv_buf(r, 0);
    void *recv_hi = staged ? dg->stage + 3 * bytes : gcut_i_region_recv_buf(top, 1);
    if (staged) {
        if (dg->lo_rank >= 0)
            gcut_i_region_copy_out(r, 0, send_lo, bytes);
        if (dg->hi_rank >= 0)
            gcut_i_region_copy_out(top, 1, send_hi, bytes);
    }
    MPI_Request req[4];
    int nreq = 0, err = MPI_SUCCESS;
    const int count = (int)bytes; /* checked in gcut_dist_grid_new */
    /* What goes up is tagged UP: the receiver above reads it as its side 0. */
    if (dg->lo_rank >= 0 && err == MPI_SUCCESS)
        err = MPI_Irecv(recv_lo, count, MPI_BYTE, dg->lo_rank, DIST_TAG_UP, dg->comm,
                        &req[nreq++]);
    if (dg->hi_rank >= 0 && err == MPI_SUCCESS)
        err = MPI_Irecv(recv_hi, count, MPI_BYTE, dg->hi_rank, DIST_TAG_DOWN, dg->comm,
                        &req[nreq++]);
    if (dg->lo_rank >= 0 && err == MPI_SUCCESS)
        err = MPI_Isend(send_lo, count, MPI_BYTE, dg->lo_rank, DIST_TAG_DOWN, dg->comm,
                        &req[nreq++]);
    if (dg->hi_rank >= 0 && err == MPI_SUCCESS)
        err = MPI_Isend(send_hi, count, MPI_BYTE, dg->hi_rank, DIST_TAG_UP, dg->comm,
                        &req[nreq++]);
    if (err != MPI_SUCCESS)
        return mpi_fail(err, "MPI_Isend/MPI_Irecv of a boundary");
    if ((err = MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE)) != MPI_SUCCESS)
        return mpi_fail(err, "MPI_Waitall of a boundary exchange");
    if (staged) {
        if (dg->lo_rank >= 0)
            gcut_i_region_copy_in(r, 2, recv_lo, bytes);
        if (dg->hi_rank >= 0)
            gcut_i_region_copy_in(top, 3, recv_hi, bytes);
    }
    return GCUT_OK;
}

static gcut_status mpi_allreduce(void *ctx, int64_t *vals, int32_t count)
{
    gcut_dist_grid *dg = ctx;
    const int err = MPI_Allreduce(MPI_IN_PLACE, vals, count, MPI_INT64_T, MPI_SUM, dg->comm);
    return err == MPI_SUCCESS ? GCUT_OK : mpi_fail(err, "MPI_Allreduce");
}

/* ---------------------------------------------------------- the handle */

/* What each rank tells the others in gcut_dist_grid_new. */
enum { K_W, K_H, K_D, K_CONN, K_FIRST, K_COUNT, K_STATUS, K_N };

/* The regions of a slab of `count` planes: two (one of each colour, so
 * that the rank works in both halves of every sweep) from 2 planes on. */
static int32_t dist_subs(int64_t count)
{
    return count >= GCUT_I_DIST_MAX_SUB ? GCUT_I_DIST_MAX_SUB : (int32_t)count;
}

/* The checks every rank makes on the same gathered table, so that every
 * rank reaches the same verdict and the same message. */
static gcut_status check_partition(gcut_dist_grid *dg, const int64_t *all)
{
    for (int q = 1; q < dg->size; q++) {
        const int64_t *t = all + (size_t)q * K_N;
        if (t[K_W] != all[K_W] || t[K_H] != all[K_H] || t[K_D] != all[K_D] ||
            t[K_CONN] != all[K_CONN])
            return GCUT_FAIL(GCUT_ERR_INVALID,
                             "rank %d has a %lld x %lld x %lld grid of connectivity %lld, "
                             "rank 0 one of %lld x %lld x %lld, %lld",
                             q, (long long)t[K_W], (long long)t[K_H], (long long)t[K_D],
                             (long long)t[K_CONN], (long long)all[K_W], (long long)all[K_H],
                             (long long)all[K_D], (long long)all[K_CONN]);
    }
    const int three_d = dg->conn != 4 && dg->conn != 8;
    const int64_t planes = three_d ? dg->d : dg->h;
    int64_t next = 0;
    dg->lo_rank = dg->hi_rank = -1;
    dg->index = 0;
    for (int q = 0; q < dg->size; q++) {
        const int64_t *t = all + (size_t)q * K_N;
        if (t[K_COUNT] == 0)
            continue;
        if (t[K_FIRST] != next)
            return GCUT_FAIL(GCUT_ERR_INVALID,
                             "rank %d starts at plane %lld, but the ranks before it end at "
                             "plane %lld (slabs tile the planes in rank order)",
                             q, (long long)t[K_FIRST], (long long)next);
        next += t[K_COUNT];
        if (q < dg->rank) {
            dg->lo_rank = q;
            dg->index += dist_subs(t[K_COUNT]);
        } else if (q > dg->rank && dg->hi_rank < 0) {
            dg->hi_rank = q;
        }
    }
    if (next != planes)
        return GCUT_FAIL(GCUT_ERR_INVALID, "the slabs cover %lld planes, the grid has %lld",
                         (long long)next, (long long)planes);
    return GCUT_OK;
}

/* The local checks of gcut_dist_grid_new (recorded, and told to the
 * other ranks as a status). */
static gcut_status check_local(int64_t w, int64_t h, int64_t d, int32_t conn, int64_t first,
                               int32_t count, int32_t *plane)
{
    gcut_status st = gcut_i_dist_check_shape(w, h, d, conn);
    if (st != GCUT_OK)
        return st;
    const int three_d = conn != 4 && conn != 8;
    const int64_t planes = three_d ? d : h;
    *plane = (int32_t)(three_d ? w * h : w);
    if (count < 0 || first < 0 || first + count > planes)
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "slab of %d planes from plane %lld: outside the %lld "
                         "planes of the grid",
                         (int)count, (long long)first, (long long)planes);
    int32_t ncross = three_d ? (conn == 6 ? 1 : conn == 18 ? 5 : 9) : (conn == 4 ? 1 : 3);
    if ((int64_t)*plane * 4 * (1 + ncross) > INT_MAX)
        return GCUT_FAIL(GCUT_ERR_OVERFLOW,
                         "a boundary message of a plane of %d nodes passes INT_MAX bytes",
                         (int)*plane);
    if ((int64_t)*plane * (count + 2) + 2 * (w + 1) > INT32_MAX)
        return GCUT_FAIL(GCUT_ERR_OVERFLOW,
                         "a slab of %d planes of %d nodes passes 32-bit local indices "
                         "(use more ranks)",
                         (int)count, (int)*plane);
    return GCUT_OK;
}

/* Agree on a status over every rank of c: GCUT_OK when every rank has
 * GCUT_OK, else the first failing rank's status (recorded here with the
 * rank's number when it is another rank's). */
static gcut_status agree(MPI_Comm c, gcut_status st, const char *what)
{
    int rank = 0;
    MPI_Comm_rank(c, &rank);
    /* MAXLOC picks the lowest rank among the failing ones. */
    int in[2] = {st != GCUT_OK ? 1 : 0, rank}, out[2] = {0, 0};
    int err = MPI_Allreduce(in, out, 1, MPI_2INT, MPI_MAXLOC, c);
    if (err != MPI_SUCCESS)
        return mpi_fail(err, "MPI_Allreduce");
    if (!out[0])
        return GCUT_OK;
    int32_t code = (int32_t)st; /* the failing rank's status, for every rank */
    if ((err = MPI_Bcast(&code, 1, MPI_INT32_T, out[1], c)) != MPI_SUCCESS)
        return mpi_fail(err, "MPI_Bcast");
    if (st != GCUT_OK)
        return st;
    return GCUT_FAIL((gcut_status)code, "rank %d failed %s (its own call says why)", out[1], what);
}

gcut_status gcut_dist_grid_new(gcut_dist_grid **out, MPI_Comm comm, int64_t width, int64_t height,
                               int64_t depth, int32_t connectivity, int64_t first, int32_t count)
{
    GCUT_ENTRY();
    if (comm == MPI_COMM_NULL)
        return GCUT_FAIL(GCUT_ERR_INVALID, "the communicator is MPI_COMM_NULL");
    int size = 1, err;
    MPI_Comm_size(comm, &size);
    int32_t plane = 0;
    int64_t *all = NULL;
    gcut_dist_grid *dg = gcut_i_calloc(1, sizeof *dg);
    gcut_status st = GCUT_OK;
    if (!dg)
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "cannot allocate a distributed grid");
    else if (!out)
        st = GCUT_FAIL(GCUT_ERR_INVALID, "out must not be NULL");
    else if ((st = check_local(width, height, depth, connectivity, first, count, &plane)) ==
             GCUT_OK)
        st = gcut_i_alloc_array((void **)&all, (int64_t)size * K_N, sizeof *all, __func__,
                                "the table of %d ranks", size);
    /* 1. Every rank's arguments are fine (and every rank has a table). */
    if ((st = agree(comm, st, "its local checks")) != GCUT_OK)
        goto fail;
    /* 2. The grids agree and the slabs tile the planes: the same table,
     * hence the same verdict, everywhere. */
    const int64_t mine[K_N] = {width, height, depth, connectivity, first, count, GCUT_OK};
    if ((err = MPI_Allgather(mine, K_N, MPI_INT64_T, all, K_N, MPI_INT64_T, comm)) != MPI_SUCCESS) {
        st = mpi_fail(err, "MPI_Allgather");
        goto fail;
    }
    MPI_Comm_rank(comm, &dg->rank);
    dg->size = size;
    dg->w = width;
    dg->h = height;
    dg->d = depth;
    dg->conn = connectivity;
    dg->first = first;
    dg->count = count;
    dg->plane = plane;
    dg->n = plane * count;
    dg->nodes = width * height * depth;
    dg->comm = MPI_COMM_NULL;
    if ((st = check_partition(dg, all)) != GCUT_OK)
        goto fail;
    /* 3. The rank's arrays, and our own communicator. */
    if (dg->n > 0 &&
        (st = gcut_i_alloc_array((void **)&dg->data, (int64_t)dg->n * (connectivity + 2), 4,
                                 __func__, "the slab's capacities")) == GCUT_OK) {
        memset(dg->data, 0, (size_t)dg->n * (size_t)(connectivity + 2) * 4);
        st = gcut_i_alloc_array((void **)&dg->cut, dg->n, 1, __func__, "the slab's cut");
    }
    if ((st = agree(comm, st, "to allocate its slab")) != GCUT_OK)
        goto fail;
    if ((err = MPI_Comm_dup(comm, &dg->comm)) != MPI_SUCCESS) {
        dg->comm = MPI_COMM_NULL;
        st = mpi_fail(err, "MPI_Comm_dup");
        goto fail;
    }
    MPI_Comm_set_errhandler(dg->comm, MPI_ERRORS_RETURN);
    gcut_i_free(all);
    *out = dg;
    return GCUT_OK;
fail:
    gcut_i_free(all);
    if (dg) {
        gcut_i_free(dg->cut);
        gcut_i_free(dg->data);
        gcut_i_free(dg);
    }
    return st;
}

void gcut_dist_grid_free(gcut_dist_grid *dg)
{
    if (!dg)
        return;
    if (dg->comm != MPI_COMM_NULL)
        MPI_Comm_free(&dg->comm);
    gcut_i_free(dg->stage);
    gcut_i_free(dg->cut);
    gcut_i_free(dg->data);
    gcut_i_free(dg);
}

int32_t gcut_dist_grid_local_nodes(const gcut_dist_grid *dg) { return dg ? dg->n : 0; }
int64_t gcut_dist_grid_num_nodes(const gcut_dist_grid *dg) { return dg ? dg->nodes : 0; }

/* The index of the slab array of direction or terminal code `what`
 * (directions, then source, then sink), or -1. */
static int32_t slab_index(const gcut_dist_grid *dg, int32_t what)
{
    if (what >= 0 && what < dg->conn)
        return what;
    if (what == GCUT_GRID_SOURCE_LINK)
        return dg->conn;
    if (what == GCUT_GRID_SINK_LINK)
        return dg->conn + 1;
    return -1;
}

static int32_t *slab_array(gcut_dist_grid *dg, int32_t what)
{
    return dg->data + (size_t)slab_index(dg, what) * (size_t)dg->n;
}

static gcut_status check_caps(const gcut_dist_grid *dg, const int32_t *caps, const char *what)
{
    for (int32_t v = 0; v < dg->n; v++)
        if (caps[v] < 0)
            return GCUT_FAIL(GCUT_ERR_INVALID, "%s of local node %d is %d (< 0)", what, (int)v,
                             (int)caps[v]);
    return GCUT_OK;
}

gcut_status gcut_dist_grid_set_caps(gcut_dist_grid *dg, int32_t what, const int32_t *caps)
{
    GCUT_ENTRY();
    if (!dg || !caps)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid and array must not be NULL");
    if (slab_index(dg, what) < 0)
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "array %d is not a direction of connectivity %d "
                         "or a terminal code",
                         (int)what, (int)dg->conn);
    gcut_status st = check_caps(dg, caps, what < 0 ? "terminal capacity" : "capacity");
    if (st != GCUT_OK)
        return st;
    if (dg->n > 0)
        memcpy(slab_array(dg, what), caps, (size_t)dg->n * 4);
    dg->cut_valid = 0;
    return GCUT_OK;
}

gcut_status gcut_dist_grid_set_terminal_caps(gcut_dist_grid *dg, const int32_t *cap_source,
                                             const int32_t *cap_sink)
{
    GCUT_ENTRY();
    if (!dg)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid must not be NULL");
    gcut_status st;
    if ((cap_source && (st = check_caps(dg, cap_source, "source capacity")) != GCUT_OK) ||
        (cap_sink && (st = check_caps(dg, cap_sink, "sink capacity")) != GCUT_OK))
        return st;
    if (cap_source && dg->n > 0)
        memcpy(slab_array(dg, GCUT_GRID_SOURCE_LINK), cap_source, (size_t)dg->n * 4);
    if (cap_sink && dg->n > 0)
        memcpy(slab_array(dg, GCUT_GRID_SINK_LINK), cap_sink, (size_t)dg->n * 4);
    dg->cut_valid = 0;
    return GCUT_OK;
}

gcut_status gcut_dist_grid_solve(gcut_dist_grid *dg, const gcut_solve_options *opt, int64_t *flow)
{
    GCUT_ENTRY();
    if (!dg)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid must not be NULL");
    const double t0 = (MPI_Wtime() * 1e3);
    dg->cut_valid = 0;
    gcut_i_region_shape shape = {(int32_t)dg->w,
                                 (int32_t)dg->h,
                                 (int32_t)dg->d,
                                 dg->conn,
                                 dg->first,
                                 dg->count,
                                 dg->nodes < INT32_MAX ? (int32_t)dg->nodes + 1 : INT32_MAX,
                                 0,
                                 0};
    gcut_i_region_caps caps;
    memset(&caps, 0, sizeof caps);
    if (dg->n > 0) {
        for (int32_t d = 0; d < dg->conn; d++)
            caps.cap[d] = slab_array(dg, d);
        caps.src = slab_array(dg, GCUT_GRID_SOURCE_LINK);
        caps.snk = slab_array(dg, GCUT_GRID_SINK_LINK);
    }
    /* Regions on a GPU with opt->backend "cuda-grid": this rank's device is
     * devices[node-local rank % count] of the setting "devices=0:1:..."
     * (default: device 0); every rank must find the extension. */
    int32_t devices[GCUT_I_MAX_DEVICES], ndev = 0, device = 0;
    const gcut_grid_region_ext *dev = NULL;
    gcut_status st = gcut_i_dist_settings(opt, devices, &ndev, &shape.relabel_every, &shape.ard);
    if (st == GCUT_OK && ndev > 0) {
        if (!(dev = gcut_i_dist_region_ext(opt->backend)))
            st = gcut_last_status();
        MPI_Comm node;
        int local = 0;
        if (MPI_Comm_split_type(dg->comm, MPI_COMM_TYPE_SHARED, dg->rank, MPI_INFO_NULL, &node) ==
            MPI_SUCCESS) {
            MPI_Comm_rank(node, &local);
            MPI_Comm_free(&node);
        }
        device = devices[local % ndev];
        /* Host copies of the four boundary messages. */
        const int three_d = dg->conn != 4 && dg->conn != 8;
        const int32_t ncross =
            three_d ? (dg->conn == 6 ? 1 : dg->conn == 18 ? 5 : 9) : (dg->conn == 4 ? 1 : 3);
        const size_t bytes = (size_t)dg->plane * 4 * (1 + (size_t)ncross);
        if (st == GCUT_OK && (!dg->stage || dg->stage_bytes < bytes)) {
            gcut_i_free(dg->stage);
            dg->stage = NULL;
            dg->stage_bytes = 0;
            if ((st = gcut_i_alloc_array((void **)&dg->stage, 4, bytes, __func__,
                                         "the staging of boundary messages")) == GCUT_OK)
                dg->stage_bytes = bytes;
        }
    }
    if ((st = agree(dg->comm, st, "to set up its regions")) != GCUT_OK)
        return st;
    gcut_i_dist_run run;
    memset(&run, 0, sizeof run);
    run.nodes = dg->nodes;
    const gcut_i_dist_comm comm = {dg, mpi_exchange, mpi_allreduce};
    st = gcut_i_dist_solve_slab(&shape, &caps, dist_subs(dg->count), dg->lo_rank >= 0,
                                dg->hi_rank >= 0, dg->index, dev, device, &comm, opt, dg->cut,
                                &run);
    if (st != GCUT_OK)
        return st;
    dg->cut_valid = 1;
    gcut_dist_stats *s = &dg->stats;
    s->sweeps = run.sweeps;
    s->global_relabels = run.global_relabels;
    s->gr_rounds = run.gr_rounds;
    s->pushes = run.pushes;
    s->relabels = run.relabels;
    s->bytes_sent = run.bytes_sent;
    s->solve_ms = run.solve_ms;
    s->cut_ms = run.cut_ms;
    s->total_ms = (MPI_Wtime() * 1e3) - t0;
    if (flow)
        *flow = run.flow;
    return GCUT_OK;
}

const uint8_t *gcut_dist_grid_cut(const gcut_dist_grid *dg)
{
    return dg && dg->cut_valid && dg->n > 0 ? dg->cut : NULL;
}

gcut_status gcut_dist_grid_stats(const gcut_dist_grid *dg, gcut_dist_stats *out)
{
    GCUT_ENTRY();
    if (!dg || !out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "grid and output must not be NULL");
    *out = dg->stats;
    return GCUT_OK;
}
