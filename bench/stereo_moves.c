/*
 * gcut-stereo-moves - the expansion-move graphs of a stereo energy as
 * DIMACS max-flow files (issue 23, "real vision instances in the bench
 * set"): the energy of gcut-stereo (its defaults: census costs, lambda 10;
 * gcut_stereo_mrf), started as gcut_stereo_match starts (the
 * winner-take-all of the data costs), after --cycles K cycles of
 * alpha-expansion, then the graph of the move toward each label of
 * --labels (gcut_mrf_expansion_grid), exactly as the solver builds it.
 *
 *     gcut-stereo-moves imL.png imR.png --ndisp 60 -o OUTDIR [--cycles K]
 *         [--labels all|a,b,...] [--name NAME]
 *
 * Writes OUTDIR/NAME-cK-aL.max and prints one line per file: nodes, arcs,
 * the flow (cpu-bk) and the move's energy (constant + flow). Large files
 * go to OUTDIR, not the repository (bench/make-real-instances.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcut/gcut.h"
#include "gcut/vision/image.h"
#include "gcut/vision/mrf.h"
#include "gcut/vision/stereo.h"

static int usage(int rc)
{
    fprintf(rc ? stderr : stdout,
            "usage: gcut-stereo-moves LEFT RIGHT --ndisp N -o OUTDIR [--cycles K]\n"
            "       [--labels all|a,b,...] [--name NAME]\n"
            "Write the expansion-move graphs of gcut-stereo's energy (defaults: census,\n"
            "lambda 10) after K cycles (default 0: the winner-take-all start) as DIMACS\n"
            "files OUTDIR/NAME-cK-aL.max, one per label of --labels (default: 4 labels\n"
            "spread over the range).\n");
    return rc;
}

int main(int argc, char **argv)
{
    const char *left = NULL, *right = NULL, *outdir = NULL, *labels = NULL, *name = "stereo";
    int ndisp = 0, cycles = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return usage(0);
        if (!strcmp(argv[i], "--version")) {
            printf("gcut-stereo-moves %s\n", gcut_version());
            return 0;
        }
        if (!strcmp(argv[i], "--ndisp") && i + 1 < argc)
            ndisp = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            outdir = argv[++i];
        else if (!strcmp(argv[i], "--cycles") && i + 1 < argc)
            cycles = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--labels") && i + 1 < argc)
            labels = argv[++i];
        else if (!strcmp(argv[i], "--name") && i + 1 < argc)
            name = argv[++i];
        else if (argv[i][0] != '-' && !left)
            left = argv[i];
        else if (argv[i][0] != '-' && !right)
            right = argv[i];
        else
            return usage(2);
    }
    if (!left || !right || !outdir || ndisp < 2 || ndisp > 1024 || cycles < 0 || cycles > 20)
        return usage(2);
    gcut_image *L = NULL, *R = NULL;
    if (gcut_image_load(left, &L) != GCUT_OK || gcut_image_load(right, &R) != GCUT_OK) {
        fprintf(stderr, "gcut-stereo-moves: %s\n", gcut_last_error());
        return 1;
    }
    gcut_stereo_options p;
    gcut_stereo_options_init(&p);
    p.ndisp = ndisp;
    gcut_mrf *m = NULL;
    const int32_t w = L->width, h = L->height, n = w * h;
    int32_t *cost = malloc((size_t)n * (size_t)ndisp * 4), *f = malloc((size_t)n * 4);
    if (!cost || !f || gcut_stereo_mrf(L, R, &p, &m) != GCUT_OK ||
        gcut_stereo_data_cost(L, R, &p, cost) != GCUT_OK) {
        fprintf(stderr, "gcut-stereo-moves: %s\n", cost && f ? gcut_last_error() : "out of memory");
        return 1;
    }
    for (int32_t v = 0; v < n; v++) { /* the winner-take-all start */
        int32_t best = 0;
        for (int32_t d = 1; d < ndisp; d++)
            if (cost[(size_t)v * ndisp + d] < cost[(size_t)v * ndisp + best])
                best = d;
        f[v] = best;
    }
    if (cycles > 0) {
        gcut_mrf_options o;
        gcut_mrf_options_init(&o);
        o.max_cycles = cycles;
        gcut_mrf_stats st;
        if (gcut_mrf_expand(m, &o, f, &st) != GCUT_OK) {
            fprintf(stderr, "gcut-stereo-moves: %s\n", gcut_last_error());
            return 1;
        }
    }
    int32_t want[1024], nw = 0;
    if (!labels)
        for (int k = 0; k < 4; k++)
            want[nw++] = (int32_t)((int64_t)(ndisp - 1) * (2 * k + 1) / 8);
    else if (!strcmp(labels, "all"))
        for (int32_t a = 0; a < ndisp; a++)
            want[nw++] = a;
    else
        for (const char *q = labels; *q && nw < 1024;) {
            char *end;
            const long a = strtol(q, &end, 10);
            if (end == q || a < 0 || a >= ndisp)
                return usage(2);
            want[nw++] = (int32_t)a;
            q = *end == ',' ? end + 1 : end;
        }
    int rc = 0;
    for (int i = 0; i < nw && !rc; i++) {
        gcut_grid *g = NULL;
        gcut_graph *graph = NULL;
        gcut_result *res = NULL;
        int64_t constant;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s-c%d-a%d.max", outdir, name, cycles, (int)want[i]);
        gcut_solve_options o;
        gcut_solve_options_init(&o);
        o.backend = "cpu-bk";
        if (gcut_mrf_expansion_grid(m, f, want[i], &g, &constant) != GCUT_OK ||
            gcut_grid_to_graph(g, &graph) != GCUT_OK ||
            gcut_graph_write_dimacs(graph, path) != GCUT_OK || gcut_result_new(&res) != GCUT_OK ||
            gcut_grid_solve(g, &o, res) != GCUT_OK) {
            fprintf(stderr, "gcut-stereo-moves: %s\n", gcut_last_error());
            rc = 1;
        } else {
            printf("%s: %d x %d, %d nodes, %lld arcs, flow %lld, move energy %lld\n", path, (int)w,
                   (int)h, (int)gcut_graph_num_nodes(graph), (long long)gcut_graph_num_edges(graph),
                   (long long)gcut_result_flow(res),
                   (long long)(constant + gcut_result_flow(res)));
        }
        gcut_result_free(res);
        gcut_graph_free(graph);
        gcut_grid_free(g);
    }
    free(f);
    free(cost);
    gcut_mrf_free(m);
    gcut_image_free(L);
    gcut_image_free(R);
    return rc;
}
