/* The walk variant's work-item (variant.h): a row of span groups. */
#include "gen_emit.h"

#include <stdio.h>

/* A walked row's accumulators, one per group: zeros, or (backward,
 * accumulating) diff_src's values for the pattern groups. */
static void emit_walk_init(sbuf *b, const clrs_gen_config *c, const char *at)
{
    const char *off = off_type(c);
    const int V = c->vec;
    int k;

    sb_add(b, "const %s i0w = i0, dofw = dof;\n", off);
    for (k = 0; k < c->npost; ++k)
        if (c->post[k].kind == CLRS_POST_BINARY)
            sb_add(b, "const %s bo%dw = bo%d;\n", off, k, k);
    sb_add(b, "%s wacc[%d];\n", at, walk_of(c));
    if (c->backward && c->accumulate) {
        /* Only a pattern group is whole: the others load their own. */
        char o[32], ld[192];
        snprintf(o, sizeof o, "dofw + g * %d", V);
        load_acc(ld, sizeof ld, c, row_of(c->dst), "dst", o, V, 0);
        sb_add(b,
               "for (%s g = 0; g < gn; ++g)\n"
               "    wacc[g] = itab[pg + 2 * (gq0 + g) + 1] >= 0 ? "
               "%s : (%s)(0);\n",
               off, ld, at);
    } else {
        sb_add(b,
               "for (%s g = 0; g < gn; ++g)\n    wacc[g] = (%s)(0);\n",
               off, at);
    }
}

/* The row's reads: the loops over the outer slots, each row they name
 * read once for every pattern group of the work-item. */
static void emit_walk_sum(sbuf *b, const clrs_gen_config *c, const char *at)
{
    const char *off = off_type(c);
    const int V = c->vec, n = c->nslots, bwd = c->backward;
    int q;

    if (has_none(c))
        sb_open(b, "if (!none)");
    emit_loops(b, c, "sob", bwd ? "iob" : NULL, n - 1, "i0");
    sb_open(b, "for (%s g = 0; g < gn; ++g)", off);
    sb_add(b,
           "const %s gq = gq0 + g;\n"
           "const %s pgp = itab[pg + 2 * gq + 1];\n",
           off, off);
    sb_open(b, "if (pgp >= 0)");
    sb_add(b, "const %s pgb = itab[pg + 2 * gq], i0 = i0w + g * %d;\n", off,
           V);
    if (bwd)
        sb_add(b, "const %s accp = wacc[g];\n%s acc = (%s)(0);\n", at, at,
               at);
    else
        sb_add(b, "%s acc = wacc[g];\n", at);
    for (q = 0; q < c->npat; ++q) {
        emit_pattern_case(b, q, c->npat);
        if (bwd) {
            emit_span_weights(b, c, q);
            emit_span_gather(b, c, "sob", "iob", q);
        } else {
            emit_span_reduce(b, c, "sob", q);
        }
    }
    if (c->npat > 1)
        sb_close(b);
    sb_add(b, "wacc[g] = %s;\n", bwd ? "accp + acc" : "acc");
    sb_close(b);
    sb_close(b);
    emit_close_loops(b, n - 1);
    if (has_none(c))
        sb_close(b);
}

/* Each group's post-ops and store; groups without a pattern go lane by
 * lane. */
static void emit_walk_store(sbuf *b, const clrs_gen_config *c,
                            const char *at)
{
    const char *off = off_type(c);
    const int V = c->vec;
    int k;

    sb_open(b, "for (%s g = 0; g < gn; ++g)", off);
    sb_add(b,
           "const %s gq = gq0 + g;\n"
           "const %s pgb = itab[pg + 2 * gq], pgp = itab[pg + 2 * gq + "
           "1];\n"
           "const %s i0 = i0w + g * %d, dof = dofw + g * %d;\n",
           off, off, off, V, V);
    for (k = 0; k < c->npost; ++k)
        if (c->post[k].kind == CLRS_POST_BINARY)
            sb_add(b, "const %s bo%d = bo%dw + g * %d * b%ds0;\n", off, k, k,
                   V, k);
    sb_open(b, "if (pgp >= 0)");
    if (c->backward || !has_none(c))
        sb_add(b, "%s%s acc = wacc[g];\n", c->backward ? "const " : "", at);
    else
        sb_add(b,
               "%s acc;\n"
               "if (none)\n    acc = (%s)(empty);\n"
               "else\n    acc = wacc[g];\n",
               at, at);
    emit_post(b, c, V, "dof", "acc", 0);
    emit_store(b, c, V, "dof", "acc");
    sb_else(b, "else");
    emit_group_lanes(b, c);
    sb_close(b);
    sb_close(b);
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
void clrs__gen_item_WALK(sbuf *b, const clrs_gen_config *c,
                         const body_at *at)
{
    char acc[16];

    (void)at;
    vtype(acc, sizeof acc, acc_type(c), c->vec);
    emit_walk_init(b, c, acc);
    emit_walk_sum(b, c, acc);
    emit_walk_store(b, c, acc);
}

