/*
 * dimacs.c - DIMACS max-flow reader and writer (docs/design.md section 2).
 *
 * The format is the one of the First DIMACS Implementation Challenge
 * (D. S. Johnson and C. C. McGeoch, eds., "Network Flows and Matching:
 * First DIMACS Implementation Challenge", DIMACS Series 12, AMS 1993;
 * "Problem Definitions for Network Flows", 1991):
 *
 *     c comment                  (anywhere)
 *     p max NODES ARCS           (exactly once, before every other line)
 *     n ID s                     (the source)
 *     n ID t                     (the sink)
 *     a TAIL HEAD CAP            (ARCS of them, ids 1-based)
 *
 * As that document asks, node lines come before the arc lines: s and t must
 * both be known when the first arc is read, so that each arc is converted
 * to the graph model (graph.h) on the fly and never stored twice.
 *
 * Reading is built for speed, because the first thing a benchmark does is
 * load a file of tens of millions of arcs: text is read in 1 MiB blocks
 * (inflated on the fly when the input starts with the gzip magic), lines are
 * scanned in place, integers are parsed by hand, and arcs go straight into
 * arrays that the graph then adopts. Only complete lines are ever parsed: a
 * block is cut after its last newline and the tail is carried over to the
 * next one, so every scan of a line is guaranteed to stop at a '\n' and
 * needs no bounds check.
 *
 * A large plain file named by its path is also mapped and its arc lines
 * parsed in chunks by several threads ("chunks, in parallel" below), which
 * only ever vouch for lines this fast path accepts and hand everything
 * else back to the block reader.
 *
 * Errors are found cheaply and explained expensively: the arc fast path
 * only decides "this line is fine" or "it is not", and a refused line is
 * parsed again by a careful slow path (arc_error) that names the field and
 * the problem. Valid files never pay for the messages.
 *
 * Invariants of the parser:
 *  - the text between `p` and `end` handed to parse_lines() ends with '\n';
 *  - ps->arcs <= ps->m_decl, and ps->m <= ps->arcs (terminal and dropped
 *    arcs are not stored), so the arc arrays never need more than m_decl;
 *  - no array is sized from the problem line alone (a 40-byte file may
 *    declare 2^31 - 1 nodes and arcs): the arc arrays start at what the
 *    input's size can hold and grow by doubling; the graph's node arrays
 *    (the terminal capacities) hold the nodes up to the highest id a
 *    terminal arc has touched, and reach the declared count only once the
 *    whole file has been accepted (docs/dimacs.md, "Memory");
 *  - the terminal arcs waiting in the queue (arc_terminal) come from lines
 *    before the current one, and are applied in file order;
 *  - nothing reaches the caller until the whole file has been accepted: on
 *    any failure the half-built graph and every buffer are freed.
 *
 * Writing mirrors reading: one 1 MiB buffer, integers formatted by hand,
 * output fully determined by the graph.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#ifdef GCUT_HAVE_ZLIB
#include <zlib.h>
#endif

#include "core/pool_internal.h"
#include "graph/graph_internal.h"
#include "solvers/solvers_internal.h" /* gcut_i_advise_huge */

/* Size of a text block, and so the longest line the reader accepts (longer
 * comment lines are skipped piecewise; longer other lines are an error). */
#define DIMACS_BLOCK ((size_t)1 << 20)

/* Under a memory budget (gcut_set_max_memory) the text read, comments
 * included, may not pass this many times the budget: an endless input (a
 * FIFO fed forever with comments) then ends with GCUT_ERR_NOMEM. An arc is
 * 12 bytes in memory for at least 8 bytes of text ("a 1 2 3\n"), so a file
 * whose arcs fit the budget is far from this bound. */
#define DIMACS_TEXT_PER_BUDGET 4

/* Arcs the arrays start with when the input size is unknown (pipes, gzip). */
#define DIMACS_ARCS_START ((int64_t)1 << 20)

/* Nodes the terminal arrays start with when the input size is unknown. */
#define DIMACS_NODES_START ((int64_t)1 << 20)

/* Values with more significant digits than this are reported as too large. */
#define DIMACS_MAX_DIGITS 18

/* A parsed number too large for any field (more than 18 digits). */
#define DIMACS_HUGE UINT64_MAX

/* ------------------------------------------------------------------ input */

/* A byte source: a FILE*, read raw or through inflate.
 *
 * zlib's gzFile could open a path and read plain and gzip files alike, but
 * not a FILE* handed to us half-read, nor a pipe on stdin whose first bytes
 * we must look at before we know what it is. Driving inflate on our own
 * buffer serves every case with one code path. */
typedef struct dimacs_reader {
    FILE *f;
    int gz;        /* the input is gzip: text comes out of inflate */
    int plain;     /* known to be plain text: no look for the gzip magic */
    int64_t limit; /* bytes the reader may still return, -1: up to the end */
#ifdef GCUT_HAVE_ZLIB
    z_stream z;
    int z_live;         /* inflateInit2 succeeded: inflateEnd is owed */
    int z_done;         /* the last gzip member has ended */
    int raw_eof;        /* fread has reported end of input */
    unsigned char *raw; /* compressed bytes waiting for inflate */
#endif
} dimacs_reader;

/* Terminal arcs whose addition is delayed (see arc_terminal); a power of 2. */
#define DIMACS_TQ 32

typedef struct dimacs_tq_entry {
    int64_t line;        /* for the message if the sum overflows */
    int32_t u, v, c;     /* the arc, 0-based */
    int32_t node;        /* node whose terminal capacity grows */
    int32_t kind;        /* 1: source capacity, 2: sink capacity, 3: both (s -> t) */
} dimacs_tq_entry;

/* The state of one parse. Fields are the parser's memory between blocks;
 * the hot loop keeps copies in locals. */
typedef struct dimacs_parser {
    const char *func; /* public function named in messages */
    const char *name; /* input named in messages */
    int64_t line;     /* number of the current line, 1-based */
    int64_t bytes;    /* text bytes seen */
    /* problem line */
    int have_p;
    int64_t p_line;
    int32_t n;      /* nodes */
    int64_t m_decl; /* arcs declared */
    /* node lines: 0-based ids, -1 until seen */
    int32_t s, t;
    int64_t s_line, t_line;
    /* arcs */
    int64_t arcs;    /* `a` lines accepted */
    int64_t dropped; /* arcs into s or out of t */
    int64_t size_hint; /* upper bound on arcs from the input size, -1 if unknown */
    int32_t *eu, *ev, *ecap;
    int64_t m, m_cap;
    gcut_graph *g; /* created at the problem line */
    dimacs_tq_entry tq[DIMACS_TQ];
    int tq_head, tq_len;
} dimacs_parser;

/* Record a parse failure as "func: name:line: message". Cold by design:
 * every caller is on an error path. */
static gcut_status GCUT_PRINTF(4, 5)
    perr_at(const dimacs_parser *ps, gcut_status st, int64_t line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        return gcut_i_fail(st, ps->func, "%s:%lld: %s", ps->name, (long long)line, msg);
    return gcut_i_fail(st, ps->func, "%s: %s", ps->name, msg);
}

#define PERR(ps, st, ...) perr_at((ps), (st), (ps)->line, __VA_ARGS__)

static gcut_status reader_fill_raw(dimacs_reader *rd, dimacs_parser *ps, unsigned char *dst,
                                   size_t cap, size_t *got)
{
    if (rd->limit >= 0 && (uint64_t)rd->limit < cap)
        cap = (size_t)rd->limit;
    *got = cap ? fread(dst, 1, cap, rd->f) : 0;
    if (*got < cap && ferror(rd->f)) {
        int err = errno;
        return perr_at(ps, GCUT_ERR_IO, 0, "read error: %s", err ? strerror(err) : "unknown");
    }
    if (rd->limit >= 0)
        rd->limit -= (int64_t)*got;
    return GCUT_OK;
}

#ifdef GCUT_HAVE_ZLIB
/* Inflate up to cap bytes of text into dst. Concatenated gzip members (as
 * `cat a.gz b.gz` makes) are read as one stream, like gzip -d does. */
