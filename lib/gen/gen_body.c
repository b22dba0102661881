/* The kernel body: one written element or w consecutive ones, the
 * accumulators, the forward reduction (gen_reduce.c) or the backward
 * gather (gen_gather.c) per span pattern, then the post-ops and the store
 * (gen_store.c); and the two shapes the variants' work-items wrap around
 * it: a span group lane by lane, and a vector with its scalar tail. */
#include "gen/gen_emit.h"

#include <stdio.h>

/* The accumulators of one body. Forward: declared, each pattern's
 * reduction sets them. Backward: the gather adds to acc, which starts at
 * the old diff_src under accumulation (beta = 1) and at 0 otherwise. */
static void emit_accumulators(sbuf *b, const clrs_gen_config *c, int w,
                              const char *dof)
{
    const char *acc = clrs__gen_val_type(c);
    const dtype_row *d = clrs__gen_row_of(c->dst);
    char at[16], ot[16], mt[16];

    clrs__gen_vtype(at, sizeof at, acc, w);
    clrs__gen_vtype(ot, sizeof ot, clrs__gen_off_type(c), w);
    clrs__gen_vtype(mt, sizeof mt, c->acc_f64 ? "long" : "int", w);
    if (!c->backward && c->cls == CLRS_GEN_WSUM) {
        int m;
        for (m = 0; m < clrs__gen_mvec_of(c, w); ++m)
            clrs__gen_sb_add(b, "%s %s;\n", at, clrs__gen_acc_name(m));
    } else if (!c->backward) {
        clrs__gen_sb_add(b, "%s best;\n%s win;\n", at, ot);
        clrs__gen_sb_add(b, "%s have, stop;\n", w > 1 ? mt : "int");
    } else if (c->accumulate) {
        int m;
        char o[48], ld[192];
        for (m = 0; m < clrs__gen_mvec_of(c, w); ++m) {
            if (w > 1)
                snprintf(o, sizeof o, "%s + %d", dof, m * w);
            else
                snprintf(o, sizeof o, "%s", dof);
            clrs__gen_load_acc(ld, sizeof ld, c, d, "dst", o, w, 0);
            clrs__gen_sb_add(b, "%s %s = %s;\n", at, clrs__gen_acc_name(m), ld);
        }
    } else {
        int m;
        for (m = 0; m < clrs__gen_mvec_of(c, w); ++m)
            clrs__gen_sb_add(b, "%s %s = (%s)(0);\n", at, clrs__gen_acc_name(m),
                             at);
    }
}

/* A forward max pooling's index output: the winning code (plane codes of
 * padding taps are negative: the index is -1). */
static void emit_index_store(sbuf *b, const clrs_gen_config *c, int w,
                             const char *io)
{
    const char *it = clrs__gen_index_ctype(c->index);
    char ot[16];

    clrs__gen_vtype(ot, sizeof ot, clrs__gen_off_type(c), w);
    if (c->plane && w > 1)
        clrs__gen_sb_add(b, "win = select(win, (%s)(-1), win < (%s)(0));\n", ot,
                         ot);
    else if (c->plane)
        clrs__gen_sb_add(b, "if (win < 0)\n    win = -1;\n");
    if (w > 1)
        clrs__gen_sb_add(b, "vstore%d(convert_%s%d(win), 0, index + %s);\n", w,
                         it, w, io);
    else
        clrs__gen_sb_add(b, "index[%s] = (%s)win;\n", io, it);
}

/* One written element (w == 1) or w consecutive ones along kernel axis
 * 0, inside the block the caller opened (the kernel's, an if's, a
 * for's): forward the reduction over the taps, backward the gather over
 * the transposed taps. On the span vector path each pattern has its own
 * reduction; the one store after them keeps its non-temporal hint (LLVM
 * drops it when it merges stores from several branches: half the
 * bandwidth on PoCL). */
void clrs__gen_emit_body(sbuf *b, const clrs_gen_config *c, int w,
                         const body_at *at)
{
    int q, npat = c->span && w > 1 ? c->npat : 1;
    const char *val = c->backward || c->cls == CLRS_GEN_WSUM ? "acc" : "best";

    emit_accumulators(b, c, w, at->dof);
    for (q = 0; q < npat; ++q) {
        clrs__gen_emit_pattern_case(b, q, npat);
        if (c->backward)
            clrs__gen_emit_gather(b, c, w, at->so, at->io, at->xo, q);
        else
            clrs__gen_emit_reduce(b, c, w, at->so, at->i0, q, at->none);
    }
    if (npat > 1)
        clrs__gen_sb_close(b);
    if (!c->index_only && clrs__gen_mvec_of(c, w) > 1) {
        /* Weighted sums without post-ops (variant_axis.c). */
        int m;
        char dofm[48];
        for (m = 0; m < clrs__gen_mvec_of(c, w); ++m) {
            snprintf(dofm, sizeof dofm, "(%s + %d)", at->dof, m * w);
            clrs__gen_emit_store(b, c, w, dofm, clrs__gen_acc_name(m));
        }
    } else if (!c->index_only) {
        clrs__gen_emit_post(b, c, w, at->dof, val, at->lane);
        clrs__gen_emit_store(b, c, w, at->dof, val);
    }
    if (!c->backward && c->cls == CLRS_GEN_MAX && c->has_index)
        emit_index_store(b, c, w, at->io);
}

