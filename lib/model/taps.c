/* Per-axis tap lists: for every output index of every tensor axis, the
 * input pixels it reads with their weights. Shared by the CPU reference and
 * the device plans, so both pick exactly the same taps. */
/* Weights and coordinates must match the devices: no contraction. GCC
 * ignores (and warns about) this pragma; it gets -ffp-contract=off from the
 * Makefile instead. */
#if !defined(__GNUC__) || defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include "model/internal.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Room for cap taps (and their window positions where the list keeps
 * them). */
static clrs_status reserve(clrs_taplist *tl, size_t cap, int codes)
{
    clrs_tap *t =
        cap < ((size_t)-1) / sizeof *t ? realloc(tl->t, cap * sizeof *t) : NULL;
    CLRS_CHECK(t != NULL, CLRS_ERR_OUT_OF_MEMORY,
               "taps: out of memory for %zu taps", cap);
    tl->t = t;
    if (codes) {
        int32_t *j = realloc(tl->j, cap * sizeof *j);
        CLRS_CHECK(j != NULL, CLRS_ERR_OUT_OF_MEMORY,
                   "taps: out of memory for %zu taps", cap);
        tl->j = j;
    }
    tl->cap = cap;
    return CLRS_SUCCESS;
}

static clrs_status push(clrs_taplist *tl, int64_t idx, double w, int j)
{
    if (tl->n == tl->cap)
        CLRS_TRY(reserve(tl, tl->cap ? 2 * tl->cap : 64, tl->j != NULL));
    tl->t[tl->n].idx = idx;
    tl->t[tl->n].w = w;
    if (tl->j)
        tl->j[tl->n] = j;
    tl->n++;
    return CLRS_SUCCESS;
}

/* The padding rule: in-range indices stay, EDGE clamps, the rest read the
 * padding value (-1). */
static int64_t resolve(const clrs_problem *p, int64_t i, int64_t n)
{
    if (i >= 0 && i < n)
        return i;
    if (p->padding == CLRS_PAD_EDGE)
        return i < 0 ? 0 : n - 1;
    return -1;
}

/* Rounding decided on the coordinate's own floor and tie test (exact
 * under every arithmetic), so no x +- 0.5 is ever rounded (in float,
 * 0.5 - 2^-25 + 0.5 would round up to 1). */
static int64_t round_nearest(clrs_rounding r, const clrs_xval *xv)
{
    int64_t f = xv->fl;
    switch (r) {
    case CLRS_ROUND_PREFER_FLOOR: /* ceil(x - 0.5) */
        return xv->half > 0 ? f + 1 : f;
    case CLRS_ROUND_PREFER_CEIL: /* floor(x + 0.5) */
        return xv->half >= 0 ? f + 1 : f;
    case CLRS_ROUND_FLOOR:
        return f;
    case CLRS_ROUND_CEIL:
        return xv->fr > 0 ? f + 1 : f;
    }
    return f;
}

typedef clrs_status (*tap_fn)(const clrs_problem *p, const clrs_axis_map *ax,
                              const clrs_xval *xv, clrs_taplist *tl);

static clrs_status taps_nearest(const clrs_problem *p, const clrs_axis_map *ax,
                                const clrs_xval *xv, clrs_taplist *tl)
{
    return push(tl, resolve(p, round_nearest(p->rounding, xv), ax->in), 1.0,
                0);
}

/* x > n - 1, decided on the floor and fraction. */
static int beyond(const clrs_xval *xv, int64_t n)
{
    return xv->fl > n - 1 || (xv->fl == n - 1 && xv->fr > 0);
}

/* OpenCV's interpolationLinear (INTER_LINEAR_EXACT, 8-bit): the sample
 * (o + 0.5) / (O / I) - 0.5 in double, the fraction to 8 bits rounded to
 * nearest even, the other weight 1 minus it; left of pixel 0 and from
 * pixel I - 1 on, the edge pixel alone. */
static clrs_status taps_opencv_exact(const clrs_axis_map *ax,
                                     const clrs_xval *xv, clrs_taplist *tl)
{
    const double scale = 1.0 / ((double)ax->out / (double)ax->in);
    const double fval = scale * ((double)xv->o + 0.5) - 0.5;
    const double ival = floor(fval);
    double w1;

    if (ival < 0 || ax->in == 1)
        return push(tl, 0, 1.0, 0);
    if (ival >= (double)(ax->in - 1))
        return push(tl, ax->in - 1, 1.0, 0);
    w1 = nearbyint((fval - ival) * 256.0) / 256.0;
    CLRS_TRY(push(tl, (int64_t)ival, 1.0 - w1, 0));
    return push(tl, (int64_t)ival + 1, w1, 1);
}

static clrs_status taps_linear(const clrs_problem *p, const clrs_axis_map *ax,
                               const clrs_xval *xv, clrs_taplist *tl)
{
    int64_t last = ax->in - 1, i0 = xv->fl, i1 = xv->fl + 1;
    double w = xv->fr;
    if (p->exact8)
        return taps_opencv_exact(ax, xv, tl);
    if (p->padding == CLRS_PAD_EDGE) {
        /* xc = clamp(x, 0, I - 1) */
        if (xv->fl < 0) {
            i0 = 0;
            w = 0;
        } else if (beyond(xv, ax->in)) {
            i0 = last;
            w = 0;
        }
        i1 = i0 + 1 < last ? i0 + 1 : last;
    } else {
        i0 = resolve(p, i0, ax->in);
        i1 = resolve(p, i1, ax->in);
    }
    CLRS_TRY(push(tl, i0, 1.0 - w, 0));
    return push(tl, i1, w, 1);
}

/* Keys' cubic kernel with coefficient A, |u| < 1 and 1 <= |u| < 2. */
static double cubic_k1(double A, double u)
{
    return ((A + 2) * u - (A + 3)) * u * u + 1;
}

static double cubic_k2(double A, double u)
{
    return ((A * u - 5 * A) * u + 8 * A) * u - 4 * A;
}

static double cubic_kernel(double A, double u)
{
    u = fabs(u);
    return u < 1 ? cubic_k1(A, u) : u < 2 ? cubic_k2(A, u) : 0.0;
}

static double linear_kernel(double u)
{
    u = fabs(u);
    return u < 1 ? 1 - u : 0.0;
}

