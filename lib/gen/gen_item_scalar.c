/* The scalar variant's work-item (variant.h): one element. */
#include "gen/gen_emit.h"

void clrs__gen_item_SCALAR(sbuf *b, const clrs_gen_config *c, const body_at *at)
{
    clrs__gen_emit_body(b, c, 1, at);
}
