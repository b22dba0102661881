/* The double-precision CPU reference: the oracle every device kernel is
 * checked against. Written for the exact semantics of clresample(3),
 * independent of the device path: the per-axis taps it walks come from
 * taps.c, as the device tables do; for speed it keeps per-tap facts and a
 * row's outer taps once, and splits the outputs of a forward run over
 * the cores (the same result whatever the thread count). */
/* GCC ignores (and warns about) this pragma; it gets -ffp-contract=off
 * from the Makefile instead. */
#if !defined(__GNUC__) || defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include "model/internal.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* What the walk over an output's taps reads of one tap of one axis,
 * computed once per run: its input offset term, its weight and the
 * roundings that weight adds to a term (the error model's, for the run's
 * accumulator). */
typedef struct axtap {
    int64_t off; /* the input offset term of its pixel; 0 for padding */
    double w;
    int rounds;  /* !held(w) + !power_of_two(w) */
    int pad;     /* a padding tap */
} axtap;

typedef struct run {
    const clrs_problem *p;
    int rank;
    clrs_taplist tl[CLRS_MAX_RANK];
    axtap *at[CLRS_MAX_RANK]; /* parallel to tl[a].t */
    double u;                 /* the accumulator's unit roundoff */
    int kclass;               /* clrs__mode_kclass of the mode */
    int held_all;    /* u holds every input value and the padding value */
    int64_t row_max; /* the most outer taps a row has (row_build), >= 1 */
    offtab in, out, index, x;
    int64_t dense[CLRS_MAX_RANK]; /* row-major strides of `in` */
    int64_t plane[CLRS_MAX_RANK]; /* plane index strides, 0 if not pooled */
    int64_t box[CLRS_MAX_RANK];   /* window index strides, 0 if not pooled */
    int64_t plane_size, box_size, in_count;
} run;

static void run_free(run *r)
{
    int a;
    for (a = 0; a < CLRS_MAX_RANK; ++a) {
        clrs__taplist_free(&r->tl[a]);
        free(r->at[a]);
    }
    offtab_free(&r->in);
    offtab_free(&r->out);
    offtab_free(&r->index);
    offtab_free(&r->x);
}

static double unit_of(const clrs_problem *p);
static int held(double v, double u);
static int power_of_two(double w);

/* The axtap table of axis a (after its taps and the input's offsets). */
static clrs_status axtaps_init(run *r, int a)
{
    const clrs_taplist *tl = &r->tl[a];
    size_t k;
    r->at[a] = malloc((tl->n ? tl->n : 1) * sizeof *r->at[a]);
    CLRS_CHECK(r->at[a] != NULL, CLRS_ERR_OUT_OF_MEMORY,
               "reference: out of memory for taps");
    for (k = 0; k < tl->n; ++k) {
        const clrs_tap *t = &tl->t[k];
        axtap *x = &r->at[a][k];
        x->pad = t->idx < 0;
        x->off = x->pad ? 0 : r->in.v[a][t->idx];
        x->w = t->w;
        x->rounds = !held(t->w, r->u) + !power_of_two(t->w);
    }
    return CLRS_SUCCESS;
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
    if (p->index_format == CLRS_INDEX_PLANE_COLUMN) {
        int64_t m = 1; /* the first pooled axis fastest */
        for (a = 0; a < p->rank; ++a)
            if (p->slot[a] >= 0) {
                r->plane[a] = m;
                m *= p->in.dims[a];
            }
    }
    for (a = 0; a < p->rank; ++a)
        CLRS_TRY(clrs__axis_taps(p, a, &r->tl[a]));
    CLRS_TRY(offtab_init(&r->in, &p->in));
    r->u = unit_of(p);
    switch (p->in.dtype) { /* types whose every value float holds */
    case CLRS_F32:
    case CLRS_F16:
    case CLRS_BF16:
    case CLRS_U8:
    case CLRS_S8: r->held_all = held(p->pad_value, r->u); break;
    default: r->held_all = r->u < 0x1p-24; /* held() holds all */
    }
    r->kclass = clrs__mode_kclass((int)p->mode);
    r->row_max = 1;
    for (a = 0; a < p->rank; ++a) {
        CLRS_TRY(axtaps_init(r, a));
        if (a < p->rank - 1) { /* at least 1: room for an empty row */
            const int64_t most = clrs__taplist_max(&r->tl[a], p->out.dims[a]);
            r->row_max *= most > 1 ? most : 1;
        }
    }
    CLRS_TRY(offtab_init(&r->out, &p->out));
    if (p->has_index)
        CLRS_TRY(offtab_init(&r->index, &p->index));
    if (p->has_x)
        CLRS_TRY(offtab_init(&r->x, &p->x));
    return CLRS_SUCCESS;
}

/* Row-major walk over the Cartesian product of one output's taps. */
typedef struct cursor {
    int rank;
    const clrs_tap *t[CLRS_MAX_RANK];
    const int32_t *j[CLRS_MAX_RANK]; /* window positions, or NULL */
    int64_t n[CLRS_MAX_RANK], c[CLRS_MAX_RANK];
} cursor;

