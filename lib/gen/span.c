/* The span path's patterns, a part of the lowering (lower.c calls it
 * once the vector width is known). */
#include "gen/variant_lower.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- span patterns -------------------------------------------------------
 * The written positions along kernel axis 0 (the last resampled slot,
 * contiguous) are cut into groups of V. A group whose entries all lie
 * within a few vectors of V read elements of a base index (span_rules'
 * vectors) is described by its base and the pattern of its entries
 * relative to the base; at a rational scale the interior groups share a
 * few patterns, which the generator compiles into constant shuffles. */

typedef struct span_pat {
    short rel[CLRS_GEN_MAX_FIXED][CLRS_GEN_MAX_LANES];
    signed char code[CLRS_GEN_MAX_FIXED][CLRS_GEN_MAX_LANES];
} span_pat;

/* Distinct patterns tracked before the most frequent are kept. */
#define SPAN_CANDIDATES 32

/* How one direction's lists become patterns. */
typedef struct span_rules {
    int fixed;          /* K: every position has K taps (ntaps = K) */
    short absent;       /* rel past a lane's last entry */
    int empty_ok;       /* a lane without entries can take a pattern */
    int pad_stops;      /* a padding entry keeps its group off */
    int codes;          /* patterns carry the window codes */
    int codes_used;     /* ... which the kernel reads as constants */
    int weights;        /* the tables hold group-major weights */
    /* A tap's lanes lie within this many vectors of V elements (4, 8 or
     * 16, the launch request's), a group's reads within `reach` vectors
     * (a pattern's offsets are shorts) and a lane has at most `taps`
     * taps: twice the vectors, both, for 4 and 8. Eight and 16 (were 4
     * and 8, today's GPU default) brought 4x antialiased downsampling
     * and 4x-up backward onto the path, several times faster there on a
     * CPU; 16 and 32 (a CPU's default) 8x antialiased downsampling,
     * 8-16x plain downsampling, 12x-up backward and windows of 9-16; a
     * forward group of 16 reaching over 64 vectors, its taps picked from
     * the 16 each spans, 64 taps a lane: 16x antialiased bilinear and
     * bicubic, and antialiased bicubic past 8x (lib/README.md, "Span
     * vector path"). */
    int vectors;
    int reach;
    int taps;
    int max_pat; /* patterns kept, at most CLRS_GEN_MAX_PAT */
    int base_pat; /* ... unless up to max_pat cover nearly every group
                     (pattern_budget) */
} span_rules;

/* A forward group's reach and taps where a tap's lanes lie within 16
 * vectors (span_rules). */
#define SPAN_REACH_WIDE 64

/* Pass 1: each whole group's range on src's axis: base[g] its lowest
 * read index, ok[g] 0 when it has no pattern; returns the widest
 * range. */
static int64_t span_ranges(const clrs_lists *s, const span_rules *r, int V,
                           int64_t G, int64_t *base, int *ok)
{
    int64_t g, maxr = 0, tlo[CLRS_GEN_MAX_FIXED], thi[CLRS_GEN_MAX_FIXED];
    int l, e, wide = r->reach > r->vectors;

    for (g = 0; g < G; ++g) {
        int64_t lo = INT64_MAX, hi = -1;
        ok[g] = 0;
        base[g] = -1;
        if ((g + 1) * V > s->npos)
            continue;
        for (e = 0; e < r->taps && wide; ++e) {
            tlo[e] = INT64_MAX;
            thi[e] = -1;
        }
        for (l = 0; l < V; ++l) {
            int64_t b = s->start[g * V + l], n = s->start[g * V + l + 1] - b;
            if ((n < 1 && !r->empty_ok) || n > r->taps)
                lo = -2; /* no taps (the empty value), or too many */
            for (e = 0; e < (int)n && lo != -2; ++e) {
                int64_t idx = clrs__lists_read(s, (size_t)(b + e));
                if ((idx < 0 && r->pad_stops) ||
                    (r->codes_used &&
                     clrs__lists_code(s, (size_t)(b + e)) > SCHAR_MAX))
                    lo = -2; /* no plane code for a padding lane, or no
                                window code constant */
                else if (idx >= 0 && idx < lo)
                    lo = idx;
                if (idx > hi)
                    hi = idx;
                if (wide && idx >= 0 && idx < tlo[e])
                    tlo[e] = idx;
                if (wide && idx > thi[e])
                    thi[e] = idx;
            }
        }
        if (lo == -2)
            continue;
        if (hi < 0)
            lo = hi = 0; /* padding only, or no entries at all */
        if (hi - lo + 1 > r->reach * (int64_t)V)
            continue;
        /* each tap's lanes within r->vectors of the group's vectors */
        for (e = 0; e < r->taps && wide && lo != -2; ++e)
            if (thi[e] >= 0 && thi[e] - tlo[e] + 1 > r->vectors * (int64_t)V)
                lo = -2;
        if (lo == -2)
            continue;
        base[g] = lo;
        ok[g] = 1;
        if (hi - lo + 1 > maxr)
            maxr = hi - lo + 1;
    }
    return maxr;
}

