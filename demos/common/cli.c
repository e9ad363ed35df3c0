/*
 * cli.c - the command-line helpers the tools share (see cli.h).
 */
#include "cli.h"

#include "core/outfile_internal.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *cli_name = "gcut";
static const char *cli_help = "";
static unsigned cli_help_common; /* the shared options --help lists */
static int cli_json_on;          /* --json */
static int cli_bar_mode = CLI_PROGRESS_AUTO, cli_bar_quiet;

void cli_init(const char *prog, const char *usage)
{
    cli_name = prog;
    cli_help = usage;
}

const char *cli_prog(void)
{
    return cli_name;
}

void cli_print_version(void)
{
    printf("%s %s\n", cli_name, gcut_version());
    printf("back ends:\n");
    for (int32_t i = 0; i < gcut_backend_count(); i++) {
        const char *why = NULL;
        if (gcut_backend_available(i, &why))
            printf("  %-12s yes\n", gcut_backend_name(i));
        else
            printf("  %-12s no (%s)\n", gcut_backend_name(i), why ? why : "unavailable");
    }
}

/* 1 when the tool's help has a line for option name ("--x"). */
static int described(const char *name)
{
    char a[40], b[40];
    snprintf(a, sizeof a, ", %s", name);
    snprintf(b, sizeof b, "      %s", name);
    return strstr(cli_help, a) || strstr(cli_help, b);
}

/* The shared options' lines of --help, in the order of the flags; an
 * option the tool's own text describes already is not repeated. */
static void print_common_help(unsigned f)
{
    static const struct {
        unsigned flag;
        const char *name, *text;
    } lines[] = {
        {CLI_OPT_BACKEND, "--backend",
         "  -b, --backend NAME   back end (default auto; --version lists them)\n"},
        {CLI_OPT_THREADS, "--threads",
         "  -t, --threads N      threads for parallel back ends (0 = one per core)\n"},
        {CLI_OPT_THREADS, "--params",
         "      --params STR     back-end settings, key=value[,key=value]\n"},
        {CLI_OPT_LIMITS, "--time-limit", "      --time-limit S   give up after S seconds\n"},
        {CLI_OPT_LIMITS, "--max-memory",
         "      --max-memory SIZE\n"
         "                       host memory budget: bytes, or with a unit K, M, G, T\n"
         "                       (also KiB ...: powers of 1024; KB ...: powers of 1000),\n"
         "                       e.g. 512M, 4G, 1.5GiB; a run that needs more fails\n"},
        {CLI_OPT_VERBOSE, "--verbose",
         "  -v, --verbose        log what the library does to stderr (-vv: in detail)\n"},
        {CLI_OPT_QUIET, "--quiet", "  -q, --quiet          no progress bar or notes on stderr\n"},
        {CLI_OPT_QUIET, "--progress",
         "      --progress[=WHEN]\n"
         "                       progress bar on stderr: auto (default: when stderr is\n"
         "                       a terminal and no --quiet), always, never\n"},
        {CLI_OPT_JSON, "--json",
         "      --json           the report as one JSON object (on stderr when an\n"
         "                       output goes to stdout)\n"},
    };
    if (!f)
        return; /* a tool without cli_parse (gcut-view) describes all its options */
    printf("\ncommon options:\n");
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        if ((f & lines[i].flag) && !described(lines[i].name))
            fputs(lines[i].text, stdout);
    printf("  -h, --help           show this help\n"
           "      --version        show the version and the back ends\n");
}

int cli_info_option(const char *arg)
{
    if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
        fputs(cli_help, stdout);
        print_common_help(cli_help_common);
        return 1;
    }
    if (!strcmp(arg, "--version")) {
        cli_print_version();
        return 1;
    }
    return 0;
}

