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
"$exe" --version | grep -q '^  cpu-grid-pr  *yes$' || fail "--version: back ends: $("$exe" --version)"

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
# The left-right check is on by default (an lr-invalid line); --no-lr-check
# solves the left view only, --lr-check turns it back on.
grep -q '^lr-invalid: ' <<<"$out" || fail "no lr-invalid line by default: $out"
out1=$("$exe" "$work/left.pgm" "$work/right.pgm" --ndisp 8 --no-lr-check --quiet)
! grep -q '^lr-invalid: ' <<<"$out1" || fail "--no-lr-check: $out1"
out2=$("$exe" "$work/left.pgm" "$work/right.pgm" --ndisp 8 --no-lr-check --lr-check --quiet)
grep -q '^lr-invalid: ' <<<"$out2" || fail "--lr-check after --no-lr-check: $out2"

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

# Outputs other tools read, on a scene whose disparity changes with the row
# (top half 2, bottom half 5): PFM (Middlebury: "Pf", W H, -1.0, floats
# little-endian, rows bottom to top) and the visible 16-bit PNG (disparity *
# floor(65535 / (N - 1))), against each other and the truth.
awk -v W=40 -v H=32 -v dir="$work" 'BEGIN {
  s = 777
  for (y = 0; y < H; y++) for (x = 0; x < W + 8; x++) { s = (s * 1103515245 + 12345) % 2147483648; r[y, x] = int(s / 65536) % 256 }
  print "P2\n" W " " H "\n255" > dir "/v-right.pgm"
  print "P2\n" W " " H "\n255" > dir "/v-left.pgm"
  for (y = 0; y < H; y++) {
    lr = ""; ll = ""
    for (x = 0; x < W; x++) {
      d = (y < H / 2) ? 2 : 5; xr = x - d; if (xr < 0) xr = 0
      lr = lr " " r[y, x]; ll = ll " " r[y, xr]
    }
    print lr > dir "/v-right.pgm"; print ll > dir "/v-left.pgm"
  }
}'
out=$("$exe" "$work/v-left.pgm" "$work/v-right.pgm" -n8 --pfm="$work/d.pfm" --png16 "$work/d16.png" \
      --out "$work/d2.pfm" -q)
grep -qx 'png16-scale: 9362' <<<"$out" || fail "png16-scale: $out"
cmp -s "$work/d.pfm" "$work/d2.pfm" || fail "--out FILE.pfm differs from --pfm FILE"
"$exe" "$work/v-left.pgm" "$work/v-right.pgm" -n8 --pfm - -q > "$work/d3.pfm" 2> "$work/rep"
cmp -s "$work/d.pfm" "$work/d3.pfm" || fail "--pfm - differs from --pfm FILE"
grep -q '^energy: ' "$work/rep" || fail "--pfm -: the report should move to stderr"
python3 - "$work/d.pfm" "$work/d16.png" <<'PY' || fail "PFM / 16-bit PNG check"
import struct, sys, zlib
raw = open(sys.argv[1], 'rb').read()
parts = raw.split(b'\n', 3)
assert parts[0] == b'Pf', parts[0]
w, h = map(int, parts[1].split())
assert (w, h) == (40, 32), (w, h)
assert float(parts[2]) == -1.0, parts[2]
data = parts[3]
assert len(data) == w * h * 4, len(data)
v = struct.unpack('<%df' % (w * h), data)
rows = [v[i * w:(i + 1) * w] for i in range(h)]  # file order: bottom row first
med = lambda r: sorted(r)[len(r) // 2]
assert med(rows[0]) == 5.0 and med(rows[-1]) == 2.0, (rows[0], rows[-1])
# The 16-bit PNG: gray, 16 bits, top row first, disparity * 9362.
png = open(sys.argv[2], 'rb').read()
assert png[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat, ihdr = 8, b'', None
while pos < len(png):
    n, = struct.unpack('>I', png[pos:pos + 4]); t = png[pos + 4:pos + 8]
    if t == b'IHDR': ihdr = struct.unpack('>IIBBBBB', png[pos + 8:pos + 8 + n])
    if t == b'IDAT': idat += png[pos + 8:pos + 8 + n]
    pos += 12 + n
assert ihdr[:4] == (w, h, 16, 0) and ihdr[6] == 0, ihdr
z = zlib.decompress(idat); stride = 2 * w; prev = bytearray(stride); img = []
for y in range(h):
    f = z[y * (stride + 1)]; line = bytearray(z[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - 2] if i >= 2 else 0; b = prev[i]; c = prev[i - 2] if i >= 2 else 0
        p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
        pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
        line[i] = (line[i] + [0, a, b, (a + b) // 2, pr][f]) & 255
    img.append(struct.unpack('>%dH' % w, bytes(line))); prev = line
for y in range(h):
    for x in range(w):
        assert img[y][x] == int(rows[h - 1 - y][x]) * 9362, (x, y, img[y][x], rows[h - 1 - y][x])
PY
out=$("$exe" "$work/v-left.pgm" "$work/v-right.pgm" -n8 --png16 "$work/k.png" --png16-scale 256 -q)
grep -qx 'png16-scale: 256' <<<"$out" || fail "--png16-scale: $out"

# --json: one object with the report's figures.
"$exe" "$work/left.pgm" "$work/right.pgm" --ndisp=8 --gt "$work/gt.pgm" --gt-scale 16 --json -q \
  | python3 -c 'import json,sys; d=json.load(sys.stdin)
assert d["width"] == 64 and d["height"] == 48 and d["labels"] == 8, d
assert d["bad1_all_pct"] < 2.0 and len(d["cycle"]) == d["cycles"] and d["moves"] > 0, d
assert d["energy"] <= d["initial_energy"] and d["backend"] and d["status"] == "ok", d' \
  || fail "--json"
# The progress bar of the moves: forced on, drawn on stderr; by default
# (stderr not a terminal) nothing.
"$exe" "$work/left.pgm" "$work/right.pgm" -n 8 --progress=always > /dev/null 2> "$work/e"
grep -q 'cycle 1' "$work/e" && grep -q '%' "$work/e" && grep -q $'\r' "$work/e" \
  || fail "--progress=always: $(head -c 300 "$work/e")"
"$exe" "$work/left.pgm" "$work/right.pgm" -n 8 > /dev/null 2> "$work/e"
[ ! -s "$work/e" ] || fail "a bar on a non-terminal: $(head -c 300 "$work/e")"

set +e
"$exe" "$work/left.pgm" "$work/right.pgm" -n8 --out - 2> "$work/err"; [ $? = 2 ] || fail "--out -: exit"
"$exe" "$work/left.pgm" "$work/right.pgm" -n8 --pfm - --png16 - 2> "$work/err"; [ $? = 2 ] || fail "two outputs on stdout: exit"
"$exe" "$work/left.pgm" "$work/right.pgm" -n8 --pfm "$work/left.pgm" 2> "$work/err"; [ $? = 2 ] || fail "--pfm over an input: exit"
"$exe" "$work/left.pgm" "$work/right.pgm" -n8 --png16-scale 0 2> "$work/err"; [ $? = 2 ] || fail "--png16-scale 0: exit"
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
