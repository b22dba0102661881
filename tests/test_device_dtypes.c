/* Every data type pair on the device against the CPU reference: forward
 * and backward for every (src, dst) and (diff_src, diff_dst) pair of f32
 * f16 bf16 f64 s32 s8 u8 (backward of every third pair accumulating onto
 * diff_src: integer gradients sum in float and round once, as forward
 * results do); the rounding and
 * saturation limits of the conversion rules; blocked layouts (aBx8b,
 * aBx16b) whose channel count is not a multiple of the block, with the
 * padded tail written as zeros. Inputs are benchdnn-style exact-friendly (small
 * integers, k/16), so nearest and max are exact for every pair.
 *   CLRS_TEST_SEED=S        reruns case S alone
 *   CLRS_TEST_TIER=quick    each type with itself and with f32 both ways
 *   --oclgrind-subset (or CLRS_TEST_OCLGRIND_SUBSET=1): every dtype once
 *   and the blocked layouts, at tiny sizes, for test_oclgrind.sh. */
#include "devutil.h"
#include "tap.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static td_env env;

static const clrs_dtype fwd_types[] = {CLRS_F32, CLRS_F16, CLRS_BF16,
                                       CLRS_F64, CLRS_S32, CLRS_S8, CLRS_U8};
#define NFWD_TYPES 7
static const clrs_dtype bwd_types[] = {CLRS_F32, CLRS_F16, CLRS_BF16,
                                       CLRS_F64, CLRS_S32, CLRS_S8, CLRS_U8};
#define NBWD_TYPES 7

/* What a case runs: the mode class decides the kernel's reduction, the
 * layout its path (channels-last: vectors along C with a partial last
 * vector; dense: scalar; blocked: the padded-tail rule). */
typedef enum kind { K_NEAREST, K_MAX, K_LINEAR, K_CUBIC, K_AVG, K_COUNT } kind;
static const char *const kind_names[K_COUNT] = {"nearest", "max", "linear",
                                                "cubic", "avg"};

typedef struct dcase {
    int backward;
    clrs_dtype sdt, ddt; /* backward: diff_src, diff_dst */
    kind k;
    tu_layout lay; /* of every tensor */
    int64_t c;     /* channels */
    int generic;   /* plan with CLRS_GENERIC=1 */
    int accumulate; /* backward adds to diff_src's old values */
    int small;     /* tiny sizes (Oclgrind) */
} dcase;

static int is_exact(const dcase *d)
{
    return d->k == K_NEAREST || d->k == K_MAX;
}

static int is_int(clrs_dtype dt)
{
    return dt == CLRS_S32 || dt == CLRS_S8 || dt == CLRS_U8;
}

/* Input values every type holds exactly: integers in a range the type
 * holds for exact modes (so the modes stay exact), k/16 in [1, 3]
 * for floating inputs of the others (no cancellation), integers for
 * integer inputs. */
static void fill_input(tu_buf *b, tu_rng *r, clrs_dtype dt, int exact)
{
    if (dt == CLRS_U8)
        tu_fill_ints(b, r, 1, 250);
    else if (is_int(dt))
        tu_fill_ints(b, r, -100, 100);
    else if (exact)
        tu_fill_ints(b, r, -100, 100);
    else
        tu_fill_sixteenths(b, r, 16, 48);
}

static clrs_resample_desc *make_op(kind k)
{
    static const clrs_mode modes[K_COUNT] = {
        CLRS_MODE_NEAREST, CLRS_MODE_MAX, CLRS_MODE_LINEAR, CLRS_MODE_CUBIC,
        CLRS_MODE_AVG_INCLUDE_PADDING};
    static const int64_t win[2] = {3, 2}, str[2] = {2, 2};
    clrs_resample_desc *op = NULL;
    if (clrs_resample_desc_create(&op, modes[k]) != CLRS_SUCCESS)
        return NULL;
    if ((k == K_MAX || k == K_AVG) &&
        (clrs_resample_desc_set_window(op, 2, win) ||
         clrs_resample_desc_set_stride(op, 2, str))) {
        clrs_resample_desc_destroy(op);
        return NULL;
    }
    return op;
}

