/* The span variant's work-item (variant.h): one span group, its pattern's
 * shuffles, or lane by lane where the group has no pattern. */
#include "gen/gen_emit.h"

void clrs__gen_item_SPAN(sbuf *b, const clrs_gen_config *c, const body_at *at)
{
    clrs__gen_sb_open(b, "if (pgp >= 0)");
    clrs__gen_emit_body(b, c, c->vec, at);
    clrs__gen_sb_else(b, "else");
    clrs__gen_emit_group_lanes(b, c);
    clrs__gen_sb_close(b);
}
