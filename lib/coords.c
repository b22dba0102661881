/* Lowers every coordinate front end (the coordinate modes of
 * clresample(3), SEMANTICS) to the per-axis constants of
 * x(o) = (o + a) * r - b, and evaluates x(o) as devices do. */
/* Contraction would fuse (o + a) * r - b into an fma and pick different
 * taps than the devices. GCC ignores (and warns about) the pragma; the
 * Makefile passes -ffp-contract=off for it. */
#if !defined(__GNUC__) || defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include "internal.h"

#include <math.h>

float clrs__coord(const clrs_axis_map *ax, int64_t o)
{
    /* Three separately rounded float steps, as on every device. */
    float t = (float)o + ax->a;
    float u = t * ax->r;
    return u - ax->b;
}

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

/* cuDNN-style window coordinates; stride 1 and pre-padding 0 when unset. */
static clrs_status window_coord(clrs_axis_map *ax,
                                const clrs_resample_desc *op,
                                const clrs_problem *p, int k)
{
    double stride = op->n_stride > k ? clrs__fraction_value(op->stride[k]) : 1;
    double pre = op->n_pad > k ? clrs__fraction_value(op->pre[k]) : 0;
    ax->scale = 1.0 / stride;
    if (clrs__mode_pooling((int)p->mode))
        return set_rab(ax, k, stride, 0.0, pre);
    return set_rab(ax, k, stride, 0.5, 0.5 + pre);
}

static clrs_status crop_coord(clrs_axis_map *ax, const clrs_resample_desc *op,
                              int k)
{
    double st = op->n_roi > k ? op->roi_start[k] : 0.0;
    double e = op->n_roi > k ? op->roi_end[k] : 1.0;
    double last = (double)(ax->in - 1);
    ax->crop = 1;
    if (ax->out == 1) {
        /* TensorFlow samples the middle of the box for a single output. */
        ax->scale = 1.0;
        return set_rab(ax, k, 0.0, 0.0, -(st + e) * last / 2.0);
    }
    /* r = (e - st)(I - 1)/(O - 1) may be 0 or negative (a flipped box, as
     * TensorFlow allows); the scale is then only informative. */
    ax->scale = (e - st) * last != 0.0
                    ? (double)(ax->out - 1) / ((e - st) * last)
                    : INFINITY;
    return set_rab(ax, k, (e - st) * last / (double)(ax->out - 1), 0.0,
                   -st * last);
}

static clrs_status coord_constants(clrs_axis_map *ax,
                                   const clrs_resample_desc *op,
                                   const clrs_problem *p, int k)
{
    double s = user_scale(ax, op, k);
    double I = (double)ax->in, O = (double)ax->out;

    ax->scale = s;
    switch (p->coord) {
    case CLRS_COORD_DEFAULT: /* resolved before we are called */
    case CLRS_COORD_HALF_PIXEL:
        return set_rab(ax, k, 1.0 / s, 0.5, 0.5);
    case CLRS_COORD_PYTORCH_HALF_PIXEL:
        if (ax->out == 1)
            return set_rab(ax, k, 0.0, 0.0, 0.0);
        return set_rab(ax, k, 1.0 / s, 0.5, 0.5);
    case CLRS_COORD_ALIGN_CORNERS:
        if (ax->out == 1 || ax->in == 1) {
            ax->scale = 1.0;
            return set_rab(ax, k, 0.0, 0.0, 0.0);
        }
        ax->scale = (O - 1) / (I - 1);
        return set_rab(ax, k, (I - 1) / (O - 1), 0.0, 0.0);
    case CLRS_COORD_ASYMMETRIC:
        return set_rab(ax, k, 1.0 / s, 0.0, 0.0);
    case CLRS_COORD_TF_HALF_PIXEL_FOR_NN:
        return set_rab(ax, k, 1.0 / s, 0.5, 0.0);
    case CLRS_COORD_HALF_PIXEL_SYMMETRIC:
        return set_rab(ax, k, 1.0 / s, 0.5,
                       0.5 - (I / 2.0) * (1.0 - O / (s * I)));
    case CLRS_COORD_TF_CROP_AND_RESIZE:
        return crop_coord(ax, op, k);
    case CLRS_COORD_PIXEL_OFFSETS:
        return set_rab(ax, k, 1.0 / s,
                       op->n_offsets > k ? -(double)op->out_offsets[k] : 0.0,
                       op->n_offsets > k ? (double)op->in_offsets[k] : 0.0);
    case CLRS_COORD_WINDOW:
        return window_coord(ax, op, p, k);
    }
    return clrs__error(CLRS_ERR_INVALID_ENUM, "coordinate mode %d is unknown",
                       (int)p->coord);
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
    ax->window = (float)w;
    ax->taps = (int)kd;
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
    ax->window = 0.0f;
    ax->taps = 0;
    ax->crop = 0;
    ax->aa_scale = 1.0f;
    CLRS_TRY(coord_constants(ax, op, p, k));
    if (clrs__mode_pooling((int)p->mode))
        CLRS_TRY(pooling_window(ax, op, p, k));
    if (clrs__mode_antialiased((int)p->mode, op->antialias))
        ax->aa_scale = ax->r > 1.0f ? ax->r : 1.0f;
    return CLRS_SUCCESS;
}
