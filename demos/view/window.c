/*
 * window.c - gcut-view's SDL2 window and its event loop: the frame from
 * render.c shown in a streaming texture, the mouse painting strokes (the
 * model in strokes.c), the keys, zoom and pan; and the read-back of the
 * window that checks that a screenshot is what the window shows.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>

#include "cli.h"
#include "render.h"
#include "window.h"
#include "worker.h"

void window_present(viewer *v, window *wd)
{
    if (!wd->ren)
        return;
    if (!wd->tex || wd->tw != v->fw || wd->th != v->fh) {
        if (wd->tex)
            SDL_DestroyTexture(wd->tex);
        wd->tex = SDL_CreateTexture(wd->ren, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING,
                                    v->fw, v->fh);
        wd->tw = v->fw;
        wd->th = v->fh;
    }
    if (!wd->tex)
        return;
    SDL_UpdateTexture(wd->tex, NULL, v->frame, v->fw * (int)sizeof(uint32_t));
    SDL_RenderClear(wd->ren);
    SDL_RenderCopy(wd->ren, wd->tex, NULL, NULL);
    SDL_RenderPresent(wd->ren);
}

/* Frame size in pixels: the renderer's output (HiDPI: larger than the
 * window's size in points), or the window size. */
void output_size(window *wd, int32_t *fw, int32_t *fh)
{
    int w = 0, h = 0;
    if (wd->ren && SDL_GetRendererOutputSize(wd->ren, &w, &h) == 0 && w > 0 && h > 0) {
        *fw = w;
        *fh = h;
        return;
    }
    SDL_GetWindowSize(wd->win, &w, &h);
    *fw = w > 0 ? w : *fw;
    *fh = h > 0 ? h : *fh;
}

int window_open(window *wd, int32_t w, int32_t h, int hidden)
{
    memset(wd, 0, sizeof *wd);
    SDL_SetHint(SDL_HINT_VIDEO_HIGHDPI_DISABLED, "0");
    wd->win = SDL_CreateWindow("gcut-view", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
                               SDL_WINDOW_ALLOW_HIGHDPI | SDL_WINDOW_RESIZABLE |
                                   (hidden ? SDL_WINDOW_HIDDEN : 0));
    if (!wd->win) {
        fprintf(stderr, "gcut-view: cannot open a window: %s\n", SDL_GetError());
        return 1;
    }
    wd->ren = SDL_CreateRenderer(wd->win, -1, 0);
    if (!wd->ren)
        wd->ren = SDL_CreateRenderer(wd->win, -1, SDL_RENDERER_SOFTWARE);
    return 0;
}

/* Read the window's pixels back and count those that differ from the
 * frame: the screenshot is what the window shows (printed for the tests). */
void window_check(const viewer *v, window *wd)
{
    int w = 0, h = 0;
    if (!wd->ren || SDL_GetRendererOutputSize(wd->ren, &w, &h) || w != v->fw || h != v->fh)
        return;
    uint32_t *px = malloc((size_t)w * h * sizeof *px);
    if (!px)
        return;
    if (SDL_RenderReadPixels(wd->ren, NULL, SDL_PIXELFORMAT_ARGB8888, px,
                             w * (int)sizeof *px) == 0) {
        int64_t diff = 0;
        for (size_t i = 0; i < (size_t)w * h; i++)
            diff += (px[i] & 0xFFFFFFu) != (v->frame[i] & 0xFFFFFFu);
        fprintf(cli_report(), "window: %dx%d, %lld pixels differ from the screenshot\n", w, h,
                (long long)diff);
    }
    free(px);
}

void window_close(window *wd)
{
    if (wd->tex)
        SDL_DestroyTexture(wd->tex);
    if (wd->ren)
        SDL_DestroyRenderer(wd->ren);
    if (wd->win)
        SDL_DestroyWindow(wd->win);
}

static void update_title(viewer *v, window *wd)
{
    char t[200];
    if (v->busy)
        snprintf(t, sizeof t, "gcut-view - solving... %.1f s", v->busy_ms / 1000.0);
    else
        snprintf(t, sizeof t, "gcut-view - %s - %.1f ms",
                 v->last_backend ? v->last_backend : v->backend, v->last_ms);
    SDL_SetWindowTitle(wd->win, t);
}

