/* Tensor and resample-operation descriptors: creation, validation of every
 * setter's arguments, layout arithmetic (offsets, spans, overlap). */
#include "model/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- dtypes ------------------------------------------------------------ */

/* Names and sizes: CLRS_DTYPE_MAP (feature_maps.h). */
static int dtype_valid(clrs_dtype dt) { return clrs__dtype_valid((int)dt); }

size_t clrs_dtype_size(clrs_dtype dtype)
{
    return clrs__dtype_size((int)dtype);
}

const char *clrs_dtype_name(clrs_dtype dtype)
{
    return clrs__dtype_name((int)dtype);
}

/* ---- tensor layout arithmetic ------------------------------------------ */

static int mul_overflows(int64_t a, int64_t b, int64_t *out)
{
    if (a != 0 && b > INT64_MAX / a)
        return 1;
    *out = a * b;
    return 0;
}

static int add_overflows(int64_t a, int64_t b, int64_t *out)
{
    if (b > INT64_MAX - a)
        return 1;
    *out = a + b;
    return 0;
}

/* Number of outer positions of axis i: blocks for the blocked axis. The
 * ceiling is taken without adding block - 1 first, which overflows for
 * dims within a block of INT64_MAX. */
static int64_t outer_extent(const struct clrs_tensor_desc *t, int i)
{
    if (i == t->block_axis)
        return t->dims[i] / t->block + (t->dims[i] % t->block != 0);
    return t->dims[i];
}

clrs_status clrs__tensor_check(const struct clrs_tensor_desc *t,
                               const char *what)
{
    int64_t count = 1, span = 0, bytes;
    int i;
    CLRS_CHECK(t != NULL, CLRS_ERR_NULL_POINTER, "%s descriptor is NULL",
               what);
    CLRS_CHECK(t->rank >= 1 && t->rank <= CLRS_MAX_RANK, CLRS_ERR_BAD_RANK,
               "%s rank %d is outside 1..%d", what, t->rank, CLRS_MAX_RANK);
    CLRS_CHECK(dtype_valid(t->dtype), CLRS_ERR_INVALID_ENUM,
               "%s dtype %d is unknown", what, (int)t->dtype);
    for (i = 0; i < t->rank; ++i) {
        int64_t ext, term;
        CLRS_CHECK(t->dims[i] >= 0, CLRS_ERR_BAD_DIMS,
                   "%s dim %d is %lld (must be >= 0)", what, i,
                   (long long)t->dims[i]);
        CLRS_CHECK(t->strides[i] >= 0, CLRS_ERR_BAD_STRIDES,
                   "%s stride %d is %lld (must be >= 0)", what, i,
                   (long long)t->strides[i]);
        CLRS_CHECK(!mul_overflows(count, t->dims[i], &count), CLRS_ERR_OVERFLOW,
                   "%s element count overflows int64 at dim %d", what, i);
        ext = outer_extent(t, i);
        if (ext == 0)
            continue; /* an empty tensor: no offset at all */
        CLRS_CHECK(!mul_overflows(ext - 1, t->strides[i], &term) &&
                       !add_overflows(span, term, &span),
                   CLRS_ERR_OVERFLOW,
                   "%s largest offset overflows int64 at dim %d", what, i);
    }
    if (t->block_axis >= 0) {
        CLRS_CHECK(t->block_axis < t->rank, CLRS_ERR_INVALID_VALUE,
                   "%s block axis %d is outside the rank %d", what,
                   t->block_axis, t->rank);
        CLRS_CHECK(t->block == 8 || t->block == 16, CLRS_ERR_INVALID_VALUE,
                   "%s block %d (must be 8 or 16)", what, t->block);
        CLRS_CHECK(!add_overflows(span, t->block - 1, &span),
                   CLRS_ERR_OVERFLOW, "%s largest offset overflows int64",
                   what);
    }
    CLRS_CHECK(span < INT64_MAX &&
                   !mul_overflows(span + 1, (int64_t)clrs_dtype_size(t->dtype),
                                  &bytes) &&
                   (uint64_t)bytes <= (uint64_t)SIZE_MAX,
               CLRS_ERR_OVERFLOW, "%s byte size overflows the address space",
               what);
    return CLRS_SUCCESS;
}

typedef struct {
    int64_t stride, extent;
} span_dim;

static int cmp_span_dim(const void *a, const void *b)
{
    const span_dim *x = a, *y = b;
    if (x->stride != y->stride)
        return x->stride < y->stride ? -1 : 1;
    return x->extent < y->extent ? -1 : x->extent > y->extent;
}

/* Sufficient test: sorted by stride, each stride exceeds the largest offset
 * reachable with the smaller ones. Layouts that interleave axes in other
 * ways are rejected too; no dense, permuted, padded or blocked layout is. */
