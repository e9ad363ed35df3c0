#!/usr/bin/env bash
# run-gpu-bandwidth.sh - how far cuda-grid's and cuda-csr's solves are from
# the memory-bound limit (issue 23): Nsight Compute's DRAM counters over
# every kernel of one solve, against the solve's time measured without ncu.
#
#     bench/run-gpu-bandwidth.sh BUILD OUT.md
#
# For each grid spec: gcut-grid-mt-bench SPEC --backends cuda-grid (median
# of 5 cold solves, rounds), then the same with one solve under ncu; for
# each CSR spec: gcut-bench SPEC --backends cuda-csr likewise; the grids
# also from device memory (--device: no host transfer); for the photo
# at each size: gcut-seg-speed's one cut (the grid engine's kernels only).
# One table row per instance (bench/ncu_bandwidth.py), the top kernels below.
#
# Environment: GRID_SPECS, CSR_SPECS (space-separated), PHOTO (default
# ../shared/data/skimage/coffee.png, else .gpucarry/data/skimage/coffee.png),
# PHOTO_MP (default "0.3 2 4"; empty: none), PEAK (GB/s; default: a 1 GiB
# device-to-device copy measured here with PyTorch, bytes read and written,
# else 3000, an H100's), NCU (ncu),
# NCU_TIMEOUT (seconds per profiled run, default 300), GCUT_PLUGIN_PATH as
# for every GPU run (default BUILD/lib).
set -u
case "${1:-}" in -h|--help) sed -n '2,20p' "$0"; exit 0 ;; esac
BUILD=${1:?usage: run-gpu-bandwidth.sh BUILD OUT.md}
OUTMD=${2:?usage: run-gpu-bandwidth.sh BUILD OUT.md}
HERE=$(cd "$(dirname "$0")" && pwd)
export GCUT_PLUGIN_PATH=${GCUT_PLUGIN_PATH:-$BUILD/lib}
GRID_SPECS=${GRID_SPECS:-"grid2d:w=2048,h=2048,kind=vision grid2d:w=2048,h=2048,conn=8,kind=vision grid2d:w=2048,h=2048 grid3d:w=256,h=256,d=256,conn=6,kind=vision"}
CSR_SPECS=${CSR_SPECS:-"genrmf:a=64,b=64 rlg:r=512,c=512 powerlaw:n=500000,d=8,k=8"}
PHOTO=${PHOTO:-$HERE/../../shared/data/skimage/coffee.png}
[ -f "$PHOTO" ] || PHOTO=$HERE/../.gpucarry/data/skimage/coffee.png
PHOTO_MP=${PHOTO_MP-"0.3 2 4"}
# The peak: a device-to-device copy of 1 GiB measured here (bytes read and
# written) when PyTorch is there, else 3000 (an H100's, issue 23's figure).
if [ -z "${PEAK:-}" ]; then
  PEAK=$(python3 - 2>/dev/null <<'PY'
import torch
x = torch.empty(1 << 30, dtype=torch.uint8, device="cuda"); y = torch.empty_like(x)
for _ in range(3): y.copy_(x)
a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
a.record()
for _ in range(20): y.copy_(x)
b.record(); b.synchronize()
print(round(2 * 20 * (1 << 30) / (a.elapsed_time(b) * 1e6)))
PY
  ) || PEAK=
  PEAK=${PEAK:-3000}
