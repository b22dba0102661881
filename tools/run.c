/* clresample tool: running one problem. Builds the library descriptors,
 * fills or reads the inputs, runs the device plan (or the CPU reference
 * as the engine), checks against clrs_reference_* within the tolerances
 * of clresample(3), times it, and writes requested .npy outputs. */
#include "cli.h"

#include <math.h>
#include <nettle/sha2.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Roles of the tensors a problem touches. */
/* T_POST + i: the operand of binary post-op i. */
enum { T_SRC, T_DST, T_INDEX, T_DIFF_DST, T_DIFF_SRC, T_POST,
       T_COUNT = T_POST + CLRS_MAX_POST_OPS };
static const char *const role_names[T_COUNT] = {
    "src", "dst", "index", "diff_dst", "diff_src",
    "post_op0", "post_op1", "post_op2", "post_op3"};

typedef struct tensor {
    clrs_tensor_desc *d;     /* in the problem's tag */
    clrs_tensor_desc *dense; /* abx twin, for the reference engine's oracle */
    clrs_dtype dt;
    size_t bytes;
    int64_t elems;
    void *host;  /* engine's copy: inputs, or outputs read back */
    void *exp;   /* oracle output (outputs only) */
    void *dhost; /* dense copy for the reference engine */
    void *init;  /* dst under a sum post-op: its values before the run */
    cl_mem mem;
    int used, is_output;
} tensor;

typedef struct job {
    const cli_prb *p;
    cli_env *env;
    cli_result *r;
    clrs_resample_desc *op;
    tensor t[T_COUNT];
    int rank;
    int backward;
    clrs_plan *plan;
    double *bound; /* the error model's, per output element (check) */
} job;

const char *cli_status_name(cli_status s)
{
    static const char *const n[ST_COUNT_] = {
        "PASSED", "FAILED", "SKIPPED", "UNIMPLEMENTED", "INVALID_ARGUMENTS",
        "EXECUTED", "LISTED"};
    return (unsigned)s < ST_COUNT_ ? n[s] : "?";
}

