/* The span variant (variant.h), its test, construction and work-item:
 * one span group, its pattern's shuffles, or lane by lane where the
 * group has no pattern. */
#include "gen/gen_emit.h"
#include "gen/variant_lower.h"

#include <math.h>
#include <string.h>

/* ---- lowering: the test and the construction ---------------------------- */

/* Whether every position of every slot has taps, none of them padding:
 * a fused plan's passes then have no empty output to write. */
static int taps_everywhere(const vtry *t)
{
    clrs_lists l;
    int64_t i;
    int k;

    for (k = 0; k < t->p->naxes; ++k) {
        clrs__lists_of(t->p, t->st, k, 0, &l);
        for (i = 0; i < l.npos; ++i)
            if (l.start[i + 1] == l.start[i])
                return 0;
    }
    return 1;
}

/* A fused plan (CLRS_FUSED_FOLD) folds the outer slot's taps first: a
 * plain weighted sum of two slots from tables, in the accumulator the
 * passes' intermediate holds (no fixed point, no half arithmetic, no
 * OpenCV step), without padding taps or empty outputs. */
static int fold_applies(const vtry *t)
{
    const clrs_gen_config *c = &t->low->cfg;

    return !c->backward && c->cls == CLRS_GEN_WSUM && !c->raw && !c->pad_taps &&
           c->nslots == 2 && !c->calc && !c->fix && !c->f16_native &&
           !c->half_up && !c->cv8lin && !c->cv8cub && !c->cv8fr &&
           !c->has_index && taps_everywhere(t);
}

/* A fixed-point sum (clrs_gen_config.fix) of two or more slots folds the
 * outer slots' taps first as well: its integer sums are exact in any
 * order and within 16 bits (every slot's weights sum to at most 1 times
 * 2^fix_k, so a span vector's sum over the outer slots is at most 255
 * times their 2^k and the last slot's taps over those sums at most 255
 * times 2^fix), so the bytes are the unfolded kernel's; a group then
 * loads and weighs each outer row's span vectors once and picks the last
 * slot's lanes from their sums once, where the unfolded kernel picks
 * every tap's lanes in every row (u8 trilinear 2x up: 4 rows, 8 picks
 * against 2). Without padding taps, whose lanes would weigh the pad by
 * the outer slots' weights; and only where the outer slots read 4 rows
 * or more (SPAN_FIX_FOLD_ROWS) a group, each a fixed count: over 2 rows
 * (u8 and s8 bilinear 2x up) the unfolded kernel's picks of the bytes
 * before they widen cost less than the fold's of its 16-bit sums (on
 * PoCL, AVX-512: 1.1-1.15x the time folded; trilinear 2x up 0.89-0.95x,
 * 2x down about 0.97x). */
#define SPAN_FIX_FOLD_ROWS 4
static int fix_fold_applies(const vtry *t)
{
    const clrs_gen_config *c = &t->low->cfg;
    int k, rows = 1;

    /* fix is a forward weighted sum from tables already (fix_config). */
    if (t->p->fused == CLRS_FUSED_FOLD || !c->fix || c->pad_taps ||
        c->nslots < 2)
        return 0;
    for (k = 0; k + 1 < c->nslots; ++k)
        rows *= c->fixed[k];
    return rows >= SPAN_FIX_FOLD_ROWS;
}

/* A u8 or s8 average in integers (clrs_gen_config.isc): a forward
 * weighted sum from tables of one type in and out, rounded to nearest
 * even (no post-op, computed taps, vendor rule, fixed point, fold,
 * blocked tensor or fused plan), a padding value (where padding taps are
 * read) that is an integer of the type, and on every slot each output's
 * taps, at least one, weighing one weight w > 0 with w times their count
 * at most 1 (average pooling, a box filter). Every tap of an output then
 * weighs W (the slots' w multiplied as the loops nest them), and the
 * float path's sum F of the products is S W up to its rounding, S the
 * integer sum of the values: |F - S W| <= (T + 2) 2^-17 for T taps (each
 * product's error at most 2^-24 of it, the products summing to at most
 * 255 or 128 in magnitude; each of T additions at most half an ulp of a
 * sum below 256), and the group's f = fl(S) W within 2^-17 of S W. Where
 * f lies further than twice that from every half-integer, F and f
 * round (and saturate) to the same integer; the kernel checks each
 * group's lanes and runs a group that fails lane by lane in float. T
 * (the product of the slots' longest windows) at most SPAN_ISC_TAPS
 * keeps the bound small and S within 16 bits. Returns T, or 0. */
