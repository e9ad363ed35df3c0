/*
 * compiler_internal.h - the compiler hints of libgcut's hot loops, in one
 * place: visibility, printf-format checks, forced inlining, branch
 * expectations and bit scans. Plain macros that fall back to portable C
 * where the compiler has no builtin. Never installed.
 */
#ifndef GCUT_COMPILER_INTERNAL_H
#define GCUT_COMPILER_INTERNAL_H

#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
/* Internals shared across the files of a library, invisible outside it. */
#define GCUT_HIDDEN __attribute__((visibility("hidden")))
/* printf-style arguments a and b checked by the compiler. */
#define GCUT_PRINTF(a, b) __attribute__((format(printf, a, b)))
/* A static function inlined into every caller: the engines pass constants
 * (the connectivity, "parallel or not") down call chains and rely on one
 * specialised copy per caller. */
#define GCUT_INLINE static inline __attribute__((always_inline))
#define GCUT_LIKELY(x) __builtin_expect(!!(x), 1)
#define GCUT_UNLIKELY(x) __builtin_expect(!!(x), 0)
/* Index of the lowest set bit of a non-zero uint32_t. */
#define GCUT_CTZ32(x) __builtin_ctz(x)
#else
#define GCUT_HIDDEN
#define GCUT_PRINTF(a, b)
#define GCUT_INLINE static inline
#define GCUT_LIKELY(x) (x)
#define GCUT_UNLIKELY(x) (x)
static inline int gcut_i_ctz32(uint32_t x)
{
    int k = 0;
    while (!(x & 1u)) {
        x >>= 1;
        k++;
    }
    return k;
}
#define GCUT_CTZ32(x) gcut_i_ctz32(x)
#endif

/* Internal services that libgcut.so exports for libgcut_vision and the
 * tools (core_internal.h, outfile_internal.h): declared only in headers
 * that are never installed, so they are not public API. In the static
 * library they stay hidden like every other internal. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(GCUT_STATIC_DEFINE)
#define GCUT_I_SHARED __attribute__((visibility("default")))
#else
#define GCUT_I_SHARED GCUT_HIDDEN
#endif

#endif /* GCUT_COMPILER_INTERNAL_H */
