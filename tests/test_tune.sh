#!/bin/sh
# The tuner and its database: --mode=T tunes a plan and writes the
# winner; later plans read it (launch:database) and pass the check; the
# database is ignored, never an error, when a line is damaged, the file
# is garbage, a FIFO, a link, another device's, or the directory is
# read-only; CLRS_TUNE=off and CLRS_LAUNCH take precedence; merged files
# (two lines for one key) give the faster line. A store never drops a
# line of another key (a 60,000-line merge past 4 MiB), and writes
# nothing over a file past the 16 MiB cap, a link, or without the lock.
# Tuning a problem that factorises chooses between its separable passes
# and one kernel, and later plans follow that choice.

tap_name=tune
. "${top_srcdir:-.}/tests/tap.sh"
tmp=$(cd "$tmp" && pwd) # the library refuses a relative CLRS_CACHE_DIR
# The read-only directory case leaves a tree rm needs write access to.
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
CLRS_CACHE_DIR="$tmp/cache"
export CLRS_CACHE_DIR
unset CLRS_TUNE CLRS_LAUNCH CLRS_CACHE

# 1-D: a problem of two resampled axes may be separable, and tuning one
# writes a line per pass and one for the choice (below).
prb="--alg=linear --tag=axb mb2ic16iw24ow48"
"$tool" --mode=C $prb >"$tmp/dev.out" 2>&1
if [ $? -eq 3 ]; then
    echo "1..0 # SKIP no OpenCL device"
    exit 0
fi

# run MODE -> $tmp/out, the perf line's launch field in $launch
run() {
    "$tool" --fix-times-per-prb=2 "$@" $prb >"$tmp/out" 2>&1
    rc=$?
    launch=$(sed -n 's/.*,launch:\([a-z]*\)\/.*/\1/p' "$tmp/out" | head -1)
}
db() { ls "$CLRS_CACHE_DIR"/tuning-*.txt 2>/dev/null | head -1; }
show() { sed 's/^/# /' "$tmp/out"; [ -n "$(db)" ] && sed 's/^/# db: /' "$(db)"; }

run --mode=P
if [ $rc -eq 0 ] && [ "$launch" = default ] && [ -z "$(db)" ]; then
    ok "no database: the defaults, and no file written"
else not_ok "no database: exit $rc launch $launch"; show; fi

run --mode=CT --tune-ms=20000
if [ $rc -eq 0 ] && [ "$launch" = tuned ] && grep -q 'passed:1 ' "$tmp/out"
then ok "--mode=CT tunes, and the tuned plan passes the check"
else not_ok "--mode=CT: exit $rc launch $launch"; show; fi
file=$(db)
lines=$(grep -vc '^#' "$file" 2>/dev/null)
if [ -n "$file" ] && [ "$lines" = 1 ] &&
    grep -q '^fwd/linear/f32>f32/' "$file"; then
    ok "the database has one line for the class"
else not_ok "database after tuning: ${file:-none}, $lines lines"; show; fi

# Every distinct launch is timed: on this channels-last problem the
# candidates give each distinct vector width with each of the 5 local
# sizes (their span and vector-count settings give the same kernels).
# The widths are 1, 2, 4, 8, 16 up to the most the device takes (its
# native float width where it states one), read from vec=16's plan: 25
# where that is 16, 20 where 8. Candidates were once told apart by the
# first 64 bytes of their kernel key, which end before the vector width:
# 21 of 25 were timed.
CLRS_TUNE=off CLRS_LAUNCH=vec=16 "$tool" --mode=P --fix-times-per-prb=1 \
    $prb >"$tmp/out" 2>&1
most=$(sed -n 's/.*vector:axis\/\([0-9]*\),.*/\1/p' "$tmp/out" | head -1)
case $most in
2) want=10 ;; 4) want=15 ;; 8) want=20 ;; 16) want=25 ;;
*) want=25; not_ok "vec=16: no vector:axis/<lanes> on the perf line"; show ;;
esac
"$tool" --mode=T --tune-ms=60000 --perf-template=json $prb >"$tmp/out" 2>&1
timed=$(sed -n 's/.*"tuned_launches":\([0-9]*\).*/\1/p' "$tmp/out" | head -1)
if [ "${timed:-0}" -ge $want ]; then
    ok "the tuner times every distinct launch ($timed, $most lanes at most)"
