/*
 * testutil.c - random graph families and the cross-check against cpu-ref.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t tu_next(tu_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int64_t tu_range(tu_rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(tu_next(r) % (uint64_t)(hi - lo + 1));
}

const char *tu_family_name(tu_family f)
{
    static const char *names[] = {"sparse",  "dense",        "grid2d",      "grid3d",
                                  "bipartite", "layered", "disconnected", "pathological"};
    return f < TU_FAMILY_COUNT ? names[f] : "?";
}

const char *tu_caps_name(tu_caps c)
{
    static const char *names[] = {"small", "medium", "huge", "mixed"};
    return c < TU_CAPS_COUNT ? names[c] : "?";
}

static int32_t cap_value(tu_rng *r, tu_caps caps)
{
    switch (caps) {
    case TU_CAPS_SMALL: return (int32_t)tu_range(r, 0, 10);
    case TU_CAPS_MEDIUM: return (int32_t)tu_range(r, 0, 10000);
    case TU_CAPS_HUGE: return (int32_t)(INT32_MAX - tu_range(r, 0, 1000));
    default:
        switch (tu_range(r, 0, 3)) {
        case 0: return 0;
        case 1: return 1;
        case 2: return (int32_t)tu_range(r, 0, 100);
        default: return (int32_t)(INT32_MAX - tu_range(r, 0, 10));
        }
    }
}

static void add_edge(gcut_graph *g, tu_rng *r, tu_caps caps, int32_t u, int32_t v, int one_way)
{
    int32_t c = cap_value(r, caps);
    int32_t rc = one_way ? 0 : cap_value(r, caps);
    assert_int_equal(gcut_graph_add_edge(g, u, v, c, rc), GCUT_OK);
}

static void add_terminals(gcut_graph *g, tu_rng *r, tu_caps caps, int32_t v, int percent)
{
    if (tu_range(r, 0, 99) < percent) {
        int32_t s = tu_range(r, 0, 2) ? cap_value(r, caps) : 0;
        int32_t t = tu_range(r, 0, 2) ? cap_value(r, caps) : 0;
        assert_int_equal(gcut_graph_add_tweights(g, v, s, t), GCUT_OK);
    }
}

static gcut_graph *make_sparse(tu_rng *r, tu_caps caps, int32_t n, int32_t base, gcut_graph *g)
{
    int64_t m = (int64_t)n * tu_range(r, 1, 6);
    for (int64_t i = 0; i < m; i++) {
        int32_t u = base + (int32_t)tu_range(r, 0, n - 1), v = base + (int32_t)tu_range(r, 0, n - 1);
        add_edge(g, r, caps, u, v, tu_range(r, 0, 1));
    }
    int pct = (int)tu_range(r, 5, 60);
    for (int32_t v = 0; v < n; v++)
        add_terminals(g, r, caps, base + v, pct);
    return g;
}

gcut_graph *tu_random_graph(uint64_t seed, tu_family fam, tu_caps caps, int32_t size)
{
    tu_rng rr = {seed * 0x2545f4914f6cdd1dull + (uint64_t)fam * 131 + (uint64_t)caps};
    tu_rng *r = &rr;
    gcut_graph *g = NULL;
    if (size < 2)
        size = 2;
    switch (fam) {
    case TU_SPARSE: {
        int32_t n = (int32_t)tu_range(r, 2, size);
        assert_int_equal(gcut_graph_new(&g, n, 4 * (int64_t)n), GCUT_OK);
        make_sparse(r, caps, n, 0, g);
        break;
    }
    case TU_DENSE: {
        int32_t n = (int32_t)tu_range(r, 2, size < 40 ? size : 40);
        assert_int_equal(gcut_graph_new(&g, n, (int64_t)n * n), GCUT_OK);
        for (int32_t u = 0; u < n; u++)
            for (int32_t v = u + 1; v < n; v++)
                if (tu_range(r, 0, 9) < 7)
                    add_edge(g, r, caps, u, v, 0);
        for (int32_t v = 0; v < n; v++)
            add_terminals(g, r, caps, v, 40);
        break;
    }
    case TU_GRID2D: {
        int32_t w = (int32_t)tu_range(r, 1, (int64_t)sqrt((double)size) + 2);
        int32_t h = (int32_t)tu_range(r, 1, size / w + 1);
        int conn8 = (int)tu_range(r, 0, 1);
        assert_int_equal(gcut_graph_new(&g, w * h, 4 * (int64_t)w * h), GCUT_OK);
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++) {
                int32_t v = y * w + x;
                if (x + 1 < w) add_edge(g, r, caps, v, v + 1, 0);
                if (y + 1 < h) add_edge(g, r, caps, v, v + w, 0);
                if (conn8 && x + 1 < w && y + 1 < h) add_edge(g, r, caps, v, v + w + 1, 0);
                if (conn8 && x > 0 && y + 1 < h) add_edge(g, r, caps, v, v + w - 1, 0);
                add_terminals(g, r, caps, v, 100);
            }
        break;
    }
    case TU_GRID3D: {
        int32_t d = (int32_t)tu_range(r, 1, (int64_t)cbrt((double)size) + 1);
        int32_t w = (int32_t)tu_range(r, 1, (int64_t)cbrt((double)size) + 2);
        int32_t h = (int32_t)tu_range(r, 1, size / (w * d) + 1);
        assert_int_equal(gcut_graph_new(&g, w * h * d, 3 * (int64_t)w * h * d), GCUT_OK);
        for (int32_t z = 0; z < d; z++)
            for (int32_t y = 0; y < h; y++)
                for (int32_t x = 0; x < w; x++) {
                    int32_t v = (z * h + y) * w + x;
                    if (x + 1 < w) add_edge(g, r, caps, v, v + 1, 0);
                    if (y + 1 < h) add_edge(g, r, caps, v, v + w, 0);
                    if (z + 1 < d) add_edge(g, r, caps, v, v + w * h, 0);
                    add_terminals(g, r, caps, v, 100);
                }
        break;
    }
    case TU_BIPARTITE: {
        int32_t L = (int32_t)tu_range(r, 1, size / 2 + 1), R = (int32_t)tu_range(r, 1, size / 2 + 1);
        assert_int_equal(gcut_graph_new(&g, L + R, 3 * (int64_t)(L + R)), GCUT_OK);
        int unit = (int)tu_range(r, 0, 1);
        for (int32_t u = 0; u < L; u++) {
            int32_t k = (int32_t)tu_range(r, 0, 4);
            for (int32_t j = 0; j < k; j++) {
                int32_t v = L + (int32_t)tu_range(r, 0, R - 1);
                assert_int_equal(gcut_graph_add_edge(g, u, v, unit ? 1 : cap_value(r, caps), 0),
                                 GCUT_OK);
            }
            assert_int_equal(gcut_graph_add_tweights(g, u, unit ? 1 : cap_value(r, caps), 0), GCUT_OK);
        }
        for (int32_t v = L; v < L + R; v++)
            assert_int_equal(gcut_graph_add_tweights(g, v, 0, unit ? 1 : cap_value(r, caps)), GCUT_OK);
        break;
    }
    case TU_LAYERED: {
        int32_t layers = (int32_t)tu_range(r, 2, 8);
        int32_t width = (int32_t)tu_range(r, 1, size / layers + 1);
        int32_t n = layers * width;
        assert_int_equal(gcut_graph_new(&g, n, 4 * (int64_t)n), GCUT_OK);
        for (int32_t l = 0; l + 1 < layers; l++)
            for (int32_t i = 0; i < width; i++)
                for (int k = 0; k < 3; k++) {
                    int32_t u = l * width + i, v = (l + 1) * width + (int32_t)tu_range(r, 0, width - 1);
                    add_edge(g, r, caps, u, v, tu_range(r, 0, 3) != 0);
                }
        for (int32_t i = 0; i < width; i++) {
            assert_int_equal(gcut_graph_add_tweights(g, i, cap_value(r, caps), 0), GCUT_OK);
            assert_int_equal(gcut_graph_add_tweights(g, (layers - 1) * width + i, 0, cap_value(r, caps)),
                             GCUT_OK);
        }
        break;
    }
    case TU_DISCONNECTED: {
        int32_t parts = (int32_t)tu_range(r, 2, 4), per = size / parts + 1;
        assert_int_equal(gcut_graph_new(&g, parts * per, 4 * (int64_t)parts * per), GCUT_OK);
        for (int32_t p = 0; p < parts; p++) {
            if (tu_range(r, 0, 2) == 0) { /* a component with no terminal links */
                for (int32_t i = 0; i < per * 2; i++)
                    add_edge(g, r, caps, p * per + (int32_t)tu_range(r, 0, per - 1),
                             p * per + (int32_t)tu_range(r, 0, per - 1), 0);
            } else {
                int64_t m = (int64_t)per * 2;
                for (int64_t i = 0; i < m; i++)
                    add_edge(g, r, caps, p * per + (int32_t)tu_range(r, 0, per - 1),
                             p * per + (int32_t)tu_range(r, 0, per - 1), tu_range(r, 0, 1));
                for (int32_t v = 0; v < per; v++)
                    add_terminals(g, r, caps, p * per + v, 30);
            }
        }
        break;
    }
    default: { /* pathological: tiny, parallel arcs, self-loops, zeros, s and t on one node */
        int32_t n = (int32_t)tu_range(r, 1, 6);
        assert_int_equal(gcut_graph_new(&g, n, 16), GCUT_OK);
        int32_t m = (int32_t)tu_range(r, 0, 14);
        for (int32_t i = 0; i < m; i++) {
            int32_t u = (int32_t)tu_range(r, 0, n - 1);
            int32_t v = tu_range(r, 0, 3) == 0 ? u : (int32_t)tu_range(r, 0, n - 1);
            add_edge(g, r, caps, u, v, tu_range(r, 0, 1));
            if (tu_range(r, 0, 3) == 0) /* an exact parallel copy */
                add_edge(g, r, caps, u, v, 0);
        }
        for (int32_t v = 0; v < n; v++)
            add_terminals(g, r, caps, v, 70);
        break;
    }
    }
    return g;
}

