/* Problem resolution: checks an operation descriptor against concrete
 * tensors and fills a clrs_problem with every default made explicit. */
#include "model/internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Mode and dtype properties: the rows of feature_maps.h. */
static int is_pooling(clrs_mode m) { return clrs__mode_pooling((int)m); }

static const char *mode_name(clrs_mode m) { return clrs__mode_name((int)m); }

/* Max pooling's extras: the index tensor, neg_inf padding, backward
 * from x, the forward input. */
static int has_index(clrs_mode m)
{
    return clrs__mode_allows((int)m, CLRS_MOPT_INDEX);
}

static const char *dtype_name(clrs_dtype dt)
{
    const char *n = clrs_dtype_name(dt);
    return n ? n : "unknown";
}

clrs_status clrs__resolve_axes(const clrs_resample_desc *op, int rank,
                               int *axes, int *naxes)
{
    int i;

    if (op->naxes > 0) {
        CLRS_CHECK(op->naxes <= CLRS_MAX_RANK, CLRS_ERR_BAD_AXES,
                   "%d resampled axes (at most %d)", op->naxes,
                   CLRS_MAX_RANK);
        for (i = 0; i < op->naxes; ++i) {
            CLRS_CHECK(op->axes[i] >= 0 && op->axes[i] < rank,
                       CLRS_ERR_BAD_AXES,
                       "resampled axis %d is outside the rank %d",
                       op->axes[i], rank);
            /* The setter enforces this too; a descriptor is plain memory
             * inside the library, so keep the invariant the loops rely on
             * checked where it is used. */
            CLRS_CHECK(i == 0 || op->axes[i] > op->axes[i - 1],
                       CLRS_ERR_BAD_AXES,
                       "resampled axes are not increasing: %d after %d",
                       op->axes[i], op->axes[i - 1]);
            axes[i] = op->axes[i];
        }
        *naxes = op->naxes;
        return CLRS_SUCCESS;
    }
    /* Default: N and C untouched for rank >= 3 (NCHW-style tensors);
     * lower ranks have no batch/channel axes to skip. */
    *naxes = 0;
    for (i = rank >= 3 ? 2 : 0; i < rank; ++i)
        axes[(*naxes)++] = i;
    return CLRS_SUCCESS;
}

/* Data tensors, gradients included: every dtype but s64 (index tensors
 * only). Integer gradients sum in float (double where a tensor is f64) and
 * round once on the store, as forward results do. */
static clrs_status check_data_dtype(const struct clrs_tensor_desc *t,
                                    const char *what)
{
    CLRS_CHECK(t->dtype != CLRS_S64, CLRS_ERR_BAD_DTYPE,
               "%s dtype s64 is allowed for index tensors only", what);
    return CLRS_SUCCESS;
}

static clrs_status check_enums(const clrs_resample_desc *op)
{
    CLRS_CHECK(clrs__mode_valid((int)op->mode),
               CLRS_ERR_INVALID_ENUM, "mode %d is unknown", (int)op->mode);
    CLRS_CHECK((unsigned)op->padding <= (unsigned)CLRS_PAD_NEG_INF,
               CLRS_ERR_INVALID_ENUM, "padding mode %d is unknown",
               (int)op->padding);
    CLRS_CHECK((unsigned)op->coord <= (unsigned)CLRS_COORD_SCALE_AND_TRANSLATE,
               CLRS_ERR_INVALID_ENUM, "coordinate mode %d is unknown",
               (int)op->coord);
    CLRS_CHECK((unsigned)op->arith <= (unsigned)CLRS_ARITH_OPENCV,
               CLRS_ERR_INVALID_ENUM, "coordinate arithmetic %d is unknown",
               (int)op->arith);
    CLRS_CHECK((unsigned)op->aa_rule <= (unsigned)CLRS_AA_PILLOW,
               CLRS_ERR_INVALID_ENUM, "antialias rule %d is unknown",
               (int)op->aa_rule);
    CLRS_CHECK((unsigned)op->rounding <= (unsigned)CLRS_ROUND_CEIL,
               CLRS_ERR_INVALID_ENUM, "nearest rounding %d is unknown",
               (int)op->rounding);
    CLRS_CHECK((unsigned)op->index_format <= (unsigned)CLRS_INDEX_PLANE_COLUMN,
               CLRS_ERR_INVALID_ENUM, "index format %d is unknown",
               (int)op->index_format);
    CLRS_CHECK((unsigned)op->nan_policy <= (unsigned)CLRS_NAN_IGNORE,
               CLRS_ERR_INVALID_ENUM, "NaN policy %d is unknown",
               (int)op->nan_policy);
    CLRS_CHECK((unsigned)op->divisor <= (unsigned)CLRS_DIVISOR_CLIPPED,
               CLRS_ERR_INVALID_ENUM, "divisor rule %d is unknown",
               (int)op->divisor);
    CLRS_CHECK(op->n_post_ops >= 0 && op->n_post_ops <= CLRS_MAX_POST_OPS,
               CLRS_ERR_INVALID_VALUE, "%d post-ops (at most %d)",
               op->n_post_ops, CLRS_MAX_POST_OPS);
    return CLRS_SUCCESS;
}

