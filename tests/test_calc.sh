#!/bin/sh
# Taps the kernel computes from the coordinate instead of reading tables
# (CLRS_LAUNCH=calc=1 wherever it can; by default on axes of 2^21 taps or
# more, or a quarter tap per tensor element where that is more, a C-th
# of that over C fused channels): forward nearest, linear and cubic,
# antialiased or not (loops over the filter unrolled where an output has
# at most 64 pixels under it, 1-D or 2-D, else over its range), on a
# device with fp64 (the fraction and the weights in double, as the
# reference's tables hold them; without it the tables stay). A matrix of
# dtypes, layouts, coordinate modes, roundings, paddings, upsampling and
# downsampling must pass --mode=C under calc=1, and every output of the
# matrix and of the conformance batches is byte-identical to the tables'
# (calc=0, SHA-256 digests). An axis of 2^26 outputs plans and runs
# within 1 GiB of address space, as do antialiased ones of 2^26 inputs
# (where the tool runs under such a limit at all: not under
# AddressSanitizer, whose shadow memory is terabytes of it).

tap_name=calc
. "${top_srcdir:-.}/tests/tap.sh"

need_device
fp64=$(device_fp64)

cat >"$tmp/matrix" <<'EOF'
--reset --dir=FWD_D
--alg=nearest,linear,cubic
--tag=abx --sdt=f32,f16,bf16,f64,s32,s8,u8
mb2ic3ih9iw11oh13ow6 mb1ic3id4ih5iw6od7oh3ow9 mb1ic1iw3ow20 mb1ic2iw40ow7
--tag=axb,aBx8b --sdt=f32,u8
mb2ic3ih9iw11oh13ow6 mb1ic11ih7iw5oh3ow12 mb1ic3id4ih5iw6od7oh3ow9
--reset --dir=FWD_D --sdt=f32
--alg=linear,cubic --antialias=true --aa-rule=pytorch,onnx
--pad-mode=edge,zero
mb2ic3ih19iw11oh5ow3 mb1ic2iw40ow7 mb1ic2iw40ow39 mb1ic2iw5ow9
mb1ic3ih9iw8oh4ow4
--reset --dir=FWD_D --sdt=f16,f64,u8
--alg=linear,cubic --antialias=true --aa-rule=pytorch,onnx
mb1ic3ih9iw8oh4ow4 mb1ic2iw40ow7 mb1ic2iw40ow39
--reset --dir=FWD_D --sdt=f32,u8
--alg=linear,cubic --pad-mode=edge,zero,constant --pad-value=3
--coord=half_pixel,pytorch_half_pixel,align_corners,asymmetric,half_pixel_symmetric
mb1ic3ih9iw11oh13ow6 mb1ic2iw1ow5 mb1ic2iw40ow7
--reset --dir=FWD_D --sdt=f32,u8 --alg=nearest
--nearest=round_prefer_floor,round_prefer_ceil,floor,ceil
--coord=half_pixel,asymmetric,tf_half_pixel_for_nn,align_corners
--pad-mode=edge,zero
mb1ic3ih9iw11oh13ow6 mb1ic2iw7ow14 mb1ic2iw14ow7 mb1ic2iw5ow8
--reset --dir=FWD_D --sdt=f32 --alg=linear,cubic --scales=1.7x0.45
mb1ic3ih9iw11oh15ow5
--reset --dir=FWD_D --sdt=f32 --alg=cubic --cubic-a=-0.5 --vendor=pytorch
mb1ic3ih9iw11oh13ow6
EOF
[ -n "$quick" ] && cat >"$tmp/matrix" <<'EOF'
--reset --dir=FWD_D
--alg=nearest,linear,cubic
--tag=abx,axb,aBx8b --sdt=f32
mb2ic3ih9iw11oh13ow6 mb1ic3id4ih5iw6od7oh3ow9 mb1ic1iw3ow20
--tag=abx --sdt=f16,f64,s32,u8 mb2ic3ih9iw11oh13ow6
--reset --dir=FWD_D --sdt=f32
--alg=linear,cubic --antialias=true --aa-rule=pytorch,onnx
--pad-mode=edge,zero
mb2ic3ih19iw11oh5ow3 mb1ic2iw5ow9 mb1ic3ih9iw8oh4ow4
--reset --dir=FWD_D --sdt=u8
--alg=linear,cubic --pad-mode=edge,zero
--coord=half_pixel,align_corners,asymmetric
mb1ic2iw1ow5 mb1ic2iw40ow7
--reset --dir=FWD_D --sdt=f32 --alg=nearest
--nearest=round_prefer_floor,round_prefer_ceil,floor,ceil
--coord=half_pixel,asymmetric --pad-mode=edge,zero
mb1ic2iw7ow14 mb1ic2iw14ow7
EOF