int tu_backend_available(const char *name)
{
    int32_t i;
    if (gcut_backend_find(name, &i) != GCUT_OK) {
        gcut_clear_error();
        return 0;
    }
    return gcut_backend_available(i, NULL);
}

int64_t tu_solve(gcut_graph *g, const char *backend, uint8_t **cut)
{
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = backend;
    gcut_result *res;
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    gcut_status st = gcut_solve(g, &opt, res);
    if (st != GCUT_OK)
        fail_msg("%s: %s", backend, gcut_last_error());
    int64_t flow = gcut_result_flow(res);
    if (cut) {
        int32_t n = gcut_graph_num_nodes(g);
        *cut = malloc((size_t)n + 1);
        memcpy(*cut, gcut_result_cut(res), (size_t)n);
    }
    gcut_result_free(res);
    return flow;
}

static void dump_failure(gcut_graph *g, const char *label)
{
    char path[512];
    snprintf(path, sizeof path, "/tmp/gcut-fail-%s.max", label);
    if (gcut_graph_write_dimacs(g, path) == GCUT_OK)
        fprintf(stderr, "  graph written to %s\n", path);
}

int tu_crosscheck(gcut_graph *g, const char *backend, int want_flows, int32_t threads,
                  const char *params, const char *label)
{
    const int32_t n = gcut_graph_num_nodes(g);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.want_flows = 1;
    opt.backend = "cpu-ref";
    gcut_result *ref, *res;
    assert_int_equal(gcut_result_new(&ref), GCUT_OK);
    assert_int_equal(gcut_result_new(&res), GCUT_OK);
    int bad = 0;
    if (gcut_solve(g, &opt, ref) != GCUT_OK) {
        fprintf(stderr, "%s: cpu-ref failed: %s\n", label, gcut_last_error());
        bad = 1;
        goto done;
    }
    if (gcut_check_flow(g, gcut_result_flow(ref), gcut_result_edge_flows(ref),
                        gcut_result_cut(ref)) != GCUT_OK) {
        fprintf(stderr, "%s: cpu-ref result invalid: %s\n", label, gcut_last_error());
        bad = 1;
        goto done;
    }
    opt.backend = backend;
    opt.want_flows = want_flows;
    opt.threads = threads;
    opt.params = params;
    if (gcut_solve(g, &opt, res) != GCUT_OK) {
        fprintf(stderr, "%s: %s failed: %s\n", label, backend, gcut_last_error());
        bad = 1;
        goto done;
    }
    if (gcut_result_flow(res) != gcut_result_flow(ref)) {
        fprintf(stderr, "%s: %s flow %lld, cpu-ref %lld\n", label, backend,
                (long long)gcut_result_flow(res), (long long)gcut_result_flow(ref));
        bad = 1;
        goto done;
    }
    if (memcmp(gcut_result_cut(res), gcut_result_cut(ref), (size_t)n) != 0) {
        int32_t v = 0;
        while (gcut_result_cut(res)[v] == gcut_result_cut(ref)[v])
            v++;
        fprintf(stderr, "%s: %s cut differs from cpu-ref at node %d (%d vs %d)\n", label, backend,
                (int)v, gcut_result_cut(res)[v], gcut_result_cut(ref)[v]);
        bad = 1;
        goto done;
    }
    if (gcut_check_flow(g, gcut_result_flow(res), want_flows ? gcut_result_edge_flows(res) : NULL,
                        gcut_result_cut(res)) != GCUT_OK) {
        fprintf(stderr, "%s: %s: %s\n", label, backend, gcut_last_error());
        bad = 1;
    }
done:
    if (bad)
        dump_failure(g, label);
    gcut_result_free(ref);
    gcut_result_free(res);
    return bad;
}

