/* Vendor semantics through the public API and the CPU reference:
 *  - worked cases where the vendors disagree, each under its preset;
 *  - the ONNX Resize reference algorithm (1-D, linear, cubic, antialias,
 *    exclude_outside) and PyTorch's antialias weights, re-implemented
 *    here from the vendors' formulas, against the library over sweeps of
 *    sizes and coordinate modes;
 *  - nearest rounding under exact arithmetic against integer arithmetic;
 *  - the backward pass of each new option as the adjoint of its forward;
 *  - the keep-aspect size helper.
 * The device runs the same options through tests/inputs/test_vendor_ci. */
#include "clresample.h"
#include "tap.h"
#include "tap_set.h"

#include <stdint.h>
#include <string.h>

#define N_(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MAXN 64
#define POISON 12345.0

enum { NN = 0, LIN = 1, CUB = 2 };

static clrs_tensor_desc *mk1(int64_t n)
{
    clrs_tensor_desc *d = NULL;
    if (clrs_tensor_desc_create(&d, CLRS_F64, 1, &n, NULL) != CLRS_SUCCESS)
        tap_diag("tensor_desc_create: %s", clrs_last_error());
    return d;
}

static clrs_resample_desc *mkop(int mode, int vendor, clrs_coord coord)
{
    clrs_resample_desc *op = NULL;
    static const clrs_mode modes[] = {CLRS_MODE_NEAREST, CLRS_MODE_LINEAR,
                                      CLRS_MODE_CUBIC};
    SET(clrs_resample_desc_create(&op, modes[mode]));
    if (!op)
        return NULL;
    if (vendor >= 0)
        SET(clrs_resample_desc_set_vendor(op, (clrs_vendor)vendor));
    if (coord != CLRS_COORD_DEFAULT)
        SET(clrs_resample_desc_set_coord(op, coord));
    return op;
}

/* 1-D n -> m on the reference: forward (out = dst of m values from in =
 * src) or backward (out = diff_src of n values from in = diff_dst), the
 * output poisoned first. */
static int ref1(const clrs_resample_desc *op, int backward, int n, int m,
                const double *in, double *out)
{
    clrs_tensor_desc *s = mk1(n), *d = mk1(m);
    clrs_host_args a;
    clrs_status st = CLRS_ERR_NULL_POINTER;
    int i;
    for (i = 0; i < (backward ? n : m); ++i)
        out[i] = POISON;
    memset(&a, 0, sizeof a);
    if (backward) {
        a.diff_dst = in;
        a.diff_src = out;
        if (s && d)
            st = clrs_reference_backward(op, s, d, NULL, NULL, &a);
    } else {
        a.src = in;
        a.dst = out;
        if (s && d)
            st = clrs_reference_forward(op, s, d, NULL, &a);
    }
    if (st != CLRS_SUCCESS)
        tap_diag("%s: %s: %s", backward ? "backward" : "forward",
                 clrs_status_name(st), clrs_last_error());
    clrs_tensor_desc_destroy(s);
    clrs_tensor_desc_destroy(d);
    return st == CLRS_SUCCESS;
}

static int fwd1(const clrs_resample_desc *op, int n, const double *src, int m,
                double *dst)
{
    return ref1(op, 0, n, m, src, dst);
}

static int close_to(double got, double want, double tol)
{
    return fabs(got - want) <= tol * (fabs(want) > 1 ? fabs(want) : 1);
}

/* Runs op on src (n -> m) and compares with want; destroys op. */
static void worked(const char *what, clrs_resample_desc *op, int n,
                   const double *src, int m, const double *want, double tol)
{
    double dst[MAXN];
    int i, ok = setup_ok && op && fwd1(op, n, src, m, dst);
    for (i = 0; ok && i < m; ++i)
        if (!close_to(dst[i], want[i], tol)) {
            tap_diag("%s: y[%d] = %.9g, want %.9g", what, i, dst[i], want[i]);
            ok = 0;
        }
    tap_ok(ok, "%s", what);
    clrs_resample_desc_destroy(op);
    setup_ok = 1;
}

static void ramp(double *x, int n, double step, double base)
{
    int i;
    for (i = 0; i < n; ++i)
        x[i] = base + step * i;
}

/* ---- worked cases ---------------------------------------------------- */

