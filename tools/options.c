/* clresample tool: the run-wide options, how to run rather than what:
 * their name lists, defaults and table, and --match's patterns. */
#include "parse.h"

#include <ctype.h>
#include <regex.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* ---- name lists and defaults ---- */

static const choice modes[] = {
    {"C", MODE_C}, {"P", MODE_P}, {"CP", MODE_C | MODE_P},
    {"PC", MODE_C | MODE_P}, {"R", MODE_R}, {"L", MODE_L},
    {"T", MODE_T | MODE_P}, {"CT", MODE_C | MODE_T | MODE_P},
    {"TC", MODE_C | MODE_T | MODE_P}, {NULL, 0}};
static const choice engines[] = {
    {"device", ENGINE_DEVICE}, {"ref", ENGINE_REF}, {NULL, 0}};
static const choice templates[] = {
    {"def", TPL_DEF}, {"csv", TPL_CSV}, {"json", TPL_JSON}, {NULL, 0}};

void global_defaults(cli_global *g, int keep_run_knobs)
{
    cli_global old = *g;
    memset(g, 0, sizeof *g);
    g->mode = MODE_C;
    g->engine = ENGINE_DEVICE;
    g->max_ms = 3000;
    g->tune_ms = 5000;
    g->fix_times = 0;
    g->cold_cache = 0;
    g->seed = 1;
    if (keep_run_knobs) {
        g->mode = old.mode;
        g->engine = old.engine;
        g->max_ms = old.max_ms;
        g->tune_ms = old.tune_ms;
        g->fix_times = old.fix_times;
        g->cold_cache = old.cold_cache;
        g->seed = old.seed;
    }
}

void clear_match(state *s)
{
    if (s->has_match)
        regfree(&s->match);
    s->has_match = 0;
}

/* ---- --match ---- */

/* What --match takes: a regular expression whose compiled form stays
 * small. glibc's regcomp copies the operand of every '+' and of an
 * interval {m,n} once per repetition, so stacked or nested ones grow
 * exponentially (a pattern of fifty '+' exhausts memory), and a
 * repetition of a repeated atom ("a?+", nine '?' then five '+') took a
 * second to compile; patterns pick problems by name and need neither
 * many '+', nor intervals, nor stacked repetitions. At most 256
 * characters and 8 unescaped '+' outside bracket expressions, no
 * interval, no '?', '*' or '+' right after another, and no
 * back-reference (glibc's extension, whose matching backtracks).
 * Returns 0, or -1 with the reason in err. */
#define MATCH_MAX_LEN 256
#define MATCH_MAX_PLUS 8
static int match_pattern_ok(const char *v, char *err)
{
    const char *p = v;
    int plus = 0, repeated = 0; /* the last token a '?', '*' or '+' */

    if (strlen(v) > MATCH_MAX_LEN)
        return fail(err, "a --match pattern has at most %d characters",
                    MATCH_MAX_LEN);
    while (*p) {
        if (*p == '\\' && isdigit((unsigned char)p[1]))
            return fail(err, "--match takes no back-reference (\\%c: "
                        "matching one can take exponential time)", p[1]);
        if (*p == '\\' && p[1]) {
            p += 2;
            repeated = 0;
            continue;
        }
        if (*p == '[') { /* a bracket expression: ']' first is literal */
            repeated = 0;
            ++p;
            if (*p == '^')
                ++p;
            if (*p == ']')
                ++p;
            while (*p && *p != ']')
                ++p;
            if (*p)
                ++p;
            continue;
        }
        if (*p == '{')
            return fail(err, "--match takes no interval {m,n} (its "
                        "compiled form grows with each repetition); "
                        "spell the repetition out");
        if (*p == '+' && ++plus > MATCH_MAX_PLUS)
            return fail(err, "--match takes at most %d '+' (each copies "
                        "its operand when compiled); use '*'",
                        MATCH_MAX_PLUS);
        if (*p == '?' || *p == '*' || *p == '+') {
            if (repeated)
                return fail(err, "--match takes no repetition of a "
                            "repetition (%c%c: its compiled form grows "
                            "with each); use one", p[-1], *p);
            repeated = 1;
        } else {
            repeated = 0;
        }
        ++p;
    }
    return 0;
}

/* ---- the run-wide option table ---- */

