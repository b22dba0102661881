#!/bin/sh
# The vector width bound, proven on any host, in both directions. With
# CLRS_TEST_NATIVE_WIDTH=N the library takes a device that states native
# vector widths for one whose registers hold N floats (each kind's width
# that many bytes over its own, at most 16 lanes: what PoCL reports for
# such a CPU). Every kernel it then generates for tests/inputs/launch_subset
# and the pooling batch (span, block, axis and index paths, f64, 8- and
# 16-bit types; dumped with CLRS_DUMP_SOURCE) must name no vector type
# wider than N * 4 bytes (4N chars, 2N shorts or halves, N ints or
# floats, N/2 longs or doubles) and pass its check.
#
# Narrower than the device (N = 4, 8 on AVX-512; 4 on AVX2), under
# CLRS_WERROR: a host with wide vectors checks what a narrower one (AVX2:
# N = 8, SSE: N = 4) builds. Wider than the device (N = 16 on AVX2 or
# SSE): a narrow host checks what an AVX-512 one builds and how its
# kernels compute. Its compiler cannot take those vectors without a
# warning that their ABI needs AVX-512 (-Wpsabi, "changes the ABI"), so
# that run is without CLRS_WERROR and every compiler diagnostic must be
# that one: on a host whose registers hold the vectors, none is left. At
# the device's own width (8 on AVX2, 16 on AVX-512) make check's other
# programs build and check these kernels already, under CLRS_WERROR, and
# this test skips that N. A device that states no native width (1: GPUs,
# and rusticl's llvmpipe) is not bounded, and the test skips.

tap_name=width-gate
. "${top_srcdir:-.}/tests/tap.sh"

"$tool" --mode=C --list-devices mb1ic1iw2ow4 >"$tmp/dev.out" 2>&1
if [ $? -eq 3 ]; then
    echo "1..0 # SKIP no OpenCL device"
    exit 0
fi

# A device that states native widths takes CLRS_TEST_NATIVE_WIDTH: 16
# blocked channels are then read 4 lanes at a time (the JSON perf line's
# "lanes"). Without it, their lanes are the device's own float width (at
# most 16). (The probe read "vector:block/N" from a perf line that no
# longer has it, and the test skipped on every device.)
lanes_of() {
    "$tool" --mode=P --fix-times-per-prb=1 --perf-template=json \
        --tag=aBx16b mb1ic16ih4iw4oh8ow8 >"$tmp/probe" 2>&1
    sed -n 's/.*"lanes":\([0-9]*\),.*/\1/p' "$tmp/probe" | head -n 1
}
if [ "$(CLRS_TEST_NATIVE_WIDTH=4 lanes_of)" != 4 ]; then
    echo "1..0 # SKIP the device states no native vector width (1: a GPU, or rusticl's llvmpipe): nothing bounds its vectors"
    exit 0
fi
own=$(lanes_of)
if [ -z "$own" ]; then
    echo "Bail out! no \"lanes\" on the perf line of a 16-blocked problem"
    sed 's/^/# /' "$tmp/probe"
    exit 1
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

# Computed taps on the span path (CLRS_LAUNCH=calc=1: their cubic and
# padded linear weights are double vectors), in a run of their own.
cat >"$tmp/calc" <<'EOF'
--reset --dir=FWD_D --alg=nearest,linear,cubic --pad-mode=edge,zero
--sdt=f32,u8,f16 mb1ic1iw37ow301 mb1ic2iw100ow37 --tag=axb mb1ic3iw37ow301
EOF

# Computed taps on the span path (CLRS_LAUNCH=calc=1: their cubic and
# padded linear weights are double vectors), in a run of their own.
cat >"$tmp/calc" <<'EOF'
--reset --dir=FWD_D --alg=nearest,linear,cubic --pad-mode=edge,zero
--sdt=f32,u8,f16 mb1ic1iw37ow301 mb1ic2iw100ow37 --tag=axb mb1ic3iw37ow301
EOF

# The quick tier: the narrowest width alone, over launch_subset alone
# (its pooling problems take the index paths).
widths="4 8 16"
batches="--batch=$top_srcdir/tests/inputs/launch_subset --batch=$top_srcdir/tests/inputs/test_pooling_full"
if [ -n "$quick" ]; then
    widths=4
    batches="--batch=$top_srcdir/tests/inputs/launch_subset"
fi
for N in $widths; do
    src="$tmp/src$N"
    mkdir -p "$src"
    if [ "$N" -eq "$own" ]; then
        skip "CLRS_TEST_NATIVE_WIDTH=$N: the device's own width, which the other programs build at"
        continue
    fi
    # Wider than the device: without CLRS_WERROR, -v prints each plan's
    # build log, and with the program cache off every plan has the
    # driver's.
    if [ "$N" -gt "$own" ]; then
        how="wider than the device's $own"
    else
        how="under CLRS_WERROR"
    fi
    (if [ "$N" -gt "$own" ]; then
         unset CLRS_WERROR
         CLRS_CACHE=0; export CLRS_CACHE
         set -- -v
     else
         set --
     fi
     CLRS_TEST_NATIVE_WIDTH=$N CLRS_DUMP_SOURCE="$src" "$tool" "$@" \
         --mode=C $batches &&
         CLRS_LAUNCH=calc=1 CLRS_TEST_NATIVE_WIDTH=$N \
             CLRS_DUMP_SOURCE="$src" "$tool" "$@" --mode=C \
             --batch="$tmp/calc") >"$tmp/out" 2>&1
    rc=$?
    kernels=$(ls "$src" | grep -c '\.cl$')
    wide=$(too_wide "$src" "$N" | tr '\n' ' ')
    summary=$(grep '^tests:' "$tmp/out" | tr '\n' ' ')
    # Every compiler diagnostic: only the ABI warning, and only wider.
    # The tool keeps a log's first 2 KiB: a line cut short ("[...]"
    # after it) is not counted.
    awk '/^ *\[\.\.\.\]$/ { prev = ""; next }
        { if (prev != "") print prev; prev = "" }
        /(warning|error):/ && !/:FAILED / { prev = $0 }
        END { if (prev != "") print prev }' "$tmp/out" >"$tmp/diag"
    other=$(grep -vc 'changes the ABI' "$tmp/diag")
    abi=$(grep -c 'changes the ABI' "$tmp/diag")
    [ "$N" -gt "$own" ] || other=$((other + abi))
    if [ $rc -eq 0 ] && [ "$kernels" -ge 40 ] && [ -z "$wide" ] &&
        [ "$other" -eq 0 ]; then
        ok "CLRS_TEST_NATIVE_WIDTH=$N ($how): $kernels kernels, no vector wider than $((N * 4)) bytes, $abi ABI warnings and no other diagnostic, $summary"
    else
        not_ok "CLRS_TEST_NATIVE_WIDTH=$N ($how): exit $rc, $kernels kernels, too wide: ${wide:-none}, $other diagnostics other than the ABI warning; $summary"
        grep -v ':PASSED ' "$tmp/out" | grep -v 'changes the ABI' |
            head -20 | sed 's/^/# /'
    fi
done
echo "1..$n"
exit $failed
