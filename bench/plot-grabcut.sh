#!/bin/sh
# bench/plot-grabcut.sh CSV PNG - the GrabCut benchmark's times per image:
# gcut and OpenCV ms per iteration (log scale, bars) and their ratio
# (points, right axis), images sorted by the ratio. Reads the CSV that
# bench/run-grabcut.sh writes; needs gnuplot.
set -eu
[ $# -eq 2 ] || { echo "usage: bench/plot-grabcut.sh grabcut-DATE.csv OUT.png" >&2; exit 1; }
DAT=$(mktemp "${TMPDIR:-/tmp}/gcut-gc.XXXXXX")
trap 'rm -f "$DAT"' EXIT INT TERM
# image, gcut ms/iter, OpenCV ms/iter, ratio; rows without OpenCV dropped.
awk -F, 'NR > 1 && $8 > 0 && $12 > 0 { printf "%s %s %s %.3f\n", $1, $8, $12, $12 / $8 }' "$1" |
    sort -k4,4n > "$DAT"
[ -s "$DAT" ] || { echo "plot-grabcut: no rows with both times in $1" >&2; exit 1; }
gnuplot <<GP
set terminal pngcairo size 1400,560 font "DejaVu Sans,10"
set output '$2'
set title "GrabCut, 5 iterations, one core: time per iteration (bars) and OpenCV / gcut (points)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y
set ylabel "ms per iteration"
set y2label "OpenCV / gcut"
set y2range [0:10]
set y2tics 1
set ytics nomirror
set xtics rotate by -60 scale 0
set key top left
set grid y2tics
plot '$DAT' using 2:xtic(1) title "gcut" lc rgb "#2e7d32", \
     '' using 3 title "OpenCV cv::grabCut" lc rgb "#9e9e9e", \
     '' using 0:4 axes x1y2 with points pt 7 ps 1.2 lc rgb "#c62828" title "ratio", \
     5 axes x1y2 with lines dt 2 lc rgb "#c62828" title "5x"
GP
