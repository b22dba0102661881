/* Plans: validation of a problem against the context's device, lowering
 * to a kernel configuration and per-axis tap tables, the build, and the
 * argument checks and enqueue of clrs_execute. */
#include "codegen.h"
#include "program.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Outputs at least this large get non-temporal stores: they do not fit
 * the caches anyway, and skipping the read-for-ownership doubles store
 * bandwidth on PoCL (DESIGN.md). Smaller outputs are likely re-read soon. */
#define CLRS_NT_MIN_BYTES ((size_t)8 << 20)

/* Everything execute needs, resolved once at plan time (DESIGN: plan,
 * then execute). */
struct clrs_plan {
    clrs_context *ctx; /* not owned: plans must die before their context */
    clrs_problem problem;

    clrs_gen_config cfg;
    clrs_gen_values vals;
    cl_program program;
    cl_kernel kernel;
    cl_mem itab, ftab; /* tap tables, written once at creation */
    cl_uint arg_src, arg_dst, arg_index; /* kernel argument positions */
    cl_uint arg_x; /* backward max recompute: the forward src */
    int index_only; /* forward max writing the index alone (argmax pass) */
    cl_uint arg_post[CLRS_MAX_POST_OPS]; /* binary post-op operands */
    cl_uint work_dim;
    size_t global[3];
    size_t local[3];
    int use_local; /* 0: let the driver choose (often faster on PoCL) */

    /* Forward span vector path: non-temporal stores with and without it
     * (the group table may turn it down: slot_tables). */
    int nt_scalar, nt_phase;
    double span_coverage; /* groups with a pattern / all groups */

    clrs_cache_source cache_source; /* for clrs_plan_get_info */
    double create_ms;

    /* Bytes each role's buffer must hold (0: role unused), checked by
     * clrs_execute with CL_MEM_SIZE before anything is enqueued. */
    size_t need_src, need_dst, need_diff_src, need_diff_dst, need_index;
    size_t need_post[CLRS_MAX_POST_OPS];

    /* Max pooling backward without an index tensor, in two passes: the
     * forward argmax writes a window index into plan-owned scratch, then
     * the index backward reads it (plan_two_pass). Both NULL for a plan
     * with its own kernel. */
    clrs_plan *argmax, *scatter;
    cl_mem scratch_index;
    cl_event scratch_busy; /* the last backward pass, which reads the
                              scratch: the next argmax pass waits for it */

    /* clSetKernelArg followed by enqueue must not interleave between
     * threads sharing one cl_kernel (OpenCL 1.2 A.2). */
    pthread_mutex_t lock;
    int lock_init;
};

/* ---- device checks ------------------------------------------------------ */

static clrs_status check_bytes(const clrs_context *ctx,
                               const struct clrs_tensor_desc *t,
                               const char *what, size_t *need)
{
    uint64_t span = (uint64_t)clrs__tensor_span(t);
    uint64_t esize = clrs_dtype_size(t->dtype);
    uint64_t bytes;

    CLRS_CHECK(span <= UINT64_MAX / esize, CLRS_ERR_TOO_LARGE,
               "%s spans %llu elements: its byte size overflows 64 bits",
               what, (unsigned long long)span);
    bytes = span * esize;
    CLRS_CHECK(ctx->address_bits >= 64 ||
                   bytes <= (UINT64_C(1) << ctx->address_bits),
               CLRS_ERR_TOO_LARGE,
               "%s needs %llu bytes; the device's %u-bit address space "
               "holds %llu",
               what, (unsigned long long)bytes, (unsigned)ctx->address_bits,
               (unsigned long long)(UINT64_C(1) << ctx->address_bits));
    CLRS_CHECK(bytes <= ctx->max_alloc, CLRS_ERR_TOO_LARGE,
               "%s needs %llu bytes; the device's max allocation "
               "(CL_DEVICE_MAX_MEM_ALLOC_SIZE) is %llu bytes",
               what, (unsigned long long)bytes,
               (unsigned long long)ctx->max_alloc);
    CLRS_CHECK(bytes <= SIZE_MAX, CLRS_ERR_TOO_LARGE,
               "%s needs %llu bytes, more than the host's size_t", what,
               (unsigned long long)bytes);
    *need = (size_t)bytes;
    return CLRS_SUCCESS;
}

static clrs_status check_fp64(const clrs_context *ctx,
                              const struct clrs_tensor_desc *t,
                              const char *what)
{
    CLRS_CHECK(t->dtype != CLRS_F64 || ctx->info.has_fp64,
               CLRS_ERR_UNSUPPORTED,
               "%s dtype f64 needs fp64 (cl_khr_fp64); device \"%s\" has "
               "none",
               what, ctx->info.device_name);
    return CLRS_SUCCESS;
}

static clrs_status check_device(clrs_plan *plan)
{
    const clrs_context *ctx = plan->ctx;
    const clrs_problem *p = &plan->problem;
    const char *in = p->backward ? "diff_src" : "src";
    const char *out = p->backward ? "diff_dst" : "dst";
    int i;

    CLRS_TRY(check_fp64(ctx, &p->in, in));
    CLRS_TRY(check_fp64(ctx, &p->out, out));
    if (p->has_src)
        CLRS_TRY(check_fp64(ctx, &p->src, "src"));
    for (i = 0; i < p->n_post_ops; ++i)
        if (p->post_ops[i].kind == CLRS_POST_BINARY)
            CLRS_TRY(check_fp64(ctx, &p->post_ops[i].operand,
                                "binary operand"));

    CLRS_TRY(check_bytes(ctx, &p->in, in,
                         p->backward ? &plan->need_diff_src
                                     : &plan->need_src));
    CLRS_TRY(check_bytes(ctx, &p->out, out,
                         p->backward ? &plan->need_diff_dst
                                     : &plan->need_dst));
    if (p->has_index)
        CLRS_TRY(check_bytes(ctx, &p->index, "index", &plan->need_index));
    if (p->has_src)
        CLRS_TRY(check_bytes(ctx, &p->src, "src", &plan->need_src));
    for (i = 0; i < p->n_post_ops; ++i)
        if (p->post_ops[i].kind == CLRS_POST_BINARY)
            CLRS_TRY(check_bytes(ctx, &p->post_ops[i].operand,
                                 "binary operand", &plan->need_post[i]));
    return CLRS_SUCCESS;
}

/* ---- lowering: problem -> kernel axes ----------------------------------- */

/* One axis of the output as the kernel iterates it. */
typedef struct kaxis {
    int64_t n, ss, ds, is;
    int64_t nr; /* dst's blocked axis: real extent (n is padded) */
    int64_t bs[CLRS_MAX_POST_OPS]; /* binary operand strides (0: bcast) */
    int bblk[CLRS_MAX_POST_OPS];   /* and blocks */
    int slot; /* resampled slot, -1: identity */
    int sblk, dblk, xblk;
    int64_t xs; /* backward max recompute: x (forward src) stride */
    int gblk;   /* and x's block */
    int axis; /* tensor axis (the innermost one after merging) */
} kaxis;

static int blk_of(const struct clrs_tensor_desc *t, int a)
{
    return t->block_axis == a ? t->block : 0;
}

/* Iteration order: the dst axis with the smallest stride first, so that
 * consecutive work-items write consecutive addresses (DESIGN: on PoCL
 * this decides everything). A blocked axis steps by 1 inside its block. */
static int64_t order_key(const kaxis *k) { return k->dblk ? 1 : k->ds; }

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
           !in->dblk && !out->dblk && !in->xblk && !out->xblk &&
           !in->gblk && !out->gblk && out->xs == in->xs * in->n &&
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

/* The blocked axis of the written tensor is iterated over whole blocks,
 * so that the kernel writes its padding lanes as zeros. */
static void pad_blocked(kaxis *t)
{
    t->nr = t->n;
    if (t->dblk)
        t->n = (t->n + t->dblk - 1) / t->dblk * t->dblk;
}

static int lower_axes(const clrs_problem *p, kaxis *k)
{
    int a, m = 0;

    for (a = 0; a < p->rank; ++a) {
        kaxis t;
        memset(&t, 0, sizeof t);
        t.n = p->out.dims[a];
        t.slot = p->slot[a];
        t.axis = a;
        t.dblk = blk_of(&p->out, a);
        /* A size-1 identity axis contributes nothing to any offset,
         * unless it is blocked: its padding lanes are written too. */
        if (t.slot < 0 && t.n == 1 && !t.dblk)
            continue;
        pad_blocked(&t);
        post_strides(p, a, &t);
        t.ds = p->out.strides[a];
        if (t.slot < 0) { /* resampled src offsets live in the tables */
            t.ss = p->in.strides[a];
            t.sblk = blk_of(&p->in, a);
        }
        if (p->has_index) {
            t.is = p->index.strides[a];
            t.xblk = blk_of(&p->index, a);
        }
        m = insert_sorted(k, m, &t);
    }
    return merge_axes(k, m, p->has_index);
}

static int env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

/* Lanes per work-item along kernel axis 0: a contiguous identity axis of
 * src, dst (and index) gets vloadN/vstoreN, at most one 64-byte line per
 * vector, preferring a width that divides the axis (no scalar tail). */
