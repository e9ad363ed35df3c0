/*
 * test_vision_mrf.c - gcut_mrf (alpha-expansion, alpha-beta swap) and the
 * stereo layer: tiny problems against brute force, exact energies after
 * every cycle, monotone energies, the metric check, a synthetic stereo pair
 * and, where ../shared/data/middlebury exists, tsukuba.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "gcut/vision/mrf.h"
#include "gcut/vision/stereo.h"
#include "stereo/stereo_internal.h"

static uint64_t rng_state = 7;
static int32_t rnd(int32_t k)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (int32_t)((rng_state >> 33) % (uint64_t)k);
}

/* Minimum energy over all labellings (n small). */
static int64_t brute_force(gcut_mrf *m, int32_t n, int32_t L)
{
    int32_t f[16] = {0};
    int64_t best = INT64_MAX;
    for (;;) {
        int64_t e;
        assert_int_equal(gcut_mrf_energy(m, f, &e), GCUT_OK);
        if (e < best)
            best = e;
        int32_t i = 0;
        while (i < n && ++f[i] == L)
            f[i++] = 0;
        if (i == n)
            return best;
    }
}

typedef struct mono {
    int64_t last;
    int bad;
} mono;

static void on_move(void *user, int32_t cycle, int32_t label, int64_t energy, double ms)
{
    mono *mo = user;
    (void)cycle;
    (void)label;
    (void)ms;
    if (energy > mo->last)
        mo->bad = 1;
    mo->last = energy;
}

/* A random problem on a w x h grid; kind 0 Potts, 1 truncated linear,
 * 2 truncated quadratic, with random weights. */
static gcut_mrf *random_mrf(int32_t w, int32_t h, int32_t conn, int32_t L, int kind)
{
    gcut_mrf *m;
    assert_int_equal(gcut_mrf_new(&m, w, h, 1, conn, L), GCUT_OK);
    int32_t n = w * h, *c = malloc(sizeof(int32_t) * (size_t)(n * L)), *wt = malloc(sizeof(int32_t) * (size_t)n);
    for (int32_t i = 0; i < n * L; i++)
        c[i] = rnd(50);
    assert_int_equal(gcut_mrf_set_unary(m, c), GCUT_OK);
    for (int32_t d = 0; d < conn; d += 2) {
        for (int32_t i = 0; i < n; i++)
            wt[i] = 1 + rnd(3);
        assert_int_equal(gcut_mrf_set_weights(m, d, wt), GCUT_OK);
    }
    int32_t lam = 1 + rnd(15);
    if (kind == 0)
        assert_int_equal(gcut_mrf_set_potts(m, lam), GCUT_OK);
    else if (kind == 1)
        assert_int_equal(gcut_mrf_set_trunc_linear(m, lam, 1 + rnd(3)), GCUT_OK);
    else
        assert_int_equal(gcut_mrf_set_trunc_quadratic(m, lam, 1 + rnd(9)), GCUT_OK);
    free(c);
    free(wt);
    return m;
}

static void test_brute_force(void **state)
{
    (void)state;
    for (int trial = 0; trial < 200; trial++) {
        const int32_t w = 2 + rnd(2), h = 2 + rnd(2), L = 2 + rnd(2), n = w * h;
        const int kind = rnd(2), conn = rnd(2) ? 4 : 8;
        gcut_mrf *m = random_mrf(w, h, conn, L, kind);
        int32_t f[16];
        for (int32_t i = 0; i < n; i++)
            f[i] = rnd(L);
        gcut_mrf_options o;
        gcut_mrf_options_init(&o);
        o.random_order = trial & 1;
        o.seed = (uint64_t)trial;
        mono mo = {INT64_MAX, 0};
        o.progress = on_move;
        o.progress_user = &mo;
        gcut_mrf_stats st;
        assert_int_equal(gcut_mrf_expand(m, &o, f, &st), GCUT_OK);
        assert_false(mo.bad);
        int64_t e, opt = brute_force(m, n, L);
        assert_int_equal(gcut_mrf_energy(m, f, &e), GCUT_OK);
        assert_int_equal(e, st.energy);
        assert_true(e >= opt);
        /* 2c bound, c = max V / min_{a != b} V: 1 for Potts, at most L-1
         * for truncated linear. */
        const int64_t c = kind == 0 ? 1 : L - 1;
        assert_true(e <= 2 * c * opt);
        if (L == 2 && kind == 0)
            assert_int_equal(e, opt); /* one expansion is an exact cut */
        gcut_mrf_free(m);
    }
}

