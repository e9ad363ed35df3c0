/*
 * gcut-view - interactive graph-cut segmentation in an SDL2 window.
 *
 * Left mouse paints foreground seeds, right mouse background seeds,
 * shift-drag draws a GrabCut rectangle. While a stroke is painted, its new
 * seed pixels go to the gcut_seg_session (gcut_seg_session_add_stroke) and
 * the cut is re-solved warm, so the overlay follows the brush as long as a
 * solve is fast enough; when the stroke is released the colour models are
 * re-learnt from all the seeds and the image is cut once more (so the
 * final mask is exactly what gcut-seg computes from the same seeds).
 *
 * The parts: main.c (this file) the options and the scripted mode (replay
 * a stroke file headless, write the outputs); strokes.c the model (strokes,
 * seeds, the cuts) and the stroke file format (strokes.h); render.c the
 * frames, composed in a CPU buffer, and the PNG outputs; window.c the SDL2
 * window and its event loop. bench/view_bench.c times strokes without a
 * window (gcut-view-bench).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>

#include "cli.h"
#include "render.h"
#include "view_internal.h"
#include "window.h"

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
    "      --keep-models      keep the colour models when a stroke is released\n"
    "                         (warm cut; default: re-learn them from all seeds)\n"
    "      --zoom Z           initial zoom (default: fit the screen)\n"
    "  -l, --lambda L         smoothness weight (default 50)\n"
    "  -c, --conn 4|8         pixel neighbourhood (default 8)\n"
    "  -b, --backend NAME     max-flow back end (default auto)\n"
    "  -h, --help             show this help\n"
    "      --version          show the version\n"
    "\n"
    "keys: left drag foreground, right drag background, shift+drag rectangle,\n"
    "wheel or [ ] brush, 1 2 3 views, l L lambda, n connectivity, m models kept or\n"
    "re-learnt, u undo, r redo, c clear, s save, b CPU/GPU, + - 0 zoom, arrows or\n"
    "middle drag pan, h help, q quit.\n"
    "\n"
    "stroke file lines: `fg R x1 y1 x2 y2 ...`, `bg R ...`, `rect X Y W H`, # comments.\n"
    "Exit status 0 on success, 1 on bad input, 2 on bad usage.\n";

typedef struct args {
    const char *image, *replay, *record, *out, *cutout, *shot, *seeds_out;
    double zoom;
    view_options view;
} args;

static int parse_args(int argc, char **argv, args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        const char **str = NULL;
        if (cli_info_option(s)) {
            exit(0);
        } else if (!strcmp(s, "--replay")) {
            str = &a->replay;
        } else if (!strcmp(s, "--record")) {
            str = &a->record;
        } else if (!strcmp(s, "--out")) {
            str = &a->out;
        } else if (!strcmp(s, "--cutout")) {
            str = &a->cutout;
        } else if (!strcmp(s, "--screenshot")) {
            str = &a->shot;
        } else if (!strcmp(s, "--seeds-out")) {
            str = &a->seeds_out;
        } else if (!strcmp(s, "-b") || !strcmp(s, "--backend")) {
            str = &a->view.backend;
        } else if (!strcmp(s, "--help-overlay")) {
            a->view.show_help = 1;
        } else if (!strcmp(s, "--keep-models")) {
            a->view.keep_models = 1;
        } else if (!strcmp(s, "--view")) {
            if (!next)
                return cli_usage_error("--view needs a name", NULL);
            if (!strcmp(next, "overlay"))
                a->view.view = VIEW_OVERLAY;
            else if (!strcmp(next, "mask"))
                a->view.view = VIEW_MASK;
            else if (!strcmp(next, "cutout"))
                a->view.view = VIEW_CUTOUT;
            else
                return cli_usage_error("--view takes overlay, mask or cutout", next);
            i++;
        } else if (!strcmp(s, "-l") || !strcmp(s, "--lambda") || !strcmp(s, "--zoom")) {
            if (!next)
                return cli_usage_error("option needs a number", s);
            if (!cli_parse_double(next, 0, 1e6, strcmp(s, "--zoom") ? &a->view.lambda : &a->zoom))
                return cli_usage_error("not a number 0..1e6", next);
            i++;
        } else if (!strcmp(s, "-c") || !strcmp(s, "--conn")) {
            if (!next || (strcmp(next, "4") && strcmp(next, "8")))
                return cli_usage_error("--conn takes 4 or 8", next);
            a->view.conn = next[0] - '0';
            i++;
        } else if (s[0] == '-' && s[1]) {
            return cli_usage_error("unknown option", s);
        } else if (!a->image) {
            a->image = s;
        } else {
            return cli_usage_error("more than one image", s);
        }
        if (str) {
            if (!next)
                return cli_usage_error("option needs a value", s);
            *str = next;
            i++;
        }
    }
    if ((a->out || a->cutout || a->shot || a->seeds_out) && !a->replay)
        return cli_usage_error("--out, --cutout, --screenshot and --seeds-out need --replay", NULL);
    const char *outs[] = {a->out, a->cutout, a->shot, a->seeds_out, a->record};
    const char *ins[] = {a->image ? a->image : GCUT_VIEW_DEFAULT_IMAGE, a->replay};
    return cli_check_outputs(outs, 5, ins, 2);
}

int main(int argc, char **argv)
{
    cli_init("gcut-view", usage);
    args a;
    memset(&a, 0, sizeof a);
    a.view.lambda = -1;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc;
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
        for (int32_t i = 0; i < nin; i++) {
            replay_stroke(&v, &in[i]);
            render_frame(&v, -1, -1, NULL);
            window_present(&v, &wd);
            SDL_PumpEvents();
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
        rc = run_window(&v, &wd);
    }
    window_close(&wd);
    SDL_Quit();
done:
    strokes_free(in, nin);
    viewer_free(&v);
    gcut_image_free(img);
    return rc;
}
