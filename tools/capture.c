/* clresample tool: what OpenCL compilers print straight to the process's
 * stderr while the tool builds kernels. PoCL's (clang's) driver writes
 * "N warnings generated." there, with no file or problem to name; the
 * diagnostics themselves are in the build log, which the library keeps
 * (clrs_plan_get_build_log) and the tool reports per problem. So stderr
 * is captured around each build: those count lines are dropped, anything
 * else is passed on unchanged. */
#include "cli.h"

#include <regex.h>
#include <string.h>
#include <unistd.h>

/* One temporary file for the whole run, emptied before each capture. */
static FILE *capture_file;

void cli_capture_begin(cli_capture *c)
{
    c->saved = -1;
    if (!capture_file && (capture_file = tmpfile()) == NULL)
        return; /* no capture: the output simply stays as it is */
    if (ftruncate(fileno(capture_file), 0) != 0)
        return;
    rewind(capture_file);
    fflush(stderr);
    c->saved = dup(STDERR_FILENO);
    if (c->saved >= 0 &&
        dup2(fileno(capture_file), STDERR_FILENO) < 0) {
        close(c->saved);
        c->saved = -1;
    }
}

/* clang's closing count ("1 warning generated.", "2 warnings and 1 error
 * generated."), and nothing else. */
static int count_line(const char *s)
{
    static regex_t re;
    static int ready; /* 1 compiled, -1 failed */

    if (!ready)
        ready = regcomp(&re,
                        "^[0-9]+ (warnings?|errors?|warnings? and [0-9]+ "
                        "errors?) generated\\.\n?$",
                        REG_EXTENDED | REG_NOSUB) == 0
                    ? 1
                    : -1;
    return ready == 1 && regexec(&re, s, 0, NULL, 0) == 0;
}

void cli_capture_end(cli_capture *c)
{
    char line[1024];
    int at_start = 1;

    if (c->saved < 0)
        return;
    fflush(stderr);
    dup2(c->saved, STDERR_FILENO);
    close(c->saved);
    c->saved = -1;
    rewind(capture_file);
    /* Lines longer than the buffer come in pieces: only a piece that
     * starts a line can be a count line. */
    while (fgets(line, sizeof line, capture_file)) {
        if (!(at_start && count_line(line)))
            fputs(line, stderr);
        at_start = strchr(line, '\n') != NULL;
    }
    fflush(stderr);
}