static gcut_status reader_inflate(dimacs_reader *rd, dimacs_parser *ps, char *dst, size_t cap,
                                  size_t *got)
{
    rd->z.next_out = (Bytef *)dst;
    rd->z.avail_out = (uInt)cap;
    while (rd->z.avail_out > 0 && !rd->z_done) {
        if (rd->z.avail_in == 0 && !rd->raw_eof) {
            size_t n;
            gcut_status st = reader_fill_raw(rd, ps, rd->raw, DIMACS_BLOCK, &n);
            if (st != GCUT_OK)
                return st;
            rd->raw_eof = n == 0;
            rd->z.next_in = rd->raw;
            rd->z.avail_in = (uInt)n;
        }
        int ret = inflate(&rd->z, Z_NO_FLUSH);
        if (ret == Z_STREAM_END) {
            /* One member is complete; another may follow. */
            if (rd->z.avail_in == 0 && !rd->raw_eof) {
                size_t n;
                gcut_status st = reader_fill_raw(rd, ps, rd->raw, DIMACS_BLOCK, &n);
                if (st != GCUT_OK)
                    return st;
                rd->raw_eof = n == 0;
                rd->z.next_in = rd->raw;
                rd->z.avail_in = (uInt)n;
            }
            if (rd->z.avail_in == 0)
                rd->z_done = 1;
            else if (inflateReset(&rd->z) != Z_OK)
                return perr_at(ps, GCUT_ERR_INTERNAL, 0, "inflateReset failed");
            continue;
        }
        if (ret == Z_MEM_ERROR)
            return perr_at(ps, GCUT_ERR_NOMEM, 0, "out of memory while inflating gzip data");
        if (ret == Z_DATA_ERROR || ret == Z_NEED_DICT || ret == Z_STREAM_ERROR)
            return perr_at(ps, GCUT_ERR_PARSE, ps->line + 1, "corrupt gzip data (%s)",
                           rd->z.msg ? rd->z.msg : "zlib error");
        /* Z_OK or Z_BUF_ERROR: inflate stops short of filling the output
         * only when it needs input; if none is left and none can come, the
         * compressed stream stopped before its end. */
        if (rd->z.avail_in == 0 && rd->raw_eof && rd->z.avail_out > 0)
            return perr_at(ps, GCUT_ERR_PARSE, ps->line + 1,
                           "truncated gzip data (the compressed stream ends early)");
    }
    *got = cap - rd->z.avail_out;
    return GCUT_OK;
}
#endif

/* Next block of text: up to cap bytes into dst, *got == 0 at the end. */
static gcut_status reader_read(dimacs_reader *rd, dimacs_parser *ps, char *dst, size_t cap,
                               size_t *got)
{
#ifdef GCUT_HAVE_ZLIB
    if (rd->gz)
        return reader_inflate(rd, ps, dst, cap, got);
#endif
    return reader_fill_raw(rd, ps, (unsigned char *)dst, cap, got);
}

/* First block: read it raw and look for the gzip magic (1f 8b). When found,
 * the bytes read so far become the first compressed input and the block is
 * replaced by inflated text. A text file cannot start with these bytes (0x1f
 * is a control character and 0x8b is not ASCII), so the test is safe. */
static gcut_status reader_start(dimacs_reader *rd, dimacs_parser *ps, char *dst, size_t cap,
                                size_t *got)
{
    gcut_status st = reader_fill_raw(rd, ps, (unsigned char *)dst, cap, got);
    if (st != GCUT_OK)
        return st;
    if (rd->plain || *got < 2 || (unsigned char)dst[0] != 0x1f || (unsigned char)dst[1] != 0x8b)
        return GCUT_OK;
#ifdef GCUT_HAVE_ZLIB
    rd->gz = 1;
    ps->size_hint = -1; /* the compressed size says little about the arcs */
    rd->raw = gcut_i_malloc(DIMACS_BLOCK);
    if (!rd->raw)
        return perr_at(ps, GCUT_ERR_NOMEM, 0, "cannot allocate the gzip buffer");
    memcpy(rd->raw, dst, *got);
    memset(&rd->z, 0, sizeof rd->z);
    rd->z.next_in = rd->raw;
    rd->z.avail_in = (uInt)*got;
    rd->raw_eof = *got < cap;
    /* 15 + 16: the largest window, gzip wrapper only. */
    int ret = inflateInit2(&rd->z, 15 + 16);
    if (ret != Z_OK)
        return perr_at(ps, ret == Z_MEM_ERROR ? GCUT_ERR_NOMEM : GCUT_ERR_INTERNAL, 0,
                       "cannot start zlib's inflate (%d)", ret);
    rd->z_live = 1;
    return reader_inflate(rd, ps, dst, cap, got);
#else
    return perr_at(ps, GCUT_ERR_UNSUPPORTED, 0,
                   "the input is gzip-compressed, but this gcut was built without zlib; "
                   "decompress it first (gzip -d)");
#endif
}

static void reader_close(dimacs_reader *rd)
{
#ifdef GCUT_HAVE_ZLIB
    if (rd->z_live)
        inflateEnd(&rd->z);
    gcut_i_free(rd->raw);
#else
    (void)rd;
#endif
}

/* ---------------------------------------------------------------- scanning */

static inline int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* A field ends at a blank or at the end of the line. */
static inline int is_sep(char c) { return is_blank(c) || c == '\n'; }

static inline const char *skip_blanks(const char *p)
{
    while (is_blank(*p))
        p++;
    return p;
}

/* Numbers are parsed by hand: strtol would cost a call, a locale lookup and
 * errno handling per field, several times the work of the loop below, and
 * sscanf far more. Up to 18 digits the value is below 10^18 < 2^63, so the
 * loop needs no overflow test; longer runs are rare and go to long_value(). */

/* Value of a run of more than DIMACS_MAX_DIGITS digits: exact if the leading
 * zeros account for the excess, DIMACS_HUGE otherwise. */
static uint64_t long_value(const char *d, const char *end)
{
    while (d < end && *d == '0')
        d++;
    if (end - d > DIMACS_MAX_DIGITS)
        return DIMACS_HUGE;
    uint64_t v = 0;
    for (; d < end; d++)
        v = v * 10 + (uint64_t)(*d - '0');
    return v;
}

/* Parse the decimal digits at p (none gives p back). */
static inline const char *scan_uint(const char *p, uint64_t *out)
{
    const char *d = p;
    uint64_t v = 0;
    while ((unsigned)(*p - '0') < 10u) {
        v = v * 10 + (uint64_t)(*p - '0');
        p++;
    }
    if (p - d > DIMACS_MAX_DIGITS)
        v = long_value(d, p);
    *out = v;
    return p;
}

/* Copy the field at p (up to the next blank or newline) into buf for a
 * message, with unprintable bytes shown as '?'. */
static const char *field_text(const char *p, char *buf, size_t size)
{
    size_t k = 0;
    while (!is_sep(p[k]) && k + 4 < size) {
        unsigned char c = (unsigned char)p[k];
        buf[k] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
        k++;
    }
    if (!is_sep(p[k])) {
        memcpy(buf + k, "...", 3);
        k += 3;
    }
    buf[k] = '\0';
    return buf;
}

/* A non-negative integer field of at most `max`, named `what` in messages.
 * On success *p moves past the field. Any problem is recorded.
 *
 * This is the careful parser of the slow paths (header lines and refused
 * arc lines): it tells a missing field (the line ends: "truncated") from a
 * negative number, from text that is not a number ("12x" included), from a
 * number out of range, so that the message says which. */
static gcut_status field_uint(dimacs_parser *ps, const char **p, const char *what,
                              const char *usage, uint64_t max, uint64_t *out)
{
    char tok[40];
    const char *q = skip_blanks(*p);
    if (*q == '\n')
        return PERR(ps, GCUT_ERR_PARSE, "truncated line: missing the %s (expected '%s')", what,
                    usage);
    uint64_t v;
    const char *e = scan_uint(q, &v);
    if (*q == '-' && (unsigned)(q[1] - '0') < 10u) {
        return PERR(ps, GCUT_ERR_PARSE, "negative %s %s", what,
                    field_text(q, tok, sizeof tok));
    }
    if (e == q || !is_sep(*e))
        return PERR(ps, GCUT_ERR_PARSE, "the %s '%s' is not a number", what,
                    field_text(q, tok, sizeof tok));
    if (v > max) {
        if (v == DIMACS_HUGE)
            return PERR(ps, GCUT_ERR_PARSE, "the %s %s is too large", what,
                        field_text(q, tok, sizeof tok));
        return PERR(ps, GCUT_ERR_PARSE, "the %s %llu exceeds %llu", what, (unsigned long long)v,
                    (unsigned long long)max);
    }
    *out = v;
    *p = e;
    return GCUT_OK;
}

/* Nothing but blanks may follow the last field. */
static gcut_status line_end(dimacs_parser *ps, const char *p, const char *usage)
{
    char tok[40];
    p = skip_blanks(p);
    if (*p != '\n')
        return PERR(ps, GCUT_ERR_PARSE, "unexpected '%s' after the last field (expected '%s')",
                    field_text(p, tok, sizeof tok), usage);
    return GCUT_OK;
}

/* The arc fast path, shared by the block reader and the chunk parser so that
 * both accept exactly the same lines: q points at an 'a' followed by a
 * blank; three numbers separated by blanks must follow, then the end of
 * the line. Ids are checked as a - 1 >= n in unsigned arithmetic, which
 * also refuses 0 (it wraps around). Returns the line's '\n', or NULL for
 * anything unusual (which the caller hands to arc_error to explain). */
GCUT_INLINE const char *scan_arc(const char *q, uint32_t n, uint64_t *a, uint64_t *b, uint64_t *c)
{
    const char *d = skip_blanks(q + 2);
    const char *e = scan_uint(d, a);
    if (e == d || !is_blank(*e))
        return NULL;
    d = skip_blanks(e);
    e = scan_uint(d, b);
    if (e == d || !is_blank(*e))
        return NULL;
    d = skip_blanks(e);
    e = scan_uint(d, c);
    if (e == d)
        return NULL;
    e = skip_blanks(e);
    if (*e != '\n' || *a - 1 >= n || *b - 1 >= n || *c > (uint64_t)INT32_MAX)
        return NULL;
    return e;
}

