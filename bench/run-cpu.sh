#!/bin/sh
# bench/run-cpu.sh - the CPU benchmark set of the project, on this machine.
#
#   bench/run-cpu.sh [BUILD_DIR]
#
# Runs gcut-bench from BUILD_DIR (default: build-bench, then build) on
#   1. the issue's reference set: random 4-connected grid 512x512 with
#      capacities U[0,100], GENRMF a=32 b=32, Washington RLG 256 rows x 512
#      columns, and the 2048x2048 random grid (BK-style engines only);
#   2. one instance of every other family (long GENRMF, wide RLG,
#      acyclic-dense, 2D and 3D vision grids, power-law, bipartite);
#   3. the DIMACS parser on a generated 1024x1024 grid file (MB/s);
# and writes bench/results/cpu-NAME-DATE.csv (+ -parse.csv), a Markdown
# report cpu-NAME-DATE.md (machine, exact commands, our numbers next to the
# issue's reference numbers) and the bar chart docs/img/cpu-NAME-DATE.png.
# NAME is $GCUT_BENCH_NAME or the host name. Every back end that is
# available is run (cpu-ref, the Dinic reference, only on the small
# instances: it is there for correctness, not speed). Takes < 10 minutes on
# 2 cores.
#
# Environment: GCUT_BENCH_NAME (report name), GCUT_BENCH_REPEAT (default 3),
# GCUT_BENCH_COMMIT (the commit BUILD_DIR was built from; default: HEAD),
# GCUT_BENCH_QUICK=1 (tiny sizes: checks the script itself in seconds).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-}
if [ -z "$BUILD" ]; then
    for d in "$ROOT/build-bench" "$ROOT/build"; do
        if [ -x "$d/bin/gcut-bench" ]; then BUILD=$d; break; fi
    done
fi
BENCH=$BUILD/bin/gcut-bench
GEN=$BUILD/bin/gcut-gen
if [ ! -x "$BENCH" ] || [ ! -x "$GEN" ]; then
    echo "run-cpu.sh: gcut-bench not found; build first:" >&2
    echo "  cmake -S $ROOT -B $ROOT/build-bench -DCMAKE_BUILD_TYPE=Release &&" \
         "cmake --build $ROOT/build-bench -j --target gcut-bench gcut-gen" >&2
    exit 1
fi

NAME=${GCUT_BENCH_NAME:-$(hostname -s 2>/dev/null || hostname)}
DATE=$(date +%Y-%m-%d)
REPEAT=${GCUT_BENCH_REPEAT:-3}
OUTDIR=$ROOT/bench/results
IMGDIR=$ROOT/docs/img
mkdir -p "$OUTDIR" "$IMGDIR"
BASE=$OUTDIR/cpu-$NAME-$DATE
CSV=$BASE.csv
MD=$BASE.md
PNG=$IMGDIR/cpu-$NAME-$DATE.png
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gcut-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

# Back ends: every available CPU engine except the reference solver.
ENGINES=$("$BENCH" --list | awk '$2 == "yes" && $1 ~ /^cpu-/ && $1 != "cpu-ref" {printf "%s%s", s, $1; s = ","}')
if [ -z "$ENGINES" ]; then ENGINES=cpu-ref; fi
# The BK-style and hi_pr-style engines for the 2048x2048 grid.
BIG=$(echo "$ENGINES" | tr ',' '\n' | grep -E '^cpu-(bk|hipr)$' | paste -sd, -)
[ -n "$BIG" ] || BIG=$ENGINES

if [ "${GCUT_BENCH_QUICK:-0}" = 1 ]; then
    REF_SET="grid2d:w=64,h=64,conn=4,kind=random genrmf:a=6,b=6 rlg:r=16,c=32"
    BIG_SET="grid2d:w=128,h=128,conn=4,kind=random"
    EXTRA_SET="genrmf:a=4,b=32 rlg:r=32,c=32 acyclic:n=100 grid2d:w=64,h=64,conn=8,kind=vision grid3d:w=16,h=16,d=16,conn=26,kind=vision powerlaw:n=5000,d=8,k=16 bipartite:l=2000,r=2000,d=4"
    SMALL_SET="grid2d:w=64,h=64,conn=4,kind=random genrmf:a=6,b=6"
    PARSE_SPEC="grid2d:w=128,h=128"
