/* The OpenCL C generator: a kernel configuration (what changes the code)
 * and its argument list (what changes per shape), turned into source. */
#ifndef CLRS_CODEGEN_H
#define CLRS_CODEGEN_H

#include "gen/variant.h"
#include "model/internal.h"

/* Bump whenever the generated code changes for an unchanged configuration:
 * it is part of every key, so cached programs never outlive the generator
 * that wrote them. */
#define CLRS_GEN_VERSION 7

/* The embedded cl/ files, part by part (lib/embed.awk writes the table):
 * a line "//@ NAME" in a file starts part NAME; the text before the
 * first is the file's introduction, part "". */
typedef struct clrs_cl_snippet {
    const char *file; /* "common.cl" */
    const char *part; /* "vector" */
    const char *text;
} clrs_cl_snippet;
extern const clrs_cl_snippet clrs__cl_snippets[]; /* ends with {0, 0, 0} */

typedef enum clrs_gen_class {
    CLRS_GEN_WSUM = 0, /* weighted sum: nearest, linear, cubic, avg */
    CLRS_GEN_MAX = 1   /* max pooling, optional index output */
} clrs_gen_class;

/* One kernel axis: a tensor axis (or several merged ones) of the output,
 * in iteration order, fastest first. Resampled axes read their taps from
 * per-axis tables; identity axes add index * stride to the src offset. */
typedef struct clrs_gen_axis {
    int slot;      /* resampled axis number (tensor order), -1: identity */
    int src_block; /* 8 or 16: src's blocked axis (identity axes only); 0 */
    int dst_block; /* 8 or 16: dst's blocked axis; 0 otherwise */
    int idx_block; /* the same for the index tensor */
    int x_block;   /* backward max recompute: the same for src (x) */
    int op_block[CLRS_MAX_POST_OPS]; /* binary post-op operand's block */
} clrs_gen_axis;

/* How a binary post-op operand is read along kernel axis 0 by a vector
 * work-item. */
typedef enum clrs_gen_bvec {
    CLRS_BVEC_SCALAR = 0, /* no vector path (vec == 1) */
    CLRS_BVEC_BCAST = 1,  /* stride 0 there: one load, broadcast */
    CLRS_BVEC_LOAD = 2    /* contiguous lanes: vloadN */
} clrs_gen_bvec;

/* One fused post-op: a row of the generator's sum / eltwise / binary
 * tables (gen_rows.c); scales, alphas and betas are kernel arguments. */
typedef struct clrs_gen_post {
    int kind;      /* clrs_post_kind (internal.h) */
    int alg;       /* clrs_eltwise or clrs_binary */
    clrs_dtype dt; /* binary: operand dtype */
    clrs_gen_bvec bvec;
} clrs_gen_post;

/* Span vector path (forward): at most this many tap patterns, this many
 * taps per output and this many lanes. */
/* Span patterns a kernel holds: 4 over tap tables (span.c), 8 over
 * computed taps, whose groups without one are costlier; up to 16 where
 * that many cover nearly every group (a period of more groups: channels
 * fused into a row resampled by 3/2, span.c's pattern_budget). */
#define CLRS_GEN_MAX_PAT 16
#define CLRS_GEN_MAX_FIXED 64
/* The most vectors one span tap's lanes lie across (spanv's widest); a
 * forward group under it may reach past them (span.c's rules). */
#define CLRS_GEN_SPAN_TAP_VECTORS 16
#define CLRS_GEN_MAX_LANES 16
/* clrs_gen_config.va's bits. */
#define CLRS_VA_SRC 1
#define CLRS_VA_DST 2
/* The most taps an output of antialiased computed slots may unroll to
 * (the product of clrs_gen_config.calc_nt over them). */
#define CLRS_GEN_AA_UNROLL 64
/* Periodic computed span taps: the most groups a period, taps a lane
 * (cubic's 4) and stretches a row. */
#define CLRS_GEN_PER_MAX 8
#define CLRS_GEN_PER_TAPS 4
#define CLRS_GEN_PER_STRETCHES 4

