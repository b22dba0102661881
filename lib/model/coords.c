/* Lowers every coordinate front end (the coordinate modes of
 * clresample(3), SEMANTICS) to the per-axis constants of
 * x(o) = (o + a) * r - b, and evaluates x(o) as devices do. */
/* Contraction would fuse (o + a) * r - b into an fma and pick different
 * taps than the devices. GCC ignores (and warns about) the pragma; the
 * Makefile passes -ffp-contract=off for it. */
#if !defined(__GNUC__) || defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include "model/internal.h"

#include <math.h>

static int frac_is_integer(clrs_fraction f) { return f.num % f.den == 0; }

/* Stores r = 1/s (computed in double, rounded once), a and b as float,
 * rejecting values a float cannot hold. */
static clrs_status set_rab(clrs_axis_map *ax, int k, double r, double a,
                           double b)
{
    float rf = (float)r;
    CLRS_CHECK(isfinite(r) && isfinite(rf) && (r == 0.0 || rf != 0.0),
               CLRS_ERR_BAD_SCALE,
               "axis %d: 1/scale = %g does not fit a float (scale %g)",
               ax->axis, r, ax->scale);
    CLRS_CHECK(isfinite((float)a) && isfinite((float)b), CLRS_ERR_OVERFLOW,
               "resampled axis %d (slot %d): coordinate offsets a = %g, "
               "b = %g do not fit a float",
               ax->axis, k, a, b);
    ax->r = rf;
    ax->a = (float)a;
    ax->b = (float)b;
    return CLRS_SUCCESS;
}

/* The user's scale if given, else O/I, as oneDNN computes it. */
static double user_scale(const clrs_axis_map *ax, const clrs_resample_desc *op,
                         int k)
{
    if (op->n_scales > k)
        return op->scales[k];
    return (double)ax->out / (double)ax->in;
}

/* The constants of one axis in every arithmetic's form: r, a, b in double
 * (rounded once to float for CLRS_ARITH_FLOAT), oneDNN's numerator and
 * denominator of r, and the exact rationals (ok = 0 when some value has
 * no exact int64 form). */
typedef struct coord_def {
    double r, a, b;
    double rn, rd;
    clrs_rat R, A, B;
    int ok;
} coord_def;

static clrs_rat rat_i(int64_t n) { return clrs__rat(n, 1); }

static void def_zero(coord_def *d)
{
    d->r = d->a = d->b = 0.0;
    d->rn = 0.0;
    d->rd = 1.0;
    d->R = d->A = d->B = rat_i(0);
    d->ok = 1;
}

/* r = 1/s: the user's scale, else O/I (then exactly I/O); a and b are 0
 * or 1/2. */
static void def_scale(coord_def *d, const clrs_axis_map *ax,
                      const clrs_resample_desc *op, int k, double a, double b)
{
    clrs_rat s;
    d->r = 1.0 / ax->scale;
    d->a = a;
    d->b = b;
    d->A = clrs__rat((int64_t)(a * 2), 2);
    d->B = clrs__rat((int64_t)(b * 2), 2);
    if (op->n_scales > k) {
        d->rn = 1.0;
        d->rd = ax->scale;
        d->ok = clrs__rat_of_double(ax->scale, &s) &&
                clrs__rat_div(rat_i(1), s, &d->R);
    } else {
        d->rn = (double)ax->in;
        d->rd = (double)ax->out;
        d->R = clrs__rat(ax->in, ax->out);
        d->ok = 1;
    }
}

/* b = 1/2 - (I/2)(1 - O/(s I)) = 1/2 - I/2 + (O/2) r */
static void def_symmetric(coord_def *d, const clrs_axis_map *ax)
{
    double I = (double)ax->in, O = (double)ax->out;
    clrs_rat t;
    d->b = 0.5 - (I / 2.0) * (1.0 - O / (ax->scale * I));
    d->ok = d->ok && clrs__rat_mul(clrs__rat(ax->out, 2), d->R, &t) &&
            clrs__rat_add(clrs__rat(1 - ax->in, 2), t, 1, &d->B);
}

