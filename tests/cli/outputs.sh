#!/usr/bin/env bash
# How the tools write their outputs (lib/core/outfile.c, issue 17): a device
# node or '-' is written directly and never replaced, a symbolic link stays
# a link (its target is replaced), a failed write leaves the old file intact
# and no temporary file behind, and an output that is an input is refused.
# usage: outputs.sh GCUT-MAXFLOW GCUT-MATCH GCUT-SEG|- GCUT-STEREO|- SRCDIR
set -euo pipefail
maxflow=$1; match=$2; seg=$3; stereo=$4; src=$5; root=$(dirname "$src")
work=$(mktemp -d)
small=""
cleanup() { [ -n "$small" ] && umount "$small" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
no_temp() { ! ls -a "$1" | grep -q '\.tmp-' || fail "temporary file left in $1: $(ls -a "$1")"; }

# A graph whose cut and flow files are a few kilobytes: a path of 400 nodes.
n=400
{
  echo "p max $n $((n - 1))"; echo "n 1 s"; echo "n $n t"
  for ((v = 1; v < n; v++)); do echo "a $v $((v + 1)) $((v % 7 + 1))"; done
} > "$work/in.max"

# 1. A character device (a copy of /dev/null) stays a device.
if mknod "$work/null" c 1 3 2>/dev/null; then
  "$maxflow" "$work/in.max" --cut "$work/null" --flow "$work/null2" > /dev/null
  [ -c "$work/null" ] || fail "--cut replaced the device node: $(ls -l "$work/null")"
  if [ "$seg" != - ]; then
    "$seg" "$root/images/shapes.png" --seeds "$root/images/shapes-seeds.png" -o "$work/null" > /dev/null
    [ -c "$work/null" ] || fail "gcut-seg -o replaced the device node: $(ls -l "$work/null")"
  fi
else
  echo "skipped: mknod is not allowed here (the device node cases)"
fi
# /dev/stdout as an output path is the stdout stream, like '-'.
"$maxflow" "$work/in.max" --cut /dev/stdout > "$work/devstdout" 2>/dev/null
grep -q '^1 0$' "$work/devstdout" || fail "--cut /dev/stdout wrote nothing"
! grep -q '^flow:' "$work/devstdout" || fail "--cut /dev/stdout: the report is mixed in"
[ -c /dev/null ] || fail "/dev/null is no longer a device"

# 2. A symbolic link stays a link; its target gets the content.
echo old > "$work/real.cut"
ln -s real.cut "$work/link.cut"
"$maxflow" "$work/in.max" --cut "$work/link.cut" > /dev/null
[ -L "$work/link.cut" ] || fail "the link was replaced by a file"
grep -q '^c canonical cut' "$work/real.cut" || fail "the link's target was not written"
if [ "$seg" != - ]; then
  echo old > "$work/real.png"
  ln -s real.png "$work/link.png"
  "$seg" "$root/images/shapes.png" --seeds "$root/images/shapes-seeds.png" -o "$work/link.png" > /dev/null
  [ -L "$work/link.png" ] || fail "gcut-seg: the link was replaced by a file"
  [ "$(head -c 4 "$work/real.png" | od -An -tx1 | tr -d ' \n')" = 89504e47 ] ||
    fail "gcut-seg: the link's target is not a PNG"
fi
no_temp "$work"

# A replaced file keeps its permissions.
echo old > "$work/mode.cut"; chmod 640 "$work/mode.cut"
"$maxflow" "$work/in.max" --cut "$work/mode.cut" > /dev/null
[ "$(stat -c %a "$work/mode.cut")" = 640 ] || fail "mode not kept: $(stat -c %a "$work/mode.cut")"

# 3. '-' is stdout; the report then goes to stderr.
out=$("$maxflow" "$work/in.max" --cut - 2>"$work/report")
[ "$(head -1 <<<"$out")" = "c canonical cut: node id (1-based, as in the file), side (0 source, 1 sink)" ] ||
  fail "--cut -: $(head -2 <<<"$out")"
! grep -q '^flow:' <<<"$out" || fail "--cut -: the report is mixed with the cut"
grep -q '^flow: ' "$work/report" || fail "--cut -: no report on stderr"
if "$maxflow" "$work/in.max" --cut - --flow - > /dev/null 2>"$work/err"; then
  fail "two outputs on stdout accepted"
fi
grep -q 'only one output can go to stdout' "$work/err" || fail "two on stdout: $(cat "$work/err")"
if [ "$seg" != - ]; then
  "$seg" "$root/images/shapes.png" --seeds "$root/images/shapes-seeds.png" -o - 2>/dev/null > "$work/stdout.png"
  [ "$(head -c 8 "$work/stdout.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
    fail "gcut-seg -o -: stdout is not a PNG"
  "$seg" "$root/images/shapes.png" --seeds "$root/images/shapes-seeds.png" --dump - 2>/dev/null > "$work/dump.max"
  grep -q '^p max ' "$work/dump.max" || fail "gcut-seg --dump -: no DIMACS on stdout"
  ! grep -q '^size:' "$work/dump.max" || fail "gcut-seg --dump -: the report is mixed in"
fi

# 4. A failed write (the file size limit: EFBIG, like a full disk) leaves the
# old file as it was and no temporary file; the message names the file and
# the reason.
echo "old flow" > "$work/keep.flow"
if (trap '' XFSZ; ulimit -f 1; "$maxflow" "$work/in.max" --flow "$work/keep.flow" > /dev/null 2>"$work/err"); then
  fail "a write past the size limit succeeded"
fi
grep -q "keep.flow.*File too large" "$work/err" || fail "write failure message: $(cat "$work/err")"
[ "$(cat "$work/keep.flow")" = "old flow" ] || fail "the old file was damaged by a failed write"
no_temp "$work"
if [ "$seg" != - ]; then
  echo "old png" > "$work/keep.png"
  if (trap '' XFSZ; ulimit -f 1; "$seg" "$root/images/shapes.png" --seeds "$root/images/shapes-seeds.png" \
        --overlay "$work/keep.png" > /dev/null 2>"$work/err"); then
    fail "gcut-seg: a write past the size limit succeeded"
  fi
  grep -q "keep.png.*File too large" "$work/err" || fail "gcut-seg write failure: $(cat "$work/err")"
  [ "$(cat "$work/keep.png")" = "old png" ] || fail "gcut-seg: the old file was damaged"
  no_temp "$work"
fi
# A folder that does not exist.
if "$maxflow" "$work/in.max" --cut "$work/nodir/x.cut" > /dev/null 2>"$work/err"; then
  fail "writing into a missing folder succeeded"
fi
grep -q "nodir/x.cut.*No such file or directory" "$work/err" || fail "missing folder: $(cat "$work/err")"
# A full disk, where a small tmpfs can be mounted (root, outside most containers).
mkdir "$work/small"
if mount -t tmpfs -o size=16k tmpfs "$work/small" 2>/dev/null; then
  small="$work/small"
  echo "old" > "$small/full.flow"
  head -c 12000 /dev/zero > "$small/filler"
  if "$maxflow" "$work/in.max" --flow "$small/full.flow" > /dev/null 2>"$work/err"; then
    fail "writing to a full disk succeeded"
  fi
  grep -q "full.flow.*No space left on device" "$work/err" || fail "full disk: $(cat "$work/err")"
  [ "$(cat "$small/full.flow")" = old ] || fail "full disk: the old file was damaged"
  no_temp "$small"
else
  echo "skipped: cannot mount a small tmpfs here (the full-disk case)"
fi

# 5. An output that is an input is refused, the input untouched.
cp "$work/in.max" "$work/orig.max"
refused() { # refused WHAT CMD...: exit status 2, the message, nothing changed
  local what=$1; shift
  local rc=0
  "$@" > /dev/null 2>"$work/err" || rc=$?
  [ $rc -eq 2 ] || fail "$what: exit status $rc, not 2"
  grep -q 'refusing to overwrite the input' "$work/err" || fail "$what: $(cat "$work/err")"
}
refused "maxflow --cut" "$maxflow" "$work/in.max" --cut "$work/in.max"
refused "maxflow --flow via ./" "$maxflow" "$work/in.max" --flow "$work/./in.max"
ln -s in.max "$work/alias.max"
refused "maxflow --flow via a link" "$maxflow" "$work/in.max" --flow "$work/alias.max"
cmp -s "$work/in.max" "$work/orig.max" || fail "the input was changed"
printf '%%%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 1\n2 2\n' > "$work/m.mtx"
refused "match --out" "$match" "$work/m.mtx" --out "$work/m.mtx"
if [ "$seg" != - ]; then
  cp "$root/images/shapes.png" "$work/img.png"
  cp "$root/images/shapes-seeds.png" "$work/seeds.png"
  refused "seg -o" "$seg" "$work/img.png" --seeds "$work/seeds.png" -o "$work/seeds.png"
  refused "seg --dump" "$seg" "$work/img.png" --seeds "$work/seeds.png" --dump "$work/img.png"
  cmp -s "$work/seeds.png" "$root/images/shapes-seeds.png" || fail "gcut-seg changed its input"
fi
if [ "$stereo" != - ]; then
  cp "$root/images/shapes.png" "$work/left.png"
  refused "stereo --out" "$stereo" "$work/left.png" "$work/img.png" --ndisp 8 --out "$work/left.png"
fi
echo "outputs: ok"
