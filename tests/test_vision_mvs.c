/*
 * test_vision_mvs.c - multi-view stereo (gcut/vision/mvs.h): multi-baseline
 * stereo on synthetic layered scenes rendered by the test (with occlusion),
 * equality with two-view stereo for one view of baseline 1, the camera
 * file parser (good and malformed files), camera geometry, and the plane
 * sweep on a synthetic calibrated scene rendered by ray casting. Where
 * ../shared/data/multiview exists, the temple cameras are checked too.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "gcut/vision/mvs.h"
#include "gcut/vision/stereo.h"

static uint64_t rng_state = 11;
static uint32_t rnd32(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* A texture: random values on an integer lattice, bilinearly interpolated
 * (so that fractional shifts render exactly what linear interpolation of
 * the samples sees). Lattice TEX x TEX, wrapped. */
enum { TEX = 97 };
typedef struct texture {
    float v[TEX][TEX];
} texture;

static void texture_init(texture *t)
{
    for (int y = 0; y < TEX; y++)
        for (int x = 0; x < TEX; x++)
            t->v[y][x] = (float)(rnd32() % 256);
}

static double texture_at(const texture *t, double x, double y)
{
    const double fx = floor(x), fy = floor(y);
    const int ix = ((int)fx % TEX + TEX) % TEX, iy = ((int)fy % TEX + TEX) % TEX;
    const int jx = (ix + 1) % TEX, jy = (iy + 1) % TEX;
    const double ax = x - fx, ay = y - fy;
    return (1 - ay) * ((1 - ax) * t->v[iy][ix] + ax * t->v[iy][jx]) +
           ay * ((1 - ax) * t->v[jy][ix] + ax * t->v[jy][jx]);
}

/* ---- multi-baseline: a layered fronto-parallel scene --------------------- */

/* Layers in reference coordinates, back to front: the background (all
 * pixels, d = 2) and two rectangles. */
typedef struct layer {
    int x0, y0, x1, y1, d;
} layer;

static const layer layers[3] = {{-1000, -1000, 1000, 1000, 2}, {12, 10, 34, 30, 7}, {40, 16, 58, 40, 4}};
enum { SW = 72, SH = 48 };

/* Render the view of baseline b: pixel (x, y) shows the nearest layer
 * (largest d) whose reference footprint contains x + b d. */
static gcut_image *render_line(const texture *tex, double b)
{
    gcut_image *img;
    assert_int_equal(gcut_image_new(&img, SW, SH, 1, 8), GCUT_OK);
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++) {
            int k = 0;
            for (int l = 2; l >= 1 && !k; l--) {
                const double xr = x + b * layers[l].d;
                if (xr >= layers[l].x0 && xr < layers[l].x1 && y >= layers[l].y0 && y < layers[l].y1)
                    k = l;
            }
            /* Each layer has its own part of the texture (offset rows). */
            const double v = texture_at(tex, x + b * layers[k].d, y + 31 * k);
            img->data[(size_t)y * img->stride + x] = (uint8_t)(v + 0.5);
        }
    return img;
}

static int truth_line(int x, int y)
{
    for (int l = 2; l >= 1; l--)
        if (x >= layers[l].x0 && x < layers[l].x1 && y >= layers[l].y0 && y < layers[l].y1)
            return layers[l].d;
    return layers[0].d;
}

/* Percentage of pixels whose label differs from the truth. */
static double line_error(const int32_t *disp)
{
    int bad = 0;
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++)
            bad += disp[y * SW + x] != truth_line(x, y);
    return 100.0 * bad / (SW * SH);
}

static double run_line(const texture *tex, const double *base, int nv, gcut_mvs_combine comb)
{
    gcut_image *ref = render_line(tex, 0), *views[8];
    for (int i = 0; i < nv; i++)
        views[i] = render_line(tex, base[i]);
    gcut_mbs_options p;
    gcut_mbs_options_init(&p);
    p.stereo.ndisp = 10;
    p.combine = comb;
    int32_t disp[SW * SH];
    gcut_mrf_stats st;
    assert_int_equal(gcut_mbs_match(ref, (const gcut_image *const *)views, base, nv, &p, disp, &st),
                     GCUT_OK);
    assert_true(st.energy <= st.initial_energy);
    for (int i = 0; i < nv; i++)
        gcut_image_free(views[i]);
    gcut_image_free(ref);
    return line_error(disp);
}

