#!/bin/sh
# The documentation stays complete, current and self-contained: every
# CLRS_* environment variable the library or the tool reads (getenv in
# lib/ and tools/) is described in both manuals, in README.md (for users)
# and in lib/README.md (for people changing the library); every public
# function of include/clresample.h (a CLRS_API declaration) is in
# clresample(3); README.md stays under 500 lines; the code names both
# READMEs cite (identifiers with an underscore, paths in the tree) exist
# in the sources, and the files README.md links to ship; and no shipped
# file points to a document the tarball does not hold (a "SPEC" or
# "DESIGN.md" of the development notes). TAP, run by make check; reads
# the source tree only.

: "${top_srcdir:=.}"
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }

man1="$top_srcdir/tools/clresample.1"
man3="$top_srcdir/tools/clresample.3"
readme="$top_srcdir/README.md"
libreadme="$top_srcdir/lib/README.md"

vars=$(cat "$top_srcdir"/lib/*/*.c "$top_srcdir"/tools/*.c |
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
    for doc in "$man1" "$man3" "$readme" "$libreadme"; do
        if grep -q "\\b$v\\b" "$doc"; then
            ok "$v is described in ${doc#"$top_srcdir"/}"
        else
            not_ok "$v is read (getenv) but missing from ${doc#"$top_srcdir"/}"
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

# README.md is the users' own: what the library is, how to build and use
# it, where the manuals are; the internals are lib/README.md's.
lines=$(wc -l <"$readme")
if [ "$lines" -lt 500 ]; then
    ok "README.md has $lines lines (under 500)"
else
    not_ok "README.md has $lines lines: the internals belong in lib/README.md"
fi

# What the READMEs cite is there. Identifiers in backquotes with an
# underscore (functions, macros, Makefile variables, options) occur in
# the sources, except the OpenCL C built-in that lib/README.md names as
# history; paths below the tree's own directories exist in the source
# or, built (lib/gen/cl_embed.c, the test programs), in the build tree (not
# .ci/, which the tarball does not hold).
sources=$(cd "$top_srcdir" && ls lib/*/*.c lib/*/*.h lib/*/*.awk cl/*.cl \
    include/*.h tools/*.c tools/*.h tools/*.1 tools/*.3 tests/*.c tests/*.h \
    tests/*.cc tests/*.sh Makefile.am configure.ac lib/cmake/*.in \
    2>/dev/null | grep -v '^lib/gen/cl_embed\.c$')
for doc in README.md lib/README.md; do
    missing=
    for w in $(grep -o '`[a-z_][a-z0-9_]*_[a-z0-9_]*`' "$top_srcdir/$doc" |
        tr -d '`' | sort -u); do
        case $w in convert_char16_sat_rte) continue ;; esac
        # shellcheck disable=SC2086
        (cd "$top_srcdir" && grep -qw -- "$w" $sources) ||
            missing="$missing $w"
    done
    for f in $(grep -o '`[a-z.][a-zA-Z0-9_./-]*/[a-zA-Z0-9_.-]*`' \
        "$top_srcdir/$doc" | tr -d '`' | sort -u); do
        case $f in
        lib/*|cl/*|include/*|tools/*|tests/*)
            [ -e "$top_srcdir/$f" ] || [ -e "${top_builddir:-.}/$f" ] ||
                missing="$missing $f" ;;
        esac
    done
    if [ -z "$missing" ]; then
        ok "every name and path $doc cites is in the tree"
    else
        not_ok "$doc cites what the tree does not hold:$missing"
    fi
done
# Files README.md links to or shows exist and are in the tarball.
for f in $(grep -o '](\([^)#: ]*\))' "$readme" | sed 's/^](\(.*\))$/\1/' |
    sort -u); do
    if [ -e "$top_srcdir/$f" ] && grep -q "$f" "$top_srcdir/Makefile.am"; then
        ok "README.md's $f is in the tree and in Makefile.am (it ships)"
    else
        not_ok "README.md's $f is missing, or Makefile.am does not ship it"
    fi
done

# Citations of the development notes, which do not ship (CL error names
# such as CL_INVALID_SPEC_ID are no citation).
cites=$(cd "$top_srcdir" && grep -n -E \
    '(^|[^A-Za-z_])SPEC([^A-Za-z_]|$)|DESIGN\.md|SPEC\.md' \
    README.md lib/README.md configure.ac Makefile.am lib/clresample.pc.in \
    lib/cmake/*.in include/*.h \
    lib/*/*.c lib/*/*.h lib/*/*.awk cl/*.cl tools/*.c tools/*.h tools/*.1 \
    tools/*.3 tests/*.c tests/*.h tests/*.cc tests/*.sh tests/inputs/* \
    2>/dev/null | grep -v -e '^tests/test_docs\.sh:' -e '^lib/gen/cl_embed\.c:')
if [ -z "$cites" ]; then
    ok "no shipped file cites SPEC or DESIGN.md"
else
    not_ok "shipped files cite documents that do not ship:"
    echo "$cites" | sed 's/^/# /'
fi

echo "1..$n"
exit $failed