/* Sizes: N, C, then H, W; pooling windows 3x2 stride 2 stay inside. */
static void sizes(const dcase *d, int64_t *in, int64_t *out)
{
    int pool = d->k == K_MAX || d->k == K_AVG;
    in[0] = out[0] = d->small ? 1 : 2;
    in[1] = out[1] = d->c;
    if (pool) {
        in[2] = d->small ? 3 : 7;
        in[3] = d->small ? 4 : 6;
        out[2] = (in[2] - 3) / 2 + 1;
        out[3] = (in[3] - 2) / 2 + 1;
    } else {
        in[2] = d->small ? 2 : 3;
        in[3] = d->small ? 3 : 4;
        out[2] = d->small ? 3 : 5;
        out[3] = d->small ? 4 : 7;
    }
}

typedef struct casemem {
    clrs_resample_desc *op;
    clrs_tensor_desc *sd, *dd, *id;
    tu_buf x, y, yref, ix, iref;
} casemem;

static void casemem_free(casemem *m)
{
    tu_buf_free(&m->x);
    tu_buf_free(&m->y);
    tu_buf_free(&m->yref);
    tu_buf_free(&m->ix);
    tu_buf_free(&m->iref);
    clrs_tensor_desc_destroy(m->sd);
    clrs_tensor_desc_destroy(m->dd);
    clrs_tensor_desc_destroy(m->id);
    clrs_resample_desc_destroy(m->op);
    memset(m, 0, sizeof *m);
}

/* Blocked outputs: the padded lanes must come back as zeros, from the
 * device (td_check_output) and from the reference (checked here). */
static int64_t reference_padding(const tu_buf *b, const char *what)
{
    size_t i, es = clrs_dtype_size(b->dtype), bad = 0;
    if (!b->zero_gaps)
        return 0;
    for (i = 0; i < b->bytes; ++i)
        if (!b->logical[i] && b->data[i] != 0 && !bad++)
            tap_diag("  reference %s: padding byte %zu (element %zu) is "
                     "0x%02x, not 0",
                     what, i, i / es, b->data[i]);
    return (int64_t)bad;
}

