#!/usr/bin/env bash
# gpu-check.sh - build gcut with its CUDA plugin, run the GPU test suites,
# compute-sanitizer and the GPU benchmarks, on a machine with a device.
# One command, meant for the GPU machine (docs/design.md section 6):
#
#     scripts/gpu-check.sh                 # everything (about 5-8 minutes on an H100)
#     STEPS=build,test scripts/gpu-check.sh
#     BENCH=targets STEPS=build,bench scripts/gpu-check.sh
#
# Environment:
#   STEPS       comma-separated subset of env,build,test,sanitize,bench,multi
#               (default: all; multi does something only with two GPUs or more)
#   BENCH       comma-separated modes (default small): small (GPU and CPU engines
#               on mid-sized instances), small-gpu, small-tc, targets
#               (the issue's genrmf/RLG/grid sizes on the GPU), targets-tc, targets-host,
#               targets-params (the targets once per parameter set in $TPARAMS),
#               targets-cpu (cpu-hipr on them), variants (settings compared),
#               variants-bcsr (variant=vc, tc and bcsr on the targets and three
#               mid-sized graphs, VREPEAT runs each, default 1), grid (cuda-grid
#               against cpu-bk, cpu-grid-pr with 16 threads and cuda-csr on segmentation
#               grids of 0.3-16 MP, 3D volumes and random grids, with warm strokes;
#               rows in grid.csv), grid-quick (two of those), seg (gcut-seg-speed
#               on $SEG_PHOTO, default coffee.png of the data folder, at 0.5, 2 and
#               12 MP with cuda-grid: energies on the device, then on the host
#               with --cpu-energies; 1 and 5 GrabCut iterations), bandwidth
#               (bench/run-gpu-bandwidth.sh: DRAM bytes per solve and achieved
#               bandwidth from ncu's counters, into bandwidth.md), or a
#               gcut-bench instance spec (family:key=value;...)
#   REPEAT      GCUT_GPU_REPEAT for the test (default 100: a changing result is a race)
#   BUILD       build folder (default build-gpu in the repository)
#   OUT         where logs, CSV and the summary go (default BUILD/gpu-check)
#   CUDA_ARCH   CMAKE_CUDA_ARCHITECTURES (default 90: the H100/H200 only, to build fast)
#   XSCALE      GCUT_TEST_SCALE of test_crosscheck (default 0.2)
#   SANITIZE_TESTS  test programs run under compute-sanitizer (default test_gpu_csr
#               test_gpu_grid test_gpu_device test_gpu_dist test_gpu_span
#               test_gpu_vision_mrf test_gpu_vision_energy; test_gpu_span spreads
#               its grids over every GPU of the machine)
#   DIST_REPEAT GCUT_GPU_REPEAT of test_gpu_dist, run apart from the other GPU
#               suites (default 3: it solves some 1,700 partitioned cases)
#   DIST_SIZE   side of test_gpu_dist's timing volume (default 256; 0: none)
#   TEST_TIMEOUT  seconds allowed to each test program (default 900)
#   TLIMIT      per-solve time limit of the benchmarks in seconds (default 120)
#   BENCH_TIMEOUT  seconds allowed to each gcut-bench run (default 900)
#   BENCH_V     non-empty: gcut-bench -vv (the engines' summary lines into bench.txt)
#   MULTI       what the multi step runs on the GPUs of the machine (default
#               test,sanitize,strong,span): test (test_gpu_dist on 2 and on all GPUs,
#               MULTI_REPEAT solves per case, default 10, on the quick set, then
#               the whole set on all GPUs twice), sanitize (compute-sanitizer on
#               2 GPUs), strong (gcut-dist-bench: a STRONG^3 volume, default 768,
#               6-connected, and STRONG26^3 (default 384) 26-connected, on 1, 2, 4, 8
#               GPUs against cuda-grid), weak (WEAK^2 x (WEAK * G), default 512,
#               on G = 1, 2, 4, 8 GPUs), large (LARGE^3, default 1280, on every GPU,
#               after cuda-grid is tried on one GPU alone), slabs (the volume $SLABS,
#               default vol:w=2048,h=2048,d=1024,conn=6 (4.3 G voxels), as slabs of
#               arrays of their own on every GPU: runs $SLABS_RUNS, default
#               NGPUx(2 NGPU),NGPUxNGPU; checked by the cut's capacity and across runs);
#               span (one grid spread over 1, 2, 4, 8 GPUs by cuda-grid, devices=:
#               the STRONG^3 and STRONG26^3 volumes with SPAN_REPEAT solves each,
#               default 3, then weak scaling SPAN_WEAK^2 x (SPAN_WEAKD * G), default
#               768 and 320, and SPAN_LARGE^3 (default 0: none) on 1 and all GPUs);
#               rows in multi.txt. compute-sanitizer here runs with
#               --report-api-errors $SAN_API (default no: NCCL raises and handles CUDA
#               API errors of its own; gcut checks every call it makes)
#
# Writes under $OUT (10 files at most): env.txt, build.log, test.log, python.log,
# sanitize.log, bench.txt, bench.csv, multi.log, multi.txt and summary.md, then prints the summary (last, so that the end
# of the output is the table). Exit status: 0 when every step passed.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-gpu}
OUT=${OUT:-$BUILD/gpu-check}
STEPS=${STEPS:-env,build,test,sanitize,bench,multi}
BENCH=${BENCH:-small}
REPEAT=${REPEAT:-100}
CUDA_ARCH=${CUDA_ARCH:-90}
JOBS=$(nproc 2>/dev/null || echo 4)
mkdir -p "$OUT"
SUMMARY=$OUT/summary.md
: >"$SUMMARY"
STATUS=0

