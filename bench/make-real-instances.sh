#!/usr/bin/env bash
# bench/make-real-instances.sh - max-flow instances from the project's own
# pipeline on real photos (issue 23: "real vision instances in the bench
# set"): each photo scaled to 0.3, 2 and 12 MP, segmented by GrabCut from a
# box (10% margin) with one cut, and the graph of that cut written as a
# DIMACS file by `gcut-seg --dump`. Large files: they go to OUTDIR (not the
# repository); the commands are what is kept.
#
#     BUILD=build bash bench/make-real-instances.sh OUTDIR [PHOTO...]
#
# Default photos: skimage's coffee and astronaut, and two of the GrabCut
# set (../shared/data). MP sizes: $SIZES (default "0.3 2 12"). Scaling and
# a first timing run use gcut-seg-speed (--backend $BACKEND, default auto:
# the GPU where there is one; 12 MP on one CPU core takes about a minute).
# Writes OUTDIR/NAME-MPmp.max and prints one line per file (nodes, arcs).
# Then the 3-D segmentation volumes of a head-like phantom (gcut-gen's
# grid3d kind=phantom: skull shell, brain, ventricles, lesions, partial
# volume, bias, noise) at $PHANTOM_SIZES (default "256 512"; 512^3 writes
# a file of about 25 GB with 26-connectivity) and $PHANTOM_CONNS (default
# "6 26"): OUTDIR/phantom-S-cC.max. PHANTOM_SIZES="" skips them. Then
# the stereo expansion-move graphs of tsukuba, venus and teddy
# (gcut-stereo-moves: OUTDIR/stereo-SCENE-cK-aL.max, cycles 0 and 1).
set -euo pipefail
OUT=${1:?usage: bench/make-real-instances.sh OUTDIR [PHOTO...]}
shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
DATA=${GCUT_DATA_DIR:-$ROOT/../shared/data}
SIZES=${SIZES:-0.3 2 12}
BACKEND=${BACKEND:-auto}
photos=("$@")
[ ${#photos[@]} -gt 0 ] || photos=("$DATA/skimage/coffee.png" "$DATA/skimage/astronaut.png"
                                   "$DATA/grabcut/images/106024.jpg" "$DATA/grabcut/images/124080.jpg")
mkdir -p "$OUT"
for photo in "${photos[@]}"; do
  [ -f "$photo" ] || { echo "make-real-instances: $photo absent: skipped" >&2; continue; }
  # shellcheck disable=SC2086
  "$BUILD/bin/gcut-seg-speed" "$photo" $SIZES --backend "$BACKEND" --keep "$OUT" >/dev/null
  name=$(basename "${photo%.*}")
  for mp in $SIZES; do
    img=$OUT/$name-${mp}mp.png
    # The size from the PNG header (IHDR: width, height, big-endian).
    w=$(od -An -tu1 -j16 -N4 "$img" | awk '{print $1*16777216+$2*65536+$3*256+$4}')
    h=$(od -An -tu1 -j20 -N4 "$img" | awk '{print $1*16777216+$2*65536+$3*256+$4}')
    mx=$((w / 10)); my=$((h / 10))
    "$BUILD/bin/gcut-seg" "$img" --rect "$mx,$my,$((w - 2 * mx)),$((h - 2 * my))" --grabcut 1 \
      -b "$BACKEND" -q --dump "$OUT/$name-${mp}mp.max" >/dev/null
    echo "$name-${mp}mp.max: $(awk '$1 == "p" {print $3 " nodes, " $4 " arcs"; exit}' "$OUT/$name-${mp}mp.max")"
    rm -f "$img"
  done
done
for S in ${PHANTOM_SIZES-256 512}; do
  for C in ${PHANTOM_CONNS:-6 26}; do
    f=$OUT/phantom-$S-c$C.max
    "$BUILD/bin/gcut-gen" "grid3d:w=$S,h=$S,d=$S,conn=$C,kind=phantom" -o "$f" >/dev/null
    echo "phantom-$S-c$C.max: $(awk '$1 == "p" {print $3 " nodes, " $4 " arcs"; exit}' "$f")"
  done
done
# Expansion-move graphs of the stereo energy (gcut-stereo's defaults) on the
# Middlebury pairs of the data folder (cones is not there): the moves toward
# four labels from the winner-take-all start (cycle 0, the expensive cold
# moves) and after one cycle. STEREO_SCENES="" skips them.
for scene in ${STEREO_SCENES-tsukuba venus teddy}; do
  dir=$DATA/middlebury/$scene
  [ -f "$dir/imL.png" ] || { echo "make-real-instances: $dir absent: skipped" >&2; continue; }
  nd=$(awk -F, -v s="$scene" '$1 == s {print $6}' "$DATA/middlebury/params.csv")
  for c in 0 1; do
    "$BUILD/bin/gcut-stereo-moves" "$dir/imL.png" "$dir/imR.png" --ndisp "$nd" --cycles $c \
      --name "stereo-$scene" -o "$OUT"
  done
done