/* Knobs about how to run, not what: not expanded, not in the repro. Each
 * row names its option, how its value is read, the range it must lie in
 * and where it goes. */
typedef enum gkind {
    G_CHOICE, /* one of choices (nocase: in any case) into an int */
    G_MS,     /* milliseconds in (0, hi] into a double */
    G_INT,    /* an integer in [lo, hi] into an int or a 64-bit integer */
    G_PATH,   /* a file name into a pooled string; "" is none */
    G_CUSTOM  /* the row's function */
} gkind;

/* Which structure a row's value goes to (G_NONE: checked, then dropped). */
typedef enum gdest { G_NONE, G_GLOBAL, G_RUN } gdest;

typedef int (*global_fn)(state *s, const char *tok, const char *v);

struct global_opt {
    const char *name;
    gkind kind;
    const choice *choices; /* G_CHOICE */
    int nocase;            /* G_CHOICE */
    int64_t lo, hi;        /* G_INT; G_MS's upper bound in hi */
    const char *empty;     /* G_PATH: the message for "", NULL: it is none */
    gdest dest;
    size_t off, size;      /* the destination field in it */
    global_fn fn;          /* G_CUSTOM */
};

/* The choice destinations are int-sized enumerations, stored as int. */
typedef char global_enum_size_check[sizeof(cli_engine) == sizeof(int) &&
                                    sizeof(cli_template) == sizeof(int)
                                    ? 1 : -1];

/* --batch=FILE: its tokens, read now. */
static int set_batch(state *s, const char *tok, const char *v)
{
    if (!*v)
        return usage_error(s, tok, "needs a file name");
    return read_batch(s, v, tok);
}

/* --device=P:D or ~substring. */
static int set_device(state *s, const char *tok, const char *v)
{
    const char *sel = v[0] == '~' ? v + 1 : v;
    if (!*sel)
        return usage_error(s, tok, "empty device selector (P:D or "
                           "~substring)");
    s->run->device = pool_dup(sel, strlen(sel));
    return 0;
}

/* --match=REGEX: the problems it finds nothing in are left out; "" keeps
 * every problem. */
static int set_match(state *s, const char *tok, const char *v)
{
    char err[ERRSZ];
    int e;
    clear_match(s);
    if (!*v)
        return 0; /* benchdnn's default: every problem */
    if (match_pattern_ok(v, err) != 0)
        return usage_error(s, tok, err);
    e = regcomp(&s->match, v, REG_EXTENDED | REG_NOSUB);
    if (e != 0) {
        char why[200];
        regerror(e, &s->match, why, sizeof why);
        snprintf(err, sizeof err, "not a regular expression: %s", why);
        return usage_error(s, tok, err);
    }
    s->has_match = 1;
    return 0;
}

/* --preset=VENDOR: the default --vendor from here on, kept by --reset: a
 * whole benchdnn file (each starts with --reset) under one preset. */
static int set_preset(state *s, const char *tok, const char *v)
{
    char err[ERRSZ];
    int x;
    if (find_choice(vendors, v, 0, &x) != 0)
        return fail_choice(err, v, vendors), usage_error(s, tok, err);
    s->preset = x < 0 ? NULL : pool_dup(v, strlen(v));
    if (x >= 0 && !s->preset)
        return usage_error(s, tok, "out of memory");
    s->val[VENDOR_KNOB] = s->preset ? s->preset : knobs[VENDOR_KNOB].def;
    return 0;
}

#define GOFF(f)                                                              \
    G_GLOBAL, offsetof(cli_global, f), sizeof(((cli_global *)0)->f)