has_step() { [[ ",$STEPS," == *",$1,"* ]]; }
note() { echo "$*" | tee -a "$SUMMARY"; }
elapsed() { echo $(($(date +%s) - $1)); }

note "# gpu-check $(date -u +%Y-%m-%dT%H:%M:%SZ)"
note ""

# ---- environment -----------------------------------------------------------
if has_step env; then
  {
    echo "## nvidia-smi"; nvidia-smi 2>&1 || true
    echo "## nvidia-smi topo -m"; nvidia-smi topo -m 2>&1 || true
    echo "## NCCL"; ls -l /usr/local/cuda/lib64/libnccl* 2>&1; ldconfig -p 2>&1 | grep -i nccl; python3 -c "import torch; print(\"torch NCCL\", torch.cuda.nccl.version())" 2>&1 | tail -1
    echo "## nvidia-smi -q (clocks, power)"; nvidia-smi -q -d CLOCK,POWER 2>&1 | head -60 || true
    echo "## nvcc"; (nvcc --version || /usr/local/cuda/bin/nvcc --version) 2>&1 || true
    echo "## cmake"; cmake --version 2>&1 | head -1
    echo "## cc"; cc --version 2>&1 | head -1
    echo "## ninja"; ninja --version 2>&1 || echo "no ninja"
    echo "## pkg-config cmocka"; pkg-config --modversion cmocka 2>&1 || echo "no cmocka"
    echo "## compute-sanitizer"; compute-sanitizer --version 2>&1 | head -2 || echo "none"
    echo "## cpu"; nproc; grep -m1 'model name' /proc/cpuinfo || true
    echo "## os"; head -2 /etc/os-release 2>/dev/null || true
  } >"$OUT/env.txt" 2>&1
  note "device: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)"
fi

# cmocka and pkg-config may be missing on a bare GPU machine: use the copies
# carried in .gpucarry/ (see docs/cuda.md) when the system has none.
if ! command -v pkg-config >/dev/null 2>&1 && [ -x "$ROOT/.gpucarry/pkgconf/bin/pkgconf" ]; then
  mkdir -p /tmp/gcut-pkgconf
  cat >/tmp/gcut-pkgconf/pkg-config <<EOF
#!/bin/sh
LD_LIBRARY_PATH="$ROOT/.gpucarry/pkgconf/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$ROOT/.gpucarry/pkgconf/bin/pkgconf" "\$@"
EOF
  chmod +x /tmp/gcut-pkgconf/pkg-config
  export PATH=/tmp/gcut-pkgconf:$PATH
fi
if ! pkg-config --exists cmocka 2>/dev/null && [ -d "$ROOT/.gpucarry/cmocka" ]; then
  export PKG_CONFIG_PATH=$ROOT/.gpucarry/cmocka/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  export LD_LIBRARY_PATH=$ROOT/.gpucarry/cmocka/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
if [ -z "${GCUT_DATA_DIR:-}" ] && [ -d "$ROOT/.gpucarry/data/maxflow" ]; then
  export GCUT_DATA_DIR=$ROOT/.gpucarry/data
fi
# SDL2 for gcut-view, so that it builds there too (its latency tool
# gcut-view-bench needs none): a copy in .gpucarry/sdl (headers, the
# CMake package and the runtime libraries; docs/cuda.md) when the system has
# none. Only the build and the viewer's own runs see its libraries.
SDL_PREFIX=
if [ -d "$ROOT/.gpucarry/sdl" ] && ! pkg-config --exists sdl2 2>/dev/null; then
  SDL_PREFIX=$ROOT/.gpucarry/sdl
