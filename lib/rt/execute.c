/* Execution: the caller's buffers checked against what the plan needs,
 * its fixed arguments already set, its kernel(s) enqueued on the
 * context's queue. */
#include "rt/plan.h"

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

/* One buffer role of a call: what the plan does with it, and where its
 * bytes lie (the buffer it was cut from, for a sub-buffer, and the range
 * the kernels touch in it). */
typedef struct role {
    char name[16];
    cl_mem mem;
    size_t need; /* 0: the plan does not use the role */
    int written, read;
    cl_mem root;
    size_t lo, hi;
} role;

static clrs_status mem_info(cl_mem m, cl_mem_info what, size_t size,
                            void *value, const char *name)
{
    cl_int err = clGetMemObjectInfo(m, what, size, value, NULL);
    if (err != CL_SUCCESS) {
        char call[64];
        snprintf(call, sizeof call, "clGetMemObjectInfo(args->%s)", name);
        return clrs__cl_error(err, call);
    }
    return CLRS_SUCCESS;
}

/* A role the plan reads or writes must have a buffer of at least `need`
 * bytes, of the plan's cl_context, whose flags allow what the kernels do
 * with it; an unused role must be NULL so that a mix-up of roles is
 * caught instead of silently ignored. */
static clrs_status check_buffer(const clrs_plan *plan, role *r)
{
    cl_mem_flags flags = 0;
    cl_context owner = NULL;
    size_t have = 0;

    if (r->need == 0) {
        CLRS_CHECK(r->mem == NULL, CLRS_ERR_INVALID_VALUE,
                   "args->%s is set but this plan does not use it", r->name);
        return CLRS_SUCCESS;
    }
    CLRS_CHECK(r->mem != NULL, CLRS_ERR_NULL_POINTER, "args->%s is NULL",
               r->name);
    CLRS_TRY(mem_info(r->mem, CL_MEM_SIZE, sizeof have, &have, r->name));
    CLRS_CHECK(have >= r->need, CLRS_ERR_BUFFER_TOO_SMALL,
               "args->%s buffer holds %zu bytes, the plan needs %zu", r->name,
               have, r->need);
    CLRS_TRY(mem_info(r->mem, CL_MEM_CONTEXT, sizeof owner, &owner,
                      r->name));
    CLRS_CHECK(owner == plan->ctx->cl_ctx, CLRS_ERR_INVALID_VALUE,
               "args->%s belongs to another cl_context than the plan's",
               r->name);
    CLRS_TRY(mem_info(r->mem, CL_MEM_FLAGS, sizeof flags, &flags, r->name));
    CLRS_CHECK(!r->written || !(flags & CL_MEM_READ_ONLY),
               CLRS_ERR_INVALID_VALUE,
               "args->%s is CL_MEM_READ_ONLY but the plan writes it",
               r->name);
    CLRS_CHECK(!r->read || !(flags & CL_MEM_WRITE_ONLY),
               CLRS_ERR_INVALID_VALUE,
               "args->%s is CL_MEM_WRITE_ONLY but the plan reads it",
               r->name);
    /* Where its bytes lie: a sub-buffer's in its parent, at its offset. */
    CLRS_TRY(mem_info(r->mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof r->root,
                      &r->root, r->name));
    r->lo = 0;
    if (r->root)
        CLRS_TRY(mem_info(r->mem, CL_MEM_OFFSET, sizeof r->lo, &r->lo,
                          r->name));
    else
        r->root = r->mem;
    r->hi = r->lo + r->need;
    return CLRS_SUCCESS;
}

/* The kernels read inputs while writing outputs: a written buffer that
 * shares bytes with any other role (the same buffer, or sub-buffers of
 * one parent whose ranges meet) gives order-dependent results. */
static clrs_status check_overlap(const role *r, int n)
{
    int i, j;

    for (i = 0; i < n; ++i)
        for (j = i + 1; j < n; ++j) {
            if (!r[i].need || !r[j].need || !(r[i].written || r[j].written))
                continue;
            CLRS_CHECK(r[i].mem != r[j].mem, CLRS_ERR_ALIASING,
                       "args->%s is also args->%s", r[j].name, r[i].name);
            CLRS_CHECK(r[i].root != r[j].root || r[i].hi <= r[j].lo ||
                           r[j].hi <= r[i].lo,
                       CLRS_ERR_ALIASING,
                       "args->%s and args->%s overlap in one buffer (bytes "
                       "[%zu, %zu) and [%zu, %zu) of it)",
                       r[i].name, r[j].name, r[i].lo, r[i].hi, r[j].lo,
                       r[j].hi);
        }
    return CLRS_SUCCESS;
}