/* Everything that changes the generated text, and nothing else: sizes,
 * strides and table positions are kernel arguments, so one binary serves
 * every shape of a configuration. */
/* The roll variant: outputs a work-item walks along slot 0's axis, and
 * the most slots, taps per slot (each tap of slot 0 keeps a row's sum in
 * registers) and taps of a row's inner sum it takes. Measured on PoCL
 * (AVX-512, 2 cores, 64 channels, channels-last, f32, best of 4 runs):
 * against the passes a 2-D bicubic 2x up 3.9 ms against 4.9, a 3-D
 * trilinear one 8.6 against 9.6, but a 3-D bicubic one (16 taps a row)
 * 19.6 against 11.0; 32 outputs a work-item measured as fast as 8 or
 * faster. */
#define CLRS_ROLL_ROWS 32
#define CLRS_ROLL_SLOTS_MAX 3
#define CLRS_ROLL_TAPS_MAX 8
#define CLRS_ROLL_INNER_MAX 4

typedef struct clrs_gen_config {
    /* Backward (kernel "clrs_backward"): one work-item per diff_src
     * element (or vector, or span group) gathers from diff_dst through
     * transposed tap tables. In the
     * generator's words src is then diff_dst (read) and dst diff_src
     * (written); the kernel axes are diff_src's. */
    int backward;
    int accumulate; /* backward: add to diff_src instead of writing it */
    int recompute;  /* backward max without index: argmax from x */
    clrs_dtype x;   /* recompute: dtype of x (the forward pass's input) */
    clrs_gen_class cls;
    int variant; /* clrs_variant: the work-item's shape (variant.h) */
    int rank;    /* kernel axes, 1..CLRS_MAX_RANK */
    clrs_gen_axis ax[CLRS_MAX_RANK];
    int nslots; /* resampled axes; loops nest in slot (tensor) order */
    /* Per slot: K when every output of that axis has exactly K taps (their
     * positions are then o * K: no start lookup, a constant trip count the
     * compiler unrolls and vectorises across work-items); 0: variable. */
    int fixed[CLRS_MAX_RANK];
    /* Slots (bit k) whose taps the kernel computes from the coordinate
     * x(o) = ((o + a) * r) - b, in three rounded steps, as the reference
     * does (clrs_problem.calc; forward, fixed[k] taps), from the
     * arguments zr, za, zb (the coordinate's type), zn (the input size),
     * zs (src's stride) and zp (a padding tap's offset) of slot k.
     * calc_kind: 1 nearest, 2 linear, 4 cubic; calc_edge: clamped at the
     * edges (else padding taps); calc_round: nearest's clrs_rounding;
     * calc_f64: the coordinate in double (f64 data), else float;
     * calc_wf64: its fraction and the weights in double, exact as the
     * tables hold them (the device has fp64, which the plan requires
     * for computed taps), else in the coordinate's type; calc_a: the
     * cubic coefficient. */
    unsigned calc;
    int calc_kind, calc_edge, calc_round, calc_f64, calc_wf64;
    double calc_a;
    /* Antialiased computed taps (fixed[k] 0): every pixel under the
     * filter stretched by zaa<k> (the weights' type) around x, normalised
     * to sum 1, the edge pixel where none is; calc_restrict: only pixels
     * inside the axis (PyTorch's rule, exclude_outside). */
    int calc_aa, calc_restrict;
    /* Per antialiased computed slot: at most calc_nt[k] pixels lie under
     * the filter, the trip count of its loops (unrolled: the work-item
     * loop PoCL wraps around the kernel stays innermost and vectorises);
     * 0: loops over the range itself (CLRS_GEN_AA_UNROLL). */
    int calc_nt[CLRS_MAX_RANK];
    /* The computed last slot's positions are x * calc_fuse + c over
     * fused channels (clrs_problem.fuse_c); 0: unfused. */
    int calc_fuse;
    /* Periodic computed span taps (span.c, span_periodic): per_n
     * stretches of the row over which the computed last slot's
     * coordinate repeats (exact in its type at a scale of a small
     * power-of-two denominator, or rounding alike over a run of
     * binades), so that stretch s's span groups from argument yph<s> up
     * to ype<s> repeat with a period of per[s] groups, each period
     * per_shift[s] elements further along src. Its group yph<s> + j
     * per[s] + r takes pattern per_pat[s][r], base ypb<s> + j
     * per_shift[s] + per_base[s][r] and the weights per_w[s][r] (the
     * tables' values in the accumulator type) as constants instead of
     * computing its taps; the groups outside compute them. */
    int per_n;
    int per[CLRS_GEN_PER_STRETCHES], per_shift[CLRS_GEN_PER_STRETCHES];
    int per_pat[CLRS_GEN_PER_STRETCHES][CLRS_GEN_PER_MAX];
    int per_base[CLRS_GEN_PER_STRETCHES][CLRS_GEN_PER_MAX];
    double per_w[CLRS_GEN_PER_STRETCHES][CLRS_GEN_PER_MAX][CLRS_GEN_PER_TAPS]
                [CLRS_GEN_MAX_LANES];
    clrs_dtype src, dst;
    int acc_f64; /* accumulate in double (f64 tensors) */
    /* 8-bit stores round half up (Pillow's 8-bit path: its sums, exact
     * in double, rounded as its clip8) instead of half to even. */
    int half_up;
    /* OpenCV's 8-bit bilinear rows (its vertical pass, p->cv8): each tap
     * adds floor(w floor(v / 16) / 2^16) / 4, w and v integers, exactly
     * in float (CLRS_CV8_LINEAR in cl/reduce.cl); the store rounds the
     * sum half up. */
    int cv8lin;
    /* OpenCV's 8-bit bicubic rows (its vertical pass; the scalar variant
     * alone): an element whose position in its image row (cvv, from dof
     * and the cv arguments; 2: kernel axis 0 is the row, i0 the
     * position) OpenCV's vector code writes sums in float, taps in
     * reverse, and rounds to even; the others sum exactly and round half
     * up (CLRS_CV8_CUBIC). */
    int cv8cub;
    /* OpenCV's area by whole factors: the exact sum (times 1 / area, a
     * float) rounded to float, then to even (CLRS_CV8_FROUND). */
    int cv8fr;
    /* u8 weighted sums in fixed point (lower.c, fix_config): every weight
     * is a multiple of 2^-fix_k[k] on its slot, at least 0, the taps'
     * weights of one output summing to at most 1, and fix (the sum of
     * fix_k, at most 8) > 0. The accumulator is ushort, the weight tables
     * hold each weight times 2^fix_k[k], and the store rounds half to
     * even by integer steps: the float path's bytes exactly, since there
     * every product and sum is exact (integers of 8 bits times weights of
     * at most 8 bits) and the one rounding is to nearest even. */
    int fix;
    int fix_k[CLRS_MAX_RANK];
    /* Backward max pooling of u8 or s8 from a window index (lower.c,
     * isum_config): each diff_src element's sum of the dy that reach it
     * is an integer that fits 16 bits, so it is formed in ushort (u8) or
     * short (s8), the index codes compared as short, and stored
     * saturated: the float path's bytes exactly. */
    int isum;
    /* A span group's u8 or s8 average (variant_span.c, isc_applies):
     * every output's taps on each slot weigh one weight W_k, so its
     * float sum is S W up to rounding, S the integer sum of its values.
     * The group sums S in ushort (u8) or short (s8), scales once by the
     * lanes' W and stores where no lane lies within twice the two
     * sums' error bound of a half-integer (then both round alike);
     * elsewhere it runs lane by lane in float. The bound's tap count:
     * the product of the slots' longest windows (0: off). */
    int isc;
    /* A weighted sum whose every weight on every slot is exactly 1
     * (nearest where it is no copy: a backward, a type conversion, a
     * post-op; lower.c, unit_config): the kernel weighs by the constant 1
     * instead of the weight tables' 1s, which the compiler folds away
     * (x * 1 is x exactly): the same bytes, no weight loads or products. */
    int unitw;
    /* Forward copy: every output has one tap of weight 1 on each slot
     * (nearest, a window of one), src and dst share a type, and no post-op
     * changes the value: values move as they are, loaded and stored as the
     * unsigned integer of their width, without the accumulator or a
     * conversion (clrs__gen_val_type). Forward max pooling of an integer
     * type (lower.c, max_raw_config) compares the values as they are,
     * in the type itself (signed where it is), into best alone: no
     * index, no NaN to track. */
    int raw;
    /* Max of one-byte integers with a window index whose windows read a
     * pad below the type's range (-inf, the default): raw, compared as
     * short, the pad one below the type's least value, so that it never
     * wins and never ties (max_raw_config). */
    int raw_wide;
    /* f16 tensors loaded and stored as the half type (the device has
     * cl_khr_fp16); otherwise through vload_half / vstore_half_rte. */
    int f16_native;
    int has_index; /* max: write the index tensor */
    /* Forward max: write the index tensor alone (no dst argument): the
     * argmax pass of a backward that recomputes it. */
    int index_only;
    clrs_dtype index;
    int plane;      /* index format plane (else window) */
    int plane_col;  /* ... in column-major order: no span path, whose lanes
                       step the plane index by 1 */
    int nan_ignore; /* max: CLRS_NAN_IGNORE */
    int pad_taps;   /* tap tables may name padding taps (negative offsets) */
    int long_off;   /* offsets and sizes need 64 bits */
    int vec;        /* lanes per work-item along kernel axis 0; 1: scalar */
    int tail;       /* vec > 1 and axis 0 may end with a partial vector */
    int mvec;       /* vectors per work-item (>= 1): a weighted sum on the
                     * axis path, acc, acc1, ... at i0, i0 + vec, ... */
    int nt;         /* non-temporal stores of dst */
    /* Vector accesses the lowering proves aligned to the vector's size
     * (lower.c's want_va): CLRS_VA_SRC src's loads, CLRS_VA_DST dst's
     * stores, each then a vector pointer's dereference (CLRS_LDVA_<dt>,
     * CLRS_STVA_<dt>, CLRS_LDVRA, CLRS_STVRA) where the type has one. */
    int va;
    /* Weighted sums on the span path over two or more slots: span
     * groups per work-item (> 1: a walked row, whose work-item reads each
     * row the outer slots name once for all its groups; the walk
     * variant, variant_walk.c); 0 or 1: one group. */
    int walk;
    /* The roll variant (variant_roll.c): outputs of slot 0's axis per
     * work-item, each a nested sum over the slots (a fused separable
     * plan); 0: none. */
    int roll;
    /* The span variant of a fused separable plan of two slots, the outer
     * pass first (clrs_problem.fused CLRS_FUSED_FOLD): a group's span
     * vectors are slot 0's sums of src's rows, which the last slot's
     * pattern then weighs, as the passes nest them; a fixed-point sum
     * (fix) folds every slot but the last the same way, its span groups
     * alone (variant_span.c); 0: none. */
    int fold;
    /* Outputs of kernel axis 1 per work-item (> 1: the work-item runs its
     * body for rows i1, i1 + 1, ... in turn, the tables and offsets that
     * depend on kernel axis 0 alone loaded once; lower.c's rows_of); 0
     * or 1: one. */
    int rows;
    /* Span vector path (forward, channels-first): kernel axis 0 is the
     * last resampled slot, contiguous in src and dst. A work-item takes a
     * group of vec consecutive outputs, loads up to nspan vectors of vec
     * elements (those its pattern reads) from the group's base input
     * index and picks each tap's
     * lanes with constant shuffles: the tap pattern of most groups
     * repeats (a rational scale), so the group table names one of npat
     * patterns; the other groups (edges, partial groups, irregular
     * scales) take one lane at a time. rel: the input index of lane l's
     * tap t minus the group base, -1 for a padding tap, -2 past the
     * lane's last tap when the slot's tap count varies (weighted sums:
     * value 0, weight 0, weights then from the group-major table at
     * vals.fg); code: its window position (max pooling index codes).
     * Backward (weighted sum): the same over the transposed taps. A group
     * is vec consecutive diff_src elements, its span the diff_dst
     * elements that read them; rel[t][l] is lane l's t-th entry (by
     * increasing output index, as the scalar gather sums them) minus the
     * base, -1 past the lane's last entry. Weights come from a group-major
     * table (vals.fg). */
    int span;
    int nspan; /* 1..64: the vectors a group reads (span.c's rules) */
    int npat;  /* 1..CLRS_GEN_MAX_PAT */
    /* Taps per lane in a pattern, 1..CLRS_GEN_MAX_FIXED: forward the
     * slot's fixed count; backward the most transposed entries a lane of
     * a pattern has (its shorter lanes end in -1 entries). */
    int ntaps;
    short rel[CLRS_GEN_MAX_PAT][CLRS_GEN_MAX_FIXED][CLRS_GEN_MAX_LANES];
    signed char code[CLRS_GEN_MAX_PAT][CLRS_GEN_MAX_FIXED][CLRS_GEN_MAX_LANES];
    /* Forward post-ops, applied in order in the accumulator type (f32,
     * f64 for f64 tensors) before the final conversion. */
    int npost;
    clrs_gen_post post[CLRS_MAX_POST_OPS];
} clrs_gen_config;

