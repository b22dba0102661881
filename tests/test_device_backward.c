/* The device backward pass: the worked cases of clresample(3) with a
 * gradient, seeded random configurations against the CPU reference
 * (clrs_reference_backward) with the adjoint property checked on the
 * device (device forward and device backward), max pooling from both
 * index formats and recomputed from src with ties and NaNs, out-of-range
 * index values, accumulate mode, and bit-identical repeated runs.
 *   CLRS_TEST_SEED=S        reruns case S alone
 *   CLRS_TEST_SEED_BASE=B   runs seeds B .. B+NCASES-1
 *   CLRS_TEST_TIER=quick    every class twice
 *   --oclgrind-subset (or CLRS_TEST_OCLGRIND_SUBSET=1): every class twice
 *   at tiny sizes (every backward mode), for test_oclgrind.sh. */
#include "devutil.h"
#include "tap.h"
#include "tap_set.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NCASES 880
#define NROWS 4
/* Classes fix what selects a kernel (variant, rank, axes, padding,
 * layouts, dtype, max flavour, accumulate, generic path), so the run
 * builds a bounded number of programs; sizes and coordinates vary per
 * case (as in test_device_forward). */
#define NLINCLASS (TU_NLINEAR * NROWS)
#define NCLASS (NLINCLASS + 2 * MK_COUNT)
#define MAX_ELEMS 300
#define SUBSET_ELEMS 40

/* Adjoint: |dot(Ax, dy) - dot(x, A^T dy)| relative to sum |terms|. */
#define ADJ_F32 1e-5
#define ADJ_F64 1e-12

static td_env env;

enum {
    MK_WINDOW,           /* index tensor, window format */
    MK_PLANE,            /* index tensor, plane format */
    MK_RECOMPUTE,        /* argmax recomputed from src, NaN propagate */
    MK_RECOMPUTE_IGNORE, /* the same, NaN ignore */
    MK_WINDOW_IGNORE,    /* window index written under NaN ignore */
    MK_BAD_WINDOW,       /* window index with values out of range */
    MK_BAD_PLANE,        /* plane index with values out of range */
    MK_COUNT
};
static const char *const mk_names[MK_COUNT] = {
    "index=window",       "index=plane",
    "recompute",          "recompute nan=ignore",
    "index=window(nan=ignore)", "index=window(bad values)",
    "index=plane(bad values)"};

typedef struct bclass {
    int id, variant, rank, naxes, axes[CLRS_MAX_RANK];
    clrs_padding pad;
    tu_layout dx_layout, dy_layout;
    clrs_dtype dt;
    int maxkind, accumulate, generic, wide;
    int64_t ident[CLRS_MAX_RANK];
} bclass;

static int is_max(const bclass *k)
{
    return tu_variants[k->variant].mode == CLRS_MODE_MAX;
}

static int innermost(tu_layout l, int rank)
{
    return l == TU_CHANNELS_LAST && rank >= 3 ? 1 : rank - 1;
}

