/*
 * test_dist_mpi.c - gcut/dist.h over MPI (CTest runs it with 2, 3 and 4
 * ranks through mpirun): every rank builds the same random grid, takes
 * its slab, the ranks solve collectively, rank 0 gathers the cut and
 * compares the flow and the cut bytes with cpu-ref on the whole grid.
 * 2-D and 3-D, every connectivity, every capacity pattern of the grid
 * suites (near INT32_MAX included), cuts and flow that cross every
 * boundary, even partitions and random ones with empty ranks and 1-plane
 * slabs; then the collective errors (ranks that disagree on the grid,
 * slabs that do not tile the planes, a bad argument on one rank, a time
 * limit or a memory budget on one rank).
 *
 * A check that fails on one rank must not leave the others in a
 * collective: every verdict is agreed (MPI_Allreduce) before cmocka
 * sees it.
 *
 * GCUT_MPI_TEST_BACKEND=cuda-grid (and GCUT_MPI_TEST_PARAMS=devices=0:1)
 * runs every collective solve with the ranks' regions on GPUs (on a GPU
 * machine, or under scripts/region-emu/run.sh --mpi).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcut/dist.h"
#include "testutil.h"

static int g_rank, g_size;
static int64_t g_cases;
static gcut_solve_options g_opt; /* of every collective solve of the checks */