fi
NCU=${NCU:-ncu}
# The grid engine's kernels (a segmentation run also has the energy's).
GRID_K='init_kernel|bfs_|push_kernel|cut_kernel|change_kernel|fix_kernel|relabel'
MET=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ncu_run() {
  timeout "${NCU_TIMEOUT:-300}" "$NCU" --clock-control none --cache-control none --metrics "$MET" \
    --csv --page raw --print-units base "$@"
}
DETAILS=$T/details.txt
{
  echo "# GPU solves against the memory-bound limit"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(nvidia-smi -L 2>/dev/null | head -1); gcut $(git -C "$HERE/.." rev-parse --short HEAD 2>/dev/null)."
  echo "Command: \`bench/run-gpu-bandwidth.sh $BUILD OUT.md\` (ncu --clock-control none --cache-control none, DRAM bytes read + written of every kernel, per cold solve; peak $PEAK GB/s)."
  echo
  echo "| instance | kernels | rounds | DRAM GB | MB a launch | kernel ms (ncu) | kernels' GB/s (of peak) | solve ms | GB/s over the solve (of peak) | ms at the peak | solve ms from device arrays |"
  echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$OUTMD"
for spec in $GRID_SPECS; do
  "$BUILD/bin/gcut-grid-mt-bench" "$spec" --backends cuda-grid --threads 1 --repeat 5 --device >"$T/m.out" 2>&1
  line=$(grep '^cuda-grid *threads' "$T/m.out" | head -1)
  dline=$(grep '^cuda-grid *device arrays' "$T/m.out" | head -1)
  dwall=$(echo "$dline" | sed -n 's/.*arrays: *\([0-9.]*\) ms median.*/\1/p')
  wall=$(echo "$line" | sed -n 's/.*: *\([0-9.]*\) ms median.*/\1/p')
  rounds=$(echo "$line" | sed -n 's/.*rounds \([0-9]*\)  global relabels \([0-9]*\).*/\1 push, \2 relabels/p')
  if ncu_run "$BUILD/bin/gcut-grid-mt-bench" "$spec" --backends cuda-grid --threads 1 --repeat 1 >"$T/k.csv" 2>"$T/k.err"; then
    python3 "$HERE/ncu_bandwidth.py" "$T/k.csv" --wall-ms "${wall:-0}" --peak-gbs "$PEAK" --only "$GRID_K" --per cut_kernel \
      --label "cuda-grid $spec" --rounds "$rounds" --markdown | sed "s/ |\$/ | ${dwall:--} |/" >>"$OUTMD"
    { echo "cuda-grid $spec ($line; $dline)"; python3 "$HERE/ncu_bandwidth.py" "$T/k.csv" --wall-ms "${wall:-0}" \
        --peak-gbs "$PEAK" --only "$GRID_K" --per cut_kernel --top 6; } >>"$DETAILS"
  else
    echo "| cuda-grid $spec | ncu failed: $(tail -1 "$T/k.err") | | | | | | $wall | | |" >>"$OUTMD"
  fi
done
for spec in $CSR_SPECS; do
  "$BUILD/bin/gcut-bench" "$spec" --backends cuda-csr --repeat 3 -v >"$T/b.out" 2>"$T/b.err"
  wall=$(awk '$5 == "cuda-csr" {print $7}' "$T/b.out" | tail -1)
  rounds=$(grep -o 'cuda-csr[^:]*: .*' "$T/b.err" | tail -1 | grep -o '[0-9]* rounds\|[0-9]* global relabels' | tr '\n' ' ')
  if ncu_run "$BUILD/bin/gcut-bench" "$spec" --backends cuda-csr --repeat 1 >"$T/k.csv" 2>"$T/k.err"; then
    python3 "$HERE/ncu_bandwidth.py" "$T/k.csv" --wall-ms "${wall:-0}" --peak-gbs "$PEAK" --per cut_kernel \
      --label "cuda-csr $spec" --rounds "$rounds" --markdown >>"$OUTMD"
    { echo "cuda-csr $spec ($(grep 'cuda-csr' "$T/b.err" | tail -1))"; python3 "$HERE/ncu_bandwidth.py" "$T/k.csv" \
        --wall-ms "${wall:-0}" --peak-gbs "$PEAK" --per cut_kernel --top 6; } >>"$DETAILS"
  else
    echo "| cuda-csr $spec | ncu failed: $(tail -1 "$T/k.err") | | | | | | $wall | | |" >>"$OUTMD"
  fi
done
for mp in $PHOTO_MP; do
  wall=$("$BUILD/bin/gcut-seg-speed" "$PHOTO" "$mp" "$mp" --backend cuda-grid --iterations 1 | awk 'NR > 2 {print $7}' | tail -1)
  if ncu_run "$BUILD/bin/gcut-seg-speed" "$PHOTO" "$mp" --backend cuda-grid --iterations 1 >"$T/k.csv" 2>"$T/k.err"; then
    python3 "$HERE/ncu_bandwidth.py" "$T/k.csv" --wall-ms "${wall:-0}" --peak-gbs "$PEAK" --only "$GRID_K" --per cut_kernel \
      --label "cuda-grid, photo $(basename "$PHOTO") $mp MP (first cut)" --markdown >>"$OUTMD"
    { echo "photo $mp MP"; python3 "$HERE/ncu_bandwidth.py" "$T/k.csv" --wall-ms "${wall:-0}" \
        --peak-gbs "$PEAK" --only "$GRID_K" --per cut_kernel --top 6; } >>"$DETAILS"
  else
    echo "| photo $mp MP | ncu failed: $(tail -1 "$T/k.err") | | | | | | $wall | | |" >>"$OUTMD"
  fi
done
{
  echo
  echo "\"kernel ms\" is the kernels' own time under ncu (one at a time); \"solve ms\" the"
  echo "median cold solve without ncu (cuda-grid: gcut-grid-mt-bench's median of 5; cuda-csr:"
  echo "gcut-bench's solve; photo: gcut-seg-speed's solve, the cut read back included);"
  echo "\"ms at the peak\" is what moving those bytes would take at $PEAK GB/s."
  echo
  echo '```'
  cat "$DETAILS"
  echo '```'
} >>"$OUTMD"
cat "$OUTMD"
