/* A small TAP producer for the test programs, read by automake's
 * tap-driver.sh. Header-only: its functions are static, so a program
 * that includes it from two files (a test and tests/devutil.c) has two
 * counters; only the test's own file calls tap_ok. */
#ifndef CLRS_TAP_H
#define CLRS_TAP_H

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <execinfo.h>
#endif

static int tap_count_;
static int tap_failed_;

/* Prints "ok N - desc" or "not ok N - desc"; returns cond. */
static int tap_ok(int cond, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), unused));
static int tap_ok(int cond, const char *fmt, ...)
{
    va_list ap;
    ++tap_count_;
    if (!cond)
        ++tap_failed_;
    printf("%s %d - ", cond ? "ok" : "not ok", tap_count_);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    return cond;
}

/* "# ..." diagnostic line. */
static void tap_diag(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), unused));
static void tap_diag(const char *fmt, ...)
{
    va_list ap;
    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

/* The whole program is skipped: "1..0 # SKIP reason", exit 0. */
static void tap_skip_all(const char *reason) __attribute__((unused));
static void tap_skip_all(const char *reason)
{
    printf("1..0 # SKIP %s\n", reason);
    fflush(stdout);
    exit(0);
}

static void tap_skip(const char *reason) __attribute__((unused));
static void tap_skip(const char *reason)
{
    ++tap_count_;
    printf("ok %d # SKIP %s\n", tap_count_, reason);
    fflush(stdout);
}

/* The quick tier (CLRS_TEST_TIER=quick, make check's): each program runs
 * every feature, dtype, layout and variant at least once, not every
 * combination; anything else (make check-full, a program run by hand)
 * runs the whole test. */
static int tap_quick(void) __attribute__((unused));
static int tap_quick(void)
{
    const char *e = getenv("CLRS_TEST_TIER");
    return e && strcmp(e, "quick") == 0;
}

/* For a test about the one-pass kernels (their vector paths, their
 * builds): CLRS_LAUNCH gets sep=0 unless it says sep= itself, so that a
 * problem the library would split into separable passes stays whole. */
static void tap_single_pass(void) __attribute__((unused));
static void tap_single_pass(void)
{
    const char *e = getenv("CLRS_LAUNCH");
    char buf[512];

    if (e && strstr(e, "sep="))
        return;
    snprintf(buf, sizeof buf, "%s%ssep=0", e ? e : "", e && *e ? "," : "");
    setenv("CLRS_LAUNCH", buf, 1);
}

/* Prints the plan after the fact and returns the exit status. */
static int tap_done(void) __attribute__((unused));
static int tap_done(void)
{
    printf("1..%d\n", tap_count_);
    fflush(stdout);
    return tap_failed_ ? 1 : 0;
}

/* |got - want| <= tol * max(1, |want|) style checks live in the tests;
 * exact comparison of doubles that treats NaN == NaN: */
static int tap_same(double a, double b) __attribute__((unused));
static int tap_same(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return a == b;
}

/* A test program that dies of a signal says so in its TAP stream
 * ("Bail out!", which the harness reports as an error, naming the
 * signal: the points before it say where) and, with glibc, prints the
 * call stack on stderr; then it dies of the signal as before. Installed
 * before main; not under AddressSanitizer, whose own report says more. */
#if defined(__SANITIZE_ADDRESS__)
#define TAP_ASAN_ 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TAP_ASAN_ 1
#endif
#endif

#ifndef TAP_ASAN_
static void tap_put_(int fd, const char *s)
{
    if (write(fd, s, strlen(s)) < 0)
        return; /* nowhere left to say it */
}

/* Only async-signal-safe calls, but for glibc's backtrace, whose
 * library the installer below has loaded already. */
static void tap_crash_(int sig)
{
    char num[12];
    int n = (int)sizeof num - 1;
    unsigned v = (unsigned)sig;

    num[n] = '\0';
    do
        num[--n] = (char)('0' + v % 10);
    while ((v /= 10) != 0 && n > 0);
    tap_put_(1, "\nBail out! the test program died of signal ");
    tap_put_(1, num + n);
    tap_put_(1, sig == SIGSEGV   ? " (SIGSEGV)\n"
                : sig == SIGBUS  ? " (SIGBUS)\n"
                : sig == SIGFPE  ? " (SIGFPE)\n"
                : sig == SIGILL  ? " (SIGILL)\n"
                : sig == SIGABRT ? " (SIGABRT)\n"
                                 : "\n");
#if defined(__GLIBC__)
    {
        void *frames[64];
        const int k = backtrace(frames, 64);
        tap_put_(2, "# call stack:\n");
        backtrace_symbols_fd(frames, k, 2);
    }
#endif
    signal(sig, SIG_DFL);
    raise(sig);
}

static void tap_on_crash_(void) __attribute__((constructor));
static void tap_on_crash_(void)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    struct sigaction sa;
    size_t i;

#if defined(__GLIBC__)
    {
        void *frame[1];
        (void)backtrace(frame, 1); /* loads libgcc_s now, not in a crash */
    }
#endif
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = tap_crash_;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof sigs / sizeof sigs[0]; ++i)
        sigaction(sigs[i], &sa, NULL);
}
#endif

#endif /* CLRS_TAP_H */
