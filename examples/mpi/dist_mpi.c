/*
 * mpi/dist_mpi.c - a volume cut by several MPI ranks, each holding only its
 * slab of planes (docs/distributed.md):
 *
 *     mpirun -np 3 build/bin/example-dist-mpi
 *
 * Every rank computes the capacities of its own planes from a formula (a
 * noisy ball), the ranks solve collectively, and each gets the cut of its
 * slab. Rank 0 then builds the whole volume alone and checks that
 * gcut_grid_solve gives the same flow and that the foreground has the same
 * size: the partitioned solve is exact. The exit status says whether it is.
 */
#define GCUT_ALLOW_EXPERIMENTAL
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include <gcut/dist.h>
#include <gcut/gcut.h>

enum { W = 48, H = 40, D = 36, SMOOTH = 30 };

/* The terminal capacities of voxel (x, y, z): a ball of radius 14 is
 * foreground, with deterministic noise. */
static void unary(int32_t x, int32_t y, int32_t z, int32_t *src, int32_t *snk)
{
    const int32_t dx = x - W / 2, dy = y - H / 2, dz = z - D / 2;
    const int inside = dx * dx + dy * dy + dz * dz < 14 * 14;
    const uint32_t hash =
        (uint32_t)x * 73856093u ^ (uint32_t)y * 19349663u ^ (uint32_t)z * 83492791u;
    const int32_t noise = (int32_t)(hash % 100);
    *src = inside ? 100 + noise : noise; /* the cost of the background label */
    *snk = inside ? noise : 100 + noise; /* the cost of the foreground label */
}

/* Fill planes z0 .. z0 + nz - 1 (slab order) for the 6 directions. */
static void fill(int32_t z0, int32_t nz, int32_t *src, int32_t *snk, int32_t *caps[6])
{
    for (int32_t z = 0; z < nz; z++)
        for (int32_t y = 0; y < H; y++)
            for (int32_t x = 0; x < W; x++) {
                const size_t v = (size_t)x + (size_t)W * ((size_t)y + (size_t)H * (size_t)z);
                unary(x, y, z0 + z, &src[v], &snk[v]);
                for (int d = 0; d < 6; d++)
                    caps[d][v] = SMOOTH;
            }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* This rank's planes: an even split of the D planes of z. */
    const int32_t first = (int32_t)((int64_t)D * rank / size);
    const int32_t count = (int32_t)((int64_t)D * (rank + 1) / size) - first;
    const size_t n = (size_t)W * H * (size_t)count;
    int32_t *src = malloc(n * 4 + 1), *snk = malloc(n * 4 + 1), *caps[6];
    for (int d = 0; d < 6; d++)
        caps[d] = malloc(n * 4 + 1);
    fill(first, count, src, snk, caps);

    gcut_dist_grid *dg;
    if (gcut_dist_grid_new(&dg, MPI_COMM_WORLD, W, H, D, 6, first, count) != GCUT_OK) {
        fprintf(stderr, "rank %d: %s\n", rank, gcut_last_error());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    gcut_dist_grid_set_terminal_caps(dg, src, snk);
    for (int32_t d = 0; d < 6; d++)
        gcut_dist_grid_set_caps(dg, d, caps[d]);
    int64_t flow;
    if (gcut_dist_grid_solve(dg, NULL, &flow) != GCUT_OK) {
        fprintf(stderr, "rank %d: %s\n", rank, gcut_last_error());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const uint8_t *cut = gcut_dist_grid_cut(dg);
    int64_t fg = 0;
    for (size_t v = 0; v < n; v++)
        fg += cut[v] == GCUT_SOURCE;
    MPI_Allreduce(MPI_IN_PLACE, &fg, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    gcut_dist_stats stats;
    gcut_dist_grid_stats(dg, &stats);
    gcut_dist_grid_free(dg);

    int ok = 1;
    if (rank == 0) {
        /* The same volume in one process, for the check. */
        const size_t all = (size_t)W * H * D;
        int32_t *s = malloc(all * 4), *t = malloc(all * 4), *c[6];
        for (int d = 0; d < 6; d++)
            c[d] = malloc(all * 4);
        fill(0, D, s, t, c);
        gcut_grid *g;
        gcut_grid_new(&g, W, H, D, 6);
        gcut_grid_set_terminal_caps(g, s, t);
        for (int32_t d = 0; d < 6; d++)
            gcut_grid_set_caps(g, d, c[d]);
        gcut_result *r;
        gcut_result_new(&r);
        gcut_grid_solve(g, NULL, r);
        int64_t fg1 = 0;
        for (size_t v = 0; v < all; v++)
            fg1 += gcut_result_cut(r)[v] == GCUT_SOURCE;
        ok = gcut_result_flow(r) == flow && fg1 == fg;
        printf("%d ranks: flow %lld, %lld foreground voxels, %lld sweeps; one process: flow "
               "%lld, %lld foreground voxels: %s\n",
               size, (long long)flow, (long long)fg, (long long)stats.sweeps,
               (long long)gcut_result_flow(r), (long long)fg1, ok ? "same" : "DIFFERENT");
        gcut_result_free(r);
        gcut_grid_free(g);
        for (int d = 0; d < 6; d++)
            free(c[d]);
        free(t);
        free(s);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int d = 0; d < 6; d++)
        free(caps[d]);
    free(snk);
    free(src);
    MPI_Finalize();
    return ok ? 0 : 1;
}