else not_ok "tuned launches: ${timed:-none}, want $want or more"; show; fi

run --mode=CP
if [ $rc -eq 0 ] && [ "$launch" = database ] && grep -q 'passed:1 ' "$tmp/out"
then ok "a later plan reads the database and passes the check"
else not_ok "after tuning: exit $rc launch $launch"; show; fi

CLRS_TUNE=off run --mode=P
if [ $rc -eq 0 ] && [ "$launch" = default ]; then
    ok "CLRS_TUNE=off ignores the database"
else not_ok "CLRS_TUNE=off: launch $launch"; show; fi
CLRS_LAUNCH=vec=4 run --mode=P
if [ $rc -eq 0 ] && [ "$launch" = forced ]; then
    ok "CLRS_LAUNCH beats the database"
else not_ok "CLRS_LAUNCH: launch $launch"; show; fi
CLRS_CACHE=0 run --mode=P
if [ $rc -eq 0 ] && [ "$launch" = default ]; then
    ok "CLRS_CACHE=0 turns the database off"
else not_ok "CLRS_CACHE=0: launch $launch"; show; fi

# Merged files: the faster of two lines for one key wins. A line whose
# launch differs (vec=4) and claims half the tuned line's time, with its
# own sum (a fixed 1e-6 ms tied with the tuned line on Mesa rusticl 22.3,
# whose event timestamps give kernels near-zero durations: 1 ns here).
good=$(grep -v '^#' "$file")
set -- $good
half=$(awk -v t="$4" 'BEGIN { printf "%.6g", t / 2 }')
body="$1 $2 vec=4,span=1,local=driver $half"
sum=$(printf '%s' "$body" | sha256sum | cut -c1-16)
cp "$file" "$tmp/saved"
printf '%s %s\n' "$body" "$sum" >>"$file"
run --mode=P
if [ "$launch" = database ] && grep -q 'vector:[a-z]*/4,' "$tmp/out"; then
    ok "two lines for one key: the faster one"
else not_ok "merged lines: launch $launch"; show; fi

# A damaged line (its sum no longer matches) is ignored...
cp "$tmp/saved" "$file"
sed -i 's/ \([0-9a-f]\{16\}\)$/ 0000000000000000/' "$file"
run --mode=P
if [ $rc -eq 0 ] && [ "$launch" = default ]; then
    ok "a line with a wrong checksum is ignored"
else not_ok "bad checksum: exit $rc launch $launch"; show; fi
# ... and dropped at the next write.
run --mode=T --tune-ms=20000
if [ "$launch" = tuned ] && ! grep -q ' 0000000000000000$' "$file" &&
    [ "$(grep -vc '^#' "$file")" = 1 ]; then
    ok "the next tuning replaces the damaged line"
else not_ok "rewrite after damage: launch $launch"; show; fi

# Garbage, a FIFO, a link: ignored, no hang, no error.
head -c 3000 /dev/urandom >"$file"
run --mode=CP
if [ $rc -eq 0 ] && [ "$launch" = default ]; then ok "a garbage file is ignored"
else not_ok "garbage: exit $rc launch $launch"; show; fi
rm -f "$file"
mkfifo "$file"
if command -v timeout >/dev/null; then
    timeout 60 "$tool" --mode=P --fix-times-per-prb=1 $prb >"$tmp/out" 2>&1
    rc=$?
else
    run --mode=P
fi
if [ $rc -eq 0 ] && grep -q 'launch:default/' "$tmp/out"; then
    ok "a FIFO in place of the database is ignored, no hang"
else not_ok "FIFO: exit $rc"; show; fi
rm -f "$file"
cp "$tmp/saved" "$tmp/elsewhere.txt"
ln -s "$tmp/elsewhere.txt" "$file"
run --mode=P
if [ $rc -eq 0 ] && [ "$launch" = default ]; then
    ok "a symbolic link is not followed"
else not_ok "link: launch $launch"; show; fi
rm -f "$file"

# Another device's (or library version's) file has another name.
cp "$tmp/saved" "$CLRS_CACHE_DIR/tuning-0123456789abcdef.txt"
run --mode=P
if [ $rc -eq 0 ] && [ "$launch" = default ]; then
    ok "another device's file is never read"
