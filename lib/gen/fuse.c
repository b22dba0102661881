/* Small channels fused into the resampled axis beside them, a part of
 * the lowering that runs before it (clrs__fuse_channels, lower.h),
 * forward and backward (whose transposed taps fuse alike).
 *
 * A channels-last tensor of C channels, C small (an RGB image: 3), holds
 * a row of W pixels as one run of W * C values. Lowered as it stands, the
 * channel axis is the contiguous one and a work-item's vector covers a
 * pixel's C values at most: a vector of 3 and no more. Fused, the pair
 * (W, C) is one resampled axis of W * C positions with unit stride, whose
 * position x * C + c reads, for each tap i of pixel x, element i * C + c:
 * the span path then takes a run of consecutive values as one vector, as
 * the image libraries do. The taps, their order and their weights are
 * those of the unfused problem, so every output is the same to the bit;
 * only the kernel differs.
 *
 * A blocked tensor (nChw8c) whose channels fill their blocks (C a
 * multiple of the block B, no padding lanes) is a channels-last tensor
 * of B channels inside each block: the block's lanes fuse into the row
 * alike, x * B + lane, and the channel axis counts the C / B blocks.
 * Only where a block is less than 16 bytes in src and dst (8 lanes of a
 * one-byte type): a block of 16 bytes or more is a vector of the axis
 * variant as fast as the fused row or faster (measured on PoCL,
 * lib/measurements.md, 2026-11-30). */
#include "gen/lower.h"

#include <stdlib.h>
#include <string.h>

static int unblocked(const struct clrs_tensor_desc *t)
{
    return t->block_axis < 0 || t->block <= 1;
}

/* t interleaves channel axis c (unit stride) into axis w (stride C). */
static int interleaved(const struct clrs_tensor_desc *t, int c, int w,
                       int64_t C)
{
    return unblocked(t) && t->strides[c] == 1 && t->strides[w] == C;
}

/* t with the C values of a pixel (channels, or a block's lanes) fused
 * into axis w; axis c keeps what is left (1, or the blocks). */
static void fuse_desc(struct clrs_tensor_desc *t, int c, int w, int64_t C)
{
    t->dims[w] *= C;
    t->dims[c] /= C;
    t->strides[w] = 1;
    t->block_axis = -1;
    t->block = 1;
}

/* t's blocks of B lanes on axis c, all of them channels (no padding),
 * interleaved into axis w (stride B). */
static int block_interleaved(const struct clrs_tensor_desc *t, int c, int w,
                             int64_t B)
{
    return t->block_axis == c && t->block == B && t->dims[c] % B == 0 &&
           t->strides[w] == B;
}

/* Most bytes of a block whose lanes fuse into the row (fuse.c). */
#define FUSE_MAX_BLOCK_BYTES 15

/* The channel axis of a problem whose tensors are all blocked alike on an
 * identity axis before the innermost slot's axis w, their blocks
 * interleaved into it, full and at most FUSE_MAX_BLOCK_BYTES in src and
 * dst; returns 0 where there is none. */
static int fusable_blocked(const clrs_problem *p, int *cp, int *wp, int64_t *Cp)
{
    const int c = p->in.block_axis, w = p->ax[p->naxes - 1].axis;
    const int64_t B = p->in.block;

    if (c < 0 || p->slot[c] >= 0 || w < c ||
        B * (int64_t)clrs_dtype_size(p->in.dtype) > FUSE_MAX_BLOCK_BYTES ||
        B * (int64_t)clrs_dtype_size(p->out.dtype) > FUSE_MAX_BLOCK_BYTES ||
        !block_interleaved(&p->in, c, w, B) ||
        !block_interleaved(&p->out, c, w, B) ||
        (p->has_index && !block_interleaved(&p->index, c, w, B)) ||
        (p->has_x && !block_interleaved(&p->x, c, w, B)))
        return 0;
    *cp = c;
    *wp = w;
    *Cp = B;
    return 1;
}

/* The channel axis (an identity axis of unit stride in every tensor, of
 * 2 .. CLRS_FUSE_MAX_CHANNELS elements, or the blocked axis of full
 * blocks) and the resampled axis whose stride is its extent (the block)
 * in every tensor, the innermost slot, and the count C of values a
 * pixel fuses; returns 0 when the problem has no such pair or would not
 * keep its meaning fused (a plane index counts pixels of the unfused
 * axes; a window index, a position in the window, fuses). */
