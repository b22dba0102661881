/* Properties of the CPU reference that need no stored answers: constants,
 * identity, exact integers, max indices, conversions, determinism.
 * CLRS_TEST_SEED=S reruns case S alone; CLRS_TEST_SEED_BASE moves the run. */
#include "tap.h"
#include "util.h"

#include <inttypes.h>
#include <string.h>

#define NCASES 600
#define MAX_ELEMS 1000

/* Case seed S runs kind S % NKINDS; the kind picks its variant or dtype
 * pair from S / NKINDS, so consecutive seeds cover every row. */
enum { K_CONST, K_IDENTITY, K_INT_EXACT, K_MAX_INDEX, K_DETERMINISM, NKINDS };

static const clrs_dtype all_dtypes[] = {CLRS_F32, CLRS_F16, CLRS_BF16,
                                        CLRS_F64, CLRS_S32, CLRS_S8,
                                        CLRS_U8};
#define NDTYPES 7

static const char *dtn(clrs_dtype dt)
{
    const char *n = clrs_dtype_name(dt);
    return n ? n : "?";
}

/* Everything a case allocates, freed in one place. */
#define MAXT 12
typedef struct pool {
    clrs_tensor_desc *d[MAXT];
    tu_buf b[MAXT];
    int n;
    clrs_resample_desc *op, *op2;
} pool;

static void pool_free(pool *p)
{
    int i;
    for (i = 0; i < p->n; ++i) {
        tu_buf_free(&p->b[i]);
        clrs_tensor_desc_destroy(p->d[i]);
    }
    clrs_resample_desc_destroy(p->op);
    clrs_resample_desc_destroy(p->op2);
    memset(p, 0, sizeof *p);
}

/* A new tensor in the pool; NULL on failure (message printed). */
static tu_buf *pool_tensor(pool *p, tu_rng *r, clrs_dtype dt, int rank,
                           const int64_t *dims, unsigned mask,
                           const char *what)
{
    int i = p->n++;
    if (tu_make_tensor(&p->d[i], &p->b[i], r, dt, rank, dims, mask, what))
        return NULL;
    return &p->b[i];
}

static void print_config(uint64_t seed, const char *kind, const tu_op *op,
                         const char *extra)
{
    char desc[1536];
    tu_op_describe(op, desc, sizeof desc);
    tap_diag("seed %" PRIu64 " config %s %s %s", seed, kind, desc, extra);
}

static void print_tensors(const pool *p)
{
    char s[256];
    int i;
    for (i = 0; i < p->n; ++i) {
        if (!p->d[i]) /* a second buffer sharing an earlier descriptor */
            continue;
        tu_desc_str(p->d[i], s, sizeof s);
        tap_diag("  tensor %d: %s", i, s);
    }
}

static int ref_fwd(const tu_op *c, const clrs_resample_desc *op,
                   const tu_buf *src, tu_buf *dst, tu_buf *index)
{
    clrs_host_args a;
    clrs_status st;
    memset(&a, 0, sizeof a);
    a.src = src->data;
    a.dst = dst->data;
    a.index = index ? index->data : NULL;
    st = clrs_reference_forward(op, src->desc, dst->desc,
                                index ? index->desc : NULL, &a);
    if (st != CLRS_SUCCESS)
        tap_diag("%s forward -> %s: %s", c->v->name, clrs_status_name(st),
                 clrs_last_error());
    return st == CLRS_SUCCESS;
}

static int ref_bwd(const tu_op *c, const clrs_resample_desc *op,
                   tu_buf *dx, const tu_buf *dy, const tu_buf *index,
                   const tu_buf *src)
{
    clrs_host_args a;
    clrs_status st;
    memset(&a, 0, sizeof a);
    a.diff_src = dx->data;
    a.diff_dst = dy->data;
    a.index = index ? index->data : NULL;
    a.src = src ? src->data : NULL;
    st = clrs_reference_backward(op, dx->desc, dy->desc,
                                 index ? index->desc : NULL,
                                 src ? src->desc : NULL, &a);
    if (st != CLRS_SUCCESS)
        tap_diag("%s backward -> %s: %s", c->v->name, clrs_status_name(st),
                 clrs_last_error());
    return st == CLRS_SUCCESS;
}

/* ---- constant in, constant out ----------------------------------------- */

/* Every mode with edge padding (and extrapolation equal to the constant)
 * reproduces a constant: interpolation weights sum to 1, averages divide
 * by their own weight, a max of equal values is that value. */
