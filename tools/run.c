/* clresample tool: running one problem. Builds the library descriptors
 * (build.c), fills or reads the inputs (host.c), runs the device plan
 * (device.c) or the CPU reference as the engine, checks against
 * clrs_reference_* within the tolerances of clresample(3) (check.c),
 * times it (perf.c), and writes requested .npy outputs (host.c). */
#include "job.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the problem ---- */

/* Frees everything the job holds. */
static void cleanup(job *j)
{
    int i;
    clrs_plan_destroy(j->plan);
    if (j->workspace)
        clReleaseMemObject(j->workspace);
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

/* Whether anything reads the outputs back: the check, the digest or an
 * output file. A plain run (--mode=R, P) leaves them on the device. */
static int outputs_read(const job *j)
{
    const cli_global *g = &j->p->g;
    return (g->mode & MODE_C) || j->env->digest || g->dst_file || g->ws_file ||
           g->diff_src_file;
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
    r->min_ms = r->avg_ms = r->gbps = r->roof_pct = r->copy_gbps = NAN;
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
        if (outputs_read(&j) && device_read_outputs(&j) != 0)
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
            /* The percent is of the copy timed right after the problem
             * (cli_probe_gbps; the start's where it cannot run). */
            double copy =
                ref ? 0 : cli_probe_gbps(env->ctx, &env->probe, &env->flush);
            if (copy <= 0)
                copy = env->copy_gbps;
            r->gbps = r->bytes / (r->min_ms * 1e6);
            if (copy > 0) {
                r->copy_gbps = copy;
                r->roof_pct = 100.0 * r->gbps / copy;
            }
            /* Faster than the device reads or writes memory: the timing
             * missed part of the work, it is no result. Above the copy
             * alone is not: a problem that mostly reads may beat it; nor
             * is a problem within four times the device's cache, which
             * may serve part of it across runs (PoCL, AMD EPYC with 32
             * MiB of L3: a bilinear 2x down of 84 MB read its input at
             * 40 GB/s, the read kernel over 256 MB at 39). */
            limit = gbps_limit(&j);
            if (copy > limit)
                limit = copy;
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