static void run_case(uint64_t seed, const dcase *d)
{
    casemem m;
    tu_rng r, lr;
    td_result res;
    clrs_host_args ha;
    clrs_status st;
    char head[256];
    int64_t in[4], out[4], bad = 0;
    int index = d->k == K_MAX && !d->backward, ok;
    clrs_dtype xdt = d->sdt, ydt = d->ddt; /* forward src, dst */
    double *bound = NULL, worst = 0;
    tu_buf init;

    memset(&init, 0, sizeof init);
    memset(&m, 0, sizeof m);
    tu_rng_seed(&r, tu_mix_seed(UINT64_C(0xD7E5), seed));
    tu_rng_seed(&lr, UINT64_C(0xB10C)); /* the same block for every case */
    sizes(d, in, out);
    if (d->backward) { /* diff_src has src's shape, diff_dst dst's */
        xdt = d->sdt;
        ydt = d->ddt;
    }
    snprintf(head, sizeof head,
             "seed %" PRIu64 ": %s %s %s -> %s %s C=%" PRId64 "%s", seed,
             d->backward ? "backward" : "forward", kind_names[d->k],
             clrs_dtype_name(d->backward ? d->ddt : d->sdt),
             clrs_dtype_name(d->backward ? d->sdt : d->ddt),
             tu_layout_name(d->lay), d->c,
             d->generic ? " CLRS_GENERIC" : "");
    if (d->accumulate)
        strncat(head, " accumulate", sizeof head - strlen(head) - 1);
    m.op = make_op(d->k);
    if (!m.op || tu_make_desc(&m.sd, &lr, xdt, 4, in, d->lay) ||
        tu_make_desc(&m.dd, &lr, ydt, 4, out, d->lay) ||
        tu_buf_alloc(&m.x, m.sd) || tu_buf_alloc(&m.y, m.dd) ||
        tu_buf_alloc(&m.yref, m.dd) ||
        (index && (tu_make_desc(&m.id, &lr, CLRS_S8, 4, out, d->lay) ||
                   tu_buf_alloc(&m.ix, m.id) ||
                   tu_buf_alloc(&m.iref, m.id)))) {
        tap_ok(0, "%s: setup (%s)", head, clrs_last_error());
        casemem_free(&m);
        return;
    }
    memset(&ha, 0, sizeof ha);
    if (!d->backward) {
        if (d->lay == TU_BLOCKED) {
            tu_buf_set_zero_padding(&m.y);
            tu_buf_set_zero_padding(&m.yref);
        }
        fill_input(&m.x, &r, xdt, is_exact(d));
        ha.src = m.x.data;
        ha.dst = m.yref.data;
        ha.index = index ? m.iref.data : NULL;
        bound = td_bound_alloc(&m.yref);
        st = bound ? clrs_reference_forward_bound(m.op, m.sd, m.dd,
                                                  index ? m.id : NULL, &ha,
                                                  bound)
                   : CLRS_ERR_OUT_OF_MEMORY;
    } else {
        /* Backward reads diff_dst (dst's shape, d->ddt) and writes
         * diff_src (src's shape, d->sdt): the buffers swap roles. */
        fill_input(&m.y, &r, ydt, is_exact(d));
        tu_buf_free(&m.yref);
        if (tu_buf_alloc(&m.yref, m.sd) ||
            (d->accumulate && tu_buf_alloc(&init, m.sd))) {
            tap_ok(0, "%s: setup", head);
            casemem_free(&m);
            tu_buf_free(&init);
            return;
        }
        if (d->lay == TU_BLOCKED)
            tu_buf_set_zero_padding(&m.yref);
        if (d->accumulate) {
            if (d->lay == TU_BLOCKED)
                tu_buf_set_zero_padding(&init);
            fill_input(&init, &r, xdt, is_exact(d));
            tu_copy(&m.yref, &init);
            clrs_resample_desc_set_accumulate(m.op, 1);
        }
        ha.diff_dst = m.y.data;
        ha.diff_src = m.yref.data;
        if (d->k == K_MAX) {
            fill_input(&m.x, &r, xdt, 1); /* argmax recomputed from src */
            ha.src = m.x.data;
        }
        bound = td_bound_alloc(&m.yref);
        st = bound ? clrs_reference_backward_bound(
                         m.op, m.sd, m.dd, NULL, d->k == K_MAX ? m.sd : NULL,
                         &ha, bound)
                   : CLRS_ERR_OUT_OF_MEMORY;
    }
    if (st != CLRS_SUCCESS) {
        tap_ok(0, "%s: reference: %s: %s", head, clrs_status_name(st),
               clrs_last_error());
        free(bound);
        tu_buf_free(&init);
        casemem_free(&m);
        return;
    }
    if (d->generic)
        td_generic(&env, 1);
    if (!d->backward) {
        ok = td_forward(&env, m.op, &m.x, &m.y, index ? &m.ix : NULL, &m.yref,
                        index ? &m.iref : NULL, &res);
    } else {
        tu_buf dx, xsrc;
        memset(&dx, 0, sizeof dx);
        memset(&xsrc, 0, sizeof xsrc);
        /* diff_src has src's descriptor; for max the forward src is a
         * separate input of the same descriptor. */
        if (tu_buf_alloc(&dx, m.sd) ||
            (d->k == K_MAX && tu_buf_alloc(&xsrc, m.sd))) {
            ok = 0;
            memset(&res, 0, sizeof res);
            res.cl_error = 1;
        } else {
            if (d->lay == TU_BLOCKED)
                tu_buf_set_zero_padding(&dx);
            if (d->k == K_MAX) {
                memcpy(xsrc.data, m.x.data, m.x.bytes);
                tu_buf_snapshot(&xsrc);
            }
            ok = td_backward(&env, m.op, &m.y, &dx, NULL,
                             d->k == K_MAX ? &xsrc : NULL,
                             d->accumulate ? &init : NULL, &m.yref, &res);
            if (res.plan_status == CLRS_SUCCESS &&
                res.exec_status == CLRS_SUCCESS && !res.cl_error)
                bad += td_compare(&dx, &m.yref, bound, "diff_src", &worst);
        }
        tu_buf_free(&dx);
        tu_buf_free(&xsrc);
    }
    if (d->generic)
        td_generic(&env, 0);
    if (!d->backward && res.plan_status == CLRS_SUCCESS &&
        res.exec_status == CLRS_SUCCESS && !res.cl_error) {
        bad += td_compare(&m.y, &m.yref, bound, "dst", &worst);
        if (index)
            bad += td_compare(&m.ix, &m.iref, NULL, "index", NULL);
    }
    bad += reference_padding(&m.yref, "output");
    tap_ok(ok && bad == 0,
           "%s: agrees with the reference (largest difference %.2g bound)",
           head, worst);
    free(bound);
    tu_buf_free(&init);
    casemem_free(&m);
}