/* Returns 0 when the output has no taps (extrapolated or empty window). */
static int cursor_begin(cursor *cu, const run *r, const int64_t *o)
{
    int a;
    cu->rank = r->rank;
    for (a = 0; a < r->rank; ++a) {
        const clrs_taplist *tl = &r->tl[a];
        cu->t[a] = tl->t + tl->start[o[a]];
        cu->j[a] = tl->j ? tl->j + tl->start[o[a]] : NULL;
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

static const clrs_tap *cursor_tap(const cursor *cu, int a)
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
        const clrs_tap *t = cursor_tap(cu, a);
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
        const clrs_tap *t = cursor_tap(cu, a);
        *window +=
            (int64_t)clrs__tap_code(cu->j[a], (size_t)cu->c[a]) * r->box[a];
        *plane += t->idx * r->plane[a];
        if (t->idx < 0)
            inside = 0;
    }
    if (!inside)
        *plane = -1;
}

/* ---- threads ---------------------------------------------------------------
 * Outputs that are computed independently of each other are split into
 * contiguous ranges of their row-major order, one a thread, over the
 * machine's cores. Each output's value and bound are those of a single
 * thread's walk, so the result is the same whatever the thread count. */

/* Below this many outputs a run stays on the calling thread. */
#define CLRS_REF_MIN_PER_THREAD 32768
#define CLRS_REF_MAX_THREADS 64

typedef struct part_job {
    void (*fn)(void *arg, int k, int64_t begin, int64_t end);
    void *arg;
    int k;
    int64_t begin, end;
} part_job;

static void *part_main(void *v)
{
    part_job *j = v;
    if (j->begin < j->end)
        j->fn(j->arg, j->k, j->begin, j->end);
    return NULL;
}

static int ref_threads(int64_t count)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t most = count / CLRS_REF_MIN_PER_THREAD;
    if (cores > CLRS_REF_MAX_THREADS)
        cores = CLRS_REF_MAX_THREADS;
    if (most > cores)
        most = cores;
    return most > 1 ? (int)most : 1;
}

/* fn(arg, k, begin, end) over [0, count) in n ranges (n from
 * ref_threads), part k on a thread of its own; a thread that cannot be
 * started leaves its part to the caller. */
static void run_parts(void (*fn)(void *, int, int64_t, int64_t), void *arg,
                      int n, int64_t count)
{
    part_job job[CLRS_REF_MAX_THREADS];
    pthread_t tid[CLRS_REF_MAX_THREADS];
    int started[CLRS_REF_MAX_THREADS];
    int k;

    for (k = 0; k < n; ++k) {
        job[k].fn = fn;
        job[k].arg = arg;
        job[k].k = k;
        job[k].begin = count * k / n;
        job[k].end = count * (k + 1) / n;
        started[k] = k > 0 && pthread_create(&tid[k], NULL, part_main,
                                             &job[k]) == 0;
    }
    for (k = 0; k < n; ++k)
        if (!started[k])
            part_main(&job[k]);
    for (k = 1; k < n; ++k)
        if (started[k])
            pthread_join(tid[k], NULL);
}

/* The row-major index of linear position i of dims. */
static void unravel(int rank, const int64_t *dims, int64_t i, int64_t *o)
{
    int a;
    for (a = rank - 1; a >= 0; --a) {
        o[a] = dims[a] ? i % dims[a] : 0;
        i = dims[a] ? i / dims[a] : 0;
    }
}

/* ---- the error model (clresample(3) TOLERANCES) ----------------------------
 * A device sums the same terms w * x as the reference, in its accumulator
 * type (unit roundoff u: 2^-24 for float, 2^-53 for double) and in an
 * order of its own. First order, whatever the order, the result of k
 * terms is within u * ((k - 1) * M + C) of the exact sum, where M is the
 * sum of |w x| (the magnitude of the terms, not of the result: a sum that
 * cancels keeps the error of its terms) and C adds |w x| once per
 * rounding that forms the term: each per-axis weight that float cannot
 * hold (the tables are float), each multiplication by a weight that is
 * not a power of two, and an input the accumulator cannot hold. The
 * reference's own double rounding is added at 2^-53. A sum of one exact
 * term (nearest, max, copies, pooling windows of one pixel) gets 0: such
 * results are compared exactly. */
typedef struct errsum {
    double m; /* sum of |w x| */
    double c; /* sum of (roundings forming the term) * |w x| */
    double k; /* terms */
} errsum;

#define CLRS_U_REF 0x1p-53

/* Unit roundoff of the device's accumulator for p (double where a tensor
 * is f64; a device may also use double for s32, which this bounds). */
