/* Plans: the last stage. A plan checks the problem against the
 * context's device, runs the stages before it (taps -> lowering ->
 * tables -> codegen -> program), uploads the tables, binds the fixed
 * arguments, and at execute checks the caller's buffers and enqueues one
 * kernel, or two for the max pooling backward that recomputes its
 * argmax. */
#include "rt/plan.h"
#include "rt/program.h"
#include "gen/tables.h"
#include "rt/tune.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A device buffer the plan owns: a table copied from host (read only) or,
 * with host NULL, scratch the kernels write. */
clrs_status clrs__plan_buffer(clrs_plan *plan, size_t bytes, void *host,
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

/* The plan's buffers together, the caller's tensors (as check_device
 * sized them) and `extra` bytes of its own intermediates (`what`), against
 * the device's global memory: a kernel needs them all resident at once. */
static clrs_status check_total(const clrs_plan *plan, uint64_t extra,
                               const char *what)
{
    const uint64_t global = plan->ctx->dev.info.global_mem_size;
    const uint64_t part[5] = {plan->need_src, plan->need_diff_src,
                              plan->need_dst, plan->need_diff_dst,
                              plan->need_index};
    static const char *const name[5] = {"src", "diff_src", "dst", "diff_dst",
                                        "index"};
    uint64_t total = extra, post = 0;
    char list[256];
    size_t at = 0;
    int i;

    for (i = 0; i < CLRS_MAX_POST_OPS; ++i)
        post += plan->need_post[i];
    for (i = 0; i < 5; ++i)
        total += part[i];
    total += post;
    if (!global || total <= global)
        return CLRS_SUCCESS;
    list[0] = '\0';
    for (i = 0; i < 5; ++i)
        if (part[i] && at < sizeof list)
            at += (size_t)snprintf(list + at, sizeof list - at, "%s%s %llu",
                                   at ? ", " : "", name[i],
                                   (unsigned long long)part[i]);
    if (post && at < sizeof list)
        at += (size_t)snprintf(list + at, sizeof list - at,
                               ", binary operands %llu",
                               (unsigned long long)post);
    if (extra && at < sizeof list)
        snprintf(list + at, sizeof list - at, ", %s %llu", what,
                 (unsigned long long)extra);
    return clrs__error(CLRS_ERR_TOO_LARGE,
                       "the plan's buffers need %llu bytes together (%s); "
                       "the device's global memory "
                       "(CL_DEVICE_GLOBAL_MEM_SIZE) is %llu bytes",
                       (unsigned long long)total, list,
                       (unsigned long long)global);
}

static clrs_status check_fp64(const clrs_context *ctx,
                              const struct clrs_tensor_desc *t,
                              const char *what)
{
    CLRS_CHECK(t->dtype != CLRS_F64 || ctx->dev.info.has_fp64,
               CLRS_ERR_UNSUPPORTED,
               "%s dtype f64 needs fp64 (cl_khr_fp64); device \"%s\" has "
               "none",
               what, ctx->dev.info.device_name);
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
    if (p->has_x)
        CLRS_TRY(check_fp64(ctx, &p->x, "src"));
    for (i = 0; i < p->n_post_ops; ++i)
        if (p->post_ops[i].kind == CLRS_POST_BINARY)
            CLRS_TRY(check_fp64(ctx, &p->post_ops[i].operand,
                                "binary operand"));
    CLRS_CHECK(!CLRS__CV8_FP64(p) || ctx->dev.info.has_fp64,
               CLRS_ERR_UNSUPPORTED,
               "OpenCV's 8-bit path of cubic, lanczos4 and area by whole "
               "factors (u8 to u8) sums exactly in double and needs fp64 "
               "(cl_khr_fp64); device \"%s\" has none (an f32 destination "
               "runs there)",
               ctx->dev.info.device_name);
    /* Its sums are exact in double only; in float a pass can round the
     * u8 image between the passes otherwise, and the next spreads it. */
    CLRS_CHECK(!p->fixed8 || ctx->dev.info.has_fp64, CLRS_ERR_UNSUPPORTED,
               "Pillow's 8-bit path (CLRS_AA_PILLOW, u8 to u8) sums in "
               "double and needs fp64 (cl_khr_fp64); device \"%s\" has "
               "none (an f32 destination, or CLRS_AA_PYTORCH, runs there)",
               ctx->dev.info.device_name);

    CLRS_TRY(check_bytes(ctx, &p->in, in,
                         p->backward ? &plan->need_diff_src
                                     : &plan->need_src));
    CLRS_TRY(check_bytes(ctx, &p->out, out,
                         p->backward ? &plan->need_diff_dst
                                     : &plan->need_dst));
    if (p->has_index)
        CLRS_TRY(check_bytes(ctx, &p->index, "index", &plan->need_index));
    if (p->has_x)
        CLRS_TRY(check_bytes(ctx, &p->x, "src", &plan->need_src));
    for (i = 0; i < p->n_post_ops; ++i)
        if (p->post_ops[i].kind == CLRS_POST_BINARY)
            CLRS_TRY(check_bytes(ctx, &p->post_ops[i].operand,
                                 "binary operand", &plan->need_post[i]));
    return check_total(plan, 0, NULL);
}

/* ---- kernel -------------------------------------------------------------- */

static clrs_status gen_source(const void *arg, const char *key, char **code)
{
    return clrs__gen_source((const clrs_gen_config *)arg, key, code);
}

/* Where the plan keeps the position of a caller's buffer argument (src,
 * dst, index, x, a binary operand), which execute sets; NULL for any
 * other argument. */
static cl_uint *buffer_position(clrs_plan *plan, const clrs_gen_arg *a)
{
    switch (a->kind) {
    case CLRS_ARG_SRC: return &plan->arg_src;
    case CLRS_ARG_DST: return &plan->arg_dst;
    case CLRS_ARG_INDEX: return &plan->arg_index;
    case CLRS_ARG_X: return &plan->arg_x;
    case CLRS_ARG_POST: return &plan->arg_post[a->i];
    default: return NULL;
    }
}

/* A real scalar argument as a double (dbl) or a float. */
static clrs_status set_real(clrs_plan *plan, cl_uint at, const clrs_gen_arg *a,
                            int dbl)
{
    if (dbl) {
        cl_double v = a->d;
        return clrs__set_arg(plan->kernel, at, sizeof v, &v, a->name);
    } else {
        cl_float v = (cl_float)a->d;
        return clrs__set_arg(plan->kernel, at, sizeof v, &v, a->name);
    }
}

/* Every argument but the caller's buffers is set once, here; execute sets
 * src, dst, index, x and the binary operands only. */
static clrs_status set_fixed_args(clrs_plan *plan)
{
    clrs_gen_arg args[CLRS_GEN_MAX_ARGS];
    const clrs_gen_config *c = &plan->low.cfg;
    int n = clrs__gen_args(c, &plan->low.vals, args), i;

    for (i = 0; i < n; ++i) {
        const clrs_gen_arg *a = &args[i];
        cl_uint at = (cl_uint)i;
        switch (a->kind) {
        case CLRS_ARG_SRC:
        case CLRS_ARG_DST:
        case CLRS_ARG_INDEX:
        case CLRS_ARG_X:
        case CLRS_ARG_POST:
            *buffer_position(plan, a) = at;
            break;
        case CLRS_ARG_ITAB:
            CLRS_TRY(clrs__set_arg(plan->kernel, at, sizeof(cl_mem),
                                   &plan->itab, a->name));
            break;
        case CLRS_ARG_FTAB:
            CLRS_TRY(clrs__set_arg(plan->kernel, at, sizeof(cl_mem),
                                   &plan->ftab, a->name));
            break;
        case CLRS_ARG_OFF:
            if (c->long_off) {
                cl_long v = (cl_long)a->i;
                CLRS_TRY(
                    clrs__set_arg(plan->kernel, at, sizeof v, &v, a->name));
            } else {
                cl_int v = (cl_int)a->i;
                CLRS_TRY(
                    clrs__set_arg(plan->kernel, at, sizeof v, &v, a->name));
            }
            break;
        case CLRS_ARG_WGT:
            CLRS_TRY(set_real(plan, at, a, c->calc_f64 || c->calc_wf64));
            break;
        case CLRS_ARG_CRD:
            CLRS_TRY(set_real(plan, at, a, c->calc_f64));
            break;
        case CLRS_ARG_ACC:
            CLRS_TRY(set_real(plan, at, a, c->acc_f64));
            break;
        }
    }
    return CLRS_SUCCESS;
}

static double elements_inside(const clrs_problem *p, int k, const double *size);

/* Taps of slot k from which a plan computes them by default:
 * CLRS_CALC_SPAN_MIN_TAPS, or a quarter tap per element of src and dst
 * together where that is more (tables of about 8 bytes a tensor element:
 * a plan never holds much more than its tensors, and the tables' faster
 * kernels stay where the axis is short beside them, as over many rows),
 * at most CLRS_CALC_MIN_TAPS; over the C channels the lowering fuses
 * into the axis (2 to CLRS_FUSE_MAX_CHANNELS channels-last), whose
 * tables hold each tap C times, a C-th of that. Antialiased axes alike:
 * their tables cost more to build (about 30 bytes and 60 ns a tap at
 * the peak) and their computed taps run slower (CLRS_CALC_MIN_TAPS). */
static double calc_min_taps(const clrs_problem *p, int k)
{
    const double inner = elements_inside(p, k, NULL);
    double elements = 0, t;
    int d;

    for (d = 0, t = 1; d < p->in.rank; ++d)
        t *= (double)p->in.dims[d];
    elements += t;
    for (d = 0, t = 1; d < p->out.rank; ++d)
        t *= (double)p->out.dims[d];
    elements += t;
    t = elements / 4 > (double)CLRS_CALC_SPAN_MIN_TAPS
            ? elements / 4
            : (double)CLRS_CALC_SPAN_MIN_TAPS;
    if (t > (double)CLRS_CALC_MIN_TAPS)
        t = (double)CLRS_CALC_MIN_TAPS;
    if (inner >= 2 && inner <= CLRS_FUSE_MAX_CHANNELS)
        return t / inner;
    return t;
}

/* The slots whose taps the kernel computes (clrs_problem.calc): where
 * it can (clrs__calc_slot_ok), on axes of calc_min_taps taps or more
 * unless the launch's calc= says 1 (all) or 0 (none). Not for the
 * generic kernel, a fused plan or a device without fp64. */
static unsigned calc_slots(const clrs_plan *plan,
                           const clrs_launch_text *launch)
{
    const clrs_problem *p = &plan->problem;
    clrs_launch_request r;
    unsigned m = 0;
    int k;

    if (clrs__launch_request(&plan->ctx->dev, 0, launch, &r) < 0) {
        clrs__clear_error(); /* the lowering reports it */
        return 0;
    }
    /* Without fp64 the fraction and the weights would be float: a tie of
     * nearest could round the other way and cubic weights leave the
     * error bound (measured on Mesa rusticl), so the tables stay. */
    if (r.generic || r.calc == 0 || p->fused || !plan->ctx->dev.info.has_fp64)
        return 0;
    for (k = 0; k < p->naxes; ++k) {
        const clrs_axis_map *ax = &p->ax[k];
        /* antialiased: the filter's reach, 2 * support + 1 pixels */
        double per = clrs__calc_count(p)
                         ? clrs__calc_count(p)
                         : 2.0 * clrs__kernel_radius(p) * ax->aa_scale + 1.0;
        if (clrs__calc_slot_ok(p, k) &&
            (r.calc == 1 || (double)ax->out * per >= calc_min_taps(p, k)))
            m |= 1u << k;
    }
    return m;
}

/* The taps, the lowering and the tables, then the program (from the
 * context's map, the disk or a build), the table upload and the fixed
 * arguments. */
clrs_status clrs__plan_build_kernel(clrs_plan *plan,
                                    const clrs_launch_text *launch)
{
    const clrs_problem *p = &plan->problem, *lp = p;
    const char *kname = p->backward ? "clrs_backward" : "clrs_forward";
    clrs_problem fused;
    clrs_slot_taps taps;
    clrs_table_images img;
    char *key = NULL;
    cl_int err;
    clrs_status st;
    int is_fused = 0;

    memset(&img, 0, sizeof img);
    plan->problem.calc = calc_slots(plan, launch);
    st = clrs__slot_taps(p, &taps);
    /* A computed last slot fuses where its taps are a fixed count (the
     * span path's computed taps); antialiased ones loop per pixel. */
    if (st >= 0 &&
        (!(p->calc & (1u << (p->naxes - 1))) || clrs__calc_count(p) > 0))
        st = clrs__fuse_channels(p, &taps, &fused, &is_fused);
    if (is_fused) { /* the kernel's view: small channels in their row */
        if (clrs__lower(&plan->ctx->dev, &fused, &taps, plan->index_only,
                        launch, &plan->low) >= 0 &&
            plan->low.cfg.vec > 1) {
            lp = &fused;
        } else {
            /* A fused row that takes no vector is no faster than a
             * pixel's channels as one: unfused, with the taps anew. */
            clrs__clear_error();
            clrs__lowered_free(&plan->low);
            clrs__slot_taps_free(&taps);
            st = clrs__slot_taps(p, &taps);
        }
    }
    if (st >= 0 && lp == p)
        st = clrs__lower(&plan->ctx->dev, p, &taps, plan->index_only, launch,
                         &plan->low);
    if (st >= 0)
        st = clrs__tables_fill(lp, &taps, &plan->low, &img);
    clrs__slot_taps_free(&taps);
    clrs__lowered_free(&plan->low);
    if (st >= 0)
        st = clrs__plan_buffer(plan, img.ibytes, img.i, &plan->itab,
                               "tap table");
    if (st >= 0 && img.f)
        st = clrs__plan_buffer(plan, img.fbytes, img.f, &plan->ftab,
                          "weight table");
    clrs__table_images_free(&img);
    CLRS_TRY(st);

    CLRS_TRY(clrs__gen_key(&plan->low.cfg, &key));
    st = clrs__program_get_ex(plan->ctx, key, gen_source, &plan->low.cfg,
                               clrs__program_options(plan->ctx), &plan->program,
                               &plan->cache_source);
    free(key);
    CLRS_TRY(st);
    plan->build_log = clrs__program_build_log(plan->ctx, plan->program);
    plan->kernel = clCreateKernel(plan->program, kname, &err);
    if (err != CL_SUCCESS) {
        plan->kernel = NULL;
        return clrs__cl_error(err, p->backward
                                       ? "clCreateKernel(clrs_backward)"
                                       : "clCreateKernel(clrs_forward)");
    }
    /* The kernel's own work-group limit may be below the device's. */
    if (plan->low.launch.local[0]) {
        size_t max_group = 0;
        err = clGetKernelWorkGroupInfo(plan->kernel, plan->ctx->device,
                                       CL_KERNEL_WORK_GROUP_SIZE,
                                       sizeof max_group, &max_group, NULL);
        if (err != CL_SUCCESS)
            return clrs__cl_error(err, "clGetKernelWorkGroupInfo");
        clrs__launch_fit_group(&plan->low.launch, max_group);
    }
    return set_fixed_args(plan);
}

/* Milliseconds of CLOCK_MONOTONIC since t0. */
double clrs__ms_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) * 1e3 +
           (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

clrs_status clrs__plan_twin(const clrs_plan *plan, clrs_plan **out)
{
    clrs_plan *c = calloc(1, sizeof *c);

    *out = NULL;
    if (!c)
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "out of memory for a plan's twin");
    c->ctx = plan->ctx;
    clrs__ctx_retain(c->ctx);
    c->problem = plan->problem;
    c->index_only = plan->index_only;
    c->need_src = plan->need_src;
    c->need_dst = plan->need_dst;
    c->need_diff_src = plan->need_diff_src;
    c->need_diff_dst = plan->need_diff_dst;
    c->need_index = plan->need_index;
    memcpy(c->need_post, plan->need_post, sizeof c->need_post);
    if (pthread_mutex_init(&c->lock, NULL) != 0) {
        clrs_plan_destroy(c); /* drops the context's reference */
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "cannot initialise a plan mutex");
    }
    c->lock_init = 1;
    *out = c;
    return CLRS_SUCCESS;
}

