/* The program cache's policy: the context's map (key -> cl_program), then
 * the on-disk binaries (cache.c), then a source build that is stored. */
#include "rt/program.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How long a process waits for another one building the same key before
 * building it itself: about what a build takes here (twice this
 * context's mean build time), a fixed guess before its first build. A
 * holder that never finishes (a stopped process) then costs about one
 * build per missing kernel, not minutes. */
#define CLRS_LOCK_WAIT_FIRST_MS 2000.0
#define CLRS_LOCK_WAIT_MIN_MS 250.0
#define CLRS_LOCK_WAIT_MAX_MS 30000.0

static struct clrs_prog_entry *find(clrs_context *ctx, const char *key)
{
    struct clrs_prog_entry *e;
    for (e = ctx->programs; e; e = e->next)
        if (strcmp(e->key, key) == 0)
            return e;
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
 * debugging aid never fails a plan: a dump that cannot be written is said
 * once per process on stderr and once per context in its detail message,
 * and the plan goes on. */
static void dump_source(clrs_context *ctx, const char *key,
                        const char *source)
{
    static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER;
    static int said;
    const char *dir = ctx->env.dump_dir;
    char name[64], msg[CLRS_ERRMSG_MAX];
    int err, first;

    if (!dir)
        return;
    snprintf(name, sizeof name, "clrs-%016llx.cl",
             (unsigned long long)fnv1a(key));
    /* Like every file the library writes: a temporary file in the same
     * directory, renamed over the old one only when complete. */
    err = clrs__cache_write_file(dir, name, source, strlen(source));
    if (err == 0)
        return;
    snprintf(msg, sizeof msg,
             "CLRS_DUMP_SOURCE: cannot write %.300s/%s (%s); kernels are not "
             "dumped", dir, name, strerror(err));
    pthread_mutex_lock(&ctx->lock);
    first = !ctx->dump_warned;
    ctx->dump_warned = 1;
    pthread_mutex_unlock(&ctx->lock);
    if (first)
        clrs__ctx_note(ctx, msg);
    pthread_mutex_lock(&once);
    first = !said;
    said = 1;
    pthread_mutex_unlock(&once);
    if (first)
        fprintf(stderr, "clresample: warning: %s\n", msg);
}

const char *clrs__program_options(const clrs_context *ctx)
{
    return ctx->env.werror ? "-Werror" : "";
}

/* NVIDIA's OpenCL drivers (550 and later) log "(): Warning: Function
 * NAME is a kernel, so overriding noinline attribute. The function may
 * be inlined when called." for most kernels, whatever the source says
 * (ours never asks for noinline): it is not a diagnostic of the kernel,
 * and a log of it alone would read as a warning on every plan. Those
 * lines are dropped from the log in place. */
static void drop_driver_notices(char *log)
{
    static const char head[] = "(): Warning: Function ";
    static const char body[] = " is a kernel, so overriding noinline "
                               "attribute.";
    char *in = log, *out = log;

    while (*in) {
        char *end = strchr(in, '\n');
        size_t len = end ? (size_t)(end - in) + 1 : strlen(in);
        int notice = 0;

        if (strncmp(in, head, sizeof head - 1) == 0) { /* within the line */
            char *hit = strstr(in, body);
            notice = hit && (!end || hit < end);
        }
        if (!notice) {
            memmove(out, in, len);
            out += len;
        }
        in += len;
    }
    *out = '\0';
}

char *clrs__program_build_log(const clrs_context *ctx, cl_program prog)
{
    size_t n = 0;
    char *log;

    if (clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, 0,
                              NULL, &n) != CL_SUCCESS ||
        n == 0 || (log = malloc(n + 1)) == NULL)
        return NULL;
    if (clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, n,
                              log, NULL) != CL_SUCCESS)
        n = 0;
    log[n] = '\0';
    drop_driver_notices(log);
    /* Drivers end the log with newlines and NULs, or give only those. */
    n = strlen(log);
    while (n > 0 && isspace((unsigned char)log[n - 1]))
        log[--n] = '\0';
    if (n == 0) {
        free(log);
        return NULL;
    }
    return log;
}

