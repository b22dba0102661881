/* clresample tool: the CPU reference, clrs_reference_*, and the check of
 * a problem's outputs against it within the error model's bounds
 * (clresample(3), TOLERANCES). */
#include "job.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reference ---- */

clrs_status run_reference(job *j, int dense, int into_exp)
{
    clrs_host_args h;
    tensor *t = j->t;
    int i;
    memset(&h, 0, sizeof h);
#define PICK(k) (dense ? t[k].dhost : (into_exp && t[k].is_output ? t[k].exp : t[k].host))
#define DESC(k) (t[k].used ? (dense ? t[k].dense : t[k].d) : NULL)
    if (!j->backward) {
        h.src = PICK(T_SRC);
        h.dst = PICK(T_DST);
        h.index = t[T_INDEX].used ? PICK(T_INDEX) : NULL;
        /* Operands keep the problem's layout on both engines: the op
         * holds their tagged descriptors. */
        for (i = 0; i < CLRS_MAX_POST_OPS; ++i)
            h.post_op[i] = t[T_POST + i].used ? t[T_POST + i].host : NULL;
        return clrs_reference_forward_bound(j->op, DESC(T_SRC), DESC(T_DST),
                                            DESC(T_INDEX), &h,
                                            into_exp ? j->bound : NULL);
    }
    h.diff_dst = PICK(T_DIFF_DST);
    h.diff_src = PICK(T_DIFF_SRC);
    h.index = t[T_INDEX].used ? PICK(T_INDEX) : NULL;
    h.src = t[T_SRC].used ? PICK(T_SRC) : NULL;
    return clrs_reference_backward_bound(
        j->op, DESC(T_DIFF_SRC), DESC(T_DIFF_DST), DESC(T_INDEX), DESC(T_SRC),
        &h, into_exp ? j->bound : NULL);
#undef PICK
#undef DESC
}

/* ---- check ---- */

typedef struct point {
    double bad; /* error / tolerance */
    int64_t idx[CLRS_MAX_RANK];
    double exp, got, diff, rdiff, bound;
    int role;
    int64_t lin; /* row-major position */
} point;
#define NWORST 5

/* The error model decides (clrs_reference_agrees, clresample(3)
 * TOLERANCES): the output's bound per element from the reference, 0 for
 * an index tensor (exact). Failures are ranked by their distance over
 * bound plus one spacing of the type. */
static void compare(job *j, int role, const void *exp,
                    const clrs_tensor_desc *ed, int eblocked, point *worst)
{
    tensor *t = &j->t[role];
    cli_result *r = j->r;
    cli_iter a, b;
    int k;
    const double *bound = role == T_INDEX ? NULL : j->bound;

    cli_iter_init(&a, t->d, j->p->o.tag->blocked);
    cli_iter_init(&b, ed, eblocked);
    cli_iter_memory_order(&a, &b);
    while (cli_iter_next(&a) && cli_iter_next(&b)) {
        double got = cli_load(t->host, t->dt, a.off);
        double e = cli_load(exp, t->dt, b.off);
        double bd = bound ? bound[a.lin] : 0;
        double diff = fabs(got - e), rdiff;
        if (isnan(e) || isnan(got))
            diff = rdiff = isnan(e) && isnan(got) ? 0 : INFINITY;
        else if (e == got)
            diff = rdiff = 0;
        else
            rdiff = fabs(e) > 0 ? diff / fabs(e) : diff;
        ++r->checked;
        if (diff > r->max_abs || isnan(diff))
            r->max_abs = diff;
        if (rdiff > r->max_rel)
            r->max_rel = rdiff;
        if (clrs_reference_agrees(t->dt, got, e, bd))
            continue;
        ++r->errors;
        {
            double bad = bd > 0 ? diff / bd : INFINITY;
            if (isnan(bad))
                bad = INFINITY;
            /* Keep the NWORST worst, the first in row-major order first
             * among equals (the walk may go in the memory's order). */
            for (k = 0; k < NWORST; ++k)
                if (worst[k].role < 0 || bad > worst[k].bad ||
                    (bad == worst[k].bad && worst[k].role == role &&
                     a.lin < worst[k].lin))
                    break;
            if (k < NWORST) {
                memmove(&worst[k + 1], &worst[k],
                        (size_t)(NWORST - 1 - k) * sizeof *worst);
                worst[k].bad = bad;
                memcpy(worst[k].idx, a.idx, sizeof a.idx);
                worst[k].exp = e;
                worst[k].got = got;
                worst[k].diff = diff;
                worst[k].rdiff = rdiff;
                worst[k].bound = bd;
                worst[k].role = role;
                worst[k].lin = a.lin;
            }
        }
    }
}