static void def_offsets(coord_def *d, const clrs_resample_desc *op, int k)
{
    double in_off = op->n_offsets > k ? (double)op->in_offsets[k] : 0.0;
    double out_off = op->n_offsets > k ? (double)op->out_offsets[k] : 0.0;
    d->a = -out_off;
    d->b = in_off;
    d->ok = d->ok && clrs__rat_of_double(-out_off, &d->A) &&
            clrs__rat_of_double(in_off, &d->B);
}

/* TensorFlow's box: r = (e - st)(I - 1)/(O - 1), b = -st (I - 1); a single
 * output samples the middle of the box. r may be 0 or negative (a flipped
 * box, as TensorFlow allows); the scale is then only informative. */
static void def_crop(coord_def *d, clrs_axis_map *ax,
                     const clrs_resample_desc *op, int k)
{
    double st = op->n_roi > k ? op->roi_start[k] : 0.0;
    double e = op->n_roi > k ? op->roi_end[k] : 1.0;
    double last = (double)(ax->in - 1);
    clrs_rat S, E, L = rat_i(ax->in - 1), w;
    int ok = clrs__rat_of_double(st, &S) && clrs__rat_of_double(e, &E) &&
             clrs__rat_add(E, S, -1, &w) && clrs__rat_mul(w, L, &w);
    ax->crop = 1;
    def_zero(d);
    if (ax->out == 1) {
        ax->scale = 1.0;
        d->b = -(st + e) * last / 2.0;
        d->ok = ok && clrs__rat_add(S, E, 1, &d->B) &&
                clrs__rat_mul(d->B, clrs__rat(1 - ax->in, 2), &d->B);
        return;
    }
    ax->scale = (e - st) * last != 0.0
                    ? (double)(ax->out - 1) / ((e - st) * last)
                    : INFINITY;
    d->r = (e - st) * last / (double)(ax->out - 1);
    d->rn = (e - st) * last;
    d->rd = (double)(ax->out - 1);
    d->b = -st * last;
    d->ok = ok && clrs__rat_div(w, rat_i(ax->out - 1), &d->R) &&
            clrs__rat_mul(S, rat_i(1 - ax->in), &d->B);
}

static void def_align(coord_def *d, clrs_axis_map *ax)
{
    def_zero(d);
    if (ax->out == 1 || ax->in == 1) {
        ax->scale = 1.0;
        return;
    }
    ax->scale = (double)(ax->out - 1) / (double)(ax->in - 1);
    d->r = (double)(ax->in - 1) / (double)(ax->out - 1);
    d->rn = (double)(ax->in - 1);
    d->rd = (double)(ax->out - 1);
    d->R = clrs__rat(ax->in - 1, ax->out - 1);
}

/* cuDNN-style window coordinates; stride 1 and pre-padding 0 when unset.
 * Always evaluated in float (clrs_arith is for interpolation). */
static void def_window(coord_def *d, clrs_axis_map *ax,
                       const clrs_resample_desc *op, const clrs_problem *p,
                       int k)
{
    double stride = op->n_stride > k ? clrs__fraction_value(op->stride[k]) : 1;
    double pre = op->n_pad > k ? clrs__fraction_value(op->pre[k]) : 0;
    def_zero(d);
    d->ok = 0;
    ax->scale = 1.0 / stride;
    d->r = stride;
    d->a = clrs__mode_pooling((int)p->mode) ? 0.0 : 0.5;
    d->b = d->a + pre;
}

