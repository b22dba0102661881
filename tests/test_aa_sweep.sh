#!/bin/sh
# Antialiased linear and cubic over every small shape, forward and
# backward, at every forced vector width with the span path on and off,
# each problem checked against the CPU reference (clresample --mode=CP).
# The span path's kernels are generated for each shape's tap patterns,
# so a shape can break the build or the values at one width and not at
# another: when a tap that no lane of a group reads started from an
# undeclared pad, 35 forward problems of this sweep failed to build, at
# 2, 4 and 8 lanes.
#
# The per-axis pairs (in, out): every in = 1..24 with out < in (276
# downsamples, where antialias changes the filter), then 8 upsamples and
# equal sizes (1->1, 1->24, 2->3, 5->5, 7->16, 12->24, 17->18, 24->24).
# 1-D shapes resample W: one per pair. 2-D shapes resample H and W: shape
# k takes pair k on H and pair k + 142 (half the list, wrapped) on W, so
# the 284 of them meet each pair on each axis exactly once, a small
# input beside a large one.
#
# One TAP point per batch: CLRS_LAUNCH vec=1,2,4,8,16 x span=0 and the
# default span=1 x 1-D and 2-D x FWD_D and BWD_D, each failing with its
# failing problems' lines. With span=0 or vec=1 no kernel takes the span
# path: they are built from tap counts, not shapes, a few builds for all,
# so those points run every shape in both algorithms. On the span path
# each shape is a build of its own (0.3 to 0.7 s of CPU on PoCL; the run
# takes under a millisecond): every 1-D shape at 2, 4 and 8 lanes in both
# algorithms and directions took 15 minutes here, so the span points are
# cut to each 1-D pair once and every third 2-D shape once. Shape m of
# those (m = k in 1-D, k / 3 in 2-D) runs at 2, 4 or 8 lanes by m mod 3,
# and its algorithm and direction go by turns, (m / 3) mod 4 of linear
# FWD_D, cubic FWD_D, linear BWD_D, cubic BWD_D: each width sees a third
# of the pairs, spread over every size, in all four. vec=16 runs vec=8's
# shapes, which costs no build where the device bounds the width at 8.
# Every point forces local=1: the work-group size is not in the source,
# and one size spares PoCL a work-group compilation per global size. A
# span point at 2, 4 or 8 lanes with no problem on the span path fails:
# it would test nothing there (at 16 lanes, where the device allows
# them, few of these rows are long enough).

tap_name=aa-sweep
. "${top_srcdir:-.}/tests/tap.sh"

need_device

i=1
while [ $i -le 24 ]; do
    o=1
    while [ $o -lt $i ]; do
        echo "$i $o"
        o=$((o + 1))
    done
    i=$((i + 1))
done >"$tmp/pairs"
printf '%s\n' "1 1" "1 24" "2 3" "5 5" "7 16" "12 24" "17 18" "24 24" \
    >>"$tmp/pairs"

# batch DIM DIR WIDX: the batch of one point. WIDX -1: every shape in
# both algorithms; else the span path's shapes at width index WIDX whose
# class is of direction DIR, in the class's algorithm.
batch() {
    echo "--dir=$2 --antialias=true"
    awk -v dim="$1" -v dir="$2" -v w="$3" '
        { in_[NR - 1] = $1; out[NR - 1] = $2 }
        END {
            np = NR
            for (k = 0; k < np; k++) {
                j = (k + int(np / 2)) % np
                if (dim == 1) shape = sprintf("mb1ic2iw%dow%d", in_[k], out[k])
                else shape = sprintf("mb1ic2ih%diw%doh%dow%d", in_[k], in_[j],
                                     out[k], out[j])
                if (w < 0) { print "--alg=linear,cubic " shape; continue }
                if (dim == 2 && k % 3) continue
                m = dim == 2 ? k / 3 : k
                c = int(m / 3) % 4
                if (m % 3 != w || (c < 2) != (dir == "FWD_D")) continue
                print "--alg=" (c % 2 ? "cubic" : "linear") " " shape
            }
        }' "$tmp/pairs"
}

# The quick tier: one width, with the span path on and off.
vecs="1 2 4 8 16"
[ -n "$quick" ] && vecs=8
for vec in $vecs; do
    case $vec in 2) w=0 ;; 4) w=1 ;; *) w=2 ;; esac
    for span in 0 1; do
        for dim in 1 2; do
            for dir in FWD_D BWD_D; do
                widx=$w
                [ $span -eq 0 ] || [ $vec -eq 1 ] && widx=-1
                batch $dim $dir $widx >"$tmp/batch"
                want=$(awk '{ n += /linear,cubic/ ? 2 : /^--alg/ }
                    END { print n }' "$tmp/batch")
                launch=vec=$vec,local=1
                [ $span -eq 0 ] && launch=$launch,span=0
                what="CLRS_LAUNCH=$launch ${dim}-D $dir"
                t0=$(date +%s)
                CLRS_LAUNCH=$launch "$tool" --mode=CP --fix-times-per-prb=1 \
                    --batch="$tmp/batch" >"$tmp/out" 2>&1
                rc=$?
                secs=$(($(date +%s) - t0))
                summary=$(grep '^tests:' "$tmp/out")
                spans=$(grep -c 'vector:span/' "$tmp/out")
                bad=
                [ $rc -eq 0 ] || bad="exit $rc"
                echo "$summary" | grep -q "^tests:$want passed:$want " ||
                    bad="${bad:+$bad, }want $want passed"
                if [ $span -eq 0 ] || [ $vec -eq 1 ]; then
                    [ "$spans" -eq 0 ] || bad="${bad:+$bad, }$spans on the span path"
                elif [ "$spans" -eq 0 ] && [ $vec -ne 16 ]; then
                    bad="${bad:+$bad, }none on the span path"
                fi
                if [ -z "$bad" ]; then
                    ok "$what: $summary, $spans on the span path, $secs s"
                else
                    not_ok "$what: $bad: $summary"
                    grep -E '^[0-9]+:' "$tmp/out" | grep -v ':PASSED ' |
                        head -40 | sed 's/^/# /'
                fi
            done
        done
    done
done
echo "1..$n"
exit $failed
