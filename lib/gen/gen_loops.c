/* The loop nest over the resampled slots' lists and the value loads,
 * shared by the forward reduction and the backward gather. */
#include "gen/gen_emit.h"

/* The loop nest over the entries of slots 0 .. nloops - 1, slot order
 * (row-major window order, as the reference walks it), left open.
 * Innermost: `o` is the read offset
 * (negative for a padding tap), `w` the weight product (weighted sum),
 * `c` the code sum (forward max: window or plane codes; backward: window
 * codes). Backward also: `q` the index tensor's offset and, to recompute
 * the argmax, `u` the output index of each slot. */
/* "const TYPE <v>k = ... TABLE[<seg>k + <x>k];": slot k's step of a
 * running value v (o offset, w weight, q index offset, c code), from
 * base (NULL: none) at slot 0 and from v<k-1> after; the weight
 * multiplies, the others add. */
static void emit_entry(sbuf *b, char v, const char *type, int k,
                       const char *table, const char *seg, const char *base,
                       char x)
{
    const char *op = v == 'w' ? " * " : " + ";

    clrs__gen_sb_add(b, "const %s %c%d = ", type, v, k);
    if (k > 0)
        clrs__gen_sb_add(b, "%c%d%s", v, k - 1, op);
    else if (base)
        clrs__gen_sb_add(b, "%s%s", base, op);
    clrs__gen_sb_add(b, "%s[%s%d + %c%d];\n", table, seg, k, x, k);
}

/* Whether slot k's positions are fused channels' (x * calc_fuse + c):
 * its computed taps then take pixel zpx<k>'s coordinate and add channel
 * zch<k> to each offset (emit_calc). */
static int calc_fused(const clrs_gen_config *c, int k)
{
    return c->calc_fuse > 1 && k == c->nslots - 1;
}

/* Computed taps (clrs_gen_config.calc): tap m of slot k, input index
 * `i`, as the src offset zo<k>_<m>: EDGE clamped into the axis,
 * otherwise a padding tap's offset zp<k> outside it (plus the channel
 * over fused channels). Scalars, not an array: PoCL vectorises the
 * work-item loop over them and not over a private array (a third of the
 * speed). */
static void calc_offset(sbuf *b, const clrs_gen_config *c, int k, int m,
                        const char *i)
{
    const char *off = clrs__gen_off_type(c);
    char ch[24] = "";

    if (calc_fused(c, k))
        snprintf(ch, sizeof ch, " + zch%d", k);
    if (c->calc_edge)
        clrs__gen_sb_add(b,
                         "const %s zo%d_%d = (%s < 0 ? 0 : %s > zn%d - 1 ? "
                         "zn%d - 1 : %s) * zs%d%s;\n",
                         off, k, m, i, i, k, k, i, k, ch);
    else
        clrs__gen_sb_add(
            b,
            "const %s zo%d_%d = %s >= 0 && %s < zn%d ? %s * zs%d%s "
            ": zp%d;\n",
            off, k, m, i, i, k, i, k, ch, k);
}

/* Weight m of slot k, zg<k>_<m>, from the expression w. */
static void calc_weight(sbuf *b, const clrs_gen_config *c, int k, int m,
                        const char *w)
{
    const char *acc = clrs__gen_acc_type(c);
    clrs__gen_sb_add(b, "const %s zg%d_%d = (%s)(%s);\n", acc, k, m, acc, w);
}

/* Linear weights 1 - f and f of slot k from its fraction f<k> (in the
 * weights' type ft), as the reference rounds them: once, from double. */
static void calc_linear_weights(sbuf *b, const clrs_gen_config *c, int k,
                                const char *ft, const char *f)
{
    char w[64];

    snprintf(w, sizeof w, "(%s)(1) - %s%d", ft, f, k);
    calc_weight(b, c, k, 0, w);
    snprintf(w, sizeof w, "%s%d", f, k);
    calc_weight(b, c, k, 1, w);
}

/* Keys' coefficient A of slot k as the constant <v>A<k> (z: the scalar
 * taps, y: the span group's vectors), in the weights' type. */
static void calc_cubic_a(sbuf *b, const clrs_gen_config *c, char v, int k)
{
    if (c->calc_wf64 || c->calc_f64)
        clrs__gen_sb_add(b, "const double %cA%d = %.17g;\n", v, k, c->calc_a);
    else
        clrs__gen_sb_add(b, "const float %cA%d = %.9gf;\n", v, k,
                         (double)(float)c->calc_a);
}

/* Keys' cubic kernel on u (an expression) with coefficient A, |u| < 1
 * (near) or 1 <= |u| < 2, as the reference evaluates it (taps.c). */
static void calc_cubic_weight(sbuf *b, const clrs_gen_config *c, int k, int m,
                              const char *wt, const char *u, int near)
{
    char w[160];

    clrs__gen_sb_add(b, "const %s zc%d_%d = %s;\n", wt, k, m, u);
    if (near)
        snprintf(w, sizeof w,
                 "((zA%d + 2) * zc%d_%d - (zA%d + 3)) * zc%d_%d * zc%d_%d + 1",
                 k, k, m, k, k, m, k, m);
    else
        snprintf(w, sizeof w,
                 "((zA%d * zc%d_%d - 5 * zA%d) * zc%d_%d + 8 * zA%d) * "
                 "zc%d_%d - 4 * zA%d",
                 k, k, m, k, k, m, k, k, m, k);
    calc_weight(b, c, k, m, w);
}

