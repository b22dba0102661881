#!/bin/sh
# Runs the small subset of test_device_forward (one case per mode and
# layout class, tiny sizes) under Oclgrind, which checks every kernel for
# out-of-bounds accesses, uninitialised values, data races and API errors.
# TAP: the subset's own results, then "oclgrind reported nothing" (any
# Oclgrind report fails: it exits 0 whatever it finds, so its log decides).

: "${top_builddir:=.}"

if test -z "$OCLGRIND" || test ! -x "$OCLGRIND"; then
    echo "1..0 # SKIP oclgrind not installed"
    exit 0
fi
# Oclgrind preloads its runtime, which AddressSanitizer refuses to follow;
# the plain build runs this test (CI runs both builds).
if test -n "${SAN_FLAGS:-}"; then
    echo "1..0 # SKIP oclgrind cannot run a sanitizer build"
    exit 0
fi

prog="$top_builddir/tests/test_device_forward"
tmp="$top_builddir/tests/tmp-oclgrind.$$"
rm -rf "$tmp"
mkdir -p "$tmp" || { echo "Bail out! cannot create $tmp"; exit 1; }
log="$tmp/oclgrind.log"
out="$tmp/stdout"
err="$tmp/stderr"

# Every kernel is built by Oclgrind itself: no program from the on-disk
# cache, which holds binaries of the other devices.
CLRS_CACHE=0 "$top_builddir/libtool" --mode=execute \
    "$OCLGRIND" --uninitialized --data-races --check-api --log "$log" \
    "$prog" --oclgrind-subset >"$out" 2>"$err"
status=$?

# The subset's TAP lines without its plan; ours comes last.
grep -v '^1\.\.[0-9]' "$out"
n=$(grep -c -E '^(not )?ok ' "$out")
if grep -q '^1\.\.0 # SKIP' "$out"; then
    # Oclgrind is a device: a skip here means the run went wrong.
    n=$((n + 1))
    echo "not ok $n - subset skipped under oclgrind: $(grep '^1\.\.0' "$out")"
fi

# The subset has 104 cases (a crash stops the count short).
ran=$n
n=$((n + 1))
if test "$ran" -ge 104; then
    echo "ok $n - subset ran $ran cases under oclgrind"
else
    echo "not ok $n - subset ran only $ran cases under oclgrind (want >= 104)"
fi

n=$((n + 1))
if test "$status" -eq 0; then
    echo "ok $n - subset exited 0 under oclgrind"
else
    echo "not ok $n - subset exited $status under oclgrind"
    sed -e 's/^/# stderr: /' "$err" | head -n 40
fi

n=$((n + 1))
if test -s "$log"; then
    reports=$(grep -c -E '^(Invalid|Uninitiali[sz]ed|.*data race|Oclgrind - |Work-group divergence|.*[Ee]rror)' "$log")
    echo "not ok $n - oclgrind reported nothing ($reports reports; log kept in $log)"
    sed -e 's/^/# oclgrind: /' "$log" | head -n 80
    keep=1
else
    echo "ok $n - oclgrind reported nothing"
    keep=0
fi

echo "1..$n"
test "$keep" -eq 1 || rm -rf "$tmp"
exit 0
