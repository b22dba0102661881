/* Shared by the generator's files (codegen.c and gen_*.c): the growing
 * source text, the dtype and post-op rows, and the emitters one part of
 * a kernel takes from another. The files call each other one way, each
 * only into the layers below its own (tests/test_layers.sh checks):
 *   codegen.c            the kernel: arguments, offsets, header, parts
 *   variant_*.c          each variant's work-item (variant.h)
 *   gen_body.c           one body: accumulators, reduction or gather,
 *                        post-ops, store; a group lane by lane, a vector
 *                        with its tail
 *   gen_reduce.c, gen_gather.c   forward reduction, backward gather
 *   gen_loops.c, gen_span.c      the loop nest and value loads, the
 *                                span path's shuffles
 *   gen_store.c, gen_key.c, gen_parts.c   loads into the accumulator,
 *                                post-ops, the store; the key and the
 *                                arguments; the building blocks
 *   gen_text.c, gen_rows.c       the text, the dtype and post-op rows */
#ifndef CLRS_GEN_EMIT_H
#define CLRS_GEN_EMIT_H

#include "gen/codegen.h"

#include <stdio.h>
#include <string.h>

/* ---- rows (gen_rows.c) ------------------------------------------------- */

/* One row per dtype, from CLRS_DTYPE_MAP (feature_maps.h): a dtype the
 * kernels handle has its kernel column set and its parts in cl/dtype.cl. */
typedef struct dtype_row {
    clrs_dtype dt;
    const char *name;  /* suffix of the cl/dtype.cl macros */
    const char *ctype; /* element type in global memory */
    const char *nat;   /* scalar type a load yields */
    int kernel;        /* has a cl/dtype.cl block (else index only) */
    int fp64;          /* needs cl_khr_fp64 */
    int vstore;        /* has CLRS_STV_<name> */
} dtype_row;

/* One row per post-op algorithm: its name in the key and an OpenCL C
 * expression, emitted as the body of a function-like macro so that the
 * same text serves scalars and vectors of float or double. Parameters:
 * T the value type, X the value, A and B the eltwise alpha and beta
 * (kernel arguments), Y the binary operand: the cl columns of
 * CLRS_ELTWISE_MAP and CLRS_BINARY_MAP (feature_maps.h), whose ref
 * columns the reference (ref.c) evaluates in double. */
typedef struct post_row {
    int alg;
    const char *name;
    const char *expr;
} post_row;

const dtype_row *clrs__gen_row_of(clrs_dtype dt); /* NULL: no row */
/* Index tensors: element type by dtype. */
const char *clrs__gen_index_ctype(clrs_dtype dt);
/* kind: CLRS_POST_ELTWISE or CLRS_POST_BINARY; NULL: no row. */
const post_row *clrs__gen_post_row_of(int kind, int alg);

/* ---- text (gen_text.c) ------------------------------------------------- */

/* The kernel text grows by lines; the buffer keeps the indentation:
 * each line starts 4 spaces in per block open (sb_open ... sb_close), so
 * an emitter writes its lines flush left, and a line it breaks inside a
 * statement (the statement of an if without braces, say) carries only
 * its indentation relative to the statement's. sb_finish refuses a
 * kernel whose blocks do not match. */
typedef struct sbuf {
    char *s;
    size_t n, cap;
    int oom;   /* an allocation failed: sb_finish reports it */
    int depth; /* blocks open */
} sbuf;

/* Text, each line it starts indented by the blocks open. */
void clrs__gen_sb_add(sbuf *b, const char *fmt, ...) CLRS_PRINTF(2, 3);
/* "HEAD {" (or "{" for an empty head) on a line of its own; opens a
 * block. */
void clrs__gen_sb_open(sbuf *b, const char *fmt, ...) CLRS_PRINTF(2, 3);
/* "} HEAD {": closes a block and opens the next ("else", "else if
 * (c)"). */
