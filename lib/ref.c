/* The double-precision CPU reference: the oracle every device kernel is
 * checked against. Written for clarity and exact SPEC semantics, not speed. */
/* GCC ignores (and warns about) this pragma; it gets -ffp-contract=off
 * from the Makefile instead. */
#if !defined(__GNUC__) || defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- per-axis tap lists ------------------------------------------------ */

/* One input pixel read by one output index along one axis. */
typedef struct tap {
    int64_t idx; /* input index on the axis; -1: a padding tap */
    double w;    /* weight (max pooling: unused, 1) */
    int j;       /* position in the pooling window box */
} tap;

/* All taps of one tensor axis: those of output o are
 * t[start[o]] .. t[start[o + 1] - 1]. */
typedef struct taplist {
    int64_t *start;
    tap *t;
    size_t n, cap;
    unsigned char *extrap; /* crop mode: output o lies outside the input */
} taplist;

static clrs_status push(taplist *tl, int64_t idx, double w, int j)
{
    if (tl->n == tl->cap) {
        size_t cap = tl->cap ? 2 * tl->cap : 64;
        tap *t = cap < ((size_t)-1) / sizeof *t
                     ? realloc(tl->t, cap * sizeof *t)
                     : NULL;
        CLRS_CHECK(t != NULL, CLRS_ERR_OUT_OF_MEMORY,
                   "reference: out of memory for %zu taps", cap);
        tl->t = t;
        tl->cap = cap;
    }
    tl->t[tl->n].idx = idx;
    tl->t[tl->n].w = w;
    tl->t[tl->n].j = j;
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

/* floor(x) as an integer. Beyond 2^40 every tap is far outside any tensor
 * and a float x is already an integer, so saturating there changes no
 * result and keeps the int64 conversion defined. */
static int64_t ifloor(double x)
{
    const double lim = 1099511627776.0;
    if (!(x > -lim))
        return -(int64_t)lim;
    if (x > lim)
        return (int64_t)lim;
    return (int64_t)floor(x);
}

/* Rounding decided on the exact fraction x - floor(x), so no x +- 0.5 is
 * ever rounded (in float, 0.5 - 2^-25 + 0.5 would round up to 1). */
static int64_t round_nearest(clrs_rounding r, double x)
{
    int64_t f = ifloor(x);
    double fr = x - floor(x);
    switch (r) {
    case CLRS_ROUND_PREFER_FLOOR: /* ceil(x - 0.5) */
        return fr > 0.5 ? f + 1 : f;
    case CLRS_ROUND_PREFER_CEIL: /* floor(x + 0.5) */
        return fr >= 0.5 ? f + 1 : f;
    case CLRS_ROUND_FLOOR:
        return f;
    case CLRS_ROUND_CEIL:
        return fr > 0 ? f + 1 : f;
    }
    return f;
}

typedef clrs_status (*tap_fn)(const clrs_problem *p, const clrs_axis_map *ax,
                              double x, taplist *tl);

static clrs_status taps_nearest(const clrs_problem *p, const clrs_axis_map *ax,
                                double x, taplist *tl)
{
    return push(tl, resolve(p, round_nearest(p->rounding, x), ax->in), 1.0, 0);
}

static clrs_status taps_linear(const clrs_problem *p, const clrs_axis_map *ax,
                               double x, taplist *tl)
{
    int64_t last = ax->in - 1, i0, i1;
    double w;
    if (p->padding == CLRS_PAD_EDGE) {
        double xc = x < 0 ? 0 : x > (double)last ? (double)last : x;
        i0 = ifloor(xc);
        i1 = i0 + 1 < last ? i0 + 1 : last;
        w = xc - (double)i0;
    } else {
        i0 = ifloor(x);
        i1 = i0 + 1;
        w = x - floor(x);
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
                              double x, taplist *tl)
{
    double A = p->cubic_a, t = x - floor(x), w[4], sum = 0;
    int64_t f = ifloor(x);
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

/* Antialiased linear or cubic (PyTorch antialias=True): the kernel is
 * stretched by f, every in-range pixel under it gets K((i - x)/f), and the
 * weights are renormalised, whatever the padding mode. */
static clrs_status taps_antialias(const clrs_problem *p,
                                  const clrs_axis_map *ax, double x,
                                  taplist *tl)
{
    double f = ax->aa_scale, support, sum = 0;
    int cubic = p->mode == CLRS_MODE_CUBIC;
    int64_t lo, hi, i;
    size_t first = tl->n, k;

    support = (cubic ? 2.0 : 1.0) * f;
    /* Nonzero weights need |i - x| < support. */
    lo = ifloor(x - support) + 1;
    hi = -ifloor(-(x + support)) - 1;
    if (lo < 0)
        lo = 0;
    if (hi > ax->in - 1)
        hi = ax->in - 1;
    for (i = lo; i <= hi; ++i) {
        double u = ((double)i - x) / f;
        double w = cubic ? cubic_kernel(p->cubic_a, u) : linear_kernel(u);
        if (w != 0) {
            CLRS_TRY(push(tl, i, w, (int)(i - lo)));
            sum += w;
        }
    }
    if (tl->n == first || sum == 0) {
        /* No pixel under the kernel (x far outside the input, possible
         * with pixel offsets): read the nearest edge pixel, so a constant
         * input still gives that constant. */
        tl->n = first;
        return push(tl, x < 0 ? 0 : ax->in - 1, 1.0, 0);
    }
    for (k = first; k < tl->n; ++k)
        tl->t[k].w /= sum;
    return CLRS_SUCCESS;
}

/* Pixels first..last overlapped by the pooling interval [x, x + window);
 * never more than the box of ax->taps pixels the window index counts in. */
static clrs_status window_span(const clrs_axis_map *ax, double x,
                               int64_t *first, int64_t *last)
{
    *first = ifloor(x);
    *last = -ifloor(-(x + (double)ax->window)) - 1;
    CLRS_CHECK(*last - *first < (int64_t)ax->taps, CLRS_ERR_INVALID_VALUE,
               "axis %d: window at x = %g spans %lld pixels, more than its "
               "box of %d",
               ax->axis, x, (long long)(*last - *first + 1), ax->taps);
    return CLRS_SUCCESS;
}

/* Pooling interval [x, x + window) against pixels [i, i + 1). */
static clrs_status taps_avg(const clrs_problem *p, const clrs_axis_map *ax,
                            double x, taplist *tl)
{
    double x1 = x + (double)ax->window, div = 0;
    int64_t first, last, i;
    int exclude = p->mode == CLRS_MODE_AVG_EXCLUDE_PADDING;
    size_t start = tl->n, k;

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
        div = (double)ax->window;
    for (k = start; k < tl->n; ++k)
        tl->t[k].w /= div;
    return CLRS_SUCCESS;
}

/* Max pooling: every pixel with non-zero overlap, j its box position. */
static clrs_status taps_max(const clrs_problem *p, const clrs_axis_map *ax,
                            double x, taplist *tl)
{
    int64_t first, last, i;

    CLRS_TRY(window_span(ax, x, &first, &last));
    for (i = first; i <= last; ++i)
        CLRS_TRY(push(tl, resolve(p, i, ax->in), 1.0, (int)(i - first)));
    return CLRS_SUCCESS;
}

/* Indexed by clrs_mode. */
static const tap_fn mode_taps[] = {
    taps_nearest, /* CLRS_MODE_NEAREST */
    taps_linear,  /* CLRS_MODE_LINEAR */
    taps_cubic,   /* CLRS_MODE_CUBIC */
    taps_avg,     /* CLRS_MODE_AVG_INCLUDE_PADDING */
    taps_avg,     /* CLRS_MODE_AVG_EXCLUDE_PADDING */
    taps_max,     /* CLRS_MODE_MAX */
};

static void taplist_free(taplist *tl)
{
    free(tl->start);
    free(tl->t);
    free(tl->extrap);
    memset(tl, 0, sizeof *tl);
}

/* Taps of a resampled axis for every output index. */
static clrs_status build_resampled(const clrs_problem *p,
                                   const clrs_axis_map *ax, taplist *tl)
{
    tap_fn fn = mode_taps[p->mode];
    int64_t o;
    if (p->antialias &&
        (p->mode == CLRS_MODE_LINEAR || p->mode == CLRS_MODE_CUBIC))
        fn = taps_antialias;
    for (o = 0; o < ax->out; ++o) {
        double x = (double)clrs__coord(ax, o);
        tl->start[o] = (int64_t)tl->n;
        if (ax->crop && !(x >= 0 && x <= (double)(ax->in - 1))) {
            tl->extrap[o] = 1; /* no taps: no value read, no gradient */
            continue;
        }
        CLRS_TRY(fn(p, ax, x, tl));
    }
    tl->start[ax->out] = (int64_t)tl->n;
    return CLRS_SUCCESS;
}

/* Axis `a` of the problem: resampled ones get their mode's taps, the others
 * the identity. */
static clrs_status build_axis(const clrs_problem *p, int a, taplist *tl)
{
    int64_t n = p->out.dims[a], o;
    size_t bytes = (size_t)(n + 1) * sizeof *tl->start;
    memset(tl, 0, sizeof *tl);
    CLRS_CHECK((uint64_t)n < ((size_t)-1) / sizeof *tl->start / 2,
               CLRS_ERR_OUT_OF_MEMORY, "reference: axis %d too long", a);
    tl->start = malloc(bytes);
    tl->extrap = calloc((size_t)n + 1, 1);
    CLRS_CHECK(tl->start != NULL && tl->extrap != NULL, CLRS_ERR_OUT_OF_MEMORY,
               "reference: out of memory for the taps of axis %d", a);
    if (p->slot[a] >= 0)
        return build_resampled(p, &p->ax[p->slot[a]], tl);
    for (o = 0; o < n; ++o) {
        tl->start[o] = o;
        CLRS_TRY(push(tl, o, 1.0, 0));
    }
    tl->start[n] = n;
    return CLRS_SUCCESS;
}

/* ---- offsets ----------------------------------------------------------- */

/* Per-axis element offsets of a tensor. clrs__tensor_offset is a sum of
 * one term per axis (the blocked axis included), so tables of those terms
 * give every offset by addition. */
typedef struct offtab {
    int rank;
    int64_t *v[CLRS_MAX_RANK];
} offtab;

static void offtab_free(offtab *t)
{
    int a;
    for (a = 0; a < CLRS_MAX_RANK; ++a)
        free(t->v[a]);
    memset(t, 0, sizeof *t);
}

static clrs_status offtab_init(offtab *t, const struct clrs_tensor_desc *d)
{
    int a;
    int64_t idx[CLRS_MAX_RANK] = {0}, i;
    memset(t, 0, sizeof *t);
    t->rank = d->rank;
    for (a = 0; a < d->rank; ++a) {
        t->v[a] = malloc((size_t)d->dims[a] * sizeof(int64_t));
        CLRS_CHECK(t->v[a] != NULL, CLRS_ERR_OUT_OF_MEMORY,
                   "reference: out of memory for offsets");
        for (i = 0; i < d->dims[a]; ++i) {
            idx[a] = i;
            t->v[a][i] = clrs__tensor_offset(d, idx);
        }
        idx[a] = 0;
    }
    return CLRS_SUCCESS;
}

static int64_t offset_of(const offtab *t, const int64_t *idx)
{
    int64_t off = 0;
    int a;
    for (a = 0; a < t->rank; ++a)
        off += t->v[a][idx[a]];
    return off;
}

/* Row-major odometer over dims; returns 0 after the last index. */
static int next_index(int rank, const int64_t *dims, int64_t *idx)
{
    int a;
    for (a = rank - 1; a >= 0; --a) {
        if (++idx[a] < dims[a])
            return 1;
        idx[a] = 0;
    }
    return 0;
}

/* ---- the run ----------------------------------------------------------- */

typedef struct run {
    const clrs_problem *p;
    int rank;
    taplist tl[CLRS_MAX_RANK];
    offtab in, out, index, src;
    int64_t dense[CLRS_MAX_RANK]; /* row-major strides of `in` */
    int64_t plane[CLRS_MAX_RANK]; /* plane index strides, 0 if not pooled */
    int64_t box[CLRS_MAX_RANK];   /* window index strides, 0 if not pooled */
    int64_t plane_size, box_size, in_count;
} run;

static void run_free(run *r)
{
    int a;
    for (a = 0; a < CLRS_MAX_RANK; ++a)
        taplist_free(&r->tl[a]);
    offtab_free(&r->in);
    offtab_free(&r->out);
    offtab_free(&r->index);
    offtab_free(&r->src);
}

static clrs_status run_init(run *r, const clrs_problem *p)
{
    int a;
    memset(r, 0, sizeof *r);
    r->p = p;
    r->rank = p->rank;
    r->plane_size = r->box_size = r->in_count = 1;
    for (a = p->rank - 1; a >= 0; --a) {
        r->dense[a] = r->in_count;
        r->in_count *= p->in.dims[a];
        if (p->slot[a] >= 0) {
            r->plane[a] = r->plane_size;
            r->plane_size *= p->in.dims[a];
            r->box[a] = r->box_size;
            r->box_size *= p->ax[p->slot[a]].taps;
        }
    }
    for (a = 0; a < p->rank; ++a)
        CLRS_TRY(build_axis(p, a, &r->tl[a]));
    CLRS_TRY(offtab_init(&r->in, &p->in));
    CLRS_TRY(offtab_init(&r->out, &p->out));
    if (p->has_index)
        CLRS_TRY(offtab_init(&r->index, &p->index));
    if (p->has_src)
        CLRS_TRY(offtab_init(&r->src, &p->src));
    return CLRS_SUCCESS;
}

/* Row-major walk over the Cartesian product of one output's taps. */
typedef struct cursor {
    int rank;
    const tap *t[CLRS_MAX_RANK];
    int64_t n[CLRS_MAX_RANK], c[CLRS_MAX_RANK];
} cursor;

/* Returns 0 when the output has no taps (extrapolated or empty window). */
static int cursor_begin(cursor *cu, const run *r, const int64_t *o)
{
    int a;
    cu->rank = r->rank;
    for (a = 0; a < r->rank; ++a) {
        const taplist *tl = &r->tl[a];
        cu->t[a] = tl->t + tl->start[o[a]];
        cu->n[a] = tl->start[o[a] + 1] - tl->start[o[a]];
        cu->c[a] = 0;
        if (cu->n[a] == 0)
            return 0;
    }
    return 1;
}

static int cursor_next(cursor *cu)
{
    return next_index(cu->rank, cu->n, cu->c);
}

static const tap *cursor_tap(const cursor *cu, int a)
{
    return &cu->t[a][cu->c[a]];
}

/* The current tap's pixel in idx (tensor index); returns 0 for a padding
 * tap. w gets the product of the per-axis weights. */
static int cursor_pixel(const cursor *cu, int64_t *idx, double *w)
{
    int a, inside = 1;
    double prod = 1;
    for (a = 0; a < cu->rank; ++a) {
        const tap *t = cursor_tap(cu, a);
        prod *= t->w;
        idx[a] = t->idx;
        if (t->idx < 0)
            inside = 0;
    }
    *w = prod;
    return inside;
}

static int extrapolated(const run *r, const int64_t *o)
{
    int a;
    for (a = 0; a < r->rank; ++a)
        if (r->tl[a].extrap[o[a]])
            return 1;
    return 0;
}

/* Weighted sum over the taps of output o (every mode but max). */
static double weighted_sum(const run *r, const void *src, const int64_t *o)
{
    const clrs_problem *p = r->p;
    cursor cu;
    int64_t idx[CLRS_MAX_RANK];
    double v = 0, w;
    if (!cursor_begin(&cu, r, o))
        return 0;
    do {
        if (cursor_pixel(&cu, idx, &w))
            v += w * clrs__load(src, p->in.dtype, offset_of(&r->in, idx));
        else
            v += w * p->pad_value;
    } while (cursor_next(&cu));
    return v;
}

/* Max over the taps of output o of the tensor (desc, offsets, data) into
 * *best, the winner's cursor position into *win; returns 0 for a window
 * without taps (not reached: every window overlaps a pixel). */
static int window_max(const run *r, const struct clrs_tensor_desc *d,
                      const offtab *ot, const void *data, const int64_t *o,
                      double *best, cursor *win)
{
    const clrs_problem *p = r->p;
    int ignore = p->nan_policy == CLRS_NAN_IGNORE, have = 0;
    int64_t idx[CLRS_MAX_RANK];
    double v, w;
    cursor cu;

    *best = NAN;
    if (!cursor_begin(&cu, r, o))
        return 0;
    *win = cu; /* all NaN under IGNORE: NaN, first tap */
    do {
        v = cursor_pixel(&cu, idx, &w)
                ? clrs__load(data, d->dtype, offset_of(ot, idx))
                : p->pad_value;
        if (isnan(v)) {
            if (ignore)
                continue;
            *win = cu; /* PROPAGATE: the first NaN wins */
            *best = v;
            return 1;
        }
        if (!have || v > *best) {
            *best = v;
            *win = cu;
            have = 1;
        }
    } while (cursor_next(&cu));
    return 1;
}

/* Window and plane index of the cursor's tap (plane -1 for padding). */
static void tap_indices(const run *r, const cursor *cu, int64_t *window,
                        int64_t *plane)
{
    int a, inside = 1;
    *window = *plane = 0;
    for (a = 0; a < r->rank; ++a) {
        const tap *t = cursor_tap(cu, a);
        *window += (int64_t)t->j * r->box[a];
        *plane += t->idx * r->plane[a];
        if (t->idx < 0)
            inside = 0;
    }
    if (!inside)
        *plane = -1;
}

/* ---- post-ops ------------------------------------------------------------
 */

static double gelu_tanh(double x)
{
    const double k = 0.79788456080286535588; /* sqrt(2/pi) */
    return 0.5 * x * (1 + tanh(k * (x + 0.044715 * x * x * x)));
}

static double eltwise(const clrs_post_op *po, double x)
{
    double a = po->alpha, b = po->beta;
    switch ((clrs_eltwise)po->alg) {
    case CLRS_ELTWISE_RELU:
        return x > 0 ? x : a * x;
    case CLRS_ELTWISE_CLIP:
        return x < a ? a : x > b ? b : x;
    case CLRS_ELTWISE_TANH:
        return tanh(x);
    case CLRS_ELTWISE_LOGISTIC:
        return 1 / (1 + exp(-x));
    case CLRS_ELTWISE_ELU:
        return x > 0 ? x : a * expm1(x);
    case CLRS_ELTWISE_GELU_TANH:
        return gelu_tanh(x);
    case CLRS_ELTWISE_GELU_ERF:
        return 0.5 * x * (1 + erf(x * 0.70710678118654752440));
    case CLRS_ELTWISE_SWISH:
        return x / (1 + exp(-a * x));
    case CLRS_ELTWISE_ABS:
        return fabs(x);
    case CLRS_ELTWISE_SQUARE:
        return x * x;
    case CLRS_ELTWISE_SQRT:
        return sqrt(x);
    case CLRS_ELTWISE_EXP:
        return exp(x);
    case CLRS_ELTWISE_LOG:
        return log(x);
    case CLRS_ELTWISE_LINEAR:
        return a * x + b;
    }
    return x;
}

static double binary(int alg, double x, double y)
{
    switch ((clrs_binary)alg) {
    case CLRS_BINARY_ADD:
        return x + y;
    case CLRS_BINARY_SUB:
        return x - y;
    case CLRS_BINARY_MUL:
        return x * y;
    case CLRS_BINARY_DIV:
        return x / y;
    case CLRS_BINARY_MAX:
        return x > y || isnan(x) ? x : y;
    case CLRS_BINARY_MIN:
        return x < y || isnan(x) ? x : y;
    }
    return x;
}

static clrs_status check_post_ops(const clrs_problem *p,
                                  const clrs_host_args *args)
{
    int i, a;
    for (i = 0; i < p->n_post_ops; ++i) {
        const clrs_post_op *po = &p->post_ops[i];
        if (po->kind != CLRS_POST_BINARY)
            continue;
        CLRS_CHECK(args->post_op[i] != NULL, CLRS_ERR_NULL_POINTER,
                   "args->post_op[%d] is NULL (binary post-op operand)", i);
        CLRS_CHECK(po->operand.rank == p->rank, CLRS_ERR_SHAPE_MISMATCH,
                   "post-op %d: operand rank %d, dst rank %d", i,
                   po->operand.rank, p->rank);
        for (a = 0; a < p->rank; ++a)
            CLRS_CHECK(po->operand.dims[a] == 1 ||
                           po->operand.dims[a] == p->out.dims[a],
                       CLRS_ERR_SHAPE_MISMATCH,
                       "post-op %d: operand dim %d is %lld, dst has %lld", i,
                       a, (long long)po->operand.dims[a],
                       (long long)p->out.dims[a]);
    }
    return CLRS_SUCCESS;
}

/* v after the post-op chain; old is dst's value before the run. */
static double post_ops(const clrs_problem *p, const clrs_host_args *args,
                       const int64_t *o, double v, double old)
{
    int i, a;
    for (i = 0; i < p->n_post_ops; ++i) {
        const clrs_post_op *po = &p->post_ops[i];
        int64_t bi[CLRS_MAX_RANK];
        switch (po->kind) {
        case CLRS_POST_SUM:
            v += po->scale * old;
            break;
        case CLRS_POST_ELTWISE:
            v = eltwise(po, v);
            break;
        case CLRS_POST_BINARY:
            for (a = 0; a < p->rank; ++a)
                bi[a] = po->operand.dims[a] == 1 ? 0 : o[a];
            v = binary(po->alg, v,
                       clrs__load(args->post_op[i], po->operand.dtype,
                                  clrs__tensor_offset(&po->operand, bi)));
            break;
        }
    }
    return v;
}

/* ---- forward -------------------------------------------------------------
 */

static void forward_one(const run *r, const clrs_host_args *args,
                        const int64_t *o)
{
    const clrs_problem *p = r->p;
    int64_t off = offset_of(&r->out, o), wi = 0, pi = -1;
    double v;

    if (extrapolated(r, o)) {
        v = p->extrapolation;
    } else if (p->mode == CLRS_MODE_MAX) {
        cursor win;
        if (window_max(r, &p->in, &r->in, args->src, o, &v, &win))
            tap_indices(r, &win, &wi, &pi);
    } else {
        v = weighted_sum(r, args->src, o);
    }
    if (p->has_index)
        clrs__store(args->index, p->index.dtype, offset_of(&r->index, o),
                    (double)(p->index_format == CLRS_INDEX_PLANE ? pi : wi));
    if (p->n_post_ops > 0) {
        double old = clrs__load(args->dst, p->out.dtype, off);
        v = post_ops(p, args, o, v, old);
    }
    clrs__store(args->dst, p->out.dtype, off, v);
}

CLRS_API clrs_status clrs_reference_forward(const clrs_resample_desc *op,
                                            const clrs_tensor_desc *src,
                                            const clrs_tensor_desc *dst,
                                            const clrs_tensor_desc *index,
                                            const clrs_host_args *args)
{
    clrs_problem p;
    clrs_status st;
    int64_t o[CLRS_MAX_RANK] = {0};
    run r;

    CLRS_CHECK_PTR(args);
    CLRS_TRY(clrs__problem_init(&p, op, src, dst, index, NULL, 0));
    CLRS_CHECK_PTR(args->src);
    CLRS_CHECK_PTR(args->dst);
    CLRS_CHECK(!p.has_index || args->index != NULL, CLRS_ERR_NULL_POINTER,
               "args->index is NULL but an index tensor was given");
    CLRS_TRY(check_post_ops(&p, args));

    st = run_init(&r, &p);
    if (st == CLRS_SUCCESS) {
        do
            forward_one(&r, args, o);
        while (next_index(p.rank, p.out.dims, o));
        clrs__clear_error();
    }
    run_free(&r);
    return st;
}

/* ---- backward ------------------------------------------------------------
 */

static int64_t dense_of(const run *r, const int64_t *idx)
{
    int64_t d = 0;
    int a;
    for (a = 0; a < r->rank; ++a)
        d += idx[a] * r->dense[a];
    return d;
}

/* dx += dy * A[o, :] for a mode linear in its input. */
static void scatter_linear(const run *r, double *acc, const int64_t *o,
                           double dy)
{
    cursor cu;
    int64_t idx[CLRS_MAX_RANK];
    double w;
    if (!cursor_begin(&cu, r, o))
        return;
    do {
        if (cursor_pixel(&cu, idx, &w)) /* padding taps send nowhere */
            acc[dense_of(r, idx)] += w * dy;
    } while (cursor_next(&cu));
}

static int integral(double v) { return v == floor(v) && fabs(v) < 9e15; }

/* The argmax pixel of output o named by a window index; 0: a padding tap,
 * -1: an invalid index (error recorded). */
static int decode_window(const run *r, const int64_t *o, double v,
                         int64_t *idx)
{
    int64_t k;
    int a, inside = 1;
    if (!integral(v) || v < 0 || v >= (double)r->box_size) {
        clrs__error(CLRS_ERR_BAD_INDEX_TENSOR,
                    "window index %g is outside the window box of %lld taps",
                    v, (long long)r->box_size);
        return -1;
    }
    k = (int64_t)v;
    for (a = 0; a < r->rank; ++a) {
        const taplist *tl = &r->tl[a];
        int64_t j =
            r->box[a] ? (k / r->box[a]) % r->p->ax[r->p->slot[a]].taps : 0;
        int64_t n = tl->start[o[a] + 1] - tl->start[o[a]];
        if (j >= n) {
            clrs__error(CLRS_ERR_BAD_INDEX_TENSOR,
                        "window index %lld names box position %lld on axis "
                        "%d, past the %lld pixels this window covers",
                        (long long)k, (long long)j, a, (long long)n);
            return -1;
        }
        idx[a] = tl->t[tl->start[o[a]] + j].idx;
        if (idx[a] < 0)
            inside = 0;
    }
    return inside;
}

/* The same for a plane index (flat over the pooled axes of the input). */
static int decode_plane(const run *r, const int64_t *o, double v, int64_t *idx)
{
    int64_t k;
    int a;
    if (!integral(v) || v < -1 || v >= (double)r->plane_size) {
        clrs__error(CLRS_ERR_BAD_INDEX_TENSOR,
                    "plane index %g is outside -1..%lld", v,
                    (long long)r->plane_size - 1);
        return -1;
    }
    k = (int64_t)v;
    if (k < 0)
        return 0;
    for (a = 0; a < r->rank; ++a)
        idx[a] = r->plane[a] ? (k / r->plane[a]) % r->p->in.dims[a] : o[a];
    return 1;
}

/* dx[argmax(o)] += dy; returns an error for a bad index tensor. */
static clrs_status scatter_max(const run *r, const clrs_host_args *args,
                               double *acc, const int64_t *o, double dy)
{
    const clrs_problem *p = r->p;
    int64_t idx[CLRS_MAX_RANK];
    int got;
    if (p->has_index) {
        double v =
            clrs__load(args->index, p->index.dtype, offset_of(&r->index, o));
        got = p->index_format == CLRS_INDEX_PLANE
                  ? decode_plane(r, o, v, idx)
                  : decode_window(r, o, v, idx);
        if (got < 0)
            return CLRS_ERR_BAD_INDEX_TENSOR;
    } else {
        cursor win;
        double w, best;
        got = window_max(r, &p->src, &r->src, args->src, o, &best, &win) &&
              cursor_pixel(&win, idx, &w);
    }
    if (got)
        acc[dense_of(r, idx)] += dy;
    return CLRS_SUCCESS;
}

/* Reads (accumulate) or zeroes the accumulators, in dense order. */
static void acc_init(const run *r, const clrs_host_args *args, double *acc)
{
    const clrs_problem *p = r->p;
    int64_t idx[CLRS_MAX_RANK] = {0}, d = 0;
    if (!p->accumulate) {
        for (d = 0; d < r->in_count; ++d)
            acc[d] = 0;
        return;
    }
    do
        acc[d++] =
            clrs__load(args->diff_src, p->in.dtype, offset_of(&r->in, idx));
    while (next_index(p->rank, p->in.dims, idx));
}

static void acc_store(const run *r, const clrs_host_args *args,
                      const double *acc)
{
    const clrs_problem *p = r->p;
    int64_t idx[CLRS_MAX_RANK] = {0}, d = 0;
    do
        clrs__store(args->diff_src, p->in.dtype, offset_of(&r->in, idx),
                    acc[d++]);
    while (next_index(p->rank, p->in.dims, idx));
}

static clrs_status backward_run(const run *r, const clrs_host_args *args,
                                double *acc)
{
    const clrs_problem *p = r->p;
    int64_t o[CLRS_MAX_RANK] = {0};
    acc_init(r, args, acc);
    do {
        double dy;
        if (extrapolated(r, o)) /* a constant output has no gradient */
            continue;
        dy = clrs__load(args->diff_dst, p->out.dtype, offset_of(&r->out, o));
        if (p->mode == CLRS_MODE_MAX)
            CLRS_TRY(scatter_max(r, args, acc, o, dy));
        else
            scatter_linear(r, acc, o, dy);
    } while (next_index(p->rank, p->out.dims, o));
    /* Stored only once every index was checked: a bad index tensor leaves
     * diff_src untouched. */
    acc_store(r, args, acc);
    return CLRS_SUCCESS;
}

CLRS_API clrs_status clrs_reference_backward(const clrs_resample_desc *op,
                                             const clrs_tensor_desc *diff_src,
                                             const clrs_tensor_desc *diff_dst,
                                             const clrs_tensor_desc *index,
                                             const clrs_tensor_desc *src,
                                             const clrs_host_args *args)
{
    clrs_problem p;
    clrs_status st;
    double *acc = NULL;
    run r;

    CLRS_CHECK_PTR(args);
    CLRS_TRY(clrs__problem_init(&p, op, diff_src, diff_dst, index, src, 1));
    CLRS_CHECK_PTR(args->diff_dst);
    CLRS_CHECK_PTR(args->diff_src);
    CLRS_CHECK(!p.has_index || args->index != NULL, CLRS_ERR_NULL_POINTER,
               "args->index is NULL but an index tensor was given");
    CLRS_CHECK(p.mode != CLRS_MODE_MAX || p.has_index || p.has_src,
               CLRS_ERR_MISSING_INPUT,
               "max pooling backward needs the index tensor or src");
    CLRS_CHECK(p.has_index || !p.has_src || args->src != NULL,
               CLRS_ERR_NULL_POINTER,
               "args->src is NULL but max pooling backward recomputes the "
               "argmax from it");

    st = run_init(&r, &p);
    if (st == CLRS_SUCCESS) {
        if ((uint64_t)r.in_count < ((size_t)-1) / sizeof *acc)
            acc = malloc((size_t)r.in_count * sizeof *acc);
        if (acc == NULL)
            st = clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                             "reference: out of memory for %lld gradient "
                             "accumulators",
                             (long long)r.in_count);
    }
    if (st == CLRS_SUCCESS)
        st = backward_run(&r, args, acc);
    if (st == CLRS_SUCCESS)
        clrs__clear_error();
    free(acc);
    run_free(&r);
    return st;
}
