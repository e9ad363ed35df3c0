/*
 * mrf.c - multi-label energies on grids: alpha-expansion and alpha-beta swap.
 *
 * Y. Boykov, O. Veksler, R. Zabih, "Fast approximate energy minimization
 * via graph cuts", IEEE PAMI 23(11), 2001: the two moves and their
 * guarantees (expansion: within 2c of the optimum for a metric V,
 * c = max V / min_{a != b} V; swap: any semi-metric).
 * V. Kolmogorov, R. Zabih, "What energy functions can be minimized via
 * graph cuts?", IEEE PAMI 26(2), 2004: the construction used here, with no
 * auxiliary nodes.
 *
 * A move gives every active node v two candidate labels l0(v) and l1(v)
 * and a binary variable x_v (0: l0, 1: l1); inactive nodes keep their
 * label. Expansion on alpha: all nodes active, l0 = current label,
 * l1 = alpha. Swap of alpha, beta: nodes labelled alpha or beta are active,
 * l0 = alpha, l1 = beta. Both contain the current labelling, so the best
 * move never raises E.
 *
 * The move energy E(x) = K + sum_v t_v x_v + sum_{v~u} c_vu (1 - x_v) x_u.
 * A pair of active nodes with A = E(0,0), B = E(0,1), C = E(1,0),
 * D = E(1,1) is rewritten exactly as
 *     A + (C - A) x_v + (D - C) x_u + (B + C - A - D) (1 - x_v) x_u,
 * which is a cut when c_vu = B + C - A - D >= 0 (regularity). For expansion
 * D = V(alpha, alpha) = 0 and this is V(f_v, alpha) + V(alpha, f_u) -
 * V(f_v, f_u) >= 0: the triangle inequality. For swap A = D = 0. A pair
 * with one fixed node adds to the active node's t; a pair of fixed nodes
 * to K.
 *
 * Graph (x_v = 1 on the sink side): source capacity max(t_v, 0), sink
 * capacity max(-t_v, 0), and the arc v -> u of capacity c_vu in v's even
 * direction to u (the arc back is 0). A cut of x costs
 * sum_v t_v x_v + sum_v max(-t_v, 0) + pair part, so
 *     E(x*) = K - sum_v max(-t_v, 0) + maxflow
 * exactly, in int64; the test suite recomputes E from scratch after every
 * move and compares.
 *
 * Invariants: labels always hold a labelling whose energy is `energy`;
 * a move is applied only when it lowers it strictly, so E never rises and
 * the loop ends. A gcut_grid is refilled by whole-array setters for every
 * move; the setters record only entries that differ, so a move that
 * changes little (swaps of rare labels) is solved warm by cpu-bk. Swap
 * moves share one grid; expansion moves with cpu-bk get one grid per label
 * where memory allows (run()), so that each label's next move starts from
 * its last one's flow and trees; those moves are built incrementally, only
 * the entries that the nodes relabelled since the label's last move change
 * (expand_inc).
 * The progress callback of opt->solve (progress_internal.h) is called
 * after a move (at most every progress_interval_ms) and after each cycle;
 * when it asks to stop, the caller's labels are left as they were.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/core_internal.h"
#include "progress_internal.h"
#include "vision_plugin.h"
#include "gcut/vision/mrf.h"
#include "vision_plugin.h"

enum { MRF_MAX_LABELS = 4096, MRF_MAX_UNARY = 1 << 28, MRF_MAX_V = 1 << 20,
       MRF_MAX_W = 1 << 16 };

/* The most memory the host loop's per-label grids may take (run()). */
#define PER_LABEL_MAX_BYTES (1024.0 * 1024.0 * 1024.0)

/* What V is, so that the metric check of the built-in families is O(1). */
typedef enum { V_POTTS, V_TL, V_TQ, V_TABLE } v_kind;

struct gcut_mrf {
    int32_t w, h, d, conn, L, n;
    int32_t *unary;               /* n * L, or NULL with fn */
    gcut_mrf_unary_fn fn;
    void *fn_user;
    int32_t *V;                   /* L * L, always materialised */
    v_kind kind;
    int32_t v_lambda, v_trunc;
    int32_t *weight[GCUT_GRID_MAX_DIRS / 2]; /* NULL: all 1 */
    int32_t off[GCUT_GRID_MAX_DIRS / 2][3];  /* offsets of the even directions */
    gcut_grid *grid;              /* the move grid, kept between moves */
    gcut_result *res;
    int64_t *t;                   /* scratch, n */
    int32_t *src, *snk;           /* scratch, n each */
    int32_t *cap[GCUT_GRID_MAX_DIRS / 2];     /* scratch, n each */
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

void gcut_mrf_options_init(gcut_mrf_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof(*o));
    o->struct_size = sizeof(*o);
    o->max_cycles = 20;
    o->seed = 1;
    gcut_solve_options_init(&o->solve);
}

void gcut_mrf_free(gcut_mrf *m)
{
    if (!m)
        return;
    for (int32_t k = 0; k < GCUT_GRID_MAX_DIRS / 2; k++) {
        gcut_i_free(m->weight[k]);
        gcut_i_free(m->cap[k]);
    }
    gcut_i_free(m->unary);
    gcut_i_free(m->V);
    gcut_i_free(m->t);
    gcut_i_free(m->src);
    gcut_i_free(m->snk);
    gcut_result_free(m->res);
    gcut_grid_free(m->grid);
    gcut_i_free(m);
}

int32_t gcut_mrf_num_nodes(const gcut_mrf *m) { return m ? m->n : 0; }
int32_t gcut_mrf_num_labels(const gcut_mrf *m) { return m ? m->L : 0; }

static void fill_v(gcut_mrf *m, v_kind kind, int32_t lambda, int32_t trunc)
{
    for (int32_t a = 0; a < m->L; a++)
        for (int32_t b = 0; b < m->L; b++) {
            int64_t diff = a > b ? a - b : b - a, v;
            if (kind == V_POTTS)
                v = a != b;
            else if (kind == V_TL)
                v = diff < trunc ? diff : trunc;
            else
                v = diff * diff < trunc ? diff * diff : trunc;
            m->V[(size_t)a * m->L + b] = (int32_t)(v * lambda);
        }
    m->kind = kind;
    m->v_lambda = lambda;
    m->v_trunc = trunc;
}

gcut_status gcut_mrf_new(gcut_mrf **out, int32_t width, int32_t height, int32_t depth,
                         int32_t connectivity, int32_t num_labels)
{
    GCUT_ENTRY();
    if (!out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "out is NULL");
    if (num_labels < 2 || num_labels > MRF_MAX_LABELS)
        return GCUT_FAIL(GCUT_ERR_INVALID, "num_labels %d not in 2 .. %d", (int)num_labels,
                         (int)MRF_MAX_LABELS);
    gcut_mrf *m = gcut_i_calloc(1, sizeof(*m));
    if (!m)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
    gcut_status st = gcut_grid_new(&m->grid, width, height, depth, connectivity);
    if (st != GCUT_OK)
        goto fail;
    /* For "auto": energies of real images, one solve per label and cycle. */
    gcut_i_grid_set_hint(m->grid, 1, num_labels);
    m->w = width;
    m->h = height;
    m->d = depth;
    m->conn = connectivity;
    m->L = num_labels;
    m->n = gcut_grid_num_nodes(m->grid);
    st = gcut_result_new(&m->res);
    if (st != GCUT_OK)
        goto fail;
    m->unary = gcut_i_calloc((size_t)m->n * (size_t)m->L, sizeof(int32_t));
    m->V = gcut_i_malloc_array((int64_t)m->L * m->L, sizeof(int32_t));
    m->t = gcut_i_malloc_array(m->n, sizeof(int64_t));
    m->src = gcut_i_malloc_array(m->n, sizeof(int32_t));
    m->snk = gcut_i_malloc_array(m->n, sizeof(int32_t));
    int ok = m->unary && m->V && m->t && m->src && m->snk;
    for (int32_t k = 0; k < connectivity / 2; k++) {
        gcut_grid_direction(connectivity, 2 * k, &m->off[k][0], &m->off[k][1], &m->off[k][2]);
        m->cap[k] = gcut_i_calloc((size_t)m->n, sizeof(int32_t));
        ok = ok && m->cap[k];
    }
    if (!ok) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (%d nodes, %d labels)", (int)m->n,
                       (int)m->L);
        goto fail;
    }
    fill_v(m, V_POTTS, 1, 1);
    *out = m;
    return GCUT_OK;
