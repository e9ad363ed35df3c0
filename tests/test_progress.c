/*
 * test_progress.c - the per-call context of gcut 0.3 (gcut/solve.h): the
 * time limit covers the whole call (layout builds included), the progress
 * callback (phases in order, elapsed time monotone, struct_size) and
 * cancelling from another thread on every CPU engine (GCUT_ERR_INTERRUPTED,
 * the result unchanged, the next solve correct); the memory budget
 * (gcut_set_max_memory, gcut_solve_options.max_memory) on graphs, layouts
 * and engine states; the readers stopping endless inputs (FIFOs fed
 * forever, /dev/zero) under a budget. Threads: run it under
 * ThreadSanitizer too (docs/testing.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

static void expect_error(gcut_status got, gcut_status want, const char *words)
{
    if (got != want)
        fail_msg("status %d (%s), want %d; message '%s'", (int)got, gcut_status_string(got),
                 (int)want, gcut_last_error());
    if (words && !strstr(gcut_last_error(), words))
        fail_msg("'%s' does not say '%s'", gcut_last_error(), words);
}

/* A side x side 4-connected grid graph with pseudo-random capacities. */
static gcut_graph *grid_graph(int32_t side, uint64_t seed)
{
    gcut_graph *g;
    const int32_t n = side * side;
    assert_int_equal(gcut_graph_new(&g, n, 2 * (int64_t)n), GCUT_OK);
    tu_rng r = {seed};
    for (int32_t v = 0; v < n; v++) {
        assert_int_equal(gcut_graph_add_tweights(g, v, (int32_t)tu_range(&r, 0, 60),
                                                 (int32_t)tu_range(&r, 0, 60)),
                         GCUT_OK);
        if (v % side + 1 < side)
            assert_int_equal(gcut_graph_add_edge(g, v, v + 1, (int32_t)tu_range(&r, 1, 40),
                                                 (int32_t)tu_range(&r, 1, 40)),
                             GCUT_OK);
        if (v + side < n)
            assert_int_equal(gcut_graph_add_edge(g, v, v + side, (int32_t)tu_range(&r, 1, 40),
                                                 (int32_t)tu_range(&r, 1, 40)),
                             GCUT_OK);
    }
    return g;
}

/* The same capacities as a gcut_grid. */
static gcut_grid *grid_lattice(int32_t side, uint64_t seed)
{
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, side, side, 1, 4), GCUT_OK);
    tu_rng r = {seed};
    const int32_t n = side * side;
    for (int32_t v = 0; v < n; v++) {
        const int32_t s = (int32_t)tu_range(&r, 0, 60), t = (int32_t)tu_range(&r, 0, 60);
        assert_int_equal(gcut_grid_set_tweights(g, v, s, t), GCUT_OK);
    }
    /* The four directions of a 4-connected grid, one array each. */
    int32_t *cap = malloc((size_t)n * sizeof *cap);
    assert_non_null(cap);
    for (int32_t d = 0; d < 4; d++) {
        for (int32_t v = 0; v < n; v++)
            cap[v] = (int32_t)tu_range(&r, 1, 40);
        assert_int_equal(gcut_grid_set_caps(g, d, cap), GCUT_OK);
    }
    free(cap);
    return g;
}

/* ------------------------------------------------------------ progress log */

#define MAX_CALLS 100000

typedef struct progress_log {
    int calls;
    const char *phases[32]; /* distinct phases in the order first seen */
    int nphases;
    double last_elapsed;
    int monotone;            /* elapsed_ms never went back */
    int sized;               /* struct_size was right every time */
    int solve_calls;         /* calls in phase "solve" */
    int64_t last_remaining;
    int known;               /* reports of phase "solve" with a measure of the work left */
    /* cancelling from another thread */
    atomic_int *flag;        /* the flag the other thread sets (NULL: none) */
    atomic_int *asked;       /* raised when the callback wants the flag set */
    int cancel_at;           /* ask at this call of phase "solve" (0: never) */
} progress_log;

