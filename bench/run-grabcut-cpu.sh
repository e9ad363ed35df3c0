#!/usr/bin/env bash
# GrabCut on one core in CPU time: gcut_grabcut of two builds (before and
# after a change) against OpenCV's cv::grabCut, interleaved image by image
# on the GrabCut (MSRC) set with the rectangles of index.csv (as
# bench/run-grabcut.sh), the least of REPS runs of each. On a loaded
# machine the wall times of run-grabcut.sh also count the other jobs (they
# swung by 1.5x between runs of the same binary on the shared 2-core dev
# machine); CPU times, taken inside the processes around the calls, much
# less so.
#
#   bench/run-grabcut-cpu.sh BEFORE_BUILD AFTER_BUILD [REPS] [OUT.csv]
#
# Each build must hold lib/ (libgcut, libgcut_vision); AFTER_BUILD also
# bin/opencv_grabcut and the generated headers (lib/include,
# vision/include). bench/grabcut_cpu.c, which uses only the public API, is
# compiled with AFTER_BUILD's headers and linked against each. Writes
# OUT.csv (default bench/results/grabcut-cpu-<date>.csv): per image the
# iterations gcut ran, the CPU ms of OpenCV (5 iterations) and of both
# gcut builds, OpenCV / gcut per iteration for both (each over its own
# iterations), whether the two builds gave the same mask, and the
# iterations of BEFORE_BUILD (they differ from AFTER_BUILD's when a change
# changes the masks, as a new default does); then prints the geometric
# means.
# GCUT_BENCH_CPU picks the core (default 0).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
before=$(cd "$1" && pwd); after=$(cd "$2" && pwd)
reps=${3:-3}
out=${4:-$here/results/grabcut-cpu-$(date +%Y-%m-%d).csv}
data=${GCUT_GRABCUT_DATA:-$root/../shared/data/grabcut}
ocv=$after/bin/opencv_grabcut
[ -x "$ocv" ] || { echo "run-grabcut-cpu: $ocv not built (OpenCV not found?)" >&2; exit 1; }
pin=""; command -v taskset > /dev/null && pin="taskset -c ${GCUT_BENCH_CPU:-0}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for b in before after; do
    dir=$([ $b = before ] && echo "$before" || echo "$after")
    ${CC:-cc} -O2 -std=c11 -o "$tmp/gc-$b" "$here/grabcut_cpu.c" -I"$root/lib/include" \
        -I"$root/vision/include" -I"$after/lib/include" -I"$after/vision/include" -L"$dir/lib" \
        -lgcut_vision -lgcut -lm
done
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(b == "" || a + 0 < b + 0) }'; }
echo "image,gcut_iterations,opencv_cpu_ms,before_cpu_ms,after_cpu_ms,ratio_before,ratio_after,mask_same,before_iterations" > "$out"
tail -n +2 "$data/index.csv" | while IFS=, read -r name img w h x0 y0 x1 y1 _; do
    if [ "$x0" = 0 ] && [ "$y0" = 0 ] && [ "$x1" = $((w - 1)) ] && [ "$y1" = $((h - 1)) ]; then
        x0=1; y0=1; x1=$((w - 2)); y1=$((h - 2)) # as run-grabcut.sh
    fi
    rect=$x0,$y0,$((x1 - x0 + 1)),$((y1 - y0 + 1))
    o=""; tb=""; ta=""; same=1; it=""; itb=""
    for _ in $(seq "$reps"); do
        c=$($pin "$ocv" "$data/$img" "$rect" 5 | sed -n 's/^cpu_total: \([0-9.]*\).*/\1/p')
        lt "$c" "$o" && o=$c
        yb=$(LD_LIBRARY_PATH="$before/lib" $pin "$tmp/gc-before" "$data/$img" "$rect" 5)
        ya=$(LD_LIBRARY_PATH="$after/lib" $pin "$tmp/gc-after" "$data/$img" "$rect" 5)
        [ "${yb#* }" = "${ya#* }" ] || same=0
        b=$(echo "$yb" | sed 's/.*cpu_ms=\([0-9.]*\).*/\1/'); a=$(echo "$ya" | sed 's/.*cpu_ms=\([0-9.]*\).*/\1/')
        it=$(echo "$ya" | sed 's/.*iterations=\([0-9]*\).*/\1/')
        itb=$(echo "$yb" | sed 's/.*iterations=\([0-9]*\).*/\1/')
        lt "$b" "$tb" && tb=$b
        lt "$a" "$ta" && ta=$a
    done
    awk -v n="$name" -v it="$it" -v itb="$itb" -v o="$o" -v b="$tb" -v a="$ta" -v s="$same" \
        'BEGIN { printf "%s,%d,%s,%s,%s,%.3f,%.3f,%d,%d\n", n, it, o, b, a, (o / 5) / (b / itb), (o / 5) / (a / it), s, itb }' | tee -a "$out"
done
tail -n +2 "$out" | awk -F, '{ n++; lb += log($6); la += log($7); ls += log($4 / $5); s += $8 }
    END { printf "\n%d images: OpenCV / gcut per iteration (CPU time) %.2fx before, %.2fx after (geometric means); gcut after / before: %.3fx less CPU time; same masks on %d\n", n, exp(lb / n), exp(la / n), exp(ls / n), s }'
