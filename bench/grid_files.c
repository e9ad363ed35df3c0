/*
 * gcut-grid-files - the C side of bench/python_overhead.py: build and solve
 * a 4-connected grid from raw int32 files through the C API, the same
 * calls the Python package makes, and print the median time.
 *
 *     gcut-grid-files W H FG BG CAPS REPEAT
 *
 * FG, BG: W*H int32 each (the costs of labelling a pixel foreground /
 * background: the sink and source links); CAPS: 4*W*H int32, the arc
 * capacities of directions 0..3 (gcut/grid.h), one array after the other.
 * Each repetition times gcut_grid_new, gcut_grid_set_terminals,
 * gcut_grid_set_caps x 4 and a cold gcut_grid_solve ("auto"), then frees.
 * Output: `flow: F`, `median_ms: T` (wall), `cpu_ms: C` (CPU time of the
 * process: the honest figure on a shared machine), `solve_ms: S` (the
 * library's own total_ms of the solve), `fg: N` (pixels on the source side).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gcut/gcut.h"
#include "cli.h"

static double now_ms(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int32_t *load(const char *path, size_t count)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "gcut-grid-files: cannot open %s\n", path);
        return NULL;
    }
    int32_t *a = malloc(count * sizeof *a);
    if (a == NULL || fread(a, sizeof *a, count, f) != count) {
        fprintf(stderr, "gcut-grid-files: %s: expected %zu int32\n", path, count);
        free(a);
        a = NULL;
    }
    fclose(f);
    return a;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const char usage[] =
    "usage: gcut-grid-files W H FG BG CAPS REPEAT\n"
    "Build and solve (\"auto\") a 4-connected W x H grid from raw files of native\n"
    "int32, REPEAT times (1..1000), through the calls the Python package makes;\n"
    "prints flow, median_ms (wall), cpu_ms, solve_ms (the library's own) and fg\n"
    "(pixels on the source side).\n"
    "  FG, BG               W*H values each: the costs of labelling a pixel\n"
    "                       foreground (its sink link) and background (its source link)\n"
    "  CAPS                 4*W*H values: the arc capacities of directions 0..3\n"
    "                       (gcut/grid.h), one array after the other\n"
    "\n"
    "options:\n"
    "  -h, --help           show this help\n"
    "      --version        show the version and the back ends\n";

int main(int argc, char **argv)
{
    cli_init("gcut-grid-files", usage);
    for (int i = 1; i < argc; i++) {
        if (cli_info_option(argv[i]))
            return 0;
        if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("unknown option", argv[i]);
    }
    if (argc != 7)
        return cli_usage_error("expected 6 arguments: W H FG BG CAPS REPEAT", NULL);
    int32_t w, h, repeat;
    if (!cli_parse_int(argv[1], 1, INT32_MAX, &w) || !cli_parse_int(argv[2], 1, INT32_MAX, &h))
        return cli_usage_error("W and H must be whole numbers >= 1", NULL);
    if (!cli_parse_int(argv[6], 1, 1000, &repeat))
        return cli_usage_error("REPEAT must be a whole number 1..1000", argv[6]);
    const size_t n = (size_t)w * (size_t)h;
    int32_t *fg = load(argv[3], n), *bg = load(argv[4], n), *caps = load(argv[5], 4 * n);
    int rc = 1;
    double *times = calloc(2 * (size_t)repeat, sizeof *times), *cpu = times + repeat;
    gcut_result *res = NULL;
    if (fg == NULL || bg == NULL || caps == NULL || times == NULL ||
        gcut_result_new(&res) != GCUT_OK)
        goto done;
    double solve_ms = 0;
    for (int r = 0; r < repeat; r++) {
        const double t0 = now_ms(CLOCK_MONOTONIC), c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
        gcut_grid *g = NULL;
        gcut_status st = gcut_grid_new(&g, w, h, 1, 4);
        if (st == GCUT_OK)
            st = gcut_grid_set_terminals(g, bg, fg);
        for (int32_t d = 0; d < 4 && st == GCUT_OK; d++)
            st = gcut_grid_set_caps(g, d, caps + (size_t)d * n);
        if (st == GCUT_OK)
            st = gcut_grid_solve(g, NULL, res);
        times[r] = now_ms(CLOCK_MONOTONIC) - t0;
        cpu[r] = now_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
        gcut_grid_free(g);
        if (st != GCUT_OK) {
            fprintf(stderr, "gcut-grid-files: %s\n", gcut_last_error());
            goto done;
        }
        solve_ms += gcut_result_stats(res)->total_ms / repeat;
    }
    qsort(times, (size_t)repeat, sizeof *times, cmp_double);
    qsort(cpu, (size_t)repeat, sizeof *cpu, cmp_double);
    const uint8_t *cut = gcut_result_cut(res);
    size_t on_source = 0;
    for (size_t v = 0; v < n; v++)
        on_source += cut[v] == GCUT_SOURCE;
    printf("flow: %lld\nmedian_ms: %.3f\ncpu_ms: %.3f\nsolve_ms: %.3f\nfg: %zu\n",
           (long long)gcut_result_flow(res), times[repeat / 2], cpu[repeat / 2], solve_ms,
           on_source);
    rc = 0;
done:
    gcut_result_free(res);
    free(times);
    free(fg);
    free(bg);
    free(caps);
    return rc;
}
