#!/bin/bash
# Header-declared sizes far beyond the file (issue 17, "Memory"): each file
# is read under a 400 MB address-space limit, so an allocation sized from
# the header alone fails; the tool must exit 1 with a message (not be
# killed). Usage: hostile_sizes.sh GCUT-MAXFLOW GCUT-MATCH TESTS-DIR
set -u
maxflow=$1 match=$2 dir=$3
fail=0
# AddressSanitizer reserves terabytes of address space: no ulimit -v there.
if ldd "$maxflow" 2>/dev/null | grep -q libasan; then
  echo "skipped: built with AddressSanitizer"
  exit 77
fi
check() { # check WHAT EXPECTED-TEXT COMMAND...
  local what=$1 want=$2
  shift 2
  local out rc
  out=$(bash -c 'ulimit -v 400000; "$@"' _ "$@" 2>&1)
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
check "1.5e9 rows declared, 2 entries" "cannot allocate 11.2 GiB for the row offsets" \
  "$match" "$dir/data/mtx/huge-rows.mtx"
exit $fail