clrs_status clrs__tensor_check_no_overlap(const struct clrs_tensor_desc *t,
                                          const char *what)
{
    span_dim d[CLRS_MAX_RANK + 1];
    int n = 0, i;
    int64_t reach = 0;
    if (clrs__tensor_empty(t))
        return CLRS_SUCCESS; /* no two elements to share an address */
    for (i = 0; i < t->rank; ++i) {
        int64_t ext = outer_extent(t, i);
        if (ext > 1)
            d[n++] = (span_dim){t->strides[i], ext};
    }
    if (t->block_axis >= 0)
        d[n++] = (span_dim){1, t->block};
    qsort(d, (size_t)n, sizeof d[0], cmp_span_dim);
    for (i = 0; i < n; ++i) {
        CLRS_CHECK(d[i].stride > reach, CLRS_ERR_BAD_STRIDES,
                   "%s strides overlap: stride %lld does not clear the %lld "
                   "elements spanned by smaller strides",
                   what, (long long)d[i].stride, (long long)(reach + 1));
        reach += (d[i].extent - 1) * d[i].stride;
    }
    return CLRS_SUCCESS;
}

int clrs__tensor_empty(const struct clrs_tensor_desc *t)
{
    int i;
    for (i = 0; i < t->rank; ++i)
        if (t->dims[i] == 0)
            return 1;
    return 0;
}

int64_t clrs__tensor_span(const struct clrs_tensor_desc *t)
{
    int64_t span = 1;
    int i;
    if (clrs__tensor_empty(t))
        return 0;
    for (i = 0; i < t->rank; ++i)
        span += (outer_extent(t, i) - 1) * t->strides[i];
    if (t->block_axis >= 0)
        span += t->block - 1;
    return span;
}

int64_t clrs__tensor_offset(const struct clrs_tensor_desc *t,
                            const int64_t *idx)
{
    int64_t off = 0;
    int i;
    for (i = 0; i < t->rank; ++i) {
        if (i == t->block_axis)
            off += (idx[i] / t->block) * t->strides[i] + idx[i] % t->block;
        else
            off += idx[i] * t->strides[i];
    }
    return off;
}

double clrs__fraction_value(clrs_fraction f)
{
    return (double)f.num / (double)f.den;
}

/* Dense strides, last axis innermost, in the order given by `order`
 * (outermost first); a blocked axis counts its blocks and the block is
 * innermost of all. */
static void dense_strides(struct clrs_tensor_desc *t, const int *order)
{
    int64_t run = t->block_axis >= 0 ? t->block : 1;
    int k;
    for (k = t->rank - 1; k >= 0; --k) {
        int i = order[k];
        t->strides[i] = run;
        /* a zero dim strides as 1, as PyTorch's empty tensors do */
        run *= outer_extent(t, i) > 0 ? outer_extent(t, i) : 1;
    }
}

void clrs__tensor_dense_like(const struct clrs_tensor_desc *like,
                             clrs_dtype dtype, struct clrs_tensor_desc *out)
{
    int order[CLRS_MAX_RANK], i, k;
    *out = *like;
    out->dtype = dtype;
    /* outermost first: larger strides first, ties in axis order
     * (insertion sort keeps it stable) */
    for (i = 0; i < like->rank; ++i) {
        for (k = i; k > 0 && like->strides[order[k - 1]] < like->strides[i];
             --k)
            order[k] = order[k - 1];
        order[k] = i;
    }
    dense_strides(out, order);
}

static clrs_status tensor_new(clrs_tensor_desc **desc, clrs_dtype dtype,
                              int rank, const int64_t *dims, int block_axis,
                              int block, const int64_t *strides,
                              const int *order)
{
    struct clrs_tensor_desc t;
    int i, natural[CLRS_MAX_RANK];
    CLRS_CHECK_PTR(desc);
    *desc = NULL;
    CLRS_CHECK_PTR(dims);
    CLRS_CHECK(rank >= 1 && rank <= CLRS_MAX_RANK, CLRS_ERR_BAD_RANK,
               "tensor rank %d is outside 1..%d", rank, CLRS_MAX_RANK);
    CLRS_CHECK(dtype_valid(dtype), CLRS_ERR_INVALID_ENUM,
               "dtype %d is unknown", (int)dtype);
    memset(&t, 0, sizeof t);
    t.dtype = dtype;
    t.rank = rank;
    t.block_axis = block_axis;
    t.block = block_axis >= 0 ? block : 1;
    CLRS_CHECK(block_axis < rank, CLRS_ERR_INVALID_VALUE,
               "block axis %d is outside the rank %d", block_axis, rank);
    CLRS_CHECK(block_axis < 0 || block == 8 || block == 16,
               CLRS_ERR_INVALID_VALUE, "block size %d (must be 8 or 16)",
               block);
    for (i = 0; i < rank; ++i) {
        CLRS_CHECK(dims[i] >= 0, CLRS_ERR_BAD_DIMS,
                   "tensor dim %d is %lld (must be >= 0; 0 makes an empty "
                   "tensor)",
                   i, (long long)dims[i]);
        t.dims[i] = dims[i];
        natural[i] = i;
    }
    if (strides) {
        for (i = 0; i < rank; ++i)
            t.strides[i] = strides[i];
    } else {
        /* dense: check the element count first so the products below
         * cannot overflow */
        int64_t count = t.block;
        for (i = 0; i < rank; ++i)
            CLRS_CHECK(!mul_overflows(count, outer_extent(&t, i), &count),
                       CLRS_ERR_OVERFLOW,
                       "tensor element count overflows int64 at dim %d", i);
        dense_strides(&t, order ? order : natural);
    }
    CLRS_TRY(clrs__tensor_check(&t, "tensor"));
    *desc = malloc(sizeof **desc);
    CLRS_CHECK(*desc != NULL, CLRS_ERR_OUT_OF_MEMORY,
               "out of memory for a tensor descriptor");
    **desc = t;
    return CLRS_SUCCESS;
}