#define ROFF(f) G_RUN, offsetof(cli_run, f), sizeof(((cli_run *)0)->f)
static const global_opt globals[] = {
    {"batch", G_CUSTOM, NULL, 0, 0, 0, NULL, G_NONE, 0, 0, set_batch},
    {"mode", G_CHOICE, modes, 1, 0, 0, NULL, GOFF(mode), NULL},
    {"engine", G_CHOICE, engines, 0, 0, 0, NULL, GOFF(engine), NULL},
    {"perf-template", G_CHOICE, templates, 0, 0, 0, NULL, ROFF(tpl), NULL},
    {"max-ms-per-prb", G_MS, NULL, 0, 0, 3600000, NULL, GOFF(max_ms), NULL},
    {"cold-cache", G_CHOICE, bools, 0, 0, 0, NULL, GOFF(cold_cache), NULL},
    {"tune-ms", G_MS, NULL, 0, 0, 3600000, NULL, GOFF(tune_ms), NULL},
    {"fix-times-per-prb", G_INT, NULL, 0, 0, 100000000, NULL, GOFF(fix_times),
     NULL},
    {"seed", G_INT, NULL, 0, 0, INT64_MAX, NULL, GOFF(seed), NULL},
    {"device", G_CUSTOM, NULL, 0, 0, 0, NULL, G_NONE, 0, 0, set_device},
    {"verbose", G_INT, NULL, 0, 0, 10, NULL, ROFF(verbose), NULL},
    {"src-file", G_PATH, NULL, 0, 0, 0, NULL, GOFF(src_file), NULL},
    {"dst-file", G_PATH, NULL, 0, 0, 0, NULL, GOFF(dst_file), NULL},
    {"diff-dst-file", G_PATH, NULL, 0, 0, 0, NULL, GOFF(diff_dst_file), NULL},
    {"diff-src-file", G_PATH, NULL, 0, 0, 0, NULL, GOFF(diff_src_file), NULL},
    {"ws-file", G_PATH, NULL, 0, 0, 0, NULL, GOFF(ws_file), NULL},
    {"match", G_CUSTOM, NULL, 0, 0, 0, NULL, G_NONE, 0, 0, set_match},
    {"preset", G_CUSTOM, NULL, 0, 0, 0, NULL, G_NONE, 0, 0, set_preset},
    /* benchdnn's switch for tags outside oneDNN's enumeration: every tag
     * this tool knows is taken either way. */
    {"allow-enum-tags-only", G_CHOICE, bools, 0, 0, 0, NULL, G_NONE, 0, 0,
     NULL},
    {"plot", G_PATH, NULL, 0, 0, 0, "needs a file name (--plot=FILE.svg)",
     ROFF(plot), NULL},
    {"roofline", G_CHOICE, bools, 0, 0, 0, NULL, ROFF(roofline), NULL},
};
#undef GOFF
#undef ROFF
#define NGLOBALS ((int)(sizeof globals / sizeof globals[0]))

/* The run-wide option called name, or NULL. */
const global_opt *global_find(const char *name)
{
    int i;
    for (i = 0; i < NGLOBALS; ++i)
        if (strcmp(globals[i].name, name) == 0)
            return &globals[i];
    return NULL;
}

/* Copies size bytes from value into the row's destination field. */
static void global_store(state *s, const global_opt *g, const void *value)
{
    unsigned char *base = g->dest == G_RUN ? (unsigned char *)s->run
                                           : (unsigned char *)&s->g;
    if (g->dest != G_NONE)
        memcpy(base + g->off, value, g->size);
}

/* Reads v as the run-wide option name says; -1 when name is none. */
int do_global(state *s, const char *tok, const char *name,
                     const char *v)
{
    const global_opt *g = global_find(name);
    char err[ERRSZ];
    int x;
    int64_t n;
    double d;

    if (!g)
        return -1; /* not a global knob */
    switch (g->kind) {
    case G_CHOICE:
        if (find_choice(g->choices, v, g->nocase, &x) != 0)
            return fail_choice(err, v, g->choices), usage_error(s, tok, err);
        global_store(s, g, &x);
        return 0;
    case G_MS:
        if (parse_double(v, &d, err) != 0)
            return usage_error(s, tok, err);
        if (d <= 0 || d > (double)g->hi) {
            snprintf(err, sizeof err, "must be in (0, %lld] ms",
                     (long long)g->hi);
            return usage_error(s, tok, err);
        }
        global_store(s, g, &d);
        return 0;
    case G_INT:
        if (parse_int(v, g->lo, g->hi, &n, err) != 0)
            return usage_error(s, tok, err);
        if (g->size == sizeof n) {
            global_store(s, g, &n);
        } else {
            x = (int)n;
            global_store(s, g, &x);
        }
        return 0;
    case G_PATH: {
        const char *c = *v ? pool_dup(v, strlen(v)) : NULL;
        if (!*v && g->empty)
            return usage_error(s, tok, g->empty);
        if (*v && !c)
            return usage_error(s, tok, "out of memory");
        global_store(s, g, &c);
        return 0;
    }
    case G_CUSTOM:
        return g->fn(s, tok, v);
    }
    return -1;
}
