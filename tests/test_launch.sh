#!/bin/sh
# Every launch parameter proven harmless: tests/inputs/launch_subset
# through clresample --mode=C under each CLRS_LAUNCH setting (each vector
# width, vectors per work-item, the span path off or its groups' width,
# walked rows on and off, rows of kernel axis 1 per work-item,
# non-temporal stores forced, local sizes that do and do not divide the
# global size), one TAP point per setting (on a device without fp64 its
# f64 problems are skipped, one point says so); the perf lines must report the
# forced launch; malformed values are refused
# with a message naming CLRS_LAUNCH.

tap_name=launch
. "${top_srcdir:-.}/tests/tap.sh"
batch="$top_srcdir/tests/inputs/launch_subset"

need_device
fp64=$(device_fp64)
f64_skips=0

"$tool" --mode=C --perf-template=json --batch="$batch" >"$tmp/default.out" 2>&1
digests "$tmp/default.out" >"$tmp/default.dig"
ndig=$(wc -l <"$tmp/default.dig")

settings="vec=1 vec=2 vec=4 vec=8 vec=16 span=0 nt=1 nt=0 local=1 \
    local=7x3 local=16x16x1 local=5x5x5 vec=4,local=16x16x1 \
    vec=2,span=0,nt=1,local=64x2 vec=8,local=driver mv=1 mv=2 mv=4 \
    vec=4,mv=4 vec=8,mv=2,local=7x3 vec=16,mv=4,local=16x16x1 spanv=4 \
    spanv=8 spanv=16 vec=4,spanv=8,local=16x16x1 walk=0 walk=1 vec=4,walk=1,local=7x3 \
    vec=8,walk=1,local=16x16x1 rows=2 rows=4,local=7x3 vec=4,rows=8 \
    vec=1,rows=2,local=16x16x1 vec=8,walk=1,rows=4 span=0,rows=2 va=1 va=0 \
    vec=4,nt=0,va=1"
# The quick tier: each knob moved at least once (vector widths 2 and 8
# beside the default, the span path off and its groups of 8, local
# sizes that do and do not divide, vectors per work-item, walked rows,
# non-temporal stores, rows of kernel axis 1 per work-item, aligned
# vector accesses on and off: a GPU's default is on, a CPU's off); one lane,
# the scalar variant, is the default of the problems no vector path
# takes and the generic kernels' (test_device_*), and the full tier runs
# vec=1 and vec=4 here too.
[ -n "$quick" ] && settings="vec=2,span=0,nt=1,local=64x2,rows=2,va=1 \
    vec=8,spanv=8,mv=4,walk=1,local=7x3,rows=4,va=0"
for setting in $settings; do
    CLRS_LAUNCH=$setting "$tool" --mode=C --perf-template=json \
        --batch="$batch" >"$tmp/out" 2>&1
    rc=$?
    summary=$(grep '^tests:' "$tmp/out")
    # Skipped: only the f64 problems, only on a device without fp64.
    if all_passed "$tmp/out" $rc; then
        ok "CLRS_LAUNCH=$setting: $summary"
    else
        not_ok "CLRS_LAUNCH=$setting: exit $rc: $summary (fp64 $fp64)"
        grep -v '"status":"PASSED"' "$tmp/out" | head -20 | sed 's/^/# /'
    fi
    # No launch setting changes a sum's order: every output byte for byte
    # as the default launch writes it (SHA-256 of the outputs).
    digests "$tmp/out" >"$tmp/set.dig"
    if [ "$ndig" -gt 0 ] && cmp -s "$tmp/default.dig" "$tmp/set.dig"; then
        ok "CLRS_LAUNCH=$setting: the default launch's bytes on all $ndig problems"
    else
        not_ok "CLRS_LAUNCH=$setting: bytes differ from the default launch's ($ndig problems)"
        diff "$tmp/default.dig" "$tmp/set.dig" | head -10 | sed 's/^/# /'
    fi
    [ -s "$tmp/skipped" ] && f64_skips=$(wc -l <"$tmp/skipped")
done
if [ "$f64_skips" -gt 0 ]; then
    skip "the $f64_skips f64 problems of launch_subset under each setting: the device has no fp64"