#define SPAN_ISC_TAPS 64
/* By default (fix=-1) the integer sums are kept where at most this share
 * of the outputs has a window of a count N neither odd nor a power of
 * two: a group holding one may tie and then runs its lanes one by one,
 * at about 17 times a group's time (u8 2 x 3 windows, every N 6: 88 ms
 * against the float sums' 5.1); 3x3 windows of stride 2 clip to 2 taps
 * on their first row and column only. fix=1 keeps them wherever exact. */
#define SPAN_ISC_TESTED (1.0 / 64)

/* The share of the outputs whose window's count N (the product of its
 * slots' counts) is neither odd nor a power of two: 1 less the shares of
 * all-odd and of all-power-of-two counts, plus that of counts all 1
 * (both). */
static double isc_tested(const clrs_problem *p, const clrs_slot_taps *st)
{
    double odd = 1, pow2 = 1, one = 1;
    int k;

    for (k = 0; k < p->naxes; ++k) {
        const clrs_taplist *tl = &st->tl[k];
        const int64_t out = p->ax[k].out;
        int64_t o, no = 0, np = 0, n1 = 0;
        for (o = 0; o < out; ++o) {
            const int64_t m = tl->start[o + 1] - tl->start[o];
            no += m & 1;
            np += (m & (m - 1)) == 0;
            n1 += m == 1;
        }
        odd *= (double)no / (double)out;
        pow2 *= (double)np / (double)out;
        one *= (double)n1 / (double)out;
    }
    return 1 - odd - pow2 + one;
}

static int isc_applies(const vtry *t)
{
    const clrs_problem *p = t->p;
    const clrs_gen_config *c = &t->low->cfg;
    const int s8 = c->src == CLRS_S8;
    const double pv = (double)(float)t->low->vals.pad; /* as read */
    int64_t taps = 1;
    int k, i;

    /* p's calc, cv8 and fused give c's calc, cv8 steps and (with fix)
     * fold */
    if (t->r->fix == 0 || t->r->generic || c->backward ||
        c->cls != CLRS_GEN_WSUM || c->raw || c->fix || c->unitw ||
        c->src != c->dst || (c->src != CLRS_U8 && !s8) || p->n_post_ops > 0 ||
        p->calc || c->half_up || c->acc_f64 || p->cv8 || p->fixed8 ||
        p->exact8 || p->fused)
        return 0;
    if (c->pad_taps &&
        !(pv == floor(pv) && pv >= (s8 ? -128 : 0) && pv <= (s8 ? 127 : 255)))
        return 0;
    for (i = 0; i < t->m; ++i)
        if (t->k[i].sblk || t->k[i].dblk)
            return 0;
    for (k = 0; k < p->naxes; ++k) {
        const clrs_taplist *tl = &t->st->tl[k];
        int64_t o, j, most = 0;
        for (o = 0; o < p->ax[k].out; ++o) {
            const int64_t b = tl->start[o], e = tl->start[o + 1];
            float w;
            if (e <= b || (tl->extrap && tl->extrap[o]))
                return 0;
            w = (float)tl->t[b].w;
            for (j = b; j < e; ++j)
                if ((float)tl->t[j].w != w)
                    return 0;
            if (!(w > 0) || (double)w * (double)(e - b) > 1 + 0x1p-20)
                return 0;
            if (e - b > most)
                most = e - b;
        }
        taps *= most;
        if (taps > SPAN_ISC_TAPS)
            return 0;
    }
    if (t->r->fix < 0 && isc_tested(p, t->st) > SPAN_ISC_TESTED)
        return 0;
    return (int)taps;
}

int clrs__variant_applies_SPAN(const vtry *t)
{
    if (t->p->fused == CLRS_FUSED_FOLD && !fold_applies(t))
        return 0;
    return clrs__span_lanes(t) > 1;
}

