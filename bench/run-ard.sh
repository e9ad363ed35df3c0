#!/usr/bin/env bash
# bench/run-ard.sh - the two discharges of CPU regions side by side (issue
# 21: "ARD or region push-relabel, whichever is measured faster"):
# gcut_grid_solve_partitioned with discharge=pr and discharge=ard on
# several grid families and region counts, one thread, each solve checked
# against cpu-bk's cut (gcut-dist-bench). Prints one table: sweeps, global
# relabels and milliseconds per family, region count and discharge.
#
#     bench/run-ard.sh [BUILD_DIR]          # default build
#
# Environment: SPECS (gcut-gen grid specs), REGIONS (default 4,16), CPU
# (the core to pin to, default 1; empty: no pinning), REPEAT (default 1).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$ROOT/build}
BENCH=$B/bin/gcut-dist-bench
[ -x "$BENCH" ] || { echo "run-ard.sh: $BENCH not found (cmake --build $B --target gcut-dist-bench)" >&2; exit 2; }
SPECS=${SPECS:-"grid2d:w=512,h=512 grid2d:w=1024,h=1024,kind=vision grid2d:w=1024,h=1024,conn=8,kind=vision
grid3d:w=48,h=48,d=48,conn=6 grid3d:w=96,h=96,d=96,conn=6,kind=vision grid3d:w=64,h=64,d=64,conn=26,kind=vision"}
REGIONS=${REGIONS:-4,16}
REPEAT=${REPEAT:-1}
PIN=""
[ -n "${CPU-1}" ] && command -v taskset >/dev/null && PIN="taskset -c ${CPU-1}"
echo "run-ard.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), gcut $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
echo
echo "| grid | regions | pr: sweeps | pr: global relabels | pr: ms | ard: sweeps | ard: global relabels | ard: ms | ard / pr time |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for spec in $SPECS; do
  declare -A sw gr ms
  for d in pr ard; do
    out=$($PIN "$BENCH" "$spec" --regions "$REGIONS" --threads 1 --repeat "$REPEAT" --params "discharge=$d" 2>&1) ||
      { echo "run-ard.sh: $spec discharge=$d failed:" >&2; echo "$out" >&2; exit 1; }
    echo "$out" | grep -q "same cut no" && { echo "run-ard.sh: $spec discharge=$d: a cut differs" >&2; exit 1; }
    while read -r k t s g; do
      sw[$d,$k]=$s; gr[$d,$k]=$g; ms[$d,$k]=$t
    done < <(echo "$out" | awk '/^regions/ { k = $2 + 0; t = $5;
        for (i = 1; i <= NF; i++) { if ($i == "sweeps" && $(i+1) ~ /^[0-9]+$/) s = $(i+1);
                                     if ($i == "relabels" && $(i-1) == "global") g = $(i+1) }
        print k, t, s, g }')
  done
  for k in ${REGIONS//,/ }; do
    r=$(awk -v a="${ms[ard,$k]}" -v b="${ms[pr,$k]}" 'BEGIN { printf "%.2f", a / b }')
    echo "| \`$spec\` | $k | ${sw[pr,$k]} | ${gr[pr,$k]} | ${ms[pr,$k]} | ${sw[ard,$k]} | ${gr[ard,$k]} | ${ms[ard,$k]} | $r |"
  done
  unset sw gr ms
done
