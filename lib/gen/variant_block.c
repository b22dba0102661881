/* The block variant (variant.h), its test, construction and work-item:
 * one vector over a block of dst's blocked axis, every tensor blocked
 * alike. */
#include "gen/gen_emit.h"
#include "gen/variant_lower.h"

/* ---- lowering: the test and the construction ---------------------------- */

/* The block vector path's lanes (1: not a candidate): k0 is dst's
 * blocked axis and every other tensor the work-item touches has the same
 * block there, so a block's lanes are contiguous everywhere (one vloadB /
 * vstoreB per block, the padding lanes computed from the inputs' own
 * padding and then zeroed); a forward index tensor's padding lanes are
 * not ours to write. A block wider than the bound is walked as several
 * work-items' vectors, each a whole part of the block (blocks and bounds
 * are powers of two). */
static int block_width(const clrs_problem *p, const direction *d,
                       const kaxis *k, int acc_f64, int bound)
{
    const kaxis *k0 = &k[0];
    int idx_ok = d->index_written ? !p->has_index
                                  : !p->has_index || k0->iblk == k0->dblk;
    int v;

    if (k0->slot >= 0 || !k0->dblk || k0->sblk != k0->dblk || !idx_ok ||
        (d->has_x && k0->xblk != k0->dblk))
        return 1;
    v = acc_f64 && k0->dblk > 8 ? 8 : k0->dblk;
    return v > bound ? bound : v;
}

int clrs__variant_applies_BLOCK(const vtry *t)
{
    return clrs__lower_vectors_ok(t->p, t->d, t->k, t->m, t->r) &&
           block_width(t->p, t->d, t->k, t->low->cfg.acc_f64, t->bound) > 1;
}

clrs_status clrs__variant_make_BLOCK(vtry *t, int *made)
{
    clrs_gen_config *c = &t->low->cfg;
    c->vec = block_width(t->p, t->d, t->k, c->acc_f64, t->bound);
    c->tail = t->k[0].n % c->vec != 0;
    *made = 1;
    return CLRS_SUCCESS;
}

/* ---- generator: the work-item ------------------------------------------- */

void clrs__gen_item_BLOCK(sbuf *b, const clrs_gen_config *c, const body_at *at)
{
    clrs__gen_emit_vector_item(b, c, at);
}
