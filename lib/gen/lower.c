/* The lowering stage: problem + taps -> kernel axes, kernel class, vector
 * path and width, span patterns, stores, offset width, table layout and
 * NDRange, decided once. Forward and backward share one path, told apart
 * by a small direction description: the backward kernel writes diff_src
 * and gathers from diff_dst through the transposed taps. */
#include "gen/variant_lower.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The most bytes of walked rows' private accumulators a work-group
 * holds (PoCL keeps a group's private arrays on its thread's stack). */
#define CLRS_WALK_PRIVATE_BYTES 65536

/* Outputs at least this large get non-temporal stores: they do not fit
 * the caches anyway, and skipping the read-for-ownership doubles store
 * bandwidth on PoCL. Smaller outputs are likely re-read soon. */
#define CLRS_NT_MIN_BYTES ((size_t)8 << 20)

static void direction_of(const clrs_problem *p, direction *d)
{
    d->gather = p->backward;
    d->dst = p->backward ? &p->in : &p->out;
    d->src = p->backward ? &p->out : &p->in;
    d->index_written = !p->backward;
    d->has_x = p->backward && p->has_x && !p->has_index;
}

/* ---- kernel axes ----------------------------------------------------------
 */

static int blk_of(const struct clrs_tensor_desc *t, int a)
{
    return t->block_axis == a ? t->block : 0;
}

/* Iteration order: dst's axis with the smallest stride first, so
 * that consecutive work-items write consecutive addresses (on PoCL this
 * decides everything). A blocked axis steps by 1 inside its block. */
static int64_t order_key(const kaxis *k)
{
    return k->dblk ? 1 : k->ds;
}

static int kaxis_before(const kaxis *x, const kaxis *y)
{
    if (order_key(x) != order_key(y))
        return order_key(x) < order_key(y);
    return x->axis > y->axis; /* ties: the later tensor axis is faster */
}

/* Binary post-op operands chain too (broadcast ones: 0 == 0 * n). */
static int post_chain(const kaxis *in, const kaxis *out)
{
    int i;
    for (i = 0; i < CLRS_MAX_POST_OPS; ++i)
        if (in->bblk[i] || out->bblk[i] || out->bs[i] != in->bs[i] * in->n)
            return 0;
    return 1;
}

/* Operand strides of tensor axis a for every binary post-op: an operand
 * of size 1 there broadcasts (stride 0, no block). */
static void post_strides(const clrs_problem *p, int a, kaxis *t)
{
    int i;
    for (i = 0; i < p->n_post_ops; ++i) {
        const struct clrs_tensor_desc *o = &p->post_ops[i].operand;
        if (p->post_ops[i].kind != CLRS_POST_BINARY || o->dims[a] == 1)
            continue;
        t->bs[i] = o->strides[a];
        t->bblk[i] = blk_of(o, a);
    }
}

/* Two identity axes whose strides chain in every tensor are one axis to
 * the kernel: fewer divisions per work-item and fewer distinct kernels. */
static int mergeable(const kaxis *in, const kaxis *out, int has_index)
{
    return in->slot < 0 && out->slot < 0 && !in->sblk && !out->sblk &&
           !in->dblk && !out->dblk && !in->iblk && !out->iblk && !in->xblk &&
           !out->xblk && out->xs == in->xs * in->n &&
           out->ss == in->ss * in->n && out->ds == in->ds * in->n &&
           (!has_index || out->is == in->is * in->n) && post_chain(in, out);
}

/* Inserts t into k[0..m) kept in iteration order (insertion sort: at
 * most six axes); returns the new count. */
static int insert_sorted(kaxis *k, int m, const kaxis *t)
{
    int i;
    for (i = m; i > 0 && kaxis_before(t, &k[i - 1]); --i)
        k[i] = k[i - 1];
    k[i] = *t;
    return m + 1;
}

/* Merges adjacent identity axes whose strides chain in every tensor;
 * with no axis left (every axis of size 1), one axis of one element.
 * Returns the new count. */
static int merge_axes(kaxis *k, int m, int has_index)
{
    int i, j;
    for (i = 0; i + 1 < m;) {
        if (mergeable(&k[i], &k[i + 1], has_index)) {
            k[i].n *= k[i + 1].n;
            for (j = i + 1; j + 1 < m; ++j)
                k[j] = k[j + 1];
            --m;
        } else {
            ++i;
        }
    }
    if (m == 0) {
        memset(&k[0], 0, sizeof k[0]);
        k[0].n = 1;
        k[0].slot = -1;
        m = 1;
    }
    return m;
}

/* Strides of tensor t's axis a split into lanes of b (inner) and
 * blocks of b (outer): blocked by b, 1 and the block stride; unblocked,
 * the stride and b times it; blocked otherwise, not a split (0). */
static int split_strides(const struct clrs_tensor_desc *t, int a, int b,
                         int64_t *in, int64_t *out)
{
    if (t->block_axis == a && t->block != b)
        return 0;
    *in = t->block_axis == a ? 1 : t->strides[a];
    *out = t->block_axis == a ? t->strides[a] : t->strides[a] * b;
    return 1;
}

/* An identity axis a blocked in dst by b with no padding lanes, split
 * into a lane axis k[0] (b elements, unit stride in every tensor blocked
 * the same way) and a block axis k[1]: to the kernel, a channels-last
 * tensor of b channels (nChw8c as b-channel nhwc images, C / b of them),
 * which the axis path runs in vectors along the lanes. Each output sums
 * the same taps in the same order, so the results are the block path's
 * bits. 0 where some tensor is blocked along a by another size. */
static int split_block(const clrs_problem *p, const direction *d, int a,
                       kaxis *k)
{
    const int b = blk_of(d->dst, a);
    int i;

    if (p->slot[a] >= 0 || !b || d->dst->dims[a] < b || d->dst->dims[a] % b)
        return 0;
    memset(k, 0, 2 * sizeof *k);
    k[0].n = k[0].nr = b;
    k[1].n = k[1].nr = d->dst->dims[a] / b;
    k[0].slot = k[1].slot = -1;
    k[0].axis = k[1].axis = a;
    if (!split_strides(d->dst, a, b, &k[0].ds, &k[1].ds) ||
        !split_strides(d->src, a, b, &k[0].ss, &k[1].ss) ||
        (p->has_index && !split_strides(&p->index, a, b, &k[0].is, &k[1].is)) ||
        (d->has_x && !split_strides(&p->x, a, b, &k[0].xs, &k[1].xs)))
        return 0;
    for (i = 0; i < p->n_post_ops; ++i) {
        const struct clrs_tensor_desc *o = &p->post_ops[i].operand;
        if (p->post_ops[i].kind == CLRS_POST_BINARY && o->dims[a] != 1 &&
            !split_strides(o, a, b, &k[0].bs[i], &k[1].bs[i]))
            return 0;
    }
    return 1;
}

/* Whether tensor axis a is a kernel axis at all: a size-1 identity axis
 * contributes nothing to any offset, unless it is blocked (its padding
 * lanes are written too). */
static int axis_kept(const clrs_problem *p, const direction *d, int a)
{
    return p->slot[a] >= 0 || d->dst->dims[a] != 1 || blk_of(d->dst, a);
}

/* Kernel axes over dst, fastest stride first. Identity axes carry src's
 * strides (resampled ones find theirs in the tables), the index
 * tensor's where it is shaped like dst or the axis is an identity, x's
 * on identity axes. dst's blocked axis is split into lanes and blocks
 * where it can be (split_block), else iterated over whole blocks, so
 * that the kernel writes its padding lanes as zeros. */
