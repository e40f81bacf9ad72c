/* SPDX-License-Identifier: MIT */
/* lx_emul: linux/kernel.h and its satellites (minmax, math, container_of, alignment). The
 * umbrella: includes the pure-header parts most drivers expect to get from linux/kernel.h. */
#ifndef LX_EMUL_KERNEL_H
#define LX_EMUL_KERNEL_H

/* libc's stdlib.h declares abs(); include it before the kernel's abs() macro so that a later
 * #include <stdlib.h> in glue code is a no-op instead of a syntax error. */
#include <stdlib.h>

#include <lx_emul/types.h>
#include <lx_emul/compiler.h>
#include <lx_emul/container_of.h>
#include <lx_emul/errno.h>
#include <lx_emul/err.h>
#include <lx_emul/bug.h>
#include <lx_emul/bitops.h>
#include <lx_emul/byteorder.h>
#include <lx_emul/string.h>
#include <lx_emul/printk.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + __lx_must_be_array(a))
#define __lx_must_be_array(a) BUILD_BUG_ON_ZERO(__same_type((a), &(a)[0]))


/* ---- alignment and rounding ---- */
#define __ALIGN_KERNEL_MASK(x, mask) (((x) + (mask)) & ~(mask))
#define __ALIGN_KERNEL(x, a) __ALIGN_KERNEL_MASK(x, (__typeof__(x))(a)-1)
#define ALIGN(x, a) __ALIGN_KERNEL((x), (a))
#define ALIGN_DOWN(x, a) __ALIGN_KERNEL((x) - ((a)-1), (a))
#define PTR_ALIGN(p, a) ((__typeof__(p))ALIGN((unsigned long)(p), (a)))
#define PTR_ALIGN_DOWN(p, a) ((__typeof__(p))ALIGN_DOWN((unsigned long)(p), (a)))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a)-1)) == 0)
#define __round_mask(x, y) ((__typeof__(x))((y)-1))
#define round_up(x, y) ((((x)-1) | __round_mask(x, y)) + 1)
#define round_down(x, y) ((x) & ~__round_mask(x, y))
#define DIV_ROUND_UP(n, d) (((n) + (d)-1) / (d))
#define DIV_ROUND_UP_ULL(ll, d) ((unsigned long long)DIV_ROUND_UP((unsigned long long)(ll), (d)))
#define DIV_ROUND_CLOSEST(x, divisor)                                                              \
    ({                                                                                             \
        __typeof__(x) __lx_x = (x);                                                                \
        __typeof__(divisor) __lx_d = (divisor);                                                    \
        (((__typeof__(x))-1) > 0 || ((__typeof__(divisor))-1) > 0 || (__lx_x > 0) == (__lx_d > 0)) \
            ? ((__lx_x + (__lx_d / 2)) / __lx_d)                                                   \
            : ((__lx_x - (__lx_d / 2)) / __lx_d);                                                  \
    })
#define roundup(x, y)                                                                              \
    ({                                                                                             \
        __typeof__(y) __lx_y = (y);                                                                \
        (((x) + (__lx_y - 1)) / __lx_y) * __lx_y;                                                  \
    })
#define rounddown(x, y)                                                                            \
    ({                                                                                             \
        __typeof__(x) __lx_x = (x);                                                                \
        __lx_x - (__lx_x % (y));                                                                   \
    })
#define do_div(n, base)                                                                            \
    ({                                                                                             \
        u32 __lx_base = (base);                                                                    \
        u32 __lx_rem = (u32)((n) % __lx_base);                                                     \
        (n) = (n) / __lx_base;                                                                     \
        __lx_rem;                                                                                  \
    })
