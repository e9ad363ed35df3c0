/*
 * gcut-view-bench - gcut-view's latency without a window: the time from a
 * stroke to the updated overlay, through the viewer's own code (its model,
 * demos/view/strokes.c, and its drawing, demos/view/render.c), on the
 * image scaled to a given size, for any back end.
 *
 *     gcut-view-bench images/blob.png --replay images/blob.strokes --mp 2 --backend cuda-grid
 *
 * docs/viewer.md (Latency) has the numbers; bench/stroke_bench.c measures
 * the session alone (no drawing) with seeds of its own.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "render.h"
#include "view_internal.h"

#ifndef GCUT_VIEW_DEFAULT_IMAGE
#define GCUT_VIEW_DEFAULT_IMAGE "images/blob.png"
#endif

static const char usage[] =
    "usage: gcut-view-bench [options] --replay FILE [IMAGE]\n"
    "Time gcut-view's stroke -> updated overlay without a window, on the image scaled\n"
    "to MP megapixels. Without IMAGE the bundled sample images/blob.png is used.\n"
    "\n"
    "The strokes of FILE (gcut-view's stroke file, scaled with the image) make the\n"
    "first cut; then 20 short strokes, alternately foreground and background, are\n"
    "each timed from the stroke to the composed 1280x800 frame (add_stroke, warm\n"
    "solve, overlay) and from the release to the frame (by default the models\n"
    "updated from the seeds that changed and a warm cut; --models full: re-learnt\n"
    "from all seeds by a new session, cold cut).\n"
    "\n"
    "options:\n"
    "      --replay FILE      stroke file of the first cut (required)\n"
    "      --mp MP            megapixels of the scaled image (default 2)\n"
    "      --models MODE      on release: update (default), full or keep (gcut-view's)\n"
    "      --keep-models      the same as --models keep\n"
    "  -l, --lambda L         smoothness weight (default 50)\n"
    "  -c, --conn 4|8         pixel neighbourhood (default 8)\n"
    "  -b, --backend NAME     max-flow back end (default auto)\n"
    "\n"
    "printed: `size: WxH (MP MP)`, `backend: NAME`, `first cut: MS ms`, then the\n"
    "median, p90 and max of stroke -> overlay, of its warm solve and of release ->\n"
    "overlay, then the medians of the release's parts (the library's stats: models,\n"
    "of which data costs, build, solve; then the frame), and a hash of the 20\n"
    "release masks (the same hash: the same masks). Exit status 0 on success,\n"
    "1 on bad input, 2 on bad usage.\n";

typedef struct args {
    const char *image, *replay;
    double mp;
    view_options view;
} args;

enum { OPT_REPLAY = CLI_KEY, OPT_MP, OPT_KEEP_MODELS, OPT_MODELS };

static int take_option(int key, const char *v, void *user)
{
    args *a = user;
    switch (key) {
    case OPT_REPLAY:
        a->replay = v;
        break;
    case OPT_MP:
        if (!cli_parse_double(v, 1e-6, 1e6, &a->mp))
            return cli_usage_error("--mp needs a number of megapixels 1e-6..1e6", v);
        break;
    case OPT_KEEP_MODELS:
        a->view.models = VIEW_MODELS_KEEP;
        break;
    case OPT_MODELS:
        if (!strcmp(v, "update"))
            a->view.models = VIEW_MODELS_UPDATE;
        else if (!strcmp(v, "full"))
            a->view.models = VIEW_MODELS_FULL;
        else if (!strcmp(v, "keep"))
            a->view.models = VIEW_MODELS_KEEP;
        else
            return cli_usage_error("--models takes update, full or keep", v);
        break;
    case 'l':
        if (!cli_parse_double(v, 0, 1e6, &a->view.lambda))
            return cli_usage_error("not a number 0..1e6", v);
        break;
    default: /* 'c' */
        if (strcmp(v, "4") && strcmp(v, "8"))
            return cli_usage_error("--conn takes 4 or 8", v);
        a->view.conn = v[0] - '0';
        break;
    }
    return 0;
}

