#!/bin/sh
# The vector width bound, proven on any host. With CLRS_TEST_NATIVE_WIDTH=N
# the library takes a device that states native vector widths for one
# whose registers hold N floats (each kind's width scaled down to N * 4
# bytes, never up). Every kernel it then generates for
# tests/inputs/launch_subset and the pooling batch (span, block, axis and
# index paths, f64, 8- and 16-bit types; dumped with CLRS_DUMP_SOURCE)
# must name no vector type wider than N * 4 bytes (4N chars, 2N shorts or
# halves, N ints or floats, N/2 longs or doubles) and pass its check under
# CLRS_WERROR. So a host with wide vectors (AVX-512) checks what a
# narrower one (AVX2: N = 8, SSE: N = 4) would build. A device that states
# no native width (1: GPUs, and rusticl's llvmpipe) is not bounded, and the
# test skips.

tap_name=width-gate
. "${top_srcdir:-.}/tests/tap.sh"

"$tool" --mode=C --list-devices mb1ic1iw2ow4 >"$tmp/dev.out" 2>&1
if [ $? -eq 3 ]; then
    echo "1..0 # SKIP no OpenCL device"
    exit 0
fi

# A device that states native widths takes CLRS_TEST_NATIVE_WIDTH: a
# 16-lane block is then written 4 lanes at a time.
CLRS_TEST_NATIVE_WIDTH=4 "$tool" --mode=P --fix-times-per-prb=1 \
    --tag=aBx16b mb1ic16ih4iw4oh8ow8 >"$tmp/probe" 2>&1
if ! grep -q 'vector:block/4,' "$tmp/probe"; then
    echo "1..0 # SKIP the device states no native vector width (1: a GPU, or rusticl's llvmpipe): nothing bounds its vectors"
    exit 0
fi

# too_wide DIR N: the vector types of DIR/*.cl wider than N floats' bytes.
too_wide() {
    cat "$1"/*.cl 2>/dev/null |
        grep -oE '\b(u?char|u?short|half|u?int|float|u?long|double)(2|3|4|8|16)\b' |
        sort -u | awk -v n="$2" '{
            t = $0; sub(/[0-9]+$/, "", t); w = substr($0, length(t) + 1)
            b = t ~ /char/ ? 1 : t ~ /short|half/ ? 2 : t ~ /long|double/ ? 8 : 4
            if (w * b > n * 4) print $0 }'
}

for N in 4 8; do
    src="$tmp/src$N"
    mkdir -p "$src"
    CLRS_TEST_NATIVE_WIDTH=$N CLRS_DUMP_SOURCE="$src" "$tool" --mode=C \
        --batch="$top_srcdir/tests/inputs/launch_subset" \
        --batch="$top_srcdir/tests/inputs/test_pooling_ci" >"$tmp/out" 2>&1
    rc=$?
    kernels=$(ls "$src" | grep -c '\.cl$')
    wide=$(too_wide "$src" "$N" | tr '\n' ' ')
    summary=$(grep '^tests:' "$tmp/out")
    if [ $rc -eq 0 ] && [ "$kernels" -ge 40 ] && [ -z "$wide" ]; then
        ok "CLRS_TEST_NATIVE_WIDTH=$N: $kernels kernels, no vector wider than $((N * 4)) bytes, $summary"
    else
        not_ok "CLRS_TEST_NATIVE_WIDTH=$N: exit $rc, $kernels kernels, too wide: ${wide:-none}; $summary"
        grep -v ':PASSED ' "$tmp/out" | head -20 | sed 's/^/# /'
    fi
done
echo "1..$n"
exit $failed
