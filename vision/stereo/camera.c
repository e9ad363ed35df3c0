/*
 * camera.c - pinhole cameras P = K [R | t]: the Middlebury multi-view
 * camera file (*_par.txt, Seitz et al., "A comparison and evaluation of
 * multi-view stereo reconstruction algorithms", CVPR 2006), projection and
 * back-projection.
 *
 * The parser is strict because a wrong camera gives a silently wrong depth
 * map: every line must have its 22 fields, every number must be finite,
 * K must be upper triangular with a non-zero focal length, and R must be a
 * rotation to 1e-3 (the files give R to 17 digits; a transposed or
 * mistyped matrix fails this). Every message names the line.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"
#include "gcut/vision/mvs.h"

/* A cursor over the text that knows its line number. */
typedef struct cursor {
    const char *p, *end;
    int64_t line;
} cursor;

static void skip_blanks(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
        c->p++;
}

/* The next whitespace-delimited token of the current line into buf
 * (NUL-terminated); 0 at the end of the line or of the text. */
static int next_token(cursor *c, char *buf, size_t cap)
{
    skip_blanks(c);
    if (c->p >= c->end || *c->p == '\n')
        return 0;
    size_t n = 0;
    while (c->p < c->end && *c->p != ' ' && *c->p != '\t' && *c->p != '\r' && *c->p != '\n') {
        if (n + 1 < cap)
            buf[n] = *c->p;
        n++;
        c->p++;
    }
    buf[n < cap ? n : cap - 1] = '\0';
    return n < cap ? 1 : -1;
}

/* Move past the end of the current line; 0 if the text ended. */
static int next_line(cursor *c)
{
    while (c->p < c->end && *c->p != '\n')
        c->p++;
    if (c->p >= c->end)
        return 0;
    c->p++;
    c->line++;
    return 1;
}

/* Skip empty lines; 0 when only blanks remain. */
static int skip_empty(cursor *c)
{
    for (;;) {
        skip_blanks(c);
        if (c->p >= c->end)
            return 0;
        if (*c->p != '\n')
            return 1;
        next_line(c);
    }
}

static int parse_number(const char *tok, double *out)
{
    char *end;
    errno = 0;
    const double v = strtod(tok, &end);
    if (end == tok || *end != '\0' || errno == ERANGE || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}

static gcut_status check_camera(const gcut_camera *cam, const char *what, int64_t line)
{
    const double *K = cam->K, *R = cam->R;
    if (K[3] != 0 || K[6] != 0 || K[7] != 0 || K[8] == 0 || K[0] == 0 || K[4] == 0)
        return GCUT_FAIL(GCUT_ERR_PARSE,
                         "%s:%lld: K is not an upper-triangular intrinsic matrix with non-zero "
                         "focal lengths (k21 = k31 = k32 = 0, k11, k22, k33 != 0)",
                         what, (long long)line);
    double err = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double dot = 0;
            for (int k = 0; k < 3; k++)
                dot += R[3 * i + k] * R[3 * j + k];
            const double e = fabs(dot - (i == j));
            err = e > err ? e : err;
        }
    const double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                       R[2] * (R[3] * R[7] - R[4] * R[6]);
    if (err > 1e-3 || fabs(det - 1) > 1e-3)
        return GCUT_FAIL(GCUT_ERR_PARSE,
                         "%s:%lld: R is not a rotation (|R R^T - I| = %.3g, det R = %.6g)", what,
                         (long long)line, err, det);
    return GCUT_OK;
}