/* The progress callback of the solve options: "move" reports (at most
 * every progress_interval_ms) and "cycle" reports; a non-zero return stops
 * the run with GCUT_ERR_INTERRUPTED and the labels untouched; the next run
 * gives the uninterrupted result; the gcut_mrf_progress_fn still sees every
 * move. */
typedef struct mrf_seen {
    const char *op;
    int moves, cycles, bad_op;
    int64_t last_cycle;
    int64_t stop_cycle; /* 0: never */
} mrf_seen;

static int on_mrf_progress(const gcut_progress *p, void *user)
{
    mrf_seen *s = user;
    if (strcmp(p->operation, "expansion") != 0 && strcmp(p->operation, "swap") != 0)
        return 0; /* the max-flow engine's own reports */
    if (strcmp(p->operation, s->op) != 0)
        s->bad_op = 1;
    if (!strcmp(p->phase, "move")) {
        s->moves++;
    } else if (!strcmp(p->phase, "cycle")) {
        s->cycles++;
        if (p->step != s->last_cycle + 1)
            s->bad_op = 1;
        s->last_cycle = p->step;
        if (p->step == s->stop_cycle)
            return 1;
    }
    return 0;
}

typedef struct move_count {
    int moves;
} move_count;

static void count_move(void *user, int32_t cycle, int32_t label, int64_t energy, double ms)
{
    (void)cycle;
    (void)label;
    (void)energy;
    (void)ms;
    ((move_count *)user)->moves++;
}

static void test_progress_cancel(void **state)
{
    (void)state;
    for (int swap = 0; swap < 2; swap++) {
        const int32_t w = 30, h = 24, L = 6, n = w * h;
        gcut_mrf *m = random_mrf(w, h, 4, L, 1);
        int32_t *f0 = malloc(sizeof(int32_t) * (size_t)n),
                *ref = malloc(sizeof(int32_t) * (size_t)n),
                *f = malloc(sizeof(int32_t) * (size_t)n);
        for (int32_t i = 0; i < n; i++)
            f0[i] = rnd(L);
        gcut_mrf_options o;
        gcut_mrf_options_init(&o);
        gcut_mrf_stats st_ref, st;
        memcpy(ref, f0, sizeof(int32_t) * (size_t)n);
        assert_int_equal(swap ? gcut_mrf_swap(m, &o, ref, &st_ref)
                              : gcut_mrf_expand(m, &o, ref, &st_ref),
                         GCUT_OK);
        assert_true(st_ref.cycles >= 2);
        /* Every move reported when the interval is tiny; cycles in order. */
        mrf_seen sn = {swap ? "swap" : "expansion", 0, 0, 0, 0, 0};
        move_count mc = {0};
        o.progress = count_move;
        o.progress_user = &mc;
        o.solve.progress = on_mrf_progress;
        o.solve.progress_user = &sn;
        o.solve.progress_interval_ms = 1e-9;
        memcpy(f, f0, sizeof(int32_t) * (size_t)n);
        assert_int_equal(swap ? gcut_mrf_swap(m, &o, f, &st) : gcut_mrf_expand(m, &o, f, &st),
                         GCUT_OK);
        assert_memory_equal(f, ref, sizeof(int32_t) * (size_t)n);
        assert_false(sn.bad_op);
        assert_int_equal(sn.moves, st.moves);
        assert_int_equal(mc.moves, st.moves);
        assert_int_equal(sn.cycles, st.cycles);
        /* A long interval: the first move only (cycles always). */
        memset(&sn, 0, sizeof sn);
        sn.op = swap ? "swap" : "expansion";
        o.solve.progress_interval_ms = 1e9;
        memcpy(f, f0, sizeof(int32_t) * (size_t)n);
        assert_int_equal(swap ? gcut_mrf_swap(m, &o, f, &st) : gcut_mrf_expand(m, &o, f, &st),
                         GCUT_OK);
        assert_int_equal(sn.moves, 1);
        assert_int_equal(sn.cycles, st.cycles);
        /* Stop after cycle 1: interrupted, labels and stats untouched. */
        memset(&sn, 0, sizeof sn);
        sn.op = swap ? "swap" : "expansion";
        sn.stop_cycle = 1;
        mc.moves = 0;
        memcpy(f, f0, sizeof(int32_t) * (size_t)n);
        gcut_mrf_stats untouched;
        memset(&untouched, 0x5a, sizeof untouched);
        st = untouched;
        assert_int_equal(swap ? gcut_mrf_swap(m, &o, f, &st) : gcut_mrf_expand(m, &o, f, &st),
                         GCUT_ERR_INTERRUPTED);
        assert_non_null(strstr(gcut_last_error(), swap ? "gcut_mrf_swap" : "gcut_mrf_expand"));
        assert_non_null(strstr(gcut_last_error(), "cycle 1 of 20"));
        assert_memory_equal(f, f0, sizeof(int32_t) * (size_t)n);
        assert_memory_equal(&st, &untouched, sizeof st);
        assert_int_equal(sn.cycles, 1);
        assert_true(mc.moves > 0 && mc.moves < st_ref.moves);
        /* The same problem runs again to the uninterrupted result. */
        sn.stop_cycle = 0;
        assert_int_equal(swap ? gcut_mrf_swap(m, &o, f, &st) : gcut_mrf_expand(m, &o, f, &st),
                         GCUT_OK);
        assert_memory_equal(f, ref, sizeof(int32_t) * (size_t)n);
        assert_int_equal(st.energy, st_ref.energy);
        free(f0);
        free(ref);
        free(f);
        gcut_mrf_free(m);
    }
}

