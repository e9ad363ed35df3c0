/*
 * gmm.c - Gaussian mixture colour models for segmentation.
 *
 * C. Rother, V. Kolmogorov, A. Blake, "GrabCut: interactive foreground
 * extraction using iterated graph cuts", SIGGRAPH 2004, section 3: each
 * class (foreground, background) is a mixture of k full-covariance
 * Gaussians in RGB; a pixel's data cost is its negative log-likelihood.
 * The paper initialises the components with the colour quantiser of
 * M. Orchard, C. Bouman, "Color quantization of images", IEEE Trans. Signal
 * Processing 39(12), 1991: start from one cluster and repeatedly split the
 * cluster whose colours spread most (largest covariance eigenvalue) by the
 * plane through its mean normal to that eigenvector.
 *
 * Invariants:
 *  - everything is deterministic: no random initialisation, and sums run
 *    over pixels in index order, so the same input gives the same model;
 *  - a component with no pixel gets weight 0 and is skipped by every
 *    evaluation; the others have weights summing to 1;
 *  - every covariance has GMM_VAR_FLOOR added to its diagonal, so it is
 *    positive definite even for a component of identical colours (flat
 *    regions, gray images whose three channels are equal) and the
 *    log-likelihood stays finite.
 */
#include <math.h>
#include <string.h>

#include "segment/segment_internal.h"

/* Added to each variance (in squared 8-bit levels). The colours are
 * integers, so a component may hold a single colour; one level^2 keeps
 * its density bounded (a quantisation step is 1 level) without blurring
 * real colour differences, which are tens of levels. */
#define GMM_VAR_FLOOR 1.0

typedef gcut_i_gmm_acc gmm_acc;

static void acc_add(gmm_acc *a, const float *x)
{
    const double r = x[0], g = x[1], b = x[2];
    a->count += 1.0;
    a->sum[0] += r;
    a->sum[1] += g;
    a->sum[2] += b;
    a->prod[0] += r * r;
    a->prod[1] += r * g;
    a->prod[2] += r * b;
    a->prod[3] += g * g;
    a->prod[4] += g * b;
    a->prod[5] += b * b;
}

/* Mean and covariance (with the floor) of an accumulator with count > 0. */
static void acc_moments(const gmm_acc *a, double mean[3], double cov[9])
{
    const double c = a->count;
    for (int i = 0; i < 3; i++)
        mean[i] = a->sum[i] / c;
    static const int idx[3][3] = {{0, 1, 2}, {1, 3, 4}, {2, 4, 5}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            cov[i * 3 + j] = a->prod[idx[i][j]] / c - mean[i] * mean[j];
    for (int i = 0; i < 3; i++)
        cov[i * 4] += GMM_VAR_FLOOR;
}

/* Largest eigenvalue and its eigenvector of a symmetric 3x3 matrix, by
 * cyclic Jacobi rotations (exact enough after a few sweeps for 3x3). */
static double principal_axis(const double cov[9], double vec[3])
{
    double a[3][3], v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            a[i][j] = cov[i * 3 + j];
    for (int sweep = 0; sweep < 30; sweep++) {
        const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        if (off < 1e-18 * (a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2]) + 1e-300)
            break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                if (a[p][q] == 0.0)
                    continue;
                /* The rotation that zeroes a[p][q] (Golub & Van Loan 8.4). */
                const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                const double t = (theta >= 0 ? 1.0 : -1.0) /
                                 (fabs(theta) + sqrt(theta * theta + 1.0));
                const double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < 3; k++) {
                    const double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) {
                    const double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; k++) {
                    const double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
    }
    int best = 0;
    for (int i = 1; i < 3; i++)
        if (a[i][i] > a[best][best])
            best = i;
    for (int k = 0; k < 3; k++)
        vec[k] = v[k][best];
    return a[best][best];
}