static int lower_axes(const clrs_problem *p, const direction *d, kaxis *k)
{
    int a, m = 0, kept = 0;

    for (a = 0; a < p->rank; ++a)
        kept += axis_kept(p, d, a);
    for (a = 0; a < p->rank; ++a) {
        kaxis t, s[2];
        if (!axis_kept(p, d, a))
            continue;
        /* One more kernel axis than tensor axes, within the limit. */
        if (kept < CLRS_MAX_RANK && split_block(p, d, a, s)) {
            m = insert_sorted(k, m, &s[0]);
            if (s[1].n > 1)
                m = insert_sorted(k, m, &s[1]);
            continue;
        }
        memset(&t, 0, sizeof t);
        t.n = d->dst->dims[a];
        t.slot = p->slot[a];
        t.axis = a;
        t.dblk = blk_of(d->dst, a);
        t.nr = t.n;
        if (t.dblk)
            t.n = (t.n + t.dblk - 1) / t.dblk * t.dblk;
        post_strides(p, a, &t);
        t.ds = d->dst->strides[a];
        if (t.slot < 0) {
            t.ss = d->src->strides[a];
            t.sblk = blk_of(d->src, a);
        }
        if (p->has_index && (d->index_written || t.slot < 0)) {
            t.is = p->index.strides[a];
            t.iblk = blk_of(&p->index, a);
        }
        if (d->has_x && t.slot < 0) {
            t.xs = p->x.strides[a];
            t.xblk = blk_of(&p->x, a);
        }
        m = insert_sorted(k, m, &t);
    }
    return merge_axes(k, m, p->has_index);
}

/* ---- vector path ----------------------------------------------------------
 */

/* Whether dst is blocked on a kernel axis other than k[0]
 * (its padding guard then needs a scalar work-item). */
int clrs__lower_blocked_beyond_0(const kaxis *k, int m)
{
    int i;
    for (i = 1; i < m; ++i)
        if (k[i].dblk)
            return 1;
    return 0;
}

/* Binary operands along a vector on k0: broadcast (one load) or lanes
 * laid out like dst's (contiguous, or the same block); anything else
 * runs scalar. */
int clrs__lower_operands_vector_ok(const clrs_problem *p, const kaxis *k0)
{
    int i;
    for (i = 0; i < p->n_post_ops; ++i)
        if (p->post_ops[i].kind == CLRS_POST_BINARY && k0->bs[i] != 0 &&
            !(k0->dblk ? k0->bblk[i] == k0->dblk
                       : k0->bs[i] == 1 && !k0->bblk[i]))
            return 0;
    return 1;
}

/* Whether a vector along kernel axis 0 is possible at all: no generic
 * kernels, no vec=1, no padding guard beyond axis 0, binary operands that
 * vectorise, a dst type with a vector store. */
int clrs__lower_vectors_ok(const clrs_problem *p, const direction *d,
                           const kaxis *k, int m, const clrs_launch_request *r)
{
    return !r->generic && !r->vec_off && !clrs__lower_blocked_beyond_0(k, m) &&
           clrs__lower_operands_vector_ok(p, &k[0]) &&
           clrs__gen_dtype_vector_store(d->dst->dtype);
}

/* The element kinds (bits 1 << CLRS_LANE_*) a kernel holds in vectors
 * of its lanes: the accumulator and its comparison masks (float and int,
 * or double and long), the int offsets and span shuffle masks, every
 * tensor's elements as loaded or stored (f16 and bf16 as 16-bit lanes),
 * long where a backward compares its index tensor's entries (any index
 * type, gen_gather.c) and with 64-bit offsets (long_off). */
static unsigned dtype_kind(clrs_dtype t)
{
    switch (t) {
    case CLRS_S8:
    case CLRS_U8:
        return 1u << CLRS_LANE_CHAR;
    case CLRS_F16:
    case CLRS_BF16:
        return 1u << CLRS_LANE_SHORT;
    case CLRS_S32:
        return 1u << CLRS_LANE_INT;
    case CLRS_S64:
        return 1u << CLRS_LANE_LONG;
    case CLRS_F64:
        return 1u << CLRS_LANE_DOUBLE;
    case CLRS_F32:
    default:
        return 1u << CLRS_LANE_FLOAT;
    }
}

static unsigned lane_kinds(const clrs_problem *p, const direction *d,
                           int acc_f64, int long_off)
{
    unsigned kinds = 1u << CLRS_LANE_INT;
    int i;

    kinds |= acc_f64 ? (1u << CLRS_LANE_DOUBLE) | (1u << CLRS_LANE_LONG)
                     : 1u << CLRS_LANE_FLOAT;
    if (long_off)
        kinds |= 1u << CLRS_LANE_LONG;
    kinds |= dtype_kind(d->dst->dtype) | dtype_kind(d->src->dtype);
    if (p->has_index)
        kinds |= dtype_kind(p->index.dtype);
    if (d->has_x)
        kinds |= dtype_kind(p->x.dtype);
    for (i = 0; i < p->n_post_ops; ++i)
        if (p->post_ops[i].kind == CLRS_POST_BINARY)
            kinds |= dtype_kind(p->post_ops[i].operand.dtype);
    /* A computed last slot's span taps (clrs__gen_emit_calc_vec): cubic
     * weights in double (computed taps need fp64: plan.c) */
    if (p->naxes > 0 && (p->calc & (1u << (p->naxes - 1))) &&
        clrs__calc_count(p) == 4)
        kinds |= 1u << CLRS_LANE_DOUBLE;
    return kinds;
}

/* ---- stores ------------------------------------------------------------- */

/* Non-temporal vector stores cast dst + offset to a vector pointer, so
 * every vector's first element must sit on a vector boundary: buffers
 * start at the device's base alignment and every stride but axis 0's is
 * a multiple of the width. */
static int nt_aligned(const clrs_device *dev, const direction *d,
                      const kaxis *k, int m, int vec)
{
    size_t vbytes = (size_t)vec * clrs_dtype_size(d->dst->dtype);
    int i;

    if (vec == 1)
        return 1;
    if (vec & (vec - 1)) /* 3 lanes: vstore3, no vector store */
        return 0;
    if ((size_t)dev->facts.base_align_bits < vbytes * 8)
        return 0;
    for (i = 1; i < m; ++i)
        if (k[i].n > 1 && k[i].ds % vec != 0)
            return 0;
    /* Block vectors start at block starts: the block stride counts too. */
    if (k[0].dblk && k[0].ds % vec != 0)
        return 0;
    return 1;
}

/* Non-temporal stores for a dst of `bytes` with vec lanes per
 * work-item, unless the request forces them on or off (aligned vectors
 * are required either way). Scalar non-temporal stores also stop LLVM
 * from vectorising PoCL's work-item loop into AVX-512 gathers, which is
 * faster, not slower. */
