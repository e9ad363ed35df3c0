/*
 * grid.c - vision grids in 2D (4-, 8-connected) and 3D (6-, 18-,
 * 26-connected), the graphs that segmentation and stereo produce.
 *
 * Two kinds of capacities:
 *
 * - kind=random: every terminal capacity and every neighbour capacity,
 *   each direction on its own (sym=0) or both alike (sym=1), uniform in
 *   [0, maxcap]. This is the "random grid" of the max-flow literature
 *   (e.g. the 4-connected 512x512 and 2048x2048 grids with capacities in
 *   [0, 100] on which BK, HPF and hi_pr are usually compared); with sym=1
 *   it is the family of the project's grid_*.max files.
 *
 * - kind=vision: a synthetic 8-bit image (grey background, `blobs` bright
 *   discs or balls, Gaussian noise of deviation `noise`) and the energy of
 *   Boykov & Jolly, "Interactive graph cuts for optimal boundary & region
 *   segmentation of objects in N-D images", ICCV 2001: t-links are the
 *   negative log-likelihoods of the pixel under the foreground and
 *   background Gaussians, n-links the contrast-sensitive Potts weight
 *   lambda * exp(-beta (I_p - I_q)^2) / dist(p, q) with
 *   beta = 1 / (2 <(I_p - I_q)^2>) as in Rother, Kolmogorov & Blake,
 *   "GrabCut", SIGGRAPH 2004. Energies are in nats and quantised as
 *   round(scale * E) to int32. The source side is the foreground:
 *   cap_source[p] = D_p(background), cap_sink[p] = D_p(foreground).
 *
 * - kind=phantom: the same energy on a head-like phantom instead of balls
 *   (a 3-D segmentation volume that looks like a scan): nested ellipsoids
 *   in the manner of Shepp & Logan's head phantom (Shepp & Logan, "The
 *   Fourier reconstruction of a head section", IEEE Trans. Nucl. Sci.
 *   1974; the 3-D extension of Kak & Slaney's book) with grey levels of a
 *   T1-like scan (air, a bright skull shell, grey matter at the foreground
 *   mean, white matter, dark ventricles at the background mean, lesions in
 *   between), a smooth intensity bias along z, partial-volume blur (a 3^3
 *   box) and Gaussian noise. The foreground is then a shell with holes and
 *   thin structures, not convex blobs. `blobs` is the number of lesions.
 *
 * Node (x, y, z) is x + w*(y + h*z). Each unordered neighbour pair is one
 * edge v -> v + offset for the offsets of one half of the neighbourhood
 * (cap in that direction, rev_cap in the other), so the edge count is the
 * sum over those offsets (dx, dy, dz) of (w-|dx|)(h-|dy|)(d-|dz|). Edges are generated
 * node by node, which keeps the arcs of a node together in memory.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define FG_MEAN 160.0
#define BG_MEAN 80.0

typedef struct offset {
    int32_t dx, dy, dz;
} offset;

/* The half of the neighbourhood whose first non-zero of (dz, dy, dx) is
 * positive: every unordered neighbour pair is met exactly once. */
static int32_t half_offsets(int conn, int three_d, offset *o)
{
    int32_t k = 0;
    const int l1max = three_d ? (conn == 6 ? 1 : conn == 18 ? 2 : 3) : (conn == 4 ? 1 : 2);
    for (int dz = three_d ? -1 : 0; dz <= (three_d ? 1 : 0); dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                const int first = dz != 0 ? dz : dy != 0 ? dy : dx;
                if (first <= 0 || abs(dx) + abs(dy) + abs(dz) > l1max)
                    continue;
                o[k].dx = dx;
                o[k].dy = dy;
                o[k].dz = dz;
                k++;
            }
    return k;
}

typedef struct grid_cfg {
    int64_t w, h, d;
    int32_t noff;
    offset off[13];
    int vision;
    int phantom; /* kind=phantom: the head phantom instead of balls */
    int32_t maxcap;
    int sym;
    int64_t blobs;
    double noise, lambda, scale;
} grid_cfg;

/* The synthetic image: background BG_MEAN, discs (2D) or balls (3D) of
 * FG_MEAN with radii between 5% and 20% of the smallest side, plus noise;
 * rounded and clamped to 8 bits like a camera image. */
