/* Adjoint property of the CPU reference: for every linear mode, coordinate
 * option, padding and layout, dot(fwd(x), dy) == dot(x, bwd(dy))
 * (clresample(3), Backward).
 * CLRS_TEST_SEED=S reruns case S alone; CLRS_TEST_SEED_BASE moves the run. */
#include "tap.h"
#include "util.h"

#include <inttypes.h>
#include <string.h>

#define NCASES 660
/* Seeds from FILTER_SEED on take the filter variants (every filter,
 * plain and antialiased): NFILTER_CASES of them. */
#define FILTER_SEED UINT64_C(1000000)
#define NFILTER_CASES 200
#define MAX_ELEMS 1500

/* Case seed S uses linear variant S % TU_NLINEAR (filter variant
 * S % TU_NFILTERS from FILTER_SEED on) and, for interpolation,
 * coordinate option (S / TU_NLINEAR) % TU_NCOORDS: consecutive seeds cover
 * every pair. Seeds divisible by 25 also check accumulate. */
typedef struct config {
    tu_op op;
    int accumulate;
} config;

static void gen_config(config *c, uint64_t seed, tu_rng *r)
{
    const int filter = seed >= FILTER_SEED;
    const int n = filter ? TU_NFILTERS : TU_NLINEAR;
    const tu_variant *v = filter ? &tu_filter_variants[seed % TU_NFILTERS]
                                 : &tu_variants[seed % TU_NLINEAR];
    tu_op_random(&c->op, r, v, tu_coords[(seed / (uint64_t)n) % TU_NCOORDS], 0,
                 MAX_ELEMS);
    /* Constant padding and extrapolation make the map affine, not linear:
     * keep both at 0 here (tu_op_random does). */
    c->op.pad_value = 0;
    c->op.extrapolation = 0;
    c->accumulate = seed % 25 == 0;
}

/* ---- one case ------------------------------------------------------------ */

typedef struct tensors {
    clrs_tensor_desc *xd, *yd, *dyd, *dxd;
    tu_buf x, y, dy, dx;
} tensors;

static void tensors_free(tensors *t)
{
    tu_buf_free(&t->x);
    tu_buf_free(&t->y);
    tu_buf_free(&t->dy);
    tu_buf_free(&t->dx);
    clrs_tensor_desc_destroy(t->xd);
    clrs_tensor_desc_destroy(t->yd);
    clrs_tensor_desc_destroy(t->dyd);
    clrs_tensor_desc_destroy(t->dxd);
}

static int make_tensor(clrs_tensor_desc **d, tu_buf *b, tu_rng *r, int rank,
                       const int64_t *dims, unsigned mask, const char *what)
{
    /* f64 everywhere: the adjoint identity is then checked to ~1e-15. */
    return tu_make_tensor(d, b, r, CLRS_F64, rank, dims, mask, what);
}

/* Constant padding and a tf_crop_and_resize extrapolation value make the
 * map affine: y = A x + b(value). So with a non-zero value, fwd_v(x) -
 * fwd_0(x) must not depend on x, and backward must not depend on the value
 * at all (same bytes as with 0). */
