// opencv_sgbm - the reference point of bench/run-stereo.sh: OpenCV's
// semi-global block matching (cv::StereoSGBM) on a rectified pair, on one
// core, timed, scored with the bad-pixel rule of gcut-stereo --gt.
//
// H. Hirschmuller, "Stereo processing by semiglobal matching and mutual
// information", IEEE PAMI 30(2), 2008: a per-pixel matching cost summed
// along 5 or 8 (OpenCV: also 3 or 4) 1-D paths with penalty P1 for a
// disparity step of one and P2 for larger steps. OpenCV's version sums over
// a block a Birchfield-Tomasi cost of the x-derivative (clipped at
// preFilterCap) and, at a quarter weight, of the intensities, instead of
// mutual information. Built only when OpenCV is found (it is not a
// dependency of gcut).
//
// The score is the rule of gcut_stereo_bad_pixels (vision/stereo.c): a
// pixel counts when its ground-truth value g is not 0; it is bad when
// |d - g / scale| > threshold; the rate is bad / counted in percent. SGBM's
// disparities are sixteenths of a pixel and are scored as such unless
// --round rounds them to integers; pixels SGBM leaves invalid (after the uniqueness, left-right and
// speckle checks, and the numDisparities leftmost columns, whose range runs
// past the right image's left edge, unless --pad) are scored both ways: counted as bad, and filled from the nearest
// valid pixel on their left in the same row (from the right where there is
// none on the left), which is where the background of an occlusion is.
//
// --eval scores an integer disparity PNG (gcut-stereo's FILE-16.png) with
// the same code, so that bench/run-stereo.sh can check that this tool and
// gcut-stereo agree on gcut's own output.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

static const char usage[] =
    "usage: opencv_sgbm [options] LEFT RIGHT --ndisp N\n"
    "       opencv_sgbm --eval DISP.png --gt GT.png --gt-scale S\n"
    "OpenCV's StereoSGBM on a rectified pair, one thread, scored like gcut-stereo --gt.\n"
    "\n"
    "  -n, --ndisp N         disparities 0 .. N-1 as in gcut-stereo; SGBM gets\n"
    "                        numDisparities = N rounded up to a multiple of 16,\n"
    "                        minDisparity 0\n"
    "      --mode M          sgbm (5 paths, default), hh (8 paths), 3way, hh4\n"
    "      --block B         blockSize, odd, 1 .. 11 (default 3); P1 = 8*cn*B^2,\n"
    "                        P2 = 32*cn*B^2 (cn = 3 channels)\n"
    "      --uniqueness U    uniquenessRatio in percent (default 10)\n"
    "      --speckle W,R     speckle filter: windows of W pixels, range R\n"
    "                        disparities (default 100,2; 0,0: off)\n"
    "      --disp12 D        disp12MaxDiff, left-right check (default 1; -1: off)\n"
    "      --prefilter-cap C preFilterCap (default 63)\n"
    "      --pad             replicate the first column of both images numDisparities\n"
    "                        times on the left (and crop the result): SGBM then gives\n"
    "                        the leftmost columns a disparity instead of none\n"
    "      --round           round the disparities to integers (as gcut's labels)\n"
    "                        before scoring\n"
    "      --sweep           run every mode x block 1,3,5,7,9,11 x uniqueness\n"
    "                        0,5,10,15 x speckle off/100,2 x disp12 off/1 x pad\n"
    "                        off/on, print one line per setting and the best by bad1\n"
    "                        (filled) and by bad1 (invalid counted as bad); needs --gt\n"
    "  -o, --out FILE        8-bit PNG of the filled disparities x scale; FILE with\n"
    "                        -invalid.png instead of .png: invalid pixels black\n"
    "                        (with --sweep: the best setting by bad1 filled)\n"
    "      --scale S         scale of the 8-bit pictures (default 255 / (N - 1))\n"
    "      --gt FILE         ground truth: value / gt-scale is the disparity, 0 unknown\n"
    "      --gt-scale S      scale of the ground truth (default 1)\n"
    "      --gt-right FILE   the right view's ground truth (same scale): also print\n"
    "                        bad 1 (filled) split into visible, occluded (in the\n"
    "                        right view) and border (match left of the right image)\n"
    "      --eval FILE       score FILE (8- or 16-bit PNG of integer disparities, e.g.\n"
    "                        gcut-stereo's -16.png) instead of running SGBM\n"
    "  -h, --help            show this help\n"
    "\n"
    "printed (one item per line): `setting: ...`, `numdisparities: N`,\n"
    "`total: MS ms` (the compute call), `fill: MS ms`, `invalid: PERCENT %` (of all\n"
    "pixels), and with --gt `bad1-all:` / `bad2-all:` (filled),\n"
    "`bad1-invalid-bad:` / `bad2-invalid-bad:` (invalid counted as bad). With\n"
    "--eval: `bad1-all:`, `bad2-all:`. With --gt-right: `visible:`, `occluded:`,\n"
    "`border:`: share of the pixels, bad 1 among them, bad 1 of all. Exit status 0 on success, 1 on bad input,\n"
    "2 on bad usage.\n";

