/*
 * strokes.c - gcut-view's model: the viewer's state, strokes painted into
 * the seeds, the cuts that follow them (live warm updates while a stroke
 * is painted, the colour models updated when it is released, undo and
 * redo by re-cutting from all the seeds), and the stroke file format
 * (strokes.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "view_internal.h"
#include "worker.h"

/* ------------------------------------------------------------ strokes */

int stroke_push(stroke *st, int32_t x, int32_t y)
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

void stroke_write(FILE *f, const stroke *st)
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

void strokes_free(stroke *list, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        free(list[i].xy);
    free(list);
}

/* Coordinates and sizes in stroke files: at most 2^24 in magnitude. */
#define STROKE_COORD_MAX (1L << 24)
#define STROKE_RADIUS_MAX 200

/* Token tok (field `field` of the line, named `what`) as an integer in
 * lo..hi: 0 and *out, or 1 with the reason in why. */
static int field_int(const char *tok, int field, const char *what, long lo, long hi, long *out,
                     char *why, size_t nwhy)
{
    char *end;
    errno = 0;
    const long x = strtol(tok, &end, 10);
    if (errno || end == tok || *end || x < lo || x > hi) {
        snprintf(why, nwhy, "field %d (%s): expected an integer in %ld..%ld, got '%.40s'", field,
                 what, lo, hi, tok);
        return 1;
    }
    *out = x;
    return 0;
}

/* One fg / bg line after its keyword: radius, then x y pairs. */
static int parse_stroke(char **save, stroke *st, char *why, size_t nwhy)
{
    const char *tok = strtok_r(NULL, " \t\r\n", save);
    long r;
    if (!tok) {
        snprintf(why, nwhy, "field 2 (radius): missing; expected '%s RADIUS x1 y1 x2 y2 ...'",
                 st->kind == STROKE_FG ? "fg" : "bg");
        return 1;
    }
    if (field_int(tok, 2, "radius", 0, STROKE_RADIUS_MAX, &r, why, nwhy))
        return 1;
    st->radius = (int32_t)r;
    int field = 3;
    long xy[2];
    for (;; field++) {
        const int k = (field - 3) % 2, point = (field - 3) / 2 + 1;
        char what[32];
        snprintf(what, sizeof what, "%s of point %d", k ? "y" : "x", point);
        if (!(tok = strtok_r(NULL, " \t\r\n", save))) {
            if (k == 0 && point > 1)
                return 0;
            snprintf(why, nwhy, "field %d (%s): missing; %s", field, what,
                     k ? "points are x y pairs" : "a stroke needs at least one point");
            return 1;
        }
        if (field_int(tok, field, what, -STROKE_COORD_MAX, STROKE_COORD_MAX, &xy[k], why, nwhy))
            return 1;
        if (k == 1 && stroke_push(st, (int32_t)xy[0], (int32_t)xy[1])) {
            snprintf(why, nwhy, "out of memory at point %d", point);
            return 1;
        }
    }
}

/* One rect line after its keyword: X Y W H inside the w x h image, not
 * all of it. */
static int parse_rect(char **save, int32_t w, int32_t h, stroke *st, char *why, size_t nwhy)
{
    static const char *const names[4] = {"X", "Y", "W", "H"};
    long v[4];
    for (int i = 0; i < 4; i++) {
        const char *tok = strtok_r(NULL, " \t\r\n", save);
        if (!tok) {
            snprintf(why, nwhy, "field %d (%s): missing; expected 'rect X Y W H'", i + 2, names[i]);
            return 1;
        }
        /* X and Y inside the image; W and H at least 1 and within it. */
        const long side = i % 2 ? h : w;
        const long lo = i < 2 ? 0 : 1, hi = i < 2 ? side - 1 : side - v[i - 2];
        if (field_int(tok, i + 2, names[i], lo, hi, &v[i], why, nwhy)) {
            const size_t len = strlen(why);
            snprintf(why + len, nwhy - len, " (the image is %dx%d)", (int)w, (int)h);
            return 1;
        }
    }
    const char *extra = strtok_r(NULL, " \t\r\n", save);
    if (extra) {
        snprintf(why, nwhy, "field 6: unexpected '%.40s' after 'rect X Y W H'", extra);
        return 1;
    }
    if (v[2] == w && v[3] == h) {
        snprintf(why, nwhy, "the rectangle covers the whole %dx%d image: no background left",
                 (int)w, (int)h);
        return 1;
    }
    if (stroke_push(st, (int32_t)v[0], (int32_t)v[1]) ||
        stroke_push(st, (int32_t)v[2], (int32_t)v[3])) {
        snprintf(why, nwhy, "out of memory");
        return 1;
    }
    return 0;
}