static int log_progress(const gcut_progress *p, void *user)
{
    progress_log *L = user;
    L->calls++;
    if (p->struct_size != sizeof(gcut_progress))
        L->sized = 0;
    if (p->elapsed_ms < L->last_elapsed || p->elapsed_ms < 0)
        L->monotone = 0;
    L->last_elapsed = p->elapsed_ms;
    if (!L->nphases || strcmp(L->phases[L->nphases - 1], p->phase) != 0)
        if (L->nphases < 32)
            L->phases[L->nphases++] = p->phase;
    if (strcmp(p->phase, "solve") == 0) {
        L->solve_calls++;
        L->last_remaining = p->remaining;
        if (p->remaining >= 0 && p->remaining_what && *p->remaining_what)
            L->known++;
        if (L->flag && L->solve_calls == L->cancel_at) {
            /* Ask the other thread and wait (a few seconds at most) until
             * it has set the flag: the cancel comes from it. */
            atomic_store(L->asked, 1);
            for (int i = 0; i < 5000 && !atomic_load(L->flag); i++)
                sleep_us(1000);
        }
    }
    return L->flag ? atomic_load(L->flag) : 0;
}

static void log_init(progress_log *L)
{
    memset(L, 0, sizeof *L);
    L->monotone = 1;
    L->sized = 1;
    L->last_elapsed = -1.0;
}

/* Phases seen, in order, must be `want` (a NULL-terminated list). */
static void expect_phases(const progress_log *L, const char *const *want)
{
    int k = 0;
    for (; want[k]; k++)
        if (k >= L->nphases || strcmp(L->phases[k], want[k]) != 0)
            fail_msg("phase %d: got '%s', want '%s'", k, k < L->nphases ? L->phases[k] : "(none)",
                     want[k]);
    if (k != L->nphases)
        fail_msg("%d phases seen, want %d (extra '%s')", L->nphases, k, L->phases[k]);
}

/* ------------------------------------------------------------ time limits */

/* The limit counts from the call's start and the layout build polls it: a
 * 1 ms limit on a 1000x1000 graph stops during the layout (which takes
 * tens of ms), the callback having seen "layout" and nothing after it;
 * then the graph solves as if nothing had happened. */
static void test_timeout_in_layout(void **unused)
{
    (void)unused;
    gcut_graph *g = grid_graph(1000, 7);
    gcut_result *r;
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    progress_log L;
    log_init(&L);
    gcut_solve_options o;
    gcut_solve_options_init(&o);
    o.backend = "cpu-bk";
    o.time_limit = 0.001;
    o.progress = log_progress;
    o.progress_user = &L;
    expect_error(gcut_solve(g, &o, r), GCUT_ERR_TIMEOUT, "gcut_solve: time limit of 0.001 s");
    assert_non_null(strstr(gcut_last_error(), "(layout"));
    const char *const phases[] = {"layout", NULL};
    expect_phases(&L, phases);
    assert_int_equal(gcut_result_num_nodes(r), 0); /* untouched */

    /* The graph is consistent: solving again gives the flow of a fresh one. */
    o.time_limit = 0;
    o.progress = NULL;
    assert_int_equal(gcut_solve(g, &o, r), GCUT_OK);
    gcut_graph *fresh = grid_graph(1000, 7);
    gcut_result *r2;
    assert_int_equal(gcut_result_new(&r2), GCUT_OK);
    assert_int_equal(gcut_solve(fresh, &o, r2), GCUT_OK);
    assert_int_equal(gcut_result_flow(r), gcut_result_flow(r2));
    assert_memory_equal(gcut_result_cut(r), gcut_result_cut(r2), 1000 * 1000);
    gcut_result_free(r2);
    gcut_graph_free(fresh);
    gcut_result_free(r);
    gcut_graph_free(g);
}

