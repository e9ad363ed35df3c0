/*
 * view_internal.h - the state of gcut-view shared by its parts: the image,
 * the seeds and the mask, the strokes, the segmentation session, and the
 * view (zoom, pan, the composed frame). The model that changes it is in
 * strokes.c (painting, undo, the cuts), the drawing in render.c, the window
 * and its events in window.c, the options and the replay in main.c;
 * bench/view_bench.c times the model and the drawing without a window.
 */
#ifndef GCUT_DEMOS_VIEW_INTERNAL_H
#define GCUT_DEMOS_VIEW_INTERNAL_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "gcut/gcut.h"
#include "gcut/vision/image.h"
#include "gcut/vision/segment.h"
#include "strokes.h"

enum { VIEW_OVERLAY = 0, VIEW_MASK = 1, VIEW_CUTOUT = 2 };

/* A solve slower than this (ms) is not redone while a stroke is painted:
 * the overlay is then updated on release only. */
#define LIVE_LIMIT_MS 40.0

/* What a released stroke does to the colour models (key m cycles them). */
enum {
    VIEW_MODELS_UPDATE = 0, /* incremental update from the changed seeds, warm cut (default) */
    VIEW_MODELS_FULL = 1,   /* re-learnt from all the seeds by a new session (cold cut) */
    VIEW_MODELS_KEEP = 2    /* kept: a warm cut only */
};

/* What the options set at the start (viewer_init). */
typedef struct view_options {
    const char *backend; /* NULL: auto */
    double lambda;       /* < 0: the default */
    int32_t conn;        /* 0: the default */
    int models;          /* VIEW_MODELS_* */
    int show_help;
    int view;
} view_options;

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
    int models;         /* what a release does to the models: VIEW_MODELS_* */
    double last_ms;     /* stroke -> mask of the last update */
    gcut_seg_stats last_st; /* the library's stats of the last cut (not with the worker) */
    int last_warm;
    const char *last_backend;
    int view, help;
    int32_t brush;
    double zoom, ox, oy; /* screen = o + zoom * image */
    int32_t fw, fh;
    uint32_t *frame, *disp; /* 0xAARRGGBB; disp: per image pixel, alpha 0 = transparent */
    int32_t *frame_cols;    /* fw: the image column each frame column shows, or -1 */
    /* What disp was drawn from (render.c keeps the rows whose inputs stay). */
    uint8_t *disp_mask, *disp_seeds;
    int disp_valid, disp_view, disp_have_mask, disp_rect;
    int disp_dirty;
    double text_scale;
    char msg[160];
    FILE *record;
    /* Cuts that failed since the viewer began (the replay stops at the
     * first), and the library's message of the first one. */
    int32_t failed;
    char fail_msg[512];
    /* Non-zero: stop the cut under way (its progress callback returns it);
     * the replay points it at the flag its signal handler sets. */
    const volatile sig_atomic_t *interrupt;
    /* Interactive mode: the worker thread that runs the cuts (worker.h);
     * NULL: the cuts run on the calling thread (the replay, the bench). */
    struct view_worker *async;
    const char *image_path; /* the image's file, for the save key's names */
    int busy;               /* the worker has a cut under way (the status line says so) */
    double busy_ms;         /* for that long */
} viewer;

/* ---- strokes.c: the viewer's state and the model */

/* Load the image at path as 8-bit RGB; 0, or 1 after printing the error. */
int load_rgb(const char *path, gcut_image **out);

/* load_rgb, then, when replay is not NULL, the strokes of that file for
 * the image (strokes_read; else none); 0, or 1 after printing the error
 * (nothing to free then). */
int load_image_and_strokes(const char *path, const char *replay, gcut_image **img, stroke **in,
                           int32_t *nin);

/* A viewer of img (kept, not owned) with the settings of o; 0, or 1 after
 * printing the error (viewer_free then frees what was allocated). */
int viewer_init(viewer *v, gcut_image *img, const view_options *o);
/* Whether a rectangle is among the strokes done (its outside is then
 * background without being painted red). */
int view_has_rect(const viewer *v);
void viewer_free(viewer *v);

/* The message line under the status line (fmt takes one string). */
void set_msg(viewer *v, const char *fmt, const char *arg);

/* Cut from scratch with the seeds of the applied strokes; 1 when the
 * solve failed (the message line says why). */
int resegment_full(viewer *v);

/* A new stroke (dropping those that could have been redone), points added
 * while painting (live warm updates), the release (recorded, then cut);
 * what the window's mouse events and the replay do. */
stroke *stroke_begin(viewer *v, int kind, int32_t radius);
void stroke_extend(viewer *v, stroke *st, int32_t x, int32_t y);
void stroke_end(viewer *v);

/* Interactive mode: take the worker's newest mask, if any, into v (the
 * message line says why when its cut failed); 1 when something changed. */
int view_take_result(viewer *v);

/* Replay one stroke as if painted: point by point, then the release. */
void replay_stroke(viewer *v, const stroke *in);

#endif
