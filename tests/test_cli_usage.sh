#!/bin/sh
# The clresample command line: bad command lines exit 2 naming the bad
# token; --mode=L expansion, --version, --list-devices, .npy round trips.
# TAP, run by make check; writes only under the build directory.

tap_name=cli-usage
. "${top_srcdir:-.}/tests/tap.sh"

# The tool under a time limit where timeout(1) exists: a hang fails.
limited() {
    if command -v timeout >/dev/null; then timeout 30 "$tool" "$@"
    else "$tool" "$@"; fi
}

# bad EXPECTED_TEXT ARGS...: exit status 2 and stderr naming the token.
bad() {
    want=$1
    shift
    limited "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -F -e "$want" "$tmp/err" >/dev/null; then
        ok "bad: $* -> exit 2 naming '$want'"
    else
        not_ok "bad: $* -> exit $rc, want 2 naming '$want'"
        sed 's/^/# /' "$tmp/err"
    fi
}

d=mb1ic1iw4ow8
bad "bilinear" --alg=bilinear $d
bad "FWD_X" --dir=FWD_X $d
bad "f33" --sdt=f33 $d
bad "nchw8" --tag=nchw8 $d
bad "'Q'" --mode=Q $d
bad "--frobnicate=1" --frobnicate=1 $d
bad "at 'ix4ow8'" mb1ic1ix4ow8
bad "'ow' needs a number" mb1ic1iw4ow
bad "'iw' is too large" mb1ic1iw99999999999999999999ow8
bad "no input size" mb1ic1
bad "no output size" mb1ic1iw4
bad "'abc' is not a finite number" --cubic-a=abc $d
bad "2xx3" --scales=2xx3 $d
bad "--max-ms-per-prb=-5" --max-ms-per-prb=-5 $d
bad "/nonexistent/batch" --batch=/nonexistent/batch
bad "--tag=nchw needs a 4-D tensor" --tag=nchw $d
bad "needs a window" --alg=max mb1ic1iw4ow2
bad "'maybe'" --exclude-outside=maybe $d
bad "--alg" --alg $d
bad "'kh' is 0" mb1ic1ih4iw4oh2ow2kh0
bad "'0.5' is not a pair" --offsets=0.5 $d
bad "'1e3' is not an integer" --fix-times-per-prb=1e3 $d
bad "bad denominator of 'kh'" mb1ic1ih4iw4kh3d0
bad "'-x'" -x $d
bad "--scales has 3 values for 2 resampled axes" --scales=1x2x3 mb1ic1ih4iw4
bad "'d' is not an axis of this 2-D descriptor" --axes=d mb1ic1ih4iw4
bad "is not an axis of a rank-4 tensor" --axes=-5 mb1ic1ih4iw4
bad "'7' is not an integer" --axes=7 $d
bad "names axis c twice" --axes=cc mb1ic2iw4oc3
bad "axes are letters of ncdhw" --axes=q $d
bad "no oc: give it, or --scales" --axes=c mb1ic2iw4
bad "oc is given but c is not resampled" mb1ic2oc3iw4ow8
bad "oh differs from ih but h is not resampled" --axes=w mb1ic1ih4iw4oh5ow8
bad "--axes must name exactly those" --axes=cw mb1ic2iw4kw2
bad "unterminated name" 'mb1ic1iw4ow8n"abc'
bad "'-1' is not an integer" --seed=-1 $d
bad "'hello'" hello
bad "given twice" mb1ic1iw4iw5ow8
printf '# a batch file with a typo on line 3\n--alg=linear\n--alg=lineaar\nmb1ic1iw4ow8\n' \
    >"$tmp/bad_batch"
bad "bad_batch:3" --batch="$tmp/bad_batch"
bad "lineaar" --batch="$tmp/bad_batch"
printf -- '--batch=loop\n' >"$tmp/loop"
bad "nest more than 16" --batch="$tmp/loop"
mkdir "$tmp/adir"
bad "is a directory" --batch="$tmp/adir"
if command -v mkfifo >/dev/null && mkfifo "$tmp/fifo"; then
    bad "not a regular file" --batch="$tmp/fifo"
