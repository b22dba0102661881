/* The span vector path: a group of consecutive written elements along
 * the last resampled slot loads the read elements its pattern spans as a
 * few vectors and picks each tap's lanes with constant shuffles
 * (forward: the taps; backward: the transposed entries). */
#include "gen/gen_emit.h"

/* The span vectors pattern q picks from: those up to its furthest tap
 * (c->nspan covers every pattern). */
static int pat_spans(const clrs_gen_config *c, int q)
{
    int t, l, hi = 0;
    for (t = 0; t < CLRS_GEN_MAX_FIXED; ++t)
        for (l = 0; l < c->vec; ++l)
            if (c->rel[q][t][l] + 1 > hi)
                hi = c->rel[q][t][l] + 1;
    return hi > c->vec ? (hi + c->vec - 1) / c->vec : 1;
}

/* Span vector path: ns vectors of c->vec elements at src + q into s0,
 * s1, ... (type at); pad: q < 0 means a padding tap of another slot and
 * every lane is `pad`. */
static void emit_span_loads(sbuf *b, const clrs_gen_config *c, const char *at,
                            int pad, int ns)
{
    const int V = c->vec;
    char o[32], ld[192];
    int j;

    if (pad) {
        clrs__gen_sb_add(b, "%s s0", at);
        for (j = 1; j < ns; ++j)
            clrs__gen_sb_add(b, ", s%d", j);
        clrs__gen_sb_add(b, ";\n");
        clrs__gen_sb_open(b, "if (q < 0)");
        for (j = 0; j < ns; ++j)
            clrs__gen_sb_add(b, "s%d = (%s)(pad);\n", j, at);
        clrs__gen_sb_else(b, "else");
    }
    for (j = 0; j < ns; ++j) {
        snprintf(o, sizeof o, "q + %d", j * V);
        clrs__gen_load_val(ld, sizeof ld, c, o, V);
        if (pad)
            clrs__gen_sb_add(b, "s%d = %s;\n", j, ld);
        else
            clrs__gen_sb_add(b, "const %s s%d = %s;\n", at, j, ld);
    }
    if (pad)
        clrs__gen_sb_close(b);
}

/* The group's base q (the other slots' offset, or so, plus pgb) and its
 * span vectors. */
static void emit_span_base(sbuf *b, const clrs_gen_config *c, const char *so,
                           const char *at, int pad, int ns)
{
    const int n = c->nslots;
    char prev[24];

    if (n > 1)
        snprintf(prev, sizeof prev, "o%d", n - 2);
    else
        snprintf(prev, sizeof prev, "%s", so);
    clrs__gen_sb_add(b, "const %s q = %s + pgb;\n", clrs__gen_off_type(c),
                     prev);
    emit_span_loads(b, c, at, pad, ns);
}

/* Whether pattern row r (one tap, c->vec lanes) names any lane. */
int clrs__gen_pick_used(const clrs_gen_config *c, const short *r)
{
    int l, used = 0;
    for (l = 0; l < c->vec; ++l)
        used |= r[l] >= 0;
    return used;
}

/* `name` (type vt, lanes of `bytes` bytes): lane l of the
 * span vectors sp0, sp1, ... at r[l], picked with constant shuffles
 * (shuffle2 over pairs of span vectors, joined by select); lanes with
 * r[l] == -1 get padval, lanes with r[l] <= -2 (no such tap) 0. */
