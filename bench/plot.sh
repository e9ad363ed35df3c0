#!/bin/sh
# bench/plot.sh CSV PNG - bar chart of a gcut-bench CSV: one group of bars
# per instance, one bar per back end, median solve time on a log scale.
# Pivots the CSV with awk, then runs bench/plot.gp (gnuplot).
set -eu
[ $# -eq 2 ] || { echo "usage: bench/plot.sh RESULTS.csv OUT.png" >&2; exit 1; }
HERE=$(cd "$(dirname "$0")" && pwd)
DAT=$(mktemp "${TMPDIR:-/tmp}/gcut-plot.XXXXXX")
trap 'rm -f "$DAT"' EXIT INT TERM
# Rows: instances (seed dropped from the label), columns: back ends in order
# of first appearance; "?" where a back end did not run or did not finish.
# An instance measured twice by one back end keeps its first value.
awk -F, '
    NR == 1 { next }
    {
        inst = $1; sub(/[;:]seed=1$/, "", inst); gsub(/;/, ",", inst)
        if (!(inst in seen_i)) { seen_i[inst] = 1; insts[++ni] = inst }
        if (!(($6) in seen_b)) { seen_b[$6] = 1; bes[++nb] = $6 }
        if ($9 == "ok" && !((inst, $6) in val)) val[inst, $6] = $11
    }
    END {
        printf "instance"
        for (b = 1; b <= nb; b++) printf " %s", bes[b]
        printf "\n"
        for (i = 1; i <= ni; i++) {
            printf "%s", insts[i]
            for (b = 1; b <= nb; b++) {
                v = ((insts[i], bes[b]) in val) ? val[insts[i], bes[b]] : "?"
                if (v != "?" && v + 0 < 0.01) v = 0.01
                printf " %s", v
            }
            printf "\n"
        }
    }' "$1" > "$DAT"
NCOLS=$(awk 'NR == 1 { print NF }' "$DAT")
gnuplot -e "data='$DAT'; out='$2'; ncols=$NCOLS" "$HERE/plot.gp"
