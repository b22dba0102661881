# make install DESTDIR=... installs the header, the libraries, the .pc
# file, the tool, both manuals and the documentation (the README and the
# example program). The example (tools/example.c: a device, buffers, a
# plan, execute, read back, the CPU reference) is built against the
# installed copy with nothing but `pkg-config --cflags --libs clresample`
# and run; then, with only the static library left, with
# `pkg-config --static`. TAP output.
set -u
dest="$PWD/tests/tmp-install"
rm -rf "$dest"
mkdir -p "$dest"
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }

if $MAKE -C "$top_builddir" install DESTDIR="$dest" >"$dest.log" 2>&1; then
    ok "make install DESTDIR"
else
    notok "make install DESTDIR (see $dest.log)"
    echo "1..$n"; exit 1
fi
for f in "$prefix/include/clresample.h" "$libdir/pkgconfig/clresample.pc" \
         "$libdir/libclresample.so" "$libdir/libclresample.a" \
         "$bindir/clresample" "$mandir/man1/clresample.1" \
         "$mandir/man3/clresample.3" "$docdir/README.md" \
         "$docdir/example.c"; do
    if [ -e "$dest$f" ]; then ok "installed $f"; else notok "installed $f"; fi
done

export PKG_CONFIG_PATH="$dest$libdir/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$dest"

# build NAME PKG-CONFIG-OPTIONS...: the installed example, compiled and
# linked with the flags pkg-config gives (and a sanitizer build's runtime,
# which the library then needs too).
build() {
    name=$1
    shift
    flags=$($PKG_CONFIG "$@" --cflags --libs clresample 2>&1)
    if [ $? -ne 0 ]; then
        notok "pkg-config${*:+ $*} --cflags --libs clresample: $flags"
        return 1
    fi
    ok "pkg-config${*:+ $*} --cflags --libs clresample: $flags"
    # shellcheck disable=SC2086
    if $CC -std=c99 -Wall -Wextra -Werror ${SAN_FLAGS:-} -o "$dest/$name" \
        "$dest$docdir/example.c" $flags >"$dest/$name.log" 2>&1; then
        ok "$name compiles and links against the installed copy"
        return 0
    fi
    notok "$name against the installed copy: $(cat "$dest/$name.log")"
    return 1
}

# run NAME: the example runs on the default device and matches the CPU
# reference (skipped without a device).
run() {
    out=$(LD_LIBRARY_PATH="$dest$libdir" "$dest/$1" 2>&1)
    rc=$?
    case $out in
    *CLRS_ERR_NO_DEVICE*) skip "$1 runs: no OpenCL device" ;;
    *) if [ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | tail -n 1)" = OK ]; then
           ok "$1 runs a plan and matches the reference"
       else
           notok "$1 runs: exit $rc: $out"
       fi ;;
    esac
}

if build example; then
    run example
    if LD_LIBRARY_PATH="$dest$libdir" ldd "$dest/example" |
        grep -q "$dest$libdir/libclresample.so"; then
        ok "it loads the installed libclresample.so"
    else
        notok "it loads the installed libclresample.so"
    fi
fi

# Only the public API is exported.
syms=$(nm -D --defined-only "$dest$libdir/libclresample.so" | awk '{print $3}')
if printf '%s\n' "$syms" | grep -v '^clrs_[a-z]' | grep -q .; then
    notok "only clrs_* symbols exported: $(printf '%s\n' "$syms" | grep -v '^clrs_[a-z]' | tr '\n' ' ')"
else
    ok "only clrs_* symbols exported"
fi

# Static: with the shared library gone, -lclresample is the archive, and
# Libs.private / Requires.private must name everything it needs.
rm -f "$dest$libdir"/libclresample.so*
if build example-static --static; then
    run example-static
    if ldd "$dest/example-static" | grep -q libclresample; then
        notok "example-static needs no libclresample.so"
    else
        ok "example-static needs no libclresample.so"
    fi
fi
rm -rf "$dest" "$dest.log"
echo "1..$n"
exit $fail