/* Energy after every cycle equals the energy recomputed from scratch, for
 * expansion and swap, on larger grids (one cycle per call). */
static void test_exact_energy(void **state)
{
    (void)state;
    for (int trial = 0; trial < 12; trial++) {
        const int32_t w = 12 + rnd(10), h = 9 + rnd(10), L = 3 + rnd(6), n = w * h;
        const int kind = rnd(3), swap = kind == 2 || rnd(2);
        gcut_mrf *m = random_mrf(w, h, rnd(2) ? 4 : 8, L, kind);
        int32_t *f = malloc(sizeof(int32_t) * (size_t)n);
        for (int32_t i = 0; i < n; i++)
            f[i] = rnd(L);
        gcut_mrf_options o;
        gcut_mrf_options_init(&o);
        o.max_cycles = 1;
        int64_t prev = INT64_MAX;
        for (int it = 0; it < 6; it++) {
            gcut_mrf_stats st;
            gcut_status s = swap ? gcut_mrf_swap(m, &o, f, &st) : gcut_mrf_expand(m, &o, f, &st);
            assert_int_equal(s, GCUT_OK);
            int64_t e;
            assert_int_equal(gcut_mrf_energy(m, f, &e), GCUT_OK);
            assert_int_equal(e, st.energy);
            assert_true(st.energy <= st.initial_energy);
            assert_true(e <= prev);
            prev = e;
        }
        free(f);
        gcut_mrf_free(m);
    }
}

/* The host loop's cpu-bk moves (one warm grid per label for expansion,
 * plain BK starts, swap moves that set only their nodes' entries) give
 * what cpu-ref gives through the generic path: the same labels, energies
 * after every cycle and moves, to convergence; and a second call on the
 * same gcut_mrf (its grid holding the first call's last move) too. */
static void test_backends_agree(void **state)
{
    (void)state;
    for (int trial = 0; trial < 16; trial++) {
        const int32_t w = 10 + rnd(12), h = 8 + rnd(10), L = 3 + rnd(7), n = w * h;
        const int kind = rnd(3), swap = kind == 2 || rnd(2);
        gcut_mrf *m = random_mrf(w, h, rnd(2) ? 4 : 8, L, kind);
        int32_t *f0 = malloc(sizeof(int32_t) * (size_t)n), *a = malloc(sizeof(int32_t) * (size_t)n),
                *b = malloc(sizeof(int32_t) * (size_t)n);
        assert_non_null(f0);
        assert_non_null(a);
        assert_non_null(b);
        for (int32_t i = 0; i < n; i++)
            f0[i] = rnd(L);
        for (int again = 0; again < 2; again++) {
            gcut_mrf_stats sa, sb;
            gcut_mrf_options o;
            gcut_mrf_options_init(&o);
            o.random_order = trial & 1;
            memcpy(a, f0, sizeof(int32_t) * (size_t)n);
            memcpy(b, f0, sizeof(int32_t) * (size_t)n);
            o.solve.backend = "cpu-bk";
            assert_int_equal(swap ? gcut_mrf_swap(m, &o, a, &sa) : gcut_mrf_expand(m, &o, a, &sa),
                             GCUT_OK);
            o.solve.backend = "cpu-ref";
            assert_int_equal(swap ? gcut_mrf_swap(m, &o, b, &sb) : gcut_mrf_expand(m, &o, b, &sb),
                             GCUT_OK);
            assert_memory_equal(a, b, sizeof(int32_t) * (size_t)n);
            assert_true(sa.energy == sb.energy);
            assert_int_equal(sa.cycles, sb.cycles);
            assert_int_equal(sa.moves, sb.moves);
            assert_int_equal(sa.moves_accepted, sb.moves_accepted);
            for (int32_t c = 0; c < sa.cycles; c++)
                assert_true(sa.cycle_energy[c] == sb.cycle_energy[c]);
            for (int32_t i = 0; i < n; i++) /* the second call from another start */
                f0[i] = rnd(L);
        }
        free(f0);
        free(a);
        free(b);
        gcut_mrf_free(m);
    }
}

