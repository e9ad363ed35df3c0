/*
 * cli.h - what the command-line tools share (gcut-maxflow, gcut-match,
 * gcut-seg, gcut-stereo, gcut-mvs, gcut-view and the bench tools that use
 * the viewer's code): the tool's name for its messages, --help and
 * --version, one getopt_long parser with the options every solving tool
 * has (back end, threads, settings, time limit, memory budget, verbosity,
 * quiet, progress, JSON), the usage and failure messages with their exit
 * statuses, number and size parsing, the report (text or JSON), the
 * progress bar, output files, the clock and a log callback. A small static
 * library, gcut_demo_common (demos/CMakeLists.txt); not part of libgcut.
 */
#ifndef GCUT_DEMOS_CLI_H
#define GCUT_DEMOS_CLI_H

#include <getopt.h>
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
 * version of the libgcut loaded) and the back ends, one line each (`  NAME
 * yes` or `  NAME no (REASON)`), on stdout. 1 when arg was one of them (the
 * caller exits with status 0), else 0. */
int cli_info_option(const char *arg);

/* --version's text on stdout (as cli_info_option). */
void cli_print_version(void);

/* The options the tools share; cli_parse reads those a tool asks for. */
enum cli_common_flags {
    CLI_OPT_BACKEND = 1u << 0, /* -b, --backend NAME */
    CLI_OPT_THREADS = 1u << 1, /* -t, --threads N; --params STR */
    CLI_OPT_LIMITS = 1u << 2,  /* --time-limit SECONDS, --max-memory SIZE */
    CLI_OPT_VERBOSE = 1u << 3, /* -v, --verbose */
    CLI_OPT_QUIET = 1u << 4,   /* -q, --quiet; --progress[=WHEN] */
    CLI_OPT_JSON = 1u << 5,    /* --json */
    CLI_OPT_SOLVER = 0x3fu     /* all of them: a tool that solves */
};

/* --progress: auto (a bar when stderr is a terminal), always, never. */
enum { CLI_PROGRESS_AUTO, CLI_PROGRESS_ALWAYS, CLI_PROGRESS_NEVER };

/* The shared options as given (zero / NULL: not given). */
typedef struct cli_common {
    const char *backend, *params;
    int32_t threads;   /* 0: one per core */
    double time_limit; /* seconds; 0: none */
    size_t max_memory; /* bytes; 0: none (already passed to gcut_set_max_memory) */
    int verbose;       /* how many -v */
    int quiet, json, progress;
} cli_common;

/* One group of a tool's own options: getopt's short options (no leading
 * '+' or ':'), long options (ending with a zero entry; flag NULL, val the
 * key), and the function that takes each. fn returns 0, or the exit status
 * after a message (2 through cli_usage_error for bad usage). */
typedef int (*cli_option_fn)(int key, const char *arg, void *user);
typedef struct cli_opts {
    const char *shortopts;
    const struct option *longopts;
    cli_option_fn fn;
    void *user;
} cli_opts;

/* First key free for a group's long-only options (the shared ones use
 * keys from 0x1000 up). */
#define CLI_KEY 0x200

/* Parse argv with getopt_long: `--opt=value` and `--opt value`, `-n16` and
 * `-n 16`, unique abbreviations of long options, options and operands in
 * any order, `--` ends the options. The ngroups groups of the tool and the
 * shared options of `common` (cli_common_flags) are accepted, with -h,
 * --help and --version; the shared ones go into *c (--max-memory is also
 * passed to gcut_set_max_memory at once). Returns 0 with *first the index
 * of the first operand (argv[*first .. argc)), -1 after --help or
 * --version (exit status 0), or the exit status after a message (2 on bad
 * usage: one line and "Try 'PROG --help'."). --help prints the text of
 * cli_init, then the shared options asked for. */
int cli_parse(int argc, char **argv, const cli_opts *groups, size_t ngroups, unsigned common,
              cli_common *c, int *first);

/* The shared options into a call's options: back end (when given),
 * threads, params, time limit (when given), memory budget, log sink and
 * verbosity with -v, and the progress callback when the bar is on. */
void cli_apply_solve(const cli_common *c, gcut_solve_options *opt);

/* A size in bytes: a number (decimals allowed) and an optional unit, B,
 * K/KiB, M/MiB, G/GiB, T/TiB (powers of 1024; KB, MB, GB, TB: powers of
 * 1000; the letters in either case). 1 and *out (0 allowed: no budget),
 * or 0 (*out unchanged) when malformed or past SIZE_MAX. */
int cli_parse_size(const char *s, size_t *out);

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
 * cli_check_outputs has seen an output on stdout. With --json the text
 * report is dropped (a stream to /dev/null): the cli_put_* items and the
 * cli_json_* members make one JSON object instead, written by cli_finish
 * where the text would have gone (so stderr too when an output is on
 * stdout: JSON never mixes with an output). */
FILE *cli_report(void);

/* 1 with --json. */
int cli_json(void);

/* Report items: `KEY: VALUE` (cli_put_ms: `KEY: MS ms`, cli_put_pct:
 * `KEY: PCT %`, with prec decimals) in the text report; with --json a
 * member KEY (`-` becoming `_`; "KEY_ms", "KEY_pct") of the object. */
void cli_put_int(const char *key, long long v);
void cli_put_str(const char *key, const char *v);
void cli_put_num(const char *key, double v, const char *fmt);
void cli_put_ms(const char *key, double ms, int prec);
void cli_put_pct(const char *key, double pct, int prec);

/* JSON members only (nothing without --json): key NULL inside an array. */
void cli_json_int(const char *key, long long v);
void cli_json_num(const char *key, double v);      /* not finite: null */
void cli_json_str(const char *key, const char *v); /* NULL: null */
void cli_json_begin_object(const char *key);
void cli_json_begin_array(const char *key);
void cli_json_end(void); /* of the innermost object or array */

/* The end of a tool's run with exit status rc: the progress bar cleared;
 * with --json the object (with "max_memory": BYTES when a budget is set,
 * then "status": "ok", or "error", "exit" and the last message of
 * cli_fail) on the report stream. Returns rc, or 1 when the
 * report could not be written. */
int cli_finish(int rc);

/* The progress bar on stderr: `[=====>     ]  43%  PHASE  1.2 s` (with
 * step/steps and what remains when known), or a moving `<=>` when the
 * fraction is unknown (< 0). On when --progress=always, or auto (the
 * default) with stderr a terminal and no --quiet. Redrawn with \r at most
 * every 100 ms (the first draw and a share of 1 at once), cleared by
 * cli_progress_clear. */
int cli_progress_on(void);

/* A gcut_progress_fn drawing the bar (user unused): `OPERATION PHASE`,
 * the fraction, step/steps and what remains; returns 0 (never cancels).
 * While a tool drives the bar itself (cli_progress_outer), it draws
 * nothing. */
int cli_progress_cb(const gcut_progress *p, void *user);

/* Draw the bar: fraction in [0, 1] or < 0 unknown, what is being done,
 * detail (NULL or a short text after the time). */
void cli_progress_draw(double fraction, const char *phase, const char *detail);

/* The tool reports progress of its own steps (1) or not (0). */
void cli_progress_outer(int on);

/* Erase the bar (if drawn). */
void cli_progress_clear(void);

/* Milliseconds of the monotonic clock. */
double cli_now_ms(void);

/* Sort n doubles in increasing order (for medians and percentiles). */
void cli_sort_doubles(double *v, size_t n);

/* A gcut_log_fn: "gcut [LEVEL] MESSAGE" on stderr. */
void cli_log_to_stderr(void *user, gcut_log_level level, const char *msg);

#endif
