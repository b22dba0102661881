/* A configuration's key (the cache key and the comment heading its
 * source) and its kernel's argument list, forward and backward. */
#include "gen/gen_emit.h"

#include <stdlib.h>

static const char *const class_names[] = {"wsum", "max"};

/* The kernel axes: r<slot>[k<fixed>] or i, and their blocks. */
static void key_axes(sbuf *b, const clrs_gen_config *c)
{
    int p, i;

    for (p = 0; p < c->rank; ++p) {
        const clrs_gen_axis *a = &c->ax[p];
        if (a->slot >= 0 && c->fixed[a->slot])
            clrs__gen_sb_add(b, "%sr%dk%d", p ? "," : "", a->slot,
                             c->fixed[a->slot]);
        else if (a->slot >= 0 && c->calc_nt[a->slot])
            clrs__gen_sb_add(b, "%sr%dn%d", p ? "," : "", a->slot,
                             c->calc_nt[a->slot]);
        else if (a->slot >= 0)
            clrs__gen_sb_add(b, "%sr%d", p ? "," : "", a->slot);
        else
            clrs__gen_sb_add(b, "%si", p ? "," : "");
        if (a->src_block)
            clrs__gen_sb_add(b, "/s%d", a->src_block);
        if (a->dst_block)
            clrs__gen_sb_add(b, "/d%d", a->dst_block);
        if (a->idx_block)
            clrs__gen_sb_add(b, "/x%d", a->idx_block);
        if (a->x_block)
            clrs__gen_sb_add(b, "/g%d", a->x_block);
        for (i = 0; i < c->npost; ++i)
            if (a->op_block[i])
                clrs__gen_sb_add(b, "/b%d:%d", i, a->op_block[i]);
    }
}

/* The span path's tap patterns (and window codes). */
static void key_span(sbuf *b, const clrs_gen_config *c)
{
    int q, t, l, K = c->ntaps;

    clrs__gen_sb_add(b, " span=%d", c->nspan);
    for (q = 0; q < c->npat; ++q) {
        clrs__gen_sb_add(b, " pat%d=", q);
        for (t = 0; t < K; ++t)
            for (l = 0; l < c->vec; ++l)
                clrs__gen_sb_add(b, "%s%d", t || l ? "," : "", c->rel[q][t][l]);
        if (c->has_index && !c->plane) {
            clrs__gen_sb_add(b, "/");
            for (t = 0; t < K; ++t)
                for (l = 0; l < c->vec; ++l)
                    clrs__gen_sb_add(b, "%s%d", t || l ? "," : "",
                                     c->code[q][t][l]);
        }
    }
}

/* Periodic computed span taps: the period, its shift and per group of
 * it the pattern, the base and the weights (exact, in hexadecimal). */
static void key_periodic(sbuf *b, const clrs_gen_config *c)
{
    int s, r, t, l;

    if (!clrs__gen_periodic(c))
        return;
    for (s = 0; s < c->per_n; ++s) {
        clrs__gen_sb_add(b, " per%d=%d/%d", s, c->per[s], c->per_shift[s]);
        for (r = 0; r < c->per[s]; ++r) {
            clrs__gen_sb_add(b, " p%d=%d,%d:", r, c->per_pat[s][r],
                             c->per_base[s][r]);
            for (t = 0; t < c->ntaps; ++t)
                for (l = 0; l < c->vec; ++l)
                    clrs__gen_sb_add(b, "%s%a", t || l ? "," : "",
                                     c->per_w[s][r][t][l]);
        }
    }
}

static void key_posts(sbuf *b, const clrs_gen_config *c)
{
    int i;

    for (i = 0; i < c->npost; ++i) {
        const clrs_gen_post *q = &c->post[i];
        const post_row *r = clrs__gen_post_row_of(q->kind, q->alg);
        if (q->kind == CLRS_POST_SUM)
            clrs__gen_sb_add(b, "%ssum", i ? "+" : " post=");
        else if (q->kind == CLRS_POST_ELTWISE)
            clrs__gen_sb_add(b, "%seltwise_%s", i ? "+" : " post=", r->name);
        else
            clrs__gen_sb_add(b, "%sbinary_%s:%s:v%d",
                             i ? "+" : " post=", r->name,
                             clrs__gen_row_of(q->dt)->name, (int)q->bvec);
    }
}