/* Slot k's taps computed from output index ip into zo<k>_<m> (src
 * offsets) and, for a weighted sum, zg<k>_<m> (weights), exactly as the
 * reference's tap lists hold them (taps.c, coords.c): x = ((ip + a) * r)
 * - b in three rounded steps (contraction is off), its floor and
 * fraction, then the mode's rule. */
static void emit_calc(sbuf *b, const clrs_gen_config *c, int k, const char *ip)
{
    const char *off = clrs__gen_off_type(c);
    const char *crd = c->calc_f64 ? "double" : "float";
    /* The fraction and the weights: exact in double (float's x - floor(x)
     * rounds for x in (-1, 0)), as the reference holds them. */
    const char *ft = c->calc_wf64 ? "double" : crd;
    const int K = c->calc_kind, wsum = c->cls == CLRS_GEN_WSUM && !c->raw;
    char i[32], ch[24] = "", px[24];

    if (calc_fused(c, k)) { /* position ip: pixel and channel */
        clrs__gen_sb_add(b, "const %s zpx%d = (%s) / %d;\n", off, k, ip,
                         c->calc_fuse);
        clrs__gen_sb_add(b, "const %s zch%d = (%s) %% %d;\n", off, k, ip,
                         c->calc_fuse);
        snprintf(ch, sizeof ch, " + zch%d", k);
        snprintf(px, sizeof px, "zpx%d", k);
        ip = px;
    }
    clrs__gen_sb_add(b, "const %s zt%d = (%s)(%s) + za%d;\n", crd, k, crd, ip,
                     k);
    clrs__gen_sb_add(b, "const %s zu%d = zt%d * zr%d;\n", crd, k, k, k);
    clrs__gen_sb_add(b, "const %s zx%d = zu%d - zb%d;\n", crd, k, k, k);
    /* floor(x) as truncation corrected below 0: |x| stays far inside
     * 32 bits (clrs__calc_slot_ok), and as a float it is exact (a float
     * past 2^24 is an integer). */
    clrs__gen_sb_add(b, "const %s zq%d = (%s)zx%d;\n", off, k, off, k);
    clrs__gen_sb_add(b, "const %s zl%d = (%s)zq%d > zx%d ? zq%d - 1 : zq%d;\n",
                     off, k, crd, k, k, k, k);
    clrs__gen_sb_add(b, "const %s zw%d = (%s)zx%d - (%s)zl%d;\n", ft, k, ft, k,
                     ft, k);
    if (K == 1) {
        switch (c->calc_round) {
        case CLRS_ROUND_PREFER_FLOOR: /* ceil(x - 0.5) */
            clrs__gen_sb_add(b,
                             "const %s zi%d = zw%d > (%s)(0.5f) ? zl%d + 1 : "
                             "zl%d;\n",
                             off, k, k, ft, k, k);
            break;
        case CLRS_ROUND_PREFER_CEIL: /* floor(x + 0.5) */
            clrs__gen_sb_add(b,
                             "const %s zi%d = zw%d >= (%s)(0.5f) ? zl%d + 1 : "
                             "zl%d;\n",
                             off, k, k, ft, k, k);
            break;
        case CLRS_ROUND_CEIL:
            clrs__gen_sb_add(b, "const %s zi%d = zw%d > 0 ? zl%d + 1 : zl%d;\n",
                             off, k, k, k, k);
            break;
        default: /* CLRS_ROUND_FLOOR */
            clrs__gen_sb_add(b, "const %s zi%d = zl%d;\n", off, k, k);
            break;
        }
        snprintf(i, sizeof i, "zi%d", k);
        calc_offset(b, c, k, 0, i);
        if (wsum)
            calc_weight(b, c, k, 0, "1");
        return;
    }
    if (K == 2 && c->calc_edge) {
        /* Clamped: x below 0 or beyond I - 1 reads the edge pixel with
         * weight 1. */
        clrs__gen_sb_add(b, "const int zlo%d = zl%d < 0;\n", k, k);
        clrs__gen_sb_add(b,
                         "const int zhi%d = !zlo%d && (zl%d > zn%d - 1 || "
                         "(zl%d == zn%d - 1 && zw%d > 0));\n",
                         k, k, k, k, k, k, k);
        clrs__gen_sb_add(
            b, "const %s zi%d = zlo%d ? 0 : zhi%d ? zn%d - 1 : zl%d;\n", off, k,
            k, k, k, k);
        clrs__gen_sb_add(b,
                         "const %s zy%d = zlo%d || zhi%d ? (%s)(0) : zw%d;\n",
                         ft, k, k, k, ft, k);
        clrs__gen_sb_add(b, "const %s zo%d_0 = zi%d * zs%d%s;\n", off, k, k, k,
                         ch);
        clrs__gen_sb_add(b,
                         "const %s zo%d_1 = (zi%d + 1 < zn%d - 1 ? zi%d + 1 : "
                         "zn%d - 1) * zs%d%s;\n",
                         off, k, k, k, k, k, k, ch);
        if (wsum)
            calc_linear_weights(b, c, k, ft, "zy");
        return;
    }
    if (K == 2) {
        snprintf(i, sizeof i, "zl%d", k);
        calc_offset(b, c, k, 0, i);
        snprintf(i, sizeof i, "(zl%d + 1)", k);
        calc_offset(b, c, k, 1, i);
        if (wsum)
            calc_linear_weights(b, c, k, ft, "zw");
        return;
    }
    { /* cubic: pixels floor - 1 .. floor + 2 */
        char u[48];
        int m;
        for (m = 0; m < 4; ++m) {
            if (m == 1)
                snprintf(i, sizeof i, "zl%d", k);
            else
                snprintf(i, sizeof i, "(zl%d %c %d)", k, m ? '+' : '-',
                         m ? m - 1 : 1);
            calc_offset(b, c, k, m, i);
        }
        if (!wsum)
            return;
        calc_cubic_a(b, c, 'z', k);
        clrs__gen_sb_add(b, "const %s zT%d = (%s)zw%d;\n", ft, k, ft, k);
        snprintf(u, sizeof u, "zT%d + 1", k);
        calc_cubic_weight(b, c, k, 0, ft, u, 0);
        snprintf(u, sizeof u, "zT%d", k);
        calc_cubic_weight(b, c, k, 1, ft, u, 1);
        snprintf(u, sizeof u, "1 - zT%d", k);
        calc_cubic_weight(b, c, k, 2, ft, u, 1);
        snprintf(u, sizeof u, "2 - zT%d", k);
        calc_cubic_weight(b, c, k, 3, ft, u, 0);
    }
}

