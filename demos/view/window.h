/*
 * window.h - gcut-view's SDL2 window (window.c): open, show a frame, read
 * it back, and the interactive loop.
 */
#ifndef GCUT_DEMOS_VIEW_WINDOW_H
#define GCUT_DEMOS_VIEW_WINDOW_H

#include <stdint.h>

#include <SDL.h>

#include "view_internal.h"

typedef struct window {
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Texture *tex;
    int32_t tw, th;
} window;

/* A window of w x h points (SDL's video must be started); 0, or 1 after
 * printing the error. */
int window_open(window *wd, int32_t w, int32_t h, int hidden);
void window_close(window *wd);

/* Show v->frame. */
void window_present(viewer *v, window *wd);

/* Frame size in pixels: the renderer's output (HiDPI: larger than the
 * window's size in points), or the window size; *fw, *fh kept when
 * neither is known. */
void output_size(window *wd, int32_t *fw, int32_t *fh);

/* Read the window's pixels back and print how many differ from the frame
 * (`window: WxH, N pixels differ from the screenshot`). */
void window_check(const viewer *v, window *wd);

/* The interactive loop, until the window is closed or q; 0, or 1 when out
 * of memory. */
int run_window(viewer *v, window *wd);

#endif