static int die_usage(const char *msg, const char *arg)
{
    std::fprintf(stderr, "opencv_sgbm: %s%s%s\nTry 'opencv_sgbm --help'.\n", msg,
                 arg ? ": " : "", arg ? arg : "");
    return 2;
}

static bool parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = std::strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

struct setting {
    int mode, block, uniqueness, speckle_window, speckle_range, disp12, prefilter_cap, pad;
};

static const char *mode_name(int mode)
{
    switch (mode) {
    case cv::StereoSGBM::MODE_HH: return "hh";
    case cv::StereoSGBM::MODE_SGBM_3WAY: return "3way";
    case cv::StereoSGBM::MODE_HH4: return "hh4";
    default: return "sgbm";
    }
}

static std::string describe(const setting &s)
{
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "mode=%s block=%d uniqueness=%d speckle=%d,%d disp12=%d prefilter-cap=%d pad=%d",
                  mode_name(s.mode), s.block, s.uniqueness, s.speckle_window, s.speckle_range,
                  s.disp12, s.prefilter_cap, s.pad);
    return buf;
}

// Disparities in pixels (CV_32F); NaN where SGBM gave none.
struct result {
    cv::Mat disp, filled;
    double ms, fill_ms, invalid_pct;
};

static result run_sgbm(const cv::Mat &left, const cv::Mat &right, int numdisp, const setting &s,
                       bool round)
{
    const int cn = left.channels(), b2 = s.block * s.block;
    cv::Ptr<cv::StereoSGBM> sgbm =
        cv::StereoSGBM::create(0, numdisp, s.block, 8 * cn * b2, 32 * cn * b2, s.disp12,
                               s.prefilter_cap, s.uniqueness, s.speckle_window, s.speckle_range,
                               s.mode);
    cv::Mat raw;
    result r;
    auto t0 = std::chrono::steady_clock::now();
    if (s.pad) {
        // SGBM leaves the numdisp leftmost columns invalid: their range runs
        // past the right image's edge. Replicating both images' first column
        // numdisp times lets it match them as gcut does (x - d clamped at 0).
        cv::Mat l, r2, full;
        cv::copyMakeBorder(left, l, 0, 0, numdisp, 0, cv::BORDER_REPLICATE);
        cv::copyMakeBorder(right, r2, 0, 0, numdisp, 0, cv::BORDER_REPLICATE);
        sgbm->compute(l, r2, full);
        raw = full.colRange(numdisp, full.cols).clone();
    } else {
        sgbm->compute(left, right, raw);
    }
    auto t1 = std::chrono::steady_clock::now();
    r.ms = std::chrono::duration<double, std::milli>(t1 - t0).count();

    // Invalid is (minDisparity - 1) * 16 = -16; anything negative is treated so.
    r.disp.create(raw.size(), CV_32F);
    long invalid = 0;
    for (int y = 0; y < raw.rows; y++)
        for (int x = 0; x < raw.cols; x++) {
            const short v = raw.at<short>(y, x);
            invalid += v < 0;
            r.disp.at<float>(y, x) = v < 0 ? NAN : round ? (float)((v + 8) / 16) : v / 16.0f;
        }
    r.invalid_pct = 100.0 * invalid / (double)raw.total();

    t0 = std::chrono::steady_clock::now();
    r.filled = r.disp.clone();
    for (int y = 0; y < raw.rows; y++) {
        float *row = r.filled.ptr<float>(y);
        int first = 0;
        while (first < raw.cols && std::isnan(row[first]))
            first++;
        const float lead = first < raw.cols ? row[first] : 0.0f;
        for (int x = 0; x < first; x++)
            row[x] = lead;
        for (int x = first + 1; x < raw.cols; x++)
            if (std::isnan(row[x]))
                row[x] = row[x - 1];
    }
    t1 = std::chrono::steady_clock::now();
    r.fill_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    return r;
}

