/* SPDX-License-Identifier: MIT */
/* lx_emul: the kernel's basic types (linux/types.h). */
#ifndef LX_EMUL_TYPES_H
#define LX_EMUL_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h> /* ssize_t, off_t: same definitions as the kernel's on LP64 */

#include <lx_emul/compiler.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "nicsim's kernel emulation assumes a little-endian host (cpu_to_le* are no-ops)"
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef u8 __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef s8 __s8;
typedef s16 __s16;
typedef s32 __s32;
typedef s64 __s64;

typedef u16 __le16;
typedef u16 __be16;
typedef u32 __le32;
typedef u32 __be32;
typedef u64 __le64;
typedef u64 __be64;
typedef u16 __sum16;
typedef u32 __wsum;

typedef unsigned int gfp_t;
typedef unsigned int fmode_t;
typedef unsigned int slab_flags_t;
typedef u64 dma_addr_t;
typedef u64 phys_addr_t;
typedef phys_addr_t resource_size_t;
typedef unsigned long ulong;
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned char uchar;
typedef s64 ktime_t;
typedef unsigned long irq_hw_number_t;

#define DECLARE_BITMAP(name, bits) unsigned long name[((bits) + 8 * sizeof(long) - 1) / (8 * sizeof(long))]

struct list_head {
    struct list_head *next, *prev;
};
struct hlist_head {
    struct hlist_node* first;
};
struct hlist_node {
    struct hlist_node *next, **pprev;
};

typedef struct {
    int counter;
} atomic_t;
typedef struct {
    long counter;
} atomic_long_t;
typedef struct {
    s64 counter;
} atomic64_t;

struct callback_head {
    struct callback_head* next;
    void (*func)(struct callback_head* head);
};
#define rcu_head callback_head

#define U8_MAX ((u8)~0U)
#define S8_MAX ((s8)(U8_MAX >> 1))
#define S8_MIN ((s8)(-S8_MAX - 1))
#define U16_MAX ((u16)~0U)
#define S16_MAX ((s16)(U16_MAX >> 1))
#define S16_MIN ((s16)(-S16_MAX - 1))
#define U32_MAX ((u32)~0U)
#define S32_MAX ((s32)(U32_MAX >> 1))
#define S32_MIN ((s32)(-S32_MAX - 1))
#define U64_MAX ((u64)~0ULL)
#define S64_MAX ((s64)(U64_MAX >> 1))
#define S64_MIN ((s64)(-S64_MAX - 1))
#ifndef INT_MAX
#define INT_MAX ((int)(~0U >> 1))
#define INT_MIN (-INT_MAX - 1)
#define UINT_MAX (~0U)
#define LONG_MAX ((long)(~0UL >> 1))
#define LONG_MIN (-LONG_MAX - 1)
#define ULONG_MAX (~0UL)
#define LLONG_MAX ((long long)(~0ULL >> 1))
#define ULLONG_MAX (~0ULL)
#define SHRT_MAX ((short)(USHRT_MAX >> 1))
#define SHRT_MIN ((short)(-SHRT_MAX - 1))
#define USHRT_MAX ((unsigned short)~0U)
#endif
#ifndef SIZE_MAX
#define SIZE_MAX (~(size_t)0)
#endif

#endif /* LX_EMUL_TYPES_H */