/* The build log's first lines into the error message: enough to see the
 * first diagnostic, which is the one that matters. */
static clrs_status build_error(clrs_context *ctx, cl_program prog,
                               cl_int err, const char *key)
{
    char *log = clrs__program_build_log(ctx, prog);
    clrs_status st = clrs__error(CLRS_ERR_BUILD_FAILED,
                                 "clBuildProgram failed (%s) for [%.80s]: "
                                 "%.380s",
                                 clrs__cl_error_name(err), key,
                                 log ? log : "");
    free(log);
    return st;
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

/* ---- the disk layer ------------------------------------------------------ */

/* A string query, malloc'ed; "" when the driver does not answer (the key
 * then simply has an empty field). */
static char *query(cl_platform_id plat, cl_device_id dev, cl_uint param)
{
    size_t n = 0;
    cl_int err;
    char *s;

    err = dev ? clGetDeviceInfo(dev, param, 0, NULL, &n)
              : clGetPlatformInfo(plat, param, 0, NULL, &n);
    s = malloc(err == CL_SUCCESS ? n + 1 : 1);
    if (!s)
        return NULL;
    s[0] = '\0';
    if (err == CL_SUCCESS && n > 0) {
        err = dev ? clGetDeviceInfo(dev, param, n, s, NULL)
                  : clGetPlatformInfo(plat, param, n, s, NULL);
        s[err == CL_SUCCESS ? n : 0] = '\0';
    }
    return s;
}

/* The six platform and device fields of the key, full length (the
 * context's device info truncates them), NUL-separated in one block. */
static char *device_fields(clrs_context *ctx)
{
    char *v[6], *block = NULL;
    size_t len[6], total = 0, i;
    int ok = 1;

    v[0] = query(ctx->platform, NULL, CL_PLATFORM_NAME);
    v[1] = query(ctx->platform, NULL, CL_PLATFORM_VERSION);
    v[2] = query(NULL, ctx->device, CL_DEVICE_NAME);
    v[3] = query(NULL, ctx->device, CL_DEVICE_VENDOR);
    v[4] = query(NULL, ctx->device, CL_DEVICE_VERSION);
    v[5] = query(NULL, ctx->device, CL_DRIVER_VERSION);
    for (i = 0; i < 6; ++i) {
        ok = ok && v[i];
        len[i] = v[i] ? strlen(v[i]) + 1 : 0;
        total += len[i];
    }
    if (ok)
        block = malloc(total);
    if (block) {
        char *p = block;
        for (i = 0; i < 6; ++i) {
            memcpy(p, v[i], len[i]);
            p += len[i];
        }
    }
    for (i = 0; i < 6; ++i)
        free(v[i]);
    return block;
}

/* The disk layer's settings, directory and secret; on a failure the
 * layer stays off and note says why. Called once, under the lock. */
static void disk_setup(clrs_context *ctx, char *note, size_t note_size)
{
    clrs_cache_config *c = &ctx->disk;
    int err;

    *c = ctx->env.cache;
    if (c->relative) {
        snprintf(note, note_size,
                 "program cache: CLRS_CACHE_DIR '%.300s' is not an absolute "
                 "path; running without the on-disk cache",
                 c->dir);
        return;
    }
    if (!c->enabled)
        return;
    if ((err = clrs__cache_mkdir(c->dir)) != 0) {
        c->enabled = 0;
        snprintf(note, note_size,
                 "program cache: cannot create %.300s (%s); running "
                 "without the on-disk cache",
                 c->dir, strerror(err));
        return;
    }
    if ((err = clrs__cache_secret(c->dir, ctx->disk_secret)) != 0) {
        c->enabled = 0;
        snprintf(note, note_size,
                 "program cache: cannot write to %.300s (%s, creating its "
                 "secret); running without the on-disk cache",
                 c->dir, strerror(err));
        return;
    }
    /* Temp files of runs killed mid-write go before this one adds its
     * own. */
    clrs__cache_sweep(c->dir);
    ctx->disk_device = device_fields(ctx);
    if (!ctx->disk_device)
        c->enabled = 0; /* out of memory: just uncached */
}

/* Sets up the disk layer once per context; returns whether it is on. A
 * directory that cannot be created turns it off, said in note. */
static int disk_ready(clrs_context *ctx, char *note, size_t note_size)
{
    int on;

    pthread_mutex_lock(&ctx->lock);
    if (ctx->disk_state == 0) {
        ctx->disk_state = 1;
        disk_setup(ctx, note, note_size);
    }
    on = ctx->disk.enabled;
    pthread_mutex_unlock(&ctx->lock);
    return on;
}

/* The full key text of a program on this context's device. */
static char *disk_key(clrs_context *ctx, const char *source,
                      const char *options)
{
    clrs_cache_key_fields f;
    const char *p = ctx->disk_device;

    memset(&f, 0, sizeof f);
    f.format = CLRS_CACHE_FORMAT;
    f.library_version = CLRS_VERSION_STRING;
    f.source = source;
    f.options = options;
    f.platform_name = p;
    f.platform_version = p += strlen(p) + 1;
    f.device_name = p += strlen(p) + 1;
    f.device_vendor = p += strlen(p) + 1;
    f.device_version = p += strlen(p) + 1;
    f.driver_version = p += strlen(p) + 1;
    return clrs__cache_key_text(&f);
}

/* A program from a cached binary, or NULL when the driver rejects it
 * (CL_INVALID_BINARY, a failed build), said in note: the caller builds
 * from source and rewrites the entry. The bytes are the ones stored, at
 * their full length and with their digest, and the entry's MAC holds
 * (cache.c). */
static cl_program from_binary(clrs_context *ctx, const unsigned char *bin,
                              size_t size, const char *options,
                              const char *hash, char *note,
                              size_t note_size)
{
    cl_int err, status = CL_SUCCESS;
    double t0 = now_ms();
    cl_program prog;

    if (!bin || size == 0)
        return NULL;
    prog = clCreateProgramWithBinary(ctx->cl_ctx, 1, &ctx->device, &size,
                                     &bin, &status, &err);
    if (err != CL_SUCCESS || status != CL_SUCCESS) {
        if (prog)
            clReleaseProgram(prog);
        snprintf(note, note_size,
                 "program cache: the driver refused the binary of entry "
                 "%.16s... (%s); built from source instead",
                 hash, clrs__cl_error_name(err != CL_SUCCESS ? err : status));
        return NULL;
    }
    err = clBuildProgram(prog, 1, &ctx->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        clReleaseProgram(prog);
        snprintf(note, note_size,
                 "program cache: the driver could not build the binary of "
                 "entry %.16s... (%s); built from source instead",
                 hash, clrs__cl_error_name(err));
        return NULL;
    }
    pthread_mutex_lock(&ctx->lock);
    ctx->stats.disk_hits++;
    ctx->stats.load_ms += now_ms() - t0;
    pthread_mutex_unlock(&ctx->lock);
    return prog;
}

/* The cached program of a key, or NULL for any kind of miss; *refused
 * is set when the driver refused the stored binary (said in note). */
static cl_program disk_load(clrs_context *ctx, const char *hash,
                            const char *text, const char *options,
                            int *refused, char *note, size_t note_size)
{
    unsigned char *bin;
    size_t size;
    cl_program prog = NULL;

    if (clrs__cache_load(ctx->disk.dir, hash, text, ctx->disk_secret, &bin,
                         &size, NULL, 0) == CLRS_CACHE_HIT) {
        prog = from_binary(ctx, bin, size, options, hash, note, note_size);
        *refused = prog == NULL;
    }
    free(bin);
    return prog;
}

/* The device's binary of a built program (malloc'ed), or NULL. */
static unsigned char *program_binary(cl_program prog, size_t *size)
{
    unsigned char *bin;

    *size = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof *size, size,
                         NULL) != CL_SUCCESS ||
        *size == 0)
        return NULL;
    bin = malloc(*size);
    if (bin && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin,
                                NULL) != CL_SUCCESS) {
        free(bin);
        bin = NULL;
    }
    return bin;
}

