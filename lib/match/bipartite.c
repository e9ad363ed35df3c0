/*
 * bipartite.c - the bipartite graph of a sparse matrix: construction from an
 * edge list, both CSR adjacencies, and the Matrix Market reader.
 *
 * Matrix Market: R. F. Boisvert, R. Pozo and K. A. Remington, "The Matrix
 * Market Exchange Formats: Initial Design", NIST IR 5935, 1996. Only the
 * coordinate format carries a sparsity pattern, so the array format is
 * refused with a message saying so.
 *
 * Invariants:
 *  - after gcut_i_bipartite_build, rptr/radj and cptr/cadj describe the same
 *    set of m distinct edges, each row's columns in order of first
 *    occurrence, each column's rows in increasing row order;
 *  - the reader hands nothing to the caller until the whole file has been
 *    accepted; any failure frees every buffer.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "match/bipartite_internal.h"

gcut_status gcut_i_bipartite_build(gcut_bipartite **out, int32_t nr, int32_t nc,
                                   const int32_t *row, const int32_t *col, int64_t edges,
                                   int64_t entries)
{
    gcut_bipartite *b = gcut_i_calloc(1, sizeof *b);
    int32_t *stamp = NULL;
    if (!b)
        goto nomem;
    b->nr = nr;
    b->nc = nc;
    b->entries = entries;
    /* Arrays sized by the dimensions go through the checked path
     * (core_internal.h): a matrix may declare 2^31 - 1 rows in a few bytes,
     * and the failure must say what was asked for, not kill the process. */
    if (gcut_i_alloc_array((void **)&b->rptr, (int64_t)nr + 1, sizeof *b->rptr, __func__,
                           "the row offsets of a %d x %d matrix", (int)nr, (int)nc) != GCUT_OK ||
        gcut_i_alloc_array((void **)&b->cptr, (int64_t)nc + 1, sizeof *b->cptr, __func__,
                           "the column offsets of a %d x %d matrix", (int)nr, (int)nc) != GCUT_OK ||
        gcut_i_alloc_array((void **)&stamp, nc > 0 ? nc : 1, sizeof *stamp, __func__,
                           "the column marks of a %d x %d matrix", (int)nr, (int)nc) != GCUT_OK)
        goto fail;
    memset(b->rptr, 0, ((size_t)nr + 1) * sizeof *b->rptr);
    memset(b->cptr, 0, ((size_t)nc + 1) * sizeof *b->cptr);
    b->radj = gcut_i_malloc_array(edges > 0 ? edges : 1, sizeof *b->radj);
    if (!b->radj)
        goto nomem;

    /* Counting sort of the entries by row, then an in-place pass per row
     * that drops repeated columns: stamp[c] remembers the last row that
     * took column c, so the duplicate test is O(1) and the whole build is
     * O(nr + nc + edges) with no comparison sort. */
    for (int64_t e = 0; e < edges; e++)
        b->rptr[row[e] + 1]++;
    for (int32_t r = 0; r < nr; r++)
        b->rptr[r + 1] += b->rptr[r];
    {
        int64_t *fill = NULL;
        if (gcut_i_alloc_array((void **)&fill, (int64_t)nr + 1, sizeof *fill, __func__,
                               "the row cursors of a %d x %d matrix", (int)nr, (int)nc) != GCUT_OK)
            goto fail;
        memcpy(fill, b->rptr, ((size_t)nr + 1) * sizeof *fill);
        for (int64_t e = 0; e < edges; e++)
            b->radj[fill[row[e]]++] = col[e];
        gcut_i_free(fill);
    }
    for (int32_t c = 0; c < nc; c++)
        stamp[c] = -1;
    int64_t m = 0;
    for (int32_t r = 0; r < nr; r++) {
        const int64_t lo = b->rptr[r], hi = b->rptr[r + 1];
        b->rptr[r] = m;
        for (int64_t k = lo; k < hi; k++) {
            const int32_t c = b->radj[k];
            if (stamp[c] != r) {
                stamp[c] = r;
                b->radj[m++] = c;
            }
        }
    }
    b->rptr[nr] = m;
    b->m = m;

    /* Column adjacency: a counting sort of the merged edges by column;
     * scanning rows in order leaves each column's rows increasing. */
    b->cadj = gcut_i_malloc_array(m > 0 ? m : 1, sizeof *b->cadj);
    if (!b->cadj)
        goto nomem;
    for (int64_t k = 0; k < m; k++)
        b->cptr[b->radj[k] + 1]++;
    for (int32_t c = 0; c < nc; c++)
        b->cptr[c + 1] += b->cptr[c];
    for (int32_t c = 0; c < nc; c++)
        stamp[c] = 0;
    for (int32_t r = 0; r < nr; r++)
        for (int64_t k = b->rptr[r]; k < b->rptr[r + 1]; k++) {
            const int32_t c = b->radj[k];
            b->cadj[b->cptr[c] + stamp[c]++] = r;
        }
    gcut_i_free(stamp);
    *out = b;
    return GCUT_OK;
