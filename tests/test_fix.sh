#!/bin/sh
# u8 weighted sums in 16-bit fixed point (CLRS_LAUNCH=fix=1, the
# default): where every weight of an axis is a multiple of 2^-k, the k of
# all axes together at most 8, the weights at least 0 and an output's
# summing to at most 1, and a padding tap reads a u8 value, a u8 to u8
# linear, cubic, antialiased or average pooling sum runs on ushort lanes
# with its weights times 2^k and rounds half to even by integer steps;
# an s8 to s8 sum the same on its values plus 128 where it reads no
# padding tap and every output's weights sum to exactly 1. The float
# path's products and sums are exact there, so the bytes must be the
# same: a matrix of layouts, channel counts, scales
# (dyadic and not), coordinate modes and ranks passes --mode=C under
# fix=1 and is byte-identical under fix=0 and fix=1 (SHA-256 digests),
# as are the conformance batches; the matrix holds fixed-point kernels
# under fix=1 and none under fix=0, so the comparison is not vacuous.

tap_name=fix
. "${top_srcdir:-.}/tests/tap.sh"

need_device

cat >"$tmp/matrix" <<'EOF2'
--reset --dir=FWD_D --sdt=u8 --ddt=u8
--alg=linear,cubic
--tag=abx,axb,aBx8b
mb2ic1ih33iw37oh66ow74 mb1ic3ih33iw37oh132ow148 mb1ic4ih40iw36oh20ow18
mb1ic16ih19iw21oh38ow42 mb1ic64ih9iw13oh18ow26 mb1ic3ih17iw19oh51ow57
mb1ic5id6ih7iw9od12oh14ow18 mb2ic7iw300ow600 mb2ic7iw300ow150
mb1ic32ih20iw40oh40ow80 mb1ic3ih64iw64oh16ow16 mb1ic3id8ih10iw44od4oh5ow22
--tag=axb --coord=align_corners,asymmetric,half_pixel_symmetric
mb1ic3ih33iw37oh65ow73 mb1ic3ih33iw37oh66ow74 mb1ic64ih9iw13oh17ow26
--reset --dir=FWD_D --sdt=u8 --ddt=u8 --alg=linear,cubic
--antialias=true --tag=abx,axb
mb1ic3ih64iw64oh16ow16 mb1ic3ih64iw64oh32ow32 mb1ic4iw96ow24
--reset --dir=FWD_D --sdt=u8 --ddt=u8 --alg=linear --pad-mode=zero
mb1ic3ih9iw11oh18ow22
--pad-mode=constant --pad-value=3,2.5,300 --coord=align_corners,asymmetric
mb1ic3ih9iw11oh18ow22
--reset --dir=FWD_D --sdt=u8 --ddt=u8 --alg=avg_p,avg_np --tag=abx,axb
mb2ic3ih34iw38kh2kw2sh2sw2 mb1ic64ih16iw18kh2kw2sh2sw2
mb2ic3ih33iw37kh2kw2sh2sw2ph1pw1 mb1ic4ih32iw32kh4kw4sh4sw4
mb1ic3ih33iw37kh3kw3sh2sw2ph1pw1
--reset --dir=FWD_D --sdt=s8 --ddt=s8 --alg=linear,cubic --tag=abx,axb
mb2ic1ih33iw37oh66ow74 mb1ic3ih33iw37oh132ow148 mb1ic4ih40iw36oh20ow18
mb1ic64ih9iw13oh18ow26 mb1ic5id6ih7iw9od12oh14ow18 mb2ic7iw300ow150
--coord=align_corners,asymmetric mb1ic3ih33iw37oh65ow73
--reset --dir=FWD_D --sdt=s8 --ddt=s8 --alg=linear --pad-mode=zero
mb1ic3ih9iw11oh18ow22
--reset --dir=FWD_D --sdt=s8 --ddt=s8 --alg=avg_p,avg_np --tag=abx,axb
mb2ic3ih34iw38kh2kw2sh2sw2 mb2ic3ih33iw37kh2kw2sh2sw2ph1pw1
EOF2
[ -n "$quick" ] && cat >"$tmp/matrix" <<'EOF2'
--reset --dir=FWD_D --sdt=u8 --ddt=u8
--alg=linear
--tag=abx,axb
mb2ic1ih33iw37oh66ow74 mb1ic3ih33iw37oh132ow148 mb1ic4ih40iw36oh20ow18
mb1ic64ih9iw13oh18ow26 mb1ic5id6ih7iw9od12oh14ow18 mb2ic7iw300ow150
mb1ic3ih17iw19oh51ow57 mb1ic3id8ih10iw44od4oh5ow22
--tag=axb --coord=align_corners mb1ic3ih33iw37oh65ow73
--reset --dir=FWD_D --sdt=u8 --ddt=u8 --alg=cubic --tag=abx
mb1ic3ih33iw37oh66ow74 mb1ic3ih64iw64oh16ow16
--antialias=true mb1ic3ih64iw64oh16ow16
--reset --dir=FWD_D --sdt=u8 --ddt=u8 --alg=linear --pad-mode=constant
--pad-value=3,2.5 --coord=asymmetric mb1ic3ih9iw11oh18ow22
--reset --dir=FWD_D --sdt=u8 --ddt=u8 --alg=avg_p,avg_np --tag=axb
mb2ic3ih34iw38kh2kw2sh2sw2 mb2ic3ih33iw37kh2kw2sh2sw2ph1pw1
--reset --dir=FWD_D --sdt=s8 --ddt=s8 --alg=linear --tag=abx,axb
mb1ic3ih33iw37oh66ow74 mb1ic64ih9iw13oh18ow26 mb2ic7iw300ow150
mb1ic5id6ih7iw9od12oh14ow18
--alg=avg_np mb2ic3ih34iw38kh2kw2sh2sw2
EOF2

