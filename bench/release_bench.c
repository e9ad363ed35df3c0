/*
 * gcut-release-bench - what the incremental model update of a release
 * (gcut_seg_session_update_models) costs in mask quality against a full
 * re-learning, on an image with scribbles and a ground truth:
 *
 *     gcut-release-bench IMAGE SCRIBBLES GT [PIECES]
 *
 * The scribbles (a seed picture: gcut_seeds_from_image's colours, e.g. the
 * Andrade-Carrera set-1 scribbles of the GrabCut set) are split into their
 * connected strokes (8-connected pixels of one class), played in the order
 * of their first pixel, as a user would paint them one after the other;
 * with PIECES > 1 each stroke is cut into that many consecutive pieces
 * (in the order of a walk along it), each released on its own, as a user
 * painting it in several drags.
 * After each stroke, a release:
 *   - full: a new session learns the models from all the seeds so far and
 *     cuts (gcut-view --models full, gcut-seg --seeds);
 *   - update: the first stroke makes the session, each further one is
 *     added (gcut_seg_session_add_stroke) and the models are updated from
 *     it (gcut_seg_session_update_models), as gcut-view does by default.
 * Printed: the strokes, the error against the truth after the last release
 * for both (misclassified / labelled pixels, the 128 band of the MSRC
 * truths not counted), the pixels where the two final masks differ, and
 * the median release time of each (not counting the first, which is the
 * same new session in both). Exit status 0, 1 on bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gcut/gcut.h"
#include "gcut/vision/image.h"
#include "gcut/vision/segment.h"
#include "cli.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int fail(const char *what)
{
    fprintf(stderr, "gcut-release-bench: %s: %s\n", what, gcut_last_error());
    return 1;
}

/* The strokes: 8-connected components of seed pixels of one class, each
 * listed in stroke[], numbered in the order of their first pixel; start[s]
 * .. start[s + 1] are stroke s's pixels. Returns the number of strokes. */
static int32_t split_strokes(const uint8_t *seeds, int32_t w, int32_t h, int32_t *pix,
                             int32_t *start, int32_t max_strokes)
{
    const int64_t n = (int64_t)w * h;
    uint8_t *seen = calloc((size_t)n, 1);
    int32_t ns = 0, top = 0;
    for (int64_t p0 = 0; p0 < n && ns < max_strokes; p0++) {
        if (!seeds[p0] || seen[p0])
            continue;
        start[ns] = top;
        int32_t head = top;
        pix[top++] = (int32_t)p0;
        seen[p0] = 1;
        while (head < top) {
            const int32_t p = pix[head++];
            const int32_t x = p % w, y = p / w;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    const int32_t xx = x + dx, yy = y + dy;
                    if (xx < 0 || yy < 0 || xx >= w || yy >= h)
                        continue;
                    const int32_t q = xx + w * yy;
                    if (!seen[q] && seeds[q] == seeds[p0]) {
                        seen[q] = 1;
                        pix[top++] = q;
                    }
                }
        }
        ns++;
    }
    start[ns] = top;
    free(seen);
    return ns;
}

static double error_pct(const uint8_t *mask, const uint8_t *truth, int64_t n)
{
    gcut_seg_eval ev;
    if (gcut_seg_evaluate(mask, truth, NULL, n, &ev) != GCUT_OK)
        return -1.0;
    return 100.0 * ev.error_rate;
}

static const char usage[] =
    "usage: gcut-release-bench IMAGE SCRIBBLES GT [PIECES]\n"
    "The mask quality of the incremental model update of a release against a full\n"
    "re-learning: the strokes of the seed picture SCRIBBLES (gcut_seeds_from_image's\n"
    "colours) are played one after the other on IMAGE, each released, and both final\n"
    "masks are compared with the ground truth GT (8-bit, the size of IMAGE).\n"
    "  PIECES               release each stroke in that many pieces, 1..64 (default 1)\n"
    "\n"
    "options:\n"
    "  -h, --help           show this help\n"
    "      --version        show the version and the back ends\n";