/* ---- rounding and saturation at the limits -------------------------------
 * f32 values through nearest at scale 1 (each output is one input) into
 * every dst type, on the scalar path (dense, W = 10) and the vector path
 * (channels-last, C = 10: a vector and a partial one). The expectations
 * are the conversion rules', spelled out for s8 and u8 and from the test's own
 * conversions (util.c) for the rest; the reference must agree too. */
static const double limits[10] = {0.5,  1.5,  2.5,   -0.5,       127.5,
                                  300,  -129, NAN,   1.00048828125, 70000};
static const double want_s8[10] = {0, 2, 2, 0, 127, 127, -128, 0, 1, 127};
static const double want_u8[10] = {0, 2, 2, 0, 128, 255, 0, 0, 1, 255};

/* s32's own limits, from f32 (a float accumulator where the device has
 * no fp64) and f64 (a double one): ties of both signs, at both ends
 * of float's rounding trick (2^22 + 0.5 and -(2^23 - 0.5), held exactly
 * by f32), the ends of the int range and past them. */
static const double limits32[10] = {-3.5,          -1.5,         3.5,
                                    4194304.5,     -8388607.5,   NAN,
                                    2147483647.25, 2147483648.0, -3e9,
                                    -2147483648.5};

static double limit_want(clrs_dtype dt, const double *vals, int i)
{
    if (vals == limits && dt == CLRS_S8)
        return want_s8[i];
    if (vals == limits && dt == CLRS_U8)
        return want_u8[i];
    /* The source's value first, then the conversion rule. */
    return tu_round_to(dt, vals[i]);
}

static void run_limits(clrs_dtype sdt, clrs_dtype ddt, tu_layout lay,
                       const double *vals)
{
    int64_t dims[4] = {1, 1, 1, 10}, idx[4];
    clrs_resample_desc *op = NULL;
    clrs_tensor_desc *sd = NULL, *dd = NULL;
    tu_buf x, y, yref;
    tu_rng lr;
    td_result res;
    clrs_host_args ha;
    int64_t bad = 0;
    int i, ok = 0;
    char head[128];

    if (lay == TU_CHANNELS_LAST) {
        dims[1] = 10;
        dims[3] = 1;
    }
    snprintf(head, sizeof head, "limits %s -> %s %s", clrs_dtype_name(sdt),
             clrs_dtype_name(ddt), tu_layout_name(lay));
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    memset(&yref, 0, sizeof yref);
    tu_rng_seed(&lr, 1);
    if (clrs_resample_desc_create(&op, CLRS_MODE_NEAREST) ||
        tu_make_desc(&sd, &lr, sdt, 4, dims, lay) ||
        tu_make_desc(&dd, &lr, ddt, 4, dims, lay) || tu_buf_alloc(&x, sd) ||
        tu_buf_alloc(&y, dd) || tu_buf_alloc(&yref, dd)) {
        tap_ok(0, "%s: setup", head);
        goto out;
    }
    memset(idx, 0, sizeof idx);
    for (i = 0; i < 10; ++i) {
        idx[lay == TU_CHANNELS_LAST ? 1 : 3] = i;
        tu_set(&x, idx, tu_round_to(sdt, vals[i]));
    }
    tu_buf_snapshot(&x);
    memset(&ha, 0, sizeof ha);
    ha.src = x.data;
    ha.dst = yref.data;
    if (clrs_reference_forward(op, sd, dd, NULL, &ha)) {
        tap_ok(0, "%s: reference: %s", head, clrs_last_error());
        goto out;
    }
    ok = td_forward(&env, op, &x, &y, NULL, &yref, NULL, &res);
    for (i = 0; i < 10; ++i) {
        double w = limit_want(ddt, vals, i), g, gr;
        idx[lay == TU_CHANNELS_LAST ? 1 : 3] = i;
        g = tu_get(&y, idx);
        gr = tu_get(&yref, idx);
        if (!tap_same(g, w) || !tap_same(gr, w)) {
            if (bad++ < 4)
                tap_diag("  %.12g into %s: device %.9g, reference %.9g, "
                         "want %.9g",
                         vals[i], clrs_dtype_name(ddt), g, gr, w);
        }
    }
    tap_ok(ok && bad == 0,
           "%s: %s round to nearest even and saturate (device and "
           "reference)",
           head,
           vals == limits ? "0.5 1.5 2.5 -0.5 127.5 300 -129 NaN 1+2^-11 70000"
                          : "-3.5 -1.5 3.5 2^22+0.5 -2^23+0.5 NaN "
                            "2^31-0.75 2^31 -3e9 -2^31-0.5");
out:
    tu_buf_free(&x);
    tu_buf_free(&y);
    tu_buf_free(&yref);
    clrs_tensor_desc_destroy(sd);
    clrs_tensor_desc_destroy(dd);
    clrs_resample_desc_destroy(op);
}