int tu_scaled(int base)
{
    const char *s = getenv("GCUT_TEST_SCALE");
    double k = s ? atof(s) : 1.0;
    if (!(k > 0))
        k = 1.0;
    int v = (int)(base * k);
    return v < 1 ? 1 : v;
}

const char *tu_shared_data(const char *relative, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", GCUT_SHARED_DATA, relative);
    FILE *f = fopen(buf, "rb");
    if (!f)
        return NULL;
    fclose(f);
    return buf;
}

/* ------------------------------------------------------------ grids */


const char *tu_grid_kind_name(tu_grid_kind k)
{
    static const char *names[] = {"small", "medium", "huge", "zero", "mixed",
                                  "all-source", "all-sink", "seeds"};
    return names[k];
}

/* Grid n-link values: the graph families' ranges, except that "medium"
 * is the 0..100 of a random vision grid. */
static int32_t grid_value(tu_rng *r, tu_grid_kind k)
{
    switch (k) {
    case TU_GRID_SMALL: return cap_value(r, TU_CAPS_SMALL);
    case TU_GRID_MEDIUM: return (int32_t)tu_range(r, 0, 100);
    case TU_GRID_HUGE: return cap_value(r, TU_CAPS_HUGE);
    case TU_GRID_ZERO: return 0;
    default: return cap_value(r, TU_CAPS_MIXED);
    }
}

