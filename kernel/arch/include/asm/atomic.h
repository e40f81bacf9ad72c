/* SPDX-License-Identifier: MIT */
#ifndef _NICSIM_ASM_ATOMIC_H
#define _NICSIM_ASM_ATOMIC_H
/* The arch's atomics as GCC __atomic builtins (sequentially consistent, as the kernel's value-
 * returning atomics are); the kernel's fallbacks derive the rest. */
#include <linux/types.h>
#include <asm/cmpxchg.h>
#include <asm/barrier.h>

#define NICSIM_ATOMIC_OPS(pfx, t, vt)                                                            \
static __always_inline vt pfx##_read(const t *v) { return __atomic_load_n(&v->counter, __ATOMIC_RELAXED); } \
static __always_inline void pfx##_set(t *v, vt i) { __atomic_store_n(&v->counter, i, __ATOMIC_RELAXED); } \
static __always_inline void pfx##_add(vt i, t *v) { __atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); } \
static __always_inline void pfx##_sub(vt i, t *v) { __atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED); } \
static __always_inline void pfx##_and(vt i, t *v) { __atomic_fetch_and(&v->counter, i, __ATOMIC_RELAXED); } \
static __always_inline void pfx##_or(vt i, t *v) { __atomic_fetch_or(&v->counter, i, __ATOMIC_RELAXED); } \
static __always_inline void pfx##_xor(vt i, t *v) { __atomic_fetch_xor(&v->counter, i, __ATOMIC_RELAXED); } \
static __always_inline vt pfx##_add_return(vt i, t *v) { return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST); } \
static __always_inline vt pfx##_sub_return(vt i, t *v) { return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST); } \
static __always_inline vt pfx##_fetch_add(vt i, t *v) { return __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST); } \
static __always_inline vt pfx##_fetch_sub(vt i, t *v) { return __atomic_fetch_sub(&v->counter, i, __ATOMIC_SEQ_CST); } \
static __always_inline vt pfx##_fetch_and(vt i, t *v) { return __atomic_fetch_and(&v->counter, i, __ATOMIC_SEQ_CST); } \
static __always_inline vt pfx##_fetch_or(vt i, t *v) { return __atomic_fetch_or(&v->counter, i, __ATOMIC_SEQ_CST); } \
static __always_inline vt pfx##_fetch_xor(vt i, t *v) { return __atomic_fetch_xor(&v->counter, i, __ATOMIC_SEQ_CST); } \
static __always_inline vt pfx##_xchg(t *v, vt n) { return __atomic_exchange_n(&v->counter, n, __ATOMIC_SEQ_CST); } \
static __always_inline vt pfx##_cmpxchg(t *v, vt o, vt n) {                                      \
    __atomic_compare_exchange_n(&v->counter, &o, n, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);       \
    return o;                                                                                    \
}

#ifndef ATOMIC_INIT
#define ATOMIC_INIT(i) { (i) }
#endif
#define ATOMIC64_INIT(i) { (i) }
NICSIM_ATOMIC_OPS(arch_atomic, atomic_t, int)
NICSIM_ATOMIC_OPS(arch_atomic64, atomic64_t, s64)
#define arch_atomic_read arch_atomic_read
#define arch_atomic_set arch_atomic_set
#define arch_atomic_add_return arch_atomic_add_return
#define arch_atomic_sub_return arch_atomic_sub_return
#define arch_atomic_fetch_add arch_atomic_fetch_add
#define arch_atomic_fetch_sub arch_atomic_fetch_sub
#define arch_atomic_fetch_and arch_atomic_fetch_and
#define arch_atomic_fetch_or arch_atomic_fetch_or
#define arch_atomic_fetch_xor arch_atomic_fetch_xor
#define arch_atomic_xchg arch_atomic_xchg
#define arch_atomic_cmpxchg arch_atomic_cmpxchg
#define arch_atomic64_read arch_atomic64_read
#define arch_atomic64_set arch_atomic64_set
#define arch_atomic64_add_return arch_atomic64_add_return
#define arch_atomic64_sub_return arch_atomic64_sub_return
#define arch_atomic64_fetch_add arch_atomic64_fetch_add
#define arch_atomic64_fetch_sub arch_atomic64_fetch_sub
#define arch_atomic64_fetch_and arch_atomic64_fetch_and
#define arch_atomic64_fetch_or arch_atomic64_fetch_or
#define arch_atomic64_fetch_xor arch_atomic64_fetch_xor
#define arch_atomic64_xchg arch_atomic64_xchg
#define arch_atomic64_cmpxchg arch_atomic64_cmpxchg
#endif
