/*
 * test_gpu_vision_energy.c - the segmentation energies evaluated on the
 * device (cuda-grid's "gcut.vision.seg" extension, vision/vision_plugin.h) against the CPU code.
 *
 * Two sessions on the same image and seeds, one solved with cpu-bk (CPU
 * energies), one with cuda-grid (device energies), and everything they
 * computed compared:
 *  - beta, the pair weights, the GMM models, the data costs and the best
 *    components (float arrays: exact matches counted, largest difference
 *    in units in the last place; the first mismatch printed with its pixel);
 *  - the quantised grid: every direction array and both terminal arrays
 *    (exact matches, largest difference, D = the sum of the differences);
 *  - the cuts: with D = 0 the masks must be identical (both cuts are the
 *    canonical cut of the same grid); otherwise the device's cut, costed on
 *    the CPU's grid, must be within 2 D of the CPU's minimum, and its float
 *    energy within the quantisation bound (4 D + T) / scale of the CPU
 *    cut's (T = the number of rounded terms);
 *  - GrabCut iterations, strokes, and the fallbacks (another back end,
 *    gcut_seg_options::device_energies = 0, bad calls to the plugin).
 *
 * The device follows the CPU's formulas and operation order
 * (vision/segment/segment_math_internal.h, compiled with -fmad=false), so the
 * values are expected to be identical; what is asserted is what the
 * energies need: capacities equal or 1 apart on rare pixels, cuts within
 * the bounds above. With GCUT_SEG_STRICT=1 every array must match bit for
 * bit (except the moments of 16-bit images, which are summed in another
 * order). GCUT_GPU_QUICK=1 (sanitizer runs) keeps to the small images.
 *
 * Exits 77 (skip) when cuda-grid is unavailable.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gcut/vision/image.h"
#include "gcut/vision/segment.h"
#include "segment/segment_internal.h"
#include "testutil.h"
#include "vision_plugin.h"

static int g_strict, g_quick;

/* ------------------------------------------------------------ images */

enum { IMG_SCENE, IMG_GRAY, IMG_DEEP, IMG_FLAT };

/* A scene: a gradient with noise, an ellipse of another colour, a few
 * blobs; or its gray version, or 16 bits per sample, or one flat colour. */
static gcut_image *make_image(int32_t w, int32_t h, int kind, uint64_t seed)
{
    gcut_image *img = NULL;
    const int32_t ch = kind == IMG_GRAY ? 1 : 3, depth = kind == IMG_DEEP ? 16 : 8;
    assert_int_equal(gcut_image_new(&img, w, h, ch, depth), GCUT_OK);
    tu_rng r = {seed};
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            const double ex = (x - 0.5 * w) / (0.3 * w + 1), ey = (y - 0.5 * h) / (0.25 * h + 1);
            const int in = ex * ex + ey * ey < 1.0;
            const int blob = ((x / 7) + (y / 5)) % 11 == 0;
            int32_t v[3];
            for (int c = 0; c < 3; c++) {
                int32_t base = in ? 180 - 40 * c : 40 + (int32_t)(120.0 * x / w) + 20 * c;
                if (blob)
                    base = 240 - 90 * c;
                v[c] = base + (int32_t)tu_range(&r, -18, 18);
                v[c] = v[c] < 0 ? 0 : v[c] > 255 ? 255 : v[c];
                if (kind == IMG_FLAT)
                    v[c] = 90 + 10 * c;
            }
            uint8_t *row = img->data + (size_t)y * img->stride;
            if (depth == 16) {
                uint16_t *o = (uint16_t *)(void *)row;
                for (int c = 0; c < 3; c++)
                    o[3 * x + c] = (uint16_t)(v[c] * 257 + tu_range(&r, 0, 200));
            } else if (ch == 1) {
                row[x] = (uint8_t)((v[0] + v[1] + v[2]) / 3);
            } else {
                for (int c = 0; c < 3; c++)
                    row[3 * x + c] = (uint8_t)v[c];
            }
        }
    return img;
}

enum { SEEDS_RECT, SEEDS_SCRIBBLE };

/* A GrabCut rectangle (15% margins), or scribbles: an unknown rectangle,
 * background around it, foreground patches inside it and outside it (the
 * latter outside the box: its costs take the host's scalar path). */
