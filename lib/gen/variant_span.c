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

int clrs__variant_applies_SPAN(const vtry *t)
{
    if (t->p->fused == CLRS_FUSED_FOLD && !fold_applies(t))
        return 0;
    return clrs__span_lanes(t) > 1;
}

clrs_status clrs__variant_make_SPAN(vtry *t, int *made)
{
    CLRS_TRY(clrs__span_make(t));
    /* A fold holds a sum per span vector: 16 at most. */
    *made = t->span_kept && (t->p->fused != CLRS_FUSED_FOLD ||
                             t->low->cfg.nspan <= CLRS_GEN_SPAN_TAP_VECTORS);
    if (*made && t->p->fused == CLRS_FUSED_FOLD)
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
