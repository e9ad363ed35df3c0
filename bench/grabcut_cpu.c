/*
 * grabcut_cpu - CPU time of one gcut_grabcut call (the session, the
 * models, the cuts; the image is read before the clock starts), for
 * bench/run-grabcut-cpu.sh. Not built by CMake: the script compiles it
 * against each build it compares.
 *
 *   grabcut_cpu IMAGE X,Y,W,H [ITERATIONS]
 *
 * Prints one line: `cpu_ms=MS iterations=N mask=HASH` (HASH: FNV-1a of
 * the mask bytes, to compare the masks of two builds).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
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

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: grabcut_cpu IMAGE X,Y,W,H [ITERATIONS]\n");
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
    gcut_seg_stats st;
    const double t0 = cpu_ms();
    if (gcut_grabcut(im, seeds, iters, &p, mask, &st) != GCUT_OK) {
        fprintf(stderr, "grabcut_cpu: %s\n", gcut_last_error());
        return 1;
    }
    const double t1 = cpu_ms();
    unsigned long long hash = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        hash = (hash ^ mask[i]) * 1099511628211ull;
    printf("cpu_ms=%.3f iterations=%d mask=%016llx\n", t1 - t0, (int)st.iterations, hash);
    gcut_image_free(im);
    free(seeds);
    free(mask);
    return 0;
}