static clrs_status taps_cubic(const clrs_problem *p, const clrs_axis_map *ax,
                              const clrs_xval *xv, clrs_taplist *tl)
{
    double A = p->cubic_a, t = xv->fr, w[4], sum = 0;
    int64_t f = xv->fl;
    int m;
    w[0] = cubic_k2(A, t + 1);
    w[1] = cubic_k1(A, t);
    w[2] = cubic_k1(A, 1 - t);
    w[3] = cubic_k2(A, 2 - t);
    if (p->exclude_outside) {
        for (m = 0; m < 4; ++m) {
            int64_t i = f - 1 + m;
            if (i < 0 || i >= ax->in)
                w[m] = 0;
            sum += w[m];
        }
        for (m = 0; m < 4; ++m) {
            int64_t i = f - 1 + m;
            if (i >= 0 && i < ax->in)
                CLRS_TRY(push(tl, i, sum != 0 ? w[m] / sum : 0.0, m));
        }
        return CLRS_SUCCESS;
    }
    for (m = 0; m < 4; ++m)
        CLRS_TRY(push(tl, resolve(p, f - 1 + m, ax->in), w[m], m));
    return CLRS_SUCCESS;
}

#define CLRS_PI 3.14159265358979323846

static double sinc(double u)
{
    if (u == 0)
        return 1.0;
    u *= CLRS_PI;
    return sin(u) / u;
}

/* Mitchell-Netravali with parameters B and C, u >= 0. */
static double mitchell_kernel(double B, double C, double u)
{
    if (u < 1)
        return ((12 - 9 * B - 6 * C) * u * u * u +
                (-18 + 12 * B + 6 * C) * u * u + (6 - 2 * B)) /
               6;
    if (u < 2)
        return ((-B - 6 * C) * u * u * u + (6 * B + 30 * C) * u * u +
                (-12 * B - 48 * C) * u + (8 * B + 24 * C)) /
               6;
    return 0.0;
}

double clrs__filter_radius(const clrs_problem *p)
{
    switch (p->filter) {
    case CLRS_FILTER_LANCZOS:
        return p->filter_p;
    case CLRS_FILTER_GAUSSIAN:
        return 3 * p->filter_p;
    case CLRS_FILTER_BOX:
        return 0.5;
    case CLRS_FILTER_AREA:
        return 0.0; /* taps_filter's own: (1/scale + 1) / 2 */
    case CLRS_FILTER_TRIANGLE:
    case CLRS_FILTER_HAMMING:
        return 1.0;
    case CLRS_FILTER_KEYS:
    case CLRS_FILTER_MITCHELL:
        return 2.0;
    }
    return 0.0;
}

double clrs__kernel_radius(const clrs_problem *p)
{
    return p->mode == CLRS_MODE_FILTER  ? clrs__filter_radius(p)
           : p->mode == CLRS_MODE_CUBIC ? 2.0
                                        : 1.0;
}

/* The filter of CLRS_MODE_FILTER (clrs_filter documents each). */
static double filter_kernel(const clrs_problem *p, double u)
{
    const double a = p->filter_p, b = p->filter_q;
    if (p->filter == CLRS_FILTER_BOX && fabs(u) == 0.5)
        return u < 0 ? a : b;
    u = fabs(u);
    switch (p->filter) {
    case CLRS_FILTER_LANCZOS:
        return u < a ? sinc(u) * sinc(u / a) : 0.0;
    case CLRS_FILTER_GAUSSIAN:
        return u < 3 * a ? exp(-u * u / (2 * a * a)) : 0.0;
    case CLRS_FILTER_BOX:
        return u < 0.5 ? 1.0 : 0.0;
    case CLRS_FILTER_AREA: /* taps_filter's own */
        return 0.0;
    case CLRS_FILTER_TRIANGLE:
        return linear_kernel(u);
    case CLRS_FILTER_HAMMING: /* Pillow's constants, which are floats */
        return u < 1 ? sinc(u) * (0.54f + 0.46f * cos(CLRS_PI * u)) : 0.0;
    case CLRS_FILTER_KEYS:
        return cubic_kernel(a, u);
    case CLRS_FILTER_MITCHELL:
        return mitchell_kernel(a, b, u);
    }
    return 0.0;
}

/* The length of [u - 1/2, u + 1/2] inside [-w/2, w/2]. */
static double coverage(double u, double w)
{
    double lo = u - 0.5 > -w / 2 ? u - 0.5 : -w / 2;
    double hi = u + 0.5 < w / 2 ? u + 0.5 : w / 2;
    return hi > lo ? hi - lo : 0.0;
}

/* The taps of one output from first on divided by their sum, or, when
 * there are none or they sum to 0, the edge pixel alone (pixel 0 where
 * left_edge). */
static clrs_status normalise(clrs_taplist *tl, size_t first, double sum,
                             int left_edge, int64_t last)
{
    size_t k;
    if (tl->n == first || sum == 0) {
        tl->n = first;
        return push(tl, left_edge ? 0 : last, 1.0, 0);
    }
    for (k = first; k < tl->n; ++k)
        tl->t[k].w /= sum;
    return CLRS_SUCCESS;
}

/* Pillow's bicubic_filter, in its order of operations. */
static double pillow_cubic(double A, double u)
{
    u = fabs(u);
    if (u < 1.0)
        return ((A + 2.0) * u - (A + 3.0)) * u * u + 1;
    if (u < 2.0)
        return (((u - 5) * u + 8) * u - 4) * A;
    return 0.0;
}

/* Pillow's normalize_coeffs_8bpc: to PRECISION_BITS = 22 fractional
 * bits, rounded half away from 0 through C's (int); as a double, exact. */
static double pillow_fixed(double w)
{
    const double one = 4194304.0; /* 1 << 22 */
    return (double)(int)(w < 0 ? -0.5 + w * one : 0.5 + w * one) / one;
}

/* Pillow's precompute_coeffs (src/libImaging/Resample.c, Pillow 9.4) for
 * one output: its centre, window and weights in its own double
 * arithmetic; on its 8-bit path (p->fixed8) in its fixed point. */