/* 1 on every rank when `ok` is 1 on every rank. */
static int all_ok(int ok)
{
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

static int32_t planes_of(const gcut_grid *g)
{
    const int32_t c = gcut_grid_connectivity(g);
    return c == 4 || c == 8 ? gcut_grid_height(g) : gcut_grid_depth(g);
}

/* Solve g over the ranks with the slabs counts[] (one per rank) and
 * compare with cpu-ref on rank 0. Returns 1 when every rank agrees it
 * matched. */
static int check_partition(gcut_grid *g, const int32_t *counts, const char *label)
{
    const int32_t c = gcut_grid_connectivity(g), w = gcut_grid_width(g), h = gcut_grid_height(g);
    const int32_t plane = c == 4 || c == 8 ? w : w * h, n = gcut_grid_num_nodes(g);
    int64_t first = 0;
    for (int q = 0; q < g_rank; q++)
        first += counts[q];
    const int32_t count = counts[g_rank];
    const size_t at = (size_t)first * (size_t)plane;
    gcut_dist_grid *dg = NULL;
    int ok = gcut_dist_grid_new(&dg, MPI_COMM_WORLD, w, h, gcut_grid_depth(g), c, first, count) ==
             GCUT_OK;
    if (!all_ok(ok)) {
        fprintf(stderr, "rank %d: %s: gcut_dist_grid_new: %s\n", g_rank, label, gcut_last_error());
        gcut_dist_grid_free(dg);
        return 0;
    }
    ok = gcut_dist_grid_local_nodes(dg) == plane * count &&
         gcut_dist_grid_num_nodes(dg) == (int64_t)n;
    for (int32_t d = 0; d < c && ok; d++)
        ok = gcut_dist_grid_set_caps(dg, d, gcut_grid_caps(g, d) + at) == GCUT_OK;
    ok = ok &&
         gcut_dist_grid_set_terminal_caps(dg, gcut_grid_caps(g, GCUT_GRID_SOURCE_LINK) + at,
                                          gcut_grid_caps(g, GCUT_GRID_SINK_LINK) + at) == GCUT_OK;
    if (!ok)
        fprintf(stderr, "rank %d: %s: setting the slab: %s\n", g_rank, label, gcut_last_error());
    ok = all_ok(ok);
    int64_t flow = -1;
    if (ok && !all_ok(gcut_dist_grid_solve(dg, &g_opt, &flow) == GCUT_OK)) {
        fprintf(stderr, "rank %d: %s: solve: %s\n", g_rank, label, gcut_last_error());
        ok = 0;
    }
    /* The cut, gathered on rank 0. */
    uint8_t *cut = g_rank == 0 ? malloc((size_t)n) : NULL;
    int *sizes = malloc((size_t)g_size * sizeof *sizes),
        *offs = malloc((size_t)g_size * sizeof *offs);
    int64_t acc = 0;
    for (int q = 0; q < g_size; q++) {
        sizes[q] = counts[q] * plane;
        offs[q] = (int)acc;
        acc += sizes[q];
    }
    const uint8_t *mine = ok ? gcut_dist_grid_cut(dg) : NULL;
    static const uint8_t none[1] = {0};
    if (ok && count > 0 && !mine) {
        fprintf(stderr, "rank %d: %s: no cut\n", g_rank, label);
        ok = 0;
    }
    ok = all_ok(ok);
    if (ok)
        MPI_Gatherv(mine ? mine : none, sizes[g_rank], MPI_UINT8_T, cut, sizes, offs, MPI_UINT8_T,
                    0, MPI_COMM_WORLD);
    int match = 1;
    if (ok && g_rank == 0) {
        gcut_result *ref;
        gcut_result_new(&ref);
        gcut_solve_options opt;
        gcut_solve_options_init(&opt);
        opt.backend = "cpu-ref";
        match = gcut_grid_solve(g, &opt, ref) == GCUT_OK;
        if (match && gcut_result_flow(ref) != flow) {
            fprintf(stderr, "%s: flow %lld, cpu-ref %lld\n", label, (long long)flow,
                    (long long)gcut_result_flow(ref));
            match = 0;
        }
        if (match && memcmp(cut, gcut_result_cut(ref), (size_t)n) != 0) {
            fprintf(stderr, "%s: cut differs from cpu-ref\n", label);
            match = 0;
        }
        gcut_result_free(ref);
    }
    /* Every rank has the same flow. */
    int64_t lo = flow, hi = flow;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    if (lo != hi && g_rank == 0)
        fprintf(stderr, "%s: the ranks disagree on the flow (%lld .. %lld)\n", label, (long long)lo,
                (long long)hi);
    match = match && lo == hi;
    free(offs);
    free(sizes);
    free(cut);
    gcut_dist_grid_free(dg);
    g_cases++;
    return all_ok(ok && match);
}

/* The even split, then random partitions with empty ranks and 1-plane
 * slabs (the same on every rank: the generator is seeded alike). */
static int check_all(gcut_grid *g, tu_rng *r, const char *label)
{
    const int32_t P = planes_of(g);
    int32_t counts[64];
    for (int q = 0; q < g_size; q++)
        counts[q] = (int32_t)((int64_t)P * (q + 1) / g_size - (int64_t)P * q / g_size);
    int ok = check_partition(g, counts, label);
    for (int rep = 0; rep < 2 && ok; rep++) {
        int32_t left = P;
        for (int q = 0; q < g_size; q++) {
            const int32_t want =
                tu_range(r, 0, 2) == 0 ? 0 : (int32_t)tu_range(r, 1, P > 2 ? P / 2 : 1);
            counts[q] = q == g_size - 1 ? left : (want < left ? want : left);
            left -= counts[q];
        }
        ok = check_partition(g, counts, label);
    }
    return ok;
}

static void test_random(void **unused)
{
    (void)unused;
    static const struct {
        int32_t w, h, d, c;
    } shapes[] = {
        {1, 1, 1, 4},  {13, 11, 1, 4}, {17, 9, 1, 8}, {1, 37, 1, 4}, {7, 5, 6, 6},
        {5, 6, 7, 18}, {6, 5, 5, 26},  {1, 1, 23, 6}, {3, 2, 2, 26}, {9, 7, 5, 18},
    };
    tu_rng r = {3131};
    char label[128];
    int ok = 1;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0] && ok; s++)
        for (int k = 0; k < TU_GRID_COUNT && ok; k++) {
            gcut_grid *g;
            assert_int_equal(gcut_grid_new(&g, shapes[s].w, shapes[s].h, shapes[s].d, shapes[s].c),
                             GCUT_OK);
            tu_grid_randomise(g, &r, (tu_grid_kind)k);
            snprintf(label, sizeof label, "%d ranks: %dx%dx%d c%d %s", g_size, (int)shapes[s].w,
                     (int)shapes[s].h, (int)shapes[s].d, (int)shapes[s].c,
                     tu_grid_kind_name((tu_grid_kind)k));
            ok = check_all(g, &r, label);
            gcut_grid_free(g);
        }
    assert_true(ok);
}