/* ---- launch choice ------------------------------------------------------ */

/* The tuning database's line for k into db[n], the user's file before
 * the one shipped for this device, each taken only where its launch is
 * valid here: where it came from (CLRS_LAUNCH_DATABASE or
 * CLRS_LAUNCH_SHIPPED), or CLRS_LAUNCH_DEFAULT for none. */
static clrs_launch_source db_line(const clrs_plan *plan, const clrs_tune_key *k,
                                  char *db, size_t n)
{
    if (clrs__tunedb_lookup(plan->ctx, k, db, n) &&
        clrs__launch_valid(&plan->ctx->dev, db))
        return CLRS_LAUNCH_DATABASE;
    if (clrs__tunedb_lookup_shipped(plan->ctx, k, db, n) &&
        clrs__launch_valid(&plan->ctx->dev, db))
        return CLRS_LAUNCH_SHIPPED;
    return CLRS_LAUNCH_DEFAULT;
}

/* CLRS_LAUNCH's launch where it is set (forced), else the device's
 * defaults. */
static clrs_launch_text env_launch(const clrs_plan *plan)
{
    const char *env = plan->ctx->env.launch;
    clrs_launch_text t = {NULL, CLRS_LAUNCH_DEFAULT};

    if (env && *env) {
        t.text = env;
        t.source = CLRS_LAUNCH_FORCED;
    }
    return t;
}