static void case_const(uint64_t seed, tu_rng *r)
{
    const tu_variant *v = &tu_variants[(seed / NKINDS) % TU_NVARIANTS];
    clrs_coord coord = tu_coords[tu_rng_int(r, 0, TU_NCOORDS - 1)];
    clrs_dtype sdt = tu_rng_chance(r, 0.5) ? CLRS_F32 : CLRS_F64;
    clrs_dtype ddt = tu_rng_chance(r, 0.5) ? CLRS_F32 : CLRS_F64;
    double cval;
    tu_op c;
    pool p;
    tu_buf *x, *y;
    int64_t idx[CLRS_MAX_RANK];
    double worst = 0;
    int ok;
    char extra[96];

    memset(&p, 0, sizeof p);
    /* Windows must overlap the input: an exclude average of nothing is 0
     * and a window of nothing but padding is no test of the mode. */
    tu_op_random(&c, r, v, coord, TU_OP_COVER, MAX_ELEMS);
    c.pad = CLRS_PAD_EDGE;
    do
        cval = (double)tu_rng_int(r, -80, 80) / 16.0;
    while (cval == 0);
    c.extrapolation = cval;
    snprintf(extra, sizeof extra, "value=%g %s->%s", cval, dtn(sdt),
             dtn(ddt));
    print_config(seed, "const", &c, extra);

    x = pool_tensor(&p, r, sdt, c.rank, c.in, TU_LAYOUTS_ALL, "src");
    y = x ? pool_tensor(&p, r, ddt, c.rank, c.out, TU_LAYOUTS_DST, "dst")
          : NULL;
    p.op = tu_op_build(&c);
    if (!x || !y || !p.op) {
        tap_ok(0, "seed %" PRIu64 " const %s: setup", seed, v->name);
        pool_free(&p);
        return;
    }
    print_tensors(&p);
    tu_fill_const(x, cval);
    ok = ref_fwd(&c, p.op, x, y, NULL);
    ok = ok && tu_buf_check_unchanged(x, "src") == 0 &&
         tu_buf_check_output(y, "dst") == 0;
    if (ok && tu_idx_first(c.rank, c.out, idx))
        do {
            double got = tu_get(y, idx), err = fabs(got - cval);
            /* f32 output: the double result is within ~1e-15 of cval,
             * which f32 holds exactly, so rounding must give cval. */
            double lim = ddt == CLRS_F32 ? 0 : 1e-12 * fabs(cval);
            if (!(err <= lim)) {
                if (ok)
                    tap_diag("output at offset %" PRId64 " = %.17g, want %g",
                             tu_buf_offset(y, idx), got, cval);
                ok = 0;
            }
            if (err > worst)
                worst = err;
        } while (tu_idx_next(c.rank, c.out, idx));
    tap_ok(ok, "seed %" PRIu64 " const %s/%s %s->%s: constant in, constant "
           "out (max err %.3g)",
           seed, v->name, tu_coord_name(c.coord), dtn(sdt), dtn(ddt), worst);
    pool_free(&p);
}

/* ---- scale 1 is the identity ------------------------------------------- */

/* With O == I and half_pixel, x(o) = (o + 0.5) * 1 - 0.5 = o exactly, so
 * every interpolation has one tap of weight exactly 1 and the others
 * exactly 0: the output must equal the input bit for bit, whatever the
 * values and whatever the padding reads. */
static void case_identity(uint64_t seed, tu_rng *r)
{
    /* nearest (4 roundings), linear, cubic, cubic/exclude, antialias */
    const tu_variant *v = &tu_variants[(seed / NKINDS) % 9];
    static const clrs_dtype pairs[][2] = {{CLRS_F32, CLRS_F32},
                                          {CLRS_F64, CLRS_F64},
                                          {CLRS_F32, CLRS_F64}};
    int pi = (int)tu_rng_int(r, 0, 2), k, j, ok;
    clrs_dtype sdt = pairs[pi][0], ddt = pairs[pi][1];
    tu_op c;
    pool p;
    tu_buf *x, *y;
    int64_t idx[CLRS_MAX_RANK], mism = 0;
    char extra[96];

    memset(&p, 0, sizeof p);
    tu_op_random(&c, r, v, CLRS_COORD_HALF_PIXEL, 0, MAX_ELEMS);
    for (k = 0; k < c.rank; ++k)
        c.out[k] = c.in[k];
    for (j = 0; j < c.naxes; ++j)
        c.scales[j] = 1.0;
    if (c.pad == CLRS_PAD_CONSTANT)
        c.pad_value = 5.0; /* read with weight 0 only */
    snprintf(extra, sizeof extra, "%s->%s", dtn(sdt), dtn(ddt));
    print_config(seed, "identity", &c, extra);

    x = pool_tensor(&p, r, sdt, c.rank, c.in, TU_LAYOUTS_ALL, "src");
    y = x ? pool_tensor(&p, r, ddt, c.rank, c.out, TU_LAYOUTS_DST, "dst")
          : NULL;
    p.op = tu_op_build(&c);
    if (!x || !y || !p.op) {
        tap_ok(0, "seed %" PRIu64 " identity %s: setup", seed, v->name);
        pool_free(&p);
        return;
    }
    print_tensors(&p);
    /* Full-precision values: any weight that is not exactly 0 or 1 shows. */
    tu_fill_uniform(x, r, -100, 100);
    ok = ref_fwd(&c, p.op, x, y, NULL);
    ok = ok && tu_buf_check_unchanged(x, "src") == 0 &&
         tu_buf_check_output(y, "dst") == 0;
    if (ok && tu_idx_first(c.rank, c.in, idx))
        do {
            double want = tu_get(x, idx), got = tu_get(y, idx);
            if (!tap_same(got, want)) {
                if (!mism)
                    tap_diag("output at offset %" PRId64
                             " = %.17g, input %.17g",
                             tu_buf_offset(y, idx), got, want);
                ++mism;
            }
        } while (tu_idx_next(c.rank, c.in, idx));
    ok = ok && mism == 0;
    tap_ok(ok, "seed %" PRIu64 " identity %s %s->%s: scale 1 is exact "
           "(%" PRId64 " mismatches)",
           seed, v->name, dtn(sdt), dtn(ddt), mism);
    pool_free(&p);
}

/* ---- independent oracles for nearest and integer-window max ------------- */

/* Source index of output o on a nearest axis with edge padding, from the
 * coordinate model: x in float, in the order (o + a) * r - b, r = 1/s in
 * double rounded once to float; then the rounding rule and the clamp. */