int cli_usage_error(const char *msg, const char *arg)
{
    cli_progress_clear();
    fprintf(stderr, "%s: %s%s%s\n", cli_name, msg, arg ? ": " : "", arg ? arg : "");
    fprintf(stderr, "Try '%s --help'.\n", cli_name);
    return 2;
}

static char cli_last_msg[512]; /* the last failure, for the JSON report */

int cli_fail(void)
{
    cli_progress_clear();
    fprintf(stderr, "%s: %s\n", cli_name, gcut_last_error());
    snprintf(cli_last_msg, sizeof cli_last_msg, "%s", gcut_last_error());
    return 1;
}

int cli_parse_int(const char *s, int32_t lo, int32_t hi, int32_t *out)
{
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return 0;
    *out = (int32_t)v;
    return 1;
}

int cli_parse_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    const double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= lo) || !(v <= hi))
        return 0;
    *out = v;
    return 1;
}

int cli_parse_positive(const char *s, double *out)
{
    double v;
    if (!cli_parse_double(s, 0, HUGE_VAL, &v) || !(v > 0))
        return 0;
    *out = v;
    return 1;
}

/* The open outputs: the stream cli_open_output gives is o.f, found again
 * by cli_close_output. A tool has a handful of outputs at most. */
#define CLI_MAX_OUTPUTS 16
static gcut_i_out cli_outs[CLI_MAX_OUTPUTS];

/* The writer's message already starts with the tool's name (its `func`). */
static int out_fail(void)
{
    fprintf(stderr, "%s\n", gcut_last_error());
    return 1;
}

FILE *cli_open_output(const char *path)
{
    int k = 0;
    while (k < CLI_MAX_OUTPUTS && cli_outs[k].f)
        k++;
    if (k == CLI_MAX_OUTPUTS) {
        fprintf(stderr, "%s: cannot write %s: too many open outputs\n", cli_name, path);
        return NULL;
    }
    if (gcut_i_out_open(cli_name, path, &cli_outs[k]) != GCUT_OK) {
        out_fail();
        return NULL;
    }
    return cli_outs[k].f;
}

static gcut_i_out *find_output(FILE *f)
{
    for (int k = 0; k < CLI_MAX_OUTPUTS; k++)
        if (cli_outs[k].f == f)
            return &cli_outs[k];
    return NULL;
}

int cli_close_output(FILE *f, const char *path)
{
    gcut_i_out *o = f ? find_output(f) : NULL;
    if (!o) {
        fprintf(stderr, "%s: error writing %s\n", cli_name, path);
        return 1;
    }
    return gcut_i_out_commit(o) != GCUT_OK ? out_fail() : 0;
}

void cli_abort_output(FILE *f)
{
    gcut_i_out *o = f ? find_output(f) : NULL;
    if (o)
        gcut_i_out_abort(o);
}

int cli_same_file(const char *a, const char *b) { return gcut_i_same_file(a, b); }

static FILE *cli_rep, *cli_null;

/* Where the report goes (text, or the JSON object at the end). */
static FILE *report_stream(void) { return cli_rep ? cli_rep : stdout; }

FILE *cli_report(void)
{
    if (cli_json_on) {
        if (!cli_null)
            cli_null = fopen("/dev/null", "w");
        if (cli_null)
            return cli_null;
    }
    return report_stream();
}

int cli_check_outputs(const char *const *outs, size_t nout, const char *const *ins, size_t nin)
{
    int to_stdout = 0;
    for (size_t i = 0; i < nout; i++) {
        if (!outs[i])
            continue;
        if (gcut_i_out_is_stdout(outs[i]) && to_stdout++) {
            fprintf(stderr, "%s: only one output can go to stdout (-)\n", cli_name);
            return 2;
        }
        for (size_t j = 0; j < nin; j++)
            if (ins[j] && gcut_i_same_file(outs[i], ins[j])) {
                fprintf(stderr, "%s: refusing to overwrite the input %s with an output\n", cli_name,
                        ins[j]);
                return 2;
            }
        for (size_t j = 0; j < i; j++)
            if (outs[j] && gcut_i_same_file(outs[i], outs[j])) {
                fprintf(stderr, "%s: two outputs are the same file: %s\n", cli_name, outs[i]);
                return 2;
            }
    }
    if (to_stdout)
        cli_rep = stderr;
    return 0;
}

