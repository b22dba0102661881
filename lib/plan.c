/* Plans: validation of a problem against the context's device, and the
 * argument checks of clrs_execute. Code generation and enqueue come later. */
#include "context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Everything execute needs, resolved once at plan time (DESIGN: plan,
 * then execute). In this version no plan is ever returned: the OpenCL
 * kernels land in a later issue, which fills program/kernel/work sizes in
 * build_kernel() below and the enqueue at the end of clrs_execute(). */
struct clrs_plan {
    clrs_context *ctx; /* not owned: plans must die before their context */
    clrs_problem problem;

    /* Filled by code generation and the program cache. */
    cl_program program;
    cl_kernel kernel;
    cl_uint work_dim;
    size_t global[3];
    size_t local[3];
    int use_local; /* 0: let the driver choose (often faster on PoCL) */

    /* Bytes each role's buffer must hold (0: role unused), checked by
     * clrs_execute with CL_MEM_SIZE before anything is enqueued. */
    size_t need_src, need_dst, need_diff_src, need_diff_dst, need_index;
    size_t need_post[CLRS_MAX_POST_OPS];

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

/* Generates, builds (or fetches from the cache) and sizes the kernel.
 * The OpenCL kernels are not part of this version: every valid problem
 * stops here with CLRS_ERR_NOT_IMPLEMENTED, after all validation has run,
 * so callers already get the full set of argument and device errors. */
static clrs_status build_kernel(clrs_plan *plan)
{
    (void)plan;
    return clrs__error(CLRS_ERR_NOT_IMPLEMENTED,
                       "OpenCL kernels are not implemented in this version");
}

/* ---- creation ----------------------------------------------------------- */

static clrs_status plan_create(clrs_plan **out, clrs_context *ctx,
                               const clrs_resample_desc *op,
                               const clrs_tensor_desc *in,
                               const clrs_tensor_desc *outt,
                               const clrs_tensor_desc *index,
                               const clrs_tensor_desc *src, int backward)
{
    clrs_plan *plan;
    clrs_status st;

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
    if (st >= 0) {
        if (pthread_mutex_init(&plan->lock, NULL) == 0)
            plan->lock_init = 1;
        else
            st = clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                             "cannot initialise the plan mutex");
    }
    if (st >= 0)
        st = build_kernel(plan);
    if (st < 0) {
        clrs_plan_destroy(plan);
        return st;
    }
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
                                       0));
}

clrs_status clrs_plan_create_backward(clrs_plan **plan, clrs_context *ctx,
                                      const clrs_resample_desc *op,
                                      const clrs_tensor_desc *diff_src,
                                      const clrs_tensor_desc *diff_dst,
                                      const clrs_tensor_desc *index,
                                      const clrs_tensor_desc *src)
{
    return clrs__ctx_error(ctx, plan_create(plan, ctx, op, diff_src,
                                            diff_dst, index, src, 1));
}

void clrs_plan_destroy(clrs_plan *plan)
{
    if (!plan)
        return;
    if (plan->kernel)
        clReleaseKernel(plan->kernel);
    if (plan->program)
        clReleaseProgram(plan->program);
    if (plan->lock_init)
        pthread_mutex_destroy(&plan->lock);
    free(plan);
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
                   (p->backward || written != args->index),
               CLRS_ERR_ALIASING, "the %s buffer is also an input",
               p->backward ? "diff_src" : "dst");
    for (i = 0; i < CLRS_MAX_POST_OPS; ++i)
        CLRS_CHECK(args->post_op[i] == NULL || args->post_op[i] != written,
                   CLRS_ERR_ALIASING,
                   "post-op %d operand buffer is also the output", i);
    if (!p->backward && args->index)
        CLRS_CHECK(args->index != args->src, CLRS_ERR_ALIASING,
                   "the index buffer is also the src buffer");

    if (!plan->kernel)
        return clrs__error(CLRS_ERR_NOT_IMPLEMENTED,
                           "OpenCL kernels are not implemented in this "
                           "version");
    /* Later issue: lock, clSetKernelArg per role and size/coord argument,
     * clEnqueueNDRangeKernel on ctx->queue after wait_list, unlock. */
    (void)event;
    return clrs__error(CLRS_ERR_NOT_IMPLEMENTED,
                       "OpenCL kernels are not implemented in this version");
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