/* 0, -1 after --help or --version, or the exit status of bad usage. */
static int parse_args(int argc, char **argv, args *a)
{
    static const struct option longopts[] = {{"replay", required_argument, NULL, OPT_REPLAY},
                                             {"mp", required_argument, NULL, OPT_MP},
                                             {"keep-models", no_argument, NULL, OPT_KEEP_MODELS},
                                             {"models", required_argument, NULL, OPT_MODELS},
                                             {"lambda", required_argument, NULL, 'l'},
                                             {"conn", required_argument, NULL, 'c'},
                                             {NULL, 0, NULL, 0}};
    const cli_opts group = {"l:c:", longopts, take_option, a};
    cli_common c;
    int first, rc = cli_parse(argc, argv, &group, 1, CLI_OPT_BACKEND, &c, &first);
    if (rc)
        return rc;
    if (c.backend)
        a->view.backend = c.backend;
    if (first < argc)
        a->image = argv[first++];
    if (first < argc)
        return cli_usage_error("more than one image", argv[first]);
    if (!a->replay)
        return cli_usage_error("--replay FILE is required (the strokes of the first cut)", NULL);
    return 0;
}

/* Bilinear resize of an RGB image to about mp megapixels. */
static int resize_to(const gcut_image *src, double mp, gcut_image **out)
{
    const double k = sqrt(mp * 1e6 / ((double)src->width * src->height));
    const int32_t w = (int32_t)(src->width * k), h = (int32_t)(src->height * k);
    gcut_image *o = NULL;
    if (w < 8 || h < 8 || gcut_image_new(&o, w, h, 3, 8) != GCUT_OK)
        return 1;
    for (int32_t y = 0; y < h; y++) {
        const double fy = (y + 0.5) / k - 0.5;
        int32_t y0 = (int32_t)floor(fy);
        const double ty = fy - y0;
        y0 = y0 < 0 ? 0 : y0 >= src->height - 1 ? src->height - 2 : y0;
        for (int32_t x = 0; x < w; x++) {
            const double fx = (x + 0.5) / k - 0.5;
            int32_t x0 = (int32_t)floor(fx);
            const double tx = fx - x0;
            x0 = x0 < 0 ? 0 : x0 >= src->width - 1 ? src->width - 2 : x0;
            const uint8_t *a = src->data + (size_t)y0 * src->stride + 3 * (size_t)x0;
            const uint8_t *b = a + src->stride;
            for (int c = 0; c < 3; c++) {
                const double top = a[c] * (1 - tx) + a[c + 3] * tx;
                const double bot = b[c] * (1 - tx) + b[c + 3] * tx;
                o->data[(size_t)y * o->stride + 3 * (size_t)x + c] =
                    (uint8_t)lround(top * (1 - ty) + bot * ty);
            }
        }
    }
    *out = o;
    return 0;
}

/* The data-cost time of the last model update, from the library's debug
 * trace ("... models X ms, data costs Y ms"). */
static double g_data_ms;
static void on_log(void *user, gcut_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    const char *d = strstr(msg, "model update:");
    if (d && (d = strstr(d, "data costs ")))
        g_data_ms = atof(d + strlen("data costs "));
}

/* FNV-1a, 64 bits, of n bytes continuing from h: the masks of the
 * releases, chained, so that two builds can be compared bit for bit. */
static uint64_t mask_hash(uint64_t h, const uint8_t *m, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        h = (h ^ m[i]) * 0x100000001b3ull;
    return h;
}

/* Latency: the image scaled to mp megapixels, the replayed strokes scaled
 * the same way make the first cut; then 20 short strokes, alternately
 * foreground and background, each timed from the stroke to the composed
 * frame (add_stroke + warm solve + overlay), and the release (models
 * re-learnt, cold cut). */
