/*
 * gcut-bench - run any set of back ends on any set of max-flow instances.
 *
 *     gcut-bench --backends cpu-bk,cpu-hipr --repeat 5 --csv out.csv \
 *         genrmf:a=32,b=32 rlg:r=256,c=512 grid2d:w=512,h=512 data/x.max
 *     gcut-bench --parse big.max           # DIMACS parse speed in MB/s
 *
 * An instance is a generator spec (family:key=value,..., see gcut-gen
 * --help) or a DIMACS file. Each back end solves each instance --repeat
 * times, each solve cold (no engine state kept between them). The first
 * solve of a back end builds the layouts it needs (the BCSR, cpu-bk's
 * records, cpu-eibfs's state, ...; those an earlier back end built are
 * cached) and later
 * solves find them cached: build_ms is that first solve's layout build, and
 * solve_ms = total_ms - build_ms, everything the back end itself does
 * (set-up, max-flow, canonical cut), is the median over the solves. With
 * --fresh-layout or --core-layout every solve lays the graph out again and
 * build_ms is the median of the solves' builds. All successful back ends must return the same
 * flow value and the same cut bytes ("agree"), and gcut_check_flow confirms
 * that the cut's capacity equals the flow ("check"), which proves both
 * optimal.
 *
 * The human table goes to stdout, progress to stderr, and --csv writes one
 * row per (instance, back end) with every median and counter.
 * Exit status: 0 all fine (unavailable back ends and timeouts included),
 * 1 an instance or a solve failed, 2 back ends disagree or a check failed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "gcut/plugin.h"
#include "gen/gen.h"

#define MAX_BACKENDS 32
#define MAX_REPEAT 1000

typedef struct bench_cfg {
    const char *backends;
    int32_t repeat;
    int32_t threads;
    double time_limit;
    double budget;           /* seconds per (instance, back end); 0 = none */
    const char *params;
    const char *csv_path;
    uint64_t seed;
    int check;
    int verbose;
    int quiet;
    int fresh_layout;        /* --fresh-layout: every solve lays the graph out again */
    int core_layout;         /* --core-layout: ... with the core's host RCSR build */
} bench_cfg;

/* The core's layout cache (lib/graph/graph_internal.h; gcut-bench links the
 * static library, as the tests do): drop every layout of g, or build its
 * RCSR with `threads` threads. */
void gcut_i_graph_invalidate(gcut_graph *g);
gcut_status gcut_i_graph_rcsr(gcut_graph *g, int32_t threads, const gcut_rcsr **out);

/* One (instance, back end) measurement. */
typedef struct row {
    const char *backend;
    const char *status; /* ok, unavailable, timeout, error */
    double build_ms, solve_ms, total_ms, init_ms, phase1_ms, cut_ms, min_ms, max_ms;
    int64_t flow;
    const char *check; /* ok, FAIL, - */
    int32_t repeats;   /* solves actually measured */
    gcut_stats last;
} row;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* CPU time of every thread of the process: on a shared machine the work
 * done, where the wall time also counts the waits for a core. */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n-1] (sorts v). */
static double median(double *v, int32_t n)
{
    if (n <= 0)
        return 0.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void log_to_stderr(void *user, gcut_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    fprintf(stderr, "  gcut: %s\n", msg);
}

static int is_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* ------------------------------------------------------------ back ends */

/* Resolve --backends into registry indices. "all" is every available back
 * end; a named one that is missing is an error, a named one that cannot run
 * here is kept (reported as unavailable) so that scripts can list back ends
 * that have not landed or have no device. */
static int resolve_backends(const char *list, int32_t *idx, int32_t *count)
{
    *count = 0;
    if (strcmp(list, "all") == 0) {
        for (int32_t i = 0; i < gcut_backend_count() && *count < MAX_BACKENDS; i++)
            if (gcut_backend_available(i, NULL))
                idx[(*count)++] = i;
        return 0;
    }
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int32_t i;
        if (gcut_backend_find(tok, &i) != GCUT_OK) {
            fprintf(stderr, "gcut-bench: no back end '%s' (see --list)\n", tok);
            return -1;
        }
        if (*count < MAX_BACKENDS)
            idx[(*count)++] = i;
    }
    return 0;
}

