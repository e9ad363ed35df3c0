/*
 * powerlaw.c - power-law graphs with several sources and sinks, the
 * SNAP-like instances of GPU push-relabel papers (e.g. Hsieh, Lin & Kuo,
 * "Engineering a work-efficient push-relabel on the GPU" (WBPR), 2024,
 * which runs max-flow between many sources and sinks on social and web
 * graphs).
 *
 * Degrees follow the Chung-Lu model (F. Chung & L. Lu, "Connected
 * components in random graphs with given expected degree sequences",
 * Annals of Combinatorics 6 (2002) 125-145): node i has weight
 * w_i = (i + 1)^(-1/(gamma-1)), which gives a degree distribution with tail
 * exponent gamma, and each of the m = n*d/2 edges joins two endpoints
 * drawn independently with probability proportional to their weights
 * (self-loops are redrawn, parallel edges kept, as in the edge-sampling
 * form of the model). Endpoints are drawn in O(1) with Walker's alias
 * method (A. J. Walker, "An efficient method for generating discrete
 * random variables with general distributions", ACM TOMS 3 (1977)), in
 * Vose's numerically stable construction.
 *
 * Node ids are shuffled by a random permutation, so that hubs are spread
 * over the id range as in a real crawl rather than packed at the front.
 * Each edge gets a capacity uniform in [1, maxcap] from u to v and, unless
 * directed=1, an independent one from v to u. Then k distinct random nodes
 * with non-zero out-capacity become sources and k others with non-zero
 * in-capacity sinks; their terminal capacity is tcap, or with tcap=0 the
 * node's whole out- (in-) capacity, i.e. unbounded.
 */
#include <math.h>
#include <stdlib.h>

#include "gen.h"

typedef struct alias_table {
    uint32_t *thr;  /* keep i when 32 random bits < thr[i] */
    int32_t *alias; /* else take alias[i] */
} alias_table;

/* Vose's construction: scale the weights to mean 1, then pair each "small"
 * entry (< 1) with a "large" one that donates the rest of its column. */
static int alias_build(alias_table *t, int32_t n, double expo)
{
    double *p = malloc((size_t)n * sizeof *p);
    int32_t *small = malloc((size_t)n * sizeof *small);
    int32_t *large = malloc((size_t)n * sizeof *large);
    t->thr = malloc((size_t)n * sizeof *t->thr);
    t->alias = malloc((size_t)n * sizeof *t->alias);
    if (!p || !small || !large || !t->thr || !t->alias) {
        free(p);
        free(small);
        free(large);
        free(t->thr);
        free(t->alias);
        return -1;
    }
    double sum = 0.0;
    for (int32_t i = 0; i < n; i++)
        sum += p[i] = pow((double)i + 1.0, -expo);
    int32_t ns = 0, nl = 0;
    for (int32_t i = 0; i < n; i++) {
        p[i] *= (double)n / sum;
        if (p[i] < 1.0)
            small[ns++] = i;
        else
            large[nl++] = i;
    }
    while (ns > 0 && nl > 0) {
        const int32_t s = small[--ns], l = large[nl - 1];
        t->thr[s] = (uint32_t)(p[s] * 4294967296.0);
        t->alias[s] = l;
        p[l] -= 1.0 - p[s];
        if (p[l] < 1.0) {
            nl--;
            small[ns++] = l;
        }
    }
    /* What is left has probability 1 up to rounding: always keep it. */
    while (nl > 0) {
        const int32_t l = large[--nl];
        t->thr[l] = UINT32_MAX;
        t->alias[l] = l;
    }
    while (ns > 0) {
        const int32_t s = small[--ns];
        t->thr[s] = UINT32_MAX;
        t->alias[s] = s;
    }
    free(p);
    free(small);
    free(large);
    return 0;
}

static inline int32_t alias_draw(const alias_table *t, gen_rng *r, int32_t n)
{
    const uint64_t x = gen_rng_next(r);
    const int32_t i = (int32_t)(((x >> 32) * (uint64_t)n) >> 32);
    return (uint32_t)x < t->thr[i] ? i : t->alias[i];
}

/* Pick k distinct nodes among those with sum[v] > 0 and not yet taken;
 * mark them taken. Returns the number picked (< k if too few qualify). */
static int32_t pick_terminals(gen_rng *r, const int64_t *sum, uint8_t *taken, int32_t n,
                              int32_t k, int32_t *list, int32_t *picked)
{
    int32_t cnt = 0;
    for (int32_t v = 0; v < n; v++)
        if (sum[v] > 0 && !taken[v])
            list[cnt++] = v;
    int32_t got = 0;
    for (; got < k && got < cnt; got++) {
        /* Partial Fisher-Yates over the candidates. */
        const int32_t j = got + (int32_t)gen_rng_below(r, (uint32_t)(cnt - got));
        const int32_t v = list[j];
        list[j] = list[got];
        list[got] = v;
        taken[v] = 1;
        picked[got] = v;
    }
    return got;
}

