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
 * Every frame is composed in a CPU buffer (the code below, no GPU), which
 * is what the window shows and what --screenshot saves: a screenshot
 * taken under SDL's dummy video driver is the same picture as the window.
 *
 * Stroke files (--record writes one, --replay reads one), plain text, one
 * item per line, image pixel coordinates, '#' starts a comment:
 *     fg RADIUS x1 y1 x2 y2 ...   foreground stroke (discs along the polyline)
 *     bg RADIUS x1 y1 x2 y2 ...   background stroke
 *     rect X Y W H                GrabCut rectangle (resets the seeds)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <SDL.h>

#include "gcut/gcut.h"
#include "gcut/vision/image.h"
#include "gcut/vision/segment.h"
#include "view_font.h"

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
    "      --bench MP         time stroke -> updated overlay on the image scaled\n"
    "                         to MP megapixels, print the times, exit\n"
    "      --inspect FILE     print size and colour statistics of a PNG, exit\n"
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
    "\n"
    "keys: left drag foreground, right drag background, shift+drag rectangle,\n"
    "wheel or [ ] brush, 1 2 3 views, l L lambda, n connectivity, m models kept or\n"
    "re-learnt, u undo, r redo, c clear, s save, b CPU/GPU, + - 0 zoom, arrows or\n"
    "middle drag pan, h help, q quit.\n"
    "\n"
    "stroke file lines: `fg R x1 y1 x2 y2 ...`, `bg R ...`, `rect X Y W H`, # comments.\n"
    "Exit status 0 on success, 1 on bad input, 2 on bad usage.\n";

enum { VIEW_OVERLAY = 0, VIEW_MASK = 1, VIEW_CUTOUT = 2 };
enum { STROKE_FG = 1, STROKE_BG = 2, STROKE_RECT = 3 };

/* A solve slower than this (ms) is not redone while a stroke is painted:
 * the overlay is then updated on release only. */
#define LIVE_LIMIT_MS 40.0

typedef struct stroke {
    int kind;
    int32_t radius;
    int32_t count, cap; /* points (pairs in xy); rect: x y w h in xy */
    int32_t *xy;
} stroke;

typedef struct args {
    const char *image, *replay, *record, *out, *cutout, *shot, *seeds_out, *backend, *inspect;
    double lambda, zoom, bench_mp;
    int32_t conn;
    int keep_models, show_help;
    int view;
} args;