static uint8_t *make_seeds(int32_t w, int32_t h, int kind)
{
    uint8_t *s = malloc((size_t)w * h);
    assert_non_null(s);
    if (kind == SEEDS_RECT) {
        int32_t x0 = w * 15 / 100, y0 = h * 15 / 100;
        int32_t rw = w - 2 * x0, rh = h - 2 * y0;
        if (rw == w && rh == h) {
            /* Too small for margins: keep a background row or column. */
            if (h > 1) {
                y0 = 1;
                rh = h - 1;
            } else {
                x0 = 1;
                rw = w - 1;
            }
        }
        assert_int_equal(gcut_seeds_from_rect(w, h, x0, y0, rw, rh, s), GCUT_OK);
        return s;
    }
    memset(s, GCUT_SEED_BG, (size_t)w * h);
    const int32_t x0 = w / 4, x1 = w - w / 5, y0 = h / 5, y1 = h - h / 4;
    for (int32_t y = y0; y < y1; y++)
        for (int32_t x = x0; x < x1; x++)
            s[(int64_t)y * w + x] = GCUT_SEED_UNKNOWN;
    for (int32_t y = h / 2 - 2; y <= h / 2 + 2; y++)
        for (int32_t x = w / 2 - 3; x <= w / 2 + 3; x++)
            if (x >= 0 && x < w && y >= 0 && y < h)
                s[(int64_t)y * w + x] = GCUT_SEED_FG;
    for (int32_t y = 1; y < 4 && y < h; y++)
        for (int32_t x = 1; x < 5 && x < w; x++)
            s[(int64_t)y * w + x] = GCUT_SEED_FG;
    return s;
}

/* ------------------------------------------------------------ comparisons */

/* Distance in units in the last place of two floats of the same sign. */
static int64_t ulps(float a, float b)
{
    if (a == b)
        return 0;
    if (isnan(a) || isnan(b) || (a < 0) != (b < 0))
        return INT64_MAX;
    int32_t ia, ib;
    memcpy(&ia, &a, 4);
    memcpy(&ib, &b, 4);
    return llabs((long long)ia - (long long)ib);
}

/* Compare n floats (row width w, for the message); returns the mismatches. */
static int64_t cmp_floats(const char *label, const char *what, const float *a, const float *b,
                          int64_t n, int32_t w, const uint8_t *only, int64_t *max_ulps)
{
    int64_t diff = 0, worst = 0, first = -1;
    for (int64_t p = 0; p < n; p++) {
        if (only && !only[p])
            continue;
        const int64_t u = ulps(a[p], b[p]);
        if (u == 0)
            continue;
        diff++;
        if (u > worst)
            worst = u;
        if (first < 0)
            first = p;
    }
    if (diff)
        print_message("%s: %s: %lld values differ, up to %lld ulps; first at pixel %lld "
                      "(x %d, y %d): cpu %.9g, gpu %.9g\n",
                      label, what, (long long)diff, (long long)worst, (long long)first,
                      (int)(first % w), (int)(first / w), a[first], b[first]);
    *max_ulps = worst;
    return diff;
}

typedef struct cap_report {
    int64_t entries, diff, sum; /* compared, differing, sum of |differences| */
    int32_t max;
} cap_report;

static void cmp_caps(const char *label, const char *what, const int32_t *a, const int32_t *b,
                     int64_t n, int32_t bw, cap_report *r)
{
    int64_t first = -1;
    int32_t worst = 0;
    int64_t diff = 0;
    for (int64_t v = 0; v < n; v++) {
        const int64_t d = llabs((long long)a[v] - (long long)b[v]);
        if (!d)
            continue;
        diff++;
        r->sum += d;
        if (d > worst)
            worst = (int32_t)(d > INT32_MAX ? INT32_MAX : d);
        if (first < 0)
            first = v;
    }
    r->entries += n;
    r->diff += diff;
    if (worst > r->max)
        r->max = worst;
    if (diff)
        print_message("%s: %s: %lld of %lld capacities differ, up to %d; first at node %lld "
                      "(box x %d, y %d): cpu %d, gpu %d\n",
                      label, what, (long long)diff, (long long)n, (int)worst, (long long)first,
                      (int)(first % bw), (int)(first / bw), (int)a[first], (int)b[first]);
}

/* The cost of the cut a labelling of the grid makes (1: source side). */
static int64_t cut_cost(const gcut_grid *g, const uint8_t *lab)
{
    const int32_t w = gcut_grid_width(g), h = gcut_grid_height(g);
    const int32_t conn = gcut_grid_connectivity(g);
    const int32_t *src = gcut_grid_caps(g, GCUT_GRID_SOURCE_LINK);
    const int32_t *snk = gcut_grid_caps(g, GCUT_GRID_SINK_LINK);
    int64_t c = 0;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            const int64_t v = (int64_t)y * w + x;
            c += lab[v] ? snk[v] : src[v];
            if (!lab[v])
                continue;
            for (int32_t d = 0; d < conn; d++) {
                int32_t dx, dy, dz;
                assert_int_equal(gcut_grid_direction(conn, d, &dx, &dy, &dz), GCUT_OK);
                const int32_t nx = x + dx, ny = y + dy;
                if (nx < 0 || nx >= w || ny < 0 || ny >= h || lab[(int64_t)ny * w + nx])
                    continue;
                c += gcut_grid_caps(g, d)[v];
            }
        }
    return c;
}