static clrs_status taps_pillow(const clrs_problem *p, const clrs_axis_map *ax,
                               const clrs_xval *xv, clrs_taplist *tl)
{
    const double scale = (double)ax->in / (double)ax->out;
    const double f = ax->aa_scale, ss = 1.0 / f;
    const double center = ((double)xv->o + 0.5) * scale;
    const double support = clrs__kernel_radius(p) * f;
    const int any = p->mode == CLRS_MODE_FILTER;
    const int keys =
        p->mode == CLRS_MODE_CUBIC || (any && p->filter == CLRS_FILTER_KEYS);
    const double A = p->mode == CLRS_MODE_CUBIC ? p->cubic_a : p->filter_p;
    double sum = 0, v;
    int64_t lo, hi, i;
    size_t first = tl->n, k;

    v = center - support + 0.5; /* C's (int): towards zero */
    lo = v < 0 ? 0 : (int64_t)v;
    v = center + support + 0.5;
    hi = v < 0 ? 0 : (int64_t)v;
    if (hi > ax->in)
        hi = ax->in;
    for (i = lo; i < hi; ++i) {
        double u = ((double)i - center + 0.5) * ss;
        double w = keys  ? pillow_cubic(A, u)
                   : any ? filter_kernel(p, u)
                         : linear_kernel(u);
        CLRS_TRY(push(tl, i, w, (int)(i - lo)));
        sum += w;
    }
    CLRS_TRY(normalise(tl, first, sum, center < 0.5, ax->in - 1));
    for (k = first; p->fixed8 && k < tl->n; ++k)
        tl->t[k].w = pillow_fixed(tl->t[k].w);
    return CLRS_SUCCESS;
}

/* TensorFlow's kernels (core/kernels/image/sampling_kernels.h) in its
 * float arithmetic, with their radii; a filter or parameter TensorFlow
 * has not is the library's, rounded to float. */
static float tf_radius(const clrs_problem *p)
{
    switch (p->filter) {
    case CLRS_FILTER_BOX: /* its span; the weights end at 1/2 */
        return 1.0f;
    default:
        return (float)clrs__filter_radius(p);
    }
}

static float tf_kernel(const clrs_problem *p, float x)
{
    const float kPI = 3.14159265359f;
    const float a = (float)p->filter_p;
    x = fabsf(x);
    switch (p->filter) {
    case CLRS_FILTER_LANCZOS:
        if (x > a)
            return 0.0f;
        if (x <= 1e-3) /* a double, as TensorFlow writes it */
            return 1.0f;
        return a * sinf(kPI * x) * sinf(kPI * x / a) / (kPI * kPI * x * x);
    case CLRS_FILTER_GAUSSIAN: {
        const float radius = 3.0f * a, sigma = radius / 3.0f;
        if (x >= radius)
            return 0.0f;
        return (float)exp(-x * x / (2.0 * sigma * sigma));
    }
    case CLRS_FILTER_BOX:
        return x < 0.5f ? 1.0f : x == 0.5f ? 0.5f : 0.0f;
    case CLRS_FILTER_TRIANGLE:
        return x < 1.0f ? 1.0f - x : 0.0f;
    case CLRS_FILTER_KEYS:
        if (p->filter_p != -0.5)
            break;
        if (x >= 2.0f)
            return 0.0f;
        if (x >= 1.0f)
            return ((-0.5f * x + 2.5f) * x - 4.0f) * x + 2.0f;
        return ((1.5f * x - 2.5f) * x) * x + 1.0f;
    case CLRS_FILTER_MITCHELL:
        if (p->filter_p != 1.0 / 3.0 || p->filter_q != 1.0 / 3.0)
            break;
        if (x >= 2.0f)
            return 0.0f;
        if (x >= 1.0f)
            return (((-7.0f / 18.0f) * x + 2.0f) * x - 10.0f / 3.0f) * x +
                   16.0f / 9.0f;
        return (((7.0f / 6.0f) * x - 2.0f) * x) * x + 8.0f / 9.0f;
    default:
        break;
    }
    return (float)filter_kernel(p, x);
}

/* TensorFlow's inv_scale: 1 / s in double, as a float. */
static float tf_inv_scale(const clrs_axis_map *ax)
{
    return (float)(1.0 / (double)ax->tf_s);
}

/* TensorFlow's sample position of output o: (o + 0.5f) / s - t / s, in
 * its float steps. */
static float tf_sample(const clrs_axis_map *ax, int64_t o)
{
    const float inv_scale = tf_inv_scale(ax);
    const float inv_translate = -inv_scale * ax->tf_t;
    const float col = (float)o + 0.5f;
    return col * inv_scale + inv_translate;
}

/* TensorFlow's ComputeSpansCore (core/kernels/image/scale_and_translate_op.cc)
 * for one output: its span, kernel and normalisation, in float. */
static clrs_status taps_tensorflow(const clrs_problem *p,
                                   const clrs_axis_map *ax, const clrs_xval *xv,
                                   clrs_taplist *tl)
{
    const float inv_scale = tf_inv_scale(ax);
    const float ks = p->antialias && inv_scale > 1.0f ? inv_scale : 1.0f;
    const float one_over_ks = 1.0f / ks, r = tf_radius(p);
    const float s = tf_sample(ax, xv->o);
    int64_t lo = (int64_t)ceilf(s - r * ks - 0.5f);
    int64_t hi = (int64_t)floorf(s + r * ks - 0.5f), i;
    float total = 0.0f;
    size_t first = tl->n, k;

    lo = lo < 0 ? 0 : lo > ax->in - 1 ? ax->in - 1 : lo;
    hi = (hi < 0 ? 0 : hi > ax->in - 1 ? ax->in - 1 : hi) + 1;
    for (i = lo; i < hi; ++i) {
        const float pos = (float)i + 0.5f - s;
        const float w = tf_kernel(p, pos * one_over_ks);
        CLRS_TRY(push(tl, i, (double)w, (int)(i - lo)));
        total += w;
    }
    if (fabsf(total) >= 1000.0f * FLT_MIN) {
        const float one_over_total = 1.0f / total;
        for (k = first; k < tl->n; ++k)
            tl->t[k].w = (double)((float)tl->t[k].w * one_over_total);
    }
    return CLRS_SUCCESS;
}

/* A filter stretched by f (1 without antialias): every pixel i under it
 * gets K((i - x)/f); antialiased linear and cubic are the triangle and
 * Keys' cubic. Restricted (PyTorch's rule; ONNX's with exclude_outside):
 * only in-range pixels, renormalised to sum 1. Otherwise (ONNX's
 * default): the weights are normalised over the whole filter and
 * out-of-range taps read the padding rule's pixel (the edge). The filter
 * mode takes the pixels at exactly R f too (the box's ties); linear and
 * cubic have none there. The area filter weighs each pixel by the part
 * of it the output pixel covers. Under CLRS_AA_PILLOW and
 * CLRS_ARITH_TENSORFLOW the libraries' own arithmetic decides. */
