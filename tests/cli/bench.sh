#!/usr/bin/env bash
# gcut-gen, gcut-gen-mtx, gcut-bench: the shared command-line conventions
# (getopt_long: --opt=value, glued short values, --, --help on stdout,
# --version with the back ends, usage errors exit 2 with "Try ...") and
# that the converted parsers still produce the same instances.
set -euo pipefail
gen=$1; mtx=$2; bench=$3; viewbench=${4:-}; root=${5:-}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
usage_error() { # TOOL ARGS...: exit 2, two lines, the second "Try ..."
  local tool=$1; shift
  set +e; "$tool" "$@" > "$work/o" 2> "$work/e"; local rc=$?; set -e
  [ $rc = 2 ] || fail "$(basename "$tool") $*: exit $rc"
  [ "$(wc -l < "$work/e")" = 2 ] || fail "$(basename "$tool") $*: $(cat "$work/e")"
  tail -n1 "$work/e" | grep -qx "Try '$(basename "$tool") --help'." || fail "$(basename "$tool") $*: $(cat "$work/e")"
}
for t in "$gen" "$mtx" "$bench"; do
  "$t" --help > "$work/h" 2> "$work/e" || fail "$t --help: exit $?"
  head -n1 "$work/h" | grep -q "^usage: $(basename "$t") " && [ ! -s "$work/e" ] || fail "$t --help"
  "$t" --version | grep -q '^  cpu-bk  *yes$' || fail "$t --version"
  usage_error "$t" --bogus
done

# gcut-gen: the same graph whatever the option forms; -o, --out=, -q.
"$gen" genrmf a=3 b=2 --seed 7 > "$work/a.max" 2> /dev/null
"$gen" --seed=7 -q -o "$work/b.max" genrmf:a=3,b=2
"$gen" -q --out="$work/c.max" -- genrmf a=3 b=2 seed=7
cmp -s "$work/a.max" "$work/b.max" && cmp -s "$work/a.max" "$work/c.max" || fail "gcut-gen forms differ"
grep -q '^p max ' "$work/a.max" || fail "gcut-gen output"
usage_error "$gen"
usage_error "$gen" nosuchfamily
usage_error "$gen" genrmf -o

# gcut-gen-mtx: stdout and -o give the same file.
"$mtx" powerlaw 20 30 50 3 0.9 > "$work/a.mtx"
"$mtx" -o "$work/b.mtx" powerlaw 20 30 50 3 0.9
cmp -s "$work/a.mtx" "$work/b.mtx" || fail "gcut-gen-mtx -o differs"
[ "$(sed -n 3p "$work/a.mtx")" = "20 30 50" ] || fail "gcut-gen-mtx size line"
usage_error "$mtx" random 3 3
usage_error "$mtx" sparse 3 3 3 1
usage_error "$mtx" random 3 3 3 1 -0.5x

# gcut-bench: --opt=value, -t1, -q; the flow of both back ends agrees.
out=$("$bench" -q --repeat=1 -t1 --backends=cpu-bk,cpu-ref --max-memory=1G genrmf:a=3,b=3)
[ "$(grep -c ' yes ' <<<"$out")" = 2 ] || fail "gcut-bench: $out"
usage_error "$bench"
usage_error "$bench" --repeat=0 genrmf:a=3,b=3
usage_error "$bench" --max-memory=lots genrmf:a=3,b=3
# gcut-view-bench (when built): the same conventions, a short run.
if [ -n "$viewbench" ]; then
  "$viewbench" --help | head -n1 | grep -q '^usage: gcut-view-bench ' || fail "gcut-view-bench --help"
  "$viewbench" --version | grep -q '^back ends:$' || fail "gcut-view-bench --version"
  usage_error "$viewbench" --bogus
  usage_error "$viewbench" --replay "$root/images/blob.strokes" -c5
  usage_error "$viewbench" "$root/images/blob.png"
  out=$("$viewbench" --replay="$root/images/blob.strokes" --mp=0.02 -c4 -bcpu-bk "$root/images/blob.png")
  grep -q '^backend: cpu-bk$' <<<"$out" || fail "gcut-view-bench run: $out"
  grep -Eq '^release masks \(FNV-1a of the 20, chained\): [0-9a-f]{16}$' <<<"$out" || fail "gcut-view-bench hash: $out"
fi
echo "bench tools: ok"
