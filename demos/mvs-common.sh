# Sourced by the demos/mvs-*.sh examples: finds gcut-mvs and the data, or
# says why the example is skipped. Sets: root, exe, data, out.
# usage of an example: demos/mvs-NAME.sh [BUILD_DIR] [OUT_DIR]
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=${2:-$build/mvs-demo}
data=${GCUT_DATA:-$root/../shared/data}/multiview
exe=$build/bin/gcut-mvs
# need_data DIR: exit 0 with a message when DIR is absent.
need_data() {
  if [ ! -d "$data/$1" ]; then
    echo "$(basename "$0"): skipped: $data/$1 absent (see ../shared/data/multiview/SOURCES.md)"
    exit 0
  fi
}
if [ ! -x "$exe" ]; then
  echo "$(basename "$0"): $exe not found: build first (cmake --build $build)" >&2
  exit 1
fi
mkdir -p "$out"
# show: the lines of gcut-mvs output worth reading.
show() { grep -E '^(views|reference|neighbours|depth-range|labels|masked|cycles|energy|wall|bad[12]-all):'; }
