#!/usr/bin/env bash
# tests/install/run.sh MODE BUILD WORK [cuda]: gcut as its users get it.
#
#   install  `cmake --install BUILD` into WORK/prefix and check that prefix
#            (below); then the build tree itself, through gcut_DIR=BUILD.
#   package  `cpack -G DEB` (what `make package` makes) into WORK/debs;
#            check the packages' contents and Depends, unpack them all
#            (dpkg-deb -x) into WORK/root and check WORK/root/usr like an
#            install prefix. Skipped (77) without dpkg-deb or cpack.
#
# Checking a prefix: every installed program runs, with LD_LIBRARY_PATH
# unset, on the libraries of that prefix (RUNPATH $ORIGIN/../lib); with
# "cuda", the installed libgcut finds the installed plugin by itself; a
# consumer project (consumer/) builds and runs with find_package(gcut) and
# with find_package(gcut COMPONENTS vision), against the shared and the
# static libraries; a required component that is not there and an unknown
# one fail with a clear message; pkg-config (gcut, gcut-vision, and
# --static) builds and runs the same programs.
set -euo pipefail
mode=$1; build=$2; work=$3; cuda=${4:-nocuda}
here=$(cd "$(dirname "$0")" && pwd)
unset LD_LIBRARY_PATH GCUT_PLUGIN_PATH GCUT_BACKEND DESTDIR
rm -rf "$work"; mkdir -p "$work"

fail() { echo "install test: $*" >&2; exit 1; }

# run_consumers DIR: run the programs a consumer build made.
run_consumers() {
    local dir=$1 p
    for p in consumer consumer_static consumer_vision consumer_vision_static; do
        [ -x "$dir/$p" ] || continue
        "$dir/$p" "$dir" >/dev/null || fail "$dir/$p failed"
    done
    # The static programs carry gcut inside them.
    for p in consumer_static consumer_vision_static; do
        [ -x "$dir/$p" ] || continue
        if readelf -d "$dir/$p" | grep -q 'NEEDED.*libgcut'; then
            fail "$dir/$p needs a shared libgcut: $(readelf -d "$dir/$p" | grep NEEDED)"
        fi
    done
}

# The version a consumer asks for: this build's major.minor.
version=$(sed -n 's/^set(PACKAGE_VERSION "\([0-9]*\.[0-9]*\).*")$/\1/p' "$build/gcut-config-version.cmake")
[ -n "$version" ] || fail "no PACKAGE_VERSION in $build/gcut-config-version.cmake"

# consumer NAME COMPONENTS CMAKE-ARGS...: configure, build and run consumer/.
consumer() {
    local name=$1 comps=$2; shift 2
    cmake -S "$here/consumer" -B "$work/$name" -DGCUT_VERSION="$version" -DGCUT_COMPONENTS="$comps" "$@" \
        >"$work/$name.log" 2>&1 \
        || { cat "$work/$name.log" >&2; fail "consumer $name did not configure"; }
    cmake --build "$work/$name" >>"$work/$name.log" 2>&1 \
        || { cat "$work/$name.log" >&2; fail "consumer $name did not build"; }
    run_consumers "$work/$name"
}

# consumer_fails NAME COMPONENTS MESSAGE CMAKE-ARGS...: find_package must fail, saying MESSAGE.
consumer_fails() {
    local name=$1 comps=$2 msg=$3; shift 3
    if cmake -S "$here/consumer" -B "$work/$name" -DGCUT_VERSION="$version" -DGCUT_COMPONENTS="$comps" "$@" \
        >"$work/$name.log" 2>&1; then
        fail "find_package(gcut COMPONENTS $comps) succeeded in $name"
    fi
    grep -q "$msg" "$work/$name.log" || { cat "$work/$name.log" >&2; fail "$name: no \"$msg\" in the error"; }
}