static void worked_antialias(void)
{
    double x[8], w[3];
    clrs_resample_desc *op;
    ramp(x, 8, 1, 0);

    /* pytorch_half_pixel, one output: x = 0, filter stretched by 8 over
     * 0..7, renormalised: sum i (1 - i/8) / sum (1 - i/8) = 10.5 / 4.5 */
    w[0] = 10.5 / 4.5;
    op = mkop(LIN, -1, CLRS_COORD_PYTORCH_HALF_PIXEL);
    SET(clrs_resample_desc_set_antialias(op, 1));
    worked("antialias pytorch_half_pixel 8 -> 1 (renormalised): 7/3", op, 8,
           x, 1, w, 1e-6);
    op = mkop(LIN, CLRS_VENDOR_ONNX, CLRS_COORD_PYTORCH_HALF_PIXEL);
    SET(clrs_resample_desc_set_antialias(op, 1));
    SET(clrs_resample_desc_set_exclude_outside(op, 1));
    worked("ONNX antialias pytorch_half_pixel 8 -> 1, exclude_outside=1", op,
           8, x, 1, w, 1e-6);
    /* exclude_outside=0: taps -7..7 with weights 1 - |i|/8 (sum 8), the
     * negative ones reading x[0] = 0: 10.5 / 8 */
    w[0] = 10.5 / 8;
    op = mkop(LIN, CLRS_VENDOR_ONNX, CLRS_COORD_PYTORCH_HALF_PIXEL);
    SET(clrs_resample_desc_set_antialias(op, 1));
    worked("ONNX antialias pytorch_half_pixel 8 -> 1, exclude_outside=0", op,
           8, x, 1, w, 1e-6);

    /* [0,1,2,3] 4 -> 2 half_pixel: ONNX [0.625, 2.375]; PyTorch
     * renormalises: [5/7, 16/7] */
    w[0] = 0.625;
    w[1] = 2.375;
    op = mkop(LIN, CLRS_VENDOR_ONNX, CLRS_COORD_DEFAULT);
    SET(clrs_resample_desc_set_antialias(op, 1));
    worked("ONNX antialias 4 -> 2: [0.625, 2.375]", op, 4, x, 2, w, 1e-6);
    w[0] = 5.0 / 7;
    w[1] = 16.0 / 7;
    op = mkop(LIN, CLRS_VENDOR_PYTORCH, CLRS_COORD_DEFAULT);
    SET(clrs_resample_desc_set_antialias(op, 1));
    worked("PyTorch antialias 4 -> 2: [5/7, 16/7]", op, 4, x, 2, w, 1e-6);

    /* 0..4 -> 3 align_corners: PyTorch [5/7, 2.5, 3.75]; ONNX
     * (f = 5/3, x = 0, 2, 4) renormalised [2/7, 2, 26/7], with edge taps
     * [2/9, 2, 34/9] */
    w[0] = 5.0 / 7;
    w[1] = 2.5;
    w[2] = 3.75;
    op = mkop(LIN, CLRS_VENDOR_PYTORCH, CLRS_COORD_ALIGN_CORNERS);
    SET(clrs_resample_desc_set_antialias(op, 1));
    worked("PyTorch antialias align_corners 5 -> 3: [5/7, 2.5, 3.75]", op, 5,
           x, 3, w, 1e-6);
    w[0] = 2.0 / 7;
    w[1] = 2;
    w[2] = 26.0 / 7;
    op = mkop(LIN, CLRS_VENDOR_ONNX, CLRS_COORD_ALIGN_CORNERS);
    SET(clrs_resample_desc_set_antialias(op, 1));
    SET(clrs_resample_desc_set_exclude_outside(op, 1));
    worked("ONNX antialias align_corners 5 -> 3, exclude_outside=1", op, 5, x,
           3, w, 1e-6);
    w[0] = 2.0 / 9;
    w[2] = 34.0 / 9;
    op = mkop(LIN, CLRS_VENDOR_ONNX, CLRS_COORD_ALIGN_CORNERS);
    SET(clrs_resample_desc_set_antialias(op, 1));
    worked("ONNX antialias align_corners 5 -> 3, exclude_outside=0", op, 5, x,
           3, w, 1e-6);
}

/* One output of a nearest case, checked exactly. */
static void worked_nearest_at(const char *what, clrs_resample_desc *op, int n,
                              const double *x, int m, int at, double want)
{
    double dst[MAXN];
    int ok = setup_ok && op && fwd1(op, n, x, m, dst);
    if (ok && dst[at] != want)
        tap_diag("%s: y[%d] = %g, want %g", what, at, dst[at], want);
    tap_ok(ok && dst[at] == want, "%s", what);
    clrs_resample_desc_destroy(op);
    setup_ok = 1;
}

/* The same on f32 tensors: the float order's steps are float's only
 * there (f64 tensors evaluate them in double, as PyTorch does). */
