/* Every worked case of clresample(3) (SEMANTICS, Worked cases) through the
 * public API and the CPU reference, forward and (where the case gives one)
 * backward. */
#include "clresample.h"
#include "tap.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define N_(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define POISON 12345.0

/* A dense f64 tensor of rank 1 (d1 == 0) or 2. */
static clrs_tensor_desc *mk(clrs_dtype dt, int64_t d0, int64_t d1)
{
    clrs_tensor_desc *d = NULL;
    int64_t dims[2] = {d0, d1};
    if (clrs_tensor_desc_create(&d, dt, d1 ? 2 : 1, dims, NULL) !=
        CLRS_SUCCESS)
        tap_diag("tensor_desc_create: %s", clrs_last_error());
    return d;
}

static clrs_resample_desc *mkop(clrs_mode mode)
{
    clrs_resample_desc *op = NULL;
    if (clrs_resample_desc_create(&op, mode) != CLRS_SUCCESS)
        tap_diag("resample_desc_create: %s", clrs_last_error());
    return op;
}

static void fill(double *v, int n, double x)
{
    int i;
    for (i = 0; i < n; ++i)
        v[i] = x;
}

/* rtol 0 or an infinite want: exact (NaN equals NaN); else relative,
 * absolute near zero. */
static int near(double got, double want, double rtol)
{
    if (rtol == 0 || isinf(want))
        return tap_same(got, want);
    return fabs(got - want) <= rtol * (fabs(want) > 1 ? fabs(want) : 1);
}

static int check(const char *what, const double *got, const double *want,
                 int n, double rtol)
{
    int i, ok = 1;
    for (i = 0; i < n; ++i)
        if (!near(got[i], want[i], rtol)) {
            tap_diag("%s: [%d] = %.17g, want %.17g", what, i, got[i], want[i]);
            ok = 0;
        }
    return tap_ok(ok, "%s", what);
}

/* Forward on f64 tensors of the given dims into a poisoned dst. */
static int fwd(const clrs_resample_desc *op, int64_t i0, int64_t i1,
               const double *src, int64_t o0, int64_t o1, double *dst)
{
    clrs_tensor_desc *s = mk(CLRS_F64, i0, i1), *d = mk(CLRS_F64, o0, o1);
    clrs_host_args args;
    clrs_status st;
    memset(&args, 0, sizeof args);
    fill(dst, (int)(o0 * (o1 ? o1 : 1)), POISON);
    args.src = src;
    args.dst = dst;
    st = clrs_reference_forward(op, s, d, NULL, &args);
    if (st != CLRS_SUCCESS)
        tap_diag("forward: %s: %s", clrs_status_name(st), clrs_last_error());
    clrs_tensor_desc_destroy(s);
    clrs_tensor_desc_destroy(d);
    return st;
}

static int bwd(const clrs_resample_desc *op, int64_t i0, int64_t i1,
               double *dx, int64_t o0, int64_t o1, const double *dy)
{
    clrs_tensor_desc *s = mk(CLRS_F64, i0, i1), *d = mk(CLRS_F64, o0, o1);
    clrs_host_args args;
    clrs_status st;
    memset(&args, 0, sizeof args);
    fill(dx, (int)(i0 * (i1 ? i1 : 1)), POISON);
    args.diff_dst = dy;
    args.diff_src = dx;
    st = clrs_reference_backward(op, s, d, NULL, NULL, &args);
    if (st != CLRS_SUCCESS)
        tap_diag("backward: %s: %s", clrs_status_name(st), clrs_last_error());
    clrs_tensor_desc_destroy(s);
    clrs_tensor_desc_destroy(d);
    return st;
}

/* 1. DML nearest floor with pixel offsets and per-axis scales. */
static void case1(void)
{
    static const double src[] = {1, 2, 3, 4}, dy[] = {4, 5, 6};
    static const double want[] = {1, 1, 2}, wdx[] = {9, 6, 0, 0};
    const float in_off[] = {0.5f, 0.5f}, out_off[] = {-0.5f, -0.5f};
    const double scales[] = {0.5, 1.5};
    double y[3], dx[4];
    clrs_resample_desc *op = mkop(CLRS_MODE_NEAREST);
    clrs_resample_desc_set_rounding(op, CLRS_ROUND_FLOOR);
    clrs_resample_desc_set_pixel_offsets(op, 2, in_off, out_off);
    clrs_resample_desc_set_scales(op, 2, scales);
    tap_ok(fwd(op, 2, 2, src, 1, 3, y) == CLRS_SUCCESS, "1: forward runs");
    check("1: DML nearest floor -> [[1,1,2]]", y, want, 3, 0);
    tap_ok(bwd(op, 2, 2, dx, 1, 3, dy) == CLRS_SUCCESS, "1: backward runs");
    check("1: gradient [[4,5,6]] -> [[9,6],[0,0]]", dx, wdx, 4, 0);
    clrs_resample_desc_destroy(op);
}

static void nearest_1d(int n, const double *src, int m, clrs_coord coord,
                       clrs_rounding rounding, const double *want,
                       const char *what)
{
    double y[8];
    clrs_resample_desc *op = mkop(CLRS_MODE_NEAREST);
    clrs_resample_desc_set_coord(op, coord);
    clrs_resample_desc_set_rounding(op, rounding);
    fwd(op, n, 0, src, m, 0, y);
    check(what, y, want, m, 0);
    clrs_resample_desc_destroy(op);
}

/* 2 and 3. Nearest roundings at ties. */
static void case2_3(void)
{
    static const double a[] = {10, 11, 12, 13}, b[] = {10, 20};
    static const double a02[] = {10, 12}, a13[] = {11, 13};
    static const double b1[] = {10, 10, 20}, b2[] = {10, 20, 20};
    nearest_1d(4, a, 2, CLRS_COORD_ASYMMETRIC, CLRS_ROUND_FLOOR, a02,
               "2: nearest 4->2 asymmetric+floor -> [a0,a2]");
    nearest_1d(4, a, 2, CLRS_COORD_HALF_PIXEL, CLRS_ROUND_PREFER_CEIL, a13,
               "2: nearest 4->2 half_pixel+round_prefer_ceil -> [a1,a3]");
    nearest_1d(4, a, 2, CLRS_COORD_HALF_PIXEL, CLRS_ROUND_PREFER_FLOOR, a02,
               "2: nearest 4->2 half_pixel+round_prefer_floor -> [a0,a2]");
    nearest_1d(2, b, 3, CLRS_COORD_HALF_PIXEL, CLRS_ROUND_PREFER_FLOOR, b1,
               "3: nearest 2->3 half_pixel+round_prefer_floor -> [10,10,20]");
    nearest_1d(2, b, 3, CLRS_COORD_HALF_PIXEL, CLRS_ROUND_PREFER_CEIL, b2,
               "3: nearest 2->3 half_pixel+round_prefer_ceil -> [10,20,20]");
}

static void linear_1d(int n, const double *src, int m, clrs_coord coord,
                      const double *want, double rtol, const char *what)
{
    double y[8];
    clrs_resample_desc *op = mkop(CLRS_MODE_LINEAR);
    clrs_resample_desc_set_coord(op, coord);
    fwd(op, n, 0, src, m, 0, y);
    check(what, y, want, m, rtol);
    clrs_resample_desc_destroy(op);
}