/* Every per-axis array that is set must have one entry per resampled
 * axis: a silent mismatch would apply options to the wrong axes. */
static clrs_status check_counts(const clrs_resample_desc *op, int naxes)
{
    const int counts[] = {op->n_window,  op->n_stride,  op->n_pad,
                          op->n_scales,  op->n_offsets, op->n_roi,
                          op->n_dilation};
    static const char *const names[] = {"window", "stride", "padding sizes",
                                        "scales", "pixel offsets", "roi",
                                        "dilation"};
    size_t i;

    for (i = 0; i < sizeof counts / sizeof counts[0]; ++i)
        CLRS_CHECK(counts[i] == 0 || counts[i] == naxes, CLRS_ERR_PARAM_COUNT,
                   "%s has %d entries, %d axes are resampled", names[i],
                   counts[i], naxes);
    return CLRS_SUCCESS;
}

/* DEFAULT coordinates: window for pooling or a stride; PyTorch's
 * F.interpolate 'nearest' is asymmetric; else half_pixel. */
static clrs_coord default_coord(const clrs_resample_desc *op)
{
    if (is_pooling(op->mode) || op->n_stride > 0)
        return CLRS_COORD_WINDOW;
    if (op->vendor == CLRS_VENDOR_PYTORCH && op->mode == CLRS_MODE_NEAREST)
        return CLRS_COORD_ASYMMETRIC;
    return CLRS_COORD_HALF_PIXEL;
}

/* Padding, coordinate mode and the option combinations they allow. */
/* The padding mode and the value a padding tap reads. */
static clrs_status resolve_padding(clrs_problem *p,
                                   const clrs_resample_desc *op)
{
    p->padding = op->padding;
    if (p->padding == CLRS_PAD_DEFAULT)
        p->padding = clrs__mode_default_padding((int)op->mode);
    CLRS_CHECK(p->padding != CLRS_PAD_NEG_INF || has_index(op->mode),
               CLRS_ERR_INVALID_COMBINATION,
               "neg_inf padding is for max pooling only, mode is %s",
               mode_name(op->mode));
    switch (p->padding) {
    case CLRS_PAD_CONSTANT:
        p->pad_value = op->pad_value;
        break;
    case CLRS_PAD_NEG_INF:
        p->pad_value = -INFINITY;
        break;
    default: /* ZERO reads 0; EDGE never reads the value */
        p->pad_value = 0.0;
        break;
    }

    return CLRS_SUCCESS;
}

/* Windows, strides, paddings and dilations: pooling's, or (on
 * interpolation) only under the window coordinate mode. */