# fix=1: every problem agrees with the reference.
passes_under fix=1 "the matrix" "$tmp/matrix"

# The matrix takes the fixed-point path under fix=1 only, and its
# trilinear span groups fold the outer slots' rows first (variant_span.c),
# which the float path never does by default.
taken_only_under fix ' fix=[0-9]' fixed-point "$tmp/matrix"
taken_only_under fix ' fold span=1' "folded fixed-point span" "$tmp/matrix"

# Byte-identical to the float path.
same_under fix 0 1 "the matrix" "$tmp/matrix"
batches="test_resampling_ci test_axes_ci test_vendor_ci test_pooling_ci"
[ -n "$quick" ] && batches="test_resampling_ci"
for b in $batches; do
    same_under fix 0 1 "$b" "$top_srcdir/tests/inputs/$b"
done

# u8 and s8 averages in integers (variant_span.c, isc_applies): a span
# group sums its values in 16 bits and scales once, storing where no
# lane lies near a half-integer, else runs its lanes in float. Windows
# of an odd count, of a power of two, and of counts such as 6 (2 x 3,
# and the 3x3 window's clipped edges) whose averages tie at half an
# integer, up to 64 taps (8x8) and past them (9x9: the float path), 1-D
# to 3-D, with and without padding taps: byte-identical to the float
# path, and the integer kernels built under fix=1 only.
cat >"$tmp/isc" <<'EOF2'
--alg=avg_p,avg_np --tag=abx,axb mb1ic3ih70iw90kh3kw3sh2sw2ph1pw1
--tag=abx mb1ic2ih40iw123kh2kw3sh2sw3 mb1ic1ih40iw140kh8kw8sh3sw3ph3pw3
mb1ic1ih40iw140kh9kw9sh2sw2ph4pw4 mb1ic1iw500kw6sw1pw2
mb1ic1id12ih14iw70kd3kh3kw3sd2sh2sw2pd1ph1pw1
EOF2
for t in u8 s8; do
    echo "--reset --dir=FWD_D --sdt=$t --ddt=$t"
    cat "$tmp/isc"
done >"$tmp/isc2"
passes_under fix=1 "integer averages" "$tmp/isc2"
taken_only_under fix ' isc=[0-9]' "integer average" "$tmp/isc2"
same_under fix 0 1 "integer averages" "$tmp/isc2"

# One pass or separable passes of f32 intermediates: the sums are exact
# either way, so the plan's choice between them (plan.c prefers one
# fixed-point pass) cannot move a byte.
cat >"$tmp/sep" <<'EOF2'
--reset --dir=FWD_D --sdt=u8 --ddt=u8 --alg=linear --tag=abx,axb
mb1ic3id6ih7iw9od12oh14ow18 mb1ic16id5ih6iw7od10oh12ow14
mb1ic3ih33iw37oh66ow74 mb1ic4ih40iw36oh20ow18
EOF2
same_under sep 0 1 "dyadic u8 sums in one pass and in passes" "$tmp/sep"

# A malformed knob is refused.
refused fix=2 --sdt=u8 --ddt=u8 --alg=linear mb1ic3ih4iw4oh8ow8

echo "1..$n"
exit $failed