/* 4, 5, 6. Linear 2 -> 4 under three coordinate modes. */
static void case4_5_6(void)
{
    static const double src[] = {1, 2}, dy[] = {1, 2, 3, 4};
    static const double w4[] = {1, 1.25, 1.75, 2}, wdx[] = {3.25, 6.75};
    static const double w5[] = {1, 4.0 / 3, 5.0 / 3, 2};
    static const double w6[] = {1, 1.5, 2, 2};
    double dx[2];
    clrs_resample_desc *op = mkop(CLRS_MODE_LINEAR);

    linear_1d(2, src, 4, CLRS_COORD_HALF_PIXEL, w4, 0,
              "4: linear half_pixel [1,2] -> [1,1.25,1.75,2]");
    clrs_resample_desc_set_coord(op, CLRS_COORD_HALF_PIXEL);
    bwd(op, 2, 0, dx, 4, 0, dy);
    check("4: backward of [1,2,3,4] -> [3.25,6.75]", dx, wdx, 2, 0);
    /* x = 1/3 is a float, so 4/3 holds to float precision only. */
    linear_1d(2, src, 4, CLRS_COORD_ALIGN_CORNERS, w5, 1e-7,
              "5: linear align_corners [1,2] -> [1,4/3,5/3,2]");
    linear_1d(2, src, 4, CLRS_COORD_ASYMMETRIC, w6, 0,
              "6: linear asymmetric [1,2] -> [1,1.5,2,2]");
    clrs_resample_desc_destroy(op);
}

/* 7 and 8. Cubic: x = 1.5 is output 3 of asymmetric 4 -> 8; output 0 of
 * half_pixel 4 -> 8 is x = -0.25. */
static double cubic_out(clrs_coord coord, double A, int exclude, int o)
{
    static const double src[] = {1, 2, 4, 8};
    double y[8];
    clrs_resample_desc *op = mkop(CLRS_MODE_CUBIC);
    clrs_resample_desc_set_coord(op, coord);
    clrs_resample_desc_set_cubic_a(op, A);
    clrs_resample_desc_set_exclude_outside(op, exclude);
    fwd(op, 4, 0, src, 8, 0, y);
    clrs_resample_desc_destroy(op);
    return y[o];
}

static void case7_8(void)
{
    double v;
    v = cubic_out(CLRS_COORD_ASYMMETRIC, -0.75, 0, 3);
    tap_ok(v == 2.71875, "7: cubic x=1.5 A=-0.75 -> 2.71875 (got %.17g)", v);
    v = cubic_out(CLRS_COORD_ASYMMETRIC, -0.5, 0, 3);
    tap_ok(v == 2.8125, "7: cubic x=1.5 A=-0.5 -> 2.8125 (got %.17g)", v);
    v = cubic_out(CLRS_COORD_HALF_PIXEL, -0.75, 0, 0);
    tap_ok(v == 0.89453125,
           "8: cubic half_pixel x=-0.25 edge -> 0.89453125 (got %.17g)", v);
    v = cubic_out(CLRS_COORD_HALF_PIXEL, -0.75, 1, 0);
    tap_ok(near(v, 19.0 / 22, 1e-12),
           "8: cubic half_pixel x=-0.25 exclude_outside -> 19/22 (got "
           "%.17g)",
           v);
}

/* 9. tf_crop_and_resize with a box reaching past the input. */
static void case9(void)
{
    static const double src[] = {0, 10, 20, 30, 40}, want[] = {5, 25, -7};
    const double st[] = {0.125}, en[] = {1.125};
    double y[3];
    clrs_resample_desc *op = mkop(CLRS_MODE_LINEAR);
    clrs_resample_desc_set_coord(op, CLRS_COORD_TF_CROP_AND_RESIZE);
    clrs_resample_desc_set_roi(op, 1, st, en);
    clrs_resample_desc_set_extrapolation_value(op, -7);
    fwd(op, 5, 0, src, 3, 0, y);
    check("9: tf_crop_and_resize roi [0.125,1.125] -> [5,25,extrapolation]", y,
          want, 3, 0);
    clrs_resample_desc_destroy(op);
}

/* 10. DML scale 2 with O = 3 != 2 * I. */
static void case10(void)
{
    static const double src[] = {1, 2}, want[] = {1, 1.25, 1.75};
    const float in_off[] = {0.5f}, out_off[] = {-0.5f};
    const double scale[] = {2};
    double y[3];
    clrs_resample_desc *op = mkop(CLRS_MODE_LINEAR);
    clrs_resample_desc_set_pixel_offsets(op, 1, in_off, out_off);
    clrs_resample_desc_set_scales(op, 1, scale);
    fwd(op, 2, 0, src, 3, 0, y);
    check("10: DML linear scale 2, O = 3 -> [1,1.25,1.75]", y, want, 3, 0);
    clrs_resample_desc_destroy(op);
}

/* 11. Average pooling with padding, both divisors, forward and backward. */
static void case11(void)
{
    static const double src[] = {1, 2, 3, 4};
    static const double inc[] = {.25, .75, .5, 1, 2.5, 1.5, .75, 1.75, 1};
    static const double exc[] = {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4};
    static const double ones[] = {1, 1, 1, 1}, q[] = {2.25, 2.25, 2.25, 2.25};
    const int64_t win[] = {2, 2}, stride[] = {1, 1}, pad[] = {1, 1};
    double y[9], dy[9], dx[4];
    int m;
    fill(dy, 9, 1);
    for (m = 0; m < 2; ++m) {
        clrs_resample_desc *op = mkop(m ? CLRS_MODE_AVG_EXCLUDE_PADDING
                                        : CLRS_MODE_AVG_INCLUDE_PADDING);
        clrs_resample_desc_set_window(op, 2, win);
        clrs_resample_desc_set_stride(op, 2, stride);
        clrs_resample_desc_set_padding_sizes(op, 2, pad, pad);
        fwd(op, 2, 2, src, 3, 3, y);
        check(m ? "11: avg exclude_padding forward"
                : "11: avg include_padding forward",
              y, m ? exc : inc, 9, 0);
        bwd(op, 2, 2, dx, 3, 3, dy);
        check(m ? "11: avg exclude_padding backward of 1 -> 2.25"
                : "11: avg include_padding backward of 1 -> 1",
              dx, m ? q : ones, 4, 0);
        clrs_resample_desc_destroy(op);
    }
}

