/*
 * gcut-gen-mtx - random and power-law bipartite graphs as Matrix Market
 * pattern files, for the matching benchmarks (bench/run-match.sh).
 *
 *   gcut-gen-mtx random   ROWS COLS EDGES SEED          > g.mtx
 *   gcut-gen-mtx powerlaw ROWS COLS EDGES SEED [ALPHA]  > g.mtx
 *
 * random: each entry joins a uniform row and a uniform column (degrees are
 * Poisson, so with EDGES ~ ROWS some rows are isolated and the matching is
 * deficient). powerlaw: both ends are drawn with probability proportional to
 * (rank + 1)^-ALPHA (default 0.8; ranks are a random permutation of the ids
 * so that hubs are spread out), the Chung-Lu model; heavy hubs and many
 * degree-1 vertices, the case where Karp-Sipser shines.
 *
 * Duplicate entries are written as drawn (the reader merges them), so the
 * file's entry count is exactly EDGES. Output is a pure function of the
 * arguments (gen.h's xoshiro256**).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gen/gen.h"

static int parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

/* Cumulative weights (rank + 1)^-alpha over a random permutation of ids. */
typedef struct zipf {
    double *cdf;
    int32_t *id;
    int32_t n;
} zipf;

static int zipf_init(zipf *z, int32_t n, double alpha, gen_rng *rng)
{
    z->n = n;
    z->cdf = malloc((size_t)n * sizeof *z->cdf);
    z->id = malloc((size_t)n * sizeof *z->id);
    if (!z->cdf || !z->id)
        return 0;
    gen_rng_permutation(rng, z->id, n);
    double sum = 0;
    for (int32_t i = 0; i < n; i++) {
        sum += pow((double)i + 1, -alpha);
        z->cdf[i] = sum;
    }
    for (int32_t i = 0; i < n; i++)
        z->cdf[i] /= sum;
    return 1;
}

static int32_t zipf_draw(const zipf *z, gen_rng *rng)
{
    const double u = gen_rng_unit(rng);
    int32_t lo = 0, hi = z->n - 1;
    while (lo < hi) {
        const int32_t mid = lo + (hi - lo) / 2;
        if (z->cdf[mid] <= u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return z->id[lo];
}

static const char usage[] =
    "usage: gcut-gen-mtx [options] random|powerlaw ROWS COLS EDGES SEED [ALPHA]\n"
    "Write a random or power-law bipartite graph as a Matrix Market pattern file.\n"
    "\n"
    "random: each entry joins a uniform row and a uniform column. powerlaw: both\n"
    "ends drawn with probability proportional to (rank + 1)^-ALPHA (default 0.8),\n"
    "the Chung-Lu model. The file has exactly EDGES entries (duplicates as drawn)\n"
    "and depends on the arguments only.\n"
    "\n"
    "options:\n"
    "  -o, --out FILE       output file ('-' for stdout, the default)\n";

static int take_option(int key, const char *v, void *user)
{
    (void)key;
    *(const char **)user = v;
    return 0;
}

int main(int argc, char **argv)
{
    cli_init("gcut-gen-mtx", usage);
    const char *out = "-";
    static const struct option longopts[] = {{"out", required_argument, NULL, 'o'},
                                             {NULL, 0, NULL, 0}};
    const cli_opts group = {"o:", longopts, take_option, &out};
    cli_common c;
    int first, rc = cli_parse(argc, argv, &group, 1, 0, &c, &first);
    if (rc)
        return rc < 0 ? 0 : rc;
    argc -= first - 1; /* the operands as argv[1 ..] */
    argv += first - 1;
    int64_t rows, cols, edges, seed;
    double alpha = 0.8;
    if (argc < 6)
        return cli_usage_error("need random|powerlaw ROWS COLS EDGES SEED [ALPHA]", NULL);
    if (argc > 7)
        return cli_usage_error("too many arguments", argv[7]);
    if (strcmp(argv[1], "random") && strcmp(argv[1], "powerlaw"))
        return cli_usage_error("the kind must be random or powerlaw", argv[1]);
    if (!parse_i64(argv[2], 1, INT32_MAX, &rows) || !parse_i64(argv[3], 1, INT32_MAX, &cols))
        return cli_usage_error("ROWS and COLS must be in 1 .. 2147483647", NULL);
    if (!parse_i64(argv[4], 0, INT64_MAX / 2, &edges))
        return cli_usage_error("EDGES must be a non-negative integer", argv[4]);
    if (!parse_i64(argv[5], 0, INT64_MAX, &seed))
        return cli_usage_error("SEED must be a non-negative integer", argv[5]);
    if (argc == 7 && !cli_parse_positive(argv[6], &alpha))
        return cli_usage_error("ALPHA must be a positive number", argv[6]);
    const int power = strcmp(argv[1], "powerlaw") == 0;
    gen_rng rng;
    gen_rng_seed(&rng, (uint64_t)seed, 0);
    zipf zr = {0}, zc = {0};
    if (power && (!zipf_init(&zr, (int32_t)rows, alpha, &rng) ||
                  !zipf_init(&zc, (int32_t)cols, alpha, &rng))) {
        fprintf(stderr, "gcut-gen-mtx: out of memory\n");
        rc = 1;
        goto done;
    }
    FILE *f = cli_open_output(out);
    if (!f) {
        rc = 1;
        goto done;
    }
    fprintf(f, "%%%%MatrixMarket matrix coordinate pattern general\n");
    fprintf(f, "%% gcut-gen-mtx %s %lld %lld %lld %lld", argv[1], (long long)rows, (long long)cols,
            (long long)edges, (long long)seed);
    if (power)
        fprintf(f, " %g", alpha);
    fprintf(f, "\n%lld %lld %lld\n", (long long)rows, (long long)cols, (long long)edges);
    for (int64_t e = 0; e < edges; e++) {
        int32_t r, c2;
        if (power) {
            r = zipf_draw(&zr, &rng);
            c2 = zipf_draw(&zc, &rng);
        } else {
            r = (int32_t)gen_rng_below(&rng, (uint32_t)rows);
            c2 = (int32_t)gen_rng_below(&rng, (uint32_t)cols);
        }
        fprintf(f, "%d %d\n", (int)r + 1, (int)c2 + 1);
    }
    rc = cli_close_output(f, out);
done:
    free(zr.cdf);
    free(zr.id);
    free(zc.cdf);
    free(zc.id);
    return rc;
}
