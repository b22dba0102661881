/* Output-size helpers (clresample(3), OUTPUT SIZES): sizes from scales,
 * pooled sizes with the floor and ceil rules, dst dims for an op, and the
 * index tensor dtype. */
#include "model/internal.h"

#include <math.h>
#include <string.h>

/* 2^63 as a double: the first value that no longer fits int64. */
#define INT64_LIMIT 9223372036854775808.0

clrs_status clrs_output_size_from_scale(int64_t in, double scale,
                                        clrs_size_rule rule, int64_t *out)
{
    double v;

    CLRS_CHECK_PTR(out);
    *out = 0;
    CLRS_CHECK(in > 0, CLRS_ERR_BAD_DIMS, "input size %lld (must be > 0)",
               (long long)in);
    CLRS_CHECK(isfinite(scale) && scale > 0, CLRS_ERR_BAD_SCALE,
               "scale %g (must be finite and > 0)", scale);
    CLRS_CHECK(rule == CLRS_SIZE_FLOOR || rule == CLRS_SIZE_TRUNC,
               CLRS_ERR_INVALID_ENUM, "size rule %d is unknown", (int)rule);
    /* I * scale in double, as ONNX, PyTorch and oneDNN compute it; for a
     * positive product floor and trunc agree, the rules differ only in
     * name (kept apart for callers mirroring either library). */
    v = (double)in * scale;
    v = rule == CLRS_SIZE_FLOOR ? floor(v) : trunc(v);
    CLRS_CHECK(v < INT64_LIMIT, CLRS_ERR_OVERFLOW,
               "output size %lld * %g overflows int64", (long long)in, scale);
    CLRS_CHECK(v >= 1, CLRS_ERR_SHAPE_MISMATCH,
               "output size is 0: input size %lld * scale %g < 1",
               (long long)in, scale);
    *out = (int64_t)v;
    clrs__clear_error();
    return CLRS_SUCCESS;
}

clrs_status clrs_output_sizes_keep_aspect(int n, const int64_t *in,
                                          const int64_t *sizes,
                                          clrs_keep_aspect policy,
                                          int64_t *out, double *scales)
{
    double s = 0, v;
    int i;

    CLRS_CHECK(n >= 1 && n <= CLRS_MAX_RANK, CLRS_ERR_BAD_RANK,
               "keep-aspect: %d axes (1..%d)", n, CLRS_MAX_RANK);
    CLRS_CHECK_PTR(in);
    CLRS_CHECK_PTR(sizes);
    CLRS_CHECK_PTR(out);
    CLRS_CHECK((unsigned)policy <= (unsigned)CLRS_KEEP_ASPECT_NOT_SMALLER,
               CLRS_ERR_INVALID_ENUM, "keep-aspect policy %d is unknown",
               (int)policy);
    for (i = 0; i < n; ++i) {
        CLRS_CHECK(in[i] > 0 && sizes[i] > 0, CLRS_ERR_BAD_DIMS,
                   "keep-aspect axis %d: sizes %lld -> %lld must be > 0", i,
                   (long long)in[i], (long long)sizes[i]);
        v = (double)sizes[i] / (double)in[i];
        if (i == 0 || (policy == CLRS_KEEP_ASPECT_NOT_LARGER ? v < s : v > s))
            s = v;
    }
    for (i = 0; i < n; ++i) {
        if (policy == CLRS_KEEP_ASPECT_STRETCH) {
            out[i] = sizes[i];
            if (scales)
                scales[i] = (double)sizes[i] / (double)in[i];
            continue;
        }
        v = floor(s * (double)in[i] + 0.5);
        CLRS_CHECK(v >= 1 && v < INT64_LIMIT, CLRS_ERR_SHAPE_MISMATCH,
                   "keep-aspect axis %d: %lld * %g rounds to %g", i,
                   (long long)in[i], s, v);
        out[i] = (int64_t)v;
        if (scales)
            scales[i] = s;
    }
    clrs__clear_error();
    return CLRS_SUCCESS;
}

/* ---- exact rationals ---------------------------------------------------
 * Pooled sizes are floor/ceil of a quotient: evaluating it in double can
 * land just below an integer (10 / (1/3) as 29.999...) and lose a whole
 * output. We compute exactly in int64 when nothing overflows and fall
 * back to double (as fractions are evaluated everywhere else) only when
 * it does. */

static clrs_status check_fraction(clrs_fraction f, const char *what,
                                  int positive)
{
    CLRS_CHECK(f.den > 0, CLRS_ERR_BAD_FRACTION,
               "%s %lld/%lld: denominator must be > 0", what,
               (long long)f.num, (long long)f.den);
    if (positive)
        CLRS_CHECK(f.num > 0, CLRS_ERR_BAD_WINDOW,
                   "%s %lld/%lld must be > 0", what, (long long)f.num,
                   (long long)f.den);
    else
        CLRS_CHECK(f.num >= 0, CLRS_ERR_INVALID_VALUE,
                   "%s %lld/%lld must be >= 0", what, (long long)f.num,
                   (long long)f.den);
    return CLRS_SUCCESS;
}

