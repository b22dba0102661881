/* clresample internals shared by the host runtime: descriptor layouts, the
 * resolved "problem" every plan and the reference work from, and error
 * reporting helpers. Nothing here is exported. */
#ifndef CLRS_INTERNAL_H
#define CLRS_INTERNAL_H

#include "clresample.h"
#include "model/feature_maps.h"

#include <stdarg.h>

#if defined(__GNUC__)
#define CLRS_THREAD_LOCAL __thread
#define CLRS_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLRS_THREAD_LOCAL
#define CLRS_PRINTF(f, a)
#endif

#define CLRS_ERRMSG_MAX 512

/* The largest window index an s8 index tensor holds (a window of more
 * positions needs s32). */
#define CLRS_S8_INDEX_MAX 127

struct clrs_tensor_desc {
    clrs_dtype dtype;
    int rank;
    int64_t dims[CLRS_MAX_RANK];
    int64_t strides[CLRS_MAX_RANK]; /* block strides for the blocked axis */
    int block_axis;                 /* -1: not blocked */
    int block;                      /* 8 or 16 when blocked, else 1 */
};

typedef enum clrs_post_kind {
    CLRS_POST_SUM = 0,
    CLRS_POST_ELTWISE = 1,
    CLRS_POST_BINARY = 2
} clrs_post_kind;

typedef struct clrs_post_op {
    clrs_post_kind kind;
    int alg; /* clrs_eltwise or clrs_binary */
    double alpha, beta, scale;
    struct clrs_tensor_desc operand; /* binary only */
} clrs_post_op;

/* The options a descriptor sets and a problem carries, one row each:
 * X(type, name, array suffix). A problem has them resolved: padding and
 * coord never DEFAULT, pad_value the value an out-of-range tap reads
 * (-inf for NEG_INF). */
#define CLRS_OP_OPTIONS(X)                                                   \
    X(clrs_mode, mode, )                                                     \
    X(clrs_padding, padding, )                                               \
    X(double, pad_value, )                                                   \
    X(clrs_coord, coord, )                                                   \
    X(clrs_rounding, rounding, )                                             \
    X(double, cubic_a, )                                                     \
    X(clrs_filter, filter, )                                                 \
    X(double, filter_p, )                                                    \
    X(double, filter_q, )                                                    \
    X(int, exclude_outside, )                                                \
    X(int, antialias, )                                                      \
    X(clrs_antialias_rule, aa_rule, )                                        \
    X(clrs_arith, arith, )                                                   \
    X(int, vendor, )                                                         \
    X(double, extrapolation, )                                               \
    X(clrs_index_format, index_format, )                                     \
    X(clrs_nan_policy, nan_policy, )                                         \
    X(clrs_divisor, divisor, )                                               \
    X(double, divisor_override, )                                            \
    X(int, inference, )                                                      \
    X(int, accumulate, )                                                     \
    X(int, user_workspace, )                                                 \
    X(int, cv_pass, )                                                        \
    X(int, cv_method, )                                                      \
    X(int, n_post_ops, )                                                     \
    X(clrs_post_op, post_ops, [CLRS_MAX_POST_OPS])
#define CLRS_OP_OPTION_FIELD_(type, name, dim) type name dim;

/* Per-axis option arrays carry their own count: checked against the number
 * of resampled axes when a problem is resolved (0 = unset). */
struct clrs_resample_desc {
    CLRS_OP_OPTIONS(CLRS_OP_OPTION_FIELD_)
    int naxes; /* 0: default axes */
    int axes[CLRS_MAX_RANK];

    int n_window, n_stride, n_pad, n_dilation;
    int64_t dilation[CLRS_MAX_RANK]; /* pooling tap spacing, >= 1 */
    clrs_fraction window[CLRS_MAX_RANK];
    clrs_fraction stride[CLRS_MAX_RANK];
    clrs_fraction pre[CLRS_MAX_RANK];
    clrs_fraction post[CLRS_MAX_RANK];

    int n_scales;
    double scales[CLRS_MAX_RANK];
    int n_offsets;
    float in_offsets[CLRS_MAX_RANK];
    float out_offsets[CLRS_MAX_RANK];
    int n_roi;
    double roi_start[CLRS_MAX_RANK];
    double roi_end[CLRS_MAX_RANK];
};

