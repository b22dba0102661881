/* clresample tool: the expansion of a descriptor's knobs, each a comma
 * list, into one problem per combination, with its repro line, less the
 * problems --match leaves out. */
#include "parse.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bound on the problems of one command line, counted before
 * anything is expanded (a problem is about 2 KB). */
#define MAX_PROBLEMS 100000

static int push_problem(cli_prb_list *l, const cli_prb *p)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        cli_prb *nv = realloc(l->v, cap * sizeof *nv);
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = cap;
    }
    l->v[l->n] = *p;
    l->v[l->n].index = (int)l->n;
    ++l->n;
    return 0;
}

/* Splits a comma list into pooled pieces. */
int split(const char *list, const char **parts, int max)
{
    int n = 0;
    const char *p = list;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (n >= max)
            return -1;
        parts[n] = pool_dup(p, len);
        if (!parts[n])
            return -1;
        ++n;
        if (!c)
            break;
        p = c + 1;
    }
    return n;
}

/* Whether one more descriptor, expanded over every combination of the
 * knobs' lists, would take the problem count past MAX_PROBLEMS: counted,
 * so the refusal costs nothing. */
static int too_many(const state *s, const int *count, char *err)
{
    uint64_t n = 1;
    int i;

    for (i = 0; i < NKNOBS; ++i) {
        n *= (uint64_t)count[i];
        if (n > MAX_PROBLEMS)
            break; /* 64^NKNOBS would overflow: stop counting */
    }
    if (n + s->out->n <= MAX_PROBLEMS)
        return 0;
    if (i < NKNOBS)
        return fail(err, "the comma lists make more than %d combinations "
                    "for this descriptor; at most %d problems in all",
                    MAX_PROBLEMS, MAX_PROBLEMS);
    return fail(err, "%llu combinations for this descriptor after %zu "
                "problems: more than %d problems in all; shorten the comma "
                "lists", (unsigned long long)n, s->out->n, MAX_PROBLEMS);
}

int expand(state *s, const char *tok, const cli_desc_raw *raw)
{
    const char *parts[NKNOBS][MAX_LIST];
    int count[NKNOBS], pick[NKNOBS], i;
    char err[ERRSZ];

    for (i = 0; i < NKNOBS; ++i) {
        count[i] = split(s->val[i], parts[i], MAX_LIST);
        if (count[i] < 0)
            return usage_error(s, tok, "out of memory");
        pick[i] = 0;
    }
    if (too_many(s, count, err) != 0)
        return usage_error(s, tok, err);
    for (;;) {
        cli_prb p;
        size_t used = 0;
        char shape[sizeof p.shape];

        memset(&p, 0, sizeof p);
        opts_defaults(&p.o);
        for (i = 0; i < NKNOBS; ++i)
            if (knob_apply(&knobs[i], parts[i][pick[i]], &p.o, err) != 0)
                return usage_error(s, tok, err); /* checked earlier */
        /* An image library's method name under its preset. */
        if (p.o.vendor >= 0 &&
            clrs__method_find(p.o.vendor, p.o.alg_name) >= 0) {
            p.o.method = clrs__method_find(p.o.vendor, p.o.alg_name);
            p.o.alg = (int)clrs__methods[p.o.method].mode;
        } else if (p.o.alg == ALG_METHOD) {
            char names[256];
            clrs__method_names(p.o.vendor, names, sizeof names);
            if (clrs__vendor_has_methods(p.o.vendor))
                snprintf(err, sizeof err,
                         "--alg=%s is not a method of this --vendor (its: "
                         "%s)",
                         p.o.alg_name, names);
            else
                snprintf(err, sizeof err,
                         "--alg=%s is a method of an image library: give "
                         "--vendor=pillow, opencv or tensorflow with it",
                         p.o.alg_name);
            return usage_error(s, tok, err);
        }
        if (p.o.alg == ALG_AUTO)
            p.o.alg = p.o.filter >= 0                ? ALG_FILTER
                      : cli_desc_raw_has_window(raw) ? ALG_MAX
                                                     : ALG_NEAREST;
        if (p.o.n_translate && (!p.o.n_scales || p.o.n_offsets)) {
            snprintf(err, sizeof err,
                     "--translate takes --scales and no --offsets "
                     "(ScaleAndTranslate's scale and translation)");
            return usage_error(s, tok, err);
        }
        if (p.o.filter >= 0 && p.o.alg != ALG_FILTER) {
            snprintf(err, sizeof err, "--filter is for --alg=filter, not %s",
                     cli_alg_name(p.o.alg));
            return usage_error(s, tok, err);
        }
        if (cli_desc_resolve(raw, &p.o, &p.d, err, sizeof err) != 0)
            return usage_error(s, tok, err);
        p.g = s->g;
        cli_desc_format(&p.d, shape, sizeof shape);
        snprintf(p.shape, sizeof p.shape, "%s", shape);
        /* The repro names the direction, algorithm and every knob that
         * differs from its default, so the line reruns this one problem. */
        used += (size_t)snprintf(p.repro + used, sizeof p.repro - used,
                                 "--dir=%s --alg=%s", cli_dir_name(p.o.dir),
                                 cli_opts_alg_name(&p.o));
        for (i = 2; i < NKNOBS && used < sizeof p.repro; ++i)
            if (strcmp(parts[i][pick[i]], knobs[i].def) != 0)
                used += (size_t)snprintf(p.repro + used,
                                         sizeof p.repro - used, " --%s=%s",
                                         knobs[i].name, parts[i][pick[i]]);
        if (p.g.engine == ENGINE_REF && used < sizeof p.repro)
            used += (size_t)snprintf(p.repro + used, sizeof p.repro - used,
                                     " --engine=ref");
        if (used < sizeof p.repro)
            snprintf(p.repro + used, sizeof p.repro - used, " %s", shape);
        if (p.o.tag->refused)
            snprintf(p.skip, sizeof p.skip, "--tag=%s: %s",
                     parts[TAG_KNOB][pick[TAG_KNOB]], p.o.tag->refused);
        if (s->has_match && regexec(&s->match, p.repro, 0, NULL, 0) != 0) {
            ++s->run->left_out; /* --match: not a problem of this run */
            goto next;
        }
        if (p.o.tag->rank && p.o.tag->rank != p.d.nsp + 2) {
            snprintf(err, sizeof err, "--tag=%s needs a %d-D tensor; this "
                     "descriptor is %d-D", p.o.tag->name, p.o.tag->rank,
                     p.d.nsp + 2);
            return usage_error(s, tok, err);
        }
        if (push_problem(s->out, &p) != 0)
            return usage_error(s, tok, "out of memory");
    next:

        /* Odometer over the knob lists, last knob fastest. */
        for (i = NKNOBS - 1; i >= 0; --i) {
            if (++pick[i] < count[i])
                break;
            pick[i] = 0;
        }
        if (i < 0)
            return 0;
    }
}
