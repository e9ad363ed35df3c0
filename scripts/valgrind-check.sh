#!/usr/bin/env bash
# valgrind-check.sh - run every CPU test program (ctest label cpu) under
# valgrind's memcheck: no invalid access, no use of uninitialised values, no
# leak. The suites run at a reduced size (GCUT_TEST_SCALE, default 0.1),
# since valgrind is 20-50 times slower; the sanitizer build
# (make test-sanitize) covers the full sizes.
#
#     scripts/valgrind-check.sh [BUILD_DIR]      # default: build
#
# Environment: SCALE (GCUT_TEST_SCALE, default 0.1), VG_TIMEOUT (seconds per
# program, default 900), TESTS (space-separated names: a subset).
# Exit status: 0 when every program ran clean; the log of each is kept in
# BUILD_DIR/valgrind/NAME.log.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
SCALE=${SCALE:-0.1}
command -v valgrind >/dev/null || { echo "valgrind-check: valgrind not installed" >&2; exit 2; }
[ -d "$BUILD/bin" ] || { echo "valgrind-check: no build at $BUILD (make first)" >&2; exit 2; }
mkdir -p "$BUILD/valgrind"

if [ -z "${TESTS:-}" ]; then
  # The cmocka programs of the cpu label (the CLI, fuzz and install tests
  # are scripts or replays around the same library code).
  TESTS=$(ctest --test-dir "$BUILD" -N -L cpu | awk '/Test *#/ {print $3}' | grep '^test_')
fi

status=0
for t in $TESTS; do
  exe=$BUILD/bin/$t
  [ -x "$exe" ] || { echo "$t: not built"; status=1; continue; }
  start=$(date +%s)
  GCUT_TEST_SCALE=$SCALE timeout "${VG_TIMEOUT:-900}" valgrind -q --error-exitcode=99 \
    --leak-check=full --errors-for-leak-kinds=definite,indirect "$exe" >"$BUILD/valgrind/$t.log" 2>&1
  rc=$?
  secs=$(($(date +%s) - start))
  case $rc in
    0) echo "$t: clean ($secs s)" ;;
    99) echo "$t: VALGRIND ERRORS ($secs s, see $BUILD/valgrind/$t.log)"; status=1 ;;
    124) echo "$t: timed out after $secs s"; status=1 ;;
    *) echo "$t: failed, exit $rc ($secs s, see $BUILD/valgrind/$t.log)"; status=1 ;;
  esac
done
exit $status
