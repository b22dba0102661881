/* The block variant's work-item (variant.h): one vector over a block of
 * dst's blocked axis. */
#include "gen/gen_emit.h"

void clrs__gen_item_BLOCK(sbuf *b, const clrs_gen_config *c, const body_at *at)
{
    clrs__gen_emit_vector_item(b, c, at);
}