/* Turn accumulators into the model: weights, moments, inverses, constants. */
void gcut_i_gmm_from_acc(gcut_i_gmm *g, int32_t k, const gcut_i_gmm_acc *acc)
{
    double total = 0.0;
    for (int32_t c = 0; c < k; c++)
        total += acc[c].count;
    memset(g, 0, sizeof *g);
    g->k = k;
    const double log2pi = 1.8378770664093454836; /* log(2 pi) */
    for (int32_t c = 0; c < k; c++) {
        if (acc[c].count <= 0.0) {
            g->logc[c] = -INFINITY;
            continue;
        }
        g->weight[c] = acc[c].count / total;
        acc_moments(&acc[c], g->mean[c], g->cov[c]);
        const double *m = g->cov[c];
        /* Inverse by cofactors; det > 0 because of the floor. */
        const double c00 = m[4] * m[8] - m[5] * m[7];
        const double c01 = m[5] * m[6] - m[3] * m[8];
        const double c02 = m[3] * m[7] - m[4] * m[6];
        double det = m[0] * c00 + m[1] * c01 + m[2] * c02;
        if (!(det > 1e-300))
            det = 1e-300;
        const double i00 = c00 / det, i01 = c01 / det, i02 = c02 / det;
        const double i11 = (m[0] * m[8] - m[2] * m[6]) / det;
        const double i12 = (m[2] * m[3] - m[0] * m[5]) / det;
        const double i22 = (m[0] * m[4] - m[1] * m[3]) / det;
        /* Off-diagonal terms doubled: Q = sum over the upper triangle. */
        g->inv[c][0] = (float)i00;
        g->inv[c][1] = (float)(2.0 * i01);
        g->inv[c][2] = (float)(2.0 * i02);
        g->inv[c][3] = (float)i11;
        g->inv[c][4] = (float)(2.0 * i12);
        g->inv[c][5] = (float)i22;
        for (int i = 0; i < 3; i++)
            g->fmean[c][i] = (float)g->mean[c][i];
        g->logc[c] = (float)(log(g->weight[c]) - 0.5 * log(det) - 1.5 * log2pi);
    }
}

/* log(pi_c N_c(x)) for component c. */
static inline float comp_log(const gcut_i_gmm *g, int32_t c, const float *x)
{
    const float d0 = x[0] - g->fmean[c][0], d1 = x[1] - g->fmean[c][1],
                d2 = x[2] - g->fmean[c][2];
    const float *iv = g->inv[c];
    const float q = d0 * (iv[0] * d0 + iv[1] * d1 + iv[2] * d2) +
                    d1 * (iv[3] * d1 + iv[4] * d2) + d2 * iv[5] * d2;
    return g->logc[c] - 0.5f * q;
}

float gcut_i_gmm_nll(const gcut_i_gmm *g, const float *x, uint8_t *best)
{
    float l[GCUT_I_GMM_MAX_K];
    float top = -INFINITY;
    int32_t arg = 0;
    for (int32_t c = 0; c < g->k; c++) {
        if (g->weight[c] <= 0.0) {
            l[c] = -INFINITY;
            continue;
        }
        l[c] = comp_log(g, c, x);
        if (l[c] > top) {
            top = l[c];
            arg = c;
        }
    }
    if (best)
        *best = (uint8_t)arg;
    /* log-sum-exp around the largest term: the others are <= 1 after the shift. */
    float s = 0.0f;
    for (int32_t c = 0; c < g->k; c++)
        if (l[c] > -INFINITY)
            s += expf(l[c] - top);
    return -(top + logf(s));
}