double cli_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void cli_sort_doubles(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
}

void cli_log_to_stderr(void *user, gcut_log_level level, const char *msg)
{
    (void)user;
    static const char *names[] = {"error", "warn", "info", "debug"};
    fprintf(stderr, "gcut [%s] %s\n", names[level], msg);
}

/* ---- the parser --------------------------------------------------------- */

enum { K_PARAMS = 0x1000, K_TIME_LIMIT, K_MAX_MEMORY, K_PROGRESS, K_JSON, K_VERSION };

static const struct option common_longopts[] = {
    {"backend", required_argument, NULL, 'b'},
    {"threads", required_argument, NULL, 't'},
    {"params", required_argument, NULL, K_PARAMS},
    {"time-limit", required_argument, NULL, K_TIME_LIMIT},
    {"max-memory", required_argument, NULL, K_MAX_MEMORY},
    {"verbose", no_argument, NULL, 'v'},
    {"quiet", no_argument, NULL, 'q'},
    {"progress", optional_argument, NULL, K_PROGRESS},
    {"json", no_argument, NULL, K_JSON},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, K_VERSION},
};

/* The flag that enables the shared option of key k; ~0u: always on. */
static unsigned common_flag(int k)
{
    switch (k) {
    case 'b':
        return CLI_OPT_BACKEND;
    case 't':
    case K_PARAMS:
        return CLI_OPT_THREADS;
    case K_TIME_LIMIT:
    case K_MAX_MEMORY:
        return CLI_OPT_LIMITS;
    case 'v':
        return CLI_OPT_VERBOSE;
    case 'q':
    case K_PROGRESS:
        return CLI_OPT_QUIET;
    case K_JSON:
        return CLI_OPT_JSON;
    default:
        return ~0u;
    }
}

/* The group that owns key k, or NULL. */
static const cli_opts *owner(const cli_opts *g, size_t n, int k)
{
    for (size_t i = 0; i < n; i++) {
        if (k > 0 && k < 128 && g[i].shortopts && strchr(g[i].shortopts, k) && k != ':')
            return &g[i];
        for (const struct option *o = g[i].longopts; o && o->name; o++)
            if (!o->flag && o->val == k)
                return &g[i];
    }
    return NULL;
}

static int common_option(int k, const char *arg, cli_common *c)
{
    switch (k) {
    case 'b':
        if (!*arg)
            return cli_usage_error("--backend needs a name", NULL);
        c->backend = arg;
        return 0;
    case 't':
        if (!cli_parse_int(arg, 0, 4096, &c->threads))
            return cli_usage_error("--threads needs a number 0..4096", arg);
        return 0;
    case K_PARAMS:
        c->params = arg;
        return 0;
    case K_TIME_LIMIT:
        if (!cli_parse_double(arg, 0, 1e9, &c->time_limit) || !(c->time_limit > 0))
            return cli_usage_error("--time-limit needs a positive number of seconds", arg);
        return 0;
    case K_MAX_MEMORY:
        if (!cli_parse_size(arg, &c->max_memory))
            return cli_usage_error("--max-memory needs a size such as 512M, 4G, 1.5GiB or bytes",
                                   arg);
        gcut_set_max_memory(c->max_memory);
        return 0;
    case 'v': /* -vv: 2 */
        c->verbose++;
        return 0;
    case 'q':
        c->quiet = 1;
        cli_bar_quiet = 1;
        return 0;
    case K_PROGRESS:
        if (!arg || !strcmp(arg, "always"))
            c->progress = CLI_PROGRESS_ALWAYS;
        else if (!strcmp(arg, "auto"))
            c->progress = CLI_PROGRESS_AUTO;
        else if (!strcmp(arg, "never"))
            c->progress = CLI_PROGRESS_NEVER;
        else
            return cli_usage_error("--progress must be auto, always or never", arg);
        cli_bar_mode = c->progress;
        return 0;
    case K_JSON:
        c->json = 1;
        cli_json_on = 1;
        return 0;
    default:
        return 2;
    }
}