typedef struct viewer {
    gcut_image *img; /* RGB, 8 bits */
    int32_t w, h, n;
    uint8_t *seeds, *mask;
    int have_mask;
    stroke *strokes;
    int32_t nstrokes, cap, ndone; /* ndone: applied (the rest can be redone) */
    gcut_seg_session *s;
    gcut_seg_options p;
    char backend[64];
    int32_t *changed; /* pixels of the current stroke not yet given to the session */
    int32_t nchanged;
    int relearn;      /* re-learn the models when a stroke is released */
    double last_ms;     /* stroke -> mask of the last update */
    int last_warm;
    const char *last_backend;
    int view, help;
    int32_t brush;
    double zoom, ox, oy; /* screen = o + zoom * image */
    int32_t fw, fh;
    uint32_t *frame, *disp; /* 0xAARRGGBB; disp: per image pixel, alpha 0 = transparent */
    int disp_dirty;
    double text_scale;
    char msg[160];
    FILE *record;
} viewer;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int die_usage(const char *msg, const char *arg)
{
    fprintf(stderr, "gcut-view: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    fprintf(stderr, "Try 'gcut-view --help'.\n");
    return 2;
}

static int fail(void)
{
    fprintf(stderr, "gcut-view: %s\n", gcut_last_error());
    return 1;
}

/* ------------------------------------------------------------ strokes */

static int stroke_push(stroke *st, int32_t x, int32_t y)
{
    if (st->count == st->cap) {
        int32_t cap = st->cap ? 2 * st->cap : 16;
        int32_t *xy = realloc(st->xy, (size_t)cap * 2 * sizeof *xy);
        if (!xy)
            return -1;
        st->xy = xy;
        st->cap = cap;
    }
    st->xy[2 * st->count] = x;
    st->xy[2 * st->count + 1] = y;
    st->count++;
    return 0;
}

/* Stamp a disc of radius r at (cx, cy): pixels with dx^2 + dy^2 <= r^2
 * take the label; the ones that change are listed in v->changed. */
static void stamp_disc(viewer *v, int32_t cx, int32_t cy, int32_t r, uint8_t label)
{
    for (int32_t dy = -r; dy <= r; dy++) {
        const int32_t y = cy + dy;
        if (y < 0 || y >= v->h)
            continue;
        for (int32_t dx = -r; dx <= r; dx++) {
            const int32_t x = cx + dx;
            if (x < 0 || x >= v->w || dx * dx + dy * dy > r * r)
                continue;
            const int32_t p = x + v->w * y;
            if (v->seeds[p] != label) {
                v->seeds[p] = label;
                v->changed[v->nchanged++] = p;
            }
        }
    }
}

/* Discs along the segment a -> b, one per step of the longer axis (so the
 * painted band has no gaps). A single point is one disc. */
static void stamp_segment(viewer *v, int32_t ax, int32_t ay, int32_t bx, int32_t by, int32_t r,
                          uint8_t label)
{
    const int32_t steps = abs(bx - ax) > abs(by - ay) ? abs(bx - ax) : abs(by - ay);
    for (int32_t i = 0; i <= steps; i++) {
        const double t = steps ? (double)i / steps : 0.0;
        stamp_disc(v, (int32_t)lround(ax + t * (bx - ax)), (int32_t)lround(ay + t * (by - ay)), r,
                   label);
    }
}

/* Apply a whole stroke to v->seeds (the list of changed pixels restarts). */
static void stroke_apply(viewer *v, const stroke *st)
{
    v->nchanged = 0;
    if (st->kind == STROKE_RECT) {
        gcut_seeds_from_rect(v->w, v->h, st->xy[0], st->xy[1], st->xy[2], st->xy[3], v->seeds);
        return;
    }
    const uint8_t label = st->kind == STROKE_FG ? GCUT_SEED_FG : GCUT_SEED_BG;
    for (int32_t i = 0; i < st->count; i++) {
        const int32_t j = i ? i - 1 : 0;
        stamp_segment(v, st->xy[2 * j], st->xy[2 * j + 1], st->xy[2 * i], st->xy[2 * i + 1],
                      st->radius, label);
    }
}

static void stroke_write(FILE *f, const stroke *st)
{
    if (st->kind == STROKE_RECT) {
        fprintf(f, "rect %d %d %d %d\n", st->xy[0], st->xy[1], st->xy[2], st->xy[3]);
        return;
    }
    fprintf(f, "%s %d", st->kind == STROKE_FG ? "fg" : "bg", st->radius);
    for (int32_t i = 0; i < st->count; i++)
        fprintf(f, " %d %d", st->xy[2 * i], st->xy[2 * i + 1]);
    fputc('\n', f);
}

/* Parse a stroke file into strokes[]; prints the first error. */
static int strokes_read(const char *path, int32_t w, int32_t h, stroke **out, int32_t *count)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "gcut-view: %s: %s\n", path, strerror(errno));
        return 1;
    }
    stroke *list = NULL;
    int32_t n = 0, cap = 0, line = 0, rc = 0;
    char buf[65536];
    while (!rc && fgets(buf, sizeof buf, f)) {
        line++;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        char *save = NULL, *tok = strtok_r(buf, " \t\r\n", &save);
        if (!tok)
            continue;
        stroke st = {0};
        if (!strcmp(tok, "fg") || !strcmp(tok, "bg"))
            st.kind = tok[0] == 'f' ? STROKE_FG : STROKE_BG;
        else if (!strcmp(tok, "rect"))
            st.kind = STROKE_RECT;
        else {
            fprintf(stderr, "gcut-view: %s:%d: unknown item '%s'\n", path, line, tok);
            rc = 1;
            break;
        }
        /* the numbers of the line: radius and points, or x y w h */
        long vals[4] = {0, 0, 0, 0};
        int32_t k = 0;
        int bad = 0;
        while (!bad && (tok = strtok_r(NULL, " \t\r\n", &save))) {
            char *end;
            errno = 0;
            const long x = strtol(tok, &end, 10);
            if (errno || *end || x < -(1L << 24) || x > (1L << 24))
                bad = 1;
            else if (st.kind == STROKE_RECT)
                bad = k >= 4 || (vals[k] = x, 0);
            else if (k == 0)
                vals[0] = x;
            else if (k % 2)
                bad = stroke_push(&st, (int32_t)x, 0) != 0;
            else
                st.xy[2 * st.count - 1] = (int32_t)x;
            k++;
        }
        if (st.kind == STROKE_RECT) {
            bad = bad || k != 4 || vals[2] < 1 || vals[3] < 1 || vals[0] < 0 || vals[1] < 0 ||
                  vals[0] + vals[2] > w || vals[1] + vals[3] > h ||
                  (vals[2] == w && vals[3] == h) ||
                  stroke_push(&st, (int32_t)vals[0], (int32_t)vals[1]) ||
                  stroke_push(&st, (int32_t)vals[2], (int32_t)vals[3]);
        } else {
            bad = bad || k < 3 || k % 2 == 0 || vals[0] < 0 || vals[0] > 200;
            st.radius = bad ? 0 : (int32_t)vals[0];
        }
        if (bad) {
            fprintf(stderr, "gcut-view: %s:%d: malformed %s line\n", path, line,
                    st.kind == STROKE_RECT ? "rect" : "stroke");
            free(st.xy);
            rc = 1;
            break;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            stroke *grown = realloc(list, (size_t)cap * sizeof *grown);
            if (!grown) {
                free(st.xy);
                rc = 1;
                break;
            }
            list = grown;
        }
        list[n++] = st;
    }
    fclose(f);
    if (rc) {
        for (int32_t i = 0; i < n; i++)
            free(list[i].xy);
        free(list);
        return rc;
    }
    *out = list;
    *count = n;
    return 0;
}

/* ------------------------------------------------------------ segmentation */

static void set_msg(viewer *v, const char *fmt, const char *arg)
{
    snprintf(v->msg, sizeof v->msg, fmt, arg);
}

/* Cut from scratch with the seeds of the applied strokes: a new session
 * learns the models from all the seeds (as gcut-seg does); after a
 * rectangle, GrabCut iterations refine them. */