static double unit_of(const clrs_problem *p)
{
    int i, f64 = p->in.dtype == CLRS_F64 || p->out.dtype == CLRS_F64 ||
                 (p->has_x && p->x.dtype == CLRS_F64);
    for (i = 0; i < p->n_post_ops; ++i)
        f64 |= p->post_ops[i].kind == CLRS_POST_BINARY &&
               p->post_ops[i].operand.dtype == CLRS_F64;
    return f64 ? 0x1p-53 : 0x1p-24;
}

/* v is held exactly by an accumulator of unit roundoff u. */
static int held(double v, double u)
{
    return u < 0x1p-24 || isnan(v) || isinf(v) || (double)(float)v == v;
}

static int power_of_two(double w)
{
    int e;
    return w == 0 || frexp(fabs(w), &e) == 0.5;
}

/* Adds the term w x formed with `rounds` roundings: its weights' and,
 * where the accumulator cannot hold x, the input's own (the caller's
 * !held(x, u)). */
static void err_add_term(errsum *e, double w, double x, int rounds)
{
    const double t = fabs(w * x);
    e->m += t;
    e->c += rounds * t;
    e->k += 1;
}

/* Adds the term w x of the cursor's tap (x its input value). */
static void err_term(errsum *e, const cursor *cu, double x, double u)
{
    int a, n = 0;
    double w = 1;
    for (a = 0; a < cu->rank; ++a) {
        double wa = cursor_tap(cu, a)->w;
        w *= wa;
        n += !held(wa, u) + !power_of_two(wa);
    }
    err_add_term(e, w, x, n + !held(x, u));
}

static double err_bound(const errsum *e, double u)
{
    if (e->k < 1)
        return 0;
    return (u + CLRS_U_REF) * ((e->k - 1) * e->m + e->c);
}

/* Roundings the device's formula for an eltwise op may add, in units of u
 * of |f(v)| + |v| max(1, |alpha|) + |beta|: OpenCL C's allowances for the
 * built-ins it calls (exp, log, expm1 3 ulp, tanh 5, erf 16, sqrt 3,
 * division 2.5) and the operations around them, rounded up. */
static double eltwise_ulps(int alg)
{
    switch ((clrs_eltwise)alg) {
    case CLRS_ELTWISE_CLIP:
    case CLRS_ELTWISE_ABS: return 0;
    case CLRS_ELTWISE_RELU:
    case CLRS_ELTWISE_SQUARE: return 1;
    case CLRS_ELTWISE_LINEAR: return 2;
    case CLRS_ELTWISE_SQRT:
    case CLRS_ELTWISE_EXP:
    case CLRS_ELTWISE_LOG:
    case CLRS_ELTWISE_HARDSWISH: return 4;
    case CLRS_ELTWISE_TANH:
    case CLRS_ELTWISE_LOGISTIC:
    case CLRS_ELTWISE_ELU: return 8;
    case CLRS_ELTWISE_GELU_TANH:
    case CLRS_ELTWISE_SWISH:
    case CLRS_ELTWISE_MISH: return 16;
    case CLRS_ELTWISE_GELU_ERF: return 24;
    }
    return 32;
}

static double eltwise(const clrs_post_op *po, double x);

/* The bound d on v carried through an eltwise op: how far f moves over
 * [v - d, v + d] (at its ends and at v), plus the op's own roundings. */
static double eltwise_err(const clrs_post_op *po, double v, double d,
                          double u)
{
    double f = eltwise(po, v), s, moved = 0, r;
    if (!isfinite(f) && !isnan(f)) /* an infinity: exact, unless moved */
        return d > 0 ? INFINITY : 0;
    if (d > 0) {
        double lo = eltwise(po, v - d), hi = eltwise(po, v + d);
        moved = fmax(fabs(lo - f), fabs(hi - f));
        if (isnan(moved))
            return INFINITY;
    }
    /* at an infinite v, f is a limit the formula reaches exactly or
     * within its roundings of f */
    s = fabs(f) + (isinf(v) ? 0 : fabs(v) * fmax(1, fabs(po->alpha))) +
        fabs(po->beta);
    r = moved + eltwise_ulps(po->alg) * u * s;
    return isnan(r) ? INFINITY : r;
}

/* The same for v' = binary(v, y). */
static double binary_err(int alg, double v, double y, double r, double d,
                         double u)
{
    double own = held(y, u) ? 0 : u * fabs(y);
    switch ((clrs_binary)alg) {
    case CLRS_BINARY_ADD:
    case CLRS_BINARY_SUB: return d + own + u * fabs(r);
    case CLRS_BINARY_MUL: return d * fabs(y) + own * fabs(v) + u * fabs(r);
    case CLRS_BINARY_DIV:
        if (y == 0)
            return d > 0 ? INFINITY : 0;
        return d / fabs(y) + own * fabs(r / y) + 3 * u * fabs(r);
    case CLRS_BINARY_MAX:
    case CLRS_BINARY_MIN: return d + own;
    }
    return INFINITY;
}

/* ---- post-ops ------------------------------------------------------------
 */

