#!/usr/bin/env bash
# bench/run-anchors.sh - gcut's engines and the best codes of the field, side
# by side on the same instance files, one table with ratios and a flow check
# per cell (docs/benchmarks.md, "Against the anchors").
#
#     BUILD=build bash bench/run-anchors.sh OUTDIR
#
# The anchors (HPF, EIBFS, peibfs, hi_pr, BK v3.04; ECL-MaxFlow and WBPR on a
# GPU machine) are built from a git-ignored folder, $ANCHORS (default
# .anchors in the checkout), prepared as ../shared/anchors/README.md says:
# this script copies the drivers there if missing and builds every anchor
# whose sources are present (the GPU ones only where nvcc and a device are).
# It never commits or links them into gcut.
#
# Environment:
#   BUILD     gcut build folder with bin/gcut-gen and bin/gcut-bench (default build)
#   SET       cpu (default on a machine without a GPU: sizes for 2 cores),
#             full (default with a GPU: the issue's instances), small (seconds)
#   ENGINES   gcut engines (default: every available one but cpu-ref)
#   THREADS   threads of peibfs and the parallel gcut engines (default: all cores)
#   REPEAT    solves per engine (default 3; anchors report their own medians,
#             hi_pr REPEAT runs of its driver and their median)
#   TLIMIT    seconds per solve (default 60)
#   REAL      a folder of DIMACS files to add to the set (the real vision
#             instances of bench/make-real-instances.sh)
# Writes OUTDIR/anchors.csv (one row per instance and code) and
# OUTDIR/anchors.md (the table), and prints the table.
set -u
OUT=${1:?usage: bench/run-anchors.sh OUTDIR}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
ANCHORS=${ANCHORS:-$ROOT/.anchors}
REPEAT=${REPEAT:-3}
TLIMIT=${TLIMIT:-60}
THREADS=${THREADS:-$(nproc)}
GPU=0
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && GPU=1
SET=${SET:-$([ $GPU = 1 ] && echo full || echo cpu)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=${WORK:-/tmp/gcut-anchors-$$}
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT

# ---- the anchors -----------------------------------------------------------
if [ ! -d "$ANCHORS/drivers" ]; then
  mkdir -p "$ANCHORS" && cp -r "$ROOT/../shared/anchors/"* "$ANCHORS/" 2>/dev/null ||
    echo "run-anchors: no drivers in $ANCHORS (see ../shared/anchors/README.md)" >&2
fi
mkdir -p "$ANCHORS/bin"
if [ -d "$ANCHORS/drivers" ]; then
  (
    cd "$ANCHORS/drivers" || exit 1
    CX="g++ -O3 -DNDEBUG -w -static-libstdc++ -static-libgcc"
    H=../src/suite/hi_pr
    if [ -d ../src/bk304/maxflow ] && [ ! -x ../bin/bk304_run ]; then
      $CX -std=c++17 -o ../bin/bk304_run bk304_run.cpp
    fi
    if [ -d $H ] && [ ! -x ../bin/suite_run ]; then
      $CX -o ../bin/hi_pr_orig hi_pr_orig.cpp $H/hi_pr.cpp $H/parser.cpp $H/timer.cpp $H/construct.cpp
      $CX -std=c++17 -fpermissive -pthread -DREIMPLS_NO_OVERFLOW_CHECKS -include suite_compat.h \
        -o ../bin/suite_run suite_run.cpp $H/hi_pr.cpp $H/timer.cpp $H/construct.cpp $H/parser.cpp
    fi
    if [ $GPU = 1 ] && command -v nvcc >/dev/null && [ -f ../src/ecl/maxflow.cu ] &&
       [ ! -x ../bin/ecl_run ]; then
      nvcc -O3 -std=c++17 -arch=sm_90 -w -o ../bin/ecl_run ecl_run.cu
    fi
  ) >"$OUT/anchors-build.log" 2>&1 || echo "run-anchors: building the anchors failed (anchors-build.log)" >&2
fi
A=$ANCHORS/bin

# ---- the instance set ------------------------------------------------------
case $SET in
  small) SPECS="genrmf:a=16,b=16 rlg:r=64,c=128 grid2d:w=256,h=256 grid2d:w=512,h=512,kind=vision
                grid3d:w=32,h=32,d=32,conn=6,kind=vision powerlaw:n=50000,d=8,k=8" ;;
  cpu)   SPECS="genrmf:a=24,b=24 genrmf:a=32,b=32 rlg:r=128,c=256 rlg:r=256,c=512
                grid2d:w=512,h=512 grid2d:w=1024,h=1024,kind=vision
                grid2d:w=1024,h=1024,conn=8,kind=vision grid3d:w=96,h=96,d=96,conn=6,kind=vision
                powerlaw:n=1000000,d=8,k=16 bipartite:l=200000,r=200000,d=4" ;;
  full)  SPECS="genrmf:a=24,b=24 genrmf:a=32,b=32 genrmf:a=64,b=64 rlg:r=128,c=256
                rlg:r=1024,c=1024 grid2d:w=2048,h=2048 grid2d:w=2048,h=2048,kind=vision
                grid2d:w=1024,h=1024,conn=8,kind=vision grid3d:w=128,h=128,d=128,conn=6,kind=vision
                powerlaw:n=1000000,d=8,k=16 bipartite:l=200000,r=200000,d=4" ;;
  *) echo "run-anchors: SET is small, cpu or full" >&2; exit 2 ;;