static void test_crossing(void **unused)
{
    (void)unused;
    static const struct {
        int32_t w, h, d, c;
    } shapes[] = {{12, 16, 1, 4}, {10, 13, 1, 8}, {6, 5, 9, 6}, {5, 4, 8, 18}, {4, 5, 7, 26}};
    tu_rng r = {77};
    char label[128];
    int ok = 1;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0] && ok; s++)
        for (int across = 0; across < 2 && ok; across++)
            for (int huge = 0; huge < 2 && ok; huge++) {
                gcut_grid *g;
                assert_int_equal(
                    gcut_grid_new(&g, shapes[s].w, shapes[s].h, shapes[s].d, shapes[s].c), GCUT_OK);
                tu_grid_set_crossing(g, &r, across, huge);
                snprintf(label, sizeof label, "%d ranks: crossing %dx%dx%d c%d %s%s", g_size,
                         (int)shapes[s].w, (int)shapes[s].h, (int)shapes[s].d, (int)shapes[s].c,
                         across ? "across" : "along", huge ? " huge" : "");
                ok = check_all(g, &r, label);
                gcut_grid_free(g);
            }
    assert_true(ok);
}

/* A larger volume: many sweeps and global relabels. */
static void test_larger(void **unused)
{
    (void)unused;
    tu_rng r = {5};
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 20, 18, 24, 6), GCUT_OK);
    tu_grid_randomise(g, &r, TU_GRID_SEEDS);
    int ok = check_all(g, &r, "larger 20x18x24 c6 seeds");
    gcut_grid_free(g);
    assert_int_equal(gcut_grid_new(&g, 90, 80, 1, 8), GCUT_OK);
    tu_grid_randomise(g, &r, TU_GRID_MEDIUM);
    ok = ok && check_all(g, &r, "larger 90x80 c8 medium");
    gcut_grid_free(g);
    assert_true(ok);
}