/* The first available back end whose capabilities hold `want` and none of
 * `avoid`, or NULL. */
static const char *backend_with(uint32_t want, uint32_t avoid)
{
    for (int32_t i = 0; i < gcut_backend_count(); i++) {
        const uint32_t caps = gcut_backend_caps(i);
        if ((caps & want) == want && !(caps & avoid) && gcut_backend_available(i, NULL))
            return gcut_backend_name(i);
    }
    return NULL;
}

/* The GPU key, by capabilities, not names: from a GPU back end to the CPU's
 * grid engine (the automatic choice's, cpu-bk), else to a back end that runs
 * on a GPU and solves grids natively (cuda-grid). */
static const char *toggle_backend(const char *cur)
{
    int32_t i;
    const int on_gpu = cur[0] && strcmp(cur, "auto") != 0 &&
                       gcut_backend_find(cur, &i) == GCUT_OK &&
                       (gcut_backend_caps(i) & GCUT_BACKEND_GPU);
    gcut_clear_error();
    if (on_gpu)
        return backend_with(GCUT_BACKEND_GRID | GCUT_BACKEND_AUTO_VISION, GCUT_BACKEND_GPU);
    return backend_with(GCUT_BACKEND_GRID | GCUT_BACKEND_GPU, GCUT_BACKEND_REFERENCE);
}

/* The save key: the mask next to the image, named after it (photo.png:
 * photo-mask.png, then photo-mask-1.png ...; never over a file), and the
 * cut-out likewise; the message line and stdout say where. */
static void save_key(viewer *v)
{
    view_take_result(v); /* the newest finished mask */
    if (!v->have_mask) {
        set_msg(v, "%s", "NOTHING TO SAVE YET: PAINT SOME SEEDS");
        return;
    }
    char mask[4096], cut[4096];
    const char *img = v->image_path ? v->image_path : "gcut-view.png";
    if (view_save_name(img, "mask", mask, sizeof mask) != 0) {
        set_msg(v, "CANNOT SAVE NEXT TO THE IMAGE: %s", strerror(errno));
        return;
    }
    if (save_plane(v, mask, 0) != 0) {
        remove(mask);
        set_msg(v, "%s", "SAVING THE MASK FAILED (SEE THE TERMINAL)");
        return;
    }
    if (view_save_name(img, "cutout", cut, sizeof cut) != 0 || save_plane(v, cut, 1) != 0) {
        remove(cut);
        snprintf(cut, sizeof cut, "(cut-out not saved)");
    }
    printf("gcut-view: saved %s and %s\n", mask, cut);
    fflush(stdout);
    const char *base = strrchr(mask, '/');
    set_msg(v, "SAVED %s (AND THE CUT-OUT)", base ? base + 1 : mask);
}

static void zoom_at(viewer *v, double factor, int32_t sx, int32_t sy)
{
    const double z = v->zoom * factor;
    if (z < 0.02 || z > 64)
        return;
    v->ox = sx - (sx - v->ox) * factor;
    v->oy = sy - (sy - v->oy) * factor;
    v->zoom = z;
}