fi

# Bounded work for any command line, each refused within seconds (a 30 s
# timeout turns a hang into a failure): nine files each including the next
# eight times (8^8 reads, no cycle), and 64 values on 4 knobs (16.7
# million combinations, counted before anything is expanded).
bounded() {
    want=$1
    shift
    start=$(date +%s)
    limited "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    secs=$(($(date +%s) - start))
    if [ $rc -eq 2 ] && [ $secs -le 10 ] &&
        grep -F -e "$want" "$tmp/err" >/dev/null; then
        ok "bounded: exit 2 naming '$want' in ${secs} s"
    else
        not_ok "bounded: exit $rc in ${secs} s, want 2 naming '$want' in 10 s"
        sed 's/^/# /' "$tmp/err" | head -5
    fi
}
i=1
while [ $i -le 8 ]; do
    : >"$tmp/inc$i"
    for j in 1 2 3 4 5 6 7 8; do
        echo "--batch=inc$((i + 1))" >>"$tmp/inc$i"
    done
    i=$((i + 1))
done
echo "mb1ic1iw4ow8" >"$tmp/inc9"
bounded "more than 1000 batch files" --mode=L --batch="$tmp/inc1"
v64=$(i=1; while [ $i -le 64 ]; do printf '%s%d' "${sep-}" $i; sep=,; i=$((i + 1)); done)
bounded "combinations" --mode=L --mb=$v64 --pad-value=$v64 \
    --cubic-a=$v64 --extrapolation=$v64 mb1ic1iw4ow8
# Nothing ran: a bad token late on the line stops everything up front.
"$tool" --engine=ref --mode=R --dst-file="$tmp/never.npy" $d --alg=nope \
    >/dev/null 2>&1
if [ ! -e "$tmp/never.npy" ]; then ok "no problem runs before a bad token"
else not_ok "a problem ran before the bad token was seen"; fi

# --mode=L expands every comma combination.
count=$("$tool" --mode=L --alg=nearest,linear --tag=abx,axb,aBx8b \
    mb1ic1iw4ow8 mb1ic1ih4iw4oh2ow2 | grep -c ':LISTED ')
if [ "$count" = 12 ]; then ok "--mode=L: 2 algs x 3 tags x 2 descriptors = 12"
else not_ok "--mode=L listed $count, want 12"; fi
count=$("$tool" --mode=L --alg=linear,cubic mb1ic1iw4ow8 --reset mb1ic1iw4ow8 |
    grep -c ':LISTED ')
if [ "$count" = 3 ]; then ok "--reset restores the single default alg"
else not_ok "--reset: listed $count, want 3"; fi
out=$("$tool" --mode=L --dir=FWD_D,FWD_I --alg=max,avg_np mb2ic16ih10kh3sh2ph1)
if echo "$out" | grep -F 'listed:4' >/dev/null &&
    echo "$out" | grep -F -- '--dir=FWD_I --alg=avg_np mb2ic16ih10iw10oh5ow5kh3kw3sh2sw2ph1pw1' >/dev/null; then
    ok "--mode=L summary and canonical pooling repro"
else not_ok "--mode=L pooling output"; echo "$out" | sed 's/^/# /'; fi
count=$("$tool" --mode=L --batch="$top_srcdir/tests/inputs/test_pooling_ci" |
    grep -c ':LISTED ')
if [ "$count" -gt 100 ]; then ok "nested batch files expand ($count problems)"
else not_ok "test_pooling_ci listed $count"; fi
"$tool" --mode=L --batch="$top_srcdir/tests/inputs/perf_default" >/dev/null 2>&1
if [ $? -eq 0 ]; then ok "perf_default parses"; else not_ok "perf_default parses"; fi