else not_ok "foreign file: launch $launch"; show; fi

# A read-only directory: tuning still runs, the plan still works.
if [ "$(id -u)" != 0 ]; then
    chmod a-w "$CLRS_CACHE_DIR"
    run --mode=CT --tune-ms=20000
    chmod u+w "$CLRS_CACHE_DIR"
    if [ $rc -eq 0 ] && [ "$launch" = tuned ] && [ -z "$(db)" ]; then
        ok "a read-only directory: tuned, nothing written, no error"
    else not_ok "read-only: exit $rc launch $launch"; show; fi
else
    n=$((n + 1))
    echo "ok $n # SKIP a read-only directory: root writes anyway"
fi

# A directory that cannot be created (a file in its way): the same.
: >"$tmp/afile"
CLRS_CACHE_DIR="$tmp/afile/cache" run --mode=CT --tune-ms=20000
if [ $rc -eq 0 ] && [ "$launch" = tuned ] && grep -q 'passed:1 ' "$tmp/out"
then ok "a cache directory that cannot be made: tuned, no error"
else not_ok "no directory: exit $rc launch $launch"; show; fi

# Two processes tuning at once leave one valid file (the cubic problem
# 1-D: a 2-D one is separable, a line per pass).
cp "$tmp/saved" "$file"
"$tool" --mode=T --tune-ms=20000 --fix-times-per-prb=1 --alg=nearest \
    --tag=axb mb2ic16ih9iw12oh18ow24 >"$tmp/a.out" 2>&1 &
"$tool" --mode=T --tune-ms=20000 --fix-times-per-prb=1 --alg=cubic \
    --tag=axb mb2ic16iw12ow24 >"$tmp/b.out" 2>&1
wait
# Both tuners read, add their line and rename under the cache's lock:
# the linear line and both new ones.
if [ "$(grep -vc '^#' "$file")" -eq 3 ] &&
    ! grep -v '^#' "$file" | awk 'NF != 5 { bad = 1 } END { exit !bad }'
then
    ok "two tuning processes: every line intact"
else not_ok "concurrent tuning"; sed 's/^/# /' "$file"; fi

# A merged database past 4 MiB (60,000 lines of other keys, damaged:
# never used, but not this library's to drop), this problem's line last.
# It is read (launch:database), and a store replaces only this key's
# line: every other line survives, byte for byte and in order.
cp "$tmp/saved" "$file"
awk 'BEGIN { for (i = 0; i < 60000; ++i)
    printf "fwd/nearest/f32>f32/ws1,rs1/a%05d 10 vec=4,span=1,local=driver 1.5 0123456789abcdef\n", i }' \
    >"$tmp/others"
grep '^#' "$tmp/saved" >"$file"
cat "$tmp/others" >>"$file"
grep '^fwd/linear/' "$tmp/saved" >>"$file"
run --mode=P
size=$(wc -c <"$file")
if [ $rc -eq 0 ] && [ "$launch" = database ] && [ "$size" -gt 4194304 ]; then
    ok "a merged database of $size bytes is read: launch:database"
else not_ok "large database: exit $rc launch $launch, $size bytes"; show; fi
run --mode=T --tune-ms=20000
grep -v '^fwd/linear/' "$file" | grep -v '^#' >"$tmp/others.after"
if [ "$launch" = tuned ] && cmp -s "$tmp/others" "$tmp/others.after" &&
    [ "$(grep -c '^fwd/linear/' "$file")" = 1 ]; then
    ok "a store into it keeps the 60,000 lines of other keys"
else not_ok "store into a large database: launch $launch, $(grep -vc '^#' "$file") lines left"
    grep -c . "$tmp/others.after" | sed 's/^/# other lines after: /'; fi

# Past the cap the library reads (16 MiB): neither used nor rewritten,
# and the tool says so.
cp "$file" "$tmp/big"
head -c 17000000 /dev/zero | tr '\0' '#' | fold -w 100 >>"$tmp/big"
cp "$tmp/big" "$file"
run --mode=T --tune-ms=20000
if [ "$launch" = tuned ] && cmp -s "$tmp/big" "$file" &&
    grep -q 'note: tuning database: .* over the 16 MiB the library reads; not rewritten' "$tmp/out"
