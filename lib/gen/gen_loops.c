/* The loop nest over the resampled slots' lists and the value loads,
 * shared by the forward reduction and the backward gather. */
#include "gen/gen_emit.h"

/* The loop nest over the entries of slots 0 .. nloops - 1, slot order
 * (row-major window order, as the reference walks it), left open.
 * Innermost: `o` is the read offset
 * (negative for a padding tap), `w` the weight product (weighted sum),
 * `c` the code sum (forward max: window or plane codes; backward: window
 * codes). Backward also: `q` the index tensor's offset and, to recompute
 * the argmax, `u` the output index of each slot. */
/* "const TYPE <v>k = ... TABLE[<seg>k + <x>k];": slot k's step of a
 * running value v (o offset, w weight, q index offset, c code), from
 * base (NULL: none) at slot 0 and from v<k-1> after; the weight
 * multiplies, the others add. */
static void emit_entry(sbuf *b, char v, const char *type, int k,
                       const char *table, const char *seg, const char *base,
                       char x)
{
    const char *op = v == 'w' ? " * " : " + ";

    clrs__gen_sb_add(b, "const %s %c%d = ", type, v, k);
    if (k > 0)
        clrs__gen_sb_add(b, "%c%d%s", v, k - 1, op);
    else if (base)
        clrs__gen_sb_add(b, "%s%s", base, op);
    clrs__gen_sb_add(b, "%s[%s%d + %c%d];\n", table, seg, k, x, k);
}

void clrs__gen_emit_loops(sbuf *b, const clrs_gen_config *c, const char *so,
                          const char *io, int nloops, const char *i0name)
{
    clrs__gen_emit_loops_from(b, c, so, io, 0, nloops, i0name);
}

void clrs__gen_emit_loops_from(sbuf *b, const clrs_gen_config *c,
                               const char *so, const char *io, int k0,
                               int nloops, const char *i0name)
{
    const char *off = clrs__gen_off_type(c), *acc = clrs__gen_acc_type(c);
    const int bwd = c->backward, wsum = c->cls == CLRS_GEN_WSUM;
    const int codes = bwd ? c->has_index && !c->plane : c->has_index;
    const char x = bwd ? 't' : 'x'; /* the entry's table position */
    int k;

    for (k = k0; k < nloops; ++k) {
        char ip[16];
        if (clrs__gen_axis_of_slot(c, k) == 0)
            snprintf(ip, sizeof ip, "%s", i0name);
        else
            snprintf(ip, sizeof ip, "i%d", clrs__gen_axis_of_slot(c, k));
        /* A constant trip count unrolled leaves the work-item loop PoCL
         * wraps around the kernel innermost, so it can vectorise it. */
        if (c->fixed[k])
            clrs__gen_sb_add(b, "#pragma unroll\n");
        /* x: the tap's table position. Fixed-count tables are stored
         * tap-major (position t * O + o), so consecutive work-items read
         * consecutive entries and no two loads of one work-item are
         * adjacent (which the SLP vectoriser would fuse into a short
         * vector that then blocks vectorising the work-item loop). O is
         * the axis' real size (nr) where the written tensor blocks it:
         * n then counts the padding lanes, which have no taps. */
        if (c->fixed[k]) {
            clrs__gen_sb_open(b, "for (%s t%d = 0; t%d < %d; ++t%d)", off, k, k,
                              c->fixed[k], k);
            clrs__gen_sb_add(
                b, "const %s x%d = t%d * %s%d + %s;\n", off, k, k,
                c->ax[clrs__gen_axis_of_slot(c, k)].dst_block ? "nr" : "n",
                clrs__gen_axis_of_slot(c, k), ip);
        } else {
            clrs__gen_sb_open(b, "for (%s t%d = b%d; t%d < e%d; ++t%d)", off, k,
                              k, k, k, k);
        }
        if (!c->fixed[k] && !bwd)
            clrs__gen_sb_add(b, "const %s x%d = t%d;\n", off, k, k);
        emit_entry(b, 'o', off, k, "itab", "of", so, x);
        if (wsum && !c->raw) /* a copy's weights are all 1 */
            emit_entry(b, 'w', acc, k, "ftab", "fw", NULL, x);
        if (bwd && c->has_index)
            emit_entry(b, 'q', off, k, "itab", "ix", io, 't');
        if (codes)
            emit_entry(b, 'c', off, k, "itab", "cd", NULL, x);
        if (c->recompute)
            clrs__gen_sb_add(b, "const %s u%d = itab[cd%d + t%d];\n", off, k, k,
                             k);
    }
}