# --version, --help, --list-devices.
if "$tool" --version | grep -E '^clresample [0-9]+\.[0-9]+\.[0-9]+$' >/dev/null; then
    ok "--version"; else not_ok "--version"; fi
if "$tool" --help | grep -F -- '--perf-template' >/dev/null; then ok "--help"
else not_ok "--help"; fi
"$tool" --list-devices >"$tmp/devs" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -E '^[0-9]+:[0-9]+ ' "$tmp/devs" >/dev/null; then
    ok "--list-devices"
elif [ $rc -eq 3 ]; then skip "--list-devices: no OpenCL device"
else not_ok "--list-devices exit $rc"; fi

# .npy: a hand-written input (worked case 4 of clresample(3): linear half_pixel
# [1,2] -> 4 is [1, 1.25, 1.75, 2]), written by R mode, read back.
# npy_dict DICT: a version 1.0 header with that dict, data 64-byte aligned;
# npy_f32 SHAPE: the one NumPy writes for '<f4' data.
npy_f32() {
    npy_dict "{'descr': '<f4', 'fortran_order': False, 'shape': $1, }"
}
npy_dict() {
    dict=$1
    len=${#dict}
    hlen=$(( (10 + len + 1 + 63) / 64 * 64 - 10 ))
    printf '\223NUMPY\001\000'
    printf "\\$(printf %03o $((hlen % 256)))\\$(printf %03o $((hlen / 256)))"
    printf '%s%*s\n' "$dict" $((hlen - len - 1)) ''
}
{ npy_f32 '(1, 1, 2)'; printf '\000\000\200\077\000\000\000\100'; } >"$tmp/src.npy"
"$tool" --engine=ref --mode=R --alg=linear --src-file="$tmp/src.npy" \
    --dst-file="$tmp/dst.npy" mb1ic1iw2ow4 >"$tmp/out" 2>&1
rc=$?
hlen=$(od -A n -t u2 -j 8 -N 2 "$tmp/dst.npy" 2>/dev/null | tr -d ' ')
vals=$(od -A n -t f4 -j $((10 + ${hlen:-0})) "$tmp/dst.npy" 2>/dev/null | tr -s ' ' | sed 's/^ //')
if [ $rc -eq 0 ] && [ "$vals" = "1 1.25 1.75 2" ]; then
    ok "R mode reads src.npy and writes dst.npy = [1 1.25 1.75 2]"
else not_ok "R mode: exit $rc, dst values '$vals'"; sed 's/^/# /' "$tmp/out"; fi
if head -c 80 "$tmp/dst.npy" | grep -F "'shape': (1, 1, 4)" >/dev/null; then
    ok "dst.npy header has the logical shape (1, 1, 4)"
else not_ok "dst.npy header"; fi
# --axes=c: the same worked case along C (shape (1, 2, 1) -> (1, 4, 1)),
# on the reference and on the device in a blocked layout whose one block
# of 8 channels is half padding.
{ npy_f32 '(1, 2, 1)'; printf '\000\000\200\077\000\000\000\100'; } >"$tmp/srcc.npy"
for engine in ref device; do
    "$tool" --engine=$engine --mode=R --alg=linear --axes=c --tag=aBx8b \
        --src-file="$tmp/srcc.npy" --dst-file="$tmp/dstc.npy" mb1ic2oc4iw1 \
        >"$tmp/out" 2>&1
    rc=$?
    if [ $engine = device ] && [ $rc -eq 3 ]; then
        skip "--axes=c on the device: no OpenCL device"
        continue
    fi
    hlen=$(od -A n -t u2 -j 8 -N 2 "$tmp/dstc.npy" 2>/dev/null | tr -d ' ')
    vals=$(od -A n -t f4 -j $((10 + ${hlen:-0})) "$tmp/dstc.npy" 2>/dev/null | tr -s ' ' | sed 's/^ //')
    if [ $rc -eq 0 ] && [ "$vals" = "1 1.25 1.75 2" ] &&
        head -c 80 "$tmp/dstc.npy" | grep -F "'shape': (1, 4, 1)" >/dev/null; then
        ok "--axes=c on the $engine: C 2 -> 4 gives [1 1.25 1.75 2]"
    else
        not_ok "--axes=c on the $engine: exit $rc, values '$vals'"
        sed 's/^/# /' "$tmp/out"
    fi
    rm -f "$tmp/dstc.npy"
done
# The error model (clresample(3) TOLERANCES) on sums that are right but not
# exact: an average whose terms cancel ([0.7, 0.6, -0.9, -0.3999] -> about
# 1e-5, f32 rounding of the terms exceeds any bound relative to the
# result), and a nearest gradient that sums 1 + 3e-8 + 3e-8 (a float sum
# gives 1, the rounded exact sum 1.00000012).
printf '\063\063\063\077\232\231\031\077\146\146\146\277\261\277\314\276' >"$tmp/cancel.bin"
printf '\000\000\200\077\131\331\000\063\131\331\000\063\000\000\200\077\131\331\000\063\131\331\000\063' >"$tmp/dy.bin"
{ npy_f32 '(1, 1, 4)'; cat "$tmp/cancel.bin"; } >"$tmp/cancel.npy"
{ npy_f32 '(1, 1, 6)'; cat "$tmp/dy.bin"; } >"$tmp/dy.npy"
for prb in "--alg=avg_np --src-file=$tmp/cancel.npy mb1ic1iw4ow1kw4sw4" \
    "--dir=BWD_D --alg=nearest --diff-dst-file=$tmp/dy.npy mb1ic1iw2ow6"; do
    # shellcheck disable=SC2086
    "$tool" --mode=C $prb >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -eq 3 ]; then skip "--mode=C $prb: no OpenCL device"
    elif [ $rc -eq 0 ] && grep -q '^0:PASSED' "$tmp/out"; then
        ok "--mode=C $prb: right within the error model"
    else not_ok "--mode=C $prb: exit $rc"; sed 's/^/# /' "$tmp/out"; fi
