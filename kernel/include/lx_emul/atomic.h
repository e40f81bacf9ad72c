/* SPDX-License-Identifier: MIT */
/* lx_emul: atomic_t, atomic_long_t, refcount_t (linux/atomic.h, refcount.h). Plain operations:
 * the cooperative scheduler never interleaves two contexts inside one call. */
#ifndef LX_EMUL_ATOMIC_H
#define LX_EMUL_ATOMIC_H

#include <lx_emul/types.h>

#define ATOMIC_INIT(i) {(i)}
#define ATOMIC_LONG_INIT(i) {(i)}
#define ATOMIC64_INIT(i) {(i)}

#define __LX_ATOMIC_OPS(pfx, atype, ctype)                                                         \
    static inline ctype pfx##_read(const atype* v) { return READ_ONCE(v->counter); }              \
    static inline void pfx##_set(atype* v, ctype i) { WRITE_ONCE(v->counter, i); }                \
    static inline void pfx##_add(ctype i, atype* v) { v->counter += i; }                          \
    static inline void pfx##_sub(ctype i, atype* v) { v->counter -= i; }                          \
    static inline void pfx##_inc(atype* v) { v->counter++; }                                      \
    static inline void pfx##_dec(atype* v) { v->counter--; }                                      \
    static inline ctype pfx##_add_return(ctype i, atype* v) { return v->counter += i; }           \
    static inline ctype pfx##_sub_return(ctype i, atype* v) { return v->counter -= i; }           \
    static inline ctype pfx##_inc_return(atype* v) { return ++v->counter; }                       \
    static inline ctype pfx##_dec_return(atype* v) { return --v->counter; }                       \
    static inline ctype pfx##_fetch_add(ctype i, atype* v)                                         \
    {                                                                                              \
        ctype old = v->counter;                                                                    \
        v->counter += i;                                                                           \
        return old;                                                                                \
    }                                                                                              \
    static inline bool pfx##_dec_and_test(atype* v) { return --v->counter == 0; }                 \
    static inline bool pfx##_inc_and_test(atype* v) { return ++v->counter == 0; }                 \
    static inline bool pfx##_sub_and_test(ctype i, atype* v) { return (v->counter -= i) == 0; }   \
    static inline ctype pfx##_xchg(atype* v, ctype n)                                              \
    {                                                                                              \
        ctype old = v->counter;                                                                    \
        v->counter = n;                                                                            \
        return old;                                                                                \
    }                                                                                              \
    static inline ctype pfx##_cmpxchg(atype* v, ctype o, ctype n)                                  \
    {                                                                                              \
        ctype old = v->counter;                                                                    \
        if (old == o)                                                                              \
            v->counter = n;                                                                        \
        return old;                                                                                \
    }                                                                                              \
    static inline bool pfx##_add_unless(atype* v, ctype a, ctype u)                               \
    {                                                                                              \
        if (v->counter == u)                                                                       \
            return false;                                                                          \
        v->counter += a;                                                                           \
        return true;                                                                               \
    }                                                                                              \
    static inline void pfx##_or(ctype i, atype* v) { v->counter |= i; }                           \
    static inline void pfx##_and(ctype i, atype* v) { v->counter &= i; }

__LX_ATOMIC_OPS(atomic, atomic_t, int)
__LX_ATOMIC_OPS(atomic_long, atomic_long_t, long)
__LX_ATOMIC_OPS(atomic64, atomic64_t, s64)
#define atomic_inc_not_zero(v) atomic_add_unless((v), 1, 0)

#define xchg(ptr, v)                                                                               \
    ({                                                                                             \
        __typeof__(*(ptr)) __lx_old = *(ptr);                                                      \
        *(ptr) = (v);                                                                              \
        __lx_old;                                                                                  \
    })
#define cmpxchg(ptr, o, n)                                                                         \
    ({                                                                                             \
        __typeof__(*(ptr)) __lx_old = *(ptr);                                                      \
        if (__lx_old == (o))                                                                       \
            *(ptr) = (n);                                                                          \
        __lx_old;                                                                                  \
    })

typedef struct {
    atomic_t refs;
} refcount_t;
#define REFCOUNT_INIT(n) {.refs = ATOMIC_INIT(n)}
static inline void refcount_set(refcount_t* r, int n) { atomic_set(&r->refs, n); }
static inline unsigned int refcount_read(const refcount_t* r) { return atomic_read(&r->refs); }
static inline void refcount_inc(refcount_t* r) { atomic_inc(&r->refs); }
static inline bool refcount_dec_and_test(refcount_t* r) { return atomic_dec_and_test(&r->refs); }

#endif /* LX_EMUL_ATOMIC_H */
