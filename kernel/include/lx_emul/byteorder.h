/* SPDX-License-Identifier: MIT */
/* lx_emul: byte order and unaligned access (asm/byteorder.h, linux/unaligned, swab.h).
 * Little-endian host: cpu_to_le* are identities, *_be* swap with __builtin_bswap* so that
 * htons(ETH_P_IP) stays an integer constant expression (drivers use it in case labels). Keep
 * <netinet/in.h> and <arpa/inet.h> out of kernel translation units. */
#ifndef LX_EMUL_BYTEORDER_H
#define LX_EMUL_BYTEORDER_H

#include <lx_emul/types.h>

#define __LITTLE_ENDIAN 1234
#define __LITTLE_ENDIAN_BITFIELD 1

#define swab16(x) ((u16)__builtin_bswap16((u16)(x)))
#define swab32(x) ((u32)__builtin_bswap32((u32)(x)))
#define swab64(x) ((u64)__builtin_bswap64((u64)(x)))
#define __swab16 swab16
#define __swab32 swab32
#define __swab64 swab64

#define cpu_to_le16(x) ((__le16)(u16)(x))
#define cpu_to_le32(x) ((__le32)(u32)(x))
#define cpu_to_le64(x) ((__le64)(u64)(x))
#define le16_to_cpu(x) ((u16)(__le16)(x))
#define le32_to_cpu(x) ((u32)(__le32)(x))
#define le64_to_cpu(x) ((u64)(__le64)(x))
#define cpu_to_be16(x) ((__be16)swab16(x))
#define cpu_to_be32(x) ((__be32)swab32(x))
#define cpu_to_be64(x) ((__be64)swab64(x))
#define be16_to_cpu(x) swab16((__be16)(x))
#define be32_to_cpu(x) swab32((__be32)(x))
#define be64_to_cpu(x) swab64((__be64)(x))
#define __cpu_to_le16 cpu_to_le16
#define __cpu_to_le32 cpu_to_le32
#define __le16_to_cpu le16_to_cpu
#define __le32_to_cpu le32_to_cpu
#define __cpu_to_be16 cpu_to_be16
#define __cpu_to_be32 cpu_to_be32
#define __be16_to_cpu be16_to_cpu
#define __be32_to_cpu be32_to_cpu

#define le16_to_cpup(p) le16_to_cpu(*(const __le16*)(p))
#define le32_to_cpup(p) le32_to_cpu(*(const __le32*)(p))
#define be16_to_cpup(p) be16_to_cpu(*(const __be16*)(p))
#define be32_to_cpup(p) be32_to_cpu(*(const __be32*)(p))
/* In-place conversions: identities on little-endian, real swaps for big-endian. */
#define cpu_to_le16s(p) ((void)(p))
#define cpu_to_le32s(p) ((void)(p))
#define cpu_to_le64s(p) ((void)(p))
#define le16_to_cpus(p) ((void)(p))
#define le32_to_cpus(p) ((void)(p))
#define le64_to_cpus(p) ((void)(p))
#define cpu_to_be16s(p) (*(p) = cpu_to_be16(*(p)))
#define cpu_to_be32s(p) (*(p) = cpu_to_be32(*(p)))
#define be16_to_cpus(p) (*(p) = be16_to_cpu(*(p)))
#define be32_to_cpus(p) (*(p) = be32_to_cpu(*(p)))

#define htons(x) cpu_to_be16(x)
#define ntohs(x) be16_to_cpu(x)
#define htonl(x) cpu_to_be32(x)
#define ntohl(x) be32_to_cpu(x)

/* ---- unaligned access: memcpy-based, so any alignment is fine ---- */
static inline u16 get_unaligned_le16(const void* p)
{
    u16 v;
    __builtin_memcpy(&v, p, 2);
    return v;
}
static inline u32 get_unaligned_le32(const void* p)
{
    u32 v;
    __builtin_memcpy(&v, p, 4);
    return v;
}
static inline u64 get_unaligned_le64(const void* p)
{
    u64 v;
    __builtin_memcpy(&v, p, 8);
    return v;
}
static inline u16 get_unaligned_be16(const void* p) { return swab16(get_unaligned_le16(p)); }
static inline u32 get_unaligned_be32(const void* p) { return swab32(get_unaligned_le32(p)); }
static inline u64 get_unaligned_be64(const void* p) { return swab64(get_unaligned_le64(p)); }
static inline void put_unaligned_le16(u16 v, void* p) { __builtin_memcpy(p, &v, 2); }
static inline void put_unaligned_le32(u32 v, void* p) { __builtin_memcpy(p, &v, 4); }
static inline void put_unaligned_le64(u64 v, void* p) { __builtin_memcpy(p, &v, 8); }
static inline void put_unaligned_be16(u16 v, void* p) { put_unaligned_le16(swab16(v), p); }
static inline void put_unaligned_be32(u32 v, void* p) { put_unaligned_le32(swab32(v), p); }
static inline void put_unaligned_be64(u64 v, void* p) { put_unaligned_le64(swab64(v), p); }
#define get_unaligned(ptr)                                                                         \
    ({                                                                                             \
        __typeof__(*(ptr)) __lx_v;                                                                 \
        __builtin_memcpy(&__lx_v, (ptr), sizeof(__lx_v));                                          \
        __lx_v;                                                                                    \
    })
#define put_unaligned(val, ptr)                                                                    \
    do {                                                                                           \
        __typeof__(*(ptr)) __lx_v = (val);                                                         \
        __builtin_memcpy((ptr), &__lx_v, sizeof(__lx_v));                                         \
    } while (0)

#endif /* LX_EMUL_BYTEORDER_H */