static clrs_status taps_filter(const clrs_problem *p, const clrs_axis_map *ax,
                               const clrs_xval *xv, clrs_taplist *tl)
{
    double f = ax->aa_scale, x = xv->x, support, sum = 0;
    int cubic = p->mode == CLRS_MODE_CUBIC, any = p->mode == CLRS_MODE_FILTER;
    int area = any && p->filter == CLRS_FILTER_AREA;
    int restrict_in = p->aa_rule == CLRS_AA_PYTORCH || p->exclude_outside;
    int64_t lo, hi, i;
    size_t first = tl->n;

    if (p->aa_rule == CLRS_AA_PILLOW && !area)
        return taps_pillow(p, ax, xv, tl);
    if (any && p->arith == CLRS_ARITH_TENSORFLOW && !area)
        return taps_tensorflow(p, ax, xv, tl);
    support = clrs__kernel_radius(p) * f;
    if (area) /* the output pixel's footprint, up or down */
        support = (1.0 / ax->scale + 1.0) / 2;
    /* Nonzero weights need |i - x| < support (<= for the filter mode). */
    lo = any ? -clrs__ifloor(-(x - support)) : clrs__ifloor(x - support) + 1;
    hi = any ? clrs__ifloor(x + support) : -clrs__ifloor(-(x + support)) - 1;
    if (restrict_in && lo < 0)
        lo = 0;
    if (restrict_in && hi > ax->in - 1)
        hi = ax->in - 1;
    for (i = lo; i <= hi; ++i) {
        double u = ((double)i - x) / f;
        double w = area    ? coverage((double)i - x, 1.0 / ax->scale)
                   : any   ? filter_kernel(p, u)
                   : cubic ? cubic_kernel(p->cubic_a, u)
                           : linear_kernel(u);
        if (w != 0) {
            CLRS_TRY(push(tl, resolve(p, i, ax->in), w, (int)(i - lo)));
            sum += w;
        }
    }
    /* No pixel under the kernel (x far outside the input, possible with
     * pixel offsets): the nearest edge pixel, so a constant input still
     * gives that constant. */
    return normalise(tl, first, sum, x < 0, ax->in - 1);
}

/* Pixels first..last overlapped by the pooling interval [x, x + window);
 * never more than the box of ax->taps pixels the window index counts in. */
static clrs_status window_span(const clrs_axis_map *ax, double x,
                               int64_t *first, int64_t *last)
{
    *first = clrs__ifloor(x);
    *last = -clrs__ifloor(-(x + (double)ax->window)) - 1;
    CLRS_CHECK(*last - *first < (int64_t)ax->taps, CLRS_ERR_INVALID_VALUE,
               "axis %d: window at x = %g spans %lld pixels, more than its "
               "box of %d",
               ax->axis, x, (long long)(*last - *first + 1), ax->taps);
    return CLRS_SUCCESS;
}

/* Pooling interval [x, x + window) against pixels [i, i + 1); under
 * CLRS_DIVISOR_CLIPPED the interval ends at I + post padding. The
 * divisor is the window's length (include padding), the overlap inside
 * the input (exclude), or the override, divided on the first pooled axis
 * alone. */
static clrs_status taps_avg(const clrs_problem *p, const clrs_axis_map *ax,
                            const clrs_xval *xv, clrs_taplist *tl)
{
    double x = xv->x, x1 = x + (double)ax->window, div = 0;
    int64_t first, last, i;
    int exclude = p->mode == CLRS_MODE_AVG_EXCLUDE_PADDING;
    int clipped = p->divisor == CLRS_DIVISOR_CLIPPED && !exclude;
    size_t start = tl->n, k;

    if (ax->dilation > 1) { /* integer window: taps x + j d */
        int64_t j, n = (int64_t)ax->window, x0 = clrs__ifloor(x);
        for (j = 0; j < n; ++j) {
            int64_t at = x0 + j * ax->dilation;
            int inside = at >= 0 && at < ax->in;
            if ((exclude && !inside) || (clipped && (double)at >= ax->end))
                continue;
            CLRS_TRY(push(tl, resolve(p, at, ax->in), 1.0, (int)j));
            div += 1;
        }
        if (!exclude && !clipped)
            div = (double)n;
        if (p->divisor_override > 0)
            div = ax == &p->ax[0] ? p->divisor_override : 1;
        for (k = start; k < tl->n; ++k)
            tl->t[k].w /= div;
        return CLRS_SUCCESS;
    }
    if (clipped && x1 > ax->end)
        x1 = ax->end > x ? ax->end : x;

    CLRS_TRY(window_span(ax, x, &first, &last));
    for (i = first; i <= last; ++i) {
        double lo = (double)i > x ? (double)i : x;
        double hi = (double)(i + 1) < x1 ? (double)(i + 1) : x1;
        int inside = i >= 0 && i < ax->in;
        if (hi <= lo || (exclude && !inside))
            continue;
        CLRS_TRY(push(tl, resolve(p, i, ax->in), hi - lo, (int)(i - first)));
        div += hi - lo;
    }
    if (!exclude)
        div = clipped ? x1 - x : (double)ax->window;
    if (p->divisor_override > 0)
        div = ax == &p->ax[0] ? p->divisor_override : 1;
    for (k = start; k < tl->n; ++k)
        tl->t[k].w /= div;
    return CLRS_SUCCESS;
}

/* Adaptive average: pixels [floor(o I / O), ceil((o + 1) I / O)), equal
 * weights, in exact integer arithmetic. */
static clrs_status taps_adaptive(const clrs_problem *p,
                                 const clrs_axis_map *ax,
                                 const clrs_xval *xv, clrs_taplist *tl)
{
    int64_t a, b, lo, hi, i;
    (void)p;
    CLRS_CHECK(clrs__mul_ok(xv->o, ax->in, &a) &&
                   clrs__mul_ok(xv->o + 1, ax->in, &b),
               CLRS_ERR_OVERFLOW, "axis %d: adaptive window of output %lld "
               "overflows", ax->axis, (long long)xv->o);
    lo = clrs__floor_div(a, ax->out);
    hi = clrs__ceil_div(b, ax->out);
    for (i = lo; i < hi; ++i)
        CLRS_TRY(push(tl, i, 1.0 / (double)(hi - lo), (int)(i - lo)));
    return CLRS_SUCCESS;
}

