/*
 * family.c - the generator registry, spec parsing and the helpers every
 * generator shares (normal deviates, permutations, the edge buffer).
 *
 * A spec is `family[:key=value[,key=value...]]`; ';' separates as well as
 * ',' so that CSV files can carry specs unquoted. Parsing only checks the
 * syntax and that each key belongs to the family; the values are read and
 * range-checked by the family's builder through gen_spec_int/real/str,
 * which fall back to the defaults listed in the family's parameter table.
 * The canonical text (family, every given key, then seed) names the
 * instance in benchmark tables, so equal texts mean equal graphs.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

/* ------------------------------------------------------------------ rng */

double gen_rng_normal(gen_rng *r)
{
    /* 1 - unit is in (0, 1], so the log is finite. */
    const double u1 = 1.0 - gen_rng_unit(r);
    const double u2 = gen_rng_unit(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

void gen_rng_permutation(gen_rng *r, int32_t *p, int32_t n)
{
    /* Fisher-Yates, drawing from the already-placed prefix: O(n). */
    for (int32_t i = 0; i < n; i++) {
        int32_t j = (int32_t)gen_rng_below(r, (uint32_t)i + 1);
        if (j != i)
            p[i] = p[j];
        p[j] = i;
    }
}

/* ---------------------------------------------------------- edge buffer */

gen_edges *gen_edges_new(gcut_graph *g)
{
    gen_edges *eb = malloc(sizeof *eb);
    if (!eb)
        return NULL;
    eb->g = g;
    eb->len = 0;
    eb->status = GCUT_OK;
    return eb;
}

void gen_edges_flush(gen_edges *eb)
{
    if (eb->status == GCUT_OK && eb->len > 0)
        eb->status = gcut_graph_add_edges(eb->g, eb->len, eb->u, eb->v, eb->cap, eb->rev);
    eb->len = 0;
}

gcut_status gen_edges_finish(gen_edges *eb)
{
    if (!eb)
        return GCUT_ERR_NOMEM;
    gen_edges_flush(eb);
    gcut_status st = eb->status;
    free(eb);
    return st;
}

/* --------------------------------------------------------------- errors */

gcut_status gen_fail(gcut_status st, char err[GEN_ERR_LEN], const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, GEN_ERR_LEN, fmt, ap);
    va_end(ap);
    return st;
}

gcut_status gen_fail_gcut(gcut_status st, const char *family, char err[GEN_ERR_LEN])
{
    const char *msg = gcut_last_error();
    snprintf(err, GEN_ERR_LEN, "%s: %s", family,
             msg && *msg ? msg : gcut_status_string(st));
    return st;
}

/* ------------------------------------------------------------- families */

static const gen_param genrmf_params[] = {
    {"a", "16", "frame side: each frame is an a x a grid"},
    {"b", "16", "number of frames (long: b = 8a, wide: b = a)"},
    {"c1", "100", "smallest frame-to-frame capacity"},
    {"c2", "10000", "largest frame-to-frame capacity; in-frame arcs get c2*a*a"},
    {NULL, NULL, NULL},
};

static const gen_param rlg_params[] = {
    {"r", "64", "rows (levels); arcs go from each row to the next"},
    {"c", "128", "columns (nodes per row); long: c = 2r, wide: c = r"},
    {"deg", "3", "random arcs from each node to distinct nodes of the next row"},
    {"maxcap", "10000", "arc capacities are uniform in [1, maxcap]"},
    {"tcap", "30000", "capacity from s to each node of the first row and from each node of "
                      "the last row to t"},
    {NULL, NULL, NULL},
};

static const gen_param acyclic_params[] = {
    {"n", "1000", "nodes; an arc i -> j for every i < j, s = 0, t = n-1"},
    {"maxcap", "10000", "arc capacities are uniform in [1, maxcap]"},
    {NULL, NULL, NULL},
};

static const gen_param grid2d_params[] = {
    {"w", "512", "width"},
    {"h", "512", "height"},
    {"conn", "4", "connectivity: 4 or 8"},
    {"kind", "random", "random: every capacity uniform in [0, maxcap]; vision: synthetic "
                       "image, Gaussian t-links, contrast-sensitive Potts n-links"},
    {"maxcap", "100", "random: largest capacity"},
    {"sym", "0", "random: 1 gives both directions of a neighbour link the same capacity"},
    {"blobs", "8", "vision: number of foreground discs"},
    {"noise", "25", "vision: standard deviation of the image noise (grey levels)"},
    {"lambda", "2", "vision: smoothness weight (in nats)"},
    {"scale", "100", "vision: capacities are round(scale * energy in nats)"},
    {NULL, NULL, NULL},
};

static const gen_param grid3d_params[] = {
    {"w", "64", "width"},
    {"h", "64", "height"},
    {"d", "64", "depth"},
    {"conn", "6", "connectivity: 6, 18 or 26"},
    {"kind", "random", "random, vision (as for grid2d, with balls instead of discs) or phantom "
                       "(the vision energy on a head-like phantom: skull shell, brain, "
                       "ventricles, lesions, partial volume, bias, noise)"},
    {"maxcap", "100", "random: largest capacity"},
    {"sym", "0", "random: 1 gives both directions of a neighbour link the same capacity"},
    {"blobs", "8", "vision: number of foreground balls; phantom: number of lesions"},
    {"noise", "25", "vision: standard deviation of the image noise"},
    {"lambda", "2", "vision: smoothness weight (in nats)"},
    {"scale", "100", "vision: capacities are round(scale * energy in nats)"},
    {NULL, NULL, NULL},
};

static const gen_param powerlaw_params[] = {
    {"n", "100000", "nodes"},
    {"d", "8", "average degree (n*d/2 edges, Chung-Lu)"},
    {"gamma", "2.5", "exponent of the degree distribution (> 2)"},
    {"k", "8", "number of sources and of sinks"},
    {"maxcap", "100", "edge capacities are uniform in [1, maxcap]"},
    {"tcap", "0", "terminal capacity of each source and sink; 0: the sum of its arcs' "
                  "capacities (unbounded)"},
    {"directed", "0", "0: both directions get independent capacities; 1: u -> v only"},
    {NULL, NULL, NULL},
};

static const gen_param bipartite_params[] = {
    {"l", "1000", "left nodes (each linked from the source with capacity 1)"},
    {"r", "1000", "right nodes (each linked to the sink with capacity 1)"},
    {"d", "4", "distinct random right neighbours of each left node"},
    {NULL, NULL, NULL},
};

static const gen_family families[] = {
    {"genrmf", "Goldfarb-Grigoriadis GENRMF: b frames of a x a grids (DIMACS)", genrmf_params,
     gen_build_genrmf},
    {"rlg", "Washington random level graph: r rows of c nodes", rlg_params, gen_build_rlg},
    {"acyclic", "acyclic dense: complete DAG on n nodes", acyclic_params, gen_build_acyclic},
    {"grid2d", "2D vision grid, 4- or 8-connected", grid2d_params, gen_build_grid2d},
    {"grid3d", "3D vision grid, 6-, 18- or 26-connected", grid3d_params, gen_build_grid3d},
    {"powerlaw", "power-law (Chung-Lu) graph with k sources and k sinks (WBPR)",
     powerlaw_params, gen_build_powerlaw},
    {"bipartite", "random bipartite graph with unit capacities (matching)", bipartite_params,
     gen_build_bipartite},
    {NULL, NULL, NULL, NULL},
};

const gen_family *gen_families(void) { return families; }

const gen_family *gen_family_find(const char *name)
{
    for (const gen_family *f = families; f->name; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

static const gen_param *find_param(const gen_family *f, const char *key)
{
    for (const gen_param *p = f->params; p->key; p++)
        if (strcmp(p->key, key) == 0)
            return p;
    return NULL;
}

/* ---------------------------------------------------------------- specs */

static void spec_render(gen_spec *spec)
{
    size_t len = (size_t)snprintf(spec->text, sizeof spec->text, "%s", spec->family->name);
    for (int32_t i = 0; i < spec->count && len < sizeof spec->text; i++)
        len += (size_t)snprintf(spec->text + len, sizeof spec->text - len, "%c%s=%s",
                                i == 0 ? ':' : ',', spec->key[i], spec->val[i]);
    if (len < sizeof spec->text)
        snprintf(spec->text + len, sizeof spec->text - len, "%cseed=%" PRIu64,
                 spec->count == 0 ? ':' : ',', spec->seed);
}

static int parse_seed(const char *val, uint64_t *seed, char err[GEN_ERR_LEN])
{
    char *end;
    errno = 0;
    unsigned long long s = strtoull(val, &end, 0);
    if (errno || end == val || *end || val[0] == '-') {
        snprintf(err, GEN_ERR_LEN, "seed '%s' is not an unsigned 64-bit integer", val);
        return -1;
    }
    *seed = (uint64_t)s;
    return 0;
}

int gen_spec_set(gen_spec *spec, const char *key, const char *val, char err[GEN_ERR_LEN])
{
    if (strcmp(key, "seed") == 0) {
        if (parse_seed(val, &spec->seed, err) != 0)
            return -1;
        spec_render(spec);
        return 0;
    }
    if (!find_param(spec->family, key)) {
        snprintf(err, GEN_ERR_LEN, "%s has no parameter '%s' (see gcut-gen --help)",
                 spec->family->name, key);
        return -1;
    }
    if (strlen(val) == 0 || strlen(val) >= GEN_VAL_LEN) {
        snprintf(err, GEN_ERR_LEN, "%s: bad value '%s' for %s", spec->family->name, val, key);
        return -1;
    }
    int32_t i = 0;
    while (i < spec->count && strcmp(spec->key[i], key) != 0)
        i++;
    if (i == spec->count) {
        if (spec->count == GEN_MAX_KV) {
            snprintf(err, GEN_ERR_LEN, "too many parameters");
            return -1;
        }
        spec->count++;
    }
    snprintf(spec->key[i], GEN_KEY_LEN, "%s", key);
    snprintf(spec->val[i], GEN_VAL_LEN, "%s", val);
    spec_render(spec);
    return 0;
}

int gen_spec_parse(const char *text, uint64_t default_seed, gen_spec *spec,
                   char err[GEN_ERR_LEN])
{
    memset(spec, 0, sizeof *spec);
    spec->seed = default_seed;
    char buf[GEN_SPEC_LEN];
    if (strlen(text) >= sizeof buf) {
        snprintf(err, GEN_ERR_LEN, "spec too long: %.40s...", text);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", text);
    char *colon = strchr(buf, ':');
    if (colon)
        *colon = '\0';
    spec->family = gen_family_find(buf);
    if (!spec->family) {
        snprintf(err, GEN_ERR_LEN, "unknown family '%.64s' (see gcut-gen --help)", buf);
        return -1;
    }
    spec_render(spec);
    if (!colon || !colon[1])
        return 0;
    char *save = NULL;
    for (char *tok = strtok_r(colon + 1, ",;", &save); tok; tok = strtok_r(NULL, ",;", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok) {
            snprintf(err, GEN_ERR_LEN, "%s: expected key=value, got '%s'", spec->family->name,
                     tok);
            return -1;
        }
        *eq = '\0';
        if (gen_spec_set(spec, tok, eq + 1, err) != 0)
            return -1;
    }
    return 0;
}

const char *gen_spec_str(const gen_spec *spec, const char *key)
{
    for (int32_t i = 0; i < spec->count; i++)
        if (strcmp(spec->key[i], key) == 0)
            return spec->val[i];
    const gen_param *p = find_param(spec->family, key);
    return p ? p->def : "";
}

int gen_spec_int(const gen_spec *spec, const char *key, int64_t lo, int64_t hi, int64_t *out,
                 char err[GEN_ERR_LEN])
{
    const char *val = gen_spec_str(spec, key);
    char *end;
    errno = 0;
    long long x = strtoll(val, &end, 0);
    /* Accept 1e6-style integers too: people write n=1e6. */
    if (!errno && *end && (*end == 'e' || *end == 'E' || *end == '.')) {
        char *dend;
        double d = strtod(val, &dend);
        if (!*dend && d == floor(d) && fabs(d) < 9.0e18) {
            x = (long long)d;
            end = dend;
        }
    }
    if (errno || end == val || *end) {
        snprintf(err, GEN_ERR_LEN, "%s: %s=%s is not an integer", spec->family->name, key, val);
        return -1;
    }
    if (x < lo || x > hi) {
        snprintf(err, GEN_ERR_LEN, "%s: %s=%lld is out of range [%lld, %lld]",
                 spec->family->name, key, x, (long long)lo, (long long)hi);
        return -1;
    }
    *out = x;
    return 0;
}

int gen_spec_real(const gen_spec *spec, const char *key, double lo, double hi, double *out,
                  char err[GEN_ERR_LEN])
{
    const char *val = gen_spec_str(spec, key);
    char *end;
    errno = 0;
    double x = strtod(val, &end);
    if (errno || end == val || *end || !(x >= lo && x <= hi)) {
        snprintf(err, GEN_ERR_LEN, "%s: %s=%s must be a number in [%g, %g]", spec->family->name,
                 key, val, lo, hi);
        return -1;
    }
    *out = x;
    return 0;
}

gcut_status gen_build(const gen_spec *spec, gcut_graph **out, char err[GEN_ERR_LEN])
{
    if (!spec || !spec->family || !out)
        return gen_fail(GCUT_ERR_INVALID, err, "gen_build: no spec");
    return spec->family->build(spec, out, err);
}