/* Pass 2: group g's pattern relative to its base. */
static void span_pattern(const clrs_lists *s, const span_rules *r, int V,
                         int64_t g, int64_t base, span_pat *cur)
{
    int l, e;
    memset(cur, 0, sizeof *cur);
    for (l = 0; l < CLRS_GEN_MAX_FIXED * CLRS_GEN_MAX_LANES; ++l)
        cur->rel[l / CLRS_GEN_MAX_LANES][l % CLRS_GEN_MAX_LANES] = r->absent;
    for (l = 0; l < V; ++l) {
        int64_t b = s->start[g * V + l], n = s->start[g * V + l + 1] - b;
        for (e = 0; e < (int)n; ++e) {
            int64_t idx = clrs__lists_read(s, (size_t)(b + e));
            cur->rel[e][l] = (short)(idx < 0 ? -1 : idx - base);
            if (r->codes)
                cur->code[e][l] =
                    (signed char)clrs__lists_code(s, (size_t)(b + e));
        }
    }
}

/* Groups in SPAN_FEW_UNCOVERED at most without a pattern where more than
 * r->base_pat patterns are kept. */
#define SPAN_FEW_UNCOVERED 16

/* How many patterns span_keep keeps: r->base_pat, or where more of the
 * most frequent candidates (up to r->max_pat) leave at most one group in
 * SPAN_FEW_UNCOVERED of the G without a pattern, the fewest that do. A
 * row whose groups repeat with a period of more than base_pat groups
 * (three fused channels resampled by 3/2: 9 groups of 16) then runs
 * each group as vectors, where base_pat of them left most groups lane by
 * lane (or the whole row, under half covered); a row without a short
 * period keeps base_pat, as its kernel would grow for little. */
static int pattern_budget(const int *count, int ncand, int64_t G,
                          const span_rules *r)
{
    int taken[SPAN_CANDIDATES] = {0};
    int64_t covered = 0;
    int k, i;

    if (r->base_pat >= r->max_pat)
        return r->max_pat;
    for (k = 1; k <= r->max_pat; ++k) {
        int best = -1;
        for (i = 0; i < ncand; ++i)
            if (!taken[i] && count[i] > 0 &&
                (best < 0 || count[i] > count[best]))
                best = i;
        if (best < 0)
            break;
        taken[best] = 1;
        covered += count[best];
        if ((G - covered) * SPAN_FEW_UNCOVERED <= G)
            return k > r->base_pat ? k : r->base_pat;
    }
    return r->base_pat;
}

/* The most frequent candidates (first seen first among equals), at most
 * r->max_pat, into the configuration's patterns: id[i] is
 * candidate i's number there or -1. Without a fixed count, *T becomes
 * the longest lane they hold. Returns the groups they cover. */
static int64_t span_keep(clrs_gen_config *c, const span_pat *cand, int ncand,
                         int *count, const span_rules *r, int V, int *id,
                         int *nkeep, int *T)
{
    int64_t covered = 0;
    int i, e, l;

    for (i = 0; i < SPAN_CANDIDATES; ++i)
        id[i] = -1;
    while (*nkeep < r->max_pat) {
        int best = -1;
        for (i = 0; i < ncand; ++i)
            if (count[i] > 0 && (best < 0 || count[i] > count[best]))
                best = i;
        if (best < 0)
            break;
        id[best] = *nkeep;
        memcpy(c->rel[*nkeep], cand[best].rel, sizeof cand[best].rel);
        memcpy(c->code[*nkeep], cand[best].code, sizeof cand[best].code);
        for (e = 0; e < CLRS_GEN_MAX_FIXED && !r->fixed; ++e)
            for (l = 0; l < V; ++l)
                if (cand[best].rel[e][l] != r->absent && e + 1 > *T)
                    *T = e + 1;
        covered += count[best];
        count[best] = 0;
        ++*nkeep;
    }
    return covered;
}