static int vec_width(int64_t n, int acc_f64)
{
    int vmax = acc_f64 ? 8 : 16, v, best = 1;

    for (v = vmax; v >= 2; v /= 2)
        if (v <= n && n % v == 0) {
            best = v;
            break;
        }
    if (best < 4) /* a longer vector with a tail beats 2 lanes */
        for (v = vmax; v > best; v /= 2)
            if (v <= n) {
                best = v;
                break;
            }
    return best;
}

/* Whether dst is blocked on a kernel axis other than k[0] (its padding
 * guard then needs a scalar work-item). */
static int blocked_beyond_0(const kaxis *k, int m)
{
    int i;
    for (i = 1; i < m; ++i)
        if (k[i].dblk)
            return 1;
    return 0;
}

/* Block vector path: k0 is dst's blocked axis and every other tensor the
 * work-item touches along it has the same block there, so a block's lanes
 * are contiguous everywhere: one vloadB / vstoreB per block, the padding
 * lanes computed from the inputs' own padding and then zeroed. */
static int block_vec(const kaxis *k0, int idx_ok, int x_ok)
{
    return k0->slot < 0 && k0->dblk && k0->sblk == k0->dblk && idx_ok &&
           x_ok;
}

/* Binary operands along a vector on k0: broadcast (one load) or lanes
 * laid out like dst's (contiguous, or the same block); anything else
 * runs scalar. */
static int operands_vector_ok(const clrs_problem *p, const kaxis *k0)
{
    int i;
    for (i = 0; i < p->n_post_ops; ++i)
        if (p->post_ops[i].kind == CLRS_POST_BINARY && k0->bs[i] != 0 &&
            !(k0->dblk ? k0->bblk[i] == k0->dblk
                       : k0->bs[i] == 1 && !k0->bblk[i]))
            return 0;
    return 1;
}

static int choose_vec(const clrs_problem *p, const kaxis *k, int m,
                      int acc_f64)
{
    const kaxis *k0 = &k[0];
    if (env_flag("CLRS_GENERIC") || blocked_beyond_0(k, m) ||
        !operands_vector_ok(p, k0))
        return 1;
    if (!clrs__gen_dtype_vector_store(p->out.dtype))
        return 1;
    /* A forward index tensor's padding lanes are not ours to write. */
    if (block_vec(k0, !p->has_index, 1))
        return acc_f64 && k0->dblk > 8 ? 8 : k0->dblk;
    if (k0->slot >= 0 || k0->sblk || k0->dblk || k0->xblk || k0->ss != 1 ||
        k0->ds != 1 || (p->has_index && k0->is != 1) ||
        !clrs__gen_dtype_vector_store(p->out.dtype) || k0->n < 2)
        return 1;
    return vec_width(k0->n, acc_f64);
}

/* Native half loads and stores where a tensor is f16 and the device has
 * cl_khr_fp16. CLRS_FP16=storage forces vload_half / vstore_half, and
 * CLRS_FP16=native the half type even on a device that does not report
 * the extension (to try a compiler that accepts it anyway). */
static int f16_native(const clrs_plan *plan)
{
    const clrs_problem *p = &plan->problem;
    const char *e = getenv("CLRS_FP16");
    int i, any = p->in.dtype == CLRS_F16 || p->out.dtype == CLRS_F16 ||
                 (p->has_src && p->src.dtype == CLRS_F16);
    for (i = 0; i < p->n_post_ops; ++i)
        any |= p->post_ops[i].kind == CLRS_POST_BINARY &&
               p->post_ops[i].operand.dtype == CLRS_F16;
    if (!any || (e && strcmp(e, "storage") == 0))
        return 0;
    return plan->ctx->info.has_fp16 || (e && strcmp(e, "native") == 0);
}

/* Span vector path candidate (forward): kernel axis 0 is the last
 * resampled slot, with unit stride in src, dst (and index) and no block,
 * binary operands broadcast or contiguous there, and at least one whole
 * group of outputs. Returns the group width, 1 when not a candidate. */
static int phase_width(const clrs_problem *p, const kaxis *k, int m,
                       int acc_f64)
{
    const kaxis *k0 = &k[0];
    int V = acc_f64 ? 8 : 16;
    if (env_flag("CLRS_GENERIC") || blocked_beyond_0(k, m) ||
        p->naxes < 1 || k0->slot != p->naxes - 1 || k0->dblk ||
        k0->ds != 1 || p->in.strides[k0->axis] != 1 ||
        p->in.block_axis == k0->axis ||
        (p->has_index && (k0->is != 1 || k0->xblk)) ||
        !clrs__gen_dtype_vector_store(p->out.dtype) || k0->n < V ||
        p->ax[p->naxes - 1].in < V || !operands_vector_ok(p, k0))
        return 1;
    return V;
}

/* Non-temporal vector stores cast dst + offset to a vector pointer, so
 * every vector's first element must sit on a vector boundary: buffers
 * start at the device's base alignment and every stride but axis 0's is
 * a multiple of the width. */
static int nt_aligned(const clrs_plan *plan, const kaxis *k, int m, int vec)
{
    cl_uint align_bits = 0;
    const clrs_problem *p = &plan->problem;
    size_t vbytes = (size_t)vec * clrs_dtype_size(p->backward ? p->in.dtype
                                                              : p->out.dtype);
    int i;

    if (vec == 1)
        return 1;
    if (clGetDeviceInfo(plan->ctx->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                        sizeof align_bits, &align_bits, NULL) != CL_SUCCESS ||
        (size_t)align_bits < vbytes * 8)
        return 0;
    for (i = 1; i < m; ++i)
        if (k[i].n > 1 && k[i].ds % vec != 0)
            return 0;
    /* Block vectors start at block starts: the block stride counts too. */
    if (k[0].dblk && k[0].ds % vec != 0)
        return 0;
    return 1;
}

/* Non-temporal stores for an output of `need` bytes written with vec
 * lanes per work-item. */
static int want_nt(const clrs_plan *plan, size_t need, const kaxis *k,
                   int m, int vec)
{
    return !env_flag("CLRS_GENERIC") && need >= CLRS_NT_MIN_BYTES &&
           nt_aligned(plan, k, m, vec);
}

/* Fills plan->cfg and the shape part of plan->vals. */
/* The kernel axes' blocks into the configuration and their sizes and
 * strides into the values (x's only backward, where the argmax is
 * recomputed; zero otherwise). */
static void kaxes_to_config(clrs_plan *plan, const kaxis *k, int m)
{
    clrs_gen_config *c = &plan->cfg;
    int i;
    for (i = 0; i < m; ++i) {
        c->ax[i].slot = k[i].slot;
        c->ax[i].src_block = k[i].sblk;
        c->ax[i].dst_block = k[i].dblk;
        c->ax[i].idx_block = k[i].xblk;
        c->ax[i].x_block = k[i].gblk;
        plan->vals.n[i] = k[i].n;
        plan->vals.nr[i] = k[i].nr;
        plan->vals.ds[i] = k[i].ds;
        plan->vals.ss[i] = k[i].ss;
        plan->vals.is[i] = k[i].is;
        plan->vals.xs[i] = k[i].xs;
    }
}