fail:
    gcut_mrf_free(m);
    return st;
}

gcut_status gcut_mrf_set_unary(gcut_mrf *m, const int32_t *cost)
{
    GCUT_ENTRY();
    if (!m || !cost)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    size_t total = (size_t)m->n * (size_t)m->L;
    for (size_t i = 0; i < total; i++)
        if (cost[i] < 0 || cost[i] > MRF_MAX_UNARY)
            return GCUT_FAIL(GCUT_ERR_INVALID, "cost %d of node %lld label %d not in [0, 2^28]",
                             (int)cost[i], (long long)(i / (size_t)m->L), (int)(i % (size_t)m->L));
    if (!m->unary) {
        m->unary = gcut_i_malloc_array((int64_t)total, sizeof(int32_t));
        if (!m->unary)
            return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (unary table)");
    }
    memcpy(m->unary, cost, total * sizeof(int32_t));
    m->fn = NULL;
    return GCUT_OK;
}

gcut_status gcut_mrf_set_unary_fn(gcut_mrf *m, gcut_mrf_unary_fn fn, void *user)
{
    GCUT_ENTRY();
    if (!m || !fn)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    gcut_i_free(m->unary);
    m->unary = NULL;
    m->fn = fn;
    m->fn_user = user;
    return GCUT_OK;
}

static gcut_status check_param(int32_t lambda, int32_t trunc, int64_t vmax)
{
    if (lambda < 0 || trunc < 0 || vmax > MRF_MAX_V)
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "lambda %d, trunc %d: need both >= 0 and lambda * trunc <= 2^20",
                         (int)lambda, (int)trunc);
    return GCUT_OK;
}

gcut_status gcut_mrf_set_potts(gcut_mrf *m, int32_t lambda)
{
    GCUT_ENTRY();
    if (!m)
        return GCUT_FAIL(GCUT_ERR_INVALID, "m is NULL");
    gcut_status st = check_param(lambda, 1, lambda);
    if (st == GCUT_OK)
        fill_v(m, V_POTTS, lambda, 1);
    return st;
}

gcut_status gcut_mrf_set_trunc_linear(gcut_mrf *m, int32_t lambda, int32_t trunc)
{
    GCUT_ENTRY();
    if (!m)
        return GCUT_FAIL(GCUT_ERR_INVALID, "m is NULL");
    gcut_status st = check_param(lambda, trunc, (int64_t)lambda * trunc);
    if (st == GCUT_OK)
        fill_v(m, V_TL, lambda, trunc);
    return st;
}

gcut_status gcut_mrf_set_trunc_quadratic(gcut_mrf *m, int32_t lambda, int32_t trunc)
{
    GCUT_ENTRY();
    if (!m)
        return GCUT_FAIL(GCUT_ERR_INVALID, "m is NULL");
    gcut_status st = check_param(lambda, trunc, (int64_t)lambda * trunc);
    if (st == GCUT_OK)
        fill_v(m, V_TQ, lambda, trunc);
    return st;
}

gcut_status gcut_mrf_set_table(gcut_mrf *m, const int32_t *table)
{
    GCUT_ENTRY();
    if (!m || !table)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    size_t total = (size_t)m->L * (size_t)m->L;
    for (size_t i = 0; i < total; i++)
        if (table[i] < 0 || table[i] > MRF_MAX_V)
            return GCUT_FAIL(GCUT_ERR_INVALID, "V(%d,%d) = %d not in [0, 2^20]",
                             (int)(i / (size_t)m->L), (int)(i % (size_t)m->L), (int)table[i]);
    memcpy(m->V, table, total * sizeof(int32_t));
    m->kind = V_TABLE;
    return GCUT_OK;
}

gcut_status gcut_mrf_set_weights(gcut_mrf *m, int32_t dir, const int32_t *w)
{
    GCUT_ENTRY();
    if (!m || !w)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    if (dir < 0 || dir >= m->conn || (dir & 1))
        return GCUT_FAIL(GCUT_ERR_INVALID, "direction %d is not an even direction of a %d-connected grid",
                         (int)dir, (int)m->conn);
    for (int32_t v = 0; v < m->n; v++)
        if (w[v] < 0 || w[v] > MRF_MAX_W)
            return GCUT_FAIL(GCUT_ERR_INVALID, "weight %d of node %d not in [0, 2^16]", (int)w[v],
                             (int)v);
    int32_t k = dir / 2;
    if (!m->weight[k]) {
        m->weight[k] = gcut_i_malloc_array(m->n, sizeof(int32_t));
        if (!m->weight[k])
            return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (weights)");
    }
    memcpy(m->weight[k], w, (size_t)m->n * sizeof(int32_t));
    return GCUT_OK;
}

gcut_status gcut_mrf_check_metric(const gcut_mrf *m, int32_t level)
{
    GCUT_ENTRY();
    if (!m || level < 1 || level > 2)
        return GCUT_FAIL(GCUT_ERR_INVALID, "bad argument");
    const char *what = level == 2 ? "a metric" : "a semi-metric";
    /* The built-in families are known: Potts and truncated linear are
     * metrics, truncated quadratic is one only while trunc <= 1 (then it
     * is Potts); its triangle breaks at V(0,2) against V(0,1) + V(1,2). */
    if (m->kind == V_POTTS || m->kind == V_TL)
        return GCUT_OK;
    if (m->kind == V_TQ) {
        if (level == 1 || m->v_trunc <= 2 || m->v_lambda == 0 || m->L < 3)
            return GCUT_OK;
        int64_t v02 = (int64_t)m->V[2], v01 = m->V[1], v12 = m->V[(size_t)m->L + 2];
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "V(0,2) = %lld > V(0,1) + V(1,2) = %lld: truncated quadratic with "
                         "trunc %d is not a metric (use swap)",
                         (long long)v02, (long long)(v01 + v12), (int)m->v_trunc);
    }
    const int32_t L = m->L, *V = m->V;
    for (int32_t a = 0; a < L; a++) {
        if (V[(size_t)a * L + a] != 0)
            return GCUT_FAIL(GCUT_ERR_INVALID, "V(%d,%d) = %d != 0: not %s", (int)a, (int)a,
                             (int)V[(size_t)a * L + a], what);
        for (int32_t b = 0; b < a; b++)
            if (V[(size_t)a * L + b] != V[(size_t)b * L + a])
                return GCUT_FAIL(GCUT_ERR_INVALID, "V(%d,%d) = %d != V(%d,%d) = %d: not %s",
                                 (int)a, (int)b, (int)V[(size_t)a * L + b], (int)b, (int)a,
                                 (int)V[(size_t)b * L + a], what);
    }
    if (level == 1)
        return GCUT_OK;
    for (int32_t a = 0; a < L; a++)
        for (int32_t b = 0; b < L; b++)
            for (int32_t c = 0; c < L; c++) {
                int64_t ac = V[(size_t)a * L + c];
                int64_t abc = (int64_t)V[(size_t)a * L + b] + V[(size_t)b * L + c];
                if (ac > abc)
                    return GCUT_FAIL(GCUT_ERR_INVALID,
                                     "V(%d,%d) = %lld > V(%d,%d) + V(%d,%d) = %lld: not a metric "
                                     "(alpha-expansion needs one; use swap)",
                                     (int)a, (int)c, (long long)ac, (int)a, (int)b, (int)b, (int)c,
                                     (long long)abc);
            }
    return GCUT_OK;
}