else
    REF_SET="grid2d:w=512,h=512,conn=4,kind=random genrmf:a=32,b=32 rlg:r=256,c=512"
    BIG_SET="grid2d:w=2048,h=2048,conn=4,kind=random"
    EXTRA_SET="genrmf:a=16,b=128 rlg:r=256,c=256 acyclic:n=2000 grid2d:w=1024,h=1024,conn=8,kind=vision grid3d:w=96,h=96,d=96,conn=6,kind=vision powerlaw:n=1000000,d=8,k=16 bipartite:l=200000,r=200000,d=4"
    SMALL_SET="genrmf:a=16,b=16 rlg:r=64,c=128 grid2d:w=128,h=128,conn=4,kind=random,sym=1"
    PARSE_SPEC="grid2d:w=1024,h=1024"
fi

A1="--backends $ENGINES --repeat $REPEAT --time-limit 30 --budget 45"
A2="--backends $BIG --repeat $REPEAT --time-limit 120 --budget 40"
A3="--backends $ENGINES --repeat $REPEAT --time-limit 20 --budget 20"
A4="--backends all --repeat 1 --time-limit 60"

rc=0
run() { # run CSV_OUT ARGS... ; keeps going on failure, remembers it
    out=$1; shift
    "$BENCH" --csv "$out" "$@" || rc=$?
}
START=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
echo "== reference set ($ENGINES)" >&2
run "$TMP/1.csv" $A1 $REF_SET
echo "== 2048x2048 grid ($BIG)" >&2
run "$TMP/2.csv" $A2 $BIG_SET
echo "== other families ($ENGINES)" >&2
run "$TMP/3.csv" $A3 $EXTRA_SET
echo "== cross-check with cpu-ref on small instances" >&2
run "$TMP/4.csv" $A4 $SMALL_SET
echo "== DIMACS parse speed" >&2
"$GEN" $PARSE_SPEC -o "$TMP/grid.max"
"$BENCH" --parse --repeat 5 --csv "$BASE-parse.csv" "$TMP/grid.max" || rc=$?
END=$(date +%s)
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

: > "$CSV"
for f in "$TMP"/[1-4].csv; do
    [ -f "$f" ] || continue
    if [ -s "$CSV" ]; then tail -n +2 "$f" >> "$CSV"; else cat "$f" > "$CSV"; fi
done

"$ROOT/bench/plot.sh" "$CSV" "$PNG" || echo "run-cpu.sh: plot failed (is gnuplot installed?)" >&2