static clrs_status lower(clrs_plan *plan, kaxis *k, int *m)
{
    const clrs_problem *p = &plan->problem;
    clrs_gen_config *c = &plan->cfg;
    int i;

    memset(c, 0, sizeof *c);
    for (i = 0; i < p->n_post_ops; ++i) {
        const clrs_post_op *po = &p->post_ops[i];
        CLRS_CHECK(clrs__gen_post_supported((int)po->kind, po->alg) &&
                       (po->kind != CLRS_POST_BINARY ||
                        clrs__gen_dtype_supported(po->operand.dtype)),
                   CLRS_ERR_NOT_IMPLEMENTED,
                   "no OpenCL kernel for post-op %d in this version", i);
    }
    CLRS_CHECK(clrs__gen_dtype_supported(p->in.dtype) &&
                   clrs__gen_dtype_supported(p->out.dtype),
               CLRS_ERR_NOT_IMPLEMENTED,
               "no OpenCL kernel for dtypes %s -> %s in this version",
               clrs_dtype_name(p->in.dtype), clrs_dtype_name(p->out.dtype));

    *m = lower_axes(p, k);
    c->cls = p->mode == CLRS_MODE_MAX ? CLRS_GEN_MAX : CLRS_GEN_WSUM;
    c->rank = *m;
    c->nslots = p->naxes;
    kaxes_to_config(plan, k, *m);
    c->src = p->in.dtype;
    c->dst = p->out.dtype;
    /* f64 tensors accumulate in double (SPEC 1); so do s32 ones where the
     * device has fp64, so that nearest and max stay exact beyond 2^24. */
    c->acc_f64 = c->src == CLRS_F64 || c->dst == CLRS_F64 ||
                 (c->src == CLRS_S32 && plan->ctx->info.has_fp64);
    c->f16_native = f16_native(plan);
    c->has_index = p->has_index;
    c->index_only = plan->index_only;
    c->index = p->index.dtype;
    c->plane = p->index_format == CLRS_INDEX_PLANE;
    c->nan_ignore = p->mode == CLRS_MODE_MAX &&
                    p->nan_policy == CLRS_NAN_IGNORE;
    c->pad_taps = p->padding != CLRS_PAD_EDGE;
    c->vec = choose_vec(p, k, *m, c->acc_f64);
    c->tail = c->vec > 1 && k[0].n % c->vec != 0;
    /* The span vector path, until the tap tables turn it down. */
    plan->nt_scalar = want_nt(plan, plan->need_dst, k, *m, c->vec);
    if (c->vec == 1) {
        int V = phase_width(p, k, *m, c->acc_f64);
        if (V > 1) {
            c->phase = 1;
            c->vec = V;
            plan->nt_phase = want_nt(plan, plan->need_dst, k, *m, V);
        }
    }
    c->npost = p->n_post_ops;
    for (i = 0; i < p->n_post_ops; ++i) {
        const clrs_post_op *po = &p->post_ops[i];
        int q;
        c->post[i].kind = (int)po->kind;
        c->post[i].alg = po->alg;
        c->post[i].dt = po->kind == CLRS_POST_BINARY ? po->operand.dtype
                                                     : CLRS_F32;
        c->post[i].bvec = c->vec == 1        ? CLRS_BVEC_SCALAR
                          : k[0].bs[i] == 0 ? CLRS_BVEC_BCAST
                                            : CLRS_BVEC_LOAD;
        plan->vals.pa[i] = po->kind == CLRS_POST_SUM ? po->scale : po->alpha;
        plan->vals.pb[i] = po->beta;
        for (q = 0; q < *m; ++q) {
            plan->vals.bs[i][q] = k[q].bs[i];
            c->ax[q].op_block[i] = k[q].bblk[i];
        }
    }
    /* Scalar non-temporal stores also stop LLVM from vectorising PoCL's
     * work-item loop into AVX-512 gathers: measured on the development
     * machine (bilinear 2x, nchw) that is 4x faster, not slower. */
    c->nt = c->phase ? plan->nt_phase : plan->nt_scalar;

    plan->vals.pad = p->pad_value;
    plan->vals.empty = p->mode == CLRS_MODE_MAX ? (double)NAN
                       : p->coord == CLRS_COORD_TF_CROP_AND_RESIZE
                           ? p->extrapolation
                           : 0.0;
    return CLRS_SUCCESS;
}

/* ---- tap tables ------------------------------------------------------------ */

/* Host images of the two table buffers, filled per resampled axis. */
typedef struct tables {
    int64_t *i; /* converted to int32 when the offsets are 32-bit */
    double *f;
    size_t ni, nf, capi, capf;
} tables;

static clrs_status grow(tables *t, size_t ni, size_t nf)
{
    if (t->ni + ni > t->capi) {
        size_t cap = (t->ni + ni) * 2;
        int64_t *v = realloc(t->i, cap * sizeof *v);
        CLRS_CHECK(v != NULL, CLRS_ERR_OUT_OF_MEMORY,
                   "out of memory for %zu tap table entries", cap);
        t->i = v;
        t->capi = cap;
    }
    if (t->nf + nf > t->capf) {
        size_t cap = (t->nf + nf) * 2;
        double *v = realloc(t->f, cap * sizeof *v);
        CLRS_CHECK(v != NULL, CLRS_ERR_OUT_OF_MEMORY,
                   "out of memory for %zu tap weights", cap);
        t->f = v;
        t->capf = cap;
    }
    return CLRS_SUCCESS;
}

/* Element offset of index i along tensor axis a of t (blocked or not). */
static int64_t axis_term(const struct clrs_tensor_desc *t, int a, int64_t i)
{
    if (t->block_axis == a)
        return (i / t->block) * t->strides[a] + i % t->block;
    return i * t->strides[a];
}

/* Entry j of a table in kernel order. Variable tap counts: the tap list's
 * own order. Fixed count K over O outputs, stored tap-major: entry j is
 * tap t = j / O of output o = j % O, which the tap list holds at o * K + t. */
static size_t pos(int64_t j, int K, int64_t O)
{
    if (!K)
        return (size_t)j;
    return (size_t)((j % O) * K + j / O);
}

/* ---- span vector path ------------------------------------------------------
 * Forward, channels-first: the outputs along kernel axis 0 (the last
 * resampled slot, contiguous) are cut into groups of vec. A group whose
 * taps all lie within nspan * vec inputs of a base index is described by
 * its base and the pattern of its taps relative to the base; at a
 * rational scale the interior groups share a few patterns, which the
 * generator compiles into constant shuffles. */

/* Back to one output per work-item. */
static void phase_off(clrs_plan *plan)
{
    clrs_gen_config *c = &plan->cfg;
    int i;
    c->phase = 0;
    c->vec = 1;
    c->tail = 0;
    c->nspan = 0;
    c->npat = 0;
    c->ntaps = 0;
    memset(c->rel, 0, sizeof c->rel);
    memset(c->code, 0, sizeof c->code);
    for (i = 0; i < c->npost; ++i)
        c->post[i].bvec = CLRS_BVEC_SCALAR;
    c->nt = plan->nt_scalar;
}

typedef struct phase_pat {
    signed char rel[CLRS_GEN_MAX_FIXED][CLRS_GEN_MAX_LANES];
    signed char code[CLRS_GEN_MAX_FIXED][CLRS_GEN_MAX_LANES];
} phase_pat;

/* Distinct patterns tracked before the most frequent are kept. */
#define PHASE_CANDIDATES 32

/* What the span path groups, forward or backward: position i of the
 * written axis (an output forward, an input backward) has the entries
 * start[i] .. start[i + 1] - 1, each naming an element of the read axis
 * (-1: a padding tap), a window code and a weight. */
typedef struct phase_lists {
    const int64_t *start;
    const clrs_tap *fwd;  /* forward: the tap list's taps, or */
    const clrs_ttap *bwd; /* backward: the transposed entries */
    int64_t npos;         /* positions along the written axis */
    int64_t nread;        /* elements along the read axis */
    int fixed;            /* K: every position has K taps (ntaps = K) */
    signed char absent;   /* rel past a lane's last entry */
    int empty_ok;         /* a lane without entries can take a pattern */
    int pad_stops;        /* a padding entry keeps its group off */
    int codes;            /* patterns carry the window codes */
    int codes_used;       /* ... which the kernel reads as constants */
    int weights;          /* write the group-major weights (vals.fg) */
} phase_lists;

static int64_t phase_idx(const phase_lists *s, int64_t e)
{
    return s->fwd ? s->fwd[e].idx : s->bwd[e].o;
}

static int phase_code(const phase_lists *s, int64_t e)
{
    return s->fwd ? s->fwd[e].j : s->bwd[e].j;
}

static double phase_weight(const phase_lists *s, int64_t e)
{
    return s->fwd ? s->fwd[e].w : s->bwd[e].w;
}

/* The group table (and weights) of the last slot from its lists, or the
 * path turned down (phase_off) when too few groups share a pattern. */
