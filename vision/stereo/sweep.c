/*
 * sweep.c - plane-sweep multi-view stereo with graph cuts: a depth map of
 * a reference camera from calibrated neighbours.
 *
 * R. T. Collins, "A space-sweep approach to true multi-image matching",
 * CVPR 1996: sweep a family of planes through the scene; on each plane the
 * map from the reference image to another view is a homography, so every
 * view is warped once per plane and compared with the reference pixel by
 * pixel. Here the planes are fronto-parallel in the reference camera at
 * depths uniform in inverse depth (equal steps of image motion, like
 * disparities). For a reference pixel u and the plane of depth z, the view
 * j sees  K_j (R_rel z K_0^-1 u + t_rel),  i.e. after dividing by z:
 *     x_j ~ A_j u + b_j / z,   A_j = K_j R_j R_0^T K_0^-1,
 *                              b_j = K_j (t_j - R_j R_0^T t_0),
 * so A_j u is computed once per pixel and each plane adds b_j / z.
 * Photo-consistency: 1 - NCC of grey (2r+1)^2 windows (invariant to the
 * gain and offset that shading and exposure put between views), the window
 * sums taken from integral images of the warped view so the cost of a
 * pixel does not depend on the window size; truncated, then the mean of
 * the best half of the views that see the point (S. B. Kang, R. Szeliski,
 * J. Chai, CVPR 2001: an occluded view costs much and is dropped).
 * The labelling minimises the stereo energy (data + contrast-sensitive
 * truncated-linear smoothness on label steps) by alpha-expansion (Boykov,
 * Veksler, Zabih, PAMI 2001), on the bounding box of the unmasked pixels
 * only: masked pixels (black background) get a zero data cost, so they
 * cost nothing and are reported as -1.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gcut/vision/mvs.h"
#include "stereo/stereo_internal.h"

enum { SWEEP_MAX_VIEWS = 64, SWEEP_NO_COST = -1 };

void gcut_sweep_options_init(gcut_sweep_options *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof(*p));
    p->struct_size = sizeof(*p);
    p->ndepth = 96;
    p->radius = 2;
    p->ncc_trunc = 60;
    p->keep = 0;
    p->mask_threshold = -1;
    p->smooth = GCUT_STEREO_TL;
    p->lambda = 12;
    p->tl_trunc = 3;
    p->contrast_threshold = 8;
    p->contrast_boost = 2;
    gcut_mrf_options_init(&p->mrf);
}

double gcut_sweep_label_depth(const gcut_sweep_options *p, int32_t l)
{
    const double sf = 1.0 / p->zfar, sn = 1.0 / p->znear;
    return 1.0 / (sf + (sn - sf) * l / (p->ndepth - 1));
}

gcut_status gcut_sweep_neighbours(const gcut_camera *cams, int32_t count, int32_t ref, int32_t n,
                                  int32_t *out)
{
    GCUT_ENTRY();
    if (!cams || !out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    if (ref < 0 || ref >= count)
        return GCUT_FAIL(GCUT_ERR_INVALID, "reference %d not in 0 .. %d", (int)ref,
                         (int)count - 1);
    if (n < 1 || n > count - 1)
        return GCUT_FAIL(GCUT_ERR_INVALID, "%d neighbours asked, %d other cameras", (int)n,
                         (int)count - 1);
    double C0[3];
    gcut_camera_center(&cams[ref], C0);
    /* Selection by n passes: n is small (a few views). */
    for (int32_t k = 0; k < n; k++) {
        int32_t best = -1;
        double bd = 0;
        for (int32_t i = 0; i < count; i++) {
            int taken = i == ref;
            for (int32_t j = 0; j < k && !taken; j++)
                taken = out[j] == i;
            if (taken)
                continue;
            double C[3];
            gcut_camera_center(&cams[i], C);
            const double d = (C[0] - C0[0]) * (C[0] - C0[0]) + (C[1] - C0[1]) * (C[1] - C0[1]) +
                             (C[2] - C0[2]) * (C[2] - C0[2]);
            if (best < 0 || d < bd) {
                best = i;
                bd = d;
            }
        }
        out[k] = best;
    }
    return GCUT_OK;
}