/* Where the launch comes from: CLRS_LAUNCH; else, unless tuning is off,
 * the user's database's entry, then the shipped database's; else in run
 * mode the tuner; else the device's defaults. */
static clrs_status build_launched(clrs_plan *plan)
{
    clrs_launch_text t = env_launch(plan);
    clrs_tune_mode mode;
    clrs_tune_key k;
    double budget;
    char db[128];

    if (t.source == CLRS_LAUNCH_FORCED)
        return clrs__plan_build_kernel(plan, &t);
    pthread_mutex_lock(&plan->ctx->lock);
    mode = plan->ctx->tune_mode;
    budget = plan->ctx->tune_budget_ms;
    pthread_mutex_unlock(&plan->ctx->lock);
    if (mode == CLRS_TUNE_OFF)
        return clrs__plan_build_kernel(plan, &t);
    clrs__tune_key(&plan->problem, plan->index_only, &k);
    if (mode == CLRS_TUNE_FORCE)
        return clrs__tune(plan, &k, budget);
    t.source = db_line(plan, &k, db, sizeof db);
    if (t.source != CLRS_LAUNCH_DEFAULT) {
        t.text = db;
        return clrs__plan_build_kernel(plan, &t);
    }
    if (mode == CLRS_TUNE_RUN)
        return clrs__tune(plan, &k, budget);
    return clrs__plan_build_kernel(plan, &t);
}

/* ---- two-pass argmax recompute ------------------------------------------ */

static clrs_status plan_create(clrs_plan **out, clrs_context *ctx,
                               const clrs_resample_desc *op,
                               const clrs_tensor_desc *in,
                               const clrs_tensor_desc *outt,
                               const clrs_tensor_desc *index,
                               const clrs_tensor_desc *x, int backward,
                               int index_only);

/* The one-kernel recompute searches every window that may hold a diff_src
 * element for each element (slow: lib/README.md has the figures); the
 * forward argmax into a scratch
 * index followed by the index backward reads each tensor once and takes
 * the vector paths. One kernel remains for CLRS_GENERIC and for scratch
 * that the device cannot allocate. The scratch index is dense in
 * diff_dst's layout, so that both passes take the vector path the
 * tensors around them allow. */
static int want_two_pass(const clrs_plan *plan, size_t *index_bytes,
                         struct clrs_tensor_desc *sidx)
{
    const clrs_problem *p = &plan->problem;
    if (!p->backward || !clrs__mode_allows(p->mode, CLRS_MOPT_INDEX) ||
        p->has_index || !p->has_x || plan->ctx->dev.generic)
        return 0;
    clrs__tensor_dense_like(
        &p->out, p->window_volume <= CLRS_S8_INDEX_MAX ? CLRS_S8 : CLRS_S32,
        sidx);
    if (check_bytes(plan->ctx, sidx, "scratch index", index_bytes) < 0 ||
        check_total(plan, *index_bytes, "scratch index") < 0) {
        clrs__clear_error();
        return 0;
    }
    return 1;
}

/* The logs of n sub-plans (the passes of a two-pass or separable plan),
 * each under its heading, blank-line separated, as the plan's; none when
 * all are empty. */
#define LOG_HEAD_MAX 48
static clrs_status join_logs(clrs_plan *plan, clrs_plan *const *sub,
                             char head[][LOG_HEAD_MAX], int n)
{
    size_t len = 0, at = 0;
    int i;

    for (i = 0; i < n; ++i)
        if (sub[i]->build_log)
            len += strlen(head[i]) + strlen(sub[i]->build_log) + 2;
    if (!len)
        return CLRS_SUCCESS;
    plan->build_log = malloc(len);
    if (!plan->build_log)
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "out of memory joining the build logs");
    plan->build_log[0] = '\0';
    for (i = 0; i < n; ++i)
        if (sub[i]->build_log)
            at += (size_t)snprintf(plan->build_log + at, len - at,
                                   "%s%s%s", at ? "\n" : "", head[i],
                                   sub[i]->build_log);
    return CLRS_SUCCESS;
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

    sdst.dtype = p->x.dtype;
    fop.inference = 0;
    fop.accumulate = 0;
    fop.index_format = CLRS_INDEX_WINDOW;
    fop.n_post_ops = 0;
    bop.inference = 0;
    bop.index_format = CLRS_INDEX_WINDOW;
    CLRS_TRY(plan_create(&plan->argmax, plan->ctx, &fop, &p->x, &sdst,
                         sidx, NULL, 0, 1));
    CLRS_TRY(plan_create(&plan->scatter, plan->ctx, &bop, &p->in, &p->out,
                         sidx, NULL, 1, 0));
    {
        clrs_plan *const sub[2] = {plan->argmax, plan->scatter};
        char head[2][LOG_HEAD_MAX] = {"argmax kernel (clrs_forward):\n",
                                      "backward kernel (clrs_backward):\n"};
        CLRS_TRY(join_logs(plan, sub, head, 2));
    }
    if (p->user_workspace) {
        plan->need_workspace = index_bytes;
        return CLRS_SUCCESS;
    }
    return clrs__plan_buffer(plan, index_bytes, NULL, &plan->scratch_index,
                       "argmax index");
}

/* Where a user workspace holds the intermediates: work[0] at 0, work[1]
 * after it at the device's base address alignment (a sub-buffer's origin
 * must be a multiple of it). */
static clrs_status workspace_layout(clrs_plan *plan)
{
    const size_t align = plan->ctx->dev.facts.base_align_bits / 8 > 0
                             ? plan->ctx->dev.facts.base_align_bits / 8
                             : 1;
    size_t off = 0;

    if (plan->work_bytes[1]) {
        off = (plan->work_bytes[0] + align - 1) / align * align;
        CLRS_CHECK(off >= plan->work_bytes[0] &&
                       off <= SIZE_MAX - plan->work_bytes[1],
                   CLRS_ERR_OUT_OF_MEMORY,
                   "the separable intermediates (%zu and %zu bytes) do not "
                   "fit one workspace",
                   plan->work_bytes[0], plan->work_bytes[1]);
    }
    plan->ws_off = off;
    plan->need_workspace =
        plan->work_bytes[1] ? off + plan->work_bytes[1] : plan->work_bytes[0];
    CLRS_CHECK(plan->need_workspace <= plan->ctx->max_alloc, CLRS_ERR_TOO_LARGE,
               "the separable intermediates need a workspace of %zu bytes; "
               "the device's max allocation "
               "(CL_DEVICE_MAX_MEM_ALLOC_SIZE) is %llu bytes",
               plan->need_workspace, (unsigned long long)plan->ctx->max_alloc);
    return CLRS_SUCCESS;
}

/* ---- separable passes ---------------------------------------------------- */

/* The same map of output indices to input coordinates: a pass's axis
 * against the whole problem's, so that the pass reads the same taps. */
