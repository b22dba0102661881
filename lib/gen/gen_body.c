/* A work-item's element offsets in every tensor, and the kernel body: one
 * written element or w consecutive ones, the
 * accumulators, the forward reduction (gen_reduce.c) or the backward
 * gather (gen_gather.c) per span pattern, then the post-ops and the store
 * (gen_store.c); and the two shapes the variants' work-items wrap around
 * it: a span group lane by lane, and a vector with its scalar tail. */
#include "gen/gen_emit.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* ---- a work-item's offsets ------------------------------------------- */

/* Offset term of index `i` on kernel axis p along stride `s` (blocked
 * axes split into block and lane). */
static void emit_term(sbuf *b, const char *i, int block, const char *s, int p,
                      int first)
{
    const char *plus = first ? "" : " + ";

    if (block)
        clrs__gen_sb_add(b, "%sCLRS_BLK(%s, %d, %s%d)", plus, i, block, s, p);
    else
        clrs__gen_sb_add(b, "%s%s * %s%d", plus, i, s, p);
}

/* "const <off> NAME = i<p> * <prefix><p> + ...;" (0 without a term): a
 * tensor's element offset over every kernel axis, or over the identity
 * axes only, with each axis's block size read at byte offset `blk` of
 * clrs_gen_axis. */
static void emit_offset(sbuf *b, const clrs_gen_config *c, const char *name,
                        const char *prefix, size_t blk, int identity_only)
{
    char i[16];
    int p, terms = 0;

    clrs__gen_sb_add(b, "const %s %s = ", clrs__gen_off_type(c), name);
    for (p = 0; p < c->rank; ++p) {
        const clrs_gen_axis *a = &c->ax[p];
        if (identity_only && a->slot >= 0)
            continue;
        snprintf(i, sizeof i, "i%d", p);
        emit_term(b, i, *(const int *)(const void *)((const char *)a + blk),
                  prefix, p, terms++ == 0);
    }
    clrs__gen_sb_add(b, "%s;\n", terms ? "" : "0");
}

/* dst's blocked axis runs over whole blocks: a work-item past the real
 * extent owns a padding lane, which it writes as zero (so a blocked
 * tensor never holds stale padding) before anything reads a table or an
 * input at that index. The block vector path zeroes its lanes in
 * emit_store instead. */
static void emit_pad_guard(sbuf *b, const clrs_gen_config *c)
{
    int p;
    for (p = 0; p < c->rank; ++p)
        if (c->ax[p].dst_block && !(p == 0 && c->vec > 1) && c->index_only)
            clrs__gen_sb_add(b, "if (i%d >= nr%d)\n    return;\n", p, p);
        else if (c->ax[p].dst_block && !(p == 0 && c->vec > 1))
            clrs__gen_sb_add(b,
                             "if (i%d >= nr%d) {\n"
                             "    CLRS_ST_%s(dst, dof, (%s)(0));\n"
                             "    return;\n"
                             "}\n",
                             p, p, clrs__gen_row_of(c->dst)->name,
                             clrs__gen_acc_type(c));
}

/* Whether computed span taps have weights (yg<k>_<t>). */
static int calc_weighs(const clrs_gen_config *c)
{
    return c->cls == CLRS_GEN_WSUM && !c->raw;
}

/* Periodic computed span taps (clrs_gen_config.per): the group's base
 * pgb, pattern pgp, taps yi<k>_<t> and weights yg<k>_<t> as variables
 * (prefixed Y) that a group of the periodic stretch sets from its place
 * in the period (constants: no coordinate, no pattern match) and any
 * other group from emit_span_calc's steps, in a block whose names then
 * go out of scope (emit_periodic_close). */
