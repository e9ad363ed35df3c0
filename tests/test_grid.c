/*
 * test_grid.c - gcut_grid: the API and its validation, the direction
 * table, border handling, the conversion for generic back ends, every back
 * end through gcut_grid_solve against cpu-ref on grids of every
 * connectivity and shape, and warm re-solves against cold ones.
 *
 * The reference graph of a grid is built here, independently of the
 * library's conversion: one directed edge v -> neighbour per (node,
 * direction) inside the grid, from the documented direction table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static const int32_t conns[] = {4, 8, 6, 18, 26};

/* ------------------------------------------------------------ helpers */

static int inside(const gcut_grid *g, int32_t v, int32_t dir, int32_t *u)
{
    const int32_t w = gcut_grid_width(g), h = gcut_grid_height(g), dp = gcut_grid_depth(g);
    int32_t dx, dy, dz;
    assert_int_equal(gcut_grid_direction(gcut_grid_connectivity(g), dir, &dx, &dy, &dz), GCUT_OK);
    const int32_t x = v % w + dx, y = (v / w) % h + dy, z = v / (w * h) + dz;
    if (x < 0 || x >= w || y < 0 || y >= h || z < 0 || z >= dp)
        return 0;
    *u = x + w * (y + h * z);
    return 1;
}

/* The grid as a graph, built arc by arc from the documented semantics. */
static gcut_graph *reference_graph(const gcut_grid *g)
{
    const int32_t n = gcut_grid_num_nodes(g), c = gcut_grid_connectivity(g);
    gcut_graph *gr;
    assert_int_equal(gcut_graph_new(&gr, n, (int64_t)n * c), GCUT_OK);
    for (int32_t v = 0; v < n; v++) {
        int32_t s, t, u;
        assert_int_equal(gcut_grid_get_tweights(g, v, &s, &t), GCUT_OK);
        assert_int_equal(gcut_graph_add_tweights(gr, v, s, t), GCUT_OK);
        for (int32_t d = 0; d < c; d++) {
            if (!inside(g, v, d, &u))
                continue;
            int32_t cap;
            assert_int_equal(gcut_grid_get_cap(g, v, d, &cap), GCUT_OK);
            assert_int_equal(gcut_graph_add_edge(gr, v, u, cap, 0), GCUT_OK);
        }
    }
    return gr;
}

/* The answer to check against: cpu-ref on the reference graph. */
typedef struct reference {
    gcut_graph *graph;
    gcut_result *res;
} reference;