/* On x86-64 with GCC, a second copy for AVX2 machines (8 floats a vector
 * instead of 4), picked at load time. -std=c11 keeps FMA contraction off,
 * so both copies compute the same bits. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__)
__attribute__((target_clones("avx2", "default")))
#endif
void gcut_i_gmm_nll_run(const gcut_i_gmm *g, const float *rgb, int64_t count, float *nll,
                        uint8_t *best)
{
    enum { B = 64 };
    float l[GCUT_I_GMM_MAX_K][B], top[B], sum[B], ch[3][B];
    float arg[B]; /* the best component, as a float: the selects then vectorise */
    int32_t live[GCUT_I_GMM_MAX_K], nl = 0;
    for (int32_t c = 0; c < g->k; c++)
        if (g->weight[c] > 0.0)
            live[nl++] = c;
    if (nl == 0) {
        for (int64_t i = 0; i < count; i++)
            nll[i] = INFINITY;
        if (best)
            memset(best, 0, (size_t)count);
        return;
    }
    for (int64_t i0 = 0; i0 < count; i0 += B) {
        const int32_t m = count - i0 < B ? (int32_t)(count - i0) : B;
        const float *x = rgb + 3 * i0;
        /* Channels apart, so that the loops below run at unit stride. */
        for (int32_t i = 0; i < m; i++) {
            ch[0][i] = x[3 * i];
            ch[1][i] = x[3 * i + 1];
            ch[2][i] = x[3 * i + 2];
        }
        /* log(pi_c N_c(x)) of every live component, one component at a
         * time over the block (a loop the compiler vectorises). */
        for (int32_t j = 0; j < nl; j++) {
            const int32_t c = live[j];
            const float m0 = g->fmean[c][0], m1 = g->fmean[c][1], m2 = g->fmean[c][2];
            const float *iv = g->inv[c];
            const float a0 = iv[0], a1 = iv[1], a2 = iv[2], a3 = iv[3], a4 = iv[4], a5 = iv[5];
            const float lc = g->logc[c];
            float *o = l[j];
            for (int32_t i = 0; i < m; i++) {
                const float d0 = ch[0][i] - m0, d1 = ch[1][i] - m1, d2 = ch[2][i] - m2;
                o[i] = lc - 0.5f * gcut_i_gmm_quad(d0, d1, d2, a0, a1, a2, a3, a4, a5);
            }
        }
        for (int32_t i = 0; i < m; i++) {
            top[i] = l[0][i];
            arg[i] = (float)live[0];
        }
        for (int32_t j = 1; j < nl; j++) {
            const float c = (float)live[j];
            for (int32_t i = 0; i < m; i++) {
                arg[i] = l[j][i] > top[i] ? c : arg[i];
                top[i] = l[j][i] > top[i] ? l[j][i] : top[i];
            }
        }
        for (int32_t i = 0; i < m; i++)
            sum[i] = 0.0f;
        for (int32_t j = 0; j < nl; j++)
            for (int32_t i = 0; i < m; i++)
                sum[i] += gcut_i_exp_neg(l[j][i] - top[i]);
        for (int32_t i = 0; i < m; i++)
            nll[i0 + i] = -(top[i] + gcut_i_log_ge1(sum[i]));
        if (best)
            for (int32_t i = 0; i < m; i++)
                best[i0 + i] = (uint8_t)arg[i];
    }
}

gcut_status gcut_i_gmm_learn(gcut_i_gmm *g, int32_t k, const float *rgb, int64_t n,
                             const uint8_t *select, uint8_t want, const uint8_t *comp)
{
    gmm_acc acc[GCUT_I_GMM_MAX_K];
    memset(acc, 0, sizeof acc);
    int64_t used = 0;
    for (int64_t p = 0; p < n; p++) {
        if (select[p] != want)
            continue;
        acc_add(&acc[comp[p] < k ? comp[p] : 0], rgb + 3 * p);
        used++;
    }
    if (used == 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "no pixel of class %u to learn a colour model from",
                         (unsigned)want);
    gcut_i_gmm_from_acc(g, k, acc);
    return GCUT_OK;
}

int64_t gcut_i_gmm_sum(gcut_i_gmm_acc *acc, int32_t k, const float *rgb, int64_t n,
                       const uint8_t *select, uint8_t want, const uint8_t *comp)
{
    memset(acc, 0, (size_t)k * sizeof *acc);
    int64_t used = 0;
    for (int64_t p = 0; p < n; p++) {
        if (select[p] != want)
            continue;
        acc_add(&acc[comp[p] < k ? comp[p] : 0], rgb + 3 * p);
        used++;
    }
    return used;
}

void gcut_i_gmm_learn_both(gcut_i_gmm g[2], int32_t k, const float *rgb, int64_t n,
                           const uint8_t *label, const uint8_t *comp0, const uint8_t *comp1)
{
    gmm_acc acc[2][GCUT_I_GMM_MAX_K];
    memset(acc, 0, sizeof acc);
    int64_t used[2] = {0, 0};
    for (int64_t p = 0; p < n; p++) {
        const int l = label[p] != 0;
        const uint8_t c = l ? comp1[p] : comp0[p];
        acc_add(&acc[l][c < k ? c : 0], rgb + 3 * p);
        used[l]++;
    }
    for (int l = 1; l >= 0; l--)
        if (used[l])
            gcut_i_gmm_from_acc(&g[l], k, acc[l]);
}