/* Parse a stroke file into strokes[]; prints the first error: the file,
 * the line, the field, what was expected and what was there. */
int strokes_read(const char *path, int32_t w, int32_t h, stroke **out, int32_t *count)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: %s: %s\n", cli_prog(), path, strerror(errno));
        return 1;
    }
    stroke *list = NULL;
    int32_t n = 0, cap = 0, line = 0, rc = 0;
    static char buf[65536];
    char why[256];
    while (!rc && fgets(buf, sizeof buf, f)) {
        line++;
        const size_t len = strlen(buf);
        if (len == sizeof buf - 1 && buf[len - 1] != '\n' && !feof(f)) {
            fprintf(stderr, "%s: %s:%d: line longer than %d characters\n", cli_prog(), path,
                    (int)line, (int)sizeof buf - 2);
            rc = 1;
            break;
        }
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
            fprintf(stderr, "%s: %s:%d: unknown item '%.40s' (expected fg, bg or rect)\n",
                    cli_prog(), path, (int)line, tok);
            rc = 1;
            break;
        }
        const int bad = st.kind == STROKE_RECT ? parse_rect(&save, w, h, &st, why, sizeof why)
                                               : parse_stroke(&save, &st, why, sizeof why);
        if (bad) {
            fprintf(stderr, "%s: %s:%d: malformed %s line: %s\n", cli_prog(), path, (int)line,
                    st.kind == STROKE_RECT ? "rect" : "stroke", why);
            free(st.xy);
            rc = 1;
            break;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            stroke *grown = realloc(list, (size_t)cap * sizeof *grown);
            if (!grown) {
                fprintf(stderr, "%s: %s:%d: out of memory\n", cli_prog(), path, (int)line);
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
        strokes_free(list, n);
        return rc;
    }
    *out = list;
    *count = n;
    return 0;
}

/* ------------------------------------------------------------ segmentation */

void set_msg(viewer *v, const char *fmt, const char *arg)
{
    snprintf(v->msg, sizeof v->msg, fmt, arg);
}

/* A cut failed: the message line says why, and the first failure is kept
 * for the replay (which stops there and exits with it). */
static void cut_failed(viewer *v)
{
    set_msg(v, "%s", gcut_last_error());
    if (v->failed++ == 0)
        snprintf(v->fail_msg, sizeof v->fail_msg, "%s", gcut_last_error());
}

/* The progress callback of the viewer's cuts: stop when asked to. */
static int view_progress(const gcut_progress *p, void *user)
{
    (void)p;
    const viewer *v = user;
    return v->interrupt && *v->interrupt;
}

/* Hand the current seeds to the worker (interactive mode). */
static void post_job(viewer *v, int kind, int grabcut)
{
    view_job job;
    memset(&job, 0, sizeof job);
    job.kind = kind;
    job.grabcut = grabcut;
    job.lambda = v->p.lambda;
    job.conn = v->p.connectivity;
    snprintf(job.backend, sizeof job.backend, "%s", v->backend);
    view_worker_post(v->async, &job, v->seeds);
    v->nchanged = 0;
    v->disp_dirty = 1; /* the seeds are drawn at once, the mask when it comes */
}

