/*
 * cli.c - the command-line helpers the tools share (see cli.h).
 */
#include "cli.h"

#include "core/outfile_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *cli_name = "gcut";
static const char *cli_help = "";

void cli_init(const char *prog, const char *usage)
{
    cli_name = prog;
    cli_help = usage;
}

const char *cli_prog(void)
{
    return cli_name;
}

int cli_info_option(const char *arg)
{
    if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
        fputs(cli_help, stdout);
        return 1;
    }
    if (!strcmp(arg, "--version")) {
        printf("%s %s\n", cli_name, gcut_version());
        return 1;
    }
    return 0;
}

int cli_usage_error(const char *msg, const char *arg)
{
    fprintf(stderr, "%s: %s%s%s\n", cli_name, msg, arg ? ": " : "", arg ? arg : "");
    fprintf(stderr, "Try '%s --help'.\n", cli_name);
    return 2;
}

int cli_fail(void)
{
    fprintf(stderr, "%s: %s\n", cli_name, gcut_last_error());
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

static FILE *cli_rep;

FILE *cli_report(void) { return cli_rep ? cli_rep : stdout; }

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
