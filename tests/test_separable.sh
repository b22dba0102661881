#!/bin/sh
# Separable plans (one pass per resampled axis, clresample(3)
# clrs_plan_get_info's separable): forced on (CLRS_LAUNCH=sep=1, wherever
# the mode factorises) and off (sep=0, every plan whole), every problem
# of a matrix of dtypes (each type with itself, and u8 and f16 through
# f32 both ways), layout classes (channels-first, channels-last,
# blocked), linear and cubic, antialiased or not, average pooling and
# max pooling without an index, 2-D and 3-D, forward and backward (the
# passes' gradients in reverse), and of the
# conformance batches, must pass --mode=C: each agrees with the reference
# within the error bound, so the two paths agree within twice it. Under
# sep=1 the matrix's problems are separable and under sep=0 none is; the
# passes' order of summation is fixed, so launch settings keep their bytes
# (SHA-256 digests), as they do through a user workspace; and the JSON
# and perf lines say which path ran.

tap_name=separable
. "${top_srcdir:-.}/tests/tap.sh"

need_device
fp64=$(device_fp64)

# The matrix: 2-D and 3-D shapes, upsampling, downsampling and a mix, a
# partial last block of C (11 channels in blocks of 8).
cat >"$tmp/matrix" <<'EOF'
--reset --dir=FWD_D,BWD_D
--alg=linear,cubic --antialias=false,true
--tag=abx,axb,aBx8b
--sdt=f32,f16,bf16,f64,s32,s8,u8
mb2ic3ih9iw11oh13ow6 mb1ic11ih7iw5oh3ow12 mb1ic3id4ih5iw6od7oh3ow9
--sdt=u8 --ddt=f32 mb1ic3ih9iw11oh13ow6
--sdt=f32 --ddt=u8 mb1ic3ih9iw11oh13ow6
--sdt=f16 --ddt=f32 mb1ic3ih9iw11oh5ow17
--sdt=f32 --ddt=f16 mb1ic3ih9iw11oh5ow17
--reset --dir=FWD_D,BWD_D,FWD_I
--alg=avg_p,avg_np --tag=abx,axb,aBx8b
--sdt=f32,f16,bf16,f64,s8,u8
mb2ic3ih9iw11kh3kw3sh2sw2ph1pw1 mb1ic11ih7iw5kh3kw2sh1sw1ph1pw0
mb1ic3id4ih5iw6kd2kh3kw2sd2sh2sw2
--dir=FWD_I --alg=max
mb2ic3ih9iw11kh3kw3sh2sw2ph1pw1 mb1ic11ih7iw5kh3kw2sh1sw1ph1pw0
mb1ic3id4ih5iw6kd2kh3kw2sd2sh2sw2
EOF
# The quick tier: every layout class and shape in f32, every other dtype
# once (channels-first, 2-D), and the mixed pairs.
[ -n "$quick" ] && cat >"$tmp/matrix" <<'EOF'
--reset --dir=FWD_D,BWD_D
--alg=linear,cubic --antialias=false,true
--tag=abx,axb,aBx8b --sdt=f32
mb2ic3ih9iw11oh13ow6 mb1ic11ih7iw5oh3ow12 mb1ic3id4ih5iw6od7oh3ow9
--tag=abx --sdt=f16,bf16,f64,s32,s8,u8 mb2ic3ih9iw11oh13ow6
--sdt=u8 --ddt=f32 mb1ic3ih9iw11oh13ow6
--sdt=f32 --ddt=u8 mb1ic3ih9iw11oh13ow6
--sdt=f16 --ddt=f32 mb1ic3ih9iw11oh5ow17
--sdt=f32 --ddt=f16 mb1ic3ih9iw11oh5ow17
--reset --dir=FWD_D,BWD_D,FWD_I
--alg=avg_p,avg_np --tag=abx,axb,aBx8b --sdt=f32
mb2ic3ih9iw11kh3kw3sh2sw2ph1pw1 mb1ic3id4ih5iw6kd2kh3kw2sd2sh2sw2
--tag=abx --sdt=f16,u8 mb1ic11ih7iw5kh3kw2sh1sw1ph1pw0
--dir=FWD_I --alg=max --tag=abx,axb,aBx8b --sdt=f32,u8
mb2ic3ih9iw11kh3kw3sh2sw2ph1pw1 mb1ic3id4ih5iw6kd2kh3kw2sd2sh2sw2
EOF