gcut_status gen_build_powerlaw(const gen_spec *spec, gcut_graph **out, char err[GEN_ERR_LEN])
{
    int64_t n64, k64, maxcap, tcap, directed;
    double d, gamma;
    if (gen_spec_int(spec, "n", 2, INT32_MAX, &n64, err) ||
        gen_spec_real(spec, "d", 0, 1e6, &d, err) ||
        gen_spec_real(spec, "gamma", 2.01, 100, &gamma, err) ||
        gen_spec_int(spec, "k", 0, INT32_MAX / 2, &k64, err) ||
        gen_spec_int(spec, "maxcap", 1, INT32_MAX, &maxcap, err) ||
        gen_spec_int(spec, "tcap", 0, INT32_MAX, &tcap, err) ||
        gen_spec_int(spec, "directed", 0, 1, &directed, err))
        return GCUT_ERR_INVALID;
    if (2 * k64 > n64)
        return gen_fail(GCUT_ERR_INVALID, err, "powerlaw: 2k = %lld terminals but n = %lld",
                        (long long)(2 * k64), (long long)n64);
    const int32_t n = (int32_t)n64, k = (int32_t)k64;
    const int64_t m = (int64_t)floor((double)n * d / 2.0 + 0.5);

    gen_rng rng;
    gen_rng_seed(&rng, spec->seed, 0);
    alias_table at = {NULL, NULL};
    int32_t *perm = malloc((size_t)n * sizeof *perm);
    int64_t *osum = calloc((size_t)n, sizeof *osum);
    int64_t *isum = calloc((size_t)n, sizeof *isum);
    int32_t *picked = malloc(((size_t)k + 1) * sizeof *picked);
    gcut_graph *g = NULL;
    gen_edges *eb = NULL;
    gcut_status st = GCUT_ERR_NOMEM;
    if (!perm || !osum || !isum || !picked || alias_build(&at, n, 1.0 / (gamma - 1.0)) != 0) {
        gen_fail(st, err, "powerlaw: out of memory");
        goto done;
    }
    gen_rng_permutation(&rng, perm, n);
    st = gcut_graph_new(&g, n, m);
    if (st != GCUT_OK) {
        gen_fail_gcut(st, "powerlaw", err);
        goto done;
    }
    eb = gen_edges_new(g);
    if (!eb) {
        st = gen_fail(GCUT_ERR_NOMEM, err, "powerlaw: out of memory");
        goto done;
    }
    for (int64_t e = 0; e < m; e++) {
        const int32_t a = alias_draw(&at, &rng, n);
        int32_t b;
        do
            b = alias_draw(&at, &rng, n);
        while (b == a);
        const int32_t u = perm[a], v = perm[b];
        const int32_t cap = gen_rng_range(&rng, 1, (int32_t)maxcap);
        const int32_t rev = directed ? 0 : gen_rng_range(&rng, 1, (int32_t)maxcap);
        gen_edges_push(eb, u, v, cap, rev);
        osum[u] += cap;
        isum[v] += cap;
        osum[v] += rev;
        isum[u] += rev;
    }
    st = gen_edges_finish(eb);
    eb = NULL;
    if (st != GCUT_OK) {
        gen_fail_gcut(st, "powerlaw", err);
        goto done;
    }
    /* Terminals: perm is no longer needed and becomes the candidate list;
     * sources are taken first so that no node is both. */
    uint8_t *taken = calloc((size_t)n, 1);
    if (!taken) {
        st = gen_fail(GCUT_ERR_NOMEM, err, "powerlaw: out of memory");
        goto done;
    }
    for (int side = 0; side < 2 && st == GCUT_OK; side++) {
        const int64_t *sum = side == 0 ? osum : isum;
        const int32_t got = pick_terminals(&rng, sum, taken, n, k, perm, picked);
        if (got < k) {
            st = gen_fail(GCUT_ERR_INVALID, err,
                          "powerlaw: only %d nodes can be %s; lower k or raise d", (int)got,
                          side == 0 ? "sources" : "sinks");
            break;
        }
        for (int32_t i = 0; i < k && st == GCUT_OK; i++) {
            const int32_t v = picked[i];
            const int64_t c64 = tcap > 0 ? tcap : sum[v];
            const int32_t c = c64 > INT32_MAX ? INT32_MAX : (int32_t)c64;
            st = gcut_graph_add_tweights(g, v, side == 0 ? c : 0, side == 0 ? 0 : c);
            if (st != GCUT_OK)
                gen_fail_gcut(st, "powerlaw", err);
        }
    }
    free(taken);
done:
    gen_edges_finish(eb);
    free(at.thr);
    free(at.alias);
    free(perm);
    free(osum);
    free(isum);
    free(picked);
    if (st != GCUT_OK) {
        gcut_graph_free(g);
        return st;
    }
    *out = g;
    return GCUT_OK;
}
