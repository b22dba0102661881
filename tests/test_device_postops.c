/* Fused post-ops on the device against the CPU reference: every eltwise
 * algorithm and every binary algorithm alone, sum with two scales, and
 * chains of two to four, over nearest, linear and max pooling, dense,
 * channels-last (vector path) and blocked layouts, f32 and a few other
 * dst and operand types; binary operands broadcast per tensor, per
 * channel, per spatial point and as one value. Then the execute-time
 * checks of operand buffers (missing, too small, aliasing dst, another
 * cl_context) and of a read-only dst.
 *   CLRS_TEST_SEED=S        reruns case S alone
 *   --oclgrind-subset (or CLRS_TEST_OCLGRIND_SUBSET=1): a few chains at
 *   tiny sizes, for test_oclgrind.sh. */
#include "devutil.h"
#include "tap.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static td_env env;

/* Post-op chain entry: kind 0 sum, 1 eltwise, 2 binary (the library's
 * order); mask: operand axes kept (bit a), the others broadcast. */
typedef struct pentry {
    int kind, alg;
    double a, b;
    clrs_dtype dt;
    unsigned mask;
} pentry;

#define M_COMMON 0u
#define M_PER_OC 2u
#define M_SPATIAL 0xCu
#define M_TENSOR 0xFu

typedef struct pcase {
    const char *name;
    clrs_mode mode;
    tu_layout lay;
    clrs_dtype sdt, ddt;
    int n;
    pentry e[CLRS_MAX_POST_OPS];
} pcase;

#define SUM(s) {0, 0, (s), 0, CLRS_F32, 0}
#define ELT(alg, a, b) {1, (alg), (a), (b), CLRS_F32, 0}
#define BIN(alg, dt, m) {2, (alg), 0, 0, (dt), (m)}

