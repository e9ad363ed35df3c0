/*
 * cancel.c - the "Time limits, cancelling and progress" and "Memory
 * budget" example of docs/backends.md: a progress bar, a cancel button
 * pressed from another thread, a time limit and a memory budget on one
 * large grid. Built and run by CTest so the documented code keeps working.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include <gcut/gcut.h>

/* What the "cancel" button of a user interface sets, from its own thread. */
static atomic_int cancel_pressed;

/* Called on the solving thread at each phase change and at most every
 * progress_interval_ms while an engine works: report, and say whether to
 * stop (non-zero: the call returns GCUT_ERR_INTERRUPTED). */
static int on_progress(const gcut_progress *p, void *user)
{
    int *reports = user;
    ++*reports;
    if (p->remaining >= 0)
        printf("  %s %s: %.0f ms, %lld %s left\n", p->operation, p->phase, p->elapsed_ms,
               (long long)p->remaining, p->remaining_what);
    else
        printf("  %s %s: %.0f ms\n", p->operation, p->phase, p->elapsed_ms);
    return atomic_load(&cancel_pressed);
}

/* The user interface's thread: presses "cancel" after 20 ms. */
static void *ui_thread(void *unused)
{
    (void)unused;
    struct timespec ts = {0, 20 * 1000000L};
    nanosleep(&ts, NULL);
    atomic_store(&cancel_pressed, 1);
    return NULL;
}

/* A 1000 x 1000 image-like grid whose left half wants the source. */
static gcut_grid *make_grid(int32_t side)
{
    gcut_grid *g;
    if (gcut_grid_new(&g, side, side, 1, 4) != GCUT_OK)
        return NULL;
    for (int32_t v = 0; v < side * side; v++) {
        const int left = v % side < side / 2;
        gcut_grid_set_tweights(g, v, left ? 9 : 1, left ? 1 : 9);
        for (int32_t d = 0; d < 4; d++)
            gcut_grid_set_cap(g, v, d, 3);
    }
    return g;
}

int main(void)
{
    gcut_grid *g = make_grid(1000);
    gcut_result *res;
    if (!g || gcut_result_new(&res) != GCUT_OK) {
        fprintf(stderr, "%s\n", gcut_last_error());
        return 1;
    }
    int reports = 0;
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-grid-pr";
    opt.progress = on_progress;
    opt.progress_user = &reports;
    opt.progress_interval_ms = 5;

    /* 1. Cancelled from another thread: GCUT_ERR_INTERRUPTED; res untouched. */
    pthread_t ui;
    pthread_create(&ui, NULL, ui_thread, NULL);
    gcut_status st = gcut_grid_solve(g, &opt, res);
    pthread_join(ui, NULL);
    printf("cancelled: %s (%s)\n", gcut_status_string(st), gcut_last_error());
    int ok = st == GCUT_ERR_INTERRUPTED || st == GCUT_OK; /* OK: solved within 20 ms */

    /* 2. A time limit for the whole call (set-up included). */
    atomic_store(&cancel_pressed, 0);
    opt.time_limit = 0.001; /* seconds */
    st = gcut_grid_solve(g, &opt, res);
    printf("time limit: %s\n", gcut_status_string(st));
    ok = ok && (st == GCUT_ERR_TIMEOUT || st == GCUT_OK);

    /* 3. A memory budget for this call: 1 MiB is too little for the
     *    engine's state of a million nodes. gcut_set_max_memory() sets one
     *    for the whole process (graphs, readers, every call). */
    opt.time_limit = 0;
    opt.max_memory = (size_t)1 << 20;
    st = gcut_grid_solve(g, &opt, res);
    printf("1 MiB budget: %s (%s)\n", gcut_status_string(st), gcut_last_error());
    ok = ok && st == GCUT_ERR_NOMEM;

    /* 4. Nothing was damaged: the same grid solves within a fitting budget. */
    opt.max_memory = (size_t)512 << 20;
    opt.progress = NULL;
    st = gcut_grid_solve(g, &opt, res);
    printf("solved: %s, flow %lld\n", gcut_status_string(st), (long long)gcut_result_flow(res));
    /* Each node sends 1 straight through, the 1000 arcs across the middle 3. */
    ok = ok && st == GCUT_OK && gcut_result_flow(res) == 1000LL * 1000 + 3 * 1000 && reports > 0;

    gcut_result_free(res);
    gcut_grid_free(g);
    return ok ? 0 : 1;
}