static reference solve_reference(const gcut_grid *g)
{
    reference r = {reference_graph(g), NULL};
    assert_int_equal(gcut_result_new(&r.res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-ref";
    assert_int_equal(gcut_solve(r.graph, &opt, r.res), GCUT_OK);
    return r;
}

static void free_reference(reference *r)
{
    gcut_result_free(r->res);
    gcut_graph_free(r->graph);
}

/* Solve the grid with `backend`: the same flow and cut bytes as the
 * reference, and the cut's capacity equals the flow. Returns the solve's
 * stats (warm_start ...). */
static gcut_stats check_against(gcut_grid *g, const reference *ref, const char *backend,
                                const char *params, const char *label)
{
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = backend;
    opt.params = params;
    gcut_status st = gcut_grid_solve(g, &opt, res);
    if (st != GCUT_OK)
        fail_msg("%s: %s failed: %s", label, backend, gcut_last_error());
    const int32_t n = gcut_grid_num_nodes(g);
    assert_int_equal(gcut_result_num_nodes(res), n);
    if (gcut_result_flow(res) != gcut_result_flow(ref->res))
        fail_msg("%s: %s flow %lld, cpu-ref %lld", label, backend,
                 (long long)gcut_result_flow(res), (long long)gcut_result_flow(ref->res));
    const uint8_t *a = gcut_result_cut(res), *b = gcut_result_cut(ref->res);
    if (memcmp(a, b, (size_t)n) != 0) {
        int32_t v = 0;
        while (a[v] == b[v])
            v++;
        fail_msg("%s: %s cut differs at node %d (%d vs cpu-ref %d)", label, backend, (int)v, a[v],
                 b[v]);
    }
    assert_int_equal(gcut_check_flow(ref->graph, gcut_result_flow(res), NULL, a), GCUT_OK);
    assert_string_equal(gcut_result_backend(res), backend);
    gcut_stats stats = *gcut_result_stats(res);
    gcut_result_free(res);
    return stats;
}

/* check_against a fresh reference. */
static gcut_stats check_grid(gcut_grid *g, const char *backend, const char *params,
                             const char *label)
{
    reference ref = solve_reference(g);
    gcut_stats st = check_against(g, &ref, backend, params, label);
    free_reference(&ref);
    return st;
}

static int usable(int32_t i)
{
    return gcut_backend_available(i, NULL) &&
           (gcut_backend_caps(i) & (GCUT_BACKEND_GRAPH | GCUT_BACKEND_GRID));
}

/* ------------------------------------------------------------ the tests */

static void test_directions(void **unused)
{
    (void)unused;
    for (size_t c = 0; c < sizeof conns / sizeof conns[0]; c++) {
        const int32_t conn = conns[c];
        const int two_d = conn == 4 || conn == 8;
        for (int32_t d = 0; d < conn; d++) {
            int32_t dx, dy, dz, ox, oy, oz;
            assert_int_equal(gcut_grid_direction(conn, d, &dx, &dy, &dz), GCUT_OK);
            assert_int_equal(gcut_grid_direction(conn, GCUT_GRID_OPPOSITE(d), &ox, &oy, &oz),
                             GCUT_OK);
            assert_true(dx == -ox && dy == -oy && dz == -oz);
            const int l1 = abs(dx) + abs(dy) + abs(dz);
            assert_true(l1 >= 1);
            if (two_d)
                assert_int_equal(dz, 0);
            if (conn == 4 || conn == 6)
                assert_int_equal(l1, 1);
            if (conn == 18)
                assert_true(l1 <= 2);
            for (int32_t e = 0; e < d; e++) {
                int32_t ex, ey, ez;
                assert_int_equal(gcut_grid_direction(conn, e, &ex, &ey, &ez), GCUT_OK);
                assert_false(ex == dx && ey == dy && ez == dz);
            }
            /* A smaller connectivity of the same dimension is a prefix. */
            const int32_t big = two_d ? 8 : 26;
            int32_t bx, by, bz;
            assert_int_equal(gcut_grid_direction(big, d, &bx, &by, &bz), GCUT_OK);
            assert_true(bx == dx && by == dy && bz == dz);
        }
    }
    /* The header's table, spot-checked. */
    int32_t dx, dy, dz;
    assert_int_equal(gcut_grid_direction(4, 3, &dx, &dy, &dz), GCUT_OK);
    assert_true(dx == 0 && dy == -1 && dz == 0);
    assert_int_equal(gcut_grid_direction(8, 6, &dx, &dy, &dz), GCUT_OK);
    assert_true(dx == 1 && dy == -1);
    assert_int_equal(gcut_grid_direction(26, 25, &dx, &dy, &dz), GCUT_OK);
    assert_true(dx == 1 && dy == -1 && dz == -1);
    assert_int_equal(gcut_grid_direction(4, 4, &dx, NULL, NULL), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_direction(5, 0, NULL, NULL, NULL), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_direction(6, -1, NULL, NULL, NULL), GCUT_ERR_INVALID);
}

static void test_new_and_validation(void **unused)
{
    (void)unused;
    gcut_grid *g = (gcut_grid *)(uintptr_t)1;
    assert_int_equal(gcut_grid_new(&g, 0, 5, 1, 4), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_new(&g, 5, -1, 1, 4), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_new(&g, 5, 5, 0, 6), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_new(&g, 5, 5, 1, 5), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_new(&g, 5, 5, 2, 4), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "two-dimensional"));
    assert_int_equal(gcut_grid_new(&g, 65536, 65536, 1, 4), GCUT_ERR_OVERFLOW);
    assert_int_equal(gcut_grid_new(&g, 2048, 2048, 1024, 6), GCUT_ERR_OVERFLOW);
    assert_int_equal(gcut_grid_new(NULL, 5, 5, 1, 4), GCUT_ERR_INVALID);
    assert_ptr_equal(g, (gcut_grid *)(uintptr_t)1); /* untouched on failure */
    gcut_grid_free(NULL);

    assert_int_equal(gcut_grid_new(&g, 5, 3, 1, 8), GCUT_OK);
    assert_int_equal(gcut_grid_width(g), 5);
    assert_int_equal(gcut_grid_height(g), 3);
    assert_int_equal(gcut_grid_depth(g), 1);
    assert_int_equal(gcut_grid_connectivity(g), 8);
    assert_int_equal(gcut_grid_num_nodes(g), 15);
    int32_t c = -1;
    assert_int_equal(gcut_grid_get_cap(g, 14, 7, &c), GCUT_OK);
    assert_int_equal(c, 0); /* everything starts at 0 */

    /* Whole arrays: a negative entry fails and changes nothing. */
    int32_t a[15], b[15];
    for (int i = 0; i < 15; i++)
        a[i] = i + 1;
    assert_int_equal(gcut_grid_set_caps(g, 2, a), GCUT_OK);
    a[9] = -4;
    assert_int_equal(gcut_grid_set_caps(g, 2, a), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "node 9"));
    assert_int_equal(gcut_grid_caps(g, 2)[9], 10);
    assert_int_equal(gcut_grid_caps(g, 2)[8], 9);
    assert_int_equal(gcut_grid_set_caps(g, 8, a), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_set_caps(g, -3, a), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_set_caps(g, 0, NULL), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_set_caps(NULL, 0, a), GCUT_ERR_INVALID);
    assert_null(gcut_grid_caps(g, 8));
    assert_null(gcut_grid_caps(NULL, 0));

    /* Terminals: NULL leaves an array alone; a bad sink fails both. */
    for (int i = 0; i < 15; i++)
        a[i] = 100 + i, b[i] = 200 + i;
    assert_int_equal(gcut_grid_set_terminals(g, a, b), GCUT_OK);
    a[0] = 7;
    b[3] = -1;
    assert_int_equal(gcut_grid_set_terminals(g, a, b), GCUT_ERR_INVALID);
    int32_t s, t;
    assert_int_equal(gcut_grid_get_tweights(g, 0, &s, &t), GCUT_OK);
    assert_true(s == 100 && t == 200);
    assert_int_equal(gcut_grid_set_terminals(g, a, NULL), GCUT_OK);
    assert_int_equal(gcut_grid_get_tweights(g, 0, &s, &t), GCUT_OK);
    assert_true(s == 7 && t == 200);
    assert_int_equal(gcut_grid_caps(g, GCUT_GRID_SOURCE_LINK)[0], 7);
    assert_int_equal(gcut_grid_caps(g, GCUT_GRID_SINK_LINK)[14], 214);

    /* Ranges and single entries. */
    int32_t r3[3] = {1, 2, 3};
    assert_int_equal(gcut_grid_set_caps_range(g, 0, 12, 3, r3), GCUT_OK);
    assert_int_equal(gcut_grid_caps(g, 0)[13], 2);
    assert_int_equal(gcut_grid_set_caps_range(g, 0, 13, 3, r3), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_set_caps_range(g, 0, -1, 1, r3), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_set_caps_range(g, 0, 3, 0, NULL), GCUT_OK);
    assert_int_equal(gcut_grid_set_terminals_range(g, 1, 3, r3, NULL), GCUT_OK);
    assert_int_equal(gcut_grid_get_tweights(g, 3, &s, &t), GCUT_OK);
    assert_true(s == 3 && t == 203);
    assert_int_equal(gcut_grid_set_cap(g, 4, 7, 99), GCUT_OK);
    assert_int_equal(gcut_grid_get_cap(g, 4, 7, &c), GCUT_OK);
    assert_int_equal(c, 99);
    assert_int_equal(gcut_grid_set_cap(g, 4, GCUT_GRID_SINK_LINK, 5), GCUT_OK);
    assert_int_equal(gcut_grid_set_cap(g, 4, 7, -1), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_set_cap(g, 15, 0, 1), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_set_tweights(g, 4, 11, 12), GCUT_OK);
    assert_int_equal(gcut_grid_get_tweights(g, 4, &s, NULL), GCUT_OK);
    assert_int_equal(s, 11);
    assert_int_equal(gcut_grid_set_tweights(g, 4, -11, 12), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_get_cap(g, 4, GCUT_GRID_SINK_LINK, &c), GCUT_OK);
    assert_int_equal(c, 12);
    assert_int_equal(gcut_grid_get_cap(g, -1, 0, &c), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_get_cap(g, 0, -3, &c), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_get_tweights(g, 15, &s, &t), GCUT_ERR_INVALID);

    /* Options. */
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.want_flows = 1;
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_UNSUPPORTED);
    opt.want_flows = 0;
    opt.backend = "no-such-engine";
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_NOT_FOUND);
    opt.backend = "cpu-bk";
    opt.params = "ts_limit=0";
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_INVALID);
    opt.params = "color=blue";
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_INVALID);
    opt.params = NULL;
    opt.threads = -2;
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_INVALID);
    assert_int_equal(gcut_result_num_nodes(res), 0); /* untouched */
    assert_int_equal(gcut_grid_solve(NULL, NULL, res), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_solve(g, NULL, NULL), GCUT_ERR_INVALID);
    assert_int_equal(gcut_grid_solve(g, NULL, res), GCUT_OK);
    assert_int_equal(gcut_result_num_nodes(res), 15);
    assert_int_equal(gcut_grid_set_warm_start(NULL, 1), GCUT_ERR_INVALID);
    gcut_result_free(res);
    gcut_grid_free(g);
}

