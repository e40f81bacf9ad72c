// SPDX-License-Identifier: MIT
/* lx_emul_real: kmalloc and devm_kmalloc behind the headers' inlines, on the tree's GFP bits:
 * __GFP_ZERO (its value differs between the header sets) becomes lx_emul's zero flag, the rest
 * of the flags say nothing to a simulation that never reclaims. The memory is lx_emul's
 * (lx_emul_alloc: accounted, poisoned unless zeroed, freed by kfree, which both header sets
 * declare alike). 6.1 (SLOB) calls __kmalloc for every size and kmalloc_large above the
 * largest cache; 6.12 calls its per-size caches (__kmalloc_cache_noprof with an entry of
 * kmalloc_caches, which only names a size class here), __kmalloc_noprof and
 * __kmalloc_large_noprof. Blocks are 16-byte aligned, not page aligned as kmalloc_large's
 * declaration promises the compiler: 16 bytes is what an SSE2 host's aligned accesses need. */
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <lx_emul/shared.h>

#include "internal.h"

static void *alloc(size_t size, gfp_t flags, const char *func)
{
    if (size == 0)
        return ZERO_SIZE_PTR;
    return lx_emul_alloc(size, (flags & __GFP_ZERO) != 0, func, "real-headers");
}

static void *dup(const void *src, size_t len, gfp_t gfp)
{
    void *p = alloc(len, gfp & ~__GFP_ZERO, "kmemdup");
    if (!ZERO_OR_NULL_PTR(p))
        memcpy(p, src, len);
    return p;
}

#if LX_REAL_KERNEL_AT_LEAST(6, 10)
kmem_buckets kmalloc_caches[NR_KMALLOC_TYPES];

void *__kmalloc_noprof(size_t size, gfp_t flags) { return alloc(size, flags, "kmalloc"); }

void *__kmalloc_cache_noprof(struct kmem_cache *s, gfp_t flags, size_t size)
{
    (void)s;
    return alloc(size, flags, "kmalloc");
}

void *__kmalloc_large_noprof(size_t size, gfp_t flags) { return alloc(size, flags, "kmalloc"); }

void *kmemdup_noprof(const void *src, size_t len, gfp_t gfp) { return dup(src, len, gfp); }
#else
void *__kmalloc(size_t size, gfp_t flags) { return alloc(size, flags, "kmalloc"); }

void *kmalloc_large(size_t size, gfp_t flags) { return alloc(size, flags, "kmalloc"); }

void *kmemdup(const void *src, size_t len, gfp_t gfp) { return dup(src, len, gfp); }
#endif

void *devm_kmalloc(struct device *dev, size_t size, gfp_t gfp)
{
    if (!dev)
        lx_kit_abort("devm_kmalloc with a NULL device");
    if (size == 0)
        return ZERO_SIZE_PTR;
    return lx_emul_devm_alloc(dev, size, (gfp & __GFP_ZERO) != 0, "devm_kmalloc", "real-headers");
}
