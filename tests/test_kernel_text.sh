#!/bin/sh
# The generated kernels read top to bottom. Every kernel of the launch
# subset (under the default launch and under walked rows and one-vector
# work-items) and of the backward and pooling batches is dumped
# (CLRS_DUMP_SOURCE) and read as text:
#   - the kernel function is indented by its blocks: each line four
#     spaces per block open, a statement of a brace-less if, else or for
#     four more, the arguments four, and the blocks close to zero;
#   - no line ends in white space;
#   - the preamble holds a helper family of cl/ only where the kernel
#     uses it (a vector kernel's shuffles, a max kernel's steps, ...).
#   - a kernel whose weights are all 1 (key " unit") reads no weight
#     table.
# TAP, run by make check; writes only under the build tree.

tap_name=kernel-text
. "${top_srcdir:-.}/tests/tap.sh"

dump() { # LAUNCH BATCH
    CLRS_LAUNCH=$1 CLRS_DUMP_SOURCE="$tmp/src" "$tool" --mode=R \
        --batch="$top_srcdir/tests/inputs/$2" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}
mkdir -p "$tmp/src"
dump "" launch_subset
if [ $rc -eq 3 ]; then
    echo "1..0 # SKIP no OpenCL device"
    exit 0
fi
dump walk=1 launch_subset
dump vec=1 launch_subset
dump calc=1 launch_subset
dump va=1 launch_subset
dump "" test_backward_ci
dump "" test_pooling_ci
count=$(ls "$tmp/src" | wc -l)
if [ "$count" -ge 100 ]; then
    ok "$count kernels dumped"
else
    not_ok "only $count kernels dumped"; sed 's/^/# /' "$tmp/err" | head
fi

# Indentation of the kernel function: the first offending line of each
# kernel, as FILE:LINE: want W, has H: TEXT.
for f in "$tmp/src"/*.cl; do
    awk -v f="$(basename "$f")" '
        /^\/\* ---- kernel ---- \*\/$/ { on = 1; next }
        !on { next }
        {
            t = $0; sub(/^ */, "", t); has = length($0) - length(t)
            if (t ~ /^}/) depth--
            if (sig && t == "{") sig = 0
            want = 4 * depth + (sig ? 4 : 0) + (single ? 4 : 0)
            if (t ~ /^__kernel /) want = 0
            if (t != "" && has != want && !bad) {
                printf "%s:%d: want %d, has %d: %s\n", f, NR, want, has, t
                bad = 1
            }
            single = t ~ /^(if|for|while|else if) \(.*\)$/ || t == "else"
            if (t ~ /^__kernel /) sig = 1
            if (t ~ /{$/) depth++
        }
        END {
            if (depth != 0 && !bad)
                printf "%s: %d block(s) open at the end\n", f, depth
        }' "$f"
done >"$tmp/indent"
if [ -s "$tmp/indent" ]; then
    not_ok "every kernel function is indented by its blocks"
    sed 's/^/# /' "$tmp/indent" | head -n 20
else
    ok "every kernel function is indented by its blocks"
fi

if grep -n '[ 	]$' "$tmp/src"/*.cl >"$tmp/trailing"; then
    not_ok "no line ends in white space"; sed 's/^/# /' "$tmp/trailing" | head
else
    ok "no line ends in white space"
fi

# A helper family is defined only where a line other than its
# definitions names it.
for family in CLRS_VLOAD CLRS_SHUF CLRS_BLK CLRS_NT_STORE CLRS_WSUM_STEP \
    CLRS_MAX_STEP CLRS_MAX_STEPV; do
    : >"$tmp/unused"
    for f in "$tmp/src"/*.cl; do
        grep -q "^#define $family(" "$f" || continue
        case $family in
        CLRS_VLOAD) names='CLRS_VLOAD\|CLRS_VSTORE' ;;
        CLRS_SHUF) names='CLRS_SHUF2\{0,1\}' ;;
        *) names=$family ;;
        esac
        grep -v "^#define \($names\)(" "$f" | grep -q "\b\($names\)(" ||
            basename "$f" >>"$tmp/unused"
    done
    if [ -s "$tmp/unused" ]; then
        not_ok "$family is defined only in kernels that use it"
        sed 's/^/# unused in /' "$tmp/unused" | head -n 5
    else
        ok "$family is defined only in kernels that use it"
    fi
done

# Weights of 1 (key " unit": the backward batch's nearest problems) are
# the constant 1: such a kernel reads no weight table.
units=$(grep -l '^ \* clrs[0-9]* .* unit ' "$tmp/src"/*.cl | wc -l)
: >"$tmp/unitw"
for f in $(grep -l '^ \* clrs[0-9]* .* unit ' "$tmp/src"/*.cl); do
    grep -q 'ftab\[\|ftab, ' "$f" && basename "$f" >>"$tmp/unitw"
done
if [ "$units" -gt 0 ] && [ ! -s "$tmp/unitw" ]; then
    ok "$units kernels of weights 1 read no weight table"
else
    not_ok "kernels of weights 1 ($units) read no weight table"
    sed 's/^/# reads ftab: /' "$tmp/unitw" | head -n 5
fi
echo "1..$n"
exit $failed