static void emit_pick_as(sbuf *b, const clrs_gen_config *c, const short *r,
                         const char *padval, const char *name, const char *sp,
                         const char *vt, size_t bytes, int ns)
{
    const int V = c->vec;
    char ut[16], mt[16];
    int pair, first = 1, haspad = 0, absent = 0, l;
    int mask[CLRS_GEN_MAX_LANES], sel[CLRS_GEN_MAX_LANES];

    clrs__gen_vtype(ut, sizeof ut, clrs__gen_uint_type(bytes, 1), V);
    clrs__gen_vtype(mt, sizeof mt, clrs__gen_uint_type(bytes, 0), V);
    /* Lanes from span vectors 2p and 2p + 1, one pair at a time. */
    for (pair = 0; 2 * pair < ns; ++pair) {
        int lo = 2 * pair * V, two = 2 * pair + 1 < ns, used = 0;
        for (l = 0; l < V; ++l)
            used |= r[l] >= lo && r[l] < lo + 2 * V;
        if (!used)
            continue;
        if (first)
            clrs__gen_sb_add(b, "%s %s = ", vt, name);
        else
            clrs__gen_sb_add(b, "%s = select(%s, ", name, name);
        for (l = 0; l < V; ++l) {
            int in = r[l] >= lo && r[l] < lo + 2 * V;
            mask[l] = in ? r[l] - lo : 0;
            sel[l] = in ? -1 : 0;
        }
        if (two)
            clrs__gen_sb_add(b, "CLRS_SHUF2(%s%d, %s%d, %s", sp, 2 * pair, sp,
                             2 * pair + 1, ut);
        else
            clrs__gen_sb_add(b, "CLRS_SHUF(%s%d, %s", sp, 2 * pair, ut);
        for (l = 0; l < V; ++l)
            clrs__gen_sb_add(b, ", %d", mask[l]);
        clrs__gen_sb_add(b, ")");
        if (!first) {
            clrs__gen_sb_add(b, ", ");
            clrs__gen_emit_lanes(b, mt, sel, V);
            clrs__gen_sb_add(b, ")");
        }
        clrs__gen_sb_add(b, ";\n");
        first = 0;
    }
    for (l = 0; l < V; ++l) {
        haspad |= r[l] == -1;
        absent |= r[l] <= -2;
    }
    if (first && !absent) {
        clrs__gen_sb_add(b, "const %s %s = (%s)(%s);\n", vt, name, vt, padval);
        return;
    }
    if (first) { /* padval exists only in kernels with padding taps */
        clrs__gen_sb_add(b, "%s %s = (%s)(%s);\n", vt, name, vt,
                         haspad ? padval : "0");
        haspad = 0;
    }
    if (haspad) {
        for (l = 0; l < V; ++l)
            sel[l] = r[l] == -1 ? -1 : 0;
        clrs__gen_sb_add(b, "%s = select(%s, (%s)(%s), ", name, name, vt,
                         padval);
        clrs__gen_emit_lanes(b, mt, sel, V);
        clrs__gen_sb_add(b, ");\n");
    }
    /* A lane without this tap (its output has fewer): 0, weight 0. */
    if (absent) {
        for (l = 0; l < V; ++l)
            sel[l] = r[l] <= -2 ? -1 : 0;
        clrs__gen_sb_add(b, "%s = select(%s, (%s)(0), ", name, name, vt);
        clrs__gen_emit_lanes(b, mt, sel, V);
        clrs__gen_sb_add(b, ");\n");
    }
}

/* The bytes of a lane of the value type (clrs__gen_val_type). */
static size_t val_bytes(const clrs_gen_config *c)
{
    return c->raw              ? clrs__gen_raw_bytes(c)
           : c->fix || c->isum ? 2
           : c->acc_f64        ? 8
                               : 4;
}

/* "v" (the value type) from the value spans s0, s1, .... */
static void emit_pick(sbuf *b, const clrs_gen_config *c, const short *r,
                      const char *padval, int ns)
{
    char at[16];
    clrs__gen_vtype(at, sizeof at, clrs__gen_val_type(c), c->vec);
    emit_pick_as(b, c, r, padval, "v", "s", at, val_bytes(c), ns);
}

/* A group of computed taps that matches no pattern: per tap, each lane's
 * value loaded on its own at its index yi<k>_<t> (clamped into the axis,
 * a lane outside it then taking pad), weighted by yg<k>_<t>: the lanes'
 * own taps and weights, as the scalar path's. */
