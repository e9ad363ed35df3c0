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
    "  -l, --list-backends  list the matchers\n"
    "\n"
    "output (one item per line): `size: ROWS x COLS, EDGES edges`, `cardinality: N`,\n"
    "`backend: NAME`, `initial: N` (size after the init heuristic), `parse: MS ms`,\n"
    "`init: MS ms`, `solve: MS ms` (medians with --repeat), with --check `check: ok`.\n"
    "--json: {\"rows\", \"cols\", \"edges\", \"cardinality\", \"backend\", \"initial\",\n"
    "\"parse_ms\", \"init_ms\", \"solve_ms\", [\"pushes\", \"relabels\", \"global_relabels\"],\n"
    "[\"phases\", \"augmenting_paths\"], [\"check\"], \"status\"}. Exit status 0 on success, 1 on\n"
    "bad input or a failed check, 2 on bad usage.\n";

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

typedef struct args {
    gcut_match_options opt;
    const char *out_path;
    int check, repeat, list;
} args;

enum { OPT_INIT = CLI_KEY, OPT_RELABEL, OPT_OUT, OPT_CHECK };

static int take_option(int key, const char *v, void *user)
{
    args *a = user;
    int32_t n;
    switch (key) {
    case 'l':
        a->list = 1;
        return 0;
    case OPT_CHECK:
        a->check = 1;
        return 0;
    case OPT_INIT:
        if (!strcmp(v, "none"))
            a->opt.init = GCUT_MATCH_INIT_NONE;
        else if (!strcmp(v, "greedy"))
            a->opt.init = GCUT_MATCH_INIT_GREEDY;
        else if (!strcmp(v, "ks"))
            a->opt.init = GCUT_MATCH_INIT_KS;
        else
            return cli_usage_error("--init must be none, greedy or ks", v);
        return 0;
    case OPT_OUT:
        a->out_path = v;
        return 0;
    case 'r':
        if (!cli_parse_int(v, 1, 1000, &n))
            return cli_usage_error("--repeat needs an integer in [1, 1000]", v);
        a->repeat = (int)n;
        return 0;
    default: /* OPT_RELABEL */
        if (!cli_parse_positive(v, &a->opt.relabel_freq))
            return cli_usage_error("--relabel-freq needs a positive number", v);
        return 0;
    }
}

int main(int argc, char **argv)
{
    cli_init("gcut-match", usage);
    args a = {.repeat = 1};
    gcut_match_options_init(&a.opt);
    static const struct option longopts[] = {{"list-backends", no_argument, NULL, 'l'},
                                             {"repeat", required_argument, NULL, 'r'},
                                             {"init", required_argument, NULL, OPT_INIT},
                                             {"relabel-freq", required_argument, NULL, OPT_RELABEL},
                                             {"out", required_argument, NULL, OPT_OUT},
                                             {"check", no_argument, NULL, OPT_CHECK},
                                             {NULL, 0, NULL, 0}};
    const cli_opts group = {"lr:", longopts, take_option, &a};
    cli_common c;
    int first, rc = cli_parse(argc, argv, &group, 1, CLI_OPT_SOLVER & ~(unsigned)CLI_OPT_THREADS,
                              &c, &first);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (a.list) {
        cli_json_begin_array("backends");
        for (int32_t k = 0; k < gcut_match_backend_count(); k++) {
            fprintf(cli_report(), "%-14s %s\n", gcut_match_backend_name(k),
                    gcut_match_backend_description(k));
            cli_json_begin_object(NULL);
            cli_json_str("name", gcut_match_backend_name(k));
            cli_json_str("description", gcut_match_backend_description(k));
            cli_json_end();
        }
        cli_json_end();
        return cli_finish(0);
    }
    gcut_match_options opt = a.opt;
    if (c.backend)
        opt.backend = c.backend;
    if (c.time_limit > 0)
        opt.time_limit = c.time_limit;
    if (c.verbose) {
        opt.verbosity = 2;
        opt.log = cli_log_to_stderr;
    }
    const char *input = first < argc ? argv[first++] : NULL, *out_path = a.out_path;
    const int check = a.check, repeat = a.repeat;
    if (first < argc)
        return cli_usage_error("more than one input file", argv[first]);
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
    cli_progress_draw(-1, "read", input);
    if (gcut_bipartite_read_mtx(&b, input) != GCUT_OK)
        return cli_finish(cli_fail());
    cli_progress_draw(-1, "match", NULL);
    const double parse_ms = cli_now_ms() - t;
    gcut_match_result *res = NULL;
    double *init_ms = malloc((size_t)repeat * sizeof *init_ms);
    double *solve_ms = malloc((size_t)repeat * sizeof *solve_ms);
    rc = 1;
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
    cli_progress_clear();
    const gcut_match_stats *s = gcut_match_result_stats(res);
    if (cli_json()) {
        cli_json_int("rows", gcut_bipartite_num_rows(b));
        cli_json_int("cols", gcut_bipartite_num_cols(b));
        cli_json_int("edges", (long long)gcut_bipartite_num_edges(b));
    } else {
        fprintf(cli_report(), "size: %d x %d, %lld edges\n", (int)gcut_bipartite_num_rows(b),
                (int)gcut_bipartite_num_cols(b), (long long)gcut_bipartite_num_edges(b));
    }
    cli_put_int("cardinality", (long long)card);
    cli_put_str("backend", gcut_match_result_backend(res));
    cli_put_int("initial", (long long)s->init_cardinality);
    cli_put_ms("parse", parse_ms, 3);
    cli_put_ms("init", median(init_ms, repeat), 3);
    cli_put_ms("solve", median(solve_ms, repeat), 3);
    if (s->pushes || s->global_relabels) {
        fprintf(cli_report(), "pushes: %lld, relabels: %lld, global relabels: %lld\n",
                (long long)s->pushes, (long long)s->relabels, (long long)s->global_relabels);
        cli_json_int("pushes", (long long)s->pushes);
        cli_json_int("relabels", (long long)s->relabels);
        cli_json_int("global_relabels", (long long)s->global_relabels);
    }
    if (s->phases) {
        fprintf(cli_report(), "phases: %lld, augmenting paths: %lld\n", (long long)s->phases,
                (long long)s->augmentations);
        cli_json_int("phases", (long long)s->phases);
        cli_json_int("augmenting_paths", (long long)s->augmentations);
    }
    if (check) {
        if (gcut_match_check(b, gcut_match_result_row_mates(res), gcut_match_result_col_mates(res),
                             card, NULL, NULL) != GCUT_OK) {
            fprintf(stderr, "gcut-match: check failed: %s\n", gcut_last_error());
            goto done;
        }
        cli_put_str("check", "ok");
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
    return cli_finish(rc);
}
