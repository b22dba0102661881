#!/bin/sh
# Runs the small subsets of test_device_forward, test_device_backward,
# test_device_dtypes, test_device_postops and test_device_span (every mode
# in each layout class, every dtype, blocked layouts, post-op chains, the
# span vector path; tiny sizes; forward and backward again under forced
# GPU launch parameters) under Oclgrind, which checks every kernel
# for out-of-bounds accesses, uninitialised values, data races and API
# errors.
# The clresample tool runs there too: resampled N and C, and antialiased
# shapes on the span path.
# TAP: the subset's own results, then "oclgrind reported nothing" (any
# Oclgrind report fails: it exits 0 whatever it finds, so its log decides).

# Every run with uninitialised-value tracking turns three-lane vectors
# off (CLRS_LAUNCH v3=0; the /v3 runs below say why).
# Every run but the last block keeps plans whole (CLRS_LAUNCH sep=0): the
# separable passes are checked there, one plan a process. Oclgrind 21's
# uninitialised-value tracking loses a kernel's stores into a buffer
# whose memory an earlier, smaller buffer of the process had held (a
# 16-byte buffer released, then a 400-byte one written by one kernel and
# read by the next: 96 false reports; host writes are tracked): in one
# process of many plans, the passes' intermediates hit it.
: "${top_builddir:=.}"

if test -z "$OCLGRIND" || test ! -x "$OCLGRIND"; then
    echo "1..0 # SKIP oclgrind not installed"
    exit 0
fi
# Oclgrind preloads its runtime, which AddressSanitizer refuses to follow;
# the plain build runs this test (CI runs both builds).
if test -n "${SAN_FLAGS:-}"; then
    echo "1..0 # SKIP oclgrind cannot run a sanitizer build"
    exit 0
fi

# Oclgrind's runtime is the only platform its programs see: a CLRS_DEVICE
# meant for the suite's device (CLRS_DEVICE=llvmpipe) would name none.
unset CLRS_DEVICE

tmp="$top_builddir/tests/tmp-oclgrind.$$"
rm -rf "$tmp"
mkdir -p "$tmp" || { echo "Bail out! cannot create $tmp"; exit 1; }

n=0
keep=0