static void worked_nearest_f32(const char *what, clrs_resample_desc *op,
                               int n, const double *x, int m, int at,
                               double want)
{
    float xs[MAXN], dst[MAXN];
    int64_t nn = n, mm = m;
    clrs_tensor_desc *s = NULL, *d = NULL;
    clrs_host_args a;
    int i, ok;
    for (i = 0; i < n; ++i)
        xs[i] = (float)x[i];
    for (i = 0; i < m; ++i)
        dst[i] = (float)POISON;
    memset(&a, 0, sizeof a);
    a.src = xs;
    a.dst = dst;
    ok = setup_ok && op &&
         clrs_tensor_desc_create(&s, CLRS_F32, 1, &nn, NULL) == 0 &&
         clrs_tensor_desc_create(&d, CLRS_F32, 1, &mm, NULL) == 0 &&
         clrs_reference_forward(op, s, d, NULL, &a) == CLRS_SUCCESS;
    if (ok && dst[at] != want)
        tap_diag("%s: y[%d] = %g, want %g", what, at, dst[at], want);
    tap_ok(ok && dst[at] == want, "%s", what);
    clrs_tensor_desc_destroy(s);
    clrs_tensor_desc_destroy(d);
    clrs_resample_desc_destroy(op);
    setup_ok = 1;
}

static void worked_ties(void)
{
    double t[4] = {10, 20, 30, 40}, x[16];
    clrs_resample_desc *op;
    ramp(x, 16, 1, 0);

    /* 4 -> 14 half_pixel, o = 10: x = 10.5 * 4/14 - 0.5 = 2.5 exactly */
    op = mkop(NN, CLRS_VENDOR_ONNX, CLRS_COORD_DEFAULT);
    worked_nearest_at("ONNX round_prefer_floor 4 -> 14: y[10] = 30 (x = 2.5)",
                      op, 4, t, 14, 10, 30);
    op = mkop(NN, -1, CLRS_COORD_DEFAULT);
    worked_nearest_f32("float order round_prefer_floor 4 -> 14, f32: y[10] "
                       "= 40 (x = 2.5000002)",
                       op, 4, t, 14, 10, 40);
    op = mkop(NN, -1, CLRS_COORD_DEFAULT);
    worked_nearest_at("float order round_prefer_floor 4 -> 14, f64 (in "
                      "double): y[10] = 30 (x = 2.5)",
                      op, 4, t, 14, 10, 30);
    /* 13 -> 11 floor, o = 5: x = 5.5 * 13/11 - 0.5 = 6 exactly */
    op = mkop(NN, CLRS_VENDOR_ONNX, CLRS_COORD_DEFAULT);
    SET(clrs_resample_desc_set_rounding(op, CLRS_ROUND_FLOOR));
    worked_nearest_at("ONNX floor 13 -> 11: y[5] = 6", op, 13, x, 11, 5, 6);
    /* 8 -> 24 align_corners floor, o = 23: x = 23 * 7/23 = 7 exactly */
    op = mkop(NN, CLRS_VENDOR_ONNX, CLRS_COORD_ALIGN_CORNERS);
    SET(clrs_resample_desc_set_rounding(op, CLRS_ROUND_FLOOR));
    worked_nearest_at("ONNX align_corners floor 8 -> 24: y[23] = 7", op, 8,
                      x, 24, 23, 7);
    /* 14 -> 23 half_pixel, o = 11: oneDNN's (11.5 * 14) / 23 - 0.5 = 6.5
     * rounds half up to 7; PyTorch's float order gives 6.4999995 */
    op = mkop(NN, CLRS_VENDOR_ONEDNN, CLRS_COORD_DEFAULT);
    worked_nearest_at("oneDNN 14 -> 23: y[11] = 7", op, 14, x, 23, 11, 7);
    op = mkop(NN, -1, CLRS_COORD_DEFAULT);
    SET(clrs_resample_desc_set_rounding(op, CLRS_ROUND_PREFER_CEIL));
    worked_nearest_f32("float order round_prefer_ceil 14 -> 23, f32: y[11] "
                       "= 6",
                       op, 14, x, 23, 11, 6);
    op = mkop(NN, -1, CLRS_COORD_DEFAULT);
    SET(clrs_resample_desc_set_rounding(op, CLRS_ROUND_PREFER_CEIL));
    worked_nearest_at("float order round_prefer_ceil 14 -> 23, f64 (in "
                      "double): y[11] = 7 (x = 6.5)",
                      op, 14, x, 23, 11, 7);
    /* PyTorch's F.interpolate 'nearest': asymmetric floor, i = floor(o I/O) */
    op = mkop(NN, CLRS_VENDOR_PYTORCH, CLRS_COORD_DEFAULT);
    worked_nearest_at("PyTorch nearest 4 -> 7: y[2] = 20 (floor(8/7))", op, 4,
                      t, 7, 2, 20);
}

/* ---- the ONNX reference algorithm, 1-D --------------------------------- */

static double k_cubic(double A, double u)
{
    u = fabs(u);
    if (u <= 1)
        return ((A + 2) * u - (A + 3)) * u * u + 1;
    if (u < 2)
        return ((A * u - 5 * A) * u + 8 * A) * u - 4 * A;
    return 0;
}

