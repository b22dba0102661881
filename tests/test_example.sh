#!/bin/sh
# The example program (tools/example.c): it runs and agrees with the CPU
# reference, and the README quotes it whole (the fenced c block after the
# line <!-- example:tools/example.c -->), so the two cannot drift apart.
# TAP, run by make check.

tap_name=example
. "${top_srcdir:-.}/tests/tap.sh"

# The README's copy, byte for byte.
awk -v m="<!-- example:tools/example.c -->" '
    $0 == m { f = 1; next }
    f && /^```c$/ { g = 1; next }
    g && /^```$/ { exit }
    g { print }' "$top_srcdir/README.md" >"$tmp/quoted.c"
if ! test -s "$tmp/quoted.c"; then
    not_ok "README.md quotes tools/example.c (no block after the marker)"
elif cmp -s "$tmp/quoted.c" "$top_srcdir/tools/example.c"; then
    ok "README.md quotes tools/example.c whole and unchanged"
else
    not_ok "README.md's copy of tools/example.c differs:"
    diff -u "$top_srcdir/tools/example.c" "$tmp/quoted.c" | sed 's/^/# /'
fi

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
