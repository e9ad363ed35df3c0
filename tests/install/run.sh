#!/usr/bin/env bash
# Install gcut into a scratch prefix, then build and run a small consumer
# twice: with find_package(gcut CONFIG) and with pkg-config.
set -euo pipefail
build=$1; work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"; mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
# The man pages of the tools (generated from --help) are installed.
for page in gcut-maxflow.1 gcut-match.1; do
  [ -s "$work/prefix/share/man/man1/$page" ] || { echo "FAIL: $page not installed" >&2; exit 1; }
done
cmake -S "$here/consumer" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
LD_LIBRARY_PATH="$work/prefix/lib:$work/prefix/lib64:${LD_LIBRARY_PATH:-}" "$work/cmake-build/consumer"
libdir=$(ls -d "$work/prefix"/lib*/pkgconfig | head -n1)
PKG_CONFIG_PATH="$libdir" cc -std=c11 -o "$work/pc-consumer" "$here/consumer/main.c" $(PKG_CONFIG_PATH="$libdir" pkg-config --cflags --libs gcut)
LD_LIBRARY_PATH="$(dirname "$libdir"):${LD_LIBRARY_PATH:-}" "$work/pc-consumer"
echo "install test: ok"
