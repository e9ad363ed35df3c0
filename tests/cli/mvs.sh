#!/usr/bin/env bash
# gcut-mvs: help text (golden), usage and input errors, a multi-baseline run
# on a tiny synthetic scene (three views of a random texture; left half at
# disparity 2, right half at 5) whose ground truth it must recover, and a
# plane sweep on the same scene described as three calibrated cameras.
set -euo pipefail
exe=$1; src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$exe" --help > "$work/help.out"
diff -u "$src/golden/gcut-mvs-help.out" "$work/help.out" || fail "--help differs from golden"
"$exe" --version | grep -qx 'gcut-mvs [0-9][0-9.]*' || fail "--version: $("$exe" --version)"

# The reference shows texture T(x, y); the view of baseline b shows
# T(x + b d(x), y) with d = 2 left of x = 32 and 5 right of it (the nearer
# right half occludes). Ground truth: d * 16 (0 for the 8 border columns).
awk -v W=64 -v H=40 -v dir="$work" 'BEGIN {
  s = 4242
  for (y = 0; y < H; y++) for (x = -20; x < W + 20; x++) { s = (s * 1103515245 + 12345) % 2147483648; t[y, x] = int(s / 65536) % 256 }
  n = split("-1 0 1", bs, " ")
  for (i = 1; i <= n; i++) {
    f = dir "/v" i ".pgm"; print "P2\n" W " " H "\n255" > f
    for (y = 0; y < H; y++) {
      line = ""
      for (x = 0; x < W; x++) {
        b = bs[i]; xr = x + b * 5
        d = (xr >= 32) ? 5 : 2
        line = line " " t[y, x + b * d]
      }
      print line > f
    }
  }
  print "P2\n" W " " H "\n255" > dir "/gt.pgm"
  for (y = 0; y < H; y++) { line = ""; for (x = 0; x < W; x++) line = line " " ((x < 8 || x >= W - 8) ? 0 : ((x >= 32) ? 80 : 32)); print line > dir "/gt.pgm" }
}'
out=$("$exe" --views "$work/v1.pgm,$work/v2.pgm,$work/v3.pgm" --baselines -1,0,1 --ndisp 8 \
      --gt "$work/gt.pgm" --gt-scale 16 --out "$work/disp.png" --quiet)
grep -qx 'size: 64x40' <<<"$out" || fail "size line: $out"
grep -qx 'views: 3' <<<"$out" || fail "views line: $out"
grep -q '^energy: [0-9]*$' <<<"$out" || fail "energy line: $out"
bad=$(echo "$out" | sed -n 's/^bad1-all: \([0-9.]*\) %$/\1/p')
[ -n "$bad" ] && awk -v e="$bad" 'BEGIN {exit !(e < 2.0)}' || fail "bad pixels: $out"
[ -s "$work/disp.png" ] && [ -s "$work/disp-16.png" ] || fail "disparity files missing"

# The same views as calibrated cameras: f = 100, centres at x = -0.1, 0, 0.1
# (R = I, t = -C), so disparity d is depth 10 / d: 5 and 2.
{
  echo 3
  for i in 1 2 3; do
    cx=$(awk -v i=$i 'BEGIN { printf "%.1f", (i - 2) * 0.1 }')
    echo "v$i.pgm 100 0 32 0 100 20 0 0 1 1 0 0 0 1 0 0 0 1 $(awk -v c=$cx 'BEGIN { printf "%g", -c }') 0 0"
  done
} > "$work/cams_par.txt"
out=$("$exe" --cameras "$work/cams_par.txt" --ref v2.pgm --neighbours 2 --depth-range 1.5,8 \
      --depths 24 --out "$work/depth.png" --ply "$work/pts.ply" --quiet)
grep -qx 'neighbours: v1.pgm v3.pgm\|neighbours: v3.pgm v1.pgm' <<<"$out" || fail "neighbours: $out"
grep -qx 'depth-range: 1.5 8' <<<"$out" || fail "range: $out"
grep -qx 'masked: 0' <<<"$out" || fail "masked: $out"
[ -s "$work/depth.png" ] && [ -s "$work/depth-16.png" ] || fail "depth files missing"
grep -qx 'element vertex 2560' "$work/pts.ply" || fail "ply header"

# --json in both modes; the sweep's depths as PFM (64 x 40 floats, within
# the depth range); --opt=value forms.
"$exe" --views="$work/v1.pgm,$work/v2.pgm,$work/v3.pgm" --baselines=-1,0,1 -n8 --json -q \
      --gt "$work/gt.pgm" --gt-scale=16 | python3 -c 'import json,sys; d=json.load(sys.stdin)
assert d["width"] == 64 and d["views"] == 3 and d["bad1_all_pct"] < 2.0 and d["wall_ms"] > 0, d' \
  || fail "multi-baseline --json"