/* Max pooling: every pixel with non-zero overlap, j its box position. */
static clrs_status taps_max(const clrs_problem *p, const clrs_axis_map *ax,
                            const clrs_xval *xv, clrs_taplist *tl)
{
    int64_t first, last, i;

    if (ax->dilation > 1) { /* integer window: taps x + j d */
        int64_t k, x0 = clrs__ifloor(xv->x);
        for (k = 0; k < (int64_t)ax->window; ++k)
            CLRS_TRY(push(tl, resolve(p, x0 + k * ax->dilation, ax->in), 1.0,
                          (int)k));
        return CLRS_SUCCESS;
    }
    CLRS_TRY(window_span(ax, xv->x, &first, &last));
    for (i = first; i <= last; ++i)
        CLRS_TRY(push(tl, resolve(p, i, ax->in), 1.0, (int)(i - first)));
    return CLRS_SUCCESS;
}

/* Indexed by clrs_mode: CLRS_MODE_MAP's taps_fn column. */
#define MODE_TAPS_(e, name, cli, kclass, pooling, pad, fn, ...)             \
    [CLRS_MODE_##e] = fn,
static const tap_fn mode_taps[CLRS_MODE_COUNT] = {CLRS_MODE_MAP(MODE_TAPS_)};
#undef MODE_TAPS_

void clrs__taplist_free(clrs_taplist *tl)
{
    free(tl->start);
    free(tl->t);
    free(tl->j);
    free(tl->extrap);
    memset(tl, 0, sizeof *tl);
}

/* The longest of n lists given by their starts (start[o] .. start[o + 1]). */
static int64_t starts_max(const int64_t *start, int64_t n)
{
    int64_t o, most = 0;
    for (o = 0; o < n; ++o)
        if (start[o + 1] - start[o] > most)
            most = start[o + 1] - start[o];
    return most;
}

int64_t clrs__taplist_max(const clrs_taplist *tl, int64_t n)
{
    return starts_max(tl->start, n);
}

int clrs__taplist_dyadic(const clrs_taplist *tl, int64_t n, int pad_ok,
                         int *unit)
{
    int64_t o, j;
    int k = 0;

    if (unit)
        *unit = 1;
    for (o = 0; o < n; ++o) {
        double sum = 0;
        if (tl->extrap && tl->extrap[o]) /* the extrapolation value */
            return -1;
        for (j = tl->start[o]; j < tl->start[o + 1]; ++j) {
            const double w = tl->t[j].w;
            if (!(w >= 0 && w <= 1) || (tl->t[j].idx < 0 && !pad_ok))
                return -1;
            while (k <= 8 && ldexp(w, k) != floor(ldexp(w, k)))
                ++k;
            if (k > 8)
                return -1;
            sum += w; /* exact: multiples of 2^-8 up to 8 */
        }
        if (sum > 1)
            return -1;
        if (unit && sum != 1)
            *unit = 0;
    }
    return k;
}

/* ---- OpenCV's 8-bit cv::resize (p->cv8, a pass: p->cv_pass) ---------- */

/* interpolateCubic (A = -0.75) of OpenCV 4.6's imgproc/src/resize.cpp, in
 * float, in its order. */
static void cv8_cubic(float x, float *c)
{
    const float A = -0.75f, x1 = x + 1.0f, y = 1.0f - x;
    c[0] = ((A * x1 - 5.0f * A) * x1 + 8.0f * A) * x1 - 4.0f * A;
    c[1] = ((A + 2.0f) * x - (A + 3.0f)) * x * x + 1.0f;
    c[2] = ((A + 2.0f) * y - (A + 3.0f)) * y * y + 1.0f;
    c[3] = 1.0f - c[0] - c[1] - c[2];
}

/* interpolateLanczos4: sin(pi y / 4) sin(pi y) / (pi y / 4)^2 at
 * y = x + 3 - i from one sine and cosine in double by the angle sum, each
 * coefficient rounded to float and the eight normalised in float; at
 * y = 0 (x = 0) the pixel alone. */
static void cv8_lanczos4(float x, float *c)
{
    static const double s45 = 0.70710678118654752440084436210485;
    static const double cs[8][2] = {{1, 0},      {-s45, -s45}, {0, 1},
                                    {s45, -s45}, {-1, 0},      {s45, s45},
                                    {0, -1},     {-s45, s45}};
    const double pi = 3.1415926535897932384626433832795;
    const double y0 = -(double)(x + 3.0f) * pi * 0.25;
    const double s0 = sin(y0), c0 = cos(y0);
    float sum = 0.0f;
    int i;

    for (i = 0; i < 8; ++i) {
        const float yi = x + 3.0f - (float)i;
        if (fabsf(yi) >= 1e-6f) {
            const double y = (double)-yi * pi * 0.25;
            c[i] = (float)((cs[i][0] * s0 + cs[i][1] * c0) / (y * y));
        } else {
            c[i] = 1e30f;
        }
        sum += c[i];
    }
    sum = 1.0f / sum;
    for (i = 0; i < 8; ++i)
        c[i] *= sum;
}

/* OpenCV's coefficient k of an output as the 16-bit integer its 8-bit
 * code weighs by: saturate_cast<short>(c * 2^11), nearest even. */
static double cv8_fixed(float c)
{
    const float v = nearbyintf(c * 2048.0f);
    return v < -32768.0f ? -32768.0 : v > 32767.0f ? 32767.0 : (double)v;
}

/* INTER_AREA reducing an axis (computeResizeAreaTab): the pixels under
 * output o's cell [o s, o s + s) of width s (OpenCV's scale), the parts
 * of the first and last pixel beyond 1e-3, each weight its share of the
 * cell (clipped at the input's end) rounded to float. */
static clrs_status taps_cv8_area(const clrs_axis_map *ax, int64_t o,
                                 clrs_taplist *tl)
{
    const double s = CLRS__CV_SCALE(ax->in, ax->out);
    const double fsx1 = (double)o * s, fsx2 = fsx1 + s;
    const double cell = s < (double)ax->in - fsx1 ? s : (double)ax->in - fsx1;
    int64_t sx1 = (int64_t)ceil(fsx1), sx2 = (int64_t)floor(fsx2), sx;

    sx2 = sx2 < ax->in - 1 ? sx2 : ax->in - 1;
    sx1 = sx1 < sx2 ? sx1 : sx2;
    if ((double)sx1 - fsx1 > 1e-3)
        CLRS_TRY(
            push(tl, sx1 - 1, (double)(float)(((double)sx1 - fsx1) / cell), 0));
    for (sx = sx1; sx < sx2; ++sx)
        CLRS_TRY(push(tl, sx, (double)(float)(1.0 / cell), (int)(sx - sx1)));
    if (fsx2 - (double)sx2 > 1e-3) {
        double part = fsx2 - (double)sx2 < 1.0 ? fsx2 - (double)sx2 : 1.0;
        part = part < cell ? part : cell;
        CLRS_TRY(push(tl, sx2, (double)(float)(part / cell), 0));
    }
    return CLRS_SUCCESS;
}

/* INTER_AREA by whole factors (resizeAreaFast): the k = I / O pixels of
 * output o, weighing 1 on the first spatial axis and 1 / area (a float)
 * on the last, so each product is that float exactly. */
static clrs_status taps_cv8_area_fast(const clrs_problem *p,
                                      const clrs_axis_map *ax, int64_t o,
                                      clrs_taplist *tl)
{
    const int64_t k = ax->in / ax->out;
    const int64_t area =
        (p->ax[0].in / p->ax[0].out) * (p->ax[1].in / p->ax[1].out);
    const double w = ax == &p->ax[1] ? (double)(1.0f / (float)area) : 1.0;
    int64_t j;

    for (j = 0; j < k; ++j)
        CLRS_TRY(push(tl, o * k + j, w, (int)j));
    return CLRS_SUCCESS;
}

/* An output's taps under cv::resize's 8-bit code (OpenCV 4.6,
 * resizeGeneric_): x in float (clrs__coord), sx its floor and f the
 * fraction; K = 2, 4 or 8 coefficients (1 - f and f, interpolateCubic,
 * interpolateLanczos4) at pixels sx - K/2 + 1 + k clamped into the
 * input. Linear's horizontal pass (cv_pass 1) takes the edge pixel with
 * f = 0 left of pixel 0 and from pixel I - 1 on; its vertical pass keeps
 * f and clamps the rows alone, as OpenCV does. The horizontal pass
 * weighs by the integer coefficients (sums exact in s32), linear's
 * vertical pass too (its kernel step shifts as OpenCV's rows do), the
 * others' vertical passes by them times 2^-22 (OpenCV's fixed-point
 * cast, rounded half up by the store), cubic's in reverse order (its
 * vector code sums the last row first, in float). INTER_AREA takes its
 * tables above, or where an axis grows linear's taps at its area_mode
 * coordinates: sx = floor(o s), f = (o + 1) - (sx + 1) / s, 0 unless
 * positive, else its fraction. */
static clrs_status taps_cv8(const clrs_problem *p, const clrs_axis_map *ax,
                            const clrs_xval *xv, clrs_taplist *tl)
{
    const int K = CLRS__CV8_LIN(p) ? 2 : p->cv8 == CLRS_CV8_CUBIC ? 4 : 8;
    const int reverse = p->cv8 == CLRS_CV8_CUBIC && p->cv_pass == 2;
    const double scale =
        p->cv_pass == 2 && !CLRS__CV8_LIN(p) ? 1.0 / 4194304.0 : 1.0;
    float f = (float)xv->fr, c[8];
    int64_t sx = xv->fl;
    int i;

    if (p->cv8 == CLRS_CV8_AREA)
        return taps_cv8_area(ax, xv->o, tl);
    if (p->cv8 == CLRS_CV8_AREA_FAST)
        return taps_cv8_area_fast(p, ax, xv->o, tl);
    if (p->cv8 == CLRS_CV8_AREA_LIN) { /* its area_mode coordinates */
        const double inv = (double)ax->out / (double)ax->in, s = 1.0 / inv;
        sx = (int64_t)floor((double)xv->o * s);
        f = (float)((double)(xv->o + 1) - (double)(sx + 1) * inv);
        f = f <= 0.0f ? 0.0f : f - floorf(f);
    }
    if (CLRS__CV8_LIN(p)) {
        if (p->cv_pass == 1 && sx < 0) {
            sx = 0;
            f = 0.0f;
        }
        if (p->cv_pass == 1 && sx >= ax->in - 1) {
            sx = ax->in - 1;
            f = 0.0f;
        }
        c[0] = 1.0f - f;
        c[1] = f;
    } else if (p->cv8 == CLRS_CV8_CUBIC) {
        cv8_cubic(f, c);
    } else {
        cv8_lanczos4(f, c);
    }
    for (i = 0; i < K; ++i) {
        const int k = reverse ? K - 1 - i : i;
        int64_t at = sx - K / 2 + 1 + k;
        at = at < 0 ? 0 : at > ax->in - 1 ? ax->in - 1 : at;
        CLRS_TRY(push(tl, at, cv8_fixed(c[k]) * scale, k));
    }
    return CLRS_SUCCESS;
}

/* Whether output xv->o samples nothing: tf_crop_and_resize's x outside
 * [0, I - 1]; scale_and_translate's x + 1/2 outside [0, I], TensorFlow's
 * own float sample under its arithmetic (tf). */
static int samples_outside(const clrs_axis_map *ax, const clrs_xval *xv, int tf)
{
    float s;
    if (ax->crop != 2)
        return ax->crop && (xv->fl < 0 || beyond(xv, ax->in));
    if (!tf)
        return xv->x + 0.5 < 0 || xv->x + 0.5 > (double)ax->in;
    s = tf_sample(ax, xv->o);
    return s < 0.0f || s > (float)ax->in;
}

/* Taps of a resampled axis for the outputs o0 .. o0 + n - 1, into
 * positions at .. at + n - 1 of tl. */
static clrs_status build_resampled(const clrs_problem *p,
                                   const clrs_axis_map *ax, int64_t o0,
                                   int64_t n, int64_t at, clrs_taplist *tl)
{
    tap_fn fn = mode_taps[p->mode];
    /* Pillow's nearest: its centre, added up output by output. */
    const int pillow =
        p->mode == CLRS_MODE_NEAREST && p->arith == CLRS_ARITH_PILLOW;
    const double step = (double)ax->in / (double)ax->out;
    /* TensorFlow's filters: its float sample decides what lies outside */
    const int tf = p->mode == CLRS_MODE_FILTER &&
                   p->arith == CLRS_ARITH_TENSORFLOW &&
                   p->filter != CLRS_FILTER_AREA;
    double centre = step * 0.5;
    int64_t o;

    /* Pillow's centre is a running sum: a range starts at 0 only. */
    CLRS_CHECK(!pillow || o0 == 0, CLRS_ERR_INVALID_VALUE,
               "taps: Pillow's nearest from output %" PRId64, o0);
    if (clrs__mode_antialiased((int)p->mode, p->antialias))
        fn = taps_filter;
    if (p->cv_pass || p->cv8 == CLRS_CV8_AREA_FAST)
        fn = taps_cv8;
    for (o = o0; o < o0 + n; ++o) {
        clrs_xval xv;
        clrs__coord(ax, o, &xv);
        if (pillow) { /* centre - 0.5 is exact, its floor + 0.5 centre's */
            clrs__xval_of(centre - 0.5, &xv);
            centre += step;
        }
        xv.o = o;
        tl->start[at + o - o0] = (int64_t)tl->n;
        if (samples_outside(ax, &xv, tf)) {
            tl->extrap[at + o - o0] =
                1; /* no taps: no value read, no gradient */
            continue;
        }
        CLRS_TRY(fn(p, ax, &xv, tl));
    }
    tl->start[at + n] = (int64_t)tl->n;
    return CLRS_SUCCESS;
}

/* The taps one output of a resampled axis takes, about (the count of the
 * fixed-count modes and of pooling windows exactly, a filter's support
 * plus its edges): the list's first reservation. */
static double taps_per_output(const clrs_problem *p, const clrs_axis_map *ax)
{
    const int count = clrs__calc_count(p);
    if (ax->taps > 0)
        return ax->taps;
    if (count > 0)
        return count;
    return 2.0 * clrs__kernel_radius(p) *
               (ax->aa_scale > 1 ? ax->aa_scale : 1) +
           3.0;
}

/* The list's taps reserved at once (no copies as it grows), with their
 * window positions where codes says, and its unused end given back when
 * it is built. */
static clrs_status build_taps(const clrs_problem *p, int a, int codes,
                              clrs_taplist *tl)
{
    const int64_t n = p->out.dims[a];
    const double want = p->slot[a] >= 0
                            ? (double)n * taps_per_output(p, &p->ax[p->slot[a]])
                            : (double)n;
    int64_t o;

    CLRS_TRY(reserve(tl,
                     want >= 64 && want < (double)(((size_t)-1) / sizeof *tl->t)
                         ? (size_t)want
                         : 64,
                     codes));
    if (p->slot[a] >= 0) {
        CLRS_TRY(build_resampled(p, &p->ax[p->slot[a]], 0,
                                 p->ax[p->slot[a]].out, 0, tl));
    } else {
        for (o = 0; o < n; ++o) {
            tl->start[o] = o;
            CLRS_TRY(push(tl, o, 1.0, 0));
        }
        tl->start[n] = n;
    }
    if (tl->cap > tl->n && tl->n >= 64)
        CLRS_TRY(reserve(tl, tl->n, tl->j != NULL));
    return CLRS_SUCCESS;
}

clrs_status clrs__axis_taps(const clrs_problem *p, int a, clrs_taplist *tl)
{
    int64_t n = p->out.dims[a];
    size_t bytes = (size_t)(n + 1) * sizeof *tl->start;
    memset(tl, 0, sizeof *tl);
    CLRS_CHECK((uint64_t)n < ((size_t)-1) / sizeof *tl->start / 2,
               CLRS_ERR_OUT_OF_MEMORY, "taps: axis %d too long", a);
    tl->start = malloc(bytes);
    tl->extrap = calloc((size_t)n + 1, 1);
    CLRS_CHECK(tl->start != NULL && tl->extrap != NULL, CLRS_ERR_OUT_OF_MEMORY,
               "taps: out of memory for the taps of axis %d", a);
    /* Window positions: max pooling's index codes alone read them. */
    return build_taps(p, a, p->mode == CLRS_MODE_MAX, tl);
}

clrs_status clrs__axis_taps_ranges(const clrs_problem *p, int k,
                                   const int64_t *from, int nr, int64_t n,
                                   clrs_taplist *tl)
{
    const clrs_axis_map *ax = &p->ax[k];
    clrs_status st = CLRS_SUCCESS;
    int r;

    memset(tl, 0, sizeof *tl);
    for (r = 0; r < nr; ++r)
        CLRS_CHECK(from[r] >= 0 && n >= 0 && from[r] + n <= ax->out &&
                       (uint64_t)n * (uint64_t)nr <
                           ((size_t)-1) / sizeof *tl->start / 2,
                   CLRS_ERR_INVALID_VALUE,
                   "taps: no outputs %" PRId64 "..%" PRId64 " on slot %d",
                   from[r], from[r] + n, k);
    tl->start = malloc((size_t)(n * nr + 1) * sizeof *tl->start);
    tl->extrap = calloc((size_t)(n * nr) + 1, 1);
    if (!tl->start || !tl->extrap) {
        clrs__taplist_free(tl);
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "taps: out of memory for %" PRId64 " outputs",
                           n * nr);
    }
    st = reserve(tl, (size_t)((double)(n * nr) * taps_per_output(p, ax)) + 64,
                 p->mode == CLRS_MODE_MAX);
    for (r = 0; r < nr && st >= 0; ++r)
        st = build_resampled(p, ax, from[r], n, r * n, tl);
    if (st < 0)
        clrs__taplist_free(tl);
    return st;
}