static uint8_t *make_image(const grid_cfg *c, uint64_t seed)
{
    const int64_t n = c->w * c->h * c->d;
    uint8_t *img = malloc((size_t)n);
    double *blob = malloc((size_t)(c->blobs > 0 ? c->blobs : 1) * 4 * sizeof *blob);
    if (!img || !blob) {
        free(img);
        free(blob);
        return NULL;
    }
    gen_rng rng;
    gen_rng_seed(&rng, seed, 1);
    int64_t side = c->w < c->h ? c->w : c->h;
    if (c->d > 1 && c->d < side)
        side = c->d;
    for (int64_t b = 0; b < c->blobs; b++) {
        blob[4 * b + 0] = gen_rng_unit(&rng) * (double)c->w;
        blob[4 * b + 1] = gen_rng_unit(&rng) * (double)c->h;
        blob[4 * b + 2] = c->d > 1 ? gen_rng_unit(&rng) * (double)c->d : 0.0;
        const double rad = (0.05 + 0.15 * gen_rng_unit(&rng)) * (double)side;
        blob[4 * b + 3] = rad * rad;
    }
    int64_t v = 0;
    for (int64_t z = 0; z < c->d; z++)
        for (int64_t y = 0; y < c->h; y++)
            for (int64_t x = 0; x < c->w; x++, v++) {
                int fg = 0;
                for (int64_t b = 0; b < c->blobs && !fg; b++) {
                    const double ex = (double)x - blob[4 * b], ey = (double)y - blob[4 * b + 1],
                                 ez = (double)z - blob[4 * b + 2];
                    fg = ex * ex + ey * ey + ez * ez <= blob[4 * b + 3];
                }
                double val = (fg ? FG_MEAN : BG_MEAN) + c->noise * gen_rng_normal(&rng);
                val = floor(val + 0.5);
                img[v] = (uint8_t)(val < 0 ? 0 : val > 255 ? 255 : val);
            }
    free(blob);
    return img;
}

/* An ellipsoid in the phantom's unit cube [-1, 1]^3: centre, semi-axes,
 * rotation about z (degrees), and the grey level it adds. */
typedef struct ellipsoid {
    double x, y, z, a, b, c, phi, add;
} ellipsoid;

/* The head (values add up, as in Shepp and Logan's phantom): air 20, skull
 * shell 20 + 210 = 230, brain 230 - 70 = 160 (the foreground mean), white
 * matter 130, ventricles 80 (the background mean), lesions 110-125. */
static const ellipsoid head[] = {
    {0.0, 0.0, 0.0, 0.69, 0.92, 0.81, 0.0, 210.0},     /* skull, outer */
    {0.0, -0.0184, 0.0, 0.6624, 0.874, 0.78, 0.0, -70.0}, /* brain */
    {0.0, -0.02, 0.05, 0.52, 0.70, 0.55, 0.0, -30.0},  /* white matter */
    {0.22, 0.0, 0.05, 0.11, 0.31, 0.22, -18.0, -50.0}, /* right ventricle */
    {-0.22, 0.0, 0.05, 0.16, 0.41, 0.28, 18.0, -50.0}, /* left ventricle */
    {0.0, 0.35, -0.15, 0.21, 0.25, 0.41, 0.0, 20.0},   /* a denser region */
};

static double inside(const ellipsoid *e, double x, double y, double z)
{
    const double t = e->phi * 3.14159265358979323846 / 180.0, ct = cos(t), st = sin(t);
    const double u = (x - e->x) * ct + (y - e->y) * st, v = -(x - e->x) * st + (y - e->y) * ct;
    const double w = z - e->z;
    return u * u / (e->a * e->a) + v * v / (e->b * e->b) + w * w / (e->c * e->c) <= 1.0;
}

