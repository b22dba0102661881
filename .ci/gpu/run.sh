#!/usr/bin/env bash
# One device run: correctness in parallel (capped), then the side-by-side
# (ours at the defaults, PyTorch, the tuner). From the project root with
# .gpu/ carried, after ../shared/gpu/stage and a copy of this folder to
# .gpu/session (.ci/gpu/README).
set -u
G=$PWD/.gpu; S=$G/session; O=/tmp/gpu-out; mkdir -p "$O"
# $OUT takes few files: everything goes to $O, packed into $OUT/gpu.tgz
# after each phase, so a run cut short still brings back what it did.
pack() { [ -n "${OUT:-}" ] && tar czf "$OUT/gpu.tgz.tmp" -C "$O" . && mv "$OUT/gpu.tgz.tmp" "$OUT/gpu.tgz"; }
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
exec > >(tee -a "$O/main.log") 2>&1
icd=$(find /usr/lib /usr/lib64 /usr/local/nvidia /usr/lib/x86_64-linux-gnu -name 'libnvidia-opencl.so.1' 2>/dev/null | head -1)
mkdir -p /tmp/icd && echo "$icd" > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd LD_LIBRARY_PATH=$G/lib CLRS_DEVICE=NVIDIA PATH=$G/bin:$PATH
export CLRS_TUNING_DIR=
nvidia-smi > "$O/nvidia-smi.txt" 2>&1
python3 -c 'import torch; print(torch.__version__, torch.version.cuda)' > "$O/torch-version.txt" 2>&1
clresample --list-devices -v > "$O/devices.txt" 2>&1
echo "[$(el)s] phase A"
pids=()
mkdir -p "$O/tests" "$O/same" "$O/worked-dump"
for t in "$G"/tests/*; do
    n=$(basename "$t")
    (
        export CLRS_CACHE_DIR=/tmp/cache-$n
        [ "$n" = test_device_worked ] && export CLRS_DUMP_SOURCE=$O/worked-dump
        s=$(date +%s.%N)
        timeout 150 "$t" > "$O/tests/$n.tap" 2>&1; rc=$?
        echo "# rc=$rc wall=$(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN{print b - a}')" >> "$O/tests/$n.tap"
    ) & pids+=($!)
done
# BATCHES: the batches to run (default every one); AGAIN=0 leaves out
# test_device_worked's repeats and the forced launches (a short rerun).
for b in ${BATCHES:-test_resampling_ci test_filter_ci test_pooling_full test_backward_ci test_postops_ci test_vendor_ci test_axes_ci test_options_ci test_fuse_ci test_fuse_full benchdnn/test_mini_ci}; do
    n=$(basename "$b")
    ( cd "$G/inputs/$(dirname "$b")" && CLRS_CACHE_DIR=/tmp/cache-$n timeout 150 stdbuf -oL clresample --mode=C --perf-template=json --batch="$G/inputs/$b" > "$O/same/$n.json" 2> "$O/same/$n.err"; echo "rc=$?" >> "$O/same/$n.err" ) & pids+=($!)
done
# test_device_worked twice more, its kernels dumped (an f64 cubic
# exclude_outside case crashed once on NVIDIA's OpenCL).
[ "${AGAIN:-1}" = 1 ] && ( for r in 2 3; do CLRS_CACHE_DIR=/tmp/cache-worked$r CLRS_DUMP_SOURCE=$O/worked-dump timeout 100 "$G/tests/test_device_worked" > "$O/tests/worked-again$r.tap" 2>&1; echo "# rc=$?" >> "$O/tests/worked-again$r.tap"; done ) & pids+=($!)
i=0
[ "${AGAIN:-1}" = 1 ] && for l in vec=1 vec=4,mv=4,local=16x16x1 span=0 vec=8,mv=2,local=32x8x1; do
    i=$((i + 1))
    ( CLRS_LAUNCH=$l CLRS_CACHE_DIR=/tmp/cache-l$i timeout 150 stdbuf -oL clresample --mode=C --perf-template=json --batch="$G/inputs/launch_subset" > "$O/same/launch$i.json" 2> "$O/same/launch$i.err"; echo "launch=$l rc=$?" >> "$O/same/launch$i.err" ) & pids+=($!)
done
# Separable wherever the mode factorises (bilinear too), and never.
[ "${AGAIN:-1}" = 1 ] && for l in sep=1 sep=0; do
    ( cd "$G/inputs" && CLRS_LAUNCH=$l CLRS_CACHE_DIR=/tmp/cache-$l timeout 150 stdbuf -oL clresample --mode=C --perf-template=json --batch="$G/inputs/test_resampling_ci" > "$O/same/resampling-$l.json" 2> "$O/same/resampling-$l.err"; echo "launch=$l rc=$?" >> "$O/same/resampling-$l.err" ) & pids+=($!)
done
# The shell tests that check a launch knob's kernels against the
# reference and against the other setting's bytes (computed taps,
# fixed-point sums, three-lane pixels, separable passes), quick tier,
# from a tree of the staged tool and inputs.
mkdir -p "$G/tree/tools" "$G/tree/tests"
ln -sf "$G/bin/clresample" "$G/tree/tools/clresample"
ln -sfn "$G/inputs" "$G/tree/tests/inputs"
cp "$S"/tap.sh "$S"/test_*.sh "$G/tree/tests/" 2>/dev/null
for t in "$G"/tree/tests/test_*.sh; do
    n=$(basename "$t" .sh)
    ( cd "$G/tree" && CLRS_CACHE_DIR=/tmp/cache-$n CLRS_TEST_TIER=quick top_srcdir=. top_builddir=. timeout 150 sh "tests/$n.sh" > "$O/tests/$n.tap" 2>&1; echo "# rc=$?" >> "$O/tests/$n.tap" ) & pids+=($!)
done
wait "${pids[@]}"
echo "[$(el)s] phase A done"
for f in "$O"/tests/*.tap; do echo "$(basename "$f") ok=$(grep -c '^ok' "$f") not_ok=$(grep -c '^not ok' "$f") $(tail -1 "$f")"; grep -m5 '^not ok' "$f"; done
for f in "$O"/same/*.err; do echo "$(basename "$f") $(grep -c '"status"' "${f%.err}.json") $(tail -2 "$f" | tr '\n' ' ')"; done
pack; echo "[$(el)s] ours"
bs() { for b in $1; do printf -- '--batch=%s/%s.batch ' "$S" "$b"; done; }
# Ours at the built-in defaults over $OURS (default: every problem of
# problems.py, groups A and B in ab.batch, C in c.batch), PyTorch, then
# the tuner over each batch of $TUNE (default "ab c") while less than
# TUNE_BEFORE seconds (420) have passed: --mode=T prints the tuned
# launch's time, and its database is what ships.
mkdir -p "$O/perf-dump"
CLRS_DUMP_SOURCE=$O/perf-dump CLRS_CACHE_DIR=/tmp/c-ours clresample --mode=P --roofline --perf-template=json --fix-times-per-prb=30 $(bs "${OURS:-ab c}") > "$O/ours-untuned.json" 2> "$O/ours-untuned.err"
# DB=FILE: ours again with FILE as the shipped tuning database.
if [ -n "${DB:-}" ]; then
    pack; echo "[$(el)s] ours with $DB"
    mkdir -p /tmp/c-ship && cp "$DB" /tmp/c-ship/
    CLRS_TUNING_DIR=/tmp/c-ship CLRS_CACHE_DIR=/tmp/c-db clresample --mode=P --perf-template=json --fix-times-per-prb=30 $(bs "${OURS:-ab c}") > "$O/ours-db.json" 2> "$O/ours-db.err"
fi
pack; echo "[$(el)s] torch"
python3 "$S/torch_mat.py" > "$O/torch.json" 2> "$O/torch.err"
# CLRS_LAUNCH settings (computed taps calc=1, fixed-point u8 sums fix=1,
# rows=2) over the forward resampling problems, against the defaults;
# KNOB_ALL=1: over every problem (pooling and backward too).
if [ -n "${KNOBS:-}" ]; then
    if [ "${KNOB_ALL:-0}" = 1 ]; then
        cat "$S"/ab.batch "$S"/c.batch | grep -- "${KNOB_SDT:-}" > "$S/fwd.batch"
    else
        grep -h -- '--dir=FWD_I' "$S"/ab.batch "$S"/c.batch | grep -v kh3 | grep -- "${KNOB_SDT:-}" > "$S/fwd.batch"
    fi
    for k in $KNOBS; do
        pack; echo "[$(el)s] ours $k"
        CLRS_LAUNCH=$k CLRS_CACHE_DIR=/tmp/c-$k clresample --mode=P --perf-template=json --fix-times-per-prb=30 --batch="$S/fwd.batch" > "$O/ours-$k.json" 2> "$O/ours-$k.err"
    done
fi
if [ "${SINGLE:-0}" = 1 ]; then
    pack; echo "[$(el)s] single pass"
    CLRS_LAUNCH=sep=0 CLRS_CACHE_DIR=/tmp/c-sep0 clresample --mode=P --roofline --perf-template=json --fix-times-per-prb=30 $(bs "absep csep") > "$O/ours-sep0.json" 2> "$O/ours-sep0.err"
fi
for b in ${TUNE:-ab c}; do
    pack; echo "[$(el)s] tune $b"
    [ "$(el)" -lt "${TUNE_BEFORE:-420}" ] || break
    CLRS_CACHE_DIR=/tmp/c-tuned timeout $(( ${TUNE_END:-540} - $(el) )) clresample --mode=T --tune-ms=800 --perf-template=json --fix-times-per-prb=30 $(bs "$b") > "$O/tune-$b.json" 2> "$O/tune-$b.err"
    cp /tmp/c-tuned/tuning-*.txt "$O/" 2>/dev/null
done
pack; echo "[$(el)s] done"
pack
