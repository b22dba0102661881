/* Device helpers for the OpenCL tests: one context per program, device
 * buffers with sentinel margins on both sides of the tensor, poison before
 * every run, and a forward run that checks what the kernel wrote. */
#ifndef CLRS_TEST_DEVUTIL_H
#define CLRS_TEST_DEVUTIL_H

#include "util.h"

#include <stddef.h>

/* Bytes of sentinel pattern after the tensor; the head margin is at least
 * this and a multiple of the device's base address alignment. */
#define TD_MARGIN 256

/* The program's device: opened once, shared by every case (plans and the
 * program cache live in it). */
typedef struct td_env {
    clrs_context *ctx; /* the one plans are made on: main, or generic */
    clrs_context *main;
    clrs_context *generic; /* td_generic's, made at its first use */
    cl_context cl;
    cl_device_id dev;
    cl_command_queue queue;
    clrs_device_info info;
    size_t head; /* head margin in bytes (0 if sub-buffers failed) */
    /* Counters for the closing diagnostics. */
    unsigned plans, runs, slow_runs;
    double plan_s, run_s, slow_run_s;
} td_env;

/* Opens the context. With no device: "1..0 # SKIP no OpenCL device" and
 * exit(0); any other failure: "Bail out!" and exit(1). */
void td_open(td_env *e);
/* Prints timing and cache counters as "# ..." and destroys the context. */
void td_close(td_env *e);
/* A second context over e's OpenCL context, device and queue, made while
 * the environment variable name is value (the library reads its
 * environment once per context): its plans see that setting and run on
 * e's buffers. "Bail out!" on a failure. */
clrs_context *td_context_with(td_env *e, const char *name, const char *value);
/* Plans made on e->ctx from now on get the generic kernels (on 1:
 * td_context_with CLRS_GENERIC=1, made once, destroyed by td_close) or
 * the default ones again (on 0). */
void td_generic(td_env *e, int on);
/* The device's kind alone among CPU, GPU and accelerator (0 for a device
 * that reports several or none, Oclgrind), and whether it is an Intel
 * CPU (vendor id 0x8086): the library's device class cpu-intel
 * (lib/gen/launch.c), whose defaults some tests expect. */
cl_device_type td_device_kind(const td_env *e);
int td_intel_cpu(const td_env *e);

/* A device copy of a tensor: parent = [head | span | tail]; `mem` is the
 * sub-buffer starting at the tensor (what the library gets). */
typedef struct td_buf {
    const tu_buf *layout; /* host buffer of the same descriptor: not owned */
    cl_mem parent, mem;
    size_t head, span, total;
    unsigned char *sent; /* image last written to the device */
    unsigned char *img;  /* image last read back */
} td_buf;

int td_buf_create(td_env *e, td_buf *d, const tu_buf *layout);
void td_buf_release(td_buf *d);

/* Uploads `src`'s tensor span between the sentinel margins. */
int td_write_input(td_env *e, td_buf *d, const tu_buf *src);
/* Fills the whole buffer: margins with the sentinel pattern, the span with
 * poison `pattern` (0 or 1: two different NaNs / byte patterns). */
int td_write_poison(td_env *e, td_buf *d, int pattern);
/* Reads the whole buffer into d->img; copies the span into into->data
 * (into may be NULL) so tu_get sees the device's values. */
int td_read(td_env *e, td_buf *d, tu_buf *into);

/* Number of bytes anywhere in the buffer that differ from what was sent,
 * printing the first as "# what: ...". */
size_t td_check_input(const td_buf *d, const char *what);
/* Margins and non-logical gap bytes as sent, and no logical element still
 * holding poison `pattern` (unless `expected`, if given, holds exactly
 * those bytes there too). Returns the number of problems, printing the
 * first of each kind. */
size_t td_check_output(const td_buf *d, int pattern, const tu_buf *expected,
                       const char *what);

/* The poison bit pattern of one element (8 bytes at most). */
void td_poison_elem(unsigned char *p, clrs_dtype dt, int pattern);

/* What a forward run saw; the caller turns it into TAP lines. */
typedef struct td_result {
    clrs_status plan_status; /* clrs_plan_create_forward */
    clrs_status exec_status; /* first failing clrs_execute, or SUCCESS */
    int cl_error;            /* an OpenCL call of the helper failed */
    size_t integrity;        /* margin, gap, unwritten, changed-input */
    size_t nondeterministic; /* logical bytes differing between runs */
} td_result;

/* 1 if everything in r is fine. */
int td_result_ok(const td_result *r);
/* One "# ..." line per problem in r. */
void td_result_print(const td_result *r, const td_env *e);

/* Plans op and runs it twice on the device, poison pattern 0 then 1 in
 * dst and index; dst and index (host) receive the first run's output.
 * expected_* (reference outputs, may be NULL) only decide whether a
 * value equal to the poison counts as written. Returns td_result_ok. */
int td_forward(td_env *e, const clrs_resample_desc *op, const tu_buf *src,
               tu_buf *dst, tu_buf *index, const tu_buf *expected_dst,
               const tu_buf *expected_index, td_result *res);

/* td_forward with post-ops: operands[i] (the array and its entries may
 * be NULL) is uploaded as binary post-op i's operand and checked
 * unchanged after each run; dst_init (may be NULL), for a sum post-op,
 * is written to dst before each run instead of poison. */
int td_forward_post(td_env *e, const clrs_resample_desc *op,
                    const tu_buf *src, tu_buf *dst, tu_buf *index,
                    const tu_buf *expected_dst, const tu_buf *expected_index,
                    const tu_buf *const *operands, const tu_buf *dst_init,
                    td_result *res);

/* Plans op backward and runs it twice: diff_dst (and index or src, may
 * be NULL) uploaded once, diff_src poisoned with pattern 0 then 1, or,
 * when diff_src_init is given (accumulate mode), set to it before each
 * run. diff_src (host) receives the first run's output. expected (may
 * be NULL) only decides whether a value equal to the poison counts as
 * written. Returns td_result_ok. */
int td_backward(td_env *e, const clrs_resample_desc *op,
                const tu_buf *diff_dst, tu_buf *diff_src, const tu_buf *index,
                const tu_buf *src, const tu_buf *diff_src_init,
                const tu_buf *expected, td_result *res);

/* The error model of clresample(3) TOLERANCES over a whole output: the
 * device's got against the reference's want, element by element with
 * clrs_reference_agrees and bound (from clrs_reference_*_bound: one per
 * logical element in row-major order; NULL compares exactly). Prints the
 * first four mismatches as "# what(idx): ..."; returns their count.
 * worst (may be NULL) gets the largest |got - want| / bound among the
 * elements that agree without being equal. */
int64_t td_compare(const tu_buf *got, const tu_buf *want,
                   const double *bound, const char *what, double *worst);
/* A zeroed bound array for the logical elements of b (NULL: out of
 * memory). */
double *td_bound_alloc(const tu_buf *b);

#endif /* CLRS_TEST_DEVUTIL_H */