static void emit_periodic_open(sbuf *b, const clrs_gen_config *c)
{
    const int V = c->vec, k = c->nslots - 1, K = c->calc_kind;
    const char *off = clrs__gen_off_type(c), *acc = clrs__gen_acc_type(c);
    const int f = strcmp(acc, "float") == 0;
    char ov[16], av[16];
    int s, r, t, l, lanes[CLRS_GEN_MAX_LANES];

    clrs__gen_vtype(ov, sizeof ov, off, V);
    clrs__gen_vtype(av, sizeof av, acc, V);
    clrs__gen_sb_add(b, "%s Ypgb, Ypgp;\n", off);
    for (t = 0; t < K; ++t) {
        clrs__gen_sb_add(b, "%s Yyi%d_%d;\n", ov, k, t);
        if (calc_weighs(c))
            clrs__gen_sb_add(b, "%s Yyg%d_%d;\n", av, k, t);
    }
    clrs__gen_sb_add(b, "const %s ygq = i0 / %d;\n", off, V);
    for (s = 0; s < c->per_n; ++s) {
        const int P = c->per[s];
        if (s == 0)
            clrs__gen_sb_open(b, "if (ygq >= yph0 && ygq < ype0)");
        else
            clrs__gen_sb_else(b, "else if (ygq >= yph%d && ygq < ype%d)", s, s);
        clrs__gen_sb_add(b, "const %s ypq = (ygq - yph%d) / %d;\n", off, s, P);
        clrs__gen_sb_add(b, "const %s ypr = ygq - yph%d - ypq * %d;\n", off, s,
                         P);
        for (r = 0; r < P; ++r) {
            const int q = c->per_pat[s][r];
            if (P > 1 && r == 0)
                clrs__gen_sb_open(b, "if (ypr == 0)");
            else if (P > 1 && r < P - 1)
                clrs__gen_sb_else(b, "else if (ypr == %d)", r);
            else if (P > 1)
                clrs__gen_sb_else(b, "else");
            clrs__gen_sb_add(b, "Ypgb = ypb%d + ypq * %d + %d;\n", s,
                             c->per_shift[s], c->per_base[s][r]);
            clrs__gen_sb_add(b, "Ypgp = %d;\n", q);
            for (t = 0; t < K; ++t) {
                for (l = 0; l < V; ++l)
                    lanes[l] = c->rel[q][t][l];
                clrs__gen_sb_add(b, "Yyi%d_%d = (%s)(Ypgb) + ", k, t, ov);
                clrs__gen_emit_lanes(b, ov, lanes, V);
                clrs__gen_sb_add(b, ";\n");
                if (!calc_weighs(c))
                    continue;
                clrs__gen_sb_add(b, "Yyg%d_%d = (%s)(", k, t, av);
                for (l = 0; l < V; ++l)
                    clrs__gen_sb_add(b, "%s%a%s", l ? ", " : "",
                                     c->per_w[s][r][t][l], f ? "f" : "");
                clrs__gen_sb_add(b, ");\n");
            }
        }
        if (P > 1)
            clrs__gen_sb_close(b);
    }
    clrs__gen_sb_else(b, "else");
}

static void emit_periodic_close(sbuf *b, const clrs_gen_config *c)
{
    const int V = c->vec, k = c->nslots - 1, K = c->calc_kind;
    const char *off = clrs__gen_off_type(c);
    char ov[16], av[16];
    int t;

    clrs__gen_vtype(ov, sizeof ov, off, V);
    clrs__gen_vtype(av, sizeof av, clrs__gen_acc_type(c), V);
    clrs__gen_sb_add(b, "Ypgb = pgb;\nYpgp = pgp;\n");
    for (t = 0; t < K; ++t) {
        clrs__gen_sb_add(b, "Yyi%d_%d = yi%d_%d;\n", k, t, k, t);
        if (calc_weighs(c))
            clrs__gen_sb_add(b, "Yyg%d_%d = yg%d_%d;\n", k, t, k, t);
    }
    clrs__gen_sb_close(b);
    clrs__gen_sb_add(b, "const %s pgb = Ypgb, pgp = Ypgp;\n", off);
    for (t = 0; t < K; ++t) {
        clrs__gen_sb_add(b, "const %s yi%d_%d = Yyi%d_%d;\n", ov, k, t, k, t);
        if (calc_weighs(c))
            clrs__gen_sb_add(b, "const %s yg%d_%d = Yyg%d_%d;\n", av, k, t, k,
                             t);
    }
}