/* A large grid with a small limit: TIMEOUT at the engine's first poll
 * past the limit, counted from the call's start (so its set-up counts):
 * of the reports (one per poll), only the last comes after the limit.
 * No wall-clock bound: sanitizer builds on a loaded 2-core machine take
 * seconds; a release build returns after about 120 ms (cpu-bk), 250 ms
 * (cpu-grid-pr), 310 ms (cpu-hipr, which converts the grid first), printed. */
static int after_limit;

static int count_late(const gcut_progress *p, void *user)
{
    (void)user;
    after_limit += p->elapsed_ms > 50.0;
    return 0;
}

static void test_timeout_grid(void **unused)
{
    (void)unused;
    const int32_t side = 1500;
    gcut_grid *g = grid_lattice(side, 3);
    gcut_result *r;
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    const char *const backends[] = {"cpu-bk", "cpu-grid-pr", "cpu-hipr"};
    gcut_status st[3];
    double ms[3];
    int late[3];
    char msg[3][256];
    for (int b = 0; b < 3; b++) {
        gcut_solve_options o;
        gcut_solve_options_init(&o);
        o.backend = backends[b];
        o.time_limit = 0.05;
        o.progress = count_late;
        o.progress_interval_ms = 1e-6;
        after_limit = 0;
        const double t0 = now_ms();
        st[b] = gcut_grid_solve(g, &o, r);
        ms[b] = now_ms() - t0;
        late[b] = after_limit;
        snprintf(msg[b], sizeof msg[b], "%s", gcut_last_error());
        print_message("%s: %s after %.0f ms\n", backends[b], gcut_status_string(st[b]), ms[b]);
    }
    gcut_result_free(r);
    gcut_grid_free(g);
    for (int b = 0; b < 3; b++) {
        assert_int_equal(st[b], GCUT_ERR_TIMEOUT);
        assert_non_null(strstr(msg[b], "gcut_grid_solve: time limit of 0.05 s"));
        assert_int_equal(late[b], 1);
    }
}

/* ------------------------------------------------------------ progress */

