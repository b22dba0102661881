# make install DESTDIR=... installs the header, the library and the .pc
# file; a tiny program built with `pkg-config --cflags --libs clresample`
# against the installed copy links and runs. TAP output.
set -u
dest="$PWD/tests/tmp-install"
rm -rf "$dest"
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }

if $MAKE -C "$top_builddir" install DESTDIR="$dest" >"$dest.log" 2>&1; then
    ok "make install DESTDIR"
else
    notok "make install DESTDIR (see $dest.log)"
    echo "1..$n"; exit 1
fi
for f in "$prefix/include/clresample.h" "$libdir/pkgconfig/clresample.pc" \
         "$libdir/libclresample.so" "$libdir/libclresample.a" \
         "$bindir/clresample"; do
    if [ -e "$dest$f" ]; then ok "installed $f"; else notok "installed $f"; fi
done

export PKG_CONFIG_PATH="$dest$libdir/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$dest"
flags=$($PKG_CONFIG --cflags --libs clresample 2>&1)
if [ $? -eq 0 ]; then ok "pkg-config --cflags --libs clresample: $flags"; else notok "pkg-config: $flags"; fi
cat >"$dest/hello.c" <<'EOC'
#include <clresample.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    clrs_tensor_desc *t = NULL;
    int64_t dims[3] = {2, 3, 4};
    if (clrs_tensor_desc_create(&t, CLRS_F32, 3, dims, NULL) != CLRS_SUCCESS)
        return 1;
    printf("clresample %s, %lld elements\n", clrs_version_string(),
           (long long)clrs_tensor_desc_elements(t));
    clrs_tensor_desc_destroy(t);
    return strcmp(clrs_version_string(), CLRS_VERSION_STRING) != 0;
}
EOC
# shellcheck disable=SC2086
# (a sanitizer build of the library needs the same runtime in the program)
if $CC -std=c99 -Wall -Werror ${SAN_FLAGS:-} -o "$dest/hello" "$dest/hello.c" $flags >"$dest/cc.log" 2>&1; then
    ok "a program compiles and links against the installed copy"
else
    notok "compile against the installed copy: $(cat "$dest/cc.log")"
fi
out=$(LD_LIBRARY_PATH="$dest$libdir" "$dest/hello" 2>&1)
if [ $? -eq 0 ]; then ok "it runs: $out"; else notok "it runs: $out"; fi
if LD_LIBRARY_PATH="$dest$libdir" ldd "$dest/hello" | grep -q "$dest$libdir/libclresample.so"; then
    ok "it loads the installed libclresample.so"
else
    notok "it loads the installed libclresample.so"
fi
# Only the public API is exported.
if nm -D --defined-only "$dest$libdir/libclresample.so" | awk '{print $3}' | grep -v '^clrs_[a-z]' | grep -q .; then
    notok "only clrs_* symbols exported: $(nm -D --defined-only "$dest$libdir/libclresample.so" | awk '{print $3}' | grep -v '^clrs_[a-z]' | tr '\n' ' ')"
else
    ok "only clrs_* symbols exported"
fi
rm -rf "$dest"
echo "1..$n"
exit $fail
