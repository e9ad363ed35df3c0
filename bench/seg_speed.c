/*
 * gcut-seg-speed - the whole segmentation pipeline (load, model, build,
 * cut) on one photo scaled to given sizes, as `gcut-seg --rect` runs it.
 *
 *   gcut-seg-speed PHOTO [MEGAPIXELS...] [--backend NAME] [--iterations N] [--params STR]
 *                  [--cpu-energies] [--keep DIR]
 *
 * For each size (default 0.5 2 12) the photo is scaled bilinearly to about
 * that many pixels (same aspect ratio) and saved as PNG in $TMPDIR; the
 * timed part loads that file, learns the models from the central box
 * (60% of each side; outside is background), builds the grid and cuts
 * (N GrabCut iterations, default 1). Prints one line per size: wall times
 * of each stage, their sum, and the CPU time of the same part (cpu_ms;
 * on a shared machine the honest figure); `energies` says where the
 * energies (models, data costs, weights, capacities) were evaluated:
 * "device" with a back end that offers it (cuda-grid; --cpu-energies,
 * gcut_seg_options::device_energies = 0, turns it off), "host" otherwise, and xfer_ms the part of model_ms +
 * build_ms spent copying between host and device.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gcut/gcut.h"
#include "gcut/vision/image.h"
#include "gcut/vision/segment.h"
#include "cli.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* CPU time of the process: on a shared machine the wall time also counts
 * the time other jobs held the core, the CPU time does not. */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static gcut_image *scaled(const gcut_image *rgb, double mp)
{
    const double f = sqrt(mp * 1e6 / ((double)rgb->width * rgb->height));
    const int32_t w = (int32_t)(rgb->width * f), h = (int32_t)(rgb->height * f);
    gcut_image *o = NULL;
    if (gcut_image_new(&o, w, h, 3, 8) != GCUT_OK)
        return NULL;
    for (int32_t y = 0; y < h; y++) {
        const double sy = (y + 0.5) / f - 0.5;
        int32_t y0 = (int32_t)floor(sy);
        const double ty = sy - y0;
        y0 = y0 < 0 ? 0 : y0;
        const int32_t y1 = y0 + 1 < rgb->height ? y0 + 1 : y0;
        for (int32_t x = 0; x < w; x++) {
            const double sx = (x + 0.5) / f - 0.5;
            int32_t x0 = (int32_t)floor(sx);
            const double tx = sx - x0;
            x0 = x0 < 0 ? 0 : x0;
            const int32_t x1 = x0 + 1 < rgb->width ? x0 + 1 : x0;
            for (int c = 0; c < 3; c++) {
                const uint8_t *r0 = rgb->data + (size_t)y0 * rgb->stride;
                const uint8_t *r1 = rgb->data + (size_t)y1 * rgb->stride;
                const double v = (1 - ty) * ((1 - tx) * r0[3 * x0 + c] + tx * r0[3 * x1 + c]) +
                                 ty * ((1 - tx) * r1[3 * x0 + c] + tx * r1[3 * x1 + c]);
                o->data[(size_t)y * o->stride + 3 * (size_t)x + c] = (uint8_t)(v + 0.5);
            }
        }
    }
    return o;
}

static const char usage[] =
    "usage: gcut-seg-speed [options] PHOTO [MEGAPIXELS...]\n"
    "The segmentation pipeline (load, models, build, cut) as gcut-seg --rect runs it,\n"
    "on PHOTO scaled to each size (default 0.5 2 12 megapixels, at most 16 sizes);\n"
    "one line per size: the wall time of each stage, their sum and the CPU time.\n"
    "\n"
    "options:\n"
    "  --backend NAME       back end (default auto; --version lists them)\n"
    "  --iterations N       GrabCut iterations, 1..1000 (default 1)\n"
    "  --params STR         back-end settings, key=value[,key=value]\n"
    "  --cpu-energies       evaluate the energies on the host even where the back\n"
    "                       end offers them on the device\n"
    "  --keep DIR           also save the scaled photos as DIR/NAME-MPmp.png\n"
    "  -h, --help           show this help\n"
    "      --version        show the version and the back ends\n";

