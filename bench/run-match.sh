#!/usr/bin/env bash
# run-match.sh - CPU matching benchmark: every matcher x every init on
# generated bipartite graphs (>= 1M edges) and on any Matrix Market files in
# ../shared/data/. Writes bench/results/match-cpu-<tag>.{csv,md}.
#
#   bench/run-match.sh BUILD_DIR TAG [REPEAT]
#   MAXFLOW=cpu-hipr,cuda-csr bench/run-match.sh BUILD_DIR TAG   # and matching as max-flow
#
# Times are the medians of REPEAT runs (default 3) as printed by gcut-match
# (`init:` and `solve:`); the file is parsed once per run and not timed.
# MAXFLOW (comma-separated max-flow back ends, default none) adds rows
# `maxflow-BACKEND` from gcut-match-maxflow (matching solved as max-flow,
# no initial matching: init `none`; solve = flow graph + max-flow + mates).
set -euo pipefail
build=${1:?build dir}; tag=${2:?tag}; repeat=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
gen=$build/bin/gcut-gen-mtx; match=$build/bin/gcut-match; mflow=$build/bin/gcut-match-maxflow
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
csv=$here/results/match-cpu-$tag.csv; md=$here/results/match-cpu-$tag.md

# name: generator arguments
instances=(
  "random-500k:random 500000 500000 1500000 1"
  "random-tall-1M:random 1000000 250000 2000000 2"
  "powerlaw-500k:powerlaw 500000 500000 2000000 3"
  "powerlaw-1M-a1.0:powerlaw 1000000 1000000 4000000 4 1.0"
)
files=()
for spec in "${instances[@]}"; do
  name=${spec%%:*}; args=${spec#*:}
  # shellcheck disable=SC2086
  "$gen" $args > "$work/$name.mtx"
  files+=("$work/$name.mtx")
done
shopt -s nullglob globstar
for f in "$here"/../../shared/data/**/*.mtx; do files+=("$f"); done

# row NAME MATCHER INIT OUTPUT: one CSV row from gcut-match(-maxflow)'s lines.
row() {
  local out=$4
  get() { echo "$out" | sed -n "s/^$1: //p"; }
  size=$(get size)   # "R x C, E edges"
  r=${size%% x*}; c=${size#* x }; c=${c%%,*}; e=${size#*, }; e=${e%% *}
  ti=$(get init | cut -d' ' -f1); ts=$(get solve | cut -d' ' -f1)
  tt=$(awk -v a="$ti" -v b="$ts" 'BEGIN {printf "%.3f", a + b}')
  echo "$1,$r,$c,$e,$2,$3,$(get cardinality),$(get initial),$ti,$ts,$tt" >> "$csv"
  echo "$1 $2 $3: $(get cardinality) in $tt ms" >&2
}

echo "instance,rows,cols,edges,backend,init,cardinality,initial,init_ms,solve_ms,total_ms" > "$csv"
for f in "${files[@]}"; do
  name=$(basename "$f" .mtx)
  for b in cpu-match-pr cpu-match-hk; do
    for i in none greedy ks; do
      row "$name" "$b" "$i" "$("$match" -b "$b" --init "$i" --repeat "$repeat" --check "$f")"
    done
  done
  for b in ${MAXFLOW//,/ }; do
    row "$name" "maxflow-$b" none "$("$mflow" -b "$b" --repeat "$repeat" --check "$f")"
  done
done

{
  echo "# CPU bipartite matching, $tag"
  echo
  echo "Medians of $repeat runs of \`gcut-match --repeat $repeat --check\` (every result"
  echo "verified by its König certificate). Times in ms; total = init + solve."
  echo
  echo "| instance | rows | cols | edges | matcher | init | cardinality | after init | init | solve | total |"
  echo "|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|"
  tail -n +2 "$csv" | awk -F, '{printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11}'
} > "$md"
echo "wrote $csv and $md" >&2