/* The phantom image: grey levels, partial-volume blur, bias, noise. */
static uint8_t *make_phantom(const grid_cfg *c, uint64_t seed)
{
    const int64_t n = c->w * c->h * c->d;
    float *v = malloc((size_t)n * sizeof *v), *t = malloc((size_t)n * sizeof *t);
    uint8_t *img = malloc((size_t)n);
    const int64_t nl = c->blobs > 0 ? c->blobs : 0;
    ellipsoid *les = malloc((size_t)(nl > 0 ? nl : 1) * sizeof *les);
    if (!v || !t || !img || !les) {
        free(v);
        free(t);
        free(img);
        free(les);
        return NULL;
    }
    gen_rng rng;
    gen_rng_seed(&rng, seed, 1);
    for (int64_t k = 0; k < nl; k++) { /* small lesions inside the white matter */
        const double r = 0.03 + 0.05 * gen_rng_unit(&rng);
        les[k] = (ellipsoid){0.8 * (gen_rng_unit(&rng) - 0.5), 0.9 * (gen_rng_unit(&rng) - 0.5),
                             0.7 * (gen_rng_unit(&rng) - 0.5) + 0.05, r, r * (0.7 + 0.6 * gen_rng_unit(&rng)),
                             r, 180.0 * gen_rng_unit(&rng), -20.0 + 15.0 * gen_rng_unit(&rng)};
    }
    const int three_d = c->d > 1;
    for (int64_t z = 0; z < c->d; z++)
        for (int64_t y = 0; y < c->h; y++)
            for (int64_t x = 0; x < c->w; x++) {
                const double px = 2.0 * (x + 0.5) / c->w - 1.0, py = 2.0 * (y + 0.5) / c->h - 1.0;
                const double pz = three_d ? 2.0 * (z + 0.5) / c->d - 1.0 : 0.05;
                double g = 20.0;
                for (size_t k = 0; k < sizeof head / sizeof head[0]; k++)
                    if (inside(&head[k], px, py, pz))
                        g += head[k].add;
                for (int64_t k = 0; k < nl; k++)
                    if (inside(&les[k], px, py, pz))
                        g += les[k].add;
                v[x + c->w * (y + c->h * z)] = (float)g;
            }
    /* Partial volume: a 3-tap box along each axis (edges clamped). */
    const int64_t step[3] = {1, c->w, c->w * c->h}, len[3] = {c->w, c->h, c->d};
    for (int a = 0; a < 3; a++) {
        if (len[a] < 2)
            continue;
        for (int64_t i = 0; i < n; i++) {
            const int64_t pos = (i / step[a]) % len[a];
            const float lo = pos > 0 ? v[i - step[a]] : v[i];
            const float hi = pos + 1 < len[a] ? v[i + step[a]] : v[i];
            t[i] = (lo + v[i] + hi) / 3.0f;
        }
        float *sw = v;
        v = t;
        t = sw;
    }
    for (int64_t i = 0; i < n; i++) { /* a bias of +-8 % along z, then noise */
        const int64_t z = i / (c->w * c->h);
        const double bias = 1.0 + 0.16 * ((z + 0.5) / c->d - 0.5);
        double g = floor(v[i] * bias + c->noise * gen_rng_normal(&rng) + 0.5);
        img[i] = (uint8_t)(g < 0 ? 0 : g > 255 ? 255 : g);
    }
    free(v);
    free(t);
    free(les);
    return img;
}

static int32_t quantise(double x)
{
    x = floor(x + 0.5);
    return x <= 0 ? 0 : x >= (double)INT32_MAX ? INT32_MAX : (int32_t)x;
}

/* Mean squared difference of neighbouring intensities, over all pairs of
 * the neighbourhood (GrabCut's beta uses the same set as the n-links). */
static double mean_sq_diff(const grid_cfg *c, const uint8_t *img)
{
    double sum = 0.0;
    int64_t pairs = 0;
    for (int32_t k = 0; k < c->noff; k++) {
        const offset o = c->off[k];
        const int64_t step = o.dx + c->w * (o.dy + c->h * o.dz);
        for (int64_t z = 0; z + o.dz < c->d; z++)
            for (int64_t y = o.dy < 0 ? 1 : 0; y < c->h && y + o.dy < c->h; y++) {
                int64_t x0 = o.dx < 0 ? 1 : 0, x1 = o.dx > 0 ? c->w - 1 : c->w;
                const uint8_t *row = img + c->w * (y + c->h * z);
                uint64_t acc = 0;
                for (int64_t x = x0; x < x1; x++) {
                    const int32_t diff = (int32_t)row[x] - (int32_t)row[x + step];
                    acc += (uint64_t)(diff * diff);
                }
                sum += (double)acc;
                pairs += x1 - x0;
            }
    }
    return pairs > 0 ? sum / (double)pairs : 0.0;
}

