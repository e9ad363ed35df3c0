#!/bin/bash
# Header-declared sizes far beyond the file (issue 17, "Memory"): each file
# is read under a 400 MB address-space limit, so an allocation sized from
# the header alone fails; the tool must exit 1 with a message (not be
# killed). Files valid up to a late error must report that error: nothing
# sized by the header is allocated before the whole file is accepted.
# Pipes (stdin) and gzip give the readers no file size to bound their first
# arrays by, so the same files are read that way too.
# Usage: hostile_sizes.sh GCUT-MAXFLOW GCUT-MATCH TESTS-DIR
set -u
maxflow=$1 match=$2 dir=$3
fail=0
# AddressSanitizer reserves terabytes of address space: no ulimit -v there.
if ldd "$maxflow" 2>/dev/null | grep -q libasan; then
  echo "skipped: built with AddressSanitizer"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
input=/dev/null
check() { # check WHAT EXPECTED-TEXT COMMAND... (stdin: $input)
  local what=$1 want=$2
  shift 2
  local out rc
  out=$(bash -c 'ulimit -v 400000; "$@"' _ "$@" <"$input" 2>&1)
  rc=$?
  if [ "$rc" -ne 1 ] || ! grep -qF -- "$want" <<<"$out"; then
    echo "FAIL $what: exit $rc, expected 1 and '$want'; got: $out"
    fail=1
  else
    echo "ok   $what: $out"
  fi
}
check "2^31-1 nodes and arcs declared, 2 arcs" "file ends after 2 of 2147483647 arcs" \
  "$maxflow" -b cpu-hipr "$dir/data/dimacs/huge-header.max"
check "2e9 arcs declared, 2 arcs" "file ends after 2 of 2000000000 arcs" \
  "$maxflow" -b cpu-hipr "$dir/data/dimacs/huge-arcs.max"
check "valid, 2^31-1 nodes" "cannot allocate 8.0 GiB for the terminal capacities" \
  "$maxflow" -b cpu-hipr "$dir/data/dimacs/huge-nodes.max"
check "1.5e9 rows declared, 2 entries" \
  "gcut_bipartite_read_mtx: $dir/data/mtx/huge-rows.mtx: cannot allocate 11.2 GiB for the row offsets" \
  "$match" "$dir/data/mtx/huge-rows.mtx"
check "2^31-1 nodes, an error on the last line" "huge-nodes-bad-end.max:7: unknown line type 'x'" \
  "$maxflow" -b cpu-hipr "$dir/data/dimacs/huge-nodes-bad-end.max"
check "1.5e9 rows, 3 entries declared, 2 given" "file ends after 2 of the 3 entries" \
  "$match" "$dir/data/mtx/huge-rows-truncated.mtx"
check "1.5e9 rows, an error on the last line" "huge-rows-bad-entry.mtx:6: column index 1500000001 out of range" \
  "$match" "$dir/data/mtx/huge-rows-bad-entry.mtx"
check "2e12 entries declared, 2 given" "file ends after 2 of the 2000000000000 entries" \
  "$match" "$dir/data/mtx/huge-entries.mtx"
# From a pipe: no file size to bound the first arrays.
input=$dir/data/dimacs/huge-header.max
check "stdin: 2^31-1 nodes and arcs declared, 2 arcs" "<stdin>:6: file ends after 2 of 2147483647 arcs" \
  "$maxflow" -b cpu-hipr -
input=$dir/data/dimacs/huge-nodes.max
check "stdin: valid, 2^31-1 nodes" "cannot allocate 8.0 GiB for the terminal capacities" \
  "$maxflow" -b cpu-hipr -
input=$dir/data/mtx/huge-rows-truncated.mtx
check "stdin: 1.5e9 rows, 3 entries declared, 2 given" "<stdin>:5: file ends after 2 of the 3 entries" \
  "$match" -
input=$dir/data/mtx/huge-rows.mtx
check "stdin: 1.5e9 rows declared, 2 entries" \
  "gcut_bipartite_read_mtx: <stdin>: cannot allocate 11.2 GiB for the row offsets" \
  "$match" -
input=/dev/null
# Gzip: the compressed size says nothing about the text.
if command -v gzip >/dev/null; then
  gzip -c "$dir/data/dimacs/huge-header.max" >"$work/huge-header.max.gz"
  check "gzip: 2^31-1 nodes and arcs declared, 2 arcs" "huge-header.max.gz:6: file ends after 2 of 2147483647 arcs" \
    "$maxflow" -b cpu-hipr "$work/huge-header.max.gz"
fi
exit $fail