int main(int argc, char **argv)
{
    cli_init("gcut-seg-speed", usage);
    const char *photo = NULL, *backend = NULL, *keep = NULL, *params = NULL;
    double mps[16];
    int nmp = 0, cpu_energies = 0;
    int32_t iters = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_info_option(a))
            return 0;
        if (!strcmp(a, "--cpu-energies")) {
            cpu_energies = 1;
        } else if (!strcmp(a, "--backend") || !strcmp(a, "--iterations") || !strcmp(a, "--keep") ||
                   !strcmp(a, "--params")) {
            if (!v)
                return cli_usage_error("option needs a value", a);
            i++;
            if (!strcmp(a, "--backend"))
                backend = v;
            else if (!strcmp(a, "--params"))
                params = v;
            else if (!strcmp(a, "--keep"))
                keep = v;
            else if (!cli_parse_int(v, 1, 1000, &iters))
                return cli_usage_error("--iterations needs a number 1..1000", v);
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("unknown option", a);
        } else if (!photo) {
            photo = a;
        } else if (nmp == 16) {
            return cli_usage_error("at most 16 sizes", a);
        } else if (!cli_parse_double(a, 1e-4, 1e4, &mps[nmp++])) {
            return cli_usage_error("a size is a number of megapixels in 0.0001..10000", a);
        }
    }
    if (!photo)
        return cli_usage_error("no photo given", NULL);
    if (nmp == 0) {
        mps[0] = 0.5;
        mps[1] = 2;
        mps[2] = 12;
        nmp = 3;
    }
    gcut_image *img = NULL, *rgb = NULL;
    if (gcut_image_load(photo, &img) != GCUT_OK || gcut_image_to_rgb(img, &rgb) != GCUT_OK) {
        fprintf(stderr, "gcut-seg-speed: %s\n", gcut_last_error());
        return 1;
    }
    const char *tmpdir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    printf("%-8s %-11s %-9s %9s %9s %9s %9s %9s %9s %-10s %-8s %8s\n", "MP", "size", "backend",
           "load_ms", "model_ms", "build_ms", "solve_ms", "total_ms", "cpu_ms", "iterations",
           "energies", "xfer_ms");
    for (int i = 0; i < nmp; i++) {
        gcut_image *big = scaled(rgb, mps[i]);
        char path[1024];
        snprintf(path, sizeof path, "%s/gcut-seg-speed-%d.png", tmpdir, (int)getpid());
        if (!big || gcut_image_save_png(big, path) != GCUT_OK) {
            fprintf(stderr, "gcut-seg-speed: %s\n", gcut_last_error());
            return 1;
        }
        if (keep) { /* the scaled photo, for instances made from it (bench/make-real-instances.sh) */
            const char *base = strrchr(photo, '/') ? strrchr(photo, '/') + 1 : photo;
            const int stem = (int)(strrchr(base, '.') ? strrchr(base, '.') - base : (long)strlen(base));
            char kept[1024];
            snprintf(kept, sizeof kept, "%s/%.*s-%gmp.png", keep, stem, base, mps[i]);
            if (gcut_image_save_png(big, kept) != GCUT_OK) {
                fprintf(stderr, "gcut-seg-speed: %s\n", gcut_last_error());
                return 1;
            }
        }
        const int32_t w = big->width, h = big->height;
        gcut_image_free(big);
        const double t0 = now_ms(), c0 = cpu_ms();
        gcut_image *in = NULL;
        if (gcut_image_load(path, &in) != GCUT_OK) {
            fprintf(stderr, "gcut-seg-speed: %s\n", gcut_last_error());
            return 1;
        }
        const double load = now_ms() - t0;
        uint8_t *seeds = malloc((size_t)w * h), *mask = malloc((size_t)w * h);
        gcut_seeds_from_rect(w, h, w / 5, h / 5, w - 2 * (w / 5), h - 2 * (h / 5), seeds);
        gcut_seg_options p;
        gcut_seg_options_init(&p);
        if (backend)
            p.solve.backend = backend;
        p.solve.params = params;
        p.device_energies = !cpu_energies;
        gcut_seg_stats st;
        if (gcut_grabcut(in, seeds, iters, &p, mask, &st) != GCUT_OK) {
            fprintf(stderr, "gcut-seg-speed: %s\n", gcut_last_error());
            return 1;
        }
        const double cpu = cpu_ms() - c0;
        printf("%-8.2f %5dx%-5d %-9s %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %-10d %-8s %8.1f\n",
               (double)w * h / 1e6, (int)w, (int)h, st.backend ? st.backend : "-", load,
               st.model_ms, st.build_ms, st.solve_ms, load + st.total_ms, cpu,
               (int)st.iterations, st.energy_device ? "device" : "host", st.transfer_ms);
        fflush(stdout);
        free(seeds);
        free(mask);
        gcut_image_free(in);
        remove(path);
    }
    gcut_image_free(rgb);
    gcut_image_free(img);
    return 0;
}