/* fill: called only for directions inside the grid; a negative value
 * leaves the grid unchanged. */
typedef struct fill_ctx {
    int32_t w, h, d, conn;
    int64_t calls;
    int bad_outside;
    int negative_at; /* node index at which to return -1, or -1 */
} fill_ctx;

static int32_t fill_fn(void *user, int32_t x, int32_t y, int32_t z, int32_t what)
{
    fill_ctx *c = user;
    c->calls++;
    if (what >= 0) {
        int32_t dx, dy, dz;
        gcut_grid_direction(c->conn, what, &dx, &dy, &dz);
        if (x + dx < 0 || x + dx >= c->w || y + dy < 0 || y + dy >= c->h || z + dz < 0 ||
            z + dz >= c->d)
            c->bad_outside = 1;
    }
    const int32_t v = x + c->w * (y + c->h * z);
    if (v == c->negative_at && what == 1)
        return -1;
    return 1000 * v + what + 3; /* what + 3 >= 1: terminals give 2 and 1 */
}

static void test_fill(void **unused)
{
    (void)unused;
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 4, 3, 2, 18), GCUT_OK);
    fill_ctx c = {4, 3, 2, 18, 0, 0, -1};
    assert_int_equal(gcut_grid_fill(g, fill_fn, &c), GCUT_OK);
    assert_false(c.bad_outside);
    int64_t expect = 0;
    for (int32_t v = 0; v < 24; v++) {
        int32_t s, t, u;
        assert_int_equal(gcut_grid_get_tweights(g, v, &s, &t), GCUT_OK);
        assert_int_equal(s, 1000 * v + 2);
        assert_int_equal(t, 1000 * v + 1);
        expect += 2;
        for (int32_t d = 0; d < 18; d++) {
            int32_t cap;
            assert_int_equal(gcut_grid_get_cap(g, v, d, &cap), GCUT_OK);
            if (inside(g, v, d, &u)) {
                assert_int_equal(cap, 1000 * v + d + 3);
                expect++;
            } else {
                assert_int_equal(cap, 0);
            }
        }
    }
    assert_int_equal(c.calls, expect);
    c.negative_at = 17;
    int32_t before;
    assert_int_equal(gcut_grid_get_cap(g, 5, 0, &before), GCUT_OK);
    assert_int_equal(gcut_grid_fill(g, fill_fn, &c), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "negative"));
    int32_t after;
    assert_int_equal(gcut_grid_get_cap(g, 5, 0, &after), GCUT_OK);
    assert_int_equal(before, after);
    assert_int_equal(gcut_grid_fill(g, NULL, NULL), GCUT_ERR_INVALID);
    gcut_grid_free(g);
}