/* Every eltwise row alone, every binary row alone, sums, chains. */
static const pcase cases[] = {
    {"relu slope 0.25", CLRS_MODE_LINEAR, TU_CHANNELS_LAST, CLRS_F32,
     CLRS_F32, 1, {ELT(CLRS_ELTWISE_RELU, 0.25, 0)}},
    {"clip [-1, 1.5]", CLRS_MODE_NEAREST, TU_DENSE, CLRS_F32, CLRS_F32, 1,
     {ELT(CLRS_ELTWISE_CLIP, -1, 1.5)}},
    {"tanh", CLRS_MODE_LINEAR, TU_DENSE, CLRS_F32, CLRS_F32, 1,
     {ELT(CLRS_ELTWISE_TANH, 0, 0)}},
    {"logistic", CLRS_MODE_LINEAR, TU_CHANNELS_LAST, CLRS_F32, CLRS_F32, 1,
     {ELT(CLRS_ELTWISE_LOGISTIC, 0, 0)}},
    {"elu 0.5", CLRS_MODE_NEAREST, TU_CHANNELS_LAST, CLRS_F32, CLRS_F32, 1,
     {ELT(CLRS_ELTWISE_ELU, 0.5, 0)}},
    {"gelu_tanh", CLRS_MODE_LINEAR, TU_BLOCKED, CLRS_F32, CLRS_F32, 1,
     {ELT(CLRS_ELTWISE_GELU_TANH, 0, 0)}},
    {"gelu_erf", CLRS_MODE_LINEAR, TU_DENSE, CLRS_F32, CLRS_F32, 1,
     {ELT(CLRS_ELTWISE_GELU_ERF, 0, 0)}},
    {"swish 1.5", CLRS_MODE_MAX, TU_CHANNELS_LAST, CLRS_F32, CLRS_F32, 1,
     {ELT(CLRS_ELTWISE_SWISH, 1.5, 0)}},
    {"abs", CLRS_MODE_NEAREST, TU_DENSE, CLRS_F32, CLRS_F32, 1,
     {ELT(CLRS_ELTWISE_ABS, 0, 0)}},
    {"square", CLRS_MODE_LINEAR, TU_CHANNELS_LAST, CLRS_F32, CLRS_F32, 1,
     {ELT(CLRS_ELTWISE_SQUARE, 0, 0)}},
    {"sqrt", CLRS_MODE_LINEAR, TU_DENSE, CLRS_F32, CLRS_F32, 1,
     {ELT(CLRS_ELTWISE_SQRT, 0, 0)}},
    {"exp", CLRS_MODE_NEAREST, TU_BLOCKED, CLRS_F32, CLRS_F32, 1,
     {ELT(CLRS_ELTWISE_EXP, 0, 0)}},
    {"log", CLRS_MODE_LINEAR, TU_CHANNELS_LAST, CLRS_F32, CLRS_F32, 1,
     {ELT(CLRS_ELTWISE_LOG, 0, 0)}},
    {"linear -2x+0.5", CLRS_MODE_MAX, TU_DENSE, CLRS_F32, CLRS_F32, 1,
     {ELT(CLRS_ELTWISE_LINEAR, -2, 0.5)}},
    {"binary add per_oc", CLRS_MODE_LINEAR, TU_CHANNELS_LAST, CLRS_F32,
     CLRS_F32, 1, {BIN(CLRS_BINARY_ADD, CLRS_F32, M_PER_OC)}},
    {"binary sub per_tensor", CLRS_MODE_NEAREST, TU_DENSE, CLRS_F32,
     CLRS_F32, 1, {BIN(CLRS_BINARY_SUB, CLRS_F32, M_TENSOR)}},
    {"binary mul common s8", CLRS_MODE_LINEAR, TU_BLOCKED, CLRS_F32,
     CLRS_F32, 1, {BIN(CLRS_BINARY_MUL, CLRS_S8, M_COMMON)}},
    {"binary div per_spatial", CLRS_MODE_LINEAR, TU_CHANNELS_LAST, CLRS_F32,
     CLRS_F32, 1, {BIN(CLRS_BINARY_DIV, CLRS_F32, M_SPATIAL)}},
    {"binary max per_tensor f16", CLRS_MODE_MAX, TU_CHANNELS_LAST, CLRS_F32,
     CLRS_F32, 1, {BIN(CLRS_BINARY_MAX, CLRS_F16, M_TENSOR)}},
    {"binary min per_oc bf16", CLRS_MODE_NEAREST, TU_BLOCKED, CLRS_F32,
     CLRS_F32, 1, {BIN(CLRS_BINARY_MIN, CLRS_BF16, M_PER_OC)}},
    {"sum 0.5", CLRS_MODE_LINEAR, TU_DENSE, CLRS_F32, CLRS_F32, 1,
     {SUM(0.5)}},
    {"sum -1.5 f16", CLRS_MODE_NEAREST, TU_CHANNELS_LAST, CLRS_F16, CLRS_F16,
     1, {SUM(-1.5)}},
    {"sum + relu + binary add per_oc", CLRS_MODE_LINEAR, TU_CHANNELS_LAST,
     CLRS_F32, CLRS_F32, 3,
     {SUM(0.5), ELT(CLRS_ELTWISE_RELU, 0, 0),
      BIN(CLRS_BINARY_ADD, CLRS_F32, M_PER_OC)}},
    {"linear + tanh + mul per_tensor + sum, u8", CLRS_MODE_LINEAR, TU_DENSE,
     CLRS_F32, CLRS_U8, 4,
     {ELT(CLRS_ELTWISE_LINEAR, 40, 60), ELT(CLRS_ELTWISE_CLIP, -20, 300),
      BIN(CLRS_BINARY_MUL, CLRS_F32, M_TENSOR), SUM(1)}},
    {"binary sub common + abs + sqrt, bf16", CLRS_MODE_MAX, TU_BLOCKED,
     CLRS_BF16, CLRS_BF16, 3,
     {BIN(CLRS_BINARY_SUB, CLRS_F32, M_COMMON), ELT(CLRS_ELTWISE_ABS, 0, 0),
      ELT(CLRS_ELTWISE_SQRT, 0, 0)}},
    {"two binaries per_oc and per_tensor, s8 dst", CLRS_MODE_NEAREST,
     TU_CHANNELS_LAST, CLRS_S8, CLRS_S8, 2,
     {BIN(CLRS_BINARY_ADD, CLRS_S8, M_PER_OC),
      BIN(CLRS_BINARY_MAX, CLRS_S32, M_TENSOR)}},
    {"gelu_erf + sum, f64", CLRS_MODE_LINEAR, TU_CHANNELS_LAST, CLRS_F64,
     CLRS_F64, 2, {ELT(CLRS_ELTWISE_GELU_ERF, 0, 0), SUM(0.25)}},
    {"elu + swish + square + logistic", CLRS_MODE_LINEAR, TU_BLOCKED,
     CLRS_F16, CLRS_F32, 4,
     {ELT(CLRS_ELTWISE_ELU, 1, 0), ELT(CLRS_ELTWISE_SWISH, 1, 0),
      ELT(CLRS_ELTWISE_SQUARE, 0, 0), ELT(CLRS_ELTWISE_LOGISTIC, 0, 0)}},
    /* The inputs lie in [-2.25, 2.25]: alpha 1/2 reaches hardswish's
     * closed, ramp and open parts; 4x first spreads them for 1/6, 1/2. */
    {"hardswish 1/2, 1/2", CLRS_MODE_LINEAR, TU_CHANNELS_LAST, CLRS_F32,
     CLRS_F32, 1, {ELT(CLRS_ELTWISE_HARDSWISH, 0.5, 0.5)}},
    {"mish", CLRS_MODE_LINEAR, TU_DENSE, CLRS_F32, CLRS_F32, 1,
     {ELT(CLRS_ELTWISE_MISH, 0, 0)}},
    {"linear 4x + hardswish 1/6, 1/2 + mish, f64", CLRS_MODE_NEAREST,
     TU_BLOCKED, CLRS_F64, CLRS_F64, 3,
     {ELT(CLRS_ELTWISE_LINEAR, 4, 0),
      ELT(CLRS_ELTWISE_HARDSWISH, 1.0 / 6, 0.5),
      ELT(CLRS_ELTWISE_MISH, 0, 0)}},
    {"linear 4x + mish + hardswish 1/6, 1/2, f16 -> bf16", CLRS_MODE_MAX,
     TU_CHANNELS_LAST, CLRS_F16, CLRS_BF16, 3,
     {ELT(CLRS_ELTWISE_LINEAR, 4, 0), ELT(CLRS_ELTWISE_MISH, 0, 0),
      ELT(CLRS_ELTWISE_HARDSWISH, 1.0 / 6, 0.5)}},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))