static inline int64_t unary(const gcut_mrf *m, int32_t v, int32_t l)
{
    return m->unary ? m->unary[(size_t)v * m->L + l] : m->fn(m->fn_user, v, l);
}

/* Visit every pair (v, u = v + offset of even direction 2k) inside the grid:
 * the box of v's coordinates whose neighbour is inside. */
#define FOR_PAIRS(m, k, v, u, ...)                                                       \
    do {                                                                                 \
        const int32_t dx_ = (m)->off[k][0], dy_ = (m)->off[k][1], dz_ = (m)->off[k][2];   \
        const int32_t x0_ = dx_ < 0 ? -dx_ : 0, x1_ = (m)->w - (dx_ > 0 ? dx_ : 0);      \
        const int32_t y0_ = dy_ < 0 ? -dy_ : 0, y1_ = (m)->h - (dy_ > 0 ? dy_ : 0);      \
        const int32_t z0_ = dz_ < 0 ? -dz_ : 0, z1_ = (m)->d - (dz_ > 0 ? dz_ : 0);      \
        const int32_t step_ = dx_ + (m)->w * (dy_ + (m)->h * dz_);                        \
        for (int32_t z_ = z0_; z_ < z1_; z_++)                                           \
            for (int32_t y_ = y0_; y_ < y1_; y_++)                                       \
                for (int32_t x_ = x0_; x_ < x1_; x_++) {                                 \
                    const int32_t v = x_ + (m)->w * (y_ + (m)->h * z_), u = v + step_;   \
                    __VA_ARGS__                                                          \
                }                                                                        \
    } while (0)

/* GCUT_OK when every label is in 0 .. L-1, else GCUT_ERR_INVALID naming the first. */
static gcut_status check_labels(const gcut_mrf *m, const int32_t *labels)
{
    for (int32_t v = 0; v < m->n; v++)
        if (labels[v] < 0 || labels[v] >= m->L)
            return GCUT_FAIL(GCUT_ERR_INVALID, "label %d of node %d not in 0 .. %d",
                             (int)labels[v], (int)v, (int)m->L - 1);
    return GCUT_OK;
}

gcut_status gcut_mrf_energy(const gcut_mrf *m, const int32_t *labels, int64_t *energy)
{
    GCUT_ENTRY();
    if (!m || !labels || !energy)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    gcut_status st = check_labels(m, labels);
    if (st != GCUT_OK)
        return st;
    int64_t e = 0;
    for (int32_t v = 0; v < m->n; v++)
        e += unary(m, v, labels[v]);
    for (int32_t k = 0; k < m->conn / 2; k++) {
        const int32_t *wt = m->weight[k];
        FOR_PAIRS(m, k, v, u, {
            int64_t w = wt ? wt[v] : 1;
            e += w * m->V[(size_t)labels[v] * m->L + labels[u]];
        });
    }
    *energy = e;
    return GCUT_OK;
}

/* The move: expansion (beta < 0) on alpha, or the swap of alpha and beta. */
typedef struct move {
    int32_t alpha, beta;
} move;

static inline int move_active(const move *mv, int32_t f)
{
    return mv->beta < 0 || f == mv->alpha || f == mv->beta;
}
static inline int32_t move_l0(const move *mv, int32_t f) { return mv->beta < 0 ? f : mv->alpha; }
static inline int32_t move_l1(const move *mv) { return mv->beta < 0 ? mv->alpha : mv->beta; }

/* The terminal part of the move arrays from m->t, and neg (shared by both
 * builders). */
static gcut_status finish_terminals(gcut_mrf *m, int64_t *neg_out)
{
    int64_t neg = 0;
    for (int32_t v = 0; v < m->n; v++) {
        const int64_t t = m->t[v];
        if (t > INT32_MAX || -t > INT32_MAX)
            return GCUT_FAIL(GCUT_ERR_OVERFLOW,
                             "terminal capacity %lld of node %d passes INT32_MAX (smaller costs)",
                             (long long)t, (int)v);
        m->src[v] = t > 0 ? (int32_t)t : 0;
        m->snk[v] = t < 0 ? (int32_t)-t : 0;
        neg += t < 0 ? -t : 0;
    }
    *neg_out = neg;
    return GCUT_OK;
}

/* The unary costs for expansion moves, read in order: ua[l * n + v] is
 * D_v(l) (label-major: a move on alpha reads one row), cur[v] is D_v(f_v)
 * (kept up to date as moves change f). The node-major table reads a cache
 * line per node and move; it was the builder's main cost. */
typedef struct expand_unary {
    int32_t *ua, *cur;
} expand_unary;

/* build_move for an expansion on alpha with a unary table: the same
 * numbers, with every node active and l0 = f[v], l1 = alpha, so without the
 * per-node and per-pair tests of the general builder. eu: NULL, or the
 * unary costs in move order. */
static gcut_status build_expand(gcut_mrf *m, int32_t alpha, const int32_t *f,
                                const expand_unary *eu, int64_t *K_out, int64_t *neg_out)
{
    const int32_t L = m->L, *V = m->V, *U = m->unary;
    const int32_t *Va = V + (size_t)alpha * L; /* V(alpha, .) */
    const int64_t Vaa = Va[alpha];
    int64_t K = 0, *t = m->t;
    if (eu) {
        const int32_t *ua = eu->ua + (size_t)alpha * (size_t)m->n, *cur = eu->cur;
        for (int32_t v = 0; v < m->n; v++) {
            K += cur[v];
            t[v] = (int64_t)ua[v] - cur[v];
        }
    } else {
        for (int32_t v = 0; v < m->n; v++) {
            const int32_t *u = U + (size_t)v * L;
            const int64_t d0 = u[f[v]];
            K += d0;
            t[v] = u[alpha] - d0;
        }
    }
    int bad = 0;
    for (int32_t k = 0; k < m->conn / 2; k++) {
        const int32_t *wt = m->weight[k];
        int32_t *cap = m->cap[k];
        FOR_PAIRS(m, k, v, u, {
            const int64_t w = wt ? wt[v] : 1;
            const int32_t *Vv = V + (size_t)f[v] * L;
            const int32_t fu = f[u];
            const int64_t A = w * Vv[fu], B = w * Vv[alpha], C = w * Va[fu], D = w * Vaa;
            K += A;
            t[v] += C - A;
            t[u] += D - C;
            const int64_t c = B + C - A - D;
            bad |= c < 0 ? 1 : (c > INT32_MAX ? 2 : 0);
            cap[v] = (int32_t)(c > 0 && c <= INT32_MAX ? c : 0);
        });
        if (bad & 1)
            return GCUT_FAIL(GCUT_ERR_INVALID,
                             "move not representable: V breaks the triangle inequality");
        if (bad)
            return GCUT_FAIL(GCUT_ERR_OVERFLOW, "a pair capacity of the move passes INT32_MAX");
    }
    *K_out = K;
    return finish_terminals(m, neg_out);
}

/* Fill the scratch arrays for a move from labelling f; *K and *neg as in
 * the header comment (E(x) = K - neg + cut(x)). */
