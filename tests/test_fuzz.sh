#!/bin/sh
# The libFuzzer targets (tests/fuzz/): each runs over its seed corpus for
# FUZZ_RUNS inputs (at most FUZZ_SECONDS of wall time), with
# AddressSanitizer and UBSan; a crash, a leak, a sanitizer report, an
# input slower than 10 s or above 2 GB is a failure, and the input that
# caused it is kept under tests/ (fuzz-artifact-*) for the rerun:
#   tests/fuzz/fuzz_parse tests/fuzz-artifact-crash-...
# Skipped without a C compiler that has libFuzzer (FUZZ_CC empty), unless
# CLRS_REQUIRE_FUZZ=1 (CI), which makes that a failure.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
runs=${FUZZ_RUNS:-20000}
secs=${FUZZ_SECONDS:-120}
tmp="$top_builddir/tests/tmp-fuzz-$$"

if [ -z "${FUZZ_CC:-}" ]; then
    if [ "${CLRS_REQUIRE_FUZZ:-0}" = 1 ]; then
        echo "not ok 1 - no C compiler with libFuzzer (install clang and libclang-rt-dev, rerun configure)"
        echo "1..1"
        exit 1
    fi
    echo "1..0 # SKIP no C compiler with libFuzzer (configure looks for clang that links -fsanitize=fuzzer)"
    exit 0
fi
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

n=0
failed=0
for target in parse npy; do
    prog="$top_builddir/tests/fuzz/fuzz_$target"
    seeds="$top_srcdir/tests/fuzz/corpus_$target"
    n=$((n + 1))
    if [ ! -x "$prog" ]; then
        failed=1
        echo "not ok $n - fuzz_$target is not built (make fuzz)"
        continue
    fi
    # New inputs go to a scratch corpus (the seeds stay as checked in);
    # the tool's own messages are closed off (-close_fd_mask=3), the
    # fuzzer's reports are not.
    mkdir -p "$tmp/$target"
    TMPDIR=$(cd "$tmp" && pwd) "$prog" -runs="$runs" -max_total_time="$secs" \
        -max_len=4096 -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 \
        -print_final_stats=1 \
        -artifact_prefix="$top_builddir/tests/fuzz-artifact-" \
        "$tmp/$target" "$seeds" >"$tmp/$target.log" 2>&1
    rc=$?
    stats=$(grep -E '^stat::number_of_executed_units' "$tmp/$target.log" |
        sed 's/.*: *//')
    if [ $rc -eq 0 ]; then
        echo "ok $n - fuzz_$target: ${stats:-?} inputs, no finding"
    else
        failed=1
        echo "not ok $n - fuzz_$target: exit $rc after ${stats:-?} inputs"
        grep -E 'ERROR|SUMMARY|artifact|Test unit written' "$tmp/$target.log" |
            head -20 | sed 's/^/# /'
    fi
done
echo "1..$n"
exit $failed