# calc=1: every problem agrees with the reference.
if [ "$fp64" != yes ]; then
    echo "# the device has no fp64: every plan keeps its tables"
    echo "1..0 # SKIP computed taps need fp64"
    exit 0
fi
passes_under calc=1 "the matrix" "$tmp/matrix"

# Byte-identical to the tables.
same_under calc 0 1 "the matrix" "$tmp/matrix"
batches="test_resampling_ci test_axes_ci test_options_ci test_vendor_ci"
[ -n "$quick" ] && batches="test_resampling_ci"
for b in $batches; do
    same_under calc 0 1 "$b" "$top_srcdir/tests/inputs/$b"
done

# The span path over computed taps: rows of 16 or more outputs, the
# kernel finding each group's pattern (gathering lane by lane where none
# fits: a scale whose groups have more patterns than the kernel keeps;
# the scalar taps at the axis' start), over 2 to 7 channels-last channels
# fused into the row too. Every dtype, scales up and down, rational and
# not, the coordinate modes, roundings and paddings.
cat >"$tmp/span" <<'EOF'
--reset --dir=FWD_D --alg=nearest,linear,cubic
--tag=abx --sdt=f32,f16,bf16,f64,s32,s8,u8
mb1ic2iw37ow300 mb1ic1iw300ow37 mb2ic3ih9iw101oh13ow77 mb1ic1iw777ow1777
--tag=axb,aBx8b --sdt=f32,u8
mb2ic3ih9iw111oh13ow260 mb1ic11ih7iw50oh3ow120
--tag=axb --sdt=f32,f16,s8,u8,f64
mb1ic2iw37ow300 mb1ic3iw300ow37 mb1ic4iw777ow1777 mb1ic5iw100ow333
mb1ic7iw50ow129 mb1ic6ih3iw64oh5ow150
--reset --dir=FWD_D --sdt=f32,u8,f64 --alg=linear,cubic
--pad-mode=edge,zero,constant --pad-value=3
--coord=half_pixel,pytorch_half_pixel,align_corners,asymmetric,half_pixel_symmetric
--tag=abx,axb mb1ic2iw33ow500 mb1ic3iw400ow70 mb1ic2iw17ow19
--reset --dir=FWD_D --sdt=f32,u8,f64 --alg=nearest
--nearest=round_prefer_floor,round_prefer_ceil,floor,ceil
--coord=half_pixel,asymmetric,tf_half_pixel_for_nn,align_corners
--pad-mode=edge,zero
mb1ic2iw70ow140 mb1ic2iw140ow70 mb1ic2iw50ow80
--reset --dir=FWD_D --sdt=f32 --alg=linear,cubic --scales=1.7x0.45
mb1ic3ih9iw110oh15ow50
--reset --dir=FWD_D --sdt=f32,u8 --alg=linear,cubic --vendor=pytorch,onnx
mb1ic3ih9iw110oh13ow260 mb1ic1iw100ow333
EOF
[ -n "$quick" ] && cat >"$tmp/span" <<'EOF'
--reset --dir=FWD_D --alg=nearest,linear,cubic
--tag=abx --sdt=f32,f16,u8,f64
mb1ic2iw37ow300 mb1ic1iw300ow37 mb1ic1iw777ow1777
--tag=axb --sdt=f32,u8 mb1ic3iw300ow37 mb1ic3iw100ow333 mb1ic5iw50ow129
--reset --dir=FWD_D --sdt=f32,u8 --alg=linear,cubic
--pad-mode=edge,zero --coord=half_pixel,align_corners,asymmetric
mb1ic2iw33ow500 mb1ic2iw400ow70
--reset --dir=FWD_D --sdt=u8 --alg=nearest
--nearest=round_prefer_floor,round_prefer_ceil,floor,ceil
--coord=half_pixel,asymmetric mb1ic2iw70ow140 mb1ic2iw140ow70
EOF
passes_under calc=1 "the span rows" "$tmp/span"
same_under calc 0 1 "the span rows" "$tmp/span"
taken_only_under calc 'pgb = yi[0-9]*_0' "span computed-tap" "$tmp/span"