/* O exactly, or 0 when an intermediate overflows int64. Returns 1 on an
 * exact result (which may be <= 0). */
static int pool_exact(int64_t in, clrs_fraction window, clrs_fraction stride,
                      clrs_fraction pre, clrs_fraction post, int ceil_mode,
                      int64_t *o)
{
    clrs_rat I = {in, 1}, w = clrs__rat(window.num, window.den);
    clrs_rat s = clrs__rat(stride.num, stride.den);
    clrs_rat a = clrs__rat(pre.num, pre.den);
    clrs_rat b = clrs__rat(post.num, post.den);
    clrs_rat span, lim, pos;
    int64_t qn, qd, n;

    /* span = I + pre + post - window; quotient span / stride */
    if (!clrs__rat_add(I, a, 1, &span) ||
        !clrs__rat_add(span, b, 1, &span) ||
        !clrs__rat_add(span, w, -1, &span) ||
        !clrs__mul_ok(span.n, s.d, &qn) || !clrs__mul_ok(span.d, s.n, &qd))
        return 0;
    n = ceil_mode ? clrs__ceil_div(qn, qd) : clrs__floor_div(qn, qd);
    if (!clrs__add_ok(n, 1, &n))
        return 0;
    if (ceil_mode && n >= 1) {
        /* PyTorch: drop the last window when it would start inside the
         * post padding, i.e. (O - 1) * stride >= I + pre. */
        if (!clrs__mul_ok(n - 1, s.n, &pos.n))
            return 0;
        pos.d = s.d;
        if (!clrs__rat_add(I, a, 1, &lim) ||
            !clrs__rat_add(pos, lim, -1, &pos))
            return 0;
        if (pos.n >= 0)
            --n;
    }
    *o = n;
    return 1;
}

clrs_status clrs_pool_output_size(int64_t in, clrs_fraction window,
                                  clrs_fraction stride, clrs_fraction pre,
                                  clrs_fraction post, int ceil_mode,
                                  int64_t *out)
{
    int64_t o;

    CLRS_CHECK_PTR(out);
    *out = 0;
    CLRS_CHECK(in > 0, CLRS_ERR_BAD_DIMS, "input size %lld (must be > 0)",
               (long long)in);
    CLRS_TRY(check_fraction(window, "window", 1));
    CLRS_TRY(check_fraction(stride, "stride", 1));
    CLRS_TRY(check_fraction(pre, "pre padding", 0));
    CLRS_TRY(check_fraction(post, "post padding", 0));

    if (!pool_exact(in, window, stride, pre, post, ceil_mode, &o)) {
        double I = (double)in, w = clrs__fraction_value(window);
        double s = clrs__fraction_value(stride);
        double a = clrs__fraction_value(pre), b = clrs__fraction_value(post);
        double q = (I + a + b - w) / s;
        double n = (ceil_mode ? ceil(q) : floor(q)) + 1.0;
        CLRS_CHECK(isfinite(q) && n < INT64_LIMIT / 2, CLRS_ERR_OVERFLOW,
                   "pooled output size overflows int64 (input %lld, "
                   "stride %g)",
                   (long long)in, s);
        if (ceil_mode && n >= 1 && (n - 1.0) * s >= I + a)
            n -= 1.0;
        o = n < 0 ? 0 : (int64_t)n;
    }
    CLRS_CHECK(o >= 1, CLRS_ERR_SHAPE_MISMATCH,
               "pooled output size is %lld: window %g does not fit input "
               "%lld with paddings %g + %g",
               (long long)o, clrs__fraction_value(window), (long long)in,
               clrs__fraction_value(pre), clrs__fraction_value(post));
    *out = o;
    clrs__clear_error();
    return CLRS_SUCCESS;
}

/* ---- per-op helpers ----------------------------------------------------- */

/* Prefixes the recorded message with the axis it is about. */
static clrs_status with_axis(clrs_status st, int axis)
{
    char msg[CLRS_ERRMSG_MAX];
    strncpy(msg, clrs__thread_error(), sizeof msg - 1);
    msg[sizeof msg - 1] = '\0';
    return clrs__error(st, "axis %d: %s", axis, msg);
}