/* A span group over a computed last slot k: its lanes' taps
 * (clrs__gen_emit_calc_vec), its base pgb (the least first tap: lane
 * 0's unless channels are fused; moved
 * back where the span vectors would pass the axis' end, as the lowering
 * moved the patterns' bases) and its pattern pgp, the first whose every
 * tap's lanes lie where the group's do, or where none does npat (the
 * gather), -1: lane by lane. Only a whole group (the last may pass the
 * row's end) whose lane 0 has x >= 0 takes the vectors' taps (the
 * fraction of x < 0 is emit_calc's alone). Pattern
 * q matches where (yd ^ its lanes), ORed over the taps and then over
 * halves of the vector, is 0 (all() is a branch per lane on PoCL). */
static void emit_span_calc(sbuf *b, const clrs_gen_config *c)
{
    const int V = c->vec, k = c->nslots - 1, K = c->fixed[k];
    const char *off = clrs__gen_off_type(c);
    char ov[16], len[32];
    int q, t, l;

    clrs__gen_vtype(ov, sizeof ov, off, V);
    if (clrs__gen_periodic(c))
        emit_periodic_open(b, c);
    clrs__gen_emit_calc_vec(b, c, k, "i0");
    /* the axis' elements: zn pixels of calc_fuse channels where fused */
    snprintf(len, sizeof len, "zn%d * %d", k,
             c->calc_fuse > 1 ? c->calc_fuse : 1);
    if (c->calc_fuse > 1) {
        /* the least first tap, as the lowering's base (a later pixel's
         * channel 0 may lie below lane 0's channel) */
        int w;
        for (w = V / 2; w >= 1; w /= 2) {
            char hv[16];
            clrs__gen_vtype(hv, sizeof hv, off, w);
            if (w == V / 2)
                clrs__gen_sb_add(b,
                                 "const %s yb%d = min(yi%d_0.lo, yi%d_0.hi);\n",
                                 hv, w, k, k);
            else
                clrs__gen_sb_add(b, "const %s yb%d = min(yb%d.lo, yb%d.hi);\n",
                                 hv, w, 2 * w, 2 * w);
        }
        clrs__gen_sb_add(b, "%s pgb = yb1;\n", off);
    } else {
        clrs__gen_sb_add(b, "%s pgb = yi%d_0.s0;\n", off, k);
    }
    clrs__gen_sb_add(b, "if (pgb > %s - %d)\n    pgb = %s - %d;\n", len,
                     c->nspan * V, len, c->nspan * V);
    clrs__gen_sb_add(b, "if (pgb < 0)\n    pgb = 0;\n");
    clrs__gen_sb_add(b, "%s pgp = -1;\n", off);
    for (t = 0; t < K; ++t)
        clrs__gen_sb_add(b, "const %s yd%d = yi%d_%d - pgb;\n", ov, t, k, t);
    clrs__gen_sb_open(b, "if (i0 + %d <= n0 && yx%d.s0 >= 0)", V, k);
    for (q = 0; q < c->npat; ++q) {
        int w;
        if (q)
            clrs__gen_sb_open(b, "if (pgp < 0)");
        clrs__gen_sb_add(b, "const %s ym%d = ", ov, q);
        for (t = 0; t < K; ++t) {
            int rel[CLRS_GEN_MAX_LANES];
            for (l = 0; l < V; ++l)
                rel[l] = c->rel[q][t][l];
            clrs__gen_sb_add(b, "%s(yd%d ^ ", t ? " | " : "", t);
            clrs__gen_emit_lanes(b, ov, rel, V);
            clrs__gen_sb_add(b, ")");
        }
        clrs__gen_sb_add(b, ";\n");
        for (w = V / 2; w >= 1; w /= 2) {
            char hv[16];
            clrs__gen_vtype(hv, sizeof hv, off, w);
            if (w == V / 2)
                clrs__gen_sb_add(b, "const %s ym%d_%d = ym%d.lo | ym%d.hi;\n",
                                 hv, q, w, q, q);
            else
                clrs__gen_sb_add(b,
                                 "const %s ym%d_%d = ym%d_%d.lo | "
                                 "ym%d_%d.hi;\n",
                                 hv, q, w, q, 2 * w, q, 2 * w);
        }
        clrs__gen_sb_add(b, "if (ym%d_1 == 0)\n    pgp = %d;\n", q, q);
        if (q)
            clrs__gen_sb_close(b);
    }
    /* No pattern: the lanes' values gathered one by one, the taps and
     * weights still the vectors'. */
    clrs__gen_sb_add(b, "if (pgp < 0)\n    pgp = %d;\n", c->npat);
    clrs__gen_sb_close(b);
    if (clrs__gen_periodic(c))
        emit_periodic_close(b, c);
}

