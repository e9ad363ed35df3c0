#!/usr/bin/env bash
# gcut-stereo: help text (golden), errors, and a run on a tiny synthetic
# pair (a random texture; left half at disparity 2, right half at 5) whose
# ground truth the run must recover.
set -euo pipefail
exe=$1; src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$exe" --help > "$work/help.out"
diff -u "$src/golden/gcut-stereo-help.out" "$work/help.out" || fail "--help differs from golden"
"$exe" --version | grep -qx 'gcut-stereo [0-9][0-9.]*' || fail "--version: $("$exe" --version)"

# Right image: random texture R(x, y). Left: L(x, y) = R(x - d, y), d = 2 on
# the left half and 5 on the right half. Ground truth: d * 16.
awk -v W=64 -v H=48 -v dir="$work" 'BEGIN {
  s = 12345
  for (y = 0; y < H; y++) for (x = 0; x < W + 8; x++) { s = (s * 1103515245 + 12345) % 2147483648; r[y, x] = int(s / 65536) % 256 }
  print "P2\n" W " " H "\n255" > dir "/right.pgm"
  print "P2\n" W " " H "\n255" > dir "/left.pgm"
  print "P2\n" W " " H "\n255" > dir "/gt.pgm"
  for (y = 0; y < H; y++) {
    lr = ""; ll = ""; lg = ""
    for (x = 0; x < W; x++) {
      d = (x < W / 2) ? 2 : 5; xr = x - d; if (xr < 0) xr = 0
      lr = lr " " r[y, x]; ll = ll " " r[y, xr]; lg = lg " " (x >= 8 ? d * 16 : 0)
    }
    print lr > dir "/right.pgm"; print ll > dir "/left.pgm"; print lg > dir "/gt.pgm"
  }
}'
out=$("$exe" "$work/left.pgm" "$work/right.pgm" --ndisp 8 --gt "$work/gt.pgm" --gt-scale 16 \
      --out "$work/disp.png" --quiet)
grep -qx 'size: 64x48' <<<"$out" || fail "size line: $out"
grep -q '^energy: [0-9]*$' <<<"$out" || fail "energy line: $out"
bad=$(echo "$out" | sed -n 's/^bad1-all: \([0-9.]*\) %$/\1/p')
[ -n "$bad" ] && awk -v e="$bad" 'BEGIN {exit !(e < 2.0)}' || fail "bad pixels: $out"
[ -s "$work/disp.png" ] && [ -s "$work/disp-16.png" ] || fail "disparity files missing"

# The left-right check, on a scene a camera could see: a strip at disparity
# 5 (left columns 32 .. 47) in front of a background at 2. Right of the
# strip's left edge by less than 5 - 2 the right view shows the strip, so
# left columns 29 .. 31 are occluded (truth 2, the background); columns 0
# and 1 have no match. Both are filled, and must get the background.
awk -v W=64 -v H=48 -v dir="$work" 'BEGIN {
  s = 4242
  for (y = 0; y < H; y++) for (x = 0; x < W; x++) {
    s = (s * 1103515245 + 12345) % 2147483648; bg[y, x] = int(s / 65536) % 256
    s = (s * 1103515245 + 12345) % 2147483648; fg[y, x] = int(s / 65536) % 256 }
  print "P2\n" W " " H "\n255" > dir "/occ-right.pgm"
  print "P2\n" W " " H "\n255" > dir "/occ-left.pgm"
  print "P2\n" W " " H "\n255" > dir "/occ-gt.pgm"
  for (y = 0; y < H; y++) {
    lr = ""; ll = ""; lg = ""
    for (x = 0; x < W; x++) {
      lr = lr " " ((x >= 27 && x < 43) ? fg[y, x] : bg[y, x])
      if (x >= 32 && x < 48) { ll = ll " " fg[y, x - 5]; lg = lg " " 80 }
      else { xr = x - 2; if (xr < 0) xr = 0; ll = ll " " bg[y, xr]; lg = lg " " 32 }
    }
    print lr > dir "/occ-right.pgm"; print ll > dir "/occ-left.pgm"; print lg > dir "/occ-gt.pgm"
  }
}'
out=$("$exe" "$work/occ-left.pgm" "$work/occ-right.pgm" --ndisp 8 --gt "$work/occ-gt.pgm" \
      --gt-scale 16 --lr-check --out "$work/occ.png" --quiet)
inv=$(echo "$out" | sed -n 's/^lr-invalid: \([0-9.]*\) %$/\1/p')
# 5 of 64 columns are invalid by construction: 7.8 %.
[ -n "$inv" ] && awk -v e="$inv" 'BEGIN {exit !(e > 6 && e < 10)}' || fail "lr-invalid: $out"
bad=$(echo "$out" | sed -n 's/^bad1-all: \([0-9.]*\) %$/\1/p')
[ -n "$bad" ] && awk -v e="$bad" 'BEGIN {exit !(e < 0.5)}' || fail "lr bad pixels: $out"

set +e
"$exe" "$work/left.pgm" "$work/right.pgm" 2> "$work/err"; [ $? = 2 ] || fail "no ndisp: exit"
grep -q 'ndisp is required' "$work/err" || fail "no ndisp: $(cat "$work/err")"
"$exe" "$work/left.pgm" "$work/right.pgm" --ndisp 8 --cost bogus 2> /dev/null; [ $? = 2 ] || fail "bad cost: exit"
"$exe" "$work/missing.pgm" "$work/right.pgm" --ndisp 8 2> "$work/err"; [ $? = 1 ] || fail "missing: exit"
"$exe" "$work/left.pgm" "$work/right.pgm" --ndisp 8 --lr-median 9 2> "$work/err"; [ $? = 2 ] || fail "bad median: exit"
grep -q 'lr-median must be in 0 .. 5' "$work/err" || fail "bad median: $(cat "$work/err")"
# The move solves' options reach the engine: an unknown engine setting is
# its error, named; a bad time limit is bad usage.
"$exe" "$work/left.pgm" "$work/right.pgm" --ndisp 8 -b cpu-bk --params no_such_key=1 -q \
  2> "$work/err"; [ $? = 1 ] || fail "bad params: exit"
grep -q 'no_such_key' "$work/err" || fail "bad params: $(cat "$work/err")"
"$exe" "$work/left.pgm" "$work/right.pgm" --ndisp 8 --time-limit -1 2> /dev/null; [ $? = 2 ] || fail "bad time limit: exit"
"$exe" "$work/left.pgm" "$work/right.pgm" --ndisp 8 --threads x 2> /dev/null; [ $? = 2 ] || fail "bad threads: exit"
"$exe" --bogus 2> /dev/null; [ $? = 2 ] || fail "unknown option exit"
echo ok
