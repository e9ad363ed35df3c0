#!/usr/bin/env bash
# gcut-match: help text (golden), errors, and matching through every matcher and init.
set -euo pipefail
exe=$1; src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$exe" --help > "$work/help.out"
diff -u "$src/golden/gcut-match-help.out" "$work/help.out" || fail "--help differs from golden"
"$exe" --version | grep -qx 'gcut-match [0-9][0-9.]*' || fail "--version: $("$exe" --version)"

"$exe" --list-backends > "$work/list.out"
grep -q '^cpu-match-pr ' "$work/list.out" || fail "--list-backends lacks cpu-match-pr"
grep -q '^cpu-match-hk ' "$work/list.out" || fail "--list-backends lacks cpu-match-hk"

# good_general.mtx: 4 x 5, 6 edges, maximum 3 (see tests/test_match.c).
mtx=$src/data/mtx/good_general.mtx
for b in auto cpu-match-pr cpu-match-hk; do
  for i in none greedy ks; do
    out=$("$exe" -b "$b" --init "$i" --check "$mtx")
    grep -qx 'cardinality: 3' <<<"$out" || fail "$b $i: $out"
    grep -qx 'check: ok' <<<"$out" || fail "$b $i check: $out"
    grep -q '^init: [0-9.]* ms$' <<<"$out" || fail "$b $i init line: $out"
    grep -q '^solve: [0-9.]* ms$' <<<"$out" || fail "$b $i solve line: $out"
  done
done
out=$("$exe" --repeat 3 --out "$work/mates.txt" - < "$mtx")
grep -qx 'cardinality: 3' <<<"$out" || fail "stdin: $out"
grep -qx 'size: 4 x 5, 6 edges' <<<"$out" || fail "size line: $out"
[ "$(grep -c '^[0-9]' "$work/mates.txt")" = 4 ] || fail "mates file should list 4 rows"
# --json (figures of the text report); --opt=value and -r3.
"$exe" --json --backend=cpu-match-hk -r3 --init=ks --check "$mtx" | python3 -c 'import json,sys
d=json.load(sys.stdin)
assert d["cardinality"] == 3 and d["rows"] == 4 and d["cols"] == 5 and d["edges"] == 6, d
assert d["backend"] == "cpu-match-hk" and d["check"] == "ok" and d["solve_ms"] >= 0, d' \
  || fail "--json"
"$exe" --version | grep -q '^back ends:$' || fail "--version lists no back ends"
"$exe" --json -l | python3 -c 'import json,sys; d=json.load(sys.stdin)
assert "cpu-match-hk" in [b["name"] for b in d["backends"]], d' || fail "--json -l"
awk '$1 ~ /^[0-9]/ && ($2 < 0 || $2 > 5) {exit 1}' "$work/mates.txt" || fail "mates out of range"
[ "$(awk '$1 ~ /^[0-9]/ && $2 != 0' "$work/mates.txt" | wc -l)" = 3 ] || fail "3 matched rows"

# Errors: one line on stderr, non-zero exit.
set +e
"$exe" "$work/missing.mtx" 2> "$work/err"; rc=$?
[ $rc = 1 ] || fail "missing file exit $rc"
[ "$(wc -l < "$work/err")" = 1 ] || fail "missing file: $(cat "$work/err")"
"$exe" "$src/data/mtx/bad_row_range.mtx" 2> "$work/err"; rc=$?
[ $rc = 1 ] || fail "bad file exit $rc"
[ "$(wc -l < "$work/err")" = 1 ] || fail "bad file: $(cat "$work/err")"
grep -q 'bad_row_range.mtx:4:' "$work/err" || fail "bad file error should name line 4: $(cat "$work/err")"
"$exe" -b cpu-match-nope "$mtx" 2> "$work/err"; rc=$?
[ $rc = 1 ] || fail "unknown matcher exit $rc"
[ "$(wc -l < "$work/err")" = 1 ] || fail "unknown matcher: $(cat "$work/err")"
"$exe" --init best "$mtx" 2> /dev/null; [ $? = 2 ] || fail "bad --init exit"
"$exe" --bogus 2> /dev/null; [ $? = 2 ] || fail "unknown option exit"
exit 0