# pc_consumer NAME PKG SOURCE PROGRAM [static]: build SOURCE as NAME/PROGRAM
# with pkg-config's flags for PKG, and run it.
pc_consumer() {
    local name=$1 pkg=$2 src=$3 prog=$4 static=${5:-} flags
    local pcdir=$libdir/pkgconfig
    if [ "$static" = static ]; then
        # What a static link needs comes from --static (Libs.private,
        # Requires.private); gcut's own archives are asked for by file
        # name, as the shared libraries sit beside them (README, Install).
        flags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --static --cflags --libs "$pkg")
        flags=$(sed -E 's/-l(gcut|gcut_vision)\b/-l:lib\1.a/g' <<<"$flags")
    else
        flags="$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs "$pkg") -Wl,-rpath,$libdir"
    fi
    mkdir -p "$work/$name"
    # shellcheck disable=SC2086
    cc -std=c11 -o "$work/$name/$prog" "$src" $flags || fail "pkg-config $pkg $static: the link failed ($flags)"
    run_consumers "$work/$name"
}

# examples TAG CMAKE-ARGS...: every program of examples/ built with
# find_package (shared and static) and, when PREFIX is given through
# $libdir, with pkg-config (shared and static); each run from the source
# tree (the bundled images) must succeed: the examples check their results.
examples() {
    local tag=$1 p name flags; shift
    local srcroot=$here/../..
    cmake -S "$here/examples" -B "$work/$tag-examples" -DGCUT_EXAMPLES="$srcroot/examples" "$@" \
        >"$work/$tag-examples.log" 2>&1 \
        || { cat "$work/$tag-examples.log" >&2; fail "the examples did not configure ($tag)"; }
    cmake --build "$work/$tag-examples" >>"$work/$tag-examples.log" 2>&1 \
        || { cat "$work/$tag-examples.log" >&2; fail "the examples did not build ($tag)"; }
    local n=0
    for p in "$work/$tag-examples"/example-*; do
        [ -x "$p" ] || continue
        # exit 77: the example skipped itself (device_grid without a GPU)
        local rc=0
        (cd "$srcroot" && "$p" >/dev/null) || rc=$?
        [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || fail "$p failed ($tag)"
        n=$((n + 1))
    done
    [ "$n" -ge 10 ] || fail "only $n example programs built with find_package ($tag)"
}

# pc_examples: every program of examples/ with pkg-config gcut-vision,
# shared and static, built and run.
pc_examples() {
    local pcdir=$libdir/pkgconfig srcroot=$here/../.. src name shared static
    [ -f "$pcdir/gcut-vision.pc" ] || return 0
    shared="$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs gcut-vision) -Wl,-rpath,$libdir"
    static=$(PKG_CONFIG_PATH="$pcdir" pkg-config --static --cflags --libs gcut-vision)
    static=$(sed -E 's/-l(gcut|gcut_vision)\b/-l:lib\1.a/g' <<<"$static")
    mkdir -p "$work/pc-examples"
    for src in "$srcroot"/examples/*.c; do
        name=$(basename "$src" .c)
        # shellcheck disable=SC2086
        cc -std=c11 -o "$work/pc-examples/$name" "$src" $shared -lm -lpthread \
            || fail "pkg-config: example $name did not link"
        # shellcheck disable=SC2086
        cc -std=c11 -o "$work/pc-examples/$name-static" "$src" $static -lm -lpthread \
            || fail "pkg-config --static: example $name did not link"
        for exe in "$work/pc-examples/$name" "$work/pc-examples/$name-static"; do
            local rc=0
            (cd "$srcroot" && "$exe" >/dev/null) || rc=$?
            [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || fail "pkg-config: example $name failed"
        done
    done
}

# check_prefix PREFIX TAG: everything a user of that prefix does.
check_prefix() {
    local prefix=$1 tag=$2 p
    libdir=$(dirname "$(dirname "$(find "$prefix" -path '*/pkgconfig/gcut.pc' | head -n1)")")
    [ "$libdir" != . ] || fail "no gcut.pc under $prefix"
    [ -f "$libdir/cmake/gcut/gcut-config.cmake" ] || fail "no gcut-config.cmake in $libdir/cmake/gcut"
    # The man pages of the tools (generated from --help) are installed.
    for p in gcut-maxflow.1 gcut-match.1; do
        [ -s "$prefix/share/man/man1/$p" ] || fail "$p not installed in $prefix/share/man/man1"
    done

    # The installed programs run on the installed libraries, no LD_LIBRARY_PATH.
    local n=0
    for p in "$prefix"/bin/*; do
        "$p" --help >/dev/null || fail "$p --help failed"
        local lib
        for lib in $(ldd "$p" | awk '/libgcut/ {print $3}'); do
            [ "$(dirname "$(readlink -f "$lib")")" = "$(readlink -f "$libdir")" ] \
                || fail "$p does not use the libraries of $prefix: $(ldd "$p" | grep libgcut)"
        done
        n=$((n + 1))
    done
    [ "$n" -ge 2 ] || fail "no programs in $prefix/bin"
    for p in gcut-maxflow gcut-match gcut-seg gcut-stereo gcut-mvs; do
        [ -x "$prefix/bin/$p" ] || continue
        "$prefix/bin/$p" --version | grep -q "$p" || fail "$p --version"
    done
    local flow
    flow=$(printf 'p max 2 1\nn 1 s\nn 2 t\na 1 2 5\n' | "$prefix/bin/gcut-maxflow" -) || fail "gcut-maxflow -"
    grep -q '^flow: 5$' <<<"$flow" || fail "installed gcut-maxflow: unexpected output: $flow"
    # The installed libgcut finds the installed plugin (beside itself).
    if [ "$cuda" = cuda ]; then
        local list
        list=$("$prefix/bin/gcut-maxflow" --list-backends)
        grep -q '^cuda-csr' <<<"$list" || fail "no cuda-csr in --list-backends"
        if grep -q 'libgcut_cuda.so not found' <<<"$list"; then
            fail "the installed libgcut does not find the installed plugin: $list"
        fi
    fi

    # find_package: no component named (vision comes along), then the
    # vision component asked for.
    consumer "$tag-cmake" "" -DCMAKE_PREFIX_PATH="$prefix"
    [ -x "$work/$tag-cmake/consumer_vision_static" ] || fail "no vision with no component named"
    consumer "$tag-cmake-vision" "vision" -DCMAKE_PREFIX_PATH="$prefix"
    [ -x "$work/$tag-cmake-vision/consumer_vision_static" ] || fail "no vision consumer built"
    consumer_fails "$tag-cmake-unknown" "core;nosuch" 'gcut has no component "nosuch"' -DCMAKE_PREFIX_PATH="$prefix"
    # A dependency of the vision targets missing (as without libpng-dev).
    if grep -q 'IN ITEMS.*PNG' "$libdir/cmake/gcut/gcut-config.cmake"; then
        consumer_fails "$tag-cmake-nopng" "vision" "gcut's vision component needs PNG" \
            -DCMAKE_DISABLE_FIND_PACKAGE_PNG=ON -DCMAKE_PREFIX_PATH="$prefix"
    fi
    # The same prefix without the vision files: vision asked for fails
    # clearly, the core alone still works.
    rm -rf "$work/$tag-novision"
    cp -a "$prefix" "$work/$tag-novision"
    rm -f "$work/$tag-novision/${libdir#"$prefix"/}"/cmake/gcut/gcut-vision-targets*.cmake
    consumer_fails "$tag-cmake-novision" "vision" "built or installed without its vision component" \
        -DCMAKE_PREFIX_PATH="$work/$tag-novision"
    consumer "$tag-cmake-novision-core" "core" -DGCUT_OPTIONAL_COMPONENTS=vision \
        -DCMAKE_PREFIX_PATH="$work/$tag-novision"
    [ ! -e "$work/$tag-cmake-novision-core/consumer_vision" ] || fail "vision built without its files"

    # pkg-config, shared and static.
    pc_consumer "$tag-pc" gcut "$here/consumer/main.c" consumer
    pc_consumer "$tag-pc-static" gcut "$here/consumer/main.c" consumer_static static
    if [ -f "$libdir/pkgconfig/gcut-vision.pc" ]; then
        pc_consumer "$tag-pc-vision" gcut-vision "$here/consumer/vision.c" consumer_vision
        pc_consumer "$tag-pc-vision-static" gcut-vision "$here/consumer/vision.c" consumer_vision_static static
    fi
}

case "$mode" in
install)
    cmake --install "$build" --prefix "$work/prefix" >/dev/null
    check_prefix "$work/prefix" inst
    # Every example, with find_package and with pkg-config, shared and static.
    if [ -f "$libdir/cmake/gcut/gcut-vision-targets.cmake" ]; then
        examples inst -DCMAKE_PREFIX_PATH="$work/prefix"
        pc_examples
    fi
    # The build tree, through gcut_DIR.
    consumer build-tree "vision" -Dgcut_DIR="$build"
    [ ! -f "$build/gcut-vision-targets.cmake" ] || examples build-tree -Dgcut_DIR="$build"
    ;;
package)
    for tool in cpack dpkg-deb dpkg-shlibdeps; do
        command -v $tool >/dev/null || { echo "install test: no $tool: skipped"; exit 77; }
    done
    cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/debs" >"$work/cpack.log" 2>&1 \
        || { cat "$work/cpack.log" >&2; fail "cpack failed"; }
    debversion=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
    debs=("$work"/debs/*.deb)
    # deb_has PACKAGE PATTERN...: the package holds a path matching each pattern.
    deb_file() { find "$work/debs" -maxdepth 1 -name "$1_${debversion}_*.deb" | head -n1; }
    deb_has() {
        local pkg=$1 f; f=$(deb_file "$pkg"); shift
        [ -n "$f" ] || fail "no package $pkg (made: ${debs[*]##*/})"
        for pat in "$@"; do
            dpkg-deb -c "$f" | awk '{print $6}' | grep -q -E "^\./usr/$pat\$" \
                || fail "$pkg has no usr/$pat: $(dpkg-deb -c "$f" | awk '{print $6}' | tr '\n' ' ')"
        done
    }
    deb_lacks() {
        local pkg=$1 f; f=$(deb_file "$pkg"); shift
        for pat in "$@"; do
            if dpkg-deb -c "$f" | awk '{print $6}' | grep -q -E "^\./usr/$pat"; then
                fail "$pkg holds usr/$pat, which belongs to another package"
            fi
        done
    }
    deb_depends() {
        local pkg=$1 want=$2 dep
        dep=$(dpkg-deb -f "$(deb_file "$pkg")" Depends)
        grep -q -F "$want" <<<"$dep" || fail "$pkg: Depends '$dep' lacks '$want'"
    }
    deb_has gcut bin/gcut-maxflow bin/gcut-seg 'lib(/[^/]+)?/libgcut\.so\.[0-9.]+' 'lib(/[^/]+)?/libgcut_vision\.so\.[0-9.]+'
    deb_lacks gcut include/ 'lib(/[^/]+)?/libgcut\.a' 'lib(/[^/]+)?/libgcut\.so$' 'lib(/[^/]+)?/cmake' 'lib(/[^/]+)?/libgcut_cuda'
    deb_depends gcut "libc6"
    deb_has gcut-dev include/gcut/gcut.h include/gcut/vision/image.h 'lib(/[^/]+)?/libgcut\.a' 'lib(/[^/]+)?/libgcut\.so' \
        'lib(/[^/]+)?/cmake/gcut/gcut-config\.cmake' 'lib(/[^/]+)?/cmake/gcut/gcut-vision-targets\.cmake' \
        'lib(/[^/]+)?/pkgconfig/gcut\.pc' 'lib(/[^/]+)?/pkgconfig/gcut-vision\.pc'
    deb_lacks gcut-dev bin/ 'lib(/[^/]+)?/libgcut\.so\.'
    deb_depends gcut-dev "gcut (= $debversion)"
    if [ "$cuda" = cuda ]; then
        deb_has gcut-cuda 'lib(/[^/]+)?/libgcut_cuda\.so'
        deb_lacks gcut-cuda bin/ include/ 'lib(/[^/]+)?/libgcut\.'
        deb_depends gcut-cuda "gcut (= $debversion)"
        # (A ";" in a CPack description cuts it short.)
        dpkg-deb -f "$(deb_file gcut-cuda)" Description | grep -q 'needs the NVIDIA driver)$' \
            || fail "gcut-cuda: description cut short: $(dpkg-deb -f "$(deb_file gcut-cuda)" Description)"
    elif [ -n "$(deb_file gcut-cuda)" ]; then
        fail "a gcut-cuda package without the plugin"
    fi
    mkdir -p "$work/root"
    for f in "${debs[@]}"; do dpkg-deb -x "$f" "$work/root"; done
    check_prefix "$work/root/usr" deb
    ;;
*)
    fail "unknown mode '$mode' (install or package)"
    ;;
esac
echo "install test ($mode): ok"