/* The eltwise and binary formulas are the ref columns of
 * CLRS_ELTWISE_MAP and CLRS_BINARY_MAP (feature_maps.h); these are the ones
 * too long for a column. gelu and swish at an infinity are their limits
 * (x, or 0 where the gate closes), not inf * 0 = NaN. */
static double clrs__ref_gelu_tanh(double x)
{
    const double k = 0.79788456080286535588; /* sqrt(2/pi) */
    if (isinf(x))
        return x > 0 ? x : 0;
    return 0.5 * x * (1 + tanh(k * (x + 0.044715 * x * x * x)));
}

static double clrs__ref_gelu_erf(double x)
{
    if (isinf(x))
        return x > 0 ? x : 0;
    return 0.5 * x * (1 + erf(x * 0.70710678118654752440));
}

static double clrs__ref_swish(double x, double a)
{
    if (isinf(x))
        return a * x < 0 ? 0 : a == 0 ? 0.5 * x : x;
    return x / (1 + exp(-a * x));
}

/* oneDNN's hardswish, x * clamp(a * x + b, 0, 1). At an infinity the
 * gate is 0 or 1 (a != 0) or clamp(b, 0, 1) (a == 0): x where it is
 * open, 0 where it is closed (the function is 0 there). */
static double clrs__ref_hardswish(double x, double a, double b)
{
    if (isinf(x))
        return a * x > 0 || (a == 0 && b > 0) ? x : 0;
    return x * fmax(0.0, fmin(1.0, a * x + b));
}

/* x * tanh(softplus(x)) with softplus(x) = max(x, 0) + log1p(exp(-|x|)),
 * which neither overflows nor loses the small values of exp(x). The
 * limits: x at +inf, 0 at -inf (not -inf * 0). */
static double clrs__ref_mish(double x)
{
    if (isinf(x))
        return x > 0 ? x : 0;
    return x * tanh(fmax(x, 0.0) + log1p(exp(-fabs(x))));
}

static double eltwise(const clrs_post_op *po, double x)
{
    double a = po->alpha, b = po->beta;
    (void)a;
    (void)b;
    switch ((clrs_eltwise)po->alg) {
#define ELTWISE_(e, name, cl, ref)                                           \
    case CLRS_ELTWISE_##e:                                                   \
        return ref;
        CLRS_ELTWISE_MAP(ELTWISE_)
#undef ELTWISE_
    }
    return x;
}