/* ------------------------------------------------------------------ lines */

static const char *const P_USAGE = "p max NODES ARCS";
static const char *const N_USAGE = "n ID s|t";
static const char *const A_USAGE = "a TAIL HEAD CAP";

/* Give the arc arrays room for exactly cap arcs (the checked path of
 * core_internal.h: a failure names the size and the declared count). */
static gcut_status resize_arcs(dimacs_parser *ps, int64_t cap)
{
    /* The budget holds for the graph's arrays together: the arcs' four
     * (the reverse capacities come at the end) and the nodes' two. */
    const size_t budget = gcut_i_budget();
    const double nodes = ps->g ? 2.0 * sizeof(int32_t) * (double)ps->g->n_alloc : 0.0;
    if (budget && nodes + 4.0 * sizeof(int32_t) * (double)cap > (double)budget) {
        const int64_t fit = (int64_t)(((double)budget - nodes) / (4.0 * sizeof(int32_t)));
        if (fit <= ps->m)
            return gcut_i_budget_charge(NULL, nodes + 4.0 * sizeof(int32_t) * (double)cap, ps->func,
                                        "%lld arcs of DIMACS file %s (%lld declared)",
                                        (long long)cap, ps->name, (long long)ps->m_decl);
        cap = fit; /* what fits; the next growth fails */
    }
    int32_t **arr[3] = {&ps->eu, &ps->ev, &ps->ecap};
    for (int k = 0; k < 3; k++) {
        gcut_status st = gcut_i_alloc_array((void **)arr[k], cap, sizeof(int32_t), ps->func,
                                            "%lld arcs of DIMACS file %s (%lld declared)",
                                            (long long)cap, ps->name, (long long)ps->m_decl);
        if (st != GCUT_OK)
            return st;
    }
    ps->m_cap = cap;
    return GCUT_OK;
}

/* Make nodes [0, need) of the graph exist (need <= ps->n), their terminal
 * capacities zero. Room grows by doubling, never past the declared count,
 * so a file pays for the node ids it uses, not for the ones it declares. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static gcut_status reserve_nodes(dimacs_parser *ps, int64_t need)
{
    gcut_graph *g = ps->g;
    if (need <= g->n)
        return GCUT_OK;
    if (need > g->n_alloc) {
        int64_t cap = 2 * (int64_t)g->n_alloc;
        if (cap < need)
            cap = need;
        if (cap > ps->n)
            cap = ps->n;
        const size_t budget = gcut_i_budget();
        const double arcs = 4.0 * sizeof(int32_t) * (double)ps->m_cap;
        if (budget && arcs + 2.0 * sizeof(int32_t) * (double)cap > (double)budget) {
            const int64_t fit = (int64_t)(((double)budget - arcs) / (2.0 * sizeof(int32_t)));
            if (fit < need)
                return gcut_i_budget_charge(
                    NULL, arcs + 2.0 * sizeof(int32_t) * (double)need, ps->func,
                    "the terminal capacities of %lld nodes of DIMACS file %s (%d declared)",
                    (long long)need, ps->name, (int)ps->n);
            cap = fit;
        }
        int32_t **arr[2] = {&g->cap_source, &g->cap_sink};
        for (int k = 0; k < 2; k++) {
            gcut_status st = gcut_i_alloc_array(
                (void **)arr[k], cap, sizeof(int32_t), ps->func,
                "the terminal capacities of %lld nodes of DIMACS file %s (%d declared)",
                (long long)cap, ps->name, (int)ps->n);
            if (st != GCUT_OK)
                return st;
        }
        g->n_alloc = (int32_t)cap;
    }
    memset(g->cap_source + g->n, 0, (size_t)(need - g->n) * sizeof(int32_t));
    memset(g->cap_sink + g->n, 0, (size_t)(need - g->n) * sizeof(int32_t));
    g->n = (int32_t)need;
    return GCUT_OK;
}

/* Double the arc arrays, never past the declared count (more arcs than
 * declared is an error found before any store). */
static gcut_status grow_arcs(dimacs_parser *ps)
{
    int64_t cap = ps->m_cap < 1024 ? 1024 : 2 * ps->m_cap;
    if (cap > ps->m_decl)
        cap = ps->m_decl;
    return resize_arcs(ps, cap);
}

static gcut_status line_problem(dimacs_parser *ps, const char *q)
{
    char tok[40];
    if (ps->have_p)
        return PERR(ps, GCUT_ERR_PARSE, "second problem line (the first is at line %lld)",
                    (long long)ps->p_line);
    q = skip_blanks(q + 1);
    if (*q == '\n')
        return PERR(ps, GCUT_ERR_PARSE, "truncated line: missing the problem type (expected '%s')",
                    P_USAGE);
    if (!(q[0] == 'm' && q[1] == 'a' && q[2] == 'x' && is_sep(q[3])))
        return PERR(ps, GCUT_ERR_PARSE,
                    "problem type '%s' is not 'max': only max-flow files can be read",
                    field_text(q, tok, sizeof tok));
    q += 3;
    uint64_t n, m;
    gcut_status st = field_uint(ps, &q, "node count", P_USAGE, (uint64_t)GCUT_MAX_NODES, &n);
    if (st == GCUT_OK)
        st = field_uint(ps, &q, "arc count", P_USAGE, (uint64_t)INT64_MAX, &m);
    if (st == GCUT_OK)
        st = line_end(ps, q, P_USAGE);
    if (st != GCUT_OK)
        return st;
    /* s and t must be distinct nodes, so fewer than two cannot be valid;
     * saying so here gives a clearer message than "s == t" later. */
    if (n < 2)
        return PERR(ps, GCUT_ERR_PARSE, "node count %llu: a max-flow problem needs at least 2 "
                    "nodes (s and t)", (unsigned long long)n);
    ps->have_p = 1;
    ps->p_line = ps->line;
    ps->n = (int32_t)n;
    ps->m_decl = (int64_t)m;
    /* The graph exists from here on: terminal capacities accumulate in it
     * directly, and its (empty) edge arrays are replaced by ours at the end.
     * It starts with no more nodes than the input has bytes (8 bytes of
     * node arrays per byte of file) and grows as terminal arcs name higher
     * ids (reserve_nodes). */
    st = gcut_graph_new(&ps->g, 0, 0);
    if (st != GCUT_OK)
        return PERR(ps, st, "cannot create a graph");
    int64_t nodes = ps->size_hint >= 0 ? ps->size_hint : DIMACS_NODES_START;
    st = reserve_nodes(ps, nodes < ps->n ? nodes : ps->n);
    if (st != GCUT_OK)
        return st;
    /* Start the arc arrays at the declared size when the input is big enough
     * to hold that many arcs ("a 1 2 3\n" is 8 bytes): an honest file then
     * never grows them, and a lying header cannot make us allocate much
     * more than the file itself. */
    int64_t want = ps->m_decl;
    int64_t bound = ps->size_hint >= 0 ? ps->size_hint / 8 + 1 : DIMACS_ARCS_START;
    if (want > bound)
        want = bound;
    return want > 0 ? resize_arcs(ps, want) : GCUT_OK;
}

static gcut_status line_node(dimacs_parser *ps, const char *q)
{
    char tok[40];
    uint64_t id;
    q++;
    gcut_status st = field_uint(ps, &q, "node id", N_USAGE, DIMACS_HUGE - 1, &id);
    if (st != GCUT_OK)
        return st;
    if (id < 1 || id > (uint64_t)ps->n)
        return PERR(ps, GCUT_ERR_PARSE, "node id %llu out of range [1, %d]",
                    (unsigned long long)id, (int)ps->n);
    q = skip_blanks(q);
    if (*q == '\n')
        return PERR(ps, GCUT_ERR_PARSE, "truncated line: missing the node flag (expected '%s')",
                    N_USAGE);
    if (!((q[0] == 's' || q[0] == 't') && is_sep(q[1])))
        return PERR(ps, GCUT_ERR_PARSE, "node flag '%s' is neither 's' nor 't'",
                    field_text(q, tok, sizeof tok));
    int is_s = q[0] == 's';
    st = line_end(ps, q + 1, N_USAGE);
    if (st != GCUT_OK)
        return st;
    int32_t v = (int32_t)(id - 1);
    int32_t *slot = is_s ? &ps->s : &ps->t;
    int64_t *slot_line = is_s ? &ps->s_line : &ps->t_line;
    if (*slot >= 0)
        return PERR(ps, GCUT_ERR_PARSE, "second %s node line (node %d is the %s, line %lld)",
                    is_s ? "source" : "sink", (int)*slot + 1, is_s ? "source" : "sink",
                    (long long)*slot_line);
    int32_t other = is_s ? ps->t : ps->s;
    if (other == v)
        return PERR(ps, GCUT_ERR_PARSE, "node %d cannot be both the source and the sink",
                    (int)id);
    *slot = v;
    *slot_line = ps->line;
    return GCUT_OK;
}

