#!/usr/bin/env bash
# bench/run-auto.sh - the measurements behind "auto"'s choice between the CPU
# and the GPU (docs/backends.md, "How auto chooses"). On a machine with a
# GPU, from the repository root:
#
#     BUILD=/tmp/b bash bench/run-auto.sh OUTDIR
#
# builds (scripts/gpu-check.sh STEPS=build) unless $BUILD/bin/gcut-auto-bench
# exists, then writes to OUTDIR:
#   grid.csv   gcut-auto-bench rows: each spec and back end in a process of its
#              own (first solve of the process, then fresh grids of that size)
#   seg.txt    gcut-seg-speed on a photo at small sizes, one process per size
#              and back end (the first solve pays for the device set-up)
#   match.txt  gcut-match on generated bipartite graphs, whole-process time
# Every row of one spec must give the same flow (checked here).
set -u
OUT=${1:?usage: bench/run-auto.sh OUTDIR}
BUILD=${BUILD:-/tmp/gcut-auto-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT"
if [ ! -x "$BUILD/bin/gcut-auto-bench" ]; then
  OUT=/tmp/gcut-auto-gc STEPS=build BUILD=$BUILD bash "$ROOT/scripts/gpu-check.sh" \
    >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
fi
export GCUT_PLUGIN_PATH=${GCUT_PLUGIN_PATH:-$BUILD/lib}
B=$BUILD/bin
STATUS=0
{ nvidia-smi -L 2>/dev/null || echo "no GPU"; date -u; git -C "$ROOT" rev-parse --short HEAD; } \
  >"$OUT/machine.txt"

GB=${BACKENDS:-cpu-bk cuda-grid}
SPECS=${SPECS:-"grid2d:w=64,h=64,kind=vision grid2d:w=128,h=128,kind=vision
grid2d:w=256,h=256,kind=vision grid2d:w=512,h=512,kind=vision grid2d:w=1024,h=1024,kind=vision
grid2d:w=2048,h=2048,kind=vision grid2d:w=4096,h=4096,kind=vision
grid2d:w=128,h=128,conn=8,kind=vision grid2d:w=512,h=512,conn=8,kind=vision
grid2d:w=2048,h=2048,conn=8,kind=vision
grid2d:w=128,h=128 grid2d:w=256,h=256 grid2d:w=512,h=512 grid2d:w=1024,h=1024
grid3d:w=16,h=16,d=16,conn=6,kind=vision grid3d:w=32,h=32,d=32,conn=6,kind=vision
grid3d:w=64,h=64,d=64,conn=6,kind=vision grid3d:w=128,h=128,d=128,conn=6,kind=vision
grid3d:w=16,h=16,d=16,conn=26,kind=vision grid3d:w=32,h=32,d=32,conn=26,kind=vision
grid3d:w=64,h=64,d=64,conn=26,kind=vision grid3d:w=128,h=128,d=128,conn=26,kind=vision"}
first=--header
for spec in $SPECS; do
  flows=""
  for b in $GB; do
    row=$(timeout "${ONE_TIMEOUT:-120}" "$B/gcut-auto-bench" "$spec" --backend "$b" --fresh 3 $first) ||
      { echo "gcut-auto-bench $spec --backend $b: failed" >&2; STATUS=1; continue; }
    first=""
    echo "$row" >>"$OUT/grid.csv"
    flows="$flows $(echo "$row" | tail -1 | awk -F, '{print $(NF-1)}')"
  done
  [ "$(echo $flows | tr ' ' '\n' | sort -u | wc -l)" -le 1 ] ||
    { echo "$spec: flows differ:$flows" >&2; STATUS=1; }
done

PHOTO=${SEG_PHOTO:-${GCUT_DATA_DIR:-$ROOT/../shared/data}/skimage/coffee.png}
if [ -f "$PHOTO" ]; then
  for it in 1 5; do
    for mp in ${SEG_MP:-0.05 0.1 0.25 0.5 1 2}; do
      for b in $GB; do
        echo "### gcut-seg-speed $PHOTO $mp --backend $b --iterations $it" >>"$OUT/seg.txt"
        timeout "${ONE_TIMEOUT:-120}" "$B/gcut-seg-speed" "$PHOTO" "$mp" --backend "$b" \
          --iterations "$it" >>"$OUT/seg.txt" 2>&1 || { echo "seg $mp $b failed" >&2; STATUS=1; }
      done
    done
  done
fi

if [ -x "$B/gcut-gen-mtx" ]; then
  for spec in "random 20000 20000 60000 1" "random 100000 100000 300000 1" \
              "random 500000 500000 1500000 1" "powerlaw 500000 500000 2000000 3"; do
    # shellcheck disable=SC2086
    "$B/gcut-gen-mtx" $spec >/tmp/gcut-auto.mtx
    for b in cpu-match-pr cuda-match-gpr; do
      t0=$(date +%s%N)
      r=$(timeout 60 "$B/gcut-match" -b "$b" --check /tmp/gcut-auto.mtx 2>&1)
      rc=$?
      t1=$(date +%s%N)
      echo "### $spec $b rc=$rc process_ms=$(( (t1 - t0) / 1000000 ))" >>"$OUT/match.txt"
      echo "$r" >>"$OUT/match.txt"
    done
  done
fi
exit $STATUS
