/* clresample tool: what OpenCL compilers print straight to the process's
 * stderr while the tool builds kernels. PoCL's (clang's) driver writes
 * "N warnings generated." there, with no file or problem to name; the
 * diagnostics themselves are in the build log, which the library keeps
 * (clrs_plan_get_build_log) and the tool reports per problem. So stderr
 * is captured around each build: those count lines are dropped, anything
 * else is passed on unchanged (the build's own failure is reported with
 * its log).
 *
 * A capture must never hide a failure. A process that dies while stderr
 * points at the capture file (a sanitizer's report ends in _exit, a
 * driver crashes, the kernel kills it) would take the report with it, so
 * a watcher process, forked at the first capture, holds the real stderr
 * and the capture file and waits for the tool to end (the end of a pipe
 * only the tool writes): if it ended while capturing, the watcher prints
 * what was captured. Without a watcher nothing is captured. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One temporary file for the whole run, emptied before each capture. */
static FILE *capture_file;
/* The pipe to the watcher, written 'B' as a capture begins and 'E' once
 * it is passed on; closed only by the tool's end. */
static int alive_fd = -1;
/* 1 watching, -1 no watcher could be started (no capture). */
static int watch_state;

static void write_out(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

/* The watcher: only async-signal-safe calls (it is forked from a process
 * whose OpenCL driver runs threads). */
static void watch(int alive, int cap, int err_fd)
{
    static const char head[] =
        "clresample: the process ended while creating a plan; what it "
        "printed to stderr meanwhile follows\n";
    static const char none[] =
        "clresample: the process ended while creating a plan, and printed "
        "nothing meanwhile\n";
    char buf[4096], state = 'E', last = '\n';
    struct stat st;
    off_t off = 0;
    ssize_t r;

    for (;;) {
        r = read(alive, buf, sizeof buf);
        if (r > 0)
            state = buf[r - 1];
        else if (r == 0 || errno != EINTR)
            break;
    }
    if (state != 'B')
        _exit(0);
    if (fstat(cap, &st) != 0 || st.st_size == 0) {
        write_out(err_fd, none, sizeof none - 1);
        _exit(0);
    }
    write_out(err_fd, head, sizeof head - 1);
    while (off < st.st_size && (r = pread(cap, buf, sizeof buf, off)) > 0) {
        write_out(err_fd, buf, (size_t)r);
        last = buf[r - 1];
        off += r;
    }
    if (last != '\n')
        write_out(err_fd, "\n", 1);
    _exit(0);
}

/* The capture file and the watcher, once; 1 when capturing is safe. */
static int watcher_ready(void)
{
    struct sigaction ign;
    int alive[2];
    long max, fd;
    pid_t pid;

    if (watch_state)
        return watch_state > 0;
    watch_state = -1;
    if ((capture_file = tmpfile()) == NULL)
        return 0;
    if (pipe(alive) != 0)
        return 0;
    max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536)
        max = 65536;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    pid = fork();
    if (pid == 0) {
        int cap = fileno(capture_file);
        /* Nothing but its three descriptors: no pipe or lock of the
         * tool's stays open on its account. */
        for (fd = 0; fd < max; ++fd)
            if (fd != alive[0] && fd != cap && fd != STDERR_FILENO)
                close((int)fd);
        /* A terminal's Ctrl-C is the tool's to act on: the watcher
         * outlives it by the moment it takes to say what was captured. */
        sigaction(SIGINT, &ign, NULL);
        sigaction(SIGQUIT, &ign, NULL);
        sigaction(SIGPIPE, &ign, NULL);
        watch(alive[0], cap, STDERR_FILENO);
    }
    close(alive[0]);
    if (pid < 0) {
        close(alive[1]);
        return 0;
    }
    /* Held until the tool ends; never inherited by what it runs. */
    (void)fcntl(alive[1], F_SETFD, FD_CLOEXEC);
    alive_fd = alive[1];
    watch_state = 1;
    return 1;
}

void cli_capture_begin(cli_capture *c)
{
    c->saved = -1;
    if (!watcher_ready())
        return; /* no capture: the output simply stays as it is */
    if (ftruncate(fileno(capture_file), 0) != 0)
        return;
    rewind(capture_file);
    fflush(stderr);
    c->saved = dup(STDERR_FILENO);
    if (c->saved < 0)
        return;
    write_out(alive_fd, "B", 1);
    if (dup2(fileno(capture_file), STDERR_FILENO) < 0) {
        write_out(alive_fd, "E", 1);
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
    /* Cleared only now: a death while passing it on shows it twice
     * rather than never. */
    write_out(alive_fd, "E", 1);
}
