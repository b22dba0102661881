/* Invalid input, case by case: each call must fail with its specific status
 * and leave a detail message that names the problem, and never crash. */
#include "clresample.h"
#include "tap.h"

#include <string.h>

#define D(...) ((const int64_t[]){__VA_ARGS__})

/* Descriptors made by the cases, freed at the end. */
static clrs_tensor_desc *tensors[256];
static int ntensors;
static clrs_resample_desc *ops[128];
static int nops;

/* Host buffers for the reference: validation fails before any access, but
 * the pointers must be real so a missed check cannot crash on NULL. */
static double scratch[4][4096];
static clrs_host_args hargs;

static clrs_tensor_desc *T(clrs_dtype dt, int rank, const int64_t *dims)
{
    clrs_tensor_desc *t = NULL;
    if (clrs_tensor_desc_create(&t, dt, rank, dims, NULL) != CLRS_SUCCESS) {
        tap_diag("setup: tensor creation failed: %s", clrs_last_error());
        exit(1);
    }
    tensors[ntensors++] = t;
    return t;
}

static clrs_tensor_desc *TS(clrs_dtype dt, int rank, const int64_t *dims,
                            const int64_t *strides)
{
    clrs_tensor_desc *t = NULL;
    if (clrs_tensor_desc_create(&t, dt, rank, dims, strides) !=
        CLRS_SUCCESS) {
        tap_diag("setup: tensor creation failed: %s", clrs_last_error());
        exit(1);
    }
    tensors[ntensors++] = t;
    return t;
}

static clrs_resample_desc *OP(clrs_mode mode)
{
    clrs_resample_desc *op = NULL;
    if (clrs_resample_desc_create(&op, mode) != CLRS_SUCCESS) {
        tap_diag("setup: op creation failed: %s", clrs_last_error());
        exit(1);
    }
    ops[nops++] = op;
    return op;
}

/* Max pooling, window 2x2 stride 2, over the two spatial axes. */
static clrs_resample_desc *MAXPOOL(void)
{
    clrs_resample_desc *op = OP(CLRS_MODE_MAX);
    clrs_resample_desc_set_window(op, 2, D(2, 2));
    clrs_resample_desc_set_stride(op, 2, D(2, 2));
    return op;
}

static clrs_status fwd(const clrs_resample_desc *op,
                       const clrs_tensor_desc *src,
                       const clrs_tensor_desc *dst,
                       const clrs_tensor_desc *index)
{
    return clrs_reference_forward(op, src, dst, index, &hargs);
}

static clrs_status bwd(const clrs_resample_desc *op,
                       const clrs_tensor_desc *diff_src,
                       const clrs_tensor_desc *diff_dst,
                       const clrs_tensor_desc *index,
                       const clrs_tensor_desc *src)
{
    return clrs_reference_backward(op, diff_src, diff_dst, index, src,
                                   &hargs);
}

/* A call that succeeds and clears this thread's message, so that a stale
 * message from an earlier case can never satisfy the word check. */
static void clear_message(void)
{
    int64_t o;
    clrs_output_size_from_scale(4, 1.0, CLRS_SIZE_FLOOR, &o);
}

static void check(clrs_status got, clrs_status want, const char *word,
                  const char *what)
{
    const char *msg = clrs_last_error();
    int ok = got == want && strstr(msg, word) != NULL;
    tap_ok(ok, "%s -> %s \"%s\"", what, clrs_status_name(got), word);
    if (!ok)
        tap_diag("want %s with \"%s\" in the message; got %s, \"%s\"",
                 clrs_status_name(want), word, clrs_status_name(got), msg);
}

/* EXPECT(status, "word", call): the call is evaluated after the message
 * is cleared. */