/* Computed tap t<k> of slot k among its K scalars (`zo` or `zg`): a
 * chain of selects, which the unrolled loop folds to one. */
static void calc_pick(sbuf *b, const char *v, int k, int K)
{
    int m;
    clrs__gen_sb_add(b, "(");
    for (m = 0; m < K - 1; ++m)
        clrs__gen_sb_add(b, "t%d == %d ? %s%d_%d : ", k, m, v, k, m);
    clrs__gen_sb_add(b, "%s%d_%d)", v, k, K - 1);
}

/* The weight type of computed taps: double where the reference's
 * values are exact only there. */
static const char *calc_ft(const clrs_gen_config *c)
{
    return c->calc_wf64 || c->calc_f64 ? "double" : "float";
}

/* Linear weights yg<k>_0 = 1 - f and yg<k>_1 = f of the fraction f<k>
 * (a vector of the coordinate's type, exact): into float in float (1 - f
 * rounded once from its exact value, as double's exact difference is),
 * into double from double. */
static void calc_vec_linear_weights(sbuf *b, const clrs_gen_config *c, int k,
                                    const char *f)
{
    const char *crd = c->calc_f64 ? "double" : "float";
    const char *acc = clrs__gen_acc_type(c);
    char av[16], fv[16];

    clrs__gen_vtype(av, sizeof av, acc, c->vec);
    clrs__gen_vtype(fv, sizeof fv, calc_ft(c), c->vec);
    if (strcmp(acc, "float") == 0 || strcmp(crd, "double") == 0)
        clrs__gen_sb_add(b, "const %s yg%d_0 = convert_%s((%s)(1) - %s%d);\n",
                         av, k, av, crd, f, k);
    else
        clrs__gen_sb_add(b,
                         "const %s yg%d_0 = convert_%s((%s)(1) - "
                         "convert_%s(%s%d));\n",
                         av, k, av, calc_ft(c), fv, f, k);
    clrs__gen_sb_add(b, "const %s yg%d_1 = convert_%s(%s%d);\n", av, k, av, f,
                     k);
}

/* clrs__gen_emit_calc_vec's taps of the pixels: yj<k>_<m> and the
 * weights yg<k>_<m>, from the floor yl<k> and fraction yw<k>. */