/* The span groups and patterns of the last slot, into low->span and the
 * configuration; returns 0 (nothing kept, low->span empty) when too few
 * groups share a pattern: the plain kernel does better then. */
static clrs_status span_choose(clrs_lowered *low, const clrs_lists *s,
                               const span_rules *r, int V, int *kept)
{
    clrs_gen_config *c = &low->cfg;
    const int64_t G = (s->npos + V - 1) / V;
    span_pat *cand = NULL, cur;
    int64_t *base = NULL, g, covered = 0;
    int *which = NULL, ncand = 0, count[SPAN_CANDIDATES] = {0};
    int id[SPAN_CANDIDATES], nkeep = 0, nspan, i, T = r->fixed, last = -1;

    *kept = 0;
    base = malloc((size_t)G * sizeof *base);
    which = malloc((size_t)G * sizeof *which);
    cand = malloc(SPAN_CANDIDATES * sizeof *cand);
    if (!base || !which || !cand) {
        free(base);
        free(which);
        free(cand);
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "out of memory for %" PRId64 " vector groups", G);
    }
    nspan = (int)((span_ranges(s, r, V, G, base, which) + V - 1) / V);
    if (nspan < 1)
        nspan = 1;
    if (s->nread < (int64_t)nspan * V)
        goto out;
    /* Patterns relative to the base, moved back where the loads would
     * pass the end of src's axis. */
    for (g = 0; g < G; ++g) {
        if (!which[g]) {
            which[g] = -1;
            continue;
        }
        if (base[g] + (int64_t)nspan * V > s->nread)
            base[g] = s->nread - (int64_t)nspan * V;
        span_pattern(s, r, V, g, base[g], &cur);
        /* Candidates are distinct: the previous group's, which most
         * groups repeat, is tried first. */
        if (last >= 0 && memcmp(&cand[last], &cur, sizeof cur) == 0)
            i = last;
        else
            for (i = 0; i < ncand; ++i)
                if (memcmp(&cand[i], &cur, sizeof cur) == 0)
                    break;
        if (i == ncand && ncand < SPAN_CANDIDATES)
            cand[ncand++] = cur;
        which[g] = i < ncand ? i : -1;
        if (which[g] >= 0)
            ++count[i];
        last = which[g];
    }
    {
        span_rules keep = *r;
        keep.max_pat = pattern_budget(count, ncand, G, r);
        covered = span_keep(c, cand, ncand, count, &keep, V, id, &nkeep, &T);
    }
    if (covered * 2 < G || T < 1) {
        memset(c->rel, 0, sizeof c->rel);
        memset(c->code, 0, sizeof c->code);
        goto out;
    }
    for (g = 0; g < G; ++g)
        which[g] = which[g] >= 0 ? id[which[g]] : -1;
    c->nspan = nspan;
    c->npat = nkeep;
    c->ntaps = T;
    low->span.count = G;
    low->span.base = base;
    low->span.pat = which;
    low->span.weights = r->weights;
    low->span.coverage = (double)covered / (double)G;
    base = NULL;
    which = NULL;
    *kept = 1;
out:
    free(base);
    free(which);
    free(cand);
    return CLRS_SUCCESS;
}

/* ---- periodic computed taps --------------------------------------------
 * Where the computed slot's coordinate x(o) = (o + a) r - b is exact in
 * its type at every output (each of its three steps' exact value fits
 * the mantissa), x(o + P) = x(o) + S for P = 2^bits(r), S = P r: away
 * from the axis' ends, where no tap is clamped, the span groups repeat
 * with a period of a few groups (r = 1/2, 3 channels: 3 groups of 16),
 * each period S C elements further along src. The kernel then takes
 * those groups' bases, patterns and weights as constants
 * (clrs_gen_config.per) instead of computing and matching every lane's
 * taps. */

/* The least e >= 0 with v 2^e an integer (v finite). */
static int frac_bits(double v)
{
    int e = 0;
    while (v != floor(v) && e < 128) {
        v *= 2; /* exact */
        ++e;
    }
    return e;
}