gcut_status gcut_sweep_range_box(const gcut_camera *c, const double lo[3], const double hi[3],
                                 double *znear, double *zfar)
{
    GCUT_ENTRY();
    if (!c || !lo || !hi || !znear || !zfar)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    double mn = INFINITY, mx = -INFINITY;
    for (int k = 0; k < 8; k++) {
        const double X[3] = {(k & 1) ? hi[0] : lo[0], (k & 2) ? hi[1] : lo[1],
                             (k & 4) ? hi[2] : lo[2]};
        double z;
        gcut_camera_project(c, X, NULL, NULL, &z);
        if (!(z > 0))
            return GCUT_FAIL(GCUT_ERR_INVALID, "box corner (%g, %g, %g) is behind camera %s",
                             X[0], X[1], X[2], c->name);
        mn = z < mn ? z : mn;
        mx = z > mx ? z : mx;
    }
    *znear = mn;
    *zfar = mx;
    return GCUT_OK;
}

/* Solve the 3x3 system M x = r by Cramer's rule; 0 when singular. */
static int solve3(const double M[9], const double r[3], double x[3])
{
    const double det = M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) +
                       M[2] * (M[3] * M[7] - M[4] * M[6]);
    const double scale = fabs(M[0]) + fabs(M[4]) + fabs(M[8]);
    if (!(fabs(det) > 1e-9 * scale * scale * scale))
        return 0;
    for (int k = 0; k < 3; k++) {
        double A[9];
        memcpy(A, M, sizeof(A));
        for (int i = 0; i < 3; i++)
            A[3 * i + k] = r[i];
        x[k] = (A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
                A[2] * (A[3] * A[7] - A[4] * A[6])) / det;
    }
    return 1;
}

gcut_status gcut_sweep_range_auto(const gcut_camera *cams, int32_t count, int32_t ref,
                                  double *znear, double *zfar)
{
    GCUT_ENTRY();
    if (!cams || !znear || !zfar)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    if (count < 2 || ref < 0 || ref >= count)
        return GCUT_FAIL(GCUT_ERR_INVALID, "need 2 cameras or more and a reference among them");
    /* The point X minimising the summed squared distances to the lines
     * C_i + s a_i (a_i the unit optical axis, the third row of R_i):
     * sum (I - a a^T) X = sum (I - a a^T) C. */
    double M[9] = {0}, r[3] = {0};
    for (int32_t i = 0; i < count; i++) {
        double C[3];
        gcut_camera_center(&cams[i], C);
        const double *a = cams[i].R + 6;
        for (int p = 0; p < 3; p++)
            for (int q = 0; q < 3; q++) {
                const double P = (p == q) - a[p] * a[q];
                M[3 * p + q] += P;
                r[p] += P * C[q];
            }
    }
    double X[3], z;
    if (!solve3(M, r, X))
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "the optical axes are (nearly) parallel: give the depth range");
    gcut_camera_project(&cams[ref], X, NULL, NULL, &z);
    if (!(z > 0))
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "the axes converge behind camera %d: give the depth range", (int)ref);
    *znear = 0.75 * z;
    *zfar = 1.25 * z;
    return GCUT_OK;
}