static int64_t nearest_src(clrs_coord coord, int rounding, int64_t in,
                           int64_t out, int64_t o)
{
    float a = 0, b = 0, rr, x;
    double s = (double)out / (double)in, xd;
    int64_t i;
    switch (coord) {
    case CLRS_COORD_HALF_PIXEL:
        a = b = 0.5f;
        break;
    case CLRS_COORD_PYTORCH_HALF_PIXEL:
        a = b = 0.5f;
        if (out == 1)
            return 0;
        break;
    case CLRS_COORD_ALIGN_CORNERS:
        if (out == 1 || in == 1)
            return 0;
        s = (double)(out - 1) / (double)(in - 1);
        break;
    case CLRS_COORD_ASYMMETRIC:
        break;
    case CLRS_COORD_TF_HALF_PIXEL_FOR_NN:
        a = 0.5f;
        break;
    default:
        return -1;
    }
    rr = (float)(1.0 / s);
    x = ((float)o + a) * rr - b;
    xd = x; /* the rounding rules are exact in double */
    switch (rounding) {
    case CLRS_ROUND_PREFER_FLOOR:
        i = (int64_t)ceil(xd - 0.5);
        break;
    case CLRS_ROUND_PREFER_CEIL:
        i = (int64_t)floor(xd + 0.5);
        break;
    case CLRS_ROUND_FLOOR:
        i = (int64_t)floor(xd);
        break;
    default:
        i = (int64_t)ceil(xd);
        break;
    }
    return i < 0 ? 0 : i >= in ? in - 1 : i;
}

/* Integer-window max pooling geometry on the resampled axes of c. */
typedef struct maxgeo {
    int64_t w[CLRS_MAX_RANK], s[CLRS_MAX_RANK], pre[CLRS_MAX_RANK];
    int slot[CLRS_MAX_RANK]; /* tensor axis -> pooled slot or -1 */
} maxgeo;

/* A max pooling op with integer windows where every window overlaps the
 * input (pre, post < window). big: two pooled axes with a window volume
 * over 127, so the window index needs s32. */
static void max_geometry(tu_op *c, maxgeo *g, tu_rng *r, int big)
{
    int k, j;
    memset(c, 0, sizeof *c);
    c->v = &tu_variants[TU_NVARIANTS - 1];
    c->coord = CLRS_COORD_WINDOW;
    c->has_window = c->has_stride = 1;
    c->int_api = tu_rng_chance(r, 0.5);
    c->coord_explicit = tu_rng_chance(r, 0.5);
    c->rank = big ? (int)tu_rng_int(r, 2, 3) : (int)tu_rng_int(r, 1, 4);
    c->set_axes = 1;
    if (big) {
        c->naxes = 2;
        c->axes[0] = c->rank - 2;
        c->axes[1] = c->rank - 1;
    } else {
        do {
            c->naxes = 0;
            for (k = 0; k < c->rank; ++k)
                if (tu_rng_chance(r, 0.6))
                    c->axes[c->naxes++] = k;
        } while (c->naxes == 0);
    }
    for (k = 0; k < c->rank; ++k) {
        g->slot[k] = -1;
        c->in[k] = c->out[k] = tu_rng_int(r, 1, big ? 2 : 3);
    }
    for (j = 0; j < c->naxes; ++j) {
        int ax = c->axes[j];
        int64_t w = big ? 12 - j : tu_rng_int(r, 1, 3);
        int64_t s = big ? tu_rng_int(r, 1, 2) : tu_rng_int(r, 1, 3);
        int64_t pre = tu_rng_int(r, 0, big ? 1 : w - 1);
        int64_t post = tu_rng_int(r, 0, big ? 1 : w - 1);
        int64_t in = big ? w + tu_rng_int(r, 0, 1) : tu_rng_int(r, 1, 6);
        int64_t span = in + pre + post - w;
        g->slot[ax] = j;
        g->w[j] = w;
        g->s[j] = s;
        g->pre[j] = pre;
        c->in[ax] = in;
        c->out[ax] = span < 0 ? 1 : span / s + 1;
        c->window[j].num = w;
        c->stride[j].num = s;
        c->pre[j].num = pre;
        c->post[j].num = post;
        c->window[j].den = c->stride[j].den = c->pre[j].den =
            c->post[j].den = 1;
    }
    c->pad = CLRS_PAD_DEFAULT;
}

typedef struct maxres {
    double value;
    int64_t window_index;          /* flat in the window box */
    int64_t plane_index;           /* flat in the pooled input axes, or -1 */
    int64_t pos[CLRS_MAX_RANK];    /* winner (valid when plane_index >= 0) */
} maxres;

/* Max over the window of output o, first in row-major box order winning
 * ties; padding taps read pad (-inf for NEG_INF). */
static maxres max_oracle(const tu_op *c, const maxgeo *g, const tu_buf *x,
                         const int64_t *o, double pad)
{
    int64_t box[CLRS_MAX_RANK], bdims[CLRS_MAX_RANK], pos[CLRS_MAX_RANK];
    int64_t flat = 0;
    maxres m;
    int j, k, first = 1;
    m.value = -INFINITY;
    m.window_index = -1;
    m.plane_index = -1;
    for (j = 0; j < c->naxes; ++j)
        bdims[j] = g->w[j];
    tu_idx_first(c->naxes, bdims, box);
    do {
        int inside = 1;
        double v;
        for (k = 0; k < c->rank; ++k) {
            j = g->slot[k];
            pos[k] = j < 0 ? o[k] : o[k] * g->s[j] - g->pre[j] + box[j];
            if (pos[k] < 0 || pos[k] >= c->in[k])
                inside = 0;
        }
        v = inside ? tu_get(x, pos) : pad;
        if (first || v > m.value) {
            first = 0;
            m.value = v;
            m.window_index = flat;
            m.plane_index = -1;
            if (inside) {
                m.plane_index = 0;
                for (j = 0; j < c->naxes; ++j)
                    m.plane_index =
                        m.plane_index * c->in[c->axes[j]] + pos[c->axes[j]];
                memcpy(m.pos, pos, sizeof pos);
            }
        }
        ++flat;
    } while (tu_idx_next(c->naxes, bdims, box));
    return m;
}

/* ---- integers are exact through nearest and max -------------------------- */