static void list_backends(void)
{
    for (int32_t i = 0; i < gcut_backend_count(); i++) {
        const char *why = "";
        const int ok = gcut_backend_available(i, &why);
        printf("%-12s %-3s %s%s%s\n", gcut_backend_name(i), ok ? "yes" : "no",
               gcut_backend_description(i) ? gcut_backend_description(i) : "", ok ? "" : ": ",
               ok ? "" : why);
    }
}

/* ------------------------------------------------------------- solving */

/* Solve g with back end `bi` cfg->repeat times; fill r. On success the cut
 * of the last solve is copied into *cut_out (caller frees). */
static void run_backend(gcut_graph *g, int32_t bi, const bench_cfg *cfg, gcut_result *res,
                        row *r, uint8_t **cut_out, const char *inst)
{
    memset(r, 0, sizeof *r);
    r->backend = gcut_backend_name(bi);
    r->check = "-";
    const char *why = "";
    if (!gcut_backend_available(bi, &why)) {
        r->status = "unavailable";
        if (!cfg->quiet)
            fprintf(stderr, "  %-10s unavailable: %s\n", r->backend, why);
        return;
    }
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = r->backend;
    opt.threads = cfg->threads;
    opt.time_limit = cfg->time_limit;
    opt.params = cfg->params;
    if (cfg->verbose) {
        opt.verbosity = cfg->verbose;
        opt.log = log_to_stderr;
    }
    double build[MAX_REPEAT], eng[MAX_REPEAT], total[MAX_REPEAT], init[MAX_REPEAT],
        ph1[MAX_REPEAT], cutt[MAX_REPEAT];
    int32_t done = 0;
    double spent = 0.0;
    r->status = "ok";
    for (int32_t rep = 0; rep < cfg->repeat; rep++) {
        /* Every solve is cold: cpu-eibfs would otherwise re-solve warm
         * from its last flow (its records stay with the layouts, which the
         * first solve builds and later ones find cached). */
        gcut_graph_set_warm_start(g, 0);
        double pre_ms = 0.0; /* --core-layout: the RCSR built here */
        gcut_status st = GCUT_OK;
        if (cfg->fresh_layout || cfg->core_layout)
            gcut_i_graph_invalidate(g);
        if (cfg->core_layout) {
            const gcut_rcsr *lay;
            const double t0 = now_ms();
            st = gcut_i_graph_rcsr(g, cfg->threads, &lay);
            pre_ms = now_ms() - t0;
        }
        if (st == GCUT_OK)
            st = gcut_solve(g, &opt, res);
        if (st != GCUT_OK) {
            r->status = st == GCUT_ERR_TIMEOUT       ? "timeout"
                        : st == GCUT_ERR_UNAVAILABLE ? "unavailable"
                        : st == GCUT_ERR_UNSUPPORTED ? "unsupported"
                                                     : "error";
            fprintf(stderr, "  %-10s %s: %s\n", r->backend, r->status,
                    *gcut_last_error() ? gcut_last_error() : gcut_status_string(st));
            return;
        }
        const gcut_stats *s = gcut_result_stats(res);
        build[done] = s->build_ms + pre_ms;
        eng[done] = s->total_ms - s->build_ms;
        total[done] = s->total_ms + pre_ms;
        init[done] = s->init_ms;
        ph1[done] = s->solve_ms;
        cutt[done] = s->cut_ms;
        r->last = *s;
        done++;
        if (rep > 0 && gcut_result_flow(res) != r->flow) {
            fprintf(stderr, "  %-10s flow changed between repeats on %s: %" PRId64 " vs %" PRId64
                            "\n", r->backend, inst, r->flow, gcut_result_flow(res));
            r->status = "error";
            return;
        }
        r->flow = gcut_result_flow(res);
        if (!cfg->quiet)
            fprintf(stderr, "  %-10s rep %d/%d: flow %" PRId64 ", build %.1f ms, solve %.1f ms\n",
                    r->backend, (int)rep + 1, (int)cfg->repeat, r->flow, s->build_ms,
                    s->total_ms - s->build_ms);
        spent += s->total_ms;
        if (cfg->budget > 0 && spent > cfg->budget * 1e3 && rep + 1 < cfg->repeat) {
            if (!cfg->quiet)
                fprintf(stderr, "  %-10s budget of %.0f s spent after %d solves\n", r->backend,
                        cfg->budget, (int)done);
            break;
        }
    }
    r->repeats = done;
    r->min_ms = eng[0];
    r->max_ms = eng[0];
    for (int32_t i = 1; i < done; i++) {
        r->min_ms = eng[i] < r->min_ms ? eng[i] : r->min_ms;
        r->max_ms = eng[i] > r->max_ms ? eng[i] : r->max_ms;
    }
    /* The layout build: the first solve's (later ones find it cached), or
     * the median when every solve lays the graph out again. */
    r->build_ms = cfg->fresh_layout || cfg->core_layout ? median(build, done)
                  : done                                ? build[0]
                                                        : 0.0;
    r->solve_ms = median(eng, done);
    r->total_ms = median(total, done);
    r->init_ms = median(init, done);
    r->phase1_ms = median(ph1, done);
    r->cut_ms = median(cutt, done);
    const int32_t n = gcut_result_num_nodes(res);
    const uint8_t *cut = gcut_result_cut(res);
    if (cfg->check) {
        const gcut_status cst = gcut_check_flow(g, r->flow, NULL, cut);
        r->check = cst == GCUT_OK ? "ok" : "FAIL";
        if (cst != GCUT_OK)
            fprintf(stderr, "  %-10s cut check FAILED on %s: %s\n", r->backend, inst,
                    gcut_last_error());
    }
    *cut_out = malloc(n > 0 ? (size_t)n : 1);
    if (*cut_out && n > 0)
        memcpy(*cut_out, cut, (size_t)n);
}

