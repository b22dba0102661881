/* Kernel variants: the shapes a work-item can take, as rows. Each row
 * names the variant, the launch knobs it reads (CLRS_LAUNCH's keys, which
 * the tuner varies) and what its work-item does. The lowering (lower.c)
 * tries the rows in order, each through its applicable() test and its
 * construction, which may still decline (a span path whose tap patterns
 * cover too few groups); the first that holds is the kernel. A knob's
 * default for each device class is a field of launch.c's class table.
 * Adding a variant: a row here, one file variant_<name>.c (its test,
 * construction and work-item), and a test subset (README.md,
 * "Hacking"). */
#ifndef CLRS_VARIANT_H
#define CLRS_VARIANT_H

/* The launch knobs, as bits. */
#define CLRS_KNOB_VEC 0x01u   /* vec=: most lanes per work-item */
#define CLRS_KNOB_MV 0x02u    /* mv=: vectors per weighted sum (axis path) */
#define CLRS_KNOB_SPAN 0x04u  /* span=: the span path allowed */
#define CLRS_KNOB_SPANV 0x08u /* spanv=: most input vectors a group reads */
#define CLRS_KNOB_WALK 0x10u  /* walk=: rows of span groups walked */
#define CLRS_KNOB_NT 0x20u    /* nt=: non-temporal stores */
#define CLRS_KNOB_LOCAL 0x40u /* local=: the work-group size */
#define CLRS_KNOB_ROWS 0x80u  /* rows=: outputs of kernel axis 1 */
#define CLRS_KNOB_ALL_ 0xFFu

/* X(ENUM, name, vector path, knobs): in the order the lowering tries
 * them; the vector path is clrs_plan_info's name for its lanes.
 * roll:   a fused separable weighted sum: a vector along a contiguous
 *         axis that is not resampled, walking outputs of the outermost
 *         resampled axis with each row's inner sums kept in registers;
 *         the only variant of a fused plan, and of no other;
 * block:  one vector over a block of dst's blocked axis (aBx8b,
 *         aBx16b), every tensor blocked alike;
 * axis:   one vector (or up to mv of them, backward) along a contiguous
 *         axis that is not resampled (channels-last C), a partial last
 *         vector element by element;
 * walk:   a row of span groups, each row of the outer slots read once
 *         for all of them (weighted sums over two or more slots);
 * span:   one span group: vec consecutive outputs of the innermost
 *         resampled axis (channels-first), taps picked by shuffles from
 *         a few contiguous loads;
 * scalar: one element, the fallback every problem has. */
#define CLRS_VARIANT_MAP(X)                                                    \
    X(ROLL, "roll", CLRS_VECTOR_AXIS,                                          \
      CLRS_KNOB_VEC | CLRS_KNOB_NT | CLRS_KNOB_LOCAL)                          \
    X(BLOCK, "block", CLRS_VECTOR_BLOCK,                                       \
      CLRS_KNOB_VEC | CLRS_KNOB_NT | CLRS_KNOB_LOCAL)                          \
    X(AXIS, "axis", CLRS_VECTOR_AXIS,                                          \
      CLRS_KNOB_VEC | CLRS_KNOB_MV | CLRS_KNOB_NT | CLRS_KNOB_LOCAL |          \
          CLRS_KNOB_ROWS)                                                      \
    X(WALK, "walk", CLRS_VECTOR_SPAN,                                          \
      CLRS_KNOB_VEC | CLRS_KNOB_SPAN | CLRS_KNOB_SPANV | CLRS_KNOB_WALK |      \
          CLRS_KNOB_NT | CLRS_KNOB_LOCAL | CLRS_KNOB_ROWS)                     \
    X(SPAN, "span", CLRS_VECTOR_SPAN,                                          \
      CLRS_KNOB_VEC | CLRS_KNOB_SPAN | CLRS_KNOB_SPANV | CLRS_KNOB_NT |        \
          CLRS_KNOB_LOCAL | CLRS_KNOB_ROWS)                                    \
    X(SCALAR, "scalar", CLRS_VECTOR_NONE,                                      \
      CLRS_KNOB_NT | CLRS_KNOB_LOCAL | CLRS_KNOB_ROWS)

typedef enum clrs_variant {
#define CLRS_VARIANT_ENUM_(e, ...) CLRS_VARIANT_##e,
    CLRS_VARIANT_MAP(CLRS_VARIANT_ENUM_)
#undef CLRS_VARIANT_ENUM_
        CLRS_VARIANT_COUNT
} clrs_variant;

/* The row's name ("span"), "?" for an unknown value. */
const char *clrs__variant_name(int v);

#endif /* CLRS_VARIANT_H */