static void handle_key(viewer *v, SDL_Keycode k, SDL_Keymod mod, int *quit)
{
    const int shift = (mod & KMOD_SHIFT) != 0;
    v->msg[0] = 0;
    switch (k) {
    case SDLK_q:
    case SDLK_ESCAPE:
        *quit = 1;
        break;
    case SDLK_h:
        v->help = !v->help;
        break;
    case SDLK_1:
    case SDLK_2:
    case SDLK_3:
        v->view = (int)(k - SDLK_1);
        v->disp_dirty = 1;
        break;
    case SDLK_LEFTBRACKET:
        v->brush = v->brush > 0 ? v->brush - 1 : 0;
        break;
    case SDLK_RIGHTBRACKET:
        v->brush = v->brush < 200 ? v->brush + 1 : 200;
        break;
    case SDLK_l:
        v->p.lambda = shift ? v->p.lambda / 1.25 : v->p.lambda * 1.25;
        resegment_full(v);
        break;
    case SDLK_m:
        /* update -> full -> keep -> update */
        v->models = (v->models + 1) % 3;
        set_msg(v, "%s",
                v->models == VIEW_MODELS_UPDATE ? "MODELS UPDATED ON RELEASE (WARM)"
                : v->models == VIEW_MODELS_FULL ? "MODELS RE-LEARNT ON RELEASE (FULL)"
                                                : "MODELS KEPT (WARM)");
        break;
    case SDLK_n:
        v->p.connectivity = v->p.connectivity == 8 ? 4 : 8;
        resegment_full(v);
        break;
    case SDLK_u:
    case SDLK_z:
        if (v->ndone > 0) {
            v->ndone--;
            resegment_full(v);
        }
        break;
    case SDLK_r:
    case SDLK_y:
        if (v->ndone < v->nstrokes) {
            v->ndone++;
            resegment_full(v);
        }
        break;
    case SDLK_c:
        v->ndone = 0;
        resegment_full(v);
        break;
    case SDLK_s:
        save_key(v);
        break;
    case SDLK_b: {
        const char *other = toggle_backend(v->backend);
        if (!other) {
            set_msg(v, "%s", "NO GPU BACK END AVAILABLE");
            break;
        }
        char keep[64];
        snprintf(keep, sizeof keep, "%s", v->backend);
        snprintf(v->backend, sizeof v->backend, "%s", other);
        if (resegment_full(v)) {
            snprintf(v->backend, sizeof v->backend, "%s", keep);
            resegment_full(v);
        }
        break;
    }
    case SDLK_EQUALS:
    case SDLK_PLUS:
    case SDLK_KP_PLUS:
        zoom_at(v, 1.25, v->fw / 2, v->fh / 2);
        break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
        zoom_at(v, 0.8, v->fw / 2, v->fh / 2);
        break;
    case SDLK_0:
        view_fit(v);
        break;
    case SDLK_LEFT:
        v->ox += v->fw / 8;
        break;
    case SDLK_RIGHT:
        v->ox -= v->fw / 8;
        break;
    case SDLK_UP:
        v->oy += v->fh / 8;
        break;
    case SDLK_DOWN:
        v->oy -= v->fh / 8;
        break;
    default:
        break;
    }
}

/* Shift from SDL's modifier or key state. The loop also tracks the shift
 * key's own events: without a window manager (Xvfb), focusing the window on
 * the click resets SDL's keyboard state although shift is still down. */
static int shift_held(void)
{
    const Uint8 *keys = SDL_GetKeyboardState(NULL);
    return (SDL_GetModState() & KMOD_SHIFT) || keys[SDL_SCANCODE_LSHIFT] ||
           keys[SDL_SCANCODE_RSHIFT];
}

/* The interactive loop. Mouse positions come in window points and are
 * scaled to frame pixels (HiDPI). */