static clrs_status phase_build(clrs_plan *plan, const phase_lists *s,
                               tables *t)
{
    clrs_gen_config *c = &plan->cfg;
    const int V = c->vec;
    const int64_t G = (s->npos + V - 1) / V;
    phase_pat *cand = NULL, cur;
    int64_t *base = NULL, g, maxr = 0, covered = 0;
    int *which = NULL, ncand = 0, count[PHASE_CANDIDATES] = {0};
    int id[PHASE_CANDIDATES], nkeep = 0, i, l, e, T = s->fixed;
    clrs_status st = CLRS_SUCCESS;

    if (V > CLRS_GEN_MAX_LANES)
        goto off;
    base = malloc((size_t)G * sizeof *base);
    which = malloc((size_t)G * sizeof *which);
    cand = malloc(PHASE_CANDIDATES * sizeof *cand);
    if (!base || !which || !cand) {
        st = clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                         "out of memory for %" PRId64 " vector groups", G);
        goto out;
    }
    /* Pass 1: each whole group's range on the read axis (-1: no
     * pattern). */
    for (g = 0; g < G; ++g) {
        int64_t lo = INT64_MAX, hi = -1;
        which[g] = -1;
        base[g] = -1;
        if ((g + 1) * V > s->npos)
            continue;
        for (l = 0; l < V; ++l) {
            int64_t b = s->start[g * V + l], n = s->start[g * V + l + 1] - b;
            if ((n < 1 && !s->empty_ok) || n > CLRS_GEN_MAX_FIXED)
                lo = -2; /* no taps (the empty value), or too many */
            for (e = 0; e < (int)n && lo != -2; ++e) {
                int64_t idx = phase_idx(s, b + e);
                if ((idx < 0 && s->pad_stops) ||
                    (s->codes_used && phase_code(s, b + e) > 127))
                    lo = -2; /* no plane code for a padding lane, or no
                                window code constant */
                else if (idx >= 0 && idx < lo)
                    lo = idx;
                if (idx > hi)
                    hi = idx;
            }
        }
        if (lo == -2)
            continue;
        if (hi < 0)
            lo = hi = 0; /* padding only, or no entries at all */
        if (hi - lo + 1 > 4 * (int64_t)V)
            continue;
        base[g] = lo;
        which[g] = 0;
        if (hi - lo + 1 > maxr)
            maxr = hi - lo + 1;
    }
    c->nspan = (int)((maxr + V - 1) / V);
    if (c->nspan < 1)
        c->nspan = 1;
    if (s->nread < (int64_t)c->nspan * V)
        goto off;
    /* Pass 2: patterns relative to the base, moved back where the loads
     * would pass the end of the read axis. */
    for (g = 0; g < G; ++g) {
        if (which[g] < 0)
            continue;
        if (base[g] + (int64_t)c->nspan * V > s->nread)
            base[g] = s->nread - (int64_t)c->nspan * V;
        memset(&cur, 0, sizeof cur);
        memset(cur.rel, s->absent, sizeof cur.rel);
        for (l = 0; l < V; ++l) {
            int64_t b = s->start[g * V + l], n = s->start[g * V + l + 1] - b;
            for (e = 0; e < (int)n; ++e) {
                int64_t idx = phase_idx(s, b + e);
                cur.rel[e][l] = (signed char)(idx < 0 ? -1 : idx - base[g]);
                if (s->codes)
                    cur.code[e][l] = (signed char)phase_code(s, b + e);
            }
        }
        for (i = 0; i < ncand; ++i)
            if (memcmp(&cand[i], &cur, sizeof cur) == 0)
                break;
        if (i == ncand && ncand < PHASE_CANDIDATES)
            cand[ncand++] = cur;
        which[g] = i < ncand ? i : -1;
        if (which[g] >= 0)
            ++count[i];
    }
    /* The most frequent patterns (first seen first among equals); without
     * a fixed count, ntaps is the longest lane they hold. */
    for (i = 0; i < PHASE_CANDIDATES; ++i)
        id[i] = -1;
    while (nkeep < CLRS_GEN_MAX_PAT) {
        int best = -1;
        for (i = 0; i < ncand; ++i)
            if (count[i] > 0 && (best < 0 || count[i] > count[best]))
                best = i;
        if (best < 0)
            break;
        id[best] = nkeep;
        memcpy(c->rel[nkeep], cand[best].rel, sizeof cand[best].rel);
        memcpy(c->code[nkeep], cand[best].code, sizeof cand[best].code);
        for (e = 0; e < CLRS_GEN_MAX_FIXED && !s->fixed; ++e)
            for (l = 0; l < V; ++l)
                if (cand[best].rel[e][l] != s->absent && e + 1 > T)
                    T = e + 1;
        covered += count[best];
        count[best] = 0;
        ++nkeep;
    }
    /* Mostly lane by lane: the plain scalar kernel does better. */
    if (covered * 2 < G || T < 1)
        goto off;
    c->npat = nkeep;
    c->ntaps = T;
    plan->span_coverage = (double)covered / (double)G;
    st = grow(t, (size_t)(2 * G), s->weights ? (size_t)(G * T * V) : 0);
    if (st != CLRS_SUCCESS)
        goto out;
    plan->vals.pg = (int64_t)t->ni;
    plan->vals.fg = (int64_t)t->nf;
    for (g = 0; g < G; ++g) {
        int q = which[g] >= 0 ? id[which[g]] : -1;
        t->i[t->ni++] = q >= 0 ? base[g] : 0;
        t->i[t->ni++] = q;
        /* Group-major weights, 0 where a lane has no such entry. */
        for (e = 0; e < T && s->weights; ++e)
            for (l = 0; l < V; ++l) {
                int64_t b = 0, n = 0;
                if (q >= 0) {
                    b = s->start[g * V + l];
                    n = s->start[g * V + l + 1] - b;
                }
                t->f[t->nf++] = e < n ? phase_weight(s, b + e) : 0.0;
            }
    }
    goto out;
off:
    phase_off(plan);
out:
    free(base);
    free(which);
    free(cand);
    return st;
}

/* Forward: slot k's group table from its tap list. A varying tap count
 * (K = 0): weighted sums only, each lane's own taps, the missing ones
 * absent (-2: value 0, weight 0), weights group-major. */
static clrs_status phase_tables(clrs_plan *plan, int k,
                                const clrs_taplist *tl, tables *t)
{
    const clrs_problem *p = &plan->problem;
    const clrs_gen_config *c = &plan->cfg;
    const int K = c->fixed[k];
    phase_lists s;

    if ((K == 0 && c->cls != CLRS_GEN_WSUM) || K > CLRS_GEN_MAX_FIXED) {
        phase_off(plan);
        return CLRS_SUCCESS;
    }
    memset(&s, 0, sizeof s);
    s.start = tl->start;
    s.fwd = tl->t;
    s.npos = p->ax[k].out;
    s.nread = p->ax[k].in;
    s.fixed = K;
    s.absent = -2;
    s.pad_stops = c->has_index && c->plane;
    s.codes = 1;
    s.codes_used = c->has_index && !c->plane;
    s.weights = K == 0;
    return phase_build(plan, &s, t);
}

/* Slot k's tables, from exactly the taps the reference uses (taps.c):
 * starts, src offsets (a padding tap gets -span, so any sum holding one
 * is negative), index codes (window box position, or plane index with
 * -plane_size for padding) and weights. */
static clrs_status slot_tables(clrs_plan *plan, int k, tables *t,
                               int64_t src_span, int64_t plane_size)
{
    const clrs_problem *p = &plan->problem;
    const clrs_axis_map *ax = &p->ax[k];
    int a = ax->axis, j, has_code = plan->cfg.has_index;
    int wsum = plan->cfg.cls == CLRS_GEN_WSUM;
    int64_t box = 1, plane = 1, o;
    int K;
    clrs_taplist tl;
    clrs_status st;
    size_t n;

    for (j = k + 1; j < p->naxes; ++j) {
        box *= p->ax[j].taps;
        plane *= p->ax[j].in;
    }
    st = clrs__axis_taps(p, a, &tl);
    n = tl.n;
    if (st == CLRS_SUCCESS)
        st = grow(t, (size_t)ax->out + 1 + n * (has_code ? 2 : 1),
                  wsum ? n : 0);
    if (st < 0) {
        clrs__taplist_free(&tl);
        return st;
    }
    plan->vals.st[k] = (int64_t)t->ni;
    for (o = 0; o <= ax->out; ++o)
        t->i[t->ni++] = tl.start[o];
    /* A constant tap count lets the kernel compute the starts. */
    plan->cfg.fixed[k] = 0;
    if (!env_flag("CLRS_GENERIC") && tl.start[1] > 0 && tl.start[1] <= 8) {
        plan->cfg.fixed[k] = (int)tl.start[1];
        for (o = 0; o < ax->out; ++o)
            if (tl.start[o + 1] - tl.start[o] != tl.start[1])
                plan->cfg.fixed[k] = 0;
    }
    /* Fixed-count axes are stored tap-major (see codegen.c). */
    K = plan->cfg.fixed[k];
    plan->vals.of[k] = (int64_t)t->ni;
    for (j = 0; (size_t)j < n; ++j) {
        const clrs_tap *tp = &tl.t[pos(j, K, ax->out)];
        t->i[t->ni++] =
            tp->idx >= 0 ? axis_term(&p->in, a, tp->idx) : -src_span;
    }
    if (has_code) {
        plan->vals.cd[k] = (int64_t)t->ni;
        for (j = 0; (size_t)j < n; ++j) {
            const clrs_tap *tp = &tl.t[pos(j, K, ax->out)];
            if (!plan->cfg.plane)
                t->i[t->ni++] = (int64_t)tp->j * box;
            else
                t->i[t->ni++] = tp->idx >= 0 ? tp->idx * plane : -plane_size;
        }
    }
    if (wsum) {
        plan->vals.fw[k] = (int64_t)t->nf;
        for (j = 0; (size_t)j < n; ++j)
            t->f[t->nf++] = tl.t[pos(j, K, ax->out)].w;
    }
    st = CLRS_SUCCESS;
    if (plan->cfg.phase && k == p->naxes - 1)
        st = phase_tables(plan, k, &tl, t);
    clrs__taplist_free(&tl);
    return st;
}

/* A device buffer the plan owns: a table copied from host (read only) or,
 * with host NULL, scratch the kernels write. */
static clrs_status make_buffer(clrs_plan *plan, size_t bytes, void *host,
                               cl_mem *out, const char *what)
{
    cl_int err;
    *out = clCreateBuffer(plan->ctx->cl_ctx,
                          host ? CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR
                               : CL_MEM_READ_WRITE,
                          bytes, host, &err);
    if (err != CL_SUCCESS) {
        char call[64];
        *out = NULL;
        snprintf(call, sizeof call, "clCreateBuffer(%s, %zu bytes)", what,
                 bytes);
        return clrs__cl_error(err, call);
    }
    return CLRS_SUCCESS;
}

/* Dummy entries for empty tables (no zero-size buffers), the offset
 * width (bound: the largest value the kernel forms from tensor spans),
 * narrowing to it, and the upload. */