# quiet WHAT LOG: a TAP point, Oclgrind's log LOG empty; a report keeps
# it (and the scratch directory) as LOG.N and shows its start.
quiet() {
    n=$((n + 1))
    if test -s "$2"; then
        echo "not ok $n - oclgrind reported nothing for $1 (log kept in $2.$n)"
        sed -e 's/^/# oclgrind: /' "$2" | head -n 80
        mv "$2" "$2.$n"
        keep=1
    else
        echo "ok $n - oclgrind reported nothing for $1"
    fi
}
# Each program's subset: its TAP lines without its plan, then whether it
# ran every case, exited 0 and left an empty Oclgrind log. The forward
# subset has 104 cases, the backward one 116 (every class twice), the
# dtype one 38 (every type as src and dst, backward types, and the
# blocked layouts forward and backward in every mode), the post-op one 4
# chains (channels-last vector, blocked, dense), the span one 48 points
# (24 cases, 14 forward, two of them walked rows, and 10 backward, values
# and path each). The last
# spec
# builds (does not run) the native half kernels: Oclgrind's compiler takes
# cl_khr_fp16, its simulator cannot execute half, and no other device
# here has it (test_device_dtypes --fp16-native-build: 8 kernels).
# /launch: the subset again under a GPU's launch defaults (4 lanes, a
# fixed 16x16 work-group), which PoCL's tests force through CLRS_LAUNCH.
# /v3: three-lane vectors (vload3 / vstore3 of an RGB pixel, CLRS_LAUNCH
# v3=1), which the other runs turn off: Oclgrind 21.10's uninitialised-
# value tracking crashes (SIGSEGV) on a 3-element vector that meets at a
# branch or a loop (an LLVM phi of <3 x float>; a plain select of two is
# fine), so these runs check bounds, races and the API without it.
for spec in test_device_forward:104 test_device_backward:116 \
    test_device_dtypes:38 test_device_postops:4 test_device_span:48 \
    test_device_dtypes/fp16:8 test_device_forward/launch:104 \
    test_device_backward/launch:116 test_device_forward/v3:104 \
    test_device_backward/v3:116 test_device_dtypes/v3:38; do
    name=${spec%%:*}
    want=${spec#*:}
    flag=--oclgrind-subset
    launch=v3=0
    uninit=--uninitialized
    suffix=
    case $name in
    */fp16)
        name=${name%/fp16}
        flag=--fp16-native-build
        ;;
    */launch)
        name=${name%/launch}
        launch=vec=4,local=16x16x1,v3=0
        suffix=-gpu-launch
        ;;
    */v3)
        name=${name%/v3}
        launch=v3=1
        uninit=
        suffix=-v3
        ;;
    esac
    prog="$top_builddir/tests/$name"
    name="$name$flag$suffix"
    log="$tmp/$name.log"
    out="$tmp/$name.stdout"
    err="$tmp/$name.stderr"

    # Every kernel is built by Oclgrind itself: no program from the
    # on-disk cache, which holds binaries of the other devices.
    CLRS_CACHE=0 CLRS_LAUNCH=$launch,sep=0 \
        "$top_builddir/libtool" --mode=execute \
        "$OCLGRIND" $uninit --data-races --check-api --log "$log" \
        "$prog" "$flag" >"$out" 2>"$err"
    status=$?

    # Renumber the subset's points after the ones already printed.
    base=$n
    awk -v base="$base" '
        /^1\.\.[0-9]/ { next }
        /^ok [0-9]+/ { $2 = $2 + base; print; next }
        /^not ok [0-9]+/ { $3 = $3 + base; print; next }
        { print }' "$out"
    ran=$(grep -c -E '^(not )?ok ' "$out")
    n=$((n + ran))
    if grep -q '^1\.\.0 # SKIP' "$out"; then
        # Oclgrind is a device: a skip here means the run went wrong.
        n=$((n + 1))
        echo "not ok $n - $name subset skipped under oclgrind: $(grep '^1\.\.0' "$out")"
    fi

    # A crash stops the count short.
    n=$((n + 1))
    if test "$ran" -ge "$want"; then
        echo "ok $n - $name subset ran $ran cases under oclgrind"
    else
        echo "not ok $n - $name subset ran only $ran cases under oclgrind (want >= $want)"
    fi

    n=$((n + 1))
    if test "$status" -eq 0; then
        echo "ok $n - $name subset exited 0 under oclgrind"
    else
        echo "not ok $n - $name subset exited $status under oclgrind"
        sed -e 's/^/# stderr: /' "$err" | head -n 40
    fi

    n=$((n + 1))
    if test -s "$log"; then
        reports=$(grep -c -E '^(Invalid|Uninitiali[sz]ed|.*data race|Oclgrind - |Work-group divergence|.*[Ee]rror)' "$log")
        echo "not ok $n - oclgrind reported nothing for $name ($reports reports; log kept in $log)"
        sed -e 's/^/# oclgrind: /' "$log" | head -n 80
        keep=1
    else
        echo "ok $n - oclgrind reported nothing for $name"
    fi
done

# The tool on resampled N and C in blocked and channels-last layouts,
# forward and backward, with a partial last block along the resampled C;
# and 64 channels-last channels, whose backward gathers take four
# vectors of 4 lanes per work-item (CLRS_LAUNCH vec=4).
log="$tmp/clresample-axes.log"
out="$tmp/clresample-axes.stdout"
CLRS_CACHE=0 CLRS_LAUNCH=vec=4,v3=0,sep=0 "$top_builddir/libtool" --mode=execute \
    "$OCLGRIND" --uninitialized --data-races --check-api --log "$log" \
    "$top_builddir/tools/clresample" --mode=C --dir=FWD_D,BWD_D \
    --alg=nearest,linear,cubic --tag=aBx8b,axb --axes=c mb1ic5oc11iw2 \
    --axes=nc mb2ic9on3oc5iw2 --axes=default mb1ic64iw3ow5 >"$out" 2>&1
status=$?
n=$((n + 1))
if test "$status" -eq 0 &&
    grep -q '^tests:36 passed:36 ' "$out"; then
    echo "ok $n - clresample --axes (N, C; blocked) and 64 channels-last passed under oclgrind"
else
    echo "not ok $n - clresample --axes (N, C; blocked) under oclgrind: exit $status"
    grep -v ':PASSED ' "$out" | sed -e 's/^/# /' | head -n 40
fi
quiet "clresample --axes" "$log"