/* Whether (o + a) r - b, its three steps each rounded to mant bits (24:
 * float, 53: double), is exact for every o in [0, n): each step's exact
 * value is a multiple of 2^-e (e its fraction bits) that fits the
 * mantissa at both ends of the range (the steps are affine in o, so in
 * between too; a margin of 2 bits for double, whose bounds are taken in
 * double). Then *P and *S (above). */
static int coord_exact(double a, double r, double b, int64_t n, int mant,
                       int64_t *P, int64_t *S)
{
    const int fa = frac_bits(a), fr = frac_bits(r), fb = frac_bits(b);
    const int fu = fa + fr, fx = fu > fb ? fu : fb;
    const double lim = ldexp(1.0, mant > 24 ? mant - 2 : mant);
    int i;

    if (!(r > 0) || !isfinite(a) || !isfinite(r) || !isfinite(b) || fr > 16 ||
        fx > 64 || n < 1)
        return 0;
    for (i = 0; i < 2; ++i) {
        const double o = i ? (double)(n - 1) : 0.0;
        const double t = o + a, u = t * r, x = u - b;
        if (!(o < lim) || !(ldexp(fabs(t), fa) < lim) ||
            !(ldexp(fabs(u), fu) < lim) || !(ldexp(fabs(x), fx) < lim))
            return 0;
    }
    *P = (int64_t)1 << fr;
    *S = (int64_t)ldexp(r, fr);
    return 1;
}

/* The taps of a stretch of pixels [p0, p0 + np) of the computed slot,
 * as element positions (fused channels expanded). */
typedef struct per_range {
    clrs_taplist tl;
    int64_t e0, ne; /* its first element and elements */
} per_range;

static clrs_status per_range_make(const clrs_problem *u, int k, int64_t C,
                                  int64_t p0, int64_t np, per_range *pr)
{
    memset(pr, 0, sizeof *pr);
    CLRS_TRY(clrs__axis_taps_ranges(u, k, &p0, 1, np, &pr->tl));
    if (C > 1)
        CLRS_TRY(clrs__fuse_expand(&pr->tl, np, C));
    pr->e0 = p0 * C;
    pr->ne = np * C;
    return CLRS_SUCCESS;
}

/* Whether group g of pr holds every lane, each of exactly K taps. */
static int per_has(const per_range *pr, int64_t g, int V, int K)
{
    int64_t e = g * V - pr->e0, l;
    if (e < 0 || e + V > pr->ne)
        return 0;
    for (l = 0; l < V; ++l)
        if (pr->tl.start[e + l + 1] - pr->tl.start[e + l] != K)
            return 0;
    return 1;
}

/* Tap t of lane l of group g (per_has). */
static const clrs_tap *per_tap(const per_range *pr, int64_t g, int V, int l,
                               int t)
{
    return &pr->tl.t[pr->tl.start[g * V + l - pr->e0] + t];
}

/* Whether group h's taps are group g's moved by `shift` elements, with
 * the same weights, no padding tap among them. */
static int per_match(const per_range *pr, int64_t g, int64_t h, int V, int K,
                     int64_t shift)
{
    int l, t;
    if (!per_has(pr, g, V, K) || !per_has(pr, h, V, K))
        return 0;
    for (l = 0; l < V; ++l)
        for (t = 0; t < K; ++t) {
            const clrs_tap *x = per_tap(pr, g, V, l, t),
                           *y = per_tap(pr, h, V, l, t);
            if (x->idx < 0 || y->idx != x->idx + shift || y->w != x->w)
                return 0;
        }
    return 1;
}

/* Group g's base as the kernel forms it (emit_span_calc: the least first
 * tap over fused channels, else lane 0's). */
static int64_t per_base(const per_range *pr, int64_t g, int V, int fused)
{
    int64_t lo = per_tap(pr, g, V, 0, 0)->idx;
    int l;
    for (l = 1; l < V && fused; ++l)
        if (per_tap(pr, g, V, l, 0)->idx < lo)
            lo = per_tap(pr, g, V, l, 0)->idx;
    return lo;
}

/* Groups searched for the periodic stretch's start and end. */
#define SPAN_PER_EDGE 64

