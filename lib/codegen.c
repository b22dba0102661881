/* The OpenCL C generator: composes one kernel per configuration, forward
 * or backward, from the embedded cl/ building blocks, the argument list
 * (gen_key.c), the offsets of a work-item, and its body: the forward
 * reduction over the taps (gen_reduce.c) or the backward gather over the
 * transposed taps (gen_gather.c), on the span path through shuffles
 * (gen_span.c). Everything that varies per shape is a kernel argument.
 * Data types and post-ops are rows (gen_rows.c, from feature_maps.h); the
 * one dtype named here is f16, for the cl_khr_fp16 pragma (a new dtype
 * also touches other files: lib/README.md, "Checklists"). */
#include "gen_emit.h"

#include <stddef.h>
#include <stdlib.h>

/* ---- source -------------------------------------------------------------- */

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

/* Offset term of index `i` on kernel axis p along stride `s` (blocked
 * axes split into block and lane). */
static void emit_term(sbuf *b, const char *i, int block, const char *s,
                      int p, int first)
{
    const char *plus = first ? "" : " + ";

    if (block)
        sb_add(b, "%sCLRS_BLK(%s, %d, %s%d)", plus, i, block, s, p);
    else
        sb_add(b, "%s%s * %s%d", plus, i, s, p);
}

/* "const <off> NAME = i<p> * <prefix><p> + ...;" (0 without a term): a
 * tensor's element offset over every kernel axis, or over the identity
 * axes only, with each axis's block size read at byte offset `blk` of
 * clrs_gen_axis. */
static void emit_offset(sbuf *b, const clrs_gen_config *c, const char *name,
                        const char *prefix, size_t blk, int identity_only)
{
    char i[16];
    int p, terms = 0;

    sb_add(b, "const %s %s = ", off_type(c), name);
    for (p = 0; p < c->rank; ++p) {
        const clrs_gen_axis *a = &c->ax[p];
        if (identity_only && a->slot >= 0)
            continue;
        snprintf(i, sizeof i, "i%d", p);
        emit_term(b, i, *(const int *)(const void *)((const char *)a + blk),
                  prefix, p, terms++ == 0);
    }
    sb_add(b, "%s;\n", terms ? "" : "0");
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
        sb_add(b, "const %s i0 = (%s)get_global_id(0) * %d;\n", off, off,
               c->vec * mvec_of(c, c->vec) * walk_of(c));
    else
        sb_add(b, "const %s i0 = (%s)get_global_id(0);\n", off, off);
    if (c->rank > 1)
        sb_add(b, "const %s i1 = (%s)get_global_id(1);\n", off, off);
    if (c->rank > 2) {
        sb_add(b, "%s r = (%s)get_global_id(2);\n", uoff, uoff);
        /* r - q * n rather than r % n: LLVM turns a div/rem pair into
         * a "freeze" instruction that Oclgrind's checker cannot run. */
        for (p = 2; p + 1 < c->rank; ++p) {
            sb_add(b, "const %s q%d = r / (%s)n%d;\n", uoff, p, uoff, p);
            sb_add(b, "const %s i%d = (%s)(r - q%d * (%s)n%d);\n", off, p,
                   off, p, uoff, p);
            sb_add(b, "r = q%d;\n", p);
        }
        sb_add(b, "const %s i%d = (%s)r;\n", off, c->rank - 1, off);
    }
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
            sb_add(b, "if (i%d >= nr%d)\n    return;\n", p, p);
        else if (c->ax[p].dst_block && !(p == 0 && c->vec > 1))
            sb_add(b,
                   "if (i%d >= nr%d) {\n"
                   "    CLRS_ST_%s(dst, dof, (%s)(0));\n"
                   "    return;\n"
                   "}\n",
                   p, p, row_of(c->dst)->name, acc_type(c));
}

/* The work-item's element offsets in every tensor, the tap ranges of
 * the resampled axes and, on the span path, its group. Forward the index
 * tensor is shaped like dst (iof, over every axis); backward like
 * diff_dst (iob, identity axes; the tables give the rest), and a plane
 * index match needs this element's own plane index. */
