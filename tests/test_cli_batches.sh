#!/bin/sh
# make check's run of the correctness batches tests/inputs/test_*_ci
# (make check-full's: test_*_full too) through clresample --mode=C: one
# TAP point per problem, and anything but PASSED (UNIMPLEMENTED
# included) is a failure, except a problem the device cannot run
# (CLRS_ERR_UNSUPPORTED: an f64 tensor on a device that --list-devices
# shows without fp64), a skip. First each batch runs on the CPU
# reference engine as a self-check of the tool itself.
#   CLRS_CLI_ENGINE=ref   reference self-check only (no device needed)
# Two programs share the batches, so that make -j2 check runs them side
# by side: tests/test_cli_pooling.sh (cli_part=pooling) the batches of
# pooling_part below, this one the rest.

: "${cli_part:=rest}"
tap_name=cli-$cli_part
. "${top_srcdir:-.}/tests/tap.sh"

pooling_part="test_pooling_ci test_pooling_full test_options_ci test_postops_ci"
all=$(ls "$top_srcdir"/tests/inputs/test_*_ci)
[ -n "$quick" ] || all="$all $(ls "$top_srcdir"/tests/inputs/test_*_full)"
batches=
for b in $all; do
    case " $pooling_part " in
    *" $(basename "$b") "*) [ "$cli_part" = pooling ] || continue ;;
    *) [ "$cli_part" = rest ] || continue ;;
    esac
    batches="$batches $b"
done

# Reference engine against the reference on dense tensors: every layout,
# dtype and .npy-free fill path of the tool, without a device.
for b in $batches; do
    name=$(basename "$b")
    "$tool" --engine=ref --mode=C --batch="$b" >"$tmp/ref.out" 2>&1
    rc=$?
    summary=$(grep '^tests:' "$tmp/ref.out")
    if [ $rc -eq 0 ]; then ok "$name on the reference engine: $summary"
    else
        not_ok "$name on the reference engine: exit $rc: $summary"
        grep -v ':PASSED ' "$tmp/ref.out" | head -20 | sed 's/^/# /'
    fi
done

if [ "${CLRS_CLI_ENGINE:-device}" = ref ]; then
    echo "1..$n"
    exit $failed
fi

# The device: one point per problem.
fp64=$(device_fp64)
for b in $batches; do
    name=$(basename "$b")
    "$tool" --mode=C --batch="$b" >"$tmp/dev.out" 2>"$tmp/dev.err"
    rc=$?
    if [ $rc -eq 3 ]; then
        n=$((n + 1))
        echo "ok $n # SKIP $name: no OpenCL device"
        continue
    fi
    while IFS= read -r line; do
        case $line in
        [0-9]*:PASSED\ *) ok "$name ${line%% __REPRO:*} ${line#* __REPRO: }" ;;
        # What the device lacks (fp64 on Mesa rusticl): a skip, its reason;
        # on a device with fp64, a failure.
        [0-9]*:SKIPPED*CLRS_ERR_UNSUPPORTED*needs\ fp64*)
            if [ "$fp64" = no ]; then skip "$name $line"
            else not_ok "$name $line (the device has fp64)"; fi ;;
        [0-9]*:*__REPRO:*) not_ok "$name $line" ;;
        \ \ *) echo "# $line" ;; # worst points of a failure
        esac
    done <"$tmp/dev.out"
    summary=$(grep '^tests:' "$tmp/dev.out")
    want=0
    echo "$summary" | grep -E 'unimplemented:0 invalid_arguments:0 failed:0' \
        >/dev/null || want=1
    if [ -n "$summary" ] && [ $rc -eq $want ]; then
        ok "$name: exit $rc matches $summary"
    else
        not_ok "$name: exit $rc, summary '$summary'"
        sed 's/^/# /' "$tmp/dev.err" | head -20
    fi
done

echo "1..$n"
exit $failed