static gcut_status build_move(gcut_mrf *m, const move *mv, const int32_t *f, int64_t *K_out,
                              int64_t *neg_out)
{
    const int32_t L = m->L, *V = m->V, l1 = move_l1(mv);
    int64_t K = 0;
    for (int32_t v = 0; v < m->n; v++) {
        if (move_active(mv, f[v])) {
            int64_t d0 = unary(m, v, move_l0(mv, f[v]));
            K += d0;
            m->t[v] = unary(m, v, l1) - d0;
        } else {
            K += unary(m, v, f[v]);
            m->t[v] = 0;
        }
    }
    for (int32_t k = 0; k < m->conn / 2; k++) {
        const int32_t *wt = m->weight[k];
        int32_t *cap = m->cap[k];
        gcut_status bad = GCUT_OK;
        FOR_PAIRS(m, k, v, u, {
            const int64_t w = wt ? wt[v] : 1;
            const int32_t fv = f[v], fu = f[u];
            const int av = move_active(mv, fv), au = move_active(mv, fu);
            int64_t c = 0;
            if (av && au) {
                const int32_t v0 = move_l0(mv, fv), u0 = move_l0(mv, fu);
                const int64_t A = w * V[(size_t)v0 * L + u0], B = w * V[(size_t)v0 * L + l1];
                const int64_t C = w * V[(size_t)l1 * L + u0], D = w * V[(size_t)l1 * L + l1];
                K += A;
                m->t[v] += C - A;
                m->t[u] += D - C;
                c = B + C - A - D;
                if (c < 0 || c > INT32_MAX)
                    bad = c < 0 ? GCUT_ERR_INVALID : GCUT_ERR_OVERFLOW;
            } else if (av) {
                const int64_t a0 = w * V[(size_t)move_l0(mv, fv) * L + fu];
                K += a0;
                m->t[v] += w * V[(size_t)l1 * L + fu] - a0;
            } else if (au) {
                const int64_t a0 = w * V[(size_t)fv * L + move_l0(mv, fu)];
                K += a0;
                m->t[u] += w * V[(size_t)fv * L + l1] - a0;
            } else {
                K += w * V[(size_t)fv * L + fu];
            }
            cap[v] = (int32_t)(c > 0 && c <= INT32_MAX ? c : 0);
        });
        if (bad == GCUT_ERR_INVALID)
            return GCUT_FAIL(GCUT_ERR_INVALID,
                             "move not representable: V breaks the triangle inequality");
        if (bad != GCUT_OK)
            return GCUT_FAIL(GCUT_ERR_OVERFLOW, "a pair capacity of the move passes INT32_MAX");
    }
    *K_out = K;
    return finish_terminals(m, neg_out);
}

/* A swap move touches only the nodes labelled alpha or beta: the builder
 * below writes their entries and those of the previous move's nodes, which
 * go back to 0, and hands the grid those entries alone. The grid then
 * holds exactly what build_move and the whole-array setters would give it
 * (0 everywhere else), so the cut and the flow are the same; the work per
 * move is a scan of the labels and O(active nodes), where the whole
 * arrays took most of a swap run's time (bench/results/
 * stereo-dev2core-2026-11-27.md). */
typedef struct swap_nodes {
    int32_t *act, *prev; /* this move's active nodes, the previous one's */
    int32_t nact, nprev;
} swap_nodes;

/* Whether the neighbour of node (x, y, z) in even direction k (sign 1) or
 * its opposite (sign -1) is inside the grid; *u gets it. */
static inline int pair_inside(const gcut_mrf *m, int32_t x, int32_t y, int32_t z, int32_t k,
                              int32_t sign, int32_t *u)
{
    const int32_t nx = x + sign * m->off[k][0], ny = y + sign * m->off[k][1],
                  nz = z + sign * m->off[k][2];
    if (nx < 0 || nx >= m->w || ny < 0 || ny >= m->h || nz < 0 || nz >= m->d)
        return 0;
    *u = nx + m->w * (ny + m->h * nz);
    return 1;
}

/* The swap of alpha and beta (l0 = alpha, l1 = beta) from labelling f of
 * energy `energy`: K, neg and the move arrays as build_move gives them,
 * written into m's arrays and the grid for the active nodes and the
 * previous move's only. K is the energy of f with every active node set
 * to alpha: `energy` minus the terms of f that involve an active node plus
 * those terms with the active nodes at alpha. */
static gcut_status build_swap(gcut_mrf *m, const move *mv, const int32_t *f, int64_t energy,
                              swap_nodes *sn, gcut_grid *g, int64_t *K_out, int64_t *neg_out)
{
    const int32_t L = m->L, *V = m->V, a = mv->alpha, b = mv->beta, nk = m->conn / 2;
    for (int32_t i = 0; i < sn->nprev; i++) {
        const int32_t v = sn->prev[i];
        m->src[v] = m->snk[v] = 0;
        for (int32_t k = 0; k < nk; k++)
            m->cap[k][v] = 0;
    }
    int32_t na = 0;
    for (int32_t v = 0; v < m->n; v++)
        if (f[v] == a || f[v] == b)
            sn->act[na++] = v;
    sn->nact = na;
    int64_t K = energy;
    for (int32_t i = 0; i < na; i++) {
        const int32_t v = sn->act[i];
        const int64_t d0 = unary(m, v, a);
        K += d0 - unary(m, v, f[v]);
        m->t[v] = unary(m, v, b) - d0;
    }
    int bad = 0;
    for (int32_t i = 0; i < na; i++) {
        const int32_t v = sn->act[i];
        const int32_t x = v % m->w, y = (v / m->w) % m->h, z = v / (m->w * m->h);
        for (int32_t k = 0; k < nk; k++) {
            const int32_t *wt = m->weight[k];
            int32_t u, c32 = 0;
            /* The pair (v, u) of direction k starting at v. */
            if (pair_inside(m, x, y, z, k, 1, &u)) {
                const int64_t w = wt ? wt[v] : 1;
                const int32_t fu = f[u];
                K -= w * V[(size_t)f[v] * L + fu];
                if (fu == a || fu == b) {
                    const int64_t A = w * V[(size_t)a * L + a], B = w * V[(size_t)a * L + b];
                    const int64_t C = w * V[(size_t)b * L + a], D = w * V[(size_t)b * L + b];
                    K += A;
                    m->t[v] += C - A;
                    m->t[u] += D - C;
                    const int64_t c = B + C - A - D;
                    if (c < 0 || c > INT32_MAX)
                        bad = c < 0 ? 1 : 2;
                    c32 = (int32_t)(c > 0 && c <= INT32_MAX ? c : 0);
                } else {
                    const int64_t a0 = w * V[(size_t)a * L + fu];
                    K += a0;
                    m->t[v] += w * V[(size_t)b * L + fu] - a0;
                }
            }
            m->cap[k][v] = c32;
            /* The pair (u, v) ending at v, when u is fixed (an active u
             * counted it above). */
            if (pair_inside(m, x, y, z, k, -1, &u) && f[u] != a && f[u] != b) {
                const int64_t w = wt ? wt[u] : 1;
                const int32_t fu = f[u];
                const int64_t a0 = w * V[(size_t)fu * L + a];
                K += a0 - w * V[(size_t)fu * L + f[v]];
                m->t[v] += w * V[(size_t)fu * L + b] - a0;
            }
        }
    }
    if (bad == 1)
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "move not representable: V breaks the triangle inequality");
    if (bad)
        return GCUT_FAIL(GCUT_ERR_OVERFLOW, "a pair capacity of the move passes INT32_MAX");
    int64_t neg = 0;
    for (int32_t i = 0; i < na; i++) {
        const int32_t v = sn->act[i];
        const int64_t t = m->t[v];
        if (t > INT32_MAX || -t > INT32_MAX)
            return GCUT_FAIL(GCUT_ERR_OVERFLOW,
                             "terminal capacity %lld of node %d passes INT32_MAX (smaller costs)",
                             (long long)t, (int)v);
        m->src[v] = t > 0 ? (int32_t)t : 0;
        m->snk[v] = t < 0 ? (int32_t)-t : 0;
        neg += t < 0 ? -t : 0;
    }
    /* The entries of both moves' nodes to the grid (the setters keep only
     * those that differ). */
    gcut_status st = GCUT_OK;
    for (int pass = 0; pass < 2 && st == GCUT_OK; pass++) {
        const int32_t *list = pass ? sn->act : sn->prev, cnt = pass ? na : sn->nprev;
        for (int32_t i = 0; i < cnt && st == GCUT_OK; i++) {
            const int32_t v = list[i];
            st = gcut_grid_set_terminal_caps_range(g, v, 1, &m->src[v], &m->snk[v]);
            for (int32_t k = 0; k < nk && st == GCUT_OK; k++)
                st = gcut_grid_set_caps_range(g, 2 * k, v, 1, &m->cap[k][v]);
        }
    }
    if (st != GCUT_OK)
        return st;
    int32_t *tmp = sn->prev;
    sn->prev = sn->act;
    sn->nprev = na;
    sn->act = tmp;
    sn->nact = 0;
    *K_out = K;
    *neg_out = neg;
    return GCUT_OK;
}