/* The work-item's element offsets in every tensor, the tap ranges of
 * the resampled axes and, on the span path, its group. Forward the index
 * tensor is shaped like dst (iof, over every axis); backward like
 * diff_dst (iob, identity axes; the tables give the rest), and a plane
 * index match needs this element's own plane index. */
void clrs__gen_emit_offsets(sbuf *b, const clrs_gen_config *c)
{
    const char *off = clrs__gen_off_type(c);
    const int bwd = c->backward;
    /* The span path reads the last slot's range per lane, if at all. */
    const int skip_last = bwd ? c->span : clrs__gen_span_var(c);
    int p, k;

    if (!c->index_only)
        emit_offset(b, c, "dof", "ds", offsetof(clrs_gen_axis, dst_block), 0);
    if (c->cv8cub == 2)
        clrs__gen_sb_add(b, "const int cvv = i0 < cvx;\n");
    else if (c->cv8cub)
        clrs__gen_sb_add(b, "const int cvv = (dof / cvs) %% cvn * cvk + (dof / "
                            "cvc) %% cvm * cvb + dof %% cvb < cvx;\n");
    emit_pad_guard(b, c);
    emit_offset(b, c, "sob", "ss", offsetof(clrs_gen_axis, src_block), 1);
    if (c->has_index)
        emit_offset(b, c, bwd ? "iob" : "iof", "is",
                    offsetof(clrs_gen_axis, idx_block), bwd);
    if (c->recompute)
        emit_offset(b, c, "xob", "xs", offsetof(clrs_gen_axis, x_block), 1);
    for (k = 0; k < c->npost; ++k) {
        char s[16], name[16];
        if (c->post[k].kind != CLRS_POST_BINARY)
            continue;
        snprintf(s, sizeof s, "b%ds", k);
        snprintf(name, sizeof name, "bo%d", k);
        emit_offset(b, c, name, s,
                    offsetof(clrs_gen_axis, op_block) + (size_t)k * sizeof(int),
                    0);
    }
    if (bwd && ((c->has_index && c->plane) || c->recompute)) {
        /* Span path: the group's first element (myg); a lane's is
         * myg + l. */
        clrs__gen_sb_add(b, "const %s %s = ", off, c->span ? "myg" : "myp");
        for (k = 0; k < c->nslots; ++k)
            clrs__gen_sb_add(b, "%si%d * pl%d", k ? " + " : "",
                             clrs__gen_axis_of_slot(c, k), k);
        clrs__gen_sb_add(b, "%s;\n", c->nslots ? "" : "0");
    }
    /* Tap ranges of each resampled axis; an empty range means no taps
     * (crop extrapolation, or an average window without pixels). */
    for (k = 0; k < c->nslots - (skip_last ? 1 : 0); ++k) {
        p = clrs__gen_axis_of_slot(c, k);
        if (!c->fixed[k] && (c->calc & (1u << k))) {
            char ip[16];
            snprintf(ip, sizeof ip, "i%d", p);
            clrs__gen_emit_calc_range(b, c, k, ip);
        } else if (!c->fixed[k])
            clrs__gen_sb_add(b,
                             "const %s b%d = itab[st%d + i%d], "
                             "e%d = itab[st%d + i%d + 1];\n",
                             off, k, k, p, k, k, p);
    }
    if (clrs__gen_walk_of(c) > 1)
        clrs__gen_sb_add(b,
                         "const %s gq0 = (%s)get_global_id(0) * %d;\n"
                         "%s gn = (n0 + %d) / %d - gq0;\n"
                         "if (gn > %d)\n    gn = %d;\n",
                         off, off, clrs__gen_walk_of(c), off, c->vec - 1,
                         c->vec, clrs__gen_walk_of(c), clrs__gen_walk_of(c));
    else if (clrs__gen_span_calc(c))
        emit_span_calc(b, c);
    else if (c->span)
        clrs__gen_sb_add(
            b,
            "const %s gq = (%s)get_global_id(0);\n"
            "const %s pgb = itab[pg + 2 * gq], pgp = itab[pg + 2 * gq "
            "+ 1];\n",
            off, off, off);
    if (!clrs__gen_has_none(c))
        return;
    /* The span path's groups have taps in every lane: its lane by lane
     * code adds the last slot's own test (none_l). */
    clrs__gen_sb_add(b, "const int none =");
    for (k = 0, p = 0; k < c->nslots - (skip_last ? 1 : 0); ++k)
        if (!c->fixed[k])
            clrs__gen_sb_add(b, "%s b%d == e%d", p++ ? " ||" : "", k, k);
    clrs__gen_sb_add(b, ";\n");
}