/* ------------------------------------------------------------ the fit */

/* The CPU passes of gcut_i_gmm_fit: over the pixels p < n with
 * select[p] == want, in index order. */
typedef struct cpu_passes {
    const float *rgb;
    int64_t n;
    const uint8_t *select;
    uint8_t want;
    uint8_t *comp;
} cpu_passes;

static gcut_status cpu_start(void *user, gcut_i_gmm_acc *acc)
{
    const cpu_passes *c = user;
    for (int64_t p = 0; p < c->n; p++)
        if (c->select[p] == c->want) {
            c->comp[p] = 0;
            acc_add(acc, c->rgb + 3 * p);
        }
    return GCUT_OK;
}

static gcut_status cpu_split(void *user, int32_t widest, int32_t used, const double axis[3],
                             double thr, gcut_i_gmm_acc *a_widest, gcut_i_gmm_acc *a_used)
{
    const cpu_passes *c = user;
    for (int64_t p = 0; p < c->n; p++) {
        if (c->select[p] != c->want || c->comp[p] != widest)
            continue;
        const float *x = c->rgb + 3 * p;
        const double proj = axis[0] * x[0] + axis[1] * x[1] + axis[2] * x[2];
        if (proj > thr) {
            c->comp[p] = (uint8_t)used;
            acc_add(a_used, x);
        } else {
            acc_add(a_widest, x);
        }
    }
    return GCUT_OK;
}

static gcut_status cpu_assign(void *user, const gcut_i_gmm *g, int32_t k, gcut_i_gmm_acc *acc)
{
    const cpu_passes *c = user;
    const uint8_t *select = c->select;
    const int64_t n = c->n;
    for (int64_t p = 0; p < n;) {
        if (select[p] != c->want) {
            p++;
            continue;
        }
        int64_t q = p + 1;
        while (q < n && select[q] == c->want)
            q++;
        /* A run of selected pixels in one batch; its costs are scratch. */
        for (int64_t r0 = p; r0 < q; r0 += 256) {
            float scratch[256];
            gcut_i_gmm_nll_run(g, c->rgb + 3 * r0, q - r0 < 256 ? q - r0 : 256, scratch,
                               c->comp + r0);
        }
        p = q;
    }
    for (int64_t p = 0; p < n; p++)
        if (select[p] == c->want)
            acc_add(&acc[c->comp[p] < k ? c->comp[p] : 0], c->rgb + 3 * p);
    return GCUT_OK;
}