clrs_status clrs__gen_key(const clrs_gen_config *c, char **key)
{
    sbuf b = {0};

    CLRS_TRY(clrs__gen_supported(c));
    clrs__gen_sb_add(&b, "clrs%d %s %s variant=%s rank=%d axes=[",
                     CLRS_GEN_VERSION, c->backward ? "bwd" : "fwd",
                     class_names[c->cls], clrs__variant_name(c->variant),
                     c->rank);
    key_axes(&b, c);
    clrs__gen_sb_add(&b, "] src=%s dst=%s acc=%s",
                     clrs__gen_row_of(c->src)->name,
                     clrs__gen_row_of(c->dst)->name, clrs__gen_acc_type(c));
    if (c->has_index)
        clrs__gen_sb_add(&b, " index=%s/%s%s", clrs_dtype_name(c->index),
                         c->plane_col ? "plane_column"
                         : c->plane   ? "plane"
                                      : "window",
                         c->index_only ? "/only" : "");
    if (c->recompute)
        clrs__gen_sb_add(&b, " x=%s",
                         clrs__gen_row_of(c->x) ? clrs__gen_row_of(c->x)->name
                                                : "?");
    if (c->backward && c->accumulate)
        clrs__gen_sb_add(&b, " accumulate");
    if (c->half_up)
        clrs__gen_sb_add(&b, " round=half_up");
    if (c->cv8lin)
        clrs__gen_sb_add(&b, " step=cv8lin");
    if (c->cv8cub)
        clrs__gen_sb_add(&b, " step=cv8cub%s", c->cv8cub == 2 ? "/i0" : "");
    if (c->cv8fr)
        clrs__gen_sb_add(&b, " round=float");
    if (c->fix)
        clrs__gen_sb_add(&b, " fix=%d", c->fix);
    if (c->f16_native)
        clrs__gen_sb_add(&b, " f16=native");
    if (c->raw)
        clrs__gen_sb_add(&b, " copy");
    if (c->raw_wide)
        clrs__gen_sb_add(&b, " wide");
    if (c->isum)
        clrs__gen_sb_add(&b, " isum");
    if (c->isc)
        clrs__gen_sb_add(&b, " isc=%d", c->isc);
    if (c->unitw)
        clrs__gen_sb_add(&b, " unit");
    if (c->cls == CLRS_GEN_MAX && (!c->backward || c->recompute))
        clrs__gen_sb_add(&b, " nan=%s", c->nan_ignore ? "ignore" : "propagate");
    clrs__gen_sb_add(&b, " pad=%d off=%s vec=%d tail=%d nt=%d", c->pad_taps,
                     clrs__gen_off_type(c), c->vec, c->tail, c->nt);
    if (c->mvec > 1)
        clrs__gen_sb_add(&b, " mv=%d", c->mvec);
    if (c->walk > 1)
        clrs__gen_sb_add(&b, " walk=%d", c->walk);
    if (c->roll)
        clrs__gen_sb_add(&b, " roll=%d", c->roll);
    if (c->fold)
        clrs__gen_sb_add(&b, " fold");
    if (c->rows > 1)
        clrs__gen_sb_add(&b, " rows=%d", c->rows);
    if (c->va)
        clrs__gen_sb_add(&b, " va=%d", c->va);
    if (c->calc_fuse)
        clrs__gen_sb_add(&b, " calcfuse=%d", c->calc_fuse);
    if (c->calc)
        clrs__gen_sb_add(&b, " calc=%u/k%d/e%d/r%d/c%s/w%s/a%.17g%s", c->calc,
                         c->calc_kind, c->calc_edge, c->calc_round,
                         c->calc_f64 ? "f64" : "f32",
                         c->calc_wf64 ? "f64" : "f32", c->calc_a,
                         !c->calc_aa        ? ""
                         : c->calc_restrict ? "/aa_in"
                                            : "/aa");
    if (c->span)
        key_span(&b, c);
    key_periodic(&b, c);
    key_posts(&b, c);
    return clrs__gen_sb_finish(&b, key);
}

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

/* The post-ops' arguments after the others: the sum's scale, the
 * eltwise alpha and beta, a binary operand and its strides. */