static void check_affine(uint64_t seed, const config *c,
                         const clrs_resample_desc *op0, tensors *t,
                         tu_rng *r)
{
    tu_op c2 = c->op;
    clrs_resample_desc *op = NULL;
    tu_buf x2, yv, yv2, y02, dxv;
    clrs_host_args a;
    int64_t idx[CLRS_MAX_RANK], shifted = 0;
    double worst = 0;
    int ok = 1, k;

    c2.pad_value = c2.pad == CLRS_PAD_CONSTANT ? 2.5 : 0;
    c2.extrapolation = c2.has_roi ? -1.5 : 0;
    memset(&x2, 0, sizeof x2);
    memset(&yv, 0, sizeof yv);
    memset(&yv2, 0, sizeof yv2);
    memset(&y02, 0, sizeof y02);
    memset(&dxv, 0, sizeof dxv);
    op = tu_op_build(&c2);
    if (!op || tu_buf_alloc(&x2, t->xd) || tu_buf_alloc(&yv, t->yd) ||
        tu_buf_alloc(&yv2, t->yd) || tu_buf_alloc(&y02, t->yd) ||
        tu_buf_alloc(&dxv, t->dxd)) {
        ok = 0;
        goto out;
    }
    tu_fill_sixteenths(&x2, r, -64, 64);
    for (k = 0; k < 4 && ok; ++k) {
        const clrs_resample_desc *o = k == 3 ? op0 : op;
        const tu_buf *in = k == 0 ? &t->x : &x2;
        tu_buf *out = k == 0 ? &yv : k == 1 ? &yv2 : k == 2 ? &dxv : &y02;
        clrs_status st;
        memset(&a, 0, sizeof a);
        if (k == 2) {
            a.diff_dst = t->dy.data;
            a.diff_src = dxv.data;
            st = clrs_reference_backward(o, t->dxd, t->dyd, NULL, NULL, &a);
        } else {
            a.src = in->data;
            a.dst = out->data;
            st = clrs_reference_forward(o, t->xd, t->yd, NULL, &a);
        }
        if (st != CLRS_SUCCESS) {
            tap_diag("affine run %d -> %s: %s", k, clrs_status_name(st),
                     clrs_last_error());
            ok = 0;
        }
        ok = ok && tu_buf_check_output(out, "affine output") == 0;
    }
    if (ok && memcmp(dxv.raw, t->dx.raw, dxv.bytes + 2 * TU_MARGIN)) {
        tap_diag("backward depends on the padding/extrapolation value");
        ok = 0;
    }
    if (ok && tu_idx_first(c->op.rank, c->op.out, idx))
        do {
            double b1 = tu_get(&yv, idx) - tu_get(&t->y, idx);
            double b2 = tu_get(&yv2, idx) - tu_get(&y02, idx);
            double lim = 1e-12 * (fabs(tu_get(&yv, idx)) +
                                  fabs(tu_get(&t->y, idx)) +
                                  fabs(tu_get(&yv2, idx)) +
                                  fabs(tu_get(&y02, idx)));
            if (!(fabs(b1 - b2) <= lim)) {
                if (ok)
                    tap_diag("offset b at %" PRId64 ": %.17g for x, %.17g "
                             "for x'",
                             tu_buf_offset(&yv, idx), b1, b2);
                ok = 0;
            }
            if (fabs(b1 - b2) > worst)
                worst = fabs(b1 - b2);
            shifted += b1 != 0;
        } while (tu_idx_next(c->op.rank, c->op.out, idx));
out:
    tap_ok(ok, "seed %" PRIu64 " %s/%s: affine in the padding/extrapolation "
           "value (%" PRId64 " outputs shifted, max err %.3g)",
           seed, c->op.v->name, tu_coord_name(c->op.coord), shifted, worst);
    tu_buf_free(&x2);
    tu_buf_free(&yv);
    tu_buf_free(&yv2);
    tu_buf_free(&y02);
    tu_buf_free(&dxv);
    clrs_resample_desc_destroy(op);
}