/* 12. Pool output sizes, floor and ceil mode, and the max of each. */
static void case12(void)
{
    static const double src[] = {1, 5, 2, 4, 3}, want[] = {5, 4, 3};
    const clrs_fraction w = {2, 1}, s = {2, 1}, z = {0, 1};
    const int64_t win[] = {2}, stride[] = {2};
    int64_t o_floor = 0, o_ceil = 0;
    double y[3];
    int ceil_mode;
    clrs_resample_desc *op = mkop(CLRS_MODE_MAX);
    clrs_resample_desc_set_window(op, 1, win);
    clrs_resample_desc_set_stride(op, 1, stride);
    clrs_resample_desc_set_inference(op, 1);
    clrs_pool_output_size(5, w, s, z, z, 0, &o_floor);
    clrs_pool_output_size(5, w, s, z, z, 1, &o_ceil);
    tap_ok(o_floor == 2,
           "12: I=5 window 2 stride 2, floor -> O = 2 (got %lld)",
           (long long)o_floor);
    tap_ok(o_ceil == 3, "12: I=5 window 2 stride 2, ceil -> O = 3 (got %lld)",
           (long long)o_ceil);
    for (ceil_mode = 0; ceil_mode < 2; ++ceil_mode) {
        int n = ceil_mode ? 3 : 2;
        fwd(op, 5, 0, src, n, 0, y);
        check(ceil_mode ? "12: max of [1,5,2,4,3], ceil -> [5,4,3]"
                        : "12: max of [1,5,2,4,3], floor -> [5,4]",
              y, want, n, 0);
    }
    clrs_resample_desc_destroy(op);
}

/* 13. Max pool tie: the first maximum in row-major window order wins. */
static void case13_format(clrs_index_format fmt, clrs_dtype idt,
                          int64_t want_idx)
{
    static const double src[] = {0, 1, 2, 0, /* */ 1, 0, 0, 0,
                                 4, 5, 1, 3, /* */ 6, 1, 3, 2};
    static const double dy[] = {0, 0, 0, 7};
    double y[4], dx[16], wdx[16];
    int64_t idx[4] = {-99, -99, -99, -99};
    int8_t idx8[4] = {-99, -99, -99, -99};
    void *ibuf = idt == CLRS_S8 ? (void *)idx8 : (void *)idx;
    const int64_t win[] = {2, 2}, stride[] = {2, 2};
    const char *name = fmt == CLRS_INDEX_PLANE_COLUMN ? "plane_column"
                       : fmt == CLRS_INDEX_PLANE      ? "plane"
                                                      : "window";
    clrs_tensor_desc *s = mk(CLRS_F64, 4, 4), *d = mk(CLRS_F64, 2, 2);
    clrs_tensor_desc *it = mk(idt, 2, 2);
    clrs_resample_desc *op = mkop(CLRS_MODE_MAX);
    clrs_host_args args;
    clrs_status st;
    int64_t got;
    int pass;

    clrs_resample_desc_set_window(op, 2, win);
    clrs_resample_desc_set_stride(op, 2, stride);
    clrs_resample_desc_set_index_format(op, fmt);
    memset(&args, 0, sizeof args);
    fill(y, 4, POISON);
    args.src = src;
    args.dst = y;
    args.index = ibuf;
    st = clrs_reference_forward(op, s, d, it, &args);
    tap_ok(st == CLRS_SUCCESS, "13: %s forward runs", name);
    if (st != CLRS_SUCCESS)
        tap_diag("%s", clrs_last_error());
    got = idt == CLRS_S8 ? idx8[3] : idx[3];
    tap_ok(y[3] == 3, "13: output (1,1) of [[1,3],[3,2]] -> 3 (got %g)", y[3]);
    tap_ok(got == want_idx, "13: %s index of (1,1) -> %lld (got %lld)", name,
           (long long)want_idx, (long long)got);

    fill(wdx, 16, 0);
    wdx[2 * 4 + 3] = 7;
    for (pass = 0; pass < 2; ++pass) {
        /* pass 0 reads the index tensor, pass 1 recomputes from src */
        memset(&args, 0, sizeof args);
        fill(dx, 16, POISON);
        args.diff_dst = dy;
        args.diff_src = dx;
        args.index = pass ? NULL : ibuf;
        args.src = pass ? src : NULL;
        st = clrs_reference_backward(op, s, d, pass ? NULL : it,
                                     pass ? s : NULL, &args);
        tap_ok(st == CLRS_SUCCESS, "13: %s backward runs", name);
        if (st != CLRS_SUCCESS)
            tap_diag("%s", clrs_last_error());
        check(pass ? "13: backward from src, dy 7 -> dx[2][3] = 7"
              : fmt == CLRS_INDEX_PLANE_COLUMN
                  ? "13: backward from column-major plane index -> dx[2][3] "
                    "= 7"
              : fmt == CLRS_INDEX_PLANE
                  ? "13: backward from plane index -> dx[2][3] = 7"
                  : "13: backward from window index -> dx[2][3] = 7",
              dx, wdx, 16, 0);
    }
    clrs_resample_desc_destroy(op);
    clrs_tensor_desc_destroy(s);
    clrs_tensor_desc_destroy(d);
    clrs_tensor_desc_destroy(it);
}

static void case13(void)
{
    case13_format(CLRS_INDEX_WINDOW, CLRS_S8, 1);
    case13_format(CLRS_INDEX_PLANE, CLRS_S64, 11);
    /* column-major: h + w H = 2 + 3 * 4 */
    case13_format(CLRS_INDEX_PLANE_COLUMN, CLRS_S64, 14);
}

/* 19. ONNX MaxPool storage_order = 1 (its node test with precomputed
 * strides): 1..25 in 5x5, window 2 stride 2 -> [[7, 9], [17, 19]] at
 * column-major indices [[6, 16], [8, 18]] (row-major 6, 8, 16, 18). */
static void case19(void)
{
    double x[25], y[4];
    static const double wy[4] = {7, 9, 17, 19};
    static const int64_t wcol[4] = {6, 16, 8, 18}, wrow[4] = {6, 8, 16, 18};
    const int64_t win[] = {2, 2};
    int i, f;
    for (i = 0; i < 25; ++i)
        x[i] = i + 1;
    for (f = 0; f < 2; ++f) {
        clrs_tensor_desc *s = mk(CLRS_F64, 5, 5), *d = mk(CLRS_F64, 2, 2);
        clrs_tensor_desc *it = mk(CLRS_S64, 2, 2);
        clrs_resample_desc *op = mkop(CLRS_MODE_MAX);
        int64_t idx[4] = {-99, -99, -99, -99};
        clrs_host_args args;
        int ok = 1;
        clrs_resample_desc_set_window(op, 2, win);
        clrs_resample_desc_set_stride(op, 2, win);
        clrs_resample_desc_set_index_format(
            op, f ? CLRS_INDEX_PLANE_COLUMN : CLRS_INDEX_PLANE);
        memset(&args, 0, sizeof args);
        fill(y, 4, POISON);
        args.src = x;
        args.dst = y;
        args.index = idx;
        tap_ok(clrs_reference_forward(op, s, d, it, &args) == CLRS_SUCCESS,
               "19: %s forward runs", f ? "column-major" : "row-major");
        check("19: 1..25 5x5 window 2 stride 2 -> [[7, 9], [17, 19]]", y, wy,
              4, 0);
        for (i = 0; i < 4; ++i)
            ok &= idx[i] == (f ? wcol : wrow)[i];
        tap_ok(ok, "19: %s plane indices %s (got %lld %lld %lld %lld)",
               f ? "column-major" : "row-major",
               f ? "[[6, 16], [8, 18]]" : "[[6, 8], [16, 18]]",
               (long long)idx[0], (long long)idx[1], (long long)idx[2],
               (long long)idx[3]);
        clrs_resample_desc_destroy(op);
        clrs_tensor_desc_destroy(s);
        clrs_tensor_desc_destroy(d);
        clrs_tensor_desc_destroy(it);
    }
}

