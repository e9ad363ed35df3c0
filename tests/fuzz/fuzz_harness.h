/*
 * fuzz_harness.h - what the fuzz targets of the graph readers share
 * (fuzz_dimacs.c, fuzz_mtx.c): a counting allocator with a memory cap, the
 * input as an in-memory file, and the checks on a refused input.
 *
 * The allocator (installed with gcut_set_allocator on the first input)
 * refuses any request that would take gcut's live memory past
 * FUZZ_MEM_CAP and counts the refusals. A valid file may declare 2^31 - 1
 * nodes or rows and so honestly need gigabytes; the cap turns that into a
 * GCUT_ERR_NOMEM the target can judge (the message must say what was
 * asked for) instead of a fuzzer out-of-memory report. Allocations outside
 * gcut's allocator are left to libFuzzer's -malloc_limit_mb and
 * -rss_limit_mb.
 *
 * Any violated check calls fuzz_die(), which aborts: libFuzzer reports a
 * crash, and the replay test fails.
 */
#ifndef GCUT_FUZZ_HARNESS_H
#define GCUT_FUZZ_HARNESS_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gcut/gcut.h"

/* Most live memory gcut may hold at once under the fuzzer. */
#define FUZZ_MEM_CAP ((size_t)64 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_die(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz: %s: %s\n", what, detail ? detail : "");
    abort();
}

/* ------------------------------------------------------- the allocator */

/* Each block starts with its size, so that free and realloc know what they
 * give back; 16 bytes keep the payload aligned as malloc's. */
#define FUZZ_HDR 16

static pthread_mutex_t fuzz_mem_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t fuzz_live;  /* bytes gcut holds now */
static long fuzz_refused; /* requests refused by the cap (since fuzz_mem_reset) */

static int fuzz_take(size_t old, size_t want)
{
    pthread_mutex_lock(&fuzz_mem_lock);
    int ok = want <= old || want - old <= FUZZ_MEM_CAP - fuzz_live;
    if (ok) {
        fuzz_live = fuzz_live - old + want;
    } else {
        fuzz_refused++;
    }
    pthread_mutex_unlock(&fuzz_mem_lock);
    return ok;
}

static void fuzz_give(size_t n)
{
    pthread_mutex_lock(&fuzz_mem_lock);
    fuzz_live -= n;
    pthread_mutex_unlock(&fuzz_mem_lock);
}

static void *fuzz_malloc(size_t n)
{
    if (n > FUZZ_MEM_CAP || !fuzz_take(0, n))
        return NULL;
    unsigned char *p = malloc(n + FUZZ_HDR);
    if (!p) {
        fuzz_give(n);
        return NULL;
    }
    memcpy(p, &n, sizeof n);
    return p + FUZZ_HDR;
}

static void fuzz_free(void *q)
{
    if (!q)
        return;
    unsigned char *p = (unsigned char *)q - FUZZ_HDR;
    size_t n;
    memcpy(&n, p, sizeof n);
    fuzz_give(n);
    free(p);
}

static void *fuzz_realloc(void *q, size_t n)
{
    if (!q)
        return fuzz_malloc(n);
    unsigned char *p = (unsigned char *)q - FUZZ_HDR;
    size_t old;
    memcpy(&old, p, sizeof old);
    if (n > FUZZ_MEM_CAP || !fuzz_take(old, n))
        return NULL; /* the old block stays valid, as realloc's contract says */
    unsigned char *np = realloc(p, n + FUZZ_HDR);
    if (!np) {
        fuzz_take(n, old); /* undo: shrinking back always succeeds */
        return NULL;
    }
    memcpy(np, &n, sizeof n);
    return np + FUZZ_HDR;
}

/* Install the allocator (first call) and forget earlier refusals. */
static void fuzz_mem_reset(void)
{
    static int installed;
    if (!installed) {
        if (gcut_set_allocator(fuzz_malloc, fuzz_realloc, fuzz_free) != GCUT_OK)
            fuzz_die("gcut_set_allocator failed", gcut_last_error());
        installed = 1;
    }
    fuzz_refused = 0;
}

