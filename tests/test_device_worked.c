/* Every worked case of clresample(3) with a forward part, on the OpenCL
 * device: f32 (and f64 where the device has it), dense and padded-permuted
 * strides, outputs poisoned and fenced by sentinel margins. */
#include "devutil.h"
#include "tap.h"
#include "tap_set.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define N_(a) ((int)(sizeof(a) / sizeof((a)[0])))

static td_env env;

/* One worked case: dense row-major values of src and of the wanted dst
 * (rank 1 or 2), and for max pooling the wanted index tensor. */
typedef struct wcase {
    const char *name;
    int rank;
    int64_t in[2], out[2];
    const double *src, *want;
    /* The precision want is written to: 0, bit exact in the tensor's
     * dtype (want must be representable); else relative, absolute where
     * |want| < 1e-5. The reference's output must match want so; the
     * device's must agree with the reference's under the error model. */
    double rtol;
    int has_index;
    const int64_t *want_index;
    int exact_at1; /* 1 + an element compared bit exact whatever rtol */
} wcase;

static int64_t count(int rank, const int64_t *d)
{
    return rank == 1 ? d[0] : d[0] * d[1];
}

static clrs_resample_desc *mkop(clrs_mode mode)
{
    clrs_resample_desc *op = NULL;
    if (clrs_resample_desc_create(&op, mode) != CLRS_SUCCESS)
        tap_diag("resample_desc_create: %s", clrs_last_error());
    return op;
}

/* The reference's value against a worked value written to rtol. */
static int as_written(clrs_dtype dt, double got, double want, double rtol)
{
    double err;
    if (rtol == 0) {
        double w = dt == CLRS_F32 ? (double)(float)want : want;
        return tap_same(got, w);
    }
    if (isnan(got) || isnan(want))
        return 0;
    err = fabs(got - want);
    return fabs(want) < 1e-5 ? err <= rtol : err <= rtol * fabs(want);
}

static clrs_tensor_desc *mkdesc(clrs_dtype dt, int rank, const int64_t *dims,
                                int padded, uint64_t salt)
{
    clrs_tensor_desc *d = NULL;
    clrs_status st;
    tu_rng r;
    tu_rng_seed(&r, tu_mix_seed(0xC0FFEE, salt));
    st = tu_make_desc(&d, &r, dt, rank, dims, padded ? TU_PADDED : TU_DENSE);
    if (st != CLRS_SUCCESS) {
        tap_diag("tensor descriptor: %s: %s", clrs_status_name(st),
                 clrs_last_error());
        return NULL;
    }
    return d;
}

/* Runs w on the device in one dtype and layout; one TAP line for the run
 * (plan, margins, poison, determinism) and one for the values. */