static int resegment_full(viewer *v)
{
    int have_rect = 0, have_seed = 0;
    memset(v->seeds, GCUT_SEED_UNKNOWN, (size_t)v->n);
    for (int32_t i = 0; i < v->ndone; i++) {
        stroke_apply(v, &v->strokes[i]);
        have_rect |= v->strokes[i].kind == STROKE_RECT;
    }
    for (int32_t p = 0; p < v->n && !have_seed; p++)
        have_seed = v->seeds[p] != GCUT_SEED_UNKNOWN;
    gcut_seg_session_free(v->s);
    v->s = NULL;
    v->disp_dirty = 1;
    if (!have_seed) {
        v->have_mask = 0;
        return 0;
    }
    const double t0 = now_ms();
    gcut_seg_stats st;
    gcut_status rc = gcut_seg_session_new(&v->s, v->img, v->seeds, &v->p);
    if (rc == GCUT_OK)
        rc = have_rect ? gcut_seg_session_grabcut(v->s, 5, v->mask, &st)
                       : gcut_seg_session_solve(v->s, v->mask, &st);
    if (rc != GCUT_OK) {
        set_msg(v, "%s", gcut_last_error());
        gcut_seg_session_free(v->s);
        v->s = NULL;
        v->have_mask = 0;
        return 1;
    }
    v->have_mask = 1;
    v->nchanged = 0;
    v->last_ms = now_ms() - t0;
    v->last_warm = st.warm_start;
    v->last_backend = st.backend;
    return 0;
}

/* The stroke's pixels not yet given to the session become seeds there and
 * the cut is re-solved warm (models kept). While painting (force 0) this is
 * skipped, leaving the update to the release, when the last solve was too
 * slow for a live overlay. */
static void warm_update(viewer *v, uint8_t label, int force)
{
    if (!v->s || v->nchanged == 0 || (!force && v->last_ms > LIVE_LIMIT_MS))
        return;
    const double t0 = now_ms();
    gcut_seg_stats st;
    if (gcut_seg_session_add_stroke(v->s, label, v->changed, v->nchanged) != GCUT_OK ||
        gcut_seg_session_solve(v->s, v->mask, &st) != GCUT_OK) {
        set_msg(v, "%s", gcut_last_error());
        return;
    }
    v->nchanged = 0;
    v->last_ms = now_ms() - t0;
    v->last_warm = st.warm_start;
    v->last_backend = st.backend;
    v->disp_dirty = 1;
}

/* Start a new stroke (drops the strokes that could have been redone). */
static stroke *stroke_begin(viewer *v, int kind, int32_t radius)
{
    for (int32_t i = v->ndone; i < v->nstrokes; i++)
        free(v->strokes[i].xy);
    v->nstrokes = v->ndone;
    if (v->nstrokes == v->cap) {
        int32_t cap = v->cap ? 2 * v->cap : 16;
        stroke *grown = realloc(v->strokes, (size_t)cap * sizeof *grown);
        if (!grown)
            return NULL;
        v->strokes = grown;
        v->cap = cap;
    }
    stroke *st = &v->strokes[v->nstrokes++];
    memset(st, 0, sizeof *st);
    st->kind = kind;
    st->radius = radius;
    v->nchanged = 0;
    return st;
}

/* Add a point to the stroke being painted, stamp the new segment, and
 * update the overlay live when the solve is fast enough. */
static void stroke_extend(viewer *v, stroke *st, int32_t x, int32_t y)
{
    if (st->count && st->xy[2 * st->count - 2] == x && st->xy[2 * st->count - 1] == y)
        return;
    if (stroke_push(st, x, y))
        return;
    const int32_t j = st->count >= 2 ? st->count - 2 : 0;
    const uint8_t label = st->kind == STROKE_FG ? GCUT_SEED_FG : GCUT_SEED_BG;
    stamp_segment(v, st->xy[2 * j], st->xy[2 * j + 1], x, y, st->radius, label);
    v->disp_dirty = 1;
    warm_update(v, label, 0);
}

/* The stroke is released: it becomes undoable, is recorded, and the image
 * is cut with models learnt from all the seeds (the default), or, with the
 * models kept (key m, --keep-models), warm with what painting left over. */
static void stroke_end(viewer *v)
{
    stroke *st = &v->strokes[v->nstrokes - 1];
    v->ndone = v->nstrokes;
    if (v->record) {
        stroke_write(v->record, st);
        fflush(v->record);
    }
    if (v->relearn || !v->s || st->kind == STROKE_RECT)
        resegment_full(v);
    else
        warm_update(v, st->kind == STROKE_FG ? GCUT_SEED_FG : GCUT_SEED_BG, 1);
}

/* ------------------------------------------------------------ rendering */

static uint32_t rgb(uint32_t r, uint32_t g, uint32_t b)
{
    return 0xFF000000u | (r << 16) | (g << 8) | b;
}

static uint32_t blend(uint32_t c, uint32_t r, uint32_t g, uint32_t b, uint32_t a)
{
    const uint32_t cr = (c >> 16) & 255, cg = (c >> 8) & 255, cb = c & 255;
    return rgb((cr * (256 - a) + r * a) >> 8, (cg * (256 - a) + g * a) >> 8,
               (cb * (256 - a) + b * a) >> 8);
}

