/* Seeded random conformance of the device forward pass against the CPU
 * reference (clrs_reference_forward): every mode, coordinate option,
 * padding mode, rank 1-5, resampled-axis subset and layout class, the
 * fast and the generic (CLRS_GENERIC) kernel paths, each case run twice
 * into poisoned, fenced buffers; then three outputs over 8 MB.
 *   CLRS_TEST_SEED=S        reruns case S alone
 *   CLRS_TEST_SEED_BASE=B   runs seeds B .. B+NCASES-1
 *   CLRS_TEST_TIER=quick    every class twice and one large output
 *   --oclgrind-subset (or CLRS_TEST_OCLGRIND_SUBSET=1): 104 cases at tiny
 *   sizes, every mode in every layout class, for test_oclgrind.sh; with
 *   CLRS_TEST_SEED=S it reruns subset case S. */
#include "devutil.h"
#include "tap.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NCASES 1000
/* Kernel configurations are what cost time on PoCL (a build each, and a
 * work-group compile at the first enqueue), so the fields that select a
 * kernel (variant, rank, resampled axes, padding, layouts and their axis
 * order, dtype, index output) come from one of NCLASS classes, case S
 * having class S % NCLASS; sizes, coordinates and values vary per case. */
#define NROWS 4
#define NCLASS (TU_NLINEAR * NROWS + MK_COUNT)
#define MAX_ELEMS 400
#define SUBSET_ELEMS 48

static td_env env;

/* Max pooling flavours: index output and NaN policy. */
enum {
    MK_WINDOW,
    MK_PLANE,
    MK_INFERENCE,
    MK_WINDOW_IGNORE,
    MK_PLANE_IGNORE,
    MK_BIG_WINDOW, /* window volume > 127: s32 window index */
    MK_NO_INDEX_IGNORE,
    MK_BIG_PLANE_IGNORE,
    MK_COUNT
};
static const char *const mk_names[MK_COUNT] = {
    "index=window",          "index=plane",  "inference",
    "index=window nan=ignore", "index=plane nan=ignore",
    "index=window(s32)",     "no-index nan=ignore",
    "index=plane(big) nan=ignore"};

typedef struct dclass {
    int id;
    int variant; /* tu_variants row */
    int rank, naxes, axes[CLRS_MAX_RANK];
    clrs_padding pad;
    tu_layout src_layout, dst_layout;
    clrs_dtype dt;
    int maxkind; /* MK_*, max pooling only */
    int wide;    /* innermost non-resampled axis made long, or -1 */
    int generic; /* plan with CLRS_GENERIC=1: the library's generic path */
    int64_t ident[CLRS_MAX_RANK]; /* sizes of the axes not resampled */
} dclass;

static int is_max(const dclass *k)
{
    return tu_variants[k->variant].mode == CLRS_MODE_MAX;
}

static int exact_mode(clrs_mode m)
{
    return m == CLRS_MODE_NEAREST || m == CLRS_MODE_MAX;
}

/* The innermost axis of a dense or channels-last tensor. */
static int innermost(tu_layout l, int rank)
{
    return l == TU_CHANNELS_LAST && rank >= 3 ? 1 : rank - 1;
}

static void random_axes(dclass *k, tu_rng *r, int avoid)
{
    int a;
    do {
        k->naxes = 0;
        for (a = 0; a < k->rank; ++a)
            if (a != avoid && tu_rng_chance(r, 0.6))
                k->axes[k->naxes++] = a;
    } while (k->naxes == 0);
}

static void class_dtype(dclass *k, int f64)
{
    k->dt = f64 && env.info.has_fp64 ? CLRS_F64 : CLRS_F32;
}

/* Axes that are not resampled keep one size per class: every distinct
 * global work size costs a work-group compile on PoCL at first enqueue. */
static void class_ident(dclass *k, tu_rng *r)
{
    int a;
    for (a = 0; a < CLRS_MAX_RANK; ++a)
        k->ident[a] = tu_rng_int(r, 1, 3);
}

/* Class id of the main run: TU_NLINEAR * NROWS classes of the weighted
 * sum variants (variant id % TU_NLINEAR, row id / TU_NLINEAR), then one
 * class per max pooling flavour. Deterministic spreads make every variant
 * meet every padding mode and layout, and four of the five ranks. */