static clrs_status count_ok(int n, int naxes, const char *what)
{
    CLRS_CHECK(n == 0 || n == naxes, CLRS_ERR_PARAM_COUNT,
               "%s has %d entries, %d axes are resampled", what, n, naxes);
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_output_dims(const clrs_resample_desc *op,
                                           const clrs_tensor_desc *src,
                                           int ceil_mode, int64_t *dst_dims)
{
    int axes[CLRS_MAX_RANK], naxes, i, k;
    int64_t dims[CLRS_MAX_RANK];

    CLRS_CHECK_PTR(op);
    CLRS_CHECK_PTR(src);
    CLRS_CHECK_PTR(dst_dims);
    CLRS_TRY(clrs__tensor_check(src, "src"));
    CLRS_TRY(clrs__resolve_axes(op, src->rank, axes, &naxes));
    for (i = 0; i < src->rank; ++i)
        dims[i] = src->dims[i];

    if (clrs__mode_pooling((int)op->mode)) {
        const clrs_fraction one = {1, 1}, zero = {0, 1};
        CLRS_CHECK(op->n_window > 0, CLRS_ERR_MISSING_INPUT,
                   "pooling needs a window (set_window) to size dst");
        CLRS_TRY(count_ok(op->n_window, naxes, "window"));
        CLRS_TRY(count_ok(op->n_stride, naxes, "stride"));
        CLRS_TRY(count_ok(op->n_pad, naxes, "padding sizes"));
        CLRS_TRY(count_ok(op->n_dilation, naxes, "dilation"));
        for (k = 0; k < naxes; ++k) {
            /* stride 1 and no padding when unset, as coords.c resolves;
             * a dilated window spans (k - 1) d + 1 pixels */
            clrs_fraction win = op->window[k];
            clrs_status st;
            if (op->n_dilation && op->dilation[k] > 1 && win.den == 1)
                win.num = (win.num - 1) * op->dilation[k] + 1;
            st = clrs_pool_output_size(
                src->dims[axes[k]], win,
                op->n_stride ? op->stride[k] : one,
                op->n_pad ? op->pre[k] : zero,
                op->n_pad ? op->post[k] : zero, ceil_mode, &dims[axes[k]]);
            if (st < 0)
                return with_axis(st, axes[k]);
        }
    } else {
        CLRS_CHECK(op->n_scales > 0, CLRS_ERR_MISSING_INPUT,
                   "interpolation needs scales (set_scales) to size dst");
        CLRS_TRY(count_ok(op->n_scales, naxes, "scales"));
        CLRS_TRY(count_ok(op->n_roi, naxes, "roi"));
        for (k = 0; k < naxes; ++k) {
            double s = op->scales[k];
            clrs_status st;
            /* ONNX Resize sizes a crop by its box:
             * floor(I * (end - start) * scale). */
            if (op->coord == CLRS_COORD_TF_CROP_AND_RESIZE && op->n_roi)
                s *= op->roi_end[k] - op->roi_start[k];
            st = clrs_output_size_from_scale(src->dims[axes[k]], s,
                                             CLRS_SIZE_FLOOR, &dims[axes[k]]);
            if (st < 0)
                return with_axis(st, axes[k]);
        }
    }
    for (i = 0; i < src->rank; ++i)
        dst_dims[i] = dims[i];
    clrs__clear_error();
    return CLRS_SUCCESS;
}

clrs_status clrs_resample_desc_index_dtype(const clrs_resample_desc *op,
                                           const clrs_tensor_desc *src,
                                           clrs_dtype *dtype)
{
    int axes[CLRS_MAX_RANK], naxes, k;
    double volume = 1;

    CLRS_CHECK_PTR(op);
    CLRS_CHECK_PTR(src);
    CLRS_CHECK_PTR(dtype);
    CLRS_CHECK(clrs__mode_allows((int)op->mode, CLRS_MOPT_INDEX),
               CLRS_ERR_BAD_INDEX_TENSOR,
               "only max pooling has an index tensor (mode %d)",
               (int)op->mode);
    CLRS_CHECK((unsigned)op->index_format <= (unsigned)CLRS_INDEX_PLANE_COLUMN,
               CLRS_ERR_INVALID_ENUM, "index format %d is unknown",
               (int)op->index_format);
    if (CLRS__INDEX_IS_PLANE(op->index_format)) {
        *dtype = CLRS_S64;
        clrs__clear_error();
        return CLRS_SUCCESS;
    }
    /* The window box depends on the op alone, not on sizes: a problem
     * whose default output would be empty still has a box. */
    CLRS_TRY(clrs__tensor_check(src, "src"));
    CLRS_TRY(clrs__resolve_axes(op, src->rank, axes, &naxes));
    CLRS_CHECK(op->n_window == naxes, CLRS_ERR_PARAM_COUNT,
               "window has %d entries, %d axes are resampled", op->n_window,
               naxes);
    for (k = 0; k < naxes; ++k)
        volume *= clrs__window_box(op, k);
    *dtype = volume <= CLRS_S8_INDEX_MAX ? CLRS_S8 : CLRS_S32;
    clrs__clear_error();
    return CLRS_SUCCESS;
}