/* The Oclgrind subset: a chain per layout class. */
static const int subset_cases[] = {22, 24, 27, 23};
#define NSUBSET ((int)(sizeof subset_cases / sizeof subset_cases[0]))

/* Values k/4 in [lo/4, hi/4]: exact in every type the cases use. */
static void fill_quarters(tu_buf *b, tu_rng *r, int lo, int hi)
{
    int64_t idx[CLRS_MAX_RANK];
    if (tu_idx_first(b->rank, b->dims, idx))
        do {
            int64_t k;
            do
                k = tu_rng_int(r, lo, hi);
            while (k == 0);
            tu_set(b, idx, (double)k / 4.0);
        } while (tu_idx_next(b->rank, b->dims, idx));
    tu_buf_snapshot(b);
}

typedef struct casemem {
    clrs_resample_desc *op;
    clrs_tensor_desc *sd, *dd, *od[CLRS_MAX_POST_OPS];
    tu_buf x, y, yref, init, opb[CLRS_MAX_POST_OPS];
} casemem;

static void casemem_free(casemem *m)
{
    int i;
    tu_buf_free(&m->x);
    tu_buf_free(&m->y);
    tu_buf_free(&m->yref);
    tu_buf_free(&m->init);
    for (i = 0; i < CLRS_MAX_POST_OPS; ++i) {
        tu_buf_free(&m->opb[i]);
        clrs_tensor_desc_destroy(m->od[i]);
    }
    clrs_tensor_desc_destroy(m->sd);
    clrs_tensor_desc_destroy(m->dd);
    clrs_resample_desc_destroy(m->op);
    memset(m, 0, sizeof *m);
}