static void emit_offsets(sbuf *b, const clrs_gen_config *c)
{
    const char *off = off_type(c);
    const int bwd = c->backward;
    /* The span path reads the last slot's range per lane, if at all. */
    const int skip_last = bwd ? c->span : span_var(c);
    int p, k;

    if (!c->index_only)
        emit_offset(b, c, "dof", "ds", offsetof(clrs_gen_axis, dst_block),
                    0);
    emit_pad_guard(b, c);
    emit_offset(b, c, "sob", "ss", offsetof(clrs_gen_axis, src_block), 1);
    if (c->has_index)
        emit_offset(b, c, bwd ? "iob" : "iof", "is",
                    offsetof(clrs_gen_axis, idx_block), bwd);
    if (c->recompute)
        emit_offset(b, c, "xob", "xs", offsetof(clrs_gen_axis, x_block), 1);
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
    if (bwd && ((c->has_index && c->plane) || c->recompute)) {
        /* Span path: the group's first element (myg); a lane's is
         * myg + l. */
        sb_add(b, "const %s %s = ", off, c->span ? "myg" : "myp");
        for (k = 0; k < c->nslots; ++k)
            sb_add(b, "%si%d * pl%d", k ? " + " : "", axis_of_slot(c, k), k);
        sb_add(b, "%s;\n", c->nslots ? "" : "0");
    }
    /* Tap ranges of each resampled axis; an empty range means no taps
     * (crop extrapolation, or an average window without pixels). */
    for (k = 0; k < c->nslots - (skip_last ? 1 : 0); ++k) {
        p = axis_of_slot(c, k);
        if (!c->fixed[k])
            sb_add(b,
                   "const %s b%d = itab[st%d + i%d], "
                   "e%d = itab[st%d + i%d + 1];\n",
                   off, k, k, p, k, k, p);
    }
    if (walk_of(c) > 1)
        sb_add(b,
               "const %s gq0 = (%s)get_global_id(0) * %d;\n"
               "%s gn = (n0 + %d) / %d - gq0;\n"
               "if (gn > %d)\n    gn = %d;\n",
               off, off, walk_of(c), off, c->vec - 1, c->vec, walk_of(c),
               walk_of(c));
    else if (c->span)
        sb_add(b,
               "const %s gq = (%s)get_global_id(0);\n"
               "const %s pgb = itab[pg + 2 * gq], pgp = itab[pg + 2 * gq "
               "+ 1];\n",
               off, off, off);
    if (!has_none(c))
        return;
    /* The span path's groups have taps in every lane: its lane by lane
     * code adds the last slot's own test (none_l). */
    sb_add(b, "const int none =");
    for (k = 0, p = 0; k < c->nslots - (skip_last ? 1 : 0); ++k)
        if (!c->fixed[k])
            sb_add(b, "%s b%d == e%d", p++ ? " ||" : "", k, k);
    sb_add(b, ";\n");
}

void emit_store(sbuf *b, const clrs_gen_config *c, int w,
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
        sb_add(b, "%s = ((%s)(i0) + (%s)(", val, mt, mt);
        for (l = 0; l < w; ++l)
            sb_add(b, "%s%d", l ? ", " : "", l);
        sb_add(b, ") >= (%s)(nr0)) ? (%s)(0) : %s;\n", mt, at, val);
    }
    if (w > 1)
        sb_add(b, "CLRS_STV%s_%s(%d, dst, %s, %s);\n", nt,
               row_of(c->dst)->name, w, dof, val);
    else
        sb_add(b, "CLRS_ST%s_%s(dst, %s, %s);\n", nt,
               row_of(c->dst)->name, dof, val);
}

/* A load of dtype row r at offset o, converted to the accumulator
 * type: w lanes (vector load), or a scalar broadcast to w lanes. */
void load_acc(char *buf, size_t n, const clrs_gen_config *c,
                     const dtype_row *r, const char *p, const char *o, int w,
                     int bcast)
{
    const char *acc = acc_type(c);
    /* "convert_T(" and its ")" where the load's type is not acc's */
    const int same = strcmp(r->nat, acc) == 0;
    const char *close = same ? "" : ")";
    char at[16], conv[32] = "";

    vtype(at, sizeof at, acc, w);
    if (!same)
        snprintf(conv, sizeof conv, "convert_%s(", w > 1 && !bcast ? at : acc);
    if (w > 1 && !bcast)
        snprintf(buf, n, "%sCLRS_LDV_%s(%d, %s, %s)%s", conv, r->name, w, p,
                 o, close);
    else if (w > 1)
        snprintf(buf, n, "(%s)(%sCLRS_LD_%s(%s, %s)%s)", at, conv, r->name,
                 p, o, close);
    else
        snprintf(buf, n, "%sCLRS_LD_%s(%s, %s)%s", conv, r->name, p, o,
                 close);
}

