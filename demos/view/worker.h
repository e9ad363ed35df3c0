/*
 * worker.h - gcut-view's cut worker: the cuts and the re-learning of the
 * colour models run on a thread of their own (pthreads), so that the
 * window keeps drawing and handling events while they run.
 *
 * The window's thread posts jobs (a copy of the seeds and the settings);
 * a newer job supersedes the one waiting and cancels the one running,
 * through the progress callback of its solve options (gcut_progress_fn,
 * which then returns non-zero: the library stops the cut with
 * GCUT_ERR_INTERRUPTED and the session stays usable). The worker then
 * takes the newest job: a warm job gives the session only the seeds that
 * changed since its last cut and re-solves warm, a full job learns new
 * models from all the seeds (GrabCut after a rectangle). The window's
 * thread takes the finished masks when it draws (view_worker_take).
 *
 * Thread safety: the functions below are meant for one thread (the
 * window's); each takes the worker's lock, so a test may poll
 * view_worker_busy from another. The worker calls the test hook on its
 * own thread. The
 * replay does not use the worker: its cuts run in order on the main
 * thread, which keeps its masks what they always were.
 */
#ifndef GCUT_DEMOS_VIEW_WORKER_H
#define GCUT_DEMOS_VIEW_WORKER_H

#include <stdint.h>

#include "gcut/gcut.h"
#include "gcut/vision/image.h"
#include "gcut/vision/segment.h"

enum {
    VIEW_JOB_FULL = 1,  /* a new session from all the seeds (models re-learnt) */
    VIEW_JOB_WARM = 2,  /* the seeds that changed, then a warm solve (models kept) */
    VIEW_JOB_UPDATE = 3 /* the seeds that changed, then the models updated from them and a
                         * warm solve (gcut_seg_session_update_models) */
};

/* What a job does. A warm or update job without a session, or with
 * settings other than the session's, runs as a full one. */
typedef struct view_job {
    int kind;         /* VIEW_JOB_FULL, VIEW_JOB_WARM or VIEW_JOB_UPDATE */
    int grabcut;      /* a full job: GrabCut iterations (a rectangle is among the strokes) */
    double lambda;    /* smoothness weight */
    int32_t conn;     /* 4 or 8 */
    char backend[64]; /* max-flow back end */
} view_job;

/* What the last finished job gave. */
typedef struct view_result {
    uint64_t seq;        /* the job's number (view_worker_post's) */
    int ok;              /* 0: it failed, error says why (no mask taken) */
    int have_mask;       /* 0: no seeds, no mask */
    double ms;           /* the job's time (its cut, not the wait) */
    int warm;            /* the solve was warm */
    const char *backend; /* back end of the solve (static string) */
    char error[512];     /* the library's message when !ok */
} view_result;

typedef struct view_worker view_worker;

/* A worker for img (kept, not owned; RGB 8 bits, read by the worker while
 * jobs run) with its thread started; NULL when out of memory or no thread. */
view_worker *view_worker_new(const gcut_image *img);

/* Cancel what runs, stop the thread, free everything (NULL: no-op). */
void view_worker_free(view_worker *w);

/* Post a job on a copy of seeds (width * height bytes): it supersedes the
 * job waiting, and cancels the one running. Returns its number (from 1). */
uint64_t view_worker_post(view_worker *w, const view_job *job, const uint8_t *seeds);

/* A result newer than the last one taken: 1, the mask copied into mask
 * (when r->ok and r->have_mask) and *r filled; else 0. Results of jobs
 * that were superseded are never given. */
int view_worker_take(view_worker *w, uint8_t *mask, view_result *r);

/* 1 while a job waits or runs, with *elapsed_ms since the oldest job not
 * yet answered was posted (may be NULL). */
int view_worker_busy(view_worker *w, double *elapsed_ms);

/* Block until no job waits or runs (tests; the replay never needs it). */
void view_worker_wait(view_worker *w);

/* Jobs cancelled by a newer one so far, and jobs that ran to the end. */
void view_worker_counts(view_worker *w, int64_t *cancelled, int64_t *finished);

/* Test hook: called on the worker's thread at each progress report of a
 * cut (before the cancel flag is read); NULL: none. Set before posting. */
void view_worker_set_hook(view_worker *w, void (*fn)(void *user, const gcut_progress *p),
                          void *user);

/* The save key's file name for the image at image_path: next to it, the
 * name with "-WHAT.png" in place of its extension ("photo.png", "mask":
 * "photo-mask.png"), then "photo-mask-1.png", "-2" ... the first that
 * does not exist. The name is reserved (created empty, O_EXCL) so that no
 * other save takes it; the caller writes over it or removes it. 0 and the
 * name in out (size n), or -1 with errno set. */
int view_save_name(const char *image_path, const char *what, char *out, size_t n);

#endif