/* ------------------------------------------------------------- output */

/* Width of the instance column: the longest name, set before the table. */
static int g_name_width = 24;

static void table_header(void)
{
    printf("%-*s %10s %11s %9s  %-10s %9s %10s %10s %14s %-5s %-5s\n", g_name_width,
           "instance", "nodes", "edges", "gen_ms", "backend", "build_ms", "solve_ms", "total_ms",
           "flow", "agree", "check");
    fflush(stdout);
}

static void fmt_ms(char *buf, size_t len, const row *r, double v)
{
    if (strcmp(r->status, "ok") == 0)
        snprintf(buf, len, "%.1f", v);
    else
        snprintf(buf, len, "-");
}

static void table_row(const char *inst, int32_t n, int64_t m, double gen_ms, const row *r,
                      const char *agree)
{
    char b[32], s[32], t[32], f[32];
    fmt_ms(b, sizeof b, r, r->build_ms);
    fmt_ms(s, sizeof s, r, r->solve_ms);
    fmt_ms(t, sizeof t, r, r->total_ms);
    if (strcmp(r->status, "ok") == 0)
        snprintf(f, sizeof f, "%" PRId64, r->flow);
    else
        snprintf(f, sizeof f, "%s", r->status);
    printf("%-*s %10" PRId32 " %11" PRId64 " %9.1f  %-10s %9s %10s %10s %14s %-5s %-5s\n",
           g_name_width, inst, n, m, gen_ms, r->backend, b, s, t, f,
           strcmp(r->status, "ok") == 0 ? agree : "-", r->check);
    fflush(stdout);
}

static void csv_header(FILE *f)
{
    fprintf(f, "instance,source,nodes,edges,gen_ms,backend,threads,repeat,status,build_ms,"
               "solve_ms,total_ms,init_ms,phase1_ms,cut_ms,min_solve_ms,max_solve_ms,flow,"
               "agree,check,pushes,relabels,global_relabels,gap_nodes,augmentations,rounds\n");
}

/* The instance column holds the spec with ';' for ',' (specs accept both),
 * so that the CSV needs no quoting and splits on commas everywhere. */
static void csv_row(FILE *f, const char *inst, const char *source, int32_t n, int64_t m,
                    double gen_ms, const bench_cfg *cfg, const row *r, const char *agree)
{
    const gcut_stats *s = &r->last;
    char name[GEN_SPEC_LEN];
    snprintf(name, sizeof name, "%s", inst);
    for (char *c = name; *c; c++)
        if (*c == ',')
            *c = ';';
    fprintf(f,
            "%s,%s,%" PRId32 ",%" PRId64 ",%.3f,%s,%d,%d,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,"
            "%.3f,%.3f,%" PRId64 ",%s,%s,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
            ",%" PRId64 ",%" PRId64 "\n",
            name, source, n, m, gen_ms, r->backend, (int)(s->threads ? s->threads : cfg->threads),
            (int)r->repeats, r->status, r->build_ms, r->solve_ms, r->total_ms, r->init_ms,
            r->phase1_ms, r->cut_ms, r->min_ms, r->max_ms, r->flow,
            strcmp(r->status, "ok") == 0 ? agree : "-", r->check, s->pushes, s->relabels,
            s->global_relabels, s->gap_nodes, s->augmentations, s->rounds);
    fflush(f);
}

