/*
 * cli.h - what the command-line tools share (gcut-maxflow, gcut-match,
 * gcut-seg, gcut-stereo, gcut-mvs, gcut-view and the bench tools that use
 * the viewer's code): the tool's name for its messages, --help and
 * --version, the usage and failure messages with their exit statuses,
 * number parsing, output files, the clock and a log callback. A small static library,
 * gcut_demo_common (demos/CMakeLists.txt); not part of libgcut.
 */
#ifndef GCUT_DEMOS_CLI_H
#define GCUT_DEMOS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gcut/gcut.h"

/* The tool's name (the prefix of its messages) and its --help text; call
 * first in main. Both strings must outlive the program (literals). */
void cli_init(const char *prog, const char *usage);

/* The name given to cli_init. */
const char *cli_prog(void);

/* -h or --help: the help text on stdout; --version: `PROG VERSION` (the
 * version of the libgcut loaded) on stdout. 1 when arg was one of them
 * (the caller exits with status 0), else 0. */
int cli_info_option(const char *arg);

/* "PROG: MSG[: ARG]" and "Try 'PROG --help'." on stderr; returns 2, the
 * exit status of bad usage. */
int cli_usage_error(const char *msg, const char *arg);

/* "PROG: " and gcut_last_error() on stderr; returns 1, the exit status of
 * bad input. */
int cli_fail(void);

/* The whole of s as an integer in lo .. hi (strtol, base 10): 1 and *out,
 * or 0 (*out unchanged). */
int cli_parse_int(const char *s, int32_t lo, int32_t hi, int32_t *out);

/* The whole of s as a number in lo .. hi (strtod; not NaN, no overflow or
 * underflow): 1 and *out, or 0 (*out unchanged). */
int cli_parse_double(const char *s, double lo, double hi, double *out);

/* A number > 0 (infinity allowed: "no limit"), as cli_parse_double. */
int cli_parse_positive(const char *s, double *out);

/* An output file, "-" being stdout: the stream, or NULL after "PROG:
 * cannot write PATH: REASON" on stderr. */
FILE *cli_open_output(const char *path);

/* Close what cli_open_output opened (stdout is flushed, not closed): 0, or
 * 1 after "PROG: error writing PATH" on stderr. */
int cli_close_output(FILE *f, const char *path);

/* Milliseconds of the monotonic clock. */
double cli_now_ms(void);

/* Sort n doubles in increasing order (for medians and percentiles). */
void cli_sort_doubles(double *v, size_t n);

/* A gcut_log_fn: "gcut [LEVEL] MESSAGE" on stderr. */
void cli_log_to_stderr(void *user, gcut_log_level level, const char *msg);

#endif
