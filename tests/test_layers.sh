#!/bin/sh
# The library's stages stay visible and one-way: every source of lib/ is
# in one stage directory, model/ (descriptors, validation, coordinates,
# taps, the reference), gen/ (the device as the lowering sees it, the
# launch space, the lowering, the tables, the kernel text) or rt/ (the
# context, the program cache, the tuning database, plans), and includes
# the project's headers by their stage ("model/internal.h"), its own
# stage's and lower stages' only. Inside the generator, each file calls
# only into the layers below its own (the order gen/gen_emit.h draws):
# no cycle. TAP, run by make check; reads the source tree only.

: "${top_srcdir:=.}"
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }

cd "$top_srcdir" || exit 1

# The stages, lowest first; a file may include its own and lower ones.
stages="model gen rt"
rank() {
    r=0
    for s in $stages; do
        [ "$s" = "$1" ] && { echo $r; return; }
        r=$((r + 1))
    done
    echo 99
}

loose=$(ls lib/*.c lib/*.h 2>/dev/null)
if [ -z "$loose" ]; then
    ok "no source of lib/ outside a stage directory"
else
    not_ok "sources outside a stage directory: $(echo $loose)"
fi

count=0
for f in lib/*/*.c lib/*/*.h; do
    [ -e "$f" ] || continue
    case $f in lib/gen/cl_embed.c) continue ;; esac
    count=$((count + 1))
    stage=${f#lib/}
    stage=${stage%%/*}
    mine=$(rank "$stage")
    if [ "$mine" -eq 99 ]; then
        not_ok "$f: $stage/ is not a stage ($stages)"
        continue
    fi
    bad=
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        case $inc in
        clresample.h) continue ;;
        */*) ;;
        *) bad="$bad $inc (no stage)"; continue ;;
        esac
        theirs=$(rank "${inc%%/*}")
        if [ "$theirs" -gt "$mine" ]; then
            bad="$bad $inc (a higher stage)"
        elif [ ! -e "lib/$inc" ]; then
            bad="$bad $inc (no such header)"
        fi
    done
    if [ -z "$bad" ]; then
        ok "$f includes its stage's and lower stages' headers"
    else
        not_ok "$f includes$bad"
    fi
done
# A sanity floor, so that a broken pattern cannot pass by finding nothing.
if [ "$count" -ge 40 ]; then
    ok "$count sources checked"
else
    not_ok "only $count sources found under lib/*/"
fi

# The generator's layers, lowest first (a word per layer, files joined
# by commas).
gen_layers="gen_text,gen_rows gen_parts,gen_store,gen_key gen_loops,gen_span \
    gen_reduce,gen_gather gen_body variant_* codegen"
layer_of() {
    r=0
    for l in $gen_layers; do
        for g in $(echo "$l" | tr , ' '); do
            # shellcheck disable=SC2254
            case $1 in $g) echo $r; return ;; esac
        done
        r=$((r + 1))
    done
    echo 99
}
# The functions each file defines (not static), and its text without
# comments.
gtmp=${TMPDIR:-/tmp}/clrs-layers.$$
mkdir -p "$gtmp" || exit 1
trap 'rm -rf "$gtmp"' EXIT INT TERM
gfiles=
for f in lib/gen/codegen.c lib/gen/gen_*.c lib/gen/variant_*.c; do
    [ -e "$f" ] || continue
    b=$(basename "$f" .c)
    gfiles="$gfiles $b"
    perl -0pe 's{/\*.*?\*/}{}gs' "$f" >"$gtmp/$b.code"
    sed -n 's/^[a-z][^(]*[ *]\(clrs__gen_[A-Za-z0-9_]*\)(.*/\1/p' \
        "$gtmp/$b.code" >"$gtmp/$b.defs"
done
for f in $gfiles; do
    mine=$(layer_of "$f")
    if [ "$mine" -eq 99 ]; then
        not_ok "lib/gen/$f.c has no layer in this test's gen_layers"
        continue
    fi
    bad=
    for g in $gfiles; do
        [ "$g" = "$f" ] && continue
        for fn in $(cat "$gtmp/$g.defs"); do
            grep -qw "$fn" "$gtmp/$f.code" || continue
            [ "$(layer_of "$g")" -lt "$mine" ] || bad="$bad $fn ($g.c)"
        done
    done
    if [ -z "$bad" ]; then
        ok "lib/gen/$f.c calls only into lower layers"
    else
        not_ok "lib/gen/$f.c calls into its own or a higher layer:$bad"
    fi
done

echo "1..$n"
exit $failed