done
# Read back: an identity resample of dst.npy must write the same file.
"$tool" --engine=ref --mode=R --alg=nearest --src-file="$tmp/dst.npy" \
    --dst-file="$tmp/dst2.npy" mb1ic1iw4ow4 >/dev/null 2>&1
if cmp -s "$tmp/dst.npy" "$tmp/dst2.npy"; then ok "dst.npy reads back"
else not_ok "dst.npy does not read back identically"; fi
# Another writer's key order and quotes read the same; a directory says
# what it is.
{ npy_dict '{"shape": (1, 1, 2), "fortran_order": False, "descr": "<f4"}'
  printf '\000\000\200\077\000\000\000\100'; } >"$tmp/src_keys.npy"
"$tool" --engine=ref --mode=R --alg=linear --src-file="$tmp/src_keys.npy" \
    --dst-file="$tmp/dst_keys.npy" mb1ic1iw2ow4 >"$tmp/out" 2>&1
if cmp -s "$tmp/dst.npy" "$tmp/dst_keys.npy"; then
    ok "a header with its keys in another order reads the same"
else not_ok "header keys in another order"; sed 's/^/# /' "$tmp/out"; fi
{ npy_dict "{'descr': '<f4', 'shape': (1, 1, 2), 'shape': (1, 1, 2), 'fortran_order': False}"
  printf '\000\000\200\077\000\000\000\100'; } >"$tmp/src_twice.npy"
"$tool" --engine=ref --mode=R --src-file="$tmp/src_twice.npy" mb1ic1iw2ow4 \
    >"$tmp/out" 2>&1
if grep -F "given twice" "$tmp/out" >/dev/null; then
    ok "a header with a key given twice is refused, and said"
else not_ok "a key given twice"; sed 's/^/# /' "$tmp/out"; fi
"$tool" --engine=ref --mode=R --src-file="$tmp" mb1ic1iw2ow4 >"$tmp/out" 2>&1
if grep -F "is a directory" "$tmp/out" >/dev/null; then
    ok "--src-file naming a directory says so"
