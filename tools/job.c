/* clresample tool: what every step of running one problem uses: the
 * tensors' role names, the problem's status and the library errors that
 * set it, the clock. */
#include "job.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

const char *const role_names[T_COUNT] = {
    "src", "dst", "index", "diff_dst", "diff_src",
    "post_op0", "post_op1", "post_op2", "post_op3"};

const char *cli_status_name(cli_status s)
{
    static const char *const n[ST_COUNT_] = {
        "PASSED", "FAILED", "SKIPPED", "UNIMPLEMENTED", "INVALID_ARGUMENTS",
        "EXECUTED", "LISTED"};
    return (unsigned)s < ST_COUNT_ ? n[s] : "?";
}

void set_status(cli_result *r, cli_status st, const char *fmt, ...)
{
    va_list ap;
    r->status = st;
    char *c;
    va_start(ap, fmt);
    vsnprintf(r->detail, sizeof r->detail, fmt, ap);
    va_end(ap);
    /* Build logs span lines; a status line must stay one line. */
    for (c = r->detail; *c; ++c)
        if (*c == '\n' || *c == '\r')
            *c = c[1] ? ' ' : '\0';
}

const clrs_context *lib_ctx;

/* A library error becomes the problem's status: missing features are
 * UNIMPLEMENTED, size limits SKIPPED, OpenCL trouble FAILED, and the rest
 * are arguments the library refused. */
void lib_status(cli_result *r, clrs_status st, const char *what)
{
    const char *msg = clrs_last_error();
    cli_status s;
    /* Calls on a context keep their detail there. */
    if (!msg[0] && lib_ctx)
        msg = clrs_context_last_error(lib_ctx);
    if (!msg[0])
        msg = clrs_status_string(st);
    switch (st) {
    case CLRS_ERR_NOT_IMPLEMENTED: s = ST_UNIMPLEMENTED; break;
    /* The device lacks what the problem needs (fp64): as benchdnn, a
     * skip with the reason, not a fault of the library. */
    case CLRS_ERR_UNSUPPORTED:
    case CLRS_ERR_TOO_LARGE:
    case CLRS_ERR_OUT_OF_MEMORY: s = ST_SKIPPED; break;
    case CLRS_ERR_OPENCL:
    case CLRS_ERR_BUILD_FAILED:
    case CLRS_ERR_NO_DEVICE: s = ST_FAILED; break;
    default: s = ST_INVALID; break;
    }
    set_status(r, s, "%s: %s: %s", what, clrs_status_name(st), msg);
}

double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