/* ---- exact rationals (rat.c) ------------------------------------------ */

typedef struct clrs_rat {
    int64_t n, d; /* d > 0, reduced */
} clrs_rat;

int64_t clrs__gcd64(int64_t a, int64_t b);
/* a * b and a + b; 0 when an operand or the result reaches 2^62. */
int clrs__mul_ok(int64_t a, int64_t b, int64_t *r);
int clrs__add_ok(int64_t a, int64_t b, int64_t *r);
clrs_rat clrs__rat(int64_t n, int64_t d); /* d != 0 */
/* a + sign * b, a * b, a / b: 0 on overflow (or b == 0). */
int clrs__rat_add(clrs_rat a, clrs_rat b, int sign, clrs_rat *r);
int clrs__rat_mul(clrs_rat a, clrs_rat b, clrs_rat *r);
int clrs__rat_div(clrs_rat a, clrs_rat b, clrs_rat *r);
/* The exact value of a finite double, when it fits. */
int clrs__rat_of_double(double v, clrs_rat *r);
int64_t clrs__floor_div(int64_t n, int64_t d);
int64_t clrs__ceil_div(int64_t n, int64_t d);

/* A coordinate with its floor, fraction and tie test decided exactly. */
typedef struct clrs_xval {
    double x;   /* the coordinate (fl + fr, rounded to double) */
    int64_t fl; /* floor(x) */
    double fr;  /* x - floor(x), in [0, 1) */
    int half;   /* sign of fr - 1/2: -1, 0 (a tie), 1 */
    int64_t o;  /* the output index it maps */
} clrs_xval;

/* x = (m o + c) / d exactly (d > 0); 0 when it does not fit. */
int clrs__exact_eval(int64_t m, int64_t c, int64_t d, int64_t o,
                     clrs_xval *xv);
/* From a double (saturated at +-2^40, beyond every tensor). */
void clrs__xval_of(double x, clrs_xval *xv);
/* floor(x) as an integer, x saturated the same way. */
int64_t clrs__ifloor(double x);

/* One resampled axis, resolved against concrete tensor sizes
 * (clresample(3), Coordinates):
 *   x(o) = ((float)o + a) * r - b     in float, no contraction.
 * Pooling: window start of output o is x(o), window length `window`. */
typedef struct clrs_axis_map {
    int axis;         /* tensor axis */
    int64_t in, out;  /* I and O: the map's sides (see clrs_problem), not
                         the kernel's src and dst */
    float r, a, b;    /* coordinate constants (r already 1/s, in float) */
    double scale;     /* s as resolved (user's or O/I), for diagnostics */
    int64_t dilation; /* pooling: taps x, x + d, ... (1: a dense window) */
    double window;    /* pooling window length (0 for interpolation): in
                         float's precision unless f64 */
    int f64;          /* f64 data: the float arithmetic, filter widths and
                         windows are evaluated in double, as PyTorch does
                         for double tensors */
    double end;       /* pooling: I + post padding (CLRS_DIVISOR_CLIPPED) */
    int taps;         /* pooling: window box extent K on this axis */
    int crop;         /* 1 tf_crop_and_resize: outside [0, I-1]
                         extrapolates; 2 scale_and_translate: outside
                         [-1/2, I - 1/2], 0 */
    double aa_scale;  /* antialias: filter stretch f; 1 without antialias */
    /* Evaluation (clrs_arith): ONEDNN x = ((o + a) * rn) / rd - b in
     * float; EXACT x = (xm o + xc) / xd when exact, else in long double
     * from the same constants. */
    int arith;
    float rn, rd;
    int exact;
    int fixed16;    /* CLRS_ARITH_OPENCV_EXACT nearest: x = (f o + c) / 2^16 */
    float tf_s, tf_t; /* TensorFlow's scale and translation, floats */
    int cv_float;     /* CLRS_ARITH_OPENCV: x rounded to float (not nearest) */
    int64_t ff, fc; /* its f and c */
    int64_t xm, xc, xd;
    double dr, da, db; /* r, a, b before rounding to float */
} clrs_axis_map;