/*
 * A hand-drawn 3 x 1 image, 4-connected:
 *
 *   s --10--> [0] --5--> [1] --9--> [2] --7--> t
 *
 * Maximum flow 5 (the arc 0 -> 1). Node 0 cannot reach the sink any more;
 * 1 and 2 can (1 -> 2 keeps 4, 2 -> t keeps 2): cut 0 | 1 1. Capacities of
 * border entries pointing outside (0 to the left, 2 to the right, every
 * node up and down) are set huge and must change nothing.
 */
static void test_hand_drawn(void **unused)
{
    (void)unused;
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 3, 1, 1, 4), GCUT_OK);
    assert_int_equal(gcut_grid_set_tweights(g, 0, 10, 0), GCUT_OK);
    assert_int_equal(gcut_grid_set_tweights(g, 2, 0, 7), GCUT_OK);
    assert_int_equal(gcut_grid_set_cap(g, 0, 0, 5), GCUT_OK); /* 0 -> 1 */
    assert_int_equal(gcut_grid_set_cap(g, 1, 0, 9), GCUT_OK); /* 1 -> 2 */
    for (int32_t pass = 0; pass < 2; pass++) {
        for (int32_t i = 0; i < gcut_backend_count(); i++) {
            if (!usable(i))
                continue;
            gcut_result *r;
            assert_int_equal(gcut_result_new(&r), GCUT_OK);
            gcut_solve_options opt;
            gcut_solve_options_init(&opt);
            opt.backend = gcut_backend_name(i);
            assert_int_equal(gcut_grid_solve(g, &opt, r), GCUT_OK);
            assert_int_equal(gcut_result_flow(r), 5);
            const uint8_t expect[3] = {GCUT_SOURCE, GCUT_SINK, GCUT_SINK};
            assert_memory_equal(gcut_result_cut(r), expect, 3);
            gcut_result_free(r);
        }
        /* Border entries: ignored. */
        assert_int_equal(gcut_grid_set_cap(g, 0, 1, INT32_MAX), GCUT_OK);
        assert_int_equal(gcut_grid_set_cap(g, 2, 0, INT32_MAX), GCUT_OK);
        for (int32_t v = 0; v < 3; v++) {
            assert_int_equal(gcut_grid_set_cap(g, v, 2, 1000), GCUT_OK);
            assert_int_equal(gcut_grid_set_cap(g, v, 3, 1000), GCUT_OK);
        }
    }
    gcut_grid_free(g);
}