static clrs_status coord_def_of(coord_def *d, clrs_axis_map *ax,
                                const clrs_resample_desc *op,
                                const clrs_problem *p, int k)
{
    ax->scale = user_scale(ax, op, k);
    /* TensorFlow's scale, a float: the user's, or O / I in float */
    ax->tf_s = op->n_scales > k ? (float)op->scales[k]
                                : (float)ax->out / (float)ax->in;
    ax->tf_t = 0.0f;
    switch (p->coord) {
    case CLRS_COORD_DEFAULT: /* resolved before we are called */
    case CLRS_COORD_HALF_PIXEL:
        def_scale(d, ax, op, k, 0.5, 0.5);
        return CLRS_SUCCESS;
    case CLRS_COORD_PYTORCH_HALF_PIXEL:
        if (ax->out == 1)
            def_zero(d);
        else
            def_scale(d, ax, op, k, 0.5, 0.5);
        return CLRS_SUCCESS;
    case CLRS_COORD_ALIGN_CORNERS:
        def_align(d, ax);
        return CLRS_SUCCESS;
    case CLRS_COORD_ASYMMETRIC:
        def_scale(d, ax, op, k, 0.0, 0.0);
        return CLRS_SUCCESS;
    case CLRS_COORD_TF_HALF_PIXEL_FOR_NN:
        def_scale(d, ax, op, k, 0.5, 0.0);
        return CLRS_SUCCESS;
    case CLRS_COORD_HALF_PIXEL_SYMMETRIC:
        def_scale(d, ax, op, k, 0.5, 0.5);
        def_symmetric(d, ax);
        return CLRS_SUCCESS;
    case CLRS_COORD_TF_CROP_AND_RESIZE:
        def_crop(d, ax, op, k);
        return CLRS_SUCCESS;
    case CLRS_COORD_PIXEL_OFFSETS:
        def_scale(d, ax, op, k, 0.0, 0.0);
        def_offsets(d, op, k);
        return CLRS_SUCCESS;
    case CLRS_COORD_WINDOW:
        def_window(d, ax, op, p, k);
        return CLRS_SUCCESS;
    case CLRS_COORD_SCALE_AND_TRANSLATE: {
        /* x = (o + 1/2 - t) / s - 1/2, t in the output offsets */
        clrs_rat T;
        double t = op->n_offsets > k ? (double)op->out_offsets[k] : 0.0;
        def_scale(d, ax, op, k, 0.0, 0.5);
        d->a = 0.5 - t;
        d->ok = d->ok && clrs__rat_of_double(t, &T) &&
                clrs__rat_add(clrs__rat(1, 2), T, -1, &d->A);
        ax->tf_t = (float)t;
        ax->crop = 2; /* TensorFlow samples nothing outside [0, I] */
        return CLRS_SUCCESS;
    }
    }
    return clrs__error(CLRS_ERR_INVALID_ENUM, "coordinate mode %d is unknown",
                       (int)p->coord);
}

/* x = o R + (A R - B) = (xm o + xc) / xd over one common denominator. */
static int exact_form(clrs_axis_map *ax, const coord_def *d)
{
    clrs_rat C;
    int64_t g, D, m, c;
    if (!d->ok || !clrs__rat_mul(d->A, d->R, &C) ||
        !clrs__rat_add(C, d->B, -1, &C))
        return 0;
    g = clrs__gcd64(d->R.d, C.d);
    if (!clrs__mul_ok(d->R.d / g, C.d, &D) ||
        !clrs__mul_ok(d->R.n, D / d->R.d, &m) ||
        !clrs__mul_ok(C.n, D / C.d, &c))
        return 0;
    ax->xm = m;
    ax->xc = c;
    ax->xd = D;
    return 1;
}

/* PyTorch's antialias under align_corners centres its filters at
 * (o + 0.5) r - 0.5, r = (I-1)/(O-1), as for half_pixel. */
static void pytorch_aa_align(coord_def *d, const clrs_problem *p)
{
    if (!clrs__mode_antialiased((int)p->mode, p->antialias) ||
        p->aa_rule != CLRS_AA_PYTORCH || p->coord != CLRS_COORD_ALIGN_CORNERS)
        return;
    d->a = d->b = 0.5;
    d->A = d->B = clrs__rat(1, 2);
}