int cli_parse(int argc, char **argv, const cli_opts *groups, size_t ngroups, unsigned common,
              cli_common *c, int *first)
{
    memset(c, 0, sizeof *c);
    cli_help_common = common;
    cli_json_on = 0;
    cli_bar_mode = CLI_PROGRESS_AUTO;
    cli_bar_quiet = 0;
    size_t nlong = sizeof common_longopts / sizeof common_longopts[0], nshort = 16;
    for (size_t i = 0; i < ngroups; i++) {
        for (const struct option *o = groups[i].longopts; o && o->name; o++)
            nlong++;
        nshort += groups[i].shortopts ? strlen(groups[i].shortopts) : 0;
    }
    struct option *lo = calloc(nlong + 1, sizeof *lo);
    char *so = calloc(nshort + 1, 1);
    if (!lo || !so) {
        free(lo);
        free(so);
        fprintf(stderr, "%s: out of memory\n", cli_name);
        return 1;
    }
    size_t nl = 0;
    for (size_t i = 0; i < ngroups; i++)
        for (const struct option *o = groups[i].longopts; o && o->name; o++)
            lo[nl++] = *o;
    for (size_t i = 0; i < sizeof common_longopts / sizeof common_longopts[0]; i++)
        if (common_flag(common_longopts[i].val) & (common | 0x80000000u))
            lo[nl++] = common_longopts[i];
    strcpy(so, ":h");
    for (size_t i = 0; i < ngroups; i++)
        if (groups[i].shortopts)
            strcat(so, groups[i].shortopts);
    if (common & CLI_OPT_BACKEND)
        strcat(so, "b:");
    if (common & CLI_OPT_THREADS)
        strcat(so, "t:");
    if (common & CLI_OPT_VERBOSE)
        strcat(so, "v");
    if (common & CLI_OPT_QUIET)
        strcat(so, "q");

    int rc = 0, k;
    opterr = 0;
    optind = 0; /* glibc: a full re-initialisation (the parser may run twice) */
    while (rc == 0 && (k = getopt_long(argc, argv, so, lo, NULL)) != -1) {
        const char *arg = optarg;
        if (k == ':') {
            rc = cli_usage_error("option needs a value", argv[optind - 1]);
        } else if (k == '?') {
            char buf[3] = {'-', (char)optopt, '\0'};
            rc = cli_usage_error("unknown or ambiguous option", optopt ? buf : argv[optind - 1]);
        } else if (k == 'h') {
            cli_info_option("--help");
            rc = -1;
        } else if (k == K_VERSION) {
            cli_print_version();
            rc = -1;
        } else if (common_flag(k) != ~0u && (common_flag(k) & common)) {
            rc = common_option(k, arg, c);
        } else {
            const cli_opts *g = owner(groups, ngroups, k);
            rc = g ? g->fn(k, arg, g->user) : cli_usage_error("unhandled option", NULL);
        }
    }
    free(lo);
    free(so);
    *first = optind;
    return rc;
}

void cli_apply_solve(const cli_common *c, gcut_solve_options *opt)
{
    if (c->backend)
        opt->backend = c->backend;
    opt->threads = c->threads;
    if (c->params)
        opt->params = c->params;
    if (c->time_limit > 0)
        opt->time_limit = c->time_limit;
    opt->max_memory = c->max_memory;
    if (c->verbose) {
        opt->verbosity = c->verbose > 1 ? 3 : 2; /* -vv: GCUT_LOG_DEBUG */
        opt->log = cli_log_to_stderr;
    }
    if (cli_progress_on()) {
        opt->progress = cli_progress_cb;
        opt->progress_user = NULL;
        opt->progress_interval_ms = 100;
    }
}