fi
export GCUT_PLUGIN_PATH=$BUILD/lib

# ---- build -----------------------------------------------------------------
if has_step build; then
  t0=$(date +%s)
  GEN=()
  if command -v ninja >/dev/null 2>&1 && [ ! -f "$BUILD/CMakeCache.txt" ]; then
    GEN=(-G Ninja)
  fi
  SDL_ARGS=()
  [ -n "$SDL_PREFIX" ] && SDL_ARGS=(-DCMAKE_PREFIX_PATH="$SDL_PREFIX")
  # The Python package against the python3 on PATH when it has numpy (the
  # GPU machine's holds PyTorch and CuPy: the GPU-array tests run there).
  if python3 -c 'import numpy' >/dev/null 2>&1; then
    SDL_ARGS+=(-DPython3_EXECUTABLE="$(command -v python3)")
  fi
  if cmake -S "$ROOT" -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release \
       -DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCH" "${SDL_ARGS[@]}" >"$OUT/build.log" 2>&1 &&
     LD_LIBRARY_PATH=${SDL_PREFIX:+$SDL_PREFIX/lib/x86_64-linux-gnu:}${LD_LIBRARY_PATH:-} \
       cmake --build "$BUILD" -j "$JOBS" >>"$OUT/build.log" 2>&1; then
    note "build: ok ($(elapsed "$t0") s, sm_$CUDA_ARCH)"
  else
    note "build: FAILED (see build.log)"
    tail -40 "$OUT/build.log"
    cat "$SUMMARY"
    exit 1
  fi
  if [ ! -f "$BUILD/lib/libgcut_cuda.so" ]; then
    note "build: libgcut_cuda.so missing (CUDA not found by CMake?)"
    STATUS=1
  fi
  "$BUILD/bin/gcut-bench" --list 2>&1 | sed 's/^/    /' | tee -a "$SUMMARY"
  if ! "$BUILD/bin/gcut-bench" --list 2>&1 | grep -q '^cuda-csr *yes'; then
    note "cuda-csr is unavailable: the GPU tests would only skip"
    STATUS=1
  fi
fi

# ---- tests -----------------------------------------------------------------
if has_step test; then
  t0=$(date +%s)
  if GCUT_GPU_REPEAT=$REPEAT ctest --test-dir "$BUILD" -L gpu -E '^test_gpu_dist$' \
       --output-on-failure --timeout "${TEST_TIMEOUT:-900}" >"$OUT/test.log" 2>&1; then
    note "test (gpu label, GCUT_GPU_REPEAT=$REPEAT): ok ($(elapsed "$t0") s)"
  else
    note "test (gpu label, GCUT_GPU_REPEAT=$REPEAT): FAILED ($(elapsed "$t0") s, see test.log)"
    STATUS=1
  fi
  grep -E '^# |skip|FAILED|\[  FAILED|PASSED' "$OUT/test.log" | head -30 | sed 's/^/    /' | tee -a "$SUMMARY"
  # The partitioned grid with every region on the GPU (fewer repeats: many
  # cases), and its timing line for the record.
  t0=$(date +%s)
  if GCUT_GPU_REPEAT=${DIST_REPEAT:-3} GCUT_GPU_DIST_SIZE=${DIST_SIZE:-256} \
       timeout "${TEST_TIMEOUT:-900}" "$BUILD/bin/test_gpu_dist" \
       >>"$OUT/test.log" 2>&1; then
    note "test_gpu_dist (GCUT_GPU_REPEAT=${DIST_REPEAT:-3}): ok ($(elapsed "$t0") s)"
  else
    note "test_gpu_dist (GCUT_GPU_REPEAT=${DIST_REPEAT:-3}): FAILED ($(elapsed "$t0") s, see test.log)"
    STATUS=1
  fi
  grep -E '^gpu-dist|FAILED|\[  ERROR|failed|differs' "$OUT/test.log" | grep -v '^\[  FAILED  \] [0-9]' |
    head -12 | sed 's/^/    /' | tee -a "$SUMMARY"
  # The Python package, GPU arrays included (python/tests/test_cuda.py runs
  # where python3 has PyTorch or CuPy).
  t0=$(date +%s)
  if ctest --test-dir "$BUILD" -R '^python_pytest$' --no-tests=error --output-on-failure -V \
       --timeout "${TEST_TIMEOUT:-900}" >"$OUT/python.log" 2>&1; then
    note "python_pytest: ok ($(elapsed "$t0") s): $(grep -Eo '[0-9]+ passed[^=]*' "$OUT/python.log" | tail -1)"
  else
    note "python_pytest: FAILED ($(elapsed "$t0") s, see python.log)"
    STATUS=1
  fi
  grep -E 'FAILED|Error' "$OUT/python.log" | head -12 | sed 's/^/    /' | tee -a "$SUMMARY"
  # GPU arrays against the host round trip (bench/python_cuda.py).
  if python3 -c 'import torch, numpy; assert torch.cuda.is_available()' >/dev/null 2>&1 &&
     [ -d "$BUILD/python/gcut" ]; then
    if PYTHONPATH=$BUILD/python python3 "$ROOT/bench/python_cuda.py" "${PYCUDA_SIZES:-0.3,1,4,16}" 10 \
         >>"$OUT/python.log" 2>&1; then
      note "bench/python_cuda.py (GPU arrays vs the host round trip):"
      sed -n '/^device:/,$p' "$OUT/python.log" | tee -a "$SUMMARY"
    else
      note "bench/python_cuda.py: FAILED (see python.log)"
      STATUS=1
    fi
  fi
  # The cross-check of every back end on random graphs (cuda-csr included).
  t0=$(date +%s)
  if GCUT_TEST_SCALE=${XSCALE:-0.2} timeout "${TEST_TIMEOUT:-900}" "$BUILD/bin/test_crosscheck" \
       >>"$OUT/test.log" 2>&1; then
    note "test_crosscheck (GCUT_TEST_SCALE=${XSCALE:-0.2}): ok ($(elapsed "$t0") s)"
  else
    note "test_crosscheck: FAILED (see test.log)"
    STATUS=1
  fi
