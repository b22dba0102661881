# Sourced by the shell tests after they set tap_name:
#     tap_name=launch
#     . "${top_srcdir:-.}/tests/tap.sh"
# Gives top_builddir and top_srcdir defaults, the tool, a scratch
# directory $tmp (tests/tmp-NAME.PID, removed on exit) and the TAP
# counters n and failed with ok, not_ok and skip, need_device,
# device_fp64, quick, digests, passes_under, same_under,
# taken_only_under, refused and all_passed.

: "${top_builddir:=.}"
: "${top_srcdir:=.}"
tool="$top_builddir/tools/clresample"
tmp="$top_builddir/tests/tmp-$tap_name.$$"
mkdir -p "$tmp" || { echo "Bail out! cannot create $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT INT TERM

# quick: "1" in the quick tier (CLRS_TEST_TIER=quick, make check's),
# where a test runs each feature at least once, not every combination;
# empty for make check-full and a test run by hand.
quick=
[ "${CLRS_TEST_TIER:-}" = quick ] && quick=1

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }

# need_device: ends the test as a skip where the tool finds no OpenCL
# device (its exit status 3).
need_device() {
    "$tool" --mode=C mb1ic1iw2ow4 >"$tmp/dev.out" 2>&1
    if [ $? -eq 3 ]; then
        echo "1..0 # SKIP no OpenCL device"
        exit 0
    fi
}

# device_line: the --list-devices line of the device the tool opens
# (CLRS_DEVICE, else the first); empty without a device.
device_line() {
    _pd=$("$tool" --mode=C mb1ic1iw2ow4 2>/dev/null |
        sed -n 's/^device \([0-9]*:[0-9]*\): .*/\1/p' | head -n 1)
    [ -n "$_pd" ] && "$tool" --list-devices 2>/dev/null |
        grep "^$_pd  " | head -n 1
}

# device_fp64: "yes" or "no", whether that device has fp64; empty
# without a device. A problem SKIPPED for want of fp64 is a skip only
# where this says no.
device_fp64() {
    device_line | sed -n 's/.* | fp64 \([a-z]*\) | .*/\1/p'
}

# device_type: "gpu", "cpu", "accelerator" or "other", that device's
# kind (the launch defaults' device classes go by it); empty without a
# device.
device_type() {
    device_line | sed -n 's/.* | \([a-z]*\) | fp64 [a-z]* | .*/\1/p'
}

# digests FILE: "repro digest" per problem of a JSON run's stdout.
digests() {
    sed -n 's/.*"repro":"\([^"]*\)".*"digest":"\([0-9a-f]*\)".*/\1 \2/p' "$1"
}

# passes_under SETTING NAME BATCH: under CLRS_LAUNCH=SETTING every
# problem of the batch agrees with the reference (all_passed).
passes_under() {
    CLRS_LAUNCH="$1" "$tool" --mode=C --perf-template=json \
        --batch="$3" >"$tmp/pass.out" 2>&1
    _rc=$?
    _total=$(sed -n 's/^tests:\([0-9]*\) .*/\1/p' "$tmp/pass.out")
    if all_passed "$tmp/pass.out" $_rc; then
        ok "$1: the $_total problems of $2 agree with the reference"
    else
        not_ok "$1: $2 fails (exit $_rc)"
        grep -v '"status":"PASSED"' "$tmp/pass.out" | head -n 20 |
            cut -c1-300 | sed 's/^/# /'
    fi
}

# same_under KNOB A B NAME BATCH: the batch's outputs (SHA-256 digests)
# under CLRS_LAUNCH=KNOB=A and KNOB=B must be byte-identical.
same_under() {
    for _v in "$2" "$3"; do
        CLRS_LAUNCH="$1=$_v" "$tool" --mode=R --perf-template=json \
            --batch="$5" >"$tmp/same$_v.json" 2>"$tmp/same$_v.err"
        digests "$tmp/same$_v.json" >"$tmp/same$_v"
    done
    _cnt=$(wc -l <"$tmp/same$2")
    if [ "$_cnt" -gt 0 ] && cmp -s "$tmp/same$2" "$tmp/same$3"; then
        ok "$4: the $_cnt problems' outputs are byte-identical under $1=$3 and $1=$2"
    else
        not_ok "$4: outputs differ under $1=$3 ($_cnt problems)"
        diff "$tmp/same$2" "$tmp/same$3" | head -n 10 | sed 's/^/# /'
    fi
}

# taken_only_under KNOB PATTERN WHAT BATCH: the kernels the batch
# builds under CLRS_LAUNCH=KNOB=1 include some whose dumped source
# matches PATTERN (grep), and under KNOB=0 none do: a comparison of the
# two settings' bytes is then not vacuous.
taken_only_under() {
    for _v in 1 0; do
        rm -rf "$tmp/k$_v"
        mkdir -p "$tmp/k$_v"
        CLRS_LAUNCH=$1=$_v CLRS_DUMP_SOURCE="$tmp/k$_v" "$tool" --mode=R \
            --batch="$4" >/dev/null 2>&1
    done
    _k1=$(grep -l "$2" "$tmp/k1"/*.cl 2>/dev/null | wc -l)
    _k0=$(grep -l "$2" "$tmp/k0"/*.cl 2>/dev/null | wc -l)
    if [ "$_k1" -gt 0 ] && [ "$_k0" -eq 0 ]; then
        ok "the matrix builds $_k1 $3 kernels under $1=1, none under $1=0"
    else
        not_ok "$3 kernels: $_k1 under $1=1, $_k0 under $1=0"
    fi
}

# refused SETTING ARGS...: a plan under CLRS_LAUNCH=SETTING (a malformed
# value) fails, and its message names the item.
refused() {
    _s=$1
    shift
    if CLRS_LAUNCH=$_s "$tool" --mode=R "$@" >"$tmp/bad" 2>&1; then
        not_ok "CLRS_LAUNCH=$_s is accepted"
    elif grep -q "$_s" "$tmp/bad"; then
        ok "CLRS_LAUNCH=$_s is refused, naming the item"
    else
        not_ok "CLRS_LAUNCH=$_s fails without naming the item"
        head -n 3 "$tmp/bad" | sed 's/^/# /'
    fi
}

# all_passed OUT RC: true when a --mode=C --perf-template=json run (its
# stdout OUT, its exit status RC) failed nothing and skipped only f64
# problems, and those only on a device without fp64 ($fp64, from
# device_fp64). Leaves the skipped problems' lines in $tmp/skipped.
all_passed() {
    grep '"status":"SKIPPED"' "$1" >"$tmp/skipped"
    if [ "${fp64:-}" = no ]; then
        grep -v 'needs fp64' "$tmp/skipped" >"$tmp/bad_skips"
    else
        cp "$tmp/skipped" "$tmp/bad_skips"
    fi
    [ "$2" -eq 0 ] && ! grep -q 'failed:[1-9]' "$1" && [ ! -s "$tmp/bad_skips" ]
}
