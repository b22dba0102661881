/* clresample tool: what the files that run one problem share (job.c,
 * build.c, host.c, device.c, check.c, perf.c, run.c): the job, its
 * tensors, and each step's entry points. Not for the rest of the tool,
 * which sees cli.h's cli_run_problem. */
#ifndef CLRS_TOOL_JOB_H
#define CLRS_TOOL_JOB_H

#include "cli.h"

#include <stddef.h>
#include <stdint.h>

/* Roles of the tensors a problem touches. */
/* T_POST + i: the operand of binary post-op i. */
enum { T_SRC, T_DST, T_INDEX, T_DIFF_DST, T_DIFF_SRC, T_POST,
       T_COUNT = T_POST + CLRS_MAX_POST_OPS };
/* "src", "dst", ..., "post_op3": the roles in messages. */
extern const char *const role_names[T_COUNT];

typedef struct tensor {
    clrs_tensor_desc *d;     /* in the problem's tag */
    clrs_tensor_desc *dense; /* abx twin, for the reference engine's oracle */
    clrs_dtype dt;
    size_t bytes;
    int64_t elems;
    void *host;  /* engine's copy: inputs, or outputs read back */
    void *exp;   /* oracle output (outputs only) */
    void *dhost; /* dense copy for the reference engine */
    void *init;  /* dst under a sum post-op: its values before the run */
    cl_mem mem;
    int used, is_output;
    int poisoned; /* an output that starts as poison alone (not an input
                     too): device_setup fills it on the device */
} tensor;

typedef struct job {
    const cli_prb *p;
    cli_env *env;
    cli_result *r;
    clrs_resample_desc *op;
    tensor t[T_COUNT];
    int rank;
    int backward;
    clrs_plan *plan;
    cl_mem workspace; /* --attr-scratchpad=user: the plan's workspace */
    double *bound; /* the error model's, per output element (check) */
} job;

/* ---- job.c: status, library errors, the clock ---- */

/* The problem's status, with the detail fmt says (on one line). */
void set_status(cli_result *r, cli_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The context of the problem being run, for error details. */
extern const clrs_context *lib_ctx;
/* A library error as the problem's status, naming what failed. */
void lib_status(cli_result *r, clrs_status st, const char *what);
/* The monotonic clock in ms. */
double now_ms(void);

/* ---- build.c: the library's descriptors ---- */

/* j->op from the problem's knobs; -1 with the status set. */
int build_op(job *j);
/* The tensors' descriptors, the post-ops and the index tensor; -1 with
 * the status set. */
int build_tensors(job *j);
/* Whether the problem has a sum post-op (dst is read, then written). */
int has_sum(const job *j);

/* ---- host.c: host buffers, fills, .npy files, digests ---- */

/* Host buffers of every tensor; -1 with the status set (SKIPPED). */
int host_alloc(job *j);
/* Fills bytes of buf with a value no output may keep: NaN, or a byte
 * pattern for integers. */
void poison(void *buf, clrs_dtype dt, size_t bytes);
/* Inputs filled (or read from their files), outputs poisoned. */
int fill_inputs(job *j);
/* Copies logical elements between two layouts of one shape. */
void relayout(const clrs_tensor_desc *sd, int sblocked, const void *src,
              const clrs_tensor_desc *dd, int dblocked, void *dst,
              clrs_dtype dt);
/* r->digest over the bytes of the outputs, in role order. */
void digest_outputs(job *j);
/* The outputs the .npy file knobs ask for; -1 with the status set. */
int write_outputs(job *j);

/* ---- device.c: buffers, plan, execute, read back ---- */

/* Sets j's status FAILED for an OpenCL error of what; returns -1. */
int cl_fail(job *j, cl_int err, const char *what);
/* Device buffers of every tensor, written from the host's. */
int device_setup(job *j);
/* One execute of j->plan, its last event in ev. */
clrs_status device_execute(job *j, cl_event *ev);
/* The outputs read back into the host buffers. */
int device_read_outputs(job *j);
/* j->plan, its build time, cache source and launch into the result. */
int device_plan(job *j);

/* ---- check.c: the CPU reference and the check ---- */

/* The reference over the host tensors (dense: their abx copies;
 * into_exp: outputs into exp, with the error bounds). */
clrs_status run_reference(job *j, int dense, int into_exp);
/* The outputs against the reference: PASSED, or FAILED with the worst
 * points. */
void check(job *j);

/* ---- perf.c: timing ---- */

/* r->bytes: what one run reads and writes. */
void perf_bytes(job *j);
/* The fastest GB/s the device could reach for the problem, 0 when not
 * measured. */
double gbps_limit(const job *j);
/* The timed runs on the device, or of the reference engine. */
int perf_device(job *j);
int perf_reference(job *j);

#endif /* CLRS_TOOL_JOB_H */