static gcut_status build_grid(const gen_spec *spec, grid_cfg *c, gcut_graph **out,
                              char err[GEN_ERR_LEN])
{
    const char *fam = spec->family->name;
    const int64_t n64 = c->w * c->h * c->d;
    if (n64 > INT32_MAX)
        return gen_fail(GCUT_ERR_OVERFLOW, err, "%s: %lld nodes is too many", fam,
                        (long long)n64);
    const int32_t n = (int32_t)n64;
    int64_t edges = 0;
    for (int32_t k = 0; k < c->noff; k++) {
        const offset o = c->off[k];
        const int64_t ex = c->w - abs(o.dx), ey = c->h - abs(o.dy), ez = c->d - abs(o.dz);
        if (ex > 0 && ey > 0 && ez > 0)
            edges += ex * ey * ez;
    }

    /* Lookup tables for the vision energy: t-links by intensity, n-links by
     * |difference| for each of the three distances 1, sqrt2, sqrt3. */
    int32_t tsrc[256], tsnk[256], nlink[4][256];
    uint8_t *img = NULL;
    if (c->vision) {
        img = c->phantom ? make_phantom(c, spec->seed) : make_image(c, spec->seed);
        if (!img)
            return gen_fail(GCUT_ERR_NOMEM, err, "%s: out of memory", fam);
        const double msd = mean_sq_diff(c, img);
        const double beta = msd > 0 ? 1.0 / (2.0 * msd) : 0.0;
        const double s2 = 2.0 * c->noise * c->noise;
        for (int i = 0; i < 256; i++) {
            const double dfg = s2 > 0 ? (i - FG_MEAN) * (i - FG_MEAN) / s2 : 0.0;
            const double dbg = s2 > 0 ? (i - BG_MEAN) * (i - BG_MEAN) / s2 : 0.0;
            tsrc[i] = quantise(c->scale * dbg);
            tsnk[i] = quantise(c->scale * dfg);
            for (int dist2 = 1; dist2 <= 3; dist2++)
                nlink[dist2][i] = quantise(c->scale * c->lambda * exp(-beta * i * i) /
                                           sqrt((double)dist2));
        }
    }

    gcut_graph *g = NULL;
    gcut_status st = gcut_graph_new(&g, n, edges);
    if (st != GCUT_OK) {
        free(img);
        return gen_fail_gcut(st, fam, err);
    }
    gen_rng rng;
    gen_rng_seed(&rng, spec->seed, 0);
    gen_edges *eb = gen_edges_new(g);
    int32_t *src = malloc(GEN_CHUNK * sizeof *src);
    int32_t *snk = malloc(GEN_CHUNK * sizeof *snk);
    if (!eb || !src || !snk) {
        gen_edges_finish(eb);
        free(src);
        free(snk);
        free(img);
        gcut_graph_free(g);
        return gen_fail(GCUT_ERR_NOMEM, err, "%s: out of memory", fam);
    }
    const int32_t w = (int32_t)c->w, h = (int32_t)c->h, d = (int32_t)c->d;
    int32_t step[13], dist2[13];
    for (int32_t k = 0; k < c->noff; k++) {
        step[k] = c->off[k].dx + w * (c->off[k].dy + h * c->off[k].dz);
        dist2[k] = abs(c->off[k].dx) + abs(c->off[k].dy) + abs(c->off[k].dz);
    }
    int32_t v = 0, tfirst = 0, tlen = 0;
    for (int32_t z = 0; z < d; z++)
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++, v++) {
                if (c->vision) {
                    src[tlen] = tsrc[img[v]];
                    snk[tlen] = tsnk[img[v]];
                } else {
                    src[tlen] = gen_rng_range(&rng, 0, c->maxcap);
                    snk[tlen] = gen_rng_range(&rng, 0, c->maxcap);
                }
                if (++tlen == GEN_CHUNK) {
                    if (st == GCUT_OK)
                        st = gcut_graph_add_tweights_bulk(g, tfirst, tlen, src, snk);
                    tfirst += tlen;
                    tlen = 0;
                }
                for (int32_t k = 0; k < c->noff; k++) {
                    const offset o = c->off[k];
                    if (x + o.dx < 0 || x + o.dx >= w || y + o.dy >= h || y + o.dy < 0 ||
                        z + o.dz >= d)
                        continue;
                    const int32_t u = v + step[k];
                    int32_t cap, rev;
                    if (c->vision) {
                        cap = rev = nlink[dist2[k]][abs((int)img[v] - (int)img[u])];
                    } else {
                        cap = gen_rng_range(&rng, 0, c->maxcap);
                        rev = c->sym ? cap : gen_rng_range(&rng, 0, c->maxcap);
                    }
                    gen_edges_push(eb, v, u, cap, rev);
                }
            }
    if (st == GCUT_OK && tlen > 0)
        st = gcut_graph_add_tweights_bulk(g, tfirst, tlen, src, snk);
    gcut_status st2 = gen_edges_finish(eb);
    if (st == GCUT_OK)
        st = st2;
    free(src);
    free(snk);
    free(img);
    if (st != GCUT_OK) {
        gcut_graph_free(g);
        return gen_fail_gcut(st, fam, err);
    }
    *out = g;
    return GCUT_OK;
}

