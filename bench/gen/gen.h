/*
 * gen.h - benchmark instance generators for gcut (bench/ only, not part of
 * libgcut).
 *
 * Every generator builds a gcut_graph in memory through the public API
 * (gcut_graph_new with the exact edge count as hint, then the bulk calls
 * gcut_graph_add_edges / gcut_graph_add_tweights_bulk in chunks), and is a
 * pure function of its parameters and a 64-bit seed: the same spec gives
 * the same graph, byte for byte, on every machine (our own xoshiro256**
 * generator, never rand()).
 *
 * An instance is named by a spec string, `family:key=value,key=value`
 * (e.g. `genrmf:a=32,b=32,seed=1`). Families and their parameters are
 * listed by gen_families(); docs/benchmarks.md describes each one.
 *
 *     gen_spec s;
 *     char err[GEN_ERR_LEN];
 *     gcut_graph *g;
 *     if (gen_spec_parse("rlg:r=256,c=512", 1, &s, err) != 0 ||
 *         gen_build(&s, &g, err) != GCUT_OK)
 *         fprintf(stderr, "%s\n", err);
 */
#ifndef GCUT_BENCH_GEN_H
#define GCUT_BENCH_GEN_H

#include <stdint.h>

#include "gcut/gcut.h"

#define GEN_ERR_LEN 512
#define GEN_MAX_KV 16
#define GEN_KEY_LEN 32
#define GEN_VAL_LEN 64
#define GEN_SPEC_LEN 512

/* ------------------------------------------------------------------ PRNG
 *
 * xoshiro256** (Blackman & Vigna, "Scrambled linear pseudorandom number
 * generators", ACM TOMS 2021), seeded through splitmix64 so that any 64-bit
 * seed, 0 included, gives a well-mixed non-zero state. */

typedef struct gen_rng {
    uint64_t s[4];
} gen_rng;

static inline uint64_t gen_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Seed a generator; \p stream separates independent sequences drawn from
 * one seed (e.g. one for the image, one for the capacities). */
static inline void gen_rng_seed(gen_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ull);
    for (int i = 0; i < 4; i++)
        r->s[i] = gen_splitmix64(&x);
}

static inline uint64_t gen_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t gen_rng_next(gen_rng *r)
{
    uint64_t *s = r->s;
    const uint64_t result = gen_rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = gen_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n) for n < 2^32: Lemire's multiply-shift on the high 32
 * bits. The bias (at most n / 2^32) is far below what a benchmark notices,
 * and it costs no division. */
