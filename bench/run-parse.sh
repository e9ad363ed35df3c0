#!/bin/sh
# bench/run-parse.sh - DIMACS reader speed (issue 23, item 6): the reader of
# a baseline commit against this tree's, one thread and several, and the
# layout build, on large generated instances.
#
#   bench/run-parse.sh [BUILD_DIR]
#
# BUILD_DIR (default: build) must hold gcut-bench and gcut-gen of this tree
# (cmake --build BUILD_DIR --target gcut-bench gcut-gen). The script:
#   1. generates the instances with gcut-gen into $DATA (default
#      BUILD_DIR/parse-data, git-ignored; reused when present): a 256^3
#      6-connected grid3d volume (2.6 GB of text), a genrmf and a power-law
#      graph;
#   2. builds the baseline's gcut-bench (commit $BASE, default 067a1d4, the
#      commit before the parallel reader) in a worktree under
#      build-parse-base/ (git-ignored; reused when present);
#   3. runs, $ROUNDS times in alternation (base, then each thread count of
#      this tree), gcut-bench --parse --repeat $REPEAT on each instance; the
#      one-thread runs (the baseline and -t 1, the serial reader) under
#      taskset -c $ONE_CPU;
#   4. prints one table last: per instance and variant, the median over
#      the rounds of the median parse time, MB/s, the speed-up against the
#      baseline, the parse's CPU time and the layout build (gcut_graph_freeze).
#
# Environment: DATA, BASE, ROUNDS (3), REPEAT (3), THREADS ("1 2 4 8 16"
# capped at nproc, nproc itself added), ONE_CPU (1, or 0 on one CPU),
# SPECS (the gcut-gen specs, space-separated), QUICK=1 (small instances:
# checks the script itself in a minute).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
BENCH=$BUILD/bin/gcut-bench
GEN=$BUILD/bin/gcut-gen
for t in "$BENCH" "$GEN"; do
    if [ ! -x "$t" ]; then
        echo "run-parse.sh: $t not found; build first:" >&2
        echo "  cmake -S $ROOT -B $BUILD -DCMAKE_BUILD_TYPE=Release &&" \
             "cmake --build $BUILD -j --target gcut-bench gcut-gen" >&2
        exit 1
    fi
done
DATA=${DATA:-$BUILD/parse-data}
BASE=${BASE:-067a1d4}
ROUNDS=${ROUNDS:-3}
REPEAT=${REPEAT:-3}
NPROC=$(nproc)
if [ "$NPROC" -gt 1 ]; then ONE_CPU=${ONE_CPU:-1}; else ONE_CPU=${ONE_CPU:-0}; fi
if [ -z "${THREADS:-}" ]; then
    THREADS=1
    for t in 2 4 8 16; do
        if [ "$t" -le "$NPROC" ]; then THREADS="$THREADS $t"; fi
    done
    case " $THREADS " in *" $NPROC "*) ;; *) THREADS="$THREADS $NPROC" ;; esac
fi
if [ "${QUICK:-0}" = 1 ]; then
    SPECS=${SPECS:-"grid3d:w=64,h=64,d=64 genrmf:a=32,b=32"}
else
    SPECS=${SPECS:-"grid3d:w=256,h=256,d=256 genrmf:a=128,b=128 powerlaw:n=4000000,d=16"}
fi

# 1. The instances.
mkdir -p "$DATA"
FILES=
for spec in $SPECS; do
    f=$DATA/$(echo "$spec" | tr ':=,' '_-_').max
    if [ ! -s "$f" ]; then
        echo "run-parse.sh: gcut-gen $spec -o $f" >&2
        "$GEN" -q "$spec" -o "$f"
    fi
    FILES="$FILES $f"
done