fi

# The perf line says where the launch came from and the local size.
# 4 lanes along W 40: a 10 x 20 NDRange; 7x3 divides neither.
CLRS_LAUNCH=vec=4,local=7x3 "$tool" --mode=P --fix-times-per-prb=1 \
    mb1ic16ih10iw20oh20ow40 >"$tmp/out" 2>&1
if grep -q 'vector:span/4,kernels:1,launch:forced/5x2x1' "$tmp/out"; then
    ok "vec=4,local=7x3 on a 10 x 20 NDRange runs 5x2x1 and says forced"
else
    not_ok "vec=4,local=7x3: no launch:forced/5x2x1 on the perf line"
    sed 's/^/# /' "$tmp/out"
fi
"$tool" --mode=P --fix-times-per-prb=1 mb1ic16ih10iw20oh20ow40 \
    >"$tmp/out" 2>&1
if grep -q 'launch:default/' "$tmp/out"; then
    ok "without CLRS_LAUNCH the perf line says default"
else
    not_ok "no launch:default on the perf line"
    sed 's/^/# /' "$tmp/out"
fi

# path_is LAUNCH WANT ARGS...: the perf line of problem ARGS under
# CLRS_LAUNCH=LAUNCH says vector:WANT.
path_is() {
    launch=$1
    want=$2
    shift 2
    CLRS_LAUNCH=$launch "$tool" --mode=P --fix-times-per-prb=1 "$@" \
        >"$tmp/out" 2>&1
    if grep -q "vector:$want" "$tmp/out"; then
        ok "CLRS_LAUNCH=$launch $*: vector:$want"
    else
        not_ok "CLRS_LAUNCH=$launch $*: no vector:$want on the perf line"
        sed 's/^/# /' "$tmp/out"
    fi
}
# Vectors per work-item: a channels-last weighted sum with 64 channels
# takes 4 vectors of 4 lanes under vec=4,mv=4, one under mv=1; a forward
# upsample only where mv= names it (the default is one vector), and never
# with a post-op; a forward downsample of every axis the backward count
# (four where the device is no GPU, one on a GPU).
axb64="--alg=linear --tag=axb mb1ic64ih5iw6oh9ow11"
dn64="--alg=linear --tag=axb mb1ic64ih10iw12oh5ow6"
path_is vec=4,mv=4,rows=1 axis/4x4, --dir=BWD_D $axb64
path_is vec=4,mv=1,rows=1 axis/4, --dir=BWD_D $axb64
path_is vec=4,mv=4 axis/4x4, --dir=FWD_D $axb64
path_is vec=4 axis/4, --dir=FWD_D $axb64
path_is vec=4,mv=4 axis/4, --dir=FWD_D --attr-post-ops=eltwise_relu $axb64
path_is vec=4,mv=1 axis/4, --dir=FWD_D $dn64
if [ "$(device_type)" = gpu ]; then
    path_is vec=4 axis/4, --dir=FWD_D $dn64
else
    path_is vec=4 axis/4x4, --dir=FWD_D $dn64