static void test_mbs_synthetic(void **state)
{
    (void)state;
    texture *tex = malloc(sizeof(texture));
    texture_init(tex);
    const double two[1] = {1}, five[4] = {-2, -1, 1, 2}, frac[4] = {-1.5, -0.5, 0.5, 1.5};
    const double e2 = run_line(tex, two, 1, GCUT_MVS_BEST);
    const double e5 = run_line(tex, five, 4, GCUT_MVS_SIDE);
    const double e5b = run_line(tex, five, 4, GCUT_MVS_BEST);
    const double ef = run_line(tex, frac, 4, GCUT_MVS_SIDE);
    print_message("synthetic layers: 2 views %.2f %%, 5 views side %.2f %%, best %.2f %%, "
                  "fractional baselines %.2f %%\n", e2, e5, e5b, ef);
    /* Two views leave the occluded strips (d 7 - 2 = 5 pixels wide left of
     * each rectangle) to the smoothness; views on both sides see them. */
    assert_true(e5 < 1.0);
    assert_true(e5b < 2.0);
    assert_true(ef < 2.0);
    assert_true(e5 < e2);
    free(tex);
}

/* Random RGB images of one size. */
static gcut_image *random_rgb(int w, int h)
{
    gcut_image *img;
    assert_int_equal(gcut_image_new(&img, w, h, 3, 8), GCUT_OK);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < 3 * w; x++)
            img->data[(size_t)y * img->stride + x] = (uint8_t)(rnd32() % 256);
    return img;
}

static void test_mbs_equals_two_view(void **state)
{
    (void)state;
    gcut_image *l = random_rgb(37, 23), *r = random_rgb(37, 23);
    const gcut_image *views[1] = {r};
    const double b[1] = {1};
    const gcut_stereo_cost kinds[3] = {GCUT_STEREO_BT, GCUT_STEREO_AD, GCUT_STEREO_CENSUS};
    for (int k = 0; k < 3; k++) {
        gcut_mbs_options p;
        gcut_mbs_options_init(&p);
        p.stereo.ndisp = 9;
        p.stereo.cost = kinds[k];
        int32_t *c1 = malloc(sizeof(int32_t) * 37 * 23 * 9), *c2 = malloc(sizeof(int32_t) * 37 * 23 * 9);
        assert_int_equal(gcut_stereo_data_cost(l, r, &p.stereo, c1), GCUT_OK);
        for (int comb = GCUT_MVS_MEAN; comb <= GCUT_MVS_SIDE; comb++) {
            p.combine = (gcut_mvs_combine)comb;
            assert_int_equal(gcut_mbs_data_cost(l, views, b, 1, &p, c2), GCUT_OK);
            assert_memory_equal(c1, c2, sizeof(int32_t) * 37 * 23 * 9);
        }
        int32_t d1[37 * 23], d2[37 * 23];
        gcut_mrf_stats s1, s2;
        assert_int_equal(gcut_stereo_match(l, r, &p.stereo, d1, &s1), GCUT_OK);
        assert_int_equal(gcut_mbs_match(l, views, b, 1, &p, d2, &s2), GCUT_OK);
        assert_memory_equal(d1, d2, sizeof(d1));
        assert_true(s1.energy == s2.energy);
        free(c1);
        free(c2);
    }
    gcut_image_free(l);
    gcut_image_free(r);
}

/* A horizontal ramp seen at half a baseline: AD and BT are exactly 0 at the
 * true disparity, where the view is sampled between two pixels. */