/* The filter stretch f of antialiasing: ONNX's max(1, 1/scale) for every
 * coordinate mode, in double as ONNX's reference; PyTorch's max(1, r)
 * with r as PyTorch computes it, in float (pytorch_half_pixel with one
 * output keeps x = 0 but its 1/scale). */
static double aa_stretch(const clrs_axis_map *ax, const clrs_resample_desc *op,
                         const clrs_problem *p, int k)
{
    double f = ax->f64 ? ax->dr : (double)ax->r;
    if (p->aa_rule == CLRS_AA_ONNX)
        f = 1.0 / user_scale(ax, op, k);
    else if (p->aa_rule == CLRS_AA_PILLOW)
        f = (double)ax->in / (double)ax->out;
    else if (p->coord == CLRS_COORD_PYTORCH_HALF_PIXEL && ax->out == 1)
        f = ax->f64 ? 1.0 / user_scale(ax, op, k)
                    : (double)(float)(1.0 / user_scale(ax, op, k));
    return f > 1.0 ? f : 1.0;
}

static clrs_status coord_constants(clrs_axis_map *ax,
                                   const clrs_resample_desc *op,
                                   const clrs_problem *p, int k)
{
    coord_def d;
    CLRS_TRY(coord_def_of(&d, ax, op, p, k));
    pytorch_aa_align(&d, p);
    CLRS_TRY(set_rab(ax, k, d.r, d.a, d.b));
    ax->arith = p->coord == CLRS_COORD_WINDOW ? CLRS_ARITH_FLOAT
                                              : (int)p->arith;
    ax->rn = (float)d.rn;
    ax->rd = (float)d.rd;
    CLRS_CHECK(ax->arith != CLRS_ARITH_ONEDNN ||
                   (isfinite(ax->rn) && isfinite(ax->rd) && ax->rd != 0.0f),
               CLRS_ERR_OVERFLOW,
               "axis %d: oneDNN's ratio %g / %g does not fit a float",
               ax->axis, d.rn, d.rd);
    ax->dr = d.r;
    ax->da = d.a;
    ax->db = d.b;
    ax->exact = exact_form(ax, &d);
    return CLRS_SUCCESS;
}

void clrs__coord(const clrs_axis_map *ax, int64_t o, clrs_xval *xv)
{
    float t, u, v;
    if (ax->fixed16) { /* (f o + c) >> 16: floor of an exact double */
        clrs__xval_of((double)(ax->ff * o + ax->fc) / 65536.0, xv);
        return;
    }
    switch (ax->arith) {
    case CLRS_ARITH_OPENCV: { /* (o + a) * (1 / s) - b in double */
        const double x = ((double)o + ax->da) * ax->dr - ax->db;
        clrs__xval_of(ax->cv_float ? (double)(float)x : x, xv);
        return;
    }
    case CLRS_ARITH_TENSORFLOW: /* its nearest: floor((o + 0.5f) (I / O)) */
        t = ((float)o + 0.5f) * ((float)ax->in / (float)ax->out);
        clrs__xval_of((double)t - 0.5, xv);
        return;
    case CLRS_ARITH_PILLOW: /* its nearest: taps.c accumulates */
    case CLRS_ARITH_EXACT:
        if (ax->exact && clrs__exact_eval(ax->xm, ax->xc, ax->xd, o, xv))
            return;
        clrs__xval_of((double)(((long double)o + ax->da) * ax->dr - ax->db),
                      xv);
        return;
    case CLRS_ARITH_ONEDNN:
        if (ax->f64)
            break; /* oneDNN has no f64: the float order, in double */
        /* oneDNN: ((o + 0.5f) * I) / O - 0.5f, each step in float. */
        t = (float)o + ax->a;
        u = t * ax->rn;
        v = u / ax->rd;
        clrs__xval_of((double)(v - ax->b), xv);
        return;
    default:
        if (ax->f64)
            break;
        /* Three separately rounded float steps, as PyTorch. */
        t = (float)o + ax->a;
        u = t * ax->r;
        clrs__xval_of((double)(u - ax->b), xv);
        return;
    }
    /* f64 data: the same steps in double, as PyTorch for double tensors. */
    clrs__xval_of(((double)o + ax->da) * ax->dr - ax->db, xv);
}