static int post_args(const clrs_gen_config *c, const clrs_gen_values *v,
                     clrs_gen_arg *args, int n)
{
    int k, p;

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

/* One argument list for both directions. Backward, diff_dst is "src" and
 * diff_src "dst"; the index tensor is then shaped like diff_dst (read
 * through the tables on resampled axes, like src), and to recompute the
 * argmax the kernel reads x (the forward src) through the forward
 * tables. Forward, the index tensor is shaped like dst. */
int clrs__gen_args(const clrs_gen_config *c, const clrs_gen_values *v,
                   clrs_gen_arg *args)
{
    static const clrs_gen_values zero;
    const int bwd = c->backward, wsum = c->cls == CLRS_GEN_WSUM;
    const int window = c->has_index && !c->plane;
    int n = 0, p, k;

    if (!v)
        v = &zero;
    arg(args, &n, CLRS_ARG_SRC, "src", -1, 0, 0);
    if (!c->index_only)
        arg(args, &n, CLRS_ARG_DST, "dst", -1, 0, 0);
    if (c->has_index)
        arg(args, &n, CLRS_ARG_INDEX, "index", -1, 0, 0);
    if (c->recompute)
        arg(args, &n, CLRS_ARG_X, "x", -1, 0, 0);
    arg(args, &n, CLRS_ARG_ITAB, "itab", -1, 0, 0);
    if (wsum)
        arg(args, &n, CLRS_ARG_FTAB, "ftab", -1, 0, 0);
    for (p = 0; p < c->rank; ++p) {
        int identity = c->ax[p].slot < 0;
        arg(args, &n, CLRS_ARG_OFF, "n", p, v->n[p], 0);
        if (c->ax[p].dst_block)
            arg(args, &n, CLRS_ARG_OFF, "nr", p, v->nr[p], 0);
        arg(args, &n, CLRS_ARG_OFF, "ds", p, v->ds[p], 0);
        if (identity)
            arg(args, &n, CLRS_ARG_OFF, "ss", p, v->ss[p], 0);
        if (c->has_index && (!bwd || identity))
            arg(args, &n, CLRS_ARG_OFF, "is", p, v->is[p], 0);
        if (c->recompute && identity)
            arg(args, &n, CLRS_ARG_OFF, "xs", p, v->xs[p], 0);
    }
    for (k = 0; k < c->nslots; ++k) {
        arg(args, &n, CLRS_ARG_OFF, "st", k, v->st[k], 0);
        arg(args, &n, CLRS_ARG_OFF, "of", k, v->of[k], 0);
        if (bwd && c->has_index)
            arg(args, &n, CLRS_ARG_OFF, "ix", k, v->ix[k], 0);
        if (bwd ? window || c->recompute : c->has_index)
            arg(args, &n, CLRS_ARG_OFF, "cd", k, v->cd[k], 0);
        if (wsum)
            arg(args, &n, CLRS_ARG_OFF, "fw", k, v->fw[k], 0);
        if (bwd && ((c->has_index && c->plane) || c->recompute))
            arg(args, &n, CLRS_ARG_OFF, "pl", k, v->pl[k], 0);
        if (c->calc & (1u << k)) {
            arg(args, &n, CLRS_ARG_CRD, "zr", k, 0, v->cr[k]);
            arg(args, &n, CLRS_ARG_CRD, "za", k, 0, v->ca[k]);
            arg(args, &n, CLRS_ARG_CRD, "zb", k, 0, v->cb[k]);
            arg(args, &n, CLRS_ARG_OFF, "zn", k, v->cn[k], 0);
            arg(args, &n, CLRS_ARG_OFF, "zs", k, v->cs[k], 0);
            if (c->pad_taps)
                arg(args, &n, CLRS_ARG_OFF, "zp", k, v->cz[k], 0);
            if (c->calc_aa)
                arg(args, &n, CLRS_ARG_WGT, "zaa", k, 0, v->cfs[k]);
        }
        if (c->recompute) {
            arg(args, &n, CLRS_ARG_OFF, "fst", k, v->fst[k], 0);
            arg(args, &n, CLRS_ARG_OFF, "fof", k, v->fof[k], 0);
            arg(args, &n, CLRS_ARG_OFF, "fcd", k, v->fcd[k], 0);
        }
    }
    if (c->span && !clrs__gen_span_calc(c))
        arg(args, &n, CLRS_ARG_OFF, "pg", -1, v->pg, 0);
    for (k = 0; clrs__gen_periodic(c) && k < c->per_n; ++k) {
        arg(args, &n, CLRS_ARG_OFF, "yph", k, v->yph[k], 0);
        arg(args, &n, CLRS_ARG_OFF, "ype", k, v->ype[k], 0);
        arg(args, &n, CLRS_ARG_OFF, "ypb", k, v->ypb[k], 0);
    }
    /* Group-major weights: backward weighted sums, forward where the
     * last slot's tap count varies. */
    if (bwd ? c->span && wsum : clrs__gen_span_var(c))
        arg(args, &n, CLRS_ARG_OFF, "fg", -1, v->fg, 0);
    if (c->pad_taps)
        arg(args, &n, CLRS_ARG_ACC, "pad", -1, 0, v->pad);
    if (!bwd)
        arg(args, &n, CLRS_ARG_ACC, "empty", -1, 0, v->empty);
    if (c->cv8cub) {
        arg(args, &n, CLRS_ARG_OFF, "cvs", -1, v->cvs, 0);
        arg(args, &n, CLRS_ARG_OFF, "cvn", -1, v->cvn, 0);
        arg(args, &n, CLRS_ARG_OFF, "cvk", -1, v->cvk, 0);
        arg(args, &n, CLRS_ARG_OFF, "cvc", -1, v->cvc, 0);
        arg(args, &n, CLRS_ARG_OFF, "cvm", -1, v->cvm, 0);
        arg(args, &n, CLRS_ARG_OFF, "cvb", -1, v->cvb, 0);
        arg(args, &n, CLRS_ARG_OFF, "cvx", -1, v->cvx, 0);
    }
    return post_args(c, v, args, n);
}
