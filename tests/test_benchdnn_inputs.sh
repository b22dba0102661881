#!/bin/sh
# oneDNN benchdnn's input-file syntax, as its resampling inputs use it:
# the files under tests/inputs/benchdnn are written in that syntax (short
# post-op names, empty post-op items, a backslash continuation, an eltwise
# scale field, --match with a comment after it, --allow-enum-tags-only,
# oneDNN's explicit and double-blocked tags, names over 63 characters,
# integer types backward), and each must make the problems benchdnn would
# make, counted by hand below, and pass or be skipped with a reason. Then
# the meaning of each construct, one point each: a binary post-op without
# a policy is one scalar, --preset survives --reset, an explicit tag is
# its layout class, an eltwise's scale field changes nothing.
# TAP, run by make check; writes only under the build directory.

tap_name=benchdnn-inputs
. "${top_srcdir:-.}/tests/tap.sh"
dir="$top_srcdir/tests/inputs/benchdnn"

# count FILE MODE WANT_TESTS WANT_PASSED WANT_SKIPPED: the summary line of
# --mode=MODE --batch=FILE, and no other status than PASSED and SKIPPED.
count() {
    file=$1 mode=$2 want=$3 pass=$4 skipped=$5
    "$tool" --mode="$mode" --batch="$dir/$file" >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -eq 3 ]; then skip "$file: no OpenCL device"; return; fi
    if [ "$mode" = L ]; then
        line="tests:$want passed:0 skipped:0 unimplemented:0 invalid_arguments:0 failed:0 listed:$want"
    else
        line="tests:$want passed:$pass skipped:$skipped unimplemented:0 invalid_arguments:0 failed:0"
    fi
    if [ $rc -eq 0 ] && grep -qxF "$line" "$tmp/out"; then
        ok "$file --mode=$mode: $want problems${pass:+, $pass passed}${skipped:+, $skipped skipped}"
    else
        not_ok "$file --mode=$mode: exit $rc, want '$line'"
        grep -v ':PASSED \|:LISTED ' "$tmp/out" | head -n 20 | sed 's/^/# /'
    fi
}

# test_mini_ci: forward 2 tags x 2 algs x 2 post-op chains (the first
# empty) x 2 ddt x 4 shapes (set_mini nests the 1-D, 2-D and 3-D files:
# 1 + 2 + 1) = 64, backward ("--attr-post-ops=", empty) 2 x 2 x 4 = 16.
count test_mini_ci L 80
# test_mini_smoke: --match keeps the 2 shapes named mini_2d: 2 x 2 algs x
# 2 chains = 8, all passing.
count test_mini_smoke C 8 8 0
# test_mini_all: s8 both ways, 2 dirs x 2 algs x 2 tags x 2 shapes = 16;
# 2 sdt x 2 ddt, both ways, 2 x 2 x 2 x 4 x 1 = 32; forward post-ops,
# 2 algs x 2 tags x 3 chains (the continued line makes the 3) x 1 = 12.
count test_mini_all C 60 60 0
# test_mini_fwks: 7 lines of one problem each; the two double-blocked
# tags are skipped, the rest pass.
count test_mini_fwks C 7 5 2

"$tool" --mode=L --batch="$dir/test_mini_all" >"$tmp/all" 2>&1
if grep -qF -- '--attr-post-ops=clip:2:10+sum:0.1+add:s8:per_oc+sum ' "$tmp/all" &&
    grep -qF -- '--attr-post-ops=mul:f32 ' "$tmp/all"; then
    ok "a backslash continues a comma list on the next line"
else not_ok "backslash continuation"; sed 's/^/# /' "$tmp/all" | tail -n 12; fi
"$tool" --mode=L --batch="$dir/test_mini_ci" >"$tmp/ci" 2>&1
if [ "$(grep -c -- '--attr-post-ops' "$tmp/ci")" = 32 ]; then
    ok "an empty post-op item and an empty list are the default (not in the repro)"
else not_ok "empty post-op items"; fi
"$tool" --mode=C --batch="$dir/test_mini_fwks" >"$tmp/fwks" 2>&1
if grep -q '^5:SKIPPED (--tag=ABcd32a16b: a layout blocked on more than one axis' "$tmp/fwks" &&
    grep -qF 'n"0123456789abcdef0123456789abcdef&fedcba9876543210fedcba9876543210*2"' "$tmp/fwks"; then
    ok "a double-blocked tag skips its problem with the reason; a 70-character name is kept"
else not_ok "skip reason or long name"; sed 's/^/# /' "$tmp/fwks"; fi

# rdst FILE ARGS...: --mode=R with --dst-file=FILE.
rdst() {
    out=$1
    shift
    "$tool" --mode=R --dst-file="$out" "$@" >"$tmp/r.out" 2>&1
}
d=mb2ic3ih4iw5oh7ow3
if ! rdst "$tmp/probe.npy" $d; then
    skip "R-mode comparisons: no device or the tool failed"