then ok "a database over the cap: the store is refused with a note, the file untouched"
else not_ok "database over the cap: launch $launch, file $(cmp -s "$tmp/big" "$file" && echo kept || echo changed)"; show | head -20; fi
rm -f "$tmp/big"

# A store that cannot take the cache's lock (a directory in its place)
# writes nothing: another process's store could be under way.
cp "$tmp/saved" "$file"
rm -f "$CLRS_CACHE_DIR/lock"
mkdir "$CLRS_CACHE_DIR/lock"
run --mode=T --tune-ms=20000
rmdir "$CLRS_CACHE_DIR/lock"
if [ "$launch" = tuned ] && cmp -s "$tmp/saved" "$file" &&
    grep -q 'note: tuning database: cannot take the lock .*not a regular file' "$tmp/out"
then ok "no lock, no store: the file untouched, and said"
else not_ok "store without the lock: launch $launch, file $(cmp -s "$tmp/saved" "$file" && echo kept || echo changed)"; show; fi

# Nor over what is not a regular file: a link stays a link, to the same
# unchanged file.
cp "$tmp/saved" "$tmp/linked.txt"
rm -f "$file"
ln -s "$tmp/linked.txt" "$file"
run --mode=T --tune-ms=20000
if [ "$launch" = tuned ] && [ -L "$file" ] && cmp -s "$tmp/saved" "$tmp/linked.txt" &&
    grep -q 'note: tuning database: .* is not a regular file .*; not replaced' "$tmp/out"
then ok "a store over a symbolic link: refused with a note, the link and its file untouched"
else not_ok "store over a link: launch $launch"; ls -l "$file" | sed 's/^/# /'; show; fi
rm -f "$file"
cp "$tmp/saved" "$file"