nomem:
    gcut_i_free(stamp);
    gcut_bipartite_free(b);
    return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory for a bipartite graph of %lld edges",
                     (long long)edges);
fail: /* the checked path has recorded the error */
    gcut_i_free(stamp);
    gcut_bipartite_free(b);
    return GCUT_ERR_NOMEM;
}

gcut_status gcut_bipartite_new(gcut_bipartite **out, int32_t rows, int32_t cols,
                               const int32_t *row, const int32_t *col, int64_t edges)
{
    GCUT_ENTRY();
    if (!out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "out is NULL");
    if (rows < 0 || cols < 0 || edges < 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "negative size (rows %d, cols %d, edges %lld)",
                         (int)rows, (int)cols, (long long)edges);
    if (edges > 0 && (!row || !col))
        return GCUT_FAIL(GCUT_ERR_INVALID, "edge arrays are NULL");
    for (int64_t e = 0; e < edges; e++)
        if (row[e] < 0 || row[e] >= rows || col[e] < 0 || col[e] >= cols)
            return GCUT_FAIL(GCUT_ERR_INVALID,
                             "edge %lld (%d, %d): id out of range (rows %d, cols %d)",
                             (long long)e, (int)row[e], (int)col[e], (int)rows, (int)cols);
    /* GCUT_ENTRY: a failure of the build is already named gcut_bipartite_new. */
    return gcut_i_bipartite_build(out, rows, cols, row, col, edges, edges);
}

void gcut_bipartite_free(gcut_bipartite *b)
{
    if (!b)
        return;
    gcut_i_free(b->rptr);
    gcut_i_free(b->radj);
    gcut_i_free(b->cptr);
    gcut_i_free(b->cadj);
    gcut_i_free(b);
}

int32_t gcut_bipartite_num_rows(const gcut_bipartite *b) { return b ? b->nr : 0; }
int32_t gcut_bipartite_num_cols(const gcut_bipartite *b) { return b ? b->nc : 0; }
int64_t gcut_bipartite_num_edges(const gcut_bipartite *b) { return b ? b->m : 0; }
int64_t gcut_bipartite_num_entries(const gcut_bipartite *b) { return b ? b->entries : 0; }

void gcut_bipartite_rows_csr(const gcut_bipartite *b, const int64_t **offsets,
                             const int32_t **cols)
{
    if (offsets)
        *offsets = b ? b->rptr : NULL;
    if (cols)
        *cols = b ? b->radj : NULL;
}

/* ------------------------------------------------------- Matrix Market */

typedef enum mtx_sym { MTX_GENERAL, MTX_SYMMETRIC, MTX_SKEW } mtx_sym;

/* The longest line the reader accepts (a longer one is a parse error: no
 * valid line comes near it, and /dev/zero has no newline at all). */
#define MTX_LINE_MAX ((size_t)1 << 20)

/* Under a memory budget (gcut_set_max_memory) the text read, comments
 * included, may not pass this many times the budget: an endless input (a
 * FIFO fed forever) then ends with GCUT_ERR_NOMEM. Entries are 2 x 4 bytes
 * in memory for at least 4 bytes of text ("1 2\n"), so a file whose
 * entries fit the budget is far from this bound. */
#define MTX_TEXT_PER_BUDGET 4

typedef struct mtx_parser {
    const char *name; /* input named in messages */
    int64_t line;
    int values;       /* numbers after I J: 0 pattern, 1 real/integer, 2 complex */
    int integer;      /* the values must be integers */
    mtx_sym sym;
    int32_t *row, *col;
    int64_t len, cap;
    int64_t bytes; /* text read so far */
    size_t budget; /* gcut_i_budget() at the start; 0: none */
} mtx_parser;

static gcut_status GCUT_PRINTF(3, 4) perr(const mtx_parser *ps, gcut_status st, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (ps->line > 0)
        return gcut_i_fail(st, "gcut_bipartite_read_mtx", "%s:%lld: %s", ps->name,
                           (long long)ps->line, msg);
    return gcut_i_fail(st, "gcut_bipartite_read_mtx", "%s: %s", ps->name, msg);
}

