/* clresample tool: the timing of one problem, on the device (profiled
 * kernel time) or the reference engine (the host clock), and the bytes
 * and bandwidth bound it is measured against. */
#include "job.h"

#include <math.h>

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
double gbps_limit(const job *j)
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

void perf_bytes(job *j)
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

    clrs_context_get_cl(j->env->ctx, NULL, NULL, &q);
    if (j->p->g.cold_cache)
        cli_flush_run(&j->env->flush, q);
    if (j->r->kernels > 1) {
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
        double ms = 0; /* once sets it when it returns 0 */
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

int perf_device(job *j)
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

int perf_reference(job *j)
{
    return time_runs(j, timed_reference, now_ms());
}