static void make_class(bclass *k, int id)
{
    static const clrs_padding pads[] = {CLRS_PAD_DEFAULT, CLRS_PAD_EDGE,
                                        CLRS_PAD_ZERO, CLRS_PAD_CONSTANT,
                                        CLRS_PAD_NEG_INF};
    static const tu_layout lays[] = {TU_DENSE, TU_CHANNELS_LAST, TU_PERMUTED,
                                     TU_PADDED};
    int row, a;
    tu_rng r;

    memset(k, 0, sizeof *k);
    tu_rng_seed(&r, tu_mix_seed(UINT64_C(0xBAC4), (uint64_t)id));
    k->id = id;
    k->wide = -1;
    if (id < NLINCLASS) {
        row = id / TU_NLINEAR;
        k->variant = id % TU_NLINEAR;
        k->rank = 1 + (row + k->variant) % 5;
        k->pad = pads[(row + k->variant) % 4];
        k->dx_layout = lays[(row * 3 + k->variant) % 4];
        k->dt = row == 3 && env.info.has_fp64 ? CLRS_F64 : CLRS_F32;
        k->accumulate = row == 2;
    } else {
        row = id - NLINCLASS;
        k->variant = TU_NVARIANTS - 1;
        k->maxkind = row % MK_COUNT;
        k->rank = 1 + row % 5;
        k->pad = pads[(row + 1) % 5];
        k->dx_layout = lays[row % 4];
        k->dt = row % 4 == 3 && env.info.has_fp64 ? CLRS_F64 : CLRS_F32;
        k->accumulate = row / MK_COUNT == 1 && row % 2 == 0;
    }
    k->dy_layout = tu_rng_chance(&r, 0.7) ? k->dx_layout
                                          : lays[tu_rng_int(&r, 0, 3)];
    for (a = 0; a < CLRS_MAX_RANK; ++a)
        k->ident[a] = tu_rng_int(&r, 1, 3);
    /* Rows 1 and 2 (and max rows 7, 8, 9, 12: window index, plane index,
     * recompute, bad window values):
     * a long contiguous axis that is not resampled, where the kernel
     * vectorises (with a partial last vector). */
    if (is_max(k) && (row == 7 || row == 8 || row == 9 || row == 12))
        k->dx_layout = k->rank >= 3 ? TU_CHANNELS_LAST : TU_DENSE;
    if ((row == 1 || row == 2 || (is_max(k) && row >= 7 && row != 10 &&
                                  row != 11 && row != 13)) &&
        k->rank >= 2 &&
        (k->dx_layout == TU_DENSE || k->dx_layout == TU_CHANNELS_LAST)) {
        k->wide = innermost(k->dx_layout, k->rank);
        k->dy_layout = k->dx_layout;
    }
    k->generic = k->wide < 0 && id % 2 == 1;
    do {
        k->naxes = 0;
        for (a = 0; a < k->rank; ++a)
            if (a != k->wide && tu_rng_chance(&r, 0.6))
                k->axes[k->naxes++] = a;
    } while (k->naxes == 0);
}

static int draw_op(tu_op *c, const bclass *k, tu_rng *r, clrs_coord coord,
                   int64_t max_elems)
{
    long tries;
    for (tries = 0; tries < 2000000; ++tries) {
        int j, same;
        tu_op_random(c, r, &tu_variants[k->variant], coord, 0, max_elems);
        same = c->rank == k->rank && c->naxes == k->naxes;
        for (j = 0; same && j < c->naxes; ++j)
            same = c->axes[j] == k->axes[j];
        if (same)
            return 0;
    }
    return -1;
}

typedef struct casemem {
    clrs_tensor_desc *xd, *yd, *id;
    tu_buf x, y, dy, dx, dxref, dxinit, ix, yref;
    clrs_resample_desc *op;
    double *bound; /* the error model's, per diff_src element */
} casemem;

static void casemem_free(casemem *m)
{
    tu_buf_free(&m->x);
    tu_buf_free(&m->y);
    tu_buf_free(&m->dy);
    tu_buf_free(&m->dx);
    tu_buf_free(&m->dxref);
    tu_buf_free(&m->dxinit);
    tu_buf_free(&m->ix);
    tu_buf_free(&m->yref);
    clrs_tensor_desc_destroy(m->xd);
    clrs_tensor_desc_destroy(m->yd);
    clrs_tensor_desc_destroy(m->id);
    clrs_resample_desc_destroy(m->op);
    free(m->bound);
    memset(m, 0, sizeof *m);
}

/* The smallest window index dtype the reference accepts (the helper
 * cannot size a window overhanging a small input). */