/* Fill every array of g (border entries too: they must be ignored). */
void tu_grid_randomise(gcut_grid *g, tu_rng *r, tu_grid_kind k)
{
    const int32_t n = gcut_grid_num_nodes(g), c = gcut_grid_connectivity(g);
    int32_t *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    for (int32_t d = 0; d < c; d++) {
        for (int32_t v = 0; v < n; v++)
            a[v] = k == TU_GRID_ALL_SOURCE || k == TU_GRID_ALL_SINK ? (int32_t)tu_range(r, 0, 50)
                   : k == TU_GRID_SEEDS                       ? (int32_t)tu_range(r, 20, 30)
                                                        : grid_value(r, k);
        assert_int_equal(gcut_grid_set_caps(g, d, a), GCUT_OK);
    }
    for (int32_t v = 0; v < n; v++) {
        switch (k) {
        case TU_GRID_ALL_SOURCE:
            a[v] = (int32_t)tu_range(r, 0, 100);
            b[v] = 0;
            break;
        case TU_GRID_ALL_SINK:
            a[v] = 0;
            b[v] = (int32_t)tu_range(r, 0, 100);
            break;
        case TU_GRID_SEEDS:
            a[v] = tu_range(r, 0, 19) == 0 ? 1000 : 0;
            b[v] = !a[v] && tu_range(r, 0, 19) == 0 ? 1000 : 0;
            break;
        case TU_GRID_ZERO:
            a[v] = (int32_t)tu_range(r, 0, 100);
            b[v] = (int32_t)tu_range(r, 0, 100);
            break;
        default:
            a[v] = grid_value(r, k);
            b[v] = grid_value(r, k);
        }
    }
    assert_int_equal(gcut_grid_set_terminal_caps(g, a, b), GCUT_OK);
    free(a);
    free(b);
}