fi
# Blocked tensors whose blocks are full and under 16 bytes (8 lanes of
# u8 or s8, nChw8c of 16 channels) fuse a block's lanes into the row and
# take the span path, forward and backward; not with padding lanes (12
# channels), blocks of 16 bytes (16 lanes of u8, 8 of f32) nor an f32
# dst. The backward gather's group spans 6 vectors of 4 lanes (each
# lane's taps lie 8 fused lanes apart): span groups of 8 vectors, more
# than a GPU's default 4 (there the unfused axis kernel runs it).
blk="--alg=linear mb1ic16ih5iw40oh9ow77"
path_is "" span/ --sdt=u8 --ddt=u8 --tag=aBx8b $blk
path_is spanv=8 span/ --dir=BWD_D --sdt=s8 --ddt=s8 --tag=aBx8b $blk
path_is "" block/ --sdt=u8 --ddt=u8 --tag=aBx8b --alg=linear mb1ic12ih5iw40oh9ow77
path_is "" axis/ --sdt=u8 --ddt=u8 --tag=aBx16b $blk
path_is "" axis/ --tag=aBx8b $blk
path_is "" axis/ --sdt=u8 --ddt=f32 --tag=aBx8b $blk
# Span groups: antialiased 4x down (9 taps over 5 vectors) takes the span
# path with spanv=8 and not with spanv=4.
aa4="--alg=linear --antialias=true mb1ic2ih8iw256oh2ow64"
path_is spanv=8,vec=16 span/ $aa4
path_is spanv=4,vec=16 none/ $aa4
# Aligned vector accesses (va=1, a GPU's default): the kernel's
# configuration names va=3 (src's loads and dst's stores) on the axis
# path over 64 channels-last channels, forward, backward and a copy;
# va=2 (dst's stores alone) on a channels-first span kernel, whose loads
# start anywhere; nothing where six fused channels make rows of no
# multiple of the width, nor under va=0.
va_is() { # LAUNCH WANT ARGS...
    launch=$1
    want=$2
    shift 2
    rm -rf "$tmp/va"
    mkdir -p "$tmp/va"
    CLRS_LAUNCH=$launch CLRS_CACHE=0 CLRS_DUMP_SOURCE="$tmp/va" "$tool" \
        --mode=C "$@" >"$tmp/out" 2>&1
    got=$(grep -ho ' va=[0-9]' "$tmp/va"/*.cl | sort -u | tr -d ' \n')
    if grep -q PASSED "$tmp/out" && [ "${got:--}" = "$want" ]; then
        ok "CLRS_LAUNCH=$launch $*: ${got:-no va}"
    else
        not_ok "CLRS_LAUNCH=$launch $*: '$got', want $want"
        sed 's/^/# /' "$tmp/out" | tail -3
    fi
}
va_is va=1,vec=4 va=3 $axb64
va_is va=1,vec=4 va=3 --dir=BWD_D $axb64
va_is va=1,vec=4 va=3 --alg=nearest --sdt=u8 --ddt=u8 --tag=axb mb1ic64ih5iw6oh9ow11
va_is va=1,vec=4 va=2 --alg=linear mb1ic2ih8iw64oh16ow128
va_is va=1,vec=4 - --alg=linear --tag=axb mb1ic6ih5iw6oh9ow11
va_is va=0,vec=4 - $axb64
# Antialiased 8x down (17 taps over 9 vectors) with spanv=16 (a CPU's
# default) and not with spanv=8.
aa8="--alg=linear --antialias=true mb1ic2ih8iw512oh1ow64"
path_is spanv=16,vec=16 span/ $aa8
path_is spanv=8,vec=16 none/ $aa8
# Walked rows: a channels-first bilinear downsample's row of 62 outputs
# is one work-item's under walk=1 and by default where the device is no
# GPU (a GPU's neighbouring work-items read neighbouring addresses: no
# walk by default), not under walk=0; an upsample's only under walk=1
# (one row a work-item forced: its rows' taps overlap). The lanes vec=16
# gives are the device's (at most its native float width, where it
# states one): read from the unwalked plan's perf line; a walking
# work-item takes the power of two of groups that covers the row (4 of
# 16 lanes, 8 of 8).
# span_lanes ARGS...: sets lanes to the span lanes of problem ARGS
# under vec=16,walk=0 (its perf line), one TAP point.
span_lanes() {
    CLRS_LAUNCH=vec=16,walk=0 "$tool" --mode=P --fix-times-per-prb=1 "$@" \
        >"$tmp/out" 2>&1
    lanes=$(sed -n 's/.*vector:span\/\([0-9]*\),.*/\1/p' "$tmp/out")
    case $lanes in
    2 | 4 | 8 | 16) ok "vec=16 $*: span/$lanes" ;;
    *) not_ok "vec=16 $*: no span/<lanes> on the perf line"
       sed 's/^/# /' "$tmp/out"; lanes=16 ;;
    esac
}
down="--alg=linear mb1ic3ih40iw100oh25ow62"
up="--alg=linear mb1ic3ih25iw40oh50ow62"
span_lanes $down
groups=$(( (62 + lanes - 1) / lanes ))
g=2
while [ $g -lt $groups ]; do g=$((g * 2)); done
walked=span/${lanes}w$g,
[ $groups -le 32 ] || walked=span/$lanes,
if [ "$(device_type)" = gpu ]; then
    path_is vec=16 span/$lanes, $down