static gcut_status check_args(const gcut_image *const *images, const gcut_camera *cams,
                              int32_t nviews, const gcut_sweep_options *p)
{
    if (!images || !cams || !p)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    if (p->struct_size != sizeof(*p))
        return GCUT_FAIL(GCUT_ERR_INVALID, "params not set up by gcut_sweep_options_init");
    if (nviews < 2 || nviews > SWEEP_MAX_VIEWS)
        return GCUT_FAIL(GCUT_ERR_INVALID, "nviews %d not in 2 .. %d", (int)nviews,
                         SWEEP_MAX_VIEWS);
    for (int32_t i = 0; i < nviews; i++)
        if (!images[i] || !images[i]->data)
            return GCUT_FAIL(GCUT_ERR_INVALID, "image %d is NULL", (int)i);
    if (p->ndepth < 2 || p->ndepth > 1024)
        return GCUT_FAIL(GCUT_ERR_INVALID, "ndepth %d not in 2 .. 1024", (int)p->ndepth);
    if (!(p->znear > 0) || !(p->zfar > p->znear) || !isfinite(p->zfar))
        return GCUT_FAIL(GCUT_ERR_INVALID, "depth range %g .. %g: need 0 < znear < zfar",
                         p->znear, p->zfar);
    if (p->radius < 0 || p->radius > 15 || p->ncc_trunc < 1 || p->ncc_trunc > 200 ||
        p->keep < 0 || p->keep > nviews - 1 || p->mask_threshold < -1 ||
        p->mask_threshold > 255)
        return GCUT_FAIL(GCUT_ERR_INVALID,
                         "radius (0 .. 15), ncc_trunc (1 .. 200), keep (0 .. views) or "
                         "mask_threshold (-1 .. 255) out of range");
    if (p->lambda < 0 || p->lambda > 100000 || p->tl_trunc < 1 || p->contrast_boost < 1 ||
        p->contrast_boost > 100 || (p->smooth != GCUT_STEREO_TL && p->smooth != GCUT_STEREO_POTTS))
        return GCUT_FAIL(GCUT_ERR_INVALID, "lambda, tl_trunc, contrast_boost or smooth out of range");
    return GCUT_OK;
}

static void to_gray(const gcut_image *img, float *g)
{
    for (int32_t y = 0; y < img->height; y++)
        for (int32_t x = 0; x < img->width; x++)
            g[(size_t)y * img->width + x] = (float)(0.299 * gcut_i_sample8(img, x, y, 0) +
                                                    0.587 * gcut_i_sample8(img, x, y, 1) +
                                                    0.114 * gcut_i_sample8(img, x, y, 2));
}

/* Integral image of a cw x ch array into S ((cw+1) x (ch+1), S[0][*] = 0). */
static void integral(const double *v, int32_t cw, int32_t ch, double *S)
{
    const size_t sw = (size_t)cw + 1;
    memset(S, 0, sw * sizeof(double));
    for (int32_t y = 0; y < ch; y++) {
        double row = 0;
        S[(y + 1) * sw] = 0;
        for (int32_t x = 0; x < cw; x++) {
            row += v[(size_t)y * cw + x];
            S[(y + 1) * sw + x + 1] = S[y * sw + x + 1] + row;
        }
    }
}

static inline double box(const double *S, size_t sw, int32_t x0, int32_t y0, int32_t x1,
                         int32_t y1)
{
    return S[(size_t)(y1 + 1) * sw + x1 + 1] - S[(size_t)y0 * sw + x1 + 1] -
           S[(size_t)(y1 + 1) * sw + x0] + S[(size_t)y0 * sw + x0];
}

/* Everything one run needs, on the crop box (cw x ch at x0, y0). */
typedef struct sweep_ctx {
    const gcut_sweep_options *p;
    int32_t nv, x0, y0, cw, ch;
    float **gray;                 /* full-size gray of every view */
    const uint8_t *mask;          /* crop: 1 = used */
    double *Sr, *Srr;             /* integral images of the reference */
    double *A[SWEEP_MAX_VIEWS];   /* per view j >= 1: A_j u per crop pixel, 3 values */
    double b[SWEEP_MAX_VIEWS][3];
    double *tmp, *tmp2;           /* the warped view and products */
    double *S1, *S2, *S3;         /* their integral images */
    uint8_t *valid;
    int16_t *vc;                  /* (nv - 1) x crop costs of one label */
} sweep_ctx;