/* A plane index format (flat in the pooled axes of in, s64). */
#define CLRS__INDEX_IS_PLANE(f)                                              \
    ((f) == CLRS_INDEX_PLANE || (f) == CLRS_INDEX_PLANE_COLUMN)

/* Everything a plan or the reference needs, with every default resolved.
 * `in` and `out` are the two sides of the resample map, geometry only:
 * the map takes an out-index to an in-coordinate in both directions.
 * Forward, in is the caller's src and out its dst; backward, in is
 * diff_src and out diff_dst. They do not say which tensor a kernel reads:
 * kernel-facing code (the lowering, the tuning database, the plan, its
 * tuner and execution, the generator) calls the tensor a kernel reads
 * `src` and the one it writes `dst`, so that a backward kernel reads src
 * = diff_dst (out) and writes dst = diff_src (in). `x` is the forward
 * input that a max pooling backward without an index reads to recompute
 * the argmax (the caller's src argument there). */
typedef struct clrs_problem {
    int backward;
    CLRS_OP_OPTIONS(CLRS_OP_OPTION_FIELD_)

    int rank;
    int naxes;
    clrs_axis_map ax[CLRS_MAX_RANK]; /* resampled axes, increasing */
    int slot[CLRS_MAX_RANK];         /* tensor axis -> index in ax, or -1 */

    struct clrs_tensor_desc in, out;
    int has_index;
    struct clrs_tensor_desc index; /* shape of out */
    int has_x;                     /* backward max without index */
    struct clrs_tensor_desc x;     /* its forward input: shape of in */
    int64_t window_volume;         /* product of taps (pooling) */
    /* A separable plan's passes as one kernel (plan.c), or 0: from the
     * innermost slot outward (CLRS_FUSED_ROLL: the lowering takes the
     * roll variant or fails) or, over two slots whose last is src's
     * contiguous axis, the outer first (CLRS_FUSED_FOLD: the span
     * variant with the outer slot's sums folded first, or fails). */
    int fused;
    /* Slots (bit k) whose taps the kernel computes from the coordinate
     * instead of reading tables (clrs__calc_slot_ok; the plan sets it):
     * clrs__slot_taps leaves their lists empty. */
    unsigned calc;
    /* Channels-last channels fused into the last slot (gen/fuse.c, the
     * lowering's copy only): its positions are x * fuse_c + c, and where
     * the kernel computes that slot's taps it takes pixel x's for each
     * (lower.c's calc_fuse); 0 where nothing is fused. */
    int fuse_c;
    /* Pillow's 8-bit path (CLRS_AA_PILLOW, forward u8 to u8, a weighted
     * filter): weights in its 22-bit fixed point (multiples of 2^-22),
     * sums exact in double, rounded half up, one axis at a time with a
     * u8 image between the passes, the last axis first. */
    int fixed8;
    /* OpenCV's INTER_LINEAR_EXACT (CLRS_ARITH_OPENCV_EXACT, linear,
     * forward u8 to u8): weights in its 8-bit fixed point, the sum
     * exact in double and rounded half up, in one pass. */
    int exact8;
    /* OpenCV's 8-bit cv::resize (CLRS_ARITH_OPENCV, forward u8 to u8
     * over two spatial axes, no antialias, post-op or accumulation): the
     * method whose arithmetic the plan reproduces (clrs_cv8). A two-pass
     * method runs as OpenCV does: its horizontal pass (the last axis,
     * cv_pass 1) sums u8 pixels times its 11-bit integer coefficients
     * into an s32 image, its vertical pass (cv_pass 2) weighs those rows
     * and rounds as OpenCV's 8-bit code does (area downscaling: its float
     * passes through an f32 image); a pass problem has cv_pass set, its
     * method in cv_method and its own dtypes. */
    int cv8;
} clrs_problem;