/* ------------------------------------------------------------ instances */

/* Build or load one instance. name receives its table name. */
static gcut_status load_instance(const char *arg, const bench_cfg *cfg, gcut_graph **g,
                                 char *name, size_t name_len, const char **source,
                                 double *ms)
{
    const double t0 = now_ms();
    if (is_file(arg)) {
        *source = "file";
        snprintf(name, name_len, "%s", base_name(arg));
        const gcut_status st = gcut_graph_read_dimacs(arg, g, NULL);
        if (st != GCUT_OK)
            fprintf(stderr, "gcut-bench: %s: %s\n", arg,
                    *gcut_last_error() ? gcut_last_error() : gcut_status_string(st));
        *ms = now_ms() - t0;
        return st;
    }
    *source = "gen";
    gen_spec spec;
    char err[GEN_ERR_LEN];
    if (gen_spec_parse(arg, cfg->seed, &spec, err) != 0) {
        fprintf(stderr, "gcut-bench: %s is neither a file nor a valid spec: %s\n", arg, err);
        return GCUT_ERR_INVALID;
    }
    snprintf(name, name_len, "%s", spec.text);
    const gcut_status st = gen_build(&spec, g, err);
    if (st != GCUT_OK)
        fprintf(stderr, "gcut-bench: %s\n", err);
    *ms = now_ms() - t0;
    return st;
}

static int bench_instances(int argc, char **argv, const bench_cfg *cfg)
{
    int32_t bidx[MAX_BACKENDS], nb;
    if (resolve_backends(cfg->backends, bidx, &nb) != 0)
        return 1;
    if (nb == 0) {
        fprintf(stderr, "gcut-bench: no back end available\n");
        return 1;
    }
    FILE *csv = NULL;
    if (cfg->csv_path) {
        csv = fopen(cfg->csv_path, "w");
        if (!csv) {
            perror(cfg->csv_path);
            return 1;
        }
        csv_header(csv);
    }
    gcut_result *res = NULL;
    if (gcut_result_new(&res) != GCUT_OK) {
        if (csv)
            fclose(csv);
        return 1;
    }
    int rc = 0;
    /* Names first, so that the table's columns line up from its first row. */
    for (int i = 0; i < argc; i++) {
        gen_spec spec;
        char err[GEN_ERR_LEN];
        const char *nm = argv[i];
        if (!is_file(argv[i]) && gen_spec_parse(argv[i], cfg->seed, &spec, err) == 0)
            nm = spec.text;
        else if (is_file(argv[i]))
            nm = base_name(argv[i]);
        const int len = (int)strlen(nm);
        g_name_width = len > g_name_width ? len : g_name_width;
    }
    table_header();
    for (int i = 0; i < argc; i++) {
        char name[GEN_SPEC_LEN];
        const char *source = "gen";
        double gen_ms = 0;
        gcut_graph *g = NULL;
        if (!cfg->quiet)
            fprintf(stderr, "gcut-bench: [%d/%d] %s\n", i + 1, argc, argv[i]);
        if (load_instance(argv[i], cfg, &g, name, sizeof name, &source, &gen_ms) != GCUT_OK) {
            rc = rc ? rc : 1;
            continue;
        }
        const int32_t n = gcut_graph_num_nodes(g);
        const int64_t m = gcut_graph_num_edges(g);
        if (!cfg->quiet)
            fprintf(stderr, "  %s: %" PRId32 " nodes, %" PRId64 " edges, %s in %.1f ms\n", name,
                    n, m, strcmp(source, "file") == 0 ? "read" : "generated", gen_ms);
        row rows[MAX_BACKENDS];
        uint8_t *ref_cut = NULL;
        int64_t ref_flow = 0;
        const char *ref_name = "";
        int nok = 0, agree = 1;
        for (int32_t b = 0; b < nb; b++) {
            uint8_t *cut = NULL;
            run_backend(g, bidx[b], cfg, res, &rows[b], &cut, name);
            if (strcmp(rows[b].status, "error") == 0)
                rc = rc ? rc : 1;
            if (strcmp(rows[b].check, "FAIL") == 0)
                rc = 2;
            if (!cut)
                continue;
            if (nok++ == 0) {
                ref_cut = cut;
                ref_flow = rows[b].flow;
                ref_name = rows[b].backend;
                continue;
            }
            if (rows[b].flow != ref_flow || (n > 0 && memcmp(cut, ref_cut, (size_t)n) != 0)) {
                int32_t diff = 0;
                for (int32_t v = 0; v < n; v++)
                    diff += cut[v] != ref_cut[v];
                fprintf(stderr,
                        "gcut-bench: DISAGREEMENT on %s: %s flow %" PRId64 " (%" PRId32
                        " cut bytes differ) vs %s flow %" PRId64 "\n",
                        name, rows[b].backend, rows[b].flow, diff, ref_name, ref_flow);
                agree = 0;
                rc = 2;
            }
            free(cut);
        }
        free(ref_cut);
        const char *ag = nok < 2 ? "-" : agree ? "yes" : "NO";
        for (int32_t b = 0; b < nb; b++) {
            table_row(name, n, m, gen_ms, &rows[b], ag);
            if (csv)
                csv_row(csv, name, source, n, m, gen_ms, cfg, &rows[b], ag);
        }
        gcut_graph_free(g);
    }
    gcut_result_free(res);
    if (csv)
        fclose(csv);
    return rc;
}