/* Every gcut object of the input must be freed by the end of its run. */
static void fuzz_mem_check_empty(void)
{
    if (fuzz_live != 0) {
        char buf[64];
        snprintf(buf, sizeof buf, "%zu bytes", fuzz_live);
        fuzz_die("gcut memory still held after the input", buf);
    }
}

/* -------------------------------------------------- the input as a file */

/* A regular file holding the input, read from its start: a memfd where the
 * system has them (no disk), else an unlinked temporary file. path (at
 * least 64 bytes) receives a name that opens it again (/proc/self/fd/N). */
static int fuzz_file(const uint8_t *data, size_t size, char *path)
{
    int fd = -1;
#ifdef MFD_CLOEXEC
    fd = memfd_create("gcut-fuzz", MFD_CLOEXEC);
#endif
    if (fd < 0) {
        char tmpl[] = "/tmp/gcut-fuzz-XXXXXX";
        fd = mkstemp(tmpl);
        if (fd < 0)
            fuzz_die("cannot create a temporary file", tmpl);
        unlink(tmpl);
    }
    for (size_t done = 0; done < size;) {
        ssize_t k = write(fd, data + done, size - done);
        if (k <= 0)
            fuzz_die("cannot write the temporary file", NULL);
        done += (size_t)k;
    }
    if (lseek(fd, 0, SEEK_SET) != 0)
        fuzz_die("cannot rewind the temporary file", NULL);
    snprintf(path, 64, "/proc/self/fd/%d", fd);
    return fd;
}

/* ------------------------------------------------------------- checks */

/* Occurrences of the string `what` in the n bytes at p. */
static size_t fuzz_count(const void *p, size_t n, const char *what)
{
    const size_t wl = strlen(what);
    size_t count = 0;
    for (const char *q = p, *end = q + n; (q = memmem(q, (size_t)(end - q), what, wl)); q += wl)
        count++;
    return count;
}

/* A refused input: the status is one the reader may give, the last error
 * agrees, starts with `func` (the public function called), names it only
 * once (unless quoting the input) and names the input (right after `func`
 * for a malformed input, which the message then locates), and a
 * GCUT_ERR_NOMEM says what it could not allocate (the cap
 * refused a request, or the checked path found it larger than the machine:
 * both name the size). `nomem_what` (NULL: anything) is the text every
 * allowed NOMEM message contains: what a reader may size from the counts a
 * file declares. */
static void fuzz_check_refusal(const uint8_t *data, size_t size, gcut_status st, const char *func,
                               const char *name, const char *nomem_what)
{
    const char *msg = gcut_last_error();
    const size_t fl = strlen(func), nl = strlen(name);
    if (gcut_last_status() != st)
        fuzz_die("gcut_last_status() differs from the status returned", msg);
    if (strncmp(msg, func, fl) != 0 || strncmp(msg + fl, ": ", 2) != 0 || !strstr(msg, name))
        fuzz_die("the message does not name the function and the input", msg);
    /* Once: more only where the message quotes the input that has it. */
    if (fuzz_count(msg + fl, strlen(msg + fl), func) > fuzz_count(data, size, func))
        fuzz_die("the message names the function twice", msg);
    switch (st) {
    case GCUT_ERR_PARSE:
    case GCUT_ERR_OVERFLOW:
    case GCUT_ERR_UNSUPPORTED: /* gzip data in a build without zlib */
        if (strncmp(msg + fl + 2, name, nl) != 0)
            fuzz_die("the message does not start with the function and the input", msg);
        return;
    case GCUT_ERR_NOMEM:
        if (!strstr(msg, "cannot allocate"))
            fuzz_die("out of memory without saying what for", msg);
        if (nomem_what && !strstr(msg, nomem_what))
            fuzz_die("an allocation sized from something else than the declared counts", msg);
        return;
    default:
        fuzz_die("unexpected status", msg);
    }
}

#endif /* GCUT_FUZZ_HARNESS_H */
