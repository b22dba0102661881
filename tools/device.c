/* clresample tool: one problem on the device: its buffers, the plan
 * (built, or taken from the caches, and described in the result), one
 * execute, the outputs read back. */
#include "job.h"

#include <stdio.h>
#include <string.h>

/* ---- device ---- */

int cl_fail(job *j, cl_int err, const char *what)
{
    set_status(j->r, ST_FAILED, "%s failed (OpenCL error %d)", what,
               (int)err);
    return -1;
}

/* Whether the device works in the host's memory (a CPU): then an input's
 * buffer is its host array itself (CL_MEM_USE_HOST_PTR), not a second
 * copy, so that a run holds its inputs once (PoCL takes a page-aligned
 * array as it is). The kernels only read inputs, and the host only
 * reads them after the upload. */
static int unified_memory(cl_device_id dev)
{
    cl_bool u = CL_FALSE;
    return clGetDeviceInfo(dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof u, &u,
                           NULL) == CL_SUCCESS &&
           u == CL_TRUE;
}

int device_setup(job *j)
{
    cl_context c;
    cl_device_id dev;
    cl_command_queue q;
    cl_int err;
    int i, unified;

    clrs_context_get_cl(j->env->ctx, &c, &dev, &q);
    unified = unified_memory(dev);
    for (i = 0; i < T_COUNT; ++i) {
        tensor *t = &j->t[i];
        const int input = !t->is_output && !t->poisoned;
        if (!t->used || t->bytes == 0)
            continue; /* an empty tensor has no buffer: NULL in clrs_args */
        t->mem = clCreateBuffer(
            c, CL_MEM_READ_WRITE | (unified && input ? CL_MEM_USE_HOST_PTR : 0),
            t->bytes, unified && input ? t->host : NULL, &err);
        if (!t->mem) {
            set_status(j->r, ST_SKIPPED, "clCreateBuffer of %zu bytes for "
                       "%s failed (OpenCL error %d)", t->bytes,
                       role_names[i], (int)err);
            return -1;
        }
        if (t->poisoned) {
            /* An output starts poisoned: one element's poison repeated
             * (every size a type has is a valid fill pattern). */
            unsigned char pat[8];
            size_t es = clrs_dtype_size(t->dt);
            poison(pat, t->dt, es);
            err = clEnqueueFillBuffer(q, t->mem, pat, es, 0, t->bytes, 0, NULL,
                                      NULL);
            if (err == CL_SUCCESS)
                err = clFinish(q);
            if (err != CL_SUCCESS)
                return cl_fail(j, err, "clEnqueueFillBuffer");
            continue;
        }
        if (unified && input)
            continue; /* the host array is the buffer */
        err = clEnqueueWriteBuffer(q, t->mem, CL_TRUE, 0, t->bytes, t->host,
                                   0, NULL, NULL);
        if (err != CL_SUCCESS)
            return cl_fail(j, err, "clEnqueueWriteBuffer");
    }
    return 0;
}

clrs_status device_execute(job *j, cl_event *ev)
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
    a.workspace = j->workspace;
    return clrs_execute(j->plan, &a, 0, NULL, ev);
}

int device_read_outputs(job *j)
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

/* --attr-scratchpad=user: the workspace the plan asks for, made once per
 * problem, filled with 0xFF bytes (NaN in every float type: a pass that
 * read an intermediate before writing it would show). */
static int make_workspace(job *j, size_t bytes)
{
    const unsigned char poison = 0xFF;
    cl_context c;
    cl_command_queue q;
    cl_int err;

    if (j->workspace)
        return 0; /* the same problem planned again: the same size */
    clrs_context_get_cl(j->env->ctx, &c, NULL, &q);
    j->workspace = clCreateBuffer(c, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (!j->workspace) {
        set_status(j->r, ST_SKIPPED,
                   "clCreateBuffer of %zu bytes for the "
                   "workspace failed (OpenCL error %d)",
                   bytes, (int)err);
        return -1;
    }
    err = clEnqueueFillBuffer(q, j->workspace, &poison, 1, 0, bytes, 0, NULL,
                              NULL);
    if (err == CL_SUCCESS)
        err = clFinish(q);
    return err == CL_SUCCESS ? 0 : cl_fail(j, err, "clEnqueueFillBuffer");
}

int device_plan(job *j)
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
        j->r->rows = info.rows;
        j->r->period = info.span_period;
        j->r->kernels = info.kernels;
        j->r->separable = info.separable;
        j->r->scratch = info.scratch_bytes;
        j->r->workspace = info.workspace_bytes;
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
    return info.workspace_bytes ? make_workspace(j, info.workspace_bytes) : 0;
}
