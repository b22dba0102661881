/* A plan's internal layout, shared by its creation (plan.c), its tuning
 * (tune.c) and its execution (execute.c). */
#ifndef CLRS_PLAN_H
#define CLRS_PLAN_H

#include "gen/lower.h"
#include "rt/context.h"

#include <time.h>

/* The longest launch text the tuner tries, with its terminator. */
#define CLRS_TUNE_TEXT_MAX 48

/* Everything execute needs, resolved once at plan time (plan, then
 * execute). */
struct clrs_plan {
    clrs_context *ctx; /* a reference (clrs__ctx_retain): the context
                          lives until its last plan is destroyed */
    clrs_problem problem;

    clrs_lowered low; /* configuration, values, launch (read only) */
    cl_program program;
    cl_kernel kernel;
    cl_mem itab, ftab; /* tap tables, written once at creation */
    cl_uint arg_src, arg_dst, arg_index; /* kernel argument positions */
    cl_uint arg_x; /* backward max recompute: x, the forward input */
    int index_only; /* forward max writing the index alone (argmax pass) */
    int empty;      /* a tensor without elements: no kernel, execution
                       only completes its event */
    cl_uint arg_post[CLRS_MAX_POST_OPS]; /* binary post-op operands */

    clrs_cache_source cache_source; /* for clrs_plan_get_info */
    int tuned_launches; /* distinct launches the tuner timed for it */
    char tuned_text[CLRS_TUNE_TEXT_MAX]; /* the tuner's winning launch
                                            text ("": none) */
    double create_ms;
    /* The compiler's log of the program (of both passes' programs for a
     * two-pass plan, each under its kernel's name); NULL when empty. */
    char *build_log;

    /* Bytes each role's buffer must hold (0: role unused), checked by
     * clrs_execute with CL_MEM_SIZE before anything is enqueued. Named
     * after the caller's buffers (clrs_args): need_src is the src
     * argument's, the kernel's src forward and x backward. */
    size_t need_src, need_dst, need_diff_src, need_diff_dst, need_index;
    size_t need_post[CLRS_MAX_POST_OPS];
    /* A user-workspace plan (problem.user_workspace) with scratch: the
     * bytes clrs_args.workspace must hold, where each of its scratch
     * buffers lies in it (the argmax index or work[0] at 0, work[1] at
     * ws_off), and no plan-owned scratch_index or work[] at all. */
    size_t need_workspace, ws_off;

    /* Max pooling backward without an index tensor, in two passes: the
     * forward argmax writes a window index into plan-owned scratch, then
     * the index backward reads it (plan_two_pass). Both NULL for a plan
     * with its own kernel. */
    clrs_plan *argmax, *scatter;
    cl_mem scratch_index;
    /* The last pass of a run that reads plan-owned scratch (the scatter
     * of two passes, the last separable pass): the next run's first pass,
     * which writes that scratch, waits for it. */
    cl_event scratch_busy;

    /* A separable plan (plan_separable): one 1-D pass per resampled axis
     * (backward, their gradients in reverse), pass[0] first, through
     * plan-owned intermediates: pass i writes work[i % 2] and pass i + 1
     * reads it; the last pass writes the caller's dst (diff_src). npass
     * is 0 for any other plan. work_bytes are the intermediates' sizes
     * whoever holds them. */
    int npass;
    clrs_plan *pass[CLRS_MAX_RANK];
    cl_mem work[2];
    size_t work_bytes[2];

    /* clSetKernelArg followed by enqueue must not interleave between
     * threads sharing one cl_kernel (OpenCL 1.2 A.2). */
    pthread_mutex_t lock;
    int lock_init;
};

/* The most buffers one run binds: src, dst, diff_src, diff_dst, index,
 * the post-ops' operands and the workspace. */
#define CLRS_ROLES_MAX (6 + CLRS_MAX_POST_OPS)

/* A device buffer the plan owns: a table copied from host (read only) or,
 * with host NULL, scratch the kernels write; `what` names it in errors. */
clrs_status clrs__plan_buffer(clrs_plan *plan, size_t bytes, void *host,
                              cl_mem *out, const char *what);

/* A plan of plan's problem with nothing built yet (its context retained,
 * its buffer sizes and lock set up): a tuning candidate, or one kernel
 * over a separable problem to time against its passes. */
clrs_status clrs__plan_twin(const clrs_plan *plan, clrs_plan **out);

/* Builds plan's kernel under the launch parameters `launch`: the taps,
 * the lowering and the tables, then the program (from the context's map,
 * the disk or a build), the table upload and the fixed arguments. */
clrs_status clrs__plan_build_kernel(clrs_plan *plan,
                                    const clrs_launch_text *launch);

/* Milliseconds of CLOCK_MONOTONIC since t0. */
double clrs__ms_since(const struct timespec *t0);

/* clSetKernelArg with the argument's name in the error message. */
clrs_status clrs__set_arg(cl_kernel kern, cl_uint i, size_t size,
                          const void *value, const char *name);

/* The plan's kernel(s) on queue q with the caller's buffers (checked
 * already): no build, no allocation, no wait. */
clrs_status clrs__plan_enqueue(clrs_plan *plan, cl_command_queue q,
                               const clrs_args *args, cl_uint num_events,
                               const cl_event *wait_list, cl_event *event);

#endif /* CLRS_PLAN_H */