static int check_exact(const tu_buf *y, const tu_buf *want, int rank,
                       const int64_t *dims, const char *what)
{
    int64_t idx[CLRS_MAX_RANK], bad = 0;
    if (tu_idx_first(rank, dims, idx))
        do {
            double g = tu_get(y, idx), w = tu_get(want, idx);
            if (!tap_same(g, w)) {
                if (!bad)
                    tap_diag("%s: output at offset %" PRId64
                             " = %.17g, want %.17g",
                             what, tu_buf_offset(y, idx), g, w);
                ++bad;
            }
        } while (tu_idx_next(rank, dims, idx));
    return bad == 0;
}

static void case_int_exact(uint64_t seed, tu_rng *r)
{
    int pair = (int)((seed / NKINDS) % (NDTYPES * NDTYPES));
    clrs_dtype sdt = all_dtypes[pair / NDTYPES];
    clrs_dtype ddt = all_dtypes[pair % NDTYPES];
    /* Integers every one of the seven dtypes holds exactly. */
    int lo = sdt == CLRS_U8 || ddt == CLRS_U8 ? 0 : -8;
    int hi = lo + 16;
    int pass;
    char extra[96];

    for (pass = 0; pass < 2; ++pass) {
        static const clrs_coord nc[] = {
            CLRS_COORD_HALF_PIXEL, CLRS_COORD_PYTORCH_HALF_PIXEL,
            CLRS_COORD_ALIGN_CORNERS, CLRS_COORD_ASYMMETRIC,
            CLRS_COORD_TF_HALF_PIXEL_FOR_NN};
        tu_op c;
        maxgeo g;
        pool p;
        tu_buf *x, *y, *want;
        int64_t o[CLRS_MAX_RANK], si[CLRS_MAX_RANK];
        int k, j, ok;

        memset(&p, 0, sizeof p);
        if (pass == 0) {
            /* nearest, edge padding, scale O/I */
            memset(&c, 0, sizeof c);
            c.v = &tu_variants[tu_rng_int(r, 0, 3)];
            c.coord = nc[tu_rng_int(r, 0, 4)];
            c.coord_explicit = 1;
            c.rank = (int)tu_rng_int(r, 1, 4);
            c.set_axes = 1;
            do {
                c.naxes = 0;
                for (k = 0; k < c.rank; ++k)
                    if (tu_rng_chance(r, 0.6))
                        c.axes[c.naxes++] = k;
            } while (c.naxes == 0);
            for (k = 0; k < c.rank; ++k) {
                g.slot[k] = -1;
                c.in[k] = c.out[k] = tu_rng_int(r, 1, 3);
            }
            for (j = 0; j < c.naxes; ++j) {
                g.slot[c.axes[j]] = j;
                c.in[c.axes[j]] = tu_rng_int(r, 1, 6);
                c.out[c.axes[j]] = tu_rng_int(r, 1, 8);
            }
            c.pad = tu_rng_chance(r, 0.5) ? CLRS_PAD_DEFAULT : CLRS_PAD_EDGE;
        } else {
            max_geometry(&c, &g, r, 0);
        }
        snprintf(extra, sizeof extra, "%s->%s values [%d,%d]", dtn(sdt),
                 dtn(ddt), lo, hi);
        print_config(seed, "int_exact", &c, extra);

        x = pool_tensor(&p, r, sdt, c.rank, c.in, TU_LAYOUTS_ALL, "src");
        y = x ? pool_tensor(&p, r, ddt, c.rank, c.out, TU_LAYOUTS_DST, "dst")
              : NULL;
        want = y ? pool_tensor(&p, r, CLRS_F64, c.rank, c.out, 1u << TU_DENSE,
                               "expected")
                 : NULL;
        p.op = tu_op_build(&c);
        if (!x || !y || !want || !p.op) {
            tap_ok(0, "seed %" PRIu64 " int_exact %s: setup", seed,
                   c.v->name);
            pool_free(&p);
            continue;
        }
        print_tensors(&p);
        tu_fill_ints(x, r, lo, hi);
        if (tu_idx_first(c.rank, c.out, o))
            do {
                double v;
                if (pass == 0) {
                    for (k = 0; k < c.rank; ++k)
                        si[k] = g.slot[k] < 0
                                    ? o[k]
                                    : nearest_src(c.coord, c.v->rounding,
                                                  c.in[k], c.out[k], o[k]);
                    v = tu_get(x, si);
                } else {
                    v = max_oracle(&c, &g, x, o, -INFINITY).value;
                }
                tu_set(want, o, v);
            } while (tu_idx_next(c.rank, c.out, o));
        ok = ref_fwd(&c, p.op, x, y, NULL);
        ok = ok && tu_buf_check_unchanged(x, "src") == 0 &&
             tu_buf_check_output(y, "dst") == 0;
        ok = ok && check_exact(y, want, c.rank, c.out, c.v->name);
        tap_ok(ok, "seed %" PRIu64 " int_exact %s %s->%s: integers exact",
               seed, c.v->name, dtn(sdt), dtn(ddt));
        pool_free(&p);
    }
}

/* ---- max pooling: index tensor and backward ------------------------------ */