/* ---- copies move bits ----------------------------------------------------
 * Nearest from a type to itself without post-ops is a copy: every output
 * holds its input's bits, whatever they are (NaN payloads, -0, s32 past
 * 2^24, denormals). Asymmetric coordinates and floor: output o reads
 * input o / 2 on each of H and W (2x up). Dense rows of 37 take the span
 * path with a partial group; channels-last C = 37 the axis path with a
 * partial vector. The inputs are random bits; the expectation is built
 * byte by byte, not from a conversion. */
static void run_copy(clrs_dtype dt, tu_layout lay)
{
    int64_t din[4] = {1, 1, 3, 37}, dout[4] = {1, 1, 6, 74}, idx[4], from[4];
    clrs_resample_desc *op = NULL;
    clrs_tensor_desc *sd = NULL, *dd = NULL;
    tu_buf x, y, want;
    tu_rng r;
    td_result res;
    const size_t es = clrs_dtype_size(dt);
    size_t i;
    int64_t bad = 0;
    int ok = 0;
    char head[96];

    if (lay == TU_CHANNELS_LAST) {
        din[1] = dout[1] = 37;
        din[3] = 5;
        dout[3] = 10;
    }
    snprintf(head, sizeof head, "copy %s %s", clrs_dtype_name(dt),
             tu_layout_name(lay));
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    memset(&want, 0, sizeof want);
    tu_rng_seed(&r, 7 + (uint64_t)dt);
    if (clrs_resample_desc_create(&op, CLRS_MODE_NEAREST) ||
        clrs_resample_desc_set_coord(op, CLRS_COORD_ASYMMETRIC) ||
        clrs_resample_desc_set_rounding(op, CLRS_ROUND_FLOOR) ||
        tu_make_desc(&sd, &r, dt, 4, din, lay) ||
        tu_make_desc(&dd, &r, dt, 4, dout, lay) || tu_buf_alloc(&x, sd) ||
        tu_buf_alloc(&y, dd) || tu_buf_alloc(&want, dd)) {
        tap_ok(0, "%s: setup", head);
        goto out;
    }
    for (i = 0; i < x.bytes; ++i)
        x.data[i] = (unsigned char)tu_rng_u64(&r);
    /* Values no conversion keeps: negative zero and a signalling NaN
     * with a payload (f32, f16, bf16, f64 patterns, little-endian). */
    if (dt == CLRS_F32 || dt == CLRS_F16 || dt == CLRS_BF16 ||
        dt == CLRS_F64) {
        static const unsigned char nz[4][8] = {
            {0, 0, 0, 0x80}, {0, 0x80}, {0, 0x80}, {0, 0, 0, 0, 0, 0, 0, 0x80}};
        static const unsigned char sn[4][8] = {
            {0x21, 0, 0x80, 0x7f},
            {0x21, 0x7c},
            {0x81, 0x7f},
            {0x21, 0, 0, 0, 0, 0, 0xf0, 0x7f}};
        int k = dt == CLRS_F32 ? 0 : dt == CLRS_F16 ? 1 : dt == CLRS_BF16 ? 2 : 3;
        memcpy(x.data, nz[k], es);
        memcpy(x.data + es, sn[k], es);
    }
    tu_buf_snapshot(&x);
    tu_idx_first(4, dout, idx);
    do {
        memcpy(from, idx, sizeof from);
        from[2] /= 2;
        from[3] /= 2;
        memcpy(want.data + tu_buf_offset(&want, idx) * (int64_t)es,
               x.data + tu_buf_offset(&x, from) * (int64_t)es, es);
    } while (tu_idx_next(4, dout, idx));
    ok = td_forward(&env, op, &x, &y, NULL, &want, NULL, &res);
    tu_idx_first(4, dout, idx);
    do {
        int64_t o = tu_buf_offset(&y, idx) * (int64_t)es;
        if (memcmp(y.data + o, want.data + o, es) != 0 && bad++ < 4)
            tap_diag("  output (%lld, %lld): bits differ from its input's",
                     (long long)idx[2], (long long)idx[3]);
    } while (tu_idx_next(4, dout, idx));
    tap_ok(ok && bad == 0, "%s: nearest 2x up moves every value's bits as they are",
           head);
out:
    tu_buf_free(&x);
    tu_buf_free(&y);
    tu_buf_free(&want);
    clrs_tensor_desc_destroy(sd);
    clrs_tensor_desc_destroy(dd);
    clrs_resample_desc_destroy(op);
}