# grind_calc NAME COUNT ARGS...: the tool under Oclgrind with computed
# taps (CLRS_LAUNCH calc=1), its output in $out and its log in $log;
# true when it exits 0 with all COUNT problems passed. Without
# --uninitialized: Oclgrind 21.10's uninitialised-value checker crashes
# (a segmentation fault) on these kernels' vector arithmetic.
grind_calc() {
    _count=$2
    log="$tmp/clresample-$1.log"
    out="$tmp/clresample-$1.stdout"
    shift 2
    CLRS_CACHE=0 CLRS_LAUNCH=calc=1,v3=0,sep=0 "$top_builddir/libtool" \
        --mode=execute "$OCLGRIND" --data-races --check-api --log "$log" \
        "$top_builddir/tools/clresample" "$@" >"$out" 2>&1
    status=$?
    n=$((n + 1))
    test "$status" -eq 0 && grep -q "^tests:$_count passed:$_count " "$out"
}
# grind_failed: the failed problems of the last grind_calc.
grind_failed() {
    grep -E '^[0-9]+:|^tests:' "$out" | grep -v ':PASSED ' |
        sed -e 's/^/# /' | head -n 40
}

# grind_taken NAME COUNT PATTERN WANT WHAT ARGS...: grind_calc NAME
# COUNT ARGS..., passing with at least WANT perf lines matching PATTERN
# (the path WHAT names), and Oclgrind quiet.
grind_taken() {
    _name=$1 _cnt=$2 _pat=$3 _want=$4 _what=$5
    shift 5
    if grind_calc "$_name" "$_cnt" --mode=CP --fix-times-per-prb=1 \
        --dir=FWD_D "$@" && _got=$(grep -c "$_pat" "$out") &&
        test "$_got" -ge "$_want"; then
        echo "ok $n - clresample $_name passed under oclgrind ($_got $_what)"
    else
        echo "not ok $n - clresample $_name under oclgrind: exit $status, $(grep -c "$_pat" "$out") $_what (want $_want)"
        grind_failed
    fi
    quiet "clresample $_name" "$log"
}

# Computed taps on the span path: nearest, linear and cubic rows,
# clamped and padded, whose last group passes the row's end and whose
# first groups start below x = 0 (both go lane by lane), and a row of
# three fused channels-last channels (gathered groups).
grind_taken calc 24 'vector:span/' 1 "on the span path" \
    --alg=nearest,linear,cubic --pad-mode=edge,zero \
    mb1ic1iw37ow301 mb1ic2iw100ow37 mb1ic1ih5iw40oh3ow61 \
    --tag=axb mb1ic3iw37ow301

# Periodic computed taps: rows long enough for a stretch (128 groups of
# ends and more), one channel and three fused, the period's last group
# whose vectors end at src's end.
grind_taken calc-per 4 'vector:span/[0-9]*p[1-9]' 4 periodic \
    --alg=linear,cubic mb1ic1iw1200ow2400 --tag=axb mb1ic3iw800ow1600

# Antialiased computed taps: the loops over the filter unrolled to a
# trip count (1-D linear and cubic, 2-D linear: positions past an
# output's range skipped) or over the range (2-D cubic: too many to
# unroll), inside the axis (PyTorch's rule) or clamped (ONNX's).
if grind_calc calc-aa 8 --mode=C --dir=FWD_D \
    --alg=linear,cubic --antialias=true --aa-rule=pytorch,onnx \
    mb1ic2iw40ow7 mb1ic3ih9iw8oh4ow4; then
    echo "ok $n - clresample antialiased computed taps passed under oclgrind"
else
    echo "not ok $n - clresample antialiased computed taps under oclgrind: exit $status"
    grind_failed
fi
quiet "clresample antialiased computed taps" "$log"

# Antialiased linear and cubic on the span path, forward and backward,
# at 4 lanes (a GPU's default) and at the device's default: 1-D and 2-D
# shapes whose forward groups hold a tap that no lane reads (the kernel
# starts it from 0; such shapes once named an undeclared pad) or lanes
# without a tap, and walked rows (2-D at 4 lanes). Each run must pass,
# leave no Oclgrind report, and at 4 lanes take the span path.
aa_shapes="mb1ic1iw17ow7 mb1ic2iw20ow18 mb1ic2iw23ow13 mb1ic2iw24ow10
    mb1ic2ih10iw20oh6ow13 mb1ic2ih23iw15oh15ow13 mb1ic2ih5iw18oh4ow16"
