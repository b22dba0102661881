/* Values in and out of a work-item's accumulator: a load converted to
 * the accumulator type, the post-op chain, the store to dst. The bodies,
 * loops and span code above call these; they call only the text and the
 * rows below. */
#include "gen/gen_emit.h"

#include <string.h>

/* Block vector path: one work-item per block of dst's blocked axis;
 * lanes past the real extent are padding and get zeros: the lane
 * numbers compared in int (long for a double accumulator), a copy's
 * lanes then selected through a mask of their own width. */
static void emit_block_zeros(sbuf *b, const clrs_gen_config *c, int w,
                             const char *val)
{
    char at[16], mt[16], xt[16];
    int l;

    clrs__gen_vtype(at, sizeof at, clrs__gen_val_type(c), w);
    clrs__gen_vtype(mt, sizeof mt, !c->raw && c->acc_f64 ? "long" : "int", w);
    clrs__gen_vtype(xt, sizeof xt,
                    clrs__gen_uint_type(clrs__gen_raw_bytes(c), 0), w);
    if (c->raw)
        clrs__gen_sb_add(b, "%s = select(%s, (%s)(0), convert_%s(", val, val,
                         at, xt);
    else
        clrs__gen_sb_add(b, "%s = (", val);
    clrs__gen_sb_add(b, "(%s)(i0) + (%s)(", mt, mt);
    for (l = 0; l < w; ++l)
        clrs__gen_sb_add(b, "%s%d", l ? ", " : "", l);
    clrs__gen_sb_add(b, ") >= (%s)(nr0)", mt);
    if (c->raw)
        clrs__gen_sb_add(b, "));\n");
    else
        clrs__gen_sb_add(b, ") ? (%s)(0) : %s;\n", at, val);
}

/* Whether dtype row r has vector macros at the vector's own alignment
 * (CLRS_LDVA_<dt>; store: CLRS_STVA_<dt>) under configuration c. */
static int has_aligned(const clrs_gen_config *c, const dtype_row *r, int store)
{
    if (strcmp(r->name, "f16") == 0)
        return c->f16_native;
    return strcmp(r->name, "f32") == 0 || strcmp(r->name, "f64") == 0 ||
           strcmp(r->name, "bf16") == 0 ||
           (!store &&
            (strcmp(r->name, "u8") == 0 || strcmp(r->name, "s32") == 0));
}

/* The store of `val` (w lanes) at dst offset dof, rounded once to dst's
 * type (a copy's bits as they are); non-temporal where the configuration
 * says, else at the vector's alignment where the lowering proved it
 * (c->va). A non-temporal vector store of a copy, f32 or f64 stays one
 * there (a vector pointer's too); the other types with an aligned store
 * (bf16, native f16) take the aligned one instead. */