/* Stores the binary of a freshly built program; returns whether it was
 * written. A failure of that entry alone (a directory in its place that
 * cannot be removed) skips it; one that means the directory cannot take
 * writes (read-only, no permission, full with nothing left to evict)
 * stops writing for this context. Either is said in note. */
static int disk_store(clrs_context *ctx, cl_program prog, const char *hash,
                      const char *text, char *note, size_t note_size)
{
    size_t size;
    unsigned char *bin = program_binary(prog, &size);
    int err, first = 0, entry;

    if (!bin)
        return 0;
    err = clrs__cache_store(ctx->disk.dir, hash, text, ctx->disk_secret, bin,
                            size, CLRS_CACHE_FORMAT);
    free(bin);
    entry = err != 0 && clrs__cache_entry_error(err);
    pthread_mutex_lock(&ctx->lock);
    if (err == 0)
        ctx->stats.disk_writes++;
    else if (!entry && !ctx->disk_readonly)
        ctx->disk_readonly = first = 1;
    pthread_mutex_unlock(&ctx->lock);
    if (err == 0)
        clrs__cache_evict(ctx->disk.dir, ctx->disk.max_bytes, hash);
    else if (entry)
        snprintf(note, note_size,
                 "program cache: cannot write the entry %.16s... in %.300s "
                 "(%s); that program is not cached",
                 hash, ctx->disk.dir, strerror(err));
    else if (first)
        snprintf(note, note_size,
                 "program cache: cannot write to %.300s (%s); running without "
                 "the on-disk cache",
                 ctx->disk.dir, strerror(err));
    return err == 0;
}