/* Random changes for warm re-solve tests (testutil.h). */
void tu_grid_change(gcut_grid *g, tu_rng *r, tu_change_kind kind)
{
    const int32_t w = gcut_grid_width(g), h = gcut_grid_height(g), n = gcut_grid_num_nodes(g),
                  conn = gcut_grid_connectivity(g);
    switch (kind) {
    case TU_CH_STROKE: {
        const int32_t cx = (int32_t)tu_range(r, 0, w - 1), cy = (int32_t)tu_range(r, 0, h - 1);
        const int32_t rad = (int32_t)tu_range(r, 1, 4), z = (int32_t)tu_range(r, 0, gcut_grid_depth(g) - 1);
        const int fg = (int)tu_range(r, 0, 1);
        for (int32_t y = cy - rad; y <= cy + rad; y++)
            for (int32_t x = cx - rad; x <= cx + rad; x++)
                if (x >= 0 && x < w && y >= 0 && y < h &&
                    (x - cx) * (x - cx) + (y - cy) * (y - cy) <= rad * rad)
                    assert_int_equal(gcut_grid_set_terminal_cap(g, x + w * (y + h * z), fg ? 100000 : 0,
                                                            fg ? 0 : 100000),
                                     GCUT_OK);
        break;
    }
    case TU_CH_TLINKS:
        for (int64_t k = tu_range(r, 1, 12); k > 0; k--) {
            const int32_t v = (int32_t)tu_range(r, 0, n - 1);
            if (tu_range(r, 0, 2) == 0)
                assert_int_equal(gcut_grid_set_cap(g, v, tu_range(r, 0, 1) ? GCUT_GRID_SOURCE_LINK
                                                                           : GCUT_GRID_SINK_LINK,
                                                   (int32_t)tu_range(r, 0, 150)),
                                 GCUT_OK);
            else
                assert_int_equal(gcut_grid_set_terminal_cap(g, v, (int32_t)tu_range(r, 0, 150),
                                                        (int32_t)tu_range(r, 0, 150)),
                                 GCUT_OK);
        }
        break;
    case TU_CH_NLINKS:
        for (int64_t k = tu_range(r, 1, 12); k > 0; k--) {
            const int32_t v = (int32_t)tu_range(r, 0, n - 1), d = (int32_t)tu_range(r, 0, conn - 1);
            int32_t old;
            assert_int_equal(gcut_grid_get_cap(g, v, d, &old), GCUT_OK);
            const int32_t now = tu_range(r, 0, 1) || old > INT32_MAX - 150
                                    ? (int32_t)tu_range(r, 0, old / 2 + 1)
                                    : (int32_t)tu_range(r, old, old + 150);
            assert_int_equal(gcut_grid_set_cap(g, v, d, now), GCUT_OK);
        }
        break;
    case TU_CH_ARRAYS: {
        const int32_t what = (int32_t)tu_range(r, -2, conn - 1);
        int32_t *a = malloc((size_t)n * sizeof *a);
        assert_non_null(a);
        memcpy(a, gcut_grid_caps(g, what), (size_t)n * sizeof *a);
        for (int64_t k = tu_range(r, 1, 8); k > 0; k--)
            a[tu_range(r, 0, n - 1)] = (int32_t)tu_range(r, 0, 200);
        assert_int_equal(gcut_grid_set_caps(g, what, a), GCUT_OK);
        free(a);
        break;
    }
    case TU_CH_HUGE: {
        const int32_t v = (int32_t)tu_range(r, 0, n - 1);
        if (tu_range(r, 0, 1))
            assert_int_equal(gcut_grid_set_terminal_cap(g, v, (int32_t)(INT32_MAX - tu_range(r, 0, 5)),
                                                    (int32_t)tu_range(r, 0, 5)),
                             GCUT_OK);
        else
            assert_int_equal(gcut_grid_set_cap(g, v, (int32_t)tu_range(r, 0, conn - 1),
                                               (int32_t)(INT32_MAX - tu_range(r, 0, 5))),
                             GCUT_OK);
        break;
    }
    default: {
        const int32_t y = (int32_t)tu_range(r, 0, n / w - 1);
        int32_t *a = malloc((size_t)w * sizeof *a);
        assert_non_null(a);
        for (int32_t x = 0; x < w; x++)
            a[x] = (int32_t)tu_range(r, 0, 100);
        assert_int_equal(gcut_grid_set_terminal_caps_range(g, y * w, w, tu_range(r, 0, 1) ? a : NULL, a),
                         GCUT_OK);
        free(a);
    }
    }
}

/* Cuts across every boundary: source links on one half of x, sink links
 * on the other (the cut runs through every slab), and source links on the
 * first plane, sink links on the last (all the flow crosses every
 * boundary), with n-links of the kind asked (huge ones too). */
