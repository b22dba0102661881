/* The lowering stage: a validated problem and its taps become the final
 * kernel configuration, the launch parameters and the layout of the tap
 * tables. Everything the later stages (tables, codegen, program, plan)
 * need is decided here, once; they only read it. */
#ifndef CLRS_LOWER_H
#define CLRS_LOWER_H

#include "gen/codegen.h"
#include "gen/launch.h"

/* What a table segment holds, entry by entry, for one slot's lists. */
typedef enum clrs_seg_kind {
    CLRS_SEG_STARTS,       /* start[0 .. npos] */
    CLRS_SEG_OFFSETS,      /* element offset of the read index in `tensor`
                              (a padding tap: minus the tensor's span) */
    CLRS_SEG_WINDOW,       /* window position * box (max: window codes) */
    CLRS_SEG_PLANE,        /* read index * plane (a padding tap: -plane size) */
    CLRS_SEG_READ,         /* the read index itself */
    CLRS_SEG_WEIGHTS,      /* weights (the float table) */
    CLRS_SEG_GROUPS,       /* span path: per group its base and pattern */
    CLRS_SEG_GROUP_WEIGHTS /* span path: [group][entry][lane] weights, 0
                              past a lane's end (the float table) */
} clrs_seg_kind;

/* One run of table entries: `len` entries at `pos` of the integer table
 * (or of the float table for the weight kinds), from slot `slot`'s
 * forward lists or its transposed ones. */
typedef struct clrs_table_seg {
    clrs_seg_kind kind;
    int slot;
    int transposed;
    const struct clrs_tensor_desc *tensor; /* CLRS_SEG_OFFSETS */
    size_t pos, len;
} clrs_table_seg;

#define CLRS_MAX_SEGS (9 * CLRS_MAX_RANK)

/* The span path's groups along the last slot's dst axis: each
 * whole group with a kept pattern has the read index its span vectors
 * start at; pat -1 goes lane by lane. */
typedef struct clrs_span_groups {
    int64_t count;
    int64_t *base;
    int *pat;
    int weights;     /* the tables hold its group-major weights */
    double coverage; /* groups with a pattern / all groups */
} clrs_span_groups;

typedef struct clrs_lowered {
    clrs_gen_config cfg;  /* what changes the generated text */
    clrs_gen_values vals; /* sizes, strides, table positions */
    clrs_launch launch;
    clrs_span_groups span;
    int nseg;
    clrs_table_seg seg[CLRS_MAX_SEGS];
    size_t ni, nf; /* table entries, padded to at least one where used */
} clrs_lowered;

/* Lowers problem p with taps st for the device dev, under the launch
 * parameters of launch (NULL: the device's defaults). index_only: a
 * forward max pooling that writes its index alone (the argmax pass of a
 * backward that recomputes it). Release with clrs__lowered_free. */
clrs_status clrs__lower(const clrs_device *dev, const clrs_problem *p,
                        const clrs_slot_taps *st, int index_only,
                        const clrs_launch_text *launch, clrs_lowered *low);
/* The launch knobs (CLRS_KNOB_* bits, variant.h) of every variant that
 * applies to p under some launch: all that a tuner need vary. */
unsigned clrs__lower_knobs(const clrs_device *dev, const clrs_problem *p,
                           const clrs_slot_taps *st, int index_only);
/* The lowering's span path (span.c): the groups and patterns of the last
 * slot for groups of V lanes, each reading at most `vectors` (4 or 8)
 * vectors with at most 2 * vectors taps a lane, into low (cfg's rel,
 * code, npat, ntaps, nspan; low->span), *kept 0 when too few groups
 * share a pattern; over computed taps, where `periodic` allows, the
 * periodic stretch's constants (cfg's per). */
clrs_status clrs__span_try(clrs_lowered *low, const clrs_problem *p,
                           const clrs_slot_taps *st, int V, int vectors,
                           int periodic, int *kept);

/* Channels past this many fill a vector of their own (the axis
 * variant's) and stay as they are (fuse.c). */
#define CLRS_FUSE_MAX_CHANNELS 7

/* Small channels-last channels fused into the innermost resampled axis
 * (fuse.c): where p is a problem without a plane index whose channel
 * axis has unit stride, 2 to 7 elements and the resampled axis beside
 * it in every tensor (or whose tensors are blocked alike, the blocks full
 * and under 16 bytes: a block's lanes fuse), *q gets p
 * with the two axes as one and st that slot's taps, and *fused 1; else
 * st and *q are untouched and *fused 0. The lowering and the tables then
 * take q and st; every output is the same. */
clrs_status clrs__fuse_channels(const clrs_problem *p, clrs_slot_taps *st,
                                clrs_problem *q, int *fused);
/* tl, the taps of nout pixels, into those of their nout * C fused
 * positions x * C + c (pixel x's taps, each index i read as i * C + c);
 * tl is replaced, or left as it was on failure. */
clrs_status clrs__fuse_expand(clrs_taplist *tl, int64_t nout, int64_t C);

/* Frees the span groups; cfg, vals and launch stay valid. */
void clrs__lowered_free(clrs_lowered *low);

#endif /* CLRS_LOWER_H */