clrs_status clrs_tensor_desc_create(clrs_tensor_desc **desc, clrs_dtype dtype,
                                    int rank, const int64_t *dims,
                                    const int64_t *strides)
{
    return tensor_new(desc, dtype, rank, dims, -1, 1, strides, NULL);
}

clrs_status clrs_tensor_desc_create_blocked(clrs_tensor_desc **desc,
                                            clrs_dtype dtype, int rank,
                                            const int64_t *dims,
                                            int block_axis, int block,
                                            const int64_t *strides)
{
    if (desc)
        *desc = NULL;
    CLRS_CHECK(block_axis >= 0, CLRS_ERR_INVALID_VALUE,
               "block axis %d is negative", block_axis);
    return tensor_new(desc, dtype, rank, dims, block_axis, block, strides,
                      NULL);
}

clrs_status clrs_tensor_desc_create_tag(clrs_tensor_desc **desc,
                                        clrs_dtype dtype, int rank,
                                        const int64_t *dims, clrs_tag tag)
{
    int order[CLRS_MAX_RANK], i, k = 0;
    if (desc)
        *desc = NULL;
    switch (tag) {
    case CLRS_TAG_ABX:
        return tensor_new(desc, dtype, rank, dims, -1, 1, NULL, NULL);
    case CLRS_TAG_AXB:
        /* N, spatial..., C: axis 1 innermost, so there must be one. */
        CLRS_CHECK(rank >= 2 && rank <= CLRS_MAX_RANK, CLRS_ERR_BAD_RANK,
                   "tensor rank %d: CLRS_TAG_AXB puts axis 1 innermost, so "
                   "it needs rank 2..%d",
                   rank, CLRS_MAX_RANK);
        order[k++] = 0;
        for (i = 2; i < rank; ++i)
            order[k++] = i;
        order[k++] = 1;
        return tensor_new(desc, dtype, rank, dims, -1, 1, NULL, order);
    case CLRS_TAG_ABX8B:
    case CLRS_TAG_ABX16B:
        CLRS_CHECK(rank >= 2, CLRS_ERR_BAD_RANK,
                   "blocked tag needs rank >= 2, got %d", rank);
        return tensor_new(desc, dtype, rank, dims, 1,
                          tag == CLRS_TAG_ABX8B ? 8 : 16, NULL, NULL);
    }
    return clrs__error(CLRS_ERR_INVALID_ENUM, "tensor tag %d is unknown",
                       (int)tag);
}

void clrs_tensor_desc_destroy(clrs_tensor_desc *desc) { free(desc); }

clrs_dtype clrs_tensor_desc_dtype(const clrs_tensor_desc *desc)
{
    return desc ? desc->dtype : CLRS_F32;
}

int clrs_tensor_desc_rank(const clrs_tensor_desc *desc)
{
    return desc ? desc->rank : 0;
}

clrs_status clrs_tensor_desc_get(const clrs_tensor_desc *desc, int64_t *dims,
                                 int64_t *strides)
{
    int i;
    CLRS_CHECK_PTR(desc);
    for (i = 0; i < desc->rank; ++i) {
        if (dims)
            dims[i] = desc->dims[i];
        if (strides)
            strides[i] = desc->strides[i];
    }
    return CLRS_SUCCESS;
}

int64_t clrs_tensor_desc_elements(const clrs_tensor_desc *desc)
{
    int64_t n = 1;
    int i;
    if (!desc)
        return 0;
    for (i = 0; i < desc->rank; ++i)
        n *= desc->dims[i];
    return n;
}

size_t clrs_tensor_desc_bytes(const clrs_tensor_desc *desc)
{
    if (!desc)
        return 0;
    return (size_t)clrs__tensor_span(desc) * clrs_dtype_size(desc->dtype);
}

int64_t clrs_tensor_desc_offset(const clrs_tensor_desc *desc,
                                const int64_t *index)
{
    if (!desc || !index)
        return -1;
    return clrs__tensor_offset(desc, index);
}

/* ---- resample descriptor ---------------------------------------------- */

static int mode_valid(clrs_mode m) { return clrs__mode_valid((int)m); }

