#!/usr/bin/env bash
# gcut-seg: help text (golden), errors, and an end-to-end run on the
# sample images of images/ with a check of the mask.
set -euo pipefail
exe=$1; src=$2; root=$(dirname "$src")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$exe" --help > "$work/help.out"
diff -u "$src/golden/gcut-seg-help.out" "$work/help.out" || fail "--help differs from golden"
"$exe" --version | grep -qx 'gcut-seg [0-9][0-9.]*' || fail "--version: $("$exe" --version)"

# Gray seeds, one cut: mask, cut-out, overlay, dump; error against the truth.
out=$("$exe" "$root/images/shapes.png" --seeds "$root/images/shapes-seeds.png" \
      --gt "$root/images/shapes-gt.png" --out "$work/mask.png" --cutout "$work/cut.png" \
      --overlay "$work/over.png" --dump "$work/graph.max")
grep -qx 'size: 160x120' <<<"$out" || fail "size line: $out"
grep -qx 'iterations: 1' <<<"$out" || fail "iterations line: $out"
for k in load model build solve total; do
  grep -q "^$k: [0-9.]* ms\$" <<<"$out" || fail "$k line: $out"
done
err=$(echo "$out" | sed -n 's/^error: \([0-9.]*\) %$/\1/p')
[ -n "$err" ] && awk -v e="$err" 'BEGIN {exit !(e < 1.0)}' || fail "error too high: $out"
# The mask file: an 8-bit gray PNG of the image's size, 0 and 255 only,
# identical to the ground truth on at least 99% (checked by gcut-seg itself:
# reading the mask back as ground truth of a second run gives 0 differences).
[ "$(head -c 8 "$work/mask.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "mask is not a PNG"
out2=$("$exe" "$root/images/shapes.png" --seeds "$root/images/shapes-seeds.png" --gt "$work/mask.png")
echo "$out2" | grep -qx 'error: 0.000 %' || fail "mask read back differs: $out2"
head -3 "$work/graph.max" | grep -q '^p max ' || fail "dump has no problem line"
# --json, with --opt=value and glued short options.
"$exe" "$root/images/shapes.png" --seeds="$root/images/shapes-seeds.png" -c8 -bcpu-bk \
  --gt "$root/images/shapes-gt.png" --json | python3 -c 'import json,sys; d=json.load(sys.stdin)
assert d["width"] == 160 and d["height"] == 120 and d["iterations"] == 1, d
assert d["backend"] == "cpu-bk" and d["error_pct"] < 1.0 and 0.9 < d["iou"] <= 1, d
assert d["foreground"] > 0 and d["total_ms"] >= d["solve_ms"], d' || fail "--json"
# --json with the mask on stdout: the object goes to stderr.
"$exe" "$root/images/shapes.png" --seeds "$root/images/shapes-seeds.png" --out - --json \
  > "$work/m.png" 2> "$work/j"
[ "$(head -c 4 "$work/m.png" | od -An -tx1 | tr -d ' \n')" = 89504e47 ] || fail "--out - --json: stdout"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["status"] == "ok"' "$work/j" \
  || fail "--out - --json: stderr: $(cat "$work/j")"
[ -s "$work/cut.png" ] && [ -s "$work/over.png" ] || fail "cut-out or overlay missing"

# Colour scribbles and a GrabCut rectangle.
out=$("$exe" "$root/images/blob.png" --seeds "$root/images/blob-scribbles.png" --gt "$root/images/blob-gt.png")
err=$(echo "$out" | sed -n 's/^error: \([0-9.]*\) %$/\1/p')
awk -v e="$err" 'BEGIN {exit !(e < 2.0)}' || fail "scribbles error: $out"
out=$("$exe" "$root/images/blob.png" --rect 40,15,120,120 --grabcut 5 --conn 4 --gt "$root/images/blob-gt.png")
err=$(echo "$out" | sed -n 's/^error: \([0-9.]*\) %$/\1/p')
awk -v e="$err" 'BEGIN {exit !(e < 2.0)}' || fail "grabcut error: $out"
# --no-early-stop runs every iteration asked for (this image stops after 2).
out=$("$exe" "$root/images/blob.png" --rect 40,15,120,120 --grabcut 12 --conn 4)
grep -qx 'iterations: 12' <<<"$out" && fail "expected an early stop: $out"
out=$("$exe" "$root/images/blob.png" --rect 40,15,120,120 --grabcut 12 --conn 4 --no-early-stop)
grep -qx 'iterations: 12' <<<"$out" || fail "--no-early-stop: $out"

# Errors: a clear line on stderr and the documented exit status.
set +e
"$exe" "$root/images/shapes.png" 2> "$work/err"; [ $? = 2 ] || fail "no seeds: exit"
grep -q 'exactly one of --seeds and --rect' "$work/err" || fail "no seeds: $(cat "$work/err")"
"$exe" "$root/images/shapes.png" --rect 1,2,3 2> /dev/null; [ $? = 2 ] || fail "bad rect: exit"
"$exe" "$root/images/shapes.png" --rect 0,0,160,120 2> "$work/err"; [ $? = 1 ] || fail "full rect: exit"
grep -q 'no background' "$work/err" || fail "full rect: $(cat "$work/err")"
"$exe" "$work/missing.png" --rect 1,1,5,5 2> "$work/err"; [ $? = 1 ] || fail "missing image: exit"
[ "$(wc -l < "$work/err")" = 1 ] || fail "missing image: $(cat "$work/err")"
"$exe" "$root/images/shapes.png" --seeds "$root/images/blob-scribbles.png" 2> "$work/err"; [ $? = 1 ] || fail "size mismatch: exit"
grep -q '200 x 150' "$work/err" || fail "size mismatch: $(cat "$work/err")"
"$exe" "$root/images/shapes.png" --rect 1,1,5,5 --conn 6 2> /dev/null; [ $? = 2 ] || fail "bad conn: exit"
# The solve options reach the engine: an unknown engine setting is its
# error (exit 1, the key named); --cpu-energies and --time-limit change
# nothing here.
"$exe" "$root/images/shapes.png" --seeds "$root/images/shapes-seeds.png" -b cpu-bk \
  --params no_such_key=1 2> "$work/err"; [ $? = 1 ] || fail "bad params: exit"
grep -q 'no_such_key' "$work/err" || fail "bad params: $(cat "$work/err")"
"$exe" "$root/images/shapes.png" --rect 1,1,5,5 --time-limit 0 2> /dev/null; [ $? = 2 ] || fail "bad time limit: exit"
set -e
a=$("$exe" "$root/images/blob.png" --rect 40,15,120,120 -b cpu-bk | grep -E '^(energy|foreground):')
b=$("$exe" "$root/images/blob.png" --rect 40,15,120,120 -b cpu-bk --cpu-energies --time-limit 60 \
    --params "" -t 2 | grep -E '^(energy|foreground):')
[ "$a" = "$b" ] || fail "--cpu-energies / --time-limit changed the result: $a / $b"
set +e
"$exe" --bogus 2> /dev/null; [ $? = 2 ] || fail "unknown option exit"
echo ok
