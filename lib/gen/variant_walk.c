/* The walk variant (variant.h), its test, construction and work-item: a
 * row of span groups, each row of the outer slots read once for all of
 * them. */
#include "gen/gen_emit.h"
#include "gen/variant_lower.h"

#include <stdio.h>

/* ---- lowering: the test and the construction ---------------------------- */

/* Most span groups one work-item walks: its accumulators (a private
 * array of this many vectors, 2 KiB at 16 f32 lanes) and a row of up to
 * 512 f32 outputs. A longer row stays one group per work-item (walking
 * it in pieces was slower than not walking at all), but for a backward
 * sum of 1- or 2-byte elements whose neighbouring rows' taps do not
 * overlap (walk_pieces). */
#define WALK_MAX_GROUPS 32

/* Whether a row longer than WALK_MAX_GROUPS groups is walked in pieces
 * of that many: a backward sum (reading diff_dst) of elements of 2
 * bytes or fewer, where no two neighbouring rows of kernel axis 1 read
 * one row (nearest's backward, not linear's). Such a group of 16 narrow
 * elements is too little work for a work-item of its own, and each
 * piece reads its rows once, front to back. On PoCL (AMD EPYC, AVX-512,
 * 2026-12-02, interleaved runs, least of 2) the backward of nearest 2x
 * up of 3 channels (1360x4096 u8 and s8, 1360x2048 f16 and bf16, both
 * layouts) took 0.56-0.79x the time; the same in f32, f64 and s32
 * 1.06-1.45x, and linear's backward (whose rows overlap, walked four
 * rows a work-item) 1.07-1.16x in the narrow types, so those stay one
 * group a work-item. */
static int walk_pieces(const vtry *t, const clrs_gen_config *c)
{
    const size_t src = clrs_dtype_size(c->src), dst = clrs_dtype_size(c->dst);

    return t->p->backward && src <= 2 && dst <= 2 && t->m > 1 &&
           t->k[1].slot >= 0 &&
           !clrs__lower_taps_overlap(t->p, t->st, t->k[1].slot, t->d->gather);
}

/* Span groups per work-item: a weighted sum on the span path (groups of
 * V) over two or more slots whose row (kernel axis 0) has 2 to
 * WALK_MAX_GROUPS groups (or more, in pieces of that many, where
 * walk_pieces says) walks it whole where the request says so (by
 * default where the rows it reads are new ones: forward where no outer
 * slot upsamples, backward, which reads diff_dst, where none
 * downsamples; under -2, forward also only where neighbouring rows'
 * taps do not overlap), in the power of two of groups that covers it (a
 * few kernels serve every row length); else 1. */
static int walk_groups(const vtry *t, const clrs_gen_config *c, int V)
{
    const clrs_problem *p = t->p;
    const clrs_launch_request *r = t->r;
    int64_t groups = (t->k[0].n + V - 1) / V;
    int g = 2, k;

    if (c->cls != CLRS_GEN_WSUM || c->nslots < 2 || r->walk == 0 ||
        groups < 2 || (groups > WALK_MAX_GROUPS && !walk_pieces(t, c)))
        return 1;
    if (groups > WALK_MAX_GROUPS)
        groups = WALK_MAX_GROUPS;
    for (k = 0; r->walk < 0 && k + 1 < p->naxes; ++k)
        if (p->backward ? p->ax[k].out < p->ax[k].in
                        : p->ax[k].out > p->ax[k].in)
            return 1;
    if (r->walk == -2 && !p->backward && t->m > 1 && t->k[1].slot >= 0 &&
        clrs__lower_taps_overlap(p, t->st, t->k[1].slot, t->d->gather))
        return 1;
    while (g < groups)
        g *= 2;
    return g;
}

int clrs__variant_applies_WALK(const vtry *t)
{
    int V = clrs__span_lanes(t);
    /* Walked groups read their base and pattern from the tables. */
    return V > 1 && !t->p->calc && walk_groups(t, &t->low->cfg, V) > 1;
}

clrs_status clrs__variant_make_WALK(vtry *t, int *made)
{
    clrs_gen_config *c = &t->low->cfg;
    CLRS_TRY(clrs__span_make(t));
    if (t->span_kept)
        c->walk = walk_groups(t, c, c->vec);
    *made = t->span_kept;
    return CLRS_SUCCESS;
}

/* ---- generator: the work-item ------------------------------------------- */

/* A walked row's accumulators, one per group: zeros, or (backward,
 * accumulating) diff_src's values for the pattern groups. */
static void emit_walk_init(sbuf *b, const clrs_gen_config *c, const char *at)
{
    const char *off = clrs__gen_off_type(c);
    const int V = c->vec;
    int k;

    clrs__gen_sb_add(b, "const %s i0w = i0, dofw = dof;\n", off);
    for (k = 0; k < c->npost; ++k)
        if (c->post[k].kind == CLRS_POST_BINARY)
            clrs__gen_sb_add(b, "const %s bo%dw = bo%d;\n", off, k, k);
    clrs__gen_sb_add(b, "%s wacc[%d];\n", at, clrs__gen_walk_of(c));
    if (c->backward && c->accumulate) {
        /* Only a pattern group is whole: the others load their own. */
        char o[32], ld[192];
        snprintf(o, sizeof o, "dofw + g * %d", V);
        clrs__gen_load_acc(ld, sizeof ld, c, clrs__gen_row_of(c->dst), "dst", o,
                           V, 0);
        clrs__gen_sb_add(b,
                         "for (%s g = 0; g < gn; ++g)\n"
                         "    wacc[g] = itab[pg + 2 * (gq0 + g) + 1] >= 0 ? "
                         "%s : (%s)(0);\n",
                         off, ld, at);
    } else {
        clrs__gen_sb_add(
            b, "for (%s g = 0; g < gn; ++g)\n    wacc[g] = (%s)(0);\n", off,
            at);
    }
}

