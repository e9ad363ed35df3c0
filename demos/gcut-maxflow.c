/*
 * gcut-maxflow - solve a DIMACS max-flow file with any gcut back end.
 *
 * Prints `flow: <value>` on a line of its own and the times of parse, build
 * and solve (`solve: <ms> ms`), so scripts can read them. With
 * `--backend all` every available back end solves the file and a table
 * compares them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gcut/gcut.h"

static const char usage[] =
    "usage: gcut-maxflow [options] FILE|-\n"
    "Solve a DIMACS max-flow file (plain or gzip; - reads stdin) and print its value.\n"
    "\n"
    "options:\n"
    "  -b, --backend NAME   back end: auto (default), all, or a name from --list-backends\n"
    "  -t, --threads N      threads for parallel back ends (0 = one per core)\n"
    "      --params STR     back-end settings, key=value[,key=value]\n"
    "      --cut FILE       write the canonical cut: one line `ID SIDE` per node (0 source, 1 sink)\n"
    "      --flow FILE      write the flow in DIMACS solution form (`s VALUE`, `f U V FLOW`)\n"
    "                       (FILE -: stdout, the report then on stderr)\n"
    "      --check          verify the flow and the cut (gcut_check_flow) and print `check: ok`\n"
    "  -r, --repeat N       solve N times, report the median solve time, insist on equal results\n"
    "      --time-limit S   give up after S seconds\n"
    "  -v, --verbose        log what the library does to stderr\n"
    "  -l, --list-backends  list the back ends, whether each is available and why\n"
    "  -h, --help           show this help\n"
    "      --version        show the version\n"
    "\n"
    "output (one item per line): `flow: VALUE`, `backend: NAME (REASON)`, `parse: MS ms`,\n"
    "`build: MS ms`, `solve: MS ms`, `total: MS ms` (medians with --repeat). Exit status 0 on\n"
    "success, 1 on bad input or a failed check, 2 on bad usage.\n";

typedef struct args {
    const char *backend, *params, *cut_path, *flow_path, *input;
    int32_t threads;
    int check, repeat, verbose;
    double time_limit;
} args;

static int list_backends(void)
{
    fprintf(cli_report(), "%-10s %-10s %s\n", "backend", "available", "description / reason");
    for (int32_t i = 0; i < gcut_backend_count(); i++) {
        const char *why;
        int ok = gcut_backend_available(i, &why);
        fprintf(cli_report(), "%-10s %-10s %s%s%s\n", gcut_backend_name(i), ok ? "yes" : "no",
                gcut_backend_description(i), ok ? "" : " -- ", ok ? "" : why);
    }
    return 0;
}

static int write_cut(const char *path, const uint8_t *cut, int32_t n)
{
    FILE *f = cli_open_output(path);
    if (!f)
        return 1;
    fprintf(f, "c canonical cut: node id (1-based, as in the file), side (0 source, 1 sink)\n");
    for (int32_t v = 0; v < n; v++)
        fprintf(f, "%d %d\n", (int)v + 1, (int)cut[v]);
    return cli_close_output(f, path);
}

/* DIMACS solution form: terminal arcs first (from the balance of each node),
 * then one line per edge in file order. */
