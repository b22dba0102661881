/* clresample tool: the library's descriptors for one problem, the
 * resampling operation with its knobs and post-ops and the tensors it
 * reads and writes, in the problem's layout. */
#include "job.h"

#include <math.h>
#include <stdio.h>

/* ---- descriptors ---- */

#define TRY_SET(call, name)                                                  \
    do {                                                                     \
        clrs_status st_ = (call);                                            \
        if (st_ < 0) {                                                       \
            lib_status(j->r, st_, name);                                     \
            return -1;                                                       \
        }                                                                    \
    } while (0)

/* One per-axis knob value per spatial axis (one value broadcasts). */
static int per_axis(int n, int a)
{
    return n == 1 ? 0 : a;
}

/* Window, stride and padding sizes, as the descriptor gives them. */
static int set_geometry(job *j)
{
    const cli_desc *d = &j->p->d;
    int nsp = d->nsp, first = CLI_SP - nsp, a;
    clrs_fraction pre[CLI_SP], post[CLI_SP];

    if (d->has_window)
        TRY_SET(clrs_resample_desc_set_window_fraction(j->op, nsp,
                                                       d->k + first),
                "set_window");
    if (d->has_stride)
        TRY_SET(clrs_resample_desc_set_stride_fraction(j->op, nsp,
                                                       d->s + first),
                "set_stride");
    if (d->has_dil) {
        int64_t dil[CLI_SP];
        for (a = 0; a < nsp; ++a)
            dil[a] = d->dl[first + a].num + 1; /* the library's spacing */
        TRY_SET(clrs_resample_desc_set_dilation(j->op, nsp, dil),
                "set_dilation");
    }
    if (d->has_window || d->has_pad) {
        for (a = 0; a < nsp; ++a) {
            pre[a] = d->p[first + a];
            post[a] = d->post[first + a];
        }
        TRY_SET(clrs_resample_desc_set_padding_sizes_fraction(j->op, nsp,
                                                              pre, post),
                "set_padding_sizes");
    }
    return 0;
}

/* How source values are picked and weighted. Knobs at their defaults are
 * not set, so the library's own defaults are what runs. */
static int set_sampling(job *j)
{
    const cli_opts *o = &j->p->o;

    if (o->vendor >= 0)
        TRY_SET(clrs_resample_desc_set_vendor(j->op, (clrs_vendor)o->vendor),
                "set_vendor");
    if (o->method >= 0)
        TRY_SET(
            clrs_resample_desc_set_method(j->op, clrs__methods[o->method].name),
            "set_method");
    if (o->arith >= 0)
        TRY_SET(clrs_resample_desc_set_arith(j->op, (clrs_arith)o->arith),
                "set_arith");
    if (o->aa_rule >= 0)
        TRY_SET(clrs_resample_desc_set_antialias_rule(
                    j->op, (clrs_antialias_rule)o->aa_rule),
                "set_antialias_rule");
    if (o->pad_mode != CLRS_PAD_DEFAULT)
        TRY_SET(clrs_resample_desc_set_padding(j->op,
                                               (clrs_padding)o->pad_mode,
                                               o->pad_value),
                "set_padding");
    if (o->coord != CLRS_COORD_DEFAULT)
        TRY_SET(clrs_resample_desc_set_coord(j->op, (clrs_coord)o->coord),
                "set_coord");
    if (o->rounding >= 0)
        TRY_SET(clrs_resample_desc_set_rounding(j->op,
                                                (clrs_rounding)o->rounding),
                "set_rounding");
    if (!isnan(o->cubic_a))
        TRY_SET(clrs_resample_desc_set_cubic_a(j->op, o->cubic_a),
                "set_cubic_a");
    if (o->filter >= 0)
        TRY_SET(clrs_resample_desc_set_filter(j->op, (clrs_filter)o->filter,
                                              o->filter_p, o->filter_q),
                "set_filter");
    if (o->exclude_outside)
        TRY_SET(clrs_resample_desc_set_exclude_outside(j->op, 1),
                "set_exclude_outside");
    if (o->antialias)
        TRY_SET(clrs_resample_desc_set_antialias(j->op, 1), "set_antialias");
    if (o->scratchpad)
        TRY_SET(clrs_resample_desc_set_user_workspace(j->op, 1),
                "set_user_workspace");
    return 0;
}

/* Output dims: the descriptor's, or under --keep-aspect with the sizes
 * ONNX derives on the resampled axes with its one scale (into scales,
 * one per resampled axis, when not NULL). */