clrs_status clrs__variant_make_SPAN(vtry *t, int *made)
{
    int fused, fits;

    CLRS_TRY(clrs__span_make(t));
    /* A fold holds a sum per span vector: 16 at most. */
    fused = t->p->fused == CLRS_FUSED_FOLD;
    fits = t->low->cfg.nspan <= CLRS_GEN_SPAN_TAP_VECTORS;
    *made = t->span_kept && (!fused || fits);
    if (*made && fits && (fused || fix_fold_applies(t)))
        t->low->cfg.fold = 1;
    if (*made)
        t->low->cfg.isc = isc_applies(t);
    return CLRS_SUCCESS;
}

/* ---- generator: the work-item ------------------------------------------- */

/* The bit of each pattern whose lanes' tap counts on the last slot are
 * all odd (odd: 1) or all powers of two (odd: 0). */
static int isc_pattern_bits(const clrs_gen_config *c, int odd)
{
    const int k = c->nslots - 1;
    int q, t, l, bits = 0;

    for (q = 0; q < c->npat; ++q) {
        int all = 1;
        for (l = 0; l < c->vec; ++l) {
            int m = c->fixed[k];
            if (!m)
                for (t = 0; t < c->ntaps; ++t)
                    m += c->rel[q][t][l] > -2;
            all &= odd ? (m & 1) : (m & (m - 1)) == 0;
        }
        bits |= all << q;
    }
    return bits;
}

/* One class's test of the tie check (odd: N odd, else a power of two)
 * into ex (a disjunct, "" for none, "1" for every group): nout, the
 * outer count, constant (cn > 0) or not, and the patterns' bits. */
static void isc_class(char *ex, size_t n, const clrs_gen_config *c, int cn,
                      int odd)
{
    const int bits = isc_pattern_bits(c, odd);
    const int all = bits == (int)((1u << c->npat) - 1);
    const int cls = odd ? (cn & 1) : (cn & (cn - 1)) == 0;
    char pat[32];

    ex[0] = 0;
    snprintf(pat, sizeof pat, "((0x%x >> pgp) & 1)", (unsigned)bits);
    if (!bits || (cn > 0 && !cls))
        return;
    if (cn > 0)
        snprintf(ex, n, "%s", all ? "1" : pat);
    else if (odd)
        snprintf(ex, n, "%s(nout & 1)%s", all ? "" : "(", all ? "" : " && ");
    else
        snprintf(ex, n, "((nout & (nout - 1)) == 0%s", all ? ")" : " && ");
    if (cn <= 0 && !all) {
        strncat(ex, pat, n - strlen(ex) - 1);
        strncat(ex, ")", n - strlen(ex) - 1);
    }
}

/* "tie": whether some lane of the group's f (fsc) lies within twice the
 * error bound of a half-integer. Where the lane's window holds N taps,
 * each of weight fl(1/n) on its slot (isc_applies), N odd leaves S / N
 * at least 1 / (2N) from every half-integer, further than F and f stray
 * from it (T at most SPAN_ISC_TAPS), and N a power of two makes both
 * exact: such groups need no test. N is the outer slots' counts' product
 * (nout, a constant where their counts are fixed) times the lane's count
 * on the last slot, which the group's pattern fixes. Returns 0 where no
 * group needs the test (no "tie" then). */
static int emit_isc_tie(sbuf *b, const clrs_gen_config *c)
{
    const int V = c->vec, k = c->nslots - 1;
    char ft[16], odd[96], pow2[96];
    int s, cn = 1;

    for (s = 0; s < k; ++s)
        cn = c->fixed[s] ? cn * c->fixed[s] : 0;
    isc_class(odd, sizeof odd, c, cn, 1);
    isc_class(pow2, sizeof pow2, c, cn, 0);
    if (strcmp(odd, "1") == 0 || strcmp(pow2, "1") == 0)
        return 0;
    clrs__gen_vtype(ft, sizeof ft, "float", V);
    if (!cn) {
        clrs__gen_sb_add(b, "const int nout = ");
        for (s = 0; s < k; ++s)
            if (c->fixed[s])
                clrs__gen_sb_add(b, "%s%d", s ? " * " : "", c->fixed[s]);
            else
                clrs__gen_sb_add(b, "%s(e%d - b%d)", s ? " * " : "", s, s);
        clrs__gen_sb_add(b, ";\n");
    }
    clrs__gen_sb_add(b, "int tie = 0;\n");
    if (odd[0] && pow2[0])
        clrs__gen_sb_open(b, "if (!(%s || %s))", odd, pow2);
    else if (odd[0] || pow2[0])
        clrs__gen_sb_open(b, "if (!%s)", odd[0] ? odd : pow2);
    else
        clrs__gen_sb_open(b, "%s", "");
    /* fsc less its nearest integer (fsc < 2^22: the sum rounds it); the
     * groups that reach this test are few (a window's clipped edges),
     * and any() keeps Oclgrind's uninitialised-value checker running,
     * which the lanes ORed down by .lo and .hi crash (Oclgrind 21.10) */
    clrs__gen_sb_add(
        b, "const %s frc = fsc - ((fsc + 0x1.8p23f) - 0x1.8p23f);\n", ft);
    clrs__gen_sb_add(b, "tie = any(fabs(frc) > %af);\n",
                     0.5 - (double)(c->isc + 2) * 0x1p-16);
    clrs__gen_sb_close(b);
    return 1;
}