static clrs_status check_windows(const clrs_problem *p,
                                 const clrs_resample_desc *op)
{
    int pool = is_pooling(op->mode);

    if (pool) {
        CLRS_CHECK(p->coord == CLRS_COORD_WINDOW,
                   CLRS_ERR_INVALID_COMBINATION,
                   "%s pooling needs the window coordinate mode, "
                   "coordinate mode %d given",
                   mode_name(op->mode), (int)p->coord);
        CLRS_CHECK(op->n_window > 0, CLRS_ERR_MISSING_INPUT,
                   "%s pooling needs a window (set_window)",
                   mode_name(op->mode));
        {
            int k;
            for (k = 0; k < op->n_dilation; ++k)
                CLRS_CHECK(op->dilation[k] == 1 ||
                               (op->window[k].num % op->window[k].den == 0 &&
                                (op->n_stride <= k ||
                                 op->stride[k].num % op->stride[k].den == 0) &&
                                (op->n_pad <= k ||
                                 (op->pre[k].num % op->pre[k].den == 0 &&
                                  op->post[k].num % op->post[k].den == 0))),
                           CLRS_ERR_INVALID_COMBINATION,
                           "dilation %lld on resampled axis %d needs an "
                           "integer window, stride and padding",
                           (long long)op->dilation[k], k);
        }
    } else {
        int k;
        for (k = 0; k < op->n_dilation; ++k)
            CLRS_CHECK(op->dilation[k] == 1, CLRS_ERR_INVALID_COMBINATION,
                       "dilation is for pooling, mode is %s",
                       mode_name(op->mode));
        CLRS_CHECK(p->coord == CLRS_COORD_WINDOW ||
                       (op->n_window == 0 && op->n_stride == 0 &&
                        op->n_pad == 0),
                   CLRS_ERR_INVALID_COMBINATION,
                   "window, stride or padding sizes on %s interpolation "
                   "need the window coordinate mode",
                   mode_name(op->mode));
    }
    return CLRS_SUCCESS;
}

/* The options each mode takes (antialias, exclude_outside, a divisor
 * override, crop and pixel offsets). */
static clrs_status check_mode_options(const clrs_problem *p,
                                      const clrs_resample_desc *op)
{
    CLRS_CHECK(!op->antialias ||
                   clrs__mode_antialiased((int)op->mode, op->antialias),
               CLRS_ERR_INVALID_COMBINATION,
               "antialias is for linear, cubic and filter modes, mode is %s",
               mode_name(op->mode));
    CLRS_CHECK(
        !op->exclude_outside ||
            clrs__mode_allows((int)op->mode, CLRS_MOPT_EXCLUDE_OUTSIDE) ||
            (clrs__mode_antialiased((int)op->mode, op->antialias) &&
             op->aa_rule == CLRS_AA_ONNX),
        CLRS_ERR_INVALID_COMBINATION,
        "exclude_outside is for cubic and filter modes and "
        "ONNX-rule antialiasing, mode is %s",
        mode_name(op->mode));
    CLRS_CHECK(op->divisor_override == 0 ||
                   op->mode == CLRS_MODE_AVG_INCLUDE_PADDING ||
                   op->mode == CLRS_MODE_AVG_EXCLUDE_PADDING,
               CLRS_ERR_INVALID_COMBINATION,
               "a divisor override is for average pooling, mode is %s",
               mode_name(op->mode));
    CLRS_CHECK(p->coord != CLRS_COORD_TF_CROP_AND_RESIZE ||
                   clrs__mode_allows((int)op->mode, CLRS_MOPT_CROP),
               CLRS_ERR_INVALID_COMBINATION,
               "tf_crop_and_resize is for interpolation modes, mode is %s",
               mode_name(op->mode));
    CLRS_CHECK(p->coord != CLRS_COORD_SCALE_AND_TRANSLATE ||
                   clrs__mode_allows((int)op->mode, CLRS_MOPT_CROP),
               CLRS_ERR_INVALID_COMBINATION,
               "scale_and_translate is for interpolation modes, mode is %s",
               mode_name(op->mode));
    CLRS_CHECK(p->coord != CLRS_COORD_SCALE_AND_TRANSLATE || op->n_offsets > 0,
               CLRS_ERR_MISSING_INPUT,
               "scale_and_translate coordinate mode needs "
               "set_scale_and_translate");
    CLRS_CHECK(p->coord != CLRS_COORD_PIXEL_OFFSETS || op->n_offsets > 0,
               CLRS_ERR_MISSING_INPUT,
               "pixel_offsets coordinate mode needs set_pixel_offsets");
    return CLRS_SUCCESS;
}

