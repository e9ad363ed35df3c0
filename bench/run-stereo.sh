#!/usr/bin/env bash
# Run gcut-stereo on the Middlebury pairs of ../shared/data/middlebury
# (params.csv: scale and labels) and write bench/results/stereo-*.{csv,md}.
# usage: bench/run-stereo.sh [BUILD_DIR] [extra gcut-stereo options]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}; shift || true
data=$root/../shared/data/middlebury
tag=stereo-dev2core-2026-11-21
csv=$root/bench/results/$tag.csv; md=$root/bench/results/$tag.md
echo "scene,labels,bad1_all,bad2_all,energy,cycles,cycle_energies,total_ms" > "$csv"
printf '| scene | labels | bad 1 (all) | GC (v2 table) | bad 2 (all) | energy | cycles | time |\n|---|---:|---:|---:|---:|---:|---:|---:|\n' > "$md"
declare -A gc=([tsukuba]=4.12 [venus]=3.44 [teddy]=25.0)
tail -n +2 "$data/params.csv" | while IFS=, read -r scene w h gtf scale labels rest; do
  out=$("$build/bin/gcut-stereo" "$data/$scene/imL.png" "$data/$scene/imR.png" --ndisp "$labels" \
        --gt "$data/$scene/$gtf" --gt-scale "$scale" --quiet "$@")
  get() { echo "$out" | sed -n "s/^$1: \([0-9.]*\).*/\1/p"; }
  ce=$(echo "$out" | sed -n 's/^cycle [0-9]*: energy \([0-9]*\),.*/\1/p' | paste -sd';')
  echo "$scene,$labels,$(get bad1-all),$(get bad2-all),$(get energy),$(get cycles),$ce,$(get total)" >> "$csv"
  echo "| $scene | $labels | $(get bad1-all) % | ${gc[$scene]} % | $(get bad2-all) % | $(get energy) | $(get cycles) | $(get total) ms |" >> "$md"
done
cat "$md"