/* A_j and b_j of the header comment, and A_j u for every crop pixel. */
static void plane_maps(sweep_ctx *c, const gcut_camera *cams)
{
    const gcut_camera *c0 = &cams[0];
    const double *K0 = c0->K;
    /* K0^-1 of the upper-triangular K0 (K0[8] scales the last row). */
    const double f = K0[0], s = K0[1], cx = K0[2], fy = K0[4], cy = K0[5], k8 = K0[8];
    const double Ki[9] = {1 / f, -s / (f * fy), (s * cy - cx * fy) / (f * fy * k8),
                          0,     1 / fy,        -cy / (fy * k8),
                          0,     0,             1 / k8};
    for (int32_t j = 1; j < c->nv; j++) {
        const gcut_camera *cj = &cams[j];
        double Rr[9], M[9], tr[3];
        for (int p = 0; p < 3; p++)
            for (int q = 0; q < 3; q++) {
                double v = 0;
                for (int k = 0; k < 3; k++)
                    v += cj->R[3 * p + k] * c0->R[3 * q + k];
                Rr[3 * p + q] = v;
            }
        for (int p = 0; p < 3; p++)
            tr[p] = cj->t[p] - (Rr[3 * p] * c0->t[0] + Rr[3 * p + 1] * c0->t[1] +
                                Rr[3 * p + 2] * c0->t[2]);
        /* M = K_j Rr K0^-1, b = K_j tr. */
        double T[9];
        for (int p = 0; p < 3; p++)
            for (int q = 0; q < 3; q++) {
                double v = 0;
                for (int k = 0; k < 3; k++)
                    v += Rr[3 * p + k] * Ki[3 * k + q];
                T[3 * p + q] = v;
            }
        for (int p = 0; p < 3; p++) {
            for (int q = 0; q < 3; q++) {
                double v = 0;
                for (int k = 0; k < 3; k++)
                    v += cj->K[3 * p + k] * T[3 * k + q];
                M[3 * p + q] = v;
            }
            c->b[j][p] = cj->K[3 * p] * tr[0] + cj->K[3 * p + 1] * tr[1] + cj->K[3 * p + 2] * tr[2];
        }
        double *a = c->A[j];
        for (int32_t y = 0; y < c->ch; y++)
            for (int32_t x = 0; x < c->cw; x++) {
                const double u = x + c->x0, v = y + c->y0;
                double *o = a + 3 * ((size_t)y * c->cw + x);
                for (int p = 0; p < 3; p++)
                    o[p] = M[3 * p] * u + M[3 * p + 1] * v + M[3 * p + 2];
            }
    }
}

/* Bilinear sample of a full-size gray image, clamped at the borders. */
static inline double bilinear(const float *g, int32_t w, int32_t h, double x, double y)
{
    x = x < 0 ? 0 : (x > w - 1 ? w - 1 : x);
    y = y < 0 ? 0 : (y > h - 1 ? h - 1 : y);
    int32_t ix = (int32_t)x, iy = (int32_t)y;
    ix = ix > w - 2 ? (w > 1 ? w - 2 : 0) : ix;
    iy = iy > h - 2 ? (h > 1 ? h - 2 : 0) : iy;
    const double fx = x - ix, fy = y - iy;
    const float *r0 = g + (size_t)iy * w, *r1 = h > 1 ? r0 + w : r0;
    const int32_t ix1 = w > 1 ? ix + 1 : ix;
    return (1 - fy) * ((1 - fx) * r0[ix] + fx * r0[ix1]) + fy * ((1 - fx) * r1[ix] + fx * r1[ix1]);
}