gcut_status gcut_i_gmm_fit_passes(gcut_i_gmm *g, int32_t k, const gcut_i_gmm_passes *ps,
                                  uint8_t want, int32_t rounds)
{
    if (k < 1 || k > GCUT_I_GMM_MAX_K)
        return GCUT_FAIL(GCUT_ERR_INVALID, "GMM components %d outside 1..%d", (int)k,
                         GCUT_I_GMM_MAX_K);
    gmm_acc acc[GCUT_I_GMM_MAX_K];
    memset(acc, 0, sizeof acc);
    gcut_status st = ps->start(ps->user, &acc[0]);
    if (st != GCUT_OK)
        return st;
    if (acc[0].count == 0.0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "no pixel of class %u to learn a colour model from",
                         (unsigned)want);
    /* Binary splitting: `used` clusters so far; split the widest. */
    for (int32_t used = 1; used < k; used++) {
        int32_t widest = -1;
        double widest_val = 0.0, axis[3] = {0, 0, 0}, centre[3] = {0, 0, 0};
        for (int32_t c = 0; c < used; c++) {
            if (acc[c].count < 2.0)
                continue;
            double mean[3], cov[9], vec[3];
            acc_moments(&acc[c], mean, cov);
            const double lam = principal_axis(cov, vec) - GMM_VAR_FLOOR;
            if (lam > widest_val) {
                widest_val = lam;
                widest = c;
                memcpy(axis, vec, sizeof axis);
                memcpy(centre, mean, sizeof centre);
            }
        }
        if (widest < 0)
            break; /* every cluster is a single colour: nothing left to split */
        const double thr = axis[0] * centre[0] + axis[1] * centre[1] + axis[2] * centre[2];
        memset(&acc[widest], 0, sizeof acc[widest]);
        if ((st = ps->split(ps->user, widest, used, axis, thr, &acc[widest], &acc[used])) !=
            GCUT_OK)
            return st;
    }
    gcut_i_gmm_from_acc(g, k, acc);
    /* Hard-EM rounds: assign each pixel its most likely component, re-learn. */
    for (int32_t r = 0; r < rounds; r++) {
        memset(acc, 0, sizeof acc);
        if ((st = ps->assign(ps->user, g, k, acc)) != GCUT_OK)
            return st;
        double used = 0.0;
        for (int32_t c = 0; c < k; c++)
            used += acc[c].count;
        if (used == 0.0)
            return GCUT_FAIL(GCUT_ERR_INVALID,
                             "no pixel of class %u to learn a colour model from", (unsigned)want);
        gcut_i_gmm_from_acc(g, k, acc);
    }
    return GCUT_OK;
}

/* ------------------------------------------------ the fit over distinct colours */

/* With whole-number colours in [0, 255] (8-bit images) every pass of the
 * fit treats the pixels of one colour alike: the split compares the same
 * projection with the threshold, the assignment picks the same most
 * likely component (gcut_i_gmm_nll_run works pixel by pixel, the same
 * operations for every pixel of a batch), and the moments are whole
 * numbers, whose sums are exact in any order (gcut_i_gmm_mom). So the fit
 * runs over the distinct colours of the class, each weighted by its
 * pixel count, and gives the model bit for bit: a photo's class holds
 * 2 to 60 % as many distinct colours as pixels (median about 25 % on the
 * GrabCut set), and the seven passes (start, four splits, two
 * assignments) shrink with it. The colours are found by a radix sort of
 * their 24-bit codes (three byte passes), in an order that plays no part. */
typedef struct cpu_upasses {
    const float *rgb; /* 3m: the distinct colours */
    const int64_t *w; /* m: their pixel counts */
    int64_t m;
    uint8_t *comp;    /* m: the component of each */
} cpu_upasses;

static gcut_status u_start(void *user, gcut_i_gmm_acc *acc)
{
    const cpu_upasses *c = user;
    gcut_i_gmm_mom m;
    memset(&m, 0, sizeof m);
    for (int64_t i = 0; i < c->m; i++) {
        c->comp[i] = 0;
        gcut_i_gmm_mom_add(&m, c->rgb + 3 * i, c->w[i]);
    }
    gcut_i_gmm_mom_to_acc(&m, acc);
    return GCUT_OK;
}

static gcut_status u_split(void *user, int32_t widest, int32_t used, const double axis[3],
                           double thr, gcut_i_gmm_acc *a_widest, gcut_i_gmm_acc *a_used)
{
    const cpu_upasses *c = user;
    gcut_i_gmm_mom m[2];
    memset(m, 0, sizeof m);
    for (int64_t i = 0; i < c->m; i++) {
        if (c->comp[i] != widest)
            continue;
        const float *x = c->rgb + 3 * i;
        const double proj = axis[0] * x[0] + axis[1] * x[1] + axis[2] * x[2];
        const int up = proj > thr;
        c->comp[i] = (uint8_t)(up ? used : widest);
        gcut_i_gmm_mom_add(&m[up], x, c->w[i]);
    }
    gcut_i_gmm_mom_to_acc(&m[0], a_widest);
    gcut_i_gmm_mom_to_acc(&m[1], a_used);
    return GCUT_OK;
}