/* One colour per image pixel for the current view: overlay (background
 * dimmed with a blue tint, boundary green, seeds yellow / red), mask (white
 * on black) or cut-out (background transparent: alpha 0). */
static void render_disp(viewer *v)
{
    const int32_t w = v->w, h = v->h;
    /* after a rectangle, its background (all of the outside) is not
     * painted red: the rectangle is outlined instead */
    int rect = 0;
    for (int32_t i = 0; i < v->ndone; i++)
        rect |= v->strokes[i].kind == STROKE_RECT;
    for (int32_t y = 0; y < h; y++) {
        const uint8_t *row = v->img->data + (size_t)y * v->img->stride;
        for (int32_t x = 0; x < w; x++) {
            const int32_t p = x + w * y;
            uint32_t c = rgb(row[3 * x], row[3 * x + 1], row[3 * x + 2]);
            const int fg = v->have_mask ? v->mask[p] != 0 : 1;
            if (v->view == VIEW_MASK) {
                c = v->have_mask ? (fg ? rgb(255, 255, 255) : rgb(0, 0, 0)) : rgb(64, 64, 64);
            } else if (v->view == VIEW_CUTOUT) {
                if (!fg)
                    c &= 0x00FFFFFFu;
            } else {
                if (!fg)
                    c = blend(c, 0, 20, 90, 150);
                else if (v->have_mask &&
                         ((x > 0 && !v->mask[p - 1]) || (x + 1 < w && !v->mask[p + 1]) ||
                          (y > 0 && !v->mask[p - w]) || (y + 1 < h && !v->mask[p + w])))
                    c = rgb(0, 255, 0);
                if (v->seeds[p] == GCUT_SEED_FG)
                    c = blend(c, 255, 230, 0, 170);
                else if (v->seeds[p] == GCUT_SEED_BG && !rect)
                    c = blend(c, 230, 0, 0, 110);
            }
            v->disp[p] = c;
        }
    }
    v->disp_dirty = 0;
}

static void fill_rect(viewer *v, int32_t x0, int32_t y0, int32_t w, int32_t h, uint32_t c,
                      uint32_t a)
{
    for (int32_t y = y0 < 0 ? 0 : y0; y < y0 + h && y < v->fh; y++)
        for (int32_t x = x0 < 0 ? 0 : x0; x < x0 + w && x < v->fw; x++) {
            uint32_t *q = &v->frame[(size_t)y * v->fw + x];
            *q = a >= 256 ? c : blend(*q, (c >> 16) & 255, (c >> 8) & 255, c & 255, a);
        }
}

/* Text with the built-in font at an integer scale; returns the width. */
static int32_t draw_text(viewer *v, int32_t x0, int32_t y0, const char *s, uint32_t c)
{
    const int32_t sc = (int32_t)v->text_scale;
    int32_t x = x0;
    for (; *s; s++, x += (VIEW_FONT_W + 1) * sc) {
        int ch = (unsigned char)*s;
        if (ch >= 'a' && ch <= 'z')
            ch -= 32;
        if (ch < VIEW_FONT_FIRST || ch > VIEW_FONT_LAST)
            ch = '?';
        const uint8_t *g = view_font[ch - VIEW_FONT_FIRST];
        for (int32_t r = 0; r < VIEW_FONT_H; r++)
            for (int32_t k = 0; k < VIEW_FONT_W; k++)
                if (g[r] & (0x10 >> k))
                    fill_rect(v, x + k * sc, y0 + r * sc, sc, sc, c, 256);
    }
    return x - x0;
}

static const char *const help_lines[] = {
    "LEFT DRAG      FOREGROUND SEEDS",
    "RIGHT DRAG     BACKGROUND SEEDS",
    "SHIFT+DRAG     GRABCUT RECTANGLE",
    "WHEEL  [ ]     BRUSH SIZE",
    "1 2 3          OVERLAY / MASK / CUT-OUT",
    "L / SHIFT+L    LAMBDA UP / DOWN",
    "N              4 / 8 NEIGHBOURS",
    "M              MODELS RE-LEARNT / KEPT",
    "U  R           UNDO / REDO STROKE",
    "C              CLEAR SEEDS",
    "S              SAVE MASK + CUT-OUT PNG",
    "B              BACK END CPU / GPU",
    "+ - 0          ZOOM IN / OUT / FIT",
    "ARROWS         PAN (OR MIDDLE DRAG)",
    "H              THIS HELP",
    "Q  ESC         QUIT",
};

/* Compose the frame: the image at the current zoom and pan (nearest
 * neighbour), a checkerboard under transparent pixels, the brush, the
 * rectangle being dragged, the status line, the help box. */