/* The post-op chain on `val` (w lanes), in the accumulator type, before
 * the one rounding to dst. lane: the scalar tail loop's `l` is in scope
 * (the operand offsets step by their axis-0 strides). The sum reads dst
 * before the store overwrites it. */
void emit_post(sbuf *b, const clrs_gen_config *c, int w,
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
            sb_add(b, "%s = %s + pa%d * %s;\n", val, val, k, ld);
            break;
        case CLRS_POST_ELTWISE:
            sb_add(b, "%s = CLRS_POST%d(%s, %s, pa%d, pb%d);\n", val,
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
            sb_add(b, "%s = CLRS_POST%d(%s, %s);\n", val, k, val, ld);
            break;
        }
    }
}

/* ---- the kernel body ----------------------------------------------------- */

/* The accumulators of one body. Forward: declared, each pattern's
 * reduction sets them. Backward: the gather adds to acc, which starts at
 * the old diff_src under accumulation (beta = 1) and at 0 otherwise. */
static void emit_accumulators(sbuf *b, const clrs_gen_config *c, int w,
                              const char *dof)
{
    const char *acc = acc_type(c);
    const dtype_row *d = row_of(c->dst);
    char at[16], ot[16], mt[16];

    vtype(at, sizeof at, acc, w);
    vtype(ot, sizeof ot, off_type(c), w);
    vtype(mt, sizeof mt, c->acc_f64 ? "long" : "int", w);
    if (!c->backward && c->cls == CLRS_GEN_WSUM) {
        sb_add(b, "%s acc;\n", at);
    } else if (!c->backward) {
        sb_add(b, "%s best;\n%s win;\n", at, ot);
        sb_add(b, "%s have, stop;\n", w > 1 ? mt : "int");
    } else if (c->accumulate) {
        int m;
        char o[48], ld[192];
        for (m = 0; m < mvec_of(c, w); ++m) {
            if (w > 1)
                snprintf(o, sizeof o, "%s + %d", dof, m * w);
            else
                snprintf(o, sizeof o, "%s", dof);
            load_acc(ld, sizeof ld, c, d, "dst", o, w, 0);
            sb_add(b, "%s %s = %s;\n", at, acc_name(m), ld);
        }
    } else {
        int m;
        for (m = 0; m < mvec_of(c, w); ++m)
            sb_add(b, "%s %s = (%s)(0);\n", at, acc_name(m), at);
    }
}

/* A forward max pooling's index output: the winning code (plane codes of
 * padding taps are negative: the index is -1). */
static void emit_index_store(sbuf *b, const clrs_gen_config *c, int w,
                             const char *io)
{
    const char *it = index_ctype(c->index);
    char ot[16];

    vtype(ot, sizeof ot, off_type(c), w);
    if (c->plane && w > 1)
        sb_add(b, "win = select(win, (%s)(-1), win < (%s)(0));\n",
               ot, ot);
    else if (c->plane)
        sb_add(b, "if (win < 0)\n    win = -1;\n");
    if (w > 1)
        sb_add(b, "vstore%d(convert_%s%d(win), 0, index + %s);\n", w,
               it, w, io);
    else
        sb_add(b, "index[%s] = (%s)win;\n", io, it);
}

/* One written element (w == 1) or w consecutive ones along kernel axis
 * 0, inside the block the caller opened (the kernel's, an if's, a
 * for's): forward the reduction over the taps, backward the gather over
 * the transposed taps. On the span vector path each pattern has its own
 * reduction; the one store after them keeps its non-temporal hint (LLVM
 * drops it when it merges stores from several branches: half the
 * bandwidth on PoCL). */
