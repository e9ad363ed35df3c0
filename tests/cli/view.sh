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

# Replay without any display.
out=$(env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=dummy "$exe" "$img" --replay "$strokes" \
      --zoom 2 --out "$work/mask.png" --seeds-out "$work/seeds.png" --cutout "$work/cut.png" \
      --screenshot "$work/shot.png")
grep -qx 'video: dummy' <<<"$out" || fail "video driver: $out"
grep -qx 'strokes: 6' <<<"$out" || fail "strokes: $out"
grep -qx "screenshot: $work/shot.png (400x300)" <<<"$out" || fail "screenshot line: $out"
[ -s "$work/cut.png" ] || fail "no cut-out"

# The mask is gcut-seg's from the seeds the strokes imply (0 differences),
# and close to the truth.
cmp=$("$seg" "$img" --seeds "$work/seeds.png" --gt "$work/mask.png")
grep -qx 'error: 0.000 %' <<<"$cmp" || fail "mask differs from gcut-seg: $cmp"
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

# Errors: a clear line and the documented exit status.
set +e
printf 'fg 2 1\n' > "$work/bad.strokes"
SDL_VIDEODRIVER=dummy "$exe" "$img" --replay "$work/bad.strokes" 2> "$work/err" > /dev/null
[ $? = 1 ] || fail "bad stroke file: exit"
grep -q 'bad.strokes:1: malformed stroke line' "$work/err" || fail "bad stroke: $(cat "$work/err")"
"$exe" "$img" --out x.png 2> /dev/null; [ $? = 2 ] || fail "--out without --replay: exit"
"$exe" --bogus 2> /dev/null; [ $? = 2 ] || fail "unknown option: exit"
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