void check(job *j)
{
    point worst[NWORST];
    cli_result *r = j->r;
    int i, k, dense = j->p->g.engine == ENGINE_REF;
    size_t used = 0;
    clrs_status st;

    for (k = 0; k < NWORST; ++k)
        worst[k].role = -1;
    if (dense) {
        /* The reference engine is checked against the reference on dense
         * abx tensors: layouts and conversions must not change a value. */
        for (i = 0; i < T_COUNT; ++i) {
            tensor *t = &j->t[i];
            if (!t->used)
                continue;
            t->dhost = malloc(clrs_tensor_desc_bytes(t->dense));
            if (!t->dhost) {
                set_status(r, ST_SKIPPED, "out of host memory");
                return;
            }
            if (t->init)
                relayout(t->d, j->p->o.tag->blocked, t->init, t->dense, 0,
                         t->dhost, t->dt);
            else if (t->is_output)
                poison(t->dhost, t->dt, clrs_tensor_desc_bytes(t->dense));
            else
                relayout(t->d, j->p->o.tag->blocked, t->host, t->dense, 0,
                         t->dhost, t->dt);
        }
    } else {
        for (i = 0; i < T_COUNT; ++i)
            if (j->t[i].init)
                memcpy(j->t[i].exp, j->t[i].init, j->t[i].bytes);
            else if (j->t[i].used && j->t[i].is_output)
                poison(j->t[i].exp, j->t[i].dt, j->t[i].bytes);
    }
    {
        const tensor *o = &j->t[j->backward ? T_DIFF_SRC : T_DST];
        j->bound = malloc((size_t)o->elems * sizeof *j->bound + 1);
        if (!j->bound) {
            set_status(r, ST_SKIPPED, "out of host memory");
            return;
        }
    }
    st = run_reference(j, dense, 1);
    if (st < 0) {
        lib_status(r, st, "reference");
        if (r->status != ST_FAILED && !dense)
            r->status = ST_FAILED; /* the plan accepted what the
                                      reference refused */
        return;
    }
    for (i = 0; i < T_COUNT; ++i) {
        tensor *t = &j->t[i];
        if (!t->used || !t->is_output)
            continue;
        if (dense)
            compare(j, i, t->dhost, t->dense, 0, worst);
        else
            compare(j, i, t->exp, t->d, j->p->o.tag->blocked, worst);
    }
    if (r->errors == 0) {
        r->status = ST_PASSED;
        return;
    }
    set_status(r, ST_FAILED, "%lld of %lld points wrong",
               (long long)r->errors, (long long)r->checked);
    for (k = 0; k < NWORST && worst[k].role >= 0 && used < sizeof r->worst;
         ++k) {
        int d;
        used += (size_t)snprintf(r->worst + used, sizeof r->worst - used,
                                 "  %s[", role_names[worst[k].role]);
        for (d = 0; d < j->rank && used < sizeof r->worst; ++d)
            used += (size_t)snprintf(r->worst + used, sizeof r->worst - used,
                                     "%s%lld", d ? "," : "",
                                     (long long)worst[k].idx[d]);
        if (used < sizeof r->worst)
            used += (size_t)snprintf(r->worst + used, sizeof r->worst - used,
                                     "] exp:%.9g got:%.9g diff:%.3g "
                                     "rdiff:%.3g bound:%.3g\n",
                                     worst[k].exp, worst[k].got,
                                     worst[k].diff, worst[k].rdiff,
                                     worst[k].bound);
    }
}
