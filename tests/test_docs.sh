#!/bin/sh
# The documentation stays complete and self-contained: every CLRS_*
# environment variable the library or the tool reads (getenv in lib/ and
# tools/) is described in both manuals and the README; every public
# function of include/clresample.h (a CLRS_API declaration) is in
# clresample(3); and no shipped file points to a document the tarball
# does not hold (a "SPEC" or "DESIGN.md" of the development notes).
# TAP, run by make check; reads the source tree only.

: "${top_srcdir:=.}"
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }

man1="$top_srcdir/tools/clresample.1"
man3="$top_srcdir/tools/clresample.3"
readme="$top_srcdir/README.md"

vars=$(cat "$top_srcdir"/lib/*.c "$top_srcdir"/tools/*.c |
    grep -o 'getenv("CLRS_[A-Z0-9_]*")' | sed 's/getenv("\(.*\)")/\1/' |
    sort -u)
nvars=$(echo "$vars" | grep -c .)
# A sanity floor, so that a broken pattern cannot pass by finding nothing.
if [ "$nvars" -ge 8 ]; then
    ok "$nvars CLRS_* variables read: $(echo $vars)"
else
    not_ok "only $nvars CLRS_* variables found: $(echo $vars)"
fi
for v in $vars; do
    for doc in "$man1" "$man3" "$readme"; do
        if grep -q "\\b$v\\b" "$doc"; then
            ok "$v is described in $(basename "$doc")"
        else
            not_ok "$v is read (getenv) but missing from $(basename "$doc")"
        fi
    done
done

funcs=$(grep -o 'CLRS_API [^(]*(' "$top_srcdir/include/clresample.h" |
    sed 's/.*[ *]\([a-z_0-9]*\)($/\1/' | grep '^clrs_' | sort -u)
nfuncs=$(echo "$funcs" | grep -c '^clrs_')
if [ "$nfuncs" -ge 60 ]; then
    ok "$nfuncs public functions in clresample.h"
else
    not_ok "only $nfuncs public functions found in clresample.h"
fi
missing=
for f in $funcs; do
    grep -q "\\b$f\\b" "$man3" || missing="$missing $f"
done
if [ -z "$missing" ]; then
    ok "clresample(3) names every public function"
else
    not_ok "clresample(3) lacks:$missing"
fi

# Citations of the development notes, which do not ship (CL error names
# such as CL_INVALID_SPEC_ID are no citation).
cites=$(cd "$top_srcdir" && grep -n -E \
    '(^|[^A-Za-z_])SPEC([^A-Za-z_]|$)|DESIGN\.md|SPEC\.md' \
    README.md configure.ac Makefile.am clresample.pc.in include/*.h \
    lib/*.c lib/*.h lib/*.awk cl/*.cl tools/*.c tools/*.h tools/*.1 \
    tools/*.3 tests/*.c tests/*.h tests/*.cc tests/*.sh tests/inputs/* \
    2>/dev/null | grep -v -e '^tests/test_docs\.sh:' -e '^lib/cl_embed\.c:')
if [ -z "$cites" ]; then
    ok "no shipped file cites SPEC or DESIGN.md"
else
    not_ok "shipped files cite documents that do not ship:"
    echo "$cites" | sed 's/^/# /'
fi

echo "1..$n"
exit $failed