static void test_mbs_fractional(void **state)
{
    (void)state;
    gcut_image *ref, *v;
    assert_int_equal(gcut_image_new(&ref, 40, 4, 1, 8), GCUT_OK);
    assert_int_equal(gcut_image_new(&v, 40, 4, 1, 8), GCUT_OK);
    /* ref(x) = 4x; the view at b = 0.5 sees ref(x) at x - 0.5 d: with
     * d = 6, v(x) = ref(x + 3) = 4x + 12. */
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 40; x++) {
            ref->data[(size_t)y * ref->stride + x] = (uint8_t)(4 * x);
            v->data[(size_t)y * v->stride + x] = (uint8_t)(4 * x + 12 > 255 ? 255 : 4 * x + 12);
        }
    const gcut_image *views[1] = {v};
    const double b[1] = {0.5};
    gcut_mbs_options p;
    gcut_mbs_options_init(&p);
    p.stereo.ndisp = 10;
    int32_t cost[40 * 4 * 10];
    for (int k = 0; k < 2; k++) {
        p.stereo.cost = k ? GCUT_STEREO_AD : GCUT_STEREO_BT;
        assert_int_equal(gcut_mbs_data_cost(ref, views, b, 1, &p, cost), GCUT_OK);
        const int32_t *c = cost + (2 * 40 + 20) * 10;
        assert_int_equal(c[6], 0);
        /* d = 5 and 7 put the view half a pixel off (a 2-level error):
         * AD sees it, BT's half-pixel interval absorbs it; d = 2 and 9
         * are off by 2 and 1.5 pixels: both see them. */
        if (k)
            assert_true(c[5] > 0 && c[7] > 0);
        assert_true(c[2] > 0 && c[9] > 0);
    }
    gcut_image_free(ref);
    gcut_image_free(v);
}

static void test_mbs_errors(void **state)
{
    (void)state;
    gcut_image *a = random_rgb(10, 8), *b = random_rgb(10, 8), *c = random_rgb(11, 8);
    const gcut_image *views[2] = {b, c};
    const double base[2] = {1, 2}, zero[1] = {0}, huge[1] = {NAN};
    gcut_mbs_options p;
    gcut_mbs_options_init(&p);
    int32_t *cost = malloc(sizeof(int32_t) * 10 * 8 * 16), disp[80];
    assert_int_equal(gcut_mbs_data_cost(a, views, base, 2, &p, cost), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "view 1 is 11 x 8"));
    assert_int_equal(gcut_mbs_data_cost(a, views, zero, 1, &p, cost), GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "baseline 0"));
    assert_int_equal(gcut_mbs_data_cost(a, views, huge, 1, &p, cost), GCUT_ERR_INVALID);
    assert_int_equal(gcut_mbs_data_cost(a, views, base, 0, &p, cost), GCUT_ERR_INVALID);
    assert_int_equal(gcut_mbs_data_cost(NULL, views, base, 1, &p, cost), GCUT_ERR_INVALID);
    assert_int_equal(gcut_mbs_match(a, views, base, 1, &p, NULL, NULL), GCUT_ERR_INVALID);
    p.keep = 3;
    assert_int_equal(gcut_mbs_match(a, views, base, 1, &p, disp, NULL), GCUT_ERR_INVALID);
    p.keep = 0;
    p.stereo.ndisp = 1;
    assert_int_equal(gcut_mbs_match(a, views, base, 1, &p, disp, NULL), GCUT_ERR_INVALID);
    gcut_mbs_options q;
    memset(&q, 0, sizeof(q));
    assert_int_equal(gcut_mbs_data_cost(a, views, base, 1, &q, cost), GCUT_ERR_INVALID);
    free(cost);
    gcut_image_free(a);
    gcut_image_free(b);
    gcut_image_free(c);
}

/* ---- cameras -------------------------------------------------------------- */

static const char good_par[] =
    "2\n"
    "a.png 100 0 50 0 110 40 0 0 1 1 0 0 0 1 0 0 0 1 0.5 -0.25 2\n"
    "\n"
    "b.png 100 0 50 0 110 40 0 0 1  0 1 0 -1 0 0 0 0 1  0 0 3\r\n";