/* Errors agreed on every rank. */
static void test_errors(void **unused)
{
    (void)unused;
    gcut_dist_grid *dg = NULL;
    /* Ranks that disagree on the width. */
    gcut_status st = gcut_dist_grid_new(&dg, MPI_COMM_WORLD, 5 + (g_rank == 1), 4, 1, 4,
                                        g_rank == 0 ? 0 : 4, g_rank == 0 ? 4 : 0);
    assert_int_equal(st, GCUT_ERR_INVALID);
    assert_null(dg);
    assert_non_null(strstr(gcut_last_error(), "rank 1"));
    /* A gap between slabs. */
    st = gcut_dist_grid_new(&dg, MPI_COMM_WORLD, 5, 4 * g_size + 1, 1, 4, 4 * g_rank + 1, 4);
    assert_int_equal(st, GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "rank 0 starts at plane 1"));
    /* The slabs do not cover the planes. */
    st = gcut_dist_grid_new(&dg, MPI_COMM_WORLD, 5, 4 * g_size + 2, 1, 4, 4 * g_rank, 4);
    assert_int_equal(st, GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "cover"));
    /* A bad argument on the last rank only: every rank fails. */
    st = gcut_dist_grid_new(&dg, MPI_COMM_WORLD, 5, 4, 3, g_rank == g_size - 1 ? 7 : 6, 0,
                            g_rank == 0 ? 3 : 0);
    assert_int_equal(st, GCUT_ERR_INVALID);
    if (g_rank != g_size - 1)
        assert_non_null(strstr(gcut_last_error(), "failed its local checks"));
    /* Local errors of the setters, and a good grid at last. */
    st = gcut_dist_grid_new(&dg, MPI_COMM_WORLD, 5, 4, g_size, 6, g_rank, 1);
    assert_int_equal(st, GCUT_OK);
    assert_null(gcut_dist_grid_cut(dg));
    int32_t neg[20];
    memset(neg, 0, sizeof neg);
    neg[7] = -1;
    assert_int_equal(gcut_dist_grid_set_caps(dg, 0, neg), GCUT_ERR_INVALID);
    assert_int_equal(gcut_dist_grid_set_caps(dg, 6, neg + 8), GCUT_ERR_INVALID);
    assert_int_equal(gcut_dist_grid_set_terminal_caps(dg, NULL, neg), GCUT_ERR_INVALID);
    int64_t flow = -1;
    assert_int_equal(gcut_dist_grid_solve(dg, NULL, &flow), GCUT_OK);
    assert_int_equal(flow, 0);
    gcut_dist_stats stats;
    assert_int_equal(gcut_dist_grid_stats(dg, &stats), GCUT_OK);
    assert_true(stats.global_relabels >= 1);
    assert_non_null(gcut_dist_grid_cut(dg));
    /* A time limit on the last rank only stops every rank at the same
     * sweep; a memory budget too small on rank 0 fails every rank. */
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    if (g_rank == g_size - 1)
        opt.time_limit = 1e-9;
    assert_int_equal(gcut_dist_grid_solve(dg, &opt, &flow), GCUT_ERR_TIMEOUT);
    assert_null(gcut_dist_grid_cut(dg));
    if (g_rank != g_size - 1)
        assert_non_null(strstr(gcut_last_error(), "another rank"));
    gcut_solve_options_init(&opt);
    if (g_rank == 0)
        opt.max_memory = 64;
    assert_int_equal(gcut_dist_grid_solve(dg, &opt, &flow), GCUT_ERR_NOMEM);
    /* Regions on GPUs: "devices=" needs cuda-grid (every rank says so);
     * a bad setting on the last rank only fails every rank; without a
     * usable cuda-grid, every rank fails with the reason, none hangs. */
    gcut_solve_options_init(&opt);
    opt.params = "devices=0";
    assert_int_equal(gcut_dist_grid_solve(dg, &opt, &flow), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "needs backend"));
    gcut_solve_options_init(&opt);
    if (g_rank == g_size - 1) {
        opt.backend = "cuda-grid";
        opt.params = "devices=0:0";
    }
    assert_int_equal(gcut_dist_grid_solve(dg, &opt, &flow), GCUT_ERR_INVALID);
    assert_null(gcut_dist_grid_cut(dg));
    if (g_rank != g_size - 1)
        assert_non_null(strstr(gcut_last_error(), "failed to set up its regions"));
    else
        assert_non_null(strstr(gcut_last_error(), "listed twice"));
    if (!tu_backend_available("cuda-grid")) {
        gcut_solve_options_init(&opt);
        opt.backend = "cuda-grid";
        const gcut_status got = gcut_dist_grid_solve(dg, &opt, &flow);
        if (got != GCUT_ERR_UNAVAILABLE && got != GCUT_ERR_NOT_FOUND)
            fail_msg("rank %d: cuda-grid regions without cuda-grid: %s (%s)", g_rank,
                     gcut_status_string(got), gcut_last_error());
        assert_non_null(strstr(gcut_last_error(), "cuda-grid"));
    }
    assert_int_equal(gcut_dist_grid_solve(dg, NULL, &flow), GCUT_OK);
    assert_non_null(gcut_dist_grid_cut(dg));
    gcut_dist_grid_free(dg);
}

static void test_count(void **unused)
{
    (void)unused;
    if (g_rank == 0)
        print_message("[ dist_mpi ] %lld collective solves on %d ranks checked against cpu-ref\n",
                      (long long)g_cases, g_size);
    assert_true(g_cases > 100);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    if (g_size > 64) {
        MPI_Finalize();
        return 77;
    }
    gcut_solve_options_init(&g_opt);
    g_opt.backend = getenv("GCUT_MPI_TEST_BACKEND");
    g_opt.params = getenv("GCUT_MPI_TEST_PARAMS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random), cmocka_unit_test(test_crossing),
        cmocka_unit_test(test_larger), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_count),
    };
    /* Only rank 0 reports; every rank runs the same tests. */
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    int any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return any ? 1 : 0;
}