/* Backward weighted sums over two or more slots split acc per entry of
 * slot n - 2: that entry's entries of the last slot are summed from 0 and
 * then added to the sum so far (accp). Each entry starts a new dependency
 * chain, which the processor overlaps with the previous one; one chain
 * through every entry serialised the adds. The order stays fixed: runs
 * are bit-identical. Forward kernels keep one chain: their unrolled
 * fixed-count loops gained nothing from the split. */
static int split_acc(const clrs_gen_config *c, int wsum)
{
    return wsum && c->nslots >= 2;
}

void clrs__gen_emit_split_open(sbuf *b, const clrs_gen_config *c,
                               const char *so, const char *io, int nloops,
                               const char *i0name, int wsum, int w)
{
    const int n = c->nslots;
    char at[16];
    int m;

    if (!split_acc(c, wsum)) {
        clrs__gen_emit_loops(b, c, so, io, nloops, i0name);
        return;
    }
    clrs__gen_vtype(at, sizeof at, clrs__gen_acc_type(c), w);
    clrs__gen_emit_loops_from(b, c, so, io, 0, n - 1, i0name);
    for (m = 0; m < clrs__gen_mvec_of(c, w); ++m) {
        clrs__gen_sb_add(b, "const %s %sp = %s;\n", at, clrs__gen_acc_name(m),
                         clrs__gen_acc_name(m));
        clrs__gen_sb_add(b, "%s = (%s)(0);\n", clrs__gen_acc_name(m), at);
    }
    clrs__gen_emit_loops_from(b, c, so, io, n - 1, nloops, i0name);
}

void clrs__gen_emit_split_close(sbuf *b, const clrs_gen_config *c, int nloops,
                                int wsum, int w)
{
    const int n = c->nslots;
    int m;

    if (!split_acc(c, wsum)) {
        clrs__gen_emit_close_loops(b, nloops);
        return;
    }
    clrs__gen_emit_close_loops(b, nloops - (n - 1));
    for (m = 0; m < clrs__gen_mvec_of(c, w); ++m)
        clrs__gen_sb_add(b, "%s = %sp + %s;\n", clrs__gen_acc_name(m),
                         clrs__gen_acc_name(m), clrs__gen_acc_name(m));
    clrs__gen_emit_close_loops(b, n - 1);
}

void clrs__gen_emit_close_loops(sbuf *b, int nloops)
{
    int k;
    for (k = 0; k < nloops; ++k)
        clrs__gen_sb_close(b);
}

void clrs__gen_emit_value(sbuf *b, const clrs_gen_config *c, const dtype_row *r,
                          const char *ptr, const char *name, int w,
                          const char *o, int pad)
{
    char at[16], ld[192];

    clrs__gen_vtype(at, sizeof at, clrs__gen_val_type(c), w);
    if (c->raw) /* forward: the one tensor read is src */
        clrs__gen_load_val(ld, sizeof ld, c, o, w);
    else
        clrs__gen_load_acc(ld, sizeof ld, c, r, ptr, o, w, 0);
    if (pad) {
        clrs__gen_sb_add(b, "%s %s;\n", at, name);
        clrs__gen_sb_add(b, "if (%s < 0)\n    %s = (%s)(pad);\n", o, name, at);
        clrs__gen_sb_add(b, "else\n    %s = %s;\n", name, ld);
    } else {
        clrs__gen_sb_add(b, "const %s %s = %s;\n", at, name, ld);
    }
}

void clrs__gen_emit_max_step(sbuf *b, const clrs_gen_config *c, int w,
                             const char *val, const char *code)
{
    char ot[16], mt[16];

    clrs__gen_vtype(ot, sizeof ot, clrs__gen_off_type(c), w);
    clrs__gen_vtype(mt, sizeof mt, c->acc_f64 ? "long" : "int", w);
    if (w > 1)
        clrs__gen_sb_add(b,
                         "CLRS_MAX_STEPV(%s, convert_%s, %s, best, have, stop, "
                         "win, (%s)(%s));\n",
                         mt, ot, val, ot, code);
    else
        clrs__gen_sb_add(b, "CLRS_MAX_STEP(%s, best, have, stop, win, %s);\n",
                         val, code);
}