void clrs__gen_sb_else(sbuf *b, const char *fmt, ...) CLRS_PRINTF(2, 3);
/* "}": closes a block. */
void clrs__gen_sb_close(sbuf *b);
/* The text into *out, or CLRS_ERR_OUT_OF_MEMORY (b freed). */
clrs_status clrs__gen_sb_finish(sbuf *b, char **out);
/* The accumulator's type: "float", "double", or "ushort" (fix). */
const char *clrs__gen_acc_type(const clrs_gen_config *c);
const char *clrs__gen_real_type(const clrs_gen_config *c);
/* Accumulators of a body of w lanes: c->mvec for vector bodies of a
 * multi-vector work-item, else 1; named acc, acc1, acc2, acc3. */
int clrs__gen_mvec_of(const clrs_gen_config *c, int w);
const char *clrs__gen_acc_name(int m);
/* Span groups per work-item: c->walk, at least 1. */
int clrs__gen_walk_of(const clrs_gen_config *c);
const char *clrs__gen_off_type(const clrs_gen_config *c); /* "int" / "long" */
/* The type a backward compares index values in: "long" for an s64 plane
 * index, "int" for a window index (s8, s32: it and its codes fit). */
const char *clrs__gen_index_type(const clrs_gen_config *c);
/* Values between load and store: the accumulator type, or a copy's
 * unsigned integer of the element's width (c->raw). */
const char *clrs__gen_val_type(const clrs_gen_config *c);
/* The mask type of selects on accumulator lanes: int (long beside a
 * double accumulator, short beside c->isum's). */
const char *clrs__gen_mask_type(const clrs_gen_config *c);
/* The element's own integer type, as c->raw loads and stores it and as
 * c->isum stores its sums (unsigned, but signed for max of s8 and s32),
 * and the bytes of c->raw's values between (2 where c->raw_wide compares
 * them as short). */
const char *clrs__gen_raw_type(const clrs_gen_config *c);
size_t clrs__gen_raw_bytes(const clrs_gen_config *c);
/* The type of a forward max's winner codes over w lanes (win): the offset
 * type, or where the integers are compared as they are (c->raw) over
 * vectors and the index is no wider than the values, the signed integer
 * of their width (a window code fits the index type): the compare's mask
 * then selects the codes as it is. */
const char *clrs__gen_win_type(const clrs_gen_config *c, int w);
/* "uchar" .. "ulong" (is_unsigned) or "char" .. "long" for 1, 2, 4, 8
 * bytes. */
const char *clrs__gen_uint_type(size_t bytes, int is_unsigned);
/* Forward span path over a last slot whose tap count varies. */
int clrs__gen_span_var(const clrs_gen_config *c);
/* Whether the kernel computes the last slot's taps on the span path. */
int clrs__gen_span_calc(const clrs_gen_config *c);
/* Slot k's computed taps for a span group's lanes (gen_loops.c). */
void clrs__gen_emit_calc_vec(sbuf *b, const clrs_gen_config *c, int k,
                             const char *i0);
/* An antialiased computed slot k's tap range b<k> .. e<k> (gen_loops.c)
 * for output index ip, with what its loop reads (the coordinate, the
 * weights' sum, the fallback to the edge pixel). */
void clrs__gen_emit_calc_range(sbuf *b, const clrs_gen_config *c, int k,
                               const char *ip);
/* Forward: whether a work-item may have no taps, which the kernel's
 * `none` says (a slot whose tap count varies, the span path's last
 * aside); 0 where every output has taps, and `none` is not declared. */
int clrs__gen_has_none(const clrs_gen_config *c);
/* "float16" for width 16, "float" for width 1. */
void clrs__gen_vtype(char *buf, size_t n, const char *base, int w);
/* "(type)(v[0], v[1], ...)": a constant vector of n lanes. */
void clrs__gen_emit_lanes(sbuf *b, const char *type, const int *v, int n);

/* ---- building blocks (gen_parts.c) ------------------------------------ */

#define CLRS_GEN_MAX_PARTS 96

/* in[i] (CLRS_GEN_MAX_PARTS entries): whether clrs__cl_snippets[i] goes
 * into a kernel whose own text is `kernel`: a part that defines a macro
 * the kernel or another part in names, a file's introduction with any
 * of its parts. */