static void calc_vec_taps(sbuf *b, const clrs_gen_config *c, int k)
{
    const int V = c->vec, K = c->calc_kind;
    const int wsum = c->cls == CLRS_GEN_WSUM && !c->raw;
    const char *off = clrs__gen_off_type(c), *ft = calc_ft(c);
    const char *crd = c->calc_f64 ? "double" : "float";
    char ov[16], cv[16], fv[16], fm[16], av[16], u[48], w[160];
    int m;

    clrs__gen_vtype(ov, sizeof ov, off, V);
    clrs__gen_vtype(cv, sizeof cv, crd, V);
    clrs__gen_vtype(fv, sizeof fv, ft, V);
    clrs__gen_vtype(fm, sizeof fm, strcmp(crd, "double") ? "int" : "long", V);
    clrs__gen_vtype(av, sizeof av, clrs__gen_acc_type(c), V);
    if (K == 1) {
        const char *cmp = c->calc_round == CLRS_ROUND_PREFER_FLOOR  ? ">"
                          : c->calc_round == CLRS_ROUND_PREFER_CEIL ? ">="
                          : c->calc_round == CLRS_ROUND_CEIL        ? ">"
                                                                    : NULL;
        const char *lim = c->calc_round == CLRS_ROUND_CEIL ? "0" : "0.5f";
        clrs__gen_sb_add(b, "%s yj%d_0 = yl%d", ov, k, k);
        if (cmp)
            clrs__gen_sb_add(b, " + (convert_%s(yw%d %s (%s)(%s)) & 1)", ov, k,
                             cmp, crd, lim);
        clrs__gen_sb_add(b, ";\n");
        /* min and max of vectors: Oclgrind 21.10's integer clamp with
         * scalar bounds gets every lane but the first wrong */
        if (c->calc_edge)
            clrs__gen_sb_add(b,
                             "yj%d_0 = min(max(yj%d_0, (%s)(0)), (%s)(zn%d - "
                             "1));\n",
                             k, k, ov, ov, k);
        if (wsum)
            clrs__gen_sb_add(b, "const %s yg%d_0 = (%s)(1);\n", av, k, av);
        return;
    }
    if (K == 2 && c->calc_edge) {
        /* masks of 0 or -1 from comparisons taken & 1, then negated */
        clrs__gen_sb_add(b, "const %s ylo%d = -((yl%d < 0) & 1);\n", ov, k, k);
        clrs__gen_sb_add(
            b,
            "const %s yhi%d = ~ylo%d & -(((yl%d > zn%d - 1) | "
            "((yl%d == zn%d - 1) & convert_%s(yw%d > (%s)(0)))) & 1);\n",
            ov, k, k, k, k, k, k, ov, k, crd);
        clrs__gen_sb_add(
            b,
            "const %s yj%d_0 = select(select(yl%d, (%s)(zn%d - 1), "
            "yhi%d), (%s)(0), ylo%d);\n",
            ov, k, k, ov, k, k, ov, k);
        clrs__gen_sb_add(b,
                         "const %s yj%d_1 = min(yj%d_0 + 1, (%s)(zn%d - 1));\n",
                         ov, k, k, ov, k);
        if (wsum) {
            clrs__gen_sb_add(b,
                             "const %s yy%d = select(yw%d, (%s)(0), "
                             "convert_%s(ylo%d | yhi%d));\n",
                             cv, k, k, cv, fm, k, k);
            calc_vec_linear_weights(b, c, k, "yy");
        }
        return;
    }
    if (K == 2) {
        clrs__gen_sb_add(b, "const %s yj%d_0 = yl%d;\n", ov, k, k);
        clrs__gen_sb_add(b, "const %s yj%d_1 = yl%d + 1;\n", ov, k, k);
        if (wsum)
            calc_vec_linear_weights(b, c, k, "yw");
        return;
    }
    /* cubic: pixels floor - 1 .. floor + 2 */
    for (m = 0; m < 4; ++m) {
        if (c->calc_edge)
            clrs__gen_sb_add(b,
                             "const %s yj%d_%d = min(max(yl%d + %d, (%s)(0)), "
                             "(%s)(zn%d - 1));\n",
                             ov, k, m, k, m - 1, ov, ov, k);
        else
            clrs__gen_sb_add(b, "const %s yj%d_%d = yl%d + %d;\n", ov, k, m, k,
                             m - 1);
    }
    if (!wsum)
        return;
    calc_cubic_a(b, c, 'y', k);
    for (m = 0; m < 4; ++m) {
        static const char *const us[4] = {"yT%d + 1", "yT%d", "1 - yT%d",
                                          "2 - yT%d"};
        if (m == 0)
            clrs__gen_sb_add(b, "const %s yT%d = convert_%s(yw%d);\n", fv, k,
                             fv, k);
        snprintf(u, sizeof u, us[m], k);
        clrs__gen_sb_add(b, "const %s yc%d_%d = %s;\n", fv, k, m, u);
        if (m == 1 || m == 2)
            snprintf(w, sizeof w,
                     "((yA%d + 2) * yc%d_%d - (yA%d + 3)) * yc%d_%d * "
                     "yc%d_%d + 1",
                     k, k, m, k, k, m, k, m);
        else
            snprintf(w, sizeof w,
                     "((yA%d * yc%d_%d - 5 * yA%d) * yc%d_%d + 8 * yA%d) * "
                     "yc%d_%d - 4 * yA%d",
                     k, k, m, k, k, m, k, k, m, k);
        clrs__gen_sb_add(b, "const %s yg%d_%d = convert_%s(%s);\n", av, k, m,
                         av, w);
    }
}

/* emit_calc for the c->vec lanes of a span group at once, outputs
 * i0 + l of slot k (the last, kernel axis 0), as vectors: yx<k> the
 * coordinates, yi<k>_<m> the input index of tap m (clamped for EDGE;
 * unclamped otherwise, a lane outside the axis then matches no pattern)
 * and, for a weighted sum, yg<k>_<m> its weight. Each lane takes
 * emit_calc's steps (the conversions round as the casts do: to nearest
 * into floating types, toward zero into integers), with one difference:
 * the fraction x - floor(x) is taken in the coordinate's type, exact
 * for x >= 0 (x and its floor are within a factor 2, or the floor is 0)
 * and so equal to emit_calc's double one. A group whose lane 0 has
 * x < 0 (the axis' first outputs) matches no pattern (gen_body.c,
 * emit_span_calc) and goes lane by lane through emit_calc. Over fused
 * channels a lane's position o is pixel o / C's channel o % C: the
 * pixel's taps, each index times C plus the channel.
 * Linear weights into float are taken in float: 1 - f rounded once from
 * its exact value is what double's exact (or, for f < 2^-30, nearly 1)
 * difference rounds to. */