/* ONNX's x_original for output o (sizes given: scale = O / I). */
static double onnx_x(clrs_coord cm, int I, int O, int o)
{
    double s = (double)O / I;
    switch (cm) {
    case CLRS_COORD_ALIGN_CORNERS:
        return O == 1 ? 0 : (double)o * (I - 1) / (O - 1);
    case CLRS_COORD_ASYMMETRIC:
        return o / s;
    case CLRS_COORD_PYTORCH_HALF_PIXEL:
        return O == 1 ? 0 : (o + 0.5) / s - 0.5;
    default:
        return (o + 0.5) / s - 0.5;
    }
}

/* Coefficients over the footprint starting at offset `start` from
 * floor(x) (ratio = x - floor(x), 1 at integers, as ONNX prefers the left
 * pixel), normalised to sum 1 under antialias. */
static int onnx_coeffs(int mode, int aa, double A, double ratio, double s,
                       double *c, int *start)
{
    int n, i;
    double sum = 0;
    if (!aa) {
        if (mode == LIN) {
            c[0] = 1 - ratio;
            c[1] = ratio;
            *start = 0;
            return 2;
        }
        for (i = 0; i < 4; ++i)
            c[i] = k_cubic(A, (i - 1) - ratio);
        *start = -1;
        return 4;
    }
    s = s < 1 ? s : 1;
    *start = (int)floor((mode == LIN ? -1 : -2) / s) + 1;
    n = (mode == LIN ? 2 : 4) - 2 * *start;
    for (i = 0; i < n; ++i) {
        double u = (*start + i - ratio) * s;
        c[i] = mode == LIN ? (fabs(u) < 1 ? 1 - fabs(u) : 0) : k_cubic(A, u);
        sum += c[i];
    }
    for (i = 0; i < n; ++i)
        c[i] /= sum;
    return n;
}

static double onnx_1d(const double *v, int I, int O, int o, clrs_coord cm,
                      int mode, int aa, int excl, double A)
{
    double x = onnx_x(cm, I, O, o), fl = floor(x), c[MAXN], r = 0, sum = 0;
    double ratio = x == fl ? 1 : x - fl;
    int start, n = onnx_coeffs(mode, aa, A, ratio, (double)O / I, c, &start);
    int i, base = (int)fl - (x == fl ? 1 : 0);
    for (i = 0; i < n; ++i) {
        int idx = base + start + i;
        if (excl && (idx < 0 || idx >= I))
            c[i] = 0;
        sum += c[i];
    }
    for (i = 0; i < n; ++i) {
        int idx = base + start + i;
        idx = idx < 0 ? 0 : idx >= I ? I - 1 : idx;
        r += (excl ? c[i] / sum : c[i]) * v[idx];
    }
    return r;
}

static void sweep_onnx(void)
{
    static const clrs_coord coords[] = {
        CLRS_COORD_HALF_PIXEL, CLRS_COORD_ALIGN_CORNERS,
        CLRS_COORD_ASYMMETRIC, CLRS_COORD_PYTORCH_HALF_PIXEL};
    double src[MAXN], dst[MAXN];
    int mode, aa, excl, c, I, O, o, cases = 0, bad = 0;
    ramp(src, MAXN, 0.37, -1.5);
    for (I = 1; I < MAXN; I += 1)
        src[I] += (I % 3) * 0.8; /* not linear: interpolation shows */
    for (mode = LIN; mode <= CUB; ++mode)
        for (aa = 0; aa < 2; ++aa)
            for (excl = 0; excl < 2; ++excl)
                for (c = 0; c < N_(coords); ++c)
                    for (I = 1; I <= 13; ++I)
                        for (O = 1; O <= 13; ++O) {
                            clrs_resample_desc *op =
                                mkop(mode, CLRS_VENDOR_ONNX, coords[c]);
                            if (aa)
                                SET(clrs_resample_desc_set_antialias(op, 1));
                            if (excl && (aa || mode == CUB))
                                SET(clrs_resample_desc_set_exclude_outside(
                                    op, 1));
                            ++cases;
                            if (!setup_ok || !fwd1(op, I, src, O, dst)) {
                                ++bad;
                                setup_ok = 1;
                            } else
                                for (o = 0; o < O; ++o) {
                                    double w = onnx_1d(
                                        src, I, O, o, coords[c], mode, aa,
                                        excl && (aa || mode == CUB), -0.75);
                                    if (close_to(dst[o], w, 1e-9))
                                        continue;
                                    if (bad++ < 8)
                                        tap_diag("mode %d aa %d excl %d coord "
                                                 "%d %d -> %d: y[%d] = %.12g, "
                                                 "ONNX %.12g",
                                                 mode, aa, excl, (int)coords[c],
                                                 I, O, o, dst[o], w);
                                }
                            clrs_resample_desc_destroy(op);
                        }
    tap_ok(bad == 0, "ONNX preset = ONNX's reference algorithm: linear, "
           "cubic, antialias, exclude_outside, 4 coordinate modes, "
           "1..13 -> 1..13 (%d cases)",
           cases);
}