fi

# ---- compute-sanitizer on a short run --------------------------------------
if has_step sanitize; then
  t0=$(date +%s)
  : >"$OUT/sanitize.log"
  for prog in ${SANITIZE_TESTS:-test_gpu_csr test_gpu_grid test_gpu_device test_gpu_dist test_gpu_span test_gpu_vision_mrf test_gpu_vision_energy}; do
    for tool in memcheck racecheck synccheck; do
      # racecheck runs about 100 times slower: the smallest run for it (quick 3).
      quick=1
      scale=0.15
      [ "$tool" = racecheck ] && quick=3 && scale=0.03
      if GCUT_GPU_QUICK=$quick GCUT_GPU_REPEAT=1 GCUT_TEST_SCALE=$scale \
           timeout "${TEST_TIMEOUT:-900}" compute-sanitizer --tool "$tool" --error-exitcode 99 \
           "$BUILD/bin/$prog" >>"$OUT/sanitize.log" 2>&1; then
        note "compute-sanitizer $tool $prog: ok"
      else
        note "compute-sanitizer $tool $prog: FAILED (see sanitize.log)"
        STATUS=1
      fi
    done
  done
  grep -E 'ERROR SUMMARY|Invalid|Race|hazard' "$OUT/sanitize.log" | sort | uniq -c | head -10 |
    sed 's/^/    /' | tee -a "$SUMMARY"
  note "sanitizers: $(elapsed "$t0") s"
fi

# ---- benchmarks ------------------------------------------------------------
bench_run() { # name, backends, params, repeat, specs...
  local name=$1 backends=$2 params=$3 repeat=$4
  shift 4
  local csv=/tmp/gcut-bench-$$.csv
  local args=(-q ${BENCH_V:+-vv} --backends "$backends" --repeat "$repeat" --time-limit "${TLIMIT:-120}"
              --csv "$csv")
  [ -n "$params" ] && args+=(--params "$params")
  echo "### $name: gcut-bench ${args[*]} $*" >>"$OUT/bench.txt"
  rm -f "$csv"
  if ! timeout "${BENCH_TIMEOUT:-900}" "$BUILD/bin/gcut-bench" "${args[@]}" "$@" \
       >>"$OUT/bench.txt" 2>&1; then
    note "bench $name: gcut-bench reported a failure or a disagreement"
    STATUS=1
  fi
  # One CSV for every run, with the run's name and parameters in front.
  if [ -f "$csv" ]; then
    [ -s "$OUT/bench.csv" ] || sed -n '1s/^/run,params,/p' "$csv" >"$OUT/bench.csv"
    sed -n "2,\$s/^/$name,\"$params\",/p" "$csv" >>"$OUT/bench.csv"
    rm -f "$csv"
  fi
}

