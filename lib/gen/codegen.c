/* The OpenCL C generator: composes one kernel per configuration, forward
 * or backward, from the embedded cl/ building blocks, the argument list
 * (gen_key.c), the offsets of a work-item (gen_body.c), and its body:
 * the forward reduction over the taps (gen_reduce.c) or the backward
 * gather over the transposed taps (gen_gather.c), on the span path
 * through shuffles (gen_span.c). Everything that varies per shape is a
 * kernel argument.
 * Data types and post-ops are rows (gen_rows.c, from feature_maps.h); the
 * one dtype named here is f16, for the cl_khr_fp16 pragma (a new dtype
 * also touches other files: lib/README.md, "Checklists"). */
#include "gen/gen_emit.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- source -------------------------------------------------------------- */

static void emit_args(sbuf *b, const clrs_gen_config *c)
{
    clrs_gen_arg args[CLRS_GEN_MAX_ARGS];
    int n = clrs__gen_args(c, NULL, args), i;
    const char *off = clrs__gen_off_type(c), *acc = clrs__gen_acc_type(c);

    for (i = 0; i < n; ++i) {
        const char *sep = i + 1 < n ? "," : ")";
        switch (args[i].kind) {
        case CLRS_ARG_SRC:
            clrs__gen_sb_add(b, "    __global const %s *restrict src%s\n",
                             clrs__gen_row_of(c->src)->ctype, sep);
            break;
        case CLRS_ARG_X:
            clrs__gen_sb_add(b, "    __global const %s *restrict x%s\n",
                             clrs__gen_row_of(c->x)->ctype, sep);
            break;
        case CLRS_ARG_DST:
            clrs__gen_sb_add(b, "    __global %s *restrict dst%s\n",
                             clrs__gen_row_of(c->dst)->ctype, sep);
            break;
        case CLRS_ARG_INDEX:
            clrs__gen_sb_add(b, "    __global %s%s *restrict index%s\n",
                             c->backward ? "const " : "",
                             clrs__gen_index_ctype(c->index), sep);
            break;
        case CLRS_ARG_ITAB:
            clrs__gen_sb_add(b, "    __global const %s *restrict itab%s\n", off,
                             sep);
            break;
        case CLRS_ARG_FTAB:
            clrs__gen_sb_add(b, "    __global const %s *restrict ftab%s\n", acc,
                             sep);
            break;
        case CLRS_ARG_OFF:
            clrs__gen_sb_add(b, "    const %s %s%s\n", off, args[i].name, sep);
            break;
        case CLRS_ARG_ACC:
            clrs__gen_sb_add(b, "    const %s %s%s\n", clrs__gen_real_type(c),
                             args[i].name, sep);
            break;
        case CLRS_ARG_CRD:
            clrs__gen_sb_add(b, "    const %s %s%s\n",
                             c->calc_f64 ? "double" : "float", args[i].name,
                             sep);
            break;
        case CLRS_ARG_WGT:
            clrs__gen_sb_add(b, "    const %s %s%s\n",
                             c->calc_f64 || c->calc_wf64 ? "double" : "float",
                             args[i].name, sep);
            break;
        case CLRS_ARG_POST:
            clrs__gen_sb_add(b, "    __global const %s *restrict %s%s\n",
                             clrs__gen_row_of(c->post[args[i].i].dt)->ctype,
                             args[i].name, sep);
            break;
        }
    }
}

/* Kernel axis p's index as the kernel names it, and what multiplies the
 * NDRange's index there: the roll variant's axis (rolled) is the first
 * output of a run of c->roll, rb; another axis p is i<p>. */
static void index_of(const clrs_gen_config *c, int p, int rolled, char *name,
                     size_t n, char *mul, size_t m)
{
    if (p == rolled) {
        snprintf(name, n, "rb");
        snprintf(mul, m, " * %d", c->roll);
    } else {
        snprintf(name, n, "i%d", p);
        mul[0] = '\0';
    }
}

/* Work-item -> output index: kernel axes 0 and 1 are NDRange dimensions 0
 * and 1 (consecutive work-items write consecutive addresses), the rest
 * are unpacked from dimension 2. Unsigned division: sizes are >= 1. The
 * roll variant's axis counts runs of c->roll outputs there (nq). */