/* The transpose of an axis's tap lists (backward gathers, dx = A^T dy): for
 * every input index i, the outputs whose taps read i, o increasing and,
 * within one o, in tap order. Padding taps (idx -1) read no pixel and
 * send no gradient, so they are left out; clamped taps already name the
 * pixel they were clamped to. With merge, taps of one output naming the
 * same pixel (clamping duplicates) become one entry with the summed
 * weight and the first tap's box position. */
clrs_status clrs__taplist_transpose(const clrs_taplist *tl, int64_t nout,
                                    int64_t nin, int merge,
                                    clrs_ttaplist *tt)
{
    int64_t o, i, *fill = NULL;
    size_t k, m;

    memset(tt, 0, sizeof *tt);
    CLRS_CHECK((uint64_t)nin < ((size_t)-1) / sizeof *tt->start / 2,
               CLRS_ERR_OUT_OF_MEMORY, "taps: input axis too long");
    tt->start = calloc((size_t)nin + 1, sizeof *tt->start);
    fill = calloc((size_t)nin + 1, sizeof *fill);
    tt->t = malloc((tl->n ? tl->n : 1) * sizeof *tt->t);
    if (tl->j)
        tt->j = malloc((tl->n ? tl->n : 1) * sizeof *tt->j);
    if (!tt->start || !fill || !tt->t || (tl->j && !tt->j)) {
        free(fill);
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "taps: out of memory transposing %zu taps",
                           tl->n);
    }
    for (k = 0; k < tl->n; ++k)
        if (tl->t[k].idx >= 0)
            tt->start[tl->t[k].idx + 1]++;
    for (i = 0; i < nin; ++i)
        tt->start[i + 1] += tt->start[i];
    for (i = 0; i < nin; ++i)
        fill[i] = tt->start[i];
    /* Outputs in increasing order, so each input's list is sorted by o. */
    for (o = 0; o < nout; ++o)
        for (k = (size_t)tl->start[o]; k < (size_t)tl->start[o + 1]; ++k) {
            const clrs_tap *tp = &tl->t[k];
            size_t e;
            if (tp->idx < 0)
                continue;
            e = (size_t)fill[tp->idx]++;
            tt->t[e].o = o;
            tt->t[e].w = tp->w;
            if (tt->j)
                tt->j[e] = tl->j[k];
        }
    free(fill);
    tt->n = (size_t)tt->start[nin];
    if (!merge)
        return CLRS_SUCCESS;
    /* Compact in place: entries only move towards the front. */
    m = 0;
    for (i = 0; i < nin; ++i) {
        size_t b = (size_t)tt->start[i], e = (size_t)tt->start[i + 1];
        size_t first = m;
        tt->start[i] = (int64_t)first;
        for (k = b; k < e; ++k) {
            if (m > first && tt->t[m - 1].o == tt->t[k].o) {
                tt->t[m - 1].w += tt->t[k].w;
                continue;
            }
            if (tt->j)
                tt->j[m] = tt->j[k];
            tt->t[m++] = tt->t[k];
        }
    }
    tt->start[nin] = (int64_t)m;
    tt->n = m;
    return CLRS_SUCCESS;
}