# The launch settings' runs: 2-D, f32, f16 and u8, interpolation and
# pooling.
cat >"$tmp/small" <<'EOF'
--reset --dir=FWD_D,BWD_D
--alg=linear,cubic --antialias=false,true
--tag=abx,axb,aBx8b
--sdt=f32,f16,u8
mb2ic3ih9iw11oh13ow6
--reset --dir=FWD_D,BWD_D --alg=avg_np --tag=abx,axb,aBx8b --sdt=f32,u8
mb2ic3ih9iw11kh3kw3sh2sw2ph1pw1
--dir=FWD_I --alg=max mb2ic3ih9iw11kh3kw3sh2sw2ph1pw1
EOF

# run NAME SETTING BATCH: --mode=C under CLRS_LAUNCH=SETTING; every
# problem passes (f64 ones may skip on a device without fp64).
run() {
    CLRS_LAUNCH=$2 "$tool" --mode=C --perf-template=json --batch="$3" \
        >"$tmp/$1.out" 2>&1
    rc=$?
    summary=$(grep '^tests:' "$tmp/$1.out")
    if all_passed "$tmp/$1.out" $rc && [ -n "$summary" ]; then
        ok "$(basename "$3") under CLRS_LAUNCH=$2: $summary"
    else
        not_ok "$(basename "$3") under CLRS_LAUNCH=$2: exit $rc: $summary"
        grep -v '"status":"PASSED"' "$tmp/$1.out" | head -20 | sed 's/^/# /'
    fi
}

run sep1 sep=1 "$tmp/matrix"
run sep0 sep=0 "$tmp/matrix"
# s32 stays whole (clrs_plan_get_info's separable).
grep -v 'sdt=s32' "$tmp/sep1.out" >"$tmp/sep1.nos32"
nsep=$(grep -c '"separable":true' "$tmp/sep1.nos32")
nrun=$(grep -c '"status":"PASSED"' "$tmp/sep1.nos32")
if [ "$nrun" -gt 0 ] && [ "$nsep" -eq "$nrun" ]; then
    ok "sep=1: all $nrun problems that ran were separable but s32's"
else
    not_ok "sep=1: $nsep of $nrun problems (s32's aside) separable"
fi
if ! grep 'sdt=s32' "$tmp/sep1.out" | grep -q '"separable":true'; then
    ok "sep=1: s32 problems stay whole"
else
    not_ok "sep=1: an s32 problem was separable"
fi
# Pooling: average pooling forward and backward and max pooling without
# an index are separable; max pooling with one (FWD_D) is not.
npool=$(grep '"status":"PASSED"' "$tmp/sep1.out" |
    grep -c -e '--alg=avg_' -e '--dir=FWD_I --alg=max')
npsep=$(grep '"separable":true' "$tmp/sep1.out" |
    grep -c -e '--alg=avg_' -e '--dir=FWD_I --alg=max')
if [ "$npool" -gt 0 ] && [ "$npsep" -eq "$npool" ]; then
    ok "sep=1: all $npool average pooling and index-free max pooling problems separable"
else
    not_ok "sep=1: $npsep of $npool pooling problems separable"
fi

if ! grep -q '"separable":true' "$tmp/sep0.out"; then
    ok "sep=0: no problem separable"
else
    not_ok "sep=0: $(grep -c '"separable":true' "$tmp/sep0.out") problems separable"