static int want_nt(const clrs_device *dev, const direction *d, size_t bytes,
                   const kaxis *k, int m, const clrs_gen_config *c,
                   const clrs_launch_request *r)
{
    const size_t size = clrs_dtype_size(d->dst->dtype);
    const int vec = c->vec, raw = c->raw;
    int q, loops = c->roll > 0;
    int want = r->nt >= 0 ? r->nt : !r->generic && bytes >= CLRS_NT_MIN_BYTES;
    /* A copy's vectors, and the one-byte types' rounded ones, store
     * ordinarily by default where they are narrower than 16 bytes, and a
     * copy's where they are blocks of a blocked dst (neighbouring
     * work-items then write a block stride apart): measured on PoCL,
     * nearest 2x up, a non-temporal store took 1.2x as long (s8 aBx8b,
     * 8-byte vectors) and 1.3-3x (f32, u8 aBx8b), against 0.7x on 16-
     * and 32-byte vectors of consecutive work-items (u8, f16 nchw). Of
     * 16 lanes, non-temporal stores ran the performance matrix's forward
     * u8 and s8 rows other than copies and max pooling in 0.95x and
     * 0.97x the time at the geometric mean (three interleaved runs
     * against nt=0 on PoCL), backward 0.98x and 1.03x; its 52 forward
     * f16 problems other than copies in 0.92x (against the previous
     * build and against nt=0 alike), the 16 backward ones in 0.96-1.08x.
     * (bf16's vectors, whose rounding is spelt out, measured 1.01-1.07x
     * and store ordinarily at any width, as do s32's.) */
    if (r->nt < 0 && vec > 1 &&
        (((raw || size == 1) && (size_t)vec * size < 16) || (raw && k[0].dblk)))
        want = 0;
    /* A scalar work-item computing its taps (clrs_gen_config.calc)
     * stores ordinarily: LLVM does not vectorise a work-item loop with a
     * non-temporal store, and the taps' arithmetic needs the vectors
     * (PoCL, f32 linear 2x up 1-D, 5.6M outputs: 33 ms, 16 without). */
    if (r->nt < 0 && c->calc && vec == 1)
        want = 0;
    /* f16's converted vectors where the device class says
     * (device_class.nt_loops in launch.c, with the measurement) store
     * ordinarily in a kernel whose work-items loop a count they read
     * (taps by range) or roll rows. */
    for (q = 0; q < c->nslots; ++q)
        if (!c->fixed[q])
            loops = 1;
    if (r->nt < 0 && !r->nt_loops && loops && vec > 1 &&
        d->dst->dtype == CLRS_F16 && !raw)
        want = 0;
    return want && nt_aligned(dev, d, k, m, vec);
}

/* Which of src's vector loads and dst's vector stores are aligned to
 * the vector's size, where the request wants aligned accesses (va):
 * dst's wherever non-temporal stores could be (nt_aligned); src's on
 * the variants whose vector runs along src's unit-stride axis 0, not
 * resampled (axis, roll), where every other axis's src stride (and so
 * every tap table's offset, a coordinate times the stride of its tensor
 * axis) is a multiple of the width and src is not blocked: a load's
 * offset is then i0 plus multiples of the width, i0 itself one. A
 * padding tap's negative offset is never loaded. */
static int want_va(const clrs_device *dev, const direction *d, const kaxis *k,
                   int m, const clrs_gen_config *c,
                   const clrs_launch_request *r)
{
    const int vec = c->vec;
    int va = 0, i, src_ok;

    if (!r->va || vec < 2 || (vec & (vec - 1)))
        return 0;
    if (nt_aligned(dev, d, k, m, vec))
        va |= CLRS_VA_DST;
    src_ok =
        (c->variant == CLRS_VARIANT_AXIS || c->variant == CLRS_VARIANT_ROLL) &&
        k[0].slot < 0 && k[0].ss == 1 &&
        (size_t)dev->facts.base_align_bits >=
            (size_t)vec * clrs_dtype_size(d->src->dtype) * 8;
    if (d->src->block_axis >= 0)
        src_ok = 0;
    /* A resampled axis's offsets come from its tables (or computed
     * taps): multiples of src's stride along it, at any output extent. */
    for (i = 1; i < m && src_ok; ++i)
        if (k[i].slot >= 0 ? d->src->dims[k[i].axis] > 1 &&
                                 d->src->strides[k[i].axis] % vec != 0
                           : k[i].n > 1 && k[i].ss % vec != 0)
            src_ok = 0;
    if (src_ok)
        va |= CLRS_VA_SRC;
    return va;
}

/* Native half loads and stores where a tensor is f16 and the device has
 * cl_khr_fp16. CLRS_FP16=storage forces vload_half / vstore_half, and
 * CLRS_FP16=native the half type even on a device that does not report
 * the extension (to try a compiler that accepts it anyway). */
static int f16_native(const clrs_device *dev, const clrs_problem *p)
{
    int i, any = p->in.dtype == CLRS_F16 || p->out.dtype == CLRS_F16 ||
                 (p->has_x && p->x.dtype == CLRS_F16);
    for (i = 0; i < p->n_post_ops; ++i)
        any |= p->post_ops[i].kind == CLRS_POST_BINARY &&
               p->post_ops[i].operand.dtype == CLRS_F16;
    if (!any || dev->fp16 < 0)
        return 0;
    return dev->info.has_fp16 || dev->fp16 > 0;
}

/* ---- configuration ------------------------------------------------------ */

/* Whether the generator has a kernel for the problem's dtypes and
 * post-ops (clrs__gen_supported, over what of the configuration it
 * reads), before anything is lowered. */
static clrs_status check_kernels(const clrs_problem *p, const direction *d)
{
    clrs_gen_config c;
    int i;

    memset(&c, 0, sizeof c);
    c.backward = d->gather;
    c.src = d->src->dtype;
    c.dst = d->dst->dtype;
    c.recompute = d->has_x;
    c.x = p->x.dtype;
    c.npost = p->n_post_ops;
    for (i = 0; i < p->n_post_ops; ++i) {
        c.post[i].kind = (int)p->post_ops[i].kind;
        c.post[i].alg = p->post_ops[i].alg;
        c.post[i].dt = p->post_ops[i].operand.dtype;
    }
    return clrs__gen_supported(&c);
}

/* The trip counts of antialiased computed slots (clrs_gen_config.calc_nt):
 * the pixels strictly inside x - S .. x + S (S the filter's reach times
 * the stretch) number at most floor(2 S) + 1; one more for the
 * rounding of x - S and x + S in the kernel's type. 0 on every slot where
 * their product passes CLRS_GEN_AA_UNROLL. */
static void aa_trip_counts(clrs_gen_config *c, const clrs_problem *p)
{
    double n = 1, t[CLRS_MAX_RANK] = {0};
    int k;

    for (k = 0; k < p->naxes; ++k) {
        const double s = (c->calc_kind == 4 ? 2.0 : 1.0) * p->ax[k].aa_scale;
        if (p->calc & (1u << k))
            n *= t[k] = floor(2.0 * s) + 2.0;
    }
    /* (int) only within the bound: a long axis's count passes INT_MAX. */
    for (k = 0; k < p->naxes; ++k)
        c->calc_nt[k] = n <= CLRS_GEN_AA_UNROLL ? (int)t[k] : 0;
}

/* The configuration's problem-given fields and the kernel axes' blocks,
 * sizes and strides. */