# 2. The baseline.
BASEDIR=$ROOT/build-parse-base
OLD=$BASEDIR/build/bin/gcut-bench
if [ ! -x "$OLD" ]; then
    if [ ! -d "$BASEDIR/src" ]; then
        mkdir -p "$BASEDIR"
        git -C "$ROOT" worktree add --detach "$BASEDIR/src" "$BASE" >&2
    fi
    cmake -S "$BASEDIR/src" -B "$BASEDIR/build" -DCMAKE_BUILD_TYPE=Release \
        -DGCUT_WITH_CUDA=OFF -DGCUT_WITH_TESTS=OFF >/dev/null
    cmake --build "$BASEDIR/build" -j "$NPROC" --target gcut-bench >&2
fi
BASE_COMMIT=$(git -C "$BASEDIR/src" rev-parse --short HEAD)
HEAD_COMMIT=$(git -C "$ROOT" rev-parse --short HEAD)

TMP=$(mktemp -d "${TMPDIR:-/tmp}/gcut-parse.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
RAW=$TMP/raw.txt # variant file parse_ms cpu_ms layout_ms mb_per_s
: >"$RAW"

# One run of a variant on every file: CSV columns found by their names
# (the baseline's CSV has no threads, CPU time or layout columns).
run_variant() {
    name=$1
    shift
    "$@" --parse -q --repeat "$REPEAT" --csv "$TMP/run.csv" $FILES >/dev/null
    awk -F, -v v="$name" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        {
            cpu = ("parse_cpu_ms" in c) ? $c["parse_cpu_ms"] : "-"
            lay = ("layout_ms" in c) ? $c["layout_ms"] : "-"
            print v, $c["file"], $c["parse_ms"], cpu, lay, $c["mb_per_s"]
        }' "$TMP/run.csv" >>"$RAW"
}

echo "run-parse.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $NPROC CPUs" \
     "($(lscpu | sed -n 's/^Model name: *//p' | head -1)), load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "run-parse.sh: baseline $BASE_COMMIT, this tree $HEAD_COMMIT; threads $THREADS;" \
     "$ROUNDS rounds of --repeat $REPEAT" >&2

# 3. Alternation: base, then every thread count, ROUNDS times.
r=1
while [ "$r" -le "$ROUNDS" ]; do
    run_variant base taskset -c "$ONE_CPU" "$OLD"
    for t in $THREADS; do
        if [ "$t" = 1 ]; then
            run_variant t1 taskset -c "$ONE_CPU" "$BENCH" -t 1
        else
            run_variant "t$t" "$BENCH" -t "$t"
        fi
    done
    echo "run-parse.sh: round $r of $ROUNDS done, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    r=$((r + 1))
done

# 4. The table: per file and variant, the round with the median parse time.
echo
echo "DIMACS reader: baseline $BASE_COMMIT vs $HEAD_COMMIT; $NPROC CPUs; medians of $ROUNDS rounds" \
     "of the median of $REPEAT reads; load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
echo
VARIANTS="base"
for t in $THREADS; do VARIANTS="$VARIANTS t$t"; done
echo "| file | reader | parse ms | MB/s | speed-up | parse CPU ms | layout ms |"
echo "|---|---|---|---|---|---|---|"
for f in $FILES; do
    b=$(basename "$f")
    base_ms=
    for v in $VARIANTS; do
        line=$(awk -v v="$v" -v f="$b" '$1 == v && $2 == f' "$RAW" |
            sort -k3,3g | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }')
        ms=$(echo "$line" | awk '{print $3}')
        cpu=$(echo "$line" | awk '{print $4}')
        lay=$(echo "$line" | awk '{print $5}')
        mbs=$(echo "$line" | awk '{print $6}')
        [ -n "$base_ms" ] || base_ms=$ms
        sp=$(awk -v a="$base_ms" -v b="$ms" 'BEGIN { printf("%.2fx", (b > 0) ? a / b : 0) }')
        case $v in
            base) label="baseline $BASE_COMMIT (1 CPU)" ;;
            t1) label="serial (-t 1, 1 CPU)" ;;
            *) label="${v#t} threads" ;;
        esac
        echo "| $b | $label | $ms | $mbs | $sp | $cpu | $lay |"
    done
done