void clrs__gen_emit_store(sbuf *b, const clrs_gen_config *c, int w,
                          const char *dof, const char *val)
{
    const char *nt = c->nt ? "NT" : "";
    const dtype_row *r = clrs__gen_row_of(c->dst);
    const int va = w > 1 && (c->va & CLRS_VA_DST);
    const char *vr = c->nt ? "NT" : va ? "A" : ""; /* a copy's vectors */
    const char *vs =
        va && has_aligned(c, r, 1) &&
                !(c->nt && (c->dst == CLRS_F32 || c->dst == CLRS_F64))
            ? "A"
            : nt;

    if (w > 1 && c->ax[0].dst_block)
        emit_block_zeros(b, c, w, val);
    /* 16-bit integers into a one-byte type, saturated: c->isum's sums,
     * and c->raw_wide's maxima, where a window of padding taps alone
     * keeps the pad below the type (stored as the float path's -inf). */
    if ((c->isum || c->raw_wide) && w > 1)
        clrs__gen_sb_add(
            b, "CLRS_STVR%s(%s, %d, dst, %s, convert_%s%d_sat(%s));\n", vr,
            clrs__gen_raw_type(c), w, dof, clrs__gen_raw_type(c), w, val);
    else if (c->isum || c->raw_wide)
        clrs__gen_sb_add(b, "CLRS_STR(%s, dst, %s, convert_%s_sat(%s));\n",
                         clrs__gen_raw_type(c), dof, clrs__gen_raw_type(c),
                         val);
    else if (c->raw && w > 1)
        clrs__gen_sb_add(b, "CLRS_STVR%s(%s, %d, dst, %s, %s);\n", vr,
                         clrs__gen_val_type(c), w, dof, val);
    else if (c->raw) /* no non-temporal store narrower than 32 bits */
        clrs__gen_sb_add(b, "CLRS_STR%s(%s, dst, %s, %s);\n",
                         clrs_dtype_size(c->dst) >= 4 ? nt : "",
                         clrs__gen_val_type(c), dof, val);
    else if (w > 1)
        clrs__gen_sb_add(b, "CLRS_STV%s_%s(%d, dst, %s, %s);\n", vs, r->name, w,
                         dof, val);
    else
        clrs__gen_sb_add(b, "CLRS_ST%s_%s(dst, %s, %s);\n", nt, r->name, dof,
                         val);
}

/* Max of integers compared as they are (c->raw) with the winner's
 * window code: the window's first tap sets the output, a greater value
 * after it takes it, so the first of equal values wins, as in the float
 * step. */
void clrs__gen_emit_raw_max_step(sbuf *b, const clrs_gen_config *c, int w,
                                 const char *val, const char *code,
                                 int first_loops)
{
    const char *wt = clrs__gen_win_type(c, w);
    char ot[16], mt[16], first[8 * CLRS_MAX_RANK + 16];
    int k;

    clrs__gen_vtype(ot, sizeof ot, wt, w);
    clrs__gen_vtype(mt, sizeof mt,
                    clrs__gen_uint_type(clrs__gen_raw_bytes(c), 0), w);
    /* The first tap of the window: no compare, no "no tap yet" test at
     * every tap after it (a uniform branch: the loop counters are the
     * same in every lane, and constant where the loops unroll). It is
     * where loops t0 .. t<first_loops - 1> (each over a fixed count from
     * 0) are all at 0: "(t0 | t1 | ...) == 0", "1" without loops. */
    if (first_loops >= 0) {
        size_t at = 0;
        if (first_loops == 0)
            snprintf(first, sizeof first, "1");
        for (k = 0; k < first_loops && k < CLRS_MAX_RANK; ++k)
            at += (size_t)snprintf(first + at, sizeof first - at, "%st%d",
                                   k ? " | " : "(", k);
        if (first_loops > 0)
            snprintf(first + at, sizeof first - at, ") == 0");
        clrs__gen_sb_open(b, "if (%s)", first);
        clrs__gen_sb_add(b, "best = %s;\nwin = (%s)(%s);\n", val, ot, code);
        clrs__gen_sb_else(b, "else");
    } else {
        clrs__gen_sb_open(b, "%s", "");
    }
    if (w > 1) {
        clrs__gen_sb_add(b, "const %s take_ = %s > best;\n", mt, val);
        clrs__gen_sb_add(b, "best = select(best, %s, take_);\n", val);
        if (strcmp(ot, mt) == 0)
            clrs__gen_sb_add(b, "win = select(win, (%s)(%s), take_);\n", ot,
                             code);
        else
            clrs__gen_sb_add(
                b, "win = select(win, (%s)(%s), convert_%s(take_));\n", ot,
                code, ot);
    } else {
        clrs__gen_sb_open(b, "if (%s > best)", val);
        clrs__gen_sb_add(b, "best = %s;\nwin = %s;\n", val, code);
        clrs__gen_sb_close(b);
    }
    clrs__gen_sb_close(b);
}

/* A load of dtype row r at offset o, converted to the accumulator
 * type: w lanes (vector load), or a scalar broadcast to w lanes. */