static void test_progress_phases(void **unused)
{
    (void)unused;
    gcut_graph *g = grid_graph(120, 11);
    gcut_result *r;
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    static const struct {
        const char *backend;
        int flows;
        int knows; /* reports a measure of the work left */
        const char *phases[6];
    } cases[] = {
        {"cpu-bk", 1, 0, {"layout", "solve", "cut", "flows", NULL}},
        {"cpu-hipr", 1, 1, {"layout", "solve", "cut", "flows", NULL}},
        {"cpu-prsn", 1, 1, {"layout", "solve", "cut", "flows", NULL}},
        {"cpu-ref", 0, 0, {"layout", "solve", "cut", NULL}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        progress_log L;
        log_init(&L);
        gcut_solve_options o;
        gcut_solve_options_init(&o);
        o.backend = cases[c].backend;
        o.want_flows = cases[c].flows;
        o.progress = log_progress;
        o.progress_user = &L;
        o.progress_interval_ms = 1e-6; /* every poll reports */
        gcut_graph_free(g); /* a fresh graph: the layout is built in the call */
        g = grid_graph(120, 11);
        assert_int_equal(gcut_solve(g, &o, r), GCUT_OK);
        expect_phases(&L, cases[c].phases);
        assert_true(L.monotone);
        assert_true(L.sized);
        assert_true(L.calls >= 4);
        if (cases[c].knows && !L.known)
            fail_msg("%s reported no measure of the work left", cases[c].backend);
    }
    /* A grid engine: solve then cut; remaining work reported. */
    gcut_grid *gr = grid_lattice(200, 5);
    progress_log L;
    log_init(&L);
    gcut_solve_options o;
    gcut_solve_options_init(&o);
    o.backend = "cpu-grid-pr";
    o.threads = 1;
    o.progress = log_progress;
    o.progress_user = &L;
    o.progress_interval_ms = 1e-6;
    assert_int_equal(gcut_grid_solve(gr, &o, r), GCUT_OK);
    const char *const grid_phases[] = {"solve", "cut", NULL};
    expect_phases(&L, grid_phases);
    assert_true(L.solve_calls >= 2);
    assert_true(L.known >= 1); /* active nodes */
    assert_true(L.monotone && L.sized);
    /* The default interval (100 ms): a quick solve reports phases only. */
    log_init(&L);
    o.progress_interval_ms = 0;
    assert_int_equal(gcut_grid_solve(gr, &o, r), GCUT_OK);
    expect_phases(&L, grid_phases);
    assert_true(L.calls <= 2 + 20);
    gcut_grid_free(gr);
    gcut_result_free(r);
    gcut_graph_free(g);
}

/* ------------------------------------------------------------ cancel */

typedef struct canceller {
    atomic_int flag, asked, stop;
} canceller;

/* The other thread: sets the flag once the callback asks for it. */
static void *cancel_thread(void *arg)
{
    canceller *c = arg;
    while (!atomic_load(&c->stop)) {
        if (atomic_load(&c->asked)) {
            atomic_store(&c->flag, 1);
            break;
        }
        sleep_us(200);
    }
    return NULL;
}

/* Solve with a callback that has another thread cancel at its second
 * report of phase "solve" (the first comes from the core as the phase
 * begins, so the second is the engine's own poll): INTERRUPTED, the result
 * as before, and then the same graph solves to the reference flow. */
static void cancel_case(const char *backend, gcut_graph *g, gcut_grid *gr, int64_t want_flow)
{
    gcut_result *r;
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    gcut_solve_options o;
    gcut_solve_options_init(&o);
    o.backend = backend;
    o.threads = 2;
    /* A first solve fills the result, which a cancelled one must not touch. */
    assert_int_equal(g ? gcut_solve(g, &o, r) : gcut_grid_solve(gr, &o, r), GCUT_OK);
    assert_int_equal(gcut_result_flow(r), want_flow);
    canceller c;
    atomic_init(&c.flag, 0);
    atomic_init(&c.asked, 0);
    atomic_init(&c.stop, 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, cancel_thread, &c), 0);
    progress_log L;
    log_init(&L);
    L.flag = &c.flag;
    L.asked = &c.asked;
    L.cancel_at = 2;
    o.progress = log_progress;
    o.progress_user = &L;
    o.progress_interval_ms = 1e-6;
    const gcut_status st = g ? gcut_solve(g, &o, r) : gcut_grid_solve(gr, &o, r);
    atomic_store(&c.stop, 1);
    pthread_join(th, NULL);
    if (st != GCUT_ERR_INTERRUPTED)
        fail_msg("%s: %s (%s), %d solve reports", backend, gcut_status_string(st),
                 gcut_last_error(), L.solve_calls);
    assert_non_null(strstr(gcut_last_error(), "interrupted by the progress callback (solve"));
    assert_int_equal(L.solve_calls, 2); /* stopped at the engine's next poll */
    assert_int_equal(gcut_result_flow(r), want_flow);
    assert_string_equal(gcut_result_backend(r), backend);
    /* And again, without a callback: the reference flow. */
    o.progress = NULL;
    assert_int_equal(g ? gcut_solve(g, &o, r) : gcut_grid_solve(gr, &o, r), GCUT_OK);
    assert_int_equal(gcut_result_flow(r), want_flow);
    gcut_result_free(r);
}

static void test_cancel_every_engine(void **unused)
{
    (void)unused;
    const int32_t side = 400; /* large enough that every engine polls */
    gcut_graph *g = grid_graph(side, 21);
    int64_t want = 0;
    assert_int_equal(gcut_graph_maxflow(g, "cpu-ref", &want), GCUT_OK);
    const char *const graph_engines[] = {"cpu-bk", "cpu-hipr", "cpu-prsn", "cpu-ref"};
    for (int b = 0; b < 4; b++)
        cancel_case(graph_engines[b], g, NULL, want);
    gcut_graph_free(g);

    gcut_grid *gr = grid_lattice(side, 21);
    gcut_grid_set_warm_start(gr, 0); /* every solve cold: the engine works and polls */
    gcut_result *r;
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    gcut_solve_options o;
    gcut_solve_options_init(&o);
    o.backend = "cpu-ref";
    assert_int_equal(gcut_grid_solve(gr, &o, r), GCUT_OK);
    want = gcut_result_flow(r);
    gcut_result_free(r);
    cancel_case("cpu-bk", NULL, gr, want);
    cancel_case("cpu-grid-pr", NULL, gr, want);
    gcut_grid_free(gr);
}