/* The row's reads: the loops over the outer slots, each row they name
 * read once for every pattern group of the work-item. */
static void emit_walk_sum(sbuf *b, const clrs_gen_config *c, const char *at)
{
    const char *off = clrs__gen_off_type(c);
    const int V = c->vec, n = c->nslots, bwd = c->backward;
    int q;

    if (clrs__gen_has_none(c))
        clrs__gen_sb_open(b, "if (!none)");
    clrs__gen_emit_loops(b, c, "sob", bwd ? "iob" : NULL, n - 1, "i0");
    clrs__gen_sb_open(b, "for (%s g = 0; g < gn; ++g)", off);
    clrs__gen_sb_add(b,
                     "const %s gq = gq0 + g;\n"
                     "const %s pgp = itab[pg + 2 * gq + 1];\n",
                     off, off);
    clrs__gen_sb_open(b, "if (pgp >= 0)");
    clrs__gen_sb_add(
        b, "const %s pgb = itab[pg + 2 * gq], i0 = i0w + g * %d;\n", off, V);
    if (bwd)
        clrs__gen_sb_add(b, "const %s accp = wacc[g];\n%s acc = (%s)(0);\n", at,
                         at, at);
    else
        clrs__gen_sb_add(b, "%s acc = wacc[g];\n", at);
    for (q = 0; q < c->npat; ++q) {
        clrs__gen_emit_pattern_case(b, q, c->npat);
        if (bwd) {
            clrs__gen_emit_span_weights(b, c, q);
            clrs__gen_emit_span_gather(b, c, "sob", "iob", q);
        } else {
            clrs__gen_emit_span_reduce(b, c, "sob", q);
        }
    }
    if (c->npat > 1)
        clrs__gen_sb_close(b);
    clrs__gen_sb_add(b, "wacc[g] = %s;\n", bwd ? "accp + acc" : "acc");
    clrs__gen_sb_close(b);
    clrs__gen_sb_close(b);
    clrs__gen_emit_close_loops(b, n - 1);
    if (clrs__gen_has_none(c))
        clrs__gen_sb_close(b);
}

/* Each group's post-ops and store; groups without a pattern go lane by
 * lane. */
static void emit_walk_store(sbuf *b, const clrs_gen_config *c, const char *at)
{
    const char *off = clrs__gen_off_type(c);
    const int V = c->vec;
    int k;

    clrs__gen_sb_open(b, "for (%s g = 0; g < gn; ++g)", off);
    clrs__gen_sb_add(
        b,
        "const %s gq = gq0 + g;\n"
        "const %s pgb = itab[pg + 2 * gq], pgp = itab[pg + 2 * gq + "
        "1];\n"
        "const %s i0 = i0w + g * %d, dof = dofw + g * %d;\n",
        off, off, off, V, V);
    for (k = 0; k < c->npost; ++k)
        if (c->post[k].kind == CLRS_POST_BINARY)
            clrs__gen_sb_add(b, "const %s bo%d = bo%dw + g * %d * b%ds0;\n",
                             off, k, k, V, k);
    clrs__gen_sb_open(b, "if (pgp >= 0)");
    if (c->backward || !clrs__gen_has_none(c))
        clrs__gen_sb_add(b, "%s%s acc = wacc[g];\n",
                         c->backward ? "const " : "", at);
    else
        clrs__gen_sb_add(b,
                         "%s acc;\n"
                         "if (none)\n    acc = (%s)(empty);\n"
                         "else\n    acc = wacc[g];\n",
                         at, at);
    clrs__gen_emit_post(b, c, V, "dof", "acc", 0);
    clrs__gen_emit_store(b, c, V, "dof", "acc");
    clrs__gen_sb_else(b, "else");
    clrs__gen_emit_group_lanes(b, c);
    clrs__gen_sb_close(b);
    clrs__gen_sb_close(b);
}

/* A work-item of gn span groups (c->walk at most) along kernel axis 0,
 * from i0 on: the outer slots' loops outermost, and inside each entry
 * every group's last-slot taps (forward) or entries (backward), into one
 * accumulator per group (wacc). Each row the outer slots name is then
 * read once, front to back, for all the groups, where a work-item per
 * group reads its slice of each row in turn: on a CPU the hardware
 * prefetcher follows one sequential stream far better than several
 * interleaved ones. Each group's sum runs in the order of the one-group
 * path (backward: a partial sum per entry of the last outer slot, added
 * to the running one), so results are bit-identical. Then per group the
 * store, or the lane-by-lane body of a group without a pattern. Group g
 * is at i0 + g * vec of the read and written tensors (both contiguous
 * along the last slot) and of binary operands (their axis-0 stride). */
void clrs__gen_item_WALK(sbuf *b, const clrs_gen_config *c, const body_at *at)
{
    char acc[16];

    (void)at;
    clrs__gen_vtype(acc, sizeof acc, clrs__gen_val_type(c), c->vec);
    emit_walk_init(b, c, acc);
    emit_walk_sum(b, c, acc);
    emit_walk_store(b, c, acc);
}