static gcut_status u_assign(void *user, const gcut_i_gmm *g, int32_t k, gcut_i_gmm_acc *acc)
{
    const cpu_upasses *c = user;
    for (int64_t r0 = 0; r0 < c->m; r0 += 256) {
        float scratch[256];
        gcut_i_gmm_nll_run(g, c->rgb + 3 * r0, c->m - r0 < 256 ? c->m - r0 : 256, scratch,
                           c->comp + r0);
    }
    gcut_i_gmm_mom m[GCUT_I_GMM_MAX_K];
    memset(m, 0, sizeof m);
    for (int64_t i = 0; i < c->m; i++)
        gcut_i_gmm_mom_add(&m[c->comp[i] < k ? c->comp[i] : 0], c->rgb + 3 * i, c->w[i]);
    for (int32_t j = 0; j < k; j++)
        gcut_i_gmm_mom_to_acc(&m[j], &acc[j]);
    return GCUT_OK;
}

/* The distinct colours of the pixels with select[p] == want and their
 * counts, into *rgb_out (3m floats) and *w_out (m), both in one block
 * (*block, to free). Returns 0 (nothing allocated) when some selected
 * colour is not a whole number in [0, 255], when no pixel is selected,
 * or without memory: the caller fits pixel by pixel then. */
static int distinct_colours(const float *rgb, int64_t n, const uint8_t *select, uint8_t want,
                            void **block, float **rgb_out, int64_t **w_out, int64_t *m_out)
{
    int64_t m = 0;
    for (int64_t p = 0; p < n; p++)
        m += select[p] == want;
    if (m == 0 || m > (int64_t)UINT32_MAX)
        return 0;
    uint32_t *key = gcut_i_malloc_array(2 * m, sizeof(uint32_t));
    if (!key)
        return 0;
    uint32_t *tmp = key + m;
    /* The codes, and the histograms of their three bytes on the way. */
    uint32_t cnt[3][256];
    memset(cnt, 0, sizeof cnt);
    int64_t j = 0;
    for (int64_t p = 0; p < n; p++) {
        if (select[p] != want)
            continue;
        const float *x = rgb + 3 * p;
        const int32_t r = (int32_t)x[0], g = (int32_t)x[1], b = (int32_t)x[2];
        if ((float)r != x[0] || (float)g != x[1] || (float)b != x[2] ||
            ((uint32_t)r | (uint32_t)g | (uint32_t)b) > 255u) {
            gcut_i_free(key);
            return 0;
        }
        key[j++] = (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
        cnt[0][b]++;
        cnt[1][g]++;
        cnt[2][r]++;
    }
    /* LSD radix sort, a byte a pass (the counts fit: m <= UINT32_MAX). */
    for (int pass = 0; pass < 3; pass++) {
        const int shift = 8 * pass;
        uint32_t at = 0;
        for (int c = 0; c < 256; c++) {
            const uint32_t k = cnt[pass][c];
            cnt[pass][c] = at;
            at += k;
        }
        uint32_t *o = cnt[pass];
        for (int64_t i = 0; i < m; i++)
            tmp[o[(key[i] >> shift) & 255u]++] = key[i];
        uint32_t *t = key;
        key = tmp;
        tmp = t;
    }
    /* After three passes the sorted codes are in the second half. */
    const uint32_t *sorted = key;
    uint32_t *base = key < tmp ? key : tmp;
    int64_t u = 1;
    for (int64_t i = 1; i < m; i++)
        u += sorted[i] != sorted[i - 1];
    void *blk = gcut_i_malloc((size_t)u * (3 * sizeof(float) + sizeof(int64_t)));
    if (!blk) {
        gcut_i_free(base);
        return 0;
    }
    int64_t *w = blk;
    float *col = (float *)(w + u);
    int64_t q = -1;
    for (int64_t i = 0; i < m; i++) {
        if (i == 0 || sorted[i] != sorted[i - 1]) {
            q++;
            w[q] = 0;
            col[3 * q] = (float)(sorted[i] >> 16);
            col[3 * q + 1] = (float)((sorted[i] >> 8) & 255u);
            col[3 * q + 2] = (float)(sorted[i] & 255u);
        }
        w[q]++;
    }
    gcut_i_free(base);
    *block = blk;
    *rgb_out = col;
    *w_out = w;
    *m_out = u;
    return 1;
}

/* The fit over m distinct colours with their pixel counts. Returns 0
 * without memory (nothing done: the caller fits pixel by pixel). */
static int fit_distinct(gcut_i_gmm *g, int32_t k, const float *ucol, const int64_t *uw, int64_t m,
                        uint8_t want, int32_t rounds, gcut_status *st)
{
    uint8_t *ucomp = gcut_i_malloc_array(m, 1);
    if (!ucomp)
        return 0;
    cpu_upasses c = {ucol, uw, m, ucomp};
    const gcut_i_gmm_passes ps = {&c, u_start, u_split, u_assign};
    *st = gcut_i_gmm_fit_passes(g, k, &ps, want, rounds);
    gcut_i_free(ucomp);
    return 1;
}

gcut_status gcut_i_gmm_fit(gcut_i_gmm *g, int32_t k, const float *rgb, int64_t n,
                           const uint8_t *select, uint8_t want, int32_t rounds, uint8_t *comp)
{
    return gcut_i_gmm_fit_index(g, k, rgb, n, NULL, select, want, rounds, comp);
}

/* The distinct colours of the pixels with select[p] == want from the
 * image's colour index: the same list, in the same (code) order, and with
 * the same counts as distinct_colours, by one counting pass. Returns 0
 * when no pixel is selected or without memory. */
static int distinct_from_index(const gcut_i_colour_index *ci, const uint8_t *select, uint8_t want,
                               void **block, float **rgb_out, int64_t **w_out, int64_t *m_out)
{
    uint32_t *cnt = gcut_i_calloc((size_t)ci->u, sizeof(uint32_t));
    if (!cnt)
        return 0;
    for (int64_t p = 0; p < ci->n; p++)
        cnt[ci->id[p]] += select[p] == want;
    int64_t m = 0;
    for (int64_t i = 0; i < ci->u; i++)
        m += cnt[i] != 0;
    void *blk = m ? gcut_i_malloc((size_t)m * (3 * sizeof(float) + sizeof(int64_t))) : NULL;
    if (!blk) {
        gcut_i_free(cnt);
        return 0;
    }
    int64_t *w = blk;
    float *col = (float *)(w + m);
    int64_t q = 0;
    for (int64_t i = 0; i < ci->u; i++) {
        if (!cnt[i])
            continue;
        w[q] = cnt[i];
        memcpy(col + 3 * q, ci->col + 3 * i, 3 * sizeof(float));
        q++;
    }
    gcut_i_free(cnt);
    *block = blk;
    *rgb_out = col;
    *w_out = w;
    *m_out = m;
    return 1;
}

gcut_status gcut_i_gmm_fit_index(gcut_i_gmm *g, int32_t k, const float *rgb, int64_t n,
                                 const gcut_i_colour_index *ci, const uint8_t *select, uint8_t want,
                                 int32_t rounds, uint8_t *comp)
{
    if (k < 1 || k > GCUT_I_GMM_MAX_K)
        return GCUT_FAIL(GCUT_ERR_INVALID, "GMM components %d outside 1..%d", (int)k,
                         GCUT_I_GMM_MAX_K);
    void *block = NULL;
    float *ucol = NULL;
    int64_t *uw = NULL, m = 0;
    /* The caller wants no per-pixel components: the distinct colours. */
    if (!comp && (ci && ci->u && ci->n == n
                      ? distinct_from_index(ci, select, want, &block, &ucol, &uw, &m)
                      : distinct_colours(rgb, n, select, want, &block, &ucol, &uw, &m))) {
        gcut_status st = GCUT_OK;
        const int done = fit_distinct(g, k, ucol, uw, m, want, rounds, &st);
        gcut_i_free(block);
        if (done)
            return st;
    }
    uint8_t *own = NULL;
    if (!comp) {
        own = gcut_i_malloc_array(n > 0 ? n : 1, 1);
        if (!own)
            return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (%lld pixels)", (long long)n);
        comp = own;
    }
    cpu_passes c = {rgb, n, select, want, comp};
    const gcut_i_gmm_passes ps = {&c, cpu_start, cpu_split, cpu_assign};
    gcut_status st = gcut_i_gmm_fit_passes(g, k, &ps, want, rounds);
    gcut_i_free(own);
    return st;
}

/* ------------------------------------------------------------ the colour index */

void gcut_i_colour_index_free(gcut_i_colour_index *ci)
{
    gcut_i_free(ci->id);
    gcut_i_free(ci->col);
    memset(ci, 0, sizeof *ci);
}

/* Set bits of a 64-bit word (SWAR: no builtin needed). */
static inline uint32_t popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}