for launch in vec=4 default; do
    log="$tmp/clresample-aa-$launch.log"
    out="$tmp/clresample-aa-$launch.stdout"
    case $launch in default) keys=v3=0,sep=0 ;; *) keys=$launch,v3=0,sep=0 ;; esac
    CLRS_CACHE=0 CLRS_LAUNCH=$keys \
        "$top_builddir/libtool" --mode=execute "$OCLGRIND" --uninitialized \
        --data-races --check-api --log "$log" \
        "$top_builddir/tools/clresample" --mode=CP --fix-times-per-prb=1 \
        --dir=FWD_D,BWD_D --alg=linear,cubic --antialias=true $aa_shapes \
        >"$out" 2>&1
    status=$?
    spans=$(grep -c 'vector:span/' "$out")
    n=$((n + 1))
    if test "$status" -eq 0 && grep -q '^tests:28 passed:28 ' "$out" &&
        { test "$launch" = default || test "$spans" -gt 0; }; then
        echo "ok $n - clresample antialiased at $launch launch passed under oclgrind ($spans on the span path)"
    else
        echo "not ok $n - clresample antialiased at $launch launch under oclgrind: exit $status, $spans on the span path"
        grep -E '^[0-9]+:|^tests:' "$out" | grep -v ':PASSED ' |
            sed -e 's/^/# /' | head -n 40
    fi
    quiet "clresample antialiased at $launch launch" "$log"
done

# Separable plans (CLRS_LAUNCH sep=1: one pass per resampled axis
# through the plan's intermediates), one problem a process: 2-D and 3-D
# linear and cubic, antialiased, channels-last and blocked, half and u8
# ends with the f32 intermediates, a post-op chain on the last pass.
# grind_plan NAME LAUNCH WANT PRB...: each problem alone under Oclgrind
# with CLRS_LAUNCH=LAUNCH, passing, its JSON line holding WANT.
grind_plan() {
    gname=$1
    glaunch=$2
    gwant=$3
    shift 3
    for prb in "$@"; do
        log="$tmp/clresample-$gname.log"
        out="$tmp/clresample-$gname.stdout"
        CLRS_CACHE=0 CLRS_LAUNCH=$glaunch "$top_builddir/libtool" \
            --mode=execute "$OCLGRIND" --uninitialized --data-races \
            --check-api --log "$log" "$top_builddir/tools/clresample" \
            --mode=CP --fix-times-per-prb=1 --perf-template=json \
            --dir=FWD_D $prb >"$out" 2>&1
        status=$?
        n=$((n + 1))
        if test "$status" -eq 0 && grep -q '^tests:1 passed:1 ' "$out" &&
            grep -q "$gwant" "$out"; then
            echo "ok $n - $gname $prb passed under oclgrind"
        else
            echo "not ok $n - $gname $prb under oclgrind: exit $status"
            grep -v ':PASSED ' "$out" | sed -e 's/^/# /' | head -n 20
        fi
        quiet "$gname $prb" "$log"
    done
}
grind_plan separable v3=0,sep=1 '"separable":true' \
    "--alg=cubic mb1ic2ih5iw7oh9ow12" \
    "--alg=linear --tag=axb mb1ic3id3ih4iw5od5oh3ow8" \
    "--alg=linear --antialias=true mb1ic2ih17iw23oh6ow7" \
    "--alg=cubic --antialias=true --tag=axb --sdt=u8 --ddt=u8 mb1ic3ih16iw20oh5ow6" \
    "--alg=cubic --tag=aBx8b --sdt=f16 --ddt=f16 mb1ic11ih4iw6oh7ow9" \
    "--alg=linear --attr-post-ops=sum+relu mb2ic2ih6iw6oh9ow4"

# The fold (CLRS_LAUNCH roll=1: a channels-first plan's two passes, the
# outer first, as one span kernel): span vectors summed over the outer
# axis's rows, then the inner pattern over the sums; u8 antialiased, f16
# with a post-op.
grind_plan folded v3=0,sep=1,roll=1 '"kernels":1,"separable":true' \
    "--alg=cubic mb1ic2ih16iw40oh32ow80" \
    "--alg=linear --antialias=true --sdt=u8 --ddt=u8 mb1ic2ih64iw128oh24ow48" \
    "--alg=cubic --sdt=f16 --ddt=f16 --attr-post-ops=relu mb1ic2ih12iw36oh20ow70"