void clrs__gen_emit_calc_vec(sbuf *b, const clrs_gen_config *c, int k,
                             const char *i0)
{
    const int V = c->vec, K = c->calc_kind;
    const char *off = clrs__gen_off_type(c);
    const char *crd = c->calc_f64 ? "double" : "float";
    char ov[16], cv[16];
    int l, m;

    clrs__gen_vtype(ov, sizeof ov, off, V);
    clrs__gen_vtype(cv, sizeof cv, crd, V);
    clrs__gen_sb_add(b, "const %s yo%d = (%s)(%s) + (%s)(", ov, k, ov, i0, ov);
    for (l = 0; l < V; ++l)
        clrs__gen_sb_add(b, "%s%d", l ? ", " : "", l);
    clrs__gen_sb_add(b, ");\n");
    if (calc_fused(c, k)) {
        /* Positions into pixels and channels: i0's by one scalar
         * division, then lane l's offset t (at most C - 1 + V - 1) by a
         * multiply and shift, exact for t that small (a vector division
         * by 3 is a division a lane on PoCL). */
        const int C = c->calc_fuse, M = 65536 / C + 1;
        clrs__gen_sb_add(b, "const %s yP%d = (%s) / %d;\n", off, k, i0, C);
        clrs__gen_sb_add(b, "const %s yr%d = (%s)(%s - yP%d * %d) + (%s)(", ov,
                         k, ov, i0, k, C, ov);
        for (l = 0; l < V; ++l)
            clrs__gen_sb_add(b, "%s%d", l ? ", " : "", l);
        clrs__gen_sb_add(b, ");\n");
        clrs__gen_sb_add(b, "const %s ye%d = (yr%d * %d) >> 16;\n", ov, k, k,
                         M);
        clrs__gen_sb_add(b, "const %s yf%d = yr%d - ye%d * %d;\n", ov, k, k, k,
                         C);
        clrs__gen_sb_add(b, "const %s yp%d = (%s)(yP%d) + ye%d;\n", ov, k, ov,
                         k, k);
    } else {
        clrs__gen_sb_add(b, "const %s yp%d = yo%d;\n", ov, k, k);
    }
    clrs__gen_sb_add(b, "const %s yt%d = convert_%s(yp%d) + za%d;\n", cv, k, cv,
                     k, k);
    clrs__gen_sb_add(b, "const %s yu%d = yt%d * zr%d;\n", cv, k, k, k);
    clrs__gen_sb_add(b, "const %s yx%d = yu%d - zb%d;\n", cv, k, k, k);
    clrs__gen_sb_add(b, "const %s yq%d = convert_%s(yx%d);\n", ov, k, ov, k);
    /* floor: one less where the truncation is above x (emit_calc's
     * steps; a comparison's lanes taken & 1: Oclgrind 21.10 gives some
     * true lanes 1, not -1) */
    clrs__gen_sb_add(b,
                     "const %s yl%d = yq%d - (convert_%s(convert_%s(yq%d) > "
                     "yx%d) & 1);\n",
                     ov, k, k, ov, cv, k, k);
    clrs__gen_sb_add(b, "const %s yw%d = yx%d - convert_%s(yl%d);\n", cv, k, k,
                     cv, k);
    calc_vec_taps(b, c, k);
    for (m = 0; m < K; ++m) {
        if (calc_fused(c, k))
            clrs__gen_sb_add(b, "const %s yi%d_%d = yj%d_%d * %d + yf%d;\n", ov,
                             k, m, k, m, c->calc_fuse, k);
        else
            clrs__gen_sb_add(b, "const %s yi%d_%d = yj%d_%d;\n", ov, k, m, k,
                             m);
    }
}

/* Antialiased computed taps: the filter's value at zv<k> (the distance
 * over the stretch) into const zk<k>, as taps.c's linear_kernel and
 * cubic_kernel. */
static void emit_aa_kernel(sbuf *b, const clrs_gen_config *c, int k)
{
    const char *ft = calc_ft(c);

    clrs__gen_sb_add(b, "const %s zm%d = fabs(zv%d);\n", ft, k, k);
    if (c->calc_kind == 2) {
        clrs__gen_sb_add(b, "const %s zk%d = zm%d < 1 ? 1 - zm%d : (%s)(0);\n",
                         ft, k, k, k, ft);
        return;
    }
    clrs__gen_sb_add(b,
                     "const %s zkn%d = ((zA%d + 2) * zm%d - (zA%d + 3)) * "
                     "zm%d * zm%d + 1;\n",
                     ft, k, k, k, k, k, k);
    clrs__gen_sb_add(b,
                     "const %s zkf%d = ((zA%d * zm%d - 5 * zA%d) * zm%d + 8 * "
                     "zA%d) * zm%d - 4 * zA%d;\n",
                     ft, k, k, k, k, k, k, k, k);
    clrs__gen_sb_add(b,
                     "const %s zk%d = zm%d < 1 ? zkn%d : zm%d < 2 ? zkf%d : "
                     "(%s)(0);\n",
                     ft, k, k, k, k, k, ft);
}

/* The loop of antialiased computed slot k over t<k> from <lo><k> to
 * <end><k> (an expression of k's variables, exclusive): over the range
 * itself, or with a trip count (calc_nt) a constant loop, unrolled, that
 * skips the positions past the range (an output's taps, in order, the
 * same). */