/* Expansion moves with one grid per label, built incrementally. The grid
 * of label alpha holds the move arrays of alpha's last move, built from
 * the labelling of that time. Between that move and the next one on
 * alpha, only the nodes the accepted moves relabelled change the arrays:
 * the terminal capacity of such a node and of its neighbours (its pairs
 * enter their t) and the capacities of its pairs. So the next move on
 * alpha recomputes those entries alone and hands the grid just them
 * (every other entry already has the value a full build would give), in
 * O(changed nodes) instead of O(n) for the builder and the setters: the
 * grid then holds exactly what build_expand and the whole-array setters
 * would give it, so the flow, the cut and the labels are the same
 * (tests/test_vision_mrf.c compares with full builds). K is the energy of
 * the current labelling (build_expand's sum is E(f)), and neg, the sum of
 * the sink capacities, is kept per label and updated with them. Once
 * many nodes changed (more than a quarter of them since alpha's last
 * move, as in the first cycles from a noisy start) the full build is
 * cheaper and is used. */
typedef struct expand_inc {
    int32_t *log;           /* nodes relabelled by accepted moves, in order */
    int64_t nlog, caplog;   /* entries, capacity (2 n) */
    int64_t epoch;          /* bumped when the log is restarted */
    int64_t *pos, *ep, *neg; /* per label: log entries and epoch at its last build, its neg */
    int32_t *seen, *done;   /* per node: stamps (relabelled seen, entry recomputed) */
    int32_t stamp;
} expand_inc;

/* A node relabelled by an accepted move (a full log starts again: every
 * grid is then rebuilt in full once). */
static void inc_log(expand_inc *in, int32_t v)
{
    if (in->nlog == in->caplog) {
        in->nlog = 0;
        in->epoch++;
    }
    in->log[in->nlog++] = v;
}

/* t of node v in the expansion on alpha from f (build_expand's value). */
static int64_t inc_node_t(const gcut_mrf *m, int32_t alpha, const int32_t *f,
                          const expand_unary *eu, int32_t v)
{
    const int32_t L = m->L, *V = m->V, *Va = V + (size_t)alpha * L;
    const int32_t x = v % m->w, y = (v / m->w) % m->h, z = v / (m->w * m->h);
    int64_t t = (int64_t)eu->ua[(size_t)alpha * (size_t)m->n + (size_t)v] - eu->cur[v];
    for (int32_t k = 0; k < m->conn / 2; k++) {
        const int32_t *wt = m->weight[k];
        int32_t u;
        if (pair_inside(m, x, y, z, k, 1, &u)) { /* (v, u): C - A */
            const int64_t w = wt ? wt[v] : 1;
            t += w * Va[f[u]] - w * V[(size_t)f[v] * L + f[u]];
        }
        if (pair_inside(m, x, y, z, k, -1, &u)) { /* (u, v): D - C */
            const int64_t w = wt ? wt[u] : 1;
            t += w * Va[alpha] - w * Va[f[v]];
        }
    }
    return t;
}

/* The capacity of the pair (v, u) of even direction k (build_expand's c). */
static int64_t inc_pair_c(const gcut_mrf *m, int32_t alpha, const int32_t *f, int32_t k,
                          int32_t v, int32_t u)
{
    const int32_t L = m->L, *V = m->V, *Va = V + (size_t)alpha * L;
    const int64_t w = m->weight[k] ? m->weight[k][v] : 1;
    const int32_t *Vv = V + (size_t)f[v] * L;
    return w * Vv[alpha] + w * Va[f[u]] - w * Vv[f[u]] - w * Va[alpha];
}

/* Set the entry of node v (terminal capacities from t) in g, keeping neg. */
static gcut_status inc_set_t(gcut_grid *g, int32_t v, int64_t t, int64_t *neg)
{
    if (t > INT32_MAX || -t > INT32_MAX)
        return GCUT_FAIL(GCUT_ERR_OVERFLOW,
                         "terminal capacity %lld of node %d passes INT32_MAX (smaller costs)",
                         (long long)t, (int)v);
    const int32_t old = gcut_grid_caps(g, GCUT_GRID_SINK_LINK)[v];
    const int32_t src = t > 0 ? (int32_t)t : 0, snk = t < 0 ? (int32_t)-t : 0;
    *neg += (int64_t)snk - old;
    return gcut_grid_set_terminal_caps_range(g, v, 1, &src, &snk);
}

/* Bring g, which holds alpha's move from the labelling before the log
 * entries from in->pos[alpha] on, to the move from f. */
static gcut_status inc_update(gcut_mrf *m, int32_t alpha, const int32_t *f,
                              const expand_unary *eu, expand_inc *in, gcut_grid *g)
{
    const int32_t nk = m->conn / 2, s = ++in->stamp;
    int64_t neg = in->neg[alpha];
    gcut_status st = GCUT_OK;
    for (int64_t i = in->pos[alpha]; i < in->nlog && st == GCUT_OK; i++) {
        const int32_t v = in->log[i];
        if (in->seen[v] == s)
            continue;
        in->seen[v] = s;
        const int32_t x = v % m->w, y = (v / m->w) % m->h, z = v / (m->w * m->h);
        if (in->done[v] != s) {
            in->done[v] = s;
            st = inc_set_t(g, v, inc_node_t(m, alpha, f, eu, v), &neg);
        }
        for (int32_t k = 0; k < nk && st == GCUT_OK; k++)
            for (int32_t sign = 1; sign >= -1 && st == GCUT_OK; sign -= 2) {
                int32_t u;
                if (!pair_inside(m, x, y, z, k, sign, &u))
                    continue;
                const int32_t p = sign > 0 ? v : u, q = sign > 0 ? u : v; /* p + off_k = q */
                const int64_t c = inc_pair_c(m, alpha, f, k, p, q);
                if (c < 0)
                    return GCUT_FAIL(GCUT_ERR_INVALID,
                                     "move not representable: V breaks the triangle inequality");
                if (c > INT32_MAX)
                    return GCUT_FAIL(GCUT_ERR_OVERFLOW,
                                     "a pair capacity of the move passes INT32_MAX");
                const int32_t c32 = (int32_t)c;
                st = gcut_grid_set_caps_range(g, 2 * k, p, 1, &c32);
                if (st == GCUT_OK && in->done[u] != s) {
                    in->done[u] = s;
                    st = inc_set_t(g, u, inc_node_t(m, alpha, f, eu, u), &neg);
                }
            }
    }
    in->neg[alpha] = neg;
    return st;
}