void clrs__ttaplist_free(clrs_ttaplist *tt)
{
    free(tt->start);
    free(tt->t);
    free(tt->j);
    memset(tt, 0, sizeof *tt);
}

clrs_status clrs__slot_taps(const clrs_problem *p, clrs_slot_taps *st)
{
    /* Window codes tell duplicate taps of one output apart; everywhere
     * else one entry per (input, output) pair, or a plane index match
     * would count an output twice. */
    int window = p->has_index && !CLRS__INDEX_IS_PLANE(p->index_format);
    int k;

    memset(st, 0, sizeof *st);
    for (k = 0; k < p->naxes; ++k) {
        const clrs_axis_map *ax = &p->ax[k];
        st->n = k + 1;
        if (p->calc & (1u << k))
            continue; /* the kernel computes them */
        CLRS_TRY(clrs__axis_taps(p, ax->axis, &st->tl[k]));
        if (p->backward)
            CLRS_TRY(clrs__taplist_transpose(&st->tl[k], ax->out, ax->in,
                                             !window, &st->tt[k]));
    }
    return CLRS_SUCCESS;
}

void clrs__slot_taps_free(clrs_slot_taps *st)
{
    int k;
    for (k = 0; k < st->n; ++k) {
        clrs__taplist_free(&st->tl[k]);
        clrs__ttaplist_free(&st->tt[k]);
    }
    st->n = 0;
}

