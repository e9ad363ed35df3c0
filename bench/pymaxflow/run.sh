#!/usr/bin/env bash
# The PyMaxflow tutorial grid problems against BK v3 (bench/pymaxflow/compare.py).
#
#   bench/pymaxflow/run.sh [SIZES_MP] [REPEAT]
#
# Needs Debian's libmaxflow-dev (BK v3, GPL: built into a measuring tool in
# build-bench/, never into gcut) and the Python package in build/python.
# Runs on one core (taskset -c 0) so that neither side gets more.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/build-bench
mkdir -p "$out"
pkg-config --exists maxflow || { echo "run.sh: apt-get install libmaxflow-dev" >&2; exit 1; }
g++ -O2 -std=c++11 -o "$out/bk_grid" "$root/bench/pymaxflow/bk_grid.cpp" \
  $(pkg-config --cflags --libs maxflow)
echo "# $(date -u +%Y-%m-%d) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"\
     "one core (taskset -c 0); BK $(pkg-config --modversion maxflow) (libmaxflow-dev)"
PYTHONPATH=$root/build/python BK_GRID=$out/bk_grid taskset -c 0 /usr/bin/python3 \
  "$root/bench/pymaxflow/compare.py" "${1:-1,4,16}" "${2:-5}"
