/* Contexts: device listing, default and selected devices, wrapping the
 * caller's OpenCL objects, selector errors, per-thread detail messages. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t */
#endif

#include "clresample.h"
#include "tap.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define D(...) ((const int64_t[]){__VA_ARGS__})

/* ---- two threads, one context, each with its own message --------------- */

typedef struct worker {
    clrs_context *ctx;
    pthread_barrier_t *barrier;
    int rank_a, rank_b; /* a rank mismatch whose message names both */
    clrs_status status;
    char want[64];
    char got[512];
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    clrs_tensor_desc *a = NULL, *b = NULL;
    clrs_resample_desc *op = NULL;
    clrs_plan *plan = NULL;

    clrs_tensor_desc_create(&a, CLRS_F32, w->rank_a, D(1, 1, 4, 4, 4, 4),
                            NULL);
    clrs_tensor_desc_create(&b, CLRS_F32, w->rank_b, D(1, 1, 8, 8, 8, 8),
                            NULL);
    clrs_resample_desc_create(&op, CLRS_MODE_NEAREST);
    w->status = clrs_plan_create_forward(&plan, w->ctx, op, a, b, NULL);
    snprintf(w->want, sizeof w->want, "src rank %d != dst rank %d",
             w->rank_a, w->rank_b);
    /* Both threads have failed before either reads its message. */
    pthread_barrier_wait(w->barrier);
    strncpy(w->got, clrs_context_last_error(w->ctx), sizeof w->got - 1);
    clrs_plan_destroy(plan);
    clrs_resample_desc_destroy(op);
    clrs_tensor_desc_destroy(a);
    clrs_tensor_desc_destroy(b);
    return NULL;
}

static void per_thread_messages(clrs_context *ctx)
{
    pthread_barrier_t barrier;
    pthread_t th[2];
    worker w[2];
    clrs_plan *plan = NULL;
    int i;

    /* The main thread's own failure must survive the workers' ones. */
    clrs_plan_create_forward(&plan, ctx, NULL, NULL, NULL, NULL);
    memset(w, 0, sizeof w);
    pthread_barrier_init(&barrier, NULL, 2);
    for (i = 0; i < 2; ++i) {
        w[i].ctx = ctx;
        w[i].barrier = &barrier;
        w[i].rank_a = 3 + i;
        w[i].rank_b = 5 + i;
        pthread_create(&th[i], NULL, work, &w[i]);
    }
    for (i = 0; i < 2; ++i)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&barrier);
    for (i = 0; i < 2; ++i)
        tap_ok(w[i].status == CLRS_ERR_SHAPE_MISMATCH &&
                   strstr(w[i].got, w[i].want) != NULL,
               "thread %d sees its own message on the shared context: "
               "\"%s\"",
               i, w[i].got);
    tap_ok(strstr(clrs_context_last_error(ctx), "op is NULL") != NULL,
           "main thread still sees its own message: \"%s\"",
           clrs_context_last_error(ctx));
}

/* ---- the rest ----------------------------------------------------------- */