static int same_axis_map(const clrs_axis_map *a, const clrs_axis_map *b)
{
    return a->axis == b->axis && a->in == b->in && a->out == b->out &&
           a->r == b->r && a->a == b->a && a->b == b->b &&
           a->dilation == b->dilation && a->window == b->window &&
           a->f64 == b->f64 && a->end == b->end && a->taps == b->taps &&
           a->crop == b->crop && a->aa_scale == b->aa_scale &&
           a->arith == b->arith && a->rn == b->rn && a->rd == b->rd &&
           a->exact == b->exact && a->xm == b->xm && a->xc == b->xc &&
           a->xd == b->xd && a->dr == b->dr && a->da == b->da &&
           a->db == b->db;
}

/* The most taps an output of slot k reads: from the tap lists, or where
 * those would be too long to build for a cost (an axis the kernel may
 * compute, of calc_min_taps taps or more) the mode's count, or the
 * antialiasing filter's reach. An antialiased axis has no count of its
 * own (clrs__calc_count 0). */
static clrs_status slot_taps_max(const clrs_problem *p, int k, int64_t *n,
                                 int *dyadic)
{
    const int count = clrs__calc_count(p);
    const double reach =
        count > 0 ? count
                  : 2.0 * clrs__kernel_radius(p) * p->ax[k].aa_scale + 1.0;
    const double pad = (double)(float)p->pad_value;
    clrs_taplist tl;
    clrs_status st;

    *dyadic = -1;
    if (clrs__calc_slot_ok(p, k) &&
        (double)p->ax[k].out * reach >= calc_min_taps(p, k)) {
        *n = (int64_t)ceil(reach); /* the count exactly, or the reach */
        return CLRS_SUCCESS;
    }
    memset(&tl, 0, sizeof tl);
    st = clrs__axis_taps(p, p->ax[k].axis, &tl);
    *n = st >= 0 ? clrs__taplist_max(&tl, p->ax[k].out) : 0;
    if (st >= 0)
        *dyadic = clrs__taplist_dyadic(
            &tl, p->ax[k].out, pad >= 0 && pad <= 255 && pad == floor(pad),
            NULL);
    clrs__taplist_free(&tl);
    return st;
}

/* What an element of an intermediate costs, written by one pass and read
 * by the next, in taps read (want_separable's cost model). Measured on
 * PoCL (AVX-512, 2 cores), passes against one pass, f32: antialiased
 * bilinear down 2 9-11 ms against 8, down 4 6.0-6.5 against 6.8-9.3,
 * trilinear 3-D 2x up 10-12 against 7-8 (lib/README.md, "Separable
 * plans"). 5 puts the first whole and the second in passes, and keeps
 * every plan the passes won on an H200 (bicubic 2x up, antialiased
 * downscales by 2.3 to 8.6) in passes; the third goes to passes too, and
 * loses there: no weight of taps and elements tells it from the second
 * (a CPU's device class keeps it whole instead: sep_taps). */
#define CLRS_SEP_ELEMENT_TAPS 5

/* What a tap of one kernel over the whole problem costs, in taps of the
 * passes, where that kernel takes no vector path and gathers lane by
 * lane (want_separable, whole_vectorizes): on PoCL (AVX-512, 2 cores)
 * a scalar kernel of 16x16 max pooling read 1.3 taps a nanosecond, the
 * vectorized pass over H 6.7 (lib/README.md, "Separable plans"). */
#define CLRS_SEP_SCALAR_TAPS 4
/* ... over at least this many taps in all (every plane): a smaller one
 * runs in about a millisecond lane by lane, where a second launch and
 * an intermediate weigh, and keeps its one kernel. */
#define CLRS_SEP_SCALAR_MIN_TAPS (1 << 20)

/* A backward sum of at least this many taps in all (every plane) takes
 * its passes where the device class says (sep_bwd). A smaller one keeps
 * its one kernel: it runs in a fraction of a millisecond either way,
 * where the passes' second kernel doubles the plan's builds (on PoCL
 * (AVX2) a bilinear 2x up's backward of 3 x 32^2 diff_src elements,
 * 49152 taps, ran in 0.013 ms whole and 0.014 in passes, of 3 x 128^2,
 * 786432 taps, 0.16 and 0.093). */
#define CLRS_SEP_BWD_MIN_TAPS (1 << 20)

/* Whether one kernel over plan's whole problem takes a vector path:
 * its lowering under CLRS_LAUNCH's launch or the device's defaults,
 * with the computed slots the build would take, not built. */
static int whole_vectorizes(const clrs_plan *plan)
{
    const clrs_launch_text t = env_launch(plan);
    clrs_problem q = plan->problem;
    clrs_slot_taps taps;
    clrs_lowered low;
    int vec = 1;

    memset(&low, 0, sizeof low);
    q.calc = calc_slots(plan, &t);
    if (clrs__slot_taps(&q, &taps) >= 0 &&
        clrs__lower(&plan->ctx->dev, &q, &taps, plan->index_only, &t, &low) >=
            0)
        vec = low.cfg.vec;
    clrs__lowered_free(&low);
    clrs__slot_taps_free(&taps);
    clrs__clear_error(); /* the build reports it */
    return vec > 1;
}

/* Whether a weighted sum runs as one 1-D pass per resampled axis, and in
 * which order (order[i]: the slot of forward pass i; a backward plan
 * takes the passes' gradients in reverse): the modes that factorise
 * (factorises: linear, cubic, average pooling, max pooling without an
 * index). Not here: crop-and-resize (an extrapolated output
 * is a value, not a sum), an index, s32 (its single pass accumulates
 * in double where the device has fp64, and a pass into an f64
 * intermediate would evaluate its coordinates in double, as f64 tensors
 * do: another map). CLRS_LAUNCH's sep= forces either.
 * The pass that shrinks the tensor most goes first, so that the later
 * ones read the least; among equal ones the outer axis, but the inner
 * one where src's contiguous axis is not resampled (channels-last: the
 * order plan_fused runs; channels-first, a first pass along the
 * contiguous rows measured up to 2.6 times as fast). By default the
 * passes are taken when they read fewer taps, each element of an
 * intermediate counted as CLRS_SEP_ELEMENT_TAPS more (as the device
 * class's roll_taps where the passes run as one kernel), than the single
 * pass, whose every output reads the product of the axes' taps; per
 * output written, a 2-D bicubic 2x up reads 16 taps in one pass and
 * (4 + 5) / 2 + 4 = 8.5 in two, a bilinear one 4 against (2 + 5) / 2 + 2
 * (whole), an antialiased bilinear down 4 (8 taps an axis) 64 against
 * 4 (8 + 5) + 8 = 60, down 2 (4 taps) 16 against 2 (4 + 5) + 4 (whole).
 * A separable plan over a channels-last image of 2 to 15 channels then
 * takes its passes in the order order_by_lanes finds. */
static int sep_by_tuning(const clrs_plan *plan, int by_cost);
static int fusable(const clrs_plan *plan, const int *order);

/* Whether p's output is a sum of per-axis factors (or a max of
 * maxima): linear, cubic and filters, antialiased or not, and average pooling
 * (each axis's window, its divisor a product of per-axis counts: the
 * window's, the clipped window's or the valid taps'; an adaptive window
 * the same), whose out-of-range taps read 0; not a divisor override (one
 * number for the whole window). Max pooling without an index, whose
 * out-of-range taps read -inf (no tap), is a max of per-axis maxima. A
 * constant padding value other than 0 is out: a tap outside on one axis
 * reads the value, where a pass would weigh it by the other axes'
 * weights. */
static int factorises(const clrs_problem *p)
{
    const int zero_pad = p->padding == CLRS_PAD_EDGE || p->pad_value == 0;

    switch (p->mode) {
    case CLRS_MODE_LINEAR:
    case CLRS_MODE_CUBIC:
    case CLRS_MODE_FILTER:
        return zero_pad;
    case CLRS_MODE_AVG_INCLUDE_PADDING:
    case CLRS_MODE_AVG_EXCLUDE_PADDING:
    case CLRS_MODE_AVG_ADAPTIVE:
        return zero_pad && p->divisor_override == 0;
    case CLRS_MODE_MAX:
        return p->padding == CLRS_PAD_NEG_INF;
    default:
        return 0;
    }
}