static void test_cameras_parse_good(void **state)
{
    (void)state;
    gcut_camera *c = NULL;
    int32_t n = 0;
    assert_int_equal(gcut_cameras_parse(good_par, strlen(good_par), "good", &c, &n), GCUT_OK);
    assert_int_equal(n, 2);
    assert_string_equal(c[0].name, "a.png");
    assert_string_equal(c[1].name, "b.png");
    assert_true(c[0].K[0] == 100 && c[0].K[2] == 50 && c[0].K[4] == 110 && c[0].K[5] == 40);
    assert_true(c[1].R[1] == 1 && c[1].R[3] == -1 && c[1].t[2] == 3);
    double C[3];
    gcut_camera_center(&c[0], C);
    assert_true(fabs(C[0] + 0.5) < 1e-12 && fabs(C[1] - 0.25) < 1e-12 && fabs(C[2] + 2) < 1e-12);
    /* Project and back-project agree, for a rotated camera too. */
    for (int k = 0; k < 2; k++) {
        const double X[3] = {0.3, -0.2, 1.7};
        double u, v, z, Y[3];
        gcut_camera_project(&c[k], X, &u, &v, &z);
        assert_true(z > 0);
        gcut_camera_unproject(&c[k], u, v, z, Y);
        for (int i = 0; i < 3; i++)
            assert_true(fabs(X[i] - Y[i]) < 1e-9);
    }
    gcut_cameras_free(c);
    gcut_cameras_free(NULL);
}

static void expect_parse_error(const char *text, const char *needle)
{
    gcut_camera *c = (gcut_camera *)(uintptr_t)1;
    int32_t n = -7;
    assert_int_equal(gcut_cameras_parse(text, strlen(text), "bad.txt", &c, &n), GCUT_ERR_PARSE);
    if (!strstr(gcut_last_error(), needle))
        fail_msg("message '%s' lacks '%s'", gcut_last_error(), needle);
    /* Outputs unchanged on failure. */
    assert_true(c == (gcut_camera *)(uintptr_t)1 && n == -7);
}

static void test_cameras_parse_bad(void **state)
{
    (void)state;
    const char *cam = "a.png 100 0 50 0 110 40 0 0 1 1 0 0 0 1 0 0 0 1 0 0 2\n";
    char buf[512];
    expect_parse_error("", "empty");
    expect_parse_error("two\n", "bad.txt:1: expected the number of images");
    expect_parse_error("0\n", "bad.txt:1: expected the number");
    expect_parse_error("2 x\n", "after the number of images");
    snprintf(buf, sizeof(buf), "2\n%s", cam);
    expect_parse_error(buf, "bad.txt:3: 1 camera lines, the header says 2");
    snprintf(buf, sizeof(buf), "1\n%s%s", cam, cam);
    expect_parse_error(buf, "bad.txt:3: more camera lines");
    expect_parse_error("1\na.png 100 0 50 0 110 40 0 0 1 1 0 0 0 1 0 0 0 1 0 0\n",
                       "bad.txt:2: 20 numbers after the name, expected 21");
    expect_parse_error("1\na.png 100 0 50 0 110 40 0 0 1 1 0 0 0 1 0 0 0 1 0 0 2 9\n",
                       "bad.txt:2: more than 22 fields");
    expect_parse_error("1\na.png 100 0 50 0 110 40 0 0 1 1 0 0 0 1 0 0 0 1 0 zero 2\n",
                       "bad.txt:2: field 21 is not a finite number: 'zero'");
    expect_parse_error("1\na.png 100 0 50 0 110 40 0 0 1 1 0 0 0 1 0 0 0 1 0 nan 2\n",
                       "field 21 is not a finite number");
    expect_parse_error("1\na.png 100 0 50 3 110 40 0 0 1 1 0 0 0 1 0 0 0 1 0 0 2\n",
                       "bad.txt:2: K is not an upper-triangular");
    expect_parse_error("1\na.png 0 0 50 0 110 40 0 0 1 1 0 0 0 1 0 0 0 1 0 0 2\n",
                       "non-zero focal lengths");
    expect_parse_error("1\na.png 100 0 50 0 110 40 0 0 1 1 0 0 0 2 0 0 0 1 0 0 2\n",
                       "bad.txt:2: R is not a rotation");
    /* A reflection is orthogonal but not a rotation. */
    expect_parse_error("1\na.png 100 0 50 0 110 40 0 0 1 -1 0 0 0 1 0 0 0 1 0 0 2\n",
                       "det R = -1");
    assert_int_equal(gcut_cameras_parse(NULL, 0, NULL, NULL, NULL), GCUT_ERR_INVALID);
    gcut_camera *c;
    int32_t n;
    assert_int_equal(gcut_cameras_load("/nonexistent/cams_par.txt", &c, &n), GCUT_ERR_IO);
    assert_non_null(strstr(gcut_last_error(), "/nonexistent/cams_par.txt"));
}