static inline uint32_t gen_rng_below(gen_rng *r, uint32_t n)
{
    return (uint32_t)(((gen_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* Uniform in [lo, hi], both included (lo <= hi). */
static inline int32_t gen_rng_range(gen_rng *r, int32_t lo, int32_t hi)
{
    return lo + (int32_t)gen_rng_below(r, (uint32_t)((int64_t)hi - lo + 1));
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double gen_rng_unit(gen_rng *r)
{
    return (double)(gen_rng_next(r) >> 11) * 0x1.0p-53;
}

/* Standard normal deviate (Box-Muller; one of the pair is dropped, which
 * keeps the generator stateless beyond the rng). */
double gen_rng_normal(gen_rng *r);

/* Fill p[0..n-1] with a uniformly random permutation of 0..n-1. */
void gen_rng_permutation(gen_rng *r, int32_t *p, int32_t n);

/* ------------------------------------------------------------ edge buffer
 *
 * Edges are collected in a fixed chunk and handed to gcut_graph_add_edges
 * when it is full, so that a generator needs O(chunk) scratch memory rather
 * than a second copy of the whole edge list. */

#define GEN_CHUNK 65536

typedef struct gen_edges {
    gcut_graph *g;
    int32_t len;
    gcut_status status; /* the first failure; later pushes are ignored */
    int32_t u[GEN_CHUNK], v[GEN_CHUNK], cap[GEN_CHUNK], rev[GEN_CHUNK];
} gen_edges;

/* Allocate a buffer that appends to \p g (NULL when out of memory). */
gen_edges *gen_edges_new(gcut_graph *g);
/* Flush what is left and free the buffer; returns the first failure. */
gcut_status gen_edges_finish(gen_edges *eb);
void gen_edges_flush(gen_edges *eb);

static inline void gen_edges_push(gen_edges *eb, int32_t u, int32_t v, int32_t cap, int32_t rev)
{
    eb->u[eb->len] = u;
    eb->v[eb->len] = v;
    eb->cap[eb->len] = cap;
    eb->rev[eb->len] = rev;
    if (++eb->len == GEN_CHUNK)
        gen_edges_flush(eb);
}

/* ------------------------------------------------------- specs, families */

typedef struct gen_spec gen_spec;

/* One parameter of a family: its key, default value (as text) and help. */
typedef struct gen_param {
    const char *key;
    const char *def;
    const char *help;
} gen_param;

typedef gcut_status (*gen_build_fn)(const gen_spec *spec, gcut_graph **out,
                                    char err[GEN_ERR_LEN]);

typedef struct gen_family {
    const char *name;
    const char *summary;
    const gen_param *params; /* terminated by a {NULL} entry; "seed" is implicit */
    gen_build_fn build;
} gen_family;

struct gen_spec {
    const gen_family *family;
    uint64_t seed;
    int32_t count;
    char key[GEN_MAX_KV][GEN_KEY_LEN];
    char val[GEN_MAX_KV][GEN_VAL_LEN];
    char text[GEN_SPEC_LEN]; /* the canonical spec: family:k=v,...,seed=S */
};

/* All families, terminated by a {NULL} entry. */
const gen_family *gen_families(void);
const gen_family *gen_family_find(const char *name);

/* Parse `family[:k=v[,k=v...]]` (';' may stand for ','). Keys must be parameters of the family (or
 * "seed"); the seed defaults to \p default_seed. Returns 0, or -1 with a
 * message in err. */
int gen_spec_parse(const char *text, uint64_t default_seed, gen_spec *spec,
                   char err[GEN_ERR_LEN]);
/* Add or replace one k=v of a parsed spec (used by gcut-gen's separate
 * arguments). Returns 0 or -1 with a message. */
int gen_spec_set(gen_spec *spec, const char *key, const char *val, char err[GEN_ERR_LEN]);

/* Read a parameter (the given value, else the family default) as an integer
 * in [lo, hi], a real in [lo, hi], or a string. Return 0 or -1 with a
 * message in err. */
int gen_spec_int(const gen_spec *spec, const char *key, int64_t lo, int64_t hi, int64_t *out,
                 char err[GEN_ERR_LEN]);
int gen_spec_real(const gen_spec *spec, const char *key, double lo, double hi, double *out,
                  char err[GEN_ERR_LEN]);
const char *gen_spec_str(const gen_spec *spec, const char *key);

/* Build the graph of a spec. On failure *out is unchanged and err says why. */
gcut_status gen_build(const gen_spec *spec, gcut_graph **out, char err[GEN_ERR_LEN]);

/* Copy gcut_last_error() into err, prefixed with the family; return st. */
gcut_status gen_fail_gcut(gcut_status st, const char *family, char err[GEN_ERR_LEN]);
/* Format a message into err; return GCUT_ERR_INVALID (or the given status). */
gcut_status gen_fail(gcut_status st, char err[GEN_ERR_LEN], const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The families' builders (one file each). */
gcut_status gen_build_genrmf(const gen_spec *spec, gcut_graph **out, char err[GEN_ERR_LEN]);
gcut_status gen_build_rlg(const gen_spec *spec, gcut_graph **out, char err[GEN_ERR_LEN]);
gcut_status gen_build_acyclic(const gen_spec *spec, gcut_graph **out, char err[GEN_ERR_LEN]);
gcut_status gen_build_grid2d(const gen_spec *spec, gcut_graph **out, char err[GEN_ERR_LEN]);
gcut_status gen_build_grid3d(const gen_spec *spec, gcut_graph **out, char err[GEN_ERR_LEN]);
gcut_status gen_build_powerlaw(const gen_spec *spec, gcut_graph **out, char err[GEN_ERR_LEN]);
gcut_status gen_build_bipartite(const gen_spec *spec, gcut_graph **out, char err[GEN_ERR_LEN]);

/* ------------------------------------------------------------ grids
 *
 * A gcut_grid from a grid2d / grid3d spec (the generated graph's edges put
 * in the grid direction of their offsets), and a copy of a grid (same
 * shape, capacities and terminals; no solver state). grid_spec.c. */
gcut_status gen_grid_of_spec(const char *text, gcut_grid **out, char err[GEN_ERR_LEN]);
gcut_status gen_grid_copy(const gcut_grid *g, gcut_grid **out, char err[GEN_ERR_LEN]);

#endif /* GCUT_BENCH_GEN_H */
