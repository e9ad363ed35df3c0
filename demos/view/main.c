/*
 * gcut-view - interactive graph-cut segmentation in an SDL2 window.
 *
 * Left mouse paints foreground seeds, right mouse background seeds,
 * shift-drag draws a GrabCut rectangle. While a stroke is painted, its new
 * seed pixels go to the gcut_seg_session (gcut_seg_session_add_stroke) and
 * the cut is re-solved warm, so the overlay follows the brush as long as a
 * solve is fast enough; when the stroke is released the colour models are
 * updated from the seeds that changed (gcut_seg_session_update_models) and
 * the image is cut once more, warm; --models full re-learns them from all
 * the seeds instead (the final mask is then exactly what gcut-seg computes
 * from the same seeds).
 *
 * The parts: main.c (this file) the options and the scripted mode (replay
 * a stroke file headless, write the outputs); strokes.c the model (strokes,
 * seeds, the cuts) and the stroke file format (strokes.h); render.c the
 * frames, composed in a CPU buffer, and the PNG outputs; window.c the SDL2
 * window and its event loop. bench/view_bench.c times strokes without a
 * window (gcut-view-bench).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>

#include "cli.h"
#include "render.h"
#include "view_internal.h"
#include "window.h"
#include "worker.h"

#ifndef GCUT_VIEW_DEFAULT_IMAGE
#define GCUT_VIEW_DEFAULT_IMAGE "images/blob.png"
#endif

static const char usage[] =
    "usage: gcut-view [options] [IMAGE]\n"
    "Interactive graph-cut segmentation: paint seeds, see the cut update.\n"
    "Without IMAGE the bundled sample images/blob.png is opened.\n"
    "\n"
    "scripted mode (no display needed; SDL's dummy video driver is used when\n"
    "neither DISPLAY nor WAYLAND_DISPLAY is set):\n"
    "      --replay FILE      replay a stroke file, write the outputs, exit\n"
    "      --out FILE         mask PNG (0 background, 255 foreground)\n"
    "      --cutout FILE      RGBA PNG: the image with the mask as alpha\n"
    "      --screenshot FILE  PNG of what the window shows after the replay\n"
    "      --seeds-out FILE   seed PNG implied by the strokes (255 fg, 0 bg,\n"
    "                         128 unknown), for gcut-seg --seeds\n"
    "                         (an output FILE -: stdout, the report then on stderr)\n"
    "interactive and scripted:\n"
    "      --record FILE      write the strokes painted to a stroke file\n"
    "      --view NAME        overlay (default), mask or cutout\n"
    "      --help-overlay     start with the help box shown (key h)\n"
    "      --models MODE      what a released stroke does to the colour models:\n"
    "                         update (default: from the seeds that changed, warm\n"
    "                         cut), full (re-learnt from all seeds, as gcut-seg)\n"
    "                         or keep (warm cut)\n"
    "      --keep-models      the same as --models keep\n"
    "      --zoom Z           initial zoom (default: fit the screen)\n"
    "  -l, --lambda L         smoothness weight (default 50)\n"
    "  -c, --conn 4|8         pixel neighbourhood (default 8)\n"
    "  -b, --backend NAME     max-flow back end (default auto)\n"
    "  -h, --help             show this help\n"
    "      --version          show the version\n"
    "\n"
    "keys: left drag foreground, right drag background, shift+drag rectangle,\n"
    "wheel or [ ] brush, 1 2 3 views, l L lambda, n connectivity, m models updated,\n"
    "re-learnt or kept, u undo, r redo, c clear, s save, b CPU/GPU, + - 0 zoom,\n"
    "arrows or middle drag pan, h help, q quit.\n"
    "\n"
    "stroke file lines: `fg R x1 y1 x2 y2 ...`, `bg R ...`, `rect X Y W H`, # comments.\n"
    "Exit status 0 on success, 1 on bad input or a failed cut (nothing written),\n"
    "2 on bad usage, 130 or 143 when SIGINT or SIGTERM stops a replay.\n";

typedef struct args {
    const char *image, *replay, *record, *out, *cutout, *shot, *seeds_out;
    double zoom;
    view_options view;
} args;

/* Bad usage: one line on stderr, exit status 2. (cli_usage_error prints a
 * second line; the parsing stays here, demos/common is shared.) */
