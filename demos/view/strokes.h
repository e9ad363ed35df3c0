/*
 * strokes.h - gcut-view's strokes and the stroke file format.
 *
 * Stroke files (gcut-view --record writes one, --replay reads one), plain
 * text, one item per line, image pixel coordinates, '#' starts a comment:
 *     fg RADIUS x1 y1 x2 y2 ...   foreground stroke (discs along the polyline)
 *     bg RADIUS x1 y1 x2 y2 ...   background stroke
 *     rect X Y W H                GrabCut rectangle (resets the seeds)
 */
#ifndef GCUT_DEMOS_VIEW_STROKES_H
#define GCUT_DEMOS_VIEW_STROKES_H

#include <stdint.h>
#include <stdio.h>

enum { STROKE_FG = 1, STROKE_BG = 2, STROKE_RECT = 3 };

typedef struct stroke {
    int kind;
    int32_t radius;
    int32_t count, cap; /* points (pairs in xy); rect: x y w h in xy */
    int32_t *xy;
} stroke;

/* Append the point (x, y); -1 when out of memory. */
int stroke_push(stroke *st, int32_t x, int32_t y);

/* One line of the stroke file format. */
void stroke_write(FILE *f, const stroke *st);

/* Parse a stroke file for an image of w x h into a new array *out of
 * *count strokes (free with strokes_free); 0, or 1 after printing the
 * first error ("PROG: FILE:LINE: ..."). */
int strokes_read(const char *path, int32_t w, int32_t h, stroke **out, int32_t *count);

/* Free n strokes and the array. */
void strokes_free(stroke *list, int32_t n);

#endif