int run_window(viewer *v, window *wd)
{
    int quit = 0, mx = -1, my = -1, painting = 0, panning = 0, rdrag = 0, shift_key = 0;
    int32_t rect[4] = {0, 0, 0, 0}, rx0 = 0, ry0 = 0;
    stroke *cur = NULL;
    while (!quit) {
        int ww = 1, wh = 1;
        SDL_GetWindowSize(wd->win, &ww, &wh);
        int32_t fw = v->fw, fh = v->fh;
        output_size(wd, &fw, &fh);
        if (fw != v->fw || fh != v->fh) {
            const double cx = (v->fw / 2 - v->ox) / v->zoom, cy = (v->fh / 2 - v->oy) / v->zoom;
            const double k = (double)fw / v->fw;
            if (frame_alloc(v, fw, fh))
                return 1;
            v->zoom *= k;
            v->ox = fw / 2 - cx * v->zoom;
            v->oy = fh / 2 - cy * v->zoom;
        }
        const double sx = (double)v->fw / ww, sy = (double)v->fh / wh;
        /* The worker's mask when it is ready; while it cuts, the window
         * wakes every 50 ms to show the time, and never waits for it. */
        view_take_result(v);
        v->busy = v->async && view_worker_busy(v->async, &v->busy_ms);
        render_frame(v, mx, my, rdrag ? rect : NULL);
        window_present(v, wd);
        update_title(v, wd);
        SDL_Event e;
        if (v->busy) {
            if (!SDL_WaitEventTimeout(&e, 50))
                continue;
        } else if (!SDL_WaitEvent(&e)) {
            break;
        }
        do {
            const int32_t ix = (int32_t)floor((mx - v->ox) / v->zoom);
            const int32_t iy = (int32_t)floor((my - v->oy) / v->zoom);
            switch (e.type) {
            case SDL_QUIT:
                quit = 1;
                break;
            case SDL_KEYDOWN:
                if (e.key.keysym.sym == SDLK_LSHIFT || e.key.keysym.sym == SDLK_RSHIFT)
                    shift_key = 1;
                handle_key(v, e.key.keysym.sym, (SDL_Keymod)e.key.keysym.mod, &quit);
                break;
            case SDL_MOUSEWHEEL:
                if (SDL_GetModState() & KMOD_CTRL)
                    zoom_at(v, e.wheel.y > 0 ? 1.25 : 0.8, mx, my);
                else
                    v->brush = v->brush + e.wheel.y < 0    ? 0
                               : v->brush + e.wheel.y > 200 ? 200
                                                            : v->brush + e.wheel.y;
                break;
            case SDL_KEYUP:
                if (e.key.keysym.sym == SDLK_LSHIFT || e.key.keysym.sym == SDLK_RSHIFT)
                    shift_key = 0;
                break;
            case SDL_MOUSEBUTTONDOWN:
                mx = (int)(e.button.x * sx);
                my = (int)(e.button.y * sy);
                if (e.button.button == SDL_BUTTON_MIDDLE) {
                    panning = 1;
                } else if (shift_key || shift_held()) {
                    rdrag = 1;
                    rx0 = (int32_t)floor((mx - v->ox) / v->zoom);
                    ry0 = (int32_t)floor((my - v->oy) / v->zoom);
                    rect[0] = rx0;
                    rect[1] = ry0;
                    rect[2] = rect[3] = 0;
                } else if (e.button.button == SDL_BUTTON_LEFT ||
                           e.button.button == SDL_BUTTON_RIGHT) {
                    cur = stroke_begin(v, e.button.button == SDL_BUTTON_LEFT ? STROKE_FG
                                                                             : STROKE_BG,
                                       v->brush);
                    painting = cur != NULL;
                    if (painting)
                        stroke_extend(v, cur, (int32_t)floor((mx - v->ox) / v->zoom),
                                      (int32_t)floor((my - v->oy) / v->zoom));
                }
                break;
            case SDL_MOUSEMOTION: {
                const int nx = (int)(e.motion.x * sx), ny = (int)(e.motion.y * sy);
                if (panning) {
                    v->ox += nx - mx;
                    v->oy += ny - my;
                }
                mx = nx;
                my = ny;
                const int32_t jx = (int32_t)floor((mx - v->ox) / v->zoom);
                const int32_t jy = (int32_t)floor((my - v->oy) / v->zoom);
                if (painting)
                    stroke_extend(v, cur, jx, jy);
                if (rdrag) {
                    int32_t x0 = rx0 < jx ? rx0 : jx, y0 = ry0 < jy ? ry0 : jy;
                    int32_t x1 = rx0 < jx ? jx : rx0, y1 = ry0 < jy ? jy : ry0;
                    x0 = x0 < 0 ? 0 : x0;
                    y0 = y0 < 0 ? 0 : y0;
                    x1 = x1 >= v->w ? v->w - 1 : x1;
                    y1 = y1 >= v->h ? v->h - 1 : y1;
                    rect[0] = x0;
                    rect[1] = y0;
                    rect[2] = x1 - x0 + 1;
                    rect[3] = y1 - y0 + 1;
                }
                break;
            }
            case SDL_MOUSEBUTTONUP:
                if (panning && e.button.button == SDL_BUTTON_MIDDLE)
                    panning = 0;
                if (painting) {
                    painting = 0;
                    stroke_end(v);
                }
                if (rdrag) {
                    rdrag = 0;
                    if (rect[2] > 1 && rect[3] > 1 && !(rect[2] == v->w && rect[3] == v->h)) {
                        stroke *st = stroke_begin(v, STROKE_RECT, 0);
                        if (st && !stroke_push(st, rect[0], rect[1]) &&
                            !stroke_push(st, rect[2], rect[3]))
                            stroke_end(v);
                    }
                }
                break;
            default:
                break;
            }
            (void)ix;
            (void)iy;
        } while (!quit && SDL_PollEvent(&e));
    }
    return 0;
}
