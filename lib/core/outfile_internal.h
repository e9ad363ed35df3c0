/*
 * outfile_internal.h - the one writer of every output file of gcut (the
 * DIMACS writer, the image writers, the tools' text outputs): never half a
 * file where the old one was. Never installed; the tools include it too
 * (demos/common/cli.c), so it needs only the public headers.
 *
 *     gcut_i_out o;
 *     if (gcut_i_out_open(__func__, path, &o) != GCUT_OK) return ...;
 *     ... write to o.f ...
 *     st = ok ? gcut_i_out_commit(&o) : (gcut_i_out_abort(&o), st);
 *
 * How the path is written:
 *  - "-" or "/dev/stdout": the stdout stream, directly (flushed, never
 *    closed; the tools then print their report on stderr);
 *  - a character or block device, a FIFO or a socket, and any existing
 *    path under /dev/ or /proc/ (/dev/stdout redirected to a file): opened
 *    and written directly, never replaced (`-o /dev/null` keeps /dev/null
 *    a device);
 *  - a symbolic link: its target (realpath) is replaced as below, so the
 *    link stays a link;
 *  - a regular file or a new path: a temporary file in the same folder
 *    (mkstemp), flushed, fsync'ed and renamed over the target on commit.
 * On any failure (open, write, full disk, fsync, rename) the old file is
 * intact, the temporary file removed, and the error recorded (gcut_i_fail,
 * in the name of `func`) names the file and the system's reason.
 */
#ifndef GCUT_OUTFILE_INTERNAL_H
#define GCUT_OUTFILE_INTERNAL_H

#include <stdio.h>
#include <string.h>

#include "gcut/common.h"

#include "core/compiler_internal.h"

typedef struct gcut_i_out {
    FILE *f;          /* write here */
    const char *path; /* as given (for messages) */
    const char *func; /* the public function that reports */
    char *target;     /* the file renamed over (resolved), or NULL: direct */
    char *tmp;        /* the temporary file, or NULL: direct */
    int is_stdout;
} gcut_i_out;

/* 1 when path means the stdout stream: "-" or "/dev/stdout". */
static inline int gcut_i_out_is_stdout(const char *path)
{
    return path && (strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0);
}

/* Open `path` for writing as above: GCUT_OK and o->f, or a recorded
 * GCUT_ERR_IO / GCUT_ERR_NOMEM / GCUT_ERR_INVALID (nothing left open). */
GCUT_I_SHARED gcut_status gcut_i_out_open(const char *func, const char *path, gcut_i_out *o);

/* Finish: flush, check the stream's error flag, fsync and rename (a
 * replaced file) or close (a direct one; stdout is only flushed).
 * GCUT_OK, or a recorded GCUT_ERR_IO with the old file intact. o is
 * released either way. */
GCUT_I_SHARED gcut_status gcut_i_out_commit(gcut_i_out *o);

/* Give up: close, remove the temporary file, release o; the old file is
 * intact. Records nothing (the caller has the reason). */
GCUT_I_SHARED void gcut_i_out_abort(gcut_i_out *o);

/* 1 when paths a and b name the same file (same device and inode when
 * both exist, else the same realpath of their folders and names), else 0.
 * For refusing an output that would overwrite an input. */
GCUT_I_SHARED int gcut_i_same_file(const char *a, const char *b);

#endif /* GCUT_OUTFILE_INTERNAL_H */
