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

/* Entries of a list into kernel order: variable tap counts keep the
 * list's own order; a fixed count K over O outputs is stored tap-major,
 * the list's entry e = o * K + t (tap t of output o) at position
 * t * O + o (so consecutive work-items read consecutive entries). The
 * list is read in its own order, each of the K taps' runs written in
 * order: a walk of o and t, no division per entry. */
typedef struct kwalk {
    int K, t;
    int64_t O, o;
} kwalk;

static size_t kwalk_next(kwalk *w)
{
    size_t at;
    if (!w->K)
        return (size_t)w->o++;
    at = (size_t)((int64_t)w->t * w->O + w->o);
    if (++w->t == w->K) {
        w->t = 0;
        ++w->o;
    }
    return at;
}

/* The two images being written, each entry stored at its final width
 * as it is computed: itab int32 (int64 with long offsets), ftab float,
 * double with a double accumulator, or u16 fixed point scaled by 2^k of
 * the segment's slot (so no 64-bit image of the whole table is ever
 * held). */
typedef struct images {
    void *i, *f;
    int long_off, acc_f64, fix;
} images;

static void put_i(const images *m, size_t j, int64_t v)
{
    if (m->long_off)
        ((int64_t *)m->i)[j] = v;
    else
        ((int32_t *)m->i)[j] = (int32_t)v;
}

/* fix_k: the slot's fixed-point shift (weights segments of a fix
 * kernel only). */
static void put_f(const images *m, size_t j, double v, int fix_k)
{
    if (m->fix)
        ((uint16_t *)m->f)[j] = (uint16_t)ldexp(v, fix_k);
    else if (m->acc_f64)
        ((double *)m->f)[j] = v;
    else
        ((float *)m->f)[j] = (float)v;
}

/* Span path: per group its base and kept pattern, or 0 and -1. */
static void fill_groups(const clrs_span_groups *g, const images *m, size_t at)
{
    int64_t q;
    for (q = 0; q < g->count; ++q) {
        put_i(m, at++, g->pat[q] >= 0 ? g->base[q] : 0);
        put_i(m, at++, g->pat[q]);
    }
}

/* Span path: group-major weights, [group][entry][lane], 0 where a lane
 * has no such entry or its group goes lane by lane. */
static void fill_group_weights(const clrs_span_groups *g, const clrs_lists *s,
                               int T, int V, const images *m, size_t at,
                               int fix_k)
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
                put_f(m, at++,
                      e < n ? clrs__lists_weight(s, (size_t)(b + e)) : 0.0,
                      fix_k);
            }
}

/* One segment into the images. */
static void fill_seg(const clrs_problem *p, const clrs_slot_taps *st,
                     const clrs_lowered *low, const clrs_table_seg *sg,
                     const images *m)
{
    const clrs_axis_map *ax = &p->ax[sg->slot];
    const int a = ax->axis, K = sg->transposed ? 0 : low->cfg.fixed[sg->slot];
    const int fix_k = low->cfg.fix ? low->cfg.fix_k[sg->slot] : 0;
    int64_t box = 1, plane = 1, plane_size = 1;
    clrs_lists s;
    kwalk walk;
    size_t e, j;
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
        for (j = 0; j < sg->len; ++j)
            put_i(m, sg->pos + j, s.start[j]);
        return;
    case CLRS_SEG_GROUPS:
        fill_groups(&low->span, m, sg->pos);
        return;
    case CLRS_SEG_GROUP_WEIGHTS:
        fill_group_weights(&low->span, &s, low->cfg.ntaps, low->cfg.vec, m,
                           sg->pos, fix_k);
        return;
    default:
        break;
    }
    walk.K = K;
    walk.O = s.npos;
    walk.o = walk.t = 0;
    for (e = 0; e < sg->len; ++e) {
        const size_t at = sg->pos + kwalk_next(&walk);
        int64_t r = clrs__lists_read(&s, e);
        switch (sg->kind) {
        case CLRS_SEG_OFFSETS:
            /* A padding tap gets -span, so any sum holding one is
             * negative. */
            put_i(m, at,
                  r >= 0 ? axis_term(sg->tensor, a, r)
                         : -clrs__tensor_span(sg->tensor));
            break;
        case CLRS_SEG_WINDOW:
            put_i(m, at, (int64_t)clrs__lists_code(&s, e) * box);
            break;
        case CLRS_SEG_PLANE:
            put_i(m, at, r >= 0 ? r * plane : -plane_size);
            break;
        case CLRS_SEG_READ:
            put_i(m, at, r);
            break;
        default: /* CLRS_SEG_WEIGHTS */
            put_f(m, at, clrs__lists_weight(&s, e), fix_k);
            break;
        }
    }
}

clrs_status clrs__tables_fill(const clrs_problem *p, const clrs_slot_taps *st,
                              const clrs_lowered *low, clrs_table_images *img)
{
    const clrs_gen_config *c = &low->cfg;
    const size_t isize = c->long_off ? 8 : 4;
    const size_t fsize = c->fix ? 2 : c->acc_f64 ? 8 : 4;
    images m;
    int q;

    memset(img, 0, sizeof *img);
    m.long_off = c->long_off;
    m.acc_f64 = c->acc_f64;
    m.fix = c->fix;
    /* calloc: an entry no segment covers (none today) reads 0. */
    m.i = calloc(low->ni ? low->ni : 1, isize);
    m.f = low->nf ? calloc(low->nf, fsize) : NULL;
    if (!m.i || (low->nf && !m.f)) {
        free(m.i);
        free(m.f);
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "out of memory for %zu tap table entries",
                           low->ni + low->nf);
    }
    for (q = 0; q < low->nseg; ++q)
        fill_seg(p, st, low, &low->seg[q], &m);
    img->i = m.i;
    img->ibytes = low->ni * isize;
    img->f = m.f;
    img->fbytes = low->nf * fsize;
    return CLRS_SUCCESS;
}

void clrs__table_images_free(clrs_table_images *img)
{
    free(img->i);
    free(img->f);
    memset(img, 0, sizeof *img);
}
