#!/usr/bin/env bash
# The main job of `make run`: solve the bundled DIMACS instance with every
# available back end, check each result, and print a table.
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
instance="$here/examples/grid-vision-128.max.gz"
echo "gcut: solving $(basename "$instance") (a 128x128 4-connected segmentation grid made by gcut-gen) with every back end"
"$build/bin/gcut-maxflow" --backend all --check --repeat 3 "$instance"