static int index_dtype(casemem *m, int plane, clrs_dtype *idt)
{
    static const clrs_dtype cand[] = {CLRS_S8, CLRS_S32};
    int i;
    if (plane) {
        *idt = CLRS_S64;
        return 0;
    }
    if (clrs_resample_desc_index_dtype(m->op, m->xd, idt) == CLRS_SUCCESS)
        return 0;
    for (i = 0; i < 2; ++i) {
        clrs_tensor_desc *d = NULL;
        tu_buf b;
        clrs_host_args ha;
        clrs_status st;
        memset(&b, 0, sizeof b);
        if (clrs_tensor_desc_create(&d, cand[i], m->y.rank, m->y.dims,
                                    NULL) ||
            tu_buf_alloc(&b, d)) {
            clrs_tensor_desc_destroy(d);
            return -1;
        }
        memset(&ha, 0, sizeof ha);
        ha.src = m->x.data;
        ha.dst = m->yref.data;
        ha.index = b.data;
        st = clrs_reference_forward(m->op, m->xd, m->yd, d, &ha);
        tu_buf_free(&b);
        clrs_tensor_desc_destroy(d);
        if (st == CLRS_SUCCESS) {
            *idt = cand[i];
            return 0;
        }
    }
    return -1;
}

/* Corrupts about a quarter of the index values (out of range both ways)
 * and zeroes those outputs' gradients in dy_ref: what "sends nowhere"
 * means, for the reference, which rejects such a tensor. */
static void corrupt_index(tu_buf *ix, tu_buf *dy_ref, tu_rng *r, int plane,
                          int *count)
{
    int64_t idx[CLRS_MAX_RANK];
    *count = 0;
    if (tu_idx_first(ix->rank, ix->dims, idx))
        do {
            if (!tu_rng_chance(r, 0.25))
                continue;
            tu_set(ix, idx,
                   tu_rng_chance(r, 0.5) ? (plane ? -7.0 : -3.0)
                                         : (plane ? 1e12 : 120.0));
            tu_set(dy_ref, idx, 0);
            ++*count;
        } while (tu_idx_next(ix->rank, ix->dims, idx));
    tu_buf_snapshot(ix);
}

/* Coverage counters, printed at the end. */
static int cov_variant_coord[TU_NVARIANTS][CLRS_COORD_WINDOW + 1];
static int cov_pad[5], cov_rank[7], cov_mk[MK_COUNT], cov_acc, cov_f64;
static int cov_adjoint, cov_determinism, cov_nan, cov_generic, cov_vec;

