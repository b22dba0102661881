#!/bin/sh
# make check's run of the correctness batches tests/inputs/test_*_ci
# through clresample --mode=C: one TAP point per problem, and anything
# but PASSED (UNIMPLEMENTED included) is a failure, except a problem the
# device cannot run (CLRS_ERR_UNSUPPORTED: an f64 tensor on a device that
# --list-devices shows without fp64), a skip. First each batch runs
# on the CPU reference engine as a self-check of the tool itself.
#   CLRS_CLI_ENGINE=ref   reference self-check only (no device needed)

tap_name=cli-batches
. "${top_srcdir:-.}/tests/tap.sh"

batches=$(ls "$top_srcdir"/tests/inputs/test_*_ci)

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