static void make_class(dclass *k, int id)
{
    static const clrs_padding pads[] = {CLRS_PAD_DEFAULT, CLRS_PAD_EDGE,
                                        CLRS_PAD_ZERO, CLRS_PAD_CONSTANT,
                                        CLRS_PAD_NEG_INF};
    static const tu_layout lays[] = {TU_DENSE, TU_CHANNELS_LAST, TU_PERMUTED,
                                     TU_PADDED};
    int row;
    tu_rng r;

    memset(k, 0, sizeof *k);
    tu_rng_seed(&r, tu_mix_seed(UINT64_C(0xC1A55), (uint64_t)id));
    k->id = id;
    k->wide = -1;
    if (id < TU_NLINEAR * NROWS) {
        row = id / TU_NLINEAR;
        k->variant = id % TU_NLINEAR;
        k->rank = 1 + (row + k->variant) % 5;
        k->pad = pads[(row + k->variant) % 4];
        k->dst_layout = lays[(row * 3 + k->variant) % 4];
        class_dtype(k, row == 3);
    } else {
        row = id - TU_NLINEAR * NROWS;
        k->variant = TU_NVARIANTS - 1;
        k->maxkind = row % MK_COUNT;
        k->rank = 1 + row % 5;
        k->pad = pads[(row + 1) % 5];
        k->dst_layout = lays[row % 4];
        class_dtype(k, row == 3 || row == 6);
    }
    k->src_layout = tu_rng_chance(&r, 0.7)   ? k->dst_layout
                    : tu_rng_chance(&r, 0.3) ? TU_BROADCAST
                                             : lays[tu_rng_int(&r, 0, 3)];
    class_ident(k, &r);
    if (is_max(k) && (k->maxkind == MK_BIG_WINDOW ||
                      k->maxkind == MK_BIG_PLANE_IGNORE)) {
        k->rank = 2 + row % 2;
        k->naxes = 2;
        k->axes[0] = k->rank - 2;
        k->axes[1] = k->rank - 1;
        return;
    }
    /* Rows 1 and 2 make a long contiguous axis that is not resampled,
     * where kernels may vectorise (with a partial last vector). */
    if ((row == 1 || row == 2) && k->rank >= 2 &&
        (k->dst_layout == TU_DENSE || k->dst_layout == TU_CHANNELS_LAST)) {
        k->wide = innermost(k->dst_layout, k->rank);
        k->src_layout = k->dst_layout;
    }
    /* Half the other classes take the generic path: it is checked too,
     * and it compiles one kernel where the fast path compiles one per
     * tap count. */
    k->generic = k->wide < 0 && id % 2 == 1;
    random_axes(k, &r, k->wide);
}

/* Subset class j: variant j % 12 in each of three layout classes
 * (channels-first, channels-last, permuted with gaps), then the other max
 * flavours, one f64 case, and long contiguous axes (vector loads and
 * stores with partial last vectors). The subset runs every class twice
 * with different sizes and coordinate options. */