/* ------------------------------------------------------------ parse mode */

static int bench_parse(int argc, char **argv, const bench_cfg *cfg)
{
    FILE *csv = NULL;
    if (cfg->csv_path) {
        csv = fopen(cfg->csv_path, "w");
        if (!csv) {
            perror(cfg->csv_path);
            return 1;
        }
        fprintf(csv, "file,bytes,nodes,edges,threads,repeat,parse_ms,min_parse_ms,mb_per_s,"
                     "parse_cpu_ms,layout_ms\n");
    }
    printf("%-28s %11s %9s %10s %7s %9s %8s %9s %9s\n", "file", "bytes", "nodes", "edges",
           "threads", "parse_ms", "MB/s", "cpu_ms", "layout_ms");
    int rc = 0;
    for (int i = 0; i < argc; i++) {
        double t[MAX_REPEAT], tl[MAX_REPEAT], tc[MAX_REPEAT];
        int32_t n = 0;
        int64_t m = 0, bytes = 0;
        int32_t done = 0;
        for (int32_t rep = 0; rep < cfg->repeat; rep++) {
            gcut_graph *g = NULL;
            gcut_dimacs_info info;
            memset(&info, 0, sizeof info);
            gcut_dimacs_options opt;
            gcut_dimacs_options_init(&opt);
            opt.threads = cfg->threads;
            const double c0 = cpu_ms(), t0 = now_ms();
            gcut_status st = gcut_graph_read_dimacs_opt(argv[i], &opt, &g, &info);
            const double t1 = now_ms();
            tc[done] = cpu_ms() - c0;
            /* The layout the CPU engines build first (gcut_graph_freeze: BCSR). */
            if (st == GCUT_OK)
                st = gcut_graph_freeze(g);
            tl[done] = now_ms() - t1;
            if (st != GCUT_OK) {
                fprintf(stderr, "gcut-bench: %s: %s\n", argv[i],
                        *gcut_last_error() ? gcut_last_error() : gcut_status_string(st));
                rc = 1;
                break;
            }
            n = gcut_graph_num_nodes(g);
            m = gcut_graph_num_edges(g);
            bytes = info.bytes;
            if (bytes <= 0) {
                struct stat sb;
                bytes = stat(argv[i], &sb) == 0 ? (int64_t)sb.st_size : 0;
            }
            gcut_graph_free(g);
            t[done++] = t1 - t0;
            if (!cfg->quiet)
                fprintf(stderr, "  %s rep %d/%d: %.1f ms\n", argv[i], (int)rep + 1,
                        (int)cfg->repeat, t1 - t0);
        }
        if (done == 0)
            continue;
        double mn = t[0];
        for (int32_t k = 1; k < done; k++)
            mn = t[k] < mn ? t[k] : mn;
        const double med = median(t, done), lay = median(tl, done), cpu = median(tc, done);
        const double mbs = med > 0 ? (double)bytes / 1e6 / (med / 1e3) : 0.0;
        printf("%-28s %11" PRId64 " %9" PRId32 " %10" PRId64 " %7d %9.1f %8.1f %9.1f %9.1f\n",
               base_name(argv[i]), bytes, n, m, (int)cfg->threads, med, mbs, cpu, lay);
        fflush(stdout);
        if (csv)
            fprintf(csv, "%s,%" PRId64 ",%" PRId32 ",%" PRId64 ",%d,%d,%.3f,%.3f,%.2f,%.3f,%.3f\n",
                    base_name(argv[i]), bytes, n, m, (int)cfg->threads, (int)done, med, mn, mbs,
                    cpu, lay);
    }
    if (csv)
        fclose(csv);
    return rc;
}