/* Every event of the wait list must exist and belong to the plan's
 * cl_context (a foreign event is undefined behaviour for the driver). */
static clrs_status check_events(const clrs_plan *plan, cl_uint n,
                                const cl_event *list)
{
    cl_uint i;

    CLRS_CHECK((n == 0) == (list == NULL), CLRS_ERR_INVALID_VALUE,
               "num_events is %u but wait_list is %s", (unsigned)n,
               list ? "set" : "NULL");
    for (i = 0; i < n; ++i) {
        cl_context owner = NULL;
        cl_int err;
        CLRS_CHECK(list[i] != NULL, CLRS_ERR_NULL_POINTER,
                   "wait_list[%u] is NULL", (unsigned)i);
        err = clGetEventInfo(list[i], CL_EVENT_CONTEXT, sizeof owner, &owner,
                             NULL);
        if (err != CL_SUCCESS)
            return clrs__cl_error(err, "clGetEventInfo(wait_list)");
        CLRS_CHECK(owner == plan->ctx->cl_ctx, CLRS_ERR_INVALID_VALUE,
                   "wait_list[%u] belongs to another cl_context than the "
                   "plan's",
                   (unsigned)i);
    }
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

    /* The kernel's src (what it reads) and dst (what it writes): the
     * caller's diff_dst and diff_src backward. */
    const cl_mem *src = p->backward ? &args->diff_dst : &args->src;
    const cl_mem *dst = p->backward ? &args->diff_src : &args->dst;
    int i;

    pthread_mutex_lock(&plan->lock);
    st = clrs__set_arg(plan->kernel, plan->arg_src, sizeof(cl_mem), src,
                 p->backward ? "diff_dst" : "src");
    if (st == CLRS_SUCCESS && !plan->index_only)
        st = clrs__set_arg(plan->kernel, plan->arg_dst, sizeof(cl_mem), dst,
                     p->backward ? "diff_src" : "dst");
    if (st == CLRS_SUCCESS && p->has_index)
        st = clrs__set_arg(plan->kernel, plan->arg_index, sizeof(cl_mem),
                     &args->index, "index");
    if (st == CLRS_SUCCESS && plan->low.cfg.recompute) /* x: caller's src */
        st = clrs__set_arg(plan->kernel, plan->arg_x, sizeof(cl_mem),
                           &args->src, "src");
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

/* The caller's wait list with the plan's scratch_busy (the last pass of
 * the previous run, which read the scratch this run's first pass
 * writes) appended: in local when it fits, else allocated (*heap set). */
static clrs_status waits_with_busy(const clrs_plan *plan, cl_uint n,
                                   const cl_event *wait_list,
                                   cl_event *local, cl_uint nlocal,
                                   const cl_event **waits, cl_uint *nw,
                                   cl_event **heap)
{
    cl_event *buf;

    *waits = wait_list;
    *nw = n;
    *heap = NULL;
    if (!plan->scratch_busy)
        return CLRS_SUCCESS;
    buf = n + 1 <= nlocal ? local : malloc((n + 1) * sizeof *buf);
    if (!buf)
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "out of memory for %u events", n + 1);
    if (buf != local)
        *heap = buf;
    if (n)
        memcpy(buf, wait_list, n * sizeof *buf);
    buf[n] = plan->scratch_busy;
    *waits = buf;
    *nw = n + 1;
    return CLRS_SUCCESS;
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
    cl_event local[16], *heap, first = NULL, second = NULL;
    const cl_event *waits;
    cl_uint n;
    clrs_status st;

    const cl_mem scratch =
        plan->need_workspace ? args->workspace : plan->scratch_index;

    memset(&fa, 0, sizeof fa);
    fa.src = args->src;
    fa.index = scratch;
    memset(&ba, 0, sizeof ba);
    ba.diff_src = args->diff_src;
    ba.diff_dst = args->diff_dst;
    ba.index = scratch;

    pthread_mutex_lock(&plan->lock);
    st = waits_with_busy(plan, num_events, wait_list, local,
                         sizeof local / sizeof local[0], &waits, &n, &heap);
    if (st == CLRS_SUCCESS) {
        st = enqueue(plan->argmax, q, &fa, n, waits, &first);
        free(heap);
    }
    if (st == CLRS_SUCCESS) {
        st = enqueue(plan->scatter, q, &ba, 1, &first, &second);
        if (plan->need_workspace) { /* the caller orders the runs */
            clReleaseEvent(first);
        } else {
            if (plan->scratch_busy)
                clReleaseEvent(plan->scratch_busy);
            if (st == CLRS_SUCCESS) {
                plan->scratch_busy = second;
                clReleaseEvent(first);
            } else {
                plan->scratch_busy = first; /* still writing the scratch */
            }
        }
    }
    if (st == CLRS_SUCCESS && event) {
        clRetainEvent(second);
        *event = second;
    }
    if (st == CLRS_SUCCESS && plan->need_workspace)
        clReleaseEvent(second);
    pthread_mutex_unlock(&plan->lock);
    return st;
}