/* ---- bodies ------------------------------------------------------------- */

/* The accumulators of one body. Forward: declared, each pattern's
 * reduction sets them. Backward: the gather adds to acc, which starts at
 * the old diff_src under accumulation (beta = 1) and at 0 otherwise. */
static void emit_accumulators(sbuf *b, const clrs_gen_config *c, int w,
                              const char *dof)
{
    const char *acc = clrs__gen_val_type(c);
    const dtype_row *d = clrs__gen_row_of(c->dst);
    char at[16], ot[16], mt[16];

    clrs__gen_vtype(at, sizeof at, acc, w);
    clrs__gen_vtype(ot, sizeof ot, clrs__gen_off_type(c), w);
    clrs__gen_vtype(mt, sizeof mt, c->acc_f64 ? "long" : "int", w);
    if (!c->backward && c->cls == CLRS_GEN_WSUM) {
        int m;
        for (m = 0; m < clrs__gen_mvec_of(c, w); ++m)
            clrs__gen_sb_add(b, "%s %s;\n", at, clrs__gen_acc_name(m));
    } else if (!c->backward && c->raw) {
        clrs__gen_sb_add(b, "%s best;\n", at);
        clrs__gen_vtype(ot, sizeof ot, clrs__gen_win_type(c, w), w);
        if (c->has_index)
            clrs__gen_sb_add(b, "%s win;\n", ot);
    } else if (!c->backward) {
        clrs__gen_sb_add(b, "%s best;\n%s win;\n", at, ot);
        if (!c->nan_ignore) /* no tap taken yet (cl/reduce.cl) */
            clrs__gen_sb_add(b, "%s have;\n", w > 1 ? mt : "int");
    } else if (c->accumulate) {
        int m;
        char o[48], ld[192];
        for (m = 0; m < clrs__gen_mvec_of(c, w); ++m) {
            if (w > 1)
                snprintf(o, sizeof o, "%s + %d", dof, m * w);
            else
                snprintf(o, sizeof o, "%s", dof);
            clrs__gen_load_acc(ld, sizeof ld, c, d, "dst", o, w, 0);
            clrs__gen_sb_add(b, "%s %s = %s;\n", at, clrs__gen_acc_name(m), ld);
        }
    } else {
        int m;
        for (m = 0; m < clrs__gen_mvec_of(c, w); ++m)
            clrs__gen_sb_add(b, "%s %s = (%s)(0);\n", at, clrs__gen_acc_name(m),
                             at);
    }
}