static void aa_loop_open(sbuf *b, const clrs_gen_config *c, int k,
                         const char *lo, const char *end)
{
    const char *off = clrs__gen_off_type(c);
    char e[48];

    if (!strcmp(end, "zhi + 1"))
        snprintf(e, sizeof e, "zhi%d + 1", k);
    else
        snprintf(e, sizeof e, "%s%d", end, k);
    if (!c->calc_nt[k]) {
        clrs__gen_sb_open(b, "for (%s t%d = %s%d; t%d < %s; ++t%d)", off, k, lo,
                          k, k, e, k);
        return;
    }
    clrs__gen_sb_add(b, "#pragma unroll\n");
    clrs__gen_sb_open(b, "for (%s tq%d = 0; tq%d < %d; ++tq%d)", off, k, k,
                      c->calc_nt[k], k);
    clrs__gen_sb_add(b, "const %s t%d = %s%d + tq%d;\n", off, k, lo, k, k);
    clrs__gen_sb_add(b, "if (t%d >= %s)\n    continue;\n", k, e);
}

void clrs__gen_emit_calc_range(sbuf *b, const clrs_gen_config *c, int k,
                               const char *ip)
{
    const char *off = clrs__gen_off_type(c), *ft = calc_ft(c);
    const char *crd = c->calc_f64 ? "double" : "float";

    clrs__gen_sb_add(b, "const %s zt%d = (%s)(%s) + za%d;\n", crd, k, crd, ip,
                     k);
    clrs__gen_sb_add(b, "const %s zu%d = zt%d * zr%d;\n", crd, k, k, k);
    clrs__gen_sb_add(b, "const %s zX%d = (%s)(zu%d - zb%d);\n", ft, k, ft, k,
                     k);
    if (c->calc_kind == 4) {
        if (!strcmp(ft, "double"))
            clrs__gen_sb_add(b, "const double zA%d = %.17g;\n", k, c->calc_a);
        else
            clrs__gen_sb_add(b, "const float zA%d = %.9gf;\n", k,
                             (double)(float)c->calc_a);
    }
    clrs__gen_sb_add(b, "const %s zS%d = (%s)(%d) * zaa%d;\n", ft, k, ft,
                     c->calc_kind == 4 ? 2 : 1, k);
    clrs__gen_sb_add(b, "%s zlo%d = (%s)floor(zX%d - zS%d) + 1;\n", off, k, off,
                     k, k);
    clrs__gen_sb_add(b, "%s zhi%d = -(%s)floor(-(zX%d + zS%d)) - 1;\n", off, k,
                     off, k, k);
    if (c->calc_restrict) {
        clrs__gen_sb_add(b, "if (zlo%d < 0)\n    zlo%d = 0;\n", k, k);
        clrs__gen_sb_add(b, "if (zhi%d > zn%d - 1)\n    zhi%d = zn%d - 1;\n", k,
                         k, k, k);
    }
    /* The sum of the nonzero weights, in the reference's order; with a
     * trip count the filter's values kept for the taps' loop (zkv<k>,
     * registers once unrolled; zeros first, so that a zone's read of an
     * entry no pixel set, whose value it does not use, is defined). */
    clrs__gen_sb_add(b, "%s zsum%d = 0;\n", ft, k);
    if (c->calc_nt[k])
        clrs__gen_sb_add(b, "%s zkv%d[%d] = {0};\n", ft, k, c->calc_nt[k]);
    aa_loop_open(b, c, k, "zlo", "zhi + 1");
    clrs__gen_sb_add(b, "const %s zv%d = ((%s)t%d - zX%d) / zaa%d;\n", ft, k,
                     ft, k, k, k);
    emit_aa_kernel(b, c, k);
    if (c->calc_nt[k])
        clrs__gen_sb_add(b, "zkv%d[tq%d] = zk%d;\n", k, k, k);
    clrs__gen_sb_add(b, "if (zk%d != 0)\n    zsum%d += zk%d;\n", k, k, k);
    clrs__gen_sb_close(b);
    /* No pixel under the filter: the nearest edge pixel, weight 1. */
    clrs__gen_sb_add(b, "const int zone%d = zsum%d == 0;\n", k, k);
    clrs__gen_sb_add(b,
                     "const %s b%d = zone%d ? (zX%d < 0 ? 0 : zn%d - 1) : "
                     "zlo%d;\n",
                     off, k, k, k, k, k);
    clrs__gen_sb_add(b, "const %s e%d = zone%d ? b%d + 1 : zhi%d + 1;\n", off,
                     k, k, k, k);
}

/* The step of antialiased computed taps inside slot k's loop over
 * t<k>: a pixel of weight 0 is no tap; the offset (edge clamped, or a
 * padding tap) and the normalised weight. */
