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

# Command-line conventions (getopt_long, shared by every tool: demos/common).
"$exe" --help > "$work/h1" 2> "$work/h2" || fail "--help exit $?"
[ -s "$work/h1" ] && [ ! -s "$work/h2" ] || fail "--help should print on stdout only"
grep -q '^  -q, --quiet' "$work/h1" && grep -q -- '--max-memory SIZE' "$work/h1" \
  && grep -q -- '--json' "$work/h1" || fail "--help lacks the common options"
"$exe" --version > "$work/v" || fail "--version exit"
grep -q '^back ends:$' "$work/v" || fail "--version lists no back ends: $(cat "$work/v")"
grep -q '^  cpu-bk  *yes$' "$work/v" || fail "--version: cpu-bk: $(cat "$work/v")"
grep -Eq '^  cuda-csr  *(yes|no \(.+\))$' "$work/v" || fail "--version: cuda-csr: $(cat "$work/v")"
for form in "--backend=cpu-bk" "--backend cpu-bk" "-bcpu-bk" "-b cpu-bk" "--back=cpu-bk"; do
  # shellcheck disable=SC2086
  out=$("$exe" $form "$work/clrs.max") || fail "$form: exit $?"
  grep -qx 'backend: cpu-bk (named by the caller)' <<<"$out" || fail "$form: $out"
done
out=$("$exe" -r3 -t1 "$work/clrs.max") && grep -qx 'flow: 23' <<<"$out" || fail "-r3 -t1: $out"
out=$("$exe" --repeat=2 --threads=1 "$work/clrs.max") || fail "--repeat=2"
out=$("$exe" "$work/clrs.max" -b cpu-ref) && grep -q '^backend: cpu-ref' <<<"$out" || fail "option after the file"
# `--` ends the options: a file named like an option.
cp "$work/clrs.max" "$work/-b"
out=$(cd "$work" && "$exe" -- -b) && grep -qx 'flow: 23' <<<"$out" || fail "-- FILE: $out"
# Usage errors: exit 2, the message and "Try '... --help'." on stderr.
set +e
for bad in --bogus -Z "--backend" "--threads=x" "--time-limit=0" "--max-memory=12X" \
           "--max-memory=-1" "--max-memory=1e30" "--progress=sometimes" "--repeat=0"; do
  "$exe" $bad "$work/clrs.max" > "$work/o" 2> "$work/err"; rc=$?
  [ $rc = 2 ] || fail "$bad: exit $rc"
  [ ! -s "$work/o" ] || fail "$bad: wrote to stdout"
  [ "$(wc -l < "$work/err")" = 2 ] || fail "$bad: stderr: $(cat "$work/err")"
  head -n1 "$work/err" | grep -q '^gcut-maxflow: ' || fail "$bad: $(cat "$work/err")"
  tail -n1 "$work/err" | grep -qx "Try 'gcut-maxflow --help'." || fail "$bad: $(cat "$work/err")"
done
set -e
{ "$exe" --bogus 2>&1 || true; } | grep -qx "gcut-maxflow: unknown or ambiguous option: --bogus" || fail "--bogus message"

# --json: one object with the figures of the text report.
"$exe" --json -b cpu-ref --check "$work/clrs.max" > "$work/j"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
assert d["flow"] == 23 and d["nodes"] == 6 and d["backend"] == "cpu-ref", d
assert d["check"] == "ok" and d["status"] == "ok" and d["solve_ms"] >= 0 and d["parse_ms"] >= 0, d
assert "reason" in d and "total_ms" in d and "build_ms" in d, d' "$work/j" || fail "--json: $(cat "$work/j")"
"$exe" --json -b all "$work/clrs.max" | python3 -c 'import json,sys; d=json.load(sys.stdin)
names=[b["name"] for b in d["backends"]]
assert "cpu-bk" in names and d["flow"] == 23, d
assert all(b["flow"] == 23 for b in d["backends"] if b["status"] == "ok"), d' || fail "--json -b all"
"$exe" --json -l | python3 -c 'import json,sys; d=json.load(sys.stdin)
b={x["name"]: x for x in d["backends"]}
assert b["cpu-bk"]["available"] == 1 and b["cpu-bk"]["reason"] is None, d
assert b["cuda-csr"]["available"] == 1 or b["cuda-csr"]["reason"], d' || fail "--json -l"
# With an output on stdout the JSON goes to stderr, never mixed with it.
"$exe" --json --flow - "$work/clrs.max" > "$work/o" 2> "$work/e"
grep -qx 's 23' "$work/o" && ! grep -q '{' "$work/o" || fail "--json --flow -: stdout: $(cat "$work/o")"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["flow"] == 23' "$work/e" \
  || fail "--json --flow -: stderr: $(cat "$work/e")"
# A failure is an object too, with the message.
set +e
"$exe" --json "$work/missing.max" > "$work/o" 2> /dev/null; rc=$?
set -e
[ $rc = 1 ] || fail "--json missing file: exit $rc"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
assert d["status"] == "error" and d["exit"] == 1 and "missing.max" in d["error"], d' "$work/o" \
  || fail "--json failure: $(cat "$work/o")"

# --max-memory: sizes with units, passed to gcut_set_max_memory (reported in the JSON).
# Budgets below the reader's 1 MiB block fail (exit 1, the budget named);
# the JSON still reports the budget parsed.
for pair in 1000:1000 2K:2048 512M:536870912 4G:4294967296 1.5GiB:1610612736 3MB:3000000 \
            1kib:1024 7b:7 1T:1099511627776; do
  got=$("$exe" --json --max-memory "${pair%%:*}" "$work/clrs.max" 2>"$work/mm.err" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["max_memory"])') || :
  [ "$got" = "${pair#*:}" ] || fail "--max-memory ${pair%%:*}: $got, want ${pair#*:}"
  if [ "${pair#*:}" -lt 2000000 ]; then
    grep -q 'memory budget' "$work/mm.err" || fail "--max-memory ${pair%%:*}: $(cat "$work/mm.err")"
  fi
done

# The progress bar: forced on, it is drawn on stderr (\r, [, the phase) and
# cleared; auto with stderr not a terminal, or --quiet, or never: nothing.
"$exe" --progress=always "$work/clrs.max" > /dev/null 2> "$work/e"
grep -q $'\r\\[' "$work/e" && grep -q 'read' "$work/e" || fail "--progress=always: $(od -c "$work/e" | head)"
[ "$(tail -c 1 "$work/e")" = $'\r' ] || fail "--progress=always: the bar is not cleared at the end"
for p in "" --progress=auto --progress=never "--progress=auto -q" -q; do
  # shellcheck disable=SC2086
  "$exe" $p "$work/clrs.max" > /dev/null 2> "$work/e"
  [ ! -s "$work/e" ] || fail "progress '$p' on a non-terminal: $(od -c "$work/e" | head)"
done

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