/* ---- PyTorch's antialias weights --------------------------------------- */

static double pt_filter(int cubic, double u)
{
    return cubic ? k_cubic(-0.5, u) : (fabs(u) < 1 ? 1 - fabs(u) : 0);
}

/* aten's separable antialias: scale = I/O (align_corners: (I-1)/(O-1),
 * 0 for one output), support = taps/2 * max(scale, 1), centre
 * scale (o + 0.5), window [trunc(centre - support + 0.5),
 * trunc(centre + support + 0.5)) cut to the input, renormalised. */
static double pytorch_aa(const double *v, int I, int O, int o, int align,
                         int cubic)
{
    double scale = align ? (O > 1 ? (double)(I - 1) / (O - 1) : 0)
                         : (double)I / O;
    double support = (cubic ? 2 : 1) * (scale >= 1 ? scale : 1);
    double centre = scale * (o + 0.5), inv = scale >= 1 ? 1 / scale : 1;
    long lo = (long)(centre - support + 0.5), hi = (long)(centre + support + 0.5);
    double tot = 0, r = 0;
    long j;
    lo = lo > 0 ? lo : 0;
    hi = hi < I ? hi : I;
    for (j = lo; j < hi; ++j) {
        double w = pt_filter(cubic, (j - centre + 0.5) * inv);
        tot += w;
        r += w * v[j];
    }
    return tot != 0 ? r / tot : 0;
}

static void sweep_pytorch(void)
{
    double src[MAXN], dst[MAXN];
    int cubic, align, I, O, o, cases = 0, bad = 0;
    ramp(src, MAXN, 0.61, 2.0);
    for (I = 1; I < MAXN; I += 2)
        src[I] -= 1.3;
    for (cubic = 0; cubic < 2; ++cubic)
        for (align = 0; align < 2; ++align)
            for (I = 1; I <= 17; ++I)
                for (O = 1; O <= 17; ++O) {
                    clrs_resample_desc *op = mkop(
                        cubic ? CUB : LIN, CLRS_VENDOR_PYTORCH,
                        align ? CLRS_COORD_ALIGN_CORNERS
                              : CLRS_COORD_HALF_PIXEL);
                    SET(clrs_resample_desc_set_antialias(op, 1));
                    ++cases;
                    if (!setup_ok || !fwd1(op, I, src, O, dst)) {
                        ++bad;
                        setup_ok = 1;
                    } else
                        for (o = 0; o < O; ++o) {
                            double w = pytorch_aa(src, I, O, o, align, cubic);
                            /* PyTorch and the library use float scales */
                            if (close_to(dst[o], w, 2e-6))
                                continue;
                            if (bad++ < 8)
                                tap_diag("cubic %d align %d %d -> %d: y[%d] = "
                                         "%.9g, PyTorch %.9g",
                                         cubic, align, I, O, o, dst[o], w);
                        }
                    clrs_resample_desc_destroy(op);
                }
    tap_ok(bad == 0, "PyTorch preset = PyTorch's antialias weights (linear, "
           "bicubic A = -0.5; half_pixel, align_corners; 1..17 -> 1..17, "
           "%d cases)",
           cases);
}

/* ---- exact nearest rounding -------------------------------------------- */

/* R(x) for x = num / den exactly (den > 0), by integer arithmetic. */
static int64_t round_exact(clrs_rounding r, int64_t num, int64_t den)
{
    int64_t f = num >= 0 ? num / den : -((-num + den - 1) / den);
    int64_t rem = num - f * den; /* 0 <= rem < den */
    switch (r) {
    case CLRS_ROUND_PREFER_FLOOR:
        return 2 * rem > den ? f + 1 : f;
    case CLRS_ROUND_PREFER_CEIL:
        return 2 * rem >= den ? f + 1 : f;
    case CLRS_ROUND_FLOOR:
        return f;
    default:
        return rem ? f + 1 : f;
    }
}