/* The labelling of the box of a mask (1 foreground). */
static uint8_t *box_labels(const uint8_t *mask, int32_t w, gcut_i_box b)
{
    uint8_t *l = malloc((size_t)b.w * b.h + 1);
    assert_non_null(l);
    for (int32_t y = 0; y < b.h; y++)
        for (int32_t x = 0; x < b.w; x++)
            l[(int64_t)y * b.w + x] = mask[(int64_t)(b.y0 + y) * w + b.x0 + x] == GCUT_MASK_FG;
    return l;
}

static void cmp_models(const char *label, const gcut_i_gmm *a, const gcut_i_gmm *b, int exact)
{
    for (int32_t c = 0; c < a->k; c++) {
        double worst = fabs(a->weight[c] - b->weight[c]);
        for (int i = 0; i < 3; i++)
            worst = fmax(worst, fabs(a->mean[c][i] - b->mean[c][i]) / (1.0 + fabs(a->mean[c][i])));
        for (int i = 0; i < 9; i++)
            worst = fmax(worst, fabs(a->cov[c][i] - b->cov[c][i]) / (1.0 + fabs(a->cov[c][i])));
        if (worst != 0.0)
            print_message("%s: GMM component %d differs by %.3g (relative)\n", label, (int)c,
                          worst);
        if (exact && worst != 0.0)
            fail_msg("%s: GMM component %d: cpu weight %.17g mean %.17g %.17g %.17g, gpu "
                     "weight %.17g mean %.17g %.17g %.17g",
                     label, (int)c, a->weight[c], a->mean[c][0], a->mean[c][1], a->mean[c][2],
                     b->weight[c], b->mean[c][0], b->mean[c][1], b->mean[c][2]);
        assert_true(worst < 1e-9);
    }
}

/* ------------------------------------------------------------ one case */

typedef struct seg_case {
    const char *name;
    int32_t w, h;
    int image, seeds;
    int32_t conn, k;
    gcut_seg_model model;
    double lambda;
} seg_case;

/* A session of case c solved with `backend` (NULL: "auto"), its energies
 * on the device where that back end offers them unless device_energies
 * is 0. */
static gcut_seg_session *open_session_on(const gcut_image *img, const uint8_t *seeds,
                                         const seg_case *c, const char *backend,
                                         int32_t device_energies)
{
    gcut_seg_options p;
    gcut_seg_options_init(&p);
    p.connectivity = c->conn;
    p.components = c->k;
    p.model = c->model;
    p.lambda = c->lambda;
    p.device_energies = device_energies;
    if (backend)
        p.solve.backend = backend;
    gcut_seg_session *s = NULL;
    if (gcut_seg_session_new(&s, img, seeds, &p) != GCUT_OK)
        fail_msg("%s: session on %s: %s", c->name, backend ? backend : "auto",
                 gcut_last_error());
    return s;
}

static gcut_seg_session *open_session(const gcut_image *img, const uint8_t *seeds,
                                      const seg_case *c, const char *backend)
{
    return open_session_on(img, seeds, c, backend, 1);
}

/* Everything two sessions computed, after their first solve. Returns the
 * sum of the capacity differences. */
