/* The axis variant (variant.h), its test, construction and work-item:
 * one vector along a contiguous axis that is not resampled (channels-
 * last C), its partial last vector element by element; weighted sums,
 * up to mv vectors a work-item. */
#include "gen/gen_emit.h"
#include "gen/variant_lower.h"

/* ---- lowering: the test and the construction ---------------------------- */

/* Lanes per work-item along kernel axis 0: a contiguous identity axis of
 * every tensor touched gets vloadN/vstoreN, at most vmax lanes (the
 * launch request's), preferring a width that divides the axis (no scalar
 * tail): a power of two, else 3 (a pixel of three channels, OpenCL's one
 * vector width that is not a power of two), else a longer vector with a
 * tail. */
static int vec_width(int64_t n, int vmax, int v3)
{
    int v, best = 1;

    for (v = vmax; v >= 2; v /= 2)
        if (v <= n && n % v == 0) {
            best = v;
            break;
        }
    if (best < 4 && vmax >= 4 && v3 != 0 && n % 3 == 0)
        return 3;
    if (best < 4) /* a longer vector with a tail beats 2 lanes */
        for (v = vmax; v > best; v /= 2)
            if (v <= n) {
                best = v;
                break;
            }
    return best;
}

/* The axis vector path's lanes (1: not a candidate): a contiguous
 * identity axis of every tensor. */
static int axis_width(const clrs_problem *p, const direction *d, const kaxis *k,
                      const clrs_launch_request *r)
{
    const kaxis *k0 = &k[0];

    if (k0->slot >= 0 || k0->sblk || k0->dblk || k0->iblk || k0->xblk ||
        k0->ss != 1 || k0->ds != 1 || (p->has_index && k0->is != 1) ||
        (d->has_x && k0->xs != 1) || k0->n < 2 || r->vmax < 2)
        return 1;
    return vec_width(k0->n, r->vmax, r->v3);
}

/* Whether every resampled axis of a forward problem shrinks: each
 * output reads more than it writes, as a backward gather's does. */
static int shrinks(const clrs_problem *p)
{
    int k;

    for (k = 0; k < p->naxes; ++k)
        if (p->ax[k].out >= p->ax[k].in)
            return 0;
    return p->naxes > 0;
}

/* Vectors per work-item: a weighted sum on the axis path without a
 * tail (a backward gather, or a forward reduction without post-ops or
 * padding taps) takes the request's count for its direction, halved
 * until whole groups of mvec vectors tile axis 0: forward, mv= where
 * it names one, else the fixed-point count for a fixed-point sum, the
 * backward count where every axis shrinks (on PoCL, AMD EPYC, the
 * performance matrix's 12 channels-last 2x and antialiased 4x
 * downsamples of 64 channels in 0.50-0.95x one vector's time, 0.78x at
 * the geometric mean; upsamples won and lost, up to 1.5x), else one.
 * Each vector's sum is the one a work-item of one vector computes: the
 * bytes do not change. */
static int choose_mvec(const clrs_problem *p, const clrs_gen_config *c,
                       const kaxis *k0, const clrs_launch_request *r)
{
    int mv = p->backward       ? r->mvec
             : r->mvec_fwd > 0 ? r->mvec_fwd
             : c->fix          ? r->mvec_fix
             : shrinks(p)      ? r->mvec
                               : 1;

    if (mv < 1)
        mv = 1;
    if (c->cls != CLRS_GEN_WSUM || c->vec < 2 || c->tail)
        return 1;
    if (!p->backward && (p->n_post_ops > 0 || c->pad_taps))
        return 1;
    while (mv > 1 && k0->n % ((int64_t)mv * c->vec) != 0)
        mv /= 2;
    return mv;
}

int clrs__axis_lanes(const vtry *t)
{
    return axis_width(t->p, t->d, t->k, t->r);
}

int clrs__variant_applies_AXIS(const vtry *t)
{
    return clrs__lower_vectors_ok(t->p, t->d, t->k, t->m, t->r) &&
           axis_width(t->p, t->d, t->k, t->r) > 1;
}

clrs_status clrs__variant_make_AXIS(vtry *t, int *made)
{
    clrs_gen_config *c = &t->low->cfg;
    c->vec = axis_width(t->p, t->d, t->k, t->r);
    c->tail = t->k[0].n % c->vec != 0;
    c->mvec = choose_mvec(t->p, c, &t->k[0], t->r);
    *made = 1;
    return CLRS_SUCCESS;
}

/* ---- generator: the work-item ------------------------------------------- */

void clrs__gen_item_AXIS(sbuf *b, const clrs_gen_config *c, const body_at *at)
{
    clrs__gen_emit_vector_item(b, c, at);
}