static void run_case(uint64_t seed, int subset)
{
    bclass k;
    tu_op c;
    casemem m;
    tu_rng r, lr;
    clrs_coord coord;
    td_result res, fres;
    char desc[1536], head[224];
    int64_t bad = 0;
    int has_index = 0, plane = 0, recompute = 0, nbad = 0, nans = 0, ok;
    int adj_ok = 1, do_adj, a;
    double worst = 0, adj_err = 0;
    clrs_dtype idt = CLRS_S8;
    tu_buf dyref;

    memset(&m, 0, sizeof m);
    memset(&dyref, 0, sizeof dyref);
    make_class(&k, (int)(seed % NCLASS));
    coord = tu_coords[(subset ? seed : seed / NCLASS) % TU_NCOORDS];
    tu_rng_seed(&r, tu_mix_seed(seed, 0xB));
    tu_rng_seed(&lr, tu_mix_seed(UINT64_C(0x1A7B), (uint64_t)k.id));
    if (draw_op(&c, &k, &r, coord, subset ? SUBSET_ELEMS : MAX_ELEMS)) {
        tap_ok(0, "seed %" PRIu64 ": no op of class %d drawn", seed, k.id);
        return;
    }
    if (!subset)
        for (a = 0; a < c.rank; ++a) {
            int j, resampled = 0;
            for (j = 0; j < c.naxes; ++j)
                resampled |= c.axes[j] == a;
            if (!resampled)
                c.in[a] = c.out[a] = k.ident[a];
        }
    c.pad = k.pad; /* constant padding keeps value 0: linear, adjoint */
    if (k.wide >= 0) {
        int64_t rest = 1;
        for (a = 0; a < c.rank; ++a)
            if (a != k.wide)
                rest *= c.in[a] > c.out[a] ? c.in[a] : c.out[a];
        if (rest <= (subset ? 8 : 200))
            c.in[k.wide] = c.out[k.wide] =
                subset ? tu_rng_int(&r, 17, 20) : tu_rng_int(&r, 16, 40);
    }
    if (is_max(&k)) {
        has_index = k.maxkind != MK_RECOMPUTE &&
                    k.maxkind != MK_RECOMPUTE_IGNORE;
        plane = k.maxkind == MK_PLANE || k.maxkind == MK_BAD_PLANE;
        recompute = !has_index;
    }
    tu_op_describe(&c, desc, sizeof desc);
    snprintf(head, sizeof head,
             "seed %" PRIu64 "%s %s/%s %s rank %d dx %s dy %s%s%s%s%s", seed,
             subset ? " (subset)" : "", c.v->name, tu_coord_name(c.coord),
             clrs_dtype_name(k.dt), c.rank, tu_layout_name(k.dx_layout),
             tu_layout_name(k.dy_layout), is_max(&k) ? " " : "",
             is_max(&k) ? mk_names[k.maxkind] : "",
             k.accumulate ? " accumulate" : "",
             k.generic ? " CLRS_GENERIC" : "");
    tap_diag("seed %" PRIu64 " class %d config %s", seed, k.id, desc);

    m.op = tu_op_build(&c);
    if (m.op && is_max(&k) && plane &&
        clrs_resample_desc_set_index_format(m.op, CLRS_INDEX_PLANE))
        m.op = NULL;
    if (m.op && is_max(&k) &&
        (k.maxkind == MK_RECOMPUTE_IGNORE || k.maxkind == MK_WINDOW_IGNORE))
        clrs_resample_desc_set_nan_policy(m.op, CLRS_NAN_IGNORE);
    if (m.op && k.accumulate)
        clrs_resample_desc_set_accumulate(m.op, 1);
    if (!m.op || tu_make_desc(&m.xd, &lr, k.dt, c.rank, c.in, k.dx_layout) ||
        tu_make_desc(&m.yd, &lr, k.dt, c.rank, c.out, k.dy_layout) ||
        tu_buf_alloc(&m.x, m.xd) || tu_buf_alloc(&m.dx, m.xd) ||
        tu_buf_alloc(&m.dxref, m.xd) || tu_buf_alloc(&m.dxinit, m.xd) ||
        tu_buf_alloc(&m.y, m.yd) || tu_buf_alloc(&m.yref, m.yd) ||
        tu_buf_alloc(&m.dy, m.yd) || tu_buf_alloc(&dyref, m.yd) ||
        !(m.bound = td_bound_alloc(&m.dxref))) {
        tap_diag("setup: %s", clrs_last_error());
        tap_ok(0, "%s: setup", head);
        goto done;
    }
    /* x: ties (small integers) and NaNs/infinities for max; sixteenths
     * in [1, 3] for the rest. dy: sixteenths, so max sums are exact. */
    if (is_max(&k)) {
        int64_t idx[CLRS_MAX_RANK];
        tu_fill_ints(&m.x, &r, -3, 3);
        if (tu_rng_chance(&r, 0.6) && tu_idx_first(c.rank, c.in, idx))
            do {
                double u = tu_rng_unit(&r);
                if (u < 0.12) {
                    tu_set(&m.x, idx, NAN);
                    ++nans;
                } else if (u < 0.16) {
                    tu_set(&m.x, idx, u < 0.14 ? INFINITY : -INFINITY);
                }
            } while (tu_idx_next(c.rank, c.in, idx));
        tu_buf_snapshot(&m.x);
    } else {
        tu_fill_sixteenths(&m.x, &r, 16, 48);
    }
    tu_fill_sixteenths(&m.dy, &r, 16, 48);
    tu_copy(&dyref, &m.dy);
    if (k.accumulate) {
        tu_fill_sixteenths(&m.dxinit, &r, 8, 32); /* no cancellation */
        tu_copy(&m.dxref, &m.dxinit);
    }
    if (has_index) {
        clrs_host_args ha;
        if (index_dtype(&m, plane, &idt) ||
            tu_make_desc(&m.id, &lr, idt, c.rank, c.out, k.dy_layout) ||
            tu_buf_alloc(&m.ix, m.id)) {
            tap_ok(0, "%s: index setup (%s)", head, clrs_last_error());
            goto done;
        }
        memset(&ha, 0, sizeof ha);
        ha.src = m.x.data;
        ha.dst = m.yref.data;
        ha.index = m.ix.data;
        if (clrs_reference_forward(m.op, m.xd, m.yd, m.id, &ha)) {
            tap_ok(0, "%s: reference forward (%s)", head, clrs_last_error());
            goto done;
        }
        tu_buf_snapshot(&m.ix);
        if (k.maxkind == MK_BAD_WINDOW || k.maxkind == MK_BAD_PLANE)
            corrupt_index(&m.ix, &dyref, &r, plane, &nbad);
    }
    {
        clrs_host_args ha;
        clrs_status st;
        memset(&ha, 0, sizeof ha);
        ha.diff_dst = dyref.data;
        ha.diff_src = m.dxref.data;
        ha.index = has_index ? m.ix.data : NULL;
        ha.src = recompute ? m.x.data : NULL;
        if (nbad) { /* the reference reads the valid index */
            tu_buf good;
            memset(&good, 0, sizeof good);
            if (tu_buf_alloc(&good, m.id) == 0) {
                clrs_host_args fa;
                memset(&fa, 0, sizeof fa);
                fa.src = m.x.data;
                fa.dst = m.yref.data;
                fa.index = good.data;
                clrs_reference_forward(m.op, m.xd, m.yd, m.id, &fa);
                ha.index = good.data;
                st = clrs_reference_backward_bound(m.op, m.xd, m.yd, m.id,
                                                   NULL, &ha, m.bound);
            } else {
                st = CLRS_ERR_OUT_OF_MEMORY;
            }
            tu_buf_free(&good);
        } else {
            st = clrs_reference_backward_bound(m.op, m.xd, m.yd,
                                               has_index ? m.id : NULL,
                                               recompute ? m.xd : NULL, &ha,
                                               m.bound);
        }
        if (st != CLRS_SUCCESS) {
            tap_diag("reference: %s: %s", clrs_status_name(st),
                     clrs_last_error());
            tap_ok(0, "%s: reference runs", head);
            goto done;
        }
    }

    if (k.generic)
        td_generic(&env, 1);
    ok = td_backward(&env, m.op, &m.dy, &m.dx, has_index ? &m.ix : NULL,
                     recompute ? &m.x : NULL,
                     k.accumulate ? &m.dxinit : NULL, &m.dxref, &res);
    if (k.generic)
        td_generic(&env, 0);
    if (res.plan_status == CLRS_SUCCESS && res.exec_status == CLRS_SUCCESS &&
        !res.cl_error)
        bad += td_compare(&m.dx, &m.dxref, m.bound, "diff_src", &worst);
    tap_ok(ok && bad == 0,
           "%s: agrees with the reference%s, run twice: identical bits "
           "(largest difference %.2g bound)",
           head, nbad ? ", bad index values send nowhere" : "", worst);
    cov_determinism += ok;

    /* Adjoint on the device: dot(fwd(x), dy) against dot(x, bwd(dy)),
     * both passes on the device (no accumulation: dx from scratch). */
    do_adj = !is_max(&k) && !k.accumulate && !subset;
    if (do_adj) {
        double s1, s2, abs1, abs2, lim;
        adj_ok = td_forward(&env, m.op, &m.x, &m.y, NULL, NULL, NULL, &fres);
        if (adj_ok) {
            s1 = tu_dot(&m.y, &m.dy, &abs1);
            s2 = tu_dot(&m.x, &m.dx, &abs2);
            lim = (k.dt == CLRS_F64 ? ADJ_F64 : ADJ_F32) *
                  (abs1 > abs2 ? abs1 : abs2);
            adj_err = fabs(s1 - s2) / (abs1 > 0 ? abs1 : 1);
            adj_ok = fabs(s1 - s2) <= lim;
            if (!adj_ok)
                tap_diag("  dot(fwd(x), dy) = %.17g, dot(x, bwd(dy)) = "
                         "%.17g",
                         s1, s2);
        }
        tap_ok(adj_ok, "%s: adjoint on the device (rel err %.2g)", head,
               adj_err);
        cov_adjoint += adj_ok;
    }

    cov_variant_coord[k.variant][c.coord]++;
    cov_pad[c.pad]++;
    cov_rank[c.rank]++;
    if (is_max(&k))
        cov_mk[k.maxkind]++;
    cov_acc += k.accumulate;
    cov_f64 += k.dt == CLRS_F64;
    cov_nan += nans > 0;
    cov_generic += k.generic;
    cov_vec += k.wide >= 0;
done:
    tu_buf_free(&dyref);
    casemem_free(&m);
}