static int usage_error(const char *msg, const char *arg)
{
    fprintf(stderr, "%s: %s%s%s (see %s --help)\n", cli_prog(), msg, arg ? ": " : "",
            arg ? arg : "", cli_prog());
    return 2;
}

/* --version: the version, then the back ends this build can run. */
static void print_version(void)
{
    printf("%s %s\nback ends:", cli_prog(), gcut_version());
    int any = 0;
    for (int32_t i = 0; i < gcut_backend_count(); i++)
        if (gcut_backend_available(i, NULL)) {
            printf("%s %s", any ? "," : "", gcut_backend_name(i));
            any = 1;
        }
    printf("%s\n", any ? "" : " none");
    gcut_clear_error();
}

enum {
    OPT_REPLAY = 256,
    OPT_RECORD,
    OPT_OUT,
    OPT_CUTOUT,
    OPT_SHOT,
    OPT_SEEDS_OUT,
    OPT_VIEW,
    OPT_HELP_OVERLAY,
    OPT_KEEP_MODELS,
    OPT_MODELS,
    OPT_ZOOM,
    OPT_VERSION
};

/* clang-format off */
static const struct option long_options[] = {
    {"replay", required_argument, NULL, OPT_REPLAY},
    {"record", required_argument, NULL, OPT_RECORD},
    {"out", required_argument, NULL, OPT_OUT},
    {"cutout", required_argument, NULL, OPT_CUTOUT},
    {"screenshot", required_argument, NULL, OPT_SHOT},
    {"seeds-out", required_argument, NULL, OPT_SEEDS_OUT},
    {"view", required_argument, NULL, OPT_VIEW},
    {"help-overlay", no_argument, NULL, OPT_HELP_OVERLAY},
    {"keep-models", no_argument, NULL, OPT_KEEP_MODELS},
    {"models", required_argument, NULL, OPT_MODELS},
    {"zoom", required_argument, NULL, OPT_ZOOM},
    {"lambda", required_argument, NULL, 'l'},
    {"conn", required_argument, NULL, 'c'},
    {"backend", required_argument, NULL, 'b'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0}};
/* clang-format on */

/* getopt_long's conventions: `--opt=value` or `--opt value`, short options
 * with their value attached or next, `--` ends the options. Returns 0, 2
 * after a usage error, or -1 when --help or --version was answered (exit
 * 0). */
