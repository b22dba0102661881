/* The span variant (variant.h), its test, construction and work-item:
 * one span group, its pattern's shuffles, or lane by lane where the
 * group has no pattern. */
#include "gen/gen_emit.h"
#include "gen/variant_lower.h"

/* ---- lowering: the test and the construction ---------------------------- */

/* Whether every position of every slot has taps, none of them padding:
 * a fused plan's passes then have no empty output to write. */
static int taps_everywhere(const vtry *t)
{
    clrs_lists l;
    int64_t i;
    int k;

    for (k = 0; k < t->p->naxes; ++k) {
        clrs__lists_of(t->p, t->st, k, 0, &l);
        for (i = 0; i < l.npos; ++i)
            if (l.start[i + 1] == l.start[i])
                return 0;
    }
    return 1;
}

/* A fused plan (CLRS_FUSED_FOLD) folds the outer slot's taps first: a
 * plain weighted sum of two slots from tables, in the accumulator the
 * passes' intermediate holds (no fixed point, no half arithmetic, no
 * OpenCV step), without padding taps or empty outputs. */
static int fold_applies(const vtry *t)
{
    const clrs_gen_config *c = &t->low->cfg;

    return !c->backward && c->cls == CLRS_GEN_WSUM && !c->raw && !c->pad_taps &&
           c->nslots == 2 && !c->calc && !c->fix && !c->f16_native &&
           !c->half_up && !c->cv8lin && !c->cv8cub && !c->cv8fr &&
           !c->has_index && taps_everywhere(t);
}

/* A fixed-point sum (clrs_gen_config.fix) of two or more slots folds the
 * outer slots' taps first as well: its integer sums are exact in any
 * order and within 16 bits (every slot's weights sum to at most 1 times
 * 2^fix_k, so a span vector's sum over the outer slots is at most 255
 * times their 2^k and the last slot's taps over those sums at most 255
 * times 2^fix), so the bytes are the unfolded kernel's; a group then
 * loads and weighs each outer row's span vectors once and picks the last
 * slot's lanes from their sums once, where the unfolded kernel picks
 * every tap's lanes in every row (u8 trilinear 2x up: 4 rows, 8 picks
 * against 2). Without padding taps, whose lanes would weigh the pad by
 * the outer slots' weights; and only where the outer slots read 4 rows
 * or more (SPAN_FIX_FOLD_ROWS) a group, each a fixed count: over 2 rows
 * (u8 and s8 bilinear 2x up) the unfolded kernel's picks of the bytes
 * before they widen cost less than the fold's of its 16-bit sums (on
 * PoCL, AVX-512: 1.1-1.15x the time folded; trilinear 2x up 0.89-0.95x,
 * 2x down about 0.97x). */
#define SPAN_FIX_FOLD_ROWS 4
static int fix_fold_applies(const vtry *t)
{
    const clrs_gen_config *c = &t->low->cfg;
    int k, rows = 1;

    /* fix is a forward weighted sum from tables already (fix_config). */
    if (t->p->fused == CLRS_FUSED_FOLD || !c->fix || c->pad_taps ||
        c->nslots < 2)
        return 0;
    for (k = 0; k + 1 < c->nslots; ++k)
        rows *= c->fixed[k];
    return rows >= SPAN_FIX_FOLD_ROWS;
}

int clrs__variant_applies_SPAN(const vtry *t)
{
    if (t->p->fused == CLRS_FUSED_FOLD && !fold_applies(t))
        return 0;
    return clrs__span_lanes(t) > 1;
}

clrs_status clrs__variant_make_SPAN(vtry *t, int *made)
{
    int fused, fits;

    CLRS_TRY(clrs__span_make(t));
    /* A fold holds a sum per span vector: 16 at most. */
    fused = t->p->fused == CLRS_FUSED_FOLD;
    fits = t->low->cfg.nspan <= CLRS_GEN_SPAN_TAP_VECTORS;
    *made = t->span_kept && (!fused || fits);
    if (*made && fits && (fused || fix_fold_applies(t)))
        t->low->cfg.fold = 1;
    return CLRS_SUCCESS;
}

/* ---- generator: the work-item ------------------------------------------- */

void clrs__gen_item_SPAN(sbuf *b, const clrs_gen_config *c, const body_at *at)
{
    clrs__gen_sb_open(b, "if (pgp >= 0)");
    clrs__gen_emit_body(b, c, c->vec, at);
    clrs__gen_sb_else(b, "else");
    clrs__gen_emit_group_lanes(b, c);
    clrs__gen_sb_close(b);
}
