/* The forward reduction: the loop nest over the taps of every resampled
 * axis and the weighted sum or max of the values they read. */
#include "gen/gen_emit.h"

/* Before the loops: the accumulators' start and, for an output that may
 * have no taps (none), the branch around them (weighted sum: the empty
 * value; max: NaN and the initial code), left open. With an index, an all-NaN
 * window under NaN ignore reports its first tap's code. */
static void emit_reduce_start(sbuf *b, const clrs_gen_config *c, int w,
                              const char *i0name, int nloops, const char *none)
{
    const int n = c->nslots;
    char at[16], ot[16], mt[16];
    int k;

    clrs__gen_vtype(at, sizeof at, clrs__gen_val_type(c), w);
    clrs__gen_vtype(ot, sizeof ot, clrs__gen_off_type(c), w);
    clrs__gen_vtype(mt, sizeof mt, c->acc_f64 ? "long" : "int", w);
    if (c->cls == CLRS_GEN_WSUM) {
        const int M = clrs__gen_mvec_of(c, w);
        int m;
        for (m = 0; m < M; ++m)
            clrs__gen_sb_add(b, "%s = (%s)(0);\n", clrs__gen_acc_name(m), at);
        if (none) {
            clrs__gen_sb_open(b, "if (%s)", none);
            for (m = 0; m < M; ++m)
                clrs__gen_sb_add(b, "%s = (%s)(empty);\n",
                                 clrs__gen_acc_name(m), at);
            clrs__gen_sb_else(b, "else");
        }
        return;
    }
    if (c->raw) { /* the type's least value: every window has a tap */
        clrs__gen_sb_add(b, "best = (%s)(%s);\n", at,
                         c->dst == CLRS_S8    ? "-128"
                         : c->dst == CLRS_S32 ? "-2147483647 - 1"
                                              : "0");
        /* The first tap is taken whatever its value (the step's first):
         * its code replaces this one. */
        if (c->has_index) {
            clrs__gen_vtype(ot, sizeof ot, clrs__gen_win_type(c, w), w);
            clrs__gen_sb_add(b, "win = (%s)(0);\n", ot);
        }
        if (none)
            clrs__gen_sb_open(b, "if (!%s)", none);
        return;
    }
    clrs__gen_sb_add(b, "best = (%s)(NAN);\n", at);
    clrs__gen_sb_add(b, "win = (%s)(%d);\n", ot, c->plane ? -1 : 0);
    if (c->nan_ignore)
        ; /* a number in best says a tap was taken (cl/reduce.cl) */
    else if (w > 1)
        clrs__gen_sb_add(b, "have = (%s)(0);\n", mt);
    else
        clrs__gen_sb_add(b, "have = 0;\n");
    if (none)
        clrs__gen_sb_open(b, "if (!%s)", none);
    if (!c->has_index || n == 0)
        return;
    clrs__gen_sb_add(b, "win = (%s)(0", ot);
    for (k = 0; k < nloops; ++k)
        if (c->fixed[k] && clrs__gen_axis_of_slot(c, k) == 0)
            clrs__gen_sb_add(b, " + itab[cd%d + %s]", k, i0name);
        else if (c->fixed[k])
            clrs__gen_sb_add(b, " + itab[cd%d + i%d]", k,
                             clrs__gen_axis_of_slot(c, k));
        else
            clrs__gen_sb_add(b, " + itab[cd%d + b%d]", k, k);
    clrs__gen_sb_add(b, ")");
    /* Span vector path: the last slot's first taps, one per lane
     * (tap-major table: contiguous). */
    if (nloops < n)
        clrs__gen_sb_add(b, " + vload%d(0, itab + cd%d + i0)", w, n - 1);
    clrs__gen_sb_add(b, ";\n");
}

/* The innermost tap's value v into the accumulators. */
static void emit_reduce_step(sbuf *b, const clrs_gen_config *c, int w,
                             const char *acc, const char *v)
{
    const int n = c->nslots;
    char code[24];

    if (c->cls == CLRS_GEN_WSUM) {
        if (n > 0 && !c->raw)
            clrs__gen_sb_add(b, "CLRS_WSUM_STEP(%s, w%d, %s);\n", acc, n - 1,
                             v);
        else
            clrs__gen_sb_add(b, "%s = %s;\n", acc, v);
        return;
    }
    if (c->has_index && n > 0)
        snprintf(code, sizeof code, "c%d", n - 1);
    else
        snprintf(code, sizeof code, "0");
    if (c->raw && c->has_index)
        clrs__gen_emit_raw_max_step(b, c, w, v, code, n);
    else if (c->raw)
        clrs__gen_sb_add(b, "best = max(best, %s);\n", v);
    else
        clrs__gen_emit_max_step(b, c, w, "v", code);
}