#define NSUBCLASS 52
#define NSUBSET (2 * NSUBCLASS)
static void make_subset_class(dclass *k, int j)
{
    static const tu_layout lays[] = {TU_DENSE, TU_CHANNELS_LAST, TU_PADDED};
    static const clrs_padding pads[] = {CLRS_PAD_DEFAULT, CLRS_PAD_ZERO,
                                        CLRS_PAD_CONSTANT};
    static const int wide_variants[] = {0, 4, 5, 9, 10, 11, 7, 11};
    tu_rng r;
    memset(k, 0, sizeof *k);
    tu_rng_seed(&r, tu_mix_seed(UINT64_C(0x5AB5E7), (uint64_t)j));
    k->id = j;
    k->wide = -1;
    if (j < 36) {
        k->variant = j % TU_NVARIANTS;
        k->dst_layout = lays[j / TU_NVARIANTS];
        k->pad = pads[j / TU_NVARIANTS];
        k->generic = (j / TU_NVARIANTS + j) % 2;
    } else if (j < 44) {
        k->variant = j < 43 ? TU_NVARIANTS - 1 : 4 /* linear */;
        k->maxkind = j < 43 ? j - 35 : 0;
        k->dst_layout = lays[j % 3];
        k->pad = j % 2 && j < 43 ? CLRS_PAD_NEG_INF : CLRS_PAD_DEFAULT;
        k->generic = j % 2;
    } else {
        k->variant = wide_variants[j - 44];
        k->maxkind = j == 51 ? MK_PLANE : MK_WINDOW;
        k->dst_layout = j % 2 ? TU_CHANNELS_LAST : TU_DENSE;
        k->pad = pads[j % 3];
    }
    k->src_layout = k->dst_layout;
    class_dtype(k, j == 43 || j == 46);
    k->rank = k->dst_layout == TU_CHANNELS_LAST ? (int)tu_rng_int(&r, 3, 4)
              : j >= 44                         ? (int)tu_rng_int(&r, 2, 4)
                                                : (int)tu_rng_int(&r, 1, 4);
    class_ident(k, &r);
    if (is_max(k) && (k->maxkind == MK_BIG_WINDOW ||
                      k->maxkind == MK_BIG_PLANE_IGNORE)) {
        k->rank = 2;
        k->naxes = 2;
        k->axes[0] = 0;
        k->axes[1] = 1;
        return;
    }
    if (j >= 44)
        k->wide = innermost(k->dst_layout, k->rank);
    random_axes(k, &r, k->wide);
}

/* ---- one case --------------------------------------------------------- */

/* Two pooled axes with windows 12 x 11 (volume 132 > 127). */
static void big_max_op(tu_op *c, const dclass *k, tu_rng *r)
{
    int a, j;
    memset(c, 0, sizeof *c);
    c->v = &tu_variants[k->variant];
    c->coord = CLRS_COORD_WINDOW;
    c->has_window = c->has_stride = 1;
    c->int_api = tu_rng_chance(r, 0.5);
    c->coord_explicit = tu_rng_chance(r, 0.5);
    c->rank = k->rank;
    c->set_axes = 1;
    c->naxes = k->naxes;
    for (a = 0; a < c->rank; ++a)
        c->in[a] = c->out[a] = tu_rng_int(r, 1, 2);
    for (j = 0; j < c->naxes; ++j) {
        int ax = k->axes[j];
        int64_t w = 12 - j, s = tu_rng_int(r, 1, 2);
        int64_t pre = tu_rng_int(r, 0, 1), post = tu_rng_int(r, 0, 1);
        int64_t span;
        c->axes[j] = ax;
        /* Inputs smaller than the window, padding taps inside it. */
        c->in[ax] = w - pre - post + tu_rng_int(r, 0, 2);
        span = c->in[ax] + pre + post - w;
        c->out[ax] = span < 0 ? 1 : span / s + 1;
        c->window[j].num = w;
        c->stride[j].num = s;
        c->pre[j].num = pre;
        c->post[j].num = post;
        c->window[j].den = c->stride[j].den = c->pre[j].den =
            c->post[j].den = 1;
    }
}

/* Draws ops from the shared generator until one has the class's rank and
 * resampled axes (cheap: microseconds a draw). */