static double binary(int alg, double x, double y)
{
    switch ((clrs_binary)alg) {
#define BINARY_(e, name, cl, ref)                                            \
    case CLRS_BINARY_##e:                                                    \
        return ref;
        CLRS_BINARY_MAP(BINARY_)
#undef BINARY_
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

/* v after the post-op chain; old is dst's value before the run. With d,
 * the error model's bound on v is carried through the chain (u: the
 * device's unit roundoff). */
static double post_ops(const clrs_problem *p, const clrs_host_args *args,
                       const int64_t *o, double v, double old, double *d,
                       double u)
{
    int i, a;
    for (i = 0; i < p->n_post_ops; ++i) {
        const clrs_post_op *po = &p->post_ops[i];
        int64_t bi[CLRS_MAX_RANK];
        double y, r;
        switch (po->kind) {
        case CLRS_POST_SUM:
            r = v + po->scale * old;
            if (d)
                *d +=
                    u * ((power_of_two(po->scale) ? 0 : fabs(po->scale * old)) +
                         fabs(r));
            v = r;
            break;
        case CLRS_POST_ELTWISE:
            if (d)
                *d = eltwise_err(po, v, *d, u);
            v = eltwise(po, v);
            break;
        case CLRS_POST_BINARY:
            for (a = 0; a < p->rank; ++a)
                bi[a] = po->operand.dims[a] == 1 ? 0 : o[a];
            y = clrs__load(args->post_op[i], po->operand.dtype,
                           clrs__tensor_offset(&po->operand, bi));
            r = binary(po->alg, v, y);
            if (d)
                *d = binary_err(po->alg, v, y, r, *d, u);
            v = r;
            break;
        }
    }
    return v;
}

/* ---- blocked padding -------------------------------------------------------
 * A blocked output's lanes past the blocked axis's size are written as
 * zeros, as the device kernels do, so that a blocked tensor a library
 * wrote never carries stale padding into a consumer that reads whole
 * blocks (oneDNN's zero-padding invariant). */
static void zero_block_padding(const struct clrs_tensor_desc *t, void *data)
{
    int64_t dims[CLRS_MAX_RANK], idx[CLRS_MAX_RANK] = {0};
    int ba = t->block_axis, a;
    int64_t real, padded;

    if (ba < 0)
        return;
    real = t->dims[ba];
    padded = (real + t->block - 1) / t->block * t->block;
    if (padded == real)
        return;
    for (a = 0; a < t->rank; ++a)
        dims[a] = t->dims[a];
    dims[ba] = padded - real; /* iterate the padding lanes only */
    do {
        int64_t full[CLRS_MAX_RANK];
        for (a = 0; a < t->rank; ++a)
            full[a] = idx[a];
        full[ba] = real + idx[ba];
        clrs__store(data, t->dtype, clrs__tensor_offset(t, full), 0.0);
    } while (next_index(t->rank, dims, idx));
}

/* ---- forward -------------------------------------------------------------
 */

/* The taps of the outer axes (all but the last) of a row of outputs,
 * which every output of the row shares: their Cartesian product in
 * row-major order, each entry with the product of its weights in axis
 * order (from 1, as a tap's weight is formed), its offset, padding and
 * rounding count, so a row's outputs walk only their last axis. */
typedef struct outer_tap {
    double w;
    int64_t off;
    int pad, rounds;
} outer_tap;

typedef struct row_taps {
    outer_tap *e; /* room for run.row_max entries */
    int64_t n;
} row_taps;

/* rt for the row of o. */
static void row_build(const run *r, const int64_t *o, row_taps *rt)
{
    const int outer = r->rank - 1;
    const axtap *t[CLRS_MAX_RANK];
    int64_t n[CLRS_MAX_RANK], c[CLRS_MAX_RANK], total = 1;
    int a;

    for (a = 0; a < outer; ++a) {
        const clrs_taplist *tl = &r->tl[a];
        t[a] = r->at[a] + tl->start[o[a]];
        n[a] = tl->start[o[a] + 1] - tl->start[o[a]];
        c[a] = 0;
        total *= n[a];
    }
    rt->n = 0;
    if (total > 0)
        do {
            outer_tap x = {1, 0, 0, 0};
            for (a = 0; a < outer; ++a) {
                const axtap *ta = &t[a][c[a]];
                x.w = x.w * ta->w;
                x.off += ta->off;
                x.pad |= ta->pad;
                x.rounds += ta->rounds;
            }
            rt->e[rt->n++] = x;
        } while (next_index(outer, n, c));
}

/* Whether OpenCV's vector code writes output o of p, a bicubic
 * vertical pass (clrs__cv8_row): its float sum and rounding to even. */
static int cv8_vector(const clrs_problem *p, const int64_t *o)
{
    if (p->cv_pass != 2 || p->cv8 != CLRS_CV8_CUBIC)
        return 0;
    return o[3] * p->out.dims[1] + o[1] <
           p->out.dims[3] * p->out.dims[1] / 8 * 8;
}

/* The weighted sum over the taps of output o of the row rt holds, and
 * with e the error model's terms of it: row-major over the taps, each
 * weight the product of the per-axis weights in axis order (in float
 * where cv8vec: cv8_vector of o). Returns 0 when the output has no
 * taps. */
static int row_sum(const run *r, const row_taps *rt, const void *src,
                   const int64_t *o, int cv8vec, double *v, errsum *e)
{
    const clrs_problem *p = r->p;
    const int last = r->rank - 1;
    const clrs_taplist *tl = &r->tl[last];
    const axtap *t = r->at[last] + tl->start[o[last]];
    const int64_t n = tl->start[o[last] + 1] - tl->start[o[last]];
    const int f32 = p->in.dtype == CLRS_F32; /* clrs__load's, inline */
    const int cv8lin = p->cv_pass == 2 && CLRS__CV8_LIN(p);
    /* OpenCV's float sums: its bicubic rows' vector code, its area
     * passes */
    const int cv8f = cv8vec || p->cv8 == CLRS_CV8_AREA;
    double sum = 0;
    int64_t i, k;

    if (n == 0 || rt->n == 0)
        return 0;
    for (i = 0; i < rt->n; ++i) {
        const outer_tap *x0 = &rt->e[i];
        for (k = 0; k < n; ++k) {
            const double w = x0->w * t[k].w;
            const double x =
                x0->pad | t[k].pad ? p->pad_value
                : f32 ? (double)((const float *)src)[x0->off + t[k].off]
                      : clrs__load(src, p->in.dtype, x0->off + t[k].off);
            if (cv8lin) /* OpenCV's 8-bit bilinear rows */
                sum += floor(w * floor(x * 0.0625) / 65536.0) * 0.25;
            else if (cv8f) /* its float sums */
                sum = (double)(float)(sum + (double)(float)(w * x));
            else
                sum += w * x;
            if (e)
                err_add_term(e, w, x,
                             x0->rounds + t[k].rounds +
                                 (r->held_all ? 0 : !held(x, r->u)));
        }
    }
    *v = sum;
    return 1;
}

/* Output o; with bound, its error bound in *bound. */
static void forward_one(const run *r, const clrs_host_args *args,
                        const row_taps *rt, const int64_t *o, double *bound)
{
    const clrs_problem *p = r->p;
    int64_t off = offset_of(&r->out, o), wi = 0, pi = -1;
    const int cv8vec = cv8_vector(p, o);
    double v, d = 0, u = r->u;

    if (extrapolated(r, o)) {
        v = p->extrapolation;
    } else if (r->kclass == CLRS_KCLASS_MAX) {
        cursor win;
        if (window_max(r, &p->in, &r->in, args->src, o, &v, &win))
            tap_indices(r, &win, &wi, &pi);
        if (!held(v, u)) /* an input the accumulator rounds */
            d = u * fabs(v);
    } else {
        errsum e = {0, 0, 0};
        v = 0;
        if (row_sum(r, rt, args->src, o, cv8vec, &v, bound ? &e : NULL) &&
            bound)
            d = p->cv8 ? 0 /* OpenCV's 8-bit arithmetic, exactly */
                       : err_bound(&e, u);
    }
    if (p->has_index)
        clrs__store(args->index, p->index.dtype, offset_of(&r->index, o),
                    (double)(CLRS__INDEX_IS_PLANE(p->index_format) ? pi : wi));
    if (p->n_post_ops > 0) {
        double old = clrs__load(args->dst, p->out.dtype, off);
        v = post_ops(p, args, o, v, old, bound ? &d : NULL, u);
    }
    if (cv8vec) /* OpenCV's bicubic rows in float */
        v = nearbyint(v);
    else if (p->cv8 == CLRS_CV8_AREA_FAST) /* its sum times 1 / area */
        v = nearbyint((double)(float)v);
    else if (CLRS__HALF_UP(p) || (p->cv_pass == 2 && p->cv8 == CLRS_CV8_CUBIC))
        /* Pillow's clip8, OpenCV's fixed-point cast (the sum is exact) */
        v = floor(v + 0.5);
    clrs__store(args->dst, p->out.dtype, off, v);
    if (bound)
        *bound = d;
}

/* Outputs begin .. end - 1 of a forward run, part k of it. */
typedef struct fwd_part {
    const run *r;
    const clrs_host_args *args;
    double *bound;
    outer_tap *rows[CLRS_REF_MAX_THREADS]; /* a row's room per part */
} fwd_part;

static void forward_part(void *arg, int k, int64_t begin, int64_t end)
{
    const fwd_part *f = arg;
    const run *r = f->r;
    const int sums = r->kclass != CLRS_KCLASS_MAX;
    int64_t o[CLRS_MAX_RANK], i;
    row_taps rt;

    rt.e = f->rows[k];
    rt.n = 0;
    unravel(r->rank, r->p->out.dims, begin, o);
    for (i = begin; i < end; ++i) {
        /* A new row of the last axis: its outer taps. */
        if (sums && (i == begin || o[r->rank - 1] == 0))
            row_build(r, o, &rt);
        forward_one(r, f->args, &rt, o, f->bound ? &f->bound[i] : NULL);
        next_index(r->rank, r->p->out.dims, o);
    }
}

/* Pillow's 8-bit path over several axes (p->fixed8): one pass per
 * axis, the last first, each but the last into a u8 image, as Pillow
 * rounds and clips between its horizontal and vertical passes. OpenCV's
 * two-pass 8-bit methods (CLRS__CV8_PASSES) the same way through an s32
 * image of its exact horizontal sums, each pass told which it is. */
static clrs_status forward_passes(const clrs_resample_desc *op,
                                  const clrs_problem *p,
                                  const clrs_host_args *args, double *bound)
{
    struct clrs_tensor_desc cur = p->in, next;
    const void *from = args->src;
    void *mid = NULL, *prev = NULL;
    clrs_status st = CLRS_SUCCESS;
    int k;

    for (k = p->naxes - 1; k >= 0 && st == CLRS_SUCCESS; --k) {
        const int a = p->ax[k].axis;
        struct clrs_resample_desc o;
        clrs_host_args pa = *args;
        clrs__op_one_axis(op, k, a, &o);
        if (CLRS__CV8_PASSES(p)) {
            o.cv_pass = p->naxes - k;
            o.cv_method = p->cv8;
        }
        if (k > 0) {
            struct clrs_tensor_desc like = cur;
            like.dims[a] = p->out.dims[a];
            clrs__tensor_dense_like(
                &like, p->fixed8 ? CLRS_U8 : CLRS__CV8_MID(p), &next);
            o.n_post_ops = 0;
            o.accumulate = 0;
            mid = malloc(clrs_tensor_desc_bytes(&next) + 1);
            if (!mid) {
                st = clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                                 "reference: out of memory for a pass");
                break;
            }
        } else {
            next = p->out;
            mid = NULL;
        }
        pa.src = from;
        pa.dst = k > 0 ? mid : args->dst;
        st = clrs_reference_forward_bound(&o, &cur, &next, NULL, &pa,
                                          k > 0 ? NULL : bound);
        free(prev);
        prev = mid;
        from = mid;
        cur = next;
    }
    free(prev);
    return st;
}

CLRS_API clrs_status clrs_reference_forward_bound(
    const clrs_resample_desc *op, const clrs_tensor_desc *src,
    const clrs_tensor_desc *dst, const clrs_tensor_desc *index,
    const clrs_host_args *args, double *bound)
{
    clrs_problem p;
    clrs_status st;
    int64_t i;
    run r;

    CLRS_CHECK_PTR(args);
    CLRS_TRY(clrs__problem_init(&p, op, src, dst, index, NULL, 0));
    if (clrs__tensor_empty(&p.out)) { /* no element, no buffer read */
        clrs__clear_error();
        return CLRS_SUCCESS;
    }
    CLRS_CHECK_PTR(args->src);
    CLRS_CHECK_PTR(args->dst);
    CLRS_CHECK(!p.has_index || args->index != NULL, CLRS_ERR_NULL_POINTER,
               "args->index is NULL but an index tensor was given");
    CLRS_TRY(check_post_ops(&p, args));
    if ((p.fixed8 && p.naxes > 1 && !p.has_index) || CLRS__CV8_PASSES(&p))
        return forward_passes(op, &p, args, bound);

    st = run_init(&r, &p);
    if (st == CLRS_SUCCESS) {
        fwd_part part;
        int64_t count = 1;
        int k, n;
        for (i = 0; i < p.rank; ++i)
            count *= p.out.dims[i];
        n = ref_threads(count);
        memset(&part, 0, sizeof part);
        part.r = &r;
        part.args = args;
        part.bound = bound;
        for (k = 0; k < n && st == CLRS_SUCCESS; ++k)
            if (!(part.rows[k] = malloc((size_t)r.row_max *
                                        sizeof *part.rows[k])))
                st = clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                                 "reference: out of memory for taps");
        if (st == CLRS_SUCCESS) {
            run_parts(forward_part, &part, n, count);
            zero_block_padding(&p.out, args->dst);
            clrs__clear_error();
        }
        for (k = 0; k < n; ++k)
            free(part.rows[k]);
    }
    run_free(&r);
    return st;
}