/* A fused plan's fold (clrs_gen_config.fold) into acc: a span group's
 * sums of slot 0 first, then the last slot's pattern q over them
 * (gen_span.c); one output (a lane of a group without a pattern) the
 * same nesting, the last slot's taps outermost, each weighing its
 * element's sum over slot 0 from 0. */
static void emit_fold(sbuf *b, const clrs_gen_config *c, int w, const char *so,
                      const char *i0name, int q)
{
    const char *off = clrs__gen_off_type(c);
    char vt[16];

    if (w > 1) {
        clrs__gen_emit_span_fold_open(b, c, q);
        clrs__gen_emit_loops(b, c, so, NULL, c->nslots - 1, i0name);
        clrs__gen_emit_span_fold_row(b, c, q);
        clrs__gen_emit_close_loops(b, c->nslots - 1);
        clrs__gen_emit_span_fold_taps(b, c, q);
        return;
    }
    clrs__gen_vtype(vt, sizeof vt, clrs__gen_val_type(c), 1);
    if (c->fixed[1]) {
        clrs__gen_sb_add(b, "#pragma unroll\n");
        clrs__gen_sb_open(b, "for (%s t1 = 0; t1 < %d; ++t1)", off,
                          c->fixed[1]);
        clrs__gen_sb_add(b, "const %s x1 = t1 * n0 + %s;\n", off, i0name);
    } else {
        clrs__gen_sb_open(b, "for (%s t1 = b1; t1 < e1; ++t1)", off);
        clrs__gen_sb_add(b, "const %s x1 = t1;\n", off);
    }
    clrs__gen_sb_add(b, "const %s o1 = itab[of1 + x1];\n", off);
    clrs__gen_emit_slot_weight(b, c, 1);
    clrs__gen_sb_add(b, "%s h = (%s)(0);\n", vt, vt);
    clrs__gen_emit_loops(b, c, so, NULL, 1, i0name);
    clrs__gen_emit_value(b, c, clrs__gen_row_of(c->src), "src", "v", 1,
                         "(o0 + o1)", 0);
    clrs__gen_sb_add(b, "CLRS_WSUM_STEP(h, w0, v);\n");
    clrs__gen_emit_close_loops(b, 1);
    clrs__gen_sb_add(b, "CLRS_WSUM_STEP(acc, w1, h);\n");
    clrs__gen_sb_close(b);
}

/* The reduction of one output (w == 1) or w consecutive outputs along
 * kernel axis 0 into the declared acc (weighted sum) or best / win /
 * have (max); pat: the span vector path's pattern, whose shuffles
 * replace the last slot's loop. */
void clrs__gen_emit_reduce(sbuf *b, const clrs_gen_config *c, int w,
                           const char *so, const char *i0name, int pat,
                           const char *none)
{
    const int n = c->nslots;
    const int span = c->span && w > 1, nloops = span ? n - 1 : n;
    char inner[16];

    if (n > 0)
        snprintf(inner, sizeof inner, "o%d", n - 1);
    else
        snprintf(inner, sizeof inner, "%s", so);
    emit_reduce_start(b, c, w, i0name, nloops, none);
    /* A fixed-point fold (variant_span.c) is a span group's alone: one
     * output's integer sums come out the same in the usual nesting. */
    if (c->fold && (w > 1 || !c->fix)) {
        emit_fold(b, c, w, so, i0name, pat);
        if (none)
            clrs__gen_sb_close(b);
        return;
    }
    clrs__gen_emit_loops(b, c, so, NULL, nloops, i0name);
    if (span) {
        clrs__gen_emit_span_reduce(b, c, so, pat);
    } else if (clrs__gen_mvec_of(c, w) > 1) {
        /* Vectors at inner, inner + w, ...: one tap's weight for all. */
        int m;
        char om[48], vm[16];
        for (m = 0; m < clrs__gen_mvec_of(c, w); ++m) {
            snprintf(om, sizeof om, "(%s + %d)", inner, m * w);
            snprintf(vm, sizeof vm, "v%d", m);
            clrs__gen_emit_value(b, c, clrs__gen_row_of(c->src), "src", vm, w,
                                 om, 0);
            emit_reduce_step(b, c, w, clrs__gen_acc_name(m), vm);
        }
    } else {
        clrs__gen_emit_value(b, c, clrs__gen_row_of(c->src), "src", "v", w,
                             inner, c->pad_taps);
        emit_reduce_step(b, c, w, "acc", "v");
    }
    clrs__gen_emit_close_loops(b, nloops);
    if (none)
        clrs__gen_sb_close(b);
}