/* OpenCV's 8-bit methods (clrs_problem.cv8). */
typedef enum clrs_cv8 {
    CLRS_CV8_NONE = 0,
    CLRS_CV8_LINEAR = 1,   /* INTER_LINEAR: two passes */
    CLRS_CV8_CUBIC = 2,    /* INTER_CUBIC: two passes */
    CLRS_CV8_LANCZOS4 = 3, /* INTER_LANCZOS4: two passes */
    CLRS_CV8_HALF_UP = 4,  /* INTER_LINEAR or INTER_AREA halving both axes
                              of 1, 3 or 4 channels: OpenCV's 2x2 area
                              mean, rounded half up, in one pass */
    CLRS_CV8_AREA_LIN = 5, /* INTER_AREA enlarging an axis: linear's
                              passes at its area coordinates */
    CLRS_CV8_AREA = 6,     /* INTER_AREA reducing both axes: its float
                              passes */
    CLRS_CV8_AREA_FAST = 7 /* INTER_AREA by whole factors: the float sum
                              times 1 / area rounded to float, to even, in
                              one pass */
} clrs_cv8;

/* OpenCV's scale of an axis I -> O: 1 / (O / I) in double. */
#define CLRS__CV_SCALE(in, out) (1.0 / ((double)(out) / (double)(in)))

/* Whether p's 8-bit results round half up (exact sums): Pillow's, OpenCV's
 * INTER_LINEAR_EXACT, its 2x2 area mean and its vertical passes but
 * cubic's (whose float sums round half to even). */
#define CLRS__HALF_UP(p)                                                     \
    ((p)->fixed8 || (p)->exact8 || (p)->cv8 == CLRS_CV8_HALF_UP ||           \
     ((p)->cv_pass == 2 && (p)->cv8 != CLRS_CV8_CUBIC &&                     \
      (p)->cv8 != CLRS_CV8_AREA))

/* Where OpenCV's bicubic rows put the element at offset d of an image t
 * (4-D, N C H W, read as OpenCV's image of C interleaved channels
 * whatever its layout): position w C + c of its row of W C values, w =
 * (d / r[0]) % r[1], r[2] = C, c = ((d / r[3]) % r[4]) r[5] + d % r[5]
 * (r[5] the block of a blocked C, else 1); r[6] the positions OpenCV's
 * vector code writes (whole groups of 8). 0 where t's strides do not
 * give w and c so; validate.c. */
int clrs__cv8_row(const struct clrs_tensor_desc *t, int64_t r[7]);

/* Whether p is a two-pass OpenCV 8-bit method as a whole (not a pass). */
#define CLRS__CV8_PASSES(p)                                                  \
    ((p)->cv_pass == 0 && (p)->cv8 != CLRS_CV8_NONE &&                       \
     (p)->cv8 != CLRS_CV8_HALF_UP && (p)->cv8 != CLRS_CV8_AREA_FAST)

/* Whether p, an OpenCV 8-bit method, sums in double and so needs fp64
 * (cubic, lanczos4 and area by whole factors); its intermediate's
 * dtype. */
#define CLRS__CV8_FP64(p)                                                    \
    ((p)->cv8 == CLRS_CV8_CUBIC || (p)->cv8 == CLRS_CV8_LANCZOS4 ||          \
     (p)->cv8 == CLRS_CV8_AREA_FAST)
#define CLRS__CV8_MID(p) ((p)->cv8 == CLRS_CV8_AREA ? CLRS_F32 : CLRS_S32)

/* Whether p is, or is a pass of, linear's arithmetic (bilinear rows). */
#define CLRS__CV8_LIN(p)                                                     \
    ((p)->cv8 == CLRS_CV8_LINEAR || (p)->cv8 == CLRS_CV8_AREA_LIN)

/* The most taps of an axis (outputs times taps per output) a plan keeps
 * in tables by default before computing them in the kernel (CLRS_LAUNCH
 * calc=1: wherever it can; calc=0: never): tables of 2^26 taps take
 * seconds and about 2 GB of host memory to build. Computed antialiased
 * taps loop over the filter per output, twice (its sum first): on PoCL
 * their kernels take 6 to 9 times the tables' in f32 and f64 (the loops
 * unrolled, the work-item loop vectorised), 15 times in u8 (not
 * vectorised: 8-bit gathers) (lib/README.md, "Computed taps"). */
#define CLRS_CALC_MIN_TAPS (INT64_C(1) << 26)