static void test_metric_check(void **state)
{
    (void)state;
    gcut_mrf *m;
    assert_int_equal(gcut_mrf_new(&m, 4, 4, 1, 4, 5), GCUT_OK);
    int32_t f[16] = {0};
    assert_int_equal(gcut_mrf_set_trunc_quadratic(m, 3, 9), GCUT_OK);
    assert_int_equal(gcut_mrf_expand(m, NULL, f, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "not a metric"));
    assert_int_equal(gcut_mrf_swap(m, NULL, f, NULL), GCUT_OK);
    int32_t table[25];
    for (int32_t a = 0; a < 5; a++)
        for (int32_t b = 0; b < 5; b++)
            table[a * 5 + b] = (a - b) * (a - b);
    assert_int_equal(gcut_mrf_set_table(m, table), GCUT_OK);
    assert_int_equal(gcut_mrf_check_metric(m, 2), GCUT_ERR_INVALID);
    assert_int_equal(gcut_mrf_check_metric(m, 1), GCUT_OK);
    table[1] = 7; /* asymmetric */
    assert_int_equal(gcut_mrf_set_table(m, table), GCUT_OK);
    assert_int_equal(gcut_mrf_check_metric(m, 1), GCUT_ERR_INVALID);
    assert_int_equal(gcut_mrf_set_trunc_linear(m, 2, 2), GCUT_OK);
    assert_int_equal(gcut_mrf_expand(m, NULL, f, NULL), GCUT_OK);
    gcut_mrf_free(m);
}

/* The embedded solve options reach the move solves as they are: engine
 * settings (an unknown key is the engine's error), threads, the log
 * callback and verbosity; the labelling does not depend on them. */
static int g_solve_logs;

static void count_solve_logs(void *user, gcut_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    if (strstr(msg, "gcut_grid_solve"))
        g_solve_logs++;
}

static void test_solve_options(void **state)
{
    (void)state;
    const int32_t w = 9, h = 7, L = 4, n = w * h;
    gcut_mrf *m = random_mrf(w, h, 4, L, 1);
    int32_t f0[63], f[63], g[63];
    for (int32_t i = 0; i < n; i++)
        f0[i] = rnd(L);
    gcut_mrf_options o;
    gcut_mrf_options_init(&o);
    assert_int_equal(o.solve.struct_size, sizeof(gcut_solve_options));
    assert_string_equal(o.solve.backend, "auto");
    o.solve.backend = "cpu-bk";
    memcpy(f, f0, sizeof f);
    assert_int_equal(gcut_mrf_expand(m, &o, f, NULL), GCUT_OK);
    o.solve.params = "no_such_key=1";
    memcpy(g, f0, sizeof g);
    assert_int_equal(gcut_mrf_expand(m, &o, g, NULL), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "no_such_key"));
    assert_memory_equal(g, f0, sizeof g); /* unchanged on failure */
    o.solve.params = NULL;
    o.solve.backend = "cpu-grid-pr";
    o.solve.threads = 2;
    o.solve.log = count_solve_logs;
    o.solve.verbosity = 2;
    g_solve_logs = 0;
    gcut_mrf_stats st;
    assert_int_equal(gcut_mrf_expand(m, &o, g, &st), GCUT_OK);
    assert_string_equal(st.backend, "cpu-grid-pr");
    assert_int_equal(g_solve_logs, st.moves);
    assert_memory_equal(g, f, sizeof g);
    o.solve.threads = -1;
    assert_int_equal(gcut_mrf_swap(m, &o, g, NULL), GCUT_ERR_INVALID);
    gcut_mrf_free(m);
}

/* Left = right shifted by 2 (left half) and 5 (right half). */
typedef struct stereo_seen {
    int stages, expansion, stop;
} stereo_seen;