/* Re-parse an arc line that the fast path refused, to say exactly why. */
static gcut_status arc_error(dimacs_parser *ps, const char *q)
{
    uint64_t u, v, c;
    q++;
    gcut_status st = field_uint(ps, &q, "tail node id", A_USAGE, DIMACS_HUGE - 1, &u);
    if (st == GCUT_OK)
        st = field_uint(ps, &q, "head node id", A_USAGE, DIMACS_HUGE - 1, &v);
    if (st == GCUT_OK)
        st = field_uint(ps, &q, "capacity", A_USAGE, (uint64_t)INT32_MAX, &c);
    if (st == GCUT_OK)
        st = line_end(ps, q, A_USAGE);
    if (st != GCUT_OK)
        return st;
    if (u < 1 || u > (uint64_t)ps->n || v < 1 || v > (uint64_t)ps->n)
        return PERR(ps, GCUT_ERR_PARSE, "arc %llu -> %llu: node id out of range [1, %d]",
                    (unsigned long long)u, (unsigned long long)v, (int)ps->n);
    return PERR(ps, GCUT_ERR_INTERNAL, "arc line refused for no known reason");
}

/* Add one queued terminal arc to its node, checking the int32 sum. */
static gcut_status tq_apply(dimacs_parser *ps, const dimacs_tq_entry *e)
{
    int32_t *cs = ps->g->cap_source, *ct = ps->g->cap_sink;
    const int32_t x = e->node;
    if ((e->kind & 1) && (int64_t)cs[x] + e->c > INT32_MAX)
        return perr_at(ps, GCUT_ERR_OVERFLOW, e->line,
                       "arc %d -> %d: the source capacity of node %d sums past %d",
                       (int)e->u + 1, (int)e->v + 1, (int)x + 1, (int)INT32_MAX);
    if ((e->kind & 2) && (int64_t)ct[x] + e->c > INT32_MAX)
        return perr_at(ps, GCUT_ERR_OVERFLOW, e->line,
                       "arc %d -> %d: the sink capacity of node %d sums past %d",
                       (int)e->u + 1, (int)e->v + 1, (int)x + 1, (int)INT32_MAX);
    if (e->kind & 1)
        cs[x] += e->c;
    if (e->kind & 2)
        ct[x] += e->c;
    return GCUT_OK;
}

/* Apply every queued terminal arc, oldest first. */
static gcut_status tq_drain(dimacs_parser *ps)
{
    gcut_status st = GCUT_OK;
    while (ps->tq_len > 0 && st == GCUT_OK) {
        st = tq_apply(ps, &ps->tq[ps->tq_head]);
        ps->tq_head = (ps->tq_head + 1) & (DIMACS_TQ - 1);
        ps->tq_len--;
    }
    return st;
}

/* An arc touching s or t: a terminal capacity, or dropped. u and v are
 * 0-based and valid.
 *
 * Terminal capacities are read-modify-writes at the arc's node, which in
 * files that list terminal arcs in no particular order is a cache miss per
 * arc that stalls the parser. So the node's entry is prefetched now and
 * the addition waits in a small FIFO until DIMACS_TQ later terminal arcs
 * have been parsed. The FIFO keeps file order, and parse_stream() drains it
 * before reporting any other error, so the first error in file order is
 * still the one reported. */
static gcut_status arc_terminal(dimacs_parser *ps, int32_t u, int32_t v, int32_t c)
{
    const int32_t s = ps->s, t = ps->t;
    if (v == s || u == t) {
        ps->dropped++; /* into s or out of t: never carries flow */
        return GCUT_OK;
    }
    /* s -> t: the model has no arc between terminals, so node s itself (an
     * isolated node otherwise) gets the capacity on both sides and carries
     * exactly c units. */
    dimacs_tq_entry e;
    e.line = ps->line;
    e.u = u;
    e.v = v;
    e.c = c;
    if (u == s) {
        e.node = v == t ? s : v;
        e.kind = v == t ? 3 : 1;
    } else {
        e.node = u;
        e.kind = 2;
    }
    if (GCUT_UNLIKELY(e.node >= ps->g->n)) {
        gcut_status st = reserve_nodes(ps, (int64_t)e.node + 1);
        if (st != GCUT_OK)
            return st;
    }
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(e.kind & 1 ? &ps->g->cap_source[e.node] : &ps->g->cap_sink[e.node], 1);
#endif
    if (ps->tq_len == DIMACS_TQ) {
        gcut_status st = tq_apply(ps, &ps->tq[ps->tq_head]);
        if (st != GCUT_OK)
            return st;
        ps->tq_head = (ps->tq_head + 1) & (DIMACS_TQ - 1);
        ps->tq_len--;
    }
    ps->tq[(ps->tq_head + ps->tq_len) & (DIMACS_TQ - 1)] = e;
    ps->tq_len++;
    return GCUT_OK;
}

/* Every line but an accepted arc line: comments, blanks, p, n, and arc
 * lines that come too early. q is the first non-blank byte of the line. */
static gcut_status line_other(dimacs_parser *ps, const char *q)
{
    char tok[40];
    const char c = *q;
    if (c == '\n' || c == 'c')
        return GCUT_OK;
    if ((c == 'p' || c == 'n' || c == 'a') && !is_sep(q[1]))
        return PERR(ps, GCUT_ERR_PARSE, "unknown line type '%s' (expected c, p, n or a)",
                    field_text(q, tok, sizeof tok));
    switch (c) {
    case 'p':
        return line_problem(ps, q);
    case 'n':
    case 'a':
        if (!ps->have_p)
            return PERR(ps, GCUT_ERR_PARSE,
                        "'%c' line before the problem line ('%s'); only comments may precede it",
                        c, P_USAGE);
        if (c == 'n')
            return line_node(ps, q);
        if (ps->s < 0 || ps->t < 0)
            return PERR(ps, GCUT_ERR_PARSE,
                        "arc line before the %s node line ('n ID %s'): s and t must be given "
                        "before the arcs",
                        ps->s < 0 ? "source" : "sink", ps->s < 0 ? "s" : "t");
        return arc_error(ps, q); /* the fast path refused it: say why */
    default:
        return PERR(ps, GCUT_ERR_PARSE, "unknown line type '%s' (expected c, p, n or a)",
                    field_text(q, tok, sizeof tok));
    }
}

/* Parse the complete lines in [p, end); end[-1] is '\n'. The arc path is
 * kept in locals (the arrays and counters) so that the compiler need not
 * reload them after every store; they are written back before any call
 * that may look at the parser. */
static gcut_status parse_lines(dimacs_parser *ps, const char *p, const char *end)
{
    int32_t *eu = ps->eu, *ev = ps->ev, *ecap = ps->ecap;
    int64_t m = ps->m, m_cap = ps->m_cap, arcs = ps->arcs, line = ps->line;
    const int64_t m_decl = ps->m_decl;
    const uint32_t n = (uint32_t)ps->n;
    const uint32_t s = (uint32_t)ps->s, t = (uint32_t)ps->t;
    const int arcs_ok = ps->have_p && ps->s >= 0 && ps->t >= 0;
    gcut_status st = GCUT_OK;

#define SYNC_OUT()                                                                                 \
    do {                                                                                           \
        ps->m = m;                                                                                 \
        ps->arcs = arcs;                                                                           \
        ps->line = line;                                                                           \
    } while (0)

    while (p < end) {
        line++;
        const char *q = skip_blanks(p);
        if (q[0] == 'a' && is_blank(q[1]) && arcs_ok) {
            /* The fast path (scan_arc); anything unusual goes to slow_arc,
             * which explains it. */
            uint64_t a, b, c;
            const char *e = scan_arc(q, n, &a, &b, &c);
            if (!e)
                goto slow_arc;
            if (arcs == m_decl) {
                SYNC_OUT();
                return PERR(ps, GCUT_ERR_PARSE, "more arc lines than the %lld declared "
                            "by the problem line (line %lld)",
                            (long long)m_decl, (long long)ps->p_line);
            }
            arcs++;
            /* Most arcs are inner arcs: one predictable test sends the few
             * that touch s or t aside. */
            const uint32_t u = (uint32_t)(a - 1), v = (uint32_t)(b - 1);
            if (u == s || u == t || v == s || v == t) {
                SYNC_OUT();
                st = arc_terminal(ps, (int32_t)u, (int32_t)v, (int32_t)c);
                if (st != GCUT_OK)
                    return st;
            } else {
                if (m == m_cap) {
                    SYNC_OUT();
                    st = grow_arcs(ps);
                    if (st != GCUT_OK)
                        return st;
                    eu = ps->eu;
                    ev = ps->ev;
                    ecap = ps->ecap;
                    m_cap = ps->m_cap;
                }
                eu[m] = (int32_t)u;
                ev[m] = (int32_t)v;
                ecap[m] = (int32_t)c;
                m++;
            }
            p = e + 1;
            continue;
        slow_arc:
            SYNC_OUT();
            return arc_error(ps, q);
        }
        if (*q == 'c') {
            /* Comments are skipped without looking at them. */
            p = (const char *)memchr(q, '\n', (size_t)(end - q)) + 1;
            continue;
        }
        SYNC_OUT();
        st = line_other(ps, q);
        if (st != GCUT_OK)
            return st;
        if (!arcs_ok && ps->have_p && ps->s >= 0 && ps->t >= 0) {
            /* This line completed the header: restart with the arc path on. */
            p = (const char *)memchr(q, '\n', (size_t)(end - q)) + 1;
            return parse_lines(ps, p, end);
        }
        p = (const char *)memchr(q, '\n', (size_t)(end - q)) + 1;
    }
    SYNC_OUT();
#undef SYNC_OUT
    return GCUT_OK;
}