# The databases shipped with the library (CLRS_TUNING_DIR): read below
# the user's own, and only on the device and driver of their "# device:"
# line. The source tree's files were measured on GPUs: never this device.
CLRS_CACHE_DIR="$tmp/fresh"
shipped=$(ls "$top_srcdir"/lib/tuning/*.txt 2>/dev/null | wc -l)
CLRS_TUNING_DIR="$top_srcdir/lib/tuning"
export CLRS_TUNING_DIR
run --mode=P
if [ "$shipped" -gt 0 ] && [ $rc -eq 0 ] && [ "$launch" = default ]; then
    ok "the $shipped shipped file(s) of other devices are not applied here"
else not_ok "shipped files of other devices: $shipped files, launch $launch"
    show; fi
# A file made for this device (the tuner's own, with its device line).
mkdir -p "$tmp/ship"
grep -v '^fwd/nearest\|^fwd/cubic' "$tmp/saved" >"$tmp/ship/this-device.txt"
CLRS_TUNING_DIR="$tmp/ship"
run --mode=CP
if [ $rc -eq 0 ] && [ "$launch" = shipped ] && grep -q 'passed:1 ' "$tmp/out"
then ok "a shipped file for this device: launch:shipped, and it passes"
else not_ok "shipped for this device: exit $rc launch $launch"; show; fi
export CLRS_TUNE=off
run --mode=P
if [ "$launch" = default ]; then ok "CLRS_TUNE=off ignores the shipped file"
else not_ok "CLRS_TUNE=off with a shipped file: launch $launch"; show; fi
CLRS_TUNE=run
run --mode=P
unset CLRS_TUNE
if [ "$launch" = shipped ]; then
    ok "CLRS_TUNE=run: a shipped entry is an entry, no tuning"
else not_ok "CLRS_TUNE=run with a shipped entry: launch $launch"; show; fi
CLRS_TUNING_DIR=
run --mode=P
CLRS_TUNING_DIR="$tmp/ship"
if [ "$launch" = default ]; then ok "CLRS_TUNING_DIR= turns them off"
else not_ok "empty CLRS_TUNING_DIR: launch $launch"; show; fi
# The user's database comes first.
CLRS_CACHE_DIR="$tmp/cache"
run --mode=P
if [ "$launch" = database ]; then ok "the user's database beats the shipped one"
else not_ok "user and shipped database: launch $launch"; show; fi
CLRS_CACHE_DIR="$tmp/fresh"
# Another driver version of this device: not applied.
sed 's/^\(# device: .*| \)\([^|]*\)$/\1\2-other/' "$tmp/ship/this-device.txt" \
    >"$tmp/ship/other.txt"
mv "$tmp/ship/other.txt" "$tmp/ship/this-device.txt"
run --mode=P
if [ "$launch" = default ] && grep -q '^# device: .*-other$' \
    "$tmp/ship/this-device.txt"; then
    ok "a shipped file for another driver version is not applied"
else not_ok "another driver's shipped file: launch $launch"; show; fi
unset CLRS_TUNING_DIR

# One pass or several: tuning a problem that factorises times its passes
# and one kernel over the whole problem end to end and writes the winner
# under the whole problem's key (sep=1, or sep=0 with the one kernel's
# launch); later plans follow that line whatever the cost model says,
# CLRS_LAUNCH's sep= and CLRS_TUNE=off (the cost model: passes for a 2-D
# bicubic 2x up) beat it.
CLRS_CACHE_DIR="$tmp/sep"
sprb="--alg=cubic --tag=axb mb1ic4ih12iw16oh24ow20"
srun() {
    "$tool" --fix-times-per-prb=1 "$@" $sprb >"$tmp/out" 2>&1
    rc=$?
    kern=$(sed -n 's/.*,kernels:\([0-9a-z]*\),.*/\1/p' "$tmp/out" | head -1)
    launch=$(sed -n 's/.*,launch:\([a-z]*\)\/.*/\1/p' "$tmp/out" | head -1)
}
# A separable plan: its passes (kernels:2sep), or the passes as one
# kernel (kernels:1sep, the roll variant).
is_sep() { [ "$kern" = 2sep ] || [ "$kern" = 1sep ]; }
# sline LAUNCH: the whole problem's line with LAUNCH instead, its sum
# made anew.
sline() {
    set -- $(grep '/a23 [0-9]* ' "$(db)") "$1"
    body="$1 $2 $6 $4"
    sum=$(printf '%s' "$body" | sha256sum | cut -c1-16)
    grep -v '/a23 [0-9]* ' "$(db)" >"$tmp/db"
    printf '%s %s\n' "$body" "$sum" >>"$tmp/db"
    cp "$tmp/db" "$(db)"
}
srun --mode=CT --tune-ms=5000
choice=$(sed -n 's/.*\/a23 [0-9]* \(sep=[01]\).*/\1/p' "$(db)" 2>/dev/null)
if [ $rc -eq 0 ] && grep -q 'passed:1 ' "$tmp/out" &&
    { { [ "$choice" = sep=1 ] && is_sep; } ||
      { [ "$choice" = sep=0 ] && [ "$kern" = 1 ]; }; }; then
    ok "tuning times passes against one kernel: $choice written, kernels:$kern run, the check passes"
else not_ok "tuning one pass or several: exit $rc, line '${choice:-none}', kernels:$kern"; show; fi
sline sep=0,span=1
srun --mode=CP
if [ $rc -eq 0 ] && [ "$kern" = 1 ] && [ "$launch" = database ] &&
    grep -q 'passed:1 ' "$tmp/out"; then
    ok "a line of sep=0 makes a later plan one kernel at its launch"
else not_ok "sep=0 line: exit $rc kernels:$kern launch $launch"; show; fi
CLRS_TUNE=off srun --mode=P
if is_sep; then ok "CLRS_TUNE=off: the cost model's passes"
else not_ok "CLRS_TUNE=off over sep=0: kernels:$kern"; show; fi
sline sep=1
srun --mode=CP
if [ $rc -eq 0 ] && is_sep && grep -q 'passed:1 ' "$tmp/out"; then
    ok "a line of sep=1 makes a later plan separable"
else not_ok "sep=1 line: exit $rc kernels:$kern"; show; fi
CLRS_LAUNCH=sep=0 srun --mode=P
if [ "$kern" = 1 ]; then ok "CLRS_LAUNCH=sep=0 beats a line of sep=1"
else not_ok "CLRS_LAUNCH=sep=0 over sep=1: kernels:$kern"; show; fi

echo "1..$n"
exit $failed
