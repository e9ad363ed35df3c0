/*
 * cli.c - the command-line helpers the tools share (see cli.h).
 */
#include "cli.h"

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

FILE *cli_open_output(const char *path)
{
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!f)
        fprintf(stderr, "%s: cannot write %s: %s\n", cli_name, path, strerror(errno));
    return f;
}

int cli_close_output(FILE *f, const char *path)
{
    int bad = ferror(f);
    if (f != stdout)
        bad |= fclose(f) != 0;
    if (bad)
        fprintf(stderr, "%s: error writing %s\n", cli_name, path);
    return bad;
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
