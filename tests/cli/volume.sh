#!/usr/bin/env bash
# gcut-volume (and gcut-volume-mpi under mpirun, when built): --help and
# --version, the same mask whole, as slabs in one process and over 2 MPI
# ranks, int32 files, the memory estimate and --max-memory's refusal, bad
# usage (2) and bad input (1).
set -euo pipefail
vol=$1; volmpi=${2:-}
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v python3 > /dev/null || { echo "no python3: skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import random, struct, sys
random.seed(7)
W, H, D = 23, 17, 13
fg, bg, fi, bi = [], [], [], []
for z in range(D):
    for y in range(H):
        for x in range(W):
            inside = 5 < x < 18 and 4 < y < 13 and 3 < z < 10
            a, b = random.random() * 2, random.random() * 2
            fg.append((0.0 if inside else 2.5) + a); bg.append((2.5 if inside else 0.0) + b)
            fi.append(int(fg[-1] * 100)); bi.append(int(bg[-1] * 100))
d = sys.argv[1]
open(d + "/fg.f32", "wb").write(struct.pack("%df" % len(fg), *fg))
open(d + "/bg.f32", "wb").write(struct.pack("%df" % len(bg), *bg))
open(d + "/fg.i32", "wb").write(struct.pack("%di" % len(fi), *fi))
open(d + "/bg.i32", "wb").write(struct.pack("%di" % len(bi), *bi))
PY
common=(--size 23x17x13 --fg "$tmp/fg.f32" --bg "$tmp/bg.f32" --smooth 0.6)
"$vol" --help | head -n1 | grep -q '^usage: gcut-volume ' || fail "--help"
"$vol" --version | grep -q '^back ends:$' || fail "--version"
out=$("$vol" "${common[@]}" -o "$tmp/whole.raw" 2> "$tmp/err")
grep -q '^flow: ' <<<"$out" || fail "no flow: $out"
grep -q 'memory estimate' "$tmp/err" || fail "no memory estimate on stderr"
[ "$(stat -c %s "$tmp/whole.raw")" = $((23 * 17 * 13)) ] || fail "mask size"
for r in 1 3 13 20; do
  "$vol" "${common[@]}" --regions $r -o "$tmp/r$r.raw" > /dev/null 2>&1
  cmp -s "$tmp/whole.raw" "$tmp/r$r.raw" || fail "--regions $r: another mask"
done
"$vol" "${common[@]}" --conn 26 --regions 4 --json 2> /dev/null | grep -q '"status":"ok"' || fail "--json"
"$vol" --size 23x17x13 --fg "$tmp/fg.i32" --bg "$tmp/bg.i32" --type i32 --smooth 60 --regions 2 \
  2> /dev/null | grep -q '^scale: 1$' || fail "int32 files"
rc=0; "$vol" "${common[@]}" --max-memory 100K > /dev/null 2> "$tmp/err" || rc=$?
[ $rc = 1 ] && grep -q 'more than --max-memory' "$tmp/err" || fail "--max-memory: rc $rc $(cat "$tmp/err")"
rc=0; "$vol" --size 23x17x14 --fg "$tmp/fg.f32" --bg "$tmp/bg.f32" > /dev/null 2>&1 || rc=$?
[ $rc = 1 ] || fail "short file: rc $rc"
# The slabs (--regions): their own estimate and refusal, a short file.
"$vol" "${common[@]}" --regions 3 2>&1 >/dev/null | grep -q 'memory estimate .* (3 slabs)' ||
  fail "--regions: no slab estimate"
rc=0; "$vol" "${common[@]}" --regions 3 --max-memory 10K > /dev/null 2> "$tmp/err" || rc=$?
[ $rc = 1 ] && grep -q 'more than --max-memory' "$tmp/err" || fail "--regions --max-memory: rc $rc"
rc=0; "$vol" --size 23x17x14 --fg "$tmp/fg.f32" --bg "$tmp/bg.f32" --regions 2 > /dev/null 2>&1 || rc=$?
[ $rc = 1 ] || fail "short file, --regions: rc $rc"
rc=0; "$vol" --size 23x17 --fg "$tmp/fg.f32" --bg "$tmp/bg.f32" > /dev/null 2>&1 || rc=$?
[ $rc = 2 ] || fail "bad --size: rc $rc"
rc=0; "$vol" "${common[@]}" --conn 8 > /dev/null 2>&1 || rc=$?
[ $rc = 2 ] || fail "bad --conn: rc $rc"
# --devices: the volume spread over GPUs (cuda-grid), with --regions the
# slabs on GPUs (cuda-grid regions); the same mask where a GPU is, a
# refusal naming cuda-grid where none is; bad lists are usage.
for bad in "x" "0,,1" "0," ",0" "1:2"; do
  rc=0; "$vol" "${common[@]}" --devices "$bad" > /dev/null 2>&1 || rc=$?
  [ $rc = 2 ] || fail "--devices '$bad': rc $rc"
done
rc=0; "$vol" "${common[@]}" --devices 0 --backend cpu-bk > /dev/null 2>&1 || rc=$?
[ $rc = 2 ] || fail "--devices with cpu-bk: rc $rc"
rc=0; "$vol" "${common[@]}" --devices 0 --params devices=1 > /dev/null 2>&1 || rc=$?
[ $rc = 2 ] || fail "--devices with --params: rc $rc"
for extra in "" "--regions 2"; do
  rc=0; "$vol" "${common[@]}" --devices 0 $extra -o "$tmp/dev.raw" > /dev/null 2> "$tmp/err" || rc=$?
  if [ $rc = 0 ]; then
    cmp -s "$tmp/whole.raw" "$tmp/dev.raw" || fail "--devices 0 $extra: another mask"
  else
    [ $rc = 1 ] && grep -q 'cuda-grid' "$tmp/err" || fail "--devices 0 $extra without a GPU: rc $rc $(cat "$tmp/err")"
  fi
done
if [ -n "$volmpi" ] && command -v mpirun > /dev/null; then
  # (no leak check under the sanitizers: Open MPI's, tests/CMakeLists.txt)
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  export ASAN_OPTIONS=detect_leaks=0
  mpirun -np 2 "$volmpi" "${common[@]}" -o "$tmp/mpi.raw" > "$tmp/mpi.out" 2>&1 || fail "mpirun: $(cat "$tmp/mpi.out")"
  cmp -s "$tmp/whole.raw" "$tmp/mpi.raw" || fail "gcut-volume-mpi: another mask"
  [ "$(grep -c '^flow: ' "$tmp/mpi.out")" = 1 ] || fail "gcut-volume-mpi: one report expected"
  rc=0; mpirun -np 2 "$volmpi" "${common[@]}" --devices 0 > /dev/null 2>&1 || rc=$?
  [ $rc = 2 ] || fail "gcut-volume-mpi --devices: rc $rc"
fi
echo "gcut-volume: ok"
