/* The scalar variant (variant.h), its test, construction and work-item:
 * one element, the fallback every problem has. */
#include "gen/gen_emit.h"
#include "gen/variant_lower.h"

/* ---- lowering: the test and the construction ---------------------------- */

int clrs__variant_applies_SCALAR(const vtry *t)
{
    (void)t;
    return 1;
}

clrs_status clrs__variant_make_SCALAR(vtry *t, int *made)
{
    t->low->cfg.vec = 1;
    *made = 1;
    return CLRS_SUCCESS;
}

/* ---- generator: the work-item ------------------------------------------- */

void clrs__gen_item_SCALAR(sbuf *b, const clrs_gen_config *c, const body_at *at)
{
    clrs__gen_emit_body(b, c, 1, at);
}