static int have_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* The temple's box (its README) lies in front of every camera and inside
 * every image: checks the parser and the projection on real cameras. */
static void test_cameras_temple(void **state)
{
    (void)state;
    const char *path = GCUT_SHARED_DATA "/multiview/templeSparseRing/templeSR_par.txt";
    if (!have_file(path)) {
        print_message("skipped: %s absent\n", path);
        skip();
    }
    gcut_camera *c;
    int32_t n;
    assert_int_equal(gcut_cameras_load(path, &c, &n), GCUT_OK);
    assert_int_equal(n, 16);
    assert_string_equal(c[0].name, "templeSR0001.png");
    const double lo[3] = {-0.073568, 0.021728, -0.012445}, hi[3] = {0.028855, 0.181892, 0.062736};
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 8; k++) {
            const double X[3] = {(k & 1) ? hi[0] : lo[0], (k & 2) ? hi[1] : lo[1],
                                 (k & 4) ? hi[2] : lo[2]};
            double u, v, z;
            gcut_camera_project(&c[i], X, &u, &v, &z);
            assert_true(z > 0 && u >= 0 && u < 640 && v >= 0 && v < 480);
        }
        double zn, zf;
        assert_int_equal(gcut_sweep_range_box(&c[i], lo, hi, &zn, &zf), GCUT_OK);
        assert_true(zn > 0.4 && zf < 0.8 && zn < zf);
    }
    /* The ring's axes converge near the box. */
    double zn, zf, zb0, zb1;
    assert_int_equal(gcut_sweep_range_auto(c, n, 0, &zn, &zf), GCUT_OK);
    assert_int_equal(gcut_sweep_range_box(&c[0], lo, hi, &zb0, &zb1), GCUT_OK);
    assert_true(zn < zb0 + 0.05 && zf > zb1 - 0.05);
    int32_t nb[4];
    assert_int_equal(gcut_sweep_neighbours(c, n, 0, 4, nb), GCUT_OK);
    for (int k = 0; k < 4; k++)
        assert_true(nb[k] != 0 && nb[k] >= 0 && nb[k] < n);
    gcut_cameras_free(c);
}

/* ---- plane sweep on a synthetic calibrated scene ------------------------- */

enum { PW = 80, PH = 60 };
static const double FOCAL = 120, BACK_Z = 10, FRONT_Z = 7;

/* A camera at centre C, rotated by yaw (radians, about y), f = FOCAL. */
static gcut_camera make_camera(double cx, double cy, double yaw)
{
    gcut_camera c;
    memset(&c, 0, sizeof(c));
    const double K[9] = {FOCAL, 0, PW / 2.0, 0, FOCAL, PH / 2.0, 0, 0, 1};
    const double R[9] = {cos(yaw), 0, -sin(yaw), 0, 1, 0, sin(yaw), 0, cos(yaw)};
    memcpy(c.K, K, sizeof(K));
    memcpy(c.R, R, sizeof(R));
    const double C[3] = {cx, cy, 0};
    for (int i = 0; i < 3; i++)
        c.t[i] = -(R[3 * i] * C[0] + R[3 * i + 1] * C[1] + R[3 * i + 2] * C[2]);
    return c;
}

/* The front square: world x, y in [-1, 1.2] x [-0.8, 0.9] at z = FRONT_Z. */
static int in_square(double x, double y) { return x >= -1 && x <= 1.2 && y >= -0.8 && y <= 0.9; }

/* Ray-cast the two-plane scene into camera c (texture in world units, 1
 * lattice cell = 0.06). */