/* Parameters common to both dimensions. */
static int read_common(const gen_spec *spec, grid_cfg *c, char err[GEN_ERR_LEN])
{
    const char *kind = gen_spec_str(spec, "kind");
    if (strcmp(kind, "random") == 0)
        c->vision = 0;
    else if (strcmp(kind, "vision") == 0)
        c->vision = 1;
    else if (strcmp(kind, "phantom") == 0)
        c->vision = c->phantom = 1;
    else {
        gen_fail(GCUT_ERR_INVALID, err, "%s: kind=%s: expected random, vision or phantom",
                 spec->family->name, kind);
        return -1;
    }
    int64_t maxcap, sym;
    if (gen_spec_int(spec, "maxcap", 0, INT32_MAX - 1, &maxcap, err) ||
        gen_spec_int(spec, "sym", 0, 1, &sym, err) ||
        gen_spec_int(spec, "blobs", 0, 1000000, &c->blobs, err) ||
        gen_spec_real(spec, "noise", 0, 1e6, &c->noise, err) ||
        gen_spec_real(spec, "lambda", 0, 1e9, &c->lambda, err) ||
        gen_spec_real(spec, "scale", 0, 1e9, &c->scale, err))
        return -1;
    c->maxcap = (int32_t)maxcap;
    c->sym = (int)sym;
    return 0;
}

gcut_status gen_build_grid2d(const gen_spec *spec, gcut_graph **out, char err[GEN_ERR_LEN])
{
    grid_cfg c;
    memset(&c, 0, sizeof c);
    int64_t conn;
    if (gen_spec_int(spec, "w", 1, INT32_MAX, &c.w, err) ||
        gen_spec_int(spec, "h", 1, INT32_MAX, &c.h, err) ||
        gen_spec_int(spec, "conn", 4, 8, &conn, err) || read_common(spec, &c, err))
        return GCUT_ERR_INVALID;
    if (conn != 4 && conn != 8)
        return gen_fail(GCUT_ERR_INVALID, err, "grid2d: conn=%lld: expected 4 or 8",
                        (long long)conn);
    c.d = 1;
    c.noff = half_offsets((int)conn, 0, c.off);
    return build_grid(spec, &c, out, err);
}

gcut_status gen_build_grid3d(const gen_spec *spec, gcut_graph **out, char err[GEN_ERR_LEN])
{
    grid_cfg c;
    memset(&c, 0, sizeof c);
    int64_t conn;
    if (gen_spec_int(spec, "w", 1, INT32_MAX, &c.w, err) ||
        gen_spec_int(spec, "h", 1, INT32_MAX, &c.h, err) ||
        gen_spec_int(spec, "d", 1, INT32_MAX, &c.d, err) ||
        gen_spec_int(spec, "conn", 6, 26, &conn, err) || read_common(spec, &c, err))
        return GCUT_ERR_INVALID;
    if (conn != 6 && conn != 18 && conn != 26)
        return gen_fail(GCUT_ERR_INVALID, err, "grid3d: conn=%lld: expected 6, 18 or 26",
                        (long long)conn);
    /* Overflow of w*h*d is checked in build_grid; guard the product itself. */
    if (c.w * c.h > INT32_MAX || c.w * c.h * c.d > INT32_MAX)
        return gen_fail(GCUT_ERR_OVERFLOW, err, "grid3d: w*h*d is too many nodes");
    c.noff = half_offsets((int)conn, 1, c.off);
    return build_grid(spec, &c, out, err);
}
