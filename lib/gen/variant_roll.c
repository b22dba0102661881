/* The roll variant (variant.h), its test, construction and work-item: a
 * separable weighted sum run as one kernel. A work-item holds one vector
 * along a contiguous axis that is not resampled (channels-last C, as on
 * the axis path) and walks CLRS_ROLL_ROWS consecutive outputs of slot 0's
 * axis (the outermost resampled one). Each output sums slot 0's taps,
 * each weighing the sum over the inner slots of one row of slot 0 (the
 * row's own sum of its inner slots' sums, nested the same way); a row's
 * sum stays in registers, keyed by the row's offset, for the next outputs
 * that read that row: 2x up reads about half a new row per output.
 *
 * The nesting is the separable passes' order when they run from the
 * innermost slot outward (plan.c): each level's sum is rounded to the
 * accumulator type, as a pass rounds it into its intermediate, and
 * added in the same order, so the bytes are those of the passes. Only
 * plans that would run those passes ask for it (clrs_problem's fused);
 * another problem never gets this variant, and a fused one gets no
 * other (its lowering fails instead, and the plan runs the passes). */
#include "gen/gen_emit.h"
#include "gen/variant_lower.h"

#include <stdio.h>

/* ---- lowering: the test and the construction ---------------------------- */

int clrs__variant_applies_ROLL(const vtry *t)
{
    const clrs_gen_config *c = &t->low->cfg;
    int k, p, inner;

    if (t->p->fused != CLRS_FUSED_ROLL || c->backward ||
        c->cls != CLRS_GEN_WSUM || c->raw || c->pad_taps || c->nslots < 2 ||
        c->nslots > CLRS_ROLL_SLOTS_MAX || !clrs__variant_applies_AXIS(t))
        return 0;
    for (k = 0, inner = 1; k < c->nslots; ++k) {
        if (!c->fixed[k] || c->fixed[k] > CLRS_ROLL_TAPS_MAX)
            return 0;
        if (k > 0)
            inner *= c->fixed[k];
    }
    if (inner > CLRS_ROLL_INNER_MAX)
        return 0;
    for (p = 0; p < c->rank; ++p)
        if (c->ax[p].dst_block || c->ax[p].src_block)
            return 0;
    return clrs__gen_axis_of_slot(c, 0) >= 1;
}

clrs_status clrs__variant_make_ROLL(vtry *t, int *made)
{
    clrs_gen_config *c = &t->low->cfg;

    c->vec = clrs__axis_lanes(t);
    c->tail = t->k[0].n % c->vec != 0;
    c->mvec = 1;
    /* A partial last vector would need a second, scalar cache; three
     * lanes (a pixel of three channels) measured 4-13x slower than the
     * passes on PoCL (bicubic 2x up, channels-last RGB). */
    *made = !c->tail && c->vec != 3;
    if (*made)
        c->roll = CLRS_ROLL_ROWS;
    return CLRS_SUCCESS;
}

/* ---- generator: the work-item ------------------------------------------- */

/* "const <type> <v><k> = ..." for slot k's table entry at its position
 * x<k>: the offset from base, the weight alone. */
static void emit_slot_entry(sbuf *b, const clrs_gen_config *c, int k,
                            const char *base)
{
    const char *off = clrs__gen_off_type(c);
    const int p = clrs__gen_axis_of_slot(c, k);

    clrs__gen_sb_add(b, "const %s x%d = t%d * n%d + i%d;\n", off, k, k, p, p);
    clrs__gen_sb_add(b, "const %s o%d = %s + itab[of%d + x%d];\n", off, k, base,
                     k, k);
    clrs__gen_emit_slot_weight(b, c, k);
}

/* The sum over slots 1 .. n - 1 of the row at offset o0 into h: each
 * slot k's loop sums w<k> times slot k + 1's sum (s<k+1>, from 0), the
 * last slot's w times the value. */