static void emit_span_gather_calc(sbuf *b, const clrs_gen_config *c,
                                  const char *so)
{
    const int V = c->vec, n = c->nslots, k = n - 1, K = c->ntaps;
    const char *off = clrs__gen_off_type(c);
    char at[16], ot[16], mt[16], prev[24], o[48], ld[192];
    int t, l;

    clrs__gen_vtype(at, sizeof at, clrs__gen_val_type(c), V);
    clrs__gen_vtype(ot, sizeof ot, off, V);
    clrs__gen_vtype(mt, sizeof mt,
                    clrs__gen_uint_type(c->raw       ? clrs__gen_raw_bytes(c)
                                        : c->acc_f64 ? 8
                                                     : 4,
                                        0),
                    V);
    if (n > 1)
        snprintf(prev, sizeof prev, "o%d", n - 2);
    else
        snprintf(prev, sizeof prev, "%s", so);
    for (t = 0; t < K; ++t) {
        clrs__gen_sb_open(b, "%s", "");
        if (c->pad_taps)
            clrs__gen_sb_add(b,
                             "const %s yk = min(max(yi%d_%d, (%s)(0)), "
                             "(%s)(zn%d * %d - 1));\n",
                             ot, k, t, ot, ot, k,
                             c->calc_fuse > 1 ? c->calc_fuse : 1);
        else
            clrs__gen_sb_add(b, "const %s yk = yi%d_%d;\n", ot, k, t);
        /* another slot's padding tap (prev < 0): every lane pad */
        clrs__gen_sb_add(b, "%s v = (%s)(%s);\n", at, at,
                         c->pad_taps ? "pad" : "0");
        if (c->pad_taps && n > 1)
            clrs__gen_sb_open(b, "if (%s >= 0)", prev);
        clrs__gen_sb_add(b, "v = (%s)(", at);
        for (l = 0; l < V; ++l) {
            snprintf(o, sizeof o, "%s + yk.s%x", prev, l);
            clrs__gen_load_val(ld, sizeof ld, c, o, 1);
            clrs__gen_sb_add(b, "%s%s", l ? ", " : "", ld);
        }
        clrs__gen_sb_add(b, ");\n");
        if (c->pad_taps)
            clrs__gen_sb_add(b,
                             "v = select(v, (%s)(pad), -(convert_%s(yk != "
                             "yi%d_%d) & 1));\n",
                             at, mt, k, t);
        if (c->pad_taps && n > 1)
            clrs__gen_sb_close(b);
        if (c->raw && c->cls == CLRS_GEN_WSUM) {
            clrs__gen_sb_add(b, "acc = v;\n");
        } else {
            clrs__gen_sb_add(b, "const %s wv = ", at);
            if (n > 1)
                clrs__gen_sb_add(b, "w%d * ", n - 2);
            clrs__gen_sb_add(b, "yg%d_%d;\n", k, t);
            clrs__gen_sb_add(b, "CLRS_WSUM_STEP(acc, wv, v);\n");
        }
        clrs__gen_sb_close(b);
    }
}

/* "const <at> wv = ...;": tap t's weights of the last slot for a group
 * of c->vec outputs, the computed ones or the table's (tap-major where
 * the count is fixed, else group-major: group, tap, lane), times the
 * other slots' weight w<n - 2> where `outer` says (the whole problem's
 * product; a fold weighs its sums by the last slot's weights alone). */
static void emit_span_weight(sbuf *b, const clrs_gen_config *c, const char *at,
                             int t, int outer)
{
    const int V = c->vec, n = c->nslots, k = n - 1, K = c->ntaps;
    const char *acc = clrs__gen_acc_type(c);

    clrs__gen_sb_add(b, "const %s wv = ", at);
    if (outer && n > 1)
        clrs__gen_sb_add(b, "w%d * ", n - 2);
    if (c->calc & (1u << k))
        clrs__gen_sb_add(b, "yg%d_%d;\n", k, t);
    else if (c->unitw)
        clrs__gen_sb_add(b, "(%s)(1);\n", at);
    else if (c->fixed[k])
        clrs__gen_sb_add(b, "CLRS_VLOAD(%s, %d, ftab, fw%d + %d * n0 + i0);\n",
                         acc, V, k, t);
    else
        clrs__gen_sb_add(
            b, "CLRS_VLOAD(%s, %d, ftab, fg + (gq * %d + %d) * %d);\n", acc, V,
            K, t, V);
}

/* Span vector path, the taps of the last slot for a group of c->vec
 * outputs along kernel axis 0: the pattern's span vectors (pat_spans)
 * loaded from the group's base
 * (q: the other slots' offset plus pgb; negative under a padding tap of
 * another slot), then per pattern and tap the lanes picked with constant
 * shuffles and the padding lanes set to pad. Weights are the tap-major
 * table's, so each lane gets exactly the scalar path's weight product. */