static int on_stereo_progress(const gcut_progress *p, void *user)
{
    stereo_seen *s = user;
    if (!strcmp(p->operation, "stereo")) {
        s->stages++;
        return s->stop && !strcmp(p->phase, "moves");
    }
    s->expansion += !strcmp(p->operation, "expansion");
    return 0;
}

static void test_synthetic_stereo(void **state)
{
    (void)state;
    const int32_t W = 80, H = 60;
    gcut_image *l, *r;
    assert_int_equal(gcut_image_new(&l, W, H, 1, 8), GCUT_OK);
    assert_int_equal(gcut_image_new(&r, W, H, 1, 8), GCUT_OK);
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++)
            r->data[y * (int32_t)r->stride + x] = (uint8_t)rnd(256);
    int32_t *truth = malloc(sizeof(int32_t) * (size_t)(W * H));
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++) {
            int32_t d = x < W / 2 ? 2 : 5, xr = x - d < 0 ? 0 : x - d;
            truth[y * W + x] = d;
            l->data[y * (int32_t)l->stride + x] = r->data[y * (int32_t)r->stride + xr];
        }
    for (int cost = 0; cost < 3; cost++) {
        gcut_stereo_options p;
        gcut_stereo_options_init(&p);
        p.ndisp = 8;
        p.cost = (gcut_stereo_cost)cost;
        /* One view: this pair is not a scene a camera could see (right
         * pixels left of the step are seen twice by the left view, at both
         * disparities), so the left-right check, on by default since 0.3,
         * marks and fills one copy; what is checked here is the energy. */
        p.lr_check = 0;
        int32_t *disp = malloc(sizeof(int32_t) * (size_t)(W * H));
        gcut_mrf_stats st;
        assert_int_equal(gcut_stereo_match(l, r, &p, disp, &st), GCUT_OK);
        int32_t bad = 0;
        for (int32_t y = 0; y < H; y++)
            for (int32_t x = 8; x < W; x++)
                bad += disp[y * W + x] != truth[y * W + x];
        assert_true(bad < W * H / 100);
        free(disp);
    }
    /* Progress: operation "stereo" reports its stages ("cost", "energy",
     * "moves"), the expansion its moves; stopping at "moves" leaves disp.
     * With the left-right check (the default) the three stages of each
     * view and "lr-check"; one view below. */
    gcut_stereo_options p;
    gcut_stereo_options_init(&p);
    p.ndisp = 8;
    stereo_seen ss = {0, 0, 0};
    p.mrf.solve.progress = on_stereo_progress;
    p.mrf.solve.progress_user = &ss;
    int32_t *disp = malloc(sizeof(int32_t) * (size_t)(W * H));
    assert_int_equal(gcut_stereo_match(l, r, &p, disp, NULL), GCUT_OK);
    assert_int_equal(ss.stages, 7);
    memset(&ss, 0, sizeof ss);
    p.lr_check = 0;
    assert_int_equal(gcut_stereo_match(l, r, &p, disp, NULL), GCUT_OK);
    assert_int_equal(ss.stages, 3);
    assert_true(ss.expansion > 0);
    memset(&ss, 0, sizeof ss);
    ss.stop = 1;
    memset(disp, 0x5a, sizeof(int32_t) * (size_t)(W * H));
    assert_int_equal(gcut_stereo_match(l, r, &p, disp, NULL), GCUT_ERR_INTERRUPTED);
    assert_non_null(strstr(gcut_last_error(), "gcut_stereo_match"));
    assert_non_null(strstr(gcut_last_error(), "(stereo, moves 1 of 1)"));
    assert_int_equal(ss.expansion, 0);
    assert_int_equal(disp[W * H / 2], 0x5a5a5a5a);
    free(disp);
    free(truth);
    gcut_image_free(l);
    gcut_image_free(r);
}

/* Expansion with one grid per label builds a move incrementally (only
 * the entries of the nodes relabelled since that label's last move, and
 * of their neighbours); with the memory budget too small for the
 * per-label grids every move is built in full on one grid. Both give the
 * same labels, cycle energies and moves, from noisy starts (the first
 * cycles relabel most nodes: full builds, and the change log restarts)
 * and from smooth ones (few changes: incremental builds), 4- and
 * 8-connected, with random weights. Dropping a neighbour's
 * terminal update or a pair in inc_update fails it. */
