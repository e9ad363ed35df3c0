#!/usr/bin/env bash
# Every gcut-* program the build makes (the list CMake passes, from the
# targets: tests/CMakeLists.txt) keeps the project's rule: --help prints
# its help on stdout and exits 0; --version prints `NAME VERSION` first
# and exits 0; an unknown option exits 2 with a message on stderr and
# nothing on stdout. None of them writes a file in the working folder,
# which is a fresh empty one for each run. All failures are listed.
set -uo pipefail
[ $# -gt 0 ] || { echo "FAIL: no programs to check (the list from the targets is empty)" >&2; exit 1; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# run TOOL ARG: the tool in a fresh empty folder, stdin empty; sets rc, and
# $work/o and $work/e hold its stdout and stderr. A program linked with MPI
# runs without the leak check under the sanitizers: Open MPI keeps blocks to
# exit (as in cli_volume and test_dist_mpi, tests/CMakeLists.txt).
run() {
  rm -rf "$work/cwd"; mkdir "$work/cwd"
  local asan=${ASAN_OPTIONS:-}
  case "$(ldd "$1" 2> /dev/null)" in # (not `| grep -q`: ldd's SIGPIPE and pipefail)
    *libmpi*) asan=${asan:+$asan:}detect_leaks=0 ;;
  esac
  (cd "$work/cwd" && ASAN_OPTIONS=$asan exec timeout 60 "$1" "$2" < /dev/null > "$work/o" 2> "$work/e")
  rc=$?
  if [ -n "$(ls -A "$work/cwd")" ]; then
    fail "$(basename "$1") $2 created files: $(ls -A "$work/cwd" | tr '\n' ' ')"
  fi
}

for tool in "$@"; do
  name=$(basename "$tool")
  if [ ! -x "$tool" ]; then
    fail "$name: not built ($tool)"
    continue
  fi
  run "$tool" --help
  if [ $rc != 0 ]; then
    fail "$name --help: exit $rc: $(head -n5 "$work/e")"
  elif [ ! -s "$work/o" ]; then
    fail "$name --help: nothing on stdout"
  fi
  run "$tool" --version
  if [ $rc != 0 ]; then
    fail "$name --version: exit $rc: $(head -n5 "$work/e")"
  elif ! [[ "$(head -n1 "$work/o")" =~ ^"$name "[0-9]+\.[0-9]+\.[0-9]+ ]]; then
    fail "$name --version: first line '$(head -n1 "$work/o")', not '$name VERSION'"
  fi
  run "$tool" --no-such-option
  if [ $rc != 2 ]; then
    fail "$name --no-such-option: exit $rc, not 2"
  elif [ ! -s "$work/e" ]; then
    fail "$name --no-such-option: no message on stderr"
  elif [ -s "$work/o" ]; then
    fail "$name --no-such-option: output on stdout: $(head -n1 "$work/o")"
  fi
done
if [ $failures != 0 ]; then
  echo "$failures failures in $# programs" >&2
  exit 1
fi
echo "$# programs: --help, --version and --no-such-option as expected"
