/* The loop nest over the resampled slots' lists and the value loads,
 * shared by the forward reduction and the backward gather. */
#include "gen_emit.h"

/* The loop nest over the entries of slots 0 .. nloops - 1, slot order
 * (row-major window order, as the reference walks it), the `for` of
 * slot k indented by in0 + 4 k. Innermost: `o` is the read offset
 * (negative for a padding tap), `w` the weight product (weighted sum),
 * `c` the code sum (forward max: window or plane codes; backward: window
 * codes). Backward also: `q` the index tensor's offset and, to recompute
 * the argmax, `u` the output index of each slot. */
void emit_loops(sbuf *b, const clrs_gen_config *c, const char *so,
                const char *io, int nloops, const char *i0name, int in0)
{
    emit_loops_from(b, c, so, io, 0, nloops, i0name, in0);
}

void emit_loops_from(sbuf *b, const clrs_gen_config *c, const char *so,
                     const char *io, int k0, int nloops, const char *i0name,
                     int in0)
{
    const char *off = off_type(c), *acc = acc_type(c);
    const int bwd = c->backward, wsum = c->cls == CLRS_GEN_WSUM;
    const int codes = bwd ? c->has_index && !c->plane : c->has_index;
    const char x = bwd ? 't' : 'x'; /* the entry's table position */
    int k;

    for (k = k0; k < nloops; ++k) {
        int in = in0 + 4 * k, body = in + 4; /* indentation */
        char ip[16];
        if (axis_of_slot(c, k) == 0)
            snprintf(ip, sizeof ip, "%s", i0name);
        else
            snprintf(ip, sizeof ip, "i%d", axis_of_slot(c, k));
        /* A constant trip count unrolled leaves the work-item loop PoCL
         * wraps around the kernel innermost, so it can vectorise it. */
        if (c->fixed[k])
            sb_add(b, "%*s#pragma unroll\n", in, "");
        /* x: the tap's table position. Fixed-count tables are stored
         * tap-major (position t * O + o), so consecutive work-items read
         * consecutive entries and no two loads of one work-item are
         * adjacent (which the SLP vectoriser would fuse into a short
         * vector that then blocks vectorising the work-item loop). O is
         * the axis' real size (nr) where the written tensor blocks it:
         * n then counts the padding lanes, which have no taps. */
        if (c->fixed[k])
            sb_add(b,
                   "%*sfor (%s t%d = 0; t%d < %d; ++t%d) {\n"
                   "%*sconst %s x%d = t%d * %s%d + %s;\n",
                   in, "", off, k, k, c->fixed[k], k, body, "", off, k, k,
                   c->ax[axis_of_slot(c, k)].dst_block ? "nr" : "n",
                   axis_of_slot(c, k), ip);
        else
            sb_add(b, "%*sfor (%s t%d = b%d; t%d < e%d; ++t%d) {\n", in, "",
                   off, k, k, k, k, k);
        if (!c->fixed[k] && !bwd)
            sb_add(b, "%*sconst %s x%d = t%d;\n", body, "", off, k, k);
        if (k == 0)
            sb_add(b, "%*sconst %s o0 = %s + itab[of0 + %c0];\n", body, "",
                   off, so, x);
        else
            sb_add(b, "%*sconst %s o%d = o%d + itab[of%d + %c%d];\n", body,
                   "", off, k, k - 1, k, x, k);
        if (wsum && k == 0)
            sb_add(b, "%*sconst %s w0 = ftab[fw0 + %c0];\n", body, "", acc,
                   x);
        else if (wsum)
            sb_add(b, "%*sconst %s w%d = w%d * ftab[fw%d + %c%d];\n", body,
                   "", acc, k, k - 1, k, x, k);
        if (bwd && c->has_index && k == 0)
            sb_add(b, "%*sconst %s q0 = %s + itab[ix0 + t0];\n", body, "",
                   off, io);
        else if (bwd && c->has_index)
            sb_add(b, "%*sconst %s q%d = q%d + itab[ix%d + t%d];\n", body,
                   "", off, k, k - 1, k, k);
        if (codes && k == 0)
            sb_add(b, "%*sconst %s c0 = itab[cd0 + %c0];\n", body, "", off,
                   x);
        else if (codes)
            sb_add(b, "%*sconst %s c%d = c%d + itab[cd%d + %c%d];\n", body,
                   "", off, k, k - 1, k, x, k);
        if (c->recompute)
            sb_add(b, "%*sconst %s u%d = itab[cd%d + t%d];\n", body, "", off,
                   k, k, k);
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

void emit_split_open(sbuf *b, const clrs_gen_config *c, const char *so,
                     const char *io, int nloops, const char *i0name,
                     int in0, int wsum, int w)
{
    const int n = c->nslots;
    char at[16];
    int m;

    if (!split_acc(c, wsum)) {
        emit_loops(b, c, so, io, nloops, i0name, in0);
        return;
    }
    vtype(at, sizeof at, acc_type(c), w);
    emit_loops_from(b, c, so, io, 0, n - 1, i0name, in0);
    for (m = 0; m < mvec_of(c, w); ++m) {
        sb_add(b, "%*sconst %s %sp = %s;\n", in0 + 4 * (n - 1), "", at,
               acc_name(m), acc_name(m));
        sb_add(b, "%*s%s = (%s)(0);\n", in0 + 4 * (n - 1), "", acc_name(m),
               at);
    }
    emit_loops_from(b, c, so, io, n - 1, nloops, i0name, in0);
}

void emit_split_close(sbuf *b, const clrs_gen_config *c, int nloops,
                      int in0, int wsum, int w)
{
    const int n = c->nslots;
    int k, m;

    if (!split_acc(c, wsum)) {
        emit_close_loops(b, nloops, in0);
        return;
    }
    for (k = nloops; k > n - 1; --k)
        sb_add(b, "%*s}\n", in0 + 4 * (k - 1), "");
    for (m = 0; m < mvec_of(c, w); ++m)
        sb_add(b, "%*s%s = %sp + %s;\n", in0 + 4 * (n - 1), "",
               acc_name(m), acc_name(m), acc_name(m));
    emit_close_loops(b, n - 1, in0);
}

void emit_close_loops(sbuf *b, int nloops, int in0)
{
    int k;
    for (k = nloops; k > 0; --k)
        sb_add(b, "%*s}\n", in0 + 4 * (k - 1), "");
}

void emit_value(sbuf *b, const clrs_gen_config *c, const dtype_row *r,
                const char *ptr, const char *name, int w, const char *o,
                const char *ind, int pad)
{
    const char *acc = acc_type(c);
    char at[16], ld[96], conv[32] = "";

    vtype(at, sizeof at, acc, w);
    if (w > 1)
        snprintf(ld, sizeof ld, "CLRS_LDV_%s(%d, %s, %s)", r->name, w, ptr,
                 o);
    else
        snprintf(ld, sizeof ld, "CLRS_LD_%s(%s, %s)", r->name, ptr, o);
    if (strcmp(r->nat, acc) != 0) {
        if (w > 1)
            snprintf(conv, sizeof conv, "convert_%s%d", acc, w);
        else
            snprintf(conv, sizeof conv, "convert_%s", acc);
    }
    if (pad) {
        sb_add(b, "%s%s %s;\n", ind, at, name);
        sb_add(b, "%sif (%s < 0)\n%s    %s = (%s)(pad);\n", ind, o, ind,
               name, at);
        sb_add(b, "%selse\n%s    %s = %s(%s);\n", ind, ind, name, conv, ld);
    } else {
        sb_add(b, "%sconst %s %s = %s(%s);\n", ind, at, name, conv, ld);
    }
}

void emit_max_step(sbuf *b, const clrs_gen_config *c, int w, const char *ind,
                   const char *val, const char *code)
{
    char ot[16], mt[16];

    vtype(ot, sizeof ot, off_type(c), w);
    vtype(mt, sizeof mt, c->acc_f64 ? "long" : "int", w);
    if (w > 1)
        sb_add(b,
               "%sCLRS_MAX_STEPV(%s, convert_%s, %s, best, have, stop, "
               "win, (%s)(%s));\n",
               ind, mt, ot, val, ot, code);
    else
        sb_add(b, "%sCLRS_MAX_STEP(%s, best, have, stop, win, %s);\n", ind,
               val, code);
}