/* A bitmap of the 2^24 codes marks the colours present; a colour's index
 * is the number of marked codes below its own: the rank of its bitmap word
 * (the marks of the words before it, computed only for the words of
 * non-empty groups of 64, which are the only ones read) plus the marks
 * below it in the word. Two passes over the pixels and the groups touched;
 * about twice as fast as a radix sort of the codes with the pixels on the
 * GrabCut images (2-13 % of the pixels have a colour of their own). */
int gcut_i_colour_index_build(gcut_i_colour_index *ci, const float *rgb, int64_t n, int64_t max_u)
{
    enum { WORDS = 1 << 18, GROUPS = WORDS / 64 };
    memset(ci, 0, sizeof *ci);
    if (n <= 0 || n > (int64_t)UINT32_MAX)
        return 0;
    uint64_t *bits = gcut_i_calloc(WORDS, sizeof(uint64_t));
    uint32_t *rank = gcut_i_malloc_array(WORDS, sizeof(uint32_t));
    uint32_t *id = gcut_i_malloc_array(n, sizeof(uint32_t));
    uint64_t groups[GROUPS / 64];
    memset(groups, 0, sizeof groups);
    int ok = bits && rank && id;
    for (int64_t p = 0; ok && p < n; p++) {
        const float *x = rgb + 3 * p;
        const int32_t r = (int32_t)x[0], g = (int32_t)x[1], b = (int32_t)x[2];
        if ((float)r != x[0] || (float)g != x[1] || (float)b != x[2] ||
            ((uint32_t)r | (uint32_t)g | (uint32_t)b) > 255u) {
            ok = 0;
            break;
        }
        const uint32_t code = (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
        id[p] = code;
        bits[code >> 6] |= 1ull << (code & 63u);
        groups[code >> 18] |= 1ull << ((code >> 12) & 63u);
    }
    uint32_t u = 0;
    for (int k = 0; ok && k < GROUPS / 64; k++)
        for (uint64_t m = groups[k]; m; m &= m - 1) {
            const int64_t w0 = ((int64_t)k * 64 + popcount64((m & -m) - 1)) * 64;
            for (int64_t w = w0; w < w0 + 64; w++) {
                rank[w] = u;
                u += popcount64(bits[w]);
            }
        }
    if (ok && (int64_t)u > max_u)
        ok = 0;
    if (ok && !(ci->col = gcut_i_malloc_array(3 * (int64_t)u, sizeof(float))))
        ok = 0;
    if (!ok) {
        gcut_i_free(bits);
        gcut_i_free(rank);
        gcut_i_free(id);
        return 0;
    }
    /* The colours in code order. */
    int64_t q = 0;
    for (int k = 0; k < GROUPS / 64; k++)
        for (uint64_t m = groups[k]; m; m &= m - 1) {
            const int64_t w0 = ((int64_t)k * 64 + popcount64((m & -m) - 1)) * 64;
            for (int64_t w = w0; w < w0 + 64; w++)
                for (uint64_t x = bits[w]; x; x &= x - 1) {
                    const uint32_t code = (uint32_t)(w * 64 + popcount64((x & -x) - 1));
                    ci->col[3 * q] = (float)(code >> 16);
                    ci->col[3 * q + 1] = (float)((code >> 8) & 255u);
                    ci->col[3 * q + 2] = (float)(code & 255u);
                    q++;
                }
        }
    for (int64_t p = 0; p < n; p++) {
        const uint32_t code = id[p], w = code >> 6;
        id[p] = rank[w] + popcount64(bits[w] & ((1ull << (code & 63u)) - 1));
    }
    gcut_i_free(bits);
    gcut_i_free(rank);
    ci->id = id;
    ci->n = n;
    ci->u = u;
    return 1;
}