else
    path_is vec=16 "$walked" $down
fi
path_is vec=16,walk=1 "$walked" $down
path_is vec=16,walk=0 span/$lanes, $down
path_is vec=16 span/$lanes, $up
path_is vec=16,walk=1,rows=1 "$walked" $up

# Long rows in pieces: the backward of nearest 2x up into u8 rows of 1000
# elements (more groups than a work-item walks, 32) walks 32 groups a
# work-item by default where the device is no GPU and under walk=1, not
# under walk=0; in f32, and where neighbouring rows' taps overlap
# (linear's backward, one kernel: a CPU's default runs its passes), one
# group a work-item.
long="--dir=BWD_D --alg=nearest --sdt=u8 --ddt=u8 mb1ic3ih20iw1000oh40ow2000"
span_lanes $long
if [ "$(device_type)" = gpu ]; then
    path_is vec=16 span/$lanes, $long
else
    path_is vec=16 span/${lanes}w32, $long
fi
path_is vec=16,walk=1 span/${lanes}w32, $long
path_is vec=16,walk=0 span/$lanes, $long
path_is vec=16 "span/[0-9]*," --dir=BWD_D --alg=nearest \
    mb1ic3ih20iw1000oh40ow2000
path_is vec=16,sep=0 "span/[0-9]*," --dir=BWD_D --alg=linear --sdt=u8 \
    --ddt=u8 mb1ic3ih20iw1000oh40ow2000

# A walked row sums each group's taps in the one-group order: the same
# bytes as without walking, forward and backward (--mode=C writes the
# output it checked to the .npy file). Rows of at most 256 written
# elements, so that groups of 8 lanes or more walk (at most 32 groups a
# work-item, lower.c), and two longer rows of narrow elements that walk
# in pieces of 32 groups (the last shorter): vec=8 on both sides (a GPU's default weighted sums
# take 4 lanes of float, too few groups).
for prb in "--dir=FWD_D --alg=linear mb2ic3ih40iw100oh25ow62" \
    "--dir=FWD_D --alg=cubic --sdt=f16 --ddt=f16 mb1ic2ih31iw480oh16ow240" \
    "--dir=FWD_D --alg=avg_p mb1ic3ih17iw70kh3kw3sh2sw2ph1pw1" \
    "--dir=BWD_D --alg=linear mb2ic3ih25iw40oh50ow100" \
    "--dir=BWD_D --alg=cubic --sdt=bf16 --ddt=bf16 mb1ic2ih16iw240oh31ow480" \
    "--dir=BWD_D --alg=nearest --sdt=u8 --ddt=u8 mb1ic2ih8iw1000oh16ow2000" \
    "--dir=BWD_D --alg=nearest --sdt=bf16 --ddt=bf16 mb1ic2ih6iw1003oh12ow2006"; do
    case $prb in --dir=FWD_D*) out=--dst-file ;; *) out=--diff-src-file ;; esac
    CLRS_LAUNCH=vec=8,walk=0,sep=0 "$tool" --mode=C $out="$tmp/w0.npy" $prb \
        >"$tmp/out0" 2>&1
    rc0=$?
    CLRS_LAUNCH=vec=8,walk=1,sep=0 "$tool" --mode=C --perf-template=json \
        $out="$tmp/w1.npy" $prb >"$tmp/out" 2>&1
    rc1=$?
    if [ $rc0 -eq 0 ] && [ $rc1 -eq 0 ] && grep -q '"groups":[1-9][0-9]*,' \
        "$tmp/out" && ! grep -q '"groups":1,' "$tmp/out" &&
        cmp -s "$tmp/w0.npy" "$tmp/w1.npy"; then
        ok "walk=1 writes the bytes walk=0 does: $prb"
    else
        not_ok "walk=1 against walk=0: $prb: exit $rc0 / $rc1"
        sed 's/^/# /' "$tmp/out0" "$tmp/out" | head -20
        cmp "$tmp/w0.npy" "$tmp/w1.npy" | sed 's/^/# /'
    fi
done

