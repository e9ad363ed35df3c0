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

/* An output file, "-" being stdout, through libgcut's one writer
 * (gcut_i_out_open, lib/core/outfile_internal.h): a regular file is
 * written to a temporary file and renamed over the old one by
 * cli_close_output, a device or FIFO is written directly. The stream, or
 * NULL after "PROG: cannot write PATH: REASON" on stderr. */
FILE *cli_open_output(const char *path);

/* Finish what cli_open_output opened (stdout is flushed, not closed): 0,
 * or 1 after "PROG: PATH: REASON" on stderr (the old file left as it was). */
int cli_close_output(FILE *f, const char *path);

/* Give up what cli_open_output opened: the old file stays as it was. */
void cli_abort_output(FILE *f);

/* 1 when paths a and b name the same regular file (device and inode, or
 * the same resolved path when neither exists yet), else 0. */
int cli_same_file(const char *a, const char *b);

/* Refuse an output that is one of the inputs, two outputs that are one
 * file, or two outputs on stdout (NULL entries are skipped; "-" is never
 * the same file as anything): 0, or 2 (bad usage) after "PROG: refusing to
 * overwrite the input IN ..." on stderr. When an output is "-", the
 * tool's report (cli_report) moves to stderr. */
int cli_check_outputs(const char *const *outs, size_t nout, const char *const *ins, size_t nin);

/* Where the tool prints its report (`flow: ...`): stdout, or stderr once
 * cli_check_outputs has seen an output on stdout. */
FILE *cli_report(void);

/* Milliseconds of the monotonic clock. */
double cli_now_ms(void);

/* Sort n doubles in increasing order (for medians and percentiles). */
void cli_sort_doubles(double *v, size_t n);

/* A gcut_log_fn: "gcut [LEVEL] MESSAGE" on stderr. */
void cli_log_to_stderr(void *user, gcut_log_level level, const char *msg);

#endif