/* 14. Downsampling with and without antialias. */
static void case14(void)
{
    static const double src[] = {0, 1, 2, 3}, plain[] = {0.5, 2.5};
    static const double aa[] = {5.0 / 7, 16.0 / 7};
    double y[2];
    clrs_resample_desc *op = mkop(CLRS_MODE_LINEAR);
    fwd(op, 4, 0, src, 2, 0, y);
    check("14: linear 4->2 half_pixel -> [0.5,2.5]", y, plain, 2, 0);
    clrs_resample_desc_set_antialias(op, 1);
    fwd(op, 4, 0, src, 2, 0, y);
    check("14: linear 4->2 antialias -> [5/7,16/7]", y, aa, 2, 1e-12);
    clrs_resample_desc_destroy(op);
}

/* 15. A user scale that differs from O/I changes the coordinates. */
static void case15(void)
{
    static const double src[] = {0, 1, 2, 3, 4};
    static const double w15[] = {0,   0.5,      7.0 / 6, 11.0 / 6,
                                 2.5, 19.0 / 6, 23.0 / 6};
    static const double w75[] = {0,        4.0 / 7,  9.0 / 7, 2,
                                 19.0 / 7, 24.0 / 7, 4};
    const double scale[] = {1.5};
    double y[7];
    clrs_resample_desc *op = mkop(CLRS_MODE_LINEAR);
    fwd(op, 5, 0, src, 7, 0, y);
    /* float coordinates: the fractions hold to float precision */
    check("15: [0..4] -> 7, scale from sizes 7/5", y, w75, 7, 1e-6);
    clrs_resample_desc_set_scales(op, 1, scale);
    fwd(op, 5, 0, src, 7, 0, y);
    check("15: [0..4] -> 7, scale 1.5", y, w15, 7, 1e-6);
    clrs_resample_desc_destroy(op);
}

/* 16. Eltwise post-ops worked by hand: nearest 1:1, so each input
 * reaches the post-op unchanged. hardswish(x) = x * clamp(x / 6 + 1/2,
 * 0, 1); mish(x) = x * tanh(log(1 + e^x)) = x * ((1 + e^x)^2 - 1) /
 * ((1 + e^x)^2 + 1), the values below to 20 digits. */
static void eltwise_worked(clrs_eltwise alg, double a, double b,
                           const char *what, const double *x,
                           const double *want, int n)
{
    double y[16];
    clrs_resample_desc *op = mkop(CLRS_MODE_NEAREST);
    clrs_resample_desc_append_eltwise(op, alg, a, b);
    fwd(op, n, 0, x, n, 0, y);
    check(what, y, want, n, 1e-14);
    clrs_resample_desc_destroy(op);
}

static void case16(void)
{
    static const double hx[] = {-INFINITY, -4, -3, -1.5, 0, 1, 2, 3, 7,
                                INFINITY};
    static const double hy[] = {0, 0, 0, -0.375, 0, 2.0 / 3, 5.0 / 3, 3, 7,
                                INFINITY};
    static const double hx2[] = {-INFINITY, -1, -0.25, 0.5, 2, INFINITY};
    static const double hy2[] = {-INFINITY, -1, -0.1875, 0, 0, 0};
    static const double mx[] = {-INFINITY, -1000, -5, -1, 0, 1, 2, 1000,
                                INFINITY};
    static const double my[] = {0,
                                0,
                                -0.033576237730161705396,
                                -0.30340146137410891807,
                                0,
                                0.86509838826731034612,
                                1.9439589595339945203,
                                1000,
                                INFINITY};
    eltwise_worked(CLRS_ELTWISE_HARDSWISH, 1.0 / 6, 0.5,
                   "16: hardswish 1/6, 1/2 at -inf, -4, -3, -1.5, 0, 1, 2, "
                   "3, 7, inf",
                   hx, hy, N_(hx));
    /* alpha -1, beta 1/2: the gate opens towards -inf */
    eltwise_worked(CLRS_ELTWISE_HARDSWISH, -1, 0.5,
                   "16: hardswish -1, 1/2 at -inf, -1, -0.25, 0.5, 2, inf", hx2,
                   hy2, N_(hx2));
    eltwise_worked(CLRS_ELTWISE_MISH, 0, 0,
                   "16: mish at -inf, -1000, -5, -1, 0, 1, 2, 1000, inf", mx,
                   my, N_(mx));
}

/* 17. The error model (TOLERANCES): bounds of f32 results in units of
 * u = 2^-24 (float's unit roundoff) plus the reference's 2^-53, and the
 * decision clrs_reference_agrees makes with them. */
static double model_bound(clrs_mode mode, clrs_coord coord, int exact,
                          int backward,
                          int64_t n, const float *x, int64_t m, int at,
                          double *value)
{
    clrs_resample_desc *op = mkop(mode);
    clrs_tensor_desc *a = mk(CLRS_F32, backward ? m : n, 0),
                     *b = mk(CLRS_F32, backward ? n : m, 0);
    clrs_host_args args;
    float out[16];
    double bound[16];
    clrs_status st;
    memset(&args, 0, sizeof args);
    clrs_resample_desc_set_coord(op, coord);
    if (exact)
        clrs_resample_desc_set_arith(op, CLRS_ARITH_EXACT);
    fill(bound, 16, POISON);
    if (!backward) {
        args.src = x;
        args.dst = out;
        st = clrs_reference_forward_bound(op, a, b, NULL, &args, bound);
    } else { /* x is diff_dst (m values), the bound diff_src's (n) */
        args.diff_dst = x;
        args.diff_src = out;
        st = clrs_reference_backward_bound(op, b, a, NULL, NULL, &args,
                                           bound);
    }
    if (st != CLRS_SUCCESS)
        tap_diag("bound: %s: %s", clrs_status_name(st), clrs_last_error());
    clrs_tensor_desc_destroy(a);
    clrs_tensor_desc_destroy(b);
    clrs_resample_desc_destroy(op);
    *value = st == CLRS_SUCCESS ? out[at] : NAN;
    return st == CLRS_SUCCESS ? bound[at] : NAN;
}