/* Read the whole input block by block.
 *
 * Each block is cut after its last newline; the incomplete line after it
 * moves to the front of the buffer and the next read appends to it. A block
 * with no newline at all holds a line longer than the buffer: a comment is
 * then skipped piece by piece (`skipping`) until its newline turns up, since
 * DIMACS files in the wild carry long comment headers; any other line that
 * long cannot be valid and is an error. At the end of the input, a last
 * line without a newline gets one (the buffer has a spare byte for it). */
static gcut_status parse_stream(dimacs_parser *ps, dimacs_reader *rd)
{
    char *buf = gcut_i_malloc(DIMACS_BLOCK + 1); /* + 1: a '\n' after a last unterminated line */
    if (!buf) {
        const size_t budget = gcut_i_budget();
        if (budget && DIMACS_BLOCK + 1 > budget)
            return perr_at(ps, GCUT_ERR_NOMEM, 0,
                           "cannot allocate the read buffer of %.1f MiB: over the memory budget "
                           "of %.3f MiB (gcut_set_max_memory / --max-memory)",
                           (DIMACS_BLOCK + 1) / 1048576.0, budget / 1048576.0);
        return perr_at(ps, GCUT_ERR_NOMEM, 0, "cannot allocate the read buffer (%.1f MiB)",
                       (DIMACS_BLOCK + 1) / 1048576.0);
    }
    gcut_status st;
    size_t keep = 0;  /* bytes of an incomplete line at the start of buf */
    int skipping = 0; /* inside a comment longer than the buffer */
    int first = 1;
    for (;;) {
        size_t got;
        st = first ? reader_start(rd, ps, buf, DIMACS_BLOCK, &got)
                   : reader_read(rd, ps, buf + keep, DIMACS_BLOCK - keep, &got);
        first = 0;
        if (st != GCUT_OK)
            goto done;
        ps->bytes += (int64_t)got;
        const size_t budget = gcut_i_budget();
        if (budget && (double)ps->bytes > DIMACS_TEXT_PER_BUDGET * (double)budget) {
            st = perr_at(ps, GCUT_ERR_NOMEM, ps->line + 1,
                         "more than %lld bytes of text: over %d times the memory budget of "
                         "%.1f MiB (gcut_set_max_memory); an endless input?",
                         (long long)ps->bytes, DIMACS_TEXT_PER_BUDGET, (double)budget / 1048576.0);
            goto done;
        }
        size_t len = keep + got, start = 0;
        if (got == 0) {
            if (!skipping && len > 0) {
                buf[len++] = '\n';
                st = parse_lines(ps, buf, buf + len);
            }
            goto done;
        }
        if (skipping) {
            const char *nl = memchr(buf, '\n', len);
            if (!nl) {
                keep = 0;
                continue;
            }
            skipping = 0;
            start = (size_t)(nl - buf) + 1;
        }
        size_t last = len;
        while (last > start && buf[last - 1] != '\n')
            last--;
        if (last == start) {
            /* No complete line in the block. */
            if (start == 0 && len == DIMACS_BLOCK) {
                buf[len] = '\n'; /* the spare byte stops skip_blanks */
                const char *q = skip_blanks(buf);
                if (q < buf + len && *q == 'c') {
                    ps->line++; /* the comment line, counted once */
                    skipping = 1;
                    keep = 0;
                    continue;
                }
                st = perr_at(ps, GCUT_ERR_PARSE, ps->line + 1,
                             "line longer than %zu bytes", DIMACS_BLOCK);
                goto done;
            }
            memmove(buf, buf + start, len - start);
            keep = len - start;
            continue;
        }
        st = parse_lines(ps, buf + start, buf + last);
        if (st != GCUT_OK)
            goto done;
        keep = len - last;
        memmove(buf, buf + last, keep);
    }
done:
    gcut_i_free(buf);
    /* Queued terminal arcs come from lines before any failure found so far,
     * so an overflow among them is the error to report. */
    if (ps->g) {
        gcut_status st2 = tq_drain(ps);
        if (st2 != GCUT_OK)
            st = st2;
    }
    return st;
}

/* Checks that only the end of the input can make. The line named is the
 * last one of the file, where the reader noticed what was missing. */
static gcut_status parse_finish(dimacs_parser *ps)
{
    const int64_t last = ps->line;
    if (!ps->have_p)
        return perr_at(ps, GCUT_ERR_PARSE, last,
                       last == 0 ? "empty input: missing the problem line ('%s')"
                                 : "missing the problem line ('%s')",
                       P_USAGE);
    if (ps->s < 0 || ps->t < 0)
        return perr_at(ps, GCUT_ERR_PARSE, last, "missing the %s node line ('n ID %s')",
                       ps->s < 0 ? "source" : "sink", ps->s < 0 ? "s" : "t");
    if (ps->arcs < ps->m_decl)
        return perr_at(ps, GCUT_ERR_PARSE, last,
                       "file ends after %lld of %lld arcs declared by the problem line (line %lld)",
                       (long long)ps->arcs, (long long)ps->m_decl, (long long)ps->p_line);
    return GCUT_OK;
}

/* Hand the arc arrays over to the graph (no copy): for a 10M-arc file this
 * saves the 120 MB copy and the validation pass of gcut_graph_add_edges(),
 * whose checks the parser has already made line by line. The reverse
 * capacities are all zero. */
static gcut_status adopt_arcs(dimacs_parser *ps)
{
    gcut_graph *g = ps->g;
    const int64_t m = ps->m;
    if (m == 0)
        return GCUT_OK; /* the graph keeps its empty edge arrays */
    int32_t *erev = NULL;
    gcut_status st = gcut_i_alloc_array((void **)&erev, m, sizeof(int32_t), ps->func,
                                        "the reverse capacities of %lld edges of DIMACS file %s",
                                        (long long)m, ps->name);
    if (st != GCUT_OK)
        return st;
    memset(erev, 0, (size_t)m * sizeof(int32_t));
    if (ps->m_cap > m) {
        /* Give back what a generous first guess left unused; a failed shrink
         * keeps the larger block, which is still correct. */
        int32_t **arr[3] = {&ps->eu, &ps->ev, &ps->ecap};
        for (int k = 0; k < 3; k++) {
            int32_t *q = gcut_i_realloc(*arr[k], (size_t)m * sizeof(int32_t));
            if (q)
                *arr[k] = q;
        }
    }
    gcut_i_free(g->eu);
    gcut_i_free(g->ev);
    gcut_i_free(g->ecap);
    gcut_i_free(g->erev);
    g->eu = ps->eu;
    g->ev = ps->ev;
    g->ecap = ps->ecap;
    g->erev = erev;
    g->m = m;
    g->m_alloc = m; /* every array holds at least m entries */
    ps->eu = ps->ev = ps->ecap = NULL;
    return GCUT_OK;
}

/* Parse f from its current position, block by block: to its end, or only
 * its next `limit` bytes (limit >= 0). `plain`: the text is known not to be
 * gzip (it starts mid-file), so its first bytes are not looked at. */
static gcut_status parse_serial(dimacs_parser *ps, FILE *f, int plain, int64_t limit)
{
    dimacs_reader rd;
    memset(&rd, 0, sizeof rd);
    rd.f = f;
    rd.plain = plain;
    rd.limit = limit;
    gcut_status st = parse_stream(ps, &rd);
    reader_close(&rd);
    return st;
}

/* --------------------------------------------------- chunks, in parallel */

/* A large regular file named by its path is mapped and its arc lines are
 * parsed in chunks by several threads (docs/dimacs.md, "Speed"):
 *
 *  1. the header (everything before the first line that starts with 'a')
 *     is read by the block reader, as ever;
 *  2. the arc lines up to the file's last newline are cut into chunks at
 *     line starts; each chunk's lines that start with 'a' are counted,
 *     which gives it its slots in the parser's arc arrays; each thread
 *     then takes chunks in turn and parses them with the block reader's
 *     fast path (scan_arc), writing the edges into the chunk's slots and
 *     the arcs touching s or t, with their line numbers, into a list of
 *     the chunk's own. A chunk stops at the first line the fast path does
 *     not accept as fine (an arc it refuses, any other line type, a line
 *     longer than DIMACS_CHUNK_LINE) and does not say why. In file order,
 *     whichever thread finishes the chunk at the frontier moves the edges
 *     of the finished chunks down next to those before (par_advance), up
 *     to the first chunk that stopped or that would pass the declared
 *     count;
 *  3. the driver then hands the terminal arcs of the chunks before that
 *     one to arc_terminal one by one with their global line numbers,
 *     exactly as the block reader would have;
 *  4. the block reader parses the rest of the file from the start of that
 *     chunk (or the unterminated last line), which finds and explains the
 *     first error, if any.
 *
 * So every message, the arc order, the terminal capacities and the info
 * struct are the block reader's by construction: the chunks only ever
 * decide "these lines are fine", and the first line they do not vouch for
 * is read again by the block reader with the parser's state exact up to
 * it. */

