#!/bin/sh
# The OpenCL compiler's output. Every kernel of a representative batch
# (tests/inputs/launch_subset and post-op chains over more dtypes),
# compiled from source with no cache anywhere, has an empty build log and
# prints nothing on stderr. Then, on PoCL, a warning is planted through
# PoCL's POCL_EXTRA_BUILD_FLAGS (-DCLRS_LD_f32=2 -DCLRS_LDV_f32=2: every
# kernel that reads f32 defines one of the two, and so redefines it): the library keeps the log
# (clrs_plan_get_build_log), `clresample -v` prints it, the default
# output says so in one line and carries none of the compiler's own
# "N warnings generated." lines, and CLRS_WERROR=1 turns it into a
# failed plan. TAP, run by make check; writes only under the build tree.

tap_name=build-log
. "${top_srcdir:-.}/tests/tap.sh"
show() { sed 's/^/# /' "$@" | head -n 40; }

# Nothing cached: every plan compiles its program from source (PoCL's
# kernel cache in a fresh directory; other drivers may keep their own).
# The check mode stays off here: a warning must show as a log.
unset CLRS_WERROR POCL_EXTRA_BUILD_FLAGS
CLRS_CACHE=0
export CLRS_CACHE
fresh() { rm -rf "$tmp/pocl"; POCL_CACHE_DIR="$tmp/pocl"; export POCL_CACHE_DIR; }

fresh
"$tool" -v --mode=C --batch="$top_srcdir/tests/inputs/launch_subset" \
    --reset --alg=linear --sdt=f16,bf16,u8 --tag=abx,axb,aBx16b \
    --attr-post-ops=sum:0.5+eltwise_gelu_erf+binary_add:f32:per_oc \
    mb2ic16ih9iw20oh18ow40 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 3 ]; then
    echo "1..0 # SKIP no OpenCL device"
    exit 0
fi
summary=$(grep '^tests:' "$tmp/out")
# Skipped: only the f64 problems, only on a device without fp64.
fp64=$(device_fp64)
grep ':SKIPPED ' "$tmp/out" >"$tmp/skipped"
if [ "$fp64" = no ]; then grep -v 'needs fp64' "$tmp/skipped" >"$tmp/bad_skips"
else cp "$tmp/skipped" "$tmp/bad_skips"; fi
if [ $rc -eq 0 ] && [ ! -s "$tmp/bad_skips" ]; then
    ok "the batch passes: $summary"
else
    not_ok "the batch: exit $rc: $summary (fp64 $fp64)"
    grep -v ':PASSED ' "$tmp/out" | show
fi
if [ -s "$tmp/skipped" ] && [ "$fp64" = no ]; then
    skip "the batch's $(wc -l <"$tmp/skipped") f64 problems: the device has no fp64"
fi
if grep -q ':build log:' "$tmp/out"; then
    not_ok "no kernel of the batch has a build log"
    grep -A 8 ':build log:' "$tmp/out" | show
else
    ok "no kernel of the batch has a build log (-v prints none)"
fi
if [ -s "$tmp/err" ]; then
    not_ok "the batch wrote nothing on stderr"; show "$tmp/err"
else
    ok "the batch wrote nothing on stderr"
fi

# A planted warning: PoCL only (its environment variable plants it), on
# the device the batch ran on.
if ! grep '^device ' "$tmp/out" | grep -q '(Portable Computing Language)$'; then
    skip "planted warnings need PoCL as the device"
    echo "1..$n"
    exit $failed
fi
POCL_EXTRA_BUILD_FLAGS="-DCLRS_LD_f32=2 -DCLRS_LDV_f32=2"
export POCL_EXTRA_BUILD_FLAGS
prb="--alg=linear --tag=axb mb1ic16ih4iw4oh8ow8"

fresh
"$tool" $prb >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^0:PASSED ' "$tmp/out" &&
    grep -q '^0:note: the OpenCL compiler.s build log for this problem has [0-9]* lines\{0,1\} (-v prints it)$' "$tmp/out"; then
    ok "default output: the problem passes and one note names the log"
else
    not_ok "default output: exit $rc"; show "$tmp/out" "$tmp/err"
fi
if grep -q 'generated\.' "$tmp/out" "$tmp/err" || [ -s "$tmp/err" ]; then
    not_ok "default output: no compiler chatter, nothing on stderr"
    show "$tmp/err"
else
    ok "default output: no compiler chatter, nothing on stderr"
fi

fresh
"$tool" -v $prb >"$tmp/out" 2>"$tmp/err"
if grep -A 3 '^0:build log:$' "$tmp/out" | grep -q "^    .*CLRS_LDV\{0,1\}_f32.*redefined"; then
    ok "-v prints the build log with the warning"
else
    not_ok "-v prints the build log"; show "$tmp/out" "$tmp/err"
fi

fresh
"$tool" --perf-template=json $prb >"$tmp/out" 2>"$tmp/err"
if grep -q '"build_log":"[^"]*CLRS_LDV\{0,1\}_f32[^"]*redefined' "$tmp/out"; then
    ok "JSON carries the build log"
else
    not_ok "JSON carries the build log"; show "$tmp/out" "$tmp/err"
fi

# Two kernels (max pooling backward recomputing its argmax): both logs,
# each under its kernel's name.
fresh
"$tool" -v --dir=BWD_D --alg=max --tag=axb mb1ic16ih8iw8kh3sh2ph1 \
    >"$tmp/out" 2>"$tmp/err"
if grep -A 1 '^    argmax kernel (clrs_forward):$' "$tmp/out" |
    grep -q 'redefined$' &&
    grep -A 1 '^    backward kernel (clrs_backward):$' "$tmp/out" |
    grep -q 'redefined$' &&
    [ "$(grep -B 1 '^tests:' "$tmp/out" | head -n 1 | grep -c 'redefined$')" = 1 ]; then
    ok "a two-kernel plan gives both logs, each named"
else
    not_ok "a two-kernel plan gives both logs"; show "$tmp/out" "$tmp/err"
fi

fresh
CLRS_WERROR=1 "$tool" $prb >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q '^0:FAILED (plan_create_forward: CLRS_ERR_BUILD_FAILED: .*CLRS_LDV\{0,1\}_f32.*redefined' "$tmp/out"; then
    ok "CLRS_WERROR=1: the warning fails the plan with CLRS_ERR_BUILD_FAILED"
else
    not_ok "CLRS_WERROR=1: exit $rc"; show "$tmp/out" "$tmp/err"
fi
if [ -s "$tmp/err" ]; then
    not_ok "CLRS_WERROR=1: nothing on stderr"; show "$tmp/err"
else
    ok "CLRS_WERROR=1: nothing on stderr"
fi

echo "1..$n"
exit $failed
