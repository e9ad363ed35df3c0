#!/usr/bin/env bash
# Plane sweep on the Middlebury templeSparseRing (16 calibrated views, no
# ground truth): depth maps of two reference views from their 4 nearest
# cameras, depth range from the temple's bounding box (its README), black
# background masked (all channels <= 45). Also writes a PLY point cloud.
set -euo pipefail
. "$(dirname "$0")/mvs-common.sh"
need_data templeSparseRing
d=$data/templeSparseRing
for ref in templeSR0001 templeSR0005; do
  echo "== $ref"
  "$exe" --cameras "$d/templeSR_par.txt" --ref $ref.png \
    --bbox -0.073568,0.021728,-0.012445,0.028855,0.181892,0.062736 \
    --mask-threshold 45 --depths 64 --out "$out/$ref-depth.png" --ply "$out/$ref.ply" | show
done
echo "depth maps in $out/templeSR*-depth.png, point clouds in $out/templeSR*.ply"