static void emit_inner(sbuf *b, const clrs_gen_config *c, const char *vt)
{
    const int n = c->nslots, w = c->vec;
    char base[16], target[16], inner[16];
    int k;

    clrs__gen_sb_add(b, "h = (%s)(0);\n", vt);
    for (k = 1; k < n; ++k) {
        snprintf(base, sizeof base, "o%d", k - 1);
        clrs__gen_sb_add(b, "#pragma unroll\n");
        clrs__gen_sb_open(b, "for (%s t%d = 0; t%d < %d; ++t%d)",
                          clrs__gen_off_type(c), k, k, c->fixed[k], k);
        emit_slot_entry(b, c, k, base);
        if (k + 1 < n)
            clrs__gen_sb_add(b, "%s s%d = (%s)(0);\n", vt, k + 1, vt);
    }
    snprintf(base, sizeof base, "o%d", n - 1);
    clrs__gen_emit_value(b, c, clrs__gen_row_of(c->src), "src", "v", w, base,
                         0);
    for (k = n - 1; k >= 1; --k) {
        if (k == 1)
            snprintf(target, sizeof target, "h");
        else
            snprintf(target, sizeof target, "s%d", k);
        if (k == n - 1)
            snprintf(inner, sizeof inner, "v");
        else
            snprintf(inner, sizeof inner, "s%d", k + 1);
        clrs__gen_sb_add(b, "CLRS_WSUM_STEP(%s, w%d, %s);\n", target, k, inner);
        clrs__gen_sb_close(b);
    }
}

void clrs__gen_item_ROLL(sbuf *b, const clrs_gen_config *c, const body_at *at)
{
    const char *off = clrs__gen_off_type(c);
    const int p0 = clrs__gen_axis_of_slot(c, 0), K = c->fixed[0];
    char vt[16];
    int j, t;

    (void)at;
    clrs__gen_vtype(vt, sizeof vt, clrs__gen_val_type(c), c->vec);
    /* The rows' sums kept from the previous output: offset -1 is no
     * row (offsets here are never negative: no padding taps). */
    for (j = 0; j < K; ++j)
        clrs__gen_sb_add(b, "%s hv%d = (%s)(0);\n%s ho%d = -1;\n", vt, j, vt,
                         off, j);
    clrs__gen_sb_open(b, "for (%s rr = 0; rr < %d; ++rr)", off, c->roll);
    clrs__gen_sb_add(b, "const %s i%d = rb + rr;\n", off, p0);
    clrs__gen_sb_add(b, "if (i%d >= n%d)\n    break;\n", p0, p0);
    clrs__gen_emit_offsets(b, c);
    clrs__gen_sb_add(b, "%s acc = (%s)(0);\n", vt, vt);
    for (j = 0; j < K; ++j)
        clrs__gen_sb_add(b, "%s nv%d;\n%s no%d;\n", vt, j, off, j);
    for (t = 0; t < K; ++t) {
        clrs__gen_sb_open(b, "%s", "");
        clrs__gen_sb_add(b, "const %s t0 = %d;\n", off, t);
        emit_slot_entry(b, c, 0, "sob");
        clrs__gen_sb_add(b, "%s h;\n", vt);
        for (j = 0; j < K; ++j)
            clrs__gen_sb_add(b, "%sif (o0 == ho%d)\n    h = hv%d;\n",
                             j ? "else " : "", j, j);
        clrs__gen_sb_open(b, "else");
        emit_inner(b, c, vt);
        clrs__gen_sb_close(b);
        clrs__gen_sb_add(b, "no%d = o0;\nnv%d = h;\n", t, t);
        clrs__gen_sb_add(b, "CLRS_WSUM_STEP(acc, w0, h);\n");
        clrs__gen_sb_close(b);
    }
    for (j = 0; j < K; ++j)
        clrs__gen_sb_add(b, "ho%d = no%d;\nhv%d = nv%d;\n", j, j, j, j);
    clrs__gen_emit_post(b, c, c->vec, "dof", "acc", 0);
    clrs__gen_emit_store(b, c, c->vec, "dof", "acc");
    clrs__gen_sb_close(b);
}