static void sweep_exact_nearest(void)
{
    double src[200], dst[200];
    int r, c, I, O, o, cases = 0, bad = 0, ties = 0;
    ramp(src, 200, 1, 0);
    for (r = 0; r < 4; ++r)
        for (c = 0; c < 3; ++c)
            for (I = 1; I <= 40; I += 3)
                for (O = 1; O <= 150; O += 7) {
                    clrs_coord cm = c == 0   ? CLRS_COORD_HALF_PIXEL
                                    : c == 1 ? CLRS_COORD_ALIGN_CORNERS
                                             : CLRS_COORD_ASYMMETRIC;
                    clrs_resample_desc *op = mkop(NN, -1, cm);
                    SET(clrs_resample_desc_set_arith(op, CLRS_ARITH_EXACT));
                    SET(clrs_resample_desc_set_rounding(op,
                                                        (clrs_rounding)r));
                    ++cases;
                    if (!setup_ok || !fwd1(op, I, src, O, dst)) {
                        ++bad;
                        setup_ok = 1;
                        clrs_resample_desc_destroy(op);
                        continue;
                    }
                    for (o = 0; o < O; ++o) {
                        /* x = num / den for each mode */
                        int64_t num, den, i;
                        if (c == 0) {
                            num = (int64_t)(2 * o + 1) * I - O;
                            den = 2 * (int64_t)O;
                        } else if (c == 1) {
                            num = O > 1 && I > 1 ? (int64_t)o * (I - 1) : 0;
                            den = O > 1 && I > 1 ? O - 1 : 1;
                        } else {
                            num = (int64_t)o * I;
                            den = O;
                        }
                        ties += 2 * (num % den) == den;
                        i = round_exact((clrs_rounding)r, num, den);
                        i = i < 0 ? 0 : i >= I ? I - 1 : i;
                        if (dst[o] != (double)i && bad++ < 8)
                            tap_diag("rounding %d coord %d %d -> %d: y[%d] = "
                                     "%g, exact %lld",
                                     r, c, I, O, o, dst[o], (long long)i);
                    }
                    clrs_resample_desc_destroy(op);
                }
    tap_ok(bad == 0 && ties > 0,
           "exact arithmetic: nearest = integer arithmetic for every rounding "
           "(%d cases, %d exact ties)",
           cases, ties);
}

/* ---- backward: the adjoint of each new option -------------------------- */

static void adjoint(const char *what, clrs_resample_desc *op, int I, int O)
{
    double x[MAXN], y[MAXN], dy[MAXN], dx[MAXN], lhs = 0, rhs = 0;
    int i, ok;
    for (i = 0; i < I; ++i)
        x[i] = sin(1.0 + 0.7 * i);
    for (i = 0; i < O; ++i)
        dy[i] = cos(0.3 + 1.1 * i);
    ok = setup_ok && op && fwd1(op, I, x, O, y) && ref1(op, 1, I, O, dy, dx);
    for (i = 0; ok && i < O; ++i)
        lhs += y[i] * dy[i];
    for (i = 0; ok && i < I; ++i)
        rhs += x[i] * dx[i];
    if (ok && !close_to(lhs, rhs, 1e-12))
        tap_diag("%s: <Ax, dy> = %.17g, <x, A^T dy> = %.17g", what, lhs, rhs);
    tap_ok(ok && close_to(lhs, rhs, 1e-12), "backward is the adjoint: %s",
           what);
    clrs_resample_desc_destroy(op);
    setup_ok = 1;
}

static void adjoints(void)
{
    clrs_resample_desc *op;
    op = mkop(LIN, CLRS_VENDOR_ONNX, CLRS_COORD_DEFAULT);
    SET(clrs_resample_desc_set_antialias(op, 1));
    adjoint("ONNX antialias linear, edge taps, 23 -> 7", op, 23, 7);
    op = mkop(CUB, CLRS_VENDOR_ONNX, CLRS_COORD_ALIGN_CORNERS);
    SET(clrs_resample_desc_set_antialias(op, 1));
    SET(clrs_resample_desc_set_exclude_outside(op, 1));
    adjoint("ONNX antialias cubic, exclude_outside, align_corners, 20 -> 6",
            op, 20, 6);
    op = mkop(CUB, CLRS_VENDOR_PYTORCH, CLRS_COORD_ALIGN_CORNERS);
    SET(clrs_resample_desc_set_antialias(op, 1));
    adjoint("PyTorch antialias cubic align_corners, 19 -> 5", op, 19, 5);
    op = mkop(NN, CLRS_VENDOR_ONNX, CLRS_COORD_DEFAULT);
    adjoint("exact nearest 4 -> 14", op, 4, 14);
    op = mkop(LIN, CLRS_VENDOR_ONEDNN, CLRS_COORD_DEFAULT);
    adjoint("oneDNN-order linear 14 -> 23", op, 14, 23);
}

/* ---- keep-aspect sizes ------------------------------------------------- */