/* ---- worked cases with a gradient (clresample(3)) ----------------------- */

/* Row-major rank 1 or 2 values. */
static void put_all(tu_buf *b, const double *v)
{
    int64_t idx[CLRS_MAX_RANK];
    int k = 0;
    if (tu_idx_first(b->rank, b->dims, idx))
        do
            tu_set(b, idx, v[k++]);
        while (tu_idx_next(b->rank, b->dims, idx));
    tu_buf_snapshot(b);
}

/* Runs the backward of op on the device for dy (and index or src):
 * the reference's diff_src matches want as written (to rtol relative,
 * 0: exactly), the device's agrees with the reference's under the error
 * model; f32 and f64, dense and padded strides. */
static void worked(const char *name, clrs_resample_desc *op, int rank,
                   const int64_t *in, const int64_t *out, const double *dy,
                   const double *want, double rtol, const double *src,
                   const double *index, clrs_dtype idt)
{
    int padded, f;
    for (f = 0; f < 2; ++f)
        for (padded = 0; padded < 2; ++padded) {
            clrs_dtype dt = f ? CLRS_F64 : CLRS_F32;
            clrs_tensor_desc *xd = NULL, *yd = NULL, *id = NULL;
            tu_buf x, ybuf, dx, ib, rx;
            td_result res;
            tu_rng r;
            int64_t idx[CLRS_MAX_RANK];
            double *bound = NULL;
            clrs_host_args ha;
            int ok, bad = 0, k = 0;
            if (f && !env.info.has_fp64)
                continue;
            memset(&x, 0, sizeof x);
            memset(&ybuf, 0, sizeof ybuf);
            memset(&dx, 0, sizeof dx);
            memset(&ib, 0, sizeof ib);
            memset(&rx, 0, sizeof rx);
            tu_rng_seed(&r, tu_mix_seed(0xD1CE, (uint64_t)padded));
            if (!setup_ok || !op ||
                tu_make_desc(&xd, &r, dt, rank, in,
                             padded ? TU_PADDED : TU_DENSE) ||
                tu_make_desc(&yd, &r, dt, rank, out,
                             padded ? TU_PADDED : TU_DENSE) ||
                (index && tu_make_desc(&id, &r, idt, rank, out,
                                       padded ? TU_PADDED : TU_DENSE)) ||
                tu_buf_alloc(&x, xd) || tu_buf_alloc(&ybuf, yd) ||
                tu_buf_alloc(&dx, xd) || tu_buf_alloc(&rx, xd) ||
                (id && tu_buf_alloc(&ib, id)) ||
                !(bound = td_bound_alloc(&rx))) {
                tap_ok(0, "%s [%s %s]: setup", name, clrs_dtype_name(dt),
                       padded ? "padded" : "dense");
                goto next;
            }
            put_all(&ybuf, dy);
            if (src)
                put_all(&x, src);
            if (index)
                put_all(&ib, index);
            memset(&ha, 0, sizeof ha);
            ha.diff_dst = ybuf.data;
            ha.diff_src = rx.data;
            ha.index = index ? ib.data : NULL;
            ha.src = src ? x.data : NULL;
            if (clrs_reference_backward_bound(op, xd, yd, index ? id : NULL,
                                              src ? xd : NULL, &ha,
                                              bound) != CLRS_SUCCESS) {
                tap_ok(0, "%s [%s %s]: reference: %s", name,
                       clrs_dtype_name(dt), padded ? "padded" : "dense",
                       clrs_last_error());
                goto next;
            }
            ok = td_backward(&env, op, &ybuf, &dx, index ? &ib : NULL,
                             src ? &x : NULL, NULL, NULL, &res);
            tap_ok(ok, "%s [%s %s]: runs, writes every element and nothing "
                       "else, twice the same bits",
                   name, clrs_dtype_name(dt), padded ? "padded" : "dense");
            if (tu_idx_first(rank, in, idx))
                do {
                    double g = tu_get(&rx, idx), w = want[k++];
                    int good = rtol == 0 ? g == w
                                         : fabs(g - w) <= rtol * fabs(w);
                    if (!good) {
                        tap_diag("  reference dx[%d] = %.17g, want %.17g",
                                 k - 1, g, w);
                        ++bad;
                    }
                } while (tu_idx_next(rank, in, idx));
            if (ok)
                bad += (int)td_compare(&dx, &rx, bound, "diff_src", NULL);
            tap_ok(ok && bad == 0, "%s [%s %s]: gradient values", name,
                   clrs_dtype_name(dt), padded ? "padded" : "dense");
        next:
            free(bound);
            tu_buf_free(&x);
            tu_buf_free(&ybuf);
            tu_buf_free(&dx);
            tu_buf_free(&ib);
            tu_buf_free(&rx);
            clrs_tensor_desc_destroy(xd);
            clrs_tensor_desc_destroy(yd);
            clrs_tensor_desc_destroy(id);
        }
    clrs_resample_desc_destroy(op);
    setup_ok = 1;
}

