/*
 * worker.c - gcut-view's cut worker (worker.h): one thread that runs the
 * cuts of the interactive viewer, the newest job first.
 *
 * Invariants (all under `mu` unless said otherwise):
 *  - `pending` is the newest job not yet started (its seeds in pseeds);
 *    posting a job replaces it, and sets `cancel` when a job runs;
 *  - `cancel` (atomic) is read by the progress callback of the running
 *    cut without the lock: non-zero makes the library stop the cut with
 *    GCUT_ERR_INTERRUPTED; the worker clears it when it starts a job;
 *  - the session `s`, its seeds `cur`, and `wmask` belong to the worker
 *    thread alone; `cur` always equals the seeds the session holds;
 *  - `rmask` / `res` hold the last finished, not superseded job's mask and
 *    result, `res.seq` > `taken` when the window has not taken it yet.
 *
 * An update job that is cancelled leaves the session usable (segment.h):
 * the seeds it gave are kept in `cur`, and the next update job moves what
 * changed since the models were last updated, which includes them.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "worker.h"

struct view_worker {
    const gcut_image *img;
    int64_t n;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t wake; /* a job was posted, or quit */
    pthread_cond_t idle; /* a job ended */
    int quit, running, has_pending;
    view_job pending;
    uint8_t *pseeds; /* the pending job's seeds */
    uint64_t seq;    /* the last job posted */
    uint64_t taken;  /* the last result taken */
    double busy_since;
    atomic_int cancel;
    int64_t cancelled, finished;
    void (*hook)(void *user, const gcut_progress *p);
    void *hook_user;
    /* the worker thread's own */
    gcut_seg_session *s;
    view_job sjob;   /* the settings the session was made with */
    uint8_t *cur;    /* the seeds the session holds */
    uint8_t *wseeds; /* the running job's seeds */
    uint8_t *wmask;  /* its mask */
    int32_t *list;   /* pixels whose seeds changed */
    /* the last finished job */
    uint8_t *rmask;
    view_result res;
};

/* The progress callback of the worker's cuts: a newer job cancels. */
static int worker_progress(const gcut_progress *p, void *user)
{
    view_worker *w = user;
    if (w->hook)
        w->hook(w->hook_user, p);
    return atomic_load(&w->cancel);
}

static void job_options(view_worker *w, const view_job *job, gcut_seg_options *p)
{
    gcut_seg_options_init(p);
    p->lambda = job->lambda;
    p->connectivity = job->conn;
    p->solve.backend = job->backend;
    p->solve.progress = worker_progress;
    p->solve.progress_user = w;
}

static int same_settings(const view_job *a, const view_job *b)
{
    return a->lambda == b->lambda && a->conn == b->conn && !strcmp(a->backend, b->backend);
}