/* ------------------------------------------------------------------ main */

static const char usage[] =
    "usage: gcut-bench [options] INSTANCE...\n"
    "       gcut-bench --parse [--repeat N] [--csv FILE] FILE.max...\n"
    "       gcut-bench --list\n"
    "Time gcut's max-flow back ends on DIMACS files and generated instances.\n"
    "\n"
    "INSTANCE is a DIMACS file or a generator spec FAMILY:KEY=VALUE,...\n"
    "(e.g. genrmf:a=32,b=32,seed=1  rlg:r=256,c=512  grid2d:w=512,h=512,conn=4\n"
    " grid3d:w=64,h=64,d=64,conn=26,kind=vision  acyclic:n=2000\n"
    " powerlaw:n=1000000,d=8,k=16  bipartite:l=1000,r=1000,d=4;\n"
    " gcut-gen --help lists every family and parameter).\n"
    "\n"
    "options:\n"
    "      --backends LIST  comma-separated back ends, or 'all' (every available one;\n"
    "                       the default). Named back ends that cannot run here are\n"
    "                       reported as unavailable and skipped.\n"
    "      --repeat N       solves per back end and instance; medians are reported\n"
    "                       (default 3)\n"
    "  -t, --threads T      threads for parallel back ends (default 0: one per core)\n"
    "      --time-limit S   per-solve limit in seconds (a timeout is reported, not fatal;\n"
    "                       0: none)\n"
    "      --max-memory SIZE\n"
    "                       host memory budget (512M, 4G, 1.5GiB, bytes)\n"
    "      --budget S       stop repeating a back end on an instance once its solves\n"
    "                       took S seconds in all (at least one solve is made)\n"
    "      --params STR     back-end parameters key=value,... (gcut_solve_options.params)\n"
    "      --seed S         seed of specs that give none (default 1)\n"
    "      --csv FILE       also write one CSV row per instance and back end\n"
    "      --no-check       skip gcut_check_flow on the returned cut\n"
    "      --fresh-layout   drop the graph's layouts before every solve, so that each\n"
    "                       solve lays it out again (by default the first solve's layout\n"
    "                       is kept for the repeats)\n"
    "      --core-layout    as --fresh-layout, and build the core's RCSR on the host (-t\n"
    "                       threads; counted in build_ms) before each solve: cuda-csr then\n"
    "                       solves on it instead of laying the edges out on the device\n"
    "      --parse          time gcut_graph_read_dimacs_opt (-t: its threads, 1: the serial\n"
    "                       reader) and the layout build (gcut_graph_freeze) on the files\n"
    "      --list           list the back ends and whether they can run here\n"
    "  -v, --verbose        log the back ends' summaries to stderr (-vv: progress)\n"
    "  -q, --quiet          no progress lines on stderr\n"
    "\n"
    "Columns: build_ms = layout build (the first solve's; later ones find it cached;\n"
    "the median with --fresh-layout or --core-layout),\n"
    "solve_ms = total_ms - build_ms (set-up, max-flow and cut; medians), agree = every back end gave the same flow and\n"
    "cut bytes, check = the cut's capacity equals the flow.\n"
    "Exit status: 0 fine, 1 a failure, 2 bad usage, a disagreement or a failed check.\n";