static int blank(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    return *s == 0;
}

/* A non-negative decimal integer field; *s advances past it. Returns 0 and
 * leaves *s when the field is missing or not an integer; 2 when too large. */
static int read_index(const char **s, int64_t *out)
{
    const char *p = *s;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p < '0' || *p > '9')
        return 0;
    int64_t v = 0;
    while (*p >= '0' && *p <= '9') {
        if (v > (INT64_MAX - 9) / 10)
            return 2;
        v = v * 10 + (*p++ - '0');
    }
    if (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
        return 0;
    *out = v;
    *s = p;
    return 1;
}

/* A value field (real or integer); only its syntax matters. */
static int read_value(const char **s, int integer)
{
    const char *p = *s;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p || *p == '\r' || *p == '\n')
        return 0;
    char *end;
    errno = 0;
    if (integer)
        (void)strtoll(p, &end, 10);
    else
        (void)strtod(p, &end);
    if (end == p || (*end && *end != ' ' && *end != '\t' && *end != '\r' && *end != '\n'))
        return 0;
    *s = end;
    return 1;
}

static gcut_status parse_banner(mtx_parser *ps, const char *text)
{
    char w[5][32];
    int k = sscanf(text, "%31s %31s %31s %31s %31s", w[0], w[1], w[2], w[3], w[4]);
    if (k < 1 || strcmp(w[0], "%%MatrixMarket") != 0)
        return perr(ps, GCUT_ERR_PARSE, "not a Matrix Market file: the first line must start "
                                        "with %%%%MatrixMarket");
    if (k != 5)
        return perr(ps, GCUT_ERR_PARSE, "banner needs 4 words after %%%%MatrixMarket "
                                        "(matrix coordinate FIELD SYMMETRY), has %d", k - 1);
    if (strcasecmp(w[1], "matrix") != 0)
        return perr(ps, GCUT_ERR_PARSE, "object '%s' is not supported (only 'matrix')", w[1]);
    if (strcasecmp(w[2], "array") == 0)
        return perr(ps, GCUT_ERR_PARSE, "format 'array' (dense) is not supported: a matching "
                                        "needs the 'coordinate' format");
    if (strcasecmp(w[2], "coordinate") != 0)
        return perr(ps, GCUT_ERR_PARSE, "unknown format '%s' (expected coordinate)", w[2]);
    if (strcasecmp(w[3], "pattern") == 0)
        ps->values = 0;
    else if (strcasecmp(w[3], "real") == 0 || strcasecmp(w[3], "double") == 0)
        ps->values = 1;
    else if (strcasecmp(w[3], "integer") == 0)
        ps->values = 1, ps->integer = 1;
    else if (strcasecmp(w[3], "complex") == 0)
        ps->values = 2;
    else
        return perr(ps, GCUT_ERR_PARSE,
                    "unknown field '%s' (expected pattern, real, integer or complex)", w[3]);
    if (strcasecmp(w[4], "general") == 0)
        ps->sym = MTX_GENERAL;
    else if (strcasecmp(w[4], "symmetric") == 0 || strcasecmp(w[4], "hermitian") == 0)
        ps->sym = MTX_SYMMETRIC;
    else if (strcasecmp(w[4], "skew-symmetric") == 0)
        ps->sym = MTX_SKEW;
    else
        return perr(ps, GCUT_ERR_PARSE, "unknown symmetry '%s' (expected general, symmetric, "
                                        "skew-symmetric or hermitian)", w[4]);
    return GCUT_OK;
}

/* Store entry (r, c). The two arrays grow by doubling, cut down to what
 * the memory budget leaves; past it, GCUT_ERR_NOMEM says so. */
static gcut_status push_entry(mtx_parser *ps, int32_t r, int32_t c)
{
    if (ps->len == ps->cap) {
        int64_t cap = ps->cap ? 2 * ps->cap : 1024;
        const double per = 2.0 * sizeof(int32_t);
        if (ps->budget && per * (double)cap > (double)ps->budget) {
            cap = (int64_t)((double)ps->budget / per);
            if (cap <= ps->len)
                return perr(ps, GCUT_ERR_NOMEM,
                            "cannot store more than %lld entries (%.1f MiB): over the memory "
                            "budget of %.1f MiB (gcut_set_max_memory)",
                            (long long)ps->len, per * (double)ps->len / 1048576.0,
                            (double)ps->budget / 1048576.0);
        }
        int32_t *nr = gcut_i_realloc(ps->row, (size_t)cap * sizeof *nr);
        if (!nr)
            goto nomem;
        ps->row = nr;
        int32_t *nc = gcut_i_realloc(ps->col, (size_t)cap * sizeof *nc);
        if (!nc)
            goto nomem;
        ps->col = nc;
        ps->cap = cap;
    }
    ps->row[ps->len] = r;
    ps->col[ps->len] = c;
    ps->len++;
    return GCUT_OK;
nomem:
    return perr(ps, GCUT_ERR_NOMEM, "out of memory after %lld entries", (long long)ps->len);
}

