/* clresample: the command-line benchmarker and checker, benchdnn style.
 * main() parses everything first (parse.c), opens the device once, then
 * runs each expanded problem (run.c) and reports it (report.c). */
#include "cli.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* The device's kind as the launch defaults know it (lib/gen/launch.c's
 * device classes go by it): "gpu", "cpu", "accelerator" or "other"
 * (several types or none, as a simulator reports). */
static const char *type_name(cl_device_type t)
{
    const cl_device_type kinds =
        CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR;

    switch (t & kinds) {
    case CL_DEVICE_TYPE_GPU:
        return "gpu";
    case CL_DEVICE_TYPE_CPU:
        return "cpu";
    case CL_DEVICE_TYPE_ACCELERATOR:
        return "accelerator";
    default:
        return "other";
    }
}

static int list_devices(void)
{
    clrs_device_info infos[64];
    size_t count = 0, i;
    clrs_status st = clrs_list_devices(infos, 64, &count);
    if (st < 0) {
        fprintf(stderr, "clresample: %s: %s\n", clrs_status_name(st),
                clrs_last_error());
        return CLI_EXIT_NODEV;
    }
    if (count == 0) {
        fprintf(stderr, "clresample: no OpenCL device found\n");
        return CLI_EXIT_NODEV;
    }
    for (i = 0; i < count && i < 64; ++i)
        printf("%u:%u  %s | %s | %s | %s | fp64 %s | %u compute units | "
               "%.1f GiB\n",
               infos[i].platform_index, infos[i].device_index,
               infos[i].device_name, infos[i].platform_name,
               infos[i].device_version, type_name(infos[i].type),
               infos[i].has_fp64 ? "yes" : "no", infos[i].compute_units,
               (double)infos[i].global_mem_size / (1024.0 * 1024 * 1024));
    return 0;
}

static int open_device(const cli_run *run, cli_env *env)
{
    clrs_device_info info;
    cl_device_id dev;
    cl_ulong cache = 0;
    clrs_status st = clrs_context_create(&env->ctx, run->device);
    if (st < 0) {
        fprintf(stderr, "clresample: cannot open %s%s%s: %s: %s\n",
                run->device ? "device '" : "the default device",
                run->device ? run->device : "", run->device ? "'" : "",
                clrs_status_name(st), clrs_last_error());
        env->ctx = NULL;
        return st == CLRS_ERR_NO_DEVICE || st == CLRS_ERR_OPENCL ||
                       st == CLRS_ERR_INVALID_VALUE
                   ? CLI_EXIT_NODEV
                   : CLI_EXIT_USAGE;
    }
    if (clrs_context_get_device_info(env->ctx, &info) >= 0 &&
        run->tpl == TPL_DEF)
        printf("device %u:%u: %s (%s)\n", info.platform_index,
               info.device_index, info.device_name, info.platform_name);
    clrs_context_get_cl(env->ctx, NULL, &dev, NULL);
    if (clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache,
                        &cache, NULL) == CL_SUCCESS)
        env->cache_bytes = (double)cache;
    return 0;
}

/* --cache-bench (1) and its child processes (2) replace the normal run. */
static int cache_bench(const cli_prb_list *prbs, const cli_run *run,
                       int argc, char **argv)
{
    cli_env env;
    int rc;

    if (run->cache_bench == 1) {
        if (prbs->n == 0) {
            fprintf(stderr, "clresample: --cache-bench needs a problem "
                            "descriptor\n");
            return CLI_EXIT_USAGE;
        }
        return cli_cache_bench(&prbs->v[0], run, argc, argv);
    }
    memset(&env, 0, sizeof env);
    rc = open_device(run, &env);
    if (rc == 0)
        rc = cli_cache_bench_child(&prbs->v[0], &env);
    clrs_context_destroy(env.ctx);
    return rc;
}

/* A failed measurement is only reported: problems still run, without a
 * roofline percentage. */
static void measure_roofline(const cli_run *run, cli_env *env)
{
    cli_bandwidth bw;
    char err[256];
    FILE *f = run->tpl == TPL_DEF ? stdout : stderr;

    if (cli_roofline(env->ctx, &bw, &env->flush, &env->probe, err,
                     sizeof err) != 0) {
        fprintf(stderr, "clresample: roofline: %s\n", err);
        return;
    }
    env->copy_gbps = bw.copy_nt > bw.copy_plain ? bw.copy_nt : bw.copy_plain;
    env->read_gbps = bw.read;
    env->write_gbps = bw.write;
    fprintf(f, "roofline: copy %.2f GB/s plain stores, ", bw.copy_plain);
    if (bw.copy_nt > 0)
        fprintf(f, "%.2f GB/s non-temporal stores", bw.copy_nt);
    else
        fprintf(f, "non-temporal stores unavailable");
    if (bw.read > 0 && bw.write > 0)
        fprintf(f, "; read %.2f GB/s, write %.2f GB/s\n", bw.read,
                bw.write);
    else
        fprintf(f, "; read or write alone unavailable\n");
}

/* --plot: the chart of the run's timings, after the summary. */
static int write_plot(const cli_run *run, const cli_env *env,
                      const cli_report *rep)
{
    clrs_device_info info;
    cli_plot_info pi;
    char device[600], err[512];

    if (env->ctx && clrs_context_get_device_info(env->ctx, &info) >= 0)
        snprintf(device, sizeof device, "%s (%s)", info.device_name,
                 info.platform_name);
    else
        snprintf(device, sizeof device, "the library's CPU reference "
                                        "(--engine=ref)");
    pi.device = device;
    pi.copy_gbps = env->copy_gbps;
    pi.read_gbps = env->read_gbps;
    pi.write_gbps = env->write_gbps;
    pi.when = time(NULL);
    if (cli_report_plot(rep, run->plot, &pi, err, sizeof err) != 0) {
        fprintf(stderr, "clresample: --plot: %s\n", err);
        return -1;
    }
    fprintf(run->tpl == TPL_DEF ? stdout : stderr, "plot: %s\n",
            run->plot);
    return 0;
}