static clrs_status resolve_options(clrs_problem *p,
                                   const clrs_resample_desc *op)
{
    CLRS_TRY(resolve_padding(p, op));
    p->coord = op->coord;
    if (p->coord == CLRS_COORD_DEFAULT)
        p->coord = default_coord(op);
    if (isnan(p->cubic_a)) /* a preset's: PyTorch's antialias uses PIL's */
        p->cubic_a = op->antialias ? -0.5 : -0.75;
    if (isnan(p->filter_p) || clrs__filter_nparams((int)p->filter) < 1)
        p->filter_p = clrs__filter_default_p((int)p->filter);
    if (isnan(p->filter_q) || clrs__filter_nparams((int)p->filter) < 2)
        p->filter_q = clrs__filter_default_q((int)p->filter);
    CLRS_TRY(check_windows(p, op));
    return check_mode_options(p, op);
}

static int same_dims(const struct clrs_tensor_desc *a,
                     const struct clrs_tensor_desc *b)
{
    int i;
    if (a->rank != b->rank)
        return 0;
    for (i = 0; i < a->rank; ++i)
        if (a->dims[i] != b->dims[i])
            return 0;
    return 1;
}

/* Binary post-op operands broadcast against dst. */
static clrs_status check_post_ops(const clrs_problem *p)
{
    int i, d;
    for (i = 0; i < p->n_post_ops; ++i) {
        const clrs_post_op *po = &p->post_ops[i];
        if (po->kind != CLRS_POST_BINARY)
            continue;
        CLRS_TRY(clrs__tensor_check(&po->operand, "binary operand"));
        CLRS_CHECK(po->operand.rank == p->out.rank, CLRS_ERR_SHAPE_MISMATCH,
                   "post-op %d operand rank %d != dst rank %d", i,
                   po->operand.rank, p->out.rank);
        for (d = 0; d < p->out.rank; ++d)
            CLRS_CHECK(po->operand.dims[d] == 1 ||
                           po->operand.dims[d] == p->out.dims[d],
                       CLRS_ERR_SHAPE_MISMATCH,
                       "post-op %d operand dim %d is %lld; dst dim is %lld "
                       "(must be 1 or equal)",
                       i, d, (long long)po->operand.dims[d],
                       (long long)p->out.dims[d]);
    }
    return CLRS_SUCCESS;
}

/* Index dtype by format (clresample(3), Index tensors): the window
 * format may use s8 only when every window index fits it; s32 always
 * works. */
static clrs_status check_index_dtype(const clrs_problem *p)
{
    clrs_dtype dt = p->index.dtype;
    if (CLRS__INDEX_IS_PLANE(p->index_format)) {
        CLRS_CHECK(dt == CLRS_S64, CLRS_ERR_BAD_INDEX_TENSOR,
                   "index tensor dtype %s; plane format needs s64",
                   dtype_name(dt));
        return CLRS_SUCCESS;
    }
    CLRS_CHECK(dt == CLRS_S32 || dt == CLRS_S8, CLRS_ERR_BAD_INDEX_TENSOR,
               "index tensor dtype %s; window format needs s8 or s32",
               dtype_name(dt));
    CLRS_CHECK(dt == CLRS_S32 || p->window_volume <= CLRS_S8_INDEX_MAX,
               CLRS_ERR_BAD_INDEX_TENSOR,
               "index tensor dtype s8 cannot hold window volume %lld "
               "(s8 needs <= 127; use s32)",
               (long long)p->window_volume);
    return CLRS_SUCCESS;
}

/* Each tensor on its own; the tensors the call writes (dst and a
 * forward index tensor, or diff_src) must not map two elements to one
 * address (the result would depend on write order). */
static clrs_status check_tensors(const clrs_tensor_desc *in,
                                 const clrs_tensor_desc *out,
                                 const clrs_tensor_desc *index,
                                 const clrs_tensor_desc *x, int backward,
                                 const char *in_name, const char *out_name)
{
    CLRS_TRY(clrs__tensor_check(in, in_name));
    CLRS_TRY(clrs__tensor_check(out, out_name));
    if (index)
        CLRS_TRY(clrs__tensor_check(index, "index"));
    if (x)
        CLRS_TRY(clrs__tensor_check(x, "src"));
    CLRS_TRY(check_data_dtype(in, in_name));
    CLRS_TRY(check_data_dtype(out, out_name));
    if (x) /* the forward input of max backward: any data dtype */
        CLRS_TRY(check_data_dtype(x, "src"));
    if (backward)
        return clrs__tensor_check_no_overlap(in, in_name);
    CLRS_TRY(clrs__tensor_check_no_overlap(out, out_name));
    if (index)
        CLRS_TRY(clrs__tensor_check_no_overlap(index, "index"));
    return CLRS_SUCCESS;
}