static void config_basics(clrs_lowered *low, const clrs_device *dev,
                          const clrs_problem *p, const direction *d,
                          const kaxis *k, int m, int index_only)
{
    clrs_gen_config *c = &low->cfg;
    int i;

    c->backward = d->gather;
    c->accumulate = d->gather && p->accumulate;
    c->recompute = d->has_x;
    c->x = d->has_x ? p->x.dtype : CLRS_F32;
    c->cls = (clrs_gen_class)clrs__mode_kclass(p->mode);
    c->rank = m;
    c->nslots = p->naxes;
    for (i = 0; i < m; ++i) {
        c->ax[i].slot = k[i].slot;
        c->ax[i].src_block = k[i].sblk;
        c->ax[i].dst_block = k[i].dblk;
        c->ax[i].idx_block = k[i].iblk;
        c->ax[i].x_block = k[i].xblk;
        low->vals.n[i] = k[i].n;
        low->vals.nr[i] = k[i].nr;
        low->vals.ds[i] = k[i].ds;
        low->vals.ss[i] = k[i].ss;
        low->vals.is[i] = k[i].is;
        low->vals.xs[i] = k[i].xs;
    }
    c->src = d->src->dtype;
    c->dst = d->dst->dtype;
    /* f64 tensors accumulate in double; so do forward s32 ones where the
     * device has fp64, so that nearest and max stay exact beyond 2^24
     * (not OpenCV's bilinear rows, exact in float and faster there). */
    c->cv8lin = p->cv_pass == 2 && CLRS__CV8_LIN(p);
    c->acc_f64 =
        c->src == CLRS_F64 || c->dst == CLRS_F64 ||
        (d->has_x && c->x == CLRS_F64) ||
        (!d->gather && c->src == CLRS_S32 && dev->info.has_fp64 &&
         !c->cv8lin) ||
        ((p->fixed8 || p->exact8 || CLRS__CV8_FP64(p)) && dev->info.has_fp64);
    /* Pillow's and OpenCV's 8-bit paths: sums of their fixed-point
     * weights are exact in double, and round half up (Pillow's needs
     * fp64, plan.c; OpenCV's bilinear sums, of 24 bits, are exact in
     * float too). */
    c->half_up = CLRS__HALF_UP(p);
    c->cv8fr = p->cv8 == CLRS_CV8_AREA_FAST;
    c->cv8cub = p->cv_pass == 2 && p->cv8 == CLRS_CV8_CUBIC;
    c->f16_native = f16_native(dev, p);
    c->has_index = p->has_index;
    c->index_only = index_only;
    c->index = p->index.dtype;
    c->plane = CLRS__INDEX_IS_PLANE(p->index_format);
    c->plane_col = p->has_index && p->index_format == CLRS_INDEX_PLANE_COLUMN;
    c->nan_ignore = c->cls == CLRS_GEN_MAX && (!d->gather || d->has_x) &&
                    p->nan_policy == CLRS_NAN_IGNORE;
    c->pad_taps = (!d->gather || d->has_x) && p->padding != CLRS_PAD_EDGE;
    low->vals.pad = p->pad_value;
    c->calc = p->calc;
    if (p->calc) {
        c->calc_kind = clrs__calc_count(p);
        c->calc_edge = p->padding == CLRS_PAD_EDGE;
        c->calc_round = c->calc_kind == 1 ? (int)p->rounding : 0;
        c->calc_f64 = p->ax[0].f64;
        c->calc_wf64 = dev->info.has_fp64 != 0;
        c->calc_aa = clrs__mode_antialiased((int)p->mode, p->antialias);
        if (c->calc_aa) /* the mode's taps at the filter's ends */
            c->calc_kind = p->mode == CLRS_MODE_CUBIC ? 4 : 2;
        c->calc_restrict =
            c->calc_aa && (p->aa_rule == CLRS_AA_PYTORCH || p->exclude_outside);
        c->calc_a = c->calc_kind == 4 ? p->cubic_a : 0.0;
        if (p->naxes > 0 && (p->calc & (1u << (p->naxes - 1))))
            c->calc_fuse = p->fuse_c;
        if (c->calc_aa)
            aa_trip_counts(c, p);
    }
    if (c->cv8cub) {
        int64_t r[7];
        (void)clrs__cv8_row(&p->out, r); /* checked: validate.c */
        low->vals.cvs = r[0];
        low->vals.cvn = r[1];
        low->vals.cvk = r[2];
        low->vals.cvc = r[3];
        low->vals.cvm = r[4];
        low->vals.cvb = r[5];
        low->vals.cvx = r[6];
        /* An interleaved image's row as kernel axis 0: i0 is the
         * position, no division needed. */
        if (r[0] == r[2] && r[3] == 1 && r[5] == 1 && low->cfg.ax[0].slot < 0 &&
            low->vals.ds[0] == 1 && low->vals.n[0] == r[1] * r[2])
            c->cv8cub = 2;
    }
    if (!d->gather)
        low->vals.empty = c->cls == CLRS_GEN_MAX ? (double)NAN
                          : p->coord == CLRS_COORD_TF_CROP_AND_RESIZE
                              ? p->extrapolation
                              : 0.0;
}

/* Per forward slot: K when every output has exactly K taps, K <= 8 (the
 * kernel then computes the starts; see gen_loops.c), else 0. Max
 * pooling's last slot up to 32: the span path picks a
 * max's taps only where their count is fixed (a weighted sum's may
 * vary), and a 12-wide window along src's contiguous axis took the
 * scalar kernel, 11x the time of the span kernel (PoCL, AVX-512). */
static void fixed_counts(clrs_gen_config *c, const clrs_problem *p,
                         const clrs_slot_taps *st, const clrs_launch_request *r)
{
    int k;
    int64_t o;
    for (k = 0; k < p->naxes && !p->backward; ++k) {
        const int64_t *s = st->tl[k].start;
        c->fixed[k] = 0;
        if (p->calc & (1u << k)) { /* computed: the mode's count */
            c->fixed[k] = clrs__calc_count(p);
            continue;
        }
        if (r->generic || s[1] <= 0 ||
            s[1] > (c->cls == CLRS_GEN_MAX && k == p->naxes - 1 ? 32 : 8))
            continue;
        c->fixed[k] = (int)s[1];
        for (o = 0; o < p->ax[k].out; ++o)
            if (s[o + 1] - s[o] != s[1])
                c->fixed[k] = 0;
    }
}

/* Whether the forward problem is a copy (clrs_gen_config.raw): src and
 * dst of one type, no post-op, and on every slot one tap per output,
 * inside the input, of weight exactly 1 (after fixed_counts). */
static int copy_config(const clrs_gen_config *c, const clrs_problem *p,
                       const clrs_slot_taps *st)
{
    int k;
    size_t j;

    if (c->backward || c->cls != CLRS_GEN_WSUM || c->src != c->dst ||
        p->n_post_ops > 0 || c->pad_taps || p->calc)
        return 0;
    for (k = 0; k < p->naxes; ++k) {
        const clrs_taplist *tl = &st->tl[k];
        if (c->fixed[k] != 1)
            return 0;
        for (j = 0; j < (size_t)p->ax[k].out; ++j)
            if (tl->t[j].idx < 0 || tl->t[j].w != 1.0)
                return 0;
    }
    return 1;
}

/* Whether some output's window reads a padding tap (an index below 0)
 * on some slot. */
static int reads_padding(const clrs_problem *p, const clrs_slot_taps *st)
{
    int k;
    size_t j;

    for (k = 0; k < p->naxes; ++k)
        for (j = 0; j < st->tl[k].n; ++j)
            if (st->tl[k].t[j].idx < 0)
                return 1;
    return 0;
}

/* Whether forward max pooling can compare the integers themselves
 * (clrs_gen_config.raw, max class): src and dst of one integer type, no
 * post-op, no plane index, taps read from tables, every output a window
 * of a fixed count on every slot. A padding tap's value is then the pad
 * value as a store into the type rounds it (max commutes with that
 * monotonic rounding, and the values read are integers of the type),
 * which must be exact in the accumulator type that carries it into the
 * kernel; a NaN pad keeps the float path. With a window index (the
 * first of equal values wins) the pad must be an integer of the type as
 * it is, or no window read it: a rounded pad could tie a value it lies
 * below. */
static int max_raw_config(clrs_gen_config *c, const clrs_problem *p,
                          const clrs_slot_taps *st, clrs_lowered *low)
{
    double q;
    union {
        int32_t s32;
        int8_t s8;
        uint8_t u8;
    } cell;
    int k;

    if (c->backward || c->cls != CLRS_GEN_MAX || c->src != c->dst ||
        (c->src != CLRS_U8 && c->src != CLRS_S8 && c->src != CLRS_S32) ||
        p->n_post_ops > 0 || (c->has_index && c->plane) || p->calc)
        return 0;
    for (k = 0; k < p->naxes; ++k)
        if (c->fixed[k] < 1)
            return 0;
    if (!c->pad_taps)
        return 1;
    q = c->acc_f64 ? low->vals.pad : (double)(float)low->vals.pad;
    if (isnan(q))
        return 0;
    clrs__store(&cell, c->src, 0, q);
    q = clrs__load(&cell, c->src, 0);
    if (!c->acc_f64 && (double)(float)q != q)
        return 0;
    if (c->has_index && q != low->vals.pad && reads_padding(p, st)) {
        /* A pad below every value of a one-byte type (max pooling's
         * default -inf): as short, one below the type's least value, it
         * neither ties nor beats a value of the tensor; a window of
         * padding alone keeps it, and its store saturates it as the
         * float path's does (gen_store.c). */
        const double least = c->src == CLRS_U8 ? 0 : -128;
        if (c->src == CLRS_S32 || !(low->vals.pad < least))
            return 0;
        c->raw_wide = 1;
        q = least - 1;
    }
    low->vals.pad = q;
    return 1;
}