/* ---- lookup -------------------------------------------------------------- */

static int lock_wait_ms(clrs_context *ctx)
{
    double ms = CLRS_LOCK_WAIT_FIRST_MS;

    pthread_mutex_lock(&ctx->lock);
    if (ctx->stats.builds > 0)
        ms = 2.0 * ctx->stats.build_ms / (double)ctx->stats.builds;
    pthread_mutex_unlock(&ctx->lock);
    if (ms < CLRS_LOCK_WAIT_MIN_MS)
        ms = CLRS_LOCK_WAIT_MIN_MS;
    if (ms > CLRS_LOCK_WAIT_MAX_MS)
        ms = CLRS_LOCK_WAIT_MAX_MS;
    return (int)ms;
}

/* The disk's program for a key, or NULL. On a miss another process may
 * be building the key: wait for it (the lock, left in *lock until the
 * caller has stored its own build), then look again before compiling
 * (the PoCL pocl_write_file pattern, made a real lock). */
static cl_program disk_lookup(clrs_context *ctx, const char *hash,
                              const char *text, const char *options,
                              int *lock, char *note, size_t note_size)
{
    int refused = 0;
    cl_program prog = disk_load(ctx, hash, text, options, &refused, note,
                                note_size);

    if (prog)
        return prog;
    *lock = clrs__cache_lock(ctx->disk.dir, hash, lock_wait_ms(ctx));
    /* A binary the driver refused is not handed to it again: the source
     * is built and its binary replaces the entry. */
    if (*lock >= 0 && !refused)
        prog = disk_load(ctx, hash, text, options, &refused, note,
                         note_size);
    return prog;
}

/* A source build, its binary stored when the disk layer is on (text) and
 * writable; *source says whether it was. */
static clrs_status build_stored(clrs_context *ctx, const char *key,
                                const char *code, const char *options,
                                const char *hash, const char *text,
                                char *note, size_t note_size,
                                cl_program *prog, clrs_cache_source *source)
{
    clrs_status st = build(ctx, key, code, options, prog);
    int writable, stored = 0;

    pthread_mutex_lock(&ctx->lock);
    writable = text && !ctx->disk_readonly;
    pthread_mutex_unlock(&ctx->lock);
    if (st >= 0 && writable)
        stored = disk_store(ctx, *prog, hash, text, note, note_size);
    *source = stored ? CLRS_CACHE_BUILT : CLRS_CACHE_OFF;
    return st;
}