static void set_status(cli_result *r, cli_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_status(cli_result *r, cli_status st, const char *fmt, ...)
{
    va_list ap;
    r->status = st;
    char *c;
    va_start(ap, fmt);
    vsnprintf(r->detail, sizeof r->detail, fmt, ap);
    va_end(ap);
    /* Build logs span lines; a status line must stay one line. */
    for (c = r->detail; *c; ++c)
        if (*c == '\n' || *c == '\r')
            *c = c[1] ? ' ' : '\0';
}

/* The context of the problem being run, for error details. */
static const clrs_context *lib_ctx;

/* A library error becomes the problem's status: missing features are
 * UNIMPLEMENTED, size limits SKIPPED, OpenCL trouble FAILED, and the rest
 * are arguments the library refused. */
static void lib_status(cli_result *r, clrs_status st, const char *what)
{
    const char *msg = clrs_last_error();
    cli_status s;
    /* Calls on a context keep their detail there. */
    if (!msg[0] && lib_ctx)
        msg = clrs_context_last_error(lib_ctx);
    if (!msg[0])
        msg = clrs_status_string(st);
    switch (st) {
    case CLRS_ERR_NOT_IMPLEMENTED: s = ST_UNIMPLEMENTED; break;
    /* The device lacks what the problem needs (fp64): as benchdnn, a
     * skip with the reason, not a fault of the library. */
    case CLRS_ERR_UNSUPPORTED:
    case CLRS_ERR_TOO_LARGE:
    case CLRS_ERR_OUT_OF_MEMORY: s = ST_SKIPPED; break;
    case CLRS_ERR_OPENCL:
    case CLRS_ERR_BUILD_FAILED:
    case CLRS_ERR_NO_DEVICE: s = ST_FAILED; break;
    default: s = ST_INVALID; break;
    }
    set_status(r, s, "%s: %s: %s", what, clrs_status_name(st), msg);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

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
    if (o->exclude_outside)
        TRY_SET(clrs_resample_desc_set_exclude_outside(j->op, 1),
                "set_exclude_outside");
    if (o->antialias)
        TRY_SET(clrs_resample_desc_set_antialias(j->op, 1), "set_antialias");
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
static int build_op(job *j)
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

static int has_sum(const job *j)
{
    int i;
    for (i = 0; i < j->p->o.n_post; ++i)
        if (j->p->o.post[i].kind == CLI_POST_SUM)
            return 1;
    return 0;
}

static int build_tensors(job *j)
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

/* ---- host data ---- */

static uint64_t mix64(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* benchdnn-style exact-friendly values, a pure function of (seed, role,
 * logical index) so that a repro line refills identically wherever it
 * runs. Nearest and max get both signs over a wide range. Weighted modes
 * get both signs too, from [-2v, -v] and [v, 2v]: their sums then cancel
 * now and then (cubic's lobes, gradients of mixed sign), which the error
 * model bounds by the terms, not by the result. Unsigned integers stay
 * positive. */
static double fill_value(uint64_t seed, int role, int64_t i, clrs_dtype dt,
                         int exact_mode)
{
    uint64_t h = mix64(mix64(seed * 8 + (uint64_t)role) ^ (uint64_t)i);
    double sign = (h >> 40) & 1 ? -1 : 1;
    int64_t k;
    switch (dt) {
    case CLRS_U8: return exact_mode ? (double)(h % 256) : 32 + (double)(h % 33);
    case CLRS_S8:
        return exact_mode ? (double)(int64_t)(h % 255) - 127
                          : sign * (32 + (double)(h % 33));
    case CLRS_S32:
    case CLRS_S64:
        return exact_mode ? (double)(int64_t)(h % 20001) - 10000
                          : sign * (512 + (double)(h % 513));
    default:
        k = exact_mode ? (int64_t)(h % 257) - 128 : 64 + (int64_t)(h % 65);
        return (exact_mode ? 1 : sign) * (double)k / 16.0;
    }
}

static int host_alloc(job *j)
{
    int i;
    double need = 0;
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    for (i = 0; i < T_COUNT; ++i)
        if (j->t[i].used)
            need += 3.0 * (double)j->t[i].bytes;
    /* Linux overcommits: a malloc that succeeds can still kill us later. */
    if (pages > 0 && psize > 0 && need > 0.6 * (double)pages * psize) {
        set_status(j->r, ST_SKIPPED, "needs %.1f GiB of host memory; the "
                   "machine has %.1f GiB", need / 1073741824.0,
                   (double)pages * psize / 1073741824.0);
        return -1;
    }
    for (i = 0; i < T_COUNT; ++i) {
        tensor *t = &j->t[i];
        if (!t->used)
            continue;
        /* an empty tensor still gets a (one-byte) buffer to point at */
        t->host = malloc(t->bytes + 1);
        t->exp = t->is_output ? malloc(t->bytes + 1) : NULL;
        if (!t->host || (t->is_output && !t->exp)) {
            set_status(j->r, ST_SKIPPED, "out of host memory for %s (%zu "
                       "bytes)", role_names[i], t->bytes);
            return -1;
        }
    }
    return 0;
}

/* Output poison: NaN for floating types (any unwritten element fails the
 * check), a byte pattern for integers. Blocked padding lanes get it too. */
static void poison(void *buf, clrs_dtype dt, size_t bytes)
{
    size_t i, n;
    const cli_dtype *t = cli_dtype_of(dt);
    if (!t->is_float) {
        memset(buf, 0x5a, bytes);
        return;
    }
    n = bytes / clrs_dtype_size(dt);
    for (i = 0; i < n; ++i)
        cli_store(buf, dt, (int64_t)i, NAN);
}

/* .npy element type for a tensor dtype: bf16 travels as f32. */
static clrs_dtype npy_dt(clrs_dtype dt)
{
    return dt == CLRS_BF16 ? CLRS_F32 : dt;
}

static int read_input(job *j, int role, const char *path)
{
    tensor *t = &j->t[role];
    const cli_dtype *nd = cli_dtype_of(npy_dt(t->dt));
    int64_t dims[CLRS_MAX_RANK];
    void *buf;
    cli_iter it;
    char err[400];
    int bl = j->p->o.tag->blocked;

    clrs_tensor_desc_get(t->d, dims, NULL);
    buf = malloc((size_t)t->elems * nd->npy_size);
    if (!buf) {
        set_status(j->r, ST_SKIPPED, "out of memory reading %s", path);
        return -1;
    }
    if (npy_read(path, nd->npy, nd->npy_size, j->rank, dims, buf, err,
                 sizeof err) != 0) {
        set_status(j->r, ST_INVALID, "%s file: %s", role_names[role], err);
        free(buf);
        return -1;
    }
    memset(t->host, 0, t->bytes);
    cli_iter_init(&it, t->d, bl);
    while (cli_iter_next(&it))
        cli_store(t->host, t->dt, it.off,
                  cli_load(buf, nd->dt, it.count - 1));
    free(buf);
    return 0;
}

static int write_output(job *j, int role, const void *data, const char *path)
{
    tensor *t = &j->t[role];
    const cli_dtype *nd = cli_dtype_of(npy_dt(t->dt));
    int64_t dims[CLRS_MAX_RANK];
    void *buf;
    cli_iter it;
    char err[400];

    clrs_tensor_desc_get(t->d, dims, NULL);
    buf = malloc((size_t)t->elems * nd->npy_size);
    if (!buf) {
        set_status(j->r, ST_SKIPPED, "out of memory writing %s", path);
        return -1;
    }
    cli_iter_init(&it, t->d, j->p->o.tag->blocked);
    while (cli_iter_next(&it))
        cli_store(buf, nd->dt, it.count - 1, cli_load(data, t->dt, it.off));
    if (npy_write(path, nd->npy, nd->npy_size, j->rank, dims, buf, err,
                  sizeof err) != 0) {
        set_status(j->r, ST_FAILED, "%s", err);
        free(buf);
        return -1;
    }
    free(buf);
    return 0;
}

static int fill_inputs(job *j)
{
    const cli_prb *p = j->p;
    int exact = clrs__mode_exact(p->o.alg);
    int i;
    for (i = 0; i < T_COUNT; ++i) {
        tensor *t = &j->t[i];
        const char *file = NULL;
        cli_iter it;
        if (!t->used)
            continue;
        if (t->is_output && !(i == T_DST && has_sum(j))) {
            poison(t->host, t->dt, t->bytes);
            continue;
        }
        if (i == T_SRC)
            file = p->g.src_file;
        else if (i == T_DIFF_DST)
            file = p->g.diff_dst_file;
        else if (i == T_INDEX)
            file = p->g.ws_file;
        if (file) {
            if (read_input(j, i, file) != 0)
                return -1;
            continue;
        }
        memset(t->host, 0, t->bytes); /* blocked padding lanes */
        cli_iter_init(&it, t->d, p->o.tag->blocked);
        while (cli_iter_next(&it))
            cli_store(t->host, t->dt, it.off,
                      fill_value(p->g.seed, i, it.count - 1, t->dt, exact));
        if (t->is_output) { /* the sum's old dst, for the oracle too */
            t->init = malloc(t->bytes);
            if (!t->init) {
                set_status(j->r, ST_SKIPPED, "out of host memory");
                return -1;
            }
            memcpy(t->init, t->host, t->bytes);
        }
    }
    return 0;
}

/* Copies logical elements between two layouts of one shape. */
static void relayout(const clrs_tensor_desc *sd, int sblocked,
                     const void *src, const clrs_tensor_desc *dd,
                     int dblocked, void *dst, clrs_dtype dt)
{
    cli_iter a, b;
    cli_iter_init(&a, sd, sblocked);
    cli_iter_init(&b, dd, dblocked);
    while (cli_iter_next(&a) && cli_iter_next(&b))
        cli_store(dst, dt, b.off, cli_load(src, dt, a.off));
}

/* ---- reference ---- */

static clrs_status run_reference(job *j, int dense, int into_exp)
{
    clrs_host_args h;
    tensor *t = j->t;
    int i;
    memset(&h, 0, sizeof h);
#define PICK(k) (dense ? t[k].dhost : (into_exp && t[k].is_output ? t[k].exp : t[k].host))
#define DESC(k) (t[k].used ? (dense ? t[k].dense : t[k].d) : NULL)
    if (!j->backward) {
        h.src = PICK(T_SRC);
        h.dst = PICK(T_DST);
        h.index = t[T_INDEX].used ? PICK(T_INDEX) : NULL;
        /* Operands keep the problem's layout on both engines: the op
         * holds their tagged descriptors. */
        for (i = 0; i < CLRS_MAX_POST_OPS; ++i)
            h.post_op[i] = t[T_POST + i].used ? t[T_POST + i].host : NULL;
        return clrs_reference_forward_bound(j->op, DESC(T_SRC), DESC(T_DST),
                                            DESC(T_INDEX), &h,
                                            into_exp ? j->bound : NULL);
    }
    h.diff_dst = PICK(T_DIFF_DST);
    h.diff_src = PICK(T_DIFF_SRC);
    h.index = t[T_INDEX].used ? PICK(T_INDEX) : NULL;
    h.src = t[T_SRC].used ? PICK(T_SRC) : NULL;
    return clrs_reference_backward_bound(
        j->op, DESC(T_DIFF_SRC), DESC(T_DIFF_DST), DESC(T_INDEX), DESC(T_SRC),
        &h, into_exp ? j->bound : NULL);
#undef PICK
#undef DESC
}

/* ---- device ---- */

static int cl_fail(job *j, cl_int err, const char *what)
{
    set_status(j->r, ST_FAILED, "%s failed (OpenCL error %d)", what,
               (int)err);
    return -1;
}

static int device_setup(job *j)
{
    cl_context c;
    cl_command_queue q;
    cl_int err;
    int i;

    clrs_context_get_cl(j->env->ctx, &c, NULL, &q);
    for (i = 0; i < T_COUNT; ++i) {
        tensor *t = &j->t[i];
        if (!t->used || t->bytes == 0)
            continue; /* an empty tensor has no buffer: NULL in clrs_args */
        t->mem = clCreateBuffer(c, CL_MEM_READ_WRITE, t->bytes, NULL, &err);
        if (!t->mem) {
            set_status(j->r, ST_SKIPPED, "clCreateBuffer of %zu bytes for "
                       "%s failed (OpenCL error %d)", t->bytes,
                       role_names[i], (int)err);
            return -1;
        }
        /* Outputs start poisoned on the device too. */
        err = clEnqueueWriteBuffer(q, t->mem, CL_TRUE, 0, t->bytes, t->host,
                                   0, NULL, NULL);
        if (err != CL_SUCCESS)
            return cl_fail(j, err, "clEnqueueWriteBuffer");
    }
    return 0;
}

static clrs_status device_execute(job *j, cl_event *ev)
{
    clrs_args a;
    int i;
    memset(&a, 0, sizeof a);
    a.src = j->t[T_SRC].mem;
    a.dst = j->t[T_DST].mem;
    a.index = j->t[T_INDEX].mem;
    a.diff_dst = j->t[T_DIFF_DST].mem;
    a.diff_src = j->t[T_DIFF_SRC].mem;
    for (i = 0; i < CLRS_MAX_POST_OPS; ++i)
        a.post_op[i] = j->t[T_POST + i].mem;
    return clrs_execute(j->plan, &a, 0, NULL, ev);
}

static int device_read_outputs(job *j)
{
    cl_command_queue q;
    cl_int err;
    int i;
    clrs_context_get_cl(j->env->ctx, NULL, NULL, &q);
    for (i = 0; i < T_COUNT; ++i) {
        tensor *t = &j->t[i];
        if (!t->used || !t->is_output || !t->mem)
            continue;
        err = clEnqueueReadBuffer(q, t->mem, CL_TRUE, 0, t->bytes, t->host,
                                  0, NULL, NULL);
        if (err != CL_SUCCESS)
            return cl_fail(j, err, "clEnqueueReadBuffer");
    }
    return 0;
}

/* The plan's build log into the result, cut to fit. */
static void keep_build_log(cli_result *r, const char *log)
{
    const char *c;
    size_t n = strlen(log), max = sizeof r->build_log - 1;

    r->build_log_lines = 0;
    if (n == 0)
        return;
    r->build_log_lines = 1;
    for (c = log; *c; ++c)
        r->build_log_lines += *c == '\n';
    if (n <= max)
        memcpy(r->build_log, log, n + 1);
    else
        snprintf(r->build_log, sizeof r->build_log, "%.*s\n[...]",
                 (int)max - 6, log);
}

static int device_plan(job *j)
{
    char before[512];
    cli_capture cap;
    clrs_plan_info info;
    clrs_tune_mode mode;
    clrs_status st;
    double t0, budget;
    const cli_prb *p = j->p;

    /* --mode=T: this plan tunes (and replaces its database entry). */
    clrs_context_get_tuning(j->env->ctx, &mode, &budget);
    if (p->g.mode & MODE_T)
        clrs_context_set_tuning(j->env->ctx, CLRS_TUNE_FORCE, p->g.tune_ms);
    /* The context's detail message before: what plan creation adds to
     * it (a note: a cache or tuning database that cannot be written) is
     * said below, where a successful plan would otherwise hide it. */
    snprintf(before, sizeof before, "%s",
             clrs_context_last_error(j->env->ctx));
    t0 = now_ms();
    cli_capture_begin(&cap);
    if (!j->backward)
        st = clrs_plan_create_forward(&j->plan, j->env->ctx, j->op,
                                      j->t[T_SRC].d, j->t[T_DST].d,
                                      j->t[T_INDEX].used ? j->t[T_INDEX].d
                                                         : NULL);
    else
        st = clrs_plan_create_backward(
            &j->plan, j->env->ctx, j->op, j->t[T_DIFF_SRC].d,
            j->t[T_DIFF_DST].d,
            j->t[T_INDEX].used ? j->t[T_INDEX].d : NULL,
            j->t[T_SRC].used ? j->t[T_SRC].d : NULL);
    j->r->build_ms = now_ms() - t0;
    cli_capture_end(&cap);
    if (st >= 0) {
        const char *note = clrs_context_last_error(j->env->ctx);
        if (note[0] && strcmp(note, before) != 0)
            fprintf(stderr, "clresample: note: %s\n", note);
        keep_build_log(j->r, clrs_plan_get_build_log(j->plan));
    }
    if (p->g.mode & MODE_T)
        clrs_context_set_tuning(j->env->ctx, mode, budget);
    /* Where the program came from, as the plan itself recorded it (other
     * threads' plans cannot blur it, unlike the context's counters). */
    if (st >= 0 && clrs_plan_get_info(j->plan, &info) >= 0) {
        j->r->cache = clrs_cache_source_name(info.cache);
        j->r->build_ms = info.create_ms;
        j->r->vector = clrs_vector_path_name(info.vector_path);
        j->r->lanes = info.vector_lanes;
        j->r->vectors = info.vector_count;
        j->r->groups = info.span_groups;
        j->r->kernels = info.kernels;
        j->r->separable = info.separable;
        j->r->scratch = info.scratch_bytes;
        j->r->launch = clrs_launch_source_name(info.launch_source);
        j->r->tuned = info.tuned_launches;
        j->r->variant = info.variant ? info.variant : "-";
        memcpy(j->r->lws, info.local_size, sizeof j->r->lws);
    }
    if (st < 0) {
        j->plan = NULL;
        lib_status(j->r, st, p->o.dir == DIR_BWD_D ? "plan_create_backward"
                                                   : "plan_create_forward");
        return -1;
    }
    return 0;
}

/* ---- check ---- */

typedef struct point {
    double bad; /* error / tolerance */
    int64_t idx[CLRS_MAX_RANK];
    double exp, got, diff, rdiff, bound;
    int role;
    int64_t lin; /* row-major position */
} point;
#define NWORST 5

/* The error model decides (clrs_reference_agrees, clresample(3)
 * TOLERANCES): the output's bound per element from the reference, 0 for
 * an index tensor (exact). Failures are ranked by their distance over
 * bound plus one spacing of the type. */
static void compare(job *j, int role, const void *exp,
                    const clrs_tensor_desc *ed, int eblocked, point *worst)
{
    tensor *t = &j->t[role];
    cli_result *r = j->r;
    cli_iter a, b;
    int k;
    const double *bound = role == T_INDEX ? NULL : j->bound;

    cli_iter_init(&a, t->d, j->p->o.tag->blocked);
    cli_iter_init(&b, ed, eblocked);
    cli_iter_memory_order(&a, &b);
    while (cli_iter_next(&a) && cli_iter_next(&b)) {
        double got = cli_load(t->host, t->dt, a.off);
        double e = cli_load(exp, t->dt, b.off);
        double bd = bound ? bound[a.lin] : 0;
        double diff = fabs(got - e), rdiff;
        if (isnan(e) || isnan(got))
            diff = rdiff = isnan(e) && isnan(got) ? 0 : INFINITY;
        else if (e == got)
            diff = rdiff = 0;
        else
            rdiff = fabs(e) > 0 ? diff / fabs(e) : diff;
        ++r->checked;
        if (diff > r->max_abs || isnan(diff))
            r->max_abs = diff;
        if (rdiff > r->max_rel)
            r->max_rel = rdiff;
        if (clrs_reference_agrees(t->dt, got, e, bd))
            continue;
        ++r->errors;
        {
            double bad = bd > 0 ? diff / bd : INFINITY;
            if (isnan(bad))
                bad = INFINITY;
            /* Keep the NWORST worst, the first in row-major order first
             * among equals (the walk may go in the memory's order). */
            for (k = 0; k < NWORST; ++k)
                if (worst[k].role < 0 || bad > worst[k].bad ||
                    (bad == worst[k].bad && worst[k].role == role &&
                     a.lin < worst[k].lin))
                    break;
            if (k < NWORST) {
                memmove(&worst[k + 1], &worst[k],
                        (size_t)(NWORST - 1 - k) * sizeof *worst);
                worst[k].bad = bad;
                memcpy(worst[k].idx, a.idx, sizeof a.idx);
                worst[k].exp = e;
                worst[k].got = got;
                worst[k].diff = diff;
                worst[k].rdiff = rdiff;
                worst[k].bound = bd;
                worst[k].role = role;
                worst[k].lin = a.lin;
            }
        }
    }
}

static void check(job *j)
{
    point worst[NWORST];
    cli_result *r = j->r;
    int i, k, dense = j->p->g.engine == ENGINE_REF;
    size_t used = 0;
    clrs_status st;

    for (k = 0; k < NWORST; ++k)
        worst[k].role = -1;
    if (dense) {
        /* The reference engine is checked against the reference on dense
         * abx tensors: layouts and conversions must not change a value. */
        for (i = 0; i < T_COUNT; ++i) {
            tensor *t = &j->t[i];
            if (!t->used)
                continue;
            t->dhost = malloc(clrs_tensor_desc_bytes(t->dense));
            if (!t->dhost) {
                set_status(r, ST_SKIPPED, "out of host memory");
                return;
            }
            if (t->init)
                relayout(t->d, j->p->o.tag->blocked, t->init, t->dense, 0,
                         t->dhost, t->dt);
            else if (t->is_output)
                poison(t->dhost, t->dt, clrs_tensor_desc_bytes(t->dense));
            else
                relayout(t->d, j->p->o.tag->blocked, t->host, t->dense, 0,
                         t->dhost, t->dt);
        }
    } else {
        for (i = 0; i < T_COUNT; ++i)
            if (j->t[i].init)
                memcpy(j->t[i].exp, j->t[i].init, j->t[i].bytes);
            else if (j->t[i].used && j->t[i].is_output)
                poison(j->t[i].exp, j->t[i].dt, j->t[i].bytes);
    }
    {
        const tensor *o = &j->t[j->backward ? T_DIFF_SRC : T_DST];
        j->bound = malloc((size_t)o->elems * sizeof *j->bound + 1);
        if (!j->bound) {
            set_status(r, ST_SKIPPED, "out of host memory");
            return;
        }
    }
    st = run_reference(j, dense, 1);
    if (st < 0) {
        lib_status(r, st, "reference");
        if (r->status != ST_FAILED && !dense)
            r->status = ST_FAILED; /* the plan accepted what the
                                      reference refused */
        return;
    }
    for (i = 0; i < T_COUNT; ++i) {
        tensor *t = &j->t[i];
        if (!t->used || !t->is_output)
            continue;
        if (dense)
            compare(j, i, t->dhost, t->dense, 0, worst);
        else
            compare(j, i, t->exp, t->d, j->p->o.tag->blocked, worst);
    }
    if (r->errors == 0) {
        r->status = ST_PASSED;
        return;
    }
    set_status(r, ST_FAILED, "%lld of %lld points wrong",
               (long long)r->errors, (long long)r->checked);
    for (k = 0; k < NWORST && worst[k].role >= 0 && used < sizeof r->worst;
         ++k) {
        int d;
        used += (size_t)snprintf(r->worst + used, sizeof r->worst - used,
                                 "  %s[", role_names[worst[k].role]);
        for (d = 0; d < j->rank && used < sizeof r->worst; ++d)
            used += (size_t)snprintf(r->worst + used, sizeof r->worst - used,
                                     "%s%lld", d ? "," : "",
                                     (long long)worst[k].idx[d]);
        if (used < sizeof r->worst)
            used += (size_t)snprintf(r->worst + used, sizeof r->worst - used,
                                     "] exp:%.9g got:%.9g diff:%.3g "
                                     "rdiff:%.3g bound:%.3g\n",
                                     worst[k].exp, worst[k].got,
                                     worst[k].diff, worst[k].rdiff,
                                     worst[k].bound);
    }
}

/* ---- performance ---- */

/* The bytes a run reads and writes: every tensor once, and dst read too
 * under a sum post-op (it reads dst before writing it). */
static void io_bytes(const job *j, double *rd, double *wr)
{
    int i;

    *rd = *wr = 0;
    if (j->t[j->backward ? T_DIFF_SRC : T_DST].elems == 0)
        return; /* an empty problem moves nothing */
    for (i = 0; i < T_COUNT; ++i)
        if (j->t[i].used) {
            double b = (double)j->t[i].elems *
                       (double)clrs_dtype_size(j->t[i].dt);
            if (j->t[i].is_output)
                *wr += b;
            else
                *rd += b;
        }
    if (has_sum(j))
        *rd += (double)j->t[T_DST].elems *
               (double)clrs_dtype_size(j->t[T_DST].dt);
}

/* The fastest the device could run the problem, in GB/s of its bytes:
 * the copy's rate, or where it is higher, the rate at which the device
 * reads the inputs alone or writes the outputs alone, whichever takes
 * longer (a problem that mostly reads may beat the copy where reads are
 * cheaper than writes; the measured read and write bandwidths bound it
 * then); 0 when nothing was measured. A figure above it is a
 * measurement error. */
static double gbps_limit(const job *j)
{
    const cli_env *env = j->env;
    double rd, wr, t, rw;

    if (env->read_gbps <= 0 || env->write_gbps <= 0)
        return env->copy_gbps;
    io_bytes(j, &rd, &wr);
    t = rd / env->read_gbps > wr / env->write_gbps ? rd / env->read_gbps
                                                   : wr / env->write_gbps;
    rw = t > 0 ? (rd + wr) / t : 0;
    return rw > env->copy_gbps ? rw : env->copy_gbps;
}

static void perf_bytes(job *j)
{
    double rd, wr;
    io_bytes(j, &rd, &wr);
    j->r->bytes = rd + wr;
}

/* One timed run: the kernel time from profiling. A plan of several
 * kernels returns the last one's event only, so it is timed from a
 * marker enqueued just before it (the tool's queue is in order: the
 * first kernel starts after the marker) to the last kernel's end. */
static int timed_run(job *j, double *ms)
{
    cl_command_queue q = NULL;
    cl_event ev = NULL, mark = NULL;
    cl_ulong s = 0, e = 0;
    cl_int err = CL_SUCCESS;
    clrs_status st;

    if (j->r->kernels > 1) {
        clrs_context_get_cl(j->env->ctx, NULL, NULL, &q);
        err = clEnqueueMarkerWithWaitList(q, 0, NULL, &mark);
        if (err != CL_SUCCESS)
            return cl_fail(j, err, "clEnqueueMarkerWithWaitList");
    }
    st = device_execute(j, &ev);
    if (st < 0) {
        if (mark)
            clReleaseEvent(mark);
        return lib_status(j->r, st, "execute"), -1;
    }
    err = clWaitForEvents(1, &ev);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(mark ? mark : ev,
                                      mark ? CL_PROFILING_COMMAND_END
                                           : CL_PROFILING_COMMAND_START,
                                      sizeof s, &s, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END,
                                      sizeof e, &e, NULL);
    clReleaseEvent(ev);
    if (mark)
        clReleaseEvent(mark);
    if (err != CL_SUCCESS)
        return cl_fail(j, err, "profiling");
    *ms = (double)(e - s) / 1e6;
    return 0;
}

/* One run of the reference, timed on the host clock. */
static int timed_reference(job *j, double *ms)
{
    const double t = now_ms();
    const clrs_status st = run_reference(j, 0, 0);
    if (st < 0)
        return lib_status(j->r, st, "reference"), -1;
    *ms = now_ms() - t;
    return 0;
}

/* Runs `once` until --fix-times-per-prb runs, else until at least one
 * has run and --max-ms-per-prb has passed since t0 (ms); their least
 * and mean time into the result. */
static int time_runs(job *j, int (*once)(job *, double *), double t0)
{
    const cli_global *g = &j->p->g;
    double sum = 0, mn = INFINITY;
    int64_t n = 0;
    for (;;) {
        double ms;
        if (g->fix_times ? n >= g->fix_times
                         : (n >= 1 && now_ms() - t0 >= g->max_ms))
            break;
        if (once(j, &ms) < 0)
            return -1;
        sum += ms;
        if (ms < mn)
            mn = ms;
        ++n;
    }
    j->r->min_ms = mn;
    j->r->avg_ms = sum / (double)n;
    j->r->runs = n;
    return 0;
}

static int perf_device(job *j)
{
    const double t0 = now_ms();
    cl_event ev;
    clrs_status st;

    /* Warm-up: PoCL builds its work-group function at the first enqueue. */
    st = device_execute(j, &ev);
    if (st < 0)
        return lib_status(j->r, st, "execute"), -1;
    clWaitForEvents(1, &ev);
    clReleaseEvent(ev);
    return time_runs(j, timed_run, t0);
}

static int perf_reference(job *j)
{
    return time_runs(j, timed_reference, now_ms());
}

/* ---- the problem ---- */

static void cleanup(job *j)
{
    int i;
    clrs_plan_destroy(j->plan);
    clrs_resample_desc_destroy(j->op);
    free(j->bound);
    for (i = 0; i < T_COUNT; ++i) {
        tensor *t = &j->t[i];
        if (t->mem)
            clReleaseMemObject(t->mem);
        clrs_tensor_desc_destroy(t->d);
        clrs_tensor_desc_destroy(t->dense);
        free(t->host);
        free(t->exp);
        free(t->dhost);
        free(t->init);
    }
}

/* r->digest over the bytes of the outputs, in role order. */
static void digest_outputs(job *j)
{
    static const char hexd[] = "0123456789abcdef";
    struct sha256_ctx c;
    uint8_t d[SHA256_DIGEST_SIZE];
    int i;

    sha256_init(&c);
    for (i = 0; i < T_COUNT; ++i)
        if (j->t[i].used && j->t[i].is_output && j->t[i].host)
            sha256_update(&c, j->t[i].bytes, j->t[i].host);
    sha256_digest(&c, sizeof d, d);
    for (i = 0; i < 8; ++i) {
        j->r->digest[2 * i] = hexd[d[i] >> 4];
        j->r->digest[2 * i + 1] = hexd[d[i] & 15];
    }
    j->r->digest[16] = '\0';
}

static int write_outputs(job *j)
{
    const cli_global *g = &j->p->g;
    if (!j->backward) {
        if (g->dst_file && write_output(j, T_DST, j->t[T_DST].host,
                                        g->dst_file) != 0)
            return -1;
        if (g->ws_file && j->t[T_INDEX].used &&
            write_output(j, T_INDEX, j->t[T_INDEX].host, g->ws_file) != 0)
            return -1;
    } else if (g->diff_src_file &&
               write_output(j, T_DIFF_SRC, j->t[T_DIFF_SRC].host,
                            g->diff_src_file) != 0) {
        return -1;
    }
    return 0;
}

void cli_run_problem(const cli_prb *p, cli_env *env, cli_result *r)
{
    job j;
    unsigned mode = p->g.mode;
    int ref = p->g.engine == ENGINE_REF;
    double limit;

    memset(&j, 0, sizeof j);
    memset(r, 0, sizeof *r);
    r->cache = "-";
    r->vector = "-";
    r->variant = "-";
    r->min_ms = r->avg_ms = r->gbps = r->roof_pct = NAN;
    r->build_ms = NAN;
    j.p = p;
    j.env = env;
    lib_ctx = env->ctx;
    j.r = r;
    if (mode & MODE_L) {
        r->status = ST_LISTED;
        return;
    }
    if (p->skip[0]) {
        set_status(r, ST_SKIPPED, "%s", p->skip);
        return;
    }
    if (build_op(&j) != 0 || build_tensors(&j) != 0)
        goto out;
    perf_bytes(&j);
    if (!ref && device_plan(&j) != 0)
        goto out;
    if (host_alloc(&j) != 0 || fill_inputs(&j) != 0)
        goto out;

    /* Run once: the result is what C checks and R writes. */
    if (ref) {
        clrs_status st = run_reference(&j, 0, 0);
        if (st < 0) {
            lib_status(r, st, "reference");
            goto out;
        }
    } else {
        cl_event ev;
        clrs_status st;
        if (device_setup(&j) != 0)
            goto out;
        st = device_execute(&j, &ev);
        if (st < 0) {
            lib_status(r, st, "execute");
            goto out;
        }
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
        if (device_read_outputs(&j) != 0)
            goto out;
    }
    r->status = ST_EXECUTED;
    if (env->digest) /* hashing a large output costs seconds */
        digest_outputs(&j);
    if (write_outputs(&j) != 0)
        goto out;
    if (mode & MODE_C) {
        check(&j);
        if (r->status != ST_PASSED)
            goto out;
    }
    if (mode & MODE_P) {
        if ((ref ? perf_reference(&j) : perf_device(&j)) != 0)
            goto out;
        if (r->min_ms > 0) {
            r->gbps = r->bytes / (r->min_ms * 1e6);
            if (env->copy_gbps > 0)
                r->roof_pct = 100.0 * r->gbps / env->copy_gbps;
            /* Faster than the device reads or writes memory: the timing
             * missed part of the work, it is no result. Above the copy
             * alone is not: a problem that mostly reads may beat it; nor
             * is a problem within four times the device's cache, which
             * may serve part of it across runs (PoCL, AMD EPYC with 32
             * MiB of L3: a bilinear 2x down of 84 MB read its input at
             * 40 GB/s, the read kernel over 256 MB at 39). */
            limit = gbps_limit(&j);
            r->above_copy = limit > 0 && r->gbps > limit &&
                            r->bytes >= 4.0 * env->cache_bytes;
        }
    }
out:
    cleanup(&j);
}

/* ---- --cache-bench: first use of a plan ---- */

int cli_time_first_use(const cli_prb *p, cli_env *env, cli_first_use *out,
                       char *err, size_t errsz)
{
    job j;
    cli_result r;
    int k, rc = -1;

    memset(&j, 0, sizeof j);
    memset(&r, 0, sizeof r);
    memset(out, 0, sizeof *out);
    r.cache = "-";
    r.vector = "-";
    j.p = p;
    j.env = env;
    j.r = &r;
    lib_ctx = env->ctx;
    /* Buffers are the application's: made before the clock starts. */
    if (build_op(&j) != 0 || build_tensors(&j) != 0 || host_alloc(&j) != 0 ||
        fill_inputs(&j) != 0 || device_setup(&j) != 0)
        goto out;
    /* Twice on one context: the first plan is cold or warm (whatever the
     * caches hold), the second is hot (the context's map). */
    for (k = 0; k < 2; ++k) {
        cl_event ev;
        double t0 = now_ms(), t1;
        clrs_status st;
        if (device_plan(&j) != 0)
            goto out;
        t1 = now_ms();
        st = device_execute(&j, &ev);
        if (st < 0) {
            lib_status(&r, st, "execute");
            goto out;
        }
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
        out->plan_ms[k] = t1 - t0;
        out->total_ms[k] = now_ms() - t0;
        out->source[k] = r.cache;
        clrs_plan_destroy(j.plan);
        j.plan = NULL;
    }
    rc = 0;
out:
    if (rc != 0)
        snprintf(err, errsz, "%s: %s", cli_status_name(r.status), r.detail);
    cleanup(&j);
    return rc;
}