# ---------------------------------------------------------------- report
MODEL=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)
CPUS=$(nproc)
COMMIT=${GCUT_BENCH_COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)}
{
    echo "# CPU benchmarks: $NAME, $DATE"
    echo
    echo "- Machine: $MODEL, $CPUS cores ($(uname -sm)), $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo) memory"
    echo "- gcut commit: $COMMIT; compiler: $(${CC:-cc} --version 2>/dev/null | head -n 1)"
    echo "- Script: \`bench/run-cpu.sh\` (GCUT_BENCH_NAME=$NAME, repeat $REPEAT), $((END - START)) s in all"
    echo "- Load average (1, 5, 15 min) at the start: $LOAD_START; at the end: $LOAD_END"
    echo "- Commands (gcut-bench and gcut-gen from \`$BUILD/bin\`):"
    echo
    echo '```'
    echo "gcut-bench $A1 $REF_SET"
    echo "gcut-bench $A2 $BIG_SET"
    echo "gcut-bench $A3 $EXTRA_SET"
    echo "gcut-bench $A4 $SMALL_SET"
    echo "gcut-gen $PARSE_SPEC -o grid.max && gcut-bench --parse --repeat 5 grid.max"
    echo '```'
    echo
    echo "solve_ms is the median over the repeats of the back end's whole solve"
    echo "(set-up, max-flow, canonical cut), with generation, parsing and the layout"
    echo "build (build_ms) excluded, as in the reference numbers. \`agree\`: all back"
    echo "ends returned the same flow and the same cut bytes; \`check\`: the cut's"
    echo "capacity equals the flow."
    echo
    echo "## Reference set"
    echo
    echo "The issue's reference numbers were measured on the same 2-core machine with"
    echo "BK v3.04, HPF and hi_pr on instances of the same families and sizes (not the"
    echo "same random instances: ours come from bench/gen with seed 1). Targets: cpu-bk"
    echo "within 1.3x of BK on grids, cpu-hipr within 1.5x of hi_pr on the DIMACS families."
    echo
    echo "| instance | back end | solve_ms (ours) | reference | ours / ref | target | HPF |"
    echo "|---|---|---:|---|---:|---|---:|"
    awk -F, '
        BEGIN {
            # key|backend -> reference program, ms, target ratio
            ref["grid512|cpu-bk"] = "BK v3.04|480|1.3"
            ref["grid512|cpu-hipr"] = "hi_pr|2201|"
            ref["genrmf32|cpu-hipr"] = "hi_pr|77|1.5"
            ref["genrmf32|cpu-bk"] = "BK v3.04|5700|"
            ref["rlg256|cpu-hipr"] = "hi_pr|380|1.5"
            ref["grid2048|cpu-bk"] = "BK v3.04|8900|1.3"
            hpf["grid512"] = 251; hpf["genrmf32"] = 28; hpf["rlg256"] = 142; hpf["grid2048"] = 4300
        }
        function key(inst) {
            if (inst ~ /^grid2d:w=512;h=512;conn=4;kind=random;seed=1$/) return "grid512"
            if (inst ~ /^grid2d:w=2048;h=2048;conn=4;kind=random;seed=1$/) return "grid2048"
            if (inst ~ /^genrmf:a=32;b=32;seed=1$/) return "genrmf32"
            if (inst ~ /^rlg:r=256;c=512;seed=1$/) return "rlg256"
            return ""
        }
        NR > 1 {
            inst = $1; k = key(inst); gsub(/;/, ",", inst)
            if (k == "") next
            ours = ($9 == "ok") ? sprintf("%.1f", $11) : $9
            r = ref[k "|" $6]; prog = ""; rms = ""; tgt = ""
            if (r != "") { split(r, p, "|"); prog = p[1]; rms = p[2]; tgt = p[3] }
            ratio = ($9 == "ok" && rms != "") ? sprintf("%.2f", $11 / rms) : "-"
            met = "-"
            if (tgt != "" && ratio != "-") met = (ratio + 0 <= tgt + 0) ? ("met (<= " tgt "x)") : ("missed (" tgt "x)")
            printf "| %s | %s | %s | %s | %s | %s | %s |\n", inst, $6, ours,
                   (prog != "" ? prog " " rms " ms" : "-"), ratio, met, hpf[k] " ms"
        }' "$CSV"
    echo
    echo "## All results"
    echo
    echo "| instance | nodes | edges | gen_ms | back end | build_ms | solve_ms | total_ms | flow | agree | check |"
    echo "|---|---:|---:|---:|---|---:|---:|---:|---:|---|---|"
    awk -F, 'NR > 1 {
            inst = $1; gsub(/;/, ",", inst)
            ok = ($9 == "ok")
            printf "| %s | %s | %s | %.1f | %s | %s | %s | %s | %s | %s | %s |\n", inst, $3, $4,
                   $5, $6, ok ? sprintf("%.1f", $10) : "-", ok ? sprintf("%.1f", $11) : $9,
                   ok ? sprintf("%.1f", $12) : "-", ok ? $18 : "-", $19, $20
        }' "$CSV"
    echo
    echo "## DIMACS parse speed"
    echo
    echo "| file | bytes | nodes | edges | parse_ms (median of 5) | MB/s |"
    echo "|---|---:|---:|---:|---:|---:|"
    awk -F, -v spec="$PARSE_SPEC" 'NR > 1 {
            printf "| %s (gcut-gen %s) | %s | %s | %s | %.1f | %.1f |\n", "grid.max", spec, $2,
                   $3, $4, $6, $8
        }' "$BASE-parse.csv"
    echo
    echo "## Plot"
    echo
    echo "![solve time per back end](../../docs/img/$(basename "$PNG"))"
} > "$MD"

echo "run-cpu.sh: wrote $CSV, $MD and $PNG in $((END - START)) s" >&2
exit $rc