static clrs_status finish_tables(clrs_plan *plan, tables *tp, int64_t bound)
{
    tables t = *tp;
    clrs_status st = CLRS_SUCCESS;
    size_t i;

    if (st == CLRS_SUCCESS && t.ni == 0)
        st = grow(&t, 1, 0); /* no resampled axis: a dummy table */
    if (st == CLRS_SUCCESS && t.ni == 0)
        t.i[t.ni++] = 0;
    if (st == CLRS_SUCCESS && plan->cfg.cls == CLRS_GEN_WSUM && t.nf == 0)
        st = grow(&t, 0, 1);
    if (st == CLRS_SUCCESS && plan->cfg.cls == CLRS_GEN_WSUM && t.nf == 0)
        t.f[t.nf++] = 0;

    if ((int64_t)t.ni + 1 > bound)
        bound = (int64_t)t.ni + 1;
    plan->cfg.long_off = bound > (int64_t)INT_MAX - 64;

    if (st == CLRS_SUCCESS) {
        size_t ib = plan->cfg.long_off ? sizeof(int64_t) : sizeof(int32_t);
        if (!plan->cfg.long_off) {
            int32_t *v = (int32_t *)t.i; /* narrowing in place, front first */
            for (i = 0; i < t.ni; ++i)
                v[i] = (int32_t)t.i[i];
        }
        st = make_buffer(plan, t.ni * ib, t.i, &plan->itab, "tap table");
    }
    if (st == CLRS_SUCCESS && plan->cfg.cls == CLRS_GEN_WSUM) {
        if (!plan->cfg.acc_f64) {
            float *v = (float *)t.f;
            for (i = 0; i < t.nf; ++i)
                v[i] = (float)t.f[i];
        }
        st = make_buffer(plan, t.nf * (plan->cfg.acc_f64 ? 8 : 4), t.f,
                         &plan->ftab, "weight table");
    }
    *tp = t; /* grow() may have moved the arrays: the caller frees them */
    return st;
}

/* Builds every slot's tables, picks the offset width and uploads. */
static clrs_status upload_tables(clrs_plan *plan)
{
    const clrs_problem *p = &plan->problem;
    int64_t src_span = clrs__tensor_span(&p->in), plane_size = 1, bound;
    tables t = {0};
    clrs_status st = CLRS_SUCCESS;
    int k;

    for (k = 0; k < p->naxes; ++k)
        plane_size *= p->ax[k].in;
    for (k = 0; k < p->naxes && st == CLRS_SUCCESS; ++k)
        st = slot_tables(plan, k, &t, src_span, plane_size);

    /* 32-bit offsets when every value the kernel forms fits: padding
     * sentinels summed over up to six axes, sizes, table positions. */
    bound = 7 * (src_span > plane_size ? src_span : plane_size);
    if (clrs__tensor_span(&p->out) > bound)
        bound = clrs__tensor_span(&p->out);
    if (p->has_index && clrs__tensor_span(&p->index) > bound)
        bound = clrs__tensor_span(&p->index);
    if (st == CLRS_SUCCESS)
        st = finish_tables(plan, &t, bound);
    free(t.i);
    free(t.f);
    return st;
}

/* ---- backward -------------------------------------------------------------
 * A gather (SPEC 4): one work-item per diff_src element sums the diff_dst
 * elements that read it, through per-axis transposes of the forward tap
 * lists (taps.c), so dx = A^T dy with exactly the forward taps and
 * weights, in a fixed order, without atomics. */

/* Kernel axes over diff_src, fastest dx stride first (consecutive
 * work-items write consecutive addresses). Identity axes carry the
 * strides of diff_dst, the index tensor and x; resampled ones find
 * theirs in the tables. */
static int lower_axes_bwd(const clrs_problem *p, kaxis *k)
{
    int a, m = 0, has_x = p->has_src && !p->has_index;

    for (a = 0; a < p->rank; ++a) {
        kaxis t;
        memset(&t, 0, sizeof t);
        t.n = p->in.dims[a];
        t.slot = p->slot[a];
        t.axis = a;
        t.dblk = blk_of(&p->in, a);
        if (t.slot < 0 && t.n == 1 && !t.dblk)
            continue;
        pad_blocked(&t);
        t.ds = p->in.strides[a];
        if (t.slot < 0) {
            t.ss = p->out.strides[a];
            t.sblk = blk_of(&p->out, a);
            if (p->has_index) {
                t.is = p->index.strides[a];
                t.xblk = blk_of(&p->index, a);
            }
            if (has_x) {
                t.xs = p->src.strides[a];
                t.gblk = blk_of(&p->src, a);
            }
        }
        m = insert_sorted(k, m, &t);
    }
    return merge_axes(k, m, p->has_index);
}

/* Span vector path candidate (backward): kernel axis 0 is the last
 * resampled slot, with unit stride in diff_src, diff_dst (and the index
 * tensor) and no block,
 * and at least one whole group of diff_src elements and of diff_dst
 * elements. Returns the group width, 1 when not a candidate. */
static int phase_width_bwd(const clrs_problem *p, const kaxis *k, int m,
                           int acc_f64)
{
    const kaxis *k0 = &k[0];
    int V = acc_f64 ? 8 : 16;
    if (env_flag("CLRS_GENERIC") || blocked_beyond_0(k, m) ||
        p->naxes < 1 || k0->slot != p->naxes - 1 || k0->dblk ||
        k0->ds != 1 || p->out.strides[k0->axis] != 1 ||
        p->out.block_axis == k0->axis ||
        !clrs__gen_dtype_vector_store(p->in.dtype) || k0->n < V ||
        p->ax[p->naxes - 1].out < V ||
        (p->has_index && (p->index.strides[k0->axis] != 1 ||
                          p->index.block_axis == k0->axis)))
        return 1;
    return V;
}

/* Fills plan->cfg and the shape part of plan->vals for a backward plan. */
static clrs_status lower_backward(clrs_plan *plan, kaxis *k, int *m)
{
    const clrs_problem *p = &plan->problem;
    clrs_gen_config *c = &plan->cfg;
    int has_x = p->has_src && !p->has_index;
    const kaxis *k0 = &k[0];

    memset(c, 0, sizeof *c);
    CLRS_CHECK(clrs__gen_dtype_supported(p->in.dtype) &&
                   clrs__gen_dtype_supported(p->out.dtype) &&
                   (!has_x || clrs__gen_dtype_supported(p->src.dtype)),
               CLRS_ERR_NOT_IMPLEMENTED,
               "no OpenCL backward kernel for dtypes %s <- %s in this "
               "version",
               clrs_dtype_name(p->in.dtype), clrs_dtype_name(p->out.dtype));
    *m = lower_axes_bwd(p, k);
    c->backward = 1;
    c->accumulate = p->accumulate;
    c->recompute = has_x;
    c->x = has_x ? p->src.dtype : CLRS_F32;
    c->cls = p->mode == CLRS_MODE_MAX ? CLRS_GEN_MAX : CLRS_GEN_WSUM;
    c->rank = *m;
    c->nslots = p->naxes;
    kaxes_to_config(plan, k, *m);
    c->src = p->out.dtype; /* read: diff_dst */
    c->dst = p->in.dtype;  /* written: diff_src */
    c->acc_f64 = c->src == CLRS_F64 || c->dst == CLRS_F64 ||
                 (has_x && c->x == CLRS_F64);
    c->f16_native = f16_native(plan);
    c->has_index = p->has_index;
    c->index = p->index.dtype;
    c->plane = p->index_format == CLRS_INDEX_PLANE;
    c->nan_ignore = has_x && p->nan_policy == CLRS_NAN_IGNORE;
    c->pad_taps = has_x && p->padding != CLRS_PAD_EDGE;
    /* Vectors along a contiguous identity axis of every tensor touched. */
    c->vec = 1;
    if (!env_flag("CLRS_GENERIC") && !blocked_beyond_0(k, *m) &&
        clrs__gen_dtype_vector_store(c->dst) &&
        block_vec(k0, !p->has_index || k0->xblk == k0->dblk,
                  !has_x || k0->gblk == k0->dblk))
        c->vec = c->acc_f64 && k0->dblk > 8 ? 8 : k0->dblk;
    else if (!env_flag("CLRS_GENERIC") && !blocked_beyond_0(k, *m) &&
             k0->slot < 0 && !k0->sblk &&
        !k0->dblk && !k0->xblk && !k0->gblk && k0->ss == 1 && k0->ds == 1 &&
        (!p->has_index || k0->is == 1) && (!has_x || k0->xs == 1) &&
        clrs__gen_dtype_vector_store(c->dst) && k0->n >= 2)
        c->vec = vec_width(k0->n, c->acc_f64);
    c->tail = c->vec > 1 && k0->n % c->vec != 0;
    plan->nt_scalar = want_nt(plan, plan->need_diff_src, k, *m, c->vec);
    /* The span vector path, until the tap tables turn it down. */
    if (c->vec == 1 && !c->recompute) {
        int V = phase_width_bwd(p, k, *m, c->acc_f64);
        if (V > 1) {
            c->phase = 1;
            c->vec = V;
            plan->nt_phase = want_nt(plan, plan->need_diff_src, k, *m, V);
        }
    }
    c->nt = c->phase ? plan->nt_phase : plan->nt_scalar;
    plan->vals.pad = p->pad_value;
    return CLRS_SUCCESS;
}