void tu_grid_set_crossing(gcut_grid *g, tu_rng *r, int across, int huge)
{
    const int32_t w = gcut_grid_width(g), h = gcut_grid_height(g), d = gcut_grid_depth(g);
    const int32_t n = gcut_grid_num_nodes(g), c = gcut_grid_connectivity(g);
    int32_t *a = malloc((size_t)n * 4), *b = malloc((size_t)n * 4);
    assert_non_null(a);
    assert_non_null(b);
    for (int32_t dir = 0; dir < c; dir++) {
        for (int32_t v = 0; v < n; v++)
            a[v] = huge ? INT32_MAX - (int32_t)tu_range(r, 0, 3) : (int32_t)tu_range(r, 1, 60);
        assert_int_equal(gcut_grid_set_caps(g, dir, a), GCUT_OK);
    }
    for (int32_t z = 0; z < d; z++)
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++) {
                const int32_t v = x + w * (y + h * z);
                const int32_t plane = c != 4 && c != 8 ? z : y, planes = c != 4 && c != 8 ? d : h;
                const int src = across ? x < w / 2 : plane == 0;
                const int snk = across ? x >= w / 2 : plane == planes - 1;
                const int32_t big = huge ? INT32_MAX : 1000;
                a[v] = src ? big - (int32_t)tu_range(r, 0, 5) : (int32_t)tu_range(r, 0, 2);
                b[v] = snk ? big - (int32_t)tu_range(r, 0, 5) : (int32_t)tu_range(r, 0, 2);
            }
    assert_int_equal(gcut_grid_set_terminal_caps(g, a, b), GCUT_OK);
    free(a);
    free(b);
}

gcut_status tu_solve_slabs(gcut_grid *g, int32_t nslabs, const int32_t *counts,
                           const gcut_solve_options *opt, uint32_t device_mask, int64_t *flow,
                           uint8_t *cut, gcut_stats *stats)
{
    const int32_t w = gcut_grid_width(g), h = gcut_grid_height(g), d = gcut_grid_depth(g);
    const int32_t conn = gcut_grid_connectivity(g);
    const int three_d = conn != 4 && conn != 8;
    const int64_t planes = three_d ? d : h;
    const int64_t plane = three_d ? (int64_t)w * h : w;
    gcut_grid_slab *sl = calloc((size_t)nslabs, sizeof *sl);
    assert_non_null(sl);
    int64_t first = 0;
    for (int32_t i = 0; i < nslabs; i++) {
        gcut_grid_slab *s = &sl[i];
        s->first = first;
        s->planes = counts ? counts[i]
                           : (int32_t)((planes * (i + 1)) / nslabs - (planes * i) / nslabs);
        const int dev = (int)((device_mask >> (i % 32)) & 1u);
        s->device = dev ? 0 : -1;
        const size_t n = (size_t)(plane * s->planes), at = (size_t)(plane * first);
        for (int32_t k = -2; k < conn; k++) {
            const int32_t what = k == -2 ? GCUT_GRID_SOURCE_LINK : k == -1 ? GCUT_GRID_SINK_LINK : k;
            const int32_t *src = gcut_grid_caps(g, what) + at;
            int32_t *buf;
            if (dev) {
                if (gcut_device_alloc(n * 4, (void **)&buf) != GCUT_OK)
                    fail_msg("gcut_device_alloc: %s", gcut_last_error());
                if (gcut_device_copy(buf, src, n * 4) != GCUT_OK)
                    fail_msg("gcut_device_copy: %s", gcut_last_error());
            } else {
                buf = malloc(n * 4);
                assert_non_null(buf);
                memcpy(buf, src, n * 4);
            }
            if (k == -2)
                s->cap_source = buf;
            else if (k == -1)
                s->cap_sink = buf;
            else
                s->cap[k] = buf;
        }
        s->cut = cut + at;
        first += s->planes;
    }
    const gcut_status st = gcut_grid_solve_slabs(w, h, three_d ? d : 1, conn, sl, nslabs, opt,
                                                 flow, stats);
    for (int32_t i = 0; i < nslabs; i++) {
        const int dev = sl[i].device == 0;
        for (int32_t k = -2; k < conn; k++) {
            void *p = (void *)(k == -2 ? sl[i].cap_source : k == -1 ? sl[i].cap_sink : sl[i].cap[k]);
            if (dev)
                gcut_device_free(p);
            else
                free(p);
        }
    }
    free(sl);
    return st;
}