int cli_parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-' || *s == '+' || (*s != '.' && (*s < '0' || *s > '9')))
        return 0;
    const double v = strtod(s, &end);
    if (errno || end == s || !isfinite(v) || v < 0)
        return 0;
    static const struct {
        const char *name;
        double factor;
    } units[] = {{"", 1},
                 {"b", 1},
                 {"k", 1024.0},
                 {"kib", 1024.0},
                 {"kb", 1e3},
                 {"m", 1048576.0},
                 {"mib", 1048576.0},
                 {"mb", 1e6},
                 {"g", 1073741824.0},
                 {"gib", 1073741824.0},
                 {"gb", 1e9},
                 {"t", 1099511627776.0},
                 {"tib", 1099511627776.0},
                 {"tb", 1e12}};
    char unit[8];
    size_t n = strlen(end);
    if (n >= sizeof unit)
        return 0;
    for (size_t i = 0; i <= n; i++)
        unit[i] = (char)(end[i] >= 'A' && end[i] <= 'Z' ? end[i] - 'A' + 'a' : end[i]);
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(unit, units[i].name)) {
            const double bytes = floor(v * units[i].factor);
            /* 2^64 and more do not fit (SIZE_MAX as a double rounds up). */
            if (!(bytes < 18446744073709551616.0) || bytes > (double)SIZE_MAX)
                return 0;
            *out = (size_t)bytes;
            return 1;
        }
    return 0;
}

/* ---- the report --------------------------------------------------------- */

int cli_json(void) { return cli_json_on; }

/* The JSON object being built: its text after "{", and whether the
 * current object or array (depth levels) has a member already. */
static char *jbuf;
static size_t jlen, jcap;
static int jfail, jdepth;
static unsigned char jmember[32] = {0};
static char jclose[32]; /* the closing bracket of each open level */

static void jputs(const char *t, size_t n)
{
    if (jfail)
        return;
    if (jlen + n + 1 > jcap) {
        size_t cap = jcap ? jcap : 256;
        while (jlen + n + 1 > cap)
            cap *= 2;
        char *b = realloc(jbuf, cap);
        if (!b) {
            jfail = 1;
            return;
        }
        jbuf = b;
        jcap = cap;
    }
    memcpy(jbuf + jlen, t, n);
    jlen += n;
    jbuf[jlen] = '\0';
}

static void jprintf(const char *fmt, ...)
{
    char t[128];
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    if (n > 0)
        jputs(t, (size_t)n < sizeof t ? (size_t)n : sizeof t - 1);
}

static void jstring(const char *v)
{
    jputs("\"", 1);
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        if (*p == '"' || *p == '\\') {
            char e[2] = {'\\', (char)*p};
            jputs(e, 2);
        } else if (*p < 0x20) {
            jprintf("\\u%04x", *p);
        } else {
            jputs((const char *)p, 1);
        }
    }
    jputs("\"", 1);
}

/* The comma and the key of a new member (key with '-' as '_'). */
static void jkey(const char *key)
{
    if (jmember[jdepth])
        jputs(",", 1);
    jmember[jdepth] = 1;
    if (!key)
        return;
    char k[64];
    size_t i = 0;
    for (; key[i] && i + 1 < sizeof k; i++)
        k[i] = key[i] == '-' || key[i] == ' ' ? '_' : key[i];
    k[i] = '\0';
    jstring(k);
    jputs(":", 1);
}

void cli_json_int(const char *key, long long v)
{
    if (!cli_json_on)
        return;
    jkey(key);
    jprintf("%lld", v);
}