/* Files smaller than this are read by the block reader alone. */
#define DIMACS_PAR_MIN ((int64_t)8 << 20)

/* Automatic thread count: the online CPUs, at most this many. */
#define DIMACS_PAR_MAX_THREADS 16

/* Chunks per thread (taken in turn, so a slow thread gets fewer), and
 * the smallest chunk. */
#define DIMACS_PAR_CHUNKS_PER_THREAD 4
#define DIMACS_PAR_CHUNK_MIN ((int64_t)1 << 20)

/* A line longer than this stops a chunk: the block reader judges it
 * (it refuses lines past DIMACS_BLOCK, which a chunk never measures). */
#define DIMACS_CHUNK_LINE 4096

/* Terminal arcs a chunk's list starts with; it doubles, in huge pages
 * (page faults of fresh memory were a third of a first profile:
 * bench/results/parse-2026-11-27.md). */
#define DIMACS_CHUNK_START ((int64_t)1 << 16)

typedef struct dimacs_term {
    int64_t line; /* within the chunk, 1-based */
    int32_t u, v, c;
} dimacs_term;

typedef struct dimacs_chunk {
    const char *begin, *end; /* whole lines: end[-1] == '\n' */
    int64_t slots;           /* lines that start with 'a': room for its edges */
    int64_t off;             /* its edges' first slot in the parser's arrays */
    int64_t lines;           /* lines parsed */
    int64_t arcs;            /* `a` lines accepted */
    int64_t m;               /* edges */
    dimacs_term *term;       /* arcs touching s or t, in order */
    int64_t nterm, term_cap;
    int stop; /* a line the fast path did not vouch for, or out of memory */
    int done; /* parsed (under the lock) */
} dimacs_chunk;

typedef struct dimacs_par {
    dimacs_chunk *chunk;
    int64_t nchunk;
    atomic_int_fast64_t next;    /* next chunk to take */
    atomic_int_fast64_t stopped; /* lowest chunk that stopped (nchunk: none) */
    int32_t *eu, *ev, *ecap;     /* the parser's arrays */
    uint32_t n, s, t;
    int64_t m_decl;
    /* The edges of chunks [0, frontier) are in place, packed from slot 0
     * to `dst`; `arcs` counts their `a` lines (and the arcs before them).
     * `halted`: the chunk at the frontier stopped or passes the declared
     * count, so nothing after it moves. All under `lock`. */
    pthread_mutex_t lock;
    int64_t frontier, dst, arcs;
    int halted;
} dimacs_par;

/* Room for one more terminal arc: double. */
static int chunk_grow_term(dimacs_chunk *ch)
{
    const int64_t want = ch->term_cap ? 2 * ch->term_cap : DIMACS_CHUNK_START;
    dimacs_term *q = gcut_i_realloc(ch->term, (size_t)want * sizeof *q);
    if (!q)
        return -1;
    gcut_i_advise_huge(q + ch->nterm, (size_t)(want - ch->nterm) * sizeof *q);
    ch->term = q;
    ch->term_cap = want;
    return 0;
}

/* Lines of [p, end) whose first non-blank byte is 'a': a bound on the
 * chunk's edges, known before any is parsed, which gives each chunk its
 * slots in the parser's arrays (step 2 writes there directly). */
static int64_t chunk_count_slots(const char *p, const char *end)
{
    int64_t k = 0;
    while (p < end) {
        const char *q = skip_blanks(p);
        k += *q == 'a';
        p = (const char *)memchr(q, '\n', (size_t)(end - q)) + 1;
    }
    return k;
}

/* Parse one chunk (step 2). Only the block reader's fast path is taken;
 * everything else stops the chunk. */
static void chunk_parse(const dimacs_par *par, dimacs_chunk *ch)
{
    const char *p = ch->begin, *const end = ch->end;
    const uint32_t n = par->n, s = par->s, t = par->t;
    /* No slots, no arrays maybe (a file that declares no arcs). */
    int32_t *const eu = ch->slots ? par->eu + ch->off : NULL;
    int32_t *const ev = ch->slots ? par->ev + ch->off : NULL;
    int32_t *const ecap = ch->slots ? par->ecap + ch->off : NULL;
    int64_t line = 0, arcs = 0, m = 0;
    while (p < end) {
        line++;
        const char *q = skip_blanks(p);
        if (q[0] == 'a' && is_blank(q[1])) {
            uint64_t a, b, c;
            const char *e = scan_arc(q, n, &a, &b, &c);
            if (!e || e - p > DIMACS_CHUNK_LINE)
                goto stop;
            arcs++;
            const uint32_t u = (uint32_t)(a - 1), v = (uint32_t)(b - 1);
            if (u == s || u == t || v == s || v == t) {
                if (ch->nterm == ch->term_cap && chunk_grow_term(ch) != 0)
                    goto stop;
                dimacs_term *r = &ch->term[ch->nterm++];
                r->line = line;
                r->u = (int32_t)u;
                r->v = (int32_t)v;
                r->c = (int32_t)c;
            } else {
                /* m < slots: every edge comes from a line that starts with 'a'. */
                eu[m] = (int32_t)u;
                ev[m] = (int32_t)v;
                ecap[m] = (int32_t)c;
                m++;
            }
            p = e + 1;
            continue;
        }
        if (q - p > DIMACS_CHUNK_LINE)
            goto stop;
        if (*q == 'c') {
            p = (const char *)memchr(q, '\n', (size_t)(end - q)) + 1;
            continue;
        }
        if (*q == '\n') {
            p = q + 1;
            continue;
        }
        goto stop;
    }
    ch->lines = line;
    ch->arcs = arcs;
    ch->m = m;
    return;
stop:
    ch->stop = 1;
}

/* Move the edges of the parsed chunks at the frontier down to their place,
 * in file order, as far as the chunks allow (lock held). A chunk's edges
 * only move down (dst <= off), below the slots of every later chunk, so
 * this runs while other threads still parse later chunks: the packing
 * is mostly done when the last chunk is. */
static void par_advance(dimacs_par *par)
{
    while (!par->halted && par->frontier < par->nchunk) {
        const dimacs_chunk *ch = &par->chunk[par->frontier];
        if (!ch->done)
            return;
        if (ch->stop || ch->arcs > par->m_decl - par->arcs) {
            par->halted = 1;
            return;
        }
        if (par->dst != ch->off && ch->m > 0) {
            const size_t bytes = (size_t)ch->m * sizeof(int32_t);
            memmove(par->eu + par->dst, par->eu + ch->off, bytes);
            memmove(par->ev + par->dst, par->ev + ch->off, bytes);
            memmove(par->ecap + par->dst, par->ecap + ch->off, bytes);
        }
        par->dst += ch->m;
        par->arcs += ch->arcs;
        par->frontier++;
    }
}

static void par_count_job(void *ctx, int32_t id, int32_t nthreads)
{
    (void)id;
    (void)nthreads;
    dimacs_par *par = ctx;
    for (;;) {
        const int64_t k = atomic_fetch_add(&par->next, 1);
        if (k >= par->nchunk)
            return;
        par->chunk[k].slots = chunk_count_slots(par->chunk[k].begin, par->chunk[k].end);
    }
}

static void par_parse_job(void *ctx, int32_t id, int32_t nthreads)
{
    (void)id;
    (void)nthreads;
    dimacs_par *par = ctx;
    for (;;) {
        const int64_t k = atomic_fetch_add(&par->next, 1);
        if (k >= par->nchunk)
            return;
        dimacs_chunk *ch = &par->chunk[k];
        /* Chunks past one that stopped are never used. */
        if (!ch->stop && k <= atomic_load(&par->stopped))
            chunk_parse(par, ch);
        if (ch->stop) {
            int_fast64_t cur = atomic_load(&par->stopped);
            while (k < cur && !atomic_compare_exchange_weak(&par->stopped, &cur, k))
                ;
        }
        pthread_mutex_lock(&par->lock);
        ch->done = 1;
        par_advance(par);
        pthread_mutex_unlock(&par->lock);
    }
}

static void par_free(dimacs_par *par)
{
    for (int64_t k = 0; k < par->nchunk; k++)
        gcut_i_free(par->chunk[k].term);
    gcut_i_free(par->chunk);
}

/* Cut [begin, last) (whole lines) into chunks of about `bytes` bytes, each
 * ending after a newline. Returns the number of chunks. */
static int64_t par_cut(dimacs_chunk *chunk, const char *begin, const char *last, int64_t bytes)
{
    int64_t k = 0;
    const char *p = begin;
    while (p < last) {
        const char *e = last;
        if (last - p > bytes) {
            /* The chunk ends after the newline at or after p + bytes - 1. */
            const char *x = p + bytes - 1;
            e = (const char *)memchr(x, '\n', (size_t)(last - x)) + 1;
        }
        chunk[k].begin = p;
        chunk[k].end = e;
        k++;
        p = e;
    }
    return k;
}