/* A vision-like grid: a few bright balls on a dark background with noise;
 * t-links from the distance of each intensity to the two means, n-links
 * that are weak across edges of the image (a contrast-sensitive Potts
 * term), all of it on integers (the energy of the GPU grid suites). */
void tu_grid_fill_vision(gcut_grid *g, uint64_t seed)
{
    const int32_t w = gcut_grid_width(g), h = gcut_grid_height(g), d = gcut_grid_depth(g);
    const int32_t n = gcut_grid_num_nodes(g), c = gcut_grid_connectivity(g);
    tu_rng r = {seed};
    uint8_t *img = malloc((size_t)n);
    int32_t *a = malloc((size_t)n * 4), *b = malloc((size_t)n * 4);
    assert_non_null(img);
    assert_non_null(a);
    assert_non_null(b);
    double cx[3], cy[3], cz[3], rad[3];
    for (int i = 0; i < 3; i++) {
        cx[i] = (double)tu_range(&r, 0, w - 1);
        cy[i] = (double)tu_range(&r, 0, h - 1);
        cz[i] = (double)tu_range(&r, 0, d - 1);
        const int32_t m = w < h ? w : h;
        rad[i] = 0.15 * m + (double)tu_range(&r, 0, m / 4 + 1);
    }
    for (int32_t z = 0; z < d; z++)
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++) {
                int in = 0;
                for (int i = 0; i < 3; i++) {
                    const double ex = x - cx[i], ey = y - cy[i], ez = d > 1 ? z - cz[i] : 0;
                    in |= ex * ex + ey * ey + ez * ez < rad[i] * rad[i];
                }
                int v = (in ? 170 : 80) + (int)tu_range(&r, -45, 45);
                img[x + (size_t)w * (y + (size_t)h * z)] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
    int32_t table[256];
    for (int i = 0; i < 256; i++)
        table[i] = 2 + (int32_t)(60.0 * exp(-(double)(i * i) / (2.0 * 25.0 * 25.0)));
    for (int32_t dir = 0; dir < c; dir++) {
        int32_t dx, dy, dz;
        assert_int_equal(gcut_grid_direction(c, dir, &dx, &dy, &dz), GCUT_OK);
        const ptrdiff_t step = dx + (ptrdiff_t)w * (dy + (ptrdiff_t)h * dz);
        for (int32_t v = 0; v < n; v++) {
            const ptrdiff_t u = v + step;
            const int diff = u >= 0 && u < n ? abs((int)img[v] - (int)img[u]) : 0;
            a[v] = table[diff];
        }
        assert_int_equal(gcut_grid_set_caps(g, dir, a), GCUT_OK);
    }
    for (int32_t v = 0; v < n; v++) {
        a[v] = 2 * abs((int)img[v] - 80);  /* source link: the cost of the background label */
        b[v] = 2 * abs((int)img[v] - 170); /* sink link: the cost of the foreground label */
    }
    assert_int_equal(gcut_grid_set_terminal_caps(g, a, b), GCUT_OK);
    free(img);
    free(a);
    free(b);
}

void tu_add_random_edge(gcut_graph *g, tu_rng *r)
{
    const int32_t n = gcut_graph_num_nodes(g);
    if (n < 2)
        return;
    assert_int_equal(gcut_graph_add_edge(g, (int32_t)tu_range(r, 0, n - 1),
                                         (int32_t)tu_range(r, 0, n - 1),
                                         (int32_t)tu_range(r, 0, 1000),
                                         (int32_t)tu_range(r, 0, 1000)),
                     GCUT_OK);
}

void tu_add_terminal_pair(gcut_graph *g)
{
    const int32_t n = gcut_graph_num_nodes(g);
    int32_t id;
    assert_int_equal(gcut_graph_add_nodes(g, 2, &id), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, id, 500, 0), GCUT_OK);
    assert_int_equal(gcut_graph_add_tweights(g, id + 1, 0, 400), GCUT_OK);
    assert_int_equal(gcut_graph_add_edge(g, id, id + 1, 300, 0), GCUT_OK);
    if (n > 0)
        assert_int_equal(gcut_graph_add_edge(g, id, 0, 50, 50), GCUT_OK);
}
