/* The tables stage: every segment the lowering laid out, written from
 * exactly the taps the reference uses (taps.c), then narrowed to the
 * kernel's offset and accumulator widths. */
#include "gen/tables.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Element offset of index i along tensor axis a of t (blocked or not). */
static int64_t axis_term(const struct clrs_tensor_desc *t, int a, int64_t i)
{
    if (t->block_axis == a)
        return (i / t->block) * t->strides[a] + i % t->block;
    return i * t->strides[a];
}

/* Entry j of a list in kernel order. Variable tap counts: the list's own
 * order. Fixed count K over O outputs, stored tap-major: entry j is tap
 * t = j / O of output o = j % O, which the list holds at o * K + t (so
 * consecutive work-items read consecutive entries). */
static size_t pos(size_t j, int K, int64_t O)
{
    if (!K)
        return j;
    return (size_t)(((int64_t)j % O) * K + (int64_t)j / O);
}

/* Span path: per group its base and kept pattern, or 0 and -1. */
static void fill_groups(const clrs_span_groups *g, int64_t *v)
{
    int64_t q;
    for (q = 0; q < g->count; ++q) {
        *v++ = g->pat[q] >= 0 ? g->base[q] : 0;
        *v++ = g->pat[q];
    }
}

/* Span path: group-major weights, [group][entry][lane], 0 where a lane
 * has no such entry or its group goes lane by lane. */
static void fill_group_weights(const clrs_span_groups *g, const clrs_lists *s,
                               int T, int V, double *v)
{
    int64_t q, b, n;
    int e, l;
    for (q = 0; q < g->count; ++q)
        for (e = 0; e < T; ++e)
            for (l = 0; l < V; ++l) {
                b = n = 0;
                if (g->pat[q] >= 0) {
                    b = s->start[q * V + l];
                    n = s->start[q * V + l + 1] - b;
                }
                *v++ = e < n ? clrs__lists_weight(s, (size_t)(b + e)) : 0.0;
            }
}

/* One segment into the 64-bit integer image it or the double image f. */
static void fill_seg(const clrs_problem *p, const clrs_slot_taps *st,
                     const clrs_lowered *low, const clrs_table_seg *sg,
                     int64_t *it, double *f)
{
    const clrs_axis_map *ax = &p->ax[sg->slot];
    const int a = ax->axis, K = sg->transposed ? 0 : low->cfg.fixed[sg->slot];
    int64_t box = 1, plane = 1, plane_size = 1, *v = it + sg->pos;
    clrs_lists s;
    size_t j;
    int k;

    for (k = 0; k < p->naxes; ++k) {
        plane_size *= p->ax[k].in;
        if (k > sg->slot)
            box *= p->ax[k].taps;
        if (low->cfg.plane_col ? k < sg->slot : k > sg->slot)
            plane *= p->ax[k].in; /* row- or column-major */
    }
    clrs__lists_of(p, st, sg->slot, sg->transposed, &s);
    switch (sg->kind) {
    case CLRS_SEG_STARTS:
        memcpy(v, s.start, sg->len * sizeof *v);
        return;
    case CLRS_SEG_GROUPS:
        fill_groups(&low->span, v);
        return;
    case CLRS_SEG_GROUP_WEIGHTS:
        fill_group_weights(&low->span, &s, low->cfg.ntaps, low->cfg.vec,
                           f + sg->pos);
        return;
    default:
        break;
    }
    for (j = 0; j < sg->len; ++j) {
        size_t e = pos(j, K, s.npos);
        int64_t r = clrs__lists_read(&s, e);
        switch (sg->kind) {
        case CLRS_SEG_OFFSETS:
            /* A padding tap gets -span, so any sum holding one is
             * negative. */
            v[j] = r >= 0 ? axis_term(sg->tensor, a, r)
                          : -clrs__tensor_span(sg->tensor);
            break;
        case CLRS_SEG_WINDOW:
            v[j] = (int64_t)clrs__lists_code(&s, e) * box;
            break;
        case CLRS_SEG_PLANE:
            v[j] = r >= 0 ? r * plane : -plane_size;
            break;
        case CLRS_SEG_READ:
            v[j] = r;
            break;
        default: /* CLRS_SEG_WEIGHTS */
            f[sg->pos + j] = clrs__lists_weight(&s, e);
            break;
        }
    }
}

clrs_status clrs__tables_fill(const clrs_problem *p, const clrs_slot_taps *st,
                              const clrs_lowered *low, clrs_table_images *img)
{
    int64_t *it = calloc(low->ni, sizeof *it);
    double *f = low->nf ? calloc(low->nf, sizeof *f) : NULL;
    size_t i;
    int q;

    memset(img, 0, sizeof *img);
    if (!it || (low->nf && !f)) {
        free(it);
        free(f);
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "out of memory for %zu tap table entries",
                           low->ni + low->nf);
    }
    for (q = 0; q < low->nseg; ++q)
        fill_seg(p, st, low, &low->seg[q], it, f);
    /* Narrowing in place, front first. */
    if (!low->cfg.long_off) {
        int32_t *v = (int32_t *)(void *)it;
        for (i = 0; i < low->ni; ++i)
            v[i] = (int32_t)it[i];
    }
    if (f && low->cfg.fix) { /* each slot's weights times 2^fix_k */
        uint16_t *v = (uint16_t *)(void *)f;
        for (q = 0; q < low->nseg; ++q) {
            const clrs_table_seg *sg = &low->seg[q];
            if (sg->kind == CLRS_SEG_WEIGHTS ||
                sg->kind == CLRS_SEG_GROUP_WEIGHTS)
                for (i = sg->pos; i < sg->pos + sg->len; ++i)
                    f[i] = ldexp(f[i], low->cfg.fix_k[sg->slot]);
        }
        for (i = 0; i < low->nf; ++i)
            v[i] = (uint16_t)f[i];
    } else if (f && !low->cfg.acc_f64) {
        float *v = (float *)(void *)f;
        for (i = 0; i < low->nf; ++i)
            v[i] = (float)f[i];
    }
    img->i = it;
    img->ibytes = low->ni * (low->cfg.long_off ? 8 : 4);
    img->f = f;
    img->fbytes = low->nf * (low->cfg.fix ? 2 : low->cfg.acc_f64 ? 8 : 4);
    return CLRS_SUCCESS;
}

void clrs__table_images_free(clrs_table_images *img)
{
    free(img->i);
    free(img->f);
    memset(img, 0, sizeof *img);
}