static int parse_args(int argc, char **argv, args *a)
{
    opterr = 0; /* the messages are ours, one line each */
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":l:c:b:h", long_options, NULL)) != -1) {
        const char *arg = optarg;
        switch (c) {
        case OPT_REPLAY:
            a->replay = arg;
            break;
        case OPT_RECORD:
            a->record = arg;
            break;
        case OPT_OUT:
            a->out = arg;
            break;
        case OPT_CUTOUT:
            a->cutout = arg;
            break;
        case OPT_SHOT:
            a->shot = arg;
            break;
        case OPT_SEEDS_OUT:
            a->seeds_out = arg;
            break;
        case 'b':
            a->view.backend = arg;
            break;
        case OPT_HELP_OVERLAY:
            a->view.show_help = 1;
            break;
        case OPT_KEEP_MODELS:
            a->view.models = VIEW_MODELS_KEEP;
            break;
        case OPT_MODELS:
            if (!strcmp(arg, "update"))
                a->view.models = VIEW_MODELS_UPDATE;
            else if (!strcmp(arg, "full"))
                a->view.models = VIEW_MODELS_FULL;
            else if (!strcmp(arg, "keep"))
                a->view.models = VIEW_MODELS_KEEP;
            else
                return usage_error("--models takes update, full or keep, not", arg);
            break;
        case OPT_VIEW:
            if (!strcmp(arg, "overlay"))
                a->view.view = VIEW_OVERLAY;
            else if (!strcmp(arg, "mask"))
                a->view.view = VIEW_MASK;
            else if (!strcmp(arg, "cutout"))
                a->view.view = VIEW_CUTOUT;
            else
                return usage_error("--view takes overlay, mask or cutout, not", arg);
            break;
        case 'l':
            if (!cli_parse_double(arg, 0, 1e6, &a->view.lambda))
                return usage_error("--lambda takes a number in 0..1e6, not", arg);
            break;
        case OPT_ZOOM:
            if (!cli_parse_double(arg, 0, 1e6, &a->zoom))
                return usage_error("--zoom takes a number in 0..1e6, not", arg);
            break;
        case 'c':
            if (strcmp(arg, "4") && strcmp(arg, "8"))
                return usage_error("--conn takes 4 or 8, not", arg);
            a->view.conn = arg[0] - '0';
            break;
        case 'h':
            cli_info_option("--help");
            return -1;
        case OPT_VERSION:
            print_version();
            return -1;
        case ':':
            return usage_error("option needs a value", argv[optind - 1]);
        default: /* '?' */
            if (optopt) {
                char opt[3] = {'-', (char)optopt, 0};
                return usage_error("unknown option", opt);
            }
            return usage_error("unknown option", argv[optind - 1]);
        }
    }
    for (int i = optind; i < argc; i++) {
        if (a->image)
            return usage_error("more than one image", argv[i]);
        a->image = argv[i];
    }
    if ((a->out || a->cutout || a->shot || a->seeds_out) && !a->replay)
        return usage_error("--out, --cutout, --screenshot and --seeds-out need --replay", NULL);
    const char *outs[] = {a->out, a->cutout, a->shot, a->seeds_out, a->record};
    const char *ins[] = {a->image ? a->image : GCUT_VIEW_DEFAULT_IMAGE, a->replay};
    return cli_check_outputs(outs, 5, ins, 2);
}

/* The replay's SIGINT / SIGTERM: remembered here, seen by the replay loop
 * between strokes and by the cut under way through its progress callback
 * (viewer::interrupt), which stops it; nothing is written then. */
static volatile sig_atomic_t g_stop_signal;

static void on_stop_signal(int sig) { g_stop_signal = sig; }