/* The fixed-point path of u8 weighted sums (clrs_gen_config.fix): u8 in
 * and out, no post-op or computed taps, a padding value (where padding
 * taps are read) that is a u8 value itself, not Pillow's or
 * OpenCV's 8-bit rules, unblocked tensors (a fused separable plan's
 * roll variant too: its rows' sums are exact as well), a fixed tap count on
 * every slot, and on each slot every weight a multiple of 2^-k, k <= 8, at
 * least 0, each output's summing to at most 1, the k of all slots
 * together at most 8 (so that 255 times the sum fits 16 bits). s8 in and
 * out the same, without padding taps and each output's weights summing
 * to exactly 1 on every slot: the kernel reads v + 128 (the byte's top
 * bit flipped) and stores the rounded sum less 128, which rounding half
 * to even commutes with (128 is even) and which stays in range. Sets fix
 * and fix_k, or leaves fix 0. */
static void fix_config(clrs_gen_config *c, const clrs_problem *p,
                       const clrs_slot_taps *st, const kaxis *ka, int m,
                       const clrs_launch_request *r, double pad)
{
    const double pv = (double)(float)pad; /* as the kernel reads it */
    const int s8 = c->src == CLRS_S8;
    int k, K = 0, i;

    c->fix = 0;
    if (r->fix == 0 || r->generic || c->backward || c->cls != CLRS_GEN_WSUM ||
        c->raw || c->src != c->dst || (c->src != CLRS_U8 && !s8) ||
        p->n_post_ops > 0 || p->calc || c->half_up || c->acc_f64)
        return;
    /* A padding tap reads pad: a u8 value, or the sums are not integers;
     * s8 reads none. */
    if (c->pad_taps && (s8 || !(pv >= 0 && pv <= 255 && pv == floor(pv))))
        return;
    for (i = 0; i < m; ++i)
        if (ka[i].sblk || ka[i].dblk)
            return;
    for (k = 0; k < p->naxes; ++k) {
        int unit;
        const int kk =
            clrs__taplist_dyadic(&st->tl[k], p->ax[k].out, c->pad_taps, &unit);
        if (c->fixed[k] < 1 || kk < 0 || (s8 && !unit))
            return;
        c->fix_k[k] = kk;
        K += kk;
    }
    if (K > 8)
        return;
    if (K == 0) /* weights of 0 and 1: one bit to round with */
        c->fix_k[0] = K = 1;
    c->fix = K;
}

/* The integer sums of backward max pooling (clrs_gen_config.isum): u8
 * or s8 diff_dst and diff_src, a window index read (not recomputed, not
 * a plane index), where every diff_src element's sum (its entries' dy,
 * at most the product of the slots' longest lists, plus the old value
 * under accumulation) fits ushort (u8) or short (s8): 255 times the
 * count at most 32767. CLRS_LAUNCH fix=0 keeps the float sums. */
static void isum_config(clrs_gen_config *c, const clrs_problem *p,
                        const clrs_slot_taps *st, const clrs_launch_request *r)
{
    int64_t count = c->accumulate ? 1 : 0, most = 1;
    int k;

    c->isum = 0;
    if (r->fix == 0 || r->generic || !c->backward || c->cls != CLRS_GEN_MAX ||
        !c->has_index || c->plane || c->recompute || c->acc_f64 ||
        c->src != c->dst || (c->src != CLRS_U8 && c->src != CLRS_S8))
        return;
    for (k = 0; k < p->naxes; ++k) {
        clrs_lists l;
        clrs__lists_of(p, st, k, 1, &l);
        most *= clrs__lists_max(&l);
        if (most > 256)
            return;
    }
    count += most;
    c->isum = count * 255 <= 32767;
}

/* Weights all exactly 1 (clrs_gen_config.unitw): a weighted sum from
 * the tables (not computed taps, not a fixed-point or a vendor's 8-bit
 * rule, whose tables hold other numbers: p's cv8, fixed8 and exact8,
 * from which half_up and the cv8 steps follow, a pass's cv8 being its
 * plan's), every tap of every slot of weight 1. */
static void unit_config(clrs_gen_config *c, const clrs_problem *p,
                        const clrs_slot_taps *st, const clrs_launch_request *r)
{
    int k;
    int64_t j;

    c->unitw = 0;
    if (r->generic || c->cls != CLRS_GEN_WSUM || c->raw || c->fix || p->calc ||
        p->cv8 || p->fixed8 || p->exact8)
        return;
    for (k = 0; k < p->naxes; ++k) {
        const clrs_taplist *tl = &st->tl[k];
        for (j = 0; j < tl->start[p->ax[k].out]; ++j)
            if (tl->t[j].w != 1.0)
                return;
    }
    c->unitw = 1;
}

/* Fused post-ops: their rows, values and operand blocks (forward). */
static void config_posts(clrs_lowered *low, const clrs_problem *p,
                         const kaxis *k, int m)
{
    clrs_gen_config *c = &low->cfg;
    int i, q;

    c->npost = p->n_post_ops;
    for (i = 0; i < p->n_post_ops; ++i) {
        const clrs_post_op *po = &p->post_ops[i];
        c->post[i].kind = (int)po->kind;
        c->post[i].alg = po->alg;
        c->post[i].dt =
            po->kind == CLRS_POST_BINARY ? po->operand.dtype : CLRS_F32;
        c->post[i].bvec = c->vec == 1       ? CLRS_BVEC_SCALAR
                          : k[0].bs[i] == 0 ? CLRS_BVEC_BCAST
                                            : CLRS_BVEC_LOAD;
        low->vals.pa[i] = po->kind == CLRS_POST_SUM ? po->scale : po->alpha;
        low->vals.pb[i] = po->beta;
        for (q = 0; q < m; ++q) {
            low->vals.bs[i][q] = k[q].bs[i];
            c->ax[q].op_block[i] = k[q].bblk[i];
        }
    }
}

/* ---- table layout and offset width ------------------------------------ */

static void add_seg(clrs_lowered *low, clrs_seg_kind kind, int k,
                    int transposed, const struct clrs_tensor_desc *t,
                    size_t len, int64_t *at)
{
    clrs_table_seg *s = &low->seg[low->nseg++];
    int ftab = kind == CLRS_SEG_WEIGHTS || kind == CLRS_SEG_GROUP_WEIGHTS;
    size_t *n = ftab ? &low->nf : &low->ni;

    s->kind = kind;
    s->slot = k;
    s->transposed = transposed;
    s->tensor = t;
    s->pos = *n;
    s->len = len;
    *at = (int64_t)*n;
    *n += len;
}

/* Slot k's tables, in the order the tables stage writes them: the
 * starts and src offsets of the lists the kernel walks, then (index
 * tensor read by a gather) its offsets, the codes, the weights, the span
 * groups after the last slot's, and to recompute the argmax the forward
 * starts, x offsets and plane codes. */