int view_take_result(viewer *v)
{
    view_result r;
    if (!v->async || !view_worker_take(v->async, v->mask, &r))
        return 0;
    v->disp_dirty = 1;
    if (!r.ok) {
        set_msg(v, "%.150s", r.error);
        if (v->failed++ == 0)
            snprintf(v->fail_msg, sizeof v->fail_msg, "%s", r.error);
        return 1;
    }
    v->have_mask = r.have_mask;
    v->last_ms = r.ms;
    v->last_warm = r.warm;
    v->last_backend = r.backend;
    return 1;
}

/* Cut from scratch with the seeds of the applied strokes: a new session
 * learns the models from all the seeds (as gcut-seg does); after a
 * rectangle, GrabCut iterations refine them. */
int resegment_full(viewer *v)
{
    int have_rect = 0, have_seed = 0;
    memset(v->seeds, GCUT_SEED_UNKNOWN, (size_t)v->n);
    for (int32_t i = 0; i < v->ndone; i++) {
        stroke_apply(v, &v->strokes[i]);
        have_rect |= v->strokes[i].kind == STROKE_RECT;
    }
    if (v->async) {
        /* The worker cuts (a running cut is cancelled); the window takes
         * the mask when it is ready (view_take_result). */
        post_job(v, VIEW_JOB_FULL, have_rect);
        return 0;
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
    const double t0 = cli_now_ms();
    gcut_seg_stats st;
    gcut_status rc = gcut_seg_session_new(&v->s, v->img, v->seeds, &v->p);
    if (rc == GCUT_OK)
        rc = have_rect ? gcut_seg_session_grabcut(v->s, 5, v->mask, &st)
                       : gcut_seg_session_solve(v->s, v->mask, &st);
    if (rc != GCUT_OK) {
        cut_failed(v);
        gcut_seg_session_free(v->s);
        v->s = NULL;
        v->have_mask = 0;
        return 1;
    }
    v->have_mask = 1;
    v->nchanged = 0;
    v->last_ms = cli_now_ms() - t0;
    v->last_warm = st.warm_start;
    v->last_backend = st.backend;
    v->last_st = st;
    return 0;
}

int view_has_rect(const viewer *v)
{
    for (int32_t i = 0; i < v->ndone; i++)
        if (v->strokes[i].kind == STROKE_RECT)
            return 1;
    return 0;
}

/* In this thread: the pending stroke pixels to the session, then a warm
 * solve, or (update) the models updated and a warm cut; the result shown. */
static void cut_here(viewer *v, uint8_t label, int update)
{
    const double t0 = cli_now_ms();
    gcut_seg_stats st;
    if (gcut_seg_session_add_stroke(v->s, label, v->changed, v->nchanged) != GCUT_OK ||
        (update ? gcut_seg_session_update_models(v->s, v->mask, &st)
                : gcut_seg_session_solve(v->s, v->mask, &st)) != GCUT_OK) {
        cut_failed(v);
        return;
    }
    v->nchanged = 0;
    v->last_ms = cli_now_ms() - t0;
    v->last_warm = st.warm_start;
    v->last_backend = st.backend;
    v->last_st = st;
    v->disp_dirty = 1;
}

/* The stroke's pixels not yet given to the session become seeds there and
 * the cut is re-solved warm (models kept). While painting (force 0) this is
 * skipped, leaving the update to the release, when the last solve was too
 * slow for a live overlay. */
static void warm_update(viewer *v, uint8_t label, int force)
{
    if (v->async) {
        /* Every change goes to the worker, which re-solves warm. */
        if (v->nchanged > 0 || force)
            post_job(v, VIEW_JOB_WARM, view_has_rect(v));
        return;
    }
    if (!v->s || v->nchanged == 0 || (!force && v->last_ms > LIVE_LIMIT_MS))
        return;
    cut_here(v, label, 0);
}

/* Start a new stroke (drops the strokes that could have been redone). */
stroke *stroke_begin(viewer *v, int kind, int32_t radius)
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
void stroke_extend(viewer *v, stroke *st, int32_t x, int32_t y)
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

/* The release with the models updated (the default): the stroke's pixels
 * not yet given to the session, then gcut_seg_session_update_models (the
 * pixels whose seed changed since the last update move between the colour
 * models' moments; warm cut). */
static void update_release(viewer *v, uint8_t label)
{
    if (v->async) {
        post_job(v, VIEW_JOB_UPDATE, view_has_rect(v));
        return;
    }
    cut_here(v, label, 1);
}

/* The stroke is released: it becomes undoable, is recorded, and the image
 * is cut with the colour models updated from the seeds that changed
 * (the default; key m, --models), re-learnt from all the seeds by a new
 * session (--models full: the mask is then gcut-seg's from the same
 * seeds), or kept (--models keep, --keep-models: warm with what painting
 * left over). A rectangle, and the first stroke, always learn afresh. */
void stroke_end(viewer *v)
{
    stroke *st = &v->strokes[v->nstrokes - 1];
    v->ndone = v->nstrokes;
    if (v->record) {
        stroke_write(v->record, st);
        fflush(v->record);
    }
    const uint8_t label = st->kind == STROKE_FG ? GCUT_SEED_FG : GCUT_SEED_BG;
    if (v->models == VIEW_MODELS_FULL || (!v->s && !v->async) || st->kind == STROKE_RECT)
        resegment_full(v);
    else if (v->models == VIEW_MODELS_UPDATE)
        update_release(v, label);
    else
        warm_update(v, label, 1);
}

/* ------------------------------------------------------------ set-up */

/* Load the image as 8-bit RGB. */
int load_rgb(const char *path, gcut_image **out)
{
    gcut_image *img = NULL, *rgb3 = NULL;
    if (gcut_image_load(path, &img) != GCUT_OK)
        return cli_fail();
    if (img->depth == 16) {
        gcut_image *e = NULL;
        if (gcut_image_new(&e, img->width, img->height, img->channels, 8) != GCUT_OK) {
            gcut_image_free(img);
            return cli_fail();
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
        return cli_fail();
    *out = rgb3;
    return 0;
}

int load_image_and_strokes(const char *path, const char *replay, gcut_image **img, stroke **in,
                           int32_t *nin)
{
    *in = NULL;
    *nin = 0;
    if (load_rgb(path, img))
        return 1;
    if (replay && strokes_read(replay, (*img)->width, (*img)->height, in, nin)) {
        gcut_image_free(*img);
        *img = NULL;
        return 1;
    }
    return 0;
}

int viewer_init(viewer *v, gcut_image *img, const view_options *o)
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
        fprintf(stderr, "%s: out of memory\n", cli_prog());
        return 1;
    }
    gcut_seg_options_init(&v->p);
    if (o->lambda >= 0)
        v->p.lambda = o->lambda;
    if (o->conn)
        v->p.connectivity = o->conn;
    snprintf(v->backend, sizeof v->backend, "%s", o->backend ? o->backend : "auto");
    v->p.solve.backend = v->backend;
    v->p.solve.progress = view_progress;
    v->p.solve.progress_user = v;
    v->view = o->view;
    v->brush = 4;
    v->models = o->models;
    v->help = o->show_help;
    v->disp_dirty = 1;
    return 0;
}

void viewer_free(viewer *v)
{
    gcut_seg_session_free(v->s);
    strokes_free(v->strokes, v->nstrokes);
    free(v->seeds);
    free(v->mask);
    free(v->changed);
    free(v->disp);
    free(v->frame);
    free(v->frame_cols);
    free(v->disp_mask);
    free(v->disp_seeds);
    if (v->record)
        fclose(v->record);
}

/* Replay one stroke as if painted: point by point (live warm updates),
 * then the release. */
void replay_stroke(viewer *v, const stroke *in)
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