static void render_frame(viewer *v, int32_t mx, int32_t my, const int32_t *drag_rect)
{
    if (v->disp_dirty)
        render_disp(v);
    const double inv = 1.0 / v->zoom;
    for (int32_t sy = 0; sy < v->fh; sy++) {
        uint32_t *q = v->frame + (size_t)sy * v->fw;
        const double fy = (sy + 0.5 - v->oy) * inv;
        const int32_t iy = (int32_t)floor(fy);
        for (int32_t sx = 0; sx < v->fw; sx++) {
            const int32_t ix = (int32_t)floor((sx + 0.5 - v->ox) * inv);
            uint32_t c = rgb(32, 32, 36);
            if (ix >= 0 && ix < v->w && iy >= 0 && iy < v->h) {
                c = v->disp[ix + v->w * iy];
                if (!(c >> 24))
                    c = ((sx >> 3) + (sy >> 3)) & 1 ? rgb(153, 153, 153) : rgb(102, 102, 102);
            }
            q[sx] = c;
        }
    }
    const int32_t *last_rect = NULL;
    for (int32_t i = 0; i < v->ndone; i++)
        if (v->strokes[i].kind == STROKE_RECT)
            last_rect = v->strokes[i].xy;
    if (!drag_rect && v->view == VIEW_OVERLAY)
        drag_rect = last_rect;
    if (drag_rect) {
        const int32_t x0 = (int32_t)(v->ox + drag_rect[0] * v->zoom);
        const int32_t y0 = (int32_t)(v->oy + drag_rect[1] * v->zoom);
        const int32_t w = (int32_t)(drag_rect[2] * v->zoom), h = (int32_t)(drag_rect[3] * v->zoom);
        const uint32_t red = rgb(230, 0, 0);
        fill_rect(v, x0, y0, w, 2, red, 256);
        fill_rect(v, x0, y0 + h - 2, w, 2, red, 256);
        fill_rect(v, x0, y0, 2, h, red, 256);
        fill_rect(v, x0 + w - 2, y0, 2, h, red, 256);
    }
    if (mx >= 0) {
        const double r = (v->brush + 0.5) * v->zoom;
        for (int32_t k = 0; k < 64; k++) {
            const double a = k * 6.283185307179586 / 64;
            fill_rect(v, (int32_t)(mx + r * cos(a)), (int32_t)(my + r * sin(a)), 1, 1,
                      rgb(255, 255, 255), 256);
        }
    }
    char status[200];
    const int32_t sc = (int32_t)v->text_scale;
    snprintf(status, sizeof status, "%s %.1f MS%s  LAMBDA %g  CONN %d  BRUSH %d  H: HELP",
             v->last_backend ? v->last_backend : v->backend, v->have_mask ? v->last_ms : 0.0,
             v->have_mask ? (v->last_warm ? " WARM" : " COLD") : "", v->p.lambda,
             v->p.connectivity, v->brush);
    const int32_t lh = (VIEW_FONT_H + 3) * sc;
    fill_rect(v, 0, 0, (int32_t)strlen(status) * (VIEW_FONT_W + 1) * sc + 4 * sc, lh, 0, 160);
    draw_text(v, 2 * sc, 2 * sc, status, rgb(255, 255, 255));
    if (v->msg[0]) {
        fill_rect(v, 0, lh, (int32_t)strlen(v->msg) * (VIEW_FONT_W + 1) * sc + 4 * sc, lh, 0, 160);
        draw_text(v, 2 * sc, lh + 2 * sc, v->msg, rgb(255, 200, 80));
    }
    if (v->help) {
        const int32_t nl = (int32_t)(sizeof help_lines / sizeof help_lines[0]);
        const int32_t bw = 44 * (VIEW_FONT_W + 1) * sc, bh = (nl + 2) * lh;
        const int32_t bx = (v->fw - bw) / 2, by = (v->fh - bh) / 2;
        fill_rect(v, bx, by, bw, bh, 0, 200);
        for (int32_t i = 0; i < nl; i++)
            draw_text(v, bx + 2 * lh, by + (i + 1) * lh, help_lines[i], rgb(255, 255, 255));
    }
}

/* Zoom that fits the image in fw x fh, centred. */
static void view_fit(viewer *v)
{
    const double zx = (double)v->fw / v->w, zy = (double)v->fh / v->h;
    v->zoom = zx < zy ? zx : zy;
    v->ox = (v->fw - v->w * v->zoom) / 2;
    v->oy = (v->fh - v->h * v->zoom) / 2;
}

static int frame_alloc(viewer *v, int32_t fw, int32_t fh)
{
    uint32_t *f = realloc(v->frame, (size_t)fw * fh * sizeof *f);
    if (!f)
        return 1;
    v->frame = f;
    v->fw = fw;
    v->fh = fh;
    v->text_scale = fw >= 640 ? 2 : 1;
    return 0;
}

/* ------------------------------------------------------------ outputs */

static int save_frame(const viewer *v, const char *path)
{
    gcut_image *o = NULL;
    if (gcut_image_new(&o, v->fw, v->fh, 3, 8) != GCUT_OK)
        return fail();
    for (int32_t y = 0; y < v->fh; y++)
        for (int32_t x = 0; x < v->fw; x++) {
            const uint32_t c = v->frame[(size_t)y * v->fw + x];
            uint8_t *q = o->data + (size_t)y * o->stride + 3 * (size_t)x;
            q[0] = (uint8_t)(c >> 16);
            q[1] = (uint8_t)(c >> 8);
            q[2] = (uint8_t)c;
        }
    int rc = gcut_image_save_png(o, path) != GCUT_OK ? fail() : 0;
    gcut_image_free(o);
    return rc;
}

