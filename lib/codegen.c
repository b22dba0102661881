/* The OpenCL C generator: composes one forward kernel per configuration
 * from the embedded cl/ building blocks and a loop nest over the resampled
 * axes. Everything that varies per shape is a kernel argument. */
#include "codegen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

/* ---- data types ---------------------------------------------------------- */

/* One row per dtype, from CLRS_DTYPE_MAP (feature_maps.h): a dtype the
 * kernels handle has its kernel column set and a CLRS_ROW_<name> block in
 * cl/dtype.cl. */
typedef struct dtype_row {
    clrs_dtype dt;
    const char *name;  /* suffix of the cl/dtype.cl macros */
    const char *ctype; /* element type in global memory */
    const char *nat;   /* scalar type a load yields */
    int kernel;        /* has a cl/dtype.cl block (else index only) */
    int fp64;          /* needs cl_khr_fp64 */
    int vstore;        /* has CLRS_STV_<name> */
} dtype_row;

#define DTYPE_ROW_(e, name, size, cl_store, cl_load, kernel, fp64, vstore,  \
                   ...)                                                      \
    [CLRS_##e] = {CLRS_##e, name, cl_store, cl_load, kernel, fp64, vstore},
static const dtype_row dtypes[CLRS_DTYPE_COUNT] = {
    CLRS_DTYPE_MAP(DTYPE_ROW_)};
#undef DTYPE_ROW_

/* The row of a dtype the kernels handle, else NULL. */
static const dtype_row *row_of(clrs_dtype dt)
{
    if (!clrs__dtype_valid((int)dt) || !dtypes[dt].kernel)
        return NULL;
    return &dtypes[dt];
}

/* clrs_gen_class and the maps' kernel classes are one list. */
typedef char clrs__kclass_matches_[(CLRS_KCLASS_WSUM == CLRS_GEN_WSUM &&
                                    CLRS_KCLASS_MAX == CLRS_GEN_MAX)
                                       ? 1
                                       : -1];

int clrs__gen_dtype_supported(clrs_dtype dt) { return row_of(dt) != NULL; }

int clrs__gen_dtype_vector_store(clrs_dtype dt)
{
    const dtype_row *r = row_of(dt);
    return r != NULL && r->vstore;
}

/* Index tensors: element type by dtype. */
static const char *index_ctype(clrs_dtype dt)
{
    return dt == CLRS_S8 ? "char" : dt == CLRS_S32 ? "int" : "long";
}

/* ---- post-ops ------------------------------------------------------------
 * One row per post-op algorithm: its name in the key and an OpenCL C
 * expression, emitted as the body of a function-like macro so that the
 * same text serves scalars and vectors of float or double. Parameters:
 * T the value type, X the value, A and B the eltwise alpha and beta (kernel
 * arguments), Y the binary operand: the cl columns of CLRS_ELTWISE_MAP and
 * CLRS_BINARY_MAP (feature_maps.h), whose ref columns the reference (ref.c)
 * evaluates in double. */
typedef struct post_row {
    int alg;
    const char *name;
    const char *expr;
} post_row;

#define POST_ROW_(prefix, e, name, cl) [prefix##e] = {prefix##e, name, cl},
#define ELTWISE_ROW_(e, name, cl, ref) POST_ROW_(CLRS_ELTWISE_, e, name, cl)
#define BINARY_ROW_(e, name, cl, ref) POST_ROW_(CLRS_BINARY_, e, name, cl)
static const post_row eltwise_rows[CLRS_ELTWISE_COUNT] = {
    CLRS_ELTWISE_MAP(ELTWISE_ROW_)};
static const post_row binary_rows[CLRS_BINARY_COUNT] = {
    CLRS_BINARY_MAP(BINARY_ROW_)};
#undef POST_ROW_
#undef ELTWISE_ROW_
#undef BINARY_ROW_

static const post_row *post_row_of(int kind, int alg)
{
    if (kind == CLRS_POST_ELTWISE && clrs__eltwise_valid(alg))
        return &eltwise_rows[alg];
    if (kind == CLRS_POST_BINARY && clrs__binary_valid(alg))
        return &binary_rows[alg];
    return NULL;
}

int clrs__gen_post_supported(int kind, int alg)
{
    return kind == CLRS_POST_SUM || post_row_of(kind, alg) != NULL;
}

/* ---- growing string ------------------------------------------------------ */

typedef struct sbuf {
    char *s;
    size_t n, cap;
    int oom;
} sbuf;

static void sb_vadd(sbuf *b, const char *fmt, va_list ap)
{
    va_list aq;
    int need;

    if (b->oom)
        return;
    va_copy(aq, ap);
    need = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (need < 0) {
        b->oom = 1;
        return;
    }
    if (b->n + (size_t)need + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        char *s;
        while (b->n + (size_t)need + 1 > cap)
            cap *= 2;
        s = realloc(b->s, cap);
        if (!s) {
            b->oom = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    b->n += (size_t)need;
}

static void sb_add(sbuf *b, const char *fmt, ...) CLRS_PRINTF(2, 3);
static void sb_add(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vadd(b, fmt, ap);
    va_end(ap);
}

static clrs_status sb_finish(sbuf *b, char **out)
{
    if (b->oom || !b->s) {
        free(b->s);
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "out of memory generating a kernel");
    }
    *out = b->s;
    return CLRS_SUCCESS;
}

/* ---- configuration ------------------------------------------------------- */

static const char *acc_type(const clrs_gen_config *c)
{
    return c->acc_f64 ? "double" : "float";
}

static const char *off_type(const clrs_gen_config *c)
{
    return c->long_off ? "long" : "int";
}

/* Forward span path over a last slot whose tap count varies. */
static int span_var(const clrs_gen_config *c)
{
    return c->phase && !c->backward && !c->fixed[c->nslots - 1];
}

static const char *const class_names[] = {"wsum", "max"};

clrs_status clrs__gen_key(const clrs_gen_config *c, char **key)
{
    sbuf b = {0};
    int p, i;

    CLRS_CHECK(row_of(c->src) && row_of(c->dst), CLRS_ERR_NOT_IMPLEMENTED,
               "no kernel for dtypes %s -> %s", clrs_dtype_name(c->src),
               clrs_dtype_name(c->dst));
    sb_add(&b, "clrs%d %s %s rank=%d axes=[", CLRS_GEN_VERSION,
           c->backward ? "bwd" : "fwd", class_names[c->cls], c->rank);
    for (p = 0; p < c->rank; ++p) {
        const clrs_gen_axis *a = &c->ax[p];
        if (a->slot >= 0 && c->fixed[a->slot])
            sb_add(&b, "%sr%dk%d", p ? "," : "", a->slot, c->fixed[a->slot]);
        else if (a->slot >= 0)
            sb_add(&b, "%sr%d", p ? "," : "", a->slot);
        else
            sb_add(&b, "%si", p ? "," : "");
        if (a->src_block)
            sb_add(&b, "/s%d", a->src_block);
        if (a->dst_block)
            sb_add(&b, "/d%d", a->dst_block);
        if (a->idx_block)
            sb_add(&b, "/x%d", a->idx_block);
        if (a->x_block)
            sb_add(&b, "/g%d", a->x_block);
        for (i = 0; i < c->npost; ++i)
            if (a->op_block[i])
                sb_add(&b, "/b%d:%d", i, a->op_block[i]);
    }
    sb_add(&b, "] src=%s dst=%s acc=%s", row_of(c->src)->name,
           row_of(c->dst)->name, acc_type(c));
    if (c->has_index)
        sb_add(&b, " index=%s/%s%s", clrs_dtype_name(c->index),
               c->plane ? "plane" : "window", c->index_only ? "/only" : "");
    if (c->recompute)
        sb_add(&b, " x=%s", row_of(c->x) ? row_of(c->x)->name : "?");
    if (c->backward && c->accumulate)
        sb_add(&b, " accumulate");
    if (c->f16_native)
        sb_add(&b, " f16=native");
    if (c->cls == CLRS_GEN_MAX && (!c->backward || c->recompute))
        sb_add(&b, " nan=%s", c->nan_ignore ? "ignore" : "propagate");
    sb_add(&b, " pad=%d off=%s vec=%d tail=%d nt=%d", c->pad_taps,
           off_type(c), c->vec, c->tail, c->nt);
    if (c->phase) {
        int q, t, l, K = c->ntaps;
        sb_add(&b, " span=%d", c->nspan);
        for (q = 0; q < c->npat; ++q) {
            sb_add(&b, " pat%d=", q);
            for (t = 0; t < K; ++t)
                for (l = 0; l < c->vec; ++l)
                    sb_add(&b, "%s%d", t || l ? "," : "", c->rel[q][t][l]);
            if (c->has_index && !c->plane) {
                sb_add(&b, "/");
                for (t = 0; t < K; ++t)
                    for (l = 0; l < c->vec; ++l)
                        sb_add(&b, "%s%d", t || l ? "," : "",
                               c->code[q][t][l]);
            }
        }
    }
    for (i = 0; i < c->npost; ++i) {
        const clrs_gen_post *q = &c->post[i];
        const post_row *r = post_row_of(q->kind, q->alg);
        CLRS_CHECK(clrs__gen_post_supported(q->kind, q->alg) &&
                       (q->kind != CLRS_POST_BINARY || row_of(q->dt)),
                   CLRS_ERR_NOT_IMPLEMENTED, "no kernel for post-op %d", i);
        if (q->kind == CLRS_POST_SUM)
            sb_add(&b, "%ssum", i ? "+" : " post=");
        else if (q->kind == CLRS_POST_ELTWISE)
            sb_add(&b, "%seltwise_%s", i ? "+" : " post=", r->name);
        else
            sb_add(&b, "%sbinary_%s:%s:v%d", i ? "+" : " post=", r->name,
                   row_of(q->dt)->name, (int)q->bvec);
    }
    return sb_finish(&b, key);
}

/* ---- arguments ----------------------------------------------------------- */

static void arg(clrs_gen_arg *args, int *n, clrs_arg_kind kind,
                const char *name, int idx, int64_t i, double d)
{
    clrs_gen_arg *a = &args[(*n)++];
    memset(a, 0, sizeof *a);
    a->kind = kind;
    if (idx >= 0)
        snprintf(a->name, sizeof a->name, "%s%d", name, idx);
    else
        snprintf(a->name, sizeof a->name, "%s", name);
    a->i = i;
    a->d = d;
}

/* Backward: diff_dst is "src", diff_src "dst"; per kernel axis the
 * strides of identity axes, per slot the transposed tables (and, to
 * recompute the argmax, the forward ones). */
static int backward_args(const clrs_gen_config *c, const clrs_gen_values *v,
                         clrs_gen_arg *args)
{
    int n = 0, p, k, wsum = c->cls == CLRS_GEN_WSUM;
    int window = c->has_index && !c->plane;
    int plane = c->has_index && c->plane;

    arg(args, &n, CLRS_ARG_SRC, "src", -1, 0, 0);
    arg(args, &n, CLRS_ARG_DST, "dst", -1, 0, 0);
    if (c->has_index)
        arg(args, &n, CLRS_ARG_INDEX, "index", -1, 0, 0);
    if (c->recompute)
        arg(args, &n, CLRS_ARG_X, "x", -1, 0, 0);
    arg(args, &n, CLRS_ARG_ITAB, "itab", -1, 0, 0);
    if (wsum)
        arg(args, &n, CLRS_ARG_FTAB, "ftab", -1, 0, 0);
    for (p = 0; p < c->rank; ++p) {
        arg(args, &n, CLRS_ARG_OFF, "n", p, v->n[p], 0);
        if (c->ax[p].dst_block)
            arg(args, &n, CLRS_ARG_OFF, "nr", p, v->nr[p], 0);
        arg(args, &n, CLRS_ARG_OFF, "ds", p, v->ds[p], 0);
        if (c->ax[p].slot >= 0)
            continue;
        arg(args, &n, CLRS_ARG_OFF, "ss", p, v->ss[p], 0);
        if (c->has_index)
            arg(args, &n, CLRS_ARG_OFF, "is", p, v->is[p], 0);
        if (c->recompute)
            arg(args, &n, CLRS_ARG_OFF, "xs", p, v->xs[p], 0);
    }
    for (k = 0; k < c->nslots; ++k) {
        arg(args, &n, CLRS_ARG_OFF, "st", k, v->st[k], 0);
        arg(args, &n, CLRS_ARG_OFF, "of", k, v->of[k], 0);
        if (c->has_index)
            arg(args, &n, CLRS_ARG_OFF, "ix", k, v->ix[k], 0);
        if (window || c->recompute)
            arg(args, &n, CLRS_ARG_OFF, "cd", k, v->cd[k], 0);
        if (wsum)
            arg(args, &n, CLRS_ARG_OFF, "fw", k, v->fw[k], 0);
        if (plane || c->recompute)
            arg(args, &n, CLRS_ARG_OFF, "pl", k, v->pl[k], 0);
        if (c->recompute) {
            arg(args, &n, CLRS_ARG_OFF, "fst", k, v->fst[k], 0);
            arg(args, &n, CLRS_ARG_OFF, "fof", k, v->fof[k], 0);
            arg(args, &n, CLRS_ARG_OFF, "fcd", k, v->fcd[k], 0);
        }
    }
    if (c->phase) {
        arg(args, &n, CLRS_ARG_OFF, "pg", -1, v->pg, 0);
        if (wsum)
            arg(args, &n, CLRS_ARG_OFF, "fg", -1, v->fg, 0);
    }
    if (c->recompute && c->pad_taps)
        arg(args, &n, CLRS_ARG_ACC, "pad", -1, 0, v->pad);
    return n;
}

int clrs__gen_args(const clrs_gen_config *c, const clrs_gen_values *v,
                   clrs_gen_arg *args)
{
    static const clrs_gen_values zero;
    int n = 0, p, k;

    if (!v)
        v = &zero;
    if (c->backward)
        return backward_args(c, v, args);
    arg(args, &n, CLRS_ARG_SRC, "src", -1, 0, 0);
    if (!c->index_only)
        arg(args, &n, CLRS_ARG_DST, "dst", -1, 0, 0);
    if (c->has_index)
        arg(args, &n, CLRS_ARG_INDEX, "index", -1, 0, 0);
    arg(args, &n, CLRS_ARG_ITAB, "itab", -1, 0, 0);
    if (c->cls == CLRS_GEN_WSUM)
        arg(args, &n, CLRS_ARG_FTAB, "ftab", -1, 0, 0);
    for (p = 0; p < c->rank; ++p) {
        arg(args, &n, CLRS_ARG_OFF, "n", p, v->n[p], 0);
        if (c->ax[p].dst_block)
            arg(args, &n, CLRS_ARG_OFF, "nr", p, v->nr[p], 0);
        arg(args, &n, CLRS_ARG_OFF, "ds", p, v->ds[p], 0);
        if (c->ax[p].slot < 0)
            arg(args, &n, CLRS_ARG_OFF, "ss", p, v->ss[p], 0);
        if (c->has_index)
            arg(args, &n, CLRS_ARG_OFF, "is", p, v->is[p], 0);
    }
    for (k = 0; k < c->nslots; ++k) {
        arg(args, &n, CLRS_ARG_OFF, "st", k, v->st[k], 0);
        arg(args, &n, CLRS_ARG_OFF, "of", k, v->of[k], 0);
        if (c->has_index)
            arg(args, &n, CLRS_ARG_OFF, "cd", k, v->cd[k], 0);
        if (c->cls == CLRS_GEN_WSUM)
            arg(args, &n, CLRS_ARG_OFF, "fw", k, v->fw[k], 0);
    }
    if (c->phase)
        arg(args, &n, CLRS_ARG_OFF, "pg", -1, v->pg, 0);
    if (span_var(c))
        arg(args, &n, CLRS_ARG_OFF, "fg", -1, v->fg, 0);
    if (c->pad_taps)
        arg(args, &n, CLRS_ARG_ACC, "pad", -1, 0, v->pad);
    arg(args, &n, CLRS_ARG_ACC, "empty", -1, 0, v->empty);
    for (k = 0; k < c->npost; ++k) {
        switch (c->post[k].kind) {
        case CLRS_POST_SUM:
            arg(args, &n, CLRS_ARG_ACC, "pa", k, 0, v->pa[k]);
            break;
        case CLRS_POST_ELTWISE:
            arg(args, &n, CLRS_ARG_ACC, "pa", k, 0, v->pa[k]);
            arg(args, &n, CLRS_ARG_ACC, "pb", k, 0, v->pb[k]);
            break;
        default:
            arg(args, &n, CLRS_ARG_POST, "post", k, k, 0);
            for (p = 0; p < c->rank; ++p) {
                char nm[16];
                snprintf(nm, sizeof nm, "b%ds", k);
                arg(args, &n, CLRS_ARG_OFF, nm, p, v->bs[k][p], 0);
            }
            break;
        }
    }
    return n;
}

/* ---- source -------------------------------------------------------------- */

static const char *snippet(const char *name)
{
    const clrs_cl_snippet *s;
    for (s = clrs__cl_snippets; s->name; ++s)
        if (strcmp(s->name, name) == 0)
            return s->text;
    return NULL;
}

static void emit_args(sbuf *b, const clrs_gen_config *c)
{
    clrs_gen_arg args[CLRS_GEN_MAX_ARGS];
    int n = clrs__gen_args(c, NULL, args), i;
    const char *off = off_type(c), *acc = acc_type(c);

    for (i = 0; i < n; ++i) {
        const char *sep = i + 1 < n ? "," : ")";
        switch (args[i].kind) {
        case CLRS_ARG_SRC:
            sb_add(b, "    __global const %s *restrict src%s\n",
                   row_of(c->src)->ctype, sep);
            break;
        case CLRS_ARG_X:
            sb_add(b, "    __global const %s *restrict x%s\n",
                   row_of(c->x)->ctype, sep);
            break;
        case CLRS_ARG_DST:
            sb_add(b, "    __global %s *restrict dst%s\n",
                   row_of(c->dst)->ctype, sep);
            break;
        case CLRS_ARG_INDEX:
            sb_add(b, "    __global %s%s *restrict index%s\n",
                   c->backward ? "const " : "", index_ctype(c->index), sep);
            break;
        case CLRS_ARG_ITAB:
            sb_add(b, "    __global const %s *restrict itab%s\n", off, sep);
            break;
        case CLRS_ARG_FTAB:
            sb_add(b, "    __global const %s *restrict ftab%s\n", acc, sep);
            break;
        case CLRS_ARG_OFF:
            sb_add(b, "    const %s %s%s\n", off, args[i].name, sep);
            break;
        case CLRS_ARG_ACC:
            sb_add(b, "    const %s %s%s\n", acc, args[i].name, sep);
            break;
        case CLRS_ARG_POST:
            sb_add(b, "    __global const %s *restrict %s%s\n",
                   row_of(c->post[args[i].i].dt)->ctype, args[i].name, sep);
            break;
        }
    }
}

/* "float16" for width 16, "float" for width 1. */
static void vtype(char *buf, size_t n, const char *base, int w)
{
    int r = w > 1 ? snprintf(buf, n, "%s%d", base, w)
                  : snprintf(buf, n, "%s", base);
    if (r < 0 || (size_t)r >= n) /* cannot happen: type names are short */
        buf[0] = '\0';
}

/* Offset term of index `i` on kernel axis p along stride `s` (blocked
 * axes split into block and lane). */
static void emit_term(sbuf *b, const char *i, int block, const char *s,
                      int p)
{
    if (block)
        sb_add(b, " + CLRS_BLK(%s, %d, %s%d)", i, block, s, p);
    else
        sb_add(b, " + %s * %s%d", i, s, p);
}

/* "    const <off> NAME = 0 + i<p> * <prefix><p> ...;": a tensor's element
 * offset over every kernel axis, or over the identity axes only, with
 * each axis's block size read at byte offset `blk` of clrs_gen_axis. */
static void emit_offset(sbuf *b, const clrs_gen_config *c, const char *name,
                        const char *prefix, size_t blk, int identity_only)
{
    char i[16];
    int p;

    sb_add(b, "    const %s %s = 0", off_type(c), name);
    for (p = 0; p < c->rank; ++p) {
        const clrs_gen_axis *a = &c->ax[p];
        if (identity_only && a->slot >= 0)
            continue;
        snprintf(i, sizeof i, "i%d", p);
        emit_term(b, i, *(const int *)(const void *)((const char *)a + blk),
                  prefix, p);
    }
    sb_add(b, ";\n");
}

/* Work-item -> output index: kernel axes 0 and 1 are NDRange dimensions 0
 * and 1 (consecutive work-items write consecutive addresses), the rest
 * are unpacked from dimension 2. Unsigned division: sizes are >= 1. */
static void emit_indices(sbuf *b, const clrs_gen_config *c)
{
    const char *off = off_type(c);
    const char *uoff = c->long_off ? "ulong" : "uint";
    int p;

    if (c->vec > 1)
        sb_add(b, "    const %s i0 = (%s)get_global_id(0) * %d;\n", off, off,
               c->vec);
    else
        sb_add(b, "    const %s i0 = (%s)get_global_id(0);\n", off, off);
    if (c->rank > 1)
        sb_add(b, "    const %s i1 = (%s)get_global_id(1);\n", off, off);
    if (c->rank > 2) {
        sb_add(b, "    %s r = (%s)get_global_id(2);\n", uoff, uoff);
        /* r - q * n rather than r % n: LLVM turns a div/rem pair into
         * a "freeze" instruction that Oclgrind's checker cannot run. */
        for (p = 2; p + 1 < c->rank; ++p) {
            sb_add(b, "    const %s q%d = r / (%s)n%d;\n", uoff, p, uoff, p);
            sb_add(b, "    const %s i%d = (%s)(r - q%d * (%s)n%d);\n", off, p,
                   off, p, uoff, p);
            sb_add(b, "    r = q%d;\n", p);
        }
        sb_add(b, "    const %s i%d = (%s)r;\n", off, c->rank - 1, off);
    }
}

/* The kernel axis of resampled slot k. */
static int axis_of_slot(const clrs_gen_config *c, int k)
{
    int p;
    for (p = 0; p < c->rank; ++p)
        if (c->ax[p].slot == k)
            return p;
    return 0;
}

/* dst's blocked axis runs over whole blocks: a work-item past the real
 * extent owns a padding lane, which it writes as zero (so a blocked
 * tensor never holds stale padding) before anything reads a table or an
 * input at that index. The block vector path zeroes its lanes in
 * emit_store instead. */
static void emit_pad_guard(sbuf *b, const clrs_gen_config *c)
{
    int p;
    for (p = 0; p < c->rank; ++p)
        if (c->ax[p].dst_block && !(p == 0 && c->vec > 1) && c->index_only)
            sb_add(b, "    if (i%d >= nr%d)\n        return;\n", p, p);
        else if (c->ax[p].dst_block && !(p == 0 && c->vec > 1))
            sb_add(b,
                   "    if (i%d >= nr%d) {\n"
                   "        CLRS_ST_%s(dst, dof, (%s)(0));\n"
                   "        return;\n"
                   "    }\n",
                   p, p, row_of(c->dst)->name, acc_type(c));
}

static void emit_offsets(sbuf *b, const clrs_gen_config *c)
{
    const char *off = off_type(c);
    int p, k;

    if (!c->index_only)
        emit_offset(b, c, "dof", "ds", offsetof(clrs_gen_axis, dst_block),
                    0);
    emit_pad_guard(b, c);
    emit_offset(b, c, "sob", "ss", offsetof(clrs_gen_axis, src_block), 1);
    if (c->has_index)
        emit_offset(b, c, "iof", "is", offsetof(clrs_gen_axis, idx_block),
                    0);
    for (k = 0; k < c->npost; ++k) {
        char s[16], name[16];
        if (c->post[k].kind != CLRS_POST_BINARY)
            continue;
        snprintf(s, sizeof s, "b%ds", k);
        snprintf(name, sizeof name, "bo%d", k);
        emit_offset(b, c, name, s,
                    offsetof(clrs_gen_axis, op_block) +
                        (size_t)k * sizeof(int),
                    0);
    }
    /* Tap ranges of each resampled axis; an empty range means no taps
     * (crop extrapolation, or an average window without pixels). */
    for (k = 0; k < c->nslots - (span_var(c) ? 1 : 0); ++k) {
        p = axis_of_slot(c, k);
        if (!c->fixed[k])
            sb_add(b,
                   "    const %s b%d = itab[st%d + i%d], "
                   "e%d = itab[st%d + i%d + 1];\n",
                   off, k, k, p, k, k, p);
    }
    if (c->phase)
        sb_add(b,
               "    const %s gq = (%s)get_global_id(0);\n"
               "    const %s pgb = itab[pg + 2 * gq], pgp = itab[pg + 2 * gq "
               "+ 1];\n",
               off, off, off);
    /* The span path's groups have taps in every lane: its lane by lane
     * code adds the last slot's own test (none_l). */
    sb_add(b, "    const int none = 0");
    for (k = 0; k < c->nslots - (span_var(c) ? 1 : 0); ++k)
        if (!c->fixed[k])
            sb_add(b, " || b%d == e%d", k, k);
    sb_add(b, ";\n");
}

/* The loop nest over the taps of every resampled axis, slot order
 * (row-major window order, as the reference walks it). Innermost: `o` is
 * the src offset (negative for a padding tap), `w` the weight product
 * (weighted sum), `c` the index code sum (max). */
static void emit_loops(sbuf *b, const clrs_gen_config *c, const char *so,
                       int nloops, const char *i0name)
{
    const char *off = off_type(c), *acc = acc_type(c);
    int k, wsum = c->cls == CLRS_GEN_WSUM;

    for (k = 0; k < nloops; ++k) {
        char ip[16];
        if (axis_of_slot(c, k) == 0)
            snprintf(ip, sizeof ip, "%s", i0name);
        else
            snprintf(ip, sizeof ip, "i%d", axis_of_slot(c, k));
        int in = 12 + 4 * k, body = in + 4; /* indentation */
        /* A constant trip count unrolled leaves the work-item loop PoCL
         * wraps around the kernel innermost, so it can vectorise it. */
        if (c->fixed[k])
            sb_add(b, "%*s#pragma unroll\n", in, "");
        /* x: the tap's table position. Fixed-count tables are stored
         * tap-major (position t * O + o), so consecutive work-items read
         * consecutive entries and no two loads of one work-item are
         * adjacent (which the SLP vectoriser would fuse into a short
         * vector that then blocks vectorising the work-item loop). */
        if (c->fixed[k])
            sb_add(b,
                   "%*sfor (%s t%d = 0; t%d < %d; ++t%d) {\n"
                   "%*sconst %s x%d = t%d * n%d + %s;\n",
                   in, "", off, k, k, c->fixed[k], k, body, "", off, k, k,
                   axis_of_slot(c, k), ip);
        else
            sb_add(b,
                   "%*sfor (%s t%d = b%d; t%d < e%d; ++t%d) {\n"
                   "%*sconst %s x%d = t%d;\n",
                   in, "", off, k, k, k, k, k, body, "", off, k, k);
        if (k == 0)
            sb_add(b, "%*sconst %s o0 = %s + itab[of0 + x0];\n", body, "",
                   off, so);
        else
            sb_add(b, "%*sconst %s o%d = o%d + itab[of%d + x%d];\n", body,
                   "", off, k, k - 1, k, k);
        if (wsum && k == 0)
            sb_add(b, "%*sconst %s w0 = ftab[fw0 + x0];\n", body, "", acc);
        else if (wsum)
            sb_add(b, "%*sconst %s w%d = w%d * ftab[fw%d + x%d];\n", body, "",
                   acc, k, k - 1, k, k);
        if (c->has_index && k == 0)
            sb_add(b, "%*sconst %s c0 = itab[cd0 + x0];\n", body, "", off);
        else if (c->has_index)
            sb_add(b, "%*sconst %s c%d = c%d + itab[cd%d + x%d];\n", body, "",
                   off, k, k - 1, k, k);
    }
}

static void emit_close_loops(sbuf *b, int nslots)
{
    int k;
    for (k = nslots; k > 0; --k)
        sb_add(b, "%*s}\n", 4 * k + 8, "");
}

/* The value of the innermost tap into `v` (type at). */
static void emit_load(sbuf *b, const clrs_gen_config *c, int w,
                      const char *at, const char *o, const char *ind)
{
    const dtype_row *s = row_of(c->src);
    const char *acc = acc_type(c);
    char ld[96], conv[32] = "";

    if (w > 1)
        snprintf(ld, sizeof ld, "CLRS_LDV_%s(%d, src, %s)", s->name, w, o);
    else
        snprintf(ld, sizeof ld, "CLRS_LD_%s(src, %s)", s->name, o);
    if (strcmp(s->nat, acc) != 0) {
        if (w > 1)
            snprintf(conv, sizeof conv, "convert_%s%d", acc, w);
        else
            snprintf(conv, sizeof conv, "convert_%s", acc);
    }
    if (c->pad_taps) {
        sb_add(b, "%s%s v;\n", ind, at);
        sb_add(b, "%sif (%s < 0)\n%s    v = (%s)(pad);\n", ind, o, ind, at);
        sb_add(b, "%selse\n%s    v = %s(%s);\n", ind, ind, conv, ld);
    } else {
        sb_add(b, "%sconst %s v = %s(%s);\n", ind, at, conv, ld);
    }
}

static void emit_store(sbuf *b, const clrs_gen_config *c, int w,
                       const char *dof, const char *val)
{
    const char *nt = c->nt ? "NT" : "";
    /* Block vector path: one work-item per block of dst's blocked axis;
     * lanes past the real extent are padding and get zeros. */
    if (w > 1 && c->ax[0].dst_block) {
        char at[16], mt[16];
        int l;
        vtype(at, sizeof at, acc_type(c), w);
        vtype(mt, sizeof mt, c->acc_f64 ? "long" : "int", w);
        sb_add(b, "        %s = ((%s)(i0) + (%s)(", val, mt, mt);
        for (l = 0; l < w; ++l)
            sb_add(b, "%s%d", l ? ", " : "", l);
        sb_add(b, ") >= (%s)(nr0)) ? (%s)(0) : %s;\n", mt, at, val);
    }
    if (w > 1)
        sb_add(b, "        CLRS_STV%s_%s(%d, dst, %s, %s);\n", nt,
               row_of(c->dst)->name, w, dof, val);
    else
        sb_add(b, "        CLRS_ST%s_%s(dst, %s, %s);\n", nt,
               row_of(c->dst)->name, dof, val);
}

/* A load of dtype row r at offset o, converted to the accumulator
 * type: w lanes (vector load), or a scalar broadcast to w lanes. */
static void load_acc(char *buf, size_t n, const clrs_gen_config *c,
                     const dtype_row *r, const char *p, const char *o, int w,
                     int bcast)
{
    const char *acc = acc_type(c);
    char at[16], conv[32] = "";
    vtype(at, sizeof at, acc, w);
    if (w > 1 && !bcast) {
        if (strcmp(r->nat, acc) != 0)
            snprintf(conv, sizeof conv, "convert_%s", at);
        snprintf(buf, n, "%s(CLRS_LDV_%s(%d, %s, %s))", conv, r->name, w, p,
                 o);
        return;
    }
    if (strcmp(r->nat, acc) != 0)
        snprintf(conv, sizeof conv, "convert_%s", acc);
    if (w > 1)
        snprintf(buf, n, "(%s)(%s(CLRS_LD_%s(%s, %s)))", at, conv, r->name, p,
                 o);
    else
        snprintf(buf, n, "%s(CLRS_LD_%s(%s, %s))", conv, r->name, p, o);
}

/* The post-op chain on `val` (w lanes), in the accumulator type, before
 * the one rounding to dst. lane: the scalar tail loop's `l` is in scope
 * (the operand offsets step by their axis-0 strides). The sum reads dst
 * before the store overwrites it. */
static void emit_post(sbuf *b, const clrs_gen_config *c, int w,
                      const char *dof, const char *val, int lane)
{
    char at[16], ld[192], o[48];
    int k;

    vtype(at, sizeof at, acc_type(c), w);
    for (k = 0; k < c->npost; ++k) {
        const clrs_gen_post *q = &c->post[k];
        switch (q->kind) {
        case CLRS_POST_SUM:
            load_acc(ld, sizeof ld, c, row_of(c->dst), "dst", dof, w, 0);
            sb_add(b, "        %s = %s + pa%d * %s;\n", val, val, k, ld);
            break;
        case CLRS_POST_ELTWISE:
            sb_add(b, "        %s = CLRS_POST%d(%s, %s, pa%d, pb%d);\n", val,
                   k, at, val, k, k);
            break;
        default:
            if (lane)
                snprintf(o, sizeof o, "(bo%d + l * b%ds0)", k, k);
            else
                snprintf(o, sizeof o, "bo%d", k);
            {
                char pn[16];
                snprintf(pn, sizeof pn, "post%d", k);
                load_acc(ld, sizeof ld, c, row_of(q->dt), pn, o, w,
                         q->bvec == CLRS_BVEC_BCAST);
            }
            sb_add(b, "        %s = CLRS_POST%d(%s, %s);\n", val, k, val, ld);
            break;
        }
    }
}

/* "(type)(v[0], v[1], ...)": a constant vector of n lanes. */
static void emit_lanes(sbuf *b, const char *type, const int *v, int n)
{
    int l;
    sb_add(b, "(%s)(", type);
    for (l = 0; l < n; ++l)
        sb_add(b, "%s%d", l ? ", " : "", v[l]);
    sb_add(b, ")");
}

/* The span vectors pattern q picks from: those up to its furthest tap
 * (c->nspan covers every pattern). */
static int pat_spans(const clrs_gen_config *c, int q)
{
    int t, l, hi = 0;
    for (t = 0; t < CLRS_GEN_MAX_FIXED; ++t)
        for (l = 0; l < c->vec; ++l)
            if (c->rel[q][t][l] + 1 > hi)
                hi = c->rel[q][t][l] + 1;
    return hi > c->vec ? (hi + c->vec - 1) / c->vec : 1;
}

/* Span vector path: ns vectors of c->vec elements at src + q into s0,
 * s1, ... (type at); pad: q < 0 means a padding tap of another slot and
 * every lane is `pad`. */
static void emit_span_loads(sbuf *b, const clrs_gen_config *c,
                            const char *at, const char *ind, int pad, int ns)
{
    const int V = c->vec;
    const dtype_row *s = row_of(c->src);
    char conv[32] = "";
    int j;

    if (strcmp(s->nat, acc_type(c)) != 0)
        snprintf(conv, sizeof conv, "convert_%s", at);
    if (pad) {
        sb_add(b, "%s%s s0", ind, at);
        for (j = 1; j < ns; ++j)
            sb_add(b, ", s%d", j);
        sb_add(b, ";\n%sif (q < 0) {\n", ind);
        for (j = 0; j < ns; ++j)
            sb_add(b, "%s    s%d = (%s)(pad);\n", ind, j, at);
        sb_add(b, "%s} else {\n", ind);
        for (j = 0; j < ns; ++j)
            sb_add(b, "%s    s%d = %s(CLRS_LDV_%s(%d, src, q + %d));\n", ind,
                   j, conv, s->name, V, j * V);
        sb_add(b, "%s}\n", ind);
    } else {
        for (j = 0; j < ns; ++j)
            sb_add(b, "%sconst %s s%d = %s(CLRS_LDV_%s(%d, src, q + %d));\n",
                   ind, at, j, conv, s->name, V, j * V);
    }
}

/* Whether pattern row r (one tap, c->vec lanes) names any lane. */
static int pick_used(const clrs_gen_config *c, const signed char *r)
{
    int l, used = 0;
    for (l = 0; l < c->vec; ++l)
        used |= r[l] >= 0;
    return used;
}

/* `name` (type vt, lanes of 8 bytes when wide, else 4): lane l of the
 * span vectors sp0, sp1, ... at r[l], picked with constant shuffles
 * (shuffle2 over pairs of span vectors, joined by select); lanes with
 * r[l] == -1 get padval, lanes with r[l] <= -2 (no such tap) 0. */
static void emit_pick_as(sbuf *b, const clrs_gen_config *c,
                         const signed char *r, const char *ind,
                         const char *padval, const char *name,
                         const char *sp, const char *vt, int wide, int ns)
{
    const int V = c->vec;
    char ut[16], mt[16];
    int pair, first = 1, haspad = 0, absent = 0, l;
    int mask[CLRS_GEN_MAX_LANES], sel[CLRS_GEN_MAX_LANES];

    vtype(ut, sizeof ut, wide ? "ulong" : "uint", V);
    vtype(mt, sizeof mt, wide ? "long" : "int", V);
    /* Lanes from span vectors 2p and 2p + 1, one pair at a time. */
    for (pair = 0; 2 * pair < ns; ++pair) {
        int lo = 2 * pair * V, two = 2 * pair + 1 < ns, used = 0;
        for (l = 0; l < V; ++l)
            used |= r[l] >= lo && r[l] < lo + 2 * V;
        if (!used)
            continue;
        if (first)
            sb_add(b, "%s%s %s = ", ind, vt, name);
        else
            sb_add(b, "%s%s = select(%s, ", ind, name, name);
        for (l = 0; l < V; ++l) {
            int in = r[l] >= lo && r[l] < lo + 2 * V;
            mask[l] = in ? r[l] - lo : 0;
            sel[l] = in ? -1 : 0;
        }
        if (two)
            sb_add(b, "shuffle2(%s%d, %s%d, ", sp, 2 * pair, sp,
                   2 * pair + 1);
        else
            sb_add(b, "shuffle(%s%d, ", sp, 2 * pair);
        emit_lanes(b, ut, mask, V);
        sb_add(b, ")");
        if (!first) {
            sb_add(b, ", ");
            emit_lanes(b, mt, sel, V);
            sb_add(b, ")");
        }
        sb_add(b, ";\n");
        first = 0;
    }
    for (l = 0; l < V; ++l) {
        haspad |= r[l] == -1;
        absent |= r[l] <= -2;
    }
    if (first && !absent) {
        sb_add(b, "%sconst %s %s = (%s)(%s);\n", ind, vt, name, vt, padval);
        return;
    }
    if (first) {
        sb_add(b, "%s%s %s = (%s)(%s);\n", ind, vt, name, vt, padval);
        haspad = 0;
    }
    if (haspad) {
        for (l = 0; l < V; ++l)
            sel[l] = r[l] == -1 ? -1 : 0;
        sb_add(b, "%s%s = select(%s, (%s)(%s), ", ind, name, name, vt,
               padval);
        emit_lanes(b, mt, sel, V);
        sb_add(b, ");\n");
    }
    /* A lane without this tap (its output has fewer): 0, weight 0. */
    if (absent) {
        for (l = 0; l < V; ++l)
            sel[l] = r[l] <= -2 ? -1 : 0;
        sb_add(b, "%s%s = select(%s, (%s)(0), ", ind, name, name, vt);
        emit_lanes(b, mt, sel, V);
        sb_add(b, ");\n");
    }
}

/* "v" (the accumulator type) from the value spans s0, s1, .... */
static void emit_pick(sbuf *b, const clrs_gen_config *c, const signed char *r,
                      const char *ind, const char *padval, int ns)
{
    char at[16];
    vtype(at, sizeof at, acc_type(c), c->vec);
    emit_pick_as(b, c, r, ind, padval, "v", "s", at, c->acc_f64, ns);
}

/* Span vector path, the taps of the last slot for a group of c->vec
 * outputs along kernel axis 0: the pattern's span vectors (pat_spans)
 * loaded from the group's base
 * (q: the other slots' offset plus pgb; negative under a padding tap of
 * another slot), then per pattern and tap the lanes picked with constant
 * shuffles and the padding lanes set to pad. Weights are the tap-major
 * table's, so each lane gets exactly the scalar path's weight product. */
static void emit_phase(sbuf *b, const clrs_gen_config *c, const char *so,
                       const char *ind, int q)
{
    const int V = c->vec, n = c->nslots, k = n - 1, K = c->ntaps;
    const int ns = pat_spans(c, q);
    const char *off = off_type(c), *acc = acc_type(c);
    char at[16], mt[16], ot[16], prev[24], ind2[128];
    int t, l, wsum = c->cls == CLRS_GEN_WSUM;
    int mask[CLRS_GEN_MAX_LANES];

    vtype(at, sizeof at, acc, V);
    vtype(mt, sizeof mt, c->acc_f64 ? "long" : "int", V);
    vtype(ot, sizeof ot, off, V);
    snprintf(ind2, sizeof ind2, "%s        ", ind);
    if (n > 1)
        snprintf(prev, sizeof prev, "o%d", n - 2);
    else
        snprintf(prev, sizeof prev, "%s", so);
    sb_add(b, "%sconst %s q = %s + pgb;\n", ind, off, prev);
    emit_span_loads(b, c, at, ind, c->pad_taps, ns);
    for (t = 0; t < K; ++t) {
        const signed char *r = c->rel[q][t];
        sb_add(b, "%s    {\n", ind);
        emit_pick(b, c, r, ind2, "pad", ns);
        if (wsum) {
            sb_add(b, "%s        const %s wv = ", ind, at);
            if (n > 1)
                sb_add(b, "w%d * ", n - 2);
            if (c->fixed[k])
                sb_add(b,
                       "CLRS_VLOAD(%s, %d, ftab, fw%d + %d * n0 + i0);\n",
                       acc, V, k, t);
            else /* group-major: (group, tap, lane) */
                sb_add(b,
                       "CLRS_VLOAD(%s, %d, ftab, fg + (gq * %d + %d) * "
                       "%d);\n",
                       acc, V, K, t, V);
            sb_add(b, "%s        CLRS_WSUM_STEP(acc, wv, v);\n", ind);
        } else {
            sb_add(b, "%s        const %s cv = (%s)(", ind, ot, ot);
            if (c->has_index && n > 1)
                sb_add(b, "c%d", n - 2);
            else
                sb_add(b, "0");
            if (c->has_index && c->plane)
                sb_add(b, " + pgb");
            sb_add(b, ")");
            if (c->has_index) {
                for (l = 0; l < V; ++l)
                    mask[l] = c->plane ? r[l] : c->code[q][t][l];
                sb_add(b, " + ");
                emit_lanes(b, ot, mask, V);
            }
            sb_add(b, ";\n");
            sb_add(b,
                   "%s        CLRS_MAX_STEPV(%s, convert_%s, v, best, "
                   "have, stop, win, cv);\n",
                   ind, mt, ot);
        }
        sb_add(b, "%s    }\n", ind);
    }
}

/* The span path's branch for pattern q of npat (none when there is one):
 * groups reach it with pgp in [0, npat), so the last is "else"; the
 * caller closes the chain. */
static void emit_pattern_case(sbuf *b, int q, int npat)
{
    if (npat > 1 && q == 0)
        sb_add(b, "        if (pgp == 0) {\n");
    else if (npat > 1 && q + 1 < npat)
        sb_add(b, "        } else if (pgp == %d) {\n", q);
    else if (npat > 1)
        sb_add(b, "        } else {\n");
}

/* The reduction of one output (w == 1) or w consecutive outputs along
 * kernel axis 0 into the declared acc (weighted sum) or best / win /
 * have / stop (max); pat: the span vector path's pattern. */
static void emit_reduce(sbuf *b, const clrs_gen_config *c, int w,
                        const char *so, const char *i0name, int pat,
                        const char *none)
{
    const char *off = off_type(c), *acc = acc_type(c);
    char at[16], ot[16], mt[16], inner[16], code[24];
    char ind[64];
    int n = c->nslots;
    /* The span vector path replaces the last slot's loop. */
    int phase = c->phase && w > 1, nloops = phase ? n - 1 : n;

    vtype(at, sizeof at, acc, w);
    vtype(ot, sizeof ot, off, w);
    vtype(mt, sizeof mt, c->acc_f64 ? "long" : "int", w);
    if (n > 0)
        snprintf(inner, sizeof inner, "o%d", n - 1);
    else
        snprintf(inner, sizeof inner, "%s", so);
    snprintf(ind, sizeof ind, "%*s", 4 * nloops + 12, "");

    if (c->cls == CLRS_GEN_WSUM) {
        sb_add(b, "        acc = (%s)(0);\n", at);
        sb_add(b, "        if (%s) {\n            acc = (%s)(empty);\n"
                  "        } else {\n", none, at);
        emit_loops(b, c, so, nloops, i0name);
        if (phase) {
            emit_phase(b, c, so, ind, pat);
        } else {
            emit_load(b, c, w, at, inner, ind);
            if (n > 0)
                sb_add(b, "%sCLRS_WSUM_STEP(acc, w%d, v);\n", ind, n - 1);
            else
                sb_add(b, "%sacc = v;\n", ind);
        }
        emit_close_loops(b, nloops);
        sb_add(b, "        }\n");
        return;
    }

    /* max */
    sb_add(b, "        best = (%s)(NAN);\n", at);
    sb_add(b, "        win = (%s)(%d);\n", ot, c->plane ? -1 : 0);
    if (w > 1)
        sb_add(b, "        have = (%s)(0);\n        stop = (%s)(0);\n", mt,
               mt);
    else
        sb_add(b, "        have = 0;\n        stop = 0;\n");
    sb_add(b, "        if (!%s) {\n", none);
    if (c->has_index && n > 0) {
        /* The first tap's code: what an all-NaN window reports under
         * NaN ignore. */
        int k;
        sb_add(b, "            win = (%s)(0", ot);
        for (k = 0; k < nloops; ++k)
            if (c->fixed[k] && axis_of_slot(c, k) == 0)
                sb_add(b, " + itab[cd%d + %s]", k, i0name);
            else if (c->fixed[k])
                sb_add(b, " + itab[cd%d + i%d]", k, axis_of_slot(c, k));
            else
                sb_add(b, " + itab[cd%d + b%d]", k, k);
        sb_add(b, ")");
        /* Span vector path: the last slot's first taps, one per lane
         * (tap-major table: contiguous). */
        if (phase)
            sb_add(b, " + vload%d(0, itab + cd%d + i0)", w, n - 1);
        sb_add(b, ";\n");
    }
    emit_loops(b, c, so, nloops, i0name);
    if (phase) {
        emit_phase(b, c, so, ind, pat);
    } else {
        emit_load(b, c, w, at, inner, ind);
        if (c->has_index && n > 0)
            snprintf(code, sizeof code, "c%d", n - 1);
        else
            snprintf(code, sizeof code, "0");
        if (w > 1)
            sb_add(b,
                   "%sCLRS_MAX_STEPV(%s, convert_%s, v, best, have, stop, "
                   "win, (%s)(%s));\n",
                   ind, mt, ot, ot, code);
        else
            sb_add(b, "%sCLRS_MAX_STEP(v, best, have, stop, win, %s);\n",
                   ind, code);
    }
    emit_close_loops(b, nloops);
    sb_add(b, "        }\n");
}

/* One output (w == 1) or w consecutive outputs along kernel axis 0. On
 * the span vector path each pattern has its own reduction; the one store
 * after them keeps its non-temporal hint (LLVM drops it when it merges
 * stores from several branches: half the bandwidth on PoCL). */
static void emit_body(sbuf *b, const clrs_gen_config *c, int w,
                      const char *so, const char *dof, const char *iof,
                      int lane, const char *i0name, const char *none)
{
    const char *off = off_type(c), *acc = acc_type(c);
    char at[16], ot[16], mt[16];
    int q, npat = c->phase && w > 1 ? c->npat : 1;
    const char *val = c->cls == CLRS_GEN_WSUM ? "acc" : "best";

    vtype(at, sizeof at, acc, w);
    vtype(ot, sizeof ot, off, w);
    vtype(mt, sizeof mt, c->acc_f64 ? "long" : "int", w);

    sb_add(b, "    {\n");
    if (c->cls == CLRS_GEN_WSUM) {
        sb_add(b, "        %s acc;\n", at);
    } else {
        sb_add(b, "        %s best;\n        %s win;\n", at, ot);
        sb_add(b, "        %s have, stop;\n", w > 1 ? mt : "int");
    }
    for (q = 0; q < npat; ++q) {
        emit_pattern_case(b, q, npat);
        emit_reduce(b, c, w, so, i0name, q, none);
    }
    if (npat > 1)
        sb_add(b, "        }\n");
    if (!c->index_only) {
        emit_post(b, c, w, dof, val, lane);
        emit_store(b, c, w, dof, val);
    }
    if (c->cls == CLRS_GEN_MAX && c->has_index) {
        const char *it = index_ctype(c->index);
        /* Plane codes of padding taps are negative: the index is -1. */
        if (c->plane && w > 1)
            sb_add(b, "        win = select(win, (%s)(-1), win < (%s)(0));\n",
                   ot, ot);
        else if (c->plane)
            sb_add(b, "        if (win < 0)\n            win = -1;\n");
        if (w > 1)
            sb_add(b, "        vstore%d(convert_%s%d(win), 0, index + %s);\n",
                   w, it, w, iof);
        else
            sb_add(b, "        index[%s] = (%s)win;\n", iof, it);
    }
    sb_add(b, "    }\n");
}

/* ---- backward ------------------------------------------------------------
 * One work-item per diff_src element (or vector of a contiguous identity
 * axis, or group of the span path along the last slot): it walks the
 * Cartesian product of the transposed tap lists of its input indices,
 * slot 0 outermost and each list by increasing output index, so the sum
 * is formed in one fixed order on every run (no atomics: bit-identical
 * results). */

/* Offsets and tap ranges of a backward work-item. */
static void emit_bwd_offsets(sbuf *b, const clrs_gen_config *c)
{
    const char *off = off_type(c);
    int k;

    emit_offset(b, c, "dof", "ds", offsetof(clrs_gen_axis, dst_block), 0);
    emit_pad_guard(b, c);
    emit_offset(b, c, "sob", "ss", offsetof(clrs_gen_axis, src_block), 1);
    if (c->has_index)
        emit_offset(b, c, "iob", "is", offsetof(clrs_gen_axis, idx_block),
                    1);
    if (c->recompute)
        emit_offset(b, c, "xob", "xs", offsetof(clrs_gen_axis, x_block), 1);
    /* This element's plane index: what a matching argmax must equal. */
    if ((c->has_index && c->plane) || c->recompute) {
        /* Span path: the group's first element (myg); a lane's is
         * myg + l. */
        sb_add(b, "    const %s %s = 0", off, c->phase ? "myg" : "myp");
        for (k = 0; k < c->nslots; ++k)
            sb_add(b, " + i%d * pl%d", axis_of_slot(c, k), k);
        sb_add(b, ";\n");
    }
    /* The span path reads the last slot's range per lane, if at all. */
    for (k = 0; k < c->nslots - (c->phase ? 1 : 0); ++k)
        sb_add(b,
               "    const %s b%d = itab[st%d + i%d], "
               "e%d = itab[st%d + i%d + 1];\n",
               off, k, k, axis_of_slot(c, k), k, k, axis_of_slot(c, k));
    if (c->phase)
        sb_add(b,
               "    const %s gq = (%s)get_global_id(0);\n"
               "    const %s pgb = itab[pg + 2 * gq], pgp = itab[pg + 2 * gq "
               "+ 1];\n",
               off, off, off);
}

/* Max recompute: the argmax of forward output (u0, u1, ...) over x, as
 * the forward kernel finds it (same taps, order, tie and NaN rules), its
 * plane code into `win`. */
static void emit_bwd_argmax(sbuf *b, const clrs_gen_config *c, int w,
                            const char *xo, int in0)
{
    const char *off = off_type(c), *acc = acc_type(c);
    const dtype_row *x = row_of(c->x);
    char at[16], ot[16], mt[16], ind[96], ld[96], conv[32] = "";
    char yo[32], gc[16];
    int n = c->nslots, k;

    vtype(at, sizeof at, acc, w);
    vtype(ot, sizeof ot, off, w);
    vtype(mt, sizeof mt, c->acc_f64 ? "long" : "int", w);
    sb_add(b, "%*s%s best = (%s)(NAN);\n", in0, "", at, at);
    /* An all-NaN window under NaN ignore reports its first tap. */
    sb_add(b, "%*s%s win = (%s)(0", in0, "", ot, ot);
    for (k = 0; k < n; ++k)
        sb_add(b, " + itab[fcd%d + itab[fst%d + u%d]]", k, k, k);
    sb_add(b, ");\n");
    if (w > 1)
        sb_add(b, "%*s%s have = (%s)(0), stop = (%s)(0);\n", in0, "", mt, mt,
               mt);
    else
        sb_add(b, "%*sint have = 0, stop = 0;\n", in0, "");
    for (k = 0; k < n; ++k) {
        snprintf(ind, sizeof ind, "%*s", in0 + 4 * k, "");
        sb_add(b,
               "%sfor (%s s%d = itab[fst%d + u%d]; s%d < itab[fst%d + u%d + "
               "1]; ++s%d) {\n",
               ind, off, k, k, k, k, k, k, k);
        if (k == 0)
            sb_add(b, "%s    const %s y0 = %s + itab[fof0 + s0];\n"
                      "%s    const %s g0 = itab[fcd0 + s0];\n",
                   ind, off, xo, ind, off);
        else
            sb_add(b,
                   "%s    const %s y%d = y%d + itab[fof%d + s%d];\n"
                   "%s    const %s g%d = g%d + itab[fcd%d + s%d];\n",
                   ind, off, k, k - 1, k, k, ind, off, k, k - 1, k, k);
    }
    snprintf(ind, sizeof ind, "%*s", in0 + 4 * n, "");
    /* The innermost tap: x offset y<n-1> and plane code g<n-1>. */
    if (n) {
        snprintf(yo, sizeof yo, "y%d", n - 1);
        snprintf(gc, sizeof gc, "g%d", n - 1);
    } else {
        snprintf(yo, sizeof yo, "%s", xo);
        snprintf(gc, sizeof gc, "0");
    }
    if (w > 1)
        snprintf(ld, sizeof ld, "CLRS_LDV_%s(%d, x, %s)", x->name, w, yo);
    else
        snprintf(ld, sizeof ld, "CLRS_LD_%s(x, %s)", x->name, yo);
    if (strcmp(x->nat, acc) != 0) {
        if (w > 1)
            snprintf(conv, sizeof conv, "convert_%s%d", acc, w);
        else
            snprintf(conv, sizeof conv, "convert_%s", acc);
    }
    if (c->pad_taps && n) {
        sb_add(b, "%s%s xv;\n", ind, at);
        sb_add(b, "%sif (%s < 0)\n%s    xv = (%s)(pad);\n", ind, yo, ind,
               at);
        sb_add(b, "%selse\n%s    xv = %s(%s);\n", ind, ind, conv, ld);
    } else {
        sb_add(b, "%sconst %s xv = %s(%s);\n", ind, at, conv, ld);
    }
    if (w > 1)
        sb_add(b,
               "%sCLRS_MAX_STEPV(%s, convert_%s, xv, best, have, stop, win, "
               "(%s)(%s));\n",
               ind, mt, ot, ot, gc);
    else
        sb_add(b, "%sCLRS_MAX_STEP(xv, best, have, stop, win, %s);\n", ind,
               gc);
    for (k = n; k > 0; --k)
        sb_add(b, "%*s}\n", in0 + 4 * (k - 1), "");
}

/* Backward span vector path: the last slot's entries for a group of
 * c->vec diff_src elements, pattern q. The nspan diff_dst vectors from
 * the group's base (plus the other slots' offset), then per entry the
 * lanes picked with constant shuffles. Weighted sum: lanes past their
 * last entry pick 0 with weight 0. Max: the index tensor's spans are
 * picked the same way, and an entry adds its dy where the index names
 * it (window: the outer code plus the entry's box position; plane: the
 * lane's own plane index, myg + l) and the lane has the entry. Each lane
 * adds its entries in the scalar gather's order. */
static void emit_bwd_phase(sbuf *b, const clrs_gen_config *c, const char *so,
                           const char *io, const char *ind, int q)
{
    const int V = c->vec, n = c->nslots, T = c->ntaps;
    const int ns = pat_spans(c, q);
    const char *off = off_type(c);
    const int wide_ix = c->has_index && c->index == CLRS_S64;
    const char *ix = wide_ix ? "long" : "int";
    char at[16], mt[16], xt[16], prev[24], ind2[128];
    int t, j, l, lanes[CLRS_GEN_MAX_LANES];

    vtype(at, sizeof at, acc_type(c), V);
    vtype(mt, sizeof mt, c->acc_f64 ? "long" : "int", V);
    vtype(xt, sizeof xt, ix, V);
    snprintf(ind2, sizeof ind2, "%s    ", ind);
    if (n > 1)
        snprintf(prev, sizeof prev, "o%d", n - 2);
    else
        snprintf(prev, sizeof prev, "%s", so);
    sb_add(b, "%sconst %s q = %s + pgb;\n", ind, off, prev);
    emit_span_loads(b, c, at, ind, 0, ns);
    if (c->cls == CLRS_GEN_MAX) {
        if (n > 1)
            snprintf(prev, sizeof prev, "q%d", n - 2);
        else
            snprintf(prev, sizeof prev, "%s", io);
        sb_add(b, "%sconst %s qx = %s + pgb;\n", ind, off, prev);
        for (j = 0; j < ns; ++j)
            sb_add(b,
                   "%sconst %s x%d = convert_%s(vload%d(0, index + qx + "
                   "%d));\n",
                   ind, xt, j, xt, V, j * V);
    }
    for (t = 0; t < T; ++t) {
        const signed char *r = c->rel[q][t];
        if (!pick_used(c, r))
            continue;
        sb_add(b, "%s{\n", ind);
        emit_pick(b, c, r, ind2, "0", ns);
        if (c->cls == CLRS_GEN_WSUM) {
            if (n > 1)
                sb_add(b, "%sconst %s wv = w%d * g%d;\n", ind2, at, n - 2,
                       t);
            else
                sb_add(b, "%sconst %s wv = g%d;\n", ind2, at, t);
            sb_add(b, "%sCLRS_WSUM_STEP(acc, wv, v);\n", ind2);
        } else {
            emit_pick_as(b, c, r, ind2, "-1", "xv", "x", xt, wide_ix, ns);
            /* The code each lane's entry must find in the index. */
            sb_add(b, "%sconst %s want = (%s)(", ind2, xt, xt);
            if (c->plane)
                sb_add(b, "myg");
            else if (n > 1)
                sb_add(b, "c%d", n - 2);
            else
                sb_add(b, "0");
            sb_add(b, ") + ");
            for (l = 0; l < V; ++l)
                lanes[l] = c->plane ? l : c->code[q][t][l];
            emit_lanes(b, xt, lanes, V);
            sb_add(b, ";\n");
            /* A lane without the entry picked -1, which no code (>= 0)
             * equals. (An explicit lane mask, `(xv == want) & mask`, is
             * miscompiled by Oclgrind 21.10: true lanes come out 1.) */
            if (strcmp(xt, mt) == 0)
                sb_add(b, "%sconst %s hit = xv == want;\n", ind2, mt);
            else
                sb_add(b, "%sconst %s hit = convert_%s(xv == want);\n",
                       ind2, mt, mt);
            sb_add(b, "%sacc = select(acc, acc + v, hit);\n", ind2);
        }
        sb_add(b, "%s}\n", ind);
    }
}

/* The gather of one diff_src element (w == 1) or w consecutive ones into
 * the declared acc: the loop nest over every slot's transposed entries,
 * the last slot's replaced by pattern q's shuffles on the span path. */
static void emit_bwd_reduce(sbuf *b, const clrs_gen_config *c, int w,
                            const char *so, const char *io, const char *xo,
                            int q)
{
    const char *off = off_type(c), *acc = acc_type(c);
    const dtype_row *s = row_of(c->src);
    char at[16], mt[16], ind[96], ld[96], conv[32] = "", ok[24], code[24];
    int n = c->nslots, k, wsum = c->cls == CLRS_GEN_WSUM;
    int window = c->has_index && !c->plane;
    int phase = c->phase && w > 1, nloops = phase ? n - 1 : n;

    vtype(at, sizeof at, acc, w);
    vtype(mt, sizeof mt, c->acc_f64 ? "long" : "int", w);
    /* The group's weights, once for every entry of the other slots. */
    if (phase && wsum) {
        int t;
        for (t = 0; t < c->ntaps; ++t)
            if (pick_used(c, c->rel[q][t]))
                sb_add(b,
                       "        const %s g%d = CLRS_VLOAD(%s, %d, ftab, fg + "
                       "(gq * %d + %d) * %d);\n",
                       at, t, acc, w, c->ntaps, t, w);
    }
    for (k = 0; k < nloops; ++k) {
        snprintf(ind, sizeof ind, "%*s", 8 + 4 * k, "");
        sb_add(b, "%sfor (%s t%d = b%d; t%d < e%d; ++t%d) {\n", ind, off, k,
               k, k, k, k);
        if (k == 0)
            sb_add(b, "%s    const %s o0 = %s + itab[of0 + t0];\n", ind, off,
                   so);
        else
            sb_add(b, "%s    const %s o%d = o%d + itab[of%d + t%d];\n", ind,
                   off, k, k - 1, k, k);
        if (wsum && k == 0)
            sb_add(b, "%s    const %s w0 = ftab[fw0 + t0];\n", ind, acc);
        else if (wsum)
            sb_add(b, "%s    const %s w%d = w%d * ftab[fw%d + t%d];\n", ind,
                   acc, k, k - 1, k, k);
        if (c->has_index && k == 0)
            sb_add(b, "%s    const %s q0 = %s + itab[ix0 + t0];\n", ind, off,
                   io);
        else if (c->has_index)
            sb_add(b, "%s    const %s q%d = q%d + itab[ix%d + t%d];\n", ind,
                   off, k, k - 1, k, k);
        if (window && k == 0)
            sb_add(b, "%s    const %s c0 = itab[cd0 + t0];\n", ind, off);
        else if (window)
            sb_add(b, "%s    const %s c%d = c%d + itab[cd%d + t%d];\n", ind,
                   off, k, k - 1, k, k);
        if (c->recompute)
            sb_add(b, "%s    const %s u%d = itab[cd%d + t%d];\n", ind, off, k,
                   k, k);
    }
    if (phase) {
        snprintf(ind, sizeof ind, "%*s", 8 + 4 * nloops, "");
        emit_bwd_phase(b, c, so, io, ind, q);
        for (k = nloops; k > 0; --k)
            sb_add(b, "%*s}\n", 8 + 4 * (k - 1), "");
        return;
    }
    snprintf(ind, sizeof ind, "%*s", 8 + 4 * n, "");
    {
        char o[16];
        if (n)
            snprintf(o, sizeof o, "o%d", n - 1);
        else
            snprintf(o, sizeof o, "%s", so);
        if (w > 1)
            snprintf(ld, sizeof ld, "CLRS_LDV_%s(%d, src, %s)", s->name, w, o);
        else
            snprintf(ld, sizeof ld, "CLRS_LD_%s(src, %s)", s->name, o);
    }
    if (strcmp(s->nat, acc) != 0) {
        if (w > 1)
            snprintf(conv, sizeof conv, "convert_%s%d", acc, w);
        else
            snprintf(conv, sizeof conv, "convert_%s", acc);
    }
    sb_add(b, "%sconst %s v = %s(%s);\n", ind, at, conv, ld);
    if (wsum) {
        if (n)
            sb_add(b, "%sCLRS_WSUM_STEP(acc, w%d, v);\n", ind, n - 1);
        else
            sb_add(b, "%sacc += v;\n", ind);
    } else {
        /* Max: dy[o] goes to this element when o's argmax is this
         * element. An index value no tap has (out of range, or a padding
         * tap's) matches no element: it sends nowhere and is never used
         * as an address. */
        if (c->recompute) {
            emit_bwd_argmax(b, c, w, xo, 8 + 4 * n);
            snprintf(code, sizeof code, "myp");
        } else if (window) {
            if (n)
                snprintf(code, sizeof code, "c%d", n - 1);
            else
                snprintf(code, sizeof code, "0");
        } else {
            snprintf(code, sizeof code, "myp");
        }
        if (n)
            snprintf(ok, sizeof ok, "q%d", n - 1);
        else
            snprintf(ok, sizeof ok, "%s", io);
        if (c->recompute && w > 1) {
            char ot[16];
            vtype(ot, sizeof ot, off, w);
            sb_add(b, "%sacc = select(acc, acc + v, convert_%s(win == (%s)(myp)));\n",
                   ind, mt, ot);
        } else if (c->recompute) {
            sb_add(b, "%sif (win == myp)\n%s    acc += v;\n", ind, ind);
        } else if (w > 1) {
            sb_add(b,
                   "%sacc = select(acc, acc + v, convert_%s(convert_long%d("
                   "vload%d(0, index + %s)) == (long%d)(%s)));\n",
                   ind, mt, w, w, ok, w, code);
        } else {
            sb_add(b, "%sif ((long)index[%s] == (long)(%s))\n%s    acc += v;\n",
                   ind, ok, code, ind);
        }
    }
    for (k = n; k > 0; --k)
        sb_add(b, "%*s}\n", 8 + 4 * (k - 1), "");
}

/* One diff_src element (w == 1) or w consecutive ones along axis 0. On
 * the span path each pattern has its own gather and one store follows
 * them all (see emit_body). */
static void emit_bwd_body(sbuf *b, const clrs_gen_config *c, int w,
                          const char *so, const char *dof, const char *io,
                          const char *xo)
{
    const char *acc = acc_type(c);
    const dtype_row *d = row_of(c->dst);
    char at[16], conv[32] = "";
    int q, npat = c->phase && w > 1 ? c->npat : 1;

    vtype(at, sizeof at, acc, w);
    sb_add(b, "    {\n");
    if (c->accumulate) {
        /* beta = 1: the old diff_src is the first term of the sum. */
        if (strcmp(d->nat, acc) != 0 && w > 1)
            snprintf(conv, sizeof conv, "convert_%s%d", acc, w);
        else if (strcmp(d->nat, acc) != 0)
            snprintf(conv, sizeof conv, "convert_%s", acc);
        if (w > 1)
            sb_add(b, "        %s acc = %s(CLRS_LDV_%s(%d, dst, %s));\n", at,
                   conv, d->name, w, dof);
        else
            sb_add(b, "        %s acc = %s(CLRS_LD_%s(dst, %s));\n", at, conv,
                   d->name, dof);
    } else {
        sb_add(b, "        %s acc = (%s)(0);\n", at, at);
    }
    for (q = 0; q < npat; ++q) {
        emit_pattern_case(b, q, npat);
        emit_bwd_reduce(b, c, w, so, io, xo, q);
    }
    if (npat > 1)
        sb_add(b, "        }\n");
    emit_store(b, c, w, dof, "acc");
    sb_add(b, "    }\n");
}

static void emit_backward(sbuf *b, const clrs_gen_config *c)
{
    emit_indices(b, c);
    emit_bwd_offsets(b, c);
    if (c->phase) {
        /* Groups without a pattern go lane by lane: the scalar gather of
         * diff_src element i0 + l along the last slot. */
        const char *off = off_type(c);
        int k = c->nslots - 1;
        sb_add(b, "    if (pgp >= 0) {\n");
        emit_bwd_body(b, c, c->vec, "sob", "dof", "iob", "xob");
        sb_add(b, "    } else {\n");
        sb_add(b, "    for (%s l = 0; l < %d && i0 + l < n0; ++l) {\n", off,
               c->vec);
        sb_add(b,
               "    const %s b%d = itab[st%d + i0 + l], "
               "e%d = itab[st%d + i0 + l + 1];\n",
               off, k, k, k, k);
        if (c->has_index && c->plane)
            sb_add(b, "    const %s myp = myg + l;\n", off);
        emit_bwd_body(b, c, 1, "sob", "(dof + l)", "iob", "xob");
        sb_add(b, "    }\n    }\n");
    } else if (c->vec > 1 && c->tail) {
        sb_add(b, "    if (i0 + %d <= n0) {\n", c->vec);
        emit_bwd_body(b, c, c->vec, "sob", "dof", "iob", "xob");
        sb_add(b, "    } else {\n");
        sb_add(b, "    for (%s l = 0; i0 + l < n0; ++l)\n", off_type(c));
        emit_bwd_body(b, c, 1, "(sob + l)", "(dof + l)", "(iob + l)",
                      "(xob + l)");
        sb_add(b, "    }\n");
    } else {
        emit_bwd_body(b, c, c->vec, "sob", "dof", "iob", "xob");
    }
}

clrs_status clrs__gen_source(const clrs_gen_config *c, const char *key,
                             char **source)
{
    static const char *const parts[] = {"common.cl", "dtype.cl",
                                        "reduce.cl"};
    const dtype_row *s = row_of(c->src), *d = row_of(c->dst);
    sbuf b = {0};
    size_t i;
    int fp64 = 0;

    *source = NULL;
    CLRS_CHECK(s && d, CLRS_ERR_NOT_IMPLEMENTED,
               "no kernel for dtypes %s -> %s", clrs_dtype_name(c->src),
               clrs_dtype_name(c->dst));
    CLRS_CHECK(!c->recompute || row_of(c->x), CLRS_ERR_NOT_IMPLEMENTED,
               "no kernel for x dtype %s", clrs_dtype_name(c->x));
    CLRS_CHECK(c->vec == 1 || d->vstore, CLRS_ERR_INVALID_VALUE,
               "codegen: dst %s has no vector store", d->name);
    for (i = 0; i < (size_t)c->npost; ++i) {
        const clrs_gen_post *q = &c->post[i];
        CLRS_CHECK(clrs__gen_post_supported(q->kind, q->alg) &&
                       (q->kind != CLRS_POST_BINARY || row_of(q->dt)),
                   CLRS_ERR_NOT_IMPLEMENTED, "no kernel for post-op %d",
                   (int)i);
        if (q->kind == CLRS_POST_BINARY && row_of(q->dt)->fp64)
            fp64 = 1;
    }

    sb_add(&b,
           "/* Generated by clresample codegen v%d (library %s) for the "
           "configuration\n * %s */\n",
           CLRS_GEN_VERSION, CLRS_VERSION_STRING, key);
    /* Contraction would turn w * v + acc into fma and round differently
     * from the reference's tap sums on some devices and not others. */
    sb_add(&b, "#pragma OPENCL FP_CONTRACT OFF\n");
    if (c->acc_f64 || s->fp64 || d->fp64 || fp64 ||
        (c->recompute && row_of(c->x)->fp64))
        sb_add(&b, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                   "#define CLRS_ACC_F64 1\n");
    if (c->f16_native)
        sb_add(&b, "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                   "#define CLRS_F16_NATIVE 1\n");
    sb_add(&b, "#define CLRS_ROW_%s 1\n", s->name);
    if (d != s)
        sb_add(&b, "#define CLRS_ROW_%s 1\n", d->name);
    if (c->recompute && row_of(c->x) != s && row_of(c->x) != d)
        sb_add(&b, "#define CLRS_ROW_%s 1\n", row_of(c->x)->name);
    for (i = 0; i < (size_t)c->npost; ++i) {
        const clrs_gen_post *q = &c->post[i];
        const post_row *r = post_row_of(q->kind, q->alg);
        if (q->kind == CLRS_POST_BINARY) {
            const char *nm = row_of(q->dt)->name;
            sb_add(&b, "#ifndef CLRS_ROW_%s\n#define CLRS_ROW_%s 1\n#endif\n",
                   nm, nm);
            sb_add(&b, "#define CLRS_POST%d(X, Y) %s\n", (int)i, r->expr);
        } else if (q->kind == CLRS_POST_ELTWISE) {
            sb_add(&b, "#define CLRS_POST%d(T, X, A, B) %s\n", (int)i,
                   r->expr);
        }
    }
    sb_add(&b, "#define CLRS_NAN_IGNORE %d\n\n", c->nan_ignore ? 1 : 0);
    for (i = 0; i < sizeof parts / sizeof parts[0]; ++i) {
        const char *t = snippet(parts[i]);
        if (!t) {
            free(b.s);
            return clrs__error(CLRS_ERR_BUILD_FAILED,
                               "codegen: building block %s is missing",
                               parts[i]);
        }
        sb_add(&b, "/* ---- %s ---- */\n%s\n", parts[i], t);
    }

    sb_add(&b, "/* ---- kernel ---- */\n");
    sb_add(&b, "__kernel void %s(\n",
           c->backward ? "clrs_backward" : "clrs_forward");
    emit_args(&b, c);
    sb_add(&b, "{\n");
    if (c->backward) {
        emit_backward(&b, c);
        sb_add(&b, "}\n");
        return sb_finish(&b, source);
    }
    emit_indices(&b, c);
    emit_offsets(&b, c);
    if (c->phase) {
        /* Groups without a pattern go lane by lane: the scalar body at
         * output i0 + l of the resampled axis 0 (dst, index and operands
         * are contiguous there). */
        sb_add(&b, "    if (pgp >= 0) {\n");
        emit_body(&b, c, c->vec, "sob", "dof", "iof", 0, "i0", "none");
        sb_add(&b, "    } else {\n");
        if (span_var(c)) {
            int k = c->nslots - 1;
            sb_add(&b, "    for (%s l = 0; l < %d && i0 + l < n0; ++l) {\n",
                   off_type(c), c->vec);
            sb_add(&b,
                   "    const %s b%d = itab[st%d + i0 + l], "
                   "e%d = itab[st%d + i0 + l + 1];\n"
                   "    const int none_l = none || b%d == e%d;\n",
                   off_type(c), k, k, k, k, k, k);
            emit_body(&b, c, 1, "sob", "(dof + l)", "(iof + l)", 1,
                      "(i0 + l)", "none_l");
            sb_add(&b, "    }\n");
        } else {
            sb_add(&b, "    for (%s l = 0; l < %d && i0 + l < n0; ++l)\n",
                   off_type(c), c->vec);
            emit_body(&b, c, 1, "sob", "(dof + l)", "(iof + l)", 1,
                      "(i0 + l)", "none");
        }
        sb_add(&b, "    }\n");
    } else if (c->vec > 1 && c->tail) {
        sb_add(&b, "    if (i0 + %d <= n0) {\n", c->vec);
        emit_body(&b, c, c->vec, "sob", "dof", "iof", 0, "i0", "none");
        sb_add(&b, "    } else {\n");
        sb_add(&b, "    for (%s l = 0; i0 + l < n0; ++l)\n", off_type(c));
        emit_body(&b, c, 1, "(sob + l)", "(dof + l)", "(iof + l)", 1, "i0",
                  "none");
        sb_add(&b, "    }\n");
    } else {
        emit_body(&b, c, c->vec, "sob", "dof", "iof", 0, "i0", "none");
    }
    sb_add(&b, "}\n");
    return sb_finish(&b, source);
}