static int draw_op(tu_op *c, const dclass *k, tu_rng *r, clrs_coord coord,
                   int64_t max_elems)
{
    long tries;
    if (is_max(k) && (k->maxkind == MK_BIG_WINDOW ||
                      k->maxkind == MK_BIG_PLANE_IGNORE)) {
        big_max_op(c, k, r);
        return 0;
    }
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

/* Nonzero values in the range the mode's tolerance assumes. */
static double pad_like(tu_rng *r, int exact)
{
    return exact ? (double)tu_rng_int(r, -400, 400) / 4.0 + 0.125
                 : (double)tu_rng_int(r, 16, 48) / 16.0;
}

static void fill_src(tu_buf *x, tu_rng *r, const dclass *k, int *nans)
{
    clrs_mode m = tu_variants[k->variant].mode;
    int64_t idx[CLRS_MAX_RANK];
    *nans = 0;
    if (!exact_mode(m)) {
        /* [1, 3] in sixteenths: no cancellation, so the relative
         * tolerance applies to every output. */
        tu_fill_sixteenths(x, r, 16, 48);
        return;
    }
    tu_fill_uniform(x, r, -100, 100);
    if (m != CLRS_MODE_MAX || !tu_rng_chance(r, 0.5))
        return;
    if (tu_idx_first(x->rank, x->dims, idx))
        do {
            double u = tu_rng_unit(r);
            if (u < 0.15) {
                tu_set(x, idx, NAN);
                ++*nans;
            } else if (u < 0.18) {
                tu_set(x, idx, INFINITY);
            } else if (u < 0.21) {
                tu_set(x, idx, -INFINITY);
            }
        } while (tu_idx_next(x->rank, x->dims, idx));
    tu_buf_snapshot(x);
}

/* Everything a case allocates, freed in one place. */
typedef struct casemem {
    clrs_tensor_desc *sd, *dd, *id;
    tu_buf x, y, yref, ix, iref;
    clrs_resample_desc *op;
    double *bound; /* the error model's, per dst element */
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
    free(m->bound);
    memset(m, 0, sizeof *m);
}

/* The window index dtype (s8 or s32 by window volume) or s64. The helper
 * resolves the default pooled output size, which is not positive when a
 * window overhangs a small input although the caller may still choose
 * dst dims; then the reference, which validates the index dtype against
 * the real problem, decides between s8 and s32. */
static int index_dtype(casemem *m, const tu_op *c, clrs_dtype *idt)
{
    static const clrs_dtype cand[] = {CLRS_S8, CLRS_S32};
    clrs_status st = clrs_resample_desc_index_dtype(m->op, m->sd, idt);
    int i;
    if (st == CLRS_SUCCESS)
        return 0;
    tap_diag("  clrs_resample_desc_index_dtype: %s: %s (probing the "
             "reference instead)",
             clrs_status_name(st), clrs_last_error());
    for (i = 0; i < 2; ++i) {
        clrs_tensor_desc *d = NULL;
        tu_buf b;
        clrs_host_args ha;
        memset(&b, 0, sizeof b);
        if (clrs_tensor_desc_create(&d, cand[i], c->rank, c->out, NULL) ||
            tu_buf_alloc(&b, d)) {
            clrs_tensor_desc_destroy(d);
            return -1;
        }
        memset(&ha, 0, sizeof ha);
        ha.src = m->x.data;
        ha.dst = m->yref.data;
        ha.index = b.data;
        st = clrs_reference_forward(m->op, m->sd, m->dd, d, &ha);
        tu_buf_free(&b);
        clrs_tensor_desc_destroy(d);
        if (st == CLRS_SUCCESS) {
            *idt = cand[i];
            return 0;
        }
    }
    return -1;
}

static int set_max_options(clrs_resample_desc *op, int kind, int *index)
{
    clrs_status st = CLRS_SUCCESS;
    int plane = kind == MK_PLANE || kind == MK_PLANE_IGNORE ||
                kind == MK_BIG_PLANE_IGNORE;
    int ignore = kind == MK_WINDOW_IGNORE || kind == MK_PLANE_IGNORE ||
                 kind == MK_NO_INDEX_IGNORE || kind == MK_BIG_PLANE_IGNORE;
    *index = kind != MK_INFERENCE && kind != MK_NO_INDEX_IGNORE;
    if (plane)
        st = clrs_resample_desc_set_index_format(op, CLRS_INDEX_PLANE);
    if (st == CLRS_SUCCESS && ignore)
        st = clrs_resample_desc_set_nan_policy(op, CLRS_NAN_IGNORE);
    if (st == CLRS_SUCCESS && kind == MK_INFERENCE)
        st = clrs_resample_desc_set_inference(op, 1);
    if (st != CLRS_SUCCESS)
        tap_diag("max options: %s: %s", clrs_status_name(st),
                 clrs_last_error());
    return st == CLRS_SUCCESS ? 0 : -1;
}

/* Per-run coverage counters, printed at the end. */
static int cov_variant_coord[TU_NVARIANTS][CLRS_COORD_WINDOW + 1];
static int cov_pad[5], cov_rank[6], cov_layout[TU_LAYOUT_COUNT_];
static int cov_mk[MK_COUNT], cov_f64, cov_nan, cov_one_in, cov_one_out;
static int cov_n_or_c;

static void run_case(uint64_t seed, int subset)
{
    dclass k;
    tu_op c;
    casemem m;
    tu_rng r, lr;
    clrs_mode mode;
    clrs_coord coord;
    td_result res;
    char desc[1536], sdesc[256], ddesc[256], head[192];
    int64_t bad = 0;
    int want_index = 0, nans = 0, j, ok;
    double worst = 0;
    clrs_dtype idt = CLRS_S8;

    memset(&m, 0, sizeof m);
    if (subset)
        make_subset_class(&k, (int)(seed % NSUBCLASS));
    else
        make_class(&k, (int)(seed % NCLASS));
    mode = tu_variants[k.variant].mode;
    /* Subset: coordinates cycle with the case; main run: each class meets
     * every coordinate option over its NCASES / NCLASS cases. */
    coord = tu_coords[(subset ? seed : seed / NCLASS) % TU_NCOORDS];
    tu_rng_seed(&r, tu_mix_seed(seed, 0));
    /* Axis orders and gaps of permuted/padded layouts are the class's, so
     * its cases share kernels (merged axis order is part of the key). */
    tu_rng_seed(&lr, tu_mix_seed(UINT64_C(0x1A7) + (uint64_t)subset,
                                 (uint64_t)k.id));

    if (draw_op(&c, &k, &r, coord, subset ? SUBSET_ELEMS : MAX_ELEMS)) {
        tap_ok(0, "seed %" PRIu64 ": no op of class %d drawn", seed, k.id);
        return;
    }
    if (!subset) {
        int a, j2, resampled;
        for (a = 0; a < c.rank; ++a) {
            for (resampled = 0, j2 = 0; j2 < c.naxes; ++j2)
                resampled |= c.axes[j2] == a;
            if (!resampled)
                c.in[a] = c.out[a] = k.ident[a];
        }
    }
    c.pad = k.pad;
    if (c.pad == CLRS_PAD_CONSTANT)
        c.pad_value = pad_like(&r, exact_mode(mode));
    if (c.has_roi)
        c.extrapolation = pad_like(&r, exact_mode(mode));
    if (k.wide >= 0) {
        int64_t rest = 1;
        int a;
        for (a = 0; a < c.rank; ++a)
            if (a != k.wide)
                rest *= c.in[a] > c.out[a] ? c.in[a] : c.out[a];
        if (rest <= 200)
            c.in[k.wide] = c.out[k.wide] = tu_rng_int(&r, 16, 40);
    }
    tu_op_describe(&c, desc, sizeof desc);
    snprintf(head, sizeof head,
             "seed %" PRIu64 "%s %s/%s %s rank %d %s->%s%s%s%s", seed,
             subset ? " (subset)" : "", c.v->name, tu_coord_name(c.coord),
             clrs_dtype_name(k.dt), c.rank, tu_layout_name(k.src_layout),
             tu_layout_name(k.dst_layout), is_max(&k) ? " " : "",
             is_max(&k) ? mk_names[k.maxkind] : "",
             k.generic ? " CLRS_GENERIC" : "");
    tap_diag("seed %" PRIu64 " class %d config %s dtype=%s layouts=%s->%s%s%s",
             seed, k.id, desc, clrs_dtype_name(k.dt),
             tu_layout_name(k.src_layout), tu_layout_name(k.dst_layout),
             is_max(&k) ? " " : "", is_max(&k) ? mk_names[k.maxkind] : "");

    m.op = tu_op_build(&c);
    if (m.op && is_max(&k) && set_max_options(m.op, k.maxkind, &want_index)) {
        clrs_resample_desc_destroy(m.op);
        m.op = NULL;
    }
    if (!m.op ||
        tu_make_desc(&m.sd, &lr, k.dt, c.rank, c.in, k.src_layout) ||
        tu_make_desc(&m.dd, &lr, k.dt, c.rank, c.out, k.dst_layout) ||
        tu_buf_alloc(&m.x, m.sd) || tu_buf_alloc(&m.y, m.dd) ||
        tu_buf_alloc(&m.yref, m.dd)) {
        tap_diag("setup: %s", clrs_last_error());
        tap_ok(0, "%s: setup", head);
        casemem_free(&m);
        return;
    }
    if (want_index) {
        if (index_dtype(&m, &c, &idt) ||
            tu_make_desc(&m.id, &lr, idt, c.rank, c.out, k.dst_layout) ||
            tu_buf_alloc(&m.ix, m.id) || tu_buf_alloc(&m.iref, m.id)) {
            tap_diag("index setup: %s", clrs_last_error());
            tap_ok(0, "%s: setup", head);
            casemem_free(&m);
            return;
        }
    }
    tu_desc_str(m.sd, sdesc, sizeof sdesc);
    tu_desc_str(m.dd, ddesc, sizeof ddesc);
    tap_diag("  src %s dst %s%s%s", sdesc, ddesc, want_index ? " index " : "",
             want_index ? clrs_dtype_name(idt) : "");
    fill_src(&m.x, &r, &k, &nans);

    {
        clrs_host_args ha;
        clrs_status st;
        memset(&ha, 0, sizeof ha);
        ha.src = m.x.data;
        ha.dst = m.yref.data;
        ha.index = want_index ? m.iref.data : NULL;
        m.bound = td_bound_alloc(&m.yref);
        st = m.bound ? clrs_reference_forward_bound(m.op, m.sd, m.dd,
                                                    want_index ? m.id : NULL,
                                                    &ha, m.bound)
                     : CLRS_ERR_OUT_OF_MEMORY;
        if (st != CLRS_SUCCESS) {
            tap_diag("reference: %s: %s", clrs_status_name(st),
                     clrs_last_error());
            tap_ok(0, "%s: reference runs", head);
            casemem_free(&m);
            return;
        }
    }

    if (k.generic)
        td_generic(&env, 1);
    ok = td_forward(&env, m.op, &m.x, &m.y, want_index ? &m.ix : NULL,
                    &m.yref, want_index ? &m.iref : NULL, &res);
    if (k.generic)
        td_generic(&env, 0);
    if (res.plan_status == CLRS_SUCCESS && res.exec_status == CLRS_SUCCESS &&
        !res.cl_error) {
        bad += td_compare(&m.y, &m.yref, m.bound, "dst", &worst);
        if (want_index)
            bad += td_compare(&m.ix, &m.iref, NULL, "index", NULL);
    }
    tap_ok(ok && bad == 0,
           "%s: agrees with the reference%s (largest difference %.2g bound)", head,
           want_index ? ", index exactly" : "", worst);

    /* coverage */
    cov_variant_coord[k.variant][c.coord]++;
    cov_pad[c.pad]++;
    cov_rank[c.rank]++;
    cov_layout[k.src_layout]++;
    if (k.dst_layout != k.src_layout)
        cov_layout[k.dst_layout]++;
    if (is_max(&k))
        cov_mk[k.maxkind]++;
    cov_f64 += k.dt == CLRS_F64;
    cov_nan += nans > 0;
    for (j = 0; j < c.naxes; ++j) {
        cov_one_in += c.in[c.axes[j]] == 1;
        cov_one_out += c.out[c.axes[j]] == 1;
        cov_n_or_c += c.rank >= 3 && c.axes[j] < 2;
    }
    casemem_free(&m);
}

/* ---- large outputs ------------------------------------------------------
 * Kernels may switch to non-temporal stores above a size (8 MB of dst in
 * this version); random cases are far smaller, so three fixed problems
 * with dst over 8 MB run as well: vectorised channels-last, scalar
 * channels-first, and f64. */
typedef struct lcase {
    const char *name;
    clrs_mode mode;
    clrs_coord coord;
    clrs_dtype dt;
    tu_layout layout;
    int64_t in[4], out[4];
} lcase;

static void run_large(int j)
{
    static const lcase L[] = {
        {"linear half_pixel nhwc C=32 128x128 -> 256x256", CLRS_MODE_LINEAR,
         CLRS_COORD_HALF_PIXEL, CLRS_F32, TU_CHANNELS_LAST, {1, 32, 128, 128},
         {1, 32, 256, 256}},
        {"nearest asymmetric nchw C=8 256x128 -> 512x512", CLRS_MODE_NEAREST,
         CLRS_COORD_ASYMMETRIC, CLRS_F32, TU_DENSE, {1, 8, 256, 128},
         {1, 8, 512, 512}},
        {"cubic half_pixel nhwc C=8 181x181 -> 363x363", CLRS_MODE_CUBIC,
         CLRS_COORD_HALF_PIXEL, CLRS_F64, TU_CHANNELS_LAST, {1, 8, 181, 181},
         {1, 8, 363, 363}}};
    const lcase *l = &L[j];
    clrs_dtype dt = l->dt == CLRS_F64 && !env.info.has_fp64 ? CLRS_F32 : l->dt;
    casemem m;
    tu_rng r;
    td_result res;
    clrs_host_args ha;
    double worst = 0;
    int64_t bad = 0;
    int ok;

    memset(&m, 0, sizeof m);
    tu_rng_seed(&r, tu_mix_seed(UINT64_C(0x1A26E), (uint64_t)j));
    tap_diag("large %d: %s %s", j, l->name, clrs_dtype_name(dt));
    if (clrs_resample_desc_create(&m.op, l->mode) ||
        clrs_resample_desc_set_coord(m.op, l->coord) ||
        tu_make_desc(&m.sd, &r, dt, 4, l->in, l->layout) ||
        tu_make_desc(&m.dd, &r, dt, 4, l->out, l->layout) ||
        tu_buf_alloc(&m.x, m.sd) || tu_buf_alloc(&m.y, m.dd) ||
        tu_buf_alloc(&m.yref, m.dd)) {
        tap_ok(0, "large %d %s: setup (%s)", j, l->name, clrs_last_error());
        casemem_free(&m);
        return;
    }
    if (exact_mode(l->mode))
        tu_fill_uniform(&m.x, &r, -100, 100);
    else
        tu_fill_sixteenths(&m.x, &r, 16, 48);
    memset(&ha, 0, sizeof ha);
    ha.src = m.x.data;
    ha.dst = m.yref.data;
    m.bound = td_bound_alloc(&m.yref);
    if (!m.bound ||
        clrs_reference_forward_bound(m.op, m.sd, m.dd, NULL, &ha, m.bound)) {
        tap_ok(0, "large %d %s: reference (%s)", j, l->name,
               clrs_last_error());
        casemem_free(&m);
        return;
    }
    ok = td_forward(&env, m.op, &m.x, &m.y, NULL, &m.yref, NULL, &res);
    if (res.plan_status == CLRS_SUCCESS && res.exec_status == CLRS_SUCCESS &&
        !res.cl_error)
        bad = td_compare(&m.y, &m.yref, m.bound, "dst", &worst);
    tap_ok(ok && bad == 0,
           "large %d %s %s: agrees with the reference (largest difference %.2g "
           "bound)",
           j, l->name, clrs_dtype_name(dt), worst);
    casemem_free(&m);
}

static void print_coverage(void)
{
    int v, co, n;
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
    for (n = 0, v = 0; v < TU_LAYOUT_COUNT_; ++v)
        n += snprintf(line + n, sizeof line - (size_t)n, " %s=%d",
                      tu_layout_name((tu_layout)v), cov_layout[v]);
    tap_diag("coverage layouts:%s", line);
    line[0] = '\0';
    for (n = 0, v = 0; v < MK_COUNT; ++v)
        n += snprintf(line + n, sizeof line - (size_t)n, " [%s]=%d",
                      mk_names[v], cov_mk[v]);
    tap_diag("coverage max:%s", line);
    tap_diag("coverage f64 cases %d, max cases with NaN inputs %d, 1-pixel "
             "input axes %d, 1-pixel output axes %d, resampled N or C axes "
             "%d",
             cov_f64, cov_nan, cov_one_in, cov_one_out, cov_n_or_c);
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
        n = NSUBSET;
    } else {
        tu_env_seed("CLRS_TEST_SEED_BASE", &base);
        /* The quick tier: every class twice. */
        n = tap_quick() ? 2 * NCLASS : NCASES;
    }
    tap_diag("seeds %" PRIu64 "..%" PRIu64
             " (rerun one: CLRS_TEST_SEED=S%s)",
             base, base + n - 1, subset ? " with --oclgrind-subset" : "");
    for (seed = base; seed < base + n; ++seed)
        run_case(seed, subset);
    if (!subset)
        for (i = 0; i < (tap_quick() ? 1 : 3); ++i)
            run_large(i);
    print_coverage();
    td_close(&env);
    return tap_done();
}
