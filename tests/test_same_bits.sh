#!/bin/sh
# The same bits on every implementation: taps and weights come from the
# host and every sum has a fixed order, so PoCL and Mesa's rusticl
# (llvmpipe) write identical bytes. Each conformance batch
# tests/inputs/test_*_ci runs on both through clresample --mode=C
# --perf-template=json, and the output digests (SHA-256 of every output's
# bytes) are compared problem by problem: one TAP point per problem, a
# skip with its reason for the problems clresample(3) does not cover
# (SAME BITS ON EVERY DEVICE):
#   - a device without fp64 (rusticl) runs no f64 tensor;
#   - post-ops through OpenCL built-ins that may differ by some ulp
#     (tanh, exp, expm1, log, log1p, erf, sqrt, and division: logistic,
#     elu, gelu_tanh, gelu_erf, swish, sqrt, exp, log, mish, binary_div);
#   - forward s32 sources through a weighted sum (every mode but nearest
#     and max) where one device has fp64 and the other not: they
#     accumulate in double on the first, in float on the second; and
#     Pillow's 8-bit path (--vendor=pillow, u8 to u8), which the second
#     refuses.
# The resampling batch runs a second time with every problem that
# factorises in separable passes (CLRS_LAUNCH=sep=1), whose order is
# fixed too.
# Every problem must also pass --mode=C on both devices: this is the run of
# the batches on rusticl that CI's rusticl job relies on.
# Skipped as a whole unless both are installed; rusticl lists llvmpipe
# only where RUSTICL_ENABLE names it, which this test does when unset.

tap_name=same-bits
. "${top_srcdir:-.}/tests/tap.sh"

: "${RUSTICL_ENABLE:=llvmpipe}"
export RUSTICL_ENABLE
unset CLRS_DEVICE

"$tool" --list-devices >"$tmp/devs" 2>&1
# P:D of the first device of a platform; $2: a text the line must hold.
find_dev() {
    grep " | $1 | " "$tmp/devs" | grep -e "$2" | head -n 1 |
        sed -n 's/^\([0-9]*:[0-9]*\)  .*/\1/p'
}
pocl=$(find_dev "Portable Computing Language" "")
rusticl=$(find_dev rusticl llvmpipe)
if [ -z "$pocl" ] || [ -z "$rusticl" ]; then
    echo "1..0 # SKIP needs PoCL and Mesa rusticl's llvmpipe (mesa-opencl-icd) both: PoCL ${pocl:-absent}, rusticl llvmpipe ${rusticl:-absent}"
    exit 0
fi
fp64_of() { sed -n "s/^$1  .* | fp64 \([a-z]*\) | .*/\1/p" "$tmp/devs"; }
fp64_pocl=$(fp64_of "$pocl")
fp64_rusticl=$(fp64_of "$rusticl")
echo "# PoCL $pocl (fp64 $fp64_pocl), rusticl $rusticl (fp64 $fp64_rusticl)"

# index|status|digest|repro of each problem of a JSON run
problems() {
    sed -n 's/^{"index":\([0-9]*\),.*"repro":"\([^"]*\)".*"status":"\([A-Z_]*\)".*"digest":"\([0-9a-f]*\)"}$/\1|\3|\4|\2/p' "$1"
}

# Why a problem is not covered, or nothing.
not_covered() {
    case "$1" in
    *eltwise_tanh* | *eltwise_logistic* | *eltwise_elu* | *eltwise_gelu_* | \
        *eltwise_swish* | *eltwise_sqrt* | *eltwise_exp* | *eltwise_log* | \
        *eltwise_mish* | *binary_div*)
        echo "a post-op through OpenCL built-ins with ulp allowances"
        return ;;
    esac
    if [ "$fp64_pocl" != "$fp64_rusticl" ]; then
        case "$1" in
        *--dir=FWD*--alg=nearest* | *--dir=FWD*--alg=max*) ;;
        *--dir=FWD*--sdt=s32*)
            echo "an s32 source summed in double on the device with fp64, in float on the other"
            return ;;
        *--dir=FWD*--sdt=u8*--ddt=u8*--vendor=pillow*)
            echo "Pillow's 8-bit path, which needs fp64"
            return ;;
        esac
    fi
}

# The quick tier: one forward and one backward batch (make check-full
# runs every batch; CI's rusticl job relies on that).
batches=$(ls "$top_srcdir"/tests/inputs/test_*_ci "$top_srcdir"/tests/inputs/test_*_full)
[ -n "$quick" ] && batches="$top_srcdir/tests/inputs/test_resampling_ci $top_srcdir/tests/inputs/test_backward_ci"
# And the resampling batch with every problem that factorises in
# separable passes (CLRS_LAUNCH=sep=1): their order is fixed too.
for spec in $batches "$top_srcdir/tests/inputs/test_resampling_ci@sep=1"; do
    b=${spec%@*}
    launch=
    case $spec in *@*) launch=${spec##*@} ;; esac
    name=$(basename "$b")${launch:+ ($launch)}
    for d in pocl rusticl; do
        eval dev=\$$d
        CLRS_LAUNCH=$launch "$tool" --mode=C --perf-template=json \
            --device="$dev" --batch="$b" \
            >"$tmp/$d.json" 2>"$tmp/$d.err"
        rc=$?
        problems "$tmp/$d.json" >"$tmp/$d.list"
        if [ $rc -gt 1 ] || [ ! -s "$tmp/$d.list" ]; then
            not_ok "$name on $d ($dev): exit $rc, no problem ran"
            sed 's/^/# /' "$tmp/$d.err" | head -n 20
        fi
    done
    if [ "$(cut -d'|' -f1,4 "$tmp/pocl.list")" != \
        "$(cut -d'|' -f1,4 "$tmp/rusticl.list")" ]; then
        not_ok "$name: the two runs list different problems"
        continue
    fi
    paste -d'|' "$tmp/pocl.list" "$tmp/rusticl.list" >"$tmp/both"
    # i|status|digest|repro|i|status|digest|repro
    while IFS='|' read -r i s1 d1 repro _ s2 d2 _; do
        what="$name $i $repro"
        why=$(not_covered "$repro")
        if { [ "$s1" = SKIPPED ] && [ "$fp64_pocl" = no ]; } ||
            { [ "$s2" = SKIPPED ] && [ "$fp64_rusticl" = no ]; }; then
            skip "$what: not run on both (PoCL $s1, rusticl $s2: f64 needs fp64)"
        elif [ "$s1" != PASSED ] || [ "$s2" != PASSED ]; then
            # Each run is also the batch's --mode=C check on its device
            # (the rusticl job runs no test_cli_batches.sh of its own).
            not_ok "$what: PoCL $s1, rusticl $s2 (both must pass --mode=C)"
        elif [ -n "$why" ]; then
            skip "$what: $why"
        elif [ -n "$d1" ] && [ "$d1" = "$d2" ]; then
            ok "$what: $d1 on both"
        else
            not_ok "$what: PoCL $s1 ${d1:-no digest}, rusticl $s2 ${d2:-no digest}"
        fi
    done <"$tmp/both"
done

echo "1..$n"
exit $failed