static int output_dims(job *j, int64_t *out, double *scales)
{
    const cli_desc *d = &j->p->d;
    int64_t in[CLRS_MAX_RANK], rin[CLI_MAXAX], rout[CLI_MAXAX];
    double s[CLI_MAXAX];
    int k;

    cli_desc_dims(d, in, out);
    for (k = 0; k < d->naxes; ++k) {
        rin[k] = in[d->axes[k]];
        rout[k] = out[d->axes[k]];
    }
    TRY_SET(clrs_output_sizes_keep_aspect(d->naxes, rin, rout,
                                          (clrs_keep_aspect)j->p->o.keep_aspect,
                                          rout, s),
            "keep-aspect sizes");
    for (k = 0; k < d->naxes; ++k) {
        out[d->axes[k]] = rout[k];
        if (scales)
            scales[k] = s[k];
    }
    return 0;
}

static int set_scales_roi(job *j)
{
    const cli_opts *o = &j->p->o;
    int n = j->p->d.naxes, a;

    if (!o->n_scales && o->keep_aspect != CLRS_KEEP_ASPECT_STRETCH) {
        double s[CLI_MAXAX];
        int64_t out[CLRS_MAX_RANK];
        if (output_dims(j, out, s) != 0)
            return -1;
        TRY_SET(clrs_resample_desc_set_scales(j->op, n, s), "set_scales");
    }
    if (o->n_scales) {
        double s[CLI_MAXAX];
        for (a = 0; a < n; ++a)
            s[a] = o->scales[per_axis(o->n_scales, a)];
        TRY_SET(clrs_resample_desc_set_scales(j->op, n, s), "set_scales");
    }
    if (o->n_roi) {
        double s[CLI_MAXAX], e[CLI_MAXAX];
        for (a = 0; a < n; ++a) {
            s[a] = o->roi_s[per_axis(o->n_roi, a)];
            e[a] = o->roi_e[per_axis(o->n_roi, a)];
        }
        TRY_SET(clrs_resample_desc_set_roi(j->op, n, s, e), "set_roi");
    }
    return 0;
}

/* Extrapolation value, index format, NaN policy and inference. */
static int set_policies(job *j)
{
    const cli_opts *o = &j->p->o;

    if (o->extrapolation != 0)
        TRY_SET(clrs_resample_desc_set_extrapolation_value(j->op,
                                                           o->extrapolation),
                "set_extrapolation_value");
    if (o->index_format != CLRS_INDEX_WINDOW)
        TRY_SET(clrs_resample_desc_set_index_format(
                    j->op, (clrs_index_format)o->index_format),
                "set_index_format");
    if (o->divisor >= 0)
        TRY_SET(clrs_resample_desc_set_divisor(j->op, (clrs_divisor)o->divisor),
                "set_divisor");
    if (o->divisor_override != 0)
        TRY_SET(clrs_resample_desc_set_divisor_override(j->op,
                                                        o->divisor_override),
                "set_divisor_override");
    if (o->nan_policy != CLRS_NAN_PROPAGATE)
        TRY_SET(clrs_resample_desc_set_nan_policy(
                    j->op, (clrs_nan_policy)o->nan_policy),
                "set_nan_policy");
    if (o->dir == DIR_FWD_I)
        TRY_SET(clrs_resample_desc_set_inference(j->op, 1), "set_inference");
    return 0;
}

static int set_offsets(job *j)
{
    const cli_opts *o = &j->p->o;
    int n = j->p->d.naxes, a;
    float in[CLI_MAXAX], out[CLI_MAXAX];

    if (o->n_translate) {
        double s[CLI_MAXAX], t[CLI_MAXAX];
        for (a = 0; a < n; ++a) {
            s[a] = o->scales[per_axis(o->n_scales, a)];
            t[a] = o->translate[per_axis(o->n_translate, a)];
        }
        TRY_SET(clrs_resample_desc_set_scale_and_translate(j->op, n, s, t),
                "set_scale_and_translate");
    }
    if (!o->n_offsets)
        return 0;
    for (a = 0; a < n; ++a) {
        in[a] = o->in_off[per_axis(o->n_offsets, a)];
        out[a] = o->out_off[per_axis(o->n_offsets, a)];
    }
    TRY_SET(clrs_resample_desc_set_pixel_offsets(j->op, n, in, out),
            "set_pixel_offsets");
    return 0;
}

/* The library calls go in a fixed order, so the first refused knob is the
 * one a problem reports. */