"$exe" --cameras "$work/cams_par.txt" --ref v2.pgm --neighbours 2 --depth-range 1.5,8 \
  --depths 24 --pfm "$work/depth.pfm" --json -q | python3 -c 'import json,sys; d=json.load(sys.stdin)
assert sorted(d["neighbours"]) == ["v1.pgm", "v3.pgm"] and d["znear"] == 1.5 and d["zfar"] == 8, d
assert d["masked"] == 0 and d["depth16_scale"] > 0, d' || fail "sweep --json"
python3 - "$work/depth.pfm" <<'PY' || fail "sweep PFM"
import struct, sys
raw = open(sys.argv[1], 'rb').read()
head, dims, scale, data = raw.split(b'\n', 3)
assert head == b'Pf' and dims == b'64 40' and scale == b'-1.0', (head, dims, scale)
v = struct.unpack('<2560f', data)
assert all(1.5 <= x <= 8 for x in v), min(v)
PY

set +e
"$exe" 2> "$work/err"; [ $? = 2 ] || fail "no mode: exit"
grep -q 'give --views' "$work/err" || fail "no mode: $(cat "$work/err")"
"$exe" --views "$work/v1.pgm,$work/v2.pgm" --baselines 0,1 2> "$work/err"; [ $? = 2 ] || fail "no ndisp: exit"
grep -q 'ndisp is required' "$work/err" || fail "no ndisp: $(cat "$work/err")"
"$exe" --views "$work/v1.pgm,$work/v2.pgm" --baselines 1,2 --ndisp 8 2> "$work/err"; [ $? = 2 ] || fail "no ref: exit"
grep -q 'baseline 0' "$work/err" || fail "no ref: $(cat "$work/err")"
"$exe" --views "$work/v1.pgm,$work/v2.pgm" --baselines 0,1,2 --ndisp 8 2> "$work/err"; [ $? = 2 ] || fail "count: exit"
grep -q '2 views but 3 baselines' "$work/err" || fail "count: $(cat "$work/err")"
"$exe" --views "$work/v1.pgm,$work/v2.pgm" --baselines 0,x --ndisp 8 2> /dev/null; [ $? = 2 ] || fail "bad number: exit"
"$exe" --views "$work/v1.pgm,$work/missing.pgm" --baselines 0,1 --ndisp 8 2> "$work/err"; [ $? = 1 ] || fail "missing: exit"
grep -q 'missing.pgm' "$work/err" || fail "missing: $(cat "$work/err")"
"$exe" --views a,b --cameras c 2> /dev/null; [ $? = 2 ] || fail "two modes: exit"
"$exe" --cameras "$work/cams_par.txt" --ref nope.png 2> "$work/err"; [ $? = 1 ] || fail "unknown ref: exit"
grep -q 'no camera named nope.png' "$work/err" || fail "unknown ref: $(cat "$work/err")"
printf '2\nv1.pgm 1 2 3\n' > "$work/bad_par.txt"
"$exe" --cameras "$work/bad_par.txt" --ref v1.pgm 2> "$work/err"; [ $? = 1 ] || fail "bad cameras: exit"
grep -q 'bad_par.txt:2: 3 numbers after the name, expected 21' "$work/err" || fail "bad cameras: $(cat "$work/err")"
"$exe" --cameras "$work/cams_par.txt" --ref v2.pgm --neighbours 5 2> "$work/err"; [ $? = 1 ] || fail "neighbours: exit"
"$exe" --cameras "$work/cams_par.txt" --ref v2.pgm --gt x 2> /dev/null; [ $? = 2 ] || fail "gt with sweep: exit"
"$exe" --views "$work/v1.pgm,$work/v2.pgm" --baselines 0,1 --ndisp 8 -b cpu-bk \
  --params no_such_key=1 -q 2> "$work/err"; [ $? = 1 ] || fail "bad params: exit"
grep -q 'no_such_key' "$work/err" || fail "bad params: $(cat "$work/err")"
"$exe" --cameras "$work/cams_par.txt" --ref v2.pgm --png16 x.png 2> /dev/null; [ $? = 2 ] || fail "png16 with sweep: exit"
"$exe" --bogus 2> /dev/null; [ $? = 2 ] || fail "unknown option exit"
set -e
# The demos that need data from outside the repository say so in --help.
for demo in "$src"/../demos/mvs-*.sh; do
  case $demo in *mvs-common.sh) continue ;; esac
  h=$(bash "$demo" --help) || fail "$demo --help: exit"
  grep -q 'needs data that is not in the repository' <<<"$h" || fail "$demo --help: $h"
  bash "$demo" --version | grep -q 'gcut [0-9]' || fail "$demo --version"
done
echo ok