/* The box extent K that holds every pixel a window can overlap: the
 * window itself when every window start is an integer, else
 * ceil(window) + 1. Depends on the op alone (pooling always uses the
 * window coordinate mode), so the index dtype helper can use it too. */
double clrs__window_box(const clrs_resample_desc *op, int k)
{
    double w = clrs__fraction_value(op->window[k]);
    int whole = frac_is_integer(op->window[k]) &&
                (op->n_stride <= k || frac_is_integer(op->stride[k])) &&
                (op->n_pad <= k || frac_is_integer(op->pre[k]));
    return whole ? w : ceil(w) + 1.0;
}

/* Pooling window length and its box extent. */
static clrs_status pooling_window(clrs_axis_map *ax,
                                  const clrs_resample_desc *op,
                                  const clrs_problem *p, int k)
{
    double w, kd;

    (void)p;
    CLRS_CHECK(op->n_window > k, CLRS_ERR_BAD_WINDOW,
               "pooling needs a window on resampled axis %d "
               "(clrs_resample_desc_set_window)",
               ax->axis);
    w = clrs__fraction_value(op->window[k]);
    kd = clrs__window_box(op, k);
    CLRS_CHECK(w > 0 && (float)w > 0 && kd <= 1e9, CLRS_ERR_BAD_WINDOW,
               "window %g on axis %d is out of range", w, ax->axis);
    ax->window = ax->f64 ? w : (double)(float)w;
    ax->taps = (int)kd;
    ax->dilation = op->n_dilation > k ? op->dilation[k] : 1;
    ax->end = (double)ax->in +
              (op->n_pad > k ? clrs__fraction_value(op->post[k]) : 0.0);
    return CLRS_SUCCESS;
}

clrs_status clrs__axis_map_init(clrs_axis_map *ax,
                                const clrs_resample_desc *op,
                                const clrs_problem *p, int k)
{
    CLRS_CHECK_PTR(ax);
    CLRS_CHECK_PTR(op);
    CLRS_CHECK_PTR(p);
    CLRS_CHECK(ax->in >= 1 && ax->out >= 1, CLRS_ERR_BAD_DIMS,
               "resampled axis %d: sizes %lld -> %lld must be >= 1", ax->axis,
               (long long)ax->in, (long long)ax->out);
    ax->window = 0.0;
    ax->taps = 0;
    ax->dilation = 1;
    ax->crop = 0;
    ax->aa_scale = 1.0;
    ax->f64 = p->in.dtype == CLRS_F64 || p->out.dtype == CLRS_F64 ||
              (p->has_x && p->x.dtype == CLRS_F64);
    ax->fixed16 =
        p->arith == CLRS_ARITH_OPENCV_EXACT && p->mode == CLRS_MODE_NEAREST;
    ax->cv_float = p->mode != CLRS_MODE_NEAREST;
    ax->ff = ax->fc = 0;
    if (ax->fixed16) {
        CLRS_CHECK(ax->in < (INT64_C(1) << 30) && ax->out < (INT64_C(1) << 30),
                   CLRS_ERR_OVERFLOW,
                   "axis %d: %lld -> %lld is too long for OpenCV's 16-bit "
                   "fixed point",
                   ax->axis, (long long)ax->in, (long long)ax->out);
        ax->ff = ((ax->in << 16) + ax->out / 2) / ax->out;
        ax->fc = ax->ff / 2 - 1; /* OpenCV 4.6; 4.8 subtracts I mod 2 */
    }
    CLRS_TRY(coord_constants(ax, op, p, k));
    if (clrs__mode_pooling((int)p->mode))
        CLRS_TRY(pooling_window(ax, op, p, k));
    if (clrs__mode_antialiased((int)p->mode, op->antialias))
        ax->aa_scale = aa_stretch(ax, op, p, k);
    return CLRS_SUCCESS;
}
