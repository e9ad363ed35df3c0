#!/usr/bin/env bash
# gcut-view (scripted mode, no display needed): help text (golden), replay
# of the bundled stroke file with SDL's dummy video driver, the mask against
# gcut-seg's from the same seeds, the screenshot's size and content; then
# the same in a real X window under Xvfb when xvfb-run is installed.
# Arguments: gcut-view, gcut-seg, tests/, and the helper gcut-view-inspect
# (tests/view_inspect.c: a PNG's size and colour statistics).
set -euo pipefail
exe=$1; seg=$2; src=$3; inspect=$4; root=$(dirname "$src")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
img="$root/images/blob.png"; strokes="$root/images/blob.strokes"

"$exe" --help > "$work/help.out"
diff -u "$src/golden/gcut-view-help.out" "$work/help.out" || fail "--help differs from golden"
"$exe" --version | grep -qx 'gcut-view [0-9][0-9.]*' || fail "--version: $("$exe" --version)"
"$exe" --version | grep -q '^back ends: .*cpu-bk' || fail "--version back ends: $("$exe" --version)"
"$exe" -h | cmp -s - "$src/golden/gcut-view-help.out" || fail "-h differs from --help"

# Replay without any display.
out=$(env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=dummy "$exe" "$img" --replay "$strokes" \
      --zoom 2 --out "$work/mask.png" --seeds-out "$work/seeds.png" --cutout "$work/cut.png" \
      --screenshot "$work/shot.png")
grep -qx 'video: dummy' <<<"$out" || fail "video driver: $out"
grep -qx 'strokes: 6' <<<"$out" || fail "strokes: $out"
grep -qx "screenshot: $work/shot.png (400x300)" <<<"$out" || fail "screenshot line: $out"
[ -s "$work/cut.png" ] || fail "no cut-out"

# The default release updates the models from the seeds that changed
# (gcut_seg_session_update_models); with --models full each release
# re-learns them from all the seeds, and the mask is gcut-seg's from the
# seeds the strokes imply (0 differences), which is close to the truth.
# The updated models' mask differs from it by under 1 % of the pixels (on
# blob.strokes not at all: each stroke changes its class's seeds by more
# than half, so every update re-fits that class as a new session would).
SDL_VIDEODRIVER=dummy "$exe" "$img" --replay "$strokes" --models full --out "$work/full.png" \
  --seeds-out "$work/seeds-full.png" > /dev/null
cmp -s "$work/seeds.png" "$work/seeds-full.png" || fail "--models full: other seeds"
cmp=$("$seg" "$img" --seeds "$work/seeds.png" --gt "$work/full.png")
grep -qx 'error: 0.000 %' <<<"$cmp" || fail "--models full: mask differs from gcut-seg: $cmp"
cmp=$("$seg" "$img" --seeds "$work/seeds.png" --gt "$work/mask.png")
err=$(echo "$cmp" | sed -n 's/^error: \([0-9.]*\) %$/\1/p')
awk -v e="$err" 'BEGIN {exit !(e < 1.0)}' || fail "updated models: $err % from gcut-seg: $cmp"
gt=$("$seg" "$img" --seeds "$work/seeds.png" --gt "$root/images/blob-gt.png")
err=$(echo "$gt" | sed -n 's/^error: \([0-9.]*\) %$/\1/p')
awk -v e="$err" 'BEGIN {exit !(e < 2.0)}' || fail "error against the truth: $gt"

# The screenshot: the right size, not blank or black, with the overlay
# (green boundary pixels, blue-tinted background).
check_shot() { # file width height
  local s; s=$("$inspect" "$1")
  grep -qx "size: $2x$3" <<<"$s" || fail "$1: size: $s"
  local sd; sd=$(echo "$s" | sed -n 's/^stddev: //p')
  local mean; mean=$(echo "$s" | sed -n 's/^mean: //p')
  local bnd; bnd=$(echo "$s" | sed -n 's/^boundary: //p')
  local tint; tint=$(echo "$s" | sed -n 's/^tinted: //p')
  local col; col=$(echo "$s" | sed -n 's/^colours: //p')
  awk -v m="$mean" -v d="$sd" -v c="$col" 'BEGIN {exit !(m > 20 && m < 235 && d > 5 && c > 100)}' \
    || fail "$1 looks blank or black: $s"
  [ "$bnd" -gt $(( ($2 + $3) / 2 )) ] || fail "$1: no boundary overlay: $s"
  [ "$tint" -gt $(( $2 * $3 / 4 )) ] || fail "$1: no background overlay: $s"
}
check_shot "$work/shot.png" 400 300

# Stroke files: --record writes what --replay reads (same mask again).
printf 'fg 2 100 70 100 80\nbg 3 5 5 195 5\n' > "$work/a.strokes"
SDL_VIDEODRIVER=dummy "$exe" "$img" --replay "$work/a.strokes" --record "$work/b.strokes" \
  --out "$work/a.png" > /dev/null
SDL_VIDEODRIVER=dummy "$exe" "$img" --replay "$work/b.strokes" --out "$work/b.png" > /dev/null
cmp -s "$work/a.png" "$work/b.png" || fail "recorded strokes replay differently"
grep -qx 'fg 2 100 70 100 80' "$work/b.strokes" || fail "record: $(cat "$work/b.strokes")"

# Option conventions (getopt_long): --opt=value and --opt value give the
# same mask, -- ends the options, usage errors are one line and exit 2.
SDL_VIDEODRIVER=dummy "$exe" --replay="$strokes" --out="$work/eq.png" -l50 -- "$img" > /dev/null
cmp -s "$work/eq.png" "$work/mask.png" || fail "--opt=value replay differs"