static void case17(void)
{
    const double u = 0x1p-24 + 0x1p-53;
    static const float x2[] = {1, 2}, cancel[] = {10000, -9999};
    static const float x4[] = {1, 2, 3, 4};
    static const float dy[] = {1, 3e-8f, 3e-8f, 1, 3e-8f, 3e-8f};
    double v, b;
    int i, exact = 1;

    /* nearest: one term of weight 1, compared exactly */
    for (i = 0; i < 8; ++i) {
        b = model_bound(CLRS_MODE_NEAREST, CLRS_COORD_HALF_PIXEL, 0, 0, 4, x4, 8,
                        i, &v);
        exact &= b == 0;
    }
    tap_ok(exact, "17: nearest 4 -> 8: every bound 0 (exact)");
    /* align_corners 2 -> 3, output 1: 0.5 * 1 + 0.5 * 2, weights powers
     * of two: one rounding of the sum, (k - 1) M = 1.5 */
    b = model_bound(CLRS_MODE_LINEAR, CLRS_COORD_ALIGN_CORNERS, 0, 0, 2, x2,
                    3, 1, &v);
    tap_ok(v == 1.5 && b == 1.5 * u,
           "17: linear 2 -> 3 [1, 2], output 1: 1.5 within 1.5 u (%.17g, "
           "%.3g u)",
           v, b / u);
    /* align_corners 2 -> 4 in exact arithmetic, output 1: 2/3 * 1 +
     * 1/3 * 2; each weight is rounded to float and its product rounded:
     * (k - 1) M + 2 M = 3 M, M = 4/3 */
    b = model_bound(CLRS_MODE_LINEAR, CLRS_COORD_ALIGN_CORNERS, 1, 0, 2, x2,
                    4, 1, &v);
    tap_ok(fabs(b - 4 * u) <= 1e-15 * u,
           "17: linear 2 -> 4 [1, 2], output 1: within 3 M = 4 u (%.17g u)",
           b / u);
    /* a sum that cancels keeps the error of its terms: 0.5 from terms of
     * 5000 and -4999.5 */
    b = model_bound(CLRS_MODE_LINEAR, CLRS_COORD_ALIGN_CORNERS, 0, 0, 2,
                    cancel, 3, 1, &v);
    tap_ok(v == 0.5 && b == 9999.5 * u,
           "17: linear 2 -> 3 [10000, -9999], output 1: 0.5 within 9999.5 u");
    tap_ok(clrs_reference_agrees(CLRS_F32, 0.5 + 5e-4, v, b) &&
               !clrs_reference_agrees(CLRS_F32, 0.5 + 1e-3, v, b),
           "17: ... so 0.5005 agrees, 0.501 does not");
    /* nearest backward 2 <- 6: dx[0] = 1 + 3e-8 + 3e-8, three terms of
     * weight 1: a float sum is exact only when its terms are */
    b = model_bound(CLRS_MODE_NEAREST, CLRS_COORD_HALF_PIXEL, 0, 1, 2, dy, 6, 0,
                    &v);
    tap_ok(v == (double)(float)(1 + 2 * (double)3e-8f) &&
               fabs(b - 2 * (1 + 2 * (double)3e-8f) * u) <= 1e-12 * u,
           "17: nearest backward [1, 3e-8, 3e-8, ...]: dx[0] %.9g within "
           "2 M u",
           v);
    tap_ok(clrs_reference_agrees(CLRS_F32, 1, v, b),
           "17: ... and a float sum's 1 agrees with it");

    /* the decision */
    tap_ok(clrs_reference_agrees(CLRS_F32, NAN, NAN, 0) &&
               !clrs_reference_agrees(CLRS_F32, 1, NAN, 1) &&
               !clrs_reference_agrees(CLRS_F32, NAN, 1, 1),
           "17: NaN agrees with NaN only");
    tap_ok(clrs_reference_agrees(CLRS_F32, INFINITY, INFINITY, 0) &&
               !clrs_reference_agrees(CLRS_F32, INFINITY, 3e38, 1e30),
           "17: an infinity agrees with itself only, under a finite bound");
    tap_ok(!clrs_reference_agrees(CLRS_F32, 1 + 0x1p-23, 1, 0) &&
               clrs_reference_agrees(CLRS_F32, 1 + 0x1p-23, 1, 0x1p-60) &&
               !clrs_reference_agrees(CLRS_F32, 1 + 0x1p-22, 1, 0x1p-60),
           "17: bound 0 is exact; any other adds one f32 spacing");
    tap_ok(clrs_reference_agrees(CLRS_F16, 1 + 0x1p-10, 1, 1e-9) &&
               !clrs_reference_agrees(CLRS_F16, 1 + 0x1p-9, 1, 1e-9) &&
               clrs_reference_agrees(CLRS_BF16, 1 + 0x1p-7, 1, 1e-9) &&
               !clrs_reference_agrees(CLRS_BF16, 1 + 0x1p-6, 1, 1e-9),
           "17: f16 and bf16 spacings at 1: 2^-10, 2^-7");
    tap_ok(clrs_reference_agrees(CLRS_S32, 46032552, 46032573, 30) &&
               !clrs_reference_agrees(CLRS_S32, 46032552, 46032573, 10) &&
               clrs_reference_agrees(CLRS_S8, 3, 2, 0.25) &&
               !clrs_reference_agrees(CLRS_S8, 3, 2, 0) &&
               !clrs_reference_agrees(CLRS_S8, 4, 2, 0.25),
           "17: integers: within the bound and one unit (either neighbour "
           "of a rounded float), exact at bound 0");
}

/* 18. Average pooling's divisor: window 7 stride 3, no padding, ceil
 * mode on 1..9 (O = 2): the last window [3, 10) runs one past the input;
 * the window rule divides 39 by 7, the clipped rule (PyTorch, ONNX) by
 * 6; an override of 3 divides every sum by 3, forward and backward. */
static void case18(void)
{
    static const double x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    static const double wwin[2] = {4, 39.0 / 7}, wclip[2] = {4, 6.5};
    static const double q[4] = {1, 2, 3, 4}, wq[1] = {10.0 / 3};
    static const double dq[1] = {6}, wdq[4] = {2, 2, 2, 2};
    const int64_t win = 7, stride = 3, zero = 0, w2[2] = {2, 2};
    const int64_t zz[2] = {0, 0};
    double y[2], y1[1], dx[4];
    int rule;
    for (rule = 0; rule < 3; ++rule) {
        clrs_resample_desc *op = mkop(CLRS_MODE_AVG_INCLUDE_PADDING);
        clrs_resample_desc_set_window(op, 1, &win);
        clrs_resample_desc_set_stride(op, 1, &stride);
        clrs_resample_desc_set_padding_sizes(op, 1, &zero, &zero);
        if (rule == 1)
            clrs_resample_desc_set_divisor(op, CLRS_DIVISOR_CLIPPED);
        if (rule == 2) /* the PyTorch preset clips */
            clrs_resample_desc_set_vendor(op, CLRS_VENDOR_PYTORCH);
        tap_ok(fwd(op, 9, 0, x, 2, 0, y) == CLRS_SUCCESS,
               "18: avg include window 7 stride 3 ceil on 1..9 runs");
        check(rule == 0   ? "18: window rule -> [4, 39/7]"
              : rule == 1 ? "18: clipped rule -> [4, 6.5]"
                          : "18: PyTorch preset -> [4, 6.5]",
              y, rule ? wclip : wwin, 2, 1e-15);
        clrs_resample_desc_destroy(op);
    }
    for (rule = 0; rule < 2; ++rule) {
        clrs_resample_desc *op = mkop(rule ? CLRS_MODE_AVG_EXCLUDE_PADDING
                                           : CLRS_MODE_AVG_INCLUDE_PADDING);
        clrs_resample_desc_set_window(op, 2, w2);
        clrs_resample_desc_set_stride(op, 2, w2);
        clrs_resample_desc_set_padding_sizes(op, 2, zz, zz);
        clrs_resample_desc_set_divisor_override(op, 3);
        tap_ok(fwd(op, 2, 2, q, 1, 1, y1) == CLRS_SUCCESS &&
                   bwd(op, 2, 2, dx, 1, 1, dq) == CLRS_SUCCESS,
               "18: %s 2x2 with divisor override 3 runs",
               rule ? "avg exclude" : "avg include");
        check("18: [[1,2],[3,4]] -> 10/3", y1, wq, 1, 1e-15);
        check("18: gradient 6 -> 2 to each pixel", dx, wdq, 4, 1e-15);
        clrs_resample_desc_destroy(op);
    }
    {
        clrs_resample_desc *op = mkop(CLRS_MODE_AVG_INCLUDE_PADDING);
        tap_ok(clrs_resample_desc_set_divisor_override(op, -1) ==
                       CLRS_ERR_INVALID_VALUE &&
                   clrs_resample_desc_set_divisor_override(op, NAN) ==
                       CLRS_ERR_INVALID_VALUE &&
                   clrs_resample_desc_set_divisor(op, (clrs_divisor)7) ==
                       CLRS_ERR_INVALID_ENUM,
               "18: a negative or NaN override and an unknown rule are "
               "refused");
        clrs_resample_desc_destroy(op);
        op = mkop(CLRS_MODE_LINEAR);
        clrs_resample_desc_set_divisor_override(op, 3);
        tap_ok(fwd(op, 2, 0, q, 2, 0, y) == CLRS_ERR_INVALID_COMBINATION,
               "18: an override on linear mode: CLRS_ERR_INVALID_COMBINATION");
        clrs_resample_desc_destroy(op);
    }
}