/* Backward: slot k's group table and group-major weights from its
 * transposed taps: groups of diff_src elements, each lane's entries by
 * increasing output index, -1 past a lane's last one. */
static clrs_status phase_tables_bwd(clrs_plan *plan, int k,
                                    const clrs_ttaplist *tt, tables *t)
{
    const clrs_problem *p = &plan->problem;
    const clrs_gen_config *c = &plan->cfg;
    phase_lists s;

    memset(&s, 0, sizeof s);
    s.start = tt->start;
    s.bwd = tt->t;
    s.npos = p->ax[k].in;
    s.nread = p->ax[k].out;
    s.absent = -1;
    s.empty_ok = 1;
    s.codes = s.codes_used = c->has_index && !c->plane;
    s.weights = c->cls == CLRS_GEN_WSUM;
    return phase_build(plan, &s, t);
}

/* Slot k's backward tables: transposed starts by input index, then per
 * entry the diff_dst offset, the index tensor offset, the window code
 * (box position * box stride) or, to recompute, the output index, and
 * the weight; to recompute also the forward starts, x offsets (-x_span
 * for a padding tap) and plane codes (-plane_size for a padding tap). */
static clrs_status slot_tables_bwd(clrs_plan *plan, int k, tables *t,
                                   int64_t x_span, int64_t plane_size)
{
    const clrs_problem *p = &plan->problem;
    const clrs_gen_config *c = &plan->cfg;
    const clrs_axis_map *ax = &p->ax[k];
    int a = ax->axis, j, wsum = c->cls == CLRS_GEN_WSUM;
    int window = c->has_index && !c->plane;
    int64_t box = 1, plane = 1, i, o;
    size_t e, per;
    clrs_taplist tl;
    clrs_ttaplist tt;
    clrs_status st;

    for (j = k + 1; j < p->naxes; ++j) {
        box *= p->ax[j].taps;
        plane *= p->ax[j].in;
    }
    memset(&tt, 0, sizeof tt);
    st = clrs__axis_taps(p, a, &tl);
    /* Window codes tell duplicate taps of one output apart; everywhere
     * else one entry per (input, output) pair, or a plane index match
     * would count an output twice. */
    if (st == CLRS_SUCCESS)
        st = clrs__taplist_transpose(&tl, ax->out, ax->in, !window, &tt);
    per = 1 + (c->has_index ? 1 : 0) + (window || c->recompute ? 1 : 0);
    if (st == CLRS_SUCCESS)
        st = grow(t,
                  (size_t)ax->in + 1 + tt.n * per +
                      (c->recompute ? (size_t)ax->out + 1 + 2 * tl.n : 0),
                  wsum ? tt.n : 0);
    if (st < 0) {
        clrs__taplist_free(&tl);
        clrs__ttaplist_free(&tt);
        return st;
    }
    plan->vals.pl[k] = plane;
    plan->vals.st[k] = (int64_t)t->ni;
    for (i = 0; i <= ax->in; ++i)
        t->i[t->ni++] = tt.start[i];
    plan->vals.of[k] = (int64_t)t->ni;
    for (e = 0; e < tt.n; ++e)
        t->i[t->ni++] = axis_term(&p->out, a, tt.t[e].o);
    if (c->has_index) {
        plan->vals.ix[k] = (int64_t)t->ni;
        for (e = 0; e < tt.n; ++e)
            t->i[t->ni++] = axis_term(&p->index, a, tt.t[e].o);
    }
    if (window || c->recompute) {
        plan->vals.cd[k] = (int64_t)t->ni;
        for (e = 0; e < tt.n; ++e)
            t->i[t->ni++] = window ? (int64_t)tt.t[e].j * box : tt.t[e].o;
    }
    if (wsum) {
        plan->vals.fw[k] = (int64_t)t->nf;
        for (e = 0; e < tt.n; ++e)
            t->f[t->nf++] = tt.t[e].w;
    }
    if (c->phase && k == p->naxes - 1) {
        st = phase_tables_bwd(plan, k, &tt, t);
        if (st != CLRS_SUCCESS) {
            clrs__taplist_free(&tl);
            clrs__ttaplist_free(&tt);
            return st;
        }
    }
    if (c->recompute) {
        plan->vals.fst[k] = (int64_t)t->ni;
        for (o = 0; o <= ax->out; ++o)
            t->i[t->ni++] = tl.start[o];
        plan->vals.fof[k] = (int64_t)t->ni;
        for (e = 0; e < tl.n; ++e)
            t->i[t->ni++] = tl.t[e].idx >= 0
                                ? axis_term(&p->src, a, tl.t[e].idx)
                                : -x_span;
        plan->vals.fcd[k] = (int64_t)t->ni;
        for (e = 0; e < tl.n; ++e)
            t->i[t->ni++] =
                tl.t[e].idx >= 0 ? tl.t[e].idx * plane : -plane_size;
    }
    clrs__taplist_free(&tl);
    clrs__ttaplist_free(&tt);
    return CLRS_SUCCESS;
}

static clrs_status upload_backward_tables(clrs_plan *plan)
{
    const clrs_problem *p = &plan->problem;
    int64_t x_span = plan->cfg.recompute ? clrs__tensor_span(&p->src) : 0;
    int64_t plane_size = 1, bound;
    tables t = {0};
    clrs_status st = CLRS_SUCCESS;
    int k;

    for (k = 0; k < p->naxes; ++k)
        plane_size *= p->ax[k].in;
    for (k = 0; k < p->naxes && st == CLRS_SUCCESS; ++k)
        st = slot_tables_bwd(plan, k, &t, x_span, plane_size);
    /* Sums of up to six per-axis terms, padding sentinels included. */
    bound = clrs__tensor_span(&p->in);
    if (clrs__tensor_span(&p->out) > bound)
        bound = clrs__tensor_span(&p->out);
    if (p->has_index && clrs__tensor_span(&p->index) > bound)
        bound = clrs__tensor_span(&p->index);
    if (x_span > bound)
        bound = x_span;
    if (plane_size > bound)
        bound = plane_size;
    if (p->window_volume > bound)
        bound = p->window_volume;
    bound *= 7;
    if (st == CLRS_SUCCESS)
        st = finish_tables(plan, &t, bound);
    free(t.i);
    free(t.f);
    return st;
}

/* ---- kernel -------------------------------------------------------------- */

static clrs_status gen_source(const void *arg, const char *key, char **src)
{
    return clrs__gen_source((const clrs_gen_config *)arg, key, src);
}

static clrs_status set_arg(cl_kernel kern, cl_uint i, size_t size,
                           const void *value, const char *name)
{
    cl_int err = clSetKernelArg(kern, i, size, value);
    if (err != CL_SUCCESS) {
        char call[64];
        snprintf(call, sizeof call, "clSetKernelArg(%s)", name);
        return clrs__cl_error(err, call);
    }
    return CLRS_SUCCESS;
}

/* Every argument but the caller's buffers is set once, here; execute sets
 * src, dst and index only. */
static clrs_status set_fixed_args(clrs_plan *plan)
{
    clrs_gen_arg args[CLRS_GEN_MAX_ARGS];
    int n = clrs__gen_args(&plan->cfg, &plan->vals, args), i;

    for (i = 0; i < n; ++i) {
        const clrs_gen_arg *a = &args[i];
        cl_uint at = (cl_uint)i;
        switch (a->kind) {
        case CLRS_ARG_SRC:
            plan->arg_src = at;
            break;
        case CLRS_ARG_DST:
            plan->arg_dst = at;
            break;
        case CLRS_ARG_INDEX:
            plan->arg_index = at;
            break;
        case CLRS_ARG_X:
            plan->arg_x = at;
            break;
        case CLRS_ARG_POST:
            plan->arg_post[a->i] = at;
            break;
        case CLRS_ARG_ITAB:
            CLRS_TRY(set_arg(plan->kernel, at, sizeof(cl_mem), &plan->itab,
                             a->name));
            break;
        case CLRS_ARG_FTAB:
            CLRS_TRY(set_arg(plan->kernel, at, sizeof(cl_mem), &plan->ftab,
                             a->name));
            break;
        case CLRS_ARG_OFF:
            if (plan->cfg.long_off) {
                cl_long v = (cl_long)a->i;
                CLRS_TRY(set_arg(plan->kernel, at, sizeof v, &v, a->name));
            } else {
                cl_int v = (cl_int)a->i;
                CLRS_TRY(set_arg(plan->kernel, at, sizeof v, &v, a->name));
            }
            break;
        case CLRS_ARG_ACC:
            if (plan->cfg.acc_f64) {
                cl_double v = a->d;
                CLRS_TRY(set_arg(plan->kernel, at, sizeof v, &v, a->name));
            } else {
                cl_float v = (cl_float)a->d;
                CLRS_TRY(set_arg(plan->kernel, at, sizeof v, &v, a->name));
            }
            break;
        }
    }
    return CLRS_SUCCESS;
}

/* NDRange: kernel axes 0 and 1 are dimensions 0 and 1, the rest folded
 * into dimension 2. The local size is left to the driver: on PoCL that
 * measured several times faster than any fixed shape (DESIGN.md). */