void clrs__gen_emit_span_reduce(sbuf *b, const clrs_gen_config *c,
                                const char *so, int q)
{
    const int V = c->vec, n = c->nslots, K = c->ntaps;
    const char *off = clrs__gen_off_type(c);
    char at[16], mt[16], ot[16];
    int t, l, ns, wsum = c->cls == CLRS_GEN_WSUM;
    int mask[CLRS_GEN_MAX_LANES];

    clrs__gen_vtype(at, sizeof at, clrs__gen_val_type(c), V);
    clrs__gen_vtype(mt, sizeof mt, c->acc_f64 ? "long" : "int", V);
    /* max: the codes' type (the winner's) */
    clrs__gen_vtype(ot, sizeof ot,
                    c->has_index ? clrs__gen_win_type(c, V) : off, V);
    if (q == c->npat) { /* computed taps, no pattern: no c->rel[q] */
        emit_span_gather_calc(b, c, so);
        return;
    }
    ns = pat_spans(c, q);
    emit_span_base(b, c, so, at, c->pad_taps, ns);
    for (t = 0; t < K; ++t) {
        const short *r = c->rel[q][t];
        clrs__gen_sb_open(b, "%s", "");
        emit_pick(b, c, r, "pad", ns);
        if (c->raw && wsum) { /* a copy: the one tap's value */
            clrs__gen_sb_add(b, "acc = v;\n");
        } else if (c->raw && !c->has_index) { /* the integers themselves */
            clrs__gen_sb_add(b, "best = max(best, v);\n");
        } else if (wsum) {
            emit_span_weight(b, c, at, t, 1);
            clrs__gen_sb_add(b, "CLRS_WSUM_STEP(acc, wv, v);\n");
        } else {
            clrs__gen_sb_add(b, "const %s cv = (%s)(", ot, ot);
            if (c->has_index && n > 1)
                clrs__gen_sb_add(b, "c%d", n - 2);
            else
                clrs__gen_sb_add(b, "0");
            if (c->has_index && c->plane)
                clrs__gen_sb_add(b, " + pgb");
            clrs__gen_sb_add(b, ")");
            if (c->has_index) {
                for (l = 0; l < V; ++l)
                    mask[l] = c->plane ? r[l] : c->code[q][t][l];
                clrs__gen_sb_add(b, " + ");
                clrs__gen_emit_lanes(b, ot, mask, V);
            }
            clrs__gen_sb_add(b, ";\n");
            if (c->raw)
                clrs__gen_emit_raw_max_step(b, c, V, "v", "cv",
                                            t == 0 ? n - 1 : -1);
            else
                clrs__gen_sb_add(
                    b,
                    "CLRS_MAX_STEPV(%s, convert_%s, v, best, have, win, "
                    "cv);\n",
                    mt, ot);
        }
        clrs__gen_sb_close(b);
    }
}

/* The fold of a fused plan of two slots (clrs_gen_config.fold), as its
 * passes nest the sums: slot 0's pass sums its taps of each element
 * from 0 (the intermediate, in the value type), and the last slot's pass
 * weighs those sums by its own weights alone. Here a group's span
 * vectors of src are the elements: each row of slot 0 loads them at its
 * offset and adds them, weighed, into hs0, hs1, ...; then pattern q
 * picks each tap's lanes from the sums. A fixed-point sum's fold
 * (variant_span.c) the same over every slot but the last: each row of
 * theirs adds its span vectors weighed by their product w<n - 2>. */
void clrs__gen_emit_span_fold_open(sbuf *b, const clrs_gen_config *c, int q)
{
    const int ns = pat_spans(c, q);
    char at[16];
    int j;

    clrs__gen_vtype(at, sizeof at, clrs__gen_val_type(c), c->vec);
    for (j = 0; j < ns; ++j)
        clrs__gen_sb_add(b, "%s hs%d = (%s)(0);\n", at, j, at);
}

void clrs__gen_emit_span_fold_row(sbuf *b, const clrs_gen_config *c, int q)
{
    const int ns = pat_spans(c, q);
    char at[16];
    int j;

    clrs__gen_vtype(at, sizeof at, clrs__gen_val_type(c), c->vec);
    emit_span_base(b, c, NULL, at, 0, ns);
    for (j = 0; j < ns; ++j)
        clrs__gen_sb_add(b, "CLRS_WSUM_STEP(hs%d, w%d, s%d);\n", j,
                         c->nslots - 2, j);
}

void clrs__gen_emit_span_fold_taps(sbuf *b, const clrs_gen_config *c, int q)
{
    const int K = c->ntaps, ns = pat_spans(c, q);
    char at[16];
    int t;

    clrs__gen_vtype(at, sizeof at, clrs__gen_val_type(c), c->vec);
    for (t = 0; t < K; ++t) {
        const short *r = c->rel[q][t];
        clrs__gen_sb_open(b, "%s", "");
        emit_pick_as(b, c, r, "0", "v", "hs", at, val_bytes(c), ns);
        emit_span_weight(b, c, at, t, 0);
        clrs__gen_sb_add(b, "CLRS_WSUM_STEP(acc, wv, v);\n");
        clrs__gen_sb_close(b);
    }
}

/* The span path's branch for pattern q of npat (none when there is one):
 * groups reach it with pgp in [0, npat), so the last is "else"; the
 * caller closes the chain. */
