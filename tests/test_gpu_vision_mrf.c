/*
 * test_gpu_vision_mrf.c - alpha-expansion and alpha-beta swap on the device
 * (cuda-grid's "gcut.vision.mrf" extension) against the host loop with cpu-bk.
 *
 * Every move of both is decided by the canonical cut of the same move
 * graph, and the moves come in the same order (the random order drawn the
 * same way), so the labellings must be identical, and so must the energy
 * after every cycle, the number of cycles and of accepted moves. Random
 * energies on every connectivity: Potts, truncated linear and metric
 * tables (and truncated quadratic for swap, a semi-metric), with and
 * without per-edge weights, in order and in random order; swaps from
 * labellings that leave labels unused (pairs skipped, and counted the same
 * way); costs near the limits where a move's capacities still fit; an
 * overflow refused with the labels unchanged.
 *
 * Exits 77 (skip) when cuda-grid is unavailable.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcut/vision/mrf.h"
#include "testutil.h"
#include "gcut/plugin.h"

typedef struct shape {
    int32_t w, h, d, conn, L;
} shape;

static gcut_mrf *make(const shape *s, tu_rng *r, int kind, int weights, int32_t big)
{
    gcut_mrf *m;
    assert_int_equal(gcut_mrf_new(&m, s->w, s->h, s->d, s->conn, s->L), GCUT_OK);
    const int32_t n = s->w * s->h * s->d;
    int32_t *u = malloc(sizeof(int32_t) * (size_t)n * s->L);
    assert_non_null(u);
    for (int64_t i = 0; i < (int64_t)n * s->L; i++)
        u[i] = (int32_t)tu_range(r, 0, big);
    assert_int_equal(gcut_mrf_set_unary(m, u), GCUT_OK);
    free(u);
    if (kind == 0)
        assert_int_equal(gcut_mrf_set_potts(m, (int32_t)tu_range(r, 1, big < 4000 ? big / 4 + 1 : 1000)), GCUT_OK);
    else if (kind == 3)
        assert_int_equal(gcut_mrf_set_trunc_quadratic(m, (int32_t)tu_range(r, 1, big / 16 + 1),
                                                      (int32_t)tu_range(r, 1, 9)),
                         GCUT_OK);
    else if (kind == 1)
        assert_int_equal(gcut_mrf_set_trunc_linear(m, (int32_t)tu_range(r, 1, big / 8 + 1),
                                                   (int32_t)tu_range(r, 1, 4)),
                         GCUT_OK);
    else {
        /* A metric table: distances of points on a line, truncated. */
        int32_t *pos = malloc(sizeof(int32_t) * (size_t)s->L), *t = malloc(sizeof(int32_t) * (size_t)s->L * s->L);
        assert_true(pos && t);
        for (int32_t a = 0; a < s->L; a++)
            pos[a] = (int32_t)tu_range(r, 0, 20);
        const int32_t cap = (int32_t)tu_range(r, 5, 30);
        for (int32_t a = 0; a < s->L; a++)
            for (int32_t b = 0; b < s->L; b++) {
                int32_t dd = abs(pos[a] - pos[b]);
                t[a * s->L + b] = a == b ? 0 : (dd < cap ? dd : cap) + 1;
            }
        assert_int_equal(gcut_mrf_set_table(m, t), GCUT_OK);
        free(pos);
        free(t);
    }
    if (weights) {
        int32_t *w = malloc(sizeof(int32_t) * (size_t)n);
        assert_non_null(w);
        for (int32_t k = 0; k < s->conn / 2; k++) {
            for (int32_t v = 0; v < n; v++)
                w[v] = (int32_t)tu_range(r, 0, 5);
            assert_int_equal(gcut_mrf_set_weights(m, 2 * k, w), GCUT_OK);
        }
        free(w);
    }
    return m;
}

static void run_moves(gcut_mrf *m, int swap, const char *backend, int random_order,
                      const int32_t *start, int32_t n, int32_t *labels, gcut_mrf_stats *st)
{
    memcpy(labels, start, sizeof(int32_t) * (size_t)n);
    gcut_mrf_options o;
    gcut_mrf_options_init(&o);
    o.solve.backend = backend;
    o.random_order = random_order;
    o.seed = 7;
    gcut_status rc = swap ? gcut_mrf_swap(m, &o, labels, st) : gcut_mrf_expand(m, &o, labels, st);
    if (rc != GCUT_OK)
        fail_msg("%s %s: %s", swap ? "swap" : "expand", backend, gcut_last_error());
}