static void test_expand_incremental(void **state)
{
    (void)state;
    for (int trial = 0; trial < 24; trial++) {
        const int32_t w = 16 + rnd(30), h = 12 + rnd(30), L = 3 + rnd(10), n = w * h;
        gcut_mrf *m = random_mrf(w, h, rnd(2) ? 4 : 8, L, rnd(2));
        int32_t *f0 = malloc(sizeof(int32_t) * (size_t)n), *a = malloc(sizeof(int32_t) * (size_t)n),
                *b = malloc(sizeof(int32_t) * (size_t)n);
        assert_non_null(f0);
        assert_non_null(a);
        assert_non_null(b);
        const int smooth = trial % 3 == 0; /* blocks of one label, a few noisy nodes */
        for (int32_t i = 0; i < n; i++)
            f0[i] = smooth ? ((i % w) / 8 + (i / w) / 8) % L : rnd(L);
        for (int32_t i = 0; smooth && i < n / 20; i++)
            f0[rnd(n)] = rnd(L);
        gcut_mrf_options o;
        gcut_mrf_options_init(&o);
        o.random_order = trial & 1;
        o.solve.backend = "cpu-bk";
        gcut_mrf_stats sa, sb;
        memcpy(a, f0, sizeof(int32_t) * (size_t)n);
        memcpy(b, f0, sizeof(int32_t) * (size_t)n);
        assert_int_equal(gcut_mrf_expand(m, &o, a, &sa), GCUT_OK);
        /* 57 bytes per node and label no longer fit half the budget. */
        o.solve.max_memory = (size_t)(57.0 * n * L);
        assert_int_equal(gcut_mrf_expand(m, &o, b, &sb), GCUT_OK);
        assert_memory_equal(a, b, sizeof(int32_t) * (size_t)n);
        assert_true(sa.energy == sb.energy);
        int64_t e;
        assert_int_equal(gcut_mrf_energy(m, a, &e), GCUT_OK);
        assert_true(e == sa.energy);
        assert_int_equal(sa.cycles, sb.cycles);
        assert_int_equal(sa.moves, sb.moves);
        assert_int_equal(sa.moves_accepted, sb.moves_accepted);
        for (int32_t c = 0; c < sa.cycles; c++)
            assert_true(sa.cycle_energy[c] == sb.cycle_energy[c]);
        free(f0);
        free(a);
        free(b);
        gcut_mrf_free(m);
    }
}

/* The levels of the coarse-to-fine start (coarse_levels): a labelling
 * constant on the blocks of level k has on level k the energy of its
 * upsampling to the pixels (costs summed over a block, the weights of the
 * pixel pairs crossing between two blocks summed, pairs inside a block
 * cost nothing), for odd and even sizes, Potts and truncated linear, with
 * contrast weights. Then stereo with coarse levels and the right view
 * started from the left: valid maps on the synthetic pair, bad settings
 * refused. */