/* The resampled axes into p->slot (tensor axis -> slot, or -1); every
 * other axis has the same size in and out. */
static clrs_status resolve_shapes(clrs_problem *p,
                                  const clrs_resample_desc *op,
                                  const clrs_tensor_desc *in,
                                  const clrs_tensor_desc *out,
                                  const char *in_name, const char *out_name,
                                  int *axes, int *naxes)
{
    int i, k;

    CLRS_CHECK(in->rank == out->rank, CLRS_ERR_SHAPE_MISMATCH,
               "%s rank %d != %s rank %d", in_name, in->rank, out_name,
               out->rank);
    CLRS_TRY(clrs__resolve_axes(op, in->rank, axes, naxes));
    for (i = 0; i < in->rank; ++i)
        p->slot[i] = -1;
    for (k = 0; k < *naxes; ++k)
        p->slot[axes[k]] = k;
    for (i = 0; i < in->rank; ++i)
        CLRS_CHECK(p->slot[i] >= 0 || in->dims[i] == out->dims[i],
                   CLRS_ERR_SHAPE_MISMATCH,
                   "%s dim %d is %lld, %s dim %d is %lld; axis %d is not "
                   "resampled, so they must be equal",
                   in_name, i, (long long)in->dims[i], out_name, i,
                   (long long)out->dims[i], i);
    return check_counts(op, *naxes);
}

/* Who may pass an index tensor or x (the caller's src of a max pooling
 * backward), and their shapes. */
static clrs_status check_index_x(const clrs_resample_desc *op,
                                 const clrs_tensor_desc *in,
                                 const clrs_tensor_desc *out,
                                 const clrs_tensor_desc *index,
                                 const clrs_tensor_desc *x, int backward,
                                 const char *out_name)
{
    if (index) {
        CLRS_CHECK(has_index(op->mode), CLRS_ERR_BAD_INDEX_TENSOR,
                   "index tensor given for %s mode; only max pooling has "
                   "one",
                   mode_name(op->mode));
        CLRS_CHECK(backward || !op->inference, CLRS_ERR_INVALID_COMBINATION,
                   "index tensor given in inference mode, which writes "
                   "none (set_inference 0 for training)");
        CLRS_CHECK(same_dims(index, out), CLRS_ERR_BAD_INDEX_TENSOR,
                   "index tensor shape differs from %s shape", out_name);
    }
    if (backward && has_index(op->mode))
        CLRS_CHECK(index || x, CLRS_ERR_MISSING_INPUT,
                   "max pooling backward needs the index tensor or src "
                   "to find each window's argmax");
    if (x) {
        CLRS_CHECK(backward && has_index(op->mode),
                   CLRS_ERR_INVALID_COMBINATION,
                   "src is only read by max pooling backward");
        CLRS_CHECK(same_dims(x, in), CLRS_ERR_SHAPE_MISMATCH,
                   "src shape differs from diff_src shape");
    }
    CLRS_CHECK(!backward || op->n_post_ops == 0,
               CLRS_ERR_INVALID_COMBINATION,
               "post-ops are forward only; backward has %d",
               op->n_post_ops);
    return CLRS_SUCCESS;
}

/* Per-axis coordinate constants (coords.c) and the pooling window's
 * volume. */
static clrs_status resolve_axis_maps(clrs_problem *p,
                                     const clrs_resample_desc *op,
                                     const int *axes)
{
    int k;

    p->window_volume = is_pooling(p->mode) ? 1 : 0;
    for (k = 0; k < p->naxes; ++k) {
        clrs_axis_map *ax = &p->ax[k];
        ax->axis = axes[k];
        ax->in = p->in.dims[axes[k]];
        ax->out = p->out.dims[axes[k]];
        CLRS_TRY(clrs__axis_map_init(ax, op, p, k));
        if (is_pooling(p->mode)) {
            CLRS_CHECK(ax->taps > 0 &&
                           p->window_volume <= INT64_MAX / ax->taps,
                       CLRS_ERR_OVERFLOW,
                       "window volume overflows int64 at axis %d",
                       ax->axis);
            p->window_volume *= ax->taps;
        }
    }
    return CLRS_SUCCESS;
}