/* A memory miss: disk, else source. */
static clrs_status produce(clrs_context *ctx, const char *key,
                           clrs_source_fn gen, const void *arg,
                           const char *options, cl_program *out,
                           clrs_cache_source *source)
{
    char *code = NULL, *text = NULL, hash[65], note[CLRS_ERRMSG_MAX] = "";
    cl_program prog = NULL;
    clrs_status st;
    int lock = -1;

    CLRS_TRY(gen(arg, key, &code));
    dump_source(ctx, key, code);
    if (disk_ready(ctx, note, sizeof note))
        text = disk_key(ctx, code, options);
    if (text) {
        clrs__sha256_hex(text, strlen(text), hash);
        prog = disk_lookup(ctx, hash, text, options, &lock, note,
                           sizeof note);
    }
    if (prog) {
        *source = CLRS_CACHE_DISK;
        st = CLRS_SUCCESS;
    } else {
        st = build_stored(ctx, key, code, options, hash, text, note,
                          sizeof note, &prog, source);
    }
    clrs__cache_unlock(lock);
    free(text);
    free(code);
    if (note[0]) {
        /* Saved and restored: a failing build's message must survive. */
        char keep[CLRS_ERRMSG_MAX];
        snprintf(keep, sizeof keep, "%s", clrs__thread_error());
        clrs__ctx_note(ctx, note);
        clrs__error(CLRS_SUCCESS, "%s", keep);
    }
    if (st >= 0)
        *out = prog;
    return st;
}

clrs_status clrs__program_get_ex(clrs_context *ctx, const char *key,
                                 clrs_source_fn gen, const void *arg,
                                 const char *options, cl_program *program,
                                 clrs_cache_source *source)
{
    struct clrs_prog_entry *e, *mine = NULL, **pp;
    clrs_cache_source dummy;
    cl_program prog = NULL;
    clrs_status st;

    if (!source)
        source = &dummy;
    *program = NULL;
    pthread_mutex_lock(&ctx->lock);
    for (;;) {
        e = find(ctx, key);
        if (e && e->program) {
            clRetainProgram(e->program);
            prog = e->program;
            ctx->stats.memory_hits++;
            break;
        }
        if (!e)
            break;
        /* Another thread is building this key: its result is ours. If it
         * fails, the entry goes and the loop lets this thread try. */
        pthread_cond_wait(&ctx->built, &ctx->lock);
    }
    if (!prog) {
        /* Claim the key; without memory for the claim, build unshared. */
        mine = malloc(sizeof *mine);
        if (mine && (mine->key = malloc(strlen(key) + 1)) != NULL) {
            strcpy(mine->key, key);
            mine->program = NULL;
            mine->next = ctx->programs;
            ctx->programs = mine;
        } else {
            free(mine);
            mine = NULL;
        }
    }
    pthread_mutex_unlock(&ctx->lock);
    if (prog) {
        *source = CLRS_CACHE_MEMORY;
        *program = prog;
        return CLRS_SUCCESS;
    }

    st = produce(ctx, key, gen, arg, options, &prog, source);
    if (!mine) {
        if (st >= 0)
            *program = prog;
        return st;
    }
    pthread_mutex_lock(&ctx->lock);
    if (st >= 0) {
        mine->program = prog;
        clRetainProgram(prog); /* the map's reference */
    } else {
        for (pp = &ctx->programs; *pp != mine; pp = &(*pp)->next)
            ;
        *pp = mine->next;
    }
    pthread_cond_broadcast(&ctx->built);
    pthread_mutex_unlock(&ctx->lock);
    if (st < 0) {
        free(mine->key);
        free(mine);
        return st;
    }
    *program = prog;
    return CLRS_SUCCESS;
}

const char *clrs_cache_source_name(clrs_cache_source source)
{
    switch (source) {
    case CLRS_CACHE_MEMORY:
        return "memory";
    case CLRS_CACHE_DISK:
        return "disk";
    case CLRS_CACHE_BUILT:
        return "built";
    case CLRS_CACHE_OFF:
        return "off";
    }
    return NULL;
}