/* ---- the case lists ---------------------------------------------------- */

static int have_type(clrs_dtype dt)
{
    return dt != CLRS_F64 || env.info.has_fp64;
}

/* Forward pair p (sdt p / 7, ddt p % 7): nearest and max exact, and one
 * of linear / cubic / avg by turns; channels-last (vectors along C = 5:
 * one of 4 and a tail) and dense alternate with the pair. */
#define NBLOCKED 20
static const uint64_t nblocked = NBLOCKED;
static int make_case(uint64_t s, dcase *d, int subset)
{
    memset(d, 0, sizeof *d);
    d->c = 5;
    d->small = subset;
    if (subset) {
        /* Every type as src and as dst once (same type), then the
         * blocked classes. */
        if (s < NFWD_TYPES * 2) {
            d->sdt = fwd_types[s % NFWD_TYPES];
            d->ddt = fwd_types[(s + s / NFWD_TYPES * 3) % NFWD_TYPES];
            d->k = s % 2 ? K_LINEAR : K_MAX;
            d->lay = s % 3 ? TU_CHANNELS_LAST : TU_DENSE;
            return 0;
        }
        s -= NFWD_TYPES * 2;
        if (s < NBWD_TYPES) {
            d->backward = 1;
            d->sdt = d->ddt = bwd_types[s];
            d->k = s % 2 ? K_MAX : K_LINEAR;
            d->lay = s % 2 ? TU_CHANNELS_LAST : TU_DENSE;
            return 0;
        }
        s -= NBWD_TYPES;
        if (s < nblocked)
            goto blocked;
        return -1;
    }
    if (s < NFWD_TYPES * NFWD_TYPES * 3) {
        uint64_t p = s / 3;
        d->sdt = fwd_types[p / NFWD_TYPES];
        d->ddt = fwd_types[p % NFWD_TYPES];
        d->k = s % 3 == 0 ? K_NEAREST
               : s % 3 == 1 ? K_MAX
                            : (kind)(K_LINEAR + p % 3);
        d->lay = p % 2 ? TU_CHANNELS_LAST : TU_DENSE;
        return 0;
    }
    s -= NFWD_TYPES * NFWD_TYPES * 3;
    if (s < NBWD_TYPES * NBWD_TYPES * 3) {
        uint64_t p = s / 3;
        d->backward = 1;
        d->sdt = bwd_types[p / NBWD_TYPES];
        d->ddt = bwd_types[p % NBWD_TYPES];
        d->k = s % 3 == 0 ? K_NEAREST : s % 3 == 1 ? K_MAX : K_LINEAR;
        d->lay = p % 2 ? TU_CHANNELS_LAST : TU_DENSE;
        d->accumulate = p % 3 == 1;
        return 0;
    }
    s -= NBWD_TYPES * NBWD_TYPES * 3;
    if (s >= nblocked)
        return -1;
blocked:
    /* Blocked: every mode forward and backward, C = 3, 11 or 21 (never a
     * multiple of 8 or 16), fast and generic paths, three dtypes. */
    d->lay = TU_BLOCKED;
    d->backward = s >= 12;
    d->k = (kind)(s % K_COUNT);
    d->c = s % 3 == 0 ? 3 : s % 3 == 1 ? 11 : 21;
    d->generic = s % 4 == 3;
    d->sdt = d->ddt = s % 5 == 4 ? CLRS_F16 : CLRS_F32;
    if (s % 7 == 2)
        d->ddt = d->backward ? CLRS_BF16 : CLRS_U8;
    if (d->small && d->c > 11)
        d->c = 11;
    return 0;
}

