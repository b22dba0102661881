/* The context's internal layout (device, OpenCL objects, per-thread detail
 * messages, cache counters) and the OpenCL error helpers shared by plans. */
#ifndef CLRS_CONTEXT_H
#define CLRS_CONTEXT_H

#include "rt/cache.h"
#include "gen/device.h"

#include <pthread.h>
#include <sys/stat.h>

/* Detail messages are kept per context and per thread. A context is used
 * by a handful of threads at a time, so a small table with eviction of the
 * oldest entry is enough; a thread whose entry was evicted sees "". */
#define CLRS_CTX_ERR_SLOTS 16

/* The tuner's budget for one plan unless clrs_context_set_tuning sets
 * one. */
#define CLRS_TUNE_BUDGET_MS 5000.0

typedef struct clrs_ctx_err {
    int used;
    pthread_t thread;
    unsigned long stamp; /* for least-recently-written eviction */
    char msg[CLRS_ERRMSG_MAX];
} clrs_ctx_err;

/* One built program of the context's map (program.c fills it; the
 * context frees it). */
struct clrs_prog_entry {
    char *key; /* the full key is compared: no hash collisions possible */
    cl_program program; /* NULL while one thread builds it */
    struct clrs_prog_entry *next;
};

/* One valid line of the tuning database (tunedb.c). */
typedef struct clrs_tdb_line {
    char cls[160];
    int bucket;
    char launch[128];
    double ms;
} clrs_tdb_line;

/* The tuning database as last read, and the identity of the file it was
 * read from: a file replaced since (a new inode: writes rename) or
 * changed is read again. */
typedef struct clrs_tdb_memo {
    int valid;
    char path[4200];
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    size_t n;
    clrs_tdb_line *v;
} clrs_tdb_memo;

/* The environment variables plans read, read once when the context is
 * created (read_env in context.c): setting one later changes nothing for
 * this context. CLRS_GENERIC and CLRS_FP16 are the device view's
 * (device.h), CLRS_TUNE is tune_mode, CLRS_DEVICE and
 * CLRS_TEST_NATIVE_WIDTH are read while the context is made. */
typedef struct clrs_env {
    char *launch;     /* CLRS_LAUNCH; NULL: unset or empty */
    char *dump_dir;   /* CLRS_DUMP_SOURCE; NULL: unset or empty */
    char *tuning_dir; /* CLRS_TUNING_DIR; NULL: unset */
    int werror;       /* CLRS_WERROR set and not "0" */
    /* CLRS_CACHE, CLRS_CACHE_DIR, XDG_CACHE_HOME, HOME, CLRS_CACHE_MAX_MB */
    clrs_cache_config cache;
} clrs_env;

struct clrs_context {
    cl_platform_id platform;
    cl_device_id device;
    cl_context cl_ctx;
    cl_command_queue queue;
    int device_retained; /* clRetainDevice done: release on destroy */

    /* Device facts read once, so plan creation never queries the driver
     * for them again. */
    clrs_device dev; /* what the lowering reads */
    cl_ulong max_alloc; /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    cl_uint address_bits;
    clrs_env env;
    clrs_tune_mode tune_mode; /* CLRS_TUNE, clrs_context_set_tuning */
    double tune_budget_ms; /* CLRS_TUNE_BUDGET_MS unless set */
    clrs_tdb_memo tdb; /* under lock */
    /* The database installed with the library for this device and
     * driver (tunedb.c), read once per context; under lock. */
    clrs_tdb_memo shipped;

    pthread_mutex_t lock; /* guards errs, err_clock, stats, programs, disk,
                             plans, destroyed */
    /* Lifetime: every plan holds a reference, so clrs_context_destroy with
     * plans alive only marks the context; the last plan's destroy frees
     * it (the OpenCL objects' own rule, clReleaseContext). */
    unsigned long plans;
    int destroyed;
    clrs_ctx_err errs[CLRS_CTX_ERR_SLOTS];
    unsigned long err_clock;
    clrs_cache_stats stats; /* filled by the program cache (program.c) */
    struct clrs_prog_entry *programs; /* built programs by key, under lock */
    /* Signalled when an entry being built is finished or dropped, so a
     * thread wanting the same key waits instead of building it again. */
    pthread_cond_t built;
    int built_init;

    /* The on-disk layer (program.c), set up at the first program miss:
     * 0 not yet, 1 done. disk.enabled is cleared when the directory
     * cannot be created; disk_readonly is set at the first failed write,
     * after which entries are still read but no longer written. */
    int disk_state;
    int disk_readonly;
    clrs_cache_config disk;
    char *disk_device; /* platform and device key fields (malloc'ed) */
    unsigned char disk_secret[CLRS_CACHE_SECRET_BYTES]; /* keys the MACs */
    int dump_warned; /* CLRS_DUMP_SOURCE could not be written: said once */
};

/* A plan's reference to its context: taken when the plan is made,
 * dropped by clrs_plan_destroy; dropping the last one of a context the
 * caller has destroyed frees it. */
void clrs__ctx_retain(clrs_context *ctx);
void clrs__ctx_release(clrs_context *ctx);

/* Stores msg as this thread's detail message on ctx without failing:
 * for the one-time notes of the program cache (running uncached). */
void clrs__ctx_note(clrs_context *ctx, const char *msg);

/* For st < 0, copies this thread's current detail message
 * (clrs__thread_error()) into ctx's slot for this thread; returns st.
 * ctx may be NULL. */
clrs_status clrs__ctx_error(clrs_context *ctx, clrs_status st);

/* "CL_INVALID_VALUE" for -30; "CL_UNKNOWN_ERROR" for a code not listed. */
const char *clrs__cl_error_name(cl_int err);
/* Records "<call> failed: CL_NAME (code)" and returns CLRS_ERR_OPENCL. */
clrs_status clrs__cl_error(cl_int err, const char *call);

#endif /* CLRS_CONTEXT_H */