fi
# A separable plan holds its intermediates (scratch_bytes), a whole one
# nothing.
if ! grep '"separable":true' "$tmp/sep1.out" | grep -q '"scratch_bytes":0,' &&
    ! grep '"status":"PASSED"' "$tmp/sep0.out" |
    grep -v '"scratch_bytes":0,' | grep -q .; then
    ok "separable plans hold scratch for their intermediates, whole ones none"
else
    not_ok "scratch_bytes: $(grep -o '"separable":[a-z]*,"scratch_bytes":[0-9]*' "$tmp/sep1.out" "$tmp/sep0.out" | sort | uniq -c | head -5)"
fi
# A 2-D plan: two kernels; a 3-D one: three.
if grep '"separable":true' "$tmp/sep1.out" | grep 'mb2ic3ih9iw11oh13ow6' |
    grep -q '"kernels":2,' &&
    grep '"separable":true' "$tmp/sep1.out" | grep 'mb1ic3id4ih5iw6od7oh3ow9' |
    grep -q '"kernels":3,'; then
    ok "a separable plan enqueues a kernel per resampled axis (2-D: 2, 3-D: 3)"
else
    not_ok "separable kernel counts"
fi

# The order of the passes (their intermediate, scratch_bytes, tells it):
# W shrinks this image most (192 -> 23 against 108 -> 22), so it goes
# first where a pass over W sums 16 lanes a work-item (64 channels
# channels-last: 108 x 23 x 64 f32 intermediates); with 3 channels that
# pass sums 3 and goes last (22 x 192 x 3), forward and backward; 3
# channels-first keep W first (its rows are contiguous).
cat >"$tmp/order" <<'EOF'
--reset --alg=linear --antialias=true --sdt=u8 --ddt=u8
--dir=FWD_I,BWD_D --tag=axb mb1ic3ih108iw192oh22ow23 mb1ic64ih108iw192oh22ow23
--dir=FWD_I --tag=abx mb1ic3ih108iw192oh22ow23
EOF
"$tool" --mode=C --perf-template=json --batch="$tmp/order" >"$tmp/order.out" 2>&1
order_is() { # descriptor, direction, tag (abx: none), intermediate elements
    grep '"separable":true' "$tmp/order.out" | grep -e "--dir=$2 " |
        if [ "$3" = abx ]; then grep -v -e "--tag="; else grep -e "--tag=$3"; fi |
        grep "$1" | grep -q "\"scratch_bytes\":$(($4 * 4)),"
}
if order_is mb1ic3ih108iw192 FWD_I axb $((22 * 192 * 3)) &&
    order_is mb1ic3ih108iw192 BWD_D axb $((22 * 192 * 3)) &&
    order_is mb1ic64ih108iw192 FWD_I axb $((108 * 23 * 64)) &&
    order_is mb1ic64ih108iw192 BWD_D axb $((108 * 23 * 64)) &&
    order_is mb1ic3ih108iw192 FWD_I abx $((3 * 108 * 23)) &&
    [ "$(grep -c '"status":"PASSED"' "$tmp/order.out")" -eq 5 ]; then
    ok "pass order: W last over 3 channels-last channels, first over 64 and channels-first"