static void run_one(const clrs_resample_desc *op, const wcase *w,
                    clrs_dtype dt, int padded)
{
    clrs_tensor_desc *sd = NULL, *dd = NULL, *id = NULL;
    tu_buf sb, db, ib, rb, rib;
    td_result res;
    int64_t idx[CLRS_MAX_RANK];
    double *bound = NULL;
    int k, ok, bad = 0;
    clrs_dtype idt = CLRS_S8;
    char tag[64], s1[160], s2[160];

    memset(&sb, 0, sizeof sb);
    memset(&db, 0, sizeof db);
    memset(&ib, 0, sizeof ib);
    memset(&rb, 0, sizeof rb);
    memset(&rib, 0, sizeof rib);
    snprintf(tag, sizeof tag, "%s %s", clrs_dtype_name(dt),
             padded ? "padded" : "dense");
    sd = mkdesc(dt, w->rank, w->in, padded, 1);
    dd = mkdesc(dt, w->rank, w->out, padded, 2);
    if (w->has_index && op &&
        clrs_resample_desc_index_dtype(op, sd, &idt) != CLRS_SUCCESS) {
        tap_diag("index_dtype: %s", clrs_last_error());
        setup_ok = 0;
    }
    if (w->has_index)
        id = mkdesc(idt, w->rank, w->out, padded, 3);
    if (!op || !setup_ok || !sd || !dd || (w->has_index && !id) ||
        tu_buf_alloc(&sb, sd) || tu_buf_alloc(&db, dd) ||
        tu_buf_alloc(&rb, dd) ||
        (id && (tu_buf_alloc(&ib, id) || tu_buf_alloc(&rib, id)))) {
        tap_ok(0, "%s [%s]: setup", w->name, tag);
        goto out;
    }
    tu_desc_str(sd, s1, sizeof s1);
    tu_desc_str(dd, s2, sizeof s2);
    tap_diag("%s [%s]: src %s dst %s", w->name, tag, s1, s2);
    k = 0;
    if (tu_idx_first(w->rank, w->in, idx))
        do
            tu_set(&sb, idx, w->src[k++]);
        while (tu_idx_next(w->rank, w->in, idx));
    tu_buf_snapshot(&sb);

    {
        clrs_host_args ha;
        memset(&ha, 0, sizeof ha);
        ha.src = sb.data;
        ha.dst = rb.data;
        ha.index = id ? rib.data : NULL;
        bound = td_bound_alloc(&rb);
        if (!bound || clrs_reference_forward_bound(op, sd, dd, id, &ha,
                                                   bound) != CLRS_SUCCESS) {
            tap_ok(0, "%s [%s]: reference: %s", w->name, tag,
                   clrs_last_error());
            goto out;
        }
    }
    ok = td_forward(&env, op, &sb, &db, id ? &ib : NULL, NULL, NULL, &res);
    tap_ok(ok, "%s [%s]: runs, writes every element and nothing else, "
           "twice the same",
           w->name, tag);
    if (res.plan_status != CLRS_SUCCESS || res.exec_status != CLRS_SUCCESS) {
        tap_ok(0, "%s [%s]: values (no output)", w->name, tag);
        goto out;
    }
    k = 0;
    if (tu_idx_first(w->rank, w->out, idx))
        do {
            double ref = tu_get(&rb, idx);
            double tol = k + 1 == w->exact_at1 ? 0 : w->rtol;
            if (!as_written(dt, ref, w->want[k], tol)) {
                tap_diag("  reference dst[%d] = %.17g, want %.17g", k, ref,
                         w->want[k]);
                ++bad;
            }
            if (id) {
                double gi = tu_get(&ib, idx);
                if (gi != (double)w->want_index[k]) {
                    tap_diag("  index[%d] = %.17g, want %" PRId64, k, gi,
                             w->want_index[k]);
                    ++bad;
                }
            }
            ++k;
        } while (tu_idx_next(w->rank, w->out, idx));
    bad += (int)td_compare(&db, &rb, bound, "dst", NULL);
    tap_ok(bad == 0, "%s [%s]: values%s%s", w->name, tag,
           w->rtol == 0 ? " exact" : " as written, the device's within the "
                                     "error model",
           id ? " and index tensor" : "");
out:
    free(bound);
    tu_buf_free(&sb);
    tu_buf_free(&db);
    tu_buf_free(&ib);
    tu_buf_free(&rb);
    tu_buf_free(&rib);
    clrs_tensor_desc_destroy(sd);
    clrs_tensor_desc_destroy(dd);
    clrs_tensor_desc_destroy(id);
}

/* Every dtype the device has, dense and padded. f64 keeps the f32
 * tolerance where the inexactness comes from the f32 coordinates. */
static void run(clrs_resample_desc *op, const wcase *w)
{
    int padded;
    if (count(w->rank, w->in) < 1 || count(w->rank, w->out) > 16)
        tap_ok(0, "%s: bad case table", w->name);
    for (padded = 0; padded < 2; ++padded) {
        run_one(op, w, CLRS_F32, padded);
        if (env.info.has_fp64)
            run_one(op, w, CLRS_F64, padded);
    }
    clrs_resample_desc_destroy(op);
    setup_ok = 1;
}

/* 1. DML nearest floor, offsets 0.5 / -0.5, scales H 0.5, W 1.5. */
static void case1(void)
{
    static const double src[] = {1, 2, 3, 4}, want[] = {1, 1, 2};
    const float in_off[] = {0.5f, 0.5f}, out_off[] = {-0.5f, -0.5f};
    const double scales[] = {0.5, 1.5};
    wcase w = {"1: DML nearest floor [[1,2],[3,4]] -> [[1,1,2]]",
               2, {2, 2}, {1, 3}, src, want, 0, 0, NULL, 0};
    clrs_resample_desc *op = mkop(CLRS_MODE_NEAREST);
    SET(clrs_resample_desc_set_rounding(op, CLRS_ROUND_FLOOR));
    SET(clrs_resample_desc_set_pixel_offsets(op, 2, in_off, out_off));
    SET(clrs_resample_desc_set_scales(op, 2, scales));
    run(op, &w);
}

