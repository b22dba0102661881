#!/bin/sh
# The CMake package: `make install DESTDIR=...` puts
# clresample-config.cmake and clresample-config-version.cmake in
# $(libdir)/cmake/clresample, and the example program (tools/example.c)
# is built against that copy by CMake with nothing but the CMakeLists.txt
# README.md shows (read from it), then run. The copy lies under DESTDIR,
# not at the prefix it was configured for, so finding its header and
# library there shows that the package is relocatable; a second copy,
# moved to another directory, must be found where it lies too. The
# version file accepts 0.1 and refuses 0.2 and 1.0. Skipped when cmake
# is absent. TAP, run by make check.

tap_name=cmake
. "${top_srcdir:-.}/tests/tap.sh"

if ! command -v cmake >/dev/null 2>&1; then
    echo "1..0 # SKIP cmake is not installed (Debian: apt-get install cmake)"
    exit 0
fi

# tap.sh's scratch directory is relative to the build tree; CMake wants
# absolute paths.
tmp=$(cd "$tmp" && pwd)
dest="$tmp/dest"
if $MAKE -C "$top_builddir" install DESTDIR="$dest" >"$tmp/install.log" 2>&1; then
    ok "make install DESTDIR"
else
    not_ok "make install DESTDIR"
    sed 's/^/# /' "$tmp/install.log" | tail -n 30
    echo "1..$n"; exit 1
fi
for f in clresample-config.cmake clresample-config-version.cmake; do
    if [ -f "$dest$libdir/cmake/clresample/$f" ]; then
        ok "installed $libdir/cmake/clresample/$f"
    else
        not_ok "installed $libdir/cmake/clresample/$f"
    fi
done

# The consumer's whole CMakeLists.txt, as README.md shows it (the fenced
# cmake block after the line <!-- cmake:CMakeLists.txt -->).
mkdir -p "$tmp/app"
cp "$dest$docdir/example.c" "$tmp/app/"
awk -v m="<!-- cmake:CMakeLists.txt -->" '
    $0 == m { f = 1; next }
    f && /^```cmake$/ { g = 1; next }
    g && /^```$/ { exit }
    g { print }' "$top_srcdir/README.md" >"$tmp/app/CMakeLists.txt"
if grep -q '^find_package(clresample 0\.1 CONFIG REQUIRED)$' \
    "$tmp/app/CMakeLists.txt" &&
    grep -q 'clresample::clresample' "$tmp/app/CMakeLists.txt"; then
    ok "README.md's CMakeLists.txt: $(grep -c . "$tmp/app/CMakeLists.txt") lines, find_package and clresample::clresample"
else
    not_ok "README.md shows no CMakeLists.txt with find_package(clresample 0.1 CONFIG REQUIRED) and clresample::clresample after <!-- cmake:CMakeLists.txt -->"
    sed 's/^/# /' "$tmp/app/CMakeLists.txt"
fi

# build TREE PREFIX: configure and build the consumer against the
# installed copy under PREFIX, strict C99 with warnings as errors (and a
# sanitizer build's runtime, which the library then needs too).
build() {
    if cmake -S "$tmp/app" -B "$tmp/$1" -DCMAKE_PREFIX_PATH="$2" \
        -DCMAKE_C_COMPILER="${CC:-cc}" \
        -DCMAKE_C_FLAGS="-std=c99 -Wall -Wextra -Werror ${SAN_FLAGS:-}" \
        -DCMAKE_EXE_LINKER_FLAGS="${SAN_FLAGS:-}" \
        >"$tmp/$1.log" 2>&1 &&
        cmake --build "$tmp/$1" >>"$tmp/$1.log" 2>&1; then
        ok "$1: CMake finds clresample under $2 and builds the example"
        return 0
    fi
    not_ok "$1: CMake build of the example against $2"
    sed 's/^/# /' "$tmp/$1.log" | tail -n 30
    return 1
}

# uses TREE INCLUDEDIR LIBDIR: the compile and link lines name the
# header and the library where the copy lies, not the configured paths.
uses() {
    if grep -qF -e "-I$2 " -e "-isystem $2 " \
        "$tmp/$1/CMakeFiles/example.dir/flags.make" ||
        grep -qE -e "-I$2\$" -e "-isystem $2\$" \
        "$tmp/$1/CMakeFiles/example.dir/flags.make"; then
        if grep -qF "$3/libclresample.so" \
            "$tmp/$1/CMakeFiles/example.dir/link.txt"; then
            ok "$1: compiled with $2/clresample.h, linked with $3/libclresample.so"
            return
        fi
    fi
    not_ok "$1: the build does not use the copy in $2 and $3:"
    sed 's/^/# /' "$tmp/$1/CMakeFiles/example.dir/flags.make" \
        "$tmp/$1/CMakeFiles/example.dir/link.txt"
}

# run TREE LIBDIR: the example runs on the default device, loads the
# library it was linked with and matches the CPU reference (skipped
# without a device).
run() {
    out=$("$tmp/$1/example" 2>&1)
    rc=$?
    case $out in
    *CLRS_ERR_NO_DEVICE*) skip "$1: example runs: no OpenCL device" ;;
    *) if [ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | tail -n 1)" = OK ]; then
           ok "$1: example runs a plan and matches the reference"
       else
           not_ok "$1: example exit $rc: $out"
       fi ;;
    esac
    if ldd "$tmp/$1/example" | grep -qF "$2/libclresample.so"; then
        ok "$1: example loads $2/libclresample.so"
    else
        not_ok "$1: example loads $2/libclresample.so: $(ldd "$tmp/$1/example")"
    fi
}

# The copy under DESTDIR: CMAKE_PREFIX_PATH names its prefix there.
if build build "$dest$prefix"; then
    uses build "$dest$includedir" "$dest$libdir"
    run build "$dest$libdir"
fi

# The same prefix moved elsewhere (where libdir and includedir lie below
# the prefix, as they do by default).
found="$dest$prefix"
p=${prefix%/}
case $libdir/:$includedir/ in
"$p"/*:"$p"/*)
    found="$tmp/elsewhere"
    mv "$dest$prefix" "$found"
    lib=$found${libdir#"$p"}
    inc=$found${includedir#"$p"}
    if build build-moved "$found"; then
        uses build-moved "$inc" "$lib"
        run build-moved "$lib"
    fi ;;
*) skip "a moved copy: libdir or includedir lies outside the prefix" ;;
esac

# The version file: a newer minor release (0.2) or another major one
# (1.0) is refused, 0.1.0 accepted.
for want in 0.1.0:yes 0.2:no 1.0:no; do
    v=${want%:*}
    mkdir -p "$tmp/app-$v"
    sed "s/clresample 0.1 CONFIG/clresample $v CONFIG/" \
        "$tmp/app/CMakeLists.txt" >"$tmp/app-$v/CMakeLists.txt"
    cp "$tmp/app/example.c" "$tmp/app-$v/"
    if cmake -S "$tmp/app-$v" -B "$tmp/build-$v" \
        -DCMAKE_C_COMPILER="${CC:-cc}" \
        -DCMAKE_PREFIX_PATH="$found" >"$tmp/v.log" 2>&1; then
        got=yes
    else
        got=no
    fi
    if [ "$got" = "${want#*:}" ]; then
        ok "find_package(clresample $v): accepted: $got"
    else
        not_ok "find_package(clresample $v): accepted: $got, want ${want#*:}"
        sed 's/^/# /' "$tmp/v.log" | tail -n 20
    fi
done
echo "1..$n"
exit $failed