/* The next line of f into buf (room for MTX_LINE_MAX bytes and a NUL),
 * newline included: its length, 0 at the end of the input, -1 after
 * recording an error (a line too long, a read error, an endless input
 * under a budget). The line counter is the caller's. */
static int64_t read_line(mtx_parser *ps, FILE *f, char *buf)
{
    size_t len = 0;
    int ch = 0;
    flockfile(f);
    while (len < MTX_LINE_MAX && (ch = getc_unlocked(f)) != EOF) {
        buf[len++] = (char)ch;
        if (ch == '\n')
            break;
    }
    funlockfile(f);
    buf[len] = '\0';
    ps->bytes += (int64_t)len;
    if (len == MTX_LINE_MAX && buf[len - 1] != '\n') {
        perr(ps, GCUT_ERR_PARSE, "line longer than %zu bytes", MTX_LINE_MAX);
        return -1;
    }
    if (ch == EOF && ferror(f)) {
        perr(ps, GCUT_ERR_IO, "read error");
        return -1;
    }
    if (ps->budget && (double)ps->bytes > MTX_TEXT_PER_BUDGET * (double)ps->budget) {
        perr(ps, GCUT_ERR_NOMEM,
             "more than %lld bytes of text: over %d times the memory budget of %.1f MiB "
             "(gcut_set_max_memory); an endless input?",
             (long long)ps->bytes, MTX_TEXT_PER_BUDGET, (double)ps->budget / 1048576.0);
        return -1;
    }
    return (int64_t)len;
}