/* One stretch of the row, over pixels [o0, o1) whose coordinate steps
 * repeat every Pp pixels S further (span_periodic): the groups wholly
 * inside, from the first from which a whole period repeats in the next
 * to the last up to which one repeats the one before (each found among
 * SPAN_PER_EDGE + 2P groups at the stretch's ends: the row's clamped
 * ends, or the step where the coordinate's rounding changes), their
 * period's bases, patterns and weights into stretch slot s of the
 * configuration; *made 0 where there is none. */
static clrs_status per_stretch(clrs_lowered *low, const clrs_problem *p,
                               const clrs_problem *u, int k, int V, int64_t o0,
                               int64_t o1, int64_t Pp, int64_t S, int s,
                               int *made)
{
    clrs_gen_config *c = &low->cfg;
    const int K = c->fixed[k], fused = p->fuse_c > 1;
    const int64_t C = fused ? p->fuse_c : 1, Pe = Pp * C;
    const int64_t g0 = (o0 * C + V - 1) / V, g1 = o1 * C / V;
    int64_t P, Se, ph = -1, pe = -1, g, gh, b0, p0, np;
    per_range head, tail;
    clrs_status st;
    int r, t, l, q, ok = 1;

    *made = 0;
    for (P = 1; P <= CLRS_GEN_PER_MAX && (P * V) % Pe; ++P)
        ;
    if (P > CLRS_GEN_PER_MAX || g1 - g0 < 2 * SPAN_PER_EDGE + 4 * P)
        return CLRS_SUCCESS;
    Se = P * V / Pe * S * C;
    if (Se >= (int64_t)1 << 30)
        return CLRS_SUCCESS;
    /* the first and the last SPAN_PER_EDGE + 2P groups, whole pixels */
    gh = SPAN_PER_EDGE + 2 * P;
    memset(&tail, 0, sizeof tail);
    p0 = g0 * V / C;
    st = per_range_make(u, k, C, p0, ((g0 + gh) * V + C - 1) / C - p0, &head);
    if (st >= 0) {
        p0 = (g1 - gh) * V / C;
        np = (g1 * V + C - 1) / C - p0;
        st = per_range_make(u, k, C, p0, np, &tail);
    }
    if (st < 0)
        goto out;
    for (g = g0; g + 2 * P <= g0 + gh && ph < 0; ++g) {
        for (r = 0, ok = 1; r < P && ok; ++r)
            ok = per_match(&head, g + r, g + r + P, V, K, Se);
        if (ok)
            ph = g;
    }
    for (g = g1; g - 2 * P >= g1 - gh && pe < 0; --g) {
        for (r = 0, ok = 1; r < P && ok; ++r)
            ok = per_match(&tail, g - 1 - r - P, g - 1 - r, V, K, Se);
        if (ok)
            pe = g;
    }
    if (ph < 0 || pe < ph + 2 * P)
        goto out;
    /* per group of the period: its base, pattern and weights */
    b0 = per_base(&head, ph, V, fused);
    for (r = 0; r < P; ++r) {
        const int64_t gr = ph + r, base = per_base(&head, gr, V, fused);
        for (q = 0; q < c->npat; ++q) {
            for (t = 0, ok = 1; t < K && ok; ++t)
                for (l = 0; l < V && ok; ++l)
                    ok = c->rel[q][t][l] ==
                         per_tap(&head, gr, V, l, t)->idx - base;
            if (ok)
                break;
        }
        if (q == c->npat || base < 0 || base - b0 >= Se)
            goto out;
        c->per_pat[s][r] = q;
        c->per_base[s][r] = (int)(base - b0);
        for (t = 0; t < K; ++t)
            for (l = 0; l < V; ++l) {
                const double w = per_tap(&head, gr, V, l, t)->w;
                c->per_w[s][r][t][l] = c->acc_f64 ? w : (double)(float)w;
            }
    }
    /* the last periodic group's vectors end inside src's axis (the
     * kernel moves no periodic base back): the groups past it compute */
    while (pe >= ph + 2 * P && b0 + (pe - 1 - ph) / P * Se +
                                       c->per_base[s][(pe - 1 - ph) % P] +
                                       (int64_t)c->nspan * V >
                                   p->ax[k].in)
        --pe;
    if (pe < ph + 2 * P)
        goto out;
    c->per[s] = (int)P;
    c->per_shift[s] = (int)Se;
    low->vals.yph[s] = ph;
    low->vals.ype[s] = pe;
    low->vals.ypb[s] = b0;
    *made = 1;
out:
    clrs__taplist_free(&head.tl);
    clrs__taplist_free(&tail.tl);
    return st;
}

