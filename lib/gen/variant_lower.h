/* What a kernel variant's applicability test and construction see of
 * the lowering (lower.c): the direction, the kernel axes, the launch
 * request, the configuration being made. Each variant's file
 * (variant_<name>.c) holds its test, its construction and its work-item;
 * lower.c tries the rows of variant.h in order. */
#ifndef CLRS_VARIANT_LOWER_H
#define CLRS_VARIANT_LOWER_H

#include "gen/lower.h"

/* Which way the kernel goes. Here, as in the generator and the kernels,
 * src is the tensor the kernel reads and dst the one it writes: forward,
 * src is the caller's src (the problem's in) and dst its dst (out), read
 * through the taps; backward, src is diff_dst (out) and dst diff_src
 * (in), read through the transposed taps. */
typedef struct direction {
    int gather;                         /* backward */
    const struct clrs_tensor_desc *dst; /* the tensor the kernel writes */
    const struct clrs_tensor_desc *src; /* the tensor the kernel reads */
    int index_written; /* forward: the index tensor is an output, shaped
                          like dst; backward: an input shaped like src */
    int has_x;         /* backward max recompute reads x, the forward
                          input */
} direction;

/* One axis of dst as the kernel iterates it. */
typedef struct kaxis {
    int64_t n, ss, ds, is; /* extent; src, dst and index strides */
    int64_t nr;            /* dst's blocked axis: real extent (n is padded) */
    int64_t bs[CLRS_MAX_POST_OPS]; /* binary operand strides (0: bcast) */
    int bblk[CLRS_MAX_POST_OPS];   /* and blocks */
    int slot;                      /* resampled slot, -1: identity */
    int sblk, dblk, iblk;          /* src, dst and index blocks (0: none) */
    int64_t xs; /* backward max recompute: x (forward input) stride */
    int xblk;   /* and x's block */
    int axis;   /* tensor axis (the innermost one after merging) */
} kaxis;

/* What a variant's test and construction see. */
typedef struct vtry {
    const clrs_problem *p;
    const direction *d;
    const kaxis *k;
    int m, bound;
    const clrs_slot_taps *st;
    const clrs_launch_request *r;
    clrs_lowered *low;
    int span_done, span_kept; /* the span construction, once for walk
                                 and span */
} vtry;

/* Whether a vector along kernel axis 0 is possible at all: no generic
 * kernels, no vec=1, no padding guard beyond axis 0, binary operands that
 * vectorise, a dst type with a vector store. */
int clrs__lower_vectors_ok(const clrs_problem *p, const direction *d,
                           const kaxis *k, int m, const clrs_launch_request *r);
/* Whether dst is blocked on a kernel axis other than k[0] (its padding
 * guard then needs a scalar work-item). */
int clrs__lower_blocked_beyond_0(const kaxis *k, int m);
/* Binary operands along a vector on k0: broadcast (one load) or lanes
 * laid out like dst's (contiguous, or the same block). */
int clrs__lower_operands_vector_ok(const clrs_problem *p, const kaxis *k0);

/* Whether neighbouring positions of slot s's lists (transposed: the
 * backward gather's) read overlapping ranges of elements at half of the
 * positions or more (a 3x3 window of stride 2, not a 2x bilinear
 * downsample's pairs); 0 for a slot whose taps the kernel computes. */
int clrs__lower_taps_overlap(const clrs_problem *p, const clrs_slot_taps *st,
                             int s, int transposed);

/* The axis path's lanes for the problem and request (1: none). */
int clrs__axis_lanes(const vtry *t);

/* The span path's group width for the variant being tried (span.c), 1
 * when not a candidate; its patterns made once for the walk and span
 * variants (t->span_kept: kept, c->vec and c->span set). */
int clrs__span_lanes(const vtry *t);
clrs_status clrs__span_make(vtry *t);

/* Each row's test (a candidate for the problem and request) and
 * construction (*made 0: declined after all), in variant_<name>.c. */
#define CLRS_VARIANT_LOWER_DECL_(e, ...)                                       \
    int clrs__variant_applies_##e(const vtry *t);                              \
    clrs_status clrs__variant_make_##e(vtry *t, int *made);
CLRS_VARIANT_MAP(CLRS_VARIANT_LOWER_DECL_)
#undef CLRS_VARIANT_LOWER_DECL_

#endif /* CLRS_VARIANT_LOWER_H */