static void emit_aa_entry(sbuf *b, const clrs_gen_config *c, int k,
                          const char *so, int wsum)
{
    const char *off = clrs__gen_off_type(c), *acc = clrs__gen_acc_type(c);
    const char *ft = calc_ft(c);

    if (c->calc_nt[k]) { /* the sum's loop's value (zone: unused) */
        clrs__gen_sb_add(b, "const %s zk%d = zkv%d[tq%d];\n", ft, k, k, k);
    } else {
        clrs__gen_sb_add(b, "const %s zv%d = ((%s)t%d - zX%d) / zaa%d;\n", ft,
                         k, ft, k, k, k);
        emit_aa_kernel(b, c, k);
    }
    clrs__gen_sb_add(b, "if (!zone%d && zk%d == 0)\n    continue;\n", k, k);
    clrs__gen_sb_add(b, "const %s o%d = ", off, k);
    if (k > 0)
        clrs__gen_sb_add(b, "o%d + ", k - 1);
    else if (so)
        clrs__gen_sb_add(b, "%s + ", so);
    if (c->calc_edge)
        clrs__gen_sb_add(b,
                         "(t%d < 0 ? 0 : t%d > zn%d - 1 ? zn%d - 1 : t%d) * "
                         "zs%d;\n",
                         k, k, k, k, k, k);
    else
        clrs__gen_sb_add(b, "(t%d >= 0 && t%d < zn%d ? t%d * zs%d : zp%d);\n",
                         k, k, k, k, k, k);
    if (!wsum)
        return;
    clrs__gen_sb_add(b, "const %s w%d = ", acc, k);
    if (k > 0)
        clrs__gen_sb_add(b, "w%d * ", k - 1);
    clrs__gen_sb_add(b, "(zone%d ? (%s)(1) : (%s)(zk%d / zsum%d));\n", k, acc,
                     acc, k, k);
}

void clrs__gen_emit_loops(sbuf *b, const clrs_gen_config *c, const char *so,
                          const char *io, int nloops, const char *i0name)
{
    clrs__gen_emit_loops_from(b, c, so, io, 0, nloops, i0name);
}

void clrs__gen_emit_loops_from(sbuf *b, const clrs_gen_config *c,
                               const char *so, const char *io, int k0,
                               int nloops, const char *i0name)
{
    const char *off = clrs__gen_off_type(c), *acc = clrs__gen_acc_type(c);
    const int bwd = c->backward, wsum = c->cls == CLRS_GEN_WSUM;
    const int codes = bwd ? c->has_index && !c->plane : c->has_index;
    const char x = bwd ? 't' : 'x'; /* the entry's table position */
    int k;

    for (k = k0; k < nloops; ++k) { /* computed taps first, once */
        char ip[16];
        if (!(c->calc & (1u << k)) || !c->fixed[k])
            continue; /* antialiased: clrs__gen_emit_calc_range */
        if (clrs__gen_axis_of_slot(c, k) == 0)
            snprintf(ip, sizeof ip, "%s", i0name);
        else
            snprintf(ip, sizeof ip, "i%d", clrs__gen_axis_of_slot(c, k));
        emit_calc(b, c, k, ip);
    }
    for (k = k0; k < nloops; ++k) {
        char ip[16];
        if (clrs__gen_axis_of_slot(c, k) == 0)
            snprintf(ip, sizeof ip, "%s", i0name);
        else
            snprintf(ip, sizeof ip, "i%d", clrs__gen_axis_of_slot(c, k));
        /* A constant trip count unrolled leaves the work-item loop PoCL
         * wraps around the kernel innermost, so it can vectorise it; not
         * around a span group reaching past 16 vectors, whose body PoCL's
         * LLVM declined to unroll (a warning: "loop not unrolled"). */
        if (c->fixed[k] && !(c->span && c->nspan > CLRS_GEN_SPAN_TAP_VECTORS))
            clrs__gen_sb_add(b, "#pragma unroll\n");
        /* x: the tap's table position. Fixed-count tables are stored
         * tap-major (position t * O + o), so consecutive work-items read
         * consecutive entries and no two loads of one work-item are
         * adjacent (which the SLP vectoriser would fuse into a short
         * vector that then blocks vectorising the work-item loop). O is
         * the axis' real size (nr) where the written tensor blocks it:
         * n then counts the padding lanes, which have no taps. */
        if ((c->calc & (1u << k)) && c->fixed[k]) {
            clrs__gen_sb_open(b, "for (%s t%d = 0; t%d < %d; ++t%d)", off, k, k,
                              c->fixed[k], k);
            clrs__gen_sb_add(b, "const %s o%d = ", off, k);
            if (k > 0)
                clrs__gen_sb_add(b, "o%d + ", k - 1);
            else if (so)
                clrs__gen_sb_add(b, "%s + ", so);
            calc_pick(b, "zo", k, c->fixed[k]);
            clrs__gen_sb_add(b, ";\n");
            if (wsum && !c->raw) {
                clrs__gen_sb_add(b, "const %s w%d = ", acc, k);
                if (k > 0)
                    clrs__gen_sb_add(b, "w%d * ", k - 1);
                calc_pick(b, "zg", k, c->fixed[k]);
                clrs__gen_sb_add(b, ";\n");
            }
            continue;
        }
        if (c->fixed[k]) {
            clrs__gen_sb_open(b, "for (%s t%d = 0; t%d < %d; ++t%d)", off, k, k,
                              c->fixed[k], k);
            clrs__gen_sb_add(
                b, "const %s x%d = t%d * %s%d + %s;\n", off, k, k,
                c->ax[clrs__gen_axis_of_slot(c, k)].dst_block ? "nr" : "n",
                clrs__gen_axis_of_slot(c, k), ip);
        } else {
            if (c->calc & (1u << k)) {
                aa_loop_open(b, c, k, "b", "e");
                emit_aa_entry(b, c, k, so, wsum && !c->raw);
                continue;
            }
            clrs__gen_sb_open(b, "for (%s t%d = b%d; t%d < e%d; ++t%d)", off, k,
                              k, k, k, k);
        }
        if (!c->fixed[k] && !bwd)
            clrs__gen_sb_add(b, "const %s x%d = t%d;\n", off, k, k);
        emit_entry(b, 'o', off, k, "itab", "of", so, x);
        if (wsum && c->unitw) /* every weight 1 (never a copy) */
            clrs__gen_sb_add(b, "const %s w%d = (%s)(1);\n", acc, k, acc);
        else if (wsum && !c->raw) /* a copy's weights are all 1 */
            emit_entry(b, 'w', acc, k, "ftab", "fw", NULL, x);
        if (bwd && c->has_index)
            emit_entry(b, 'q', off, k, "itab", "ix", io, 't');
        if (codes)
            emit_entry(b, 'c', off, k, "itab", "cd", NULL, x);
        if (c->recompute)
            clrs__gen_sb_add(b, "const %s u%d = itab[cd%d + t%d];\n", off, k, k,
                             k);
    }
}