// The rule of gcut_stereo_bad_pixels; a NaN disparity (invalid) is bad.
static double bad_percent(const cv::Mat &disp, const cv::Mat &gt, double gt_scale, double threshold)
{
    long bad = 0, all = 0;
    for (int y = 0; y < gt.rows; y++)
        for (int x = 0; x < gt.cols; x++) {
            const int g = gt.depth() == CV_16U ? gt.at<unsigned short>(y, x) : gt.at<unsigned char>(y, x);
            if (g == 0)
                continue;
            const double e = (double)disp.at<float>(y, x) - g / gt_scale;
            all++;
            bad += std::isnan(e) || e > threshold || e < -threshold;
        }
    return all ? 100.0 * (double)bad / (double)all : 0.0;
}

// Where the bad pixels at threshold 1 are, given the right view's ground
// truth gtr: a counted pixel is "border" when x - g / scale < 0 (its match
// is outside the right image), "occluded" when the right ground truth at
// its match is unknown or differs from its own by more than 1, "visible"
// otherwise.
static void print_split(const cv::Mat &disp, const cv::Mat &gt, const cv::Mat &gtr, double gt_scale)
{
    static const char *const name[3] = {"visible", "occluded", "border"};
    long n[3] = {0, 0, 0}, bad[3] = {0, 0, 0}, all = 0;
    for (int y = 0; y < gt.rows; y++)
        for (int x = 0; x < gt.cols; x++) {
            const int g = gt.depth() == CV_16U ? gt.at<unsigned short>(y, x) : gt.at<unsigned char>(y, x);
            if (g == 0)
                continue;
            const double gd = g / gt_scale;
            const long xr = std::lround(x - gd);
            int cls = 2;
            if (xr >= 0) {
                const int g2 = gtr.depth() == CV_16U ? gtr.at<unsigned short>(y, (int)xr)
                                                     : gtr.at<unsigned char>(y, (int)xr);
                cls = g2 != 0 && std::fabs(g2 / gt_scale - gd) <= 1 ? 0 : 1;
            }
            const double e = (double)disp.at<float>(y, x) - gd;
            n[cls]++;
            all++;
            bad[cls] += std::isnan(e) || e > 1 || e < -1;
        }
    for (int c = 0; c < 3; c++)
        std::printf("%s: %.2f %% of the pixels, bad1 %.2f %% of them, %.2f %% of all\n", name[c],
                    all ? 100.0 * n[c] / all : 0.0, n[c] ? 100.0 * bad[c] / n[c] : 0.0,
                    all ? 100.0 * bad[c] / all : 0.0);
}

static bool save_disp(const cv::Mat &disp, double scale, const std::string &path)
{
    cv::Mat img(disp.size(), CV_8UC1);
    for (int y = 0; y < disp.rows; y++)
        for (int x = 0; x < disp.cols; x++) {
            const float d = disp.at<float>(y, x);
            const double v = std::isnan(d) ? 0.0 : d * scale + 0.5;
            img.at<unsigned char>(y, x) = (unsigned char)(v > 255 ? 255 : v);
        }
    return cv::imwrite(path, img);
}

static std::string invalid_path(const std::string &path)
{
    std::string p = path;
    if (p.size() > 4 && p.compare(p.size() - 4, 4, ".png") == 0)
        p.resize(p.size() - 4);
    return p + "-invalid.png";
}