/* A forward max pooling's index output: the winning code (plane codes of
 * padding taps are negative: the index is -1). */
static void emit_index_store(sbuf *b, const clrs_gen_config *c, int w,
                             const char *io)
{
    const char *it = clrs__gen_index_ctype(c->index);
    char ot[16];

    clrs__gen_vtype(ot, sizeof ot, clrs__gen_off_type(c), w);
    if (c->plane && w > 1)
        clrs__gen_sb_add(b, "win = select(win, (%s)(-1), win < (%s)(0));\n", ot,
                         ot);
    else if (c->plane)
        clrs__gen_sb_add(b, "if (win < 0)\n    win = -1;\n");
    if (w > 1)
        clrs__gen_sb_add(b, "vstore%d(convert_%s%d(win), 0, index + %s);\n", w,
                         it, w, io);
    else
        clrs__gen_sb_add(b, "index[%s] = (%s)win;\n", io, it);
}

/* One written element (w == 1) or w consecutive ones along kernel axis
 * 0, inside the block the caller opened (the kernel's, an if's, a
 * for's): forward the reduction over the taps, backward the gather over
 * the transposed taps. On the span vector path each pattern has its own
 * reduction; the one store after them keeps its non-temporal hint (LLVM
 * drops it when it merges stores from several branches: half the
 * bandwidth on PoCL). */
void clrs__gen_emit_sums(sbuf *b, const clrs_gen_config *c, int w,
                         const body_at *at)
{
    /* Computed taps: the patterns, then the gather (gen_span.c). */
    int q, npat = c->span && w > 1 ? c->npat + clrs__gen_span_calc(c) : 1;

    emit_accumulators(b, c, w, at->dof);
    for (q = 0; q < npat; ++q) {
        clrs__gen_emit_pattern_case(b, q, npat);
        if (c->backward)
            clrs__gen_emit_gather(b, c, w, at->so, at->io, at->xo, q);
        else
            clrs__gen_emit_reduce(b, c, w, at->so, at->i0, q, at->none);
    }
    if (npat > 1)
        clrs__gen_sb_close(b);
}

void clrs__gen_emit_body(sbuf *b, const clrs_gen_config *c, int w,
                         const body_at *at)
{
    const char *val = c->backward || c->cls == CLRS_GEN_WSUM ? "acc" : "best";

    clrs__gen_emit_sums(b, c, w, at);
    if (!c->index_only && clrs__gen_mvec_of(c, w) > 1) {
        /* Weighted sums without post-ops (variant_axis.c). */
        int m;
        char dofm[48];
        for (m = 0; m < clrs__gen_mvec_of(c, w); ++m) {
            snprintf(dofm, sizeof dofm, "(%s + %d)", at->dof, m * w);
            clrs__gen_emit_store(b, c, w, dofm, clrs__gen_acc_name(m));
        }
    } else if (!c->index_only) {
        clrs__gen_emit_post(b, c, w, at->dof, val, at->lane);
        clrs__gen_emit_store(b, c, w, at->dof, val);
    }
    if (!c->backward && c->cls == CLRS_GEN_MAX && c->has_index)
        emit_index_store(b, c, w, at->io);
}

