/*
 * render.h - gcut-view's drawing (render.c): the frame in v->frame, the
 * view fitted to it, and the PNG outputs.
 */
#ifndef GCUT_DEMOS_VIEW_RENDER_H
#define GCUT_DEMOS_VIEW_RENDER_H

#include <stdint.h>

#include "view_internal.h"

/* Compose the frame: the image at the current zoom and pan, the brush
 * circle at (mx, my) unless mx < 0, the rectangle being dragged (x y w h,
 * or NULL), the status line, the help box. */
void render_frame(viewer *v, int32_t mx, int32_t my, const int32_t *drag_rect);

/* Zoom that fits the image in the frame, centred. */
void view_fit(viewer *v);

/* A frame of fw x fh pixels (the text scale follows); 1 when out of memory. */
int frame_alloc(viewer *v, int32_t fw, int32_t fh);

/* The frame as an RGB PNG; 0, or 1 after printing the error. */
int save_frame(const viewer *v, const char *path);

/* kind 0: mask; 1: RGBA cut-out; 2: seed picture (255 fg, 0 bg, 128
 * unknown). 0, or 1 after printing the error. */
int save_plane(const viewer *v, const char *path, int kind);

#endif