if has_step bench; then
  t0=$(date +%s)
  : >"$OUT/bench.txt"
  : >"$OUT/bench.csv"
  SMALL=(genrmf:a=16,b=16 genrmf:a=32,b=32 rlg:r=256,c=256 grid2d:w=512,h=512,conn=4
         grid2d:w=512,h=512,conn=8,kind=vision powerlaw:n=200000,d=8,k=8
         bipartite:l=100000,r=100000,d=4)
  # The issue's sizes: genrmf a=32..128 (wide, b = a), RLG 1024^2 and 2048^2,
  # a random 4-connected 2048^2 grid.
  TARGETS=(genrmf:a=32,b=32 genrmf:a=64,b=64 genrmf:a=128,b=128 rlg:r=1024,c=1024
           rlg:r=2048,c=2048 grid2d:w=2048,h=2048,conn=4)
  VARSPECS=(genrmf:a=32,b=32 rlg:r=512,c=512 grid2d:w=1024,h=1024,conn=4
            powerlaw:n=500000,d=8,k=8)
  for mode in ${BENCH//,/ }; do
    case "$mode" in
      small) bench_run small cuda-csr,cpu-hipr,cpu-bk "" 3 "${SMALL[@]}" ;;
      small-gpu) bench_run small-gpu cuda-csr "" 3 "${SMALL[@]}" ;;
      small-tc) bench_run small-tc cuda-csr "variant=tc" 3 "${SMALL[@]}" ;;
      targets) bench_run targets cuda-csr "" 2 "${TARGETS[@]}" ;;
      targets-tc) bench_run targets-tc cuda-csr "variant=tc" 1 "${TARGETS[@]}" ;;
      targets-host) bench_run targets-host cuda-csr "driver=host" 1 "${TARGETS[@]}" ;;
      targets-params) # TPARAMS: space-separated parameter sets, one run each
        for p in ${TPARAMS:-relabel_freq=2}; do
          bench_run "targets-${p//[=,]/_}" cuda-csr "$p" 1 "${TARGETS[@]}"
        done
        ;;
      targets-cpu) bench_run targets-cpu cpu-hipr "" 1 "${TARGETS[@]}" ;;
      variants)
        for p in "variant=tc" "driver=host" "group=4" "group=8" "group=32" "relabel_freq=2" \
                 "relabel_freq=0.5"; do
          bench_run "var-${p//[=,]/_}" cuda-csr "$p" 2 "${VARSPECS[@]}"
        done
        ;;
      variants-bcsr) # vc, tc and WBPR's BCSR layout on the targets and three mid-sized graphs
        for p in variant=vc variant=tc variant=bcsr; do
          bench_run "lay-${p#variant=}" cuda-csr "$p" "${VREPEAT:-1}" "${TARGETS[@]}" \
            rlg:r=512,c=512 grid2d:w=1024,h=1024,conn=4 powerlaw:n=500000,d=8,k=8
        done
        ;;
      grid|grid-quick) # cuda-grid against the CPU grid engines and cuda-csr (gcut-grid-mt-bench)
        GB=(cuda-grid,cpu-bk,cpu-grid-pr,cuda-csr)
        if [ "$mode" = grid ]; then
          GSPECS=(grid2d:w=640,h=480,kind=vision grid2d:w=1024,h=1024,kind=vision
                  grid2d:w=2048,h=2048,kind=vision grid2d:w=4096,h=4096,kind=vision
                  grid2d:w=640,h=480,conn=8,kind=vision grid2d:w=1024,h=1024,conn=8,kind=vision
                  grid2d:w=2048,h=2048,conn=8,kind=vision grid2d:w=4096,h=4096,conn=8,kind=vision
                  grid3d:w=128,h=128,d=128,conn=6,kind=vision
                  grid3d:w=128,h=128,d=128,conn=26,kind=vision
                  grid2d:w=2048,h=2048 grid2d:w=1024,h=1024,conn=8 grid3d:w=64,h=64,d=64,conn=26)
        else
          GSPECS=(grid2d:w=2048,h=2048,kind=vision grid2d:w=2048,h=2048)
        fi
        for spec in "${GSPECS[@]}"; do
          echo "### grid: gcut-grid-mt-bench $spec --backends $GB --threads 16 --repeat 3 --strokes 10" >>"$OUT/bench.txt"
          timeout "${BENCH_TIMEOUT:-900}" "$BUILD/bin/gcut-grid-mt-bench" "$spec" --backends "$GB" \
            --threads 16 --repeat 3 --strokes 10 --csv "$OUT/grid.csv" >>"$OUT/bench.txt" 2>&1 ||
            { note "bench grid $spec: failed or disagreed"; STATUS=1; }
        done
        if [ "$mode" = grid ]; then # 256^3: the GPU and the 16-thread CPU engine, once
          for spec in grid3d:w=256,h=256,d=256,conn=6,kind=vision grid3d:w=256,h=256,d=256,conn=26,kind=vision; do
            echo "### grid: gcut-grid-mt-bench $spec --backends cuda-grid,cpu-bk,cpu-grid-pr --threads 16 --repeat 1 --strokes 5" >>"$OUT/bench.txt"
            timeout "${BENCH_TIMEOUT:-900}" "$BUILD/bin/gcut-grid-mt-bench" "$spec" \
              --backends cuda-grid,cpu-bk,cpu-grid-pr --threads 16 --repeat 1 --strokes 5 \
              --csv "$OUT/grid.csv" >>"$OUT/bench.txt" 2>&1 ||
              { note "bench grid $spec: failed or disagreed"; STATUS=1; }
          done
        fi
        ;;
      seg) # the segmentation pipeline: device energies against host energies (cuda-grid)
        PHOTO=${SEG_PHOTO:-${GCUT_DATA_DIR:-$ROOT/../shared/data}/skimage/coffee.png}
        for it in 1 5; do
          for energies in "" --cpu-energies; do
            echo "### seg: gcut-seg-speed $PHOTO 0.5 2 12 --backend cuda-grid --iterations $it $energies" >>"$OUT/bench.txt"
            timeout "${BENCH_TIMEOUT:-900}" "$BUILD/bin/gcut-seg-speed" "$PHOTO" \
              0.5 2 12 --backend cuda-grid --iterations "$it" $energies >>"$OUT/bench.txt" 2>&1 ||
              { note "bench seg (${energies:-device energies}, $it iterations): failed"; STATUS=1; }
          done
        done
        ;;
      bandwidth) # DRAM bytes and bandwidth of cuda-grid and cuda-csr solves (ncu), issue 23
        echo "### bandwidth: bench/run-gpu-bandwidth.sh $BUILD" >>"$OUT/bench.txt"
        timeout "${BENCH_TIMEOUT:-900}" bash "$ROOT/bench/run-gpu-bandwidth.sh" "$BUILD" \
          "$OUT/bandwidth.md" >>"$OUT/bench.txt" 2>&1 ||
          { note "bench bandwidth: failed"; STATUS=1; }
        ;;
      *:*) bench_run custom cuda-csr,cpu-hipr,cpu-bk "" 3 "$mode" ;;
      *) note "bench: unknown mode $mode"; STATUS=1 ;;
    esac
  done
  note "bench ($BENCH): $(elapsed "$t0") s; tables in bench.txt, rows in bench.csv"