int build_op(job *j)
{
    TRY_SET(clrs_resample_desc_create(&j->op, cli_alg_mode(j->p->o.alg)),
            "resample_desc_create");
    if (j->p->o.n_axes > 0) /* --axes given: else the library's default */
        TRY_SET(clrs_resample_desc_set_axes(j->op, j->p->d.naxes,
                                            j->p->d.axes),
                "set_axes");
    if (set_geometry(j) != 0 || set_sampling(j) != 0 ||
        set_scales_roi(j) != 0 || set_policies(j) != 0)
        return -1;
    /* Offsets last: they select their own coordinate mode. */
    return set_offsets(j);
}

static int make_tensor(job *j, int role, clrs_dtype dt, const int64_t *dims,
                       int is_output)
{
    tensor *t = &j->t[role];
    char what[64];
    snprintf(what, sizeof what, "%s tensor", role_names[role]);
    TRY_SET(clrs_tensor_desc_create_tag(&t->d, dt, j->rank, dims,
                                        j->p->o.tag->tag),
            what);
    TRY_SET(clrs_tensor_desc_create_tag(&t->dense, dt, j->rank, dims,
                                        CLRS_TAG_ABX),
            what);
    t->dt = dt;
    t->bytes = clrs_tensor_desc_bytes(t->d);
    t->elems = clrs_tensor_desc_elements(t->d);
    t->used = 1;
    t->is_output = is_output;
    return 0;
}

/* The post-op chain, with an operand tensor in the problem's tag per
 * binary post-op (dims 1 where its policy broadcasts). The library
 * rejects post-ops on backward itself. */
static int append_post_ops(job *j, const int64_t *out)
{
    const cli_opts *o = &j->p->o;
    int i, a;
    for (i = 0; i < o->n_post; ++i) {
        const struct cli_post *q = &o->post[i];
        int64_t dims[CLRS_MAX_RANK];
        switch (q->kind) {
        case CLI_POST_SUM:
            TRY_SET(clrs_resample_desc_append_sum(j->op, q->scale),
                    "append_sum");
            break;
        case CLI_POST_ELTWISE:
            TRY_SET(clrs_resample_desc_append_eltwise(
                        j->op, (clrs_eltwise)q->alg, q->alpha, q->beta),
                    "append_eltwise");
            break;
        default:
            for (a = 0; a < j->rank; ++a)
                dims[a] = q->mask >> (a < 7 ? a : 7) & 1u ? out[a] : 1;
            if (make_tensor(j, T_POST + i, q->dt, dims, 0))
                return -1;
            TRY_SET(clrs_resample_desc_append_binary(
                        j->op, (clrs_binary)q->alg, j->t[T_POST + i].d),
                    "append_binary");
            break;
        }
    }
    return 0;
}

int has_sum(const job *j)
{
    int i;
    for (i = 0; i < j->p->o.n_post; ++i)
        if (j->p->o.post[i].kind == CLI_POST_SUM)
            return 1;
    return 0;
}

int build_tensors(job *j)
{
    const cli_prb *p = j->p;
    const cli_desc *d = &p->d;
    int64_t in[CLRS_MAX_RANK], out[CLRS_MAX_RANK];
    clrs_dtype idt;

    j->rank = d->nsp + 2;
    cli_desc_dims(d, in, out);
    if (output_dims(j, out, NULL) != 0)
        return -1;
    j->backward = p->o.dir == DIR_BWD_D;
    if (!j->backward) {
        if (make_tensor(j, T_SRC, p->o.sdt, in, 0) ||
            make_tensor(j, T_DST, p->o.ddt, out, 1) ||
            append_post_ops(j, out))
            return -1;
        if (clrs__mode_allows(p->o.alg, CLRS_MOPT_INDEX) &&
            p->o.dir == DIR_FWD_D) {
            TRY_SET(clrs_resample_desc_index_dtype(j->op, j->t[T_SRC].d,
                                                   &idt),
                    "index_dtype");
            if (make_tensor(j, T_INDEX, idt, out, 1))
                return -1;
        }
        return 0;
    }
    /* Backward: diff_src in sdt, diff_dst in ddt (benchdnn's naming). */
    if (make_tensor(j, T_DIFF_SRC, p->o.sdt, in, 1) ||
        make_tensor(j, T_DIFF_DST, p->o.ddt, out, 0))
        return -1;
    if (clrs__mode_allows(p->o.alg, CLRS_MOPT_INDEX)) {
        if (p->g.ws_file) {
            TRY_SET(clrs_resample_desc_index_dtype(j->op,
                                                   j->t[T_DIFF_SRC].d, &idt),
                    "index_dtype");
            if (make_tensor(j, T_INDEX, idt, out, 0))
                return -1;
        } else if (make_tensor(j, T_SRC, p->o.sdt, in, 0)) {
            return -1;
        }
    }
    return 0;
}