/* The conversion: the documented edge order and capacities. */
static void test_to_graph(void **unused)
{
    (void)unused;
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 3, 2, 1, 8), GCUT_OK);
    fill_ctx c = {3, 2, 1, 8, 0, 0, -1};
    assert_int_equal(gcut_grid_fill(g, fill_fn, &c), GCUT_OK);
    gcut_graph *gr;
    assert_int_equal(gcut_grid_to_graph(g, &gr), GCUT_OK);
    /* Pairs: +x 2*2, +y 3*1, (+1,+1) 2*1, (+1,-1) 2*1. */
    assert_int_equal(gcut_graph_num_edges(gr), 4 + 3 + 2 + 2);
    int64_t e = 0;
    for (int32_t v = 0; v < 6; v++) {
        int32_t s, t;
        assert_int_equal(gcut_graph_get_tweights(gr, v, &s, &t), GCUT_OK);
        assert_true(s == 1000 * v + 2 && t == 1000 * v + 1);
        for (int32_t d = 0; d < 8; d += 2) {
            int32_t u;
            if (!inside(g, v, d, &u))
                continue;
            int32_t eu, ev, cap, rev;
            assert_int_equal(gcut_graph_get_edge(gr, e++, &eu, &ev, &cap, &rev), GCUT_OK);
            assert_int_equal(eu, v);
            assert_int_equal(ev, u);
            assert_int_equal(cap, 1000 * v + d + 3);
            assert_int_equal(rev, 1000 * u + (d + 1) + 3);
        }
    }
    assert_int_equal(e, gcut_graph_num_edges(gr));
    gcut_graph_free(gr);
    assert_int_equal(gcut_grid_to_graph(NULL, &gr), GCUT_ERR_INVALID);
    gcut_grid_free(g);
}

/* Every back end through gcut_grid_solve, on every connectivity, shapes
 * (1-wide, 1 x 1 x 1, non-powers of two) and capacity kind. */