static void work_sizes(clrs_plan *plan)
{
    const clrs_gen_config *c = &plan->cfg;
    const int64_t *n = plan->vals.n;
    int p;

    plan->work_dim = (cl_uint)(c->rank < 3 ? c->rank : 3);
    plan->global[0] = (size_t)((n[0] + c->vec - 1) / c->vec);
    plan->global[1] = c->rank > 1 ? (size_t)n[1] : 1;
    plan->global[2] = 1;
    for (p = 2; p < c->rank; ++p)
        plan->global[2] *= (size_t)n[p];
    plan->use_local = 0;
}

/* Lowers, generates, builds (or fetches from the context's map), uploads
 * the tap tables and sets the fixed arguments. */
static clrs_status build_kernel(clrs_plan *plan)
{
    const char *kname =
        plan->problem.backward ? "clrs_backward" : "clrs_forward";
    kaxis k[CLRS_MAX_RANK];
    char *key = NULL;
    cl_int err;
    clrs_status st;
    int m;

    if (plan->problem.backward) {
        CLRS_TRY(lower_backward(plan, k, &m));
        CLRS_TRY(upload_backward_tables(plan)); /* decides cfg.long_off */
    } else {
        CLRS_TRY(lower(plan, k, &m));
        CLRS_TRY(upload_tables(plan)); /* decides cfg.long_off */
    }
    CLRS_TRY(clrs__gen_key(&plan->cfg, &key));
    /* No -cl-fast-relaxed-math, ever: taps and weights must match the
     * reference. */
    st = clrs__program_get_ex(plan->ctx, key, gen_source, &plan->cfg, "",
                              &plan->program, &plan->cache_source);
    free(key);
    CLRS_TRY(st);
    plan->kernel = clCreateKernel(plan->program, kname, &err);
    if (err != CL_SUCCESS) {
        plan->kernel = NULL;
        return clrs__cl_error(err, plan->problem.backward
                                       ? "clCreateKernel(clrs_backward)"
                                       : "clCreateKernel(clrs_forward)");
    }
    CLRS_TRY(set_fixed_args(plan));
    work_sizes(plan);
    return CLRS_SUCCESS;
}

/* ---- two-pass argmax recompute ------------------------------------------ */

static clrs_status plan_create(clrs_plan **out, clrs_context *ctx,
                               const clrs_resample_desc *op,
                               const clrs_tensor_desc *in,
                               const clrs_tensor_desc *outt,
                               const clrs_tensor_desc *index,
                               const clrs_tensor_desc *src, int backward,
                               int index_only);

/* The one-kernel recompute searches every window that may hold a diff_src
 * element for each element (0.2 GB/s); the forward argmax into a scratch
 * index followed by the index backward reads each tensor once and takes
 * the vector paths. One kernel remains for CLRS_GENERIC and for scratch
 * that the device cannot allocate. The scratch index is dense in
 * diff_dst's layout, so that both passes take the vector path the
 * tensors around them allow. */
static int want_two_pass(const clrs_plan *plan, size_t *index_bytes,
                         struct clrs_tensor_desc *sidx)
{
    const clrs_problem *p = &plan->problem;
    if (!p->backward || p->mode != CLRS_MODE_MAX || p->has_index ||
        !p->has_src || env_flag("CLRS_GENERIC"))
        return 0;
    clrs__tensor_dense_like(&p->out,
                            p->window_volume <= 127 ? CLRS_S8 : CLRS_S32,
                            sidx);
    if (check_bytes(plan->ctx, sidx, "scratch index", index_bytes) < 0) {
        clrs__clear_error();
        return 0;
    }
    return 1;
}

/* The argmax plan (forward, training, window index alone: its dst
 * descriptor gives the shape), the scatter plan (backward from that
 * index) and the scratch between them. */
static clrs_status plan_two_pass(clrs_plan *plan, const clrs_resample_desc *op,
                                 size_t index_bytes,
                                 const struct clrs_tensor_desc *sidx)
{
    const clrs_problem *p = &plan->problem;
    struct clrs_resample_desc fop = *op, bop = *op;
    struct clrs_tensor_desc sdst = *sidx;

    sdst.dtype = p->src.dtype;
    fop.inference = 0;
    fop.accumulate = 0;
    fop.index_format = CLRS_INDEX_WINDOW;
    fop.n_post_ops = 0;
    bop.inference = 0;
    bop.index_format = CLRS_INDEX_WINDOW;
    CLRS_TRY(plan_create(&plan->argmax, plan->ctx, &fop, &p->src, &sdst,
                         sidx, NULL, 0, 1));
    CLRS_TRY(plan_create(&plan->scatter, plan->ctx, &bop, &p->in, &p->out,
                         sidx, NULL, 1, 0));
    return make_buffer(plan, index_bytes, NULL, &plan->scratch_index,
                       "argmax index");
}

/* ---- creation ----------------------------------------------------------- */

static clrs_status plan_create(clrs_plan **out, clrs_context *ctx,
                               const clrs_resample_desc *op,
                               const clrs_tensor_desc *in,
                               const clrs_tensor_desc *outt,
                               const clrs_tensor_desc *index,
                               const clrs_tensor_desc *src, int backward,
                               int index_only)
{
    clrs_plan *plan;
    clrs_status st;
    struct timespec t0, t1;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    CLRS_CHECK(out != NULL, CLRS_ERR_NULL_POINTER, "plan is NULL");
    *out = NULL;
    CLRS_CHECK_PTR(ctx);
    plan = calloc(1, sizeof *plan);
    if (!plan)
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "out of memory allocating a plan");
    plan->ctx = ctx;
    st = clrs__problem_init(&plan->problem, op, in, outt, index, src,
                            backward);
    if (st >= 0)
        st = check_device(plan);
    if (st >= 0 && index_only) {
        plan->index_only = 1;
        plan->need_dst = 0; /* dst gives the shape only */
    }
    if (st >= 0) {
        if (pthread_mutex_init(&plan->lock, NULL) == 0)
            plan->lock_init = 1;
        else
            st = clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                             "cannot initialise the plan mutex");
    }
    if (st >= 0) {
        struct clrs_tensor_desc sidx;
        size_t index_bytes;
        if (want_two_pass(plan, &index_bytes, &sidx))
            st = plan_two_pass(plan, op, index_bytes, &sidx);
        else
            st = build_kernel(plan);
    }
    if (st < 0) {
        clrs_plan_destroy(plan);
        return st;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    plan->create_ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
                      (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    *out = plan;
    clrs__clear_error();
    return CLRS_SUCCESS;
}

clrs_status clrs_plan_create_forward(clrs_plan **plan, clrs_context *ctx,
                                     const clrs_resample_desc *op,
                                     const clrs_tensor_desc *src,
                                     const clrs_tensor_desc *dst,
                                     const clrs_tensor_desc *index)
{
    return clrs__ctx_error(ctx,
                           plan_create(plan, ctx, op, src, dst, index, NULL,
                                       0, 0));
}

clrs_status clrs_plan_create_backward(clrs_plan **plan, clrs_context *ctx,
                                      const clrs_resample_desc *op,
                                      const clrs_tensor_desc *diff_src,
                                      const clrs_tensor_desc *diff_dst,
                                      const clrs_tensor_desc *index,
                                      const clrs_tensor_desc *src)
{
    return clrs__ctx_error(ctx, plan_create(plan, ctx, op, diff_src,
                                            diff_dst, index, src, 1, 0));
}

void clrs_plan_destroy(clrs_plan *plan)
{
    if (!plan)
        return;
    clrs_plan_destroy(plan->argmax);
    clrs_plan_destroy(plan->scatter);
    if (plan->scratch_index)
        clReleaseMemObject(plan->scratch_index);
    if (plan->scratch_busy)
        clReleaseEvent(plan->scratch_busy);
    if (plan->kernel)
        clReleaseKernel(plan->kernel);
    if (plan->program)
        clReleaseProgram(plan->program);
    if (plan->itab)
        clReleaseMemObject(plan->itab);
    if (plan->ftab)
        clReleaseMemObject(plan->ftab);
    if (plan->lock_init)
        pthread_mutex_destroy(&plan->lock);
    free(plan);
}

clrs_status clrs_plan_get_info(const clrs_plan *plan, clrs_plan_info *info)
{
    CLRS_CHECK_PTR(plan);
    CLRS_CHECK_PTR(info);
    memset(info, 0, sizeof *info);
    if (plan->scatter) {
        /* Two passes: the backward's vector path, both passes' costliest
         * program source. */
        clrs_plan_get_info(plan->scatter, info);
        if (plan->argmax->cache_source > info->cache)
            info->cache = plan->argmax->cache_source;
        info->create_ms = plan->create_ms;
        info->kernels = 2;
        info->scratch_bytes = plan->argmax->need_index;
        return CLRS_SUCCESS;
    }
    info->kernels = 1;
    info->cache = plan->cache_source;
    info->create_ms = plan->create_ms;
    info->vector_lanes = plan->cfg.vec;
    info->vector_path = plan->cfg.vec == 1  ? CLRS_VECTOR_NONE
                        : plan->cfg.phase  ? CLRS_VECTOR_SPAN
                        : plan->cfg.ax[0].dst_block ? CLRS_VECTOR_BLOCK
                                                    : CLRS_VECTOR_AXIS;
    info->span_patterns = plan->cfg.phase ? plan->cfg.npat : 0;
    info->span_coverage = plan->cfg.phase ? plan->span_coverage : 0;
    clrs__clear_error();
    return CLRS_SUCCESS;
}

const char *clrs_vector_path_name(clrs_vector_path path)
{
    switch (path) {
    case CLRS_VECTOR_NONE:
        return "none";
    case CLRS_VECTOR_AXIS:
        return "axis";
    case CLRS_VECTOR_BLOCK:
        return "block";
    case CLRS_VECTOR_SPAN:
        return "span";
    }
    return NULL;
}

/* ---- execution ---------------------------------------------------------- */

/* A role the plan reads or writes must have a buffer of at least `need`
 * bytes; an unused role must be NULL so that a mix-up of roles is caught
 * instead of silently ignored. */
static clrs_status check_buffer(cl_mem m, size_t need, const char *role)
{
    size_t have = 0;
    cl_int err;

    if (need == 0) {
        CLRS_CHECK(m == NULL, CLRS_ERR_INVALID_VALUE,
                   "args->%s is set but this plan does not use it", role);
        return CLRS_SUCCESS;
    }
    CLRS_CHECK(m != NULL, CLRS_ERR_NULL_POINTER, "args->%s is NULL", role);
    err = clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof have, &have, NULL);
    if (err != CL_SUCCESS) {
        char call[64];
        snprintf(call, sizeof call, "clGetMemObjectInfo(args->%s)", role);
        return clrs__cl_error(err, call);
    }
    CLRS_CHECK(have >= need, CLRS_ERR_BUFFER_TOO_SMALL,
               "args->%s buffer holds %zu bytes, tensor needs %zu", role,
               have, need);
    return CLRS_SUCCESS;
}

