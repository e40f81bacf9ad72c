/* SPDX-License-Identifier: MIT */
/* lx_emul: bits, masks, bit fields and bit operations (linux/bits.h, bitfield.h, bitops.h).
 * Kernel semantics: BIT()/GENMASK() are unsigned long (64-bit on LP64); FIELD_PREP(mask, v) is
 * ((typeof(mask))(v) << shift(mask)) & mask, so out-of-range values are silently truncated
 * (FIELD_PREP(BIT(31), 2) == 0). */
#ifndef LX_EMUL_BITOPS_H
#define LX_EMUL_BITOPS_H

#include <lx_emul/types.h>

#define BITS_PER_BYTE 8
#define BITS_PER_LONG 64
#define BITS_PER_LONG_LONG 64
#define BIT(nr) (1UL << (nr))
#define BIT_ULL(nr) (1ULL << (nr))
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BITS_TO_LONGS(nr) (((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define GENMASK(h, l) (((~0UL) - (1UL << (l)) + 1) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l) (((~0ULL) - (1ULL << (l)) + 1) & (~0ULL >> (BITS_PER_LONG_LONG - 1 - (h))))

/* ---- bit fields ---- */
#define __bf_shf(x) (__builtin_ffsll(x) - 1)
#define __LX_BF_CHECK_MASK(mask)                                                                   \
    _Static_assert((mask) != 0, "FIELD_*: mask must be a non-zero constant")
#define FIELD_MAX(mask) ({ __LX_BF_CHECK_MASK(mask); (__typeof__(mask))((mask) >> __bf_shf(mask)); })
#define FIELD_FIT(mask, val)                                                                       \
    ({                                                                                             \
        __LX_BF_CHECK_MASK(mask);                                                                  \
        !((((__typeof__(mask))(val)) << __bf_shf(mask)) & ~(mask));                                \
    })
#define FIELD_PREP(mask, val)                                                                      \
    ({                                                                                             \
        __LX_BF_CHECK_MASK(mask);                                                                  \
        ((__typeof__(mask))(val) << __bf_shf(mask)) & (mask);                                      \
    })
#define FIELD_GET(mask, reg)                                                                       \
    ({                                                                                             \
        __LX_BF_CHECK_MASK(mask);                                                                  \
        (__typeof__(mask))(((reg) & (mask)) >> __bf_shf(mask));                                    \
    })
#define u32_encode_bits(v, field) FIELD_PREP((u32)(field), v)
#define u32_get_bits(v, field) ((u32)FIELD_GET((u32)(field), v))
#define u16_encode_bits(v, field) FIELD_PREP((u16)(field), v)
#define u16_get_bits(v, field) ((u16)FIELD_GET((u16)(field), v))
#define u8_encode_bits(v, field) FIELD_PREP((u8)(field), v)
#define u8_get_bits(v, field) ((u8)FIELD_GET((u8)(field), v))

/* ---- single bits in unsigned long arrays (non-atomic and "atomic": same under the cooperative
 * scheduler, which never interleaves two contexts inside one call) ---- */
static inline void __set_bit(unsigned long nr, volatile unsigned long* addr)
{
    addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}
static inline void __clear_bit(unsigned long nr, volatile unsigned long* addr)
{
    addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}
static inline void __change_bit(unsigned long nr, volatile unsigned long* addr)
{
    addr[BIT_WORD(nr)] ^= BIT_MASK(nr);
}
static inline bool test_bit(unsigned long nr, const volatile unsigned long* addr)
{
    return (addr[BIT_WORD(nr)] >> (nr % BITS_PER_LONG)) & 1UL;
}
static inline bool __test_and_set_bit(unsigned long nr, volatile unsigned long* addr)
{
    bool old = test_bit(nr, addr);
    __set_bit(nr, addr);
    return old;
}
static inline bool __test_and_clear_bit(unsigned long nr, volatile unsigned long* addr)
{
    bool old = test_bit(nr, addr);
    __clear_bit(nr, addr);
    return old;
}
#define set_bit __set_bit
#define clear_bit __clear_bit
#define change_bit __change_bit
#define test_and_set_bit __test_and_set_bit
#define test_and_clear_bit __test_and_clear_bit
#define clear_bit_unlock __clear_bit
#define test_and_set_bit_lock __test_and_set_bit

/* ---- bit search ---- */
static inline int ffs(int x) { return __builtin_ffs(x); }
static inline int fls(unsigned int x) { return x ? 32 - __builtin_clz(x) : 0; }
static inline int fls64(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }
static inline unsigned long __ffs(unsigned long w) { return (unsigned long)__builtin_ctzl(w); }
static inline unsigned long __fls(unsigned long w) { return 63UL - (unsigned long)__builtin_clzl(w); }
static inline unsigned long ffz(unsigned long w) { return __ffs(~w); }
static inline unsigned int hweight8(unsigned int w) { return __builtin_popcount(w & 0xffu); }
static inline unsigned int hweight16(unsigned int w) { return __builtin_popcount(w & 0xffffu); }
static inline unsigned int hweight32(unsigned int w) { return __builtin_popcount(w); }
static inline unsigned long hweight64(u64 w) { return (unsigned long)__builtin_popcountll(w); }
static inline unsigned long hweight_long(unsigned long w) { return hweight64(w); }
static inline int get_count_order(unsigned int count)
{
    return count == 0 ? -1 : fls(count - 1);
}
static inline u32 rol32(u32 w, unsigned int s) { return (w << (s & 31)) | (w >> ((-s) & 31)); }
static inline u32 ror32(u32 w, unsigned int s) { return (w >> (s & 31)) | (w << ((-s) & 31)); }

static inline unsigned long find_next_bit(const unsigned long* addr, unsigned long size,
                                          unsigned long offset)
{
    for (; offset < size; offset++)
        if (test_bit(offset, addr))
            return offset;
    return size;
}
static inline unsigned long find_next_zero_bit(const unsigned long* addr, unsigned long size,
                                               unsigned long offset)
{
    for (; offset < size; offset++)
        if (!test_bit(offset, addr))
            return offset;
    return size;
}
#define find_first_bit(addr, size) find_next_bit((addr), (size), 0)
#define find_first_zero_bit(addr, size) find_next_zero_bit((addr), (size), 0)
#define for_each_set_bit(bit, addr, size)                                                          \
    for ((bit) = find_next_bit((addr), (size), 0); (bit) < (size);                                  \
         (bit) = find_next_bit((addr), (size), (bit) + 1))
#define for_each_clear_bit(bit, addr, size)                                                        \
    for ((bit) = find_next_zero_bit((addr), (size), 0); (bit) < (size);                             \
         (bit) = find_next_zero_bit((addr), (size), (bit) + 1))

static inline void bitmap_zero(unsigned long* dst, unsigned int nbits)
{
    __builtin_memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}
static inline void bitmap_fill(unsigned long* dst, unsigned int nbits)
{
    __builtin_memset(dst, 0xff, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}
static inline bool bitmap_empty(const unsigned long* src, unsigned int nbits)
{
    return find_first_bit(src, nbits) == nbits;
}

#endif /* LX_EMUL_BITOPS_H */