# Rows per work-item by default where the device is no GPU: a walked
# row whose rows' taps overlap (3x3 average pooling of stride 2, a
# bilinear upsample's backward) takes four, one whose do not (bilinear
# 2x down, nearest's backward) one; both under rows=1 one.
rows_are() {
    want=$1
    shift
    CLRS_LAUNCH=$launch "$tool" --mode=C --perf-template=json "$@" \
        >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && grep -q "\"rows\":$want," "$tmp/out"; then
        ok "CLRS_LAUNCH=$launch $*: $want rows a work-item"
    else
        not_ok "CLRS_LAUNCH=$launch $*: exit $rc, not $want rows"
        sed 's/^/# /' "$tmp/out" | head -10
    fi
}
if [ "$(device_type)" != gpu ]; then
    launch=vec=16,walk=1
    rows_are 4 --alg=avg_np mb1ic3ih34iw300kh3kw3sh2sw2ph1pw1
    launch=vec=16,walk=1,sep=0 # one kernel: a CPU's default runs passes
    rows_are 4 --dir=BWD_D --alg=linear mb1ic3ih20iw100oh40ow200
    launch=vec=16,walk=1
    rows_are 1 --alg=linear mb1ic3ih40iw400oh20ow200
    rows_are 1 --dir=BWD_D --alg=nearest mb1ic3ih20iw100oh40ow200
    launch=vec=16,walk=1,rows=1
    rows_are 1 --alg=avg_np mb1ic3ih34iw300kh3kw3sh2sw2ph1pw1
    # A forward sum on the span path over a row of 2048 or more outputs
    # takes four rows in work-groups of 64x4 (not the driver's); a
    # shorter row, an upsample into u8 and a forced rows=1 one.
    launch=
    rows_are 4 --alg=linear mb1ic1ih10iw1030oh20ow2060
    rows_are 4 --alg=linear --sdt=u8 --ddt=u8 mb1ic1ih20iw4100oh10ow2050
    rows_are 1 --alg=linear mb1ic1ih10iw1000oh20ow2000
    rows_are 1 --alg=linear --sdt=u8 --ddt=u8 mb1ic1ih10iw1030oh20ow2060
    # Integer max pooling (compared as it is) takes four rows over any
    # row; float max pooling and a copy (nearest) one.
    rows_are 4 --dir=FWD_I --alg=max --sdt=u8 --ddt=u8 mb1ic3ih40iw100kh3kw3sh2sw2ph1pw1
    rows_are 4 --dir=FWD_I --alg=max --sdt=s32 --ddt=s32 mb1ic3ih40iw100kh3kw3sh2sw2ph1pw1
    rows_are 1 --dir=FWD_I --alg=max mb1ic3ih40iw100kh3kw3sh2sw2ph1pw1
    rows_are 1 --alg=nearest mb1ic1ih10iw1030oh20ow2060
    rows_are 1 --dir=FWD_I --alg=avg_np mb1ic1ih40iw4200kh3kw3sh2sw2ph1pw1
    # Adaptive average pooling (no window coordinates) takes them too.
    rows_are 4 --dir=FWD_I --alg=avg_adaptive mb1ic1ih40iw4200oh20ow2100
    # A forward sum on the axis path whose kernel axis 1 resamples rows
    # of 1024 or more elements with overlapping taps (an antialiased
    # downsample of H alone, channels-first) takes four rows; rows of 256
    # elements, taps that do not overlap (bilinear 2x down), and
    # channels-last pixels (C apart) one.
    rows_are 4 --dir=FWD_I --alg=linear --antialias=true --axes=h mb1ic2ih64iw1024oh16ow1024
    rows_are 1 --dir=FWD_I --alg=linear --antialias=true --axes=h mb1ic2ih64iw256oh16ow256
    rows_are 1 --dir=FWD_I --alg=linear --axes=h mb1ic2ih64iw1024oh32ow1024
    rows_are 1 --dir=FWD_I --alg=linear --antialias=true --tag=axb mb1ic64ih8iw64oh8ow16
    launch=rows=1
    rows_are 1 --alg=linear mb1ic1ih10iw1030oh20ow2060
    # A span kernel of one row a work-item (nearest 2x up of a
    # three-channel plane, 128 span groups a row) runs in a work-group
    # of at most 512 work-items filled along the row first (128x2x1 on
    # PoCL; rusticl's smaller kernel limit halves the row to 16x2x1), not
    # the driver's (PoCL chose 8x1x1).
    CLRS_LAUNCH= "$tool" --mode=C --perf-template=json --alg=nearest \
        mb1ic3ih85iw1024oh170ow2048 >"$tmp/out" 2>&1
    set -- $(sed -n 's/.*"lws":\[\([0-9]*\),\([0-9]*\),\([0-9]*\)\].*/\1 \2 \3/p' \
        "$tmp/out" | head -1) 0 0 0
    if [ "$1" -ge 2 ] && [ "$1" -ge "$2" ] && [ "$3" -eq 1 ] &&
        [ $(($1 * $2 * $3)) -le 512 ] &&
        grep -q '"rows":1,' "$tmp/out" && grep -q '"vector":"span' "$tmp/out"; then
        ok "a span kernel of one row in a work-group of ${1}x${2}x$3"
    else
        not_ok "a span kernel of one row: work-group ${1}x${2}x$3, not filled along the row"
        sed 's/^/# /' "$tmp/out" | head -10
    fi
    CLRS_LAUNCH= "$tool" --mode=C --perf-template=json --alg=linear \
        mb1ic1ih10iw1030oh20ow2060 >"$tmp/out" 2>&1
    l0=$(sed -n 's/.*"lws":\[\([0-9]*\),\([0-9]*\),.*/\1/p' "$tmp/out" | head -1)
    l1=$(sed -n 's/.*"lws":\[\([0-9]*\),\([0-9]*\),.*/\2/p' "$tmp/out" | head -1)
    if [ -n "$l0" ] && [ "$l0" -ge 2 ] && [ "$l0" -le 64 ] &&
        [ "$l1" -le 4 ] && grep -q '"rows":4,' "$tmp/out"; then
        ok "four rows a work-item in a work-group of ${l0}x$l1 (at most 64x4)"
    else
        not_ok "four rows a work-item: not in a work-group of at most 64x4"
        sed 's/^/# /' "$tmp/out" | head -10
    fi