static int build_op(casemem *m, const pcase *c, tu_rng *lr,
                    const int64_t *out, tu_rng *r)
{
    static const int64_t win[2] = {2, 2}, str[2] = {2, 2};
    int i, a;
    if (clrs_resample_desc_create(&m->op, c->mode) != CLRS_SUCCESS)
        return -1;
    if (c->mode == CLRS_MODE_MAX &&
        (clrs_resample_desc_set_window(m->op, 2, win) ||
         clrs_resample_desc_set_stride(m->op, 2, str) ||
         clrs_resample_desc_set_inference(m->op, 1)))
        return -1;
    for (i = 0; i < c->n; ++i) {
        const pentry *e = &c->e[i];
        clrs_status st;
        if (e->kind == 0) {
            st = clrs_resample_desc_append_sum(m->op, e->a);
        } else if (e->kind == 1) {
            st = clrs_resample_desc_append_eltwise(m->op,
                                                   (clrs_eltwise)e->alg,
                                                   e->a, e->b);
        } else {
            int64_t dims[4];
            for (a = 0; a < 4; ++a)
                dims[a] = e->mask >> a & 1u ? out[a] : 1;
            if (tu_make_desc(&m->od[i], lr, e->dt, 4, dims, c->lay) ||
                tu_buf_alloc(&m->opb[i], m->od[i]))
                return -1;
            /* Divisors away from 0; other operands of both signs. */
            if (e->alg == CLRS_BINARY_DIV)
                fill_quarters(&m->opb[i], r, 2, 8);
            else
                fill_quarters(&m->opb[i], r, -8, 8);
            st = clrs_resample_desc_append_binary(m->op, (clrs_binary)e->alg,
                                                  m->od[i]);
        }
        if (st != CLRS_SUCCESS)
            return -1;
    }
    return 0;
}

static int has_sum(const pcase *c)
{
    int i;
    for (i = 0; i < c->n; ++i)
        if (c->e[i].kind == 0)
            return 1;
    return 0;
}

/* sqrt and log turn the rounding noise of a linear sum that cancels to
 * near 0 into large errors: such chains get positive inputs. */
static int steep_near_zero(const pcase *c)
{
    int i;
    for (i = 0; i < c->n; ++i)
        if (c->e[i].kind == 1 && (c->e[i].alg == CLRS_ELTWISE_SQRT ||
                                  c->e[i].alg == CLRS_ELTWISE_LOG))
            return 1;
    return 0;
}

