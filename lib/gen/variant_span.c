/* The span variant (variant.h), its test, construction and work-item:
 * one span group, its pattern's shuffles, or lane by lane where the
 * group has no pattern. */
#include "gen/gen_emit.h"
#include "gen/variant_lower.h"

/* ---- lowering: the test and the construction ---------------------------- */

int clrs__variant_applies_SPAN(const vtry *t)
{
    return clrs__span_lanes(t) > 1;
}

clrs_status clrs__variant_make_SPAN(vtry *t, int *made)
{
    CLRS_TRY(clrs__span_make(t));
    *made = t->span_kept;
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