/* Matching: the time limit (no callback in gcut_match_options) stops the
 * matchers through the same poll. */
static void test_match_timeout(void **unused)
{
    (void)unused;
    const int32_t n = 200000;
    const int64_t m = 8 * (int64_t)n;
    int32_t *row = malloc((size_t)m * sizeof *row), *col = malloc((size_t)m * sizeof *col);
    assert_non_null(row);
    assert_non_null(col);
    tu_rng rng = {99};
    for (int64_t e = 0; e < m; e++) {
        row[e] = (int32_t)tu_range(&rng, 0, n - 1);
        col[e] = (int32_t)tu_range(&rng, 0, n / 2 + (e % 4 == 0 ? n / 2 - 1 : 0));
    }
    gcut_bipartite *b;
    assert_int_equal(gcut_bipartite_new(&b, n, n, row, col, m), GCUT_OK);
    free(row);
    free(col);
    gcut_match_result *res;
    assert_int_equal(gcut_match_result_new(&res), GCUT_OK);
    gcut_match_options o;
    gcut_match_options_init(&o);
    o.init = GCUT_MATCH_INIT_NONE;
    o.time_limit = 1e-6;
    const char *const matchers[] = {"cpu-match-pr", "cpu-match-hk"};
    for (int k = 0; k < 2; k++) {
        o.backend = matchers[k];
        expect_error(gcut_match(b, &o, res), GCUT_ERR_TIMEOUT, "gcut_match: time limit");
    }
    o.time_limit = 0;
    assert_int_equal(gcut_match(b, &o, res), GCUT_OK);
    gcut_match_result_free(res);
    gcut_bipartite_free(b);
}

/* ------------------------------------------------------------ memory budget */

static void test_budget_graph(void **unused)
{
    (void)unused;
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 1000, 0), GCUT_OK);
    gcut_set_max_memory((size_t)1 << 20); /* 1 MiB: 16 bytes an edge, so about 65000 */
    assert_int_equal(gcut_max_memory(), (size_t)1 << 20);
    int64_t added = 0;
    gcut_status st = GCUT_OK;
    for (; added < 200000 && st == GCUT_OK; added++)
        st = gcut_graph_add_edge(g, (int32_t)(added % 999), (int32_t)(added % 999) + 1, 1, 1);
    expect_error(st, GCUT_ERR_NOMEM, "over the memory budget of 1.0 MiB");
    assert_non_null(strstr(gcut_last_error(), "gcut_graph_add_edge: "));
    /* Nothing of the failed call happened; the graph stays usable. */
    assert_int_equal(gcut_graph_num_edges(g), added - 1);
    assert_true(added > 50000 && added < 70000);
    /* gcut_graph_new under the budget: too large fails, small works. */
    gcut_graph *big = NULL;
    expect_error(gcut_graph_new(&big, 1000000, 0), GCUT_ERR_NOMEM, "memory budget");
    assert_null(big);
    gcut_set_max_memory(0);
    assert_int_equal(gcut_graph_add_edge(g, 0, 1, 1, 1), GCUT_OK);
    int64_t flow;
    assert_int_equal(gcut_graph_maxflow(g, "cpu-bk", &flow), GCUT_OK);
    gcut_graph_free(g);
}

/* The call's budget covers its layout and engine state; the per-call one
 * replaces the process one both ways. */