static void run_case(int id, int small)
{
    const pcase *c = &cases[id];
    casemem m;
    tu_rng r, lr;
    td_result res;
    clrs_host_args ha;
    clrs_status st;
    const tu_buf *ops[CLRS_MAX_POST_OPS];
    int64_t in[4], out[4], bad = 0;
    int i, ok, sum = has_sum(c);
    double *bound = NULL, worst = 0;
    char head[160];

    memset(&m, 0, sizeof m);
    snprintf(head, sizeof head, "case %d: %s (%s %s, %s -> %s)", id, c->name,
             c->mode == CLRS_MODE_MAX      ? "max"
             : c->mode == CLRS_MODE_LINEAR ? "linear"
                                           : "nearest",
             tu_layout_name(c->lay), clrs_dtype_name(c->sdt),
             clrs_dtype_name(c->ddt));
    if ((c->sdt == CLRS_F64 || c->ddt == CLRS_F64) && !env.info.has_fp64) {
        tap_skip("no fp64 on this device");
        return;
    }
    tu_rng_seed(&r, tu_mix_seed(UINT64_C(0x9057), (uint64_t)id));
    tu_rng_seed(&lr, UINT64_C(0x9058));
    in[0] = out[0] = small ? 1 : 2;
    in[1] = out[1] = small ? 3 : 11; /* never a whole block */
    if (c->mode == CLRS_MODE_MAX) {
        in[2] = small ? 4 : 6;
        in[3] = small ? 4 : 8;
        out[2] = in[2] / 2;
        out[3] = in[3] / 2;
    } else {
        in[2] = small ? 2 : 3;
        in[3] = small ? 3 : 5;
        out[2] = small ? 3 : 5;
        out[3] = small ? 4 : 9;
    }
    if (tu_make_desc(&m.sd, &lr, c->sdt, 4, in, c->lay) ||
        tu_make_desc(&m.dd, &lr, c->ddt, 4, out, c->lay) ||
        tu_buf_alloc(&m.x, m.sd) || tu_buf_alloc(&m.y, m.dd) ||
        tu_buf_alloc(&m.yref, m.dd) || tu_buf_alloc(&m.init, m.dd) ||
        build_op(&m, c, &lr, out, &r)) {
        tap_ok(0, "%s: setup (%s)", head, clrs_last_error());
        casemem_free(&m);
        return;
    }
    if (c->lay == TU_BLOCKED) {
        tu_buf_set_zero_padding(&m.y);
        tu_buf_set_zero_padding(&m.yref);
    }
    /* Both signs, so relu's slope, elu, abs, clip and NaN-making sqrt
     * and log of negatives are all reached. */
    if (c->sdt == CLRS_S8 || c->sdt == CLRS_U8)
        tu_fill_ints(&m.x, &r, c->sdt == CLRS_U8 ? 1 : -20, 20);
    else if (c->mode == CLRS_MODE_LINEAR && steep_near_zero(c))
        fill_quarters(&m.x, &r, 4, 12); /* no cancellation to amplify */
    else
        fill_quarters(&m.x, &r, -9, 9);
    if (sum) {
        fill_quarters(&m.init, &r, -6, 6);
        memcpy(m.yref.data, m.init.data, m.init.bytes);
    }
    memset(&ha, 0, sizeof ha);
    ha.src = m.x.data;
    ha.dst = m.yref.data;
    for (i = 0; i < CLRS_MAX_POST_OPS; ++i) {
        ha.post_op[i] = m.opb[i].data;
        ops[i] = m.od[i] ? &m.opb[i] : NULL;
    }
    bound = td_bound_alloc(&m.yref);
    st = bound ? clrs_reference_forward_bound(m.op, m.sd, m.dd, NULL, &ha,
                                              bound)
               : CLRS_ERR_OUT_OF_MEMORY;
    if (st != CLRS_SUCCESS) {
        tap_ok(0, "%s: reference: %s: %s", head, clrs_status_name(st),
               clrs_last_error());
        free(bound);
        casemem_free(&m);
        return;
    }
    ok = td_forward_post(&env, m.op, &m.x, &m.y, NULL, &m.yref, NULL, ops,
                         sum ? &m.init : NULL, &res);
    if (res.plan_status == CLRS_SUCCESS && res.exec_status == CLRS_SUCCESS &&
        !res.cl_error)
        bad = td_compare(&m.y, &m.yref, bound, "dst", &worst);
    tap_ok(ok && bad == 0,
           "%s: agrees with the reference (largest difference %.2g bound)",
           head, worst);
    free(bound);
    casemem_free(&m);
}

/* ---- infinite inputs ------------------------------------------------------
 * Every eltwise row at -inf and +inf (nearest 1:1, so the input reaches
 * the post-op unchanged), on the scalar path (dense) and the vector path
 * (channels-last), against the limits of the functions: gelu, swish,
 * hardswish and mish go to 0 on the side where their gate closes, never
 * to NaN. The
 * reference must give the same values. */
typedef struct inf_row {
    const char *name;
    clrs_eltwise alg;
    double a, b;
    double at_ninf, at_pinf;
} inf_row;