/* kind 0: mask; 1: RGBA cut-out; 2: seed picture (255 fg, 0 bg, 128 unknown). */
static int save_plane(const viewer *v, const char *path, int kind)
{
    gcut_image *o = NULL;
    if (gcut_image_new(&o, v->w, v->h, kind == 1 ? 4 : 1, 8) != GCUT_OK)
        return fail();
    for (int32_t y = 0; y < v->h; y++)
        for (int32_t x = 0; x < v->w; x++) {
            const int32_t p = x + v->w * y;
            uint8_t *q = o->data + (size_t)y * o->stride;
            const uint8_t m = v->have_mask ? v->mask[p] : 0;
            if (kind == 0) {
                q[x] = m;
            } else if (kind == 2) {
                q[x] = v->seeds[p] == GCUT_SEED_FG ? 255 : v->seeds[p] == GCUT_SEED_BG ? 0 : 128;
            } else {
                memcpy(q + 4 * x, v->img->data + (size_t)y * v->img->stride + 3 * x, 3);
                q[4 * x + 3] = m;
            }
        }
    int rc = gcut_image_save_png(o, path) != GCUT_OK ? fail() : 0;
    gcut_image_free(o);
    return rc;
}

/* ------------------------------------------------------------ set-up */

static int parse_args(int argc, char **argv, args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        const char **str = NULL;
        if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            fputs(usage, stdout);
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
        } else if (!strcmp(s, "--inspect")) {
            str = &a->inspect;
        } else if (!strcmp(s, "-b") || !strcmp(s, "--backend")) {
            str = &a->backend;
        } else if (!strcmp(s, "--help-overlay")) {
            a->show_help = 1;
        } else if (!strcmp(s, "--keep-models")) {
            a->keep_models = 1;
        } else if (!strcmp(s, "--view")) {
            if (!next)
                return die_usage("--view needs a name", NULL);
            if (!strcmp(next, "overlay"))
                a->view = VIEW_OVERLAY;
            else if (!strcmp(next, "mask"))
                a->view = VIEW_MASK;
            else if (!strcmp(next, "cutout"))
                a->view = VIEW_CUTOUT;
            else
                return die_usage("--view takes overlay, mask or cutout", next);
            i++;
        } else if (!strcmp(s, "-l") || !strcmp(s, "--lambda") || !strcmp(s, "--zoom") ||
                   !strcmp(s, "--bench")) {
            char *end;
            if (!next)
                return die_usage("option needs a number", s);
            errno = 0;
            double x = strtod(next, &end);
            if (errno || end == next || *end || !(x >= 0) || x > 1e6)
                return die_usage("not a number 0..1e6", next);
            if (s[2] == 'z')
                a->zoom = x;
            else if (s[2] == 'b')
                a->bench_mp = x;
            else
                a->lambda = x;
            i++;
        } else if (!strcmp(s, "-c") || !strcmp(s, "--conn")) {
            if (!next || (strcmp(next, "4") && strcmp(next, "8")))
                return die_usage("--conn takes 4 or 8", next);
            a->conn = next[0] - '0';
            i++;
        } else if (s[0] == '-' && s[1]) {
            return die_usage("unknown option", s);
        } else if (!a->image) {
            a->image = s;
        } else {
            return die_usage("more than one image", s);
        }
        if (str) {
            if (!next)
                return die_usage("option needs a value", s);
            *str = next;
            i++;
        }
    }
    if (a->bench_mp == 0 && (a->out || a->cutout || a->shot || a->seeds_out) && !a->replay)
        return die_usage("--out, --cutout, --screenshot and --seeds-out need --replay", NULL);
    return 0;
}

/* Load the image as 8-bit RGB. */
static int load_rgb(const char *path, gcut_image **out)
{
    gcut_image *img = NULL, *rgb3 = NULL;
    if (gcut_image_load(path, &img) != GCUT_OK)
        return fail();
    if (img->depth == 16) {
        gcut_image *e = NULL;
        if (gcut_image_new(&e, img->width, img->height, img->channels, 8) != GCUT_OK) {
            gcut_image_free(img);
            return fail();
        }
        for (int32_t y = 0; y < img->height; y++) {
            const uint16_t *r = (const uint16_t *)(img->data + (size_t)y * img->stride);
            for (int32_t k = 0; k < img->width * img->channels; k++)
                e->data[(size_t)y * e->stride + k] = (uint8_t)(r[k] >> 8);
        }
        gcut_image_free(img);
        img = e;
    }
    if (img->channels == 3) {
        *out = img;
        return 0;
    }
    gcut_status st = gcut_image_to_rgb(img, &rgb3);
    gcut_image_free(img);
    if (st != GCUT_OK)
        return fail();
    *out = rgb3;
    return 0;
}

static int viewer_init(viewer *v, gcut_image *img, const args *a)
{
    memset(v, 0, sizeof *v);
    v->img = img;
    v->w = img->width;
    v->h = img->height;
    v->n = v->w * v->h;
    v->seeds = calloc((size_t)v->n, 1);
    v->mask = calloc((size_t)v->n, 1);
    v->changed = malloc((size_t)v->n * sizeof *v->changed);
    v->disp = malloc((size_t)v->n * sizeof *v->disp);
    if (!v->seeds || !v->mask || !v->changed || !v->disp) {
        fprintf(stderr, "gcut-view: out of memory\n");
        return 1;
    }
    gcut_seg_options_init(&v->p);
    if (a->lambda >= 0)
        v->p.lambda = a->lambda;
    if (a->conn)
        v->p.connectivity = a->conn;
    snprintf(v->backend, sizeof v->backend, "%s", a->backend ? a->backend : "auto");
    v->p.backend = v->backend;
    v->view = a->view;
    v->brush = 4;
    v->relearn = !a->keep_models;
    v->help = a->show_help;
    v->disp_dirty = 1;
    return 0;
}