static inline u64 div_u64(u64 dividend, u32 divisor) { return dividend / divisor; }
static inline s64 div_s64(s64 dividend, s32 divisor) { return dividend / divisor; }
static inline u64 div64_u64(u64 dividend, u64 divisor) { return dividend / divisor; }
static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32* rem)
{
    *rem = (u32)(dividend % divisor);
    return dividend / divisor;
}
static inline bool is_power_of_2(unsigned long n) { return n != 0 && ((n & (n - 1)) == 0); }
static inline unsigned long roundup_pow_of_two(unsigned long n)
{
    return n <= 1 ? 1UL : 1UL << (64 - __builtin_clzl(n - 1));
}
static inline unsigned long rounddown_pow_of_two(unsigned long n)
{
    return 1UL << (63 - __builtin_clzl(n));
}
static inline unsigned int ilog2_lx(unsigned long n) { return 63u - (unsigned)__builtin_clzl(n); }
#define ilog2(n) ((int)ilog2_lx((unsigned long)(n)))
#define order_base_2(n) ((n) > 1 ? ilog2((n)-1) + 1 : 0)
#define upper_32_bits(n) ((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n) ((u32)((n)&0xffffffff))
#define upper_16_bits(n) ((u16)((n) >> 16))
#define lower_16_bits(n) ((u16)((n)&0xffff))

/* ---- type-checked min/max (kernel semantics: both sides must have the same type) ---- */
#define __lx_cmp_once(op, x, y)                                                                    \
    ({                                                                                             \
        __typeof__(x) __lx_a = (x);                                                                \
        __typeof__(y) __lx_b = (y);                                                                \
        (void)(&__lx_a == &__lx_b);                                                                \
        __lx_a op __lx_b ? __lx_a : __lx_b;                                                        \
    })
#define min(x, y) __lx_cmp_once(<, x, y)
#define max(x, y) __lx_cmp_once(>, x, y)
#define min3(x, y, z) min((__typeof__(x))min(x, y), z)
#define max3(x, y, z) max((__typeof__(x))max(x, y), z)
#define min_t(type, x, y) __lx_cmp_once(<, (type)(x), (type)(y))
#define max_t(type, x, y) __lx_cmp_once(>, (type)(x), (type)(y))
#define min_not_zero(x, y)                                                                         \
    ({                                                                                             \
        __typeof__(x) __lx_x = (x);                                                                \
        __typeof__(y) __lx_y = (y);                                                                \
        __lx_x == 0 ? __lx_y : ((__lx_y == 0) ? __lx_x : min(__lx_x, __lx_y));                     \
    })
#define clamp(val, lo, hi) min((__typeof__(val))max(val, lo), hi)
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)
#define clamp_val(val, lo, hi) clamp_t(__typeof__(val), val, lo, hi)
#define swap(a, b)                                                                                 \
    do {                                                                                           \
        __typeof__(a) __lx_tmp = (a);                                                              \
        (a) = (b);                                                                                 \
        (b) = __lx_tmp;                                                                            \
    } while (0)
#define abs(x)                                                                                     \
    ({                                                                                             \
        __typeof__(x) __lx_x = (x);                                                                \
        __lx_x < 0 ? -__lx_x : __lx_x;                                                             \
    })
#define abs_diff(a, b)                                                                             \
    ({                                                                                             \
        __typeof__(a) __lx_a = (a);                                                                \
        __typeof__(b) __lx_b = (b);                                                                \
        (void)(&__lx_a == &__lx_b);                                                                \
        __lx_a > __lx_b ? (__lx_a - __lx_b) : (__lx_b - __lx_a);                                   \
    })

#define might_sleep() lx_emul_might_sleep(__func__)
#define might_sleep_if(cond)                                                                       \
    do {                                                                                           \
        if (cond)                                                                                  \
            might_sleep();                                                                         \
    } while (0)
#define cond_resched() ((void)0)
#define in_interrupt() 0
#define in_irq() 0
#define in_softirq() 0
#define in_atomic() 0
#define in_task() 1
/* Aborts if the calling context holds a spinlock / has BH off (sleeping in atomic context). */
void lx_emul_might_sleep(const char* what);

#define __KERNEL_DIV_ROUND_UP DIV_ROUND_UP
#define REPEAT_BYTE(x) ((~0ul / 0xff) * (x))
#define SZ_1K 0x400
#define SZ_2K 0x800
#define SZ_4K 0x1000
#define SZ_8K 0x2000
#define SZ_16K 0x4000
#define SZ_32K 0x8000
#define SZ_64K 0x10000
#define SZ_1M 0x100000
#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define L1_CACHE_BYTES 64
#define SMP_CACHE_BYTES 64
#define ARCH_KMALLOC_MINALIGN 8
#define ARCH_DMA_MINALIGN 64

#endif /* LX_EMUL_KERNEL_H */