static void infinite_inputs(void)
{
    static const inf_row rows[] = {
        {"relu 0.25", CLRS_ELTWISE_RELU, 0.25, 0, -INFINITY, INFINITY},
        {"clip [-1, 1.5]", CLRS_ELTWISE_CLIP, -1, 1.5, -1, 1.5},
        {"tanh", CLRS_ELTWISE_TANH, 0, 0, -1, 1},
        {"logistic", CLRS_ELTWISE_LOGISTIC, 0, 0, 0, 1},
        {"elu 0.5", CLRS_ELTWISE_ELU, 0.5, 0, -0.5, INFINITY},
        {"gelu_tanh", CLRS_ELTWISE_GELU_TANH, 0, 0, 0, INFINITY},
        {"gelu_erf", CLRS_ELTWISE_GELU_ERF, 0, 0, 0, INFINITY},
        {"swish 1.5", CLRS_ELTWISE_SWISH, 1.5, 0, 0, INFINITY},
        {"swish -1", CLRS_ELTWISE_SWISH, -1, 0, -INFINITY, 0},
        {"swish 0", CLRS_ELTWISE_SWISH, 0, 0, -INFINITY, INFINITY},
        {"abs", CLRS_ELTWISE_ABS, 0, 0, INFINITY, INFINITY},
        {"square", CLRS_ELTWISE_SQUARE, 0, 0, INFINITY, INFINITY},
        {"sqrt", CLRS_ELTWISE_SQRT, 0, 0, NAN, INFINITY},
        {"exp", CLRS_ELTWISE_EXP, 0, 0, 0, INFINITY},
        {"log", CLRS_ELTWISE_LOG, 0, 0, NAN, INFINITY},
        {"linear 2, -1", CLRS_ELTWISE_LINEAR, 2, -1, -INFINITY, INFINITY},
        {"hardswish 1/6, 1/2", CLRS_ELTWISE_HARDSWISH, 1.0 / 6, 0.5, 0,
         INFINITY},
        {"hardswish -1, 1/2", CLRS_ELTWISE_HARDSWISH, -1, 0.5, -INFINITY, 0},
        {"hardswish 0, 1/2", CLRS_ELTWISE_HARDSWISH, 0, 0.5, -INFINITY,
         INFINITY},
        {"hardswish 0, -1", CLRS_ELTWISE_HARDSWISH, 0, -1, 0, 0},
        {"mish", CLRS_ELTWISE_MISH, 0, 0, 0, INFINITY},
    };
    static const tu_layout lays[2] = {TU_DENSE, TU_CHANNELS_LAST};
    /* n, c, h, w: 16 channels (a whole vector), infinities of both signs
     * mixed with finite values. */
    const int64_t dims[4] = {1, 16, 2, 2};
    size_t i;
    int l;

    for (i = 0; i < sizeof rows / sizeof rows[0]; ++i)
        for (l = 0; l < 2; ++l) {
            const inf_row *q = &rows[i];
            clrs_resample_desc *op = NULL;
            clrs_tensor_desc *sd = NULL, *dd = NULL;
            tu_buf x, y, yref;
            tu_rng lr;
            td_result res;
            clrs_host_args ha;
            double *bound = NULL;
            int64_t idx[4];
            int ok = 0, bad = 0, k = 0;

            memset(&x, 0, sizeof x);
            memset(&y, 0, sizeof y);
            memset(&yref, 0, sizeof yref);
            tu_rng_seed(&lr, UINT64_C(0x1f1f));
            if (clrs_resample_desc_create(&op, CLRS_MODE_NEAREST) ||
                clrs_resample_desc_append_eltwise(op, q->alg, q->a, q->b) ||
                tu_make_desc(&sd, &lr, CLRS_F32, 4, dims, lays[l]) ||
                tu_make_desc(&dd, &lr, CLRS_F32, 4, dims, lays[l]) ||
                tu_buf_alloc(&x, sd) || tu_buf_alloc(&y, dd) ||
                tu_buf_alloc(&yref, dd)) {
                tap_ok(0, "infinite inputs, %s: setup", q->name);
                goto next;
            }
            /* Every third element -inf, every third +inf, the rest 0.5. */
            if (tu_idx_first(4, dims, idx))
                do {
                    tu_set(&x, idx, k % 3 == 0   ? -INFINITY
                                    : k % 3 == 1 ? INFINITY
                                                 : 0.5);
                    ++k;
                } while (tu_idx_next(4, dims, idx));
            tu_buf_snapshot(&x);
            memset(&ha, 0, sizeof ha);
            ha.src = x.data;
            ha.dst = yref.data;
            bound = td_bound_alloc(&yref);
            if (!bound || clrs_reference_forward_bound(op, sd, dd, NULL, &ha,
                                                       bound) !=
                              CLRS_SUCCESS) {
                tap_ok(0, "infinite inputs, %s: reference: %s", q->name,
                       clrs_last_error());
                goto next;
            }
            ok = td_forward_post(&env, op, &x, &y, NULL, &yref, NULL, NULL,
                                 NULL, &res);
            k = 0;
            if (ok && tu_idx_first(4, dims, idx))
                do {
                    double in = k % 3 == 0 ? -INFINITY : INFINITY;
                    double want = in < 0 ? q->at_ninf : q->at_pinf;
                    double g = tu_get(&y, idx), r = tu_get(&yref, idx);
                    double b = bound[k++];
                    if (fabs(tu_get(&x, idx)) != INFINITY)
                        continue;
                    /* The reference reaches the stated limit (finite ones
                     * within f32 rounding of the value); the device agrees
                     * with the reference. */
                    if ((!tap_same(r, want) &&
                         !(isfinite(want) && fabs(r - want) <= 1e-6)) ||
                        !clrs_reference_agrees(y.dtype, g, r, b)) {
                        if (bad++ < 2)
                            tap_diag("  %s(%g): device %g, reference %g, "
                                     "want %g, bound %g",
                                     q->name, in, g, r, want, b);
                    }
                } while (tu_idx_next(4, dims, idx));
            tap_ok(ok && bad == 0,
                   "infinite inputs, %s, %s: the function's limits on the "
                   "device and in the reference",
                   q->name, tu_layout_name(lays[l]));
        next:
            free(bound);
            tu_buf_free(&x);
            tu_buf_free(&y);
            tu_buf_free(&yref);
            clrs_tensor_desc_destroy(sd);
            clrs_tensor_desc_destroy(dd);
            clrs_resample_desc_destroy(op);
        }
}