static int write_flow(const char *path, const gcut_graph *g, const gcut_dimacs_info *info,
                      int64_t value, const int32_t *flows)
{
    FILE *f = cli_open_output(path);
    if (!f)
        return 1;
    const int32_t n = gcut_graph_num_nodes(g);
    const int64_t m = gcut_graph_num_edges(g);
    int64_t *d = calloc((size_t)n + 1, sizeof *d);
    if (!d) {
        fprintf(stderr, "gcut-maxflow: out of memory\n");
        cli_abort_output(f);
        return 1;
    }
    for (int64_t e = 0; e < m; e++) {
        int32_t u, v;
        gcut_graph_get_edge(g, e, &u, &v, NULL, NULL);
        d[u] += flows[e];
        d[v] -= flows[e];
    }
    fprintf(f, "c flow computed by gcut %s\ns %lld\n", gcut_version(), (long long)value);
    const int s = info->source + 1, t = info->sink + 1;
    for (int32_t v = 0; v < n; v++) {
        int32_t cs, ct;
        gcut_graph_get_tweights(g, v, &cs, &ct);
        int64_t from_s = d[v] > 0 ? d[v] : 0, to_t = d[v] < 0 ? -d[v] : 0;
        int64_t direct = cs - from_s < ct - to_t ? cs - from_s : ct - to_t;
        if (v == info->source && cs > 0) /* an s -> t arc of the file, kept on node s */
            fprintf(f, "f %d %d %lld\n", s, t, (long long)(from_s + direct));
        else {
            if (cs > 0)
                fprintf(f, "f %d %d %lld\n", s, (int)v + 1, (long long)(from_s + direct));
            if (ct > 0)
                fprintf(f, "f %d %d %lld\n", (int)v + 1, t, (long long)(to_t + direct));
        }
    }
    for (int64_t e = 0; e < m; e++) {
        int32_t u, v;
        gcut_graph_get_edge(g, e, &u, &v, NULL, NULL);
        fprintf(f, "f %d %d %d\n", (int)u + 1, (int)v + 1, (int)flows[e]);
    }
    free(d);
    return cli_close_output(f, path);
}

/* Solve with one back end, `repeat` times. Returns 0 on success. */
typedef struct timing {
    double build_ms;  /* layout build of the first run (later runs reuse it) */
    double solve_ms;  /* median of init + solve + cut + flow */
    double total_ms;  /* median wall time of gcut_solve */
} timing;

static int solve_one(gcut_graph *g, const args *a, const char *backend, gcut_result *res,
                     timing *tm, int quiet_fail)
{
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = backend;
    opt.threads = a->threads;
    opt.params = a->params;
    opt.time_limit = a->time_limit;
    int32_t idx;
    const int flows_possible = gcut_backend_choose(g, backend, &idx, NULL) == GCUT_OK &&
                               (gcut_backend_caps(idx) & GCUT_BACKEND_FLOWS);
    opt.want_flows = (a->flow_path || a->check) && flows_possible;
    if (a->verbose) {
        opt.verbosity = 2;
        opt.log = cli_log_to_stderr;
    }
    double *times = calloc((size_t)a->repeat * 2, sizeof *times);
    double *totals = times + a->repeat;
    uint8_t *first_cut = NULL;
    int64_t first_flow = 0;
    const int32_t n = gcut_graph_num_nodes(g);
    int rc = 0;
    for (int k = 0; k < a->repeat && rc == 0; k++) {
        if (gcut_solve(g, &opt, res) != GCUT_OK) {
            if (!quiet_fail)
                cli_fail();
            rc = 1;
            break;
        }
        const gcut_stats *st = gcut_result_stats(res);
        times[k] = st->solve_ms + st->init_ms + st->cut_ms + st->flow_ms;
        totals[k] = st->total_ms;
        if (k == 0) {
            tm->build_ms = st->build_ms;
            first_flow = gcut_result_flow(res);
            first_cut = malloc((size_t)n + 1);
            if (first_cut)
                memcpy(first_cut, gcut_result_cut(res), (size_t)n);
        } else if (gcut_result_flow(res) != first_flow ||
                   (first_cut && memcmp(first_cut, gcut_result_cut(res), (size_t)n) != 0)) {
            fprintf(stderr, "gcut-maxflow: %s gave a different result on run %d (flow %lld, first %lld)\n",
                    gcut_result_backend(res), k + 1, (long long)gcut_result_flow(res),
                    (long long)first_flow);
            rc = 1;
        }
    }
    if (rc == 0) {
        cli_sort_doubles(times, (size_t)a->repeat);
        cli_sort_doubles(totals, (size_t)a->repeat);
        tm->solve_ms = times[a->repeat / 2];
        tm->total_ms = totals[a->repeat / 2];
    }
    free(times);
    free(first_cut);
    return rc;
}

