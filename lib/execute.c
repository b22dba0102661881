/* Execution: the caller's buffers checked against what the plan needs,
 * its fixed arguments already set, its kernel(s) enqueued on the
 * context's queue. */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

clrs_status clrs__set_arg(cl_kernel kern, cl_uint i, size_t size,
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
static clrs_status enqueue(clrs_plan *plan, cl_command_queue q,
                           const clrs_args *args, cl_uint num_events,
                           const cl_event *wait_list, cl_event *event)
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
    st = clrs__set_arg(plan->kernel, plan->arg_src, sizeof(cl_mem), rd,
                 p->backward ? "diff_dst" : "src");
    if (st == CLRS_SUCCESS && !plan->index_only)
        st = clrs__set_arg(plan->kernel, plan->arg_dst, sizeof(cl_mem), wr,
                     p->backward ? "diff_src" : "dst");
    if (st == CLRS_SUCCESS && p->has_index)
        st = clrs__set_arg(plan->kernel, plan->arg_index, sizeof(cl_mem),
                     &args->index, "index");
    if (st == CLRS_SUCCESS && plan->low.cfg.recompute)
        st = clrs__set_arg(plan->kernel, plan->arg_x, sizeof(cl_mem), &args->src,
                     "src");
    for (i = 0; st == CLRS_SUCCESS && i < plan->low.cfg.npost; ++i)
        if (plan->low.cfg.post[i].kind == CLRS_POST_BINARY)
            st = clrs__set_arg(plan->kernel, plan->arg_post[i], sizeof(cl_mem),
                         &args->post_op[i], "post_op");
    if (st == CLRS_SUCCESS) {
        err = clEnqueueNDRangeKernel(q, plan->kernel,
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
static clrs_status enqueue_two_pass(clrs_plan *plan, cl_command_queue q,
                                    const clrs_args *args,
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
    st = enqueue(plan->argmax, q, &fa, n, waits, &first);
    if (buf != local)
        free(buf);
    if (st == CLRS_SUCCESS) {
        st = enqueue(plan->scatter, q, &ba, 1, &first, &second);
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

    return clrs__plan_enqueue(plan, plan->ctx->queue, args, num_events,
                              wait_list, event);
}

clrs_status clrs__plan_enqueue(clrs_plan *plan, cl_command_queue q,
                               const clrs_args *args, cl_uint num_events,
                               const cl_event *wait_list, cl_event *event)
{
    if (plan->argmax)
        return enqueue_two_pass(plan, q, args, num_events, wait_list, event);
    return enqueue(plan, q, args, num_events, wait_list, event);
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