/* Whether a span group's lanes are an unrolled loop (below). */
static int unrolled_lanes(const clrs_gen_config *c)
{
    return c->raw || (!c->backward && c->cls == CLRS_GEN_WSUM &&
                      clrs_dtype_size(c->dst) == 1);
}

/* A span group without a pattern, one lane at a time: the scalar body
 * at written element i0 + l of the last slot (every tensor is
 * contiguous there), with that lane's own tap range where the span path
 * does not read the ranges. */
void clrs__gen_emit_group_lanes(sbuf *b, const clrs_gen_config *c)
{
    const char *off = clrs__gen_off_type(c), *io = c->backward ? "iob" : "iof";
    int k = c->nslots - 1, own = c->backward || clrs__gen_span_var(c);
    body_at l = {"sob", "(dof + l)", NULL, "xob", "(i0 + l)", NULL, 1};
    char lio[16];

    l.none = clrs__gen_has_none(c) ? "none" : NULL;
    snprintf(lio, sizeof lio, "(%s + l)", io);
    l.io = c->backward ? io : lio;
    /* The lanes of a copy, or of a weighted sum into an 8-bit type: a
     * loop of constant trip count unrolled, each lane tested on its
     * own. The loop with the bound in its condition made the shuffled
     * groups beside it up to twice as slow on PoCL (its bookkeeping
     * spilled into the work-item loop): u8 nearest 2x up, nchw, 5.5 ->
     * 2.5-3.0 ms; u8 and s8 linear and cubic 0.5-0.85x the time. Other
     * types' sums, and max pooling, measured both ways by problem
     * (0.6-1.4x, f16 and bf16 0.99-1.03x at the median) and keep the
     * loop. */
    if (unrolled_lanes(c)) {
        clrs__gen_sb_add(b, "#pragma unroll\n");
        clrs__gen_sb_open(b, "for (%s l = 0; l < %d; ++l)", off, c->vec);
        clrs__gen_sb_open(b, "if (i0 + l < n0)");
    } else {
        clrs__gen_sb_open(b, "for (%s l = 0; l < %d && i0 + l < n0; ++l)", off,
                          c->vec);
    }
    if (own)
        clrs__gen_sb_add(b,
                         "const %s b%d = itab[st%d + i0 + l], "
                         "e%d = itab[st%d + i0 + l + 1];\n",
                         off, k, k, k, k);
    if (own && !c->backward) {
        clrs__gen_sb_add(b, "const int none_l = %sb%d == e%d;\n",
                         clrs__gen_has_none(c) ? "none || " : "", k, k);
        l.none = "none_l";
    }
    if (c->backward && c->has_index && c->plane)
        clrs__gen_sb_add(b, "const %s myp = myg + l;\n", off);
    clrs__gen_emit_body(b, c, 1, &l);
    clrs__gen_sb_close(b);
    if (unrolled_lanes(c))
        clrs__gen_sb_close(b);
}

/* A vector of c->vec outputs along kernel axis 0, and where the axis
 * does not divide, its tail element by element. */
void clrs__gen_emit_vector_item(sbuf *b, const clrs_gen_config *c,
                                const body_at *at)
{
    const char *off = clrs__gen_off_type(c);
    body_at l = {"(sob + l)", "(dof + l)", NULL, "(xob + l)", "i0", NULL, 1};
    char lio[16];

    if (!c->tail) {
        clrs__gen_emit_body(b, c, c->vec, at);
        return;
    }
    l.none = at->none;
    snprintf(lio, sizeof lio, "(%s + l)", at->io);
    l.io = lio;
    clrs__gen_sb_open(b, "if (i0 + %d <= n0)", c->vec);
    clrs__gen_emit_body(b, c, c->vec, at);
    clrs__gen_sb_else(b, "else");
    clrs__gen_sb_open(b, "for (%s l = 0; i0 + l < n0; ++l)", off);
    clrs__gen_emit_body(b, c, 1, &l);
    clrs__gen_sb_close(b);
    clrs__gen_sb_close(b);
}