gcut_status gcut_cameras_parse(const char *text, size_t size, const char *what,
                               gcut_camera **out, int32_t *count)
{
    GCUT_ENTRY();
    if (!text || !out || !count)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    if (!what)
        what = "<cameras>";
    cursor c = {text, text + size, 1};
    char tok[GCUT_CAMERA_NAME_MAX + 1];
    double v;
    if (!skip_empty(&c))
        return GCUT_FAIL(GCUT_ERR_PARSE, "%s: empty: expected the number of images", what);
    if (next_token(&c, tok, sizeof(tok)) != 1 || !parse_number(tok, &v) || v != floor(v) ||
        v < 1 || v > 100000)
        return GCUT_FAIL(GCUT_ERR_PARSE, "%s:%lld: expected the number of images (1 .. 100000)",
                         what, (long long)c.line);
    const int32_t n = (int32_t)v;
    if (next_token(&c, tok, sizeof(tok)) != 0)
        return GCUT_FAIL(GCUT_ERR_PARSE, "%s:%lld: unexpected '%s' after the number of images",
                         what, (long long)c.line, tok);
    gcut_camera *cams = gcut_i_calloc((size_t)n, sizeof(gcut_camera));
    if (!cams)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (%d cameras)", (int)n);
    gcut_status st = GCUT_OK;
    for (int32_t i = 0; i < n; i++) {
        next_line(&c);
        if (!skip_empty(&c)) {
            st = GCUT_FAIL(GCUT_ERR_PARSE, "%s:%lld: %d camera lines, the header says %d", what,
                           (long long)c.line, (int)i, (int)n);
            goto fail;
        }
        gcut_camera *cam = &cams[i];
        int r = next_token(&c, tok, sizeof(tok));
        if (r != 1) {
            st = GCUT_FAIL(GCUT_ERR_PARSE, "%s:%lld: image name longer than %d bytes", what,
                           (long long)c.line, GCUT_CAMERA_NAME_MAX - 1);
            goto fail;
        }
        memcpy(cam->name, tok, strlen(tok) + 1);
        double num[21];
        for (int k = 0; k < 21; k++) {
            r = next_token(&c, tok, sizeof(tok));
            if (r == 0) {
                st = GCUT_FAIL(GCUT_ERR_PARSE,
                               "%s:%lld: %d numbers after the name, expected 21 (K: 9, R: 9, t: 3)",
                               what, (long long)c.line, k);
                goto fail;
            }
            if (r < 0 || !parse_number(tok, &num[k])) {
                st = GCUT_FAIL(GCUT_ERR_PARSE, "%s:%lld: field %d is not a finite number: '%s'",
                               what, (long long)c.line, k + 2, tok);
                goto fail;
            }
        }
        if (next_token(&c, tok, sizeof(tok)) != 0) {
            st = GCUT_FAIL(GCUT_ERR_PARSE, "%s:%lld: more than 22 fields ('%s')", what,
                           (long long)c.line, tok);
            goto fail;
        }
        memcpy(cam->K, num, sizeof(cam->K));
        memcpy(cam->R, num + 9, sizeof(cam->R));
        memcpy(cam->t, num + 18, sizeof(cam->t));
        if ((st = check_camera(cam, what, c.line)) != GCUT_OK)
            goto fail;
    }
    next_line(&c);
    if (skip_empty(&c)) {
        st = GCUT_FAIL(GCUT_ERR_PARSE, "%s:%lld: more camera lines than the header's %d", what,
                       (long long)c.line, (int)n);
        goto fail;
    }
    *out = cams;
    *count = n;
    return GCUT_OK;
fail:
    gcut_i_free(cams);
    return st;
}

gcut_status gcut_cameras_load(const char *path, gcut_camera **out, int32_t *count)
{
    GCUT_ENTRY();
    if (!path || !out || !count)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    FILE *f = fopen(path, "rb");
    if (!f)
        return GCUT_FAIL(GCUT_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    char *buf = NULL;
    size_t len = 0, cap = 0;
    gcut_status st = GCUT_OK;
    for (;;) {
        if (len == cap) {
            if (cap >= ((size_t)64 << 20)) {
                st = GCUT_FAIL(GCUT_ERR_PARSE, "%s: larger than 64 MiB: not a camera file", path);
                goto done;
            }
            const size_t ncap = cap ? 2 * cap : 8192;
            char *nb = gcut_i_realloc(buf, ncap);
            if (!nb) {
                st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory reading %s", path);
                goto done;
            }
            buf = nb;
            cap = ncap;
        }
        const size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f))
                st = GCUT_FAIL(GCUT_ERR_IO, "%s: read error (a directory?)", path);
            break;
        }
    }
    if (st == GCUT_OK)
        st = gcut_cameras_parse(buf ? buf : "", len, path, out, count);
done:
    fclose(f);
    gcut_i_free(buf);
    return st;
}

void gcut_cameras_free(gcut_camera *cams) { gcut_i_free(cams); }

void gcut_camera_center(const gcut_camera *c, double C[3])
{
    for (int i = 0; i < 3; i++)
        C[i] = -(c->R[i] * c->t[0] + c->R[3 + i] * c->t[1] + c->R[6 + i] * c->t[2]);
}

void gcut_camera_project(const gcut_camera *c, const double X[3], double *u, double *v,
                         double *depth)
{
    double Y[3];
    for (int i = 0; i < 3; i++)
        Y[i] = c->R[3 * i] * X[0] + c->R[3 * i + 1] * X[1] + c->R[3 * i + 2] * X[2] + c->t[i];
    const double *K = c->K;
    const double hx = K[0] * Y[0] + K[1] * Y[1] + K[2] * Y[2];
    const double hy = K[4] * Y[1] + K[5] * Y[2];
    const double hz = K[8] * Y[2];
    if (u)
        *u = hx / hz;
    if (v)
        *v = hy / hz;
    if (depth)
        *depth = Y[2];
}

void gcut_camera_unproject(const gcut_camera *c, double u, double v, double depth, double X[3])
{
    /* Invert the upper-triangular K on (u, v, 1) scaled to depth: the
     * camera point Y with Y[2] = depth, then X = R^T (Y - t). */
    const double *K = c->K;
    const double z = depth * K[8];
    const double yy = (v * z - K[5] * depth) / K[4];
    const double yx = (u * z - K[1] * yy - K[2] * depth) / K[0];
    const double Y[3] = {yx - c->t[0], yy - c->t[1], depth - c->t[2]};
    for (int i = 0; i < 3; i++)
        X[i] = c->R[i] * Y[0] + c->R[3 + i] * Y[1] + c->R[6 + i] * Y[2];
}
