/*
 * outfile.c - the one writer of every output file (outfile_internal.h):
 * stdout and devices written directly, everything else through a
 * temporary file in the target's folder, fsync'ed and renamed over it.
 *
 * Invariants:
 *  - the target of a replaced file is never opened for writing: it holds
 *    its old content until the rename, which is atomic;
 *  - every way out of open and commit that fails removes the temporary
 *    file and frees what was allocated.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core_internal.h"

static atomic_uint out_counter;

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = gcut_i_malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* The file a symbolic link ends at (realpath), or a copy of path. When the
 * link dangles, its own target string (relative to the link's folder) is
 * not resolved: the link is then replaced, like any missing file. */
static char *resolve_target(const char *path)
{
    struct stat ls;
    if (lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode)) {
        char *r = realpath(path, NULL);
        if (r) {
            char *d = dup_str(r);
            free(r);
            return d;
        }
    }
    return dup_str(path);
}

static void release(gcut_i_out *o)
{
    gcut_i_free(o->target);
    gcut_i_free(o->tmp);
    o->target = o->tmp = NULL;
    o->f = NULL;
}

gcut_status gcut_i_out_open(const char *func, const char *path, gcut_i_out *o)
{
    memset(o, 0, sizeof *o);
    o->func = func;
    o->path = path;
    if (!path || !*path)
        return gcut_i_fail(GCUT_ERR_INVALID, func, "the output path must not be empty");
    if (gcut_i_out_is_stdout(path)) {
        o->f = stdout;
        o->is_stdout = 1;
        return GCUT_OK;
    }
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return gcut_i_fail(GCUT_ERR_IO, func, "cannot write %s: %s", path, strerror(EISDIR));
    if (exists && (!S_ISREG(st.st_mode) || strncmp(path, "/dev/", 5) == 0 ||
                   strncmp(path, "/proc/", 6) == 0)) {
        /* A device, a FIFO, a socket, or a name of the system's such as
         * /dev/stdout redirected to a file: written in place, never
         * replaced. */
        o->f = fopen(path, "wb");
        if (!o->f) {
            int err = errno;
            return gcut_i_fail(GCUT_ERR_IO, func, "cannot write %s: %s", path, strerror(err));
        }
        return GCUT_OK;
    }
    o->target = resolve_target(path);
    size_t len = (o->target ? strlen(o->target) : 0) + 48;
    o->tmp = o->target ? gcut_i_malloc(len) : NULL;
    if (!o->tmp) {
        release(o);
        return gcut_i_fail(GCUT_ERR_NOMEM, func, "%s: cannot allocate a file name", path);
    }
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        unsigned k = atomic_fetch_add(&out_counter, 1u);
        snprintf(o->tmp, len, "%s.tmp-%ld-%u", o->target, (long)getpid(), k);
        /* O_EXCL: a file already there is never clobbered; 0666 lets the
         * umask decide, as for any file the user creates. */
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) {
            int err = errno;
            release(o);
            return gcut_i_fail(GCUT_ERR_IO, func, "cannot write %s: %s", path, strerror(err));
        }
    }
    if (fd < 0) {
        release(o);
        return gcut_i_fail(GCUT_ERR_IO, func, "cannot write %s: no free temporary file name", path);
    }
    /* A replaced file keeps its permissions. */
    if (exists)
        (void)fchmod(fd, st.st_mode & 07777);
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        int err = errno;
        close(fd);
        unlink(o->tmp);
        release(o);
        return gcut_i_fail(GCUT_ERR_IO, func, "cannot write %s: %s", path, strerror(err));
    }
    return GCUT_OK;
}

gcut_status gcut_i_out_commit(gcut_i_out *o)
{
    const char *func = o->func, *path = o->path;
    int err = 0;
    const char *what = "write failed";
    if (fflush(o->f) != 0 || ferror(o->f))
        err = errno ? errno : EIO;
    if (o->is_stdout) {
        release(o);
        if (err)
            return gcut_i_fail(GCUT_ERR_IO, func, "%s: write failed: %s", "<stdout>",
                               strerror(err));
        return GCUT_OK;
    }
    if (!err && o->tmp && fsync(fileno(o->f)) != 0) {
        err = errno;
        what = "cannot sync the written file";
    }
    if (fclose(o->f) != 0 && !err)
        err = errno ? errno : EIO;
    o->f = NULL;
    if (!err && o->tmp && rename(o->tmp, o->target) != 0) {
        err = errno;
        what = "cannot move the written file into place";
    }
    if (err && o->tmp)
        unlink(o->tmp);
    release(o);
    if (err)
        return gcut_i_fail(GCUT_ERR_IO, func, "%s: %s: %s", path, what, strerror(err));
    return GCUT_OK;
}

void gcut_i_out_abort(gcut_i_out *o)
{
    if (o->f && !o->is_stdout)
        fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    release(o);
}

/* path made absolute through its folder's realpath (the file itself need
 * not exist), or NULL. */
static char *canonical(const char *path)
{
    char *r = realpath(path, NULL);
    if (r) {
        char *d = dup_str(r);
        free(r);
        return d;
    }
    const char *slash = strrchr(path, '/');
    char *dir;
    const char *base;
    if (!slash) {
        dir = realpath(".", NULL);
        base = path;
    } else if (slash == path) {
        dir = realpath("/", NULL);
        base = slash + 1;
    } else {
        char *d = dup_str(path);
        if (!d)
            return NULL;
        d[slash - path] = '\0';
        dir = realpath(d, NULL);
        gcut_i_free(d);
        base = slash + 1;
    }
    if (!dir)
        return NULL;
    size_t n = strlen(dir) + strlen(base) + 2;
    char *out = gcut_i_malloc(n);
    if (out)
        snprintf(out, n, "%s/%s", dir, base);
    free(dir);
    return out;
}

int gcut_i_same_file(const char *a, const char *b)
{
    if (!a || !b || gcut_i_out_is_stdout(a) || gcut_i_out_is_stdout(b))
        return 0;
    struct stat sa, sb;
    int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea && eb && (!S_ISREG(sa.st_mode) || !S_ISREG(sb.st_mode)))
        return 0; /* devices and pipes: /dev/stdin and /dev/stdout may both be a tty */
    if (ea && eb)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea != eb)
        return 0;
    char *ca = canonical(a), *cb = canonical(b);
    int same = ca && cb && strcmp(ca, cb) == 0;
    gcut_i_free(ca);
    gcut_i_free(cb);
    return same;
}