/* Whether every offset d of t gives part `at` of its index as
 * (d / stride) % extent: every other part with more than one index
 * strides by a multiple of stride * extent or lies, all of them
 * together, below stride. The parts: each axis, a blocked axis as its
 * blocks (its stride) and the place in a block (stride 1). */
static int extractable(const struct clrs_tensor_desc *t, int at)
{
    int64_t n[CLRS_MAX_RANK + 1] = {0}, s[CLRS_MAX_RANK + 1] = {0}, below = 0;
    int a, m = 0, k;

    for (a = 0; a < t->rank; ++a) {
        n[m] = a == t->block_axis ? (t->dims[a] + t->block - 1) / t->block
                                  : t->dims[a];
        s[m++] = t->strides[a];
        if (a == t->block_axis) {
            n[m] = t->block;
            s[m++] = 1;
        }
    }
    for (k = 0; k < m; ++k) {
        if (k == at || n[k] < 2)
            continue;
        if (s[k] >= s[at] && s[k] % (s[at] * n[at]) != 0)
            return 0;
        if (s[k] < s[at])
            below += (n[k] - 1) * s[k];
    }
    return below < s[at];
}

int clrs__cv8_row(const struct clrs_tensor_desc *t, int64_t r[7])
{
    const int blocked = t->block_axis == 1;
    /* parts: N, C (its blocks), [the place in a block], H, W */
    const int w = blocked ? 4 : 3;

    r[0] = t->strides[3];
    r[1] = t->dims[3];
    r[2] = t->dims[1];
    r[3] = t->strides[1];
    r[4] = blocked ? (t->dims[1] + t->block - 1) / t->block : t->dims[1];
    r[5] = blocked ? t->block : 1;
    r[6] = t->dims[3] * t->dims[1] / 8 * 8;
    if (t->rank != 4 || (t->block_axis >= 0 && !blocked) ||
        !extractable(t, w) || (t->dims[1] > 1 && !extractable(t, 1)) ||
        (blocked && !extractable(t, 2)))
        return 0;
    return 1;
}

/* OpenCV's 8-bit method of p (clrs_cv8), or none: the OpenCV preset's
 * linear, cubic (a = -0.75), lanczos4 and area at half-pixel centres,
 * forward without antialias, index, post-op or accumulation. A pass
 * (cv_pass) has its method set; a whole problem needs u8 to u8 over the
 * two spatial axes of a 4-D tensor (cv::resize's images, C channels
 * interleaved whatever the layout). Area takes its linear passes where
 * an axis grows, its float passes where both shrink, its sum by whole
 * factors where both shrink so (is_area_fast). cv::resize halves both
 * axes of linear with its area code too: the mean of 2x2 pixels, rounded
 * half up for 1, 3 or 4 channels, half to even (as the float sum of this
 * library rounds) for the others. */