static void keep_aspect(void)
{
    const int64_t in[2] = {3, 5}, sizes[2] = {6, 6};
    int64_t out[2] = {0, 0};
    double sc[2] = {0, 0};
    clrs_status st;
    st = clrs_output_sizes_keep_aspect(2, in, sizes,
                                       CLRS_KEEP_ASPECT_NOT_SMALLER, out, sc);
    tap_ok(st == CLRS_SUCCESS && out[0] == 6 && out[1] == 10 && sc[0] == 2 &&
               sc[1] == 2,
           "keep-aspect not_smaller (3, 5) -> (6, 6): (6, 10), scale 2 "
           "(got %lld, %lld, %g)",
           (long long)out[0], (long long)out[1], sc[0]);
    st = clrs_output_sizes_keep_aspect(2, in, sizes,
                                       CLRS_KEEP_ASPECT_NOT_LARGER, out, sc);
    tap_ok(st == CLRS_SUCCESS && out[0] == 4 && out[1] == 6 && sc[0] == 1.2 &&
               sc[1] == 1.2,
           "keep-aspect not_larger (3, 5) -> (6, 6): (4, 6), scale 1.2 "
           "(got %lld, %lld, %g)",
           (long long)out[0], (long long)out[1], sc[0]);
    st = clrs_output_sizes_keep_aspect(2, in, sizes, CLRS_KEEP_ASPECT_STRETCH,
                                       out, sc);
    tap_ok(st == CLRS_SUCCESS && out[0] == 6 && out[1] == 6 && sc[0] == 2 &&
               sc[1] == 1.2,
           "keep-aspect stretch: the sizes as given");
    st = clrs_output_sizes_keep_aspect(2, in, sizes, (clrs_keep_aspect)7, out,
                                       sc);
    tap_ok(st == CLRS_ERR_INVALID_ENUM, "keep-aspect: unknown policy refused");
}

/* Options that cannot apply are refused, not ignored. */
static void refusals(void)
{
    clrs_resample_desc *op = mkop(LIN, -1, CLRS_COORD_DEFAULT);
    double x[4] = {1, 2, 3, 4}, y[2];
    tap_ok(clrs_resample_desc_set_vendor(op, (clrs_vendor)9) ==
                   CLRS_ERR_INVALID_ENUM &&
               clrs_resample_desc_set_arith(op, (clrs_arith)-1) ==
                   CLRS_ERR_INVALID_ENUM &&
               clrs_resample_desc_set_antialias_rule(
                   op, (clrs_antialias_rule)3) == CLRS_ERR_INVALID_ENUM,
           "unknown vendor, arithmetic, antialias rule refused");
    SET(clrs_resample_desc_set_exclude_outside(op, 1));
    tap_ok(!fwd1(op, 4, x, 2, y) &&
               strstr(clrs_last_error(), "exclude_outside") != NULL,
           "exclude_outside on linear without ONNX antialias refused: %s",
           clrs_last_error());
    clrs_resample_desc_destroy(op);
    setup_ok = 1;
}

/* The image libraries' presets and their methods. The worked values
 * are Pillow 9.4's and OpenCV 4.6's outputs (Debian 12) on float
 * images: Pillow's nearest adds I/O up output by output in double (2 -> 7:
 * output 3's centre, exactly 1, comes to just under it and reads pixel
 * 0); OpenCV's INTER_NEAREST_EXACT rounds in 16-bit fixed point (2 -> 3:
 * output 1 reads pixel 0, half-pixel rounding gives 1); Pillow's BOX
 * takes the pixel at half its support after the centre, not before
 * (3 -> 2: pixels 0 and 1, then 1 and 2, where the symmetric box gives
 * half weights); OpenCV's INTER_AREA weighs by the covered area. */
static clrs_resample_desc *method_op(clrs_vendor v, const char *name)
{
    clrs_resample_desc *op = mkop(NN, -1, CLRS_COORD_DEFAULT);
    SET(clrs_resample_desc_set_vendor(op, v));
    SET(clrs_resample_desc_set_method(op, name));
    return op;
}

/* OpenCV 4.6's INTER_LINEAR_EXACT on u8 [44, 22, 220, 5] 4 -> 7: its
 * 8-bit weights give 81 at output 5, where exact weights give 81.79. */
static void linear_exact_u8(void)
{
    static const uint8_t src[] = {44, 22, 220, 5};
    static const uint8_t want[] = {44, 36, 24, 121, 205, 81, 5};
    uint8_t dst[7];
    int64_t n = 4, m = 7;
    clrs_tensor_desc *s = NULL, *d = NULL;
    clrs_resample_desc *op = method_op(CLRS_VENDOR_OPENCV, "linear_exact");
    clrs_host_args a;
    int ok;
    memset(&a, 0, sizeof a);
    memset(dst, 0xA5, sizeof dst);
    SET(clrs_tensor_desc_create(&s, CLRS_U8, 1, &n, NULL));
    SET(clrs_tensor_desc_create(&d, CLRS_U8, 1, &m, NULL));
    a.src = src;
    a.dst = dst;
    ok = setup_ok &&
         clrs_reference_forward(op, s, d, NULL, &a) == CLRS_SUCCESS &&
         memcmp(dst, want, sizeof want) == 0;
    if (!ok)
        tap_diag("got %d %d %d %d %d %d %d", dst[0], dst[1], dst[2], dst[3],
                 dst[4], dst[5], dst[6]);
    tap_ok(ok, "OpenCV linear_exact u8 4 -> 7: 8-bit weights, 81 not 82");
    clrs_tensor_desc_destroy(s);
    clrs_tensor_desc_destroy(d);
    clrs_resample_desc_destroy(op);
    setup_ok = 1;
}

