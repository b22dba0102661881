/* Plans: the last stage. A plan checks the problem against the
 * context's device, runs the stages before it (taps -> lowering ->
 * tables -> codegen -> program), uploads the tables, binds the fixed
 * arguments, and at execute checks the caller's buffers and enqueues one
 * kernel, or two for the max pooling backward that recomputes its
 * argmax. */
#include "program.h"
#include "tables.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Everything execute needs, resolved once at plan time (plan, then
 * execute). */
struct clrs_plan {
    clrs_context *ctx; /* not owned: plans must die before their context */
    clrs_problem problem;

    clrs_lowered low; /* configuration, values, launch (read only) */
    cl_program program;
    cl_kernel kernel;
    cl_mem itab, ftab; /* tap tables, written once at creation */
    cl_uint arg_src, arg_dst, arg_index; /* kernel argument positions */
    cl_uint arg_x; /* backward max recompute: the forward src */
    int index_only; /* forward max writing the index alone (argmax pass) */
    cl_uint arg_post[CLRS_MAX_POST_OPS]; /* binary post-op operands */

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

static int env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
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
    const clrs_gen_config *c = &plan->low.cfg;
    int n = clrs__gen_args(c, &plan->low.vals, args), i;

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
            if (c->long_off) {
                cl_long v = (cl_long)a->i;
                CLRS_TRY(set_arg(plan->kernel, at, sizeof v, &v, a->name));
            } else {
                cl_int v = (cl_int)a->i;
                CLRS_TRY(set_arg(plan->kernel, at, sizeof v, &v, a->name));
            }
            break;
        case CLRS_ARG_ACC:
            if (c->acc_f64) {
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

/* The taps, the lowering and the tables, then the program (from the
 * context's map, the disk or a build), the table upload and the fixed
 * arguments. */
static clrs_status build_kernel(clrs_plan *plan)
{
    const clrs_problem *p = &plan->problem;
    const char *kname = p->backward ? "clrs_backward" : "clrs_forward";
    clrs_slot_taps taps;
    clrs_table_images img;
    char *key = NULL;
    cl_int err;
    clrs_status st;

    memset(&img, 0, sizeof img);
    st = clrs__slot_taps(p, &taps);
    if (st >= 0)
        st = clrs__lower(plan->ctx, p, &taps, plan->index_only, &plan->low);
    if (st >= 0)
        st = clrs__tables_fill(p, &taps, &plan->low, &img);
    clrs__slot_taps_free(&taps);
    clrs__lowered_free(&plan->low);
    if (st >= 0)
        st = make_buffer(plan, img.ibytes, img.i, &plan->itab, "tap table");
    if (st >= 0 && img.f)
        st = make_buffer(plan, img.fbytes, img.f, &plan->ftab,
                          "weight table");
    clrs__table_images_free(&img);
    CLRS_TRY(st);

    CLRS_TRY(clrs__gen_key(&plan->low.cfg, &key));
    /* No -cl-fast-relaxed-math, ever: taps and weights must match the
     * reference. */
    st = clrs__program_get_ex(plan->ctx, key, gen_source, &plan->low.cfg,
                               "", &plan->program, &plan->cache_source);
    free(key);
    CLRS_TRY(st);
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
    if (!p->backward || !clrs__mode_allows(p->mode, CLRS_MOPT_INDEX) ||
        p->has_index || !p->has_src || env_flag("CLRS_GENERIC"))
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
    info->vector_lanes = plan->low.launch.vec;
    info->vector_path = plan->low.launch.path;
    info->span_patterns = plan->low.cfg.phase ? plan->low.cfg.npat : 0;
    info->span_coverage = plan->low.cfg.phase ? plan->low.span.coverage : 0;
    memcpy(info->local_size, plan->low.launch.local, sizeof info->local_size);
    info->launch_source = plan->low.launch.source;
    clrs__clear_error();
    return CLRS_SUCCESS;
}

const char *clrs_launch_source_name(clrs_launch_source source)
{
    switch (source) {
    case CLRS_LAUNCH_DEFAULT:
        return "default";
    case CLRS_LAUNCH_FORCED:
        return "forced";
    }
    return NULL;
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
    const clrs_launch *L = &plan->low.launch;
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
    if (st == CLRS_SUCCESS && plan->low.cfg.recompute)
        st = set_arg(plan->kernel, plan->arg_x, sizeof(cl_mem), &args->src,
                     "src");
    for (i = 0; st == CLRS_SUCCESS && i < plan->low.cfg.npost; ++i)
        if (plan->low.cfg.post[i].kind == CLRS_POST_BINARY)
            st = set_arg(plan->kernel, plan->arg_post[i], sizeof(cl_mem),
                         &args->post_op[i], "post_op");
    if (st == CLRS_SUCCESS) {
        err = clEnqueueNDRangeKernel(plan->ctx->queue, plan->kernel,
                                     L->work_dim, NULL, L->global,
                                     L->local[0] ? L->local : NULL,
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
