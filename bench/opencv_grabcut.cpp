// opencv_grabcut - the reference point of bench/run-grabcut.sh: OpenCV's
// cv::grabCut on one image with a rectangle, on one core, timed.
//
// Built only when OpenCV is found (it is not a dependency of gcut).
//
//   opencv_grabcut IMAGE X,Y,W,H ITERATIONS [GT.png] [MASK_OUT.png]
//
// Prints, one per line: `total: MS ms` (the cv::grabCut call with
// GC_INIT_WITH_RECT and ITERATIONS iterations), `per_iteration: MS ms`,
// `cpu_total: MS ms` (the CPU time of the same call: on a loaded machine
// the wall time also counts other jobs; bench/run-grabcut-cpu.sh),
// `foreground: PIXELS` and, given GT (0 background, 255 foreground, other
// values not counted), `error: PERCENT %` and `iou: VALUE`.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <cstdlib>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

int main(int argc, char **argv)
{
    if (argc < 4) {
        std::fprintf(stderr, "usage: opencv_grabcut IMAGE X,Y,W,H ITERATIONS [GT.png] [MASK_OUT.png]\n");
        return 2;
    }
    cv::setNumThreads(1);
    cv::Mat img = cv::imread(argv[1], cv::IMREAD_COLOR);
    if (img.empty()) {
        std::fprintf(stderr, "opencv_grabcut: cannot read %s\n", argv[1]);
        return 1;
    }
    int x, y, w, h;
    if (std::sscanf(argv[2], "%d,%d,%d,%d", &x, &y, &w, &h) != 4) {
        std::fprintf(stderr, "opencv_grabcut: bad rectangle %s\n", argv[2]);
        return 2;
    }
    const int iters = std::atoi(argv[3]);
    cv::Mat mask(img.size(), CV_8UC1, cv::Scalar(cv::GC_BGD)), bgd, fgd;
    timespec c0, c1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    const auto t0 = std::chrono::steady_clock::now();
    cv::grabCut(img, mask, cv::Rect(x, y, w, h), bgd, fgd, iters, cv::GC_INIT_WITH_RECT);
    const auto t1 = std::chrono::steady_clock::now();
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    const double cpu = (double)(c1.tv_sec - c0.tv_sec) * 1e3 + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-6;
    cv::Mat fg = (mask == cv::GC_FGD) | (mask == cv::GC_PR_FGD); // 255 where foreground
    std::printf("total: %.2f ms\nper_iteration: %.2f ms\ncpu_total: %.2f ms\nforeground: %d\n", ms,
                ms / iters, cpu, cv::countNonZero(fg));
    if (argc > 4) {
        cv::Mat gt = cv::imread(argv[4], cv::IMREAD_GRAYSCALE);
        if (gt.size() != img.size()) {
            std::fprintf(stderr, "opencv_grabcut: cannot read %s or wrong size\n", argv[4]);
            return 1;
        }
        long counted = 0, errors = 0, inter = 0, uni = 0;
        for (int r = 0; r < gt.rows; r++)
            for (int c = 0; c < gt.cols; c++) {
                const int t = gt.at<unsigned char>(r, c);
                if (t != 0 && t != 255)
                    continue;
                const bool ft = t == 255, fm = fg.at<unsigned char>(r, c) != 0;
                counted++;
                errors += ft != fm;
                inter += ft && fm;
                uni += ft || fm;
            }
        std::printf("error: %.3f %%\niou: %.4f\n", 100.0 * errors / (counted ? counted : 1),
                    uni ? (double)inter / uni : 1.0);
    }
    if (argc > 5 && !cv::imwrite(argv[5], fg)) {
        std::fprintf(stderr, "opencv_grabcut: cannot write %s\n", argv[5]);
        return 1;
    }
    return 0;
}