static void catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int main(int argc, char **argv)
{
    cli_init("gcut-view", usage);
    args a;
    memset(&a, 0, sizeof a);
    a.view.lambda = -1;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (a.replay)
        catch_stop_signals(); /* before the image is read: a replay stops cleanly */
    const char *path = a.image ? a.image : GCUT_VIEW_DEFAULT_IMAGE;
    gcut_image *img = NULL;
    stroke *in = NULL;
    int32_t nin = 0;
    if (load_image_and_strokes(path, a.replay, &img, &in, &nin))
        return 1;
    viewer v;
    if (viewer_init(&v, img, &a.view)) {
        rc = 1;
        goto done;
    }
    if (a.record && !(v.record = !strcmp(a.record, "-") ? stdout : fopen(a.record, "w"))) {
        fprintf(stderr, "gcut-view: %s: %s\n", a.record, strerror(errno));
        rc = 1;
        goto done;
    }
    if (v.record)
        fprintf(v.record, "# gcut-view strokes for %s (%dx%d)\n", path, v.w, v.h);

    /* Scripted mode runs without a display: SDL's dummy driver then. */
    const int scripted = a.replay != NULL;
    if (scripted && !getenv("SDL_VIDEODRIVER") && !getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY"))
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "dummy");
    if (scripted) {
        /* SDL would turn SIGINT and SIGTERM into an SDL_QUIT event that
         * the replay never reads: the replay handles them itself. */
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
        v.interrupt = &g_stop_signal;
    }
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "gcut-view: cannot start SDL video: %s%s\n", SDL_GetError(),
                scripted ? "" : " (no display? try --replay with SDL_VIDEODRIVER=dummy)");
        rc = 1;
        goto done;
    }
    /* Window size: the image at an integer zoom that fits 1024x768 (or
     * scaled down to fit it), or at --zoom. */
    double z = a.zoom;
    if (z <= 0) {
        z = 1;
        while (v.w * (z + 1) <= 1024 && v.h * (z + 1) <= 768)
            z++;
        if (v.w > 1024 || v.h > 768)
            z = fmin(1024.0 / v.w, 768.0 / v.h);
    }
    int32_t ww = (int32_t)lround(v.w * z), wh = (int32_t)lround(v.h * z);
    ww = ww < 1 ? 1 : ww;
    wh = wh < 1 ? 1 : wh;
    window wd;
    if (window_open(&wd, ww, wh, 0)) {
        rc = 1;
        SDL_Quit();
        goto done;
    }
    int32_t fw = ww, fh = wh;
    output_size(&wd, &fw, &fh);
    if (scripted) {
        fw = ww; /* screenshots have the logical size, whatever the screen */
        fh = wh;
    }
    if (frame_alloc(&v, fw, fh)) {
        rc = 1;
    } else if (scripted) {
        view_fit(&v);
        const double t0 = cli_now_ms();
        for (int32_t i = 0; i < nin && !g_stop_signal && !v.failed; i++) {
            replay_stroke(&v, &in[i]);
            if (v.failed && !g_stop_signal)
                fprintf(stderr, "%s: %s: stroke %d of %d: %s\n", cli_prog(), a.replay, (int)i + 1,
                        (int)nin, v.fail_msg);
            render_frame(&v, -1, -1, NULL);
            window_present(&v, &wd);
            SDL_PumpEvents();
        }
        if (g_stop_signal || v.failed) {
            /* No output: a mask of a replay cut short is not the replay's. */
            if (g_stop_signal)
                fprintf(stderr, "%s: interrupted by %s: nothing written\n", cli_prog(),
                        g_stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
            rc = g_stop_signal ? 128 + (int)g_stop_signal : 1;
            goto close;
        }
        window_check(&v, &wd);
        fprintf(cli_report(),
                "video: %s\nstrokes: %d\nbackend: %s\nsolve: %.2f ms\nreplay: %.1f ms\n",
                SDL_GetCurrentVideoDriver(), nin, v.last_backend ? v.last_backend : v.backend,
                v.last_ms, cli_now_ms() - t0);
        if (!v.have_mask)
            fprintf(stderr, "gcut-view: warning: the strokes made no mask\n");
        if (a.out && !(rc = save_plane(&v, a.out, 0)))
            fprintf(cli_report(), "mask: %s\n", a.out);
        if (!rc && a.cutout && !(rc = save_plane(&v, a.cutout, 1)))
            fprintf(cli_report(), "cutout: %s\n", a.cutout);
        if (!rc && a.seeds_out && !(rc = save_plane(&v, a.seeds_out, 2)))
            fprintf(cli_report(), "seeds: %s\n", a.seeds_out);
        if (!rc && a.shot && !(rc = save_frame(&v, a.shot)))
            fprintf(cli_report(), "screenshot: %s (%dx%d)\n", a.shot, v.fw, v.fh);
    } else {
        view_fit(&v);
        /* The cuts run on the worker's thread: the window never waits. */
        v.image_path = path;
        if (!(v.async = view_worker_new(img))) {
            fprintf(stderr, "%s: cannot start the cut worker thread\n", cli_prog());
            rc = 1;
        } else {
            rc = run_window(&v, &wd);
        }
        view_worker_free(v.async);
        v.async = NULL;
    }
close:
    window_close(&wd);
    SDL_Quit();
done:
    strokes_free(in, nin);
    viewer_free(&v);
    gcut_image_free(img);
    return rc;
}