/* ---- execute-time operand checks ---------------------------------------- */

static void expect(clrs_status got, clrs_status want, const char *what)
{
    tap_ok(got == want, "%s -> %s", what, clrs_status_name(want));
    if (got != want)
        tap_diag("got %s: %s", clrs_status_name(got),
                 clrs_context_last_error(env.ctx));
}

/* An operand of another cl_context and a CL_MEM_READ_ONLY dst are refused
 * before anything is enqueued; a leaves as it came. */
static void foreign_operand(clrs_plan *plan, clrs_args *a)
{
    cl_mem keep_op = a->post_op[1], keep_dst = a->dst, fm = NULL, ro;
    cl_context other;
    cl_int err;

    other = clCreateContext(NULL, 1, &env.dev, NULL, NULL, &err);
    if (other)
        fm = clCreateBuffer(other, CL_MEM_READ_WRITE, 4 * 4, NULL, &err);
    ro = clCreateBuffer(env.cl, CL_MEM_READ_ONLY, 64 * 4, NULL, &err);
    if (fm && ro) {
        a->post_op[1] = fm;
        expect(clrs_execute(plan, a, 0, NULL, NULL), CLRS_ERR_INVALID_VALUE,
               "an operand buffer of another cl_context");
        a->post_op[1] = keep_op;
        a->dst = ro;
        expect(clrs_execute(plan, a, 0, NULL, NULL), CLRS_ERR_INVALID_VALUE,
               "a CL_MEM_READ_ONLY dst");
        a->dst = keep_dst;
    } else {
        tap_ok(0, "operand of another context: setup");
    }
    if (fm)
        clReleaseMemObject(fm);
    if (ro)
        clReleaseMemObject(ro);
    if (other)
        clReleaseContext(other);
}