clrs_status clrs_resample_desc_create(clrs_resample_desc **op, clrs_mode mode)
{
    CLRS_CHECK_PTR(op);
    *op = NULL;
    CLRS_CHECK(mode_valid(mode), CLRS_ERR_INVALID_ENUM, "mode %d is unknown",
               (int)mode);
    *op = calloc(1, sizeof **op);
    CLRS_CHECK(*op != NULL, CLRS_ERR_OUT_OF_MEMORY,
               "out of memory for a resample descriptor");
    (*op)->mode = mode;
    (*op)->padding = CLRS_PAD_DEFAULT;
    (*op)->coord = CLRS_COORD_DEFAULT;
    (*op)->rounding = CLRS_ROUND_PREFER_FLOOR;
    (*op)->cubic_a = -0.75;
    (*op)->filter = CLRS_FILTER_LANCZOS;
    (*op)->filter_p = NAN; /* the filter's default */
    (*op)->filter_q = NAN;
    (*op)->aa_rule = CLRS_AA_PYTORCH;
    (*op)->arith = CLRS_ARITH_FLOAT;
    (*op)->vendor = -1; /* no preset: the options as set */
    (*op)->index_format = CLRS_INDEX_WINDOW;
    (*op)->nan_policy = CLRS_NAN_PROPAGATE;
    (*op)->divisor = CLRS_DIVISOR_WINDOW;
    (*op)->divisor_override = 0;
    return CLRS_SUCCESS;
}

void clrs_resample_desc_destroy(clrs_resample_desc *op) { free(op); }

