#!/usr/bin/env bash
# Multi-baseline stereo on Tsukuba's five views (col3 the reference; d per
# adjacent baseline, so col1..col5 sit at baselines -2 .. 2): two views,
# then three, then five, each scored against the ground truth.
set -euo pipefail
. "$(dirname "$0")/mvs-common.sh"
need_data tsukuba5
t=$data/tsukuba5; c() { echo "$t/scene1.row3.col$1.ppm"; }
gt=(--gt "$t/truedisp.row3.col3.pgm" --gt-scale 16 --ndisp 16)
echo "== 2 views (col3, col4)"
"$exe" --views "$(c 3),$(c 4)" --baselines 0,1 "${gt[@]}" --out "$out/tsukuba5-2.png" | show
echo "== 3 views (col2 .. col4)"
"$exe" --views "$(c 2),$(c 3),$(c 4)" --baselines -1,0,1 "${gt[@]}" --out "$out/tsukuba5-3.png" | show
echo "== 5 views (col1 .. col5)"
"$exe" --views "$(c 1),$(c 2),$(c 3),$(c 4),$(c 5)" --baselines -2,-1,0,1,2 "${gt[@]}" \
  --out "$out/tsukuba5-5.png" | show
echo "disparity maps in $out/tsukuba5-*.png"