void emit_body(sbuf *b, const clrs_gen_config *c, int w,
                      const body_at *at)
{
    int q, npat = c->span && w > 1 ? c->npat : 1;
    const char *val =
        c->backward || c->cls == CLRS_GEN_WSUM ? "acc" : "best";

    emit_accumulators(b, c, w, at->dof);
    for (q = 0; q < npat; ++q) {
        emit_pattern_case(b, q, npat);
        if (c->backward)
            emit_gather(b, c, w, at->so, at->io, at->xo, q);
        else
            emit_reduce(b, c, w, at->so, at->i0, q, at->none);
    }
    if (npat > 1)
        sb_close(b);
    if (!c->index_only && mvec_of(c, w) > 1) {
        /* Backward gathers only: no post-ops. */
        int m;
        char dofm[48];
        for (m = 0; m < mvec_of(c, w); ++m) {
            snprintf(dofm, sizeof dofm, "(%s + %d)", at->dof, m * w);
            emit_store(b, c, w, dofm, acc_name(m));
        }
    } else if (!c->index_only) {
        emit_post(b, c, w, at->dof, val, at->lane);
        emit_store(b, c, w, at->dof, val);
    }
    if (!c->backward && c->cls == CLRS_GEN_MAX && c->has_index)
        emit_index_store(b, c, w, at->io);
}

/* A span group without a pattern, one lane at a time: the scalar body
 * at written element i0 + l of the last slot (every tensor is
 * contiguous there), with that lane's own tap range where the span path
 * does not read the ranges. */
void emit_group_lanes(sbuf *b, const clrs_gen_config *c)
{
    const char *off = off_type(c), *io = c->backward ? "iob" : "iof";
    int k = c->nslots - 1, own = c->backward || span_var(c);
    body_at l = {"sob", "(dof + l)", NULL, "xob", "(i0 + l)", NULL, 1};
    char lio[16];

    l.none = has_none(c) ? "none" : NULL;
    snprintf(lio, sizeof lio, "(%s + l)", io);
    l.io = c->backward ? io : lio;
    sb_open(b, "for (%s l = 0; l < %d && i0 + l < n0; ++l)", off, c->vec);
    if (own)
        sb_add(b,
               "const %s b%d = itab[st%d + i0 + l], "
               "e%d = itab[st%d + i0 + l + 1];\n",
               off, k, k, k, k);
    if (own && !c->backward) {
        sb_add(b, "const int none_l = %sb%d == e%d;\n",
               has_none(c) ? "none || " : "", k, k);
        l.none = "none_l";
    }
    if (c->backward && c->has_index && c->plane)
        sb_add(b, "const %s myp = myg + l;\n", off);
    emit_body(b, c, 1, &l);
    sb_close(b);
}

void emit_vector_item(sbuf *b, const clrs_gen_config *c, const body_at *at)
{
    const char *off = off_type(c);
    body_at l = {"(sob + l)", "(dof + l)", NULL, "(xob + l)", "i0", NULL, 1};
    char lio[16];

    if (!c->tail) {
        emit_body(b, c, c->vec, at);
        return;
    }
    l.none = at->none;
    snprintf(lio, sizeof lio, "(%s + l)", at->io);
    l.io = lio;
    sb_open(b, "if (i0 + %d <= n0)", c->vec);
    emit_body(b, c, c->vec, at);
    sb_else(b, "else");
    sb_open(b, "for (%s l = 0; i0 + l < n0; ++l)", off);
    emit_body(b, c, 1, &l);
    sb_close(b);
    sb_close(b);
}

/* Each variant's work-item (variant.h), by its row. */
typedef void (*item_fn)(sbuf *b, const clrs_gen_config *c,
                        const body_at *at);
#define ITEM_FN_(e, ...) clrs__gen_item_##e,
static const item_fn items[] = {CLRS_VARIANT_MAP(ITEM_FN_)};
#undef ITEM_FN_

/* The work-item: indices, offsets, then its variant's body. */
static void emit_work_item(sbuf *b, const clrs_gen_config *c)
{
    body_at at = {"sob", "dof", NULL, "xob", "i0", NULL, 0};

    at.io = c->backward ? "iob" : "iof";
    at.none = has_none(c) ? "none" : NULL;
    emit_indices(b, c);
    emit_offsets(b, c);
    items[c->variant](b, c, &at);
}

/* The kernel's header: who generated it from what, the pragmas and
 * defines it needs and its post-op macros. fp64: a binary operand needs
 * cl_khr_fp64; in: the building blocks it gets. */
