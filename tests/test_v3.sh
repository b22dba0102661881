#!/bin/sh
# Three lanes a work-item (CLRS_LAUNCH=v3=1, the default): where the axis
# path's contiguous axis is a multiple of 3 that no power of two from 4
# divides (an RGB pixel, channels-last), a work-item loads and stores
# its three elements with vload3 / vstore3 instead of two lanes and a
# scalar tail. Each lane's sum is the one it was, so the bytes must be
# the same: a matrix of channel counts (3, 6, 9, 39), types, modes and
# directions, separable plans among them, passes --mode=C under v3=1 and
# is byte-identical under v3=0 and v3=1 (SHA-256 digests), as is a
# conformance batch in the full tier; the matrix holds three-lane kernels
# under v3=1 and none under v3=0, so the comparison is not vacuous.

tap_name=v3
. "${top_srcdir:-.}/tests/tap.sh"

need_device

cat >"$tmp/matrix" <<'EOF2'
--reset --dir=FWD_D,BWD_D --tag=axb
--sdt=f32,u8,s8,f16,bf16,s32
--alg=linear,cubic,nearest mb1ic3ih11iw13oh7ow29 mb2ic9ih6iw7oh12ow5
--alg=max,avg_np mb1ic6ih12iw13kh3kw3sh2sw2ph1pw1
--reset --dir=FWD_D --tag=axb --alg=linear,cubic --antialias=true
--sdt=u8,f32,bf16 mb1ic3ih40iw52oh9ow7 mb1ic39ih12iw14oh5ow6
--reset --dir=FWD_D --tag=axb --sdt=u8 --ddt=u8 --alg=linear
--pad-mode=constant --pad-value=7 --coord=asymmetric mb1ic3ih9iw11oh18ow22
EOF2
[ -n "$quick" ] && cat >"$tmp/matrix" <<'EOF2'
--reset --dir=FWD_D,BWD_D --tag=axb
--sdt=f32,u8,f16
--alg=linear,cubic mb1ic3ih11iw13oh7ow29 mb2ic9ih6iw7oh12ow5
--alg=max mb1ic6ih12iw13kh3kw3sh2sw2ph1pw1
--reset --dir=FWD_D --tag=axb --alg=linear --antialias=true
--sdt=u8 mb1ic3ih40iw52oh9ow7
EOF2

# v3=1: every problem agrees with the reference.
passes_under v3=1 "the matrix" "$tmp/matrix"

# The matrix takes three lanes under v3=1 only.
taken_only_under v3 ' vec=3 ' three-lane "$tmp/matrix"

# Byte-identical to two lanes and a tail.
same_under v3 0 1 "the matrix" "$tmp/matrix"
[ -z "$quick" ] &&
    same_under v3 0 1 test_resampling_ci "$top_srcdir/tests/inputs/test_resampling_ci"

# A malformed knob is refused.
refused v3=3 --alg=linear --tag=axb mb1ic3ih4iw4oh8ow8

echo "1..$n"
exit $failed