/* 20. Adaptive average pooling (PyTorch adaptive_avg_pool1d, interpolate
 * "area"): 5 -> 3 on [0, 1, 2, 3, 4] averages [0, 2), [1, 4), [3, 5):
 * [0.5, 2, 3.5]; backward sends dy[o] / window to each pixel: [1, 1, 1]
 * -> [1/2, 1/2 + 1/3, 1/3, 1/3 + 1/2, 1/2]. */
static void case20(void)
{
    static const double x[5] = {0, 1, 2, 3, 4}, want[3] = {0.5, 2, 3.5};
    static const double dy[3] = {1, 1, 1};
    static const double wdx[5] = {0.5, 5.0 / 6, 1.0 / 3, 5.0 / 6, 0.5};
    double y[3], dx[5];
    clrs_resample_desc *op = mkop(CLRS_MODE_AVG_ADAPTIVE);
    tap_ok(fwd(op, 5, 0, x, 3, 0, y) == CLRS_SUCCESS,
           "20: adaptive average 5 -> 3 runs");
    check("20: [0..4] -> [0.5, 2, 3.5]", y, want, 3, 1e-15);
    tap_ok(bwd(op, 5, 0, dx, 3, 0, dy) == CLRS_SUCCESS,
           "20: adaptive average backward runs");
    check("20: gradient [1, 1, 1] -> [1/2, 5/6, 1/3, 5/6, 1/2]", dx, wdx, 5,
          1e-15);
    clrs_resample_desc_destroy(op);
}

/* 21. f64 tensors evaluate the float order, filter widths and windows in
 * double, as PyTorch does for double tensors. Average pooling of [1, 2,
 * 3, 4] with window and stride 2/3: output 1 covers [2/3, 4/3), 1.5 (the
 * float steps gave 1.500000045). PyTorch's antialiased linear 20 -> 3 on
 * x_i = i^2 / 7 (its algorithm in double: centre (o + 0.5) 20/3, support
 * 20/3, weights 1 - |i - centre + 0.5| 3/20, normalised):
 * [2.4621489621489627, 13.951127819548871, 35.172771672771674]. */
static void case21(void)
{
    static const double x4[4] = {1, 2, 3, 4};
    static const double aa[3] = {2.4621489621489627, 13.951127819548871,
                                 35.172771672771674};
    const clrs_fraction w = {2, 3}, zero = {0, 1};
    double y[6], x20[20], y3[3];
    clrs_resample_desc *op = mkop(CLRS_MODE_AVG_EXCLUDE_PADDING);
    int i;
    clrs_resample_desc_set_window_fraction(op, 1, &w);
    clrs_resample_desc_set_stride_fraction(op, 1, &w);
    clrs_resample_desc_set_padding_sizes_fraction(op, 1, &zero, &zero);
    tap_ok(fwd(op, 4, 0, x4, 6, 0, y) == CLRS_SUCCESS,
           "21: f64 average window 2/3 stride 2/3 runs");
    check("21: f64 window [2/3, 4/3) of [1, 2, 3, 4] -> 1.5", y + 1,
          (const double[]){1.5}, 1, 1e-15);
    clrs_resample_desc_destroy(op);
    for (i = 0; i < 20; ++i)
        x20[i] = (double)(i * i) / 7;
    op = mkop(CLRS_MODE_LINEAR);
    clrs_resample_desc_set_vendor(op, CLRS_VENDOR_PYTORCH);
    clrs_resample_desc_set_antialias(op, 1);
    tap_ok(fwd(op, 20, 0, x20, 3, 0, y3) == CLRS_SUCCESS,
           "21: f64 PyTorch antialiased linear 20 -> 3 runs");
    check("21: ... matches PyTorch's double algorithm to 1e-12", y3, aa, 3,
          1e-12);
    clrs_resample_desc_destroy(op);
}

/* 22. Dilated pooling: 0..9, window 3 dilation 2 (taps x, x + 2, x + 4),
 * stride 1: O = 10 - 4 = 6 (clrs_resample_desc_output_dims); max [4, 5,
 * 6, 7, 8, 9] at window index 2, average [2, 3, 4, 5, 6, 7]; backward of
 * the average sends 1/3 to each tap. A fractional window or linear mode
 * with dilation is refused. */