/* Per-view costs of one plane (inverse depth s) into c->vc. */
static void plane_costs(sweep_ctx *c, const gcut_image *const *images, double s)
{
    const int32_t cw = c->cw, ch = c->ch, r = c->p->radius;
    const size_t n = (size_t)cw * ch, sw = (size_t)cw + 1;
    const float *g0 = c->gray[0];
    const int32_t w0 = images[0]->width;
    const double trunc = c->p->ncc_trunc;
    for (int32_t j = 1; j < c->nv; j++) {
        const int32_t wj = images[j]->width, hj = images[j]->height;
        const double *a = c->A[j], *b = c->b[j];
        double *W = c->tmp;
        for (size_t i = 0; i < n; i++) {
            const double hx = a[3 * i] + b[0] * s, hy = a[3 * i + 1] + b[1] * s,
                         hz = a[3 * i + 2] + b[2] * s;
            double val = 0;
            uint8_t ok = 0;
            if (hz > 0) {
                const double u = hx / hz, v = hy / hz;
                ok = u >= 0 && v >= 0 && u <= wj - 1 && v <= hj - 1;
                val = bilinear(c->gray[j], wj, hj, u, v);
            }
            W[i] = val;
            c->valid[i] = ok;
        }
        integral(W, cw, ch, c->S1);
        double *P = c->tmp2;
        for (size_t i = 0; i < n; i++)
            P[i] = W[i] * W[i];
        integral(P, cw, ch, c->S2);
        for (int32_t y = 0; y < ch; y++)
            for (int32_t x = 0; x < cw; x++) {
                const size_t i = (size_t)y * cw + x;
                P[i] = W[i] * g0[(size_t)(y + c->y0) * w0 + x + c->x0];
            }
        integral(P, cw, ch, c->S3);
        int16_t *out = c->vc + (size_t)(j - 1) * n;
        for (int32_t y = 0; y < ch; y++) {
            const int32_t ya = y - r < 0 ? 0 : y - r, yb = y + r >= ch ? ch - 1 : y + r;
            for (int32_t x = 0; x < cw; x++) {
                const size_t i = (size_t)y * cw + x;
                if (!c->mask[i] || !c->valid[i]) {
                    out[i] = SWEEP_NO_COST;
                    continue;
                }
                const int32_t xa = x - r < 0 ? 0 : x - r, xb = x + r >= cw ? cw - 1 : x + r;
                const double N = (double)(xb - xa + 1) * (yb - ya + 1);
                const double sr = box(c->Sr, sw, xa, ya, xb, yb);
                const double srr = box(c->Srr, sw, xa, ya, xb, yb);
                const double sv = box(c->S1, sw, xa, ya, xb, yb);
                const double svv = box(c->S2, sw, xa, ya, xb, yb);
                const double srv = box(c->S3, sw, xa, ya, xb, yb);
                /* Variances get a floor of 2 grey levels squared per pixel
                 * so that flat windows (no texture: no evidence) score an
                 * NCC near 0 rather than noise. */
                const double vr = srr - sr * sr / N + 4 * N, vv = svv - sv * sv / N + 4 * N;
                const double ncc = (srv - sr * sv / N) / sqrt(vr * vv);
                double cost = 100 * (1 - ncc);
                cost = cost < trunc ? cost : trunc;
                out[i] = (int16_t)(cost + 0.5);
            }
        }
    }
}

static int cmp_i16(const void *a, const void *b)
{
    const int16_t x = *(const int16_t *)a, y = *(const int16_t *)b;
    return (x > y) - (x < y);
}

/* Mean of the best `keep` costs of the views that see the point. */
static int32_t combine(const sweep_ctx *c, size_t i, int32_t keep_param)
{
    const size_t n = (size_t)c->cw * c->ch;
    int16_t v[SWEEP_MAX_VIEWS];
    int32_t m = 0;
    for (int32_t j = 0; j < c->nv - 1; j++) {
        const int16_t x = c->vc[(size_t)j * n + i];
        if (x != SWEEP_NO_COST)
            v[m++] = x;
    }
    if (m == 0)
        return c->p->ncc_trunc;
    int32_t keep = keep_param > 0 ? keep_param : (m + 1) / 2;
    keep = keep < m ? keep : m;
    if (keep < m)
        qsort(v, (size_t)m, sizeof(int16_t), cmp_i16);
    int32_t s = 0;
    for (int32_t k = 0; k < keep; k++)
        s += v[k];
    return (s + keep / 2) / keep;
}

/* Contrast-sensitive weights of the crop (as gcut_stereo_weights). */
static void crop_weights(const gcut_image *img, const sweep_ctx *c, int32_t *wr, int32_t *wd)
{
    const gcut_sweep_options *p = c->p;
    for (int32_t y = 0; y < c->ch; y++)
        for (int32_t x = 0; x < c->cw; x++) {
            const int32_t X = x + c->x0, Y = y + c->y0;
            int32_t dr = 0, dd = 0;
            for (int32_t k = 0; k < 3; k++) {
                const int32_t v = gcut_i_sample8(img, X, Y, k);
                if (x + 1 < c->cw) {
                    const int32_t a = abs(v - gcut_i_sample8(img, X + 1, Y, k));
                    dr = a > dr ? a : dr;
                }
                if (y + 1 < c->ch) {
                    const int32_t a = abs(v - gcut_i_sample8(img, X, Y + 1, k));
                    dd = a > dd ? a : dd;
                }
            }
            wr[(size_t)y * c->cw + x] = dr < p->contrast_threshold ? p->contrast_boost : 1;
            wd[(size_t)y * c->cw + x] = dd < p->contrast_threshold ? p->contrast_boost : 1;
        }
}

