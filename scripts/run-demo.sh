#!/usr/bin/env bash
# The main job of `make run`: the interactive segmentation viewer on the
# bundled default image (a window when a display is present; without one the
# viewer replays the bundled strokes headless and writes a mask and a
# screenshot), then the bundled DIMACS instance solved with every available
# back end, each result checked, in a table.
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
viewer="$build/bin/gcut-view"
image="$here/images/blob.png"
if [ -x "$viewer" ]; then
  if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
    echo "gcut: opening gcut-view on $(basename "$image") (paint with the mouse, h for help, q to quit)"
    "$viewer" "$image" || echo "gcut: the viewer could not run on this display (see above)"
  else
    echo "gcut: no display: gcut-view replays images/blob.strokes on $(basename "$image") headless"
    SDL_VIDEODRIVER=dummy "$viewer" "$image" --replay "$here/images/blob.strokes" \
      --out "$build/gcut-view-mask.png" --screenshot "$build/gcut-view-screenshot.png"
    echo "gcut: mask in $build/gcut-view-mask.png, what the window would show in $build/gcut-view-screenshot.png"
  fi
  echo
else
  echo "gcut: gcut-view was not built (SDL2 or libpng missing: see scripts/install-deps.sh)"
fi
instance="$here/examples/grid-vision-128.max.gz"
echo "gcut: solving $(basename "$instance") (a 128x128 4-connected segmentation grid made by gcut-gen) with every back end"
"$build/bin/gcut-maxflow" --backend all --check --repeat 3 "$instance"