static void test_budget_solve(void **unused)
{
    (void)unused;
    gcut_graph *g = grid_graph(300, 4); /* 90000 nodes, 180000 edges */
    int64_t want;
    assert_int_equal(gcut_graph_maxflow(g, "cpu-ref", &want), GCUT_OK);
    gcut_graph_free(g);
    g = grid_graph(300, 4); /* no cached layout */
    gcut_result *r;
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    gcut_solve_options o;
    gcut_solve_options_init(&o);
    const char *const engines[] = {"cpu-bk", "cpu-hipr", "cpu-prsn", "cpu-ref"};
    for (int b = 0; b < 4; b++) {
        o.backend = engines[b];
        o.max_memory = (size_t)1 << 20; /* the BCSR alone is 8.6 MB */
        expect_error(gcut_solve(g, &o, r), GCUT_ERR_NOMEM, "over the memory budget of 1.0 MiB");
        assert_non_null(strstr(gcut_last_error(), "gcut_solve: "));
        assert_int_equal(gcut_result_num_nodes(r), 0);
    }
    /* The process budget, then a call's larger one overriding it. */
    gcut_set_max_memory((size_t)1 << 20);
    o.backend = "cpu-hipr";
    o.max_memory = 0;
    expect_error(gcut_solve(g, &o, r), GCUT_ERR_NOMEM, "over the memory budget of 1.0 MiB");
    o.max_memory = (size_t)1 << 30;
    assert_int_equal(gcut_solve(g, &o, r), GCUT_OK);
    assert_int_equal(gcut_result_flow(r), want);
    gcut_set_max_memory(0);
    /* Under a budget that fits, everything works. */
    for (int b = 0; b < 4; b++) {
        gcut_graph_free(g);
        g = grid_graph(300, 4);
        o.backend = engines[b];
        o.max_memory = (size_t)200 << 20;
        assert_int_equal(gcut_solve(g, &o, r), GCUT_OK);
        assert_int_equal(gcut_result_flow(r), want);
    }
    gcut_result_free(r);
    gcut_graph_free(g);
}

/* ------------------------------------------------------------ endless inputs */

/* A FIFO in /tmp that a child process writes `head` then `line` into,
 * forever (until the reader closes it). */
typedef struct feeder {
    char path[64];
    pid_t pid;
} feeder;

static void feeder_start(feeder *f, const char *head, const char *line)
{
    snprintf(f->path, sizeof f->path, "/tmp/gcut-test-fifo-%d", (int)getpid());
    unlink(f->path);
    assert_int_equal(mkfifo(f->path, 0600), 0);
    f->pid = fork();
    assert_true(f->pid >= 0);
    if (f->pid == 0) {
        signal(SIGPIPE, SIG_DFL); /* the reader's close ends us */
        alarm(120);               /* never outlive a hung test */
        FILE *out = fopen(f->path, "w");
        if (!out)
            _exit(1);
        fputs(head, out);
        char block[1 << 16];
        size_t len = strlen(line), n = 0;
        while (n + len <= sizeof block) {
            memcpy(block + n, line, len);
            n += len;
        }
        for (;;)
            if (fwrite(block, 1, n, out) != n)
                _exit(0);
    }
}

static void feeder_stop(feeder *f)
{
    kill(f->pid, SIGTERM);
    int status;
    waitpid(f->pid, &status, 0);
    unlink(f->path);
}

