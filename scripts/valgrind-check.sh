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
# program, default 900), TESTS (space-separated names: a subset), SKIP
# (names left out; default test_grid_pr, whose worker threads wait by
# spinning: valgrind runs one thread at a time and it does not end within
# 15 minutes; the sanitizer build runs it). Needs valgrind and python3 (to
# read ctest's test list).
# Exit status: 0 when every program ran clean; the log of each is kept in
# BUILD_DIR/valgrind/NAME.log.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
SCALE=${SCALE:-0.1}
command -v valgrind >/dev/null || { echo "valgrind-check: valgrind not installed" >&2; exit 2; }
[ -d "$BUILD/bin" ] || { echo "valgrind-check: no build at $BUILD (make first)" >&2; exit 2; }
mkdir -p "$BUILD/valgrind"

# Every test of the cpu label whose command is one of our programs (the
# cmocka suites, the fuzz corpus replays, the example, the benchmark smoke
# runs), with its own arguments and working directory; the scripts around
# the command-line tools are left out. One line each: name, directory,
# command, tab-separated.
list=$(ctest --test-dir "$BUILD" --show-only=json-v1 -L cpu | python3 -c '
import json, sys
for t in json.load(sys.stdin)["tests"]:
    cmd = t.get("command", [])
    if not cmd or "/bin/" not in cmd[0] or not cmd[0].startswith(sys.argv[1]):
        continue
    wd = next((p["value"] for p in t.get("properties", []) if p["name"] == "WORKING_DIRECTORY"), ".")
    print("\t".join([t["name"], wd] + cmd))
' "$(cd "$BUILD" && pwd)") || { echo "valgrind-check: cannot list the tests (python3?)" >&2; exit 2; }

status=0
while IFS=$'\t' read -r -a f; do
  t=${f[0]}
  if [ -n "${TESTS:-}" ] && [[ " $TESTS " != *" $t "* ]]; then continue; fi
  if [[ " ${SKIP-test_grid_pr} " == *" $t "* ]]; then echo "$t: skipped (SKIP)"; continue; fi
  start=$(date +%s)
  (cd "${f[1]}" && GCUT_TEST_SCALE=$SCALE timeout "${VG_TIMEOUT:-900}" valgrind -q \
     --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
     "${f[@]:2}") >"$BUILD/valgrind/$t.log" 2>&1
  rc=$?
  secs=$(($(date +%s) - start))
  case $rc in
    0) echo "$t: clean ($secs s)" ;;
    99) echo "$t: VALGRIND ERRORS ($secs s, see $BUILD/valgrind/$t.log)"; status=1 ;;
    124) echo "$t: timed out after $secs s"; status=1 ;;
    *) echo "$t: failed, exit $rc ($secs s, see $BUILD/valgrind/$t.log)"; status=1 ;;
  esac
done <<<"$list"
exit $status