static void viewer_free(viewer *v)
{
    gcut_seg_session_free(v->s);
    for (int32_t i = 0; i < v->nstrokes; i++)
        free(v->strokes[i].xy);
    free(v->strokes);
    free(v->seeds);
    free(v->mask);
    free(v->changed);
    free(v->disp);
    free(v->frame);
    if (v->record)
        fclose(v->record);
}

/* Replay one stroke as if painted: point by point (live warm updates),
 * then the release. */
static void replay_stroke(viewer *v, const stroke *in)
{
    stroke *st = stroke_begin(v, in->kind, in->radius);
    if (!st)
        return;
    if (in->kind == STROKE_RECT) {
        stroke_push(st, in->xy[0], in->xy[1]);
        stroke_push(st, in->xy[2], in->xy[3]);
    } else {
        for (int32_t i = 0; i < in->count; i++)
            stroke_extend(v, st, in->xy[2 * i], in->xy[2 * i + 1]);
    }
    stroke_end(v);
}

/* ------------------------------------------------------------ window */

typedef struct window {
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Texture *tex;
    int32_t tw, th;
} window;

static void window_present(viewer *v, window *wd)
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
static void output_size(window *wd, int32_t *fw, int32_t *fh)
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

static int window_open(window *wd, int32_t w, int32_t h, int hidden)
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
static void window_check(const viewer *v, window *wd)
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
        printf("window: %dx%d, %lld pixels differ from the screenshot\n", w, h, (long long)diff);
    }
    free(px);
}

static void window_close(window *wd)
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
    snprintf(t, sizeof t, "gcut-view - %s - %.1f ms",
             v->last_backend ? v->last_backend : v->backend, v->last_ms);
    SDL_SetWindowTitle(wd->win, t);
}

/* The other back end of the CPU/GPU toggle: a GPU one when the current
 * choice is a CPU one (the first available whose name starts with "cuda"),
 * else cpu-bk. */
static const char *toggle_backend(const char *cur)
{
    if (!strncmp(cur, "cuda", 4))
        return "cpu-bk";
    for (int32_t i = 0; i < gcut_backend_count(); i++) {
        const char *name = gcut_backend_name(i);
        if (name && !strncmp(name, "cuda", 4) && gcut_backend_available(i, NULL))
            return name;
    }
    return NULL;
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
        v->relearn = !v->relearn;
        set_msg(v, "%s", v->relearn ? "MODELS RE-LEARNT ON RELEASE" : "MODELS KEPT (WARM)");
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
        if (save_plane(v, "gcut-view-mask.png", 0) == 0 &&
            save_plane(v, "gcut-view-cutout.png", 1) == 0)
            set_msg(v, "%s", "SAVED GCUT-VIEW-MASK.PNG, GCUT-VIEW-CUTOUT.PNG");
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
static int run_window(viewer *v, window *wd)
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
        render_frame(v, mx, my, rdrag ? rect : NULL);
        window_present(v, wd);
        update_title(v, wd);
        SDL_Event e;
        if (!SDL_WaitEvent(&e))
            break;
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

/* ------------------------------------------------------------ helpers */

/* Statistics of a PNG for the tests (no image tools needed on the test
 * machine): size, mean and spread of the samples, distinct colours, and
 * pixels that are pure boundary green or dimmed blue-tinted overlay. */
static int inspect(const char *path)
{
    gcut_image *img = NULL;
    if (load_rgb(path, &img))
        return 1;
    double sum = 0, sum2 = 0;
    int64_t green = 0, tinted = 0, black = 0;
    const int64_t n = (int64_t)img->width * img->height;
    uint8_t *seen = calloc(1u << 21, 1); /* 2^24 colours, one bit each */
    int64_t distinct = 0;
    for (int32_t y = 0; y < img->height; y++)
        for (int32_t x = 0; x < img->width; x++) {
            const uint8_t *q = img->data + (size_t)y * img->stride + 3 * (size_t)x;
            const double l = (q[0] + q[1] + q[2]) / 3.0;
            sum += l;
            sum2 += l * l;
            green += q[0] == 0 && q[1] == 255 && q[2] == 0;
            tinted += q[2] > q[0] + 20 && q[2] > q[1] + 10;
            black += q[0] == 0 && q[1] == 0 && q[2] == 0;
            const uint32_t c = ((uint32_t)q[0] << 16) | ((uint32_t)q[1] << 8) | q[2];
            if (seen && !(seen[c >> 3] & (1u << (c & 7)))) {
                seen[c >> 3] |= (uint8_t)(1u << (c & 7));
                distinct++;
            }
        }
    const double mean = sum / n;
    printf("size: %dx%d\nmean: %.1f\nstddev: %.1f\ncolours: %lld\nboundary: %lld\n"
           "tinted: %lld\nblack: %lld\n",
           img->width, img->height, mean, sqrt(sum2 / n - mean * mean), (long long)distinct,
           (long long)green, (long long)tinted, (long long)black);
    free(seen);
    gcut_image_free(img);
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

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Latency: the image scaled to mp megapixels, the replayed strokes scaled
 * the same way make the first cut; then 20 short strokes, alternately
 * foreground and background, each timed from the stroke to the composed
 * frame (add_stroke + warm solve + overlay), and the release (models
 * re-learnt, cold cut). */
static int bench(viewer *v, double mp, const stroke *in, int32_t nin, double k)
{
    frame_alloc(v, 1280, 800);
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
        fprintf(stderr, "gcut-view: --bench needs strokes that make a mask (--replay)\n");
        return 1;
    }
    enum { N = 20 };
    double live[N], solve[N], rel[N];
    const double t_first = v->last_ms;
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
        const double t0 = now_ms();
        stroke_extend(v, st, x, y);
        stroke_extend(v, st, x + v->w / 10, y);
        render_frame(v, -1, -1, NULL);
        live[i] = now_ms() - t0;
        solve[i] = v->last_ms;
        const double t1 = now_ms();
        stroke_end(v);
        render_frame(v, -1, -1, NULL);
        rel[i] = now_ms() - t1;
    }
    qsort(live, N, sizeof live[0], cmp_double);
    qsort(rel, N, sizeof rel[0], cmp_double);
    qsort(solve, N, sizeof solve[0], cmp_double);
    printf("size: %dx%d (%.2f MP)\nbackend: %s\nfirst cut: %.1f ms\n", v->w, v->h,
           v->n / 1e6, v->last_backend ? v->last_backend : v->backend, t_first);
    printf("stroke -> overlay, warm (%d strokes): median %.1f ms, p90 %.1f ms, max %.1f ms\n", N,
           live[N / 2], live[N * 9 / 10], live[N - 1]);
    printf("  of which add_stroke + warm solve of the last segment: median %.1f ms\n",
           solve[N / 2]);
    printf("release -> overlay, models re-learnt: median %.1f ms, p90 %.1f ms, max %.1f ms\n",
           rel[N / 2], rel[N * 9 / 10], rel[N - 1]);
    (void)mp;
    return 0;
}

