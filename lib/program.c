/* The context's program map: configuration key -> built cl_program, so the
 * second plan of a kind costs a lookup instead of a compile. Builds run
 * outside the lock; two threads racing on one key keep the first result. */
#include "program.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct clrs_prog_entry {
    char *key; /* the full key is compared: no hash collisions possible */
    cl_program program;
    struct clrs_prog_entry *next;
};

void clrs__program_cache_free(clrs_context *ctx)
{
    struct clrs_prog_entry *e = ctx->programs, *next;
    for (; e; e = next) {
        next = e->next;
        clReleaseProgram(e->program);
        free(e->key);
        free(e);
    }
    ctx->programs = NULL;
}

/* Retained program of key, or NULL; call with ctx->lock held. */
static cl_program find(clrs_context *ctx, const char *key)
{
    struct clrs_prog_entry *e;
    for (e = ctx->programs; e; e = e->next)
        if (strcmp(e->key, key) == 0) {
            clRetainProgram(e->program);
            return e->program;
        }
    return NULL;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* 64-bit FNV-1a: a short, stable file name for a key. */
static uint64_t fnv1a(const char *s)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (; *s; ++s)
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return h;
}

/* CLRS_DUMP_SOURCE=dir: every generated source as dir/clrs-<hash>.cl. A
 * dump that cannot be written fails the plan: the user asked for it. */
static clrs_status dump_source(const char *key, const char *source)
{
    const char *dir = getenv("CLRS_DUMP_SOURCE");
    char path[4096];
    FILE *f;
    int ok;

    if (!dir || !*dir)
        return CLRS_SUCCESS;
    snprintf(path, sizeof path, "%s/clrs-%016llx.cl", dir,
             (unsigned long long)fnv1a(key));
    f = fopen(path, "w");
    CLRS_CHECK(f != NULL, CLRS_ERR_INVALID_VALUE,
               "CLRS_DUMP_SOURCE: cannot write %s: %s", path,
               strerror(errno));
    ok = fputs(source, f) >= 0;
    ok = fclose(f) == 0 && ok;
    CLRS_CHECK(ok, CLRS_ERR_INVALID_VALUE,
               "CLRS_DUMP_SOURCE: cannot write %s", path);
    return CLRS_SUCCESS;
}

/* The build log's first lines into the error message: enough to see the
 * first diagnostic, which is the one that matters. */
static clrs_status build_error(clrs_context *ctx, cl_program prog,
                               cl_int err, const char *key)
{
    char log[384] = "";
    size_t n = 0;

    if (clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, 0,
                              NULL, &n) == CL_SUCCESS &&
        n > 0) {
        char *full = malloc(n + 1);
        if (full && clGetProgramBuildInfo(prog, ctx->device,
                                          CL_PROGRAM_BUILD_LOG, n, full,
                                          NULL) == CL_SUCCESS) {
            full[n] = '\0';
            snprintf(log, sizeof log, "%s", full);
        }
        free(full);
    }
    return clrs__error(CLRS_ERR_BUILD_FAILED,
                       "clBuildProgram failed (%s) for [%.80s]: %s",
                       clrs__cl_error_name(err), key, log);
}

static clrs_status build(clrs_context *ctx, const char *key,
                         const char *source, const char *options,
                         cl_program *out)
{
    cl_program prog;
    cl_int err;
    double t0 = now_ms();

    prog = clCreateProgramWithSource(ctx->cl_ctx, 1, &source, NULL, &err);
    if (err != CL_SUCCESS)
        return clrs__cl_error(err, "clCreateProgramWithSource");
    err = clBuildProgram(prog, 1, &ctx->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        clrs_status st = build_error(ctx, prog, err, key);
        clReleaseProgram(prog);
        return st;
    }
    pthread_mutex_lock(&ctx->lock);
    ctx->stats.builds++;
    ctx->stats.build_ms += now_ms() - t0;
    pthread_mutex_unlock(&ctx->lock);
    *out = prog;
    return CLRS_SUCCESS;
}

clrs_status clrs__program_get(clrs_context *ctx, const char *key,
                              clrs_source_fn gen, const void *arg,
                              const char *options, cl_program *program)
{
    struct clrs_prog_entry *e;
    cl_program prog, other;
    char *source = NULL;
    clrs_status st;

    *program = NULL;
    pthread_mutex_lock(&ctx->lock);
    prog = find(ctx, key);
    if (prog)
        ctx->stats.memory_hits++;
    pthread_mutex_unlock(&ctx->lock);
    if (prog) {
        *program = prog;
        return CLRS_SUCCESS;
    }

    CLRS_TRY(gen(arg, key, &source));
    st = dump_source(key, source);
    if (st == CLRS_SUCCESS)
        st = build(ctx, key, source, options, &prog);
    free(source);
    if (st < 0)
        return st;

    e = malloc(sizeof *e);
    if (e)
        e->key = malloc(strlen(key) + 1);
    if (!e || !e->key) {
        /* Still usable, just not kept for the next plan. */
        free(e);
        *program = prog;
        return CLRS_SUCCESS;
    }
    strcpy(e->key, key);
    pthread_mutex_lock(&ctx->lock);
    other = find(ctx, key);
    if (!other) {
        e->program = prog;
        e->next = ctx->programs;
        ctx->programs = e;
        clRetainProgram(prog); /* the map's reference */
    }
    pthread_mutex_unlock(&ctx->lock);
    if (other) { /* another thread won the race: use its program */
        clReleaseProgram(prog);
        free(e->key);
        free(e);
        prog = other;
    }
    *program = prog;
    return CLRS_SUCCESS;
}