else
    rdst "$tmp/plain.npy" --attr-post-ops=add:f32 $d
    rdst "$tmp/common.npy" --attr-post-ops=binary_add:f32:common $d
    rdst "$tmp/tensor.npy" --attr-post-ops=binary_add:f32:per_tensor $d
    if cmp -s "$tmp/plain.npy" "$tmp/common.npy" &&
        ! cmp -s "$tmp/plain.npy" "$tmp/tensor.npy"; then
        ok "add:f32 without a policy is benchdnn's common (one scalar)"
    else not_ok "binary default policy"; fi
    rdst "$tmp/lin3.npy" --attr-post-ops=linear:1.5:-1.25:0.5 $d
    rdst "$tmp/lin2.npy" --attr-post-ops=eltwise_linear:1.5:-1.25 $d
    rdst "$tmp/lin0.npy" $d
    if cmp -s "$tmp/lin3.npy" "$tmp/lin2.npy" &&
        ! cmp -s "$tmp/lin3.npy" "$tmp/lin0.npy"; then
        ok "linear:1.5:-1.25:0.5 is eltwise_linear:1.5:-1.25 (scale ignored)"
    else not_ok "eltwise scale field"; fi
    rdst "$tmp/acdb.npy" --tag=acdb $d
    rdst "$tmp/axb.npy" --tag=axb $d
    rdst "$tmp/b16.npy" --tag=aBcd16b $d
    rdst "$tmp/x16.npy" --tag=aBx16b $d
    if cmp -s "$tmp/acdb.npy" "$tmp/axb.npy" && cmp -s "$tmp/b16.npy" "$tmp/x16.npy"; then
        ok "--tag=acdb is axb and aBcd16b is aBx16b"
    else not_ok "explicit tags"; fi
    # --preset: a file that starts with --reset still runs under it, and
    # writes what an explicit --vendor writes; nearest 4 -> 6 ties, which
    # oneDNN's arithmetic rounds otherwise than the library's default.
    # (--reset drops a --dst-file given before the file: it is in it.)
    p=mb2ic3iw4ow6
    printf -- '--reset --alg=nearest --dst-file=%s %s\n' "$tmp/reset.npy" $p \
        >"$tmp/reset_batch"
    "$tool" --mode=L --preset=onednn --batch="$tmp/reset_batch" >"$tmp/l" 2>&1
    "$tool" --mode=R --preset=onednn --batch="$tmp/reset_batch" >/dev/null 2>&1 &&
        mv "$tmp/reset.npy" "$tmp/pre.npy"
    "$tool" --mode=R --batch="$tmp/reset_batch" >/dev/null 2>&1 &&
        mv "$tmp/reset.npy" "$tmp/none.npy"
    rdst "$tmp/ven.npy" --alg=nearest --vendor=onednn $p
    if grep -qF -- '--vendor=onednn' "$tmp/l" &&
        cmp -s "$tmp/pre.npy" "$tmp/ven.npy" &&
        ! cmp -s "$tmp/pre.npy" "$tmp/none.npy"; then
        ok "--preset=onednn survives a batch file's --reset"
    else not_ok "--preset"; sed 's/^/# /' "$tmp/l"; fi
fi

if "$tool" --mode=L --allow-enum-tags-only=0 --tag=acdb $d \
    --allow-enum-tags-only=true --tag=abcd $d >"$tmp/out" 2>&1 &&
    grep -q 'listed:2$' "$tmp/out"; then
    ok "--allow-enum-tags-only is accepted"
else not_ok "--allow-enum-tags-only"; sed 's/^/# /' "$tmp/out"; fi

# README.md's command, as written there (from the top of the tree).
cmd=$(grep -o '^\./tools/clresample --preset=onednn --batch=tests/inputs/benchdnn/[a-z_]*$' \
    "$top_srcdir/README.md")
if [ -z "$cmd" ]; then
    not_ok "README.md shows no --preset=onednn command"
else
    abs_tool=$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")
    # shellcheck disable=SC2086
    (cd "$top_srcdir" && "$abs_tool" ${cmd#./tools/clresample }) \
        >"$tmp/out" 2>&1
    if grep -q '^tests:8 passed:8 ' "$tmp/out"; then
        ok "README.md's command: $cmd"
    else not_ok "README.md's command: $cmd"; tail -n 5 "$tmp/out" | sed 's/^/# /'; fi
fi

# Refused, naming the token: a binary operand tag, a bad regex.
"$tool" --mode=L --attr-post-ops=add:f32:per_oc:acdb $d >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -qF "only 'any' is accepted" "$tmp/out"; then
    ok "a binary operand tag other than any is refused"
else not_ok "binary operand tag: exit $rc"; fi
"$tool" --mode=L --match='(' $d >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -qF "not a regular expression" "$tmp/out"; then
    ok "--match with a bad regular expression is refused"
else not_ok "--match=(: exit $rc"; fi
# Patterns whose compiled form or matching would blow up (glibc copies a
# '+' operand per repetition: fifty stacked '+' took 2 GB in the fuzzer;
# nine '?' then five '+' a second to compile).
for pat in 'after+++++++++++++++++++++++++++++++++++s' 'a{1000}' '(a*)*\1' \
    'a?????????+++++' 'mini.*+'; do
    if command -v timeout >/dev/null; then
        timeout 10 "$tool" --mode=L --match="$pat" $d >"$tmp/out" 2>&1
    else "$tool" --mode=L --match="$pat" $d >"$tmp/out" 2>&1; fi
    rc=$?
    if [ $rc -eq 2 ] && grep -qF -- "--match takes" "$tmp/out"; then
        ok "--match=$pat is refused with the reason"
    else not_ok "--match=$pat: exit $rc"; sed 's/^/# /' "$tmp/out"; fi
done
# A run --match leaves nothing of is empty, not a usage error.
"$tool" --mode=L --match=nothing-matches $d >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '^tests:0 ' "$tmp/out"; then
    ok "--match leaving out every problem: tests:0, exit 0"
else not_ok "--match leaving out every problem: exit $rc"; fi

echo "1..$n"
exit $failed