/* Backward weighted sums over two or more slots split acc per entry of
 * slot n - 2: that entry's entries of the last slot are summed from 0 and
 * then added to the sum so far (accp). Each entry starts a new dependency
 * chain, which the processor overlaps with the previous one; one chain
 * through every entry serialised the adds. The order stays fixed: runs
 * are bit-identical. Forward kernels keep one chain: their unrolled
 * fixed-count loops gained nothing from the split. */
static int split_acc(const clrs_gen_config *c, int wsum)
{
    return wsum && c->nslots >= 2;
}

void clrs__gen_emit_split_open(sbuf *b, const clrs_gen_config *c,
                               const char *so, const char *io, int nloops,
                               const char *i0name, int wsum, int w)
{
    const int n = c->nslots;
    char at[16];
    int m;

    if (!split_acc(c, wsum)) {
        clrs__gen_emit_loops(b, c, so, io, nloops, i0name);
        return;
    }
    clrs__gen_vtype(at, sizeof at, clrs__gen_acc_type(c), w);
    clrs__gen_emit_loops_from(b, c, so, io, 0, n - 1, i0name);
    for (m = 0; m < clrs__gen_mvec_of(c, w); ++m) {
        clrs__gen_sb_add(b, "const %s %sp = %s;\n", at, clrs__gen_acc_name(m),
                         clrs__gen_acc_name(m));
        clrs__gen_sb_add(b, "%s = (%s)(0);\n", clrs__gen_acc_name(m), at);
    }
    clrs__gen_emit_loops_from(b, c, so, io, n - 1, nloops, i0name);
}

void clrs__gen_emit_split_close(sbuf *b, const clrs_gen_config *c, int nloops,
                                int wsum, int w)
{
    const int n = c->nslots;
    int m;

    if (!split_acc(c, wsum)) {
        clrs__gen_emit_close_loops(b, nloops);
        return;
    }
    clrs__gen_emit_close_loops(b, nloops - (n - 1));
    for (m = 0; m < clrs__gen_mvec_of(c, w); ++m)
        clrs__gen_sb_add(b, "%s = %sp + %s;\n", clrs__gen_acc_name(m),
                         clrs__gen_acc_name(m), clrs__gen_acc_name(m));
    clrs__gen_emit_close_loops(b, n - 1);
}

void clrs__gen_emit_close_loops(sbuf *b, int nloops)
{
    int k;
    for (k = 0; k < nloops; ++k)
        clrs__gen_sb_close(b);
}

void clrs__gen_emit_value(sbuf *b, const clrs_gen_config *c, const dtype_row *r,
                          const char *ptr, const char *name, int w,
                          const char *o, int pad)
{
    char at[16], ld[192];

    clrs__gen_vtype(at, sizeof at, clrs__gen_val_type(c), w);
    if (c->raw) /* forward: the one tensor read is src */
        clrs__gen_load_val(ld, sizeof ld, c, o, w);
    else
        clrs__gen_load_acc(ld, sizeof ld, c, r, ptr, o, w, 0);
    if (pad) {
        clrs__gen_sb_add(b, "%s %s;\n", at, name);
        clrs__gen_sb_add(b, "if (%s < 0)\n    %s = (%s)(pad);\n", o, name, at);
        clrs__gen_sb_add(b, "else\n    %s = %s;\n", name, ld);
    } else {
        clrs__gen_sb_add(b, "const %s %s = %s;\n", at, name, ld);
    }
}

void clrs__gen_emit_slot_weight(sbuf *b, const clrs_gen_config *c, int k)
{
    const char *acc = clrs__gen_acc_type(c);

    if (c->unitw)
        clrs__gen_sb_add(b, "const %s w%d = (%s)(1);\n", acc, k, acc);
    else
        clrs__gen_sb_add(b, "const %s w%d = ftab[fw%d + x%d];\n", acc, k, k, k);
}

void clrs__gen_emit_max_step(sbuf *b, const clrs_gen_config *c, int w,
                             const char *val, const char *code)
{
    char ot[16], mt[16];

    clrs__gen_vtype(ot, sizeof ot, clrs__gen_off_type(c), w);
    clrs__gen_vtype(mt, sizeof mt, c->acc_f64 ? "long" : "int", w);
    if (w > 1)
        clrs__gen_sb_add(b,
                         "CLRS_MAX_STEPV(%s, convert_%s, %s, best, have, "
                         "win, (%s)(%s));\n",
                         mt, ot, val, ot, code);
    else
        clrs__gen_sb_add(b, "CLRS_MAX_STEP(%s, best, have, win, %s);\n", val,
                         code);
}