static void wrap_caller_objects(clrs_context *ctx)
{
    cl_context cl_ctx = NULL, other = NULL;
    cl_device_id dev = NULL;
    cl_command_queue queue = NULL, q2 = NULL;
    clrs_context *wrap = NULL;
    clrs_status st;
    cl_int err;

    st = clrs_context_get_cl(ctx, &cl_ctx, &dev, &queue);
    tap_ok(st == CLRS_SUCCESS && cl_ctx && dev && queue,
           "get_cl returns the context, device and queue");
    st = clrs_context_create_from_cl(&wrap, cl_ctx, dev, queue);
    tap_ok(st == CLRS_SUCCESS && wrap != NULL, "create_from_cl: %s %s",
           clrs_status_name(st), clrs_last_error());
    if (wrap) {
        cl_context c2 = NULL;
        cl_device_id d2 = NULL;
        cl_command_queue q3 = NULL;
        clrs_device_info info;
        clrs_context_get_cl(wrap, &c2, &d2, &q3);
        tap_ok(c2 == cl_ctx && d2 == dev && q3 == queue,
               "the wrapper hands back the caller's objects");
        st = clrs_context_get_device_info(wrap, &info);
        tap_ok(st == CLRS_SUCCESS && info.device_name[0] != '\0',
               "wrapped device is \"%s\" (platform %u, device %u)",
               info.device_name, info.platform_index, info.device_index);
        clrs_context_destroy(wrap);
    }
    /* The wrapper released only its own references. */
    err = clFinish(queue);
    tap_ok(err == CL_SUCCESS, "caller's queue still alive after the "
                              "wrapper is destroyed");

    /* A queue of another cl_context. */
    other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (other)
        q2 = clCreateCommandQueue(other, dev, 0, &err);
    if (q2) {
        st = clrs_context_create_from_cl(&wrap, cl_ctx, dev, q2);
        tap_ok(st == CLRS_ERR_INVALID_VALUE && wrap == NULL &&
                   strstr(clrs_last_error(), "another cl_context"),
               "a queue of another context is refused: %s \"%s\"",
               clrs_status_name(st), clrs_last_error());
        clReleaseCommandQueue(q2);
    } else {
        tap_skip("could not create a second OpenCL context");
    }
    if (other)
        clReleaseContext(other);
    st = clrs_context_create_from_cl(&wrap, cl_ctx, dev, NULL);
    tap_ok(st == CLRS_ERR_NULL_POINTER && wrap == NULL &&
               strstr(clrs_last_error(), "queue"),
           "create_from_cl with a NULL queue: %s", clrs_status_name(st));
}

static int has_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle), i;
    for (; *hay; ++hay) {
        for (i = 0; i < n; ++i)
            if (tolower((unsigned char)hay[i]) !=
                tolower((unsigned char)needle[i]))
                break;
        if (i == n)
            return 1;
    }
    return 0;
}

static void selectors(const clrs_device_info *first)
{
    clrs_context *ctx = NULL;
    clrs_device_info info;
    clrs_status st;
    char sub[8], idx[32];
    size_t i, n;

    /* The first listed device's own "P:D": 0:0 only where the first
     * platform has a device (Mesa's Clover, and rusticl unless
     * RUSTICL_ENABLE names a driver, list none). */
    snprintf(idx, sizeof idx, "%u:%u", first->platform_index,
             first->device_index);
    st = clrs_context_create(&ctx, idx);
    tap_ok(st == CLRS_SUCCESS, "selector \"%s\": %s %s", idx,
           clrs_status_name(st), clrs_last_error());
    if (ctx) {
        clrs_context_get_device_info(ctx, &info);
        tap_ok(info.platform_index == first->platform_index &&
                   info.device_index == first->device_index &&
                   strcmp(info.device_name, first->device_name) == 0,
               "\"%s\" opens the first listed device", idx);
        clrs_context_destroy(ctx);
        ctx = NULL;
    }

    /* A piece of the first device's name in upper case: matching is by
     * case-insensitive substring. */
    n = strlen(first->device_name);
    if (n > 4)
        n = 4;
    for (i = 0; i < n; ++i)
        sub[i] = (char)toupper((unsigned char)first->device_name[i]);
    sub[n] = '\0';
    st = clrs_context_create(&ctx, sub);
    tap_ok(st == CLRS_SUCCESS, "selector \"%s\" (name substring): %s %s",
           sub, clrs_status_name(st), clrs_last_error());
    if (ctx) {
        clrs_context_get_device_info(ctx, &info);
        tap_ok(has_nocase(info.device_name, sub) ||
                   has_nocase(info.platform_name, sub),
               "substring selector opened \"%s\"", info.device_name);
        clrs_context_destroy(ctx);
        ctx = NULL;
    }

    /* "" is a substring of every name: accepted, it would open the first
     * device whatever the caller meant. NULL is how to ask for that. */
    st = clrs_context_create(&ctx, "");
    tap_ok(st == CLRS_ERR_INVALID_VALUE && ctx == NULL &&
               strstr(clrs_last_error(), "empty"),
           "selector \"\": %s \"%s\"", clrs_status_name(st),
           clrs_last_error());
    clrs_context_destroy(ctx);
    ctx = NULL;

    st = clrs_context_create(&ctx, "99:0");
    tap_ok(st == CLRS_ERR_NO_DEVICE && ctx == NULL &&
               strstr(clrs_last_error(), "99:0"),
           "selector \"99:0\": %s \"%s\"", clrs_status_name(st),
           clrs_last_error());
    st = clrs_context_create(&ctx, "~nomatch");
    tap_ok(st == CLRS_ERR_NO_DEVICE && ctx == NULL &&
               strstr(clrs_last_error(), "~nomatch"),
           "selector \"~nomatch\": %s \"%s\"", clrs_status_name(st),
           clrs_last_error());
}

