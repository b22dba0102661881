/* The span variant's work-item (variant.h): one span group, its pattern's
 * shuffles, or lane by lane where the group has no pattern. */
#include "gen_emit.h"

void clrs__gen_item_SPAN(sbuf *b, const clrs_gen_config *c,
                         const body_at *at)
{
    sb_open(b, "if (pgp >= 0)");
    emit_body(b, c, c->vec, at);
    sb_else(b, "else");
    emit_group_lanes(b, c);
    sb_close(b);
}