static int64_t compare_sessions(const char *label, gcut_seg_session *a, gcut_seg_session *b,
                                const uint8_t *seeds, int deep, int gmm, const uint8_t *ma,
                                const uint8_t *mb, double scale)
{
    const gcut_i_energy *ea = gcut_i_seg_session_energy(a), *eb = gcut_i_seg_session_energy(b);
    const int32_t w = ea->width, h = ea->height;
    const int64_t n = ea->n;
    int64_t u, floats_diff = 0;
    if (ea->beta != eb->beta) {
        print_message("%s: beta cpu %.17g gpu %.17g\n", label, ea->beta, eb->beta);
        if (g_strict)
            fail_msg("%s: beta differs", label);
    }
    assert_true(fabs(ea->beta - eb->beta) <= 1e-12 * fabs(ea->beta));
    for (int32_t j = 0; j < ea->connectivity / 2; j++) {
        char what[32];
        snprintf(what, sizeof what, "pair weights %d", (int)j);
        floats_diff += cmp_floats(label, what, ea->pair[j], eb->pair[j], n, w, NULL, &u);
        assert_true(u <= 64);
    }
    const int exact_models = !deep;
    if (gmm) {
        cmp_models(label, gcut_i_seg_session_gmm(a, 1), gcut_i_seg_session_gmm(b, 1),
                   exact_models && g_strict);
        cmp_models(label, gcut_i_seg_session_gmm(a, 0), gcut_i_seg_session_gmm(b, 0),
                   exact_models && g_strict);
    }
    /* Data costs where the energy reads them: both classes in the box,
     * the seed's class outside (equal in both arrays there). */
    floats_diff += cmp_floats(label, "foreground costs", ea->dfg, eb->dfg, n, w, NULL, &u);
    assert_true(deep || u <= 64);
    floats_diff += cmp_floats(label, "background costs", ea->dbg, eb->dbg, n, w, NULL, &u);
    assert_true(deep || u <= 64);
    if (gmm) {
        const gcut_i_box box = gcut_i_seed_box(seeds, w, h);
        int64_t cd = 0;
        for (int32_t y = box.y0; y < box.y0 + box.h; y++)
            for (int32_t x = box.x0; x < box.x0 + box.w; x++) {
                const int64_t p = (int64_t)y * w + x;
                cd += gcut_i_seg_session_comp(a, 1)[p] != gcut_i_seg_session_comp(b, 1)[p];
                cd += gcut_i_seg_session_comp(a, 0)[p] != gcut_i_seg_session_comp(b, 0)[p];
            }
        if (cd)
            print_message("%s: %lld best components differ in the box\n", label, (long long)cd);
        floats_diff += cd;
    }
    if (g_strict && !deep && floats_diff)
        fail_msg("%s: %lld float values differ (GCUT_SEG_STRICT)", label, (long long)floats_diff);

    /* The grids. */
    const gcut_grid *ga = gcut_seg_session_grid(a), *gb = gcut_seg_session_grid(b);
    if (!ga || !gb) {
        assert_true(!ga && !gb); /* no unknown pixel: no grid on either side */
        assert_memory_equal(ma, mb, (size_t)n);
        return 0;
    }
    const gcut_i_box box = gcut_i_seed_box(seeds, w, h);
    assert_int_equal(gcut_grid_width(ga), box.w);
    assert_int_equal(gcut_grid_height(ga), box.h);
    assert_int_equal(gcut_grid_width(gb), box.w);
    assert_int_equal(gcut_grid_height(gb), box.h);
    const int64_t nb = (int64_t)box.w * box.h;
    cap_report r;
    memset(&r, 0, sizeof r);
    for (int32_t d = 0; d < ea->connectivity; d++) {
        char what[32];
        snprintf(what, sizeof what, "direction %d", (int)d);
        cmp_caps(label, what, gcut_grid_caps(ga, d), gcut_grid_caps(gb, d), nb, box.w, &r);
    }
    cmp_caps(label, "source", gcut_grid_caps(ga, GCUT_GRID_SOURCE_LINK),
             gcut_grid_caps(gb, GCUT_GRID_SOURCE_LINK), nb, box.w, &r);
    cmp_caps(label, "sink", gcut_grid_caps(ga, GCUT_GRID_SINK_LINK),
             gcut_grid_caps(gb, GCUT_GRID_SINK_LINK), nb, box.w, &r);
    print_message("%s: %lld capacities, %lld exact, %lld differ (max %d, sum %lld)\n", label,
                  (long long)r.entries, (long long)(r.entries - r.diff), (long long)r.diff,
                  (int)r.max, (long long)r.sum);
    if (g_strict && !deep && r.diff)
        fail_msg("%s: capacities differ (GCUT_SEG_STRICT)", label);
    if (r.max > 1 || r.diff > (r.entries / 10000 > 2 ? r.entries / 10000 : 2))
        fail_msg("%s: %lld capacities differ, by up to %d: more than rare differences of 1",
                 label, (long long)r.diff, (int)r.max);

    /* The cuts. */
    uint8_t *la = box_labels(ma, w, box), *lb = box_labels(mb, w, box);
    const int64_t ca = cut_cost(ga, la), cb = cut_cost(ga, lb);
    int64_t masks_diff = 0;
    for (int64_t v = 0; v < nb; v++)
        masks_diff += la[v] != lb[v];
    if (r.sum == 0 && masks_diff)
        fail_msg("%s: identical grids but %lld mask pixels differ", label, (long long)masks_diff);
    if (cb - ca > 2 * r.sum)
        fail_msg("%s: the device's cut costs %lld on the CPU's grid, the CPU's %lld: more than "
                 "2 x %lld apart",
                 label, (long long)cb, (long long)ca, (long long)r.sum);
    /* Float energies of both cuts with the CPU's energy. */
    const double Ea = gcut_i_energy_eval(ea, ma), Eb = gcut_i_energy_eval(ea, mb);
    const double terms = (double)nb * (1 + ea->connectivity / 2);
    const double bound = (4.0 * (double)r.sum + terms) / scale + 1e-9 * fabs(Ea);
    if (masks_diff)
        print_message("%s: %lld mask pixels differ; cut costs %lld / %lld; energies %.9g / "
                      "%.9g (bound %.3g)\n",
                      label, (long long)masks_diff, (long long)ca, (long long)cb, Ea, Eb, bound);
    if (Eb - Ea > bound)
        fail_msg("%s: energy of the device's cut %.9g, of the CPU's %.9g: more than the "
                 "quantisation bound %.3g apart",
                 label, Eb, Ea, bound);
    free(la);
    free(lb);
    return r.sum;
}