static void test_crosscheck(void **unused)
{
    (void)unused;
    static const int32_t shapes2d[][2] = {{1, 1}, {1, 9}, {11, 1}, {7, 5}, {13, 6}, {2, 2}, {24, 17}};
    static const int32_t shapes3d[][3] = {{1, 1, 1}, {1, 1, 7}, {1, 6, 1}, {5, 1, 3},
                                          {3, 4, 5}, {6, 5, 4}, {9, 7, 3}, {2, 2, 2}};
    tu_rng r = {42};
    int cases = 0;
    const int rounds = tu_scaled(2);
    for (int round = 0; round < rounds; round++)
        for (size_t ci = 0; ci < sizeof conns / sizeof conns[0]; ci++) {
            const int32_t conn = conns[ci];
            const int two_d = conn == 4 || conn == 8;
            const size_t nshapes = two_d ? sizeof shapes2d / sizeof shapes2d[0]
                                         : sizeof shapes3d / sizeof shapes3d[0];
            for (size_t si = 0; si < nshapes; si++)
                for (int k = 0; k < TU_GRID_COUNT; k++) {
                    const int32_t w = two_d ? shapes2d[si][0] : shapes3d[si][0];
                    const int32_t h = two_d ? shapes2d[si][1] : shapes3d[si][1];
                    const int32_t d = two_d ? 1 : shapes3d[si][2];
                    gcut_grid *g;
                    assert_int_equal(gcut_grid_new(&g, w, h, d, conn), GCUT_OK);
                    tu_grid_randomise(g, &r, (tu_grid_kind)k);
                    reference ref = solve_reference(g);
                    for (int32_t i = 0; i < gcut_backend_count(); i++) {
                        if (!usable(i))
                            continue;
                        char label[128];
                        snprintf(label, sizeof label, "%dx%dx%d conn %d %s round %d", (int)w,
                                 (int)h, (int)d, (int)conn, tu_grid_kind_name((tu_grid_kind)k), round);
                        check_against(g, &ref, gcut_backend_name(i), NULL, label);
                        cases++;
                    }
                    free_reference(&ref);
                    gcut_grid_free(g);
                }
        }
    /* A few larger ones for the grid engine, with renumbered timestamps. */
    for (size_t ci = 0; ci < sizeof conns / sizeof conns[0]; ci++) {
        const int32_t conn = conns[ci];
        const int two_d = conn == 4 || conn == 8;
        gcut_grid *g;
        assert_int_equal(two_d ? gcut_grid_new(&g, 61, 47, 1, conn)
                               : gcut_grid_new(&g, 13, 11, 9, conn),
                         GCUT_OK);
        tu_grid_randomise(g, &r, TU_GRID_MEDIUM);
        reference ref = solve_reference(g);
        check_against(g, &ref, "cpu-bk", NULL, "larger");
        check_against(g, &ref, "cpu-bk", "ts_limit=3", "larger, ts_limit=3");
        check_against(g, &ref, "cpu-hipr", NULL, "larger (converted)");
        free_reference(&ref);
        gcut_grid_free(g);
    }
    assert_true(cases > 0);
}

static void test_warm(void **unused)
{
    (void)unused;
    tu_rng r = {7};
    int warm = 0, solves = 0;
    const int sequences = tu_scaled(12);
    for (int seq = 0; seq < sequences; seq++) {
        const int32_t conn = conns[seq % 5];
        const int two_d = conn == 4 || conn == 8;
        gcut_grid *g;
        const int32_t w = (int32_t)tu_range(&r, 1, two_d ? 40 : 11);
        const int32_t h = (int32_t)tu_range(&r, 1, two_d ? 30 : 9);
        const int32_t d = two_d ? 1 : (int32_t)tu_range(&r, 1, 7);
        assert_int_equal(gcut_grid_new(&g, w, h, d, conn), GCUT_OK);
        tu_grid_randomise(g, &r, seq % 3 == 0 ? TU_GRID_SEEDS : seq % 3 == 1 ? TU_GRID_MEDIUM : TU_GRID_SMALL);
        const char *params = seq % 4 == 3 ? "ts_limit=5" : NULL;
        char label[160];
        snprintf(label, sizeof label, "warm %dx%dx%d conn %d seq %d, cold", (int)w, (int)h, (int)d,
                 (int)conn, seq);
        assert_int_equal(check_grid(g, "cpu-bk", params, label).warm_start, 0);
        for (int step = 0; step < 25; step++) {
            const int nch = (int)tu_range(&r, 1, 3);
            for (int c = 0; c < nch; c++) {
                int k = (int)tu_range(&r, 0, TU_CH_COUNT - 1);
                if (k == TU_CH_HUGE && tu_range(&r, 0, 3))
                    k = TU_CH_TLINKS; /* keep most sequences warm */
                tu_grid_change(g, &r, (tu_change_kind)k);
            }
            snprintf(label, sizeof label, "warm %dx%dx%d conn %d seq %d step %d", (int)w, (int)h,
                     (int)d, (int)conn, seq, step);
            reference ref = solve_reference(g);
            const gcut_stats st = check_against(g, &ref, "cpu-bk", params, label);
            warm += st.warm_start;
            solves++;
            /* Between two warm solves, a generic back end (through the
             * conversion) leaves the kept state alone. */
            if (step % 7 == 3)
                check_against(g, &ref, "cpu-hipr", NULL, label);
            free_reference(&ref);
        }
        gcut_grid_free(g);
    }
    /* Most solves must have been warm (cold only after overflow fallbacks
     * and on tiny grids where the log limit is reached). */
    assert_true(warm * 10 >= solves * 7);
}

