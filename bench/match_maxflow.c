/*
 * gcut-match-maxflow - bipartite matching of a Matrix Market file solved as
 * max-flow by a gcut max-flow back end (match_flow.h), for comparison with
 * gcut-match's dedicated matchers (bench/run-match.sh, docs/matching.md).
 *
 * Prints the lines gcut-match prints (`size:`, `cardinality:`, `backend:`,
 * `initial:`, `parse:`, `init:`, `solve:`, `check: ok`), so scripts read both
 * alike; `solve` is the whole matcher: building the flow graph, gcut_solve
 * with per-edge flows, reading the mates back (each part on a line of its
 * own too). There is no initial matching (`initial: 0`, `init: 0.000 ms`).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gcut/gcut.h"
#include "cli.h"
#include "match_flow.h"

static const char usage[] =
    "usage: gcut-match-maxflow [options] FILE.mtx|-\n"
    "Find a maximum-cardinality matching of the bipartite graph of a Matrix Market\n"
    "coordinate file by solving it as max-flow: a node per row and per column,\n"
    "capacity 1 from the source to each row and from each column to the sink, a\n"
    "capacity-1 edge row -> column per edge; the mates are the edges with flow 1.\n"
    "\n"
    "options:\n"
    "  -b, --backend NAME   max-flow back end with per-edge flows (default cpu-hipr;\n"
    "                       cuda-csr, cpu-bk, cpu-prsn, cpu-ref)\n"
    "  -t, --threads N      threads of a parallel back end (0: all cores)\n"
    "      --check          verify the matching and its König cover and print `check: ok`\n"
    "  -r, --repeat N       match N times, report the median times, insist on equal sizes\n"
    "      --time-limit S   give up after S seconds\n"
    "  -v, --verbose        log what the library does to stderr\n"
    "  -h, --help           show this help\n"
    "      --version        show the version and the back ends\n"
    "\n"
    "output (one item per line): `size: ROWS x COLS, EDGES edges`, `cardinality: N`,\n"
    "`backend: NAME (max-flow)`, `initial: 0`, `parse: MS ms`, `init: 0.000 ms`,\n"
    "`solve: MS ms` (build + max-flow + read, medians with --repeat), `build: MS ms`,\n"
    "`maxflow: MS ms`, `read: MS ms`, with --check `check: ok`.\n"
    "Exit status 0 on success, 1 on bad input, a failed solve or check, 2 on bad usage.\n";

static void log_to_stderr(void *user, gcut_log_level level, const char *msg)
{
    (void)user;
    static const char *names[] = {"error", "warn", "info", "debug"};
    fprintf(stderr, "gcut [%s] %s\n", names[level], msg);
}

static double now_ms(void)
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

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* A whole number in [lo, hi], or -1. */
static long parse_long(const char *s, long lo, long hi)
{
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    return errno || end == s || *end || v < lo || v > hi ? -1 : v;
}

int main(int argc, char **argv)
{
    cli_init("gcut-match-maxflow", usage);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = "cpu-hipr";
    const char *input = NULL;
    int check = 0, repeat = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_info_option(a)) {
            return 0;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            opt.verbosity = GCUT_LOG_DEBUG;
            opt.log = log_to_stderr;
        } else if (!strcmp(a, "--check")) {
            check = 1;
        } else if (!strcmp(a, "-b") || !strcmp(a, "--backend") || !strcmp(a, "-t") ||
                   !strcmp(a, "--threads") || !strcmp(a, "-r") || !strcmp(a, "--repeat") ||
                   !strcmp(a, "--time-limit")) {
            if (!val)
                return cli_usage_error("missing value for", a);
            i++;
            if (!strcmp(a, "-b") || !strcmp(a, "--backend")) {
                opt.backend = val;
            } else if (!strcmp(a, "-t") || !strcmp(a, "--threads")) {
                const long n = parse_long(val, 0, 1024);
                if (n < 0)
                    return cli_usage_error("--threads needs an integer in [0, 1024]", val);
                opt.threads = (int32_t)n;
            } else if (!strcmp(a, "-r") || !strcmp(a, "--repeat")) {
                const long n = parse_long(val, 1, 1000);
                if (n < 0)
                    return cli_usage_error("--repeat needs an integer in [1, 1000]", val);
                repeat = (int)n;
            } else {
                char *end;
                const double s = strtod(val, &end);
                if (end == val || *end || !(s > 0))
                    return cli_usage_error("--time-limit needs a positive number", val);
                opt.time_limit = s;
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_usage_error("unknown option", a);
        } else if (input) {
            return cli_usage_error("more than one input file", a);
        } else {
            input = a;
        }
    }
    if (!input)
        return cli_usage_error("no input file", NULL);

    double t = now_ms();
    gcut_bipartite *b = NULL;
    if (gcut_bipartite_read_mtx(&b, input) != GCUT_OK) {
        fprintf(stderr, "gcut-match-maxflow: %s\n", gcut_last_error());
        return 1;
    }
    const double parse_ms = now_ms() - t;
    const int32_t nr = gcut_bipartite_num_rows(b), nc = gcut_bipartite_num_cols(b);
    int32_t *rm = malloc(((size_t)nr + 1) * sizeof *rm);
    int32_t *cm = malloc(((size_t)nc + 1) * sizeof *cm);
    double *ms[4];
    for (int k = 0; k < 4; k++)
        ms[k] = malloc((size_t)repeat * sizeof *ms[k]); /* solve, build, maxflow, read */
    int rc = 1;
    if (!rm || !cm || !ms[0] || !ms[1] || !ms[2] || !ms[3]) {
        fprintf(stderr, "gcut-match-maxflow: out of memory\n");
        goto done;
    }
    int64_t card = -1;
    for (int k = 0; k < repeat; k++) {
        mflow_times tm;
        int64_t c;
        char err[MFLOW_ERR_LEN];
        if (mflow_match(b, &opt, rm, cm, &c, &tm, err) != GCUT_OK) {
            fprintf(stderr, "gcut-match-maxflow: %s\n", err);
            goto done;
        }
        ms[0][k] = tm.build_ms + tm.solve_ms + tm.read_ms;
        ms[1][k] = tm.build_ms;
        ms[2][k] = tm.solve_ms;
        ms[3][k] = tm.read_ms;
        if (k > 0 && c != card) {
            fprintf(stderr, "gcut-match-maxflow: run %d found %lld, run 1 found %lld\n", k + 1,
                    (long long)c, (long long)card);
            goto done;
        }
        card = c;
    }
    printf("size: %d x %d, %lld edges\n", (int)nr, (int)nc,
           (long long)gcut_bipartite_num_edges(b));
    printf("cardinality: %lld\n", (long long)card);
    printf("backend: %s (max-flow)\n", opt.backend);
    printf("initial: 0\n");
    printf("parse: %.3f ms\n", parse_ms);
    printf("init: 0.000 ms\n");
    printf("solve: %.3f ms\n", median(ms[0], repeat));
    printf("build: %.3f ms\n", median(ms[1], repeat));
    printf("maxflow: %.3f ms\n", median(ms[2], repeat));
    printf("read: %.3f ms\n", median(ms[3], repeat));
    if (check) {
        if (gcut_match_check(b, rm, cm, card, NULL, NULL) != GCUT_OK) {
            fprintf(stderr, "gcut-match-maxflow: check failed: %s\n", gcut_last_error());
            goto done;
        }
        printf("check: ok\n");
    }
    rc = 0;
done:
    for (int k = 0; k < 4; k++)
        free(ms[k]);
    free(rm);
    free(cm);
    gcut_bipartite_free(b);
    return rc;
}