static int fusable(const clrs_problem *p, int *cp, int *wp, int64_t *Cp)
{
    const struct clrs_tensor_desc *in = &p->in, *out = &p->out;
    int a, c = -1, w, i;
    int64_t C;

    if ((p->has_index && CLRS__INDEX_IS_PLANE(p->index_format)) || p->naxes < 1)
        return 0;
    for (i = 0; i < p->n_post_ops; ++i)
        if (p->post_ops[i].kind == CLRS_POST_BINARY)
            return 0; /* operands keep their own strides */
    if (!unblocked(in) || !unblocked(out))
        return fusable_blocked(p, cp, wp, Cp);
    for (a = 0; a < p->rank && c < 0; ++a)
        if (p->slot[a] < 0 && in->dims[a] > 1 &&
            in->dims[a] <= CLRS_FUSE_MAX_CHANNELS && in->strides[a] == 1 &&
            out->strides[a] == 1)
            c = a;
    if (c < 0)
        return 0;
    w = p->ax[p->naxes - 1].axis;
    if (w < c)
        return 0; /* channels, not a later axis (W beside H) */
    C = in->dims[c];
    if (!interleaved(in, c, w, C) || !interleaved(out, c, w, C) ||
        (p->has_index && !interleaved(&p->index, c, w, C)) ||
        (p->has_x && !interleaved(&p->x, c, w, C)) || in->dims[w] < 1 ||
        out->dims[w] < 1)
        return 0;
    *cp = c;
    *wp = w;
    *Cp = C;
    return 1;
}

clrs_status clrs__fuse_expand(clrs_taplist *tl, int64_t nout, int64_t C)
{
    clrs_taplist e;
    int64_t o, c, k, n = 0;

    memset(&e, 0, sizeof e);
    e.n = e.cap = tl->n * (size_t)C;
    e.start = malloc((size_t)(nout * C + 1) * sizeof *e.start);
    e.t = malloc((e.n ? e.n : 1) * sizeof *e.t);
    if (tl->j)
        e.j = malloc((e.n ? e.n : 1) * sizeof *e.j);
    if (tl->extrap)
        e.extrap = malloc((size_t)(nout * C));
    if (!e.start || !e.t || (tl->j && !e.j) || (tl->extrap && !e.extrap)) {
        clrs__taplist_free(&e);
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "lowering: out of memory for fused taps");
    }
    for (o = 0; o < nout; ++o)
        for (c = 0; c < C; ++c) {
            e.start[o * C + c] = n;
            if (tl->extrap)
                e.extrap[o * C + c] = tl->extrap[o];
            for (k = tl->start[o]; k < tl->start[o + 1]; ++k) {
                e.t[n] = tl->t[k];
                if (tl->t[k].idx >= 0)
                    e.t[n].idx = tl->t[k].idx * C + c;
                if (e.j)
                    e.j[n] = tl->j[k];
                ++n;
            }
        }
    e.start[nout * C] = n;
    clrs__taplist_free(tl);
    *tl = e;
    return CLRS_SUCCESS;
}

/* tt's entries for the positions i * C + c (the backward gather's). */
static clrs_status expand_t(clrs_ttaplist *tt, int64_t nin, int64_t C)
{
    clrs_ttaplist e;
    int64_t i, c, k, n = 0;

    memset(&e, 0, sizeof e);
    e.n = tt->n * (size_t)C;
    e.start = malloc((size_t)(nin * C + 1) * sizeof *e.start);
    e.t = malloc((e.n ? e.n : 1) * sizeof *e.t);
    if (tt->j)
        e.j = malloc((e.n ? e.n : 1) * sizeof *e.j);
    if (!e.start || !e.t || (tt->j && !e.j)) {
        clrs__ttaplist_free(&e);
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "lowering: out of memory for fused taps");
    }
    for (i = 0; i < nin; ++i)
        for (c = 0; c < C; ++c) {
            e.start[i * C + c] = n;
            for (k = tt->start[i]; k < tt->start[i + 1]; ++k) {
                e.t[n] = tt->t[k];
                e.t[n].o = tt->t[k].o * C + c;
                if (e.j)
                    e.j[n] = tt->j[k];
                ++n;
            }
        }
    e.start[nin * C] = n;
    clrs__ttaplist_free(tt);
    *tt = e;
    return CLRS_SUCCESS;
}

clrs_status clrs__fuse_channels(const clrs_problem *p, clrs_slot_taps *st,
                                clrs_problem *q, int *fused)
{
    int c, w, k = p->naxes - 1;
    int64_t C;

    *fused = 0;
    if (!fusable(p, &c, &w, &C))
        return CLRS_SUCCESS;
    /* A computed slot has no lists: its kernel takes each pixel's taps
     * for its C positions (q->fuse_c). */
    if (!(p->calc & (1u << k)))
        CLRS_TRY(clrs__fuse_expand(&st->tl[k], p->ax[k].out, C));
    if (p->backward)
        CLRS_TRY(expand_t(&st->tt[k], p->ax[k].in, C));
    *q = *p;
    q->fuse_c = (int)C;
    fuse_desc(&q->in, c, w, C);
    fuse_desc(&q->out, c, w, C);
    if (p->has_index)
        fuse_desc(&q->index, c, w, C);
    if (p->has_x)
        fuse_desc(&q->x, c, w, C);
    q->ax[k].in *= C;
    q->ax[k].out *= C;
    *fused = 1;
    return CLRS_SUCCESS;
}