/* The elements of src inside slot k's axis (its dims of smaller
 * strides), a resampled one at size[] where size is given: C inside W
 * of a channels-last image, 1 inside W channels-first. */
static double elements_inside(const clrs_problem *p, int k, const double *size)
{
    const int64_t sa = p->in.strides[p->ax[k].axis];
    double inner = 1;
    int d;

    for (d = 0; d < p->in.rank; ++d)
        if (p->in.strides[d] < sa)
            inner *= size && p->slot[d] >= 0 ? size[p->slot[d]]
                                             : (double)p->in.dims[d];
    return inner;
}

/* The slot of src's innermost resampled axis. */
static int innermost_slot(const clrs_problem *p)
{
    int k, low = 0;

    for (k = 1; k < p->naxes; ++k)
        if (p->in.strides[p->ax[k].axis] < p->in.strides[p->ax[low].axis])
            low = k;
    return low;
}

/* Whether one kernel over a backward sum streams at about the passes'
 * speed or better: channels-last (unblocked), 16 or more of src's
 * elements inside its innermost resampled axis, every tensor of the
 * accumulator's own type (f32 or f64), so the kernel runs whole vectors
 * a tap on the axis path and converts nothing. On PoCL (AVX2) f32
 * bilinear 2x up's backward of 16, 32 and 64 channels ran in 0.84,
 * 0.72 and 0.63x its passes' time, 3x3 average pooling's 1.0, 0.84 and
 * 0.49x, 8 channels 0.98x and 1.6x their passes' time (lib/README.md,
 * "Separable plans"). */
static int bwd_whole_streams(const clrs_problem *p)
{
    const int own = p->in.dtype == p->out.dtype &&
                    (p->in.dtype == CLRS_F32 || p->in.dtype == CLRS_F64);

    return own && p->in.block_axis < 0 && p->out.block_axis < 0 &&
           elements_inside(p, innermost_slot(p), NULL) >= 16;
}

/* The lanes a pass over slot k vectorizes over, as the cost model
 * counts them (whatever the device: every device runs the same order):
 * the elements inside its axis at their sizes when it runs (size[]), 16
 * at most; 16 for src's contiguous axis itself (the span path's groups).
 * A pass over W of a channels-last image of C < 16 channels gets C: its
 * work-item sums one pixel's C values a tap. */
static double pass_lanes(const clrs_problem *p, int k, const double *size)
{
    const double inner = elements_inside(p, k, size);
    return inner <= 1 || inner >= 16 ? 16 : inner;
}

/* The cost of the passes in order: want_separable's model with each
 * pass's taps weighed by 16 over its lanes. */
static double order_cost(const clrs_problem *p, const int *order,
                         const double *taps)
{
    double size[CLRS_MAX_RANK], cost = 0;
    int i, k;

    for (k = 0; k < p->naxes; ++k)
        size[k] = (double)p->ax[k].in;
    for (i = 0; i < p->naxes; ++i) {
        const double lanes = pass_lanes(p, order[i], size);
        double out = 1;
        size[order[i]] = (double)p->ax[order[i]].out;
        for (k = 0; k < p->naxes; ++k)
            out *= size[k];
        cost += out * (taps[order[i]] * 16 / lanes +
                       (i < p->naxes - 1 ? CLRS_SEP_ELEMENT_TAPS : 0));
    }
    return cost;
}

/* The order of the passes where src's elements inside its innermost
 * resampled axis are 2 to 15 (a channels-last image of 1 < C < 16
 * channels, unblocked): the order of least order_cost among the orders
 * of up to 3 passes that take that axis no earlier than the shrink order
 * does (earlier, the passes would run as the fused kernel, which the
 * model does not know: 33 ms against 6.9 for a 2-channel bicubic up);
 * the shrink order is tried first and kept among equals. There the pass
 * over W sums C lanes a work-item and a pass over an outer axis 16, so
 * the outer axes go first unless W shrinks the tensor much more.
 * Antialiased bilinear 1080p -> 224x224 of a u8 RGB image: W first
 * (8.6x, against 4.8x) 4.4-6.5 ms, H first 1.4-1.7 ms. */
