#!/usr/bin/env bash
# Plane sweep on the Middlebury dinoSparseRing (16 calibrated views, no
# ground truth; a nearly textureless plaster dinosaur): depth maps of two
# reference views from their 4 nearest cameras, depth range from the dino's
# bounding box (its README), black background masked (<= 45).
set -euo pipefail
. "$(dirname "$0")/mvs-common.sh"
need_data dinoSparseRing
d=$data/dinoSparseRing
for ref in dinoSR0001 dinoSR0005; do
  echo "== $ref"
  "$exe" --cameras "$d/dinoSR_par.txt" --ref $ref.png \
    --bbox -0.061897,-0.018874,-0.057845,0.010897,0.068227,0.015495 \
    --mask-threshold 45 --depths 64 --out "$out/$ref-depth.png" --ply "$out/$ref.ply" | show
done
echo "depth maps in $out/dinoSR*-depth.png, point clouds in $out/dinoSR*.ply"