/* ---- native half: build only ----------------------------------------------
 * --fp16-native-build: plans with f16 tensors generated for the half
 * type (CLRS_FP16=native), built and not run: every path (scalar,
 * channels-last vectors, blocked, span, backward, an f16 operand, f64
 * into f16) must compile. A device with cl_khr_fp16 takes this code for
 * every f16 run of this program; test_oclgrind.sh runs this mode under
 * Oclgrind, whose compiler accepts the extension although its simulator
 * cannot execute half arithmetic. A device whose compiler refuses the
 * extension skips the cases. */
typedef struct f16case {
    const char *name;
    kind k;
    tu_layout lay;
    clrs_dtype sdt, ddt;
    int64_t c, w; /* channels, input width (output: twice) */
    int backward, operand;
} f16case;

static void fp16_native_build(void)
{
    static const f16case cases[] = {
        {"linear, channels-last vectors", K_LINEAR, TU_CHANNELS_LAST,
         CLRS_F16, CLRS_F16, 16, 4, 0, 0},
        {"nearest, scalar", K_NEAREST, TU_DENSE, CLRS_F16, CLRS_F32, 3, 4, 0,
         0},
        {"linear, span vectors", K_LINEAR, TU_DENSE, CLRS_F16, CLRS_F16, 2,
         24, 0, 0},
        {"max, blocked", K_MAX, TU_BLOCKED, CLRS_F16, CLRS_F16, 11, 8, 0, 0},
        {"cubic, f64 into f16", K_CUBIC, TU_DENSE, CLRS_F64, CLRS_F16, 2, 6, 0,
         0},
        {"linear, f16 binary operand", K_LINEAR, TU_CHANNELS_LAST, CLRS_F32,
         CLRS_F32, 16, 4, 0, 1},
        {"linear backward, channels-last", K_LINEAR, TU_CHANNELS_LAST,
         CLRS_F16, CLRS_F16, 16, 4, 1, 0},
        {"avg backward, scalar", K_AVG, TU_DENSE, CLRS_F16, CLRS_F32, 3, 8, 1,
         0},
    };
    /* The library reads CLRS_FP16 once per context. */
    clrs_context *ctx16 = td_context_with(&env, "CLRS_FP16", "native");
    size_t i;

    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const f16case *f = &cases[i];
        int64_t in[4] = {1, f->c, 2, f->w}, out[4] = {1, f->c, 4, 2 * f->w};
        int64_t od[4] = {1, f->c, 4, 2 * f->w};
        clrs_tensor_desc *sd = NULL, *dd = NULL, *opd = NULL;
        clrs_resample_desc *op = make_op(f->k);
        clrs_plan *plan = NULL;
        clrs_status st = CLRS_ERR_INVALID_VALUE;
        tu_rng lr;

        if (f->k == K_MAX || f->k == K_AVG) {
            in[2] = 6;
            in[3] = 2 * f->w;
            out[2] = 2;
            out[3] = f->w;
        }
        tu_rng_seed(&lr, UINT64_C(0xf16));
        if ((f->sdt == CLRS_F64 || f->ddt == CLRS_F64) &&
            !env.info.has_fp64) {
            tap_skip("no fp64 on this device");
            goto next;
        }
        if (!op || tu_make_desc(&sd, &lr, f->sdt, 4, in, f->lay) ||
            tu_make_desc(&dd, &lr, f->ddt, 4, out, f->lay) ||
            (f->operand &&
             (tu_make_desc(&opd, &lr, CLRS_F16, 4, od, f->lay) ||
              clrs_resample_desc_append_binary(op, CLRS_BINARY_ADD, opd)))) {
            tap_ok(0, "native half build, %s: setup", f->name);
            goto next;
        }
        if (f->backward)
            st = clrs_plan_create_backward(&plan, ctx16, op, sd, dd, NULL,
                                           NULL);
        else
            st = clrs_plan_create_forward(&plan, ctx16, op, sd, dd, NULL);
        if (st == CLRS_ERR_BUILD_FAILED && !env.info.has_fp16)
            tap_skip("native half: this device's compiler refuses "
                     "cl_khr_fp16");
        else
            tap_ok(st == CLRS_SUCCESS, "native half, %s: the kernel builds",
                   f->name);
        if (st != CLRS_SUCCESS && !(st == CLRS_ERR_BUILD_FAILED &&
                                    !env.info.has_fp16))
            tap_diag("%s: %s", clrs_status_name(st),
                     clrs_context_last_error(ctx16));
    next:
        clrs_plan_destroy(plan);
        clrs_tensor_desc_destroy(sd);
        clrs_tensor_desc_destroy(dd);
        clrs_tensor_desc_destroy(opd);
        clrs_resample_desc_destroy(op);
    }
    clrs_context_destroy(ctx16);
}

