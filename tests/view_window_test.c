/*
 * view_window_test.c - gcut-view's interactive loop (demos/view/window.c)
 * with its cut worker, under SDL's dummy video driver: a thread plays the
 * mouse (a foreground and a background stroke) and the keys into SDL's
 * event queue while the loop runs; the save key then writes the mask next
 * to the image under a name derived from it, and that mask is the one the
 * replay computes from the same strokes. A second save never overwrites
 * the first. Not a cmocka suite: it needs SDL2 (CTest test_view_window).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <SDL.h>

#include "render.h"
#include "view_internal.h"
#include "window.h"
#include "worker.h"

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "FAIL: " __VA_ARGS__);                                                     \
        fputc('\n', stderr);                                                                       \
        exit(1);                                                                                   \
    } while (0)

/* The strokes, in image pixels (radius: the viewer's default brush, 4). */
static const int32_t fg_pts[][2] = {{85, 70}, {95, 75}, {108, 72}, {115, 80}, {100, 95}};
static const int32_t bg_pts[][2] = {{10, 10}, {60, 8}, {120, 12}, {190, 10}, {190, 140}};
#define NPTS 5

typedef struct player {
    viewer *v;
    double zoom, ox, oy;
    int saves;
} player;

static void push_mouse(Uint32 type, Uint8 button, int32_t x, int32_t y, const player *p)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = type;
    const int sx = (int)(p->ox + (x + 0.5) * p->zoom), sy = (int)(p->oy + (y + 0.5) * p->zoom);
    if (type == SDL_MOUSEMOTION) {
        e.motion.x = sx;
        e.motion.y = sy;
    } else {
        e.button.button = button;
        e.button.x = sx;
        e.button.y = sy;
    }
    if (SDL_PushEvent(&e) != 1)
        FAIL("SDL_PushEvent: %s", SDL_GetError());
}

static void push_key(SDL_Keycode k)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = k;
    SDL_PushEvent(&e);
}

static void stroke_events(const player *p, Uint8 button, const int32_t (*pts)[2])
{
    push_mouse(SDL_MOUSEBUTTONDOWN, button, pts[0][0], pts[0][1], p);
    for (int i = 1; i < NPTS; i++)
        push_mouse(SDL_MOUSEMOTION, 0, pts[i][0], pts[i][1], p);
    push_mouse(SDL_MOUSEBUTTONUP, button, pts[NPTS - 1][0], pts[NPTS - 1][1], p);
}

static void wait_idle(view_worker *w)
{
    /* The events are queued: wait until the loop has posted the jobs and
     * the worker has answered them. */
    const struct timespec ms20 = {0, 20 * 1000 * 1000};
    for (int quiet = 0; quiet < 10;) {
        nanosleep(&ms20, NULL);
        quiet = view_worker_busy(w, NULL) ? 0 : quiet + 1;
    }
}

static void *play(void *arg)
{
    player *p = arg;
    stroke_events(p, SDL_BUTTON_LEFT, fg_pts);
    stroke_events(p, SDL_BUTTON_RIGHT, bg_pts);
    wait_idle(p->v->async);
    push_key(SDLK_s);
    push_key(SDLK_s);
    const struct timespec ms100 = {0, 100 * 1000 * 1000};
    nanosleep(&ms100, NULL);
    SDL_Event e; /* closing the window (a key would clear the message line) */
    memset(&e, 0, sizeof e);
    e.type = SDL_QUIT;
    SDL_PushEvent(&e);
    return NULL;
}