/* A float coordinate's steps at pixel o, as the kernel takes them: o,
 * o + a, (o + a) r and that minus b, each rounded to float. */
static void float_steps(float a, float r, float b, int64_t o, float *v)
{
    v[0] = (float)o;
    v[1] = v[0] + a;
    v[2] = v[1] * r;
    v[3] = v[2] - b;
}

/* Whether the steps at o and at q lie in the same binades (positive). */
static int same_binades(float a, float r, float b, int64_t o, int64_t q)
{
    float v[4], w[4];
    int i;

    float_steps(a, r, b, o, v);
    float_steps(a, r, b, q, w);
    for (i = 0; i < 4; ++i)
        if (!(v[i] > 0) || !(w[i] > 0) || ilogbf(v[i]) != ilogbf(w[i]))
            return 0;
    return 1;
}

/* Stretches a row's periodic taps take at most (past them, groups
 * compute theirs). */
#define SPAN_PER_STEPS 64

static clrs_status span_periodic(clrs_lowered *low, const clrs_problem *p,
                                 const clrs_problem *u, int k, int V)
{
    clrs_gen_config *c = &low->cfg;
    const clrs_axis_map *ax = &u->ax[k];
    const int K = c->fixed[k], f64 = ax->f64, mant = f64 ? 53 : 24;
    const double ca = f64 ? ax->da : ax->a, cr = f64 ? ax->dr : ax->r,
                 cb = f64 ? ax->db : ax->b;
    int64_t Pp, S, lo, hi, o;
    int made, steps, fr;

    c->per_n = 0;
    if (K < 1 || K > CLRS_GEN_PER_TAPS || V > CLRS_GEN_MAX_LANES || c->fix ||
        c->isum || c->f16_native || c->raw || ax->fixed16 ||
        !coord_exact(ca, cr, cb, 1, mant, &Pp, &S))
        return CLRS_SUCCESS;
    /* The outputs from 0 whose coordinate is exact (a float one past
     * 2^23 outputs at half a pixel's offset is not): the largest n found
     * by bisection at which coord_exact holds, which it checks at both
     * ends; lo only ever takes an n where it held (1 above), and Pp and S
     * depend on r alone. */
    for (lo = 1, hi = ax->out; lo < hi;) {
        const int64_t mid = lo + (hi - lo + 1) / 2;
        if (coord_exact(ca, cr, cb, mid, mant, &Pp, &S))
            lo = mid;
        else
            hi = mid - 1;
    }
    CLRS_TRY(per_stretch(low, p, u, k, V, 0, lo, Pp, S, c->per_n, &made));
    c->per_n += made;
    if (f64)
        return CLRS_SUCCESS;
    /* Past it, float steps that round: over pixels whose four steps each
     * stay in one binade (ulp q), rounding to nearest even on a grid of
     * q commutes with a shift by a multiple of 2q, so the coordinate
     * repeats every D pixels D r further, D the least power of two that
     * is a multiple of 2^bits(r) and moves o, o + a by a multiple of
     * twice their ulps and (o + a) r, x by twice theirs (r = m 2^-bits,
     * m odd). A stretch from each such run of pixels, its first period
     * left out (a value there may have rounded up into the binade from
     * below it). */
    fr = frac_bits(cr);
    for (o = lo, steps = 0; o < ax->out && steps < SPAN_PER_STEPS &&
                            c->per_n < CLRS_GEN_PER_STRETCHES;
         ++steps) {
        float v[4];
        double D = ldexp(1.0, fr);
        int i;
        /* the run's last pixel: the steps' binades rise with o */
        for (lo = o, hi = ax->out - 1; lo < hi;) {
            const int64_t mid = lo + (hi - lo + 1) / 2;
            if (same_binades((float)ca, (float)cr, (float)cb, o, mid))
                lo = mid;
            else
                hi = mid - 1;
        }
        if (!same_binades((float)ca, (float)cr, (float)cb, o, lo)) {
            ++o; /* a step not positive here: no stretch */
            continue;
        }
        float_steps((float)ca, (float)cr, (float)cb, o, v);
        for (i = 0; i < 4; ++i) {
            /* twice the ulp, over r for the steps after the product */
            const double q2 =
                ldexp(1.0, ilogbf(v[i]) - 23 + 1 + (i >= 2 ? fr : 0));
            if ((i > 0 || o >= ((int64_t)1 << 24)) && q2 > D)
                D = q2;
        }
        if (D <= ldexp(1.0, 20) && lo + 1 - o > 2 * (int64_t)D) {
            Pp = (int64_t)D;
            S = (int64_t)(D * cr);
            CLRS_TRY(per_stretch(low, p, u, k, V, o + Pp, lo + 1, Pp, S,
                                 c->per_n, &made));
            c->per_n += made;
        }
        o = lo + 1;
    }
    return CLRS_SUCCESS;
}