/* Whether a problem timed on the device wants the cold cache. */
static int cold_cache_wanted(const cli_prb_list *prbs)
{
    size_t i;
    for (i = 0; i < prbs->n; ++i)
        if ((prbs->v[i].g.mode & MODE_P) && prbs->v[i].g.cold_cache &&
            prbs->v[i].g.engine == ENGINE_DEVICE)
            return 1;
    return 0;
}

static int run_problems(const cli_prb_list *prbs, cli_run *run)
{
    cli_env env;
    cli_report *rep;
    size_t i;
    int rc, need_device = 0, want_perf = 0;

    for (i = 0; i < prbs->n; ++i) {
        if (!(prbs->v[i].g.mode & MODE_L) &&
            prbs->v[i].g.engine == ENGINE_DEVICE)
            need_device = 1;
        if (prbs->v[i].g.mode & MODE_P)
            want_perf = 1;
    }
    memset(&env, 0, sizeof env);
    env.digest = run->tpl == TPL_JSON;
    /* The roofline is the device's and serves timings: measured when
     * the device times problems, or when asked for alone; a check or a
     * list measures nothing. */
    if ((!need_device || !want_perf) && prbs->n > 0)
        run->roofline = 0;
    /* The chart draws the device's bandwidth lines. */
    else if (run->plot && need_device)
        run->roofline = 1;
    if (need_device || run->roofline) {
        rc = open_device(run, &env);
        if (rc != 0)
            return rc;
    }
    /* The cold cache: where a problem timed on the device asks for it
     * (the roofline's kernels are then timed cold alike). */
    if (want_perf && env.ctx && cold_cache_wanted(prbs)) {
        char err[256];
        if (cli_flush_init(env.ctx, env.cache_bytes, &env.flush, err,
                           sizeof err) != 0)
            fprintf(stderr, "clresample: cold cache: %s; timing warm\n", err);
        else if (env.flush.k)
            fprintf(run->tpl == TPL_DEF ? stdout : stderr,
                    "cold cache: each timed run follows a read of %.0f MiB "
                    "(twice the device's cache)\n",
                    (double)env.flush.bytes / 1048576.0);
    }
    if (run->roofline)
        measure_roofline(run, &env);

    rep = cli_report_create(run->tpl, prbs->n, want_perf, run->verbose);
    if (!rep) {
        fprintf(stderr, "clresample: out of memory\n");
        cli_probe_free(&env.probe);
        cli_flush_free(&env.flush);
        clrs_context_destroy(env.ctx);
        return CLI_EXIT_FAIL;
    }
    for (i = 0; i < prbs->n; ++i) {
        cli_result r;
        cli_report_progress(rep, &prbs->v[i]);
        cli_run_problem(&prbs->v[i], &env, &r);
        cli_report_problem(rep, &prbs->v[i], &r);
    }
    rc = prbs->n ? cli_report_finish(rep) : CLI_EXIT_OK;
    if (run->plot && write_plot(run, &env, rep) != 0 && rc == CLI_EXIT_OK)
        rc = CLI_EXIT_FAIL;
    cli_report_destroy(rep);
    cli_probe_free(&env.probe);
    cli_flush_free(&env.flush);
    clrs_context_destroy(env.ctx);
    return rc;
}

/* Everything after a successful parse; the caller frees the problems. */
static int dispatch(cli_prb_list *prbs, cli_run *run, int argc, char **argv)
{
    int rc;

    if (run->help)
        cli_usage(stdout);
    if (run->version)
        printf("clresample %s\n", clrs_version_string());
    if (run->list_devices && (rc = list_devices()) != 0)
        return rc;
    /* A child with no problem falls through to the usage error below. */
    if (run->cache_bench == 1 || (run->cache_bench == 2 && prbs->n > 0))
        return cache_bench(prbs, run, argc, argv);
    if (run->plot) {
        size_t i, timed = 0;
        for (i = 0; i < prbs->n; ++i)
            timed += (prbs->v[i].g.mode & MODE_P) != 0;
        if (timed == 0) {
            fprintf(stderr, "clresample: --plot=%s: no problem is timed: "
                            "give --mode=P, CP, T or CT before them\n",
                    run->plot);
            return CLI_EXIT_USAGE;
        }
    }
    if (prbs->n == 0 && !run->roofline && run->left_out) {
        /* As benchdnn: a run --match leaves nothing of is empty, not a
         * usage error. */
        cli_report *rep = cli_report_create(run->tpl, 0, 0, run->verbose);
        fprintf(stderr, "clresample: --match left out all %zu problems\n",
                run->left_out);
        if (rep) {
            cli_report_finish(rep);
            cli_report_destroy(rep);
        }
        return CLI_EXIT_OK;
    }
    if (prbs->n == 0 && !run->roofline) {
        if (run->help || run->version || run->list_devices)
            return CLI_EXIT_OK;
        fprintf(stderr, "clresample: no problem descriptor given (e.g. "
                        "mb2ic16ih10iw10oh20ow20)\n");
        return CLI_EXIT_USAGE;
    }
    return run_problems(prbs, run);
}

int main(int argc, char **argv)
{
    cli_prb_list prbs;
    cli_run run;
    int rc;

    if (argc < 2) {
        cli_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    rc = cli_parse(argc, argv, &prbs, &run);
    if (rc == 0)
        rc = dispatch(&prbs, &run, argc, argv);
    cli_free_problems(&prbs);
    return rc;
}
