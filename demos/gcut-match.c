/*
 * gcut-match - maximum-cardinality bipartite matching of a Matrix Market
 * file (rows on one side, columns on the other) with any gcut matcher.
 *
 * Prints `cardinality: <N>` on a line of its own and the times (`init: <ms>
 * ms`, `solve: <ms> ms`), so scripts can read them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gcut/gcut.h"

static const char usage[] =
    "usage: gcut-match [options] FILE.mtx|-\n"
    "Find a maximum-cardinality matching of the bipartite graph of a Matrix Market\n"
    "coordinate file (rows on one side, columns on the other; - reads stdin).\n"
    "\n"
    "options:\n"
    "  -b, --backend NAME   matcher: auto (default, cpu-match-pr), cpu-match-pr, cpu-match-hk\n"
    "      --init KIND      initial matching: none, greedy (default) or ks (Karp-Sipser)\n"
    "      --relabel-freq K cpu-match-pr: global relabel after K*(m+n) arcs scanned (0.5)\n"
    "      --out FILE       write the mates: one line `ROW COL` per row, 1-based, COL 0 if free\n"
    "                       (FILE -: stdout, the report then on stderr)\n"
    "      --check          verify the matching and its König cover and print `check: ok`\n"
    "  -r, --repeat N       match N times, report the median times, insist on equal sizes\n"
    "      --time-limit S   give up after S seconds\n"
    "  -v, --verbose        log what the library does to stderr\n"
    "  -l, --list-backends  list the matchers\n"
    "  -h, --help           show this help\n"
    "      --version        show the version\n"
    "\n"
    "output (one item per line): `size: ROWS x COLS, EDGES edges`, `cardinality: N`,\n"
    "`backend: NAME`, `initial: N` (size after the init heuristic), `parse: MS ms`,\n"
    "`init: MS ms`, `solve: MS ms` (medians with --repeat), with --check `check: ok`.\n"
    "Exit status 0 on success, 1 on bad input or a failed check, 2 on bad usage.\n";

static double median(double *v, int n)
{
    cli_sort_doubles(v, (size_t)n);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int write_mates(const char *path, const int32_t *mates, int32_t rows)
{
    FILE *f = cli_open_output(path);
    if (!f)
        return 1;
    fprintf(f, "%% row column (1-based; column 0: the row is unmatched)\n");
    for (int32_t r = 0; r < rows; r++)
        fprintf(f, "%d %d\n", (int)r + 1, (int)mates[r] + 1);
    return cli_close_output(f, path);
}

int main(int argc, char **argv)
{
    cli_init("gcut-match", usage);
    gcut_match_options opt;
    gcut_match_options_init(&opt);
    const char *input = NULL, *out_path = NULL;
    int check = 0, repeat = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_info_option(a)) {
            return 0;
        } else if (!strcmp(a, "-l") || !strcmp(a, "--list-backends")) {
            for (int32_t k = 0; k < gcut_match_backend_count(); k++)
                fprintf(cli_report(), "%-14s %s\n", gcut_match_backend_name(k),
                        gcut_match_backend_description(k));
            return 0;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            opt.verbosity = 2;
            opt.log = cli_log_to_stderr;
        } else if (!strcmp(a, "--check")) {
            check = 1;
        } else if (!strcmp(a, "-b") || !strcmp(a, "--backend") || !strcmp(a, "--init") ||
                   !strcmp(a, "--out") || !strcmp(a, "-r") || !strcmp(a, "--repeat") ||
                   !strcmp(a, "--time-limit") || !strcmp(a, "--relabel-freq")) {
            if (!val)
                return cli_usage_error("missing value for", a);
            i++;
            if (!strcmp(a, "-b") || !strcmp(a, "--backend")) {
                opt.backend = val;
            } else if (!strcmp(a, "--init")) {
                if (!strcmp(val, "none"))
                    opt.init = GCUT_MATCH_INIT_NONE;
                else if (!strcmp(val, "greedy"))
                    opt.init = GCUT_MATCH_INIT_GREEDY;
                else if (!strcmp(val, "ks"))
                    opt.init = GCUT_MATCH_INIT_KS;
                else
                    return cli_usage_error("--init must be none, greedy or ks", val);
            } else if (!strcmp(a, "--out")) {
                out_path = val;
            } else if (!strcmp(a, "-r") || !strcmp(a, "--repeat")) {
                int32_t n;
                if (!cli_parse_int(val, 1, 1000, &n))
                    return cli_usage_error("--repeat needs an integer in [1, 1000]", val);
                repeat = (int)n;
            } else {
                double d;
                if (!cli_parse_positive(val, &d))
                    return cli_usage_error("needs a positive number", a);
                if (!strcmp(a, "--time-limit"))
                    opt.time_limit = d;
                else
                    opt.relabel_freq = d;
            }
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("unknown option", a);
        } else if (input) {
            return cli_usage_error("more than one input file", a);
        } else {
            input = a;
        }
    }
    if (!input)
        return cli_usage_error("no input file", NULL);
    {
        const char *outs[] = {out_path}, *ins[] = {input};
        int bad = cli_check_outputs(outs, 1, ins, 1);
        if (bad)
            return bad;
    }

    double t = cli_now_ms();
    gcut_bipartite *b = NULL;
    if (gcut_bipartite_read_mtx(&b, input) != GCUT_OK)
        return cli_fail();
    const double parse_ms = cli_now_ms() - t;
    gcut_match_result *res = NULL;
    double *init_ms = malloc((size_t)repeat * sizeof *init_ms);
    double *solve_ms = malloc((size_t)repeat * sizeof *solve_ms);
    int rc = 1;
    if (!init_ms || !solve_ms || gcut_match_result_new(&res) != GCUT_OK) {
        fprintf(stderr, "gcut-match: out of memory\n");
        goto done;
    }
    int64_t card = -1;
    for (int k = 0; k < repeat; k++) {
        if (gcut_match(b, &opt, res) != GCUT_OK) {
            cli_fail();
            goto done;
        }
        const gcut_match_stats *s = gcut_match_result_stats(res);
        init_ms[k] = s->init_ms;
        solve_ms[k] = s->solve_ms;
        if (k > 0 && gcut_match_result_cardinality(res) != card) {
            fprintf(stderr, "gcut-match: run %d found %lld, run 1 found %lld\n", k + 1,
                    (long long)gcut_match_result_cardinality(res), (long long)card);
            goto done;
        }
        card = gcut_match_result_cardinality(res);
    }
    const gcut_match_stats *s = gcut_match_result_stats(res);
    fprintf(cli_report(), "size: %d x %d, %lld edges\n", (int)gcut_bipartite_num_rows(b),
            (int)gcut_bipartite_num_cols(b), (long long)gcut_bipartite_num_edges(b));
    fprintf(cli_report(), "cardinality: %lld\n", (long long)card);
    fprintf(cli_report(), "backend: %s\n", gcut_match_result_backend(res));
    fprintf(cli_report(), "initial: %lld\n", (long long)s->init_cardinality);
    fprintf(cli_report(), "parse: %.3f ms\n", parse_ms);
    fprintf(cli_report(), "init: %.3f ms\n", median(init_ms, repeat));
    fprintf(cli_report(), "solve: %.3f ms\n", median(solve_ms, repeat));
    if (s->pushes || s->global_relabels)
        fprintf(cli_report(), "pushes: %lld, relabels: %lld, global relabels: %lld\n",
                (long long)s->pushes, (long long)s->relabels, (long long)s->global_relabels);
    if (s->phases)
        fprintf(cli_report(), "phases: %lld, augmenting paths: %lld\n", (long long)s->phases,
                (long long)s->augmentations);
    if (check) {
        if (gcut_match_check(b, gcut_match_result_row_mates(res), gcut_match_result_col_mates(res),
                             card, NULL, NULL) != GCUT_OK) {
            fprintf(stderr, "gcut-match: check failed: %s\n", gcut_last_error());
            goto done;
        }
        fprintf(cli_report(), "check: ok\n");
    }
    if (out_path && write_mates(out_path, gcut_match_result_row_mates(res),
                                gcut_bipartite_num_rows(b)))
        goto done;
    rc = 0;
done:
    free(init_ms);
    free(solve_ms);
    gcut_match_result_free(res);
    gcut_bipartite_free(b);
    return rc;
}