/* Both paths on one image and seeds: one cut, GrabCut, strokes. */
static void run_case(const seg_case *c, const gcut_image *img_in, const uint8_t *seeds_in)
{
    gcut_image *own = NULL;
    uint8_t *own_seeds = NULL;
    const gcut_image *img = img_in;
    const uint8_t *seeds = seeds_in;
    if (!img) {
        own = make_image(c->w, c->h, c->image, 1000 + (uint64_t)c->w * 7 + (uint64_t)c->h);
        img = own;
    }
    if (!seeds) {
        own_seeds = make_seeds(img->width, img->height, c->seeds);
        seeds = own_seeds;
    }
    const int32_t w = img->width, h = img->height;
    const int64_t n = (int64_t)w * h;
    const int deep = img->depth == 16, gmm = c->model == GCUT_SEG_GMM;
    uint8_t *ma = malloc((size_t)n), *mb = malloc((size_t)n);
    assert_true(ma && mb);

    /* One cut. */
    gcut_seg_session *a = open_session(img, seeds, c, "cpu-bk");
    gcut_seg_session *b = open_session(img, seeds, c, "cuda-grid");
    assert_false(gcut_i_seg_session_on_device(a));
    if (!gcut_i_seg_session_on_device(b))
        fail_msg("%s: cuda-grid is available but the session did not take the device path "
                 "(see the log: the plugin failed?)",
                 c->name);
    gcut_seg_stats sa, sb;
    assert_int_equal(gcut_seg_session_solve(a, ma, &sa), GCUT_OK);
    if (gcut_seg_session_solve(b, mb, &sb) != GCUT_OK)
        fail_msg("%s: device session solve: %s", c->name, gcut_last_error());
    assert_int_equal(sa.energy_device, 0);
    assert_int_equal(sb.energy_device, 1);
    assert_true(sb.transfer_ms >= 0.0);
    if (sa.scale != sb.scale)
        print_message("%s: scale cpu %.17g gpu %.17g\n", c->name, sa.scale, sb.scale);
    assert_true(fabs(sa.scale - sb.scale) <= 1e-12 * sa.scale);
    char label[160];
    snprintf(label, sizeof label, "%s (one cut)", c->name);
    const int64_t d1 = compare_sessions(label, a, b, seeds, deep, gmm, ma, mb, sa.scale);

    /* GrabCut iterations on the same sessions. */
    gcut_seg_stats ga, gb;
    assert_int_equal(gcut_seg_session_grabcut(a, 4, ma, &ga), GCUT_OK);
    if (gcut_seg_session_grabcut(b, 4, mb, &gb) != GCUT_OK)
        fail_msg("%s: device GrabCut: %s", c->name, gcut_last_error());
    assert_int_equal(gb.energy_device, 1);
    snprintf(label, sizeof label, "%s (GrabCut)", c->name);
    int64_t d2 = 0;
    if (ga.iterations == gb.iterations)
        d2 = compare_sessions(label, a, b, seeds, deep, gmm, ma, mb, ga.scale);
    else if (d1 == 0 && !deep)
        fail_msg("%s: GrabCut ran %d iterations on the CPU, %d on the device, from identical "
                 "grids",
                 c->name, (int)ga.iterations, (int)gb.iterations);
    const int identical = d1 == 0 && d2 == 0 && ga.iterations == gb.iterations;
    if (identical) {
        assert_memory_equal(ma, mb, (size_t)n);
        assert_true(ga.energy == gb.energy);
    }
    print_message("%s: %dx%d c%d k%d %s: one cut %s, GrabCut %d/%d iterations %s, energy "
                  "%.9g / %.9g; device transfers %.1f ms\n",
                  c->name, (int)w, (int)h, (int)c->conn, (int)c->k, gmm ? "gmm" : "hist",
                  d1 ? "close" : "identical", (int)ga.iterations, (int)gb.iterations,
                  d2 ? "close" : "identical", ga.energy, gb.energy,
                  sb.transfer_ms + gb.transfer_ms);

    /* Strokes: one inside the box (warm t-links), one outside (rebuild). */
    const gcut_i_box box = gcut_i_seed_box(seeds, w, h);
    if (box.w > 2 && box.h > 2) {
        int32_t in[3] = {(box.y0 + box.h / 2) * w + box.x0 + box.w / 2,
                         (box.y0 + box.h / 2) * w + box.x0 + box.w / 2 + 1,
                         (box.y0 + 1) * w + box.x0 + 1};
        int32_t out[1] = {0};
        for (int pass = 0; pass < 2; pass++) {
            gcut_seg_session *s[2] = {a, b};
            for (int i = 0; i < 2; i++) {
                if (pass == 0)
                    assert_int_equal(gcut_seg_session_add_stroke(s[i], GCUT_SEED_BG, in, 3),
                                     GCUT_OK);
                else
                    assert_int_equal(gcut_seg_session_add_stroke(
                                         s[i], seeds[0] == GCUT_SEED_FG ? GCUT_SEED_BG : GCUT_SEED_FG,
                                         out, 1),
                                     GCUT_OK);
            }
            assert_int_equal(gcut_seg_session_solve(a, ma, &sa), GCUT_OK);
            if (gcut_seg_session_solve(b, mb, &sb) != GCUT_OK)
                fail_msg("%s: device solve after a stroke: %s", c->name, gcut_last_error());
            assert_int_equal(sb.energy_device, 1);
            /* (16-bit images: the models may differ in their last bits.) */
            if (identical && !deep) {
                int64_t md = 0;
                for (int64_t p = 0; p < n; p++)
                    md += ma[p] != mb[p];
                if (md)
                    fail_msg("%s: stroke %d: %lld mask pixels differ", c->name, pass,
                             (long long)md);
                assert_true(sa.energy == sb.energy);
            }
        }
    }
    gcut_seg_session_free(a);
    gcut_seg_session_free(b);
    free(ma);
    free(mb);
    free(own_seeds);
    gcut_image_free(own);
}

