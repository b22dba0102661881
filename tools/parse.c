/* clresample tool: the command line. Each token in turn, from argv or
 * --batch files: a problem knob's comma list (knobs.c), a run-wide option
 * (options.c), a flag, or a descriptor, expanded at once (expand.c), so
 * that a bad token costs no device time. */
#include "parse.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- parser state ---- */

/* Every knob at its default (--preset's --vendor kept), no --match;
 * keep_run_knobs: as global_defaults. */
static void state_reset(state *s, int keep_run_knobs)
{
    int i;
    for (i = 0; i < NKNOBS; ++i)
        s->val[i] = knobs[i].def;
    if (s->preset)
        s->val[VENDOR_KNOB] = s->preset;
    global_defaults(&s->g, keep_run_knobs);
    clear_match(s);
}

/* ---- one token ---- */

/* A descriptor: every problem of it, expanded now. */
static int do_descriptor(state *s, const char *tok)
{
    char err[ERRSZ];
    cli_desc_raw raw;

    if (tok[0] == '-')
        return usage_error(s, tok, "unknown option (knobs are "
                           "--name=value)");
    if (!cli_desc_is_candidate(tok))
        return usage_error(s, tok, "neither a knob (--name=value) nor a "
                           "problem descriptor (mb2ic16ih10oh20...)");
    if (cli_desc_parse(tok, &raw, err, sizeof err) != 0)
        return usage_error(s, tok, err);
    return expand(s, tok, &raw);
}

/* Flags without a value, each setting one int of cli_run (--reset aside). */
static const struct flag {
    const char *name;
    size_t off;
    int value;
} flags[] = {
    {"roofline", offsetof(cli_run, roofline), 1},
    {"list-devices", offsetof(cli_run, list_devices), 1},
    {"cache-bench", offsetof(cli_run, cache_bench), 1},
    {"cache-bench-child", offsetof(cli_run, cache_bench), 2}, /* internal */
    {"version", offsetof(cli_run, version), 1},
    {"help", offsetof(cli_run, help), 1},
};

/* --name without '=': a flag, or a knob whose value is missing. */
static int do_flag(state *s, const char *tok, const char *name)
{
    char err[ERRSZ];
    size_t f;
    int i;

    if (strcmp(name, "reset") == 0) {
        state_reset(s, 1);
        return 0;
    }
    for (f = 0; f < sizeof flags / sizeof flags[0]; ++f)
        if (strcmp(name, flags[f].name) == 0) {
            memcpy((unsigned char *)s->run + flags[f].off, &flags[f].value,
                   sizeof flags[f].value);
            return 0;
        }
    snprintf(err, sizeof err, "needs a value: --%s=...", name);
    for (i = 0; i < NKNOBS; ++i)
        if (strcmp(name, knobs[i].name) == 0)
            return usage_error(s, tok, err);
    if (global_find(name))
        return usage_error(s, tok, err);
    return usage_error(s, tok, "unknown option");
}

/* A problem knob's comma list: every item is checked now, so a typo
 * stops the run before anything runs; expansion happens per descriptor.
 * An empty value or item is refused, but for --attr-post-ops, where as
 * in benchdnn it is the problem without post-ops ("--attr-post-ops=,sum"):
 * kept as "none", the default, so that the repro line leaves it out. */
static int do_knob(state *s, const char *tok, int k, const char *v)
{
    const char *parts[MAX_LIST];
    const int empty_ok = k == POST_OPS_KNOB;
    char err[ERRSZ], *list, *w;
    cli_opts scratch;
    size_t len = 0;
    int n, j;

    if (!*v && !empty_ok)
        return usage_error(s, tok, "empty value");
    n = split(v, parts, MAX_LIST);
    if (n < 0)
        return usage_error(s, tok, "more than 64 comma-separated values");
    for (j = 0; j < n; ++j)
        len += strlen(*parts[j] ? parts[j] : knobs[k].def) + 1;
    list = malloc(len);
    if (!list)
        return usage_error(s, tok, "out of memory");
    opts_defaults(&scratch);
    for (j = 0, w = list; j < n; ++j) {
        const char *e = *parts[j] ? parts[j] : knobs[k].def;
        if (!*parts[j] && !empty_ok) {
            free(list);
            return usage_error(s, tok, "empty item in the comma list");
        }
        if (knob_apply(&knobs[k], e, &scratch, err) != 0) {
            free(list);
            return usage_error(s, tok, err);
        }
        w += sprintf(w, "%s%s", j ? "," : "", e);
    }
    s->val[k] = pool_dup(list, strlen(list));
    free(list);
    return s->val[k] ? 0 : usage_error(s, tok, "out of memory");
}