/* Argument roles, in the order the kernel declares them. */
typedef enum clrs_arg_kind {
    CLRS_ARG_SRC,
    CLRS_ARG_DST,
    CLRS_ARG_INDEX,
    CLRS_ARG_X,    /* backward max recompute: the forward pass's input */
    CLRS_ARG_ITAB, /* int/long tables: starts, offsets, index codes */
    CLRS_ARG_FTAB, /* weights, accumulator type */
    CLRS_ARG_OFF,  /* scalar of the offset type */
    CLRS_ARG_ACC,  /* scalar of the accumulator type */
    CLRS_ARG_CRD,  /* scalar of the computed taps' coordinate type */
    CLRS_ARG_WGT,  /* scalar of the computed taps' weight type */
    CLRS_ARG_POST  /* binary post-op operand buffer (i: its post-op) */
} clrs_arg_kind;

typedef struct clrs_gen_arg {
    clrs_arg_kind kind;
    char name[24];
    int64_t i; /* CLRS_ARG_OFF */
    double d;  /* CLRS_ARG_ACC */
} clrs_gen_arg;

/* Per-shape values the argument list is filled from (kernel axis p,
 * slot k). */
typedef struct clrs_gen_values {
    int64_t n[CLRS_MAX_RANK];  /* extent of kernel axis p (dst's blocked
                                  axis: padded to whole blocks) */
    int64_t nr[CLRS_MAX_RANK]; /* dst's blocked axis: its real extent; the
                                  lanes past it are written as zeros */
    int64_t ds[CLRS_MAX_RANK]; /* dst stride (block stride if blocked) */
    int64_t ss[CLRS_MAX_RANK]; /* src stride, identity axes */
    int64_t is[CLRS_MAX_RANK]; /* index stride */
    int64_t st[CLRS_MAX_RANK]; /* itab position of slot k's starts */
    int64_t of[CLRS_MAX_RANK]; /* itab position of slot k's src offsets */
    int64_t cd[CLRS_MAX_RANK]; /* itab position of slot k's index codes */
    int64_t fw[CLRS_MAX_RANK]; /* ftab position of slot k's weights */
    /* Slots whose taps the kernel computes (clrs_gen_config.calc): the
     * coordinate's constants, the input size, src's stride and a padding
     * tap's offset. */
    double cr[CLRS_MAX_RANK], ca[CLRS_MAX_RANK], cb[CLRS_MAX_RANK];
    int64_t cn[CLRS_MAX_RANK], cs[CLRS_MAX_RANK], cz[CLRS_MAX_RANK];
    double cfs[CLRS_MAX_RANK]; /* antialiased: the filter's stretch */
    /* Periodic computed span taps (clrs_gen_config.per): per stretch its
     * first group, the group after it, the first's base. */
    int64_t yph[CLRS_GEN_PER_STRETCHES], ype[CLRS_GEN_PER_STRETCHES],
        ypb[CLRS_GEN_PER_STRETCHES];
    /* Backward only (st, of, cd, fw then hold the transposed tables:
     * starts by input index, diff_dst offsets, window codes or output
     * indices, weights). */
    int64_t xs[CLRS_MAX_RANK];  /* x stride, identity axes (recompute) */
    int64_t ix[CLRS_MAX_RANK];  /* itab: index tensor offsets per entry */
    int64_t pl[CLRS_MAX_RANK];  /* plane index stride of slot k */
    int64_t fst[CLRS_MAX_RANK]; /* itab: forward starts (recompute) */
    int64_t fof[CLRS_MAX_RANK]; /* itab: forward x offsets (recompute) */
    int64_t fcd[CLRS_MAX_RANK]; /* itab: forward plane codes (recompute) */
    /* Post-op i: operand strides per kernel axis (0 where the operand
     * broadcasts), sum scale or eltwise alpha in pa, eltwise beta in pb. */
    int64_t bs[CLRS_MAX_POST_OPS][CLRS_MAX_RANK];
    double pa[CLRS_MAX_POST_OPS], pb[CLRS_MAX_POST_OPS];
    int64_t pg;   /* span vector path: itab position of the group table
                     (base input index and pattern, -1: lane by lane) */
    int64_t fg;   /* span vector path, backward or a varying tap count:
                     ftab position of the group weights, [group][entry or
                     tap][lane], 0 past a lane's end */
    double pad;   /* value of a padding tap */
    double empty; /* output with no taps (crop extrapolation) */
    /* cv8cub: an element at dst offset dof sits at w cvk + c of its
     * image row, w = (dof / cvs) % cvn, c = ((dof / cvc) % cvm) cvb +
     * dof % cvb (clrs__cv8_row), and OpenCV's vector code writes the
     * positions below cvx. */
    int64_t cvs, cvn, cvk, cvc, cvm, cvb, cvx;
} clrs_gen_values;