static void case_max_index(uint64_t seed, tu_rng *r)
{
    clrs_dtype sdt = all_dtypes[(seed / NKINDS) % NDTYPES];
    clrs_dtype ddt = tu_rng_chance(r, 0.5) ? sdt : CLRS_F64;
    clrs_dtype xdt = tu_rng_chance(r, 0.5) ? CLRS_F32 : CLRS_F64;
    clrs_dtype idt = CLRS_F32, want_idt;
    int big = tu_rng_chance(r, 0.2);
    int plane = tu_rng_chance(r, 0.5);
    int accumulate = tu_rng_chance(r, 0.3);
    tu_op c;
    maxgeo g;
    pool p;
    tu_buf *x, *y, *ix, *dy, *dxa, *dxb, *want, *z = NULL;
    int64_t o[CLRS_MAX_RANK], vol = 1, bad_val = 0, bad_idx = 0,
                              bad_at = 0, pad_wins = 0;
    double pad = -INFINITY;
    int lo = 0, hi = 3, j, ok, okb;
    clrs_status st;
    char extra[160];

    memset(&p, 0, sizeof p);
    max_geometry(&c, &g, r, big);
    /* Zero or constant padding can win (all inputs below it): then the
     * window index names the padding tap and the plane index is -1. */
    if (tu_rng_chance(r, 0.3)) {
        c.pad = tu_rng_chance(r, 0.5) ? CLRS_PAD_ZERO : CLRS_PAD_CONSTANT;
        c.pad_value = c.pad == CLRS_PAD_ZERO ? 0 : 2;
        pad = c.pad_value;
        if (sdt != CLRS_U8)
            lo = -3; /* below the padding sometimes */
    } else if (tu_rng_chance(r, 0.3)) {
        c.pad = CLRS_PAD_NEG_INF;
    }
    for (j = 0; j < c.naxes; ++j)
        vol *= g.w[j];
    want_idt = plane ? CLRS_S64 : vol <= 127 ? CLRS_S8 : CLRS_S32;
    snprintf(extra, sizeof extra,
             "%s->%s diff %s index=%s volume=%" PRId64 " values [%d,%d]%s",
             dtn(sdt), dtn(ddt), dtn(xdt), plane ? "plane" : "window", vol,
             lo, hi, accumulate ? " +accumulate" : "");
    print_config(seed, "max_index", &c, extra);

    p.op = tu_op_build(&c);
    if (p.op && plane &&
        clrs_resample_desc_set_index_format(p.op, CLRS_INDEX_PLANE) !=
            CLRS_SUCCESS) {
        tap_diag("set_index_format: %s", clrs_last_error());
        clrs_resample_desc_destroy(p.op);
        p.op = NULL;
    }
    x = pool_tensor(&p, r, sdt, c.rank, c.in, TU_LAYOUTS_ALL, "src");
    if (!p.op || !x) {
        tap_ok(0, "seed %" PRIu64 " max_index: setup", seed);
        pool_free(&p);
        return;
    }
    st = clrs_resample_desc_index_dtype(p.op, x->desc, &idt);
    if (!tap_ok(st == CLRS_SUCCESS && idt == want_idt,
                "seed %" PRIu64 " max_index: index dtype for %s format, "
                "window volume %" PRId64 " is %s (want %s)",
                seed, plane ? "plane" : "window", vol,
                st == CLRS_SUCCESS ? dtn(idt) : clrs_status_name(st),
                dtn(want_idt)))
        idt = want_idt;
    y = pool_tensor(&p, r, ddt, c.rank, c.out, TU_LAYOUTS_DST, "dst");
    ix = y ? pool_tensor(&p, r, idt, c.rank, c.out, TU_LAYOUTS_DST, "index")
           : NULL;
    dy = ix ? pool_tensor(&p, r, xdt, c.rank, c.out, TU_LAYOUTS_ALL,
                          "diff_dst")
            : NULL;
    /* Two diff_src buffers with one descriptor: byte comparison. */
    dxa = dy ? pool_tensor(&p, r, xdt, c.rank, c.in, TU_LAYOUTS_DST,
                           "diff_src")
             : NULL;
    if (dxa) {
        int i = p.n++;
        p.d[i] = NULL;
        dxb = tu_buf_alloc(&p.b[i], dxa->desc) ? NULL : &p.b[i];
    } else {
        dxb = NULL;
    }
    want = dxb ? pool_tensor(&p, r, CLRS_F64, c.rank, c.in, 1u << TU_DENSE,
                             "expected diff_src")
               : NULL;
    if (want && accumulate)
        z = pool_tensor(&p, r, xdt, c.rank, c.in, TU_LAYOUTS_DST,
                        "diff_src (accumulate)");
    if (!want || (accumulate && !z)) {
        tap_ok(0, "seed %" PRIu64 " max_index: tensors", seed);
        pool_free(&p);
        return;
    }
    print_tensors(&p);

    tu_fill_ints(x, r, lo, hi);
    tu_fill_ints(dy, r, 1, 4);
    tu_fill_const(want, 0);

    /* Forward with the index tensor. */
    ok = ref_fwd(&c, p.op, x, y, ix);
    ok = ok && tu_buf_check_unchanged(x, "src") == 0 &&
         tu_buf_check_output(y, "dst") == 0 &&
         tu_buf_check_output(ix, "index") == 0;
    if (ok && tu_idx_first(c.rank, c.out, o))
        do {
            maxres m = max_oracle(&c, &g, x, o, pad);
            double got = tu_get(y, o), gi = tu_get(ix, o), at;
            int64_t want_i = plane ? m.plane_index : m.window_index;
            if (!tap_same(got, tu_round_to(ddt, m.value)) && !bad_val++)
                tap_diag("dst at offset %" PRId64 " = %g, want %g",
                         tu_buf_offset(y, o), got, m.value);
            if (gi != (double)want_i && !bad_idx++)
                tap_diag("index at offset %" PRId64 " = %g, want %" PRId64
                         " (first maximum in row-major window order)",
                         tu_buf_offset(ix, o), gi, want_i);
            /* The value at the position the index names is the output:
             * decode the stored index, not the oracle's. */
            if (plane && gi >= 0) {
                int64_t pos[CLRS_MAX_RANK], rest = (int64_t)gi;
                int k;
                for (k = c.rank - 1; k >= 0; --k)
                    if (g.slot[k] < 0) {
                        pos[k] = o[k];
                    } else {
                        pos[k] = rest % c.in[k];
                        rest /= c.in[k];
                    }
                at = tu_get(x, pos);
            } else if (plane) {
                at = pad;
            } else {
                int64_t pos[CLRS_MAX_RANK], rest = (int64_t)gi;
                int k, inside = 1;
                for (k = c.rank - 1; k >= 0; --k) {
                    j = g.slot[k];
                    if (j < 0) {
                        pos[k] = o[k];
                        continue;
                    }
                    pos[k] = o[k] * g.s[j] - g.pre[j] + rest % g.w[j];
                    rest /= g.w[j];
                    if (pos[k] < 0 || pos[k] >= c.in[k])
                        inside = 0;
                }
                at = gi >= 0 && gi < (double)vol
                         ? (inside ? tu_get(x, pos) : pad)
                         : NAN;
            }
            if (!tap_same(tu_round_to(ddt, at), got) && !bad_at++)
                tap_diag("value at the stored index %g is %g, output %g", gi,
                         at, got);
            if (m.plane_index < 0)
                ++pad_wins;
            else
                tu_set(want, m.pos,
                       tu_get(want, m.pos) + tu_get(dy, o));
        } while (tu_idx_next(c.rank, c.out, o));
    tap_ok(ok && !bad_val && !bad_idx && !bad_at,
           "seed %" PRIu64 " max_index: forward value, %s index and the "
           "value it names (%" PRId64 " padding winners)",
           seed, plane ? "plane" : "window", pad_wins);

    /* Backward from the index and recomputed from src: same bytes, and
     * dx[argmax(o)] += dy[o] with padding winners sending nowhere. */
    okb = ok && ref_bwd(&c, p.op, dxa, dy, ix, NULL);
    okb = okb && ref_bwd(&c, p.op, dxb, dy, NULL, x);
    okb = okb && tu_buf_check_unchanged(dy, "diff_dst") == 0 &&
          tu_buf_check_unchanged(x, "src") == 0 &&
          tu_buf_check_output(dxa, "diff_src from index") == 0 &&
          tu_buf_check_output(dxb, "diff_src from src") == 0;
    if (okb && memcmp(dxa->raw, dxb->raw, dxa->bytes + 2 * TU_MARGIN)) {
        tap_diag("backward from the index and from src differ");
        okb = 0;
    }
    okb = okb && check_exact(dxa, want, c.rank, c.in, "diff_src");
    tap_ok(okb, "seed %" PRIu64 " max_index: backward from index == "
           "backward from src == scatter of dy to the argmax",
           seed);

    if (accumulate && ok) {
        tu_buf *before = pool_tensor(&p, r, CLRS_F64, c.rank, c.in,
                                     1u << TU_DENSE, "before");
        int64_t idx[CLRS_MAX_RANK];
        int oka = before != NULL;
        if (oka) {
            tu_fill_ints(z, r, -4, 4);
            tu_copy(before, z);
            p.op2 = NULL;
            oka = clrs_resample_desc_clone(&p.op2, p.op) == CLRS_SUCCESS &&
                  clrs_resample_desc_set_accumulate(p.op2, 1) ==
                      CLRS_SUCCESS;
        }
        oka = oka && ref_bwd(&c, p.op2, z, dy, ix, NULL) &&
              tu_buf_check_output(z, "diff_src (accumulate)") == 0;
        if (oka && tu_idx_first(c.rank, c.in, idx))
            do
                tu_set(before, idx, tu_get(before, idx) + tu_get(want, idx));
            while (tu_idx_next(c.rank, c.in, idx));
        oka = oka && check_exact(z, before, c.rank, c.in,
                                 "accumulated diff_src");
        tap_ok(oka, "seed %" PRIu64 " max_index: backward accumulate adds",
               seed);
    }
    pool_free(&p);
}