fi

# A walked row's work-group shrunk to bound its private arrays (or to the
# kernel's own limit) still divides the NDRange: 1x9x8 on 9 output rows
# holds too many walking work-items and becomes 1x3x8, not 1x4x8, which
# OpenCL 1.2 devices refuse (CL_INVALID_WORK_GROUP_SIZE).
CLRS_LAUNCH=vec=16,walk=1,local=1x9x8 "$tool" --mode=C --perf-template=json \
    --alg=linear mb2ic4ih20iw300oh9ow248 >"$tmp/out" 2>&1
rc=$?
lws1=$(sed -n 's/.*"lws":\[[0-9]*,\([0-9]*\),.*/\1/p' "$tmp/out" | head -1)
if [ $rc -eq 0 ] && [ -n "$lws1" ] && [ $((9 % lws1)) -eq 0 ]; then
    ok "a shrunk work-group divides the NDRange (local 1x9x8 runs as 1x$lws1)"
else
    not_ok "shrunk work-group: exit $rc, local size ${lws1:-?} on 9 rows"
    sed 's/^/# /' "$tmp/out" | head -20
fi

for bad in vec=3 vec=16x span=2 nt= local=0 local=4x4x4x4 local=x4 \
    local=70000 speed=1 vec mv=3 mv=8 mv= spanv=2 spanv=32 spanv=16x spanv= walk=2 walk= rows=3 rows=16 rows= \
    ,,,, vec=1,,local=driver , vec=4, ,vec=4; do
    CLRS_LAUNCH=$bad "$tool" --mode=C mb1ic3ih4iw4oh8ow8 >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -ne 0 ] && grep -q 'CLRS_ERR_INVALID_VALUE: CLRS_LAUNCH' "$tmp/out"
    then
        ok "CLRS_LAUNCH=$bad is refused"
    else
        not_ok "CLRS_LAUNCH=$bad: exit $rc"
        sed 's/^/# /' "$tmp/out"
    fi
done
echo "1..$n"
exit $failed