/* The same threshold for an axis of a fixed tap count (not antialiased:
 * nearest, linear, cubic), whose computed taps run on the span path or
 * are shared by a work-item's lanes (any axis but the innermost, or one
 * with channels of their own vector): there computed taps take 1 to 6.5
 * times the tables' kernel time on PoCL, and their tables cost a plan
 * about 120 ms and 55 MB per 2^21 taps (lib/README.md, "Computed
 * taps"), or a quarter tap per tensor element where that is more; over C
 * fused channels, whose tables hold each tap C times, a C-th of that
 * (plan.c, calc_min_taps). */
#define CLRS_CALC_SPAN_MIN_TAPS (INT64_C(1) << 21)

/* Whether the kernel can compute slot k's taps as the reference does
 * (taps.c): forward nearest, linear or cubic, antialiased or not,
 * without a crop box or (cubic, not antialiased) exclude_outside, in the
 * float arithmetic (double for f64 data), no index tensor, the axis
 * unblocked, every index within 32 bits. The count is then
 * clrs__calc_count(p): 1, 2 or 4, or 0 for antialiased taps (the
 * filter's width). */
int clrs__calc_slot_ok(const clrs_problem *p, int k);
int clrs__calc_count(const clrs_problem *p);
/* The radius R of CLRS_MODE_FILTER's filter (before any stretch). */
double clrs__filter_radius(const clrs_problem *p);
/* The radius of p's weighting kernel before any stretch: the filter's,
 * cubic's 2, linear's 1 (antialiased taps span 2 R f + 1 pixels). */
double clrs__kernel_radius(const clrs_problem *p);

/* ---- errors (status.c) ------------------------------------------------ */

/* Records a detail message for this thread and returns status. */
clrs_status clrs__error(clrs_status status, const char *fmt, ...)
    CLRS_PRINTF(2, 3);
clrs_status clrs__verror(clrs_status status, const char *fmt, va_list ap);
/* Clears this thread's message (a call that succeeds). */
void clrs__clear_error(void);
/* Copy of this thread's current message (for contexts). */
const char *clrs__thread_error(void);

/* if (!(cond)) return clrs__error(status, fmt, ...) */
#define CLRS_CHECK(cond, status, ...)                                        \
    do {                                                                     \
        if (!(cond))                                                         \
            return clrs__error((status), __VA_ARGS__);                       \
    } while (0)