/* Steps 2 and 3 on text[begin, size). *rest is where the block reader takes
 * over (step 4). Only out of memory for the chunk table or an error of
 * arc_terminal fails; anything else leaves more to the block reader. */
static gcut_status parse_chunks(dimacs_parser *ps, const char *text, int64_t begin, int64_t size,
                                int32_t threads, int64_t chunk_bytes, int64_t *rest)
{
    int64_t last = size;
    while (last > begin && text[last - 1] != '\n')
        last--;
    *rest = begin;
    if (last == begin)
        return GCUT_OK;
    const int64_t region = last - begin;
    if (chunk_bytes <= 0) {
        chunk_bytes = region / ((int64_t)threads * DIMACS_PAR_CHUNKS_PER_THREAD);
        if (chunk_bytes < DIMACS_PAR_CHUNK_MIN)
            chunk_bytes = DIMACS_PAR_CHUNK_MIN;
    }
    dimacs_par par;
    memset(&par, 0, sizeof par);
    par.chunk = gcut_i_calloc((size_t)(region / chunk_bytes + 1), sizeof *par.chunk);
    if (!par.chunk)
        return GCUT_OK; /* the block reader reads it all */
    if (pthread_mutex_init(&par.lock, NULL) != 0) {
        gcut_i_free(par.chunk);
        return GCUT_OK;
    }
    par.nchunk = par_cut(par.chunk, text + begin, text + last, chunk_bytes);
    atomic_init(&par.next, 0);
    atomic_init(&par.stopped, par.nchunk);
    par.n = (uint32_t)ps->n;
    par.s = (uint32_t)ps->s;
    par.t = (uint32_t)ps->t;
    par.m_decl = ps->m_decl;
    par.eu = ps->eu;
    par.ev = ps->ev;
    par.ecap = ps->ecap;
    par.dst = ps->m;
    par.arcs = ps->arcs;
    /* The arrays are fresh (line_problem sized them for the file): no page
     * of them has been written yet. */
    if (ps->m_cap > ps->m) {
        const size_t room = (size_t)(ps->m_cap - ps->m) * sizeof(int32_t);
        gcut_i_advise_huge(ps->eu + ps->m, room);
        gcut_i_advise_huge(ps->ev + ps->m, room);
        gcut_i_advise_huge(ps->ecap + ps->m, room);
    }

    gcut_i_pool pool;
    if (threads > par.nchunk)
        threads = (int32_t)par.nchunk;
    if (gcut_i_pool_init(&pool, threads, 1000) != 0)
        memset(&pool, 0, sizeof pool); /* a zeroed pool runs everything on this thread */
    gcut_i_pool_start(&pool);
    gcut_i_pool_run(&pool, par_count_job, &par);
    /* Slots in file order. A chunk whose slots would pass the arrays (lines
     * "a" of fewer than 8 bytes: the file is not valid) is not parsed. */
    int64_t off = ps->m;
    for (int64_t k = 0; k < par.nchunk; k++) {
        dimacs_chunk *ch = &par.chunk[k];
        ch->off = off;
        if (ch->slots > ps->m_cap - off)
            ch->stop = 1;
        else
            off += ch->slots;
    }
    atomic_store(&par.next, 0);
    gcut_i_pool_run(&pool, par_parse_job, &par);
    gcut_i_pool_destroy(&pool);
    pthread_mutex_destroy(&par.lock);

    /* Step 3: chunks [0, frontier) are what the block reader would accept,
     * their edges in place; now their terminal arcs, in file order. */
    const int64_t k0 = par.frontier;
    ps->m = par.dst;
    gcut_status st = GCUT_OK;
    for (int64_t j = 0; j < k0 && st == GCUT_OK; j++) {
        const dimacs_chunk *ch = &par.chunk[j];
        const int64_t line0 = ps->line;
        for (int64_t i = 0; i < ch->nterm && st == GCUT_OK; i++) {
            const dimacs_term *r = &ch->term[i];
            ps->line = line0 + r->line;
            st = arc_terminal(ps, r->u, r->v, r->c);
        }
        if (st == GCUT_OK) {
            ps->line = line0 + ch->lines;
            ps->arcs += ch->arcs;
        }
    }
    if (st == GCUT_OK) {
        *rest = k0 < par.nchunk ? par.chunk[k0].begin - text : last;
        ps->bytes += *rest - begin;
    }
    par_free(&par);
    return st;
}

/* Start of the first line whose first non-blank byte is 'a' (size: none). */
static int64_t header_end(const char *text, int64_t size)
{
    const char *p = text, *const end = text + size;
    while (p < end) {
        const char *q = p;
        while (q < end && is_blank(*q))
            q++;
        if (q < end && *q == 'a')
            return p - text;
        q = q < end ? memchr(q, '\n', (size_t)(end - q)) : NULL;
        if (!q)
            break;
        p = q + 1;
    }
    return size;
}

/* The reader of a file opened from its path: mapped and parsed in chunks
 * when it is large and plain (see above), else by the block reader. f is at
 * its start. `threads` <= 0: automatic; `chunk_bytes` > 0 forces chunks of
 * that size even for small files and one thread (the tests' hook). */
static gcut_status parse_path(dimacs_parser *ps, FILE *f, int32_t threads, int64_t chunk_bytes)
{
    const int64_t size = ps->size_hint;
    if (threads <= 0) {
        threads = gcut_i_num_cpus();
        if (threads > DIMACS_PAR_MAX_THREADS)
            threads = DIMACS_PAR_MAX_THREADS;
    }
    /* Under a memory budget the block reader's bound on the text read
     * applies, and it counts as it reads. */
    const int chunked = chunk_bytes > 0 || (threads > 1 && size >= DIMACS_PAR_MIN);
    if (!chunked || size <= 0 || (uint64_t)size > SIZE_MAX || gcut_i_budget() != 0)
        return parse_serial(ps, f, 0, -1);
    void *map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fileno(f), 0);
    if (map == MAP_FAILED)
        return parse_serial(ps, f, 0, -1);
    /* Advice only: the kernel may ignore it, and the parse is right anyway. */
    (void)posix_madvise(map, (size_t)size, POSIX_MADV_WILLNEED);
    const char *text = map;
    gcut_status st;
    if (size >= 2 && (unsigned char)text[0] == 0x1f && (unsigned char)text[1] == 0x8b) {
        st = parse_serial(ps, f, 0, -1); /* gzip */
        goto done;
    }
    const int64_t hdr = header_end(text, size);
    st = parse_serial(ps, f, 0, hdr);
    int64_t rest = hdr;
    if (st == GCUT_OK && ps->have_p && ps->s >= 0 && ps->t >= 0)
        st = parse_chunks(ps, text, hdr, size, threads, chunk_bytes, &rest);
    if (st == GCUT_OK && rest < size) {
        if (fseeko(f, (off_t)rest, SEEK_SET) != 0) {
            int err = errno;
            st = perr_at(ps, GCUT_ERR_IO, 0, "cannot seek: %s", strerror(err));
        } else {
            st = parse_serial(ps, f, 1, -1);
            goto done; /* parse_stream has drained the queue (once only: a
                          failed entry is dropped from it) */
        }
    }
    /* As in parse_stream: queued terminal arcs come from lines before any
     * failure, so an overflow among them is the error to report. */
    if (ps->g) {
        gcut_status st2 = tq_drain(ps);
        if (st2 != GCUT_OK)
            st = st2;
    }
done:
    (void)munmap(map, (size_t)size); /* cannot fail for a mapping made above */
    return st;
}

/* ------------------------------------------------------- public entries */

static void parser_init(dimacs_parser *ps, FILE *f, const char *name, const char *func)
{
    memset(ps, 0, sizeof *ps);
    ps->func = func;
    ps->name = name;
    ps->s = ps->t = -1;
    ps->size_hint = -1;
    /* The bytes left in a regular file bound the number of arcs it can
     * hold, which lets line_problem() size the arc arrays once. Pipes,
     * terminals and memory streams give no hint. */
    int fd = fileno(f);
    struct stat sb;
    if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
        off_t pos = ftello(f);
        if (pos >= 0 && pos <= sb.st_size)
            ps->size_hint = (int64_t)(sb.st_size - pos);
    }
}

/* After the parse: the final checks, the graph's arrays, the outputs. */
static gcut_status read_finish(dimacs_parser *ps, gcut_status st, gcut_graph **out,
                               gcut_dimacs_info *info)
{
    if (st == GCUT_OK)
        st = parse_finish(ps);
    /* The file is whole and valid: now its isolated nodes get their room. */
    if (st == GCUT_OK)
        st = reserve_nodes(ps, ps->n);
    if (st == GCUT_OK)
        st = adopt_arcs(ps);
    gcut_i_free(ps->eu);
    gcut_i_free(ps->ev);
    gcut_i_free(ps->ecap);
    if (st != GCUT_OK) {
        gcut_graph_free(ps->g);
        return st;
    }
    if (info) {
        info->source = ps->s;
        info->sink = ps->t;
        info->arcs = ps->arcs;
        info->dropped = ps->dropped;
        info->bytes = ps->bytes;
    }
    *out = ps->g;
    return GCUT_OK;
}

