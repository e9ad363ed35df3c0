#!/usr/bin/env bash
# gcut-stereo-moves: --help/--version, bad usage, and the move graphs it
# writes (a bundled image as both views) solve, through gcut-maxflow, to the
# flows it prints.
set -euo pipefail
moves=$1 maxflow=$2 img=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "stereo_moves.sh: $*" >&2; exit 1; }
"$moves" --help | head -n1 | grep -q '^usage: gcut-stereo-moves ' || fail "--help"
"$moves" --version | grep -q '^gcut-stereo-moves ' || fail "--version"
rc=0; "$moves" "$img" "$img" --ndisp 1 -o "$tmp" > /dev/null 2>&1 || rc=$?
[ $rc = 2 ] || fail "--ndisp 1: rc $rc"
rc=0; "$moves" "$img" "$img" --ndisp 4 -o "$tmp" --labels 9 > /dev/null 2>&1 || rc=$?
[ $rc = 2 ] || fail "a label out of range: rc $rc"
rc=0; "$moves" "$tmp/none.png" "$img" --ndisp 4 -o "$tmp" > /dev/null 2>&1 || rc=$?
[ $rc = 1 ] || fail "a missing image: rc $rc"
"$moves" "$img" "$img" --ndisp 6 --cycles 1 --labels 0,3,5 --name t -o "$tmp" > "$tmp/out"
[ "$(wc -l < "$tmp/out")" = 3 ] || fail "three files expected: $(cat "$tmp/out")"
while read -r line; do
  f=${line%%:*}
  want=$(sed -n 's/.*flow \([0-9]*\),.*/\1/p' <<<"$line")
  got=$("$maxflow" "$f" -b cpu-ref 2>/dev/null | sed -n 's/^flow: //p')
  [ -n "$want" ] && [ "$got" = "$want" ] || fail "$f: gcut-maxflow says flow '$got', the tool '$want'"
done < "$tmp/out"
echo "stereo_moves.sh: ok"