else
    not_ok "pass order: $(grep -o '"repro":"[^"]*"\|"status":"[A-Z]*"\|"scratch_bytes":[0-9]*' "$tmp/order.out" | tr '\n' ' ')"
fi

# The passes sum in one order whatever the launch: the bytes of sep=1 at
# the default launch under other vector widths, span paths and local
# sizes (the quick tier: one setting).
CLRS_LAUNCH=sep=1 "$tool" --mode=C --perf-template=json \
    --batch="$tmp/small" >"$tmp/small.out" 2>&1
digests "$tmp/small.out" >"$tmp/sep1.dig"
settings="sep=1,vec=1 sep=1,vec=4,local=16x16x1 sep=1,span=0,nt=1,local=7x3"
[ -n "$quick" ] && settings=sep=1,vec=4,local=16x16x1
for setting in $settings; do
    CLRS_LAUNCH=$setting "$tool" --mode=C --perf-template=json \
        --batch="$tmp/small" >"$tmp/set.out" 2>&1
    digests "$tmp/set.out" >"$tmp/set.dig"
    if [ -s "$tmp/sep1.dig" ] && cmp -s "$tmp/sep1.dig" "$tmp/set.dig"; then
        ok "CLRS_LAUNCH=$setting: the bytes of sep=1 at the default launch"
    else
        not_ok "CLRS_LAUNCH=$setting: bytes differ from sep=1's"
        diff "$tmp/sep1.dig" "$tmp/set.dig" | head -10 | sed 's/^/# /'
    fi
done

# A user workspace (--attr-scratchpad=user, the tool's buffer, poisoned)
# holds the intermediates instead of the plan: the same bytes, every
# separable plan asks for one and holds no scratch.
sed 's/^--reset /--reset --attr-scratchpad=user /' "$tmp/small" >"$tmp/user"
CLRS_LAUNCH=sep=1 "$tool" --mode=C --perf-template=json \
    --batch="$tmp/user" >"$tmp/user.out" 2>&1
digests "$tmp/user.out" | sed 's/ --attr-scratchpad=user//' >"$tmp/user.dig"
if [ -s "$tmp/sep1.dig" ] && cmp -s "$tmp/sep1.dig" "$tmp/user.dig"; then
    ok "--attr-scratchpad=user: the bytes of the plan's own scratch"
else
    not_ok "--attr-scratchpad=user: bytes differ from the plan's own scratch"
    diff "$tmp/sep1.dig" "$tmp/user.dig" | head -10 | sed 's/^/# /'
fi
nuser=$(grep -c '"status":"PASSED"' "$tmp/user.out")
nws=$(grep '"separable":true,"scratch_bytes":0,"workspace_bytes":[1-9]' \
    "$tmp/user.out" | grep -c '"status":"PASSED"')
if [ "$nuser" -gt 0 ] && [ "$nws" -eq "$nuser" ]; then
    ok "--attr-scratchpad=user: all $nuser plans passed, each separable with a workspace and no scratch"
else
    not_ok "--attr-scratchpad=user: $nws of $nuser passed plans separable with a workspace and no scratch"
fi

# Forward passes that run from the innermost axis outward, channels-last,
# run as one kernel (the roll variant; CLRS_LAUNCH=roll=1, by default
# where the device class says) where its rows' sums are small:
# the same sums in the same order, so the bytes of the passes
# (CLRS_LAUNCH=roll=0), in every type.
cat >"$tmp/roll" <<'EOF'
--reset --dir=FWD_D --tag=axb
--alg=linear,cubic
--sdt=f32,f16,bf16,f64,s8,u8
mb2ic32ih9iw11oh13ow6 mb1ic16ih8iw8oh16ow16 mb1ic16id4ih5iw6od8oh10ow12
--sdt=u8 --ddt=f32 mb1ic16ih9iw11oh13ow6
--sdt=f32 --ddt=u8 --attr-post-ops=relu mb1ic16ih9iw11oh18ow22
EOF
[ -n "$quick" ] && sed -i 's/^--sdt=f32,f16,bf16,f64,s8,u8$/--sdt=f32,f16,u8/' "$tmp/roll"
# same_as_passes NAME WHAT COUNT: NAME1's digests (fused) are NAME0's (the
# passes) and not empty; WHAT and COUNT name the fused plans.
same_as_passes() {
    digests "$tmp/${1}1.out" >"$tmp/${1}1.dig"
    digests "$tmp/${1}0.out" >"$tmp/${1}0.dig"
    if [ -s "$tmp/${1}1.dig" ] && cmp -s "$tmp/${1}1.dig" "$tmp/${1}0.dig"; then
        ok "$2 ($3 plans) writes the bytes of the passes"
    else
        not_ok "$2: bytes differ from the passes'"
        diff "$tmp/${1}0.dig" "$tmp/${1}1.dig" | head -10 | sed 's/^/# /'
    fi
}
run roll1 sep=1,roll=1 "$tmp/roll"
run roll0 sep=1,roll=0 "$tmp/roll"
nroll=$(grep -c '"variant":"roll"' "$tmp/roll1.out")
same_as_passes roll "one kernel (the roll variant)" "$nroll"
# Which plans took it: 2-D and trilinear 3-D ones whose inner axis goes
# first, every type; not a 3-D bicubic one (16 taps a row), nor any
# under roll=0.
if [ "$nroll" -gt 0 ] &&
    ! grep '"variant":"roll"' "$tmp/roll1.out" | grep -q -e '--alg=cubic.*id4' &&
    grep '"variant":"roll"' "$tmp/roll1.out" | grep -q -e '--alg=linear.*id4' &&
    ! grep -q '"variant":"roll"' "$tmp/roll0.out"; then
    ok "the roll variant: 2-D and trilinear plans, not 3-D bicubic ones, none under roll=0"
else
    not_ok "roll variant choice: $nroll plans; $(grep '"variant":"roll"' "$tmp/roll1.out" | grep -o '"repro":"[^"]*"' | head -3)"
fi

# Channels-first passes of two axes, the outer first, fold into one span
# kernel under roll=1 (the outer axis's sums of each span vector first,
# then the inner axis's pattern over them, as the passes nest them): the
# bytes of the passes in every type, interpolation and antialiased
# downsampling, long and short rows, edge groups, a u8 to f32 and an f32
# to u8 plan with a post-op. Not where a tap pads (average pooling's),
# never by default (the device classes' fold is 0), never under roll=0
# (a GPU's default may fuse the passes in the roll kernel instead: one
# kernel, not a span one). Span groups of 16 vectors (a CPU's default),
# which an antialiased row's group needs where the vectors hold 4 lanes
# (a GPU's float vectors).
cat >"$tmp/fold" <<'EOF'
--reset --dir=FWD_D --tag=abx
--alg=linear,cubic
--sdt=f32,f16,bf16,f64,s8,u8
mb2ic3ih9iw40oh13ow80 mb1ic4ih32iw32oh64ow64 mb1ic2ih40iw70oh20ow35
mb1ic2ih33iw64oh47ow100
--antialias=true mb1ic2ih64iw128oh16ow32 mb1ic2ih64iw128oh31ow50
--antialias=false
--sdt=u8 --ddt=f32 mb1ic3ih32iw48oh64ow96
--sdt=f32 --ddt=u8 --attr-post-ops=relu mb1ic3ih32iw48oh64ow96
--sdt=f32 --ddt=f32 --alg=avg_p --attr-post-ops= mb1ic3ih64iw96oh32ow48kh3kw3sh2sw2ph1pw1
EOF
[ -n "$quick" ] && sed -i 's/^--sdt=f32,f16,bf16,f64,s8,u8$/--sdt=f32,f16,u8/' "$tmp/fold"
run fold1 sep=1,roll=1,spanv=16 "$tmp/fold"
run fold0 sep=1,roll=0 "$tmp/fold"
run foldd sep=1 "$tmp/fold"
nfold=$(grep '"kernels":1,' "$tmp/fold1.out" | grep -c '"variant":"span"')
same_as_passes fold "one span kernel folding the outer pass first" "$nfold"
if [ "$nfold" -gt 0 ] &&
    grep '"kernels":1,' "$tmp/fold1.out" | grep -q -e '--antialias=true' &&
    ! grep '"kernels":1,' "$tmp/fold1.out" | grep -q -e '--alg=avg_p' &&
    ! grep '"kernels":1,' "$tmp/fold0.out" | grep -q '"variant":"span"' &&
    ! grep '"kernels":1,' "$tmp/foldd.out" | grep -q '"variant":"span"'; then
    ok "the fold: interpolation and antialiased plans under roll=1, not padded pooling, none by default or under roll=0"
else
    not_ok "fold choice: $nfold plans; $(grep '"kernels":1,' "$tmp/fold1.out" "$tmp/foldd.out" | grep -o '"repro":"[^"]*"' | head -3)"
fi

# By default the passes fuse only over 16 or more values a pixel: 4
# channels-last channels run their passes (the roll variant's one vector
# of 4 lanes was 26 times as slow); 16 fuse where the device class says
# (test_device_queue checks which); CLRS_LAUNCH=roll=1 fuses both, into
# the same bytes.
printf '%s\n' '--reset --dir=FWD_I --tag=axb --alg=cubic' \
    mb1ic4ih9iw11oh18ow22 mb1ic16ih9iw11oh18ow22 >"$tmp/rollc"
"$tool" --mode=C --perf-template=json --batch="$tmp/rollc" >"$tmp/rollc.out" 2>&1
CLRS_LAUNCH=roll=1 "$tool" --mode=C --perf-template=json --batch="$tmp/rollc" \
    >"$tmp/rollc1.out" 2>&1
if grep 'mb1ic4ih' "$tmp/rollc.out" | grep -q '"kernels":2,' &&
    grep 'mb1ic16ih' "$tmp/rollc1.out" | grep -q '"variant":"roll"' &&
    grep 'mb1ic4ih' "$tmp/rollc1.out" | grep -q '"variant":"roll"' &&
    [ "$(cat "$tmp/rollc.out" "$tmp/rollc1.out" | grep -c '"status":"PASSED"')" -eq 4 ] &&
    [ "$(digests "$tmp/rollc.out")" = "$(digests "$tmp/rollc1.out")" ]; then
    ok "4 channels-last channels run their passes by default; under roll=1 4 and 16 run as one kernel, the same bytes"
else
    not_ok "roll by channels: $(grep -o '"repro":"[^"]*"\|"variant":"[a-z]*"\|"kernels":[0-9]*' "$tmp/rollc.out" "$tmp/rollc1.out" | tr '\n' ' ')"
fi

# The default chooses by cost: a 2-D bicubic 2x up is separable, a
# bilinear one is not; the perf line says so. A trilinear 3-D 2x up
# (8 taps an output against 7.25 in passes) is whole on a CPU, whose
# device class wants an axis of more than 2 taps for passes, and in
# passes on a GPU.
"$tool" --mode=P --fix-times-per-prb=1 --alg=cubic mb1ic4ih32iw32oh64ow64 \
    --alg=linear mb1ic4ih32iw32oh64ow64 mb1ic4id8ih8iw8od16oh16ow16 \
    >"$tmp/perf.out" 2>&1
if [ "$(device_type)" = gpu ]; then tri='kernels:3sep,'; else tri='kernels:1,'; fi
if grep 'alg=cubic' "$tmp/perf.out" | grep -q 'kernels:2sep,' &&
    grep '^perf' "$tmp/perf.out" | grep 'alg=linear.*ih32' | grep -q 'kernels:1,' &&
    grep '^perf' "$tmp/perf.out" | grep 'alg=linear.*id8' | grep -q "$tri"; then
    ok "by default a bicubic 2x up is separable (kernels:2sep), a bilinear one whole, a trilinear one ${tri%,}"
else
    not_ok "default choice: $(grep '^perf' "$tmp/perf.out" | tr '\n' ' ')"
fi

# Backward on a CPU: a bilinear 2x up's gradient runs its passes (the
# device class's sep_bwd), but channels-last of 16 f32 channels, whose
# one kernel streams, stays whole, as does one of under 2^20 taps; a GPU
# goes by the taps, whole for all three.
"$tool" --mode=P --fix-times-per-prb=1 --dir=BWD_D --alg=linear \
    mb1ic3ih256iw256oh512ow512 --tag=axb mb1ic16ih256iw256oh512ow512 \
    --tag=abx mb1ic3ih64iw64oh128ow128 >"$tmp/bwd.out" 2>&1
if [ "$(device_type)" = gpu ]; then bwd='kernels:1,'; else bwd='kernels:2sep,'; fi
if grep '^perf' "$tmp/bwd.out" | grep 'ic3ih256' | grep -q "$bwd" &&
    grep '^perf' "$tmp/bwd.out" | grep 'ic16ih256' | grep -q 'kernels:1,' &&
    grep '^perf' "$tmp/bwd.out" | grep 'ic3ih64' | grep -q 'kernels:1,'; then
    ok "by default a bilinear backward of 3 channels ${bwd%,}, of 16 f32 channels-last and a small one whole"
else
    not_ok "backward default choice: $(grep '^perf' "$tmp/bwd.out" | tr '\n' ' ')"
fi

# One kernel that would take no vector path, channels-first (adaptive
# average pooling to 7x7: a span group needs 16 outputs along the row),
# counts its taps CLRS_SEP_SCALAR_TAPS times on a CPU: over 16 planes of
# 1024^2 the plan takes passes, forward and backward; over one plane of
# 64^2 (under 2^20 taps in all) it stays whole. Backward, each diff_src
# element counts at least a tap: a bicubic 1024 -> 117 downsample's
# backward (its groups repeat only every 64, more patterns than a kernel
# holds) takes passes too. Each agrees with
# the reference (--mode=CP).
"$tool" --mode=CP --fix-times-per-prb=1 --alg=avg_adaptive --dir=FWD_D,BWD_D \
    mb1ic16ih1024iw1024oh7ow7 mb1ic1ih64iw64oh7ow7 \
    --alg=cubic --dir=BWD_D mb1ic16ih1024iw1024oh117ow117 >"$tmp/adapt.out" 2>&1
if [ "$(device_type)" = gpu ]; then big='kernels:'; else big='kernels:2sep,'; fi
if [ "$(grep '^perf' "$tmp/adapt.out" | grep 'ih1024' | grep -c "$big")" -eq 3 ] &&
    [ "$(grep '^perf' "$tmp/adapt.out" | grep 'ih64' | grep -c 'kernels:1,')" -eq 2 ] &&
    grep -q '^tests:5 passed:5 ' "$tmp/adapt.out"; then
    ok "adaptive pooling to 7x7 and bicubic 1024 -> 117 backward: 1024^2 x 16 ${big%,}, 64^2 whole, all right"
else
    not_ok "adaptive pooling's choice: $(grep '^perf\|^tests' "$tmp/adapt.out" | tr '\n' ' ')"
fi

# The conformance batches under both (the quick tier: resampling alone,
# separable; test_cli_batches.sh runs it at the default).
batches="test_resampling_ci test_options_ci test_vendor_ci test_axes_ci \
    test_postops_ci launch_subset test_pooling_ci test_backward_ci"
[ -n "$quick" ] && batches="test_resampling_ci test_pooling_ci"
for b in $batches; do
    run "$b-1" sep=1 "$top_srcdir/tests/inputs/$b"
    [ -n "$quick" ] || run "$b-0" sep=0 "$top_srcdir/tests/inputs/$b"
done
# The filters, passes forced (their whole kernels: test_cli_batches.sh).
[ -n "$quick" ] ||
    run test_filter_ci-1 sep=1 "$top_srcdir/tests/inputs/test_filter_ci"

# Max pooling with an index (test_pooling_ci's FWD_D) stays whole.
nmax=$(grep '"status":"PASSED"' "$tmp/test_pooling_ci-1.out" |
    grep -v -e '--dir=FWD_I' | grep -c -e '--alg=max')
nmaxsep=$(grep '"separable":true' "$tmp/test_pooling_ci-1.out" |
    grep -v -e '--dir=FWD_I' | grep -c -e '--alg=max')
if [ "$nmax" -gt 0 ] && [ "$nmaxsep" -eq 0 ]; then
    ok "sep=1: the $nmax max pooling problems with an index stay whole"
else
    not_ok "sep=1: $nmaxsep of $nmax max pooling problems with an index separable"
fi

echo "1..$n"
exit $failed
