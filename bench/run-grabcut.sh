#!/usr/bin/env bash
# GrabCut benchmark: gcut-seg against OpenCV's cv::grabCut on the GrabCut
# (MSRC) dataset in ../shared/data/grabcut, with the rectangles of
# index.csv and the same number of iterations, on one CPU core.
#
#   bench/run-grabcut.sh [BUILD_DIR] [ITERATIONS] [NAMES...]
#
# BUILD_DIR defaults to build; it must hold bin/gcut-seg, and
# bin/opencv_grabcut when OpenCV was found at configure time (otherwise
# the OpenCV columns are left empty). Writes
# bench/results/grabcut-<date>.csv, .md and (with gnuplot) .png: per image the error rate
# (misclassified / labelled pixels over the whole image; ground-truth 128 is
# unlabelled), IoU, iterations and time per iteration of both, then the
# averages. Times exclude reading the image; both run pinned to one core.
# gcut stops early when the energy stops decreasing; on the images where it
# did, it runs once more with --no-early-stop, and the last column gives
# its time per iteration over all ITERATIONS (a second ratio, same work as
# OpenCV; the benchmark's own ratio stays time / iterations run).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=${1:-$root/build}
iters=${2:-5}
shift $(( $# > 2 ? 2 : $# )) || true
data=${GCUT_GRABCUT_DATA:-$root/../shared/data/grabcut}
seg=$build/bin/gcut-seg
ocv=$build/bin/opencv_grabcut
[ -x "$seg" ] || { echo "run-grabcut: $seg not built" >&2; exit 1; }
[ -f "$data/index.csv" ] || { echo "run-grabcut: no dataset at $data" >&2; exit 1; }
have_ocv=0; [ -x "$ocv" ] && have_ocv=1
# GCUT_BENCH_CPU picks the core both run on (default 0), to keep off a
# core another job holds on a shared machine.
pin=""; command -v taskset > /dev/null && pin="taskset -c ${GCUT_BENCH_CPU:-0}"
date=$(date +%Y-%m-%d)
out=$here/results/grabcut-$date
mkdir -p "$here/results"
csv=$out.csv; md=$out.md
echo "image,width,height,gcut_error_pct,gcut_iou,gcut_iterations,gcut_ms,gcut_ms_per_iter,opencv_error_pct,opencv_iou,opencv_ms,opencv_ms_per_iter,gcut_ms_per_iter_all" > "$csv"

val() { sed -n "s/^$1: \([-0-9.e+]*\).*/\1/p"; }

tail -n +2 "$data/index.csv" | while IFS=, read -r name img w h x0 y0 x1 y1 _; do
    if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
    note=""
    if [ "$x0" = 0 ] && [ "$y0" = 0 ] && [ "$x1" = $((w - 1)) ] && [ "$y1" = $((h - 1)) ]; then
        # The box covers the whole image (cross): neither method has any
        # background to learn from, so both get it shrunk by one pixel.
        x0=1; y0=1; x1=$((w - 2)); y1=$((h - 2)); note="*"
    fi
    rect=$x0,$y0,$((x1 - x0 + 1)),$((y1 - y0 + 1))
    g=$($pin "$seg" "$data/$img" --rect "$rect" --grabcut "$iters" --gt "$data/gt/$name.png")
    ge=$(echo "$g" | val error); gi=$(echo "$g" | val iou); gn=$(echo "$g" | val iterations)
    gm=$(echo "$g" | awk '/^(model|build|solve):/ {s += $2} END {printf "%.2f", s}')
    gp=$(awk -v a="$gm" -v b="$gn" 'BEGIN {printf "%.2f", a / b}')
    gf=$gp
    if [ "$gn" -lt "$iters" ]; then
        f=$($pin "$seg" "$data/$img" --rect "$rect" --grabcut "$iters" --no-early-stop)
        gf=$(echo "$f" | awk '/^(model|build|solve):/ {s += $2} /^iterations:/ {k = $2}
                             END {printf "%.2f", s / k}')
    fi
    oe=""; oi=""; om=""; op=""
    if [ $have_ocv = 1 ]; then
        o=$($pin "$ocv" "$data/$img" "$rect" "$iters" "$data/gt/$name.png")
        oe=$(echo "$o" | val error); oi=$(echo "$o" | val iou)
        om=$(echo "$o" | val total); op=$(echo "$o" | val per_iteration)
    fi
    echo "$name$note,$w,$h,$ge,$gi,$gn,$gm,$gp,$oe,$oi,$om,$op,$gf" | tee -a "$csv"
done

{
    echo "# GrabCut benchmark, $date"
    echo
    echo "Command: \`${GCUT_BENCH_CPU:+GCUT_BENCH_CPU=$GCUT_BENCH_CPU }bench/run-grabcut.sh $build $iters${*:+ $*}\` (gcut $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'),"
    echo "$(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), pinned to one core)."
    echo "Rectangles from index.csv (inclusive x0,y0,x1,y1), $iters iterations at most; error ="
    echo "misclassified / labelled pixels over the whole image (ground-truth 128 not counted)."
    echo "gcut: \`gcut-seg IMAGE --rect X,Y,W,H --grabcut $iters\` (GMM k=5, lambda 35 (GrabCut's default), 8-connected, stops"
    echo "early when the energy stops decreasing); OpenCV: \`cv::grabCut\`, GC_INIT_WITH_RECT, one thread."
    echo "Times: model + build + cut, without reading the image; per iteration = total / iterations run."
    echo "\\* the box of index.csv covers the whole image; both methods get it shrunk by one pixel per side."
    echo
    echo "| image | size | gcut error % | gcut IoU | iters | gcut ms/iter | OpenCV error % | OpenCV IoU | OpenCV ms/iter | gcut ms/iter, all $iters |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    tail -n +2 "$csv" | while IFS=, read -r n w h ge gi gn gm gp oe oi om op gf; do
        echo "| $n | ${w}x$h | $ge | $gi | $gn | $gp | $oe | $oi | $op | $gf |"
    done
    tail -n +2 "$csv" | awk -F, '{ n++; ge += $4; gi += $5; gp += $8; gf += $13; oe += $9; oi += $10; op += $12;
        if ($9 != "" && $4 < $9) w++;
        if ($12 > 0 && $8 > 0) { r = $12 / $8; lr += log(r); nr++;
            if (nr == 1 || r < rmin) rmin = r; if (nr == 1 || r > rmax) rmax = r;
            if (r >= 5) n5++ }
        if ($12 > 0 && $13 > 0) { f = $12 / $13; lf += log(f); nf++;
            if (nf == 1 || f < fmin) fmin = f; if (nf == 1 || f > fmax) fmax = f;
            if (f >= 5) f5++ } }
        END { if (n == 0) exit;
              printf "| **mean** (%d images) | | **%.2f** | %.4f | | %.1f | **%.2f** | %.4f | %.1f | %.1f |\n",
                     n, ge / n, gi / n, gp / n, oe / n, oi / n, op / n, gf / n;
              if (op > 0) printf "\ngcut lower error on %d of %d images; time per iteration: OpenCV / gcut = %.1fx (ratio of means), %.1fx (geometric mean of the per-image ratios, %.1fx to %.1fx; at 5x or more: %d images).\n", w, n, op / gp, exp(lr / nr), rmin, rmax, n5;
              if (nf > 0) printf "\nWith gcut also running all %d iterations (--no-early-stop, last column): %.1fx geometric mean, %.1fx to %.1fx, at 5x or more: %d images.\n", iters, exp(lf / nf), fmin, fmax, f5 }' iters="$iters"
} > "$md"
cat "$md"
# The times per image as a picture, when gnuplot is there.
if command -v gnuplot > /dev/null; then
    "$here/plot-grabcut.sh" "$csv" "$out.png" || echo "run-grabcut: plot failed" >&2
fi

# One cut from the set-1 scribbles (gcut only: OpenCV's grabCut has no
# scribble-only mode): bench/results/grabcut-scribbles-<date>.csv.
sdir=$data/scribbles_andrade_set1
if [ -d "$sdir" ]; then
    scsv=$here/results/grabcut-scribbles-$date.csv
    echo "image,gcut_error_pct,gcut_iou,gcut_ms" > "$scsv"
    tail -n +2 "$data/index.csv" | while IFS=, read -r name img _; do
        if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
        [ -f "$sdir/$name.png" ] || continue
        g=$($pin "$seg" "$data/$img" --seeds "$sdir/$name.png" --gt "$data/gt/$name.png")
        gm=$(echo "$g" | awk '/^(model|build|solve):/ {s += $2} END {printf "%.2f", s}')
        echo "$name,$(echo "$g" | val error),$(echo "$g" | val iou),$gm" >> "$scsv"
    done
    tail -n +2 "$scsv" | awk -F, '{n++; e += $2; i += $3} END {if (n) printf "\nSet-1 scribbles, one cut (gcut_segment): mean error %.2f %%, mean IoU %.4f over %d images (%s).\n", e / n, i / n, n, FILENAME}' FILENAME="$(basename "$scsv")" | tee -a "$md"
fi