static void case22(void)
{
    double x[10], y[6], dx[10], dy[6];
    static const double wmax[6] = {4, 5, 6, 7, 8, 9};
    static const double wavg[6] = {2, 3, 4, 5, 6, 7};
    static const double wdx[10] = {1.0 / 3, 1.0 / 3, 2.0 / 3, 2.0 / 3, 1,
                                   1,       2.0 / 3, 2.0 / 3, 1.0 / 3, 1.0 / 3};
    const int64_t win = 3, dil = 2;
    int64_t dims[3] = {1, 1, 10};
    int i, ok = 1;
    clrs_resample_desc *op;
    clrs_tensor_desc *s = mk(CLRS_F64, 10, 0), *d = mk(CLRS_F64, 6, 0);
    clrs_tensor_desc *it = mk(CLRS_S8, 6, 0), *s3 = NULL;
    clrs_host_args args;
    int8_t idx8[6];
    for (i = 0; i < 10; ++i)
        x[i] = i;
    for (i = 0; i < 6; ++i)
        dy[i] = 1;
    op = mkop(CLRS_MODE_MAX);
    clrs_resample_desc_set_window(op, 1, &win);
    clrs_resample_desc_set_dilation(op, 1, &dil);
    clrs_tensor_desc_create(&s3, CLRS_F32, 3, dims, NULL);
    if (clrs_resample_desc_output_dims(op, s3, 0, dims) != CLRS_SUCCESS)
        dims[2] = -1;
    tap_ok(dims[2] == 6, "22: window 3 dilation 2 on 10: O = 6 (got %lld)",
           (long long)dims[2]);
    memset(&args, 0, sizeof args);
    fill(y, 6, POISON);
    args.src = x;
    args.dst = y;
    args.index = idx8;
    tap_ok(clrs_reference_forward(op, s, d, it, &args) == CLRS_SUCCESS,
           "22: dilated max runs");
    check("22: dilated max -> [4, 5, 6, 7, 8, 9]", y, wmax, 6, 0);
    for (i = 0; i < 6; ++i)
        ok &= idx8[i] == 2;
    tap_ok(ok, "22: ... each at window index 2 (the tap x + 4)");
    clrs_resample_desc_destroy(op);
    op = mkop(CLRS_MODE_AVG_INCLUDE_PADDING);
    clrs_resample_desc_set_window(op, 1, &win);
    clrs_resample_desc_set_dilation(op, 1, &dil);
    tap_ok(fwd(op, 10, 0, x, 6, 0, y) == CLRS_SUCCESS &&
               bwd(op, 10, 0, dx, 6, 0, dy) == CLRS_SUCCESS,
           "22: dilated average runs forward and backward");
    check("22: dilated average -> [2, 3, 4, 5, 6, 7]", y, wavg, 6, 1e-15);
    check("22: its gradient of ones -> taps' counts / 3", dx, wdx, 10, 1e-15);
    clrs_resample_desc_destroy(op);
    {
        const clrs_fraction fw = {5, 2};
        op = mkop(CLRS_MODE_AVG_INCLUDE_PADDING);
        clrs_resample_desc_set_window_fraction(op, 1, &fw);
        clrs_resample_desc_set_dilation(op, 1, &dil);
        tap_ok(fwd(op, 10, 0, x, 6, 0, y) == CLRS_ERR_INVALID_COMBINATION,
               "22: dilation with a fractional window: "
               "CLRS_ERR_INVALID_COMBINATION");
        clrs_resample_desc_destroy(op);
        op = mkop(CLRS_MODE_LINEAR);
        clrs_resample_desc_set_dilation(op, 1, &dil);
        tap_ok(fwd(op, 10, 0, x, 6, 0, y) == CLRS_ERR_INVALID_COMBINATION,
               "22: dilation on linear mode: CLRS_ERR_INVALID_COMBINATION");
        clrs_resample_desc_destroy(op);
    }
    clrs_tensor_desc_destroy(s);
    clrs_tensor_desc_destroy(d);
    clrs_tensor_desc_destroy(it);
    clrs_tensor_desc_destroy(s3);
}

/* 23. Integer gradients sum in float and round once, ties to even,
 * saturating: nearest 1 -> 3 with s8 dy [100, 100, 100] gives 300 -> 127;
 * u8 dy [200, 100] of 1 -> 2 gives 255; average window 2 of s8 dy [3]
 * sends 1.5 to each pixel -> 2 (even), and [5] 2.5 -> 2. */
static void case23(void)
{
    static const int64_t one = 1, three = 3, two = 2;
    const int8_t dy3[3] = {100, 100, 100}, dyw[1] = {3}, dyw5[1] = {5};
    const uint8_t dyu[2] = {200, 100};
    int8_t dx8[2] = {-99, -99}, dx1[1] = {-99};
    uint8_t dxu[1] = {0};
    clrs_tensor_desc *s1 = NULL, *d3 = NULL, *u1 = NULL, *u2 = NULL;
    clrs_tensor_desc *s2 = NULL, *o1 = NULL;
    clrs_resample_desc *op = mkop(CLRS_MODE_NEAREST);
    clrs_host_args a;
    int ok;
    clrs_tensor_desc_create(&s1, CLRS_S8, 1, &one, NULL);
    clrs_tensor_desc_create(&d3, CLRS_S8, 1, &three, NULL);
    clrs_tensor_desc_create(&u1, CLRS_U8, 1, &one, NULL);
    clrs_tensor_desc_create(&u2, CLRS_U8, 1, &two, NULL);
    clrs_tensor_desc_create(&s2, CLRS_S8, 1, &two, NULL);
    clrs_tensor_desc_create(&o1, CLRS_S8, 1, &one, NULL);
    memset(&a, 0, sizeof a);
    a.diff_dst = dy3;
    a.diff_src = dx1;
    ok = clrs_reference_backward(op, s1, d3, NULL, NULL, &a) == 0;
    tap_ok(ok && dx1[0] == 127,
           "23: s8 nearest gradient 100 + 100 + 100 saturates to 127 (got "
           "%d)",
           dx1[0]);
    a.diff_dst = dyu;
    a.diff_src = dxu;
    ok = clrs_reference_backward(op, u1, u2, NULL, NULL, &a) == 0;
    tap_ok(ok && dxu[0] == 255,
           "23: u8 nearest gradient 200 + 100 saturates to 255 (got %d)",
           dxu[0]);
    clrs_resample_desc_destroy(op);
    op = mkop(CLRS_MODE_AVG_INCLUDE_PADDING);
    clrs_resample_desc_set_window(op, 1, &two);
    clrs_resample_desc_set_stride(op, 1, &two);
    a.diff_dst = dyw;
    a.diff_src = dx8;
    ok = clrs_reference_backward(op, s2, o1, NULL, NULL, &a) == 0;
    tap_ok(ok && dx8[0] == 2 && dx8[1] == 2,
           "23: s8 average gradient 3 / 2 = 1.5 rounds to 2 (got %d %d)",
           dx8[0], dx8[1]);
    a.diff_dst = dyw5;
    ok = clrs_reference_backward(op, s2, o1, NULL, NULL, &a) == 0;
    tap_ok(ok && dx8[0] == 2 && dx8[1] == 2,
           "23: ... and 5 / 2 = 2.5 to 2, ties to even (got %d %d)", dx8[0],
           dx8[1]);
    clrs_resample_desc_destroy(op);
    clrs_tensor_desc_destroy(s1);
    clrs_tensor_desc_destroy(d3);
    clrs_tensor_desc_destroy(u1);
    clrs_tensor_desc_destroy(u2);
    clrs_tensor_desc_destroy(s2);
    clrs_tensor_desc_destroy(o1);
}

/* 24. The filters of CLRS_MODE_FILTER, half_pixel, 1-D. The values come
 * from the formulas of clrs_filter evaluated in double by a separate
 * Python script (weights K((i - x)/f) over |i - x| <= R f, restricted
 * to the input unless the ONNX rule says otherwise, normalised). */
static void filter_1d(clrs_filter filter, double p, double q, int aa, int onnx,
                      int n, const double *src, int m, const double *want,
                      const char *what)
{
    double y[16];
    clrs_resample_desc *op = mkop(CLRS_MODE_NEAREST);
    if (clrs_resample_desc_set_filter(op, filter, p, q) != CLRS_SUCCESS)
        tap_diag("set_filter: %s", clrs_last_error());
    clrs_resample_desc_set_antialias(op, aa);
    if (onnx)
        clrs_resample_desc_set_antialias_rule(op, CLRS_AA_ONNX);
    fwd(op, n, 0, src, m, 0, y);
    check(what, y, want, m, 1e-12);
    clrs_resample_desc_destroy(op);
}