static int check_result(gcut_graph *g, gcut_result *res)
{
    if (gcut_check_flow(g, gcut_result_flow(res), gcut_result_edge_flows(res),
                        gcut_result_cut(res)) != GCUT_OK) {
        fprintf(stderr, "gcut-maxflow: check failed: %s\n", gcut_last_error());
        return 1;
    }
    return 0;
}

static int solve_all(gcut_graph *g, const args *a)
{
    fprintf(cli_report(), "%-10s %16s %12s %12s %12s  %s\n", "backend", "flow", "build_ms",
            "solve_ms", "total_ms", "status");
    gcut_result *res;
    if (gcut_result_new(&res) != GCUT_OK)
        return 1;
    int rc = 0;
    int64_t ref_flow = -1;
    uint8_t *ref_cut = NULL;
    const int32_t n = gcut_graph_num_nodes(g);
    for (int32_t i = 0; i < gcut_backend_count(); i++) {
        const char *name = gcut_backend_name(i), *why;
        if (!(gcut_backend_caps(i) & GCUT_BACKEND_GRAPH)) /* grid-only: not for graphs */
            continue;
        if (!gcut_backend_available(i, &why)) {
            fprintf(cli_report(), "%-10s %16s %12s %12s %12s  unavailable: %s\n", name, "-", "-",
                    "-", "-", why);
            continue;
        }
        timing tm = {0, 0, 0};
        if (solve_one(g, a, name, res, &tm, 1) != 0) {
            fprintf(cli_report(), "%-10s %16s %12s %12s %12s  failed: %s\n", name, "-", "-", "-",
                    "-", gcut_last_error());
            rc = 1;
            continue;
        }
        const char *status = "ok";
        if (ref_flow < 0) {
            ref_flow = gcut_result_flow(res);
            ref_cut = malloc((size_t)n + 1);
            if (ref_cut)
                memcpy(ref_cut, gcut_result_cut(res), (size_t)n);
        } else if (gcut_result_flow(res) != ref_flow ||
                   (ref_cut && memcmp(ref_cut, gcut_result_cut(res), (size_t)n) != 0)) {
            status = "DISAGREES";
            rc = 1;
        }
        if (a->check && check_result(g, res) != 0) {
            status = "CHECK FAILED";
            rc = 1;
        }
        fprintf(cli_report(), "%-10s %16lld %12.2f %12.2f %12.2f  %s\n", name,
                (long long)gcut_result_flow(res), tm.build_ms, tm.solve_ms, tm.total_ms, status);
    }
    if (ref_flow >= 0)
        fprintf(cli_report(), "flow: %lld\n", (long long)ref_flow);
    free(ref_cut);
    gcut_result_free(res);
    return rc;
}