/* splitmix64: the random label order. */
static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The move list of a cycle in sequential order: the labels (expansion),
 * or the pairs alpha < beta (swap). */
static void fill_moves(move *order, int32_t L, int swap)
{
    int64_t k = 0;
    for (int32_t a = 0; a < L; a++) {
        if (!swap)
            order[k++] = (move){a, -1};
        else
            for (int32_t b = a + 1; b < L; b++)
                order[k++] = (move){a, b};
    }
}

/* One cycle's random order: a Fisher-Yates shuffle of the move list in
 * place, drawn from *rng. The host loop and the device path both use it,
 * so that they make the same moves in the same order. */
static void shuffle_moves(move *order, int64_t n, uint64_t *rng)
{
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = (int64_t)(next_rand(rng) % (uint64_t)(i + 1));
        move tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
}

/* The moves of each cycle for the device: drawn cycle by cycle from the
 * same generator as the host loop's, when the plugin asks for them. */
typedef struct device_moves {
    move *mv;
    int64_t n;
    int random_order, swap;
    uint64_t rng;
    int32_t drawn;                /* cycles drawn so far */
} device_moves;

static void next_cycle_moves(void *user, int32_t cycle, int32_t *out)
{
    device_moves *d = user;
    /* Cycles come in order; the shuffle of each starts from the last. */
    for (; d->drawn < cycle; d->drawn++)
        if (d->random_order)
            shuffle_moves(d->mv, d->n, &d->rng);
    for (int64_t i = 0; i < d->n; i++) {
        if (d->swap) {
            out[2 * i] = d->mv[i].alpha;
            out[2 * i + 1] = d->mv[i].beta;
        } else {
            out[i] = d->mv[i].alpha;
        }
    }
}

/* The device loop's per-move report, forwarded to both callbacks: the
 * caller's gcut_mrf_progress_fn and the progress callback of the solve
 * options. The plugin cannot be stopped from here: a request to stop is
 * kept and honoured when the device loop returns (run_device). */
typedef struct device_progress {
    gcut_mrf_progress_fn fn;
    void *fn_user;
    gcut_i_vprog *pr;
    int32_t max_cycles;
    gcut_status st; /* GCUT_ERR_INTERRUPTED once the callback asked to stop */
} device_progress;

static void device_progress_fn(void *user, int32_t cycle, int32_t label, int64_t energy, double ms)
{
    device_progress *d = user;
    if (d->fn)
        d->fn(d->fn_user, cycle, label, energy, ms);
    if (d->st == GCUT_OK)
        d->st = gcut_i_vprog_report(d->pr, "move", cycle, d->max_cycles,
                                    (double)(cycle - 1) / d->max_cycles, 0);
}

/* Alpha-expansion or alpha-beta swap on a plugin's device (the
 * gcut_mrf_plugin that vision_plugin.h finds for opt->solve), when the
 * back end asked for offers it and the unary costs are a table; the
 * device solves its moves with opt->solve (time limit, log, engine
 * settings) as the host loop's gcut_grid_solve calls would: the same moves in the same order (the
 * random order drawn here, cycle by cycle, exactly as the host loop draws
 * it), each decided by the canonical cut, so the labelling and the
 * energies are the host loop's. Returns GCUT_ERR_UNSUPPORTED (and does
 * nothing) when there is no such plugin. */
static gcut_status run_device(gcut_mrf *m, const gcut_mrf_options *opt, int32_t *labels,
                              gcut_mrf_stats *s, double t_start, int swap)
{
    const gcut_i_grid_shape shape = {m->n, m->conn, 1, m->L, NULL};
    const gcut_mrf_plugin *pm = gcut_i_vision_mrf_plugin(&opt->solve, &shape);
    if (!pm || !m->unary || (swap && !pm->swap))
        return GCUT_ERR_UNSUPPORTED;
    const int32_t L = m->L;
    device_moves dm = {NULL, swap ? (int64_t)L * (L - 1) / 2 : L, opt->random_order, swap,
                       opt->seed, 0};
    dm.mv = gcut_i_malloc_array(dm.n, sizeof(move));
    if (!dm.mv)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
    fill_moves(dm.mv, L, swap);
    int32_t off[3 * GCUT_GRID_MAX_DIRS];
    for (int32_t d = 0; d < m->conn; d++)
        gcut_grid_direction(m->conn, d, &off[3 * d], &off[3 * d + 1], &off[3 * d + 2]);
    gcut_mrf_problem p;
    memset(&p, 0, sizeof p);
    p.width = m->w;
    p.height = m->h;
    p.depth = m->d;
    p.connectivity = m->conn;
    p.num_labels = L;
    p.num_nodes = m->n;
    p.dir_offset = off;
    p.unary = m->unary;
    p.V = m->V;
    p.weight = (const int32_t *const *)m->weight;
    p.max_cycles = opt->max_cycles;
    p.moves_per_cycle = dm.n;
    p.cycle_moves = next_cycle_moves;
    p.moves_user = &dm;
    p.labels = labels;
    p.energy = s->initial_energy;
    p.opt = &opt->solve; /* the caller's, as they are (engine settings too) */
    p.progress = opt->progress;
    p.progress_user = opt->progress_user;
    /* With a progress callback: reports forwarded, and the caller's labels
     * kept to be put back when it asks to stop. */
    gcut_i_vprog pr;
    gcut_i_vprog_init(&pr, &opt->solve, swap ? "swap" : "expansion");
    device_progress dp = {opt->progress, opt->progress_user, &pr, opt->max_cycles, GCUT_OK};
    int32_t *keep = NULL;
    if (gcut_i_vprog_on(&pr)) {
        if (!(keep = gcut_i_malloc_array(m->n, sizeof(int32_t)))) {
            gcut_i_free(dm.mv);
            return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
        }
        memcpy(keep, labels, (size_t)m->n * sizeof(int32_t));
        p.progress = device_progress_fn;
        p.progress_user = &dp;
    }
    gcut_mrf_report r;
    memset(&r, 0, sizeof r);
    r.cycle_energy = s->cycle_energy;
    r.cycle_ms = s->cycle_ms;
    gcut_status st = swap ? pm->swap(&p, &r) : pm->expand(&p, &r);
    gcut_i_free(dm.mv);
    if (st == GCUT_OK && dp.st == GCUT_OK)
        st = gcut_i_vprog_report(&pr, "cycle", r.cycles, opt->max_cycles, 1.0, 1);
    else if (st == GCUT_OK)
        st = dp.st;
    if (st != GCUT_OK && keep)
        memcpy(labels, keep, (size_t)m->n * sizeof(int32_t));
    gcut_i_free(keep);
    if (st != GCUT_OK)
        return st;
    s->energy = r.energy;
    s->cycles = r.cycles;
    s->moves = r.moves;
    s->moves_accepted = r.moves_accepted;
    s->build_ms = r.build_ms;
    s->solve_ms = r.solve_ms;
    s->max_move_ms = r.max_move_ms;
    s->backend = pm->backend;
    s->total_ms = now_ms() - t_start;
    return GCUT_OK;
}

/* The engine settings of the host loop's moves: with cpu-bk,
 * plain BK for the cold starts and the kept search trees for the warm
 * ones, then the caller's settings (later keys win, so the caller can
 * still ask for others). The moves of a stereo energy are cut faster that
 * way than with cpu-bk's defaults, which suit GrabCut's cuts: IBFS took
 * 75 % of teddy's time, and swap moves gain too
 * (bench/results/stereo-dev2core-2026-11-27.md).
 * Every setting gives the same flow and the canonical cut, so the
 * labelling does not change. *keep gets the string to free (NULL: the
 * caller's settings as they are). */