static void test_stereo_coarse(void **state)
{
    (void)state;
    for (int trial = 0; trial < 6; trial++) {
        const int32_t W = 17 + rnd(30), H = 9 + rnd(30), n = W * H;
        gcut_image *l, *r;
        assert_int_equal(gcut_image_new(&l, W, H, 3, 8), GCUT_OK);
        assert_int_equal(gcut_image_new(&r, W, H, 3, 8), GCUT_OK);
        for (int32_t y = 0; y < H; y++)
            for (int32_t x = 0; x < 3 * W; x++) {
                l->data[y * (int32_t)l->stride + x] = (uint8_t)(rnd(2) ? 100 : rnd(256));
                r->data[y * (int32_t)r->stride + x] = (uint8_t)rnd(256);
            }
        gcut_stereo_options p;
        gcut_stereo_options_init(&p);
        p.ndisp = 3 + rnd(8);
        p.cost = (gcut_stereo_cost)rnd(3);
        p.smooth = rnd(2) ? GCUT_STEREO_TL : GCUT_STEREO_POTTS;
        int32_t *cost = malloc(sizeof(int32_t) * (size_t)(n * p.ndisp));
        int32_t *fine = malloc(sizeof(int32_t) * (size_t)n);
        int32_t *blk = malloc(sizeof(int32_t) * (size_t)n);
        assert_int_equal(gcut_stereo_data_cost(l, r, &p, cost), GCUT_OK);
        gcut_mrf *m0;
        assert_int_equal(gcut_stereo_mrf(l, r, &p, &m0), GCUT_OK);
        for (int32_t level = 1; level <= 3; level++) {
            gcut_mrf *mk;
            assert_int_equal(gcut_i_stereo_level_mrf(l, &p, cost, level, &mk), GCUT_OK);
            const int32_t s = 1 << level, wk = (W + s - 1) / s, hk = (H + s - 1) / s;
            assert_int_equal(gcut_mrf_num_nodes(mk), wk * hk);
            for (int round = 0; round < 4; round++) {
                for (int32_t i = 0; i < wk * hk; i++)
                    blk[i] = round == 0 ? 0 : rnd(p.ndisp);
                for (int32_t y = 0; y < H; y++)
                    for (int32_t x = 0; x < W; x++)
                        fine[y * W + x] = blk[(y / s) * wk + x / s];
                int64_t ek, e0;
                assert_int_equal(gcut_mrf_energy(mk, blk, &ek), GCUT_OK);
                assert_int_equal(gcut_mrf_energy(m0, fine, &e0), GCUT_OK);
                assert_true(ek == e0);
            }
            gcut_mrf_free(mk);
        }
        gcut_mrf *bad = NULL;
        assert_int_equal(gcut_i_stereo_level_mrf(l, &p, cost, 8, &bad), GCUT_ERR_INVALID);
        assert_null(bad);
        gcut_mrf_free(m0);
        free(cost);
        free(fine);
        free(blk);
        gcut_image_free(l);
        gcut_image_free(r);
    }

    /* The synthetic pair of test_synthetic_stereo, one view, with coarse
     * levels; and both views with the right one started from the left. */
    const int32_t W = 80, H = 60;
    gcut_image *l, *r;
    assert_int_equal(gcut_image_new(&l, W, H, 1, 8), GCUT_OK);
    assert_int_equal(gcut_image_new(&r, W, H, 1, 8), GCUT_OK);
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++)
            r->data[y * (int32_t)r->stride + x] = (uint8_t)rnd(256);
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++) {
            int32_t d = x < W / 2 ? 2 : 5, xr = x - d < 0 ? 0 : x - d;
            l->data[y * (int32_t)l->stride + x] = r->data[y * (int32_t)r->stride + xr];
        }
    int32_t *disp = malloc(sizeof(int32_t) * (size_t)(W * H));
    for (int32_t levels = 0; levels <= 8; levels++)
        for (int32_t warm = 0; warm <= 1; warm++) {
            gcut_stereo_options p;
            gcut_stereo_options_init(&p);
            p.ndisp = 8;
            p.coarse_levels = levels;
            p.lr_warm_start = warm;
            p.lr_check = warm;
            gcut_mrf_stats st;
            assert_int_equal(gcut_stereo_match(l, r, &p, disp, &st), GCUT_OK);
            int32_t bad = 0;
            for (int32_t y = 0; y < H; y++)
                for (int32_t x = 8; x < W; x++)
                    bad += disp[y * W + x] != (x < W / 2 ? 2 : 5);
            /* The check fills the twice-seen strip of this pair (see
             * test_synthetic_stereo): 3 columns. */
            assert_true(bad < W * H / 100 + (warm ? 4 * H : 0));
            int64_t e;
            gcut_mrf *m;
            assert_int_equal(gcut_stereo_mrf(l, r, &p, &m), GCUT_OK);
            if (!warm) { /* one view: the energy reported is that of the map */
                assert_int_equal(gcut_mrf_energy(m, disp, &e), GCUT_OK);
                assert_true(e == st.energy);
            }
            gcut_mrf_free(m);
        }
    gcut_stereo_options p;
    gcut_stereo_options_init(&p);
    p.ndisp = 8;
    p.coarse_levels = 9;
    assert_int_equal(gcut_stereo_match(l, r, &p, disp, NULL), GCUT_ERR_INVALID);
    p.coarse_levels = 0;
    p.lr_warm_start = 2;
    assert_int_equal(gcut_stereo_match(l, r, &p, disp, NULL), GCUT_ERR_INVALID);
    free(disp);
    gcut_image_free(l);
    gcut_image_free(r);
}

/* gcut_mrf_expansion_grid: the move's grid, cut by cpu-ref, gives the best
 * expansion move (checked against every 2^n move on small grids), and the
 * energy of the labelling its cut makes is constant + flow. */