void cli_json_num(const char *key, double v)
{
    if (!cli_json_on)
        return;
    jkey(key);
    if (isfinite(v))
        jprintf("%.10g", v);
    else
        jputs("null", 4);
}

void cli_json_str(const char *key, const char *v)
{
    if (!cli_json_on)
        return;
    jkey(key);
    if (v)
        jstring(v);
    else
        jputs("null", 4);
}

static void jbegin(const char *key, const char *open)
{
    if (!cli_json_on)
        return;
    jkey(key);
    jputs(open, 1);
    if (jdepth + 1 < (int)sizeof jmember) {
        jmember[++jdepth] = 0;
        jclose[jdepth] = *open == '{' ? '}' : ']';
    } else {
        jfail = 1; /* deeper than any tool goes */
    }
}

void cli_json_begin_object(const char *key) { jbegin(key, "{"); }
void cli_json_begin_array(const char *key) { jbegin(key, "["); }

void cli_json_end(void)
{
    if (!cli_json_on || jdepth == 0)
        return;
    jputs(&jclose[jdepth], 1);
    jdepth--;
}

void cli_put_int(const char *key, long long v)
{
    if (cli_json_on)
        cli_json_int(key, v);
    else
        fprintf(cli_report(), "%s: %lld\n", key, v);
}

void cli_put_str(const char *key, const char *v)
{
    if (cli_json_on)
        cli_json_str(key, v);
    else
        fprintf(cli_report(), "%s: %s\n", key, v ? v : "none");
}

void cli_put_num(const char *key, double v, const char *fmt)
{
    if (cli_json_on) {
        cli_json_num(key, v);
    } else {
        fprintf(cli_report(), "%s: ", key);
        fprintf(cli_report(), fmt, v);
        fputc('\n', cli_report());
    }
}

/* KEY with a suffix, for the JSON name. */
static void put_suffixed(const char *key, const char *suffix, double v)
{
    char k[64];
    snprintf(k, sizeof k, "%s%s", key, suffix);
    cli_json_num(k, v);
}

void cli_put_ms(const char *key, double ms, int prec)
{
    if (cli_json_on)
        put_suffixed(key, "_ms", ms);
    else
        fprintf(cli_report(), "%s: %.*f ms\n", key, prec, ms);
}

void cli_put_pct(const char *key, double pct, int prec)
{
    if (cli_json_on)
        put_suffixed(key, "_pct", pct);
    else
        fprintf(cli_report(), "%s: %.*f %%\n", key, prec, pct);
}

/* A member while cli_json_on is being switched off. */
static void cli_json_int_always(const char *key, long long v)
{
    jkey(key);
    jprintf("%lld", v);
}

int cli_finish(int rc)
{
    cli_progress_clear();
    if (cli_json_on) {
        while (jdepth > 0)
            cli_json_end();
        cli_json_on = 0; /* cli_put_str below and cli_report: the real stream */
        FILE *f = report_stream();
        if (gcut_max_memory()) /* the budget it ran under, in bytes */
            cli_json_int_always("max_memory", (long long)gcut_max_memory());
        fputc('{', f);
        if (jbuf)
            fputs(jbuf, f);
        fprintf(f, "%s\"status\":", jlen ? "," : "");
        if (rc == 0) {
            fputs("\"ok\"", f);
        } else {
            fputs("\"error\",\"exit\":", f);
            fprintf(f, "%d,\"error\":", rc);
            jlen = 0;
            jfail = 0;
            jstring(cli_last_msg[0] ? cli_last_msg : "failed");
            fputs(jbuf ? jbuf : "null", f);
        }
        fputs("}\n", f);
        free(jbuf);
        jbuf = NULL;
        jlen = jcap = 0;
        jmember[0] = 0; /* a next object starts empty */
        if (fflush(f) != 0 || ferror(f) || jfail) {
            fprintf(stderr, "%s: error writing the report\n", cli_name);
            return rc ? rc : 1;
        }
    }
    if (cli_null) {
        fclose(cli_null);
        cli_null = NULL;
    }
    return rc;
}