static void operand_checks(void)
{
    int64_t in[4] = {1, 4, 2, 2}, out[4] = {1, 4, 4, 4}, od[4] = {1, 4, 1, 1};
    clrs_tensor_desc *sd = NULL, *dd = NULL, *opd = NULL;
    clrs_resample_desc *op = NULL;
    clrs_plan *plan = NULL;
    cl_mem src = NULL, dst = NULL, opm = NULL, small = NULL;
    clrs_args a;
    cl_int err;
    cl_event ev = NULL;

    if (clrs_tensor_desc_create(&sd, CLRS_F32, 4, in, NULL) ||
        clrs_tensor_desc_create(&dd, CLRS_F32, 4, out, NULL) ||
        clrs_tensor_desc_create(&opd, CLRS_F32, 4, od, NULL) ||
        clrs_resample_desc_create(&op, CLRS_MODE_NEAREST) ||
        clrs_resample_desc_append_eltwise(op, CLRS_ELTWISE_RELU, 0, 0) ||
        clrs_resample_desc_append_binary(op, CLRS_BINARY_ADD, opd) ||
        clrs_plan_create_forward(&plan, env.ctx, op, sd, dd, NULL)) {
        tap_ok(0, "operand checks: setup: %s",
               clrs_context_last_error(env.ctx));
        goto out;
    }
    src = clCreateBuffer(env.cl, CL_MEM_READ_WRITE, 16 * 4, NULL, &err);
    dst = clCreateBuffer(env.cl, CL_MEM_READ_WRITE, 64 * 4, NULL, &err);
    opm = clCreateBuffer(env.cl, CL_MEM_READ_WRITE, 4 * 4, NULL, &err);
    small = clCreateBuffer(env.cl, CL_MEM_READ_WRITE, 3 * 4, NULL, &err);
    if (!src || !dst || !opm || !small) {
        tap_ok(0, "operand checks: buffers");
        goto out;
    }
    memset(&a, 0, sizeof a);
    a.src = src;
    a.dst = dst;
    expect(clrs_execute(plan, &a, 0, NULL, NULL), CLRS_ERR_NULL_POINTER,
           "binary post-op 1 without its operand buffer");
    a.post_op[1] = small;
    expect(clrs_execute(plan, &a, 0, NULL, NULL), CLRS_ERR_BUFFER_TOO_SMALL,
           "operand buffer of 12 bytes for 16");
    a.post_op[1] = dst;
    expect(clrs_execute(plan, &a, 0, NULL, NULL), CLRS_ERR_ALIASING,
           "operand buffer that is also dst");
    a.post_op[1] = opm;
    a.post_op[0] = opm;
    expect(clrs_execute(plan, &a, 0, NULL, NULL), CLRS_ERR_INVALID_VALUE,
           "a buffer for post-op 0, an eltwise");
    a.post_op[0] = NULL;
    foreign_operand(plan, &a);
    expect(clrs_execute(plan, &a, 0, NULL, &ev), CLRS_SUCCESS,
           "the right operand buffer");
    if (ev) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
out:
    if (src)
        clReleaseMemObject(src);
    if (dst)
        clReleaseMemObject(dst);
    if (opm)
        clReleaseMemObject(opm);
    if (small)
        clReleaseMemObject(small);
    clrs_plan_destroy(plan);
    clrs_resample_desc_destroy(op);
    clrs_tensor_desc_destroy(sd);
    clrs_tensor_desc_destroy(dd);
    clrs_tensor_desc_destroy(opd);
}

int main(int argc, char **argv)
{
    uint64_t seed;
    int subset = 0, i;
    const char *e = getenv("CLRS_TEST_OCLGRIND_SUBSET");

    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--oclgrind-subset") == 0) {
            subset = 1;
        } else {
            fprintf(stderr, "usage: %s [--oclgrind-subset]\n", argv[0]);
            return 2;
        }
    }
    if (e && *e && strcmp(e, "0") != 0)
        subset = 1;
    td_open(&env);
    if (tu_env_seed("CLRS_TEST_SEED", &seed)) {
        if (seed < (uint64_t)NCASES)
            run_case((int)seed, subset);
        td_close(&env);
        return tap_done();
    }
    if (subset) {
        for (i = 0; i < NSUBSET; ++i)
            run_case(subset_cases[i], 1);
    } else {
        for (i = 0; i < NCASES; ++i)
            run_case(i, 0);
        infinite_inputs();
        operand_checks();
    }
    td_close(&env);
    return tap_done();
}