static gcut_status parse_file(mtx_parser *ps, FILE *f, gcut_bipartite **out)
{
    int64_t got;
    int64_t nrows = -1, ncols = -1, declared = -1, seen = 0;
    gcut_status st = GCUT_OK;
    char *text = gcut_i_malloc(MTX_LINE_MAX + 1);
    if (!text)
        return perr(ps, GCUT_ERR_NOMEM, "cannot allocate the line buffer");

    /* 1. The banner, on the first line. */
    ps->line = 1;
    got = read_line(ps, f, text);
    if (got <= 0) {
        st = got < 0 ? gcut_last_status() : perr(ps, GCUT_ERR_PARSE, "empty file");
        goto done;
    }
    /* The line is parsed as a C string: a NUL byte would hide what follows. */
    if (memchr(text, '\0', (size_t)got)) {
        st = perr(ps, GCUT_ERR_PARSE, "NUL byte in the line (a binary file?)");
        goto done;
    }
    if ((st = parse_banner(ps, text)) != GCUT_OK)
        goto done;

    /* 2. Comments, then the size line; 3. the entries. */
    for (;;) {
        ps->line++;
        if ((got = read_line(ps, f, text)) < 0) {
            st = gcut_last_status();
            goto done;
        }
        if (got == 0) {
            ps->line--; /* no such line */
            break;
        }
        if (text[0] == '%')
            continue;
        if (memchr(text, '\0', (size_t)got)) {
            st = perr(ps, GCUT_ERR_PARSE, "NUL byte in the line (a binary file?)");
            goto done;
        }
        if (blank(text))
            continue;
        const char *p = text;
        int64_t i, j;
        if (declared < 0) {
            int64_t e;
            if (read_index(&p, &nrows) != 1 || read_index(&p, &ncols) != 1 ||
                read_index(&p, &e) != 1 || !blank(p)) {
                st = perr(ps, GCUT_ERR_PARSE, "size line must be `ROWS COLS ENTRIES` "
                                              "(three non-negative integers)");
                goto done;
            }
            if (nrows > INT32_MAX || ncols > INT32_MAX) {
                st = perr(ps, GCUT_ERR_OVERFLOW, "%lld x %lld: more than 2^31-1 rows or columns",
                          (long long)nrows, (long long)ncols);
                goto done;
            }
            if (ps->sym != MTX_GENERAL && nrows != ncols) {
                st = perr(ps, GCUT_ERR_PARSE, "a %s matrix must be square, this one is %lld x %lld",
                          ps->sym == MTX_SKEW ? "skew-symmetric" : "symmetric",
                          (long long)nrows, (long long)ncols);
                goto done;
            }
            if ((nrows == 0 || ncols == 0) && e > 0) {
                st = perr(ps, GCUT_ERR_PARSE, "%lld entries in an empty %lld x %lld matrix",
                          (long long)e, (long long)nrows, (long long)ncols);
                goto done;
            }
            declared = e;
            continue;
        }
        if (seen == declared) {
            st = perr(ps, GCUT_ERR_PARSE, "more entries than the %lld of the size line",
                      (long long)declared);
            goto done;
        }
        int ki = read_index(&p, &i), kj = ki == 1 ? read_index(&p, &j) : 0;
        if (ki != 1 || kj != 1) {
            st = perr(ps, GCUT_ERR_PARSE, "entry must start with two positive integers `I J`");
            goto done;
        }
        if (i < 1 || i > nrows) {
            st = perr(ps, GCUT_ERR_PARSE, "row index %lld out of range [1, %lld]", (long long)i,
                      (long long)nrows);
            goto done;
        }
        if (j < 1 || j > ncols) {
            st = perr(ps, GCUT_ERR_PARSE, "column index %lld out of range [1, %lld]",
                      (long long)j, (long long)ncols);
            goto done;
        }
        for (int v = 0; v < ps->values; v++)
            if (!read_value(&p, ps->integer)) {
                st = perr(ps, GCUT_ERR_PARSE, "entry needs %d value%s after I J (%s field)",
                          ps->values, ps->values > 1 ? "s" : "",
                          ps->values == 2 ? "complex" : ps->integer ? "integer" : "real");
                goto done;
            }
        if (!blank(p)) {
            while (*p == ' ' || *p == '\t')
                p++;
            st = perr(ps, GCUT_ERR_PARSE, "unexpected text after the entry: '%.*s'",
                      (int)strcspn(p, "\r\n") < 40 ? (int)strcspn(p, "\r\n") : 40, p);
            goto done;
        }
        if (ps->sym == MTX_SKEW && i == j) {
            st = perr(ps, GCUT_ERR_PARSE, "diagonal entry (%lld, %lld) in a skew-symmetric matrix",
                      (long long)i, (long long)j);
            goto done;
        }
        if ((st = push_entry(ps, (int32_t)(i - 1), (int32_t)(j - 1))) != GCUT_OK ||
            (ps->sym != MTX_GENERAL && i != j &&
             (st = push_entry(ps, (int32_t)(j - 1), (int32_t)(i - 1))) != GCUT_OK))
            goto done;
        seen++;
    }
    if (declared < 0) {
        st = perr(ps, GCUT_ERR_PARSE, "file ends before the size line");
        goto done;
    }
    if (seen < declared) {
        st = perr(ps, GCUT_ERR_PARSE, "file ends after %lld of the %lld entries (truncated?)",
                  (long long)seen, (long long)declared);
        goto done;
    }
    st = gcut_i_bipartite_build(out, (int32_t)nrows, (int32_t)ncols, ps->row, ps->col, ps->len,
                                seen);
    if (st != GCUT_OK) {
        /* The build's message already starts with the public name (GCUT_ENTRY):
         * keep the rest once, after the file's name; no line is at fault. */
        static const char entry[] = "gcut_bipartite_read_mtx: ";
        const char *msg = gcut_last_error();
        if (strncmp(msg, entry, sizeof entry - 1) == 0)
            msg += sizeof entry - 1;
        ps->line = 0;
        st = perr(ps, st, "%s", msg);
    }
done:
    gcut_i_free(text);
    return st;
}

gcut_status gcut_bipartite_read_mtx(gcut_bipartite **out, const char *path)
{
    GCUT_ENTRY();
    if (!out || !path)
        return GCUT_FAIL(GCUT_ERR_INVALID, "out or path is NULL");
    const int use_stdin = strcmp(path, "-") == 0;
    FILE *f = use_stdin ? stdin : fopen(path, "r");
    if (!f)
        return GCUT_FAIL(GCUT_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    mtx_parser ps = {.name = use_stdin ? "<stdin>" : path, .budget = gcut_i_budget()};
    gcut_status st = parse_file(&ps, f, out);
    if (!use_stdin)
        fclose(f);
    gcut_i_free(ps.row);
    gcut_i_free(ps.col);
    return st;
}