/* Outputs of a computed slot whose taps give its span patterns, in
 * each of three stretches: the axis' start, middle and end (its edges'
 * clamped taps, and the interior's). The patterns of a rational scale
 * repeat with its period, so a stretch this long holds those of most
 * scales; a group that matches none goes lane by lane. */
#define SPAN_CALC_SAMPLE 1024

/* The span path over computed slot k (forward, a fixed count, the
 * kernel computing every lane's taps): its patterns from the taps of
 * the sample's stretches, no group tables (the kernel finds each
 * group's base and pattern). A padding tap stops a group: no pattern
 * holds one, so a lane reading one goes lane by lane. */
static clrs_status span_try_calc(clrs_lowered *low, const clrs_problem *p,
                                 int k, int V, span_rules *r, int periodic,
                                 int *kept)
{
    const clrs_axis_map *ax = &p->ax[k];
    const int64_t whole = ax->out - ax->out % V;
    /* Fused channels: stretches of whole pixels and groups. */
    const int64_t C = p->fuse_c > 1 ? p->fuse_c : 1;
    const int64_t unit = V % C == 0 ? V : C % V == 0 ? C : V * C;
    int64_t from[3], pfrom[3], n = SPAN_CALC_SAMPLE - SPAN_CALC_SAMPLE % unit;
    int nr = 3, i;
    clrs_problem u = *p;
    clrs_taplist tl;
    clrs_lists s;
    clrs_status st;

    if (p->backward || low->cfg.fixed[k] < 1 || low->cfg.fixed[k] > r->taps)
        return CLRS_SUCCESS;
    r->fixed = low->cfg.fixed[k];
    r->absent = -2;
    r->pad_stops = 1;
    r->max_pat = CLRS_GEN_MAX_PAT;
    r->base_pat = 8;
    /* Stretches of whole groups (the kernel's start at multiples of V)
     * of whole pixels. */
    if (whole <= 3 * n) {
        nr = 1;
        n = whole - whole % unit;
        from[0] = 0;
    } else {
        from[0] = 0;
        from[1] = (whole / 2) - (whole / 2) % unit;
        from[2] = (whole - n) - (whole - n) % unit;
    }
    if (n < V)
        return CLRS_SUCCESS;
    /* The pixels' taps (the unfused axis), then their positions'. */
    u.ax[k].in /= C;
    u.ax[k].out /= C;
    for (i = 0; i < nr; ++i)
        pfrom[i] = from[i] / C;
    CLRS_TRY(clrs__axis_taps_ranges(&u, k, pfrom, nr, n / C, &tl));
    if (C > 1) {
        st = clrs__fuse_expand(&tl, n / C * nr, C);
        if (st < 0) {
            clrs__taplist_free(&tl);
            return st;
        }
    }
    memset(&s, 0, sizeof s);
    s.start = tl.start;
    s.fwd = tl.t;
    s.npos = n * nr;
    s.nread = ax->in;
    s.n = tl.n;
    st = span_choose(low, &s, r, V, kept);
    clrs__taplist_free(&tl);
    if (st >= 0 && *kept && periodic)
        st = span_periodic(low, p, &u, k, V);
    /* The sample's groups are not the axis': no tables of them. */
    free(low->span.base);
    free(low->span.pat);
    low->span.base = NULL;
    low->span.pat = NULL;
    low->span.count = 0;
    return st;
}

/* The span path over the last slot, if its entries allow it. Forward:
 * the taps, a varying count for weighted sums only (each lane's own
 * taps, the missing ones absent: -2, value 0, weight 0, weights
 * group-major). Backward: the transposed entries of groups of diff_src
 * elements, each lane's by increasing output index, -1 past a lane's
 * last one, weights group-major. */