gcut_status gcut_sweep_depth(const gcut_image *const *images, const gcut_camera *cams,
                             int32_t nviews, const gcut_sweep_options *p, int32_t *labels,
                             double *depth, gcut_mrf_stats *stats)
{
    GCUT_ENTRY();
    gcut_status st = check_args(images, cams, nviews, p);
    if (st != GCUT_OK)
        return st;
    const gcut_image *ref = images[0];
    const int32_t w = ref->width, h = ref->height, L = p->ndepth;
    sweep_ctx c;
    memset(&c, 0, sizeof(c));
    c.p = p;
    c.nv = nviews;
    /* The crop: the bounding box of the unmasked reference pixels. */
    int32_t x0 = w, y0 = h, x1 = -1, y1 = -1;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            int keep = p->mask_threshold < 0;
            for (int32_t k = 0; k < 3 && !keep; k++)
                keep = gcut_i_sample8(ref, x, y, k) > p->mask_threshold;
            if (keep) {
                x0 = x < x0 ? x : x0;
                x1 = x > x1 ? x : x1;
                y0 = y < y0 ? y : y0;
                y1 = y > y1 ? y : y1;
            }
        }
    if (x1 < 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "every reference pixel is masked (threshold %d)",
                         (int)p->mask_threshold);
    c.x0 = x0;
    c.y0 = y0;
    c.cw = x1 - x0 + 1;
    c.ch = y1 - y0 + 1;
    const int64_t n = (int64_t)c.cw * c.ch, sn = (int64_t)(c.cw + 1) * (c.ch + 1);
    gcut_mrf *m = NULL;
    void *warm = NULL; /* the device start-up, gcut_i_backend_warm_start */
    uint8_t *mask = gcut_i_malloc_array(n, 1);
    int32_t *cost = gcut_i_malloc_array(n * L, sizeof(int32_t));
    int32_t *f = gcut_i_malloc_array(n, sizeof(int32_t));
    int32_t *wr = gcut_i_malloc_array(n, sizeof(int32_t));
    int32_t *wd = gcut_i_malloc_array(n, sizeof(int32_t));
    c.gray = gcut_i_calloc((size_t)nviews, sizeof(float *));
    c.Sr = gcut_i_malloc_array(sn, sizeof(double));
    c.Srr = gcut_i_malloc_array(sn, sizeof(double));
    c.S1 = gcut_i_malloc_array(sn, sizeof(double));
    c.S2 = gcut_i_malloc_array(sn, sizeof(double));
    c.S3 = gcut_i_malloc_array(sn, sizeof(double));
    c.tmp = gcut_i_malloc_array(n, sizeof(double));
    c.tmp2 = gcut_i_malloc_array(n, sizeof(double));
    c.valid = gcut_i_malloc_array(n, 1);
    c.vc = gcut_i_malloc_array(n * (nviews - 1), sizeof(int16_t));
    if (!mask || !cost || !f || !wr || !wd || !c.gray || !c.Sr || !c.Srr || !c.S1 || !c.S2 ||
        !c.S3 || !c.tmp || !c.tmp2 || !c.valid || !c.vc)
        goto nomem;
    for (int32_t i = 0; i < nviews; i++) {
        c.gray[i] = gcut_i_malloc_array((int64_t)images[i]->width * images[i]->height,
                                        sizeof(float));
        if (!c.gray[i])
            goto nomem;
        to_gray(images[i], c.gray[i]);
        if (i > 0 && !(c.A[i] = gcut_i_malloc_array(3 * n, sizeof(double))))
            goto nomem;
    }
    for (int32_t y = 0; y < c.ch; y++)
        for (int32_t x = 0; x < c.cw; x++) {
            int keep = p->mask_threshold < 0;
            for (int32_t k = 0; k < 3 && !keep; k++)
                keep = gcut_i_sample8(ref, x + x0, y + y0, k) > p->mask_threshold;
            mask[(size_t)y * c.cw + x] = (uint8_t)keep;
        }
    c.mask = mask;
    /* Reference window sums. */
    for (int32_t y = 0; y < c.ch; y++)
        for (int32_t x = 0; x < c.cw; x++)
            c.tmp[(size_t)y * c.cw + x] = c.gray[0][(size_t)(y + y0) * w + x + x0];
    integral(c.tmp, c.cw, c.ch, c.Sr);
    for (int64_t i = 0; i < n; i++)
        c.tmp[i] *= c.tmp[i];
    integral(c.tmp, c.cw, c.ch, c.Srr);
    plane_maps(&c, cams);
    warm = gcut_i_backend_warm_start(p->mrf.solve.backend); /* overlapped with the costs */
    const double sfar = 1.0 / p->zfar, snear = 1.0 / p->znear;
    /* Progress (operation "mvs"): each depth plane's costs (at most every
     * progress_interval_ms), then "moves" before the expansion, which
     * reports its own moves. */
    gcut_i_vprog pr;
    gcut_i_vprog_init(&pr, &p->mrf.solve, "mvs");
    for (int32_t l = 0; l < L; l++) {
        if ((st = gcut_i_vprog_report(&pr, "cost", l + 1, L, (double)l / L, l == 0)) != GCUT_OK)
            goto done;
        plane_costs(&c, images, sfar + (snear - sfar) * l / (L - 1));
        for (int64_t i = 0; i < n; i++)
            cost[i * L + l] = mask[i] ? combine(&c, (size_t)i, p->keep) : 0;
    }
    st = gcut_mrf_new(&m, c.cw, c.ch, 1, 4, L);
    if (st == GCUT_OK)
        st = gcut_mrf_set_unary(m, cost);
    crop_weights(ref, &c, wr, wd);
    if (st == GCUT_OK)
        st = gcut_mrf_set_weights(m, 0, wr);
    if (st == GCUT_OK)
        st = gcut_mrf_set_weights(m, 2, wd);
    if (st == GCUT_OK)
        st = p->smooth == GCUT_STEREO_TL ? gcut_mrf_set_trunc_linear(m, p->lambda, p->tl_trunc)
                                         : gcut_mrf_set_potts(m, p->lambda);
    if (st != GCUT_OK)
        goto done;
    for (int64_t v = 0; v < n; v++) {
        const int32_t *cv = cost + v * L;
        int32_t best = 0;
        for (int32_t d = 1; d < L; d++)
            if (cv[d] < cv[best])
                best = d;
        f[v] = best;
    }
    gcut_i_backend_warm_join(warm);
    warm = NULL;
    if ((st = gcut_i_vprog_report(&pr, "moves", 0, 0, -1.0, 1)) != GCUT_OK)
        goto done;
    st = gcut_mrf_expand(m, &p->mrf, f, stats);
    if (st != GCUT_OK)
        goto done;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            const int32_t cx = x - x0, cy = y - y0;
            int32_t l = -1;
            if (cx >= 0 && cy >= 0 && cx < c.cw && cy < c.ch && mask[(size_t)cy * c.cw + cx])
                l = f[(size_t)cy * c.cw + cx];
            if (labels)
                labels[(size_t)y * w + x] = l;
            if (depth)
                depth[(size_t)y * w + x] = l < 0 ? 0 : gcut_sweep_label_depth(p, l);
        }
    goto done;
nomem:
    st = GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (%lld pixels x %d depths)", (long long)n,
                   (int)L);
done:
    gcut_i_backend_warm_join(warm);
    gcut_mrf_free(m);
    for (int32_t i = 0; c.gray && i < nviews; i++)
        gcut_i_free(c.gray[i]);
    for (int32_t i = 1; i < nviews; i++)
        gcut_i_free(c.A[i]);
    gcut_i_free(c.gray);
    gcut_i_free(c.Sr);
    gcut_i_free(c.Srr);
    gcut_i_free(c.S1);
    gcut_i_free(c.S2);
    gcut_i_free(c.S3);
    gcut_i_free(c.tmp);
    gcut_i_free(c.tmp2);
    gcut_i_free(c.valid);
    gcut_i_free(c.vc);
    gcut_i_free(mask);
    gcut_i_free(cost);
    gcut_i_free(f);
    gcut_i_free(wr);
    gcut_i_free(wd);
    return st;
}