# Max pooling of u8 and s8 with a window index under the default pad
# (-inf) compares the values as short (raw_wide): the span path
# channels-first, the axis path channels-last.
grind_plan wide-span v3=0 '"variant":"span"' \
    "--alg=max --sdt=u8 --ddt=u8 mb1ic2ih9iw80kh3kw3sh2sw2ph1pw1"
grind_plan wide-axis v3=0 '"variant":"axis"' \
    "--alg=max --tag=axb --sdt=s8 --ddt=s8 mb1ic16ih9iw20kh3kw3sh2sw2ph1pw1"

# Span groups of up to 16 vectors and 32 taps a lane (spanv=16, a CPU's
# default): antialiased 8x downsampling of rows, forward (f32 linear,
# u8 cubic), a 12x upsample's backward (24 entries a lane), and a
# forward group reaching past 16 vectors (f16 bicubic 16x down, 64
# taps).
grind_plan wide-groups v3=0,spanv=16 '"variant":"span"' \
    "--alg=linear --antialias=true --axes=w mb1ic2ih2iw512oh2ow64" \
    "--alg=cubic --antialias=true --axes=w --sdt=f16 --ddt=f16 mb1ic1ih2iw1024oh2ow64" \
    "--alg=cubic --antialias=true --axes=w --sdt=u8 --ddt=u8 mb1ic1ih2iw256oh2ow32" \
    "--dir=BWD_D --alg=linear --axes=w mb1ic2ih2iw20oh2ow240"

# A fixed-point span group folding its outer rows first (u8 and s8
# trilinear 2x up), and a long backward row of u8 walked in pieces of 32
# groups, the last shorter (nearest 2x up's backward, 600 elements).
grind_plan fix-fold v3=0,spanv=16 '"variant":"span"' \
    "--alg=linear --sdt=u8 --ddt=u8 mb1ic2id3ih4iw21od6oh8ow42" \
    "--alg=linear --sdt=s8 --ddt=s8 mb1ic1id3ih3iw40od6oh6ow80"
grind_plan pieces vec=16 '"variant":"walk"' \
    "--dir=BWD_D --alg=nearest --sdt=u8 --ddt=u8 mb1ic1ih3iw600oh6ow1200"

# u8 and s8 averages summed in integers on the span path (walk=0: the
# row walk takes none), groups whose lanes' counts are odd storing at
# once, the clipped edges' (2 x 3: 6 taps) testing their lanes for ties
# and running them one by one where one is near.
grind_plan int-avg walk=0,v3=0 '"variant":"span"' \
    "--alg=avg_np --sdt=u8 --ddt=u8 mb1ic2ih20iw70kh3kw3sh2sw2ph1pw1" \
    "--alg=avg_p --tag=axb --sdt=s8 --ddt=s8 mb1ic3ih12iw40kh3kw3sh2sw2ph1pw1" \
    "--alg=avg_np --sdt=s8 --ddt=s8 mb1ic1ih12iw99kh2kw3sh2sw3"

# Non-temporal and aligned vector stores and loads (CLRS_LAUNCH nt=1 and
# va=1, a GPU's aligned accesses): f16 vectors stored as their bits, u8
# and s8 vectors as rounded, aligned loads and stores on the axis path in
# f32, bf16 and a u8 copy.
grind_plan stores v3=0,nt=1,va=1 '"status":"PASSED"' \
    "--alg=linear --sdt=f16 --ddt=f16 mb1ic2ih6iw64oh12ow128" \
    "--alg=linear --tag=axb --sdt=u8 --ddt=u8 mb1ic64ih5iw6oh9ow11" \
    "--alg=cubic --sdt=s8 --ddt=s8 mb1ic2ih6iw64oh12ow128" \
    "--alg=linear --tag=axb mb1ic64ih5iw6oh9ow11" \
    "--alg=cubic --tag=axb --sdt=bf16 --ddt=bf16 mb1ic32ih4iw5oh7ow9" \
    "--alg=nearest --tag=axb --sdt=u8 --ddt=u8 mb1ic64ih4iw4oh8ow8"

echo "1..$n"
test "$keep" -eq 1 || rm -rf "$tmp"
exit 0