#define CLRS_GEN_MAX_ARGS                                                      \
    (6 + 6 * CLRS_MAX_RANK + 16 * CLRS_MAX_RANK + 2 +                          \
     3 * CLRS_GEN_PER_STRETCHES + CLRS_MAX_POST_OPS * (3 + CLRS_MAX_RANK) +    \
     1 + 7)

/* The kernel's arguments in declaration order; vals may be NULL (values
 * left 0) when only the names and kinds are wanted. */
int clrs__gen_args(const clrs_gen_config *cfg, const clrs_gen_values *vals,
                   clrs_gen_arg *args);

/* The configuration as one line of text: the cache key and the comment
 * heading the source. *key is malloc'ed. */
clrs_status clrs__gen_key(const clrs_gen_config *cfg, char **key);

/* The kernel "clrs_forward" (or "clrs_backward" when cfg->backward) for
 * cfg; *source is malloc'ed. */
clrs_status clrs__gen_source(const clrs_gen_config *cfg, const char *key,
                             char **source);

/* The one check that the generator has a kernel for cfg: dtype rows for
 * the tensors it reads and writes (src, dst, x), a row for each post-op
 * and its operand's dtype; CLRS_ERR_NOT_IMPLEMENTED naming what has none.
 * Reads only backward, src, dst, recompute, x, npost and post. */
clrs_status clrs__gen_supported(const clrs_gen_config *cfg);
/* Whether dt can be the dst of a vector store. */
int clrs__gen_dtype_vector_store(clrs_dtype dt);
/* The kernel axis of resampled slot k (gen_text.c). */
int clrs__gen_axis_of_slot(const clrs_gen_config *c, int k);
/* Whether the kernel takes the periodic stretch's taps as constants
 * (clrs_gen_config.per on the span path's computed taps). */
int clrs__gen_periodic(const clrs_gen_config *c);

#endif /* CLRS_CODEGEN_H */