enum {
    OPT_BACKENDS = CLI_KEY,
    OPT_REPEAT,
    OPT_TIME_LIMIT,
    OPT_MAX_MEMORY,
    OPT_BUDGET,
    OPT_SEED,
    OPT_CSV,
    OPT_NO_CHECK,
    OPT_PARSE,
    OPT_LIST,
    OPT_FRESH_LAYOUT,
    OPT_CORE_LAYOUT
};

typedef struct args {
    bench_cfg cfg;
    int parse_mode, list;
} args;

static int take_option(int key, const char *v, void *user)
{
    args *a = user;
    int32_t n;
    char *end;
    size_t bytes;
    switch (key) {
    case OPT_BACKENDS:
        a->cfg.backends = v;
        break;
    case OPT_REPEAT:
        if (!cli_parse_int(v, 1, MAX_REPEAT, &n))
            return cli_usage_error("--repeat needs a number of solves", v);
        a->cfg.repeat = n;
        break;
    case OPT_TIME_LIMIT:
        if (!cli_parse_double(v, 0, 1e9, &a->cfg.time_limit))
            return cli_usage_error("--time-limit needs a number of seconds >= 0", v);
        break;
    case OPT_MAX_MEMORY:
        if (!cli_parse_size(v, &bytes))
            return cli_usage_error("--max-memory needs a size such as 512M, 4G, 1.5GiB or bytes",
                                   v);
        gcut_set_max_memory(bytes);
        break;
    case OPT_BUDGET:
        if (!cli_parse_double(v, 0, 1e9, &a->cfg.budget))
            return cli_usage_error("--budget needs a number of seconds >= 0", v);
        break;
    case OPT_SEED:
        errno = 0;
        a->cfg.seed = strtoull(v, &end, 0);
        if (errno || end == v || *end || *v == '-')
            return cli_usage_error("--seed needs a non-negative integer", v);
        break;
    case OPT_CSV:
        a->cfg.csv_path = v;
        break;
    case OPT_NO_CHECK:
        a->cfg.check = 0;
        break;
    case OPT_PARSE:
        a->parse_mode = 1;
        break;
    case OPT_FRESH_LAYOUT:
        a->cfg.fresh_layout = 1;
        break;
    case OPT_CORE_LAYOUT:
        a->cfg.core_layout = 1;
        break;
    default: /* OPT_LIST */
        a->list = 1;
        break;
    }
    return 0;
}

int main(int argc, char **argv)
{
    cli_init("gcut-bench", usage);
    args a = {{"all", 3, 0, 0.0, 0.0, NULL, NULL, 1, 1, 0, 0, 0, 0}, 0, 0};
    static const struct option longopts[] = {
        {"backends", required_argument, NULL, OPT_BACKENDS},
        {"repeat", required_argument, NULL, OPT_REPEAT},
        {"time-limit", required_argument, NULL, OPT_TIME_LIMIT},
        {"max-memory", required_argument, NULL, OPT_MAX_MEMORY},
        {"budget", required_argument, NULL, OPT_BUDGET},
        {"seed", required_argument, NULL, OPT_SEED},
        {"csv", required_argument, NULL, OPT_CSV},
        {"no-check", no_argument, NULL, OPT_NO_CHECK},
        {"parse", no_argument, NULL, OPT_PARSE},
        {"list", no_argument, NULL, OPT_LIST},
        {"fresh-layout", no_argument, NULL, OPT_FRESH_LAYOUT},
        {"core-layout", no_argument, NULL, OPT_CORE_LAYOUT},
        {NULL, 0, NULL, 0}};
    const cli_opts group = {"", longopts, take_option, &a};
    cli_common c;
    int first, rc = cli_parse(argc, argv, &group, 1,
                              CLI_OPT_THREADS | CLI_OPT_VERBOSE | CLI_OPT_QUIET, &c, &first);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (a.list) {
        list_backends();
        return 0;
    }
    a.cfg.threads = c.threads;
    a.cfg.params = c.params;
    a.cfg.verbose = c.verbose > 2 ? 2 : c.verbose;
    a.cfg.quiet = c.quiet;
    if (first >= argc)
        return cli_usage_error("no INSTANCE given", NULL);
    return a.parse_mode ? bench_parse(argc - first, argv + first, &a.cfg)
                        : bench_instances(argc - first, argv + first, &a.cfg);
}