clrs_status clrs__gen_select_parts(const char *kernel, unsigned char *in);
/* Whether a part in names identifier id. */
int clrs__gen_parts_name(const unsigned char *in, const char *id);
/* The parts in, in the table's order (file by file). */
void clrs__gen_emit_parts(sbuf *b, const unsigned char *in);

/* ---- loops and loads (gen_loops.c) ------------------------------------ */

/* The loop nest over the lists of slots 0 .. nloops - 1, left open; so,
 * io: the read and index offsets before the first slot; i0name: kernel
 * axis 0's index. */
void clrs__gen_emit_loops(sbuf *b, const clrs_gen_config *c, const char *so,
                          const char *io, int nloops, const char *i0name);
/* The same nest's slots k0 .. nloops - 1 only, inside slots 0 .. k0 - 1
 * opened before. */
void clrs__gen_emit_loops_from(sbuf *b, const clrs_gen_config *c,
                               const char *so, const char *io, int k0,
                               int nloops, const char *i0name);
/* Closes nloops loops (blocks). */
void clrs__gen_emit_close_loops(sbuf *b, int nloops);
/* emit_loops and emit_close_loops, with a weighted sum (wsum) over two
 * or more slots split into one partial sum per entry of slot n - 2
 * (the accumulator must be named acc). */
void clrs__gen_emit_split_open(sbuf *b, const clrs_gen_config *c,
                               const char *so, const char *io, int nloops,
                               const char *i0name, int wsum, int w);
void clrs__gen_emit_split_close(sbuf *b, const clrs_gen_config *c, int nloops,
                                int wsum, int w);
/* "const <acc> NAME = <r's element at ptr + o, w lanes, converted>";
 * with pad, a negative o (a padding tap) reads the kernel's pad. */
void clrs__gen_emit_value(sbuf *b, const clrs_gen_config *c, const dtype_row *r,
                          const char *ptr, const char *name, int w,
                          const char *o, int pad);

/* Max: value `val` (w lanes) with window or plane code `code` into
 * best / have / win (cl/reduce.cl's tie and NaN rules; have under NaN
 * propagate only). */
void clrs__gen_emit_max_step(sbuf *b, const clrs_gen_config *c, int w,
                             const char *val, const char *code);

/* "const <acc> w<k> = ..." for slot k's weight alone at table position
 * x<k> (no product with the other slots'): the constant 1 where every
 * weight is (c->unitw). */
void clrs__gen_emit_slot_weight(sbuf *b, const clrs_gen_config *c, int k);

/* ---- span path (gen_span.c) ---------------------------------------------- */

/* Whether pattern row r (one tap, c->vec lanes) names any lane. */
int clrs__gen_pick_used(const clrs_gen_config *c, const short *r);
/* Forward: pattern q's taps of the last slot for a group (after the
 * loops over the other slots; so: src offset when there are none). */
void clrs__gen_emit_span_reduce(sbuf *b, const clrs_gen_config *c,
                                const char *so, int q);
/* A fused plan's fold (clrs_gen_config.fold), pattern q: the span
 * vectors' sums hs0, hs1, ... declared at 0; inside
 * slot 0's loop, its row's span vectors weighed by w0 into them; after
 * it, the last slot's taps picked from them into acc. */
void clrs__gen_emit_span_fold_open(sbuf *b, const clrs_gen_config *c, int q);
void clrs__gen_emit_span_fold_row(sbuf *b, const clrs_gen_config *c, int q);
void clrs__gen_emit_span_fold_taps(sbuf *b, const clrs_gen_config *c, int q);
/* Backward: pattern q's entries of the last slot for a group (io: the
 * index tensor's offset when there is no other slot). */
void clrs__gen_emit_span_gather(sbuf *b, const clrs_gen_config *c,
                                const char *so, const char *io, int q);
/* The branch for pattern q of npat (none when there is one): opens the
 * first, goes on to the others; the caller closes the last. */
void clrs__gen_emit_pattern_case(sbuf *b, int q, int npat);

/* ---- reduction and gather (gen_reduce.c, gen_gather.c) ----------------- */

/* Forward: the reduction of one output (w == 1) or w consecutive outputs
 * along kernel axis 0 into the declared acc (weighted sum) or best / win
 * / have (max); q: the span path's pattern. */