static int cv8_method(const clrs_problem *p)
{
    const int area = p->vendor == CLRS_VENDOR_OPENCV &&
                     p->mode == CLRS_MODE_FILTER &&
                     p->filter == CLRS_FILTER_AREA;
    int64_t cn;
    int m = 0, k, up = 0, whole = 1;

    if (p->cv_pass)
        return p->cv_method;
    if ((p->arith != CLRS_ARITH_OPENCV && !area) || p->backward ||
        p->antialias || p->has_index || p->n_post_ops > 0 || p->accumulate ||
        p->coord != CLRS_COORD_HALF_PIXEL)
        return CLRS_CV8_NONE;
    if (area)
        m = CLRS_CV8_AREA;
    else if (p->mode == CLRS_MODE_LINEAR)
        m = CLRS_CV8_LINEAR;
    else if (p->mode == CLRS_MODE_CUBIC && p->cubic_a == -0.75)
        m = CLRS_CV8_CUBIC;
    else if (p->mode == CLRS_MODE_FILTER && p->filter == CLRS_FILTER_LANCZOS &&
             p->filter_p == 4)
        m = CLRS_CV8_LANCZOS4;
    if (m == CLRS_CV8_NONE || p->in.dtype != CLRS_U8 ||
        p->out.dtype != CLRS_U8 || p->rank != 4 || p->naxes != 2 ||
        p->ax[0].axis != 2 || p->ax[1].axis != 3)
        return CLRS_CV8_NONE;
    if (m == CLRS_CV8_CUBIC) {
        int64_t r[7];
        return clrs__cv8_row(&p->out, r) ? m : CLRS_CV8_NONE;
    }
    if (m != CLRS_CV8_LINEAR && m != CLRS_CV8_AREA)
        return m;
    /* cv::resize: whole factors (is_area_fast) to within DBL_EPSILON */
    for (k = 0; k < 2; ++k) {
        const double s = CLRS__CV_SCALE(p->ax[k].in, p->ax[k].out);
        up |= s < 1;
        whole &= fabs(s - nearbyint(s)) < DBL_EPSILON;
        if (m == CLRS_CV8_LINEAR && nearbyint(s) != 2)
            whole = 0;
    }
    if (m == CLRS_CV8_AREA && up)
        return CLRS_CV8_AREA_LIN;
    if (!whole)
        return m;
    cn = p->in.dims[1];
    if (p->ax[0].in == 2 * p->ax[0].out && p->ax[1].in == 2 * p->ax[1].out &&
        (cn == 1 || cn == 3 || cn == 4))
        return CLRS_CV8_HALF_UP;
    /* linear's other halvings: its float path's sum, exact, to even */
    return m == CLRS_CV8_AREA ? CLRS_CV8_AREA_FAST : CLRS_CV8_NONE;
}

clrs_status clrs__problem_init(clrs_problem *p, const clrs_resample_desc *op,
                               const clrs_tensor_desc *in,
                               const clrs_tensor_desc *out,
                               const clrs_tensor_desc *index,
                               const clrs_tensor_desc *x, int backward)
{
    const char *in_name = backward ? "diff_src" : "src";
    const char *out_name = backward ? "diff_dst" : "dst";
    int axes[CLRS_MAX_RANK], naxes;

    CLRS_CHECK_PTR(p);
    memset(p, 0, sizeof *p);
    CLRS_CHECK(op != NULL, CLRS_ERR_NULL_POINTER, "op is NULL");
    CLRS_CHECK(in != NULL, CLRS_ERR_NULL_POINTER, "%s is NULL", in_name);
    CLRS_CHECK(out != NULL, CLRS_ERR_NULL_POINTER, "%s is NULL", out_name);
    CLRS_TRY(check_enums(op));
    CLRS_TRY(check_tensors(in, out, index, x, backward, in_name, out_name));
    CLRS_TRY(resolve_shapes(p, op, in, out, in_name, out_name, axes, &naxes));

    /* Options: the descriptor's, then the defaults resolved. */
    p->backward = backward != 0;
#define COPY_(type, name, dim) memcpy(&p->name, &op->name, sizeof p->name);
    CLRS_OP_OPTIONS(COPY_)
#undef COPY_
    CLRS_TRY(resolve_options(p, op));
    CLRS_TRY(check_index_x(op, in, out, index, x, backward, out_name));

    p->rank = in->rank;
    p->naxes = naxes;
    p->in = *in;
    p->out = *out;
    p->has_index = index != NULL;
    if (index)
        p->index = *index;
    p->has_x = x != NULL;
    if (x)
        p->x = *x;
    CLRS_TRY(check_post_ops(p));
    p->fixed8 = p->aa_rule == CLRS_AA_PILLOW && !p->backward &&
                in->dtype == CLRS_U8 && out->dtype == CLRS_U8 &&
                (p->mode == CLRS_MODE_FILTER ||
                 clrs__mode_antialiased((int)p->mode, p->antialias));
    p->exact8 = p->arith == CLRS_ARITH_OPENCV_EXACT && !p->backward &&
                p->mode == CLRS_MODE_LINEAR && !p->antialias &&
                in->dtype == CLRS_U8 && out->dtype == CLRS_U8;
    CLRS_TRY(resolve_axis_maps(p, op, axes));
    p->cv8 = cv8_method(p);
    if (index)
        CLRS_TRY(check_index_dtype(p));
    return CLRS_SUCCESS;
}
