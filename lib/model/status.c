/* Status codes, their names and messages (expanded from CLRS_STATUS_MAP),
 * the per-thread detail message, and the version calls. */
#include "model/internal.h"

#include <stdio.h>
#include <string.h>

static CLRS_THREAD_LOCAL char thread_msg[CLRS_ERRMSG_MAX];

const char *clrs_status_name(clrs_status status)
{
    switch (status) {
#define NAME_(name, code, msg)                                               \
    case CLRS_##name:                                                        \
        return "CLRS_" #name;
        CLRS_STATUS_MAP(NAME_)
#undef NAME_
    default:
        return "CLRS_UNKNOWN_STATUS";
    }
}

const char *clrs_status_string(clrs_status status)
{
    switch (status) {
#define STR_(name, code, msg)                                                \
    case CLRS_##name:                                                        \
        return msg;
        CLRS_STATUS_MAP(STR_)
#undef STR_
    default:
        return "unknown status code";
    }
}

clrs_status clrs__verror(clrs_status status, const char *fmt, va_list ap)
{
    vsnprintf(thread_msg, sizeof thread_msg, fmt, ap);
    return status;
}

clrs_status clrs__error(clrs_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    clrs__verror(status, fmt, ap);
    va_end(ap);
    return status;
}

void clrs__clear_error(void) { thread_msg[0] = '\0'; }

const char *clrs__thread_error(void) { return thread_msg; }

const char *clrs_last_error(void) { return thread_msg; }

int clrs_version(void) { return CLRS_VERSION; }

const char *clrs_version_string(void) { return CLRS_VERSION_STRING; }