static gcut_status host_params(const gcut_mrf *m, gcut_solve_options *solve, char **keep)
{
    static const char base[] = "cold=plain,warm=bk";
    const gcut_i_grid_shape shape = {m->n, m->conn, 1, m->L, NULL};
    const char *be = gcut_i_grid_backend_name(solve->backend, &shape);
    *keep = NULL;
    if (!be || strcmp(be, "cpu-bk") != 0)
        return GCUT_OK;
    const char *user = solve->params ? solve->params : "";
    const size_t len = sizeof base + 1 + strlen(user);
    char *s = gcut_i_malloc(len);
    if (!s)
        return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
    snprintf(s, len, "%s%s%s", base, *user ? "," : "", user);
    solve->params = s;
    *keep = s;
    return GCUT_OK;
}

static gcut_status run(gcut_mrf *m, const gcut_mrf_options *opt_in, int32_t *labels,
                       gcut_mrf_stats *stats_out, int swap)
{
    const double t_start = now_ms();
    if (!m || !labels)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    gcut_mrf_options opt;
    gcut_mrf_options_init(&opt);
    if (opt_in) {
        if (opt_in->struct_size != sizeof(opt))
            return GCUT_FAIL(GCUT_ERR_INVALID, "options not set up by gcut_mrf_options_init");
        opt = *opt_in;
    }
    if (opt.max_cycles < 1 || opt.max_cycles > GCUT_MRF_MAX_CYCLES)
        return GCUT_FAIL(GCUT_ERR_INVALID, "max_cycles %d not in 1 .. %d", (int)opt.max_cycles,
                         GCUT_MRF_MAX_CYCLES);
    gcut_status st = gcut_mrf_check_metric(m, swap ? 1 : 2);
    if (st != GCUT_OK)
        return st;
    gcut_mrf_stats s;
    memset(&s, 0, sizeof(s));
    st = gcut_mrf_energy(m, labels, &s.initial_energy);
    if (st != GCUT_OK)
        return st;
    {
        st = run_device(m, &opt, labels, &s, t_start, swap);
        if (st == GCUT_OK && stats_out)
            *stats_out = s;
        if (st != GCUT_ERR_UNSUPPORTED)
            return st;
        st = GCUT_OK;
    }
    char *params = NULL;
    if ((st = host_params(m, &opt.solve, &params)) != GCUT_OK)
        return st;
    const int32_t L = m->L, n = m->n;
    int32_t *f = gcut_i_malloc_array(n, sizeof(int32_t));
    /* The move list of a cycle: labels (expansion) or pairs (swap). */
    const int64_t nmoves = swap ? (int64_t)L * (L - 1) / 2 : L;
    move *order = gcut_i_malloc_array(nmoves, sizeof(move));
    if (!f || !order) {
        gcut_i_free(f);
        gcut_i_free(order);
        gcut_i_free(params);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
    }
    memcpy(f, labels, (size_t)n * sizeof(int32_t));
    fill_moves(order, L, swap);
    uint64_t rng = opt.seed;
    int64_t energy = s.initial_energy;
    /* Swap skips pairs with no active node; count labels in use. */
    gcut_grid **lg = NULL;
    gcut_result **lr = NULL;
    expand_unary eu = {NULL, NULL};
    expand_inc inc;
    memset(&inc, 0, sizeof inc);
    swap_nodes sn = {NULL, NULL, 0, 0};
    int64_t *count = swap ? gcut_i_calloc((size_t)L, sizeof(int64_t)) : NULL;
    if (swap && !count) {
        st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
        goto done;
    }
    if (count)
        for (int32_t v = 0; v < n; v++)
            count[f[v]]++;
    /* Swap: the moves' node lists, and m's arrays and its grid all zero,
     * as build_swap expects them (a grid used by an earlier call holds
     * that call's last move). */
    if (swap) {
        sn.act = gcut_i_malloc_array(n, sizeof(int32_t));
        sn.prev = gcut_i_malloc_array(n, sizeof(int32_t));
        if (!sn.act || !sn.prev) {
            st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
            goto done;
        }
        memset(m->src, 0, (size_t)n * sizeof(int32_t));
        memset(m->snk, 0, (size_t)n * sizeof(int32_t));
        st = gcut_grid_set_terminal_caps(m->grid, m->src, m->snk);
        for (int32_t k = 0; k < m->conn / 2; k++) {
            memset(m->cap[k], 0, (size_t)n * sizeof(int32_t));
            if (st == GCUT_OK)
                st = gcut_grid_set_caps(m->grid, 2 * k, m->cap[k]);
        }
        if (st != GCUT_OK)
            goto done;
    }
    /* Expansion with cpu-bk: one grid per label, each keeping the residual
     * graph and search trees of its label's last move, so that the next
     * cycle's move on that label is a warm re-solve of the few capacities
     * that changed (Alahari, Kohli & Torr, PAMI 2010, as the device path
     * does). About 57 bytes per node and label: only while that stays
     * under PER_LABEL_MAX_BYTES and half the memory budget; otherwise one
     * grid serves every move. Same cuts either way (a warm solve gives the
     * cold one's flow and canonical cut). Teddy, census: cycles 3 to 5
     * three times faster (bench/results/stereo-dev2core-2026-11-27.md). */
    const double per_label_bytes = 57.0 * (double)n * (double)L;
    const size_t budget = opt.solve.max_memory ? opt.solve.max_memory : gcut_i_budget();
    if (!swap && params && per_label_bytes <= PER_LABEL_MAX_BYTES &&
        (!budget || per_label_bytes <= 0.5 * (double)budget)) {
        lg = gcut_i_calloc((size_t)L, sizeof(*lg));
        lr = gcut_i_calloc((size_t)L, sizeof(*lr));
        if (!lg || !lr) {
            st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory");
            goto done;
        }
    }
    /* Expansion with a unary table: the table label-major too (as much
     * memory again; without it, when that cannot be had, the moves read
     * the table as it is, with the same results). */
    if (!swap && m->unary) {
        eu.ua = gcut_i_malloc_array((int64_t)n * L, sizeof(int32_t));
        eu.cur = gcut_i_malloc_array(n, sizeof(int32_t));
        if (eu.ua && eu.cur) {
            for (int32_t v = 0; v < n; v++) {
                const int32_t *u = m->unary + (size_t)v * L;
                for (int32_t l = 0; l < L; l++)
                    eu.ua[(size_t)l * (size_t)n + (size_t)v] = u[l];
                eu.cur[v] = u[f[v]];
            }
        } else {
            gcut_clear_error();
            gcut_i_free(eu.ua);
            gcut_i_free(eu.cur);
            eu.ua = eu.cur = NULL;
        }
    }
    /* Incremental builds need the per-label grids and the label-major
     * costs; without their memory every move is built in full. */
    if (lg && eu.ua) {
        inc.caplog = 2 * (int64_t)n;
        inc.log = gcut_i_malloc_array(inc.caplog, sizeof(int32_t));
        inc.pos = gcut_i_malloc_array(L, sizeof(int64_t));
        inc.ep = gcut_i_malloc_array(L, sizeof(int64_t));
        inc.neg = gcut_i_malloc_array(L, sizeof(int64_t));
        inc.seen = gcut_i_calloc((size_t)n, sizeof(int32_t));
        inc.done = gcut_i_calloc((size_t)n, sizeof(int32_t));
        if (!inc.log || !inc.pos || !inc.ep || !inc.neg || !inc.seen || !inc.done) {
            gcut_clear_error();
            gcut_i_free(inc.log);
            inc.log = NULL;
        }
    }
    gcut_i_vprog pr;
    gcut_i_vprog_init(&pr, &opt.solve, swap ? "swap" : "expansion");
    for (int32_t cycle = 1; cycle <= opt.max_cycles; cycle++) {
        const double t_cycle = now_ms();
        int accepted = 0;
        if (opt.random_order)
            shuffle_moves(order, nmoves, &rng);
        for (int64_t i = 0; i < nmoves; i++) {
            const move mv = order[i];
            if (swap && count[mv.alpha] + count[mv.beta] == 0)
                continue;
            const double t0 = now_ms();
            int64_t K = 0, neg = 0;
            gcut_grid *grid = m->grid;
            gcut_result *res = m->res;
            /* An incremental build: alpha's grid exists and holds a move
             * built since the log started, with few changes after it. */
            const int inc_ok = inc.log && lg[mv.alpha] && inc.ep[mv.alpha] == inc.epoch &&
                               4 * (inc.nlog - inc.pos[mv.alpha]) <= (int64_t)n;
            if (inc_ok) {
                st = inc_update(m, mv.alpha, f, &eu, &inc, lg[mv.alpha]);
                K = energy;
                neg = inc.neg[mv.alpha];
            } else if (swap)
                st = build_swap(m, &mv, f, energy, &sn, grid, &K, &neg);
            else if (m->unary)
                st = build_expand(m, mv.alpha, f, eu.ua ? &eu : NULL, &K, &neg);
            else
                st = build_move(m, &mv, f, &K, &neg);
            if (st != GCUT_OK)
                goto done;
            if (lg) {
                if (!lg[mv.alpha]) {
                    st = gcut_grid_new(&lg[mv.alpha], m->w, m->h, m->d, m->conn);
                    if (st == GCUT_OK)
                        st = gcut_result_new(&lr[mv.alpha]);
                    if (st != GCUT_OK)
                        goto done;
                    gcut_i_grid_set_hint(lg[mv.alpha], 1, L);
                }
                grid = lg[mv.alpha];
                res = lr[mv.alpha];
            }
            if (!swap && !inc_ok) {
                st = gcut_grid_set_terminal_caps(grid, m->src, m->snk);
                for (int32_t d = 0; st == GCUT_OK && d < m->conn / 2; d++)
                    st = gcut_grid_set_caps(grid, 2 * d, m->cap[d]);
                if (st != GCUT_OK)
                    goto done;
            }
            if (inc.log) {
                if (!inc_ok)
                    inc.neg[mv.alpha] = neg;
                inc.pos[mv.alpha] = inc.nlog;
                inc.ep[mv.alpha] = inc.epoch;
            }
            const double t1 = now_ms();
            st = gcut_grid_solve(grid, &opt.solve, res);
            if (st != GCUT_OK)
                goto done;
            const double t2 = now_ms();
            s.moves++;
            s.backend = gcut_result_backend(res);
            const int64_t e_new = K - neg + gcut_result_flow(res);
            if (e_new < energy) {
                const uint8_t *cut = gcut_result_cut(res);
                const int32_t l1 = move_l1(&mv);
                if (eu.ua)
                    for (int32_t v = 0; v < n; v++)
                        if (cut[v] == GCUT_SINK)
                            eu.cur[v] = eu.ua[(size_t)l1 * (size_t)n + (size_t)v];
                if (swap) {
                    for (int32_t j = 0; j < sn.nprev; j++) { /* this move's nodes */
                        const int32_t v = sn.prev[j];
                        const int32_t nl = cut[v] == GCUT_SINK ? l1 : mv.alpha;
                        if (nl != f[v]) {
                            count[f[v]]--;
                            count[nl]++;
                        }
                        f[v] = nl;
                    }
                } else {
                    for (int32_t v = 0; v < n; v++)
                        if (cut[v] == GCUT_SINK) {
                            if (inc.log && f[v] != l1)
                                inc_log(&inc, v);
                            f[v] = l1;
                        }
                }
                energy = e_new;
                accepted = 1;
                s.moves_accepted++;
            }
            const double t3 = now_ms();
            s.build_ms += (t1 - t0) + (t3 - t2);
            s.solve_ms += t2 - t1;
            if (t3 - t0 > s.max_move_ms)
                s.max_move_ms = t3 - t0;
            if (opt.progress)
                opt.progress(opt.progress_user, cycle,
                             swap ? mv.alpha * L + mv.beta : mv.alpha, energy, t3 - t0);
            /* Step: the move within the cycle. */
            st = gcut_i_vprog_report(&pr, "move", i + 1, nmoves,
                                     ((cycle - 1) + (double)(i + 1) / nmoves) / opt.max_cycles, 0);
            if (st != GCUT_OK)
                goto done;
        }
        s.cycle_energy[cycle - 1] = energy;
        s.cycle_ms[cycle - 1] = now_ms() - t_cycle;
        s.cycles = cycle;
        st = gcut_i_vprog_report(&pr, "cycle", cycle, opt.max_cycles,
                                 accepted ? (double)cycle / opt.max_cycles : 1.0, 1);
        if (st != GCUT_OK)
            goto done;
        if (!accepted)
            break;
    }
    memcpy(labels, f, (size_t)n * sizeof(int32_t));
    s.energy = energy;
    s.total_ms = now_ms() - t_start;
    if (stats_out)
        *stats_out = s;
done:
    gcut_i_free(count);
    gcut_i_free(order);
    gcut_i_free(f);
    gcut_i_free(params);
    for (int32_t a = 0; lg && lr && a < L; a++) {
        gcut_grid_free(lg[a]);
        gcut_result_free(lr[a]);
    }
    gcut_i_free(lg);
    gcut_i_free(lr);
    gcut_i_free(eu.ua);
    gcut_i_free(eu.cur);
    gcut_i_free(inc.log);
    gcut_i_free(inc.pos);
    gcut_i_free(inc.ep);
    gcut_i_free(inc.neg);
    gcut_i_free(inc.seen);
    gcut_i_free(inc.done);
    gcut_i_free(sn.act);
    gcut_i_free(sn.prev);
    return st;
}