# Periodic computed taps: where the coordinate is exact in its type over
# the whole row at a scale of a power-of-two denominator (2x and 4x up,
# 2x, 1.5x and 4x down; align_corners' (I-1)/(O-1) is none), the
# groups between the row's clamped ends repeat every 1 to 8 groups (3,
# 5 and 7 fused channels: 3, 5 and 7 groups of 16) and take their taps
# as constants. Rows of 2,000 to 9,000 outputs (periods need 128 groups
# of edges and more), against the reference, byte-identical to the
# tables, and the period reported where it applies (JSON "period").
cat >"$tmp/per" <<'EOF2'
--reset --dir=FWD_D --alg=nearest,linear,cubic
--tag=abx --sdt=f32,f16,bf16,f64,s32,s8,u8
mb1ic1iw2100ow4200 mb1ic1iw9000ow4500
--tag=axb --sdt=f32,u8,f64
mb1ic3iw2100ow4200 mb1ic5iw2000ow4000 mb1ic7iw1500ow3000
mb1ic6iw6000ow4000 mb2ic4ih3iw1200oh5ow2400
--reset --dir=FWD_D --sdt=f32,u8 --alg=linear,cubic --pad-mode=edge,zero
--coord=half_pixel,pytorch_half_pixel,asymmetric,align_corners
--tag=axb mb1ic3iw6000ow4000 mb1ic2iw2049ow4097
--reset --dir=FWD_D --sdt=u8 --alg=nearest
--nearest=round_prefer_floor,round_prefer_ceil,floor,ceil
--coord=half_pixel,asymmetric,tf_half_pixel_for_nn
mb1ic2iw2100ow4200 mb1ic2iw8400ow4200
EOF2
[ -n "$quick" ] && cat >"$tmp/per" <<'EOF2'
--reset --dir=FWD_D --alg=nearest,linear,cubic
--tag=abx --sdt=f32,f16,u8,f64 mb1ic1iw2100ow4200 mb1ic1iw9000ow4500
--tag=axb --sdt=f32,u8 mb1ic3iw2100ow4200 mb1ic7iw1500ow3000
mb1ic6iw6000ow4000
--reset --dir=FWD_D --sdt=u8 --alg=linear,cubic --pad-mode=edge,zero
--coord=pytorch_half_pixel,asymmetric,align_corners
--tag=axb mb1ic3iw6000ow4000
EOF2
passes_under calc=1 "the periodic rows" "$tmp/per"
periods=$(grep -c '"period":[1-9]' "$tmp/pass.out")
same_under calc 0 1 "the periodic rows" "$tmp/per"
if [ "$periods" -gt 0 ] && ! grep -q '"period":[1-9]' "$tmp/same0.json"; then
    ok "$periods periodic rows' kernels take constant taps under calc=1, none under calc=0"
else
    not_ok "periodic rows: $periods under calc=1; under calc=0: $(grep -c '"period":[1-9]' "$tmp/same0.json")"