/* Both back ends from the same start: everything must agree. */
static void compare(gcut_mrf *m, int swap, int ro, const int32_t *start, int32_t n,
                    const char *label)
{
    int32_t *a = malloc(sizeof(int32_t) * (size_t)n), *b = malloc(sizeof(int32_t) * (size_t)n);
    assert_true(a && b);
    gcut_mrf_stats sa, sb;
    run_moves(m, swap, "cpu-bk", ro, start, n, a, &sa);
    run_moves(m, swap, "cuda-grid", ro, start, n, b, &sb);
    for (int32_t v = 0; v < n; v++)
        if (a[v] != b[v])
            fail_msg("%s: labellings differ at node %d (host %d, device %d)", label, (int)v,
                     (int)a[v], (int)b[v]);
    if (sa.energy != sb.energy || sa.cycles != sb.cycles ||
        sa.moves_accepted != sb.moves_accepted || sa.moves != sb.moves)
        fail_msg("%s: energy %lld / %lld, cycles %d / %d, accepted %d / %d, moves %d / %d",
                 label, (long long)sa.energy, (long long)sb.energy, (int)sa.cycles,
                 (int)sb.cycles, (int)sa.moves_accepted, (int)sb.moves_accepted, (int)sa.moves,
                 (int)sb.moves);
    for (int32_t c = 0; c < sa.cycles; c++)
        if (sa.cycle_energy[c] != sb.cycle_energy[c])
            fail_msg("%s: cycle %d energy %lld / %lld", label, (int)c + 1,
                     (long long)sa.cycle_energy[c], (long long)sb.cycle_energy[c]);
    int64_t e;
    assert_int_equal(gcut_mrf_energy(m, b, &e), GCUT_OK);
    assert_true(e == sb.energy);
    assert_true(sb.energy <= sb.initial_energy);
    assert_string_equal(sb.backend, "cuda-grid");
    free(a);
    free(b);
}

/* $GCUT_GPU_QUICK (compute-sanitizer runs): 1 leaves out grids of more
 * than 1500 nodes; 2 (racecheck) those of more than 400, and runs one
 * cost family per shape, with weights. */
static int g_quick;

static const shape shapes[] = {{1, 1, 1, 4, 2},  {7, 5, 1, 4, 3},   {40, 30, 1, 4, 7},
                               {33, 17, 1, 8, 5}, {9, 8, 7, 6, 4},  {6, 5, 5, 26, 3},
                               {5, 6, 4, 18, 6},  {70, 40, 1, 4, 16}, {1, 50, 1, 8, 4}};

/* Every shape with every cost family, with and without weights; swap also
 * with truncated quadratic costs and from a start on few labels. */
static void same_as_host(int swap)
{
    tu_rng r = {swap ? 5151u : 4242u};
    int cases = 0, expected = 0;
    const int kinds = swap ? 4 : 3;
    const int32_t max_n = g_quick >= 2 ? 400 : g_quick == 1 ? 1500 : INT32_MAX;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const int32_t n = shapes[i].w * shapes[i].h * shapes[i].d;
        if (n > max_n)
            continue;
        expected += g_quick >= 2 ? 1 : 2 * kinds;
        for (int kind = 0; kind < kinds; kind++)
            for (int weights = 0; weights < 2; weights++) {
                if (g_quick >= 2 && (kind != (int)(i % (size_t)kinds) || !weights))
                    continue;
                const shape *s = &shapes[i];
                gcut_mrf *m = make(s, &r, kind, weights, 100);
                int32_t *start = malloc(sizeof(int32_t) * (size_t)n);
                assert_non_null(start);
                /* Swap: every other case starts on labels 0 and L - 1
                 * only, so most pairs have unused labels. */
                const int few = swap && (i + kind + weights) % 2 == 1;
                for (int32_t v = 0; v < n; v++)
                    start[v] = few ? (tu_range(&r, 0, 1) ? s->L - 1 : 0)
                                   : (int32_t)tu_range(&r, 0, s->L - 1);
                const int ro = (int)((i + kind + weights + (size_t)swap) % 2);
                char label[160];
                snprintf(label, sizeof label, "%s %dx%dx%d c%d L%d kind %d weights %d order %d%s",
                         swap ? "swap" : "expand", (int)s->w, (int)s->h, (int)s->d,
                         (int)s->conn, (int)s->L, kind, weights, ro, few ? " few" : "");
                compare(m, swap, ro, start, n, label);
                free(start);
                gcut_mrf_free(m);
                cases++;
            }
    }
    assert_int_equal(cases, expected);
    if (!g_quick)
        assert_int_equal(cases, swap ? 72 : 54);
}