/* ---- determinism --------------------------------------------------------- */

/* The same backward (and forward) twice into identically poisoned buffers
 * gives identical bytes, margins and gaps included. Inputs are full
 * precision so any change of summation order would show. */
static void case_determinism(uint64_t seed, tu_rng *r)
{
    const tu_variant *v = &tu_variants[(seed / NKINDS) % TU_NVARIANTS];
    clrs_coord coord = tu_coords[tu_rng_int(r, 0, TU_NCOORDS - 1)];
    static const clrs_dtype dts[] = {CLRS_F32, CLRS_F64, CLRS_F16,
                                     CLRS_BF16};
    clrs_dtype xdt = dts[tu_rng_int(r, 0, 3)];
    clrs_dtype ydt = tu_rng_chance(r, 0.5) ? xdt : CLRS_F32;
    int is_max = v->mode == CLRS_MODE_MAX, i, ok;
    tu_op c;
    pool p;
    tu_buf *x, *y1, *y2 = NULL, *dy, *dx1, *dx2 = NULL;
    char extra[96];

    memset(&p, 0, sizeof p);
    tu_op_random(&c, r, v, coord, TU_OP_COVER, MAX_ELEMS);
    snprintf(extra, sizeof extra, "data %s diff %s", dtn(xdt), dtn(ydt));
    print_config(seed, "determinism", &c, extra);
    x = pool_tensor(&p, r, xdt, c.rank, c.in, TU_LAYOUTS_ALL, "src");
    y1 = x ? pool_tensor(&p, r, ydt, c.rank, c.out, TU_LAYOUTS_DST, "dst")
           : NULL;
    dy = y1 ? pool_tensor(&p, r, ydt, c.rank, c.out, TU_LAYOUTS_ALL,
                          "diff_dst")
            : NULL;
    dx1 = dy ? pool_tensor(&p, r, xdt, c.rank, c.in, TU_LAYOUTS_DST,
                           "diff_src")
             : NULL;
    if (dx1) {
        /* Second copies share the first ones' descriptors. */
        i = p.n++;
        y2 = tu_buf_alloc(&p.b[i], y1->desc) ? NULL : &p.b[i];
        i = p.n++;
        dx2 = tu_buf_alloc(&p.b[i], dx1->desc) ? NULL : &p.b[i];
    }
    p.op = tu_op_build(&c);
    if (!y2 || !dx2 || !p.op) {
        tap_ok(0, "seed %" PRIu64 " determinism %s: setup", seed, v->name);
        pool_free(&p);
        return;
    }
    print_tensors(&p);
    tu_fill_uniform(x, r, -4, 4);
    tu_fill_uniform(dy, r, -4, 4);
    ok = ref_fwd(&c, p.op, x, y1, NULL) && ref_fwd(&c, p.op, x, y2, NULL);
    ok = ok && ref_bwd(&c, p.op, dx1, dy, NULL, is_max ? x : NULL) &&
         ref_bwd(&c, p.op, dx2, dy, NULL, is_max ? x : NULL);
    ok = ok && tu_buf_check_unchanged(x, "src") == 0 &&
         tu_buf_check_unchanged(dy, "diff_dst") == 0 &&
         tu_buf_check_output(y1, "dst") == 0 &&
         tu_buf_check_output(dx1, "diff_src") == 0;
    if (ok && memcmp(y1->raw, y2->raw, y1->bytes + 2 * TU_MARGIN)) {
        tap_diag("two forward runs differ");
        ok = 0;
    }
    if (ok && memcmp(dx1->raw, dx2->raw, dx1->bytes + 2 * TU_MARGIN)) {
        tap_diag("two backward runs differ");
        ok = 0;
    }
    /* A run that wrote nothing but zeros would pass trivially. */
    if (ok && tu_count_nonzero(dx1) == 0 && tu_count_nonzero(y1) != 0) {
        tap_diag("backward wrote only zeros although forward did not");
        ok = 0;
    }
    tap_ok(ok, "seed %" PRIu64 " determinism %s/%s: identical bytes", seed,
           v->name, tu_coord_name(c.coord));
    pool_free(&p);
}