static void emit_indices(sbuf *b, const clrs_gen_config *c)
{
    const char *off = clrs__gen_off_type(c);
    const char *uoff = c->long_off ? "ulong" : "uint";
    const int rolled = c->roll ? clrs__gen_axis_of_slot(c, 0) : -1;
    char name[16], mul[16];
    int p;

    if (c->vec > 1)
        clrs__gen_sb_add(
            b, "const %s i0 = (%s)get_global_id(0) * %d;\n", off, off,
            c->vec * clrs__gen_mvec_of(c, c->vec) * clrs__gen_walk_of(c));
    else
        clrs__gen_sb_add(b, "const %s i0 = (%s)get_global_id(0);\n", off, off);
    if (c->roll)
        clrs__gen_sb_add(b, "const %s nq = ((%s)n%d + %d) / %d;\n", uoff, uoff,
                         rolled, c->roll - 1, c->roll);
    if (c->rank > 1 && c->rows > 1) { /* emit_work_item's loop: i1 */
        clrs__gen_sb_add(b, "const %s i1r = (%s)get_global_id(1) * %d;\n", off,
                         off, c->rows);
    } else if (c->rank > 1) {
        index_of(c, 1, rolled, name, sizeof name, mul, sizeof mul);
        clrs__gen_sb_add(b, "const %s %s = (%s)get_global_id(1)%s;\n", off,
                         name, off, mul);
    }
    if (c->rank > 2) {
        clrs__gen_sb_add(b, "%s r = (%s)get_global_id(2);\n", uoff, uoff);
        /* r - q * n rather than r % n: LLVM turns a div/rem pair into
         * a "freeze" instruction that Oclgrind's checker cannot run. */
        for (p = 2; p + 1 < c->rank; ++p) {
            char n[32];
            if (p == rolled)
                snprintf(n, sizeof n, "nq");
            else
                snprintf(n, sizeof n, "(%s)n%d", uoff, p);
            index_of(c, p, rolled, name, sizeof name, mul, sizeof mul);
            clrs__gen_sb_add(b, "const %s q%d = r / %s;\n", uoff, p, n);
            clrs__gen_sb_add(b, "const %s %s = (%s)(r - q%d * %s)%s;\n", off,
                             name, off, p, n, mul);
            clrs__gen_sb_add(b, "r = q%d;\n", p);
        }
        index_of(c, c->rank - 1, rolled, name, sizeof name, mul, sizeof mul);
        clrs__gen_sb_add(b, "const %s %s = (%s)r%s;\n", off, name, off, mul);
    }
}

/* Each variant's work-item (variant.h), by its row. */
typedef void (*item_fn)(sbuf *b, const clrs_gen_config *c, const body_at *at);
#define ITEM_FN_(e, ...) clrs__gen_item_##e,
static const item_fn items[] = {CLRS_VARIANT_MAP(ITEM_FN_)};
#undef ITEM_FN_

/* The work-item: indices, offsets, then its variant's body; where it
 * runs several rows of kernel axis 1 (c->rows), offsets and body once
 * per row, the last work-item stopping at the axis' end. The loop is
 * unrolled, so what depends on kernel axis 0 alone (a span group's
 * pattern, its weights) is loaded once for every row. */
static void emit_work_item(sbuf *b, const clrs_gen_config *c)
{
    body_at at = {"sob", "dof", NULL, "xob", "i0", NULL, 0};
    const char *off = clrs__gen_off_type(c);
    const int rows = c->rank > 1 && c->rows > 1;

    at.io = c->backward ? "iob" : "iof";
    at.none = clrs__gen_has_none(c) ? "none" : NULL;
    emit_indices(b, c);
    if (rows) {
        clrs__gen_sb_add(b, "#pragma unroll\n");
        clrs__gen_sb_open(b, "for (int ir = 0; ir < %d; ++ir)", c->rows);
        clrs__gen_sb_add(b, "const %s i1 = i1r + ir;\n", off);
        clrs__gen_sb_add(b, "if (i1 >= n1)\n    break;\n");
    }
    if (!c->roll) /* the roll variant's are per output */
        clrs__gen_emit_offsets(b, c);
    items[c->variant](b, c, &at);
    if (rows)
        clrs__gen_sb_close(b);
}

/* The kernel's header: who generated it from what, the pragmas and
 * defines it needs and its post-op macros. fp64: a binary operand needs
 * cl_khr_fp64; in: the building blocks it gets. */