static void run_case(uint64_t seed)
{
    config c;
    tu_rng r;
    char desc[1536];
    tensors t;
    clrs_resample_desc *op;
    clrs_host_args args;
    clrs_status st;
    char sx[256], sy[256], sdy[256], sdx[256];
    double lhs, rhs, al, ar, tol;
    size_t bad = 0;
    int ok;

    tu_rng_seed(&r, tu_mix_seed(seed, 0));
    gen_config(&c, seed, &r);
    tu_op_describe(&c.op, desc, sizeof desc);
    memset(&t, 0, sizeof t);

    if (make_tensor(&t.xd, &t.x, &r, c.op.rank, c.op.in, TU_LAYOUTS_ALL,
                    "src") ||
        make_tensor(&t.yd, &t.y, &r, c.op.rank, c.op.out, TU_LAYOUTS_DST,
                    "dst") ||
        make_tensor(&t.dyd, &t.dy, &r, c.op.rank, c.op.out, TU_LAYOUTS_ALL,
                    "diff_dst") ||
        make_tensor(&t.dxd, &t.dx, &r, c.op.rank, c.op.in, TU_LAYOUTS_DST,
                    "diff_src")) {
        tap_diag("seed %" PRIu64 " config %s", seed, desc);
        tap_ok(0, "seed %" PRIu64 " %s: tensors", seed, c.op.v->name);
        tensors_free(&t);
        return;
    }
    tu_desc_str(t.xd, sx, sizeof sx);
    tu_desc_str(t.yd, sy, sizeof sy);
    tu_desc_str(t.dyd, sdy, sizeof sdy);
    tu_desc_str(t.dxd, sdx, sizeof sdx);
    tap_diag("seed %" PRIu64 " config %s%s src=%s dst=%s diff_dst=%s "
             "diff_src=%s",
             seed, desc, c.accumulate ? " +accumulate" : "", sx, sy, sdy,
             sdx);

    op = tu_op_build(&c.op);
    if (!op) {
        tap_ok(0, "seed %" PRIu64 " %s: op descriptor", seed, c.op.v->name);
        tensors_free(&t);
        return;
    }

    /* k/16 values: exact products, and never all zero (util.c). */
    tu_fill_sixteenths(&t.x, &r, -64, 64);
    tu_fill_sixteenths(&t.dy, &r, -64, 64);

    memset(&args, 0, sizeof args);
    args.src = t.x.data;
    args.dst = t.y.data;
    st = clrs_reference_forward(op, t.xd, t.yd, NULL, &args);
    if (st != CLRS_SUCCESS) {
        tap_diag("forward -> %s: %s", clrs_status_name(st),
                 clrs_last_error());
        tap_ok(0, "seed %" PRIu64 " %s/%s: forward runs", seed, c.op.v->name,
               tu_coord_name(c.op.coord));
        goto done;
    }
    memset(&args, 0, sizeof args);
    args.diff_dst = t.dy.data;
    args.diff_src = t.dx.data;
    st = clrs_reference_backward(op, t.dxd, t.dyd, NULL, NULL, &args);
    if (st != CLRS_SUCCESS) {
        tap_diag("backward -> %s: %s", clrs_status_name(st),
                 clrs_last_error());
        tap_ok(0, "seed %" PRIu64 " %s/%s: backward runs", seed, c.op.v->name,
               tu_coord_name(c.op.coord));
        goto done;
    }

    bad += tu_buf_check_unchanged(&t.x, "src");
    bad += tu_buf_check_unchanged(&t.dy, "diff_dst");
    bad += tu_buf_check_output(&t.y, "dst");
    bad += tu_buf_check_output(&t.dx, "diff_src");

    lhs = tu_dot(&t.y, &t.dy, &al);
    rhs = tu_dot(&t.x, &t.dx, &ar);
    /* Each side has at most a few thousand roundings of relative size
     * 2^-53 against its own sum of |terms|; 1e-9 leaves a wide margin
     * while any wrong tap or weight moves the dot by O(1/16). */
    tol = 1e-9 * (al + ar);
    ok = bad == 0 && fabs(lhs - rhs) <= tol;
    if (!ok)
        tap_diag("dot(fwd(x), dy) = %.17g, dot(x, bwd(dy)) = %.17g, "
                 "|diff| = %.3g, tol = %.3g, %zu buffer problems",
                 lhs, rhs, fabs(lhs - rhs), tol, bad);
    tap_ok(ok, "seed %" PRIu64 " %s/%s: adjoint (%.6g vs %.6g)", seed,
           c.op.v->name, tu_coord_name(c.op.coord), lhs, rhs);

    if (c.accumulate) {
        /* Backward with accumulate adds A^T dy to what diff_src holds. */
        clrs_resample_desc *acc = NULL;
        tu_buf z, before;
        int64_t idx[CLRS_MAX_RANK];
        double worst = 0;
        int okacc = 1;
        memset(&z, 0, sizeof z);
        memset(&before, 0, sizeof before);
        st = clrs_resample_desc_clone(&acc, op);
        if (st == CLRS_SUCCESS)
            st = clrs_resample_desc_set_accumulate(acc, 1);
        if (st != CLRS_SUCCESS || tu_buf_alloc(&z, t.dxd) ||
            tu_buf_alloc(&before, t.dxd)) {
            tap_ok(0, "seed %" PRIu64 ": accumulate setup (%s)", seed,
                   clrs_status_name(st));
            tu_buf_free(&z);
            tu_buf_free(&before);
            clrs_resample_desc_destroy(acc);
            goto done;
        }
        tu_fill_sixteenths(&z, &r, -64, 64);
        tu_copy(&before, &z);
        args.diff_src = z.data;
        st = clrs_reference_backward(acc, t.dxd, t.dyd, NULL, NULL, &args);
        okacc = st == CLRS_SUCCESS;
        if (!okacc)
            tap_diag("accumulate backward -> %s: %s", clrs_status_name(st),
                     clrs_last_error());
        okacc = okacc && tu_buf_check_unchanged(&t.dy, "diff_dst") == 0 &&
                tu_buf_check_output(&z, "diff_src (accumulate)") == 0;
        if (okacc && tu_idx_first(c.op.rank, c.op.in, idx))
            do {
                double want = tu_get(&before, idx) + tu_get(&t.dx, idx);
                double got = tu_get(&z, idx);
                double err = fabs(got - want);
                double lim = 1e-12 * (fabs(tu_get(&before, idx)) +
                                      fabs(tu_get(&t.dx, idx)));
                if (!(err <= lim)) {
                    if (okacc)
                        tap_diag("accumulate: element at offset %" PRId64
                                 ": got %.17g want %.17g",
                                 tu_buf_offset(&z, idx), got, want);
                    okacc = 0;
                }
                if (err > worst)
                    worst = err;
            } while (tu_idx_next(c.op.rank, c.op.in, idx));
        tap_ok(okacc, "seed %" PRIu64 " %s/%s: accumulate adds to diff_src "
               "(max err %.3g)",
               seed, c.op.v->name, tu_coord_name(c.op.coord), worst);
        tu_buf_free(&z);
        tu_buf_free(&before);
        clrs_resample_desc_destroy(acc);
    }

    if (c.op.pad == CLRS_PAD_CONSTANT || c.op.has_roi)
        check_affine(seed, &c, op, &t, &r);

done:
    clrs_resample_desc_destroy(op);
    tensors_free(&t);
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
    tap_diag("seeds %" PRIu64 "..%" PRIu64
             " (rerun one: CLRS_TEST_SEED=S)",
             base, base + NCASES - 1);
    for (i = 0; i < NCASES; ++i)
        run_case(base + (uint64_t)i);
    tap_diag("filter seeds %" PRIu64 "..%" PRIu64, FILTER_SEED + base,
             FILTER_SEED + base + NFILTER_CASES - 1);
    for (i = 0; i < NFILTER_CASES; ++i)
        run_case(FILTER_SEED + base + (uint64_t)i);
    return tap_done();
}