static gcut_image *render_planes(const texture *tex, const gcut_camera *c)
{
    gcut_image *img;
    assert_int_equal(gcut_image_new(&img, PW, PH, 1, 8), GCUT_OK);
    double C[3];
    gcut_camera_center(c, C);
    for (int y = 0; y < PH; y++)
        for (int x = 0; x < PW; x++) {
            double P[3];
            gcut_camera_unproject(c, x, y, 1, P);
            const double d[3] = {P[0] - C[0], P[1] - C[1], P[2] - C[2]};
            double s = (FRONT_Z - C[2]) / d[2], X = C[0] + s * d[0], Y = C[1] + s * d[1];
            double v;
            if (in_square(X, Y)) {
                v = texture_at(tex, X / 0.06, Y / 0.06 + 40);
            } else {
                s = (BACK_Z - C[2]) / d[2];
                v = texture_at(tex, (C[0] + s * d[0]) / 0.06, (C[1] + s * d[1]) / 0.06);
            }
            img->data[(size_t)y * img->stride + x] = (uint8_t)(v + 0.5);
        }
    return img;
}

typedef struct sweep_seen {
    int planes, moves, expansion, stop;
} sweep_seen;

static int on_sweep_progress(const gcut_progress *p, void *user)
{
    sweep_seen *s = user;
    if (!strcmp(p->operation, "mvs")) {
        s->planes += !strcmp(p->phase, "cost");
        s->moves += !strcmp(p->phase, "moves");
        return s->stop && !strcmp(p->phase, "moves");
    }
    s->expansion += !strcmp(p->operation, "expansion");
    return 0;
}

