/*
 * render.c - gcut-view's frames, composed in a CPU buffer (no GPU): the
 * image at the current zoom and pan with the overlay of the cut, the
 * brush, the rectangle, the status line and the help box in the built-in
 * font (font.h); and the PNGs the viewer writes. What the window shows is
 * this buffer, so a screenshot taken under SDL's dummy video driver is the
 * same picture as the window.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "font.h"
#include "render.h"

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
    const int rect = view_has_rect(v);
    /* A row's colours depend on its image row, its seeds, the mask rows
     * y-1 .. y+1, the view and whether there is a mask and a rectangle:
     * rows whose inputs are those of the last drawing are kept (a stroke
     * redraws the rows it and its cut touched, not the whole image). */
    if (!v->disp_mask)
        v->disp_mask = malloc((size_t)v->n + 1);
    if (!v->disp_seeds)
        v->disp_seeds = malloc((size_t)v->n + 1);
    const int keep = v->disp_valid && v->disp_mask && v->disp_seeds && v->disp_view == v->view &&
                     v->disp_have_mask == v->have_mask && v->disp_rect == rect;
    /* Row by row with the rows above and below at hand; the common pixel
     * (no seed, inside the image) takes no test it does not need. The
     * colours are those of the pixel-by-pixel rules above. */
    for (int32_t y = 0; y < h; y++) {
        if (keep) {
            const size_t at = (size_t)w * y;
            int same = memcmp(v->seeds + at, v->disp_seeds + at, (size_t)w) == 0;
            if (same && v->have_mask)
                same = memcmp(v->mask + at, v->disp_mask + at, (size_t)w) == 0 &&
                       (y == 0 || memcmp(v->mask + at - w, v->disp_mask + at - w, (size_t)w) == 0) &&
                       (y + 1 == h || memcmp(v->mask + at + w, v->disp_mask + at + w, (size_t)w) == 0);
            if (same)
                continue;
        }
        const uint8_t *row = v->img->data + (size_t)y * v->img->stride;
        const uint8_t *m = v->have_mask ? v->mask + (size_t)w * y : NULL;
        const uint8_t *up = m && y > 0 ? m - w : NULL, *dn = m && y + 1 < h ? m + w : NULL;
        const uint8_t *sd = v->seeds + (size_t)w * y;
        uint32_t *out = v->disp + (size_t)w * y;
        if (v->view == VIEW_MASK) {
            for (int32_t x = 0; x < w; x++)
                out[x] = !m ? rgb(64, 64, 64) : m[x] ? rgb(255, 255, 255) : rgb(0, 0, 0);
            continue;
        }
        if (v->view == VIEW_CUTOUT) {
            for (int32_t x = 0; x < w; x++) {
                const uint32_t c = rgb(row[3 * x], row[3 * x + 1], row[3 * x + 2]);
                out[x] = !m || m[x] ? c : c & 0x00FFFFFFu;
            }
            continue;
        }
        for (int32_t x = 0; x < w; x++) {
            uint32_t c;
            if (m && !m[x]) {
                /* blend(c, 0, 20, 90, 150) */
                c = rgb((row[3 * x] * 106u) >> 8, (row[3 * x + 1] * 106u + 20u * 150u) >> 8,
                        (row[3 * x + 2] * 106u + 90u * 150u) >> 8);
            } else if (m && ((x > 0 && !m[x - 1]) || (x + 1 < w && !m[x + 1]) ||
                             (up && !up[x]) || (dn && !dn[x]))) {
                c = rgb(0, 255, 0);
            } else {
                c = rgb(row[3 * x], row[3 * x + 1], row[3 * x + 2]);
            }
            if (sd[x]) {
                if (sd[x] == GCUT_SEED_FG)
                    c = blend(c, 255, 230, 0, 170);
                else if (sd[x] == GCUT_SEED_BG && !rect)
                    c = blend(c, 230, 0, 0, 110);
            }
            out[x] = c;
        }
    }
    v->disp_valid = v->disp_mask && v->disp_seeds;
    if (v->disp_valid) {
        if (v->have_mask)
            memcpy(v->disp_mask, v->mask, (size_t)v->n);
        memcpy(v->disp_seeds, v->seeds, (size_t)v->n);
        v->disp_view = v->view;
        v->disp_have_mask = v->have_mask;
        v->disp_rect = rect;
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
    "M              MODELS UPDATE/FULL/KEEP",
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
void render_frame(viewer *v, int32_t mx, int32_t my, const int32_t *drag_rect)
{
    if (v->disp_dirty)
        render_disp(v);
    const double inv = 1.0 / v->zoom;
    /* The image column of each frame column, once per frame (-1 outside). */
    int32_t *col = v->frame_cols;
    for (int32_t sx = 0; sx < v->fw; sx++) {
        const int32_t ix = (int32_t)floor((sx + 0.5 - v->ox) * inv);
        col[sx] = ix >= 0 && ix < v->w ? ix : -1;
    }
    for (int32_t sy = 0; sy < v->fh; sy++) {
        uint32_t *q = v->frame + (size_t)sy * v->fw;
        const double fy = (sy + 0.5 - v->oy) * inv;
        const int32_t iy = (int32_t)floor(fy);
        if (iy < 0 || iy >= v->h) {
            for (int32_t sx = 0; sx < v->fw; sx++)
                q[sx] = rgb(32, 32, 36);
            continue;
        }
        const uint32_t *src = v->disp + (size_t)v->w * iy;
        for (int32_t sx = 0; sx < v->fw; sx++) {
            uint32_t c = rgb(32, 32, 36);
            if (col[sx] >= 0) {
                c = src[col[sx]];
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
    if (v->busy)
        snprintf(status, sizeof status, "SOLVING... %.1f S  LAMBDA %g  CONN %d  BRUSH %d  H: HELP",
                 v->busy_ms / 1000.0, v->p.lambda, v->p.connectivity, v->brush);
    else
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
void view_fit(viewer *v)
{
    const double zx = (double)v->fw / v->w, zy = (double)v->fh / v->h;
    v->zoom = zx < zy ? zx : zy;
    v->ox = (v->fw - v->w * v->zoom) / 2;
    v->oy = (v->fh - v->h * v->zoom) / 2;
}

int frame_alloc(viewer *v, int32_t fw, int32_t fh)
{
    uint32_t *f = realloc(v->frame, (size_t)fw * fh * sizeof *f);
    if (!f)
        return 1;
    v->frame = f;
    int32_t *cols = realloc(v->frame_cols, (size_t)fw * sizeof *cols + 4);
    if (!cols)
        return 1;
    v->frame_cols = cols;
    v->fw = fw;
    v->fh = fh;
    v->text_scale = fw >= 640 ? 2 : 1;
    return 0;
}

/* ------------------------------------------------------------ outputs */

int save_frame(const viewer *v, const char *path)
{
    gcut_image *o = NULL;
    if (gcut_image_new(&o, v->fw, v->fh, 3, 8) != GCUT_OK)
        return cli_fail();
    for (int32_t y = 0; y < v->fh; y++)
        for (int32_t x = 0; x < v->fw; x++) {
            const uint32_t c = v->frame[(size_t)y * v->fw + x];
            uint8_t *q = o->data + (size_t)y * o->stride + 3 * (size_t)x;
            q[0] = (uint8_t)(c >> 16);
            q[1] = (uint8_t)(c >> 8);
            q[2] = (uint8_t)c;
        }
    int rc = gcut_image_save_png(o, path) != GCUT_OK ? cli_fail() : 0;
    gcut_image_free(o);
    return rc;
}

/* kind 0: mask; 1: RGBA cut-out; 2: seed picture (255 fg, 0 bg, 128 unknown). */
int save_plane(const viewer *v, const char *path, int kind)
{
    gcut_image *o = NULL;
    if (gcut_image_new(&o, v->w, v->h, kind == 1 ? 4 : 1, 8) != GCUT_OK)
        return cli_fail();
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
    int rc = gcut_image_save_png(o, path) != GCUT_OK ? cli_fail() : 0;
    gcut_image_free(o);
    return rc;
}