void clrs__gen_load_acc(char *buf, size_t n, const clrs_gen_config *c,
                        const dtype_row *r, const char *p, const char *o, int w,
                        int bcast)
{
    const char *acc = clrs__gen_acc_type(c);
    /* "convert_T(" and its ")" where the load's type is not acc's */
    const int same = strcmp(r->nat, acc) == 0;
    const char *close = same ? "" : ")";
    char at[16], conv[32] = "";

    clrs__gen_vtype(at, sizeof at, acc, w);
    if (!same)
        snprintf(conv, sizeof conv, "convert_%s(", w > 1 && !bcast ? at : acc);
    if (w > 1 && !bcast)
        snprintf(buf, n, "%sCLRS_LDV%s_%s(%d, %s, %s)%s", conv,
                 (c->va & CLRS_VA_SRC) && strcmp(p, "src") == 0 &&
                         has_aligned(c, r, 0)
                     ? "A"
                     : "",
                 r->name, w, p, o, close);
    else if (w > 1)
        snprintf(buf, n, "(%s)(%sCLRS_LD_%s(%s, %s)%s)", at, conv, r->name, p,
                 o, close);
    else
        snprintf(buf, n, "%sCLRS_LD_%s(%s, %s)%s", conv, r->name, p, o, close);
}

void clrs__gen_load_val(char *buf, size_t n, const clrs_gen_config *c,
                        const char *o, int w)
{
    if (!c->raw)
        clrs__gen_load_acc(buf, n, c, clrs__gen_row_of(c->src), "src", o, w, 0);
    else if (c->raw_wide && w > 1)
        snprintf(buf, n, "convert_short%d(CLRS_LDVR%s(%s, %d, src, %s))", w,
                 c->va & CLRS_VA_SRC ? "A" : "", clrs__gen_raw_type(c), w, o);
    else if (c->raw_wide)
        snprintf(buf, n, "(short)CLRS_LDR(%s, src, %s)", clrs__gen_raw_type(c),
                 o);
    else if (w > 1)
        snprintf(buf, n, "CLRS_LDVR%s(%s, %d, src, %s)",
                 c->va & CLRS_VA_SRC ? "A" : "", clrs__gen_val_type(c), w, o);
    else
        snprintf(buf, n, "CLRS_LDR(%s, src, %s)", clrs__gen_val_type(c), o);
}

/* The post-op chain on `val` (w lanes), in the accumulator type, before
 * the one rounding to dst. lane: the scalar tail loop's `l` is in scope
 * (the operand offsets step by their axis-0 strides). The sum reads dst
 * before the store overwrites it. */
void clrs__gen_emit_post(sbuf *b, const clrs_gen_config *c, int w,
                         const char *dof, const char *val, int lane)
{
    char at[16], ld[192], o[48];
    int k;

    clrs__gen_vtype(at, sizeof at, clrs__gen_acc_type(c), w);
    for (k = 0; k < c->npost; ++k) {
        const clrs_gen_post *q = &c->post[k];
        switch (q->kind) {
        case CLRS_POST_SUM:
            clrs__gen_load_acc(ld, sizeof ld, c, clrs__gen_row_of(c->dst),
                               "dst", dof, w, 0);
            clrs__gen_sb_add(b, "%s = %s + pa%d * %s;\n", val, val, k, ld);
            break;
        case CLRS_POST_ELTWISE:
            clrs__gen_sb_add(b, "%s = CLRS_POST%d(%s, %s, pa%d, pb%d);\n", val,
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
                clrs__gen_load_acc(ld, sizeof ld, c, clrs__gen_row_of(q->dt),
                                   pn, o, w, q->bvec == CLRS_BVEC_BCAST);
            }
            clrs__gen_sb_add(b, "%s = CLRS_POST%d(%s, %s);\n", val, k, val, ld);
            break;
        }
    }
}