static void test_sweep_synthetic(void **state)
{
    (void)state;
    texture *tex = malloc(sizeof(texture));
    texture_init(tex);
    gcut_camera cams[5] = {make_camera(0, 0, 0), make_camera(0.6, 0, -0.03),
                           make_camera(-0.6, 0.05, 0.02), make_camera(0, 0.6, 0),
                           make_camera(0.1, -0.6, 0.04)};
    gcut_image *img[5];
    for (int i = 0; i < 5; i++)
        img[i] = render_planes(tex, &cams[i]);
    gcut_sweep_options p;
    gcut_sweep_options_init(&p);
    p.ndepth = 32;
    p.znear = 6;
    p.zfar = 12;
    int32_t *labels = malloc(sizeof(int32_t) * PW * PH);
    double *depth = malloc(sizeof(double) * PW * PH);
    gcut_mrf_stats st;
    assert_int_equal(gcut_sweep_depth((const gcut_image *const *)img, cams, 5, &p, labels, depth, &st),
                     GCUT_OK);
    /* One label step of inverse depth, as a depth tolerance at each plane. */
    const double step = (1 / p.znear - 1 / p.zfar) / (p.ndepth - 1);
    int bad = 0, front = 0;
    for (int y = 0; y < PH; y++)
        for (int x = 0; x < PW; x++) {
            double P[3];
            gcut_camera_unproject(&cams[0], x, y, FRONT_Z, P);
            const double z = in_square(P[0], P[1]) ? FRONT_Z : BACK_Z;
            front += z == FRONT_Z;
            const double e = fabs(1 / depth[y * PW + x] - 1 / z);
            bad += e > 1.01 * step;
            assert_true(labels[y * PW + x] >= 0 && labels[y * PW + x] < p.ndepth);
            assert_true(fabs(depth[y * PW + x] - gcut_sweep_label_depth(&p, labels[y * PW + x])) < 1e-12);
        }
    const double pct = 100.0 * bad / (PW * PH);
    print_message("plane sweep: %.2f %% of pixels off by more than one label (front %d px)\n",
                  pct, front);
    assert_true(front > 500);
    assert_true(pct < 3.0);
    /* A mask: pixels at or below 60 are left out (-1, depth 0). */
    p.mask_threshold = 60;
    assert_int_equal(gcut_sweep_depth((const gcut_image *const *)img, cams, 5, &p, labels, depth, NULL),
                     GCUT_OK);
    int masked = 0;
    for (int i = 0; i < PW * PH; i++) {
        const int dark = img[0]->data[(size_t)(i / PW) * img[0]->stride + i % PW] <= 60;
        assert_int_equal(labels[i] < 0, dark);
        assert_int_equal(depth[i] == 0, dark);
        masked += dark;
    }
    assert_true(masked > 0);
    /* Progress (operation "mvs"): every depth plane's costs with a tiny
     * interval, then "moves"; stopping there leaves the outputs alone. */
    sweep_seen sw = {0, 0, 0, 0};
    p.mrf.solve.progress = on_sweep_progress;
    p.mrf.solve.progress_user = &sw;
    p.mrf.solve.progress_interval_ms = 1e-9;
    assert_int_equal(
        gcut_sweep_depth((const gcut_image *const *)img, cams, 5, &p, labels, depth, NULL),
        GCUT_OK);
    assert_int_equal(sw.planes, p.ndepth);
    assert_int_equal(sw.moves, 1);
    assert_true(sw.expansion > 0);
    memset(&sw, 0, sizeof sw);
    sw.stop = 1;
    labels[7] = -7;
    depth[7] = -7.0;
    assert_int_equal(
        gcut_sweep_depth((const gcut_image *const *)img, cams, 5, &p, labels, depth, NULL),
        GCUT_ERR_INTERRUPTED);
    assert_non_null(strstr(gcut_last_error(), "gcut_sweep_depth"));
    assert_int_equal(labels[7], -7);
    assert_true(depth[7] == -7.0);
    assert_int_equal(sw.expansion, 0);
    p.mrf.solve.progress = NULL;
    /* Errors. */
    p.mask_threshold = 255;
    assert_int_equal(gcut_sweep_depth((const gcut_image *const *)img, cams, 5, &p, labels, depth, NULL),
                     GCUT_ERR_INVALID);
    assert_non_null(strstr(gcut_last_error(), "masked"));
    p.mask_threshold = -1;
    p.znear = 13;
    assert_int_equal(gcut_sweep_depth((const gcut_image *const *)img, cams, 5, &p, labels, depth, NULL),
                     GCUT_ERR_INVALID);
    p.znear = 6;
    assert_int_equal(gcut_sweep_depth((const gcut_image *const *)img, cams, 1, &p, labels, depth, NULL),
                     GCUT_ERR_INVALID);
    /* Neighbours by distance; the auto range brackets a converging ring. */
    int32_t nb[4];
    assert_int_equal(gcut_sweep_neighbours(cams, 5, 1, 2, nb), GCUT_OK);
    assert_int_equal(nb[0], 0);
    assert_int_equal(gcut_sweep_neighbours(cams, 5, 0, 5, nb), GCUT_ERR_INVALID);
    double zn, zf;
    assert_int_equal(gcut_sweep_range_auto(cams, 5, 0, &zn, &zf), GCUT_OK);
    gcut_camera ring[8];
    for (int i = 0; i < 8; i++) {
        /* Cameras on a circle of radius 3 in the x-z plane, looking at the origin. */
        const double a = i * 0.78539816339744831;
        ring[i] = make_camera(0, 0, 0);
        const double R[9] = {cos(a), 0, -sin(a), 0, 1, 0, sin(a), 0, cos(a)};
        memcpy(ring[i].R, R, sizeof(R));
        /* Centre C = -3 * (third row of R): the axis passes the origin. */
        const double C[3] = {-3 * R[6], -3 * R[7], -3 * R[8]};
        for (int k = 0; k < 3; k++)
            ring[i].t[k] = -(R[3 * k] * C[0] + R[3 * k + 1] * C[1] + R[3 * k + 2] * C[2]);
    }
    assert_int_equal(gcut_sweep_range_auto(ring, 8, 0, &zn, &zf), GCUT_OK);
    assert_true(fabs(zn - 0.75 * 3) < 1e-9 && fabs(zf - 1.25 * 3) < 1e-9);
    for (int i = 0; i < 5; i++)
        gcut_image_free(img[i]);
    free(labels);
    free(depth);
    free(tex);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mbs_synthetic),       cmocka_unit_test(test_mbs_equals_two_view),
        cmocka_unit_test(test_mbs_fractional),      cmocka_unit_test(test_mbs_errors),
        cmocka_unit_test(test_cameras_parse_good),  cmocka_unit_test(test_cameras_parse_bad),
        cmocka_unit_test(test_cameras_temple),      cmocka_unit_test(test_sweep_synthetic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
