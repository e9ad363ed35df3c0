/*
 * compiler_internal.h - the compiler hints of libgcut's hot loops, in one
 * place: forced inlining, branch expectations and bit scans. Plain macros
 * that fall back to portable C where the compiler has no builtin. Never
 * installed. (GCUT_HIDDEN, the visibility attribute, is in core_internal.h.)
 */
#ifndef GCUT_COMPILER_INTERNAL_H
#define GCUT_COMPILER_INTERNAL_H

#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
/* A static function inlined into every caller: the engines pass constants
 * (the connectivity, "parallel or not") down call chains and rely on one
 * specialised copy per caller. */
#define GCUT_INLINE static inline __attribute__((always_inline))
#define GCUT_LIKELY(x) __builtin_expect(!!(x), 1)
#define GCUT_UNLIKELY(x) __builtin_expect(!!(x), 0)
/* Index of the lowest set bit of a non-zero uint32_t. */
#define GCUT_CTZ32(x) __builtin_ctz(x)
#else
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

#endif /* GCUT_COMPILER_INTERNAL_H */