/* ---- conversions, through nearest at scale 1 ---------------------------- */

typedef struct conv_case {
    clrs_dtype src, dst;
    int n;
    double in[10], want[10];
} conv_case;

#define P2(e) ldexp(1.0, e)

static void conversions(void)
{
    const double nan = NAN, inf = INFINITY;
    const conv_case cases[] = {
        /* round half to even, saturate, NaN -> 0 */
        {CLRS_F32, CLRS_S8, 10,
         {0.5, 1.5, 2.5, -0.5, 127.5, 300, -129, nan, -1.5, 126.5},
         {0, 2, 2, 0, 127, 127, -128, 0, -2, 126}},
        {CLRS_F64, CLRS_S8, 10,
         {0.5, 1.5, 2.5, -0.5, 127.5, 300, -129, nan, -1.5, 126.5},
         {0, 2, 2, 0, 127, 127, -128, 0, -2, 126}},
        {CLRS_F32, CLRS_U8, 10,
         {0.5, 1.5, 2.5, -0.5, 127.5, 300, -129, nan, 254.5, 255.5},
         {0, 2, 2, 0, 128, 255, 0, 0, 254, 255}},
        {CLRS_F64, CLRS_U8, 10,
         {0.5, 1.5, 2.5, -0.5, 127.5, 300, -129, nan, 254.5, 255.5},
         {0, 2, 2, 0, 128, 255, 0, 0, 254, 255}},
        {CLRS_F32, CLRS_S32, 10,
         {0.5, 1.5, 2.5, -0.5, 3e9, -3e9, nan, -2.5, 2147483520.0, 1e10},
         {0, 2, 2, 0, 2147483647.0, -2147483648.0, 0, -2, 2147483520.0,
          2147483647.0}},
        {CLRS_F64, CLRS_S32, 6,
         {2147483646.5, 2147483647.5, -2147483648.5, -2147483647.5, 3.5,
          -3.5},
         {2147483646.0, 2147483647.0, -2147483648.0, -2147483648.0, 4, -4}},
        {CLRS_BF16, CLRS_S8, 4, {nan, 0.5, 1.5, -inf}, {0, 0, 2, -128}},
        {CLRS_F16, CLRS_S8, 5, {nan, 0.5, 1.5, inf, -inf},
         {0, 0, 2, 127, -128}},
        /* to f16: ties to even, overflow to inf, subnormals */
        {CLRS_F32, CLRS_F16, 10,
         {1 + P2(-11), 1 + 3 * P2(-11), 65519, 65520, P2(-25), 3 * P2(-25),
          nan, -(1 + P2(-11)), 100000, -P2(-26)},
         {1, 1 + P2(-9), 65504, inf, 0, P2(-23), nan, -1, inf, -0.0}},
        {CLRS_F64, CLRS_F16, 10,
         {1 + P2(-11), 1 + 3 * P2(-11), 65519, 65520, P2(-25), 3 * P2(-25),
          nan, -(1 + P2(-11)), 100000, -P2(-26)},
         {1, 1 + P2(-9), 65504, inf, 0, P2(-23), nan, -1, inf, -0.0}},
        /* to bf16 */
        {CLRS_F32, CLRS_BF16, 6,
         {1 + P2(-8), 1 + 3 * P2(-8), nan, 3.3895313892515355e38,
          -(1 + P2(-8)), 3.4028234663852886e38},
         {1, 1 + P2(-6), nan, 3.3895313892515355e38, -1, inf}},
        /* bf16 subnormals step by 2^-133: ties go to even there too */
        {CLRS_F64, CLRS_BF16, 5,
         {1 + P2(-8), 1 + 3 * P2(-8), 1 + P2(-8) + P2(-20), -P2(-134),
          3 * P2(-134)},
         {1, 1 + P2(-6), 1 + P2(-7), -0.0, P2(-132)}},
        /* One rounding from the f64 value, not two through f32:
         * via f32 these would first round to the tie and then to 1. */
        {CLRS_F64, CLRS_F16, 2,
         {1 + P2(-11) + P2(-40), -(1 + P2(-11) + P2(-40))},
         {1 + P2(-10), -(1 + P2(-10))}},
        {CLRS_F64, CLRS_BF16, 2, {1 + P2(-8) + P2(-40), 65 + P2(-40)},
         {1 + P2(-7), 65.0}},
        /* to f32 */
        {CLRS_F64, CLRS_F32, 6,
         {1 + P2(-24), 1 + 3 * P2(-24), 1e39, nan, P2(-150), 3 * P2(-150)},
         {1, 1 + P2(-22), inf, nan, 0, P2(-148)}},
        /* integer sources */
        {CLRS_S32, CLRS_F32, 3, {16777217, 16777219, -16777217},
         {16777216, 16777220, -16777216}},
        {CLRS_S32, CLRS_F16, 3, {2049, 2051, 70000}, {2048, 2052, inf}},
        {CLRS_S32, CLRS_BF16, 2, {257, 259}, {256, 260}},
        {CLRS_U8, CLRS_S8, 3, {255, 128, 127}, {127, 127, 127}},
        {CLRS_S8, CLRS_U8, 3, {-128, -1, 5}, {0, 0, 5}},
        {CLRS_S32, CLRS_S8, 2, {1000, -1000}, {127, -128}},
        {CLRS_S32, CLRS_U8, 2, {300, -5}, {255, 0}},
    };
    size_t n = sizeof cases / sizeof cases[0], i;
    tu_rng r;
    tu_rng_seed(&r, 7);
    for (i = 0; i < n; ++i) {
        const conv_case *cc = &cases[i];
        int64_t dims[1], idx[1];
        clrs_tensor_desc *sd = NULL, *dd = NULL;
        clrs_resample_desc *op = NULL;
        tu_buf x, y;
        clrs_host_args a;
        clrs_status st;
        int k, ok, bad = 0;
        dims[0] = cc->n;
        memset(&x, 0, sizeof x);
        memset(&y, 0, sizeof y);
        ok = tu_make_tensor(&sd, &x, &r, cc->src, 1, dims, 1u << TU_DENSE,
                            "src") == 0 &&
             tu_make_tensor(&dd, &y, &r, cc->dst, 1, dims, TU_LAYOUTS_DST,
                            "dst") == 0 &&
             clrs_resample_desc_create(&op, CLRS_MODE_NEAREST) ==
                 CLRS_SUCCESS;
        if (ok) {
            for (k = 0; k < cc->n; ++k) {
                idx[0] = k;
                tu_set(&x, idx, cc->in[k]);
                /* The table must hold source values exactly. */
                if (!tap_same(tu_get(&x, idx), cc->in[k])) {
                    tap_diag("test table: %g is not a %s", cc->in[k],
                             dtn(cc->src));
                    ok = 0;
                }
            }
            tu_buf_snapshot(&x);
            memset(&a, 0, sizeof a);
            a.src = x.data;
            a.dst = y.data;
            st = clrs_reference_forward(op, sd, dd, NULL, &a);
            if (st != CLRS_SUCCESS) {
                tap_diag("forward -> %s: %s", clrs_status_name(st),
                         clrs_last_error());
                ok = 0;
            }
        }
        ok = ok && tu_buf_check_unchanged(&x, "src") == 0 &&
             tu_buf_check_output(&y, "dst") == 0;
        for (k = 0; ok && k < cc->n; ++k) {
            double got, want = cc->want[k];
            idx[0] = k;
            got = tu_get(&y, idx);
            if (!tap_same(got, want) ||
                (want == 0 && tu_dtype_is_float(cc->dst) &&
                 signbit(got) != signbit(want))) {
                tap_diag("%s %.17g -> %s: got %.17g, want %.17g",
                         dtn(cc->src), cc->in[k], dtn(cc->dst), got, want);
                ++bad;
            }
        }
        tap_ok(ok && !bad, "conversion %s -> %s through nearest (%d values)",
               dtn(cc->src), dtn(cc->dst), cc->n);
        clrs_resample_desc_destroy(op);
        tu_buf_free(&x);
        tu_buf_free(&y);
        clrs_tensor_desc_destroy(sd);
        clrs_tensor_desc_destroy(dd);
    }
}

static void run_case(uint64_t seed)
{
    tu_rng r;
    tu_rng_seed(&r, tu_mix_seed(seed, 0));
    switch (seed % NKINDS) {
    case K_CONST:
        case_const(seed, &r);
        break;
    case K_IDENTITY:
        case_identity(seed, &r);
        break;
    case K_INT_EXACT:
        case_int_exact(seed, &r);
        break;
    case K_MAX_INDEX:
        case_max_index(seed, &r);
        break;
    default:
        case_determinism(seed, &r);
        break;
    }
}

int main(void)
{
    uint64_t seed, base = 1;
    int i;
    if (tu_env_seed("CLRS_TEST_SEED", &seed)) {
        run_case(seed);
        return tap_done();
    }
    tu_env_seed("CLRS_TEST_SEED_BASE", &base);
    conversions();
    tap_diag("seeds %" PRIu64 "..%" PRIu64 " (rerun one: CLRS_TEST_SEED=S)",
             base, base + NCASES - 1);
    for (i = 0; i < NCASES; ++i)
        run_case(base + (uint64_t)i);
    return tap_done();
}
