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
    "      --cut FILE       write the canonical cut: one line `ID SIDE` per node (0 source, 1 "
    "sink)\n"
    "      --flow FILE      write the flow in DIMACS solution form (`s VALUE`, `f U V FLOW`)\n"
    "                       (FILE -: stdout, the report then on stderr)\n"
    "      --check          verify the flow and the cut (gcut_check_flow) and print `check: ok`\n"
    "  -r, --repeat N       solve N times, report the median solve time, insist on equal results\n"
    "  -l, --list-backends  list the back ends, whether each is available and why\n"
    "\n"
    "output (one item per line): `nodes: N`, `edges: M`, `parse: MS ms`, `flow: VALUE`,\n"
    "`backend: NAME (REASON)`, `build: MS ms`, `solve: MS ms`, `total: MS ms` (medians with\n"
    "--repeat). --json: {\"nodes\", \"edges\", \"parse_ms\", \"flow\", \"backend\", \"reason\",\n"
    "\"build_ms\", \"solve_ms\", \"total_ms\", \"check\", \"status\"}; with --backend all a\n"
    "\"backends\" array of {\"name\", \"flow\", \"build_ms\", \"solve_ms\", \"total_ms\",\n"
    "\"status\"}. Exit status 0 on success, 1 on bad input or a failed check, 2 on bad usage.\n";

typedef struct args {
    cli_common c; /* back end, threads, params, limits, verbosity, progress, JSON */
    const char *cut_path, *flow_path, *input;
    int check, repeat, list;
} args;

static int list_backends(void)
{
    fprintf(cli_report(), "%-10s %-10s %s\n", "backend", "available", "description / reason");
    cli_json_begin_array("backends");
    for (int32_t i = 0; i < gcut_backend_count(); i++) {
        const char *why;
        int ok = gcut_backend_available(i, &why);
        fprintf(cli_report(), "%-10s %-10s %s%s%s\n", gcut_backend_name(i), ok ? "yes" : "no",
                gcut_backend_description(i), ok ? "" : " -- ", ok ? "" : why);
        cli_json_begin_object(NULL);
        cli_json_str("name", gcut_backend_name(i));
        cli_json_int("available", ok);
        cli_json_str("description", gcut_backend_description(i));
        cli_json_str("reason", ok ? NULL : why);
        cli_json_end();
    }
    cli_json_end();
    return cli_finish(0);
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
    cli_apply_solve(&a->c, &opt);
    opt.backend = backend;
    int32_t idx;
    const int flows_possible = gcut_backend_choose(g, backend, &idx, NULL) == GCUT_OK &&
                               (gcut_backend_caps(idx) & GCUT_BACKEND_FLOWS);
    opt.want_flows = (a->flow_path || a->check) && flows_possible;
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
    cli_progress_clear(); /* the table goes to stdout, maybe the same terminal */
    fprintf(cli_report(), "%-10s %16s %12s %12s %12s  %s\n", "backend", "flow", "build_ms",
            "solve_ms", "total_ms", "status");
    gcut_result *res;
    if (gcut_result_new(&res) != GCUT_OK)
        return cli_fail();
    cli_json_begin_array("backends");
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
            cli_json_begin_object(NULL);
            cli_json_str("name", name);
            cli_json_str("status", "unavailable");
            cli_json_str("reason", why);
            cli_json_end();
            continue;
        }
        timing tm = {0, 0, 0};
        if (solve_one(g, a, name, res, &tm, 1) != 0) {
            fprintf(cli_report(), "%-10s %16s %12s %12s %12s  failed: %s\n", name, "-", "-", "-",
                    "-", gcut_last_error());
            cli_json_begin_object(NULL);
            cli_json_str("name", name);
            cli_json_str("status", "failed");
            cli_json_str("reason", gcut_last_error());
            cli_json_end();
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
        cli_json_begin_object(NULL);
        cli_json_str("name", name);
        cli_json_int("flow", (long long)gcut_result_flow(res));
        cli_json_num("build_ms", tm.build_ms);
        cli_json_num("solve_ms", tm.solve_ms);
        cli_json_num("total_ms", tm.total_ms);
        cli_json_str("status", status);
        cli_json_end();
    }
    cli_json_end();
    if (ref_flow >= 0)
        cli_put_int("flow", (long long)ref_flow);
    free(ref_cut);
    gcut_result_free(res);
    return rc;
}

