#!/bin/sh
# The files the tool writes (--dst-file, --diff-src-file, --ws-file) go
# to a temporary file beside the target, renamed over it only when whole:
# a write that fails mid-way (a file size limit, here for every user; a
# full tmpfs where the test can mount one in a user namespace) reports
# FAILED and leaves the old file byte for byte, and no temporary file. A
# write that succeeds keeps the old file's mode and a symbolic link to
# it; /dev/null and the like are written in place. The reference engine
# computes everything (no device needed).

tap_name=cli-files
. "${top_srcdir:-.}/tests/tap.sh"
tmp=$(cd "$tmp" && pwd)

ref="--engine=ref --mode=R"
# Each writes about 256 KiB to its knob's file, far past the limits below.
set -- \
    "--dst-file" "--alg=nearest mb1ic4ih64iw64oh128ow128" \
    "--diff-src-file" "--dir=BWD_D --alg=nearest mb1ic4ih128iw128oh64ow64" \
    "--ws-file" "--alg=max mb1ic16ih128iw128kh2kw2"

# leftovers DIR: the temporary files a write left in DIR.
leftovers() { ls -A "$1" | grep '\.tmp$'; }

# An old file of random bytes (no .npy: the tool never reads it).
old_file() {
    head -c 5000 /dev/urandom >"$1"
    cp "$1" "$1.orig"
}

# The write fails mid-way: a file size limit (ulimit -f, in 512- or
# 1024-byte blocks by shell: 16-32 KiB) makes the kernel refuse writes
# past it (EFBIG; SIGXFSZ ignored). The old file must survive whole.
while [ $# -ge 2 ]; do
    knob=$1 prb=$2
    shift 2
    d="$tmp/limit${knob#--}"
    mkdir -p "$d"
    old_file "$d/out.npy"
    (trap '' XFSZ; ulimit -f 32 &&
        exec "$tool" $ref $knob="$d/out.npy" $prb) >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -ne 0 ] && grep -q 'FAILED (.*out.npy: write failed: .*old file is kept' "$tmp/out" &&
        cmp -s "$d/out.npy" "$d/out.npy.orig" && [ -z "$(leftovers "$d")" ]
    then
        ok "$knob: a write that fails mid-way (file size limit) reports FAILED and keeps the old file byte for byte"
    else
        not_ok "$knob under a file size limit: exit $rc, old file $(cmp -s "$d/out.npy" "$d/out.npy.orig" && echo kept || echo lost), leftovers: $(leftovers "$d" | tr '\n' ' ')"
        sed 's/^/# /' "$tmp/out"
    fi
    # Without the limit the same write replaces it.
    "$tool" $ref $knob="$d/out.npy" $prb >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && head -c 6 "$d/out.npy" | grep -q NUMPY &&
        [ -z "$(leftovers "$d")" ]; then
        ok "$knob: without the limit the file is replaced"
    else not_ok "$knob without a limit: exit $rc"; sed 's/^/# /' "$tmp/out"; fi
done

small="mb1ic1iw4ow8"
# A replaced file keeps its mode; a symbolic link stays a link, to the
# new contents.
old_file "$tmp/mode.npy"
chmod 640 "$tmp/mode.npy"
ln -s mode.npy "$tmp/link.npy"
"$tool" $ref --dst-file="$tmp/link.npy" $small >"$tmp/out" 2>&1
rc=$?
mode=$(ls -l "$tmp/mode.npy" | cut -c1-10)
if [ $rc -eq 0 ] && [ -L "$tmp/link.npy" ] && [ "$mode" = "-rw-r-----" ] &&
    head -c 6 "$tmp/link.npy" | grep -q NUMPY; then
    ok "through a symbolic link: the link stays, its file is replaced, mode 640 kept"
else not_ok "symbolic link: exit $rc, mode $mode"; sed 's/^/# /' "$tmp/out"; fi

# Not a regular file: written in place.
if "$tool" $ref --dst-file=/dev/null $small >"$tmp/out" 2>&1; then
    ok "/dev/null is written in place"
else not_ok "/dev/null"; sed 's/^/# /' "$tmp/out"; fi
if [ -c /dev/full ]; then
    ln -s /dev/full "$tmp/full.npy"
    "$tool" $ref --dst-file="$tmp/full.npy" $small >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -ne 0 ] &&
        grep -q 'FAILED (.*full.npy: write failed: No space left on device' "$tmp/out"
    then ok "a link to /dev/full: FAILED, No space left on device"
    else not_ok "/dev/full: exit $rc"; sed 's/^/# /' "$tmp/out"; fi
else
    skip "no /dev/full"
fi
mkdir "$tmp/adir.npy"
"$tool" $ref --dst-file="$tmp/adir.npy" $small >"$tmp/out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q 'FAILED (.*adir.npy: is a directory' "$tmp/out" &&
    [ -z "$(ls -A "$tmp/adir.npy")" ]; then
    ok "a directory in the way: FAILED, is a directory"
else not_ok "directory target: exit $rc"; sed 's/^/# /' "$tmp/out"; fi

# A full disk for real: a 64 KiB tmpfs, mounted in a user and mount
# namespace of our own (unshare -rm) where the kernel allows it.
mnt="$tmp/mnt"
mkdir -p "$mnt"
if command -v unshare >/dev/null &&
    unshare -rm sh -c "mount -t tmpfs -o size=64k tmpfs '$mnt'" 2>/dev/null
then
    # Inside: the old file, the failing write, then the checks' inputs
    # copied out (the tmpfs vanishes with the namespace).
    unshare -rm sh -c '
        mnt=$1 tool=$2 tmp=$3
        shift 3
        mount -t tmpfs -o size=64k tmpfs "$mnt" || exit 9
        head -c 5000 /dev/urandom >"$mnt/out.npy"
        cp "$mnt/out.npy" "$tmp/full.orig"
        "$tool" --dst-file="$mnt/out.npy" "$@" >"$tmp/out" 2>&1
        echo $? >"$tmp/full.rc"
        cp "$mnt/out.npy" "$tmp/full.after"
        ls -A "$mnt" >"$tmp/full.ls"
        df -k "$mnt" | tail -n 1 >"$tmp/full.df"
    ' sh "$mnt" "$tool" "$tmp" $ref --alg=nearest mb1ic4ih64iw64oh128ow128
    rc=$(cat "$tmp/full.rc" 2>/dev/null)
    if [ "$rc" = 1 ] &&
        grep -q 'FAILED (.*out.npy: write failed: No space left on device (the old file is kept)' "$tmp/out" &&
        cmp -s "$tmp/full.orig" "$tmp/full.after" &&
        [ "$(cat "$tmp/full.ls")" = out.npy ]; then
        ok "--dst-file on a full disk (64 KiB tmpfs): FAILED, the old file kept byte for byte, no temporary file"
    else
        not_ok "full disk: exit ${rc:-none}, left: $(tr '\n' ' ' <"$tmp/full.ls" 2>/dev/null)"
        sed 's/^/# /' "$tmp/out" "$tmp/full.df" 2>/dev/null
    fi
else
    skip "full disk: cannot mount a tmpfs here (unshare -rm refused: no unprivileged user namespaces); the file size limit above makes the same mid-way failure"
fi

echo "1..$n"
exit $failed