static void emit_header(sbuf *b, const clrs_gen_config *c, const char *key,
                        int fp64, const unsigned char *in)
{
    const dtype_row *s = row_of(c->src), *d = row_of(c->dst);
    int i;

    sb_add(b,
           "/* Generated by clresample codegen v%d (library %s) for the "
           "configuration\n * %s */\n",
           CLRS_GEN_VERSION, CLRS_VERSION_STRING, key);
    /* Contraction would turn w * v + acc into fma and round differently
     * from the reference's tap sums on some devices and not others. */
    sb_add(b, "#pragma OPENCL FP_CONTRACT OFF\n");
    if (c->acc_f64 || s->fp64 || d->fp64 || fp64 ||
        (c->recompute && row_of(c->x)->fp64))
        sb_add(b, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                  "#define CLRS_ACC_F64 1\n");
    if (c->f16_native)
        sb_add(b, "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                  "#define CLRS_F16_NATIVE 1\n");
    /* The eltwise rows' constants in the accumulator's type: an
     * unsuffixed literal is a double, which a device without fp64
     * would round to float with a warning. */
    if (c->npost > 0)
        sb_add(b, "#define CLRS_K(v) v%s\n", c->acc_f64 ? "" : "##f");
    for (i = 0; i < c->npost; ++i) {
        const clrs_gen_post *q = &c->post[i];
        const post_row *r = post_row_of(q->kind, q->alg);
        if (q->kind == CLRS_POST_BINARY)
            sb_add(b, "#define CLRS_POST%d(X, Y) %s\n", i, r->expr);
        else if (q->kind == CLRS_POST_ELTWISE)
            sb_add(b, "#define CLRS_POST%d(T, X, A, B) %s\n", i, r->expr);
    }
    if (parts_name(in, "CLRS_NAN_IGNORE"))
        sb_add(b, "#define CLRS_NAN_IGNORE %d\n", c->nan_ignore ? 1 : 0);
    sb_add(b, "\n");
}

/* Whether the configuration has a kernel: its dtypes and post-ops have
 * rows. *fp64: a binary operand needs cl_khr_fp64. */
static clrs_status check_rows(const clrs_gen_config *c, int *fp64)
{
    const dtype_row *s = row_of(c->src), *d = row_of(c->dst);
    int i;

    *fp64 = 0;
    CLRS_CHECK(s && d, CLRS_ERR_NOT_IMPLEMENTED,
               "no kernel for dtypes %s -> %s", clrs_dtype_name(c->src),
               clrs_dtype_name(c->dst));
    CLRS_CHECK(!c->recompute || row_of(c->x), CLRS_ERR_NOT_IMPLEMENTED,
               "no kernel for x dtype %s", clrs_dtype_name(c->x));
    CLRS_CHECK(c->vec == 1 || d->vstore, CLRS_ERR_INVALID_VALUE,
               "codegen: dst %s has no vector store", d->name);
    for (i = 0; i < c->npost; ++i) {
        const clrs_gen_post *q = &c->post[i];
        CLRS_CHECK(clrs__gen_post_supported(q->kind, q->alg) &&
                       (q->kind != CLRS_POST_BINARY || row_of(q->dt)),
                   CLRS_ERR_NOT_IMPLEMENTED, "no kernel for post-op %d", i);
        if (q->kind == CLRS_POST_BINARY && row_of(q->dt)->fp64)
            *fp64 = 1;
    }
    return CLRS_SUCCESS;
}

/* The kernel function, then what comes before it: the header and the
 * building blocks the function uses. */
clrs_status clrs__gen_source(const clrs_gen_config *c, const char *key,
                             char **source)
{
    sbuf k = {0}, b = {0};
    unsigned char in[CLRS_GEN_MAX_PARTS];
    clrs_status st;
    char *kernel;
    int fp64;

    *source = NULL;
    CLRS_TRY(check_rows(c, &fp64));
    sb_add(&k, "/* ---- kernel ---- */\n");
    sb_add(&k, "__kernel void %s(\n",
           c->backward ? "clrs_backward" : "clrs_forward");
    emit_args(&k, c);
    sb_open(&k, "%s", "");
    emit_work_item(&k, c);
    sb_close(&k);
    CLRS_TRY(sb_finish(&k, &kernel));
    st = select_parts(kernel, in);
    if (st == CLRS_SUCCESS) {
        emit_header(&b, c, key, fp64, in);
        emit_parts(&b, in);
        sb_add(&b, "%s", kernel);
        st = sb_finish(&b, source);
    }
    free(kernel);
    return st;
}