fi
# A float coordinate is exact up to 2^23 outputs here (o + 0.5): a row
# of 2^23 - 8 outputs takes the period to its end, one of 2^23 + 16 up
# to 2^23 (the float steps round past it, and the groups there compute
# their taps), both byte-identical to the tables.
cat >"$tmp/per23" <<'EOF2'
--reset --dir=FWD_D --sdt=u8 --alg=linear
mb1ic1iw4194300ow8388600 mb1ic1iw4194312ow8388624
EOF2
same_under calc 0 1 "rows about 2^23 outputs long" "$tmp/per23"
got=$(sed -n 's/.*"period":\([0-9]*\).*/\1/p' "$tmp/same1.json" | tr '\n' ' ')
if [ "$got" = "1 1 " ]; then
    ok "rows of 2^23 - 8 and 2^23 + 16 outputs: periods $got"
else
    not_ok "rows of 2^23 - 8 and 2^23 + 16 outputs: periods $got (want 1 1)"
fi
# Past the exact outputs the float steps round alike over each run of
# binades (o + 0.5 to even between 2^23 and 2^24, o itself past 2^24):
# a stretch each, of its own period and phase. Rows of 8M to 20M
# outputs (computed by default), their bytes under per=1 and per=0
# (every group computing its taps) identical, and kernels with a
# second stretch built.
cat >"$tmp/per24" <<'EOF2'
--reset --dir=FWD_D --sdt=u8 --alg=linear,nearest
mb1ic1iw10485760ow20971520
--tag=axb mb1ic3iw4194304ow8388608
--reset --dir=FWD_D --sdt=f16 --alg=cubic mb1ic1iw10000000ow20000000
--reset --dir=FWD_D --sdt=f32 --alg=linear mb1ic1iw30000000ow20000000
--reset --dir=FWD_D --sdt=u8 --alg=linear --coord=asymmetric
mb1ic2iw5000000ow20000000
EOF2
[ -n "$quick" ] && cat >"$tmp/per24" <<'EOF2'
--reset --dir=FWD_D --sdt=u8 --alg=linear mb1ic1iw10485760ow20971520
--tag=axb mb1ic3iw4194304ow8388608
EOF2
same_under per 0 1 "rows past 2^23 outputs" "$tmp/per24"
taken_only_under per 'ygq >= yph1' "two-stretch periodic" "$tmp/per24"

# Long axes: their plans compute the taps by default, so that a plan's
# memory does not grow with the axis: 2^26 outputs (64 MiB of u8 out,
# tables of 1 GiB or more), antialiased 2^26 inputs (tables of 2^27
# taps), and the axes just under the threshold of 2^26 taps that the
# tables kept before the span path computed taps (about 2 GB of tables
# for linear's 2^25 - 1 outputs; 1.4 GB for a stereo row's 11M), plan
# and run under a 1 GiB address-space limit.
limited() { (ulimit -v 1048576; "$tool" --mode=R "$@") >"$tmp/long" 2>&1; }
long=yes
if ! limited mb1ic1iw4ow8 || ! grep -q 'passed:1 ' "$tmp/long"; then
    long="the tool does not run under a 1 GiB address-space limit here"
    sed 's/^/# /' "$tmp/long" | head -n 3
fi
for prb in "--alg=nearest mb1ic1iw1000ow67108864" \
    "--alg=linear mb1ic1iw1000ow67108864" \
    "--alg=cubic mb1ic1iw1000ow67108864" \
    "--alg=linear --antialias=true mb1ic1iw67108864ow1000" \
    "--alg=cubic --antialias=true mb1ic1iw67108864ow1000" \
    "--alg=nearest mb1ic1iw1000ow67108863" \
    "--alg=linear mb1ic1iw1000ow33554431" \
    "--alg=cubic mb1ic1iw1000ow16777215" \
    "--tag=axb --alg=linear mb1ic2iw1000ow11184810"; do
    if [ "$long" != yes ]; then
        skip "u8 $prb under a 1 GiB address-space limit: $long"
        continue
    fi
    limited --sdt=u8 --ddt=u8 $prb
    rc=$?
    if [ $rc -eq 0 ] && grep -q 'passed:1 ' "$tmp/long"; then
        ok "u8 $prb runs under a 1 GiB address-space limit"
    else
        not_ok "u8 $prb under a 1 GiB address-space limit: exit $rc"
        tail -n 5 "$tmp/long" | sed 's/^/# /'
    fi
done

echo "1..$n"
exit $failed