static uint8_t *load_mask(const char *path, int32_t n)
{
    gcut_image *m = NULL;
    if (gcut_image_load(path, &m) != GCUT_OK)
        FAIL("%s", gcut_last_error());
    if (m->channels != 1 || m->width * m->height != n)
        FAIL("%s: not a %d-pixel gray mask", path, (int)n);
    uint8_t *b = malloc((size_t)n);
    for (int32_t y = 0; y < m->height; y++)
        memcpy(b + (size_t)y * m->width, m->data + (size_t)y * m->stride, (size_t)m->width);
    gcut_image_free(m);
    return b;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        FAIL("usage: view_window_test IMAGE.png");
    char dir[] = "/tmp/gcut-view-window-XXXXXX";
    if (!mkdtemp(dir))
        FAIL("mkdtemp");
    char img_path[256], cmd[600];
    snprintf(img_path, sizeof img_path, "%s/photo.png", dir);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", argv[1], img_path);
    if (system(cmd) != 0)
        FAIL("%s", cmd);
    gcut_image *img = NULL;
    if (load_rgb(img_path, &img))
        FAIL("load");
    view_options o;
    memset(&o, 0, sizeof o);
    o.lambda = -1;

    /* The reference: the same strokes through the replay's path. */
    viewer ref;
    if (viewer_init(&ref, img, &o))
        FAIL("viewer_init");
    stroke in[2];
    memset(in, 0, sizeof in);
    for (int s = 0; s < 2; s++) {
        in[s].kind = s ? STROKE_BG : STROKE_FG;
        in[s].radius = 4;
        for (int i = 0; i < NPTS; i++)
            stroke_push(&in[s], s ? bg_pts[i][0] : fg_pts[i][0], s ? bg_pts[i][1] : fg_pts[i][1]);
        replay_stroke(&ref, &in[s]);
    }
    if (!ref.have_mask || ref.failed)
        FAIL("reference replay");

    /* The window, its loop and the worker; a thread plays the events. */
    SDL_SetHint(SDL_HINT_VIDEODRIVER, "dummy");
    if (SDL_Init(SDL_INIT_VIDEO) != 0)
        FAIL("SDL_Init: %s", SDL_GetError());
    viewer v;
    window wd;
    if (viewer_init(&v, img, &o) || window_open(&wd, 400, 300, 1) || frame_alloc(&v, 400, 300))
        FAIL("window");
    view_fit(&v);
    v.image_path = img_path;
    if (!(v.async = view_worker_new(img)))
        FAIL("worker");
    player p = {&v, v.zoom, v.ox, v.oy, 0};
    pthread_t t;
    if (pthread_create(&t, NULL, play, &p))
        FAIL("thread");
    const int rc = run_window(&v, &wd);
    pthread_join(t, NULL);
    if (rc)
        FAIL("run_window: %d", rc);
    int64_t cancelled = 0, finished = 0;
    view_worker_counts(v.async, &cancelled, &finished);
    view_worker_free(v.async);
    v.async = NULL;
    window_close(&wd);
    SDL_Quit();
    if (v.nstrokes != 2 || v.ndone != 2)
        FAIL("strokes: %d painted, %d done", (int)v.nstrokes, (int)v.ndone);
    if (memcmp(v.seeds, ref.seeds, (size_t)v.n) != 0)
        FAIL("the painted seeds differ from the replay's");

    /* Two saves: photo-mask.png, then photo-mask-1.png, both the replay's
     * mask; the cut-outs beside them. */
    const char *names[] = {"photo-mask.png", "photo-mask-1.png", "photo-cutout.png",
                           "photo-cutout-1.png"};
    for (int i = 0; i < 4; i++) {
        char path[400];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat sb;
        if (stat(path, &sb) != 0 || sb.st_size == 0)
            FAIL("%s not saved", path);
        if (i < 2) {
            uint8_t *m = load_mask(path, v.n);
            if (memcmp(m, ref.mask, (size_t)v.n) != 0)
                FAIL("%s differs from the replay's mask", path);
            free(m);
        }
    }
    if (strstr(v.msg, "SAVED photo-mask-1.png") == NULL)
        FAIL("message line: '%s'", v.msg);
    printf("window: 2 strokes, %lld jobs finished, %lld cancelled; saved %s/photo-mask.png and "
           "photo-mask-1.png (the replay's mask)\n",
           (long long)finished, (long long)cancelled, dir);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        FAIL("%s", cmd);
    free(in[0].xy);
    free(in[1].xy);
    viewer_free(&v);
    viewer_free(&ref);
    gcut_image_free(img);
    return 0;
}