static void case24(void)
{
    static const double ramp[] = {0, 1, 2, 3, 4, 5};
    static const double ends[] = {1, 0, 0, 0, 0, 0, 0, 2};
    static const double lz3[] = {0.37163814180929094, 2.5, 4.6283618581907096};
    static const double lz4[] = {
        -0.086568462749863781, 0.17788359284729263, 0.6949110297945954,
        1.2897926914903772,    1.7590744622437291,  2.2533684972435397,
        2.7466315027564603,    3.24092553775627,    3.7102073085096223,
        4.3050889702054054,    4.8221164071527074,  5.086568462749864};
    static const double lz2aa[] = {0.11953263194445134, 1.2854008781606852, 2.5,
                                   3.7145991218393148, 4.8804673680555481};
    static const double ham[] = {0.27727037360645768, 1.75, 3.25,
                                 4.7227296263935425};
    static const double mit[] = {0.65367754505601416, 2.5, 4.3463224549439854};
    static const double crom[] = {0.28802588996763667, 1.7090352220520668,
                                  3.2909647779479334, 4.7119741100323633};
    static const double keys[] = {-0.088235294117647065,
                                  0.16788321167883211,
                                  0.70992366412213737,
                                  1.25,
                                  1.75,
                                  2.25,
                                  2.75,
                                  3.25,
                                  3.75,
                                  4.2900763358778624,
                                  4.8321167883211675,
                                  5.0882352941176467};
    static const double gau[] = {0.29134544442723082, 0.028690712163689951,
                                 0.58269088885446174};
    static const double tri[] = {1.25, 3.75}, box[] = {1.0 / 3, 0, 2.0 / 3};
    static const double area_dn[] = {1.0 / 3, 5.0 / 3, 10.0 / 3, 14.0 / 3};
    static const double area_up[] = {0, 0.5, 1, 2, 2.5, 3};
    static const double dy[] = {1, 2};
    static const double tri_dx[] = {0.25, 0.375, 0.5, 0.625, 0.75, 0.5};
    const double nan = NAN;
    double dx[6];
    clrs_resample_desc *op = mkop(CLRS_MODE_FILTER);

    filter_1d(CLRS_FILTER_LANCZOS, nan, nan, 0, 0, 6, ramp, 3, lz3,
              "24: Lanczos-3 6 -> 3 restricted to the input");
    filter_1d(CLRS_FILTER_LANCZOS, 4, nan, 0, 1, 6, ramp, 12, lz4,
              "24: Lanczos-4 6 -> 12, ONNX rule: edge taps (OpenCV's)");
    filter_1d(CLRS_FILTER_LANCZOS, 2, nan, 1, 0, 6, ramp, 5, lz2aa,
              "24: Lanczos-2 antialiased 6 -> 5");
    filter_1d(CLRS_FILTER_HAMMING, nan, nan, 1, 0, 6, ramp, 4, ham,
              "24: Hamming antialiased 6 -> 4");
    filter_1d(CLRS_FILTER_MITCHELL, nan, nan, 1, 0, 6, ramp, 3, mit,
              "24: Mitchell B = C = 1/3 antialiased 6 -> 3");
    filter_1d(CLRS_FILTER_MITCHELL, 0, 0.5, 1, 0, 6, ramp, 4, crom,
              "24: Catmull-Rom (B = 0, C = 1/2) antialiased 6 -> 4");
    filter_1d(CLRS_FILTER_KEYS, nan, nan, 0, 0, 6, ramp, 12, keys,
              "24: Keys A = -0.5 6 -> 12");
    filter_1d(CLRS_FILTER_GAUSSIAN, nan, nan, 1, 0, 8, ends, 3, gau,
              "24: Gaussian s = 0.5 antialiased 8 -> 3");
    filter_1d(CLRS_FILTER_TRIANGLE, nan, nan, 1, 0, 6, ramp, 2, tri,
              "24: triangle antialiased 6 -> 2: weights 3:2:1 around x");
    filter_1d(CLRS_FILTER_BOX, nan, nan, 1, 0, 8, ends, 3, box,
              "24: box antialiased 8 -> 3: the mean of 3 pixels");
    filter_1d(CLRS_FILTER_AREA, nan, nan, 0, 0, 6, ramp, 4, area_dn,
              "24: area 6 -> 4: the covered part of each pixel");
    filter_1d(CLRS_FILTER_AREA, nan, nan, 0, 0, 4, ramp, 6, area_up,
              "24: area 4 -> 6 (OpenCV's INTER_AREA upscaling)");
    clrs_resample_desc_set_filter(op, CLRS_FILTER_TRIANGLE, nan, nan);
    clrs_resample_desc_set_antialias(op, 1);
    bwd(op, 6, 0, dx, 2, 0, dy);
    check("24: triangle antialiased 6 -> 2 backward of [1, 2]", dx, tri_dx, 6,
          1e-15);
    tap_ok(clrs_resample_desc_set_filter(op, CLRS_FILTER_TRIANGLE, 1, nan) ==
               CLRS_ERR_INVALID_VALUE,
           "24: a parameter the triangle filter has not is refused");
    tap_ok(clrs_resample_desc_set_filter(op, CLRS_FILTER_LANCZOS, 0, nan) ==
               CLRS_ERR_INVALID_VALUE,
           "24: Lanczos a = 0 is refused");
    tap_ok(clrs_resample_desc_set_filter(op, (clrs_filter)8, nan, nan) ==
               CLRS_ERR_INVALID_ENUM,
           "24: an unknown filter is refused");
    clrs_resample_desc_destroy(op);
}

/* 25. TensorFlow's ScaleAndTranslate, the triangle filter, [1, 2, 3, 4]
 * to 8 outputs with s = 1.5, t = 1: x + 0.5 = (o - 0.5) / 1.5; outputs
 * 0 and 7 sample outside [0, 4] and are 0 (no gradient either). */
static void case25(void)
{
    static const double src[] = {1, 2, 3, 4}, s[] = {1.5}, t[] = {1.0};
    static const double want[] = {0, 1, 1.5, 13.0 / 6, 17.0 / 6, 3.5, 4, 0};
    static const double dy[] = {1, 2, 3, 4, 5, 6, 7, 8};
    static const double wdx[] = {3.5, 17.0 / 3, 47.0 / 6, 10};
    const double nan = NAN;
    double y[8], dx[4];
    clrs_resample_desc *op = mkop(CLRS_MODE_FILTER);

    clrs_resample_desc_set_filter(op, CLRS_FILTER_TRIANGLE, nan, nan);
    if (clrs_resample_desc_set_scale_and_translate(op, 1, s, t) != CLRS_SUCCESS)
        tap_diag("set_scale_and_translate: %s", clrs_last_error());
    fwd(op, 4, 0, src, 8, 0, y);
    check("25: scale_and_translate triangle s = 1.5, t = 1", y, want, 8, 1e-12);
    bwd(op, 4, 0, dx, 8, 0, dy);
    check("25: its gradient", dx, wdx, 4, 1e-12);
    tap_ok(clrs_resample_desc_set_scale_and_translate(op, 1, s, &nan) ==
               CLRS_ERR_INVALID_VALUE,
           "25: a translation that is not finite is refused");
    clrs_resample_desc_destroy(op);
}

int main(void)
{
    case1();
    case2_3();
    case4_5_6();
    case7_8();
    case9();
    case10();
    case11();
    case12();
    case13();
    case14();
    case15();
    case16();
    case17();
    case18();
    case19();
    case20();
    case21();
    case22();
    case23();
    case24();
    case25();
    return tap_done();
}