#define CLRS_CHECK_PTR(p)                                                    \
    CLRS_CHECK((p) != NULL, CLRS_ERR_NULL_POINTER, "%s is NULL", #p)
/* Propagates an error status unchanged (its message already recorded). */
#define CLRS_TRY(expr)                                                       \
    do {                                                                     \
        clrs_status st_ = (expr);                                            \
        if (st_ < 0)                                                         \
            return st_;                                                      \
    } while (0)

/* ---- descriptors (desc.c) -------------------------------------------- */

/* Validates the tensor (rank, dims, strides >= 0, no int64 overflow of the
 * element count or the largest offset); `what` names it in messages. */
clrs_status clrs__tensor_check(const struct clrs_tensor_desc *t,
                               const char *what);
/* Fails with CLRS_ERR_BAD_STRIDES when two indices share an address. */
clrs_status clrs__tensor_check_no_overlap(const struct clrs_tensor_desc *t,
                                          const char *what);
/* Largest element offset + 1 (elements, padding lanes included); 0 for
 * an empty tensor. */
int64_t clrs__tensor_span(const struct clrs_tensor_desc *t);
/* 1 when a dim is 0: no element, no byte. */
int clrs__tensor_empty(const struct clrs_tensor_desc *t);
/* out: like's dims and blocking with dtype, densely packed in the order
 * of like's strides (the largest outermost): scratch tensors that keep a
 * caller's layout without its gaps or broadcast (zero) strides. */
/* The descriptor of op's resampled slot k alone, on tensor axis `axis`
 * (a separable pass's). */
void clrs__op_one_axis(const clrs_resample_desc *op, int k, int axis,
                       struct clrs_resample_desc *o);
void clrs__tensor_dense_like(const struct clrs_tensor_desc *like,
                             clrs_dtype dtype, struct clrs_tensor_desc *out);
int64_t clrs__tensor_offset(const struct clrs_tensor_desc *t,
                            const int64_t *idx);
double clrs__fraction_value(clrs_fraction f);

/* ---- problem resolution (validate.c, coords.c) ----------------------- */

/* Validates op against the tensors and fills p. backward selects the
 * roles as described for clrs_problem; index and x (the caller's src of
 * a max pooling backward) may be NULL. */
clrs_status clrs__problem_init(clrs_problem *p, const clrs_resample_desc *op,
                               const clrs_tensor_desc *in,
                               const clrs_tensor_desc *out,
                               const clrs_tensor_desc *index,
                               const clrs_tensor_desc *x, int backward);

/* The resampled axes of op for a tensor of this rank, increasing: op's
 * axes (checked against rank) or the default (validate.c). */
clrs_status clrs__resolve_axes(const clrs_resample_desc *op, int rank,
                               int *axes, int *naxes);

/* Fills the coordinate constants of ax (ax->axis, in, out already set)
 * for resampled slot k of op, whose mode and coord are already resolved
 * in p (the coordinate modes of clresample(3)). Validates values that
 * depend on sizes. */
clrs_status clrs__axis_map_init(clrs_axis_map *ax,
                                const clrs_resample_desc *op,
                                const clrs_problem *p, int k);

/* Pooling window box extent K on resampled slot k (op->n_window > k). */
double clrs__window_box(const clrs_resample_desc *op, int k);

/* x(o) under the axis's arithmetic, floor and ties decided as it
 * decides them. */
void clrs__coord(const clrs_axis_map *ax, int64_t o, clrs_xval *xv);

/* ---- per-axis taps (taps.c) ------------------------------------------ */

/* One input pixel read by one output index along one axis (16 bytes: a
 * long axis holds millions). */
typedef struct clrs_tap {
    int64_t idx; /* input index on the axis; -1: a padding tap */
    double w;    /* normalised weight (avg: the per-axis division folded
                    in; max pooling: unused, 1) */
} clrs_tap;

/* All taps of one tensor axis: those of output o are
 * t[start[o]] .. t[start[o + 1] - 1]. An output with no taps is either
 * extrapolated (crop mode, extrap[o] = 1) or an average window holding no
 * pixel under exclude_padding. Max pooling's lists also give each tap's
 * position in the pooling window box, j[e] (its index codes); no other
 * mode reads one, and j is NULL there (clrs__tap_code gives 0). */
typedef struct clrs_taplist {
    int64_t *start;
    clrs_tap *t;
    int32_t *j;
    size_t n, cap;
    unsigned char *extrap; /* crop mode: output o lies outside the input */
} clrs_taplist;

/* Window position e of a list's codes j (NULL: none kept, 0). */
static inline int clrs__tap_code(const int32_t *j, size_t e)
{
    return j ? j[e] : 0;
}

/* Taps of tensor axis a of p for every output index: the mode's taps on a
 * resampled axis, the identity elsewhere. The reference and the device
 * tables both come from here, so they agree tap for tap. On failure tl
 * may still hold memory: always release it with clrs__taplist_free. */
clrs_status clrs__axis_taps(const clrs_problem *p, int a, clrs_taplist *tl);
/* The taps of nr stretches of n outputs of resampled slot k, outputs
 * from[r] .. from[r] + n - 1 at positions r * n .. r * n + n - 1 of tl:
 * the taps clrs__axis_taps gives them (Pillow's arithmetic only from
 * output 0: its nearest sums its centre output by output). */
clrs_status clrs__axis_taps_ranges(const clrs_problem *p, int k,
                                   const int64_t *from, int nr, int64_t n,
                                   clrs_taplist *tl);
void clrs__taplist_free(clrs_taplist *tl);
/* The most taps one of the first n outputs of tl has (0 for none). */
int64_t clrs__taplist_max(const clrs_taplist *tl, int64_t n);
/* The least k <= 8 such that every weight of the first n outputs of tl
 * is a multiple of 2^-k, at least 0, each output's summing to at most 1,
 * none extrapolated, and (unless pad_ok) none a padding tap; else -1.
 * The fixed-point path's condition on one axis (lower.c). Where unit is
 * not NULL and k >= 0, *unit says whether every output's weights sum to
 * exactly 1 (the s8 fixed-point path's bias then cancels). */
int clrs__taplist_dyadic(const clrs_taplist *tl, int64_t n, int pad_ok,
                         int *unit);

/* One output reading an input pixel along one axis (a transposed tap). */
typedef struct clrs_ttap {
    int64_t o; /* output index on the axis */
    double w;  /* the tap's weight (summed over merged duplicates) */
} clrs_ttap;

/* The transposed taps of one axis: those of input i are
 * t[start[i]] .. t[start[i + 1] - 1], o increasing; j[e] the tap's
 * position in the pooling window box where the forward list kept them
 * (max pooling), else NULL. */
typedef struct clrs_ttaplist {
    int64_t *start;
    clrs_ttap *t;
    int32_t *j;
    size_t n;
} clrs_ttaplist;

/* Transposes tl (nout outputs over an axis of nin inputs) for the
 * backward gather; merge folds taps of one output that name the same
 * pixel into one entry. Always release tt with clrs__ttaplist_free. */
clrs_status clrs__taplist_transpose(const clrs_taplist *tl, int64_t nout,
                                    int64_t nin, int merge,
                                    clrs_ttaplist *tt);
void clrs__ttaplist_free(clrs_ttaplist *tt);

/* Every resampled slot's taps, computed once per plan from the problem:
 * the forward lists and, for a backward problem, their transposes (merged
 * unless window codes must tell duplicate taps apart). The lowering and
 * the tables read them. */
#define CLRS_FUSED_ROLL 1
#define CLRS_FUSED_FOLD 2

typedef struct clrs_slot_taps {
    int n; /* slots */
    clrs_taplist tl[CLRS_MAX_RANK];
    clrs_ttaplist tt[CLRS_MAX_RANK];
} clrs_slot_taps;

clrs_status clrs__slot_taps(const clrs_problem *p, clrs_slot_taps *st);
void clrs__slot_taps_free(clrs_slot_taps *st);

/* Slot k's entries by position: position i holds entries start[i] ..
 * start[i + 1] - 1, each reading one element of the other side of the
 * map (-1: a padding tap) with a window position and a weight. Forward
 * lists: the positions are out's, the entries the taps into in;
 * transposed lists (the backward gather): the positions are in's, the
 * entries the outputs that read it. A kernel walks the positions of its
 * dst and reads its src through the entries (forward lists forward,
 * transposed ones backward); a backward max recompute also walks the
 * forward lists, reading x. */
typedef struct clrs_lists {
    const int64_t *start;
    const clrs_tap *fwd;  /* forward taps, or */
    const clrs_ttap *bwd; /* transposed entries */
    const int32_t *j;     /* window positions (max pooling), or NULL */
    int64_t npos;         /* positions */
    int64_t nread;        /* elements along the axis the entries read */
    size_t n;             /* entries */
} clrs_lists;

/* The forward lists of slot k (transposed = 0) or its transposed ones. */
void clrs__lists_of(const clrs_problem *p, const clrs_slot_taps *st, int k,
                    int transposed, clrs_lists *l);
/* The most entries one position of l has (0 for none). */
int64_t clrs__lists_max(const clrs_lists *l);

static inline int64_t clrs__lists_read(const clrs_lists *l, size_t e)
{
    return l->fwd ? l->fwd[e].idx : l->bwd[e].o;
}

static inline int clrs__lists_code(const clrs_lists *l, size_t e)
{
    return clrs__tap_code(l->j, e);
}

static inline double clrs__lists_weight(const clrs_lists *l, size_t e)
{
    return l->fwd ? l->fwd[e].w : l->bwd[e].w;
}

/* ---- dtype conversion (convert.c) ------------------------------------ */

/* Element i (in elements from base) of dtype dt, as double. */
double clrs__load(const void *base, clrs_dtype dt, int64_t i);
/* Stores v by the conversion rules: round to nearest even, integers
 * saturate, NaN into an integer is 0. */
void clrs__store(void *base, clrs_dtype dt, int64_t i, double v);
float clrs__half_to_float(uint16_t h);
uint16_t clrs__float_to_half(float f); /* round to nearest even */
float clrs__bf16_to_float(uint16_t h);
uint16_t clrs__float_to_bf16(float f); /* round to nearest even */

#endif /* CLRS_INTERNAL_H */