/* Warm solves after every t-link was rewritten (a new colour model of a
 * segmentation): cpu-bk keeps the sign of each touched node's terminal
 * residual in bitmaps for its repair when the log is longer than n / 64.
 * Same flow and canonical cut as cpu-ref, with the BK repair forced and
 * with auto; the new t-links one-sided (one change per node) or
 * two-sided (two), set in one call, array by array or node by node, on
 * node counts that are not multiples of 64, and a shape change between
 * (the bitmaps sized again). */
static void test_warm_terminals(void **unused)
{
    (void)unused;
    tu_rng r = {1234};
    static const int32_t shapes[][4] = {
        {61, 47, 1, 8}, {53, 29, 1, 4}, {13, 11, 7, 6}, {61, 47, 1, 8}};
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        gcut_grid *g;
        assert_int_equal(
            gcut_grid_new(&g, shapes[si][0], shapes[si][1], shapes[si][2], shapes[si][3]), GCUT_OK);
        tu_grid_randomise(g, &r, TU_GRID_MEDIUM);
        const int32_t n = gcut_grid_num_nodes(g);
        int32_t *src = malloc((size_t)n * sizeof *src), *snk = malloc((size_t)n * sizeof *snk);
        assert_true(src && snk);
        char label[128];
        snprintf(label, sizeof label, "terminals %zu, cold", si);
        assert_int_equal(check_grid(g, "cpu-bk", NULL, label).warm_start, 0);
        for (int round = 0; round < 12; round++) {
            const int two_sided = round % 3 == 2;
            for (int32_t v = 0; v < n; v++) {
                const int32_t net = (int32_t)tu_range(&r, -60, 60);
                src[v] = (net > 0 ? net : 0) + (two_sided ? (int32_t)tu_range(&r, 0, 9) : 0);
                snk[v] = (net < 0 ? -net : 0) + (two_sided ? (int32_t)tu_range(&r, 0, 9) : 0);
            }
            if (round % 4 == 1) {
                assert_int_equal(gcut_grid_set_caps(g, GCUT_GRID_SOURCE_LINK, src), GCUT_OK);
                assert_int_equal(gcut_grid_set_caps(g, GCUT_GRID_SINK_LINK, snk), GCUT_OK);
            } else if (round % 4 == 3) {
                for (int32_t v = 0; v < n; v++)
                    assert_int_equal(gcut_grid_set_terminal_cap(g, v, src[v], snk[v]), GCUT_OK);
            } else {
                assert_int_equal(gcut_grid_set_terminal_caps(g, src, snk), GCUT_OK);
            }
            const char *params = round % 2 ? "warm=bk" : NULL;
            snprintf(label, sizeof label, "terminals %zu round %d%s", si, round,
                     params ? " warm=bk" : "");
            assert_int_equal(check_grid(g, "cpu-bk", params, label).warm_start, 1);
        }
        free(src);
        free(snk);
        gcut_grid_free(g);
    }
}

/* Cases where the next solve must be cold, and a warm start that removes
 * flow (capacities below the flow they carry) on a larger image. */
static void test_warm_cold_cases(void **unused)
{
    (void)unused;
    tu_rng r = {99};
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 61, 41, 1, 8), GCUT_OK);
    tu_grid_randomise(g, &r, TU_GRID_MEDIUM);
    assert_int_equal(check_grid(g, "cpu-bk", NULL, "first").warm_start, 0);
    /* Unchanged: warm, and nothing to do. */
    gcut_stats st = check_grid(g, "cpu-bk", NULL, "unchanged");
    assert_int_equal(st.warm_start, 1);
    assert_int_equal(st.augmentations, 0);
    /* Every n-link of one direction halved: flow has to come back. */
    const int32_t n = gcut_grid_num_nodes(g);
    int32_t *a = malloc((size_t)n * sizeof *a);
    assert_non_null(a);
    for (int32_t v = 0; v < n; v++)
        a[v] = gcut_grid_caps(g, 0)[v] / 2;
    assert_int_equal(gcut_grid_set_caps(g, 0, a), GCUT_OK);
    assert_int_equal(check_grid(g, "cpu-bk", NULL, "halved +x").warm_start, 0); /* > n/4 changes */
    for (int32_t v = 0; v < n / 8; v++)
        a[v] = gcut_grid_caps(g, 2)[v] / 3;
    assert_int_equal(gcut_grid_set_caps_range(g, 2, 0, n / 8, a), GCUT_OK);
    assert_int_equal(check_grid(g, "cpu-bk", NULL, "a third of +y").warm_start, 1);
    /* A generic back end in between leaves the kept state alone. */
    check_grid(g, "cpu-ref", NULL, "ref");
    assert_int_equal(check_grid(g, "cpu-bk", NULL, "after ref").warm_start, 1);
    /* Warm start off: always cold. */
    assert_int_equal(gcut_grid_set_warm_start(g, 0), GCUT_OK);
    tu_grid_change(g, &r, TU_CH_STROKE);
    assert_int_equal(check_grid(g, "cpu-bk", NULL, "warm off").warm_start, 0);
    tu_grid_change(g, &r, TU_CH_STROKE);
    assert_int_equal(check_grid(g, "cpu-bk", NULL, "warm off 2").warm_start, 0);
    assert_int_equal(gcut_grid_set_warm_start(g, 1), GCUT_OK);
    assert_int_equal(check_grid(g, "cpu-bk", NULL, "warm on").warm_start, 0);
    tu_grid_change(g, &r, TU_CH_STROKE);
    assert_int_equal(check_grid(g, "cpu-bk", NULL, "warm on 2").warm_start, 1);
    /* A failed solve (time limit) makes the next one cold, and right. */
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-bk";
    opt.params = "bad";
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_INVALID);
    tu_grid_change(g, &r, TU_CH_STROKE);
    assert_int_equal(check_grid(g, "cpu-bk", NULL, "after failure").warm_start, 0);
    gcut_result_free(res);
    free(a);
    gcut_grid_free(g);
}