/* The bytes [off, off + size) of the caller's workspace ws as a buffer
 * of their own (a sub-buffer of ws's parent when ws is one itself): an
 * OpenCL object, no device memory; released by the caller once the
 * passes that use it are enqueued. */
static clrs_status workspace_part(cl_mem ws, size_t off, size_t size,
                                  cl_mem *part)
{
    cl_buffer_region region;
    cl_mem root = NULL;
    size_t base = 0;
    cl_int err;

    *part = NULL;
    CLRS_TRY(mem_info(ws, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof root, &root,
                      "workspace"));
    if (root)
        CLRS_TRY(mem_info(ws, CL_MEM_OFFSET, sizeof base, &base, "workspace"));
    else
        root = ws;
    region.origin = base + off;
    region.size = size;
    *part =
        clCreateSubBuffer(root, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    if (err != CL_SUCCESS) {
        *part = NULL;
        return clrs__cl_error(err, "clCreateSubBuffer(args->workspace)");
    }
    return CLRS_SUCCESS;
}

/* The separable passes in order, each after the one before it (the
 * first after the caller's events and the previous run's last pass):
 * the first reads src (diff_dst backward), the last writes dst with the
 * post-ops' operands (diff_src), the ones between read and write the
 * plan's intermediates. */
static clrs_status enqueue_chain(clrs_plan *plan, cl_command_queue q,
                                 const clrs_args *args, cl_uint num_events,
                                 const cl_event *wait_list, cl_event *event)
{
    cl_event local[16], *heap, prev = NULL;
    const cl_event *waits;
    cl_mem work[2] = {plan->work[0], plan->work[1]}, part = NULL;
    cl_uint n;
    clrs_status st = CLRS_SUCCESS;
    int i;

    if (plan->need_workspace) {
        work[0] = args->workspace;
        if (plan->work_bytes[1])
            st = workspace_part(args->workspace, plan->ws_off,
                                plan->work_bytes[1], &part);
        work[1] = part;
    }
    if (st < 0)
        return st;
    pthread_mutex_lock(&plan->lock);
    st = waits_with_busy(plan, num_events, wait_list, local,
                         sizeof local / sizeof local[0], &waits, &n, &heap);
    for (i = 0; st == CLRS_SUCCESS && i < plan->npass; ++i) {
        const int last = i == plan->npass - 1;
        clrs_args a;
        cl_event ev = NULL;
        cl_mem in, out;
        memset(&a, 0, sizeof a);
        in = i ? work[(i - 1) % 2]
               : (plan->problem.backward ? args->diff_dst : args->src);
        out = !last ? work[i % 2]
                    : (plan->problem.backward ? args->diff_src : args->dst);
        *(plan->problem.backward ? &a.diff_dst : &a.src) = in;
        *(plan->problem.backward ? &a.diff_src : &a.dst) = out;
        if (last)
            memcpy(a.post_op, args->post_op, sizeof a.post_op);
        st = enqueue(plan->pass[i], q, &a, i ? 1 : n, i ? &prev : waits,
                     &ev);
        if (st == CLRS_SUCCESS) {
            if (prev)
                clReleaseEvent(prev);
            prev = ev;
        }
    }
    free(heap);
    if (part) /* freed when the passes that use it have run */
        clReleaseMemObject(part);
    if (st == CLRS_SUCCESS && event) {
        clRetainEvent(prev);
        *event = prev;
    }
    /* The last pass enqueued, even of a run cut short, still reads or
     * writes the intermediates: the next run waits for it, unless the
     * caller's workspace holds them (the caller orders the runs). */
    if (prev && plan->need_workspace) {
        clReleaseEvent(prev);
    } else if (prev) {
        if (plan->scratch_busy)
            clReleaseEvent(plan->scratch_busy);
        plan->scratch_busy = prev;
    }
    pthread_mutex_unlock(&plan->lock);
    return st;
}

static void set_role(role *r, const char *name, cl_mem m, size_t need,
                     int written, int read)
{
    snprintf(r->name, sizeof r->name, "%s", name);
    r->mem = m;
    r->need = need;
    r->written = written;
    r->read = read;
    r->root = NULL;
    r->lo = r->hi = 0;
}

/* The roles of one call: written (dst or diff_src, a forward index) and
 * read (the others; dst under a sum post-op, diff_src when accumulating).
 * Returns their number. */
static int fill_roles(const clrs_plan *plan, const clrs_args *a, role *r)
{
    const clrs_problem *p = &plan->problem;
    int i, sum = 0;

    for (i = 0; i < p->n_post_ops; ++i)
        sum |= p->post_ops[i].kind == CLRS_POST_SUM;
    set_role(&r[0], "src", a->src, plan->need_src, 0, 1);
    set_role(&r[1], "dst", a->dst, plan->need_dst, 1, sum);
    set_role(&r[2], "diff_src", a->diff_src, plan->need_diff_src, 1,
             p->accumulate);
    set_role(&r[3], "diff_dst", a->diff_dst, plan->need_diff_dst, 0, 1);
    set_role(&r[4], "index", a->index, plan->need_index, !p->backward,
             p->backward);
    set_role(&r[5], "workspace", a->workspace, plan->need_workspace, 1, 1);
    for (i = 0; i < CLRS_MAX_POST_OPS; ++i) {
        char name[16];
        snprintf(name, sizeof name, "post_op[%d]", i);
        set_role(&r[6 + i], name, a->post_op[i], plan->need_post[i], 0, 1);
    }
    return CLRS_ROLES_MAX;
}

/* A plan without elements: nothing is read or written (its buffers may be
 * NULL); a marker after the wait list gives the caller an event that
 * completes as a kernel's would. */
static clrs_status enqueue_empty(clrs_plan *plan, cl_uint num_events,
                                 const cl_event *wait_list, cl_event *event)
{
    cl_int err;
    if (!event && num_events == 0)
        return CLRS_SUCCESS;
    err = clEnqueueMarkerWithWaitList(plan->ctx->queue, num_events,
                                      wait_list, event);
    CLRS_CHECK(err == CL_SUCCESS, CLRS_ERR_OPENCL,
               "clEnqueueMarkerWithWaitList failed (OpenCL error %d)",
               (int)err);
    return CLRS_SUCCESS;
}

static clrs_status execute(clrs_plan *plan, const clrs_args *args,
                           cl_uint num_events, const cl_event *wait_list,
                           cl_event *event)
{
    role r[CLRS_ROLES_MAX];
    int i, n;

    CLRS_CHECK_PTR(args);
    CLRS_TRY(check_events(plan, num_events, wait_list));
    if (plan->empty)
        return enqueue_empty(plan, num_events, wait_list, event);
    n = fill_roles(plan, args, r);
    for (i = 0; i < n; ++i)
        CLRS_TRY(check_buffer(plan, &r[i]));
    CLRS_TRY(check_overlap(r, n));
    return clrs__plan_enqueue(plan, plan->ctx->queue, args, num_events,
                              wait_list, event);
}

clrs_status clrs__plan_enqueue(clrs_plan *plan, cl_command_queue q,
                               const clrs_args *args, cl_uint num_events,
                               const cl_event *wait_list, cl_event *event)
{
    if (plan->argmax)
        return enqueue_two_pass(plan, q, args, num_events, wait_list, event);
    if (plan->npass)
        return enqueue_chain(plan, q, args, num_events, wait_list, event);
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