/* Run one job on the worker's thread: the status, the mask in wmask. */
static gcut_status run_job(view_worker *w, const view_job *job, view_result *r)
{
    int have_seed = 0;
    for (int64_t p = 0; p < w->n && !have_seed; p++)
        have_seed = w->wseeds[p] != GCUT_SEED_UNKNOWN;
    if (!have_seed) {
        gcut_seg_session_free(w->s);
        w->s = NULL;
        r->have_mask = 0;
        return GCUT_OK;
    }
    gcut_seg_stats st;
    memset(&st, 0, sizeof st);
    gcut_status rc;
    if ((job->kind == VIEW_JOB_WARM || job->kind == VIEW_JOB_UPDATE) && w->s &&
        same_settings(job, &w->sjob)) {
        /* The seeds that changed, by label, then a warm solve. */
        static const uint8_t labels[3] = {GCUT_SEED_UNKNOWN, GCUT_SEED_FG, GCUT_SEED_BG};
        for (int k = 0; k < 3; k++) {
            int32_t m = 0;
            for (int64_t p = 0; p < w->n; p++)
                if (w->wseeds[p] != w->cur[p] && w->wseeds[p] == labels[k])
                    w->list[m++] = (int32_t)p;
            if ((rc = gcut_seg_session_add_stroke(w->s, labels[k], w->list, m)) != GCUT_OK)
                return rc;
            for (int32_t i = 0; i < m; i++)
                w->cur[w->list[i]] = labels[k];
        }
        rc = job->kind == VIEW_JOB_UPDATE ? gcut_seg_session_update_models(w->s, w->wmask, &st)
                                          : gcut_seg_session_solve(w->s, w->wmask, &st);
    } else {
        gcut_seg_session_free(w->s);
        w->s = NULL;
        gcut_seg_options p;
        job_options(w, job, &p);
        if ((rc = gcut_seg_session_new(&w->s, w->img, w->wseeds, &p)) != GCUT_OK)
            return rc;
        w->sjob = *job;
        memcpy(w->cur, w->wseeds, (size_t)w->n);
        /* A cut interrupted below leaves a usable session: the next warm
         * job goes on with it. */
        rc = job->grabcut ? gcut_seg_session_grabcut(w->s, 5, w->wmask, &st)
                          : gcut_seg_session_solve(w->s, w->wmask, &st);
    }
    if (rc == GCUT_OK) {
        r->have_mask = 1;
        r->warm = st.warm_start;
        r->backend = st.backend;
    }
    return rc;
}

static void *worker_main(void *arg)
{
    view_worker *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->has_pending && !w->quit)
            pthread_cond_wait(&w->wake, &w->mu);
        if (w->quit)
            break;
        const view_job job = w->pending;
        const uint64_t seq = w->seq;
        memcpy(w->wseeds, w->pseeds, (size_t)w->n);
        w->has_pending = 0;
        w->running = 1;
        atomic_store(&w->cancel, 0);
        pthread_mutex_unlock(&w->mu);

        view_result r;
        memset(&r, 0, sizeof r);
        r.seq = seq;
        const double t0 = cli_now_ms();
        gcut_status rc = run_job(w, &job, &r);
        r.ms = cli_now_ms() - t0;
        r.ok = rc == GCUT_OK;
        if (!r.ok)
            snprintf(r.error, sizeof r.error, "%s", gcut_last_error());
        if (rc != GCUT_OK && rc != GCUT_ERR_INTERRUPTED) {
            /* A failed cut: start the next one afresh. */
            gcut_seg_session_free(w->s);
            w->s = NULL;
        }

        pthread_mutex_lock(&w->mu);
        w->running = 0;
        if (rc == GCUT_ERR_INTERRUPTED && w->has_pending) {
            w->cancelled++; /* superseded: the newer job answers */
        } else {
            w->finished++;
            if (r.ok && r.have_mask)
                memcpy(w->rmask, w->wmask, (size_t)w->n);
            w->res = r;
        }
        pthread_cond_broadcast(&w->idle);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Free the worker's buffers and the worker (what view_worker_new allocates
 * before its thread and synchronisation objects). */
static void free_buffers(view_worker *w)
{
    free(w->pseeds);
    free(w->cur);
    free(w->wseeds);
    free(w->wmask);
    free(w->rmask);
    free(w->list);
    free(w);
}

view_worker *view_worker_new(const gcut_image *img)
{
    view_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->img = img;
    w->n = (int64_t)img->width * img->height;
    const size_t n = (size_t)w->n;
    w->pseeds = malloc(n);
    w->cur = malloc(n);
    w->wseeds = malloc(n);
    w->wmask = malloc(n);
    w->rmask = malloc(n);
    w->list = malloc(n * sizeof *w->list);
    atomic_init(&w->cancel, 0);
    if (!w->pseeds || !w->cur || !w->wseeds || !w->wmask || !w->rmask || !w->list ||
        pthread_mutex_init(&w->mu, NULL)) {
        free_buffers(w);
        return NULL;
    }
    pthread_cond_init(&w->wake, NULL);
    pthread_cond_init(&w->idle, NULL);
    if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
        pthread_cond_destroy(&w->wake);
        pthread_cond_destroy(&w->idle);
        pthread_mutex_destroy(&w->mu);
        free_buffers(w);
        return NULL;
    }
    return w;
}

