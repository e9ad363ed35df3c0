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

int main(int argc, char **argv)
{
    int64_t rows, cols, edges, seed;
    double alpha = 0.8;
    if (argc < 6 || argc > 7 || (strcmp(argv[1], "random") && strcmp(argv[1], "powerlaw")) ||
        !parse_i64(argv[2], 1, INT32_MAX, &rows) || !parse_i64(argv[3], 1, INT32_MAX, &cols) ||
        !parse_i64(argv[4], 0, INT64_MAX / 2, &edges) || !parse_i64(argv[5], 0, INT64_MAX, &seed) ||
        (argc == 7 && !(alpha = atof(argv[6]), alpha > 0))) {
        fprintf(stderr, "usage: gcut-gen-mtx random|powerlaw ROWS COLS EDGES SEED [ALPHA]\n");
        return 2;
    }
    const int power = strcmp(argv[1], "powerlaw") == 0;
    gen_rng rng;
    gen_rng_seed(&rng, (uint64_t)seed, 0);
    zipf zr = {0}, zc = {0};
    if (power && (!zipf_init(&zr, (int32_t)rows, alpha, &rng) ||
                  !zipf_init(&zc, (int32_t)cols, alpha, &rng))) {
        fprintf(stderr, "gcut-gen-mtx: out of memory\n");
        return 1;
    }
    static char buf[1 << 20];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    printf("%%%%MatrixMarket matrix coordinate pattern general\n");
    printf("%% gcut-gen-mtx %s %lld %lld %lld %lld", argv[1], (long long)rows, (long long)cols,
           (long long)edges, (long long)seed);
    if (power)
        printf(" %g", alpha);
    printf("\n%lld %lld %lld\n", (long long)rows, (long long)cols, (long long)edges);
    for (int64_t e = 0; e < edges; e++) {
        int32_t r, c;
        if (power) {
            r = zipf_draw(&zr, &rng);
            c = zipf_draw(&zc, &rng);
        } else {
            r = (int32_t)gen_rng_below(&rng, (uint32_t)rows);
            c = (int32_t)gen_rng_below(&rng, (uint32_t)cols);
        }
        printf("%d %d\n", (int)r + 1, (int)c + 1);
    }
    free(zr.cdf);
    free(zr.id);
    free(zc.cdf);
    free(zc.id);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "gcut-gen-mtx: write error\n");
        return 1;
    }
    return 0;
}
