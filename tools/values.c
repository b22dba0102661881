/* clresample tool: what every table of the command-line parser uses:
 * error messages, the number and name-list parsers, and the pool that
 * holds the strings problems point into. */
#include "parse.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- errors ---- */

int fail(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, ERRSZ, fmt, ap);
    va_end(ap);
    return -1;
}

int fail_choice(char *err, const char *v, const choice *c)
{
    size_t used = (size_t)snprintf(err, ERRSZ, "unknown value '%s' (one of",
                                   v);
    for (; c->name && used < ERRSZ; ++c)
        used += (size_t)snprintf(err + used, ERRSZ - used, " %s", c->name);
    if (used < ERRSZ)
        snprintf(err + used, ERRSZ - used, ")");
    return -1;
}

int usage_error(const state *s, const char *tok, const char *msg)
{
    if (s->where)
        fprintf(stderr, "clresample: %s: '%.200s': %s\n", s->where, tok,
                msg);
    else
        fprintf(stderr, "clresample: '%.200s': %s\n", tok, msg);
    fprintf(stderr, "clresample: run 'clresample --help' for the knobs\n");
    return CLI_EXIT_USAGE;
}

/* ---- value parsers ---- */

int find_choice(const choice *c, const char *v, int nocase, int *out)
{
    for (; c->name; ++c)
        if (nocase ? strcasecmp(c->name, v) == 0 : strcmp(c->name, v) == 0) {
            *out = c->value;
            return 0;
        }
    return -1;
}

int parse_double(const char *v, double *out, char *err)
{
    char *end;
    double x;
    errno = 0;
    x = strtod(v, &end);
    if (end == v || *end != '\0' || errno == ERANGE || !isfinite(x))
        return fail(err, "'%s' is not a finite number", v);
    *out = x;
    return 0;
}

int parse_int(const char *v, int64_t lo, int64_t hi, int64_t *out,
                     char *err)
{
    char *end;
    long long x;
    errno = 0;
    x = strtoll(v, &end, 10);
    if (end == v || *end != '\0' || errno == ERANGE || x < lo || x > hi)
        return fail(err, "'%s' is not an integer in [%lld, %lld]", v,
                    (long long)lo, (long long)hi);
    *out = (int64_t)x;
    return 0;
}

/* ---- the string pool ---- */

/* Every string the parser keeps lives in this pool until
 * cli_free_problems: problems point into it. */
static char **pool;
static size_t pool_n, pool_cap;

const char *pool_dup(const char *s, size_t n)
{
    char *c;
    if (pool_n == pool_cap) {
        size_t cap = pool_cap ? pool_cap * 2 : 64;
        char **np = realloc(pool, cap * sizeof *np);
        if (!np)
            return NULL;
        pool = np;
        pool_cap = cap;
    }
    c = malloc(n + 1);
    if (!c)
        return NULL;
    memcpy(c, s, n);
    c[n] = '\0';
    pool[pool_n++] = c;
    return c;
}

void pool_free(void)
{
    size_t i;
    for (i = 0; i < pool_n; ++i)
        free(pool[i]);
    free(pool);
    pool = NULL;
    pool_n = pool_cap = 0;
}