static void emit_header(sbuf *b, const clrs_gen_config *c, const char *key,
                        int fp64, const unsigned char *in)
{
    const dtype_row *s = clrs__gen_row_of(c->src),
                    *d = clrs__gen_row_of(c->dst);
    int i;

    clrs__gen_sb_add(
        b,
        "/* Generated by clresample codegen v%d (library %s) for the "
        "configuration\n * %s */\n",
        CLRS_GEN_VERSION, CLRS_VERSION_STRING, key);
    /* Contraction would turn w * v + acc into fma and round differently
     * from the reference's tap sums on some devices and not others. */
    clrs__gen_sb_add(b, "#pragma OPENCL FP_CONTRACT OFF\n");
    if (c->acc_f64 || s->fp64 || d->fp64 || fp64 ||
        (c->recompute && clrs__gen_row_of(c->x)->fp64))
        clrs__gen_sb_add(b, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                            "#define CLRS_ACC_F64 1\n");
    else if (c->calc && (c->calc_f64 || c->calc_wf64))
        clrs__gen_sb_add(b, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    if (c->f16_native)
        clrs__gen_sb_add(b, "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                            "#define CLRS_F16_NATIVE 1\n");
    if (c->half_up)
        clrs__gen_sb_add(b, "#define CLRS_HALF_UP 1\n");
    if (c->cv8lin)
        clrs__gen_sb_add(b, "#define CLRS_CV8_LINEAR 1\n");
    if (c->cv8cub)
        clrs__gen_sb_add(b, "#define CLRS_CV8_CUBIC 1\n");
    if (c->cv8fr)
        clrs__gen_sb_add(b, "#define CLRS_CV8_FROUND 1\n");
    if (c->fix)
        clrs__gen_sb_add(b, "#define CLRS_FIX %d\n", c->fix);
    /* The eltwise rows' constants in the accumulator's type: an
     * unsuffixed literal is a double, which a device without fp64
     * would round to float with a warning. */
    if (c->npost > 0)
        clrs__gen_sb_add(b, "#define CLRS_K(v) v%s\n", c->acc_f64 ? "" : "##f");
    for (i = 0; i < c->npost; ++i) {
        const clrs_gen_post *q = &c->post[i];
        const post_row *r = clrs__gen_post_row_of(q->kind, q->alg);
        if (q->kind == CLRS_POST_BINARY)
            clrs__gen_sb_add(b, "#define CLRS_POST%d(X, Y) %s\n", i, r->expr);
        else if (q->kind == CLRS_POST_ELTWISE)
            clrs__gen_sb_add(b, "#define CLRS_POST%d(T, X, A, B) %s\n", i,
                             r->expr);
    }
    if (clrs__gen_parts_name(in, "CLRS_NAN_IGNORE"))
        clrs__gen_sb_add(b, "#define CLRS_NAN_IGNORE %d\n",
                         c->nan_ignore ? 1 : 0);
    clrs__gen_sb_add(b, "\n");
}

/* Whether the configuration has a kernel (clrs__gen_supported) and, on
 * a vector path, a vector store of dst. *fp64: a binary operand needs
 * cl_khr_fp64. */
static clrs_status check_rows(const clrs_gen_config *c, int *fp64)
{
    const dtype_row *d;
    int i;

    *fp64 = 0;
    CLRS_TRY(clrs__gen_supported(c));
    d = clrs__gen_row_of(c->dst);
    CLRS_CHECK(c->vec == 1 || d->vstore, CLRS_ERR_INVALID_VALUE,
               "codegen: dst %s has no vector store", d->name);
    for (i = 0; i < c->npost; ++i) {
        const clrs_gen_post *q = &c->post[i];
        if (q->kind == CLRS_POST_BINARY && clrs__gen_row_of(q->dt)->fp64)
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
    clrs__gen_sb_add(&k, "/* ---- kernel ---- */\n");
    /* a copy's vector types, unless va proves every access aligned */
    if (c->raw && c->vec > 1 &&
        (c->va & (CLRS_VA_SRC | CLRS_VA_DST)) != (CLRS_VA_SRC | CLRS_VA_DST))
        clrs__gen_sb_add(&k, "CLRS_UTYPES(%s, %d)\n", clrs__gen_raw_type(c),
                         (int)clrs_dtype_size(c->dst));
    if (c->fix && c->vec > 1) /* the fixed-point weight tables' vectors */
        clrs__gen_sb_add(&k, "CLRS_UTYPES(ushort, 2)\n");
    clrs__gen_sb_add(&k, "__kernel void %s(\n",
                     c->backward ? "clrs_backward" : "clrs_forward");
    emit_args(&k, c);
    clrs__gen_sb_open(&k, "%s", "");
    emit_work_item(&k, c);
    clrs__gen_sb_close(&k);
    CLRS_TRY(clrs__gen_sb_finish(&k, &kernel));
    st = clrs__gen_select_parts(kernel, in);
    if (st == CLRS_SUCCESS) {
        emit_header(&b, c, key, fp64, in);
        clrs__gen_emit_parts(&b, in);
        clrs__gen_sb_add(&b, "%s", kernel);
        st = clrs__gen_sb_finish(&b, source);
    }
    free(kernel);
    return st;
}