fi

# ---- several GPUs: the partitioned grid over NCCL (docs/distributed.md) -----
NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
devlist() { seq -s: 0 $(($1 - 1)); }
has_multi() { [[ ",${MULTI:-test,sanitize,strong,span}," == *",$1,"* ]]; }
if has_step multi && [ "${NGPU:-0}" -lt 2 ]; then
  note "multi: skipped (${NGPU:-0} GPU; needs two or more)"
elif has_step multi; then
  export NCCL_NVLS_ENABLE=0
  : >>"$OUT/multi.log"
  : >>"$OUT/multi.txt"
  COUNTS=$(for k in 2 4 8; do [ "$k" -le "$NGPU" ] && echo "$k"; done)
  [ "$NGPU" -gt 2 ] && [ "$NGPU" != 4 ] && [ "$NGPU" != 8 ] && COUNTS="$COUNTS $NGPU"
  note "multi: $NGPU GPUs ($(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs)), NCCL_NVLS_ENABLE=0"
  if has_multi test; then
    t0=$(date +%s)
    if GCUT_GPU_REPEAT=${MULTI_REPEAT:-10} GCUT_GPU_QUICK=1 GCUT_GPU_DIST_SIZE=0 \
         timeout "${TEST_TIMEOUT:-900}" "$BUILD/bin/test_gpu_dist" >>"$OUT/multi.log" 2>&1; then
      note "test_gpu_dist on 1 GPU (quick set, GCUT_GPU_REPEAT=${MULTI_REPEAT:-10}): ok ($(elapsed "$t0") s)"
    else
      note "test_gpu_dist on 1 GPU (quick set): FAILED ($(elapsed "$t0") s, see multi.log)"
      STATUS=1
    fi
    for k in $COUNTS; do
      t0=$(date +%s)
      if GCUT_GPU_DEVICES=$(devlist "$k") GCUT_GPU_REPEAT=${MULTI_REPEAT:-10} GCUT_GPU_QUICK=1 \
           GCUT_GPU_DIST_SIZE=0 timeout "${TEST_TIMEOUT:-900}" "$BUILD/bin/test_gpu_dist" \
           >>"$OUT/multi.log" 2>&1; then
        note "test_gpu_dist on $k GPUs (quick set, GCUT_GPU_REPEAT=${MULTI_REPEAT:-10}): ok ($(elapsed "$t0") s)"
      else
        note "test_gpu_dist on $k GPUs (quick set): FAILED ($(elapsed "$t0") s, see multi.log)"
        STATUS=1
      fi
    done
    # MPI ranks that drive a GPU each (where the build has MPI).
    if [ -x "$BUILD/bin/test_dist_mpi" ] && command -v mpirun >/dev/null 2>&1; then
      t0=$(date +%s)
      if OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 GCUT_MPI_TEST_BACKEND=cuda-grid \
           GCUT_MPI_TEST_PARAMS=devices=$(devlist "$NGPU") timeout "${TEST_TIMEOUT:-900}" \
           mpirun --oversubscribe -np "$NGPU" -x GCUT_PLUGIN_PATH -x GCUT_MPI_TEST_BACKEND \
           -x GCUT_MPI_TEST_PARAMS -x NCCL_NVLS_ENABLE "$BUILD/bin/test_dist_mpi" >>"$OUT/multi.log" 2>&1; then
        note "test_dist_mpi, $NGPU ranks with a GPU each: ok ($(elapsed "$t0") s)"
      else
        note "test_dist_mpi, $NGPU ranks with a GPU each: FAILED ($(elapsed "$t0") s, see multi.log)"
        STATUS=1
      fi
    else
      note "test_dist_mpi with GPUs: not built (no MPI on this machine)"
    fi
    # The documented example on every GPU (docs/distributed.md).
    if "$BUILD/bin/example-dist-gpus" $(seq 0 $((NGPU - 1))) >>"$OUT/multi.log" 2>&1; then
      note "example-dist-gpus on $NGPU GPUs: ok: $(grep -m1 'slabs on' "$OUT/multi.log")"
    else
      note "example-dist-gpus on $NGPU GPUs: FAILED (see multi.log)"
      STATUS=1
    fi
    t0=$(date +%s)
    if GCUT_GPU_DEVICES=$(devlist "$NGPU") GCUT_GPU_REPEAT=${MULTI_FULL_REPEAT:-2} \
         GCUT_GPU_DIST_SIZE=${DIST_SIZE:-256} timeout "${TEST_TIMEOUT:-900}" \
         "$BUILD/bin/test_gpu_dist" >>"$OUT/multi.log" 2>&1; then
      note "test_gpu_dist on $NGPU GPUs (every case, GCUT_GPU_REPEAT=${MULTI_FULL_REPEAT:-2}): ok ($(elapsed "$t0") s)"
    else
      note "test_gpu_dist on $NGPU GPUs (every case): FAILED ($(elapsed "$t0") s, see multi.log)"
      STATUS=1
    fi
    grep -E '^gpu-dist|ERROR|failed|differs' "$OUT/multi.log" | head -16 | sed 's/^/    /' | tee -a "$SUMMARY"
  fi
  if has_multi sanitize; then
    for tool in ${SAN_TOOLS:-memcheck racecheck synccheck}; do
      quick=${MULTI_SAN_QUICK:-1}
      [ "$tool" = racecheck ] && quick=2
      t0=$(date +%s)
      if GCUT_GPU_DEVICES=0:1 GCUT_GPU_QUICK=$quick GCUT_GPU_REPEAT=1 \
           timeout "${SAN_TIMEOUT:-240}" compute-sanitizer --tool "$tool" --error-exitcode 99 \
           --report-api-errors "${SAN_API:-no}" \
           "$BUILD/bin/test_gpu_dist" >>"$OUT/multi.log" 2>&1; then
        note "compute-sanitizer $tool test_gpu_dist on 2 GPUs: ok ($(elapsed "$t0") s)"
      else
        note "compute-sanitizer $tool test_gpu_dist on 2 GPUs: FAILED or out of time ($(elapsed "$t0") s, see multi.log)"
        STATUS=1
      fi
    done
    grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Invalid|hazard' "$OUT/multi.log" | sort | uniq -c | head -10 |
      sed 's/^/    /' | tee -a "$SUMMARY"
  fi
  dist_bench() { # label, args...
    local label=$1
    shift
    echo "### $label: gcut-dist-bench $*" >>"$OUT/multi.txt"
    t0=$(date +%s)
    if timeout "${MULTI_TIMEOUT:-600}" "$BUILD/bin/gcut-dist-bench" "$@" >>"$OUT/multi.txt" 2>&1; then
      note "multi $label: ok ($(elapsed "$t0") s)"
    else
      note "multi $label: FAILED or out of time ($(elapsed "$t0") s, see multi.txt)"
      STATUS=1
    fi
  }
  runs_upto() { # regions per GPU; "1x1,1x2,2x4,..." up to NGPU
    local r="1x1" k
    for k in 1 2 4 8; do [ "$k" -le "$NGPU" ] && r="$r,${k}x$((k * $1))"; done
    echo "$r"
  }
  if has_multi slabs; then
    # A volume given as slabs of arrays of their own (gcut_grid_solve_slabs):
    # past 2^31 voxels, more than one gcut_grid (and so one cuda-grid solve)
    # can hold; each answer checked by its cut's capacity and across runs.
    dist_bench "slabs ${SLABS:-vol:w=2048,h=2048,d=1024,conn=6}" "${SLABS:-vol:w=2048,h=2048,d=1024,conn=6}" \
      --slabs --backend cuda-grid --time-limit "${SLABS_TLIMIT:-400}" -v \
      --runs "${SLABS_RUNS:-${NGPU}x$((2 * NGPU)),${NGPU}x${NGPU}}"
  fi
  if has_multi strong; then
    S=${STRONG:-768}
    dist_bench "strong ${S}^3 c6" "vol:w=$S,h=$S,d=$S,conn=6" --backend cuda-grid \
      --runs "$(runs_upto 2)" --repeat "${MULTI_BENCH_REPEAT:-1}" -v
    S=${STRONG26:-384}
    [ "$S" = 0 ] || dist_bench "strong ${S}^3 c26" "vol:w=$S,h=$S,d=$S,conn=26" --backend cuda-grid \
      --runs "$(runs_upto 2)" --repeat "${MULTI_BENCH_REPEAT:-1}"
  fi
  if has_multi span; then
    # One grid spread over GPUs by cuda-grid itself (devices=, no regions).
    spans_upto() { local r="1s" k; for k in 2 4 8; do [ "$k" -le "$NGPU" ] && r="$r,${k}s"; done; echo "$r"; }
    S=${STRONG:-768}
    dist_bench "span ${S}^3 c6" "vol:w=$S,h=$S,d=$S,conn=6" --backend cuda-grid \
      --runs "$(spans_upto)" --repeat "${SPAN_REPEAT:-3}" -v
    S=${STRONG26:-384}
    [ "$S" = 0 ] || dist_bench "span ${S}^3 c26" "vol:w=$S,h=$S,d=$S,conn=26" --backend cuda-grid \
      --runs "$(spans_upto)" --repeat "${SPAN_REPEAT:-3}"
    S=${SPAN_WEAK:-768}
    for k in 1 2 4 8; do
      [ "$k" -le "$NGPU" ] && [ "$S" != 0 ] || continue
      dist_bench "span weak ${S}^2x$((${SPAN_WEAKD:-320} * k)) on $k GPUs" \
        "vol:w=$S,h=$S,d=$((${SPAN_WEAKD:-320} * k)),conn=6" --backend cuda-grid --runs "${k}s" \
        --repeat "${SPAN_REPEAT:-3}"
    done
    S=${SPAN_LARGE:-0}
    [ "$S" = 0 ] || dist_bench "span large ${S}^3 c6" "vol:w=$S,h=$S,d=$S,conn=6" --backend cuda-grid \
      --runs "1s,${NGPU}s" --repeat 2 -v
  fi
  if has_multi weak; then
    S=${WEAK:-512}
    for k in 1 2 4 8; do
      [ "$k" -le "$NGPU" ] || continue
      dist_bench "weak ${S}^2x$((S * k)) on $k GPUs" "vol:w=$S,h=$S,d=$((S * k)),conn=6" \
        --backend cuda-grid --runs "${k}x$((2 * k))" --repeat 1
    done
  fi
  if has_multi large; then
    S=${LARGE:-1280}
    # Does the volume fit one GPU with cuda-grid? (a refusal is the expected answer)
    dist_bench "large ${S}^3 c6, cuda-grid on one GPU" "vol:w=$S,h=$S,d=$S,conn=6" \
      --backend cuda-grid --reference cuda-grid --reference-only --repeat 1
    dist_bench "large ${S}^3 c6 on $NGPU GPUs" "vol:w=$S,h=$S,d=$S,conn=6" --backend cuda-grid \
      --reference none --runs "${LARGE_RUNS:-${NGPU}x$((2 * NGPU))}" --repeat 1
  fi
  grep -E '^(vol|cuda-grid|gpus|###|run |[0-9]+x[0-9]+ )|FAILED' "$OUT/multi.txt" | cut -c1-250 | sed 's/^/    /' | tee -a "$SUMMARY"
fi

note ""
note "overall: $([ $STATUS = 0 ] && echo ok || echo FAILED)"
if [ -s "$OUT/bench.txt" ]; then
  echo
  cat "$OUT/bench.txt"
fi
echo
cat "$SUMMARY"
exit $STATUS