/* One token: a flag, a knob, a run-wide option or a descriptor. */
static int do_token(state *s, const char *tok)
{
    char name[64];
    const char *eq, *v;
    size_t nlen;
    int i, rc;

    if (tok[0] == '-' && tok[1] == 'v' && tok[2] == '\0') {
        s->run->verbose = 1;
        return 0;
    }
    if (strncmp(tok, "--", 2) != 0)
        return do_descriptor(s, tok);
    eq = strchr(tok, '=');
    nlen = eq ? (size_t)(eq - tok - 2) : strlen(tok + 2);
    if (nlen == 0 || nlen >= sizeof name)
        return usage_error(s, tok, "unknown option");
    memcpy(name, tok + 2, nlen);
    name[nlen] = '\0';
    v = eq ? eq + 1 : NULL;

    if (!v)
        return do_flag(s, tok, name);
    for (i = 0; i < NKNOBS; ++i)
        if (strcmp(name, knobs[i].name) == 0)
            return do_knob(s, tok, i, v);
    rc = do_global(s, tok, name, v);
    if (rc == -1)
        return usage_error(s, tok, "unknown option");
    return rc;
}

int cli_parse(int argc, char **argv, cli_prb_list *out, cli_run *run)
{
    state s;
    int i, rc = 0;

    memset(&s, 0, sizeof s);
    memset(run, 0, sizeof *run);
    memset(out, 0, sizeof *out);
    s.run = run;
    s.out = out;
    s.token = do_token;
    state_reset(&s, 0);
    for (i = 1; i < argc; ++i) {
        rc = do_token(&s, argv[i]);
        if (rc != 0)
            break;
    }
    clear_match(&s);
    return rc;
}

void cli_free_problems(cli_prb_list *l)
{
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
    pool_free();
}

void cli_usage(FILE *f)
{
    int i;
    fprintf(f, "usage: clresample [KNOBS] DESC... [--batch=FILE]...\n"
               "A knob applies to the descriptors after it; comma lists expand "
               "to every\ncombination. See clresample(1).\n\n"
               "  --mode=C|P|CP|R|L|T|CT  correctness, performance, both, run "
               "only, list,\n"
               "                          tune then time (T), with a check "
               "(CT)\n"
               "  --engine=device|ref     run the library's plans (default) or "
               "its CPU reference\n"
               "  --device=P:D|~name      device (default: CLRS_DEVICE, else "
               "the first)\n"
               "  --list-devices --version --help\n"
               "  --max-ms-per-prb=MS --fix-times-per-prb=N --roofline\n"
               "  --cold-cache=true|false flush the device's cache before "
               "each timed run (false)\n"
               "  --tune-ms=MS            tuning budget per plan (5000)\n"
               "  --cache-bench           time cold/warm/hot first use of the "
               "first problem\n"
               "  --perf-template=def|csv|json  --seed=N  -v\n"
               "  --plot=FILE.svg         chart of the --mode=P timings "
               "(measures --roofline)\n"
               "  --src-file= --dst-file= --diff-dst-file= --diff-src-file= "
               "--ws-file= (.npy)\n"
               "  --reset  --batch=FILE\n"
               "problem knobs (default):\n");
    for (i = 0; i < NKNOBS; ++i)
        fprintf(f, "  --%s=%s\n", knobs[i].name, knobs[i].def);
    fprintf(f, "descriptor: mb2ic16ih10iw10oh20ow20; id/od for 3-D, iw/ow "
               "alone for 1-D;\n  pooling: kd kh kw, sd sh sw, pd ph pw, "
               "fractions as kh3d2; n\"name\"\n");
}

