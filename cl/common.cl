/* Shared helpers of the generated kernels: non-temporal stores where the
 * compiler has them, vector loads and stores at element alignment,
 * constant shuffles and the offset term of a blocked axis. Each part
 * (a line "//@ NAME" starts one) goes into the kernels that use what it
 * defines. */

//@ nt
/* Large outputs are store-bound on CPUs (PoCL's copy is faster with
 * non-temporal stores, `clresample --roofline`): a non-temporal store
 * skips the read-for-ownership of each line. Only clang has the builtin; other
 * compilers get a plain store. */
#if defined(__has_builtin)
#if __has_builtin(__builtin_nontemporal_store)
#define CLRS_NT_STORE(v, p) __builtin_nontemporal_store((v), (p))
#endif
#endif
#ifndef CLRS_NT_STORE
#define CLRS_NT_STORE(v, p) (*(p) = (v))
#endif

//@ vector
/* Vector loads and stores at element alignment. vloadN / vstoreN are the
 * portable spelling, but LLVM (PoCL) often splits a vload16 into 8-byte
 * pieces reassembled lane by lane; a dereference of a vector type whose
 * alignment is lowered to the element's is one unaligned access (faster
 * on the span path and on narrowing stores, as measured when it came
 * in). Clang honours an aligned attribute that lowers a
 * typedef's alignment; other compilers keep vloadN / vstoreN. */
#if defined(__clang__)
#define CLRS_UTYPES(T, a)                                                  \
    typedef T##2 __attribute__((aligned(a))) clrs_u_##T##2;                \
    typedef T##4 __attribute__((aligned(a))) clrs_u_##T##4;                \
    typedef T##8 __attribute__((aligned(a))) clrs_u_##T##8;                \
    typedef T##16 __attribute__((aligned(a))) clrs_u_##T##16;
#define CLRS_VLOAD(T, n, p, i) CLRS_VLOAD_##n(T, n, p, i)
#define CLRS_VSTORE(T, n, p, i, v) CLRS_VSTORE_##n(T, n, p, i, v)
#define CLRS_VLOAD_U(T, n, p, i) (*(__global const clrs_u_##T##n *)((p) + (i)))
#define CLRS_VSTORE_U(T, n, p, i, v) \
    (*(__global clrs_u_##T##n *)((p) + (i)) = (v))
/* Three lanes (a pixel of three channels) occupy four in a vector type:
 * vload3 / vstore3 touch the three elements only. */
#define CLRS_VLOAD_3(T, n, p, i) vload3(0, (p) + (i))
#define CLRS_VSTORE_3(T, n, p, i, v) vstore3((v), 0, (p) + (i))
#define CLRS_VLOAD_2 CLRS_VLOAD_U
#define CLRS_VLOAD_4 CLRS_VLOAD_U
#define CLRS_VLOAD_8 CLRS_VLOAD_U
#define CLRS_VLOAD_16 CLRS_VLOAD_U
#define CLRS_VSTORE_2 CLRS_VSTORE_U
#define CLRS_VSTORE_4 CLRS_VSTORE_U
#define CLRS_VSTORE_8 CLRS_VSTORE_U
#define CLRS_VSTORE_16 CLRS_VSTORE_U
#else
#define CLRS_UTYPES(T, a)
#define CLRS_VLOAD(T, n, p, i) vload##n(0, (p) + (i))
#define CLRS_VSTORE(T, n, p, i, v) vstore##n((v), 0, (p) + (i))
#endif

/* The accumulator types, for weight tables. */
CLRS_UTYPES(float, 4)
#ifdef CLRS_ACC_F64
CLRS_UTYPES(double, 8)
#endif

//@ raw
/* A copy's loads and stores (nearest and the like, one type in and out,
 * no post-op): T is the unsigned integer of the element's width and the
 * bits move as they are, no conversion, no rounding. */
#define CLRS_LDR(T, p, i) (((__global const T *)(p))[i])
#define CLRS_STR(T, p, i, v) (((__global T *)(p))[i] = (v))
#define CLRS_STRNT(T, p, i, v) CLRS_NT_STORE((v), (__global T *)(p) + (i))
//@ raw vector
/* A copy's vectors go through CLRS_VLOAD / CLRS_VSTORE, whose types the
 * kernel declares with CLRS_UTYPES(T, element bytes) (where va proves
 * them aligned, through CLRS_LDVRA / CLRS_STVRA instead). The
 * non-temporal vector store needs the vector's own alignment, as
 * CLRS_STVNT_<dt> does. */
#define CLRS_LDVR(T, n, p, i) CLRS_VLOAD(T, n, (__global const T *)(p), i)
#define CLRS_STVR(T, n, p, i, v) CLRS_VSTORE(T, n, (__global T *)(p), i, v)
#define CLRS_STVRNT(T, n, p, i, v)                                         \
    CLRS_NT_STORE((v), (__global T##n *)((__global T *)(p) + (i)))

//@ aligned
/* Vector loads and stores at the vector's own alignment, where the plan
 * proves every such access aligned (lower.c's want_va): a vector
 * pointer's dereference is one access on every compiler, where vloadN /
 * vstoreN at element alignment may become one access per element (a
 * GPU's vector loads need their natural alignment). */
#define CLRS_VLOADA(T, n, p, i) (*(__global const T##n *)((p) + (i)))
#define CLRS_VSTOREA(T, n, p, i, v) (*(__global T##n *)((p) + (i)) = (v))
#define CLRS_LDVRA(T, n, p, i) CLRS_VLOADA(T, n, (__global const T *)(p), i)
#define CLRS_STVRA(T, n, p, i, v) CLRS_VSTOREA(T, n, (__global T *)(p), i, v)

//@ shuffle
/* Constant-lane shuffles of the span path: CLRS_SHUF(a, T, lanes...)
 * is shuffle(a, (T)(lanes...)), CLRS_SHUF2(a, b, T, lanes...) is
 * shuffle2. PoCL's shuffle builtins go lane by lane through memory (a
 * stack store and one scalar load per lane); clang's
 * __builtin_shufflevector (where the compiler has it) with constant
 * lanes is a single permute.
 * SPIR targets keep the builtins: Oclgrind's uninitialised-value checker
 * marks every lane of a shufflevector uninitialised when an unpicked
 * lane is (a span vector reaching into a padded layout's gap). */
#if defined(__has_builtin) && !defined(__SPIR__)
#if __has_builtin(__builtin_shufflevector)
#define CLRS_SHUF(a, T, ...) __builtin_shufflevector((a), (a), __VA_ARGS__)
#define CLRS_SHUF2(a, b, T, ...) __builtin_shufflevector((a), (b), __VA_ARGS__)
#endif
#endif
#ifndef CLRS_SHUF
#define CLRS_SHUF(a, T, ...) shuffle((a), (T)(__VA_ARGS__))
#define CLRS_SHUF2(a, b, T, ...) shuffle2((a), (b), (T)(__VA_ARGS__))
#endif

//@ blocked
/* Element offset of index i on a blocked axis (block B, block stride s):
 * the element lives in block i / B at lane i % B. The lane is written
 * i - (i / B) * B: LLVM turns a div/rem pair into a "freeze" instruction
 * that Oclgrind's checker cannot run. */
#define CLRS_BLK(i, B, s) (((i) / (B)) * (s) + ((i) - ((i) / (B)) * (B)))
