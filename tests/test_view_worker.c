/*
 * test_view_worker.c - gcut-view's cut worker (demos/view/worker.h): a
 * full job gives the replay's mask, a warm job the warm re-solve of the
 * same session, an update job its model update, a newer job cancels the running one through the
 * progress callback (and the session then re-solves warm), the window's calls never wait for a cut;
 * and the save key's file names; the overlay's kept rows (render.c) equal
 * a drawing from scratch. Run under ThreadSanitizer too (docs/viewer.md, "Testing").
 */
#define GCUT_ALLOW_EXPERIMENTAL /* gcut_seg_session_update_models */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "render.h"
#include "view_internal.h"
#include "worker.h"

#define BLOB GCUT_SOURCE_DIR "/images/blob.png"
#define BLOB_STROKES GCUT_SOURCE_DIR "/images/blob.strokes"

/* The image, and the seeds and mask of the replay of blob.strokes (the
 * synchronous path of --replay). */
typedef struct fixture {
    gcut_image *img;
    stroke *in;
    int32_t nin;
    viewer v;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    view_options o;
    memset(&o, 0, sizeof o);
    o.lambda = -1;
    if (!f || load_image_and_strokes(BLOB, BLOB_STROKES, &f->img, &f->in, &f->nin) ||
        viewer_init(&f->v, f->img, &o))
        return -1;
    for (int32_t i = 0; i < f->nin; i++)
        replay_stroke(&f->v, &f->in[i]);
    if (!f->v.have_mask || f->v.failed)
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    viewer_free(&f->v);
    strokes_free(f->in, f->nin);
    gcut_image_free(f->img);
    free(f);
    return 0;
}

static view_job job_of(int kind)
{
    view_job j;
    memset(&j, 0, sizeof j);
    j.kind = kind;
    j.lambda = 50;
    j.conn = 8;
    snprintf(j.backend, sizeof j.backend, "auto");
    return j;
}

/* The mask of a session learnt from seeds a, then given seeds b and cut
 * (warm == cold: grid.h): what a warm job after a full one must give. */
static void session_mask(const gcut_image *img, const uint8_t *a, const uint8_t *b, uint8_t *mask)
{
    gcut_seg_session *s = NULL;
    assert_int_equal(gcut_seg_session_new(&s, img, a, NULL), GCUT_OK);
    if (b)
        assert_int_equal(gcut_seg_session_set_seeds(s, b), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(s, mask, NULL), GCUT_OK);
    gcut_seg_session_free(s);
}