esac
SPECS=${SPECS_OVERRIDE:-$SPECS}
# REAL=DIR: also every DIMACS file of DIR (bench/make-real-instances.sh).
if [ -n "${REAL:-}" ]; then
  SPECS="$SPECS $(ls "$REAL"/*.max 2>/dev/null | tr '\n' ' ')"
fi
if [ -z "${ENGINES:-}" ]; then
  ENGINES=$("$BUILD/bin/gcut-bench" --list 2>&1 | awk '$2 == "yes" && $1 != "cpu-ref" {print $1}' |
            paste -sd, -)
fi

CSV=$OUT/anchors.csv
echo "instance,arcs,code,kind,solve_ms,flow,status" >"$CSV"
row() { echo "$1,$2,$3,$4,$5,$6,$7" >>"$CSV"; }

for spec in $SPECS; do
  if [ -f "$spec" ]; then # a DIMACS file (e.g. from bench/make-real-instances.sh)
    f=$spec
  else
    f=$WORK/inst.max
    "$BUILD/bin/gcut-gen" "$spec" -q -o "$f" || { echo "gcut-gen $spec failed" >&2; continue; }
  fi
  arcs=$(awk '$1 == "p" {print $4; exit}' "$f")
  name=${spec//,/;} # the CSV's instance column
  name=${name##*/}
  echo "== $spec ($arcs arcs)" >&2
  # gcut: every engine through gcut-bench (median of REPEAT, layout build excluded)
  timeout $((TLIMIT * (REPEAT + 2) + 120)) "$BUILD/bin/gcut-bench" "$f" --backends "$ENGINES" \
    --repeat "$REPEAT" --threads "$THREADS" --time-limit "$TLIMIT" --csv "$WORK/g.csv" -q \
    >"$WORK/g.txt" 2>&1
  if [ -s "$WORK/g.csv" ]; then
    awk -F, -v s="$name" -v a="$arcs" 'NR > 1 {
        k = ($6 ~ /^cuda/) ? "gcut-gpu" : (($6 ~ /^cpu-(prsn|grid-pr)$/ && $7 + 0 > 1) ? "gcut-par" : "gcut-cpu");
        st = ($9 == "ok" && $20 == "ok") ? "ok" : $9 "/" $20;
        printf "%s,%s,%s,%s,%s,%s,%s\n", s, a, $6, k, $11, $18, st }' "$WORK/g.csv" >>"$CSV"
    rm -f "$WORK/g.csv"
  fi
  # the anchors, each on the same file (their own timing of the solve alone).
  # run_anchor RUNS code kind command...: RUNS runs of the command, the
  # median of their times. The codes time REPS solves themselves (RUNS 1),
  # except hi_pr's driver, which times one and ignores REPS: REPEAT runs of
  # it (one run swings by 1.5x on a shared machine:
  # bench/results/bk-hipr-2026-11-27g.md).
  run_anchor() {
    local runs=$1 code=$2 kind=$3
    shift 3
    local k out rc=0 ms="" all="" flow="" chk=ok
    for k in $(seq "$runs"); do
      out=$(REPS=$REPEAT THREADS=$THREADS timeout "$TLIMIT" "$@" 2>&1)
      rc=$?
      ms=$(echo "$out" | grep -o 'solve_ms=[0-9.]*' | head -1 | cut -d= -f2)
      [ $rc != 124 ] && [ -n "$ms" ] || break
      all="$all $ms"
      flow=$(echo "$out" | grep -o 'flow=[0-9]*' | head -1 | cut -d= -f2)
      echo "$out" | grep -q 'check=ok' || chk=unchecked
    done
    if [ $rc = 124 ]; then row "$name" "$arcs" "$code" "$kind" "" "" timeout
    elif [ -z "$ms" ]; then row "$name" "$arcs" "$code" "$kind" "" "" failed
    else
      ms=$(echo $all | tr ' ' '\n' | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
      row "$name" "$arcs" "$code" "$kind" "$ms" "$flow" "$chk"
    fi
  }
  [ -x "$A/suite_run" ] && for c in hpf eibfs; do run_anchor 1 "$c" anchor-cpu "$A/suite_run" "$c" "$f"; done
  [ -x "$A/suite_run" ] && run_anchor 1 peibfs anchor-par "$A/suite_run" peibfs "$f"
  [ -x "$A/hi_pr_orig" ] && run_anchor "$REPEAT" hi_pr anchor-cpu sh -c "\"$A/hi_pr_orig\" < \"$f\""
  [ -x "$A/bk304_run" ] && run_anchor 1 bk304 anchor-cpu "$A/bk304_run" "$f"
  [ $GPU = 1 ] && [ -x "$A/ecl_run" ] && run_anchor 1 ecl anchor-gpu "$A/ecl_run" "$f"
  [ "$f" = "$spec" ] || rm -f "$f"
done

/usr/bin/env python3 "$ROOT/bench/anchors_table.py" "$CSV" "$OUT/anchors.md" "$SET" "$THREADS"