CLRS_API clrs_status clrs_reference_forward(const clrs_resample_desc *op,
                                            const clrs_tensor_desc *src,
                                            const clrs_tensor_desc *dst,
                                            const clrs_tensor_desc *index,
                                            const clrs_host_args *args)
{
    return clrs_reference_forward_bound(op, src, dst, index, args, NULL);
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

/* dx += dy * A[o, :] for a mode linear in its input; with es, the error
 * model's terms of each dx too. */
static void scatter_linear(const run *r, double *acc, errsum *es,
                           const int64_t *o, double dy, double u)
{
    cursor cu;
    int64_t idx[CLRS_MAX_RANK];
    double w;
    if (!cursor_begin(&cu, r, o))
        return;
    do {
        if (cursor_pixel(&cu, idx, &w)) { /* padding taps send nowhere */
            acc[dense_of(r, idx)] += w * dy;
            if (es)
                err_term(&es[dense_of(r, idx)], &cu, dy, u);
        }
    } while (cursor_next(&cu));
}

/* A term of weight 1. */
static void err_add(errsum *e, double x, double u)
{
    e->m += fabs(x);
    e->c += held(x, u) ? 0 : fabs(x);
    e->k += 1;
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
        const clrs_taplist *tl = &r->tl[a];
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
                               double *acc, errsum *es, const int64_t *o,
                               double dy, double u)
{
    const clrs_problem *p = r->p;
    int64_t idx[CLRS_MAX_RANK];
    int got;
    if (p->has_index) {
        double v =
            clrs__load(args->index, p->index.dtype, offset_of(&r->index, o));
        got = CLRS__INDEX_IS_PLANE(p->index_format)
                  ? decode_plane(r, o, v, idx)
                  : decode_window(r, o, v, idx);
        if (got < 0)
            return CLRS_ERR_BAD_INDEX_TENSOR;
    } else {
        cursor win;
        double w, best;
        got = window_max(r, &p->x, &r->x, args->src, o, &best, &win) &&
              cursor_pixel(&win, idx, &w);
    }
    if (got) {
        acc[dense_of(r, idx)] += dy;
        if (es)
            err_add(&es[dense_of(r, idx)], dy, u);
    }
    return CLRS_SUCCESS;
}

/* Reads (accumulate) or zeroes the accumulators, in dense order; es, when
 * given, starts with the accumulated values as terms. */
static void acc_init(const run *r, const clrs_host_args *args, double *acc,
                     errsum *es, double u)
{
    const clrs_problem *p = r->p;
    int64_t idx[CLRS_MAX_RANK] = {0}, d = 0;
    if (es)
        memset(es, 0, (size_t)r->in_count * sizeof *es);
    if (!p->accumulate) {
        for (d = 0; d < r->in_count; ++d)
            acc[d] = 0;
        return;
    }
    do {
        acc[d] =
            clrs__load(args->diff_src, p->in.dtype, offset_of(&r->in, idx));
        if (es)
            err_add(&es[d], acc[d], u);
        ++d;
    } while (next_index(p->rank, p->in.dims, idx));
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
                                double *acc, errsum *es, double *bound)
{
    const clrs_problem *p = r->p;
    int64_t o[CLRS_MAX_RANK] = {0}, d;
    double u = unit_of(p);
    acc_init(r, args, acc, es, u);
    do {
        double dy;
        if (extrapolated(r, o)) /* a constant output has no gradient */
            continue;
        dy = clrs__load(args->diff_dst, p->out.dtype, offset_of(&r->out, o));
        if (clrs__mode_kclass((int)p->mode) == CLRS_KCLASS_MAX)
            CLRS_TRY(scatter_max(r, args, acc, es, o, dy, u));
        else
            scatter_linear(r, acc, es, o, dy, u);
    } while (next_index(p->rank, p->out.dims, o));
    /* Stored only once every index was checked: a bad index tensor leaves
     * diff_src untouched. */
    acc_store(r, args, acc);
    zero_block_padding(&p->in, args->diff_src);
    if (es)
        for (d = 0; d < r->in_count; ++d)
            bound[d] = err_bound(&es[d], u);
    return CLRS_SUCCESS;
}

CLRS_API clrs_status clrs_reference_backward_bound(
    const clrs_resample_desc *op, const clrs_tensor_desc *diff_src,
    const clrs_tensor_desc *diff_dst, const clrs_tensor_desc *index,
    const clrs_tensor_desc *src, const clrs_host_args *args, double *bound)
{
    clrs_problem p;
    clrs_status st;
    double *acc = NULL;
    errsum *es = NULL;
    run r;

    CLRS_CHECK_PTR(args);
    CLRS_TRY(clrs__problem_init(&p, op, diff_src, diff_dst, index, src, 1));
    if (clrs__tensor_empty(&p.in)) { /* no element, no buffer read */
        clrs__clear_error();
        return CLRS_SUCCESS;
    }
    CLRS_CHECK_PTR(args->diff_dst);
    CLRS_CHECK_PTR(args->diff_src);
    CLRS_CHECK(!p.has_index || args->index != NULL, CLRS_ERR_NULL_POINTER,
               "args->index is NULL but an index tensor was given");
    CLRS_CHECK(!clrs__mode_allows((int)p.mode, CLRS_MOPT_INDEX) ||
                   p.has_index || p.has_x,
               CLRS_ERR_MISSING_INPUT,
               "max pooling backward needs the index tensor or src");
    CLRS_CHECK(p.has_index || !p.has_x || args->src != NULL,
               CLRS_ERR_NULL_POINTER,
               "args->src is NULL but max pooling backward recomputes the "
               "argmax from it");

    st = run_init(&r, &p);
    if (st == CLRS_SUCCESS) {
        if ((uint64_t)r.in_count < ((size_t)-1) / sizeof *es) {
            acc = malloc((size_t)r.in_count * sizeof *acc);
            if (bound)
                es = malloc((size_t)r.in_count * sizeof *es);
        }
        if (acc == NULL || (bound && es == NULL))
            st = clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                             "reference: out of memory for %lld gradient "
                             "accumulators",
                             (long long)r.in_count);
    }
    if (st == CLRS_SUCCESS)
        st = backward_run(&r, args, acc, es, bound);
    if (st == CLRS_SUCCESS)
        clrs__clear_error();
    free(es);
    free(acc);
    run_free(&r);
    return st;
}

