#!/usr/bin/env bash
# Multi-baseline stereo on Middlebury 2006 Bowling2 (third size, seven views,
# view1 the reference): disp1 / 3 is the disparity d of view1 -> view5 (four
# spacings), so view k sits at baseline (k - 1) / 4. Two views (view1,
# view5) against all seven. 80 labels: the third-size disparity range.
set -euo pipefail
. "$(dirname "$0")/mvs-common.sh"
need_data Bowling2
v() { echo "$data/Bowling2/view$1.png"; }
gt=(--gt "$data/Bowling2/disp1.png" --gt-scale 3 --ndisp 80)
echo "== 2 views (view1, view5)"
"$exe" --views "$(v 1),$(v 5)" --baselines 0,1 "${gt[@]}" --out "$out/bowling2-2.png" | show
echo "== 7 views (view0 .. view6)"
"$exe" --views "$(v 0),$(v 1),$(v 2),$(v 3),$(v 4),$(v 5),$(v 6)" \
  --baselines -0.25,0,0.25,0.5,0.75,1,1.25 "${gt[@]}" --out "$out/bowling2-7.png" | show
echo "disparity maps in $out/bowling2-*.png"
