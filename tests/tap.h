/* A small TAP producer for the test programs, read by automake's
 * tap-driver.sh. Header-only: each test program includes it once. */
#ifndef CLRS_TAP_H
#define CLRS_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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

#endif /* CLRS_TAP_H */