static clrs_resample_desc *mkop(clrs_mode mode)
{
    clrs_resample_desc *op = NULL;
    SET(clrs_resample_desc_create(&op, mode));
    return op;
}

static void worked_cases(void)
{
    /* 1. DML nearest floor, offsets 0.5 / -0.5, scales H 0.5, W 1.5. */
    {
        static const double dy[] = {4, 5, 6}, want[] = {9, 6, 0, 0};
        const float io[] = {0.5f, 0.5f}, oo[] = {-0.5f, -0.5f};
        const double sc[] = {0.5, 1.5};
        const int64_t in[] = {2, 2}, out[] = {1, 3};
        clrs_resample_desc *op = mkop(CLRS_MODE_NEAREST);
        SET(clrs_resample_desc_set_rounding(op, CLRS_ROUND_FLOOR));
        SET(clrs_resample_desc_set_pixel_offsets(op, 2, io, oo));
        SET(clrs_resample_desc_set_scales(op, 2, sc));
        worked("1: DML nearest floor, dy [[4,5,6]] -> [[9,6],[0,0]]", op, 2,
               in, out, dy, want, 0, NULL, NULL, CLRS_S8);
    }
    /* 4. Linear half_pixel 2 -> 4. */
    {
        static const double dy[] = {1, 2, 3, 4}, want[] = {3.25, 6.75};
        const int64_t in[] = {2}, out[] = {4};
        clrs_resample_desc *op = mkop(CLRS_MODE_LINEAR);
        SET(clrs_resample_desc_set_coord(op, CLRS_COORD_HALF_PIXEL));
        worked("4: linear half_pixel dy [1,2,3,4] -> [3.25,6.75]", op, 1, in,
               out, dy, want, 0, NULL, NULL, CLRS_S8);
    }
    /* 11. Average pooling window 2 stride 1 pad 1, dy = 1. */
    {
        static const double dy[] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
        static const double inc[] = {1, 1, 1, 1}, exc[] = {2.25, 2.25, 2.25,
                                                           2.25};
        const int64_t in[] = {2, 2}, out[] = {3, 3}, w[] = {2, 2},
                      s[] = {1, 1}, p[] = {1, 1};
        int e;
        for (e = 0; e < 2; ++e) {
            clrs_resample_desc *op = mkop(e ? CLRS_MODE_AVG_EXCLUDE_PADDING
                                            : CLRS_MODE_AVG_INCLUDE_PADDING);
            SET(clrs_resample_desc_set_window(op, 2, w));
            SET(clrs_resample_desc_set_stride(op, 2, s));
            SET(clrs_resample_desc_set_padding_sizes(op, 2, p, p));
            worked(e ? "11: avg exclude backward of dy = 1 -> all 2.25"
                     : "11: avg include backward of dy = 1 -> all 1",
                   op, 2, in, out, dy, e ? exc : inc, 0, NULL, NULL,
                   CLRS_S8);
        }
    }
    /* 13. Max pool tie: dy 7 at (1,1) goes to dx[2][3], from the window
     * index, the plane index and recomputed from src. */
    {
        static const double src[] = {0, 1, 2, 0, 1, 0, 0, 0,
                                     4, 5, 1, 3, 6, 1, 3, 2};
        static const double dy[] = {0, 0, 0, 7};
        static const double win[] = {1, 0, 2, 1}, pl[] = {1, 2, 12, 11};
        static const double want[] = {0, 0, 0, 0, 0, 0, 0, 0,
                                      0, 0, 0, 7, 0, 0, 0, 0};
        const int64_t in[] = {4, 4}, out[] = {2, 2}, w[] = {2, 2},
                      s[] = {2, 2};
        int f;
        for (f = 0; f < 3; ++f) {
            clrs_resample_desc *op = mkop(CLRS_MODE_MAX);
            SET(clrs_resample_desc_set_window(op, 2, w));
            SET(clrs_resample_desc_set_stride(op, 2, s));
            if (f == 1)
                SET(clrs_resample_desc_set_index_format(op,
                                                        CLRS_INDEX_PLANE));
            worked(f == 0   ? "13: max tie, window index 1 -> dx[2][3] = 7"
                   : f == 1 ? "13: max tie, plane index 11 -> dx[2][3] = 7"
                            : "13: max tie, recomputed -> dx[2][3] = 7",
                   op, 2, in, out, dy, want, 0, f == 2 ? src : NULL,
                   f == 0 ? win : f == 1 ? pl : NULL,
                   f == 1 ? CLRS_S64 : CLRS_S8);
        }
    }
}