else not_ok "--src-file naming a directory"; sed 's/^/# /' "$tmp/out"; fi
# Fortran order, as NumPy writes a transposed or asfortranarray array: the
# logical (1, 2, 3) array 1..6 is stored first index fastest (1 4 2 5 3 6);
# an identity resample writes it back in C order, 1..6.
{ npy_dict "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 2, 3), }"
  printf '\000\000\200\077\000\000\200\100\000\000\000\100'
  printf '\000\000\240\100\000\000\100\100\000\000\300\100'; } >"$tmp/fortran.npy"
"$tool" --engine=ref --mode=R --alg=nearest --src-file="$tmp/fortran.npy" \
    --dst-file="$tmp/dstf.npy" mb1ic2iw3ow3 >"$tmp/out" 2>&1
rc=$?
hlen=$(od -A n -t u2 -j 8 -N 2 "$tmp/dstf.npy" 2>/dev/null | tr -d ' ')
vals=$(od -A n -t f4 -j $((10 + ${hlen:-0})) "$tmp/dstf.npy" 2>/dev/null | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')
if [ $rc -eq 0 ] && [ "$vals" = "1 2 3 4 5 6" ]; then
    ok "a Fortran-order .npy is read in its logical order"
else not_ok "Fortran order: exit $rc, values '$vals'"; sed 's/^/# /' "$tmp/out"; fi
# Layout conversion: channels-last in, same logical array out.
{ npy_f32 '(1, 2, 1, 2)'; printf '\000\000\200\077\000\000\000\100\000\000\100\100\000\000\200\100'; } >"$tmp/src4.npy"
"$tool" --engine=ref --mode=R --alg=nearest --tag=axb --src-file="$tmp/src4.npy" \
    --dst-file="$tmp/dst4.npy" mb1ic2ih1iw2oh1ow2 >/dev/null 2>&1
if cmp -s "$tmp/src4.npy" "$tmp/dst4.npy"; then
    ok "--tag=axb: .npy files stay in logical order"
else not_ok "--tag=axb changed the logical order"; fi
# A shape mismatch is that problem's failure (exit 1), named.
"$tool" --engine=ref --mode=C --src-file="$tmp/src.npy" mb1ic1iw3ow4 \
    >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -F "INVALID_ARGUMENTS" "$tmp/out" | grep -F "shape (1, 1, 2)" >/dev/null; then
    ok "src-file shape mismatch -> INVALID_ARGUMENTS, exit 1"
else not_ok "src-file shape mismatch: exit $rc"; sed 's/^/# /' "$tmp/out"; fi
# C mode with a file input passes against the reference.
if "$tool" --engine=ref --mode=C --alg=linear --src-file="$tmp/src.npy" \
    mb1ic1iw2ow4 >/dev/null 2>&1; then ok "C mode with --src-file"
else not_ok "C mode with --src-file"; fi
# Max pooling: FWD_D writes the index tensor to --ws-file.
"$tool" --engine=ref --mode=R --alg=max --src-file="$tmp/src4.npy" \
    --ws-file="$tmp/ws.npy" mb1ic2ih1iw2kh1kw2 >/dev/null 2>&1
if head -c 80 "$tmp/ws.npy" 2>/dev/null | grep -F "'descr': '|i1'" >/dev/null; then
    ok "--ws-file holds the s8 window index"
else not_ok "--ws-file"; fi

# Output formats.
out=$("$tool" --engine=ref --mode=CP --fix-times-per-prb=2 \
    --perf-template=json --alg=linear mb1ic2iw4ow8 2>/dev/null)
missing=
for k in prb dir alg sdt ddt tag status max_abs_diff max_rel_diff min_ms \
    avg_ms bytes gbps roofline_pct copy_gbps build_ms cache vector lanes vectors \
    kernels launch lws above_copy digest variant; do
    echo "$out" | grep -F "\"$k\":" >/dev/null || missing="$missing $k"
done
if [ -z "$missing" ]; then ok "json has every field"
else not_ok "json lacks:$missing"; echo "$out" | sed 's/^/# /'; fi
# The digest is the SHA-256 of the outputs' bytes: the same problem and
# seed give the same digest, another seed another, and it is the digest
# of the bytes --dst-file writes after the .npy header.
dig() { "$tool" --engine=ref --mode=R --perf-template=json "$@" 2>/dev/null |
    sed -n 's/.*"digest":"\([0-9a-f]*\)".*/\1/p'; }
d1=$(dig --alg=linear --dst-file="$tmp/dig.npy" mb1ic2iw4ow8)
d2=$(dig --alg=linear mb1ic2iw4ow8)
d3=$(dig --alg=linear --seed=7 mb1ic2iw4ow8)
hdr=$(od -An -tu2 -j8 -N2 "$tmp/dig.npy" 2>/dev/null | tr -d ' ')
d4=$(tail -c +$((11 + ${hdr:-0})) "$tmp/dig.npy" 2>/dev/null | sha256sum |
    cut -c1-16)
if [ ${#d1} -eq 16 ] && [ "$d1" = "$d2" ] && [ "$d1" != "$d3" ] &&
    [ "$d1" = "$d4" ]; then
    ok "json digest: the outputs' SHA-256, the same run to run"
else not_ok "digest: $d1 / $d2 / $d3 (seed 7) / $d4 (.npy data)"; fi
# A name that is not UTF-8 (bytes 0xff 0xfe, a lone 0xc3, a quote): the
# JSON line is still valid UTF-8 and JSON, the bytes escaped.
"$tool" --engine=ref --mode=C --perf-template=json \
    "$(printf 'mb1ic1iw4ow8n\377\376x\303y\\z')" >"$tmp/json" 2>/dev/null
if grep -F '\u00ff\u00fex\u00c3y\\z' "$tmp/json" >/dev/null &&
    iconv -f UTF-8 -t UTF-8 "$tmp/json" >/dev/null 2>&1 &&
    { ! command -v jq >/dev/null || jq -e .name "$tmp/json" >/dev/null; }; then
    ok "json escapes bytes that are not UTF-8"
else not_ok "json with a non-UTF-8 name"; sed 's/^/# /' "$tmp/json"; fi
out=$("$tool" --engine=ref --mode=C --perf-template=csv mb1ic2iw4ow8 2>/dev/null)
if [ "$(echo "$out" | wc -l)" -eq 2 ] && echo "$out" | head -1 | grep -F 'roofline_pct' >/dev/null; then
    ok "csv: a header and one row"
else not_ok "csv"; fi
# --roofline: the copy with both stores, a read alone and a write alone,
# each a positive figure, and a problem's roof% beside its GB/s.
"$tool" --roofline --mode=P --fix-times-per-prb=2 mb1ic16ih8iw32oh16ow64 \
    >"$tmp/roof" 2>&1
if grep -Eq '^roofline: copy [1-9][0-9.]* GB/s plain stores, ([1-9][0-9.]* GB/s non-temporal stores|non-temporal stores unavailable); read [1-9][0-9.]* GB/s, write [1-9][0-9.]* GB/s$' \
    "$tmp/roof" && grep -q ',roofline:!*[0-9.]*%,' "$tmp/roof"; then
    ok "--roofline: copy, read and write bandwidth, and a roof% per problem"
else not_ok "--roofline"; sed 's/^/# /' "$tmp/roof"; fi
# Each problem's percent is of the copy timed right after it: JSON gives
# that copy, positive, and the percent is 100 gbps / copy_gbps, within
# what the printed digits allow (the percent to 0.1, gbps to 0.001 and
# copy_gbps to 0.01: at a copy of 13 GB/s the last moves 110% by 0.04).
"$tool" --roofline --mode=P --fix-times-per-prb=2 --perf-template=json \
    mb1ic16ih8iw32oh16ow64 mb1ic16ih32iw8oh64ow16 >"$tmp/roofj" 2>/dev/null
if awk -F'"gbps":|,"roofline_pct":|,"copy_gbps":|,"build_ms"' '
    /"copy_gbps"/ { n++; g = $2 + 0; p = $3 + 0; c = $4 + 0
        if (c <= 0 || g <= 0) bad = 1
        q = 100 * g / c; t = 0.05 + q * (0.005 / c + 0.0005 / g) + 1e-6
        d = q - p; if (d < -t || d > t) bad = 1 }
    END { exit !(n == 2 && !bad) }' "$tmp/roofj"; then
    ok "--roofline: each problem's percent is of the copy timed beside it"
else not_ok "--roofline's copy per problem"; sed 's/^/# /' "$tmp/roofj"; fi
# --cold-cache=true: each timed run after a read of twice the device's
# cache, which a line states; by default (false) no read, no line; any
# other value is refused.
"$tool" --mode=P --cold-cache=true --fix-times-per-prb=2 \
    mb1ic16ih8iw32oh16ow64 >"$tmp/cold" 2>&1
"$tool" --mode=P --fix-times-per-prb=2 mb1ic16ih8iw32oh16ow64 >"$tmp/warm" 2>&1
if ! grep -q '^perf,' "$tmp/cold"; then
    not_ok "--cold-cache: the default run timed nothing"; sed 's/^/# /' "$tmp/cold"
elif ! grep -q '^cold cache' "$tmp/cold"; then
    skip "--cold-cache: the device states no global memory cache"
elif grep -Eq '^cold cache: each timed run follows a read of [1-9][0-9]* MiB ' "$tmp/cold" &&
    ! grep -q '^cold cache' "$tmp/warm" && grep -q '^perf,' "$tmp/warm"; then
    ok "--cold-cache: $(sed -n 's/^cold cache: each timed run follows a read of \([0-9]*\) MiB.*/\1/p' "$tmp/cold") MiB read before each timed run; by default none"
else not_ok "--cold-cache"; sed 's/^/# /' "$tmp/cold" "$tmp/warm"; fi
if "$tool" --mode=P --cold-cache=maybe mb1ic16ih8iw32oh16ow64 >"$tmp/bad" 2>&1; then
    not_ok "--cold-cache=maybe is accepted"
elif grep -q 'cold-cache' "$tmp/bad"; then
    ok "--cold-cache=maybe is refused, naming the option"
else not_ok "--cold-cache=maybe: $(head -n 1 "$tmp/bad")"; fi
# Exit statuses: 0 all passed.
if "$tool" --engine=ref --alg=nearest,linear,cubic mb1ic3ih4iw4oh7ow5 >/dev/null 2>&1; then
    ok "exit 0 when all pass"; else not_ok "exit 0 when all pass"; fi
# --cache-bench: eight rows, each a child process, none failed; the
# tuned-warm row (a database entry written by the tune row) finds the
# tuned program in our disk cache.
"$tool" --cache-bench --alg=linear --tag=axb mb1ic4ih4iw4oh8ow8 \
    >"$tmp/cb" 2>&1
rc=$?
if [ $rc -eq 3 ]; then
    skip "--cache-bench: no OpenCL device"
elif [ $rc -eq 0 ] && ! grep -q ' failed$' "$tmp/cb" &&
    [ "$(grep -c -E '^(cold|warm|pocl-only|warm-ours|warm-ours-only|uncached|tune|tuned-warm) ' "$tmp/cb")" -eq 8 ] &&
    grep -E '^tuned-warm .* disk ' "$tmp/cb" >/dev/null; then
    ok "--cache-bench: eight cases, tuned-warm from the disk cache"
else
    not_ok "--cache-bench: exit $rc"
    sed 's/^/# /' "$tmp/cb"
fi

echo "1..$n"
exit $failed
