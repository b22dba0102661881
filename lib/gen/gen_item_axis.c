/* The axis variant's work-item (variant.h): one vector along a contiguous
 * axis that is not resampled, its partial last vector element by element. */
#include "gen/gen_emit.h"

void clrs__gen_item_AXIS(sbuf *b, const clrs_gen_config *c, const body_at *at)
{
    clrs__gen_emit_vector_item(b, c, at);
}