static void layout_slot(clrs_lowered *low, const clrs_problem *p,
                        const clrs_slot_taps *st, const direction *d, int k)
{
    const clrs_gen_config *c = &low->cfg;
    clrs_gen_values *v = &low->vals;
    int window = c->has_index && !c->plane, T = d->gather, j;
    int64_t plane = 1;
    clrs_lists s;

    if (p->calc & (1u << k)) { /* no tables: the coordinate's constants */
        const clrs_axis_map *ax = &p->ax[k];
        /* fused channels: pixels of fuse_c elements */
        const int64_t C = k == p->naxes - 1 && p->fuse_c > 1 ? p->fuse_c : 1;
        v->cr[k] = ax->f64 ? ax->dr : (double)ax->r;
        v->ca[k] = ax->f64 ? ax->da : (double)ax->a;
        v->cb[k] = ax->f64 ? ax->db : (double)ax->b;
        v->cn[k] = ax->in / C;
        v->cs[k] = d->src->strides[ax->axis] * C;
        v->cz[k] = -clrs__tensor_span(d->src);
        v->cfs[k] = ax->aa_scale;
        return;
    }
    /* The plane index's multiplier of slot k: row-major, the later
     * slots' sizes; column-major, the earlier ones'. */
    for (j = 0; j < p->naxes; ++j)
        if (c->plane_col ? j < k : j > k)
            plane *= p->ax[j].in;
    clrs__lists_of(p, st, k, T, &s);
    if (d->gather)
        v->pl[k] = plane;
    /* A fixed count's kernel forms its entries' positions (t * n + i)
     * and reads no starts. */
    if (!c->fixed[k])
        add_seg(low, CLRS_SEG_STARTS, k, T, NULL, (size_t)s.npos + 1,
                &v->st[k]);
    add_seg(low, CLRS_SEG_OFFSETS, k, T, d->src, s.n, &v->of[k]);
    if (c->has_index && !d->index_written)
        add_seg(low, CLRS_SEG_OFFSETS, k, T, &p->index, s.n, &v->ix[k]);
    if (window)
        add_seg(low, CLRS_SEG_WINDOW, k, T, NULL, s.n, &v->cd[k]);
    else if (c->has_index && d->index_written)
        add_seg(low, CLRS_SEG_PLANE, k, T, NULL, s.n, &v->cd[k]);
    else if (c->recompute)
        add_seg(low, CLRS_SEG_READ, k, T, NULL, s.n, &v->cd[k]);
    if (c->cls == CLRS_GEN_WSUM)
        add_seg(low, CLRS_SEG_WEIGHTS, k, T, NULL, s.n, &v->fw[k]);
    if (c->span && k == p->naxes - 1) {
        int64_t G = low->span.count;
        add_seg(low, CLRS_SEG_GROUPS, k, T, NULL, (size_t)(2 * G), &v->pg);
        if (low->span.weights)
            add_seg(low, CLRS_SEG_GROUP_WEIGHTS, k, T, NULL,
                    (size_t)(G * c->ntaps * c->vec), &v->fg);
    }
    if (c->recompute) {
        clrs__lists_of(p, st, k, 0, &s);
        add_seg(low, CLRS_SEG_STARTS, k, 0, NULL, (size_t)s.npos + 1,
                &v->fst[k]);
        add_seg(low, CLRS_SEG_OFFSETS, k, 0, &p->x, s.n, &v->fof[k]);
        add_seg(low, CLRS_SEG_PLANE, k, 0, NULL, s.n, &v->fcd[k]);
    }
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

/* 32-bit offsets when every value the kernel forms fits: sums of up to
 * six per-axis terms with padding sentinels, sizes, table positions. */
static int needs_long(const clrs_lowered *low, const clrs_problem *p,
                      const direction *d)
{
    int64_t plane_size = 1, bound;
    int k;

    for (k = 0; k < p->naxes; ++k)
        plane_size *= p->ax[k].in;
    if (!d->gather) {
        /* The padding sentinel is src's span, summed over the axes. */
        bound = 7 * max64(clrs__tensor_span(&p->in), plane_size);
        bound = max64(bound, clrs__tensor_span(&p->out));
        if (p->has_index)
            bound = max64(bound, clrs__tensor_span(&p->index));
    } else {
        bound = max64(clrs__tensor_span(&p->in), clrs__tensor_span(&p->out));
        if (p->has_index)
            bound = max64(bound, clrs__tensor_span(&p->index));
        if (d->has_x)
            bound = max64(bound, clrs__tensor_span(&p->x));
        bound = max64(bound, plane_size);
        bound = 7 * max64(bound, p->window_volume);
    }
    bound = max64(bound, (int64_t)low->ni + 1);
    return bound > (int64_t)INT_MAX - 64;
}

/* Every slot's segments, the dummy entries of empty tables (no
 * zero-size buffers) and the offset width. */
static void layout_tables(clrs_lowered *low, const clrs_problem *p,
                          const clrs_slot_taps *st, const direction *d)
{
    int k;
    for (k = 0; k < p->naxes; ++k)
        layout_slot(low, p, st, d, k);
    if (low->ni == 0)
        low->ni = 1;
    if (low->cfg.cls == CLRS_GEN_WSUM && low->nf == 0)
        low->nf = 1;
    low->cfg.long_off = needs_long(low, p, d);
}

/* ---- the launch ---------------------------------------------------------- */

/* The work-group of a kernel of several rows a work-item where the
 * driver would choose (launch_shape). */
#define CLRS_ROWS_GROUP_X 64
#define CLRS_ROWS_GROUP_Y 4

static clrs_vector_path variant_path(int v);

/* NDRange: kernel axes 0 and 1 are dimensions 0 and 1, the rest folded
 * into dimension 2; the local size from the request (launch.c). */
static void launch_shape(clrs_lowered *low, const clrs_device *dev,
                         const clrs_launch_request *r)
{
    const clrs_gen_config *c = &low->cfg;
    const int64_t *n = low->vals.n;
    clrs_launch *L = &low->launch;
    int q;

    L->vec = c->vec;
    L->mvec = c->mvec;
    L->nt = c->nt;
    L->path = variant_path(c->variant);
    L->work_dim = (cl_uint)(c->rank < 3 ? c->rank : 3);
    L->walk = c->walk; /* at least 1 */
    L->global[0] = (size_t)((n[0] + c->vec * c->mvec - 1) / (c->vec * c->mvec));
    /* A walking work-item's groups are consecutive. */
    L->global[0] = (L->global[0] + (size_t)L->walk - 1) / (size_t)L->walk;
    L->global[1] = c->rank > 1 ? (size_t)n[1] : 1;
    L->rows = c->rows > 1 ? c->rows : 1;
    L->global[1] = (L->global[1] + (size_t)L->rows - 1) / (size_t)L->rows;
    L->global[2] = 1;
    for (q = 2; q < c->rank; ++q)
        L->global[2] *= (size_t)n[q];
    if (c->roll) { /* runs of c->roll outputs on slot 0's axis */
        const int a = clrs__gen_axis_of_slot(c, 0);
        const size_t runs = (size_t)((n[a] + c->roll - 1) / c->roll);
        if (a == 1)
            L->global[1] = runs;
        else
            L->global[2] = L->global[2] / (size_t)n[a] * runs;
    }
    clrs__launch_local(dev, r, L);
    if (L->rows > 1 && L->walk == 1 && L->local[0] == 0 && !r->local_driver) {
        /* Rows a work-item where the driver would choose: PoCL stacked
         * the rows of a narrow column in one work-group (8x340, its
         * outputs 64 values wide down the whole plane, 1.9x the time of
         * one row a work-item); 64x4 (or the largest divisors) runs
         * rows in 0.5-0.9x. */
        clrs_launch_request g = *r;
        g.local[0] = CLRS_ROWS_GROUP_X;
        g.local[1] = CLRS_ROWS_GROUP_Y;
        g.local[2] = 1;
        clrs__launch_local(dev, &g, L);
    }
    if (L->rows == 1 && L->walk == 1 && L->local[0] == 0 && !r->local_driver &&
        r->span_group > 0 && L->path == CLRS_VECTOR_SPAN)
        /* A span kernel of one row a work-item where the driver would
         * choose: PoCL's choice fell to 8x1x1 on a three-channel plane
         * (launch.c's class table). */
        clrs__launch_fill_local(dev, (size_t)r->span_group, L);
    if (L->rows == 1 && L->walk == 1 && L->local[0] == 0 && !r->local_driver &&
        r->axis_group > 0 && L->path == CLRS_VECTOR_AXIS)
        /* An axis kernel of one row a work-item where the driver would
         * choose: PoCL's choice for 4 x 640 x 640 work-items (a
         * channels-last plane of 64 channels, four vectors a pixel) had
         * one work-item along the pixel's vectors, so four work-groups
         * wrote parts of each pixel's lines (launch.c's class table). */
        clrs__launch_fill_local(dev, (size_t)r->axis_group, L);
    if (L->walk > 1) {
        /* PoCL keeps the private arrays of a whole work-group on its
         * thread's stack: the driver's own choice (4096 work-items) of
         * 2 KiB accumulators each overflowed it. One work-item a group
         * where the driver would choose (each walks a whole row; larger
         * groups measured no faster), else at most 64 KiB of them. */
        size_t acc = (size_t)c->vec * (size_t)L->walk * (c->acc_f64 ? 8 : 4);
        if (L->local[0] == 0) {
            for (q = 0; q < 3; ++q)
                L->local[q] = 1;
        }
        clrs__launch_fit_group(L, (size_t)CLRS_WALK_PRIVATE_BYTES / acc);
    }
}

/* ---- variants (variant.h) ------------------------------------------------ */

typedef struct variant_row {
    const char *name;
    clrs_vector_path path; /* how clrs_plan_info names its lanes */
    unsigned knobs;
    int (*applies)(const vtry *t);
    clrs_status (*make)(vtry *t, int *made);
} variant_row;

#define VARIANT_ROW_(e, name, path, knobs)                                     \
    {name, path, knobs, clrs__variant_applies_##e, clrs__variant_make_##e},
static const variant_row variant_rows[] = {CLRS_VARIANT_MAP(VARIANT_ROW_)};
#undef VARIANT_ROW_

const char *clrs__variant_name(int v)
{
    return v >= 0 && v < CLRS_VARIANT_COUNT ? variant_rows[v].name : "?";
}

static clrs_vector_path variant_path(int v)
{
    return variant_rows[v].path;
}

/* The first variant that applies and is made. */
static clrs_status choose_variant(vtry *t)
{
    clrs_gen_config *c = &t->low->cfg;
    int v, made = 0;

    c->vec = c->mvec = c->walk = c->rows = 1;
    c->tail = 0;
    c->roll = c->fold = 0;
    for (v = 0; v < CLRS_VARIANT_COUNT; ++v) {
        /* A fused plan takes its one variant or none (plan.c): roll, or
         * span folding the outer slot first; no other plan the roll
         * variant. OpenCV's bicubic rows the scalar one (its step picks
         * per element). */
        if ((t->p->fused == CLRS_FUSED_ROLL   ? v != CLRS_VARIANT_ROLL
             : t->p->fused == CLRS_FUSED_FOLD ? v != CLRS_VARIANT_SPAN
                                              : v == CLRS_VARIANT_ROLL) ||
            (c->cv8cub && v != CLRS_VARIANT_SCALAR) ||
            !variant_rows[v].applies(t))
            continue;
        CLRS_TRY(variant_rows[v].make(t, &made));
        if (made) {
            c->variant = v;
            return CLRS_SUCCESS;
        }
    }
    return clrs__error(CLRS_ERR_INVALID_VALUE, "no kernel variant applies");
}

/* Everything up to the variant: the kernel axes, the configuration's
 * basics, the launch request and the lane bound. */
typedef struct lowering {
    direction d;
    kaxis k[CLRS_MAX_RANK];
    int m;
    clrs_launch_request req;
    vtry t;
} lowering;

static clrs_status lower_setup(const clrs_device *dev, const clrs_problem *p,
                               const clrs_slot_taps *st, int index_only,
                               const clrs_launch_text *launch, int long_off,
                               clrs_lowered *low, lowering *w)
{
    clrs_gen_config *c = &low->cfg;
    int bound, copy;

    memset(low, 0, sizeof *low);
    memset(w, 0, sizeof *w);
    direction_of(p, &w->d);
    CLRS_TRY(check_kernels(p, &w->d));
    w->m = lower_axes(p, &w->d, w->k);
    config_basics(low, dev, p, &w->d, w->k, w->m, index_only);
    CLRS_TRY(clrs__launch_request(dev, c->acc_f64, launch, &w->req));
    fixed_counts(c, p, st, &w->req);
    copy = copy_config(c, p, st);
    c->raw = copy || max_raw_config(c, p, st, low);
    fix_config(c, p, st, w->k, w->m, &w->req, low->vals.pad);
    isum_config(c, p, st, &w->req);
    unit_config(c, p, st, &w->req);
    /* A copy moves bits of its storage type: where the device class
     * loads a number of bytes at once (a GPU's 16), that many bytes of
     * it, not as many lanes as a float accumulator takes (u8 nearest
     * 2x up on an H200: 16 lanes 0.57x the time of 4). */
    if (copy && w->req.load_bytes > 0) {
        int v = w->req.load_bytes / (int)clrs_dtype_size(w->d.src->dtype);
        w->req.vmax = v > CLRS_LANES_MAX ? CLRS_LANES_MAX : v < 1 ? 1 : v;
    }

    /* Every vector within the device's native widths, forced widths
     * included (see clrs__launch_lane_bound). */
    bound = clrs__launch_lane_bound(&dev->facts,
                                    lane_kinds(p, &w->d, c->acc_f64, long_off));
    if (w->req.vmax > bound)
        w->req.vmax = bound;
    w->t.p = p;
    w->t.d = &w->d;
    w->t.k = w->k;
    w->t.m = w->m;
    w->t.bound = bound;
    w->t.st = st;
    w->t.r = &w->req;
    w->t.low = low;
    return CLRS_SUCCESS;
}

/* Whether neighbouring positions of slot s's lists (transposed: the
 * backward gather's) read overlapping ranges of elements at half of
 * the positions or more: a 3x3 window of stride 2, a bilinear
 * upsample's transposed entries, not a 2x bilinear downsample's pairs.
 * A slot whose taps the kernel computes has no lists: no. */
int clrs__lower_taps_overlap(const clrs_problem *p, const clrs_slot_taps *st,
                             int s, int transposed)
{
    clrs_lists l;
    int64_t i, hits = 0;

    clrs__lists_of(p, st, s, transposed, &l);
    if (!l.start)
        return 0;
    for (i = 0; i + 1 < l.npos; ++i) {
        int64_t hi = -1, lo = INT64_MAX, e;
        for (e = l.start[i]; e < l.start[i + 1]; ++e)
            if (clrs__lists_read(&l, (size_t)e) > hi)
                hi = clrs__lists_read(&l, (size_t)e);
        for (e = l.start[i + 1]; e < l.start[i + 2]; ++e) {
            const int64_t x = clrs__lists_read(&l, (size_t)e);
            if (x >= 0 && x < lo)
                lo = x;
        }
        hits += lo <= hi;
    }
    return l.npos > 1 && 2 * hits >= l.npos - 1;
}

/* Kernel axis 0's outputs from which a forward span-variant sum takes
 * the device class's rows_span: shorter rows (a 512^2 plane, a 3-D
 * volume's 256 or fewer) measured slower in rows on PoCL. */
#define ROWS_SPAN_MIN_ROW 2048

/* src's elements between neighbouring entries of kernel axis 1 from
 * which a forward sum on the axis variant whose rows' taps overlap takes
 * the device class's rows_overlap (rows_overlap_applies). */
#define ROWS_AXIS_MIN_STRIDE 1024

/* Whether a forward weighted sum on the axis variant (a vector along
 * src's contiguous axis, kernel axis 0) takes rows_overlap: kernel axis
 * 1 is a resampled axis whose neighbouring outputs' taps overlap, its
 * entries at least ROWS_AXIS_MIN_STRIDE elements apart (channels-first
 * rows: the outer pass of a separable plan, an outer axis resampled
 * alone). Four rows then read each tap row once for all four from the
 * cache: on PoCL (AMD EPYC) the channels-first antialiased and bicubic
 * separable plans over rows of 1024 to 8192 elements took 0.77-1.01x
 * the time (their first pass 0.70-0.98x), while rows of 256 or 512
 * took 0.98-1.22x, and channels-last pixels (C apart) measured up to 20
 * times slower in rows (lib/README.md, "Rows per work-item"). */
static int rows_overlap_applies(const clrs_gen_config *c, const clrs_problem *p,
                                const kaxis *k, int m)
{
    return !c->backward && c->variant == CLRS_VARIANT_AXIS &&
           c->cls == CLRS_GEN_WSUM && !c->raw && m > 1 && k[1].slot >= 0 &&
           p->in.strides[k[1].axis] >= ROWS_AXIS_MIN_STRIDE;
}

/* Whether rows_span applies: a forward kernel on the span variant (not
 * walked) over two or more kernel axes, either max pooling of an
 * integer type compared as it is (c->raw: on PoCL u8, s8 and s32 3x3
 * stride-2 pooling of 1 to 64 channels in 0.45-1.04x the time in four
 * rows, 0.74x at the geometric mean, rows of 256 outputs too; float
 * types' 0.9-1.1x), but not as short (c->raw_wide: 1.2-2.6x the time in
 * four rows, u8 and s8 with a window index, 3 and 64 channels) or a weighted
 * sum over a long row of a mode without windows (interpolation, adaptive
 * average pooling: 0.51-0.97x, 0.68x at the geometric mean over 12 problems),
 * not a copy (nearest's rows measured 0.6-1.9x the time, by type and run, on
 * PoCL), nor windowed average pooling (0.67-1.69x, 1.04x at the geometric mean
 * over 40 problems), nor an upsample along kernel axis 1 into a one-byte type
 * (u8 and s8 bilinear 2x up of 1 and 4 channels took 1.1-1.6x the time in four
 * rows on PoCL, 3 channels 0.7-1.0x), nor periodic computed taps (their
 * constants share no loads between rows: u8 linear 2x up of 3 rows of
 * 11M outputs 7.5 ms in two rows, 4.5 in one). */
static int rows_span_applies(const clrs_gen_config *c, const clrs_problem *p,
                             const kaxis *k, int m)
{
    const int up1 =
        k[1].slot >= 0 && p->ax[k[1].slot].out > p->ax[k[1].slot].in;

    if (c->backward || c->variant != CLRS_VARIANT_SPAN || m < 2)
        return 0;
    if (c->cls == CLRS_GEN_MAX)
        return c->raw && !c->raw_wide;
    return c->cls == CLRS_GEN_WSUM && !c->raw && !clrs__gen_periodic(c) &&
           !clrs__mode_pooling(p->mode) && k[0].n >= ROWS_SPAN_MIN_ROW &&
           !(up1 && clrs_dtype_size(c->dst) == 1);
}

/* Outputs of kernel axis 1 a work-item runs in turn: the request's
 * rows=, else its device class's default for a backward kernel, or
 * for a walked row (the walk variant) or a forward sum on the axis
 * variant over channels-first rows (rows_overlap_applies) whose rows'
 * taps overlap along kernel axis 1 (rows_overlap: on PoCL an input row
 * read by the next output row is still in cache), or for a forward
 * kernel on the span variant where rows_span_applies (rows_span); at
 * most the axis' extent rounded down to a power of two. On the
 * one-group variants of a kernel of two or more axes whose dst is
 * blocked nowhere (a padding lane's guard ends its work-item). */
static int rows_of(const clrs_gen_config *c, const clrs_problem *p,
                   const clrs_slot_taps *st, const direction *d, const kaxis *k,
                   int m, const clrs_launch_request *r)
{
    int rows = r->rows ? r->rows : c->backward ? r->rows_bwd : 1, q;

    if (!r->rows && r->rows_overlap > rows &&
        (c->variant == CLRS_VARIANT_WALK || rows_overlap_applies(c, p, k, m)) &&
        m > 1 && k[1].slot >= 0 &&
        clrs__lower_taps_overlap(p, st, k[1].slot, d->gather))
        rows = r->rows_overlap;
    if (!r->rows && r->rows_span > rows && rows_span_applies(c, p, k, m))
        rows = r->rows_span;
    if (rows < 2 || c->rank < 2 || c->variant == CLRS_VARIANT_ROLL ||
        c->variant == CLRS_VARIANT_BLOCK)
        return 1;
    for (q = 0; q < m; ++q)
        if (k[q].dblk)
            return 1;
    while (rows > 1 && rows > k[1].n)
        rows /= 2;
    return rows;
}

/* One lowering with 64-bit offsets assumed in the lane bound or not
 * (long_off); the tables decide whether they are needed. */
static clrs_status lower_once(const clrs_device *dev, const clrs_problem *p,
                              const clrs_slot_taps *st, int index_only,
                              const clrs_launch_text *launch, int long_off,
                              clrs_lowered *low)
{
    clrs_gen_config *c = &low->cfg;
    lowering w;
    size_t bytes;

    CLRS_TRY(lower_setup(dev, p, st, index_only, launch, long_off, low, &w));
    CLRS_TRY(choose_variant(&w.t));
    c->rows = rows_of(c, p, st, &w.d, w.k, w.m, &w.req);
    bytes = index_only ? 0
                       : (size_t)clrs__tensor_span(w.d.dst) *
                             clrs_dtype_size(w.d.dst->dtype);
    c->nt = want_nt(dev, &w.d, bytes, w.k, w.m, c, &w.req);
    c->va = index_only ? 0 : want_va(dev, &w.d, w.k, w.m, c, &w.req);
    config_posts(low, p, w.k, w.m);
    layout_tables(low, p, st, &w.d);
    launch_shape(low, dev, &w.req);
    return CLRS_SUCCESS;
}

unsigned clrs__lower_knobs(const clrs_device *dev, const clrs_problem *p,
                           const clrs_slot_taps *st, int index_only)
{
    /* Every variant's widest chance: the most lanes, span groups and
     * walked rows allowed. */
    const clrs_launch_text wide = {"vec=16,span=1,walk=1", CLRS_LAUNCH_FORCED};
    clrs_lowered low;
    lowering w;
    unsigned knobs = 0;
    int v;

    if (lower_setup(dev, p, st, index_only, &wide, 0, &low, &w) < 0) {
        clrs__clear_error();
        return CLRS_KNOB_ALL_;
    }
    for (v = 0; v < CLRS_VARIANT_COUNT; ++v)
        if (variant_rows[v].applies(&w.t))
            knobs |= variant_rows[v].knobs;
    return knobs;
}

clrs_status clrs__lower(const clrs_device *dev, const clrs_problem *p,
                        const clrs_slot_taps *st, int index_only,
                        const clrs_launch_text *launch, clrs_lowered *low)
{
    clrs_status s = lower_once(dev, p, st, index_only, launch, 0, low);

    /* Offsets of 64 bits (tensors or tables past 2^31 elements) are long
     * vectors too: lowered again under long's bound where it is lower. */
    if (s == CLRS_SUCCESS && low->cfg.long_off && low->cfg.vec > 1 &&
        clrs__launch_lane_bound(&dev->facts, 1u << CLRS_LANE_LONG) <
            low->cfg.vec) {
        clrs__lowered_free(low);
        s = lower_once(dev, p, st, index_only, launch, 1, low);
    }
    return s;
}

void clrs__lowered_free(clrs_lowered *low)
{
    free(low->span.base);
    free(low->span.pat);
    low->span.base = NULL;
    low->span.pat = NULL;
}