int main(int argc, char **argv)
{
    cli_init("gcut-maxflow", usage);
    args a = {"auto", NULL, NULL, NULL, NULL, 0, 0, 1, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_info_option(s)) {
            return 0;
        } else if (!strcmp(s, "-l") || !strcmp(s, "--list-backends")) {
            return list_backends();
        } else if (!strcmp(s, "-b") || !strcmp(s, "--backend")) {
            if (!next)
                return cli_usage_error("missing value for", s);
            a.backend = argv[++i];
        } else if (!strcmp(s, "-t") || !strcmp(s, "--threads")) {
            if (!next || !cli_parse_int(next, 0, 4096, &a.threads))
                return cli_usage_error("--threads needs a number 0..4096", next);
            i++;
        } else if (!strcmp(s, "-r") || !strcmp(s, "--repeat")) {
            int32_t v;
            if (!next || !cli_parse_int(next, 1, 1000000, &v))
                return cli_usage_error("--repeat needs a positive number", next);
            a.repeat = (int)v;
            i++;
        } else if (!strcmp(s, "--params")) {
            if (!next)
                return cli_usage_error("missing value for", s);
            a.params = argv[++i];
        } else if (!strcmp(s, "--cut")) {
            if (!next)
                return cli_usage_error("missing value for", s);
            a.cut_path = argv[++i];
        } else if (!strcmp(s, "--flow")) {
            if (!next)
                return cli_usage_error("missing value for", s);
            a.flow_path = argv[++i];
        } else if (!strcmp(s, "--time-limit")) {
            if (!next || !cli_parse_positive(next, &a.time_limit))
                return cli_usage_error("--time-limit needs a positive number of seconds", next);
            i++;
        } else if (!strcmp(s, "--check")) {
            a.check = 1;
        } else if (!strcmp(s, "-v") || !strcmp(s, "--verbose")) {
            a.verbose = 1;
        } else if (s[0] == '-' && s[1] != '\0') {
            return cli_usage_error("unknown option", s);
        } else if (a.input) {
            return cli_usage_error("more than one input file", s);
        } else {
            a.input = s;
        }
    }
    if (!a.input)
        return cli_usage_error("no input file (use - for stdin)", NULL);
    {
        const char *outs[] = {a.cut_path, a.flow_path}, *ins[] = {a.input};
        int bad = cli_check_outputs(outs, 2, ins, 1);
        if (bad)
            return bad;
    }

    gcut_graph *g = NULL;
    gcut_dimacs_info info;
    /* Parse time is measured around the reader alone. */
    const double t_parse = cli_now_ms();
    if (gcut_graph_read_dimacs(a.input, &g, &info) != GCUT_OK)
        return cli_fail();
    const double t0 = cli_now_ms() - t_parse;
    fprintf(cli_report(), "nodes: %d\nedges: %lld\nparse: %.2f ms\n", (int)gcut_graph_num_nodes(g),
            (long long)gcut_graph_num_edges(g), t0);

    int rc;
    if (!strcmp(a.backend, "all")) {
        rc = solve_all(g, &a);
    } else {
        gcut_result *res;
        if (gcut_result_new(&res) != GCUT_OK) {
            gcut_graph_free(g);
            return cli_fail();
        }
        timing tm = {0, 0, 0};
        rc = solve_one(g, &a, a.backend, res, &tm, 0);
        if (rc == 0) {
            const gcut_stats *st = gcut_result_stats(res);
            fprintf(cli_report(), "flow: %lld\n", (long long)gcut_result_flow(res));
            fprintf(cli_report(), "backend: %s (%s)\n", gcut_result_backend(res),
                    gcut_result_reason(res));
            fprintf(cli_report(), "build: %.2f ms\nsolve: %.2f ms\ntotal: %.2f ms\n", tm.build_ms,
                    tm.solve_ms, tm.total_ms);
            if (a.verbose)
                fprintf(cli_report(),
                        "pushes: %lld\nrelabels: %lld\nglobal relabels: %lld\nrounds: %lld\n",
                        (long long)st->pushes, (long long)st->relabels,
                        (long long)st->global_relabels, (long long)st->rounds);
            if (a.check) {
                rc = check_result(g, res);
                if (rc == 0)
                    fprintf(cli_report(), "check: ok%s\n",
                            gcut_result_edge_flows(res) ? "" : " (cut only)");
            }
            if (rc == 0 && a.cut_path)
                rc = write_cut(a.cut_path, gcut_result_cut(res), gcut_graph_num_nodes(g));
            if (rc == 0 && a.flow_path) {
                if (!gcut_result_edge_flows(res)) {
                    fprintf(stderr, "gcut-maxflow: back end %s returns no flows\n",
                            gcut_result_backend(res));
                    rc = 1;
                } else {
                    rc = write_flow(a.flow_path, g, &info, gcut_result_flow(res),
                                    gcut_result_edge_flows(res));
                }
            }
        }
        gcut_result_free(res);
    }
    gcut_graph_free(g);
    return rc;
}