void view_worker_free(view_worker *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    atomic_store(&w->cancel, 1);
    pthread_cond_broadcast(&w->wake);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    gcut_seg_session_free(w->s);
    pthread_cond_destroy(&w->wake);
    pthread_cond_destroy(&w->idle);
    pthread_mutex_destroy(&w->mu);
    free_buffers(w);
}

uint64_t view_worker_post(view_worker *w, const view_job *job, const uint8_t *seeds)
{
    pthread_mutex_lock(&w->mu);
    if (!w->has_pending && !w->running)
        w->busy_since = cli_now_ms();
    w->pending = *job;
    memcpy(w->pseeds, seeds, (size_t)w->n);
    w->has_pending = 1;
    const uint64_t seq = ++w->seq;
    if (w->running)
        atomic_store(&w->cancel, 1);
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->mu);
    return seq;
}

int view_worker_take(view_worker *w, uint8_t *mask, view_result *r)
{
    pthread_mutex_lock(&w->mu);
    const int fresh = w->res.seq > w->taken;
    if (fresh) {
        *r = w->res;
        w->taken = w->res.seq;
        if (r->ok && r->have_mask)
            memcpy(mask, w->rmask, (size_t)w->n);
    }
    pthread_mutex_unlock(&w->mu);
    return fresh;
}

int view_worker_busy(view_worker *w, double *elapsed_ms)
{
    pthread_mutex_lock(&w->mu);
    const int busy = w->has_pending || w->running;
    if (elapsed_ms)
        *elapsed_ms = busy ? cli_now_ms() - w->busy_since : 0.0;
    pthread_mutex_unlock(&w->mu);
    return busy;
}

void view_worker_wait(view_worker *w)
{
    pthread_mutex_lock(&w->mu);
    while (w->has_pending || w->running)
        pthread_cond_wait(&w->idle, &w->mu);
    pthread_mutex_unlock(&w->mu);
}

void view_worker_counts(view_worker *w, int64_t *cancelled, int64_t *finished)
{
    pthread_mutex_lock(&w->mu);
    if (cancelled)
        *cancelled = w->cancelled;
    if (finished)
        *finished = w->finished;
    pthread_mutex_unlock(&w->mu);
}

void view_worker_set_hook(view_worker *w, void (*fn)(void *user, const gcut_progress *p),
                          void *user)
{
    pthread_mutex_lock(&w->mu);
    w->hook = fn;
    w->hook_user = user;
    pthread_mutex_unlock(&w->mu);
}

/* ------------------------------------------------------------ save names */

int view_save_name(const char *image_path, const char *what, char *out, size_t n)
{
    /* The stem: the path without the extension of its last component. */
    const char *slash = strrchr(image_path, '/');
    const char *base = slash ? slash + 1 : image_path;
    const char *dot = strrchr(base, '.');
    const size_t stem = dot && dot != base ? (size_t)(dot - image_path) : strlen(image_path);
    for (int k = 0; k < 10000; k++) {
        char suffix[32];
        if (k)
            snprintf(suffix, sizeof suffix, "-%d", k);
        else
            suffix[0] = 0;
        const int len = snprintf(out, n, "%.*s-%s%s.png", (int)stem, image_path, what, suffix);
        if (len < 0 || (size_t)len >= n) {
            errno = ENAMETOOLONG;
            return -1;
        }
        const int fd = open(out, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd >= 0) {
            close(fd);
            return 0;
        }
        if (errno != EEXIST)
            return -1;
    }
    errno = EEXIST;
    return -1;
}