/* ------------------------------------------------------------ tests */

static void test_synthetic(void **unused)
{
    (void)unused;
    static const seg_case cases[] = {
        {"rect-c8-k5", 97, 73, IMG_SCENE, SEEDS_RECT, 8, 5, GCUT_SEG_GMM, 50.0},
        {"rect-c4-k3", 97, 73, IMG_SCENE, SEEDS_RECT, 4, 3, GCUT_SEG_GMM, 50.0},
        {"scribble-c8-k5", 80, 61, IMG_SCENE, SEEDS_SCRIBBLE, 8, 5, GCUT_SEG_GMM, 50.0},
        {"scribble-c4-k1", 80, 61, IMG_SCENE, SEEDS_SCRIBBLE, 4, 1, GCUT_SEG_GMM, 20.0},
        {"hist-rect-c8", 97, 73, IMG_SCENE, SEEDS_RECT, 8, 5, GCUT_SEG_HISTOGRAM, 50.0},
        {"hist-scribble-c4", 80, 61, IMG_SCENE, SEEDS_SCRIBBLE, 4, 5, GCUT_SEG_HISTOGRAM, 50.0},
        {"gray-c8-k5", 70, 50, IMG_GRAY, SEEDS_RECT, 8, 5, GCUT_SEG_GMM, 50.0},
        {"deep16-c8-k5", 70, 50, IMG_DEEP, SEEDS_SCRIBBLE, 8, 5, GCUT_SEG_GMM, 50.0},
        {"flat-c8-k2", 40, 30, IMG_FLAT, SEEDS_RECT, 8, 2, GCUT_SEG_GMM, 50.0},
        {"lambda0-c8-k5", 60, 40, IMG_SCENE, SEEDS_RECT, 8, 5, GCUT_SEG_GMM, 0.0},
        {"column-c8", 1, 50, IMG_SCENE, SEEDS_RECT, 8, 2, GCUT_SEG_GMM, 50.0},
        {"row-c4", 50, 1, IMG_SCENE, SEEDS_RECT, 4, 2, GCUT_SEG_GMM, 50.0},
        {"k16-c8", 64, 64, IMG_SCENE, SEEDS_RECT, 8, 16, GCUT_SEG_GMM, 50.0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i], NULL, NULL);
    if (g_quick)
        return;
    /* Sizes past one staging chunk (8 MB) and many reduction tiles. */
    static const seg_case big[] = {
        {"big-rect-c8", 1500, 1100, IMG_SCENE, SEEDS_RECT, 8, 5, GCUT_SEG_GMM, 50.0},
        {"big-scribble-c4", 1201, 999, IMG_SCENE, SEEDS_SCRIBBLE, 4, 5, GCUT_SEG_GMM, 50.0},
    };
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
        run_case(&big[i], NULL, NULL);
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* A few images of the GrabCut set: their rectangles, and the set-1
 * scribbles of one. */
static void test_dataset(void **unused)
{
    (void)unused;
    if (g_quick) {
        print_message("skipped: GCUT_GPU_QUICK\n");
        skip();
    }
    const char *dir = GCUT_SHARED_DATA "/grabcut";
    char path[1024];
    snprintf(path, sizeof path, "%s/index.csv", dir);
    if (!file_exists(path) || !gcut_image_format_available("png") ||
        !gcut_image_format_available("jpeg")) {
        print_message("skipped: no GrabCut dataset at %s (or no PNG/JPEG support)\n", dir);
        skip();
    }
    static const struct {
        const char *file;
        int32_t x0, y0, x1, y1;
        int scribbles;
    } cases[] = {{"banana2.png", 20, 53, 600, 448, 1},
                 {"person8.png", 212, 62, 465, 464, 0},
                 {"106024.jpg", 174, 23, 314, 315, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gcut_image *img = NULL;
        snprintf(path, sizeof path, "%s/images/%s", dir, cases[i].file);
        assert_int_equal(gcut_image_load(path, &img), GCUT_OK);
        const int32_t w = img->width, h = img->height;
        uint8_t *seeds = malloc((size_t)w * h);
        assert_non_null(seeds);
        assert_int_equal(gcut_seeds_from_rect(w, h, cases[i].x0, cases[i].y0,
                                              cases[i].x1 - cases[i].x0 + 1,
                                              cases[i].y1 - cases[i].y0 + 1, seeds),
                         GCUT_OK);
        seg_case c = {cases[i].file, w, h, IMG_SCENE, SEEDS_RECT, 8, 5, GCUT_SEG_GMM, 50.0};
        run_case(&c, img, seeds);
        if (cases[i].scribbles) {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(strlen(cases[i].file) - 4), cases[i].file);
            snprintf(path, sizeof path, "%s/scribbles_andrade_set1/%s.png", dir, name);
            gcut_image *pic = NULL;
            assert_int_equal(gcut_image_load(path, &pic), GCUT_OK);
            assert_int_equal(gcut_seeds_from_image(pic, seeds), GCUT_OK);
            gcut_image_free(pic);
            seg_case s = {"banana2 scribbles", w, h, IMG_SCENE, SEEDS_SCRIBBLE, 4, 5,
                          GCUT_SEG_GMM, 50.0};
            run_case(&s, img, seeds);
        }
        free(seeds);
        gcut_image_free(img);
    }
}

/* gcut_grabcut end to end, cuda-grid against cpu-bk. */
static void test_grabcut_end_to_end(void **unused)
{
    (void)unused;
    const int32_t w = g_quick ? 90 : 400, h = g_quick ? 70 : 300;
    gcut_image *img = make_image(w, h, IMG_SCENE, 77);
    uint8_t *seeds = make_seeds(w, h, SEEDS_RECT);
    uint8_t *ma = malloc((size_t)w * h), *mb = malloc((size_t)w * h);
    assert_true(ma && mb);
    gcut_seg_options p;
    gcut_seg_options_init(&p);
    gcut_seg_stats sa, sb;
    p.solve.backend = "cpu-bk";
    assert_int_equal(gcut_grabcut(img, seeds, 5, &p, ma, &sa), GCUT_OK);
    p.solve.backend = "cuda-grid";
    if (gcut_grabcut(img, seeds, 5, &p, mb, &sb) != GCUT_OK)
        fail_msg("gcut_grabcut on cuda-grid: %s", gcut_last_error());
    assert_int_equal(sb.energy_device, 1);
    assert_string_equal(sb.backend, "cuda-grid");
    int64_t md = 0;
    for (int64_t q = 0; q < (int64_t)w * h; q++)
        md += ma[q] != mb[q];
    print_message("gcut_grabcut %dx%d: %lld mask pixels differ, energies %.9g / %.9g, "
                  "iterations %d / %d, model %.1f / %.1f ms, build %.1f / %.1f ms, transfers "
                  "%.1f ms\n",
                  (int)w, (int)h, (long long)md, sa.energy, sb.energy, (int)sa.iterations,
                  (int)sb.iterations, sa.model_ms, sb.model_ms, sa.build_ms, sb.build_ms,
                  sb.transfer_ms);
    /* Bit-exact energies give the same cuts; allow a handful of pixels
     * only where rounding could tip a tie, and say so. */
    assert_true(md <= (int64_t)w * h / 10000);
    assert_true(fabs(sa.energy - sb.energy) <= 1e-6 * fabs(sa.energy));
    free(ma);
    free(mb);
    free(seeds);
    gcut_image_free(img);
}

/* Another back end, or device_energies = 0: the CPU path. */
static void test_fallbacks(void **unused)
{
    (void)unused;
    gcut_image *img = make_image(30, 20, IMG_SCENE, 5);
    uint8_t *seeds = make_seeds(30, 20, SEEDS_RECT);
    const seg_case c = {"fallback", 30, 20, IMG_SCENE, SEEDS_RECT, 8, 5, GCUT_SEG_GMM, 50.0};
    gcut_seg_session *s = open_session(img, seeds, &c, "cpu-bk");
    assert_false(gcut_i_seg_session_on_device(s));
    gcut_seg_session_free(s);
    s = open_session_on(img, seeds, &c, "cuda-grid", 0);
    assert_false(gcut_i_seg_session_on_device(s));
    uint8_t mask[600];
    gcut_seg_stats st;
    assert_int_equal(gcut_seg_session_solve(s, mask, &st), GCUT_OK);
    assert_int_equal(st.energy_device, 0);
    assert_string_equal(st.backend, "cuda-grid");
    gcut_seg_session_free(s);
    /* $GCUT_BACKEND names it when the parameters do not. */
    setenv("GCUT_BACKEND", "cuda-grid", 1);
    s = open_session(img, seeds, &c, NULL);
    assert_true(gcut_i_seg_session_on_device(s));
    gcut_seg_session_free(s);
    unsetenv("GCUT_BACKEND");
    free(seeds);
    gcut_image_free(img);
}

/* The plugin's own checks: bad boxes and calls out of order are refused. */
static void test_plugin_checks(void **unused)
{
    (void)unused;
    gcut_solve_options so;
    gcut_solve_options_init(&so);
    so.backend = "cuda-grid";
    const gcut_seg_plugin *pl = gcut_i_vision_seg_plugin(&so, NULL);
    assert_non_null(pl);
    assert_int_equal(pl->version, GCUT_SEG_PLUGIN_VERSION);
    so.backend = "cpu-bk";
    assert_null(gcut_i_vision_seg_plugin(&so, NULL));
    float rgb[3 * 12];
    for (int i = 0; i < 36; i++)
        rgb[i] = (float)(i * 7 % 256);
    void *st = NULL;
    assert_int_equal(pl->create(0, 3, rgb, &st), GCUT_ERR_INVALID);
    assert_int_equal(pl->create(4, 3, rgb, &st), GCUT_OK);
    int32_t caps[12], caps2[12];
    double worst;
    const gcut_seg_rect inside = {0, 0, 4, 3}, outside = {2, 1, 3, 3};
    /* Before the weights, seeds and data: refused. */
    assert_int_equal(pl->worst(st, inside, &worst), GCUT_ERR_STATE);
    assert_int_equal(pl->links(st, inside, 1.0, 0, caps), GCUT_ERR_STATE);
    assert_int_equal(pl->terminals(st, inside, 1.0, 1, caps, caps2), GCUT_ERR_STATE);
    gcut_seg_pass ps;
    double mom[GCUT_SEG_MOMENTS];
    memset(&ps, 0, sizeof ps);
    ps.k = 1;
    assert_int_equal(pl->gmm_pass(st, &ps, mom), GCUT_ERR_STATE);
    float *pair[4];
    for (int j = 0; j < 4; j++) {
        pair[j] = malloc(12 * sizeof(float));
        assert_non_null(pair[j]);
    }
    double beta = -1.0;
    assert_int_equal(pl->smoothness(st, 6, 50.0, &beta, pair), GCUT_ERR_INVALID);
    assert_int_equal(pl->smoothness(st, 8, 50.0, &beta, pair), GCUT_OK);
    assert_true(beta > 0.0);
    assert_int_equal(pl->worst(st, outside, &worst), GCUT_ERR_INVALID);
    assert_int_equal(pl->worst(st, inside, &worst), GCUT_OK);
    assert_true(worst > 0.0);
    assert_int_equal(pl->links(st, inside, 1.0, 8, caps), GCUT_ERR_INVALID);
    assert_int_equal(pl->links(st, inside, -1.0, 0, caps), GCUT_ERR_INVALID);
    assert_int_equal(pl->links(st, inside, 1.0, 0, caps), GCUT_OK);
    /* A whole-image box: direction 0 (+x) is 0 in the last column only. */
    for (int32_t y = 0; y < 3; y++)
        assert_int_equal(caps[y * 4 + 3], 0);
    assert_int_equal(pl->terminals(st, inside, 1.0, 1, caps, caps2), GCUT_ERR_STATE);
    uint8_t seeds[12] = {1, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 1};
    assert_int_equal(pl->set_bytes(st, 7, seeds), GCUT_ERR_INVALID);
    assert_int_equal(pl->set_bytes(st, GCUT_SEG_BYTES_SEEDS, seeds), GCUT_OK);
    assert_int_equal(pl->set_bytes(st, GCUT_SEG_BYTES_SELECT, seeds), GCUT_OK);
    ps.mode = GCUT_SEG_PASS_START;
    ps.want = 0;
    assert_int_equal(pl->gmm_pass(st, &ps, mom), GCUT_OK);
    assert_true(mom[0] == 8.0); /* the eight unknown pixels */
    ps.mode = GCUT_SEG_PASS_SPLIT;
    ps.k = 2;
    ps.widest = 1;
    ps.used = 1;
    double mom2[2 * GCUT_SEG_MOMENTS];
    assert_int_equal(pl->gmm_pass(st, &ps, mom2), GCUT_ERR_INVALID);
    ps.mode = GCUT_SEG_PASS_FROM_DATA;
    assert_int_equal(pl->gmm_pass(st, &ps, mom2), GCUT_ERR_STATE);
    gcut_seg_plugin_stats ss;
    pl->stats(st, &ss);
    assert_true(ss.upload_bytes >= (int64_t)sizeof rgb + 24);
    assert_true(ss.download_bytes > 0);
    pl->destroy(st);
    pl->destroy(NULL);
    for (int j = 0; j < 4; j++)
        free(pair[j]);
}

int main(void)
{
    if (!tu_backend_available("cuda-grid")) {
        printf("cuda-grid unavailable: skipped\n");
        return 77;
    }
    const char *strict = getenv("GCUT_SEG_STRICT"), *quick = getenv("GCUT_GPU_QUICK");
    g_strict = strict && strcmp(strict, "0") != 0;
    g_quick = quick && strcmp(quick, "0") != 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plugin_checks), cmocka_unit_test(test_fallbacks),
        cmocka_unit_test(test_synthetic), cmocka_unit_test(test_grabcut_end_to_end),
        cmocka_unit_test(test_dataset)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
