#!/usr/bin/env bash
# gcut-maxflow: help text (golden), errors, and solving through every path.
set -euo pipefail
exe=$1; src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$exe" --help > "$work/help.out"
diff -u "$src/golden/gcut-maxflow-help.out" "$work/help.out" || fail "--help differs from golden"
"$exe" --version | grep -qx 'gcut-maxflow [0-9][0-9.]*' || fail "--version: $("$exe" --version)"

"$exe" --list-backends > "$work/list.out"
grep -q '^cpu-ref  *yes' "$work/list.out" || fail "--list-backends lacks cpu-ref"
grep -q '^cuda-csr' "$work/list.out" || fail "--list-backends lacks cuda-csr"

# CLRS figure 26.6 (s = 1, t = 6): max flow 23.
cat > "$work/clrs.max" <<'MAX'
c CLRS figure 26.6
p max 6 9
n 1 s
n 6 t
a 1 2 16
a 1 3 13
a 2 4 12
a 3 2 4
a 3 5 14
a 4 3 9
a 4 6 20
a 5 4 7
a 5 6 4
MAX
out=$("$exe" -b cpu-ref --check --cut "$work/cut.txt" --flow "$work/flow.txt" "$work/clrs.max")
grep -qx 'flow: 23' <<<"$out" || fail "flow line: $out"
grep -q '^solve: [0-9.]* ms$' <<<"$out" || fail "solve line: $out"
grep -q '^parse: [0-9.]* ms$' <<<"$out" || fail "parse line: $out"
grep -qx 'check: ok' <<<"$out" || fail "check line: $out"
grep -qx '4 1' "$work/cut.txt" || fail "cut file: node 4 should be on the sink side"
[ "$(grep -c '^[0-9]' "$work/cut.txt")" = 6 ] || fail "cut file should list 6 nodes"
grep -qx 's 23' "$work/flow.txt" || fail "flow file value"
grep -q '^f 1 2 ' "$work/flow.txt" || fail "flow file terminal arcs"
# Conservation in the written flow: what leaves s equals what enters t.
awk '$1=="f" && $2==1 {o+=$4} $1=="f" && $3==6 {i+=$4} END {exit !(o==23 && i==23)}' "$work/flow.txt" \
  || fail "flow file does not balance"

# stdin, repeat, every back end.
out=$("$exe" --repeat 3 - < "$work/clrs.max")
grep -qx 'flow: 23' <<<"$out" || fail "stdin: $out"
out=$("$exe" -b all --check "$work/clrs.max")
grep -qx 'flow: 23' <<<"$out" || fail "all: $out"
if grep -q -e DISAGREES -e FAILED <<<"$out"; then fail "all: $out"; fi

# Errors: one line on stderr, non-zero exit.
set +e
"$exe" "$work/missing.max" 2> "$work/err"; rc=$?
[ $rc = 1 ] || fail "missing file exit $rc"
[ "$(wc -l < "$work/err")" = 1 ] || fail "missing file: $(cat "$work/err")"
printf 'p max 2 1\nn 1 s\nn 2 t\na 1 3 5\n' > "$work/bad.max"
"$exe" "$work/bad.max" 2> "$work/err"; rc=$?
[ $rc = 1 ] || fail "bad file exit $rc"
grep -q ':4' "$work/err" || fail "bad file error should name line 4: $(cat "$work/err")"
"$exe" --bogus 2> /dev/null; [ $? = 2 ] || fail "unknown option exit"
"$exe" -b nonexistent "$work/clrs.max" 2> "$work/err"; [ $? = 1 ] || fail "unknown backend exit"
grep -q "no back end called 'nonexistent'" "$work/err" || fail "unknown backend message"
"$exe" 2> /dev/null; [ $? = 2 ] || fail "no input exit"
set -e
echo "cli test: ok"