void clrs__lists_of(const clrs_problem *p, const clrs_slot_taps *st, int k,
                    int transposed, clrs_lists *l)
{
    const clrs_axis_map *ax = &p->ax[k];
    memset(l, 0, sizeof *l);
    if (transposed) {
        l->start = st->tt[k].start;
        l->bwd = st->tt[k].t;
        l->j = st->tt[k].j;
        l->npos = ax->in;
        l->nread = ax->out;
        l->n = st->tt[k].n;
    } else {
        l->start = st->tl[k].start;
        l->fwd = st->tl[k].t;
        l->j = st->tl[k].j;
        l->npos = ax->out;
        l->nread = ax->in;
        l->n = st->tl[k].n;
    }
}

int64_t clrs__lists_max(const clrs_lists *l)
{
    return starts_max(l->start, l->npos);
}

int clrs__calc_count(const clrs_problem *p)
{
    if (clrs__mode_antialiased((int)p->mode, p->antialias))
        return 0; /* the filter's width, pixel by pixel */
    return p->mode == CLRS_MODE_NEAREST  ? 1
           : p->mode == CLRS_MODE_LINEAR ? 2
           : p->mode == CLRS_MODE_CUBIC  ? 4
                                         : 0;
}

int clrs__calc_slot_ok(const clrs_problem *p, int k)
{
    const clrs_axis_map *ax = &p->ax[k];
    const int aa = clrs__mode_antialiased((int)p->mode, p->antialias);
    /* Every index the kernel forms (x and the filter's reach around it,
     * x monotonic in o) well within 32 bits. */
    const double reach = (aa ? 2.0 * ax->aa_scale : 2.0) + 16.0;
    clrs_xval lo, hi;

    if (p->backward || ax->out < 1 || ax->arith != CLRS_ARITH_FLOAT ||
        p->aa_rule == CLRS_AA_PILLOW || ax->crop || p->has_index ||
        p->in.block_axis == ax->axis || p->out.block_axis == ax->axis ||
        (p->mode != CLRS_MODE_NEAREST && p->mode != CLRS_MODE_LINEAR &&
         p->mode != CLRS_MODE_CUBIC) ||
        (p->mode == CLRS_MODE_CUBIC && p->exclude_outside && !aa))
        return 0;
    clrs__coord(ax, 0, &lo);
    clrs__coord(ax, ax->out - 1, &hi);
    return fabs(lo.x) + reach < 1073741824.0 &&
           fabs(hi.x) + reach < 1073741824.0 &&
           (double)ax->in + reach < 1073741824.0;
}