/* Whether a span group's lanes are an unrolled loop (below). */
static int unrolled_lanes(const clrs_gen_config *c)
{
    return c->raw || (!c->backward && c->cls == CLRS_GEN_WSUM &&
                      clrs_dtype_size(c->dst) == 1);
}

/* A span group without a pattern, one lane at a time: the scalar body
 * at written element i0 + l of the last slot (every tensor is
 * contiguous there), with that lane's own tap range where the span path
 * does not read the ranges. */
void clrs__gen_emit_group_lanes(sbuf *b, const clrs_gen_config *c)
{
    const char *off = clrs__gen_off_type(c), *io = c->backward ? "iob" : "iof";
    int k = c->nslots - 1, own = c->backward || clrs__gen_span_var(c);
    body_at l = {"sob", "(dof + l)", NULL, "xob", "(i0 + l)", NULL, 1};
    char lio[16];

    l.none = clrs__gen_has_none(c) ? "none" : NULL;
    snprintf(lio, sizeof lio, "(%s + l)", io);
    l.io = c->backward ? io : lio;
    /* The lanes of a copy, or of a weighted sum into an 8-bit type: a
     * loop of constant trip count unrolled, each lane tested on its
     * own. The loop with the bound in its condition made the shuffled
     * groups beside it up to twice as slow on PoCL (its bookkeeping
     * spilled into the work-item loop): u8 nearest 2x up, nchw, 5.5 ->
     * 2.5-3.0 ms; u8 and s8 linear and cubic 0.5-0.85x the time. Other
     * types' sums, and max pooling, measured both ways by problem
     * (0.6-1.4x, f16 and bf16 0.99-1.03x at the median) and keep the
     * loop. */
    if (unrolled_lanes(c)) {
        clrs__gen_sb_add(b, "#pragma unroll\n");
        clrs__gen_sb_open(b, "for (%s l = 0; l < %d; ++l)", off, c->vec);
        clrs__gen_sb_open(b, "if (i0 + l < n0)");
    } else {
        clrs__gen_sb_open(b, "for (%s l = 0; l < %d && i0 + l < n0; ++l)", off,
                          c->vec);
    }
    if (own)
        clrs__gen_sb_add(b,
                         "const %s b%d = itab[st%d + i0 + l], "
                         "e%d = itab[st%d + i0 + l + 1];\n",
                         off, k, k, k, k);
    if (own && !c->backward) {
        clrs__gen_sb_add(b, "const int none_l = %sb%d == e%d;\n",
                         clrs__gen_has_none(c) ? "none || " : "", k, k);
        l.none = "none_l";
    }
    if (c->backward && c->has_index && c->plane)
        clrs__gen_sb_add(b, "const %s myp = myg + l;\n", off);
    clrs__gen_emit_body(b, c, 1, &l);
    clrs__gen_sb_close(b);
    if (unrolled_lanes(c))
        clrs__gen_sb_close(b);
}

/* A vector of c->vec outputs along kernel axis 0, and where the axis
 * does not divide, its tail element by element. */
void clrs__gen_emit_vector_item(sbuf *b, const clrs_gen_config *c,
                                const body_at *at)
{
    const char *off = clrs__gen_off_type(c);
    body_at l = {"(sob + l)", "(dof + l)", NULL, "(xob + l)", "i0", NULL, 1};
    char lio[16];

    if (!c->tail) {
        clrs__gen_emit_body(b, c, c->vec, at);
        return;
    }
    l.none = at->none;
    snprintf(lio, sizeof lio, "(%s + l)", at->io);
    l.io = lio;
    clrs__gen_sb_open(b, "if (i0 + %d <= n0)", c->vec);
    clrs__gen_emit_body(b, c, c->vec, at);
    clrs__gen_sb_else(b, "else");
    clrs__gen_sb_open(b, "for (%s l = 0; i0 + l < n0; ++l)", off);
    clrs__gen_emit_body(b, c, 1, &l);
    clrs__gen_sb_close(b);
    clrs__gen_sb_close(b);
}