clrs_status clrs_resample_desc_clone(clrs_resample_desc **out,
                                     const clrs_resample_desc *op)
{
    CLRS_CHECK_PTR(out);
    *out = NULL;
    CLRS_CHECK_PTR(op);
    *out = malloc(sizeof **out);
    CLRS_CHECK(*out != NULL, CLRS_ERR_OUT_OF_MEMORY,
               "out of memory for a resample descriptor");
    **out = *op;
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_set_mode(clrs_resample_desc *op, clrs_mode mode)
{
    CLRS_CHECK_PTR(op);
    CLRS_CHECK(mode_valid(mode), CLRS_ERR_INVALID_ENUM, "mode %d is unknown",
               (int)mode);
    op->mode = mode;
    return CLRS_SUCCESS;
}

clrs_mode clrs_resample_desc_get_mode(const clrs_resample_desc *op)
{
    return op ? op->mode : CLRS_MODE_NEAREST;
}

/* Common checks of a per-axis array argument. */
#define CHECK_ARRAY(op, n, arr)                                              \
    do {                                                                     \
        CLRS_CHECK_PTR(op);                                                  \
        CLRS_CHECK((n) >= 1 && (n) <= CLRS_MAX_RANK, CLRS_ERR_INVALID_VALUE, \
                   "%s: count %d is outside 1..%d", #arr, (n),               \
                   CLRS_MAX_RANK);                                           \
        CLRS_CHECK_PTR(arr);                                                 \
    } while (0)

clrs_status clrs_resample_desc_set_axes(clrs_resample_desc *op, int n,
                                        const int *axes)
{
    int i;
    CHECK_ARRAY(op, n, axes);
    for (i = 0; i < n; ++i) {
        CLRS_CHECK(axes[i] >= 0 && axes[i] < CLRS_MAX_RANK, CLRS_ERR_BAD_AXES,
                   "axes[%d] = %d is outside 0..%d", i, axes[i],
                   CLRS_MAX_RANK - 1);
        CLRS_CHECK(i == 0 || axes[i] > axes[i - 1], CLRS_ERR_BAD_AXES,
                   "axes must be distinct and increasing: axes[%d] = %d "
                   "after %d",
                   i, axes[i], axes[i - 1]);
    }
    for (i = 0; i < n; ++i)
        op->axes[i] = axes[i];
    op->naxes = n;
    return CLRS_SUCCESS;
}

/* Common checks of an enum option's setter: op given, value one of the
 * enumerators 0 .. last ("<noun> <value> is unknown" otherwise). */
static clrs_status check_enum(const clrs_resample_desc *op, int value,
                              int last, const char *noun)
{
    CLRS_CHECK_PTR(op);
    CLRS_CHECK((unsigned)value <= (unsigned)last, CLRS_ERR_INVALID_ENUM,
               "%s %d is unknown", noun, value);
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_set_padding(clrs_resample_desc *op,
                                           clrs_padding padding, double value)
{
    CLRS_TRY(check_enum(op, (int)padding, CLRS_PAD_NEG_INF, "padding mode"));
    CLRS_CHECK(padding != CLRS_PAD_CONSTANT || isfinite(value),
               CLRS_ERR_INVALID_VALUE, "constant padding value is not finite");
    op->padding = padding;
    op->pad_value = padding == CLRS_PAD_CONSTANT ? value : 0.0;
    return CLRS_SUCCESS;
}

/* Denominators > 0; values > 0 (windows, strides) or >= 0 (paddings). */
static clrs_status check_fractions(int n, const clrs_fraction *f,
                                   const char *what, int positive)
{
    int i;
    for (i = 0; i < n; ++i) {
        CLRS_CHECK(f[i].den > 0, CLRS_ERR_BAD_FRACTION,
                   "%s[%d] = %lld/%lld: denominator must be > 0", what, i,
                   (long long)f[i].num, (long long)f[i].den);
        if (positive)
            CLRS_CHECK(f[i].num > 0, CLRS_ERR_BAD_WINDOW,
                       "%s[%d] = %lld/%lld must be > 0", what, i,
                       (long long)f[i].num, (long long)f[i].den);
        else
            CLRS_CHECK(f[i].num >= 0, CLRS_ERR_INVALID_VALUE,
                       "%s[%d] = %lld/%lld must be >= 0", what, i,
                       (long long)f[i].num, (long long)f[i].den);
    }
    return CLRS_SUCCESS;
}

/* The integer list v as fractions v[i]/1 in f, for a fraction setter to
 * check and store: NULL, converting nothing, where n or v is not valid
 * (the setter then says so, as it would of its own arguments). */
static const clrs_fraction *to_fractions(int n, const int64_t *v,
                                         clrs_fraction *f)
{
    int i;
    if (!v || n < 1 || n > CLRS_MAX_RANK)
        return NULL;
    for (i = 0; i < n; ++i)
        f[i] = (clrs_fraction){v[i], 1};
    return f;
}

/* A window or stride list (its count checked): values > 0, stored with
 * their count. */
static clrs_status store_positive(int n, const clrs_fraction *v,
                                  const char *what, clrs_fraction *to,
                                  int *count)
{
    CLRS_TRY(check_fractions(n, v, what, 1));
    memcpy(to, v, (size_t)n * sizeof *v);
    *count = n;
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_set_window_fraction(clrs_resample_desc *op,
                                                   int n,
                                                   const clrs_fraction *window)
{
    CHECK_ARRAY(op, n, window);
    return store_positive(n, window, "window", op->window, &op->n_window);
}

clrs_status clrs_resample_desc_set_stride_fraction(clrs_resample_desc *op,
                                                   int n,
                                                   const clrs_fraction *stride)
{
    CHECK_ARRAY(op, n, stride);
    return store_positive(n, stride, "stride", op->stride, &op->n_stride);
}

clrs_status clrs_resample_desc_set_padding_sizes_fraction(
    clrs_resample_desc *op, int n, const clrs_fraction *pre,
    const clrs_fraction *post)
{
    CHECK_ARRAY(op, n, pre);
    CLRS_CHECK_PTR(post);
    CLRS_TRY(check_fractions(n, pre, "pre_padding", 0));
    CLRS_TRY(check_fractions(n, post, "post_padding", 0));
    memcpy(op->pre, pre, (size_t)n * sizeof *pre);
    memcpy(op->post, post, (size_t)n * sizeof *post);
    op->n_pad = n;
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_set_dilation(clrs_resample_desc *op, int n,
                                            const int64_t *dilation)
{
    int i;
    CHECK_ARRAY(op, n, dilation);
    for (i = 0; i < n; ++i)
        CLRS_CHECK(dilation[i] >= 1 && dilation[i] <= (INT64_C(1) << 30),
                   CLRS_ERR_INVALID_VALUE,
                   "dilation[%d] = %lld (must be 1..2^30)", i,
                   (long long)dilation[i]);
    memcpy(op->dilation, dilation, (size_t)n * sizeof *dilation);
    op->n_dilation = n;
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_set_window(clrs_resample_desc *op, int n,
                                          const int64_t *window)
{
    clrs_fraction f[CLRS_MAX_RANK];
    return clrs_resample_desc_set_window_fraction(op, n,
                                                  to_fractions(n, window, f));
}

clrs_status clrs_resample_desc_set_stride(clrs_resample_desc *op, int n,
                                          const int64_t *stride)
{
    clrs_fraction f[CLRS_MAX_RANK];
    return clrs_resample_desc_set_stride_fraction(op, n,
                                                  to_fractions(n, stride, f));
}

clrs_status clrs_resample_desc_set_padding_sizes(clrs_resample_desc *op, int n,
                                                 const int64_t *pre,
                                                 const int64_t *post)
{
    clrs_fraction a[CLRS_MAX_RANK], b[CLRS_MAX_RANK];
    return clrs_resample_desc_set_padding_sizes_fraction(
        op, n, to_fractions(n, pre, a), to_fractions(n, post, b));
}

clrs_status clrs_resample_desc_set_scales(clrs_resample_desc *op, int n,
                                          const double *scales)
{
    int i;
    CHECK_ARRAY(op, n, scales);
    for (i = 0; i < n; ++i)
        CLRS_CHECK(isfinite(scales[i]) && scales[i] > 0, CLRS_ERR_BAD_SCALE,
                   "scales[%d] = %g (must be finite and > 0)", i, scales[i]);
    memcpy(op->scales, scales, (size_t)n * sizeof *scales);
    op->n_scales = n;
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_set_pixel_offsets(clrs_resample_desc *op, int n,
                                                 const float *input_offsets,
                                                 const float *output_offsets)
{
    int i;
    CHECK_ARRAY(op, n, input_offsets);
    CLRS_CHECK_PTR(output_offsets);
    for (i = 0; i < n; ++i)
        CLRS_CHECK(isfinite(input_offsets[i]) && isfinite(output_offsets[i]),
                   CLRS_ERR_INVALID_VALUE, "pixel offsets[%d] are not finite",
                   i);
    memcpy(op->in_offsets, input_offsets, (size_t)n * sizeof(float));
    memcpy(op->out_offsets, output_offsets, (size_t)n * sizeof(float));
    op->n_offsets = n;
    op->coord = CLRS_COORD_PIXEL_OFFSETS;
    return CLRS_SUCCESS;
}

clrs_status
clrs_resample_desc_set_scale_and_translate(clrs_resample_desc *op, int n,
                                           const double *scales,
                                           const double *translations)
{
    double s[CLRS_MAX_RANK];
    int i;
    CHECK_ARRAY(op, n, scales);
    CLRS_CHECK_PTR(translations);
    for (i = 0; i < n; ++i) {
        CLRS_CHECK(isfinite((float)translations[i]) &&
                       isfinite((float)scales[i]) && (float)scales[i] > 0,
                   CLRS_ERR_INVALID_VALUE,
                   "scales[%d] = %g, translations[%d] = %g (finite floats, "
                   "the scale > 0)",
                   i, scales[i], i, translations[i]);
        s[i] = (double)(float)scales[i]; /* TensorFlow's are floats */
    }
    CLRS_TRY(clrs_resample_desc_set_scales(op, n, s));
    /* The translation as the float TensorFlow takes, in the output
     * offsets (the input ones 0.5); coords.c reads them so. */
    for (i = 0; i < n; ++i) {
        op->in_offsets[i] = 0.5f;
        op->out_offsets[i] = (float)translations[i];
    }
    op->n_offsets = n;
    op->coord = CLRS_COORD_SCALE_AND_TRANSLATE;
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_set_cubic_a(clrs_resample_desc *op, double a)
{
    CLRS_CHECK_PTR(op);
    CLRS_CHECK(isfinite(a), CLRS_ERR_INVALID_VALUE,
               "cubic coefficient A is not finite");
    op->cubic_a = a;
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_set_filter(clrs_resample_desc *op,
                                          clrs_filter filter, double p,
                                          double q)
{
    const double v[2] = {p, q};
    int i;
    CLRS_CHECK_PTR(op);
    CLRS_CHECK(clrs__filter_valid((int)filter), CLRS_ERR_INVALID_ENUM,
               "filter %d is unknown", (int)filter);
    for (i = 0; i < 2; ++i) {
        CLRS_CHECK(!isinf(v[i]), CLRS_ERR_INVALID_VALUE,
                   "%s filter: parameter %d is infinite",
                   clrs__filter_name((int)filter), i + 1);
        CLRS_CHECK(
            i < clrs__filter_nparams((int)filter) || isnan(v[i]) || v[i] == 0,
            CLRS_ERR_INVALID_VALUE,
            "%s filter takes %d parameter%s, parameter %d is %g",
            clrs__filter_name((int)filter), clrs__filter_nparams((int)filter),
            clrs__filter_nparams((int)filter) == 1 ? "" : "s", i + 1, v[i]);
    }
    CLRS_CHECK(
        !(filter == CLRS_FILTER_LANCZOS || filter == CLRS_FILTER_GAUSSIAN) ||
            isnan(p) || (p > 0 && p <= 64),
        CLRS_ERR_INVALID_VALUE, "%s filter: parameter %g must be in (0, 64]",
        clrs__filter_name((int)filter), p);
    op->mode = CLRS_MODE_FILTER;
    op->filter = filter;
    op->filter_p = p;
    op->filter_q = q;
    return CLRS_SUCCESS;
}

/* One row per vendor: the options clrs_vendor documents. A cubic A of NaN
 * is resolved per problem (PyTorch: -0.5 with antialias, else -0.75). */
static const struct {
    clrs_arith arith;
    clrs_antialias_rule aa;
    clrs_rounding rounding;
    double cubic_a;
    clrs_divisor divisor;
} vendor_rows[] = {
    [CLRS_VENDOR_PYTORCH] = {CLRS_ARITH_FLOAT, CLRS_AA_PYTORCH,
                             CLRS_ROUND_FLOOR, NAN, CLRS_DIVISOR_CLIPPED},
    [CLRS_VENDOR_ONNX] = {CLRS_ARITH_EXACT, CLRS_AA_ONNX,
                          CLRS_ROUND_PREFER_FLOOR, -0.75, CLRS_DIVISOR_CLIPPED},
    [CLRS_VENDOR_ONEDNN] = {CLRS_ARITH_ONEDNN, CLRS_AA_PYTORCH,
                            CLRS_ROUND_PREFER_CEIL, -0.75, CLRS_DIVISOR_WINDOW},
    [CLRS_VENDOR_DIRECTML] = {CLRS_ARITH_EXACT, CLRS_AA_ONNX, CLRS_ROUND_FLOOR,
                              -0.75, CLRS_DIVISOR_WINDOW},
    [CLRS_VENDOR_CUDNN] = {CLRS_ARITH_FLOAT, CLRS_AA_PYTORCH,
                           CLRS_ROUND_PREFER_FLOOR, -0.75, CLRS_DIVISOR_WINDOW},
    [CLRS_VENDOR_PILLOW] = {CLRS_ARITH_PILLOW, CLRS_AA_PILLOW,
                            CLRS_ROUND_PREFER_CEIL, -0.5, CLRS_DIVISOR_WINDOW},
    [CLRS_VENDOR_OPENCV] = {CLRS_ARITH_FLOAT, CLRS_AA_ONNX, CLRS_ROUND_FLOOR,
                            -0.75, CLRS_DIVISOR_WINDOW},
    [CLRS_VENDOR_TENSORFLOW] = {CLRS_ARITH_FLOAT, CLRS_AA_PYTORCH,
                                CLRS_ROUND_PREFER_CEIL, -0.5,
                                CLRS_DIVISOR_WINDOW},
};

clrs_status clrs_resample_desc_set_vendor(clrs_resample_desc *op,
                                          clrs_vendor vendor)
{
    CLRS_TRY(check_enum(op, (int)vendor, CLRS_VENDOR_TENSORFLOW, "vendor"));
    op->vendor = (int)vendor;
    op->arith = vendor_rows[vendor].arith;
    op->aa_rule = vendor_rows[vendor].aa;
    op->rounding = vendor_rows[vendor].rounding;
    op->cubic_a = vendor_rows[vendor].cubic_a;
    op->divisor = vendor_rows[vendor].divisor;
    op->exclude_outside = 0;
    op->coord = CLRS_COORD_DEFAULT;
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_set_method(clrs_resample_desc *op,
                                          const char *name)
{
    char names[256];
    const clrs_method *m;
    int i;

    CLRS_CHECK_PTR(op);
    CLRS_CHECK_PTR(name);
    CLRS_CHECK(clrs__vendor_has_methods(op->vendor), CLRS_ERR_INVALID_VALUE,
               "method '%s': set the preset of an image library first "
               "(CLRS_VENDOR_PILLOW, CLRS_VENDOR_OPENCV or "
               "CLRS_VENDOR_TENSORFLOW)",
               name);
    i = clrs__method_find(op->vendor, name);
    if (i < 0) {
        clrs__method_names(op->vendor, names, sizeof names);
        return clrs__error(CLRS_ERR_INVALID_VALUE,
                           "the preset has no method '%s' (one of %s)", name,
                           names);
    }
    m = &clrs__methods[i];
    op->mode = m->mode;
    op->filter = m->filter;
    op->filter_p = m->p;
    op->filter_q = m->q;
    op->coord = m->coord;
    op->rounding = m->rounding;
    op->aa_rule = m->rule;
    op->arith = m->arith;
    if (m->aa >= 0)
        op->antialias = m->aa;
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_set_roi(clrs_resample_desc *op, int n,
                                       const double *start, const double *end)
{
    int i;
    CHECK_ARRAY(op, n, start);
    CLRS_CHECK_PTR(end);
    for (i = 0; i < n; ++i)
        CLRS_CHECK(isfinite(start[i]) && isfinite(end[i]),
                   CLRS_ERR_INVALID_VALUE, "roi[%d] is not finite", i);
    memcpy(op->roi_start, start, (size_t)n * sizeof *start);
    memcpy(op->roi_end, end, (size_t)n * sizeof *end);
    op->n_roi = n;
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_set_extrapolation_value(clrs_resample_desc *op,
                                                       double value)
{
    CLRS_CHECK_PTR(op);
    CLRS_CHECK(!isnan(value), CLRS_ERR_INVALID_VALUE,
               "extrapolation value is NaN");
    op->extrapolation = value;
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_set_divisor_override(clrs_resample_desc *op,
                                                    double divisor)
{
    CLRS_CHECK_PTR(op);
    CLRS_CHECK(divisor == 0 || (isfinite(divisor) && divisor > 0),
               CLRS_ERR_INVALID_VALUE,
               "divisor override %g must be finite and > 0 (0: none)",
               divisor);
    op->divisor_override = divisor;
    return CLRS_SUCCESS;
}

/* The enum options whose setter checks the value and stores it as
 * given: X(setter, field, type, last enumerator, noun of the message). */
#define ENUM_SETTERS(X)                                                        \
    X(clrs_resample_desc_set_coord, coord, clrs_coord,                         \
      CLRS_COORD_SCALE_AND_TRANSLATE, "coordinate mode")                       \
    X(clrs_resample_desc_set_rounding, rounding, clrs_rounding,                \
      CLRS_ROUND_CEIL, "nearest rounding")                                     \
    X(clrs_resample_desc_set_arith, arith, clrs_arith, CLRS_ARITH_OPENCV,      \
      "coordinate arithmetic")                                                 \
    X(clrs_resample_desc_set_antialias_rule, aa_rule, clrs_antialias_rule,     \
      CLRS_AA_PILLOW, "antialias rule")                                        \
    X(clrs_resample_desc_set_index_format, index_format, clrs_index_format,    \
      CLRS_INDEX_PLANE_COLUMN, "index format")                                 \
    X(clrs_resample_desc_set_nan_policy, nan_policy, clrs_nan_policy,          \
      CLRS_NAN_IGNORE, "NaN policy")                                           \
    X(clrs_resample_desc_set_divisor, divisor, clrs_divisor,                   \
      CLRS_DIVISOR_CLIPPED, "divisor rule")

#define DEFINE_ENUM_SETTER_(setter, field, type, last, noun)                 \
    clrs_status setter(clrs_resample_desc *op, type value)                   \
    {                                                                        \
        CLRS_TRY(check_enum(op, (int)value, last, noun));                    \
        op->field = value;                                                   \
        return CLRS_SUCCESS;                                                 \
    }
ENUM_SETTERS(DEFINE_ENUM_SETTER_)
#undef DEFINE_ENUM_SETTER_

/* The on/off options: X(setter, field); any nonzero enable is 1. */
#define FLAG_SETTERS(X)                                                      \
    X(clrs_resample_desc_set_exclude_outside, exclude_outside)               \
    X(clrs_resample_desc_set_antialias, antialias)                           \
    X(clrs_resample_desc_set_inference, inference)                           \
    X(clrs_resample_desc_set_accumulate, accumulate)                         \
    X(clrs_resample_desc_set_user_workspace, user_workspace)

#define DEFINE_FLAG_SETTER_(setter, field)                                   \
    clrs_status setter(clrs_resample_desc *op, int enable)                   \
    {                                                                        \
        CLRS_CHECK_PTR(op);                                                  \
        op->field = enable != 0;                                             \
        return CLRS_SUCCESS;                                                 \
    }
FLAG_SETTERS(DEFINE_FLAG_SETTER_)
#undef DEFINE_FLAG_SETTER_

/* ---- post-ops ------------------------------------------------------------ */

static clrs_status post_op_slot(clrs_resample_desc *op, clrs_post_op **slot)
{
    CLRS_CHECK_PTR(op);
    CLRS_CHECK(op->n_post_ops < CLRS_MAX_POST_OPS, CLRS_ERR_INVALID_VALUE,
               "post-op chain is full (at most %d)", CLRS_MAX_POST_OPS);
    *slot = &op->post_ops[op->n_post_ops];
    memset(*slot, 0, sizeof **slot);
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_append_sum(clrs_resample_desc *op, double scale)
{
    clrs_post_op *p = NULL;
    CLRS_TRY(post_op_slot(op, &p));
    CLRS_CHECK(isfinite(scale), CLRS_ERR_INVALID_VALUE,
               "sum post-op scale is not finite");
    p->kind = CLRS_POST_SUM;
    p->scale = scale;
    op->n_post_ops++;
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_append_eltwise(clrs_resample_desc *op,
                                              clrs_eltwise alg, double alpha,
                                              double beta)
{
    clrs_post_op *p = NULL;
    CLRS_TRY(post_op_slot(op, &p));
    CLRS_CHECK(clrs__eltwise_valid((int)alg),
               CLRS_ERR_INVALID_ENUM, "eltwise algorithm %d is unknown",
               (int)alg);
    CLRS_CHECK(isfinite(alpha) && isfinite(beta), CLRS_ERR_INVALID_VALUE,
               "eltwise alpha/beta are not finite");
    p->kind = CLRS_POST_ELTWISE;
    p->alg = (int)alg;
    p->alpha = alpha;
    p->beta = beta;
    op->n_post_ops++;
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_append_binary(clrs_resample_desc *op,
                                             clrs_binary alg,
                                             const clrs_tensor_desc *operand)
{
    clrs_post_op *p = NULL;
    CLRS_TRY(post_op_slot(op, &p));
    CLRS_CHECK(clrs__binary_valid((int)alg),
               CLRS_ERR_INVALID_ENUM, "binary algorithm %d is unknown",
               (int)alg);
    CLRS_CHECK_PTR(operand);
    CLRS_TRY(clrs__tensor_check(operand, "binary operand"));
    CLRS_CHECK(operand->dtype != CLRS_S64, CLRS_ERR_BAD_DTYPE,
               "binary operand dtype s64 is for index tensors only");
    p->kind = CLRS_POST_BINARY;
    p->alg = (int)alg;
    p->operand = *operand;
    op->n_post_ops++;
    return CLRS_SUCCESS;
}

int clrs_resample_desc_post_op_count(const clrs_resample_desc *op)
{
    return op ? op->n_post_ops : 0;
}

/* Slot k's options alone: op over the one tensor axis `axis`, each
 * per-axis array cut to its entry k. */
void clrs__op_one_axis(const clrs_resample_desc *op, int k, int axis,
                       struct clrs_resample_desc *o)
{
    *o = *op;
    o->naxes = 1;
    o->axes[0] = axis;
    if (op->n_scales > k)
        o->scales[0] = op->scales[k];
    if (op->n_offsets > k) {
        o->in_offsets[0] = op->in_offsets[k];
        o->out_offsets[0] = op->out_offsets[k];
    }
    if (op->n_roi > k) {
        o->roi_start[0] = op->roi_start[k];
        o->roi_end[0] = op->roi_end[k];
    }
    if (op->n_window > k)
        o->window[0] = op->window[k];
    if (op->n_stride > k)
        o->stride[0] = op->stride[k];
    if (op->n_pad > k) {
        o->pre[0] = op->pre[k];
        o->post[0] = op->post[k];
    }
    if (op->n_dilation > k)
        o->dilation[0] = op->dilation[k];
    o->n_scales = op->n_scales > k;
    o->n_offsets = op->n_offsets > k;
    o->n_roi = op->n_roi > k;
    o->n_window = op->n_window > k;
    o->n_stride = op->n_stride > k;
    o->n_pad = op->n_pad > k;
    o->n_dilation = op->n_dilation > k;
}