static void nearest_1d(int64_t n, const double *src, int64_t m,
                       clrs_coord coord, clrs_rounding rounding,
                       const double *want, const char *name)
{
    wcase w = {NULL, 1, {0, 0}, {0, 0}, NULL, NULL, 0, 0, NULL, 0};
    clrs_resample_desc *op = mkop(CLRS_MODE_NEAREST);
    w.name = name;
    w.in[0] = n;
    w.out[0] = m;
    w.src = src;
    w.want = want;
    SET(clrs_resample_desc_set_coord(op, coord));
    SET(clrs_resample_desc_set_rounding(op, rounding));
    run(op, &w);
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

static void linear_1d(int64_t n, const double *src, int64_t m,
                      clrs_coord coord, const double *want, double rtol,
                      const char *name)
{
    wcase w = {NULL, 1, {0, 0}, {0, 0}, NULL, NULL, 0, 0, NULL, 0};
    clrs_resample_desc *op = mkop(CLRS_MODE_LINEAR);
    w.name = name;
    w.in[0] = n;
    w.out[0] = m;
    w.src = src;
    w.want = want;
    w.rtol = rtol;
    SET(clrs_resample_desc_set_coord(op, coord));
    run(op, &w);
}

/* 4, 5, 6. Linear 2 -> 4 under three coordinate options. */
static void case4_5_6(void)
{
    static const double src[] = {1, 2};
    static const double w4[] = {1, 1.25, 1.75, 2};
    static const double w5[] = {1, 4.0 / 3, 5.0 / 3, 2};
    static const double w6[] = {1, 1.5, 2, 2};
    linear_1d(2, src, 4, CLRS_COORD_HALF_PIXEL, w4, 0,
              "4: linear half_pixel [1,2] -> [1,1.25,1.75,2]");
    /* x = 1/3 in float: 4/3 and 5/3 hold to float precision only. */
    linear_1d(2, src, 4, CLRS_COORD_ALIGN_CORNERS, w5, 2e-6,
              "5: linear align_corners [1,2] -> [1,4/3,5/3,2]");
    linear_1d(2, src, 4, CLRS_COORD_ASYMMETRIC, w6, 0,
              "6: linear asymmetric [1,2] -> [1,1.5,2,2]");
}

/* 7 and 8. Cubic over [1,2,4,8], 4 -> 8: output 3 of asymmetric is
 * x = 1.5, output 0 of half_pixel is x = -0.25. The worked output is
 * the manual's value (bit exact when that value is exact in f32: its weights
 * are short binary fractions); the other outputs come from the CPU
 * reference, within tolerance. */
static void cubic_case(clrs_coord coord, double A, int exclude, int o,
                       double want_o, double rtol, const char *name)
{
    static const double src[] = {1, 2, 4, 8};
    double want[8];
    clrs_tensor_desc *s = NULL, *d = NULL;
    const int64_t in = 4, out = 8;
    clrs_host_args ha;
    wcase w = {NULL, 1, {4, 0}, {8, 0}, src, NULL, 0, 0, NULL, 0};
    clrs_resample_desc *op = mkop(CLRS_MODE_CUBIC);
    SET(clrs_resample_desc_set_coord(op, coord));
    SET(clrs_resample_desc_set_cubic_a(op, A));
    SET(clrs_resample_desc_set_exclude_outside(op, exclude));
    memset(&ha, 0, sizeof ha);
    memset(want, 0, sizeof want);
    ha.src = src;
    ha.dst = want;
    if (clrs_tensor_desc_create(&s, CLRS_F64, 1, &in, NULL) ||
        clrs_tensor_desc_create(&d, CLRS_F64, 1, &out, NULL) ||
        clrs_reference_forward(op, s, d, NULL, &ha) != CLRS_SUCCESS) {
        tap_diag("reference: %s", clrs_last_error());
        setup_ok = 0;
    }
    clrs_tensor_desc_destroy(s);
    clrs_tensor_desc_destroy(d);
    /* The reference's other outputs are not exact in f32: tolerance for
     * them, the worked output itself exact when the manual's value is. */
    want[o] = want_o;
    w.name = name;
    w.want = want;
    w.rtol = 2e-6;
    w.exact_at1 = rtol == 0 ? o + 1 : 0;
    run(op, &w);
}

static void case7_8(void)
{
    cubic_case(CLRS_COORD_ASYMMETRIC, -0.75, 0, 3, 2.71875, 0,
               "7: cubic x=1.5 A=-0.75 -> 2.71875");
    cubic_case(CLRS_COORD_ASYMMETRIC, -0.5, 0, 3, 2.8125, 0,
               "7: cubic x=1.5 A=-0.5 -> 2.8125");
    cubic_case(CLRS_COORD_HALF_PIXEL, -0.75, 0, 0, 0.89453125, 0,
               "8: cubic half_pixel x=-0.25 edge -> 0.89453125");
    cubic_case(CLRS_COORD_HALF_PIXEL, -0.75, 1, 0, 19.0 / 22, 2e-6,
               "8: cubic half_pixel x=-0.25 exclude_outside -> 19/22");
}

/* 9. tf_crop_and_resize with a box reaching past the input. */
static void case9(void)
{
    static const double src[] = {0, 10, 20, 30, 40}, want[] = {5, 25, -7};
    const double st[] = {0.125}, en[] = {1.125};
    wcase w = {"9: tf_crop_and_resize roi [0.125,1.125] -> "
               "[5,25,extrapolation -7]",
               1, {5, 0}, {3, 0}, src, want, 0, 0, NULL, 0};
    clrs_resample_desc *op = mkop(CLRS_MODE_LINEAR);
    SET(clrs_resample_desc_set_coord(op, CLRS_COORD_TF_CROP_AND_RESIZE));
    SET(clrs_resample_desc_set_roi(op, 1, st, en));
    SET(clrs_resample_desc_set_extrapolation_value(op, -7));
    run(op, &w);
}

/* 10. DML scale 2 with O = 3 != 2 * I. */
static void case10(void)
{
    static const double src[] = {1, 2}, want[] = {1, 1.25, 1.75};
    const float in_off[] = {0.5f}, out_off[] = {-0.5f};
    const double scale[] = {2};
    wcase w = {"10: DML linear scale 2, O = 3 -> [1,1.25,1.75]",
               1, {2, 0}, {3, 0}, src, want, 0, 0, NULL, 0};
    clrs_resample_desc *op = mkop(CLRS_MODE_LINEAR);
    SET(clrs_resample_desc_set_pixel_offsets(op, 1, in_off, out_off));
    SET(clrs_resample_desc_set_scales(op, 1, scale));
    run(op, &w);
}

/* 11. Average pooling with padding, both divisors. */
static void case11(void)
{
    static const double src[] = {1, 2, 3, 4};
    static const double inc[] = {.25, .75, .5, 1, 2.5, 1.5, .75, 1.75, 1};
    static const double exc[] = {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4};
    const int64_t win[] = {2, 2}, stride[] = {1, 1}, pad[] = {1, 1};
    int m;
    for (m = 0; m < 2; ++m) {
        wcase w = {NULL, 2, {2, 2}, {3, 3}, src, NULL, 0, 0, NULL, 0};
        clrs_resample_desc *op = mkop(m ? CLRS_MODE_AVG_EXCLUDE_PADDING
                                        : CLRS_MODE_AVG_INCLUDE_PADDING);
        w.name = m ? "11: avg exclude_padding window 2 stride 1 pad 1"
                   : "11: avg include_padding window 2 stride 1 pad 1";
        w.want = m ? exc : inc;
        SET(clrs_resample_desc_set_window(op, 2, win));
        SET(clrs_resample_desc_set_stride(op, 2, stride));
        SET(clrs_resample_desc_set_padding_sizes(op, 2, pad, pad));
        run(op, &w);
    }
}

/* 12. Pool sizes floor and ceil, and the max of each. */
static void case12(void)
{
    static const double src[] = {1, 5, 2, 4, 3}, want[] = {5, 4, 3};
    const clrs_fraction fw = {2, 1}, fs = {2, 1}, z = {0, 1};
    const int64_t win[] = {2}, stride[] = {2};
    int ceil_mode;
    for (ceil_mode = 0; ceil_mode < 2; ++ceil_mode) {
        int64_t o = 0;
        wcase w = {NULL, 1, {5, 0}, {0, 0}, src, want, 0, 0, NULL, 0};
        clrs_resample_desc *op = mkop(CLRS_MODE_MAX);
        SET(clrs_pool_output_size(5, fw, fs, z, z, ceil_mode, &o));
        tap_ok(o == (ceil_mode ? 3 : 2),
               "12: I=5 window 2 stride 2, %s -> O = %d (got %" PRId64 ")",
               ceil_mode ? "ceil" : "floor", ceil_mode ? 3 : 2, o);
        w.out[0] = ceil_mode ? 3 : 2;
        w.name = ceil_mode ? "12: max of [1,5,2,4,3], ceil -> [5,4,3]"
                           : "12: max of [1,5,2,4,3], floor -> [5,4]";
        SET(clrs_resample_desc_set_window(op, 1, win));
        SET(clrs_resample_desc_set_stride(op, 1, stride));
        SET(clrs_resample_desc_set_inference(op, 1));
        run(op, &w);
    }
}

/* 13. Max pool tie: the first maximum in row-major window order wins;
 * index tensor in both formats. */
static void case13(void)
{
    static const double src[] = {0, 1, 2, 0, /* */ 1, 0, 0, 0,
                                 4, 5, 1, 3, /* */ 6, 1, 3, 2};
    static const double want[] = {1, 2, 6, 3};
    static const int64_t win_idx[] = {1, 0, 2, 1}, plane_idx[] = {1, 2, 12,
                                                                   11};
    const int64_t win[] = {2, 2}, stride[] = {2, 2};
    int f;
    for (f = 0; f < 2; ++f) {
        wcase w = {NULL, 2, {4, 4}, {2, 2}, src, want, 0, 1, NULL, 0};
        clrs_resample_desc *op = mkop(CLRS_MODE_MAX);
        w.name = f ? "13: max pool tie, plane index (1,1) -> 11"
                   : "13: max pool tie, window index (1,1) -> 1";
        w.want_index = f ? plane_idx : win_idx;
        SET(clrs_resample_desc_set_window(op, 2, win));
        SET(clrs_resample_desc_set_stride(op, 2, stride));
        SET(clrs_resample_desc_set_index_format(
            op, f ? CLRS_INDEX_PLANE : CLRS_INDEX_WINDOW));
        run(op, &w);
    }
}

/* 14. Downsampling with and without antialias. */
static void case14(void)
{
    static const double src[] = {0, 1, 2, 3}, plain[] = {0.5, 2.5};
    static const double aa[] = {5.0 / 7, 16.0 / 7};
    int a;
    for (a = 0; a < 2; ++a) {
        wcase w = {NULL, 1, {4, 0}, {2, 0}, src, NULL, 0, 0, NULL, 0};
        clrs_resample_desc *op = mkop(CLRS_MODE_LINEAR);
        w.name = a ? "14: linear 4->2 antialias -> [5/7,16/7]"
                   : "14: linear 4->2 half_pixel -> [0.5,2.5]";
        w.want = a ? aa : plain;
        w.rtol = a ? 2e-6 : 0;
        if (a)
            SET(clrs_resample_desc_set_antialias(op, 1));
        run(op, &w);
    }
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
    int s;
    for (s = 0; s < 2; ++s) {
        wcase w = {NULL, 1, {5, 0}, {7, 0}, src, NULL, 2e-6, 0, NULL, 0};
        clrs_resample_desc *op = mkop(CLRS_MODE_LINEAR);
        w.name = s ? "15: [0..4] -> 7 linear, scale 1.5"
                   : "15: [0..4] -> 7 linear, scale from sizes 7/5";
        w.want = s ? w15 : w75;
        if (s)
            SET(clrs_resample_desc_set_scales(op, 1, scale));
        run(op, &w);
    }
}

/* ---- the checker itself ----------------------------------------------
 * Without any kernel: images written straight into the device buffer
 * stand for what a kernel might leave behind, and the checks must see
 * every kind of damage (so a passing device test means something). */

static int put(td_buf *d, const unsigned char *img)
{
    return clEnqueueWriteBuffer(env.queue, d->parent, CL_TRUE, 0, d->total,
                                img, 0, NULL, NULL) == CL_SUCCESS
               ? 0
               : -1;
}

static void self_test(void)
{
    /* 2 x 3 f32 with row stride 5: elements 3 and 4 are gaps. */
    const int64_t dims[2] = {2, 3}, strides[2] = {5, 1};
    clrs_tensor_desc *desc = NULL;
    tu_buf h, expect;
    td_buf d;
    unsigned char *img = NULL;
    int64_t idx[CLRS_MAX_RANK];
    const float one = 1.0f;
    int ok;

    memset(&h, 0, sizeof h);
    memset(&expect, 0, sizeof expect);
    memset(&d, 0, sizeof d);
    if (clrs_tensor_desc_create(&desc, CLRS_F32, 2, dims, strides) ||
        tu_buf_alloc(&h, desc) || tu_buf_alloc(&expect, desc) ||
        td_buf_create(&env, &d, &h) || !(img = malloc(d.total))) {
        tap_ok(0, "checker self-test: setup");
        goto out;
    }
    tap_diag("checker self-test: head margin %zu bytes, tail %d", d.head,
             TD_MARGIN);

    ok = td_write_poison(&env, &d, 0) == 0 && td_read(&env, &d, NULL) == 0;
    tap_ok(ok && td_check_output(&d, 0, NULL, "self-test") == 6,
           "checker: 6 elements left as poison are 6 unwritten elements");

    /* A "kernel" that writes every element and nothing else. */
    memcpy(img, d.sent, d.total);
    if (tu_idx_first(2, dims, idx))
        do
            memcpy(img + d.head + 4 * (size_t)tu_buf_offset(&h, idx), &one,
                   4);
        while (tu_idx_next(2, dims, idx));
    ok = put(&d, img) == 0 && td_read(&env, &d, NULL) == 0;
    tap_ok(ok && td_check_output(&d, 0, NULL, "self-test") == 0,
           "checker: a complete, in-bounds output passes");

    img[d.head + d.span + 17] ^= 0x40; /* past the tensor */
    ok = put(&d, img) == 0 && td_read(&env, &d, NULL) == 0;
    tap_ok(ok && td_check_output(&d, 0, NULL, "self-test (expected)") == 1,
           "checker: a byte written after the tensor is caught");
    img[d.head + d.span + 17] ^= 0x40;

    img[d.head - 1] ^= 0x01; /* just before the tensor */
    ok = put(&d, img) == 0 && td_read(&env, &d, NULL) == 0;
    tap_ok(ok && td_check_output(&d, 0, NULL, "self-test (expected)") == 1,
           "checker: a byte written before the tensor is caught");
    img[d.head - 1] ^= 0x01;

    memcpy(img + d.head + 4 * 3, &one, 4); /* the gap after row 0 */
    ok = put(&d, img) == 0 && td_read(&env, &d, NULL) == 0;
    tap_ok(ok && td_check_output(&d, 0, NULL, "self-test (expected)") == 4,
           "checker: a gap element written is caught");
    memcpy(img + d.head + 4 * 3, d.sent + d.head + 4 * 3, 4);

    /* One element left as poison that the reference also holds: not
     * counted in that run, counted with the other pattern. */
    memcpy(img + d.head + 4 * 6, d.sent + d.head + 4 * 6, 4);
    memset(expect.data, 0, expect.bytes);
    td_poison_elem(expect.data + 4 * 6, CLRS_F32, 0);
    ok = put(&d, img) == 0 && td_read(&env, &d, NULL) == 0;
    tap_ok(ok && td_check_output(&d, 0, &expect, "self-test") == 0 &&
               td_check_output(&d, 0, NULL, "self-test (expected)") == 1,
           "checker: a value equal to the poison is left to the other run");
    ok = td_write_poison(&env, &d, 1) == 0 && td_read(&env, &d, NULL) == 0;
    tap_ok(ok && td_check_output(&d, 1, &expect, "self-test (expected)") == 6,
           "checker: poison pattern 1 is recognised");

    /* An input the kernel must not touch. */
    tu_fill_const(&h, 2.5);
    ok = td_write_input(&env, &d, &h) == 0 && td_read(&env, &d, NULL) == 0;
    tap_ok(ok && td_check_input(&d, "self-test") == 0,
           "checker: an untouched input passes");
    memcpy(img, d.sent, d.total);
    img[d.head + 5] ^= 0x80;
    ok = put(&d, img) == 0 && td_read(&env, &d, NULL) == 0;
    tap_ok(ok && td_check_input(&d, "self-test (expected)") == 1,
           "checker: a changed input byte is caught");
out:
    free(img);
    td_buf_release(&d);
    tu_buf_free(&h);
    tu_buf_free(&expect);
    clrs_tensor_desc_destroy(desc);
}

int main(void)
{
    td_open(&env);
    self_test();
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
    td_close(&env);
    return tap_done();
}
