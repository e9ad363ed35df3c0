/*
 * grabcut_cpu - CPU time of one gcut_grabcut call (the session, the
 * models, the cuts; the image is read before the clock starts), for
 * bench/run-grabcut-cpu.sh. Not built by CMake: the script compiles it
 * against each build it compares.
 *
 *   grabcut_cpu [--phases] IMAGE X,Y,W,H [ITERATIONS]
 *
 * Prints one line: `cpu_ms=MS iterations=N mask=HASH` (HASH: FNV-1a of
 * the mask bytes, to compare the masks of two builds). With --phases the
 * line goes on with `first_ms=MS warm_ms=MS other_ms=MS`: where the time
 * went, the first (cold) cut, the warm cuts of the later iterations and
 * the rest (session set-up, models, data costs, graph updates). The cuts
 * are timed through the debug log of the solve options (verbosity 3): the
 * CPU time between the message the chooser logs before a solve and the
 * one cpu-bk logs after it ("cpu-bk (grid): ..." cold, "cpu-bk (grid,
 * warm): ..." warm), so it knows no other back end. Compiled by hand for
 * that, for example
 *
 *   cc -O2 -std=c11 -o gc bench/grabcut_cpu.c -Ilib/include -Ivision/include \
 *       -Ibuild/lib/include -Ibuild/vision/include -Lbuild/lib -lgcut_vision -lgcut -lm
 *   LD_LIBRARY_PATH=build/lib taskset -c 0 ./gc --phases IMAGE X,Y,W,H 5
 *
 * The options are the library's GrabCut defaults: gcut_grabcut gets NULL,
 * so each build linked runs its own default (two builds on either side of
 * a change of the default compare the defaults). --phases needs the log
 * of the options: gcut_seg_options_init's with GrabCut's lambda, 35,
 * written here (gcut_grabcut_options_init would not link against builds
 * older than it).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gcut/gcut.h"
#include "gcut/vision/image.h"
#include "gcut/vision/segment.h"

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* --phases: the CPU time of the cold and the warm cuts, from the log. */
typedef struct phases {
    double solve_t0; /* the chooser's message: a solve starts */
    double first, warm;
} phases;

static void on_log(void *user, gcut_log_level level, const char *msg)
{
    (void)level;
    phases *ph = user;
    const double now = cpu_ms();
    if (strncmp(msg, "gcut_grid_solve: auto:", 22) == 0)
        ph->solve_t0 = now;
    else if (strncmp(msg, "cpu-bk (grid, warm)", 19) == 0)
        ph->warm += now - ph->solve_t0;
    else if (strncmp(msg, "cpu-bk (grid)", 13) == 0)
        ph->first += now - ph->solve_t0;
}

int main(int argc, char **argv)
{
    const int with_phases = argc > 1 && strcmp(argv[1], "--phases") == 0;
    argc -= with_phases;
    argv += with_phases;
    if (argc < 3) {
        fprintf(stderr, "usage: grabcut_cpu [--phases] IMAGE X,Y,W,H [ITERATIONS]\n");
        return 2;
    }
    gcut_image *im;
    if (gcut_image_load(argv[1], &im) != GCUT_OK) {
        fprintf(stderr, "grabcut_cpu: %s\n", gcut_last_error());
        return 1;
    }
    int x, y, w, h;
    if (sscanf(argv[2], "%d,%d,%d,%d", &x, &y, &w, &h) != 4)
        return 2;
    const int iters = argc > 3 ? atoi(argv[3]) : 5;
    const size_t n = (size_t)im->width * (size_t)im->height;
    uint8_t *seeds = malloc(n), *mask = malloc(n);
    if (!seeds || !mask || gcut_seeds_from_rect(im->width, im->height, x, y, w, h, seeds) != GCUT_OK)
        return 1;
    gcut_seg_options p;
    gcut_seg_options_init(&p);
    phases ph = {0, 0, 0};
    if (with_phases) {
        p.lambda = 35.0;
        p.solve.verbosity = 3;
        p.solve.log = on_log;
        p.solve.log_user = &ph;
    }
    gcut_seg_stats st;
    const double t0 = cpu_ms();
    if (gcut_grabcut(im, seeds, iters, with_phases ? &p : NULL, mask, &st) != GCUT_OK) {
        fprintf(stderr, "grabcut_cpu: %s\n", gcut_last_error());
        return 1;
    }
    const double t1 = cpu_ms();
    unsigned long long hash = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        hash = (hash ^ mask[i]) * 1099511628211ull;
    printf("cpu_ms=%.3f iterations=%d mask=%016llx", t1 - t0, (int)st.iterations, hash);
    if (with_phases)
        printf(" first_ms=%.3f warm_ms=%.3f other_ms=%.3f", ph.first, ph.warm,
               t1 - t0 - ph.first - ph.warm);
    printf("\n");
    gcut_image_free(im);
    free(seeds);
    free(mask);
    return 0;
}