static void print_coverage(void)
{
    int v, co;
    char line[512];
    for (v = 0; v < TU_NVARIANTS; ++v) {
        size_t len = 0;
        for (co = 1; co <= CLRS_COORD_WINDOW; ++co)
            len += (size_t)snprintf(line + len, sizeof line - len, " %s=%d",
                                    tu_coord_name((clrs_coord)co),
                                    cov_variant_coord[v][co]);
        tap_diag("coverage %s:%s", tu_variants[v].name, line);
    }
    tap_diag("coverage padding default=%d edge=%d zero=%d constant=%d "
             "neg_inf=%d; ranks 1..5: %d %d %d %d %d",
             cov_pad[0], cov_pad[1], cov_pad[2], cov_pad[3], cov_pad[4],
             cov_rank[1], cov_rank[2], cov_rank[3], cov_rank[4], cov_rank[5]);
    line[0] = '\0';
    for (v = 0, co = 0; v < MK_COUNT; ++v)
        co += snprintf(line + co, sizeof line - (size_t)co, " [%s]=%d",
                       mk_names[v], cov_mk[v]);
    tap_diag("coverage max:%s", line);
    tap_diag("coverage accumulate %d, f64 %d, NaN inputs %d, generic path "
             "%d, vector path classes %d, adjoint checks passed %d",
             cov_acc, cov_f64, cov_nan, cov_generic, cov_vec, cov_adjoint);
    tap_diag("determinism: %d configurations ran twice with identical bits",
             cov_determinism);
}

int main(int argc, char **argv)
{
    uint64_t seed, base = 1, n;
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
        run_case(seed, subset);
        td_close(&env);
        return tap_done();
    }
    if (subset) {
        base = 0;
        n = 2 * NCLASS; /* every class twice, other sizes and coords */
    } else {
        worked_cases();
        tu_env_seed("CLRS_TEST_SEED_BASE", &base);
        /* The quick tier: every class twice. */
        n = tap_quick() ? 2 * NCLASS : NCASES;
    }
    tap_diag("seeds %" PRIu64 "..%" PRIu64 " (rerun one: CLRS_TEST_SEED=S%s)",
             base, base + n - 1, subset ? " with --oclgrind-subset" : "");
    for (seed = base; seed < base + n; ++seed)
        run_case(seed, subset);
    print_coverage();
    td_close(&env);
    return tap_done();
}
