#!/bin/sh
# The example program (tools/example.c): it runs and agrees with the CPU
# reference, and the README's excerpts of it (each fenced c block after
# a line <!-- example:tools/example.c -->) are the file's own lines,
# each a run of consecutive lines of it, in the file's order, so the
# two cannot drift apart. TAP, run by make check.

tap_name=example
. "${top_srcdir:-.}/tests/tap.sh"

# The README's excerpts, one file each (quoted.1, quoted.2, ...).
awk -v m="<!-- example:tools/example.c -->" -v dir="$tmp" '
    $0 == m { f = 1; next }
    f && /^```c$/ { g = 1; f = 0; ++k; next }
    g && /^```$/ { g = 0; next }
    g { print > (dir "/quoted." k) }' "$top_srcdir/README.md"
nq=$(ls "$tmp" | grep -c '^quoted\.')
if [ "$nq" -eq 0 ]; then
    not_ok "README.md quotes tools/example.c (no block after the marker)"
fi
# Each excerpt starts at a line of the file past the previous one's end
# and matches it line for line.
last=0
i=1
while [ "$i" -le "$nq" ]; do
    at=$(awk -v after="$last" '
        NR == FNR { q[++nq] = $0; next }
        { f[++nf] = $0 }
        END {
            for (s = after + 1; s + nq - 1 <= nf; ++s) {
                for (j = 1; j <= nq && f[s + j - 1] == q[j]; ++j) ;
                if (j > nq) { print s; exit }
            }
        }' "$tmp/quoted.$i" "$top_srcdir/tools/example.c")
    len=$(wc -l <"$tmp/quoted.$i")
    if [ -n "$at" ]; then
        ok "README.md's excerpt $i of tools/example.c is its lines $at-$((at + len - 1))"
        last=$((at + len - 1))
    else
        not_ok "README.md's excerpt $i ($len lines) is not a run of tools/example.c's lines after line $last:"
        sed 's/^/# /' "$tmp/quoted.$i"
    fi
    i=$((i + 1))
done

# The program itself.
"$top_builddir/tools/example" >"$tmp/out" 2>"$tmp/err"
rc=$?
if grep -q CLRS_ERR_NO_DEVICE "$tmp/err"; then
    n=$((n + 1))
    echo "ok $n # SKIP tools/example: no OpenCL device"
elif test $rc -eq 0 && test "$(tail -n 1 "$tmp/out")" = OK &&
     ! test -s "$tmp/err"; then
    ok "tools/example runs and matches the CPU reference"
else
    not_ok "tools/example exit $rc, want 0, OK and nothing on stderr"
fi
sed 's/^/# /' "$tmp/out" "$tmp/err"
echo "1..$n"
exit $failed
