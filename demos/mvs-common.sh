# Sourced by the demos/mvs-*.sh examples: finds gcut-mvs and the data, or
# says why the example is skipped. Sets: root, exe, data, out.
# usage of an example: demos/mvs-NAME.sh [BUILD_DIR] [OUT_DIR]
root=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in
  -h|--help)
    # The example's own description: its comment block after the #! line.
    sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
    cat <<EOF

usage: $(basename "$0") [BUILD_DIR] [OUT_DIR]
  BUILD_DIR  gcut build folder with bin/gcut-mvs (default: build)
  OUT_DIR    where the depth maps go (default: BUILD_DIR/mvs-demo)

This example needs data that is not in the repository: the Middlebury
multi-view or stereo scene it names, in \$GCUT_DATA/multiview (default
../shared/data/multiview beside the checkout; where each scene comes from:
SOURCES.md there). Without it the example says so and exits 0. For a demo
that runs on a fresh clone, see gcut-mvs --help and tests/cli/mvs.sh, which
render their own scenes.
EOF
    exit 0 ;;
  -V|--version)
    echo "$(basename "$0") (gcut $(sed -n 's/^project(gcut VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt"))"
    exit 0 ;;
esac
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