int main(int argc, char **argv)
{
    const char *files[2] = {nullptr, nullptr}, *out = nullptr, *gt_path = nullptr,
               *gtr_path = nullptr, *eval_path = nullptr;
    int nfiles = 0, ndisp = 0;
    bool sweep = false, round = false;
    double scale = 0, gt_scale = 1;
    setting s = {cv::StereoSGBM::MODE_SGBM, 3, 10, 100, 2, 1, 63, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : nullptr;
        const bool takes = !std::strcmp(a, "-n") || !std::strcmp(a, "--ndisp") ||
                           !std::strcmp(a, "--mode") || !std::strcmp(a, "--block") ||
                           !std::strcmp(a, "--uniqueness") || !std::strcmp(a, "--speckle") ||
                           !std::strcmp(a, "--disp12") || !std::strcmp(a, "--prefilter-cap") ||
                           !std::strcmp(a, "-o") || !std::strcmp(a, "--out") ||
                           !std::strcmp(a, "--scale") || !std::strcmp(a, "--gt") ||
                           !std::strcmp(a, "--gt-scale") || !std::strcmp(a, "--gt-right") ||
                           !std::strcmp(a, "--eval");
        if (takes && !v)
            return die_usage("option needs a value", a);
        if (takes)
            i++;
        if (!std::strcmp(a, "-h") || !std::strcmp(a, "--help")) {
            std::fputs(usage, stdout);
            return 0;
        } else if (!std::strcmp(a, "-n") || !std::strcmp(a, "--ndisp")) {
            if (!parse_int(v, 2, 1024, &ndisp))
                return die_usage("--ndisp must be in 2 .. 1024", v);
        } else if (!std::strcmp(a, "--mode")) {
            if (!std::strcmp(v, "sgbm"))
                s.mode = cv::StereoSGBM::MODE_SGBM;
            else if (!std::strcmp(v, "hh"))
                s.mode = cv::StereoSGBM::MODE_HH;
            else if (!std::strcmp(v, "3way"))
                s.mode = cv::StereoSGBM::MODE_SGBM_3WAY;
            else if (!std::strcmp(v, "hh4"))
                s.mode = cv::StereoSGBM::MODE_HH4;
            else
                return die_usage("--mode must be sgbm, hh, 3way or hh4", v);
        } else if (!std::strcmp(a, "--block")) {
            if (!parse_int(v, 1, 11, &s.block) || s.block % 2 == 0)
                return die_usage("--block must be odd, 1 .. 11", v);
        } else if (!std::strcmp(a, "--uniqueness")) {
            if (!parse_int(v, 0, 100, &s.uniqueness))
                return die_usage("--uniqueness must be in 0 .. 100", v);
        } else if (!std::strcmp(a, "--speckle")) {
            if (std::sscanf(v, "%d,%d", &s.speckle_window, &s.speckle_range) != 2 ||
                s.speckle_window < 0 || s.speckle_range < 0)
                return die_usage("--speckle must be W,R with W, R >= 0", v);
        } else if (!std::strcmp(a, "--disp12")) {
            if (!parse_int(v, -1, 1024, &s.disp12))
                return die_usage("--disp12 must be in -1 .. 1024", v);
        } else if (!std::strcmp(a, "--prefilter-cap")) {
            if (!parse_int(v, 1, 63, &s.prefilter_cap))
                return die_usage("--prefilter-cap must be in 1 .. 63", v);
        } else if (!std::strcmp(a, "--pad")) {
            s.pad = 1;
        } else if (!std::strcmp(a, "--round")) {
            round = true;
        } else if (!std::strcmp(a, "--sweep")) {
            sweep = true;
        } else if (!std::strcmp(a, "-o") || !std::strcmp(a, "--out")) {
            out = v;
        } else if (!std::strcmp(a, "--scale")) {
            if (!(std::atof(v) > 0))
                return die_usage("--scale must be > 0", v);
            scale = std::atof(v);
        } else if (!std::strcmp(a, "--gt")) {
            gt_path = v;
        } else if (!std::strcmp(a, "--gt-scale")) {
            if (!(std::atof(v) > 0))
                return die_usage("--gt-scale must be > 0", v);
            gt_scale = std::atof(v);
        } else if (!std::strcmp(a, "--gt-right")) {
            gtr_path = v;
        } else if (!std::strcmp(a, "--eval")) {
            eval_path = v;
        } else if (a[0] == '-' && a[1] != '\0') {
            return die_usage("unknown option", a);
        } else {
            if (nfiles == 2)
                return die_usage("more than two images", a);
            files[nfiles++] = a;
        }
    }

    cv::Mat gt;
    if (gt_path) {
        gt = cv::imread(gt_path, cv::IMREAD_ANYDEPTH | cv::IMREAD_GRAYSCALE);
        if (gt.empty()) {
            std::fprintf(stderr, "opencv_sgbm: cannot read %s\n", gt_path);
            return 1;
        }
    }
    cv::Mat gtr;
    if (gtr_path) {
        gtr = cv::imread(gtr_path, cv::IMREAD_ANYDEPTH | cv::IMREAD_GRAYSCALE);
        if (gtr.empty() || gt.empty() || gtr.size() != gt.size()) {
            std::fprintf(stderr, "opencv_sgbm: cannot read %s, or no --gt of its size\n", gtr_path);
            return 1;
        }
    }
    if (eval_path) {
        if (gt.empty())
            return die_usage("--eval needs --gt", nullptr);
        cv::Mat d = cv::imread(eval_path, cv::IMREAD_ANYDEPTH | cv::IMREAD_GRAYSCALE);
        if (d.empty() || d.size() != gt.size()) {
            std::fprintf(stderr, "opencv_sgbm: cannot read %s or not the ground truth's size\n",
                         eval_path);
            return 1;
        }
        d.convertTo(d, CV_32F);
        for (int t = 1; t <= 2; t++)
            std::printf("bad%d-all: %.2f %%\n", t, bad_percent(d, gt, gt_scale, t));
        if (!gtr.empty())
            print_split(d, gt, gtr, gt_scale);
        return 0;
    }

    if (nfiles != 2)
        return die_usage("need LEFT and RIGHT images", nullptr);
    if (ndisp == 0)
        return die_usage("--ndisp is required", nullptr);
    if (sweep && gt.empty())
        return die_usage("--sweep needs --gt", nullptr);
    if (scale == 0)
        scale = 255.0 / (ndisp - 1);
    cv::setNumThreads(1);
    cv::Mat left = cv::imread(files[0], cv::IMREAD_COLOR), right = cv::imread(files[1], cv::IMREAD_COLOR);
    if (left.empty() || right.empty()) {
        std::fprintf(stderr, "opencv_sgbm: cannot read %s\n", left.empty() ? files[0] : files[1]);
        return 1;
    }
    if (left.size() != right.size() || (!gt.empty() && gt.size() != left.size())) {
        std::fprintf(stderr, "opencv_sgbm: the images (and ground truth) differ in size\n");
        return 1;
    }
    const int numdisp = (ndisp + 15) / 16 * 16;

    std::vector<setting> settings;
    if (sweep) {
        const int modes[] = {cv::StereoSGBM::MODE_SGBM, cv::StereoSGBM::MODE_HH,
                             cv::StereoSGBM::MODE_SGBM_3WAY, cv::StereoSGBM::MODE_HH4};
        for (int m : modes)
            for (int b = 1; b <= 11; b += 2)
                for (int u = 0; u <= 15; u += 5)
                    for (int sp = 0; sp < 2; sp++)
                        for (int d12 = 0; d12 < 2; d12++)
                            for (int pad = 0; pad < 2; pad++)
                                settings.push_back({m, b, u, sp ? 100 : 0, sp ? 2 : 0,
                                                    d12 ? 1 : -1, s.prefilter_cap, pad});
    } else {
        settings.push_back(s);
    }

    std::printf("numdisparities: %d\n", numdisp);
    // Index of the best setting by bad1 filled and by bad1 invalid-as-bad.
    size_t best_f = 0, best_i = 0;
    double best_fv = 1e9, best_iv = 1e9;
    result keep;
    for (size_t k = 0; k < settings.size(); k++) {
        result r = run_sgbm(left, right, numdisp, settings[k], round);
        std::string line = describe(settings[k]);
        char buf[256];
        std::snprintf(buf, sizeof buf, "; total %.1f ms; fill %.2f ms; invalid %.2f %%", r.ms,
                      r.fill_ms, r.invalid_pct);
        line += buf;
        if (!gt.empty()) {
            const double f1 = bad_percent(r.filled, gt, gt_scale, 1),
                         f2 = bad_percent(r.filled, gt, gt_scale, 2),
                         i1 = bad_percent(r.disp, gt, gt_scale, 1),
                         i2 = bad_percent(r.disp, gt, gt_scale, 2);
            std::snprintf(buf, sizeof buf, "; bad1 %.2f %%; bad2 %.2f %%; bad1-invalid-bad %.2f %%; bad2-invalid-bad %.2f %%",
                          f1, f2, i1, i2);
            line += buf;
            if (f1 < best_fv) {
                best_fv = f1;
                best_f = k;
                keep = r;
            }
            if (i1 < best_iv) {
                best_iv = i1;
                best_i = k;
            }
        } else {
            keep = r;
        }
        if (sweep) {
            std::printf("sweep %zu/%zu: %s\n", k + 1, settings.size(), line.c_str());
            std::fflush(stdout);
        }
    }

    // The summary: the (best) setting by bad1 filled, in the format of gcut-stereo.
    const result &r = keep;
    std::printf("setting: %s\n", describe(settings[best_f]).c_str());
    std::printf("total: %.1f ms\nfill: %.2f ms\ninvalid: %.2f %%\n", r.ms, r.fill_ms, r.invalid_pct);
    if (!gt.empty())
        for (int t = 1; t <= 2; t++)
            std::printf("bad%d-all: %.2f %%\nbad%d-invalid-bad: %.2f %%\n", t,
                        bad_percent(r.filled, gt, gt_scale, t), t,
                        bad_percent(r.disp, gt, gt_scale, t));
    if (!gtr.empty())
        print_split(r.filled, gt, gtr, gt_scale);
    if (sweep)
        std::printf("best-invalid-bad: %s; bad1-invalid-bad %.2f %%\n",
                    describe(settings[best_i]).c_str(), best_iv);
    if (out && (!save_disp(r.filled, scale, out) || !save_disp(r.disp, scale, invalid_path(out)))) {
        std::fprintf(stderr, "opencv_sgbm: cannot write %s\n", out);
        return 1;
    }
    return 0;
}
