#!/usr/bin/env bash
# Multi-view against two-view stereo on the scenes of ../shared/data/multiview
# (SOURCES.md there): tsukuba5 (col3 reference; 2 views col3/col4, 3 views
# col2..col4, 5 views col1..col5) and Baby2, Bowling2 (view1 reference,
# third size; 2 views view1/view5, 7 views view0..view6). Every multi-view
# configuration is run with the three ways of combining the views (side, the
# default; best; mean). Same energy settings everywhere (gcut-mvs defaults);
# one core (taskset -c 1). Writes bench/results/mvs-dev2core-<date>.{csv,md}
# and the disparity maps under OUT_DIR.
# usage: bench/run-mvs.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=${2:-$build/mvs-bench}
data=$root/../shared/data/multiview
exe=$build/bin/gcut-mvs
if [ ! -d "$data" ]; then
  echo "run-mvs: skipped: $data absent (see SOURCES.md of the shared data)"; exit 0
fi
[ -x "$exe" ] || { echo "run-mvs: $exe not built" >&2; exit 1; }
mkdir -p "$out"
tag=mvs-dev2core-$(date +%Y-%m-%d)
csv=$root/bench/results/$tag.csv; md=$root/bench/results/$tag.md
pin=""; command -v taskset > /dev/null && pin="taskset -c 1"
echo "scene,views,combine,labels,bad1_all,bad2_all,energy,cycles,wall_ms" > "$csv"

# run SCENE NAME LABELS GT GT_SCALE VIEWS BASELINES COMBINE
run() {
  local scene=$1 name=$2 labels=$3 gt=$4 gts=$5 views=$6 base=$7 comb=$8
  local o
  o=$($pin "$exe" --views "$views" --baselines "$base" --ndisp "$labels" --gt "$gt" \
        --gt-scale "$gts" --combine "$comb" --quiet --out "$out/$scene-$name-$comb.png")
  get() { echo "$o" | sed -n "s/^$1: \([0-9.]*\).*/\1/p"; }
  echo "$scene,$name,$comb,$labels,$(get bad1-all),$(get bad2-all),$(get energy),$(get cycles),$(get wall)" >> "$csv"
  echo "$scene $name $comb: bad1 $(get bad1-all) % ($(get wall) ms)"
}

t=$data/tsukuba5; c() { echo "$t/scene1.row3.col$1.ppm"; }
gt=$t/truedisp.row3.col3.pgm
run tsukuba5 2-view 16 "$gt" 16 "$(c 3),$(c 4)" 0,1 side
for comb in side best mean; do
  run tsukuba5 3-view 16 "$gt" 16 "$(c 2),$(c 3),$(c 4)" -1,0,1 $comb
  run tsukuba5 5-view 16 "$gt" 16 "$(c 1),$(c 2),$(c 3),$(c 4),$(c 5)" -2,-1,0,1,2 $comb
done
# Baby2/Bowling2: disparity d = disp1 / 3 for view1 -> view5 (4 spacings);
# view k at x - (k - 1) d / 4. 80 labels: the third-size range, not the
# scene's maximum.
for s in Baby2 Bowling2; do
  v() { echo "$data/$s/view$1.png"; }
  run $s 2-view 80 "$data/$s/disp1.png" 3 "$(v 1),$(v 5)" 0,1 side
  for comb in side best mean; do
    run $s 7-view 80 "$data/$s/disp1.png" 3 "$(v 0),$(v 1),$(v 2),$(v 3),$(v 4),$(v 5),$(v 6)" \
        -0.25,0,0.25,0.5,0.75,1,1.25 $comb
  done
done

{
  echo "Machine: the shared 2-core development box (no GPU), one core (taskset -c 1),"
  echo "other engineers' jobs running beside it: times are indicative. $(date +%Y-%m-%d)."
  echo "Command: bench/run-mvs.sh ${1:-build}. bad 1 / bad 2: percent of pixels with known"
  echo "ground truth whose disparity is off by more than 1 / 2 (all pixels, occluded too)."
  echo
  echo "| scene | views | combine | labels | bad 1 | bad 2 | energy | cycles | time |"
  echo "|---|---|---|---:|---:|---:|---:|---:|---:|"
  tail -n +2 "$csv" | while IFS=, read -r s n comb l b1 b2 e cy w; do
    echo "| $s | $n | $comb | $l | $b1 % | $b2 % | $e | $cy | $(awk -v w="$w" 'BEGIN{printf "%.1f s", w/1000}') |"
  done
} > "$md"
cat "$md"