enum { OPT_CUT = CLI_KEY, OPT_FLOW, OPT_CHECK };

static int take_option(int key, const char *v, void *user)
{
    args *a = user;
    int32_t n;
    switch (key) {
    case 'l':
        a->list = 1;
        return 0;
    case 'r':
        if (!cli_parse_int(v, 1, 1000000, &n))
            return cli_usage_error("--repeat needs a positive number", v);
        a->repeat = (int)n;
        return 0;
    case OPT_CUT:
        a->cut_path = v;
        return 0;
    case OPT_FLOW:
        a->flow_path = v;
        return 0;
    default: /* OPT_CHECK */
        a->check = 1;
        return 0;
    }
}

int main(int argc, char **argv)
{
    cli_init("gcut-maxflow", usage);
    args a = {.repeat = 1};
    static const struct option longopts[] = {
        {"list-backends", no_argument, NULL, 'l'}, {"repeat", required_argument, NULL, 'r'},
        {"cut", required_argument, NULL, OPT_CUT}, {"flow", required_argument, NULL, OPT_FLOW},
        {"check", no_argument, NULL, OPT_CHECK},   {NULL, 0, NULL, 0}};
    const cli_opts group = {"lr:", longopts, take_option, &a};
    int first, rc = cli_parse(argc, argv, &group, 1, CLI_OPT_SOLVER, &a.c, &first);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (a.list)
        return list_backends();
    if (!a.c.backend)
        a.c.backend = "auto";
    if (first < argc)
        a.input = argv[first++];
    if (first < argc)
        return cli_usage_error("more than one input file", argv[first]);
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
    cli_progress_draw(-1, "read", a.input);
    if (gcut_graph_read_dimacs(a.input, &g, &info) != GCUT_OK)
        return cli_finish(cli_fail());
    const double t0 = cli_now_ms() - t_parse;
    cli_progress_draw(-1, "solve", NULL);
    cli_put_int("nodes", (long long)gcut_graph_num_nodes(g));
    cli_put_int("edges", (long long)gcut_graph_num_edges(g));
    cli_put_ms("parse", t0, 2);

    if (!strcmp(a.c.backend, "all")) {
        rc = solve_all(g, &a);
    } else {
        gcut_result *res;
        if (gcut_result_new(&res) != GCUT_OK) {
            gcut_graph_free(g);
            return cli_finish(cli_fail());
        }
        timing tm = {0, 0, 0};
        rc = solve_one(g, &a, a.c.backend, res, &tm, 0);
        cli_progress_clear();
        if (rc == 0) {
            const gcut_stats *st = gcut_result_stats(res);
            cli_put_int("flow", (long long)gcut_result_flow(res));
            if (cli_json()) {
                cli_json_str("backend", gcut_result_backend(res));
                cli_json_str("reason", gcut_result_reason(res));
            } else {
                fprintf(cli_report(), "backend: %s (%s)\n", gcut_result_backend(res),
                        gcut_result_reason(res));
            }
            cli_put_ms("build", tm.build_ms, 2);
            cli_put_ms("solve", tm.solve_ms, 2);
            cli_put_ms("total", tm.total_ms, 2);
            if (a.c.verbose) {
                cli_put_int("pushes", (long long)st->pushes);
                cli_put_int("relabels", (long long)st->relabels);
                cli_put_int("global relabels", (long long)st->global_relabels);
                cli_put_int("rounds", (long long)st->rounds);
            }
            if (a.check) {
                rc = check_result(g, res);
                if (rc == 0)
                    cli_put_str("check", gcut_result_edge_flows(res) ? "ok" : "ok (cut only)");
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
    return cli_finish(rc);
}