/* ------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    args a;
    memset(&a, 0, sizeof a);
    a.lambda = -1;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc;
    if (a.inspect)
        return inspect(a.inspect);
    const char *path = a.image ? a.image : GCUT_VIEW_DEFAULT_IMAGE;
    gcut_image *img = NULL;
    if (load_rgb(path, &img))
        return 1;
    stroke *in = NULL;
    int32_t nin = 0;
    if (a.replay && strokes_read(a.replay, img->width, img->height, &in, &nin)) {
        gcut_image_free(img);
        return 1;
    }
    double k = 1;
    if (a.bench_mp > 0) {
        gcut_image *big = NULL;
        if (resize_to(img, a.bench_mp, &big)) {
            fprintf(stderr, "gcut-view: cannot scale the image to %g MP\n", a.bench_mp);
            gcut_image_free(img);
            return 1;
        }
        k = (double)big->width / img->width;
        gcut_image_free(img);
        img = big;
    }
    viewer v;
    if (viewer_init(&v, img, &a)) {
        gcut_image_free(img);
        return 1;
    }
    if (a.record && !(v.record = fopen(a.record, "w"))) {
        fprintf(stderr, "gcut-view: %s: %s\n", a.record, strerror(errno));
        rc = 1;
        goto done;
    }
    if (v.record)
        fprintf(v.record, "# gcut-view strokes for %s (%dx%d)\n", path, v.w, v.h);
    if (a.bench_mp > 0) {
        rc = bench(&v, a.bench_mp, in, nin, k);
        goto done;
    }

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
        const double t0 = now_ms();
        for (int32_t i = 0; i < nin; i++) {
            replay_stroke(&v, &in[i]);
            render_frame(&v, -1, -1, NULL);
            window_present(&v, &wd);
            SDL_PumpEvents();
        }
        window_check(&v, &wd);
        printf("video: %s\nstrokes: %d\nbackend: %s\nsolve: %.2f ms\nreplay: %.1f ms\n",
               SDL_GetCurrentVideoDriver(), nin, v.last_backend ? v.last_backend : v.backend,
               v.last_ms, now_ms() - t0);
        if (!v.have_mask)
            fprintf(stderr, "gcut-view: warning: the strokes made no mask\n");
        if (a.out && !(rc = save_plane(&v, a.out, 0)))
            printf("mask: %s\n", a.out);
        if (!rc && a.cutout && !(rc = save_plane(&v, a.cutout, 1)))
            printf("cutout: %s\n", a.cutout);
        if (!rc && a.seeds_out && !(rc = save_plane(&v, a.seeds_out, 2)))
            printf("seeds: %s\n", a.seeds_out);
        if (!rc && a.shot && !(rc = save_frame(&v, a.shot)))
            printf("screenshot: %s (%dx%d)\n", a.shot, v.fw, v.fh);
    } else {
        view_fit(&v);
        rc = run_window(&v, &wd);
    }
    window_close(&wd);
    SDL_Quit();
done:
    for (int32_t i = 0; i < nin; i++)
        free(in[i].xy);
    free(in);
    viewer_free(&v);
    gcut_image_free(img);
    return rc;
}