/* The reader of gcut_graph_read_dimacs_file and of stdin. `func` is the
 * public name that messages start with. */
static gcut_status read_stream(FILE *f, const char *name, const char *func, gcut_graph **out,
                               gcut_dimacs_info *info)
{
    dimacs_parser ps;
    parser_init(&ps, f, name, func);
    return read_finish(&ps, parse_serial(&ps, f, 0, -1), out, info);
}

/* The reader of a path ("-": stdin). */
static gcut_status read_path(const char *path, const char *func, int32_t threads,
                             int64_t chunk_bytes, gcut_graph **out, gcut_dimacs_info *info)
{
    if (strcmp(path, "-") == 0)
        return read_stream(stdin, "<stdin>", func, out, info);
    FILE *f = fopen(path, "rb");
    if (!f) {
        int err = errno;
        return gcut_i_fail(GCUT_ERR_IO, func, "cannot open '%s': %s", path, strerror(err));
    }
    dimacs_parser ps;
    parser_init(&ps, f, path, func);
    gcut_status st = read_finish(&ps, parse_path(&ps, f, threads, chunk_bytes), out, info);
    fclose(f);
    return st;
}

gcut_status gcut_graph_read_dimacs(const char *path, gcut_graph **out, gcut_dimacs_info *info)
{
    GCUT_ENTRY();
    if (!path || !out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "path and out must not be NULL");
    return read_path(path, __func__, 0, 0, out, info);
}

void gcut_dimacs_options_init(gcut_dimacs_options *opt)
{
    if (!opt)
        return;
    memset(opt, 0, sizeof *opt);
    opt->struct_size = sizeof *opt;
}

gcut_status gcut_graph_read_dimacs_opt(const char *path, const gcut_dimacs_options *opt,
                                       gcut_graph **out, gcut_dimacs_info *info)
{
    GCUT_ENTRY();
    if (!path || !out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "path and out must not be NULL");
    int32_t threads = 0;
    if (opt) {
        if (opt->struct_size < sizeof(size_t) + sizeof(int32_t) || opt->struct_size > sizeof *opt)
            return GCUT_FAIL(GCUT_ERR_INVALID,
                             "opt->struct_size is %zu: fill the options with "
                             "gcut_dimacs_options_init",
                             opt->struct_size);
        if (opt->threads < 0)
            return GCUT_FAIL(GCUT_ERR_INVALID, "opt->threads is %d: 0 (automatic) or more",
                             (int)opt->threads);
        threads = opt->threads;
    }
    return read_path(path, __func__, threads, 0, out, info);
}

gcut_status gcut_i_dimacs_read_chunked(const char *path, int32_t threads, int64_t chunk_bytes,
                                       gcut_graph **out, gcut_dimacs_info *info)
{
    GCUT_ENTRY();
    return read_path(path, "gcut_graph_read_dimacs", threads, chunk_bytes, out, info);
}

gcut_status gcut_graph_read_dimacs_file(FILE *f, const char *name, gcut_graph **out,
                                        gcut_dimacs_info *info)
{
    GCUT_ENTRY();
    if (!f || !out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "f and out must not be NULL");
    return read_stream(f, name ? name : "<stream>", __func__, out, info);
}

/* ----------------------------------------------------------------- writer */

/* Output goes through one big buffer, handed to fwrite in 1 MiB pieces:
 * fprintf per arc would spend most of its time parsing its format string.
 * The first write error is kept and every later write skipped, so the
 * callers check once at the end. */
typedef struct dimacs_writer {
    FILE *f;
    const char *name;
    const char *func;
    char *buf;
    size_t len;
    gcut_status st; /* first failure; later writes are skipped */
} dimacs_writer;

/* Longest line we emit: "a " + three numbers of at most 20 digits + blanks. */
#define DIMACS_LINE_MAX 96

static void writer_flush(dimacs_writer *w)
{
    if (w->st == GCUT_OK && w->len > 0 && fwrite(w->buf, 1, w->len, w->f) != w->len) {
        int err = errno;
        w->st = gcut_i_fail(GCUT_ERR_IO, w->func, "%s: write failed: %s", w->name,
                            err ? strerror(err) : "unknown error");
    }
    w->len = 0;
}

/* Decimal digits of v at p; returns the end. */
static char *put_u64(char *p, uint64_t v)
{
    char tmp[20];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (k)
        *p++ = tmp[--k];
    return p;
}

/* "a U V CAP\n" with 1-based U and V given. */
static void put_arc(dimacs_writer *w, uint64_t u, uint64_t v, int32_t cap)
{
    if (w->len + DIMACS_LINE_MAX > DIMACS_BLOCK)
        writer_flush(w);
    char *p = w->buf + w->len;
    *p++ = 'a';
    *p++ = ' ';
    p = put_u64(p, u);
    *p++ = ' ';
    p = put_u64(p, v);
    *p++ = ' ';
    p = put_u64(p, (uint64_t)cap);
    *p++ = '\n';
    w->len = (size_t)(p - w->buf);
}

static void GCUT_PRINTF(2, 3) put_text(dimacs_writer *w, const char *fmt, ...)
{
    if (w->len + 256 > DIMACS_BLOCK)
        writer_flush(w);
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(w->buf + w->len, 256, fmt, ap);
    va_end(ap);
    if (k > 0)
        w->len += (size_t)(k < 256 ? k : 255);
}

/* The writer behind both public entry points. A first pass counts the arcs,
 * because the problem line, which comes first, must give their number. */
static gcut_status write_stream(const gcut_graph *g, FILE *f, const char *name, const char *func)
{
    const int32_t n = g->n;
    if (n > INT32_MAX - 2)
        return gcut_i_fail(GCUT_ERR_OVERFLOW, func,
                           "%s: %d nodes plus s and t do not fit DIMACS node ids read back as "
                           "int32", name, (int)n);
    int64_t arcs = 0;
    for (int32_t v = 0; v < n; v++)
        arcs += (g->cap_source[v] > 0) + (g->cap_sink[v] > 0);
    for (int64_t e = 0; e < g->m; e++)
        arcs += (g->ecap[e] > 0) + (g->erev[e] > 0);

    dimacs_writer w = {f, name, func, gcut_i_malloc(DIMACS_BLOCK), 0, GCUT_OK};
    if (!w.buf)
        return gcut_i_fail(GCUT_ERR_NOMEM, func, "cannot allocate the write buffer");
    /* Ids are written as uint64 so that n + 2 cannot overflow; the order
     * (source arcs, sink arcs, then edges in order) is fixed so that equal
     * graphs give equal files. */
    const uint64_t s = (uint64_t)n + 1, t = (uint64_t)n + 2;
    put_text(&w, "c max-flow instance written by gcut\n");
    put_text(&w, "c %lld nodes, %lld edges; s = %llu and t = %llu are added\n", (long long)n,
             (long long)g->m, (unsigned long long)s, (unsigned long long)t);
    put_text(&w, "p max %llu %lld\n", (unsigned long long)t, (long long)arcs);
    put_text(&w, "n %llu s\nn %llu t\n", (unsigned long long)s, (unsigned long long)t);
    for (int32_t v = 0; v < n; v++)
        if (g->cap_source[v] > 0)
            put_arc(&w, s, (uint64_t)v + 1, g->cap_source[v]);
    for (int32_t v = 0; v < n; v++)
        if (g->cap_sink[v] > 0)
            put_arc(&w, (uint64_t)v + 1, t, g->cap_sink[v]);
    for (int64_t e = 0; e < g->m; e++) {
        const uint64_t u = (uint64_t)g->eu[e] + 1, v = (uint64_t)g->ev[e] + 1;
        if (g->ecap[e] > 0)
            put_arc(&w, u, v, g->ecap[e]);
        if (g->erev[e] > 0)
            put_arc(&w, v, u, g->erev[e]);
    }
    writer_flush(&w);
    gcut_i_free(w.buf);
    if (w.st == GCUT_OK && fflush(f) != 0) {
        int err = errno;
        w.st = gcut_i_fail(GCUT_ERR_IO, func, "%s: write failed: %s", name, strerror(err));
    }
    return w.st;
}

gcut_status gcut_graph_write_dimacs(const gcut_graph *g, const char *path)
{
    GCUT_ENTRY();
    if (!g || !path)
        return GCUT_FAIL(GCUT_ERR_INVALID, "g and path must not be NULL");
    gcut_i_out o;
    gcut_status st = gcut_i_out_open(__func__, path, &o);
    if (st != GCUT_OK)
        return st;
    st = write_stream(g, o.f, o.is_stdout ? "<stdout>" : path, __func__);
    if (st != GCUT_OK) {
        gcut_i_out_abort(&o);
        return st;
    }
    return gcut_i_out_commit(&o);
}

gcut_status gcut_graph_write_dimacs_file(const gcut_graph *g, FILE *f, const char *name)
{
    GCUT_ENTRY();
    if (!g || !f)
        return GCUT_FAIL(GCUT_ERR_INVALID, "g and f must not be NULL");
    return write_stream(g, f, name ? name : "<stream>", __func__);
}
