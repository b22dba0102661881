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

# A driver that logs NVIDIA's notice for every kernel ("Function ... is
# a kernel, so overriding noinline attribute"): the library drops it, so
# the problem has no build log; on PoCL with a planted warning too, the
# log keeps the warning and not the notice.
fault driver-notice
if [ "$rc" = 0 ] && grep -q 'passed:1 ' "$tmp/out" &&
    ! grep -q 'build log' "$tmp/out"; then
    ok "NVIDIA's kernel notice alone leaves no build log"
else not_ok "NVIDIA's kernel notice: exit $rc"; show; fi
if grep -q '^device .*(Portable Computing Language)$' "$tmp/out"; then
    LD_PRELOAD="$so" CLRS_TEST_FAULT=driver-notice CLRS_CACHE=0 \
        POCL_CACHE_DIR="$tmp/pocl-notice" \
        POCL_EXTRA_BUILD_FLAGS="-DCLRS_LD_f32=2 -DCLRS_LDV_f32=2" \
        "$tool" -v --mode=C $prb >"$tmp/out" 2>&1
    if grep -q 'CLRS_LDV\{0,1\}_f32.*redefined' "$tmp/out" &&
        ! grep -q 'overriding noinline' "$tmp/out"; then
        ok "a planted warning stays in the log, NVIDIA's notice does not"
    else not_ok "a planted warning beside NVIDIA's notice"; show; fi
else
    skip "a planted warning needs PoCL as the device"
fi

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

# Runs killed in the middle of writing a cache entry and the tuning
# database leave their temp files; the next run removes them (their
# writer's lock is gone), once they are two seconds old.
cache="$tmp/litter"
mkdir -p "$cache"
litter() { ls "$cache" | grep '^tmp-'; }
killed() { # PREFIX ARGS...: a run killed in the fsync of PREFIX*
    pre=$1; shift
    { LD_PRELOAD="$so" CLRS_TEST_FAULT="kill-write:$pre" \
        CLRS_CACHE_DIR="$cache" "$tool" "$@"; echo $? >"$tmp/rc"; } \
        >"$tmp/out" 2>&1
    rc=$(cat "$tmp/rc")
}
CLRS_CACHE_DIR="$cache" "$tool" --mode=C $prb >"$tmp/out" 2>&1
killed tmp- --mode=C --alg=nearest mb1ic3ih8oh16
left=$(litter)
if [ "$rc" = 137 ] && [ -n "$left" ]; then
    ok "a run killed writing a cache entry leaves its temp file ($left)"
else not_ok "killed mid-write: exit $rc, temp files '${left}'"; show; fi
killed tmp-tuning --mode=T --tune-ms=20000 $prb
tleft=$(litter | grep '^tmp-tuning')
if [ "$rc" = 137 ] && [ -n "$tleft" ]; then
    ok "a run killed writing the tuning database leaves its temp file ($tleft)"
else not_ok "killed mid-write of the database: exit $rc, '${tleft}'"; show; fi
sleep 3
CLRS_CACHE_DIR="$cache" "$tool" --mode=C $prb >"$tmp/out" 2>&1
rc=$?
left=$(litter)
if [ "$rc" = 0 ] && [ -z "$left" ]; then
    ok "the next run (a cache hit, writing nothing) removes both"
else not_ok "after the next run: exit $rc, temp files '${left}'"; show; fi
# A full file system (a tmpfs, where this runs as root and may mount
# one): a new entry evicts old ones only where that makes room. The
# evictable entries are stand-ins with entry names, old, of the size each
# case needs; the rest of the file system is filled up. The entry's size
# is measured first: a PoCL program binary holds what PoCL has compiled
# of the program so far, 55 KB in one state and 530 KB in another.
mkdir -p "$tmp/probe"
CLRS_CACHE_DIR="$tmp/probe" "$tool" --mode=C $prb >/dev/null 2>&1
esize=$(cat "$tmp/probe"/*.clrs 2>/dev/null | wc -c)
[ "$esize" -gt 65536 ] || esize=65536
room=$((esize * 3 / 2)) # a stand-in: room for the entry, half again
fs="$tmp/fs"
mkdir -p "$fs"
if mount -t tmpfs -o size=$(((6 * esize + 1048576) / 1024))k tmpfs "$fs" 2>/dev/null; then
    trap 'umount "$fs" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
    fill() { # SIZE: two stand-ins of SIZE bytes, then the rest full
        rm -rf "$fs/c" "$fs/filler"
        mkdir -p "$fs/c"
        CLRS_CACHE_DIR="$fs/c" "$tool" --mode=C --alg=nearest mb1ic1iw4ow8 \
            >/dev/null 2>&1
        rm -f "$fs"/c/*.clrs
        for h in 1 2; do
            f="$fs/c/$(printf '%064d' $h).clrs"
            head -c "$1" /dev/zero >"$f"
            touch -d '2001-01-01' "$f"
        done
        dd if=/dev/zero of="$fs/filler" bs=4096 >/dev/null 2>&1
    }
    stand_ins() { ls "$fs/c" | grep -c '^0*[12]\.clrs$'; }
    entries() { ls "$fs/c" | grep -c '^[0-9a-f]\{64\}\.clrs$'; }
    fill 4096
    CLRS_CACHE_DIR="$fs/c" "$tool" --mode=C $prb >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" = 0 ] && [ "$(stand_ins)" = 2 ] && [ "$(entries)" = 2 ]; then
        ok "a full disk where eviction cannot make room: the run passes uncached and evicts nothing"
    else not_ok "full disk, too little to evict: exit $rc, $(stand_ins) of 2 stand-ins left, $(entries) entries"; show; fi
    fill "$room"
    CLRS_CACHE_DIR="$fs/c" "$tool" --mode=C $prb >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" = 0 ] && [ "$(stand_ins)" -lt 2 ] && [ "$(entries)" -ge 1 ] &&
        [ "$(entries)" -gt "$(stand_ins)" ]; then
        ok "a full disk where eviction makes room: old entries go, the new one is stored"
    else not_ok "full disk, room by eviction: exit $rc, $(stand_ins) of 2 stand-ins left, $(entries) entries"; show; fi
    umount "$fs"
    trap 'rm -rf "$tmp"' EXIT INT TERM
else
    skip "a full disk where eviction cannot make room (cannot mount a tmpfs)"
    skip "a full disk where eviction makes room (cannot mount a tmpfs)"
fi

# A live writer's temp file stays: one held open and locked by a
# process that sleeps (flock(1) would take a lock of another kind).
if ! command -v python3 >/dev/null 2>&1; then
    skip "a temp file its writer still locks stays (needs python3)"
    echo "1..$n"
    exit $failed
fi
python3 - "$cache/tmp-live-test" <<'PY' &
import fcntl, os, struct, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.fcntl(fd, 37, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0))  # F_OFD_SETLK
os.utime(fd, (time.time() - 60, time.time() - 60))
open(sys.argv[1] + ".ready", "w").close()
time.sleep(60)
PY
holder=$!
i=0
while [ ! -f "$cache/tmp-live-test.ready" ] && [ $i -lt 100 ]; do
    sleep 0.1; i=$((i + 1)); done
rm -f "$cache/tmp-live-test.ready"
CLRS_CACHE_DIR="$cache" "$tool" --mode=C $prb >"$tmp/out" 2>&1
left=$(litter)
kill $holder 2>/dev/null; wait $holder 2>/dev/null
if [ "$left" = tmp-live-test ]; then
    ok "a temp file its writer still locks stays"
else not_ok "a live writer's temp file: '${left}'"; fi

echo "1..$n"
exit $failed
