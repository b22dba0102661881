/* Shared helpers of every generated kernel: non-temporal stores where the
 * compiler has them, and the offset term of a blocked axis. */

/* Large outputs are store-bound on CPUs (DESIGN.md: 27 -> 55 GB/s for a
 * copy on PoCL): a non-temporal store skips the read-for-ownership of each
 * line. Only clang has the builtin; other compilers get a plain store. */
#if defined(__has_builtin)
#if __has_builtin(__builtin_nontemporal_store)
#define CLRS_NT_STORE(v, p) __builtin_nontemporal_store((v), (p))
#endif
#endif
#ifndef CLRS_NT_STORE
#define CLRS_NT_STORE(v, p) (*(p) = (v))
#endif

/* Element offset of index i on a blocked axis (block B, block stride s):
 * the element lives in block i / B at lane i % B. The lane is written
 * i - (i / B) * B: LLVM turns a div/rem pair into a "freeze" instruction
 * that Oclgrind's checker cannot run. */
#define CLRS_BLK(i, B, s) (((i) / (B)) * (s) + ((i) - ((i) / (B)) * (B)))