/* NULL selector reads CLRS_DEVICE; the caller's value is restored. */
static void env_selector(void)
{
    const char *old = getenv("CLRS_DEVICE");
    char *saved = NULL;
    clrs_context *ctx = NULL;
    clrs_status st;

    if (old) {
        saved = malloc(strlen(old) + 1);
        strcpy(saved, old);
    }
    setenv("CLRS_DEVICE", "~nomatch-env", 1);
    st = clrs_context_create(&ctx, NULL);
    tap_ok(st == CLRS_ERR_NO_DEVICE && ctx == NULL &&
               strstr(clrs_last_error(), "~nomatch-env"),
           "CLRS_DEVICE=~nomatch-env: %s \"%s\"", clrs_status_name(st),
           clrs_last_error());
    clrs_context_destroy(ctx);
    if (saved)
        setenv("CLRS_DEVICE", saved, 1);
    else
        unsetenv("CLRS_DEVICE");
    free(saved);
}

int main(void)
{
    clrs_device_info *infos;
    clrs_cache_stats stats;
    clrs_context *ctx = NULL;
    clrs_status st;
    size_t count = 0, again = 0, i;

    st = clrs_list_devices(NULL, 0, &count);
    if (st != CLRS_SUCCESS || count == 0)
        tap_skip_all("no OpenCL device");
    /* A device exists, so the default context must open (CLRS_DEVICE, if
     * the caller set it, must name a device). */
    st = clrs_context_create(&ctx, NULL);
    tap_ok(st == CLRS_SUCCESS && ctx != NULL, "default context: %s %s",
           clrs_status_name(st), clrs_last_error());
    if (!ctx)
        return tap_done();
    env_selector();

    infos = calloc(count, sizeof *infos);
    st = clrs_list_devices(infos, count, &again);
    tap_ok(st == CLRS_SUCCESS && again == count,
           "list_devices finds %zu device(s)", count);
    for (i = 0; i < count; ++i)
        tap_diag("%u:%u %s / %s / %s fp64=%d fp16=%d",
                 infos[i].platform_index, infos[i].device_index,
                 infos[i].platform_name, infos[i].device_name,
                 infos[i].device_version, infos[i].has_fp64,
                 infos[i].has_fp16);
    tap_ok(infos[0].device_name[0] != '\0' &&
               infos[0].platform_name[0] != '\0',
           "the first device has a name and a platform name");
    st = clrs_list_devices(infos, 0, &again);
    tap_ok(st == CLRS_SUCCESS && again == count,
           "capacity 0 still counts every device");
    /* The default is the first listed device, whatever platforms without
     * devices the ICD loader reports before it. */
    if (!getenv("CLRS_DEVICE")) {
        clrs_device_info def;
        clrs_context_get_device_info(ctx, &def);
        tap_ok(def.platform_index == infos[0].platform_index &&
                   def.device_index == infos[0].device_index,
               "the default context opens the first listed device, %u:%u "
               "(got %u:%u)",
               infos[0].platform_index, infos[0].device_index,
               def.platform_index, def.device_index);
    } else {
        tap_skip("CLRS_DEVICE is set: the default is the device it names");
    }

    st = clrs_context_get_cache_stats(ctx, &stats);
    tap_ok(st == CLRS_SUCCESS && stats.memory_hits == 0 &&
               stats.disk_hits == 0 && stats.builds == 0,
           "cache stats readable (no cache yet: all zero)");
    tap_ok(clrs_context_last_error(ctx)[0] == '\0',
           "a fresh context has no detail message");
    tap_ok(clrs_context_last_error(NULL) != NULL,
           "last_error(NULL) is a string");

    wrap_caller_objects(ctx);
    selectors(&infos[0]);
    per_thread_messages(ctx);

    clrs_context_destroy(ctx);
    clrs_context_destroy(NULL);
    free(infos);
    return tap_done();
}