static void test_endless_dimacs(void **unused)
{
    (void)unused;
    alarm(120); /* a reader that never stops fails the test instead of hanging it */
    gcut_set_max_memory((size_t)4 << 20);
    feeder f;
    gcut_graph *g = NULL;
    /* Valid arcs forever (more are declared than will ever come). */
    feeder_start(&f, "p max 10 100000000000\nn 1 s\nn 2 t\n", "a 3 4 5\n");
    expect_error(gcut_graph_read_dimacs(f.path, &g, NULL), GCUT_ERR_NOMEM,
                 "over the memory budget of 4.0 MiB");
    assert_non_null(strstr(gcut_last_error(), "gcut_graph_read_dimacs: "));
    assert_null(g);
    feeder_stop(&f);
    /* Comments forever: nothing is stored, the text bound stops it. */
    feeder_start(&f, "p max 10 10\n", "c a comment that never ends\n");
    expect_error(gcut_graph_read_dimacs(f.path, &g, NULL), GCUT_ERR_NOMEM,
                 "times the memory budget of 4.0 MiB");
    assert_null(g);
    feeder_stop(&f);
    /* /dev/zero: no newline ever, a line too long. */
    expect_error(gcut_graph_read_dimacs("/dev/zero", &g, NULL), GCUT_ERR_PARSE,
                 "/dev/zero:1: line longer than");
    gcut_set_max_memory(0);
    expect_error(gcut_graph_read_dimacs("/dev/zero", &g, NULL), GCUT_ERR_PARSE,
                 "/dev/zero:1: line longer than");
    alarm(0);
}

static void test_endless_mtx(void **unused)
{
    (void)unused;
    alarm(120);
    gcut_set_max_memory((size_t)4 << 20);
    feeder f;
    gcut_bipartite *b = NULL;
    const char *banner = "%%MatrixMarket matrix coordinate pattern general\n";
    char head[256];
    snprintf(head, sizeof head, "%s10 10 100000000000\n", banner);
    feeder_start(&f, head, "3 4\n");
    expect_error(gcut_bipartite_read_mtx(&b, f.path), GCUT_ERR_NOMEM,
                 "over the memory budget of 4.0 MiB");
    assert_non_null(strstr(gcut_last_error(), "gcut_bipartite_read_mtx: "));
    assert_null(b);
    feeder_stop(&f);
    feeder_start(&f, banner, "% a comment that never ends\n");
    expect_error(gcut_bipartite_read_mtx(&b, f.path), GCUT_ERR_NOMEM,
                 "times the memory budget of 4.0 MiB");
    feeder_stop(&f);
    gcut_set_max_memory(0);
    expect_error(gcut_bipartite_read_mtx(&b, "/dev/zero"), GCUT_ERR_PARSE,
                 "/dev/zero:1: line longer than 1048576 bytes");
    /* A long line after the banner is named by its number. */
    char path[64];
    snprintf(path, sizeof path, "/tmp/gcut-test-long-%d.mtx", (int)getpid());
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fprintf(out, "%s%%", banner);
    for (int i = 0; i < (2 << 20); i++)
        fputc('x', out);
    fputs("\n2 2 1\n1 1\n", out);
    fclose(out);
    expect_error(gcut_bipartite_read_mtx(&b, path), GCUT_ERR_PARSE, ":2: line longer than");
    /* A huge declared size fails under a budget, naming the public function. */
    out = fopen(path, "w");
    assert_non_null(out);
    fprintf(out, "%s2000000000 2000000000 1\n1 1\n", banner);
    fclose(out);
    gcut_set_max_memory((size_t)64 << 20);
    expect_error(gcut_bipartite_read_mtx(&b, path), GCUT_ERR_NOMEM, "memory budget of 64.0 MiB");
    const char *msg = gcut_last_error();
    assert_true(strncmp(msg, "gcut_bipartite_read_mtx: ", 25) == 0);
    assert_null(strstr(msg, "gcut_i_"));
    assert_null(strstr(msg + 25, "gcut_bipartite_read_mtx")); /* named once */
    gcut_set_max_memory(0);
    unlink(path);
    alarm(0);
}

int main(void)
{
    setenv("GCUT_PLUGIN_PATH", "/nonexistent-gcut-plugins", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timeout_in_layout),
        cmocka_unit_test(test_timeout_grid),
        cmocka_unit_test(test_progress_phases),
        cmocka_unit_test(test_cancel_every_engine),
        cmocka_unit_test(test_match_timeout),
        cmocka_unit_test(test_budget_graph),
        cmocka_unit_test(test_budget_solve),
        cmocka_unit_test(test_endless_dimacs),
        cmocka_unit_test(test_endless_mtx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
