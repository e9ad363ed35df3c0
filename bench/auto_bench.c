/*
 * gcut-auto-bench - what a back end costs a process that solves grids:
 * the first solve (for a GPU back end: loading the plugin, creating the
 * device context, allocating the grid's device state) and the following
 * solves of fresh grids of the same size (a new image each time: device
 * set up, grid state not). The measurements behind "auto"'s crossover
 * (docs/backends.md, bench/run-auto.sh). One spec and one back end per
 * process, so that the first solve is really the process's first.
 *
 *     gcut-auto-bench grid2d:w=1024,h=1024,kind=vision --backend cuda-grid
 *     gcut-auto-bench grid3d:w=64,h=64,d=64,conn=26 --backend auto --fresh 5
 *
 * Prints one CSV row (no header unless --header):
 * spec,nodes,conn,backend,used,first_ms,fresh_ms,fresh_min_ms,flow,reason
 * where fresh_ms is the median of --fresh solves of fresh copies (wall
 * time of gcut_grid_solve; copying the grid is not timed).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcut/gcut.h"
#include "cli.h"
#include "gen/gen.h"

static const char usage[] =
    "usage: gcut-auto-bench SPEC [--backend NAME] [--fresh N] [--header]\n"
    "  SPEC         a grid2d or grid3d generator spec (gcut-gen --help)\n"
    "  --backend    back end to time (default auto)\n"
    "  --fresh N    solves of fresh copies after the first (default 3)\n"
    "  --header     print the CSV header first\n";

int main(int argc, char **argv)
{
    const char *backend = "auto";
    int fresh = 3, header = 0;
    static const struct option longopts[] = {{"backend", required_argument, NULL, 'b'},
                                             {"fresh", required_argument, NULL, 'f'},
                                             {"header", no_argument, NULL, 'H'},
                                             {"help", no_argument, NULL, 'h'},
                                             {"version", no_argument, NULL, 'V'},
                                             {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "b:f:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': backend = optarg; break;
        case 'f': fresh = atoi(optarg); break;
        case 'H': header = 1; break;
        case 'h': fputs(usage, stdout); return 0;
        case 'V': printf("gcut-auto-bench %s\n", gcut_version()); return 0;
        default: fputs(usage, stderr); return 2;
        }
    }
    if (optind != argc - 1 || fresh < 0 || fresh > 1000) {
        fputs(usage, stderr);
        return 2;
    }
    const char *spec = argv[optind];
    char err[GEN_ERR_LEN];
    gcut_grid *base;
    if (gen_grid_of_spec(spec, &base, err) != GCUT_OK) {
        fprintf(stderr, "gcut-auto-bench: %s\n", err);
        return 1;
    }
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = backend;
    gcut_result *res;
    if (gcut_result_new(&res) != GCUT_OK)
        return 1;
    double first = 0, *t = calloc((size_t)fresh + 1, sizeof *t);
    int64_t flow = -1;
    char used[64] = "", reason[400] = "";
    for (int r = 0; r <= fresh; r++) {
        gcut_grid *g;
        if (gen_grid_copy(base, &g, err) != GCUT_OK) {
            fprintf(stderr, "gcut-auto-bench: %s\n", err);
            return 1;
        }
        const double t0 = cli_now_ms();
        if (gcut_grid_solve(g, &opt, res) != GCUT_OK) {
            fprintf(stderr, "gcut-auto-bench: %s: %s\n", spec, gcut_last_error());
            return 1;
        }
        const double dt = cli_now_ms() - t0;
        if (r == 0) {
            first = dt;
            flow = gcut_result_flow(res);
            snprintf(used, sizeof used, "%s", gcut_result_backend(res));
            snprintf(reason, sizeof reason, "%s", gcut_result_reason(res));
            for (char *p = reason; *p; p++)
                if (*p == ',' || *p == '"')
                    *p = ';';
        } else {
            t[r - 1] = dt;
            if (gcut_result_flow(res) != flow) {
                fprintf(stderr, "gcut-auto-bench: %s: flow changed between solves\n", spec);
                return 1;
            }
        }
        gcut_grid_free(g);
    }
    cli_sort_doubles(t, (size_t)fresh);
    if (header)
        printf("spec,nodes,conn,backend,used,first_ms,fresh_ms,fresh_min_ms,flow,reason\n");
    printf("\"%s\",%d,%d,%s,%s,%.2f,%.2f,%.2f,%lld,\"%s\"\n", spec,
           (int)gcut_grid_num_nodes(base), (int)gcut_grid_connectivity(base), backend, used,
           first, fresh ? t[fresh / 2] : 0.0, fresh ? t[0] : 0.0, (long long)flow, reason);
    free(t);
    gcut_result_free(res);
    gcut_grid_free(base);
    return 0;
}