static int bench(viewer *v, const stroke *in, int32_t nin, double k)
{
    if (frame_alloc(v, 1280, 800)) {
        fprintf(stderr, "%s: out of memory\n", cli_prog());
        return 1;
    }
    view_fit(v);
    for (int32_t i = 0; i < nin; i++) {
        stroke s = in[i];
        int32_t *xy = malloc((size_t)(s.count ? s.count : 1) * 2 * sizeof *xy);
        if (!xy)
            return 1;
        for (int32_t j = 0; j < 2 * s.count; j++)
            xy[j] = (int32_t)(s.xy[j] * k);
        s.xy = xy;
        s.radius = (int32_t)(s.radius * k);
        replay_stroke(v, &s);
        free(xy);
    }
    if (!v->have_mask) {
        fprintf(stderr, "%s: the strokes of --replay make no mask\n", cli_prog());
        return 1;
    }
    enum { N = 20 };
    double live[N], solve[N], rel[N], rmodel[N], rdata[N], rbuild[N], rsolve[N], rframe[N];
    /* The library's trace of the model update (debug level) gives its split. */
    v->p.solve.log = on_log;
    v->p.solve.verbosity = 3;
    if (v->s) {
        /* The session keeps the options it was made with: a new one, same seeds. */
        if (resegment_full(v))
            return 1;
    }
    const double t_first = v->last_ms;
    uint64_t hash = 0xcbf29ce484222325ull;
    for (int32_t i = 0; i < N; i++) {
        const int kind = i % 2 ? STROKE_BG : STROKE_FG;
        /* short horizontal strokes spread over the image, near the middle
         * for foreground and near the border for background */
        const int32_t y = v->h / 4 + (int32_t)((int64_t)v->h / 2 * i / N);
        const int32_t x = kind == STROKE_FG ? v->w / 2 - v->w / 20 : v->w / 40;
        stroke *st = stroke_begin(v, kind, 3);
        if (!st)
            return 1;
        v->last_ms = 0; /* take the live path whatever the last solve took */
        const double t0 = cli_now_ms();
        stroke_extend(v, st, x, y);
        stroke_extend(v, st, x + v->w / 10, y);
        render_frame(v, -1, -1, NULL);
        live[i] = cli_now_ms() - t0;
        solve[i] = v->last_ms;
        const double t1 = cli_now_ms();
        g_data_ms = 0.0;
        memset(&v->last_st, 0, sizeof v->last_st);
        stroke_end(v);
        const double t2 = cli_now_ms();
        render_frame(v, -1, -1, NULL);
        rel[i] = cli_now_ms() - t1;
        rframe[i] = cli_now_ms() - t2;
        rmodel[i] = v->last_st.model_ms;
        rdata[i] = g_data_ms;
        rbuild[i] = v->last_st.build_ms;
        rsolve[i] = v->last_st.solve_ms;
        hash = mask_hash(hash, v->mask, v->n); /* outside the timed part */
    }
    cli_sort_doubles(live, N);
    cli_sort_doubles(rel, N);
    cli_sort_doubles(solve, N);
    cli_sort_doubles(rmodel, N);
    cli_sort_doubles(rdata, N);
    cli_sort_doubles(rbuild, N);
    cli_sort_doubles(rsolve, N);
    cli_sort_doubles(rframe, N);
    static const char *const mode[3] = {"models updated (warm)", "models re-learnt (cold)",
                                        "models kept (warm)"};
    printf("size: %dx%d (%.2f MP)\nbackend: %s\nfirst cut: %.1f ms\n", v->w, v->h,
           v->n / 1e6, v->last_backend ? v->last_backend : v->backend, t_first);
    printf("stroke -> overlay, warm (%d strokes): median %.1f ms, p90 %.1f ms, max %.1f ms\n", N,
           live[N / 2], live[N * 9 / 10], live[N - 1]);
    printf("  of which add_stroke + warm solve of the last segment: median %.1f ms\n",
           solve[N / 2]);
    printf("release -> overlay, %s: median %.1f ms, p90 %.1f ms, max %.1f ms\n", mode[v->models],
           rel[N / 2], rel[N * 9 / 10], rel[N - 1]);
    printf("  release parts, medians: models %.1f ms (of which data costs %.1f ms), build %.1f "
           "ms, solve %.1f ms, frame %.1f ms\n",
           rmodel[N / 2], rdata[N / 2], rbuild[N / 2], rsolve[N / 2], rframe[N / 2]);
    printf("release masks (FNV-1a of the %d, chained): %016llx\n", N, (unsigned long long)hash);
    return 0;
}

int main(int argc, char **argv)
{
    cli_init("gcut-view-bench", usage);
    args a;
    memset(&a, 0, sizeof a);
    a.mp = 2;
    a.view.lambda = -1;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    const char *path = a.image ? a.image : GCUT_VIEW_DEFAULT_IMAGE;
    gcut_image *img = NULL;
    stroke *in = NULL;
    int32_t nin = 0;
    if (load_image_and_strokes(path, a.replay, &img, &in, &nin))
        return 1;
    gcut_image *big = NULL;
    if (resize_to(img, a.mp, &big)) {
        fprintf(stderr, "%s: cannot scale the image to %g MP\n", cli_prog(), a.mp);
        gcut_image_free(img);
        strokes_free(in, nin);
        return 1;
    }
    const double k = (double)big->width / img->width;
    gcut_image_free(img);
    viewer v;
    rc = viewer_init(&v, big, &a.view) || bench(&v, in, nin, k);
    viewer_free(&v);
    strokes_free(in, nin);
    gcut_image_free(big);
    return rc;
}