/* ---- the progress bar --------------------------------------------------- */

static struct {
    int drawn, outer, spin, width;
    double start_ms, last_ms;
} bar;

int cli_progress_on(void)
{
    if (cli_bar_mode == CLI_PROGRESS_ALWAYS)
        return 1;
    return cli_bar_mode == CLI_PROGRESS_AUTO && !cli_bar_quiet && isatty(2);
}

void cli_progress_outer(int on) { bar.outer = on; }

void cli_progress_draw(double fraction, const char *phase, const char *detail)
{
    if (!cli_progress_on())
        return;
    const double now = cli_now_ms();
    if (!bar.start_ms)
        bar.start_ms = now;
    phase = phase ? phase : "";
    /* At most ten redraws a second (the first one and a finished share at
     * once: the end of a step is seen). */
    if (bar.drawn && fraction < 1 && now - bar.last_ms < 100)
        return;
    bar.last_ms = now;
    enum { W = 30 };
    char cells[W + 1];
    char pct[8];
    if (fraction >= 0) {
        const double f = fraction > 1 ? 1 : fraction;
        const int fill = (int)(f * W + 0.5);
        for (int i = 0; i < W; i++)
            cells[i] = i < fill ? '=' : ' ';
        if (fill > 0 && fill < W)
            cells[fill - 1] = '>';
        snprintf(pct, sizeof pct, "%3d%%", (int)(f * 100));
    } else { /* unknown: a <=> moving to and fro */
        const int span = W - 3, pos = bar.spin % (2 * span);
        const int at = pos < span ? pos : 2 * span - pos;
        for (int i = 0; i < W; i++)
            cells[i] = ' ';
        memcpy(cells + at, "<=>", 3);
        bar.spin++;
        snprintf(pct, sizeof pct, "  ? ");
    }
    cells[W] = '\0';
    char line[160];
    int n = snprintf(line, sizeof line, "[%s] %s  %s  %.1f s%s%s", cells, pct, phase,
                     (now - bar.start_ms) / 1e3, detail ? "  " : "", detail ? detail : "");
    if (n < 0)
        return;
    if (n >= (int)sizeof line)
        n = (int)sizeof line - 1;
    /* Pad over a longer previous line. */
    fprintf(stderr, "\r%s%*s", line, bar.width > n ? bar.width - n : 0, "");
    fflush(stderr);
    bar.width = n;
    bar.drawn = 1;
}

int cli_progress_cb(const gcut_progress *p, void *user)
{
    (void)user;
    if (!p)
        return 0;
    /* A tool that draws its own steps (the stereo moves) keeps the bar. */
    if (bar.outer)
        return 0;
    const char *op = p->operation ? p->operation : "";
    char phase[48], detail[64] = "";
    snprintf(phase, sizeof phase, "%s%s%s", op, p->phase && *p->phase ? " " : "",
             p->phase ? p->phase : "");
    size_t n = 0;
    if (p->steps > 0)
        n += (size_t)snprintf(detail, sizeof detail, "%lld/%lld", (long long)p->step,
                              (long long)p->steps);
    if (p->remaining >= 0 && p->remaining_what && n < sizeof detail)
        snprintf(detail + n, sizeof detail - n, "%s%lld %s", n ? ", " : "", (long long)p->remaining,
                 p->remaining_what);
    if (!bar.start_ms && p->elapsed_ms > 0)
        bar.start_ms = cli_now_ms() - p->elapsed_ms;
    cli_progress_draw(p->fraction, phase, detail[0] ? detail : NULL);
    return 0;
}

void cli_progress_clear(void)
{
    if (!bar.drawn)
        return;
    fprintf(stderr, "\r%*s\r", bar.width, "");
    fflush(stderr);
    bar.drawn = 0;
    bar.width = 0;
}
