/* The backward gather: one work-item per diff_src element (or vector of
 * a contiguous identity axis, or group of the span path along the last
 * slot) walks the Cartesian product of the transposed tap lists of its
 * input indices, slot 0 outermost and each list by increasing output
 * index, so the sum is formed in one fixed order on every run (no
 * atomics: bit-identical results). */
#include "gen/gen_emit.h"

/* Max recompute: the argmax of forward output (u0, u1, ...) over x, as
 * the forward kernel finds it (same taps, order, tie and NaN rules), its
 * plane code into `win`. */
static void emit_argmax(sbuf *b, const clrs_gen_config *c, int w,
                        const char *xo)
{
    const char *off = clrs__gen_off_type(c), *acc = clrs__gen_acc_type(c);
    char at[16], ot[16], mt[16], yo[32], gc[16];
    int n = c->nslots, k;

    clrs__gen_vtype(at, sizeof at, acc, w);
    clrs__gen_vtype(ot, sizeof ot, off, w);
    clrs__gen_vtype(mt, sizeof mt, c->acc_f64 ? "long" : "int", w);
    clrs__gen_sb_add(b, "%s best = (%s)(NAN);\n", at, at);
    /* An all-NaN window under NaN ignore reports its first tap. */
    clrs__gen_sb_add(b, "%s win = (%s)(0", ot, ot);
    for (k = 0; k < n; ++k)
        clrs__gen_sb_add(b, " + itab[fcd%d + itab[fst%d + u%d]]", k, k, k);
    clrs__gen_sb_add(b, ");\n");
    if (c->nan_ignore)
        ; /* a number in best says a tap was taken (cl/reduce.cl) */
    else if (w > 1)
        clrs__gen_sb_add(b, "%s have = (%s)(0);\n", mt, mt);
    else
        clrs__gen_sb_add(b, "int have = 0;\n");
    for (k = 0; k < n; ++k) {
        clrs__gen_sb_open(
            b,
            "for (%s s%d = itab[fst%d + u%d]; s%d < itab[fst%d + u%d + "
            "1]; ++s%d)",
            off, k, k, k, k, k, k, k);
        if (k == 0)
            clrs__gen_sb_add(b,
                             "const %s y0 = %s + itab[fof0 + s0];\n"
                             "const %s g0 = itab[fcd0 + s0];\n",
                             off, xo, off);
        else
            clrs__gen_sb_add(b,
                             "const %s y%d = y%d + itab[fof%d + s%d];\n"
                             "const %s g%d = g%d + itab[fcd%d + s%d];\n",
                             off, k, k - 1, k, k, off, k, k - 1, k, k);
    }
    /* The innermost tap: x offset y<n-1> and plane code g<n-1>. */
    if (n) {
        snprintf(yo, sizeof yo, "y%d", n - 1);
        snprintf(gc, sizeof gc, "g%d", n - 1);
    } else {
        snprintf(yo, sizeof yo, "%s", xo);
        snprintf(gc, sizeof gc, "0");
    }
    clrs__gen_emit_value(b, c, clrs__gen_row_of(c->x), "x", "xv", w, yo,
                         c->pad_taps && n);
    clrs__gen_emit_max_step(b, c, w, "xv", gc);
    clrs__gen_emit_close_loops(b, n);
}

void clrs__gen_emit_span_weights(sbuf *b, const clrs_gen_config *c, int q)
{
    const char *acc = clrs__gen_acc_type(c);
    char at[16];
    int t;

    clrs__gen_vtype(at, sizeof at, acc, c->vec);
    for (t = 0; t < c->ntaps; ++t)
        if (!clrs__gen_pick_used(c, c->rel[q][t]))
            continue;
        else if (c->unitw)
            clrs__gen_sb_add(b, "const %s g%d = (%s)(1);\n", at, t, at);
        else
            clrs__gen_sb_add(b,
                             "const %s g%d = CLRS_VLOAD(%s, %d, ftab, fg + "
                             "(gq * %d + %d) * %d);\n",
                             at, t, acc, c->vec, c->ntaps, t, c->vec);
}

/* Weighted sums: one entry's weight serves every vector of the
 * work-item: acc, acc1, ... at o, o + w, ... (one vector: acc and v at
 * o). */