static void order_by_lanes(const clrs_problem *p, const double *taps,
                           int *order)
{
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                    {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    int cand[CLRS_MAX_RANK], best[CLRS_MAX_RANK], i, j, low, at;
    double least, c, inner;

    if (p->naxes > 3 || p->in.block_axis >= 0)
        return;
    low = innermost_slot(p);
    inner = elements_inside(p, low, NULL);
    if (inner < 2 || inner >= 16)
        return;
    for (at = 0; order[at] != low; ++at)
        ;
    least = order_cost(p, order, taps);
    memcpy(best, order, (size_t)p->naxes * sizeof *order);
    for (j = 0; j < 6; ++j) {
        int ok = 1;
        for (i = 0; i < p->naxes; ++i) {
            cand[i] = perms[j][i];
            ok &= cand[i] < p->naxes;
        }
        if (!ok)
            continue;
        for (i = 0; i < p->naxes && ok; ++i)
            ok = cand[i] != low || i >= at;
        if (!ok)
            continue;
        c = order_cost(p, cand, taps);
        if (c < least * (1 - 1e-9)) {
            least = c;
            memcpy(best, cand, (size_t)p->naxes * sizeof *order);
        }
    }
    memcpy(order, best, (size_t)p->naxes * sizeof *order);
}

/* src's elements over the product of its resampled axes' sizes: the
 * planes (N x C) a plan's per-axis counts repeat over. */
static double planes(const clrs_problem *p)
{
    double n = 1;
    int d;

    for (d = 0; d < p->in.rank; ++d)
        if (p->slot[d] < 0)
            n *= (double)p->in.dims[d];
    return n;
}

static int want_separable(const clrs_plan *plan, int *order)
{
    const clrs_problem *p = &plan->problem;
    clrs_launch_text t = {NULL, CLRS_LAUNCH_FORCED};
    clrs_launch_request r;
    double taps[CLRS_MAX_RANK], size[CLRS_MAX_RANK], single = 1, sep = 0;
    double widest = 0;
    int64_t n;
    int k, i, inner_first = 0, dyadic, fix = 0, sep_or, element, bwd_passes;

    if (CLRS__CV8_PASSES(p)) { /* OpenCV's passes: horizontal first */
        order[0] = 1;
        order[1] = 0;
        return 1;
    }
    /* OpenCV's one-pass 8-bit methods round the whole sum once, its 2x2
     * mean half up and its area by whole factors the sum times 1 / area:
     * a pass of one axis is no OpenCV method (the store rounds to even)
     * and passes round each axis's part (a u8 a unit off at halves). */
    if (plan->index_only || p->has_index || p->has_x || p->exact8 ||
        p->cv8 == CLRS_CV8_AREA_FAST || p->cv8 == CLRS_CV8_HALF_UP ||
        !factorises(p) || p->naxes < 2 ||
        p->coord == CLRS_COORD_TF_CROP_AND_RESIZE || p->in.dtype == CLRS_S32 ||
        p->out.dtype == CLRS_S32)
        return 0;
    t.text = plan->ctx->env.launch;
    if (clrs__launch_request(&plan->ctx->dev, 0, &t, &r) < 0) {
        clrs__clear_error(); /* the passes' own builds report it */
        return 0;
    }
    if (r.sep == 0)
        return 0;
    if (p->fixed8) { /* Pillow's passes: the last axis first */
        for (k = 0; k < p->naxes; ++k)
            order[k] = p->naxes - 1 - k;
        return 1;
    }
    for (k = 0; k < p->naxes; ++k) {
        if (p->ax[k].crop || slot_taps_max(p, k, &n, &dyadic) < 0) {
            clrs__clear_error();
            return 0;
        }
        fix = dyadic < 0 || fix < 0 ? -1 : fix + dyadic;
        taps[k] = (double)n;
        widest = taps[k] > widest ? taps[k] : widest;
        size[k] = (double)p->ax[k].in;
        single *= (double)p->ax[k].out * taps[k];
    }
    /* A backward sum on a CPU (the device class's sep_bwd) takes its
     * passes, whatever the taps say, unless its one kernel streams
     * (bwd_whole_streams): the taps do not tell how much slower the one
     * kernel's gathers run than the passes' 1-D ones. On PoCL
     * (AVX2) bilinear 2x up's and 3x3 average pooling's backward of
     * the performance matrix ran in 0.39-0.89x the one kernel's time in
     * f32, f16, bf16, u8, s8 and f64, channels-first, channels-last and
     * blocked (lib/README.md, "Separable plans"). */
    bwd_passes = r.sep_bwd && p->backward &&
                 single * planes(p) >= CLRS_SEP_BWD_MIN_TAPS &&
                 !bwd_whole_streams(p);
    for (k = 0; k < p->rank; ++k) /* src's contiguous axis */
        if (p->in.strides[k] == 1 && p->in.block_axis < 0)
            inner_first = p->slot[k] < 0;
    for (k = 0; k < p->naxes; ++k) { /* insertion by out/in, then tie */
        const clrs_axis_map *a = &p->ax[k];
        for (i = k; i > 0; --i) {
            const clrs_axis_map *b = &p->ax[order[i - 1]];
            /* a->out / a->in < b->out / b->in, exactly; on a tie the
             * earlier slot stays first, or with inner_first the later */
            const double lhs = (double)a->out * (double)b->in,
                         rhs = (double)b->out * (double)a->in;
            if (inner_first ? lhs > rhs : lhs >= rhs)
                break;
            order[i] = order[i - 1];
        }
        order[i] = k;
    }
    /* Passes that run as one kernel (the roll variant) keep each
     * intermediate element in registers: the device class says what it
     * costs then (a CPU as in memory, a GPU a tap). The fold recomputes
     * a span group's overlap, and counts as the passes. */
    element = fusable(plan, order) == CLRS_FUSED_ROLL ? r.roll_taps
                                                      : CLRS_SEP_ELEMENT_TAPS;
    for (i = 0; i < p->naxes; ++i) {
        double out = 1;
        size[order[i]] = (double)p->ax[order[i]].out;
        for (k = 0; k < p->naxes; ++k)
            out *= size[k];
        sep += out * (taps[order[i]] + (i < p->naxes - 1 ? element : 0));
    }
    /* A u8 sum the whole problem's kernel runs in fixed point (lower.c,
     * fix_config) is faster in one pass than in passes of f32
     * intermediates (measured on PoCL, trilinear 2x up of 3 and 64
     * channels, either layout: 6.8-14.4 ms against 8.8-20.0), and the
     * bytes are the same: its sums are exact either way. */
    if (r.fix != 0 && fix >= 0 && fix <= 8 && p->in.dtype == CLRS_U8 &&
        p->out.dtype == CLRS_U8 && p->n_post_ops == 0)
        single = 0;
    /* Axes of few taps each (linear interpolation: 2) where the device
     * class says they stay whole: a CPU's single pass reads them from
     * its cache for less than the passes' intermediates cost, which the
     * taps alone do not tell (a trilinear 2x up: 8 taps an output
     * against 7.25). */
    if (widest <= r.sep_taps)
        single = 0;
    /* Channels-first, one kernel whose taps along src's contiguous axis
     * fit no span group gathers lane by lane, where the passes' outer
     * ones run on vectors: adaptive average pooling of 16 x 1024^2 to
     * 7x7 took 7.1 ms whole, 1.4 in passes, its backward 13.1 and 0.9
     * (PoCL, AVX-512). Backward, each diff_src element costs at least a
     * tap then, whether or not an output reads it: a bicubic 8.5x
     * downsample's backward took 6.0 ms whole, 1.8 in passes. Its
     * lowering decides, probed only where the weight would change the
     * choice. */
    {
        double written = 1, scalar = single;
        for (k = 0; k < p->naxes; ++k)
            written *= (double)p->ax[k].in;
        if (p->backward && written > scalar)
            scalar = written;
        scalar *= CLRS_SEP_SCALAR_TAPS;
        if (r.sep != 1 && single > 0 && sep >= single && sep < scalar &&
            !inner_first && p->in.block_axis < 0 &&
            single * planes(p) >= CLRS_SEP_SCALAR_MIN_TAPS &&
            !whole_vectorizes(plan))
            single = scalar;
    }
    sep_or = r.sep == 1 ? 1 : sep_by_tuning(plan, bwd_passes || sep < single);
    if (sep_or)
        order_by_lanes(p, taps, order);
    return sep_or;
}

/* The database's choice between one pass and several for the whole
 * problem (its line's sep=), like build_launched's choice of a launch:
 * the cost model's (by_cost) under CLRS_LAUNCH or CLRS_TUNE=off and where
 * the line names none; 2 (time both: sep_or_whole) under CLRS_TUNE=force,
 * and under CLRS_TUNE=run where neither database has a line. */
static int sep_by_tuning(const clrs_plan *plan, int by_cost)
{
    const char *env = plan->ctx->env.launch;
    clrs_tune_mode mode;
    clrs_tune_key k;
    char db[128];

    pthread_mutex_lock(&plan->ctx->lock);
    mode = plan->ctx->tune_mode;
    pthread_mutex_unlock(&plan->ctx->lock);
    if ((env && *env) || mode == CLRS_TUNE_OFF)
        return by_cost;
    if (mode == CLRS_TUNE_FORCE)
        return 2;
    clrs__tune_key(&plan->problem, plan->index_only, &k);
    if (db_line(plan, &k, db, sizeof db) != CLRS_LAUNCH_DEFAULT) {
        clrs_launch_text t = {NULL, CLRS_LAUNCH_DATABASE};
        clrs_launch_request r;
        t.text = db;
        if (clrs__launch_request(&plan->ctx->dev, 0, &t, &r) < 0) {
            clrs__clear_error();
            return by_cost;
        }
        return r.sep >= 0 ? r.sep : by_cost;
    }
    return mode == CLRS_TUNE_RUN ? 2 : by_cost;
}

/* The passes (want_separable's order) and the intermediates between
 * them: dense in the order of strides of in (src forward, diff_src
 * backward), in the type the single pass accumulates in (f64 where a
 * tensor is f64, else f32), so that u8, s8 and half round once, at the
 * last pass. Forward, pass i resamples slot order[i] from t[i] to
 * t[i + 1], t[0] src and t[n] dst, and the last runs the post-ops.
 * Backward, the transposed chain in reverse: pass j takes the gradient
 * of forward pass n - 1 - j, from t[n - j] (diff_dst first) to
 * t[n - 1 - j] (diff_src last, which alone accumulates where the problem
 * does). A pass whose axis would not map as the whole problem's does is
 * refused (CLRS_ERR_UNSUPPORTED): the caller falls back to one pass. */
static clrs_status plan_separable(clrs_plan *plan,
                                  const clrs_resample_desc *op,
                                  const int *order)
{
    const clrs_problem *p = &plan->problem;
    const int n = p->naxes;
    struct clrs_tensor_desc t[CLRS_MAX_RANK + 1];
    const clrs_dtype mid =
        p->fixed8 ? CLRS_U8 /* Pillow rounds and clips between passes */
        : CLRS__CV8_PASSES(p) ? CLRS__CV8_MID(p) /* OpenCV's row sums */
        : p->in.dtype == CLRS_F64 || p->out.dtype == CLRS_F64 ? CLRS_F64
                                                              : CLRS_F32;
    int i;

    t[0] = p->in;
    for (i = 0; i < n - 1; ++i) {
        struct clrs_tensor_desc like = t[i];
        like.dims[p->ax[order[i]].axis] = p->out.dims[p->ax[order[i]].axis];
        clrs__tensor_dense_like(&like, mid, &t[i + 1]);
    }
    t[n] = p->out;
    for (i = 0; i < n; ++i) {
        /* f: the forward pass this one is, or whose gradient it takes */
        const int f = p->backward ? n - 1 - i : i, k = order[f],
                  a = p->ax[k].axis, last = i == n - 1;
        struct clrs_resample_desc o;
        const clrs_plan *ps;
        clrs__op_one_axis(op, k, a, &o);
        if (!last) {
            o.n_post_ops = 0;
            o.accumulate = 0;
        }
        if (CLRS__CV8_PASSES(p)) {
            o.cv_pass = i + 1;
            o.cv_method = p->cv8;
        }
        CLRS_TRY(plan_create(&plan->pass[i], plan->ctx, &o, &t[f],
                             &t[f + 1], NULL, NULL, p->backward, 0));
        plan->npass = i + 1;
        ps = plan->pass[i];
        CLRS_CHECK(ps->problem.naxes == 1 && !ps->empty &&
                       same_axis_map(&ps->problem.ax[0], &p->ax[k]) &&
                       ps->problem.mode == p->mode &&
                       ps->problem.padding == p->padding &&
                       ps->problem.pad_value == p->pad_value,
                   CLRS_ERR_UNSUPPORTED,
                   "axis %d alone does not map as in the whole problem", a);
        if (!last) { /* it writes t[f + 1] forward, t[f] backward */
            size_t bytes;
            CLRS_TRY(check_bytes(plan->ctx, &t[p->backward ? f : f + 1],
                                 "separable intermediate", &bytes));
            if (bytes > plan->work_bytes[i % 2])
                plan->work_bytes[i % 2] = bytes;
        }
    }
    CLRS_TRY(check_total(plan,
                         (uint64_t)plan->work_bytes[0] + plan->work_bytes[1],
                         "separable intermediates"));
    if (p->user_workspace)
        CLRS_TRY(workspace_layout(plan));
    else
        for (i = 0; i < 2; ++i)
            if (plan->work_bytes[i])
                CLRS_TRY(clrs__plan_buffer(plan, plan->work_bytes[i], NULL,
                                           &plan->work[i],
                                           "separable intermediate"));
    {
        char head[CLRS_MAX_RANK][LOG_HEAD_MAX];
        for (i = 0; i < n; ++i)
            snprintf(head[i], sizeof head[i], "pass %d (axis %d):\n", i + 1,
                     plan->pass[i]->problem.ax[0].axis);
        return join_logs(plan, plan->pass, head, n);
    }
}

/* The passes and intermediates of plan_separable, released. */
static void drop_separable(clrs_plan *plan)
{
    int i;

    for (i = 0; i < plan->npass; ++i) {
        clrs_plan_destroy(plan->pass[i]);
        plan->pass[i] = NULL;
    }
    plan->npass = 0;
    for (i = 0; i < 2; ++i) {
        if (plan->work[i])
            clReleaseMemObject(plan->work[i]);
        plan->work[i] = NULL;
        plan->work_bytes[i] = 0;
    }
    plan->need_workspace = 0;
    plan->ws_off = 0;
}

/* plan's own kernel, the program before it, and its tap tables,
 * released (each only if it was made) and cleared. */
static void release_kernel(clrs_plan *plan)
{
    cl_mem *bufs[] = {&plan->itab, &plan->ftab};
    size_t i;

    if (plan->kernel)
        clReleaseKernel(plan->kernel);
    if (plan->program)
        clReleaseProgram(plan->program);
    for (i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
        if (*bufs[i])
            clReleaseMemObject(*bufs[i]);
    plan->kernel = NULL;
    plan->program = NULL;
    plan->itab = plan->ftab = NULL;
}

/* A fused plan's kernel and build log, released (for the passes or one
 * kernel of the whole problem instead). */
static void drop_kernel(clrs_plan *plan)
{
    plan->problem.fused = 0;
    release_kernel(plan);
    free(plan->build_log);
    plan->build_log = NULL;
}

/* Whether plan's passes (order) can run as one kernel, and how
 * (clrs_problem.fused; 0: not): forward, never where CLRS_LAUNCH says
 * roll=0. From the innermost slot outward (the order the roll variant
 * nests its sums in), at most CLRS_ROLL_SLOTS_MAX of them, with 16 or
 * more of src's values inside the innermost one (C channels-last) where
 * the device class's roll_variant says so, or wherever CLRS_LAUNCH says
 * roll=1: CLRS_FUSED_ROLL. Two slots, the outer
 * first, the inner one src's and dst's contiguous axis (channels-first),
 * where CLRS_LAUNCH says roll=1 or the device class's fold says so:
 * CLRS_FUSED_FOLD, the span variant summing the outer slot's taps of
 * each span vector first (gen_span.c). */
static int fusable(const clrs_plan *plan, const int *order)
{
    const clrs_problem *p = &plan->problem;
    clrs_launch_text t = {NULL, CLRS_LAUNCH_FORCED};
    clrs_launch_request r;
    int i, inward = 1, outward = 1;

    if (p->backward || p->naxes > CLRS_ROLL_SLOTS_MAX || p->fixed8 ||
        CLRS__CV8_PASSES(p))
        return 0;
    for (i = 0; i < p->naxes; ++i) {
        inward &= order[i] == p->naxes - 1 - i;
        outward &= order[i] == i;
    }
    t.text = plan->ctx->env.launch;
    if (clrs__launch_request(&plan->ctx->dev, 0, &t, &r) < 0) {
        clrs__clear_error();
        return 0;
    }
    if (r.roll == 0)
        return 0;
    if ((r.roll > 0 || r.fold > 0) && outward && p->naxes == 2 &&
        p->in.block_axis < 0 && p->out.block_axis < 0 &&
        p->in.strides[p->ax[1].axis] == 1 && p->out.strides[p->ax[1].axis] == 1)
        return CLRS_FUSED_FOLD;
    /* By default not over fewer than 16 values a pixel: the roll
     * variant's work-item then holds a vector of C < 16 lanes, and the
     * passes won by far (channels-last bicubic 2x up, 1024^2 -> 2048^2,
     * f32 2 / 4 / 8 channels: 19-27 / 177-189 / 177-183 ms as one kernel
     * against 3.4-3.7 / 6.7-7.2 / 11.8-12.9 in passes; 16 and more
     * channels alike either way). */
    if (inward &&
        (r.roll > 0 || (r.roll_variant > 0 &&
                        elements_inside(p, innermost_slot(p), NULL) >= 16)))
        return CLRS_FUSED_ROLL;
    return 0;
}

/* The passes as one kernel (fusable's how: the roll variant,
 * variant_roll.c, or the span variant folding the outer slot first,
 * gen_span.c): the same sums in the same order, so the same bytes,
 * without the intermediates.
 * Its launch is CLRS_LAUNCH's or the device's defaults. Fails (nothing
 * kept) where the variant does not apply: the caller runs the passes. */
static clrs_status plan_fused(clrs_plan *plan, int how)
{
    const clrs_launch_text t = env_launch(plan);
    clrs_status st;

    plan->problem.fused = how;
    st = clrs__plan_build_kernel(plan, &t);
    if (st < 0)
        drop_kernel(plan);
    return st;
}

/* A separable plan: its passes as one kernel where they fuse, else the
 * passes. */
static clrs_status plan_split(clrs_plan *plan, const clrs_resample_desc *op,
                              const int *order)
{
    const int how = fusable(plan, order);

    if (how && plan_fused(plan, how) >= 0)
        return CLRS_SUCCESS;
    clrs__clear_error();
    return plan_separable(plan, op, order);
}

/* A plan of plan's problem as one kernel, its launch as build_launched
 * chooses (the tuner's, where it tunes). */
static clrs_status whole_twin(const clrs_plan *plan, clrs_plan **out)
{
    clrs_plan *c;
    clrs_status st;

    *out = NULL;
    CLRS_TRY(clrs__plan_twin(plan, &c));
    c->problem.fused = 0;
    st = build_launched(c);
    if (st < 0) {
        clrs_plan_destroy(c);
        return st;
    }
    *out = c;
    return CLRS_SUCCESS;
}

/* The tuner's choice for a plan that holds its passes (plan_separable):
 * one kernel over the whole problem is built (tuned) beside them, both
 * are timed end to end (clrs__tune_wall: every kernel, launches
 * included), and the faster stays; the choice goes into the database
 * under the whole problem's key as "sep=1", or "sep=0" with the one
 * kernel's launch, for later plans (sep_by_tuning). */
static clrs_status sep_or_whole(clrs_plan *plan)
{
    clrs_plan *whole = NULL;
    clrs_tune_key k;
    double ms_sep = INFINITY, ms_whole = INFINITY;
    char text[96], why[CLRS_ERRMSG_MAX - 100];
    clrs_status st = whole_twin(plan, &whole);

    if (st >= 0)
        st = clrs__tune_wall(plan, &ms_sep);
    if (st >= 0)
        st = clrs__tune_wall(whole, &ms_whole);
    if (st < 0) {
        clrs_plan_destroy(whole);
        return st;
    }
    if (ms_whole < ms_sep) {
        drop_separable(plan);
        drop_kernel(plan);
        clrs__plan_adopt(plan, whole);
        plan->tuned_launches = whole->tuned_launches;
        snprintf(text, sizeof text, "sep=0,%s",
                 whole->tuned_text[0] ? whole->tuned_text : "span=1");
    } else {
        snprintf(text, sizeof text, "sep=1");
    }
    clrs_plan_destroy(whole);
    clrs__tune_key(&plan->problem, plan->index_only, &k);
    if (clrs__tunedb_store(plan->ctx, &k, text,
                           ms_whole < ms_sep ? ms_whole : ms_sep, why,
                           sizeof why) != 0) {
        char note[CLRS_ERRMSG_MAX];
        snprintf(note, sizeof note,
                 "tuning database: %s; the choice of passes holds for this "
                 "plan only",
                 why);
        clrs__ctx_note(plan->ctx, note);
    }
    return CLRS_SUCCESS;
}

/* ---- creation ----------------------------------------------------------- */

static clrs_status plan_create(clrs_plan **out, clrs_context *ctx,
                               const clrs_resample_desc *op,
                               const clrs_tensor_desc *in,
                               const clrs_tensor_desc *outt,
                               const clrs_tensor_desc *index,
                               const clrs_tensor_desc *x, int backward,
                               int index_only)
{
    clrs_plan *plan;
    clrs_status st;
    struct timespec t0;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    CLRS_CHECK(out != NULL, CLRS_ERR_NULL_POINTER, "plan is NULL");
    *out = NULL;
    CLRS_CHECK_PTR(ctx);
    plan = calloc(1, sizeof *plan);
    if (!plan)
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "out of memory allocating a plan");
    plan->ctx = ctx;
    clrs__ctx_retain(ctx);
    st = clrs__problem_init(&plan->problem, op, in, outt, index, x,
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
    if (st >= 0 && (clrs__tensor_empty(&plan->problem.in) ||
                    clrs__tensor_empty(&plan->problem.out))) {
        /* PyTorch's N = 0 or C = 0: a valid plan that does nothing (no
         * build, no buffer read or written). */
        plan->empty = 1;
        plan->need_dst = 0;
    } else if (st >= 0) {
        struct clrs_tensor_desc sidx;
        size_t index_bytes;
        int order[CLRS_MAX_RANK], sep;
        if (want_two_pass(plan, &index_bytes, &sidx)) {
            st = plan_two_pass(plan, op, index_bytes, &sidx);
        } else if ((sep = want_separable(plan, order)) != 0) {
            st = plan_split(plan, op, order);
            if (st < 0 && !CLRS__CV8_PASSES(&plan->problem)) {
                /* refused or failed: one pass instead (OpenCV's 8-bit
                 * methods exist as passes alone) */
                drop_separable(plan);
                free(plan->build_log);
                plan->build_log = NULL;
                clrs__clear_error();
                st = build_launched(plan);
            } else if (sep == 2) {
                st = sep_or_whole(plan);
            }
        } else {
            st = build_launched(plan);
        }
    }
    if (st < 0) {
        clrs_plan_destroy(plan);
        return st;
    }
    plan->create_ms = clrs__ms_since(&t0);
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

/* The plan's OpenCL objects, each released only if it was made (a plan
 * whose creation failed half-way is destroyed too): the kernel before
 * its program, the buffers, then the last backward pass's event. */
static void release_cl_objects(clrs_plan *plan)
{
    release_kernel(plan);
    if (plan->scratch_index)
        clReleaseMemObject(plan->scratch_index);
    if (plan->scratch_busy)
        clReleaseEvent(plan->scratch_busy);
}

void clrs_plan_destroy(clrs_plan *plan)
{
    clrs_context *ctx;

    if (!plan)
        return;
    clrs_plan_destroy(plan->argmax);
    clrs_plan_destroy(plan->scatter);
    drop_separable(plan);
    release_cl_objects(plan);
    if (plan->lock_init)
        pthread_mutex_destroy(&plan->lock);
    free(plan->build_log);
    ctx = plan->ctx;
    free(plan);
    if (ctx)
        clrs__ctx_release(ctx); /* may free a destroyed context */
}

clrs_status clrs_plan_get_info(const clrs_plan *plan, clrs_plan_info *info)
{
    CLRS_CHECK_PTR(plan);
    CLRS_CHECK_PTR(info);
    memset(info, 0, sizeof *info);
    if (plan->empty) { /* no kernel */
        info->create_ms = plan->create_ms;
        info->variant = "none";
        clrs__clear_error();
        return CLRS_SUCCESS;
    }
    if (plan->scatter) {
        /* Two passes: the backward's vector path, both passes' costliest
         * program source. */
        clrs_plan_get_info(plan->scatter, info);
        if (plan->argmax->cache_source > info->cache)
            info->cache = plan->argmax->cache_source;
        info->create_ms = plan->create_ms;
        info->kernels = 2;
        info->scratch_bytes =
            plan->need_workspace ? 0 : plan->argmax->need_index;
        info->workspace_bytes = plan->need_workspace;
        return CLRS_SUCCESS;
    }
    if (plan->npass) {
        /* Separable: the last pass's kernel, every pass's costliest
         * program source. */
        int i;
        clrs_plan_get_info(plan->pass[plan->npass - 1], info);
        for (i = 0; i < plan->npass; ++i)
            if (plan->pass[i]->cache_source > info->cache)
                info->cache = plan->pass[i]->cache_source;
        info->create_ms = plan->create_ms;
        info->kernels = plan->npass;
        info->scratch_bytes = plan->need_workspace
                                  ? 0
                                  : plan->work_bytes[0] + plan->work_bytes[1];
        info->workspace_bytes = plan->need_workspace;
        info->separable = 1;
        return CLRS_SUCCESS;
    }
    info->kernels = 1;
    info->separable = plan->problem.fused; /* the passes as one kernel */
    info->cache = plan->cache_source;
    info->create_ms = plan->create_ms;
    info->vector_lanes = plan->low.launch.vec;
    info->vector_count = plan->low.launch.mvec > 1 ? plan->low.launch.mvec
                                                   : 1;
    info->vector_path = plan->low.launch.path;
    info->span_patterns = plan->low.cfg.span ? plan->low.cfg.npat : 0;
    info->span_coverage = plan->low.cfg.span ? plan->low.span.coverage : 0;
    memcpy(info->local_size, plan->low.launch.local, sizeof info->local_size);
    info->launch_source = plan->low.launch.source;
    info->span_groups = plan->low.launch.walk;
    info->span_period =
        clrs__gen_periodic(&plan->low.cfg) ? plan->low.cfg.per[0] : 0;
    info->rows = plan->low.launch.rows > 1 ? plan->low.launch.rows : 1;
    info->tuned_launches = plan->tuned_launches;
    info->variant = clrs__variant_name(plan->low.cfg.variant);
    clrs__clear_error();
    return CLRS_SUCCESS;
}

const char *clrs_plan_get_build_log(const clrs_plan *plan)
{
    return plan && plan->build_log ? plan->build_log : "";
}

/* names[v], or NULL where v is not one of the n values. */
static const char *enum_name(int v, const char *const *names, size_t n)
{
    return v >= 0 && (size_t)v < n ? names[v] : NULL;
}

const char *clrs_launch_source_name(clrs_launch_source source)
{
    static const char *const names[] = {
        [CLRS_LAUNCH_DEFAULT] = "default", [CLRS_LAUNCH_FORCED] = "forced",
        [CLRS_LAUNCH_DATABASE] = "database", [CLRS_LAUNCH_TUNED] = "tuned",
        [CLRS_LAUNCH_SHIPPED] = "shipped"};
    return enum_name((int)source, names, sizeof names / sizeof names[0]);
}

const char *clrs_vector_path_name(clrs_vector_path path)
{
    static const char *const names[] = {
        [CLRS_VECTOR_NONE] = "none", [CLRS_VECTOR_AXIS] = "axis",
        [CLRS_VECTOR_BLOCK] = "block", [CLRS_VECTOR_SPAN] = "span"};
    return enum_name((int)path, names, sizeof names / sizeof names[0]);
}