int main(int argc, char **argv)
{
    uint64_t seed;
    int subset = 0, i, j;
    const char *e = getenv("CLRS_TEST_OCLGRIND_SUBSET");
    dcase d;

    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--oclgrind-subset") == 0) {
            subset = 1;
        } else if (strcmp(argv[i], "--fp16-native-build") == 0) {
            subset = 2;
        } else {
            fprintf(stderr,
                    "usage: %s [--oclgrind-subset | --fp16-native-build]\n",
                    argv[0]);
            return 2;
        }
    }
    if (e && *e && strcmp(e, "0") != 0 && !subset)
        subset = 1;
    td_open(&env);
    if (subset == 2) {
        fp16_native_build();
        td_close(&env);
        return tap_done();
    }
    if (tu_env_seed("CLRS_TEST_SEED", &seed)) {
        if (make_case(seed, &d, subset) == 0)
            run_case(seed, &d);
        td_close(&env);
        return tap_done();
    }
    for (seed = 0; make_case(seed, &d, subset) == 0; ++seed) {
        /* The quick tier: every type with itself and with f32 both ways
         * (every mode and direction), and every blocked case. */
        if (!subset && tap_quick() && d.lay != TU_BLOCKED &&
            d.sdt != d.ddt && d.sdt != CLRS_F32 &&
            d.ddt != CLRS_F32)
            continue;
        if (!have_type(d.sdt) || !have_type(d.ddt)) {
            tap_skip("no fp64 on this device");
            continue;
        }
        run_case(seed, &d);
    }
    /* Where the device has cl_khr_fp16 the f16 cases above already ran
     * the half type; the build-only mode is for test_oclgrind.sh. */
    if (!subset)
        for (i = 0; i < NFWD_TYPES; ++i)
            for (j = 0; j < 2; ++j)
                if (have_type(fwd_types[i]))
                    run_limits(CLRS_F32, fwd_types[i],
                               j ? TU_CHANNELS_LAST : TU_DENSE, limits);
    /* The integer stores' own rounding, in both tiers. */
    for (i = 0; i < 2; ++i)
        for (j = 0; j < 2; ++j)
            if (have_type(i ? CLRS_F64 : CLRS_F32))
                run_limits(i ? CLRS_F64 : CLRS_F32, CLRS_S32,
                           j ? TU_CHANNELS_LAST : TU_DENSE, limits32);
    for (j = 0; j < 2; ++j) {
        if (subset)
            run_limits(CLRS_F32, CLRS_U8, j ? TU_CHANNELS_LAST : TU_DENSE,
                       limits);
        for (i = 0; i < 2 && have_type(CLRS_F64); ++i) /* from double */
            run_limits(CLRS_F64, i ? CLRS_S8 : CLRS_U8,
                       j ? TU_CHANNELS_LAST : TU_DENSE, limits);
    }
    for (i = 0; i < NFWD_TYPES; ++i)
        for (j = 0; j < 2 && have_type(fwd_types[i]); ++j)
            run_copy(fwd_types[i], j ? TU_CHANNELS_LAST : TU_DENSE);
    td_close(&env);
    return tap_done();
}