clrs_status clrs__span_try(clrs_lowered *low, const clrs_problem *p,
                           const clrs_slot_taps *st, int V, int vectors,
                           int periodic, int *kept)
{
    const clrs_gen_config *c = &low->cfg;
    const int k = p->naxes - 1, K = c->fixed[k];
    int window = c->has_index && !c->plane;
    span_rules r;
    clrs_lists s;

    *kept = 0;
    memset(&r, 0, sizeof r);
    r.vectors = vectors == 16 || vectors == 8 ? vectors : 4;
    r.reach = r.vectors;
    r.taps = 2 * r.vectors;
    r.max_pat = CLRS_GEN_MAX_PAT;
    r.base_pat = 4;
    if (p->calc & (1u << k))
        return span_try_calc(low, p, k, V, &r, periodic, kept);
    if (!p->backward) {
        /* each tap still picks from 16 vectors, the group reaching on */
        if (r.vectors == CLRS_GEN_SPAN_TAP_VECTORS) {
            r.reach = SPAN_REACH_WIDE;
            r.taps = CLRS_GEN_MAX_FIXED;
        }
        if ((K == 0 && c->cls != CLRS_GEN_WSUM) || K > r.taps)
            return CLRS_SUCCESS;
        r.fixed = K;
        r.absent = -2;
        r.pad_stops = c->has_index && c->plane;
        r.codes = 1;
        r.codes_used = window;
        r.weights = K == 0;
    } else {
        r.absent = -1;
        r.empty_ok = 1;
        r.codes = r.codes_used = window;
        r.weights = c->cls == CLRS_GEN_WSUM;
    }
    clrs__lists_of(p, st, k, p->backward, &s);
    return span_choose(low, &s, &r, V, kept);
}

/* ---- the span and walk variants' candidate and construction --------- */

/* Computed taps the span path takes: forward, a fixed count (not
 * antialiased) on the last slot, which the kernel computes. */
static int calc_ok(const clrs_problem *p)
{
    return !p->backward && p->naxes > 0 && (p->calc & (1u << (p->naxes - 1))) &&
           clrs__calc_count(p) > 0;
}

/* Span path candidate: kernel axis 0 is the last resampled slot, with
 * unit stride and no block in dst, src (and the index tensor), binary
 * operands broadcast or contiguous there, and at least one whole group
 * of dst and of src elements. Returns the group width, 1
 * when not a candidate. */
static int span_width(const clrs_problem *p, const direction *d, const kaxis *k,
                      int m, const clrs_launch_request *r)
{
    const kaxis *k0 = &k[0];
    const clrs_axis_map *last = &p->ax[p->naxes > 0 ? p->naxes - 1 : 0];
    int V = r->vmax, a = k0->axis;

    if (r->generic || !r->span || V < 2 || (p->calc && !calc_ok(p)) ||
        clrs__lower_blocked_beyond_0(k, m) || d->has_x || p->naxes < 1 ||
        k0->slot != p->naxes - 1 || k0->dblk || k0->ds != 1 ||
        d->src->strides[a] != 1 || d->src->block_axis == a ||
        (p->has_index &&
         (p->index.strides[a] != 1 || p->index.block_axis == a)) ||
        !clrs__gen_dtype_vector_store(d->dst->dtype) || k0->n < V ||
        (d->gather ? last->out : last->in) < V ||
        !clrs__lower_operands_vector_ok(p, k0))
        return 1;
    return V;
}

/* Span groups' lanes, 1 when not a candidate (a column-major plane index
 * steps by the height, not by 1 along a group). */
int clrs__span_lanes(const vtry *t)
{
    const clrs_gen_config *c = &t->low->cfg;
    return c->has_index && c->plane_col
               ? 1
               : span_width(t->p, t->d, t->k, t->m, t->r);
}

/* The span path's tap patterns (clrs__span_try, above): kept where they
 * cover enough groups. */
clrs_status clrs__span_make(vtry *t)
{
    clrs_gen_config *c = &t->low->cfg;
    int V;

    if (t->span_done)
        return CLRS_SUCCESS;
    t->span_done = 1;
    V = clrs__span_lanes(t);
    CLRS_TRY(clrs__span_try(t->low, t->p, t->st, V, t->r->span_vectors,
                            t->r->per != 0, &t->span_kept));
    if (t->span_kept) {
        c->span = 1;
        c->vec = V;
    }
    return CLRS_SUCCESS;
}