/* Sets the caller's buffers and enqueues: no build, no allocation, no
 * wait. The lock keeps another thread's arguments out of our enqueue. */
static clrs_status enqueue(clrs_plan *plan, const clrs_args *args,
                           cl_uint num_events, const cl_event *wait_list,
                           cl_event *event)
{
    const clrs_problem *p = &plan->problem;
    clrs_status st = CLRS_SUCCESS;
    cl_int err;

    /* Backward kernels read diff_dst where forward ones read src and
     * write diff_src where they write dst. */
    const cl_mem *rd = p->backward ? &args->diff_dst : &args->src;
    const cl_mem *wr = p->backward ? &args->diff_src : &args->dst;
    int i;

    pthread_mutex_lock(&plan->lock);
    st = set_arg(plan->kernel, plan->arg_src, sizeof(cl_mem), rd,
                 p->backward ? "diff_dst" : "src");
    if (st == CLRS_SUCCESS && !plan->index_only)
        st = set_arg(plan->kernel, plan->arg_dst, sizeof(cl_mem), wr,
                     p->backward ? "diff_src" : "dst");
    if (st == CLRS_SUCCESS && p->has_index)
        st = set_arg(plan->kernel, plan->arg_index, sizeof(cl_mem),
                     &args->index, "index");
    if (st == CLRS_SUCCESS && plan->cfg.recompute)
        st = set_arg(plan->kernel, plan->arg_x, sizeof(cl_mem), &args->src,
                     "src");
    for (i = 0; st == CLRS_SUCCESS && i < plan->cfg.npost; ++i)
        if (plan->cfg.post[i].kind == CLRS_POST_BINARY)
            st = set_arg(plan->kernel, plan->arg_post[i], sizeof(cl_mem),
                         &args->post_op[i], "post_op");
    if (st == CLRS_SUCCESS) {
        err = clEnqueueNDRangeKernel(plan->ctx->queue, plan->kernel,
                                     plan->work_dim, NULL, plan->global,
                                     plan->use_local ? plan->local : NULL,
                                     num_events, wait_list, event);
        if (err != CL_SUCCESS) {
            if (event)
                *event = NULL;
            st = clrs__cl_error(err, "clEnqueueNDRangeKernel");
        }
    }
    pthread_mutex_unlock(&plan->lock);
    return st;
}

/* The argmax pass (after the caller's events and the previous run's
 * scatter, which read the same scratch), then the scatter pass after it.
 * The lock keeps another thread's passes from interleaving with ours on
 * the scratch. */
static clrs_status enqueue_two_pass(clrs_plan *plan, const clrs_args *args,
                                    cl_uint num_events,
                                    const cl_event *wait_list,
                                    cl_event *event)
{
    clrs_args fa, ba;
    cl_event local[16], *buf = NULL, first = NULL, second = NULL;
    const cl_event *waits = wait_list;
    cl_uint n = num_events;
    clrs_status st;

    memset(&fa, 0, sizeof fa);
    fa.src = args->src;
    fa.index = plan->scratch_index;
    memset(&ba, 0, sizeof ba);
    ba.diff_src = args->diff_src;
    ba.diff_dst = args->diff_dst;
    ba.index = plan->scratch_index;

    pthread_mutex_lock(&plan->lock);
    if (plan->scratch_busy) {
        buf = n + 1 <= sizeof local / sizeof local[0]
                  ? local
                  : malloc((n + 1) * sizeof *buf);
        if (!buf) {
            pthread_mutex_unlock(&plan->lock);
            return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                               "out of memory for %u events", n + 1);
        }
        if (n)
            memcpy(buf, wait_list, n * sizeof *buf);
        buf[n++] = plan->scratch_busy;
        waits = buf;
    }
    st = enqueue(plan->argmax, &fa, n, waits, &first);
    if (buf != local)
        free(buf);
    if (st == CLRS_SUCCESS) {
        st = enqueue(plan->scatter, &ba, 1, &first, &second);
        if (plan->scratch_busy)
            clReleaseEvent(plan->scratch_busy);
        if (st == CLRS_SUCCESS) {
            plan->scratch_busy = second;
            clReleaseEvent(first);
        } else {
            plan->scratch_busy = first; /* still writing the scratch */
        }
    }
    if (st == CLRS_SUCCESS && event) {
        clRetainEvent(second);
        *event = second;
    }
    pthread_mutex_unlock(&plan->lock);
    return st;
}

static clrs_status execute(clrs_plan *plan, const clrs_args *args,
                           cl_uint num_events, const cl_event *wait_list,
                           cl_event *event)
{
    const clrs_problem *p = &plan->problem;
    cl_mem written;
    int i;

    CLRS_CHECK_PTR(args);
    CLRS_CHECK((num_events == 0) == (wait_list == NULL),
               CLRS_ERR_INVALID_VALUE,
               "num_events is %u but wait_list is %s", (unsigned)num_events,
               wait_list ? "set" : "NULL");
    CLRS_TRY(check_buffer(args->src, plan->need_src, "src"));
    CLRS_TRY(check_buffer(args->dst, plan->need_dst, "dst"));
    CLRS_TRY(check_buffer(args->diff_src, plan->need_diff_src, "diff_src"));
    CLRS_TRY(check_buffer(args->diff_dst, plan->need_diff_dst, "diff_dst"));
    CLRS_TRY(check_buffer(args->index, plan->need_index, "index"));
    for (i = 0; i < CLRS_MAX_POST_OPS; ++i) {
        char role[16];
        snprintf(role, sizeof role, "post_op[%d]", i);
        CLRS_TRY(check_buffer(args->post_op[i], plan->need_post[i], role));
    }
    /* The kernels read inputs while writing outputs: the same buffer in
     * both roles gives order-dependent results. (Overlapping sub-buffers
     * of one parent are not detected.) */
    written = p->backward ? args->diff_src : args->dst;
    CLRS_CHECK(written != args->src && written != args->diff_dst &&
                   (args->index == NULL || written != args->index),
               CLRS_ERR_ALIASING, "the %s buffer is also an input",
               p->backward ? "diff_src" : "dst");
    for (i = 0; i < CLRS_MAX_POST_OPS; ++i)
        CLRS_CHECK(args->post_op[i] == NULL || args->post_op[i] != written,
                   CLRS_ERR_ALIASING,
                   "post-op %d operand buffer is also the output", i);
    if (!p->backward && args->index)
        CLRS_CHECK(args->index != args->src, CLRS_ERR_ALIASING,
                   "the index buffer is also the src buffer");

    if (plan->argmax)
        return enqueue_two_pass(plan, args, num_events, wait_list, event);
    return enqueue(plan, args, num_events, wait_list, event);
}

clrs_status clrs_execute(clrs_plan *plan, const clrs_args *args,
                         cl_uint num_events, const cl_event *wait_list,
                         cl_event *event)
{
    clrs_status st;

    if (event)
        *event = NULL; /* never leave the caller an event to release */
    CLRS_CHECK_PTR(plan);
    st = execute(plan, args, num_events, wait_list, event);
    if (st < 0)
        return clrs__ctx_error(plan->ctx, st);
    clrs__clear_error();
    return st;
}