static void methods(void)
{
    static const double two[] = {10, 20}, ramp6[] = {0, 1, 2, 3, 4, 5};
    static const double three[] = {0, 1, 2};
    static const double pil_nn[] = {10, 10, 10, 10, 20, 20, 20};
    static const double cv_nn[] = {10, 10, 20};
    static const double pil_box[] = {0.5, 2, 3.5, 5}, pil_box3[] = {0.5, 2};
    static const double cv_area[] = {1.0 / 3, 5.0 / 3, 10.0 / 3, 14.0 / 3};
    static const struct {
        clrs_vendor v;
        const char *names;
    } all[] = {{CLRS_VENDOR_PILLOW, "nearest box bilinear hamming bicubic "
                                    "lanczos"},
               {CLRS_VENDOR_OPENCV, "nearest linear cubic area lanczos4 "
                                    "linear_exact nearest_exact"},
               {CLRS_VENDOR_TENSORFLOW, "bilinear nearest bicubic area "
                                        "lanczos3 lanczos5 gaussian "
                                        "mitchellcubic"}};
    double y[8];
    char buf[128], *name, *save = NULL;
    clrs_resample_desc *op;
    size_t k;
    int ok;

    worked("Pillow nearest 2 -> 7: its added-up centre reads pixel 0 at 3",
           method_op(CLRS_VENDOR_PILLOW, "nearest"), 2, two, 7, pil_nn, 0);
    worked("OpenCV nearest_exact 2 -> 3: 16-bit fixed point",
           method_op(CLRS_VENDOR_OPENCV, "nearest_exact"), 2, two, 3, cv_nn, 0);
    worked("Pillow box 6 -> 4", method_op(CLRS_VENDOR_PILLOW, "box"), 6, ramp6,
           4, pil_box, 1e-15);
    worked("Pillow box 3 -> 2: the tie after the centre counts",
           method_op(CLRS_VENDOR_PILLOW, "box"), 3, three, 2, pil_box3, 1e-15);
    worked("OpenCV area 6 -> 4: covered area",
           method_op(CLRS_VENDOR_OPENCV, "area"), 6, ramp6, 4, cv_area, 1e-7);
    for (k = 0; k < sizeof all / sizeof all[0]; ++k) {
        snprintf(buf, sizeof buf, "%s", all[k].names);
        ok = 1;
        for (name = strtok_r(buf, " ", &save); name;
             name = strtok_r(NULL, " ", &save)) {
            op = mkop(LIN, (int)all[k].v, CLRS_COORD_DEFAULT);
            if (clrs_resample_desc_set_method(op, name) != CLRS_SUCCESS ||
                !fwd1(op, 6, ramp6, 4, y)) {
                tap_diag("vendor %d method %s: %s", (int)all[k].v, name,
                         clrs_last_error());
                ok = 0;
            }
            clrs_resample_desc_destroy(op);
        }
        tap_ok(ok, "every method of vendor %d runs: %s", (int)all[k].v,
               all[k].names);
    }
    op = mkop(LIN, CLRS_VENDOR_PILLOW, CLRS_COORD_DEFAULT);
    tap_ok(clrs_resample_desc_set_method(op, "lanczos4") ==
                   CLRS_ERR_INVALID_VALUE &&
               strstr(clrs_last_error(), "lanczos") != NULL,
           "a method the preset has not is refused: %s", clrs_last_error());
    clrs_resample_desc_destroy(op);
    op = mkop(LIN, CLRS_VENDOR_ONNX, CLRS_COORD_DEFAULT);
    tap_ok(clrs_resample_desc_set_method(op, "lanczos") ==
               CLRS_ERR_INVALID_VALUE,
           "a method without an image library's preset is refused: %s",
           clrs_last_error());
    clrs_resample_desc_destroy(op);
    setup_ok = 1;
}

int main(void)
{
    worked_antialias();
    worked_ties();
    sweep_onnx();
    sweep_pytorch();
    sweep_exact_nearest();
    adjoints();
    keep_aspect();
    refusals();
    methods();
    linear_exact_u8();
    return tap_done();
}
