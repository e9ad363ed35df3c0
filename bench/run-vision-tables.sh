#!/usr/bin/env bash
# The vision speed tables of docs/segmentation.md, regenerated in one run:
# the whole segmentation pipeline (gcut-seg-speed: load, models, build, cut;
# one cut and 5 GrabCut iterations) and the interactive stroke latency
# (gcut-stroke-bench: add a stroke + warm re-solve + mask), on one CPU core
# with cpu-bk and, where a GPU and the plugin are present, with cuda-grid.
#
#   bench/run-vision-tables.sh [BUILD_DIR] [OUT.md]
#
# BUILD_DIR (default build) holds bin/gcut-seg-speed and bin/gcut-stroke-bench.
# The photo is $GCUT_SEG_PHOTO, default ../shared/data/skimage/coffee.png
# (scaled bilinearly to each size). CPU runs are pinned to one core
# (taskset -c $CORE, default 1) so that they measure one core. Sizes:
# $SEG_SIZES (default "0.3 0.5 2 12") and $STROKE_SIZES (default "0.5 2 4").
# $BACKENDS (default "cpu-bk cuda-grid") picks the back ends; cuda-grid is
# dropped where no GPU or plugin is found.
# Writes OUT.md (default BUILD_DIR/vision-tables.md): the machine, the date,
# the commit, each command and its output.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=${2:-$build/vision-tables.md}
photo=${GCUT_SEG_PHOTO:-$root/../shared/data/skimage/coffee.png}
core=${CORE:-1}
seg_sizes=${SEG_SIZES:-0.3 0.5 2 12}
stroke_sizes=${STROKE_SIZES:-0.5 2 4}
for t in gcut-seg-speed gcut-stroke-bench; do
  [ -x "$build/bin/$t" ] || { echo "run-vision-tables.sh: $build/bin/$t missing (build with GCUT_WITH_BENCH=ON)" >&2; exit 2; }
done
[ -r "$photo" ] || { echo "run-vision-tables.sh: cannot read the photo $photo (set GCUT_SEG_PHOTO)" >&2; exit 2; }
pin=""
command -v taskset >/dev/null && pin="taskset -c $core"
gpu=0
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 &&
   "$build/bin/gcut-maxflow" --version 2>/dev/null | grep -Eq "cuda-grid +yes"; then
  gpu=1
fi
backends=${BACKENDS:-cpu-bk cuda-grid}
want() { [[ " $backends " == *" $1 "* ]]; }
cpu=0
want cpu-bk && cpu=1
want cuda-grid || gpu=0

{
  echo "# Vision speed tables ($(date -u +%Y-%m-%d), bench/run-vision-tables.sh)"
  echo
  echo "- machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  [ $gpu = 1 ] && echo "- GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
  echo "- load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- gcut: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet 2>/dev/null || echo ' (+ uncommitted changes)')"
  echo "- photo: $(basename "$photo"), scaled bilinearly to each size; CPU runs: \`$pin\`"
  echo
} >"$out"

run() {
  echo "\`\`\`" >>"$out"
  echo "\$ $*" | sed "s|$build/bin/||; s|$photo|$(basename "$photo")|" >>"$out"
  "$@" >>"$out" 2>&1 || echo "(exit $?)" >>"$out"
  echo "\`\`\`" >>"$out"
  echo >>"$out"
}

echo "## Whole pipeline (gcut-seg-speed)" >>"$out"
echo >>"$out"
for it in 1 5; do
  if [ $cpu = 1 ]; then
    # shellcheck disable=SC2086
    run $pin "$build/bin/gcut-seg-speed" "$photo" $seg_sizes --backend cpu-bk --iterations $it
  fi
  if [ $gpu = 1 ]; then
    # shellcheck disable=SC2086
    run "$build/bin/gcut-seg-speed" "$photo" $seg_sizes --backend cuda-grid --iterations $it
  fi
done
echo "## Stroke to mask (gcut-stroke-bench, 20 strokes of two parts)" >>"$out"
echo >>"$out"
for mp in $stroke_sizes; do
  if [ $cpu = 1 ]; then
    run $pin "$build/bin/gcut-stroke-bench" "$photo" --mp "$mp" --backend cpu-bk --strokes 20
  fi
  if [ $gpu = 1 ]; then
    run "$build/bin/gcut-stroke-bench" "$photo" --mp "$mp" --backend cuda-grid --strokes 20
  fi
done
cat "$out"