/* A disc of foreground seeds of radius r at (cx, cy). */
static void paint(uint8_t *seeds, int32_t w, int32_t h, int32_t cx, int32_t cy, int32_t r,
                  uint8_t label)
{
    for (int32_t y = cy - r; y <= cy + r; y++)
        for (int32_t x = cx - r; x <= cx + r; x++)
            if (x >= 0 && y >= 0 && x < w && y < h &&
                (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
                seeds[x + (int64_t)w * y] = label;
}

/* A full job gives the replay's mask; a warm job the session's warm cut. */
static void test_full_and_warm(void **state)
{
    fixture *f = *state;
    const int32_t w = f->v.w, h = f->v.h, n = f->v.n;
    view_worker *wk = view_worker_new(f->img);
    assert_non_null(wk);
    uint8_t *mask = malloc((size_t)n), *ref = malloc((size_t)n), *b = malloc((size_t)n);
    view_job full = job_of(VIEW_JOB_FULL);
    assert_int_equal(view_worker_post(wk, &full, f->v.seeds), 1);
    view_worker_wait(wk);
    assert_false(view_worker_busy(wk, NULL));
    view_result r;
    assert_int_equal(view_worker_take(wk, mask, &r), 1);
    assert_true(r.ok && r.have_mask);
    assert_int_equal(r.seq, 1);
    assert_memory_equal(mask, f->v.mask, (size_t)n);
    assert_int_equal(view_worker_take(wk, mask, &r), 0); /* taken once */

    /* A new background disc inside the blob's box, then a warm job. */
    memcpy(b, f->v.seeds, (size_t)n);
    paint(b, w, h, 100, 75, 3, GCUT_SEED_BG);
    view_job warm = job_of(VIEW_JOB_WARM);
    assert_int_equal(view_worker_post(wk, &warm, b), 2);
    view_worker_wait(wk);
    assert_int_equal(view_worker_take(wk, mask, &r), 1);
    assert_true(r.ok);
    session_mask(f->img, f->v.seeds, b, ref);
    assert_memory_equal(mask, ref, (size_t)n);
    int64_t cancelled, finished;
    view_worker_counts(wk, &cancelled, &finished);
    assert_int_equal(cancelled, 0);
    assert_int_equal(finished, 2);

    /* A failing job: the library's message, and the next job works. */
    view_job bad = job_of(VIEW_JOB_FULL);
    snprintf(bad.backend, sizeof bad.backend, "nope");
    view_worker_post(wk, &bad, f->v.seeds);
    view_worker_wait(wk);
    memset(mask, 0x77, (size_t)n);
    assert_int_equal(view_worker_take(wk, mask, &r), 1);
    assert_false(r.ok);
    if (!strstr(r.error, "nope"))
        fail_msg("error: %s", r.error);
    assert_int_equal(mask[0], 0x77);
    view_worker_post(wk, &full, f->v.seeds);
    view_worker_wait(wk);
    assert_int_equal(view_worker_take(wk, mask, &r), 1);
    assert_memory_equal(mask, f->v.mask, (size_t)n);
    view_worker_free(wk);
    free(mask);
    free(ref);
    free(b);
}

/* The hook holds the first job's first progress report until the test has
 * posted a newer job: that job cancels it, deterministically. */
typedef struct hold {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int armed, entered, released;
    char phase[32];
} hold;

static void hold_hook(void *user, const gcut_progress *p)
{
    hold *h = user;
    pthread_mutex_lock(&h->mu);
    if (h->armed && !h->entered) {
        h->entered = 1;
        snprintf(h->phase, sizeof h->phase, "%s", p->phase);
        pthread_cond_broadcast(&h->cv);
        while (!h->released)
            pthread_cond_wait(&h->cv, &h->mu);
    }
    pthread_mutex_unlock(&h->mu);
}

static void hold_wait_entered(hold *h)
{
    pthread_mutex_lock(&h->mu);
    while (!h->entered)
        pthread_cond_wait(&h->cv, &h->mu);
    pthread_mutex_unlock(&h->mu);
}

static void hold_release(hold *h)
{
    pthread_mutex_lock(&h->mu);
    h->released = 1;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

static void hold_arm(hold *h)
{
    pthread_mutex_lock(&h->mu);
    h->armed = 1;
    h->entered = h->released = 0;
    pthread_mutex_unlock(&h->mu);
}

static void test_newer_job_cancels(void **state)
{
    fixture *f = *state;
    const int32_t w = f->v.w, h = f->v.h, n = f->v.n;
    view_worker *wk = view_worker_new(f->img);
    assert_non_null(wk);
    hold hd;
    memset(&hd, 0, sizeof hd);
    pthread_mutex_init(&hd.mu, NULL);
    pthread_cond_init(&hd.cv, NULL);
    view_worker_set_hook(wk, hold_hook, &hd);
    uint8_t *mask = malloc((size_t)n), *ref = malloc((size_t)n), *b = malloc((size_t)n),
            *c = malloc((size_t)n);

    /* 1. A full job held in its first report, superseded by another full
     *    job: the first is cancelled, only the second answers. */
    hold_arm(&hd);
    view_job full = job_of(VIEW_JOB_FULL);
    memcpy(b, f->v.seeds, (size_t)n);
    paint(b, w, h, 60, 75, 2, GCUT_SEED_BG);
    assert_int_equal(view_worker_post(wk, &full, b), 1);
    hold_wait_entered(&hd);
    double ms = -1;
    assert_true(view_worker_busy(wk, &ms)); /* the window's call does not wait */
    assert_true(ms >= 0);
    view_result r;
    assert_int_equal(view_worker_take(wk, mask, &r), 0);
    assert_int_equal(view_worker_post(wk, &full, f->v.seeds), 2);
    hold_release(&hd);
    view_worker_wait(wk);
    int64_t cancelled, finished;
    view_worker_counts(wk, &cancelled, &finished);
    assert_int_equal(cancelled, 1);
    assert_int_equal(finished, 1);
    assert_int_equal(view_worker_take(wk, mask, &r), 1);
    assert_int_equal(r.seq, 2);
    assert_true(r.ok);
    assert_memory_equal(mask, f->v.mask, (size_t)n);
    assert_string_equal(hd.phase, "smoothness");

    /* 2. A warm job held in its cut, superseded by a warm job: the session
     *    keeps the first job's seeds and re-solves warm with the newest. */
    hold_arm(&hd);
    view_job warm = job_of(VIEW_JOB_WARM);
    memcpy(b, f->v.seeds, (size_t)n);
    paint(b, w, h, 100, 75, 3, GCUT_SEED_BG);
    memcpy(c, b, (size_t)n);
    paint(c, w, h, 95, 80, 2, GCUT_SEED_FG);
    assert_int_equal(view_worker_post(wk, &warm, b), 3);
    hold_wait_entered(&hd);
    assert_int_equal(view_worker_post(wk, &warm, c), 4);
    hold_release(&hd);
    view_worker_wait(wk);
    view_worker_counts(wk, &cancelled, &finished);
    assert_int_equal(cancelled, 2);
    assert_int_equal(finished, 2);
    assert_int_equal(view_worker_take(wk, mask, &r), 1);
    assert_int_equal(r.seq, 4);
    assert_true(r.ok);
    assert_string_equal(hd.phase, "solve");
    session_mask(f->img, f->v.seeds, c, ref);
    assert_memory_equal(mask, ref, (size_t)n);

    /* 3. Freeing the worker while a job is held cancels it. */
    hold_arm(&hd);
    view_worker_post(wk, &full, b);
    hold_wait_entered(&hd);
    hold_release(&hd);
    view_worker_free(wk);
    pthread_cond_destroy(&hd.cv);
    pthread_mutex_destroy(&hd.mu);
    free(mask);
    free(ref);
    free(b);
    free(c);
}

/* The mask of a session learnt from seeds a, given seeds b, with its
 * models updated (gcut_seg_session_update_models): what an update job
 * after a full one must give. */
static void update_mask(const gcut_image *img, const uint8_t *a, const uint8_t *b, uint8_t *mask)
{
    gcut_seg_session *s = NULL;
    assert_int_equal(gcut_seg_session_new(&s, img, a, NULL), GCUT_OK);
    assert_int_equal(gcut_seg_session_solve(s, mask, NULL), GCUT_OK);
    assert_int_equal(gcut_seg_session_set_seeds(s, b), GCUT_OK);
    assert_int_equal(gcut_seg_session_update_models(s, mask, NULL), GCUT_OK);
    gcut_seg_session_free(s);
}

/* An update job (the release) gives the session's model update; one held
 * in its first report ("model") and superseded by a newer update job is
 * cancelled, and the newer one updates from everything that changed. */
static void test_update_job(void **state)
{
    fixture *f = *state;
    const int32_t w = f->v.w, h = f->v.h, n = f->v.n;
    view_worker *wk = view_worker_new(f->img);
    assert_non_null(wk);
    uint8_t *mask = malloc((size_t)n), *ref = malloc((size_t)n), *b = malloc((size_t)n),
            *c = malloc((size_t)n);
    view_job full = job_of(VIEW_JOB_FULL), upd = job_of(VIEW_JOB_UPDATE);
    view_result r;
    view_worker_post(wk, &full, f->v.seeds);
    view_worker_wait(wk);
    assert_int_equal(view_worker_take(wk, mask, &r), 1);
    memcpy(b, f->v.seeds, (size_t)n);
    paint(b, w, h, 100, 75, 3, GCUT_SEED_BG);
    view_worker_post(wk, &upd, b);
    view_worker_wait(wk);
    assert_int_equal(view_worker_take(wk, mask, &r), 1);
    assert_true(r.ok && r.have_mask);
    update_mask(f->img, f->v.seeds, b, ref);
    assert_memory_equal(mask, ref, (size_t)n);

    /* Held and superseded: the newer job moves what changed since the
     * full job's models (b's disc and c's). */
    view_worker_post(wk, &full, f->v.seeds);
    view_worker_wait(wk);
    assert_int_equal(view_worker_take(wk, mask, &r), 1);
    hold hd;
    memset(&hd, 0, sizeof hd);
    pthread_mutex_init(&hd.mu, NULL);
    pthread_cond_init(&hd.cv, NULL);
    view_worker_set_hook(wk, hold_hook, &hd);
    hold_arm(&hd);
    memcpy(c, b, (size_t)n);
    paint(c, w, h, 95, 80, 2, GCUT_SEED_FG);
    view_worker_post(wk, &upd, b);
    hold_wait_entered(&hd);
    view_worker_post(wk, &upd, c);
    hold_release(&hd);
    view_worker_wait(wk);
    int64_t cancelled, finished;
    view_worker_counts(wk, &cancelled, &finished);
    assert_int_equal(cancelled, 1);
    assert_int_equal(view_worker_take(wk, mask, &r), 1);
    assert_true(r.ok);
    assert_string_equal(hd.phase, "model");
    update_mask(f->img, f->v.seeds, c, ref);
    assert_memory_equal(mask, ref, (size_t)n);
    view_worker_free(wk);
    pthread_cond_destroy(&hd.cv);
    pthread_mutex_destroy(&hd.mu);
    free(mask);
    free(ref);
    free(b);
    free(c);
}

/* The save key's names: next to the image, never over a file. */
static void test_save_names(void **state)
{
    (void)state;
    char dir[] = "/tmp/gcut-view-save-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char img[256], out[512], want[512];
    snprintf(img, sizeof img, "%s/photo.png", dir);
    for (int k = 0; k < 3; k++) {
        assert_int_equal(view_save_name(img, "mask", out, sizeof out), 0);
        if (k)
            snprintf(want, sizeof want, "%s/photo-mask-%d.png", dir, k);
        else
            snprintf(want, sizeof want, "%s/photo-mask.png", dir);
        assert_string_equal(out, want);
        struct stat sb;
        assert_int_equal(stat(out, &sb), 0); /* reserved */
    }
    assert_int_equal(view_save_name(img, "cutout", out, sizeof out), 0);
    snprintf(want, sizeof want, "%s/photo-cutout.png", dir);
    assert_string_equal(out, want);
    /* No extension; a dot in a folder's name is not one. */
    char sub[300], noext[320];
    snprintf(sub, sizeof sub, "%s/a.b", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(noext, sizeof noext, "%s/scan", sub);
    assert_int_equal(view_save_name(noext, "mask", out, sizeof out), 0);
    snprintf(want, sizeof want, "%s/scan-mask.png", sub);
    assert_string_equal(out, want);
    /* A folder that cannot be written: an error, errno set. */
    char nodir[320];
    snprintf(nodir, sizeof nodir, "%s/missing/photo.png", dir);
    errno = 0;
    assert_int_equal(view_save_name(nodir, "mask", out, sizeof out), -1);
    assert_int_equal(errno, ENOENT);
    /* Too long for the buffer. */
    char tiny[8];
    assert_int_equal(view_save_name(img, "mask", tiny, sizeof tiny), -1);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static uint64_t xorshift(uint64_t *r)
{
    *r ^= *r << 13;
    *r ^= *r >> 7;
    *r ^= *r << 17;
    return *r;
}

/* render.c keeps the rows whose inputs did not change since the last
 * drawing: after random changes of the mask (rows, single pixels, the
 * first and last rows), the seeds and the view, the drawing and the frame
 * equal those drawn from scratch. */
static void test_render_keeps_rows(void **state)
{
    fixture *f = *state;
    viewer *v = &f->v;
    const int32_t w = v->w, h = v->h;
    const size_t n = (size_t)w * h;
    assert_int_equal(frame_alloc(v, 331, 217), 0);
    view_fit(v);
    uint32_t *disp = malloc(n * sizeof *disp), *frame = malloc((size_t)331 * 217 * 4);
    assert_non_null(disp);
    assert_non_null(frame);
    uint64_t r = 88172645463325252ull;
    /* the fixture's state, given back at the end */
    uint8_t *mask0 = malloc(n), *seeds0 = malloc(n);
    assert_non_null(mask0);
    assert_non_null(seeds0);
    memcpy(mask0, v->mask, n);
    memcpy(seeds0, v->seeds, n);
    const int view0 = v->view, have0 = v->have_mask;
#define RND() xorshift(&r)
    for (int round = 0; round < 300; round++) {
        const int what = (int)(RND() % 8);
        if (what <= 2) { /* a band of rows of the mask flips */
            const int32_t y0 = (int32_t)(RND() % (uint64_t)h), y1 = y0 + (int32_t)(RND() % 5);
            for (int32_t y = y0; y <= y1 && y < h; y++)
                for (int32_t x = (int32_t)(RND() % (uint64_t)w); x < w; x += 1 + (int32_t)(RND() % 7))
                    v->mask[(size_t)w * y + x] ^= 1;
        } else if (what == 3) { /* one pixel, often on the first or last row */
            const int32_t y = RND() % 3 == 0 ? 0 : RND() % 3 == 0 ? h - 1 : (int32_t)(RND() % (uint64_t)h);
            v->mask[(size_t)w * y + (RND() % (uint64_t)w)] ^= 1;
        } else if (what == 4) { /* a seed */
            v->seeds[RND() % n] = (uint8_t)(RND() % 3);
        } else if (what == 5) { /* the view: the overlay two times in three */
            v->view = RND() % 3 == 0 ? (int)(RND() % 3) : VIEW_OVERLAY;
        } else if (what == 6) {
            v->have_mask = RND() % 4 != 0;
        } /* 7: nothing changes */
        v->disp_dirty = 1;
        render_frame(v, -1, -1, NULL);
        memcpy(disp, v->disp, n * sizeof *disp);
        memcpy(frame, v->frame, (size_t)331 * 217 * 4);
        v->disp_valid = 0; /* from scratch */
        v->disp_dirty = 1;
        render_frame(v, -1, -1, NULL);
        if (memcmp(disp, v->disp, n * sizeof *disp) != 0)
            fail_msg("round %d (change %d): the kept rows differ from a drawing from scratch",
                     round, what);
        assert_memory_equal(frame, v->frame, (size_t)331 * 217 * 4);
    }
#undef RND
    memcpy(v->mask, mask0, n);
    memcpy(v->seeds, seeds0, n);
    v->view = view0;
    v->have_mask = have0;
    v->disp_dirty = 1;
    free(mask0);
    free(seeds0);
    free(disp);
    free(frame);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_and_warm),
        cmocka_unit_test(test_newer_job_cancels),
        cmocka_unit_test(test_update_job),
        cmocka_unit_test(test_save_names),
        cmocka_unit_test(test_render_keeps_rows),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