# Errors: a clear line and the documented exit status.
set +e
bad_line() { # stroke line, expected message (after FILE:1: )
  printf '%s\n' "$1" > "$work/bad.strokes"
  SDL_VIDEODRIVER=dummy "$exe" "$img" --replay "$work/bad.strokes" --out "$work/bad.png" \
    2> "$work/err" > /dev/null
  [ $? = 1 ] || fail "bad stroke line '$1': exit"
  grep -q "bad.strokes:1: " "$work/err" && grep -qF "$2" "$work/err" \
    || fail "bad stroke line '$1': $(cat "$work/err")"
  [ ! -e "$work/bad.png" ] || fail "bad stroke line '$1' wrote a mask"
}
bad_line 'fg 2 1' "malformed stroke line: field 4 (y of point 1): missing; points are x y pairs"
bad_line 'fg x 1 1' "malformed stroke line: field 2 (radius): expected an integer in 0..200, got 'x'"
bad_line 'bg 201 1 1' "field 2 (radius): expected an integer in 0..200, got '201'"
bad_line 'fg 3' "field 3 (x of point 1): missing; a stroke needs at least one point"
bad_line 'fg 3 1 2 3 z' "field 6 (y of point 2): expected an integer in -16777216..16777216, got 'z'"
bad_line 'rect 1 2 3' "malformed rect line: field 5 (H): missing; expected 'rect X Y W H'"
bad_line 'rect 10 0 191 5' "field 4 (W): expected an integer in 1..190, got '191' (the image is 200x150)"
bad_line 'rect 0 0 200 150' "the rectangle covers the whole 200x150 image: no background left"
bad_line 'rect 0 0 5 5 9' "field 6: unexpected '9' after 'rect X Y W H'"
bad_line 'blob 1' "unknown item 'blob' (expected fg, bg or rect)"
"$exe" "$img" --out x.png 2> "$work/err"; [ $? = 2 ] || fail "--out without --replay: exit"
"$exe" --bogus 2> "$work/err"; [ $? = 2 ] || fail "unknown option: exit"
[ "$(wc -l < "$work/err")" = 1 ] || fail "usage error not one line: $(cat "$work/err")"
grep -qx "gcut-view: unknown option: --bogus (see gcut-view --help)" "$work/err" \
  || fail "unknown option: $(cat "$work/err")"
"$exe" --lambda 2> "$work/err"; [ $? = 2 ] || fail "--lambda without a value: exit"
grep -qx "gcut-view: option needs a value: --lambda (see gcut-view --help)" "$work/err" \
  || fail "missing value: $(cat "$work/err")"
"$exe" --models fast 2> "$work/err"; [ $? = 2 ] || fail "--models fast: exit"
grep -q "^gcut-view: --models takes update, full or keep, not" "$work/err" \
  || fail "--models fast: $(cat "$work/err")"

# A failed cut stops the replay: the library's message, exit 1, no mask.
SDL_VIDEODRIVER=dummy "$exe" "$img" --replay "$strokes" --out "$work/nope.png" -b nope \
  2> "$work/err" > /dev/null
[ $? = 1 ] || fail "failed cut: exit"
grep -q "blob.strokes: stroke 1 of 6: .*no back end called 'nope'" "$work/err" \
  || fail "failed cut: $(cat "$work/err")"
[ ! -e "$work/nope.png" ] || fail "failed cut wrote a mask"

# SIGINT and SIGTERM stop a long replay cleanly: 128 + the signal, nothing
# written, an old output left as it was (a 900x700 noise image, GrabCut
# rectangles: a replay of many seconds).
{ printf 'P6\n900 700\n255\n'; head -c $((900 * 700 * 3)) /dev/urandom; } > "$work/noise.ppm"
for i in 1 2 3 4 5 6; do printf 'rect %d %d 700 500\nfg 4 450 350 460 350\n' $((10 * i)) $((10 * i)); done \
  > "$work/long.strokes"
for sig in INT TERM; do
  echo old > "$work/long.png"
  SDL_VIDEODRIVER=dummy timeout --preserve-status -s $sig 1 "$exe" "$work/noise.ppm" \
    --replay "$work/long.strokes" --out "$work/long.png" --zoom 0.5 2> "$work/err" > /dev/null
  rc=$?
  want=$([ $sig = INT ] && echo 130 || echo 143)
  [ $rc = "$want" ] || fail "SIG$sig: exit $rc, wanted $want: $(cat "$work/err")"
  grep -qx "gcut-view: interrupted by SIG$sig: nothing written" "$work/err" \
    || fail "SIG$sig: $(cat "$work/err")"
  [ "$(cat "$work/long.png")" = old ] || fail "SIG$sig: the old output was replaced"
done
set -e

# A real window under Xvfb: the window's pixels are the screenshot's.
if command -v xvfb-run > /dev/null; then
  # The X11, D-Bus and GL libraries SDL loads keep allocations to the end of
  # the process; in sanitizer builds LeakSanitizer would blame them on us, so
  # leak checking is off for this one real-window run (the dummy-driver runs
  # above keep it on and cover our own code).
  out=$(env -u SDL_VIDEODRIVER ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" timeout 120 xvfb-run -a -s "-screen 0 1280x1024x24" "$exe" "$img" \
        --replay "$strokes" --out "$work/xmask.png" --screenshot "$work/xshot.png")
  grep -qx 'video: x11' <<<"$out" || fail "xvfb video driver: $out"
  grep -qx 'window: 1000x750, 0 pixels differ from the screenshot' <<<"$out" \
    || fail "xvfb window: $out"
  cmp -s "$work/xmask.png" "$work/mask.png" || fail "xvfb mask differs"
  check_shot "$work/xshot.png" 1000 750
else
  echo "SKIP: xvfb-run not installed (apt-get install xvfb xauth): no real-window test"
fi
echo ok