int main(int argc, char **argv)
{
    cli_init("gcut-release-bench", usage);
    for (int i = 1; i < argc; i++) {
        if (cli_info_option(argv[i]))
            return 0;
        if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("unknown option", argv[i]);
    }
    if (argc != 4 && argc != 5)
        return cli_usage_error("expected IMAGE SCRIBBLES GT [PIECES]", NULL);
    int32_t pieces = 1;
    if (argc == 5 && !cli_parse_int(argv[4], 1, 64, &pieces))
        return cli_usage_error("PIECES must be a number 1..64", argv[4]);
    gcut_image *img = NULL, *scr = NULL, *gt = NULL;
    if (gcut_image_load(argv[1], &img) != GCUT_OK || gcut_image_load(argv[2], &scr) != GCUT_OK ||
        gcut_image_load(argv[3], &gt) != GCUT_OK)
        return fail("load");
    const int32_t w = img->width, h = img->height;
    const int64_t n = (int64_t)w * h;
    if (scr->width != w || scr->height != h || gt->width != w || gt->height != h ||
        gt->depth != 8) {
        fprintf(stderr, "gcut-release-bench: the three images differ in size or depth\n");
        return 1;
    }
    uint8_t *all = malloc((size_t)n), *seeds = calloc((size_t)n, 1), *truth = malloc((size_t)n);
    uint8_t *mfull = malloc((size_t)n), *mupd = malloc((size_t)n);
    int32_t *pix = malloc((size_t)n * sizeof *pix);
    enum { MAXS = 1024 };
    int32_t start[MAXS + 1];
    if (gcut_seeds_from_image(scr, all) != GCUT_OK)
        return fail("scribbles");
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            truth[(int64_t)y * w + x] = gt->data[(size_t)y * gt->stride + (size_t)x * gt->channels];
    int32_t ns = split_strokes(all, w, h, pix, start, MAXS / pieces);
    if (pieces > 1) {
        /* Each stroke's pixels (in the order of the walk) in equal pieces. */
        int32_t cut[MAXS + 1], k = 0;
        for (int32_t s = 0; s < ns; s++) {
            const int32_t len = start[s + 1] - start[s];
            for (int32_t j = 0; j < pieces; j++) {
                const int32_t a = start[s] + (int32_t)((int64_t)len * j / pieces);
                const int32_t b = start[s] + (int32_t)((int64_t)len * (j + 1) / pieces);
                if (b > a)
                    cut[k++] = a;
            }
        }
        cut[k] = start[ns];
        memcpy(start, cut, (size_t)(k + 1) * sizeof start[0]);
        ns = k;
    }
    gcut_seg_options p;
    gcut_seg_options_init(&p);
    p.solve.backend = "cpu-bk";
    gcut_seg_session *upd = NULL;
    double tf[MAXS], tu[MAXS];
    int32_t nt = 0, started = 0;
    for (int32_t s = 0; s < ns; s++) {
        const uint8_t label = all[pix[start[s]]];
        for (int32_t i = start[s]; i < start[s + 1]; i++)
            seeds[pix[i]] = label;
        /* full: a new session from all the seeds */
        double t0 = now_ms();
        gcut_seg_session *f = NULL;
        if (gcut_seg_session_new(&f, img, seeds, &p) != GCUT_OK ||
            gcut_seg_session_solve(f, mfull, NULL) != GCUT_OK)
            return fail("full release");
        gcut_seg_session_free(f);
        const double t1 = now_ms();
        /* update: the session of the first stroke, then stroke + update */
        if (!started) {
            if (gcut_seg_session_new(&upd, img, seeds, &p) != GCUT_OK ||
                gcut_seg_session_solve(upd, mupd, NULL) != GCUT_OK)
                return fail("first release");
            started = 1;
            continue;
        }
        if (gcut_seg_session_add_stroke(upd, label, pix + start[s], start[s + 1] - start[s]) !=
                GCUT_OK ||
            gcut_seg_session_update_models(upd, mupd, NULL) != GCUT_OK)
            return fail("update release");
        const double t2 = now_ms();
        tf[nt] = t1 - t0;
        tu[nt] = t2 - t1;
        nt++;
    }
    int64_t differ = 0;
    for (int64_t q = 0; q < n; q++)
        differ += mfull[q] != mupd[q];
    qsort(tf, (size_t)nt, sizeof tf[0], cmp_double);
    qsort(tu, (size_t)nt, sizeof tu[0], cmp_double);
    printf("releases: %d\n", (int)ns);
    printf("error full: %.3f %%\n", error_pct(mfull, truth, n));
    printf("error update: %.3f %%\n", error_pct(mupd, truth, n));
    printf("differ: %lld pixels (%.3f %%)\n", (long long)differ, 100.0 * differ / n);
    if (nt > 0)
        printf("release median: full %.1f ms, update %.1f ms\n", tf[nt / 2], tu[nt / 2]);
    gcut_seg_session_free(upd);
    gcut_image_free(img);
    gcut_image_free(scr);
    gcut_image_free(gt);
    free(all);
    free(seeds);
    free(truth);
    free(mfull);
    free(mupd);
    free(pix);
    return 0;
}