/* The time limit on a grid big enough to reach the clock check. */
static void test_time_limit(void **unused)
{
    (void)unused;
    tu_rng r = {5};
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 200, 150, 1, 4), GCUT_OK);
    tu_grid_randomise(g, &r, TU_GRID_MEDIUM);
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-bk";
    opt.time_limit = 1e-9;
    assert_int_equal(gcut_grid_solve(g, &opt, res), GCUT_ERR_TIMEOUT);
    assert_int_equal(gcut_result_num_nodes(res), 0);
    gcut_result_free(res);
    assert_int_equal(check_grid(g, "cpu-bk", NULL, "after timeout").warm_start, 0);
    gcut_grid_free(g);
}

/* auto picks the grid engine and says so; names are honoured. */
static void test_choice(void **unused)
{
    (void)unused;
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, 8, 8, 1, 4), GCUT_OK);
    int32_t idx;
    const char *why;
    if (!getenv("GCUT_BACKEND")) {
        assert_int_equal(gcut_grid_backend_choose(g, "auto", &idx, &why), GCUT_OK);
        assert_string_equal(gcut_backend_name(idx), "cpu-bk");
        assert_non_null(strstr(why, "grid-native"));
        assert_int_equal(gcut_grid_backend_choose(g, NULL, &idx, NULL), GCUT_OK);
        assert_string_equal(gcut_backend_name(idx), "cpu-bk");
        gcut_result *res;
        assert_int_equal(gcut_result_new(&res), GCUT_OK);
        assert_int_equal(gcut_grid_solve(g, NULL, res), GCUT_OK);
        assert_string_equal(gcut_result_backend(res), "cpu-bk");
        assert_non_null(strstr(gcut_result_reason(res), "grid-native"));
        gcut_result_free(res);
    }
    assert_int_equal(gcut_grid_backend_choose(g, "cpu-hipr", &idx, &why), GCUT_OK);
    assert_string_equal(gcut_backend_name(idx), "cpu-hipr");
    assert_string_equal(why, "named by the caller");
    assert_int_equal(gcut_grid_backend_choose(g, "nope", &idx, &why), GCUT_ERR_NOT_FOUND);
    assert_int_equal(gcut_grid_backend_choose(NULL, "auto", &idx, &why), GCUT_ERR_INVALID);
    assert_true(gcut_backend_caps(idx) & GCUT_BACKEND_GRAPH);
    int32_t bk;
    assert_int_equal(gcut_backend_find("cpu-bk", &bk), GCUT_OK);
    assert_true(gcut_backend_caps(bk) & GCUT_BACKEND_GRID);
    gcut_grid_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_directions),     cmocka_unit_test(test_new_and_validation),
        cmocka_unit_test(test_fill),           cmocka_unit_test(test_hand_drawn),
        cmocka_unit_test(test_to_graph),       cmocka_unit_test(test_crosscheck),
        cmocka_unit_test(test_warm),           cmocka_unit_test(test_warm_cold_cases),
        cmocka_unit_test(test_warm_terminals), cmocka_unit_test(test_time_limit),
        cmocka_unit_test(test_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