gcut_status gcut_mrf_expansion_grid(gcut_mrf *m, const int32_t *labels, int32_t alpha,
                                    gcut_grid **out, int64_t *constant)
{
    GCUT_ENTRY();
    if (!m || !labels || !out || !constant)
        return GCUT_FAIL(GCUT_ERR_INVALID, "m, labels, out and constant must not be NULL");
    if (alpha < 0 || alpha >= m->L)
        return GCUT_FAIL(GCUT_ERR_INVALID, "alpha %d not in 0 .. %d", (int)alpha, (int)m->L - 1);
    gcut_status st = check_labels(m, labels);
    if (st != GCUT_OK)
        return st;
    const move mv = {alpha, -1};
    int64_t K = 0, neg = 0;
    if ((st = build_move(m, &mv, labels, &K, &neg)) != GCUT_OK)
        return st;
    gcut_grid *g;
    if ((st = gcut_grid_new(&g, m->w, m->h, m->d, m->conn)) != GCUT_OK)
        return st;
    st = gcut_grid_set_terminal_caps(g, m->src, m->snk);
    for (int32_t k = 0; st == GCUT_OK && k < m->conn / 2; k++)
        st = gcut_grid_set_caps(g, 2 * k, m->cap[k]);
    if (st != GCUT_OK) {
        gcut_grid_free(g);
        return st;
    }
    *out = g;
    *constant = K - neg;
    return GCUT_OK;
}

gcut_status gcut_mrf_expand(gcut_mrf *m, const gcut_mrf_options *opt, int32_t *labels,
                            gcut_mrf_stats *stats)
{
    GCUT_ENTRY();
    return run(m, opt, labels, stats, 0);
}

gcut_status gcut_mrf_swap(gcut_mrf *m, const gcut_mrf_options *opt, int32_t *labels,
                          gcut_mrf_stats *stats)
{
    GCUT_ENTRY();
    return run(m, opt, labels, stats, 1);
}