static void test_expand_same_as_host(void **unused)
{
    (void)unused;
    same_as_host(0);
}

static void test_swap_same_as_host(void **unused)
{
    (void)unused;
    same_as_host(1);
}

/* Costs whose move capacities pass INT32_MAX: refused, labels unchanged. */
static void test_overflow(void **unused)
{
    (void)unused;
    const shape s = {8, 8, 1, 4, 3};
    tu_rng r = {9};
    gcut_mrf *m = make(&s, &r, 0, 0, 1 << 27);
    int32_t *w = malloc(sizeof(int32_t) * 64);
    assert_non_null(w);
    for (int i = 0; i < 64; i++)
        w[i] = 65535;
    assert_int_equal(gcut_mrf_set_weights(m, 0, w), GCUT_OK);
    assert_int_equal(gcut_mrf_set_potts(m, 1 << 19), GCUT_OK);
    for (int swap = 0; swap < 2; swap++) {
        int32_t labels[64], before[64], labels2[64];
        for (int i = 0; i < 64; i++)
            labels[i] = labels2[i] = before[i] = i % 3;
        gcut_mrf_options o;
        gcut_mrf_options_init(&o);
        o.solve.backend = "cuda-grid";
        gcut_status st = swap ? gcut_mrf_swap(m, &o, labels, NULL) : gcut_mrf_expand(m, &o, labels, NULL);
        o.solve.backend = "cpu-bk";
        gcut_status st2 =
            swap ? gcut_mrf_swap(m, &o, labels2, NULL) : gcut_mrf_expand(m, &o, labels2, NULL);
        assert_int_equal(st, st2);
        assert_int_equal(st, GCUT_ERR_OVERFLOW);
        assert_memory_equal(labels, before, sizeof labels);
    }
    free(w);
    gcut_mrf_free(m);
}

/* The device moves take their engine settings from the options' solve
 * settings (gcut_mrf_options::solve.params), as the host loop's solves do:
 * an unknown key is refused by both, the labelling left as it was. */
static void test_solve_params(void **unused)
{
    (void)unused;
    const shape s = {8, 8, 1, 4, 4};
    tu_rng r = {11};
    gcut_mrf *m = make(&s, &r, 0, 0, 100);
    assert_int_equal(gcut_mrf_set_potts(m, 20), GCUT_OK);
    int32_t labels[64], before[64];
    for (int i = 0; i < 64; i++)
        labels[i] = before[i] = i % 4;
    gcut_mrf_options o;
    gcut_mrf_options_init(&o);
    o.solve.params = "no_such_key=1";
    for (int swap = 0; swap < 2; swap++)
        for (int dev = 0; dev < 2; dev++) {
            o.solve.backend = dev ? "cuda-grid" : "cpu-bk";
            gcut_status st = swap ? gcut_mrf_swap(m, &o, labels, NULL)
                                  : gcut_mrf_expand(m, &o, labels, NULL);
            if (st != GCUT_ERR_INVALID)
                fail_msg("%s on %s with unknown settings: status %d (%s)",
                         swap ? "swap" : "expand", o.solve.backend, (int)st, gcut_last_error());
            assert_non_null(strstr(gcut_last_error(), "no_such_key"));
            assert_memory_equal(labels, before, sizeof labels);
        }
    gcut_mrf_free(m);
}

int main(void)
{
    if (!tu_backend_available("cuda-grid")) {
        printf("cuda-grid unavailable: skipped\n");
        return 77;
    }
    const char *quick = getenv("GCUT_GPU_QUICK");
    g_quick = quick && atoi(quick) > 0 ? atoi(quick) : 0;
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_expand_same_as_host),
                                       cmocka_unit_test(test_swap_same_as_host),
                                       cmocka_unit_test(test_overflow),
                                       cmocka_unit_test(test_solve_params)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