void clrs__gen_emit_reduce(sbuf *b, const clrs_gen_config *c, int w,
                           const char *so, const char *i0name, int q,
                           const char *none);
/* Backward: the gather of one diff_src element (w == 1) or w consecutive
 * ones into acc. */
void clrs__gen_emit_gather(sbuf *b, const clrs_gen_config *c, int w,
                           const char *so, const char *io, const char *xo,
                           int q);
/* Backward weighted sums on the span path: group gq's weights of pattern
 * q, g0, g1, ... (group-major table). */
void clrs__gen_emit_span_weights(sbuf *b, const clrs_gen_config *c, int q);

/* ---- values in and out (gen_store.c) ----------------------------------- */

/* Where one body's work-items sit: the element offsets of src, dst, the
 * index tensor and x, the index along kernel axis 0 (forward), the "no
 * taps" test (forward; NULL where every output has taps), and whether
 * the scalar loop's `l` is in scope (binary operands then step by their
 * axis-0 strides). */
typedef struct body_at {
    const char *so, *dof, *io, *xo, *i0, *none;
    int lane;
} body_at;

/* dst's store of val (w lanes) at dof; a block vector zeroes its lanes
 * past the real extent first. */
void clrs__gen_emit_store(sbuf *b, const clrs_gen_config *c, int w,
                          const char *dof, const char *val);
/* A load of dtype row r at offset o of p, converted to the accumulator
 * type: w lanes (vector load), or a scalar broadcast to w lanes. */
void clrs__gen_load_acc(char *buf, size_t n, const clrs_gen_config *c,
                        const dtype_row *r, const char *p, const char *o, int w,
                        int bcast);
/* A load of src at offset o into the value type (clrs__gen_val_type): w
 * lanes or a scalar; a copy's moves the bits as they are. */
void clrs__gen_load_val(char *buf, size_t n, const clrs_gen_config *c,
                        const char *o, int w);
/* The post-op chain on val (w lanes) before the store. */
void clrs__gen_emit_post(sbuf *b, const clrs_gen_config *c, int w,
                         const char *dof, const char *val, int lane);
/* Max of integers compared as they are (c->raw) with a window index:
 * value val (w lanes) and code `code` into best / win. first_loops: the
 * loops t0 .. t<first_loops - 1> (fixed counts from 0) around the tap,
 * whose counters are all 0 at the window's first tap, which is then
 * taken whatever its value; -1 for a tap that is never the first. */
void clrs__gen_emit_raw_max_step(sbuf *b, const clrs_gen_config *c, int w,
                                 const char *val, const char *code,
                                 int first_loops);
/* ---- bodies (gen_body.c) ----------------------------------------------- */

/* The work-item's element offsets (dof, sob, ...) and tap ranges, from
 * its indices i0, i1, ... */
void clrs__gen_emit_offsets(sbuf *b, const clrs_gen_config *c);

/* One written element (w == 1) or w consecutive ones: accumulators,
 * reduction or gather, post-ops, store. */
void clrs__gen_emit_body(sbuf *b, const clrs_gen_config *c, int w,
                         const body_at *at);
/* The body's first part: the accumulators and the reduction or gather
 * into them (acc, or best), without post-ops or store. */
void clrs__gen_emit_sums(sbuf *b, const clrs_gen_config *c, int w,
                         const body_at *at);
/* A span group without a pattern, one lane at a time. */
void clrs__gen_emit_group_lanes(sbuf *b, const clrs_gen_config *c);
/* A vector of c->vec lanes along kernel axis 0, its partial last vector
 * (c->tail) element by element. */
void clrs__gen_emit_vector_item(sbuf *b, const clrs_gen_config *c,
                                const body_at *at);

/* ---- work-items, one file per variant (variant_*.c) -------------------- */

#define CLRS_GEN_ITEM_DECL_(e, ...)                                            \
    void clrs__gen_item_##e(sbuf *b, const clrs_gen_config *c,                 \
                            const body_at *at);
CLRS_VARIANT_MAP(CLRS_GEN_ITEM_DECL_)
#undef CLRS_GEN_ITEM_DECL_

#endif /* CLRS_GEN_EMIT_H */