CLRS_API clrs_status clrs_reference_backward(const clrs_resample_desc *op,
                                             const clrs_tensor_desc *diff_src,
                                             const clrs_tensor_desc *diff_dst,
                                             const clrs_tensor_desc *index,
                                             const clrs_tensor_desc *src,
                                             const clrs_host_args *args)
{
    return clrs_reference_backward_bound(op, diff_src, diff_dst, index, src,
                                         args, NULL);
}

/* clresample(3) TOLERANCES: got agrees with want within bound (from the
 * functions above) and one spacing of dt's values at their magnitude (the
 * device and the reference each round once to dt). */
static double spacing(clrs_dtype dt, double m)
{
    int e, bits, emin;
    switch (dt) {
    case CLRS_F32: bits = 24, emin = -125; break;
    case CLRS_F64: bits = 53, emin = -1021; break;
    case CLRS_F16: bits = 11, emin = -13; break;
    case CLRS_BF16: bits = 8, emin = -125; break;
    default: return 1; /* integers */
    }
    frexp(m, &e);
    if (m == 0 || e < emin)
        e = emin;
    return ldexp(1, e - bits);
}

CLRS_API int clrs_reference_agrees(clrs_dtype dt, double got, double want,
                                   double bound)
{
    if (isnan(got) || isnan(want))
        return isnan(got) && isnan(want);
    if (got == want)
        return 1;
    if (!(bound > 0))
        return 0;
    if (isinf(bound))
        return 1;
    if (isinf(got) || isinf(want))
        return 0;
    return fabs(got - want) <=
           bound + spacing(dt, fmax(fabs(got), fabs(want)));
}