#define EXPECT(want, word, call)                                             \
    do {                                                                     \
        clrs_status got_;                                                    \
        clear_message();                                                     \
        got_ = (call);                                                       \
        check(got_, (want), (word), #call);                                  \
    } while (0)

static void null_pointers(void)
{
    clrs_tensor_desc *t = NULL;
    clrs_resample_desc *op = OP(CLRS_MODE_NEAREST);
    clrs_tensor_desc *s = T(CLRS_F32, 2, D(2, 2));
    clrs_tensor_desc *d = T(CLRS_F32, 2, D(4, 4));
    clrs_device_info info;
    clrs_plan *plan = NULL;
    clrs_args args;
    int64_t o;

    memset(&args, 0, sizeof args);
    EXPECT(CLRS_ERR_NULL_POINTER, "desc",
           clrs_tensor_desc_create(NULL, CLRS_F32, 2, D(2, 2), NULL));
    EXPECT(CLRS_ERR_NULL_POINTER, "dims",
           clrs_tensor_desc_create(&t, CLRS_F32, 2, NULL, NULL));
    EXPECT(CLRS_ERR_NULL_POINTER, "op",
           clrs_resample_desc_create(NULL, CLRS_MODE_LINEAR));
    EXPECT(CLRS_ERR_NULL_POINTER, "scales",
           clrs_resample_desc_set_scales(op, 2, NULL));
    EXPECT(CLRS_ERR_NULL_POINTER, "op", fwd(NULL, s, d, NULL));
    EXPECT(CLRS_ERR_NULL_POINTER, "src", fwd(op, NULL, d, NULL));
    EXPECT(CLRS_ERR_NULL_POINTER, "diff_dst", bwd(op, s, NULL, NULL, NULL));
    EXPECT(CLRS_ERR_NULL_POINTER, "args",
           clrs_reference_forward(op, s, d, NULL, NULL));
    EXPECT(CLRS_ERR_NULL_POINTER, "plan",
           clrs_plan_create_forward(NULL, NULL, op, s, d, NULL));
    EXPECT(CLRS_ERR_NULL_POINTER, "ctx",
           clrs_plan_create_forward(&plan, NULL, op, s, d, NULL));
    EXPECT(CLRS_ERR_NULL_POINTER, "plan",
           clrs_execute(NULL, &args, 0, NULL, NULL));
    EXPECT(CLRS_ERR_NULL_POINTER, "ctx", clrs_context_create(NULL, NULL));
    EXPECT(CLRS_ERR_NULL_POINTER, "ctx",
           clrs_context_get_device_info(NULL, &info));
    EXPECT(CLRS_ERR_NULL_POINTER, "count", clrs_list_devices(NULL, 0, NULL));
    EXPECT(CLRS_ERR_NULL_POINTER, "out",
           clrs_output_size_from_scale(4, 2.0, CLRS_SIZE_FLOOR, NULL));
    EXPECT(CLRS_ERR_NULL_POINTER, "src",
           clrs_resample_desc_output_dims(op, NULL, 0, &o));
    tap_ok(plan == NULL, "failed plan creation leaves *plan NULL");
}

static void tensor_shapes(void)
{
    clrs_tensor_desc *t = NULL;
    const int64_t big = INT64_C(1) << 31;

    EXPECT(CLRS_ERR_BAD_RANK, "rank 0",
           clrs_tensor_desc_create(&t, CLRS_F32, 0, D(1), NULL));
    EXPECT(CLRS_ERR_BAD_RANK, "rank 7",
           clrs_tensor_desc_create(&t, CLRS_F32, 7, D(1, 1, 1, 1, 1, 1, 1),
                                   NULL));
    /* a zero dim makes an empty tensor (test_device_queue runs them) */
    EXPECT(CLRS_SUCCESS, "",
           clrs_tensor_desc_create(&t, CLRS_F32, 2, D(2, 0), NULL));
    clrs_tensor_desc_destroy(t);
    t = NULL;
    EXPECT(CLRS_ERR_BAD_DIMS, "dim 1",
           clrs_tensor_desc_create(&t, CLRS_F32, 2, D(2, -1), NULL));
    EXPECT(CLRS_ERR_BAD_DIMS, "-3",
           clrs_tensor_desc_create(&t, CLRS_F32, 1, D(-3), NULL));
    EXPECT(CLRS_ERR_BAD_STRIDES, "stride 0",
           clrs_tensor_desc_create(&t, CLRS_F32, 2, D(2, 2), D(-1, 1)));
    EXPECT(CLRS_ERR_OVERFLOW, "element count",
           clrs_tensor_desc_create(&t, CLRS_F32, 3, D(big, big, big), NULL));
    EXPECT(CLRS_ERR_OVERFLOW, "offset",
           clrs_tensor_desc_create(&t, CLRS_F32, 2, D(3, 2),
                                   D(INT64_C(1) << 62, 1)));
    /* Blocked dims within a block of INT64_MAX: the block count must not
     * overflow on the way to the overflow the check reports. */
    EXPECT(CLRS_ERR_OVERFLOW, "element count overflows int64 at dim 1",
           clrs_tensor_desc_create_blocked(&t, CLRS_U8, 2,
                                           D(1, INT64_MAX - 3), 1, 16,
                                           NULL));
    EXPECT(CLRS_ERR_OVERFLOW, "element count overflows int64 at dim 1",
           clrs_tensor_desc_create_blocked(&t, CLRS_U8, 2, D(1, INT64_MAX),
                                           1, 8, NULL));
    EXPECT(CLRS_ERR_OVERFLOW, "overflows",
           clrs_tensor_desc_create_blocked(&t, CLRS_U8, 2,
                                           D(1, INT64_MAX - 3), 1, 16,
                                           D(1, 16)));
    EXPECT(CLRS_ERR_OVERFLOW, "element count overflows int64 at dim 1",
           clrs_tensor_desc_create_tag(&t, CLRS_U8, 4,
                                       D(1, INT64_MAX - 3, 1, 1),
                                       CLRS_TAG_ABX16B));
    EXPECT(CLRS_ERR_OVERFLOW, "element count overflows int64 at dim 1",
           clrs_tensor_desc_create_tag(&t, CLRS_U8, 4,
                                       D(1, INT64_MAX - 1, 1, 1),
                                       CLRS_TAG_ABX8B));
    EXPECT(CLRS_ERR_INVALID_ENUM, "dtype",
           clrs_tensor_desc_create(&t, (clrs_dtype)99, 1, D(4), NULL));
    EXPECT(CLRS_ERR_INVALID_ENUM, "tag",
           clrs_tensor_desc_create_tag(&t, CLRS_F32, 4, D(1, 8, 2, 2),
                                       (clrs_tag)99));
    EXPECT(CLRS_ERR_INVALID_VALUE, "block size",
           clrs_tensor_desc_create_blocked(&t, CLRS_F32, 4, D(1, 8, 2, 2), 1,
                                           4, NULL));
    EXPECT(CLRS_ERR_INVALID_VALUE, "block axis",
           clrs_tensor_desc_create_blocked(&t, CLRS_F32, 4, D(1, 8, 2, 2), 5,
                                           8, NULL));
    /* AXB puts axis 1 innermost: rank 1 has no axis 1. */
    EXPECT(CLRS_ERR_BAD_RANK, "CLRS_TAG_AXB",
           clrs_tensor_desc_create_tag(&t, CLRS_F32, 1, D(4), CLRS_TAG_AXB));
    EXPECT(CLRS_ERR_BAD_RANK, "rank 0",
           clrs_tensor_desc_create_tag(&t, CLRS_F32, 0, D(4), CLRS_TAG_AXB));
    tap_ok(t == NULL, "failed tensor creation leaves *desc NULL");
}

static void op_setters(void)
{
    clrs_resample_desc *op = OP(CLRS_MODE_LINEAR);
    clrs_resample_desc *bad = NULL;
    const clrs_fraction zero_den[1] = {{1, 0}};
    int i;

    EXPECT(CLRS_ERR_BAD_SCALE, "scales[0]",
           clrs_resample_desc_set_scales(op, 2, (const double[]){0.0, 1.0}));
    EXPECT(CLRS_ERR_BAD_SCALE, "scales[1]",
           clrs_resample_desc_set_scales(op, 2,
                                         (const double[]){1.0, -2.0}));
    EXPECT(CLRS_ERR_BAD_SCALE, "finite",
           clrs_resample_desc_set_scales(op, 1, (const double[]){NAN}));
    EXPECT(CLRS_ERR_BAD_SCALE, "finite",
           clrs_resample_desc_set_scales(op, 1, (const double[]){INFINITY}));
    EXPECT(CLRS_ERR_BAD_FRACTION, "denominator",
           clrs_resample_desc_set_window_fraction(op, 1, zero_den));
    EXPECT(CLRS_ERR_BAD_WINDOW, "window",
           clrs_resample_desc_set_window(op, 2, D(2, 0)));
    EXPECT(CLRS_ERR_BAD_WINDOW, "stride",
           clrs_resample_desc_set_stride(op, 1, D(-1)));
    EXPECT(CLRS_ERR_BAD_AXES, "axes[1]",
           clrs_resample_desc_set_axes(op, 2, (const int[]){0, 7}));
    EXPECT(CLRS_ERR_BAD_AXES, "increasing",
           clrs_resample_desc_set_axes(op, 2, (const int[]){2, 1}));
    EXPECT(CLRS_ERR_BAD_AXES, "distinct",
           clrs_resample_desc_set_axes(op, 2, (const int[]){1, 1}));
    EXPECT(CLRS_ERR_INVALID_ENUM, "mode",
           clrs_resample_desc_create(&bad, (clrs_mode)99));
    EXPECT(CLRS_ERR_INVALID_ENUM, "mode",
           clrs_resample_desc_set_mode(op, (clrs_mode)99));
    EXPECT(CLRS_ERR_INVALID_ENUM, "padding",
           clrs_resample_desc_set_padding(op, (clrs_padding)99, 0.0));
    EXPECT(CLRS_ERR_INVALID_VALUE, "finite",
           clrs_resample_desc_set_padding(op, CLRS_PAD_CONSTANT, NAN));
    EXPECT(CLRS_ERR_INVALID_ENUM, "coordinate",
           clrs_resample_desc_set_coord(op, (clrs_coord)99));
    EXPECT(CLRS_ERR_INVALID_ENUM, "rounding",
           clrs_resample_desc_set_rounding(op, (clrs_rounding)99));
    EXPECT(CLRS_ERR_INVALID_ENUM, "index format",
           clrs_resample_desc_set_index_format(op, (clrs_index_format)99));
    EXPECT(CLRS_ERR_INVALID_ENUM, "NaN policy",
           clrs_resample_desc_set_nan_policy(op, (clrs_nan_policy)99));
    for (i = 0; i < CLRS_MAX_POST_OPS; ++i)
        clrs_resample_desc_append_eltwise(op, CLRS_ELTWISE_RELU, 0, 0);
    EXPECT(CLRS_ERR_INVALID_VALUE, "post-op",
           clrs_resample_desc_append_eltwise(op, CLRS_ELTWISE_RELU, 0, 0));
    tap_ok(bad == NULL && clrs_resample_desc_post_op_count(op) ==
                              CLRS_MAX_POST_OPS,
           "failed setters leave the descriptor unchanged");
}

static void size_helpers(void)
{
    const clrs_fraction one = {1, 1}, zero = {0, 1}, two = {2, 1};
    const clrs_fraction bad_den = {2, 0}, nil = {0, 1}, neg = {-1, 1};
    clrs_resample_desc *lin = OP(CLRS_MODE_LINEAR);
    clrs_tensor_desc *s = T(CLRS_F32, 4, D(1, 3, 8, 8));
    clrs_dtype dt;
    int64_t o, dims[CLRS_MAX_RANK];

    EXPECT(CLRS_ERR_BAD_SCALE, "scale",
           clrs_output_size_from_scale(4, 0.0, CLRS_SIZE_FLOOR, &o));
    EXPECT(CLRS_ERR_BAD_SCALE, "scale",
           clrs_output_size_from_scale(4, NAN, CLRS_SIZE_FLOOR, &o));
    EXPECT(CLRS_ERR_SHAPE_MISMATCH, "output size is 0",
           clrs_output_size_from_scale(1, 0.4, CLRS_SIZE_FLOOR, &o));
    EXPECT(CLRS_ERR_OVERFLOW, "overflows",
           clrs_output_size_from_scale(INT64_C(1) << 62, 4.0,
                                       CLRS_SIZE_FLOOR, &o));
    EXPECT(CLRS_ERR_INVALID_ENUM, "rule",
           clrs_output_size_from_scale(4, 2.0, (clrs_size_rule)99, &o));
    EXPECT(CLRS_ERR_BAD_FRACTION, "stride",
           clrs_pool_output_size(5, two, bad_den, zero, zero, 0, &o));
    EXPECT(CLRS_ERR_BAD_WINDOW, "window",
           clrs_pool_output_size(5, nil, one, zero, zero, 0, &o));
    EXPECT(CLRS_ERR_BAD_WINDOW, "stride",
           clrs_pool_output_size(5, two, neg, zero, zero, 1, &o));
    EXPECT(CLRS_ERR_INVALID_VALUE, "pre padding",
           clrs_pool_output_size(5, two, one, neg, zero, 0, &o));
    EXPECT(CLRS_ERR_SHAPE_MISMATCH, "does not fit",
           clrs_pool_output_size(2, (clrs_fraction){5, 1}, one, zero, zero,
                                 0, &o));
    EXPECT(CLRS_ERR_MISSING_INPUT, "scales",
           clrs_resample_desc_output_dims(lin, s, 0, dims));
    EXPECT(CLRS_ERR_BAD_INDEX_TENSOR, "max pooling",
           clrs_resample_desc_index_dtype(lin, s, &dt));
}

static void problems(void)
{
    clrs_tensor_desc *s4 = T(CLRS_F32, 4, D(1, 3, 8, 8));
    clrs_tensor_desc *d4 = T(CLRS_F32, 4, D(1, 3, 4, 4));
    clrs_tensor_desc *d3 = T(CLRS_F32, 3, D(1, 3, 4));
    clrs_tensor_desc *dc = T(CLRS_F32, 4, D(1, 2, 16, 16));
    clrs_tensor_desc *s2 = T(CLRS_F32, 2, D(2, 3));
    clrs_tensor_desc *overlap = TS(CLRS_F32, 2, D(2, 3), D(1, 1));
    clrs_tensor_desc *s64 = T(CLRS_S64, 4, D(1, 3, 4, 4));
    clrs_tensor_desc *u8s = T(CLRS_U8, 4, D(1, 3, 8, 8));
    clrs_tensor_desc *u8d = T(CLRS_U8, 4, D(1, 3, 4, 4));
    clrs_tensor_desc *i32 = T(CLRS_S32, 4, D(1, 3, 4, 4));
    clrs_tensor_desc *i32bad = T(CLRS_S32, 4, D(1, 3, 4, 5));
    clrs_tensor_desc *if32 = T(CLRS_F32, 4, D(1, 3, 4, 4));
    clrs_tensor_desc *is8 = T(CLRS_S8, 4, D(1, 3, 1, 1));
    clrs_tensor_desc *d11 = T(CLRS_F32, 4, D(1, 3, 1, 1));
    clrs_tensor_desc *s12 = T(CLRS_F32, 4, D(1, 3, 12, 12));
    clrs_tensor_desc *src_bad = T(CLRS_F32, 4, D(1, 3, 8, 9));
    clrs_resample_desc *near = OP(CLRS_MODE_NEAREST);
    clrs_resample_desc *lin = OP(CLRS_MODE_LINEAR);
    clrs_resample_desc *op;

    EXPECT(CLRS_ERR_SHAPE_MISMATCH, "src rank 4 != dst rank 3",
           fwd(near, s4, d3, NULL));
    EXPECT(CLRS_ERR_SHAPE_MISMATCH, "not resampled",
           fwd(near, s4, dc, NULL));
    EXPECT(CLRS_ERR_BAD_STRIDES, "overlap", fwd(near, s2, overlap, NULL));
    EXPECT(CLRS_ERR_BAD_DTYPE, "s64", fwd(near, s4, s64, NULL));
    /* integer gradients are planned (they round once, as forward results) */
    EXPECT(CLRS_SUCCESS, "", bwd(lin, u8s, u8d, NULL, NULL));
    EXPECT(CLRS_ERR_BAD_DTYPE, "s64", bwd(lin, s4, s64, NULL, NULL));

    op = OP(CLRS_MODE_LINEAR);
    clrs_resample_desc_set_scales(op, 3, (const double[]){0.5, 0.5, 0.5});
    EXPECT(CLRS_ERR_PARAM_COUNT, "scales has 3 entries, 2 axes",
           fwd(op, s4, d4, NULL));

    op = OP(CLRS_MODE_LINEAR);
    clrs_resample_desc_set_axes(op, 1, (const int[]){3});
    EXPECT(CLRS_ERR_BAD_AXES, "outside the rank",
           fwd(op, s2, T(CLRS_F32, 2, D(2, 3)), NULL));

    op = OP(CLRS_MODE_LINEAR);
    clrs_resample_desc_set_padding(op, CLRS_PAD_NEG_INF, 0.0);
    EXPECT(CLRS_ERR_INVALID_COMBINATION, "neg_inf", fwd(op, s4, d4, NULL));

    op = OP(CLRS_MODE_NEAREST);
    clrs_resample_desc_set_antialias(op, 1);
    EXPECT(CLRS_ERR_INVALID_COMBINATION, "antialias", fwd(op, s4, d4, NULL));

    op = OP(CLRS_MODE_LINEAR);
    clrs_resample_desc_set_exclude_outside(op, 1);
    EXPECT(CLRS_ERR_INVALID_COMBINATION, "exclude_outside",
           fwd(op, s4, d4, NULL));

    op = OP(CLRS_MODE_LINEAR);
    clrs_resample_desc_set_coord(op, CLRS_COORD_HALF_PIXEL);
    clrs_resample_desc_set_stride(op, 2, D(2, 2));
    EXPECT(CLRS_ERR_INVALID_COMBINATION, "window coordinate",
           fwd(op, s4, d4, NULL));

    op = OP(CLRS_MODE_LINEAR);
    clrs_resample_desc_set_coord(op, CLRS_COORD_PIXEL_OFFSETS);
    EXPECT(CLRS_ERR_MISSING_INPUT, "set_pixel_offsets",
           fwd(op, s4, d4, NULL));

    op = OP(CLRS_MODE_AVG_INCLUDE_PADDING);
    EXPECT(CLRS_ERR_MISSING_INPUT, "window", fwd(op, s4, d4, NULL));

    op = OP(CLRS_MODE_AVG_EXCLUDE_PADDING);
    clrs_resample_desc_set_window(op, 2, D(2, 2));
    clrs_resample_desc_set_coord(op, CLRS_COORD_TF_CROP_AND_RESIZE);
    EXPECT(CLRS_ERR_INVALID_COMBINATION, "window coordinate",
           fwd(op, s4, d4, NULL));

    /* Index tensors. */
    EXPECT(CLRS_ERR_BAD_INDEX_TENSOR, "shape",
           fwd(MAXPOOL(), s4, d4, i32bad));
    EXPECT(CLRS_ERR_BAD_INDEX_TENSOR, "dtype f32",
           fwd(MAXPOOL(), s4, d4, if32));
    op = OP(CLRS_MODE_MAX);
    clrs_resample_desc_set_window(op, 2, D(12, 12));
    EXPECT(CLRS_ERR_BAD_INDEX_TENSOR, "127", fwd(op, s12, d11, is8));
    op = MAXPOOL();
    clrs_resample_desc_set_index_format(op, CLRS_INDEX_PLANE);
    EXPECT(CLRS_ERR_BAD_INDEX_TENSOR, "s64", fwd(op, s4, d4, i32));
    EXPECT(CLRS_ERR_BAD_INDEX_TENSOR, "only max pooling",
           fwd(lin, s4, d4, i32));
    op = MAXPOOL();
    clrs_resample_desc_set_inference(op, 1);
    EXPECT(CLRS_ERR_INVALID_COMBINATION, "inference",
           fwd(op, s4, d4, i32));
    (void)d11;

    /* Backward. */
    EXPECT(CLRS_ERR_MISSING_INPUT, "index tensor or src",
           bwd(MAXPOOL(), s4, d4, NULL, NULL));
    EXPECT(CLRS_ERR_SHAPE_MISMATCH, "src shape",
           bwd(MAXPOOL(), s4, d4, NULL, src_bad));
    EXPECT(CLRS_ERR_INVALID_COMBINATION, "max pooling backward",
           bwd(lin, s4, d4, NULL, s4));
    op = OP(CLRS_MODE_LINEAR);
    clrs_resample_desc_append_sum(op, 1.0);
    EXPECT(CLRS_ERR_INVALID_COMBINATION, "forward only",
           bwd(op, s4, d4, NULL, NULL));
}

/* Cases that need a device: plan creation on a real context. */
static void plans(void)
{
    clrs_context *ctx = NULL;
    clrs_tensor_desc *s, *d, *huge;
    clrs_plan *plan = NULL;
    clrs_status st;

    if (clrs_context_create(&ctx, NULL) != CLRS_SUCCESS) {
        tap_diag("no OpenCL device: %s", clrs_last_error());
        tap_skip("too-large tensor needs an OpenCL device");
        tap_skip("post-op operand shape check needs an OpenCL device");
        tap_skip("context detail message needs an OpenCL device");
        tap_skip("CLRS_LAUNCH with empty items needs an OpenCL device");
        return;
    }
    s = T(CLRS_F32, 4, D(1, 3, 8, 8));
    d = T(CLRS_F32, 4, D(1, 3, 16, 16));
    /* 2^40 * 4 bytes: valid as a descriptor, beyond any device's max
     * allocation. */
    huge = TS(CLRS_F32, 2, D(2, 2), D(INT64_C(1) << 40, 1));
    EXPECT(CLRS_ERR_TOO_LARGE, "bytes",
           clrs_plan_create_forward(&plan, ctx, OP(CLRS_MODE_NEAREST), huge,
                                    T(CLRS_F32, 2, D(4, 4)), NULL));

    /* A binary post-op whose operand neither matches nor broadcasts
     * against dst (W 8, dst W 16): plan creation names the operand; it
     * must never pass for success. */
    {
        clrs_resample_desc *post = OP(CLRS_MODE_LINEAR);
        clrs_resample_desc_append_binary(post, CLRS_BINARY_ADD,
                                         T(CLRS_F32, 4, D(1, 3, 1, 8)));
        clear_message();
        st = clrs_plan_create_forward(&plan, ctx, post, s, d, NULL);
        check(st, CLRS_ERR_SHAPE_MISMATCH, "operand",
              "forward plan with a binary operand that does not broadcast "
              "reports CLRS_ERR_SHAPE_MISMATCH");
    }
    tap_ok(strstr(clrs_context_last_error(ctx), "operand") != NULL,
           "the context keeps the detail message: \"%s\"",
           clrs_context_last_error(ctx));
    clrs_plan_destroy(plan); /* NULL after failure; destroy(NULL) is safe */

    /* CLRS_LAUNCH with empty items: the manual promises
     * CLRS_ERR_INVALID_VALUE for a malformed value, never a launch made
     * of the items that happen to be there. The library reads it when a
     * context is made: each value gets a context of its own, and the
     * value set after ctx was made changes nothing for ctx's plans. */
    {
        static const char *const bad[] = {",,,,", "vec=1,,local=driver",
                                          ",", "vec=4,", ",vec=4"};
        const char *old = getenv("CLRS_LAUNCH");
        char *saved = old ? strdup(old) : NULL;
        size_t i;
        for (i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
            char what[96];
            clrs_context *bctx = NULL;
            setenv("CLRS_LAUNCH", bad[i], 1);
            snprintf(what, sizeof what,
                     "forward plan under CLRS_LAUNCH='%s'", bad[i]);
            plan = NULL;
            clear_message();
            if (clrs_context_create(&bctx, NULL) != CLRS_SUCCESS) {
                tap_ok(0, "%s: a context: %s", what, clrs_last_error());
                continue;
            }
            st = clrs_plan_create_forward(&plan, bctx, OP(CLRS_MODE_LINEAR),
                                          s, d, NULL);
            check(st, CLRS_ERR_INVALID_VALUE, "empty item", what);
            tap_ok(plan == NULL, "%s leaves no plan", what);
            clrs_plan_destroy(plan);
            plan = NULL;
            /* ctx was made before: the environment then holds. */
            st = clrs_plan_create_forward(&plan, ctx, OP(CLRS_MODE_LINEAR), s,
                                          d, NULL);
            tap_ok(st == CLRS_SUCCESS,
                   "%s set after the context was made: its plans are made "
                   "as before (%s)",
                   what, clrs_status_name(st));
            clrs_plan_destroy(plan);
            clrs_context_destroy(bctx);
        }
        if (saved)
            setenv("CLRS_LAUNCH", saved, 1);
        else
            unsetenv("CLRS_LAUNCH");
        free(saved);
    }
    clrs_context_destroy(ctx);
}

static void status_names(void)
{
    char want[64];
#define NAME_CASE_(name, code, msg)                                          \
    snprintf(want, sizeof want, "CLRS_%s", #name);                           \
    tap_ok(strcmp(clrs_status_name(CLRS_##name), want) == 0 &&               \
               strcmp(clrs_status_string(CLRS_##name), msg) == 0,            \
           "status %d is %s: %s", code, clrs_status_name(CLRS_##name),      \
           clrs_status_string(CLRS_##name));
    CLRS_STATUS_MAP(NAME_CASE_)
#undef NAME_CASE_
    tap_ok(strcmp(clrs_status_name((clrs_status)-999),
                  "CLRS_UNKNOWN_STATUS") == 0 &&
               clrs_status_string((clrs_status)-999) != NULL &&
               clrs_status_string((clrs_status)-999)[0] != '\0',
           "unknown status -999 is %s: %s",
           clrs_status_name((clrs_status)-999),
           clrs_status_string((clrs_status)-999));
    tap_ok(clrs_plan_get_build_log(NULL) != NULL &&
               clrs_plan_get_build_log(NULL)[0] == '\0',
           "clrs_plan_get_build_log(NULL) is \"\"");
}

int main(void)
{
    int i;

    hargs.src = scratch[0];
    hargs.dst = scratch[1];
    hargs.diff_dst = scratch[0];
    hargs.diff_src = scratch[1];
    hargs.index = scratch[2];
    for (i = 0; i < CLRS_MAX_POST_OPS; ++i)
        hargs.post_op[i] = scratch[3];

    null_pointers();
    tensor_shapes();
    op_setters();
    size_helpers();
    problems();
    plans();
    status_names();

    for (i = 0; i < ntensors; ++i)
        clrs_tensor_desc_destroy(tensors[i]);
    for (i = 0; i < nops; ++i)
        clrs_resample_desc_destroy(ops[i]);
    return tap_done();
}