static void emit_gather_wsum(sbuf *b, const clrs_gen_config *c, int w,
                             const char *o)
{
    const int M = clrs__gen_mvec_of(c, w), n = c->nslots;
    int mm;
    char om[48], vm[16];

    for (mm = 0; mm < M; ++mm) {
        if (M > 1) {
            snprintf(om, sizeof om, "(%s + %d)", o, mm * w);
            snprintf(vm, sizeof vm, "v%d", mm);
        } else {
            snprintf(om, sizeof om, "%s", o);
            snprintf(vm, sizeof vm, "v");
        }
        clrs__gen_emit_value(b, c, clrs__gen_row_of(c->src), "src", vm, w, om,
                             0);
        if (n)
            clrs__gen_sb_add(b, "CLRS_WSUM_STEP(%s, w%d, %s);\n",
                             clrs__gen_acc_name(mm), n - 1, vm);
        else
            clrs__gen_sb_add(b, "%s += %s;\n", clrs__gen_acc_name(mm), vm);
    }
}

/* Max: dy[o] goes to this element when o's argmax is this element. An
 * index value no tap has (out of range, or a padding tap's) matches no
 * element: it sends nowhere and is never used as an address. */
static void emit_gather_max(sbuf *b, const clrs_gen_config *c, int w,
                            const char *io, const char *xo, const char *o)
{
    const char *off = clrs__gen_off_type(c);
    const int n = c->nslots, window = c->has_index && !c->plane;
    char mt[16], ok[24], code[24];

    clrs__gen_vtype(mt, sizeof mt, clrs__gen_mask_type(c), w);
    clrs__gen_emit_value(b, c, clrs__gen_row_of(c->src), "src", "v", w, o, 0);
    if (c->recompute) {
        emit_argmax(b, c, w, xo);
        snprintf(code, sizeof code, "myp");
    } else if (window) {
        if (n)
            snprintf(code, sizeof code, "c%d", n - 1);
        else
            snprintf(code, sizeof code, "0");
    } else {
        snprintf(code, sizeof code, "myp");
    }
    if (n)
        snprintf(ok, sizeof ok, "q%d", n - 1);
    else
        snprintf(ok, sizeof ok, "%s", io);
    if (c->recompute && w > 1) {
        char ot[16];
        clrs__gen_vtype(ot, sizeof ot, off, w);
        clrs__gen_sb_add(
            b, "acc = select(acc, acc + v, convert_%s(win == (%s)(myp)));\n",
            mt, ot);
    } else if (c->recompute) {
        clrs__gen_sb_add(b, "if (win == myp)\n    acc += v;\n");
    } else if (w > 1) {
        const char *ix = clrs__gen_index_type(c);
        clrs__gen_sb_add(b,
                         "acc = select(acc, acc + v, convert_%s(convert_%s%d("
                         "vload%d(0, index + %s)) == (%s%d)(%s)));\n",
                         mt, ix, w, w, ok, ix, w, code);
    } else {
        clrs__gen_sb_add(
            b, "if ((long)index[%s] == (long)(%s))\n    acc += v;\n", ok, code);
    }
}

/* The gather of one diff_src element (w == 1) or w consecutive ones into
 * the declared acc: the loop nest over every slot's transposed entries,
 * the last slot's replaced by pattern q's shuffles on the span path. */
void clrs__gen_emit_gather(sbuf *b, const clrs_gen_config *c, int w,
                           const char *so, const char *io, const char *xo,
                           int q)
{
    char o[16];
    int n = c->nslots, wsum = c->cls == CLRS_GEN_WSUM;
    int span = c->span && w > 1, nloops = span ? n - 1 : n;

    /* The group's weights, once for every entry of the other slots. */
    if (span && wsum)
        clrs__gen_emit_span_weights(b, c, q);
    clrs__gen_emit_split_open(b, c, so, io, nloops, "i0", wsum, w);
    if (span) {
        clrs__gen_emit_span_gather(b, c, so, io, q);
        clrs__gen_emit_split_close(b, c, nloops, wsum, w);
        return;
    }
    if (n)
        snprintf(o, sizeof o, "o%d", n - 1);
    else
        snprintf(o, sizeof o, "%s", so);
    if (wsum) {
        emit_gather_wsum(b, c, w, o);
        clrs__gen_emit_split_close(b, c, nloops, wsum, w);
        return;
    }
    emit_gather_max(b, c, w, io, xo, o);
    clrs__gen_emit_close_loops(b, n);
}