/* An integer average's group (clrs_gen_config.isc, isc_applies): the
 * integer sum S (the configuration as isum's 16-bit sums with weights
 * of 1), the lanes' weight W as the float path forms it (the outer
 * slots' weights at their first taps multiplied in the loops' order,
 * times the last slot's first weight of each lane), f = fl(S) W, and the
 * store where no lane's f lies within 2 (T + 2) 2^-17 of a
 * half-integer; else (and for a group without a pattern) the group's
 * lanes one by one in float. */
static void emit_isc_item(sbuf *b, const clrs_gen_config *c, const body_at *at)
{
    clrs_gen_config ci = *c;
    const int V = c->vec, n = c->nslots, k = n - 1;
    char ft[16], ww[32] = "";
    int s;

    ci.isum = 1;
    ci.unitw = 1;
    ci.isc = 0;
    clrs__gen_vtype(ft, sizeof ft, "float", V);
    clrs__gen_sb_open(b, "%s", "");
    clrs__gen_sb_add(b, "int lanes = pgp < 0;\n");
    clrs__gen_sb_open(b, "if (pgp >= 0)");
    clrs__gen_emit_sums(b, &ci, V, at);
    for (s = 0; s < k; ++s) {
        const int ax = clrs__gen_axis_of_slot(c, s);
        char ip[16];
        /* the first tap's entry: tap-major at a fixed count, else b<s> */
        if (!c->fixed[s])
            snprintf(ip, sizeof ip, "b%d", s);
        else if (ax == 0)
            snprintf(ip, sizeof ip, "%s", at->i0);
        else
            snprintf(ip, sizeof ip, "i%d", ax);
        clrs__gen_sb_add(b, "const float ws%d = %sftab[fw%d + %s];\n", s, ww, s,
                         ip);
        snprintf(ww, sizeof ww, "ws%d * ", s);
    }
    if (c->fixed[k])
        clrs__gen_sb_add(b,
                         "const %s wsc = %sCLRS_VLOAD(float, %d, ftab, fw%d + "
                         "i0);\n",
                         ft, ww, V, k);
    else
        clrs__gen_sb_add(b,
                         "const %s wsc = %sCLRS_VLOAD(float, %d, ftab, fg + "
                         "gq * %d);\n",
                         ft, ww, V, c->ntaps * V);
    clrs__gen_sb_add(b, "const %s fsc = convert_%s(acc) * wsc;\n", ft, ft);
    if (emit_isc_tie(b, c)) {
        clrs__gen_sb_add(b, "if (tie)\n    lanes = 1;\n");
        clrs__gen_sb_add(b, "else\n    ");
    }
    clrs__gen_emit_store(b, c, V, at->dof, "fsc");
    clrs__gen_sb_close(b);
    clrs__gen_sb_open(b, "if (lanes)");
    clrs__gen_emit_group_lanes(b, c);
    clrs__gen_sb_close(b);
    clrs__gen_sb_close(b);
}

void clrs__gen_item_SPAN(sbuf *b, const clrs_gen_config *c, const body_at *at)
{
    if (c->isc) {
        emit_isc_item(b, c, at);
        return;
    }
    clrs__gen_sb_open(b, "if (pgp >= 0)");
    clrs__gen_emit_body(b, c, c->vec, at);
    clrs__gen_sb_else(b, "else");
    clrs__gen_emit_group_lanes(b, c);
    clrs__gen_sb_close(b);
}
