#!/bin/sh
# The tool never hides a failure: what a driver (or a sanitizer) prints
# to stderr while the tool captures it during plan creation is shown when
# the build fails, and when the process dies there (exit 1 after a
# report, as AddressSanitizer does; abort; SIGKILL, which prints nothing:
# then that is said). tests/fault_preload.c, preloaded, is the failing
# driver.

tap_name=cli-faults
. "${top_srcdir:-.}/tests/tap.sh"
tmp=$(cd "$tmp" && pwd)

so="$(cd "$top_builddir/tests" && pwd)/.libs/libfaultpreload.so"
prb="--alg=linear mb1ic3ih8oh16"
"$tool" --mode=C $prb >"$tmp/out" 2>&1
if [ $? -eq 3 ]; then
    echo "1..0 # SKIP no OpenCL device"
    exit 0
fi
if [ ! -f "$so" ]; then
    echo "1..0 # SKIP $so was not built"
    exit 0
fi
# A sanitized tool insists that its runtime comes first among the
# libraries; the preloaded one comes before it, harmlessly.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

# fault HOW: the tool under the failing driver. Its stderr through a
# pipe, so that the output of every process holding it is read (the
# watcher that shows the captured output writes after the tool ended);
# the exit status in $rc, the output in $tmp/out.
fault() {
    { LD_PRELOAD="$so" CLRS_TEST_FAULT=$1 "$tool" --mode=C $prb
        echo $? >"$tmp/rc"; } 2>&1 | cat >"$tmp/out"
    rc=$(cat "$tmp/rc")
}
show() { sed 's/^/# /' "$tmp/out"; }
ended='the process ended while creating a plan'

fault ""
if [ "$rc" = 0 ] && grep -q 'passed:1 ' "$tmp/out" &&
    ! grep -q "$ended" "$tmp/out"; then
    ok "the preloaded driver passes calls on when no fault is asked for"
else not_ok "no fault: exit $rc"; show; fi

fault exit
if [ "$rc" = 1 ] &&
    grep -q "==fault== ERROR: the driver's report (exit)" "$tmp/out" &&
    grep -q "$ended; what it printed to stderr meanwhile follows" "$tmp/out"
then ok "a process that prints a report and exits 1 mid-build: the report is shown"
else not_ok "exit 1 mid-build: exit $rc, the report lost"; show; fi

fault abort
if [ "$rc" = 134 ] &&
    grep -q "==fault== ERROR: the driver's report (abort)" "$tmp/out" &&
    grep -q "$ended" "$tmp/out"
then ok "an abort mid-build (exit $rc): the report is shown"
else not_ok "abort mid-build: exit $rc, the report lost"; show; fi

fault kill
if [ "$rc" = 137 ] &&
    grep -q "$ended, and printed nothing meanwhile" "$tmp/out"
then ok "SIGKILL mid-build (exit $rc): said, though nothing was printed"
else not_ok "SIGKILL mid-build: exit $rc, nothing said"; show; fi

fault fail
if [ "$rc" = 1 ] &&
    grep -q "==fault== ERROR: the driver's report (fail)" "$tmp/out" &&
    grep -q 'FAILED' "$tmp/out" && ! grep -q "$ended" "$tmp/out"
then ok "a failed build: the driver's output is shown with the FAILED status"
else not_ok "failed build: exit $rc"; show; fi

echo "1..$n"
exit $failed