static void test_expansion_grid(void **state)
{
    (void)state;
    for (int trial = 0; trial < 40; trial++) {
        const int32_t w = 2 + rnd(3), h = 2 + rnd(2), n = w * h, L = 2 + rnd(4);
        const int32_t conn = trial % 3 == 2 ? 8 : 4;
        gcut_mrf *m = random_mrf(w, h, conn, L, trial % 2);
        int32_t f[16], g[16];
        for (int32_t i = 0; i < n; i++)
            f[i] = rnd(L);
        const int32_t alpha = rnd(L);
        gcut_grid *grid;
        int64_t constant;
        assert_int_equal(gcut_mrf_expansion_grid(m, f, alpha, &grid, &constant), GCUT_OK);
        gcut_result *res;
        assert_int_equal(gcut_result_new(&res), GCUT_OK);
        gcut_solve_options o;
        gcut_solve_options_init(&o);
        o.backend = "cpu-ref";
        assert_int_equal(gcut_grid_solve(grid, &o, res), GCUT_OK);
        const uint8_t *cut = gcut_result_cut(res);
        for (int32_t v = 0; v < n; v++)
            g[v] = cut[v] == GCUT_SINK ? alpha : f[v];
        int64_t e, best = INT64_MAX;
        assert_int_equal(gcut_mrf_energy(m, g, &e), GCUT_OK);
        assert_int_equal(e, constant + gcut_result_flow(res));
        for (int32_t x = 0; x < (1 << n); x++) { /* every move */
            for (int32_t v = 0; v < n; v++)
                g[v] = (x >> v) & 1 ? alpha : f[v];
            int64_t ex;
            assert_int_equal(gcut_mrf_energy(m, g, &ex), GCUT_OK);
            if (ex < best)
                best = ex;
        }
        assert_int_equal(e, best);
        gcut_result_free(res);
        gcut_grid_free(grid);
        gcut_mrf_free(m);
    }
    /* Bad arguments leave *out alone. */
    gcut_mrf *m = random_mrf(3, 3, 4, 3, 0);
    int32_t f[9] = {0, 1, 2, 0, 1, 2, 0, 1, 2};
    gcut_grid *keep = (gcut_grid *)&f, *grid = keep;
    int64_t c;
    assert_int_equal(gcut_mrf_expansion_grid(m, f, 3, &grid, &c), GCUT_ERR_INVALID);
    f[4] = -1;
    assert_int_equal(gcut_mrf_expansion_grid(m, f, 0, &grid, &c), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "node 4"));
    assert_int_equal(gcut_mrf_expansion_grid(m, NULL, 0, &grid, &c), GCUT_ERR_INVALID);
    assert_ptr_equal(grid, keep);
    gcut_mrf_free(m);
}

static void test_middlebury_tsukuba(void **state)
{
    (void)state;
    const char *dir = GCUT_SHARED_DATA "/middlebury/tsukuba";
    struct stat sb;
    if (stat(dir, &sb) != 0)
        skip();
    char pl[512], pr[512], pg[512];
    snprintf(pl, sizeof pl, "%s/imL.png", dir);
    snprintf(pr, sizeof pr, "%s/imR.png", dir);
    snprintf(pg, sizeof pg, "%s/groundtruth.png", dir);
    gcut_image *l, *r, *g;
    if (gcut_image_load(pl, &l) != GCUT_OK)
        skip(); /* no PNG support in this build */
    assert_int_equal(gcut_image_load(pr, &r), GCUT_OK);
    assert_int_equal(gcut_image_load(pg, &g), GCUT_OK);
    gcut_stereo_options p;
    gcut_stereo_options_init(&p);
    p.ndisp = 16;
    p.mrf.max_cycles = 3;
    int32_t *disp = malloc(sizeof(int32_t) * (size_t)(l->width * l->height));
    assert_int_equal(gcut_stereo_match(l, r, &p, disp, NULL), GCUT_OK);
    double bad;
    assert_int_equal(gcut_stereo_bad_pixels(disp, g, 16, NULL, 1, &bad, NULL), GCUT_OK);
    assert_true(bad < 4.12);
    free(disp);
    gcut_image_free(l);
    gcut_image_free(r);
    gcut_image_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brute_force),
        cmocka_unit_test(test_exact_energy),
        cmocka_unit_test(test_backends_agree),
        cmocka_unit_test(test_expand_incremental),
        cmocka_unit_test(test_progress_cancel),
        cmocka_unit_test(test_metric_check),
        cmocka_unit_test(test_solve_options),
        cmocka_unit_test(test_synthetic_stereo),
        cmocka_unit_test(test_stereo_coarse),
        cmocka_unit_test(test_expansion_grid),
        cmocka_unit_test(test_middlebury_tsukuba),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