void clrs__gen_emit_pattern_case(sbuf *b, int q, int npat)
{
    if (npat > 1 && q == 0)
        clrs__gen_sb_open(b, "if (pgp == 0)");
    else if (npat > 1 && q + 1 < npat)
        clrs__gen_sb_else(b, "else if (pgp == %d)", q);
    else if (npat > 1)
        clrs__gen_sb_else(b, "else");
}

/* Backward span vector path: the last slot's entries for a group of
 * c->vec diff_src elements, pattern q. The nspan diff_dst vectors from
 * the group's base (plus the other slots' offset), then per entry the
 * lanes picked with constant shuffles. Weighted sum: lanes past their
 * last entry pick 0 with weight 0. Max: the index tensor's spans are
 * picked the same way, and an entry adds its dy where the index names
 * it (window: the outer code plus the entry's box position; plane: the
 * lane's own plane index, myg + l) and the lane has the entry. Each lane
 * adds its entries in the scalar gather's order. */
void clrs__gen_emit_span_gather(sbuf *b, const clrs_gen_config *c,
                                const char *so, const char *io, int q)
{
    const int V = c->vec, n = c->nslots, T = c->ntaps;
    const int ns = pat_spans(c, q);
    const char *off = clrs__gen_off_type(c);
    const char *ix = clrs__gen_index_type(c);
    const int wide_ix = strcmp(ix, "long") == 0;
    char at[16], mt[16], xt[16], prev[24];
    int t, j, l, lanes[CLRS_GEN_MAX_LANES];

    clrs__gen_vtype(at, sizeof at, clrs__gen_acc_type(c), V);
    clrs__gen_vtype(mt, sizeof mt, clrs__gen_mask_type(c), V);
    clrs__gen_vtype(xt, sizeof xt, ix, V);
    emit_span_base(b, c, so, at, 0, ns);
    if (c->cls == CLRS_GEN_MAX) {
        if (n > 1)
            snprintf(prev, sizeof prev, "q%d", n - 2);
        else
            snprintf(prev, sizeof prev, "%s", io);
        clrs__gen_sb_add(b, "const %s qx = %s + pgb;\n", off, prev);
        for (j = 0; j < ns; ++j)
            clrs__gen_sb_add(
                b,
                "const %s x%d = convert_%s(vload%d(0, index + qx + "
                "%d));\n",
                xt, j, xt, V, j * V);
    }
    for (t = 0; t < T; ++t) {
        const short *r = c->rel[q][t];
        if (!clrs__gen_pick_used(c, r))
            continue;
        clrs__gen_sb_open(b, "%s", "");
        emit_pick(b, c, r, "0", ns);
        if (c->cls == CLRS_GEN_WSUM) {
            if (n > 1)
                clrs__gen_sb_add(b, "const %s wv = w%d * g%d;\n", at, n - 2, t);
            else
                clrs__gen_sb_add(b, "const %s wv = g%d;\n", at, t);
            clrs__gen_sb_add(b, "CLRS_WSUM_STEP(acc, wv, v);\n");
        } else {
            emit_pick_as(b, c, r, "-1", "xv", "x", xt,
                         wide_ix   ? 8
                         : c->isum ? 2
                                   : 4,
                         ns);
            /* The code each lane's entry must find in the index. */
            clrs__gen_sb_add(b, "const %s want = (%s)(", xt, xt);
            if (c->plane)
                clrs__gen_sb_add(b, "myg");
            else if (n > 1)
                clrs__gen_sb_add(b, "c%d", n - 2);
            else
                clrs__gen_sb_add(b, "0");
            clrs__gen_sb_add(b, ") + ");
            for (l = 0; l < V; ++l)
                lanes[l] = c->plane ? l : c->code[q][t][l];
            clrs__gen_emit_lanes(b, xt, lanes, V);
            clrs__gen_sb_add(b, ";\n");
            /* A lane without the entry picked -1, which no code (>= 0)
             * equals. (An explicit lane mask, `(xv == want) & mask`, is
             * miscompiled by Oclgrind 21.10: true lanes come out 1.) */
            if (strcmp(xt, mt) == 0)
                clrs__gen_sb_add(b, "const %s hit = xv == want;\n", mt);
            else
                clrs__gen_sb_add(b, "const %s hit = convert_%s(xv == want);\n",
                                 mt, mt);
            clrs__gen_sb_add(b, "acc = select(acc, acc + v, hit);\n");
        }
        clrs__gen_sb_close(b);
    }
}
